// Shape analysis (thesis §4.3; shared/docs/rndn-thesis-digest.md §3.3).  A forward data-flow
// pass over the structured statements of each function: every definition gets a data object
// and a shape from its builtin's shape rule (the SHAPE column of builtins.def); branches merge
// with the thesis's mergeShape/mergeSize; loops iterate to a fixed point (a merge point gives
// the same fresh Dynamic every time, so the iteration terminates).
#include <algorithm>
#include <map>

#include "horseir/internal.h"

namespace rndn::hir {

ShapeSize ShapeSize::Constant(int64_t k) {
    ShapeSize s;
    s.kind = Kind::CONSTANT;
    s.constant = k;
    return s;
}
ShapeSize ShapeSize::Symbol(std::string relation) {
    ShapeSize s;
    s.kind = Kind::SYMBOL;
    s.symbol = std::move(relation);
    return s;
}
ShapeSize ShapeSize::Compressed(ShapeSize base, int mask) {
    ShapeSize s;
    s.kind = Kind::COMPRESSED;
    s.base = std::make_shared<const ShapeSize>(std::move(base));
    s.mask = mask;
    return s;
}
bool ShapeSize::operator==(const ShapeSize &o) const {
    if (kind != o.kind) return false;
    switch (kind) {
        case Kind::CONSTANT: return constant == o.constant;
        case Kind::SYMBOL: return symbol == o.symbol;
        case Kind::COMPRESSED: return mask == o.mask && *base == *o.base;
        case Kind::DYNAMIC: return dynamic == o.dynamic;
    }
    return false;
}

Shape Shape::Vector(ShapeSize n) {
    Shape s;
    s.kind = Kind::VECTOR;
    s.size = std::move(n);
    return s;
}
bool Shape::operator==(const Shape &o) const {
    if (kind != o.kind) return false;
    switch (kind) {
        case Kind::WILDCARD:
        case Kind::FUNC: return true;
        case Kind::VECTOR: return size == o.size;
        case Kind::ENUM:
        case Kind::TABLE: return size == o.size && size2 == o.size2;
        case Kind::LIST:
        case Kind::DICT: return size == o.size && cells == o.cells;
    }
    return false;
}

std::string ShapeSizeToString(const ShapeSize &s, const std::vector<std::string> &objs) {
    switch (s.kind) {
        case ShapeSize::Kind::CONSTANT: return std::to_string(s.constant);
        case ShapeSize::Kind::SYMBOL: return "'" + s.symbol;
        case ShapeSize::Kind::COMPRESSED: {
            std::string m = s.mask >= 0 && static_cast<size_t>(s.mask) < objs.size() ? objs[static_cast<size_t>(s.mask)] : "#" + std::to_string(s.mask);
            return ShapeSizeToString(*s.base, objs) + "[" + m + "]";
        }
        case ShapeSize::Kind::DYNAMIC:
            return "?" + std::to_string(s.dynamic) + (s.origin == Builtin::COUNT_ ? "" : std::string("@") + BuiltinName(s.origin));
    }
    return "";
}

std::string ShapeToString(const Shape &s, const std::vector<std::string> &objs) {
    auto sz = [&](const ShapeSize &x) { return ShapeSizeToString(x, objs); };
    auto cells = [&]() {
        std::string r = "[";
        for (size_t i = 0; i < s.cells.size(); ++i) r += (i ? ", " : "") + ShapeToString(s.cells[i], objs);
        return r + "]";
    };
    switch (s.kind) {
        case Shape::Kind::WILDCARD: return "?";
        case Shape::Kind::FUNC: return "Func";
        case Shape::Kind::VECTOR: return "Vector(" + sz(s.size) + ")";
        case Shape::Kind::LIST: return "List(" + sz(s.size) + ", " + cells() + ")";
        case Shape::Kind::ENUM: return "Enum(" + sz(s.size) + ", " + sz(s.size2) + ")";
        case Shape::Kind::DICT: return "Dict(" + sz(s.size) + ", " + cells() + ")";
        case Shape::Kind::TABLE: return "Table(" + sz(s.size) + ", " + sz(s.size2) + ")";
    }
    return "";
}

namespace {

// The origin of a size, looking through compressions.
const ShapeSize &Root(const ShapeSize &s) { return s.kind == ShapeSize::Kind::COMPRESSED ? Root(*s.base) : s; }

}  // namespace

ShapeClass ClassifyShape(const Shape &s) {
    switch (s.kind) {
        case Shape::Kind::VECTOR:
            switch (s.size.kind) {
                case ShapeSize::Kind::CONSTANT: return s.size.constant == 1 ? ShapeClass::SCALAR : ShapeClass::CONSTANT;
                case ShapeSize::Kind::SYMBOL: return ShapeClass::RELATION;
                case ShapeSize::Kind::COMPRESSED: return ShapeClass::COMPRESSED;
                case ShapeSize::Kind::DYNAMIC: {
                    Builtin o = Root(s.size).origin;
                    if (o == Builtin::GROUP) return ShapeClass::GROUPED;
                    if (o == Builtin::JOIN_INDEX) return ShapeClass::JOINED;
                    return ShapeClass::DYNAMIC;
                }
            }
            return ShapeClass::OTHER;
        case Shape::Kind::LIST: return ShapeClass::CELLS;
        case Shape::Kind::DICT: return ShapeClass::GROUPING;
        case Shape::Kind::ENUM: return ShapeClass::ENUM;
        case Shape::Kind::TABLE: return ShapeClass::TABLE;
        default: return ShapeClass::OTHER;
    }
}

const char *ShapeClassName(ShapeClass c) {
    static const char *const kNames[] = {"scalar",  "constant", "relation", "compressed", "grouped", "joined",
                                         "dynamic", "cells",    "grouping", "enum",       "table",   "other"};
    static_assert(sizeof(kNames) / sizeof(kNames[0]) == static_cast<size_t>(ShapeClass::OTHER) + 1);
    return kNames[static_cast<int>(c)];
}

const VarShape *ShapeInfo::Find(const std::string &function, const std::string &name) const {
    for (auto it = vars.rbegin(); it != vars.rend(); ++it)
        if (it->function == function && it->name == name) return &*it;
    return nullptr;
}

std::string ShapeInfo::ToString() const {
    std::string out;
    for (const auto &v : vars)
        out += v.function + " " + v.name + ":" + TypeToString(v.type) + " " + ShapeToString(v.shape, data_objects) + " " +
               ShapeClassName(v.klass) + "\n";
    return out;
}

namespace {

struct Fact {
    Shape shape;
    int object = -1;  // data object
};
using Env = std::map<int, Fact>;  // by frame slot

class Analysis {
public:
    explicit Analysis(const Program &p) : p_(p) {}

