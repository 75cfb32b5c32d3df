// Semantic passes: symbol resolution, type checking/inference, definite assignment.
#include <algorithm>
#include <map>
#include <set>

#include "horseir/internal.h"

namespace rndn::hir {

namespace {
// Rank order of §3.2, decimals between i64 and f32.
int Rank(TypeKind k) {
    switch (k) {
        case TypeKind::BOOL: return 0;
        case TypeKind::CHAR: return 1;
        case TypeKind::I8: return 2;
        case TypeKind::I16: return 3;
        case TypeKind::I32: return 4;
        case TypeKind::I64: return 5;
        case TypeKind::DEC64: return 6;
        case TypeKind::DEC128: return 7;
        case TypeKind::F32: return 8;
        case TypeKind::F64: return 9;
        case TypeKind::COMPLEX: return 10;
        default: return -1;
    }
}
}  // namespace

Type WidestType(const Type &a, const Type &b) {
    if (a.kind == b.kind && !IsDecimal(a.kind)) return a;
    if (IsDecimal(a.kind) && IsDecimal(b.kind)) {
        Type t = Type::Decimal(Rank(a.kind) >= Rank(b.kind) ? a.kind : b.kind, std::max(a.scale, b.scale));
        if (a.scale == Type::kUnknownScale || b.scale == Type::kUnknownScale) t.scale = Type::kUnknownScale;
        return t;
    }
    return Rank(a.kind) >= Rank(b.kind) ? a : b;
}

bool IsCastable(const Type &dest, const Type &src) {
    if (dest == src) return true;
    if (dest.kind == TypeKind::WILDCARD) return true;
    if (!IsBasic(dest.kind) || !IsBasic(src.kind)) return false;
    TypeKind d = dest.kind, s = src.kind;
    if (IsString(d) && IsString(s)) return true;
    if (IsDecimal(d) && (IsDecimal(s) || IsInteger(s))) return true;
    if (IsFloat(d) && IsDecimal(s)) return true;
    if (d == TypeKind::BOOL && IsInteger(s)) return true;
    if (IsInteger(d) && s == TypeKind::BOOL) return true;
    // Narrowing conversions are allowed; InterpretOptions::sql_casts decides what happens to
    // values out of the target's range.
    if (IsInteger(d) && IsInteger(s)) return true;
    if (IsInteger(d) && IsFloat(s)) return true;
    if (IsInteger(d) && IsDecimal(s)) return true;  // rounds half away from zero, range-checked
    if (IsFloat(d) && IsInteger(s)) return true;
    if (IsFloat(d) && IsFloat(s)) return true;
    return false;
}

namespace {

bool IsAssignable(const Type &target, const Type &src) {
    if (target.kind == TypeKind::WILDCARD) return true;
    if (src.kind == TypeKind::WILDCARD) return false;
    if (target.kind != src.kind) return false;
    switch (target.kind) {
        case TypeKind::DEC64:
        case TypeKind::DEC128: return target.scale == Type::kUnknownScale || target.scale == src.scale;
        case TypeKind::LIST: {
            if (target.params.size() == 1 && target.params[0].kind == TypeKind::WILDCARD) return true;
            if (src.params.size() == 1) {
                for (const auto &t : target.params)
                    if (!IsAssignable(t, src.params[0])) return false;
                return true;
            }
            if (target.params.size() != src.params.size()) return false;
            for (size_t i = 0; i < target.params.size(); ++i)
                if (!IsAssignable(target.params[i], src.params[i])) return false;
            return true;
        }
        case TypeKind::DICT:
        case TypeKind::ENUM:
            if (target.params.size() != src.params.size()) return false;
            for (size_t i = 0; i < target.params.size(); ++i)
                if (!IsAssignable(target.params[i], src.params[i])) return false;
            return true;
        default: return true;
    }
}

struct VarInfo {
    int slot;
    Type type;
};

class Checker {
public:
    explicit Checker(Program &p) : p_(p) {}

