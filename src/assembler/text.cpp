// Instruction words, control fields, architecture facts and the instruction-text splitter.
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "assembler/assembler.h"

namespace rndn::sass {

namespace {
// One row per architecture: name, SM number, first kernel parameter in bank 0, text alignment,
// global memory descriptor in bank 0, URZ's value in uniform register fields.
constexpr ArchInfo kArchTable[] = {
    {Arch::SM_75, "sm_75", 75, 0x160, 128, 0, 63},
    {Arch::SM_80, "sm_80", 80, 0x160, 128, 0x118, 63},
    {Arch::SM_86, "sm_86", 86, 0x160, 128, 0x118, 63},
    {Arch::SM_89, "sm_89", 89, 0x160, 128, 0x118, 63},
    {Arch::SM_90, "sm_90", 90, 0x210, 128, 0x208, 63},
    {Arch::SM_100, "sm_100", 100, 0x380, 128, 0x358, 255},
    {Arch::SM_120, "sm_120", 120, 0x380, 128, 0x358, 255},
};
static_assert(sizeof(kArchTable) / sizeof(kArchTable[0]) == sizeof(kAllArchs) / sizeof(kAllArchs[0]));

// Control-field layout (anchors.md §C2): offset inside bits 105..125 and width.
struct ControlField {
    uint8_t Control::*member;
    int lo, width;
};
constexpr int kControlBase = 105;
constexpr ControlField kControlFields[] = {
    {&Control::stall, 0, 4}, {&Control::yield, 4, 1}, {&Control::wbar, 5, 3},
    {&Control::rbar, 8, 3},  {&Control::wait, 11, 6}, {&Control::reuse, 17, 4},
};
}  // namespace

const ArchInfo &GetArchInfo(Arch arch) { return kArchTable[static_cast<int>(arch)]; }

Expected<Arch> ParseArch(std::string_view name) {
    std::string n(name);
    if (n.rfind("sm_", 0) == 0) n = n.substr(3);
    for (const ArchInfo &a : kArchTable)
        if (std::to_string(a.sm) == n) return a.arch;
    return Status::Unsupported("unsupported architecture '" + std::string(name) + "' (sm_75, sm_80, sm_86, sm_89, sm_90, sm_100, sm_120)");
}

uint64_t Word::Get(int lo_bit, int width) const {
    uint64_t v = 0;
    for (int i = 0; i < width; ++i)
        if (Bit(lo_bit + i)) v |= uint64_t{1} << i;
    return v;
}

void Word::Set(int lo_bit, int width, uint64_t value) {
    for (int i = 0; i < width; ++i) {
        int b = lo_bit + i;
        uint64_t &half = b < 64 ? lo : hi;
        uint64_t m = uint64_t{1} << (b & 63);
        if ((value >> i) & 1) half |= m;
        else half &= ~m;
    }
}

Control UnpackControl(const Word &w) {
    Control c;
    for (const ControlField &f : kControlFields) c.*f.member = static_cast<uint8_t>(w.Get(kControlBase + f.lo, f.width));
    return c;
}

void PackControl(const Control &c, Word *w) {
    for (const ControlField &f : kControlFields) w->Set(kControlBase + f.lo, f.width, c.*f.member);
}

std::string FormatControl(const Control &c) {
    char buf[40];
    char wait[7];
    for (int i = 0; i < 6; ++i) wait[i] = (c.wait >> i) & 1 ? static_cast<char>('0' + i) : '-';
    wait[6] = 0;
    auto bar = [](int b) { return b == 7 ? '-' : static_cast<char>('0' + b); };
    std::snprintf(buf, sizeof buf, "[B%s:R%c:W%c:%c:S%02d]", wait, bar(c.rbar), bar(c.wbar), c.yield ? 'Y' : '-',
                  c.stall);
    return buf;
}

Expected<Control> ParseControl(std::string_view t) {
    // [B------:R-:W-:Y:S04]
    auto bad = [&](size_t col) {
        return Status::ParseError("1:" + std::to_string(col + 1) + ": malformed control field '" + std::string(t) + "'");
    };
    if (t.size() != 21 || t[0] != '[' || t[1] != 'B' || t[8] != ':' || t[9] != 'R' || t[11] != ':' || t[12] != 'W' ||
        t[14] != ':' || t[16] != ':' || t[17] != 'S' || t[20] != ']')
        return bad(0);
    Control c;
    c.wait = 0;
    for (int i = 0; i < 6; ++i) {
        char ch = t[2 + i];
        if (ch == '0' + i) c.wait |= static_cast<uint8_t>(1 << i);
        else if (ch != '-') return bad(2 + i);
    }
    auto bar = [](char ch) -> int { return ch == '-' ? 7 : (ch >= '0' && ch <= '6') ? ch - '0' : -1; };
    int r = bar(t[10]), w = bar(t[13]);
    if (r < 0) return bad(10);
    if (w < 0) return bad(13);
    c.rbar = static_cast<uint8_t>(r);
    c.wbar = static_cast<uint8_t>(w);
    if (t[15] == 'Y') c.yield = 1;
    else if (t[15] == '-') c.yield = 0;
    else return bad(15);
    if (!isdigit(static_cast<unsigned char>(t[18])) || !isdigit(static_cast<unsigned char>(t[19]))) return bad(18);
    c.stall = static_cast<uint8_t>((t[18] - '0') * 10 + (t[19] - '0'));
    if (c.stall > 15) return bad(18);
    return c;
}

// ----------------------------------------------------------------------------- text splitter
namespace {

// Register-like identifiers: prefix, hole kind, the value of the "zero/true" name, the largest
// number, and whether the zero's number is also a register's name (UR63 is a register where
// uniform register fields are 8 bits wide; the architecture's tables give URZ its value there,
// Isa::FromSplit).
struct RegName {
    const char *prefix;
    HoleKind kind;
    const char *zero_name;
    int zero_value;
    int max;
    bool zero_numbered;
};
constexpr RegName kRegNames[] = {
    {"UR", HoleKind::UREG, "URZ", 63, 254, true}, {"UP", HoleKind::UPRED, "UPT", 7, 7, false},
    {"R", HoleKind::REG, "RZ", 255, 255, false},  {"P", HoleKind::PRED, "PT", 7, 7, false},
    {"B", HoleKind::BREG, nullptr, 0, 15, false},
};

bool IsIdentStart(char c) { return isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '$'; }
bool IsIdentChar(char c) { return isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$'; }

// Classifies an identifier as a register-like hole.
bool RegHole(std::string_view id, Hole *h) {
    for (const RegName &r : kRegNames) {
        if (r.zero_name && id == r.zero_name) {
            *h = Hole{r.kind, r.zero_value, std::string(id), {}};
            return true;
        }
        size_t n = std::strlen(r.prefix);
        if (id.size() > n && id.substr(0, n) == r.prefix) {
            std::string_view d = id.substr(n);
            bool digits = d.size() <= 3;
            for (char c : d) digits = digits && isdigit(static_cast<unsigned char>(c));
            if (!digits) continue;
            int v = std::atoi(std::string(d).c_str());
            if (v > r.max || (r.zero_name && v == r.zero_value && !r.zero_numbered)) continue;
            *h = Hole{r.kind, v, std::string(id), {}};
            return true;
        }
    }
    return false;
}

const char *HoleMarker(HoleKind k) {
    switch (k) {
        case HoleKind::REG: return "{R}";
        case HoleKind::UREG: return "{UR}";
        case HoleKind::PRED: return "{P}";
        case HoleKind::UPRED: return "{UP}";
        case HoleKind::BREG: return "{B}";
        case HoleKind::HEX: return "{X}";
        case HoleKind::NUM: return "{N}";
        case HoleKind::LABEL: return "{L}";
    }
    return "{?}";
}

}  // namespace

Expected<SplitText> SplitInstructionText(std::string_view text) {
    SplitText out;
    size_t i = 0, n = text.size();
    auto err = [&](size_t col, const std::string &what) {
        return Status::ParseError("1:" + std::to_string(col + 1) + ": " + what);
    };
    while (i < n && text[i] == ' ') ++i;
    if (i < n && text[i] == '@') {
        ++i;
        out.has_guard = true;
        if (i < n && text[i] == '!') {
            out.guard_neg = true;
            ++i;
        }
        size_t s = i;
        while (i < n && IsIdentChar(text[i])) ++i;
        Hole h;
        if (!RegHole(text.substr(s, i - s), &h) || (h.kind != HoleKind::PRED && h.kind != HoleKind::UPRED))
            return err(s, "expected a predicate after '@'");
        out.guard_uniform = h.kind == HoleKind::UPRED;
        out.guard_pred = static_cast<int>(h.value);
        while (i < n && text[i] == ' ') ++i;
    }
    size_t ms = i;
    while (i < n && text[i] != ' ') {
        char c = text[i];
        if (!IsIdentChar(c) && c != '.') return err(i, "bad character in mnemonic");
        ++i;
    }
    if (i == ms) return err(ms, "expected a mnemonic");
    out.templ.assign(text.substr(ms, i - ms));
    while (i < n && text[i] == ' ') ++i;
    if (i == n) return out;
    out.templ += ' ';
    int operand = 0;
    std::string cur;  // template text of the current operand
    auto finish_operand = [&]() -> Status {
        // Trailing spaces are kept (an infinity or NaN takes its own, see the number rule).
        static const std::string kReuse = ".reuse";
        if (cur.size() > kReuse.size() && cur.compare(cur.size() - kReuse.size(), kReuse.size(), kReuse) == 0) {
            cur.resize(cur.size() - kReuse.size());
            if (operand < 32) out.reuse_operands |= 1u << operand;
        }
        if (cur.empty()) return Status::ParseError("1:" + std::to_string(i + 1) + ": empty operand");
        if (operand > 0) out.templ += ", ";
        out.templ += cur;
        cur.clear();
        ++operand;
        return Status::Ok();
    };
    while (i < n) {
        char c = text[i];
        if (c == ',') {
            RNDN_RETURN_IF_ERROR(finish_operand());
            ++i;
            while (i < n && text[i] == ' ') ++i;
            continue;
        }
        if (c == '`') {  // `(label)
            if (i + 1 >= n || text[i + 1] != '(') return err(i, "expected '(' after '`'");
            size_t e = text.find(')', i + 2);
            if (e == std::string_view::npos) return err(i, "unterminated label");
            Hole h{HoleKind::LABEL, 0, std::string(text.substr(i, e + 1 - i)), std::string(text.substr(i + 2, e - i - 2))};
            if (h.label.empty()) return err(i, "empty label");
            out.holes.push_back(h);
            cur += "`(";
            cur += HoleMarker(HoleKind::LABEL);
            cur += ")";
            i = e + 1;
            continue;
        }
        // Digits glued to a literal ("R2.64", "X4") are part of it, not a number.
        bool prev_dot = !cur.empty() && (cur.back() == '.' || IsIdentChar(cur.back()));
        bool sign = (c == '-' || c == '+') && i + 1 < n;
        size_t ns = i + (sign ? 1 : 0);
        bool starts_number = !prev_dot && ns < n &&
                             (isdigit(static_cast<unsigned char>(text[ns])) ||
                              (sign && (text.substr(ns, 3) == "INF" || text.substr(ns, 4) == "QNAN")));
        if (starts_number && sign && c == '+' && isdigit(static_cast<unsigned char>(text[ns]))) {
            // "[R2+0x4]": '+' is punctuation, the number follows unsigned.
            cur += '+';
            ++i;
            continue;
        }
        if (starts_number) {
            size_t s = i;
            size_t j = ns;
            Hole h;
            if (text.substr(j, 3) == "INF" || text.substr(j, 4) == "QNAN") {
                j += text[j] == 'I' ? 3 : 4;
                h.kind = HoleKind::NUM;
                h.value = 0;
                // nvdisasm writes a space after an infinity or NaN that another operand follows
                // ("+INF , P0", but "1.5, P0"): the space belongs to the number, not the template.
                size_t k = j;
                while (k < n && text[k] == ' ') ++k;
                if (k > j && k < n && text[k] == ',') {
                    h.text.assign(text.substr(s, j - s));
                    out.holes.push_back(h);
                    cur += HoleMarker(h.kind);
                    i = k;
                    continue;
                }
            } else if (j + 1 < n && text[j] == '0' && text[j + 1] == 'x') {
                j += 2;
                size_t ds = j;
                while (j < n && isxdigit(static_cast<unsigned char>(text[j]))) ++j;
                if (j == ds || j - ds > 16) return err(s, "bad hexadecimal number");
                uint64_t v = std::strtoull(std::string(text.substr(ds, j - ds)).c_str(), nullptr, 16);
                h.kind = HoleKind::HEX;
                h.value = c == '-' ? -static_cast<int64_t>(v) : static_cast<int64_t>(v);
            } else {
                bool is_float = false;
                while (j < n && (isdigit(static_cast<unsigned char>(text[j])) || text[j] == '.' || text[j] == 'e' ||
                                 ((text[j] == '+' || text[j] == '-') && text[j - 1] == 'e'))) {
                    if (text[j] == '.' || text[j] == 'e') is_float = true;
                    ++j;
                }
                if (j - ns > 40) return err(s, "number too long");
                h.kind = HoleKind::NUM;
                h.value = is_float ? 0 : std::strtoll(std::string(text.substr(s, j - s)).c_str(), nullptr, 10);
            }
            h.text.assign(text.substr(s, j - s));
            out.holes.push_back(h);
            cur += HoleMarker(h.kind);
            i = j;
            continue;
        }
        if (IsIdentStart(c)) {
            size_t s = i;
            while (i < n && IsIdentChar(text[i])) ++i;
            std::string_view id = text.substr(s, i - s);
            Hole h;
            if (!prev_dot && RegHole(id, &h)) {
                out.holes.push_back(h);
                cur += HoleMarker(h.kind);
            } else {
                cur += id;
            }
            continue;
        }
        if (c == '{' || c == '}' || c == '\t' || static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) > 0x7e)
            return err(i, "unexpected character");
        if (c == ' ' && cur.empty()) {
            ++i;
            continue;
        }
        cur += c;
        ++i;
    }
    RNDN_RETURN_IF_ERROR(finish_operand());
    return out;
}

}  // namespace rndn::sass
