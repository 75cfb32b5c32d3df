// Structural and type checks over a ptx::Module (see Verify in ptx.h).
#include <string>
#include <vector>

#include "ptx/internal.h"
#include "ptx/ptx.h"

namespace rndn::ptx {
namespace {

constexpr size_t kMaxErrors = 50;

class Verifier {
public:
    explicit Verifier(const Module &m) : m_(m) {}

    Status Run() {
        if (m_.target.empty()) Error({}, "module has no .target");
        if (m_.address_size != 32 && m_.address_size != 64) Error({}, ".address_size must be 32 or 64");
        for (const Variable &g : m_.globals) CheckVariable(g, true);
        for (const Function &f : m_.functions) CheckFunction(f);
        if (errors_.empty()) return Status::Ok();
        std::string msg;
        for (size_t i = 0; i < errors_.size(); ++i) {
            if (i) msg += '\n';
            msg += errors_[i];
        }
        if (dropped_) msg += "\n(" + std::to_string(dropped_) + " more errors)";
        return Status::ParseError(msg);
    }

private:
    void Error(SourceLoc loc, const std::string &msg) {
        if (errors_.size() >= kMaxErrors) {
            ++dropped_;
            return;
        }
        std::string where = fn_ ? " (in '" + fn_->name + "')" : "";
        errors_.push_back(LocPrefix(m_.filename, loc) + msg + where);
    }

    void CheckVariable(const Variable &v, bool module_scope) {
        if (v.type == Type::NONE) Error(v.loc, "variable '" + v.name + "' has no type");
        if (v.type == Type::PRED && v.space != StateSpace::REG) Error(v.loc, "variable '" + v.name + "' of type .pred in memory");
        bool ok_space = module_scope ? (v.space == StateSpace::GLOBAL || v.space == StateSpace::CONST ||
                                        v.space == StateSpace::SHARED || v.space == StateSpace::LOCAL)
                                     : (v.space == StateSpace::LOCAL || v.space == StateSpace::SHARED ||
                                        v.space == StateSpace::PARAM || v.space == StateSpace::CONST ||
                                        v.space == StateSpace::GLOBAL);
        if (!ok_space) Error(v.loc, "variable '" + v.name + "' in an invalid state space");
        if (!v.dims.empty() && v.dims[0] == 0 && !(v.linkage == Linkage::EXTERN && (v.space == StateSpace::SHARED)) &&
            !v.has_init)
            Error(v.loc, "unsized array '" + v.name + "' must be .extern .shared or initialised");
        if (v.has_init) {
            if (v.space != StateSpace::GLOBAL && v.space != StateSpace::CONST)
                Error(v.loc, "initialiser on '" + v.name + "' outside .global/.const");
            uint64_t elems = VecLanes(v.vec);
            for (uint64_t d : v.dims) elems *= d;
            if (!v.dims.empty() && v.dims[0] != 0 && v.init.size() > elems)
                Error(v.loc, "too many initialisers for '" + v.name + "'");
            for (const InitValue &iv : v.init)
                if (iv.is_symbol && m_.FindGlobal(iv.symbol) == kNoId && m_.FindFunction(iv.symbol) == kNoId)
                    Error(v.loc, "initialiser of '" + v.name + "' names unknown symbol '" + iv.symbol + "'");
        }
    }

    void CheckFunction(const Function &f) {
        fn_ = &f;
        if (f.is_entry && !f.ret_params.empty()) Error(f.loc, "kernel '" + f.name + "' has return parameters");
        for (const Variable &p : f.params) {
            if (p.space != StateSpace::PARAM) Error(p.loc, "parameter '" + p.name + "' not in .param space");
            if (p.type == Type::NONE || p.type == Type::PRED) Error(p.loc, "parameter '" + p.name + "' has an invalid type");
        }
        for (const Variable &v : f.vars) CheckVariable(v, false);
        for (const RegDecl &d : f.reg_decls)
            if (d.type == Type::NONE) Error(d.loc, "register declaration without a type");
        for (const Label &l : f.labels)
            if (l.stmt == kNoId) Error(l.first_use, "undefined label '" + l.name + "'");
        int depth = 0;
        for (const Statement &st : f.body) {
            if (st.kind == StatementKind::BLOCK_BEGIN) ++depth;
            if (st.kind == StatementKind::BLOCK_END && --depth < 0) Error(st.loc, "unbalanced '}'");
            if (st.kind == StatementKind::LABEL && (st.id >= f.labels.size() || f.labels[st.id].stmt == kNoId))
                Error(st.loc, "label statement with an invalid label id");
            if (st.kind == StatementKind::INSTRUCTION) CheckInstruction(f, st.inst);
        }
        if (depth != 0) Error(f.loc, "unbalanced '{'");
        if (!f.has_body && !f.body.empty()) Error(f.loc, "prototype with a body");
        fn_ = nullptr;
    }

    // ---- registers and types ----
    const Register *RegOf(const Function &f, RegId r, SourceLoc loc) {
        if (r >= f.regs.size()) {
            Error(loc, "register id out of range");
            return nullptr;
        }
        const Register &reg = f.regs[r];
        if (reg.decl == kNoId) {
            Error(loc, "use of undeclared register or symbol '" + reg.name + "'");
            return nullptr;
        }
        return &reg;
    }

