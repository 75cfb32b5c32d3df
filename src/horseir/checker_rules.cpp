// Per-builtin type rules (the RULE column of builtins.def) and the builtin table itself.
#include <algorithm>

#include "horseir/internal.h"

namespace rndn::hir {

namespace {

using Types = std::vector<Type>;
using R = Expected<Types>;

Status Fail(RuleCtx &c, const char *what) {
    std::string s = std::string(what) + " (arguments:";
    for (size_t i = 0; i < c.args.size(); ++i) s += (i ? ", " : " ") + TypeToString(c.args[i]);
    return TypeError(s + ")");
}

TypeKind K(const Type &t) { return t.kind; }
bool Real(const Type &t) { return IsReal(t.kind); }
bool Int(const Type &t) { return IsInteger(t.kind); }
bool Str(const Type &t) { return IsString(t.kind); }
bool Cal(const Type &t) { return IsCalendar(t.kind); }
bool Basic(const Type &t) { return IsBasic(t.kind); }
bool Dec(const Type &t) { return IsDecimal(t.kind); }
bool Orderable(const Type &t) { return Real(t) || Str(t) || Cal(t) || t.kind == TypeKind::INTERVAL; }
bool Extended(const Type &t) { return t.kind == TypeKind::I64 || t.kind == TypeKind::F64 || Dec(t); }
int ScaleOf(const Type &t) { return Dec(t) ? t.scale : 0; }
int MaxScale(const Type &a, const Type &b) {
    if (ScaleOf(a) == Type::kUnknownScale || ScaleOf(b) == Type::kUnknownScale) return Type::kUnknownScale;
    return std::max(ScaleOf(a), ScaleOf(b));
}
Types One(Type t) { return Types{std::move(t)}; }

// Cell types of a list type, expanded to n cells when the list is homogeneous (n < 0: as is).
bool ListCells(const Type &t, Types &cells) {
    if (t.kind != TypeKind::LIST) return false;
    cells = t.params;
    return true;
}

Type MathResult(const Type &t) { return Extended(t) ? TypeKind::F64 : TypeKind::F32; }

R RuleRealSame(RuleCtx &c) {
    if (!Real(c.args[0])) return Fail(c, "expects a real argument");
    return One(c.args[0]);
}
// ceil/floor/round: a decimal gives dec128<0> (PostgreSQL's numeric ceil/floor/round(x) print no
// fraction digits), other reals keep their type
R RuleRounding(RuleCtx &c) {
    if (!Real(c.args[0])) return Fail(c, "expects a real argument");
    if (IsDecimal(c.args[0].kind)) return One(Type::Decimal(TypeKind::DEC128, 0));
    return One(c.args[0]);
}
R RuleNumericFit(RuleCtx &c) {
    if (!IsDecimal(c.args[0].kind) || !Int(c.args[1])) return Fail(c, "expects (decimal, integer)");
    return One(c.args[0]);
}
R RuleNeg(RuleCtx &c) {
    if (!Real(c.args[0])) return Fail(c, "expects a real argument");
    return One(c.args[0].kind == TypeKind::BOOL ? Type(TypeKind::I16) : c.args[0]);
}
R RuleComplex(RuleCtx &c) {
    if (K(c.args[0]) != TypeKind::COMPLEX) return Fail(c, "expects a complex argument");
    return One(c.args[0]);
}
R RuleMath(RuleCtx &c) {
    if (!Real(c.args[0])) return Fail(c, "expects a real argument");
    return One(MathResult(c.args[0]));
}
R RuleSignum(RuleCtx &c) {
    if (!Real(c.args[0])) return Fail(c, "expects a real argument");
    return One(TypeKind::I16);
}
R RuleNot(RuleCtx &c) {
    if (K(c.args[0]) != TypeKind::BOOL) return Fail(c, "expects a bool argument");
    return One(TypeKind::BOOL);
}
R RuleCompare(RuleCtx &c) {
    const Type &a = c.args[0], &b = c.args[1];
    if ((Real(a) && Real(b)) || (Cal(a) && a.kind == b.kind) || (Str(a) && Str(b))) return One(TypeKind::BOOL);
    if (a.kind == TypeKind::INTERVAL && b.kind == TypeKind::INTERVAL) return One(TypeKind::BOOL);  // by span
    return Fail(c, "operands are not comparable");
}

// Arithmetic result type for plus/minus/mod (scale = max) and mul (scale = sum).
Expected<Type> ArithType(RuleCtx &c, bool mul) {
    const Type &a = c.args[0], &b = c.args[1];
    if (!Real(a) || !Real(b)) return Fail(c, "expects real arguments");
    Type w = WidestType(a, b);
    if (Dec(w)) {
        w.kind = TypeKind::DEC128;
        if (mul) {
            int sa = ScaleOf(a), sb = ScaleOf(b);
            w.scale = (sa == Type::kUnknownScale || sb == Type::kUnknownScale) ? Type::kUnknownScale : sa + sb;
            if (w.scale > 38) return Fail(c, "decimal result scale exceeds 38");
        } else {
            w.scale = MaxScale(a, b);
        }
    }
    return w;
}

R RulePlus(RuleCtx &c) {
    const Type &a = c.args[0], &b = c.args[1];
    if (Int(a) && Cal(b)) return One(b);
    if (Cal(a) && Int(b)) return One(a);
    RNDN_ASSIGN_OR_RETURN(Type w, ArithType(c, false));
    return One(w);
}
R RuleMinus(RuleCtx &c) {
    const Type &a = c.args[0], &b = c.args[1];
    if (Cal(a) && Int(b)) return One(a);
    if (Cal(a) && a.kind == b.kind)
        return One(a.kind == TypeKind::DT || a.kind == TypeKind::TIME ? Type(TypeKind::I64) : Type(TypeKind::I32));
    RNDN_ASSIGN_OR_RETURN(Type w, ArithType(c, false));
    return One(w);
}
R RuleArith(RuleCtx &c) {
    RNDN_ASSIGN_OR_RETURN(Type w, ArithType(c, true));
    return One(w);
}
R RuleDiv(RuleCtx &c) {
    RNDN_ASSIGN_OR_RETURN(Type w, ArithType(c, false));
    if (Dec(w)) w = Type::Decimal(TypeKind::DEC128, Type::kUnknownScale);
    return One(w);
}
R RuleMath2(RuleCtx &c) {
    if (!Real(c.args[0]) || !Real(c.args[1])) return Fail(c, "expects real arguments");
    return One(MathResult(WidestType(c.args[0], c.args[1])));
}
R RuleMod(RuleCtx &c) {
    if (K(c.args[0]) == TypeKind::BOOL && K(c.args[1]) == TypeKind::BOOL) return One(TypeKind::I16);
    RNDN_ASSIGN_OR_RETURN(Type w, ArithType(c, false));
    return One(w);
}
R RuleLogic(RuleCtx &c) {
    if (K(c.args[0]) != TypeKind::BOOL || K(c.args[1]) != TypeKind::BOOL) return Fail(c, "expects bool arguments");
    return One(TypeKind::BOOL);
}
R RuleWhere(RuleCtx &c) {
    if (K(c.args[0]) != TypeKind::BOOL) return Fail(c, "expects a bool argument");
    return One(TypeKind::I64);
}
R RuleUnique(RuleCtx &c) {
    if (!Basic(c.args[0])) return Fail(c, "expects a basic vector");
    return One(TypeKind::I64);
}
R RuleGroupDistinct(RuleCtx &c) {
    if (!Basic(c.args[0]) || c.args[1].kind != TypeKind::LIST) return Fail(c, "expects (basic vector, list of row numbers)");
    return One(TypeKind::I64);
}
R RuleGroup(RuleCtx &c) {
    Types cells;
    if (Basic(c.args[0]) || (ListCells(c.args[0], cells) && !cells.empty() && std::all_of(cells.begin(), cells.end(), Basic)))
        return One(Type::Dict(TypeKind::I64, TypeKind::I64));
    return Fail(c, "expects a basic vector or a list of basic vectors");
}
R RuleRange(RuleCtx &c) {
    if (!Int(c.args[0])) return Fail(c, "expects an integer argument");
    return One(TypeKind::I64);
}
R RuleIntToI64(RuleCtx &c) { return RuleRange(c); }
R RuleFlip(RuleCtx &c) {
    if (K(c.args[0]) != TypeKind::LIST) return Fail(c, "expects a list");
    return One(Type::List({Type()}));
}
R RuleBasicSame(RuleCtx &c) {
    if (!Basic(c.args[0])) return Fail(c, "expects a basic vector");
    return One(c.args[0]);
}
R RuleCompress(RuleCtx &c) {
    if (K(c.args[0]) != TypeKind::BOOL || !Basic(c.args[1])) return Fail(c, "expects (bool, basic vector)");
    return One(c.args[1]);
}
R RuleAppend(RuleCtx &c) {
    const Type &a = c.args[0], &b = c.args[1];
    if (a.kind == TypeKind::LIST || b.kind == TypeKind::LIST) {
        Types ca, cb;
        if (a.kind == TypeKind::LIST && b.kind == TypeKind::LIST && a.params.size() == 1 && a == b) return One(a);
        return One(Type::List({Type()}));
    }
    if (a.kind == TypeKind::ENUM && a.params.size() == 1 && a.params[0] == b) return One(a);
    if (Real(a) && Real(b)) {
        Type w = WidestType(a, b);
        if (Dec(w)) w = Type::Decimal(TypeKind::DEC128, MaxScale(a, b));
        return One(w);
    }
    if (Basic(a) && a == b) return One(a);
    if (Str(a) && Str(b)) return One(a);
    return Fail(c, "operands cannot be appended");
}
R RuleMember(RuleCtx &c) {
    const Type &a = c.args[0], &b = c.args[1];
    if ((Real(a) && Real(b)) || (Str(a) && Str(b)) || (Basic(a) && a == b)) return One(TypeKind::BOOL);
    return Fail(c, "operands are not comparable");
}
R RuleIndexOf(RuleCtx &c) {
    const Type &a = c.args[0], &b = c.args[1];
    if ((Real(a) && Real(b)) || (Str(a) && Str(b)) || (Basic(a) && a == b)) return One(TypeKind::I64);
    return Fail(c, "operands are not comparable");
}
R RuleVector(RuleCtx &c) {
    if (!Int(c.args[0]) || !Basic(c.args[1])) return Fail(c, "expects (integer, basic vector)");
    return One(c.args[1]);
}
R RuleOrder(RuleCtx &c) {
    Types cells;
    bool keys_ok = Orderable(c.args[0]) ||
                   (ListCells(c.args[0], cells) && !cells.empty() && std::all_of(cells.begin(), cells.end(), Orderable));
    if (!keys_ok || K(c.args[1]) != TypeKind::BOOL) return Fail(c, "expects (orderable vector or list, bool)");
    return One(TypeKind::I64);
}
R RuleLike(RuleCtx &c) {
    if (!Str(c.args[0]) || !Str(c.args[1])) return Fail(c, "expects string arguments");
    return One(TypeKind::BOOL);
}
R RuleTake(RuleCtx &c) {
    if (!Int(c.args[0]) || !Basic(c.args[1])) return Fail(c, "expects (integer, basic vector)");
    return One(c.args[1]);
}
R RuleReplicate(RuleCtx &c) {
    if (!Int(c.args[0])) return Fail(c, "expects an integer count");
    return One(Type::List({Type()}));
}
R RuleRandk(RuleCtx &c) {
    if (!Int(c.args[0]) || !Int(c.args[1])) return Fail(c, "expects integer arguments");
    return One(TypeKind::I64);
}
R RuleLen(RuleCtx &) { return One(TypeKind::I64); }
R RuleSum(RuleCtx &c) {
    const Type &a = c.args[0];
    if (!Real(a)) return Fail(c, "expects a real argument");
    if (Dec(a)) return One(Type::Decimal(TypeKind::DEC128, a.scale));
    if (a.kind == TypeKind::F32 || a.kind == TypeKind::F64 || a.kind == TypeKind::I64) return One(a);
    return One(TypeKind::I32);
}
R RuleAvg(RuleCtx &c) {
    const Type &a = c.args[0];
    if (!Real(a)) return Fail(c, "expects a real argument");
    if (Dec(a)) return One(Type::Decimal(TypeKind::DEC128, Type::kUnknownScale));
    return One(MathResult(a));
}
R RuleMinMax(RuleCtx &c) {
    if (!Orderable(c.args[0])) return Fail(c, "expects an orderable argument");
    return One(c.args[0]);
}
R RuleList(RuleCtx &c) {
    if (c.args.empty()) return One(Type::List({Type()}));
    bool same = std::all_of(c.args.begin(), c.args.end(), [&](const Type &t) { return t == c.args[0]; });
    return One(Type::List(same ? Types{c.args[0]} : c.args));
}
R RuleRaze(RuleCtx &c) {
    Types cells;
    if (Basic(c.args[0])) return One(c.args[0]);
    if (!ListCells(c.args[0], cells) || cells.empty()) return Fail(c, "expects a list");
    Type t = cells[0];
    for (const auto &x : cells) {
        if (!Basic(x)) return Fail(c, "expects a list of basic vectors");
        if (x != t) {
            if (Real(x) && Real(t)) t = WidestType(x, t);
            else return Fail(c, "list cells differ in type");
        }
    }
    return One(t);
}
R RuleTolist(RuleCtx &c) {
    if (!Basic(c.args[0])) return Fail(c, "expects a basic vector");
    return One(Type::List({c.args[0]}));
}

// Applies f to each cell type and collects a list type.
R EachGeneric(RuleCtx &c, const FuncRef *f, const Type &list, const std::function<Types(const Type &)> &args_for) {
    if (!f) return Fail(c, "expects a function as first argument");
    Types cells;
    if (!ListCells(list, cells) || cells.empty()) return Fail(c, "expects a list");
    Types out;
    for (const auto &cell : cells) {
        if (cell.kind == TypeKind::WILDCARD) return One(Type::List({Type()}));
        RNDN_ASSIGN_OR_RETURN(Types r, c.apply(*f, args_for(cell)));
        if (r.size() != 1) return Fail(c, "the function must return exactly one value");
        out.push_back(r[0]);
    }
    bool same = std::all_of(out.begin(), out.end(), [&](const Type &t) { return t == out[0]; });
    return One(Type::List(same ? Types{out[0]} : out));
}
R RuleEach(RuleCtx &c) {
    return EachGeneric(c, c.funcs[0], c.args[1], [](const Type &t) { return Types{t}; });
}
R RuleEachLeft(RuleCtx &c) {
    Type y = c.args[2];
    return EachGeneric(c, c.funcs[0], c.args[1], [&](const Type &t) { return Types{t, y}; });
}
R RuleEachRight(RuleCtx &c) {
    Type x = c.args[1];
    return EachGeneric(c, c.funcs[0], c.args[2], [&](const Type &t) { return Types{x, t}; });
}
R RuleEachItem(RuleCtx &c) {
    if (!c.funcs[0]) return Fail(c, "expects a function as first argument");
    Types a, b;
    if (!ListCells(c.args[1], a) || !ListCells(c.args[2], b) || a.empty() || b.empty()) return Fail(c, "expects two lists");
    size_t n = std::max(a.size(), b.size());
    Types out;
    for (size_t i = 0; i < n; ++i) {
        const Type &x = a[a.size() == 1 ? 0 : std::min(i, a.size() - 1)];
        const Type &y = b[b.size() == 1 ? 0 : std::min(i, b.size() - 1)];
        RNDN_ASSIGN_OR_RETURN(Types r, c.apply(*c.funcs[0], Types{x, y}));
        if (r.size() != 1) return Fail(c, "the function must return exactly one value");
        out.push_back(r[0]);
    }
    bool same = std::all_of(out.begin(), out.end(), [&](const Type &t) { return t == out[0]; });
    return One(Type::List(same ? Types{out[0]} : out));
}
R RuleMatch(RuleCtx &) { return One(TypeKind::BOOL); }
R RuleDtToDate(RuleCtx &c) {
    if (K(c.args[0]) != TypeKind::DT) return Fail(c, "expects a dt argument");
    return One(TypeKind::DATE);
}
R RuleDtToTime(RuleCtx &c) {
    if (K(c.args[0]) != TypeKind::DT) return Fail(c, "expects a dt argument");
    return One(TypeKind::TIME);
}
R KindsToI16(RuleCtx &c, std::initializer_list<TypeKind> ok) {
    for (TypeKind k : ok)
        if (K(c.args[0]) == k) return One(TypeKind::I16);
    return Fail(c, "argument has the wrong calendar type");
}
R RuleDatePart(RuleCtx &c) { return KindsToI16(c, {TypeKind::DT, TypeKind::DATE, TypeKind::MONTH}); }
R RuleDayPart(RuleCtx &c) { return KindsToI16(c, {TypeKind::DT, TypeKind::DATE}); }
R RuleHourPart(RuleCtx &c) { return KindsToI16(c, {TypeKind::DT, TypeKind::MINUTE, TypeKind::SECOND, TypeKind::TIME}); }
R RuleSecondPart(RuleCtx &c) { return KindsToI16(c, {TypeKind::DT, TypeKind::SECOND, TypeKind::TIME}); }
R RuleMillPart(RuleCtx &c) { return KindsToI16(c, {TypeKind::DT, TypeKind::TIME}); }
R RuleDatetimeAdd(RuleCtx &c) {
    if (!Cal(c.args[0]) || !Int(c.args[1]) || K(c.args[2]) != TypeKind::SYM) return Fail(c, "expects (calendar, integer, sym)");
    return One(c.args[0]);
}
R RuleDateTrunc(RuleCtx &c) {
    if (K(c.args[0]) != TypeKind::DT || K(c.args[1]) != TypeKind::SYM) return Fail(c, "expects (dt, sym)");
    return One(TypeKind::DT);
}
R RuleDateField(RuleCtx &c) {
    if ((K(c.args[0]) != TypeKind::DT && K(c.args[0]) != TypeKind::DATE) || K(c.args[1]) != TypeKind::SYM)
        return Fail(c, "expects (date or dt, sym)");
    return One(TypeKind::I64);
}
R RuleDateFieldUs(RuleCtx &c) {
    if (K(c.args[0]) != TypeKind::DT || K(c.args[1]) != TypeKind::SYM) return Fail(c, "expects (dt, sym)");
    return One(Type::Decimal(TypeKind::DEC128, 6));
}
R RuleDateFieldF(RuleCtx &c) {
    if ((K(c.args[0]) != TypeKind::DT && K(c.args[0]) != TypeKind::DATE) || K(c.args[1]) != TypeKind::SYM)
        return Fail(c, "expects (date or dt, sym)");
    return One(TypeKind::F64);
}
R RuleIntervalAdd(RuleCtx &c) {
    if ((K(c.args[0]) != TypeKind::DT && K(c.args[0]) != TypeKind::DATE) || K(c.args[1]) != TypeKind::I64)
        return Fail(c, "expects (date or dt, (months, days, microseconds):i64)");
    return One(TypeKind::DT);
}
R RuleTsDiff(RuleCtx &c) {
    if (K(c.args[0]) != TypeKind::DT || K(c.args[1]) != TypeKind::DT) return Fail(c, "expects (dt, dt)");
    return One(TypeKind::INTERVAL);
}
R RuleIntervalShift(RuleCtx &c) {
    if ((K(c.args[0]) != TypeKind::DT && K(c.args[0]) != TypeKind::DATE) || K(c.args[1]) != TypeKind::INTERVAL)
        return Fail(c, "expects (date or dt, interval)");
    return One(TypeKind::DT);
}
R RuleIntervalBinary(RuleCtx &c) {
    if (K(c.args[0]) != TypeKind::INTERVAL || K(c.args[1]) != TypeKind::INTERVAL) return Fail(c, "expects (interval, interval)");
    return One(TypeKind::INTERVAL);
}
R RuleIntervalUnary(RuleCtx &c) {
    if (K(c.args[0]) != TypeKind::INTERVAL) return Fail(c, "expects an interval");
    return One(TypeKind::INTERVAL);
}
R RuleIntervalScale(RuleCtx &c) {
    if (K(c.args[0]) != TypeKind::INTERVAL || !IsFloat(K(c.args[1]))) return Fail(c, "expects (interval, f64)");
    return One(TypeKind::INTERVAL);
}
R RuleIntervalField(RuleCtx &c) {
    if (K(c.args[0]) != TypeKind::INTERVAL || K(c.args[1]) != TypeKind::SYM) return Fail(c, "expects (interval, sym)");
    return One(Type::Decimal(TypeKind::DEC128, 6));
}
R RuleIntervalFieldF(RuleCtx &c) {
    if (K(c.args[0]) != TypeKind::INTERVAL || K(c.args[1]) != TypeKind::SYM) return Fail(c, "expects (interval, sym)");
    return One(TypeKind::F64);
}
R RuleIntervalReduce(RuleCtx &c) {
    if (K(c.args[0]) != TypeKind::INTERVAL) return Fail(c, "expects an interval");
    return One(TypeKind::INTERVAL);
}
R RuleDatetimeDiff(RuleCtx &c) {
    if (!Cal(c.args[0]) || c.args[0].kind != c.args[1].kind) return Fail(c, "expects two values of one calendar type");
    return One(c.args[0].kind == TypeKind::DT || c.args[0].kind == TypeKind::TIME ? Type(TypeKind::I64) : Type(TypeKind::I32));
}
R RuleLoadTable(RuleCtx &c) {
    if (K(c.args[0]) != TypeKind::SYM) return Fail(c, "expects a sym argument");
    return One(TypeKind::TABLE);
}
R RuleColumnValue(RuleCtx &c) {
    if (K(c.args[0]) != TypeKind::TABLE || K(c.args[1]) != TypeKind::SYM) return Fail(c, "expects (table, sym)");
    return One(Type());
}
R RuleTable(RuleCtx &c) {
    if (K(c.args[0]) != TypeKind::SYM || K(c.args[1]) != TypeKind::LIST) return Fail(c, "expects (sym, list)");
    return One(TypeKind::TABLE);
}
R RuleKtable(RuleCtx &c) {
    if (K(c.args[0]) != TypeKind::TABLE || K(c.args[1]) != TypeKind::TABLE) return Fail(c, "expects (table, table)");
    return One(TypeKind::KTABLE);
}
R RuleKeys(RuleCtx &c) {
    const Type &a = c.args[0];
    switch (a.kind) {
        case TypeKind::DICT: {
            const Type &k = a.params[0];
            if (Basic(k) || k.kind == TypeKind::LIST) return One(k);
            return One(Type::List({k}));
        }
        case TypeKind::TABLE: return One(TypeKind::SYM);
        case TypeKind::ENUM: return One(a.params[0]);
        case TypeKind::KTABLE: return One(TypeKind::TABLE);
        default: return Fail(c, "expects a dict, table, enum or ktable");
    }
}
R RuleValues(RuleCtx &c) {
    const Type &a = c.args[0];
    switch (a.kind) {
        case TypeKind::DICT: {
            const Type &v = a.params[1];
            if (v.kind == TypeKind::LIST) return One(v);
            return One(Type::List({v}));
        }
        case TypeKind::TABLE: return One(Type::List({Type()}));
        case TypeKind::ENUM: return One(TypeKind::I64);
        case TypeKind::KTABLE: return One(TypeKind::TABLE);
        default: return Fail(c, "expects a dict, table, enum or ktable");
    }
}
R RuleMeta(RuleCtx &c) {
    if (K(c.args[0]) != TypeKind::TABLE && K(c.args[0]) != TypeKind::KTABLE) return Fail(c, "expects a table");
    return One(TypeKind::TABLE);
}
R RuleFetch(RuleCtx &c) {
    if (K(c.args[0]) != TypeKind::ENUM) return Fail(c, "expects an enum");
    return One(c.args[0].params[0]);
}
R RuleEnum(RuleCtx &c) {
    if (!Basic(c.args[0]) || c.args[0] != c.args[1]) return Fail(c, "expects two vectors of one basic type");
    return One(Type::Enum(c.args[0]));
}
R RuleDict(RuleCtx &c) { return One(Type::Dict(c.args[0], c.args[1])); }
R RuleJoinIndex(RuleCtx &c) {
    size_t n = c.args.size();
    size_t k = n - 2;
    for (size_t i = 0; i < k; ++i)
        if (!c.funcs[i]) return Fail(c, "expects comparison functions before the two key arguments");
    const Type &a = c.args[n - 2], &b = c.args[n - 1];
    Types ca, cb;
    if (Basic(a) && Basic(b)) {
        ca = {a};
        cb = {b};
    } else if (ListCells(a, ca) && ListCells(b, cb)) {
    } else {
        return Fail(c, "expects two vectors or two lists of key columns");
    }
    size_t cells = std::max(ca.size(), cb.size());
    // a homogeneous list type (one parameter) says nothing about its cell count
    bool sized = (ca.size() > 1 || Basic(a)) && (cb.size() > 1 || Basic(b));
    if (sized && k != 1 && k != cells) return Fail(c, "expects one comparison per key column");
    cells = std::max(cells, k);
    for (size_t i = 0; i < cells; ++i) {
        const Type &x = ca[std::min(i, ca.size() - 1)], &y = cb[std::min(i, cb.size() - 1)];
        if (x.kind == TypeKind::WILDCARD || y.kind == TypeKind::WILDCARD) continue;
        RNDN_ASSIGN_OR_RETURN(Types r, c.apply(*c.funcs[k == 1 ? 0 : i], Types{x, y}));
        if (r.size() != 1 || r[0].kind != TypeKind::BOOL) return Fail(c, "join predicates must return bool");
    }
    return One(Type::List({TypeKind::I64}));
}
R RuleIndex(RuleCtx &c) {
    const Type &a = c.args[0];
    if (!Int(c.args[1])) return Fail(c, "expects an integer index");
    if (Basic(a)) return One(a);
    if (a.kind == TypeKind::LIST) {
        if (a.params.empty()) return One(Type());
        bool same = std::all_of(a.params.begin(), a.params.end(), [&](const Type &t) { return t == a.params[0]; });
        return One(same ? a.params[0] : Type());
    }
    return Fail(c, "expects a vector or a list");
}
R RuleIndexA(RuleCtx &c) {
    const Type &a = c.args[0], &v = c.args[2];
    if (!Basic(a) || !Int(c.args[1])) return Fail(c, "expects (basic vector, integer index, values)");
    if (a == v || (Real(a) && Real(v)) || (Str(a) && Str(v))) return One(a);
    return Fail(c, "values are not assignable to the vector");
}
R RuleSubString(RuleCtx &c) {
    if (!Str(c.args[0]) || !Int(c.args[1])) return Fail(c, "expects (string, integer range)");
    return One(c.args[0]);
}
R RuleCharLength(RuleCtx &c) {
    if (!Str(c.args[0])) return Fail(c, "expects a string argument");
    return One(TypeKind::I32);
}
R RuleCollateRank(RuleCtx &c) {
    if (!Str(c.args[0]) || !Str(c.args[1])) return Fail(c, "expects (string vector, collation string)");
    return One(TypeKind::I64);
}
R RuleToText(RuleCtx &c) {
    const TypeKind k = K(c.args[0]);
    if (!(k == TypeKind::BOOL || k == TypeKind::I16 || k == TypeKind::I32 || k == TypeKind::I64 || IsFloat(k) || IsDecimal(k) ||
          k == TypeKind::DATE || k == TypeKind::DT || IsString(k) || k == TypeKind::INTERVAL))
        return Fail(c, "expects bool, i16/i32/i64, f32/f64, dec64/dec128, date, dt, interval or a string");
    return One(TypeKind::STR);
}
R RuleToChar(RuleCtx &c) {
    if (K(c.args[0]) != TypeKind::DT || !Str(c.args[1])) return Fail(c, "expects (dt, a string format)");
    return One(TypeKind::STR);
}
R RuleFloatNumeric(RuleCtx &c) {
    if (!IsFloat(K(c.args[0]))) return Fail(c, "expects f32 or f64");
    return One(Type::Decimal(TypeKind::DEC128, Type::kUnknownScale));
}
R RuleFromText(RuleCtx &c) {
    const TypeKind k = K(c.args[1]);
    if (!Str(c.args[0])) return Fail(c, "expects a string argument first");
    if (IsDecimal(k)) return One(Type::Decimal(TypeKind::DEC128, Type::kUnknownScale));
    if (!(k == TypeKind::BOOL || k == TypeKind::I16 || k == TypeKind::I32 || k == TypeKind::I64 || IsFloat(k) ||
          k == TypeKind::DATE || k == TypeKind::DT || k == TypeKind::INTERVAL))
        return Fail(c, "expects a target of type bool, i16/i32/i64, f32/f64, dec64/dec128, date, dt or interval");
    return One(k);
}
R RulePrint(RuleCtx &) { return One(TypeKind::I64); }
R RuleStr(RuleCtx &) { return One(TypeKind::STR); }
R RuleLoadCsv(RuleCtx &c) { return RuleLoadTable(c); }
R RuleBoolReduce(RuleCtx &c) {
    if (K(c.args[0]) != TypeKind::BOOL) return Fail(c, "expects a bool argument");
    return One(TypeKind::BOOL);
}
R RuleFloatVar(RuleCtx &c) {
    if (K(c.args[0]) != TypeKind::F64 && K(c.args[0]) != TypeKind::F32) return Fail(c, "expects a float argument");
    if (!Int(c.args[1])) return Fail(c, "expects an integer kind");
    return One(TypeKind::F64);
}
R RuleFrame(RuleCtx &c) {
    if (!c.funcs[0]) return Fail(c, "expects a reduction as first argument");
    if (!Basic(c.args[1]) || !Int(c.args[2]) || !Int(c.args[3])) return Fail(c, "expects (function, basic vector, integer, integer)");
    RNDN_ASSIGN_OR_RETURN(Types r, c.apply(*c.funcs[0], Types{c.args[1]}));
    if (r.size() != 1 || r[0].kind == TypeKind::LIST) return Fail(c, "the function must return one basic value");
    return One(r[0]);
}
R RuleClip(RuleCtx &c) {
    if (!Int(c.args[0]) || !Int(c.args[1]) || !Int(c.args[2])) return Fail(c, "expects integer arguments");
    return One(TypeKind::I64);
}
// kernels_sqlmath.cpp: SQL float8 functions and integer bit operations
R RuleFloatFn(RuleCtx &c) {
    if (!Real(c.args[0]) || K(c.args[1]) != TypeKind::SYM) return Fail(c, "expects (real, sym)");
    return One(TypeKind::F64);
}
R RuleFloatPow(RuleCtx &c) {
    if (!Real(c.args[0]) || !Real(c.args[1])) return Fail(c, "expects real arguments");
    return One(TypeKind::F64);
}
bool BitInt(const Type &t) { return t.kind == TypeKind::I16 || t.kind == TypeKind::I32 || t.kind == TypeKind::I64; }
R RuleBits(RuleCtx &c) {
    if (!BitInt(c.args[0]) || !BitInt(c.args[1])) return Fail(c, "expects i16, i32 or i64 arguments");
    return One(WidestType(c.args[0], c.args[1]));
}
R RuleBitNot(RuleCtx &c) {
    if (!BitInt(c.args[0])) return Fail(c, "expects an i16, i32 or i64 argument");
    return One(c.args[0]);
}
R RuleShift(RuleCtx &c) {
    if (!BitInt(c.args[0]) || !Int(c.args[1])) return Fail(c, "expects (i16, i32 or i64, integer)");
    return One(c.args[0]);
}
R RuleRunBounds(RuleCtx &c) {
    Types cells;
    bool keys_ok = Orderable(c.args[0]) ||
                   (ListCells(c.args[0], cells) && !cells.empty() && std::all_of(cells.begin(), cells.end(), Orderable));
    if (!keys_ok || K(c.args[1]) != TypeKind::BOOL) return Fail(c, "expects (orderable vector or list, bool)");
    return One(TypeKind::I64);
}
R RuleOrderTop(RuleCtx &c) {
    if (!Int(c.args[2])) return Fail(c, "expects an integer count");
    return RuleOrder(c);
}
R RuleIsNull(RuleCtx &c) {
    if (!Basic(c.args[0])) return Fail(c, "expects a basic vector");
    return One(TypeKind::BOOL);
}
R RuleCoalesce(RuleCtx &c) {
    const Type &a = c.args[0], &b = c.args[1];
    if (Real(a) && Real(b)) {
        Type w = WidestType(a, b);
        if (Dec(w)) w = Type::Decimal(TypeKind::DEC128, MaxScale(a, b));
        return One(w);
    }
    if (Basic(a) && a == b) return One(a);
    if (Str(a) && Str(b)) return One(a);
    return Fail(c, "operands have incompatible types");
}
// timestamptz under a zone table (kernels_tz.cpp): the table is arg `z`, an i64 vector
bool TzTableArg(const Type &t) { return K(t) == TypeKind::I64; }
R RuleTzLocal(RuleCtx &c) {
    if (K(c.args[0]) != TypeKind::DT || !TzTableArg(c.args[1])) return Fail(c, "expects (dt, zone:i64)");
    return One(TypeKind::DT);
}
R RuleTzDate(RuleCtx &c) {
    if (K(c.args[0]) != TypeKind::DT || !TzTableArg(c.args[1])) return Fail(c, "expects (dt, zone:i64)");
    return One(TypeKind::DATE);
}
R RuleTzUtc(RuleCtx &c) {
    if ((K(c.args[0]) != TypeKind::DT && K(c.args[0]) != TypeKind::DATE) || !TzTableArg(c.args[1]))
        return Fail(c, "expects (dt or date, zone:i64)");
    return One(TypeKind::DT);
}
R RuleTzField(RuleCtx &c) {
    if (K(c.args[0]) != TypeKind::DT || K(c.args[1]) != TypeKind::SYM || !TzTableArg(c.args[2]))
        return Fail(c, "expects (dt, sym, zone:i64)");
    return One(TypeKind::I64);
}
R RuleTzTrunc(RuleCtx &c) {
    if (K(c.args[0]) != TypeKind::DT || K(c.args[1]) != TypeKind::SYM || !TzTableArg(c.args[2]))
        return Fail(c, "expects (dt, sym, zone:i64)");
    return One(TypeKind::DT);
}
R RuleTzIntervalAdd(RuleCtx &c) {
    if (K(c.args[0]) != TypeKind::DT || K(c.args[1]) != TypeKind::I64 || !TzTableArg(c.args[2]))
        return Fail(c, "expects (dt, (months, days, microseconds):i64, zone:i64)");
    return One(TypeKind::DT);
}


// The string builtins of string_fns.def: each argument checked against its signature letter
// (s a string, i an integer), the result from the signature's first letter.
R StrSig(RuleCtx &c, std::string_view sig) {
    std::string_view args = sig.substr(2);
    const bool repeat = !args.empty() && args.back() == '*';
    if (repeat) args.remove_suffix(1);
    for (size_t i = 0; i < c.args.size(); ++i) {
        if (i >= args.size() && !repeat) return Fail(c, "expects fewer arguments");
        const char want = args[std::min(i, args.size() - 1)];
        if (want == 's' && !Str(c.args[i])) return Fail(c, "expects a string argument");
        if (want == 'i' && !Int(c.args[i])) return Fail(c, "expects an integer argument");
    }
    return One(sig[0] == 's' ? TypeKind::STR : sig[0] == 'b' ? TypeKind::BOOL : TypeKind::I32);
}
#define STR_FN(ID, SIG, IMPL) \
    R RuleStr_##ID(RuleCtx &c) { return StrSig(c, SIG); }
#include "horseir/string_fns.def"
#undef STR_FN
// @num_var(x, kind): numeric stddev/variance of integer or decimal x (kernels_stat.cpp)
R RuleNumVar(RuleCtx &c) {
    if (!Int(c.args[0]) && !Dec(c.args[0])) return Fail(c, "expects an integer or decimal argument");
    if (!Int(c.args[1])) return Fail(c, "expects an integer kind");
    return One(Type::Decimal(TypeKind::DEC128, Type::kUnknownScale));
}
// issue 18 (tsx18): extract(julian), timestamptz ± an interval vector, timestamptz and uuid text,
// varchar(n)/char(n) length coercions (builtins.def has their forms)
R RuleJulianNum(RuleCtx &c) {
    if (K(c.args[0]) != TypeKind::DT) return Fail(c, "expects a dt argument");
    return One(Type::Decimal(TypeKind::DEC128, Type::kUnknownScale));
}
R RuleTzIntervalVec(RuleCtx &c) {
    if (K(c.args[0]) != TypeKind::DT || K(c.args[1]) != TypeKind::INTERVAL || !TzTableArg(c.args[2]))
        return Fail(c, "expects (dt, interval, zone:i64)");
    return One(TypeKind::DT);
}
R RuleTzToText(RuleCtx &c) {
    if (K(c.args[0]) != TypeKind::DT || !TzTableArg(c.args[1])) return Fail(c, "expects (dt, zone:i64)");
    return One(TypeKind::STR);
}
R RuleTzFromText(RuleCtx &c) {
    if (!Str(c.args[0]) || !TzTableArg(c.args[1])) return Fail(c, "expects (str, zone:i64)");
    return One(TypeKind::DT);
}
R RuleUuidIn(RuleCtx &c) {
    if (!Str(c.args[0])) return Fail(c, "expects a string argument");
    return One(TypeKind::STR);
}
R RuleStrTypmod(RuleCtx &c) {
    if (!Str(c.args[0]) || K(c.args[1]) != TypeKind::SYM || K(c.args[2]) != TypeKind::I64)
        return Fail(c, "expects (str, `varchar or `bpchar, (n, explicit, utf8):i64)");
    return One(TypeKind::STR);
}
// @str_agg(x, sep): string_agg's text (kernels_stat.cpp)
R RuleStrAgg(RuleCtx &c) {
    if (!Str(c.args[0]) || !Str(c.args[1])) return Fail(c, "expects (string vector, string separator)");
    return One(TypeKind::STR);
}
// @frame_var(x, kind, start, end): per row, @float_var or @num_var over its frame (kernels_stat.cpp)
R RuleFrameVar(RuleCtx &c) {
    if (!Int(c.args[1]) || !Int(c.args[2]) || !Int(c.args[3])) return Fail(c, "expects (vector, integer kind, integer, integer)");
    if (K(c.args[0]) == TypeKind::F64 || K(c.args[0]) == TypeKind::F32) return One(TypeKind::F64);
    if (!Int(c.args[0]) && !Dec(c.args[0])) return Fail(c, "expects a float, integer or decimal argument");
    return One(Type::Decimal(TypeKind::DEC128, Type::kUnknownScale));
}
}  // namespace

}  // namespace rndn::hir

