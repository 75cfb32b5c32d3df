// Device functions: every call of a kernel is replaced by the callee's body before compiling
// (ptxas inlines small functions too; an ABI with a call stack is open).
//
// A call site in PTX passes its arguments and results through .param variables declared in the
// caller's body:
//     .param .b32 param0;  st.param.b32 [param0+0], %r6;
//     .param .b32 retval0; call.uni (retval0), f, (param0); ld.param.b32 %r7, [retval0+0];
// and the callee reads its parameters with ld.param [f_param_0+off] and writes its result with
// st.param [func_retval0+off].  Here each (call-site variable, offset) becomes one register: the
// caller's st.param and the callee's ld.param of that parameter become moves into and out of it,
// and likewise for results.  The callee's registers and labels are renamed into the kernel's,
// `ret` becomes a branch to the end of the inlined body.  Recursion (beyond a depth of 16),
// callees without a body, indirect calls and callee variables other than .param are errors.
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "sasscomp/sasscomp.h"

namespace rndn::sasscomp {
namespace {

using ptx::Operand;
using ptx::OperandKind;

// Registers standing for one function's call-site .param variables: (variable, offset) -> register.
using Slots = std::map<std::pair<uint32_t, int64_t>, ptx::RegId>;

// One function being copied into the kernel.
struct Frame {
    const ptx::Function *src = nullptr;
    std::vector<ptx::RegId> regs;      // src register -> kernel register
    std::vector<ptx::LabelId> labels;  // src label -> kernel label
    Slots slots;                       // src's own call-site .param variables
    // a callee: its parameters and results are the caller's call-site variables
    Frame *caller = nullptr;
    std::vector<uint32_t> param_vars, ret_vars;  // PARAM k / RET_PARAM k -> caller's LOCAL variable
    ptx::LabelId end = ptx::kNoId;               // `ret` branches here
};

class Inliner {
public:
    Inliner(const ptx::Module &m, ptx::Function *out) : m_(m), out_(*out) {}

    Status Copy(Frame &f, int depth) {
        if (depth > 16) return Status::Unsupported(out_.name + ": calls nested more than 16 deep (recursion?)");
        const ptx::Function &src = *f.src;
        for (const ptx::Statement &st : src.body) {
            switch (st.kind) {
            case ptx::StatementKind::INSTRUCTION:
                RNDN_RETURN_IF_ERROR(Instruction(f, st.inst, depth));
                break;
            case ptx::StatementKind::LABEL: {
                ptx::Statement s = st;
                s.id = f.labels[st.id];
                out_.labels[s.id].stmt = (uint32_t)out_.body.size();
                out_.body.push_back(s);
                break;
            }
            case ptx::StatementKind::VAR_DECL: {
                const ptx::Variable &v = src.vars[st.id];
                if (v.space == ptx::StateSpace::PARAM) break;  // a call site's: registers now
                if (f.caller) return Status::Unsupported(out_.name + ": variable " + v.name + " declared in device function " + src.name);
                out_.body.push_back(st);
                break;
            }
            case ptx::StatementKind::REG_DECL:
            case ptx::StatementKind::BLOCK_BEGIN:
            case ptx::StatementKind::BLOCK_END:
            case ptx::StatementKind::PRAGMA:
                if (!f.caller) out_.body.push_back(st);  // a callee's: its registers are the kernel's now
                break;
            }
        }
        return Status::Ok();
    }

private:
    ptx::RegId NewReg(ptx::Type t, const std::string &hint) {
        ptx::Register r;
        r.name = "%inl" + std::to_string(out_.regs.size()) + "_" + hint;
        r.type = t;
        out_.regs.push_back(r);
        return (ptx::RegId)(out_.regs.size() - 1);
    }
    ptx::RegId Slot(Slots &slots, uint32_t var, int64_t off, ptx::Type t) {
        auto it = slots.find({var, off});
        if (it != slots.end()) return it->second;
        return slots[{var, off}] = NewReg(t, "param");
    }
    static ptx::Type RegType(ptx::Type t) {
        // a .param access's type as a register's (sub-word parameters travel in 32 bits)
        const uint32_t bits = ptx::TypeBits(t);
        if (bits == 64) return ptx::TypeKindOf(t) == ptx::TypeKind::FLOAT ? ptx::Type::F64 : ptx::Type::B64;
        if (bits == 32 && ptx::TypeKindOf(t) == ptx::TypeKind::FLOAT) return ptx::Type::F32;
        return ptx::Type::B32;
    }
    void Move(const ptx::Instruction &like, ptx::RegId d, const Operand &s, ptx::Type t) {
        ptx::Instruction mv;
        mv.opcode = ptx::Opcode::MOV;
        mv.type = t;
        mv.guard = like.guard;
        mv.loc = like.loc;
        mv.num_dests = 1;
        mv.operands = {Operand::Reg(d), s};
        Push(mv);
    }
    void Push(const ptx::Instruction &inst) {
        ptx::Statement s;
        s.kind = ptx::StatementKind::INSTRUCTION;
        s.inst = inst;
        out_.body.push_back(std::move(s));
    }
    void MapOperand(const Frame &f, Operand &o) {
        switch (o.kind) {
        case OperandKind::REG: o.reg = f.regs[o.reg]; break;
        case OperandKind::ADDRESS:
            if (o.addr.base == ptx::AddrBase::REG) o.addr.reg = f.regs[o.addr.reg];
            break;
        case OperandKind::VECTOR:
            for (Operand &e : o.elems) MapOperand(f, e);
            break;
        case OperandKind::LABEL: o.label = f.labels[o.label]; break;
        default: break;
        }
    }
    // The register behind a .param access of `f` at [sym+off], or kNoId when it is not one (a
    // kernel's own parameters stay .param loads).
    ptx::RegId ParamSlot(Frame &f, const ptx::Address &a, ptx::Type t) {
        if (a.base != ptx::AddrBase::SYMBOL) return ptx::kNoId;
        const ptx::SymbolRef &s = a.sym;
        if (s.kind == ptx::SymbolKind::LOCAL && f.src->vars[s.index].space == ptx::StateSpace::PARAM) return Slot(f.slots, s.index, a.offset, t);
        if (f.caller && s.kind == ptx::SymbolKind::PARAM && s.index < f.param_vars.size()) return Slot(f.caller->slots, f.param_vars[s.index], a.offset, t);
        if (f.caller && s.kind == ptx::SymbolKind::RET_PARAM && s.index < f.ret_vars.size()) return Slot(f.caller->slots, f.ret_vars[s.index], a.offset, t);
        return ptx::kNoId;
    }

