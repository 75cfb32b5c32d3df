// Casts between text and the other basic types with PostgreSQL 15's text forms (its output
// functions under DateStyle ISO and extra_float_digits > 0) and its input rules and errors:
//   @to_text(x)        bool ("true"/"false", booltext), i16/i32/i64, f32/f64 (shortest
//                      round-trip digits in float8out's layout), dec64/dec128 (its scale, or
//                      each element's), date and dt (ISO, BC years, infinities)
//   @from_text(s, t)   s read as the type of t (a typed literal that only names the target):
//                      i16/i32/i64 (int2in/int4in/int8in), bool (boolin), f32/f64 (float4in/
//                      float8in), dec* (numeric_in: a dec128 with each element's scale), date and
//                      dt (the ISO forms YYYY-MM-DD[ HH:MI[:SS[.ffffff]]] and ±infinity);
//                      numerics with an exponent (1.5e-7) as numeric_in scales them
//   @float_numeric(x)  float8/float4 -> numeric as float8_numeric/float4_numeric: %.15g / %.6g
//                      read by numeric_in's rules (a dec128 with each element's scale)
// Input PostgreSQL reads by rules not written here (other date spellings, exponents in
// numerics, hexadecimal floats) is Status::Unsupported: the executor falls back to PostgreSQL's
// plan at run time, which gives its answer or its error.
#include <cerrno>
#include <cmath>
#include <limits>
#include <charconv>
#include <clocale>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <locale.h>

#include "horseir/kernel_util.h"
#include "horseir/kernels_cast.h"

