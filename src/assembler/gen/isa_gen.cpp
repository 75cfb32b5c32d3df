// isa_gen: builds an encoding table (src/assembler/isa/sm_XX.inc) from our own kernel corpus.
//
//   isa_gen --arch sm_86 --nvdisasm PATH -o src/assembler/isa/sm_86.inc a.cubin b.cubin ...
//
// For every instruction nvdisasm prints (text plus its 128-bit encoding) we split the text into
// a template with typed holes (SplitInstructionText).  All instances of one template form a
// group; for each hole we search the bit positions (and value codings) consistent with every
// instance, preferring positions that other forms use for the same opcode/operand (a prior
// built from the unambiguous cases).  Bits outside the fields that never vary are the form's
// fixed bits; bits that vary without explanation are recorded as "free" (the encoder uses the
// first instance's value).  A hole no position explains becomes literal text and splits the
// group.  Every row keeps a provenance record (cubin:function:address of its first instance).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <iterator>
#include <random>
#include <tuple>
#include <unistd.h>

#include "assembler/assembler.h"

using namespace rndn;
using namespace rndn::sass;

namespace {

constexpr int kControlLo = 105;

struct Inst {
    SplitText st;
    std::string templ;  // with "@U " prefix for uniform guards
    Word w;
    uint64_t addr = 0;
    std::string where;
    std::vector<int64_t> label_targets;  // per hole (LABEL only)
};

std::string Hex128(const Word &w) {
    char b[40];
    std::snprintf(b, sizeof b, "%016llx%016llx", static_cast<unsigned long long>(w.hi), static_cast<unsigned long long>(w.lo));
    return b;
}

// URZ's value in this architecture's uniform register fields (ArchInfo::ur_zero): 63 in 6-bit
// fields, 255 in the 8-bit fields of sm_100 on.
int g_ur_zero = 63;

int FixedWidth(HoleKind k) {
    switch (k) {
        case HoleKind::REG: return 8;
        case HoleKind::UREG: return g_ur_zero == 255 ? 8 : 6;
        case HoleKind::PRED: case HoleKind::UPRED: return 3;
        case HoleKind::BREG: return 4;
        default: return 0;
    }
}
const char *KindName(HoleKind k) {
    static const char *n[] = {"R", "UR", "P", "UP", "B", "X", "N", "L"};
    return n[static_cast<int>(k)];
}
const char *CodeName(HoleCode c) {
    static const char *n[] = {"PLAIN", "SIGNED", "F32", "F64HI", "F16", "REL"};
    return n[static_cast<int>(c)];
}

// ----------------------------------------------------------------------------- hand knowledge
// The checked-in file src/assembler/isa/hand.txt (see its header for the format): what the corpus
// cannot teach (operand placements that the examples leave ambiguous, hidden operands, reuse slots
// of operands that always travel together, NaN payloads, float immediate codings).  Rules are
// scoped by "arch" lines; every rule is checked against every corpus instance it touches, and a
// rule that contradicts the corpus, or that touches no form, stops the generator.
bool ParseFieldSpec(const std::string &item, Field *out) {
    std::vector<std::string> p;
    size_t s = 0;
    while (true) {
        size_t e = item.find(':', s);
        p.push_back(item.substr(s, e == std::string::npos ? std::string::npos : e - s));
        if (e == std::string::npos) break;
        s = e + 1;
    }
    if (p.size() != 4 && p.size() != 7) return false;
    static const char *kinds[] = {"R", "UR", "P", "UP", "B", "X", "N", "L"};
    static const char *codes[] = {"PLAIN", "SIGNED", "F32", "F64HI", "F16", "REL"};
    int k = -1, c = -1;
    for (int i = 0; i < 8; ++i)
        if (p[0] == kinds[i]) k = i;
    for (int i = 0; i < 6; ++i)
        if (p[1] == codes[i]) c = i;
    if (k < 0 || c < 0) return false;
    *out = Field{static_cast<HoleKind>(k), static_cast<HoleCode>(c), std::atoi(p[2].c_str()), std::atoi(p[3].c_str())};
    if (p.size() == 7) out->lo2 = std::atoi(p[4].c_str()), out->width2 = std::atoi(p[5].c_str()), out->shift = std::atoi(p[6].c_str());
    return out->width > 0 && out->lo >= 0 && out->lo + out->width <= kControlLo;
}

struct HandRules {
    struct Operand {  // a text pattern with holes: wherever a template contains it, these fields
        std::string pattern;
        std::vector<Field> fields;
        int line = 0, used = 0;
        // Opcodes (+OP / -OP in the rule's fourth column); -.MOD skips mnemonics carrying the
        // modifier MOD (ISETP's .EX forms).  A pattern ending in '$' matches at the template's end.
        std::set<std::string> only, skip;
    };
    struct FieldRule {  // one hole of one template
        std::string templ;
        size_t hole = 0;
        Field field;
        int line = 0, used = 0;
    };
    struct Reuse {
        std::string templ;
        std::vector<int8_t> bits;
        int line = 0, used = 0;
    };
    struct Implicit {  // forms whose mnemonic is `mnemonic` or starts with `mnemonic.`
        std::string mnemonic;
        Field field;
        int64_t def = 0;
        int line = 0, used = 0;
        bool none = false;  // field "-": no hidden operand (an exception listed before a wider rule)
    };
    struct Nan {
        std::string templ;
        uint64_t bits = 0;
        int line = 0, used = 0;
    };
    struct Omit {  // a predicate operand nvdisasm leaves out of the text when it holds PT/UPT
        Field field;
        std::set<std::string> opcodes;
        int line = 0, used = 0;
    };
    struct NotRz {  // a register hole nvdisasm rejects (or prints as ???255) when it holds RZ
        std::string pattern;                 // operand text, as in "operand" rules
        int hole = 0;                        // hole of the pattern
        std::set<std::string> only, skip;    // opcode filters
        int line = 0, used = 0;
    };
    struct Alias {  // forms named `alias` are nvdisasm's name for `general` when an alternative holds
        struct Condition {
            int operand = 0;     // operand index in the text (0: the first after the mnemonic)
            bool rz = false;     // the operand is the register RZ
            bool pow2 = false;   // ... an immediate power of two
            int64_t value = 0;   // ... else the immediate `value`
        };
        std::string alias, general;
        std::vector<std::vector<Condition>> alternatives;
        int line = 0, used = 0;
    };
    struct Drop {  // an operand nvdisasm prints shorter when one of its holes holds a value
        std::string operand, printed;
        int hole = 0;         // hole of `operand` left out ([RZ+UR4] is [UR4]: hole 0)
        int64_t value = 0;    // ... when it holds this value (RZ: 255)
        std::vector<std::optional<Field>> fields;  // per hole of `printed` (nullopt: as before)
        int line = 0, used = 0;
    };
    std::vector<Operand> operands;
    std::vector<Drop> drops;
    std::vector<Omit> omits;
    std::vector<NotRz> not_rz;
    std::vector<Alias> aliases;
    std::vector<FieldRule> fields;
    std::vector<Reuse> reuses;
    std::vector<Implicit> implicits;
    std::vector<Nan> nans;
    std::map<std::string, HoleCode> float_code;  // base opcode -> coding of its float immediates
    // The operand-form selector: the bits that tell an ALU form's register, immediate, constant
    // and uniform-register sources apart (hand.txt "selector"); width 0: none given.
    int selector_lo = 0, selector_width = 0;
    int selector_line = 0;
    std::vector<std::string> notes;              // "note" lines, copied into the table header
};

int HolesIn(const std::string &op);

bool LoadHand(const std::string &path, const std::string &arch, HandRules *h) {
    std::ifstream in(path);
    if (!in) {
        std::cerr << "isa_gen: cannot read " << path << "\n";
        return false;
    }
    std::string line;
    int lineno = 0;
    bool active = true;
    auto fail = [&](const std::string &why) {
        std::cerr << path << ":" << lineno << ": " << why << "\n";
        return false;
    };
    while (std::getline(in, line)) {
        ++lineno;
        if (line.empty() || line[0] == '#') continue;
        std::vector<std::string> col;
        size_t s = 0;
        while (true) {
            size_t e = line.find('\t', s);
            col.push_back(line.substr(s, e == std::string::npos ? std::string::npos : e - s));
            if (e == std::string::npos) break;
            s = e + 1;
        }
        if (col[0] == "arch") {
            if (col.size() != 2) return fail("arch<TAB>sm_XX sm_YY ... | *");
            std::istringstream as(col[1]);
            std::string a;
            active = false;
            while (as >> a) active = active || a == "*" || a == arch;
            continue;
        }
        if (!active) continue;
        if (col[0] == "operand" && col.size() >= 3) {
            HandRules::Operand o{col[1], {}, lineno};
            std::istringstream fs(col[2]);
            std::string item;
            while (fs >> item) {
                Field f{};
                if (!ParseFieldSpec(item, &f)) return fail("bad field '" + item + "'");
                o.fields.push_back(f);
            }
            if (col.size() >= 4) {
                std::istringstream ops(col[3]);
                std::string op;
                while (ops >> op) {
                    if (op.size() < 2 || (op[0] != '+' && op[0] != '-')) return fail("opcode filter is +OP or -OP");
                    (op[0] == '+' ? o.only : o.skip).insert(op.substr(1));
                }
            }
            h->operands.push_back(o);
        } else if (col[0] == "field" && col.size() >= 4) {
            HandRules::FieldRule r{col[1], static_cast<size_t>(std::atoi(col[2].c_str())), {}, lineno};
            if (!ParseFieldSpec(col[3], &r.field)) return fail("bad field '" + col[3] + "'");
            h->fields.push_back(r);
        } else if (col[0] == "reuse" && col.size() >= 3) {
            HandRules::Reuse r{col[1], {}, lineno};
            std::istringstream rs(col[2]);
            std::string item;
            while (std::getline(rs, item, ',')) r.bits.push_back(static_cast<int8_t>(std::atoi(item.c_str())));
            h->reuses.push_back(r);
        } else if (col[0] == "implicit" && col.size() >= 4) {
            HandRules::Implicit r{col[1], {}, std::atoll(col[3].c_str()), lineno};
            r.none = col[2] == "-";
            if (!r.none && !ParseFieldSpec(col[2], &r.field)) return fail("bad field '" + col[2] + "'");
            h->implicits.push_back(r);
        } else if (col[0] == "alias" && col.size() >= 4) {
            HandRules::Alias r{col[1], col[2], {{}}, lineno};
            std::istringstream cs(col[3]);
            std::string item;
            while (cs >> item) {
                if (item == "|") {
                    r.alternatives.emplace_back();
                    continue;
                }
                size_t eq = item.find('=');
                if (eq == std::string::npos) return fail("alias condition is OPERAND=RZ, OPERAND=VALUE or OPERAND=pow2");
                HandRules::Alias::Condition c;
                c.operand = std::atoi(item.substr(0, eq).c_str());
                std::string v = item.substr(eq + 1);
                if (v == "RZ") c.rz = true;
                else if (v == "pow2") c.pow2 = true;
                else c.value = std::strtoll(v.c_str(), nullptr, 0);
                r.alternatives.back().push_back(c);
            }
            for (const auto &alt : r.alternatives)
                if (alt.empty()) return fail("empty alias alternative");
            h->aliases.push_back(r);
        } else if (col[0] == "drop" && col.size() >= 4) {
            HandRules::Drop r{col[1], col[2], 0, 0, {}, lineno};
            size_t eq = col[3].find('=');
            if (eq == std::string::npos) return fail("drop: HOLE=VALUE (RZ for a register)");
            r.hole = std::atoi(col[3].substr(0, eq).c_str());
            std::string v = col[3].substr(eq + 1);
            r.value = v == "RZ" ? 255 : std::strtoll(v.c_str(), nullptr, 0);
            if (r.hole < 0 || r.hole >= HolesIn(r.operand) || HolesIn(r.printed) != HolesIn(r.operand) - 1)
                return fail("drop: the printed operand has the operand's holes but one");
            std::istringstream fs(col.size() >= 5 ? col[4] : "");
            std::string item;
            while (fs >> item) {
                if (item == "=") {
                    r.fields.push_back(std::nullopt);
                    continue;
                }
                Field f{};
                if (!ParseFieldSpec(item, &f)) return fail("bad field '" + item + "'");
                r.fields.push_back(f);
            }
            if (!r.fields.empty() && r.fields.size() != static_cast<size_t>(HolesIn(r.printed)))
                return fail("drop: one field (or '=') per hole of the printed operand");
            h->drops.push_back(r);
        } else if (col[0] == "omit" && col.size() >= 3) {
            HandRules::Omit r{{}, {}, lineno};
            if (!ParseFieldSpec(col[1], &r.field) ||
                (r.field.kind != HoleKind::PRED && r.field.kind != HoleKind::UPRED && r.field.kind != HoleKind::UREG))
                return fail("omit takes a predicate or uniform register field, not '" + col[1] + "'");
            std::istringstream ops(col[2]);
            std::string op;
            while (ops >> op) r.opcodes.insert(op);
            h->omits.push_back(r);
        } else if (col[0] == "norz" && col.size() >= 3) {
            HandRules::NotRz r{col[1], std::atoi(col[2].c_str()), {}, {}, lineno};
            if (r.hole < 0 || r.hole >= HolesIn(r.pattern)) return fail("norz: the hole is one of the text's holes");
            std::istringstream ops(col.size() >= 4 ? col[3] : "");
            std::string op;
            while (ops >> op) {
                if (op.size() < 2 || (op[0] != '+' && op[0] != '-')) return fail("opcode filter is +OP or -OP");
                (op[0] == '+' ? r.only : r.skip).insert(op.substr(1));
            }
            h->not_rz.push_back(r);
        } else if (col[0] == "nan" && col.size() >= 3) {
            h->nans.push_back({col[1], std::strtoull(col[2].c_str(), nullptr, 16), lineno});
        } else if (col[0] == "float" && col.size() >= 3) {
            HoleCode c;
            if (col[1] == "F32") c = HoleCode::F32;
            else if (col[1] == "F64HI") c = HoleCode::F64HI;
            else if (col[1] == "F16") c = HoleCode::F16;
            else return fail("float coding is F32, F64HI or F16");
            std::istringstream os(col[2]);
            std::string op;
            while (os >> op) h->float_code[op] = c;
        } else if (col[0] == "selector" && col.size() >= 3) {
            h->selector_lo = std::atoi(col[1].c_str());
            h->selector_width = std::atoi(col[2].c_str());
            h->selector_line = lineno;
            if (h->selector_lo < 0 || h->selector_width < 1 || h->selector_width > 8 || h->selector_lo + h->selector_width > 64)
                return fail("selector<TAB>lo<TAB>width (within bits 0..63)");
        } else if (col[0] == "note" && col.size() >= 2) {
            h->notes.push_back(col[1]);
        } else {
            return fail("unknown rule '" + col[0] + "'");
        }
    }
    return true;
}

HandRules g_hand;

std::string Mnemonic(const std::string &templ) {
    std::string t = templ.rfind("@U ", 0) == 0 ? templ.substr(3) : templ;
    return t.substr(0, t.find(' '));
}

// The hand-forced fields of a template: hole index -> field.
std::map<size_t, Field> ForcedFields(const std::string &templ) {
    std::map<size_t, Field> out;
    std::string m = Mnemonic(templ), op = m.substr(0, m.find('.'));
    auto has_modifier = [&](const std::string &mod) { return (m + ".").find(mod + ".") != std::string::npos; };
    for (HandRules::Operand &o : g_hand.operands) {
        if (o.skip.count(op) || (!o.only.empty() && !o.only.count(op))) continue;
        bool skipped = false;
        for (const std::string &k : o.skip) skipped = skipped || (k[0] == '.' && has_modifier(k));
        if (skipped) continue;
        bool anchored = !o.pattern.empty() && o.pattern.back() == '$';
        const std::string pat = anchored ? o.pattern.substr(0, o.pattern.size() - 1) : o.pattern;
        for (size_t p = templ.find(pat); p != std::string::npos; p = templ.find(pat, p + 1)) {
            if (anchored && p + pat.size() != templ.size()) continue;
            size_t hole = static_cast<size_t>(std::count(templ.begin(), templ.begin() + static_cast<long>(p), '{'));
            for (size_t k = 0; k < o.fields.size(); ++k) out[hole + k] = o.fields[k];
            ++o.used;
        }
    }
    for (HandRules::FieldRule &r : g_hand.fields)
        if (r.templ == templ) {
            out[r.hole] = r.field;
            ++r.used;
        }
    return out;
}

const HandRules::Implicit *ImplicitFor(const std::string &templ) {
    std::string m = Mnemonic(templ);
    for (HandRules::Implicit &r : g_hand.implicits)
        if (m == r.mnemonic || m.rfind(r.mnemonic + ".", 0) == 0) {
            ++r.used;
            return r.none ? nullptr : &r;
        }
    return nullptr;
}

// The holes of a form that nvdisasm leaves out of its text when they hold PT/UPT (hand.txt
// "omit"): whole operands "{P}" / "{UP}" whose field a rule names, in the rule's opcodes.
std::vector<int> OmitHoles(const std::string &templ, const std::vector<Field> &fields) {
    std::vector<int> out;
    std::string m = Mnemonic(templ), op = m.substr(0, m.find('.'));
    std::string t = templ.rfind("@U ", 0) == 0 ? templ.substr(3) : templ;
    size_t sp = t.find(' ');
    if (sp == std::string::npos) return out;
    int hole = 0;
    size_t p = sp + 1;
    while (p <= t.size()) {
        size_t e = t.find(", ", p);
        std::string operand = t.substr(p, e == std::string::npos ? std::string::npos : e - p);
        if ((operand == "{P}" || operand == "{UP}" || operand == "{UR}") && hole < static_cast<int>(fields.size()))
            for (HandRules::Omit &r : g_hand.omits) {
                const Field &f = fields[hole];
                if (r.opcodes.count(op) && f.kind == r.field.kind && f.lo == r.field.lo && f.width == r.field.width) {
                    out.push_back(hole);
                    ++r.used;
                    break;
                }
            }
        hole += static_cast<int>(std::count(operand.begin(), operand.end(), '{'));
        if (e == std::string::npos) break;
        p = e + 2;
    }
    return out;
}

// The register holes of a form that must not hold RZ (hand.txt "norz"): nvdisasm rejects the word
// or prints ???255 there, so the encoder refuses RZ and the decoder reads such a word as no form.
std::vector<int> NotRzHoles(const std::string &templ, const std::vector<Field> &fields, bool count) {
    std::set<int> out;
    std::string m = Mnemonic(templ), op = m.substr(0, m.find('.'));
    for (HandRules::NotRz &r : g_hand.not_rz) {
        if (r.skip.count(op) || (!r.only.empty() && !r.only.count(op))) continue;
        for (size_t p = templ.find(r.pattern); p != std::string::npos; p = templ.find(r.pattern, p + 1)) {
            int hole = static_cast<int>(std::count(templ.begin(), templ.begin() + static_cast<long>(p), '{')) + r.hole;
            if (hole >= static_cast<int>(fields.size()) || fields[hole].kind != HoleKind::REG) continue;
            out.insert(hole);
            if (count) ++r.used;
        }
    }
    return {out.begin(), out.end()};
}

// The hand.txt alias rule whose alias mnemonic is the template's, with its rank (rule order):
// its alternatives resolved to holes.  An alternative whose operands are not single holes of the
// right kind here (a constant-bank factor) is dropped.  nullptr: no rule names the mnemonic.
const HandRules::Alias *AliasRule(const std::string &templ, int *rank) {
    for (size_t i = 0; i < g_hand.aliases.size(); ++i)
        if (Mnemonic(templ) == g_hand.aliases[i].alias) {
            *rank = static_cast<int>(i);
            return &g_hand.aliases[i];
        }
    return nullptr;
}
std::vector<std::vector<AliasCondition>> ResolveAlias(const HandRules::Alias &r, const std::string &templ,
                                                     const std::vector<Field> &fields) {
    std::vector<std::pair<std::string, int>> ops;  // operand text, first hole
    std::string t = templ.rfind("@U ", 0) == 0 ? templ.substr(3) : templ;
    size_t sp = t.find(' ');
    int hole = 0;
    for (size_t p = sp == std::string::npos ? t.size() + 1 : sp + 1; p <= t.size();) {
        size_t e = t.find(", ", p);
        std::string op = t.substr(p, e == std::string::npos ? std::string::npos : e - p);
        ops.push_back({op, hole});
        hole += static_cast<int>(std::count(op.begin(), op.end(), '{'));
        if (e == std::string::npos) break;
        p = e + 2;
    }
    std::vector<std::vector<AliasCondition>> out;
    for (const auto &alt : r.alternatives) {
        std::vector<AliasCondition> conds;
        bool ok = true;
        for (const auto &c : alt) {
            if (c.operand < 0 || c.operand >= static_cast<int>(ops.size()) ||
                std::count(ops[c.operand].first.begin(), ops[c.operand].first.end(), '{') != 1) {
                ok = false;
                break;
            }
            int h = ops[c.operand].second;
            HoleKind want = c.rz ? HoleKind::REG : HoleKind::HEX;
            if (h >= static_cast<int>(fields.size()) || fields[h].kind != want) {
                ok = false;
                break;
            }
            conds.push_back(AliasCondition{h, c.pow2, c.rz ? 255 : c.value});
        }
        if (ok) out.push_back(conds);
    }
    return out;
}

// Runs nvdisasm -c -hex on a cubin and collects instructions.
bool Harvest(const std::string &nvdisasm, const std::string &cubin, std::vector<Inst> *out, int *parse_fail) {
    // A .sass file is nvdisasm's listing saved by the build (mk/assembler.mk); anything else is a
    // cubin that we run nvdisasm on.
    bool saved = cubin.size() > 5 && cubin.compare(cubin.size() - 5, 5, ".sass") == 0;
    FILE *f = saved ? std::fopen(cubin.c_str(), "r") : popen((nvdisasm + " -c -hex '" + cubin + "' 2>&1").c_str(), "r");
    if (!f) return false;
    std::vector<std::string> lines;
    char buf[4096];
    while (fgets(buf, sizeof buf, f)) {
        std::string s = buf;
        while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
        lines.push_back(s);
    }
    if (saved) std::fclose(f);
    else pclose(f);
    std::string base = cubin.substr(cubin.rfind('/') + 1);
    if (saved) base = base.substr(0, base.size() - 5) + ".cubin";
    // First pass: label addresses per function (labels precede the instruction they name).
    std::string func;
    std::map<std::string, std::map<std::string, uint64_t>> labels;
    std::vector<std::string> pending;
    for (const std::string &l : lines) {
        if (l.rfind("//--------------------- .text.", 0) == 0) {
            func = l.substr(30, l.find(' ', 30) - 30);
            pending.clear();
            continue;
        }
        if (!l.empty() && l[0] != ' ' && l[0] != '\t' && l.back() == ':' && l.find(' ') == std::string::npos) {
            pending.push_back(l.substr(0, l.size() - 1));
            continue;
        }
        size_t a = l.find("/*");
        if (a != std::string::npos && l.size() > a + 7 && l[a + 6] == '*' && l[a + 7] == '/' && !func.empty()) {
            uint64_t addr = std::strtoull(l.substr(a + 2, 4).c_str(), nullptr, 16);
            for (const std::string &p : pending) labels[func][p] = addr;
            pending.clear();
        }
    }
    // Function entry symbols: address 0 of their section.
    func.clear();
    for (size_t i = 0; i < lines.size(); ++i) {
        const std::string &l = lines[i];
        if (l.rfind("//--------------------- .text.", 0) == 0) {
            func = l.substr(30, l.find(' ', 30) - 30);
            labels[func][func] = 0;
            continue;
        }
        size_t a = l.find("/*");
        if (func.empty() || a == std::string::npos || l.size() < a + 8 || l[a + 6] != '*' || l[a + 7] != '/') continue;
        size_t c = l.find("/* 0x", a + 8);
        if (c == std::string::npos || i + 1 >= lines.size()) continue;
        std::string text = l.substr(a + 8, c - a - 8);
        while (!text.empty() && (text.back() == ' ' || text.back() == ';')) text.pop_back();
        size_t s = text.find_first_not_of(' ');
        text = s == std::string::npos ? "" : text.substr(s);
        Inst in;
        in.addr = std::strtoull(l.substr(a + 2, 4).c_str(), nullptr, 16);
        in.w.lo = std::strtoull(l.substr(c + 3, 18).c_str(), nullptr, 16);
        size_t c2 = lines[i + 1].find("/* 0x");
        if (c2 == std::string::npos) continue;
        in.w.hi = std::strtoull(lines[i + 1].substr(c2 + 3, 18).c_str(), nullptr, 16);
        char wh[300];
        std::snprintf(wh, sizeof wh, "%s:%s:0x%04llx", base.c_str(), func.c_str(), static_cast<unsigned long long>(in.addr));
        in.where = wh;
        auto st = SplitInstructionText(text);
        if (!st.ok()) {
            ++*parse_fail;
            std::cerr << "isa_gen: cannot split '" << text << "': " << st.status().message() << "\n";
            continue;
        }
        in.st = std::move(*st);
        for (Hole &h : in.st.holes)
            if (h.kind == HoleKind::UREG && h.text == "URZ") h.value = g_ur_zero;
        in.templ = (in.st.guard_uniform ? "@U " : "") + in.st.templ;
        bool bad_label = false;
        for (const Hole &h : in.st.holes) {
            if (h.kind != HoleKind::LABEL) {
                in.label_targets.push_back(0);
                continue;
            }
            auto &fl = labels[func];
            auto it = fl.find(h.label);
            if (it == fl.end()) {
                bad_label = true;
                break;
            }
            in.label_targets.push_back(static_cast<int64_t>(it->second));
        }
        if (bad_label) {
            ++*parse_fail;
            std::cerr << "isa_gen: unresolved label in '" << text << "' at " << in.where << "\n";
            continue;
        }
        out->push_back(std::move(in));
    }
    return true;
}

struct Candidate {
    HoleCode code;
    int lo, width;
    int lo2 = 0, width2 = 0, shift = 0;
};

struct Used {
    std::array<bool, 128> bit{};
    bool Free(int lo, int w) const {
        for (int i = lo; i < lo + w; ++i)
            if (i >= kControlLo || bit[i]) return false;
        return true;
    }
    void Take(int lo, int w) {
        for (int i = lo; i < lo + w; ++i) bit[i] = true;
    }
};

// Does the instance's hole fit raw bits `raw` under `code`?
bool FloatMatches(HoleCode code, uint64_t raw, const std::string &text) {
    double got = FloatFromBits(code, raw);
    if (text == "+INF" || text == "-INF") return std::isinf(got) && (got < 0) == (text[0] == '-');
    if (text == "+QNAN" || text == "-QNAN") return std::isnan(got) && std::signbit(got) == (text[0] == '-');
    char *end = nullptr;
    double want = std::strtod(text.c_str(), &end);
    if (!end || *end) return false;
    if (code == HoleCode::F32) return static_cast<float>(want) == got && std::signbit(want) == std::signbit(got);
    if (code == HoleCode::F64HI) return want == got && std::signbit(want) == std::signbit(got);
    return want == got && std::signbit(want) == std::signbit(got);
}

// Agreement length of bits at lo with value v (two's complement), up to max_w bits.
int Agreement(const Word &w, int lo, int64_t v, int max_w) {
    int n = 0;
    for (; n < max_w; ++n) {
        int bit = lo + n;
        bool want = n < 64 ? ((static_cast<uint64_t>(v) >> n) & 1) : (v < 0);
        if (w.Bit(bit) != want) break;
    }
    return n;
}
int BitLength(int64_t v) {
    if (v < 0) v = ~v;
    int n = 0;
    while (v) ++n, v >>= 1;
    return n;
}

// All consistent placements of hole j over the group.
struct WidthPrior {
    std::map<std::pair<std::string, int>, int> need;
    int Get(const std::string &key, int lo) const {
        auto it = need.find({key, lo});
        return it == need.end() ? 0 : it->second;
    }
    void Add(const std::string &key, int lo, int w) {
        int &v = need[{key, lo}];
        v = std::max(v, w);
    }
};

std::string BaseOpcode(const std::string &templ);

// Branch offsets split over two segments and scaled (sm_90 BRA: offset/4, low 8 bits at 16,
// the rest from bit 34): search shift, first segment and second segment start.
void SplitLabelCandidates(const std::vector<const Inst *> &g, size_t j, const Used &used, std::vector<Candidate> *out) {
    auto rel = [&](const Inst *in) { return in->label_targets[j] - static_cast<int64_t>(in->addr + 16); };
    for (int shift : {2, 0}) {
        bool divisible = true;
        for (const Inst *in : g) divisible = divisible && rel(in) % (int64_t{1} << shift) == 0;
        if (!divisible) continue;
        for (int w1 = 1; w1 <= 16; ++w1)
            for (int lo1 = 0; lo1 + w1 <= kControlLo; ++lo1) {
                if (!used.Free(lo1, w1)) continue;
                bool ok = true;
                for (const Inst *in : g) {
                    int64_t v = rel(in) / (int64_t{1} << shift);
                    if (in->w.Get(lo1, w1) != (static_cast<uint64_t>(v) & ((uint64_t{1} << w1) - 1))) {
                        ok = false;
                        break;
                    }
                }
                if (!ok) continue;
                for (int lo2 = lo1 + w1 + 1; lo2 < kControlLo; ++lo2) {
                    int width = 64, need = 1;
                    for (const Inst *in : g) {
                        int64_t v = (rel(in) / (int64_t{1} << shift)) >> w1;
                        width = std::min(width, Agreement(in->w, lo2, v, std::min(64 - w1, kControlLo - lo2)));
                        need = std::max(need, BitLength(v) + 1);
                        if (width < need) break;
                    }
                    if (width < need) continue;
                    int w2 = 0;
                    while (w2 < width && used.Free(lo2 + w2, 1)) ++w2;
                    if (w2 < need) continue;
                    out->push_back({HoleCode::RELATIVE, lo1, w1, lo2, w2, shift});
                }
                if (!out->empty()) return;
            }
    }
}

std::vector<Candidate> Candidates(const std::vector<const Inst *> &g, size_t j, const Used &used,
                                  const WidthPrior *widths) {
    const std::string key = BaseOpcode(g[0]->templ) + "#" + std::to_string(j);
    std::vector<Candidate> out;
    HoleKind kind = g[0]->st.holes[j].kind;
    int fw = FixedWidth(kind);
    if (fw) {
        for (int lo = 0; lo + fw <= kControlLo; ++lo) {
            if (!used.Free(lo, fw)) continue;
            bool ok = true;
            for (const Inst *in : g)
                if (static_cast<int64_t>(in->w.Get(lo, fw)) != in->st.holes[j].value) {
                    ok = false;
                    break;
                }
            if (ok) out.push_back({HoleCode::PLAIN, lo, fw});
        }
        return out;
    }
    bool any_neg = false;
    for (const Inst *in : g)
        if (in->st.holes[j].value < 0) any_neg = true;
    // nvdisasm prints integers in hex; a decimal number is always a float immediate (its text
    // may look integral: "1", "-2"), coded as the opcode's float rule in hand.txt says.
    if (kind == HoleKind::HEX || kind == HoleKind::LABEL) {
        for (int lo = 0; lo < kControlLo; ++lo) {
            int width = 64;
            int need = 1;
            for (const Inst *in : g) {
                int64_t v = in->st.holes[j].value;
                if (kind == HoleKind::LABEL) v = in->label_targets[j] - static_cast<int64_t>(in->addr + 16);
                int maxw = std::min(64, kControlLo - lo);
                width = std::min(width, Agreement(in->w, lo, v, maxw));
                need = std::max(need, BitLength(v) + ((any_neg || kind == HoleKind::LABEL) ? 1 : 0));
                if (width < need) break;
            }
            if (width < need) continue;
            // do not swallow bits used by other fields
            int w = 0;
            while (w < width && used.Free(lo + w, 1)) ++w;
            if (w < need) continue;
            if (any_neg) w = std::min(w, 32);  // signed: the sign-extension agreement is real
            // Integers: only as wide as the values seen in this opcode family need (wider
            // agreement is usually neighbouring zero bits); branch offsets keep the
            // sign-extension agreement.
            if (kind != HoleKind::LABEL && !any_neg) {
                int fam = widths ? widths->Get(key, lo) : 0;
                w = std::min(w, std::max(need, fam));
            }
            HoleCode code = kind == HoleKind::LABEL ? HoleCode::RELATIVE : any_neg ? HoleCode::SIGNED : HoleCode::PLAIN;
            out.push_back({code, lo, w});
        }
        if (kind == HoleKind::LABEL && out.empty()) SplitLabelCandidates(g, j, used, &out);
        return out;
    }
    if (kind == HoleKind::NUM) {
        std::vector<HoleCode> codes = {HoleCode::F32, HoleCode::F64HI, HoleCode::F16};
        auto rule = g_hand.float_code.find(BaseOpcode(g[0]->templ));
        if (rule != g_hand.float_code.end()) codes = {rule->second};
        for (HoleCode code : codes) {
            int fwidth = code == HoleCode::F16 ? 16 : 32;
            for (int lo = 0; lo + fwidth <= kControlLo; ++lo) {
                if (!used.Free(lo, fwidth)) continue;
                bool ok = true;
                for (const Inst *in : g)
                    if (!FloatMatches(code, in->w.Get(lo, fwidth), in->st.holes[j].text)) {
                        ok = false;
                        break;
                    }
                if (ok) out.push_back({code, lo, fwidth});
            }
        }
    }
    return out;
}

std::string BaseOpcode(const std::string &templ) {
    std::string t = templ.rfind("@U ", 0) == 0 ? templ.substr(3) : templ;
    return t.substr(0, t.find_first_of(". "));
}

struct Prior {
    std::map<std::string, std::map<int, int>> counts;
    void Add(const std::string &key, int lo) { ++counts[key][lo]; }
    int Score(const std::string &key, int lo) const {
        auto it = counts.find(key);
        if (it == counts.end()) return 0;
        auto jt = it->second.find(lo);
        return jt == it->second.end() ? 0 : jt->second;
    }
};

std::vector<std::string> PriorKeys(const std::string &templ, size_t j, HoleKind k) {
    std::string kn = KindName(k);
    return {BaseOpcode(templ) + "#" + std::to_string(j) + kn, "#" + std::to_string(j) + kn, kn};
}

// Hole assignment order: fixed-width kinds first, then the holes with the most distinct values
// (a constant hole fits almost anywhere, so it goes last).
std::vector<size_t> HoleOrder(const std::vector<const Inst *> &g) {
    const Inst &in = *g[0];
    std::vector<size_t> order(in.st.holes.size());
    std::vector<size_t> distinct(order.size());
    for (size_t i = 0; i < order.size(); ++i) {
        order[i] = i;
        std::set<std::string> vals;
        for (const Inst *x : g) vals.insert(x->st.holes[i].text + "@" + std::to_string(x->label_targets[i] - static_cast<int64_t>(x->addr)));
        distinct[i] = vals.size();
    }
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        bool fa = FixedWidth(in.st.holes[a].kind) != 0, fb = FixedWidth(in.st.holes[b].kind) != 0;
        if (fa != fb) return fa;
        return distinct[a] > distinct[b];
    });
    return order;
}

