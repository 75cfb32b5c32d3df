// PostgreSQL 15's interval arithmetic (utils/adt/timestamp.c) on `interval` vectors: timestamp
// minus timestamp, interval plus/minus interval, unary minus and the justify_* functions, each
// element as PostgreSQL computes it, its errors included ("interval out of range", 22008).
// Comparisons, order, grouping, joins and min/max need no kernel here: IntervalValue orders by
// PostgreSQL's interval_cmp_value (see horseir.h), so the generic kernels apply.
#include "horseir/kernel_util.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace rndn::hir {

namespace {

constexpr int32_t kDaysPerMonth = 30;

Status IntervalOutOfRange() { return Status::UserError(sqlstate::kDatetimeOverflow, "interval out of range"); }

// interval_justify_hours: whole days of the time field move into the day field.
Expected<IntervalValue> JustifyHours(IntervalValue v) {
    const int64_t wholeday = v.time / kDayMicros;  // TMODULO: truncating division
    v.time -= wholeday * kDayMicros;
    int64_t day = static_cast<int64_t>(v.day) + wholeday;
    if (day < INT32_MIN || day > INT32_MAX) return IntervalOutOfRange();
    v.day = static_cast<int32_t>(day);
    if (v.day > 0 && v.time < 0) {
        v.time += kDayMicros;
        v.day--;
    } else if (v.day < 0 && v.time > 0) {
        v.time -= kDayMicros;
        v.day++;
    }
    return v;
}

// interval_justify_days: whole 30-day months of the day field move into the month field.
Expected<IntervalValue> JustifyDays(IntervalValue v) {
    const int32_t wholemonth = v.day / kDaysPerMonth;
    v.day -= wholemonth * kDaysPerMonth;
    if (__builtin_add_overflow(v.month, wholemonth, &v.month)) return IntervalOutOfRange();
    if (v.month > 0 && v.day < 0) {
        v.day += kDaysPerMonth;
        v.month--;
    } else if (v.month < 0 && v.day > 0) {
        v.day -= kDaysPerMonth;
        v.month++;
    }
    return v;
}

// interval_justify_interval: both, with one sign across the three fields.
Expected<IntervalValue> JustifyInterval(IntervalValue v) {
    if ((v.day > 0 && v.time > 0) || (v.day < 0 && v.time < 0)) {  // pre-justify the days
        const int32_t wholemonth = v.day / kDaysPerMonth;
        v.day -= wholemonth * kDaysPerMonth;
        if (__builtin_add_overflow(v.month, wholemonth, &v.month)) return IntervalOutOfRange();
    }
    const int64_t wholeday = v.time / kDayMicros;
    v.time -= wholeday * kDayMicros;
    int64_t day = static_cast<int64_t>(v.day) + wholeday;  // cannot leave int32 after the pre-step
    if (day < INT32_MIN || day > INT32_MAX) return IntervalOutOfRange();
    v.day = static_cast<int32_t>(day);
    const int32_t wholemonth = v.day / kDaysPerMonth;
    v.day -= wholemonth * kDaysPerMonth;
    if (__builtin_add_overflow(v.month, wholemonth, &v.month)) return IntervalOutOfRange();
    if (v.month > 0 && (v.day < 0 || (v.day == 0 && v.time < 0))) {
        v.day += kDaysPerMonth;
        v.month--;
    } else if (v.month < 0 && (v.day > 0 || (v.day == 0 && v.time > 0))) {
        v.day -= kDaysPerMonth;
        v.month++;
    }
    if (v.day > 0 && v.time < 0) {
        v.time += kDayMicros;
        v.day--;
    } else if (v.day < 0 && v.time > 0) {
        v.time -= kDayMicros;
        v.day++;
    }
    return v;
}

Expected<IntervalValue> Negate(IntervalValue v) {  // interval_um
    IntervalValue r;
    if (__builtin_sub_overflow(int64_t{0}, v.time, &r.time) || __builtin_sub_overflow(int32_t{0}, v.day, &r.day) ||
        __builtin_sub_overflow(int32_t{0}, v.month, &r.month))
        return IntervalOutOfRange();
    return r;
}

Expected<IntervalValue> Plus(IntervalValue a, IntervalValue b) {  // interval_pl
    IntervalValue r;
    if (__builtin_add_overflow(a.month, b.month, &r.month) || __builtin_add_overflow(a.day, b.day, &r.day) ||
        __builtin_add_overflow(a.time, b.time, &r.time))
        return IntervalOutOfRange();
    return r;
}

Expected<IntervalValue> Minus(IntervalValue a, IntervalValue b) {  // interval_mi
    IntervalValue r;
    if (__builtin_sub_overflow(a.month, b.month, &r.month) || __builtin_sub_overflow(a.day, b.day, &r.day) ||
        __builtin_sub_overflow(a.time, b.time, &r.time))
        return IntervalOutOfRange();
    return r;
}

// timestamp_mi of PostgreSQL 15: infinities raise; the difference wraps in int64 as PostgreSQL's
// (built with -fwrapv) does, then interval_justify_hours.
Expected<IntervalValue> TimestampMinus(int64_t a, int64_t b) {
    if (a == INT64_MIN || a == INT64_MAX || b == INT64_MIN || b == INT64_MAX)
        return Status::UserError(sqlstate::kDatetimeOverflow, "cannot subtract infinite timestamps");
    IntervalValue r;
    r.time = static_cast<int64_t>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b));
    return JustifyHours(r);
}