namespace rndn::hir {

namespace {

locale_t CLocale();

bool PgSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }
bool Digit(char c) { return c >= '0' && c <= '9'; }

// Lays out shortest digits the way PostgreSQL's Ryu-based output does (d2s.c/f2s.c to_chars):
// fixed notation when the decimal exponent is in [-4, fixed_limit), else d.ddde±XX.
std::string PgLayout(bool neg, const std::string &digits, int exp, int fixed_limit) {
    std::string out = neg ? "-" : "";
    const int n = static_cast<int>(digits.size());
    if (exp >= -4 && exp < fixed_limit) {
        if (exp < 0) {
            out += "0.";
            out.append(static_cast<size_t>(-exp - 1), '0');
            out += digits;
        } else if (n <= exp + 1) {
            out += digits;
            out.append(static_cast<size_t>(exp + 1 - n), '0');
        } else {
            out.append(digits, 0, static_cast<size_t>(exp + 1));
            out += '.';
            out.append(digits, static_cast<size_t>(exp + 1));
        }
        return out;
    }
    out += digits[0];
    if (n > 1) {
        out += '.';
        out.append(digits, 1);
    }
    out += exp < 0 ? "e-" : "e+";
    const int e = exp < 0 ? -exp : exp;
    if (e < 10) out += '0';
    out += std::to_string(e);
    return out;
}

// Reads decimal text back as T (correctly rounded: glibc's strtod_l/strtof_l in the C locale).
template <class T>
T ReadBack(const std::string &text);

// Whether mantissa digits d (d[0] the units digit) times 10^exp lie strictly inside the interval
// of decimals that read back as v: PostgreSQL's Ryu code never takes the interval's ends
// (acceptBounds is false without STRICTLY_SHORTEST), which std::to_chars takes when v's binary
// mantissa is even.  A decimal on an end reads as v, but a nudge by 10^-20 of it to one side
// reads as v's neighbour.
template <class T>
bool StrictlyInside(T v, const std::string &d, int exp) {
    const std::string e = "e" + std::to_string(exp);
    const std::string body = d.substr(0, 1) + "." + d.substr(1);
    std::string lower = d;  // d - 10^-20 (in units of the last digit): decrement, then 9s
    int k = static_cast<int>(lower.size()) - 1;
    while (k >= 0 && lower[static_cast<size_t>(k)] == '0') lower[static_cast<size_t>(k--)] = '9';
    if (k < 0) return false;  // d was all zeros: not a finite non-zero value
    --lower[static_cast<size_t>(k)];
    const std::string lo = lower.substr(0, 1) + "." + lower.substr(1) + "99999999999999999999" + e;
    const std::string hi = body + "00000000000000000001" + e;
    const T av = std::fabs(v);
    return ReadBack<T>(body + e) == av && ReadBack<T>(lo) == av && ReadBack<T>(hi) == av;
}

template <class T>
std::string ShortestText(T v, int fixed_limit) {
    if (std::isnan(v)) return "NaN";
    if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
    if (v == 0) return std::signbit(v) ? "-0" : "0";
    const bool neg = std::signbit(v);
    char buf[64];
    // scientific without a precision: the shortest digits that read back as v
    auto r = std::to_chars(buf, buf + sizeof buf, std::fabs(v), std::chars_format::scientific);
    std::string_view s(buf, static_cast<size_t>(r.ptr - buf));
    std::string digits;
    size_t i = 0;
    for (; i < s.size() && s[i] != 'e'; ++i)
        if (s[i] != '.') digits += s[i];
    int exp = std::atoi(std::string(s.substr(i + 1)).c_str());
    if (!StrictlyInside(std::fabs(v), digits, exp)) {
        // on an end of the interval: the fewest correctly rounded digits strictly inside it
        for (int p = static_cast<int>(digits.size()) + 1; p <= 17; ++p) {
            std::snprintf(buf, sizeof buf, "%.*e", p - 1, static_cast<double>(std::fabs(v)));
            s = std::string_view(buf);
            std::string d;
            for (i = 0; i < s.size() && s[i] != 'e'; ++i)
                if (s[i] != '.') d += s[i];
            const int e = std::atoi(buf + i + 1);
            if (StrictlyInside(std::fabs(v), d, e)) {
                digits = d;
                exp = e;
                break;
            }
        }
    }
    while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
    return PgLayout(neg, digits, exp, fixed_limit);
}

void AppendPadded(std::string &out, int64_t v, int width) {
    std::string d = std::to_string(v);
    if (static_cast<int>(d.size()) < width) out.append(static_cast<size_t>(width) - d.size(), '0');
    out += d;
}

// "YYYY-MM-DD" of a day count (days since 2000-01-01), the year as PostgreSQL writes it before
// " BC" (1 BC is year 0 of the proleptic calendar); *bc says whether " BC" follows.
std::string IsoDate(int32_t days, bool *bc) {
    int32_t y, m, d;
    CivilFromDays(days, &y, &m, &d);
    *bc = y <= 0;
    std::string out;
    AppendPadded(out, *bc ? 1 - static_cast<int64_t>(y) : y, 4);
    out += '-';
    AppendPadded(out, m, 2);
    out += '-';
    AppendPadded(out, d, 2);
    return out;
}



Status Invalid(const char *type_name, std::string_view s) {
    return Status::UserError(sqlstate::kInvalidTextRepresentation,
                             std::string("invalid input syntax for type ") + type_name + ": \"" + std::string(s) + "\"");
}

// pg_strtoint16/32/64 (PostgreSQL 15): blanks, a sign, decimal digits, blanks.  The digits are
// accumulated as a negative number and overflow is reported as soon as it happens.
template <class T>
Status ParsePgInt(std::string_view s, const char *type_name, T *out) {
    size_t i = 0;
    const size_t n = s.size();
    while (i < n && PgSpace(s[i])) ++i;
    bool neg = false;
    if (i < n && (s[i] == '-' || s[i] == '+')) neg = s[i++] == '-';
    if (i >= n || !Digit(s[i])) return Invalid(type_name, s);
    T acc = 0;
    bool overflow = false;
    for (; i < n && Digit(s[i]); ++i) {
        if (__builtin_mul_overflow(acc, T(10), &acc) || __builtin_sub_overflow(acc, T(s[i] - '0'), &acc)) {
            overflow = true;
            break;
        }
    }
    if (!overflow) {
        while (i < n && PgSpace(s[i])) ++i;
        if (i != n) return Invalid(type_name, s);
        if (!neg) {
            if (acc == std::numeric_limits<T>::min()) overflow = true;
            else acc = static_cast<T>(-acc);
        }
    }
    if (overflow)
        return Status::UserError(sqlstate::kNumericOutOfRange,
                                 "value \"" + std::string(s) + "\" is out of range for type " + type_name);
    *out = acc;
    return Status::Ok();
}

bool EqualsNoCase(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
    return true;
}
bool PrefixNoCase(std::string_view word, std::string_view full) {
    return !word.empty() && word.size() <= full.size() && EqualsNoCase(word, full.substr(0, word.size()));
}

std::string_view Trim(std::string_view s) {
    while (!s.empty() && PgSpace(s.front())) s.remove_prefix(1);
    while (!s.empty() && PgSpace(s.back())) s.remove_suffix(1);
    return s;
}

// boolin / parse_bool_with_len: blanks trimmed, then a prefix of true/false/yes/no, on/off (two
// letters at least), 1 or 0, in any case.
Status ParsePgBool(std::string_view s, uint8_t *out) {
    const std::string_view t = Trim(s);
    if (!t.empty()) {
        const char c = static_cast<char>(std::tolower(static_cast<unsigned char>(t[0])));
        int v = -1;
        if (c == 't' && PrefixNoCase(t, "true")) v = 1;
        else if (c == 'f' && PrefixNoCase(t, "false")) v = 0;
        else if (c == 'y' && PrefixNoCase(t, "yes")) v = 1;
        else if (c == 'n' && PrefixNoCase(t, "no")) v = 0;
        else if (c == 'o' && t.size() >= 2 && PrefixNoCase(t, "on")) v = 1;
        else if (c == 'o' && t.size() >= 2 && PrefixNoCase(t, "off")) v = 0;
        else if (t == "1") v = 1;
        else if (t == "0") v = 0;
        if (v >= 0) {
            *out = static_cast<uint8_t>(v);
            return Status::Ok();
        }
    }
    return Invalid("boolean", s);
}

locale_t CLocale() {
    static const locale_t loc = newlocale(LC_ALL_MASK, "C", static_cast<locale_t>(0));
    return loc;
}

template <>
double ReadBack<double>(const std::string &text) {
    return strtod_l(text.c_str(), nullptr, CLocale());
}
template <>
float ReadBack<float>(const std::string &text) {
    return strtof_l(text.c_str(), nullptr, CLocale());
}

// float4in/float8in for decimal numbers and the spellings of NaN and the infinities; anything
// else strtod would read (hexadecimal, "nan(...)") is left to PostgreSQL.
template <class T>
Status ParsePgFloat(std::string_view s, const char *type_name, T *out) {
    size_t i = 0;
    const size_t n = s.size();
    while (i < n && PgSpace(s[i])) ++i;
    const size_t start = i;
    const std::string_view body = Trim(s);
    // strtod's names, in any case and with a sign: nan, inf, infinity
    {
        std::string_view w = body;
        bool minus = false;
        if (!w.empty() && (w[0] == '+' || w[0] == '-')) {
            minus = w[0] == '-';
            w.remove_prefix(1);
        }
        if (EqualsNoCase(w, "nan")) {
            *out = std::numeric_limits<T>::quiet_NaN();
            return Status::Ok();
        }
        if (EqualsNoCase(w, "inf") || EqualsNoCase(w, "infinity")) {
            *out = minus ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::infinity();
            return Status::Ok();
        }
    }
    size_t j = start;
    if (j < n && (s[j] == '+' || s[j] == '-')) ++j;
    size_t mant = 0;
    while (j < n && Digit(s[j])) ++j, ++mant;
    if (j < n && s[j] == '.') {
        ++j;
        while (j < n && Digit(s[j])) ++j, ++mant;
    }
    if (mant == 0) {
        // nan(chars), which strtod reads: PostgreSQL decides
        for (size_t k = start; k + 3 < n; ++k)
            if (EqualsNoCase(s.substr(k, 4), "nan(")) return Status::Unsupported(std::string("text read as ") + type_name);
        return Invalid(type_name, s);
    }
    if (j < n && (s[j] == 'e' || s[j] == 'E')) {
        size_t k = j + 1;
        if (k < n && (s[k] == '+' || s[k] == '-')) ++k;
        if (k < n && Digit(s[k])) {
            while (k < n && Digit(s[k])) ++k;
            j = k;
        }
    }
    const size_t end = j;
    while (j < n && PgSpace(s[j])) ++j;
    if (j != n) {
        for (size_t k = start; k < n; ++k)
            if (s[k] == 'x' || s[k] == 'X') return Status::Unsupported(std::string("text read as ") + type_name);
        return Invalid(type_name, s);
    }
    const std::string num(s.substr(start, end - start));
    errno = 0;
    char *stop = nullptr;
    T v;
    if constexpr (std::is_same_v<T, float>) v = strtof_l(num.c_str(), &stop, CLocale());
    else v = strtod_l(num.c_str(), &stop, CLocale());
    if (stop != num.c_str() + num.size()) return Status::Unsupported(std::string("text read as ") + type_name);
    if (errno == ERANGE && (v == 0 || std::isinf(v)))
        return Status::UserError(sqlstate::kNumericOutOfRange, "\"" + num + "\" is out of range for type " + type_name);
    *out = v;
    return Status::Ok();
}

// numeric_in for plain decimals (blanks, a sign, digits with one optional point); the value and
// its display scale (digits after the point).  NaN, infinities, exponents and values past 38
// digits are left to PostgreSQL.
Status ParsePgNumeric(std::string_view s, __int128 *value, int *scale) {
    const std::string_view t = Trim(s);
    size_t i = 0;
    bool neg = false;
    if (i < t.size() && (t[i] == '+' || t[i] == '-')) neg = t[i++] == '-';
    __int128 v = 0;
    int digits = 0, frac = 0;
    bool dot = false, any = false;
    for (; i < t.size(); ++i) {
        const char c = t[i];
        if (c == '.' && !dot) {
            dot = true;
            continue;
        }
        if (!Digit(c)) break;
        any = true;
        if (v != 0 || c != '0') ++digits;
        if (digits > 38 || (dot && frac >= 38)) return Status::Unsupported("numeric text past 38 digits");
        v = v * 10 + (c - '0');
        if (dot) ++frac;
    }
    // an exponent (numeric_in: e or E, an optional sign, digits): the value times 10^exp, display
    // scale max(0, fraction digits - exp)
    int64_t exp = 0;
    if (any && i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
        size_t j = i + 1;
        bool eneg = false;
        if (j < t.size() && (t[j] == '+' || t[j] == '-')) eneg = t[j++] == '-';
        if (j >= t.size() || !Digit(t[j])) {
            if (j < t.size() && std::isspace(static_cast<unsigned char>(t[j])))
                return Status::Unsupported("numeric exponent after blanks");  // strtol's reading: PostgreSQL's
            return Invalid("numeric", s);
        }
        for (; j < t.size() && Digit(t[j]); ++j) {
            exp = exp * 10 + (t[j] - '0');
            if (exp > 1000) return Status::Unsupported("numeric exponent past 1000");
        }
        if (eneg) exp = -exp;
        i = j;
    }
    if (i != t.size() || !any) {
        for (char c : t)
            if (std::isalpha(static_cast<unsigned char>(c))) return Status::Unsupported("numeric text with letters (NaN, Infinity)");
        return Invalid("numeric", s);
    }
    if (v >= Pow10(38)) return Status::Unsupported("numeric text past 38 digits");
    int64_t sc = frac - exp;
    if (sc > 38) return Status::Unsupported("numeric text past 38 fraction digits");
    if (sc < 0) {  // integral: v * 10^-sc
        if (v != 0 && (-sc > 38 || __builtin_mul_overflow(v, Pow10(static_cast<int>(-sc)), &v) || v >= Pow10(38)))
            return Status::Unsupported("numeric text past 38 digits");
        sc = 0;
    }
    *value = neg ? -v : v;
    *scale = static_cast<int>(sc);
    return Status::Ok();
}

int DaysInMonth(int y, int m) {
    static const int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    return m == 2 && leap ? 29 : kDays[m - 1];
}

bool Fixed(std::string_view t, size_t at, size_t len, int *out) {
    if (at + len > t.size()) return false;
    int v = 0;
    for (size_t k = at; k < at + len; ++k) {
        if (!Digit(t[k])) return false;
        v = v * 10 + (t[k] - '0');
    }
    *out = v;
    return true;
}

// The ISO forms: YYYY-MM-DD, then for timestamps optionally " HH:MI[:SS[.f{1,6}]]"; ±infinity.
// Returns false (left to PostgreSQL) for anything else, including values out of range.
bool ParseIsoDate(std::string_view t, int32_t *days, size_t *used) {
    int y, m, d;
    if (!Fixed(t, 0, 4, &y) || t.size() < 10 || t[4] != '-' || !Fixed(t, 5, 2, &m) || t[7] != '-' || !Fixed(t, 8, 2, &d))
        return false;
    if (y < 1 || m < 1 || m > 12 || d < 1 || d > DaysInMonth(y, m)) return false;
    *days = DaysFromCivil(y, m, d);
    *used = 10;
    return true;
}

Status ParsePgDate(std::string_view s, int32_t *out) {
    const std::string_view t = Trim(s);
    if (EqualsNoCase(t, "infinity")) *out = std::numeric_limits<int32_t>::max();
    else if (EqualsNoCase(t, "-infinity")) *out = std::numeric_limits<int32_t>::min();
    else {
        size_t used = 0;
        if (!ParseIsoDate(t, out, &used) || used != t.size()) return Status::Unsupported("date text not in the ISO form YYYY-MM-DD");
    }
    return Status::Ok();
}

Status ParsePgTimestamp(std::string_view s, int64_t *out) {
    const std::string_view t = Trim(s);
    if (EqualsNoCase(t, "infinity")) {
        *out = std::numeric_limits<int64_t>::max();
        return Status::Ok();
    }
    if (EqualsNoCase(t, "-infinity")) {
        *out = std::numeric_limits<int64_t>::min();
        return Status::Ok();
    }
    const Status other = Status::Unsupported("timestamp text not in the ISO form YYYY-MM-DD HH:MI:SS[.ffffff]");
    int32_t days;
    size_t at = 0;
    if (!ParseIsoDate(t, &days, &at)) return other;
    int64_t us = 0;
    if (at < t.size()) {
        int hh, mi, ss = 0;
        if (t[at] != ' ' || !Fixed(t, at + 1, 2, &hh) || at + 3 >= t.size() || t[at + 3] != ':' || !Fixed(t, at + 4, 2, &mi))
            return other;
        at += 6;
        int64_t frac = 0;
        if (at < t.size()) {
            if (t[at] != ':' || !Fixed(t, at + 1, 2, &ss)) return other;
            at += 3;
            if (at < t.size()) {
                if (t[at] != '.') return other;
                ++at;
                int nd = 0;
                for (; at < t.size() && Digit(t[at]); ++at, ++nd) {
                    if (nd == 6) return other;  // PostgreSQL rounds to microseconds
                    frac = frac * 10 + (t[at] - '0');
                }
                if (nd == 0 || at != t.size()) return other;
                for (; nd < 6; ++nd) frac *= 10;
            }
        }
        if (hh > 23 || mi > 59 || ss > 59) return other;
        us = ((static_cast<int64_t>(hh) * 60 + mi) * 60 + ss) * 1000000 + frac;
    }
    *out = static_cast<int64_t>(days) * kDayMicros + us;
    return Status::Ok();
}

}  // namespace

