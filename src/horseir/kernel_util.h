// Helpers shared by the kernel files: type dispatch (one switch per vector, never per
// element), broadcasting loops, validity handling.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "horseir/kernels.h"

namespace rndn::hir {

// PostgreSQL's order of two values (float.c's float8_cmp_internal for floats: NaN equals NaN
// and sorts above every number; -0 equals 0): -1, 0 or 1.
template <class T>
inline int SqlCompare(T x, T y) {
    if constexpr (std::is_floating_point_v<T>) {
        if (std::isnan(x)) return std::isnan(y) ? 0 : 1;
        if (std::isnan(y)) return -1;
    }
    return x < y ? -1 : (y < x ? 1 : 0);
}

// Short strings (at most 8 bytes) compared as one little-endian word, the bytes past the
// string's length masked off: ShortStringWord for a literal or a set string, RowStringWord for
// a column's row, which reads 8 bytes from its start and so only when they lie inside the
// column's bytes (false otherwise: the caller compares bytes).
inline uint64_t LowBytesMask(int64_t len) { return len >= 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * len)) - 1; }
inline uint64_t ShortStringWord(std::string_view s) {
    uint64_t w = 0;
    std::memcpy(&w, s.data(), std::min<size_t>(s.size(), 8));
    return w;
}
inline bool RowStringWord(const char *bytes, int64_t nbytes, int64_t start, int64_t len, uint64_t *w) {
    if (start + 8 > nbytes) return false;
    std::memcpy(w, bytes + start, 8);
    *w &= LowBytesMask(len);
    return true;
}

// The element type of an `interval` vector: kernels over numbers skip it with if constexpr.
template <class T>
inline constexpr bool kIsInterval = std::is_same_v<std::remove_cv_t<T>, IntervalValue>;

// Calls f(T{}) with T the C++ element type of a fixed-width basic kind.
template <class F>
auto VisitFixed(TypeKind k, F &&f) {
    switch (k) {
        case TypeKind::BOOL:
        case TypeKind::CHAR: return f(uint8_t{});
        case TypeKind::I8: return f(int8_t{});
        case TypeKind::I16: return f(int16_t{});
        case TypeKind::I32:
        case TypeKind::DATE:
        case TypeKind::MONTH:
        case TypeKind::MINUTE:
        case TypeKind::SECOND: return f(int32_t{});
        case TypeKind::I64:
        case TypeKind::DT:
        case TypeKind::TIME:
        case TypeKind::DEC64: return f(int64_t{});
        case TypeKind::F32: return f(float{});
        case TypeKind::F64: return f(double{});
        case TypeKind::DEC128: return f(__int128{});
        case TypeKind::INTERVAL: return f(IntervalValue{});
        default: return f(int64_t{});  // callers check IsBasic/!IsString first
    }
}

// Calendar arithmetic on microseconds after 2000-01-01 (negative before it): floor division,
// so that a negative timestamp's day and time of day come out as PostgreSQL's.
inline constexpr int64_t kDayMicros = 86400000000LL;
inline int64_t FloorDivI(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

// Day of the week (0 Sunday) of a day after 2000-01-01 (a Saturday).
inline int64_t Dow(int64_t day) { return ((day + 6) % 7 + 7) % 7; }
// ISO 8601 week and week-numbering year (astronomical): the week holding the Thursday of the
// day's week.
inline void IsoWeek(int64_t day, int64_t *week, int64_t *year) {
    const int64_t isodow = Dow(day) == 0 ? 7 : Dow(day);
    const int64_t thursday = day - isodow + 4;
    int32_t y, m, d;
    CivilFromDays(static_cast<int32_t>(thursday), &y, &m, &d);
    *week = (thursday - DaysFromCivil(y, 1, 1)) / 7 + 1;
    *year = y;
}

// The byte length a UTF-8 lead byte announces (pg_utf_mblen; 1 for a stray continuation byte).
inline size_t Utf8CharLen(unsigned char c) { return c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 1; }

inline const Vector *AsVector(const Value &v) { return v.is_vector() ? &v.vector() : nullptr; }

inline Status NeedVector(const Value &v, const char *fn, int i) {
    if (!v.is_vector())
        return TypeError(std::string("@") + fn + ": argument " + std::to_string(i + 1) + " must be a vector");
    return Status::Ok();
}

// Broadcast length of two operands (length-1 broadcasts).
inline Expected<int64_t> BroadcastLength(int64_t na, int64_t nb, const char *fn) {
    if (na == nb) return na;
    if (na == 1) return nb;
    if (nb == 1) return na;
    return ShapeError(std::string("@") + fn + ": operand lengths " + std::to_string(na) + " and " + std::to_string(nb) + " do not match");
}

// out[i] = f(a[i or 0], b[i or 0]) with the three broadcast forms as separate loops.
template <class A, class B, class O, class F>
inline void BinaryLoop(const A *a, int64_t na, const B *b, int64_t nb, O *out, int64_t n, F f) {
    if (na == n && nb == n) {
        for (int64_t i = 0; i < n; ++i) out[i] = f(a[i], b[i]);
    } else if (na == 1 && nb == n) {
        const A x = a[0];
        for (int64_t i = 0; i < n; ++i) out[i] = f(x, b[i]);
    } else {
        const B y = b[0];
        for (int64_t i = 0; i < n; ++i) out[i] = f(a[i], y);
    }
}

inline bool ValidAt(const Vector &v, int64_t i) { return v.IsValid(v.length == 1 ? 0 : i); }

// Result validity for element-wise ops: NULL if either input is NULL.
inline void SetCombinedValidity(const Vector &a, const Vector &b, Vector &out) {
    if (!a.HasNulls() && !b.HasNulls()) return;
    out.EnsureValidity();
    for (int64_t i = 0; i < out.length; ++i)
        if (!ValidAt(a, i) || !ValidAt(b, i)) out.SetNull(i);
}
inline void SetUnaryValidity(const Vector &a, Vector &out) {
    if (!a.HasNulls()) return;
    out.validity = a.validity;
}

// The casted view of a vector (no copy when the type already matches).
inline Expected<std::shared_ptr<const Vector>> As(const std::shared_ptr<const Vector> &v, const Type &t) {
    if (v->type == t) return v;
    return CastVector(v, t);
}

inline Value V(std::shared_ptr<Vector> v) { return Value(std::move(v)); }

// The result type of builtin b for these arguments, by its checker rule (kernels check their
// arguments at run time with it).
inline Expected<Type> RuntimeType(Builtin b, const std::vector<Value> &args) {
    std::vector<Type> types;
    std::vector<const FuncRef *> funcs;
    for (const auto &a : args) {
        types.push_back(a.type());
        funcs.push_back(nullptr);
    }
    RuleCtx ctx{types, funcs, nullptr};
    auto r = GetBuiltin(b).rule(ctx);
    if (!r.ok()) return TypeError(std::string("@") + GetBuiltin(b).name + ": " + r.status().message());
    return r.value()[0];
}

}  // namespace rndn::hir
