// The planner hook: standard planning, then the largest translatable subtrees become
// Custom Scan (rndn).  Also the EXPLAIN hook that prints fallback reasons, and the planning
// half of rndn_horseir().
extern "C" {
#include "postgres.h"

#include "catalog/pg_class.h"
#include "commands/explain.h"
#include "executor/executor.h"
#include "executor/instrument.h"
#include "miscadmin.h"
#include "nodes/extensible.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "nodes/plannodes.h"
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "optimizer/planner.h"
#include "parser/parsetree.h"
#include "portability/instr_time.h"
#include "tcop/tcopprot.h"
#include "tcop/utility.h"
#include "utils/builtins.h"
#include "access/xact.h"
#include "commands/extension.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"

PGDLLEXPORT Datum rndn_horseir(PG_FUNCTION_ARGS);
PG_FUNCTION_INFO_V1(rndn_horseir);
}

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "pg_base/boundary.h"
#include "pg_base/guc.h"
#include "pg_base/pg_call.h"
#include "pg_base/plan_node.h"
#include "planner_hook/planner_hook.h"
#include "planner_hook/translate.h"

namespace rndn::plan {
namespace {

planner_hook_type g_prev_planner = nullptr;
ExplainOneQuery_hook_type g_prev_explain = nullptr;

int g_last_plan_node_id = 0;  // highest plan_node_id of the statement being rewritten

int MaxPlanNodeId(Plan *plan) {
    if (plan == nullptr) return 0;
    int m = plan->plan_node_id;
    m = std::max(m, MaxPlanNodeId(plan->lefttree));
    m = std::max(m, MaxPlanNodeId(plan->righttree));
    if (IsA(plan, SubqueryScan)) m = std::max(m, MaxPlanNodeId(((SubqueryScan *)plan)->subplan));
    ListCell *lc;
    if (IsA(plan, Append)) foreach (lc, ((Append *)plan)->appendplans) m = std::max(m, MaxPlanNodeId((Plan *)lfirst(lc)));
    if (IsA(plan, MergeAppend)) foreach (lc, ((MergeAppend *)plan)->mergeplans) m = std::max(m, MaxPlanNodeId((Plan *)lfirst(lc)));
    if (IsA(plan, CustomScan)) foreach (lc, ((CustomScan *)plan)->custom_plans) m = std::max(m, MaxPlanNodeId((Plan *)lfirst(lc)));
    return m;
}

int MaxPlanNodeId(PlannedStmt *stmt) {
    int m = MaxPlanNodeId(stmt->planTree);
    ListCell *lc;
    foreach (lc, stmt->subplans) m = std::max(m, MaxPlanNodeId((Plan *)lfirst(lc)));
    return m;
}

// Whether CREATE EXTENSION rndn has run in this database.  rndn preloaded into a database
// without the extension leaves every plan to PostgreSQL (as extensions with a preload part and
// SQL objects do).  Cached: the extension's objects are functions, so its presence changes only
// together with pg_proc, whose syscache invalidations (and any full cache reset) clear the cache.
enum class ExtensionState { UNKNOWN, PRESENT, ABSENT };
ExtensionState g_extension = ExtensionState::UNKNOWN;

void InvalidateExtensionState(Datum, int, uint32) { g_extension = ExtensionState::UNKNOWN; }

// Call only from a frame without live C++ objects: the catalog lookup may raise.
bool ExtensionPresent() {
    if (g_extension == ExtensionState::UNKNOWN) {
        if (!IsTransactionState()) return false;
        g_extension = OidIsValid(get_extension_oid("rndn", true)) ? ExtensionState::PRESENT : ExtensionState::ABSENT;
    }
    return g_extension == ExtensionState::PRESENT;
}

// Fallback reasons of the most recent planning (POD: survives a longjmp).
char g_reasons[4096];

void AddReason(const std::string &r) {
    const size_t used = strlen(g_reasons);
    if (used + r.size() + 2 >= sizeof(g_reasons)) return;
    if (used) strcat(g_reasons, "\n");
    strcat(g_reasons, r.c_str());
}

bool TouchesSystemCatalog(PlannedStmt *stmt) {
    ListCell *lc;
    foreach (lc, stmt->rtable) {
        RangeTblEntry *rte = (RangeTblEntry *)lfirst(lc);
        if (rte->rtekind == RTE_RELATION && rte->relid < FirstNormalObjectId) return true;
    }
    return false;
}

// For EXPLAIN: the expression `e` of `plan`'s targetlist rewritten over base-table columns
// (following OUTER/INNER/INDEX references down the replaced subtree), or null when it involves
// aggregates, subqueries or parameters.
struct DisplayCtx {
    Plan *plan;
    bool ok;
};
Node *ResolveForDisplay(Node *n, DisplayCtx *ctx);

Node *ResolveVar(Plan *plan, Var *v, DisplayCtx *ctx) {
    Plan *child = nullptr;
    List *tlist = nullptr;
    if (v->varno == OUTER_VAR) child = plan->lefttree;
    else if (v->varno == INNER_VAR) child = plan->righttree;
    if (child != nullptr) tlist = child->targetlist;
    if (v->varno == INDEX_VAR && IsA(plan, IndexOnlyScan)) tlist = ((IndexOnlyScan *)plan)->indextlist;
    if (IsA(plan, SubqueryScan) && v->varno == (int)((Scan *)plan)->scanrelid) {
        child = ((SubqueryScan *)plan)->subplan;
        tlist = child->targetlist;
    }
    if (tlist == nullptr) {
        if (IS_SPECIAL_VARNO(v->varno)) ctx->ok = false;
        return (Node *)copyObjectImpl(v);
    }
    if (v->varattno < 1 || v->varattno > list_length(tlist)) {
        ctx->ok = false;
        return (Node *)copyObjectImpl(v);
    }
    DisplayCtx sub{child ? child : plan, true};
    Node *r = ResolveForDisplay((Node *)((TargetEntry *)list_nth(tlist, v->varattno - 1))->expr, &sub);
    if (!sub.ok) ctx->ok = false;
    return r;
}

Node *ResolveForDisplay(Node *n, DisplayCtx *ctx) {
    if (n == nullptr || !ctx->ok) return n;
    if (IsA(n, Var)) return ResolveVar(ctx->plan, (Var *)n, ctx);
    if (IsA(n, Aggref) || IsA(n, SubPlan) || IsA(n, AlternativeSubPlan) || IsA(n, Param) || IsA(n, GroupingFunc) ||
        IsA(n, WindowFunc)) {
        ctx->ok = false;
        return n;
    }
    return expression_tree_mutator(n, (Node * (*)(void))(void *)ResolveForDisplay, (void *)ctx);
}

// The CustomScan that replaces `plan`, producing exactly plan's targetlist.
// Only PostgreSQL calls (node building, palloc): run it through PgCall.
CustomScan *MakeScan(Plan *plan, const char *program, const char *relations, const char *summary, const char *flags,
                     const char *timezone, double translate_ms, double cost) {
    CustomScan *cs = makeNode(CustomScan);
    Plan *p = &cs->scan.plan;
    // Everything runs at the first fetch: the whole cost is start-up cost.
    p->startup_cost = cost;
    p->total_cost = cost;
    p->plan_rows = plan->plan_rows;
    p->plan_width = plan->plan_width;
    p->parallel_aware = false;
    p->parallel_safe = false;
    p->async_capable = false;
    p->plan_node_id = ++g_last_plan_node_id;
    List *tlist = NIL, *scan_tlist = NIL;
    ListCell *lc;
    AttrNumber i = 1;
    foreach (lc, plan->targetlist) {
        TargetEntry *te = (TargetEntry *)lfirst(lc);
        const Oid type = exprType((Node *)te->expr);
        const int32 typmod = exprTypmod((Node *)te->expr);
        const Oid coll = exprCollation((Node *)te->expr);
        Var *v = makeVar(INDEX_VAR, i, type, typmod, coll, 0);
        TargetEntry *nte = makeTargetEntry((Expr *)v, i, te->resname ? pstrdup(te->resname) : nullptr, te->resjunk);
        nte->ressortgroupref = te->ressortgroupref;
        tlist = lappend(tlist, nte);
        // The scan tuple's columns, as EXPLAIN shows them: the column or expression they come
        // from when that can be said in terms of the tables, else a typed NULL.
        DisplayCtx dctx{plan, true};
        Node *shown = ResolveForDisplay((Node *)te->expr, &dctx);
        if (!dctx.ok || shown == nullptr) shown = (Node *)makeNullConst(type, typmod, coll);
        scan_tlist = lappend(scan_tlist, makeTargetEntry((Expr *)shown, i, te->resname ? pstrdup(te->resname) : nullptr, false));
        ++i;
    }
    p->targetlist = tlist;
    p->qual = NIL;
    p->lefttree = p->righttree = nullptr;
    p->initPlan = NIL;
    p->extParam = nullptr;
    p->allParam = nullptr;
    cs->scan.scanrelid = 0;
    cs->flags = CUSTOMPATH_SUPPORT_BACKWARD_SCAN | CUSTOMPATH_SUPPORT_MARK_RESTORE;
    cs->custom_exprs = NIL;
    char ms[32];
    std::snprintf(ms, sizeof ms, "%.3f", translate_ms);
    cs->custom_private = list_make5(makeString(pstrdup(program)), makeString(pstrdup(relations)),
                                    makeString(pstrdup(summary)), makeString(pstrdup(ms)),
                                    makeString(pstrdup(flags)));
    cs->custom_private = lappend(cs->custom_private, makeString(pstrdup(timezone)));
    // PostgreSQL's own plan, run by the executor only if the program cannot run after all.
    cs->custom_plans = list_make1(plan);
    cs->custom_scan_tlist = scan_tlist;
    cs->custom_relids = nullptr;
    cs->methods = rndn::pg::ScanMethods();
    return cs;
}

// A first cost model of rndn's plan for a subtree, in PostgreSQL's cost units.  For each relation
// it reads, rndn pays for the program's work on the values it reads (per tuple and per value),
// and, unless a column cache holds those columns (asked through pg::CacheProbe: this backend's
// cache, the shared one or its column files, under a key that still holds), for reading every
// page and deforming every tuple (PostgreSQL's own per-page and per-tuple costs); then a fixed
// start-up (translation, parsing, the device's set-up) and its rows as tuples.  PostgreSQL's
// estimate for the same subtree is plan->total_cost; a selective index scan or a LIMIT over an
// index costs PostgreSQL far less than reading the table, so it stays there.  Calibration (TPC-H
// SF 1, this 2-core machine): a load from the heap costs about what PostgreSQL's own sequential
// scan of the relation costs, and the program on cached columns takes a fifth to a twentieth of
// PostgreSQL's time; the cached cost (tuples x (cpu_operator_cost + values x kValueCost)) is a
// third to a tenth of a plain scan's cost, so rndn is chosen on cached columns only where
// PostgreSQL's plan reads most of the relation.
constexpr double kStartupCost = 100.0;
constexpr double kValueCost = 0.001;

// pages and tuples of a relation from pg_class (estimated like the planner does for a table
// never analyzed).  The syscache lookup is guarded.
void RelationSize(Oid relid, double *pages, double *tuples) {
    *pages = 0;
    *tuples = 0;
    rndn::pg::PgCall([relid, pages, tuples] {
        HeapTuple tp = SearchSysCache1(RELOID, ObjectIdGetDatum(relid));
        if (!HeapTupleIsValid(tp)) return;
        const Form_pg_class c = (Form_pg_class)GETSTRUCT(tp);
        *pages = c->relpages;
        *tuples = c->reltuples;
        ReleaseSysCache(tp);
    });
    if (*pages < 10) *pages = 10;  // as the planner assumes for a table never vacuumed
    if (*tuples < 0) *tuples = *pages * (BLCKSZ / 64.0);
}

struct RndnCost {
    double now = 0;        // with the caches as they are
    double if_cached = 0;  // with every relation's columns cached
    std::vector<const RelationRead *> uncached;  // relations read from the heap
};

// The caches' answers during one Rewrite: every subtree tried asks about the relations below it
// again, and each answer reads the visibility map.
std::map<std::pair<unsigned, std::vector<int>>, bool> g_probe_memo;

bool ProbeCached(const rndn::pg::ColumnCacheProbe &probe, const RelationRead &r) {
    auto key = std::make_pair(r.relid, r.attnums);
    auto it = g_probe_memo.find(key);
    if (it != g_probe_memo.end()) return it->second;
    const bool cached = probe.cached(r.relid, r.attnums);
    g_probe_memo.emplace(std::move(key), cached);
    return cached;
}

RndnCost EstimateRndnCost(const Translation &t, const Plan *plan) {
    RndnCost c;
    c.now = c.if_cached = kStartupCost + plan->plan_rows * cpu_tuple_cost;
    const rndn::pg::ColumnCacheProbe &probe = rndn::pg::CacheProbe();
    for (const RelationRead &r : t.relations) {
        double pages = 0, tuples = 0;
        RelationSize(r.relid, &pages, &tuples);
        const double work = tuples * (cpu_operator_cost + (double)r.attnums.size() * kValueCost);
        const double load = pages * seq_page_cost + tuples * cpu_tuple_cost;
        c.if_cached += work;
        // (under rndn.force the costs decide nothing: the caches are not asked)
        const bool cached = !rndn::pg::g_settings.force && probe.cached != nullptr && ProbeCached(probe, r);
        c.now += work + (cached ? 0 : load);
        if (!cached) c.uncached.push_back(&r);
    }
    return c;
}

struct RewriteResult {
    int replaced = 0;     // subtrees replaced by Custom Scan (rndn)
    double saving = 0;    // PostgreSQL's estimate minus rndn's, summed over them
    // What rndn would save with every column cached: over the replaced subtrees and those left
    // to PostgreSQL only for their loads (not counting such a subtree's descendants twice).
    double saving_if_cached = 0;
    // Relations (relid -> columns) read from the heap by subtrees left to PostgreSQL only for
    // their loads, and by replaced subtrees.
    std::map<unsigned, std::vector<int>> wanted, loaded;
};

void NoteRelations(std::map<unsigned, std::vector<int>> *into, const std::vector<const RelationRead *> &rels) {
    for (const RelationRead *r : rels) {
        std::vector<int> &cols = (*into)[r->relid];
        std::vector<int> merged;
        std::set_union(cols.begin(), cols.end(), r->attnums.begin(), r->attnums.end(), std::back_inserter(merged));
        cols = std::move(merged);
    }
}

// Asks for the relations' columns to be loaded into the shared cache in the background
// (rndn.background_load); one reason line names those asked for.
void LoadInBackground(const std::map<unsigned, std::vector<int>> &rels) {
    const rndn::pg::ColumnCacheProbe &probe = rndn::pg::CacheProbe();
    if (rels.empty() || probe.load_in_background == nullptr || !rndn::pg::g_settings.background_load ||
        rndn::pg::g_settings.force)
        return;
    const rndn::pg::Outcome out = rndn::pg::RunGuarded([&]() -> Status {
        std::string names;
        for (const auto &[relid, cols] : rels) {
            if (!probe.load_in_background(relid, cols)) continue;
            const char *name = rndn::pg::PgCall([relid = relid] { return get_rel_name(relid); });
            if (name == nullptr) continue;
            names += names.empty() ? "" : ", ";
            names += name;
        }
        if (!names.empty()) AddReason("columns of " + names + " are being loaded into the shared column cache in the background");
        return Status::Ok();
    });
    if (out.pg_error != nullptr) rndn::pg::RaiseIfError(out);
}

// Tries `*slot` whole; on failure (or when PostgreSQL's plan is expected faster) records the
// reason and tries its children.  `cap`: what the nodes above spend on this subtree at most (a
// LIMIT reads only part of its input: a subtree costs PostgreSQL no more than its parent).
// `under_wanted`: an ancestor was left to PostgreSQL only for its loads (its saving with the
// columns cached is counted already).
void ReplaceSubtrees(PlannedStmt *stmt, Plan **slot, bool allow_here, RewriteResult *res, double cap, bool under_wanted = false) {
    Plan *plan = *slot;
    if (plan == nullptr) return;
    const double pg_cost = std::min(plan->total_cost, cap);
    // Below rndn's start-up cost PostgreSQL is faster whatever the subtree: not even translated
    // (an index lookup or a LIMIT 1 over an index costs nothing to plan around).
    if (!rndn::pg::g_settings.force && pg_cost <= kStartupCost) {
        char why[160];
        std::snprintf(why, sizeof why, "%s stays with PostgreSQL: its plan is expected faster (cost %.0f, rndn's start-up %.0f)",
                      PlanNodeName(plan), pg_cost, kStartupCost);
        AddReason(why);
        return;
    }
    // A Hash Join needs its Hash node itself (the executor builds the table through it); a
    // Custom Scan may replace what lies below it.
    if (IsA(plan, Hash)) allow_here = false;
    // A bare sequential scan has nothing to offload: leave it to PostgreSQL.
    if (IsA(plan, SeqScan) && plan->qual == NIL && slot != &stmt->planTree) allow_here = false;
    if (allow_here) {
        const auto t0 = std::chrono::steady_clock::now();
        Expected<Translation> t = TranslatePlan(stmt, plan);
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        if (t.ok()) {
            const RndnCost rc = EstimateRndnCost(t.value(), plan);
            const double cost = rc.now;
            if (rndn::pg::g_settings.force || cost < pg_cost) {
                res->replaced++;
                res->saving += pg_cost - cost;
                if (!under_wanted) res->saving_if_cached += pg_cost - rc.if_cached;
                NoteRelations(&res->loaded, rc.uncached);
                const Translation &tr = t.value();
                const std::string rels = SerializeRelations(tr.relations);
                *slot = (Plan *)rndn::pg::PgCall([&] {
                    {
                        // the run-time guards, comma-separated (custom_scan.cpp reads them)
                        std::string flags = tr.ascii_guard ? "ascii" : "";
                        if (tr.float_text_guard) flags += flags.empty() ? "float_text" : ",float_text";
                        if (tr.iso_date_guard) flags += flags.empty() ? "iso_dates" : ",iso_dates";
                        if (tr.interval_style_guard) flags += flags.empty() ? "interval_style" : ",interval_style";
                        return MakeScan(plan, tr.program.c_str(), rels.c_str(), tr.summary.c_str(), flags.c_str(), tr.timezone.c_str(), ms, cost);
                    }
                });
                return;
            }
            char why[240];
            if (rc.if_cached < pg_cost) {
                // faster with its columns cached: left to PostgreSQL only for the loads
                std::snprintf(why, sizeof why,
                              "PostgreSQL's plan is expected faster (cost %.0f against rndn's %.0f, %.0f with the columns cached)",
                              pg_cost, cost, rc.if_cached);
                if (!under_wanted) {
                    res->saving_if_cached += pg_cost - rc.if_cached;
                    NoteRelations(&res->wanted, rc.uncached);
                }
                under_wanted = true;
            } else {
                std::snprintf(why, sizeof why, "PostgreSQL's plan is expected faster (cost %.0f against rndn's %.0f)",
                              pg_cost, cost);
            }
            AddReason(std::string(PlanNodeName(plan)) + " stays with PostgreSQL: " + why);
        } else {
            AddReason(std::string(PlanNodeName(plan)) + " stays with PostgreSQL: " + t.status().message());
        }
    }
    // Below a Gather every worker would run the whole program: never replace there.
    const bool below_ok = !IsA(plan, Gather) && !IsA(plan, GatherMerge);
    ReplaceSubtrees(stmt, &plan->lefttree, below_ok, res, pg_cost, under_wanted);
    ReplaceSubtrees(stmt, &plan->righttree, below_ok, res, pg_cost, under_wanted);
    if (IsA(plan, SubqueryScan)) ReplaceSubtrees(stmt, &((SubqueryScan *)plan)->subplan, below_ok, res, pg_cost, under_wanted);
    if (IsA(plan, Append)) {
        ListCell *lc;
        foreach (lc, ((Append *)plan)->appendplans) ReplaceSubtrees(stmt, (Plan **)&lfirst(lc), below_ok, res, pg_cost, under_wanted);
    }
}

bool HasGather(Plan *plan) {
    if (plan == nullptr) return false;
    if (IsA(plan, Gather) || IsA(plan, GatherMerge)) return true;
    if (HasGather(plan->lefttree) || HasGather(plan->righttree)) return true;
    ListCell *lc;
    if (IsA(plan, SubqueryScan)) return HasGather(((SubqueryScan *)plan)->subplan);
    if (IsA(plan, Append)) foreach (lc, ((Append *)plan)->appendplans) if (HasGather((Plan *)lfirst(lc))) return true;
    if (IsA(plan, MergeAppend)) foreach (lc, ((MergeAppend *)plan)->mergeplans) if (HasGather((Plan *)lfirst(lc))) return true;
    return false;
}

bool HasGather(PlannedStmt *stmt) {
    if (HasGather(stmt->planTree)) return true;
    ListCell *lc;
    foreach (lc, stmt->subplans) if (HasGather((Plan *)lfirst(lc))) return true;
    return false;
}

// Replaces what rndn can run (and is expected to run faster, unless rndn.force) in `stmt`.
// Never fails the query: a bug in the translator is logged at DEBUG1 and leaves a valid plan
// (replacements are whole-subtree pointer swaps of finished nodes).
RewriteResult Rewrite(PlannedStmt *stmt) {
    RewriteResult res;
    g_last_plan_node_id = MaxPlanNodeId(stmt);
    g_probe_memo.clear();
    const rndn::pg::Outcome out = rndn::pg::RunGuarded([&]() -> Status {
        ReplaceSubtrees(stmt, &stmt->planTree, true, &res, stmt->planTree->total_cost);
        return Status::Ok();
    });
    // A PostgreSQL ERROR met while translating (a cancel, a dropped object): raised unchanged.
    // A cancel or statement timeout names the phase at DEBUG1 first (test/cancel checks it).
    if (out.pg_error != nullptr && out.pg_error->sqlerrcode == ERRCODE_QUERY_CANCELED)
        ereport(DEBUG1, (errmsg("rndn: canceled while translating")));
    if (out.pg_error != nullptr) rndn::pg::RaiseIfError(out);
    if (!out.ok()) ereport(DEBUG1, (errmsg("rndn: translation failed: %s", out.message)));
    return res;
}

ProcessUtility_hook_type g_prev_utility = nullptr;
ExecutorRun_hook_type g_prev_run = nullptr;

// A statement that writes rows (INSERT, UPDATE, DELETE, MERGE, a data-modifying WITH) stores
// what the functions it calls return: a SQL function's result, the rows of a set-returning
// function's RETURN QUERY.  PostgreSQL's plans of the queries inside give those values in their
// source form (compressed stays compressed), so while such a statement runs it counts as storing
// (g_storing_depth) for every query rndn runs inside it.
void RndnExecutorRun(QueryDesc *qd, ScanDirection direction, uint64 count, bool execute_once) {
    const bool writes = qd->operation != CMD_SELECT || qd->plannedstmt->hasModifyingCTE;
    if (writes) ++rndn::pg::g_storing_depth;
    PG_TRY();
    {
        if (g_prev_run != nullptr)
            g_prev_run(qd, direction, count, execute_once);
        else
            standard_ExecutorRun(qd, direction, count, execute_once);
    }
    PG_FINALLY();
    {
        if (writes) --rndn::pg::g_storing_depth;
    }
    PG_END_TRY();
}

void RndnProcessUtility(PlannedStmt *pstmt, const char *query_string, bool read_only_tree, ProcessUtilityContext context,
                        ParamListInfo params, QueryEnvironment *query_env, DestReceiver *dest, QueryCompletion *qc) {
    const bool storing = pstmt->utilityStmt != nullptr &&
                         (IsA(pstmt->utilityStmt, CreateTableAsStmt) || IsA(pstmt->utilityStmt, RefreshMatViewStmt));
    if (storing) ++rndn::pg::g_storing_depth;
    PG_TRY();
    {
        if (g_prev_utility != nullptr)
            g_prev_utility(pstmt, query_string, read_only_tree, context, params, query_env, dest, qc);
        else
            standard_ProcessUtility(pstmt, query_string, read_only_tree, context, params, query_env, dest, qc);
    }
    PG_FINALLY();
    {
        if (storing) --rndn::pg::g_storing_depth;
    }
    PG_END_TRY();
}

PlannedStmt *CallPrevPlanner(Query *parse, const char *query_string, int cursor_options, ParamListInfo params) {
    if (g_prev_planner) return g_prev_planner(parse, query_string, cursor_options, params);
    return standard_planner(parse, query_string, cursor_options, params);
}

// Plans `parse` without parallel workers.
PlannedStmt *PlanSerial(Query *parse, const char *query_string, int cursor_options, ParamListInfo params) {
    const int saved_workers = max_parallel_workers_per_gather;
    PlannedStmt *stmt = nullptr;
    max_parallel_workers_per_gather = 0;
    PG_TRY();
    {
        stmt = CallPrevPlanner(parse, query_string, cursor_options, params);
    }
    PG_FINALLY();
    {
        max_parallel_workers_per_gather = saved_workers;
    }
    PG_END_TRY();
    return stmt;
}

// A declared cursor (DECLARE, a PL/pgSQL cursor: both plan with CURSOR_OPT_FAST_PLAN) whose rows
// are rows of its tables can be the target of UPDATE/DELETE ... WHERE CURRENT OF, which finds the
// current row through the plan's scan of the table (execCurrentOf); rndn's Custom Scan has no such
// row, so PostgreSQL would raise "not a simply updatable scan".  Cursors over aggregates, groups,
// DISTINCT, windows or set operations cannot be such targets and stay eligible.
bool MayBeCurrentOfTarget(const Query *parse, int cursor_options) {
    if ((cursor_options & CURSOR_OPT_FAST_PLAN) == 0) return false;
    return !(parse->hasAggs || parse->groupClause != NIL || parse->groupingSets != NIL || parse->havingQual != nullptr ||
             parse->distinctClause != NIL || parse->hasWindowFuncs || parse->setOperations != nullptr);
}

// PostgreSQL plans every statement exactly as it would without rndn; rndn then replaces the
// subtrees it runs faster.  rndn runs a subtree in this backend, so where PostgreSQL's plan is
// parallel, rndn's candidate is the serial plan of the same query, kept only when it is
// expected to beat the parallel plan (or rndn.force); otherwise the parallel plan is returned
// untouched.
PlannedStmt *RndnPlanner(Query *parse, const char *query_string, int cursor_options, ParamListInfo params) {
    g_reasons[0] = '\0';
    rndn::pg::DeviceChoice device;
    const char *why = nullptr;
    if (!rndn::pg::g_settings.enabled || parse->commandType != CMD_SELECT || parse->hasModifyingCTE ||
        parse->rowMarks != NIL || parse->utilityStmt != nullptr || !ExtensionPresent())
        return CallPrevPlanner(parse, query_string, cursor_options, params);
    if (MayBeCurrentOfTarget(parse, cursor_options)) {
        AddReason("a cursor over rows of a table stays with PostgreSQL (WHERE CURRENT OF needs its scan)");
        return CallPrevPlanner(parse, query_string, cursor_options, params);
    }
    if (!rndn::pg::ResolveDevice(&device, &why)) {
        AddReason(why);
        return CallPrevPlanner(parse, query_string, cursor_options, params);
    }
    // The planner changes the Query it is given: keep a copy for a serial plan.
    Query *serial_query = nullptr;
    if ((cursor_options & CURSOR_OPT_PARALLEL_OK) != 0 && max_parallel_workers_per_gather > 0)
        serial_query = (Query *)copyObjectImpl(parse);
    PlannedStmt *stmt = CallPrevPlanner(parse, query_string, cursor_options, params);
    if (TouchesSystemCatalog(stmt)) return stmt;
    if (!HasGather(stmt) || serial_query == nullptr) {
        const RewriteResult res = Rewrite(stmt);
        LoadInBackground(res.wanted);
        if (g_reasons[0] != '\0') ereport(DEBUG1, (errmsg("rndn fallback: %s", g_reasons)));
        return stmt;
    }
    PlannedStmt *serial = PlanSerial(serial_query, query_string, cursor_options, params);
    const double serial_cost = serial->planTree->total_cost;
    const RewriteResult res = Rewrite(serial);
    const double rndn_cost = serial_cost - res.saving;
    if (res.replaced > 0 && (rndn::pg::g_settings.force || rndn_cost < stmt->planTree->total_cost)) {
        LoadInBackground(res.wanted);
        if (g_reasons[0] != '\0') ereport(DEBUG1, (errmsg("rndn fallback: %s", g_reasons)));
        return serial;
    }
    const double cached_cost = serial_cost - res.saving_if_cached;
    if (res.replaced > 0 || !res.wanted.empty()) {
        char line[240];
        if (cached_cost < stmt->planTree->total_cost)
            std::snprintf(line, sizeof line,
                          "Gather stays with PostgreSQL: its parallel plan is expected faster (cost %.0f against %.0f with "
                          "rndn, %.0f with the columns cached)",
                          stmt->planTree->total_cost, rndn_cost, cached_cost);
        else
            std::snprintf(line, sizeof line,
                          "Gather stays with PostgreSQL: its parallel plan is expected faster (cost %.0f against %.0f with rndn)",
                          stmt->planTree->total_cost, rndn_cost);
        g_reasons[0] = '\0';
        AddReason(line);
    }
    // With its columns cached, the serial plan with rndn would win: load them for the next run.
    if (cached_cost < stmt->planTree->total_cost) {
        std::map<unsigned, std::vector<int>> all = res.wanted;
        for (const auto &[relid, cols] : res.loaded) {
            std::vector<int> &into = all[relid];
            std::vector<int> merged;
            std::set_union(into.begin(), into.end(), cols.begin(), cols.end(), std::back_inserter(merged));
            into = std::move(merged);
        }
        LoadInBackground(all);
    }
    if (g_reasons[0] != '\0') ereport(DEBUG1, (errmsg("rndn fallback: %s", g_reasons)));
    return stmt;
}

// EXPLAIN of one query: plan it and explain (and under ANALYZE run) the plan.
void ExplainQueryPlanned(Query *query, int cursor_options, IntoClause *into, ExplainState *es, const char *query_string,
                         ParamListInfo params, QueryEnvironment *query_env);

void RndnExplainOneQuery(Query *query, int cursor_options, IntoClause *into, ExplainState *es,
                         const char *query_string, ParamListInfo params, QueryEnvironment *query_env) {
    // EXPLAIN ANALYZE CREATE TABLE AS / MATERIALIZED VIEW stores its result here, not through
    // ProcessUtility: counted as a storing statement for the loader (see g_storing_depth).
    if (into != nullptr) ++rndn::pg::g_storing_depth;
    PG_TRY();
    {
        ExplainQueryPlanned(query, cursor_options, into, es, query_string, params, query_env);
    }
    PG_FINALLY();
    {
        if (into != nullptr) --rndn::pg::g_storing_depth;
    }
    PG_END_TRY();
}

void ExplainQueryPlanned(Query *query, int cursor_options, IntoClause *into, ExplainState *es, const char *query_string,
                         ParamListInfo params, QueryEnvironment *query_env) {
    if (g_prev_explain) {
        g_prev_explain(query, cursor_options, into, es, query_string, params, query_env);
    } else {
        instr_time plan_start, plan_duration;
        BufferUsage buf_start, buf_usage;
        INSTR_TIME_SET_CURRENT(plan_start);
        if (es->buffers) buf_start = pgBufferUsage;
        PlannedStmt *plan = pg_plan_query(query, query_string, cursor_options, params);
        INSTR_TIME_SET_CURRENT(plan_duration);
        INSTR_TIME_SUBTRACT(plan_duration, plan_start);
        if (es->buffers) {
            memset(&buf_usage, 0, sizeof(BufferUsage));
            BufferUsageAccumDiff(&buf_usage, &pgBufferUsage, &buf_start);
        }
        ExplainOnePlan(plan, into, es, query_string, params, query_env, &plan_duration, es->buffers ? &buf_usage : nullptr);
    }
    if (rndn::pg::g_settings.explain_fallback && g_reasons[0] != '\0' && es->format == EXPLAIN_FORMAT_TEXT) {
        char *save = nullptr;
        char buf[sizeof(g_reasons)];
        memcpy(buf, g_reasons, sizeof(buf));
        for (char *line = strtok_r(buf, "\n", &save); line; line = strtok_r(nullptr, "\n", &save))
            ExplainPropertyText("rndn fallback", line, es);
    }
}

}  // namespace

void InstallHooks() {
    CacheRegisterSyscacheCallback(PROCOID, InvalidateExtensionState, (Datum)0);
    g_prev_utility = ProcessUtility_hook;
    ProcessUtility_hook = RndnProcessUtility;
    g_prev_run = ExecutorRun_hook;
    ExecutorRun_hook = RndnExecutorRun;
    g_prev_planner = planner_hook;
    planner_hook = RndnPlanner;
    g_prev_explain = ExplainOneQuery_hook;
    ExplainOneQuery_hook = RndnExplainOneQuery;
}

}  // namespace rndn::plan