    Expected<ShapeInfo> Run() {
        if (!p_.checked) return Status::Internal("InferShapes: the program was not checked (call CheckProgram)");
        for (const auto &m : p_.modules) {
            for (const auto &f : m.functions) {
                fn_ = &f;
                Env env;
                for (const auto &pa : f.params) env[pa.slot] = Fact{Initial(pa.type), NewObject(pa.name)};
                RNDN_RETURN_IF_ERROR(Block(f.body, env, true));
            }
        }
        info_.data_objects = objects_;
        return std::move(info_);
    }

private:
    // ---- sizes and shapes
    ShapeSize Fresh(Builtin origin = Builtin::COUNT_) {
        ShapeSize s;
        s.kind = ShapeSize::Kind::DYNAMIC;
        s.dynamic = next_dynamic_++;
        s.origin = origin;
        return s;
    }
    // The dynamic size of a merge point: the same one every time the point is merged.
    ShapeSize FreshAt(const void *site, int slot, int which) {
        auto key = std::make_tuple(site, slot, which);
        auto it = merge_sizes_.find(key);
        if (it != merge_sizes_.end()) return it->second;
        return merge_sizes_.emplace(key, Fresh()).first->second;
    }
    int NewObject(const std::string &name) {
        int uses = ++object_names_[name];
        objects_.push_back(uses == 1 ? name : name + "#" + std::to_string(uses));
        return static_cast<int>(objects_.size()) - 1;
    }
    // Thesis Fig 4.9: the dynamic shape of a type.
    Shape Initial(const Type &t) {
        Shape s;
        switch (t.kind) {
            case TypeKind::LIST:
                s.kind = Shape::Kind::LIST;
                s.size = t.params.size() > 1 ? ShapeSize::Constant(static_cast<int64_t>(t.params.size())) : Fresh();
                s.cells.push_back(Shape::Vector(Fresh()));
                return s;
            case TypeKind::ENUM:
                s.kind = Shape::Kind::ENUM;
                s.size = Fresh();
                s.size2 = Fresh();
                return s;
            case TypeKind::DICT: {
                s.kind = Shape::Kind::DICT;
                s.size = Fresh();
                Shape vals;
                vals.kind = Shape::Kind::LIST;
                vals.size = s.size;
                vals.cells.push_back(Shape::Vector(Fresh()));
                s.cells = {Shape::Vector(s.size), vals};
                return s;
            }
            case TypeKind::TABLE:
            case TypeKind::KTABLE:
                s.kind = Shape::Kind::TABLE;
                s.size = Fresh();
                s.size2 = Fresh();
                return s;
            case TypeKind::FUNC: s.kind = Shape::Kind::FUNC; return s;
            case TypeKind::WILDCARD: return s;
            default: return Shape::Vector(Fresh());
        }
    }

