// The generic table-driven encoder, decoder, printer and parser.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <sstream>

#include "assembler/assembler.h"

namespace rndn::sass {

// Embedded tables (isa_tables.cpp).
const char *IsaTableText(Arch arch);

namespace {

constexpr int kGuardLo = 12;     // guard predicate: bits 12..14
constexpr int kGuardNegBit = 15; // guard negation

struct KindName {
    HoleKind kind;
    const char *name;
};
constexpr KindName kKindNames[] = {
    {HoleKind::REG, "R"},   {HoleKind::UREG, "UR"}, {HoleKind::PRED, "P"},  {HoleKind::UPRED, "UP"},
    {HoleKind::BREG, "B"},  {HoleKind::HEX, "X"},   {HoleKind::NUM, "N"},   {HoleKind::LABEL, "L"},
};
struct CodeName {
    HoleCode code;
    const char *name;
};
constexpr CodeName kCodeNames[] = {
    {HoleCode::PLAIN, "PLAIN"}, {HoleCode::SIGNED, "SIGNED"}, {HoleCode::F32, "F32"},
    {HoleCode::F64HI, "F64HI"}, {HoleCode::F16, "F16"},       {HoleCode::RELATIVE, "REL"},
};

bool ParseWordHex(std::string_view s, Word *w) {
    if (s == "-") {  // the generator writes an all-zero free mask / default as "-"
        *w = Word{};
        return true;
    }
    if (s.size() != 32) return false;
    for (char c : s)
        if (!isxdigit(static_cast<unsigned char>(c))) return false;
    w->hi = std::strtoull(std::string(s.substr(0, 16)).c_str(), nullptr, 16);
    w->lo = std::strtoull(std::string(s.substr(16, 16)).c_str(), nullptr, 16);
    return true;
}

std::vector<std::string> SplitTabs(const std::string &line) {
    std::vector<std::string> out;
    size_t s = 0;
    while (true) {
        size_t e = line.find('\t', s);
        out.push_back(line.substr(s, e == std::string::npos ? std::string::npos : e - s));
        if (e == std::string::npos) break;
        s = e + 1;
    }
    return out;
}

int64_t SignExtend(uint64_t v, int width) {
    if (width >= 64) return static_cast<int64_t>(v);
    uint64_t m = uint64_t{1} << (width - 1);
    return static_cast<int64_t>((v ^ m) - m);
}

// IEEE half -> double and back (exact conversions only).
double HalfToDouble(uint64_t h) {
    int sign = (h >> 15) & 1, exp = (h >> 10) & 0x1f;
    int man = h & 0x3ff;
    double v;
    if (exp == 0) v = std::ldexp(man, -24);
    else if (exp == 31) v = man ? NAN : INFINITY;
    else v = std::ldexp(man | 0x400, exp - 25);
    return sign ? -v : v;
}
bool DoubleToHalf(double d, uint64_t *out) {
    for (uint64_t h = 0; h < 0x10000; ++h) {  // small and exact: search the 65536 halves
        double v = HalfToDouble(h);
        if (v == d && std::signbit(v) == std::signbit(d)) {
            *out = h;
            return true;
        }
    }
    return false;
}

// One field of a form row: KIND:CODE:lo:width[:lo2:width2:shift].
bool ParseFieldSpec(const std::string &item, Field *out) {
    size_t a = item.find(':'), b = item.find(':', a + 1);
    if (a == std::string::npos || b == std::string::npos) return false;
    Field fl{};
    bool kind_ok = false, code_ok = false;
    for (const KindName &k : kKindNames)
        if (item.substr(0, a) == k.name) fl.kind = k.kind, kind_ok = true;
    for (const CodeName &cn : kCodeNames)
        if (item.substr(a + 1, b - a - 1) == cn.name) fl.code = cn.code, code_ok = true;
    std::vector<int> nums;
    std::istringstream ns(item.substr(b + 1));
    std::string part;
    while (std::getline(ns, part, ':')) nums.push_back(std::atoi(part.c_str()));
    if (nums.size() != 2 && nums.size() != 5) return false;
    fl.lo = nums[0];
    fl.width = nums[1];
    if (nums.size() == 5) fl.lo2 = nums[2], fl.width2 = nums[3], fl.shift = nums[4];
    if (!kind_ok || !code_ok || fl.lo < 0 || fl.width <= 0 || fl.width + fl.width2 > 64 || fl.lo + fl.width > 128 ||
        fl.lo2 < 0 || fl.width2 < 0 || fl.lo2 + fl.width2 > 128 || fl.shift < 0 || fl.shift > 8)
        return false;
    *out = fl;
    return true;
}

// A template's operand texts (after the mnemonic, split at ", ") and the index of each one's
// first hole.
struct TemplateOperand {
    std::string text;
    int first_hole;
};
std::vector<TemplateOperand> TemplateOperands(std::string_view templ) {
    std::vector<TemplateOperand> out;
    if (templ.rfind("@U ", 0) == 0) templ.remove_prefix(3);
    size_t sp = templ.find(' ');
    if (sp == std::string_view::npos) return out;
    int hole = 0;
    for (size_t p = sp + 1;;) {
        size_t e = templ.find(", ", p);
        std::string op(templ.substr(p, e == std::string_view::npos ? std::string_view::npos : e - p));
        out.push_back({op, hole});
        hole += static_cast<int>(std::count(op.begin(), op.end(), '{'));
        if (e == std::string_view::npos) break;
        p = e + 2;
    }
    return out;
}

}  // namespace

double FloatFromBits(HoleCode code, uint64_t bits) {
    switch (code) {
        case HoleCode::F32: return std::bit_cast<float>(static_cast<uint32_t>(bits));
        case HoleCode::F64HI: return std::bit_cast<double>(bits << 32);
        case HoleCode::F16: return HalfToDouble(bits);
        default: return static_cast<double>(bits);
    }
}

namespace {

}  // namespace

// The formatting rule for float literals, inferred from the corpus (the table keeps any literal
// the rule gets wrong): %.20g, except that magnitudes from 1e9 up are printed as %.20e (probed
// against nvdisasm 13: 999999936 positional, 1e9 and 2^31 exponential; float_imm_test);
// infinities and NaNs as +INF/-INF/+QNAN/-QNAN.
std::string FormatFloatRule(double d) {
    if (std::isnan(d)) return std::signbit(d) ? "-QNAN" : "+QNAN";
    if (std::isinf(d)) return d < 0 ? "-INF" : "+INF";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.20g", d);
    if (std::fabs(d) >= 1e9) std::snprintf(buf, sizeof buf, "%.20e", d);
    return buf;
}

int64_t UnpackField(const Field &f, const Word &w, uint64_t address) {
    int total = f.width + f.width2;
    uint64_t raw = w.Get(f.lo, f.width);
    if (f.width2) raw |= w.Get(f.lo2, f.width2) << f.width;
    switch (f.code) {
        case HoleCode::SIGNED: return SignExtend(raw, total) * (int64_t{1} << f.shift);
        case HoleCode::RELATIVE:
            return static_cast<int64_t>(address + 16) + SignExtend(raw, total) * (int64_t{1} << f.shift);
        default: return static_cast<int64_t>(raw << f.shift);
    }
}

Status PackField(const Field &f, int64_t value, uint64_t address, Word *w) {
    int64_t v = value;
    if (f.code == HoleCode::RELATIVE) v = value - static_cast<int64_t>(address + 16);
    int total = f.width + f.width2;
    auto out_of_range = [&]() {
        return Status::UserError(sqlstate::kNumericOutOfRange,
                                 "value " + std::to_string(value) + " does not fit the " + std::to_string(total) +
                                     "-bit field at bit " + std::to_string(f.lo));
    };
    if (f.shift) {
        if (v % (int64_t{1} << f.shift)) return out_of_range();
        v /= int64_t{1} << f.shift;
    }
    bool fits;
    if (total >= 64) fits = true;
    else if (f.code == HoleCode::SIGNED || f.code == HoleCode::RELATIVE)
        fits = v >= -(int64_t{1} << (total - 1)) && v < (int64_t{1} << (total - 1));
    else fits = v >= 0 && static_cast<uint64_t>(v) < (uint64_t{1} << total);
    if (!fits) return out_of_range();
    uint64_t u = static_cast<uint64_t>(v);
    w->Set(f.lo, f.width, u);
    if (f.width2) w->Set(f.lo2, f.width2, f.width >= 64 ? 0 : u >> f.width);
    return Status::Ok();
}

bool Form::Selects(const std::vector<int64_t> &values) const {
    if (select.empty()) return true;
    for (const std::vector<AliasCondition> &alt : select) {
        bool all = true;
        for (const AliasCondition &c : alt) {
            int64_t v = c.hole >= 0 && c.hole < static_cast<int>(values.size()) ? values[c.hole] : -1;
            all = all && (c.pow2 ? v > 0 && std::has_single_bit(static_cast<uint64_t>(v)) : v == c.value);
        }
        if (all) return true;
    }
    return false;
}

void Form::SelectingValues(std::vector<int64_t> *values, uint64_t random) const {
    if (select.empty()) return;
    for (const AliasCondition &c : select[0])
        if (c.hole >= 0 && c.hole < static_cast<int>(values->size()))
            (*values)[c.hole] = c.pow2 ? int64_t{2} << (random % 12) : c.value;
}

Expected<Isa> Isa::FromTableText(std::string_view text) {
    Isa isa;
    struct NanRow {
        std::string templ;
        uint64_t bits;
        int lineno;
    };
    std::vector<NanRow> nan_rows;  // applied once every form is known
    std::istringstream in{std::string(text)};
    std::string line;
    int lineno = 0;
    bool have_arch = false;
    while (std::getline(in, line)) {
        ++lineno;
        if (line.empty() || line[0] == '#') continue;
        auto err = [&](const std::string &m) {
            return Status::ParseError("isa table:" + std::to_string(lineno) + ":1: " + m);
        };
        std::vector<std::string> col = SplitTabs(line);
        if (col[0] == "arch" && col.size() == 2) {
            RNDN_ASSIGN_OR_RETURN(isa.arch_, ParseArch(col[1]));
            have_arch = true;
        } else if (col[0] == "float" && col.size() == 4) {
            int code = -1;
            for (const CodeName &c : kCodeNames)
                if (col[1] == c.name) code = static_cast<int>(c.code);
            if (code < 0) return err("bad float code");
            isa.float_text_[{code, std::strtoull(col[2].c_str(), nullptr, 16)}] = col[3];
        } else if (col[0] == "nan" && col.size() == 3) {
            nan_rows.push_back({col[1], std::strtoull(col[2].c_str(), nullptr, 16), lineno});
        } else if (col[0] == "alias" && col.size() == 4) {
            // alias<TAB>template<TAB>rank<TAB>alternatives ("h=v h=pow2 | h=v ...")
            int id = isa.FindForm(col[1]);
            if (id < 0) return err("alias row for unknown form '" + col[1] + "'");
            Form &f = isa.forms_[id];
            f.alias_rank = std::atoi(col[2].c_str());
            std::istringstream cs(col[3]);
            std::string item;
            f.select.emplace_back();
            while (cs >> item) {
                if (item == "|") {
                    f.select.emplace_back();
                    continue;
                }
                size_t eq = item.find('=');
                AliasCondition c;
                c.hole = std::atoi(item.substr(0, eq).c_str());
                if (eq == std::string::npos || c.hole < 0 || c.hole >= static_cast<int>(f.fields.size()))
                    return err("bad alias condition '" + item + "'");
                if (item.substr(eq + 1) == "pow2") c.pow2 = true;
                else c.value = std::strtoll(item.c_str() + eq + 1, nullptr, 10);
                f.select.back().push_back(c);
            }
            for (const auto &alt : f.select)
                if (alt.empty()) return err("empty alias alternative for '" + col[1] + "'");
        } else if ((col[0] == "omit" || col[0] == "norz") && col.size() == 3) {
            // a form and a comma-separated list of its holes: omit names predicate or uniform
            // register operands nvdisasm leaves out, norz register operands that must not be RZ
            const bool omit = col[0] == "omit";
            int id = isa.FindForm(col[1]);
            if (id < 0) return err(col[0] + " row for unknown form '" + col[1] + "'");
            Form &f = isa.forms_[id];
            std::istringstream hs(col[2]);
            std::string item;
            while (std::getline(hs, item, ',')) {
                int h = std::atoi(item.c_str());
                bool fits = false;
                if (omit) {
                    for (const TemplateOperand &op : TemplateOperands(f.templ))
                        fits = fits || (op.first_hole == h && (op.text == "{P}" || op.text == "{UP}" || op.text == "{UR}"));
                } else {
                    fits = h >= 0 && h < static_cast<int>(f.fields.size()) && f.fields[h].kind == HoleKind::REG;
                }
                if (!fits)
                    return err(col[0] + " row names hole " + item + (omit ? ", not a predicate or uniform register operand of '"
                                                                          : ", not a register operand of '") + f.templ + "'");
                (omit ? f.omit_pt : f.not_rz).push_back(h);
            }
        } else if (col[0] == "form" && (col.size() == 11 || col.size() == 12)) {
            Form f;
            f.id = static_cast<int>(isa.forms_.size());
            f.templ = col[1];
            if (!ParseWordHex(col[2], &f.fixed_mask) || !ParseWordHex(col[3], &f.fixed_bits) ||
                !ParseWordHex(col[4], &f.free_mask) || !ParseWordHex(col[5], &f.free_default))
                return err("bad word");
            if (col[6] != "-") {
                std::istringstream fs(col[6]);
                std::string item;
                while (fs >> item) {
                    Field fl{};
                    if (!ParseFieldSpec(item, &fl)) return err("bad field '" + item + "'");
                    f.fields.push_back(fl);
                }
            }
            if (col.size() == 12 && col[11] != "-") {
                Field fl{};
                if (!ParseFieldSpec(col[11], &fl)) return err("bad implicit field '" + col[11] + "'");
                f.implicit = fl;
            }
            if (col[7] != "-") {
                std::istringstream rs(col[7]);
                std::string item;
                while (std::getline(rs, item, ',')) f.reuse_bit.push_back(static_cast<int8_t>(std::atoi(item.c_str())));
            }
            if (col[8] != "-") {
                std::istringstream cs(col[8]);
                std::string item;
                while (std::getline(cs, item, ','))
                    f.constant.push_back(item == "*" ? std::nullopt
                                                     : std::optional<int64_t>(std::strtoll(item.c_str(), nullptr, 10)));
                if (f.constant.size() != f.fields.size()) return err("constant column does not match the fields");
            }
            f.seen = std::atoi(col[9].c_str());
            f.provenance = col[10];
            isa.by_templ_[f.templ] = f.id;
            isa.forms_.push_back(std::move(f));
        } else {
            return err("unknown row '" + col[0] + "'");
        }
    }
    if (!have_arch) return Status::ParseError("isa table:1:1: missing 'arch' row");
    for (const NanRow &r : nan_rows) {
        int id = isa.FindForm(r.templ);
        if (id < 0)
            return Status::ParseError("isa table:" + std::to_string(r.lineno) + ":1: nan row for unknown form '" + r.templ + "'");
        isa.forms_[id].nan_bits = r.bits;
    }
    std::map<std::pair<std::pair<uint64_t, uint64_t>, std::pair<uint64_t, uint64_t>>, std::vector<int>> same_bits;
    for (const Form &f : isa.forms_)
        same_bits[{{f.fixed_mask.lo, f.fixed_mask.hi}, {f.fixed_bits.lo, f.fixed_bits.hi}}].push_back(f.id);
    for (auto &[k, ids] : same_bits)
        if (ids.size() > 1)
            for (int id : ids) isa.forms_[id].aliases = ids;
    // The texts nvdisasm prints for forms with PT operands left out.  When several forms or PT
    // choices print alike (IADD3 R, P5, ... for P5 in either carry-out), the first one registered
    // is the canonical encoding: forms in table order, and within a form the later operands left
    // out first (IADD3 R, P5, ... is P5 in the first carry-out, as ptxas writes it).
    for (const Form &f : isa.forms_) {
        if (f.omit_pt.empty() || f.omit_pt.size() > 4) continue;
        std::vector<TemplateOperand> ops = TemplateOperands(f.templ);
        const size_t k = f.omit_pt.size();
        for (uint32_t mask = (1u << k) - 1; mask > 0; --mask) {
            std::vector<int> pt;
            for (size_t i = 0; i < k; ++i)
                if ((mask >> i) & 1) pt.push_back(f.omit_pt[i]);
            std::string t = f.templ.substr(0, f.templ.find(' ', f.templ.rfind("@U ", 0) == 0 ? 3 : 0));
            bool first = true;
            for (const TemplateOperand &op : ops) {
                if (std::find(pt.begin(), pt.end(), op.first_hole) != pt.end() &&
                    (op.text == "{P}" || op.text == "{UP}" || op.text == "{UR}"))
                    continue;
                t += (first ? " " : ", ") + op.text;
                first = false;
            }
            isa.by_short_templ_.emplace(t, std::make_pair(f.id, pt));
        }
    }
    for (const Form &f : isa.forms_) {
        if ((f.fixed_mask.lo & 0xfff) == 0xfff) isa.by_opcode_[f.fixed_bits.lo & 0xfff].push_back(f.id);
        else isa.wildcard_.push_back(f.id);
    }
    return isa;
}

Expected<const Isa *> Isa::Get(Arch arch) {
    static std::mutex mu;
    static std::map<Arch, Isa> cache;
    std::lock_guard<std::mutex> lock(mu);
    auto it = cache.find(arch);
    if (it != cache.end()) return &it->second;
    RNDN_ASSIGN_OR_RETURN(Isa isa, FromTableText(IsaTableText(arch)));
    return &cache.emplace(arch, std::move(isa)).first->second;
}

int Isa::FindForm(const std::string &templ) const {
    auto it = by_templ_.find(templ);
    return it == by_templ_.end() ? -1 : it->second;
}

Expected<Instruction> Isa::Decode(const Word &w, uint64_t address) const {
    const Form *best = nullptr;
    int best_bits = -1;
    auto consider = [&](int id) {
        const Form &f = forms_[id];
        if ((w.lo & f.fixed_mask.lo) != f.fixed_bits.lo || (w.hi & f.fixed_mask.hi) != f.fixed_bits.hi) return;
        // RZ where the form refuses it (hand.txt norz): nvdisasm prints the word otherwise, or not at all.
        for (int h : f.not_rz)
            if (UnpackField(f.fields[h], w, address) == 255) return;
        int bits = std::popcount(f.fixed_mask.lo) + std::popcount(f.fixed_mask.hi);
        if (bits > best_bits || (bits == best_bits && f.seen > best->seen)) best = &f, best_bits = bits;
    };
    auto it = by_opcode_.find(static_cast<uint32_t>(w.lo & 0xfff));
    if (it != by_opcode_.end())
        for (int id : it->second) consider(id);
    for (int id : wildcard_) consider(id);
    if (!best) {
        char buf[80];
        std::snprintf(buf, sizeof buf, "no form matches 0x%016llx%016llx", static_cast<unsigned long long>(w.hi),
                      static_cast<unsigned long long>(w.lo));
        return Status::Unsupported(buf);
    }
    bool rule_chosen = false;
    for (int id : best->aliases) rule_chosen = rule_chosen || !forms_[id].select.empty();
    if (rule_chosen) {
        // Value-chosen aliases with hand-given conditions (Form::select): the alias whose
        // conditions hold (the most conditions first), else the form without conditions that
        // was seen most; none: nvdisasm prints a name the tables do not know.
        const Form *pick = nullptr;
        for (int id : best->aliases) {
            const Form &f = forms_[id];
            std::vector<int64_t> values;
            for (const Field &fl : f.fields) values.push_back(UnpackField(fl, w, address));
            if (!f.Selects(values)) continue;
            // An alias that holds beats the general form; of two aliases the lower rank wins.
            auto better = [](const Form &a, const Form &b) {
                if (a.select.empty() != b.select.empty()) return !a.select.empty();
                if (!a.select.empty()) return a.alias_rank < b.alias_rank;
                return a.seen > b.seen;
            };
            if (!pick || better(f, *pick)) pick = &f;
        }
        if (!pick)
            return Status::Unsupported("'" + best->templ + "': the operand values select a name nvdisasm uses that no form has");
        best = pick;
    } else if (!best->aliases.empty()) {
        // Forms with identical fixed bits are nvdisasm aliases chosen by operand values: take
        // the one whose constant holes all match, preferring the most constrained.
        const Form *pick = nullptr;
        int pick_score = -1;
        for (int id : best->aliases) {
            const Form &f = forms_[id];
            int score = 0;
            bool ok = f.fields.size() == best->fields.size() || f.constant.empty();
            for (size_t j = 0; ok && j < f.constant.size(); ++j)
                if (f.constant[j]) {
                    if (UnpackField(f.fields[j], w, address) != *f.constant[j]) ok = false;
                    else ++score;
                }
            if (ok && (score > pick_score || (score == pick_score && f.seen > pick->seen))) pick = &f, pick_score = score;
        }
        if (pick) best = pick;
    }
    Instruction inst;
    inst.form = best->id;
    inst.guard_pred = static_cast<int>(w.Get(kGuardLo, 3));
    inst.guard_neg = w.Bit(kGuardNegBit);
    for (const Field &f : best->fields) inst.values.push_back(UnpackField(f, w, address));
    for (int h : best->not_rz)  // an alias picked above
        if (inst.values[h] == 255)
            return Status::Unsupported("'" + best->templ + "' with RZ as operand hole " + std::to_string(h) +
                                       ": nvdisasm rejects the word or prints it otherwise (hand.txt norz)");
    if (best->implicit) inst.implicit = UnpackField(*best->implicit, w, address);
    inst.control = UnpackControl(w);
    uint8_t mapped = 0;
    for (size_t op = 0; op < best->reuse_bit.size(); ++op)
        if (best->reuse_bit[op] >= 0) {
            mapped |= static_cast<uint8_t>(1 << best->reuse_bit[op]);
            if ((inst.control.reuse >> best->reuse_bit[op]) & 1) inst.reuse_operands |= 1u << op;
        }
    // A reuse flag no operand of the form is known to carry: printing the instruction without it
    // would be a guess (nvdisasm prints ".reuse" on some operand), so it is an error.
    if (inst.control.reuse & ~mapped)
        return Status::Unsupported("'" + best->templ + "' has a reuse flag (control reuse 0x" +
                                   std::to_string(inst.control.reuse) + ") on an operand the table does not know");
    return inst;
}

Expected<Word> Isa::Encode(const Instruction &inst, uint64_t address) const {
    if (inst.form < 0 || inst.form >= static_cast<int>(forms_.size())) return Status::Internal("bad form id");
    const Form &f = forms_[inst.form];
    if (inst.values.size() != f.fields.size()) return Status::Internal("operand count does not match the form");
    if (!f.Selects(inst.values))
        return Status::UserError(sqlstate::kInvalidParameter,
                                 "'" + f.templ + "' is a value-chosen alias: its operand values do not select it (nvdisasm would print another name)");
    for (int h : f.not_rz)
        if (inst.values[h] == 255)
            return Status::UserError(sqlstate::kInvalidParameter,
                                     "'" + f.templ + "' cannot take RZ as operand hole " + std::to_string(h) +
                                         " (nvdisasm rejects the word; hand.txt norz)");
    Word w;
    w.lo = (f.fixed_bits.lo & f.fixed_mask.lo) | (f.free_default.lo & f.free_mask.lo);
    w.hi = (f.fixed_bits.hi & f.fixed_mask.hi) | (f.free_default.hi & f.free_mask.hi);
    w.Set(kGuardLo, 3, static_cast<uint64_t>(inst.guard_pred));
    w.Set(kGuardNegBit, 1, inst.guard_neg ? 1 : 0);
    for (size_t i = 0; i < f.fields.size(); ++i) RNDN_RETURN_IF_ERROR(PackField(f.fields[i], inst.values[i], address, &w));
    if (f.implicit && inst.implicit) RNDN_RETURN_IF_ERROR(PackField(*f.implicit, *inst.implicit, address, &w));
    Control c = inst.control;
    c.reuse = 0;
    for (size_t op = 0; op < 32; ++op) {
        if (!((inst.reuse_operands >> op) & 1)) continue;
        if (op >= f.reuse_bit.size() || f.reuse_bit[op] < 0)
            return Status::Unsupported("operand " + std::to_string(op) + " of '" + f.templ + "' has no known reuse flag");
        c.reuse |= static_cast<uint8_t>(1 << f.reuse_bit[op]);
    }
    PackControl(c, &w);
    return w;
}

std::string Isa::FormatFloat(HoleCode code, uint64_t bits) const {
    auto it = float_text_.find({static_cast<int>(code), bits});
    if (it != float_text_.end()) return it->second;
    return FormatFloatRule(FloatFromBits(code, bits));
}

std::string Isa::PrintWithLabels(const Instruction &inst, const std::vector<std::string> &label_names) const {
    const Form &f = forms_[inst.form];
    std::string out;
    if (inst.guard_pred != 7 || inst.guard_neg) {
        out += '@';
        if (inst.guard_neg) out += '!';
        bool uniform = f.templ.rfind("@U ", 0) == 0;
        out += uniform ? (inst.guard_pred == 7 ? "UPT" : "UP" + std::to_string(inst.guard_pred))
                       : (inst.guard_pred == 7 ? "PT" : "P" + std::to_string(inst.guard_pred));
        out += ' ';
    }
    std::string_view t = f.templ;
    if (t.rfind("@U ", 0) == 0) t.remove_prefix(3);
    // The mnemonic, then each operand's text; an operand the form omits when it holds PT/UPT
    // (Form::omit_pt) is left out.
    std::vector<std::string> parts(1);
    std::vector<bool> omitted(1, false);
    size_t hole = 0;
    int operand = -1;  // -1: mnemonic
    auto end_operand = [&]() {
        if (operand >= 0 && ((inst.reuse_operands >> operand) & 1)) parts.back() += ".reuse";
    };
    auto begin_operand = [&](size_t at) {
        ++operand;
        size_t e = t.find(", ", at);
        std::string_view text = t.substr(at, e == std::string_view::npos ? std::string_view::npos : e - at);
        bool omit = (text == "{P}" || text == "{UP}" || text == "{UR}") && hole < inst.values.size() &&
                    inst.values[hole] == (text == "{UR}" ? GetArchInfo(arch_).ur_zero : 7) &&
                    std::find(f.omit_pt.begin(), f.omit_pt.end(), static_cast<int>(hole)) != f.omit_pt.end();
        parts.emplace_back();
        omitted.push_back(omit);
    };
    char buf[64];
    for (size_t i = 0; i < t.size(); ++i) {
        char c = t[i];
        std::string &out_part = parts.back();
        if (operand == -1 && c == ' ') {
            begin_operand(i + 1);
            continue;
        }
        if (c == ',' && i + 1 < t.size() && t[i + 1] == ' ') {
            end_operand();
            ++i;
            begin_operand(i + 1);
            continue;
        }
        if (c != '{') {
            out_part += c;
            continue;
        }
        size_t e = t.find('}', i);
        i = e;
        if (hole >= f.fields.size()) continue;
        const Field &fl = f.fields[hole];
        int64_t v = inst.values[hole];
        switch (fl.kind) {
            case HoleKind::REG: out_part += v == 255 ? std::string("RZ") : "R" + std::to_string(v); break;
            case HoleKind::UREG: out_part += v == GetArchInfo(arch_).ur_zero ? std::string("URZ") : "UR" + std::to_string(v); break;
            case HoleKind::PRED: out_part += v == 7 ? std::string("PT") : "P" + std::to_string(v); break;
            case HoleKind::UPRED: out_part += v == 7 ? std::string("UPT") : "UP" + std::to_string(v); break;
            case HoleKind::BREG: out_part += "B" + std::to_string(v); break;
            case HoleKind::HEX:
                // A 64-bit unsigned immediate (sm_120's MOV.64) prints as nvdisasm does: 0x8000....
                if (v < 0 && !(fl.code == HoleCode::PLAIN && fl.width + fl.width2 >= 64)) std::snprintf(buf, sizeof buf, "-0x%llx", static_cast<unsigned long long>(-v));
                else std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
                out_part += buf;
                break;
            case HoleKind::NUM:
                if (fl.code == HoleCode::PLAIN || fl.code == HoleCode::SIGNED) out_part += std::to_string(v);
                else {
                    std::string f = FormatFloat(fl.code, static_cast<uint64_t>(v));
                    out_part += f;
                    // nvdisasm: "+INF , P0" but "1.5, P0" (see SplitInstructionText).
                    if ((f.find("INF") != std::string::npos || f.find("QNAN") != std::string::npos) && e + 1 < t.size() &&
                        t[e + 1] == ',')
                        out_part += ' ';
                }
                break;
            case HoleKind::LABEL: out_part += hole < label_names.size() ? label_names[hole] : std::string("?"); break;
        }
        ++hole;
    }
    end_operand();
    out += parts[0];
    bool first = true;
    for (size_t i = 1; i < parts.size(); ++i) {
        if (omitted[i]) continue;
        out += first ? " " : ", ";
        out += parts[i];
        first = false;
    }
    return out;
}

Expected<Instruction> Isa::FromSplit(const SplitText &st) const {
    std::string templ = st.guard_uniform ? "@U " + st.templ : st.templ;
    int id = FindForm(templ);
    if (auto it = by_short_templ_.find(templ); id < 0 && it != by_short_templ_.end()) {
        // A text without PT operands the form omits (Form::omit_pt): those holes hold PT/UPT.
        const Form &full = forms_[it->second.first];
        const std::vector<int> &pt = it->second.second;
        SplitText sub = st;
        sub.templ = full.templ.rfind("@U ", 0) == 0 ? full.templ.substr(3) : full.templ;
        for (int h : pt) {
            if (h > static_cast<int>(sub.holes.size())) return Status::Internal("omitted operand past the holes of '" + full.templ + "'");
            HoleKind k = full.fields[h].kind;
            if (k == HoleKind::UREG) sub.holes.insert(sub.holes.begin() + h, Hole{k, GetArchInfo(arch_).ur_zero, "URZ", ""});
            else sub.holes.insert(sub.holes.begin() + h, Hole{k, 7, k == HoleKind::UPRED ? "UPT" : "PT", ""});
        }
        // Reuse flags are per operand: shift those after each inserted operand.
        std::vector<TemplateOperand> ops = TemplateOperands(full.templ);
        for (int h : pt)
            for (size_t o = 0; o < ops.size(); ++o)
                if (ops[o].first_hole == h) {
                    uint32_t low = sub.reuse_operands & ((1u << o) - 1);
                    sub.reuse_operands = low | ((sub.reuse_operands & ~((1u << o) - 1)) << 1);
                }
        return FromSplit(sub);
    }
    if (id < 0) {
        // Forms whose corpus instances left a hole unexplained keep it as literal text: try the
        // variants of the template with some holes written out.
        std::vector<size_t> starts;
        for (size_t p = 0; (p = templ.find('{', p)) != std::string::npos; ++p) starts.push_back(p);
        size_t k = starts.size();
        if (k == st.holes.size() && k <= 10) {
            for (uint32_t mask = 1; mask < (1u << k) && id < 0; ++mask) {
                std::string t;
                size_t prev = 0;
                SplitText sub = st;
                sub.holes.clear();
                for (size_t i = 0; i < k; ++i) {
                    size_t e = templ.find('}', starts[i]);
                    t += templ.substr(prev, starts[i] - prev);
                    if ((mask >> i) & 1) t += st.holes[i].kind == HoleKind::LABEL ? st.holes[i].label : st.holes[i].text;
                    else {
                        t += templ.substr(starts[i], e + 1 - starts[i]);
                        sub.holes.push_back(st.holes[i]);
                    }
                    prev = e + 1;
                }
                t += templ.substr(prev);
                int cand = FindForm(t);
                if (cand >= 0) {
                    sub.templ = st.guard_uniform ? t.substr(3) : t;
                    return FromSplit(sub);
                }
            }
        }
        return Status::Unsupported("no table form for '" + templ + "'");
    }
    const Form &f = forms_[id];
    if (st.holes.size() != f.fields.size()) return Status::Internal("hole count mismatch for '" + templ + "'");
    Instruction inst;
    inst.form = id;
    inst.guard_pred = st.guard_pred;
    inst.guard_neg = st.guard_neg;
    inst.reuse_operands = st.reuse_operands;
    for (size_t i = 0; i < st.holes.size(); ++i) {
        const Hole &h = st.holes[i];
        const Field &fl = f.fields[i];
        int64_t v = h.value;
        if (h.kind == HoleKind::UREG && h.text == "URZ") v = GetArchInfo(arch_).ur_zero;
        if (h.kind == HoleKind::NUM && fl.code != HoleCode::PLAIN && fl.code != HoleCode::SIGNED) {
            bool found = false;
            if (f.nan_bits && (h.text == "+QNAN" || h.text == "-QNAN")) {
                int sign_bit = fl.code == HoleCode::F16 ? 15 : 31;
                v = static_cast<int64_t>(*f.nan_bits | (uint64_t{h.text[0] == '-'} << sign_bit));
                found = true;
            }
            for (const auto &[key, text] : float_text_)
                if (!found && key.first == static_cast<int>(fl.code) && text == h.text) {
                    v = static_cast<int64_t>(key.second);
                    found = true;
                    break;
                }
            if (!found) {
                double d;
                if (h.text == "+INF") d = INFINITY;
                else if (h.text == "-INF") d = -INFINITY;
                else if (h.text == "+QNAN") d = NAN;
                else if (h.text == "-QNAN") d = -NAN;
                else {
                    char *end = nullptr;
                    d = std::strtod(h.text.c_str(), &end);
                    if (end == h.text.c_str() || *end)
                        return Status::UserError(sqlstate::kSyntaxError, "'" + h.text + "' is not a number");
                }
                // The immediate must denote exactly one value of the field's coding: the decimal
                // value itself, or the text nvdisasm prints for it.  Anything else is an error,
                // never the nearest value.
                auto not_representable = [&](const char *what) {
                    return Status::UserError(sqlstate::kNumericOutOfRange,
                                             "'" + h.text + "' is not representable as " + what + " in '" + f.templ + "'");
                };
                if (fl.code == HoleCode::F32) {
                    float x = static_cast<float>(d);
                    uint32_t bits = std::bit_cast<uint32_t>(x);
                    bool exact = std::isnan(d) || static_cast<double>(x) == d;
                    if (!exact && FormatFloat(fl.code, bits) != h.text) return not_representable("an f32 immediate");
                    v = bits;
                } else if (fl.code == HoleCode::F64HI) {
                    uint64_t bits = std::bit_cast<uint64_t>(d);
                    bool exact = std::isnan(d) || (bits & 0xffffffffu) == 0;
                    if (!exact && FormatFloat(fl.code, bits >> 32) != h.text)
                        return not_representable("an f64 immediate (only its high 32 bits are encoded; the low 32 must be 0)");
                    v = static_cast<int64_t>(bits >> 32);
                } else if (fl.code == HoleCode::F16) {
                    uint64_t hb = 0;
                    if (!DoubleToHalf(d, &hb)) return not_representable("an f16 immediate");
                    v = static_cast<int64_t>(hb);
                } else {
                    return Status::Internal("float immediate in a non-float field of '" + f.templ + "'");
                }
            }
        }
        inst.values.push_back(v);
    }
    return inst;
}

void Isa::TrackImplicit(Instruction *inst, std::optional<int64_t> *desc) const {
    const Form &f = forms_[inst->form];
    if (f.implicit) {
        if (*desc) inst->implicit = *desc;
        return;
    }
    uint32_t offset = GetArchInfo(arch_).mem_desc;
    if (offset == 0 || f.templ.rfind("ULDC.64 {UR}, c[", 0) != 0 || inst->values.empty()) return;
    char expect[64];
    std::snprintf(expect, sizeof expect, "ULDC.64 UR%lld, c[0x0][0x%x]", static_cast<long long>(inst->values[0]), offset);
    if (PrintWithLabels(*inst, {}) == expect) *desc = inst->values[0];
}

}  // namespace rndn::sass
