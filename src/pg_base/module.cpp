// Extension entry points: _PG_init (settings, then the executor side, then the planner side) and
// the SQL-callable functions that belong to neither side (rndn_horseir is the planner's, hook.cpp).
extern "C" {
#include "postgres.h"

#include "fmgr.h"
#include "utils/builtins.h"

PG_MODULE_MAGIC;

PGDLLEXPORT void _PG_init(void);
PGDLLEXPORT Datum rndn_version(PG_FUNCTION_ARGS);
PGDLLEXPORT Datum rndn_raise_internal(PG_FUNCTION_ARGS);
PGDLLEXPORT Datum rndn_heap_bytes(PG_FUNCTION_ARGS);
PG_FUNCTION_INFO_V1(rndn_heap_bytes);
PG_FUNCTION_INFO_V1(rndn_version);
PG_FUNCTION_INFO_V1(rndn_raise_internal);
}

#include <malloc.h>
#include <signal.h>
#include <unistd.h>

#include <new>
#include <stdexcept>
#include <string>

#include "cpujit/cpujit.h"
#include "pg_base/boundary.h"
#include "pg_base/guc.h"
#include "pg_base/plan_node.h"

#define RNDN_VERSION_STRING "0.1.0"

namespace {
// LLVM's fatal errors and out-of-memory inside rndn's cpu device end this backend with FATAL,
// as PostgreSQL's own LLVM JIT does, instead of aborting (which would restart the server).
void LlvmFatal(const char *reason) {
    ereport(FATAL, (errcode(ERRCODE_INTERNAL_ERROR), errmsg("fatal error in LLVM (rndn cpu device): %s", reason)));
}
// The same on one of the cpu device's background compile threads, which must not call into
// PostgreSQL: the reason is in the server log (cpujit wrote it), and the backend ends itself as
// on pg_terminate_backend (its own thread takes the signal; rndn's threads block it).
void LlvmFatalBackground(const char *) { (void)kill(getpid(), SIGTERM); }
}  // namespace

void _PG_init(void) {
    rndn::cpujit::SetEmbedded(LlvmFatal, LlvmFatalBackground);
    rndn::pg::DefineSettings();
    rndn::exec::RegisterScanMethods();
    rndn::exec::RegisterSharedCache();
    rndn::plan::InstallHooks();
}

// rndn_heap_bytes(): bytes this backend has allocated with malloc (C++ objects included), for
// the tests that check an ERROR leaks no memory.
Datum rndn_heap_bytes(PG_FUNCTION_ARGS) {
    const struct mallinfo2 mi = mallinfo2();
    PG_RETURN_INT64((int64)(mi.uordblks + mi.hblkhd));
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
    const rndn::pg::Outcome out = rndn::pg::RunGuarded([kind] { return RaiseInternalImpl(kind); });
    rndn::pg::RaiseIfError(out);
    PG_RETURN_VOID();
}
