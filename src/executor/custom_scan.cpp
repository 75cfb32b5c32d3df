// Custom Scan (rndn): the executor methods.  Every method is a C-linkage-style function with
// trivially destructible locals that runs its C++ part through RunGuarded and raises only
// afterwards (boundary.h).  The program runs at the first fetch (never for EXPLAIN without
// ANALYZE); the result columns are then streamed out as virtual tuples.
extern "C" {
#include "postgres.h"

#include "access/xact.h"
#include "catalog/pg_class.h"
#include "catalog/pg_type.h"
#include "commands/explain.h"
#include "executor/executor.h"
#include "executor/tuptable.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "nodes/extensible.h"
#include "storage/ipc.h"
#include "utils/builtins.h"
#include "utils/date.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"
#include "utils/memutils.h"
#include "utils/numeric.h"
#include "utils/uuid.h"
#include "utils/float.h"
}

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>

#include "common/uuid_text.h"
#include "executor/scan_run.h"
#include "codegen/codegen.h"
#include "runtime/runtime.h"
#include "pg_base/boundary.h"
#include "pg_base/datum_value.h"
#include "pg_base/guc.h"
#include "pg_base/pg_call.h"
#include "pg_base/plan_node.h"

namespace rndn::exec {
namespace {

struct RndnScanState {
    CustomScanState css;
    ScanRun *run;
    int64 cursor;  // index of the row a forward fetch returns next
    int64 mark;
    bool eof;
    int eflags;
    PlanState *fallback;  // PostgreSQL's own plan, when the program could not run
    MemoryContextCallback cleanup;
};

void DeleteRun(void *arg) noexcept {
    RndnScanState *s = (RndnScanState *)arg;
    delete s->run;
    s->run = nullptr;
}

const char *PrivateString(CustomScan *cs, pg::PrivateSlot slot) {
    return strVal(list_nth(cs->custom_private, (int)slot));
}

// The most groups an Agg node of PostgreSQL's plan for the subtree estimates (GROUP BY, DISTINCT;
// rndn.device = auto weighs it: guc.cpp).  Plain data of finished plan nodes: no PostgreSQL call.
double EstimatedGroups(const Plan *p) {
    if (p == nullptr) return 0;
    double g = 0;
    if (IsA(p, Agg) && ((const Agg *)p)->aggstrategy != AGG_PLAIN) g = (double)((const Agg *)p)->numGroups;
    return std::max({g, EstimatedGroups(p->lefttree), EstimatedGroups(p->righttree)});
}

double EstimatedGroups(const CustomScan *cs) {
    double g = 0;
    ListCell *lc;
    foreach (lc, cs->custom_plans) g = std::max(g, EstimatedGroups((const Plan *)lfirst(lc)));
    return g;
}

Status BeginImpl(RndnScanState *s, CustomScan *cs) {
    const int64_t limit = (int64_t)g_settings.memory_limit_mb << 20;
    std::unique_ptr<ScanRun> run = std::make_unique<ScanRun>(limit);
    run->program_text = PrivateString(cs, pg::PrivateSlot::PROGRAM);
    run->est_groups = EstimatedGroups(cs);
    run->summary = PrivateString(cs, pg::PrivateSlot::SUMMARY);
    if (list_length(cs->custom_private) > (int)pg::PrivateSlot::TRANSLATE_MS)
        run->translate_ms = PrivateString(cs, pg::PrivateSlot::TRANSLATE_MS);
    if (list_length(cs->custom_private) > (int)pg::PrivateSlot::FLAGS) {
        // comma-separated guards (planner_hook/hook.cpp)
        const std::string flags = PrivateString(cs, pg::PrivateSlot::FLAGS);
        size_t at = 0;
        while (at <= flags.size()) {
            size_t end = flags.find(',', at);
            if (end == std::string::npos) end = flags.size();
            const std::string f = flags.substr(at, end - at);
            run->ascii_guard |= f == "ascii";
            run->float_text_guard |= f == "float_text";
            run->iso_date_guard |= f == "iso_dates";
            run->interval_style_guard |= f == "interval_style";
            at = end + 1;
        }
    }
    if (list_length(cs->custom_private) > (int)pg::PrivateSlot::TIMEZONE)
        run->timezone = PrivateString(cs, pg::PrivateSlot::TIMEZONE);
    if (!pg::ParseRelations(PrivateString(cs, pg::PrivateSlot::RELATIONS), &run->relations))
        return Status::Internal("malformed relation list in custom_private");
    s->run = run.release();
    return Status::Ok();
}

// The values of the entry function's parameters (a generic plan's query parameters, named
// pg::ParamName(n)), one scalar column each in the plan's order.  A value that has no exact
// HorseIR form (a numeric of another scale than the one the program was made for, a NaN ...)
// is UNSUPPORTED: PostgreSQL's plan runs instead.  A by-value parameter (pg::ParamName(n, true))
// takes any numeric equal to a value of its declared scale.
Expected<std::vector<hir::Column>> ParamValues(const runtime::CompiledPlan &plan, ParamListInfo params) {
    std::vector<hir::Column> out;
    for (const hir::Param &p : plan.parameters()) {
        if (p.name == pg::kNowParam || p.name == pg::kStatementTsParam) {
            // now() and statement_timestamp(): this statement's values, never the plan's
            const TimestampTz ts = p.name == pg::kNowParam ? GetCurrentTransactionStartTimestamp() : GetCurrentStatementStartTimestamp();
            // (a bound value, not a literal: microseconds need no literal form)
            if (p.type.kind != hir::TypeKind::DT) return Status::Internal(p.name + " is not declared dt");
            RNDN_ASSIGN_OR_RETURN(std::shared_ptr<hir::Vector> v, hir::MakeVector(p.type, 1));
            v->Data<int64_t>()[0] = ts;
            RNDN_ASSIGN_OR_RETURN(hir::Column c, hir::ColumnFromVector(std::move(v)));
            out.push_back(std::move(c));
            continue;
        }
        bool by_value = false;
        const int id = pg::ParamIdOf(p.name, &by_value);
        if (id < 1 || params == nullptr || id > params->numParams) return Status::Unsupported("parameter " + p.name + " has no value");
        ParamExternData scratch;
        // A parameter hook (PL/pgSQL) may raise: guarded.
        ParamExternData *prm = params->paramFetch != nullptr
                                   ? pg::PgCall([params, id, &scratch] { return params->paramFetch(params, id, false, &scratch); })
                                   : &params->params[id - 1];
        if (prm == nullptr || !OidIsValid(prm->ptype)) return Status::Unsupported("parameter $" + std::to_string(id) + " has no value");
        Expected<std::shared_ptr<hir::Vector>> v = pg::ScalarFromDatum(prm->ptype, (uintptr_t)prm->value, prm->isnull, p.type, by_value);
        if (!v.ok()) return Status::Unsupported("parameter $" + std::to_string(id) + ": " + v.status().message());
        RNDN_ASSIGN_OR_RETURN(hir::Column c, hir::ColumnFromVector(std::move(v.value())));
        out.push_back(std::move(c));
    }
    return out;
}

// on_proc_exit: called by PostgreSQL, so nothing may leave it as an exception.  PostgreSQL's
// shared-memory cleanup has run (on_proc_exit callbacks come last): when a compile thread was
// given up inside LLVM, the backend ends here without the static destructors that thread could
// trip over.
// On a normal exit (the client disconnected; not a SIGTERM from a shutdown or
// pg_terminate_backend) the compilations still running may finish first, for up to 5 s: their
// kernels reach the code cache on disk, so a pool of short sessions does not compile a query's
// kernels in every new session only to abandon them (TPC-H Q1 at SF 1: every new session ran 2-4
// kernels on the interpreter while compiling them again).  The client is not waiting by then.
void StopCompilesAtExit(int code, Datum) {
    bool clean = true;
    try {
        if (code == 0 && !ProcDiePending && g_settings.code_cache_mb > 0) (void)runtime::FinishBackgroundCompiles(5000);
        clean = runtime::StopBackgroundCompiles();
    } catch (...) {
    }
    if (!clean) _exit(code);
}

// Runs the program on the device rndn.device names, through the runtime's device interface,
// over the loaded columns (bound as the loader's registry: no copy) and the parameters' values.
Expected<hir::Value> RunOnDevice(ScanRun &run, hir::Program program, ParamListInfo params) {
    DeviceChoice choice = DeviceChoice::INTERP;
    const char *why = nullptr;
    if (!ResolveDevice(&choice, &why, (double)run.rows_loaded, run.est_groups)) return Status::Unsupported(why != nullptr ? why : "no device");
    run.phase = "compiling";
    std::shared_ptr<const runtime::CompiledPlan> plan;
    {
        // Checking a program of many thousand statements takes a while: it polls the interrupt flags.
        const std::function<bool()> poll = [] { return InterruptRequested(); };
        hir::CancelPollScope scope(&poll);
        RNDN_ASSIGN_OR_RETURN(plan, runtime::CompiledPlan::Compile(std::move(program)));  // may throw CancelUnwind
    }
    RNDN_ASSIGN_OR_RETURN(std::vector<hir::Column> param_values, ParamValues(*plan, params));
    if (choice == DeviceChoice::CPU) {
        // a backend that ends while the cpu device still compiles in the background (its tier
        // upgrader) first stops and waits for that thread: exit() would destroy what it uses
        static bool stop_at_exit = false;
        if (!stop_at_exit) {
            pg::PgCall([] { on_proc_exit(StopCompilesAtExit, (Datum)0); });
            stop_at_exit = true;
        }
        // the compiled kernels on disk, shared by every backend (rndn.code_cache_size; DataDir is
        // the server's data directory, a plain string)
        static int configured_mb = -1;
        if (configured_mb != g_settings.code_cache_mb) {
            configured_mb = g_settings.code_cache_mb;
            runtime::SetCodeCache(configured_mb > 0 ? std::string(DataDir) + "/rndn_code_cache" : std::string(),
                                  (uint64_t)configured_mb << 20);
        }
    }
    RNDN_ASSIGN_OR_RETURN(auto device, runtime::MakeDevice(DeviceName(choice)));
    runtime::RunOptions options;
    options.memory_budget = std::max<int64_t>(1, run.alloc.limit() - run.alloc.used());
    options.sql_semantics = true;
    options.interrupted = [] { return InterruptRequested(); };
    options.cpu_threads = g_settings.cpu_threads;
    // about 100 ms of interpreter work at 3 ns per unit (a row and statement, weighted by the
    // kernel's kind: codegen::Runner::set_defer_compiles), the order of one module's compile:
    // past it, compiling first is faster than interpreting
    options.defer_compile_work = g_settings.compile_in_background ? int64_t{32} << 20 : 0;
    RNDN_RETURN_IF_ERROR(device->Prepare(plan, options));
    runtime::Inputs inputs;
    inputs.registry = &run.registry;
    inputs.parameters = std::move(param_values);
    RNDN_RETURN_IF_ERROR(device->Bind(inputs));
    if (InterruptRequested()) return Status::Cancelled();
    run.phase = "executing";
    Status st = device->Run();
    run.device = DeviceName(choice);
    run.report = device->report();
    if (!run.report.phase.empty()) run.phase += " (" + run.report.phase + ")";
    RNDN_RETURN_IF_ERROR(st);
    return device->FetchValue();
}

Status ExecuteImpl(ScanRun &run, Snapshot snapshot, ParamListInfo params) {
    // Intermediate payloads recycled by the interpreter stay pooled for the next query, up to
    // rndn.memory_limit, so that a warm query finds its buffers already faulted in; they count
    // against that limit while pooled (the loader's allocator and the interpreter's budget hand
    // them back before the columns and live intermediates would exceed it).  With the column
    // cache off (rndn.column_cache = 0) nothing is kept.
    struct PoolRelease {
        ~PoolRelease() {
            const size_t keep = g_settings.column_cache_mb == 0 ? 0 : (size_t)g_settings.memory_limit_mb << 20;
            hir::ReleasePooledPayloads(keep);
        }
    } pool_release;
    // A program that converts timestamptz holds the time zone it was planned under: under another
    // one (a plan cached before SET TimeZone) PostgreSQL's plan runs.
    if (!run.timezone.empty() && run.timezone != pg::TimeZoneKey())
        return Status::Unsupported("the plan was made under another TimeZone");
    const auto t0 = std::chrono::steady_clock::now();
    // text forms fixed when the plan was made (a cached plan may run under other settings)
    if (run.float_text_guard && extra_float_digits <= 0)
        return Status::Unsupported("floats written as text with extra_float_digits <= 0");
    if (run.iso_date_guard && DateStyle != USE_ISO_DATES)
        return Status::Unsupported("dates written as text under a DateStyle other than ISO");
    if (run.interval_style_guard && IntervalStyle != INTSTYLE_POSTGRES)
        return Status::Unsupported("intervals as text under an IntervalStyle other than postgres");
    run.phase = "loading";
    RNDN_RETURN_IF_ERROR(LoadRelationsUnsafe(run, snapshot));
    const auto t1 = std::chrono::steady_clock::now();
    run.load_ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
    run.phase = "compiling";
    if (InterruptRequested()) return Status::Cancelled();
    // Parsing and checking a program of many thousand statements takes a while: both poll the
    // interrupt flags (hir::CancelPollScope), as the devices do while they run.
    const std::function<bool()> poll = [] { return InterruptRequested(); };
    Expected<hir::Value> result = Status::Cancelled();
    try {
        auto parsed = [&]() -> Expected<hir::Program> {
            hir::CancelPollScope scope(&poll);
            return hir::ParseProgram(run.program_text, "rndn");
        }();
        if (!parsed.ok()) return Status::Internal("HorseIR program does not parse: " + parsed.status().message());
        result = RunOnDevice(run, std::move(parsed.value()), params);
    } catch (const hir::CancelUnwind &) {
        result = Status::Cancelled();
    }
    run.exec_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t1).count();
    if (!result.ok()) {
        const Status &st = result.status();
        if (st.code() == Code::USER_ERROR && !(st.sqlstate() == sqlstate::kDatatypeMismatch)) return st;
        if (st.code() == Code::CANCELLED || st.code() == Code::OUT_OF_MEMORY) return st;
        if (st.code() == Code::UNSUPPORTED) return st;  // e.g. a parameter value without an exact form
        return Status::Internal("HorseIR program failed: " + st.ToString());
    }
    run.result = std::move(result.value());
    if (run.result.kind() != hir::ValueKind::TABLE) return Status::Internal("HorseIR program did not return a table");
    const hir::Table &t = run.result.table();
    run.out_rows = t.rows();
    for (const hir::Value &c : t.columns) {
        if (!c.is_vector()) return Status::Internal("result column is not a vector");
        run.out_cols.push_back(c.vector_ptr());
    }
    run.executed = true;
    // The inputs are no longer needed.
    run.registry = hir::DataRegistry();
    return Status::Ok();
}

// --- value conversion (no C++ objects: may call palloc / numeric_in, which can raise) ------

int64 IntAt(const hir::Vector &v, int64 i) {
    switch (v.type.kind) {
        case hir::TypeKind::BOOL:
        case hir::TypeKind::CHAR: return v.Data<uint8_t>()[i];
        case hir::TypeKind::I8: return v.Data<int8_t>()[i];
        case hir::TypeKind::I16: return v.Data<int16_t>()[i];
        case hir::TypeKind::I32:
        case hir::TypeKind::DATE:
        case hir::TypeKind::MONTH: return v.Data<int32_t>()[i];
        case hir::TypeKind::I64:
        case hir::TypeKind::DT: return v.Data<int64_t>()[i];
        default: return 0;
    }
}

bool IsIntKind(hir::TypeKind k) {
    return k == hir::TypeKind::BOOL || k == hir::TypeKind::CHAR || k == hir::TypeKind::I8 || k == hir::TypeKind::I16 ||
           k == hir::TypeKind::I32 || k == hir::TypeKind::I64 || k == hir::TypeKind::DATE;
}

// Scaled integer and display scale of element i of a decimal or integer vector.
bool DecimalAt(const hir::Vector &v, int64 i, __int128 *value, int *stored_scale, int *display_scale) {
    if (v.type.kind == hir::TypeKind::DEC64 || v.type.kind == hir::TypeKind::DEC128) {
        *value = v.type.kind == hir::TypeKind::DEC64 ? (__int128)v.Data<int64_t>()[i] : v.Data<__int128>()[i];
        if (v.type.scale == hir::Type::kUnknownScale) {
            *stored_scale = v.scale_max;
            *display_scale = v.elem_scale.empty() ? v.scale_max : v.elem_scale[(size_t)i];
        } else {
            *stored_scale = *display_scale = v.type.scale;
        }
        return true;
    }
    if (IsIntKind(v.type.kind)) {
        *value = IntAt(v, i);
        *stored_scale = *display_scale = 0;
        return true;
    }
    return false;
}

// Writes the decimal text of value / 10^stored, keeping `display` fraction digits.
void FormatScaled(__int128 value, int stored, int display, char *buf, size_t cap) {
    char digits[64];
    int n = 0;
    const bool neg = value < 0;
    unsigned __int128 u = neg ? (unsigned __int128)(-(value + 1)) + 1 : (unsigned __int128)value;
    do {
        digits[n++] = (char)('0' + (int)(u % 10));
        u /= 10;
    } while (u != 0 && n < 60);
    while (n <= stored) digits[n++] = '0';
    size_t pos = 0;
    if (neg) buf[pos++] = '-';
    for (int k = n - 1; k >= stored && pos + 2 < cap; --k) buf[pos++] = digits[k];
    if (display > 0) {
        buf[pos++] = '.';
        for (int k = stored - 1; k >= stored - display && k >= 0 && pos + 1 < cap; --k) buf[pos++] = digits[k];
        for (int k = stored; k < display && pos + 1 < cap; ++k) buf[pos++] = '0';
    }
    buf[pos] = '\0';
}

double FloatAt(const hir::Vector &v, int64 i) {
    if (v.type.kind == hir::TypeKind::F64) return v.Data<double>()[i];
    if (v.type.kind == hir::TypeKind::F32) return v.Data<float>()[i];
    return (double)IntAt(v, i);
}

Datum ToDatum(const hir::Vector &v, int64 i, Oid type, int32 typmod) {
    switch (type) {
        case BOOLOID: return BoolGetDatum(IntAt(v, i) != 0);
        case INT2OID: return Int16GetDatum((int16)IntAt(v, i));
        case INT4OID: return Int32GetDatum((int32)IntAt(v, i));
        case INT8OID: return Int64GetDatum(IntAt(v, i));
        case DATEOID: return DateADTGetDatum((DateADT)IntAt(v, i));
        case TIMESTAMPOID: return TimestampGetDatum((Timestamp)IntAt(v, i));
        case TIMESTAMPTZOID: return TimestampTzGetDatum((TimestampTz)IntAt(v, i));
        case INTERVALOID: {
            if (v.type.kind != hir::TypeKind::INTERVAL) elog(ERROR, "rndn: interval output from a %s vector", hir::TypeKindName(v.type.kind));
            Interval *span = (Interval *)palloc(sizeof(Interval));
            const hir::IntervalValue &x = v.Data<hir::IntervalValue>()[i];
            span->time = x.time;
            span->day = x.day;
            span->month = x.month;
            return IntervalPGetDatum(span);
        }
        case FLOAT4OID: return Float4GetDatum((float4)FloatAt(v, i));
        case FLOAT8OID: return Float8GetDatum(FloatAt(v, i));
        case NUMERICOID: {
            __int128 value;
            int stored, display;
            char buf[96];
            if (!DecimalAt(v, i, &value, &stored, &display)) {
                std::snprintf(buf, sizeof buf, "%.17g", FloatAt(v, i));
            } else {
                FormatScaled(value, stored, display, buf, sizeof buf);
            }
            return DirectFunctionCall3(numeric_in, CStringGetDatum(buf), ObjectIdGetDatum(InvalidOid), Int32GetDatum(typmod));
        }
        case TEXTOID:
        case VARCHAROID: {
            std::string_view s = v.StringAt(i);
            return PointerGetDatum(cstring_to_text_with_len(s.data(), (int)s.size()));
        }
        case BPCHAROID: {
            std::string_view s = v.StringAt(i);
            int pad = 0;
            if (typmod >= (int32)VARHDRSZ) {
                const int chars = pg_mbstrlen_with_len(s.data(), (int)s.size());
                pad = std::max(0, (int)(typmod - VARHDRSZ) - chars);
            }
            text *t = (text *)palloc(VARHDRSZ + s.size() + pad);
            SET_VARSIZE(t, VARHDRSZ + s.size() + pad);
            std::memcpy(VARDATA(t), s.data(), s.size());
            std::memset(VARDATA(t) + s.size(), ' ', (size_t)pad);
            return PointerGetDatum(t);
        }
        case UUIDOID: {  // held as its canonical text (common/uuid_text.h)
            pg_uuid_t *u = (pg_uuid_t *)palloc(sizeof(pg_uuid_t));
            if (!uuidtext::Parse(v.StringAt(i), u->data)) elog(ERROR, "rndn: malformed uuid text in a result");
            return UUIDPGetDatum(u);
        }
        default: elog(ERROR, "rndn: unexpected output type %u", type);
    }
    return (Datum)0;
}

// --- methods ---------------------------------------------------------------------------------

// PostgreSQL's plan kept beside the program, to run instead of it.  Custom Scan (rndn) scans
// backward and restores marks (its result is materialised), so the executor added no Material
// above it for a SCROLL cursor or a merge join; a fallback plan that cannot do the same runs
// under a Material node made here, as the planner would have put over it.
Plan *FallbackPlan(CustomScan *cs, int eflags) {
    Plan *plan = (Plan *)linitial(cs->custom_plans);
    const bool backward = (eflags & EXEC_FLAG_BACKWARD) != 0 && !ExecSupportsBackwardScan(plan);
    const bool mark = (eflags & EXEC_FLAG_MARK) != 0 && !IsA(plan, Material) && !IsA(plan, Sort);
    if (!backward && !mark) return plan;
    Material *m = makeNode(Material);
    m->plan.lefttree = plan;
    m->plan.targetlist = plan->targetlist;
    m->plan.startup_cost = plan->total_cost;
    m->plan.total_cost = plan->total_cost;
    m->plan.plan_rows = plan->plan_rows;
    m->plan.plan_width = plan->plan_width;
    m->plan.parallel_safe = plan->parallel_safe;
    m->plan.plan_node_id = cs->scan.plan.plan_node_id;
    return (Plan *)m;
}

TupleTableSlot *FetchNext(ScanState *ss) {
    RndnScanState *s = (RndnScanState *)ss;
    TupleTableSlot *slot = ss->ss_ScanTupleSlot;
    ExecClearTuple(slot);
    ScanRun *run = s->run;
    if (run == nullptr && s->fallback == nullptr) elog(ERROR, "rndn: scan state lost");
    if (s->fallback != nullptr) {
        if (ScanDirectionIsBackward(ss->ps.state->es_direction) && !(s->eflags & EXEC_FLAG_BACKWARD))
            ereport(ERROR, (errcode(ERRCODE_FEATURE_NOT_SUPPORTED), errmsg("rndn: backward fetch after a fallback")));
        TupleTableSlot *child = ExecProcNode(s->fallback);
        if (TupIsNull(child)) return slot;
        return ExecCopySlot(slot, child);
    }
    if (!run->executed) {
        EState *estate = ss->ps.state;
        CustomScan *cs = (CustomScan *)ss->ps.plan;
        // rndn.enabled = off reaches plans made before it was set (prepared statements,
        // PL/pgSQL): they run PostgreSQL's plan kept beside the program.
        Outcome out;
        if (!g_settings.enabled && cs->custom_plans != NIL)
            out.Set(Code::UNSUPPORTED, sqlstate::kFeatureNotSupported, "rndn.enabled is off");
        else
            out = RunGuarded([run, estate]() { return ExecuteImpl(*run, estate->es_snapshot, estate->es_param_list_info); });
        // A PostgreSQL ERROR caught inside rndn: re-raised unchanged, before anything else runs.
        if (out.pg_error != nullptr) RaiseIfError(out);
        // Exceeding rndn.memory_limit (or the system's memory) before any row was returned:
        // PostgreSQL's plan may well answer; every row comes after the program ran.
        if ((out.code == Code::UNSUPPORTED || out.code == Code::INTERNAL || out.code == Code::USER_ERROR ||
             out.code == Code::OUT_OF_MEMORY) &&
            cs->custom_plans != NIL) {
            // The program cannot run after all: PostgreSQL's own plan gives the answer.  A SQL
            // error raised by the program (overflow, division by zero, a range error) goes the
            // same way: the program computes whole columns, so it may meet an error in a row
            // or an expression PostgreSQL never evaluates, or another error first; PostgreSQL's
            // plan then raises exactly its own error, or none.  Going over rndn.memory_limit
            // (before any row was returned) is no reason to fail a query PostgreSQL answers.
            ereport(out.code == Code::INTERNAL ? LOG : DEBUG1,
                    (errmsg("rndn: running PostgreSQL's plan instead: %s%s%s", out.code == Code::USER_ERROR ? out.sqlstate : "",
                            out.code == Code::USER_ERROR ? " " : "", out.message)));
            s->fallback = ExecInitNode(FallbackPlan(cs, s->eflags), estate, s->eflags);
            s->css.custom_ps = list_make1(s->fallback);
            DeleteRun(s);
            s->run = nullptr;
            return FetchNext(ss);
        }
        // Where a cancel or statement timeout took effect (test/cancel reads it); ereport's own
        // interrupt check may raise PostgreSQL's cancel error right here, as RaiseIfError would.
        if (out.code == Code::CANCELLED) ereport(DEBUG1, (errmsg("rndn: canceled while %s", run->phase.c_str())));
        RaiseIfError(out);
        CHECK_FOR_INTERRUPTS();
    }
    const int64 n = run->out_rows;
    int64 row;
    if (ScanDirectionIsBackward(ss->ps.state->es_direction)) {
        row = s->eof ? s->cursor - 1 : s->cursor - 2;
        s->eof = false;
        if (row < 0) {
            s->cursor = 0;
            return slot;
        }
    } else {
        if (s->cursor >= n) {
            s->eof = true;
            s->cursor = n;
            return slot;
        }
        row = s->cursor;
    }
    s->cursor = row + 1;
    TupleDesc desc = slot->tts_tupleDescriptor;
    const int ncols = desc->natts;
    for (int c = 0; c < ncols; ++c) {
        const hir::Vector &v = *run->out_cols[(size_t)c];
        if (!v.IsValid(row)) {
            slot->tts_isnull[c] = true;
            slot->tts_values[c] = (Datum)0;
            continue;
        }
        Form_pg_attribute att = TupleDescAttr(desc, c);
        slot->tts_isnull[c] = false;
        slot->tts_values[c] = ToDatum(v, row, att->atttypid, att->atttypmod);
    }
    return ExecStoreVirtualTuple(slot);
}

bool Recheck(ScanState *, TupleTableSlot *) { return true; }

void BeginRndnScan(CustomScanState *node, EState *estate, int eflags) {
    (void)eflags;
    RndnScanState *s = (RndnScanState *)node;
    s->cursor = 0;
    s->mark = 0;
    s->eof = false;
    s->eflags = eflags;
    s->fallback = nullptr;
    s->cleanup.func = DeleteRun;
    s->cleanup.arg = s;
    MemoryContextRegisterResetCallback(estate->es_query_cxt, &s->cleanup);
    CustomScan *cs = (CustomScan *)node->ss.ps.plan;
    const Outcome out = RunGuarded([s, cs]() { return BeginImpl(s, cs); });
    RaiseIfError(out);
}

TupleTableSlot *ExecRndnScan(CustomScanState *node) {
    return ExecScan(&node->ss, (ExecScanAccessMtd)FetchNext, (ExecScanRecheckMtd)Recheck);
}

void EndRndnScan(CustomScanState *node) {
    RndnScanState *s = (RndnScanState *)node;
    DeleteRun(s);
    if (s->fallback != nullptr) ExecEndNode(s->fallback);
    s->fallback = nullptr;
}

void ReScanRndnScan(CustomScanState *node) {
    RndnScanState *s = (RndnScanState *)node;
    s->cursor = 0;
    s->eof = false;
    if (s->fallback != nullptr) ExecReScan(s->fallback);
}

void MarkPosRndnScan(CustomScanState *node) {
    RndnScanState *s = (RndnScanState *)node;
    if (s->fallback != nullptr) ExecMarkPos(s->fallback);
    s->mark = s->cursor - 1;
}

void RestrPosRndnScan(CustomScanState *node) {
    RndnScanState *s = (RndnScanState *)node;
    if (s->fallback != nullptr) ExecRestrPos(s->fallback);
    // PostgreSQL's contract (index scans, Material): after a restore the caller holds the marked
    // row (a merge join keeps its copy) and the next fetch returns the row after it; returning
    // the marked row again joined it twice (issue 18's random batch, a merge join over rndn)
    s->cursor = s->mark + 1;
    s->eof = false;
}

// The rows a program will read by the catalog's estimates (pg_class.reltuples of its relations;
// a relation never analyzed counts 0): what rndn.device = auto decides by in EXPLAIN without
// ANALYZE.  Runs inside EXPLAIN's ExplainCustomScan, where a catalog lookup may raise.
double EstimatedInputRows(const std::vector<pg::RelationRead> &relations) {
    double rows = 0;
    for (const pg::RelationRead &r : relations) {
        const Oid relid = (Oid)r.relid;
        rows += pg::PgCall([relid] {
            double n = 0;
            HeapTuple tup = SearchSysCache1(RELOID, ObjectIdGetDatum(relid));
            if (HeapTupleIsValid(tup)) {
                n = std::max<double>(0, ((Form_pg_class)GETSTRUCT(tup))->reltuples);
                ReleaseSysCache(tup);
            }
            return n;
        });
    }
    return rows;
}

void ExplainRndnScan(CustomScanState *node, List *ancestors, ExplainState *es) {
    (void)ancestors;
    RndnScanState *s = (RndnScanState *)node;
    CustomScan *cs = (CustomScan *)node->ss.ps.plan;
    const char *summary = PrivateString(cs, pg::PrivateSlot::SUMMARY);
    ExplainPropertyText("Relations", summary[0] != '\0' ? summary : "(none: constants only)", es);
    DeviceChoice d = DeviceChoice::INTERP;
    const char *why = nullptr;
    if (s->run != nullptr && s->run->executed && s->run->device != nullptr) {
        // EXPLAIN ANALYZE: the device that ran it
        for (DeviceChoice c : {DeviceChoice::INTERP, DeviceChoice::CPU, DeviceChoice::CUDA})
            if (std::strcmp(s->run->device, DeviceName(c)) == 0) d = c;
    } else if (!ResolveDevice(&d, &why, s->run != nullptr ? EstimatedInputRows(s->run->relations) : 0,
                              s->run != nullptr ? s->run->est_groups : 0)) {
        d = DeviceChoice::INTERP;
    }
    ExplainPropertyText("Device", DeviceName(d), es);
    if (d != DeviceChoice::INTERP) {
        // the builtins a compiling device leaves on the interpreter (no kernel form yet)
        char list[1024] = {0};
        const char *program = PrivateString(cs, pg::PrivateSlot::PROGRAM);
        Outcome o = RunGuarded([&]() -> Status {
            RNDN_ASSIGN_OR_RETURN(auto plan, runtime::CompiledPlan::CompileText(program, "explain"));
            RNDN_ASSIGN_OR_RETURN(auto outlined, codegen::Outline(plan->program(), codegen::FusionMode::FULL, codegen::CostModel::CPU_DEVICE));
            std::string text;
            for (const auto &b : codegen::InterpretedBuiltins(outlined)) text += (text.empty() ? "" : ", ") + b;
            if (text.size() >= sizeof(list)) text = text.substr(0, sizeof(list) - 5) + " ...";
            std::memcpy(list, text.data(), text.size());
            return Status::Ok();
        });
        if (o.ok() && list[0] != '\0') ExplainPropertyText("Interpreted Builtins", list, es);
    }
    if (es->verbose) ExplainPropertyText("HorseIR", PrivateString(cs, pg::PrivateSlot::PROGRAM), es);
    if (es->analyze && s->fallback != nullptr) ExplainPropertyText("Fallback", "PostgreSQL plan (the program could not run)", es);
    if (es->analyze && s->run != nullptr && s->run->executed) {
        ExplainPropertyInteger("Rows Loaded", nullptr, s->run->rows_loaded, es);
        ExplainPropertyInteger("Relations From Column Cache", nullptr, s->run->cached_relations, es);
        if (s->run->shared_relations > 0)
            ExplainPropertyInteger("Relations From Shared Cache", nullptr, s->run->shared_relations, es);
        if (s->run->file_relations > 0)
            ExplainPropertyInteger("Relations From Column Files", nullptr, s->run->file_relations, es);
        const runtime::RunReport &rep = s->run->report;
        if (s->run->device != nullptr && std::strcmp(s->run->device, "interp") != 0) {
            ExplainPropertyInteger("Kernels Launched", nullptr, rep.kernels_launched, es);
            if (rep.kernels_redone > 0) ExplainPropertyInteger("Kernels Re-run On Interpreter", nullptr, rep.kernels_redone, es);
            if (rep.kernels_deferred > 0)
                ExplainPropertyInteger("Kernels Interpreted While Compiling", nullptr, rep.kernels_deferred, es);
            ExplainPropertyInteger("Statements Compiled", nullptr, rep.statements_compiled, es);
            ExplainPropertyInteger("Statements Interpreted", nullptr, rep.statements_interpreted, es);
            if (rep.whole_program_interpreted) ExplainPropertyText("Rerun On Interpreter", rep.runner_error.c_str(), es);
        }
        if (!g_settings.regression_mode) {
            ExplainPropertyInteger("Bytes Loaded", "bytes", s->run->bytes_loaded, es);
            if (list_length(cs->custom_private) > (int)pg::PrivateSlot::TRANSLATE_MS)
                ExplainPropertyFloat("Translate Time", "ms", atof(PrivateString(cs, pg::PrivateSlot::TRANSLATE_MS)), 3, es);
            ExplainPropertyFloat("Load Time", "ms", s->run->load_ms, 3, es);
            if (s->run->loader_threads > 0) {
                ExplainPropertyInteger("Loader Threads", nullptr, s->run->loader_threads, es);
                ExplainPropertyFloat("Deform CPU Time", "ms", s->run->deform_cpu_ms, 3, es);
            }
            ExplainPropertyFloat("Execute Time", "ms", s->run->exec_ms, 3, es);
            if (s->run->device != nullptr && std::strcmp(s->run->device, "interp") != 0) {
                // "from cache (same shape)": a plan with other constants found this shape's kernels
                ExplainPropertyText("Modules", rep.module_cached ? (rep.shape_cached ? "from cache (same shape)" : "from cache") : "compiled", es);
                ExplainPropertyInteger("Modules Compiled", nullptr, rep.modules_compiled, es);
                if (rep.modules_driver_jit > 0) ExplainPropertyInteger("Modules From Driver JIT", nullptr, rep.modules_driver_jit, es);
                ExplainPropertyInteger("PTX Generated", nullptr, rep.ptx_generated, es);
                ExplainPropertyFloat("PTX Generation Time", "ms", rep.ptx_ms, 3, es);
                ExplainPropertyFloat("JIT Time", "ms", rep.jit_ms, 3, es);
                ExplainPropertyFloat("Kernel Time", "ms", rep.kernel_ms, 3, es);
            }
        }
    }
}

CustomExecMethods g_exec_methods;

Node *CreateRndnScanState(CustomScan *cs) {
    (void)cs;
    RndnScanState *s = (RndnScanState *)newNode(sizeof(RndnScanState), T_CustomScanState);
    s->css.methods = &g_exec_methods;
    s->run = nullptr;
    s->fallback = nullptr;
    return (Node *)s;
}

}  // namespace

void RegisterScanMethods() {
    pg::RegisterScanMethods(CreateRndnScanState);
    g_exec_methods.CustomName = "rndn";
    g_exec_methods.BeginCustomScan = BeginRndnScan;
    g_exec_methods.ExecCustomScan = ExecRndnScan;
    g_exec_methods.EndCustomScan = EndRndnScan;
    g_exec_methods.ReScanCustomScan = ReScanRndnScan;
    g_exec_methods.MarkPosCustomScan = MarkPosRndnScan;
    g_exec_methods.RestrPosCustomScan = RestrPosRndnScan;
    g_exec_methods.ExplainCustomScan = ExplainRndnScan;
}

}  // namespace rndn::exec
