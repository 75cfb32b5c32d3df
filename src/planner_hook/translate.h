// Plan tree -> HorseIR program text (internal to src/planner_hook).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "common/status.h"
#include "planner_hook/planner_hook.h"

struct Plan;
struct PlannedStmt;

namespace rndn::hir {
struct Program;
}

namespace rndn::plan {

struct Translation {
    // The program the translator built (hir::Builder); main returns a table c0..cN-1 and takes
    // the query's parameters (pg::ParamName).  CheckProgram prints it to `program`.
    std::shared_ptr<hir::Program> program_value;
    std::string program;                 // canonical HorseIR text (what the plan node carries)
    std::vector<RelationRead> relations;  // what the loader reads
    std::string summary;                 // "lineitem (l_quantity, l_shipdate)" for EXPLAIN
    // The program treats text as bytes where PostgreSQL counts characters (substring, LIKE
    // '_'): the loader checks that every text value it loads is ASCII; if one is not, the
    // executor runs PostgreSQL's own plan instead.
    bool ascii_guard = false;
    // The program converts with the session's TimeZone (or a zone name read through the
    // abbreviation table): pg::TimeZoneKey() at plan time; the executor runs PostgreSQL's plan
    // under any other (a plan cached before SET TimeZone).  Empty: no time zone used.
    std::string timezone;
    // The program writes text whose form depends on a setting (floats: extra_float_digits > 0;
    // dates and timestamps: DateStyle ISO), as the translator found it: a cached plan run under
    // another setting runs PostgreSQL's own plan instead.
    bool float_text_guard = false;
    bool iso_date_guard = false;
    bool interval_style_guard = false;  // intervals as text or text as intervals: IntervalStyle postgres
};

// Translates the subtree `plan` of `stmt`.  UNSUPPORTED (with a one-line reason naming the
// node) when any part cannot run through rndn.  Calls only PostgreSQL catalog lookups.
Expected<Translation> TranslatePlan(PlannedStmt *stmt, Plan *plan);

// Prints the built program once (its canonical text, into t.program), then parses that text,
// type-checks and shape-checks it: what the executor will parse is what was checked.
// UNSUPPORTED with the checker's message when it is rejected.
Status CheckProgram(Translation &t);

// Short name of a plan node type ("Seq Scan", "Hash Join", ...).
const char *PlanNodeName(const Plan *plan);

}  // namespace rndn::plan
