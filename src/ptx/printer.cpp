// ptx::Module -> canonical PTX text.
#include <string>

#include "ptx/internal.h"
#include "ptx/ptx.h"

namespace rndn::ptx {
namespace {

const char *LinkageText(Linkage l) {
    switch (l) {
    case Linkage::VISIBLE: return ".visible ";
    case Linkage::EXTERN: return ".extern ";
    case Linkage::WEAK: return ".weak ";
    case Linkage::COMMON: return ".common ";
    default: return "";
    }
}

std::string SpaceText(StateSpace s) { return "." + std::string(ModifierToken(ModGroup::SPACE, static_cast<uint8_t>(s))); }

std::string SymbolName(const Module &m, const Function *f, SymbolRef s) {
    switch (s.kind) {
    case SymbolKind::GLOBAL: return s.index < m.globals.size() ? m.globals[s.index].name : "<bad-global>";
    case SymbolKind::FUNCTION: return s.index < m.functions.size() ? m.functions[s.index].name : "<bad-function>";
    case SymbolKind::LOCAL: return f && s.index < f->vars.size() ? f->vars[s.index].name : "<bad-local>";
    case SymbolKind::PARAM: return f && s.index < f->params.size() ? f->params[s.index].name : "<bad-param>";
    case SymbolKind::RET_PARAM: return f && s.index < f->ret_params.size() ? f->ret_params[s.index].name : "<bad-param>";
    default: return "<no-symbol>";
    }
}

std::string RegName(const Function &f, RegId r) { return r < f.regs.size() ? f.regs[r].name : "<bad-reg>"; }

void PrintVariable(std::string &o, const Variable &v) {
    o += LinkageText(v.linkage);
    o += SpaceText(v.space);
    if (v.is_ptr) {
        // kernel parameter: .param .u64 .ptr .global .align 8 name
        o += ' ';
        o += '.';
        o += TypeName(v.type);
        o += " .ptr";
        if (v.ptr_space != StateSpace::NONE) o += " " + SpaceText(v.ptr_space);
        if (v.ptr_align) o += " .align " + std::to_string(v.ptr_align);
    } else {
        if (v.align) o += " .align " + std::to_string(v.align);
        if (v.vec != VecWidth::NONE) o += " ." + std::string(ModifierToken(ModGroup::VEC, static_cast<uint8_t>(v.vec)));
        o += " .";
        o += TypeName(v.type);
    }
    o += ' ';
    o += v.name;
    for (uint64_t d : v.dims) {
        o += '[';
        if (d) o += std::to_string(d);
        o += ']';
    }
    if (v.has_init) {
        o += " = ";
        bool list = !v.dims.empty() || v.init.size() != 1;
        if (list) o += '{';
        for (size_t i = 0; i < v.init.size(); ++i) {
            if (i) o += ", ";
            const InitValue &iv = v.init[i];
            if (iv.is_symbol) o += iv.generic ? "generic(" + iv.symbol + ")" : iv.symbol;
            else o += FormatImmediate(iv.imm);
        }
        if (list) o += '}';
    }
}

void PrintParams(std::string &o, const std::vector<Variable> &ps, bool multiline) {
    o += '(';
    for (size_t i = 0; i < ps.size(); ++i) {
        if (multiline) o += "\n\t";
        PrintVariable(o, ps[i]);
        if (i + 1 < ps.size()) o += multiline ? "," : ", ";
    }
    if (multiline && !ps.empty()) o += '\n';
    o += ')';
}

const char *PerfName(PerfDirective k) {
    switch (k) {
    case PerfDirective::MAXNTID: return ".maxntid";
    case PerfDirective::REQNTID: return ".reqntid";
    case PerfDirective::MINNCTAPERSM: return ".minnctapersm";
    case PerfDirective::MAXNCTAPERSM: return ".maxnctapersm";
    case PerfDirective::MAXNREG: return ".maxnreg";
    }
    return ".unknown";
}

}  // namespace

std::string PrintOperand(const Module &m, const Function &f, const Operand &op) {
    std::string o;
    switch (op.kind) {
    case OperandKind::REG:
        if (op.negated) o += '!';
        o += RegName(f, op.reg);
        break;
    case OperandKind::IMM: o += FormatImmediate(op.imm); break;
    case OperandKind::SREG: o += SpecialRegName(op.sreg); break;
    case OperandKind::SYMBOL:
        o += SymbolName(m, &f, op.sym);
        if (op.offset) o += "+" + std::to_string(op.offset);
        break;
    case OperandKind::ADDRESS:
        o += '[';
        if (op.addr.base == AddrBase::REG) o += RegName(f, op.addr.reg);
        else if (op.addr.base == AddrBase::SYMBOL) o += SymbolName(m, &f, op.addr.sym);
        if (op.addr.base == AddrBase::ABSOLUTE) o += std::to_string(op.addr.offset);
        else if (op.addr.offset != 0) o += "+" + std::to_string(op.addr.offset);
        o += ']';
        break;
    case OperandKind::VECTOR:
        o += '{';
        for (size_t i = 0; i < op.elems.size(); ++i) {
            if (i) o += ", ";
            o += PrintOperand(m, f, op.elems[i]);
        }
        o += '}';
        break;
    case OperandKind::LABEL: o += op.label < f.labels.size() ? f.labels[op.label].name : "<bad-label>"; break;
    case OperandKind::SINK: o += '_'; break;
    default: o += "<none>"; break;
    }
    return o;
}

std::string PrintInstruction(const Module &m, const Function &f, const Instruction &in) {
    std::string o;
    if (in.guard.present) {
        o += '@';
        if (in.guard.negated) o += '!';
        o += RegName(f, in.guard.reg);
        o += ' ';
    }
    const OpcodeInfo &info = in.info();
    o += info.mnemonic;
    for (int g = 0; g < kMaxModGroups && info.groups[g] != ModGroup::NONE; ++g) {
        uint8_t v = in.mods.Get(info.groups[g]);
        if (v) {
            o += '.';
            o += ModifierToken(info.groups[g], v);
        }
    }
    if (in.type != Type::NONE) {
        o += '.';
        o += TypeName(in.type);
    }
    if (in.type2 != Type::NONE) {
        o += '.';
        o += TypeName(in.type2);
    }
    if (in.opcode == Opcode::CALL) {
        // call (rets), callee, (args);
        size_t nd = in.num_dests;
        size_t callee = nd;
        o += ' ';
        if (nd > 0) {
            o += '(';
            for (size_t i = 0; i < nd && i < in.operands.size(); ++i) {
                if (i) o += ", ";
                o += PrintOperand(m, f, in.operands[i]);
            }
            o += "), ";
        }
        if (callee < in.operands.size()) o += PrintOperand(m, f, in.operands[callee]);
        if (callee + 1 < in.operands.size()) {
            o += ", (";
            for (size_t i = callee + 1; i < in.operands.size(); ++i) {
                if (i > callee + 1) o += ", ";
                o += PrintOperand(m, f, in.operands[i]);
            }
            o += ')';
        }
        o += ';';
        return o;
    }
    for (size_t i = 0; i < in.operands.size(); ++i) {
        o += i == 0 ? " " : (i == 1 && in.num_dests == 2 ? "|" : ", ");
        o += PrintOperand(m, f, in.operands[i]);
    }
    o += ';';
    return o;
}

std::string Print(const Module &m) {
    std::string o;
    o += ".version " + std::to_string(m.version_major) + "." + std::to_string(m.version_minor) + "\n";
    o += ".target ";
    for (size_t i = 0; i < m.target.size(); ++i) {
        if (i) o += ", ";
        o += m.target[i];
    }
    o += "\n.address_size " + std::to_string(m.address_size) + "\n";
    for (const ModuleItem &item : m.order) {
        o += '\n';
        if (item.kind == ItemKind::GLOBAL) {
            if (item.index >= m.globals.size()) continue;
            PrintVariable(o, m.globals[item.index]);
            o += ";\n";
            continue;
        }
        if (item.index >= m.functions.size()) continue;
        const Function &f = m.functions[item.index];
        o += LinkageText(f.linkage);
        o += f.is_entry ? ".entry " : ".func ";
        if (!f.is_entry && !f.ret_params.empty()) {
            PrintParams(o, f.ret_params, false);
            o += ' ';
        }
        o += f.name;
        PrintParams(o, f.params, true);
        if (f.noreturn) o += "\n.noreturn";
        for (const Performance &p : f.perf) {
            o += '\n';
            o += PerfName(p.kind);
            for (size_t i = 0; i < p.values.size(); ++i) o += (i ? ", " : " ") + std::to_string(p.values[i]);
        }
        for (const std::string &pr : f.pragmas) o += "\n.pragma \"" + pr + "\";";
        if (!f.has_body) {
            o += ";\n";
            continue;
        }
        o += "\n{\n";
        for (const Statement &st : f.body) {
            switch (st.kind) {
            case StatementKind::INSTRUCTION: o += '\t' + PrintInstruction(m, f, st.inst) + '\n'; break;
            case StatementKind::LABEL: o += (st.id < f.labels.size() ? f.labels[st.id].name : "<bad-label>") + ":\n"; break;
            case StatementKind::REG_DECL: {
                if (st.id >= f.reg_decls.size()) break;
                const RegDecl &d = f.reg_decls[st.id];
                o += "\t.reg ." + std::string(TypeName(d.type)) + ' ' + d.name;
                if (d.count) o += '<' + std::to_string(d.count) + '>';
                o += ";\n";
                break;
            }
            case StatementKind::VAR_DECL:
                if (st.id >= f.vars.size()) break;
                o += '\t';
                PrintVariable(o, f.vars[st.id]);
                o += ";\n";
                break;
            case StatementKind::BLOCK_BEGIN: o += "\t{\n"; break;
            case StatementKind::BLOCK_END: o += "\t}\n"; break;
            case StatementKind::PRAGMA: o += "\t.pragma \"" + st.text + "\";\n"; break;
            }
        }
        o += "}\n";
    }
    return o;
}

}  // namespace rndn::ptx