    Status Run() {
        // module table
        for (size_t m = 0; m < p_.modules.size(); ++m) {
            const Module &mod = p_.modules[m];
            if (mod.name == "Builtin" || mod.name == "GPU") return Error(mod.loc, "module '" + mod.name + "' is reserved");
            if (modules_.count(mod.name)) return Error(mod.loc, "module '" + mod.name + "' already defined");
            modules_[mod.name] = static_cast<int>(m);
            std::set<std::string> names;
            for (const auto &f : mod.functions) {
                if (!names.insert(f.name).second) return Error(f.loc, "'" + f.name + "' already defined in module " + mod.name);
            }
            for (const auto &g : mod.globals) {
                if (!names.insert(g.name).second) return Error(g.loc, "'" + g.name + "' already defined in module " + mod.name);
            }
        }
        // imports must name existing modules / functions
        for (auto &mod : p_.modules) {
            for (const auto &imp : mod.imports) {
                if (imp.module == "Builtin") {
                    for (const auto &n : imp.names)
                        if (LookupBuiltin(n) < 0) return Error(imp.loc, "unknown builtin '" + n + "' in import");
                    continue;
                }
                if (imp.module == "GPU") continue;
                auto it = modules_.find(imp.module);
                if (it == modules_.end()) return Error(imp.loc, "unknown module '" + imp.module + "'");
            }
        }
        // entry point
        int entries = 0;
        for (size_t m = 0; m < p_.modules.size(); ++m)
            for (size_t f = 0; f < p_.modules[m].functions.size(); ++f)
                if (p_.modules[m].functions[f].name == "main") {
                    ++entries;
                    p_.entry_module = static_cast<int>(m);
                    p_.entry_function = static_cast<int>(f);
                }
        if (entries == 0) return Status::UserError(sqlstate::kDatatypeMismatch, p_.filename + ": no entry point (function 'main')");
        if (entries > 1) return Status::UserError(sqlstate::kDatatypeMismatch, p_.filename + ": more than one entry point 'main'");
        // globals
        for (size_t m = 0; m < p_.modules.size(); ++m) {
            cur_module_ = static_cast<int>(m);
            for (auto &g : p_.modules[m].globals) {
                RNDN_RETURN_IF_ERROR(CheckOperand(g.init, /*allow_locals=*/false));
                if (!IsAssignable(g.type, g.init.type))
                    return Error(g.loc, "cannot assign " + TypeToString(g.init.type) + " to global '" + g.name + "' of type " + TypeToString(g.type));
                if (g.type.kind == TypeKind::WILDCARD) g.type = g.init.type;
            }
        }
        for (size_t m = 0; m < p_.modules.size(); ++m) {
            cur_module_ = static_cast<int>(m);
            for (auto &f : p_.modules[m].functions) RNDN_RETURN_IF_ERROR(CheckFunction(f));
        }
        p_.checked = true;
        return Status::Ok();
    }

private:
    Status Error(Loc loc, const std::string &m) const {
        return Status::UserError(sqlstate::kDatatypeMismatch, p_.filename + ":" + std::to_string(loc.line) + ":" + std::to_string(loc.col) + ": " + m);
    }

    // ---- functions
    Status CheckFunction(Function &f) {
        scopes_.clear();
        scopes_.emplace_back();
        next_slot_ = 0;
        assigned_.clear();
        func_ = &f;
        loop_depth_ = 0;
        for (auto &p : f.params) {
            if (scopes_.back().count(p.name)) return Error(p.loc, "'" + p.name + "' already defined");
            p.slot = next_slot_++;
            scopes_.back()[p.name] = VarInfo{p.slot, p.type};
            MarkAssigned(p.slot);
        }
        Flow flow;
        RNDN_RETURN_IF_ERROR(CheckBlock(f.body, flow));
        if (!f.returns.empty() && !flow.terminated) return Error(f.loc, "function '" + f.name + "' does not return a value on every path");
        f.num_slots = next_slot_;
        return Status::Ok();
    }

