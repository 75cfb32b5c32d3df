// to_char(timestamp, format) as PostgreSQL 15 writes it (utils/adt/formatting.c, the "DCH"
// date/time patterns):
//   @to_char(x, fmt)   x dt (a timestamp, or a timestamptz already turned into its wall time by
//                      @tz_local), fmt one string: each element of x written by the pattern.
//                      An infinite timestamp or an empty pattern gives NULL, as PostgreSQL does.
//
// The pattern is read the way PostgreSQL's parse_format reads it: at each position an optional
// FM/TM prefix, then the first keyword of kKeywords (in that order) the text starts with, then an
// optional TH/th/SP postfix; text that is no keyword is copied (double quotes copy their content,
// a backslash inside them takes the next character literally, and outside them only before a
// double quote).  A prefix with no keyword after it is dropped, as there.
//
// CheckToCharFormat says at plan time which patterns this writes exactly: TM on a name (the
// lc_time locale's names), SP (PostgreSQL ignores it but documents it as unimplemented) and, for
// a timestamptz, the zone patterns (TZ, tz, TZH, TZM, OF: the zone's abbreviation and offset) are
// left to PostgreSQL.
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "horseir/kernel_util.h"

namespace rndn::hir {

namespace {

enum class Dk : uint8_t {
    A_D_DOTS, A_M_DOTS, AD, AM, B_C_DOTS, BC, CC, DAY, DDD, DD, DY, DAY_CAP, DY_CAP, D, FF1, FF2, FF3, FF4, FF5, FF6, FX,
    HH24, HH12, HH, IDDD, ID, IW, IYYY, IYY, IY, I, J, MI, MM, MONTH, MON, MS, MONTH_CAP, MON_CAP, OF, P_M_DOTS, PM, Q, RM,
    SSSS, SS, TZH, TZM, TZ, US, WW, W, Y_YYY, YYYY, YYY, YY, Y, a_d_dots, a_m_dots, ad, am, b_c_dots, bc, day, dy,
    month, mon, p_m_dots, pm, rm, tz
};

struct Keyword {
    const char *text;
    Dk id;
    bool name;  // a month or day name (TM gives the locale's)
};

// PostgreSQL 15's DCH keywords in its table order: the first one the text starts with wins
// (index_seq_search scans the entries that share the text's first character in this order).
constexpr Keyword kKeywords[] = {
    {"A.D.", Dk::A_D_DOTS, false}, {"A.M.", Dk::A_M_DOTS, false}, {"AD", Dk::AD, false},       {"AM", Dk::AM, false},
    {"B.C.", Dk::B_C_DOTS, false}, {"BC", Dk::BC, false},         {"CC", Dk::CC, false},       {"DAY", Dk::DAY, true},
    {"DDD", Dk::DDD, false},       {"DD", Dk::DD, false},         {"DY", Dk::DY, true},        {"Day", Dk::DAY_CAP, true},
    {"Dy", Dk::DY_CAP, true},      {"D", Dk::D, false},           {"FF1", Dk::FF1, false},     {"FF2", Dk::FF2, false},
    {"FF3", Dk::FF3, false},       {"FF4", Dk::FF4, false},       {"FF5", Dk::FF5, false},     {"FF6", Dk::FF6, false},
    {"FX", Dk::FX, false},         {"HH24", Dk::HH24, false},     {"HH12", Dk::HH12, false},   {"HH", Dk::HH, false},
    {"IDDD", Dk::IDDD, false},     {"ID", Dk::ID, false},         {"IW", Dk::IW, false},       {"IYYY", Dk::IYYY, false},
    {"IYY", Dk::IYY, false},       {"IY", Dk::IY, false},         {"I", Dk::I, false},         {"J", Dk::J, false},
    {"MI", Dk::MI, false},         {"MM", Dk::MM, false},         {"MONTH", Dk::MONTH, true},  {"MON", Dk::MON, true},
    {"MS", Dk::MS, false},         {"Month", Dk::MONTH_CAP, true}, {"Mon", Dk::MON_CAP, true}, {"OF", Dk::OF, false},
    {"P.M.", Dk::P_M_DOTS, false}, {"PM", Dk::PM, false},         {"Q", Dk::Q, false},         {"RM", Dk::RM, false},
    {"SSSSS", Dk::SSSS, false},    {"SSSS", Dk::SSSS, false},     {"SS", Dk::SS, false},       {"TZH", Dk::TZH, false},
    {"TZM", Dk::TZM, false},       {"TZ", Dk::TZ, false},         {"US", Dk::US, false},       {"WW", Dk::WW, false},
    {"W", Dk::W, false},           {"Y,YYY", Dk::Y_YYY, false},   {"YYYY", Dk::YYYY, false},   {"YYY", Dk::YYY, false},
    {"YY", Dk::YY, false},         {"Y", Dk::Y, false},           {"a.d.", Dk::a_d_dots, false}, {"a.m.", Dk::a_m_dots, false},
    {"ad", Dk::ad, false},         {"am", Dk::am, false},         {"b.c.", Dk::b_c_dots, false}, {"bc", Dk::bc, false},
    {"cc", Dk::CC, false},         {"day", Dk::day, true},        {"ddd", Dk::DDD, false},     {"dd", Dk::DD, false},
    {"dy", Dk::dy, true},          {"d", Dk::D, false},           {"ff1", Dk::FF1, false},     {"ff2", Dk::FF2, false},
    {"ff3", Dk::FF3, false},       {"ff4", Dk::FF4, false},       {"ff5", Dk::FF5, false},     {"ff6", Dk::FF6, false},
    {"fx", Dk::FX, false},         {"hh24", Dk::HH24, false},     {"hh12", Dk::HH12, false},   {"hh", Dk::HH, false},
    {"iddd", Dk::IDDD, false},     {"id", Dk::ID, false},         {"iw", Dk::IW, false},       {"iyyy", Dk::IYYY, false},
    {"iyy", Dk::IYY, false},       {"iy", Dk::IY, false},         {"i", Dk::I, false},         {"j", Dk::J, false},
    {"mi", Dk::MI, false},         {"mm", Dk::MM, false},         {"month", Dk::month, true},  {"mon", Dk::mon, true},
    {"ms", Dk::MS, false},         {"of", Dk::OF, false},         {"p.m.", Dk::p_m_dots, false}, {"pm", Dk::pm, false},
    {"q", Dk::Q, false},           {"rm", Dk::rm, false},         {"sssss", Dk::SSSS, false},  {"ssss", Dk::SSSS, false},
    {"ss", Dk::SS, false},         {"tzh", Dk::TZH, false},       {"tzm", Dk::TZM, false},     {"tz", Dk::tz, false},
    {"us", Dk::US, false},         {"ww", Dk::WW, false},         {"w", Dk::W, false},         {"y,yyy", Dk::Y_YYY, false},
    {"yyyy", Dk::YYYY, false},     {"yyy", Dk::YYY, false},       {"yy", Dk::YY, false},       {"y", Dk::Y, false},
};

enum : uint8_t { S_FM = 1, S_TM = 2, S_TH = 4, S_th = 8, S_SP = 16 };
struct Suffix {
    const char *text;
    uint8_t id;
    bool prefix;
};
constexpr Suffix kSuffixes[] = {{"FM", S_FM, true},  {"fm", S_FM, true},  {"TM", S_TM, true}, {"tm", S_TM, true},
                                {"TH", S_TH, false}, {"th", S_th, false}, {"SP", S_SP, false}};

struct Node {
    bool action = false;
    Dk id = Dk::FX;
    uint8_t suffix = 0;
    bool name = false;
    std::string text;  // !action: the characters copied
};

bool StartsWith(std::string_view s, const char *p) {
    const size_t n = std::strlen(p);
    return s.size() >= n && s.compare(0, n, p) == 0;
}

const Suffix *FindSuffix(std::string_view s, bool prefix) {
    for (const auto &x : kSuffixes)
        if (x.prefix == prefix && StartsWith(s, x.text)) return &x;
    return nullptr;
}

const Keyword *FindKeyword(std::string_view s) {
    for (const auto &k : kKeywords)
        if (k.text[0] == s[0] && StartsWith(s, k.text)) return &k;
    return nullptr;
}

std::vector<Node> ParseFormat(std::string_view f) {
    std::vector<Node> out;
    size_t i = 0;
    auto literal = [&](char c) {
        if (out.empty() || out.back().action) out.emplace_back();
        out.back().text.push_back(c);
    };
    while (i < f.size()) {
        uint8_t suffix = 0;
        if (const Suffix *p = FindSuffix(f.substr(i), true)) {
            suffix = p->id;
            i += std::strlen(p->text);
        }
        if (i >= f.size()) break;
        if (const Keyword *k = FindKeyword(f.substr(i))) {
            Node n;
            n.action = true;
            n.id = k->id;
            n.name = k->name;
            n.suffix = suffix;
            i += std::strlen(k->text);
            if (i < f.size())
                if (const Suffix *p = FindSuffix(f.substr(i), false)) {
                    n.suffix |= p->id;
                    i += std::strlen(p->text);
                }
            out.push_back(std::move(n));
        } else if (f[i] == '"') {
            ++i;
            while (i < f.size()) {
                if (f[i] == '"') {
                    ++i;
                    break;
                }
                if (f[i] == '\\' && i + 1 < f.size()) ++i;
                literal(f[i++]);
            }
        } else {
            if (f[i] == '\\' && i + 1 < f.size() && f[i + 1] == '"') ++i;
            literal(f[i++]);
        }
    }
    return out;
}

constexpr const char *kMonths[] = {"January", "February", "March",     "April",   "May",      "June",
                                   "July",    "August",   "September", "October", "November", "December"};
constexpr const char *kDays[] = {"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"};
constexpr const char *kRoman[] = {"I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII"};

// One timestamp's broken-down parts (astronomical year: 1 BC is 0).
struct Tm {
    int64_t day;  // days after 2000-01-01
    int32_t year, mon, mday;
    int64_t hour, min, sec, usec;
    int64_t wday;  // 0 Sunday
    int64_t yday;  // 1-based
    int64_t isoweek, isoyear;  // ISO 8601 week and week-numbering year (astronomical)
};

int64_t AdjustYear(int64_t y) { return y <= 0 ? -(y - 1) : y; }  // 1 BC prints as 1

std::string Padded(int64_t v, int width) {  // printf("%0*lld", width, v)
    char buf[32];
    std::snprintf(buf, sizeof buf, "%0*lld", width, static_cast<long long>(v));
    return buf;
}
std::string Name(const std::string &s, bool fm, int width) {  // printf("%-*s", width, s)
    if (fm || static_cast<int>(s.size()) >= width) return s;
    return s + std::string(static_cast<size_t>(width) - s.size(), ' ');
}
std::string Upper(std::string s) {
    for (char &c : s)
        if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    return s;
}
std::string Lower(std::string s) {
    for (char &c : s)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return s;
}
// The ordinal suffix PostgreSQL's get_th gives a written number: teens th, else by the last digit.
void AppendTh(std::string &s, bool upper) {
    const size_t n = s.size();
    char last = s[n - 1];
    if (n > 1 && s[n - 2] == '1') last = '0';
    const char *t = last == '1' ? "st" : last == '2' ? "nd" : last == '3' ? "rd" : "th";
    s += upper ? Upper(t) : std::string(t);
}

void Write(const std::vector<Node> &nodes, const Tm &tm, std::string &out) {
    for (const Node &n : nodes) {
        if (!n.action) {
            out += n.text;
            continue;
        }
        const bool fm = n.suffix & S_FM;
        const bool pm = tm.hour % 24 >= 12;
        std::string s;
        bool number = true;
        switch (n.id) {
            case Dk::A_M_DOTS:
            case Dk::P_M_DOTS: s = pm ? "P.M." : "A.M."; number = false; break;
            case Dk::AM:
            case Dk::PM: s = pm ? "PM" : "AM"; number = false; break;
            case Dk::a_m_dots:
            case Dk::p_m_dots: s = pm ? "p.m." : "a.m."; number = false; break;
            case Dk::am:
            case Dk::pm: s = pm ? "pm" : "am"; number = false; break;
            case Dk::HH:
            case Dk::HH12: s = Padded(tm.hour % 12 == 0 ? 12 : tm.hour % 12, fm ? 0 : 2); break;
            case Dk::HH24: s = Padded(tm.hour, fm ? 0 : 2); break;
            case Dk::MI: s = Padded(tm.min, fm ? 0 : 2); break;
            case Dk::SS: s = Padded(tm.sec, fm ? 0 : 2); break;
            case Dk::FF1: s = Padded(tm.usec / 100000, 1); break;
            case Dk::FF2: s = Padded(tm.usec / 10000, 2); break;
            case Dk::FF3:
            case Dk::MS: s = Padded(tm.usec / 1000, 3); break;
            case Dk::FF4: s = Padded(tm.usec / 100, 4); break;
            case Dk::FF5: s = Padded(tm.usec / 10, 5); break;
            case Dk::FF6:
            case Dk::US: s = Padded(tm.usec, 6); break;
            case Dk::SSSS: s = std::to_string(tm.hour * 3600 + tm.min * 60 + tm.sec); break;
            case Dk::TZ:
            case Dk::tz: number = false; break;  // a timestamp has no zone abbreviation
            case Dk::TZH: s = "+00"; number = false; break;
            case Dk::TZM: s = "00"; number = false; break;
            case Dk::OF: s = fm ? "+0" : "+00"; number = false; break;
            case Dk::A_D_DOTS:
            case Dk::B_C_DOTS: s = tm.year <= 0 ? "B.C." : "A.D."; number = false; break;
            case Dk::AD:
            case Dk::BC: s = tm.year <= 0 ? "BC" : "AD"; number = false; break;
            case Dk::a_d_dots:
            case Dk::b_c_dots: s = tm.year <= 0 ? "b.c." : "a.d."; number = false; break;
            case Dk::ad:
            case Dk::bc: s = tm.year <= 0 ? "bc" : "ad"; number = false; break;
            case Dk::MONTH: s = Name(Upper(kMonths[tm.mon - 1]), fm, 9); number = false; break;
            case Dk::MONTH_CAP: s = Name(kMonths[tm.mon - 1], fm, 9); number = false; break;
            case Dk::month: s = Name(Lower(kMonths[tm.mon - 1]), fm, 9); number = false; break;
            case Dk::MON: s = Upper(std::string(kMonths[tm.mon - 1], 3)); number = false; break;
            case Dk::MON_CAP: s = std::string(kMonths[tm.mon - 1], 3); number = false; break;
            case Dk::mon: s = Lower(std::string(kMonths[tm.mon - 1], 3)); number = false; break;
            case Dk::MM: s = Padded(tm.mon, fm ? 0 : 2); break;
            case Dk::DAY: s = Name(Upper(kDays[tm.wday]), fm, 9); number = false; break;
            case Dk::DAY_CAP: s = Name(kDays[tm.wday], fm, 9); number = false; break;
            case Dk::day: s = Name(Lower(kDays[tm.wday]), fm, 9); number = false; break;
            case Dk::DY: s = Upper(std::string(kDays[tm.wday], 3)); number = false; break;
            case Dk::DY_CAP: s = std::string(kDays[tm.wday], 3); number = false; break;
            case Dk::dy: s = Lower(std::string(kDays[tm.wday], 3)); number = false; break;
            case Dk::DDD: s = Padded(tm.yday, fm ? 0 : 3); break;
            case Dk::IDDD: s = Padded((tm.isoweek - 1) * 7 + (tm.wday == 0 ? 7 : tm.wday), fm ? 0 : 3); break;
            case Dk::DD: s = Padded(tm.mday, fm ? 0 : 2); break;
            case Dk::D: s = std::to_string(tm.wday + 1); break;
            case Dk::ID: s = std::to_string(tm.wday == 0 ? 7 : tm.wday); break;
            case Dk::WW: s = Padded((tm.yday - 1) / 7 + 1, fm ? 0 : 2); break;
            case Dk::IW: s = Padded(tm.isoweek, fm ? 0 : 2); break;
            case Dk::Q: s = std::to_string((tm.mon - 1) / 3 + 1); break;
            case Dk::CC: {
                const int64_t c = tm.year > 0 ? (tm.year - 1) / 100 + 1 : tm.year / 100 - 1;
                s = (c <= 99 && c >= -99) ? Padded(c, fm ? 0 : (c >= 0 ? 2 : 3)) : std::to_string(c);
                break;
            }
            case Dk::Y_YYY: {
                const int64_t y = AdjustYear(tm.year), k = y / 1000;
                s = std::to_string(k) + "," + Padded(y - k * 1000, 3);
                break;
            }
            case Dk::YYYY: s = Padded(AdjustYear(tm.year), fm ? 0 : 4); break;
            case Dk::YYY: s = Padded(AdjustYear(tm.year) % 1000, fm ? 0 : 3); break;
            case Dk::YY: s = Padded(AdjustYear(tm.year) % 100, fm ? 0 : 2); break;
            case Dk::Y: s = std::to_string(AdjustYear(tm.year) % 10); break;
            case Dk::IYYY: s = Padded(AdjustYear(tm.isoyear), fm ? 0 : 4); break;
            case Dk::IYY: s = Padded(AdjustYear(tm.isoyear) % 1000, fm ? 0 : 3); break;
            case Dk::IY: s = Padded(AdjustYear(tm.isoyear) % 100, fm ? 0 : 2); break;
            case Dk::I: s = std::to_string(AdjustYear(tm.isoyear) % 10); break;
            case Dk::RM:
            case Dk::rm: {
                const std::string r = kRoman[tm.mon - 1];
                s = Name(n.id == Dk::RM ? r : Lower(r), fm, 4);
                number = false;
                break;
            }
            case Dk::W: s = std::to_string((tm.mday - 1) / 7 + 1); break;
            case Dk::J: s = std::to_string(tm.day + 2451545); break;
            case Dk::FX: number = false; break;
        }
        if (number && (n.suffix & (S_TH | S_th))) AppendTh(s, n.suffix & S_TH);
        out += s;
    }
}

Tm Broken(int64_t ts) {
    Tm t;
    t.day = FloorDivI(ts, kDayMicros);
    const int64_t us = ts - t.day * kDayMicros;
    CivilFromDays(static_cast<int32_t>(t.day), &t.year, &t.mon, &t.mday);
    t.hour = us / 3600000000LL;
    t.min = us / 60000000LL % 60;
    t.sec = us / 1000000 % 60;
    t.usec = us % 1000000;
    t.wday = Dow(t.day);
    t.yday = t.day - DaysFromCivil(t.year, 1, 1) + 1;
    IsoWeek(t.day, &t.isoweek, &t.isoyear);
    return t;
}

}  // namespace

Status CheckToCharFormat(std::string_view format, bool zoned) {
    for (const Node &n : ParseFormat(format)) {
        if (!n.action) continue;
        if ((n.suffix & S_TM) && n.name) return Status::Unsupported("to_char: TM (the locale's names)");
        if (n.suffix & S_SP) return Status::Unsupported("to_char: the SP suffix");
        if (zoned && (n.id == Dk::TZ || n.id == Dk::tz || n.id == Dk::TZH || n.id == Dk::TZM || n.id == Dk::OF))
            return Status::Unsupported("to_char: a time-zone pattern of a timestamptz");
    }
    return Status::Ok();
}

Expected<Value> KToChar(KernelCtx &, const std::vector<Value> &args) {
    RNDN_RETURN_IF_ERROR(NeedVector(args[0], "to_char", 0));
    RNDN_RETURN_IF_ERROR(NeedVector(args[1], "to_char", 1));
    RNDN_RETURN_IF_ERROR(RuntimeType(Builtin::TO_CHAR, args).status());
    const Vector &a = args[0].vector();
    const Vector &f = args[1].vector();
    if (f.length != 1) return ShapeError("@to_char: the format must be one string");
    const bool null_all = !f.IsValid(0) || f.StringAt(0).empty();
    const std::vector<Node> nodes = null_all ? std::vector<Node>{} : ParseFormat(f.StringAt(0));
    RNDN_ASSIGN_OR_RETURN(auto out, MakeVector(TypeKind::STR, 0));
    std::string s;
    bool nulls = false;
    for (int64_t i = 0; i < a.length; ++i) {
        PollCancel(i);
        s.clear();
        const int64_t ts = a.Data<int64_t>()[i];
        if (!null_all && a.IsValid(i) && ts != INT64_MIN && ts != INT64_MAX) {
            Write(nodes, Broken(ts), s);
        } else {
            nulls = true;
        }
        out->AppendString(s);
    }
    if (nulls) {
        out->EnsureValidity();
        for (int64_t i = 0; i < a.length; ++i) {
            const int64_t ts = a.Data<int64_t>()[i];
            if (null_all || !a.IsValid(i) || ts == INT64_MIN || ts == INT64_MAX) out->SetNull(i);
        }
    }
    return V(out);
}

}  // namespace rndn::hir
