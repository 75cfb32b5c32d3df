// PTX -> SASS: instruction selection (patterns.def), linear-scan register allocation, control
// codes.  See sasscomp.h for the pipeline.
#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <sstream>

#include "sasscomp/sasscomp.h"

namespace rndn::sasscomp {
namespace {

using ptx::Operand;
using ptx::OperandKind;

// ----------------------------------------------------------------------------- pattern table
struct PatternRow {
    const char *key;
    const char *pattern;  // SASS text, or (same) the key of another row
    bool same;
};
const PatternRow kPatterns[] = {
#define SASS_PAT(k, p) {k, p, false},
#define SASS_SAME(k, other) {k, other, true},
#include "sasscomp/patterns.def"
#undef SASS_PAT
#undef SASS_SAME
};
// key ("min.s32", or "min.s32@sm_90" for an architecture's own row) -> pattern
const std::map<std::string, std::string> &PatternMap() {
    static const std::map<std::string, std::string> m = [] {
        std::map<std::string, std::string> r;
        for (const PatternRow &p : kPatterns)
            if (!p.same) r[p.key] = p.pattern;
        for (const PatternRow &p : kPatterns) {
            if (!p.same) continue;
            std::string other = p.pattern;
            for (auto it = r.lower_bound(other); it != r.end() && it->first.compare(0, other.size(), other) == 0; ++it) {
                std::string rest = it->first.substr(other.size());
                if (rest.empty() || rest[0] == '@') r[p.key + rest] = it->second;
            }
        }
        return r;
    }();
    return m;
}

// ----------------------------------------------------------------------------- latency table
// The emulator's hazard checker and the scheduler read the same data (src/assembler/latency.inc).
const char kLatencyText[] =
#include "assembler/latency.inc"
    ;

struct Latency {
    bool variable = false;
    int cycles = 4;
};
struct LatencyTable {
    std::map<std::string, Latency> ops;
    Latency dflt;
    int pred = 4, pred_control = 9, pred_guard = 13;
    int bar_result = 6;  // BAR.RED to B2R.RESULT ("@bar-result")
    // `op` with its modifiers ("IMAD.WIDE.U32"): a row for the opcode with one of its modifiers
    // ("IMAD.WIDE") comes before the opcode's own row, as in the hazard checker.
    std::map<std::string, int> floors;  // "schedule" rows
    Latency Of(const std::string &op) const {
        const size_t dot = op.find('.');
        const std::string base = op.substr(0, dot);
        Latency l = dflt;
        bool found = false;
        int floor = 0;
        if (auto fd = floors.find("default"); fd != floors.end()) floor = fd->second;
        auto fb = floors.find(base);
        if (fb != floors.end()) floor = std::max(floor, fb->second);
        for (size_t i = dot; i != std::string::npos;) {
            size_t j = op.find('.', i + 1);
            const std::string key = base + op.substr(i, j == std::string::npos ? std::string::npos : j - i);
            auto it = ops.find(key);
            if (it != ops.end() && !found) l = it->second, found = true;
            auto f = floors.find(key);
            if (f != floors.end()) floor = std::max(floor, f->second);
            i = j;
        }
        if (!found) {
            auto it = ops.find(base);
            if (it != ops.end()) l = it->second;
        }
        if (!l.variable) l.cycles = std::max(l.cycles, floor);
        return l;
    }
    // The scheduling floor of a predicate written by `producer` (a base opcode) and read by
    // `consumer`: as an operand ("@predicate:PRODUCER", "@predicate:PRODUCER>CONSUMER",
    // "@predicate:*>CONSUMER" rows) or early, as a guard or by a control instruction
    // ("@predicate-guard:PRODUCER"); 0 when no row applies.
    int PredFloor(bool early, const std::string &producer, const std::string &consumer) const {
        int f = 0;
        auto take = [&](const std::string &key) {  // a "schedule" row, or a "fixed" one (the checker's too)
            auto it = floors.find(key);
            if (it != floors.end()) f = std::max(f, it->second);
            auto o = ops.find(key);
            if (o != ops.end() && !o->second.variable) f = std::max(f, o->second.cycles);
        };
        if (early) {
            take("@predicate-guard:" + producer);
        } else {
            take("@predicate:" + producer);
            take("@predicate:" + producer + ">" + consumer);
            take("@predicate:*>" + consumer);
        }
        return f;
    }
    // The longest any read of a predicate written by `producer` may have to wait (for drains).
    int PredMax(const std::string &producer) const {
        int m = std::max({pred, pred_control, pred_guard, PredFloor(true, producer, "")});
        auto applies = [&](const std::string &key) { return key.rfind("@predicate:" + producer, 0) == 0 || key.rfind("@predicate:*>", 0) == 0; };
        for (const auto &[key, v] : floors)
            if (applies(key)) m = std::max(m, v);
        for (const auto &[key, l] : ops)
            if (applies(key) && !l.variable) m = std::max(m, l.cycles);
        return m;
    }
};
const LatencyTable &LatenciesFor(sass::Arch arch) {
    static std::mutex mu;
    static std::map<sass::Arch, LatencyTable> cache;
    std::lock_guard<std::mutex> lock(mu);
    auto it = cache.find(arch);
    if (it != cache.end()) return it->second;
    LatencyTable t;
    std::string archname = sass::GetArchInfo(arch).name;
    std::istringstream in(kLatencyText);
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') continue;
        std::istringstream ls(line);
        std::string a, op, kind, arg;
        if (!(ls >> a >> op >> kind >> arg)) continue;
        if (a != "*" && a != archname) continue;
        if (kind == "schedule") {
            t.floors[op] = std::atoi(arg.c_str());
            continue;
        }
        Latency l;
        l.variable = kind == "variable";
        if (!l.variable) l.cycles = std::atoi(arg.c_str());
        if (op == "default") t.dflt = l;
        else if (op == "@predicate") t.pred = l.cycles;
        else if (op == "@predicate-control") t.pred_control = l.cycles;
        else if (op == "@predicate-guard") t.pred_guard = l.cycles;
        else if (op == "@bar-result") t.bar_result = l.cycles;
        else t.ops[op] = l;
    }
    // the floors apply to what the scheduler reads: the fixed rows and the predicate latencies
    auto floor_of = [&](const std::string &op) {
        auto f = t.floors.find(op);
        return f == t.floors.end() ? 0 : f->second;
    };
    t.pred = std::max(t.pred, floor_of("@predicate"));
    t.pred_control = std::max(t.pred_control, floor_of("@predicate-control"));
    t.pred_guard = std::max({t.pred_guard, t.pred, floor_of("@predicate-guard")});
    return cache[arch] = t;
}

// ----------------------------------------------------------------------------- machine code
enum class VClass : uint8_t { R32, R64, PRED };
struct VReg {
    VClass cls = VClass::R32;
    int start = -1, end = -1;  // live interval over machine-instruction indices
    int phys = -1;
    bool local = false;  // a temporary of one PTX instruction's expansion: never live across a branch
    bool no_spill = false;  // a spill reload/store temporary (spilling it again cannot help)
};

// A machine instruction before allocation: text with virtual-register references
// "\x01<vreg>:<part>\x02" (part 0: low/only, 1: high half, 2: predicate).
struct MInst {
    std::string text;
    std::vector<int> defs, uses;  // virtual registers
    int label_here = -1;          // a PTX label starts at this instruction
    int target = -1;              // branch target label
    int join = -1;                // BSSY: the label of its region's join (the BSYNC)
    bool is_exit = false;
    ptx::SourceLoc loc;
};

MInst MakeInst(std::string text, std::vector<int> defs, std::vector<int> uses) {
    MInst m;
    m.text = std::move(text);
    m.defs = std::move(defs);
    m.uses = std::move(uses);
    return m;
}

std::string Hex(uint64_t v) {
    char b[32];
    std::snprintf(b, sizeof b, "0x%llx", (unsigned long long)v);
    return b;
}

std::string VRef(int v, int part) { return "\x01" + std::to_string(v) + ":" + std::to_string(part) + "\x02"; }

class KernelCompiler {
public:
    KernelCompiler(const ptx::Module &m, const ptx::Function &f, sass::Arch arch, const std::vector<ModuleVariable> *vars)
        : m_(m), f_(f), arch_(arch), ai_(sass::GetArchInfo(arch)), mvars_(vars) {}

    Expected<CompiledKernel> Run();

private:
    Status Err(const ptx::Instruction &inst, const std::string &msg) {
        return Status::Unsupported(m_.filename + ":" + std::to_string(inst.loc.line) + ": " + f_.name + ": " + msg);
    }
    // A PTX register folded into another by copy coalescing (CoalesceCopies), else itself.
    int Reg(ptx::RegId r) const {
        int v = (int)r;
        while (v < (int)alias_.size() && alias_[v] >= 0) v = alias_[v];
        return v;
    }
    void CoalesceCopies();
    int NewTemp(VClass c, bool local = true) {
        vregs_.push_back(VReg{c});
        vregs_.back().local = local;
        return (int)vregs_.size() - 1;
    }
    Status Lower(const ptx::Instruction &inst);
    Status Expand(const ptx::Instruction &inst, const std::string &pattern, const std::string &key);
    void Emit(std::string text, std::vector<int> defs, std::vector<int> uses, const ptx::Instruction &inst);
    std::string Guard(const ptx::Instruction &inst, std::vector<int> *uses);
    Status LowerMemory(const ptx::Instruction &inst, const std::string &key);
    Status LowerMov(const ptx::Instruction &inst, const std::string &key, bool *done);
    Status LowerSpecialReg(const ptx::Instruction &inst, const std::string &key);
    void FoldConstantBank();
    // optimise.inc
    void PartEffects(const MInst &mi, std::vector<int> *use, std::vector<int> *def, std::vector<int> *kill) const;
    void PartLiveness(const std::vector<std::vector<int>> &uses, const std::vector<std::vector<int>> &kills, std::vector<std::vector<int>> *succ,
                      std::vector<uint64_t> *live_in, size_t *words) const;
    void DropMarked(const std::vector<bool> &drop);
    void EliminateDeadCode();
    void FoldImmediates();
    void DropSelfCopies();
    void DropIdentityCopies();
    void FuseAddressArithmetic();
    int CopyHint(int v, const std::vector<int> &rfree_at) const;
    void BranchesToExit();
    void FuseWideAdds();
    // memory spaces, atomics, barriers and warp collectives (memory.inc)
    void AnalyseRegisters();
    Status LayOutShared();
    Status LayOutLocal();
    bool ConstOf(const Operand &o, uint64_t *v) const;
    std::string GlobalAddress(int a, int64_t off) const;
    Status EmitAccess(const ptx::Instruction &inst, bool load, int v, const Operand &mem, uint32_t bits, uint32_t extra,
                      const std::string &key);
    Status LowerSymbolMov(const ptx::Instruction &inst, const std::string &key);
    Status LowerAtomic(const ptx::Instruction &inst, const std::string &key);
    Status LowerSharedAtomic(const ptx::Instruction &inst, const std::string &key);
    Status LowerBarrier(const ptx::Instruction &inst, const std::string &key);
    Status LowerWarp(const ptx::Instruction &inst, const std::string &key);
    bool PredicateSource(const Operand &p, std::vector<int> *uses, std::string *src);
    Status LowerFence(const ptx::Instruction &inst, const std::string &key);
    Status EmitOrderingFence(const ptx::Instruction &inst, const std::string &key, const std::string &g, const std::vector<int> &uses, bool release,
                             bool acquire);
    int Materialise(const ptx::Instruction &inst, uint32_t value);
    const ModuleVariable *ModuleVar(const ptx::SymbolRef &s) const;
    Expected<int> ModuleGlobalAddress(const ptx::Instruction &inst, const ModuleVariable &mv);
    void EmitWidenLowHalf(const ptx::Instruction &inst, const std::string &g, int v, bool is_signed, const std::vector<int> &uses);
    Status EmitConstLoad(const ptx::Instruction &inst, const std::string &g, const std::vector<int> &uses, int v, int bank, const std::string &base,
                         uint32_t off, uint32_t bits, bool is_signed, const std::string &key);
    void InsertConvergenceBarriers();  // convergence.inc
    Status Allocate(int *spill);
    void SpillPredicate(int v);
    void SpillRegister(int v);
    void EnsureFrameBase();
    void RouteThroughTemporaries(int v, const std::function<MInst(int)> &reload, const std::function<MInst(int)> &store);
    Status Schedule(CompiledKernel *k);

