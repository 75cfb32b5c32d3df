// Internal declarations of src/codegen (not part of the public seam).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "codegen/codegen.h"

namespace rndn::codegen {
// An empty PTX cache (runner.cpp).
std::shared_ptr<PtxCache> NewPtxCache();
// The reduction of each per-cell output of a by-rows kernel: the @each (SEGREDUCE) that its
// @raze reads (nullptr where there is none); `entry` is the kernel's function (ptxgen.cpp).
std::vector<const KernelStmt *> CellReductions(const hir::Function &entry, const Kernel &k);
}  // namespace rndn::codegen

namespace rndn::codegen::kernel {

// Register class of a value inside a kernel.
enum class VClass : uint8_t { NONE, PRED, U8, S32, S64, F64, DEC, STR };
const char *VClassName(VClass c);
VClass ClassOf(const hir::Type &t);     // NONE when kernels do not take the type
bool TypeSupported(const hir::Type &t);  // numeric, bool, char, date (not strings)
bool IsStringType(const hir::Type &t);  // str/sym: only @eq/@neq against a literal
int ElementBytes(const hir::Type &t);  // bytes of one element in a column

bool IsElementwise(const std::string &builtin);  // has a row in templates.def (any class)
bool IsComparison(const std::string &builtin);
bool IsReduction(const std::string &builtin);    // sum count len min max
bool ElementwiseSupported(const std::string &builtin, const std::vector<hir::Type> &args, const hir::Type &result);
bool ReductionSupported(const std::string &builtin, const hir::Type &arg, const hir::Type &result);
// The PTX pattern for builtin x class, or nullptr.
const char *Pattern(const std::string &builtin, VClass c);

}  // namespace rndn::codegen::kernel
