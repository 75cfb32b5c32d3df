// Plan nodes -> HorseIR: scans (sequential, index, bitmap), filters and projections,
// aggregation, sort, limit, unique, joins (hash, merge, nested loop; inner, outer, semi, anti),
// init plans and correlated subqueries (decorrelated through Rel::extras).
#include "planner_hook/translator.h"
#include "pg_base/guc.h"
#include "catalog/pg_collation.h"
#include "catalog/pg_statistic.h"
extern "C" {
#include "optimizer/clauses.h"
#include "utils/fmgroids.h"
}

namespace rndn::plan::internal {
// ---------------------------------------------------------------------------------------------
// Relations

LenFn ConstLen(const Op &v) {
    return [v]() -> Expected<Op> { return v; };
}

Translator::RelP Translator::Take(const RelP &in, const Op &idx, bool compress, LenFn len) {
    auto out = std::make_shared<Rel>();
    for (const LazyPtr &c : in->cols)
        out->cols.push_back(std::make_shared<LazyCol>([this, c, idx, compress]() -> Expected<Col> {
            RNDN_ASSIGN_OR_RETURN(Col x, c->Get());
            if (x.scalar) return x;
            x.var = compress ? Emit(B::COMPRESS, {idx, x.var}) : Emit(B::INDEX, {x.var, idx});
            return x;
        }));
    for (const auto &[key, c] : in->extras)
        out->extras[key] = std::make_shared<LazyCol>([this, c, idx, compress]() -> Expected<Col> {
            RNDN_ASSIGN_OR_RETURN(Col x, c->Get());
            if (x.scalar) return x;
            x.var = compress ? Emit(B::COMPRESS, {idx, x.var}) : Emit(B::INDEX, {x.var, idx});
            return x;
        });
    out->deferred = in->deferred;
    out->len_var = std::move(len);
    return out;
}

Expected<Op> Translator::Mask(List *quals, const Ctx &ctx) {
    std::optional<Col> acc;
    ListCell *lc;
    // PostgreSQL evaluates quals in order and stops at the first false one.
    for (int i = 1; i < list_length(quals); ++i)
        if (ContainsDivision((Node *)list_nth(quals, i)))
            return Unsup(ctx.node, "a division in a qual after the first (PostgreSQL may skip it)");
    foreach (lc, quals) {
        RNDN_ASSIGN_OR_RETURN(Col c, X((Expr *)lfirst(lc), ctx));
        if (c.type != BOOLOID) return Unsup(ctx.node, "non-boolean qual");
        if (!acc) {
            acc = c;
        } else {
            acc->var = Emit(B::AND, {acc->var, c.var});
            acc->scalar = acc->scalar && c.scalar;
        }
    }
    if (!acc) return Unsup(ctx.node, "empty qual");
    if (acc->scalar) {
        RNDN_ASSIGN_OR_RETURN(Col m, Materialize(*acc, ctx.len_var));
        return m.var;
    }
    return acc->var;
}

// The node's own quals and target list over a relation its children produced.
Expected<Translator::RelP> Translator::ProjectOver(Plan *plan, RelP rel, List *quals) {
    Ctx ctx;
    ctx.node = plan;
    ctx.outer = rel;
    ctx.len_var = rel->len_var;
    return FilterAndProject(plan, ctx, quals);
}

Expected<Translator::RelP> Translator::FilterAndProject(Plan *plan, Ctx ctx, List *quals,
                                                        std::map<int, Expr *> extra_exprs,
                                                        std::vector<std::pair<Expr *, Op>> keep) {
    // The `keep` filters first, each over the rows the one before kept, then the quals over
    // the rows they all kept (a condition with a subquery is then evaluated only for those);
    // quals without a subquery are cheap: one mask with the last filter's, one compaction.
    const bool cheap_quals = quals != NIL && !contain_subplans((Node *)quals);
    for (size_t stage = 0; stage <= keep.size(); ++stage) {
        Op mask;
        if (stage < keep.size()) {
            RNDN_ASSIGN_OR_RETURN(Col k, X(keep[stage].first, ctx));
            if (k.scalar) continue;
            mask = Emit(B::MEMBER, {k.var, keep[stage].second});
            mask = Emit(B::AND, {mask, Emit(B::IS_NOT_NULL, {mask})});  // a NULL key matches no outer row
            if (stage + 1 == keep.size() && cheap_quals) {
                RNDN_ASSIGN_OR_RETURN(Op qm, Mask(quals, ctx));
                mask = Emit(B::AND, {mask, qm});
                quals = NIL;
            }
        } else {
            if (quals == NIL) continue;
            RNDN_ASSIGN_OR_RETURN(mask, Mask(quals, ctx));
        }
        auto old_len = ctx.len_var;
        auto memo = std::make_shared<std::optional<Op>>();
        auto new_len = [this, mask, old_len, memo]() -> Expected<Op> {
            if (!*memo) {
                RNDN_ASSIGN_OR_RETURN(Op lv, old_len());
                *memo = Emit(B::COMPRESS, {mask, lv});
            }
            return **memo;
        };
        if (ctx.outer) ctx.outer = Take(ctx.outer, mask, true, new_len);
        if (ctx.aggs) {
            auto filtered = std::make_shared<std::map<const Aggref *, LazyPtr>>();
            for (const auto &[a, c] : *ctx.aggs)
                (*filtered)[a] = std::make_shared<LazyCol>([this, c, mask]() -> Expected<Col> {
                    RNDN_ASSIGN_OR_RETURN(Col x, c->Get());
                    if (!x.scalar) x.var = Emit(B::COMPRESS, {mask, x.var});
                    return x;
                });
            ctx.aggs = filtered;
        }
        if (ctx.groupings) {
            auto filtered = std::make_shared<std::map<const GroupingFunc *, LazyPtr>>();
            for (const auto &[gf, c] : *ctx.groupings)
                (*filtered)[gf] = std::make_shared<LazyCol>([this, c, mask]() -> Expected<Col> {
                    RNDN_ASSIGN_OR_RETURN(Col x, c->Get());
                    if (!x.scalar) x.var = Emit(B::COMPRESS, {mask, x.var});
                    return x;
                });
            ctx.groupings = filtered;
        }
        if (ctx.inner) ctx.inner = Take(ctx.inner, mask, true, new_len);
        if (ctx.scan_col) {
            auto base = ctx.scan_col;
            auto cache = std::make_shared<std::map<AttrNumber, Col>>();
            ctx.scan_col = [this, base, cache, mask](AttrNumber a) -> Expected<Col> {
                auto it = cache->find(a);
                if (it != cache->end()) return it->second;
                RNDN_ASSIGN_OR_RETURN(Col x, base(a));
                if (!x.scalar) x.var = Emit(B::COMPRESS, {mask, x.var});
                (*cache)[a] = x;
                return x;
            };
        }
        ctx.len_var = new_len;
    }
    auto out = std::make_shared<Rel>();
    out->len_var = ctx.len_var;
    auto shared_ctx = std::make_shared<Ctx>(ctx);
    ListCell *lc;
    foreach (lc, plan->targetlist) {
        Expr *expr = ((TargetEntry *)lfirst(lc))->expr;
        out->cols.push_back(std::make_shared<LazyCol>([this, shared_ctx, expr]() { return X(expr, *shared_ctx); }));
    }
    for (const auto &[key, expr] : extra_exprs) {
        Expr *e = expr;
        out->extras[key] = std::make_shared<LazyCol>([this, shared_ctx, e]() { return X(e, *shared_ctx); });
    }
    for (const RelP &r : {ctx.outer, ctx.inner}) {
        if (!r) continue;
        for (const auto &[key, c] : r->extras) {
            if (key < 0) continue;  // private to the node below
            if (out->extras.count(key)) return Unsup(plan, "a correlated parameter compared on both sides");
            out->extras[key] = c;
        }
        out->deferred.insert(out->deferred.end(), r->deferred.begin(), r->deferred.end());
    }
    return out;
}

// Does the expression use one of the parameters in `ids`?
bool UsesParamsWalker(Node *n, void *ids) {
    if (n == nullptr) return false;
    if (IsA(n, Param)) {
        Param *p = (Param *)n;
        return p->paramkind == PARAM_EXEC && ((std::set<int> *)ids)->count(p->paramid) > 0;
    }
    return expression_tree_walker(n, (bool (*)(void))(void *)UsesParamsWalker, ids);
}
bool UsesParams(Node *n, const std::set<int> &ids) { return UsesParamsWalker(n, (void *)&ids); }

Expr *StripRelabel(Expr *e) {
    // A text or varchar relabelled to char(n) is not stripped: it gains char(n)'s blank-insensitive
    // comparison, which the translator does not reproduce (see BlankSensitiveToBpchar).
    while (e && IsA(e, RelabelType) && !BlankSensitiveToBpchar((Node *)e)) e = ((RelabelType *)e)->arg;
    return e;
}

bool BlankSensitiveToBpchar(Node *n) {
    if (n == nullptr || !IsA(n, RelabelType) || ((RelabelType *)n)->resulttype != BPCHAROID) return false;
    Node *arg = (Node *)((RelabelType *)n)->arg;
    return exprType(arg) != BPCHAROID && !IsA(arg, Const);
}

// `expr = $p` (or `$p = expr`) with p in ids and expr free of them.
bool ParamEquality(Expr *q, const std::set<int> &ids, int *pid, Expr **other) {
    if (!IsA(q, OpExpr) || list_length(((OpExpr *)q)->args) != 2) return false;
    OpExpr *op = (OpExpr *)q;
    const FnRow *row = LookupFunction(op->opfuncid ? op->opfuncid : get_opcode(op->opno));
    if (row == nullptr || !(row->flags & F_EQ)) return false;
    for (int side = 0; side < 2; ++side) {
        Expr *a = StripRelabel((Expr *)list_nth(op->args, side));
        Expr *b = (Expr *)list_nth(op->args, 1 - side);
        if (IsA(a, Param) && ((Param *)a)->paramkind == PARAM_EXEC && ids.count(((Param *)a)->paramid) &&
            !UsesParams((Node *)b, ids)) {
            *pid = ((Param *)a)->paramid;
            *other = b;
            return true;
        }
    }
    return false;
}

// Key types whose = is identity (equal values are the same value): the keys that semi-join
// reduction and nested-loop join filters take.
static bool IdentityKeyType(Oid t) { return t == INT2OID || t == INT4OID || t == INT8OID || t == DATEOID; }

static double RowsEstimate(const Plan *p, List *rtable);
static double ColumnDistinct(const Plan *p, Expr *e, List *rtable, double rows);

struct MarkerCtx {
    Translator *t;
    Index scanrelid;
    std::map<int, Expr *> *extras;
};

Node *ReplaceVarsWithMarkers(Node *n, MarkerCtx *mc);

Expected<Translator::RelP> Translator::Scan(Plan *plan, Index scanrelid, List *quals, List *index_tlist,
                                            std::map<int, Expr *> extra_exprs) {
    RangeTblEntry *rte = rt_fetch(scanrelid, stmt_->rtable);
    if (rte->rtekind != RTE_RELATION) return Unsup(plan, "scan of a non-table range entry");
    if (rte->relkind != RELKIND_RELATION && rte->relkind != RELKIND_MATVIEW)
        return Unsup(plan, "scan of a relation that is not a plain table");
    if (rte->tablesample != nullptr) return Unsup(plan, "TABLESAMPLE");
    const Oid relid = rte->relid;
    if (rte->relkind == RELKIND_MATVIEW) {
        // an unpopulated materialized view is PostgreSQL's error when scanned ("has not been
        // populated"); the row count rndn would read from its empty heap is no answer
        HeapTuple tp = SearchSysCache1(RELOID, ObjectIdGetDatum(relid));
        const bool populated = HeapTupleIsValid(tp) && ((Form_pg_class)GETSTRUCT(tp))->relispopulated;
        if (HeapTupleIsValid(tp)) ReleaseSysCache(tp);
        if (!populated) return Unsup(plan, "a materialized view that has not been populated");
    }
    const size_t rel_index = rels_.size();
    rels_.push_back(RelationRead{relid, "r" + std::to_string(rel_index), {}});
    const std::string rname = rels_.back().name;
    char *relname = get_rel_name(relid);
    summary_order_.push_back(rname);
    summary_cols_[rname] = std::string(relname ? relname : "?") + " (";
    if (relname) pfree(relname);
    const Op tvar = Emit(B::LOAD_TABLE, {b_.Sym(rname)});
    auto cache = std::make_shared<std::map<AttrNumber, Col>>();
    auto load = [this, relid, rel_index, rname, tvar, cache, plan](AttrNumber a) -> Expected<Col> {
        auto it = cache->find(a);
        if (it != cache->end()) return it->second;
        Oid type, coll;
        int32 typmod;
        get_atttypetypmodcoll(relid, a, &type, &typmod, &coll);
        const int scale = type == NUMERICOID ? NumericScale(typmod) : -1;
        auto t = pg::ColumnHirTypeOf(type, typmod);  // numeric(p<=18, s): dec64<s>, as the loader loads it
        if (!t) return Unsup(plan, "column of type " + TypeName(type) + (type == NUMERICOID ? " without (precision, scale) <= 38" : ""));
        Col c;
        c.type = type;
        c.typmod = typmod;
        c.scale = scale;
        c.var = Emit(hir::Builder::Cast(b_.Call(B::COLUMN_VALUE, {tvar, b_.Sym("a" + std::to_string(a))}), *t));
        (*cache)[a] = c;
        RelationRead &rr = rels_[rel_index];
        rr.attnums.push_back(a);
        std::sort(rr.attnums.begin(), rr.attnums.end());
        char *an = get_attname(relid, a, true);
        std::string &sum = summary_cols_[rname];
        if (sum.back() != '(') sum += ", ";
        sum += an ? an : "?";
        if (an) pfree(an);
        return c;
    };
    // The length of the relation: any column; the first one that is not dropped.
    auto len = [load, relid, plan, cache]() -> Expected<Op> {
        if (!cache->empty()) return cache->begin()->second.var;
        Relation r = RelationIdGetRelation(relid);
        AttrNumber first = 0;
        for (int i = 0; r && i < RelationGetDescr(r)->natts; ++i)
            if (!TupleDescAttr(RelationGetDescr(r), i)->attisdropped) {
                first = (AttrNumber)(i + 1);
                break;
            }
        if (r) RelationClose(r);
        if (first == 0) return Unsup(plan, "relation without columns");
        RNDN_ASSIGN_OR_RETURN(Col c, load(first));
        return c.var;
    };
    // Equalities with a parameter being decorrelated become hidden columns instead of filters;
    // other conditions on such a parameter wait for the join (Rel::deferred).
    List *plain = NIL;
    std::vector<Expr *> deferred;
    ListCell *qc;
    foreach (qc, quals) {
        Expr *q = (Expr *)lfirst(qc);
        if (!decor_params_.empty() && UsesParams((Node *)q, decor_params_)) {
            int pid;
            Expr *other;
            if (ParamEquality(q, decor_params_, &pid, &other) && !extra_exprs.count(pid)) {
                extra_exprs[pid] = other;
            } else {
                MarkerCtx mc{this, scanrelid, &extra_exprs};
                deferred.push_back((Expr *)ReplaceVarsWithMarkers((Node *)q, &mc));
            }
        } else {
            plain = lappend(plain, q);
        }
    }
    Ctx ctx;
    ctx.node = plan;
    ctx.scanrelid = scanrelid;
    ctx.scan_col = load;
    ctx.len_var = len;
    ctx.index_tlist = index_tlist;
    // Semi-join reduction: rows whose correlation key no outer row has are never looked up.
    // The most selective key first, as PostgreSQL's estimates tell: outer rows over the
    // column's distinct values (keys with as many outer rows as the table are left out).
    std::vector<std::tuple<double, Expr *, Op>> keys;
    const double table_rows = RowsEstimate(plan, stmt_->rtable);
    for (const auto &[pid, e] : extra_exprs) {
        auto it = decor_outer_.find(pid);
        if (it == decor_outer_.end() || exprType((Node *)e) != it->second.type) continue;
        if (it->second.rows >= table_rows) continue;  // would keep about every row
        const double distinct = ColumnDistinct(plan, e, stmt_->rtable, table_rows);
        keys.emplace_back(distinct > 0 ? it->second.rows / distinct : it->second.rows / table_rows, e, it->second.values);
    }
    std::stable_sort(keys.begin(), keys.end(), [](const auto &a, const auto &b) { return std::get<0>(a) < std::get<0>(b); });
    std::vector<std::pair<Expr *, Op>> keep;
    for (const auto &[rows, e, values] : keys) keep.emplace_back(e, values);
    RNDN_ASSIGN_OR_RETURN(RelP out, FilterAndProject(plan, ctx, plain, extra_exprs, keep));
    out->deferred.insert(out->deferred.end(), deferred.begin(), deferred.end());
    return out;
}

// The mask of the deferred conditions over the pairs li (their parameters already bound in
// params_): what a join, or a theta-correlated subquery, keeps of its candidate pairs.
Expected<Op> Translator::DeferredMask(const std::vector<Expr *> &deferred, const Plan *node, Op li) {
    Ctx dc;
    dc.node = node;
    dc.len_var = ConstLen(li);
    List *quals = NIL;
    for (Expr *q : deferred) quals = lappend(quals, q);
    return Mask(quals, dc);
}

Node *ReplaceVarsWithMarkers(Node *n, MarkerCtx *mc) {
    if (n == nullptr) return nullptr;
    if (IsA(n, Var)) {
        Var *v = (Var *)n;
        Param *p = makeNode(Param);
        p->paramkind = PARAM_EXEC;
        p->paramid = mc->t->NextMarker();
        p->paramtype = v->vartype;
        p->paramtypmod = v->vartypmod;
        p->paramcollid = v->varcollid;
        p->location = -1;
        (*mc->extras)[p->paramid] = (Expr *)v;
        return (Node *)p;
    }
    return expression_tree_mutator(n, (Node * (*)(void))(void *)ReplaceVarsWithMarkers, (void *)mc);
}

Expected<Translator::RelP> Translator::IndexScanNode(Plan *plan, Oid indexid, Index scanrelid, List *quals,
                                                     List *index_tlist, ScanDirection dir, bool order_free) {
    // PostgreSQL returns the rows in index order (keys, then heap position); the loader reads
    // them in heap order, and @order is stable: sorting by the keys gives the same sequence.
    HeapTuple tup = SearchSysCache1(INDEXRELID, ObjectIdGetDatum(indexid));
    if (!HeapTupleIsValid(tup)) return Unsup(plan, "index not found");
    Form_pg_index idx = (Form_pg_index)GETSTRUCT(tup);
    const int nkeys = idx->indnkeyatts;
    std::vector<AttrNumber> keys;
    for (int i = 0; i < nkeys; ++i) keys.push_back(idx->indkey.values[i]);
    bool isnull = true;
    Datum opt = SysCacheGetAttr(INDEXRELID, tup, Anum_pg_index_indoption, &isnull);
    std::vector<int16> options(nkeys, 0);
    if (!isnull) {
        int2vector *iv = (int2vector *)DatumGetPointer(opt);
        for (int i = 0; i < nkeys && i < iv->dim1; ++i) options[i] = iv->values[i];
    }
    ReleaseSysCache(tup);
    {
        HeapTuple ct = SearchSysCache1(RELOID, ObjectIdGetDatum(indexid));
        if (!HeapTupleIsValid(ct)) return Unsup(plan, "index not found");
        const Oid am = ((Form_pg_class)GETSTRUCT(ct))->relam;
        ReleaseSysCache(ct);
        if (am != BTREE_AM_OID) return Unsup(plan, "index scan of a non-btree index");
    }
    std::map<int, Expr *> extra;
    std::vector<Oid> coll_of(nkeys, InvalidOid);
    RangeTblEntry *rte = rt_fetch(scanrelid, stmt_->rtable);
    for (int i = 0; i < nkeys; ++i) {
        if (keys[i] <= 0) return Unsup(plan, "expression index");
        Oid type, coll;
        int32 typmod;
        get_atttypetypmodcoll(rte->relid, keys[i], &type, &typmod, &coll);
        coll_of[i] = coll;
        if (IsTextType(type) && !ByteOrderCollation(coll) && !RankCollation(coll))
            return Unsup(plan, "text index order under a non-C collation");
        extra[-1 - i] = (Expr *)makeVar(scanrelid, keys[i], type, typmod, coll, 0);
    }
    RNDN_ASSIGN_OR_RETURN(RelP rel, Scan(plan, scanrelid, quals, index_tlist, extra));
    std::vector<Op> kv;
    std::vector<bool> flags;
    const bool backward = ScanDirectionIsBackward(dir);
    for (int i = 0; i < nkeys; ++i) {
        RNDN_ASSIGN_OR_RETURN(Col c, rel->extras[-1 - i]->Get());
        if (!HirType(c.type, 0)) return Unsup(plan, "index key of type " + TypeName(c.type));
        bool desc = (options[i] & INDOPTION_DESC) != 0;
        const bool nulls_first = (options[i] & INDOPTION_NULLS_FIRST) != 0;
        if (nulls_first != desc) return Unsup(plan, "index with non-default NULLS order");
        if (backward) desc = !desc;
        if (c.scalar) continue;
        if (IsTextType(c.type) && !ByteOrderCollation(coll_of[i])) c.var = CollRank(c.var, *RankCollation(coll_of[i]));
        kv.push_back(c.var);
        flags.push_back(!desc);
    }
    for (int i = 0; i < nkeys; ++i) rel->extras.erase(-1 - i);
    if (kv.empty() || order_free) return rel;  // nobody downstream sees the order
    Op order = Emit(B::ORDER, {KeyList(kv), b_.Bools(flags)});
    return Take(rel, order, false, ConstLen(order));
}

// Aggregate of one input column; `group_vals` is the @values of the grouping dictionary, or
// null for a plain aggregate.
// string_agg(text, delimiter ORDER BY the value [DESC]) (varlena.c's string_agg_transfn and
// finalfn): the group's non-NULL values sorted bytewise (a C or POSIX collation) and joined by
// the constant delimiter (@str_agg).  Without ORDER BY PostgreSQL concatenates in its plan's
// input order, and with another sort key its sort leaves ties in an order of its own: both keep
// PostgreSQL's plan, as do bytea, DISTINCT and FILTER.
Expected<Col> Translator::StringAggCol(Aggref *a, Rel &in, const Op *group_vals, const Plan *node, const std::pair<Op, Op> *frame) {
    if (frame) return Unsup(node, "string_agg over a window frame");
    if (a->aggdistinct != NIL || a->aggfilter != nullptr) return Unsup(node, "string_agg with DISTINCT or FILTER");
    if (a->aggkind != AGGKIND_NORMAL || a->aggsplit != AGGSPLIT_SIMPLE) return Unsup(node, "non-simple aggregate");
    if (list_length(a->args) != 2) return Unsup(node, "string_agg arity");
    TargetEntry *vt = (TargetEntry *)linitial(a->args), *dt = (TargetEntry *)lsecond(a->args);
    if (exprType((Node *)vt->expr) != TEXTOID) return Unsup(node, "string_agg of " + TypeName(exprType((Node *)vt->expr)));
    if (a->aggorder == NIL) return Unsup(node, "string_agg without ORDER BY (PostgreSQL's plan's input order)");
    if (list_length(a->aggorder) != 1) return Unsup(node, "string_agg ORDER BY several keys");
    SortGroupClause *sc = (SortGroupClause *)linitial(a->aggorder);
    if (vt->ressortgroupref == 0 || sc->tleSortGroupRef != vt->ressortgroupref)
        return Unsup(node, "string_agg ORDER BY another expression than the value (ties in PostgreSQL's sort order)");
    const std::string sortfn = FuncName(get_opcode(sc->sortop));
    if (sortfn != "text_lt" && sortfn != "text_gt") return Unsup(node, "string_agg ORDER BY with operator " + sortfn);
    if (!ByteOrderCollation(exprCollation((Node *)vt->expr))) return Unsup(node, "string_agg ORDER BY under a non-C collation");
    if (!IsA(dt->expr, Const) || !IsTextType(((Const *)dt->expr)->consttype)) return Unsup(node, "string_agg with a non-constant delimiter");
    const Const *dc = (const Const *)dt->expr;
    std::string delim;
    if (!dc->constisnull) {  // a NULL delimiter joins with nothing
        char *c = TextDatumGetCString(dc->constvalue);
        delim = c;
        pfree(c);
    }
    Ctx ctx;
    ctx.node = node;
    ctx.outer = std::shared_ptr<Rel>(&in, [](Rel *) {});
    ctx.len_var = in.len_var;
    RNDN_ASSIGN_OR_RETURN(Col x, X(vt->expr, ctx));
    RNDN_ASSIGN_OR_RETURN(x, Materialize(x, in.len_var));
    const Op asc = b_.Bool(sortfn == "text_lt");
    const Op sep = b_.Str(delim);
    Col out;
    out.type = a->aggtype;
    if (group_vals) {
        Op parts = Emit(B::EACH_RIGHT, {Fn(B::INDEX), x.var, *group_vals});
        Op perms = Emit(B::EACH_LEFT, {Fn(B::ORDER), parts, asc});
        Op sorted = Emit(B::EACH_ITEM, {Fn(B::INDEX), parts, perms});
        out.var = Emit(B::RAZE, {Emit(B::EACH_LEFT, {Fn(B::STR_AGG), sorted, sep})});
    } else {
        out.var = Emit(B::STR_AGG, {Emit(B::INDEX, {x.var, Emit(B::ORDER, {x.var, asc})}), sep});
    }
    return out;
}

Expected<Col> Translator::AggCol(Aggref *a, Rel &in, const Op *group_vals, const Plan *node, const std::pair<Op, Op> *frame) {
    const bool grouped = group_vals != nullptr || frame != nullptr;
    // fn over each group's (or each row's frame's) values of v, one result per group (row)
    auto per_group = [&](B fn, const Op &v) -> Op {
        if (frame) return Emit(B::FRAME, {Fn(fn), v, frame->first, frame->second});
        return Emit(B::RAZE, {Emit(B::EACH, {Fn(fn), Emit(B::EACH_RIGHT, {Fn(B::INDEX), v, *group_vals})})});
    };
    const bool distinct = a->aggdistinct != NIL;
    if (FuncName(a->aggfnoid) == "string_agg") return StringAggCol(a, in, group_vals, node, frame);
    if (distinct && FuncName(a->aggfnoid) != "count") return Unsup(node, "aggregate with DISTINCT other than count");
    if (a->aggorder != NIL) return Unsup(node, "ordered aggregate");
    if (a->aggkind != AGGKIND_NORMAL || a->aggsplit != AGGSPLIT_SIMPLE) return Unsup(node, "non-simple aggregate");
    const std::string name = FuncName(a->aggfnoid);
    Col out;
    out.type = a->aggtype;
    if (a->aggstar && name != "count") return Unsup(node, name + "(*)");
    if (!a->aggstar && list_length(a->args) != 1) return Unsup(node, "aggregate with several arguments");
    Ctx ctx;
    ctx.node = node;
    ctx.outer = std::shared_ptr<Rel>(&in, [](Rel *) {});
    ctx.len_var = in.len_var;
    Col x;
    if (a->aggfilter != nullptr) {
        // FILTER (WHERE f): PostgreSQL evaluates f on every row and the argument only on the
        // rows where f is true (a division in the argument never sees the others).  The
        // argument is computed over those rows and put back at their positions in a vector of
        // NULLs, which every aggregate here skips (count(*) counts a marker put there).
        RNDN_ASSIGN_OR_RETURN(Col f, X(a->aggfilter, ctx));
        if (f.type != BOOLOID) return Unsup(node, "non-boolean aggregate FILTER");
        RNDN_ASSIGN_OR_RETURN(f, Materialize(f, in.len_var));
        RNDN_ASSIGN_OR_RETURN(Op lv, in.len_var());
        RNDN_ASSIGN_OR_RETURN(Op n, LenOf(lv));
        const Op mask = f.var;
        const Op rows = Emit(B::WHERE, {mask});
        Col xc;
        if (a->aggstar) {
            xc.type = BOOLOID;
            xc.var = b_.Bool(true);
        } else {
            LenFn flen = [this, mask, lv]() -> Expected<Op> { return Emit(B::COMPRESS, {mask, lv}); };
            Ctx fctx = ctx;
            fctx.outer = Take(ctx.outer, mask, true, flen);
            fctx.len_var = flen;
            RNDN_ASSIGN_OR_RETURN(xc, X(((TargetEntry *)linitial(a->args))->expr, fctx));
            RNDN_ASSIGN_OR_RETURN(xc, Materialize(xc, flen));
        }
        Col proto = xc;
        if (proto.type == NUMERICOID && proto.scale < 0) proto.scale = 0;  // per-element scales: index_a keeps each
        RNDN_ASSIGN_OR_RETURN(Op nl, NullLiteral(proto, node));
        x = xc;
        x.scalar = false;
        x.var = Emit(B::INDEX_A, {Emit(B::VECTOR, {n, nl}), rows, xc.var});
        if (a->aggstar) {  // count(*) FILTER: the markers that are not NULL
            out.var = grouped ? per_group(B::COUNT, x.var) : Emit(B::COUNT, {x.var});
            return out;
        }
    } else if (a->aggstar) {
        if (frame) {
            out.var = Emit(B::MINUS, {frame->second, frame->first});  // frames are clipped: end >= start
        } else if (group_vals) {
            out.var = Emit(B::RAZE, {Emit(B::EACH, {Fn(B::LEN), *group_vals})});
        } else {
            RNDN_ASSIGN_OR_RETURN(Op lv, in.len_var());
            out.var = Emit(B::LEN, {lv});
        }
        return out;
    } else {
        RNDN_ASSIGN_OR_RETURN(x, X(((TargetEntry *)linitial(a->args))->expr, ctx));
        RNDN_ASSIGN_OR_RETURN(x, Materialize(x, in.len_var));
    }
    const Oid at = x.type;
    B builtin = B::COUNT_;
    std::optional<hir::Type> cast;
    std::optional<std::string> rank_coll;  // min/max of text under a collation (RankCollation)
    int scale = x.scale;
    if (name == "count" && distinct) {
        if (frame) return Unsup(node, "count(DISTINCT) over a window frame");
        if (!HirType(at, at == NUMERICOID ? std::max(x.scale, 0) : 0)) return Unsup(node, "count(DISTINCT " + TypeName(at) + ")");
        if (group_vals) {
            out.var = Emit(B::GROUP_DISTINCT, {x.var, *group_vals});
        } else {
            out.var = Emit(B::COUNT, {Emit(B::INDEX, {x.var, Emit(B::UNIQUE, {x.var})})});
        }
        return out;
    } else if (name == "count") {
        builtin = B::COUNT;
    } else if ((name == "sum" || name == "avg") && at == INTERVALOID) {
        // issue 18: interval_pl over the values in order (sum), then interval_div by the count
        // (avg); NULL for a group (frame) without a value
        const B fn = name == "sum" ? B::INTERVAL_SUM : B::INTERVAL_AVG;
        out.var = grouped ? per_group(fn, x.var) : Emit(fn, {x.var});
        return out;
    } else if (name == "sum") {
        builtin = B::SUM;
        if (at == INT2OID || at == INT4OID) cast = hir::Type(hir::TypeKind::I64);
        else if (at == INT8OID) cast = Dec128(0), scale = 0;
        else if (at != NUMERICOID && at != FLOAT4OID && at != FLOAT8OID) return Unsup(node, "sum(" + TypeName(at) + ")");
    } else if (name == "avg") {
        builtin = B::AVG;
        if (IsIntType(at)) cast = Dec128(0);
        else if (at == FLOAT4OID) cast = hir::Type(hir::TypeKind::F64);
        else if (at != NUMERICOID && at != FLOAT8OID) return Unsup(node, "avg(" + TypeName(at) + ")");
        scale = -1;
    } else if (name == "min" || name == "max") {
        builtin = name == "min" ? B::MIN : B::MAX;
        // Text compares bytewise in the interpreter: under other collations, by their ranks.
        if (IsTextType(at) && !ByteOrderCollation(a->inputcollid)) {
            rank_coll = RankCollation(a->inputcollid);
            if (!rank_coll) return Unsup(node, name + "(" + TypeName(at) + ") under a non-C collation");
        }
        if (!IsIntType(at) && at != NUMERICOID && at != FLOAT4OID && at != FLOAT8OID && at != DATEOID &&
            at != TIMESTAMPOID && at != TIMESTAMPTZOID && at != INTERVALOID && !IsTextType(at))
            return Unsup(node, name + "(" + TypeName(at) + ")");
    } else if (name == "var_pop" || name == "var_samp" || name == "variance" || name == "stddev_pop" ||
               name == "stddev_samp" || name == "stddev") {
        // float inputs: float8 from PostgreSQL's Youngs-Cramer sums (@float_var); integer and
        // numeric inputs: numeric from exact sums and PostgreSQL's numeric final step
        // (@num_var), its display scale per value
        const bool exact = IsIntType(at) || at == NUMERICOID;
        if (at != FLOAT4OID && at != FLOAT8OID && !exact) return Unsup(node, name + "(" + TypeName(at) + ")");
        const int64_t kind = (name.rfind("stddev", 0) == 0 ? 2 : 0) + (name.find("_pop") == std::string::npos ? 1 : 0);
        const B fn = exact ? B::NUM_VAR : B::FLOAT_VAR;
        if (exact) out.scale = -1;
        if (frame) {  // per row over its frame, in PostgreSQL's order of accumulation
            out.var = Emit(B::FRAME_VAR, {x.var, b_.I64(kind), frame->first, frame->second});
        } else if (group_vals) {
            Op parts = Emit(B::EACH_RIGHT, {Fn(B::INDEX), x.var, *group_vals});
            out.var = Emit(B::RAZE, {Emit(B::EACH_LEFT, {Fn(fn), parts, b_.I64(kind)})});
        } else {
            out.var = Emit(fn, {x.var, b_.I64(kind)});  // NULL itself for too few values
        }
        return out;
    } else if (name == "bool_and" || name == "every" || name == "bool_or") {
        // NULLs skipped; no value left gives NULL (below: the plain and the grouped case)
        if (at != BOOLOID) return Unsup(node, name + "(" + TypeName(at) + ")");
        builtin = name == "bool_or" ? B::ANY : B::ALL;
    } else {
        return Unsup(node, "aggregate " + name);
    }
    // numeric of per-element scale (a division, a CASE over different scales): sum and avg
    // take the largest display scale of each group's values, min and max the chosen value's
    Op xv = x.var;
    if (cast) xv = EmitCast(xv, *cast);
    out.scale = a->aggtype == NUMERICOID ? scale : -1;
    if (rank_coll) {
        // the extreme rank, then the first row that holds it (a NULL rank, or none: the NULL
        // appended after the rows)
        Op r = CollRank(xv, *rank_coll);
        Op m = grouped ? per_group(builtin, r) : Emit(builtin, {r});
        RNDN_ASSIGN_OR_RETURN(Op nl, NullLiteral(out, node));
        Op v = Emit(B::INDEX, {Emit(B::APPEND, {xv, nl}), Emit(B::INDEX_OF, {m, r})});
        out.var = v;
        if (grouped) return out;
        Op cnt = Emit(B::COUNT, {xv});
        Op none = Emit(B::WHERE, {Emit(B::EQ, {cnt, b_.I64(0)})});
        out.var = Emit(B::INDEX_A, {v, none, nl});
        return out;
    }
    if (grouped) {
        out.var = per_group(builtin, xv);
        if (builtin == B::ANY || builtin == B::ALL) {
            // @any/@all of a group without a value are false/true; SQL wants NULL
            Op cnt = per_group(B::COUNT, xv);
            Op none = Emit(B::WHERE, {Emit(B::EQ, {cnt, b_.I64(0)})});
            out.var = Emit(B::INDEX_A, {out.var, none, b_.Null(hir::TypeKind::BOOL)});
        }
        return out;
    }
    Op v = Emit(builtin, {xv});
    if (builtin == B::COUNT || builtin == B::AVG) {  // avg of no rows is NULL already
        out.var = v;
        return out;
    }
    // No input row (or only NULLs): SQL gives NULL.
    Op cnt = Emit(B::COUNT, {xv});
    Op none = Emit(B::WHERE, {Emit(B::EQ, {cnt, b_.I64(0)})});
    Col proto = out;
    if (proto.type == NUMERICOID && proto.scale < 0) proto.scale = 0;  // a NULL shows no scale
    RNDN_ASSIGN_OR_RETURN(Op nl, NullLiteral(proto, node));
    out.var = Emit(B::INDEX_A, {v, none, nl});
    return out;
}

bool CollectGroupingFuncs(Node *n, void *ctx) {
    if (n == nullptr) return false;
    if (IsA(n, GroupingFunc)) {
        ((std::vector<GroupingFunc *> *)ctx)->push_back((GroupingFunc *)n);
        return false;
    }
    if (IsA(n, Aggref)) return false;
    return expression_tree_walker(n, (bool (*)(void))(void *)CollectGroupingFuncs, ctx);
}

bool CollectAggrefs(Node *n, void *ctx) {
    if (n == nullptr) return false;
    if (IsA(n, Aggref)) {
        ((std::vector<Aggref *> *)ctx)->push_back((Aggref *)n);
        return false;
    }
    return expression_tree_walker(n, (bool (*)(void))(void *)CollectAggrefs, ctx);
}

// The expression a target-list entry of `p` computes, through the Vars that only pass a
// child's column on (a Sort's, a join's OUTER_VAR/INNER_VAR).
Node *OriginOf(Plan *p, Node *e) {
    for (int depth = 0; depth < 64 && p != nullptr && e != nullptr && IsA(e, Var); ++depth) {
        Var *v = (Var *)e;
        Plan *child = v->varno == OUTER_VAR ? p->lefttree : v->varno == INNER_VAR ? p->righttree : nullptr;
        if (child == nullptr || v->varattno < 1 || v->varattno > list_length(child->targetlist)) break;
        e = (Node *)((TargetEntry *)list_nth(child->targetlist, v->varattno - 1))->expr;
        p = child;
    }
    return e;
}

// EXTRACT of a whole-number field (numeric of scale 0 always, so equal values print alike):
// every field of a date; of a timestamp, the fields without a fraction.
bool IntegralExtract(Node *e) {
    while (e != nullptr && IsA(e, RelabelType)) e = (Node *)((RelabelType *)e)->arg;
    if (e == nullptr || !IsA(e, FuncExpr) || list_length(((FuncExpr *)e)->args) != 2) return false;
    FuncExpr *f = (FuncExpr *)e;
    if (f->funcid == F_EXTRACT_TEXT_DATE) return true;
    if (f->funcid != F_EXTRACT_TEXT_TIMESTAMP && f->funcid != F_EXTRACT_TEXT_TIMESTAMPTZ) return false;
    Node *field = (Node *)linitial(f->args);
    if (!IsA(field, Const) || ((Const *)field)->constisnull || ((Const *)field)->consttype != TEXTOID) return false;
    char *s = TextDatumGetCString(((Const *)field)->constvalue);
    std::string name(s);
    pfree(s);
    for (char &c : name) c = (char)std::tolower((unsigned char)c);
    static const std::set<std::string> whole = {"year", "month", "day", "hour", "minute", "quarter", "week", "dow", "doy",
                                                "isoyear", "isodow", "decade", "century", "millennium"};
    return whole.count(name) > 0;
}

// Whether an aggregate node's result cannot depend on the order of its input rows: every
// aggregate is count, an exact sum or avg (integers, numeric), min or max of a type whose equal
// values are identical (no float: -0 = 0; numeric only of a declared scale: 1.0 = 1.00), or a
// boolean and/or, none ordered or (but count) DISTINCT; and every grouping column is of such a
// type, so that a group's key is the same whichever of its rows comes first.
bool OrderInsensitiveAgg(Agg *agg) {
    Plan *plan = &agg->plan;
    auto identical_when_equal = [](Oid t, int32 typmod) {
        switch (t) {
            case INT2OID: case INT4OID: case INT8OID: case BOOLOID: case DATEOID: case TIMESTAMPOID: case TIMESTAMPTZOID:
            case TIMEOID: case TEXTOID: case VARCHAROID: case BPCHAROID: case CHAROID: return true;
            case NUMERICOID: return typmod >= (int32)VARHDRSZ;
            default: return false;
        }
    };
    if (plan->lefttree == nullptr) return false;
    for (int i = 0; i < agg->numCols; ++i) {
        const AttrNumber k = agg->grpColIdx[i];
        if (k < 1 || k > list_length(plan->lefttree->targetlist)) return false;
        Node *e = (Node *)((TargetEntry *)list_nth(plan->lefttree->targetlist, k - 1))->expr;
        if (!identical_when_equal(exprType(e), exprTypmod(e)) && !IntegralExtract(OriginOf(plan->lefttree, e))) return false;
    }
    std::vector<Aggref *> aggrefs;
    CollectAggrefs((Node *)plan->targetlist, &aggrefs);
    CollectAggrefs((Node *)plan->qual, &aggrefs);
    for (Aggref *a : aggrefs) {
        if (a->aggorder != NIL || a->aggkind != AGGKIND_NORMAL) return false;
        const std::string name = FuncName(a->aggfnoid);
        if (name == "count") continue;
        if (a->aggdistinct != NIL || a->aggstar || list_length(a->args) != 1) return false;
        Node *arg = (Node *)((TargetEntry *)linitial(a->args))->expr;
        const Oid t = exprType(arg);
        if (name == "sum" || name == "avg") {
            if (t != INT2OID && t != INT4OID && t != INT8OID && t != NUMERICOID) return false;
        } else if (name == "min" || name == "max") {
            if (!identical_when_equal(t, exprTypmod(arg))) return false;
        } else if (name != "bool_and" && name != "bool_or" && name != "every") {
            return false;
        }
    }
    return true;
}

// Is the expression NULL whenever its aggregates are (only strict operators over them)?
bool StrictTlist(Node *n) {
    if (n == nullptr) return false;
    if (IsA(n, Aggref)) return true;
    if (IsA(n, RelabelType)) return StrictTlist((Node *)((RelabelType *)n)->arg);
    List *args = nullptr;
    Oid fn = InvalidOid;
    if (IsA(n, OpExpr)) args = ((OpExpr *)n)->args, fn = ((OpExpr *)n)->opfuncid ? ((OpExpr *)n)->opfuncid : get_opcode(((OpExpr *)n)->opno);
    else if (IsA(n, FuncExpr)) args = ((FuncExpr *)n)->args, fn = ((FuncExpr *)n)->funcid;
    else return false;
    const FnRow *row = LookupFunction(fn);
    if (row == nullptr || !(row->kind == FnKind::BINARY || row->kind == FnKind::UNARY || row->kind == FnKind::CAST)) return false;
    bool any = false;
    ListCell *lc;
    foreach (lc, args) {
        Node *a = (Node *)lfirst(lc);
        if (IsA(a, Const)) continue;
        if (!StrictTlist(a)) return false;
        any = true;
    }
    return any;
}

Expected<Translator::RelP> Translator::AggNode(Agg *agg, RelP in, const std::vector<int> &extra_keys) {
    Plan *plan = &agg->plan;
    for (const auto &[key, c] : in->extras)
        if (key >= 0 && std::find(extra_keys.begin(), extra_keys.end(), key) == extra_keys.end())
            return Unsup(plan, "aggregate over a correlated input");
    if (!extra_keys.empty() && agg->numCols != 0) return Unsup(plan, "correlated grouped aggregate");
    if (!in->deferred.empty()) return Unsup(plan, "aggregate over a correlated condition");
    if (agg->aggsplit != AGGSPLIT_SIMPLE) return Unsup(plan, "partial aggregation");
    if (agg->groupingSets != NIL || agg->aggstrategy == AGG_MIXED) {
        if (!extra_keys.empty()) return Unsup(plan, "correlated grouping sets");
        return GroupingSetsNode(agg, in);
    }
    std::vector<Aggref *> aggrefs;
    CollectAggrefs((Node *)plan->targetlist, &aggrefs);
    CollectAggrefs((Node *)plan->qual, &aggrefs);
    auto aggs = std::make_shared<std::map<const Aggref *, LazyPtr>>();
    Ctx ctx;
    ctx.node = plan;
    if (agg->numCols == 0 && extra_keys.empty()) {
        if (agg->aggstrategy != AGG_PLAIN) return Unsup(plan, "grouping without keys");
        for (Aggref *a : aggrefs) {
            RNDN_ASSIGN_OR_RETURN(Col c, AggCol(a, *in, nullptr, plan));
            auto lc = std::make_shared<LazyCol>([c]() -> Expected<Col> { return c; });
            (*aggs)[a] = lc;
        }
        // One output row: a length-1 vector stands for the row count.
        Op one = Emit(B::VECTOR, {b_.I64(1), b_.Bool(false)});
        ctx.len_var = ConstLen(one);
        ctx.aggs = aggs;
        auto keep = aggs;
        RNDN_ASSIGN_OR_RETURN(RelP out, FilterAndProject(plan, ctx, plan->qual));
        // Keep the aggregate map alive with the output relation.
        auto wrapped = std::make_shared<Rel>();
        wrapped->len_var = out->len_var;
        for (auto &c : out->cols) wrapped->cols.push_back(std::make_shared<LazyCol>([c, keep]() { return c->Get(); }));
        return wrapped;
    }
    std::vector<Op> keys;
    for (int k : extra_keys) {
        RNDN_ASSIGN_OR_RETURN(Col c, in->extras[k]->Get());
        RNDN_ASSIGN_OR_RETURN(c, Materialize(c, in->len_var));
        keys.push_back(c.var);
    }
    for (int i = 0; i < agg->numCols; ++i) {
        const AttrNumber k = agg->grpColIdx[i];
        if (k < 1 || k > (int)in->cols.size()) return Unsup(plan, "grouping column out of range");
        RNDN_ASSIGN_OR_RETURN(Col c, in->cols[k - 1]->Get());
        RNDN_ASSIGN_OR_RETURN(c, Materialize(c, in->len_var));
        keys.push_back(c.var);
    }
    Op g = Emit(B::GROUP, {KeyList(keys)});
    Op reps = Emit(B::KEYS, {g});
    Op vals = Emit(B::VALUES, {g});
    // Groups in order of first appearance: PostgreSQL's order for sorted input (AGG_SORTED,
    // Group); any order is PostgreSQL's for hashed aggregation.
    Op perm = Emit(B::ORDER, {reps, b_.Bool(true)});
    Op reps_sorted = Emit(B::INDEX, {reps, perm});
    for (Aggref *a : aggrefs) {
        RNDN_ASSIGN_OR_RETURN(Col c, AggCol(a, *in, &vals, plan));
        c.var = Emit(B::INDEX, {c.var, perm});
        (*aggs)[a] = std::make_shared<LazyCol>([c]() -> Expected<Col> { return c; });
    }
    ctx.outer = Take(in, reps_sorted, false, ConstLen(reps_sorted));
    ctx.len_var = ConstLen(reps_sorted);
    ctx.aggs = aggs;
    RNDN_ASSIGN_OR_RETURN(RelP out, FilterAndProject(plan, ctx, plan->qual));
    auto wrapped = std::make_shared<Rel>();
    wrapped->len_var = out->len_var;
    for (auto &c : out->cols) wrapped->cols.push_back(std::make_shared<LazyCol>([c, aggs]() { return c->Get(); }));
    wrapped->extras = out->extras;
    return wrapped;
}

// GROUPING SETS / ROLLUP / CUBE (nodeAgg.c): the Agg node and the Agg nodes of its chain each
// hold grouping sets; a set of length L of a node groups on the first L of that node's columns
// (a hashed chain node has one set of all its columns).  Every set is aggregated on its own,
// the grouped columns it does not group on read as NULL, GROUPING(c...) is the bit mask of the
// arguments not grouped (first argument highest), and the set () gives one row even for no
// input.  The sets' rows are concatenated; a single sorted rollup (no chain) emits each group
// when its last input row is read, finer sets before coarser ones at the same row: that order
// is reproduced (the planner may use it for ORDER BY), other strategies have no order.
Expected<Translator::RelP> Translator::GroupingSetsNode(Agg *agg, RelP in) {
    Plan *plan = &agg->plan;
    std::vector<std::vector<AttrNumber>> sets;
    std::vector<Agg *> nodes = {agg};
    ListCell *lc;
    foreach (lc, agg->chain) nodes.push_back((Agg *)lfirst(lc));
    for (Agg *n : nodes) {
        if (n->groupingSets == NIL) return Unsup(plan, "grouping-set chain node without sets");
        ListCell *sc;
        foreach (sc, n->groupingSets) {
            const int len = list_length((List *)lfirst(sc));
            if (len > n->numCols) return Unsup(plan, "grouping set longer than its node's columns");
            sets.emplace_back(n->grpColIdx, n->grpColIdx + len);
        }
    }
    const bool ordered = agg->aggstrategy == AGG_SORTED && agg->chain == NIL;
    std::set<AttrNumber> all_grouped;
    for (const auto &s : sets)
        for (AttrNumber k : s) {
            if (k < 1 || k > (int)in->cols.size()) return Unsup(plan, "grouping column out of range");
            all_grouped.insert(k);
        }
    std::vector<Aggref *> aggrefs;
    CollectAggrefs((Node *)plan->targetlist, &aggrefs);
    CollectAggrefs((Node *)plan->qual, &aggrefs);
    std::vector<GroupingFunc *> gfuncs;
    CollectGroupingFuncs((Node *)plan->targetlist, &gfuncs);
    CollectGroupingFuncs((Node *)plan->qual, &gfuncs);
    // Per set: the columns of `in` (grouped or NULL), the aggregates, the GROUPING() values,
    // and the ordering keys (last input row, set number).
    std::map<AttrNumber, std::vector<Op>> col_parts;
    std::map<AttrNumber, Col> col_proto;
    std::vector<std::vector<Op>> agg_parts(aggrefs.size()), gf_parts(gfuncs.size());
    std::vector<Col> agg_proto(aggrefs.size());
    std::vector<Op> last_parts, set_parts, len_parts;
    for (AttrNumber k : all_grouped) {
        RNDN_ASSIGN_OR_RETURN(Col c, in->cols[k - 1]->Get());
        RNDN_ASSIGN_OR_RETURN(c, Materialize(c, in->len_var));
        if (c.type == NUMERICOID && c.scale < 0) return Unsup(plan, "grouping-set key of per-value numeric scale");
        col_proto[k] = c;
    }
    RNDN_ASSIGN_OR_RETURN(Op lv_in, in->len_var());
    RNDN_ASSIGN_OR_RETURN(Op n_in, LenOf(lv_in));
    for (size_t si = 0; si < sets.size(); ++si) {
        const auto &set = sets[si];
        const std::set<AttrNumber> grouped(set.begin(), set.end());
        Op len;  // a vector of the set's row count
        Op reps, vals, perm;
        if (set.empty()) {
            len = Emit(B::VECTOR, {b_.I64(1), b_.Bool(false)});
            if (ordered) last_parts.push_back(Emit(B::VECTOR, {b_.I64(1), n_in}));
        } else {
            std::vector<Op> keys;
            for (AttrNumber k : set) keys.push_back(col_proto[k].var);
            Op g = Emit(B::GROUP, {KeyList(keys)});
            Op reps0 = Emit(B::KEYS, {g});
            vals = Emit(B::VALUES, {g});
            perm = Emit(B::ORDER, {reps0, b_.Bool(true)});
            reps = Emit(B::INDEX, {reps0, perm});
            len = reps;
            if (ordered) last_parts.push_back(Emit(B::INDEX, {Emit(B::RAZE, {Emit(B::EACH, {Fn(B::MAX), vals})}), perm}));
        }
        RNDN_ASSIGN_OR_RETURN(Op n_set, LenOf(len));
        len_parts.push_back(Emit(B::VECTOR, {n_set, b_.Bool(false)}));
        if (ordered) set_parts.push_back(Emit(B::VECTOR, {n_set, b_.I64((int64_t)si)}));
        for (AttrNumber k : all_grouped) {
            const Col &c = col_proto[k];
            if (grouped.count(k)) {
                col_parts[k].push_back(Emit(B::INDEX, {c.var, reps}));
            } else {
                RNDN_ASSIGN_OR_RETURN(Op nl, NullLiteral(c, plan));
                col_parts[k].push_back(Emit(B::VECTOR, {n_set, nl}));
            }
        }
        for (size_t ai = 0; ai < aggrefs.size(); ++ai) {
            RNDN_ASSIGN_OR_RETURN(Col c, AggCol(aggrefs[ai], *in, set.empty() ? nullptr : &vals, plan));
            if (set.empty()) {
                RNDN_ASSIGN_OR_RETURN(c, Materialize(c, ConstLen(len)));
            } else {
                c.var = Emit(B::INDEX, {c.var, perm});
            }
            if (si > 0 && (c.type != agg_proto[ai].type || c.scale != agg_proto[ai].scale))
                return Unsup(plan, "aggregate of different types across grouping sets");
            agg_proto[ai] = c;
            agg_parts[ai].push_back(c.var);
        }
        for (size_t gi = 0; gi < gfuncs.size(); ++gi) {
            int32 mask = 0;
            ListCell *cc;
            foreach (cc, gfuncs[gi]->cols) {
                mask <<= 1;
                if (!grouped.count((AttrNumber)lfirst_int(cc))) mask |= 1;
            }
            gf_parts[gi].push_back(Emit(B::VECTOR, {n_set, b_.I32(mask)}));
        }
    }
    auto cat = [this](const std::vector<Op> &parts) { return parts.size() == 1 ? parts[0] : Emit(B::RAZE, {Emit(B::LIST, parts)}); };
    std::optional<Op> order;
    if (ordered) order = Emit(B::ORDER, {Emit(B::LIST, {cat(last_parts), cat(set_parts)}), b_.Bools({true, true})});
    auto placed = [this, order](Op v) { return order ? Emit(B::INDEX, {v, *order}) : v; };
    auto rel = std::make_shared<Rel>();
    for (int k = 1; k <= (int)in->cols.size(); ++k) {
        if (!all_grouped.count(k)) {
            rel->cols.push_back(std::make_shared<LazyCol>([this, plan]() -> Expected<Col> {
                return Unsup(plan, "column outside the grouping sets");
            }));
            continue;
        }
        Col c = col_proto[k];
        c.var = placed(cat(col_parts[k]));
        rel->cols.push_back(std::make_shared<LazyCol>([c]() -> Expected<Col> { return c; }));
    }
    auto aggs = std::make_shared<std::map<const Aggref *, LazyPtr>>();
    for (size_t ai = 0; ai < aggrefs.size(); ++ai) {
        Col c = agg_proto[ai];
        c.scalar = false;
        c.var = placed(cat(agg_parts[ai]));
        (*aggs)[aggrefs[ai]] = std::make_shared<LazyCol>([c]() -> Expected<Col> { return c; });
    }
    auto groupings = std::make_shared<std::map<const GroupingFunc *, LazyPtr>>();
    for (size_t gi = 0; gi < gfuncs.size(); ++gi) {
        Col c;
        c.type = INT4OID;
        c.var = placed(cat(gf_parts[gi]));
        (*groupings)[gfuncs[gi]] = std::make_shared<LazyCol>([c]() -> Expected<Col> { return c; });
    }
    Op rows = placed(cat(len_parts));  // one element per output row
    rel->len_var = ConstLen(rows);
    Ctx ctx;
    ctx.node = plan;
    ctx.outer = rel;
    ctx.aggs = aggs;
    ctx.groupings = groupings;
    ctx.len_var = rel->len_var;
    RNDN_ASSIGN_OR_RETURN(RelP out, FilterAndProject(plan, ctx, plan->qual));
    auto wrapped = std::make_shared<Rel>();
    wrapped->len_var = out->len_var;
    for (auto &c : out->cols) wrapped->cols.push_back(std::make_shared<LazyCol>([c, aggs, groupings]() { return c->Get(); }));
    return wrapped;
}

namespace {
bool CollectWindowFuncs(Node *n, void *ctx) {
    if (n == nullptr) return false;
    if (IsA(n, WindowFunc)) {
        ((std::vector<WindowFunc *> *)ctx)->push_back((WindowFunc *)n);
        return false;
    }
    return expression_tree_walker(n, (bool (*)(void))(void *)CollectWindowFuncs, ctx);
}
}  // namespace

// WindowAgg (nodeWindowAgg.c) over its input sorted by the partition and ORDER BY keys:
// row_number, rank, dense_rank, lag, lead, first_value, last_value, nth_value, and the plain
// aggregates over a whole partition (@each over its rows) or over each row's frame (@frame):
// ROWS frames and RANGE frames without offsets (GROUPS, EXCLUDE and RANGE offsets stay with
// PostgreSQL).  The rows stay in
// input order.  Partitions and peer groups are contiguous runs of that order: a row's position
// in its @group cell is its position in the run.
Expected<Translator::RelP> Translator::WindowAggNode(WindowAgg *wa, RelP in) {
    Plan *plan = &wa->plan;
    if (!in->extras.empty() || !in->deferred.empty()) return Unsup(plan, "window over a correlated input");
    if (wa->runCondition != NIL || plan->qual != NIL) return Unsup(plan, "window run condition");
    const int opts = wa->frameOptions;
    // The plain aggregates run over the whole partition: a frame from UNBOUNDED PRECEDING to
    // UNBOUNDED FOLLOWING, or to the current row and its peers without ORDER BY (all peers).
    const bool whole_partition = (opts & FRAMEOPTION_START_UNBOUNDED_PRECEDING) && !(opts & FRAMEOPTION_EXCLUSION) &&
                                 ((opts & FRAMEOPTION_END_UNBOUNDED_FOLLOWING) ||
                                  ((opts & FRAMEOPTION_END_CURRENT_ROW) && !(opts & FRAMEOPTION_ROWS) && wa->ordNumCols == 0));
    std::vector<WindowFunc *> wfs;
    CollectWindowFuncs((Node *)plan->targetlist, &wfs);
    CollectWindowFuncs((Node *)plan->qual, &wfs);
    RNDN_ASSIGN_OR_RETURN(Op lv, in->len_var());
    RNDN_ASSIGN_OR_RETURN(Op n, LenOf(lv));
    auto keys_of = [&](int nk, AttrNumber *idx, std::vector<Op> &out) -> Status {
        for (int i = 0; i < nk; ++i) {
            if (idx[i] < 1 || idx[i] > (int)in->cols.size()) return Unsup(plan, "window column out of range");
            RNDN_ASSIGN_OR_RETURN(Col c, in->cols[idx[i] - 1]->Get());
            if (!c.scalar) out.push_back(c.var);
        }
        return Status::Ok();
    };
    std::vector<Op> part_keys, peer_keys;
    RNDN_RETURN_IF_ERROR(keys_of(wa->partNumCols, wa->partColIdx, part_keys));
    peer_keys = part_keys;
    RNDN_RETURN_IF_ERROR(keys_of(wa->ordNumCols, wa->ordColIdx, peer_keys));
    const Op zeros = Emit(B::VECTOR, {n, b_.I64(0)});
    // Runs of equal keys: per run its index list (@values of @group, each ascending), per row
    // its run's number and its position in the run.
    struct Runs {
        Op vals, row_run, row_pos, first;  // first: per run its first row
    };
    auto runs_of = [&](const std::vector<Op> &keys) -> Runs {
        Runs r;
        Op g = Emit(B::GROUP, {keys.empty() ? zeros : KeyList(keys)});
        r.vals = Emit(B::VALUES, {g});
        Op pos = Emit(B::RAZE, {r.vals});
        Op lens = Emit(B::RAZE, {Emit(B::EACH, {Fn(B::LEN), r.vals})});
        Op ids = Emit(B::RANGE, {Emit(B::LEN, {lens})});
        Op lens_l = Emit(B::TOLIST, {lens});
        r.row_run = Emit(B::INDEX_A, {zeros, pos, Emit(B::RAZE, {Emit(B::EACH_ITEM, {Fn(B::VECTOR), lens_l, Emit(B::TOLIST, {ids})})})});
        r.row_pos = Emit(B::INDEX_A, {zeros, pos, Emit(B::RAZE, {Emit(B::EACH, {Fn(B::RANGE), lens_l})})});
        r.first = Emit(B::RAZE, {Emit(B::EACH, {Fn(B::MIN), r.vals})});
        return r;
    };
    std::optional<Runs> part, peer;
    auto get_part = [&]() -> const Runs & {
        if (!part) part = runs_of(part_keys);
        return *part;
    };
    auto get_peer = [&]() -> const Runs & {
        if (!peer) peer = runs_of(peer_keys);
        return *peer;
    };
    // Per row: its number, its partition's rows [pstart, pend) and its peers' [peer_start, peer_end).
    std::optional<Op> rowid, pstart, pend, peer_start, peer_end;
    // (@run_bounds: no list of runs, which costs an allocation per run)
    auto run_bound = [&](const std::vector<Op> &keys, bool end) -> Op {
        if (keys.empty()) return end ? Emit(B::VECTOR, {n, n}) : zeros;
        return Emit(B::RUN_BOUNDS, {KeyList(keys), b_.Bool(end)});
    };
    auto bounds = [&]() {
        if (rowid) return;
        rowid = Emit(B::RANGE, {n});
        pstart = run_bound(part_keys, false);
        pend = run_bound(part_keys, true);
    };
    auto peer_bounds = [&]() {
        if (peer_start) return;
        peer_start = run_bound(peer_keys, false);
        peer_end = run_bound(peer_keys, true);
    };
    // A frame offset: a constant, not NULL, not negative (PostgreSQL raises for the others:
    // its plan stays).  Offsets past any partition are cut to 2^61 (no overflow in row + offset).
    auto frame_offset = [&](Node *off, int64_t *v) -> Status {
        if (off == nullptr || !IsA(off, Const) || ((Const *)off)->consttype != INT8OID || ((Const *)off)->constisnull)
            return Unsup(plan, "window frame offset that is not a constant bigint");
        *v = DatumGetInt64(((Const *)off)->constvalue);
        if (*v < 0) return Unsup(plan, "negative window frame offset");
        *v = std::min<int64_t>(*v, int64_t(1) << 61);
        return Status::Ok();
    };
    // The frame of every row, [start, end) clipped to its partition (end >= start); nodeWindowAgg.c's
    // update_frameheadpos/update_frametailpos for ROWS frames and RANGE frames without offsets.
    std::optional<std::pair<Op, Op>> frame;
    auto get_frame = [&]() -> Expected<std::pair<Op, Op>> {
        if (frame) return *frame;
        if (opts & FRAMEOPTION_GROUPS) return Unsup(plan, "GROUPS window frame");
        if (opts & FRAMEOPTION_EXCLUSION) return Unsup(plan, "window frame with EXCLUDE");
        const bool rows = opts & FRAMEOPTION_ROWS;
        if (!rows && (opts & (FRAMEOPTION_START_OFFSET | FRAMEOPTION_END_OFFSET)))
            return Unsup(plan, "RANGE window frame with an offset");
        bounds();
        if (!rows) peer_bounds();
        Op s, e;
        int64_t off = 0;
        if (opts & FRAMEOPTION_START_UNBOUNDED_PRECEDING) {
            s = *pstart;
        } else if (opts & FRAMEOPTION_START_CURRENT_ROW) {
            s = rows ? *rowid : *peer_start;
        } else if (opts & (FRAMEOPTION_START_OFFSET_PRECEDING | FRAMEOPTION_START_OFFSET_FOLLOWING)) {
            RNDN_RETURN_IF_ERROR(frame_offset(wa->startOffset, &off));
            s = Emit((opts & FRAMEOPTION_START_OFFSET_PRECEDING) ? B::MINUS : B::PLUS, {*rowid, b_.I64(off)});
        } else {
            return Unsup(plan, "window frame start");
        }
        if (opts & FRAMEOPTION_END_UNBOUNDED_FOLLOWING) {
            e = *pend;
        } else if (opts & FRAMEOPTION_END_CURRENT_ROW) {
            e = rows ? Emit(B::PLUS, {*rowid, b_.I64(1)}) : *peer_end;
        } else if (opts & (FRAMEOPTION_END_OFFSET_PRECEDING | FRAMEOPTION_END_OFFSET_FOLLOWING)) {
            RNDN_RETURN_IF_ERROR(frame_offset(wa->endOffset, &off));
            e = Emit(B::PLUS, {*rowid, b_.I64((opts & FRAMEOPTION_END_OFFSET_PRECEDING) ? 1 - off : off + 1)});
        } else {
            return Unsup(plan, "window frame end");
        }
        s = Emit(B::CLIP, {s, *pstart, *pend});
        e = Emit(B::CLIP, {e, s, *pend});
        frame = std::make_pair(s, e);
        return *frame;
    };
    Ctx arg_ctx;
    arg_ctx.node = plan;
    arg_ctx.outer = in;
    arg_ctx.len_var = in->len_var;
    auto int_const = [](Node *e, int64_t *v) {
        if (e == nullptr || !IsA(e, Const) || ((Const *)e)->constisnull || ((Const *)e)->consttype != INT4OID) return false;
        *v = DatumGetInt32(((Const *)e)->constvalue);
        return true;
    };
    // x at row idx where ok (a bool vector) holds; elsewhere `other` (a Col, or NULL)
    auto pick = [&](const Col &x, const Op &idx, const Op &ok, const Col *other, Col &out) -> Status {
        RNDN_ASSIGN_OR_RETURN(Col xv, Materialize(x, in->len_var));
        Op v = Emit(B::INDEX, {xv.var, idx});
        Op miss = Emit(B::WHERE, {Emit(B::NOT, {ok})});
        Op fill;
        if (other != nullptr) {
            fill = other->scalar ? other->var : Emit(B::INDEX, {other->var, miss});
            out.scale = other->scale == x.scale ? x.scale : -1;
        } else {
            Col proto = x;
            proto.scalar = false;
            if (proto.type == NUMERICOID && proto.scale < 0) proto.scale = 0;
            RNDN_ASSIGN_OR_RETURN(fill, NullLiteral(proto, plan));
            out.scale = x.scale;
        }
        out.var = Emit(B::INDEX_A, {v, miss, fill});
        return Status::Ok();
    };
    auto funcs = std::make_shared<std::map<const WindowFunc *, LazyPtr>>();
    for (WindowFunc *wf : wfs) {
        if (wf->winref != wa->winref) return Unsup(plan, "window function of another window");
        const std::string name = FuncName(wf->winfnoid);
        Col out;
        out.type = wf->wintype;
        if (!wf->winagg) {
            if (wf->aggfilter != nullptr) return Unsup(plan, "window function with FILTER");
            if (name == "row_number") {
                bounds();
                out.var = Emit(B::PLUS, {Emit(B::MINUS, {*rowid, *pstart}), b_.I64(1)});
            } else if (name == "rank") {
                bounds();
                peer_bounds();
                out.var = Emit(B::PLUS, {Emit(B::MINUS, {*peer_start, *pstart}), b_.I64(1)});
            } else if (name == "dense_rank") {
                const Runs &pr = get_part();
                const Runs &pe = get_peer();
                Op peer_first = Emit(B::INDEX, {pe.first, pe.row_run});  // per row, its peer run's first row
                // the peer runs in row order, numbered within their partition
                Op firsts = Emit(B::INDEX, {pe.first, Emit(B::ORDER, {pe.first, b_.Bool(true)})});
                Op firsts_part = Emit(B::INDEX, {pr.row_run, firsts});
                Op g2 = Emit(B::GROUP, {firsts_part});
                Op vals2 = Emit(B::VALUES, {g2});
                Op pos2 = Emit(B::RAZE, {vals2});
                Op lens2 = Emit(B::TOLIST, {Emit(B::RAZE, {Emit(B::EACH, {Fn(B::LEN), vals2})})});
                Op zeros2 = Emit(B::VECTOR, {Emit(B::LEN, {firsts}), b_.I64(0)});
                Op dense = Emit(B::INDEX_A, {zeros2, pos2, Emit(B::RAZE, {Emit(B::EACH, {Fn(B::RANGE), lens2})})});
                Op at = Emit(B::INDEX_OF, {peer_first, firsts});
                out.var = Emit(B::PLUS, {Emit(B::INDEX, {dense, at}), b_.I64(1)});
            } else if (name == "lag" || name == "lead") {
                // the row `offset` rows before (lag) or after (lead) in the partition, else the
                // default (NULL without one); nodeWindowAgg.c's window_lag_common: the offset is
                // read at the current row (NULL gives NULL, a negative one looks the other way),
                // the value at the row it names, the default at the current row.  An expression
                // is computed as a column over every row first: an error at a row PostgreSQL
                // never reads makes the executor run PostgreSQL's plan (which raises or not).
                const int nargs = list_length(wf->args);
                int64_t off = 1;
                std::optional<Op> off_col;  // a non-constant offset: i64 per row, NULL kept
                if (nargs >= 2 && !int_const((Node *)lsecond(wf->args), &off)) {
                    RNDN_ASSIGN_OR_RETURN(Col oc, X((Expr *)lsecond(wf->args), arg_ctx));
                    if (!IsIntType(oc.type)) return Unsup(plan, name + " with an offset that is not an integer");
                    RNDN_ASSIGN_OR_RETURN(oc, Materialize(oc, in->len_var));
                    off_col = EmitCast(oc.var, hir::Type(hir::TypeKind::I64));
                }
                RNDN_ASSIGN_OR_RETURN(Col x, X((Expr *)linitial(wf->args), arg_ctx));
                std::optional<Col> def;
                if (nargs >= 3) {
                    RNDN_ASSIGN_OR_RETURN(Col d, X((Expr *)lthird(wf->args), arg_ctx));
                    if (d.type != x.type) return Unsup(plan, name + " default of another type");
                    if (!d.scalar) {
                        RNDN_ASSIGN_OR_RETURN(d, Materialize(d, in->len_var));
                    }
                    def = d;
                }
                bounds();
                Op t;
                if (off_col) {
                    Op o = Emit(B::COALESCE, {*off_col, b_.I64(0)});
                    t = Emit(name == "lag" ? B::MINUS : B::PLUS, {*rowid, o});
                } else {
                    t = Emit(B::PLUS, {*rowid, b_.I64(name == "lag" ? -off : off)});
                }
                Op ok = Emit(B::AND, {Emit(B::GEQ, {t, *pstart}), Emit(B::LT, {t, *pend})});
                Op idx = Emit(B::CLIP, {t, *pstart, Emit(B::MINUS, {*pend, b_.I64(1)})});
                RNDN_RETURN_IF_ERROR(pick(x, idx, ok, def ? &*def : nullptr, out));
                if (off_col) {  // a NULL offset: NULL
                    Col proto = out;
                    proto.scalar = false;
                    if (proto.type == NUMERICOID && proto.scale < 0) proto.scale = 0;
                    RNDN_ASSIGN_OR_RETURN(Op nl, NullLiteral(proto, plan));
                    out.var = Emit(B::INDEX_A, {out.var, Emit(B::WHERE, {Emit(B::IS_NULL, {*off_col})}), nl});
                }
            } else if (name == "first_value" || name == "last_value" || name == "nth_value") {
                // a row of the frame: its first, its last, its nth (NULL past its end)
                int64_t nth = 1;
                if (name == "nth_value" && (!int_const((Node *)lsecond(wf->args), &nth) || nth < 1))
                    return Unsup(plan, "nth_value with a position that is not a positive constant");
                RNDN_ASSIGN_OR_RETURN(Col x, X((Expr *)linitial(wf->args), arg_ctx));
                RNDN_ASSIGN_OR_RETURN(auto fr, get_frame());
                Op t = name == "last_value" ? Emit(B::MINUS, {fr.second, b_.I64(1)}) : Emit(B::PLUS, {fr.first, b_.I64(nth - 1)});
                // first/nth: the row is before the frame's end; last: the frame is not empty
                Op ok = name == "last_value" ? Emit(B::GEQ, {t, fr.first}) : Emit(B::LT, {t, fr.second});
                Op idx = Emit(B::CLIP, {t, *pstart, Emit(B::MINUS, {*pend, b_.I64(1)})});
                RNDN_RETURN_IF_ERROR(pick(x, idx, ok, nullptr, out));
            } else if (name == "percent_rank" || name == "cume_dist") {
                // windowfuncs.c: (rank - 1) / (rows - 1), 0 for a one-row partition; the rows up
                // to the current row's last peer / rows; both in float8
                bounds();
                peer_bounds();
                const hir::Type f64(hir::TypeKind::F64);
                Op total = Emit(B::MINUS, {*pend, *pstart});
                Op num, den;
                if (name == "percent_rank") {
                    num = Emit(B::MINUS, {*peer_start, *pstart});
                    den = Emit(B::CLIP, {Emit(B::MINUS, {total, b_.I64(1)}), b_.I64(1), b_.I64(int64_t(1) << 62)});
                } else {
                    num = Emit(B::MINUS, {*peer_end, *pstart});
                    den = total;
                }
                out.var = Emit(B::DIV, {EmitCast(num, f64), EmitCast(den, f64)});
            } else if (name == "ntile") {
                // windowfuncs.c's window_ntile over a partition of T rows in n buckets: the first
                // T % n buckets hold T / n + 1 rows, the others T / n (one row each when T < n)
                int64_t nb = 0;
                if (!int_const((Node *)linitial(wf->args), &nb) || nb < 1)
                    return Unsup(plan, "ntile with a bucket count that is not a positive constant");
                bounds();
                Op p = Emit(B::MINUS, {*rowid, *pstart});
                Op total = Emit(B::MINUS, {*pend, *pstart});
                Op q = Emit(B::DIV, {total, b_.I64(nb)});
                Op r = Emit(B::MINUS, {total, Emit(B::MUL, {q, b_.I64(nb)})});
                Op q1 = Emit(B::PLUS, {q, b_.I64(1)});
                Op big = Emit(B::MUL, {r, q1});  // rows in the larger buckets
                Op in_big = Emit(B::DIV, {p, q1});
                // past them (q >= 1 there: q == 0 puts every row in the larger buckets)
                Op qs = Emit(B::CLIP, {q, b_.I64(1), b_.I64(int64_t(1) << 62)});
                Op rest = Emit(B::PLUS, {r, Emit(B::DIV, {Emit(B::MINUS, {p, big}), qs})});
                Op sel = Emit(B::WHERE, {Emit(B::LT, {p, big})});
                Op b0 = Emit(B::INDEX_A, {rest, sel, Emit(B::INDEX, {in_big, sel})});
                out.var = EmitCast(Emit(B::PLUS, {b0, b_.I64(1)}), hir::Type(hir::TypeKind::I32));
            } else {
                return Unsup(plan, "window function " + name);
            }
        } else {
            Aggref *a = makeNode(Aggref);
            a->aggfnoid = wf->winfnoid;
            a->aggtype = wf->wintype;
            a->aggcollid = wf->wincollid;
            a->inputcollid = wf->inputcollid;
            a->aggstar = wf->winstar;
            a->aggfilter = wf->aggfilter;
            a->aggkind = AGGKIND_NORMAL;
            a->aggsplit = AGGSPLIT_SIMPLE;
            ListCell *ac;
            int k = 1;
            foreach (ac, wf->args) a->args = lappend(a->args, makeTargetEntry((Expr *)lfirst(ac), (AttrNumber)k++, nullptr, false));
            if (whole_partition) {
                const Runs &pr = get_part();
                RNDN_ASSIGN_OR_RETURN(Col c, AggCol(a, *in, &pr.vals, plan));
                out = c;
                out.scalar = false;
                out.var = Emit(B::INDEX, {c.var, pr.row_run});
            } else {
                // A frame that starts after or ends before the current row can leave rows out of
                // every frame, where PostgreSQL never evaluates the argument: it is computed as a
                // column over every row all the same (an error there makes the executor run
                // PostgreSQL's plan, which raises its own error or none).
                RNDN_ASSIGN_OR_RETURN(auto fr, get_frame());
                RNDN_ASSIGN_OR_RETURN(Col c, AggCol(a, *in, nullptr, plan, &fr));
                out = c;
                out.scalar = false;
            }
        }
        (*funcs)[wf] = std::make_shared<LazyCol>([out]() -> Expected<Col> { return out; });
    }
    Ctx ctx;
    ctx.node = plan;
    ctx.outer = in;
    ctx.len_var = in->len_var;
    ctx.winfuncs = funcs;
    RNDN_ASSIGN_OR_RETURN(RelP out, FilterAndProject(plan, ctx, plan->qual));
    auto wrapped = std::make_shared<Rel>();
    wrapped->len_var = out->len_var;
    for (auto &c : out->cols) wrapped->cols.push_back(std::make_shared<LazyCol>([c, funcs]() { return c->Get(); }));
    return wrapped;
}

Expected<Translator::RelP> Translator::SortNode(Plan *plan, int nkeys, AttrNumber *cols, Oid *ops, Oid *colls,
                                                bool *nulls_first, RelP in, int64_t top) {
    std::vector<Op> keys;
    std::vector<bool> flags;
    for (int i = 0; i < nkeys; ++i) {
        if (cols[i] < 1 || cols[i] > (int)in->cols.size()) return Unsup(plan, "sort column out of range");
        RNDN_ASSIGN_OR_RETURN(Col c, in->cols[cols[i] - 1]->Get());
        Oid opfamily, opcintype;
        int16 strategy;
        if (!get_ordering_op_properties(ops[i], &opfamily, &opcintype, &strategy))
            return Unsup(plan, "sort operator is not a btree ordering");
        if (!HirType(c.type, c.type == NUMERICOID ? 0 : -1)) return Unsup(plan, "sort key of type " + TypeName(c.type));
        if (opcintype != c.type && !(IsTextType(c.type) && IsTextType(opcintype)))
            return Unsup(plan, "sort operator of another type");
        const bool desc = strategy == BTGreaterStrategyNumber;
        std::optional<std::string> rank_coll;
        if (IsTextType(c.type) && !ByteOrderCollation(colls[i])) {
            rank_coll = RankCollation(colls[i]);
            if (!rank_coll) return Unsup(plan, "text sort under a non-C collation");
        }
        if (c.scalar) continue;  // a constant key does not order anything
        if (rank_coll) c.var = CollRank(c.var, *rank_coll);
        if (nulls_first[i] != desc) {
            // @order puts NULLs last ascending and first descending; the other placement comes
            // from a leading ascending key: not-NULL for NULLS FIRST, is-NULL for NULLS LAST.
            keys.push_back(Emit(nulls_first[i] ? B::IS_NOT_NULL : B::IS_NULL, {c.var}));
            flags.push_back(true);
        }
        keys.push_back(c.var);
        flags.push_back(!desc);
    }
    if (keys.empty()) return in;
    Op order = top >= 0 ? Emit(B::ORDER_TOP, {KeyList(keys), b_.Bools(flags), b_.I64(top)})
                        : Emit(B::ORDER, {KeyList(keys), b_.Bools(flags)});
    return Take(in, order, false, ConstLen(order));
}

// PostgreSQL's plan stops a streaming join after the rows a LIMIT takes; rndn would make the
// whole join first (hours and gigabytes for a cross join).  A join estimated above this many
// rows and 100 times the limit's own estimate, with nothing blocking in between, stays there:
// the LIMIT itself and, when the hook tries the subtree alone, the join and the streaming nodes
// between them.
constexpr double kLimitJoinRows = 1e6;

namespace {
bool Streams(const Plan *p) { return IsA(p, Result) || IsA(p, Material) || IsA(p, Memoize) || IsA(p, Gather); }
bool IsJoin(const Plan *p) { return IsA(p, HashJoin) || IsA(p, MergeJoin) || IsA(p, NestLoop); }

// Whether `node` is `limit`'s subtree down to a huge join through streaming nodes.
bool UnderHugeJoinLimit(const Plan *tree, const Plan *node) {
    if (tree == nullptr) return false;
    if (IsA(tree, Limit) && HugeJoinUnderLimit(tree) != nullptr)
        for (const Plan *p = tree->lefttree; p != nullptr; p = p->lefttree) {
            if (p == node) return true;
            if (!Streams(p)) break;
        }
    return UnderHugeJoinLimit(tree->lefttree, node) || UnderHugeJoinLimit(tree->righttree, node);
}
}  // namespace

namespace {
// Nondeterministic collations (ICU's case- or accent-insensitive ones) make texts with other
// bytes equal; the interpreter compares bytes, so a plan that uses one anywhere stays with
// PostgreSQL.  The expressions' collations, then the collations plan nodes keep themselves.
bool NondeterministicColl(Oid c) { return OidIsValid(c) && c != DEFAULT_COLLATION_OID && !get_collation_isdeterministic(c); }

bool NondeterministicExprWalker(Node *node, void *) {
    if (node == nullptr) return false;
    Oid a = InvalidOid, b = InvalidOid;
    switch (nodeTag(node)) {
        case T_Var: a = ((Var *)node)->varcollid; break;
        case T_Const: a = ((Const *)node)->constcollid; break;
        case T_Param: a = ((Param *)node)->paramcollid; break;
        case T_FuncExpr: a = ((FuncExpr *)node)->inputcollid, b = ((FuncExpr *)node)->funccollid; break;
        case T_OpExpr:
        case T_DistinctExpr:
        case T_NullIfExpr: a = ((OpExpr *)node)->inputcollid, b = ((OpExpr *)node)->opcollid; break;
        case T_ScalarArrayOpExpr: a = ((ScalarArrayOpExpr *)node)->inputcollid; break;
        case T_Aggref: a = ((Aggref *)node)->inputcollid, b = ((Aggref *)node)->aggcollid; break;
        case T_CollateExpr: a = ((CollateExpr *)node)->collOid; break;
        case T_CaseExpr: a = ((CaseExpr *)node)->casecollid; break;
        case T_CoalesceExpr: a = ((CoalesceExpr *)node)->coalescecollid; break;
        case T_MinMaxExpr: a = ((MinMaxExpr *)node)->inputcollid, b = ((MinMaxExpr *)node)->minmaxcollid; break;
        case T_RelabelType: a = ((RelabelType *)node)->resultcollid; break;
        default: break;
    }
    if (NondeterministicColl(a) || NondeterministicColl(b)) return true;
    return expression_tree_walker(node, (bool (*)(void))(void *)NondeterministicExprWalker, nullptr);
}

bool AnyNondeterministic(const Oid *colls, int n) {
    for (int i = 0; colls != nullptr && i < n; ++i)
        if (NondeterministicColl(colls[i])) return true;
    return false;
}

bool PlanUsesNondeterministic(Plan *plan) {
    if (plan == nullptr) return false;
    if (NondeterministicExprWalker((Node *)plan->targetlist, nullptr) || NondeterministicExprWalker((Node *)plan->qual, nullptr))
        return true;
    switch (nodeTag(plan)) {
        case T_Sort: if (AnyNondeterministic(((Sort *)plan)->collations, ((Sort *)plan)->numCols)) return true; break;
        case T_IncrementalSort: {
            Sort *so = &((IncrementalSort *)plan)->sort;
            if (AnyNondeterministic(so->collations, so->numCols)) return true;
            break;
        }
        case T_Agg: if (AnyNondeterministic(((Agg *)plan)->grpCollations, ((Agg *)plan)->numCols)) return true; break;
        case T_Group: if (AnyNondeterministic(((Group *)plan)->grpCollations, ((Group *)plan)->numCols)) return true; break;
        case T_Unique: if (AnyNondeterministic(((Unique *)plan)->uniqCollations, ((Unique *)plan)->numCols)) return true; break;
        case T_SetOp: if (AnyNondeterministic(((SetOp *)plan)->dupCollations, ((SetOp *)plan)->numCols)) return true; break;
        case T_WindowAgg: {
            const WindowAgg *w = (const WindowAgg *)plan;
            if (AnyNondeterministic(w->partCollations, w->partNumCols) || AnyNondeterministic(w->ordCollations, w->ordNumCols)) return true;
            break;
        }
        case T_HashJoin:
            if (NondeterministicExprWalker((Node *)((HashJoin *)plan)->hashclauses, nullptr)) return true;
            break;
        case T_MergeJoin:
            if (NondeterministicExprWalker((Node *)((MergeJoin *)plan)->mergeclauses, nullptr) ||
                AnyNondeterministic(((MergeJoin *)plan)->mergeCollations, list_length(((MergeJoin *)plan)->mergeclauses)))
                return true;
            break;
        default: break;
    }
    if (IsA(plan, HashJoin) || IsA(plan, MergeJoin) || IsA(plan, NestLoop))
        if (NondeterministicExprWalker((Node *)((Join *)plan)->joinqual, nullptr)) return true;
    List *children = NIL;
    if (IsA(plan, Append)) children = ((Append *)plan)->appendplans;
    else if (IsA(plan, MergeAppend)) children = ((MergeAppend *)plan)->mergeplans;
    if (IsA(plan, SubqueryScan) && PlanUsesNondeterministic(((SubqueryScan *)plan)->subplan)) return true;
    ListCell *lc;
    foreach (lc, children)
        if (PlanUsesNondeterministic((Plan *)lfirst(lc))) return true;
    return PlanUsesNondeterministic(plan->lefttree) || PlanUsesNondeterministic(plan->righttree);
}
}  // namespace

const Plan *HugeJoinUnderLimit(const Plan *limit) {
    const Plan *below = limit->lefttree;
    while (below && Streams(below)) below = below->lefttree;
    if (below && IsJoin(below) && below->plan_rows > kLimitJoinRows && limit->plan_rows * 100 < below->plan_rows) return below;
    return nullptr;
}

Expected<Translator::RelP> Translator::LimitNode(Limit *limit, RelP in) {
    Plan *plan = &limit->plan;
    if (limit->limitOption != LIMIT_OPTION_COUNT) return Unsup(plan, "FETCH ... WITH TIES");
    auto const_i64 = [&](Node *n, int64 *v, bool *isnull) -> Status {
        *isnull = true;
        if (n == nullptr) return Status::Ok();
        if (!IsA(n, Const) || ((Const *)n)->consttype != INT8OID) return Unsup(plan, "non-constant LIMIT/OFFSET");
        *isnull = ((Const *)n)->constisnull;
        if (!*isnull) *v = DatumGetInt64(((Const *)n)->constvalue);
        return Status::Ok();
    };
    int64 count = 0, offset = 0;
    bool count_null, offset_null;
    RNDN_RETURN_IF_ERROR(const_i64(limit->limitCount, &count, &count_null));
    RNDN_RETURN_IF_ERROR(const_i64(limit->limitOffset, &offset, &offset_null));
    if (offset_null) offset = 0;
    if (count < 0 || offset < 0) return Unsup(plan, "negative LIMIT/OFFSET");
    RNDN_ASSIGN_OR_RETURN(Op lv, in->len_var());
    RNDN_ASSIGN_OR_RETURN(Op n, LenOf(lv));
    Op start = Emit(B::MIN, {Emit(B::APPEND, {b_.I64(offset), n})});
    Op rest = Emit(B::MINUS, {n, start});
    Op cnt = rest;
    if (!count_null) cnt = Emit(B::MIN, {Emit(B::APPEND, {b_.I64(count), rest})});
    Op idx = Emit(B::PLUS, {Emit(B::RANGE, {cnt}), start});
    return Take(in, idx, false, ConstLen(idx));
}

Expected<Translator::RelP> Translator::UniqueNode(Plan *plan, int ncols, AttrNumber *cols, RelP in) {
    if (ncols == 0) {
        // Every key is fixed by an equality (`SELECT DISTINCT x ... WHERE x = 5`): the planner
        // keeps no key columns and all rows are one group, so the node passes the first row.
        RNDN_ASSIGN_OR_RETURN(Op lv, in->len_var());
        RNDN_ASSIGN_OR_RETURN(Op n, LenOf(lv));
        Op idx = Emit(B::RANGE, {Emit(B::MIN, {Emit(B::APPEND, {b_.I64(1), n})})});
        return Take(in, idx, false, ConstLen(idx));
    }
    std::vector<Op> keys;
    for (int i = 0; i < ncols; ++i) {
        if (cols[i] < 1 || cols[i] > (int)in->cols.size()) return Unsup(plan, "column out of range");
        RNDN_ASSIGN_OR_RETURN(Col c, in->cols[cols[i] - 1]->Get());
        RNDN_ASSIGN_OR_RETURN(c, Materialize(c, in->len_var));
        keys.push_back(c.var);
    }
    Op reps = Emit(B::KEYS, {Emit(B::GROUP, {KeyList(keys)})});
    Op idx = Emit(B::INDEX, {reps, Emit(B::ORDER, {reps, b_.Bool(true)})});
    return Take(in, idx, false, ConstLen(idx));
}

// INTERSECT / EXCEPT [ALL] (nodeSetOp.c): the input (an Append of both sides, maybe sorted) has
// a flag column, 0 for rows of the left query and 1 for the right one.  Rows are grouped on the
// other columns with NULLs equal (as @group does); a group with l left and r right rows gives
// INTERSECT: 1 if l > 0 and r > 0, INTERSECT ALL: min(l, r), EXCEPT: 1 if l > 0 and r = 0,
// EXCEPT ALL: max(l - r, 0) copies of its first row, groups in order of first appearance (the
// sorted strategy's order; the hashed one has no order).  PostgreSQL prints the group's first
// row of its own input order: where values that compare equal can print differently (float -0
// and 0, numerics of per-value scale) the node stays with PostgreSQL, except for floats under
// the hashed strategy (the first row seen) over an input whose order rndn reproduces
// (HeapOrderInput).  Floats group with PostgreSQL's float equality (-0 = 0, NaN = NaN), as
// @group does.
// Whether rndn reproduces the order in which PostgreSQL's plan produces the rows of this
// subtree: sequential scans read the heap in order, as the loader does, and Append, Subquery
// Scan and Result keep their input's order.  (A float INTERSECT/EXCEPT prints a group's first
// row: -0 or 0, whichever came first.)
static bool HeapOrderInput(const Plan *p) {
    if (p == nullptr || p->parallel_aware) return false;
    switch (nodeTag(p)) {
        case T_SeqScan: return true;
        case T_Result: return p->lefttree == nullptr || HeapOrderInput(p->lefttree);
        case T_SubqueryScan: return HeapOrderInput(((const SubqueryScan *)p)->subplan);
        case T_Append: {
            ListCell *lc;
            foreach (lc, ((const Append *)p)->appendplans)
                if (!HeapOrderInput((const Plan *)lfirst(lc))) return false;
            return true;
        }
        default: return false;
    }
}

Expected<Translator::RelP> Translator::SetOpNode(SetOp *op, RelP in) {
    Plan *plan = &op->plan;
    if (!in->extras.empty() || !in->deferred.empty()) return Unsup(plan, "correlated set operation input");
    const AttrNumber fc = op->flagColIdx;
    if (fc < 1 || fc > (int)in->cols.size()) return Unsup(plan, "set operation without a flag column");
    std::vector<Op> keys;
    for (int i = 0; i < op->numCols; ++i) {
        const AttrNumber k = op->dupColIdx[i];
        if (k < 1 || k > (int)in->cols.size()) return Unsup(plan, "column out of range");
        RNDN_ASSIGN_OR_RETURN(Col c, in->cols[k - 1]->Get());
        if ((c.type == FLOAT4OID || c.type == FLOAT8OID) && !(op->strategy == SETOP_HASHED && HeapOrderInput(plan->lefttree)))
            return Unsup(plan, "float column in INTERSECT/EXCEPT over a sorted or reordered input (which of -0 and 0 PostgreSQL prints is its input order's)");
        if (c.type == NUMERICOID && c.scale < 0)
            return Unsup(plan, "numeric of per-value scale in INTERSECT/EXCEPT");
        if (!HirType(c.type, c.type == NUMERICOID ? c.scale : 0)) return Unsup(plan, "set operation column of type " + TypeName(c.type));
        RNDN_ASSIGN_OR_RETURN(c, Materialize(c, in->len_var));
        keys.push_back(c.var);
    }
    RNDN_ASSIGN_OR_RETURN(Col flag, in->cols[fc - 1]->Get());
    RNDN_ASSIGN_OR_RETURN(flag, Materialize(flag, in->len_var));
    if (flag.type != INT4OID) return Unsup(plan, "set operation flag of type " + TypeName(flag.type));
    if (keys.empty()) {  // no columns (SELECT FROM a INTERSECT SELECT FROM b): one group of all rows
        RNDN_ASSIGN_OR_RETURN(Op lv, in->len_var());
        RNDN_ASSIGN_OR_RETURN(Op n, LenOf(lv));
        keys.push_back(Emit(B::VECTOR, {n, b_.I64(0)}));
    }
    Op g = Emit(B::GROUP, {KeyList(keys)});
    Op reps0 = Emit(B::KEYS, {g});
    Op vals0 = Emit(B::VALUES, {g});
    Op perm = Emit(B::ORDER, {reps0, b_.Bool(true)});
    Op reps = Emit(B::INDEX, {reps0, perm});
    Op right = Emit(B::NEQ, {flag.var, b_.I32(0)});
    Op total = Emit(B::INDEX, {Emit(B::RAZE, {Emit(B::EACH, {Fn(B::LEN), vals0})}), perm});
    Op nr = EmitCast(Emit(B::RAZE, {Emit(B::EACH, {Fn(B::SUM), Emit(B::EACH_RIGHT, {Fn(B::INDEX), right, vals0})})}),
                     hir::Type(hir::TypeKind::I64));
    nr = Emit(B::INDEX, {nr, perm});
    Op nl = Emit(B::MINUS, {total, nr});
    Op idx;
    switch (op->cmd) {
        case SETOPCMD_INTERSECT:
            idx = Emit(B::COMPRESS, {Emit(B::AND, {Emit(B::GT, {nl, b_.I64(0)}), Emit(B::GT, {nr, b_.I64(0)})}), reps});
            break;
        case SETOPCMD_EXCEPT:
            idx = Emit(B::COMPRESS, {Emit(B::AND, {Emit(B::GT, {nl, b_.I64(0)}), Emit(B::EQ, {nr, b_.I64(0)})}), reps});
            break;
        case SETOPCMD_INTERSECT_ALL:
        case SETOPCMD_EXCEPT_ALL: {
            Op cnt;
            if (op->cmd == SETOPCMD_INTERSECT_ALL) {  // min(l, r)
                Op less = Emit(B::LT, {nr, nl});
                cnt = Emit(B::INDEX_A, {nl, Emit(B::WHERE, {less}), Emit(B::COMPRESS, {less, nr})});
            } else {  // max(l - r, 0)
                Op d = Emit(B::MINUS, {nl, nr});
                cnt = Emit(B::INDEX_A, {d, Emit(B::WHERE, {Emit(B::LT, {d, b_.I64(0)})}), b_.I64(0)});
            }
            // each group's first row, its count of times
            idx = Emit(B::RAZE, {Emit(B::EACH_ITEM, {Fn(B::VECTOR), Emit(B::TOLIST, {cnt}), Emit(B::TOLIST, {reps})})});
            break;
        }
        default: return Unsup(plan, "set operation " + std::to_string((int)op->cmd));
    }
    return Take(in, idx, false, ConstLen(idx));
}

Expected<Translator::RelP> Translator::JoinNode(Join *join, List *eq_clauses,
                                                std::vector<std::pair<Expr *, int>> param_keys, bool order_free) {
    Plan *plan = &join->plan;
    const JoinType jt = join->jointype;
    if (jt != JOIN_INNER && jt != JOIN_SEMI && jt != JOIN_ANTI && jt != JOIN_LEFT && jt != JOIN_RIGHT && jt != JOIN_FULL)
        return Unsup(plan, "join type " + std::to_string((int)jt));
    // A join whose output order cannot show: its inputs' orders cannot either (which rows it
    // pairs does not depend on them).
    order_free_ = order_free;
    RNDN_ASSIGN_OR_RETURN(RelP outer, NodeRel(plan->lefttree));
    Ctx kc;  // the outer side's values of the inner side's parameters
    kc.node = plan;
    kc.outer = outer;
    kc.len_var = outer->len_var;
    std::map<int, Col> param_vals;
    RelP inner;
    {
        // A parameterized inner side (nested loop): its `col = $p` conditions become hidden
        // columns (join keys below), and its scans keep only rows whose key some outer row has.
        const std::set<int> saved = decor_params_;
        const std::map<int, OuterKeys> saved_outer = decor_outer_;
        for (const auto &[expr, pid] : param_keys) {
            decor_params_.insert(pid);
            RNDN_ASSIGN_OR_RETURN(Col l, X(expr, kc));
            if (l.scalar) continue;
            param_vals[pid] = l;
            if (IdentityKeyType(l.type))
                decor_outer_[pid] = OuterKeys{l.var, l.type, plan->lefttree->plan_rows};
        }
        // A semi or anti join only asks whether a match exists: the inner rows' order is free
        // (an index scan there need not be sorted into index order).
        order_free_ = order_free || jt == JOIN_SEMI || jt == JOIN_ANTI;
        Expected<RelP> in = NodeRel(plan->righttree);
        decor_params_ = saved;
        decor_outer_ = saved_outer;
        if (!in.ok()) return in.status();
        inner = in.value();
    }
    std::vector<std::pair<Op, Op>> key_vars;
    if (!param_keys.empty()) {
        auto stripped = std::make_shared<Rel>(*inner);
        for (const auto &[expr, pid] : param_keys) {
            if (!inner->extras.count(pid)) continue;  // only in deferred conditions
            auto pv = param_vals.find(pid);
            Col l;
            if (pv != param_vals.end()) {
                l = pv->second;
            } else {
                RNDN_ASSIGN_OR_RETURN(l, X(expr, kc));
            }
            RNDN_ASSIGN_OR_RETURN(Col r, inner->extras[pid]->Get());
            if (l.scalar || r.scalar) return Unsup(plan, "constant join key");
            key_vars.emplace_back(l.var, r.var);
            stripped->extras.erase(pid);
        }
        inner = stripped;
    }
    if (!inner->deferred.empty() && param_keys.empty()) return Unsup(plan, "correlated condition of an outer query");
    bool inner_extras = false;
    for (const auto &kv : inner->extras) inner_extras = inner_extras || kv.first < kMarkerBase;
    const bool has_extras = !outer->extras.empty() || inner_extras || !outer->deferred.empty();
    if (has_extras && jt != JOIN_INNER && !(jt == JOIN_SEMI || jt == JOIN_ANTI))
        return Unsup(plan, "outer join over a correlated input");
    if ((jt == JOIN_SEMI || jt == JOIN_ANTI) && inner_extras)
        return Unsup(plan, "semi/anti join with a correlated inner side");
    Ctx kctx;
    kctx.node = plan;
    kctx.outer = outer;
    kctx.inner = inner;
    Op li, ri;
    RNDN_ASSIGN_OR_RETURN(Op olen_v, outer->len_var());
    RNDN_ASSIGN_OR_RETURN(Op ilen_v, inner->len_var());
    // A nested loop's join filter `outer column = inner column` (integers or dates of one type,
    // where = is identity) is a join key too: the pairs come from the hash join, not from the
    // cross product; the other conditions still filter the pairs.
    List *joinqual = join->joinqual;
    std::vector<std::pair<Expr *, Expr *>> filter_keys;  // (outer side, inner side)
    if (eq_clauses == NIL && joinqual != NIL) {
        List *rest = NIL;
        ListCell *qc;
        foreach (qc, joinqual) {
            Expr *q = (Expr *)lfirst(qc);
            Expr *sides[2] = {nullptr, nullptr};
            if (IsA(q, OpExpr) && list_length(((OpExpr *)q)->args) == 2) {
                OpExpr *op = (OpExpr *)q;
                const FnRow *row = LookupFunction(op->opfuncid ? op->opfuncid : get_opcode(op->opno));
                Expr *a = StripRelabel((Expr *)linitial(op->args)), *b = StripRelabel((Expr *)lsecond(op->args));
                const Oid ta = exprType((Node *)a);
                if (row != nullptr && (row->flags & F_EQ) && IdentityKeyType(ta) && ta == exprType((Node *)b) && IsA(a, Var) && IsA(b, Var)) {
                    for (Expr *v : {a, b}) {
                        if (((Var *)v)->varno == OUTER_VAR) sides[0] = v;
                        if (((Var *)v)->varno == INNER_VAR) sides[1] = v;
                    }
                }
            }
            if (sides[0] && sides[1]) filter_keys.emplace_back(sides[0], sides[1]);
            else rest = lappend(rest, q);
        }
        joinqual = rest;
    }
    if (eq_clauses != NIL || !key_vars.empty() || !filter_keys.empty()) {
        std::vector<Op> lk, rk;
        for (const auto &[l, r] : key_vars) lk.push_back(l), rk.push_back(r);
        for (const auto &[oe, ie] : filter_keys) {
            Ctx lc = kctx, rc = kctx;
            lc.inner = nullptr;
            lc.len_var = outer->len_var;
            rc.outer = nullptr;
            rc.len_var = inner->len_var;
            RNDN_ASSIGN_OR_RETURN(Col l, X(oe, lc));
            RNDN_ASSIGN_OR_RETURN(Col r, X(ie, rc));
            if (l.scalar || r.scalar) return Unsup(plan, "constant join key");
            lk.push_back(l.var);
            rk.push_back(r.var);
        }
        ListCell *lc;
        foreach (lc, eq_clauses) {
            Expr *e = (Expr *)lfirst(lc);
            if (!IsA(e, OpExpr) || list_length(((OpExpr *)e)->args) != 2) return Unsup(plan, "join clause is not a binary operator");
            OpExpr *op = (OpExpr *)e;
            const FnRow *row = LookupFunction(op->opfuncid ? op->opfuncid : get_opcode(op->opno));
            if (row == nullptr || !(row->flags & F_EQ)) return Unsup(plan, "join operator is not a supported equality");
            // The left operand reads the outer side, the right one the inner side.
            Ctx lc = kctx, rc = kctx;
            lc.inner = nullptr;
            lc.len_var = outer->len_var;
            rc.outer = nullptr;
            rc.len_var = inner->len_var;
            RNDN_ASSIGN_OR_RETURN(Col l, X((Expr *)linitial(op->args), lc));
            RNDN_ASSIGN_OR_RETURN(Col r, X((Expr *)lsecond(op->args), rc));
            if (l.scalar || r.scalar) return Unsup(plan, "constant join key");
            lk.push_back(l.var);
            rk.push_back(r.var);
        }
        Op a = KeyList(lk);
        Op b = KeyList(rk);
        if (eq_clauses == NIL && key_vars.empty()) {
            // Only a nested loop's join filter: its pairs in the cross product's order (outer
            // row by outer row, @join_index orders by its second side's rows).
            Op j = Emit(B::JOIN_INDEX, {Fn(B::EQ), b, a});
            li = Emit(B::INDEX, {j, b_.I64(1)});
            ri = Emit(B::INDEX, {j, b_.I64(0)});
        } else {
            Op j = Emit(B::JOIN_INDEX, {Fn(B::EQ), a, b});
            li = Emit(B::INDEX, {j, b_.I64(0)});
            ri = Emit(B::INDEX, {j, b_.I64(1)});
        }
    } else {
        // Cross product, outer-major.
        RNDN_ASSIGN_OR_RETURN(Op n1, LenOf(olen_v));
        RNDN_ASSIGN_OR_RETURN(Op n2, LenOf(ilen_v));
        Op all = Emit(B::RANGE, {Emit(B::MUL, {n1, n2})});
        Op d = Emit(B::MAX, {Emit(B::APPEND, {n2, b_.I64(1)})});
        li = Emit(B::DIV, {all, d});
        ri = Emit(B::MOD, {all, d});
    }
    // Conditions of the inner side on the parameters (e.g. `col <> $p`): evaluate them on the
    // pairs, with each parameter taken from its outer row.
    if (!inner->deferred.empty()) {
        std::vector<int> set_params;
        Ctx oc;
        oc.node = plan;
        oc.outer = outer;
        oc.len_var = outer->len_var;
        Status st;
        for (const auto &[expr, pid] : param_keys) {
            auto o = X(expr, oc);
            if (!o.ok()) { st = o.status(); break; }
            Col c = o.value();
            auto m = Materialize(c, outer->len_var);
            if (!m.ok()) { st = m.status(); break; }
            c = m.value();
            c.var = Emit(B::INDEX, {c.var, li});
            params_[pid] = c;
            set_params.push_back(pid);
        }
        for (auto it = inner->extras.begin(); st.ok() && it != inner->extras.end(); ++it) {
            if (it->first < kMarkerBase) continue;
            auto c = it->second->Get();
            if (!c.ok()) { st = c.status(); break; }
            Col x = c.value();
            auto m = Materialize(x, inner->len_var);
            if (!m.ok()) { st = m.status(); break; }
            x = m.value();
            x.var = Emit(B::INDEX, {x.var, ri});
            params_[it->first] = x;
            set_params.push_back(it->first);
        }
        Op mask;
        if (st.ok()) {
            auto m = DeferredMask(inner->deferred, plan, li);
            if (m.ok()) mask = m.value(); else st = m.status();
        }
        for (int id : set_params) params_.erase(id);
        if (!st.ok()) return st;
        li = Emit(B::COMPRESS, {mask, li});
        ri = Emit(B::COMPRESS, {mask, ri});
        auto stripped = std::make_shared<Rel>(*inner);
        stripped->deferred.clear();
        for (auto it = stripped->extras.begin(); it != stripped->extras.end();)
            it = it->first >= kMarkerBase ? stripped->extras.erase(it) : std::next(it);
        inner = stripped;
    }
    // Pairs that also satisfy the join's other clauses.
    Ctx pctx;
    pctx.node = plan;
    pctx.outer = Take(outer, li, false, ConstLen(li));
    pctx.inner = Take(inner, ri, false, ConstLen(li));
    pctx.len_var = ConstLen(li);
    if (joinqual != NIL) {
        RNDN_ASSIGN_OR_RETURN(Op m, Mask(joinqual, pctx));
        li = Emit(B::COMPRESS, {m, li});
        ri = Emit(B::COMPRESS, {m, ri});
        pctx.outer = Take(outer, li, false, ConstLen(li));
        pctx.inner = Take(inner, ri, false, ConstLen(li));
        pctx.len_var = ConstLen(li);
    }
    if (jt == JOIN_INNER) return FilterAndProject(plan, pctx, plan->qual);
    RNDN_ASSIGN_OR_RETURN(Op n1, LenOf(olen_v));
    Op matched = Emit(B::INDEX_A, {Emit(B::VECTOR, {n1, b_.Bool(false)}), li, b_.Bool(true)});
    if (jt == JOIN_SEMI || jt == JOIN_ANTI) {
        Op keep = jt == JOIN_SEMI ? matched : Emit(B::NOT, {matched});
        Op idx = Emit(B::WHERE, {keep});
        Ctx sctx;
        sctx.node = plan;
        sctx.outer = Take(outer, idx, false, ConstLen(idx));
        sctx.len_var = ConstLen(idx);
        return FilterAndProject(plan, sctx, plan->qual);
    }
    // Outer joins: matched pairs, then the unmatched rows of the preserved side(s) with NULLs
    // on the other side.
    Op um_o, um_i;  // empty: none
    if (jt == JOIN_LEFT || jt == JOIN_FULL) um_o = Emit(B::WHERE, {Emit(B::NOT, {matched})});
    if (jt == JOIN_RIGHT || jt == JOIN_FULL) {
        RNDN_ASSIGN_OR_RETURN(Op n2, LenOf(ilen_v));
        Op matched_i = Emit(B::INDEX_A, {Emit(B::VECTOR, {n2, b_.Bool(false)}), ri, b_.Bool(true)});
        um_i = Emit(B::WHERE, {Emit(B::NOT, {matched_i})});
    }
    Op all_rows = li;
    if (!Empty(um_o)) all_rows = Emit(B::APPEND, {all_rows, um_o});
    if (!Empty(um_i)) all_rows = Emit(B::APPEND, {all_rows, um_i});
    // side 0 = outer, 1 = inner: pairs index, own unmatched rows, NULLs for the other's.
    auto extend = [this, plan](const RelP &side, const Op &pairs, const Op &own_um, const Op &other_um, bool own_first,
                               LenFn side_len, LenFn len) {
        auto out = std::make_shared<Rel>();
        for (const LazyPtr &c : side->cols)
            out->cols.push_back(std::make_shared<LazyCol>([this, c, pairs, own_um, other_um, own_first, side_len, plan]() -> Expected<Col> {
                RNDN_ASSIGN_OR_RETURN(Col x, c->Get());
                RNDN_ASSIGN_OR_RETURN(x, Materialize(x, side_len));
                Op v = Emit(B::INDEX, {x.var, pairs});
                Op own = Empty(own_um) ? Op() : Emit(B::INDEX, {x.var, own_um});
                Op nulls;
                if (!Empty(other_um)) {
                    RNDN_ASSIGN_OR_RETURN(Op nl, NullLiteral(x, plan));
                    nulls = Emit(B::VECTOR, {Emit(B::LEN, {other_um}), nl});
                }
                const Op first = own_first ? own : nulls, second = own_first ? nulls : own;
                if (!Empty(first)) v = Emit(B::APPEND, {v, first});
                if (!Empty(second)) v = Emit(B::APPEND, {v, second});
                x.var = v;
                return x;
            }));
        out->len_var = len;
        return out;
    };
    Ctx lctx;
    lctx.node = plan;
    lctx.len_var = ConstLen(all_rows);
    lctx.outer = extend(outer, li, um_o, um_i, true, outer->len_var, lctx.len_var);
    lctx.inner = extend(inner, ri, um_i, um_o, false, inner->len_var, lctx.len_var);
    return FilterAndProject(plan, lctx, plan->qual);
}

Expected<Col> Translator::SubPlanX(SubPlan *sp, const Ctx &ctx) {
    const bool cmp = in_comparison_;
    in_comparison_ = false;
    if (sp->plan_id < 1 || sp->plan_id > list_length(stmt_->subplans)) return Unsup(ctx.node, "subplan not found");
    Plan *sub = (Plan *)list_nth(stmt_->subplans, sp->plan_id - 1);
    if (sp->subLinkType == ANY_SUBLINK && sp->parParam == NIL) {
        // x IN (SELECT ...): SQL's three-valued membership.
        Expr *t = (Expr *)sp->testexpr;
        if (t == nullptr || !IsA(t, OpExpr) || list_length(((OpExpr *)t)->args) != 2 || list_length(sp->paramIds) != 1)
            return Unsup(ctx.node, "IN subquery with several columns");
        OpExpr *op = (OpExpr *)t;
        const FnRow *row = LookupFunction(op->opfuncid ? op->opfuncid : get_opcode(op->opno));
        Expr *rhs = StripRelabel((Expr *)lsecond(op->args));
        if (row == nullptr || !(row->flags & F_EQ) || !IsA(rhs, Param) || ((Param *)rhs)->paramid != linitial_int(sp->paramIds))
            return Unsup(ctx.node, "IN subquery with an operator other than =");
        RNDN_ASSIGN_OR_RETURN(RelP r, NodeRel(sub));
        if (r->cols.empty()) return Unsup(ctx.node, "subquery without columns");
        RNDN_ASSIGN_OR_RETURN(Col sc, r->cols[0]->Get());
        RNDN_ASSIGN_OR_RETURN(sc, Materialize(sc, r->len_var));
        RNDN_ASSIGN_OR_RETURN(Col x, X((Expr *)linitial(op->args), ctx));
        RNDN_ASSIGN_OR_RETURN(x, Materialize(x, ctx.len_var));
        Op m = Emit(B::MEMBER, {x.var, sc.var});
        if (sp->unknownEqFalse) {
            // PostgreSQL may answer false for unknown here, and must where the subplan is an
            // EXISTS turned into a hashed ANY (NOT EXISTS sees no row where the key is NULL).
            Col out;
            out.type = BOOLOID;
            out.var = Emit(B::AND, {m, Emit(B::IS_NOT_NULL, {m})});  // Kleene: NULL AND false
            return out;
        }
        Op sc_count = Emit(B::COUNT, {sc.var});  // (statement order as before the Builder: count, then len)
        Op sc_len = Emit(B::LEN, {sc.var});
        Op has_null = Emit(B::GT, {Emit(B::MINUS, {sc_len, sc_count}), b_.I64(0)});
        Op unknown = Emit(B::WHERE, {Emit(B::AND, {Emit(B::NOT, {m}), has_null})});
        Op m2 = Emit(B::INDEX_A, {m, unknown, b_.Null(hir::TypeKind::BOOL)});
        Op nonempty = Emit(B::GT, {sc_len, b_.I64(0)});
        Col out;
        out.type = BOOLOID;
        out.var = Emit(B::AND, {m2, nonempty});
        return out;
    }
    if (sp->subLinkType == EXPR_SUBLINK && sp->parParam != NIL) {
        // Correlated scalar aggregate: aggregate per value of the correlation keys, then look
        // each outer row's keys up (no group: the aggregate of no rows, NULL).
        if (!IsA(sub, Agg) || ((Agg *)sub)->aggstrategy != AGG_PLAIN || ((Agg *)sub)->numCols != 0 || sub->qual != NIL ||
            sub->initPlan != NIL)
            return Unsup(ctx.node, "correlated subquery that is not a plain aggregate");
        std::vector<Aggref *> aggrefs;
        CollectAggrefs((Node *)sub->targetlist, &aggrefs);
        // The result for an outer row without matches: NULL, or 0 when the result is count().
        Node *result_expr = (Node *)((TargetEntry *)linitial(sub->targetlist))->expr;
        const bool bare_count = IsA(result_expr, Aggref) && FuncName(((Aggref *)result_expr)->aggfnoid) == "count";
        if (!bare_count) {
            for (Aggref *a : aggrefs)
                if (FuncName(a->aggfnoid) == "count") return Unsup(ctx.node, "correlated expression over count() (0 for no rows)");
            if (!StrictTlist(result_expr)) return Unsup(ctx.node, "correlated subquery result is not NULL for no rows");
        }
        std::vector<int> ids;
        ListCell *lc;
        foreach (lc, sp->parParam) ids.push_back(lfirst_int(lc));
        if (list_length(sp->args) != (int)ids.size()) return Unsup(ctx.node, "correlated subquery arguments do not match its parameters");
        // The outer rows' arguments, first: the subquery's scans keep only rows with their keys.
        std::vector<Col> outer_args;
        const std::map<int, OuterKeys> saved_outer = decor_outer_;
        foreach (lc, sp->args) {
            RNDN_ASSIGN_OR_RETURN(Col o, X((Expr *)lfirst(lc), ctx));
            RNDN_ASSIGN_OR_RETURN(o, Materialize(o, ctx.len_var));
            const int id = ids[outer_args.size()];
            if (IdentityKeyType(o.type))
                decor_outer_[id] = OuterKeys{o.var, o.type, ctx.node ? ctx.node->plan_rows : 0};
            outer_args.push_back(o);
        }
        const std::set<int> saved = decor_params_;
        for (int id : ids) decor_params_.insert(id);
        // Each outer row looks its group's aggregate up: an aggregate whose result does not
        // depend on its rows' order frees its input's (no index order reproduced below it).
        order_free_ = OrderInsensitiveAgg((Agg *)sub);
        Expected<RelP> child = NodeRel(sub->lefttree);
        decor_params_ = saved;
        decor_outer_ = saved_outer;
        if (!child.ok()) return child.status();
        // Some correlation is not an equality with an inner expression: the theta form.
        bool all_equalities = child.value()->deferred.empty();
        for (int id : ids) all_equalities = all_equalities && child.value()->extras.count(id) > 0;
        if (!all_equalities) return ThetaSubPlan(sp, (Agg *)sub, child.value(), ids, ctx, bare_count, cmp);
        RNDN_ASSIGN_OR_RETURN(RelP g, AggNode((Agg *)sub, child.value(), ids));
        RNDN_ASSIGN_OR_RETURN(Col res, g->cols[0]->Get());
        RNDN_ASSIGN_OR_RETURN(res, Materialize(res, g->len_var));
        std::vector<Op> lk, rk;
        for (size_t i = 0; i < ids.size(); ++i) {
            RNDN_ASSIGN_OR_RETURN(Col k, g->extras[ids[i]]->Get());
            lk.push_back(outer_args[i].var);
            rk.push_back(k.var);
        }
        Op a = KeyList(lk);
        Op b = KeyList(rk);
        Op j = Emit(B::JOIN_INDEX, {Fn(B::EQ), a, b});
        Op li = Emit(B::INDEX, {j, b_.I64(0)});
        Op gi = Emit(B::INDEX, {j, b_.I64(1)});
        if (res.type == NUMERICOID && res.scale < 0) {
            // Only compared: an exact rescale keeps every comparison's outcome.
            if (!cmp) return Unsup(ctx.node, "correlated numeric result of unknown scale");
            res.var = EmitCast(res.var, Dec128(24));
            res.scale = 24;
        }
        Op nl = b_.I64(0);
        if (!bare_count) {
            RNDN_ASSIGN_OR_RETURN(nl, NullLiteral(res, ctx.node));
        }
        if (!ctx.len_var) return Unsup(ctx.node, "subquery where the row count is unknown");
        RNDN_ASSIGN_OR_RETURN(Op lv, ctx.len_var());
        RNDN_ASSIGN_OR_RETURN(Op n, LenOf(lv));
        Op base = Emit(B::VECTOR, {n, nl});
        Col out = res;
        out.scalar = false;
        out.var = Emit(B::INDEX_A, {base, li, Emit(B::INDEX, {res.var, gi})});
        return out;
    }
    if (sp->subLinkType == ANY_SUBLINK && sp->parParam != NIL) {
        // Correlated x IN (SELECT y ...): x joins the key tuple; per key tuple, true when a pair
        // has y = x, else NULL when some pair compares unknown (x or y NULL), else false (also
        // for no pairs).
        Expr *t = (Expr *)sp->testexpr;
        if (t == nullptr || !IsA(t, OpExpr) || list_length(((OpExpr *)t)->args) != 2 || list_length(sp->paramIds) != 1)
            return Unsup(ctx.node, "IN subquery with several columns");
        OpExpr *op = (OpExpr *)t;
        const FnRow *row = LookupFunction(op->opfuncid ? op->opfuncid : get_opcode(op->opno));
        Expr *rhs = StripRelabel((Expr *)lsecond(op->args));
        if (row == nullptr || !(row->flags & F_EQ) || !IsA(rhs, Param) || ((Param *)rhs)->paramid != linitial_int(sp->paramIds))
            return Unsup(ctx.node, "IN subquery with an operator other than =");
        std::vector<int> ids;
        ListCell *lc;
        foreach (lc, sp->parParam) ids.push_back(lfirst_int(lc));
        const std::set<int> saved = decor_params_;
        for (int id : ids) decor_params_.insert(id);
        order_free_ = true;  // only which values occur
        Expected<RelP> child = NodeRel(sub);
        decor_params_ = saved;
        if (!child.ok()) return child.status();
        if (child.value()->cols.empty()) return Unsup(ctx.node, "subquery without columns");
        RNDN_ASSIGN_OR_RETURN(Col y, child.value()->cols[0]->Get());
        RNDN_ASSIGN_OR_RETURN(y, Materialize(y, child.value()->len_var));
        RNDN_ASSIGN_OR_RETURN(ThetaPairs tp, ThetaJoin(sp, sub, child.value(), ids, ctx, (Expr *)linitial(op->args)));
        const Col &x = tp.extra_val;
        // text with text (text or varchar): = is byte equality under a deterministic collation;
        // char(n) ignores trailing blanks and stays with PostgreSQL
        const bool texts = IsTextType(x.type) && IsTextType(y.type) && x.type != BPCHAROID && y.type != BPCHAROID;
        if (texts && OidIsValid(op->inputcollid) && !get_collation_isdeterministic(op->inputcollid))
            return Unsup(ctx.node, "correlated IN subquery comparing text under a nondeterministic collation");
        if (!texts && (x.type != y.type || x.scale != y.scale || IsTextType(x.type)))
            return Unsup(ctx.node, "correlated IN subquery comparing " + TypeName(x.type) + " with " + TypeName(y.type));
        Op eq = Emit(B::EQ, {Emit(B::INDEX, {x.var, tp.li}), Emit(B::INDEX, {y.var, tp.ri})});
        Op none = Emit(B::VECTOR, {tp.nd, b_.Bool(false)});
        Op any_true = Emit(B::INDEX_A, {none, Emit(B::COMPRESS, {eq, tp.li}), b_.Bool(true)});
        Op any_null = Emit(B::INDEX_A, {none, Emit(B::COMPRESS, {Emit(B::IS_NULL, {eq}), tp.li}), b_.Bool(true)});
        Op per_key = any_true;
        if (!sp->unknownEqFalse)
            per_key = Emit(B::INDEX_A, {any_true, Emit(B::WHERE, {Emit(B::AND, {Emit(B::NOT, {any_true}), any_null})}),
                                        b_.Null(hir::TypeKind::BOOL)});
        Col out;
        out.type = BOOLOID;
        out.var = Emit(B::INDEX, {per_key, tp.gid});
        return out;
    }
    if (sp->subLinkType == EXISTS_SUBLINK && sp->parParam != NIL) {
        // Correlated EXISTS that PostgreSQL keeps as a subplan (in the select list, under OR):
        // whether any pair of the outer row's key tuple meets the conditions (never NULL).
        std::vector<int> ids;
        ListCell *lc;
        foreach (lc, sp->parParam) ids.push_back(lfirst_int(lc));
        const std::set<int> saved = decor_params_;
        for (int id : ids) decor_params_.insert(id);
        order_free_ = true;  // only whether a row exists
        Expected<RelP> child = NodeRel(sub);
        decor_params_ = saved;
        if (!child.ok()) return child.status();
        RNDN_ASSIGN_OR_RETURN(ThetaPairs tp, ThetaJoin(sp, sub, child.value(), ids, ctx));
        Col out;
        out.type = BOOLOID;
        Op matched = Emit(B::INDEX_A, {Emit(B::VECTOR, {tp.nd, b_.Bool(false)}), tp.li, b_.Bool(true)});
        out.var = Emit(B::INDEX, {matched, tp.gid});
        return out;
    }
    return Unsup(ctx.node, "subquery of this kind");
}

// Rows PostgreSQL expects a node to read: its own estimate, its children's, and for a scan the
// table's row count (pg_class.reltuples; a filter's estimate is after the filter).
static double RowsEstimate(const Plan *p, List *rtable) {
    if (p == nullptr) return 0;
    double est = p->plan_rows;
    if (p->lefttree) est = std::max(est, p->lefttree->plan_rows);
    if (p->righttree) est = std::max(est, p->righttree->plan_rows);
    Index rti = 0;
    switch (nodeTag(p)) {
        case T_SeqScan: case T_IndexScan: case T_IndexOnlyScan: case T_BitmapHeapScan: rti = ((const Scan *)p)->scanrelid; break;
        default: break;
    }
    if (rti >= 1 && (int)rti <= list_length(rtable)) {
        RangeTblEntry *rte = rt_fetch(rti, rtable);
        if (rte->rtekind == RTE_RELATION) {
            HeapTuple tp = SearchSysCache1(RELOID, ObjectIdGetDatum(rte->relid));
            if (HeapTupleIsValid(tp)) {
                est = std::max(est, (double)((Form_pg_class)GETSTRUCT(tp))->reltuples);
                ReleaseSysCache(tp);
            }
        }
    }
    return est;
}

// Distinct values of an outer argument when it is a column of the table the node scans, from
// PostgreSQL's statistics (pg_statistic.stadistinct, NULL counted as one more value); 0: unknown.
static double ColumnDistinct(const Plan *p, Expr *e, List *rtable, double rows) {
    while (e && IsA(e, RelabelType)) e = ((RelabelType *)e)->arg;
    if (e == nullptr || !IsA(e, Var) || ((Var *)e)->varattno <= 0) return 0;
    Index rti = 0;
    switch (nodeTag(p)) {
        case T_SeqScan: case T_IndexScan: case T_IndexOnlyScan: case T_BitmapHeapScan: rti = ((const Scan *)p)->scanrelid; break;
        default: return 0;
    }
    const Var *v = (const Var *)e;
    if (v->varno != (int)rti || (int)rti < 1 || (int)rti > list_length(rtable)) return 0;
    RangeTblEntry *rte = rt_fetch(rti, rtable);
    if (rte->rtekind != RTE_RELATION) return 0;
    HeapTuple tp = RNDN_PG_GUARDED(::SearchSysCache3(STATRELATTINH, ObjectIdGetDatum(rte->relid), Int16GetDatum(v->varattno),
                                                     BoolGetDatum(rte->inh)));
    if (!HeapTupleIsValid(tp)) return 0;
    const double d = ((Form_pg_statistic)GETSTRUCT(tp))->stadistinct;
    ReleaseSysCache(tp);
    if (d > 0) return d + 1;
    if (d < 0) return -d * rows + 1;
    return 0;
}

// A correlated scalar aggregate with a correlation that is not `inner = $p` (e.g.
// `t2.i < t1.i`, waiting in Rel::deferred): the distinct tuples of the outer arguments (NULLs
// one value, as @group makes them) are joined with the subquery's rows (on the equalities
// `inner = $p` where there are some, else every pair), the deferred conditions are evaluated on
// the pairs with each parameter read from its key tuple (a NULL parameter makes a comparison
// unknown: no row), the pairs are aggregated per key tuple, and each outer row reads its key
// tuple's result; a key tuple without rows gets the aggregate of no rows (NULL, 0 for count).
// A cross product estimated (PostgreSQL's row counts) over rndn.memory_limit is refused here;
// one that outgrows it at run time runs PostgreSQL's plan (the program's memory check).
Expected<Translator::ThetaPairs> Translator::ThetaJoin(SubPlan *sp, const Plan *inner_plan, const RelP &in,
                                                       const std::vector<int> &ids, const Ctx &ctx, Expr *extra_key) {
    const Plan *node = ctx.node;
    if (list_length(sp->args) != (int)ids.size()) return Unsup(node, "correlated subquery arguments do not match its parameters");
    {
        std::set<int> in_deferred;
        for (int id : ids)
            for (Expr *q : in->deferred)
                if (UsesParams((Node *)q, {id})) in_deferred.insert(id);
        for (int id : ids)
            if (!in->extras.count(id) && !in_deferred.count(id)) return Unsup(node, "correlation not found in the subquery");
    }
    for (Expr *q : in->deferred)
        if (ContainsDivision((Node *)q)) return Unsup(node, "a division in a non-equality correlation");
    std::vector<int> markers;
    for (const auto &kv : in->extras) {
        if (kv.first >= kMarkerBase) markers.push_back(kv.first);
        else if (std::find(ids.begin(), ids.end(), kv.first) == ids.end())
            return Unsup(node, "correlation with a query further out");
    }
    if (!ctx.len_var) return Unsup(node, "subquery where the row count is unknown");
    std::vector<size_t> eq_ids;  // positions in ids of the parameters with an equality
    for (size_t i = 0; i < ids.size(); ++i)
        if (in->extras.count(ids[i])) eq_ids.push_back(i);
    if (eq_ids.empty()) {
        double outer_rows = RowsEstimate(node, stmt_->rtable);
        // fewer distinct key tuples where the statistics know every argument's distinct values
        double keys = 1;
        ListCell *ac;
        foreach (ac, sp->args) {
            const double d = ColumnDistinct(node, (Expr *)lfirst(ac), stmt_->rtable, outer_rows);
            keys = d > 0 && keys > 0 ? keys * d : 0;
        }
        if (keys > 0 && extra_key == nullptr) outer_rows = std::min(outer_rows, keys);
        const double inner_rows = RowsEstimate(inner_plan, stmt_->rtable);
        const double bytes = outer_rows * inner_rows * 8.0 * (double)(4 + ids.size() + markers.size());
        if (bytes > (double)pg::g_settings.memory_limit_mb * 1048576.0)
            return Unsup(node, "non-equality correlation: about " + std::to_string((long long)outer_rows) + " x " +
                                   std::to_string((long long)inner_rows) + " row pairs, over rndn.memory_limit");
    }
    // The outer rows' key tuples, their distinct values, and each row's key number.
    std::vector<Col> okeys;
    std::vector<Op> ovars;
    ListCell *lc;
    foreach (lc, sp->args) {
        RNDN_ASSIGN_OR_RETURN(Col o, X((Expr *)lfirst(lc), ctx));
        RNDN_ASSIGN_OR_RETURN(o, Materialize(o, ctx.len_var));
        okeys.push_back(o);
        ovars.push_back(o.var);
    }
    if (extra_key != nullptr) {
        RNDN_ASSIGN_OR_RETURN(Col o, X(extra_key, ctx));
        RNDN_ASSIGN_OR_RETURN(o, Materialize(o, ctx.len_var));
        okeys.push_back(o);
        ovars.push_back(o.var);
    }
    RNDN_ASSIGN_OR_RETURN(Op lv, ctx.len_var());
    RNDN_ASSIGN_OR_RETURN(Op n, LenOf(lv));
    Op g = Emit(B::GROUP, {KeyList(ovars)});
    Op reps = Emit(B::KEYS, {g});
    Op vals = Emit(B::VALUES, {g});
    Op nd = Emit(B::LEN, {reps});
    Op lens = Emit(B::TOLIST, {Emit(B::RAZE, {Emit(B::EACH, {Fn(B::LEN), vals})})});
    Op numbers = Emit(B::RAZE, {Emit(B::EACH_ITEM, {Fn(B::VECTOR), lens, Emit(B::TOLIST, {Emit(B::RANGE, {nd})})})});
    Op gid = Emit(B::INDEX_A, {Emit(B::VECTOR, {n, b_.I64(0)}), Emit(B::RAZE, {vals}), numbers});
    std::vector<Col> dkeys;
    for (Col o : okeys) {
        o.var = Emit(B::INDEX, {o.var, reps});
        dkeys.push_back(o);
    }
    // Pairs (key tuple li, inner row ri).
    RNDN_ASSIGN_OR_RETURN(Op ilen_v, in->len_var());
    Op li, ri;
    if (!eq_ids.empty()) {
        std::vector<Op> lk, rk;
        for (size_t i : eq_ids) {
            RNDN_ASSIGN_OR_RETURN(Col r, in->extras[ids[i]]->Get());
            RNDN_ASSIGN_OR_RETURN(r, Materialize(r, in->len_var));
            lk.push_back(dkeys[i].var);
            rk.push_back(r.var);
        }
        Op j = Emit(B::JOIN_INDEX, {Fn(B::EQ), KeyList(lk), KeyList(rk)});
        li = Emit(B::INDEX, {j, b_.I64(0)});
        ri = Emit(B::INDEX, {j, b_.I64(1)});
    } else {
        RNDN_ASSIGN_OR_RETURN(Op n2, LenOf(ilen_v));
        Op all = Emit(B::RANGE, {Emit(B::MUL, {nd, n2})});
        Op d = Emit(B::MAX, {Emit(B::APPEND, {n2, b_.I64(1)})});
        li = Emit(B::DIV, {all, d});
        ri = Emit(B::MOD, {all, d});
    }
    if (!in->deferred.empty()) {
        std::vector<int> set_params;
        Status st;
        for (size_t i = 0; i < ids.size(); ++i) {
            Col c = dkeys[i];
            c.var = Emit(B::INDEX, {c.var, li});
            params_[ids[i]] = c;
            set_params.push_back(ids[i]);
        }
        for (int m : markers) {
            auto c = in->extras[m]->Get();
            if (!c.ok()) { st = c.status(); break; }
            auto x = Materialize(c.value(), in->len_var);
            if (!x.ok()) { st = x.status(); break; }
            Col v = x.value();
            v.var = Emit(B::INDEX, {v.var, ri});
            params_[m] = v;
            set_params.push_back(m);
        }
        Op mask;
        if (st.ok()) {
            auto m = DeferredMask(in->deferred, node, li);
            if (m.ok()) mask = m.value(); else st = m.status();
        }
        for (int id : set_params) params_.erase(id);
        if (!st.ok()) return st;
        li = Emit(B::COMPRESS, {mask, li});
        ri = Emit(B::COMPRESS, {mask, ri});
    }
    ThetaPairs tp;
    if (extra_key != nullptr) tp.extra_val = dkeys.back();
    tp.li = li;
    tp.ri = ri;
    tp.nd = nd;
    tp.gid = gid;
    return tp;
}

Expected<Col> Translator::ThetaSubPlan(SubPlan *sp, Agg *agg, RelP in, const std::vector<int> &ids, const Ctx &ctx,
                                       bool bare_count, bool cmp) {
    const Plan *node = ctx.node;
    RNDN_ASSIGN_OR_RETURN(ThetaPairs tp, ThetaJoin(sp, agg->plan.lefttree, in, ids, ctx));
    const Op li = tp.li, ri = tp.ri, nd = tp.nd, gid = tp.gid;
    // The subquery's rows of each pair, grouped by the pair's key number.
    auto stripped = std::make_shared<Rel>(*in);
    stripped->extras.clear();
    stripped->deferred.clear();
    RelP pairs = Take(stripped, ri, false, ConstLen(ri));
    Col keyno;
    keyno.var = li;
    keyno.type = INT8OID;
    pairs->extras[ids[0]] = std::make_shared<LazyCol>([keyno]() -> Expected<Col> { return keyno; });
    RNDN_ASSIGN_OR_RETURN(RelP grouped, AggNode(agg, pairs, {ids[0]}));
    RNDN_ASSIGN_OR_RETURN(Col res, grouped->cols[0]->Get());
    RNDN_ASSIGN_OR_RETURN(res, Materialize(res, grouped->len_var));
    RNDN_ASSIGN_OR_RETURN(Col gk, grouped->extras[ids[0]]->Get());
    if (res.type == NUMERICOID && res.scale < 0) {
        if (!cmp) return Unsup(node, "correlated numeric result of unknown scale");
        res.var = EmitCast(res.var, Dec128(24));
        res.scale = 24;
    }
    Op nl = b_.I64(0);
    if (!bare_count) {
        RNDN_ASSIGN_OR_RETURN(nl, NullLiteral(res, node));
    }
    Op per_key = Emit(B::INDEX_A, {Emit(B::VECTOR, {nd, nl}), gk.var, res.var});
    Col out = res;
    out.scalar = false;
    out.var = Emit(B::INDEX, {per_key, gid});
    return out;
}

Status Translator::InitPlans(Plan *plan) {
    ListCell *lc;
    foreach (lc, plan->initPlan) {
        SubPlan *sp = (SubPlan *)lfirst(lc);
        if (sp->subLinkType == CTE_SUBLINK) continue;  // read by its CTE Scan nodes
        if (sp->subLinkType != EXPR_SUBLINK || sp->parParam != NIL || list_length(sp->setParam) != 1)
            return Unsup(plan, "init plan of this kind");
        if (sp->plan_id < 1 || sp->plan_id > list_length(stmt_->subplans)) return Unsup(plan, "subplan not found");
        Plan *sub = (Plan *)list_nth(stmt_->subplans, sp->plan_id - 1);
        // Exactly one row (PostgreSQL raises for more, gives NULL for none): a plain aggregate.
        if (!IsA(sub, Agg) || ((Agg *)sub)->aggstrategy != AGG_PLAIN || ((Agg *)sub)->numCols != 0 || sub->qual != NIL)
            return Unsup(plan, "init plan that is not a plain aggregate");
        RNDN_ASSIGN_OR_RETURN(RelP r, NodeRel(sub));
        RNDN_ASSIGN_OR_RETURN(Col c, r->cols[0]->Get());
        c.scalar = true;
        params_[linitial_int(sp->setParam)] = c;
    }
    return Status::Ok();
}

Expected<Translator::RelP> Translator::NodeRel(Plan *plan) {
    if (plan == nullptr) return Status::Unsupported("missing plan node");
    // order_free_ holds for this node only (the inner side of a semi or anti join, through
    // pass-through nodes): its row order cannot show in the result.
    const bool order_free = std::exchange(order_free_, false);
    const bool ties_free = std::exchange(ties_free_, false);
    if (plan->initPlan != NIL) RNDN_RETURN_IF_ERROR(InitPlans(plan));
    switch (nodeTag(plan)) {
        case T_SeqScan: {
            SeqScan *s = (SeqScan *)plan;
            return Scan(plan, s->scan.scanrelid, plan->qual);
        }
        case T_BitmapHeapScan: {
            BitmapHeapScan *s = (BitmapHeapScan *)plan;
            List *q = list_concat(list_copy(s->bitmapqualorig), plan->qual);
            return Scan(plan, s->scan.scanrelid, q);
        }
        case T_SubqueryScan: {
            SubqueryScan *s = (SubqueryScan *)plan;
            RNDN_ASSIGN_OR_RETURN(RelP child, NodeRel(s->subplan));
            return ScanOverRel(plan, s->scan.scanrelid, child);
        }
        case T_CteScan: {
            // A CTE referenced more than once (or MATERIALIZED): its plan is translated at each
            // reference, and Emit's common-subexpression table makes the statements shared.
            CteScan *c = (CteScan *)plan;
            if (c->ctePlanId < 1 || c->ctePlanId > list_length(stmt_->subplans)) return Unsup(plan, "CTE plan not found");
            RNDN_ASSIGN_OR_RETURN(RelP child, NodeRel((Plan *)list_nth(stmt_->subplans, c->ctePlanId - 1)));
            if (!child->extras.empty() || !child->deferred.empty()) return Unsup(plan, "correlated CTE");
            return ScanOverRel(plan, c->scan.scanrelid, child);
        }
        case T_ValuesScan: {
            // VALUES of constants: one vector literal per column.
            ValuesScan *vs = (ValuesScan *)plan;
            if (vs->values_lists == NIL) return Unsup(plan, "empty VALUES");
            const int ncols = list_length((List *)linitial(vs->values_lists));
            auto cols = std::make_shared<std::vector<Col>>();
            for (int k = 0; k < ncols; ++k) {
                Oid type = InvalidOid;
                std::vector<Const *> consts;
                ListCell *lc;
                foreach (lc, vs->values_lists) {
                    List *row = (List *)lfirst(lc);
                    Node *e = (Node *)list_nth(row, k);
                    while (IsA(e, RelabelType)) e = (Node *)((RelabelType *)e)->arg;
                    if (!IsA(e, Const)) return Unsup(plan, "VALUES with a non-constant expression");
                    consts.push_back((Const *)e);
                    type = exprType((Node *)list_nth(row, k));
                }
                int scale = -1;
                std::vector<Datum> values;
                std::vector<bool> nulls;
                const Oid ctype = consts[0]->consttype;  // the values' own type (type may relabel it)
                for (Const *c : consts) {
                    if (c->consttype != ctype) return Unsup(plan, "VALUES column of mixed types");
                    if (type == NUMERICOID && !c->constisnull) {
                        Expected<int> sc = pg::NumericDatumScale((uintptr_t)c->constvalue);
                        if (!sc.ok()) return Unsup(plan, "constant: " + sc.status().message());
                        if (scale >= 0 && sc.value() != scale) return Unsup(plan, "VALUES numerics of different scales");
                        scale = sc.value();
                    }
                    values.push_back(c->constvalue);
                    nulls.push_back(c->constisnull);
                }
                if (type == NUMERICOID && scale < 0) scale = 0;
                auto t = HirType(type, scale);
                if (!t) return Unsup(plan, "VALUES column of type " + TypeName(type));
                if (HirType(ctype, scale) != t) return Unsup(plan, "VALUES of type " + TypeName(ctype) + " as " + TypeName(type));
                Col c;
                c.type = type;
                c.scale = type == NUMERICOID ? scale : -1;
                RNDN_ASSIGN_OR_RETURN(Op vec, VectorLiteral(ctype, values, nulls, scale, plan));
                c.var = Emit(hir::Builder::Use(vec));
                cols->push_back(c);
            }
            Ctx ctx;
            ctx.node = plan;
            ctx.scanrelid = vs->scan.scanrelid;
            ctx.scan_col = [cols, plan](AttrNumber a) -> Expected<Col> {
                if (a < 1 || a > (int)cols->size()) return Unsup(plan, "column out of range");
                return (*cols)[a - 1];
            };
            ctx.len_var = ConstLen((*cols)[0].var);
            return FilterAndProject(plan, ctx, plan->qual);
        }
        case T_Append: {
            Append *a = (Append *)plan;
            if (a->part_prune_info != nullptr) return Unsup(plan, "run-time partition pruning");
            return AppendRels(plan, a->appendplans);
        }
        case T_MergeAppend: {
            MergeAppend *m = (MergeAppend *)plan;
            if (m->part_prune_info != nullptr) return Unsup(plan, "run-time partition pruning");
            RNDN_ASSIGN_OR_RETURN(RelP all, AppendRels(plan, m->mergeplans));
            return SortNode(plan, m->numCols, m->sortColIdx, m->sortOperators, m->collations, m->nullsFirst, all);
        }
        case T_Result: {
            Result *r = (Result *)plan;
            if (r->resconstantqual != nullptr) return Unsup(plan, "constant qual (one-time filter)");
            if (plan->lefttree == nullptr) return Unsup(plan, "Result without input");
            order_free_ = order_free;
            ties_free_ = ties_free;
            RNDN_ASSIGN_OR_RETURN(RelP child, NodeRel(plan->lefttree));
            return ProjectOver(plan, child, plan->qual);
        }
        case T_IndexScan: {
            IndexScan *s = (IndexScan *)plan;
            if (s->indexorderbyorig != NIL) return Unsup(plan, "ORDER BY distance");
            List *q = list_concat(list_copy(s->indexqualorig), plan->qual);
            return IndexScanNode(plan, s->indexid, s->scan.scanrelid, q, nullptr, s->indexorderdir, order_free);
        }
        case T_IndexOnlyScan: {
            IndexOnlyScan *s = (IndexOnlyScan *)plan;
            if (s->indexorderby != NIL) return Unsup(plan, "ORDER BY distance");
            List *q = list_concat(list_copy(s->indexqual), plan->qual);
            return IndexScanNode(plan, s->indexid, s->scan.scanrelid, q, s->indextlist, s->indexorderdir, order_free);
        }
        case T_Memoize:
        case T_Material:
        case T_Hash:
        case T_Gather:
        case T_GatherMerge: {
            if (IsA(plan, Gather) && ((Gather *)plan)->initParam != nullptr) return Unsup(plan, "init plan params");
            order_free_ = order_free;
            ties_free_ = ties_free;
            RNDN_ASSIGN_OR_RETURN(RelP child, NodeRel(plan->lefttree));
            return ProjectOver(plan, child, plan->qual);
        }
        case T_Agg: {
            // An aggregate whose results do not depend on its rows' order: a plain, hashed
            // (PostgreSQL's group order is the hash table's, which no input order reproduces)
            // or unobserved one frees its input's order; a sorted one (groups in their first
            // row's order, that is the sort's) frees only the order among the sort's ties, so
            // the input of the Sort below it is free.
            Agg *a = (Agg *)plan;
            if (a->groupingSets == NIL && a->aggstrategy != AGG_MIXED && OrderInsensitiveAgg(a)) {
                if (order_free || a->aggstrategy != AGG_SORTED) order_free_ = true;
                else ties_free_ = true;
            }
            RNDN_ASSIGN_OR_RETURN(RelP child, NodeRel(plan->lefttree));
            return AggNode((Agg *)plan, child);
        }
        case T_Group: {
            Group *g = (Group *)plan;
            RNDN_ASSIGN_OR_RETURN(RelP child, NodeRel(plan->lefttree));
            RNDN_ASSIGN_OR_RETURN(RelP u, UniqueNode(plan, g->numCols, g->grpColIdx, child));
            return ProjectOver(plan, u, plan->qual);
        }
        case T_Sort:
        case T_IncrementalSort: {
            // IncrementalSort's first member is its Sort: the whole input is sorted either way.
            Sort *s = IsA(plan, Sort) ? (Sort *)plan : &((IncrementalSort *)plan)->sort;
            // Whatever order the sort's input has, its output is the same up to ties.
            order_free_ = order_free || ties_free;
            RNDN_ASSIGN_OR_RETURN(RelP child, NodeRel(plan->lefttree));
            if (order_free) return ProjectOver(plan, child, nullptr);  // nobody sees the order
            RNDN_ASSIGN_OR_RETURN(RelP sorted, SortNode(plan, s->numCols, s->sortColIdx, s->sortOperators, s->collations, s->nullsFirst, child));
            return ProjectOver(plan, sorted, nullptr);
        }
        case T_Limit: {
            if (const Plan *join = HugeJoinUnderLimit(plan))
                return Unsup(plan, "LIMIT over a join of about " + std::to_string((int64_t)join->plan_rows) +
                                       " rows (PostgreSQL stops early)");
            // Top-N: a LIMIT k OFFSET m (constants) right above a Sort needs only the first k + m
            // rows of the order; @order_top selects them and sorts only those.
            Limit *limit = (Limit *)plan;
            Plan *below = plan->lefttree;
            if (below != nullptr && IsA(below, Sort) && below->initPlan == NIL && limit->limitOption == LIMIT_OPTION_COUNT &&
                limit->limitCount != nullptr && IsA(limit->limitCount, Const) && !((Const *)limit->limitCount)->constisnull &&
                ((Const *)limit->limitCount)->consttype == INT8OID &&
                (limit->limitOffset == nullptr ||
                 (IsA(limit->limitOffset, Const) && ((Const *)limit->limitOffset)->consttype == INT8OID))) {
                const int64_t k = DatumGetInt64(((Const *)limit->limitCount)->constvalue);
                int64_t m = 0;
                if (limit->limitOffset != nullptr && !((Const *)limit->limitOffset)->constisnull)
                    m = DatumGetInt64(((Const *)limit->limitOffset)->constvalue);
                int64_t top;
                if (k >= 0 && m >= 0 && !__builtin_add_overflow(k, m, &top)) {
                    Sort *s = (Sort *)below;
                    RNDN_ASSIGN_OR_RETURN(RelP child, NodeRel(below->lefttree));
                    RNDN_ASSIGN_OR_RETURN(RelP sorted, SortNode(below, s->numCols, s->sortColIdx, s->sortOperators, s->collations,
                                                                s->nullsFirst, child, top));
                    RNDN_ASSIGN_OR_RETURN(RelP sp, ProjectOver(below, sorted, nullptr));
                    RNDN_ASSIGN_OR_RETURN(RelP lim, LimitNode(limit, sp));
                    return ProjectOver(plan, lim, nullptr);
                }
            }
            RNDN_ASSIGN_OR_RETURN(RelP child, NodeRel(plan->lefttree));
            RNDN_ASSIGN_OR_RETURN(RelP lim, LimitNode((Limit *)plan, child));
            return ProjectOver(plan, lim, nullptr);
        }
        case T_Unique: {
            Unique *u = (Unique *)plan;
            RNDN_ASSIGN_OR_RETURN(RelP child, NodeRel(plan->lefttree));
            RNDN_ASSIGN_OR_RETURN(RelP uq, UniqueNode(plan, u->numCols, u->uniqColIdx, child));
            return ProjectOver(plan, uq, nullptr);
        }
        case T_WindowAgg: {
            RNDN_ASSIGN_OR_RETURN(RelP child, NodeRel(plan->lefttree));
            return WindowAggNode((WindowAgg *)plan, child);
        }
        case T_SetOp: {
            RNDN_ASSIGN_OR_RETURN(RelP child, NodeRel(plan->lefttree));
            RNDN_ASSIGN_OR_RETURN(RelP r, SetOpNode((SetOp *)plan, child));
            return ProjectOver(plan, r, nullptr);
        }
        case T_HashJoin: return JoinNode((Join *)plan, ((HashJoin *)plan)->hashclauses, {}, order_free);
        case T_MergeJoin: return JoinNode((Join *)plan, ((MergeJoin *)plan)->mergeclauses, {}, order_free);
        case T_NestLoop: {
            NestLoop *nl = (NestLoop *)plan;
            if (nl->nestParams == NIL) return JoinNode((Join *)plan, NIL, {}, order_free);
            // A parameterized inner side: its `col = $p` conditions become join keys (JoinNode
            // translates the inner side with the parameters being decorrelated).
            std::vector<std::pair<Expr *, int>> keys;
            ListCell *lc;
            foreach (lc, nl->nestParams) {
                NestLoopParam *p = (NestLoopParam *)lfirst(lc);
                keys.emplace_back((Expr *)p->paramval, p->paramno);
            }
            return JoinNode((Join *)plan, NIL, keys, order_free);
        }
        default: return Unsup(plan, "node type not translated");
    }
}

// A scan node whose "relation" is another plan's output (subquery, CTE): its Vars of
// scanrelid name the child's columns by position.
Expected<Translator::RelP> Translator::ScanOverRel(Plan *plan, Index scanrelid, RelP child) {
    Ctx ctx;
    ctx.node = plan;
    ctx.scanrelid = scanrelid;
    ctx.scan_col = [child, plan](AttrNumber a) -> Expected<Col> {
        if (a < 1 || a > (int)child->cols.size()) return Unsup(plan, "column out of range");
        return child->cols[a - 1]->Get();
    };
    ctx.len_var = child->len_var;
    return FilterAndProject(plan, ctx, plan->qual);
}

Expected<Translator::RelP> Translator::AppendRels(Plan *plan, List *children) {
    if (children == NIL) return Unsup(plan, "no input");
    std::vector<RelP> rels;
    ListCell *lc;
    foreach (lc, children) {
        RNDN_ASSIGN_OR_RETURN(RelP r, NodeRel((Plan *)lfirst(lc)));
        if (!r->extras.empty() || !r->deferred.empty()) return Unsup(plan, "correlated input");
        rels.push_back(r);
    }
    const int ncols = list_length(plan->targetlist);
    if (ncols == 0) return Unsup(plan, "no output columns");
    for (const RelP &r : rels)
        if ((int)r->cols.size() < ncols) return Unsup(plan, "input with fewer columns");
    auto out = std::make_shared<Rel>();
    for (int k = 0; k < ncols; ++k) {
        TargetEntry *te = (TargetEntry *)list_nth(plan->targetlist, k);
        const Oid type = exprType((Node *)te->expr);
        out->cols.push_back(std::make_shared<LazyCol>([this, rels, k, plan, type]() -> Expected<Col> {
            std::optional<Col> acc;
            for (const RelP &r : rels) {
                RNDN_ASSIGN_OR_RETURN(Col c, r->cols[(size_t)k]->Get());
                RNDN_ASSIGN_OR_RETURN(c, Materialize(c, r->len_var));
                if (c.type != type) return Unsup(plan, "inputs of different types");
                if (!acc) {
                    acc = c;
                    continue;
                }
                if (type == NUMERICOID && c.scale != acc->scale) return Unsup(plan, "numeric inputs of different scales");
                acc->var = Emit(B::APPEND, {acc->var, c.var});
                if (c.typmod != acc->typmod) acc->typmod = -1;
            }
            return *acc;
        }));
    }
    out->len_var = [first = out->cols[0]]() -> Expected<Op> {
        RNDN_ASSIGN_OR_RETURN(Col c, first->Get());
        return c.var;
    };
    return out;
}

Expected<Translation> Translator::Run(Plan *root) {
    // the hook tries subtrees of what rndn refused: not the join a LIMIT stops early
    bool limited = UnderHugeJoinLimit(stmt_->planTree, root);
    ListCell *sc;
    foreach (sc, stmt_->subplans) limited = limited || UnderHugeJoinLimit((const Plan *)lfirst(sc), root);
    if (limited) return Unsup(root, "a join under a LIMIT that PostgreSQL stops early");
    bool nondeterministic = PlanUsesNondeterministic(root);
    foreach (sc, stmt_->subplans) nondeterministic = nondeterministic || PlanUsesNondeterministic((Plan *)lfirst(sc));
    if (nondeterministic) return Unsup(root, "text under a nondeterministic collation");
    ScanNumericParams(root);
    RNDN_ASSIGN_OR_RETURN(RelP rel, NodeRel(root));
    std::vector<Op> cols;
    int i = 0;
    ListCell *lc;
    foreach (lc, root->targetlist) {
        TargetEntry *te = (TargetEntry *)lfirst(lc);
        const Oid type = exprType((Node *)te->expr);
        if (!HirType(type, 0)) return Unsup(root, "output column of type " + TypeName(type));
        // char(n) values are loaded without their blank padding, and the executor pads them
        // back to the output column's declared length.  An output with no declared length
        // (max(c), coalesce(c, 'q'), CASE or UNION over different lengths) prints each value
        // with its own padding, which the program no longer has.
        if (type == BPCHAROID && exprTypmod((Node *)te->expr) < (int32)VARHDRSZ)
            return Unsup(root, "char(n) output without a declared length (blank padding)");
        RNDN_ASSIGN_OR_RETURN(Col c, rel->cols[i]->Get());
        RNDN_ASSIGN_OR_RETURN(c, Materialize(c, rel->len_var));
        cols.push_back(c.var);
        ++i;
    }
    if (cols.empty()) return Unsup(root, "no output columns");
    std::vector<std::string> names;
    for (size_t k = 0; k < cols.size(); ++k) names.push_back("c" + std::to_string(k));
    Op lv = Emit(B::LIST, cols);
    Op t = Emit(B::TABLE, {b_.Syms(names), lv});
    if (pg::g_settings.test_ill_typed)  // rndn.test_ill_typed_program: an ill-typed statement before the return
        b_.Assign("rndn_ill", hir::Type(hir::TypeKind::I64), b_.Call(B::PLUS, {b_.I64(1), b_.Sym("rndn")}));
    b_.Return({t});
    Expected<hir::Program> program = b_.Finish();
    if (!program.ok()) return Unsup(root, "HorseIR program: " + program.status().message());
    Translation out;
    out.program_value = std::make_shared<hir::Program>(std::move(program.value()));
    out.relations = rels_;
    out.ascii_guard = ascii_guard_;
    if (tz_used_) out.timezone = pg::TimeZoneKey();
    out.float_text_guard = float_text_guard_;
    out.iso_date_guard = iso_date_guard_;
    out.interval_style_guard = interval_style_guard_;
    for (const std::string &r : summary_order_) {
        if (!out.summary.empty()) out.summary += ", ";
        out.summary += summary_cols_[r] + ")";
    }
    return out;
}

}  // namespace rndn::plan::internal