    const ptx::Module &m_;
    const ptx::Function &f_;
    sass::Arch arch_;
    const sass::ArchInfo &ai_;
    const std::vector<ModuleVariable> *mvars_;  // the module's .const/.global variables (LayOutModuleVariables)
    std::vector<VReg> vregs_;
    std::vector<MInst> code_;
    std::vector<CompiledParam> params_;
    uint32_t param_bytes_ = 0;
    int pending_label_ = -1;
    int next_own_label_ = 1 << 24;  // labels of loops the lowering makes itself (above every PTX label id)
    int max_reg_ = -1;
    int carry_ = -1;                 // the carry flag of add.cc/addc chains (a predicate), once used
    std::vector<int> alias_;         // per PTX register: the register it is folded into, or -1
    std::vector<int> reg_reads_;     // per PTX register: how many operands read it
    std::vector<int> reg_writes_;    // per PTX register: how many operands write it
    std::vector<std::optional<uint64_t>> reg_const_;  // per PTX register: its value when its only write is a mov of an immediate
    std::map<std::pair<int, uint32_t>, uint32_t> shared_at_;  // (SymbolKind, index) -> shared address
    uint32_t shared_bytes_ = 0;
    std::map<uint32_t, uint32_t> local_at_;  // kernel-body .local variable -> offset in the stack frame
    uint32_t frame_bytes_ = 0;               // the stack frame (.local variables)
    uint32_t spill_bytes_ = 0;               // spill slots after them (SpillRegister)
    int sp_ = -1;                            // the frame's base (a local-window address), when there is a frame
    bool uses_shared_ = false;
    bool uses_bssy_ = false;
    int barriers_ = 0;
    std::vector<bool> folded_copy_;  // per body statement: a copy removed by coalescing
};

// Copies in the straight-line entry block (before the first label) between registers that are
// written exactly once in the whole function hold the same value everywhere: the destination is
// folded into the source (cvta.to.global of a parameter, mov between registers of one class).
void KernelCompiler::CoalesceCopies() {
    alias_.assign(f_.regs.size(), -1);
    folded_copy_.assign(f_.body.size(), false);
    std::vector<int> defs(f_.regs.size(), 0);
    for (const ptx::Statement &st : f_.body) {
        if (st.kind != ptx::StatementKind::INSTRUCTION) continue;
        for (size_t i = 0; i < st.inst.num_dests && i < st.inst.operands.size(); ++i) {
            const Operand &o = st.inst.operands[i];
            if (o.kind == OperandKind::REG && o.reg < defs.size()) defs[o.reg] += 2;  // also counts vector elements below
            for (const Operand &e : o.elems)
                if (e.kind == OperandKind::REG && e.reg < defs.size()) defs[e.reg] += 2;
        }
    }
    for (size_t i = 0; i < f_.body.size(); ++i) {
        const ptx::Statement &st = f_.body[i];
        if (st.kind == ptx::StatementKind::LABEL) break;
        if (st.kind != ptx::StatementKind::INSTRUCTION) continue;
        const ptx::Instruction &in = st.inst;
        bool copy = (in.opcode == ptx::Opcode::CVTA && in.mods.to && in.mods.space == ptx::StateSpace::GLOBAL) ||
                    in.opcode == ptx::Opcode::MOV;
        if (!copy || in.guard.present || in.operands.size() != 2) continue;
        const Operand &d = in.operands[0], &a = in.operands[1];
        if (d.kind != OperandKind::REG || a.kind != OperandKind::REG || a.negated) continue;
        if (d.reg >= defs.size() || a.reg >= defs.size() || defs[d.reg] != 2 || defs[a.reg] != 2) continue;
        int src = Reg(a.reg);
        if (vregs_[src].cls != vregs_[d.reg].cls || src == (int)d.reg) continue;
        alias_[d.reg] = src;
        folded_copy_[i] = true;
    }
}

// Width in bits of operand `idx` from its role in the opcode table (opcodes.def).
uint32_t OperandBits(const ptx::Instruction &inst, size_t idx) {
    std::string roles = inst.info().operands;
    size_t field = 0, i = 0;
    while (i < roles.size() && field < idx)
        if (roles[i++] == ',') ++field;
    char role = i < roles.size() ? roles[i] : 'a';
    if (role == 'u' || role == 'w') return 32;
    if (role == 'q' || role == 'p') return 1;
    if (role == 'b') return ptx::TypeBits(inst.type2);
    uint32_t bits = ptx::TypeBits(inst.type);
    if (inst.mods.mul_mode == ptx::MulMode::WIDE && (role == 'd' || role == 'c')) bits *= 2;
    return bits;
}

std::string InstKey(const ptx::Instruction &inst) {
    const ptx::OpcodeInfo &info = inst.info();
    std::string key = info.mnemonic;
    for (int i = 0; i < ptx::kMaxModGroups && info.groups[i] != ptx::ModGroup::NONE; ++i) {
        uint8_t v = inst.mods.Get(info.groups[i]);
        if (v) key += "." + std::string(ptx::ModifierToken(info.groups[i], v));
    }
    if (inst.type != ptx::Type::NONE) key += "." + std::string(ptx::TypeName(inst.type));
    if (inst.type2 != ptx::Type::NONE) key += "." + std::string(ptx::TypeName(inst.type2));
    return key;
}

void KernelCompiler::Emit(std::string text, std::vector<int> defs, std::vector<int> uses, const ptx::Instruction &inst) {
    MInst mi;
    mi.text = std::move(text);
    mi.defs = std::move(defs);
    mi.uses = std::move(uses);
    mi.loc = inst.loc;
    mi.label_here = pending_label_;
    pending_label_ = -1;
    code_.push_back(std::move(mi));
}

std::string KernelCompiler::Guard(const ptx::Instruction &inst, std::vector<int> *uses) {
    if (!inst.guard.present) return "";
    uses->push_back(Reg(inst.guard.reg));
    return std::string("@") + (inst.guard.negated ? "!" : "") + VRef(Reg(inst.guard.reg), 2) + " ";
}

namespace {
// One placeholder of a pattern line: "{a.hi:i}", "{=p1}", "{t0}" ...
struct Placeholder {
    std::string name;   // "a", "t0", "w1", "p0", "cc"
    int part = 0;       // 0 low/only, 1 high
    bool has_part = false, allow_imm = false, def = false;
};
Placeholder ParsePlaceholder(std::string ph) {
    Placeholder p;
    if (!ph.empty() && ph[0] == '=') {
        p.def = true;
        ph.erase(ph.begin());
    }
    if (ph.size() > 2 && ph.compare(ph.size() - 2, 2, ":i") == 0) {
        p.allow_imm = true;
        ph.resize(ph.size() - 2);
    }
    if (ph.size() > 3 && (ph.compare(ph.size() - 3, 3, ".lo") == 0 || ph.compare(ph.size() - 3, 3, ".hi") == 0)) {
        p.has_part = true;
        p.part = ph[ph.size() - 2] == 'h' ? 1 : 0;
        ph.resize(ph.size() - 3);
    }
    p.name = ph;
    return p;
}
std::vector<std::string> SplitPattern(const std::string &pattern) {
    std::vector<std::string> lines;
    std::string cur;
    for (char ch : pattern) {
        if (ch == ';') {
            lines.push_back(cur);
            cur.clear();
        } else cur += ch;
    }
    lines.push_back(cur);
    for (std::string &l : lines) {
        while (!l.empty() && l.front() == ' ') l.erase(l.begin());
        while (!l.empty() && l.back() == ' ') l.pop_back();
    }
    return lines;
}

// sm_120 compares 64-bit integers in one instruction, `ISETP.<cmp>.S64|.U64.<bop> P, PT, Ra, Rb, Pc`
// with register pairs (ptxas 13 writes no ISETP.*.EX there, so its tables have none).  A pattern's
// pair `ISETP.<cmp>.U32.AND x, PT, {A.lo}, {B.lo}, PT; ISETP.<cmp>[.U32].AND.EX y, PT, {A.hi},
// {B.hi}, PT, x` (the low halves unsigned, then the high halves with the carried predicate: the
// 64-bit comparison, signed unless the second line says .U32) becomes `ISETP.<cmp>.S64|.U64.AND y,
// PT, {A}, {B}, PT`, when no later line reads x (or x is y).  Kept per pattern text.
std::vector<std::string> FuseWideCompares(const std::vector<std::string> &lines) {
    auto split = [](const std::string &l, std::string *guard, std::string *op) {
        std::vector<std::string> ops;
        size_t st = 0;
        if (!l.empty() && l[0] == '@' && (st = l.find(' ')) == std::string::npos) return ops;
        if (st) ++st;
        size_t sp = l.find(' ', st);
        if (sp == std::string::npos) return ops;
        *guard = l.substr(0, st), *op = l.substr(st, sp - st);
        std::string cur;
        for (size_t i = sp + 1; i <= l.size(); ++i) {
            if (i == l.size() || l[i] == ',') ops.push_back(cur), cur.clear();
            else if (l[i] != ' ') cur += l[i];
        }
        return ops;
    };
    // "{w3.lo}" -> "{w3}" when the placeholder names a half
    auto whole = [](const std::string &o, const char *half) {
        std::string suf = std::string(".") + half + "}";
        if (o.size() < suf.size() + 2 || o[0] != '{' || o.compare(o.size() - suf.size(), suf.size(), suf) != 0) return std::string();
        return o.substr(0, o.size() - suf.size()) + "}";
    };
    std::vector<std::string> out;
    for (size_t i = 0; i < lines.size(); ++i) {
        std::string g1, op1, g2, op2;
        std::vector<std::string> a = split(lines[i], &g1, &op1), b;
        if (i + 1 < lines.size()) b = split(lines[i + 1], &g2, &op2);
        bool fuse = a.size() == 5 && b.size() == 6 && g1 == g2 && op1.rfind("ISETP.", 0) == 0 && a[1] == "PT" && a[4] == "PT" &&
                    b[1] == "PT" && b[4] == "PT" && b[5] == a[0];
        std::string cmp;
        if (fuse) {
            size_t d = op1.find('.', 6);
            cmp = op1.substr(6, d == std::string::npos ? std::string::npos : d - 6);
            fuse = op1 == "ISETP." + cmp + ".U32.AND" && (op2 == "ISETP." + cmp + ".AND.EX" || op2 == "ISETP." + cmp + ".U32.AND.EX");
        }
        std::string wa = fuse ? whole(a[2], "lo") : "", wb = fuse ? whole(a[3], "lo") : "";
        fuse = fuse && !wa.empty() && !wb.empty() && whole(b[2], "hi") == wa && whole(b[3], "hi") == wb;
        for (size_t j = i + 2; fuse && a[0] != b[0] && j < lines.size(); ++j)
            if (lines[j].find(a[0]) != std::string::npos) fuse = false;
        if (!fuse) {
            out.push_back(lines[i]);
            continue;
        }
        bool u = op2.find(".U32.") != std::string::npos;
        out.push_back(g1 + "ISETP." + cmp + (u ? ".U64" : ".S64") + ".AND " + b[0] + ", PT, " + wa + ", " + wb + ", PT");
        ++i;
    }
    return out;
}
}  // namespace

// Expands a pattern.  Destinations are written where the pattern says; when a destination is also
// a source and a later line of the pattern reads that source after an earlier line wrote the
// destination, or when the PTX instruction is guarded and the pattern guards lines itself, the
// pattern computes into temporaries and guarded moves copy them into the destinations.
Status KernelCompiler::Expand(const ptx::Instruction &inst, const std::string &pattern, const std::string &key) {
    static const std::string names = "dabce";
    std::vector<std::string> lines = SplitPattern(pattern);
    if (arch_ == sass::Arch::SM_120) {
        static std::mutex mu;
        static std::map<std::string, std::vector<std::string>> fused;
        std::lock_guard<std::mutex> lock(mu);
        auto it = fused.find(pattern);
        if (it == fused.end()) it = fused.emplace(pattern, FuseWideCompares(lines)).first;
        lines = it->second;
    }
    auto part_mask = [&](const Placeholder &p, size_t idx) -> int {
        if (idx >= inst.operands.size() || inst.operands[idx].kind != OperandKind::REG) return 0;
        const VReg &v = vregs_[Reg(inst.operands[idx].reg)];
        if (v.cls == VClass::R64 && !p.has_part) return 3;
        return 1 << p.part;
    };
    // decide whether to compute into temporaries
    bool own_guards = false, unsafe = false;
    {
        std::map<int, int> written;  // vreg -> parts written so far
        for (const std::string &line : lines) {
            if (!line.empty() && line[0] == '@') own_guards = true;
            std::map<int, int> wrote_here;
            for (size_t i = line.find('{'); i != std::string::npos; i = line.find('{', i + 1)) {
                Placeholder p = ParsePlaceholder(line.substr(i + 1, line.find('}', i) - i - 1));
                size_t idx = names.find(p.name[0]);
                if (p.name.size() != 1 || idx == std::string::npos || idx >= inst.operands.size()) continue;
                const Operand &op = inst.operands[idx];
                if (op.kind != OperandKind::REG) continue;
                int r = Reg(op.reg), m = part_mask(p, idx);
                if (idx < inst.num_dests) wrote_here[r] |= m;
                else if (written.count(r) && (written[r] & m)) unsafe = true;
            }
            for (auto &[r, m] : wrote_here) written[r] |= m;
        }
    }
    std::map<size_t, int> redirect;  // PTX destination operand -> temporary
    if ((inst.guard.present && own_guards) || unsafe) {
        for (size_t idx = 0; idx < inst.num_dests && idx < inst.operands.size(); ++idx)
            if (inst.operands[idx].kind == OperandKind::REG) redirect[idx] = NewTemp(vregs_[Reg(inst.operands[idx].reg)].cls);
    }
    bool guard_lines = inst.guard.present && redirect.empty();
    std::map<std::string, int> temps;
    for (const std::string &line : lines) {
        std::string out;
        std::vector<int> defs, uses;
        std::string pre = guard_lines ? Guard(inst, &uses) : "";
        size_t first_comma = line.find(',');
        size_t opcode_end = line[0] == '@' ? line.find(' ', line.find(' ') + 1) : line.find(' ');
        for (size_t i = 0; i < line.size();) {
            if (line[i] != '{') {
                out += line[i++];
                continue;
            }
            size_t j = line.find('}', i);
            Placeholder p = ParsePlaceholder(line.substr(i + 1, j - i - 1));
            bool first_operand = i > opcode_end && i < first_comma;
            i = j + 1;
            const std::string &ph = p.name;
            if (ph == "cc") {  // the function's carry flag (add.cc / addc chains)
                if (carry_ < 0) carry_ = NewTemp(VClass::PRED, /*local=*/false);
                (p.def || first_operand ? defs : uses).push_back(carry_);
                out += VRef(carry_, 2);
                continue;
            }
            if (ph[0] == 't' || ph[0] == 'w' || ph[0] == 'p') {  // temporaries
                auto it = temps.find(ph);
                bool first = it == temps.end();
                if (first) it = temps.emplace(ph, NewTemp(ph[0] == 't' ? VClass::R32 : ph[0] == 'w' ? VClass::R64 : VClass::PRED)).first;
                (first || p.def || first_operand ? defs : uses).push_back(it->second);
                out += VRef(it->second, ph[0] == 'p' ? 2 : p.part);
                continue;
            }
            size_t idx = names.find(ph[0]);
            if (ph.size() != 1 || idx == std::string::npos || idx >= inst.operands.size())
                return Err(inst, "pattern for " + key + " names a missing operand {" + ph + "}");
            const Operand &op = inst.operands[idx];
            bool is_def = idx < inst.num_dests;
            if (op.kind == OperandKind::REG) {
                int r = Reg(op.reg);
                if (is_def && redirect.count(idx)) r = redirect[idx];
                const VReg &v = vregs_[r];
                if (is_def) {
                    defs.push_back(r);
                    if (!first_operand && !p.def) uses.push_back(r);
                } else uses.push_back(r);
                if (op.negated && v.cls == VClass::PRED && line.compare(0, 5, "PLOP3") == 0) {
                    // the tables know PLOP3 without negated sources: negate into a temporary first
                    int t = NewTemp(VClass::PRED);
                    MInst mi;
                    mi.text = "PLOP3.LUT " + VRef(t, 2) + ", PT, " + VRef(r, 2) + ", PT, PT, 0x8, 0x0";
                    mi.defs = {t};
                    mi.uses = {r};
                    mi.loc = inst.loc;
                    mi.label_here = pending_label_;
                    pending_label_ = -1;
                    code_.push_back(mi);
                    uses.back() = t;
                    out += VRef(t, 2);
                    continue;
                }
                if (op.negated) out += "!";
                out += VRef(r, v.cls == VClass::PRED ? 2 : p.part);
            } else if (op.kind == OperandKind::IMM && !is_def) {
                uint64_t bits = op.imm.bits;
                if (op.imm.kind == ptx::ImmKind::INT && ptx::TypeKindOf(inst.type) == ptx::TypeKind::FLOAT) {
                    if (ptx::TypeBits(inst.type) == 32) {
                        float fv = op.imm.AsF32();
                        uint32_t b;
                        std::memcpy(&b, &fv, 4);
                        bits = b;
                    } else {
                        double dv = op.imm.AsF64();
                        std::memcpy(&bits, &dv, 8);
                    }
                }
                uint32_t word = (uint32_t)(p.part ? bits >> 32 : bits);
                // a whole 64-bit operand (no .lo/.hi) of a 64-bit role becomes a register pair
                bool whole64 = !p.has_part && OperandBits(inst, idx) == 64;
                if (p.allow_imm) {
                    out += Hex(word);
                } else if (whole64) {
                    int t = NewTemp(VClass::R64);
                    for (int h = 0; h < 2; ++h) {
                        MInst mi;
                        mi.text = "MOV " + VRef(t, h) + ", " + Hex((uint32_t)(h ? bits >> 32 : bits));
                        mi.defs = {t};
                        mi.loc = inst.loc;
                        mi.label_here = pending_label_;
                        pending_label_ = -1;
                        code_.push_back(mi);
                    }
                    uses.push_back(t);
                    out += VRef(t, 0);
                } else if (word == 0) {
                    out += "RZ";
                } else {
                    // materialise into a temporary (emitted before this line)
                    int t = NewTemp(VClass::R32);
                    MInst mi;
                    mi.text = "MOV " + VRef(t, 0) + ", " + Hex(word);
                    mi.defs = {t};
                    mi.loc = inst.loc;
                    mi.label_here = pending_label_;
                    pending_label_ = -1;
                    code_.push_back(mi);
                    uses.push_back(t);
                    out += VRef(t, 0);
                }
            } else {
                return Err(inst, "operand " + std::to_string(idx) + " of " + key + " has an unsupported kind");
            }
        }
        Emit(pre + out, defs, uses, inst);
    }
    // copy the temporaries into the destinations (guarded like the PTX instruction)
    for (auto &[idx, t] : redirect) {
        int r = Reg(inst.operands[idx].reg);
        VClass c = vregs_[r].cls;
        for (int h = 0; h < (c == VClass::R64 ? 2 : 1); ++h) {
            std::vector<int> uses{t};
            std::string g = Guard(inst, &uses);
            if (g.size()) uses.push_back(r);  // a guarded copy keeps the old value otherwise
            if (c == VClass::PRED) Emit(g + "PLOP3.LUT " + VRef(r, 2) + ", PT, " + VRef(t, 2) + ", PT, PT, 0x80, 0x0", {r}, uses, inst);
            else Emit(g + "MOV " + VRef(r, h) + ", " + VRef(t, h), {r}, uses, inst);
        }
    }
    return Status::Ok();
}

// ld.param / ld/st in global and shared memory, scalars and vectors (split per element)
Status KernelCompiler::LowerMemory(const ptx::Instruction &inst, const std::string &key) {
    bool load = inst.opcode == ptx::Opcode::LD;
    const Operand &mem = inst.operands[load ? 1 : 0];
    const Operand &val = inst.operands[load ? 0 : 1];
    if (mem.kind != OperandKind::ADDRESS) return Err(inst, "no SASS pattern for " + key);
    uint32_t bits = ptx::TypeBits(inst.type);
    if (bits != 8 && bits != 16 && bits != 32 && bits != 64) return Err(inst, "no SASS pattern for " + key);
    ptx::StateSpace sp = inst.mods.space;
    if (inst.mods.vec != ptx::VecWidth::NONE) {
        if (val.kind != OperandKind::VECTOR || sp == ptx::StateSpace::PARAM || sp == ptx::StateSpace::PARAM_ENTRY)
            return Err(inst, "no SASS pattern for " + key);
        for (size_t e = 0; e < val.elems.size(); ++e) {
            const Operand &x = val.elems[e];
            int v;
            if (x.kind == OperandKind::SINK) continue;
            if (x.kind == OperandKind::REG) v = Reg(x.reg);
            else if (x.kind == OperandKind::IMM && !load && bits == 32) v = Materialise(inst, (uint32_t)x.imm.bits);
            else return Err(inst, "no SASS pattern for " + key + " with this vector element");
            if ((vregs_[v].cls == VClass::R64) != (bits == 64) || vregs_[v].cls == VClass::PRED)
                return Err(inst, "no SASS pattern for " + key + " with a register of another width");
            RNDN_RETURN_IF_ERROR(EmitAccess(inst, load, v, mem, bits, (uint32_t)(e * bits / 8), key));
        }
        return Status::Ok();
    }
    if (val.kind != OperandKind::REG) return Err(inst, "no SASS pattern for " + key + " with an immediate value");
    int v = Reg(val.reg);
    bool v64 = vregs_[v].cls == VClass::R64;
    // a narrower global access to a 64-bit register goes through its low half (EmitAccess)
    if (bits == 64 ? !v64 : v64 && inst.mods.space != ptx::StateSpace::GLOBAL)
        return Err(inst, "no SASS pattern for " + key + " with a register of another width");
    if (load && (sp == ptx::StateSpace::PARAM || sp == ptx::StateSpace::PARAM_ENTRY)) {
        std::vector<int> uses;
        std::string g = Guard(inst, &uses);
        if (bits < 32) return Err(inst, "no SASS pattern for " + key);
        if (mem.addr.base != ptx::AddrBase::SYMBOL || mem.addr.sym.kind != ptx::SymbolKind::PARAM)
            return Err(inst, "no SASS pattern for " + key + " from a non-parameter address");
        uint32_t off = ai_.param_base + params_[mem.addr.sym.index].offset + (uint32_t)mem.addr.offset;
        if (arch_ >= sass::Arch::SM_90) {
            Emit(g + (v64 ? "LDC.64 " : "LDC ") + VRef(v, 0) + ", c[0x0][" + Hex(off) + "]", {v}, uses, inst);
        } else {
            Emit(g + "MOV " + VRef(v, 0) + ", c[0x0][" + Hex(off) + "]", {v}, uses, inst);
            if (v64) Emit(g + "MOV " + VRef(v, 1) + ", c[0x0][" + Hex(off + 4) + "]", {v}, uses, inst);
        }
        return Status::Ok();
    }
    return EmitAccess(inst, load, v, mem, bits, 0, key);
}

// mov from special registers
Status KernelCompiler::LowerMov(const ptx::Instruction &inst, const std::string &key, bool *done) {
    *done = false;
    if (inst.operands.size() == 2 && (!inst.operands[0].elems.empty() || !inst.operands[1].elems.empty())) {
        // vector pack / unpack: mov.b64 %rd, {%r1, %r2}; mov.b64 {%r1, %r2}, %rd; mov.b32 with two
        // 16-bit halves (16-bit values live in the low half of a 32-bit register)
        *done = true;
        bool pack = !inst.operands[1].elems.empty();
        const Operand &whole = inst.operands[pack ? 0 : 1];
        const std::vector<Operand> &el = inst.operands[pack ? 1 : 0].elems;
        uint32_t bits = ptx::TypeBits(inst.type);
        if (whole.kind != OperandKind::REG || el.size() != 2 || (bits != 64 && bits != 32))
            return Err(inst, "no SASS pattern for " + key + " with this vector operand");
        for (const Operand &e : el)
            if (e.kind != OperandKind::REG || vregs_[Reg(e.reg)].cls != VClass::R32)
                return Err(inst, "no SASS pattern for " + key + " with this vector element");
        int w = Reg(whole.reg), e0 = Reg(el[0].reg), e1 = Reg(el[1].reg);
        std::vector<int> uses;
        std::string g = Guard(inst, &uses);
        auto emit = [&](const std::string &text, int def, std::vector<int> u) {
            for (int x : uses) u.push_back(x);
            Emit(g + text, {def}, u, inst);
        };
        if (bits == 64 && pack) {
            if (w == e0 || w == e1) return Err(inst, "no SASS pattern for " + key + " packing a register into itself");
            emit("MOV " + VRef(w, 0) + ", " + VRef(e0, 0), w, {e0});
            emit("MOV " + VRef(w, 1) + ", " + VRef(e1, 0), w, {e1, w});
        } else if (bits == 64) {
            if (e0 == w || e1 == w || e0 == e1) return Err(inst, "no SASS pattern for " + key + " unpacking into its source");
            emit("MOV " + VRef(e0, 0) + ", " + VRef(w, 0), e0, {w});
            emit("MOV " + VRef(e1, 0) + ", " + VRef(w, 1), e1, {w});
        } else if (pack) {
            emit("PRMT " + VRef(w, 0) + ", " + VRef(e0, 0) + ", 0x5410, " + VRef(e1, 0), w, {e0, e1});
        } else {
            if (e0 == w || e1 == w || e0 == e1) return Err(inst, "no SASS pattern for " + key + " unpacking into its source");
            emit("SHF.R.U32.HI " + VRef(e1, 0) + ", RZ, 0x10, " + VRef(w, 0), e1, {w});
            emit("MOV " + VRef(e0, 0) + ", " + VRef(w, 0), e0, {w});
        }
        return Status::Ok();
    }
    if (inst.operands.size() != 2 || inst.operands[1].kind != OperandKind::SREG) return Status::Ok();
    *done = true;
    return LowerSpecialReg(inst, key);
}

bool FormExists(const sass::Isa &isa, const std::string &text);  // below: the tables hold this text's form
// A text with virtual register references as the tables' parser takes it (R2/R3 for the halves of a
// register, P0 for a predicate), to ask FormExists about its form.
std::string PhysicalText(std::string t) {
    for (size_t i = t.find('\x01'); i != std::string::npos; i = t.find('\x01')) {
        size_t e = t.find('\x02', i);
        char part = t[e - 1];
        t.replace(i, e + 1 - i, part == '2' ? "P0" : part == '1' ? "R3" : "R2");
    }
    return t;
}

// Special registers.  Each has one way of reading it (ptxas's, from its listings of
// test/cuda/special_regs.cu): an S2R, a 64-bit CS2R pair, a constant-bank word of the launch
// header (at another offset on sm_100/sm_120), or S2R plus a bit-field extract (%warpid: bits
// 8-14 of SR_VIRTID).  Where an architecture's tables have no S2R form for the source register,
// it is read into a free uniform register with S2UR and moved, as ptxas does there.  The 32-bit
// halves of the clock and the global timer (ptxas: CS2R.32 / S2UR SR_CLOCKHI, forms the corpus
// does not hold) are a half of the 64-bit CS2R pair.
Status KernelCompiler::LowerSpecialReg(const ptx::Instruction &inst, const std::string &key) {
    using S = ptx::SpecialReg;
    enum class How : uint8_t { S2R, CS2R, HALF, CBANK, FIELD };
    struct SR {
        S s;
        How how;
        const char *src;    // SASS source register (S2R, CS2R, FIELD)
        uint32_t cbank;     // CBANK: c[0x0][...] offset up to sm_90
        uint32_t cbank100;  // CBANK: the offset on sm_100/sm_120
        uint8_t shift = 0, bits = 0;  // FIELD (HALF: shift 32 for the high half)
    };
    static const SR kSregs[] = {
        {S::TID_X, How::S2R, "SR_TID.X", 0, 0},       {S::TID_Y, How::S2R, "SR_TID.Y", 0, 0},
        {S::TID_Z, How::S2R, "SR_TID.Z", 0, 0},       {S::CTAID_X, How::S2R, "SR_CTAID.X", 0, 0},
        {S::CTAID_Y, How::S2R, "SR_CTAID.Y", 0, 0},   {S::CTAID_Z, How::S2R, "SR_CTAID.Z", 0, 0},
        {S::NTID_X, How::CBANK, nullptr, 0x0, 0x360}, {S::NTID_Y, How::CBANK, nullptr, 0x4, 0x364},
        {S::NTID_Z, How::CBANK, nullptr, 0x8, 0x368}, {S::NCTAID_X, How::CBANK, nullptr, 0xc, 0x370},
        {S::NCTAID_Y, How::CBANK, nullptr, 0x10, 0x374}, {S::NCTAID_Z, How::CBANK, nullptr, 0x14, 0x378},
        {S::NSMID, How::CBANK, nullptr, 0x10c, 0x2d0},
        {S::LANEID, How::S2R, "SR_LANEID", 0, 0},     {S::LANEMASK_EQ, How::S2R, "SR_EQMASK", 0, 0},
        {S::LANEMASK_LE, How::S2R, "SR_LEMASK", 0, 0}, {S::LANEMASK_LT, How::S2R, "SR_LTMASK", 0, 0},
        {S::LANEMASK_GE, How::S2R, "SR_GEMASK", 0, 0}, {S::LANEMASK_GT, How::S2R, "SR_GTMASK", 0, 0},
        {S::SMID, How::S2R, "SR_VIRTUALSMID", 0, 0},  {S::WARPID, How::FIELD, "SR_VIRTID", 0, 0, 8, 7},
        {S::CLOCK, How::HALF, "SR_CLOCKLO", 0, 0, 0}, {S::CLOCK_HI, How::HALF, "SR_CLOCKLO", 0, 0, 32},
        {S::GLOBALTIMER_LO, How::HALF, "SR_GLOBALTIMERLO", 0, 0, 0}, {S::GLOBALTIMER_HI, How::HALF, "SR_GLOBALTIMERLO", 0, 0, 32},
        {S::CLOCK64, How::CS2R, "SR_CLOCKLO", 0, 0},  {S::GLOBALTIMER, How::CS2R, "SR_GLOBALTIMERLO", 0, 0},
    };
    const Operand &d = inst.operands[0];
    const ptx::SpecialReg sreg = inst.operands[1].sreg;
    const SR *s = nullptr;
    for (const SR &e : kSregs)
        if (e.s == sreg) s = &e;
    if (s == nullptr) return Err(inst, "no SASS pattern for " + key + " from " + std::string(ptx::SpecialRegName(sreg)));
    const VClass want = s->how == How::CS2R ? VClass::R64 : VClass::R32;
    if (d.kind != OperandKind::REG || vregs_[d.reg].cls != want) return Err(inst, "no SASS pattern for " + key + " into this register");
    int v = Reg(d.reg);
    std::vector<int> uses;
    std::string g = Guard(inst, &uses);
    auto isa = sass::Isa::Get(arch_);
    if (!isa.ok()) return isa.status();
    switch (s->how) {
    case How::CBANK: {
        const uint32_t off = arch_ >= sass::Arch::SM_100 ? s->cbank100 : s->cbank;
        Emit(g + (arch_ >= sass::Arch::SM_90 ? "LDC " : "MOV ") + VRef(v, 0) + ", c[0x0][" + Hex(off) + "]", {v}, uses, inst);
        return Status::Ok();
    }
    case How::CS2R:
        if (!FormExists(**isa, std::string("CS2R R2, ") + s->src)) break;
        Emit(g + "CS2R " + VRef(v, 0) + ", " + s->src, {v}, uses, inst);
        return Status::Ok();
    case How::HALF: {
        if (!FormExists(**isa, std::string("CS2R R2, ") + s->src)) break;
        const int w = NewTemp(VClass::R64);
        Emit(g + "CS2R " + VRef(w, 0) + ", " + s->src, {w}, uses, inst);
        std::vector<int> wu = uses;
        wu.push_back(w);
        Emit(g + "MOV " + VRef(v, 0) + ", " + VRef(w, s->shift ? 1 : 0), {v}, wu, inst);
        return Status::Ok();
    }
    case How::S2R:
    case How::FIELD:
        if (FormExists(**isa, std::string("S2R R2, ") + s->src)) {
            Emit(g + "S2R " + VRef(v, 0) + ", " + s->src, {v}, uses, inst);
        } else if (FormExists(**isa, std::string("S2UR UR6, ") + s->src) && FormExists(**isa, "MOV R2, UR6")) {
            // UR6 is free here (UR4/UR5 hold the memory descriptor on sm_90 and later)
            Emit(g + "S2UR UR6, " + s->src, {}, uses, inst);
            Emit(g + "MOV " + VRef(v, 0) + ", UR6", {v}, uses, inst);
        } else {
            break;
        }
        if (s->how == How::FIELD) {
            std::vector<int> vu = uses;
            vu.push_back(v);
            Emit(g + "SHF.R.U32.HI " + VRef(v, 0) + ", RZ, " + Hex(s->shift) + ", " + VRef(v, 0), {v}, vu, inst);
            Emit(g + "SGXT.U32 " + VRef(v, 0) + ", " + VRef(v, 0) + ", " + Hex(s->bits), {v}, vu, inst);
        }
        return Status::Ok();
    }
    return Err(inst, "no SASS pattern for " + key + " from " + std::string(ptx::SpecialRegName(sreg)) + " on " + sass::GetArchInfo(arch_).name);
}

#include "sasscomp/memory_lowering.inc"

Status KernelCompiler::Lower(const ptx::Instruction &inst) {
    std::string key = InstKey(inst);
    switch (inst.opcode) {
    case ptx::Opcode::RET:
    case ptx::Opcode::EXIT: {
        std::vector<int> uses;
        std::string g = Guard(inst, &uses);
        Emit(g + "EXIT", {}, uses, inst);
        code_.back().is_exit = true;
        return Status::Ok();
    }
    case ptx::Opcode::BRA: {
        std::vector<int> uses;
        std::string g = Guard(inst, &uses);
        Emit(g + "BRA `(\x03)", {}, uses, inst);
        code_.back().target = (int)inst.operands[0].label;
        return Status::Ok();
    }
    case ptx::Opcode::LD:
    case ptx::Opcode::ST:
        return LowerMemory(inst, key);
    case ptx::Opcode::ATOM:
    case ptx::Opcode::RED:
        return LowerAtomic(inst, key);
    case ptx::Opcode::BAR_SYNC:
    case ptx::Opcode::BARRIER_SYNC:
    case ptx::Opcode::BAR_ARRIVE:
    case ptx::Opcode::BARRIER_ARRIVE:
    case ptx::Opcode::BAR_RED:
    case ptx::Opcode::BARRIER_RED:
    case ptx::Opcode::BAR_WARP_SYNC:
        return LowerBarrier(inst, key);
    case ptx::Opcode::MEMBAR:
    case ptx::Opcode::FENCE:
        return LowerFence(inst, key);
    case ptx::Opcode::SHFL:
    case ptx::Opcode::VOTE:
    case ptx::Opcode::MATCH:
    case ptx::Opcode::ACTIVEMASK:
        return LowerWarp(inst, key);
    case ptx::Opcode::MOV: {
        if (inst.operands.size() == 2 && inst.operands[1].kind == OperandKind::SYMBOL) return LowerSymbolMov(inst, key);
        bool done;
        RNDN_RETURN_IF_ERROR(LowerMov(inst, key, &done));
        if (done) return Status::Ok();
        break;
    }
    default:
        break;
    }
    // 64-bit shifts by an immediate of 32 or more: the pattern for the shift by (amount - 32)
    // across the halves ("shr.u64#32")
    if ((inst.opcode == ptx::Opcode::SHL || inst.opcode == ptx::Opcode::SHR) && ptx::TypeBits(inst.type) == 64 &&
        inst.operands.size() == 3 && inst.operands[2].kind == OperandKind::IMM && inst.operands[2].imm.bits >= 32) {
        ptx::Instruction in2 = inst;
        in2.operands[2].imm.bits = std::min<uint64_t>(inst.operands[2].imm.bits, 64) - 32;
        auto it = PatternMap().find(key + "#32");
        if (it == PatternMap().end()) return Err(inst, "no SASS pattern for PTX instruction '" + key + "' by 32 or more");
        return Expand(in2, it->second, key);
    }
    // setp with two destinations p|q: q is the negated comparison combined with c the same way
    if (inst.opcode == ptx::Opcode::SETP && inst.num_dests == 2) {
        if (inst.operands[1].kind != OperandKind::REG) {  // "p|_"?
            ptx::Instruction in2 = inst;
            in2.operands.erase(in2.operands.begin() + 1);
            in2.num_dests = 1;
            return Lower(in2);
        }
        ptx::Instruction cmp = inst;
        cmp.operands.erase(cmp.operands.begin() + 1);
        cmp.num_dests = 1;
        bool has_c = inst.mods.Get(ptx::ModGroup::BOOL) != 0;
        if (has_c && key.find(".and.") == std::string::npos) return Err(inst, "no SASS pattern for '" + key + "' with two destinations");
        int t = NewTemp(VClass::PRED);
        ptx::Instruction plain = cmp;
        plain.guard = ptx::Guard{};
        if (has_c) {
            plain.mods.Set(ptx::ModGroup::BOOL, 0);
            plain.operands.pop_back();
        }
        int p = Reg(inst.operands[0].reg), q = Reg(inst.operands[1].reg);
        // compute the plain comparison into t (a temporary register stands for operand 0)
        std::string pkey = InstKey(plain);
        auto it = PatternMap().find(pkey + "@" + ai_.name);
        if (it == PatternMap().end()) it = PatternMap().find(pkey);
        if (it == PatternMap().end()) return Err(inst, "no SASS pattern for PTX instruction '" + pkey + "'");
        plain.operands[0].reg = (ptx::RegId)t;
        RNDN_RETURN_IF_ERROR(Expand(plain, it->second, pkey));
        std::vector<int> uses{t};
        std::string g = Guard(inst, &uses);
        std::string c = "PT";
        if (has_c) {
            const Operand &co = inst.operands.back();
            if (co.kind != OperandKind::REG) return Err(inst, "no SASS pattern for '" + key + "' with an immediate predicate");
            uses.push_back(Reg(co.reg));
            c = (co.negated ? "!" : "") + VRef(Reg(co.reg), 2);
        }
        Emit(g + "PLOP3.LUT " + VRef(p, 2) + ", PT, " + VRef(t, 2) + ", " + c + ", PT, 0x80, 0x0", {p}, uses, inst);
        Emit(g + "PLOP3.LUT " + VRef(q, 2) + ", PT, " + VRef(t, 2) + ", " + c + ", PT, 0x8, 0x0", {q}, uses, inst);
        return Status::Ok();
    }
    // mov.pred p, 0/1
    if (inst.opcode == ptx::Opcode::MOV && inst.type == ptx::Type::PRED && inst.operands.size() == 2 &&
        inst.operands[1].kind == OperandKind::IMM && inst.operands[0].kind == OperandKind::REG) {
        std::vector<int> uses;
        std::string g = Guard(inst, &uses);
        int p = Reg(inst.operands[0].reg);
        Emit(g + "PLOP3.LUT " + VRef(p, 2) + ", PT, PT, PT, PT, " + (inst.operands[1].imm.bits ? "0x80" : "0x8") + ", 0x0", {p}, uses, inst);
        return Status::Ok();
    }
    auto it = PatternMap().find(key + "@" + ai_.name);
    if (it == PatternMap().end()) it = PatternMap().find(key);
    if (it == PatternMap().end()) return Err(inst, "no SASS pattern for PTX instruction '" + key + "'");
    return Expand(inst, it->second, key);
}

// ----------------------------------------------------------------------------- constant bank
// Whether the ISA tables have a form for an instruction text (registers named physically).
// Parsing a text the tables lack tries many forms, so answers are kept per architecture, keyed
// by the text with constant-bank offsets set to one value (a form takes any offset; the real one
// is encoded, or refused with an error, when the code is emitted).
bool FormExists(const sass::Isa &isa, const std::string &text) {
    std::string key = std::to_string((int)isa.arch()) + "|";
    for (size_t i = 0; i < text.size();) {
        if (text.compare(i, 7, "c[0x0][") == 0) {
            size_t e = text.find(']', i + 7);
            if (e != std::string::npos) {
                key += "c[0x0][0x0]";
                i = e + 1;
                continue;
            }
        }
        key += text[i++];
    }
    static std::mutex mu;
    static std::map<std::string, bool> cache;
    {
        std::lock_guard<std::mutex> lock(mu);
        auto it = cache.find(key);
        if (it != cache.end()) return it->second;
    }
    bool ok = isa.Parse(text, [](const std::string &) -> Expected<int64_t> { return 0; }).ok();
    std::lock_guard<std::mutex> lock(mu);
    if (cache.size() > 100000) cache.clear();
    return cache[key] = ok;
}

// A register whose only definitions load constant bank 0 (kernel parameters, launch dimensions:
// "MOV v, c[0x0][X]", "LDC v, c[0x0][X]", "LDC.64 v, ...") holds that constant everywhere, so a
// reader takes the constant in place, "c[0x0][X]", where the instruction's form with a
// constant-bank operand in that slot exists in the ISA tables (first two sources of a commutative
// opcode may swap to reach it); at most one constant per instruction.  Loads left without
// readers are dropped.
void KernelCompiler::FoldConstantBank() {
    auto isa = sass::Isa::Get(arch_);
    if (!isa.ok()) return;
    struct Const {
        bool ok = true;
        uint32_t off[2] = {UINT32_MAX, UINT32_MAX};  // per half
        std::vector<int> defs;                      // defining instructions
    };
    std::map<int, Const> cands;
    auto parse_ref = [](const std::string &t, size_t at, int *v, int *part) {
        if (at >= t.size() || t[at] != '\x01') return std::string::npos;
        size_t colon = t.find(':', at), end = t.find('\x02', at);
        if (colon == std::string::npos || end == std::string::npos) return std::string::npos;
        *v = std::atoi(t.c_str() + at + 1), *part = std::atoi(t.c_str() + colon + 1);
        return end + 1;
    };
    for (int i = 0; i < (int)code_.size(); ++i)
        for (int v : code_[i].defs) {
            Const &c = cands[v];
            c.defs.push_back(i);
            const std::string &t = code_[i].text;
            int rv = -1, part = 0;
            size_t sp = t.find(' '), e = sp == std::string::npos ? sp : parse_ref(t, sp + 1, &rv, &part);
            std::string op = sp == std::string::npos ? t : t.substr(0, sp);
            bool load = (op == "MOV" || op == "LDC" || op == "LDC.64") && code_[i].defs.size() == 1 && code_[i].uses.empty() &&
                        e != std::string::npos && rv == v && t.compare(e, 10, ", c[0x0][0") == 0;
            if (!load) {
                c.ok = false;
                continue;
            }
            uint32_t off = (uint32_t)std::strtoul(t.c_str() + e + 9, nullptr, 16);
            for (int h = 0; h < (op == "LDC.64" ? 2 : 1); ++h) {
                int hp = op == "LDC.64" ? h : part;
                if (hp > 1 || (c.off[hp] != UINT32_MAX && c.off[hp] != off + 4 * h)) c.ok = false;
                else c.off[hp] = off + 4 * h;
            }
        }
    for (auto &[v, c] : cands)  // a pair must be one 8-byte constant
        if (vregs_[v].cls == VClass::R64 && (c.off[0] == UINT32_MAX || c.off[1] != c.off[0] + 4)) c.ok = false;
    // the text with every virtual register named by some physical one, for the form lookup
    auto physical = [&](const std::string &t) {
        std::string out;
        for (size_t i = 0; i < t.size();) {
            int v = -1, part = 0;
            size_t e = parse_ref(t, i, &v, &part);
            if (e == std::string::npos) {
                out += t[i++];
                continue;
            }
            out += part == 2 ? "P0" : part == 1 ? "R3" : "R2";
            i = e;
        }
        return out;
    };
    auto form_exists = [&](const std::string &t) { return FormExists(**isa, physical(t)); };
    static const std::set<std::string> kCommutative = {"IMAD", "IADD3", "FFMA", "FMUL", "FADD", "DFMA", "DMUL", "DADD"};
    std::set<int> defining;
    for (auto &[v, c] : cands)
        if (c.ok)
            for (int d : c.defs) defining.insert(d);
    for (int i = 0; i < (int)code_.size(); ++i) {
        MInst &mi = code_[i];
        if (defining.count(i) || mi.text.find("c[") != std::string::npos || mi.text.find_first_of("\x03\x04") != std::string::npos) continue;
        size_t sp = mi.text.find(' ');
        if (mi.text[0] == '@') sp = mi.text.find(' ', sp + 1);
        if (sp == std::string::npos) continue;
        std::string head = mi.text.substr(0, sp);
        std::vector<std::string> ops;
        for (size_t a = sp + 1;;) {
            size_t b = mi.text.find(", ", a);
            ops.push_back(mi.text.substr(a, b == std::string::npos ? std::string::npos : b - a));
            if (b == std::string::npos) break;
            a = b + 2;
        }
        std::string base = head.substr(head[0] == '@' ? head.find(' ') + 1 : 0);
        base = base.substr(0, base.find('.'));
        // the first source: after the destination and, for a carry-out form, its predicate
        size_t src0 = 1;
        {
            int pv = -1, pp = 0;
            if (ops.size() > 2 && (ops[1] == "PT" || (parse_ref(ops[1], 0, &pv, &pp) == ops[1].size() && pp == 2))) src0 = 2;
        }
        for (size_t k = 1; k < ops.size(); ++k) {
            int v = -1, part = 0;
            if (parse_ref(ops[k], 0, &v, &part) != ops[k].size() || part > 1) continue;
            auto it = cands.find(v);
            if (it == cands.end() || !it->second.ok || it->second.off[part] == UINT32_MAX ||
                std::find(mi.defs.begin(), mi.defs.end(), v) != mi.defs.end())
                continue;
            std::string cb = "c[0x0][" + Hex(it->second.off[part]) + "]";
            auto join = [&](std::vector<std::string> o) {
                std::string t = head + " ";
                for (size_t j = 0; j < o.size(); ++j) t += (j ? ", " : "") + o[j];
                return t;
            };
            std::vector<std::string> in_place = ops, swapped = ops;
            in_place[k] = cb;
            std::string text;
            if (form_exists(join(in_place))) text = join(in_place);
            else if (k == src0 && ops.size() > src0 + 1 && kCommutative.count(base)) {
                swapped[src0] = ops[src0 + 1], swapped[src0 + 1] = cb;
                if (form_exists(join(swapped))) text = join(swapped);
            }
            if (text.empty()) continue;
            mi.text = text;
            if (mi.text.find(VRef(v, 0)) == std::string::npos && mi.text.find(VRef(v, 1)) == std::string::npos) {
                auto u = std::find(mi.uses.begin(), mi.uses.end(), v);
                if (u != mi.uses.end()) mi.uses.erase(u);
            }
            break;
        }
    }
    // drop loads whose register nobody reads any more (a load carrying a label stays)
    std::vector<bool> read(vregs_.size(), false);
    for (const MInst &mi : code_)
        for (int u : mi.uses) read[u] = true;
    std::vector<MInst> kept;
    for (int i = 0; i < (int)code_.size(); ++i) {
        const MInst &mi = code_[i];
        if (defining.count(i) && !read[mi.defs[0]] && mi.label_here < 0) continue;
        kept.push_back(mi);
    }
    code_ = std::move(kept);
}

// A 64-bit address from a wide product and a constant ("IMAD.WIDE w, a, b, RZ" then
// "IADD3 d.lo, p, w.lo, c[K], RZ; IADD3.X d.hi, w.hi, c[K+4], RZ, p, !PT") is one
// "IMAD.WIDE d, a, b, c[K]" where that form exists, as ptxas writes it; each such add gets its
// own product (a and b unchanged in between: no label, branch or redefinition), and the first
// product goes when nothing else reads it.
void KernelCompiler::FuseWideAdds() {
    auto isa = sass::Isa::Get(arch_);
    if (!isa.ok()) return;
    auto split = [](const std::string &t, std::string *head) {
        std::vector<std::string> ops;
        size_t sp = t.find(' ');
        if (sp == std::string::npos || t[0] == '@') return ops;
        *head = t.substr(0, sp);
        for (size_t a = sp + 1;;) {
            size_t b = t.find(", ", a);
            ops.push_back(t.substr(a, b == std::string::npos ? std::string::npos : b - a));
            if (b == std::string::npos) break;
            a = b + 2;
        }
        return ops;
    };
    bool changed = false;
    std::vector<bool> drop(code_.size(), false);
    for (int i = 0; i < (int)code_.size(); ++i) {
        std::string head;
        std::vector<std::string> w_ops = split(code_[i].text, &head);
        if ((head != "IMAD.WIDE" && head != "IMAD.WIDE.U32") || w_ops.size() != 4 || w_ops[3] != "RZ" || code_[i].defs.size() != 1) continue;
        int w = code_[i].defs[0];
        if (vregs_[w].cls != VClass::R64 || w_ops[1].find("c[") != std::string::npos || w_ops[2].find("c[") != std::string::npos) continue;
        std::vector<int> srcs = code_[i].uses;
        std::string lo = VRef(w, 0), hi = VRef(w, 1);
        bool all_fused = true;
        for (int j = i + 1; j < (int)code_.size(); ++j) {
            MInst &mj = code_[j];
            if (mj.label_here >= 0 || mj.target >= 0 || mj.is_exit) {
                if (std::find(mj.uses.begin(), mj.uses.end(), w) != mj.uses.end()) all_fused = false;
                // later readers are not fused
                for (int k = j; k < (int)code_.size(); ++k)
                    if (std::find(code_[k].uses.begin(), code_[k].uses.end(), w) != code_[k].uses.end()) all_fused = false;
                break;
            }
            bool redefines = false;
            for (int d : mj.defs)
                if (d == w || std::find(srcs.begin(), srcs.end(), d) != srcs.end()) redefines = true;
            if (std::find(mj.uses.begin(), mj.uses.end(), w) != mj.uses.end()) {
                std::string h1, h2;
                std::vector<std::string> a = split(mj.text, &h1);
                std::vector<std::string> b = j + 1 < (int)code_.size() ? split(code_[j + 1].text, &h2) : std::vector<std::string>{};
                bool fused = false;
                if (h1 == "IADD3" && h2 == "IADD3.X" && a.size() == 5 && b.size() == 6 && a[4] == "RZ" && b[3] == "RZ" && b[4] == a[1] &&
                    b[5] == "!PT" && code_[j + 1].label_here < 0 && mj.defs.size() == 2 && code_[j + 1].defs.size() == 1) {
                    int d = mj.defs[0] == code_[j + 1].defs[0] ? mj.defs[0] : -1;
                    std::string cl = a[2] == lo ? a[3] : a[3] == lo && a[2] != lo ? a[2] : "";
                    std::string ch = b[1] == hi ? b[2] : b[2] == hi ? b[1] : "";
                    bool pair = d >= 0 && vregs_[d].cls == VClass::R64 && a[0] == VRef(d, 0) && b[0] == VRef(d, 1) && cl.rfind("c[0x0][", 0) == 0 &&
                                ch.rfind("c[0x0][", 0) == 0 &&
                                std::strtoul(ch.c_str() + 7, nullptr, 16) == std::strtoul(cl.c_str() + 7, nullptr, 16) + 4;
                    std::string text = head + " " + VRef(d, 0) + ", " + w_ops[1] + ", " + w_ops[2] + ", " + cl;
                    if (pair && FormExists(**isa, PhysicalText(text))) {
                        mj.text = text;
                        mj.defs = {d};
                        mj.uses = srcs;
                        drop[j + 1] = true;
                        fused = changed = true;
                        ++j;
                    }
                }
                if (!fused) all_fused = false;
            }
            if (redefines) {
                for (int k = j + 1; k < (int)code_.size(); ++k)
                    if (std::find(code_[k].uses.begin(), code_[k].uses.end(), w) != code_[k].uses.end()) all_fused = false;
                break;
            }
        }
        if (all_fused && code_[i].label_here < 0) drop[i] = changed = true;
    }
    if (!changed) return;
    std::vector<MInst> kept;
    for (size_t i = 0; i < code_.size(); ++i)
        if (!drop[i]) kept.push_back(std::move(code_[i]));
    code_ = std::move(kept);
}

// A branch to an unguarded EXIT exits in place ("@P0 BRA L ... L: EXIT" -> "@P0 EXIT"), as
// ptxas does; the label stays for other branches.
void KernelCompiler::BranchesToExit() {
    std::map<int, int> label_at;
    for (int i = 0; i < (int)code_.size(); ++i)
        if (code_[i].label_here >= 0) label_at[code_[i].label_here] = i;
    for (MInst &mi : code_) {
        if (mi.target < 0) continue;
        auto it = label_at.find(mi.target);
        if (it == label_at.end()) continue;
        const MInst &dest = code_[it->second];
        if (!dest.is_exit || dest.text != "EXIT") continue;
        size_t p = mi.text.find("BRA `(\x03)");
        if (p == std::string::npos || p + 8 != mi.text.size()) continue;
        mi.text = mi.text.substr(0, p) + "EXIT";
        mi.target = -1;
        mi.is_exit = true;
    }
}

#include "sasscomp/optimise.inc"
std::string OpName(const std::string &text);  // below: the opcode of an instruction's text
#include "sasscomp/convergence.inc"

// ----------------------------------------------------------------------------- allocation
// A register first defined by a copy ("MOV v, s"; a pair by the two halves' copies in a row) of a
// register whose life ends with that copy takes the source's register, so the copy goes
// (DropSelfCopies); -1 when there is no such source or its register was taken since.
int KernelCompiler::CopyHint(int v, const std::vector<int> &rfree_at) const {
    const VReg &r = vregs_[v];
    int i = r.start, halves = r.cls == VClass::R64 ? 2 : 1;
    int src = -1;
    for (int h = 0; h < halves; ++h) {
        if (i + h >= (int)code_.size()) return -1;
        const MInst &mi = code_[i + h];
        if (h > 0 && mi.label_here >= 0) return -1;
        std::string head;
        std::vector<std::string> ops = SplitOperands(mi.text, &head);
        if (head != "MOV" || ops.size() != 2 || mi.defs.size() != 1 || mi.defs[0] != v || mi.uses.size() != 1) return -1;
        auto d = VRefs(ops[0]), s = VRefs(ops[1]);
        if (d.size() != 1 || s.size() != 1 || ops[1][0] != '\x01' || ops[1].back() != '\x02' || d[0].second != h || s[0].second != h) return -1;
        if (src >= 0 && s[0].first != src) return -1;
        src = s[0].first;
    }
    const VReg &sv = vregs_[src];
    if (src == v || sv.cls != r.cls || sv.phys < 0 || sv.end != i + halves - 1) return -1;
    for (int h = 0; h < halves; ++h)
        if (rfree_at[sv.phys + h] != sv.end) return -1;
    return sv.phys;
}
// Out of predicate registers, *spill names the predicate to move into a general register (the
// one live furthest among those holding the 7 registers at that point, never a spill temporary).
Status KernelCompiler::Allocate(int *spill) {
    *spill = -1;
    max_reg_ = -1;
    for (VReg &r : vregs_) r.start = r.end = r.phys = -1;
    int n = (int)code_.size();
    for (int i = 0; i < n; ++i) {
        for (int v : code_[i].defs) {
            VReg &r = vregs_[v];
            if (r.start < 0 || i < r.start) r.start = i;
            r.end = std::max(r.end, i);
        }
        for (int v : code_[i].uses) {
            VReg &r = vregs_[v];
            if (r.start < 0 || i < r.start) r.start = i;
            r.end = std::max(r.end, i);
        }
    }
    // Liveness over the machine code's control flow (a guarded definition of a PTX register keeps
    // the old value, so it does not end the old value's life); each interval is widened to every point where its value
    // is live, so values carried around a loop's back edge hold their register through the loop and
    // values local to one iteration do not.
    std::map<int, int> label_at;
    for (int i = 0; i < n; ++i)
        if (code_[i].label_here >= 0) label_at[code_[i].label_here] = i;
    const size_t V = vregs_.size(), W = (V + 63) / 64;
    std::vector<std::vector<int>> succ(n);
    for (int i = 0; i < n; ++i) {
        bool guarded = !code_[i].text.empty() && code_[i].text[0] == '@';
        if (code_[i].target >= 0) {
            auto it = label_at.find(code_[i].target);
            if (it != label_at.end()) succ[i].push_back(it->second);
        }
        bool falls = !((code_[i].target >= 0 || code_[i].is_exit) && !guarded);
        if (falls && i + 1 < n) succ[i].push_back(i + 1);
    }
    std::vector<uint64_t> live_in((size_t)n * W, 0), out(W), in(W);
    for (bool changed = true; changed;) {
        changed = false;
        for (int i = n - 1; i >= 0; --i) {
            std::fill(out.begin(), out.end(), 0);
            for (int s : succ[i])
                for (size_t w = 0; w < W; ++w) out[w] |= live_in[(size_t)s * W + w];
            in = out;
            // (a temporary of one expansion is only read under the guard that wrote it)
            bool guarded = !code_[i].text.empty() && code_[i].text[0] == '@';
            for (int v : code_[i].defs)
                if (!guarded || vregs_[v].local) in[v / 64] &= ~(1ull << (v % 64));
            for (int v : code_[i].uses) in[v / 64] |= 1ull << (v % 64);
            uint64_t *li = &live_in[(size_t)i * W];
            if (!std::equal(in.begin(), in.end(), li)) {
                std::copy(in.begin(), in.end(), li);
                changed = true;
            }
        }
    }
    auto widen = [&](int v, int i) {
        VReg &r = vregs_[v];
        if (r.start < 0 || i < r.start) r.start = i;
        r.end = std::max(r.end, i);
    };
    for (int i = 0; i < n; ++i) {
        for (size_t w = 0; w < W; ++w) {
            uint64_t bits = live_in[(size_t)i * W + w];
            for (int s : succ[i]) bits |= live_in[(size_t)s * W + w];  // live out
            while (bits) {
                int b = __builtin_ctzll(bits);
                bits &= bits - 1;
                widen((int)(w * 64 + b), i);
            }
        }
    }
    std::vector<int> order;
    for (int v = 0; v < (int)vregs_.size(); ++v)
        if (vregs_[v].start >= 0) order.push_back(v);
    std::sort(order.begin(), order.end(), [&](int a, int b) { return vregs_[a].start < vregs_[b].start; });
    std::vector<int> rfree_at(255, -1), pfree_at(7, -1);  // last instruction index that uses it
    std::vector<int> assigned;                            // general registers placed so far
    std::vector<int> powner(7, -1);                       // the predicate that holds it
    for (int v : order) {
        VReg &r = vregs_[v];
        if (r.cls == VClass::PRED) {
            for (int p = 0; p < 7; ++p) {
                // a predicate last read by the instruction that defines this one may share its
                // register (the instruction reads its predicates before it writes; predicate
                // producers have fixed latency), unless that instruction also writes the old one
                bool shares = pfree_at[p] == r.start && powner[p] >= 0 &&
                              std::find(code_[r.start].defs.begin(), code_[r.start].defs.end(), powner[p]) == code_[r.start].defs.end();
                if (pfree_at[p] < r.start || shares) {
                    r.phys = p;
                    pfree_at[p] = r.end;
                    powner[p] = v;
                    break;
                }
            }
            if (r.phys < 0) {
                int best = r.no_spill ? -1 : v;
                for (int p = 0; p < 7; ++p) {
                    int o = powner[p];
                    if (o >= 0 && !vregs_[o].no_spill && (best < 0 || vregs_[o].end > vregs_[best].end)) best = o;
                }
                *spill = best;
                return Status::Unsupported(f_.name + ": out of predicate registers (every live one is a spill temporary)");
            }
        } else {
            int step = r.cls == VClass::R64 ? 2 : 1;
            int hint = CopyHint(v, rfree_at);
            if (hint >= 0) {
                r.phys = hint;
                for (int h = 0; h < step; ++h) rfree_at[hint + h] = r.end;
                max_reg_ = std::max(max_reg_, hint + step - 1);
                continue;
            }
            // R0..R252: the declared count (highest + 3) is at most 255
            for (int q = 0; q + step <= 253; q += step)
                if (rfree_at[q] < r.start && (step == 1 || rfree_at[q + 1] < r.start)) {
                    r.phys = q;
                    rfree_at[q] = r.end;
                    if (step == 2) rfree_at[q + 1] = r.end;
                    max_reg_ = std::max(max_reg_, q + step - 1);
                    break;
                }
            if (r.phys < 0) {
                // spill the value live here whose next life ends last (linear scan's choice):
                // it moves to the stack frame, reloaded before each read, stored after each write
                int best = r.no_spill ? -1 : v;
                for (int o : assigned)
                    if (vregs_[o].start <= r.start && vregs_[o].end >= r.start && !vregs_[o].no_spill &&
                        (best < 0 || vregs_[o].end > vregs_[best].end))
                        best = o;
                *spill = best;
                return Status::Unsupported(f_.name + ": out of registers" + (best < 0 ? " (every live one is a spill temporary)" : ""));
            }
            assigned.push_back(v);
        }
    }
    return Status::Ok();
}

// The stack frame's base register (LayOutLocal's, or made here for spill slots when the kernel has
// no .local variables): defined at entry, never spilled.
void KernelCompiler::EnsureFrameBase() {
    if (sp_ >= 0) return;
    uint32_t top = arch_ >= sass::Arch::SM_100 ? 0x37c : 0x28;
    sp_ = NewTemp(VClass::R32, false);
    vregs_[sp_].no_spill = true;
    MInst a, b;
    a.text = std::string(arch_ >= sass::Arch::SM_90 ? "LDC " : "MOV ") + VRef(sp_, 0) + ", c[0x0][" + Hex(top) + "]";
    a.defs = {sp_};
    b.text = "IADD3 " + VRef(sp_, 0) + ", " + VRef(sp_, 0) + ", -" + Hex(frame_bytes_) + ", RZ";
    b.defs = {sp_};
    b.uses = {sp_};
    if (!code_.empty()) a.label_here = code_[0].label_here, code_[0].label_here = -1;
    code_.insert(code_.begin(), {a, b});
}

// Every instruction that reads or writes `v` uses a short-lived temporary instead (never spilled
// again): `reload(t)` is inserted just before a reader, `store(t)` just after a writer; a guarded
// writer reloads first, so the unguarded store keeps the old value when the guard is false.
void KernelCompiler::RouteThroughTemporaries(int v, const std::function<MInst(int)> &reload, const std::function<MInst(int)> &store) {
    const std::string from = "\x01" + std::to_string(v) + ":";
    std::vector<MInst> out;
    out.reserve(code_.size() + 8);
    for (MInst &mi : code_) {
        bool used = std::find(mi.uses.begin(), mi.uses.end(), v) != mi.uses.end();
        bool defined = std::find(mi.defs.begin(), mi.defs.end(), v) != mi.defs.end();
        if (!used && !defined) {
            out.push_back(std::move(mi));
            continue;
        }
        bool guarded = !mi.text.empty() && mi.text[0] == '@';
        int t = NewTemp(vregs_[v].cls, true);
        vregs_[t].no_spill = true;
        const std::string to = "\x01" + std::to_string(t) + ":";
        for (size_t at = mi.text.find(from); at != std::string::npos; at = mi.text.find(from, at + to.size()))
            mi.text.replace(at, from.size(), to);
        std::replace(mi.uses.begin(), mi.uses.end(), v, t);
        std::replace(mi.defs.begin(), mi.defs.end(), v, t);
        if (used || (defined && guarded)) {
            MInst r = reload(t);
            r.loc = mi.loc;
            r.label_here = mi.label_here;
            mi.label_here = -1;
            out.push_back(std::move(r));
            if (defined && guarded && !used) mi.uses.push_back(t);
        }
        ptx::SourceLoc loc = mi.loc;
        out.push_back(std::move(mi));
        if (defined) {
            MInst w = store(t);
            w.loc = loc;
            out.push_back(std::move(w));
        }
    }
    code_ = std::move(out);
}

// General register spilling: `v` lives in a stack-frame slot after the .local variables, loaded
// (LDL) before each reader and stored (STL) after each writer.
void KernelCompiler::SpillRegister(int v) {
    EnsureFrameBase();
    const bool wide = vregs_[v].cls == VClass::R64;
    const uint32_t size = wide ? 8 : 4;
    spill_bytes_ = (spill_bytes_ + size - 1) / size * size;
    const uint32_t slot = frame_bytes_ + spill_bytes_;
    spill_bytes_ += size;
    const std::string addr = "[" + VRef(sp_, 0) + (slot ? "+" + Hex(slot) : "") + "]", w = wide ? ".64 " : " ";
    RouteThroughTemporaries(
        v, [&](int t) { return MakeInst("LDL" + w + VRef(t, 0) + ", " + addr, {t}, {sp_}); },
        [&](int t) { return MakeInst("STL" + w + addr + ", " + VRef(t, 0), {}, {sp_, t}); });
    // the frame base subtracts the whole frame: .local variables and spill slots
    const uint32_t total = frame_bytes_ + (spill_bytes_ + 7) / 8 * 8;
    for (MInst &mi : code_)
        if (mi.defs.size() == 1 && mi.defs[0] == sp_ && mi.text.rfind("IADD3 ", 0) == 0) {
            size_t minus = mi.text.find(", -0x");
            if (minus != std::string::npos) mi.text = mi.text.substr(0, minus) + ", -" + Hex(total) + ", RZ";
        }
}

// Predicate spilling: predicate `v` lives in a general register instead (0 or 1, as ptxas keeps
// spilled predicates in registers), reloaded by `ISETP.NE` before each reader and copied out by
// `SEL home, RZ, 0x1, !t` after each writer.
void KernelCompiler::SpillPredicate(int v) {
    int home = NewTemp(VClass::R32, false);
    vregs_[home].no_spill = true;
    RouteThroughTemporaries(
        v, [&](int t) { return MakeInst("ISETP.NE.AND " + VRef(t, 2) + ", PT, " + VRef(home, 0) + ", RZ, PT", {t}, {home}); },
        [&](int t) { return MakeInst("SEL " + VRef(home, 0) + ", RZ, 0x1, !" + VRef(t, 2), {home}, {t}); });
}

// ----------------------------------------------------------------------------- control codes
// Register keys for the scheduler: R0..R254 -> 0..254, P0..P6 -> 256..262, UR -> 300+.
// The scheduler's key of a barrier reduction's result (general registers 0..255, predicates
// 256.., uniform registers 300..).
constexpr int kBarResultKey = 400;

struct SchedInst {
    std::string text, op;
    std::vector<int> defs, uses;
    bool control = false;    // branch / exit: predicate-control latency
    bool reads_pred_as_control = false;  // also barriers (BAR.RED's predicate), as the emulator's table says
    bool block_start = false;
    int guard_key = -1;      // the guard predicate's key (@predicate-guard latency), -1 for none
};

std::string OpName(const std::string &text) {
    size_t i = 0;
    if (!text.empty() && text[0] == '@') i = text.find(' ') + 1;
    size_t j = i;
    while (j < text.size() && text[j] != ' ' && text[j] != '.') ++j;
    return text.substr(i, j - i);
}

// The opcode with its modifiers ("IMAD.WIDE.U32"), without the guard.
std::string OpWithModifiers(const std::string &text) {
    size_t i = 0;
    if (!text.empty() && text[0] == '@') i = text.find(' ') + 1;
    size_t j = text.find(' ', i);
    return text.substr(i, j == std::string::npos ? std::string::npos : j - i);
}

// "0xfffffff9" -> "-0x7" for every 32-bit hex literal with the sign bit set.
std::string NegativeHexSpelling(const std::string &line) {
    std::string out;
    for (size_t i = 0; i < line.size();) {
        if (line.compare(i, 2, "0x") == 0 && (i == 0 || line[i - 1] == ' ' || line[i - 1] == ',')) {
            size_t j = i + 2;
            while (j < line.size() && std::isxdigit((unsigned char)line[j])) ++j;
            uint64_t v = std::strtoull(line.substr(i + 2, j - i - 2).c_str(), nullptr, 16);
            if (j - i - 2 == 8 && (v & 0x80000000u)) out += "-" + Hex((uint32_t)(-(int64_t)(int32_t)v));
            else out += line.substr(i, j - i);
            i = j;
        } else out += line[i++];
    }
    return out;
}

// Exactly equivalent spellings of an integer comparison, tried when the tables lack the form
// (sm_100/sm_120 tables learned only the comparisons ptxas writes, which normalises them):
// EQ/NE do not depend on signedness; LT/LE/GT/GE with two register sources swap them.
// PLOP3.LUT with PT as its third source: the LUT bits for c = 0 are free (0x55), so the LUT
// values with the same c = 1 half are equivalent (the tables hold LUTs as fixed values).
// sm_100/sm_120 renamed two instructions: `IMNMX[.U32] d, a, b, P` is `VIMNMX[.U32] d, PT, PT, a,
// b, P` on sm_100 and `VIMNMX.S32|.U32 d, a, b, P` on sm_120; `I2F[.U32][.RZ|.RM|.RP] d, a` (32-bit
// integer to f32) is `I2FP.F32.S32|.U32[...]`.
std::vector<std::string> EquivalentSpellings(const std::string &line) {
    std::vector<std::string> out;
    {
        size_t st = line[0] == '@' ? line.find(' ') + 1 : 0;
        size_t sp = line.find(' ', st);
        std::string op = sp == std::string::npos ? "" : line.substr(st, sp - st), guard = line.substr(0, st);
        if (op == "IMNMX" || op == "IMNMX.U32") {
            std::string ty = op == "IMNMX" ? ".S32" : ".U32";
            size_t c = line.find(',', sp);
            if (c != std::string::npos) {
                out.push_back(guard + "V" + op + line.substr(sp, c - sp) + ", PT, PT" + line.substr(c));
                out.push_back(guard + "VIMNMX" + ty + line.substr(sp));
            }
            return out;
        }
        if (op.rfind("I2F", 0) == 0 && (op.size() == 3 || op[3] == '.')) {
            std::string ty = ".S32", rnd;
            bool ok = true;
            for (size_t i = 3; ok && i < op.size();) {
                size_t j = op.find('.', i + 1);
                std::string m = op.substr(i + 1, j == std::string::npos ? std::string::npos : j - i - 1);
                if (m == "U32" || m == "S32") ty = "." + m;
                else if (m == "RZ" || m == "RM" || m == "RP") rnd = "." + m;
                else if (m != "RN") ok = false;
                i = j == std::string::npos ? op.size() : j;
            }
            if (ok) out.push_back(guard + "I2FP.F32" + ty + rnd + line.substr(sp));
            return out;
        }
    }
    size_t pl = line.find("PLOP3.LUT ");
    if (pl != std::string::npos) {
        size_t c1 = line.rfind(", ");            // before the second LUT
        size_t c0 = line.rfind(", ", c1 - 1);    // before the first LUT
        if (c0 == std::string::npos || line.compare(c0 - 4, 4, ", PT") != 0) return out;
        unsigned lut = (unsigned)std::strtoul(line.c_str() + c0 + 2, nullptr, 16);
        for (unsigned m = 0; m < 256; ++m) {
            if (m & ~0x55u) continue;
            unsigned alt = (lut & 0xaau) | m;
            if (alt != lut) out.push_back(line.substr(0, c0 + 2) + Hex(alt) + line.substr(c1));
        }
        return out;
    }
    size_t at = line.find("ISETP.");
    if (at == std::string::npos || line.find(".X") != std::string::npos) return out;
    size_t op = at + 6, dot = line.find('.', op);
    if (dot == std::string::npos) return out;
    std::string cmp = line.substr(op, dot - op);
    if (cmp == "EQ" || cmp == "NE") {
        std::string a = line;
        size_t u = a.find(".U32", dot);
        if (u != std::string::npos && u < a.find(' ', at)) a.erase(u, 4);
        else a.insert(dot, ".U32");
        out.push_back(a);
        return out;
    }
    static const std::map<std::string, std::string> kSwap = {{"LT", "GT"}, {"GT", "LT"}, {"LE", "GE"}, {"GE", "LE"}};
    auto sw = kSwap.find(cmp);
    if (sw == kSwap.end()) return out;
    // operands: P, P, a, b, P
    size_t sp = line.find(' ', at);
    std::vector<std::string> ops;
    std::string cur;
    for (size_t i = sp + 1; i < line.size(); ++i) {
        if (line[i] == ',') ops.push_back(cur), cur.clear();
        else if (line[i] != ' ') cur += line[i];
    }
    ops.push_back(cur);
    auto is_reg = [](const std::string &o) { return o.size() > 1 && o[0] == 'R' && std::isdigit((unsigned char)o[1]); };
    if (ops.size() != 5 || !is_reg(ops[2]) || !is_reg(ops[3])) return out;
    std::string a = line.substr(0, op) + sw->second + line.substr(dot, sp - dot) + " " + ops[0] + ", " + ops[1] + ", " + ops[3] + ", " +
                    ops[2] + ", " + ops[4];
    out.push_back(a);
    return out;
}

Status KernelCompiler::Schedule(CompiledKernel *k) {
    const LatencyTable &lat = LatenciesFor(arch_);
    RNDN_ASSIGN_OR_RETURN(const sass::Isa *isa, sass::Isa::Get(arch_));
    // resolve text, register keys
    std::vector<SchedInst> si;
    auto keys_of = [&](int v, std::vector<int> *out) {
        const VReg &r = vregs_[v];
        if (r.cls == VClass::PRED) out->push_back(256 + r.phys);
        else {
            out->push_back(r.phys);
            if (r.cls == VClass::R64) out->push_back(r.phys + 1);
        }
    };
    bool needs_desc = ai_.mem_desc != 0;
    if (needs_desc) {
        SchedInst d;
        bool ldcu = arch_ >= sass::Arch::SM_100;  // sm_100/sm_120 load uniform constants through LDCU (a scoreboard)
        d.text = std::string(ldcu ? "LDCU.64" : "ULDC.64") + " UR4, c[0x0][" + Hex(ai_.mem_desc) + "]";
        d.op = ldcu ? "LDCU" : "ULDC";
        d.defs = {304, 305};
        si.push_back(d);
    }
    std::map<int, int> label_index;  // PTX label -> index in si
    std::vector<int> target_of;
    for (const MInst &mi : code_) {
        SchedInst s;
        for (size_t i = 0; i < mi.text.size(); ++i) {
            if (mi.text[i] == '\x01') {
                size_t c = mi.text.find(':', i), e = mi.text.find('\x02', i);
                int v = std::atoi(mi.text.c_str() + i + 1), part = std::atoi(mi.text.c_str() + c + 1);
                const VReg &r = vregs_[v];
                if (part == 2) s.text += r.phys == 7 ? "PT" : "P" + std::to_string(r.phys);
                else s.text += "R" + std::to_string(r.phys + part);
                i = e;
            } else s.text += mi.text[i];
        }
        for (int v : mi.defs) keys_of(v, &s.defs);
        for (int v : mi.uses) keys_of(v, &s.uses);
        // fixed uniform registers written in the text (S2UR UR6 / MOV R, UR6): a first operand
        // that is a UR is written; other URs are read (memory descriptors are counted below)
        {
            size_t op_end = s.text.find(' ', s.text[0] == '@' ? s.text.find(' ') + 1 : 0);
            for (size_t p = s.text.find("UR"); p != std::string::npos; p = s.text.find("UR", p + 2)) {
                if (p + 2 >= s.text.size() || !std::isdigit((unsigned char)s.text[p + 2]) ||
                    (p > 0 && (std::isalnum((unsigned char)s.text[p - 1]) || s.text[p - 1] == '[')))
                    continue;
                int key = 300 + std::atoi(s.text.c_str() + p + 2);
                (op_end != std::string::npos && p == op_end + 1 ? s.defs : s.uses).push_back(key);
            }
        }
        s.op = OpName(s.text);
        // a barrier reduction's result: written by BAR.RED, read by B2R.RESULT (@bar-result)
        if (s.op == "BAR" && s.text.find("BAR.RED") != std::string::npos) s.defs.push_back(kBarResultKey);
        if (s.op == "B2R") s.uses.push_back(kBarResultKey);
        if (needs_desc && (s.op == "LDG" || s.op == "STG" || s.op == "ATOMG" || s.op == "RED" || s.op == "REDG")) s.uses.push_back(304), s.uses.push_back(305);
        s.control = mi.is_exit || mi.target >= 0 || mi.join >= 0;
        s.reads_pred_as_control = s.control || s.op == "BAR" || s.op == "WARPSYNC";
        if (s.text.size() > 3 && s.text[0] == '@') {  // "@P3 ..." / "@!P3 ...": a guard (PT is none)
            size_t p = s.text[1] == '!' ? 2 : 1;
            if (s.text[p] == 'P' && std::isdigit((unsigned char)s.text[p + 1]) && s.text[p + 1] != '7') s.guard_key = 256 + (s.text[p + 1] - '0');
        }
        if (mi.label_here >= 0) {
            label_index[mi.label_here] = (int)si.size();
            s.block_start = true;
        }
        target_of.resize(si.size() + 1, -1);
        target_of[si.size()] = mi.target >= 0 ? mi.target : mi.join;
        si.push_back(s);
        // a fixed-latency predicate some read must wait more than 15 cycles for (DSETP's on
        // sm_80..sm_89: 16) gets a NOP after it, whose stall the scheduler can raise: a stall
        // count holds at most 15
        bool writes_pred = std::any_of(s.defs.begin(), s.defs.end(), [](int key) { return key >= 256 && key < 300; });
        if (writes_pred && !lat.Of(OpWithModifiers(s.text)).variable && lat.PredMax(s.op) > 15) {
            SchedInst nop;
            nop.text = nop.op = "NOP";
            si.push_back(nop);
        }
    }
    target_of.resize(si.size(), -1);
    // a branch ends a block: the next instruction starts one
    for (size_t i = 0; i + 1 < si.size(); ++i)
        if (si[i].control) si[i + 1].block_start = true;

    // cycle-accurate bookkeeping along the straight-line order; every block start drains
    std::vector<sass::Control> ctl(si.size());
    // key -> when its value was written by a fixed-latency instruction, and by which: the latency
    // of a read is chosen at the read (a register: the producer's latency; a predicate: as an
    // operand, as a guard or by a control instruction, and for some producer/consumer pairs longer)
    struct Written {
        int64_t at = 0;
        int cycles = 0;        // a general or uniform register's latency
        std::string producer;  // the base opcode (predicates)
    };
    std::map<int, Written> written;
    auto is_pred = [](int key) { return key >= 256 && key < 300; };
    auto read_ready = [&](int key, const Written &w, const SchedInst &s) -> int64_t {
        if (!is_pred(key)) return w.at + w.cycles;
        const bool control = s.reads_pred_as_control;
        const bool early = control || key == s.guard_key || s.op == "VOTE" || s.op == "VOTEU";  // read as a guard is (VOTE's source too)
        const int base = control ? lat.pred_control : early ? lat.pred_guard : lat.pred;
        return w.at + std::max(base, lat.PredFloor(early, w.producer, s.op.substr(0, s.op.find('.'))));
    };
    std::map<int, int> wpend;                 // key -> scoreboard (write result)
    std::multimap<int, int> rpend;            // key -> scoreboards of in-flight reads (a register
                                              // read by several variable-latency instructions)
    int next_sb = 0;
    int64_t t = 0;
    for (size_t i = 0; i < si.size(); ++i) {
        SchedInst &s = si[i];
        sass::Control &c = ctl[i];
        c.stall = 1;
        c.yield = 1;
        int64_t need = t;
        uint8_t wait = 0;
        auto wait_sb = [&](int sb) {
            wait |= (uint8_t)(1u << sb);
            for (auto it = wpend.begin(); it != wpend.end();) it = it->second == sb ? wpend.erase(it) : std::next(it);
            for (auto it = rpend.begin(); it != rpend.end();) it = it->second == sb ? rpend.erase(it) : std::next(it);
        };
        // a block start drains what its fall-through predecessor left in flight, a branch drains
        // before jumping: every label is entered with no pending results
        if (s.block_start || target_of[i] >= 0) {
            for (auto &[key, w] : written) need = std::max(need, w.at + (is_pred(key) ? lat.PredMax(w.producer) : w.cycles));
            written.clear();
            std::vector<int> sbs;
            for (auto &[key, sb] : wpend) sbs.push_back(sb);
            for (auto &[key, sb] : rpend) sbs.push_back(sb);
            for (int sb : sbs) wait_sb(sb);
        } else if (s.op == "EXIT") {
            // an EXIT (also a guarded one) waits for the reads and writes still in flight: the
            // warp's other lanes may go on along another path (divergence) and overwrite registers
            // that the exiting lanes' stores have not read yet (the scoreboards are per warp)
            std::vector<int> sbs;
            for (auto &[key, sb] : wpend) sbs.push_back(sb);
            for (auto &[key, sb] : rpend) sbs.push_back(sb);
            for (int sb : sbs) wait_sb(sb);
        }
        for (int key : s.uses) {
            auto it = written.find(key);
            if (it != written.end()) need = std::max(need, read_ready(key, it->second, s));
            auto w = wpend.find(key);
            if (w != wpend.end()) wait_sb(w->second);
        }
        for (int key : s.defs) {
            auto it = written.find(key);  // write after write: keep the order of results
            if (it != written.end()) need = std::max(need, it->second.at + (is_pred(key) ? lat.pred : it->second.cycles));
            auto w = wpend.find(key);
            if (w != wpend.end()) wait_sb(w->second);
            for (auto r = rpend.find(key); r != rpend.end() && r->first == key; r = rpend.find(key)) wait_sb(r->second);
        }
        if (need > t) {
            if (i == 0) return Status::Internal("scheduler: first instruction cannot wait");
            int64_t add = need - t;
            if (ctl[i - 1].stall + add > 15) return Status::Internal("scheduler: stall above 15");
            ctl[i - 1].stall = (uint8_t)(ctl[i - 1].stall + add);
            t = need;
        }
        c.wait = wait;
        Latency l = lat.Of(OpWithModifiers(s.text));
        if (l.variable) {
            auto take = [&]() {
                int sb = next_sb;
                next_sb = (next_sb + 1) % 6;
                bool busy = false;
                for (auto &[key, b] : wpend) busy |= b == sb;
                for (auto &[key, b] : rpend) busy |= b == sb;
                if (busy) {
                    wait_sb(sb);
                    c.wait = wait;
                }
                return sb;
            };
            if (!s.defs.empty()) {
                int sb = take();
                c.wbar = (uint8_t)sb;
                for (int key : s.defs) {
                    wpend[key] = sb;
                    written.erase(key);
                }
            }
            std::vector<int> reads;
            for (int key : s.uses)
                if ((key < 256 || key >= 300) && key != kBarResultKey) reads.push_back(key);
            if (!reads.empty() && (s.op == "STG" || s.op == "LDG" || s.defs.empty() || true)) {
                int sb = take();
                c.rbar = (uint8_t)sb;
                for (int key : reads) rpend.emplace(key, sb);
            }
            c.stall = 2;
        } else {
            for (int key : s.defs) written[key] = Written{t, key == kBarResultKey ? lat.bar_result : l.cycles, s.op.substr(0, s.op.find('.'))};
        }
        if (s.control) c.stall = std::max<uint8_t>(c.stall, 5);
        t += c.stall;
    }
    // a stall of 12 or more is encodable only without the yield flag (nvdisasm: ptxas writes S13
    // with '-')
    for (auto &c : ctl)
        if (c.stall >= 12) c.yield = 0;

    // addresses: instructions, then BRA-to-self and NOP padding to 128 bytes
    std::vector<std::string> text;
    for (auto &s : si) text.push_back(s.text);
    size_t body = text.size();
    text.push_back("BRA `(\x04)");
    ctl.push_back(sass::Control{});
    while (text.size() % 8) {
        text.push_back("NOP");
        ctl.push_back(sass::Control{});
    }
    std::optional<int64_t> desc;
    for (size_t i = 0; i < text.size(); ++i) {
        std::string line = text[i];
        int64_t target = -1;
        size_t p = line.find('\x03');
        if (p != std::string::npos) {
            auto it = label_index.find(target_of[i]);
            if (it == label_index.end()) return Status::Unsupported(f_.name + ": branch to an undefined label");
            target = it->second * 16;
            line.replace(p, 1, ".L_t");
            if (target <= (int64_t)i * 16) k->backward_branch = true;
        }
        p = line.find('\x04');
        if (p != std::string::npos) {
            target = (int64_t)i * 16;
            line.replace(p, 1, ".L_t");
        }
        auto resolve = [&](const std::string &) -> Expected<int64_t> { return target; };
        auto inst = isa->Parse(line, resolve);
        if (!inst.ok()) {
            // signed immediate fields print negative values as -0x..: retry with that spelling
            std::string alt = NegativeHexSpelling(line);
            if (alt != line) {
                auto again = isa->Parse(alt, resolve);
                if (again.ok()) inst = std::move(again), line = alt;
            }
        }
        for (const std::string &alt : inst.ok() ? std::vector<std::string>{} : EquivalentSpellings(line)) {
            auto again = isa->Parse(alt, resolve);
            if (again.ok()) {
                inst = std::move(again), line = alt;
                break;
            }
        }
        // sm_100 and sm_120: nvdisasm prints every predicate output of IADD3/LOP3/... (an omitted one
        // is PT on the older architectures); insert PT after the destination and the predicate
        // outputs already written (the omitted ones are the last: `IADD3 R0, P0, R1, R2, RZ` is
        // `IADD3 R0, P0, PT, R1, R2, RZ`), up to two times
        for (int pad = 0; !inst.ok() && arch_ >= sass::Arch::SM_100 && pad < 2; ++pad) {
            size_t comma = line.find(',');
            if (comma == std::string::npos) break;
            size_t sp = line.find(' ', line[0] == '@' ? line.find(' ') + 1 : 0);  // after the guard and opcode
            if (sp != std::string::npos && sp + 1 < line.size() && line[sp + 1] == 'R')
                for (;;) {  // skip the predicate outputs after a register destination
                    size_t b = comma + 2, e = line.find(',', b);
                    if (e == std::string::npos || line.compare(b - 2, 2, ", ") != 0) break;
                    std::string o = line.substr(b, e - b);
                    if (!(o.size() == 2 && o[0] == 'P' && (o[1] == 'T' || (o[1] >= '0' && o[1] <= '6')))) break;
                    comma = e;
                }
            std::string alt = line;
            for (int k = 0; k <= pad; ++k) alt.insert(comma, ", PT");
            auto again = isa->Parse(alt, resolve);
            if (!again.ok()) again = isa->Parse(NegativeHexSpelling(alt), resolve), alt = NegativeHexSpelling(alt);
            if (again.ok()) inst = std::move(again), line = alt;
        }
        if (!inst.ok())
            return Status::Unsupported(f_.name + ": SASS '" + line + "' has no form in the " + ai_.name + " tables (" + inst.status().message() + ")");
        inst->control = ctl[i];
        isa->TrackImplicit(&*inst, &desc);
        auto w = isa->Encode(*inst, i * 16);
        if (!w.ok()) {
            // a 32-bit immediate with the sign bit set may sit in a signed field: -0x.. spelling
            std::string alt = NegativeHexSpelling(line);
            auto again = alt != line ? isa->Parse(alt, resolve) : inst;
            if (alt != line && again.ok()) {
                again->control = ctl[i];
                isa->TrackImplicit(&*again, &desc);
                auto w2 = isa->Encode(*again, i * 16);
                if (w2.ok()) inst = std::move(again), w = std::move(w2), line = alt;
            }
        }
        if (!w.ok()) return Status::Unsupported(f_.name + ": cannot encode '" + line + "' for " + ai_.name + ": " + w.status().message());
        k->words.push_back(*w);
        k->text.push_back(i < body ? line : isa->Print(*inst, [](int64_t a) { return Hex(a); }));
        k->control.push_back(ctl[i]);
        if (i < body && si[i].op == "EXIT") k->exit_offsets.push_back((uint32_t)(i * 16));
    }
    return Status::Ok();
}

Expected<CompiledKernel> KernelCompiler::Run() {
    // parameters: natural alignment
    uint32_t off = 0;
    for (const ptx::Variable &p : f_.params) {
        uint32_t size = (uint32_t)p.SizeBytes(), align = std::max<uint32_t>(1, p.AlignBytes());
        off = (off + align - 1) / align * align;
        params_.push_back({off, size});
        off += size;
    }
    param_bytes_ = off;
    // virtual registers: the PTX registers first (same ids), temporaries after
    for (const ptx::Register &r : f_.regs) {
        VReg v;
        uint32_t bits = ptx::TypeBits(r.type);
        v.cls = r.type == ptx::Type::PRED ? VClass::PRED : bits == 64 ? VClass::R64 : VClass::R32;
        vregs_.push_back(v);
        if (bits > 64) return Status::Unsupported(f_.name + ": registers of type ." + std::string(ptx::TypeName(r.type)) + " are not supported");
    }
    CoalesceCopies();
    AnalyseRegisters();
    RNDN_RETURN_IF_ERROR(LayOutShared());
    RNDN_RETURN_IF_ERROR(LayOutLocal());
    for (size_t si = 0; si < f_.body.size(); ++si) {
        const ptx::Statement &st = f_.body[si];
        if (folded_copy_[si]) continue;
        switch (st.kind) {
        case ptx::StatementKind::LABEL:
            if (pending_label_ >= 0) {  // two labels on one spot: emit a NOP to carry the first
                ptx::Instruction dummy;
                Emit("NOP", {}, {}, dummy);
            }
            pending_label_ = (int)st.id;
            break;
        case ptx::StatementKind::INSTRUCTION:
            RNDN_RETURN_IF_ERROR(Lower(st.inst));
            break;
        case ptx::StatementKind::VAR_DECL:
            if (IsShared(f_.vars[st.id].space)) break;  // laid out by LayOutShared
            if (f_.vars[st.id].space == ptx::StateSpace::LOCAL) break;  // laid out by LayOutLocal
            return Status::Unsupported(f_.name + ": variables declared in a kernel body are not supported");
        default:
            break;
        }
    }
    if (pending_label_ >= 0 || code_.empty() || !code_.back().is_exit || code_.back().text[0] == '@') {
        ptx::Instruction dummy;
        Emit("EXIT", {}, {}, dummy);
        code_.back().is_exit = true;
    }
    DropIdentityCopies();
    FuseAddressArithmetic();
    FoldConstantBank();
    FuseWideAdds();
    FoldImmediates();
    BranchesToExit();
    EliminateDeadCode();
    InsertConvergenceBarriers();
    for (int spilled = 0;; ++spilled) {
        int spill = -1;
        Status st = Allocate(&spill);
        if (st.ok()) break;
        if (spill < 0 || spilled >= (int)vregs_.size()) return st;
        if (vregs_[spill].cls == VClass::PRED) SpillPredicate(spill);
        else SpillRegister(spill);
    }
    DropSelfCopies();
    CompiledKernel k;
    k.name = f_.name;
    k.params = params_;
    k.param_bytes = param_bytes_;
    k.shared_bytes = shared_bytes_;
    k.uses_shared = uses_shared_;
    k.barriers = barriers_;
    k.uses_bssy = uses_bssy_;
    k.frame_bytes = frame_bytes_ + (spill_bytes_ + 7) / 8 * 8;
    RNDN_RETURN_IF_ERROR(Schedule(&k));
    // the declared count is the highest register + 3, as ptxas declares it: the GPU keeps the top
    // two registers of the count for itself (code touching them stops with an illegal
    // instruction; an H100, 2026-11-27)
    k.registers = std::max(max_reg_ + 1, 2) + 2;
    return k;
}

}  // namespace