// What a form's own instances say about its operands' reuse flags: per operand, the control reuse
// bits consistent with every instance, and whether that is exactly one (or a hand.txt rule).
struct ReuseEvidence {
    std::vector<std::vector<int>> options;
    std::vector<bool> certain;
};
std::map<std::string, ReuseEvidence> g_reuse_evidence;  // template -> evidence

struct Learned {
    bool ok = false;
    int literal_hole = -1;  // when !ok: the hole to make literal
    Form form;
};

Learned Learn(const std::vector<const Inst *> &g, const Prior *prior, Prior *record, WidthPrior *widths) {
    Learned L;
    const Inst &first = *g[0];
    Used used;
    for (int b = 12; b < 16; ++b) used.bit[b] = true;  // guard
    std::vector<Field> fields(first.st.holes.size());
    std::map<size_t, Field> forced = ForcedFields(first.templ);
    for (const auto &[j, fl] : forced) {
        if (j >= fields.size() || fl.kind != first.st.holes[j].kind) {
            std::cerr << "isa_gen: hand.txt field for hole " << j << " does not fit '" << first.templ << "'\n";
            std::exit(1);
        }
        for (const Inst *in : g) {
            const Hole &h = in->st.holes[j];
            int64_t got = UnpackField(fl, in->w, in->addr);
            bool ok = fl.kind == HoleKind::LABEL ? got == in->label_targets[j]
                      : fl.kind == HoleKind::NUM  ? FloatMatches(fl.code, static_cast<uint64_t>(got), h.text)
                                                  : got == h.value;
            if (!ok) {
                std::cerr << "isa_gen: hand.txt field for hole " << j << " of '" << first.templ
                          << "' contradicts the corpus at " << in->where << "\n";
                std::exit(1);
            }
        }
        fields[j] = fl;
        // A hand placement of a register or predicate is certain: it counts in the prior as an
        // unambiguous one would (so that forcing a hole does not move the placements that the
        // prior decides elsewhere).
        if (record && FixedWidth(fl.kind))
            for (const auto &k : PriorKeys(first.templ, j, fl.kind)) record->Add(k, fl.lo);
        used.Take(fl.lo, fl.width);
        if (fl.width2) used.Take(fl.lo2, fl.width2);
    }
    const HandRules::Implicit *implicit = ImplicitFor(first.templ);
    if (implicit) used.Take(implicit->field.lo, implicit->field.width);
    for (size_t j : HoleOrder(g)) {
        if (forced.count(j)) continue;
        std::vector<Candidate> c = Candidates(g, j, used, record ? nullptr : widths);
        if (c.empty()) {
            L.literal_hole = static_cast<int>(j);
            return L;
        }
        auto keys = PriorKeys(first.templ, j, first.st.holes[j].kind);
        size_t pick = 0;
        if (c.size() == 1) {
            if (record)
                for (const auto &k : keys) record->Add(k, c[0].lo);
        } else if (prior) {
            long best = -1;
            for (size_t i = 0; i < c.size(); ++i) {
                long s = 0;
                for (size_t k = 0; k < keys.size(); ++k) s += static_cast<long>(prior->Score(keys[k], c[i].lo)) << (20 * (2 - k));
                if (s > best) best = s, pick = i;
            }
        }
        fields[j] = Field{first.st.holes[j].kind, c[pick].code, c[pick].lo, c[pick].width, c[pick].lo2,
                          c[pick].width2, c[pick].shift};
        if (c[pick].width2) used.Take(c[pick].lo2, c[pick].width2);
        if (record && FixedWidth(first.st.holes[j].kind) == 0)
            widths->Add(BaseOpcode(first.templ) + "#" + std::to_string(j), c[pick].lo, c[pick].width);
        used.Take(c[pick].lo, c[pick].width);
    }
    Form &f = L.form;
    f.templ = first.templ;
    f.fields = fields;
    f.omit_pt = OmitHoles(f.templ, fields);
    int alias_rank = 0;
    if (const HandRules::Alias *r = AliasRule(f.templ, &alias_rank)) {
        f.select = ResolveAlias(*r, f.templ, fields);
        f.alias_rank = alias_rank;
        ++g_hand.aliases[alias_rank].used;
        if (f.select.empty()) {
            std::cerr << "isa_gen: hand.txt alias rule (line " << r->line << ") fits no operand of '" << f.templ << "'\n";
            std::exit(1);
        }
        for (const Inst *in : prior ? g : std::vector<const Inst *>{}) {
            std::vector<int64_t> values;
            for (size_t j = 0; j < fields.size(); ++j) values.push_back(UnpackField(fields[j], in->w, in->addr));
            if (!f.Selects(values)) {
                std::cerr << "isa_gen: hand.txt alias rule (line " << r->line << ") contradicts the corpus: '" << f.templ
                          << "' at " << in->where << "\n";
                std::exit(1);
            }
        }
    }
    for (int j : prior ? f.omit_pt : std::vector<int>{})
        for (const Inst *in : g)
            if (in->st.holes[j].value == (fields[j].kind == HoleKind::UREG ? g_ur_zero : 7)) {
                std::cerr << "isa_gen: hand.txt omit rule contradicts the corpus: nvdisasm printed PT/URZ in '" << first.templ
                          << "' at " << in->where << "\n";
                std::exit(1);
            }
    for (int j : prior ? NotRzHoles(f.templ, fields, false) : std::vector<int>{})
        for (const Inst *in : g)
            if (UnpackField(fields[j], in->w, in->addr) == 255) {
                std::cerr << "isa_gen: hand.txt norz rule contradicts the corpus: nvdisasm printed RZ in '" << first.templ
                          << "' at " << in->where << "\n";
                std::exit(1);
            }
    f.seen = static_cast<int>(g.size());
    f.provenance = first.where;
    // Hole values that never varied: nvdisasm prints some encodings under an alias chosen by
    // operand values (IMAD.IADD = IMAD with b = 0x1); the decoder uses these to pick among forms
    // with identical fixed bits.
    for (size_t j = 0; j < fields.size(); ++j) {
        const Inst &a = *g[0];
        int64_t v0 = UnpackField(fields[j], a.w, a.addr);
        bool same = g.size() > 1;
        for (const Inst *in : g) same = same && UnpackField(fields[j], in->w, in->addr) == v0;
        f.constant.push_back(same ? std::optional<int64_t>(v0) : std::nullopt);
    }
    if (implicit) {
        // A hidden operand: free bits with the rule's default (the encoder takes the value the
        // function's text implies, Isa::TrackImplicit).
        f.implicit = implicit->field;
        f.free_mask.Set(implicit->field.lo, implicit->field.width, ~uint64_t{0} >> (64 - implicit->field.width));
        f.free_default.Set(implicit->field.lo, implicit->field.width, static_cast<uint64_t>(implicit->def));
    }
    for (int b = 0; b < kControlLo; ++b) {
        if (used.bit[b]) continue;
        bool v0 = first.w.Bit(b), same = true;
        int ones = 0;
        for (const Inst *in : g) {
            same = same && in->w.Bit(b) == v0;
            ones += in->w.Bit(b);
        }
        if (same) {
            f.fixed_mask.Set(b, 1, 1);
            f.fixed_bits.Set(b, 1, v0);
        } else {
            f.free_mask.Set(b, 1, 1);
            f.free_default.Set(b, 1, ones * 2 > static_cast<int>(g.size()) ? 1 : 0);
        }
    }
    // Reuse flags: which control reuse bit follows which operand's ".reuse".
    int nops = 0;
    {
        std::string t = f.templ;
        if (t.find(' ') != std::string::npos) {
            nops = 1;
            for (size_t p = 0; (p = t.find(", ", p)) != std::string::npos; p += 2) ++nops;
        }
    }
    f.reuse_bit.assign(nops, -1);
    // The examples fix an operand's bit only when exactly one control reuse bit follows its
    // ".reuse" in every instance; otherwise (two operands always reused together) the bits that
    // fit are kept as options for ConfirmReuse, which probes them against nvdisasm.
    ReuseEvidence &ev = g_reuse_evidence[f.templ];
    ev = ReuseEvidence{};
    ev.options.assign(nops, {});
    ev.certain.assign(nops, false);
    for (int op = 0; op < nops && op < 32; ++op) {
        bool any = false;
        for (const Inst *in : g) any = any || ((in->st.reuse_operands >> op) & 1);
        if (!any) continue;
        for (int b = 0; b < 4; ++b) {
            bool ok = true;
            for (const Inst *in : g) {
                int rb = (UnpackControl(in->w).reuse >> b) & 1;
                if (rb != static_cast<int>((in->st.reuse_operands >> op) & 1)) ok = false;
            }
            if (ok) ev.options[op].push_back(b);
        }
        if (!ev.options[op].empty()) f.reuse_bit[op] = static_cast<int8_t>(ev.options[op][0]);
        ev.certain[op] = ev.options[op].size() == 1;
    }
    for (HandRules::Reuse &r : g_hand.reuses)
        if (r.templ == f.templ) {
            f.reuse_bit = r.bits;
            ev.certain.assign(r.bits.size(), true);
            ev.options.assign(r.bits.size(), {});
            ++r.used;
        }
    bool anyreuse = false;
    for (int8_t r : f.reuse_bit) anyreuse = anyreuse || r >= 0;
    if (!anyreuse) f.reuse_bit.clear();
    L.ok = true;
    return L;
}

