// Internal declarations shared by the horseir sources (not part of the public seam).
#pragma once

#include <cmath>

#include <string>
#include <vector>

#include "horseir/horseir.h"

namespace rndn::hir {

// ---- type rules (checker_rules.cpp)
struct RuleCtx {
    const std::vector<Type> &args;
    // For FUNC arguments: the resolved function; nullptr for other arguments.
    const std::vector<const FuncRef *> &funcs;
    // Applies a function's type rule (builtin or user function) to argument types.
    std::function<Expected<std::vector<Type>>(const FuncRef &, const std::vector<Type> &)> apply;
};
using TypeRule = Expected<std::vector<Type>> (*)(RuleCtx &ctx);

// ---- interpreter kernels (kernels_*.cpp)
class Interp;
struct KernelCtx {
    Interp *interp = nullptr;
    // Calls a function value (builtin or user) on arguments; used by each*, join_index.
    std::function<Expected<std::vector<Value>>(const FuncRef &, const std::vector<Value> &)> call;
    DataRegistry *data = nullptr;
    const InterpretOptions *options = nullptr;
    bool Cancelled() const { return options && options->should_cancel && options->should_cancel(); }
};
using Kernel = Expected<Value> (*)(KernelCtx &ctx, const std::vector<Value> &args);

// Cancel polling inside a kernel's long loops, sorts included.  Interp::Call runs every kernel
// with its run's should_cancel as this thread's poller; a loop calls PollCancel(i) (it polls
// every 64Ki iterations: well under a millisecond of work between polls for the loops that use
// it) and a sort's comparator CancelTicker::Tick().  A poll that sees the request throws
// CancelUnwind: the kernel's frames unwind (they hold only RAII state; std::sort and
// std::stable_sort leave the range valid) up to Interp::Call, which returns Status::Cancelled().
// Outside a run (no poller) nothing is polled.
void PollCancelNow();
inline void PollCancel(int64_t i) {
    if ((i & 0xffff) == 0) PollCancelNow();
}
struct CancelTicker {
    uint32_t n = 0;
    uint32_t mask = 0xffff;  // 0x3ff for loops whose every step is costly (one list cell)
    void Tick() {
        if ((++n & mask) == 0) PollCancelNow();
    }
};

struct BuiltinInfo {
    Builtin id;
    const char *name;
    int min_arity;
    int max_arity;  // -1: variadic
    TypeRule rule;
    Kernel kernel;  // nullptr: unimplemented at run time
    ParClass par;
    NullRule nulls;
};

const BuiltinInfo &GetBuiltin(Builtin b);
const BuiltinInfo &GetBuiltin(int b);
// -1 when no builtin has that name.
int LookupBuiltin(std::string_view name);
int NumBuiltins();

// ---- shared helpers
Type WidestType(const Type &a, const Type &b);  // §3.2 with decimal extension
bool IsCastable(const Type &dest, const Type &src);
// Casts a vector to another basic type (check_cast at run time and implicit widening).
Expected<std::shared_ptr<const Vector>> CastVector(const std::shared_ptr<const Vector> &v,
                                                   const Type &to, bool sql = false);
Status ShapeError(const std::string &what);
Status TypeError(const std::string &what);

// Overflow error for the result type (PostgreSQL wording).
Status IntegerOutOfRange(TypeKind k);
Status DivisionByZero();
// PostgreSQL's float range error: which is "overflow" or "underflow".
Status FloatOutOfRange(const char *which);
// PostgreSQL's float overflow rule (float4pl, float8pl, float8mul ...): result r of finite p and
// q became infinite.
template <class T>
inline bool OverflowedToInfinity(T r, T p, T q) {
    return std::isinf(r) && !std::isinf(p) && !std::isinf(q);
}

// Per-element helpers used by kernels.
inline uint64_t *BitmapWords(Vector &v) { return v.validity.data(); }
// The combined validity of a and b broadcast to n elements, into out (empty when no NULLs).
void CombineValidity(const Vector &a, const Vector &b, int64_t n, Buf<uint64_t> &out);
void CopyValidity(const Vector &a, int64_t n, Buf<uint64_t> &out);

// Vector construction shortcuts (abort-free: return nullptr only on allocation failure, which
// kernels turn into OUT_OF_MEMORY).
Expected<std::shared_ptr<Vector>> NewVector(const Type &t, int64_t n);
// A str/sym vector's payload of `count` elements and `bytes` bytes from the payload pool, not
// zero-filled: *offsets (count + 1 entries) and *chars are written by the caller, then
// FinishStrings makes them the vector's (read-only views; a later append copies them).
struct StringPayload {
    std::shared_ptr<uint8_t[]> offsets, chars;
    int64_t *Offsets() { return reinterpret_cast<int64_t *>(offsets.get()); }
    char *Chars() { return reinterpret_cast<char *>(chars.get()); }
};
Expected<StringPayload> AllocStrings(int64_t count, int64_t bytes);
void FinishStrings(Vector &v, StringPayload &&p, int64_t count, int64_t bytes);
std::shared_ptr<Vector> ScalarI64(int64_t v);
std::shared_ptr<Vector> ScalarBool(bool v);

// Gathers v[idx[i]] for an i64 index vector (bounds checked).  NULL index -> NULL element.
Expected<std::shared_ptr<const Vector>> Gather(const Vector &v, const int64_t *idx, int64_t n);
// Element-wise copy of rows [from, from+n) of src into dst starting at `at` (same type).
void CopyRange(const Vector &src, int64_t from, int64_t n, Vector &dst, int64_t at);

// Comparison of element i of a with element j of b (same type; -1/0/1); NULLs compare equal to
// each other and greater than any value.
int CompareElements(const Vector &a, int64_t i, const Vector &b, int64_t j);

// Decimal helpers (decimal.cpp)
__int128 Pow10(int n);
// PostgreSQL numeric division result scale (select_div_scale) for these operand values.
int SelectDivScale(__int128 num, int num_scale, __int128 den, int den_scale);
// The same for operands stored at num_scale/den_scale whose display scales are smaller.
int SelectDivScale(__int128 num, int num_scale, __int128 den, int den_scale, int num_dscale, int den_dscale);
// Rounds x / 10^drop half away from zero.
__int128 RoundShift(__int128 x, int drop);
// Divides (num at num_scale) by (den at den_scale), giving a value at rscale, rounded half
// away from zero.  den != 0.  Fails on overflow.
Expected<__int128> DecimalDivide(__int128 num, int num_scale, __int128 den, int den_scale,
                                 int rscale);
double DecimalToDouble(__int128 v, int scale);

// Formatting for literals in program text (printer/parser share it).
std::string DateToString(int32_t days);

}  // namespace rndn::hir