template <class F>
Expected<Value> UnaryInterval(Builtin bid, const std::vector<Value> &args, F f) {
    const char *fn = GetBuiltin(bid).name;
    RNDN_RETURN_IF_ERROR(NeedVector(args[0], fn, 0));
    const Vector &a = args[0].vector();
    if (a.type.kind != TypeKind::INTERVAL) return TypeError(std::string("@") + fn + ": expects an interval");
    RNDN_ASSIGN_OR_RETURN(auto out, MakeVector(TypeKind::INTERVAL, a.length));
    SetUnaryValidity(a, *out);
    const IntervalValue *x = a.Data<IntervalValue>();
    IntervalValue *o = out->Data<IntervalValue>();
    for (int64_t i = 0; i < a.length; ++i) {
        PollCancel(i);
        if (!a.IsValid(i)) continue;
        RNDN_ASSIGN_OR_RETURN(o[i], f(x[i]));
    }
    return V(out);
}

template <class T, class F>
Expected<Value> BinaryToInterval(Builtin bid, const std::vector<Value> &args, TypeKind want, F f) {
    const char *fn = GetBuiltin(bid).name;
    RNDN_RETURN_IF_ERROR(NeedVector(args[0], fn, 0));
    RNDN_RETURN_IF_ERROR(NeedVector(args[1], fn, 1));
    const Vector &a = args[0].vector(), &b = args[1].vector();
    if (a.type.kind != want || b.type.kind != want)
        return TypeError(std::string("@") + fn + ": expects two values of type " + TypeKindName(want));
    RNDN_ASSIGN_OR_RETURN(int64_t n, BroadcastLength(a.length, b.length, fn));
    RNDN_ASSIGN_OR_RETURN(auto out, MakeVector(TypeKind::INTERVAL, n));
    SetCombinedValidity(a, b, *out);
    const T *x = a.Data<T>(), *y = b.Data<T>();
    IntervalValue *o = out->Data<IntervalValue>();
    for (int64_t i = 0; i < n; ++i) {
        PollCancel(i);
        const int64_t ia = a.length == 1 ? 0 : i, ib = b.length == 1 ? 0 : i;
        if (!a.IsValid(ia) || !b.IsValid(ib)) continue;
        RNDN_ASSIGN_OR_RETURN(o[i], f(x[ia], y[ib]));
    }
    return V(out);
}

// ---- issue 18: interval * and / a float8, extract/date_part, sum and avg -------------------

// FLOAT8_FITS_IN_INT32 / FLOAT8_FITS_IN_INT64 of PostgreSQL's c.h (NaN fails both)
bool FitsInt32(double x) { return x >= static_cast<double>(INT32_MIN) && x < -static_cast<double>(INT32_MIN); }
bool FitsInt64(double x) { return x >= static_cast<double>(INT64_MIN) && x < -static_cast<double>(INT64_MIN); }
// TSROUND of PostgreSQL 15: rounded to whole microseconds' worth of the unit
double TsRound(double x) { return std::rint(x * 1000000.0) / 1000000.0; }