// Replaces hole j by its literal text in the instance.
void MakeLiteral(Inst *in, size_t j) {
    std::string &t = in->st.templ;
    size_t pos = 0;
    for (size_t k = 0; k <= j; ++k) {
        pos = t.find('{', k == 0 ? 0 : pos + 1);
    }
    size_t e = t.find('}', pos);
    const Hole &h = in->st.holes[j];
    std::string lit = h.kind == HoleKind::LABEL ? h.label : h.text;
    t = t.substr(0, pos) + lit + t.substr(e + 1);
    in->st.holes.erase(in->st.holes.begin() + static_cast<long>(j));
    in->label_targets.erase(in->label_targets.begin() + static_cast<long>(j));
    in->templ = (in->st.guard_uniform ? "@U " : "") + in->st.templ;
}


std::string FormRow(const Form &f) {
    std::ostringstream o;
    o << "form\t" << f.templ << "\t" << Hex128(f.fixed_mask) << "\t" << Hex128(f.fixed_bits) << "\t"
      << (f.free_mask == Word{} ? std::string("-") : Hex128(f.free_mask)) << "\t"
      << (f.free_default == Word{} ? std::string("-") : Hex128(f.free_default)) << "\t";
    if (f.fields.empty()) o << "-";
    for (size_t j = 0; j < f.fields.size(); ++j) {
        o << (j ? " " : "") << KindName(f.fields[j].kind) << ":" << CodeName(f.fields[j].code) << ":" << f.fields[j].lo
          << ":" << f.fields[j].width;
        if (f.fields[j].width2 || f.fields[j].shift) o << ":" << f.fields[j].lo2 << ":" << f.fields[j].width2 << ":" << f.fields[j].shift;
    }
    o << "\t";
    if (f.reuse_bit.empty()) o << "-";
    for (size_t j = 0; j < f.reuse_bit.size(); ++j) o << (j ? "," : "") << static_cast<int>(f.reuse_bit[j]);
    o << "\t";
    bool anyc = false;
    for (const auto &c : f.constant) anyc = anyc || c.has_value();
    if (!anyc) o << "-";
    else
        for (size_t j = 0; j < f.constant.size(); ++j)
            o << (j ? "," : "") << (f.constant[j] ? std::to_string(*f.constant[j]) : std::string("*"));
    o << "\t" << f.seen << "\t" << f.provenance;
    if (f.implicit)
        o << "\t" << KindName(f.implicit->kind) << ":" << CodeName(f.implicit->code) << ":" << f.implicit->lo << ":"
          << f.implicit->width;
    o << "\n";
    if (!f.select.empty()) {
        o << "alias\t" << f.templ << "\t" << f.alias_rank << "\t";
        for (size_t a = 0; a < f.select.size(); ++a) {
            if (a) o << " | ";
            for (size_t j = 0; j < f.select[a].size(); ++j)
                o << (j ? " " : "") << f.select[a][j].hole << "="
                  << (f.select[a][j].pow2 ? std::string("pow2") : std::to_string(f.select[a][j].value));
        }
        o << "\n";
    }
    if (!f.omit_pt.empty()) {
        o << "omit\t" << f.templ << "\t";
        for (size_t j = 0; j < f.omit_pt.size(); ++j) o << (j ? "," : "") << f.omit_pt[j];
        o << "\n";
    }
    std::vector<int> norz = NotRzHoles(f.templ, f.fields, false);
    if (!norz.empty()) {
        o << "norz\t" << f.templ << "\t";
        for (size_t j = 0; j < norz.size(); ++j) o << (j ? "," : "") << norz[j];
        o << "\n";
    }
    return o.str();
}

