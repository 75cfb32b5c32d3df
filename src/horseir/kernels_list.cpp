// List, table, enum and dictionary kernels; each*; print.
#include <algorithm>
#include <cmath>
#include <iostream>

#include "horseir/kernel_util.h"

namespace rndn::hir {

namespace {
Value MakeListValue(std::vector<Value> cells) {
    auto l = std::make_shared<List>();
    l->cells = std::move(cells);
    return Value(std::shared_ptr<const List>(l));
}
Status NeedList(const Value &v, const char *fn, int i) {
    if (v.kind() != ValueKind::LIST) return TypeError(std::string("@") + fn + ": argument " + std::to_string(i + 1) + " must be a list");
    return Status::Ok();
}
Status NeedFunc(const Value &v, const char *fn) {
    if (v.kind() != ValueKind::FUNC) return TypeError(std::string("@") + fn + ": argument 1 must be a function");
    return Status::Ok();
}
Expected<Value> CallOne(KernelCtx &ctx, const FuncRef &f, std::vector<Value> args, const char *fn) {
    RNDN_ASSIGN_OR_RETURN(auto r, ctx.call(f, args));
    if (r.size() != 1) return TypeError(std::string("@") + fn + ": the function must return exactly one value");
    return r[0];
}
std::string SymAt(const Value &v, const char *fn, Status *st) {
    if (!v.is_vector() || !IsString(v.vector().type.kind) || v.vector().length != 1) {
        *st = TypeError(std::string("@") + fn + ": expects one symbol");
        return "";
    }
    return std::string(v.vector().StringAt(0));
}
}  // namespace

Expected<Value> KList(KernelCtx &, const std::vector<Value> &args) { return MakeListValue(args); }

Expected<Value> KRaze(KernelCtx &, const std::vector<Value> &args) {
    if (args[0].is_vector()) return args[0];
    RNDN_RETURN_IF_ERROR(NeedList(args[0], "raze", 0));
    const auto &cells = args[0].list().cells;
    if (cells.empty()) {
        RNDN_ASSIGN_OR_RETURN(auto out, MakeVector(TypeKind::I64, 0));
        return V(out);
    }
    Type t;
    bool first = true;
    // An empty cell adds no element: its type (an empty @raze is i64) is not merged when some
    // cell has elements (rndn: grouping sets razing an empty input's groups with a total row).
    bool any_elements = false;
    for (const auto &c : cells) any_elements = any_elements || (c.is_vector() && c.vector().length > 0);
    for (const auto &c : cells) {
        if (!c.is_vector()) return TypeError("@raze: list cells must be vectors");
        if (any_elements && c.vector().length == 0) continue;
        const Type &ct = c.vector().type;
        if (first) t = ct;
        else if (ct != t) {
            if (IsReal(ct.kind) && IsReal(t.kind)) t = WidestType(t, ct);
            else if (!(IsString(ct.kind) && IsString(t.kind))) return TypeError("@raze: list cells differ in type");
        }
        first = false;
    }
    bool per_elem_scale = IsDecimal(t.kind) && t.scale == Type::kUnknownScale;
    int smax = 0;
    if (per_elem_scale)
        for (const auto &c : cells) smax = std::max(smax, c.vector().type.scale < 0 ? c.vector().scale_max : c.vector().type.scale);
    int64_t n = 0;
    for (const auto &c : cells) n += c.vector().length;
    std::shared_ptr<Vector> out;
    if (IsString(t.kind)) {
        RNDN_ASSIGN_OR_RETURN(out, MakeVector(t, 0));
    } else {
        RNDN_ASSIGN_OR_RETURN(out, MakeVector(t, n));
    }
    if (per_elem_scale) {
        out->scale_max = smax;
        out->elem_scale.resize(static_cast<size_t>(n));
    }
    int64_t at = 0;
    CancelTicker ticker, cell_ticker;
    cell_ticker.mask = 0x3ff;
    for (const auto &c : cells) {
        cell_ticker.Tick();
        std::shared_ptr<const Vector> cv = c.vector_ptr();
        int64_t len = cv->length;
        if (len == 0) continue;
        if (per_elem_scale) {
            const Vector &src = *cv;
            int s = src.type.scale < 0 ? src.scale_max : src.type.scale;
            RNDN_ASSIGN_OR_RETURN(auto wide, As(cv, Type::Decimal(TypeKind::DEC128, s)));
            for (int64_t i = 0; i < len; ++i) {
                __int128 x = wide->Data<__int128>()[i];
                if (__builtin_mul_overflow(x, Pow10(smax - s), &x)) return Status::UserError(sqlstate::kNumericOutOfRange, "value overflows numeric format");
                out->Data<__int128>()[at + i] = x;
                out->elem_scale[static_cast<size_t>(at + i)] = static_cast<uint8_t>(src.elem_scale.empty() ? s : src.elem_scale[static_cast<size_t>(i)]);
            }
        } else if (IsString(t.kind)) {
            for (int64_t i = 0; i < len; ++i) {
                ticker.Tick();
                out->AppendString(cv->StringAt(i));
            }
        } else {
            RNDN_ASSIGN_OR_RETURN(auto conv, As(cv, t));
            CopyRange(*conv, 0, len, *out, at);
        }
        if (cv->HasNulls())
            for (int64_t i = 0; i < len; ++i)
                if (!cv->IsValid(i)) out->SetNull(at + i);
        at += len;
    }
    return V(out);
}

Expected<Value> KTolist(KernelCtx &, const std::vector<Value> &args) {
    RNDN_RETURN_IF_ERROR(NeedVector(args[0], "tolist", 0));
    const Vector &v = args[0].vector();
    std::vector<Value> cells;
    for (int64_t i = 0; i < v.length; ++i) {
        PollCancel(i);
        int64_t idx = i;
        RNDN_ASSIGN_OR_RETURN(auto c, Gather(v, &idx, 1));
        cells.emplace_back(c);
    }
    return MakeListValue(std::move(cells));
}

Expected<Value> KEach(KernelCtx &ctx, const std::vector<Value> &args) {
    RNDN_RETURN_IF_ERROR(NeedFunc(args[0], "each"));
    RNDN_RETURN_IF_ERROR(NeedList(args[1], "each", 1));
    std::vector<Value> out;
    size_t i = 0;
    for (const auto &c : args[1].list().cells) {
        if ((++i & 0x3ff) == 0 && ctx.Cancelled()) return Status::Cancelled();
        RNDN_ASSIGN_OR_RETURN(Value r, CallOne(ctx, args[0].func(), {c}, "each"));
        out.push_back(std::move(r));
    }
    return MakeListValue(std::move(out));
}

namespace {
// @frame's typed loop for @sum, @min and @max whose result has x's own type (sum: i64, f64,
// decimal of a fixed scale; min/max: every fixed-width type but decimals of per-element scale)
// under SQL's empty-aggregate rule (no value: NULL): per row, the previous row's accumulator
// continued when the frame keeps its start and grows, else restarted at the frame's start, the
// values taken in row order as @sum/@min/@max take them (a float sum from -0; of equal floats
// the later one wins, as float8larger/float8smaller keep).  false: not such a case.
Expected<bool> FrameFixed(KernelCtx &ctx, const FuncRef &fn, const Vector &x, const int64_t *st, const int64_t *en,
                          int64_t n, Value &result) {
    const int b = fn.builtin;
    const bool sum = b == static_cast<int>(Builtin::SUM), mx = b == static_cast<int>(Builtin::MAX);
    if (!(sum || mx || b == static_cast<int>(Builtin::MIN))) return false;
    if (!ctx.options || !ctx.options->sql_empty_aggregates) return false;
    if (IsString(x.type.kind) || !IsBasic(x.type.kind) || !x.elem_scale.empty() ||
        (IsDecimal(x.type.kind) && x.type.scale == Type::kUnknownScale))
        return false;
    if (x.type.kind == TypeKind::INTERVAL) return false;
    if (sum && x.type.kind != TypeKind::I64 && x.type.kind != TypeKind::F64 && x.type.kind != TypeKind::DEC128) return false;
    std::vector<Type> types{x.type};
    std::vector<const FuncRef *> funcs{nullptr};
    RuleCtx rc{types, funcs, nullptr};
    auto rt = GetBuiltin(b).rule(rc);
    if (!rt.ok() || rt.value().size() != 1 || !(rt.value()[0] == x.type)) return false;
    RNDN_ASSIGN_OR_RETURN(auto out, MakeVector(x.type, n));
    out->scale_max = x.scale_max;
    Status err = Status::Ok();
    std::vector<int64_t> empty_rows;
    VisitFixed(x.type.kind, [&](auto t) {
        using T = decltype(t);
        const T *v = x.Data<T>();
        T *o = out->template Data<T>();
        const bool nulls = x.HasNulls();
        using Acc = std::conditional_t<std::is_floating_point_v<T>, double, __int128>;
        Acc acc = 0;
        T best{};
        int64_t cnt = 0, ps = -1, pe = -1;
        for (int64_t i = 0; i < n && err.ok(); ++i) {
            PollCancel(i);
            const int64_t s = st[i], e = std::max(en[i], s);
            int64_t from = s;
            if (i > 0 && s == ps && e >= pe) {
                from = pe;  // continue the previous frame
            } else {
                acc = std::is_floating_point_v<T> ? Acc(-0.0) : Acc(0);
                cnt = 0;
            }
            for (int64_t r = from; r < e; ++r) {
                if (nulls && !x.IsValid(r)) continue;
                if (sum) {
                    if constexpr (kIsInterval<T>) {
                        break;  // never reached: sum over intervals is not this fast path
                    } else if constexpr (std::is_floating_point_v<T>) {
                        const Acc next = acc + v[r];  // float8pl: a finite sum turned infinite is an error
                        if (OverflowedToInfinity<Acc>(next, acc, v[r])) {
                            err = FloatOutOfRange("overflow");
                            break;
                        }
                        acc = next;
                    } else if (__builtin_add_overflow(acc, static_cast<__int128>(v[r]), &acc)) {
                        err = Status::UserError(sqlstate::kNumericOutOfRange, "value overflows numeric format");
                        break;
                    }
                } else if (cnt == 0 || (mx ? SqlCompare(v[r], best) >= 0 : SqlCompare(v[r], best) <= 0)) {
                    best = v[r];
                }
                ++cnt;
            }
            ps = s;
            pe = e;
            if (cnt == 0) {
                empty_rows.push_back(i);
                continue;
            }
            if (!sum) {
                o[i] = best;
            } else if constexpr (kIsInterval<T>) {
                // never reached: sum over intervals is not this fast path
            } else if constexpr (std::is_floating_point_v<T>) {
                o[i] = static_cast<T>(acc);
            } else {
                if (x.type.kind == TypeKind::I64 && (acc > INT64_MAX || acc < INT64_MIN)) {
                    err = IntegerOutOfRange(TypeKind::I64);
                    break;
                }
                o[i] = static_cast<T>(acc);
            }
        }
        return 0;
    });
    RNDN_RETURN_IF_ERROR(err);
    if (!empty_rows.empty()) {
        out->EnsureValidity();
        for (int64_t r : empty_rows) out->SetNull(r);
    }
    result = V(out);
    return true;
}
}  // namespace

// @frame(fn, x, start, end): fn over each row's frame [start, end) of x.  Rows whose frame
// equals the previous row's (peers under a RANGE frame, whole partitions) share one call.
// @count and @len come from prefix counts.  A frame that keeps the previous row's start and
// only grows at its end (a running frame) continues the previous result for the reductions that
// compose (@min, @max, @any, @all, and @sum whose result type is its input's: i64, f64,
// decimal): fn(previous result, the new rows), which adds a float sum's values in the same
// order as reducing the whole frame.  Any other frame is gathered and reduced from its first
// row on: the order in which PostgreSQL accumulates a frame whose aggregate has no inverse
// transition (it restarts the aggregate when the frame's start moves: float sums).
Expected<Value> KFrame(KernelCtx &ctx, const std::vector<Value> &args) {
    RNDN_RETURN_IF_ERROR(NeedFunc(args[0], "frame"));
    for (int i = 1; i < 4; ++i)
        if (!args[i].is_vector()) return TypeError("@frame: argument " + std::to_string(i + 1) + " must be a vector");
    const Vector &x = args[1].vector();
    RNDN_ASSIGN_OR_RETURN(auto sv, As(args[2].vector_ptr(), TypeKind::I64));
    RNDN_ASSIGN_OR_RETURN(auto ev, As(args[3].vector_ptr(), TypeKind::I64));
    if (sv->length != ev->length) return ShapeError("@frame: frame starts and ends differ in length");
    if (sv->HasNulls() || ev->HasNulls()) return ShapeError("@frame: NULL frame bound");
    const int64_t n = sv->length;
    const int64_t *st = sv->Data<int64_t>(), *en = ev->Data<int64_t>();
    std::vector<int64_t> rows(static_cast<size_t>(x.length));
    for (int64_t i = 0; i < x.length; ++i) PollCancel(i), rows[static_cast<size_t>(i)] = i;
    for (int64_t i = 0; i < n; ++i)
        if (st[i] < 0 || std::max(en[i], st[i]) > x.length)
            return ShapeError("@frame: frame [" + std::to_string(st[i]) + ", " + std::to_string(en[i]) + ") outside a vector of length " +
                              std::to_string(x.length));
    const FuncRef &fn = args[0].func();
    const int b = fn.builtin;
    Value out_fast;
    if (b == static_cast<int>(Builtin::COUNT) || b == static_cast<int>(Builtin::LEN)) {
        std::vector<int64_t> before(static_cast<size_t>(x.length) + 1, 0);  // counted rows before each row
        for (int64_t i = 0; i < x.length; ++i)
            PollCancel(i), before[static_cast<size_t>(i) + 1] = before[static_cast<size_t>(i)] + (b == static_cast<int>(Builtin::LEN) || x.IsValid(i));
        RNDN_ASSIGN_OR_RETURN(auto cnt, MakeVectorUninit(TypeKind::I64, n));
        for (int64_t i = 0; i < n; ++i)
            PollCancel(i), cnt->Data<int64_t>()[i] = before[static_cast<size_t>(std::max(en[i], st[i]))] - before[static_cast<size_t>(st[i])];
        return V(cnt);
    }
    {
        RNDN_ASSIGN_OR_RETURN(bool done, FrameFixed(ctx, fn, x, st, en, n, out_fast));
        if (done) return out_fast;
    }
    const bool composes = b == static_cast<int>(Builtin::MIN) || b == static_cast<int>(Builtin::MAX) || b == static_cast<int>(Builtin::ANY) ||
                          b == static_cast<int>(Builtin::ALL) ||
                          (b == static_cast<int>(Builtin::SUM) &&
                           (x.type.kind == TypeKind::I64 || x.type.kind == TypeKind::F64 || x.type.kind == TypeKind::DEC128));
    std::vector<Value> out;
    out.reserve(static_cast<size_t>(n));
    int64_t prev_s = -1, prev_e = -1;
    for (int64_t i = 0; i < n; ++i) {
        if ((i & 0x3ff) == 0 && ctx.Cancelled()) return Status::Cancelled();
        const int64_t s = st[i], e = std::max(en[i], s);
        if (i > 0 && s == prev_s && e == prev_e) {
            out.push_back(out.back());
            continue;
        }
        Value r;
        if (composes && i > 0 && s == prev_s && e > prev_e && prev_e > prev_s) {
            RNDN_ASSIGN_OR_RETURN(auto added, Gather(x, rows.data() + prev_e, e - prev_e));
            RNDN_ASSIGN_OR_RETURN(Value both, KAppend(ctx, {out.back(), Value(added)}));
            RNDN_ASSIGN_OR_RETURN(r, CallOne(ctx, fn, {both}, "frame"));
        } else {
            RNDN_ASSIGN_OR_RETURN(auto part, Gather(x, rows.data() + s, e - s));
            RNDN_ASSIGN_OR_RETURN(r, CallOne(ctx, fn, {Value(part)}, "frame"));
        }
        if (!r.is_vector() || r.vector().length != 1) return TypeError("@frame: the function must return one value");
        out.push_back(std::move(r));
        prev_s = s;
        prev_e = e;
    }
    return KRaze(ctx, {MakeListValue(std::move(out))});
}

Expected<Value> KEachLeft(KernelCtx &ctx, const std::vector<Value> &args) {
    RNDN_RETURN_IF_ERROR(NeedFunc(args[0], "each_left"));
    RNDN_RETURN_IF_ERROR(NeedList(args[1], "each_left", 1));
    std::vector<Value> out;
    size_t i = 0;
    for (const auto &c : args[1].list().cells) {
        if ((++i & 0x3ff) == 0 && ctx.Cancelled()) return Status::Cancelled();
        RNDN_ASSIGN_OR_RETURN(Value r, CallOne(ctx, args[0].func(), {c, args[2]}, "each_left"));
        out.push_back(std::move(r));
    }
    return MakeListValue(std::move(out));
}

Expected<Value> KEachRight(KernelCtx &ctx, const std::vector<Value> &args) {
    RNDN_RETURN_IF_ERROR(NeedFunc(args[0], "each_right"));
    RNDN_RETURN_IF_ERROR(NeedList(args[2], "each_right", 2));
    std::vector<Value> out;
    size_t i = 0;
    for (const auto &c : args[2].list().cells) {
        if ((++i & 0x3ff) == 0 && ctx.Cancelled()) return Status::Cancelled();
        RNDN_ASSIGN_OR_RETURN(Value r, CallOne(ctx, args[0].func(), {args[1], c}, "each_right"));
        out.push_back(std::move(r));
    }
    return MakeListValue(std::move(out));
}

Expected<Value> KEachItem(KernelCtx &ctx, const std::vector<Value> &args) {
    RNDN_RETURN_IF_ERROR(NeedFunc(args[0], "each_item"));
    RNDN_RETURN_IF_ERROR(NeedList(args[1], "each_item", 1));
    RNDN_RETURN_IF_ERROR(NeedList(args[2], "each_item", 2));
    const auto &a = args[1].list().cells, &b = args[2].list().cells;
    if (a.size() != b.size() && a.size() != 1 && b.size() != 1) return ShapeError("@each_item: lists differ in length");
    size_t n = std::max(a.size(), b.size());
    if (a.empty() || b.empty()) n = 0;
    std::vector<Value> out;
    for (size_t i = 0; i < n; ++i) {
        if ((i & 0x3ff) == 0 && ctx.Cancelled()) return Status::Cancelled();
        RNDN_ASSIGN_OR_RETURN(Value r, CallOne(ctx, args[0].func(), {a[a.size() == 1 ? 0 : i], b[b.size() == 1 ? 0 : i]}, "each_item"));
        out.push_back(std::move(r));
    }
    return MakeListValue(std::move(out));
}

namespace {
bool DeepEqual(const Value &a, const Value &b) {
    if (a.kind() != b.kind()) return false;
    switch (a.kind()) {
        case ValueKind::VECTOR: {
            const Vector &x = a.vector(), &y = b.vector();
            if (x.length != y.length) return false;
            if (x.type.kind != y.type.kind && !(IsString(x.type.kind) && IsString(y.type.kind))) return false;
            for (int64_t i = 0; i < x.length; ++i)
                if (CompareElements(x, i, y, i) != 0) return false;
            return true;
        }
        case ValueKind::LIST: {
            const auto &x = a.list().cells, &y = b.list().cells;
            if (x.size() != y.size()) return false;
            for (size_t i = 0; i < x.size(); ++i)
                if (!DeepEqual(x[i], y[i])) return false;
            return true;
        }
        case ValueKind::DICT: return DeepEqual(a.dict().keys, b.dict().keys) && DeepEqual(a.dict().values, b.dict().values);
        case ValueKind::ENUM: return DeepEqual(Value(a.enumeration().values), Value(b.enumeration().values));
        case ValueKind::TABLE: {
            const Table &x = a.table(), &y = b.table();
            if (x.names != y.names) return false;
            for (size_t i = 0; i < x.columns.size(); ++i)
                if (!DeepEqual(x.columns[i], y.columns[i])) return false;
            return true;
        }
        case ValueKind::FUNC: return a.func().name == b.func().name && a.func().module == b.func().module;
        default: return false;
    }
}
}  // namespace

Expected<Value> KMatch(KernelCtx &, const std::vector<Value> &args) { return Value(ScalarBool(DeepEqual(args[0], args[1]))); }

// ---------------------------------------------------------------------------------------------
// Tables and enums

Expected<Value> KLoadTable(KernelCtx &ctx, const std::vector<Value> &args) {
    Status st;
    std::string name = SymAt(args[0], "load_table", &st);
    RNDN_RETURN_IF_ERROR(st);
    if (!ctx.data) return Status::Internal("@load_table: no data registry");
    RNDN_ASSIGN_OR_RETURN(auto t, ctx.data->GetTable(name));
    return Value(t);
}

Expected<Value> KColumnValue(KernelCtx &, const std::vector<Value> &args) {
    if (args[0].kind() != ValueKind::TABLE) return TypeError("@column_value: argument 1 must be a table");
    Status st;
    std::string name = SymAt(args[1], "column_value", &st);
    RNDN_RETURN_IF_ERROR(st);
    const Table &t = args[0].table();
    for (size_t i = 0; i < t.names.size(); ++i)
        if (t.names[i] == name) return t.columns[i];
    return Status::UserError(sqlstate::kInvalidParameter, "column \"" + name + "\" does not exist");
}

Expected<Value> KMakeTable(KernelCtx &, const std::vector<Value> &args) {
    RNDN_RETURN_IF_ERROR(NeedVector(args[0], "table", 0));
    RNDN_RETURN_IF_ERROR(NeedList(args[1], "table", 1));
    const Vector &names = args[0].vector();
    if (!IsString(names.type.kind)) return TypeError("@table: column names must be symbols");
    const auto &cols = args[1].list().cells;
    if (static_cast<size_t>(names.length) != cols.size())
        return ShapeError("@table: " + std::to_string(names.length) + " names for " + std::to_string(cols.size()) + " columns");
    auto t = std::make_shared<Table>();
    for (int64_t i = 0; i < names.length; ++i) {
        std::string n(names.StringAt(i));
        for (const auto &m : t->names)
            if (m == n) return ShapeError("@table: duplicate column name \"" + n + "\"");
        t->names.push_back(n);
    }
    int64_t rows = -1;
    for (const auto &c : cols) {
        int64_t len;
        if (c.is_vector()) len = c.vector().length;
        else if (c.kind() == ValueKind::ENUM) len = c.enumeration().values->length;
        else return TypeError("@table: columns must be vectors");
        if (rows >= 0 && len != rows) return ShapeError("@table: columns differ in length");
        rows = len;
        t->columns.push_back(c);
    }
    return Value(std::shared_ptr<const Table>(t));
}

Expected<Value> KMakeKtable(KernelCtx &, const std::vector<Value> &args) {
    if (args[0].kind() != ValueKind::TABLE || args[1].kind() != ValueKind::TABLE) return TypeError("@ktable: expects two tables");
    if (args[0].table().rows() != args[1].table().rows()) return ShapeError("@ktable: tables differ in row count");
    auto k = std::make_shared<KTable>();
    // share the tables: wrap in non-owning copies of the shared values
    k->key = std::make_shared<Table>(args[0].table());
    k->value = std::make_shared<Table>(args[1].table());
    return Value(std::shared_ptr<const KTable>(k));
}

Expected<Value> KKeys(KernelCtx &, const std::vector<Value> &args) {
    const Value &v = args[0];
    switch (v.kind()) {
        case ValueKind::DICT: return v.dict().keys;
        case ValueKind::ENUM: return Value(v.enumeration().keys);
        case ValueKind::KTABLE: return Value(v.ktable().key);
        case ValueKind::TABLE: {
            RNDN_ASSIGN_OR_RETURN(auto out, MakeVector(TypeKind::SYM, 0));
            for (const auto &n : v.table().names) out->AppendString(n);
            return V(out);
        }
        default: return TypeError("@keys: expects a dict, table, enum or ktable");
    }
}

Expected<Value> KValues(KernelCtx &, const std::vector<Value> &args) {
    const Value &v = args[0];
    switch (v.kind()) {
        case ValueKind::DICT: return v.dict().values;
        case ValueKind::ENUM: return Value(v.enumeration().indexes);
        case ValueKind::KTABLE: return Value(v.ktable().value);
        case ValueKind::TABLE: return MakeListValue(v.table().columns);
        default: return TypeError("@values: expects a dict, table, enum or ktable");
    }
}

Expected<Value> KFetch(KernelCtx &, const std::vector<Value> &args) {
    if (args[0].kind() != ValueKind::ENUM) return TypeError("@fetch: expects an enum");
    return Value(args[0].enumeration().values);
}

Expected<Value> KEnum(KernelCtx &, const std::vector<Value> &args) {
    RNDN_RETURN_IF_ERROR(NeedVector(args[0], "enum", 0));
    RNDN_RETURN_IF_ERROR(NeedVector(args[1], "enum", 1));
    RNDN_ASSIGN_OR_RETURN(auto e, MakeEnum(args[0].vector_ptr(), args[1].vector_ptr()));
    return Value(std::shared_ptr<const Enum>(e));
}

Expected<Value> KDict(KernelCtx &, const std::vector<Value> &args) {
    auto d = std::make_shared<Dict>();
    d->keys = args[0];
    d->values = args[1];
    return Value(std::shared_ptr<const Dict>(d));
}

Expected<Value> KPrint(KernelCtx &, const std::vector<Value> &args) {
    std::cout << FormatValue(args[0]);
    return Value(ScalarI64(0));
}

Expected<Value> KStr(KernelCtx &, const std::vector<Value> &args) {
    RNDN_ASSIGN_OR_RETURN(auto out, MakeVector(TypeKind::STR, 0));
    out->AppendString(FormatValue(args[0]));
    return V(out);
}

}  // namespace rndn::hir