    // Is a register of type `have` usable where an operand of type `want` is expected?
    static bool Compatible(Type want, Type have, bool widen) {
        if (want == Type::NONE) return true;
        TypeKind wk = TypeKindOf(want), hk = TypeKindOf(have);
        if (wk == TypeKind::PRED || hk == TypeKind::PRED) return wk == hk;
        uint32_t wb = TypeBits(want), hb = TypeBits(have);
        if (wb == hb) {
            if (wk == TypeKind::FLOAT) return hk == TypeKind::FLOAT ? want == have || hb == 16 : hk == TypeKind::BIT;
            if (hk == TypeKind::FLOAT) return wk == TypeKind::BIT;
            return true;  // bit/int of the same size
        }
        // ld/st/cvt: integer (or bit) values of a narrow type may live in wider integer registers;
        // 8-bit types always need at least a 16-bit register.
        // ld/st also move .f32 data through a wider bit/integer register (ptxas accepts it).
        if (widen && hb > wb && (hk != TypeKind::FLOAT || wk == TypeKind::BIT)) return true;
        if (widen && wk == TypeKind::FLOAT && wb == 16 && hb > 16 && hk != TypeKind::FLOAT) return true;
        return false;
    }

    static Type Doubled(Type t) {
        switch (t) {
        case Type::U16: return Type::U32;
        case Type::U32: return Type::U64;
        case Type::S16: return Type::S32;
        case Type::S32: return Type::S64;
        case Type::B16: return Type::B32;
        case Type::B32: return Type::B64;
        default: return t;
        }
    }

    void CheckValue(const Function &f, const Operand &op, Type want, bool widen, bool is_dest, SourceLoc loc, int idx) {
        std::string which = "operand " + std::to_string(idx + 1);
        switch (op.kind) {
        case OperandKind::REG: {
            const Register *r = RegOf(f, op.reg, loc);
            if (!r) return;
            if (!Compatible(want, r->type, widen))
                Error(loc, which + ": register '" + r->name + "' of type ." + std::string(TypeName(r->type)) +
                               " where ." + std::string(TypeName(want)) + " is expected");
            if (op.negated && r->type != Type::PRED) Error(loc, which + ": '!' on a non-predicate register");
            return;
        }
        case OperandKind::VECTOR:
            for (const Operand &e : op.elems) {
                if (e.kind == OperandKind::VECTOR) {
                    Error(loc, which + ": nested vector");
                    continue;
                }
                CheckValue(f, e, want, widen, is_dest, loc, idx);
            }
            return;
        case OperandKind::SINK:
            if (!is_dest) Error(loc, which + ": '_' used as a source");
            return;
        case OperandKind::IMM:
            if (is_dest) Error(loc, which + ": constant used as a destination");
            else if (want == Type::PRED && op.imm.kind != ImmKind::INT)
                Error(loc, which + ": floating-point constant where a predicate is expected");
            else if (TypeKindOf(want) == TypeKind::FLOAT && op.imm.kind == ImmKind::INT)
                Error(loc, which + ": integer constant where ." + std::string(TypeName(want)) + " is expected (write 0f/0d)");
            else if ((TypeKindOf(want) == TypeKind::UINT || TypeKindOf(want) == TypeKind::SINT) && op.imm.kind != ImmKind::INT)
                Error(loc, which + ": floating-point constant where ." + std::string(TypeName(want)) + " is expected");
            else if (TypeKindOf(want) == TypeKind::BIT && op.imm.kind == ImmKind::F64 && TypeBits(want) != 64)
                Error(loc, which + ": 64-bit floating-point constant where ." + std::string(TypeName(want)) + " is expected");
            return;
        case OperandKind::SREG:
            // ptxas accepts special registers only as the source of mov (same size) and cvt.
            if (is_dest) Error(loc, which + ": special register used as a destination");
            else if (cur_opcode_ != Opcode::MOV && cur_opcode_ != Opcode::CVT)
                Error(loc, which + ": special register " + std::string(SpecialRegName(op.sreg)) + " outside mov/cvt");
            else if (!Compatible(want, SpecialRegType(op.sreg), false))
                Error(loc, which + ": special register " + std::string(SpecialRegName(op.sreg)) + " where ." +
                               std::string(TypeName(want)) + " is expected");
            return;
        case OperandKind::SYMBOL:
            if (is_dest) Error(loc, which + ": symbol used as a destination");
            else CheckSymbol(f, op.sym, loc);
            return;
        case OperandKind::ADDRESS: Error(loc, which + ": memory operand where a value is expected"); return;
        case OperandKind::LABEL: Error(loc, which + ": label where a value is expected"); return;
        default: Error(loc, which + ": missing operand"); return;
        }
    }

    void CheckSymbol(const Function &f, SymbolRef s, SourceLoc loc) {
        size_t n = 0;
        switch (s.kind) {
        case SymbolKind::GLOBAL: n = m_.globals.size(); break;
        case SymbolKind::FUNCTION: n = m_.functions.size(); break;
        case SymbolKind::LOCAL: n = f.vars.size(); break;
        case SymbolKind::PARAM: n = f.params.size(); break;
        case SymbolKind::RET_PARAM: n = f.ret_params.size(); break;
        default: break;
        }
        if (s.index >= n) Error(loc, "unresolved symbol reference");
    }

