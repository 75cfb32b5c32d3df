// Internal to src/planner_hook: the translator's vocabulary (function table, columns,
// relations) and the Translator class.  translate_expr.cpp holds the expression half,
// translate.cpp the plan-node half.
//
// Plan tree -> a HorseIR program built with hir::Builder (no HorseIR text is written here: the
// program is printed once, at the end, to the canonical text the plan node carries).  Every plan
// node becomes a relation of lazily emitted columns (all of one length), so a column is loaded,
// filtered and gathered only when something above actually reads it.  Anything not covered
// yields Status::Unsupported("<node>: <why>").
#pragma once

// Before PostgreSQL's headers: utils/datetime.h defines MONTH, elog.h LOG (names in horseir.h).
#include "horseir/horseir.h"
#include "horseir/regex.h"
#include "pg_base/datum_value.h"

extern "C" {
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/pg_aggregate.h"
#include "catalog/pg_am.h"
#include "catalog/pg_class.h"
#include "catalog/pg_index.h"
#include "catalog/pg_language.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_type.h"
#include "fmgr.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "nodes/plannodes.h"
#include "parser/parsetree.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/date.h"
#include "utils/datetime.h"
#include "mb/pg_wchar.h"
#include "utils/lsyscache.h"
#include "utils/pg_locale.h"
#include "utils/rel.h"
#include "utils/relcache.h"
#include "utils/syscache.h"
}

#include <algorithm>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "planner_hook/translate.h"
// Last: PostgreSQL calls that can raise become guarded calls (see pg_guarded.h).
#include "planner_hook/pg_guarded.h"

