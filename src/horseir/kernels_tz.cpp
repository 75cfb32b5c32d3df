// Kernels of timestamptz under a time zone (issue 18): the zone is a transition table that the
// planner builds with PostgreSQL's pgtime API (src/planner_hook, TimeZoneTable) and passes as an
// i64 vector, so this file needs no PostgreSQL header and no tz database.
//
// Table layout (every instant in seconds after 2000-01-01 00:00 UTC, PostgreSQL's epoch):
//   [lo, hi, off0, b1, off1, b2, off2, ...]
//   lo, hi   the instants the table describes: [lo, hi) (hi = INT64_MAX: no later transition;
//            lo = INT64_MIN + 1 for a fixed offset, as INT64_MIN is the i64 NULL)
//   off0     the UTC offset (seconds east, pg_tm's tm_gmtoff) before the first boundary
//   bi, offi the i-th transition (ascending) and the offset in effect from it on
// A value whose conversion needs an instant outside [lo, hi) is UNSUPPORTED (the executor runs
// PostgreSQL's plan), and so is every conversion that PostgreSQL would reject with "timestamp
// out of range": PostgreSQL then raises its own error, never an approximation of it.
#include <algorithm>
#include <cctype>
#include <climits>
#include <cstdio>

#include "horseir/kernel_util.h"
#include "horseir/kernels_cast.h"

namespace rndn::hir {

// From kernels_elementwise.cpp: date_trunc of a timestamp by a unit name (false: unknown unit),
// and timestamp + interval (PostgreSQL's timestamp_pl_interval on a finite timestamp).
bool TruncTimestampByName(std::string_view unit, int64_t t, int64_t *out);
Expected<int64_t> AddIntervalToTimestamp(int64_t t, int64_t months, int64_t days, int64_t micros);

namespace {

constexpr int64_t kSec = 1000000;
constexpr int64_t kTzMinTimestamp = -211813488000000000LL;  // 4714-11-24 BC (MIN_TIMESTAMP)
constexpr int64_t kTzEndTimestamp = 9223371331200000000LL;  // 294277-01-01 (END_TIMESTAMP)
bool Valid(int64_t t) { return kTzMinTimestamp <= t && t < kTzEndTimestamp; }
bool Infinite(int64_t t) { return t == INT64_MIN || t == INT64_MAX; }

Status OutOfTable() { return Status::Unsupported("a timestamptz outside the time zone table's range"); }
Status PgRaises() { return Status::Unsupported("timestamp out of range (PostgreSQL's plan raises it)"); }

struct TzTable {
    int64_t lo = INT64_MIN, hi = INT64_MAX, off0 = 0;
    std::vector<int64_t> at, off;

