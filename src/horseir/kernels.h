// Declarations of every interpreter kernel named in builtins.def (defined in kernels_*.cpp).
#pragma once

#include "horseir/internal.h"

namespace rndn::hir {
#define K_NONE KNoneUnused
#define HIR_BUILTIN(ID, NAME, MINA, MAXA, RULE, KERNEL, PAR, NULLS) \
    Expected<Value> KERNEL(KernelCtx &ctx, const std::vector<Value> &args);
#include "horseir/builtins.def"
#undef HIR_BUILTIN
#undef K_NONE
}  // namespace rndn::hir