    struct Flow {
        bool terminated = false;  // no normal fall-through (return/break/continue on every path)
    };

    void MarkAssigned(int slot) {
        if (static_cast<int>(assigned_.size()) <= slot) assigned_.resize(static_cast<size_t>(slot) + 1, false);
        assigned_[static_cast<size_t>(slot)] = true;
    }
    bool IsAssigned(int slot) const { return slot < static_cast<int>(assigned_.size()) && assigned_[static_cast<size_t>(slot)]; }

    Status CheckBlock(std::vector<Stmt> &body, Flow &flow) {
        scopes_.emplace_back();
        for (auto &s : body) {
            if (flow.terminated) break;  // unreachable code is accepted unchecked
            RNDN_RETURN_IF_ERROR(CheckStmt(s, flow));
        }
        scopes_.pop_back();
        return Status::Ok();
    }

    const VarInfo *FindVar(const std::string &name) const {
        for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
            auto f = it->find(name);
            if (f != it->end()) return &f->second;
        }
        return nullptr;
    }

    Status Declare(Target &t) {
        if (IsKeywordName(t.name)) return Error(t.loc, "'" + t.name + "' is a keyword");
        if (scopes_.back().count(t.name)) return Error(t.loc, "'" + t.name + "' already defined");
        t.slot = next_slot_++;
        scopes_.back()[t.name] = VarInfo{t.slot, t.type};
        return Status::Ok();
    }
    static bool IsKeywordName(const std::string &) { return false; }  // the parser rejects keywords

