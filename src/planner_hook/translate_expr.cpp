// Expressions -> HorseIR: constants, operators and functions (through pg_functions.def), CASE,
// COALESCE, IN lists, NULL tests, parameters of init plans, subqueries (see translate.cpp).
#include <cmath>
#include <cstring>

#include "planner_hook/translator.h"

#include "utils/timestamp.h"
#include "utils/float.h"
#include "mb/pg_wchar.h"
extern "C" {
#include "parser/scansup.h"
#include "pgtime.h"
}

#include <clocale>

#include "catalog/pg_collation.h"

namespace rndn::plan::internal {

namespace {
bool IsCodePointLocale(const char *name) {
    return name != nullptr && (pg_strcasecmp(name, "C.UTF-8") == 0 || pg_strcasecmp(name, "C.utf8") == 0);
}
}  // namespace

bool ByteOrderCollation(Oid collation) {
    if (lc_collate_is_c(collation)) return true;
    if (GetDatabaseEncoding() != PG_UTF8 || !OidIsValid(collation)) return false;
    if (collation == DEFAULT_COLLATION_OID) {
        // the database's own locale: libc's LC_COLLATE, unless the database uses ICU
        if (default_locale.provider == COLLPROVIDER_ICU) return false;
        return IsCodePointLocale(setlocale(LC_COLLATE, nullptr));
    }
    HeapTuple tp = SearchSysCache1(COLLOID, ObjectIdGetDatum(collation));
    if (!HeapTupleIsValid(tp)) return false;
    Form_pg_collation form = (Form_pg_collation)GETSTRUCT(tp);
    bool byte_order = false;
    if (form->collprovider == COLLPROVIDER_LIBC && form->collisdeterministic) {
        bool isnull = true;
        Datum d = SysCacheGetAttr(COLLOID, tp, Anum_pg_collation_collcollate, &isnull);
        if (!isnull) {
            char *name = TextDatumGetCString(d);
            byte_order = IsCodePointLocale(name);
            pfree(name);
        }
    }
    ReleaseSysCache(tp);
    return byte_order;
}

std::optional<std::string> RankCollation(Oid collation) {
    if (GetDatabaseEncoding() != PG_UTF8 || !OidIsValid(collation) || lc_collate_is_c(collation)) return std::nullopt;
    if (collation == DEFAULT_COLLATION_OID) {
        // the database's own locale (PostgreSQL set LC_COLLATE from datcollate at start)
        if (default_locale.provider == COLLPROVIDER_ICU) {
            if (default_locale.info.icu.locale == nullptr) return std::nullopt;
            return std::string("icu:") + default_locale.info.icu.locale;
        }
        const char *name = setlocale(LC_COLLATE, nullptr);
        if (name == nullptr) return std::nullopt;
        return std::string("libc:") + name;
    }
    HeapTuple tp = SearchSysCache1(COLLOID, ObjectIdGetDatum(collation));
    if (!HeapTupleIsValid(tp)) return std::nullopt;
    Form_pg_collation form = (Form_pg_collation)GETSTRUCT(tp);
    std::optional<std::string> out;
    if (form->collisdeterministic && (form->collprovider == COLLPROVIDER_LIBC || form->collprovider == COLLPROVIDER_ICU)) {
        const bool icu = form->collprovider == COLLPROVIDER_ICU;
        bool isnull = true;
        Datum d = SysCacheGetAttr(COLLOID, tp, icu ? Anum_pg_collation_colliculocale : Anum_pg_collation_collcollate, &isnull);
        if (!isnull) {
            char *name = TextDatumGetCString(d);
            out = std::string(icu ? "icu:" : "libc:") + name;
            pfree(name);
        }
    }
    ReleaseSysCache(tp);
    return out;
}

Expected<std::pair<Op, Op>> Translator::CollRankPair(const Col &a, const Col &b, const std::string &collation) {
    // a's rows first, then b's: @take and @drop of len(a) give each side its ranks back
    Op both = Emit(B::APPEND, {a.var, b.var});
    Op r = CollRank(both, collation);
    Op n = a.scalar ? b_.I64(1) : Emit(B::LEN, {a.var});
    return std::make_pair(Emit(B::TAKE, {n, r}), Emit(B::DROP, {n, r}));
}

// ---------------------------------------------------------------------------------------------
// Constants

namespace {
// Literals of text keep the translator's old rule: no control characters other than \n \t \r.
bool ControlCharacters(const hir::Vector &v) {
    for (unsigned char ch : v.bytes)
        if ((ch < 0x20 && ch != '\n' && ch != '\t' && ch != '\r') || ch == 0x7f) return true;
    return false;
}
}  // namespace

Expected<Op> Translator::VectorLiteral(Oid type, const std::vector<Datum> &values, const std::vector<bool> &nulls, int scale,
                                       const Plan *node, bool widen) {
    auto t = HirType(type, type == NUMERICOID ? std::max(scale, 0) : scale);
    if (!t) return Unsup(node, "constant of type " + TypeName(type));
    RNDN_ASSIGN_OR_RETURN(auto vec, hir::MakeVector(*t, hir::IsString(t->kind) ? 0 : (int64_t)values.size()));
    for (size_t i = 0; i < values.size(); ++i) {
        Expected<std::shared_ptr<hir::Vector>> one = pg::ScalarFromDatum(type, (uintptr_t)values[i], nulls[i], *t, widen);
        if (!one.ok()) return Unsup(node, "constant: " + one.status().message());
        const hir::Vector &x = *one.value();
        if (hir::IsString(t->kind)) {
            vec->AppendString(x.StringAt(0));
        } else {
            const int w = hir::ElementSize(t->kind);
            std::memcpy(vec->data.get() + i * (size_t)w, x.data.get(), (size_t)w);
        }
        if (nulls[i]) vec->SetNull((int64_t)i);
    }
    if (hir::IsString(t->kind) && ControlCharacters(*vec)) return Unsup(node, "string constant with control characters");
    Op lit = b_.Literal(std::move(vec));
    RNDN_RETURN_IF_ERROR(b_.status());
    return lit;
}

Expected<Op> Translator::ScalarLiteral(Oid type, Datum d, bool isnull, int scale, const Plan *node) {
    if (isnull && !HirType(type, type == NUMERICOID ? std::max(scale, 0) : scale))
        return Unsup(node, "NULL constant of type " + TypeName(type));
    return VectorLiteral(type, {d}, {isnull}, scale, node);
}

Expected<Col> Translator::Const_(Const *c, const Plan *node) {
    Col out;
    out.type = c->consttype;
    out.typmod = c->consttypmod;
    out.scalar = true;
    int scale = -1;
    if (c->consttype == NUMERICOID) {
        if (c->constisnull) {
            scale = std::max(NumericScale(c->consttypmod), 0);
        } else {
            Expected<int> s = pg::NumericDatumScale((uintptr_t)c->constvalue);
            if (!s.ok()) return Unsup(node, "constant: " + s.status().message());
            scale = s.value();
        }
    }
    if (!HirType(c->consttype, scale)) return Unsup(node, "constant of type " + TypeName(c->consttype));
    RNDN_ASSIGN_OR_RETURN(out.var, ScalarLiteral(c->consttype, c->constvalue, c->constisnull, scale, node));
    out.scale = scale;
    return out;
}

Expected<Op> Translator::NullLiteral(const Col &c, const Plan *node) {
    auto t = HirType(c.type, c.scale);
    if (!t) return Unsup(node, "NULL of type " + TypeName(c.type) + " with unknown scale");
    Op lit = b_.Null(*t);
    RNDN_RETURN_IF_ERROR(b_.status());
    return lit;
}

namespace {

// The uses of numeric query parameters without a declared scale in a plan subtree.  A use
// "shows" the parameter's display scale unless the value reaches a comparison only through
// + - * unary minus and abs (exact in PostgreSQL, whatever the operands' scales), CASE results
// and COALESCE arguments: the same rule as Translator::in_comparison_, so every use the
// translator meets inside a comparison is one this scan saw inside it.  Fields of plan nodes it
// does not know make every such parameter count as shown (the safe side).
class NumericParamScan {
public:
    NumericParamScan(PlannedStmt *stmt, std::map<int, Translator::NumericParamUse> *uses) : stmt_(stmt), uses_(uses) {}

    static bool Untyped(Node *n) {
        return n != nullptr && IsA(n, Param) && ((Param *)n)->paramkind == PARAM_EXTERN && ((Param *)n)->paramtype == NUMERICOID &&
               NumericScale(((Param *)n)->paramtypmod) < 0;
    }

    void Expr_(Node *n, bool compared) {
        if (n == nullptr) return;
        if (IsA(n, List)) {
            ListCell *lc;
            foreach (lc, (List *)n) Expr_((Node *)lfirst(lc), compared);
            return;
        }
        switch (nodeTag(n)) {
            case T_Param:
                if (Untyped(n)) (*uses_)[((Param *)n)->paramid].exposed |= !compared;
                return;
            case T_RelabelType: Expr_((Node *)((RelabelType *)n)->arg, compared); return;
            case T_OpExpr:
            case T_FuncExpr: {
                const bool op = IsA(n, OpExpr);
                const Oid fn = op ? (((OpExpr *)n)->opfuncid ? ((OpExpr *)n)->opfuncid : get_opcode(((OpExpr *)n)->opno))
                                  : ((FuncExpr *)n)->funcid;
                List *args = op ? ((OpExpr *)n)->args : ((FuncExpr *)n)->args;
                const FnRow *row = LookupFunction(fn);
                bool inner = false;
                if (row != nullptr && row->kind == FnKind::BINARY && ((row->flags & (F_ORDERED | F_EQ)) || row->builtin == B::NEQ))
                    inner = true;
                else if (row != nullptr && (row->kind == FnKind::BINARY || row->kind == FnKind::UNARY) &&
                         (row->builtin == B::PLUS || row->builtin == B::MINUS || row->builtin == B::MUL ||
                          row->builtin == B::NEG || row->builtin == B::ABS))
                    inner = compared;
                if (list_length(args) == 2) {
                    for (int i = 0; i < 2; ++i) {
                        Node *self = (Node *)StripRelabel((Expr *)list_nth(args, i));
                        if (!Untyped(self)) continue;
                        int &ctx = (*uses_)[((Param *)self)->paramid].context_scale;
                        ctx = std::max(ctx, StaticScale((Node *)list_nth(args, 1 - i)));
                    }
                }
                Expr_((Node *)args, inner);
                return;
            }
            case T_CaseExpr: {
                CaseExpr *ce = (CaseExpr *)n;
                Expr_((Node *)ce->arg, false);
                ListCell *lc;
                foreach (lc, ce->args) {
                    CaseWhen *w = (CaseWhen *)lfirst(lc);
                    Expr_((Node *)w->expr, false);
                    Expr_((Node *)w->result, compared);
                }
                Expr_((Node *)ce->defresult, compared);
                return;
            }
            case T_CoalesceExpr: Expr_((Node *)((CoalesceExpr *)n)->args, compared); return;
            case T_SubPlan: {
                SubPlan *sp = (SubPlan *)n;
                Expr_(sp->testexpr, false);
                Expr_((Node *)sp->args, false);
                if (sp->plan_id >= 1 && sp->plan_id <= list_length(stmt_->subplans) && seen_.insert(sp->plan_id).second)
                    Plan_((Plan *)list_nth(stmt_->subplans, sp->plan_id - 1));
                return;
            }
            default: expression_tree_walker(n, (bool (*)(void))(void *)Walk, this); return;
        }
    }

