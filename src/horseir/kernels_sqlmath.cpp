// Kernels of SQL's float8 functions and integer bit operations with PostgreSQL 15's semantics
// (utils/adt/float.c, int.c, int8.c): the same domain errors with their SQLSTATEs, the same
// overflow and underflow checks, the same special cases for NaN and infinities.
//
//   @float_fn(x, `name)  f64 -> f64, name one row of kFloatFns below
//   @float_pow(x, y)     f64 x f64 -> f64 (dpow)
//   @bit_and/@bit_or/@bit_xor(a, b), @bit_not(a), @shl/@shr(a, n)   integers
//
// A NULL element gives NULL and raises nothing.  Interpreted only (no kernel form in
// src/codegen/templates.def).
#include <cerrno>
#include <cmath>

#include "horseir/kernel_util.h"

namespace rndn::hir {
namespace {

constexpr SqlState kLogArgument{"2201E"};    // invalid_argument_for_logarithm
constexpr SqlState kPowerArgument{"2201F"};  // invalid_argument_for_power_function
constexpr double kRadiansPerDegree = 0.0174532925199432957692;

// PostgreSQL's check_float8_val: an infinite result where the input was finite overflows, a zero
// result where zero is not a valid answer underflows.
Status CheckFloat(double r, bool inf_ok, bool zero_ok) {
    if (std::isinf(r) && !inf_ok) return FloatOutOfRange("overflow");
    if (r == 0.0 && !zero_ok) return FloatOutOfRange("underflow");
    return Status::Ok();
}

using FloatFn = Status (*)(double x, double *r);

Status Sqrt(double x, double *r) {
    if (x < 0) return Status::UserError(kPowerArgument, "cannot take square root of a negative number");
    *r = std::sqrt(x);
    return CheckFloat(*r, std::isinf(x), x == 0);
}
Status Cbrt(double x, double *r) {
    *r = std::cbrt(x);
    return CheckFloat(*r, std::isinf(x), x == 0);
}
Status Exp(double x, double *r) {
    if (std::isnan(x)) {
        *r = x;
    } else if (std::isinf(x)) {
        *r = x > 0 ? x : 0.0;
    } else {
        errno = 0;
        *r = std::exp(x);
        if (errno == ERANGE) return FloatOutOfRange(*r != 0.0 ? "overflow" : "underflow");
        if (std::isinf(*r)) return FloatOutOfRange("overflow");
        if (*r == 0.0) return FloatOutOfRange("underflow");
    }
    return Status::Ok();
}
template <double (*F)(double)>
Status Log(double x, double *r) {
    if (x == 0.0) return Status::UserError(kLogArgument, "cannot take logarithm of zero");
    if (x < 0) return Status::UserError(kLogArgument, "cannot take logarithm of a negative number");
    *r = F(x);
    return CheckFloat(*r, std::isinf(x), x == 1);
}
double Ln(double x) { return std::log(x); }
double Lg(double x) { return std::log10(x); }
Status Floor(double x, double *r) { return *r = std::floor(x), Status::Ok(); }
Status Ceil(double x, double *r) { return *r = std::ceil(x), Status::Ok(); }
Status Rint(double x, double *r) { return *r = std::rint(x), Status::Ok(); }
Status Trunc(double x, double *r) { return *r = x >= 0 ? std::floor(x) : -std::floor(-x), Status::Ok(); }
Status Sign(double x, double *r) { return *r = x > 0 ? 1.0 : x < 0 ? -1.0 : 0.0, Status::Ok(); }
Status Degrees(double x, double *r) {  // float8_div(x, RADIANS_PER_DEGREE)
    *r = x / kRadiansPerDegree;
    if (std::isinf(*r) && !std::isinf(x)) return FloatOutOfRange("overflow");
    if (*r == 0.0 && x != 0.0) return FloatOutOfRange("underflow");
    return Status::Ok();
}
Status Radians(double x, double *r) {  // float8_mul(x, RADIANS_PER_DEGREE)
    *r = x * kRadiansPerDegree;
    if (std::isinf(*r) && !std::isinf(x)) return FloatOutOfRange("overflow");
    if (*r == 0.0 && x != 0.0) return FloatOutOfRange("underflow");
    return Status::Ok();
}

struct FloatFnRow {
    const char *name;  // the symbol of @float_fn
    FloatFn fn;        // PostgreSQL's function of the same name in float.c
};
constexpr FloatFnRow kFloatFns[] = {
    {"sqrt", Sqrt},   {"cbrt", Cbrt},   {"exp", Exp},     {"ln", Log<Ln>},        {"log10", Log<Lg>},
    {"floor", Floor}, {"ceil", Ceil},   {"round", Rint},  {"trunc", Trunc},       {"sign", Sign},
    {"degrees", Degrees}, {"radians", Radians},
};

// dpow: POSIX's NaN and infinity cases by hand, the SQL standard's error codes, then pow() with
// its errno and result checked as PostgreSQL does.
Status Pow(double x, double y, double *r) {
    if (std::isnan(x)) return *r = (std::isnan(y) || y != 0.0) ? x : 1.0, Status::Ok();
    if (std::isnan(y)) return *r = x != 1.0 ? y : 1.0, Status::Ok();
    if (x == 0 && y < 0) return Status::UserError(kPowerArgument, "zero raised to a negative power is undefined");
    if (x < 0 && std::floor(y) != y)
        return Status::UserError(kPowerArgument, "a negative number raised to a non-integer power yields a complex result");
    const double ax = std::fabs(x);
    if (std::isinf(y)) {
        if (ax == 1.0) *r = 1.0;
        else if (y > 0) *r = ax > 1.0 ? y : 0.0;
        else *r = ax > 1.0 ? 0.0 : -y;
        return Status::Ok();
    }
    if (std::isinf(x)) {
        if (y == 0.0) {
            *r = 1.0;
        } else if (x > 0) {
            *r = y > 0 ? x : 0.0;
        } else {
            const double half = y / 2;
            const bool odd = std::floor(half) != half;
            *r = y > 0 ? (odd ? x : -x) : (odd ? -0.0 : 0.0);
        }
        return Status::Ok();
    }
    errno = 0;
    *r = std::pow(x, y);
    if (errno == EDOM || std::isnan(*r)) {
        if (x == 0.0) return *r = 0.0, Status::Ok();
        if (ax == 1.0) return *r = 1.0, Status::Ok();
        return FloatOutOfRange((y >= 0 ? ax > 1.0 : ax < 1.0) ? "overflow" : "underflow");
    }
    if (errno == ERANGE) return FloatOutOfRange(*r != 0.0 ? "overflow" : "underflow");
    if (std::isinf(*r)) return FloatOutOfRange("overflow");
    if (*r == 0.0 && x != 0.0) return FloatOutOfRange("underflow");
    return Status::Ok();
}

Expected<std::shared_ptr<const Vector>> AsF64(const Value &v) { return As(v.vector_ptr(), TypeKind::F64); }

// Integer bit operations: PostgreSQL computes int2 ones in int (C's promotion) and stores the
// low 16 bits; a shift count is taken modulo the operand width as x86's shift instructions do
// (PostgreSQL shifts with C's << and >>, which compile to them).
enum class BitOp { AND, OR, XOR, NOT, SHL, SHR };

template <class T>
T BitEval(BitOp op, T a, int64_t b) {
    using W = std::conditional_t<(sizeof(T) < 4), int32_t, T>;  // C's promotion of int16
    constexpr int bits = sizeof(W) * 8;
    const W x = static_cast<W>(a);
    using U = std::make_unsigned_t<W>;
    switch (op) {
        case BitOp::AND: return static_cast<T>(x & static_cast<W>(b));
        case BitOp::OR: return static_cast<T>(x | static_cast<W>(b));
        case BitOp::XOR: return static_cast<T>(x ^ static_cast<W>(b));
        case BitOp::NOT: return static_cast<T>(~x);
        case BitOp::SHL: return static_cast<T>(static_cast<W>(static_cast<U>(x) << (static_cast<uint64_t>(b) & (bits - 1))));
        case BitOp::SHR: return static_cast<T>(x >> (static_cast<uint64_t>(b) & (bits - 1)));
    }
    return 0;
}

Expected<Value> Bits(Builtin bid, BitOp op, const std::vector<Value> &args) {
    const char *fn = GetBuiltin(bid).name;
    RNDN_RETURN_IF_ERROR(NeedVector(args[0], fn, 0));
    if (args.size() > 1) RNDN_RETURN_IF_ERROR(NeedVector(args[1], fn, 1));
    RNDN_ASSIGN_OR_RETURN(Type rt, RuntimeType(bid, args));
    RNDN_ASSIGN_OR_RETURN(auto ca, As(args[0].vector_ptr(), rt));
    std::shared_ptr<const Vector> cb = ca;
    if (args.size() > 1) {
        // the other operand of and/or/xor has the result's type; a shift count is an integer
        const bool shift = op == BitOp::SHL || op == BitOp::SHR;
        RNDN_ASSIGN_OR_RETURN(cb, As(args[1].vector_ptr(), shift ? Type(TypeKind::I64) : rt));
    }
    RNDN_ASSIGN_OR_RETURN(int64_t n, BroadcastLength(ca->length, cb->length, fn));
    RNDN_ASSIGN_OR_RETURN(auto out, MakeVector(rt, n));
    VisitFixed(rt.kind, [&](auto t) {
        using T = decltype(t);
        if constexpr (std::is_same_v<T, int16_t> || std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t>) {
            const T *x = ca->template Data<T>();
            T *o = out->template Data<T>();
            auto second = [&](int64_t i) -> int64_t {
                const int64_t j = cb->length == 1 ? 0 : i;
                if (op == BitOp::SHL || op == BitOp::SHR) return cb->template Data<int64_t>()[j];
                return static_cast<int64_t>(cb->template Data<T>()[j]);
            };
            for (int64_t i = 0; i < n; ++i) o[i] = BitEval<T>(op, x[ca->length == 1 ? 0 : i], op == BitOp::NOT ? 0 : second(i));
        }
        return 0;
    });
    if (args.size() > 1) SetCombinedValidity(*ca, *cb, *out);
    else SetUnaryValidity(*ca, *out);
    return V(out);
}

}  // namespace

Expected<Value> KFloatFn(KernelCtx &, const std::vector<Value> &args) {
    RNDN_RETURN_IF_ERROR(NeedVector(args[0], "float_fn", 0));
    RNDN_RETURN_IF_ERROR(NeedVector(args[1], "float_fn", 1));
    RNDN_RETURN_IF_ERROR(RuntimeType(Builtin::FLOAT_FN, args).status());
    const Vector &name = args[1].vector();
    if (name.length != 1) return ShapeError("@float_fn: the function must be one symbol");
    const std::string_view want = name.StringAt(0);
    const FloatFnRow *row = nullptr;
    for (const auto &r : kFloatFns)
        if (want == r.name) row = &r;
    if (row == nullptr) return Status::UserError(sqlstate::kInvalidParameter, "@float_fn: unknown function '" + std::string(want) + "'");
    RNDN_ASSIGN_OR_RETURN(auto ca, AsF64(args[0]));
    RNDN_ASSIGN_OR_RETURN(auto out, MakeVector(TypeKind::F64, ca->length));
    const double *x = ca->Data<double>();
    double *o = out->Data<double>();
    for (int64_t i = 0; i < ca->length; ++i) {
        PollCancel(i);
        if (!ca->IsValid(i)) continue;
        RNDN_RETURN_IF_ERROR(row->fn(x[i], &o[i]));
    }
    SetUnaryValidity(*ca, *out);
    return V(out);
}

Expected<Value> KFloatPow(KernelCtx &, const std::vector<Value> &args) {
    RNDN_RETURN_IF_ERROR(NeedVector(args[0], "float_pow", 0));
    RNDN_RETURN_IF_ERROR(NeedVector(args[1], "float_pow", 1));
    RNDN_RETURN_IF_ERROR(RuntimeType(Builtin::FLOAT_POW, args).status());
    RNDN_ASSIGN_OR_RETURN(auto ca, AsF64(args[0]));
    RNDN_ASSIGN_OR_RETURN(auto cb, AsF64(args[1]));
    RNDN_ASSIGN_OR_RETURN(int64_t n, BroadcastLength(ca->length, cb->length, "float_pow"));
    RNDN_ASSIGN_OR_RETURN(auto out, MakeVector(TypeKind::F64, n));
    double *o = out->Data<double>();
    for (int64_t i = 0; i < n; ++i) {
        PollCancel(i);
        const int64_t ia = ca->length == 1 ? 0 : i, ib = cb->length == 1 ? 0 : i;
        if (!ca->IsValid(ia) || !cb->IsValid(ib)) continue;
        RNDN_RETURN_IF_ERROR(Pow(ca->Data<double>()[ia], cb->Data<double>()[ib], &o[i]));
    }
    SetCombinedValidity(*ca, *cb, *out);
    return V(out);
}

Expected<Value> KBitAnd(KernelCtx &, const std::vector<Value> &a) { return Bits(Builtin::BIT_AND, BitOp::AND, a); }
Expected<Value> KBitOr(KernelCtx &, const std::vector<Value> &a) { return Bits(Builtin::BIT_OR, BitOp::OR, a); }
Expected<Value> KBitXor(KernelCtx &, const std::vector<Value> &a) { return Bits(Builtin::BIT_XOR, BitOp::XOR, a); }
Expected<Value> KBitNot(KernelCtx &, const std::vector<Value> &a) { return Bits(Builtin::BIT_NOT, BitOp::NOT, a); }
Expected<Value> KShl(KernelCtx &, const std::vector<Value> &a) { return Bits(Builtin::SHL, BitOp::SHL, a); }
Expected<Value> KShr(KernelCtx &, const std::vector<Value> &a) { return Bits(Builtin::SHR, BitOp::SHR, a); }

}  // namespace rndn::hir