// ----------------------------------------------------------------------------- synthesis
// Forms the corpus lacks are composed from forms it has: a template is a mnemonic (opcode plus
// modifier tokens) and operands; two forms of one opcode that differ in exactly one token (a
// modifier, e.g. ISETP.GE.AND -> ISETP.GT.AND, or one operand, e.g. {R} -> {UR}) give that
// token's edit as a bit delta (and, for an operand, its fields).  Applying an edit seen on one
// pair to another form of the opcode gives a candidate; every candidate is encoded with
// pseudo-random operands and kept only if nvdisasm prints exactly the text our printer gives
// for both instances and our decoder reads the words back as the candidate.  Nothing
// unconfirmed enters the table.
struct Tokens {
    std::string prefix;  // "@U " or ""
    std::vector<std::string> mn, ops;
};
Tokens Tokenize(const std::string &templ) {
    Tokens t;
    std::string s = templ;
    if (s.rfind("@U ", 0) == 0) t.prefix = "@U ", s = s.substr(3);
    size_t sp = s.find(' ');
    std::string mn = s.substr(0, sp), rest = sp == std::string::npos ? "" : s.substr(sp + 1);
    size_t p = 0;
    while (true) {
        size_t e = mn.find('.', p);
        t.mn.push_back(mn.substr(p, e == std::string::npos ? std::string::npos : e - p));
        if (e == std::string::npos) break;
        p = e + 1;
    }
    p = 0;
    while (!rest.empty()) {
        size_t e = rest.find(", ", p);
        t.ops.push_back(rest.substr(p, e == std::string::npos ? std::string::npos : e - p));
        if (e == std::string::npos) break;
        p = e + 2;
    }
    return t;
}
std::string Untokenize(const Tokens &t) {
    std::string s = t.prefix;
    for (size_t i = 0; i < t.mn.size(); ++i) s += (i ? "." : "") + t.mn[i];
    for (size_t i = 0; i < t.ops.size(); ++i) s += (i ? ", " : " ") + t.ops[i];
    return s;
}
int HolesIn(const std::string &op) { return static_cast<int>(std::count(op.begin(), op.end(), '{')); }
Word And(const Word &a, const Word &b) { return Word{a.lo & b.lo, a.hi & b.hi}; }
Word Or(const Word &a, const Word &b) { return Word{a.lo | b.lo, a.hi | b.hi}; }
Word Xor(const Word &a, const Word &b) { return Word{a.lo ^ b.lo, a.hi ^ b.hi}; }
Word Not(const Word &a) { return Word{~a.lo, ~a.hi}; }
bool Within(const Word &a, const Word &m) { return (a.lo & ~m.lo) == 0 && (a.hi & ~m.hi) == 0; }
Word FieldBits(const Field &f) {
    Word w;
    w.Set(f.lo, f.width, ~uint64_t{0} >> (64 - f.width));
    if (f.width2) w.Set(f.lo2, f.width2, ~uint64_t{0} >> (64 - f.width2));
    return w;
}
bool SameField(const Field &a, const Field &b) {
    return a.kind == b.kind && a.code == b.code && a.lo == b.lo && a.width == b.width && a.lo2 == b.lo2 &&
           a.width2 == b.width2 && a.shift == b.shift;
}

// Applies the edit A -> B to F, giving the form with tokens `tn`: a modifier edit (f_op < 0: A and
// B differ in their mnemonic only, a token replaced, added or removed) moves F's fixed bits by A's
// and B's difference; an operand edit replaces F's operand f_op (A's operand a_op, with the same
// fields) by B's.  With `same_from` F's bits where A and B differ must be A's (an edit carried to
// another opcode or modifier count: the selector or modifier field is in A's state).  False when
// the edit does not transfer cleanly.
bool ApplyEdit(const Form &F, const Form &A, const Form &B, const Tokens &tf, const Tokens &ta, const Tokens &tb,
               int f_op, int a_op, const Tokens &tn, bool same_from, Form *out, bool wrap = false) {
    Form n;
    n.fields = F.fields;
    n.reuse_bit = F.reuse_bit;
    n.implicit = F.implicit;
    n.free_mask = F.free_mask;
    n.free_default = F.free_default;
    Word both = And(A.fixed_mask, B.fixed_mask);
    Word delta = And(Xor(A.fixed_bits, B.fixed_bits), both);
    if (same_from && !(And(F.fixed_bits, delta) == And(A.fixed_bits, delta))) return false;
    if (f_op < 0) {
        if (A.fields.size() != B.fields.size()) return false;
        for (size_t j = 0; j < A.fields.size(); ++j)
            if (!SameField(A.fields[j], B.fields[j])) return false;
        if (!Within(delta, F.fixed_mask)) return false;
        n.fixed_mask = F.fixed_mask;
        n.fixed_bits = Xor(F.fixed_bits, delta);
    } else {
        size_t op = static_cast<size_t>(f_op), aop = static_cast<size_t>(a_op);
        auto first_hole = [](const Tokens &t, size_t op) {
            int h = 0;
            for (size_t i = 0; i < op; ++i) h += HolesIn(t.ops[i]);
            return h;
        };
        int hf = first_hole(tf, op), ha = first_hole(ta, aop), hb = first_hole(tb, aop);
        int na = HolesIn(ta.ops[aop]), nb = HolesIn(tb.ops[aop]);
        if (wrap) {
            // A wrap edit ({R} -> ~{R}, -{R}, |{R}|: B's operand is A's text with a prefix or
            // suffix, holes and fields unchanged) is a modifier bit of that source operand, which
            // stays where it is when the operand-form selector moves the operand or changes its
            // kind (DFMA's b at 32 in the register form, at 64 with an immediate c; IADD3.X's
            // ~c[..][..]): F keeps its own fields and takes the delta.
            if (HolesIn(tb.ops[aop]) != na || !(A.fixed_mask == B.fixed_mask)) return false;
            for (int k = 0; k < na; ++k)
                if (!SameField(A.fields[ha + k], B.fields[hb + k])) return false;
            Word f_bits;
            for (int k = 0; k < HolesIn(tf.ops[op]); ++k) f_bits = Or(f_bits, FieldBits(F.fields[hf + k]));
            if (!Within(delta, F.fixed_mask) || !(And(delta, f_bits) == Word{})) return false;
            n.fixed_mask = F.fixed_mask;
            n.fixed_bits = Xor(F.fixed_bits, delta);
        } else {
            if (HolesIn(tf.ops[op]) != na) return false;
            Word a_op, b_op;
            for (int k = 0; k < na; ++k) {
                if (!SameField(F.fields[hf + k], A.fields[ha + k])) return false;
                a_op = Or(a_op, FieldBits(A.fields[ha + k]));
            }
            for (int k = 0; k < nb; ++k) b_op = Or(b_op, FieldBits(B.fields[hb + k]));
            // A and B agree on which bits are explained outside the edited operand.
            if (!(Or(A.fixed_mask, a_op) == Or(B.fixed_mask, b_op))) return false;
            if (!Within(delta, Or(F.fixed_mask, a_op))) return false;
            n.fixed_mask = And(Or(F.fixed_mask, a_op), Not(b_op));
            Word from_b = And(And(a_op, Not(b_op)), B.fixed_mask);  // bits A used for the operand, fixed in B
            n.fixed_bits = Or(And(Xor(F.fixed_bits, delta), And(F.fixed_mask, Not(b_op))), And(B.fixed_bits, from_b));
            n.fixed_bits = And(n.fixed_bits, n.fixed_mask);
            n.free_mask = And(n.free_mask, Not(b_op));
            n.free_default = And(n.free_default, n.free_mask);
            n.fields.erase(n.fields.begin() + hf, n.fields.begin() + hf + na);
            n.fields.insert(n.fields.begin() + hf, B.fields.begin() + hb, B.fields.begin() + hb + nb);
            if (!n.reuse_bit.empty() || !B.reuse_bit.empty()) {
                n.reuse_bit.resize(tf.ops.size(), -1);
                n.reuse_bit[op] = aop < B.reuse_bit.size() ? B.reuse_bit[aop] : -1;
                bool any = false;
                for (int8_t r : n.reuse_bit) any = any || r >= 0;
                if (!any) n.reuse_bit.clear();
            }
        }
    }
    // Fields must not overlap fixed bits or each other.
    Word used;
    for (const Field &f : n.fields) {
        Word fb = FieldBits(f);
        if (!(And(fb, used) == Word{}) || !(And(fb, n.fixed_mask) == Word{})) return false;
        used = Or(used, fb);
    }
    if (n.implicit && !(And(FieldBits(*n.implicit), n.fixed_mask) == Word{})) return false;
    n.templ = Untokenize(tn);
    n.omit_pt = OmitHoles(n.templ, n.fields);
    int alias_rank = 0;
    if (const HandRules::Alias *r = AliasRule(n.templ, &alias_rank)) {
        n.select = ResolveAlias(*r, n.templ, n.fields);
        n.alias_rank = alias_rank;
        if (n.select.empty()) return false;
    }
    n.constant.assign(n.fields.size(), std::nullopt);
    n.seen = 0;
    n.provenance = "synthesized";
    *out = std::move(n);
    return true;
}

