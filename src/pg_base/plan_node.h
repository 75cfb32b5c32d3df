// rndn::pg — what the planner side (src/planner_hook) and the executor side (src/executor)
// agree on about the plan node Custom Scan (rndn): the slots of its custom_private, the text
// form of the relations it reads, and the one CustomScanMethods object that names it.
// Neither side includes the other's headers; both include this one (a build rule checks it,
// see mk/pg_base.mk).
//
// custom_private holds only String nodes, so it survives copyObject / nodeToString /
// stringToNode (plan cache, parallel workers).  custom_plans holds PostgreSQL's own plan for the
// same subtree: the executor runs it when the program cannot run after all (a guard fails, the
// device gives up, rndn.memory_limit is exceeded before any row was returned, or rndn was
// switched off after the plan was cached).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "common/status.h"

extern "C" {
struct CustomScanMethods;
struct CustomScan;
struct Node;
}

namespace rndn::pg {

// Slots of CustomScan.custom_private (each a String node).
enum class PrivateSlot : int { PROGRAM = 0, RELATIONS = 1, SUMMARY = 2, TRANSLATE_MS = 3, FLAGS = 4, TIMEZONE = 5, COUNT = 6 };
// FLAGS: comma-separated run-time guards: "ascii" when the loader must verify that all text is
// ASCII, "float_text" / "iso_dates" when floats / dates are written as text for
// extra_float_digits > 0 / DateStyle ISO, "interval_style" when intervals are written or read
// as text for IntervalStyle postgres (otherwise the executor runs the fallback).
// TIMEZONE: TimeZoneKey() the program was made for, or "" (see Translation::timezone).

// One relation the program reads: the registry table `name` holds columns "a<attnum>".
struct RelationRead {
    unsigned relid = 0;            // pg_class OID
    std::string name;              // registry name used by the program (r0, r1, ...)
    std::vector<int> attnums;      // columns to load, ascending
};

// "r0 16384 1,5,6\n..." <-> relations.
std::string SerializeRelations(const std::vector<RelationRead> &rels);
bool ParseRelations(const std::string &text, std::vector<RelationRead> *rels);

// Generic plans: query parameter n (PARAM_EXTERN) is the entry function's parameter named
// ParamName(n) ("rndn_p<n>"), declared with the HorseIR type of the parameter's PostgreSQL type.
// The executor binds each one to the parameter's value before the run (no text substitution).
// A numeric parameter without a declared scale that only feeds comparisons is bound by value
// (ParamName(n, true) = "rndn_v<n>"): any value equal to one of its declared dec128<s> type
// binds (see src/planner_hook/README.md, "Query parameters").
std::string ParamName(int paramid, bool by_value = false);
// n for a name ParamName(n, ...); -1 for any other name.  *by_value: which of the two forms.
int ParamIdOf(const std::string &name, bool *by_value = nullptr);

// Stable functions evaluated when the statement runs (issue 18 item 3): entry parameters of
// type dt that the executor binds to GetCurrentTransactionStartTimestamp() (now(),
// transaction_timestamp(), CURRENT_TIMESTAMP, LOCALTIMESTAMP, CURRENT_DATE) and
// GetCurrentStatementStartTimestamp() (statement_timestamp()).
inline constexpr const char *kNowParam = "rndn_now";
inline constexpr const char *kStatementTsParam = "rndn_stmt_ts";
// The session's TimeZone and timezone_abbreviations settings as one string: what a program
// that converts timestamptz was made for (Translation::timezone); the executor compares it.
std::string TimeZoneKey();

// The methods object of Custom Scan (rndn): the planner puts it in every node it makes, the
// executor supplies the function that creates the node's state.
const CustomScanMethods *ScanMethods();
using CreateScanStateFn = Node *(*)(CustomScan *);
// Registers the methods with PostgreSQL (once, from _PG_init through the executor side).
void RegisterScanMethods(CreateScanStateFn create);

// What the executor's column caches can tell the planner's cost model (src/planner_hook asks,
// src/executor answers: it registers the functions from _PG_init; unset, nothing is cached and
// nothing loads in the background).
struct ColumnCacheProbe {
    // True when columns `attnums` of relation relid are held by a column cache (this backend's,
    // the shared one, or the shared cache's column files) under a key that was valid when it was
    // stored: a hint for the cost model, not the proof (the executor checks the key when it runs
    // and loads from the heap if the key no longer holds).
    bool (*cached)(unsigned relid, const std::vector<int> &attnums) = nullptr;
    // Asks a background worker to load the columns into the shared cache, so that a later query
    // finds them there (rndn.background_load).  False when nothing was asked: no shared cache, a
    // relation that cannot be cached, the columns would not fit, a load of the relation already
    // running or tried recently, no free worker slot.
    bool (*load_in_background)(unsigned relid, const std::vector<int> &attnums) = nullptr;
};
ColumnCacheProbe &CacheProbe();

}  // namespace rndn::pg

// The entry points of the two sides, called once by _PG_init (src/pg_base/module.cpp).
namespace rndn::exec {
void RegisterScanMethods();  // src/executor/custom_scan.cpp
// Under shared_preload_libraries: requests the shared column cache's memory (src/executor/shared_cache.cpp).
void RegisterSharedCache();
}
namespace rndn::plan {
void InstallHooks();  // src/planner_hook/hook.cpp
}