    void Plan_(Plan *p) {
        if (p == nullptr) return;
        Expr_((Node *)p->targetlist, false);
        Expr_((Node *)p->qual, false);
        Expr_((Node *)p->initPlan, false);
        Plan_(p->lefttree);
        Plan_(p->righttree);
        switch (nodeTag(p)) {
            case T_SeqScan:
            case T_Agg:
            case T_Group:
            case T_Sort:
            case T_IncrementalSort:
            case T_Unique:
            case T_Material:
            case T_Gather:
            case T_GatherMerge:
            case T_SetOp: break;
            case T_IndexScan: {
                IndexScan *s = (IndexScan *)p;
                for (List *l : {s->indexqual, s->indexqualorig, s->indexorderby, s->indexorderbyorig}) Expr_((Node *)l, false);
                break;
            }
            case T_IndexOnlyScan: {
                IndexOnlyScan *s = (IndexOnlyScan *)p;
                for (List *l : {s->indexqual, s->recheckqual, s->indexorderby, s->indextlist}) Expr_((Node *)l, false);
                break;
            }
            case T_BitmapIndexScan:
                Expr_((Node *)((BitmapIndexScan *)p)->indexqual, false);
                Expr_((Node *)((BitmapIndexScan *)p)->indexqualorig, false);
                break;
            case T_BitmapHeapScan: Expr_((Node *)((BitmapHeapScan *)p)->bitmapqualorig, false); break;
            case T_BitmapAnd: Plans(((BitmapAnd *)p)->bitmapplans); break;
            case T_BitmapOr: Plans(((BitmapOr *)p)->bitmapplans); break;
            case T_Append: Plans(((Append *)p)->appendplans); break;
            case T_MergeAppend: Plans(((MergeAppend *)p)->mergeplans); break;
            case T_Result: Expr_(((Result *)p)->resconstantqual, false); break;
            case T_SubqueryScan: Plan_(((SubqueryScan *)p)->subplan); break;
            case T_Memoize: Expr_((Node *)((Memoize *)p)->param_exprs, false); break;
            case T_Hash: Expr_((Node *)((Hash *)p)->hashkeys, false); break;
            case T_Limit:
                Expr_(((Limit *)p)->limitOffset, false);
                Expr_(((Limit *)p)->limitCount, false);
                break;
            case T_NestLoop: Expr_((Node *)((Join *)p)->joinqual, false); break;
            case T_MergeJoin:
                Expr_((Node *)((Join *)p)->joinqual, false);
                Expr_((Node *)((MergeJoin *)p)->mergeclauses, false);
                break;
            case T_HashJoin:
                Expr_((Node *)((Join *)p)->joinqual, false);
                Expr_((Node *)((HashJoin *)p)->hashclauses, false);
                Expr_((Node *)((HashJoin *)p)->hashkeys, false);
                break;
            case T_ValuesScan: Expr_((Node *)((ValuesScan *)p)->values_lists, false); break;
            case T_WindowAgg:
                Expr_(((WindowAgg *)p)->startOffset, false);
                Expr_(((WindowAgg *)p)->endOffset, false);
                Expr_((Node *)((WindowAgg *)p)->runCondition, false);
                break;
            default:
                for (auto &u : *uses_) u.second.exposed = true;
                unknown_ = true;
                break;
        }
    }

    bool unknown() const { return unknown_; }

private:
    static bool Walk(Node *n, NumericParamScan *self) {
        self->Expr_(n, false);
        return false;
    }
    void Plans(List *l) {
        ListCell *lc;
        foreach (lc, l) Plan_((Plan *)lfirst(lc));
    }
    // The declared scale of an operand (a column's typmod, a constant's display scale), or -1.
    static int StaticScale(Node *n) {
        n = (Node *)StripRelabel((Expr *)n);
        if (n == nullptr || exprType(n) != NUMERICOID) return -1;
        if (IsA(n, Const)) {
            if (((Const *)n)->constisnull) return -1;
            Expected<int> s = pg::NumericDatumScale((uintptr_t)((Const *)n)->constvalue);
            return s.ok() ? s.value() : -1;
        }
        return NumericScale(exprTypmod(n));
    }