    uint32_t statements_ = 0;  // checked so far (a cancel is polled every 256)
    Status CheckStmt(Stmt &s, Flow &flow) {
        if ((++statements_ & 0xff) == 0) PollCancelNow();
        switch (s.kind) {
            case Stmt::Kind::VAR:
                for (auto &t : s.targets) RNDN_RETURN_IF_ERROR(Declare(t));
                return Status::Ok();
            case Stmt::Kind::ASSIGN: {
                RNDN_RETURN_IF_ERROR(CheckExpr(s.expr));
                if (s.expr.types.size() != s.targets.size())
                    return Error(s.loc, "assignment of " + std::to_string(s.expr.types.size()) + " value(s) to " + std::to_string(s.targets.size()) + " target(s)");
                for (size_t i = 0; i < s.targets.size(); ++i) {
                    Target &t = s.targets[i];
                    const Type &src = s.expr.types[i];
                    if (t.declares) {
                        if (!IsAssignable(t.type, src))
                            return Error(t.loc, "cannot assign " + TypeToString(src) + " to '" + t.name + "' of type " + TypeToString(t.type));
                        RNDN_RETURN_IF_ERROR(Declare(t));
                        // infer '?' (and unknown decimal scales) from the right-hand side
                        VarInfo &vi = scopes_.back()[t.name];
                        if (t.type.kind == TypeKind::WILDCARD || (IsDecimal(t.type.kind) && t.type.scale == Type::kUnknownScale) ||
                            t.type.kind == TypeKind::LIST)
                            vi.type = src;
                        MarkAssigned(t.slot);
                        continue;
                    }
                    if (!t.module.empty()) return Error(t.loc, "cannot assign to a module-qualified name");
                    const VarInfo *vi = FindVar(t.name);
                    if (!vi) return Error(t.loc, "'" + t.name + "' is not declared");
                    if (!IsAssignable(vi->type, src))
                        return Error(t.loc, "cannot assign " + TypeToString(src) + " to '" + t.name + "' of type " + TypeToString(vi->type));
                    t.slot = vi->slot;
                    t.type = vi->type;
                    if (t.type.kind == TypeKind::WILDCARD) {
                        // a 'var x:?' takes the type of its first assignment
                        for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
                            auto f = it->find(t.name);
                            if (f != it->end()) {
                                f->second.type = src;
                                break;
                            }
                        }
                    }
                    MarkAssigned(t.slot);
                }
                return Status::Ok();
            }
            case Stmt::Kind::EXPR:
                RNDN_RETURN_IF_ERROR(CheckExpr(s.expr));
                if (!s.expr.types.empty()) return Error(s.loc, "the value of an expression statement must be assigned");
                return Status::Ok();
            case Stmt::Kind::RETURN: {
                if (s.operands.size() != func_->returns.size())
                    return Error(s.loc, "return of " + std::to_string(s.operands.size()) + " value(s) from a function returning " + std::to_string(func_->returns.size()));
                for (size_t i = 0; i < s.operands.size(); ++i) {
                    RNDN_RETURN_IF_ERROR(CheckOperand(s.operands[i], true));
                    if (!IsAssignable(func_->returns[i], s.operands[i].type))
                        return Error(s.operands[i].loc, "cannot return " + TypeToString(s.operands[i].type) + " as " + TypeToString(func_->returns[i]));
                }
                flow.terminated = true;
                return Status::Ok();
            }
            case Stmt::Kind::BREAK:
            case Stmt::Kind::CONTINUE:
                if (loop_depth_ == 0) return Error(s.loc, std::string(s.kind == Stmt::Kind::BREAK ? "break" : "continue") + " outside a loop");
                flow.terminated = true;
                return Status::Ok();
            case Stmt::Kind::IF: {
                RNDN_RETURN_IF_ERROR(CheckOperand(s.operands[0], true));
                if (s.operands[0].type.kind != TypeKind::BOOL) return Error(s.operands[0].loc, "condition must be bool");
                std::vector<bool> before = assigned_;
                Flow f1, f2;
                RNDN_RETURN_IF_ERROR(CheckBlock(s.body, f1));
                std::vector<bool> after_then = assigned_;
                assigned_ = before;
                if (s.has_else) RNDN_RETURN_IF_ERROR(CheckBlock(s.else_body, f2));
                std::vector<bool> after_else = assigned_;
                // merge: assigned on every path that falls through
                size_t n = std::max(after_then.size(), after_else.size());
                after_then.resize(n, false);
                after_else.resize(n, false);
                std::vector<bool> merged(n, false);
                for (size_t i = 0; i < n; ++i) {
                    if (f1.terminated && f2.terminated) merged[i] = after_then[i] || after_else[i];
                    else if (f1.terminated) merged[i] = after_else[i];
                    else if (f2.terminated) merged[i] = after_then[i];
                    else merged[i] = after_then[i] && after_else[i];
                }
                assigned_ = merged;
                flow.terminated = f1.terminated && f2.terminated && s.has_else;
                return Status::Ok();
            }
            case Stmt::Kind::WHILE:
            case Stmt::Kind::REPEAT: {
                RNDN_RETURN_IF_ERROR(CheckOperand(s.operands[0], true));
                TypeKind k = s.operands[0].type.kind;
                if (s.kind == Stmt::Kind::WHILE && k != TypeKind::BOOL) return Error(s.operands[0].loc, "condition must be bool");
                if (s.kind == Stmt::Kind::REPEAT && !IsInteger(k)) return Error(s.operands[0].loc, "repeat count must be an integer");
                std::vector<bool> before = assigned_;
                Flow f;
                ++loop_depth_;
                RNDN_RETURN_IF_ERROR(CheckBlock(s.body, f));
                --loop_depth_;
                assigned_ = before;  // the body may not run
                return Status::Ok();
            }
        }
        return Status::Ok();
    }