// nvdisasm's text for words written over the largest function of `carrier` (enlarged to hold
// them all), by index.
std::vector<std::string> NvdisasmWords(const std::string &nvdisasm, const std::string &carrier,
                                       const std::vector<Word> &words) {
    std::vector<std::string> out(words.size());
    std::ifstream in(carrier, std::ios::binary);
    std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    auto elf = ReadCubin(bytes);
    if (!elf.ok()) return out;
    int sec = -1;
    for (size_t i = 0; i < elf->sections.size(); ++i)
        if (elf->sections[i].name.rfind(".text.", 0) == 0 &&
            (sec < 0 || elf->sections[i].data.size() > elf->sections[sec].data.size()))
            sec = static_cast<int>(i);
    if (sec < 0) return out;
    // nvdisasm refuses the whole file when one word is not an instruction: such words (reported
    // with their address) are replaced by the carrier's first instruction and the run repeated.
    Word filler;
    std::memcpy(&filler.lo, elf->sections[sec].data.data(), 8);
    std::memcpy(&filler.hi, elf->sections[sec].data.data() + 8, 8);
    std::vector<Word> ws = words;
    std::vector<bool> illegal(words.size(), false);
    std::string fn = elf->sections[sec].name.substr(6);
    const std::vector<uint8_t> original = elf->sections[sec].data;
    std::string tmp = "/tmp/rndn_isa_gen_" + std::to_string(getpid()) + ".cubin";
    for (int attempt = 0; attempt < 8; ++attempt) {
        // The carrier's own code stays after the words (shrinking the section would leave its
        // .nv.info offsets, e.g. of EXIT, outside it).
        std::vector<uint8_t> code = original;
        if (code.size() < ws.size() * 16) code.resize(ws.size() * 16);
        for (size_t k = 0; k < ws.size(); ++k) {
            std::memcpy(code.data() + 16 * k, &ws[k].lo, 8);
            std::memcpy(code.data() + 16 * k + 8, &ws[k].hi, 8);
        }
        elf->sections[sec].data = code;
        LayOut(&*elf);
        auto w = WriteCubin(*elf);
        if (!w.ok()) return out;
        std::ofstream(tmp, std::ios::binary).write(reinterpret_cast<const char *>(w->data()), static_cast<long>(w->size()));
        std::vector<std::string> lines;
        FILE *f = popen((nvdisasm + " -c '" + tmp + "' 2>&1").c_str(), "r");
        char buf[4096];
        while (f && fgets(buf, sizeof buf, f)) {
            std::string l = buf;
            while (!l.empty() && (l.back() == '\n' || l.back() == '\r')) l.pop_back();
            lines.push_back(l);
        }
        if (f) pclose(f);
        bool any_bad = false;
        for (const std::string &l : lines) {
            size_t at = l.find("at address 0x");
            if (l.rfind("nvdisasm error", 0) != 0 || at == std::string::npos) continue;
            size_t idx = std::strtoull(l.c_str() + at + 13, nullptr, 16) / 16;
            if (idx < ws.size() && !illegal[idx]) illegal[idx] = true, ws[idx] = filler, any_bad = true;
        }
        if (std::getenv("ISA_GEN_DEBUG"))
            for (const std::string &l : lines)
                if (l.rfind("nvdisasm error", 0) == 0) std::cerr << "nvdisasm: " << l << "\n";
        if (any_bad) continue;
        std::string cur;
        for (const std::string &l : lines) {
            if (l.rfind("//--------------------- .text.", 0) == 0) {
                cur = l.substr(30, l.find(' ', 30) - 30);
                continue;
            }
            size_t a = l.find("/*");
            size_t close = a == std::string::npos ? std::string::npos : l.find("*/", a);
            if (cur != fn || close == std::string::npos || close > a + 10) continue;
            size_t addr = std::strtoull(l.substr(a + 2, close - a - 2).c_str(), nullptr, 16);
            if (addr % 16 || addr / 16 >= words.size() || illegal[addr / 16]) continue;
            std::string text = l.substr(close + 2);
            size_t semi = text.rfind(';');
            if (semi != std::string::npos) text = text.substr(0, semi);
            while (!text.empty() && text.back() == ' ') text.pop_back();
            size_t b = text.find_first_not_of(' ');
            out[addr / 16] = b == std::string::npos ? "" : text.substr(b);
        }
        break;
    }
    if (!std::getenv("ISA_GEN_DEBUG")) std::remove(tmp.c_str());
    return out;
}

int64_t ProbeValue(const Field &f, std::mt19937_64 &rng) {
    switch (f.kind) {
        case HoleKind::REG: return static_cast<int64_t>(rng() % 256);
        case HoleKind::UREG: return static_cast<int64_t>(rng() % 64);
        case HoleKind::PRED: case HoleKind::UPRED: return static_cast<int64_t>(rng() % 8);
        case HoleKind::BREG: return static_cast<int64_t>(rng() % 16);
        default: break;
    }
    if (f.kind == HoleKind::NUM) {
        static const double vals[] = {1.5, -2.25, 0.375, 96, -0.5};
        double d = vals[rng() % 5];
        if (f.code == HoleCode::F32) return std::bit_cast<uint32_t>(static_cast<float>(d));
        if (f.code == HoleCode::F64HI) return static_cast<int64_t>(std::bit_cast<uint64_t>(d) >> 32);
        static const uint64_t halves[] = {0x3e00, 0xc080, 0x3600, 0x5600, 0xb800};  // the same values as f16
        return static_cast<int64_t>(halves[rng() % 5]);
    }
    int total = f.width + f.width2;
    int w = std::min(total, 16);  // modest magnitudes: nvdisasm's printing of huge values is not what is probed
    uint64_t raw = rng() & ((uint64_t{1} << w) - 1);
    if (f.code == HoleCode::SIGNED) return (static_cast<int64_t>(raw) - (int64_t{1} << (w - 1))) * (int64_t{1} << f.shift);
    return static_cast<int64_t>(raw << f.shift);
}

// The operand-form selector value of a form (hand.txt "selector"), or -1 when its bits are not all
// fixed (or no rule gives them).
int SelectorOf(const Form &f) {
    if (!g_hand.selector_width) return -1;
    uint64_t m = f.fixed_mask.Get(g_hand.selector_lo, g_hand.selector_width);
    if (m != (uint64_t{1} << g_hand.selector_width) - 1) return -1;
    return static_cast<int>(f.fixed_bits.Get(g_hand.selector_lo, g_hand.selector_width));
}

// The operands of a template that are one register and nothing else around it but a sign,
// absolute value or complement ("{R}", "-{R}", "|{R}|", "~{R}"): those that can carry ".reuse".
// Per operand: its hole, or -1.
std::vector<int> RegisterOperandHoles(const std::string &templ) {
    Tokens t = Tokenize(templ);
    std::vector<int> out;
    int hole = 0;
    for (const std::string &op : t.ops) {
        bool reg = op == "{R}" || op == "-{R}" || op == "|{R}|" || op == "-|{R}|" || op == "~{R}";
        out.push_back(reg ? hole : -1);
        hole += HolesIn(op);
    }
    return out;
}

// Reuse flags (issue 15): Volta and later keep one control reuse bit per source slot, and the slot
// of a register operand follows from where its field sits: bits 24.. are slot a, 32.. slot b,
// 64.. slot c, except in the forms whose operand-form selector moves a register to another slot
// (a constant-bank third source puts the second register at 64).  The map (selector, field) -> bit
// is learned from the forms whose own instances fix an operand's bit, falling back to (field) ->
// bit.  Every register operand whose bit the examples leave open (no instance reused it, or two
// operands were always reused together) gets the predicted bit and keeps it only when nvdisasm,
// given words with that bit set, prints ".reuse" on exactly that operand.  Where nvdisasm rejects
// the prediction (a few opcodes place a slot elsewhere: FADD's second source at 32 is not slot b,
// DSETP's is slot c), the remaining bits are probed the same way; an operand no bit is confirmed
// for has no reuse flag (reusing it is an error).
struct ReuseStats {
    int operands = 0;    // register operands whose bit the examples leave open
    int predicted = 0;   // ... confirmed at the predicted bit
    int searched = 0;    // ... confirmed at another bit
    int exceptions = 0;  // operands of corpus forms whose own bit disagrees with the learned map
};

void ConfirmReuse(std::vector<Form> *forms, const std::string &arch, const std::string &nvdisasm, const std::string &carrier,
                  ReuseStats *stats) {
    std::map<std::pair<int, int>, std::map<int, int>> by_slot;  // (selector, field lo) -> bit -> operands
    std::map<int, std::map<int, int>> by_field;                // field lo -> bit -> operands
    auto evidence = [&](const Form &f) -> const ReuseEvidence * {
        auto it = g_reuse_evidence.find(f.templ);
        return f.seen > 0 && it != g_reuse_evidence.end() ? &it->second : nullptr;
    };
    auto certain = [&](const Form &f, size_t op) {
        const ReuseEvidence *ev = evidence(f);
        return ev && op < ev->certain.size() && ev->certain[op] && op < f.reuse_bit.size() && f.reuse_bit[op] >= 0;
    };
    // Only opcodes that carry reuse flags in the corpus are probed (nvdisasm rejects a word with a
    // reuse flag on an opcode without source slots for it).
    std::set<std::string> reusing;
    for (const Form &f : *forms) {
        for (int8_t r : evidence(f) ? f.reuse_bit : std::vector<int8_t>{})
            if (r >= 0) reusing.insert(BaseOpcode(f.templ));
        std::vector<int> regs = RegisterOperandHoles(f.templ);
        for (size_t op = 0; op < regs.size(); ++op)
            if (certain(f, op)) {
                if (regs[op] < 0) continue;
                ++by_slot[{SelectorOf(f), f.fields[regs[op]].lo}][f.reuse_bit[op]];
                ++by_field[f.fields[regs[op]].lo][f.reuse_bit[op]];
            }
    }
    auto majority = [](const std::map<int, int> &m) {
        int best = -1, n = 0;
        for (const auto &[bit, c] : m)
            if (c > n) best = bit, n = c;
        return best;
    };
    for (const auto &[key, bits] : by_slot)
        for (const auto &[bit, c] : bits)
            if (bit != majority(bits)) stats->exceptions += c;
    auto isa = [&]() {
        std::string text = "arch\t" + arch + "\n";
        for (const Form &f : *forms) text += FormRow(f);
        return Isa::FromTableText(text);
    }();
    if (!isa.ok()) {
        std::cerr << "isa_gen: table does not parse for the reuse probe: " << isa.status().message() << "\n";
        std::exit(1);
    }
    // The operands to settle, with the bits each may take in order of preference.
    struct Open {
        size_t form;
        int op;
        std::vector<int> predicted, rest;
    };
    std::vector<Open> open;
    for (size_t i = 0; i < forms->size(); ++i) {
        const Form &f = (*forms)[i];
        bool label = false;
        for (const Field &fl : f.fields) label = label || fl.kind == HoleKind::LABEL;
        if (label || !reusing.count(BaseOpcode(f.templ))) continue;
        const ReuseEvidence *ev = evidence(f);
        std::vector<int> regs = RegisterOperandHoles(f.templ);
        std::set<int> taken;  // bits the examples give other operands
        for (size_t op = 0; op < regs.size(); ++op)
            if (certain(f, op)) taken.insert(f.reuse_bit[op]);
        for (size_t op = 0; op < regs.size(); ++op) {
            if (regs[op] < 0 || certain(f, op)) continue;
            const Field &fl = f.fields[regs[op]];
            Open o{i, static_cast<int>(op), {}, {}};
            auto s = by_slot.find({SelectorOf(f), fl.lo});
            auto b = by_field.find(fl.lo);
            // A field no corpus operand reused from is no source slot (the destination at 16).
            if (b == by_field.end()) continue;
            int guess = s != by_slot.end() ? majority(s->second) : majority(b->second);
            // Two operands always reused together: only the bits their instances allow.
            std::vector<int> allowed = {0, 1, 2, 3};
            if (ev && op < ev->options.size() && !ev->options[op].empty()) allowed = ev->options[op];
            for (int x : allowed) {
                if (taken.count(x)) continue;
                (x == guess ? o.predicted : o.rest).push_back(x);
            }
            if (o.predicted.empty() && o.rest.empty()) continue;
            open.push_back(o);
        }
    }
    stats->operands = static_cast<int>(open.size());
    std::mt19937_64 rng(4321);
    const int kInstances = 2;
    // Words for (form, operand, bit): operand values that decode as this form (not as a value-chosen
    // alias of it), the reused register not RZ, scheduled as ptxas writes a reuse flag (stall 1,
    // yield: nvdisasm calls a reuse flag without the yield bit an undefined "opex" value).  Returns
    // the confirmed bit per open operand (-1: none).
    auto probe = [&](const std::vector<std::vector<int>> &bits_of) {
        std::vector<std::tuple<size_t, int>> probes;  // (open index, bit)
        std::vector<Word> words;
        std::vector<std::string> want;
        for (size_t k = 0; k < open.size(); ++k) {
            const Form &f = (*forms)[open[k].form];
            int hole = RegisterOperandHoles(f.templ)[open[k].op];
            for (int bit : bits_of[k]) {
                std::vector<Word> ws;
                std::vector<std::string> ts;
                for (int n = 0; n < kInstances; ++n)
                    for (int attempt = 0; attempt < 8; ++attempt) {
                        Instruction in;
                        in.form = static_cast<int>(open[k].form);
                        for (const Field &x : f.fields) in.values.push_back(ProbeValue(x, rng));
                        if (in.values[hole] == 255) in.values[hole] = 7;
                        // A value-chosen alias: an alternative that leaves the reused operand free
                        // where there is one (IMAD.MOV's "b is RZ" to reuse a).
                        if (!f.select.empty()) {
                            size_t alt = attempt % f.select.size();
                            for (size_t a = 0; a < f.select.size(); ++a) {
                                bool fixes = false;
                                for (const AliasCondition &c : f.select[(attempt + a) % f.select.size()]) fixes = fixes || c.hole == hole;
                                if (!fixes) {
                                    alt = (attempt + a) % f.select.size();
                                    break;
                                }
                            }
                            for (const AliasCondition &c : f.select[alt])
                                in.values[c.hole] = c.pow2 ? int64_t{2} << (rng() % 12) : c.value;
                        }
                        auto e = isa->Encode(in, 0);
                        if (!e.ok()) continue;
                        auto back = isa->Decode(*e, 0);
                        if (!back.ok() || back->form != in.form || back->values != in.values) continue;
                        Word w = *e;
                        Control c = UnpackControl(w);
                        c.stall = 1, c.yield = 1;
                        c.reuse = static_cast<uint8_t>(1 << bit);
                        PackControl(c, &w);
                        in.reuse_operands = 1u << open[k].op;
                        ws.push_back(w);
                        ts.push_back(isa->PrintWithLabels(in, {}));
                        break;
                    }
                if (ws.size() != static_cast<size_t>(kInstances)) continue;  // no words of this form: unconfirmed
                probes.push_back({k, bit});
                words.insert(words.end(), ws.begin(), ws.end());
                want.insert(want.end(), ts.begin(), ts.end());
            }
        }
        std::vector<std::string> got = NvdisasmWords(nvdisasm, carrier, words);
        std::vector<int> chosen(open.size(), -1);
        for (size_t p = 0; p < probes.size(); ++p) {
            auto [k, bit] = probes[p];
            bool ok = true;
            for (int n = 0; n < kInstances; ++n) ok = ok && got[p * kInstances + n] == want[p * kInstances + n];
            if (!ok && std::getenv("ISA_GEN_DEBUG"))
                std::cerr << "reuse reject " << (*forms)[open[k].form].templ << " operand " << open[k].op << " bit " << bit
                          << ": ours '" << want[p * kInstances] << "' nvdisasm '" << got[p * kInstances] << "'\n";
            if (ok && chosen[k] < 0) chosen[k] = bit;
        }
        return chosen;
    };
    std::vector<std::vector<int>> first(open.size()), second(open.size());
    for (size_t k = 0; k < open.size(); ++k) first[k] = open[k].predicted;
    std::vector<int> chosen = probe(first);
    // Where the prediction failed: the other bits that no other operand of the form took.
    std::map<size_t, std::set<int>> confirmed_bits;  // form -> bits settled in the first probe
    for (size_t k = 0; k < open.size(); ++k)
        if (chosen[k] >= 0) confirmed_bits[open[k].form].insert(chosen[k]), ++stats->predicted;
    for (size_t k = 0; k < open.size(); ++k)
        if (chosen[k] < 0)
            for (int x : open[k].rest)
                if (!confirmed_bits[open[k].form].count(x)) second[k].push_back(x);
    std::vector<int> found = probe(second);
    for (size_t k = 0; k < open.size(); ++k)
        if (chosen[k] < 0 && found[k] >= 0) chosen[k] = found[k], ++stats->searched;
    for (size_t k = 0; k < open.size(); ++k) {
        Form &f = (*forms)[open[k].form];
        f.reuse_bit.resize(RegisterOperandHoles(f.templ).size(), -1);
        f.reuse_bit[open[k].op] = static_cast<int8_t>(chosen[k]);
    }
    for (Form &f : *forms) {
        bool any = false;
        for (int8_t r : f.reuse_bit) any = any || r >= 0;
        if (!any) f.reuse_bit.clear();
    }
}

