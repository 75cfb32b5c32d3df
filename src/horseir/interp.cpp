// The reference interpreter: walks statements; every builtin call runs a whole-column kernel
// from the builtins.def table.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>

#include "horseir/internal.h"
#include "horseir/payload_pool.h"

namespace rndn::hir {

namespace {

// The poller of the long work running on this thread (PollCancelNow): set by CancelPollScope
// (Interp::Call installs the run's should_cancel around every kernel).
thread_local const std::function<bool()> *t_cancel_poller = nullptr;

int64_t ValueBytes(const Value &v) {
    switch (v.kind()) {
        case ValueKind::VECTOR: {
            const Vector &x = v.vector();
            return static_cast<int64_t>(x.bytes.size() + x.offsets.size() * 8) + x.length * ElementSize(x.type.kind);
        }
        case ValueKind::LIST: {
            const List &l = v.list();
            if (l.bytes_memo >= 0) return l.bytes_memo;
            int64_t s = 0;
            for (const auto &c : l.cells) s += ValueBytes(c);
            l.bytes_memo = s;
            return s;
        }
        case ValueKind::DICT: return ValueBytes(v.dict().keys) + ValueBytes(v.dict().values);
        case ValueKind::ENUM: return v.enumeration().indexes->length * 8;
        default: return 0;  // tables from the registry are not counted
    }
}

}  // namespace

class Interp {
public:
    Interp(const Program &p, DataRegistry &d, const InterpretOptions &o) : p_(p), data_(d), opts_(o) {
        const char *prof = std::getenv("RNDN_HIR_PROFILE");
        profile_ = prof != nullptr && *prof != '\0' && *prof != '0';
        for (size_t m = 0; m < p.modules.size(); ++m) module_index_[p.modules[m].name] = static_cast<int>(m);
    }

    Expected<Value> Run(const std::vector<Value> &entry_args = {}) {
        if (!p_.checked || p_.entry_module < 0) return Status::Internal("Interpret: the program was not checked (call CheckProgram)");
        // globals
        for (size_t m = 0; m < p_.modules.size(); ++m)
            for (size_t g = 0; g < p_.modules[m].globals.size(); ++g) {
                std::vector<Value> none;
                RNDN_ASSIGN_OR_RETURN(Value v, EvalOperand(p_.modules[m].globals[g].init, none));
                globals_[static_cast<int>(m) * 65536 + static_cast<int>(g)] = v;
            }
        const Function &main = p_.modules[static_cast<size_t>(p_.entry_module)].functions[static_cast<size_t>(p_.entry_function)];
        if (entry_args.size() != main.params.size())
            return Status::UserError(sqlstate::kInvalidParameter, "main takes " + std::to_string(main.params.size()) + " parameter(s), " +
                                                                      std::to_string(entry_args.size()) + " given");
        for (size_t i = 0; i < entry_args.size(); ++i) {
            Type have = entry_args[i].type();
            const Type &want = main.params[i].type;
            if (want.kind != TypeKind::WILDCARD && have.kind != want.kind)
                return Status::UserError(sqlstate::kDatatypeMismatch, "parameter " + main.params[i].name + " of main is " + TypeToString(want) +
                                                                          ", given " + TypeToString(have));
        }
        RNDN_ASSIGN_OR_RETURN(auto results, CallUser(main, entry_args));
        if (results.empty()) return Value();
        return results[0];
    }