    // ---- function resolution
    Status ResolveFunc(Operand &o) {
        auto builtin = [&](const std::string &n) -> bool {
            int b = LookupBuiltin(n);
            if (b < 0) return false;
            o.resolved = FuncRef{"Builtin", n, b};
            return true;
        };
        auto user = [&](int m, const std::string &n) -> bool {
            for (const auto &f : p_.modules[static_cast<size_t>(m)].functions)
                if (f.name == n) {
                    o.resolved = FuncRef{p_.modules[static_cast<size_t>(m)].name, n, -1};
                    return true;
                }
            return false;
        };
        if (!o.module.empty()) {
            if (o.module == "Builtin") {
                if (builtin(o.name)) return Status::Ok();
                return Error(o.loc, "unknown builtin '@Builtin." + o.name + "'");
            }
            auto it = modules_.find(o.module);
            if (it == modules_.end()) return Error(o.loc, "unknown module '" + o.module + "'");
            if (user(it->second, o.name)) return Status::Ok();
            return Error(o.loc, "'" + o.name + "' is not a function of module " + o.module);
        }
        if (FindVar(o.name)) return Error(o.loc, "'" + o.name + "' is not a function");
        if (user(cur_module_, o.name)) return Status::Ok();
        const Module &mod = p_.modules[static_cast<size_t>(cur_module_)];
        for (auto it = mod.imports.rbegin(); it != mod.imports.rend(); ++it) {
            bool named = it->star || std::find(it->names.begin(), it->names.end(), o.name) != it->names.end();
            if (!named) continue;
            if (it->module == "Builtin") {
                if (builtin(o.name)) return Status::Ok();
                continue;
            }
            auto m = modules_.find(it->module);
            if (m != modules_.end() && user(m->second, o.name)) return Status::Ok();
        }
        return Error(o.loc, "unknown function '@" + o.name + "' (builtins need 'import Builtin.*;')");
    }

    const Function *FindUser(const FuncRef &f) const {
        auto it = modules_.find(f.module);
        if (it == modules_.end()) return nullptr;
        for (const auto &fn : p_.modules[static_cast<size_t>(it->second)].functions)
            if (fn.name == f.name) return &fn;
        return nullptr;
    }

    Expected<std::vector<Type>> Apply(const FuncRef &f, const std::vector<Type> &args, const std::vector<const FuncRef *> &funcs, Loc loc) {
        if (f.builtin >= 0) {
            const BuiltinInfo &b = GetBuiltin(f.builtin);
            int n = static_cast<int>(args.size());
            if (n < b.min_arity || (b.max_arity >= 0 && n > b.max_arity))
                return Error(loc, "@" + std::string(b.name) + " takes " + std::to_string(b.min_arity) +
                                      (b.max_arity == b.min_arity ? "" : b.max_arity < 0 ? " or more" : " to " + std::to_string(b.max_arity)) +
                                      " argument(s), " + std::to_string(n) + " given");
            for (size_t i = 0; i < args.size(); ++i) {
                if (args[i].kind == TypeKind::WILDCARD && f.builtin != static_cast<int>(Builtin::LEN) && f.builtin != static_cast<int>(Builtin::LIST) &&
                    f.builtin != static_cast<int>(Builtin::PRINT))
                    return Error(loc, "@" + std::string(b.name) + ": argument " + std::to_string(i + 1) + " has unknown type '?' (use check_cast)");
            }
            RuleCtx ctx{args, funcs, [&](const FuncRef &g, const std::vector<Type> &a) {
                            std::vector<const FuncRef *> none(a.size(), nullptr);
                            return Apply(g, a, none, loc);
                        }};
            auto r = b.rule(ctx);
            if (!r.ok()) return Error(loc, "@" + std::string(b.name) + ": " + r.status().message());
            return r;
        }
        const Function *fn = FindUser(f);
        if (!fn) return Error(loc, "unknown function '" + f.name + "'");
        if (fn->params.size() != args.size())
            return Error(loc, "@" + f.name + " takes " + std::to_string(fn->params.size()) + " argument(s), " + std::to_string(args.size()) + " given");
        for (size_t i = 0; i < args.size(); ++i)
            if (!IsAssignable(fn->params[i].type, args[i]))
                return Error(loc, "@" + f.name + ": argument " + std::to_string(i + 1) + " of type " + TypeToString(args[i]) + " does not match " + TypeToString(fn->params[i].type));
        return fn->returns;
    }