// interval_mul (divide false) and interval_div (divide true) of PostgreSQL 15.20, each double
// operation in its order: the month and day products truncated, their fractions cascaded down
// to days and seconds (TSROUND), a day's worth of seconds carried up, the time rounded (rint).
Expected<IntervalValue> ScaleInterval(IntervalValue span, double factor, bool divide) {
    if (divide && factor == 0.0) return Status::UserError(sqlstate::kDivisionByZero, "division by zero");
    auto op = [&](double x) { return divide ? x / factor : x * factor; };
    const int32_t orig_month = span.month, orig_day = span.day;
    IntervalValue r;
    double d = op(static_cast<double>(span.month));
    if (std::isnan(d) || !FitsInt32(d)) return IntervalOutOfRange();
    r.month = static_cast<int32_t>(d);
    d = op(static_cast<double>(span.day));
    if (std::isnan(d) || !FitsInt32(d)) return IntervalOutOfRange();
    r.day = static_cast<int32_t>(d);
    double month_remainder_days = (op(static_cast<double>(orig_month)) - r.month) * kDaysPerMonth;
    month_remainder_days = TsRound(month_remainder_days);
    double sec_remainder =
        (op(static_cast<double>(orig_day)) - r.day + month_remainder_days - static_cast<int>(month_remainder_days)) * 86400;
    sec_remainder = TsRound(sec_remainder);
    if (std::fabs(sec_remainder) >= 86400) {
        const int carry = static_cast<int>(sec_remainder / 86400);
        if (__builtin_add_overflow(r.day, carry, &r.day)) return IntervalOutOfRange();
        sec_remainder -= carry * 86400;
    }
    if (__builtin_add_overflow(r.day, static_cast<int32_t>(month_remainder_days), &r.day)) return IntervalOutOfRange();
    d = std::rint(op(static_cast<double>(span.time)) + sec_remainder * static_cast<double>(1000000));
    if (std::isnan(d) || !FitsInt64(d)) return IntervalOutOfRange();
    r.time = static_cast<int64_t>(d);
    return r;
}

// interval2itm's broken-down fields (PostgreSQL 15): years and months from the month field,
// hours / minutes / seconds / microseconds from the time field, each truncated toward zero.
struct ItmParts {
    int64_t year, mon, mday, hour, min, sec, usec;
};
ItmParts Itm(const IntervalValue &v) {
    ItmParts p;
    p.year = v.month / 12;
    p.mon = v.month % 12;
    p.mday = v.day;
    int64_t t = v.time;
    p.hour = t / 3600000000LL;
    t -= p.hour * 3600000000LL;
    p.min = t / 60000000LL;
    t -= p.min * 60000000LL;
    p.sec = t / 1000000LL;
    p.usec = t - p.sec * 1000000LL;
    return p;
}

// The fields interval_part_common accepts (the canonical spellings the translator passes)
enum class IvField : uint8_t { MICROSECONDS, MILLISECONDS, SECOND, MINUTE, HOUR, DAY, MONTH, QUARTER, YEAR, DECADE, CENTURY, MILLENNIUM, EPOCH };
struct IvFieldRow {
    const char *name;
    IvField field;
};
constexpr IvFieldRow kIvFields[] = {
    {"microseconds", IvField::MICROSECONDS}, {"milliseconds", IvField::MILLISECONDS}, {"second", IvField::SECOND},
    {"minute", IvField::MINUTE}, {"hour", IvField::HOUR}, {"day", IvField::DAY}, {"month", IvField::MONTH},
    {"quarter", IvField::QUARTER}, {"year", IvField::YEAR}, {"decade", IvField::DECADE}, {"century", IvField::CENTURY},
    {"millennium", IvField::MILLENNIUM}, {"epoch", IvField::EPOCH}};