    ShapeSize MergeSize(const ShapeSize &a, const ShapeSize &b, const void *site, int slot, int which) {
        if (a == b) return a;
        if (a.kind == ShapeSize::Kind::COMPRESSED && b.kind == ShapeSize::Kind::COMPRESSED && *a.base == *b.base) {
            auto key = std::make_tuple(site, slot, which);
            auto it = merge_masks_.find(key);
            int obj = it != merge_masks_.end() ? it->second : (merge_masks_[key] = NewObject("merge"));
            return ShapeSize::Compressed(*a.base, obj);
        }
        return FreshAt(site, slot, which);
    }
    Shape MergeShape(const Shape &a, const Shape &b, const void *site, int slot, int depth = 0) {
        if (a.kind != b.kind) return Shape();
        Shape r = a;
        int w = depth * 4;
        switch (a.kind) {
            case Shape::Kind::VECTOR: r.size = MergeSize(a.size, b.size, site, slot, w); break;
            case Shape::Kind::ENUM:
            case Shape::Kind::TABLE:
                r.size = MergeSize(a.size, b.size, site, slot, w);
                r.size2 = MergeSize(a.size2, b.size2, site, slot, w + 1);
                break;
            case Shape::Kind::LIST:
            case Shape::Kind::DICT:
                r.size = MergeSize(a.size, b.size, site, slot, w);
                if (a.size == b.size && a.cells.size() == b.cells.size()) {
                    for (size_t i = 0; i < a.cells.size(); ++i) r.cells[i] = MergeShape(a.cells[i], b.cells[i], site, slot, depth + 1 + static_cast<int>(i));
                } else {
                    r.cells = {Shape::Vector(FreshAt(site, slot, w + 2))};
                }
                break;
            default: break;
        }
        return r;
    }
    Env MergeEnv(const Env &a, const Env &b, const void *site) {
        Env r;
        for (const auto &[slot, fa] : a) {
            auto it = b.find(slot);
            if (it == b.end()) {
                r[slot] = fa;  // defined on one path only: the checker's definite assignment decides
                continue;
            }
            const Fact &fb = it->second;
            if (fa.object == fb.object && fa.shape == fb.shape) {
                r[slot] = fa;
                continue;
            }
            auto key = std::make_tuple(site, slot, -1);
            auto obj = merge_masks_.find(key);
            int o = obj != merge_masks_.end() ? obj->second : (merge_masks_[key] = NewObject(SlotName(slot)));
            r[slot] = Fact{MergeShape(fa.shape, fb.shape, site, slot), o};
        }
        for (const auto &[slot, fb] : b)
            if (!a.count(slot)) r[slot] = fb;
        return r;
    }
    std::string SlotName(int slot) const {
        for (const auto &pa : fn_->params)
            if (pa.slot == slot) return pa.name;
        auto it = slot_names_.find(slot);
        return it != slot_names_.end() ? it->second : "slot" + std::to_string(slot);
    }

