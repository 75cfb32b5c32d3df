// @num_var(x, kind): PostgreSQL 15's var_pop/var_samp/stddev_pop/stddev_samp of integer and
// numeric inputs (kind 0..3, as @float_var), a numeric with PostgreSQL's digits and display
// scale.  PostgreSQL accumulates N, sum(X) and sum(X*X) exactly (int128 for int2/int4, numeric
// for int8 and numeric, the largest input display scale kept) and numeric_stddev_internal
// finishes with exact numeric arithmetic; here the sums go into fixed 320-bit accumulators
// (an overflow, which needs ~2^60 rows of the largest values, is Unsupported: PostgreSQL's
// plan answers) and the final step into rndn's BigInt/BigDecimal (bignum.h).  A result that
// does not fit a dec128 of scale <= 38 is Unsupported too, never a wrong answer.
#include "horseir/bignum.h"
#include "horseir/kernel_util.h"

namespace rndn::hir {

namespace {
// An unsigned fixed-width accumulator of five 64-bit limbs.
struct Acc320 {
    uint64_t limb[5] = {0, 0, 0, 0, 0};
    bool overflow = false;
    // adds hi * 2^128 + lo
    void Add(unsigned __int128 lo, unsigned __int128 hi = 0) {
        const uint64_t add[4] = {static_cast<uint64_t>(lo), static_cast<uint64_t>(lo >> 64), static_cast<uint64_t>(hi),
                                 static_cast<uint64_t>(hi >> 64)};
        unsigned __int128 carry = 0;
        for (int i = 0; i < 5; ++i) {
            unsigned __int128 t = static_cast<unsigned __int128>(limb[i]) + (i < 4 ? add[i] : 0) + carry;
            limb[i] = static_cast<uint64_t>(t);
            carry = t >> 64;
        }
        if (carry != 0) overflow = true;
    }
    BigInt Get(bool negative) const { return BigInt::FromLimbs64(limb, 5, negative); }
};

// |a| * |a| as (hi, lo) 128-bit halves
void Square(unsigned __int128 a, unsigned __int128 *lo, unsigned __int128 *hi) {
    const uint64_t a0 = static_cast<uint64_t>(a), a1 = static_cast<uint64_t>(a >> 64);
    const unsigned __int128 p00 = static_cast<unsigned __int128>(a0) * a0;
    const unsigned __int128 p01 = static_cast<unsigned __int128>(a0) * a1;  // counted twice
    const unsigned __int128 p11 = static_cast<unsigned __int128>(a1) * a1;
    // a^2 = p11 * 2^128 + 2 * p01 * 2^64 + p00
    unsigned __int128 mid_lo = p01 << 65;   // low 63 bits of p01, doubled, at 2^64
    unsigned __int128 mid_hi = p01 >> 63;   // the rest, at 2^128
    unsigned __int128 l = p00 + mid_lo;
    unsigned __int128 h = p11 + mid_hi + (l < p00 ? 1 : 0);
    *lo = l;
    *hi = h;
}

unsigned __int128 Magnitude(__int128 v) { return v < 0 ? ~static_cast<unsigned __int128>(v) + 1 : static_cast<unsigned __int128>(v); }
}  // namespace

Expected<Value> KNumVar(KernelCtx &, const std::vector<Value> &args) {
    RNDN_RETURN_IF_ERROR(NeedVector(args[0], "num_var", 0));
    RNDN_RETURN_IF_ERROR(NeedVector(args[1], "num_var", 1));
    const Vector &kv = args[1].vector();
    if (!IsInteger(kv.type.kind) || kv.length != 1 || !kv.IsValid(0)) return ShapeError("@num_var: expects one integer kind");
    RNDN_ASSIGN_OR_RETURN(auto kc, As(args[1].vector_ptr(), TypeKind::I64));
    const int64_t kind = kc->Data<int64_t>()[0];
    if (kind < 0 || kind > 3) return ShapeError("@num_var: kind must be 0..3");
    const Vector &v = args[0].vector();
    if (!IsInteger(v.type.kind) && !IsDecimal(v.type.kind)) return TypeError("@num_var: expects an integer or decimal vector");
    int dscale = 0;
    std::shared_ptr<const Vector> c;
    if (IsDecimal(v.type.kind)) {
        if (v.type.scale == Type::kUnknownScale) {
            dscale = 0;  // the largest display scale among the valid values (PostgreSQL's sumX dscale)
            for (int64_t i = 0; i < v.length; ++i)
                if (v.IsValid(i)) dscale = std::max(dscale, v.elem_scale.empty() ? v.scale_max : static_cast<int>(v.elem_scale[static_cast<size_t>(i)]));
        } else {
            dscale = v.type.scale;
        }
        auto cast = As(args[0].vector_ptr(), Type::Decimal(TypeKind::DEC128, dscale));
        if (!cast.ok()) return Status::Unsupported("@num_var: input beyond dec128 at scale " + std::to_string(dscale));
        c = *cast;
    } else {
        RNDN_ASSIGN_OR_RETURN(c, As(args[0].vector_ptr(), TypeKind::I64));
    }
    int64_t n = 0;
    Acc320 pos, neg, sq;
    const bool nulls = c->HasNulls();
    for (int64_t i = 0; i < c->length; ++i) {
        PollCancel(i);
        if (nulls && !c->IsValid(i)) continue;
        const __int128 x = IsDecimal(c->type.kind) ? c->Data<__int128>()[i] : static_cast<__int128>(c->Data<int64_t>()[i]);
        ++n;
        const unsigned __int128 m = Magnitude(x);
        (x < 0 ? neg : pos).Add(m);
        unsigned __int128 lo, hi;
        Square(m, &lo, &hi);
        sq.Add(lo, hi);
    }
    if (pos.overflow || neg.overflow || sq.overflow) return Status::Unsupported("@num_var: sums beyond 320 bits");
    auto r = NumericVariance(n, pos.Get(false) - neg.Get(false), sq.Get(false), dscale, static_cast<int>(kind));
    RNDN_ASSIGN_OR_RETURN(auto out, MakeVector(Type::Decimal(TypeKind::DEC128, Type::kUnknownScale), 1));
    if (!r) {
        out->SetNull(0);
        out->elem_scale = {0};
        return V(out);
    }
    std::optional<__int128> q = r->unscaled.ToInt128();
    static const BigInt kLimit = BigInt::Pow10(38);
    if (r->scale > 38 || !q || Compare(r->unscaled.Abs(), kLimit) >= 0)
        return Status::Unsupported("@num_var: result " + r->ToString() + " beyond dec128");
    out->Data<__int128>()[0] = *q;
    out->scale_max = r->scale;
    out->elem_scale = {static_cast<uint8_t>(r->scale)};
    return V(out);
}

}  // namespace rndn::hir