    StateSpace SymbolSpace(const Function &f, SymbolRef s) {
        switch (s.kind) {
        case SymbolKind::GLOBAL: return s.index < m_.globals.size() ? m_.globals[s.index].space : StateSpace::NONE;
        case SymbolKind::LOCAL: return s.index < f.vars.size() ? f.vars[s.index].space : StateSpace::NONE;
        case SymbolKind::PARAM:
        case SymbolKind::RET_PARAM: return StateSpace::PARAM;
        default: return StateSpace::NONE;
        }
    }

    static bool SameSpace(StateSpace a, StateSpace b) {
        auto norm = [](StateSpace s) {
            if (s == StateSpace::SHARED_CTA) return StateSpace::SHARED;
            if (s == StateSpace::PARAM_ENTRY || s == StateSpace::PARAM_FUNC) return StateSpace::PARAM;
            return s;
        };
        return norm(a) == norm(b);
    }

    void CheckAddress(const Function &f, const Instruction &in, const Operand &op, SourceLoc loc, int idx) {
        std::string which = "operand " + std::to_string(idx + 1);
        if (op.kind != OperandKind::ADDRESS) {
            Error(loc, which + ": expected a memory operand [..]");
            return;
        }
        const Address &a = op.addr;
        if (a.base == AddrBase::REG) {
            const Register *r = RegOf(f, a.reg, loc);
            if (r && !(TypeBits(r->type) == 64 || TypeBits(r->type) == 32) ) Error(loc, which + ": address register '" + r->name + "' is not 32/64-bit");
            if (r && TypeKindOf(r->type) == TypeKind::FLOAT) Error(loc, which + ": address register '" + r->name + "' is a float register");
            StateSpace sp = in.mods.space;
            bool window = sp == StateSpace::SHARED || sp == StateSpace::SHARED_CTA || sp == StateSpace::LOCAL ||
                          sp == StateSpace::CONST || sp == StateSpace::PARAM;
            if (r && TypeBits(r->type) != m_.address_size && !window)
                Error(loc, which + ": " + std::to_string(TypeBits(r->type)) + "-bit address register '" + r->name +
                               "' for generic/.global memory in a " + std::to_string(m_.address_size) + "-bit module");
        } else if (a.base == AddrBase::SYMBOL) {
            CheckSymbol(f, a.sym, loc);
            StateSpace sp = SymbolSpace(f, a.sym);
            if (a.sym.kind == SymbolKind::FUNCTION) Error(loc, which + ": function used as a memory operand");
            else if (in.mods.space != StateSpace::NONE && sp != StateSpace::NONE && !SameSpace(sp, in.mods.space))
                Error(loc, which + ": symbol in ." + std::string(ModifierToken(ModGroup::SPACE, static_cast<uint8_t>(sp))) +
                               " accessed with ." +
                               std::string(ModifierToken(ModGroup::SPACE, static_cast<uint8_t>(in.mods.space))));
            else if (in.mods.space == StateSpace::NONE && sp == StateSpace::PARAM)
                Error(loc, which + ": parameter accessed without .param");
        }
    }

    void CheckInstruction(const Function &f, const Instruction &in) {
        SourceLoc loc = in.loc;
        if (in.opcode == Opcode::NONE || static_cast<size_t>(in.opcode) >= static_cast<size_t>(Opcode::COUNT)) {
            Error(loc, "invalid opcode");
            return;
        }
        const OpcodeInfo &info = in.info();
        std::string mn(info.mnemonic);
        cur_opcode_ = in.opcode;
        // Guard
        if (in.guard.present) {
            const Register *g = RegOf(f, in.guard.reg, loc);
            if (g && g->type != Type::PRED) Error(loc, "guard '" + g->name + "' is not a predicate register");
        }
        // Types
        if (info.types == 0 && in.type != Type::NONE) Error(loc, "'" + mn + "' takes no type suffix");
        if (info.types != 0 && in.type == Type::NONE) Error(loc, "'" + mn + "' needs a type suffix");
        if (in.type != Type::NONE && info.types != 0 && (info.types & TypeBit(in.type)) == 0)
            Error(loc, "type ." + std::string(TypeName(in.type)) + " is not legal for '" + mn + "'");
        if (info.types2 == 0 && in.type2 != Type::NONE) Error(loc, "'" + mn + "' takes one type suffix");
        if (info.types2 != 0 && in.type2 == Type::NONE) Error(loc, "'" + mn + "' needs two type suffixes");
        if (in.type2 != Type::NONE && info.types2 != 0 && (info.types2 & TypeBit(in.type2)) == 0)
            Error(loc, "second type ." + std::string(TypeName(in.type2)) + " is not legal for '" + mn + "'");
        // Modifiers: only accepted groups may be set, with in-range values.
        for (size_t g = 1; g < static_cast<size_t>(ModGroup::COUNT); ++g) {
            ModGroup grp = static_cast<ModGroup>(g);
            uint8_t v = in.mods.Get(grp);
            if (v == 0) continue;
            bool allowed = false;
            for (int k = 0; k < kMaxModGroups && info.groups[k] != ModGroup::NONE; ++k)
                if (info.groups[k] == grp) allowed = true;
            if (!allowed) Error(loc, "modifier group " + std::string(ModGroupName(grp)) + " is not legal for '" + mn + "'");
            if (v >= ModGroupValueCount(grp)) Error(loc, "invalid modifier value for '" + mn + "'");
        }
        CheckSemantics(f, in, mn);
        if (in.opcode == Opcode::CALL) {
            CheckCall(f, in);
            return;
        }
        CheckOperands(f, in, mn);
    }