Expected<IvField> FindIvField(Builtin bid, const Value &sym) {
    if (!sym.is_vector() || !IsString(sym.vector().type.kind) || sym.vector().length != 1)
        return ShapeError(std::string("@") + GetBuiltin(bid).name + ": the field must be one symbol");
    const std::string_view name = sym.vector().StringAt(0);
    for (const auto &r : kIvFields)
        if (name == r.name) return r.field;
    // what PostgreSQL 15 knows as a unit but not for intervals (week, dow, doy, isoyear, ...)
    return Status::UserError(sqlstate::kFeatureNotSupported, "unit \"" + std::string(name) + "\" not supported for type interval");
}

// The whole-number fields (everything but milliseconds, second and epoch)
int64_t IntegerPart(IvField f, const ItmParts &p) {
    switch (f) {
        case IvField::MICROSECONDS: return p.sec * 1000000 + p.usec;
        case IvField::MINUTE: return p.min;
        case IvField::HOUR: return p.hour;
        case IvField::DAY: return p.mday;
        case IvField::MONTH: return p.mon;
        case IvField::QUARTER: return p.mon / 3 + 1;
        case IvField::YEAR: return p.year;
        case IvField::DECADE: return p.year / 10;
        case IvField::CENTURY: return p.year / 100;
        case IvField::MILLENNIUM: return p.year / 1000;
        default: return 0;
    }
}

// extract's numeric value times 10^6 (exact: PostgreSQL's int64_div_fast_to_numeric results
// have at most 6 decimals; epoch's seconds from months and days first, in quarter days)
__int128 ExtractMicros(IvField f, const IntervalValue &v) {
    const ItmParts p = Itm(v);
    switch (f) {
        case IvField::MILLISECONDS:  // (sec * 10^6 + usec) / 10^3 at scale 3: the same digits
            return static_cast<__int128>(p.sec * 1000000 + p.usec) * 1000;
        case IvField::SECOND: return p.sec * 1000000 + p.usec;
        case IvField::EPOCH: {
            const __int128 secs = (static_cast<__int128>(1461) * (v.month / 12) + static_cast<__int128>(120) * (v.month % 12) +
                                   static_cast<__int128>(4) * v.day) *
                                  21600;
            return secs * 1000000 + v.time;
        }
        default: return static_cast<__int128>(IntegerPart(f, p)) * 1000000;
    }
}

// date_part's float8, operation for operation
double PartFloat(IvField f, const IntervalValue &v) {
    const ItmParts p = Itm(v);
    switch (f) {
        case IvField::MILLISECONDS:
            return static_cast<int>(p.sec) * 1000.0 + static_cast<int>(p.usec) / 1000.0;
        case IvField::SECOND: return static_cast<int>(p.sec) + static_cast<int>(p.usec) / 1000000.0;
        case IvField::EPOCH: {
            double r = static_cast<double>(v.time) / 1000000.0;
            r += (365.25 * 86400) * static_cast<double>(v.month / 12);
            r += (30.0 * 86400) * static_cast<double>(v.month % 12);
            r += 86400.0 * static_cast<double>(v.day);
            return r;
        }
        default: return static_cast<double>(IntegerPart(f, p));
    }
}

template <class O, class F>
Expected<Value> IntervalPart(Builtin bid, const std::vector<Value> &args, const Type &rt, F f) {
    const char *fn = GetBuiltin(bid).name;
    RNDN_RETURN_IF_ERROR(NeedVector(args[0], fn, 0));
    RNDN_RETURN_IF_ERROR(NeedVector(args[1], fn, 1));
    const Vector &a = args[0].vector();
    if (a.type.kind != TypeKind::INTERVAL) return TypeError(std::string("@") + fn + ": expects an interval");
    RNDN_ASSIGN_OR_RETURN(const IvField field, FindIvField(bid, args[1]));
    RNDN_ASSIGN_OR_RETURN(auto out, MakeVector(rt, a.length));
    SetUnaryValidity(a, *out);
    const IntervalValue *x = a.Data<IntervalValue>();
    O *o = out->template Data<O>();
    for (int64_t i = 0; i < a.length; ++i) {
        PollCancel(i);
        o[i] = a.IsValid(i) ? f(field, x[i]) : O{};
    }
    return V(out);
}