namespace rndn::plan {

Expected<Translation> TranslatePlan(PlannedStmt *stmt, Plan *plan) {
    internal::Translator t(stmt);
    Expected<Translation> tr = t.Run(plan);
    if (!tr.ok()) return tr;
    // Plan-time check: a program the HorseIR checker (or shape inference) rejects never becomes
    // a Custom Scan; the query stays on PostgreSQL's plan with the checker's message.
    RNDN_RETURN_IF_ERROR(CheckProgram(tr.value()));
    return tr;
}

const char *PlanNodeName(const Plan *plan) {
    if (plan == nullptr) return "(none)";
    switch (nodeTag(plan)) {
        case T_SeqScan: return "Seq Scan";
        case T_IndexScan: return "Index Scan";
        case T_IndexOnlyScan: return "Index Only Scan";
        case T_BitmapHeapScan: return "Bitmap Heap Scan";
        case T_SubqueryScan: return "Subquery Scan";
        case T_CteScan: return "CTE Scan";
        case T_FunctionScan: return "Function Scan";
        case T_ValuesScan: return "Values Scan";
        case T_Result: return "Result";
        case T_Agg: return "Aggregate";
        case T_Group: return "Group";
        case T_Sort: return "Sort";
        case T_IncrementalSort: return "Incremental Sort";
        case T_Limit: return "Limit";
        case T_Unique: return "Unique";
        case T_HashJoin: return "Hash Join";
        case T_MergeJoin: return "Merge Join";
        case T_NestLoop: return "Nested Loop";
        case T_Hash: return "Hash";
        case T_Material: return "Materialize";
        case T_Memoize: return "Memoize";
        case T_Gather: return "Gather";
        case T_GatherMerge: return "Gather Merge";
        case T_Append: return "Append";
        case T_MergeAppend: return "Merge Append";
        case T_SetOp: return "SetOp";
        case T_WindowAgg: return "WindowAgg";
        case T_ModifyTable: return "ModifyTable";
        case T_LockRows: return "LockRows";
        case T_CustomScan: return "Custom Scan";
        default: return "plan node";
    }
}

}  // namespace rndn::plan
