// Contiguity checks of the lock-step code (internal to src/cpujit).
//
// A warp's memory access is one vector load or store when its lanes' addresses are consecutive.
// The translator asks `rndn.contiguous(<W x i64> addr, i64 step)` (true when lane l's address is
// lane 0's + l * step) and LowerContiguityChecks replaces each call once the code is in SSA
// form: where the address is splat(base) + ext(i32 index) * step, as in `a[i]` with a 32-bit
// index, the check compares the indices (half the vector width) and lane 0's address is
// computed from scalars, so the 64-bit address vector is only needed by the gather path.
// Otherwise the addresses themselves are compared.  Where the index is a loop phi that grows by
// a uniform stride (a grid-stride loop), the access 16 strides ahead is prefetched as well.
#pragma once

namespace llvm {
class Function;
class Module;
}  // namespace llvm

namespace rndn::cpujit {

inline constexpr const char *kContiguityCheck = "rndn.contiguous";

// Declares the check for `lanes`-wide address vectors in `m`.
llvm::Function *ContiguityCheckFn(llvm::Module &m, unsigned lanes);

// Replaces every call of the check in `m` (run after SROA, before code generation).
void LowerContiguityChecks(llvm::Module &m);

}  // namespace rndn::cpujit