    Status Instruction(Frame &f, const ptx::Instruction &in, int depth) {
        ptx::Instruction inst = in;
        if (inst.guard.present) inst.guard.reg = f.regs[inst.guard.reg];
        const bool param_space = inst.mods.space == ptx::StateSpace::PARAM || inst.mods.space == ptx::StateSpace::PARAM_FUNC;
        if ((inst.opcode == ptx::Opcode::ST || inst.opcode == ptx::Opcode::LD) && param_space && inst.operands.size() == 2) {
            const bool store = inst.opcode == ptx::Opcode::ST;
            const Operand &mem = in.operands[store ? 0 : 1];
            if (mem.kind == OperandKind::ADDRESS && inst.mods.vec == ptx::VecWidth::NONE) {
                const ptx::Type t = RegType(inst.type);
                const ptx::RegId slot = ParamSlot(f, mem.addr, t);
                if (slot != ptx::kNoId) {
                    Operand v = in.operands[store ? 1 : 0];
                    MapOperand(f, v);
                    if (store) Move(inst, slot, v, t);
                    else if (v.kind == OperandKind::REG) Move(inst, v.reg, Operand::Reg(slot), t);
                    return Status::Ok();
                }
            }
        }
        if (inst.opcode == ptx::Opcode::CALL) return Call(f, inst, depth);
        if (inst.opcode == ptx::Opcode::RET && f.caller) {
            ptx::Instruction bra;
            bra.opcode = ptx::Opcode::BRA;
            bra.guard = inst.guard;
            bra.loc = inst.loc;
            bra.operands = {Operand::Label(f.end)};
            Push(bra);
            return Status::Ok();
        }
        for (const Operand &o : in.operands) {
            // any other use of a callee's parameter or of a call-site variable (its address, a
            // vector access) would name another function's symbols: refused, never miscompiled
            const ptx::SymbolRef *sym = o.kind == OperandKind::SYMBOL                                      ? &o.sym
                                        : o.kind == OperandKind::ADDRESS && o.addr.base == ptx::AddrBase::SYMBOL ? &o.addr.sym
                                                                                                                 : nullptr;
            if (sym == nullptr) continue;
            const bool call_site_var = sym->kind == ptx::SymbolKind::LOCAL && f.src->vars[sym->index].space == ptx::StateSpace::PARAM;
            const bool callee_param = f.caller && (sym->kind == ptx::SymbolKind::PARAM || sym->kind == ptx::SymbolKind::RET_PARAM);
            if (call_site_var || callee_param || (f.caller && sym->kind == ptx::SymbolKind::LOCAL))
                return Status::Unsupported(out_.name + ": " + f.src->name + " uses a call parameter other than by ld/st.param");
        }
        for (Operand &o : inst.operands) MapOperand(f, o);
        Push(inst);
        return Status::Ok();
    }

