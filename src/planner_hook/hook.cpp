// The planner hook: standard planning, then the largest translatable subtrees become
// Custom Scan (rndn).  Also the EXPLAIN hook that prints fallback reasons, and the planning
// half of rndn_horseir().
extern "C" {
#include "postgres.h"

#include "catalog/pg_class.h"
#include "commands/explain.h"
#include "executor/instrument.h"
#include "miscadmin.h"
#include "nodes/extensible.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "nodes/plannodes.h"
#include "optimizer/cost.h"
#include "optimizer/planner.h"
#include "parser/parsetree.h"
#include "portability/instr_time.h"
#include "tcop/tcopprot.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"

PGDLLEXPORT Datum rndn_horseir(PG_FUNCTION_ARGS);
PG_FUNCTION_INFO_V1(rndn_horseir);
}

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "pg_base/boundary.h"
#include "pg_base/guc.h"
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
CustomScan *MakeScan(Plan *plan, const Translation &t, double translate_ms) {
    CustomScan *cs = makeNode(CustomScan);
    Plan *p = &cs->scan.plan;
    p->startup_cost = plan->startup_cost;
    p->total_cost = plan->total_cost;
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
    cs->custom_private = list_make5(makeString(pstrdup(t.program.c_str())),
                                    makeString(pstrdup(SerializeRelations(t.relations).c_str())),
                                    makeString(pstrdup(t.summary.c_str())), makeString(pstrdup(ms)),
                                    makeString(pstrdup(t.ascii_guard ? "ascii" : "")));
    // PostgreSQL's own plan, run by the executor only if the program cannot run after all.
    cs->custom_plans = list_make1(plan);
    cs->custom_scan_tlist = scan_tlist;
    cs->custom_relids = nullptr;
    cs->methods = rndn::pg::ScanMethods();
    return cs;
}

// Tries `*slot` whole; on failure records the reason and tries its children.
void ReplaceSubtrees(PlannedStmt *stmt, Plan **slot, bool allow_here) {
    Plan *plan = *slot;
    if (plan == nullptr) return;
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
            *slot = (Plan *)MakeScan(plan, t.value(), ms);
            return;
        }
        AddReason(std::string(PlanNodeName(plan)) + " stays with PostgreSQL: " + t.status().message());
    }
    // Below a Gather every worker would run the whole program: never replace there.
    const bool below_ok = !IsA(plan, Gather) && !IsA(plan, GatherMerge);
    ReplaceSubtrees(stmt, &plan->lefttree, below_ok);
    ReplaceSubtrees(stmt, &plan->righttree, below_ok);
    if (IsA(plan, SubqueryScan)) ReplaceSubtrees(stmt, &((SubqueryScan *)plan)->subplan, below_ok);
    if (IsA(plan, Append)) {
        ListCell *lc;
        foreach (lc, ((Append *)plan)->appendplans) ReplaceSubtrees(stmt, (Plan **)&lfirst(lc), below_ok);
    }
}

PlannedStmt *CallPrevPlanner(Query *parse, const char *query_string, int cursor_options, ParamListInfo params) {
    if (g_prev_planner) return g_prev_planner(parse, query_string, cursor_options, params);
    return standard_planner(parse, query_string, cursor_options, params);
}

PlannedStmt *RndnPlanner(Query *parse, const char *query_string, int cursor_options, ParamListInfo params) {
    g_reasons[0] = '\0';
    rndn::pg::DeviceChoice device;
    const char *why = nullptr;
    if (!rndn::pg::g_settings.enabled || parse->commandType != CMD_SELECT || parse->hasModifyingCTE ||
        parse->rowMarks != NIL || parse->utilityStmt != nullptr)
        return CallPrevPlanner(parse, query_string, cursor_options, params);
    if (!rndn::pg::ResolveDevice(&device, &why)) {
        AddReason(why);
        return CallPrevPlanner(parse, query_string, cursor_options, params);
    }
    // Plan without parallel workers: rndn runs the whole subtree in this backend, so a plan
    // made of Gather/partial aggregates only gets in the way.  (Planning a second time for the
    // fallback is not possible: the planner rewrites parts of the Query it is given in place.)
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
    if (TouchesSystemCatalog(stmt)) return stmt;

    Plan *root = stmt->planTree;
    g_last_plan_node_id = MaxPlanNodeId(stmt);
    std::string root_reason;
    bool replaced_root = false;
    const rndn::pg::Outcome out = rndn::pg::RunGuarded([&]() -> Status {
        const auto t0 = std::chrono::steady_clock::now();
        Expected<Translation> t = TranslatePlan(stmt, root);
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        if (t.ok()) {
            stmt->planTree = (Plan *)MakeScan(root, t.value(), ms);
            replaced_root = true;
        } else {
            root_reason = t.status().message();
        }
        return Status::Ok();
    });
    if (!out.ok()) {
        // A bug in the translator: never fail the query for it.
        ereport(DEBUG1, (errmsg("rndn: translation failed: %s", out.message)));
        replaced_root = false;
    }
    if (replaced_root) return stmt;

    PlannedStmt *normal = stmt;
    g_reasons[0] = '\0';
    const rndn::pg::Outcome out2 = rndn::pg::RunGuarded([&]() -> Status {
        ReplaceSubtrees(normal, &normal->planTree, true);
        return Status::Ok();
    });
    if (!out2.ok()) {
        // A bug in the translator while rewriting subtrees: the tree may be half rewritten.
        // Replacements are whole-subtree pointer swaps of finished nodes, so what is there is
        // still a valid plan; report and go on.
        ereport(DEBUG1, (errmsg("rndn: translation failed: %s", out2.message)));
    }
    if (g_reasons[0] != '\0') ereport(DEBUG1, (errmsg("rndn fallback: %s", g_reasons)));
    return normal;
}

void RndnExplainOneQuery(Query *query, int cursor_options, IntoClause *into, ExplainState *es,
                         const char *query_string, ParamListInfo params, QueryEnvironment *query_env) {
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
    PlannedStmt *stmt = pg_plan_query(q, query, CURSOR_OPT_PARALLEL_OK, nullptr);
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