    // Opcode-specific rules that the tables cannot express.
    void CheckSemantics(const Function &, const Instruction &in, const std::string &mn) {
        SourceLoc loc = in.loc;
        const Modifiers &md = in.mods;
        TypeKind tk = TypeKindOf(in.type);
        bool is_float = tk == TypeKind::FLOAT;
        // Rules shared by every opcode (checked against ptxas by the mutation test).
        bool approx_f64 = (in.opcode == Opcode::RCP || in.opcode == Opcode::RSQRT) && md.approx && in.type == Type::F64;
        if (md.ftz && in.type != Type::F32 && in.type2 != Type::F32 && !approx_f64) Error(loc, ".ftz needs an .f32 operation");
        if ((md.evict != EvictHint::NONE || md.prefetch_size != PrefetchSize::NONE) && md.space != StateSpace::GLOBAL)
            Error(loc, "cache eviction/prefetch hints need .global");
        if (md.sem == MemSem::MMIO) Error(loc, "unsupported .mmio semantics");
        if (md.sat && in.type == Type::F64 && in.opcode != Opcode::CVT) Error(loc, ".sat is not legal on .f64 arithmetic");
        if ((md.approx || md.full) && !is_float) Error(loc, ".approx/.full need a floating-point type");
        if (md.rounding == Rounding::RNA) Error(loc, ".rna is only legal on cvt to .tf32 (unsupported)");
        if (md.relu && !((in.opcode == Opcode::CVT && (in.type == Type::F16 || in.type == Type::BF16)) ||
                         ((in.opcode == Opcode::MIN || in.opcode == Opcode::MAX) && in.type == Type::S32 && m_.SmVersion() >= 80)))
            Error(loc, ".relu is only legal on cvt to .f16/.bf16 and on min/max.s32 (sm_80+)");
        if (m_.SmVersion() < 90 && (md.space == StateSpace::SHARED_CLUSTER || md.scope == Scope::CLUSTER))
            Error(loc, "cluster state space/scope needs sm_90 or newer");
        switch (in.opcode) {
        case Opcode::ADD:
        case Opcode::SUB:
        case Opcode::MUL:
        case Opcode::MAD:
        case Opcode::DIV:
        case Opcode::FMA:
            if (!is_float && (md.rounding != Rounding::NONE || md.ftz)) Error(loc, "rounding/.ftz on integer '" + mn + "'");
            if (is_float && md.mul_mode != MulMode::NONE) Error(loc, ".lo/.hi/.wide on floating-point '" + mn + "'");
            if (!is_float && (in.opcode == Opcode::MUL || in.opcode == Opcode::MAD) && md.mul_mode == MulMode::NONE)
                Error(loc, "integer '" + mn + "' needs .lo, .hi or .wide");
            if (md.mul_mode == MulMode::WIDE && TypeBits(in.type) == 64) Error(loc, "'" + mn + ".wide' on a 64-bit type");
            if (md.rounding != Rounding::NONE && md.rounding > Rounding::RNA) Error(loc, "integer rounding mode on '" + mn + "'");
            if (in.opcode == Opcode::FMA && md.rounding == Rounding::NONE) Error(loc, "fma needs a rounding mode");
            if (in.opcode == Opcode::MAD && is_float && in.type == Type::F64 && md.rounding == Rounding::NONE)
                Error(loc, "mad.f64 needs a rounding mode");
            if (in.opcode == Opcode::DIV && is_float) {
                int modes = (md.approx ? 1 : 0) + (md.full ? 1 : 0) + (md.rounding != Rounding::NONE ? 1 : 0);
                if (modes != 1) Error(loc, "floating-point div needs exactly one of .approx, .full or a rounding mode");
            }
            if (md.cc && is_float) Error(loc, ".cc on floating-point '" + mn + "'");
            if (md.sat && !is_float) {
                bool ok = (in.opcode == Opcode::ADD || in.opcode == Opcode::SUB) ? in.type == Type::S32
                          : in.opcode == Opcode::MAD ? (in.type == Type::S32 && md.mul_mode == MulMode::HI)
                                                     : false;
                if (!ok) Error(loc, ".sat is not legal on integer '" + mn + "' of this form");
            }
            break;
        case Opcode::RCP:
        case Opcode::SQRT:
            if ((md.approx ? 1 : 0) + (md.rounding != Rounding::NONE ? 1 : 0) != 1)
                Error(loc, "'" + mn + "' needs exactly one of .approx or a rounding mode");
            if (md.rounding > Rounding::RP) Error(loc, "invalid rounding mode on '" + mn + "'");
            break;
        case Opcode::RSQRT:
        case Opcode::SIN:
        case Opcode::COS:
        case Opcode::LG2:
        case Opcode::EX2:
        case Opcode::TANH:
            if (!md.approx) Error(loc, "'" + mn + "' needs .approx");
            break;
        case Opcode::SETP:
        case Opcode::SET:
            if (md.cmp == CmpOp::NONE) Error(loc, "'" + mn + "' needs a comparison operator");
            if (md.bool_op == BoolOp::POPC) Error(loc, ".popc is not a predicate combiner");
            if (md.cmp >= CmpOp::EQU && TypeKindOf(in.opcode == Opcode::SET ? in.type2 : in.type) != TypeKind::FLOAT)
                Error(loc, "unordered comparison on a non-float type");
            {
                TypeKind ck = TypeKindOf(in.opcode == Opcode::SET ? in.type2 : in.type);
                if ((md.cmp >= CmpOp::LO && md.cmp <= CmpOp::HS) && ck != TypeKind::UINT)
                    Error(loc, "unsigned comparison (.lo/.ls/.hi/.hs) needs an unsigned type");
                if (ck == TypeKind::BIT && md.cmp != CmpOp::EQ && md.cmp != CmpOp::NE)
                    Error(loc, "bit-type comparison must be .eq or .ne");
            }
            break;
        case Opcode::CVT: {
            bool dst_f = TypeKindOf(in.type) == TypeKind::FLOAT, src_f = TypeKindOf(in.type2) == TypeKind::FLOAT;
            bool int_rnd = md.rounding >= Rounding::RNI;
            bool flt_rnd = md.rounding != Rounding::NONE && !int_rnd;
            if (int_rnd && !(src_f && (!dst_f || in.type == in.type2)))
                Error(loc, "integer rounding (.rni/.rzi/...) needs a float source and an integer or same-type destination");
            if (flt_rnd && !dst_f) Error(loc, "float rounding mode on a conversion to an integer");
            if (flt_rnd && dst_f && src_f && TypeBits(in.type) >= TypeBits(in.type2) && in.type != in.type2)
                Error(loc, "rounding mode on a widening float conversion");
            if (dst_f && !src_f && md.rounding == Rounding::NONE) Error(loc, "integer to float conversion needs a rounding mode");
            if (!dst_f && src_f && md.rounding == Rounding::NONE) Error(loc, "float to integer conversion needs a rounding mode");
            if (dst_f && src_f && TypeBits(in.type) < TypeBits(in.type2) && md.rounding == Rounding::NONE)
                Error(loc, "narrowing float conversion needs a rounding mode");
            if (md.sat && !dst_f && !src_f && TypeKindOf(in.type) == TypeKindOf(in.type2) && TypeBits(in.type) >= TypeBits(in.type2))
                Error(loc, ".sat on an integer conversion that cannot overflow");
            break;
        }
        case Opcode::LD:
        case Opcode::ST:
        case Opcode::LDU:
            if (md.nc && md.space != StateSpace::GLOBAL) Error(loc, ".nc requires .global");
            if ((md.sem == MemSem::RELAXED || md.sem == MemSem::ACQUIRE || md.sem == MemSem::RELEASE) && md.scope == Scope::NONE)
                Error(loc, "'" + mn + "' with memory ordering needs a scope");
            if (md.scope != Scope::NONE && !(md.sem == MemSem::RELAXED || md.sem == MemSem::ACQUIRE || md.sem == MemSem::RELEASE || md.sem == MemSem::MMIO))
                Error(loc, "scope on '" + mn + "' without .relaxed/.acquire/.release");
            if (in.opcode == Opcode::ST && (md.sem == MemSem::ACQUIRE || md.sem == MemSem::ACQ_REL)) Error(loc, "st cannot be .acquire");
            if (in.opcode == Opcode::LD && (md.sem == MemSem::RELEASE || md.sem == MemSem::ACQ_REL)) Error(loc, "ld cannot be .release");
            if (in.opcode == Opcode::LD && (md.cache == CacheOp::WB || md.cache == CacheOp::WT)) Error(loc, "store cache operator on ld");
            if (in.opcode == Opcode::ST && (md.cache == CacheOp::CA || md.cache == CacheOp::LU || md.cache == CacheOp::CV))
                Error(loc, "load cache operator on st");
            if (md.space == StateSpace::REG || md.space == StateSpace::SREG ||
                (md.space == StateSpace::PARAM_ENTRY && in.opcode != Opcode::LD))
                Error(loc, "invalid state space for '" + mn + "'");
            if (md.sem == MemSem::SC || md.sem == MemSem::ACQ_REL) Error(loc, "invalid memory ordering on '" + mn + "'");
            {
                bool shared_or_global = md.space == StateSpace::NONE || md.space == StateSpace::GLOBAL ||
                                        md.space == StateSpace::SHARED || md.space == StateSpace::SHARED_CTA ||
                                        md.space == StateSpace::SHARED_CLUSTER;
                if (md.sem == MemSem::VOLATILE && !shared_or_global && md.space != StateSpace::LOCAL)
                    Error(loc, ".volatile needs .global, .shared, .local or generic addressing");
                if ((md.sem == MemSem::RELAXED || md.sem == MemSem::ACQUIRE || md.sem == MemSem::RELEASE) && !shared_or_global)
                    Error(loc, "memory ordering needs .global, .shared or generic addressing");
            }
            if (in.opcode == Opcode::ST && md.space == StateSpace::CONST) Error(loc, "st to .const");
            break;
        case Opcode::ATOM:
        case Opcode::RED: {
            if (md.atom_op == AtomOp::NONE) Error(loc, "'" + mn + "' needs an operation");
            if (md.space != StateSpace::NONE && md.space != StateSpace::GLOBAL && md.space != StateSpace::SHARED &&
                md.space != StateSpace::SHARED_CTA && md.space != StateSpace::SHARED_CLUSTER)
                Error(loc, "'" + mn + "' only works on .global or .shared memory");
            bool bitop = md.atom_op == AtomOp::AND || md.atom_op == AtomOp::OR || md.atom_op == AtomOp::XOR ||
                         md.atom_op == AtomOp::EXCH || md.atom_op == AtomOp::CAS;
            if (bitop && TypeKindOf(in.type) != TypeKind::BIT) Error(loc, "bitwise/exch/cas atomics need a .bNN type");
            if (!bitop && md.atom_op != AtomOp::NONE && TypeKindOf(in.type) == TypeKind::BIT)
                Error(loc, "arithmetic atomics need a typed (.u/.s/.f) suffix");
            if ((md.atom_op == AtomOp::INC || md.atom_op == AtomOp::DEC) && in.type != Type::U32)
                Error(loc, "atom.inc/.dec need .u32");
            if (is_float && md.atom_op != AtomOp::ADD && md.atom_op != AtomOp::MIN && md.atom_op != AtomOp::MAX &&
                md.atom_op != AtomOp::EXCH)
                Error(loc, "floating-point atomics support add/min/max/exch only");
            if (in.opcode == Opcode::RED && md.atom_op == AtomOp::CAS) Error(loc, "red.cas does not exist");
            if (in.opcode == Opcode::RED && md.atom_op == AtomOp::EXCH) Error(loc, "red.exch does not exist");
            size_t want = in.opcode == Opcode::ATOM ? (md.atom_op == AtomOp::CAS ? 4u : 3u) : 2u;
            if (in.operands.size() != want) Error(loc, "'" + mn + "' with this operation takes " + std::to_string(want) + " operands");
            if (md.scope != Scope::NONE && md.sem == MemSem::NONE) { /* scope alone is legal: relaxed implied */ }
            if (md.sem == MemSem::WEAK || md.sem == MemSem::VOLATILE || md.sem == MemSem::MMIO || md.sem == MemSem::SC)
                Error(loc, "invalid memory ordering on '" + mn + "'");
            break;
        }
        case Opcode::SHFL:
            if (md.shfl_mode == ShflMode::NONE) Error(loc, "shfl needs .up/.down/.bfly/.idx");
            if (md.sync != (in.operands.size() == static_cast<size_t>(in.num_dests) + 4))
                Error(loc, md.sync ? "shfl.sync takes a membermask operand" : "shfl without .sync takes no membermask");
            break;
        case Opcode::VOTE:
            if (md.vote_mode == VoteMode::NONE) Error(loc, "vote needs .all/.any/.uni/.ballot");
            if ((md.vote_mode == VoteMode::BALLOT) != (in.type == Type::B32)) Error(loc, "vote.ballot needs .b32, other votes .pred");
            if (md.sync != (in.operands.size() == 3)) Error(loc, md.sync ? "vote.sync takes a membermask operand" : "vote without .sync takes no membermask");
            break;
        case Opcode::MATCH:
            if (md.vote_mode != VoteMode::ANY && md.vote_mode != VoteMode::ALL) Error(loc, "match needs .any or .all");
            if (!md.sync) Error(loc, "match needs .sync");
            if (md.vote_mode == VoteMode::ANY && in.num_dests == 2) Error(loc, "match.any has no predicate destination");
            break;
        case Opcode::REDUX:
            if (!md.sync) Error(loc, "redux needs .sync");
            if (md.atom_op == AtomOp::NONE || md.atom_op == AtomOp::INC || md.atom_op == AtomOp::DEC || md.atom_op == AtomOp::EXCH ||
                md.atom_op == AtomOp::CAS)
                Error(loc, "redux needs .add/.min/.max/.and/.or/.xor");
            break;
        case Opcode::BAR_RED:
        case Opcode::BARRIER_RED:
            if (md.bool_op == BoolOp::NONE || md.bool_op == BoolOp::XOR) Error(loc, "'" + mn + "' needs .popc, .and or .or");
            if ((md.bool_op == BoolOp::POPC) != (in.type == Type::U32)) Error(loc, "'" + mn + ".popc' needs .u32, .and/.or need .pred");
            break;
        case Opcode::TESTP:
            if (md.testp_op == TestpOp::NONE) Error(loc, "testp needs an operation");
            break;
        case Opcode::SHF:
            if (md.shf_dir == ShfDir::NONE || md.shf_mode == ShfMode::NONE) Error(loc, "shf needs .l/.r and .wrap/.clamp");
            break;
        case Opcode::CVTA:
            if (md.space != StateSpace::GLOBAL && md.space != StateSpace::SHARED && md.space != StateSpace::SHARED_CLUSTER &&
                md.space != StateSpace::LOCAL && md.space != StateSpace::CONST && md.space != StateSpace::PARAM &&
                md.space != StateSpace::PARAM_ENTRY && md.space != StateSpace::SHARED_CTA)
                Error(loc, "cvta needs .global, .shared, .local, .const or .param");
            break;
        case Opcode::FENCE:
            if (md.scope == Scope::NONE) Error(loc, "fence needs a scope");
            if (md.sem != MemSem::NONE && md.sem != MemSem::SC && md.sem != MemSem::ACQ_REL && md.sem != MemSem::ACQUIRE &&
                md.sem != MemSem::RELEASE)
                Error(loc, "invalid fence semantics");
            break;
        case Opcode::MEMBAR:
            if (md.membar_level == MembarLevel::NONE) Error(loc, "membar needs .cta, .gl or .sys");
            break;
        case Opcode::PREFETCH:
            if (md.level == CacheLevel::NONE) Error(loc, "prefetch needs .L1 or .L2");
            if (md.space != StateSpace::NONE && md.space != StateSpace::GLOBAL && md.space != StateSpace::LOCAL)
                Error(loc, "prefetch works on .global, .local or generic addresses");
            break;
        case Opcode::MIN:
        case Opcode::MAX:
            if (!is_float && (md.ftz || md.nan_mode || md.xorsign_abs)) Error(loc, "float modifier on integer '" + mn + "'");
            break;
        case Opcode::ABS:
        case Opcode::NEG:
            if (!is_float && md.ftz) Error(loc, ".ftz on integer '" + mn + "'");
            break;
        default: break;
        }
    }

