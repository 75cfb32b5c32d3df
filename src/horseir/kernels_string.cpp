// Kernels of the string builtins of string_fns.def: one broadcasting driver over the rows'
// per-element functions, which follow PostgreSQL 15's varlena.c / oracle_compat.c /
// formatting.c / regexp.c on UTF-8 text (characters are code points, found by the lead byte
// as pg_utf_mblen does).
#include <clocale>
#include <cstring>
#include <cwctype>
#include <map>
#include <mutex>

#include "horseir/kernel_util.h"
#include "horseir/regex.h"

namespace rndn::hir {

namespace {

struct SA {
    std::string_view s;
    int64_t i = 0;
    bool null = false;
};
struct Res {
    std::string s;
    int64_t i = 0;
    bool null = false;
};
// Per-call state: the compiled pattern (the pattern and flags are constants of the query).
struct StrState {
    std::string pattern, flags;
    std::shared_ptr<const regex::Program> prog;
    regex::Text text;
    std::vector<std::pair<long, long>> caps;
};
using Impl = Status (*)(const SA *a, size_t n, Res &r, StrState &st);

const SqlState kProgramLimit{"54000"};


// Byte offsets of the characters of s, plus s.size() at the end.
std::vector<size_t> CharStarts(std::string_view s) {
    std::vector<size_t> out;
    size_t i = 0;
    while (i < s.size()) {
        out.push_back(i);
        i += std::min(Utf8CharLen(static_cast<unsigned char>(s[i])), s.size() - i);
    }
    out.push_back(s.size());
    return out;
}
int64_t NumChars(std::string_view s) { return static_cast<int64_t>(CharStarts(s).size()) - 1; }
// The first k characters (k clamped to [0, chars]).
std::string_view FirstChars(std::string_view s, int64_t k) {
    const auto cs = CharStarts(s);
    const int64_t n = static_cast<int64_t>(cs.size()) - 1;
    k = std::clamp<int64_t>(k, 0, n);
    return s.substr(0, cs[static_cast<size_t>(k)]);
}
std::string_view DropChars(std::string_view s, int64_t k) {
    const auto cs = CharStarts(s);
    const int64_t n = static_cast<int64_t>(cs.size()) - 1;
    k = std::clamp<int64_t>(k, 0, n);
    return s.substr(cs[static_cast<size_t>(k)]);
}

void Utf8Append(std::string &out, char32_t c) {
    if (c < 0x80) {
        out += static_cast<char>(c);
    } else if (c < 0x800) {
        out += static_cast<char>(0xC0 | (c >> 6));
        out += static_cast<char>(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
        out += static_cast<char>(0xE0 | (c >> 12));
        out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (c & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (c >> 18));
        out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (c & 0x3F));
    }
}

Status FnPosition(const SA *a, size_t, Res &r, StrState &) {
    // text_position: an empty needle matches at 1; the result counts characters
    if (a[1].s.empty()) return r.i = 1, Status::Ok();
    const size_t at = a[0].s.find(a[1].s);
    r.i = at == std::string_view::npos ? 0 : NumChars(a[0].s.substr(0, at)) + 1;
    return Status::Ok();
}
Status FnLeft(const SA *a, size_t, Res &r, StrState &) {
    const int64_t n = a[1].i;
    r.s = n >= 0 ? FirstChars(a[0].s, n) : FirstChars(a[0].s, NumChars(a[0].s) + n);
    return Status::Ok();
}
Status FnRight(const SA *a, size_t, Res &r, StrState &) {
    const int64_t n = a[1].i;
    r.s = n >= 0 ? DropChars(a[0].s, NumChars(a[0].s) - n) : DropChars(a[0].s, -n);
    return Status::Ok();
}
// dotrim: characters of the set compared as byte sequences
Status Trim(const SA *a, Res &r, bool left, bool right) {
    const std::string_view s = a[0].s, set = a[1].s;
    const auto sc = CharStarts(set);
    auto in_set = [&](std::string_view ch) {
        for (size_t k = 0; k + 1 < sc.size(); ++k)
            if (set.substr(sc[k], sc[k + 1] - sc[k]) == ch) return true;
        return false;
    };
    const auto cs = CharStarts(s);
    size_t b = 0, e = cs.size() - 1;  // characters [b, e)
    if (left)
        while (b < e && in_set(s.substr(cs[b], cs[b + 1] - cs[b]))) ++b;
    if (right)
        while (e > b && in_set(s.substr(cs[e - 1], cs[e] - cs[e - 1]))) --e;
    r.s = s.substr(cs[b], cs[e] - cs[b]);
    return Status::Ok();
}
Status FnBtrim(const SA *a, size_t, Res &r, StrState &) { return Trim(a, r, true, true); }
Status FnLtrim(const SA *a, size_t, Res &r, StrState &) { return Trim(a, r, true, false); }
Status FnRtrim(const SA *a, size_t, Res &r, StrState &) { return Trim(a, r, false, true); }
Status FnReplace(const SA *a, size_t, Res &r, StrState &) {
    const std::string_view s = a[0].s, from = a[1].s, to = a[2].s;
    if (s.empty() || from.empty()) return r.s = s, Status::Ok();
    size_t pos = 0;
    for (;;) {
        const size_t at = s.find(from, pos);
        if (at == std::string_view::npos) break;
        r.s.append(s.substr(pos, at - pos));
        r.s.append(to);
        pos = at + from.size();
    }
    r.s.append(s.substr(pos));
    return Status::Ok();
}
Status FnConcat(const SA *a, size_t n, Res &r, StrState &) {
    for (size_t k = 0; k < n; ++k) r.s.append(a[k].s);
    return Status::Ok();
}
Status FnConcatWs(const SA *a, size_t n, Res &r, StrState &) {
    // concat_ws: a NULL separator gives NULL; NULL arguments are skipped
    if (a[0].null) return r.null = true, Status::Ok();
    bool first = true;
    for (size_t k = 1; k < n; ++k) {
        if (a[k].null) continue;
        if (!first) r.s.append(a[0].s);
        r.s.append(a[k].s);
        first = false;
    }
    return Status::Ok();
}
Status FnSplitPart(const SA *a, size_t, Res &r, StrState &) {
    const std::string_view s = a[0].s, d = a[1].s;
    int64_t f = a[2].i;
    if (f == 0) return Status::UserError(sqlstate::kInvalidParameter, "field position must not be zero");
    if (s.empty()) return Status::Ok();
    if (d.empty() || s.find(d) == std::string_view::npos) {
        if (f == 1 || f == -1) r.s = s;
        return Status::Ok();
    }
    std::vector<std::string_view> fields;
    size_t pos = 0;
    for (;;) {
        const size_t at = s.find(d, pos);
        if (at == std::string_view::npos) break;
        fields.push_back(s.substr(pos, at - pos));
        pos = at + d.size();
    }
    fields.push_back(s.substr(pos));
    const int64_t nf = static_cast<int64_t>(fields.size());
    const int64_t idx = f > 0 ? f - 1 : nf + f;
    if (idx >= 0 && idx < nf) r.s = fields[static_cast<size_t>(idx)];
    return Status::Ok();
}
Status FnRepeat(const SA *a, size_t, Res &r, StrState &) {
    const int64_t n = std::max<int64_t>(a[1].i, 0);
    const int64_t len = static_cast<int64_t>(a[0].s.size());
    if (n > INT32_MAX || (len > 0 && n > (0x3fffffffLL - 4) / len)) return Status::UserError(kProgramLimit, "requested length too large");
    r.s.reserve(static_cast<size_t>(n * len));
    for (int64_t k = 0; k < n; ++k) {
        PollCancel(k);
        r.s.append(a[0].s);
    }
    return Status::Ok();
}
Status FnReverse(const SA *a, size_t, Res &r, StrState &) {
    const auto cs = CharStarts(a[0].s);
    for (size_t k = cs.size() - 1; k > 0; --k) r.s.append(a[0].s.substr(cs[k - 1], cs[k] - cs[k - 1]));
    return Status::Ok();
}
Status FnStartsWith(const SA *a, size_t, Res &r, StrState &) {
    r.i = a[0].s.substr(0, a[1].s.size()) == a[1].s;
    return Status::Ok();
}
Status Pad(const SA *a, Res &r, bool left) {
    int64_t len = std::max<int64_t>(a[1].i, 0);
    if (len > (0x3fffffffLL - 4) / 4) return Status::UserError(kProgramLimit, "requested length too large");
    const std::string_view s = a[0].s, fill = a[2].s;
    int64_t s1 = NumChars(s);
    if (s1 > len) s1 = len;
    if (fill.empty()) len = s1;
    std::string pad;
    const auto fc = CharStarts(fill);
    for (int64_t k = 0, m = len - s1; k < m; ++k) {
        const size_t c = static_cast<size_t>(k) % (fc.size() - 1);
        pad.append(fill.substr(fc[c], fc[c + 1] - fc[c]));
    }
    const std::string_view body = FirstChars(s, s1);
    r.s = left ? pad + std::string(body) : std::string(body) + pad;
    return Status::Ok();
}
Status FnLpad(const SA *a, size_t, Res &r, StrState &) { return Pad(a, r, true); }
Status FnRpad(const SA *a, size_t, Res &r, StrState &) { return Pad(a, r, false); }

// ---- case mapping (formatting.c str_toupper/str_tolower/str_initcap)
// ctype "C" (or "POSIX"): ASCII letters only (pg_ascii_toupper); "libc:NAME": each character
// through towupper_l / towlower_l / iswalnum_l of the locale NAME (PostgreSQL's wide-character
// path of a multi-byte database, with the collation's locale_t or the database's LC_CTYPE).
Expected<locale_t> CtypeLocale(std::string_view ctype) {
    static std::mutex mu;
    static std::map<std::string, locale_t, std::less<>> cache;
    std::lock_guard<std::mutex> lock(mu);
    auto it = cache.find(ctype);
    if (it != cache.end()) return it->second;
    if (ctype.rfind("libc:", 0) != 0) return Status::Unsupported("ctype '" + std::string(ctype) + "' (expects C or libc:NAME)");
    const std::string name(ctype.substr(5));
    locale_t loc = newlocale(LC_CTYPE_MASK, name.c_str(), static_cast<locale_t>(0));
    if (loc == static_cast<locale_t>(0)) return Status::Unsupported("locale \"" + name + "\" is not available to rndn");
    cache.emplace(std::string(ctype), loc);
    return loc;
}
bool AsciiCtype(std::string_view c) { return c == "C" || c == "POSIX"; }

enum class Case { UPPER, LOWER, INITCAP };
Status MapCase(const SA *a, Res &r, Case mode) {
    const std::string_view s = a[0].s;
    if (AsciiCtype(a[1].s)) {
        bool wasalnum = false;
        r.s.assign(s);
        for (char &ch : r.s) {
            const char c = ch;
            const bool up = mode == Case::UPPER || (mode == Case::INITCAP && !wasalnum);
            if (up && c >= 'a' && c <= 'z') ch = static_cast<char>(c - 32);
            if (!up && c >= 'A' && c <= 'Z') ch = static_cast<char>(c + 32);
            wasalnum = (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9');
        }
        return Status::Ok();
    }
    RNDN_ASSIGN_OR_RETURN(locale_t loc, CtypeLocale(a[1].s));
    regex::Text t;
    regex::Decode(s, t);
    bool wasalnum = false;
    for (char32_t c : t.cp) {
        const bool up = mode == Case::UPPER || (mode == Case::INITCAP && !wasalnum);
        const wint_t m = up ? towupper_l(static_cast<wint_t>(c), loc) : towlower_l(static_cast<wint_t>(c), loc);
        wasalnum = iswalnum_l(m, loc) != 0;
        Utf8Append(r.s, static_cast<char32_t>(m));
    }
    return Status::Ok();
}
Status FnUpper(const SA *a, size_t, Res &r, StrState &) { return MapCase(a, r, Case::UPPER); }
Status FnLower(const SA *a, size_t, Res &r, StrState &) { return MapCase(a, r, Case::LOWER); }
Status FnInitcap(const SA *a, size_t, Res &r, StrState &) { return MapCase(a, r, Case::INITCAP); }

// ---- regular expressions (regexp.c): flags i (ASCII case folding) and g (every match)
Status Prepare(StrState &st, std::string_view pattern, std::string_view flags) {
    if (st.prog && st.pattern == pattern && st.flags == flags) return Status::Ok();
    regex::Options o;
    for (char f : flags) {
        if (f == 'i') o.icase = true;
        else if (f == 'c') o.icase = false;
        else if (f != 'g') return Status::Unsupported("regular expression flag '" + std::string(1, f) + "'");
    }
    RNDN_ASSIGN_OR_RETURN(st.prog, regex::Compile(pattern, o));
    st.pattern = pattern;
    st.flags = flags;
    return Status::Ok();
}
Status FnRegexMatch(const SA *a, size_t, Res &r, StrState &st) {
    RNDN_RETURN_IF_ERROR(Prepare(st, a[1].s, a[2].s));
    regex::Decode(a[0].s, st.text);
    r.i = regex::Exists(*st.prog, st.text);
    return Status::Ok();
}
// replace_text_regexp with appendStringInfoRegexpSubstr's escapes: \1..\9 a capture (nothing
// when unset), \& the match, \\ one backslash, a backslash before anything else stays
Status FnRegexReplace(const SA *a, size_t, Res &r, StrState &st) {
    RNDN_RETURN_IF_ERROR(Prepare(st, a[1].s, a[3].s));
    const bool glob = a[3].s.find('g') != std::string_view::npos;
    const std::string_view s = a[0].s, rep = a[2].s;
    regex::Text &t = st.text;
    regex::Decode(s, t);
    const size_t n = t.cp.size();
    if (!regex::Exists(*st.prog, t)) {  // one linear pass settles the rows without a match
        r.s = s;
        return Status::Ok();
    }
    size_t search = 0, data = 0;
    while (search <= n && regex::Search(*st.prog, t, search, st.caps)) {
        const size_t so = static_cast<size_t>(st.caps[0].first), eo = static_cast<size_t>(st.caps[0].second);
        r.s.append(s.substr(t.off[data], t.off[so] - t.off[data]));
        for (size_t p = 0; p < rep.size();) {
            const size_t bs = rep.find('\\', p);
            const size_t stop = bs == std::string_view::npos ? rep.size() : bs;
            r.s.append(rep.substr(p, stop - p));
            if (stop >= rep.size()) break;
            p = stop + 1;
            if (p >= rep.size()) {
                r.s += '\\';
                break;
            }
            long cs = -1, ce = -1;
            const char c = rep[p];
            if (c >= '1' && c <= '9') {
                const size_t k = static_cast<size_t>(c - '0');
                if (k < st.caps.size()) cs = st.caps[k].first, ce = st.caps[k].second;
                ++p;
            } else if (c == '&') {
                cs = st.caps[0].first, ce = st.caps[0].second;
                ++p;
            } else if (c == '\\') {
                r.s += '\\';
                ++p;
                continue;
            } else {
                r.s += '\\';
                continue;
            }
            if (cs >= 0 && ce >= 0)
                r.s.append(s.substr(t.off[static_cast<size_t>(cs)], t.off[static_cast<size_t>(ce)] - t.off[static_cast<size_t>(cs)]));
        }
        data = eo;
        if (!glob) break;
        search = data + (so == eo ? 1 : 0);
    }
    r.s.append(s.substr(t.off[data]));
    return Status::Ok();
}

// The driver: arguments checked and broadcast, NULLs by the row's NULLS column.
// Well-formed UTF-8 without NUL, as PostgreSQL's pg_verify_mbstr accepts it (no overlong forms,
// no surrogates, nothing above U+10FFFF).  Text that is not (a value built from bytes, a truncated
// character) is left to PostgreSQL's plan: its functions raise an error or skip such bytes.
bool WellFormedUtf8(std::string_view s) {
    const auto *p = reinterpret_cast<const unsigned char *>(s.data());
    const size_t n = s.size();
    for (size_t i = 0; i < n;) {
        const unsigned c = p[i];
        if (c < 0x80) {
            if (c == 0) return false;
            ++i;
            continue;
        }
        size_t len;
        unsigned lo = 0x80, hi = 0xBF;
        if (c >= 0xC2 && c <= 0xDF) len = 2;
        else if (c >= 0xE0 && c <= 0xEF) len = 3, lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
        else if (c >= 0xF0 && c <= 0xF4) len = 4, lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
        else return false;
        if (i + len > n || p[i + 1] < lo || p[i + 1] > hi) return false;
        for (size_t k = 2; k < len; ++k)
            if (p[i + k] < 0x80 || p[i + k] > 0xBF) return false;
        i += len;
    }
    return true;
}

Expected<Value> RunStr(Builtin b, std::string_view sig, Impl f, const std::vector<Value> &args) {
    const char *name = BuiltinName(b);
    for (size_t k = 0; k < args.size(); ++k) RNDN_RETURN_IF_ERROR(NeedVector(args[k], name, static_cast<int>(k)));
    {
        std::vector<Type> types;
        std::vector<const FuncRef *> funcs;
        for (const auto &a : args) types.push_back(a.type()), funcs.push_back(nullptr);
        RuleCtx ctx{types, funcs, nullptr};
        auto rt = GetBuiltin(b).rule(ctx);
        if (!rt.ok()) return TypeError(std::string("@") + name + ": " + rt.status().message());
    }
    std::vector<std::shared_ptr<const Vector>> in;
    int64_t n = 1;
    bool first = true;
    for (const Value &v : args) {
        std::shared_ptr<const Vector> p = v.vector_ptr();
        if (!IsString(p->type.kind)) {
            RNDN_ASSIGN_OR_RETURN(p, As(p, TypeKind::I64));
        }
        if (first) {
            n = p->length;
        } else {
            RNDN_ASSIGN_OR_RETURN(n, BroadcastLength(n, p->length, name));
        }
        first = false;
        in.push_back(std::move(p));
    }
    const bool keep_nulls = GetBuiltin(b).nulls == NullRule::KEEP;
    const TypeKind rk = sig[0] == 's' ? TypeKind::STR : sig[0] == 'b' ? TypeKind::BOOL : TypeKind::I32;
    RNDN_ASSIGN_OR_RETURN(auto out, MakeVector(rk, rk == TypeKind::STR ? 0 : n));
    std::vector<SA> sa(in.size());
    StrState st;
    Res r;
    for (int64_t i = 0; i < n; ++i) {
        PollCancel(i);
        bool null = false;
        for (size_t k = 0; k < in.size(); ++k) {
            const Vector &v = *in[k];
            const int64_t j = v.length == 1 ? 0 : i;
            sa[k].null = !v.IsValid(j);
            null |= sa[k].null;
            if (sa[k].null) continue;
            if (IsString(v.type.kind)) {
                sa[k].s = v.StringAt(j);
                if (!WellFormedUtf8(sa[k].s))
                    return Status::Unsupported(std::string("@") + name + " of text that is not well-formed UTF-8");
            } else {
                sa[k].i = v.Data<int64_t>()[j];
            }
        }
        r.s.clear();
        r.i = 0;
        r.null = null && !keep_nulls;
        if (!r.null) RNDN_RETURN_IF_ERROR(f(sa.data(), sa.size(), r, st));
        if (rk == TypeKind::STR) out->AppendString(r.s);
        else if (rk == TypeKind::BOOL) out->Data<uint8_t>()[i] = static_cast<uint8_t>(r.i);
        else out->Data<int32_t>()[i] = static_cast<int32_t>(r.i);
        if (r.null) out->SetNull(i);
    }
    return V(out);
}

}  // namespace

#define STR_FN(ID, SIG, IMPL) \
    Expected<Value> KStr_##ID(KernelCtx &, const std::vector<Value> &args) { return RunStr(Builtin::ID, SIG, IMPL, args); }
#include "horseir/string_fns.def"
#undef STR_FN

}  // namespace rndn::hir