Status PgTimestampFromText(std::string_view s, int64_t *out) { return ParsePgTimestamp(s, out); }

std::string PgFloat8Text(double v) { return ShortestText(v, 15); }
std::string PgFloat4Text(float v) { return ShortestText(v, 6); }

std::string PgDateText(int32_t days) {
    if (days == std::numeric_limits<int32_t>::max()) return "infinity";
    if (days == std::numeric_limits<int32_t>::min()) return "-infinity";
    bool bc = false;
    std::string out = IsoDate(days, &bc);
    if (bc) out += " BC";
    return out;
}

std::string PgTimestampText(int64_t us) {
    if (us == std::numeric_limits<int64_t>::max()) return "infinity";
    if (us == std::numeric_limits<int64_t>::min()) return "-infinity";
    const int64_t day = FloorDivI(us, kDayMicros);
    int64_t tod = us - day * kDayMicros;
    bool bc = false;
    std::string out = IsoDate(static_cast<int32_t>(day), &bc);
    out += ' ';
    const int64_t frac = tod % 1000000;
    tod /= 1000000;
    AppendPadded(out, tod / 3600, 2);
    out += ':';
    AppendPadded(out, tod / 60 % 60, 2);
    out += ':';
    AppendPadded(out, tod % 60, 2);
    if (frac != 0) {
        std::string f;
        AppendPadded(f, frac, 6);
        while (f.back() == '0') f.pop_back();
        out += '.';
        out += f;
    }
    if (bc) out += " BC";
    return out;
}