namespace rndn::plan::internal {

// ---------------------------------------------------------------------------------------------
// The function table (pg_functions.def)

enum class FnKind : uint8_t { BINARY, UNARY, CAST, RELABEL, LIKE, NOTLIKE, SUBSTR, EXTRACT, DATE_TS, TS_DATE, ROUND, TRUNC,
                              STRFN, CONCAT, REGEX, NOTREGEX, REGEXREPL, INTERVAL_PL, INTERVAL_MI, FLOATFN,
                              NUMTYPMOD, NUMTRUNC, ZONE, ZONE_CMP, STABLE_TS,
                              TOCHAR };
enum : unsigned { F_DIV = 1, F_NZCONST = 2, F_ORDERED = 4, F_EQ = 8, F_CHARS = 16, F_CTYPE = 32, F_SPACE = 64, F_CONSTN = 128,
                  F_ICASE = 256, F_DETERM = 512, F_BLANKS = 1024 };

struct FnRow {
    const char *prosrc;
    FnKind kind;
    hir::Builtin builtin;  // NONE (= hir::Builtin::COUNT_) where the kind names no builtin
    unsigned flags;
};

// The BUILTIN column of pg_functions.def names a hir::Builtin enumerator (PLUS, LT, ...), or
// NONE; a misspelt one does not compile.
namespace pgfn {
using enum hir::Builtin;
inline constexpr hir::Builtin NONE = hir::Builtin::COUNT_;
}  // namespace pgfn
#define RNDN_PGFN(src, kind, builtin, flags) {src, FnKind::kind, pgfn::builtin, flags},
inline constexpr FnRow kFnRows[] = {
#include "planner_hook/pg_functions.def"
};
#undef RNDN_PGFN
#undef RNDN_CMP6
#undef RNDN_DATE_TS6

inline const std::unordered_map<std::string, const FnRow *> &FnTable() {
    static const std::unordered_map<std::string, const FnRow *> table = [] {
        std::unordered_map<std::string, const FnRow *> m;
        for (const FnRow &r : kFnRows) m.emplace(r.prosrc, &r);
        return m;
    }();
    return table;
}

// The row for a function OID: only internal-language functions qualify (their prosrc names
// the C implementation).  Cached per backend; built-in OIDs never change meaning.
inline const FnRow *LookupFunction(Oid fn) {
    static std::unordered_map<Oid, const FnRow *> cache;
    auto it = cache.find(fn);
    if (it != cache.end()) return it->second;
    const FnRow *row = nullptr;
    HeapTuple tup = SearchSysCache1(PROCOID, ObjectIdGetDatum(fn));
    if (HeapTupleIsValid(tup)) {
        Form_pg_proc proc = (Form_pg_proc)GETSTRUCT(tup);
        if (proc->prolang == INTERNALlanguageId) {
            bool isnull = true;
            Datum src = SysCacheGetAttr(PROCOID, tup, Anum_pg_proc_prosrc, &isnull);
            if (!isnull) {
                char *s = TextDatumGetCString(src);
                auto f = FnTable().find(s);
                if (f != FnTable().end()) row = f->second;
                pfree(s);
            }
        }
        ReleaseSysCache(tup);
    }
    cache.emplace(fn, row);
    return row;
}

inline std::string FuncName(Oid fn) {
    char *n = get_func_name(fn);
    std::string s = n ? n : ("function " + std::to_string(fn));
    if (n) pfree(n);
    return s;
}

// ---------------------------------------------------------------------------------------------
// Types

inline bool IsTextType(Oid t) { return t == TEXTOID || t == VARCHAROID || t == BPCHAROID; }
// Whether text under this collation orders by its bytes, as the interpreter compares: C and
// POSIX, and libc's C.UTF-8 in a UTF-8 database (it orders by code point, which UTF-8's bytes
// keep).  Other collations keep PostgreSQL's plan wherever text is ordered.
bool ByteOrderCollation(Oid collation);
// Other deterministic collations of a UTF-8 database: the collation string of @collate_rank
// ("libc:<LC_COLLATE>", "icu:<ICU locale>"), through which text under them is sorted, compared
// and min/max'ed in PostgreSQL's order (varstr_cmp); nullopt where that is not known to hold
// (other encodings, nondeterministic collations).
std::optional<std::string> RankCollation(Oid collation);
// The join under a LIMIT (through streaming nodes) estimated far above the rows the LIMIT
// takes, or null: PostgreSQL's plan stops it early, so it stays there.
const Plan *HugeJoinUnderLimit(const Plan *limit);
inline bool IsIntType(Oid t) { return t == INT2OID || t == INT4OID || t == INT8OID; }

inline int NumericScale(int32 typmod) {
    if (typmod < (int32)VARHDRSZ) return -1;
    const int32 tm = typmod - VARHDRSZ;
    const int scale = (((tm & 0x7ff) ^ 1024) - 1024);
    const int precision = (tm >> 16) & 0xffff;
    if (scale < 0 || precision > 38 || scale > precision) return -1;
    return scale;
}

// HorseIR type of a column of PostgreSQL type `type`; scale for numeric (dec128<scale>).  The
// table is pg::HirTypeOf (src/pg_base/datum_value.cpp), shared with the executor's parameters.
inline std::optional<hir::Type> HirType(Oid type, int scale) { return pg::HirTypeOf(type, scale); }
inline hir::Type Dec128(int scale) { return hir::Type::Decimal(hir::TypeKind::DEC128, scale); }

// For messages only: a type that is gone (dropped by a concurrent transaction) is "???", not
// an ERROR (the node then stays with PostgreSQL, whose plan raises its own error, or none).
inline std::string TypeName(Oid type) {
    char *n = format_type_extended(type, -1, FORMAT_TYPE_ALLOW_INVALID);
    std::string s(n);
    pfree(n);
    return s;
}

// ---------------------------------------------------------------------------------------------
// Columns and relations

using Op = hir::Operand;
using B = hir::Builtin;
// A full-length vector of a relation (its row count is @len of it), made on first use.
using LenFn = std::function<Expected<Op>()>;
inline bool Empty(const Op &o) { return o.kind == Op::Kind::NAME && o.name.empty(); }

struct Col {
    Op var;  // a HorseIR variable, or a literal operand when scalar
    Oid type = InvalidOid;
    int32 typmod = -1;
    bool scalar = false;  // length 1 (a constant): broadcast by element-wise builtins
    int scale = -1;       // numeric: static scale when known
};

// A column whose statements are emitted on first use.
class LazyCol {
public:
    explicit LazyCol(std::function<Expected<Col>()> fn) : fn_(std::move(fn)) {}
    Expected<Col> Get() {
        if (!memo_) memo_.emplace(fn_());
        if (!memo_->ok()) return memo_->status();
        return memo_->value();
    }

private:
    std::function<Expected<Col>()> fn_;
    std::optional<Expected<Col>> memo_;
};
using LazyPtr = std::shared_ptr<LazyCol>;

struct Rel {
    std::vector<LazyPtr> cols;
    LenFn len_var;  // a full-length vector variable
    // Hidden columns that travel with the rows: for a correlated parameter p being
    // decorrelated, extras[p] is the expression the parameter was compared with (p >= 0);
    // negative keys are private to one node (index order keys).
    std::map<int, LazyPtr> extras;
    // Conditions on a correlated parameter that are not `col = $p` (e.g. `col <> $p`): kept as
    // expressions in which the relation's columns became markers (PARAM_EXEC ids >=
    // kMarkerBase, each with its column in extras) until the join that sets the parameter.
    std::vector<Expr *> deferred;
};
constexpr int kMarkerBase = 1 << 24;

// True when n holds a division that may raise (see translate_expr.cpp).
bool ContainsDivision(Node *n);

inline Status Unsup(const Plan *plan, const std::string &why) {
    return Status::Unsupported(std::string(PlanNodeName(plan)) + ": " + why);
}

// ---------------------------------------------------------------------------------------------

class Translator {
public:
    explicit Translator(PlannedStmt *stmt) : stmt_(stmt) { b_.BeginFunction("main", {hir::Type(hir::TypeKind::TABLE)}); }
    Expected<Translation> Run(Plan *root);
    // A numeric query parameter without a declared scale, as ScanNumericParams found it used.
    struct NumericParamUse {
        bool exposed = false;    // some use can show its display scale (not only compared)
        int context_scale = -1;  // largest declared scale of an operand it is combined with
    };

private:
    struct Ctx {
        const Plan *node = nullptr;
        std::shared_ptr<Rel> outer;
        std::shared_ptr<Rel> inner;
        Index scanrelid = 0;
        std::function<Expected<Col>(AttrNumber)> scan_col;
        std::shared_ptr<const std::map<const Aggref *, LazyPtr>> aggs;
        std::shared_ptr<const std::map<const GroupingFunc *, LazyPtr>> groupings;  // GROUPING(...) of grouping sets
        std::shared_ptr<const std::map<const WindowFunc *, LazyPtr>> winfuncs;     // a WindowAgg's functions
        LenFn len_var;
        List *index_tlist = nullptr;  // Index Only Scan: INDEX_VAR k -> index_tlist[k-1]
    };