    Status CheckOperand(Operand &o, bool allow_locals) {
        switch (o.kind) {
            case Operand::Kind::LITERAL:
                o.type = o.literal.type;
                return Status::Ok();
            case Operand::Kind::FUNC:
                RNDN_RETURN_IF_ERROR(ResolveFunc(o));
                o.type = Type(TypeKind::FUNC);
                return Status::Ok();
            case Operand::Kind::NAME: {
                if (o.module.empty() && allow_locals) {
                    if (const VarInfo *vi = FindVar(o.name)) {
                        if (!IsAssigned(vi->slot)) return Error(o.loc, "'" + o.name + "' may be used before it is assigned");
                        o.slot = vi->slot;
                        o.type = vi->type;
                        return Status::Ok();
                    }
                }
                int m = cur_module_;
                if (!o.module.empty()) {
                    auto it = modules_.find(o.module);
                    if (it == modules_.end()) return Error(o.loc, "unknown module '" + o.module + "'");
                    m = it->second;
                }
                const Module &mod = p_.modules[static_cast<size_t>(m)];
                for (size_t g = 0; g < mod.globals.size(); ++g)
                    if (mod.globals[g].name == o.name) {
                        o.global = GlobalIndex(m, static_cast<int>(g));
                        o.type = mod.globals[g].type;
                        return Status::Ok();
                    }
                return Error(o.loc, "'" + o.name + "' is not declared");
            }
        }
        return Status::Ok();
    }
    static int GlobalIndex(int module, int g) { return module * 65536 + g; }

    Status CheckExpr(Expr &e) {
        switch (e.kind) {
            case Expr::Kind::OPERAND:
                RNDN_RETURN_IF_ERROR(CheckOperand(e.operand, true));
                e.types = {e.operand.type};
                return Status::Ok();
            case Expr::Kind::CAST: {
                RNDN_RETURN_IF_ERROR(CheckExpr(*e.inner));
                if (e.inner->types.size() != 1) return Error(e.loc, "check_cast needs an expression with one value");
                const Type &src = e.inner->types[0];
                if (src.kind != TypeKind::WILDCARD && !IsCastable(e.cast_type, src))
                    return Error(e.loc, "cannot cast " + TypeToString(src) + " to " + TypeToString(e.cast_type));
                e.types = {e.cast_type};
                return Status::Ok();
            }
            case Expr::Kind::CALL: {
                RNDN_RETURN_IF_ERROR(ResolveFunc(e.callee));
                std::vector<Type> types;
                std::vector<const FuncRef *> funcs;
                for (auto &a : e.args) {
                    RNDN_RETURN_IF_ERROR(CheckOperand(a, true));
                    types.push_back(a.type);
                    funcs.push_back(a.kind == Operand::Kind::FUNC ? &a.resolved : nullptr);
                }
                RNDN_ASSIGN_OR_RETURN(e.types, Apply(e.callee.resolved, types, funcs, e.loc));
                return Status::Ok();
            }
        }
        return Status::Ok();
    }

    Program &p_;
    std::map<std::string, int> modules_;
    int cur_module_ = 0;
    std::vector<std::map<std::string, VarInfo>> scopes_;
    int next_slot_ = 0;
    std::vector<bool> assigned_;
    Function *func_ = nullptr;
    int loop_depth_ = 0;
};

}  // namespace

Status CheckProgram(Program &program) {
    program.checked = false;
    Checker c(program);
    return c.Run();
}

}  // namespace rndn::hir