    Status Error(Loc loc, const std::string &m) const {
        return Status::UserError(sqlstate::kDatatypeMismatch,
                                 p_.filename + ":" + std::to_string(loc.line) + ":" + std::to_string(loc.col) + ": shape error: " + m);
    }

    // ---- statements
    Status Block(const std::vector<Stmt> &body, Env &env, bool record) {
        for (const auto &s : body) RNDN_RETURN_IF_ERROR(Statement(s, env, record));
        return Status::Ok();
    }

    uint32_t statements_ = 0;  // analysed so far (a cancel is polled every 256)
    Status Statement(const Stmt &s, Env &env, bool record) {
        if ((++statements_ & 0xff) == 0) PollCancelNow();
        switch (s.kind) {
            case Stmt::Kind::ASSIGN: {
                std::vector<Shape> shapes;
                RNDN_RETURN_IF_ERROR(EvalExpr(s.expr, env, shapes));
                for (size_t i = 0; i < s.targets.size(); ++i) {
                    const Target &t = s.targets[i];
                    if (t.slot < 0) continue;  // module-level target: not tracked
                    Shape sh = i < shapes.size() ? shapes[i] : Shape();
                    slot_names_[t.slot] = t.name;
                    int obj = NewObject(t.name);
                    env[t.slot] = Fact{sh, obj};
                    if (record) {
                        Type ty = t.type;
                        bool concrete = ty.kind != TypeKind::WILDCARD && ty.kind != TypeKind::LIST &&
                                        !(IsDecimal(ty.kind) && ty.scale == Type::kUnknownScale);
                        if (!concrete && i < s.expr.types.size()) ty = s.expr.types[i];
                        info_.vars.push_back(VarShape{fn_->name, t.name, ty, sh, ClassifyShape(sh), t.loc});
                    }
                }
                return Status::Ok();
            }
            case Stmt::Kind::VAR:
                for (const auto &t : s.targets)
                    if (t.slot >= 0) slot_names_[t.slot] = t.name;
                return Status::Ok();
            case Stmt::Kind::EXPR: {
                std::vector<Shape> ignored;
                return EvalExpr(s.expr, env, ignored);
            }
            case Stmt::Kind::IF: {
                Env then_env = env, else_env = env;
                RNDN_RETURN_IF_ERROR(Block(s.body, then_env, record));
                if (s.has_else) RNDN_RETURN_IF_ERROR(Block(s.else_body, else_env, record));
                env = MergeEnv(then_env, else_env, &s);
                return Status::Ok();
            }
            case Stmt::Kind::WHILE:
            case Stmt::Kind::REPEAT: {
                // in = merge(before, out(body)) until stable; record on the last round only
                Env in = env;
                for (int round = 0; round < 16; ++round) {
                    Env out = in;
                    RNDN_RETURN_IF_ERROR(Block(s.body, out, false));
                    Env next = MergeEnv(env, out, &s);
                    if (Same(next, in)) break;
                    in = std::move(next);
                }
                Env out = in;
                RNDN_RETURN_IF_ERROR(Block(s.body, out, record));
                env = MergeEnv(env, out, &s);
                return Status::Ok();
            }
            default: return Status::Ok();
        }
    }
    static bool Same(const Env &a, const Env &b) {
        if (a.size() != b.size()) return false;
        for (const auto &[slot, f] : a) {
            auto it = b.find(slot);
            if (it == b.end() || it->second.object != f.object || it->second.shape != f.shape) return false;
        }
        return true;
    }

    // ---- expressions
    Fact OperandFact(const Operand &o, const Env &env) {
        switch (o.kind) {
            case Operand::Kind::FUNC: {
                Shape s;
                s.kind = Shape::Kind::FUNC;
                return Fact{s, -1};
            }
            case Operand::Kind::LITERAL: {
                int64_t n = o.literal.value ? o.literal.value->length : static_cast<int64_t>(o.literal.text.size());
                return Fact{Shape::Vector(ShapeSize::Constant(n)), NewObject("literal")};
            }
            case Operand::Kind::NAME: {
                if (o.slot >= 0) {
                    auto it = env.find(o.slot);
                    if (it != env.end()) return it->second;
                    return Fact{Initial(o.type), NewObject(o.name)};
                }
                if (o.global >= 0) {
                    // module-level constant: its initialiser is a literal
                    for (const auto &m : p_.modules)
                        for (const auto &g : m.globals)
                            if (g.name == o.name && (o.module.empty() || o.module == m.name)) return OperandFact(g.init, env);
                }
                return Fact{Initial(o.type), NewObject(o.name)};
            }
        }
        return Fact{};
    }

