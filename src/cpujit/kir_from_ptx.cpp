// rndn::ptx IR (src/ptx/ptx.h) -> cpujit's kernel IR.  Opcodes and modifiers are turned back
// into their tokens through the ptx tables (OpcodeName, ModifierToken, TypeName), so this file
// needs no per-opcode code.
#include <cstring>
#include <unordered_set>

#include "cpujit/kir.h"
#include "ptx/ptx.h"

namespace rndn::cpujit::kir {
namespace {

std::string Loc(const ptx::SourceLoc &l) { return std::to_string(l.line) + ":" + std::to_string(l.col); }

// "shared::cta" -> "shared"; "xorsign.abs" -> {"xorsign", "abs"}
void PushTokens(std::string_view tok, std::vector<std::string> &out) {
    size_t colons = tok.find("::");
    if (colons != std::string_view::npos) tok = tok.substr(0, colons);
    size_t start = 0;
    while (start <= tok.size()) {
        size_t dot = tok.find('.', start);
        std::string_view part = tok.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
        if (!part.empty()) out.emplace_back(part);
        if (dot == std::string_view::npos) break;
        start = dot + 1;
    }
}

std::string SpaceName(ptx::StateSpace s) {
    std::vector<std::string> t;
    PushTokens(ptx::ModifierToken(ptx::ModGroup::SPACE, static_cast<uint8_t>(s)), t);
    return t.empty() ? std::string() : t[0];
}

class Converter {
public:
    explicit Converter(const ptx::Module &m) : m_(m) {}

    Expected<Module> Run() {
        Module out;
        for (const ptx::Variable &v : m_.globals) {
            RNDN_ASSIGN_OR_RETURN(Var kv, ConvertVar(v));
            out.vars.push_back(std::move(kv));
        }
        for (const ptx::Function &f : m_.functions) {
            if (!f.has_body && !f.is_entry) continue;
            RNDN_ASSIGN_OR_RETURN(Function kf, ConvertFunction(f));
            out.functions.push_back(std::move(kf));
        }
        return out;
    }

private:
    const ptx::Module &m_;
    const ptx::Function *f_ = nullptr;
    std::vector<std::string> reg_names_;

    Expected<Var> ConvertVar(const ptx::Variable &v) {
        Var kv;
        kv.name = v.name;
        kv.space = SpaceName(v.space);
        kv.type = std::string(ptx::TypeName(v.type));
        uint32_t elem = std::max<uint32_t>(1, ptx::TypeBits(v.type) / 8) * ptx::VecLanes(v.vec);
        kv.align = v.align ? v.align : elem;
        kv.size = v.SizeBytes();
        kv.is_extern = v.linkage == ptx::Linkage::EXTERN;
        if (v.has_init) {
            uint32_t eb = std::max<uint32_t>(1, ptx::TypeBits(v.type) / 8);
            uint64_t size = kv.size ? kv.size : v.init.size() * eb;
            kv.size = size;
            kv.init.assign(size, 0);
            for (size_t k = 0; k < v.init.size() && (k + 1) * eb <= size; ++k) {
                const ptx::InitValue &iv = v.init[k];
                if (iv.is_symbol)
                    return Status::Unsupported(Loc(v.loc) + ": address initialisers are not supported (" + v.name + ")");
                uint64_t bits = iv.imm.bits;
                if (v.type == ptx::Type::F32 && iv.imm.kind != ptx::ImmKind::F32) {
                    float f = iv.imm.AsF32();
                    uint32_t b;
                    std::memcpy(&b, &f, 4);
                    bits = b;
                } else if (v.type == ptx::Type::F64 && iv.imm.kind != ptx::ImmKind::F64) {
                    double d = iv.imm.AsF64();
                    std::memcpy(&bits, &d, 8);
                }
                std::memcpy(kv.init.data() + k * eb, &bits, eb);
            }
        }
        return kv;
    }

    std::string SymbolName(const ptx::SymbolRef &s) {
        switch (s.kind) {
        case ptx::SymbolKind::GLOBAL: return s.index < m_.globals.size() ? m_.globals[s.index].name : "?";
        case ptx::SymbolKind::LOCAL: return s.index < f_->vars.size() ? f_->vars[s.index].name : "?";
        case ptx::SymbolKind::PARAM: return s.index < f_->params.size() ? f_->params[s.index].name : "?";
        case ptx::SymbolKind::RET_PARAM: return s.index < f_->ret_params.size() ? f_->ret_params[s.index].name : "?";
        case ptx::SymbolKind::FUNCTION: return s.index < m_.functions.size() ? m_.functions[s.index].name : "?";
        default: return "?";
        }
    }

    Operand Reg(ptx::RegId r, bool neg) {
        Operand o;
        o.kind = OperandKind::REG;
        o.name = r < reg_names_.size() ? reg_names_[r] : "%?";
        o.neg = neg;
        return o;
    }