    Expected<std::vector<Value>> Call(const FuncRef &f, const std::vector<Value> &args) {
        if (opts_.should_cancel && opts_.should_cancel()) return Status::Cancelled();
        if (f.builtin >= 0) {
            const BuiltinInfo &b = GetBuiltin(f.builtin);
            int n = static_cast<int>(args.size());
            if (n < b.min_arity || (b.max_arity >= 0 && n > b.max_arity))
                return TypeError(std::string("@") + b.name + ": wrong number of arguments");
            if (!b.kernel) return Status::Unsupported(std::string("@") + b.name + " is not implemented by the interpreter");
            KernelCtx ctx;
            ctx.interp = this;
            ctx.data = &data_;
            ctx.options = &opts_;
            ctx.call = [this](const FuncRef &g, const std::vector<Value> &a) { return Call(g, a); };
            Expected<Value> r = Status::Cancelled();
            try {
                CancelPollScope poller(&opts_.should_cancel);
                r = b.kernel(ctx, args);
            } catch (const CancelUnwind &) {
                return Status::Cancelled();
            }
            if (!r.ok()) return r.status();
            return std::vector<Value>{std::move(r.value())};
        }
        auto it = module_index_.find(f.module);
        if (it == module_index_.end()) return Status::Internal("unknown module " + f.module);
        for (const auto &fn : p_.modules[static_cast<size_t>(it->second)].functions)
            if (fn.name == f.name) return CallUser(fn, args);
        return Status::Internal("unknown function " + f.name);
    }

    Expected<std::vector<Value>> EvaluateOne(const Expr &e, const std::vector<Value> &frame) { return EvalExpr(e, frame); }

private:
    enum class Flow { NORMAL, RETURN, BREAK, CONTINUE };