// A modifier edit: A's mnemonic tokens [k, k + |x|) are x, B's there are y (at most one token each,
// one of them present), the tokens around them equal.
struct ModifierEdit {
    size_t k = 0;
    std::vector<std::string> x, y;
};
bool DiffMnemonic(const Tokens &a, const Tokens &b, ModifierEdit *e) {
    if (a.prefix != b.prefix || a.ops != b.ops) return false;
    size_t p = 0;
    while (p < a.mn.size() && p < b.mn.size() && a.mn[p] == b.mn[p]) ++p;
    size_t q = 0;
    while (q + p < a.mn.size() && q + p < b.mn.size() && a.mn[a.mn.size() - 1 - q] == b.mn[b.mn.size() - 1 - q]) ++q;
    size_t nx = a.mn.size() - p - q, ny = b.mn.size() - p - q;
    if (p == 0 || nx > 1 || ny > 1 || nx + ny == 0) return false;
    e->k = p;
    e->x.assign(a.mn.begin() + static_cast<long>(p), a.mn.begin() + static_cast<long>(p + nx));
    e->y.assign(b.mn.begin() + static_cast<long>(p), b.mn.begin() + static_cast<long>(p + ny));
    return true;
}

// The operand layout of a form: its holes' kinds (a register and a uniform register count alike)
// and bit positions.
std::string Layout(const Form &f) {
    std::string k;
    for (const Field &fl : f.fields) {
        HoleKind kind = fl.kind == HoleKind::UREG ? HoleKind::REG : fl.kind == HoleKind::UPRED ? HoleKind::PRED : fl.kind;
        k += std::to_string(static_cast<int>(kind)) + ":" + std::to_string(fl.lo) + " ";
    }
    return k;
}

// Edits carried beyond the single-token swaps between two forms of one opcode (issue 15); every
// candidate is confirmed by nvdisasm like the others.
//  - Modifier edits that add or remove a token (ISETP.GT.AND -> ISETP.GT.U32.AND gives
//    ISETP.GE.U32.AND), applied within the opcode where the token after the edit is A's.
//  - Modifier edits carried to another opcode whose form has A's modifiers and A's operand
//    layout, with A's bits where A and B differ (SHF.R.S32.HI -> SHF.R.U32.HI gives
//    USHF.R.U32.HI from USHF.R.S32.HI).
//  - Operand edits ({R} -> an immediate, a constant, {UR}, -{R}, |{R}| ...) carried to another
//    opcode whose form places the operand in the same fields and has the same operand-form
//    selector (hand.txt "selector") as A; an immediate takes the target opcode's coding (hand.txt
//    "float": FMNMX's is f32; an opcode without a float rule takes integer immediates only).
void GeneralEdits(const std::vector<Form> &forms, const std::vector<Tokens> &toks, const std::function<bool(const Form &)> &usable,
                  const std::map<std::tuple<std::string, std::string, std::string>, std::vector<std::tuple<size_t, size_t, size_t>>> &operand_edits,
                  std::set<std::string> *have, std::vector<Form> *cands, std::vector<Form> *alternates) {
    // Modifier edits by opcode and by (prefix, modifiers after the opcode, layout).
    struct Pair {
        size_t a, b;
        ModifierEdit e;
    };
    std::map<std::string, std::vector<Pair>> by_opcode, by_modifiers;
    std::map<std::string, std::vector<size_t>> opcode_forms;  // prefix|opcode|#ops -> forms
    for (size_t i = 0; i < forms.size(); ++i)
        opcode_forms[toks[i].prefix + "|" + toks[i].mn[0] + "|" + std::to_string(toks[i].ops.size())].push_back(i);
    for (const auto &[key, ids] : opcode_forms)
        for (size_t a : ids)
            for (size_t b : ids) {
                ModifierEdit e;
                if (a == b || !usable(forms[a]) || !usable(forms[b]) || !DiffMnemonic(toks[a], toks[b], &e)) continue;
                if (e.x.size() != e.y.size()) by_opcode[key].push_back({a, b, e});
                std::string mods;
                for (size_t k = 1; k < toks[a].mn.size(); ++k) mods += "." + toks[a].mn[k];
                by_modifiers[toks[a].prefix + "|" + mods + "|" + Layout(forms[a])].push_back({a, b, e});
            }
    auto add = [&](const Form &F, const Pair &p, int f_op, int a_op, const Tokens &tn) {
        std::string t = Untokenize(tn);
        if (have->count(t)) return true;
        Form n;
        if (!ApplyEdit(F, forms[p.a], forms[p.b], Tokenize(F.templ), toks[p.a], toks[p.b], f_op, a_op, tn, true, &n)) return false;
        have->insert(t);
        cands->push_back(std::move(n));
        return true;
    };
    for (size_t f = 0; f < forms.size(); ++f) {
        const Form &F = forms[f];
        if (!usable(F)) continue;
        const Tokens &tf = toks[f];
        // Within the opcode: a token added or removed before the same following token.
        auto it = by_opcode.find(tf.prefix + "|" + tf.mn[0] + "|" + std::to_string(tf.ops.size()));
        for (const Pair &p : it == by_opcode.end() ? std::vector<Pair>{} : it->second) {
            const Tokens &ta = toks[p.a];
            size_t end = p.e.k + p.e.x.size();
            if (end > tf.mn.size() || !std::equal(p.e.x.begin(), p.e.x.end(), tf.mn.begin() + static_cast<long>(p.e.k))) continue;
            bool a_ends = end == ta.mn.size(), f_ends = end == tf.mn.size();
            if (a_ends != f_ends || (!a_ends && tf.mn[end] != ta.mn[end])) continue;
            if (!p.e.y.empty() && std::count(tf.mn.begin(), tf.mn.end(), p.e.y[0])) continue;
            Tokens tn = tf;
            tn.mn.erase(tn.mn.begin() + static_cast<long>(p.e.k), tn.mn.begin() + static_cast<long>(end));
            tn.mn.insert(tn.mn.begin() + static_cast<long>(p.e.k), p.e.y.begin(), p.e.y.end());
            add(F, p, -1, -1, tn);
        }
        // Across opcodes: the same modifiers and operand layout.
        std::string mods;
        for (size_t k = 1; k < tf.mn.size(); ++k) mods += "." + tf.mn[k];
        auto jt = by_modifiers.find(tf.prefix + "|" + mods + "|" + Layout(F));
        for (const Pair &p : jt == by_modifiers.end() ? std::vector<Pair>{} : jt->second) {
            if (toks[p.a].mn[0] == tf.mn[0]) continue;
            Tokens tn = tf;
            tn.mn.assign(1, tf.mn[0]);
            tn.mn.insert(tn.mn.end(), toks[p.b].mn.begin() + 1, toks[p.b].mn.end());
            add(F, p, -1, -1, tn);
        }
        // Operand edits learned on other opcodes.
        int sel = SelectorOf(F);
        if (sel < 0) continue;
        auto rule = g_hand.float_code.find(BaseOpcode(F.templ));
        for (size_t o = 0; o < tf.ops.size(); ++o) {
            std::set<std::string> done;  // target operand texts composed (or tried) here
            for (const auto &[key, pairs] : operand_edits) {
                const auto &[prefix, from, to] = key;
                if (prefix != tf.prefix || from != tf.ops[o] || done.count(to)) continue;
                // The target opcode's immediate coding: its float rule, else integers only.
                std::string op_text = to;
                bool imm_float = to.find("{N}") != std::string::npos, imm_int = to.find("{X}") != std::string::npos;
                if (rule == g_hand.float_code.end() ? imm_float : rule->second == HoleCode::F16 && (imm_float || imm_int)) continue;
                if (rule != g_hand.float_code.end() && imm_int) {
                    if (to.find("c[") != std::string::npos || to.find('[') != std::string::npos) {
                        // constant-bank and address offsets stay integers
                    } else {
                        for (size_t q = op_text.find("{X}"); q != std::string::npos; q = op_text.find("{X}", q)) op_text.replace(q, 3, "{N}");
                    }
                }
                Tokens tn = tf;
                tn.ops[o] = op_text;
                const std::string t = Untokenize(tn);
                if (have->count(t)) {
                    done.insert(to);
                    continue;
                }
                // The first composition is the candidate; up to two others that differ from it
                // are kept for the case that nvdisasm rejects it.
                std::vector<Form> made;
                for (const auto &[a, b, aop] : pairs) {
                    if (made.size() >= 3) break;
                    if (toks[a].mn[0] == tf.mn[0] || SelectorOf(forms[a]) != sel || !usable(forms[a]) || !usable(forms[b])) continue;
                    Form n;
                    if (!ApplyEdit(F, forms[a], forms[b], tf, toks[a], toks[b], static_cast<int>(o), static_cast<int>(aop), tn, true, &n))
                        continue;
                    // Recode the new operand's immediates as the target opcode's.
                    int hf = 0;
                    for (size_t i = 0; i < o; ++i) hf += HolesIn(tf.ops[i]);
                    bool ok = true;
                    for (int h = hf; h < hf + HolesIn(op_text); ++h) {
                        Field &fl = n.fields[h];
                        bool want_num = op_text.find("{N}") != std::string::npos && to.find("c[") == std::string::npos;
                        if (fl.kind != HoleKind::HEX && fl.kind != HoleKind::NUM) continue;
                        if (want_num) {
                            if (fl.width != 32 || fl.width2) ok = false;
                            fl.kind = HoleKind::NUM, fl.code = rule->second;
                        } else if (fl.kind == HoleKind::NUM) {
                            ok = false;
                        }
                    }
                    if (!ok) continue;
                    bool seen = false;
                    for (const Form &m : made) seen = seen || (m.fixed_mask == n.fixed_mask && m.fixed_bits == n.fixed_bits);
                    if (!seen) made.push_back(std::move(n));
                }
                if (!made.empty()) {
                    have->insert(t);
                    cands->push_back(std::move(made[0]));
                    for (size_t m = 1; m < made.size(); ++m) alternates->push_back(std::move(made[m]));
                }
                done.insert(to);
            }
        }
    }
}

// A composed form must not take a corpus word from the form that learned it: nvdisasm confirmed it
// on its own words, but a form that fixes more bits (a field narrower than the operand) wins the
// decoder's choice on words that nvdisasm prints otherwise ([RZ.64+UR6+0x8] for [UR6+0x8]).  Such
// forms are dropped until every corpus word decodes as the form of its own text.
void KeepCorpusDecodes(std::vector<Form> *forms, const std::string &arch, const std::vector<Inst> &insts, int *dropped) {
    for (bool changed = true; changed;) {
        changed = false;
        std::string text = "arch\t" + arch + "\n";
        for (const Form &f : *forms) text += FormRow(f);
        auto isa = Isa::FromTableText(text);
        if (!isa.ok()) return;
        std::set<size_t> bad;
        for (const Inst &in : insts) {
            auto d = isa->Decode(in.w, in.addr);
            if (!d.ok()) continue;
            const Form &got = (*forms)[d->form];
            if (got.templ != in.templ && got.seen == 0) bad.insert(static_cast<size_t>(d->form));
        }
        for (auto it = bad.rbegin(); it != bad.rend(); ++it) {
            forms->erase(forms->begin() + static_cast<long>(*it));
            ++*dropped;
            changed = true;
        }
    }
}