    void CheckOperands(const Function &f, const Instruction &in, const std::string &mn) {
        SourceLoc loc = in.loc;
        const RoleList &rl = OperandRoles(in.opcode);
        const OpcodeInfo &info = in.info();
        // Assign operands to roles: required roles always, optional ones left to right.
        int required = 0, optional = 0;
        for (int i = 0; i < rl.count; ++i) (rl.roles[i].optional ? optional : required)++;
        int n = static_cast<int>(in.operands.size());
        if (n < required || n > required + optional) {
            Error(loc, "'" + mn + "' takes " + std::to_string(required) +
                           (optional ? "-" + std::to_string(required + optional) : std::string()) + " operands, got " +
                           std::to_string(n));
            return;
        }
        // Destination pair accounting.
        int pipe_pairs = (rl.count > 0 && rl.roles[0].pipe_next) ? 1 : 0;
        int dests_expected = 0;
        for (int i = 0; i < rl.count; ++i)
            if (IsDestRole(rl.roles[i].role) && !rl.roles[i].optional) ++dests_expected;
        if (in.num_dests < dests_expected || in.num_dests > dests_expected + pipe_pairs)
            Error(loc, "'" + mn + "' has a wrong number of destinations");
        int extra = n - required;
        int oi = 0;
        bool widen = (info.flags & OP_WIDEN) != 0;
        // Half-precision values live in exactly 16-bit registers.
        auto half = [](Type t) { return TypeKindOf(t) == TypeKind::FLOAT && TypeBits(t) == 16; };
        bool widen_d = widen && !half(in.type), widen_b = widen && !half(in.type2);
        bool wide = in.mods.mul_mode == MulMode::WIDE;
        for (int ri = 0; ri < rl.count && oi < n; ++ri) {
            const RoleSpec &rs = rl.roles[ri];
            if (rs.optional) {
                // The optional partner of a '|' pair is present exactly when num_dests says so.
                bool present;
                if (ri > 0 && rl.roles[ri - 1].pipe_next) present = in.num_dests == 2;
                else present = extra > 0;
                if (!present) continue;
                --extra;
            }
            const Operand &op = in.operands[oi];
            int idx = oi++;
            Type t = in.type;
            if (in.opcode == Opcode::MOV && op.kind == OperandKind::VECTOR) continue;  // pack/unpack: checked below
            switch (rs.role) {
            case 'd':
                if (in.opcode == Opcode::CVT && in.type == Type::F16) t = Type::B16;
                CheckValue(f, op, wide ? Doubled(t) : t, widen_d, true, loc, idx);
                break;
            case 'w': CheckValue(f, op, Type::U32, false, true, loc, idx); break;
            case 'p': CheckValue(f, op, Type::PRED, false, true, loc, idx); break;
            case 'a':
                if (in.opcode == Opcode::MOV && op.kind == OperandKind::SYMBOL) {
                    CheckSymbol(f, op.sym, loc);
                    // 64-bit generic/global addresses; 32-bit windows into .shared/.local/.const are legal too.
                    if (TypeBits(t) != m_.address_size && TypeBits(t) != 32)
                        Error(loc, "address of a symbol needs a 32- or " + std::to_string(m_.address_size) + "-bit type");
                    break;
                }
                if (in.opcode == Opcode::CVTA && op.kind == OperandKind::SYMBOL) {
                    CheckSymbol(f, op.sym, loc);
                    break;
                }
                CheckValue(f, op, t, widen_d, false, loc, idx);
                break;
            case 'c': CheckValue(f, op, wide ? Doubled(t) : t, false, false, loc, idx); break;
            case 'b': CheckValue(f, op, in.type2, widen_b, false, loc, idx); break;
            case 'q': CheckValue(f, op, Type::PRED, false, false, loc, idx); break;
            case 'u': CheckValue(f, op, Type::U32, false, false, loc, idx); break;
            case 's': CheckValue(f, op, Type::NONE, false, false, loc, idx); break;
            case 'm': CheckAddress(f, in, op, loc, idx); break;
            case 'l':
                if (op.kind != OperandKind::LABEL || op.label >= f.labels.size()) Error(loc, "operand " + std::to_string(idx + 1) + ": expected a label");
                break;
            default: Error(loc, "internal: unknown operand role"); break;
            }
        }
        // Opcode-specific operand rules.
        if (in.opcode == Opcode::SETP || in.opcode == Opcode::SET) {
            int sources = n - in.num_dests;
            if ((in.mods.bool_op != BoolOp::NONE) != (sources == 3))
                Error(loc, "'" + mn + "': a predicate combiner (.and/.or/.xor) goes with a third source predicate");
        }
        if (in.opcode == Opcode::LD || in.opcode == Opcode::ST || in.opcode == Opcode::LDU) {
            uint32_t lanes = VecLanes(in.mods.vec);
            const Operand &v = in.operands[in.opcode == Opcode::ST ? 1 : 0];
            if (lanes > 1 && (v.kind != OperandKind::VECTOR || v.elems.size() != lanes))
                Error(loc, "'" + mn + "' with ." + std::string(ModifierToken(ModGroup::VEC, static_cast<uint8_t>(in.mods.vec))) +
                               " needs a vector of " + std::to_string(lanes) + " elements");
            if (lanes == 1 && v.kind == OperandKind::VECTOR) Error(loc, "vector operand without .v2/.v4");
        }
        if (in.opcode == Opcode::MOV) {
            const Operand &d = in.operands[0];
            const Operand &s = in.operands.size() > 1 ? in.operands[1] : in.operands[0];
            if (d.kind == OperandKind::VECTOR || s.kind == OperandKind::VECTOR) {
                const Operand &v = d.kind == OperandKind::VECTOR ? d : s;
                if (TypeKindOf(in.type) != TypeKind::BIT) Error(loc, "mov pack/unpack needs a .bNN type");
                else if (!v.elems.empty() && TypeBits(in.type) % v.elems.size() != 0) Error(loc, "bad vector size for mov");
                // Element width = type width / element count: checked per element register.
                uint32_t ew = v.elems.empty() ? 0 : TypeBits(in.type) / static_cast<uint32_t>(v.elems.size());
                for (const Operand &e : v.elems)
                    if (e.kind == OperandKind::REG && e.reg < f.regs.size() && f.regs[e.reg].decl != kNoId &&
                        TypeBits(f.regs[e.reg].type) != ew)
                        Error(loc, "mov pack/unpack element '" + f.regs[e.reg].name + "' is not " + std::to_string(ew) + "-bit");
            }
        }
    }

