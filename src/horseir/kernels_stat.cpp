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

#include <cmath>
#include <limits>

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

// The exact sum of integers (or decimals at one scale), as its positive and negative parts, and
// the exact sum of their squares: @num_var's and @frame_var's accumulators.
struct ExactSums {
    Acc320 pos, neg, sq;
    void Add(__int128 x) {
        const unsigned __int128 m = Magnitude(x);
        (x < 0 ? neg : pos).Add(m);
        unsigned __int128 lo, hi;
        Square(m, &lo, &hi);
        sq.Add(lo, hi);
    }
    bool overflow() const { return pos.overflow || neg.overflow || sq.overflow; }
    BigInt Sum() const { return pos.Get(false) - neg.Get(false); }
    BigInt SumSquares() const { return sq.Get(false); }
};
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
    ExactSums acc;
    const bool nulls = c->HasNulls();
    for (int64_t i = 0; i < c->length; ++i) {
        PollCancel(i);
        if (nulls && !c->IsValid(i)) continue;
        const __int128 x = IsDecimal(c->type.kind) ? c->Data<__int128>()[i] : static_cast<__int128>(c->Data<int64_t>()[i]);
        ++n;
        acc.Add(x);
    }
    if (acc.overflow()) return Status::Unsupported("@num_var: sums beyond 320 bits");
    auto r = NumericVariance(n, acc.Sum(), acc.SumSquares(), dscale, static_cast<int>(kind));
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

// One float8_accum step (PostgreSQL 15's Youngs-Cramer update of N, Sx, Sxx); kernels_vector.cpp's
// @float_var folds it over a vector, @frame_var over each frame.
Status FloatAccumStep(double val, double *n, double *sx, double *sxx) {
    const double old_n = *n, old_sx = *sx;
    *n += 1.0;
    *sx += val;
    if (old_n > 0.0) {
        const double tmp = val * *n - *sx;
        *sxx += tmp * tmp / (*n * old_n);
        if (std::isinf(*sx) || std::isinf(*sxx)) {
            if (!std::isinf(old_sx) && !std::isinf(val)) return Status::UserError(sqlstate::kNumericOutOfRange, "value out of range: overflow");
            *sxx = std::numeric_limits<double>::quiet_NaN();
        }
    } else if (std::isnan(val) || std::isinf(val)) {
        *sxx = std::numeric_limits<double>::quiet_NaN();
    }
    return Status::Ok();
}