// The candidates nvdisasm confirms: each encoded with three operand sets, printed by nvdisasm as
// we print it and decoded back as itself by a table of `base` plus the candidates.
std::vector<Form> VerifyCandidates(const std::vector<Form> &base, const std::vector<Form> &cands, const std::string &arch,
                                   const std::string &nvdisasm, const std::string &carrier) {
    // Probe: two instances per candidate, decoded by a table of the learned forms plus candidates.
    std::string text = "arch\t" + arch + "\n";
    for (const Form &f : base) text += FormRow(f);
    for (const Form &f : cands) text += FormRow(f);
    auto isa = Isa::FromTableText(text);
    if (!isa.ok()) {
        std::cerr << "isa_gen: synthesized table does not parse: " << isa.status().message() << "\n";
        return {};
    }
    std::vector<Word> words;
    std::vector<std::string> want;
    std::vector<bool> ok(cands.size(), true), decoded(cands.size(), true);
    std::vector<Instruction> probes;
    const int kInstances = 3;
    for (size_t c = 0; c < cands.size(); ++c) {
        int id = static_cast<int>(base.size() + c);
        // Each candidate's probe values come from its own template (FNV-1a), so that adding or
        // removing one candidate (a hand.txt rule for one opcode) does not change the values, and
        // with them the verdicts, of every candidate after it.
        uint64_t seed = 1469598103934665603ull;
        for (unsigned char ch : cands[c].templ) seed = (seed ^ ch) * 1099511628211ull;
        std::mt19937_64 rng(seed);
        for (int k = 0; k < kInstances; ++k) {
            Instruction in;
            in.form = id;
            for (const Field &fl : cands[c].fields) in.values.push_back(ProbeValue(fl, rng));
            // The first instance gives every signed immediate a negative value and every 32-bit
            // unsigned one its top bit, so that nvdisasm's signed or unsigned printing judges the
            // coding (an edit carried from IADD3 to BREV brings IADD3's signed immediate).
            for (size_t j = 0; k == 0 && j < cands[c].fields.size(); ++j) {
                const Field &fl = cands[c].fields[j];
                if (fl.kind != HoleKind::HEX || fl.width2 || fl.shift) continue;
                if (fl.code == HoleCode::SIGNED && in.values[j] >= 0) in.values[j] = -1 - in.values[j];
                if (fl.code == HoleCode::PLAIN && fl.width == 32) in.values[j] |= int64_t{1} << 31;
            }
            // A value-chosen alias is probed with values that select it.
            cands[c].SelectingValues(&in.values, rng());
            auto w = isa->Encode(in, 0);
            std::string t;
            probes.push_back(in);
            if (w.ok()) {
                auto back = isa->Decode(*w, 0);
                if (!back.ok() || back->form != id || back->values != in.values) decoded[c] = false;
                t = isa->PrintWithLabels(in, {});
            } else {
                ok[c] = false;
                if (std::getenv("ISA_GEN_DEBUG")) std::cerr << "synth encode " << cands[c].templ << ": " << w.status().message() << "\n";
            }
            words.push_back(w.ok() ? *w : words.empty() ? Word{} : words.front());
            want.push_back(t);
        }
    }
    std::vector<std::string> got = NvdisasmWords(nvdisasm, carrier, words);
    for (size_t c = 0; c < cands.size(); ++c)
        for (int k = 0; k < kInstances; ++k) ok[c] = ok[c] && got[c * kInstances + k] == want[c * kInstances + k];
    // A candidate nvdisasm confirms but whose words another candidate (one nvdisasm rejects)
    // decoded is judged again by a table without the rejected ones.
    bool again = false;
    for (size_t c = 0; c < cands.size(); ++c) again = again || (ok[c] && !decoded[c]);
    if (again) {
        std::string text2 = "arch\t" + arch + "\n";
        std::vector<int> id2(cands.size(), -1);
        int n = static_cast<int>(base.size());
        for (const Form &f : base) text2 += FormRow(f);
        for (size_t c = 0; c < cands.size(); ++c)
            if (ok[c]) text2 += FormRow(cands[c]), id2[c] = n++;
        auto isa2 = Isa::FromTableText(text2);
        for (size_t c = 0; c < cands.size(); ++c) {
            if (!ok[c] || decoded[c] || !isa2.ok()) continue;
            decoded[c] = true;
            for (int k = 0; k < kInstances; ++k) {
                auto back = isa2->Decode(words[c * kInstances + k], 0);
                const Instruction &in = probes[c * kInstances + k];
                decoded[c] = decoded[c] && back.ok() && back->form == id2[c] && back->values == in.values;
            }
        }
    }
    std::vector<Form> keep;
    for (size_t c = 0; c < cands.size(); ++c) {
        ok[c] = ok[c] && decoded[c];
        if (!ok[c] && std::getenv("ISA_GEN_DEBUG"))
            std::cerr << "synth reject " << cands[c].templ << ": ours '" << want[c * kInstances] << "' nvdisasm '"
                      << got[c * kInstances] << "'\n";
        if (ok[c]) keep.push_back(cands[c]);
    }
    return keep;
}

void Synthesize(std::vector<Form> *forms, const std::string &arch, const std::string &nvdisasm, const std::string &carrier,
                bool drops_only, int *tried, int *kept, std::vector<Form> *pending) {
    std::set<std::string> have;
    for (const Form &f : *forms) have.insert(f.templ);
    std::vector<Tokens> toks;
    for (const Form &f : *forms) toks.push_back(Tokenize(f.templ));
    // Value-chosen aliases (IMAD.MOV = IMAD with certain operands, ...) share their fixed bits
    // with another form; they are not composed.
    std::map<std::string, int> same_bits;
    for (const Form &f : *forms) ++same_bits[Hex128(f.fixed_mask) + Hex128(f.fixed_bits)];
    auto usable = [&](const Form &f) {
        for (const Field &fl : f.fields)
            if (fl.kind == HoleKind::LABEL) return false;
        return same_bits[Hex128(f.fixed_mask) + Hex128(f.fixed_bits)] == 1;
    };
    // Edits: (opcode shape, position, from, to) -> pairs (A, B).
    std::map<std::string, std::vector<size_t>> shape;  // prefix|opcode|#mn|#ops -> forms
    for (size_t i = 0; i < forms->size(); ++i) {
        const Tokens &t = toks[i];
        shape[t.prefix + "|" + t.mn[0] + "|" + std::to_string(t.mn.size()) + "|" + std::to_string(t.ops.size())].push_back(i);
    }
    std::vector<Form> cands, alternates;  // alternates: further compositions of a candidate's template
    // The general form of each value-chosen alias (hand.txt "alias": IMAD.U32 for IMAD.MOV.U32),
    // so that the values that do not select the alias decode under nvdisasm's name, and the
    // aliases of each general form (IMAD.IADD.U32 for IMAD.U32).
    for (const Form &f : *forms) {
        std::string m = Mnemonic(f.templ);
        size_t at = f.templ.rfind("@U ", 0) == 0 ? 3 : 0;
        for (size_t i = 0; i < g_hand.aliases.size(); ++i) {
            const HandRules::Alias &r = g_hand.aliases[i];
            bool to_general = m == r.alias, to_alias = m == r.general;
            if (!to_general && !to_alias) continue;
            Form n = f;
            n.templ = f.templ;
            n.templ.replace(at, m.size(), to_general ? r.general : r.alias);
            if (have.count(n.templ)) continue;
            n.select.clear();
            n.alias_rank = 0;
            if (to_alias) {
                n.select = ResolveAlias(r, n.templ, n.fields);
                n.alias_rank = static_cast<int>(i);
                if (n.select.empty()) continue;
            }
            n.constant.assign(n.fields.size(), std::nullopt);
            n.omit_pt = OmitHoles(n.templ, n.fields);
            n.seen = 0;
            n.provenance = "synthesized";
            have.insert(n.templ);
            cands.push_back(std::move(n));
            ++g_hand.aliases[i].used;  // a rule that composes forms is not stale
        }
    }
    // Forms with an operand printed shorter for one hole value (hand.txt "drop": [RZ+0x10] is
    // [0x10], [RZ+UR4] is [UR4], [UR4+0x0] is [UR4]): that hole's bits become fixed to the value.
    // The rules apply to the forms they compose too ([RZ.64+UR4+0x0] is [UR4]).
    std::vector<Form> drop_from(forms->begin(), forms->end());
    for (size_t next = 0; next < drop_from.size(); ++next) {
        const Form f = drop_from[next];
        Tokens tf = Tokenize(f.templ);
        for (HandRules::Drop &r : g_hand.drops) {
            int first = 0;
            for (size_t o = 0; o < tf.ops.size(); first += HolesIn(tf.ops[o]), ++o) {
                if (tf.ops[o] != r.operand) continue;
                const Field &gone = f.fields[first + r.hole];
                // A plain field takes the value as it is, a signed one when it is in range
                // ([R.64+UR4+0x0] is [R.64+UR4]: the offset is signed).
                bool fits = gone.code == HoleCode::PLAIN
                                ? gone.width >= 64 || !(static_cast<uint64_t>(r.value) >> gone.width)
                                : gone.code == HoleCode::SIGNED && gone.width < 64 &&
                                      r.value >= -(int64_t{1} << (gone.width - 1)) && r.value < (int64_t{1} << (gone.width - 1));
                if (gone.width2 || gone.shift || !fits) continue;
                Tokens tn = tf;
                tn.ops[o] = r.printed;
                Form n = f;
                n.templ = Untokenize(tn);
                ++r.used;  // also when the corpus has the form already
                if (have.count(n.templ)) continue;
                n.fields.erase(n.fields.begin() + first + r.hole);
                for (size_t k = 0; k < r.fields.size(); ++k)
                    if (r.fields[k]) n.fields[first + k] = *r.fields[k];
                n.fixed_mask = Or(n.fixed_mask, FieldBits(gone));
                n.fixed_bits.Set(gone.lo, gone.width, static_cast<uint64_t>(r.value) & (~uint64_t{0} >> (64 - gone.width)));
                n.select.clear();
                n.constant.assign(n.fields.size(), std::nullopt);
                n.omit_pt = OmitHoles(n.templ, n.fields);
                n.seen = 0;
                n.provenance = "synthesized";
                have.insert(n.templ);
                drop_from.push_back(n);
                cands.push_back(std::move(n));
            }
        }
    }
    // The edits learned from pairs of forms (a drops-only round composes the short operands of
    // the forms the last round added, which that round could not see).
    if (!drops_only) {
        // Operand edits of every opcode, for carrying them to others: (prefix, from, to) -> (A, B, operand).
        std::map<std::tuple<std::string, std::string, std::string>, std::vector<std::tuple<size_t, size_t, size_t>>> operand_edits;
        for (const auto &[key, ids] : shape) {
            std::map<std::tuple<size_t, std::string, std::string>, std::vector<std::pair<size_t, size_t>>> edits;
            for (size_t a : ids)
                for (size_t b : ids) {
                    if (a == b) continue;
                    const Tokens &ta = toks[a], &tb = toks[b];
                    int diff = 0;
                    size_t pos = 0;
                    for (size_t i = 0; i < ta.mn.size(); ++i)
                        if (ta.mn[i] != tb.mn[i]) ++diff, pos = i;
                    for (size_t i = 0; i < ta.ops.size(); ++i)
                        if (ta.ops[i] != tb.ops[i]) ++diff, pos = ta.mn.size() + i;
                    if (diff != 1 || pos == 0) continue;
                    std::string from = pos < ta.mn.size() ? ta.mn[pos] : ta.ops[pos - ta.mn.size()];
                    std::string to = pos < tb.mn.size() ? tb.mn[pos] : tb.ops[pos - tb.mn.size()];
                    edits[{pos, from, to}].push_back({a, b});
                    if (pos >= ta.mn.size()) operand_edits[{ta.prefix, from, to}].push_back({a, b, pos - ta.mn.size()});
                }
            for (size_t f : ids) {
                if (!usable((*forms)[f])) continue;
                const Tokens &tf = toks[f];
                for (const auto &[e, pairs] : edits) {
                    auto [pos, from, to] = e;
                    const std::string &cur = pos < tf.mn.size() ? tf.mn[pos] : tf.ops[pos - tf.mn.size()];
                    if (cur != from) continue;
                    Tokens tn = tf;
                    if (pos < tn.mn.size()) tn.mn[pos] = to;
                    else tn.ops[pos - tn.mn.size()] = to;
                    std::string t = Untokenize(tn);
                    if (have.count(t)) continue;
                    for (auto [a, b] : pairs) {
                        Form n;
                        if (!usable((*forms)[a]) || !usable((*forms)[b])) continue;
                        int op = pos < tf.mn.size() ? -1 : static_cast<int>(pos - tf.mn.size());
                        if (ApplyEdit((*forms)[f], (*forms)[a], (*forms)[b], tf, toks[a], toks[b], op, op, tn, false, &n)) {
                            have.insert(t);
                            cands.push_back(std::move(n));
                            break;
                        }
                    }
                }
            }
            // Wrap edits of a register source ({R} -> ~{R}, -{R}, |{R}|, -|{R}|), after the exact
            // edits (which take a template first).  An operand's modifier bits belong to the slot
            // its register field sits in, and the operand-form selector moves a register between
            // slots (DFMA's b is at 32 in the register form, at 64, c's slot, with an immediate c):
            // a register source takes the edit seen on a register in the same field, whatever
            // its position; failing that, and for a constant-bank source (IADD3.X's ~c[..][..]),
            // the edit seen at the same position.
            auto first_hole = [](const Tokens &t, size_t op) {
                int h = 0;
                for (size_t i = 0; i < op; ++i) h += HolesIn(t.ops[i]);
                return h;
            };
            struct Wrap {
                size_t a, b, op;
            };
            std::map<std::tuple<std::string, std::string, std::string>, std::vector<Wrap>> by_field;  // (field, pre, post)
            std::map<std::tuple<size_t, std::string, std::string>, std::vector<Wrap>> by_pos;        // (position, pre, post)
            for (const auto &[e, pairs] : edits) {
                auto [pos, from, to] = e;
                if (pos < toks[pairs.front().first].mn.size() || (from != "{R}" && from != "{UR}")) continue;
                size_t at = to.find(from);
                if (at == std::string::npos) continue;
                std::string pre = to.substr(0, at), post = to.substr(at + from.size());
                if (!((pre == "-" || pre == "~" || pre == "|" || pre == "-|") && post == (pre.back() == '|' ? "|" : "")))
                    continue;
                for (auto [a, b] : pairs) {
                    size_t op = pos - toks[a].mn.size();
                    const Field &fa = (*forms)[a].fields[first_hole(toks[a], op)];
                    std::string key = std::string(KindName(fa.kind)) + ":" + std::to_string(fa.lo) + ":" + std::to_string(fa.width);
                    by_field[{key, pre, post}].push_back({a, b, op});
                    by_pos[{op, pre, post}].push_back({a, b, op});
                }
            }
            std::set<std::pair<std::string, std::string>> wraps;
            for (const auto &[k, v] : by_pos) wraps.insert({std::get<1>(k), std::get<2>(k)});
            for (size_t f : ids) {
                if (!usable((*forms)[f])) continue;
                const Tokens &tf = toks[f];
                for (size_t op = 0; op < tf.ops.size(); ++op) {
                    const std::string &cur = tf.ops[op];
                    bool reg = cur == "{R}" || cur == "{UR}";
                    if (!reg && cur.rfind("c[", 0) != 0) continue;
                    for (const auto &[pre, post] : wraps) {
                        Tokens tn = tf;
                        tn.ops[op] = pre + cur + post;
                        std::string t = Untokenize(tn);
                        if (have.count(t)) continue;
                        std::vector<Wrap> tries;
                        if (reg) {
                            const Field &ff = (*forms)[f].fields[first_hole(tf, op)];
                            std::string key = std::string(KindName(ff.kind)) + ":" + std::to_string(ff.lo) + ":" + std::to_string(ff.width);
                            auto it = by_field.find({key, pre, post});
                            if (it != by_field.end()) tries = it->second;
                        }
                        auto jt = by_pos.find({op, pre, post});
                        if (jt != by_pos.end()) tries.insert(tries.end(), jt->second.begin(), jt->second.end());
                        for (const Wrap &w : tries) {
                            Form n;
                            if (!usable((*forms)[w.a]) || !usable((*forms)[w.b])) continue;
                            if (ApplyEdit((*forms)[f], (*forms)[w.a], (*forms)[w.b], tf, toks[w.a], toks[w.b], static_cast<int>(op),
                                          static_cast<int>(w.op), tn, false, &n, true)) {
                                have.insert(t);
                                cands.push_back(std::move(n));
                                break;
                            }
                        }
                    }
                }
            }
        }
        GeneralEdits(*forms, toks, usable, operand_edits, &have, &cands, &alternates);
    }
    *tried = static_cast<int>(cands.size());
    if (cands.empty()) return;
    std::vector<Form> keep = VerifyCandidates(*forms, cands, arch, nvdisasm, carrier);
    for (Form &f : alternates) pending->push_back(std::move(f));
    *kept = static_cast<int>(keep.size());
    for (Form &f : keep) forms->push_back(std::move(f));
}