    void CheckCall(const Function &f, const Instruction &in) {
        SourceLoc loc = in.loc;
        size_t nd = in.num_dests;
        if (nd >= in.operands.size() || in.operands[nd].kind != OperandKind::SYMBOL ||
            in.operands[nd].sym.kind != SymbolKind::FUNCTION || in.operands[nd].sym.index >= m_.functions.size()) {
            Error(loc, "call without a valid callee");
            return;
        }
        const Function &callee = m_.functions[in.operands[nd].sym.index];
        if (callee.is_entry) Error(loc, "call to kernel '" + callee.name + "'");
        if (nd != callee.ret_params.size())
            Error(loc, "call to '" + callee.name + "' with " + std::to_string(nd) + " return values, expected " +
                           std::to_string(callee.ret_params.size()));
        size_t nargs = in.operands.size() - nd - 1;
        if (nargs != callee.params.size())
            Error(loc, "call to '" + callee.name + "' with " + std::to_string(nargs) + " arguments, expected " +
                           std::to_string(callee.params.size()));
        for (size_t i = 0; i < in.operands.size(); ++i) {
            if (i == nd) continue;
            const Operand &op = in.operands[i];
            if (op.kind == OperandKind::SYMBOL) {
                CheckSymbol(f, op.sym, loc);
                if (op.sym.kind == SymbolKind::LOCAL && op.sym.index < f.vars.size() && f.vars[op.sym.index].space != StateSpace::PARAM)
                    Error(loc, "call operand '" + f.vars[op.sym.index].name + "' is not a .param variable");
            } else if (op.kind == OperandKind::REG) {
                RegOf(f, op.reg, loc);
            } else if (op.kind != OperandKind::IMM) {
                Error(loc, "invalid call operand");
            }
        }
    }

    const Module &m_;
    const Function *fn_ = nullptr;
    Opcode cur_opcode_ = Opcode::NONE;
    std::vector<std::string> errors_;
    size_t dropped_ = 0;
};

}  // namespace

Status Verify(const Module &m) { return Verifier(m).Run(); }

}  // namespace rndn::ptx