Expected<std::vector<ModuleVariable>> LayOutModuleVariables(const ptx::Module &m) {
    std::vector<ModuleVariable> out;
    uint32_t at_const = 0, at_init = 0, at_zero = 0, slots = 0;
    for (const ptx::Variable &v : m.globals) {
        if (v.space != ptx::StateSpace::CONST && v.space != ptx::StateSpace::GLOBAL) continue;
        if (v.linkage == ptx::Linkage::EXTERN) return Status::Unsupported(m.filename + ": .extern variable " + v.name + " (no linker)");
        if (!v.dims.empty() && v.dims[0] == 0) return Status::Unsupported(m.filename + ": variable " + v.name + " without a size");
        ModuleVariable mv;
        mv.name = v.name;
        mv.is_const = v.space == ptx::StateSpace::CONST;
        mv.initialised = v.has_init;
        mv.size = (uint32_t)v.SizeBytes();
        mv.align = std::max<uint32_t>(1, v.AlignBytes());
        if (v.has_init) {
            // the flattened initialiser, element by element in the variable's scalar type
            uint32_t elem = std::max<uint32_t>(1, ptx::TypeBits(v.type) / 8);
            mv.init.assign(mv.size, 0);
            for (size_t i = 0; i < v.init.size(); ++i) {
                const ptx::InitValue &iv = v.init[i];
                if (iv.is_symbol) return Status::Unsupported(m.filename + ": variable " + v.name + " is initialised with the address of " + iv.symbol + " (relocations of initialisers are open)");
                uint64_t bits = iv.imm.bits;
                ptx::TypeKind tk = ptx::TypeKindOf(v.type);
                if (tk == ptx::TypeKind::FLOAT && elem == 4 && iv.imm.kind != ptx::ImmKind::F32) {
                    float f = iv.imm.AsF32();
                    uint32_t u;
                    std::memcpy(&u, &f, 4);
                    bits = u;
                } else if (tk == ptx::TypeKind::FLOAT && elem == 8 && iv.imm.kind != ptx::ImmKind::F64) {
                    double d = iv.imm.AsF64();
                    std::memcpy(&bits, &d, 8);
                }
                if ((i + 1) * elem > mv.size) return Status::Unsupported(m.filename + ": variable " + v.name + " has more initialisers than elements");
                for (uint32_t b = 0; b < elem; ++b) mv.init[i * elem + b] = (uint8_t)(bits >> (8 * b));
            }
        }
        uint32_t &at = mv.is_const ? at_const : v.has_init ? at_init : at_zero;
        at = (at + mv.align - 1) / mv.align * mv.align;
        mv.offset = at;
        at += mv.size;
        if (!mv.is_const) mv.slot = 8 * slots++;
        out.push_back(std::move(mv));
    }
    if (at_const > 0x10000) return Status::Unsupported(m.filename + ": " + std::to_string(at_const) + " bytes of .const variables (constant bank 3 holds 64 KiB)");
    return out;
}