#include "horseir/kernels.h"

namespace rndn::hir {

namespace {
const BuiltinInfo kBuiltins[] = {
#define K_NONE nullptr
#define HIR_BUILTIN(ID, NAME, MINA, MAXA, RULE, KERNEL, PAR, NULLS) \
    {Builtin::ID, NAME, MINA, MAXA, RULE, KERNEL, ParClass::PAR, NullRule::NULLS},
#include "horseir/builtins.def"
#undef HIR_BUILTIN
#undef K_NONE
};
static_assert(sizeof(kBuiltins) / sizeof(kBuiltins[0]) == static_cast<size_t>(Builtin::COUNT_));

// The public metadata rows (the outline columns included); same order as kBuiltins.
#define K_NONE nullptr
constexpr BuiltinMeta kMeta[] = {
#define HIR_BUILTIN(ID, NAME, MINA, MAXA, RULE, KERNEL, PAR, NULLS) \
    {Builtin::ID, NAME, MINA, MAXA, ParClass::PAR, NullRule::NULLS,
#define HIR_OUTLINE(SHAPE, CLASS, FUSE) ShapeRule::SHAPE, BuiltinClass::CLASS, (FUSE) != 0, false},
#include "horseir/builtins.def"
#undef HIR_OUTLINE
#undef HIR_BUILTIN
};
#undef K_NONE
static_assert(sizeof(kMeta) / sizeof(kMeta[0]) == static_cast<size_t>(Builtin::COUNT_));

// Row i describes Builtin i (checked at compile time for every row).
constexpr bool RowsInEnumOrder() {
    for (int i = 0; i < static_cast<int>(Builtin::COUNT_); ++i)
        if (static_cast<int>(kMeta[i].id) != i) return false;
    return true;
}
static_assert(RowsInEnumOrder(), "builtins.def rows must expand in Builtin order");

struct MetaTable {
    BuiltinMeta rows[static_cast<size_t>(Builtin::COUNT_)];
    MetaTable() {
        for (int i = 0; i < static_cast<int>(Builtin::COUNT_); ++i) {
            rows[i] = kMeta[i];
            rows[i].interpreted = kBuiltins[i].kernel != nullptr;
        }
    }
};
const MetaTable &Meta() {
    static const MetaTable t;
    return t;
}

struct NameIndex {
    std::vector<std::pair<std::string_view, int>> sorted;
    NameIndex() {
        for (int i = 0; i < static_cast<int>(Builtin::COUNT_); ++i) sorted.emplace_back(kBuiltins[i].name, i);
        std::sort(sorted.begin(), sorted.end());
    }
};
}  // namespace

const BuiltinInfo &GetBuiltin(Builtin b) { return kBuiltins[static_cast<int>(b)]; }
const BuiltinInfo &GetBuiltin(int b) { return kBuiltins[b]; }
int NumBuiltins() { return static_cast<int>(Builtin::COUNT_); }
const BuiltinMeta &GetBuiltinMeta(Builtin b) { return Meta().rows[static_cast<int>(b)]; }
const char *BuiltinName(Builtin b) { return kBuiltins[static_cast<int>(b)].name; }
bool FindBuiltin(std::string_view name, Builtin *out) {
    int b = LookupBuiltin(name);
    if (b < 0) return false;
    *out = static_cast<Builtin>(b);
    return true;
}
const char *ShapeRuleName(ShapeRule r) {
    static const char *const kNames[] = {"NONE", "SAME", "BROADCAST", "SCALAR", "COMPRESS", "WHERE", "INDEX",
                                         "PERMUTE", "SIZED", "GROUP", "JOIN", "LIST", "RAZE", "TOLIST", "EACH",
                                         "EACH_LEFT", "EACH_RIGHT", "EACH_ITEM", "LOAD_TABLE", "COLUMN_VALUE",
                                         "TABLE", "KEYS", "VALUES", "FETCH", "ENUM", "DICT", "CELLS", "DYNAMIC"};
    static_assert(sizeof(kNames) / sizeof(kNames[0]) == static_cast<size_t>(ShapeRule::DYNAMIC) + 1);
    return kNames[static_cast<int>(r)];
}
const char *BuiltinClassName(BuiltinClass c) {
    static const char *const kNames[] = {"ELEMENTWISE", "REDUCTION", "COMPACTION", "GROUPING", "JOIN", "OTHER"};
    static_assert(sizeof(kNames) / sizeof(kNames[0]) == static_cast<size_t>(BuiltinClass::OTHER) + 1);
    return kNames[static_cast<int>(c)];
}
const char *ParClassName(ParClass c) {
    static const char *const kNames[] = {"ELEMENTWISE", "REDUCTION", "SCAN", "LIST", "CPU"};
    static_assert(sizeof(kNames) / sizeof(kNames[0]) == static_cast<size_t>(ParClass::CPU) + 1);
    return kNames[static_cast<int>(c)];
}
const char *NullRuleName(NullRule r) {
    static const char *const kNames[] = {"PROPAGATE", "KLEENE", "SKIP", "FALSE", "KEEP", "NONE"};
    static_assert(sizeof(kNames) / sizeof(kNames[0]) == static_cast<size_t>(NullRule::NONE) + 1);
    return kNames[static_cast<int>(r)];
}

int LookupBuiltin(std::string_view name) {
    static const NameIndex index;
    auto it = std::lower_bound(index.sorted.begin(), index.sorted.end(), std::make_pair(name, -1));
    if (it != index.sorted.end() && it->first == name) return it->second;
    return -1;
}

}  // namespace rndn::hir