    Status EvalExpr(const Expr &e, const Env &env, std::vector<Shape> &out) {
        switch (e.kind) {
            case Expr::Kind::OPERAND: out = {OperandFact(e.operand, env).shape}; return Status::Ok();
            case Expr::Kind::CAST: {
                RNDN_RETURN_IF_ERROR(EvalExpr(*e.inner, env, out));
                // check_cast(@column_value(t, `fk), enum<T>): a foreign-key column
                if (e.cast_type.kind == TypeKind::ENUM && out.size() == 1 && IsVector(out[0])) {
                    Shape en;
                    en.kind = Shape::Kind::ENUM;
                    en.size = out[0].size;
                    en.size2 = Fresh(Builtin::ENUM);
                    out[0] = en;
                }
                return Status::Ok();
            }
            case Expr::Kind::CALL: {
                const FuncRef &f = e.callee.resolved;
                if (!f.is_builtin()) {
                    out.clear();
                    for (const auto &t : e.types) out.push_back(Initial(t));  // user functions: not analysed
                    return Status::Ok();
                }
                std::vector<Fact> args;
                for (const auto &a : e.args) args.push_back(OperandFact(a, env));
                Type result = e.types.empty() ? Type() : e.types[0];
                RNDN_ASSIGN_OR_RETURN(Shape s, Apply(f.builtin_id(), args, &e.args, result, e.loc));
                out = {std::move(s)};
                return Status::Ok();
            }
        }
        return Status::Ok();
    }

    static bool IsVector(const Shape &s) { return s.kind == Shape::Kind::VECTOR; }
    static bool IsConst(const ShapeSize &s, int64_t *k = nullptr) {
        if (s.kind != ShapeSize::Kind::CONSTANT) return false;
        if (k) *k = s.constant;
        return true;
    }
    // An integer literal scalar argument.
    static bool LiteralInt(const std::vector<Operand> *ops, size_t i, int64_t *out) {
        if (!ops || i >= ops->size()) return false;
        const Operand &o = (*ops)[i];
        if (o.kind != Operand::Kind::LITERAL || !o.literal.value || o.literal.value->length != 1 || !o.literal.value->IsValid(0)) return false;
        const Vector &v = *o.literal.value;
        switch (v.type.kind) {
            case TypeKind::BOOL: *out = v.Data<uint8_t>()[0]; return true;
            case TypeKind::I8: *out = v.Data<int8_t>()[0]; return true;
            case TypeKind::I16: *out = v.Data<int16_t>()[0]; return true;
            case TypeKind::I32: *out = v.Data<int32_t>()[0]; return true;
            case TypeKind::I64: *out = v.Data<int64_t>()[0]; return true;
            default: return false;
        }
    }

    // Thesis Table 4.4: the size of an element-wise result.
    Expected<ShapeSize> Broadcast(const ShapeSize &a, const ShapeSize &b, Loc loc, const char *fn) {
        int64_t ka = 0, kb = 0;
        bool ca = IsConst(a, &ka), cb = IsConst(b, &kb);
        if (ca && ka == 1) return b;
        if (cb && kb == 1) return a;
        if (ca && cb) {
            if (ka != kb)
                return Error(loc, std::string("@") + fn + ": operands of constant lengths " + std::to_string(ka) + " and " + std::to_string(kb));
            return a;
        }
        if (a == b) return a;
        return Fresh();
    }

