// Numeric typmod kernels (issue 18): @numeric_fit, the precision check of a cast to
// numeric(p, s).
#include "horseir/kernel_util.h"

namespace rndn::hir {

// @numeric_fit(x, p): x itself when every valid element's absolute value is below 10^p in units
// of x's last digit (x is already rounded to the target scale s, so that is |value| < 10^(p-s)),
// else PostgreSQL's numeric field overflow.  A per-element x is checked at its storage scale,
// which is the one the translator casts to before this call.
Expected<Value> KNumericFit(KernelCtx &, const std::vector<Value> &args) {
    RNDN_RETURN_IF_ERROR(NeedVector(args[0], "numeric_fit", 0));
    RNDN_RETURN_IF_ERROR(NeedVector(args[1], "numeric_fit", 1));
    const Vector &x = args[0].vector();
    if (!IsDecimal(x.type.kind)) return TypeError("@numeric_fit: expects a decimal");
    RNDN_ASSIGN_OR_RETURN(auto pv, As(args[1].vector_ptr(), TypeKind::I64));
    if (pv->length != 1 || !pv->IsValid(0)) return TypeError("@numeric_fit: expects one precision");
    const int64_t p = pv->Data<int64_t>()[0];
    if (p < 1 || p > 38) return TypeError("@numeric_fit: precision out of 1..38");
    const __int128 lim = Pow10(static_cast<int>(p));
    for (int64_t i = 0; i < x.length; ++i) {
        PollCancel(i);
        if (!x.IsValid(i)) continue;
        const __int128 v = x.type.kind == TypeKind::DEC64 ? static_cast<__int128>(x.Data<int64_t>()[i]) : x.Data<__int128>()[i];
        if (v >= lim || v <= -lim) return Status::UserError(sqlstate::kNumericOutOfRange, "numeric field overflow");
    }
    return args[0];
}

}  // namespace rndn::hir