namespace {

// The HorseIR program the statement text translates to (whole plan), or NULL with the
// fallback reason in *reason (palloc'd).  Plans the query without executing it.
char *TranslateQueryText(const char *query, char **reason) {
    *reason = nullptr;
    List *raw = pg_parse_query(query);
    if (list_length(raw) != 1) {
        *reason = pstrdup("expected exactly one statement");
        return nullptr;
    }
    List *queries = pg_analyze_and_rewrite_fixedparams((RawStmt *)linitial(raw), query, nullptr, 0, nullptr);
    if (list_length(queries) != 1) {
        *reason = pstrdup("the statement rewrites to several queries");
        return nullptr;
    }
    Query *q = (Query *)linitial(queries);
    if (q->commandType != CMD_SELECT || q->utilityStmt != nullptr) {
        *reason = pstrdup("not a SELECT");
        return nullptr;
    }
    // The program is wanted whatever the costs say.
    const bool saved_force = rndn::pg::g_settings.force;
    PlannedStmt *stmt = nullptr;
    rndn::pg::g_settings.force = true;
    PG_TRY();
    {
        stmt = pg_plan_query(q, query, CURSOR_OPT_PARALLEL_OK, nullptr);
    }
    PG_FINALLY();
    {
        rndn::pg::g_settings.force = saved_force;
    }
    PG_END_TRY();
    Plan *root = stmt->planTree;
    if (IsA(root, CustomScan) && ((CustomScan *)root)->methods == rndn::pg::ScanMethods())
        return pstrdup(strVal(linitial(((CustomScan *)root)->custom_private)));
    *reason = pstrdup(rndn::plan::g_reasons[0] ? rndn::plan::g_reasons : "rndn is disabled or the query is not eligible");
    return nullptr;
}

}  // namespace

// rndn_horseir(query text): the HorseIR program the query translates to, or NULL (with a
// NOTICE giving the reason) when it does not go to rndn as a whole.
Datum rndn_horseir(PG_FUNCTION_ARGS) {
    const char *query = text_to_cstring(PG_GETARG_TEXT_PP(0));
    char *reason = nullptr;
    char *program = TranslateQueryText(query, &reason);
    if (program == nullptr) {
        ereport(NOTICE, (errmsg("rndn does not run this query: %s", reason ? reason : "unknown reason")));
        PG_RETURN_NULL();
    }
    PG_RETURN_TEXT_P(cstring_to_text(program));
}
