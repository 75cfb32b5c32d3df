// Issue 18 (branch tsx18): extract(julian) of a timestamp as PostgreSQL 15's numeric, uuid_in,
// and the varchar(n) / char(n) length coercions.  builtins.def describes the forms.
#include <climits>

#include "horseir/kernel_util.h"

namespace rndn::hir {

namespace {
constexpr int64_t kJulianOf2000 = 2451545;  // date2j(2000, 1, 1), PostgreSQL's POSTGRES_EPOCH_JDATE

// numeric_div's result scale (select_div_scale) for us / 86400000000, both integers of display
// scale 0: 16 significant digits after the quotient's leading base-10000 digit.  The divisor is
// 864|0000|0000 (weight 2, first digit 864); the dividend's weight and first digit decide.
int JulianScale(int64_t us) {
    if (us == 0) return 28;  // a zero dividend: weight 0, first digit 0 (<= 864)
    int weight = us >= 100000000 ? 2 : us >= 10000 ? 1 : 0;
    int64_t first = us;
    for (int i = 0; i < weight; ++i) first /= 10000;
    int qweight = weight - 2;
    if (first <= 864) --qweight;
    return 16 - qweight * 4;
}
}  // namespace

// @julian_num(x:dt) — date2j of the date plus (time of day in microseconds) / 86400000000 at
// JulianScale digits, rounded half away from zero (div_var with round), then added exactly.
Expected<Value> KJulianNum(KernelCtx &, const std::vector<Value> &args) {
    RNDN_RETURN_IF_ERROR(NeedVector(args[0], "julian_num", 0));
    const Vector &a = args[0].vector();
    if (a.type.kind != TypeKind::DT) return TypeError("@julian_num: expects dt, got " + TypeToString(a.type));
    RNDN_ASSIGN_OR_RETURN(auto out, MakeVector(Type::Decimal(TypeKind::DEC128, Type::kUnknownScale), a.length));
    std::vector<int> scales(static_cast<size_t>(a.length), 0);
    __int128 *o = out->Data<__int128>();
    int smax = 0;
    for (int64_t i = 0; i < a.length; ++i) {
        PollCancel(i);
        o[i] = 0;
        if (!a.IsValid(i)) continue;
        const int64_t t = a.Data<int64_t>()[i];
        if (t == INT64_MIN || t == INT64_MAX) return Status::Unsupported("extract(julian) of an infinite timestamp is numeric ±Infinity");
        const int64_t day = FloorDivI(t, kDayMicros);
        const int64_t us = t - day * kDayMicros;
        const int sc = JulianScale(us);
        const __int128 num = static_cast<__int128>(us) * Pow10(sc);  // < 8.64e10 * 1e20, 1e8 * 1e24, 1e4 * 1e28
        const __int128 q = (2 * num + kDayMicros) / (2 * static_cast<__int128>(kDayMicros));
        o[i] = static_cast<__int128>(day + kJulianOf2000) * Pow10(sc) + q;
        scales[static_cast<size_t>(i)] = sc;
        smax = std::max(smax, sc);
    }
    out->scale_max = smax;
    out->elem_scale.assign(static_cast<size_t>(a.length), 0);
    for (int64_t i = 0; i < a.length; ++i) {
        const int sc = scales[static_cast<size_t>(i)];
        out->elem_scale[static_cast<size_t>(i)] = static_cast<uint8_t>(sc);
        o[i] *= Pow10(smax - sc);  // at most 28 - 20 more digits: below 10^38
    }
    SetUnaryValidity(a, *out);
    return V(out);
}

// @uuid_in(s) — PostgreSQL 15's string_to_uuid: optional braces around 32 hexadecimal digits in
// pairs, a hyphen allowed after any group of four (never after the last), nothing else (no
// blanks); the canonical lower-case text out.
Expected<Value> KUuidIn(KernelCtx &, const std::vector<Value> &args) {
    RNDN_RETURN_IF_ERROR(NeedVector(args[0], "uuid_in", 0));
    const Vector &a = args[0].vector();
    if (!IsString(a.type.kind)) return TypeError("@uuid_in: expects a string, got " + TypeToString(a.type));
    RNDN_ASSIGN_OR_RETURN(auto out, MakeVector(TypeKind::STR, 0));
    static constexpr char kHex[] = "0123456789abcdef";
    auto nib = [](char c) -> int {
        return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    };
    for (int64_t i = 0; i < a.length; ++i) {
        PollCancel(i);
        if (!a.IsValid(i)) {
            out->AppendString("");
            continue;
        }
        const std::string_view s = a.StringAt(i);
        auto bad = [&] {
            return Status::UserError(sqlstate::kInvalidTextRepresentation, "invalid input syntax for type uuid: \"" + std::string(s) + "\"");
        };
        size_t k = 0;
        const bool braces = !s.empty() && s[0] == '{';
        if (braces) ++k;
        char txt[36];
        int o = 0;
        for (int b = 0; b < 16; ++b) {
            if (k + 2 > s.size()) return bad();
            const int hi = nib(s[k]), lo = nib(s[k + 1]);
            if (hi < 0 || lo < 0) return bad();
            if (b == 4 || b == 6 || b == 8 || b == 10) txt[o++] = '-';
            txt[o++] = kHex[hi];
            txt[o++] = kHex[lo];
            k += 2;
            if (k < s.size() && s[k] == '-' && b % 2 == 1 && b < 15) ++k;
        }
        if (braces) {
            if (k >= s.size() || s[k] != '}') return bad();
            ++k;
        }
        if (k != s.size()) return bad();
        out->AppendString(std::string_view(txt, sizeof txt));
    }
    SetUnaryValidity(a, *out);
    return V(out);
}

// @str_typmod(s, `varchar|`bpchar, (n, explicit, utf8):i64) — varchar() / bpchar() of
// PostgreSQL 15 (varchar.c): a value longer than n characters (varchar: whose byte length passes
// n) is cut after n characters (pg_mbcharcliplen); an implicit coercion (explicit 0) raises
// "value too long for type character varying(n)" / "character(n)" (22001) unless every cut byte
// is a blank.  bpchar's blank padding is not stored: rndn holds char(n) without trailing blanks.
Expected<Value> KStrTypmod(KernelCtx &, const std::vector<Value> &args) {
    RNDN_RETURN_IF_ERROR(NeedVector(args[0], "str_typmod", 0));
    RNDN_RETURN_IF_ERROR(NeedVector(args[1], "str_typmod", 1));
    RNDN_RETURN_IF_ERROR(NeedVector(args[2], "str_typmod", 2));
    const Vector &a = args[0].vector();
    const Vector &kind = args[1].vector();
    const Vector &spec = args[2].vector();
    if (!IsString(a.type.kind)) return TypeError("@str_typmod: expects a string, got " + TypeToString(a.type));
    if (kind.type.kind != TypeKind::SYM || kind.length != 1 || (kind.StringAt(0) != "varchar" && kind.StringAt(0) != "bpchar"))
        return ShapeError("@str_typmod: the kind is `varchar or `bpchar");
    if (spec.type.kind != TypeKind::I64 || spec.length != 3 || spec.HasNulls() || spec.Data<int64_t>()[0] < 1)
        return ShapeError("@str_typmod: the length is (n >= 1, explicit, utf8):i64");
    const bool bpchar = kind.StringAt(0) == "bpchar";
    const int64_t n = spec.Data<int64_t>()[0];
    const bool is_explicit = spec.Data<int64_t>()[1] != 0, utf8 = spec.Data<int64_t>()[2] != 0;
    RNDN_ASSIGN_OR_RETURN(auto out, MakeVector(TypeKind::STR, 0));
    for (int64_t i = 0; i < a.length; ++i) {
        PollCancel(i);
        if (!a.IsValid(i)) {
            out->AppendString("");
            continue;
        }
        std::string_view s = a.StringAt(i);
        const int64_t len = static_cast<int64_t>(s.size());
        // characters up to n: their byte length (clip), and whether more follow
        int64_t clip = 0, chars = 0;
        if (utf8) {
            while (clip < len && chars < n) {
                clip += (int64_t)Utf8CharLen(static_cast<unsigned char>(s[static_cast<size_t>(clip)]));
                ++chars;
            }
            if (clip > len) return Status::Unsupported("a string ending inside a UTF-8 character (PostgreSQL's plan answers)");
        } else {
            clip = std::min(len, n);
        }
        const bool longer = bpchar ? clip < len : len > n && clip < len;
        if (longer) {
            if (!is_explicit)
                for (int64_t k = clip; k < len; ++k)
                    if (s[static_cast<size_t>(k)] != ' ')
                        return Status::UserError(sqlstate::kStringDataRightTruncation,
                                                 std::string("value too long for type ") + (bpchar ? "character(" : "character varying(") +
                                                     std::to_string(n) + ")");
            s = s.substr(0, static_cast<size_t>(clip));
        }
        if (bpchar)
            while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
        out->AppendString(s);
    }
    SetUnaryValidity(a, *out);
    return V(out);
}

}  // namespace rndn::hir