Expected<Value> KToText(KernelCtx &, const std::vector<Value> &args) {
    RNDN_RETURN_IF_ERROR(NeedVector(args[0], "to_text", 0));
    RNDN_RETURN_IF_ERROR(RuntimeType(Builtin::TO_TEXT, args).status());
    const Vector &a = args[0].vector();
    RNDN_ASSIGN_OR_RETURN(auto out, MakeVector(TypeKind::STR, 0));
    const TypeKind k = a.type.kind;
    std::string s;
    for (int64_t i = 0; i < a.length; ++i) {
        PollCancel(i);
        if (!a.IsValid(i)) {
            out->AppendString("");
            continue;
        }
        switch (k) {
            case TypeKind::BOOL: s = a.Data<uint8_t>()[i] ? "true" : "false"; break;
            case TypeKind::I16: s = std::to_string(a.Data<int16_t>()[i]); break;
            case TypeKind::I32: s = std::to_string(a.Data<int32_t>()[i]); break;
            case TypeKind::I64: s = std::to_string(a.Data<int64_t>()[i]); break;
            case TypeKind::F32: s = PgFloat4Text(a.Data<float>()[i]); break;
            case TypeKind::F64: s = PgFloat8Text(a.Data<double>()[i]); break;
            case TypeKind::DEC64:
            case TypeKind::DEC128: {
                const __int128 x = k == TypeKind::DEC64 ? a.Data<int64_t>()[i] : a.Data<__int128>()[i];
                if (a.type.scale == Type::kUnknownScale) {
                    const int es = a.elem_scale.empty() ? a.scale_max : a.elem_scale[static_cast<size_t>(i)];
                    s = FormatDecimal(RoundShift(x, a.scale_max - es), es);
                } else {
                    s = FormatDecimal(x, a.type.scale);
                }
                break;
            }
            case TypeKind::DATE: s = PgDateText(a.Data<int32_t>()[i]); break;
            case TypeKind::DT: s = PgTimestampText(a.Data<int64_t>()[i]); break;
            case TypeKind::INTERVAL: s = PgIntervalText(a.Data<IntervalValue>()[i]); break;  // IntervalStyle postgres
            case TypeKind::STR:
            case TypeKind::SYM: s = std::string(a.StringAt(i)); break;
            default: return TypeError(std::string("@to_text of ") + TypeToString(a.type));
        }
        out->AppendString(s);
    }
    if (a.HasNulls()) {
        out->EnsureValidity();
        for (int64_t i = 0; i < a.length; ++i)
            if (!a.IsValid(i)) out->SetNull(i);
    }
    return V(out);
}