Expected<Value> ScaleKernel(Builtin bid, const std::vector<Value> &args, bool divide) {
    const char *fn = GetBuiltin(bid).name;
    RNDN_RETURN_IF_ERROR(NeedVector(args[0], fn, 0));
    RNDN_RETURN_IF_ERROR(NeedVector(args[1], fn, 1));
    const Vector &a = args[0].vector(), &b = args[1].vector();
    if (a.type.kind != TypeKind::INTERVAL || !IsFloat(b.type.kind))
        return TypeError(std::string("@") + fn + ": expects (interval, f64)");
    RNDN_ASSIGN_OR_RETURN(int64_t n, BroadcastLength(a.length, b.length, fn));
    RNDN_ASSIGN_OR_RETURN(auto out, MakeVector(TypeKind::INTERVAL, n));
    SetCombinedValidity(a, b, *out);
    const IntervalValue *x = a.Data<IntervalValue>();
    IntervalValue *o = out->Data<IntervalValue>();
    for (int64_t i = 0; i < n; ++i) {
        PollCancel(i);
        const int64_t ia = a.length == 1 ? 0 : i, ib = b.length == 1 ? 0 : i;
        if (!a.IsValid(ia) || !b.IsValid(ib)) continue;
        const double factor = b.type.kind == TypeKind::F32 ? static_cast<double>(b.Data<float>()[ib]) : b.Data<double>()[ib];
        RNDN_ASSIGN_OR_RETURN(o[i], ScaleInterval(x[ia], factor, divide));
    }
    return V(out);
}

// sum (interval_pl over the non-NULL values in order) and avg (interval_accum's sum, then
// interval_div by the count as a double); no value: NULL
Expected<Value> IntervalReduce(Builtin bid, const std::vector<Value> &args, bool average) {
    const char *fn = GetBuiltin(bid).name;
    RNDN_RETURN_IF_ERROR(NeedVector(args[0], fn, 0));
    const Vector &a = args[0].vector();
    if (a.type.kind != TypeKind::INTERVAL) return TypeError(std::string("@") + fn + ": expects an interval");
    const IntervalValue *x = a.Data<IntervalValue>();
    IntervalValue sum;
    int64_t n = 0;
    for (int64_t i = 0; i < a.length; ++i) {
        PollCancel(i);
        if (!a.IsValid(i)) continue;
        RNDN_ASSIGN_OR_RETURN(sum, Plus(sum, x[i]));
        ++n;
    }
    RNDN_ASSIGN_OR_RETURN(auto out, MakeVector(TypeKind::INTERVAL, 1));
    if (n == 0) {
        out->SetNull(0);
        return V(out);
    }
    if (average) {
        RNDN_ASSIGN_OR_RETURN(sum, ScaleInterval(sum, static_cast<double>(n), true));
    }
    out->Data<IntervalValue>()[0] = sum;
    return V(out);
}

}  // namespace

Expected<Value> KTsDiff(KernelCtx &, const std::vector<Value> &args) {
    return BinaryToInterval<int64_t>(Builtin::TS_DIFF, args, TypeKind::DT, TimestampMinus);
}
Expected<Value> KIntervalPlus(KernelCtx &, const std::vector<Value> &args) {
    return BinaryToInterval<IntervalValue>(Builtin::INTERVAL_PLUS, args, TypeKind::INTERVAL, Plus);
}
Expected<Value> KIntervalMinus(KernelCtx &, const std::vector<Value> &args) {
    return BinaryToInterval<IntervalValue>(Builtin::INTERVAL_MINUS, args, TypeKind::INTERVAL, Minus);
}
Expected<Value> KIntervalNeg(KernelCtx &, const std::vector<Value> &args) { return UnaryInterval(Builtin::INTERVAL_NEG, args, Negate); }
Expected<Value> KJustifyHours(KernelCtx &, const std::vector<Value> &args) {
    return UnaryInterval(Builtin::JUSTIFY_HOURS, args, JustifyHours);
}
Expected<Value> KJustifyDays(KernelCtx &, const std::vector<Value> &args) { return UnaryInterval(Builtin::JUSTIFY_DAYS, args, JustifyDays); }
Expected<Value> KJustifyInterval(KernelCtx &, const std::vector<Value> &args) {
    return UnaryInterval(Builtin::JUSTIFY_INTERVAL, args, JustifyInterval);
}

