// rndn::plan — the PostgreSQL planner side of rndn.
//
// After standard_planner, the planner hook walks the PlannedStmt, translates the largest
// subtrees it can (the whole plan whenever possible) into one HorseIR program each, and puts a
// CustomScan "rndn" in their place when rndn's plan is expected to be faster (or rndn.force is
// on).  What it cannot translate stays exactly as PostgreSQL planned it; the reason is logged
// at DEBUG1 and, with rndn.explain_fallback, shown by EXPLAIN.  The layout of the node's
// custom_private is shared with the executor through src/pg_base/plan_node.h.
#pragma once

#include "common/status.h"
#include "pg_base/plan_node.h"

namespace rndn::plan {

using pg::ParseRelations;
using pg::PrivateSlot;
using pg::RelationRead;
using pg::SerializeRelations;

// Installs the planner hook and the EXPLAIN hook (chained to any previous hooks); declared in
// pg_base/plan_node.h for _PG_init.
void InstallHooks();

}  // namespace rndn::plan
