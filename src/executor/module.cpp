// Extension entry points: _PG_init and the SQL-callable functions of sql/rndn--*.sql.
extern "C" {
#include "postgres.h"

#include "fmgr.h"
#include "utils/builtins.h"

PG_MODULE_MAGIC;

PGDLLEXPORT void _PG_init(void);
PGDLLEXPORT Datum rndn_version(PG_FUNCTION_ARGS);
PGDLLEXPORT Datum rndn_raise_internal(PG_FUNCTION_ARGS);
PGDLLEXPORT Datum rndn_horseir(PG_FUNCTION_ARGS);
PG_FUNCTION_INFO_V1(rndn_version);
PG_FUNCTION_INFO_V1(rndn_raise_internal);
PG_FUNCTION_INFO_V1(rndn_horseir);
}

#include <new>
#include <stdexcept>
#include <string>

#include "executor/boundary.h"
#include "executor/guc.h"
#include "executor/rndn_exec.h"
#include "planner_hook/planner_hook.h"

#define RNDN_VERSION_STRING "0.1.0"

void _PG_init(void) {
    rndn::exec::DefineSettings();
    rndn::exec::RegisterScanMethods();
    rndn::plan::InstallHooks();
}

// rndn_horseir(query text): the HorseIR program the query translates to, or NULL (with a
// NOTICE giving the reason) when it does not go to rndn as a whole.
Datum rndn_horseir(PG_FUNCTION_ARGS) {
    const char *query = text_to_cstring(PG_GETARG_TEXT_PP(0));
    char *reason = nullptr;
    char *program = rndn_translate_query_text(query, &reason);
    if (program == nullptr) {
        ereport(NOTICE, (errmsg("rndn does not run this query: %s", reason ? reason : "unknown reason")));
        PG_RETURN_NULL();
    }
    PG_RETURN_TEXT_P(cstring_to_text(program));
}

Datum rndn_version(PG_FUNCTION_ARGS) {
    PG_RETURN_TEXT_P(cstring_to_text(RNDN_VERSION_STRING));
}

namespace {

rndn::Status RaiseInternalImpl(const char *kind_cstr) {
    std::string kind(kind_cstr);  // owns heap memory: must be unwound, never longjmp'ed over
    if (kind == "user") return rndn::Status::UserError(rndn::sqlstate::kDivisionByZero, "division by zero");
    if (kind == "exception") throw std::runtime_error("deliberate failure inside rndn (" + kind + ")");
    if (kind == "bad_alloc") throw std::bad_alloc();
    if (kind == "unknown") throw 42;
    return rndn::Status::UserError(rndn::sqlstate::kInvalidParameter,
                                   "unknown kind \"" + kind + "\": expected user, exception, bad_alloc or unknown");
}

}  // namespace

Datum rndn_raise_internal(PG_FUNCTION_ARGS) {
    const char *kind = text_to_cstring(PG_GETARG_TEXT_PP(0));
    const rndn::exec::Outcome out = rndn::exec::RunGuarded([kind] { return RaiseInternalImpl(kind); });
    rndn::exec::RaiseIfError(out);
    PG_RETURN_VOID();
}