// After the rounds: the further compositions of templates whose first composition nvdisasm
// rejected (an operand edit carried from another opcode: sm_90's FADD takes its uniform-register
// form's selector from DADD, not FMUL), tried last so that the rounds' own compositions take a
// template first.  Up to three alternatives per template, one per pass.
void SynthesizeAlternates(std::vector<Form> *forms, std::vector<Form> *pending, const std::string &arch,
                          const std::string &nvdisasm, const std::string &carrier, int *tried, int *kept) {
    for (int round = 0; round < 3 && !pending->empty(); ++round) {
        std::set<std::string> done, taken;
        for (const Form &f : *forms) done.insert(f.templ);
        std::vector<Form> next, rest;
        for (Form &f : *pending) {
            if (done.count(f.templ)) continue;
            (taken.insert(f.templ).second ? next : rest).push_back(std::move(f));
        }
        *pending = std::move(rest);
        if (next.empty()) break;
        *tried += static_cast<int>(next.size());
        std::vector<Form> keep = VerifyCandidates(*forms, next, arch, nvdisasm, carrier);
        *kept += static_cast<int>(keep.size());
        for (Form &f : keep) forms->push_back(std::move(f));
    }
}
}  // namespace

int main(int argc, char **argv) {
    std::string arch_name, nvdisasm = "nvdisasm", out_path, hand_path;
    int synth_rounds = 0;
    std::vector<std::string> cubins;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--arch" && i + 1 < argc) arch_name = argv[++i];
        else if (a == "--nvdisasm" && i + 1 < argc) nvdisasm = argv[++i];
        else if (a == "-o" && i + 1 < argc) out_path = argv[++i];
        else if (a == "--hand" && i + 1 < argc) hand_path = argv[++i];
        else if (a == "--synthesize" && i + 1 < argc) synth_rounds = std::atoi(argv[++i]);
        else cubins.push_back(a);
    }
    if (arch_name.empty() || out_path.empty() || cubins.empty()) {
        std::cerr << "usage: isa_gen --arch sm_XX [--nvdisasm PATH] [--hand hand.txt] -o OUT.inc (CUBIN|SASS)...\n";
        return 2;
    }
    if (auto a = ParseArch(arch_name); a.ok()) g_ur_zero = GetArchInfo(*a).ur_zero;
    if (!hand_path.empty() && !LoadHand(hand_path, arch_name, &g_hand)) return 1;
    std::sort(cubins.begin(), cubins.end());
    std::vector<Inst> insts;
    int parse_fail = 0;
    for (const std::string &c : cubins)
        if (!Harvest(nvdisasm, c, &insts, &parse_fail)) {
            std::cerr << "isa_gen: cannot run nvdisasm on " << c << "\n";
            return 1;
        }
    // Guard bits must be where the arch table says (bits 12..14, negation 15).
    std::vector<Inst *> live;
    int bad_guard = 0;
    for (Inst &in : insts) {
        if (static_cast<int>(in.w.Get(12, 3)) != in.st.guard_pred || in.w.Bit(15) != in.st.guard_neg) {
            ++bad_guard;
            continue;
        }
        live.push_back(&in);
    }
    // Pass 1: prior from unambiguous placements; pass 2: learn with the prior.
    Prior prior;
    WidthPrior width_prior;
    // Pass 0 may turn holes into literal text (without the prior, placements collide); pass 1
    // starts again from the instances as harvested.
    const std::vector<Inst> harvested = insts;
    for (int pass = 0; pass < 2; ++pass) {
        if (pass == 1) {
            insts = harvested;  // same size: the pointers in `live` stay valid
            for (auto &r : g_hand.operands) r.used = 0;  // rules count their use in pass 1 only
            for (auto &r : g_hand.fields) r.used = 0;
            for (auto &r : g_hand.reuses) r.used = 0;
            for (auto &r : g_hand.implicits) r.used = 0;
            for (auto &r : g_hand.omits) r.used = 0;
            for (auto &r : g_hand.not_rz) r.used = 0;
            for (auto &r : g_hand.aliases) r.used = 0;
            for (auto &r : g_hand.drops) r.used = 0;
        }
        std::map<std::string, std::vector<Inst *>> groups;
        for (Inst *in : live) groups[in->templ].push_back(in);
        std::vector<Form> forms;
        std::map<std::pair<int, uint64_t>, std::string> floats;
        std::vector<std::string> work;
        for (auto &[t, v] : groups) work.push_back(t);
        while (!work.empty()) {
            std::string t = work.back();
            work.pop_back();
            std::vector<Inst *> &gv = groups[t];
            std::vector<const Inst *> g(gv.begin(), gv.end());
            Learned L = Learn(g, pass ? &prior : nullptr, pass ? nullptr : &prior, &width_prior);
            if (!L.ok) {
                std::set<std::string> newt;
                for (Inst *in : gv) {
                    MakeLiteral(in, static_cast<size_t>(L.literal_hole));
                    groups[in->templ].push_back(in);
                    newt.insert(in->templ);
                }
                gv.clear();
                for (const std::string &n : newt) work.push_back(n);
                continue;
            }
            if (pass == 1) {
                for (size_t j = 0; j < L.form.fields.size(); ++j) {
                    const Field &fl = L.form.fields[j];
                    if (fl.kind != HoleKind::NUM || fl.code == HoleCode::PLAIN || fl.code == HoleCode::SIGNED) continue;
                    for (const Inst *in : g) {
                        uint64_t raw = in->w.Get(fl.lo, fl.width);
                        const std::string &txt = in->st.holes[j].text;
                        if (FormatFloatRule(FloatFromBits(fl.code, raw)) != txt)
                            floats[{static_cast<int>(fl.code), raw}] = txt;
                    }
                }
                forms.push_back(std::move(L.form));
            }
        }
        if (pass == 0) continue;
        int tried = 0, kept = 0, displaced = 0;
        ReuseStats reuse;
        if (synth_rounds > 0) {
            std::string carrier = cubins.front();
            if (carrier.size() > 5 && carrier.compare(carrier.size() - 5, 5, ".sass") == 0)
                carrier = carrier.substr(0, carrier.size() - 5) + ".cubin";
            std::vector<Form> pending;  // further compositions, tried after the rounds
            for (int r = 0; r < synth_rounds; ++r) {
                int t = 0, k = 0;
                Synthesize(&forms, arch_name, nvdisasm, carrier, false, &t, &k, &pending);
                tried += t, kept += k;
                if (k == 0) break;
                // The forms the last round composed get their short operands (hand.txt "drop":
                // sm_75's RED [UR+0x0] printed [UR]) in a drops-only round.
                if (r + 1 == synth_rounds) {
                    Synthesize(&forms, arch_name, nvdisasm, carrier, true, &t, &k, &pending);
                    tried += t, kept += k;
                }
            }
            SynthesizeAlternates(&forms, &pending, arch_name, nvdisasm, carrier, &tried, &kept);
            KeepCorpusDecodes(&forms, arch_name, insts, &displaced);
            ConfirmReuse(&forms, arch_name, nvdisasm, carrier, &reuse);
        }
        std::sort(forms.begin(), forms.end(), [](const Form &a, const Form &b) { return a.templ < b.templ; });
        // Every hand rule must have touched a form of this architecture (a stale rule is an error).
        auto stale = [&](int used, int line) {
            if (used) return false;
            std::cerr << hand_path << ":" << line << ": rule matches no " << arch_name << " form\n";
            return true;
        };
        bool any_stale = false;
        for (const auto &r : g_hand.operands) any_stale |= stale(r.used, r.line);
        for (const auto &r : g_hand.fields) any_stale |= stale(r.used, r.line);
        for (const auto &r : g_hand.reuses) any_stale |= stale(r.used, r.line);
        for (const auto &r : g_hand.implicits) any_stale |= stale(r.used, r.line);
        for (const auto &r : g_hand.omits) any_stale |= stale(r.used, r.line);
        for (const Form &f : forms) NotRzHoles(f.templ, f.fields, true);
        for (const auto &r : g_hand.not_rz) any_stale |= stale(r.used, r.line);
        for (const auto &r : g_hand.aliases) any_stale |= stale(r.used, r.line);
        for (const auto &r : g_hand.drops) any_stale |= stale(r.used, r.line);
        std::vector<std::pair<std::string, uint64_t>> nan_rows;
        for (auto &r : g_hand.nans) {
            for (const Form &f : forms) r.used += f.templ == r.templ;
            any_stale |= stale(r.used, r.line);
            nan_rows.push_back({r.templ, r.bits});
        }
        if (any_stale) return 1;
        std::ostringstream o;
        o << "R\"ISA(# generated by src/assembler/gen/isa_gen.cpp (make isa-tables) from the corpus and the hand\n"
          << "# knowledge in src/assembler/isa/hand.txt -- do not edit; change hand.txt and regenerate.\n"
          << "# source: " << cubins.size() << " cubins, " << live.size() << " instructions, via nvdisasm -c -hex\n"
          << "# form<TAB>template<TAB>fixed mask<TAB>fixed bits<TAB>free mask<TAB>free default<TAB>"
             "fields (kind:code:lo:width[:lo2:width2:shift] per hole)<TAB>reuse bit per operand<TAB>"
             "constant hole values (* varies)<TAB>instances<TAB>provenance[<TAB>implicit (hidden, unprinted) field]; "
             "a free mask or default of '-' is zero; 'synthesized': composed and confirmed by nvdisasm (isa_gen.cpp)\n"
          << "# alias<TAB>template<TAB>rank<TAB>alternatives (hole=value or hole=pow2 ..., separated by '|'): the form "
             "above is the name nvdisasm prints only when an alternative holds (the lowest rank among aliases)\n"
          << "# omit<TAB>template<TAB>holes: predicate or uniform register operands of the form above that nvdisasm "
             "leaves out of its text when they hold PT/UPT/URZ\n"
          << "# norz<TAB>template<TAB>holes: register operands of the form above that must not be RZ (nvdisasm rejects "
             "the word or prints ???255; the encoder refuses RZ there, the decoder reads such a word as no form)\n"
          << "# nan<TAB>template<TAB>bits: the NaN immediate (sign excluded) the parser uses for that form's +QNAN/-QNAN\n"
          << "arch\t" << arch_name << "\n";
        for (const Form &f : forms) o << FormRow(f);
        for (const auto &[t, bits] : nan_rows) {
            char b[40];
            std::snprintf(b, sizeof b, "%llx", static_cast<unsigned long long>(bits));
            o << "nan\t" << t << "\t" << b << "\n";
        }
        for (const auto &[k, txt] : floats) {
            char b[40];
            std::snprintf(b, sizeof b, "%llx", static_cast<unsigned long long>(k.second));
            o << "float\t" << CodeName(static_cast<HoleCode>(k.first)) << "\t" << b << "\t" << txt << "\n";
        }
        o << ")ISA\"\n";
        std::ofstream of(out_path);
        of << o.str();
        if (!of) {
            std::cerr << "isa_gen: cannot write " << out_path << "\n";
            return 1;
        }
        std::cerr << "isa_gen " << arch_name << ": " << insts.size() << " instructions, " << forms.size() << " forms, "
                  << floats.size() << " float literals, " << parse_fail << " unparsed, " << bad_guard
                  << " with unexpected guard bits; synthesized " << kept << " of " << tried << " candidates ("
                  << displaced << " dropped for taking corpus words); reuse flags of "
                  << reuse.operands << " register operands the examples leave open: " << reuse.predicted
                  << " confirmed at the slot map's bit, " << reuse.searched << " at another (" << reuse.exceptions
                  << " corpus operands off the map)\n";
    }
    return 0;
}