// @frame_var(x, kind, start, end): per row i, kind's variance/stddev (as @float_var for float x,
// @num_var for integer and decimal x) over the rows [start[i], end[i]) of x (end <= start: the
// empty frame, NULL).  PostgreSQL's WindowAgg continues an aggregate while the frame's head stays
// and restarts it from the head when the head moves (float8_accum has no inverse transition);
// the same here: a row whose frame keeps the previous head and does not shrink adds its new rows
// to the previous state, any other starts over, so floats are summed in PostgreSQL's order.
// The exact sums do not depend on that order; their display scale is the largest of the frame's
// values (PostgreSQL's numeric moving aggregate restarts when the last value of its largest
// scale leaves the frame, so its sums carry the frame's largest scale).
Expected<Value> KFrameVar(KernelCtx &ctx, const std::vector<Value> &args) {
    for (int i = 0; i < 4; ++i) RNDN_RETURN_IF_ERROR(NeedVector(args[static_cast<size_t>(i)], "frame_var", i));
    const Vector &kv = args[1].vector();
    if (!IsInteger(kv.type.kind) || kv.length != 1 || !kv.IsValid(0)) return ShapeError("@frame_var: expects one integer kind");
    RNDN_ASSIGN_OR_RETURN(auto kc, As(args[1].vector_ptr(), TypeKind::I64));
    const int64_t kind = kc->Data<int64_t>()[0];
    if (kind < 0 || kind > 3) return ShapeError("@frame_var: kind must be 0..3");
    RNDN_ASSIGN_OR_RETURN(auto sv, As(args[2].vector_ptr(), TypeKind::I64));
    RNDN_ASSIGN_OR_RETURN(auto ev, As(args[3].vector_ptr(), TypeKind::I64));
    if (sv->HasNulls() || ev->HasNulls()) return ShapeError("@frame_var: NULL frame bound");
    if (sv->length != ev->length && sv->length != 1 && ev->length != 1) return ShapeError("@frame_var: frame starts and ends differ in length");
    const Vector &v = args[0].vector();
    const int64_t n = std::max(sv->length, ev->length);
    // a bound of length 1 applies to every row
    std::vector<int64_t> sb, eb;
    const int64_t *st = sv->Data<int64_t>(), *en = ev->Data<int64_t>();
    if (sv->length != n) sb.assign(static_cast<size_t>(n), st[0]), st = sb.data();
    if (ev->length != n) eb.assign(static_cast<size_t>(n), en[0]), en = eb.data();
    for (int64_t i = 0; i < n; ++i)
        if (st[i] < 0 || std::max(en[i], st[i]) > v.length)
            return ShapeError("@frame_var: frame [" + std::to_string(st[i]) + ", " + std::to_string(en[i]) + ") outside a vector of length " +
                              std::to_string(v.length));
    const bool samp = kind == 1 || kind == 3;
    if (v.type.kind == TypeKind::F64 || v.type.kind == TypeKind::F32) {
        RNDN_ASSIGN_OR_RETURN(auto c, As(args[0].vector_ptr(), TypeKind::F64));
        const double *x = c->Data<double>();
        RNDN_ASSIGN_OR_RETURN(auto out, MakeVector(TypeKind::F64, n));
        double cn = 0, sx = 0, sxx = 0;
        int64_t prev_s = -1, upto = -1;  // the state holds the rows [prev_s, upto)
        for (int64_t i = 0; i < n; ++i) {
            if ((i & 0x3ff) == 0 && ctx.Cancelled()) return Status::Cancelled();
            const int64_t s = st[i], e = std::max(en[i], s);
            if (s != prev_s || e < upto) cn = sx = sxx = 0, prev_s = s, upto = s;
            for (; upto < e; ++upto)
                if (c->IsValid(upto)) RNDN_RETURN_IF_ERROR(FloatAccumStep(x[upto], &cn, &sx, &sxx));
            if (cn < (samp ? 2.0 : 1.0)) {
                out->SetNull(i);
                continue;
            }
            double r = sxx / (samp ? cn - 1.0 : cn);
            if (kind >= 2) r = std::sqrt(r);
            out->Data<double>()[i] = r;
        }
        return V(out);
    }
    if (!IsInteger(v.type.kind) && !IsDecimal(v.type.kind)) return TypeError("@frame_var: expects a float, integer or decimal vector");
    // values as 128-bit integers at one scale (vs) with each one's display scale (el)
    std::shared_ptr<const Vector> c;
    int vs = 0;
    const bool per_elem = IsDecimal(v.type.kind) && v.type.scale == Type::kUnknownScale;
    if (IsDecimal(v.type.kind)) {
        vs = per_elem ? v.scale_max : v.type.scale;
        auto cast = As(args[0].vector_ptr(), Type::Decimal(TypeKind::DEC128, per_elem ? Type::kUnknownScale : vs));
        if (!cast.ok()) return Status::Unsupported("@frame_var: input beyond dec128");
        c = *cast;
        if (per_elem && c->scale_max != vs) return Status::Unsupported("@frame_var: decimal input rescaled");
    } else {
        RNDN_ASSIGN_OR_RETURN(c, As(args[0].vector_ptr(), TypeKind::I64));
    }
    auto elem_scale = [&](int64_t i) { return per_elem ? (c->elem_scale.empty() ? vs : static_cast<int>(c->elem_scale[static_cast<size_t>(i)])) : vs; };
    struct Res {
        __int128 q = 0;
        int scale = 0;
        bool null = true;
    };
    std::vector<Res> res(static_cast<size_t>(n));
    int64_t cnt = 0;
    int dscale = 0;
    ExactSums acc;
    int64_t prev_s = -1, upto = -1;
    static const BigInt kLimit = BigInt::Pow10(38);
    for (int64_t i = 0; i < n; ++i) {
        if ((i & 0x3ff) == 0 && ctx.Cancelled()) return Status::Cancelled();
        const int64_t s = st[i], e = std::max(en[i], s);
        if (s != prev_s || e < upto) cnt = 0, dscale = 0, acc = ExactSums{}, prev_s = s, upto = s;
        for (; upto < e; ++upto) {
            if (!c->IsValid(upto)) continue;
            const __int128 x = IsDecimal(c->type.kind) ? c->Data<__int128>()[upto] : static_cast<__int128>(c->Data<int64_t>()[upto]);
            ++cnt;
            dscale = std::max(dscale, elem_scale(upto));
            acc.Add(x);
        }
        if (acc.overflow()) return Status::Unsupported("@frame_var: sums beyond 320 bits");
        if (i > 0 && s == st[i - 1] && e == std::max(en[i - 1], st[i - 1])) {
            res[static_cast<size_t>(i)] = res[static_cast<size_t>(i) - 1];  // peers: the same frame
            continue;
        }
        BigInt sum_x = acc.Sum(), sum_xx = acc.SumSquares();
        if (vs > dscale) {  // the sums at the frame's own largest scale (exact: smaller scales pad zeros)
            BigInt q, r;
            BigInt::DivMod(sum_x, BigInt::Pow10(vs - dscale), &q, &r);
            sum_x = q;
            BigInt::DivMod(sum_xx, BigInt::Pow10(2 * (vs - dscale)), &q, &r);
            sum_xx = q;
        }
        auto r = NumericVariance(cnt, sum_x, sum_xx, dscale, static_cast<int>(kind));
        if (!r) continue;
        std::optional<__int128> q = r->unscaled.ToInt128();
        if (r->scale > 38 || !q || Compare(r->unscaled.Abs(), kLimit) >= 0)
            return Status::Unsupported("@frame_var: result " + r->ToString() + " beyond dec128");
        res[static_cast<size_t>(i)] = Res{*q, r->scale, false};
    }
    // one dec128 column at the largest result scale, each value keeping its own display scale
    int smax = 0;
    for (const Res &r : res)
        if (!r.null) smax = std::max(smax, r.scale);
    RNDN_ASSIGN_OR_RETURN(auto out, MakeVector(Type::Decimal(TypeKind::DEC128, Type::kUnknownScale), n));
    out->scale_max = smax;
    out->elem_scale.assign(static_cast<size_t>(n), 0);
    for (int64_t i = 0; i < n; ++i) {
        const Res &r = res[static_cast<size_t>(i)];
        if (r.null) {
            out->SetNull(i);
            continue;
        }
        __int128 q = r.q;
        for (int k = r.scale; k < smax; ++k)
            if (__builtin_mul_overflow(q, static_cast<__int128>(10), &q))
                return Status::Unsupported("@frame_var: results of different scales beyond one dec128 column");
        out->Data<__int128>()[i] = q;
        out->elem_scale[static_cast<size_t>(i)] = static_cast<uint8_t>(r.scale);
    }
    return V(out);
}