    std::string NewVar() { return "t" + std::to_string(next_var_++); }
    // One statement "t<N>:? = e;" of main; returns the variable t<N>.  Every builtin the
    // translator emits is a pure function of its operands and the program is straight-line
    // single-assignment code, so an expression already computed is reused (common
    // subexpressions such as PostgreSQL's repeated (1 - l_discount) in TPC-H Q1): the key is the
    // expression's canonical text (hir::PrintExpr).
    Op Emit(hir::Expr e) {
        std::string key = hir::PrintExpr(e);
        auto it = emitted_.find(key);
        if (it != emitted_.end()) return it->second;
        Op v = b_.Assign(NewVar(), hir::Type(), std::move(e));
        emitted_.emplace(std::move(key), v);
        return v;
    }
    // @b(args...)
    Op Emit(B b, std::vector<Op> args) { return Emit(b_.Call(b, std::move(args))); }
    // check_cast(x, t)
    Op EmitCast(Op x, hir::Type t) { return Emit(hir::Builder::Cast(hir::Builder::Use(std::move(x)), std::move(t))); }
    // @b as a function argument (@each(@len, x), @join_index(@eq, a, b))
    static Op Fn(B b) { return hir::Builder::Fn(b); }
    // Each string's rank in the collation's order (see RankCollation).
    Op CollRank(const Op &x, const std::string &collation) { return Emit(B::COLLATE_RANK, {x, b_.Str(collation)}); }
    // The ranks of two compared operands in one order: ranked together, then split.
    Expected<std::pair<Op, Op>> CollRankPair(const Col &a, const Col &b, const std::string &collation);
    // One operand for several key columns: the column itself, or @list of them.
    Op KeyList(const std::vector<Op> &keys) { return keys.size() == 1 ? keys[0] : Emit(B::LIST, keys); }
    Expected<Op> LenOf(const Op &var) {
        const std::string key = hir::PrintOperand(var);
        auto it = len_cache_.find(key);
        if (it != len_cache_.end()) return it->second;
        Op n = Emit(B::LEN, {var});
        len_cache_[key] = n;
        return n;
    }
    // A full-length vector for c (scalars broadcast to the length of len_var).
    Expected<Col> Materialize(const Col &c, const LenFn &len_var) {
        if (!c.scalar) return c;
        if (!len_var) return Status::Unsupported("constant where the row count is unknown");
        RNDN_ASSIGN_OR_RETURN(Op lv, len_var());
        RNDN_ASSIGN_OR_RETURN(Op n, LenOf(lv));
        Col out = c;
        out.var = Emit(B::VECTOR, {n, c.var});
        out.scalar = false;
        return out;
    }