    // The shape of `builtin` applied to argument facts (ops: the operands when known).
    Expected<Shape> Apply(Builtin b, const std::vector<Fact> &args, const std::vector<Operand> *ops, const Type &result, Loc loc) {
        const BuiltinMeta &m = GetBuiltinMeta(b);
        auto arg = [&](size_t i) -> const Shape & {
            static const Shape kWild;
            return i < args.size() ? args[i].shape : kWild;
        };
        auto vector_or_fresh = [&](const Shape &s) { return IsVector(s) ? s : Shape::Vector(Fresh(b)); };
        switch (m.shape) {
            case ShapeRule::NONE: return Shape();
            case ShapeRule::SAME: return IsVector(arg(0)) ? arg(0) : Shape::Vector(Fresh(b));
            case ShapeRule::BROADCAST: {
                ShapeSize acc = ShapeSize::Constant(1);
                for (size_t i = 0; i < args.size(); ++i) {
                    if (arg(i).kind == Shape::Kind::FUNC) continue;
                    if (!IsVector(arg(i))) {
                        if (IsBasic(result.kind)) return Shape::Vector(Fresh(b));
                        return Shape();
                    }
                    // datetime_add/sub: the third argument is a unit symbol
                    if (i == 2 && (b == Builtin::DATETIME_ADD || b == Builtin::DATETIME_SUB)) continue;
                    RNDN_ASSIGN_OR_RETURN(acc, Broadcast(acc, arg(i).size, loc, m.name));
                }
                return Shape::Vector(acc);
            }
            case ShapeRule::SCALAR: return Shape::Vector(ShapeSize::Constant(1));
            case ShapeRule::COMPRESS: {
                const Shape &mask = arg(0), &v = arg(1);
                if (!IsVector(mask) || !IsVector(v)) return Shape::Vector(Fresh(b));
                int64_t km = 0, kv = 0;
                if (IsConst(mask.size, &km) && IsConst(v.size, &kv) && km != kv && km != 1)
                    return Error(loc, "@compress: mask of constant length " + std::to_string(km) + ", data of length " + std::to_string(kv));
                return Shape::Vector(ShapeSize::Compressed(v.size, args[0].object));
            }
            case ShapeRule::WHERE:
                if (!IsVector(arg(0))) return Shape::Vector(Fresh(b));
                return Shape::Vector(ShapeSize::Compressed(arg(0).size, args[0].object));
            case ShapeRule::INDEX: {
                const Shape &x = arg(0), &idx = arg(1);
                if (x.kind == Shape::Kind::LIST || x.kind == Shape::Kind::DICT) {
                    int64_t k = 0, n = 0;
                    if (LiteralInt(ops, 1, &k)) {
                        if (k < 0 || (IsConst(x.size, &n) && k >= n))
                            return Error(loc, "@index: cell " + std::to_string(k) + " of a list of " + ShapeSizeToString(x.size, objects_) + " cells");
                        if (x.cells.size() == 1) return x.cells[0];
                        if (static_cast<size_t>(k) < x.cells.size()) return x.cells[static_cast<size_t>(k)];
                    }
                    return Shape();
                }
                if (IsVector(idx)) return Shape::Vector(idx.size);
                return Shape::Vector(Fresh(b));
            }
            case ShapeRule::PERMUTE: {
                const Shape &k = arg(0);
                if (IsVector(k)) return k;
                if (k.kind == Shape::Kind::LIST && !k.cells.empty()) {
                    ShapeSize n = k.cells[0].kind == Shape::Kind::VECTOR ? k.cells[0].size : Fresh(b);
                    for (const auto &c : k.cells) {
                        int64_t a = 0, z = 0;
                        if (IsVector(c) && IsConst(c.size, &a) && IsConst(n, &z) && a != z)
                            return Error(loc, "@order: key columns of constant lengths " + std::to_string(z) + " and " + std::to_string(a));
                    }
                    return Shape::Vector(n);
                }
                return Shape::Vector(Fresh(b));
            }
            case ShapeRule::SIZED: {
                int64_t n = 0;
                if (LiteralInt(ops, 0, &n)) return Shape::Vector(ShapeSize::Constant(n < 0 ? -n : n));
                return Shape::Vector(Fresh(b));
            }
            case ShapeRule::GROUP: {
                Shape d;
                d.kind = Shape::Kind::DICT;
                d.size = Fresh(Builtin::GROUP);
                Shape vals;
                vals.kind = Shape::Kind::LIST;
                vals.size = d.size;
                vals.cells.push_back(Shape::Vector(Fresh(b)));
                d.cells = {Shape::Vector(d.size), vals};
                return d;
            }
            case ShapeRule::JOIN: {
                Shape l;
                l.kind = Shape::Kind::LIST;
                l.size = ShapeSize::Constant(2);
                l.cells.push_back(Shape::Vector(Fresh(Builtin::JOIN_INDEX)));
                return l;
            }
            case ShapeRule::LIST: {
                Shape l;
                l.kind = Shape::Kind::LIST;
                l.size = ShapeSize::Constant(static_cast<int64_t>(args.size()));
                for (const auto &a : args) l.cells.push_back(a.shape);
                // all cells alike: one cell shape
                if (!l.cells.empty() && std::all_of(l.cells.begin(), l.cells.end(), [&](const Shape &c) { return c == l.cells[0]; }))
                    l.cells.resize(1);
                return l;
            }
            case ShapeRule::RAZE: {
                const Shape &l = arg(0);
                if (IsVector(l)) return l;
                if (l.kind == Shape::Kind::LIST && !l.cells.empty() &&
                    std::all_of(l.cells.begin(), l.cells.end(), [](const Shape &c) { return c == Shape::Vector(ShapeSize::Constant(1)); }))
                    return Shape::Vector(l.size);  // one scalar per cell (a reduction per group, then raze)
                return Shape::Vector(Fresh(b));
            }
            case ShapeRule::TOLIST: {
                Shape l;
                l.kind = Shape::Kind::LIST;
                l.size = IsVector(arg(0)) ? arg(0).size : Fresh(b);
                l.cells.push_back(Shape::Vector(ShapeSize::Constant(1)));
                return l;
            }
            case ShapeRule::EACH:
            case ShapeRule::EACH_LEFT:
            case ShapeRule::EACH_RIGHT:
            case ShapeRule::EACH_ITEM: return Each(m.shape, args, ops, loc);
            case ShapeRule::LOAD_TABLE: {
                Shape t;
                t.kind = Shape::Kind::TABLE;
                t.size2 = Fresh(b);
                if (ops && !ops->empty() && (*ops)[0].kind == Operand::Kind::LITERAL && (*ops)[0].literal.value &&
                    IsString((*ops)[0].literal.value->type.kind) && (*ops)[0].literal.value->length == 1)
                    t.size = ShapeSize::Symbol(std::string((*ops)[0].literal.value->StringAt(0)));
                else
                    t.size = Fresh(b);
                return t;
            }
            case ShapeRule::COLUMN_VALUE: {
                const Shape &t = arg(0);
                ShapeSize rows = t.kind == Shape::Kind::TABLE ? t.size : Fresh(b);
                if (result.kind == TypeKind::ENUM) {
                    Shape e;
                    e.kind = Shape::Kind::ENUM;
                    e.size = rows;
                    e.size2 = Fresh(b);
                    return e;
                }
                return Shape::Vector(rows);
            }
            case ShapeRule::TABLE: {
                const Shape &cols = arg(1);
                Shape t;
                t.kind = Shape::Kind::TABLE;
                if (cols.kind == Shape::Kind::LIST && !cols.cells.empty()) {
                    t.size2 = cols.size;
                    t.size = IsVector(cols.cells[0]) ? cols.cells[0].size : Fresh(b);
                    for (const auto &c : cols.cells) {
                        int64_t a = 0, z = 0;
                        if (IsVector(c) && IsConst(c.size, &a) && IsConst(t.size, &z) && a != z)
                            return Error(loc, "@table: columns of constant lengths " + std::to_string(z) + " and " + std::to_string(a));
                    }
                } else {
                    t.size = Fresh(b);
                    t.size2 = IsVector(arg(0)) ? arg(0).size : Fresh(b);
                }
                return t;
            }
            case ShapeRule::KEYS: {
                const Shape &x = arg(0);
                if (x.kind == Shape::Kind::DICT && !x.cells.empty()) return x.cells[0];
                if (x.kind == Shape::Kind::ENUM) return Shape::Vector(x.size2);
                if (x.kind == Shape::Kind::TABLE) return Shape::Vector(x.size2);
                return Shape();
            }
            case ShapeRule::VALUES: {
                const Shape &x = arg(0);
                if (x.kind == Shape::Kind::DICT && x.cells.size() > 1) return x.cells[1];
                if (x.kind == Shape::Kind::ENUM) return Shape::Vector(x.size);
                return Shape();
            }
            case ShapeRule::FETCH: {
                const Shape &x = arg(0);
                if (x.kind == Shape::Kind::ENUM) return Shape::Vector(x.size);
                return vector_or_fresh(x);
            }
            case ShapeRule::ENUM: {
                Shape e;
                e.kind = Shape::Kind::ENUM;
                e.size = IsVector(arg(1)) ? arg(1).size : Fresh(b);
                e.size2 = IsVector(arg(0)) ? arg(0).size : Fresh(b);
                return e;
            }
            case ShapeRule::DICT: {
                Shape d;
                d.kind = Shape::Kind::DICT;
                d.size = IsVector(arg(0)) ? arg(0).size : Fresh(b);
                d.cells = {arg(0), arg(1)};
                return d;
            }
            case ShapeRule::CELLS: {
                const Shape &l = arg(1);
                if (l.kind == Shape::Kind::LIST) return Shape::Vector(l.size);  // one element per cell
                return Shape::Vector(Fresh(b));
            }
            case ShapeRule::DYNAMIC: return Shape::Vector(Fresh(b));
        }
        return Shape();
    }

