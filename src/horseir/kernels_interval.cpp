// PostgreSQL 15's interval arithmetic (utils/adt/timestamp.c) on `interval` vectors: timestamp
// minus timestamp, interval plus/minus interval, unary minus and the justify_* functions, each
// element as PostgreSQL computes it, its errors included ("interval out of range", 22008).
// Comparisons, order, grouping, joins and min/max need no kernel here: IntervalValue orders by
// PostgreSQL's interval_cmp_value (see horseir.h), so the generic kernels apply.
#include "horseir/kernel_util.h"

namespace rndn::hir {

namespace {

constexpr int64_t kUsecsPerDay = 86400000000LL;
constexpr int32_t kDaysPerMonth = 30;

Status IntervalOutOfRange() { return Status::UserError(sqlstate::kDatetimeOverflow, "interval out of range"); }

// interval_justify_hours: whole days of the time field move into the day field.
Expected<IntervalValue> JustifyHours(IntervalValue v) {
    const int64_t wholeday = v.time / kUsecsPerDay;  // TMODULO: truncating division
    v.time -= wholeday * kUsecsPerDay;
    int64_t day = static_cast<int64_t>(v.day) + wholeday;
    if (day < INT32_MIN || day > INT32_MAX) return IntervalOutOfRange();
    v.day = static_cast<int32_t>(day);
    if (v.day > 0 && v.time < 0) {
        v.time += kUsecsPerDay;
        v.day--;
    } else if (v.day < 0 && v.time > 0) {
        v.time -= kUsecsPerDay;
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
    const int64_t wholeday = v.time / kUsecsPerDay;
    v.time -= wholeday * kUsecsPerDay;
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
        v.time += kUsecsPerDay;
        v.day--;
    } else if (v.day < 0 && v.time > 0) {
        v.time -= kUsecsPerDay;
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

}  // namespace rndn::hir