    using RelP = std::shared_ptr<Rel>;
    Expected<RelP> NodeRel(Plan *plan);
    // Append / MergeAppend: the children's rows one after another (column k of the output is
    // column k of every child).
    Expected<RelP> AppendRels(Plan *plan, List *children);
    Expected<RelP> ScanOverRel(Plan *plan, Index scanrelid, RelP child);
    Expected<RelP> Scan(Plan *plan, Index scanrelid, List *quals, List *index_tlist = nullptr,
                        std::map<int, Expr *> extra_exprs = {});
    Expected<RelP> IndexScanNode(Plan *plan, Oid indexid, Index scanrelid, List *quals, List *index_tlist,
                                 ScanDirection dir, bool order_free = false);
    Expected<RelP> AggNode(Agg *agg, RelP in, const std::vector<int> &extra_keys = {});
    Expected<Col> SubPlanX(SubPlan *sp, const Ctx &ctx);
    // The pairs (key tuple, subquery row) of a correlated subquery whose correlation is not only
    // `inner = $p`, under its conditions; each outer row's key tuple number (translate.cpp).
    // extra_key: one more outer expression in the key tuple (an IN subquery's left operand),
    // whose value per key tuple comes back in extra_val.
    struct ThetaPairs {
        Op li, ri, nd, gid;
        Col extra_val;
    };
    Expected<ThetaPairs> ThetaJoin(SubPlan *sp, const Plan *inner_plan, const RelP &in, const std::vector<int> &ids,
                                   const Ctx &ctx, Expr *extra_key = nullptr);
    // A correlated scalar aggregate whose correlation is not only `inner = $p` (translate.cpp).
    Expected<Col> ThetaSubPlan(SubPlan *sp, Agg *agg, RelP in, const std::vector<int> &ids, const Ctx &ctx, bool bare_count,
                               bool cmp);
    Status InitPlans(Plan *plan);
    // top >= 0: only the first `top` rows of the order are needed (a LIMIT above: @order_top).
    Expected<RelP> SortNode(Plan *plan, int nkeys, AttrNumber *cols, Oid *ops, Oid *colls, bool *nulls_first, RelP in,
                            int64_t top = -1);
    Expected<RelP> LimitNode(Limit *limit, RelP in);
    Expected<RelP> UniqueNode(Plan *plan, int ncols, AttrNumber *cols, RelP in);
    Expected<RelP> SetOpNode(SetOp *op, RelP in);
    Expected<RelP> GroupingSetsNode(Agg *agg, RelP in);
    Expected<RelP> WindowAggNode(WindowAgg *wa, RelP in);
    Expected<RelP> JoinNode(Join *join, List *eq_clauses, std::vector<std::pair<Expr *, int>> param_keys = {},
                            bool order_free = false);