namespace {
// A dec128<?> vector's storage scale (the largest of its valid elements') and each element's
// display scale; the values, parsed at their own scales, are brought to the storage scale.
Status SetElementScales(const Vector &src, const std::vector<int> &scales, Vector &out) {
    const int64_t n = out.length;
    int smax = 0;
    for (int64_t i = 0; i < n; ++i)
        if (src.IsValid(i)) smax = std::max(smax, scales[static_cast<size_t>(i)]);
    out.scale_max = smax;
    out.elem_scale.assign(static_cast<size_t>(n), 0);
    __int128 *d = out.Data<__int128>();
    for (int64_t i = 0; i < n; ++i) {
        const int sc = scales[static_cast<size_t>(i)];
        out.elem_scale[static_cast<size_t>(i)] = static_cast<uint8_t>(sc);
        if (sc < smax && __builtin_mul_overflow(d[i], Pow10(smax - sc), &d[i]))
            return Status::Unsupported("numeric values whose common scale passes 38 digits");
        if (d[i] >= Pow10(38) || d[i] <= -Pow10(38)) return Status::Unsupported("numeric values whose common scale passes 38 digits");
    }
    return Status::Ok();
}
}  // namespace

Expected<Value> KFromText(KernelCtx &, const std::vector<Value> &args) {
    RNDN_RETURN_IF_ERROR(NeedVector(args[0], "from_text", 0));
    RNDN_RETURN_IF_ERROR(NeedVector(args[1], "from_text", 1));
    RNDN_ASSIGN_OR_RETURN(const Type to, RuntimeType(Builtin::FROM_TEXT, args));
    const Vector &a = args[0].vector();
    const int64_t n = a.length;
    RNDN_ASSIGN_OR_RETURN(auto out, MakeVector(to, n));
    std::vector<int> scales;
    if (IsDecimal(to.kind)) scales.assign(static_cast<size_t>(n), 0);
    for (int64_t i = 0; i < n; ++i) {
        PollCancel(i);
        if (!a.IsValid(i)) continue;
        const std::string_view s = a.StringAt(i);
        switch (to.kind) {
            case TypeKind::I16: RNDN_RETURN_IF_ERROR(ParsePgInt(s, "smallint", &out->Data<int16_t>()[i])); break;
            case TypeKind::I32: RNDN_RETURN_IF_ERROR(ParsePgInt(s, "integer", &out->Data<int32_t>()[i])); break;
            case TypeKind::I64: RNDN_RETURN_IF_ERROR(ParsePgInt(s, "bigint", &out->Data<int64_t>()[i])); break;
            case TypeKind::BOOL: RNDN_RETURN_IF_ERROR(ParsePgBool(s, &out->Data<uint8_t>()[i])); break;
            case TypeKind::F32: RNDN_RETURN_IF_ERROR(ParsePgFloat(s, "real", &out->Data<float>()[i])); break;
            case TypeKind::F64: RNDN_RETURN_IF_ERROR(ParsePgFloat(s, "double precision", &out->Data<double>()[i])); break;
            case TypeKind::DATE: RNDN_RETURN_IF_ERROR(ParsePgDate(s, &out->Data<int32_t>()[i])); break;
            case TypeKind::DT: RNDN_RETURN_IF_ERROR(ParsePgTimestamp(s, &out->Data<int64_t>()[i])); break;
            case TypeKind::INTERVAL: RNDN_RETURN_IF_ERROR(ParsePgInterval(s, &out->Data<IntervalValue>()[i])); break;
            case TypeKind::DEC128:
                RNDN_RETURN_IF_ERROR(ParsePgNumeric(s, &out->Data<__int128>()[i], &scales[static_cast<size_t>(i)]));
                break;
            default: return TypeError("@from_text to " + TypeToString(to));
        }
    }
    if (IsDecimal(to.kind)) RNDN_RETURN_IF_ERROR(SetElementScales(a, scales, *out));
    SetUnaryValidity(a, *out);
    return V(out);
}