    // @each(f, L), @each_left(f, L, x), @each_right(f, x, L), @each_item(f, L1, L2): a list with
    // L's cell count whose cells are f applied to L's cells.
    Expected<Shape> Each(ShapeRule rule, const std::vector<Fact> &args, const std::vector<Operand> *ops, Loc loc) {
        Shape r;
        r.kind = Shape::Kind::LIST;
        size_t list_at = rule == ShapeRule::EACH_RIGHT ? 2 : 1;
        if (list_at >= args.size() || args[list_at].shape.kind != Shape::Kind::LIST) {
            r.size = Fresh();
            r.cells.push_back(Shape());
            return r;
        }
        const Shape &l = args[list_at].shape;
        r.size = l.size;
        const FuncRef *f = ops && !ops->empty() && (*ops)[0].kind == Operand::Kind::FUNC ? &(*ops)[0].resolved : nullptr;
        for (const Shape &cell : l.cells) {
            if (!f || !f->is_builtin()) {
                r.cells.push_back(Shape());
                continue;
            }
            std::vector<Fact> inner;
            Fact c{cell, NewObject("cell")};
            switch (rule) {
                case ShapeRule::EACH: inner = {c}; break;
                case ShapeRule::EACH_LEFT: inner = {c, args.size() > 2 ? args[2] : Fact{}}; break;
                case ShapeRule::EACH_RIGHT: inner = {args[1], c}; break;
                default: {
                    const Shape &l2 = args.size() > 2 ? args[2].shape : Shape();
                    Shape c2 = l2.kind == Shape::Kind::LIST && !l2.cells.empty() ? l2.cells[0] : Shape();
                    inner = {c, Fact{c2, NewObject("cell")}};
                }
            }
            Type cell_type;  // element types do not change a shape rule's result here
            RNDN_ASSIGN_OR_RETURN(Shape s, Apply(f->builtin_id(), inner, nullptr, cell_type, loc));
            r.cells.push_back(std::move(s));
        }
        return r;
    }

    const Program &p_;
    const Function *fn_ = nullptr;
    ShapeInfo info_;
    std::vector<std::string> objects_;
    std::map<std::string, int> object_names_;
    std::map<int, std::string> slot_names_;
    std::map<std::tuple<const void *, int, int>, ShapeSize> merge_sizes_;
    std::map<std::tuple<const void *, int, int>, int> merge_masks_;
    int next_dynamic_ = 1;
};

}  // namespace

Expected<ShapeInfo> InferShapes(const Program &program) { return Analysis(program).Run(); }

}  // namespace rndn::hir