    Expected<std::vector<Value>> CallUser(const Function &fn, const std::vector<Value> &args) {
        if (++depth_ > 1000) return Status::UserError(sqlstate::kInvalidParameter, "stack depth limit exceeded");
        std::vector<Value> frame(static_cast<size_t>(fn.num_slots));
        if (args.size() != fn.params.size()) return TypeError("@" + fn.name + ": wrong number of arguments");
        for (size_t i = 0; i < args.size(); ++i) frame[static_cast<size_t>(fn.params[i].slot)] = args[i];
        std::vector<Value> ret;
        // Top-level statements run one by one; after each, the variables it used for the last
        // time are dropped, so that a column-sized intermediate does not outlive its last reader
        // (its payload then goes back to the allocator's pool for the next result).
        const std::vector<std::vector<int>> &dead_after = DeadAfter(fn);
        for (size_t k = 0; k < fn.body.size(); ++k) {
            const auto t0 = profile_ ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point();
            RNDN_ASSIGN_OR_RETURN(Flow f, ExecStmt(fn.body[k], frame, ret));
            if (profile_)
                std::fprintf(stderr, "hir-profile %s:%d %.3f ms\n", fn.name.c_str(), fn.body[k].loc.line,
                             std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
            if (f == Flow::RETURN) break;
            for (int slot : dead_after[k]) frame[static_cast<size_t>(slot)] = Value();
        }
        --depth_;
        return ret;
    }

    // For each top-level statement of fn, the frame slots whose last mention (anywhere inside
    // the statement, nested blocks included) is that statement.
    const std::vector<std::vector<int>> &DeadAfter(const Function &fn) {
        auto it = dead_after_.find(&fn);
        if (it != dead_after_.end()) return it->second;
        std::vector<int> last(static_cast<size_t>(fn.num_slots), -1);
        for (size_t k = 0; k < fn.body.size(); ++k) MarkSlots(fn.body[k], static_cast<int>(k), last);
        std::vector<std::vector<int>> dead(fn.body.size());
        for (size_t slot = 0; slot < last.size(); ++slot)
            if (last[slot] >= 0) dead[static_cast<size_t>(last[slot])].push_back(static_cast<int>(slot));
        return dead_after_.emplace(&fn, std::move(dead)).first->second;
    }
    static void MarkOperand(const Operand &o, int k, std::vector<int> &last) {
        if (o.kind == Operand::Kind::NAME && o.slot >= 0 && static_cast<size_t>(o.slot) < last.size()) last[static_cast<size_t>(o.slot)] = k;
    }
    static void MarkExpr(const Expr &e, int k, std::vector<int> &last) {
        MarkOperand(e.operand, k, last);
        MarkOperand(e.callee, k, last);
        for (const auto &a : e.args) MarkOperand(a, k, last);
        if (e.inner) MarkExpr(*e.inner, k, last);
    }
    static void MarkSlots(const Stmt &s, int k, std::vector<int> &last) {
        for (const auto &t : s.targets)
            if (t.slot >= 0 && static_cast<size_t>(t.slot) < last.size()) last[static_cast<size_t>(t.slot)] = k;
        MarkExpr(s.expr, k, last);
        for (const auto &o : s.operands) MarkOperand(o, k, last);
        for (const auto &b : s.body) MarkSlots(b, k, last);
        for (const auto &b : s.else_body) MarkSlots(b, k, last);
    }

    Expected<Flow> ExecBlock(const std::vector<Stmt> &body, std::vector<Value> &frame, std::vector<Value> &ret) {
        for (const auto &s : body) {
            RNDN_ASSIGN_OR_RETURN(Flow f, ExecStmt(s, frame, ret));
            if (f != Flow::NORMAL) return f;
        }
        return Flow::NORMAL;
    }

    Status CheckMemory(const std::vector<Value> &frame) {
        if (opts_.memory_budget <= 0) return Status::Ok();
        int64_t total = 0;
        for (const auto &v : frame) total += ValueBytes(v);
        // Freed payloads the pool keeps for reuse are memory this process holds too: they count
        // against the budget, and go back to the system before live values would exceed it.
        const size_t pooled = PooledPayloadBytes();
        if (pooled > 0 && total + (int64_t)pooled > opts_.memory_budget)
            ReleasePooledPayloads(total < opts_.memory_budget ? (size_t)(opts_.memory_budget - total) : 0);
        if (total > opts_.memory_budget)
            return Status::OutOfMemory("rndn: intermediate results of " + std::to_string(total) + " bytes exceed the memory budget of " +
                                       std::to_string(opts_.memory_budget) + " bytes");
        return Status::Ok();
    }

    Expected<bool> Truth(const Value &v, const char *what) {
        if (!v.is_vector() || v.vector().length != 1) return ShapeError(std::string(what) + " must be a scalar");
        const Vector &x = v.vector();
        if (!x.IsValid(0)) return false;
        return x.Data<uint8_t>()[0] != 0;
    }

    Expected<Flow> ExecStmt(const Stmt &s, std::vector<Value> &frame, std::vector<Value> &ret) {
        switch (s.kind) {
            case Stmt::Kind::VAR: return Flow::NORMAL;
            case Stmt::Kind::ASSIGN: {
                RNDN_ASSIGN_OR_RETURN(auto vals, EvalExpr(s.expr, frame));
                if (vals.size() != s.targets.size()) return Status::Internal("assignment arity mismatch");
                for (size_t i = 0; i < vals.size(); ++i) frame[static_cast<size_t>(s.targets[i].slot)] = std::move(vals[i]);
                RNDN_RETURN_IF_ERROR(CheckMemory(frame));
                return Flow::NORMAL;
            }
            case Stmt::Kind::EXPR: {
                RNDN_ASSIGN_OR_RETURN(auto vals, EvalExpr(s.expr, frame));
                return Flow::NORMAL;
            }
            case Stmt::Kind::RETURN:
                ret.clear();
                for (const auto &o : s.operands) {
                    RNDN_ASSIGN_OR_RETURN(Value v, EvalOperand(o, frame));
                    ret.push_back(std::move(v));
                }
                return Flow::RETURN;
            case Stmt::Kind::BREAK: return Flow::BREAK;
            case Stmt::Kind::CONTINUE: return Flow::CONTINUE;
            case Stmt::Kind::IF: {
                RNDN_ASSIGN_OR_RETURN(Value c, EvalOperand(s.operands[0], frame));
                RNDN_ASSIGN_OR_RETURN(bool t, Truth(c, "if condition"));
                if (t) return ExecBlock(s.body, frame, ret);
                if (s.has_else) return ExecBlock(s.else_body, frame, ret);
                return Flow::NORMAL;
            }
            case Stmt::Kind::WHILE: {
                for (;;) {
                    if (opts_.should_cancel && opts_.should_cancel()) return Status::Cancelled();
                    RNDN_ASSIGN_OR_RETURN(Value c, EvalOperand(s.operands[0], frame));
                    RNDN_ASSIGN_OR_RETURN(bool t, Truth(c, "while condition"));
                    if (!t) return Flow::NORMAL;
                    RNDN_ASSIGN_OR_RETURN(Flow f, ExecBlock(s.body, frame, ret));
                    if (f == Flow::RETURN) return f;
                    if (f == Flow::BREAK) return Flow::NORMAL;
                }
            }
            case Stmt::Kind::REPEAT: {
                RNDN_ASSIGN_OR_RETURN(Value c, EvalOperand(s.operands[0], frame));
                if (!c.is_vector() || c.vector().length != 1) return ShapeError("repeat count must be a scalar");
                RNDN_ASSIGN_OR_RETURN(auto n64, CastVector(c.vector_ptr(), TypeKind::I64));
                int64_t n = n64->Data<int64_t>()[0];
                for (int64_t i = 0; i < n; ++i) {
                    if (opts_.should_cancel && opts_.should_cancel()) return Status::Cancelled();
                    RNDN_ASSIGN_OR_RETURN(Flow f, ExecBlock(s.body, frame, ret));
                    if (f == Flow::RETURN) return f;
                    if (f == Flow::BREAK) break;
                }
                return Flow::NORMAL;
            }
        }
        return Flow::NORMAL;
    }

    Expected<Value> EvalOperand(const Operand &o, const std::vector<Value> &frame) {
        switch (o.kind) {
            case Operand::Kind::LITERAL:
                if (!o.literal.value) return Status::Unsupported("complex literals are not supported by the interpreter");
                return Value(o.literal.value);
            case Operand::Kind::FUNC: return Value(o.resolved);
            case Operand::Kind::NAME:
                if (o.slot >= 0) return frame[static_cast<size_t>(o.slot)];
                if (o.global >= 0) {
                    auto it = globals_.find(o.global);
                    if (it == globals_.end()) return Status::UserError(sqlstate::kInvalidParameter, "global '" + o.name + "' used before its initialisation");
                    return it->second;
                }
                return Status::Internal("unresolved name " + o.name);
        }
        return Status::Internal("bad operand");
    }

    Expected<std::vector<Value>> EvalExpr(const Expr &e, const std::vector<Value> &frame) {
        switch (e.kind) {
            case Expr::Kind::OPERAND: {
                RNDN_ASSIGN_OR_RETURN(Value v, EvalOperand(e.operand, frame));
                return std::vector<Value>{std::move(v)};
            }
            case Expr::Kind::CAST: {
                RNDN_ASSIGN_OR_RETURN(auto inner, EvalExpr(*e.inner, frame));
                if (inner.size() != 1) return Status::Internal("cast of a multi-value expression");
                RNDN_ASSIGN_OR_RETURN(Value v, CastValue(inner[0], e.cast_type, e.loc));
                return std::vector<Value>{std::move(v)};
            }
            case Expr::Kind::CALL: {
                std::vector<Value> args;
                args.reserve(e.args.size());
                for (const auto &a : e.args) {
                    RNDN_ASSIGN_OR_RETURN(Value v, EvalOperand(a, frame));
                    args.push_back(std::move(v));
                }
                auto r = Call(e.callee.resolved, args);
                if (!r.ok() && r.status().code() == Code::INTERNAL)
                    return Status::Internal(p_.filename + ":" + std::to_string(e.loc.line) + ":" + std::to_string(e.loc.col) + ": " + r.status().message());
                return r;
            }
        }
        return Status::Internal("bad expression");
    }

    // check_cast at run time: identical type passes; castable basic types convert; enum<T>
    // accepts an enum whose key type is T.
    Expected<Value> CastValue(const Value &v, const Type &t, Loc loc) {
        auto fail = [&]() {
            return TypeError(p_.filename + ":" + std::to_string(loc.line) + ":" + std::to_string(loc.col) + ": check_cast: value of type " +
                             TypeToString(v.type()) + " cannot be cast to " + TypeToString(t));
        };
        switch (t.kind) {
            case TypeKind::WILDCARD: return v;
            case TypeKind::ENUM:
                if (v.kind() != ValueKind::ENUM) return fail();
                if (!t.params.empty() && t.params[0].kind != TypeKind::WILDCARD && t.params[0] != v.enumeration().keys->type) return fail();
                return v;
            case TypeKind::TABLE:
                if (v.kind() != ValueKind::TABLE) return fail();
                return v;
            case TypeKind::KTABLE:
                if (v.kind() != ValueKind::KTABLE) return fail();
                return v;
            case TypeKind::DICT:
                if (v.kind() != ValueKind::DICT) return fail();
                return v;
            case TypeKind::LIST:
                if (v.kind() != ValueKind::LIST) return fail();
                return v;
            case TypeKind::FUNC:
                if (v.kind() != ValueKind::FUNC) return fail();
                return v;
            default: break;
        }
        if (!v.is_vector()) return fail();
        const Type &src = v.vector().type;
        if (src == t || (IsDecimal(t.kind) && t.scale == Type::kUnknownScale && src.kind == t.kind)) return v;
        if (!IsCastable(t, src)) return fail();
        RNDN_ASSIGN_OR_RETURN(auto r, CastVector(v.vector_ptr(), t, opts_.sql_casts));
        return Value(r);
    }

    const Program &p_;
    DataRegistry &data_;
    const InterpretOptions &opts_;
    std::map<std::string, int> module_index_;
    std::map<int, Value> globals_;
    std::map<const Function *, std::vector<std::vector<int>>> dead_after_;
    bool profile_ = false;
    int depth_ = 0;
};

CancelPollScope::CancelPollScope(const std::function<bool()> *poll) : saved_(t_cancel_poller) {
    if (poll != nullptr && *poll) t_cancel_poller = poll;
}
CancelPollScope::~CancelPollScope() { t_cancel_poller = saved_; }

void PollCancelNow() {
    if (t_cancel_poller != nullptr && (*t_cancel_poller)()) throw CancelUnwind{};
}

Expected<Value> Interpret(const Program &program, DataRegistry &data, const InterpretOptions &options) {
    Interp in(program, data, options);
    try {
        return in.Run();
    } catch (const std::bad_alloc &) {
        return Status::OutOfMemory("out of memory in the HorseIR interpreter");
    }
}

Expected<Value> Interpret(const Program &program, DataRegistry &data, const InterpretOptions &options,
                          const std::vector<Value> &entry_args) {
    Interp in(program, data, options);
    try {
        return in.Run(entry_args);
    } catch (const std::bad_alloc &) {
        return Status::OutOfMemory("out of memory in the HorseIR interpreter");
    }
}

Expected<std::vector<Value>> EvaluateExpr(const Program &program, const Expr &expr, const std::vector<Value> &frame,
                                          DataRegistry &data, const InterpretOptions &options) {
    if (!program.checked) return Status::Internal("EvaluateExpr: the program was not checked (call CheckProgram)");
    Interp in(program, data, options);
    try {
        return in.EvaluateOne(expr, frame);
    } catch (const std::bad_alloc &) {
        return Status::OutOfMemory("out of memory in the HorseIR interpreter");
    }
}

Expected<Value> CheckAndInterpret(Program &program, DataRegistry &data, const InterpretOptions &options) {
    if (!program.checked) RNDN_RETURN_IF_ERROR(CheckProgram(program));
    return Interpret(program, data, options);
}

}  // namespace rndn::hir