// float8::numeric and float4::numeric (float8_numeric, float4_numeric): the value printed with
// %.15g (%.6g for float4, DBL_DIG and FLT_DIG digits), read as numeric_in reads it.  NaN and
// the infinities are numerics rndn does not hold: PostgreSQL's plan answers (run time).
Expected<Value> KFloatNumeric(KernelCtx &, const std::vector<Value> &args) {
    RNDN_RETURN_IF_ERROR(NeedVector(args[0], "float_numeric", 0));
    RNDN_ASSIGN_OR_RETURN(const Type to, RuntimeType(Builtin::FLOAT_NUMERIC, args));
    const Vector &a = args[0].vector();
    const int64_t n = a.length;
    const bool single = a.type.kind == TypeKind::F32;
    RNDN_ASSIGN_OR_RETURN(auto out, MakeVector(to, n));
    std::vector<int> scales(static_cast<size_t>(n), 0);
    char buf[64];
    for (int64_t i = 0; i < n; ++i) {
        PollCancel(i);
        if (!a.IsValid(i)) continue;
        const double x = single ? static_cast<double>(a.Data<float>()[i]) : a.Data<double>()[i];
        if (!std::isfinite(x)) return Status::Unsupported("numeric NaN or Infinity from a float");
        std::snprintf(buf, sizeof buf, "%.*g", single ? 6 : 15, x);
        RNDN_RETURN_IF_ERROR(ParsePgNumeric(buf, &out->Data<__int128>()[i], &scales[static_cast<size_t>(i)]));
    }
    RNDN_RETURN_IF_ERROR(SetElementScales(a, scales, *out));
    SetUnaryValidity(a, *out);
    return V(out);
}

}  // namespace rndn::hir