Expected<Value> KIntervalMul(KernelCtx &, const std::vector<Value> &args) { return ScaleKernel(Builtin::INTERVAL_MUL, args, false); }
Expected<Value> KIntervalDiv(KernelCtx &, const std::vector<Value> &args) { return ScaleKernel(Builtin::INTERVAL_DIV, args, true); }
Expected<Value> KIntervalField(KernelCtx &, const std::vector<Value> &args) {
    return IntervalPart<__int128>(Builtin::INTERVAL_FIELD, args, Type::Decimal(TypeKind::DEC128, 6), ExtractMicros);
}
Expected<Value> KIntervalFieldF(KernelCtx &, const std::vector<Value> &args) {
    return IntervalPart<double>(Builtin::INTERVAL_FIELD_F, args, Type(TypeKind::F64), PartFloat);
}
Expected<Value> KIntervalSum(KernelCtx &, const std::vector<Value> &args) { return IntervalReduce(Builtin::INTERVAL_SUM, args, false); }
Expected<Value> KIntervalAvg(KernelCtx &, const std::vector<Value> &args) { return IntervalReduce(Builtin::INTERVAL_AVG, args, true); }


namespace {
// AddPostgresIntPart: "<n> <unit>[s]", a space before all but the first part, "+" before a
// positive amount that follows a negative one
void AddPart(std::string &out, int64_t value, const char *unit, bool &is_zero, bool &is_before) {
    if (value == 0) return;
    if (!is_zero) out += ' ';
    if (is_before && value > 0) out += '+';
    out += std::to_string(value);
    out += ' ';
    out += unit;
    if (value != 1) out += 's';
    is_before = value < 0;
    is_zero = false;
}
}  // namespace

std::string PgIntervalText(const IntervalValue &v) {
    const ItmParts p = Itm(v);
    std::string out;
    bool is_zero = true, is_before = false;
    AddPart(out, p.year, "year", is_zero, is_before);
    AddPart(out, p.mon, "mon", is_zero, is_before);
    AddPart(out, p.mday, "day", is_zero, is_before);
    if (is_zero || p.hour != 0 || p.min != 0 || p.sec != 0 || p.usec != 0) {
        const bool minus = p.hour < 0 || p.min < 0 || p.sec < 0 || p.usec < 0;
        if (!is_zero) out += ' ';
        if (minus) out += '-';
        else if (is_before) out += '+';
        char buf[64];
        const uint64_t hour = p.hour < 0 ? 0 - static_cast<uint64_t>(p.hour) : static_cast<uint64_t>(p.hour);
        std::snprintf(buf, sizeof buf, "%02llu:%02d:%02d", static_cast<unsigned long long>(hour), static_cast<int>(std::llabs(p.min)),
                      static_cast<int>(std::llabs(p.sec)));
        out += buf;
        int64_t frac = std::llabs(p.usec);
        if (frac != 0) {  // AppendSeconds: six digits, trailing zeros dropped
            std::snprintf(buf, sizeof buf, ".%06lld", static_cast<long long>(frac));
            std::string f(buf);
            while (f.back() == '0') f.pop_back();
            out += f;
        }
    }
    return out;
}