    static Expected<TzTable> From(const Value &v, const char *fn) {
        RNDN_RETURN_IF_ERROR(NeedVector(v, fn, 2));
        const Vector &t = v.vector();
        if (t.type.kind != TypeKind::I64 || t.length < 3 || t.length % 2 == 0 || t.HasNulls())
            return ShapeError(std::string("@") + fn + ": the zone table is (lo, hi, off0, b1, off1, ...):i64");
        const int64_t *d = t.Data<int64_t>();
        TzTable z;
        z.lo = d[0];
        z.hi = d[1];
        z.off0 = d[2];
        for (int64_t i = 3; i + 1 < t.length; i += 2) {
            if (!z.at.empty() && d[i] <= z.at.back()) return ShapeError(std::string("@") + fn + ": zone table boundaries must ascend");
            z.at.push_back(d[i]);
            z.off.push_back(d[i + 1]);
        }
        return z;
    }
    bool Covers(int64_t s) const { return lo <= s && s < hi; }
    // The offset in effect at second s (the last boundary <= s), s covered.
    int64_t OffsetAt(int64_t s) const {
        const size_t i = static_cast<size_t>(std::upper_bound(at.begin(), at.end(), s) - at.begin());
        return i == 0 ? off0 : off[i - 1];
    }
    // UTC instant (finite, microseconds) -> its offset; pg_localtime of the whole second.
    Expected<int64_t> Offset(int64_t t) const {
        const int64_t s = FloorDivI(t, kSec);
        if (!Covers(s)) return OutOfTable();
        return OffsetAt(s);
    }
    // UTC -> local wall time (timestamp2tm + tm2timestamp without a zone).
    Expected<int64_t> ToLocal(int64_t t) const {
        RNDN_ASSIGN_OR_RETURN(int64_t o, Offset(t));
        const int64_t l = t + o * kSec;
        if (!Valid(l)) return PgRaises();
        return l;
    }
    // The offset PostgreSQL's DetermineTimeZoneOffset picks for the local wall time l (finite):
    // the boundaries within the day before l, a time in a spring-forward gap read with the
    // offset before it, a time in a fall-back overlap with the offset after it.
    Expected<int64_t> LocalOffset(int64_t l) const {
        const int64_t mytime = FloorDivI(l, kSec);
        const int64_t prev = mytime - 86400;
        if (!Covers(prev)) return OutOfTable();
        const size_t i = static_cast<size_t>(std::upper_bound(at.begin(), at.end(), prev) - at.begin());
        const int64_t before = i == 0 ? off0 : off[i - 1];
        if (i == at.size()) {
            if (hi != INT64_MAX) return OutOfTable();  // the next boundary lies beyond the table
            return before;                              // no later transition: a fixed offset
        }
        const int64_t boundary = at[i], after = off[i];
        const int64_t beforetime = mytime - before, aftertime = mytime - after;
        if (beforetime < boundary && aftertime < boundary) return before;
        if (beforetime > boundary && aftertime >= boundary) return after;
        return beforetime > aftertime ? before : after;
    }
    // local wall time -> UTC (DetermineTimeZoneOffset + tm2timestamp).
    Expected<int64_t> ToUtc(int64_t l) const {
        RNDN_ASSIGN_OR_RETURN(int64_t o, LocalOffset(l));
        const int64_t t = l - o * kSec;
        if (!Valid(t)) return PgRaises();
        return t;
    }
};

// Applies f to each valid element of arg 0 (dt, or date read as its midnight where allowed),
// infinities passed through unchanged unless f is asked for them (want_inf).
template <class F>
Expected<Value> MapDt(const Value &x, const char *fn, bool allow_date, TypeKind out_kind, F f) {
    RNDN_RETURN_IF_ERROR(NeedVector(x, fn, 0));
    const Vector &a = x.vector();
    const bool date = a.type.kind == TypeKind::DATE;
    if (a.type.kind != TypeKind::DT && !(allow_date && date))
        return TypeError(std::string("@") + fn + ": expects " + (allow_date ? "dt or date" : "dt") + ", got " + TypeToString(a.type));
    RNDN_ASSIGN_OR_RETURN(auto out, MakeVector(out_kind, a.length));
    SetUnaryValidity(a, *out);
    int64_t *o = out->Data<int64_t>();
    for (int64_t i = 0; i < a.length; ++i) {
        o[i] = 0;
        if (!a.IsValid(i)) continue;
        int64_t t;
        if (date) {
            const int32_t d = a.Data<int32_t>()[i];
            if (d == INT32_MIN || d == INT32_MAX) {
                t = d == INT32_MIN ? INT64_MIN : INT64_MAX;
            } else {
                if (d >= kTzEndTimestamp / (86400 * kSec)) return Status::Unsupported("date out of range for timestamp");
                t = static_cast<int64_t>(d) * 86400 * kSec;
            }
        } else {
            t = a.Data<int64_t>()[i];
        }
        bool null = false;
        RNDN_ASSIGN_OR_RETURN(o[i], f(t, &null));
        if (null) {
            o[i] = 0;
            out->SetNull(i);
        }
    }
    return V(out);
}

// timestamptz_pl_interval on x (finite or infinite): months in wall time, then days in wall
// time, then the microseconds on the instant.
Expected<int64_t> TzAddInterval(const TzTable &z, int64_t t, int64_t months, int64_t days, int64_t micros) {
    if (Infinite(t)) return t;
    if (months != 0) {
        RNDN_ASSIGN_OR_RETURN(int64_t l, z.ToLocal(t));
        Expected<int64_t> l2 = AddIntervalToTimestamp(l, months, 0, 0);
        if (!l2.ok()) return PgRaises();
        RNDN_ASSIGN_OR_RETURN(t, z.ToUtc(l2.value()));
    }
    if (days != 0) {
        RNDN_ASSIGN_OR_RETURN(int64_t l, z.ToLocal(t));
        Expected<int64_t> l2 = AddIntervalToTimestamp(l, 0, days, 0);
        if (!l2.ok()) return PgRaises();
        RNDN_ASSIGN_OR_RETURN(t, z.ToUtc(l2.value()));
    }
    t = static_cast<int64_t>(static_cast<uint64_t>(t) + static_cast<uint64_t>(micros));  // wraps as PostgreSQL's -fwrapv
    if (!Valid(t)) return PgRaises();
    return t;
}

std::string_view SymArg(const Value &v) {
    if (!v.is_vector() || v.vector().type.kind != TypeKind::SYM || v.vector().length != 1) return {};
    return v.vector().StringAt(0);
}

}  // namespace

// @tz_local(x:dt, zone) — a timestamptz's wall time in the zone (timestamptz::timestamp,
// timezone(zone, timestamptz)); infinities stay.
Expected<Value> KTzLocal(KernelCtx &, const std::vector<Value> &args) {
    RNDN_ASSIGN_OR_RETURN(TzTable z, TzTable::From(args[1], "tz_local"));
    return MapDt(args[0], "tz_local", false, TypeKind::DT, [&](int64_t t, bool *) -> Expected<int64_t> {
        if (Infinite(t)) return t;
        return z.ToLocal(t);
    });
}

// @tz_date(x:dt, zone) — timestamptz::date: the wall time's date; ±infinity give ±infinity.
Expected<Value> KTzDate(KernelCtx &, const std::vector<Value> &args) {
    RNDN_ASSIGN_OR_RETURN(TzTable z, TzTable::From(args[1], "tz_date"));
    RNDN_RETURN_IF_ERROR(NeedVector(args[0], "tz_date", 0));
    const Vector &a = args[0].vector();
    if (a.type.kind != TypeKind::DT) return TypeError("@tz_date: expects dt, got " + TypeToString(a.type));
    RNDN_ASSIGN_OR_RETURN(auto out, MakeVector(TypeKind::DATE, a.length));
    SetUnaryValidity(a, *out);
    int32_t *o = out->Data<int32_t>();
    for (int64_t i = 0; i < a.length; ++i) {
        o[i] = 0;
        if (!a.IsValid(i)) continue;
        const int64_t t = a.Data<int64_t>()[i];
        if (Infinite(t)) {
            o[i] = t == INT64_MIN ? INT32_MIN : INT32_MAX;
            continue;
        }
        RNDN_ASSIGN_OR_RETURN(int64_t l, z.ToLocal(t));
        o[i] = static_cast<int32_t>(FloorDivI(l, 86400 * kSec));
    }
    return V(out);
}

// @tz_utc(x:dt|date, zone) — the instant of a wall time in the zone (timestamp::timestamptz,
// date::timestamptz, timezone(zone, timestamp)); infinities stay.
Expected<Value> KTzUtc(KernelCtx &, const std::vector<Value> &args) {
    RNDN_ASSIGN_OR_RETURN(TzTable z, TzTable::From(args[1], "tz_utc"));
    return MapDt(args[0], "tz_utc", true, TypeKind::DT, [&](int64_t t, bool *) -> Expected<int64_t> {
        if (Infinite(t)) return t;
        return z.ToUtc(t);
    });
}

// @tz_field(x:dt, `timezone|`timezone_hour|`timezone_minute, zone) — the zone's UTC offset at x
// in seconds, whole hours, or the minutes beyond them (C division, as timestamptz_part_common);
// NULL for an infinite x.
Expected<Value> KTzField(KernelCtx &, const std::vector<Value> &args) {
    RNDN_ASSIGN_OR_RETURN(TzTable z, TzTable::From(args[2], "tz_field"));
    const std::string_view f = SymArg(args[1]);
    int which;
    if (f == "timezone") which = 0;
    else if (f == "timezone_hour") which = 1;
    else if (f == "timezone_minute") which = 2;
    else return Status::UserError(sqlstate::kInvalidParameter, "@tz_field: unknown field '" + std::string(f) + "'");
    return MapDt(args[0], "tz_field", false, TypeKind::I64, [&](int64_t t, bool *null) -> Expected<int64_t> {
        if (Infinite(t)) {
            *null = true;
            return 0;
        }
        RNDN_ASSIGN_OR_RETURN(int64_t o, z.Offset(t));
        return which == 0 ? o : which == 1 ? o / 3600 : (o / 60) % 60;
    });
}

// @tz_trunc(x:dt, `unit, zone) — date_trunc(unit, timestamptz [, zone]): truncated in wall time;
// units of a day and more take the offset DetermineTimeZoneOffset gives the truncated wall time,
// smaller units keep x's own offset (timestamptz_trunc_internal's redotz).
Expected<Value> KTzTrunc(KernelCtx &, const std::vector<Value> &args) {
    RNDN_ASSIGN_OR_RETURN(TzTable z, TzTable::From(args[2], "tz_trunc"));
    const std::string_view unit = SymArg(args[1]);
    int64_t probe;
    if (!TruncTimestampByName(unit, 0, &probe))
        return Status::UserError(sqlstate::kInvalidParameter, "@tz_trunc: unknown unit '" + std::string(unit) + "'");
    const bool redo = unit == "day" || unit == "week" || unit == "month" || unit == "quarter" || unit == "year" || unit == "decade" ||
                      unit == "century" || unit == "millennium";
    return MapDt(args[0], "tz_trunc", false, TypeKind::DT, [&](int64_t t, bool *) -> Expected<int64_t> {
        if (Infinite(t)) return t;
        RNDN_ASSIGN_OR_RETURN(int64_t o, z.Offset(t));
        const int64_t l = t + o * kSec;
        if (!Valid(l)) return PgRaises();
        int64_t tl = 0;
        TruncTimestampByName(unit, l, &tl);
        if (!Valid(tl)) return PgRaises();
        if (redo) return z.ToUtc(tl);
        const int64_t r = tl - o * kSec;
        if (!Valid(r)) return PgRaises();
        return r;
    });
}

// @tz_interval_add(x:dt, (months, days, microseconds):i64, zone) — timestamptz_pl_interval:
// months in wall time (day clamped to the month's end), back to an instant; then days the same
// way; then the microseconds on the instant.  Infinities stay.
Expected<Value> KTzIntervalAdd(KernelCtx &, const std::vector<Value> &args) {
    RNDN_ASSIGN_OR_RETURN(TzTable z, TzTable::From(args[2], "tz_interval_add"));
    RNDN_RETURN_IF_ERROR(NeedVector(args[1], "tz_interval_add", 1));
    const Vector &iv = args[1].vector();
    if (iv.type.kind != TypeKind::I64 || iv.length != 3 || iv.HasNulls())
        return ShapeError("@tz_interval_add: the interval is (months, days, microseconds), three i64");
    const int64_t months = iv.Data<int64_t>()[0], days = iv.Data<int64_t>()[1], micros = iv.Data<int64_t>()[2];
    return MapDt(args[0], "tz_interval_add", false, TypeKind::DT,
                 [&](int64_t t, bool *) -> Expected<int64_t> { return TzAddInterval(z, t, months, days, micros); });
}

namespace {
// @tz_interval_plv / @tz_interval_miv: x ± an interval vector (one element broadcasts).
Expected<Value> TzIntervalVec(const std::vector<Value> &args, const char *fn, bool minus) {
    RNDN_ASSIGN_OR_RETURN(TzTable z, TzTable::From(args[2], fn));
    RNDN_RETURN_IF_ERROR(NeedVector(args[0], fn, 0));
    RNDN_RETURN_IF_ERROR(NeedVector(args[1], fn, 1));
    const Vector &a = args[0].vector();
    const Vector &iv = args[1].vector();
    if (a.type.kind != TypeKind::DT || iv.type.kind != TypeKind::INTERVAL)
        return TypeError(std::string("@") + fn + ": expects (dt, interval, zone)");
    if (iv.length != a.length && iv.length != 1)
        return ShapeError(std::string("@") + fn + ": the interval has " + std::to_string(iv.length) + " elements for " + std::to_string(a.length));
    RNDN_ASSIGN_OR_RETURN(auto out, MakeVector(TypeKind::DT, a.length));
    int64_t *o = out->Data<int64_t>();
    const bool nulls = a.HasNulls() || iv.HasNulls();
    if (nulls) out->EnsureValidity();
    for (int64_t i = 0; i < a.length; ++i) {
        PollCancel(i);
        o[i] = 0;
        const int64_t j = iv.length == 1 ? 0 : i;
        if (!a.IsValid(i) || !iv.IsValid(j)) {
            out->SetNull(i);
            continue;
        }
        const IntervalValue &v = iv.Data<IntervalValue>()[j];
        int64_t months = v.month, days = v.day, micros = v.time;
        if (minus) {  // timestamptz_mi_interval (15): each field negated, wrapping as -fwrapv
            months = static_cast<int32_t>(0u - static_cast<uint32_t>(v.month));
            days = static_cast<int32_t>(0u - static_cast<uint32_t>(v.day));
            micros = static_cast<int64_t>(0ull - static_cast<uint64_t>(v.time));
        }
        RNDN_ASSIGN_OR_RETURN(o[i], TzAddInterval(z, a.Data<int64_t>()[i], months, days, micros));
    }
    return V(out);
}

// EncodeTimezone's ISO form of an offset (seconds east): +HH, +HH:MM or +HH:MM:SS.
void AppendOffset(std::string &s, int64_t east) {
    const int64_t west = -east;
    int64_t sec = west < 0 ? -west : west;
    int64_t min = sec / 60;
    sec -= min * 60;
    const int64_t hour = min / 60;
    min -= hour * 60;
    s += west <= 0 ? '+' : '-';
    char b[64];  // room for any int64 fields (the offsets are small)
    if (sec != 0) std::snprintf(b, sizeof b, "%02lld:%02lld:%02lld", (long long)hour, (long long)min, (long long)sec);
    else if (min != 0) std::snprintf(b, sizeof b, "%02lld:%02lld", (long long)hour, (long long)min);
    else std::snprintf(b, sizeof b, "%02lld", (long long)hour);
    s += b;
}
}  // namespace

Expected<Value> KTzIntervalPlv(KernelCtx &, const std::vector<Value> &args) { return TzIntervalVec(args, "tz_interval_plv", false); }
Expected<Value> KTzIntervalMiv(KernelCtx &, const std::vector<Value> &args) { return TzIntervalVec(args, "tz_interval_miv", true); }

// @tz_to_text(x:dt, zone) — timestamptz_out under DateStyle ISO: the wall time's text, the
// offset in force at x, " BC" last; ±infinity as infinity, -infinity.
Expected<Value> KTzToText(KernelCtx &, const std::vector<Value> &args) {
    RNDN_ASSIGN_OR_RETURN(TzTable z, TzTable::From(args[1], "tz_to_text"));
    RNDN_RETURN_IF_ERROR(NeedVector(args[0], "tz_to_text", 0));
    const Vector &a = args[0].vector();
    if (a.type.kind != TypeKind::DT) return TypeError("@tz_to_text: expects dt, got " + TypeToString(a.type));
    RNDN_ASSIGN_OR_RETURN(auto out, MakeVector(TypeKind::STR, 0));
    for (int64_t i = 0; i < a.length; ++i) {
        PollCancel(i);
        if (!a.IsValid(i)) {
            out->AppendString("");
            continue;
        }
        const int64_t t = a.Data<int64_t>()[i];
        if (Infinite(t)) {
            out->AppendString(t == INT64_MAX ? "infinity" : "-infinity");
            continue;
        }
        RNDN_ASSIGN_OR_RETURN(int64_t off, z.Offset(t));
        const int64_t l = t + off * kSec;
        if (!Valid(l)) return PgRaises();
        std::string s = PgTimestampText(l);
        const bool bc = s.size() > 3 && s.compare(s.size() - 3, 3, " BC") == 0;
        if (bc) s.resize(s.size() - 3);
        AppendOffset(s, off);
        if (bc) s += " BC";
        out->AppendString(s);
    }
    SetUnaryValidity(a, *out);
    return V(out);
}

// @tz_from_text(s:str, zone) — timestamptz_in for the ISO forms @from_text reads for timestamps
// (a 'T' between date and time too), then an optional offset ±H[H][:MM[:SS]] or Z; without one,
// the wall time in the zone (DetermineTimeZoneOffset).  Offsets past 15 hours, and everything
// else (zone names, BC, other date orders) UNSUPPORTED: PostgreSQL's plan reads or rejects it.
Expected<Value> KTzFromText(KernelCtx &, const std::vector<Value> &args) {
    RNDN_ASSIGN_OR_RETURN(TzTable z, TzTable::From(args[1], "tz_from_text"));
    RNDN_RETURN_IF_ERROR(NeedVector(args[0], "tz_from_text", 0));
    const Vector &a = args[0].vector();
    if (!IsString(a.type.kind)) return TypeError("@tz_from_text: expects a string, got " + TypeToString(a.type));
    RNDN_ASSIGN_OR_RETURN(auto out, MakeVector(TypeKind::DT, a.length));
    int64_t *o = out->Data<int64_t>();
    SetUnaryValidity(a, *out);
    const Status other = Status::Unsupported("timestamptz text other than ISO with a numeric offset (PostgreSQL reads it)");
    for (int64_t i = 0; i < a.length; ++i) {
        PollCancel(i);
        o[i] = 0;
        if (!a.IsValid(i)) continue;
        std::string t(a.StringAt(i));
        while (!t.empty() && (t.back() == ' ' || t.back() == '\t' || t.back() == '\n')) t.pop_back();
        size_t lead = 0;
        while (lead < t.size() && (t[lead] == ' ' || t[lead] == '\t' || t[lead] == '\n')) ++lead;
        t.erase(0, lead);
        if (t.size() > 10 && t[10] == 'T') t[10] = ' ';
        bool has_offset = false;
        int64_t east = 0;
        if (t.size() > 16 && t[10] == ' ') {  // a time follows the date: an offset may end it
            if (t.back() == 'Z') {
                has_offset = true;
                t.pop_back();
            } else {
                size_t k = t.size();
                while (k > 11 && (std::isdigit(static_cast<unsigned char>(t[k - 1])) || t[k - 1] == ':')) --k;
                if (k > 11 && k < t.size() && (t[k - 1] == '+' || t[k - 1] == '-')) {
                    const std::string zs = t.substr(k);
                    int f[3] = {0, 0, 0}, nf = 0;
                    size_t p = 0;
                    bool ok = true;
                    while (ok && p < zs.size() && nf < 3) {
                        size_t q = p;
                        while (q < zs.size() && std::isdigit(static_cast<unsigned char>(zs[q]))) ++q;
                        const size_t nd = q - p;
                        if (nd == 0 || nd > 2 || (nf > 0 && nd != 2)) ok = false;
                        else f[nf++] = std::stoi(zs.substr(p, nd));
                        p = q;
                        if (ok && p < zs.size()) {
                            if (zs[p] != ':') ok = false;
                            ++p;
                            if (p == zs.size()) ok = false;
                        }
                    }
                    if (!ok || p != zs.size() || f[0] > 15 || f[1] > 59 || f[2] > 59) return other;
                    east = (static_cast<int64_t>(f[0]) * 3600 + f[1] * 60 + f[2]) * (t[k - 1] == '-' ? -1 : 1);
                    has_offset = true;
                    t.resize(k - 1);
                }
            }
        }
        int64_t l;
        if (!PgTimestampFromText(t, &l).ok()) return other;
        if (Infinite(l)) {
            if (has_offset) return other;
            o[i] = l;
            continue;
        }
        if (has_offset) {
            const int64_t r = l - east * kSec;
            if (!Valid(r)) return PgRaises();
            o[i] = r;
        } else {
            RNDN_ASSIGN_OR_RETURN(o[i], z.ToUtc(l));
        }
    }
    return V(out);
}

}  // namespace rndn::hir