// @str_agg(x, sep): string_agg's text: the valid values of x in order, sep between two of them
// (PostgreSQL's string_agg_transfn/finalfn); NULL when no value is valid.  A result past
// PostgreSQL's 1 GB limit for a text value is Unsupported (its plan raises its own error).
Expected<Value> KStrAgg(KernelCtx &, const std::vector<Value> &args) {
    RNDN_RETURN_IF_ERROR(NeedVector(args[0], "str_agg", 0));
    RNDN_RETURN_IF_ERROR(NeedVector(args[1], "str_agg", 1));
    const Vector &x = args[0].vector(), &sv = args[1].vector();
    if (x.type.kind != TypeKind::STR || sv.type.kind != TypeKind::STR) return TypeError("@str_agg: expects strings");
    if (sv.length != 1) return ShapeError("@str_agg: expects one separator");
    const std::string_view sep = sv.IsValid(0) ? sv.StringAt(0) : std::string_view();
    std::string out;
    bool any = false;
    for (int64_t i = 0; i < x.length; ++i) {
        PollCancel(i);
        if (!x.IsValid(i)) continue;
        if (any) out.append(sep);
        out.append(x.StringAt(i));
        any = true;
        if (out.size() >= (size_t(1) << 30)) return Status::Unsupported("@str_agg: a text value past 1 GB");
    }
    RNDN_ASSIGN_OR_RETURN(auto r, MakeVector(Type(TypeKind::STR), 0));
    r->AppendString(out);
    if (!any) r->SetNull(0);
    return V(r);
}

}  // namespace rndn::hir
