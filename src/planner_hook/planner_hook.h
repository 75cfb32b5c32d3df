// rndn::plan — the PostgreSQL planner side of rndn.
//
// After standard_planner, the planner hook walks the PlannedStmt, translates the largest
// subtrees it can (the whole plan whenever possible) into one HorseIR program each, and puts a
// CustomScan "rndn" in their place.  What it cannot translate stays exactly as PostgreSQL
// planned it; the reason is logged at DEBUG1 and, with rndn.explain_fallback, shown by EXPLAIN.
//
// custom_private of an rndn CustomScan (named slots, see PrivateSlot) holds only String nodes,
// so it survives copyObject / nodeToString / stringToNode (plan cache, parallel workers).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "common/status.h"

namespace rndn::plan {

// Slots of CustomScan.custom_private (each a String node).
enum class PrivateSlot : int { PROGRAM = 0, RELATIONS = 1, SUMMARY = 2, TRANSLATE_MS = 3, FLAGS = 4, COUNT = 5 };
// FLAGS: "ascii" when the loader must verify that all text is ASCII (else: run the fallback).
// custom_plans holds PostgreSQL's own plan for the same subtree: the executor runs it when the
// program cannot run after all (a guard fails, the device gives up).

// One relation the program reads: the registry table `name` holds columns "a<attnum>".
struct RelationRead {
    unsigned relid = 0;            // pg_class OID
    std::string name;              // registry name used by the program (r0, r1, ...)
    std::vector<int> attnums;      // columns to load, ascending
};

// "r0 16384 1,5,6\n..." <-> relations.
std::string SerializeRelations(const std::vector<RelationRead> &rels);
bool ParseRelations(const std::string &text, std::vector<RelationRead> *rels);

// Generic plans: a program may hold placeholders "$P<n>:<type>$" for query parameter n.  Before
// each run the executor replaces every one (outside string literals) by the literal of the
// parameter's value; `fetch(n, &type_oid, &datum, &isnull)` supplies it (false: no value).
// UNSUPPORTED when a value has no HorseIR literal (the executor then runs PostgreSQL's plan).
using ParamFetchFn = std::function<bool(int, unsigned *, uintptr_t *, bool *)>;
Status SubstituteParams(std::string &program, const ParamFetchFn &fetch);

// Installs the planner hook and the EXPLAIN hook (chained to any previous hooks).
void InstallHooks();

}  // namespace rndn::plan

// C-linkage helpers used by the executor (defined in hook.cpp).
extern "C" {
// The HorseIR program the statement text translates to (whole plan), or NULL with the
// fallback reason in *reason (palloc'd).  Plans the query without executing it.
char *rndn_translate_query_text(const char *query, char **reason);
}
