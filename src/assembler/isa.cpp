// The generic table-driven encoder, decoder, printer and parser.
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
    if (!best->aliases.empty()) {
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
    size_t hole = 0;
    int operand = -1;  // -1: mnemonic
    auto end_operand = [&]() {
        if (operand >= 0 && ((inst.reuse_operands >> operand) & 1)) out += ".reuse";
    };
    char buf[64];
    for (size_t i = 0; i < t.size(); ++i) {
        char c = t[i];
        if (operand == -1 && c == ' ') {
            operand = 0;
            out += ' ';
            continue;
        }
        if (c == ',' && i + 1 < t.size() && t[i + 1] == ' ') {
            end_operand();
            ++operand;
            out += ", ";
            ++i;
            continue;
        }
        if (c != '{') {
            out += c;
            continue;
        }
        size_t e = t.find('}', i);
        i = e;
        if (hole >= f.fields.size()) continue;
        const Field &fl = f.fields[hole];
        int64_t v = inst.values[hole];
        switch (fl.kind) {
            case HoleKind::REG: out += v == 255 ? std::string("RZ") : "R" + std::to_string(v); break;
            case HoleKind::UREG: out += v == 63 ? std::string("URZ") : "UR" + std::to_string(v); break;
            case HoleKind::PRED: out += v == 7 ? std::string("PT") : "P" + std::to_string(v); break;
            case HoleKind::UPRED: out += v == 7 ? std::string("UPT") : "UP" + std::to_string(v); break;
            case HoleKind::BREG: out += "B" + std::to_string(v); break;
            case HoleKind::HEX:
                // A 64-bit unsigned immediate (sm_120's MOV.64) prints as nvdisasm does: 0x8000....
                if (v < 0 && !(fl.code == HoleCode::PLAIN && fl.width + fl.width2 >= 64)) std::snprintf(buf, sizeof buf, "-0x%llx", static_cast<unsigned long long>(-v));
                else std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
                out += buf;
                break;
            case HoleKind::NUM:
                if (fl.code == HoleCode::PLAIN || fl.code == HoleCode::SIGNED) out += std::to_string(v);
                else {
                    std::string f = FormatFloat(fl.code, static_cast<uint64_t>(v));
                    out += f;
                    // nvdisasm: "+INF , P0" but "1.5, P0" (see SplitInstructionText).
                    if ((f.find("INF") != std::string::npos || f.find("QNAN") != std::string::npos) && e + 1 < t.size() &&
                        t[e + 1] == ',')
                        out += ' ';
                }
                break;
            case HoleKind::LABEL: out += hole < label_names.size() ? label_names[hole] : std::string("?"); break;
        }
        ++hole;
    }
    end_operand();
    return out;
}

Expected<Instruction> Isa::FromSplit(const SplitText &st) const {
    std::string templ = st.guard_uniform ? "@U " + st.templ : st.templ;
    int id = FindForm(templ);
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