Status ParsePgInterval(std::string_view s, IntervalValue *out) {
    const Status other = Status::Unsupported("interval text outside rndn's plain spellings");
    auto lower = [](char c) { return static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c); };
    std::vector<std::string> tokens;
    std::string cur;
    for (char c : s) {
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            if (!cur.empty()) tokens.push_back(std::move(cur)), cur.clear();
        } else {
            cur += lower(c);
        }
    }
    if (!cur.empty()) tokens.push_back(std::move(cur));
    if (tokens.empty()) return other;
    // an amount: [+-] then 1..6 digits
    auto amount = [](const std::string &t, int64_t *v) {
        size_t k = 0;
        bool neg = false;
        if (k < t.size() && (t[k] == '+' || t[k] == '-')) neg = t[k++] == '-';
        if (k == t.size() || t.size() - k > 6) return false;
        int64_t x = 0;
        for (; k < t.size(); ++k) {
            if (t[k] < '0' || t[k] > '9') return false;
            x = x * 10 + (t[k] - '0');
        }
        *v = neg ? -x : x;
        return true;
    };
    struct Unit {
        const char *name;
        int slot;  // 0 year, 1 month, 2 day, 3 hour, 4 minute, 5 second
    };
    static constexpr Unit kUnits[] = {{"year", 0},  {"years", 0},  {"mon", 1},     {"mons", 1},   {"month", 1},  {"months", 1},
                                      {"day", 2},   {"days", 2},   {"hour", 3},    {"hours", 3},  {"min", 4},    {"mins", 4},
                                      {"minute", 4}, {"minutes", 4}, {"sec", 5},   {"secs", 5},   {"second", 5}, {"seconds", 5}};
    int64_t f[6] = {0, 0, 0, 0, 0, 0};
    bool seen[6] = {false, false, false, false, false, false};
    bool time_seen = false;
    int64_t time_us = 0;
    for (size_t i = 0; i < tokens.size(); ++i) {
        const std::string &t = tokens[i];
        if (t.find(':') != std::string::npos) {  // [+-]H:MM[:SS[.ffffff]]
            if (time_seen || seen[3] || seen[4] || seen[5]) return other;
            time_seen = true;
            size_t k = 0;
            bool neg = false;
            if (t[k] == '+' || t[k] == '-') neg = t[k++] == '-';
            // the pieces between colons: hours (1-6 digits), minutes and seconds (1-2 digits,
            // at most 59), the seconds with an optional fraction of 1-6 digits
            std::vector<std::string_view> pieces;
            std::string_view rest = std::string_view(t).substr(k);
            for (size_t at; (at = rest.find(':')) != std::string_view::npos; rest.remove_prefix(at + 1)) pieces.push_back(rest.substr(0, at));
            pieces.push_back(rest);
            if (pieces.size() < 2 || pieces.size() > 3) return other;
            std::string_view frac_text;
            if (pieces.size() == 3) {
                const size_t dot = pieces[2].find('.');
                if (dot != std::string_view::npos) {
                    frac_text = pieces[2].substr(dot + 1);
                    pieces[2] = pieces[2].substr(0, dot);
                    if (frac_text.empty() || frac_text.size() > 6) return other;
                }
            }
            auto digits = [](std::string_view d, size_t most, int64_t *v) {
                if (d.empty() || d.size() > most) return false;
                int64_t x = 0;
                for (char c : d) {
                    if (c < '0' || c > '9') return false;
                    x = x * 10 + (c - '0');
                }
                *v = x;
                return true;
            };
            int64_t hh = 0, mm = 0, ss = 0, frac = 0;
            if (!digits(pieces[0], 6, &hh) || !digits(pieces[1], 2, &mm) || mm > 59) return other;
            if (pieces.size() == 3 && (!digits(pieces[2], 2, &ss) || ss > 59)) return other;
            if (!frac_text.empty()) {
                if (!digits(frac_text, 6, &frac)) return other;
                for (size_t d = frac_text.size(); d < 6; ++d) frac *= 10;
            }
            time_us = ((hh * 60 + mm) * 60 + ss) * 1000000 + frac;
            if (neg) time_us = -time_us;
            continue;
        }
        int64_t v;
        if (!amount(t, &v) || i + 1 >= tokens.size()) return other;
        const std::string &u = tokens[++i];
        int slot = -1;
        for (const Unit &x : kUnits)
            if (u == x.name) slot = x.slot;
        if (slot < 0 || seen[slot] || (slot >= 3 && time_seen)) return other;
        seen[slot] = true;
        f[slot] = v;
    }
    out->month = static_cast<int32_t>(f[0] * 12 + f[1]);
    out->day = static_cast<int32_t>(f[2]);
    out->time = ((f[3] * 60 + f[4]) * 60 + f[5]) * 1000000 + time_us;
    return Status::Ok();
}

}  // namespace rndn::hir