    Operand ConvertOperand(const ptx::Operand &p) {
        Operand o;
        switch (p.kind) {
        case ptx::OperandKind::REG: return Reg(p.reg, p.negated);
        case ptx::OperandKind::IMM:
            o.kind = p.imm.kind == ptx::ImmKind::INT   ? OperandKind::IMM_INT
                     : p.imm.kind == ptx::ImmKind::F32 ? OperandKind::IMM_F32
                                                       : OperandKind::IMM_F64;
            o.imm = static_cast<int64_t>(p.imm.bits);
            return o;
        case ptx::OperandKind::SREG:
            o.kind = OperandKind::SPECIAL;
            o.name = std::string(ptx::SpecialRegName(p.sreg));
            return o;
        case ptx::OperandKind::SYMBOL:
            o.kind = OperandKind::SYMBOL;
            o.name = SymbolName(p.sym);
            o.imm = p.offset;
            return o;
        case ptx::OperandKind::ADDRESS:
            o.kind = OperandKind::ADDR;
            o.imm = p.addr.offset;
            if (p.addr.base == ptx::AddrBase::REG) {
                o.elems.push_back(Reg(p.addr.reg, false));
            } else if (p.addr.base == ptx::AddrBase::SYMBOL) {
                Operand s;
                s.kind = OperandKind::SYMBOL;
                s.name = SymbolName(p.addr.sym);
                o.elems.push_back(std::move(s));
            }
            return o;
        case ptx::OperandKind::VECTOR:
            o.kind = OperandKind::VEC;
            for (auto &e : p.elems) o.elems.push_back(ConvertOperand(e));
            return o;
        case ptx::OperandKind::LABEL:
            o.kind = OperandKind::SYMBOL;
            o.name = p.label < f_->labels.size() ? f_->labels[p.label].name : "?";
            return o;
        case ptx::OperandKind::SINK:
        default:
            o.kind = OperandKind::SYMBOL;
            o.name = "_";
            return o;
        }
    }

    Instr ConvertInstr(const ptx::Instruction &in) {
        Instr k;
        k.line = (int)in.loc.line;
        if (in.guard.present) {
            k.guard = in.guard.reg < reg_names_.size() ? reg_names_[in.guard.reg] : "%?";
            k.guard_neg = in.guard.negated;
        }
        std::vector<std::string> parts;
        PushTokens(ptx::OpcodeName(in.opcode), parts);
        if (parts.empty()) return k;
        k.op = parts[0];
        k.mods.assign(parts.begin() + 1, parts.end());
        const ptx::OpcodeInfo &info = in.info();
        for (int g = 0; g < ptx::kMaxModGroups && info.groups[g] != ptx::ModGroup::NONE; ++g) {
            uint8_t v = in.mods.Get(info.groups[g]);
            if (v) PushTokens(ptx::ModifierToken(info.groups[g], v), k.mods);
        }
        if (in.type != ptx::Type::NONE) k.mods.emplace_back(ptx::TypeName(in.type));
        if (in.type2 != ptx::Type::NONE) k.mods.emplace_back(ptx::TypeName(in.type2));
        if (in.opcode == ptx::Opcode::CALL) {  // [rets..., callee, args...] -> (rets), callee, (args)
            Operand rets, args;
            rets.kind = args.kind = OperandKind::VEC;
            for (size_t i = 0; i < in.operands.size(); ++i) {
                if (i < in.num_dests) rets.elems.push_back(ConvertOperand(in.operands[i]));
                else if (i == in.num_dests) k.args.push_back(ConvertOperand(in.operands[i]));
                else args.elems.push_back(ConvertOperand(in.operands[i]));
            }
            if (in.num_dests) k.args.insert(k.args.begin(), std::move(rets));
            k.args.push_back(std::move(args));
            return k;
        }
        size_t i = 0;
        if (in.num_dests == 2 && in.operands.size() >= 2) {
            Operand pair;
            pair.kind = OperandKind::PAIR;
            pair.elems.push_back(ConvertOperand(in.operands[0]));
            pair.elems.push_back(ConvertOperand(in.operands[1]));
            k.args.push_back(std::move(pair));
            i = 2;
        }
        for (; i < in.operands.size(); ++i) k.args.push_back(ConvertOperand(in.operands[i]));
        return k;
    }

    Expected<Function> ConvertFunction(const ptx::Function &f) {
        f_ = &f;
        Function k;
        k.name = f.name;
        k.is_entry = f.is_entry;
        k.line = (int)f.loc.line;
        for (auto &p : f.params) {
            RNDN_ASSIGN_OR_RETURN(Var v, ConvertVar(p));
            v.space = "param";
            k.params.push_back(std::move(v));
        }
        for (auto &p : f.ret_params) {
            RNDN_ASSIGN_OR_RETURN(Var v, ConvertVar(p));
            v.space = "param";
            k.returns.push_back(std::move(v));
        }
        // registers: names made unique (inner-scope registers may reuse a name)
        reg_names_.clear();
        std::unordered_set<std::string> seen;
        for (size_t r = 0; r < f.regs.size(); ++r) {
            std::string name = f.regs[r].name;
            if (f.regs[r].decl == ptx::kNoId)
                return Status::ParseError(Loc(f.loc) + ": " + f.name + ": undeclared register " + name);
            if (!seen.insert(name).second) name += "$" + std::to_string(r);
            reg_names_.push_back(name);
            k.regs.push_back({name, std::string(ptx::TypeName(f.regs[r].type))});
        }
        for (auto &v : f.vars) {
            RNDN_ASSIGN_OR_RETURN(Var kv, ConvertVar(v));
            k.vars.push_back(std::move(kv));
        }
        for (const ptx::Statement &st : f.body) {
            if (st.kind == ptx::StatementKind::LABEL) {
                Instr l;
                l.label = st.id < f.labels.size() ? f.labels[st.id].name : "?";
                l.line = (int)st.loc.line;
                k.body.push_back(std::move(l));
            } else if (st.kind == ptx::StatementKind::INSTRUCTION) {
                k.body.push_back(ConvertInstr(st.inst));
            }
        }
        return k;
    }
};

}  // namespace

Expected<Module> FromPtx(const ptx::Module &m) {
    Converter c(m);
    return c.Run();
}

}  // namespace rndn::cpujit::kir
