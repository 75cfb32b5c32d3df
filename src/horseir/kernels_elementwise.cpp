// Element-wise kernels: casts, arithmetic, comparisons, logic, unary math, calendar, strings.
#include <cstdio>
#include <algorithm>
#include <climits>
#include <cmath>
#include <cstring>
#include <limits>

#include "common/substring.h"
#include "horseir/kernel_util.h"
#include "horseir/parallel.h"

namespace rndn::hir {

// ---------------------------------------------------------------------------------------------
// Casts

namespace {

template <class D, class S>
D ConvertNumber(S x) {
    if constexpr (kIsInterval<S> || kIsInterval<D>) {
        return D{};  // never reached: CastVector refuses intervals
    } else if constexpr (std::is_floating_point_v<S> && std::is_integral_v<D>) {
        // truncation (rNdN's C cast); out-of-range saturates instead of UB
        if (!(x == x)) return D{0};
        if (x >= static_cast<S>(std::numeric_limits<D>::max())) return std::numeric_limits<D>::max();
        if (x <= static_cast<S>(std::numeric_limits<D>::min())) return std::numeric_limits<D>::min();
        return static_cast<D>(x);
    } else {
        return static_cast<D>(x);
    }
}

int ScaleOrZero(const Type &t) { return IsDecimal(t.kind) ? t.scale : 0; }

}  // namespace

Expected<std::shared_ptr<const Vector>> CastVector(const std::shared_ptr<const Vector> &v, const Type &to, bool sql) {
    const Vector &src = *v;
    const Type &from = src.type;
    if (from == to) return v;
    if (from.kind == TypeKind::INTERVAL || to.kind == TypeKind::INTERVAL)
        return TypeError("cannot cast " + TypeToString(from) + " to " + TypeToString(to));
    if (!IsBasic(to.kind)) return TypeError("cannot cast " + TypeToString(from) + " to " + TypeToString(to));
    if (IsString(from.kind) && IsString(to.kind)) {
        auto r = std::make_shared<Vector>(src);
        r->type = to;
        return std::shared_ptr<const Vector>(r);
    }
    if (IsString(from.kind) || IsString(to.kind) || from.kind == TypeKind::COMPLEX || to.kind == TypeKind::COMPLEX)
        return TypeError("cannot cast " + TypeToString(from) + " to " + TypeToString(to));
    bool cal_ok = (IsCalendar(from.kind) || IsCalendar(to.kind)) ? from.kind == to.kind : true;
    if (!cal_ok) return TypeError("cannot cast " + TypeToString(from) + " to " + TypeToString(to));
    int64_t n = src.length;
    Type dest = to;
    if (IsDecimal(to.kind) && to.scale == Type::kUnknownScale) dest.scale = ScaleOrZero(from) == Type::kUnknownScale ? src.scale_max : ScaleOrZero(from);
    // decimal with per-element scale: values are stored at scale_max
    int from_scale = IsDecimal(from.kind) ? (from.scale == Type::kUnknownScale ? src.scale_max : from.scale) : 0;
    // The common widening (a dec64 column, or an integer, into dec128 at the same or a larger
    // scale, as arithmetic and comparisons with dec128 operands need): one tight loop, exact
    // (|x| < 2^63 times at most 10^19 stays below 2^127).
    if (to.kind == TypeKind::DEC128 && from.kind != TypeKind::DEC128 && !IsFloat(from.kind) && from.kind != TypeKind::BOOL &&
        dest.scale >= from_scale && dest.scale - from_scale <= 19) {
        const __int128 p = Pow10(dest.scale - from_scale);
        RNDN_ASSIGN_OR_RETURN(auto wide, MakeVectorUninit(dest, n));
        wide->validity = src.validity;
        __int128 *o = wide->Data<__int128>();
        const bool done = VisitFixed(from.kind, [&](auto t) -> bool {
            using S = decltype(t);
            if constexpr (std::is_integral_v<S>) {
                const S *in = src.Data<S>();
                for (int64_t i = 0; i < n; ++i) o[i] = static_cast<__int128>(in[i]) * p;
                return true;
            } else {
                return false;
            }
        });
        if (done) return std::shared_ptr<const Vector>(wide);
    }
    RNDN_ASSIGN_OR_RETURN(auto out, MakeVector(dest, n));
    out->validity = src.validity;
    if (IsDecimal(from.kind) || IsDecimal(to.kind)) {
        // go through __int128 at a common scale, or double
        auto read = [&](int64_t i) -> __int128 {
            return VisitFixed(from.kind, [&](auto t) -> __int128 {
                using S = decltype(t);
                if constexpr (kIsInterval<S>) return 0;
                else return static_cast<__int128>(src.Data<S>()[i]);
            });
        };
        if (IsFloat(to.kind)) {
            for (int64_t i = 0; i < n; ++i) {
                double d = IsFloat(from.kind) ? (from.kind == TypeKind::F32 ? src.Data<float>()[i] : src.Data<double>()[i])
                                              : DecimalToDouble(read(i), from_scale);
                if (to.kind == TypeKind::F32) out->Data<float>()[i] = static_cast<float>(d);
                else out->Data<double>()[i] = d;
            }
            return std::shared_ptr<const Vector>(out);
        }
        int to_scale = IsDecimal(to.kind) ? dest.scale : 0;
        for (int64_t i = 0; i < n; ++i) {
            __int128 x;
            if (IsFloat(from.kind)) {
                double d = from.kind == TypeKind::F32 ? src.Data<float>()[i] : src.Data<double>()[i];
                double scaled = std::round(d * std::pow(10.0, to_scale));
                if (!(std::fabs(scaled) < 1e38)) return Status::UserError(sqlstate::kNumericOutOfRange, "numeric field overflow");
                x = static_cast<__int128>(scaled);
            } else {
                x = read(i);
                if (to_scale >= from_scale) {
                    if (__builtin_mul_overflow(x, Pow10(to_scale - from_scale), &x))
                        return Status::UserError(sqlstate::kNumericOutOfRange, "numeric field overflow");
                } else {
                    x = RoundShift(x, from_scale - to_scale);
                }
            }
            Status st = VisitFixed(to.kind, [&](auto t) -> Status {
                using D = decltype(t);
                if constexpr (std::is_integral_v<D> || std::is_same_v<D, __int128>) {
                    if (to.kind == TypeKind::BOOL) {
                        out->Data<uint8_t>()[i] = x != 0;
                        return Status::Ok();
                    }
                    if constexpr (!std::is_same_v<D, __int128>) {
                        if (src.IsValid(i) && (x > static_cast<__int128>(std::numeric_limits<D>::max()) || x < static_cast<__int128>(std::numeric_limits<D>::min())))
                            return IsDecimal(to.kind) ? Status::UserError(sqlstate::kNumericOutOfRange, "numeric field overflow") : IntegerOutOfRange(to.kind);
                    }
                    out->Data<D>()[i] = static_cast<D>(x);
                }
                return Status::Ok();
            });
            RNDN_RETURN_IF_ERROR(st);
        }
        return std::shared_ptr<const Vector>(out);
    }
    Status st;
    VisitFixed(from.kind, [&](auto s) {
        using S = decltype(s);
        if constexpr (kIsInterval<S>) {
            return 0;  // an interval converts to nothing (the checker refuses it); decided here, on S
        } else {
        const S *in = src.Data<S>();
        VisitFixed(to.kind, [&](auto d) {
            using D = decltype(d);
            if constexpr (kIsInterval<S> || kIsInterval<D>) {
                return 0;
            } else {
            D *o = out->Data<D>();
            if (to.kind == TypeKind::BOOL) {
                for (int64_t i = 0; i < n; ++i) o[i] = in[i] != S{0};
            } else if (sql && !std::is_same_v<D, __int128> && !std::is_same_v<S, __int128>) {
                // PostgreSQL's conversions: range errors, float -> integer by rint.
                for (int64_t i = 0; i < n && st.ok(); ++i) {
                    if constexpr (std::is_integral_v<D> && std::is_integral_v<S>) {
                        if (static_cast<__int128>(in[i]) > static_cast<__int128>(std::numeric_limits<D>::max()) ||
                            static_cast<__int128>(in[i]) < static_cast<__int128>(std::numeric_limits<D>::min())) {
                            if (src.IsValid(i)) st = IntegerOutOfRange(to.kind);
                            o[i] = 0;
                        } else {
                            o[i] = static_cast<D>(in[i]);
                        }
                    } else if constexpr (std::is_integral_v<D> && std::is_floating_point_v<S>) {
                        const double r = std::rint(static_cast<double>(in[i]));
                        // In range when -2^(bits-1) <= r < 2^(bits-1), exactly representable bounds.
                        const double lim = std::ldexp(1.0, static_cast<int>(sizeof(D) * 8 - 1));
                        if (!(r >= -lim && r < lim)) {
                            if (src.IsValid(i)) st = IntegerOutOfRange(to.kind);
                            o[i] = 0;
                        } else {
                            o[i] = static_cast<D>(r);
                        }
                    } else if constexpr (std::is_floating_point_v<D>) {
                        o[i] = static_cast<D>(in[i]);
                        if constexpr (std::is_floating_point_v<S> && sizeof(D) < sizeof(S)) {
                            if (src.IsValid(i) && std::isinf(o[i]) && !std::isinf(static_cast<double>(in[i])))
                                st = FloatOutOfRange("overflow");
                            else if (src.IsValid(i) && o[i] == 0 && in[i] != 0)
                                st = FloatOutOfRange("underflow");
                        }
                    } else {
                        o[i] = ConvertNumber<D, S>(in[i]);
                    }
                }
            } else {
                for (int64_t i = 0; i < n; ++i) o[i] = ConvertNumber<D, S>(in[i]);
            }
            return 0;
            }
        });
        return 0;
        }
    });
    RNDN_RETURN_IF_ERROR(st);
    return std::shared_ptr<const Vector>(out);
}

// ---------------------------------------------------------------------------------------------
// Arithmetic

namespace {

enum class Ar { PLUS, MINUS, MUL, DIV, MOD };


// Small integer types computed in int64 with a range check on the result type.
template <class T>
Status IntArith(Ar op, const Vector &a, const Vector &b, Vector &out, TypeKind rk) {
    const T *x = a.Data<T>();
    const T *y = b.Data<T>();
    T *o = out.Data<T>();
    int64_t n = out.length;
    constexpr int64_t lo = std::numeric_limits<T>::min(), hi = std::numeric_limits<T>::max();
    int64_t lo_seen = 0, hi_seen = 0;
    bool zero = false;
    auto run = [&](auto f) {
        BinaryLoop(x, a.length, y, b.length, o, n, [&](T p, T q) {
            int64_t r = f(static_cast<int64_t>(p), static_cast<int64_t>(q));
            lo_seen = std::min(lo_seen, r);
            hi_seen = std::max(hi_seen, r);
            return static_cast<T>(r);
        });
    };
    switch (op) {
        case Ar::PLUS: run([](int64_t p, int64_t q) { return p + q; }); break;
        case Ar::MINUS: run([](int64_t p, int64_t q) { return p - q; }); break;
        case Ar::MUL: run([](int64_t p, int64_t q) { return p * q; }); break;
        case Ar::DIV:
        case Ar::MOD:
            run([&](int64_t p, int64_t q) {
                if (q == 0) {
                    zero = true;
                    return int64_t{0};
                }
                return op == Ar::DIV ? p / q : p % q;
            });
            break;
    }
    bool nulls = a.HasNulls() || b.HasNulls();
    if (zero) {
        if (!nulls) return DivisionByZero();
        for (int64_t i = 0; i < n; ++i)
            if (ValidAt(a, i) && ValidAt(b, i) && y[b.length == 1 ? 0 : i] == 0) return DivisionByZero();
    }
    if (lo_seen < lo || hi_seen > hi) {
        if (!nulls) return IntegerOutOfRange(rk);
        for (int64_t i = 0; i < n; ++i) {
            if (!ValidAt(a, i) || !ValidAt(b, i)) continue;
            int64_t p = x[a.length == 1 ? 0 : i], q = y[b.length == 1 ? 0 : i];
            int64_t r = op == Ar::PLUS ? p + q : op == Ar::MINUS ? p - q : op == Ar::MUL ? p * q : op == Ar::DIV && q != 0 ? p / q : 0;
            if (r < lo || r > hi) return IntegerOutOfRange(rk);
        }
    }
    return Status::Ok();
}

Status I64Arith(Ar op, const Vector &a, const Vector &b, Vector &out) {
    const int64_t *x = a.Data<int64_t>();
    const int64_t *y = b.Data<int64_t>();
    int64_t *o = out.Data<int64_t>();
    int64_t n = out.length;
    uint64_t ovf = 0;
    bool zero = false;
    switch (op) {
        case Ar::PLUS:
            BinaryLoop(x, a.length, y, b.length, o, n, [&](int64_t p, int64_t q) {
                int64_t r = static_cast<int64_t>(static_cast<uint64_t>(p) + static_cast<uint64_t>(q));
                ovf |= static_cast<uint64_t>((p ^ r) & (q ^ r));
                return r;
            });
            break;
        case Ar::MINUS:
            BinaryLoop(x, a.length, y, b.length, o, n, [&](int64_t p, int64_t q) {
                int64_t r = static_cast<int64_t>(static_cast<uint64_t>(p) - static_cast<uint64_t>(q));
                ovf |= static_cast<uint64_t>((p ^ q) & (p ^ r));
                return r;
            });
            break;
        case Ar::MUL:
            BinaryLoop(x, a.length, y, b.length, o, n, [&](int64_t p, int64_t q) {
                int64_t r;
                if (__builtin_mul_overflow(p, q, &r)) ovf |= uint64_t(1) << 63;
                return r;
            });
            break;
        case Ar::DIV:
        case Ar::MOD:
            BinaryLoop(x, a.length, y, b.length, o, n, [&](int64_t p, int64_t q) -> int64_t {
                if (q == 0) {
                    zero = true;
                    return 0;
                }
                if (q == -1) {
                    if (p == INT64_MIN && op == Ar::DIV) ovf |= uint64_t(1) << 63;
                    return op == Ar::DIV ? static_cast<int64_t>(0 - static_cast<uint64_t>(p)) : 0;
                }
                return op == Ar::DIV ? p / q : p % q;
            });
            break;
    }
    bool nulls = a.HasNulls() || b.HasNulls();
    if (zero) {
        if (!nulls) return DivisionByZero();
        for (int64_t i = 0; i < n; ++i)
            if (ValidAt(a, i) && ValidAt(b, i) && y[b.length == 1 ? 0 : i] == 0) return DivisionByZero();
    }
    if (ovf >> 63) {
        if (!nulls) return IntegerOutOfRange(TypeKind::I64);
        for (int64_t i = 0; i < n; ++i) {
            if (!ValidAt(a, i) || !ValidAt(b, i)) continue;
            int64_t p = x[a.length == 1 ? 0 : i], q = y[b.length == 1 ? 0 : i], r;
            bool bad = op == Ar::PLUS ? __builtin_add_overflow(p, q, &r)
                       : op == Ar::MINUS ? __builtin_sub_overflow(p, q, &r)
                       : op == Ar::MUL ? __builtin_mul_overflow(p, q, &r)
                                       : (p == INT64_MIN && q == -1);
            if (bad) return IntegerOutOfRange(TypeKind::I64);
        }
    }
    return Status::Ok();
}

template <class T>
void FloatArith(Ar op, const Vector &a, const Vector &b, Vector &out) {
    const T *x = a.Data<T>();
    const T *y = b.Data<T>();
    T *o = out.Data<T>();
    switch (op) {
        case Ar::PLUS: BinaryLoop(x, a.length, y, b.length, o, out.length, [](T p, T q) { return p + q; }); break;
        case Ar::MINUS: BinaryLoop(x, a.length, y, b.length, o, out.length, [](T p, T q) { return p - q; }); break;
        case Ar::MUL: BinaryLoop(x, a.length, y, b.length, o, out.length, [](T p, T q) { return p * q; }); break;
        case Ar::DIV: BinaryLoop(x, a.length, y, b.length, o, out.length, [](T p, T q) { return p / q; }); break;
        case Ar::MOD: BinaryLoop(x, a.length, y, b.length, o, out.length, [](T p, T q) { return std::fmod(p, q); }); break;
    }
}

// PostgreSQL's checks after a float operation (float.h: float_overflow_error and friends).
template <class T>
Status SqlFloatChecks(Ar op, const Vector &a, const Vector &b, const Vector &out) {
    const T *x = a.Data<T>();
    const T *y = b.Data<T>();
    const T *o = out.Data<T>();
    const bool nulls = a.HasNulls() || b.HasNulls();
    for (int64_t i = 0; i < out.length; ++i) {
        const T p = x[a.length == 1 ? 0 : i], q = y[b.length == 1 ? 0 : i], r = o[i];
        if (std::isfinite(r) && r != 0) continue;
        if (nulls && !(ValidAt(a, i) && ValidAt(b, i))) continue;
        if (op == Ar::DIV && q == 0 && !std::isnan(p)) return DivisionByZero();
        if (OverflowedToInfinity(r, p, q)) return FloatOutOfRange("overflow");
        if (r == 0 && ((op == Ar::MUL && p != 0 && q != 0) || (op == Ar::DIV && p != 0 && !std::isinf(q))))
            return FloatOutOfRange("underflow");
    }
    return Status::Ok();
}

Status NumericOverflow() { return Status::UserError(sqlstate::kNumericOutOfRange, "value overflows numeric format"); }

// Decimal arithmetic on __int128 operands already at their scales (sa, sb).
Status DecArith(Ar op, const Vector &a, int sa, const Vector &b, int sb, Vector &out, const std::vector<uint8_t> *ea = nullptr,
                const std::vector<uint8_t> *eb = nullptr) {
    const __int128 *x = a.Data<__int128>();
    const __int128 *y = b.Data<__int128>();
    __int128 *o = out.Data<__int128>();
    int64_t n = out.length;
    bool bad = false, zero = false;
    if (op == Ar::DIV) {
        // PostgreSQL select_div_scale per element; store at the maximum scale
        std::vector<uint8_t> scales(static_cast<size_t>(n), 0);
        int smax = 0;
        for (int64_t i = 0; i < n; ++i) {
            if (!ValidAt(a, i) || !ValidAt(b, i)) continue;
            __int128 p = x[a.length == 1 ? 0 : i], q = y[b.length == 1 ? 0 : i];
            if (q == 0) return DivisionByZero();
            // the operands' own display scales (a per-element scale when they have one)
            const int da = ea && !ea->empty() ? (*ea)[static_cast<size_t>(a.length == 1 ? 0 : i)] : sa;
            const int db = eb && !eb->empty() ? (*eb)[static_cast<size_t>(b.length == 1 ? 0 : i)] : sb;
            int s = SelectDivScale(p, sa, q, sb, da, db);
            if (s > 38) return Status::Unsupported("numeric division result scale above 38");
            scales[static_cast<size_t>(i)] = static_cast<uint8_t>(s);
            smax = std::max(smax, s);
        }
        for (int64_t i = 0; i < n; ++i) {
            if (!ValidAt(a, i) || !ValidAt(b, i)) {
                o[i] = 0;
                continue;
            }
            __int128 p = x[a.length == 1 ? 0 : i], q = y[b.length == 1 ? 0 : i];
            int s = scales[static_cast<size_t>(i)];
            RNDN_ASSIGN_OR_RETURN(__int128 r, DecimalDivide(p, sa, q, sb, s));
            if (__builtin_mul_overflow(r, Pow10(smax - s), &r)) return NumericOverflow();
            o[i] = r;
        }
        out.elem_scale = std::move(scales);
        out.scale_max = smax;
        return Status::Ok();
    }
    if (op == Ar::MUL) {
        BinaryLoop(x, a.length, y, b.length, o, n, [&](__int128 p, __int128 q) {
            // Operands that fit in 64 bits cannot overflow 128 (the usual case: numeric(15,2)
            // columns); only the others pay for the checked 128-bit multiply.
            if (p == static_cast<int64_t>(p) && q == static_cast<int64_t>(q))
                return static_cast<__int128>(static_cast<int64_t>(p)) * static_cast<int64_t>(q);
            __int128 r;
            bad |= __builtin_mul_overflow(p, q, &r);
            return r;
        });
    } else if (op == Ar::MOD) {
        BinaryLoop(x, a.length, y, b.length, o, n, [&](__int128 p, __int128 q) -> __int128 {
            if (q == 0) {
                zero = true;
                return 0;
            }
            return p % q;
        });
    } else {
        BinaryLoop(x, a.length, y, b.length, o, n, [&](__int128 p, __int128 q) {
            __int128 r;
            bad |= op == Ar::PLUS ? __builtin_add_overflow(p, q, &r) : __builtin_sub_overflow(p, q, &r);
            return r;
        });
    }
    bool nulls = a.HasNulls() || b.HasNulls();
    if (zero) {
        for (int64_t i = 0; i < n; ++i)
            if ((!nulls || (ValidAt(a, i) && ValidAt(b, i))) && y[b.length == 1 ? 0 : i] == 0) return DivisionByZero();
    }
    if (bad) return NumericOverflow();
    return Status::Ok();
}

int64_t CalendarUnit(TypeKind k) {
    // date: days, month: months, minute/second: their unit; time/dt (microsecond storage):
    // milliseconds, the unit of their literals.
    return (k == TypeKind::TIME || k == TypeKind::DT) ? 1000 : 1;
}

// Widens a calendar or integer vector to int64 (one dispatch per vector).
std::vector<int64_t> WidenToI64(const Vector &v) {
    std::vector<int64_t> out(static_cast<size_t>(v.length));
    VisitFixed(v.type.kind, [&](auto t) {
        using T = decltype(t);
        if constexpr (!std::is_floating_point_v<T> && !std::is_same_v<T, __int128> && !kIsInterval<T>) {
            const T *x = v.Data<T>();
            for (int64_t i = 0; i < v.length; ++i) out[static_cast<size_t>(i)] = static_cast<int64_t>(x[i]);
        }
        return 0;
    });
    return out;
}

template <class O>
void CalendarLoop(Ar op, bool a_cal, bool b_cal, int64_t unit, const std::vector<int64_t> &x, int64_t na, const std::vector<int64_t> &y,
                  int64_t nb, O *o, int64_t n) {
    if (a_cal && b_cal)
        BinaryLoop(x.data(), na, y.data(), nb, o, n, [unit](int64_t p, int64_t q) { return static_cast<O>((p - q) / unit); });
    else if (a_cal && op == Ar::PLUS)
        BinaryLoop(x.data(), na, y.data(), nb, o, n, [unit](int64_t p, int64_t q) { return static_cast<O>(p + q * unit); });
    else if (a_cal)
        BinaryLoop(x.data(), na, y.data(), nb, o, n, [unit](int64_t p, int64_t q) { return static_cast<O>(p - q * unit); });
    else
        BinaryLoop(x.data(), na, y.data(), nb, o, n, [unit](int64_t p, int64_t q) { return static_cast<O>(q + p * unit); });
}

// PostgreSQL's date arithmetic (date.c: date_pli, date_mii, date_mi): the infinities
// (DATE_NOBEGIN = INT32_MIN, DATE_NOEND = INT32_MAX) stay unchanged by adding days, a result
// outside the valid range (julian day 0 to DATE_END_JULIAN) is "date out of range", and a
// difference with an infinite date is an error.
constexpr int64_t kDateMin = -2451545, kDateEnd = 2147483494 - 2451545;  // d in [min, end)
bool DateFinite(int64_t d) { return d != INT32_MIN && d != INT32_MAX; }

Expected<Value> DateArith(Ar op, const Vector &a, const Vector &b, const Type &rt) {
    RNDN_ASSIGN_OR_RETURN(int64_t n, BroadcastLength(a.length, b.length, op == Ar::PLUS ? "plus" : "minus"));
    RNDN_ASSIGN_OR_RETURN(auto out, MakeVector(rt, n));
    const bool a_date = a.type.kind == TypeKind::DATE, b_date = b.type.kind == TypeKind::DATE;
    std::vector<int64_t> x = WidenToI64(a), y = WidenToI64(b);
    const bool nulls = a.HasNulls() || b.HasNulls();
    int32_t *o = out->Data<int32_t>();
    for (int64_t i = 0; i < n; ++i) {
        const int64_t ia = a.length == 1 ? 0 : i, ib = b.length == 1 ? 0 : i;
        if (nulls && !(a.IsValid(ia) && b.IsValid(ib))) {
            o[i] = 0;
            continue;
        }
        const int64_t p = x[static_cast<size_t>(ia)], q = y[static_cast<size_t>(ib)];
        if (a_date && b_date) {
            if (!DateFinite(p) || !DateFinite(q)) return Status::UserError(sqlstate::kDatetimeOverflow, "cannot subtract infinite dates");
            o[i] = static_cast<int32_t>(p - q);
            continue;
        }
        const int64_t d = a_date ? p : q, days = a_date ? q : p;
        if (!DateFinite(d)) {
            o[i] = static_cast<int32_t>(d);
            continue;
        }
        const int64_t r = op == Ar::PLUS ? d + days : d - days;
        if (r < kDateMin || r >= kDateEnd) return Status::UserError(sqlstate::kDatetimeOverflow, "date out of range");
        o[i] = static_cast<int32_t>(r);
    }
    SetCombinedValidity(a, b, *out);
    return V(out);
}

Expected<Value> CalendarArith(Ar op, const Vector &a, const Vector &b, const Type &rt) {
    const bool a_date = a.type.kind == TypeKind::DATE, b_date = b.type.kind == TypeKind::DATE;
    if ((a_date || b_date) && (a_date || IsInteger(a.type.kind)) && (b_date || IsInteger(b.type.kind)) && ElementSize(rt.kind) == 4 &&
        !(op == Ar::MINUS && b_date && !a_date))
        return DateArith(op, a, b, rt);
    RNDN_ASSIGN_OR_RETURN(int64_t n, BroadcastLength(a.length, b.length, op == Ar::PLUS ? "plus" : "minus"));
    RNDN_ASSIGN_OR_RETURN(auto out, MakeVector(rt, n));
    bool a_cal = IsCalendar(a.type.kind), b_cal = IsCalendar(b.type.kind);
    int64_t unit = CalendarUnit(a_cal ? a.type.kind : b.type.kind);
    std::vector<int64_t> x = WidenToI64(a), y = WidenToI64(b);
    if (ElementSize(rt.kind) == 8) CalendarLoop(op, a_cal, b_cal, unit, x, a.length, y, b.length, out->Data<int64_t>(), n);
    else CalendarLoop(op, a_cal, b_cal, unit, x, a.length, y, b.length, out->Data<int32_t>(), n);
    SetCombinedValidity(a, b, *out);
    return V(out);
}

Expected<Value> Arith(Builtin bid, Ar op, const std::vector<Value> &args, bool sql_float = false) {
    const char *fn = GetBuiltin(bid).name;
    RNDN_RETURN_IF_ERROR(NeedVector(args[0], fn, 0));
    RNDN_RETURN_IF_ERROR(NeedVector(args[1], fn, 1));
    RNDN_ASSIGN_OR_RETURN(Type rt, RuntimeType(bid, args));
    const auto &pa = args[0].vector_ptr();
    const auto &pb = args[1].vector_ptr();
    if (IsCalendar(pa->type.kind) || IsCalendar(pb->type.kind)) return CalendarArith(op, *pa, *pb, rt);
    RNDN_ASSIGN_OR_RETURN(int64_t n, BroadcastLength(pa->length, pb->length, fn));
    if (IsDecimal(rt.kind)) {
        int sa = IsDecimal(pa->type.kind) ? pa->type.scale : 0;
        int sb = IsDecimal(pb->type.kind) ? pb->type.scale : 0;
        if (sa == Type::kUnknownScale) sa = pa->scale_max;
        if (sb == Type::kUnknownScale) sb = pb->scale_max;
        int common = std::max(sa, sb);
        bool align = op == Ar::PLUS || op == Ar::MINUS || op == Ar::MOD;
        RNDN_ASSIGN_OR_RETURN(auto ca, As(pa, Type::Decimal(TypeKind::DEC128, align ? common : sa)));
        RNDN_ASSIGN_OR_RETURN(auto cb, As(pb, Type::Decimal(TypeKind::DEC128, align ? common : sb)));
        Type out_t = rt;
        if (op != Ar::DIV) out_t.scale = align ? common : sa + sb;
        // An operand with one display scale per element (a division's result) gives each result
        // element PostgreSQL's display scale from the two elements' own scales (add_var and
        // sub_var: the larger; mul_var: the sum; select_div_scale: see DecArith), while the
        // stored integers stay at the common scale.
        const bool per_elem = !pa->elem_scale.empty() || !pb->elem_scale.empty();
        RNDN_ASSIGN_OR_RETURN(auto out, MakeVectorUninit(out_t, n));  // DecArith writes every element
        RNDN_RETURN_IF_ERROR(DecArith(op, *ca, align ? common : sa, *cb, align ? common : sb, *out,
                                      per_elem ? &pa->elem_scale : nullptr, per_elem ? &pb->elem_scale : nullptr));
        if (per_elem && op != Ar::DIV) {
            out->type.scale = Type::kUnknownScale;
            out->scale_max = out_t.scale;
            out->elem_scale.assign(static_cast<size_t>(n), 0);
            for (int64_t i = 0; i < n; ++i) {
                const int da = pa->elem_scale.empty() ? sa : pa->elem_scale[static_cast<size_t>(pa->length == 1 ? 0 : i)];
                const int db = pb->elem_scale.empty() ? sb : pb->elem_scale[static_cast<size_t>(pb->length == 1 ? 0 : i)];
                out->elem_scale[static_cast<size_t>(i)] = static_cast<uint8_t>(op == Ar::MUL ? da + db : std::max(da, db));
            }
        }
        SetCombinedValidity(*ca, *cb, *out);
        return V(out);
    }
    // Compute type: the result type, except mod on bool (i16) which computes in i16 too.
    RNDN_ASSIGN_OR_RETURN(auto ca, As(pa, rt));
    RNDN_ASSIGN_OR_RETURN(auto cb, As(pb, rt));
    RNDN_ASSIGN_OR_RETURN(auto out, MakeVectorUninit(rt, n));
    Status st;
    switch (rt.kind) {
        case TypeKind::F32:
            FloatArith<float>(op, *ca, *cb, *out);
            if (sql_float && op != Ar::MOD) st = SqlFloatChecks<float>(op, *ca, *cb, *out);
            break;
        case TypeKind::F64:
            FloatArith<double>(op, *ca, *cb, *out);
            if (sql_float && op != Ar::MOD) st = SqlFloatChecks<double>(op, *ca, *cb, *out);
            break;
        case TypeKind::I64: st = I64Arith(op, *ca, *cb, *out); break;
        case TypeKind::I32: st = IntArith<int32_t>(op, *ca, *cb, *out, rt.kind); break;
        case TypeKind::I16: st = IntArith<int16_t>(op, *ca, *cb, *out, rt.kind); break;
        case TypeKind::I8: st = IntArith<int8_t>(op, *ca, *cb, *out, rt.kind); break;
        case TypeKind::BOOL:
        case TypeKind::CHAR: st = IntArith<uint8_t>(op, *ca, *cb, *out, rt.kind); break;
        default: return TypeError(std::string("@") + fn + ": unsupported operand types");
    }
    RNDN_RETURN_IF_ERROR(st);
    SetCombinedValidity(*ca, *cb, *out);
    return V(out);
}

bool SqlFloat(const KernelCtx &ctx) { return ctx.options != nullptr && ctx.options->sql_float_errors; }

}  // namespace

Expected<Value> KPlus(KernelCtx &ctx, const std::vector<Value> &a) { return Arith(Builtin::PLUS, Ar::PLUS, a, SqlFloat(ctx)); }
Expected<Value> KMinus(KernelCtx &ctx, const std::vector<Value> &a) { return Arith(Builtin::MINUS, Ar::MINUS, a, SqlFloat(ctx)); }
Expected<Value> KMul(KernelCtx &ctx, const std::vector<Value> &a) { return Arith(Builtin::MUL, Ar::MUL, a, SqlFloat(ctx)); }
Expected<Value> KDiv(KernelCtx &ctx, const std::vector<Value> &a) { return Arith(Builtin::DIV, Ar::DIV, a, SqlFloat(ctx)); }
Expected<Value> KMod(KernelCtx &, const std::vector<Value> &a) { return Arith(Builtin::MOD, Ar::MOD, a); }

// power / logb: computed in double, stored as the rule's float type.
namespace {
template <class F>
Expected<Value> Math2(Builtin bid, const std::vector<Value> &args, F f) {
    const char *fn = GetBuiltin(bid).name;
    RNDN_RETURN_IF_ERROR(NeedVector(args[0], fn, 0));
    RNDN_RETURN_IF_ERROR(NeedVector(args[1], fn, 1));
    RNDN_ASSIGN_OR_RETURN(Type rt, RuntimeType(bid, args));
    RNDN_ASSIGN_OR_RETURN(auto ca, As(args[0].vector_ptr(), TypeKind::F64));
    RNDN_ASSIGN_OR_RETURN(auto cb, As(args[1].vector_ptr(), TypeKind::F64));
    RNDN_ASSIGN_OR_RETURN(int64_t n, BroadcastLength(ca->length, cb->length, fn));
    RNDN_ASSIGN_OR_RETURN(auto out, MakeVector(TypeKind::F64, n));
    BinaryLoop(ca->Data<double>(), ca->length, cb->Data<double>(), cb->length, out->Data<double>(), n, f);
    SetCombinedValidity(*ca, *cb, *out);
    RNDN_ASSIGN_OR_RETURN(auto r, As(out, rt));
    return Value(r);
}
}  // namespace

Expected<Value> KPower(KernelCtx &, const std::vector<Value> &a) {
    return Math2(Builtin::POWER, a, [](double x, double y) { return std::pow(x, y); });
}
Expected<Value> KLogb(KernelCtx &, const std::vector<Value> &a) {
    return Math2(Builtin::LOGB, a, [](double b, double x) { return std::log(x) / std::log(b); });
}

// ---------------------------------------------------------------------------------------------
// Comparisons

namespace {
enum class Cmp { LT, GT, LEQ, GEQ, EQ, NEQ };

template <class T>
void CompareLoop(Cmp c, const T *x, int64_t na, const T *y, int64_t nb, uint8_t *o, int64_t n) {
    if constexpr (std::is_floating_point_v<T>) {
        // PostgreSQL's float comparisons, NaN included (it equals itself, above every number)
        switch (c) {
            case Cmp::LT: BinaryLoop(x, na, y, nb, o, n, [](T p, T q) -> uint8_t { return SqlCompare(p, q) < 0; }); break;
            case Cmp::GT: BinaryLoop(x, na, y, nb, o, n, [](T p, T q) -> uint8_t { return SqlCompare(p, q) > 0; }); break;
            case Cmp::LEQ: BinaryLoop(x, na, y, nb, o, n, [](T p, T q) -> uint8_t { return SqlCompare(p, q) <= 0; }); break;
            case Cmp::GEQ: BinaryLoop(x, na, y, nb, o, n, [](T p, T q) -> uint8_t { return SqlCompare(p, q) >= 0; }); break;
            case Cmp::EQ: BinaryLoop(x, na, y, nb, o, n, [](T p, T q) -> uint8_t { return SqlCompare(p, q) == 0; }); break;
            case Cmp::NEQ: BinaryLoop(x, na, y, nb, o, n, [](T p, T q) -> uint8_t { return SqlCompare(p, q) != 0; }); break;
        }
        return;
    }
    switch (c) {
        case Cmp::LT: BinaryLoop(x, na, y, nb, o, n, [](T p, T q) -> uint8_t { return p < q; }); break;
        case Cmp::GT: BinaryLoop(x, na, y, nb, o, n, [](T p, T q) -> uint8_t { return p > q; }); break;
        case Cmp::LEQ: BinaryLoop(x, na, y, nb, o, n, [](T p, T q) -> uint8_t { return p <= q; }); break;
        case Cmp::GEQ: BinaryLoop(x, na, y, nb, o, n, [](T p, T q) -> uint8_t { return p >= q; }); break;
        case Cmp::EQ: BinaryLoop(x, na, y, nb, o, n, [](T p, T q) -> uint8_t { return p == q; }); break;
        case Cmp::NEQ: BinaryLoop(x, na, y, nb, o, n, [](T p, T q) -> uint8_t { return p != q; }); break;
    }
}

bool CmpResult(Cmp c, int r) {
    switch (c) {
        case Cmp::LT: return r < 0;
        case Cmp::GT: return r > 0;
        case Cmp::LEQ: return r <= 0;
        case Cmp::GEQ: return r >= 0;
        case Cmp::EQ: return r == 0;
        case Cmp::NEQ: return r != 0;
    }
    return false;
}

Expected<Value> Compare(Builtin bid, Cmp c, const std::vector<Value> &args) {
    const char *fn = GetBuiltin(bid).name;
    RNDN_RETURN_IF_ERROR(NeedVector(args[0], fn, 0));
    RNDN_RETURN_IF_ERROR(NeedVector(args[1], fn, 1));
    RNDN_RETURN_IF_ERROR(RuntimeType(bid, args).status());
    const auto &pa = args[0].vector_ptr();
    const auto &pb = args[1].vector_ptr();
    RNDN_ASSIGN_OR_RETURN(int64_t n, BroadcastLength(pa->length, pb->length, fn));
    RNDN_ASSIGN_OR_RETURN(auto out, MakeVectorUninit(TypeKind::BOOL, n));
    uint8_t *o = out->Data<uint8_t>();
    if (IsString(pa->type.kind)) {
        const Vector &a = *pa, &b = *pb;
        if ((c == Cmp::EQ || c == Cmp::NEQ) && (a.length == 1) != (b.length == 1)) {
            // (in)equality with one string (a literal, a parameter): lengths first, then the
            // bytes, without a comparison's ordering work
            const Vector &col = a.length == 1 ? b : a;
            const std::string_view lit = (a.length == 1 ? a : b).StringAt(0);
            const int64_t *off = col.offsets.data();
            const char *chars = col.bytes.data();
            const int64_t want = static_cast<int64_t>(lit.size());
            const uint8_t eq = c == Cmp::EQ ? 1 : 0;
            const char *l = lit.data();
            // in chunks on every core for long columns (parallel.h); a literal of up to 8 bytes
            // (a flag, a code) is one word (kernel_util.h), compared with a row of its length as
            // one masked word, byte by byte where that row's 8-byte read would pass the end
            const uint64_t lit_word = ShortStringWord(lit);
            const int64_t nbytes = static_cast<int64_t>(col.bytes.size());
            ForChunks(ChunksOf(n), [&](int64_t, int64_t lo, int64_t hi) {
                // locals: the byte stores may alias anything the lambda reaches by reference
                const int64_t *const offs = off;
                const char *const bytes = chars;
                uint8_t *const outs = o;
                const int64_t w = want, end = nbytes;
                const uint64_t lw = lit_word;
                const uint8_t yes = eq, no = static_cast<uint8_t>(1 - eq);
                for (int64_t i = lo; i < hi; ++i) {
                    PollCancel(i);
                    const int64_t b0 = offs[i];
                    bool same = offs[i + 1] - b0 == w;
                    if (same && w > 0) {
                        uint64_t x;
                        if (w <= 8 && RowStringWord(bytes, end, b0, w, &x)) {
                            same = x == lw;
                        } else if (w <= 8) {
                            for (int64_t k = 0; k < w; ++k) same &= bytes[b0 + k] == l[k];
                        } else {
                            same = std::memcmp(bytes + b0, l, static_cast<size_t>(w)) == 0;
                        }
                    }
                    outs[i] = same ? yes : no;
                }
            });
            SetCombinedValidity(a, b, *out);
            return V(out);
        }
        for (int64_t i = 0; i < n; ++i) {
            PollCancel(i);
            std::string_view x = a.StringAt(a.length == 1 ? 0 : i), y = b.StringAt(b.length == 1 ? 0 : i);
            int r = x.compare(y);
            o[i] = CmpResult(c, r < 0 ? -1 : r > 0 ? 1 : 0);
        }
        SetCombinedValidity(a, b, *out);
        return V(out);
    }
    // A dec64 column against a decimal scalar of at most its scale (a literal, a parameter):
    // compared in 64 bits when the scalar's value fits there at the column's scale, without
    // widening the column.
    for (int side = 0; side < 2; ++side) {
        const auto &col = side == 0 ? pa : pb;
        const auto &sc = side == 0 ? pb : pa;
        if (col->type.kind != TypeKind::DEC64 || col->type.scale == Type::kUnknownScale || sc->length != 1 || col->length == 1 ||
            !IsDecimal(sc->type.kind) || sc->type.scale == Type::kUnknownScale || sc->type.scale > col->type.scale)
            continue;
        auto narrow = As(sc, col->type);
        if (!narrow.ok()) break;  // out of int64's range at that scale: the general path below
        const auto &ca = side == 0 ? col : narrow.value();
        const auto &cb = side == 0 ? narrow.value() : col;
        CompareLoop<int64_t>(c, ca->template Data<int64_t>(), ca->length, cb->template Data<int64_t>(), cb->length, o, n);
        SetCombinedValidity(*ca, *cb, *out);
        return V(out);
    }
    Type ct = pa->type;
    if (pa->type != pb->type) {
        ct = WidestType(pa->type, pb->type);
        if (IsDecimal(ct.kind)) {
            int sa = IsDecimal(pa->type.kind) ? (pa->type.scale < 0 ? pa->scale_max : pa->type.scale) : 0;
            int sb = IsDecimal(pb->type.kind) ? (pb->type.scale < 0 ? pb->scale_max : pb->type.scale) : 0;
            ct = Type::Decimal(TypeKind::DEC128, std::max(sa, sb));
        }
    } else if (IsDecimal(ct.kind) && ct.scale == Type::kUnknownScale) {
        ct = Type::Decimal(TypeKind::DEC128, std::max(pa->scale_max, pb->scale_max));
    }
    RNDN_ASSIGN_OR_RETURN(auto ca, As(pa, ct));
    RNDN_ASSIGN_OR_RETURN(auto cb, As(pb, ct));
    VisitFixed(ct.kind, [&](auto t) {
        using T = decltype(t);
        CompareLoop<T>(c, ca->template Data<T>(), ca->length, cb->template Data<T>(), cb->length, o, n);
        return 0;
    });
    SetCombinedValidity(*ca, *cb, *out);
    return V(out);
}
}  // namespace

Expected<Value> KLt(KernelCtx &, const std::vector<Value> &a) { return Compare(Builtin::LT, Cmp::LT, a); }
Expected<Value> KGt(KernelCtx &, const std::vector<Value> &a) { return Compare(Builtin::GT, Cmp::GT, a); }
Expected<Value> KLeq(KernelCtx &, const std::vector<Value> &a) { return Compare(Builtin::LEQ, Cmp::LEQ, a); }
Expected<Value> KGeq(KernelCtx &, const std::vector<Value> &a) { return Compare(Builtin::GEQ, Cmp::GEQ, a); }
Expected<Value> KEq(KernelCtx &, const std::vector<Value> &a) { return Compare(Builtin::EQ, Cmp::EQ, a); }
Expected<Value> KNeq(KernelCtx &, const std::vector<Value> &a) { return Compare(Builtin::NEQ, Cmp::NEQ, a); }

// ---------------------------------------------------------------------------------------------
// Logic (Kleene for and/or/nand/nor/not)

namespace {
enum class Lg { AND, OR, NAND, NOR, XOR };

Expected<Value> Logic(Builtin bid, Lg op, const std::vector<Value> &args) {
    const char *fn = GetBuiltin(bid).name;
    RNDN_RETURN_IF_ERROR(NeedVector(args[0], fn, 0));
    RNDN_RETURN_IF_ERROR(NeedVector(args[1], fn, 1));
    RNDN_RETURN_IF_ERROR(RuntimeType(bid, args).status());
    const Vector &a = args[0].vector(), &b = args[1].vector();
    RNDN_ASSIGN_OR_RETURN(int64_t n, BroadcastLength(a.length, b.length, fn));
    RNDN_ASSIGN_OR_RETURN(auto out, MakeVector(TypeKind::BOOL, n));
    const uint8_t *x = a.Data<uint8_t>(), *y = b.Data<uint8_t>();
    uint8_t *o = out->Data<uint8_t>();
    switch (op) {
        case Lg::AND:
        case Lg::NAND: BinaryLoop(x, a.length, y, b.length, o, n, [](uint8_t p, uint8_t q) -> uint8_t { return p & q; }); break;
        case Lg::OR:
        case Lg::NOR: BinaryLoop(x, a.length, y, b.length, o, n, [](uint8_t p, uint8_t q) -> uint8_t { return p | q; }); break;
        case Lg::XOR: BinaryLoop(x, a.length, y, b.length, o, n, [](uint8_t p, uint8_t q) -> uint8_t { return p ^ q; }); break;
    }
    if (a.HasNulls() || b.HasNulls()) {
        out->EnsureValidity();
        for (int64_t i = 0; i < n; ++i) {
            bool va = ValidAt(a, i), vb = ValidAt(b, i);
            if (va && vb) continue;
            bool pa = x[a.length == 1 ? 0 : i], pb = y[b.length == 1 ? 0 : i];
            bool known = false;
            if (op == Lg::AND || op == Lg::NAND) {
                if ((va && !pa) || (vb && !pb)) {
                    known = true;
                    o[i] = 0;
                }
            } else if (op == Lg::OR || op == Lg::NOR) {
                if ((va && pa) || (vb && pb)) {
                    known = true;
                    o[i] = 1;
                }
            }
            if (!known) {
                o[i] = 0;
                out->SetNull(i);
            }
        }
    }
    if (op == Lg::NAND || op == Lg::NOR)
        for (int64_t i = 0; i < n; ++i) o[i] = !o[i];
    return V(out);
}
}  // namespace

Expected<Value> KAnd(KernelCtx &, const std::vector<Value> &a) { return Logic(Builtin::AND, Lg::AND, a); }
Expected<Value> KOr(KernelCtx &, const std::vector<Value> &a) { return Logic(Builtin::OR, Lg::OR, a); }
Expected<Value> KNand(KernelCtx &, const std::vector<Value> &a) { return Logic(Builtin::NAND, Lg::NAND, a); }
Expected<Value> KNor(KernelCtx &, const std::vector<Value> &a) { return Logic(Builtin::NOR, Lg::NOR, a); }
Expected<Value> KXor(KernelCtx &, const std::vector<Value> &a) { return Logic(Builtin::XOR, Lg::XOR, a); }

Expected<Value> KNot(KernelCtx &, const std::vector<Value> &args) {
    RNDN_RETURN_IF_ERROR(NeedVector(args[0], "not", 0));
    RNDN_RETURN_IF_ERROR(RuntimeType(Builtin::NOT, args).status());
    const Vector &a = args[0].vector();
    RNDN_ASSIGN_OR_RETURN(auto out, MakeVector(TypeKind::BOOL, a.length));
    const uint8_t *x = a.Data<uint8_t>();
    uint8_t *o = out->Data<uint8_t>();
    for (int64_t i = 0; i < a.length; ++i) o[i] = !x[i];
    SetUnaryValidity(a, *out);
    return V(out);
}

// ---------------------------------------------------------------------------------------------
// Unary numeric

namespace {
// Applies f in double and stores the rule's result type (float results).
template <class F>
Expected<Value> MathUnary(Builtin bid, const std::vector<Value> &args, F f) {
    const char *fn = GetBuiltin(bid).name;
    RNDN_RETURN_IF_ERROR(NeedVector(args[0], fn, 0));
    RNDN_ASSIGN_OR_RETURN(Type rt, RuntimeType(bid, args));
    RNDN_ASSIGN_OR_RETURN(auto ca, As(args[0].vector_ptr(), TypeKind::F64));
    RNDN_ASSIGN_OR_RETURN(auto out, MakeVector(TypeKind::F64, ca->length));
    const double *x = ca->Data<double>();
    double *o = out->Data<double>();
    for (int64_t i = 0; i < ca->length; ++i) o[i] = f(x[i]);
    SetUnaryValidity(*ca, *out);
    RNDN_ASSIGN_OR_RETURN(auto r, As(out, rt));
    return Value(r);
}

// Same-type unary ops; integer overflow (abs/neg of the minimum) is an error.
template <class F>
Expected<Value> SameUnary(Builtin bid, const std::vector<Value> &args, F f) {
    const char *fn = GetBuiltin(bid).name;
    RNDN_RETURN_IF_ERROR(NeedVector(args[0], fn, 0));
    RNDN_ASSIGN_OR_RETURN(Type rt, RuntimeType(bid, args));
    RNDN_ASSIGN_OR_RETURN(auto ca, As(args[0].vector_ptr(), rt));
    RNDN_ASSIGN_OR_RETURN(auto out, MakeVector(rt, ca->length));
    out->elem_scale = ca->elem_scale;
    out->scale_max = ca->scale_max;
    bool ovf = false;
    VisitFixed(rt.kind, [&](auto t) {
        using T = decltype(t);
        const T *x = ca->template Data<T>();
        T *o = out->template Data<T>();
        for (int64_t i = 0; i < ca->length; ++i) o[i] = f(x[i], ovf);
        return 0;
    });
    if (ovf) {
        if (IsDecimal(rt.kind)) return NumericOverflow();
        return IntegerOutOfRange(rt.kind);
    }
    SetUnaryValidity(*ca, *out);
    return V(out);
}

template <class T>
constexpr bool kSignedInt = std::is_integral_v<T> && std::is_signed_v<T>;
}  // namespace

Expected<Value> KAbs(KernelCtx &, const std::vector<Value> &a) {
    return SameUnary(Builtin::ABS, a, [](auto x, bool &ovf) {
        using T = decltype(x);
        if constexpr (std::is_floating_point_v<T>) return std::fabs(x);
        else if constexpr (std::is_unsigned_v<T> || kIsInterval<T>) return x;  // intervals: refused by the rule
        else {
            if (x == std::numeric_limits<T>::min()) ovf = true;
            return x < 0 ? static_cast<T>(-x) : x;
        }
    });
}
Expected<Value> KNeg(KernelCtx &, const std::vector<Value> &a) {
    return SameUnary(Builtin::NEG, a, [](auto x, bool &ovf) {
        using T = decltype(x);
        if constexpr (std::is_floating_point_v<T>) return -x;
        else if constexpr (std::is_unsigned_v<T> || kIsInterval<T>) return x;  // intervals: refused by the rule
        else {
            if (x == std::numeric_limits<T>::min()) ovf = true;
            return static_cast<T>(-x);
        }
    });
}
namespace {
template <class G>
Expected<Value> Rounding(Builtin bid, const std::vector<Value> &a, G g) {
    RNDN_RETURN_IF_ERROR(NeedVector(a[0], GetBuiltin(bid).name, 0));
    if (IsDecimal(a[0].vector().type.kind)) {
        // round to scale 0 (PostgreSQL round/ceil/floor of numeric keep the type, scale 0 digits)
        const Vector &v = a[0].vector();
        RNDN_ASSIGN_OR_RETURN(auto cv, As(a[0].vector_ptr(), Type::Decimal(TypeKind::DEC128, v.type.scale < 0 ? v.scale_max : v.type.scale)));
        int s = cv->type.scale;
        RNDN_ASSIGN_OR_RETURN(auto out, MakeVector(Type::Decimal(TypeKind::DEC128, 0), cv->length));
        __int128 p = Pow10(s);
        for (int64_t i = 0; i < cv->length; ++i) {
            __int128 x = cv->Data<__int128>()[i];
            __int128 q = x / p, r = x % p;
            out->Data<__int128>()[i] = g(q, r, p);
        }
        SetUnaryValidity(*cv, *out);
        return V(out);
    }
    return SameUnary(bid, a, [](auto x, bool &) {
        using T = decltype(x);
        if constexpr (std::is_floating_point_v<T>) return static_cast<T>(G{}(x));
        else return x;
    });
}
struct CeilF {
    double operator()(double x) const { return std::ceil(x); }
    __int128 operator()(__int128 q, __int128 r, __int128) const { return r > 0 ? q + 1 : q; }
};
struct FloorF {
    double operator()(double x) const { return std::floor(x); }
    __int128 operator()(__int128 q, __int128 r, __int128) const { return r < 0 ? q - 1 : q; }
};
struct RoundF {
    double operator()(double x) const { return std::round(x); }
    __int128 operator()(__int128 q, __int128 r, __int128 p) const {
        if (2 * r >= p) return q + 1;
        if (-2 * r >= p) return q - 1;
        return q;
    }
};
}  // namespace
Expected<Value> KCeil(KernelCtx &, const std::vector<Value> &a) { return Rounding(Builtin::CEIL, a, CeilF{}); }
Expected<Value> KFloor(KernelCtx &, const std::vector<Value> &a) { return Rounding(Builtin::FLOOR, a, FloorF{}); }
Expected<Value> KRound(KernelCtx &, const std::vector<Value> &a) { return Rounding(Builtin::ROUND, a, RoundF{}); }

Expected<Value> KSignum(KernelCtx &, const std::vector<Value> &args) {
    RNDN_RETURN_IF_ERROR(NeedVector(args[0], "signum", 0));
    RNDN_RETURN_IF_ERROR(RuntimeType(Builtin::SIGNUM, args).status());
    const Vector &a = args[0].vector();
    RNDN_ASSIGN_OR_RETURN(auto out, MakeVector(TypeKind::I16, a.length));
    VisitFixed(a.type.kind, [&](auto t) {
        using T = decltype(t);
        const T *x = a.Data<T>();
        int16_t *o = out->Data<int16_t>();
        for (int64_t i = 0; i < a.length; ++i) o[i] = static_cast<int16_t>((x[i] > T{0}) - (x[i] < T{0}));
        return 0;
    });
    SetUnaryValidity(a, *out);
    return V(out);
}

#define HIR_MATH(KNAME, BID, EXPR) \
    Expected<Value> KNAME(KernelCtx &, const std::vector<Value> &a) { return MathUnary(Builtin::BID, a, [](double x) { return EXPR; }); }
HIR_MATH(KRecip, RECIP, 1.0 / x)
HIR_MATH(KPi, PI, M_PI * x)
HIR_MATH(KLog, LOG, std::log(x))
HIR_MATH(KLog2, LOG2, std::log2(x))
HIR_MATH(KLog10, LOG10, std::log10(x))
HIR_MATH(KSqrt, SQRT, std::sqrt(x))
HIR_MATH(KExp, EXP, std::exp(x))
HIR_MATH(KCos, COS, std::cos(x))
HIR_MATH(KSin, SIN, std::sin(x))
HIR_MATH(KTan, TAN, std::tan(x))
HIR_MATH(KAcos, ACOS, std::acos(x))
HIR_MATH(KAsin, ASIN, std::asin(x))
HIR_MATH(KAtan, ATAN, std::atan(x))
HIR_MATH(KCosh, COSH, std::cosh(x))
HIR_MATH(KSinh, SINH, std::sinh(x))
HIR_MATH(KTanh, TANH, std::tanh(x))
HIR_MATH(KAcosh, ACOSH, std::acosh(x))
HIR_MATH(KAsinh, ASINH, std::asinh(x))
HIR_MATH(KAtanh, ATANH, std::atanh(x))
#undef HIR_MATH

Expected<Value> KFact(KernelCtx &, const std::vector<Value> &args) {
    RNDN_RETURN_IF_ERROR(NeedVector(args[0], "fact", 0));
    RNDN_RETURN_IF_ERROR(RuntimeType(Builtin::FACT, args).status());
    RNDN_ASSIGN_OR_RETURN(auto ca, As(args[0].vector_ptr(), TypeKind::I64));
    RNDN_ASSIGN_OR_RETURN(auto out, MakeVector(TypeKind::I64, ca->length));
    for (int64_t i = 0; i < ca->length; ++i) {
        int64_t x = ca->Data<int64_t>()[i], r = 1;
        if (!ca->IsValid(i)) continue;
        if (x < 0) return Status::UserError(sqlstate::kInvalidParameter, "factorial of a negative number is undefined");
        for (int64_t k = 2; k <= x; ++k)
            if (__builtin_mul_overflow(r, k, &r)) return IntegerOutOfRange(TypeKind::I64);
        out->Data<int64_t>()[i] = r;
    }
    SetUnaryValidity(*ca, *out);
    return V(out);
}

// ---------------------------------------------------------------------------------------------
// Calendar

namespace {
template <class F>
Expected<Value> CalendarPart(Builtin bid, const std::vector<Value> &args, TypeKind result, F f) {
    RNDN_RETURN_IF_ERROR(NeedVector(args[0], GetBuiltin(bid).name, 0));
    RNDN_RETURN_IF_ERROR(RuntimeType(bid, args).status());
    const Vector &a = args[0].vector();
    RNDN_ASSIGN_OR_RETURN(auto out, MakeVector(result, a.length));
    TypeKind k = a.type.kind;
    VisitFixed(result, [&](auto t) {
        using O = decltype(t);
        if constexpr (!kIsInterval<O>) {  // results are numbers or calendar values
            O *o = out->template Data<O>();
            for (int64_t i = 0; i < a.length; ++i) {
                int64_t raw = (k == TypeKind::DT || k == TypeKind::TIME) ? a.Data<int64_t>()[i] : a.Data<int32_t>()[i];
                o[i] = static_cast<O>(f(k, raw));
            }
        }
        return 0;
    });
    SetUnaryValidity(a, *out);
    return V(out);
}
int64_t DayOf(TypeKind k, int64_t raw) {
    if (k == TypeKind::DT) return FloorDivI(raw, 86400000000LL);
    return raw;
}
int64_t MicrosOfDay(TypeKind k, int64_t raw) {
    switch (k) {
        case TypeKind::DT: return raw - FloorDivI(raw, 86400000000LL) * 86400000000LL;
        case TypeKind::TIME: return raw;
        case TypeKind::MINUTE: return raw * 60000000LL;
        case TypeKind::SECOND: return raw * 1000000LL;
        default: return 0;
    }
}
int64_t Ymd(TypeKind k, int64_t raw, int which) {
    int32_t y, m, d;
    if (k == TypeKind::MONTH) {
        int64_t yy = FloorDivI(raw, 12);
        y = static_cast<int32_t>(2000 + yy);
        m = static_cast<int32_t>(raw - yy * 12 + 1);
        d = 1;
    } else {
        CivilFromDays(static_cast<int32_t>(DayOf(k, raw)), &y, &m, &d);
    }
    return which == 0 ? y : which == 1 ? m : d;
}
}  // namespace

namespace {
// An infinite date or timestamp (PostgreSQL's DATE_NOBEGIN/NOEND, DT_NOBEGIN/NOEND).
bool InfiniteAt(const Vector &v, int64_t i) {
    if (v.type.kind == TypeKind::DATE) {
        const int32_t d = v.Data<int32_t>()[i];
        return d == INT32_MIN || d == INT32_MAX;
    }
    if (v.type.kind == TypeKind::DT) {
        const int64_t t = v.Data<int64_t>()[i];
        return t == INT64_MIN || t == INT64_MAX;
    }
    return false;
}

// year/month/day of dates and timestamps as PostgreSQL's extract gives them: a year before
// 1 AD counts from -1 (1 BC) down, not from 0; month and day of an infinity are NULL; its year
// is ±Infinity, which an integer result cannot hold (UNSUPPORTED: PostgreSQL's plan answers).
Expected<Value> YmdPart(Builtin bid, const std::vector<Value> &a, int which) {
    bool wide = false;  // a year beyond the i16 result (5874897 AD is a valid date)
    RNDN_ASSIGN_OR_RETURN(Value r, CalendarPart(bid, a, TypeKind::I16, [which, &wide](TypeKind k, int64_t raw) {
        int64_t v = Ymd(k, raw, which);
        if (which == 0 && v <= 0) --v;
        wide |= v < INT16_MIN || v > INT16_MAX;
        return v;
    }));
    const Vector &in = a[0].vector();
    if (wide)
        for (int64_t i = 0; i < in.length; ++i)
            if (in.IsValid(i) && !InfiniteAt(in, i)) {
                const TypeKind k = in.type.kind;
                int64_t raw = (k == TypeKind::DT || k == TypeKind::TIME) ? in.Data<int64_t>()[i] : in.Data<int32_t>()[i];
                int64_t v = Ymd(in.type.kind, raw, which);
                if (v < INT16_MIN + 1 || v > INT16_MAX) return Status::Unsupported("a year beyond 32767");
            }
    if (in.type.kind != TypeKind::DATE && in.type.kind != TypeKind::DT) return r;
    std::shared_ptr<Vector> out;
    for (int64_t i = 0; i < in.length; ++i) {
        if (!in.IsValid(i) || !InfiniteAt(in, i)) continue;
        if (which == 0) return Status::Unsupported("the year of an infinite date");
        if (!out) out = std::const_pointer_cast<Vector>(r.vector_ptr());
        out->SetNull(i);
    }
    return r;
}
}  // namespace

Expected<Value> KDateYear(KernelCtx &, const std::vector<Value> &a) { return YmdPart(Builtin::DATE_YEAR, a, 0); }
Expected<Value> KDateMonth(KernelCtx &, const std::vector<Value> &a) { return YmdPart(Builtin::DATE_MONTH, a, 1); }
Expected<Value> KDateDay(KernelCtx &, const std::vector<Value> &a) { return YmdPart(Builtin::DATE_DAY, a, 2); }
Expected<Value> KDate(KernelCtx &, const std::vector<Value> &a) {
    // an infinite timestamp gives the infinite date of its sign (PostgreSQL's timestamp_date)
    return CalendarPart(Builtin::DATE, a, TypeKind::DATE, [](TypeKind k, int64_t r) -> int64_t {
        if (k == TypeKind::DT && (r == INT64_MIN || r == INT64_MAX)) return r == INT64_MIN ? INT32_MIN : INT32_MAX;
        return DayOf(k, r);
    });
}
Expected<Value> KTime(KernelCtx &, const std::vector<Value> &a) {
    return CalendarPart(Builtin::TIME, a, TypeKind::TIME, [](TypeKind k, int64_t r) { return MicrosOfDay(k, r); });
}
namespace {
// Hour, minute, second and millisecond of an infinite timestamp are NULL (PostgreSQL's extract and
// date_part of a field that does not grow with time).
Expected<Value> TimePart(Builtin bid, const std::vector<Value> &a, int64_t unit, int64_t modulo) {
    RNDN_ASSIGN_OR_RETURN(Value r, CalendarPart(bid, a, TypeKind::I16, [unit, modulo](TypeKind k, int64_t raw) {
        const int64_t v = MicrosOfDay(k, raw) / unit;
        return modulo > 0 ? v % modulo : v;
    }));
    const Vector &in = a[0].vector();
    if (in.type.kind != TypeKind::DT) return r;
    for (int64_t i = 0; i < in.length; ++i)
        if (in.IsValid(i) && InfiniteAt(in, i)) std::const_pointer_cast<Vector>(r.vector_ptr())->SetNull(i);
    return r;
}
}  // namespace

Expected<Value> KTimeHour(KernelCtx &, const std::vector<Value> &a) { return TimePart(Builtin::TIME_HOUR, a, 3600000000LL, 0); }
Expected<Value> KTimeMinute(KernelCtx &, const std::vector<Value> &a) { return TimePart(Builtin::TIME_MINUTE, a, 60000000LL, 60); }
Expected<Value> KTimeSecond(KernelCtx &, const std::vector<Value> &a) { return TimePart(Builtin::TIME_SECOND, a, 1000000LL, 60); }
Expected<Value> KTimeMill(KernelCtx &, const std::vector<Value> &a) { return TimePart(Builtin::TIME_MILL, a, 1000LL, 1000); }

namespace {
// date_trunc on a timestamp (microseconds since 2000-01-01, no time zone) as PostgreSQL computes
// it: every field below the unit set to its first value.  Infinities stay.  A result before
// PostgreSQL's first timestamp (4714-11-24 BC) raises PostgreSQL's "timestamp out of range".
enum class TruncUnit { MICRO, MILLI, SECOND, MINUTE, HOUR, DAY, WEEK, MONTH, QUARTER, YEAR, DECADE, CENTURY, MILLENNIUM };
struct TruncUnitName {
    const char *name;
    TruncUnit unit;
};
constexpr TruncUnitName kTruncUnits[] = {
    {"microseconds", TruncUnit::MICRO}, {"milliseconds", TruncUnit::MILLI}, {"second", TruncUnit::SECOND},
    {"minute", TruncUnit::MINUTE},      {"hour", TruncUnit::HOUR},          {"day", TruncUnit::DAY},
    {"week", TruncUnit::WEEK},          {"month", TruncUnit::MONTH},        {"quarter", TruncUnit::QUARTER},
    {"year", TruncUnit::YEAR},          {"decade", TruncUnit::DECADE},      {"century", TruncUnit::CENTURY},
    {"millennium", TruncUnit::MILLENNIUM},
};

// The first year of y's decade, century or millennium as PostgreSQL 15's timestamp_trunc counts
// them (y astronomical: 0 is 1 BC).  Centuries and millennia start at years 1, 101, 1001 and,
// before the era, at 100 BC, 1000 BC (astronomical 1 - 100k); decades at multiples of ten, and
// before the era the astronomical years -1 .. -10 go to -10 (11 BC), -11 .. -20 to -20, while
// year 0 (1 BC) stays.
int64_t TruncYear(TruncUnit u, int64_t y) {
    if (u == TruncUnit::DECADE) return y > 0 ? (y / 10) * 10 : -((8 - (y - 1)) / 10) * 10;
    if (u == TruncUnit::MILLENNIUM) y = y > 0 ? ((y + 999) / 1000) * 1000 - 999 : -((999 - (y - 1)) / 1000) * 1000 + 1;
    // century (a millennium's first year then stays where it is, as PostgreSQL's fall-through)
    return y > 0 ? ((y + 99) / 100) * 100 - 99 : -((99 - (y - 1)) / 100) * 100 + 1;
}
constexpr int64_t kMinTimestamp = -211813488000000000LL;  // 4714-11-24 BC 00:00:00 (PostgreSQL's MIN_TIMESTAMP)

int64_t TruncDt(TruncUnit u, int64_t t) {
    switch (u) {
        case TruncUnit::MICRO: return t;
        case TruncUnit::MILLI: return FloorDivI(t, 1000) * 1000;
        case TruncUnit::SECOND: return FloorDivI(t, 1000000) * 1000000;
        case TruncUnit::MINUTE: return FloorDivI(t, 60000000) * 60000000;
        case TruncUnit::HOUR: return FloorDivI(t, 3600000000LL) * 3600000000LL;
        case TruncUnit::DAY: return FloorDivI(t, kDayMicros) * kDayMicros;
        case TruncUnit::WEEK: {  // the Monday on or before (2000-01-01 was a Saturday)
            const int64_t day = FloorDivI(t, kDayMicros);
            const int64_t since_monday = ((day + 5) % 7 + 7) % 7;
            return (day - since_monday) * kDayMicros;
        }
        case TruncUnit::MONTH:
        case TruncUnit::QUARTER:
        case TruncUnit::YEAR:
        case TruncUnit::DECADE:
        case TruncUnit::CENTURY:
        case TruncUnit::MILLENNIUM: {
            int32_t y, m, d;
            CivilFromDays(static_cast<int32_t>(FloorDivI(t, kDayMicros)), &y, &m, &d);
            if (u == TruncUnit::DECADE || u == TruncUnit::CENTURY || u == TruncUnit::MILLENNIUM) y = static_cast<int32_t>(TruncYear(u, y));
            if (u != TruncUnit::MONTH && u != TruncUnit::QUARTER) m = 1;
            if (u == TruncUnit::QUARTER) m = (m - 1) / 3 * 3 + 1;
            return static_cast<int64_t>(DaysFromCivil(y, m, 1)) * kDayMicros;
        }
    }
    return t;
}
}  // namespace

Expected<Value> KDateTrunc(KernelCtx &, const std::vector<Value> &args) {
    RNDN_RETURN_IF_ERROR(NeedVector(args[0], "date_trunc", 0));
    RNDN_RETURN_IF_ERROR(NeedVector(args[1], "date_trunc", 1));
    RNDN_RETURN_IF_ERROR(RuntimeType(Builtin::DATE_TRUNC, args).status());
    const Vector &a = args[0].vector();
    const Vector &unit = args[1].vector();
    if (unit.length != 1) return ShapeError("@date_trunc: the unit must be one symbol");
    const std::string_view name = unit.StringAt(0);
    const TruncUnitName *found = nullptr;
    for (const auto &u : kTruncUnits)
        if (name == u.name) found = &u;
    if (found == nullptr)
        return Status::UserError(sqlstate::kInvalidParameter, "@date_trunc: unknown unit '" + std::string(name) +
                                                                  "' (microseconds, milliseconds, second, minute, hour, day, week, month, quarter, year, decade, century, millennium)");
    RNDN_ASSIGN_OR_RETURN(auto out, MakeVector(TypeKind::DT, a.length));
    const int64_t *in = a.Data<int64_t>();
    int64_t *o = out->Data<int64_t>();
    for (int64_t i = 0; i < a.length; ++i) {
        const int64_t t = in[i];
        if (t == INT64_MIN || t == INT64_MAX || !a.IsValid(i)) {
            o[i] = t;
            continue;
        }
        o[i] = TruncDt(found->unit, t);
        if (o[i] < kMinTimestamp) return Status::UserError(sqlstate::kDatetimeOverflow, "timestamp out of range");
    }
    SetUnaryValidity(a, *out);
    return V(out);
}

namespace {
// extract / date_part fields (PostgreSQL 15's timestamp_part_common and extract_date): one row
// per field, with whether it grows with time (an infinite input gives ±Infinity, else NULL)
// and whether PostgreSQL accepts it on a date.
enum class DField { CENTURY, DECADE, MILLENNIUM, YEAR, ISOYEAR, QUARTER, MONTH, WEEK, DAY, DOW, ISODOW, DOY, HOUR, MINUTE,
                    SECOND, MILLISECONDS, MICROSECONDS, EPOCH, JULIAN };
struct DFieldRow {
    const char *name;
    DField field;
    bool grows;
    bool on_date;
};
constexpr DFieldRow kDFields[] = {
    {"century", DField::CENTURY, true, true},       {"decade", DField::DECADE, true, true},
    {"millennium", DField::MILLENNIUM, true, true}, {"year", DField::YEAR, true, true},
    {"isoyear", DField::ISOYEAR, true, true},       {"quarter", DField::QUARTER, false, true},
    {"month", DField::MONTH, false, true},          {"week", DField::WEEK, false, true},
    {"day", DField::DAY, false, true},              {"dow", DField::DOW, false, true},
    {"isodow", DField::ISODOW, false, true},        {"doy", DField::DOY, false, true},
    {"hour", DField::HOUR, false, false},           {"minute", DField::MINUTE, false, false},
    {"second", DField::SECOND, false, false},       {"milliseconds", DField::MILLISECONDS, false, false},
    {"microseconds", DField::MICROSECONDS, false, false}, {"epoch", DField::EPOCH, true, true},
    {"julian", DField::JULIAN, true, true},
};
constexpr int64_t kUnixEpochMicros = -946684800000000LL;  // 1970-01-01 in microseconds after 2000-01-01
constexpr int64_t kJulian2000 = 2451545;                    // Julian day of 2000-01-01

Expected<const DFieldRow *> FindDField(Builtin bid, const Value &sym, TypeKind input, bool date_rules) {
    const Vector &u = sym.vector();
    if (u.length != 1) return ShapeError(std::string("@") + GetBuiltin(bid).name + ": the field must be one symbol");
    const std::string_view name = u.StringAt(0);
    for (const auto &r : kDFields) {
        if (name != r.name) continue;
        if (date_rules && input == TypeKind::DATE && !r.on_date)
            return Status::UserError(sqlstate::kFeatureNotSupported, "unit \"" + std::string(name) + "\" not supported for type date");
        return &r;
    }
    return Status::UserError(sqlstate::kInvalidParameter, std::string("@") + GetBuiltin(bid).name + ": unknown field '" +
                                                              std::string(name) + "'");
}

// The broken-down parts of a finite date (micros 0) or timestamp: astronomical year (1 BC = 0).
struct DParts {
    int64_t day;    // days after 2000-01-01
    int64_t micros; // microseconds into the day
    int32_t y, m, d;
};
DParts Split(TypeKind k, int64_t raw) {
    DParts p;
    p.day = k == TypeKind::DT ? FloorDivI(raw, kDayMicros) : raw;
    p.micros = k == TypeKind::DT ? raw - p.day * kDayMicros : 0;
    CivilFromDays(static_cast<int32_t>(p.day), &p.y, &p.m, &p.d);
    return p;
}
// The integer value of field f (the fields extract returns as numeric of scale 0; second,
// milliseconds and microseconds as the microseconds into the minute).
int64_t IntField(DField f, const DParts &p) {
    const int64_t y = p.y;
    switch (f) {
        case DField::YEAR: return y > 0 ? y : y - 1;
        case DField::DECADE: return y >= 0 ? y / 10 : -((8 - (y - 1)) / 10);
        case DField::CENTURY: return y > 0 ? (y + 99) / 100 : -((99 - (y - 1)) / 100);
        case DField::MILLENNIUM: return y > 0 ? (y + 999) / 1000 : -((999 - (y - 1)) / 1000);
        case DField::QUARTER: return (p.m - 1) / 3 + 1;
        case DField::MONTH: return p.m;
        case DField::DAY: return p.d;
        case DField::DOW: return Dow(p.day);
        case DField::ISODOW: return Dow(p.day) == 0 ? 7 : Dow(p.day);
        case DField::DOY: return p.day - DaysFromCivil(p.y, 1, 1) + 1;
        case DField::WEEK:
        case DField::ISOYEAR: {
            int64_t w, iy;
            IsoWeek(p.day, &w, &iy);
            if (f == DField::WEEK) return w;
            return iy <= 0 ? iy - 1 : iy;
        }
        case DField::HOUR: return p.micros / 3600000000LL;
        case DField::MINUTE: return p.micros / 60000000LL % 60;
        case DField::SECOND:
        case DField::MILLISECONDS:
        case DField::MICROSECONDS: return p.micros % 60000000LL;
        case DField::EPOCH: return (p.day + 10957) * 86400;  // of a date
        case DField::JULIAN: return p.day + kJulian2000;     // of a date
    }
    return 0;
}
bool InfiniteRaw(TypeKind k, int64_t raw) {
    return k == TypeKind::DT ? (raw == INT64_MIN || raw == INT64_MAX) : (raw == INT32_MIN || raw == INT32_MAX);
}

// Runs one field over a date or dt vector: finite elements through `finite`, infinite ones NULL
// or (fields that grow) through `infinite(negative)`, which may refuse.
// A date given to @date_field_f stands for its midnight (date_part of date::timestamp): a date
// beyond the last timestamp (294276 AD) raises PostgreSQL's cast error.
constexpr int64_t kFirstDayPastTimestamps = 109203528 - kJulian2000;
template <class O, class Fin, class Inf>
Expected<Value> FieldKernel(Builtin bid, const std::vector<Value> &args, const Type &rt, Fin finite, Inf infinite) {
    const char *fn = GetBuiltin(bid).name;
    RNDN_RETURN_IF_ERROR(NeedVector(args[0], fn, 0));
    RNDN_RETURN_IF_ERROR(NeedVector(args[1], fn, 1));
    RNDN_RETURN_IF_ERROR(RuntimeType(bid, args).status());
    const Vector &a = args[0].vector();
    const TypeKind k = a.type.kind;
    const bool as_timestamp = bid == Builtin::DATE_FIELD_F;
    RNDN_ASSIGN_OR_RETURN(const DFieldRow *row, FindDField(bid, args[1], k, !as_timestamp));
    RNDN_ASSIGN_OR_RETURN(auto out, MakeVector(rt, a.length));
    SetUnaryValidity(a, *out);
    O *o = out->template Data<O>();
    for (int64_t i = 0; i < a.length; ++i) {
        if (!a.IsValid(i)) {
            o[i] = O{};
            continue;
        }
        const int64_t raw = k == TypeKind::DT ? a.Data<int64_t>()[i] : a.Data<int32_t>()[i];
        if (InfiniteRaw(k, raw)) {
            o[i] = O{};
            if (!row->grows) {
                out->SetNull(i);
                continue;
            }
            const bool negative = raw < 0;
            RNDN_ASSIGN_OR_RETURN(o[i], infinite(*row, negative));
            continue;
        }
        if (as_timestamp && k == TypeKind::DATE && raw >= kFirstDayPastTimestamps)
            return Status::UserError(sqlstate::kDatetimeOverflow, "date out of range for timestamp");  // PostgreSQL's cast
        RNDN_ASSIGN_OR_RETURN(o[i], finite(*row, Split(k, raw), raw));
    }
    return V(out);
}
}  // namespace

Expected<Value> KDateField(KernelCtx &, const std::vector<Value> &args) {
    const bool dt = !args.empty() && args[0].is_vector() && args[0].vector().type.kind == TypeKind::DT;
    return FieldKernel<int64_t>(
        Builtin::DATE_FIELD, args, Type(TypeKind::I64),
        [dt](const DFieldRow &r, const DParts &p, int64_t) -> Expected<int64_t> {
            if (r.field == DField::SECOND || r.field == DField::MILLISECONDS || (dt && (r.field == DField::EPOCH || r.field == DField::JULIAN)))
                return Status::UserError(sqlstate::kInvalidParameter, std::string("@date_field: field '") + r.name +
                                                                          "' has a fraction (@date_field_us, @date_field_f)");
            return IntField(r.field, p);
        },
        [](const DFieldRow &r, bool) -> Expected<int64_t> {
            return Status::Unsupported(std::string("extract(") + r.name + ") of an infinite value is ±Infinity");
        });
}

Expected<Value> KDateFieldUs(KernelCtx &, const std::vector<Value> &args) {
    return FieldKernel<__int128>(
        Builtin::DATE_FIELD_US, args, Type::Decimal(TypeKind::DEC128, 6),
        [](const DFieldRow &r, const DParts &p, int64_t raw) -> Expected<__int128> {
            switch (r.field) {
                case DField::SECOND: return static_cast<__int128>(IntField(r.field, p));                // (s*1e6+us) / 1e6
                case DField::MILLISECONDS: return static_cast<__int128>(IntField(r.field, p)) * 1000;  // (s*1e6+us) / 1e3
                case DField::EPOCH:  // (t - 1970) / 1e6; past INT64_MAX + epoch PostgreSQL divides numerics
                    if (raw >= INT64_MAX + kUnixEpochMicros)
                        return Status::Unsupported("extract(epoch) of a timestamp after 294247 AD (numeric division)");
                    return static_cast<__int128>(raw) - kUnixEpochMicros;
                default:
                    return Status::UserError(sqlstate::kInvalidParameter,
                                             std::string("@date_field_us: field '") + r.name + "' (second, milliseconds, epoch)");
            }
        },
        [](const DFieldRow &r, bool) -> Expected<__int128> {
            return Status::Unsupported(std::string("extract(") + r.name + ") of an infinite value is ±Infinity");
        });
}

Expected<Value> KDateFieldF(KernelCtx &, const std::vector<Value> &args) {
    return FieldKernel<double>(
        Builtin::DATE_FIELD_F, args, Type(TypeKind::F64),
        [](const DFieldRow &r, const DParts &p, int64_t) -> Expected<double> {
            // date_part's float8 arithmetic, operation for operation (a date is its midnight)
            const int64_t t = p.day * kDayMicros + p.micros;
            const int64_t us = p.micros % 60000000LL, sec = us / 1000000, fsec = us % 1000000;
            switch (r.field) {
                case DField::SECOND: return static_cast<double>(sec) + static_cast<double>(fsec) / 1000000.0;
                case DField::MILLISECONDS: return static_cast<double>(sec) * 1000.0 + static_cast<double>(fsec) / 1000.0;
                case DField::JULIAN: {
                    const int64_t whole = p.micros / 1000000;  // hour*3600 + minute*60 + second
                    return static_cast<double>(p.day + kJulian2000) +
                           (static_cast<double>(whole) + static_cast<double>(fsec) / 1000000.0) / 86400.0;
                }
                case DField::EPOCH:
                    if (t < INT64_MAX + kUnixEpochMicros) return static_cast<double>(t - kUnixEpochMicros) / 1000000.0;
                    return (static_cast<double>(t) - static_cast<double>(kUnixEpochMicros)) / 1000000.0;
                default: return static_cast<double>(IntField(r.field, p));
            }
        },
        [](const DFieldRow &, bool negative) -> Expected<double> {
            return negative ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
        });
}

namespace {
constexpr int64_t kEndTimestamp = 9223371331200000000LL;  // 294277-01-01 (PostgreSQL's END_TIMESTAMP)
bool ValidTimestamp(int64_t t) { return kMinTimestamp <= t && t < kEndTimestamp; }
Status TimestampOutOfRange() { return Status::UserError(sqlstate::kDatetimeOverflow, "timestamp out of range"); }
int32_t DaysInMonth(int64_t y, int32_t m) {
    static const int32_t kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    const bool leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
    return kDays[m - 1] + (m == 2 && leap ? 1 : 0);
}
// timestamp_pl_interval on a finite timestamp: each step a valid timestamp or the error.
Expected<int64_t> AddInterval(int64_t t, int64_t months, int64_t days, int64_t micros) {
    if (months != 0) {
        const int64_t day = FloorDivI(t, kDayMicros), tod = t - day * kDayMicros;
        int32_t y, m, d;
        CivilFromDays(static_cast<int32_t>(day), &y, &m, &d);
        const int64_t total = static_cast<int64_t>(y) * 12 + (m - 1) + months;
        const int64_t ny = FloorDivI(total, 12);
        const int32_t nm = static_cast<int32_t>(total - ny * 12 + 1);
        if (ny < -4714 || ny > 294277) return TimestampOutOfRange();
        const int32_t nd = std::min(d, DaysInMonth(ny, nm));
        t = static_cast<int64_t>(DaysFromCivil(static_cast<int32_t>(ny), nm, nd)) * kDayMicros + tod;
        if (!ValidTimestamp(t)) return TimestampOutOfRange();
    }
    if (days != 0) {
        const int64_t day = FloorDivI(t, kDayMicros), tod = t - day * kDayMicros;
        const int64_t nday = day + days;
        if (nday < FloorDivI(kMinTimestamp, kDayMicros) || nday >= kEndTimestamp / kDayMicros) return TimestampOutOfRange();
        t = nday * kDayMicros + tod;
        if (!ValidTimestamp(t)) return TimestampOutOfRange();
    }
    // PostgreSQL adds the microseconds in int64 arithmetic that wraps (-fwrapv), then checks
    t = static_cast<int64_t>(static_cast<uint64_t>(t) + static_cast<uint64_t>(micros));
    if (!ValidTimestamp(t)) return TimestampOutOfRange();
    return t;
}
}  // namespace

Expected<Value> KIntervalAdd(KernelCtx &, const std::vector<Value> &args) {
    RNDN_RETURN_IF_ERROR(NeedVector(args[0], "interval_add", 0));
    RNDN_RETURN_IF_ERROR(NeedVector(args[1], "interval_add", 1));
    RNDN_RETURN_IF_ERROR(RuntimeType(Builtin::INTERVAL_ADD, args).status());
    const Vector &a = args[0].vector();
    const Vector &iv = args[1].vector();
    if (iv.length != 3 || iv.HasNulls()) return ShapeError("@interval_add: the interval is (months, days, microseconds), three i64");
    const int64_t months = iv.Data<int64_t>()[0], days = iv.Data<int64_t>()[1], micros = iv.Data<int64_t>()[2];
    const bool date = a.type.kind == TypeKind::DATE;
    RNDN_ASSIGN_OR_RETURN(auto out, MakeVector(TypeKind::DT, a.length));
    SetUnaryValidity(a, *out);
    int64_t *o = out->Data<int64_t>();
    for (int64_t i = 0; i < a.length; ++i) {
        o[i] = 0;
        if (!a.IsValid(i)) continue;
        int64_t t;
        if (date) {  // date2timestamp
            const int32_t d = a.Data<int32_t>()[i];
            if (d == INT32_MIN || d == INT32_MAX) {
                o[i] = d == INT32_MIN ? INT64_MIN : INT64_MAX;
                continue;
            }
            if (d >= kEndTimestamp / kDayMicros)
                return Status::UserError(sqlstate::kDatetimeOverflow, "date out of range for timestamp");
            t = static_cast<int64_t>(d) * kDayMicros;
        } else {
            t = a.Data<int64_t>()[i];
            if (t == INT64_MIN || t == INT64_MAX) {
                o[i] = t;
                continue;
            }
        }
        RNDN_ASSIGN_OR_RETURN(o[i], AddInterval(t, months, days, micros));
    }
    return V(out);
}

namespace {
// date or dt plus (sign 1) or minus (sign -1) an interval vector, element by element; the
// fields of a subtracted interval are negated without a check (PostgreSQL 15's
// timestamp_mi_interval wraps them)
Expected<Value> IntervalShiftVector(Builtin bid, const std::vector<Value> &args, int sign) {
    const char *fn = GetBuiltin(bid).name;
    RNDN_RETURN_IF_ERROR(NeedVector(args[0], fn, 0));
    RNDN_RETURN_IF_ERROR(NeedVector(args[1], fn, 1));
    RNDN_RETURN_IF_ERROR(RuntimeType(bid, args).status());
    const Vector &a = args[0].vector(), &iv = args[1].vector();
    RNDN_ASSIGN_OR_RETURN(int64_t n, BroadcastLength(a.length, iv.length, fn));
    const bool date = a.type.kind == TypeKind::DATE;
    RNDN_ASSIGN_OR_RETURN(auto out, MakeVector(TypeKind::DT, n));
    SetCombinedValidity(a, iv, *out);
    int64_t *o = out->Data<int64_t>();
    for (int64_t i = 0; i < n; ++i) {
        PollCancel(i);
        o[i] = 0;
        const int64_t ia = a.length == 1 ? 0 : i, ib = iv.length == 1 ? 0 : i;
        if (!a.IsValid(ia) || !iv.IsValid(ib)) continue;
        int64_t t;
        if (date) {  // date2timestamp
            const int32_t d = a.Data<int32_t>()[ia];
            if (d == INT32_MIN || d == INT32_MAX) {
                o[i] = d == INT32_MIN ? INT64_MIN : INT64_MAX;
                continue;
            }
            if (d >= kEndTimestamp / kDayMicros)
                return Status::UserError(sqlstate::kDatetimeOverflow, "date out of range for timestamp");
            t = static_cast<int64_t>(d) * kDayMicros;
        } else {
            t = a.Data<int64_t>()[ia];
            if (t == INT64_MIN || t == INT64_MAX) {
                o[i] = t;
                continue;
            }
        }
        const IntervalValue &v = iv.Data<IntervalValue>()[ib];
        int32_t months = v.month, days = v.day;
        int64_t micros = v.time;
        if (sign < 0) {
            months = static_cast<int32_t>(0u - static_cast<uint32_t>(months));
            days = static_cast<int32_t>(0u - static_cast<uint32_t>(days));
            micros = static_cast<int64_t>(uint64_t{0} - static_cast<uint64_t>(micros));
        }
        RNDN_ASSIGN_OR_RETURN(o[i], AddInterval(t, months, days, micros));
    }
    return V(out);
}
}  // namespace

Expected<Value> KIntervalPlv(KernelCtx &, const std::vector<Value> &args) { return IntervalShiftVector(Builtin::INTERVAL_PLV, args, 1); }
Expected<Value> KIntervalMiv(KernelCtx &, const std::vector<Value> &args) { return IntervalShiftVector(Builtin::INTERVAL_MIV, args, -1); }

namespace {
Expected<Value> DatetimeShift(Builtin bid, const std::vector<Value> &args, int sign) {
    const char *fn = GetBuiltin(bid).name;
    for (int i = 0; i < 3; ++i) RNDN_RETURN_IF_ERROR(NeedVector(args[static_cast<size_t>(i)], fn, i));
    RNDN_ASSIGN_OR_RETURN(Type rt, RuntimeType(bid, args));
    const Vector &d = args[0].vector();
    RNDN_ASSIGN_OR_RETURN(auto nv, As(args[1].vector_ptr(), TypeKind::I64));
    const Vector &unit = args[2].vector();
    if (unit.length != 1) return ShapeError(std::string("@") + fn + ": the unit must be one symbol");
    std::string_view u = unit.StringAt(0);
    RNDN_ASSIGN_OR_RETURN(int64_t n, BroadcastLength(d.length, nv->length, fn));
    RNDN_ASSIGN_OR_RETURN(auto out, MakeVector(rt, n));
    TypeKind k = d.type.kind;
    for (int64_t i = 0; i < n; ++i) {
        int64_t raw = (k == TypeKind::DT || k == TypeKind::TIME) ? d.Data<int64_t>()[d.length == 1 ? 0 : i] : d.Data<int32_t>()[d.length == 1 ? 0 : i];
        int64_t amount = sign * nv->Data<int64_t>()[nv->length == 1 ? 0 : i];
        int64_t r;
        if (u == "year" || u == "month") {
            int64_t months = u == "year" ? amount * 12 : amount;
            if (k == TypeKind::MONTH) {
                r = raw + months;
            } else if (k == TypeKind::DATE || k == TypeKind::DT) {
                int64_t day = DayOf(k, raw);
                int32_t y, m, dd;
                CivilFromDays(static_cast<int32_t>(day), &y, &m, &dd);
                int64_t total = static_cast<int64_t>(y) * 12 + (m - 1) + months;
                int32_t ny = static_cast<int32_t>(FloorDivI(total, 12)), nm = static_cast<int32_t>(total - FloorDivI(total, 12) * 12 + 1);
                static const int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
                bool leap = (ny % 4 == 0 && ny % 100 != 0) || ny % 400 == 0;
                int32_t last = kDays[nm - 1] + (nm == 2 && leap ? 1 : 0);
                int64_t nd = DaysFromCivil(ny, nm, std::min(dd, last));
                r = k == TypeKind::DATE ? nd : raw + (nd - day) * 86400000000LL;
            } else {
                return TypeError(std::string("@") + fn + ": unit '" + std::string(u) + "' does not apply to " + TypeToString(d.type));
            }
        } else if (u == "day") {
            if (k == TypeKind::DATE) r = raw + amount;
            else if (k == TypeKind::DT) r = raw + amount * 86400000000LL;
            else return TypeError(std::string("@") + fn + ": unit 'day' does not apply to " + TypeToString(d.type));
        } else {
            return Status::UserError(sqlstate::kInvalidParameter, std::string("@") + fn + ": unknown unit '" + std::string(u) + "' (year, month, day)");
        }
        if (k == TypeKind::DT || k == TypeKind::TIME) out->Data<int64_t>()[i] = r;
        else out->Data<int32_t>()[i] = static_cast<int32_t>(r);
    }
    SetCombinedValidity(d, *nv, *out);
    return V(out);
}
}  // namespace

Expected<Value> KDatetimeAdd(KernelCtx &, const std::vector<Value> &a) { return DatetimeShift(Builtin::DATETIME_ADD, a, 1); }
Expected<Value> KDatetimeSub(KernelCtx &, const std::vector<Value> &a) { return DatetimeShift(Builtin::DATETIME_SUB, a, -1); }
Expected<Value> KDatetimeDiff(KernelCtx &ctx, const std::vector<Value> &a) {
    RNDN_RETURN_IF_ERROR(RuntimeType(Builtin::DATETIME_DIFF, a).status());
    (void)ctx;
    return Arith(Builtin::MINUS, Ar::MINUS, a);
}

// ---------------------------------------------------------------------------------------------
// Strings

namespace {
// SQL LIKE: % any run, _ one byte, the rest literal.
bool LikeMatch(std::string_view s, std::string_view p) {
    size_t si = 0, pi = 0, star_p = std::string_view::npos, star_s = 0;
    while (si < s.size()) {
        if (pi < p.size() && (p[pi] == '_' || (p[pi] != '%' && p[pi] == s[si]))) {
            ++si;
            ++pi;
        } else if (pi < p.size() && p[pi] == '%') {
            star_p = pi++;
            star_s = si;
        } else if (star_p != std::string_view::npos) {
            pi = star_p + 1;
            si = ++star_s;
        } else {
            return false;
        }
    }
    while (pi < p.size() && p[pi] == '%') ++pi;
    return pi == p.size();
}

// A pattern without `_`: literal segments between `%`s.  The first must start the string
// unless the pattern starts with %, the last must end it unless the pattern ends with %, and
// the ones between are found leftmost in order (taking each as early as possible leaves the
// most room for the rest, so a match exists exactly when this finds one).
struct PercentPattern {
    bool lead = false, trail = false;  // starts / ends with %
    std::vector<std::string_view> segs;  // non-empty literal runs
    std::vector<SubstringFinder> finders;  // one per segment
    static bool Parse(std::string_view p, PercentPattern *out) {
        if (p.find('_') != std::string_view::npos) return false;
        out->lead = !p.empty() && p.front() == '%';
        out->trail = !p.empty() && p.back() == '%';
        size_t i = 0;
        while (i < p.size()) {
            size_t j = p.find('%', i);
            if (j == std::string_view::npos) j = p.size();
            if (j > i) out->segs.push_back(p.substr(i, j - i));
            i = j + 1;
        }
        for (std::string_view g : out->segs) out->finders.emplace_back(g);
        return true;
    }
    bool Match(std::string_view s) const {
        if (segs.empty()) return lead || s.empty();  // "%..%" matches anything, "" only ""
        size_t from = 0, first = 0, last = segs.size();
        if (!lead) {
            if (s.size() < segs[0].size() || std::memcmp(s.data(), segs[0].data(), segs[0].size()) != 0) return false;
            from = segs[0].size();
            first = 1;
        }
        if (!trail) {
            if (last == first && !lead) return from == s.size();  // no % at all: the whole string
            const std::string_view &t = segs.back();
            if (s.size() < from + t.size() || std::memcmp(s.data() + s.size() - t.size(), t.data(), t.size()) != 0) return false;
            s = s.substr(0, s.size() - t.size());
            --last;
        }
        for (size_t k = first; k < last; ++k) {
            const std::string_view &g = segs[k];
            if (s.size() < from + g.size()) return false;
            const char *hit = finders[k].Find(s.data() + from, s.size() - from);
            if (hit == nullptr) return false;
            from = static_cast<size_t>(static_cast<const char *>(hit) - s.data()) + g.size();
        }
        return true;
    }
};
}  // namespace

Expected<Value> KLike(KernelCtx &, const std::vector<Value> &args) {
    RNDN_RETURN_IF_ERROR(NeedVector(args[0], "like", 0));
    RNDN_RETURN_IF_ERROR(NeedVector(args[1], "like", 1));
    RNDN_RETURN_IF_ERROR(RuntimeType(Builtin::LIKE, args).status());
    const Vector &a = args[0].vector(), &p = args[1].vector();
    if (p.length != 1) return ShapeError("@like: the pattern must have length 1");
    RNDN_ASSIGN_OR_RETURN(auto out, MakeVector(TypeKind::BOOL, a.length));
    std::string_view pat = p.StringAt(0);
    uint8_t *o = out->Data<uint8_t>();
    // in chunks on every core for long columns (parallel.h)
    if (PercentPattern pp; PercentPattern::Parse(pat, &pp)) {
        ForChunks(ChunksOf(a.length), [&](int64_t, int64_t lo, int64_t hi) {
            for (int64_t i = lo; i < hi; ++i) PollCancel(i), o[i] = pp.Match(a.StringAt(i));
        });
    } else {
        ForChunks(ChunksOf(a.length), [&](int64_t, int64_t lo, int64_t hi) {
            for (int64_t i = lo; i < hi; ++i) PollCancel(i), o[i] = LikeMatch(a.StringAt(i), pat);
        });
    }
    SetCombinedValidity(a, p, *out);
    return V(out);
}

Expected<Value> KSubString(KernelCtx &, const std::vector<Value> &args) {
    RNDN_RETURN_IF_ERROR(NeedVector(args[0], "sub_string", 0));
    RNDN_RETURN_IF_ERROR(NeedVector(args[1], "sub_string", 1));
    RNDN_RETURN_IF_ERROR(RuntimeType(Builtin::SUB_STRING, args).status());
    const Vector &a = args[0].vector();
    RNDN_ASSIGN_OR_RETURN(auto r, As(args[1].vector_ptr(), TypeKind::I64));
    if (r->length != 2) return ShapeError("@sub_string: the range must have two elements (start, length)");
    int64_t start = r->Data<int64_t>()[0], len = r->Data<int64_t>()[1];
    if (len < 0) return Status::UserError(sqlstate::kInvalidParameter, "negative substring length not allowed");
    RNDN_ASSIGN_OR_RETURN(auto out, MakeVector(a.type, 0));
    // SQL substring(s from start for len): characters [start, start+len) 1-based, clamped.
    int64_t from = std::max<int64_t>(start, 1) - 1;
    int64_t to = start + len - 1;
    for (int64_t i = 0; i < a.length; ++i) {
        PollCancel(i);
        std::string_view s = a.StringAt(i);
        int64_t f = std::min<int64_t>(from, static_cast<int64_t>(s.size()));
        int64_t t = std::min<int64_t>(std::max<int64_t>(to, f), static_cast<int64_t>(s.size()));
        out->AppendString(s.substr(static_cast<size_t>(f), static_cast<size_t>(t - f)));
    }
    SetUnaryValidity(a, *out);
    return V(out);
}

// SQL length/char_length of UTF-8 text, counted as PostgreSQL counts (pg_mbstrlen_with_len):
// a character's length comes from its first byte (0xxxxxxx 1, 110xxxxx 2, 1110xxxx 3,
// 11110xxx 4, anything else 1), a NUL where a character starts ends the string, and a
// character cut short by the end of the string is PostgreSQL's "invalid byte sequence" error.
// Such strings reach a table only through functions that skip the encoding check (PostgreSQL's
// own regression suite makes them); valid UTF-8 counts the bytes that do not continue a
// multi-byte sequence.
Expected<Value> KCharLength(KernelCtx &, const std::vector<Value> &args) {
    RNDN_RETURN_IF_ERROR(NeedVector(args[0], "char_length", 0));
    RNDN_RETURN_IF_ERROR(RuntimeType(Builtin::CHAR_LENGTH, args).status());
    const Vector &a = args[0].vector();
    RNDN_ASSIGN_OR_RETURN(auto out, MakeVector(TypeKind::I32, a.length));
    int32_t *o = out->Data<int32_t>();
    for (int64_t i = 0; i < a.length; ++i) {
        PollCancel(i);
        if (!a.IsValid(i)) {
            o[i] = 0;
            continue;
        }
        const std::string_view s = a.StringAt(i);
        int32_t n = 0;
        size_t at = 0;
        while (at < s.size() && s[at] != '\0') {
            const unsigned char c = static_cast<unsigned char>(s[at]);
            const size_t l = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 1;
            if (l > s.size() - at) {
                std::string bytes;
                char buf[8];
                for (size_t k = at; k < s.size(); ++k) {
                    std::snprintf(buf, sizeof buf, "%s0x%02x", k == at ? "" : " ", static_cast<unsigned char>(s[k]));
                    bytes += buf;
                }
                return Status::UserError(SqlState("22021"), "invalid byte sequence for encoding \"UTF8\": " + bytes);
            }
            at += l;
            ++n;
        }
        o[i] = n;
    }
    SetUnaryValidity(a, *out);
    return V(out);
}

// ---------------------------------------------------------------------------------------------
// NULL extensions

Expected<Value> KIsNull(KernelCtx &, const std::vector<Value> &args) {
    RNDN_RETURN_IF_ERROR(NeedVector(args[0], "is_null", 0));
    const Vector &a = args[0].vector();
    RNDN_ASSIGN_OR_RETURN(auto out, MakeVector(TypeKind::BOOL, a.length));
    for (int64_t i = 0; i < a.length; ++i) out->Data<uint8_t>()[i] = !a.IsValid(i);
    return V(out);
}
Expected<Value> KIsNotNull(KernelCtx &, const std::vector<Value> &args) {
    RNDN_RETURN_IF_ERROR(NeedVector(args[0], "is_not_null", 0));
    const Vector &a = args[0].vector();
    RNDN_ASSIGN_OR_RETURN(auto out, MakeVector(TypeKind::BOOL, a.length));
    for (int64_t i = 0; i < a.length; ++i) out->Data<uint8_t>()[i] = a.IsValid(i);
    return V(out);
}

Expected<Value> KCoalesce(KernelCtx &, const std::vector<Value> &args) {
    RNDN_RETURN_IF_ERROR(NeedVector(args[0], "coalesce", 0));
    RNDN_RETURN_IF_ERROR(NeedVector(args[1], "coalesce", 1));
    RNDN_ASSIGN_OR_RETURN(Type rt, RuntimeType(Builtin::COALESCE, args));
    if (IsDecimal(rt.kind) && rt.scale == Type::kUnknownScale) return Status::Unsupported("@coalesce on decimals with per-element scale");
    RNDN_ASSIGN_OR_RETURN(auto ca, As(args[0].vector_ptr(), rt));
    RNDN_ASSIGN_OR_RETURN(auto cb, As(args[1].vector_ptr(), rt));
    RNDN_ASSIGN_OR_RETURN(int64_t n, BroadcastLength(ca->length, cb->length, "coalesce"));
    RNDN_ASSIGN_OR_RETURN(auto out, MakeVector(rt, IsString(rt.kind) ? 0 : n));
    for (int64_t i = 0; i < n; ++i) {
        PollCancel(i);
        const Vector &src = ValidAt(*ca, i) ? *ca : *cb;
        int64_t j = src.length == 1 ? 0 : i;
        if (IsString(rt.kind)) out->AppendString(src.StringAt(j));
        else CopyRange(src, j, 1, *out, i);
        if (!src.IsValid(j)) out->SetNull(i);
    }
    return V(out);
}


// For kernels_tz.cpp (timestamptz under a time zone): the timestamp date_trunc and
// timestamp_pl_interval above, by unit name.
bool TruncTimestampByName(std::string_view unit, int64_t t, int64_t *out) {
    for (const auto &u : kTruncUnits)
        if (unit == u.name) {
            *out = TruncDt(u.unit, t);
            return true;
        }
    return false;
}
Expected<int64_t> AddIntervalToTimestamp(int64_t t, int64_t months, int64_t days, int64_t micros) {
    return AddInterval(t, months, days, micros);
}

}  // namespace rndn::hir