    PlannedStmt *stmt_;
    std::map<int, Translator::NumericParamUse> *uses_;
    std::set<int> seen_;
    bool unknown_ = false;
};

// The scale of a by-value parameter: generous, so that most values a user writes bind (digits
// beyond it must be zeros), yet far from dec128's 38 digits (26 integer digits stay).
constexpr int kByValueScale = 12;

}  // namespace

void Translator::ScanNumericParams(Plan *root) {
    numeric_params_.clear();
    NumericParamScan scan(stmt_, &numeric_params_);
    scan.Plan_(root);
    if (scan.unknown())
        for (auto &u : numeric_params_) u.second.exposed = true;
}

Expected<Col> Translator::ExternParam(Param *p, const Plan *node) {
    // Numeric: the scale the program computes with is the declared typmod's; the executor binds
    // only a value of exactly that display scale (else PostgreSQL's plan runs).  Without a
    // typmod (README, "Query parameters"): a parameter whose display scale can show is declared
    // with the scale of what it is combined with (0 when nothing) and bound as above; one that
    // is only compared is declared dec128<max(that, kByValueScale)> and bound by value.
    int scale = p->paramtype == NUMERICOID ? NumericScale(p->paramtypmod) : -1;
    bool by_value = false;
    if (p->paramtype == NUMERICOID && scale < 0) {
        auto use = numeric_params_.find(p->paramid);
        if (use == numeric_params_.end()) return Unsup(node, "numeric parameter without a declared scale in an unscanned place");
        by_value = !use->second.exposed;
        // Every use the translator meets inside a comparison was seen inside one by the scan.
        if (by_value && !in_comparison_) return Unsup(node, "numeric parameter without a declared scale outside a comparison");
        scale = by_value ? std::min(38, std::max(kByValueScale, use->second.context_scale)) : std::max(0, use->second.context_scale);
    }
    auto known = extern_params_.find(p->paramid);
    if (known != extern_params_.end()) return known->second;
    auto t = HirType(p->paramtype, scale);
    if (!t) return Unsup(node, "parameter of type " + TypeName(p->paramtype));
    Col c;
    c.type = p->paramtype;
    c.typmod = p->paramtypmod;
    c.scalar = true;
    c.scale = scale;
    c.var = b_.Param(pg::ParamName(p->paramid, by_value), *t);
    extern_params_[p->paramid] = c;
    return c;
}

// ---------------------------------------------------------------------------------------------
// Expressions

Expected<Col> Translator::CastToScale(const Col &c, int scale) {
    if (c.type != NUMERICOID || c.scale == scale) return c;
    if (c.scale < 0 || scale < 0) return Status::Unsupported("numeric of unknown scale in a CASE/COALESCE");
    Col out = c;
    out.var = EmitCast(c.var, Dec128(scale));
    out.scalar = c.scalar;
    out.scale = scale;
    return out;
}

bool ContainsDivision(Node *n);
bool DivWalker(Node *n, void *) {
    if (n == nullptr) return false;
    Oid fn = InvalidOid;
    if (IsA(n, OpExpr)) fn = ((OpExpr *)n)->opfuncid ? ((OpExpr *)n)->opfuncid : get_opcode(((OpExpr *)n)->opno);
    if (IsA(n, FuncExpr)) fn = ((FuncExpr *)n)->funcid;
    if (OidIsValid(fn)) {
        const FnRow *row = LookupFunction(fn);
        if (row == nullptr) return true;
        if (row->flags & F_DIV) {
            // By a non-zero integer or float constant it cannot raise division by zero.
            List *args = IsA(n, OpExpr) ? ((OpExpr *)n)->args : ((FuncExpr *)n)->args;
            Node *d = list_length(args) == 2 ? (Node *)lsecond(args) : nullptr;
            bool safe = false;
            if (d != nullptr && IsA(d, Const) && !((Const *)d)->constisnull) {
                const Const *c = (const Const *)d;
                switch (c->consttype) {
                    case INT2OID: safe = DatumGetInt16(c->constvalue) != 0 && DatumGetInt16(c->constvalue) != -1; break;
                    case INT4OID: safe = DatumGetInt32(c->constvalue) != 0 && DatumGetInt32(c->constvalue) != -1; break;
                    case INT8OID: safe = DatumGetInt64(c->constvalue) != 0 && DatumGetInt64(c->constvalue) != -1; break;
                    case FLOAT8OID: safe = DatumGetFloat8(c->constvalue) != 0.0 && std::fabs(DatumGetFloat8(c->constvalue)) >= 1.0; break;
                    case FLOAT4OID: safe = DatumGetFloat4(c->constvalue) != 0.0f && std::fabs(DatumGetFloat4(c->constvalue)) >= 1.0f; break;
                    default: break;
                }
            }
            if (!safe) return true;
        }
    }
    return expression_tree_walker(n, (bool (*)(void))(void *)DivWalker, nullptr);
}
// True when n holds a division that may raise (by a non-constant, or by a constant that could
// overflow or underflow).  Such an expression must not be evaluated for rows PostgreSQL would
// not evaluate it for: a CASE branch, or a qual / AND / OR argument after the first.
bool ContainsDivision(Node *n) { return DivWalker(n, nullptr); }

namespace {
// date::timestamp (pg_proc's date_timestamp; looked up by its C name: fmgroids.h's F_ macros,
// F_DIV among them, would shadow the translator's flags)
bool IsDateToTimestamp(Expr *e) {
    if (!IsA(e, FuncExpr) || list_length(((FuncExpr *)e)->args) != 1) return false;
    const FnRow *r = LookupFunction(((FuncExpr *)e)->funcid);
    return r != nullptr && std::strcmp(r->prosrc, "date_timestamp") == 0;
}

// The canonical name of an extract/date_part field among the spellings PostgreSQL 15's
// DecodeUnits accepts (datetktbl/deltatktbl); "" when not listed here (then not translated).
std::string CanonicalDateField(const std::string &f) {
    static const std::map<std::string, std::string> kAliases = {
        {"microsecond", "microseconds"}, {"microseconds", "microseconds"}, {"us", "microseconds"}, {"usec", "microseconds"},
        {"usecs", "microseconds"}, {"useconds", "microseconds"}, {"usecond", "microseconds"},
        {"millisecond", "milliseconds"}, {"milliseconds", "milliseconds"}, {"ms", "milliseconds"}, {"msec", "milliseconds"},
        {"msecs", "milliseconds"}, {"mseconds", "milliseconds"}, {"msecond", "milliseconds"},
        {"second", "second"}, {"seconds", "second"}, {"s", "second"}, {"sec", "second"}, {"secs", "second"},
        {"minute", "minute"}, {"minutes", "minute"}, {"m", "minute"}, {"min", "minute"}, {"mins", "minute"},
        {"hour", "hour"}, {"hours", "hour"}, {"h", "hour"}, {"hr", "hour"}, {"hrs", "hour"},
        {"day", "day"}, {"days", "day"}, {"d", "day"}, {"week", "week"}, {"weeks", "week"}, {"w", "week"},
        {"month", "month"}, {"months", "month"}, {"mon", "month"}, {"mons", "month"},
        {"quarter", "quarter"}, {"qtr", "quarter"},
        {"year", "year"}, {"years", "year"}, {"y", "year"}, {"yr", "year"}, {"yrs", "year"},
        {"decade", "decade"}, {"decades", "decade"}, {"dec", "decade"}, {"decs", "decade"},
        {"century", "century"}, {"centuries", "century"}, {"c", "century"}, {"cent", "century"},
        {"millennium", "millennium"}, {"millennia", "millennium"}, {"mil", "millennium"}, {"mils", "millennium"},
        {"millenniums", "millennium"},
        {"isoyear", "isoyear"}, {"dow", "dow"}, {"isodow", "isodow"}, {"doy", "doy"}, {"epoch", "epoch"},
        {"julian", "julian"}, {"j", "julian"}, {"jd", "julian"}};
    auto it = kAliases.find(f);
    return it == kAliases.end() ? std::string() : it->second;
}
// A non-NULL constant interval that @interval_add takes as (months, days, microseconds) (for
// the minus forms: one whose negated microseconds fit int64).
bool ConstantInterval(Expr *e, FnKind kind) {
    if (!IsA(e, Const) || ((Const *)e)->constisnull || ((Const *)e)->consttype != INTERVALOID) return false;
    return kind != FnKind::INTERVAL_MI || DatumGetIntervalP(((Const *)e)->constvalue)->time != PG_INT64_MIN;
}
}  // namespace

// date_trunc's constant unit, lower-cased, when it is one @date_trunc / @tz_trunc know (other
// spellings keep PostgreSQL's plan, which raises its error; `what` ends the reason).
Expected<std::string> Translator::TruncUnit(Expr *f, const char *what, const Ctx &ctx) {
    if (!IsA(f, Const) || ((Const *)f)->constisnull) return Unsup(ctx.node, "date_trunc with a non-constant unit");
    char *unit = TextDatumGetCString(((Const *)f)->constvalue);
    std::string us(unit);
    pfree(unit);
    std::transform(us.begin(), us.end(), us.begin(), ::tolower);
    static const char *const kUnits[] = {"microseconds", "milliseconds", "second", "minute", "hour",
                                         "day",          "week",         "month",  "quarter", "year",
                                         "decade",       "century",      "millennium"};
    if (std::find_if(std::begin(kUnits), std::end(kUnits), [&](const char *k) { return us == k; }) == std::end(kUnits))
        return Unsup(ctx.node, "date_trunc('" + us + "')" + what);
    return us;
}

// round(x, k) / trunc(x, k): the constant number of places k in 0..30 (otherwise PostgreSQL's plan).
Expected<int32> Translator::ConstPlaces(List *args, const char *fn, const Ctx &ctx) {
    if (list_length(args) != 2) return Unsup(ctx.node, std::string(fn) + " arity");
    Expr *k = (Expr *)lsecond(args);
    if (!IsA(k, Const) || ((Const *)k)->constisnull) return Unsup(ctx.node, std::string(fn) + " to a non-constant scale");
    const int32 places = DatumGetInt32(((Const *)k)->constvalue);
    if (places < 0 || places > 30) return Unsup(ctx.node, std::string(fn) + " to " + std::to_string(places) + " places");
    return places;
}

// extract / date_part of an interval (issue 18): the fields PostgreSQL 15's interval_part_common
// accepts; extract's numeric at its display scale (3 for milliseconds, 6 for second and epoch,
// 0 otherwise), date_part's float8.  The fields PostgreSQL rejects for intervals (week, dow,
// isoyear, julian, time zones ...) keep its plan, which raises its error.
Expected<Col> Translator::IntervalPart(const std::string &field, const Col &iv, bool float_result, const Ctx &ctx) {
    static const char *const kFields[] = {"microseconds", "milliseconds", "second", "minute",  "hour",       "day",  "month",
                                          "quarter",      "year",         "decade", "century", "millennium", "epoch"};
    const std::string canon = CanonicalDateField(field);
    if (std::find_if(std::begin(kFields), std::end(kFields), [&](const char *k) { return canon == k; }) == std::end(kFields))
        return Unsup(ctx.node, "extract(" + field + ") of interval");
    Col out;
    out.type = float_result ? FLOAT8OID : NUMERICOID;
    const Op sym = b_.Sym(canon);
    if (float_result) {
        out.var = Emit(B::INTERVAL_FIELD_F, {iv.var, sym});
        return out;
    }
    out.scale = canon == "milliseconds" ? 3 : (canon == "second" || canon == "epoch") ? 6 : 0;
    out.var = Emit(B::INTERVAL_FIELD, {iv.var, sym});
    if (out.scale != 6) out.var = EmitCast(out.var, Dec128(out.scale));  // exact: no digits beyond the scale
    return out;
}

Expected<Col> Translator::Call(Oid fn, List *args, Oid result_type, int32 result_typmod, Oid inputcollid,
                               const Ctx &ctx) {
    const FnRow *row = LookupFunction(fn);
    if (row == nullptr) return Unsup(ctx.node, "function " + FuncName(fn) + " has no rndn translation");
    const int nargs = list_length(args);
    std::vector<Col> a;
    const bool saved_cmp = in_comparison_;
    if (row->kind == FnKind::BINARY && ((row->flags & (F_ORDERED | F_EQ)) || row->builtin == B::NEQ)) {
        in_comparison_ = true;
    } else if (!((row->kind == FnKind::BINARY || row->kind == FnKind::UNARY) &&
                 (row->builtin == B::PLUS || row->builtin == B::MINUS || row->builtin == B::MUL || row->builtin == B::NEG ||
                  row->builtin == B::ABS))) {
        in_comparison_ = false;
    }
    struct Restore {
        bool &flag;
        bool value;
        ~Restore() { flag = value; }
    } restore{in_comparison_, saved_cmp};
    for (int i = 0; i < nargs; ++i) {
        Expr *arg = (Expr *)list_nth(args, i);
        // Constant arguments of LIKE / substring / extract are read directly below.
        if ((row->kind == FnKind::LIKE || row->kind == FnKind::NOTLIKE || row->kind == FnKind::SUBSTR) && i > 0) continue;
        if ((row->kind == FnKind::EXTRACT || row->kind == FnKind::TRUNC) && i == 0) continue;
        // date_part('f', date) is date_part('f', date::timestamp): the date itself goes to
        // @date_field_f, which reads a date as its midnight
        if (row->kind == FnKind::EXTRACT && i == 1 && IsDateToTimestamp(arg))
            arg = (Expr *)linitial(((FuncExpr *)arg)->args);
        if ((row->kind == FnKind::DATE_TS && i == 1) || (row->kind == FnKind::TS_DATE && i == 0)) continue;
        if ((row->kind == FnKind::ROUND || row->kind == FnKind::NUMTYPMOD || row->kind == FnKind::NUMTRUNC) && i == 1) continue;
        if ((row->kind == FnKind::REGEX || row->kind == FnKind::NOTREGEX) && i > 0) continue;
        if (row->kind == FnKind::REGEXREPL && (i == 1 || i == 3)) continue;
        // a constant interval becomes @interval_add's (months, days, microseconds); any other
        // interval is a vector of type interval (@interval_plv / @interval_miv)
        if ((row->kind == FnKind::INTERVAL_PL || row->kind == FnKind::INTERVAL_MI) && i == 1 && ConstantInterval(arg, row->kind))
            continue;
        if (row->kind == FnKind::ZONE || row->kind == FnKind::STABLE_TS) continue;  // TzCall / NowValue read them
        if (row->kind == FnKind::TOCHAR && i == 1) continue;                           // the constant format
        // concat/concat_ws take "any": a quoted literal stays of type unknown, printed as written
        if ((row->kind == FnKind::CONCAT || row->builtin == B::STR_CONCAT_WS) && IsA(arg, Const) && ((Const *)arg)->consttype == UNKNOWNOID) {
            const Const *u = (const Const *)arg;
            arg = (Expr *)makeConst(TEXTOID, -1, DEFAULT_COLLATION_OID, -1,
                                    u->constisnull ? (Datum)0 : CStringGetTextDatum(DatumGetCString(u->constvalue)), u->constisnull, false);
        }
        RNDN_ASSIGN_OR_RETURN(Col c, X(arg, ctx));
        a.push_back(c);
    }
    Col out;
    out.type = result_type;
    out.typmod = result_typmod;
    const bool all_scalar = std::all_of(a.begin(), a.end(), [](const Col &c) { return c.scalar; });
    switch (row->kind) {
        case FnKind::ZONE: return TzCall(*row, args, result_type, result_typmod, ctx);
        case FnKind::ZONE_CMP: return TzCompare(*row, args, std::move(a), ctx);
        case FnKind::STABLE_TS: return NowValue(std::string(row->prosrc) == "statement_timestamp", ctx);
        case FnKind::TOCHAR: {
            // to_char(timestamp[tz], format): a constant format @to_char writes as PostgreSQL does
            Expr *f = (Expr *)lsecond(args);
            if (nargs != 2 || !IsA(f, Const) || ((Const *)f)->constisnull) return Unsup(ctx.node, "to_char with a non-constant format");
            char *fs = TextDatumGetCString(((Const *)f)->constvalue);
            const std::string fmt(fs);
            pfree(fs);
            // the format is read byte by byte: exact for UTF-8 and for ASCII formats
            if (GetDatabaseEncoding() != PG_UTF8 && std::any_of(fmt.begin(), fmt.end(), [](char c) { return (unsigned char)c >= 0x80; }))
                return Unsup(ctx.node, "to_char format with non-ASCII characters outside UTF-8");
            const bool zoned = exprType((Node *)linitial(args)) == TIMESTAMPTZOID;
            if (Status st = hir::CheckToCharFormat(fmt, zoned); !st.ok()) return Unsup(ctx.node, st.message());
            Op x = a[0].var;
            if (zoned) {
                RNDN_ASSIGN_OR_RETURN(Op zone, SessionZone(ctx));
                x = Emit(B::TZ_LOCAL, {x, zone});
            }
            out.var = Emit(B::TO_CHAR, {x, b_.Str(fmt)});
            break;
        }
        case FnKind::BINARY: {
            if (nargs != 2) return Unsup(ctx.node, FuncName(fn) + " with " + std::to_string(nargs) + " arguments");
            if ((row->flags & F_ORDERED) && IsTextType(exprType((Node *)linitial(args))) && !ByteOrderCollation(inputcollid)) {
                const std::optional<std::string> coll = RankCollation(inputcollid);
                if (!coll) return Unsup(ctx.node, "text comparison under a non-C collation");
                RNDN_ASSIGN_OR_RETURN(auto ranks, CollRankPair(a[0], a[1], *coll));
                a[0].var = ranks.first;
                a[1].var = ranks.second;
            }
            if (row->flags & F_NZCONST) {
                Expr *d = (Expr *)lsecond(args);
                if (!IsA(d, Const) || ((Const *)d)->constisnull || DatumGetFloat8(((Const *)d)->constvalue) == 0.0)
                    return Unsup(ctx.node, FuncName(fn) + " by a non-constant divisor (PostgreSQL raises on zero)");
            }
            const B b = row->builtin;
            if (b == B::INTERVAL_MUL && a[0].type != INTERVALOID) std::swap(a[0], a[1]);  // mul_d_interval: float8 * interval
            out.var = Emit(b, {a[0].var, a[1].var});
            if (result_type == NUMERICOID) {
                if (b == B::PLUS || b == B::MINUS || b == B::MOD)
                    out.scale = (a[0].scale < 0 || a[1].scale < 0) ? -1 : std::max(a[0].scale, a[1].scale);
                else if (b == B::MUL)
                    out.scale = (a[0].scale < 0 || a[1].scale < 0) ? -1 : a[0].scale + a[1].scale;
                else
                    out.scale = -1;
            }
            break;
        }
        case FnKind::UNARY:
            // characters counted as UTF-8: exact in a UTF-8 database, elsewhere ASCII text only
            if ((row->flags & F_CHARS) && GetDatabaseEncoding() != PG_UTF8) ascii_guard_ = true;
            if (row->flags & F_BLANKS) a[0].var = Emit(B::STR_RTRIM, {a[0].var, b_.Str(" ")});
            out.var = Emit(row->builtin, {a[0].var});
            out.scale = row->builtin == B::FLOAT_NUMERIC ? -1 : a[0].scale;  // float::numeric: each value's scale
            if (result_type == NUMERICOID && (row->builtin == B::CEIL || row->builtin == B::FLOOR || row->builtin == B::SIGNUM)) {
                // numeric ceil/floor/sign: PostgreSQL's results have display scale 0
                if (row->builtin == B::SIGNUM) out.var = EmitCast(out.var, Dec128(0));
                out.scale = 0;
            }
            break;
        case FnKind::NUMTYPMOD: {
            // x::numeric(p, s): round to s (half away from zero), then p digits at most
            if (nargs != 2) return Unsup(ctx.node, "numeric() arity");
            Expr *k = (Expr *)lsecond(args);
            if (!IsA(k, Const) || ((Const *)k)->constisnull) return Unsup(ctx.node, "numeric typmod that is not a constant");
            const int32 typmod = DatumGetInt32(((Const *)k)->constvalue);
            if (typmod < (int32)VARHDRSZ) {  // numeric(x, -1): no typmod, the value unchanged
                out = a[0];
                out.typmod = -1;
                return out;
            }
            const int p = ((typmod - (int32)VARHDRSZ) >> 16) & 0xffff;
            const int s = NumericScale(typmod);
            if (s < 0 || s > p || p < 1 || p > 38)
                return Unsup(ctx.node, "numeric typmod outside precision 1..38, scale 0..precision");
            out.var = Emit(row->builtin, {EmitCast(a[0].var, Dec128(s)), b_.I64s({p})});
            out.scale = s;
            break;
        }
        case FnKind::NUMTRUNC: {
            // trunc(x, k): x - mod(x, 10^-k) has zeros beyond k digits (mod keeps x's sign), so
            // the cast to dec128<k> is exact; k beyond x's scale pads with zeros, as PostgreSQL
            RNDN_ASSIGN_OR_RETURN(const int32 places, ConstPlaces(args, "trunc", ctx));
            Op r = Emit(B::MOD, {a[0].var, b_.Dec128(1, places)});  // 10^-places
            out.var = EmitCast(Emit(B::MINUS, {a[0].var, r}), Dec128(places));
            out.scale = places;
            break;
        }
        case FnKind::CAST: {
            if (nargs != 1) return Unsup(ctx.node, FuncName(fn) + " with a length argument");
            const int scale = result_type == NUMERICOID ? 0 : -1;
            auto t = HirType(result_type, scale);
            if (!t) return Unsup(ctx.node, "cast to " + TypeName(result_type));
            out.var = EmitCast(a[0].var, *t);
            out.scale = scale;
            break;
        }
        case FnKind::RELABEL:
            if (std::string(row->prosrc) == "rtrim1" && exprType((Node *)linitial(args)) != BPCHAROID) {
                // rtrim(text): trailing blanks off (for char(n) the same function is the cast)
                if (GetDatabaseEncoding() != PG_UTF8) ascii_guard_ = true;
                out.var = Emit(B::STR_RTRIM, {a[0].var, b_.Str(" ")});
                break;
            }
            if (result_type == BPCHAROID && exprType((Node *)linitial(args)) != BPCHAROID && !IsA(linitial(args), Const))
                return Unsup(ctx.node, "text or varchar compared as char(n) (trailing blanks ignored)");
            out = a[0];
            out.type = result_type;
            out.typmod = result_typmod;
            return out;
        case FnKind::FLOATFN: {
            // the function's name in kernels_sqlmath.cpp: PostgreSQL's C name without its 'd'
            std::string name = row->prosrc;
            if (name == "dlog1") name = "ln";
            else if (name[0] == 'd' && name != "degrees") name = name.substr(1);
            out.var = Emit(row->builtin, {a[0].var, b_.Sym(name)});
            break;
        }
        case FnKind::LIKE:
        case FnKind::NOTLIKE: {
            if (exprType((Node *)linitial(args)) == BPCHAROID)
                return Unsup(ctx.node, "LIKE on char(n) (PostgreSQL matches the blank padding)");
            Expr *p = (Expr *)lsecond(args);
            if (!IsA(p, Const) || ((Const *)p)->constisnull) return Unsup(ctx.node, "LIKE with a non-constant pattern");
            RNDN_ASSIGN_OR_RETURN(Op pat, ScalarLiteral(TEXTOID, ((Const *)p)->constvalue, false, -1, ctx.node));
            const std::string_view ps = pat.literal.value->StringAt(0);
            if (ps.find('\\') != std::string_view::npos) return Unsup(ctx.node, "LIKE pattern with an escape");
            if (ps.find('_') != std::string_view::npos && pg_database_encoding_max_length() > 1) {
                for (unsigned char ch : ps)
                    if (ch >= 0x80) return Unsup(ctx.node, "LIKE '_' with a non-ASCII pattern");
                ascii_guard_ = true;
            }
            Op m = Emit(row->builtin, {a[0].var, pat});
            out.var = row->kind == FnKind::NOTLIKE ? Emit(B::NOT, {m}) : m;
            break;
        }
        case FnKind::SUBSTR: {
            // substring(x FROM s [FOR l]); without FOR: to the end of the string.
            if (nargs != 2 && nargs != 3) return Unsup(ctx.node, "substring arity");
            Expr *s = (Expr *)lsecond(args), *l = nargs == 3 ? (Expr *)lthird(args) : nullptr;
            if (!IsA(s, Const) || ((Const *)s)->constisnull || (l != nullptr && (!IsA(l, Const) || ((Const *)l)->constisnull)))
                return Unsup(ctx.node, "substring with non-constant bounds");
            const int32 start = DatumGetInt32(((Const *)s)->constvalue);
            const int32 len = l != nullptr ? DatumGetInt32(((Const *)l)->constvalue) : PG_INT32_MAX;
            if (start < 1 || len < 0) return Unsup(ctx.node, "substring start < 1 or negative length");
            if (pg_database_encoding_max_length() > 1) ascii_guard_ = true;
            out.var = Emit(row->builtin, {a[0].var, b_.I64s({start, len})});
            break;
        }
        case FnKind::STRFN:
        case FnKind::CONCAT:
        case FnKind::REGEX:
        case FnKind::NOTREGEX:
        case FnKind::REGEXREPL: {
            RNDN_ASSIGN_OR_RETURN(out.var, StringCall(*row, args, a, inputcollid, ctx));
            break;
        }
        case FnKind::ROUND: {
            RNDN_ASSIGN_OR_RETURN(const int32 places, ConstPlaces(args, "round", ctx));
            out.var = EmitCast(a[0].var, Dec128(places));
            out.scale = places;
            break;
        }
        case FnKind::DATE_TS:
        case FnKind::TS_DATE: {
            if (nargs != 2) return Unsup(ctx.node, FuncName(fn) + " arity");
            const bool swapped = row->kind == FnKind::TS_DATE;
            Expr *t = (Expr *)list_nth(args, swapped ? 0 : 1);
            if (!IsA(t, Const) || ((Const *)t)->constisnull) return Unsup(ctx.node, "date compared with a non-constant timestamp");
            const Timestamp ts = DatumGetTimestamp(((Const *)t)->constvalue);
            if (TIMESTAMP_NOT_FINITE(ts)) {
                // date2timestamp maps the date infinities onto the timestamp ones and every finite
                // date below DT_NOEND, above DT_NOBEGIN: d OP ±infinity is d OP the date ±infinity
                const DateADT dinf = TIMESTAMP_IS_NOBEGIN(ts) ? DATEVAL_NOBEGIN : DATEVAL_NOEND;
                RNDN_ASSIGN_OR_RETURN(Op ilit, ScalarLiteral(DATEOID, DateADTGetDatum(dinf), false, -1, ctx.node));
                B op = row->builtin;
                if (swapped) {
                    static const std::map<B, B> kFlipInf = {{B::LT, B::GT}, {B::LEQ, B::GEQ}, {B::GT, B::LT}, {B::GEQ, B::LEQ}, {B::EQ, B::EQ}, {B::NEQ, B::NEQ}};
                    op = kFlipInf.at(op);
                }
                out.var = Emit(op, {a[0].var, ilit});
                break;
            }
            // ts = D days + f (0 <= f < 1 day) after 2000-01-01 midnight; the date d means d 00:00.
            int64 days = ts / USECS_PER_DAY;
            if (ts % USECS_PER_DAY < 0) --days;
            const bool frac = ts - days * USECS_PER_DAY != 0;
            if (days < INT32_MIN / 2 || days > INT32_MAX / 2) return Unsup(ctx.node, "timestamp out of the date range");
            RNDN_ASSIGN_OR_RETURN(Op dlit, ScalarLiteral(DATEOID, DateADTGetDatum((DateADT)days), false, -1, ctx.node));
            B op = row->builtin;  // as written: date OP timestamp, or timestamp OP date
            if (swapped) {  // ts OP d  <=>  d OP' ts
                static const std::map<B, B> kFlip = {{B::LT, B::GT}, {B::LEQ, B::GEQ}, {B::GT, B::LT}, {B::GEQ, B::LEQ}, {B::EQ, B::EQ}, {B::NEQ, B::NEQ}};
                op = kFlip.at(op);
            }
            const Op d = a[0].var;
            if (!frac) {
                out.var = Emit(op, {d, dlit});
            } else {
                // D < ts < D+1: d < ts and d <= ts mean d <= D; d > ts and d >= ts mean d > D;
                // d = ts is false and d <> ts true (NULL for a NULL d either way).
                if (op == B::LT || op == B::LEQ) out.var = Emit(B::LEQ, {d, dlit});
                else if (op == B::GT || op == B::GEQ) out.var = Emit(B::GT, {d, dlit});
                else if (op == B::EQ) out.var = Emit(B::LT, {d, d});
                else out.var = Emit(B::EQ, {d, d});
            }
            break;
        }
        case FnKind::EXTRACT: {
            Expr *f = (Expr *)linitial(args);
            if (!IsA(f, Const) || ((Const *)f)->constisnull) return Unsup(ctx.node, "extract with a non-constant field");
            char *field = TextDatumGetCString(((Const *)f)->constvalue);
            std::string fs(field);
            pfree(field);
            std::transform(fs.begin(), fs.end(), fs.begin(), ::tolower);
            Expr *src = (Expr *)lsecond(args);
            if (exprType((Node *)src) == INTERVALOID) return IntervalPart(fs, a[0], result_type == FLOAT8OID, ctx);
            const bool from_date_cast = IsDateToTimestamp(src);
            const bool ts = exprType((Node *)src) == TIMESTAMPOID && !from_date_cast;
            const bool date_part = result_type == FLOAT8OID;
            const std::string canon = CanonicalDateField(fs);
            if (from_date_cast && !date_part)  // extract(f FROM d::timestamp): the cast may raise
                return Unsup(ctx.node, "extract of a date cast to timestamp");
            B b;
            if (date_part) b = B::DATE_FIELD;  // every field through @date_field_f below
            else if (canon == "year") b = B::DATE_YEAR;
            else if (canon == "month") b = B::DATE_MONTH;
            else if (canon == "day") b = B::DATE_DAY;
            else if (canon == "hour" && ts) b = B::TIME_HOUR;
            else if (canon == "minute" && ts) b = B::TIME_MINUTE;
            else b = B::DATE_FIELD;
            if (b != B::DATE_FIELD) {
                out.var = EmitCast(Emit(b, {a[0].var}), Dec128(0));
                out.scale = 0;
                break;
            }
            // every other field PostgreSQL 15 accepts (@date_field*, src/horseir/builtins.def);
            // a field PostgreSQL rejects for the type stays with PostgreSQL, which raises
            static const char *const kTsFields[] = {"century", "decade", "millennium", "year", "isoyear", "quarter", "month",
                                                    "week", "day", "dow", "isodow", "doy", "hour", "minute", "second",
                                                    "milliseconds", "microseconds", "epoch", "julian"};
            static const char *const kDateFields[] = {"century", "decade", "millennium", "year", "isoyear", "quarter", "month",
                                                      "week", "day", "dow", "isodow", "doy", "epoch", "julian"};
            auto listed = [&](const auto &names) {
                return std::find_if(std::begin(names), std::end(names), [&](const char *k) { return canon == k; }) != std::end(names);
            };
            const std::string what = "extract(" + fs + ") of " + TypeName(exprType((Node *)src));
            if (!(ts || from_date_cast ? listed(kTsFields) : listed(kDateFields))) return Unsup(ctx.node, what);
            const Op sym = b_.Sym(canon);
            if (date_part) {
                out.var = Emit(B::DATE_FIELD_F, {a[0].var, sym});
                break;
            }
            if (ts && (canon == "second" || canon == "milliseconds" || canon == "epoch")) {
                // numeric of scale 6 (second, epoch) or 3 (milliseconds), exact
                Op p = Emit(B::DATE_FIELD_US, {a[0].var, sym});
                out.scale = canon == "milliseconds" ? 3 : 6;
                out.var = out.scale == 6 ? p : EmitCast(p, Dec128(3));
                break;
            }
            if (ts && canon == "julian") {  // a numeric division of PostgreSQL's: each value's display scale
                out.var = Emit(B::JULIAN_NUM, {a[0].var});
                out.scale = -1;
                break;
            }
            out.var = EmitCast(Emit(B::DATE_FIELD, {a[0].var, sym}), Dec128(0));
            out.scale = 0;
            break;
        }
        case FnKind::INTERVAL_PL:
        case FnKind::INTERVAL_MI: {
            // timestamp_pl_interval / date_pl_interval with a constant interval; the minus forms
            // negate each field as timestamp_mi_interval does
            if (nargs == 1) {  // date::timestamp (date_timestamp): date + a zero interval, its errors included
                out.var = Emit(row->builtin, {a[0].var, b_.I64s({0, 0, 0})});
                break;
            }
            Expr *iv = (Expr *)lsecond(args);
            if (nargs != 2) return Unsup(ctx.node, FuncName(fn) + " with " + std::to_string(nargs) + " arguments");
            if (a.size() == 2) {  // an interval vector (a column, an expression, NULL)
                out.var = Emit(row->kind == FnKind::INTERVAL_PL ? B::INTERVAL_PLV : B::INTERVAL_MIV, {a[0].var, a[1].var});
                break;
            }
            const Interval *span = DatumGetIntervalP(((Const *)iv)->constvalue);
            int64 months = span->month, days = span->day, micros = span->time;
            if (row->kind == FnKind::INTERVAL_MI) {
                months = -months;
                days = -days;
                micros = -micros;
            }
            out.var = Emit(row->builtin, {a[0].var, b_.I64s({months, days, micros})});
            break;
        }
        case FnKind::TRUNC: {
            // date_trunc('unit', timestamp): the unit as PostgreSQL spells it canonically
            RNDN_ASSIGN_OR_RETURN(const std::string us, TruncUnit((Expr *)linitial(args), "", ctx));
            out.var = Emit(row->builtin, {a[0].var, b_.Sym(us)});
            break;
        }
    }
    out.scalar = all_scalar;
    return out;
}

// The collation's ctype for case mapping and regular-expression classes: "C" (the C/POSIX
// ctype), "libc:NAME", or nothing (ICU, or an encoding other than UTF-8).
std::optional<std::string> CtypeOf(Oid collation) {
    if (!OidIsValid(collation)) return std::nullopt;
    if (lc_ctype_is_c(collation)) return std::string("C");
    if (GetDatabaseEncoding() != PG_UTF8) return std::nullopt;
    if (collation == DEFAULT_COLLATION_OID) {
        if (default_locale.provider == COLLPROVIDER_ICU) return std::nullopt;
        const char *name = setlocale(LC_CTYPE, nullptr);  // PostgreSQL set it from datctype
        if (name == nullptr) return std::nullopt;
        return std::string("libc:") + name;
    }
    HeapTuple tp = SearchSysCache1(COLLOID, ObjectIdGetDatum(collation));
    if (!HeapTupleIsValid(tp)) return std::nullopt;
    Form_pg_collation form = (Form_pg_collation)GETSTRUCT(tp);
    std::optional<std::string> out;
    if (form->collprovider == COLLPROVIDER_LIBC) {
        bool isnull = true;
        Datum d = SysCacheGetAttr(COLLOID, tp, Anum_pg_collation_collctype, &isnull);
        if (!isnull) {
            char *name = TextDatumGetCString(d);
            out = std::string("libc:") + name;
            pfree(name);
        }
    }
    ReleaseSysCache(tp);
    return out;
}

namespace {
std::optional<std::string> ConstText(Expr *e) {
    if (!IsA(e, Const) || ((Const *)e)->constisnull || !IsTextType(((Const *)e)->consttype)) return std::nullopt;
    char *c = TextDatumGetCString(((Const *)e)->constvalue);
    std::string out(c);
    pfree(c);
    return out;
}
}  // namespace

// The string functions of pg_functions.def (STRFN, CONCAT, REGEX, NOTREGEX, REGEXREPL); `a`
// holds the translated arguments (for the regular expressions without the constant pattern and
// flags).
Expected<Op> Translator::StringCall(const FnRow &row, List *args, const std::vector<Col> &a, Oid collation, const Ctx &ctx) {
    const int nargs = list_length(args);
    const std::string fname = row.prosrc;
    for (int i = 0; i < nargs; ++i) {
        const Oid t = exprType((Node *)list_nth(args, i));
        // char(n): concat prints the blank padding, the other functions see it trimmed
        if (t == BPCHAROID) return Unsup(ctx.node, fname + " of char(n) (PostgreSQL's blank-padding rules)");
        if (row.kind != FnKind::CONCAT && row.builtin == B::STR_CONCAT && !IsTextType(t))
            return Unsup(ctx.node, fname + " of " + TypeName(t) + " (text arguments only)");
    }
    if ((row.flags & F_DETERM) && OidIsValid(collation) && !get_collation_isdeterministic(collation))
        return Unsup(ctx.node, fname + " under a nondeterministic collation");
    if (GetDatabaseEncoding() != PG_UTF8) ascii_guard_ = true;  // characters as UTF-8: ASCII text only
    std::vector<Op> ops;
    for (const Col &c : a) ops.push_back(c.var);
    if (row.kind == FnKind::CONCAT || row.builtin == B::STR_CONCAT_WS) {
        // concat and concat_ws print each other argument through its type's output function
        // (varlena.c's concat_internal): the cast a CoerceViaIO to text makes (CoerceIOX: its
        // types and guards); NULLs stay NULL, which @str_concat_ws skips as PostgreSQL does
        for (int i = 0; i < nargs && i < (int)ops.size(); ++i) {
            Expr *arg = (Expr *)list_nth(args, i);
            if (IsTextType(exprType((Node *)arg)) || exprType((Node *)arg) == UNKNOWNOID) continue;  // unknown: made text in Call
            CoerceViaIO *io = makeNode(CoerceViaIO);
            io->arg = arg;
            io->resulttype = TEXTOID;
            io->resultcollid = DEFAULT_COLLATION_OID;
            io->coerceformat = COERCE_IMPLICIT_CAST;
            io->location = -1;
            RNDN_ASSIGN_OR_RETURN(Col c, CoerceIOX(io, ctx));
            ops[static_cast<size_t>(i)] = c.var;
        }
    }
    if (row.flags & F_CONSTN) {
        Expr *n = (Expr *)lsecond(args);
        if (!IsA(n, Const) || ((Const *)n)->constisnull) return Unsup(ctx.node, fname + " with a non-constant length");
        const int32 v = DatumGetInt32(((Const *)n)->constvalue);
        if (v < -1000000 || v > 1000000) return Unsup(ctx.node, fname + " to a length beyond 10^6");
    }
    switch (row.kind) {
        case FnKind::CONCAT: {
            if (ops.empty()) return Unsup(ctx.node, "concat()");
            ops.insert(ops.begin(), b_.Str(""));
            return Emit(row.builtin, ops);
        }
        case FnKind::REGEX:
        case FnKind::NOTREGEX:
        case FnKind::REGEXREPL: {
            const auto pat = ConstText((Expr *)lsecond(args));
            if (!pat) return Unsup(ctx.node, "regular expression with a non-constant pattern");
            std::string flags;
            bool icase = (row.flags & F_ICASE) != 0;
            if (row.kind == FnKind::REGEXREPL && nargs == 4) {
                const auto f = ConstText((Expr *)lfourth(args));
                if (!f) return Unsup(ctx.node, "regexp_replace with non-constant flags");
                for (char ch : *f) {
                    if (ch == 'g') flags += 'g';
                    else if (ch == 'i') icase = true;
                    else if (ch == 'c') icase = false;
                    else return Unsup(ctx.node, std::string("regexp_replace flag '") + ch + "'");
                }
            } else if (row.kind == FnKind::REGEXREPL && nargs != 3) {
                return Unsup(ctx.node, "regexp_replace with a start position");
            }
            if (icase) flags += 'i';
            hir::regex::Options o;
            o.icase = icase;
            auto prog = hir::regex::Compile(*pat, o);
            if (!prog.ok()) return Unsup(ctx.node, prog.status().message());
            const auto ctype = CtypeOf(collation);
            const bool c_ctype = ctype && *ctype == "C";
            if (!c_ctype && icase) return Unsup(ctx.node, "case-insensitive regular expression under a non-C ctype");
            if (!c_ctype && hir::regex::UsesClasses(**prog))
                return Unsup(ctx.node, "regular expression class escape (\\d \\s \\w) under a non-C ctype");
            if (row.kind == FnKind::REGEXREPL) return Emit(row.builtin, {ops[0], b_.Str(*pat), ops[1], b_.Str(flags)});
            Op m = Emit(row.builtin, {ops[0], b_.Str(*pat), b_.Str(flags)});
            return row.kind == FnKind::NOTREGEX ? Emit(B::NOT, {m}) : m;
        }
        default: break;
    }
    if ((row.flags & F_SPACE) && ops.size() == 1) ops.push_back(b_.Str(" "));
    if (row.flags & F_CTYPE) {
        const auto ctype = CtypeOf(collation);
        if (!ctype) return Unsup(ctx.node, fname + " under an ICU collation or a non-UTF-8 encoding");
        ops.push_back(b_.Str(*ctype));
    }
    return Emit(row.builtin, ops);
}

Expected<Col> Translator::CaseX(CaseExpr *ce, const Ctx &ctx) {
    if (ContainsDivision((Node *)ce)) return Unsup(ctx.node, "CASE whose branches may raise (division)");
    // CASE x WHEN v THEN ...: x is evaluated once; the WHEN conditions read it as a
    // CaseTestExpr (x = v, the parser's comparison), translated to x's column
    std::optional<Col> test;
    if (ce->arg != nullptr) {
        RNDN_ASSIGN_OR_RETURN(Col t, X(ce->arg, ctx));
        test = t;
    }
    const Oid type = ce->casetype;
    std::vector<Col> conds, vals;
    int scale = -1;
    ListCell *lc;
    foreach (lc, ce->args) {
        CaseWhen *w = (CaseWhen *)lfirst(lc);
        if (test) case_tests_.push_back(*test);
        Expected<Col> cond = X(w->expr, ctx);
        if (test) case_tests_.pop_back();
        RNDN_ASSIGN_OR_RETURN(Col c, std::move(cond));
        RNDN_ASSIGN_OR_RETURN(Col v, X(w->result, ctx));
        conds.push_back(c);
        vals.push_back(v);
        scale = std::max(scale, v.scale);
    }
    std::optional<Col> def;
    if (ce->defresult != nullptr && !(IsA(ce->defresult, Const) && ((Const *)ce->defresult)->constisnull)) {
        RNDN_ASSIGN_OR_RETURN(Col d, X(ce->defresult, ctx));
        def = d;
        scale = std::max(scale, d.scale);
    }
    bool mixed = false;  // numeric branches of different scales: each row keeps its own
    if (type == NUMERICOID) {
        // PostgreSQL keeps each row's own display scale (CASE ... THEN n ELSE 0 prints 0, not
        // 0.000): branches of different scales give a decimal with per-element scales
        // (@index_a into a dec128<?>).
        // A branch of per-value scales (an unconstrained numeric column, a division) mixes too.
        for (const auto &v : vals) mixed = mixed || v.scale < 0 || v.scale != scale;
        mixed = mixed || (def && (def->scale < 0 || def->scale != scale));
        if (!mixed) {
            for (auto &v : vals) {
                RNDN_ASSIGN_OR_RETURN(v, CastToScale(v, scale));
            }
            if (def) {
                RNDN_ASSIGN_OR_RETURN(*def, CastToScale(*def, scale));
            }
        }
    }
    Col proto;
    proto.type = type;
    proto.scale = type == NUMERICOID ? (mixed ? std::max(scale, 0) : scale) : -1;
    // Start from the ELSE value (or NULLs), then assign the branches from the last to the first
    // so that the first true WHEN wins; a NULL condition counts as false (@where).
    Col acc;
    if (def) {
        RNDN_ASSIGN_OR_RETURN(acc, Materialize(*def, ctx.len_var));
    } else {
        RNDN_ASSIGN_OR_RETURN(Op nl, NullLiteral(proto, ctx.node));
        Col n = proto;
        n.var = nl;
        n.scalar = true;
        RNDN_ASSIGN_OR_RETURN(acc, Materialize(n, ctx.len_var));
    }
    if (mixed) acc.var = EmitCast(acc.var, Dec128(hir::Type::kUnknownScale));
    for (int i = (int)conds.size() - 1; i >= 0; --i) {
        RNDN_ASSIGN_OR_RETURN(Col c, Materialize(conds[i], ctx.len_var));
        RNDN_ASSIGN_OR_RETURN(Col v, Materialize(vals[i], ctx.len_var));
        Op w = Emit(B::WHERE, {c.var});
        Op sel = Emit(B::COMPRESS, {c.var, v.var});
        acc.var = Emit(B::INDEX_A, {acc.var, w, sel});
    }
    acc.type = type;
    acc.typmod = -1;
    acc.scale = mixed ? -1 : proto.scale;
    acc.scalar = false;
    return acc;
}

Expected<Col> Translator::CoalesceX(CoalesceExpr *ce, const Ctx &ctx) {
    std::vector<Col> xs;
    int scale = -1;
    ListCell *lc;
    foreach (lc, ce->args) {
        RNDN_ASSIGN_OR_RETURN(Col c, X((Expr *)lfirst(lc), ctx));
        xs.push_back(c);
        scale = std::max(scale, c.scale);
    }
    if (ce->coalescetype == NUMERICOID) {
        bool mixed = false;
        for (auto &x : xs) mixed = mixed || x.scale < 0 || x.scale != scale;
        // Each row keeps the display scale of the argument it came from: arguments of different
        // (or per-value) scales give a decimal of per-element scales, assigned from the last
        // argument to the first where each is not NULL (@index_a keeps each element's scale).
        if (mixed) {
            RNDN_ASSIGN_OR_RETURN(Col acc, Materialize(xs.back(), ctx.len_var));
            for (int i = (int)xs.size() - 2; i >= 0; --i) {
                RNDN_ASSIGN_OR_RETURN(Col a, Materialize(xs[i], ctx.len_var));
                acc.var = AssignWhereValid(acc.var, a.var);
            }
            acc.type = NUMERICOID;
            acc.typmod = -1;
            acc.scale = -1;
            acc.scalar = false;
            return acc;
        }
        for (auto &x : xs) {
            RNDN_ASSIGN_OR_RETURN(x, CastToScale(x, scale));
        }
    }
    Col acc = xs.back();
    for (int i = (int)xs.size() - 2; i >= 0; --i) {
        Col a = xs[i];
        if (a.scalar) {
            RNDN_ASSIGN_OR_RETURN(a, Materialize(a, ctx.len_var));
        }
        acc.var = Emit(B::COALESCE, {a.var, acc.var});
        acc.scalar = false;
    }
    acc.type = ce->coalescetype;
    acc.scale = ce->coalescetype == NUMERICOID ? scale : -1;
    return acc;
}

// GREATEST / LEAST: NULL arguments ignored (NULL only when all are); each step keeps the
// running value unless the next argument compares above (below) it.
Expected<Col> Translator::MinMaxX(MinMaxExpr *m, const Ctx &ctx) {
    const Oid type = m->minmaxtype;
    if (IsTextType(type)) {
        if (type == BPCHAROID) return Unsup(ctx.node, "GREATEST/LEAST of char(n)");
        if (!ByteOrderCollation(m->inputcollid)) return Unsup(ctx.node, "GREATEST/LEAST of text under a non-C collation");
    } else if (!IsIntType(type) && type != NUMERICOID && type != FLOAT4OID && type != FLOAT8OID && type != DATEOID &&
               type != TIMESTAMPOID && type != INTERVALOID) {
        return Unsup(ctx.node, "GREATEST/LEAST of " + TypeName(type));
    }
    std::vector<Col> xs;
    ListCell *lc;
    foreach (lc, m->args) {
        RNDN_ASSIGN_OR_RETURN(Col c, X((Expr *)lfirst(lc), ctx));
        RNDN_ASSIGN_OR_RETURN(c, Materialize(c, ctx.len_var));
        xs.push_back(c);
    }
    // numerics of different (or per-value) scales: the chosen argument's display scale, as
    // PostgreSQL returns the argument itself (COALESCE's per-element form, then @index_a)
    bool mixed = false;
    if (type == NUMERICOID)
        for (const auto &x : xs) mixed = mixed || x.scale < 0 || x.scale != xs[0].scale;
    const B cmp = m->op == IS_GREATEST ? B::GT : B::LT;
    Col acc = xs[0];
    for (size_t i = 1; i < xs.size(); ++i) {
        Op base = mixed ? AssignWhereValid(xs[i].var, acc.var) : Emit(B::COALESCE, {acc.var, xs[i].var});
        Op c = Emit(cmp, {xs[i].var, base});
        acc.var = Emit(B::INDEX_A, {base, Emit(B::WHERE, {c}), Emit(B::COMPRESS, {c, xs[i].var})});
    }
    acc.type = type;
    acc.typmod = -1;
    if (mixed) acc.scale = -1;
    acc.scalar = false;
    return acc;
}

// x with the elements of `from` (same length) wherever `from` is not NULL; decimals of any
// scales keep each element's own (the per-element COALESCE(from, x)).
Op Translator::AssignWhereValid(Op x, Op from) {
    Op ok = Emit(B::IS_NOT_NULL, {from});
    return Emit(B::INDEX_A, {EmitCast(x, Dec128(hir::Type::kUnknownScale)), Emit(B::WHERE, {ok}), Emit(B::COMPRESS, {ok, from})});
}

Expected<Col> Translator::ArrayOp(ScalarArrayOpExpr *sa, const Ctx &ctx) {
    const Oid fn = sa->opfuncid ? sa->opfuncid : get_opcode(sa->opno);
    const FnRow *row = LookupFunction(fn);
    if (row == nullptr || row->kind != FnKind::BINARY) return Unsup(ctx.node, "IN list with operator " + FuncName(fn));
    const B b = row->builtin;
    if (!((sa->useOr && b == B::EQ) || (!sa->useOr && b == B::NEQ))) return Unsup(ctx.node, "ANY/ALL other than IN / NOT IN");
    Expr *arr = (Expr *)lsecond(sa->args);
    if (!IsA(arr, Const) || ((Const *)arr)->constisnull) return Unsup(ctx.node, "IN list that is not a constant array");
    RNDN_ASSIGN_OR_RETURN(Col x, X((Expr *)linitial(sa->args), ctx));
    ArrayType *a = DatumGetArrayTypeP(((Const *)arr)->constvalue);
    const Oid et = ARR_ELEMTYPE(a);
    int16 typlen;
    bool typbyval;
    char typalign;
    get_typlenbyvalalign(et, &typlen, &typbyval, &typalign);
    Datum *elems;
    bool *nulls;
    int n;
    deconstruct_array(a, et, typlen, typbyval, typalign, &elems, &nulls, &n);
    if (n == 0) return Unsup(ctx.node, "empty IN list");
    std::vector<Datum> lits;
    int scale = 0;
    bool has_null = false;
    for (int i = 0; i < n; ++i) {
        if (nulls[i]) {
            has_null = true;
            continue;
        }
        if (et == NUMERICOID) {
            Expected<int> sc = pg::NumericDatumScale((uintptr_t)elems[i]);
            if (!sc.ok()) return Unsup(ctx.node, "constant: " + sc.status().message());
            scale = std::max(scale, sc.value());
        }
        lits.push_back(elems[i]);
    }
    auto t = HirType(et, scale);
    if (!t) return Unsup(ctx.node, "IN list of type " + TypeName(et));

    Col xm = x;
    if (x.scalar) {
        RNDN_ASSIGN_OR_RETURN(xm, Materialize(x, ctx.len_var));
    }
    Col out;
    out.type = BOOLOID;
    if (lits.empty()) {  // only NULLs: x IN (NULL) and x NOT IN (NULL) are NULL for every row
        out.var = Emit(B::VECTOR, {Emit(B::LEN, {xm.var}), b_.Null(hir::TypeKind::BOOL)});
        return out;
    }
    // numeric elements at the list's largest scale (exact: membership does not see the scale)
    RNDN_ASSIGN_OR_RETURN(Op vec, VectorLiteral(et, lits, std::vector<bool>(lits.size(), false), scale, ctx.node, true));
    Op m = Emit(B::MEMBER, {xm.var, vec});
    out.var = sa->useOr ? m : Emit(B::NOT, {m});
    // A NULL in the list: x IN (..., NULL) is true when x matches, else NULL; x NOT IN
    // (..., NULL) is false when x matches, else NULL (three-valued OR / AND with NULL).
    if (has_null) out.var = Emit(sa->useOr ? B::OR : B::AND, {out.var, b_.Null(hir::TypeKind::BOOL)});
    return out;
}

// Casts through the types' text forms (CoerceViaIO: x::text, '12'::int ...) between text,
// varchar or char and the types rndn loads: @to_text / @from_text (src/horseir/kernels_cast.cpp),
// which write PostgreSQL 15's text under DateStyle ISO and extra_float_digits > 0 (other
// settings keep PostgreSQL's plan) and read its input forms with its errors; spellings the
// kernel does not read fall back to PostgreSQL's plan at run time.
Expected<Col> Translator::CoerceIOX(CoerceViaIO *c, const Ctx &ctx) {
    const Oid from = exprType((Node *)c->arg), to = c->resulttype;
    auto is_text = [](Oid t) { return t == TEXTOID || t == VARCHAROID || t == BPCHAROID; };
    // tsx18: timestamptz under the session TimeZone (timestamptz_out / timestamptz_in), uuid
    // (held as its canonical text: uuid_out is the identity, uuid_in reads PostgreSQL's forms)
    if ((is_text(to) && (from == TIMESTAMPTZOID || from == UUIDOID)) || (is_text(from) && (to == TIMESTAMPTZOID || to == UUIDOID))) {
        const bool out_text = is_text(to);
        if (out_text && from == TIMESTAMPTZOID) {
            if (DateStyle != USE_ISO_DATES) return Unsup(ctx.node, "timestamptz as text under a DateStyle other than ISO");
            iso_date_guard_ = true;
        }
        RNDN_ASSIGN_OR_RETURN(Col a, X(c->arg, ctx));
        Col out;
        out.type = to;
        out.scalar = a.scalar;
        out.scale = -1;
        if (from == UUIDOID) {
            out.var = a.var;
        } else if (to == UUIDOID) {
            out.var = Emit(B::UUID_IN, {a.var});
        } else {
            RNDN_ASSIGN_OR_RETURN(Op zone, SessionZone(ctx));
            out.var = Emit(out_text ? B::TZ_TO_TEXT : B::TZ_FROM_TEXT, {a.var, zone});
        }
        return out;
    }
    if (is_text(to) && !is_text(from)) {
        switch (from) {
            case BOOLOID:
            case INT2OID:
            case INT4OID:
            case INT8OID:
            case NUMERICOID: break;
            case FLOAT4OID:
            case FLOAT8OID:
                if (extra_float_digits <= 0) return Unsup(ctx.node, "float as text with extra_float_digits <= 0");
                float_text_guard_ = true;
                break;
            case DATEOID:
            case TIMESTAMPOID:
                if (DateStyle != USE_ISO_DATES) return Unsup(ctx.node, "date or timestamp as text under a DateStyle other than ISO");
                iso_date_guard_ = true;
                break;
            case INTERVALOID:  // interval_out under IntervalStyle postgres (the default) only
                if (IntervalStyle != INTSTYLE_POSTGRES) return Unsup(ctx.node, "interval as text under an IntervalStyle other than postgres");
                interval_style_guard_ = true;
                break;
            default: return Unsup(ctx.node, "cast of " + TypeName(from) + " to text");
        }
        RNDN_ASSIGN_OR_RETURN(Col a, X(c->arg, ctx));
        Col out;
        out.type = to;
        out.scalar = a.scalar;
        out.var = Emit(B::TO_TEXT, {a.var});
        // boolout writes t/f (booltext, the cast to text, writes true/false)
        if (from == BOOLOID) out.var = Emit(B::STR_LEFT, {out.var, b_.I64(1)});
        return out;
    }
    if (is_text(from) && !is_text(to)) {
        Op t;  // a literal of the target type (its value unused)
        switch (to) {
            case BOOLOID: t = b_.Bool(false); break;
            case INT2OID: t = b_.I16(0); break;
            case INT4OID: t = b_.I32(0); break;
            case INT8OID: t = b_.I64(0); break;
            case FLOAT4OID: t = b_.F32(0); break;
            case FLOAT8OID: t = b_.F64(0); break;
            case DATEOID: t = b_.Date(0); break;
            case TIMESTAMPOID: t = b_.Dt(0); break;
            case NUMERICOID: t = b_.Dec128(0, 0); break;
            case INTERVALOID:  // interval_in's plain spellings under IntervalStyle postgres (@from_text)
                if (IntervalStyle != INTSTYLE_POSTGRES) return Unsup(ctx.node, "text as interval under an IntervalStyle other than postgres");
                interval_style_guard_ = true;
                t = b_.Null(hir::Type(hir::TypeKind::INTERVAL));
                break;
            default: return Unsup(ctx.node, "cast of text to " + TypeName(to));
        }
        RNDN_ASSIGN_OR_RETURN(Col a, X(c->arg, ctx));
        Col out;
        out.type = to;
        out.scalar = a.scalar;
        out.scale = -1;
        out.var = Emit(B::FROM_TEXT, {a.var, t});
        return out;
    }
    return Unsup(ctx.node, "cast of " + TypeName(from) + " to " + TypeName(to) + " through text");
}

Expected<Col> Translator::X(Expr *e, const Ctx &ctx) {
    if (e == nullptr) return Unsup(ctx.node, "missing expression");
    switch (nodeTag(e)) {
        case T_Var: {
            Var *v = (Var *)e;
            if (v->varlevelsup != 0) return Unsup(ctx.node, "outer-level Var");
            if (v->varno == OUTER_VAR || v->varno == INNER_VAR) {
                Rel *r = (v->varno == OUTER_VAR ? ctx.outer : ctx.inner).get();
                if (r == nullptr || v->varattno < 1 || v->varattno > (int)r->cols.size())
                    return Unsup(ctx.node, "Var out of range");
                return r->cols[v->varattno - 1]->Get();
            }
            if (v->varno == INDEX_VAR && ctx.index_tlist != nullptr) {
                if (v->varattno < 1 || v->varattno > list_length(ctx.index_tlist)) return Unsup(ctx.node, "index column out of range");
                return X(((TargetEntry *)list_nth(ctx.index_tlist, v->varattno - 1))->expr, ctx);
            }
            if (ctx.scan_col && v->varno == (int)ctx.scanrelid) {
                if (v->varattno < 1) return Unsup(ctx.node, "system or whole-row column");
                return ctx.scan_col(v->varattno);
            }
            return Unsup(ctx.node, "Var of another relation");
        }
        case T_Const: return Const_((Const *)e, ctx.node);
        case T_RelabelType: {
            if (BlankSensitiveToBpchar((Node *)e))
                return Unsup(ctx.node, "text or varchar compared as char(n) (trailing blanks ignored)");
            RNDN_ASSIGN_OR_RETURN(Col c, X(((RelabelType *)e)->arg, ctx));
            c.type = ((RelabelType *)e)->resulttype;
            c.typmod = ((RelabelType *)e)->resulttypmod;
            return c;
        }
        case T_OpExpr: {
            OpExpr *op = (OpExpr *)e;
            const Oid fn = op->opfuncid ? op->opfuncid : get_opcode(op->opno);
            return Call(fn, op->args, op->opresulttype, -1, op->inputcollid, ctx);
        }
        case T_FuncExpr: {
            FuncExpr *f = (FuncExpr *)e;
            if (f->funcretset) return Unsup(ctx.node, "set-returning function");
            // pg_proc's varchar(varchar, int4, bool) and bpchar(bpchar, int4, bool) (fixed OIDs of
            // pg_proc.dat; fmgroids.h's F_ names would shadow the translator's flags)
            constexpr Oid kVarcharTypmodFn = 669, kBpcharTypmodFn = 668;
            if ((f->funcid == kVarcharTypmodFn || f->funcid == kBpcharTypmodFn) && list_length(f->args) == 3) {
                // tsx18: the length coercion of a cast to varchar(n) / char(n) (varchar.c's varchar()
                // and bpchar()): @str_typmod, characters counted as the database encoding does
                Expr *tm = (Expr *)lsecond(f->args), *ex = (Expr *)lthird(f->args);
                if (!IsA(tm, Const) || ((Const *)tm)->constisnull || !IsA(ex, Const) || ((Const *)ex)->constisnull)
                    return Unsup(ctx.node, "a length coercion with a non-constant length");
                const int32 typmod = DatumGetInt32(((Const *)tm)->constvalue);
                const bool is_explicit = DatumGetBool(((Const *)ex)->constvalue);
                const bool utf8 = GetDatabaseEncoding() == PG_UTF8;
                if (!utf8 && pg_database_encoding_max_length() != 1) return Unsup(ctx.node, "a length coercion in a multibyte encoding other than UTF-8");
                const bool bpchar = f->funcid == kBpcharTypmodFn;
                Expr *src = (Expr *)linitial(f->args);
                if (bpchar) {
                    if (typmod < (int32)VARHDRSZ + 1) return Unsup(ctx.node, "a cast to char without a length");
                    // text or varchar made char(n): @str_typmod drops the trailing blanks, as char(n) ignores them
                    if (BlankSensitiveToBpchar((Node *)src)) src = ((RelabelType *)src)->arg;
                }
                RNDN_ASSIGN_OR_RETURN(Col a, X(src, ctx));
                Col out = a;
                out.type = f->funcresulttype;
                out.typmod = typmod;
                if (typmod < (int32)VARHDRSZ + 1) return out;  // varchar without a length: unchanged
                out.var = Emit(B::STR_TYPMOD, {a.var, b_.Sym(bpchar ? "bpchar" : "varchar"),
                                               b_.I64s({(int64)(typmod - (int32)VARHDRSZ), is_explicit ? 1 : 0, utf8 ? 1 : 0})});
                return out;
            }
            return Call(f->funcid, f->args, f->funcresulttype, exprTypmod((Node *)e), f->inputcollid, ctx);
        }
        case T_BoolExpr: {
            BoolExpr *b = (BoolExpr *)e;
            std::vector<Col> xs;
            ListCell *lc;
            // AND / OR stop at the first decisive argument; all of them are computed here.
            for (int i = 1; i < list_length(b->args); ++i)
                if (ContainsDivision((Node *)list_nth(b->args, i)))
                    return Unsup(ctx.node, "a division after the first argument of AND/OR (PostgreSQL may skip it)");
            foreach (lc, b->args) {
                RNDN_ASSIGN_OR_RETURN(Col c, X((Expr *)lfirst(lc), ctx));
                xs.push_back(c);
            }
            Col out;
            out.type = BOOLOID;
            if (b->boolop == NOT_EXPR) {
                out.var = Emit(B::NOT, {xs[0].var});
                out.scalar = xs[0].scalar;
                return out;
            }
            const B fn = b->boolop == AND_EXPR ? B::AND : B::OR;
            out = xs[0];
            for (size_t i = 1; i < xs.size(); ++i) {
                out.var = Emit(fn, {out.var, xs[i].var});
                out.scalar = out.scalar && xs[i].scalar;
            }
            return out;
        }
        case T_NullTest: {
            NullTest *nt = (NullTest *)e;
            if (nt->argisrow) return Unsup(ctx.node, "row IS NULL");
            RNDN_ASSIGN_OR_RETURN(Col c, X(nt->arg, ctx));
            Col out;
            out.type = BOOLOID;
            out.scalar = c.scalar;
            out.var = Emit(nt->nulltesttype == IS_NULL ? B::IS_NULL : B::IS_NOT_NULL, {c.var});
            return out;
        }
        case T_BooleanTest: {
            // IS [NOT] TRUE / FALSE / UNKNOWN: never NULL
            BooleanTest *bt = (BooleanTest *)e;
            RNDN_ASSIGN_OR_RETURN(Col c, X(bt->arg, ctx));
            Col out;
            out.type = BOOLOID;
            out.scalar = c.scalar;
            switch (bt->booltesttype) {
                case IS_TRUE: out.var = Emit(B::COALESCE, {c.var, b_.Bool(false)}); break;
                case IS_NOT_TRUE: out.var = Emit(B::NOT, {Emit(B::COALESCE, {c.var, b_.Bool(false)})}); break;
                case IS_FALSE: out.var = Emit(B::NOT, {Emit(B::COALESCE, {c.var, b_.Bool(true)})}); break;
                case IS_NOT_FALSE: out.var = Emit(B::COALESCE, {c.var, b_.Bool(true)}); break;
                case IS_UNKNOWN: out.var = Emit(B::IS_NULL, {c.var}); break;
                case IS_NOT_UNKNOWN: out.var = Emit(B::IS_NOT_NULL, {c.var}); break;
            }
            return out;
        }
        case T_DistinctExpr: {
            // a IS DISTINCT FROM b: NOT (a = b) where both are non-NULL, else "exactly one is
            // NULL" (IS NOT DISTINCT FROM is NOT over this node)
            DistinctExpr *d = (DistinctExpr *)e;
            const Oid fn = d->opfuncid ? d->opfuncid : get_opcode(d->opno);
            const FnRow *row = LookupFunction(fn);
            if (row == nullptr || row->kind != FnKind::BINARY || row->builtin != B::EQ)
                return Unsup(ctx.node, "IS DISTINCT FROM with operator " + FuncName(fn));
            RNDN_ASSIGN_OR_RETURN(Col eq, Call(fn, d->args, BOOLOID, -1, d->inputcollid, ctx));
            RNDN_ASSIGN_OR_RETURN(Col a, X((Expr *)linitial(d->args), ctx));
            RNDN_ASSIGN_OR_RETURN(Col b, X((Expr *)lsecond(d->args), ctx));
            Op one_null = Emit(B::XOR, {Emit(B::IS_NULL, {a.var}), Emit(B::IS_NULL, {b.var})});
            Col out;
            out.type = BOOLOID;
            out.scalar = eq.scalar;
            out.var = Emit(B::COALESCE, {Emit(B::NOT, {eq.var}), one_null});
            return out;
        }
        case T_MinMaxExpr: return MinMaxX((MinMaxExpr *)e, ctx);
        case T_ScalarArrayOpExpr: return ArrayOp((ScalarArrayOpExpr *)e, ctx);
        case T_CaseExpr: return CaseX((CaseExpr *)e, ctx);
        case T_CaseTestExpr:
            // the test value of the innermost simple CASE whose WHEN condition this is
            if (case_tests_.empty()) return Unsup(ctx.node, "a CaseTestExpr outside a simple CASE");
            return case_tests_.back();
        case T_NullIfExpr: {
            // NULLIF(a, b): a, with NULL where a = b is true.
            NullIfExpr *n = (NullIfExpr *)e;
            if (list_length(n->args) != 2) return Unsup(ctx.node, "NULLIF arity");
            const Oid fn = n->opfuncid ? n->opfuncid : get_opcode(n->opno);
            RNDN_ASSIGN_OR_RETURN(Col eq, Call(fn, n->args, BOOLOID, -1, n->inputcollid, ctx));
            RNDN_ASSIGN_OR_RETURN(Col a, X((Expr *)linitial(n->args), ctx));
            if (a.scalar && eq.scalar) return Unsup(ctx.node, "NULLIF of constants");
            RNDN_ASSIGN_OR_RETURN(a, Materialize(a, ctx.len_var));
            RNDN_ASSIGN_OR_RETURN(eq, Materialize(eq, ctx.len_var));
            RNDN_ASSIGN_OR_RETURN(Op nl, NullLiteral(a, ctx.node));
            a.var = Emit(B::INDEX_A, {a.var, Emit(B::WHERE, {eq.var}), nl});
            return a;
        }
        case T_CoalesceExpr: return CoalesceX((CoalesceExpr *)e, ctx);
        case T_CoerceViaIO: return CoerceIOX((CoerceViaIO *)e, ctx);
        case T_Aggref: {
            if (ctx.aggs == nullptr) return Unsup(ctx.node, "aggregate outside an Agg node");
            auto it = ctx.aggs->find((Aggref *)e);
            if (it == ctx.aggs->end()) return Unsup(ctx.node, "unknown aggregate");
            return it->second->Get();
        }
        case T_WindowFunc: {
            if (ctx.winfuncs == nullptr) return Unsup(ctx.node, "window function outside its WindowAgg");
            auto it = ctx.winfuncs->find((WindowFunc *)e);
            if (it == ctx.winfuncs->end()) return Unsup(ctx.node, "window function of another window");
            return it->second->Get();
        }
        case T_GroupingFunc: {
            if (ctx.groupings == nullptr) return Unsup(ctx.node, "GROUPING() outside grouping sets");
            auto it = ctx.groupings->find((GroupingFunc *)e);
            if (it == ctx.groupings->end()) return Unsup(ctx.node, "unknown GROUPING()");
            return it->second->Get();
        }
        case T_Param: {
            Param *p = (Param *)e;
            if (p->paramkind == PARAM_EXEC && params_.count(p->paramid)) return params_[p->paramid];
            // A generic plan's query parameter: a parameter of main, bound by the executor.
            if (p->paramkind == PARAM_EXTERN) return ExternParam(p, ctx.node);
            return Unsup(ctx.node, p->paramkind == PARAM_EXEC ? "correlated or unsupported subquery parameter" : "query parameter");
        }
        case T_SubPlan: {
            const bool saved = in_comparison_;
            Expected<Col> c = SubPlanX((SubPlan *)e, ctx);
            in_comparison_ = saved;
            return c;
        }
        case T_AlternativeSubPlan: return Unsup(ctx.node, "alternative subplans");
        case T_SQLValueFunction: return SqlValueFn((SQLValueFunction *)e, ctx);
        default: return Unsup(ctx.node, "expression node " + std::to_string((int)nodeTag(e)));
    }
}


// ---------------------------------------------------------------------------------------------
// Time zones (issue 18 items 1-3)
//
// A zone becomes its transition table (layout: src/horseir/kernels_tz.cpp), built here with
// PostgreSQL's own pgtime API: pg_next_dst_boundary walks the boundaries from before the first
// timestamp PostgreSQL accepts to the first one after 2200-01-01 (the same answers
// DetermineTimeZoneOffset gets from it), and pg_localtime confirms each segment's offset (the
// answers timestamp2tm gets).  A zone where the two disagree, or with more than kMaxBoundaries
// boundaries, keeps PostgreSQL's plan.  Instants after the last listed boundary fall back at
// run time, unless the zone has no later transitions (then the last offset holds forever).

namespace {
constexpr int64 kUnixToPgEpoch = 946684800;           // 1970-01-01 .. 2000-01-01 in seconds
constexpr pg_time_t kZoneFrom = -210866803200LL - 2 * 86400;  // before 4714-11-24 BC (Unix seconds)
constexpr pg_time_t kZoneUntil = 7258118400LL;        // 2200-01-01 00:00 UTC (Unix seconds)
constexpr int kMaxBoundaries = 4000;

std::optional<std::vector<int64_t>> BuildZoneTable(const pg_tz *tz, std::string *why) {
    std::vector<int64_t> out = {kZoneFrom - kUnixToPgEpoch, INT64_MAX, 0};
    pg_time_t t = kZoneFrom;
    for (int n = 0;; ++n) {
        long int before_off = 0, after_off = 0;
        int before_dst = 0, after_dst = 0;
        pg_time_t boundary = 0;
        const int res = pg_next_dst_boundary(&t, &before_off, &before_dst, &boundary, &after_off, &after_dst, tz);
        if (res < 0) {
            *why = "pg_next_dst_boundary failed";
            return std::nullopt;
        }
        if (n == 0) out[2] = before_off;
        if (res == 0) break;
        if (boundary <= t || n >= kMaxBoundaries) {
            *why = "more than " + std::to_string(kMaxBoundaries) + " transitions";
            return std::nullopt;
        }
        out.push_back(boundary - kUnixToPgEpoch);
        out.push_back(after_off);
        if (boundary > kZoneUntil) {
            out[1] = boundary - kUnixToPgEpoch;
            break;
        }
        t = boundary;
    }
    // pg_localtime (timestamp2tm) must see the same offset in every segment.
    auto agrees = [&](pg_time_t at, int64_t off) {
        const struct pg_tm *tm = pg_localtime(&at, tz);
        return tm != nullptr && tm->tm_gmtoff == off;
    };
    if (!agrees(kZoneFrom, out[2]) || (out.size() > 3 && !agrees(out[3] + kUnixToPgEpoch - 1, out[2]))) {
        *why = "pg_localtime and pg_next_dst_boundary disagree before the first transition";
        return std::nullopt;
    }
    for (size_t i = 3; i + 1 < out.size(); i += 2)
        if (!agrees(out[i] + kUnixToPgEpoch, out[i + 1])) {
            *why = "pg_localtime and pg_next_dst_boundary disagree at a transition";
            return std::nullopt;
        }
    return out;
}

// DecodeUnits' spellings of the time zone fields (truncated to TOKMAXLEN characters).
int TzFieldOf(const std::string &f) {
    const std::string t = f.substr(0, TOKMAXLEN);
    if (t == "timezone") return 0;
    if (t == "timezone_h") return 1;
    if (t == "timezone_m") return 2;
    return -1;
}
}  // namespace

Expected<Op> Translator::ZoneTable(const pg_tz *tz, const Ctx &ctx) {
    tz_used_ = true;
    auto it = zone_ops_.find(tz);
    if (it != zone_ops_.end()) return it->second;
    std::string why;
    std::optional<std::vector<int64_t>> table = BuildZoneTable(tz, &why);
    const char *name = pg_get_timezone_name(const_cast<pg_tz *>(tz));
    if (!table) return Unsup(ctx.node, std::string("time zone ") + (name != nullptr ? name : "?") + ": " + why);
    Op v = Emit(hir::Builder::Use(b_.I64s(*table)));
    zone_ops_[tz] = v;
    return v;
}

Expected<Op> Translator::SessionZone(const Ctx &ctx) {
    if (session_timezone == nullptr) return Unsup(ctx.node, "no session TimeZone");
    return ZoneTable(session_timezone, ctx);
}

// A constant zone of timezone(zone, x) / date_trunc(unit, x, zone), looked up as PostgreSQL 15's
// timestamptz_zone does: the abbreviation table first (a fixed offset: a one-offset table; a
// dynamic abbreviation keeps PostgreSQL's plan), then the zone database.
Expected<Op> Translator::ConstZone(Expr *zone, const Ctx &ctx) {
    if (!IsA(zone, Const) || ((Const *)zone)->constisnull) return Unsup(ctx.node, "a time zone that is not a constant");
    char *c = TextDatumGetCString(((Const *)zone)->constvalue);
    std::string name(c);
    pfree(c);
    if (name.size() >= TZ_STRLEN_MAX) return Unsup(ctx.node, "a time zone name of " + std::to_string(name.size()) + " bytes");
    char *low = downcase_truncate_identifier(name.c_str(), (int)name.size(), false);
    int val = 0;
    pg_tz *tzp = nullptr;
    const int type = DecodeTimezoneAbbrev(0, low, &val, &tzp);
    pfree(low);
    if (type == TZ || type == DTZ) {
        tz_used_ = true;  // the abbreviation table is part of TimeZoneKey()
        return Emit(hir::Builder::Use(b_.I64s({INT64_MIN + 1, INT64_MAX, val})));  // INT64_MIN is the i64 NULL
    }
    if (type == DYNTZ) return Unsup(ctx.node, "time zone abbreviation '" + name + "' with a varying offset");
    pg_tz *tz = pg_tzset(name.c_str());
    if (tz == nullptr) return Unsup(ctx.node, "time zone '" + name + "' not recognized (PostgreSQL raises)");
    return ZoneTable(tz, ctx);
}

Expected<Col> Translator::TzCall(const FnRow &row, List *args, Oid result_type, int32 result_typmod, const Ctx &ctx) {
    const std::string fname = row.prosrc;
    const int nargs = list_length(args);
    Col out;
    out.type = result_type;
    out.typmod = result_typmod;
    // the timestamptz / timestamp / date argument: the second for the functions with a leading
    // field, unit or zone
    const bool leading = fname == "timestamptz_zone" || fname == "timestamp_zone" || fname == "extract_timestamptz" ||
                         fname == "timestamptz_part" || fname == "timestamptz_trunc" || fname == "timestamptz_trunc_zone";
    if (nargs < (leading ? 2 : 1)) return Unsup(ctx.node, fname + " arity");
    RNDN_ASSIGN_OR_RETURN(Col x, X((Expr *)list_nth(args, leading ? 1 : 0), ctx));
    out.scalar = x.scalar;
    Op zone;
    if (fname == "timestamptz_zone" || fname == "timestamp_zone") {
        RNDN_ASSIGN_OR_RETURN(zone, ConstZone((Expr *)linitial(args), ctx));
    } else if (fname == "timestamptz_trunc_zone") {
        if (nargs != 3) return Unsup(ctx.node, fname + " arity");
        RNDN_ASSIGN_OR_RETURN(zone, ConstZone((Expr *)lthird(args), ctx));
    } else {
        RNDN_ASSIGN_OR_RETURN(zone, SessionZone(ctx));
    }
    switch (row.builtin) {
        case B::TZ_LOCAL:
            out.var = Emit(fname == "timestamptz_date" ? B::TZ_DATE : B::TZ_LOCAL, {x.var, zone});
            return out;
        case B::TZ_UTC: out.var = Emit(B::TZ_UTC, {x.var, zone}); return out;
        case B::TZ_INTERVAL_ADD: {
            Expr *iv = (Expr *)lsecond(args);
            if (nargs != 2) return Unsup(ctx.node, fname + " arity");
            if (!IsA(iv, Const) || ((Const *)iv)->constisnull) {  // an interval column or expression (or NULL)
                RNDN_ASSIGN_OR_RETURN(Col ivc, X(iv, ctx));
                if (x.scalar && !ivc.scalar) {
                    RNDN_ASSIGN_OR_RETURN(x, Materialize(x, ctx.len_var));
                }
                out.var = Emit(fname == "timestamptz_mi_interval" ? B::TZ_INTERVAL_MIV : B::TZ_INTERVAL_PLV, {x.var, ivc.var, zone});
                out.scalar = x.scalar && ivc.scalar;
                return out;
            }
            const Interval *span = DatumGetIntervalP(((Const *)iv)->constvalue);
            int64 months = span->month, days = span->day, micros = span->time;
            if (fname == "timestamptz_mi_interval") {
                if (span->time == PG_INT64_MIN || span->month == PG_INT32_MIN || span->day == PG_INT32_MIN)
                    return Unsup(ctx.node, "interval with a field at its minimum");
                months = -months;
                days = -days;
                micros = -micros;
            }
            out.var = Emit(B::TZ_INTERVAL_ADD, {x.var, b_.I64s({months, days, micros}), zone});
            return out;
        }
        case B::TZ_TRUNC: {
            RNDN_ASSIGN_OR_RETURN(const std::string us, TruncUnit((Expr *)linitial(args), " of timestamptz", ctx));
            out.var = Emit(B::TZ_TRUNC, {x.var, b_.Sym(us), zone});
            return out;
        }
        case B::TZ_FIELD: {
            Expr *f = (Expr *)linitial(args);
            if (!IsA(f, Const) || ((Const *)f)->constisnull) return Unsup(ctx.node, "extract with a non-constant field");
            char *field = TextDatumGetCString(((Const *)f)->constvalue);
            std::string fs(field);
            pfree(field);
            std::transform(fs.begin(), fs.end(), fs.begin(), ::tolower);
            const bool date_part = result_type == FLOAT8OID;
            const int tzf = TzFieldOf(fs);
            if (tzf >= 0) {
                static const char *const kNames[] = {"timezone", "timezone_hour", "timezone_minute"};
                Op v = Emit(B::TZ_FIELD, {x.var, b_.Sym(kNames[tzf]), zone});
                if (date_part) {
                    out.var = EmitCast(v, hir::Type(hir::TypeKind::F64));
                } else {
                    out.var = EmitCast(v, Dec128(0));
                    out.scale = 0;
                }
                return out;
            }
            const std::string canon = CanonicalDateField(fs);
            static const char *const kFields[] = {"century", "decade", "millennium", "year", "isoyear", "quarter", "month",
                                                  "week", "day", "dow", "isodow", "doy", "hour", "minute", "second",
                                                  "milliseconds", "microseconds", "epoch", "julian"};
            if (std::find_if(std::begin(kFields), std::end(kFields), [&](const char *k) { return canon == k; }) == std::end(kFields))
                return Unsup(ctx.node, "extract(" + fs + ") of timestamptz");
            // every field of the wall time, except epoch: the instant itself
            const Op src = canon == "epoch" ? x.var : Emit(B::TZ_LOCAL, {x.var, zone});
            const Op sym = b_.Sym(canon);
            if (date_part) {
                out.var = Emit(B::DATE_FIELD_F, {src, sym});
                return out;
            }
            if (canon == "second" || canon == "milliseconds" || canon == "epoch") {
                Op p = Emit(B::DATE_FIELD_US, {src, sym});
                out.scale = canon == "milliseconds" ? 3 : 6;
                out.var = out.scale == 6 ? p : EmitCast(p, Dec128(3));
                return out;
            }
            if (canon == "julian") {  // of the wall time, each value's display scale
                out.var = Emit(B::JULIAN_NUM, {src});
                out.scale = -1;
                return out;
            }
            out.var = EmitCast(Emit(B::DATE_FIELD, {src, sym}), Dec128(0));
            out.scale = 0;
            return out;
        }
        default: return Unsup(ctx.node, fname + ": no time zone translation");
    }
}

// timestamp/date OP timestamptz and the reverse: the other side as the session's wall time
// (timestamp2timestamptz / date2timestamptz), then compared as instants.
Expected<Col> Translator::TzCompare(const FnRow &row, List *args, std::vector<Col> a, const Ctx &ctx) {
    if (list_length(args) != 2 || a.size() != 2) return Unsup(ctx.node, std::string(row.prosrc) + " arity");
    RNDN_ASSIGN_OR_RETURN(Op zone, SessionZone(ctx));
    for (int i = 0; i < 2; ++i)
        if (exprType((Node *)list_nth(args, i)) != TIMESTAMPTZOID) a[(size_t)i].var = Emit(B::TZ_UTC, {a[(size_t)i].var, zone});
    Col out;
    out.type = BOOLOID;
    out.scalar = a[0].scalar && a[1].scalar;
    out.var = Emit(row.builtin, {a[0].var, a[1].var});
    return out;
}

// now() / transaction_timestamp() / CURRENT_TIMESTAMP and statement_timestamp(): an entry
// parameter bound by the executor when the statement runs (a cached plan gets each execution's
// value).  clock_timestamp() (volatile) has no row: PostgreSQL's plan.
Expected<Col> Translator::NowValue(bool statement, const Ctx &) {
    auto it = now_params_.find(statement);
    Col c;
    c.type = TIMESTAMPTZOID;
    c.scalar = true;
    if (it != now_params_.end()) {
        c.var = it->second;
        return c;
    }
    c.var = b_.Param(statement ? pg::kStatementTsParam : pg::kNowParam, hir::Type(hir::TypeKind::DT));
    now_params_[statement] = c.var;
    return c;
}

Expected<Col> Translator::SqlValueFn(SQLValueFunction *f, const Ctx &ctx) {
    switch (f->op) {
        case SVFOP_CURRENT_TIMESTAMP: return NowValue(false, ctx);
        case SVFOP_CURRENT_DATE:
        case SVFOP_LOCALTIMESTAMP: {
            RNDN_ASSIGN_OR_RETURN(Col now, NowValue(false, ctx));
            RNDN_ASSIGN_OR_RETURN(Op zone, SessionZone(ctx));
            Col out = now;
            const bool date = f->op == SVFOP_CURRENT_DATE;
            out.var = Emit(date ? B::TZ_DATE : B::TZ_LOCAL, {now.var, zone});
            out.type = date ? DATEOID : TIMESTAMPOID;
            return out;
        }
        default: return Unsup(ctx.node, "SQL value function " + std::to_string((int)f->op) + " (time types, a precision, or a role name)");
    }
}

}  // namespace rndn::plan::internal
