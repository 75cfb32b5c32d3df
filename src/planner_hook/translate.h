// Plan tree -> HorseIR program text (internal to src/planner_hook).
#pragma once

#include <string>
#include <vector>

#include "common/status.h"
#include "planner_hook/planner_hook.h"

struct Plan;
struct PlannedStmt;

namespace rndn::plan {

struct Translation {
    std::string program;                 // HorseIR text; main returns a table c0..cN-1
    std::vector<RelationRead> relations;  // what the loader reads
    std::string summary;                 // "lineitem (l_quantity, l_shipdate)" for EXPLAIN
    // The program treats text as bytes where PostgreSQL counts characters (substring, LIKE
    // '_'): the loader checks that every text value it loads is ASCII; if one is not, the
    // executor runs PostgreSQL's own plan instead.
    bool ascii_guard = false;
};

// Translates the subtree `plan` of `stmt`.  UNSUPPORTED (with a one-line reason naming the
// node) when any part cannot run through rndn.  Calls only PostgreSQL catalog lookups.
Expected<Translation> TranslatePlan(PlannedStmt *stmt, Plan *plan);

// Parses, type-checks and shape-checks a translated program; UNSUPPORTED with the checker's
// message when it is rejected.  A program without generic-plan parameters is replaced by its
// canonical text (PrintProgram of the parsed program); one with "$P<n>:<type>$" placeholders is
// checked with each placeholder as a parameter of main of that type and kept as it is.
Status CheckProgramText(std::string &program_text);

// Short name of a plan node type ("Seq Scan", "Hash Join", ...).
const char *PlanNodeName(const Plan *plan);

}  // namespace rndn::plan