    Status Call(Frame &f, const ptx::Instruction &call, int depth) {
        // operands: results (SYMBOL)..., the callee (SYMBOL FUNCTION), arguments (SYMBOL)...
        const size_t nret = call.num_dests;
        if (call.operands.size() <= nret || call.operands[nret].kind != OperandKind::SYMBOL ||
            call.operands[nret].sym.kind != ptx::SymbolKind::FUNCTION)
            return Status::Unsupported(out_.name + ": indirect calls are not supported");
        if (call.guard.present) return Status::Unsupported(out_.name + ": guarded calls are not supported");
        const ptx::Function &callee = m_.functions[call.operands[nret].sym.index];
        if (!callee.has_body) return Status::Unsupported(out_.name + ": call of " + callee.name + ", which has no body in the module");
        Frame g;
        g.src = &callee;
        g.caller = &f;
        auto local_var = [&](const Operand &o, uint32_t *var) {
            if (o.kind != OperandKind::SYMBOL || o.sym.kind != ptx::SymbolKind::LOCAL) return false;
            *var = o.sym.index;
            return true;
        };
        for (size_t i = 0; i < nret; ++i) {
            uint32_t v;
            if (!local_var(call.operands[i], &v)) return Status::Unsupported(out_.name + ": a call's result is not a .param variable");
            g.ret_vars.push_back(v);
        }
        for (size_t i = nret + 1; i < call.operands.size(); ++i) {
            uint32_t v;
            if (!local_var(call.operands[i], &v)) return Status::Unsupported(out_.name + ": a call's argument is not a .param variable");
            g.param_vars.push_back(v);
        }
        if (g.param_vars.size() != callee.params.size() || g.ret_vars.size() != callee.ret_params.size())
            return Status::Unsupported(out_.name + ": call of " + callee.name + " with the wrong number of parameters");
        const std::string tag = std::to_string(++calls_);
        for (const ptx::Register &r : callee.regs) g.regs.push_back(NewReg(r.type, "r"));
        for (const ptx::Label &l : callee.labels) g.labels.push_back(out_.AddLabel(l.name + "_inl" + tag));
        g.end = out_.AddLabel(callee.name + "_end_inl" + tag);
        RNDN_RETURN_IF_ERROR(Copy(g, depth + 1));
        ptx::Statement s;
        s.kind = ptx::StatementKind::LABEL;
        s.id = g.end;
        out_.labels[g.end].stmt = (uint32_t)out_.body.size();
        out_.body.push_back(s);
        return Status::Ok();
    }

    const ptx::Module &m_;
    ptx::Function &out_;
    int calls_ = 0;
};

bool HasCalls(const ptx::Function &f) {
    for (const ptx::Statement &st : f.body)
        if (st.kind == ptx::StatementKind::INSTRUCTION && st.inst.opcode == ptx::Opcode::CALL) return true;
    return false;
}

}  // namespace

Expected<ptx::Function> InlineCalls(const ptx::Module &m, const ptx::Function &kernel) {
    ptx::Function out = kernel;
    if (!HasCalls(kernel)) return out;
    out.body.clear();
    Frame f;
    f.src = &kernel;
    for (size_t r = 0; r < kernel.regs.size(); ++r) f.regs.push_back((ptx::RegId)r);
    for (size_t l = 0; l < kernel.labels.size(); ++l) f.labels.push_back((ptx::LabelId)l);
    Inliner in(m, &out);
    RNDN_RETURN_IF_ERROR(in.Copy(f, 0));
    return out;
}

}  // namespace rndn::sasscomp