    // Applies `quals` (if any) to every input of ctx, then evaluates plan->targetlist lazily.
    // `keep`: (expression, values) pairs; before the quals, the rows whose expression is not
    // among the values are dropped, one pair after the other (see decor_outer_).
    Expected<RelP> FilterAndProject(Plan *plan, Ctx ctx, List *quals, std::map<int, Expr *> extra_exprs = {},
                                    std::vector<std::pair<Expr *, Op>> keep = {});
    Expected<RelP> ProjectOver(Plan *plan, RelP rel, List *quals);
    Expected<Op> Mask(List *quals, const Ctx &ctx);
    Expected<Op> DeferredMask(const std::vector<Expr *> &deferred, const Plan *node, Op li);
    Expected<Col> IntervalPart(const std::string &field, const Col &iv, bool float_result, const Ctx &ctx);
    Expected<int32> ConstPlaces(List *args, const char *fn, const Ctx &ctx);
    // Lazily gathered (@index) or compressed (@compress) copy of a relation.
    RelP Take(const RelP &in, const Op &idx, bool compress, LenFn len);

    Expected<Col> X(Expr *e, const Ctx &ctx);
    Expected<Col> Const_(Const *c, const Plan *node);
    Expected<Col> Call(Oid fn, List *args, Oid result_type, int32 result_typmod, Oid inputcollid, const Ctx &ctx);
    Expected<Op> StringCall(const FnRow &row, List *args, const std::vector<Col> &a, Oid collation, const Ctx &ctx);
    Expected<std::string> TruncUnit(Expr *unit, const char *what, const Ctx &ctx);
    // timestamptz under the session's TimeZone or a constant zone (translate_expr.cpp, "Time
    // zones"): the zone's transition table as one i64 operand, and the TZ / TZ_CMP / NOW rows.
    Expected<Op> ZoneTable(const pg_tz *tz, const Ctx &ctx);
    Expected<Op> SessionZone(const Ctx &ctx);
    Expected<Op> ConstZone(Expr *zone, const Ctx &ctx);
    Expected<Col> TzCall(const FnRow &row, List *args, Oid result_type, int32 result_typmod, const Ctx &ctx);
    Expected<Col> TzCompare(const FnRow &row, List *args, std::vector<Col> a, const Ctx &ctx);
    Expected<Col> NowValue(bool statement, const Ctx &ctx);
    Expected<Col> SqlValueFn(SQLValueFunction *f, const Ctx &ctx);
    Expected<Col> CaseX(CaseExpr *ce, const Ctx &ctx);
    Expected<Col> CoalesceX(CoalesceExpr *ce, const Ctx &ctx);
    Op AssignWhereValid(Op x, Op from);
    Expected<Col> MinMaxX(MinMaxExpr *m, const Ctx &ctx);
    Expected<Col> CoerceIOX(CoerceViaIO *c, const Ctx &ctx);  // casts to and from text (issue 18)
    Expected<Col> ArrayOp(ScalarArrayOpExpr *sa, const Ctx &ctx);
    // The literal of a value of PostgreSQL type `type` (numeric: of that scale), NULL included.
    Expected<Op> ScalarLiteral(Oid type, Datum d, bool isnull, int scale, const Plan *node);
    // The vector literal of several values of one type (VALUES columns, IN lists).
    // Numeric values must have the display scale `scale`, or at most it with `widen`.
    Expected<Op> VectorLiteral(Oid type, const std::vector<Datum> &values, const std::vector<bool> &nulls, int scale,
                               const Plan *node, bool widen = false);
    Expected<Col> CastToScale(const Col &c, int scale);
    // group_vals: the rows of each group (a list of index vectors); frame: instead, per row its
    // window frame [first, second) of rows (@frame); neither: one aggregate over all rows.
    Expected<Col> AggCol(Aggref *a, Rel &in, const Op *group_vals, const Plan *node,
                         const std::pair<Op, Op> *frame = nullptr);
    Expected<Col> StringAggCol(Aggref *a, Rel &in, const Op *group_vals, const Plan *node, const std::pair<Op, Op> *frame);
    Expected<Op> NullLiteral(const Col &c, const Plan *node);
    // A query parameter (PARAM_EXTERN) of a generic plan: a parameter of main.
    Expected<Col> ExternParam(Param *p, const Plan *node);
    // How the subtree uses each numeric query parameter without a declared scale (README,
    // "Query parameters"): fills numeric_params_ before the translation starts.
    void ScanNumericParams(Plan *root);
    std::map<int, NumericParamUse> numeric_params_;