Expected<std::vector<CompiledKernel>> CompileModule(const ptx::Module &m, sass::Arch arch, const std::string &only) {
    std::vector<CompiledKernel> out;
    RNDN_ASSIGN_OR_RETURN(const std::vector<ModuleVariable> vars, LayOutModuleVariables(m));
    for (const ptx::Function &f : m.functions) {
        if (!f.has_body || (!only.empty() && f.name != only)) continue;
        if (!f.is_entry) continue;  // device functions: inlined into the kernels that call them
        RNDN_ASSIGN_OR_RETURN(ptx::Function inlined, InlineCalls(m, f));
        KernelCompiler kc(m, inlined, arch, &vars);
        RNDN_ASSIGN_OR_RETURN(CompiledKernel k, kc.Run());
        k.module_vars = vars;
        out.push_back(std::move(k));
    }
    if (!only.empty() && out.empty()) return Status::Unsupported("no kernel " + only + " in the module");
    return out;
}

Expected<std::vector<uint8_t>> CompileToCubin(const ptx::Module &m, sass::Arch arch) {
    RNDN_ASSIGN_OR_RETURN(std::vector<CompiledKernel> ks, CompileModule(m, arch));
    return BuildCubin(ks, arch);
}

std::string FormatListing(const CompiledKernel &k) {
    std::string s = "// " + k.name + ": " + std::to_string(k.registers) + " registers\n";
    for (size_t i = 0; i < k.text.size(); ++i) {
        char b[32];
        std::snprintf(b, sizeof b, "/*%04zx*/ ", i * 16);
        s += b + sass::FormatControl(k.control[i]) + "  " + k.text[i] + " ;\n";
    }
    return s;
}

}  // namespace rndn::sasscomp
