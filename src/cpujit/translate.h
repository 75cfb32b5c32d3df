// PTX (kernel IR) -> LLVM 14 IR translation (internal to src/cpujit).
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/status.h"
#include "cpujit/cpujit.h"
#include "cpujit/kir.h"

#ifndef RNDN_CPUJIT_LANES
#define RNDN_CPUJIT_LANES 32
#endif

namespace llvm {
class Module;
}

namespace rndn::cpujit {

struct KernelPlan {
    std::string name;
    std::string symbol;      // the LLVM function name
    std::string cta_symbol;  // the CTA-loop function (kernels without synchronisation points), or ""
    std::vector<ParamInfo> params;
    uint32_t param_bytes = 0;
    uint64_t static_shared = 0;
    uint64_t local_bytes = 0;
    uint32_t frame_slots = 0;
    uint32_t check_sites = 0;  // global/generic access sites with a range cache
    std::vector<uint8_t> cut_kinds;  // CutKind per synchronisation point, id = index + 1
    std::vector<int> cut_lines;
    int line = 0;
    bool lockstep = false;  // the warp runs in lock-step (symbol runs one warp, see translate.cpp)
};

// Largest CTA (threads); ThreadCtx::tid_tab holds 3 rows of this many entries.
inline constexpr uint32_t kMaxThreads = 1024;
// Lock-step kernels run a gang of this many consecutive threads per call (they have no warp
// collectives, so any grouping is exact; a narrower gang than the 32-lane warp compiles faster
// and spills less).  ThreadCtx::warpid holds the gang's index there.
inline constexpr uint32_t kLanes = RNDN_CPUJIT_LANES;

// Host addresses of module-scope .global/.const variables.
using GlobalAddrs = std::unordered_map<std::string, uint64_t>;

// Inlines .func calls into the entry (recursion is an error).
Expected<kir::Function> InlineCalls(const kir::Module &m, const kir::Function &entry);

// Translates one entry function (calls already inlined) into `out`.  With `lockstep`, a kernel
// without synchronisation points runs a warp's lanes in lock-step (vectorised); otherwise, and
// for kernels with synchronisation points, each PTX thread is a function resumed at every cut.
Expected<KernelPlan> TranslateKernel(const kir::Module &m, const kir::Function &entry, const GlobalAddrs &globals,
                                     llvm::Module &out, bool lockstep = true);

}  // namespace rndn::cpujit