    PlannedStmt *stmt_;
    hir::Builder b_;
    std::unordered_map<std::string, Op> emitted_;  // canonical text of the expression -> variable
    std::map<int, Col> extern_params_;             // PARAM_EXTERN id -> main's parameter
    bool order_free_ = false;  // the next NodeRel's row order cannot show (see NodeRel)
    bool ties_free_ = false;   // the next NodeRel's order shows only up to its sort keys' ties
    int next_var_ = 0;
    std::map<std::string, Op> len_cache_;
    std::map<int, Col> params_;      // PARAM_EXEC id -> value of an init plan (a scalar)
    std::set<int> decor_params_;     // PARAM_EXEC ids being decorrelated (see Rel::extras)
    // A decorrelated parameter's values in the outer rows (an integer or date column): a scan
    // that equates the parameter with one of its expressions keeps only the rows whose value is
    // among them (the groups no outer row looks up are never built; a semi-join reduction).
    struct OuterKeys {
        Op values;
        Oid type = InvalidOid;
        double rows = 0;  // PostgreSQL's estimate of the outer rows
    };
    std::map<int, OuterKeys> decor_outer_;
    bool in_comparison_ = false;     // X() is evaluating an operand of a comparison
    bool ascii_guard_ = false;       // see Translation::ascii_guard
    bool tz_used_ = false;           // see Translation::timezone
    std::map<const void *, Op> zone_ops_;  // a zone's table, emitted once (ZoneTable)
    std::map<bool, Op> now_params_;         // now() / statement_timestamp() parameters
    std::vector<Col> case_tests_;    // the test values of the simple CASEs being translated
    bool float_text_guard_ = false;  // see Translation::float_text_guard
    bool iso_date_guard_ = false;    // see Translation::iso_date_guard
    bool interval_style_guard_ = false;  // see Translation::interval_style_guard

public:
    int NextMarker() { return kMarkerBase + next_marker_++; }

private:
    int next_marker_ = 0;
    std::vector<RelationRead> rels_;
    std::map<std::string, std::string> summary_cols_;  // relation name -> column list
    std::vector<std::string> summary_order_;
};


// Shared helpers (defined in translate.cpp / translate_expr.cpp).
LenFn ConstLen(const Op &v);
bool CollectAggrefs(Node *n, void *ctx);
Expr *StripRelabel(Expr *e);
// A RelabelType that turns a (non-constant) text or varchar into char(n): PostgreSQL then
// compares without trailing blanks, which loaded text values keep.
bool BlankSensitiveToBpchar(Node *n);

}  // namespace rndn::plan::internal
