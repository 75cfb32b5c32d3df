// PTX -> SASS: instruction selection (patterns.def), linear-scan register allocation, control
// codes.  See sasscomp.h for the pipeline.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>
#include <sstream>

#include "sasscomp/sasscomp.h"

namespace rndn::sasscomp {
namespace {

using ptx::Operand;
using ptx::OperandKind;

// ----------------------------------------------------------------------------- pattern table
struct PatternRow {
    const char *key;
    const char *pattern;
};
const PatternRow kPatterns[] = {
#define SASS_PAT(k, p) {k, p},
#include "sasscomp/patterns.def"
#undef SASS_PAT
};
const std::map<std::string, std::string> &PatternMap() {
    static const std::map<std::string, std::string> m = [] {
        std::map<std::string, std::string> r;
        for (const PatternRow &p : kPatterns) r[p.key] = p.pattern;
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
    int pred = 4, pred_control = 9;
    Latency Of(const std::string &op) const {
        auto it = ops.find(op);
        return it == ops.end() ? dflt : it->second;
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
        Latency l;
        l.variable = kind == "variable";
        if (!l.variable) l.cycles = std::atoi(arg.c_str());
        if (op == "default") t.dflt = l;
        else if (op == "@predicate") t.pred = l.cycles;
        else if (op == "@predicate-control") t.pred_control = l.cycles;
        else t.ops[op] = l;
    }
    return cache[arch] = t;
}

// ----------------------------------------------------------------------------- machine code
enum class VClass : uint8_t { R32, R64, PRED };
struct VReg {
    VClass cls = VClass::R32;
    int start = -1, end = -1;  // live interval over machine-instruction indices
    int phys = -1;
};

// A machine instruction before allocation: text with virtual-register references
// "\x01<vreg>:<part>\x02" (part 0: low/only, 1: high half, 2: predicate).
struct MInst {
    std::string text;
    std::vector<int> defs, uses;  // virtual registers
    int label_here = -1;          // a PTX label starts at this instruction
    int target = -1;              // branch target label
    bool is_exit = false;
    ptx::SourceLoc loc;
};

std::string Hex(uint64_t v) {
    char b[32];
    std::snprintf(b, sizeof b, "0x%llx", (unsigned long long)v);
    return b;
}

std::string VRef(int v, int part) { return "\x01" + std::to_string(v) + ":" + std::to_string(part) + "\x02"; }

class KernelCompiler {
public:
    KernelCompiler(const ptx::Module &m, const ptx::Function &f, sass::Arch arch)
        : m_(m), f_(f), arch_(arch), ai_(sass::GetArchInfo(arch)) {}

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
    int NewTemp(VClass c) {
        vregs_.push_back(VReg{c});
        return (int)vregs_.size() - 1;
    }
    Status Lower(const ptx::Instruction &inst);
    Status Expand(const ptx::Instruction &inst, const std::string &pattern, const std::string &key);
    void Emit(std::string text, std::vector<int> defs, std::vector<int> uses, const ptx::Instruction &inst);
    std::string Guard(const ptx::Instruction &inst, std::vector<int> *uses);
    Status LowerMemory(const ptx::Instruction &inst, const std::string &key);
    Status LowerMov(const ptx::Instruction &inst, const std::string &key, bool *done);
    // memory spaces, atomics, barriers and warp collectives (memory.inc)
    void AnalyseRegisters();
    Status LayOutShared();
    bool ConstOf(const Operand &o, uint64_t *v) const;
    std::string GlobalAddress(int a, int64_t off) const;
    Status EmitAccess(const ptx::Instruction &inst, bool load, int v, const Operand &mem, uint32_t bits, uint32_t extra,
                      const std::string &key);
    Status LowerSymbolMov(const ptx::Instruction &inst, const std::string &key);
    Status LowerAtomic(const ptx::Instruction &inst, const std::string &key);
    Status LowerBarrier(const ptx::Instruction &inst, const std::string &key);
    Status LowerWarp(const ptx::Instruction &inst, const std::string &key);
    Status LowerFence(const ptx::Instruction &inst, const std::string &key);
    int Materialise(const ptx::Instruction &inst, uint32_t value);
    Status Allocate();
    Status Schedule(CompiledKernel *k);

    const ptx::Module &m_;
    const ptx::Function &f_;
    sass::Arch arch_;
    const sass::ArchInfo &ai_;
    std::vector<VReg> vregs_;
    std::vector<MInst> code_;
    std::vector<CompiledParam> params_;
    uint32_t param_bytes_ = 0;
    int pending_label_ = -1;
    int max_reg_ = -1;
    std::vector<int> alias_;         // per PTX register: the register it is folded into, or -1
    std::vector<int> reg_reads_;     // per PTX register: how many operands read it
    std::vector<int> reg_writes_;    // per PTX register: how many operands write it
    std::vector<std::optional<uint64_t>> reg_const_;  // per PTX register: its value when its only write is a mov of an immediate
    std::map<std::pair<int, uint32_t>, uint32_t> shared_at_;  // (SymbolKind, index) -> shared address
    uint32_t shared_bytes_ = 0;
    bool uses_shared_ = false;
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

Status KernelCompiler::Expand(const ptx::Instruction &inst, const std::string &pattern, const std::string &key) {
    // temporaries of this PTX instruction
    std::map<std::string, int> temps;
    std::vector<std::string> lines;
    {
        std::string cur;
        for (char ch : pattern) {
            if (ch == ';') {
                lines.push_back(cur);
                cur.clear();
            } else cur += ch;
        }
        lines.push_back(cur);
    }
    for (std::string &line : lines) {
        while (!line.empty() && line.front() == ' ') line.erase(line.begin());
        std::string out;
        std::vector<int> defs, uses;
        std::string pre = Guard(inst, &uses);
        for (size_t i = 0; i < line.size();) {
            if (line[i] != '{') {
                out += line[i++];
                continue;
            }
            size_t j = line.find('}', i);
            std::string ph = line.substr(i + 1, j - i - 1);
            i = j + 1;
            bool allow_imm = false;
            if (ph.size() > 2 && ph.substr(ph.size() - 2) == ":i") {
                allow_imm = true;
                ph.resize(ph.size() - 2);
            }
            int part = 0;
            bool has_part = ph.size() > 3 && (ph.substr(ph.size() - 3) == ".lo" || ph.substr(ph.size() - 3) == ".hi");
            if (ph.size() > 3 && ph.substr(ph.size() - 3) == ".lo") ph.resize(ph.size() - 3);
            else if (ph.size() > 3 && ph.substr(ph.size() - 3) == ".hi") {
                part = 1;
                ph.resize(ph.size() - 3);
            }
            if (ph[0] == 't' || ph[0] == 'w' || ph[0] == 'p') {  // temporaries
                auto it = temps.find(ph);
                bool first = it == temps.end();
                if (first) it = temps.emplace(ph, NewTemp(ph[0] == 't' ? VClass::R32 : ph[0] == 'w' ? VClass::R64 : VClass::PRED)).first;
                (first ? defs : uses).push_back(it->second);
                out += VRef(it->second, ph[0] == 'p' ? 2 : part);
                continue;
            }
            static const std::string names = "dabce";
            size_t idx = names.find(ph[0]);
            if (idx == std::string::npos || idx >= inst.operands.size())
                return Err(inst, "pattern for " + key + " names a missing operand {" + ph + "}");
            const Operand &op = inst.operands[idx];
            bool is_def = idx < inst.num_dests;
            if (op.kind == OperandKind::REG) {
                int r = Reg(op.reg);
                const VReg &v = vregs_[r];
                (is_def ? defs : uses).push_back(r);
                if (op.negated) out += "!";
                out += VRef(r, v.cls == VClass::PRED ? 2 : part);
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
                uint32_t word = (uint32_t)(part ? bits >> 32 : bits);
                // a whole 64-bit operand (no .lo/.hi) of a 64-bit role becomes a register pair
                bool whole64 = !has_part && OperandBits(inst, idx) == 64;
                if (allow_imm) {
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
    if ((bits == 64) != v64) return Err(inst, "no SASS pattern for " + key + " with a register of another width");
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
    if (inst.operands.size() != 2 || inst.operands[1].kind != OperandKind::SREG) return Status::Ok();
    *done = true;
    const Operand &d = inst.operands[0];
    if (d.kind != OperandKind::REG || vregs_[d.reg].cls != VClass::R32) return Err(inst, "no SASS pattern for " + key + " into this register");
    int v = Reg(d.reg);
    std::vector<int> uses;
    std::string g = Guard(inst, &uses);
    using S = ptx::SpecialReg;
    struct SR {
        S s;
        const char *s2r;   // S2R source, or null
        uint32_t cbank;    // c[0x0][...] offset otherwise
    };
    // sm_100/sm_120 moved the launch header: %ntid at c[0x0][0x360], %nctaid at c[0x0][0x370]
    static const SR kSregs[] = {
        {S::TID_X, "SR_TID.X", 0},     {S::TID_Y, "SR_TID.Y", 0},     {S::TID_Z, "SR_TID.Z", 0},
        {S::CTAID_X, "SR_CTAID.X", 0}, {S::CTAID_Y, "SR_CTAID.Y", 0}, {S::CTAID_Z, "SR_CTAID.Z", 0},
        {S::NTID_X, nullptr, 0x0},     {S::NTID_Y, nullptr, 0x4},     {S::NTID_Z, nullptr, 0x8},
        {S::NCTAID_X, nullptr, 0xc},   {S::NCTAID_Y, nullptr, 0x10},  {S::NCTAID_Z, nullptr, 0x14},
        {S::LANEID, "SR_LANEID", 0},   {S::LANEMASK_EQ, "SR_EQMASK", 0}, {S::LANEMASK_LE, "SR_LEMASK", 0},
        {S::LANEMASK_LT, "SR_LTMASK", 0}, {S::LANEMASK_GE, "SR_GEMASK", 0}, {S::LANEMASK_GT, "SR_GTMASK", 0},
    };
    for (const SR &s : kSregs) {
        if (s.s != inst.operands[1].sreg) continue;
        if (s.s2r && arch_ >= sass::Arch::SM_100 && s.s == S::CTAID_Z) {
            // sm_100/sm_120: ptxas reads %ctaid.z into a uniform register (the tables have no
            // S2R form for it); UR6 is free (UR4/UR5 hold the memory descriptor)
            Emit(g + "S2UR UR6, SR_CTAID.Z", {}, uses, inst);
            Emit(g + "MOV " + VRef(v, 0) + ", UR6", {v}, uses, inst);
        } else if (s.s2r) Emit(g + "S2R " + VRef(v, 0) + ", " + s.s2r, {v}, uses, inst);
        else if (arch_ >= sass::Arch::SM_90) Emit(g + "LDC " + VRef(v, 0) + ", c[0x0][" + Hex(s.cbank + (arch_ < sass::Arch::SM_100 ? 0 : s.cbank < 0xc ? 0x360 : 0x364)) + "]", {v}, uses, inst);
        else Emit(g + "MOV " + VRef(v, 0) + ", c[0x0][" + Hex(s.cbank) + "]", {v}, uses, inst);
        return Status::Ok();
    }
    return Err(inst, "no SASS pattern for " + key + " from " + std::string(ptx::SpecialRegName(inst.operands[1].sreg)));
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
        return LowerBarrier(inst, key);
    case ptx::Opcode::MEMBAR:
    case ptx::Opcode::FENCE:
        return LowerFence(inst, key);
    case ptx::Opcode::SHFL:
    case ptx::Opcode::VOTE:
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
    auto it = PatternMap().find(key);
    if (it == PatternMap().end()) return Err(inst, "no SASS pattern for PTX instruction '" + key + "'");
    return Expand(inst, it->second, key);
}

// ----------------------------------------------------------------------------- allocation
Status KernelCompiler::Allocate() {
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
    // loops: a value live anywhere in a loop body lives through the whole loop
    std::map<int, int> label_at;
    for (int i = 0; i < n; ++i)
        if (code_[i].label_here >= 0) label_at[code_[i].label_here] = i;
    bool changed = true;
    while (changed) {
        changed = false;
        for (int i = 0; i < n; ++i) {
            if (code_[i].target < 0) continue;
            auto it = label_at.find(code_[i].target);
            if (it == label_at.end() || it->second > i) continue;
            int lo = it->second, hi = i;
            for (VReg &r : vregs_) {
                if (r.start < 0 || r.end < lo || r.start > hi) continue;
                int s = std::min(r.start, lo), e = std::max(r.end, hi);
                if (s != r.start || e != r.end) {
                    r.start = s;
                    r.end = e;
                    changed = true;
                }
            }
        }
    }
    std::vector<int> order;
    for (int v = 0; v < (int)vregs_.size(); ++v)
        if (vregs_[v].start >= 0) order.push_back(v);
    std::sort(order.begin(), order.end(), [&](int a, int b) { return vregs_[a].start < vregs_[b].start; });
    std::vector<int> rfree_at(255, -1), pfree_at(7, -1);  // last instruction index that uses it
    for (int v : order) {
        VReg &r = vregs_[v];
        if (r.cls == VClass::PRED) {
            for (int p = 0; p < 7; ++p)
                if (pfree_at[p] < r.start) {
                    r.phys = p;
                    pfree_at[p] = r.end;
                    break;
                }
            if (r.phys < 0) return Status::Unsupported(f_.name + ": out of predicate registers (spilling is not implemented)");
        } else {
            int step = r.cls == VClass::R64 ? 2 : 1;
            for (int q = 0; q + step <= 254; q += step)
                if (rfree_at[q] < r.start && (step == 1 || rfree_at[q + 1] < r.start)) {
                    r.phys = q;
                    rfree_at[q] = r.end;
                    if (step == 2) rfree_at[q + 1] = r.end;
                    max_reg_ = std::max(max_reg_, q + step - 1);
                    break;
                }
            if (r.phys < 0) return Status::Unsupported(f_.name + ": out of registers (spilling is not implemented)");
        }
    }
    return Status::Ok();
}

// ----------------------------------------------------------------------------- control codes
// Register keys for the scheduler: R0..R254 -> 0..254, P0..P6 -> 256..262, UR -> 300+.
struct SchedInst {
    std::string text, op;
    std::vector<int> defs, uses;
    bool control = false;    // branch / exit: predicate-control latency
    bool block_start = false;
};

std::string OpName(const std::string &text) {
    size_t i = 0;
    if (!text.empty() && text[0] == '@') i = text.find(' ') + 1;
    size_t j = i;
    while (j < text.size() && text[j] != ' ' && text[j] != '.') ++j;
    return text.substr(i, j - i);
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
std::vector<std::string> EquivalentSpellings(const std::string &line) {
    std::vector<std::string> out;
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
        if (needs_desc && (s.op == "LDG" || s.op == "STG" || s.op == "ATOMG" || s.op == "RED" || s.op == "REDG")) s.uses.push_back(304), s.uses.push_back(305);
        s.control = mi.is_exit || mi.target >= 0;
        if (mi.label_here >= 0) {
            label_index[mi.label_here] = (int)si.size();
            s.block_start = true;
        }
        target_of.resize(si.size() + 1, -1);
        target_of[si.size()] = mi.target;
        si.push_back(s);
    }
    target_of.resize(si.size(), -1);
    // a branch ends a block: the next instruction starts one
    for (size_t i = 0; i + 1 < si.size(); ++i)
        if (si[i].control) si[i + 1].block_start = true;

    // cycle-accurate bookkeeping along the straight-line order; every block start drains
    std::vector<sass::Control> ctl(si.size());
    std::map<int, int64_t> ready, ready_ctl;  // key -> cycle its value can be read
    std::map<int, int> wpend, rpend;          // key -> scoreboard (write result / read operand)
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
            for (auto &[key, r] : ready) need = std::max(need, r);
            for (auto &[key, r] : ready_ctl) need = std::max(need, r);
            ready.clear();
            ready_ctl.clear();
            std::vector<int> sbs;
            for (auto &[key, sb] : wpend) sbs.push_back(sb);
            for (auto &[key, sb] : rpend) sbs.push_back(sb);
            for (int sb : sbs) wait_sb(sb);
        }
        for (int key : s.uses) {
            auto &rt = (s.control && key >= 256 && key < 300) ? ready_ctl : ready;
            auto it = rt.find(key);
            if (it != rt.end()) need = std::max(need, it->second);
            auto w = wpend.find(key);
            if (w != wpend.end()) wait_sb(w->second);
        }
        for (int key : s.defs) {
            auto it = ready.find(key);  // write after write: keep the order of results
            if (it != ready.end()) need = std::max(need, it->second);
            auto w = wpend.find(key);
            if (w != wpend.end()) wait_sb(w->second);
            auto r = rpend.find(key);
            if (r != rpend.end()) wait_sb(r->second);
        }
        if (need > t) {
            if (i == 0) return Status::Internal("scheduler: first instruction cannot wait");
            int64_t add = need - t;
            if (ctl[i - 1].stall + add > 15) return Status::Internal("scheduler: stall above 15");
            ctl[i - 1].stall = (uint8_t)(ctl[i - 1].stall + add);
            t = need;
        }
        c.wait = wait;
        Latency l = lat.Of(s.op);
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
                    ready.erase(key);
                    ready_ctl.erase(key);
                }
            }
            std::vector<int> reads;
            for (int key : s.uses)
                if (key < 256 || key >= 300) reads.push_back(key);
            if (!reads.empty() && (s.op == "STG" || s.op == "LDG" || s.defs.empty() || true)) {
                int sb = take();
                c.rbar = (uint8_t)sb;
                for (int key : reads) rpend[key] = sb;
            }
            c.stall = 2;
        } else {
            for (int key : s.defs) {
                if (key >= 256 && key < 300) {
                    ready[key] = t + lat.pred;
                    ready_ctl[key] = t + lat.pred_control;
                } else {
                    ready[key] = t + l.cycles;
                }
            }
        }
        if (s.control) c.stall = std::max<uint8_t>(c.stall, 5);
        t += c.stall;
    }

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
        // is PT on the older architectures); insert PT after the destination, up to two times
        for (int pad = 0; !inst.ok() && arch_ >= sass::Arch::SM_100 && pad < 2; ++pad) {
            size_t comma = line.find(',');
            if (comma == std::string::npos) break;
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
    RNDN_RETURN_IF_ERROR(Allocate());
    CompiledKernel k;
    k.name = f_.name;
    k.params = params_;
    k.param_bytes = param_bytes_;
    k.shared_bytes = shared_bytes_;
    k.uses_shared = uses_shared_;
    k.barriers = barriers_;
    RNDN_RETURN_IF_ERROR(Schedule(&k));
    k.registers = std::max(max_reg_ + 1, 2);
    return k;
}

}  // namespace

Expected<std::vector<CompiledKernel>> CompileModule(const ptx::Module &m, sass::Arch arch, const std::string &only) {
    std::vector<CompiledKernel> out;
    for (const ptx::Function &f : m.functions) {
        if (!f.has_body || (!only.empty() && f.name != only)) continue;
        if (!f.is_entry) return Status::Unsupported(f.name + ": device functions (.func) are not supported yet");
        KernelCompiler kc(m, f, arch);
        RNDN_ASSIGN_OR_RETURN(CompiledKernel k, kc.Run());
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
