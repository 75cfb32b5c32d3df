// The C/C++ boundary: the only place where C++ failures become PostgreSQL errors.
//
// Every function PostgreSQL calls (hooks, CustomScan methods, SQL functions, GUC hooks) is a
// C-linkage function that holds only trivially destructible locals.  It runs its C++ body
// through RunGuarded(), which catches everything and returns a POD Outcome, and only then,
// with no C++ frame that owns resources left on the stack, calls RaiseIfError().  So an
// ereport() longjmp never skips a C++ destructor and no exception ever reaches PostgreSQL.
#pragma once

#include <cstring>
#include <exception>
#include <new>
#include <type_traits>

#include "common/status.h"

struct ErrorData;

namespace rndn::pg {

// A PostgreSQL ERROR caught by PgCall (pg_call.h) on its way, as a C++ exception that unwinds
// the C++ frames, to the boundary that re-raises it unchanged.  The ErrorData is palloc'd.
class PgError final : public std::exception {
public:
    explicit PgError(ErrorData *e) noexcept : edata_(e) {}
    ErrorData *edata() const noexcept { return edata_; }
    const char *what() const noexcept override { return "PostgreSQL error"; }

private:
    ErrorData *edata_;
};

struct Outcome {
    Code code = Code::OK;
    char sqlstate[6] = {'0', '0', '0', '0', '0', '\0'};
    char message[1024] = {0};
    ErrorData *pg_error = nullptr;  // a PostgreSQL ERROR to re-raise as it is (code INTERNAL)

    bool ok() const { return code == Code::OK; }
    void Set(Code c, const SqlState &s, const char *msg) noexcept {
        code = c;
        std::memcpy(sqlstate, s.chars, 6);
        std::strncpy(message, msg ? msg : "", sizeof(message) - 1);
        message[sizeof(message) - 1] = '\0';
    }
};
static_assert(std::is_trivially_destructible_v<Outcome>);

// Run body() (returning rndn::Status) and turn any failure into an Outcome. noexcept.
template <class F>
Outcome RunGuarded(F &&body) noexcept {
    Outcome out;
    try {
        Status st = body();
        if (!st.ok()) out.Set(st.code(), st.sqlstate(), st.message().c_str());
    } catch (const PgError &e) {
        out.Set(Code::INTERNAL, sqlstate::kInternalError, "PostgreSQL error");
        out.pg_error = e.edata();
    } catch (const std::bad_alloc &) {
        out.Set(Code::OUT_OF_MEMORY, sqlstate::kOutOfMemory, "out of memory in rndn");
    } catch (const std::exception &e) {
        out.Set(Code::INTERNAL, sqlstate::kInternalError, e.what());
    } catch (...) {
        out.Set(Code::INTERNAL, sqlstate::kInternalError, "unknown C++ exception");
    }
    return out;
}

// Raise out as a PostgreSQL ERROR (no-op when ok); a caught PostgreSQL ERROR is re-raised with
// ReThrowError, unchanged.  Call only from a frame whose locals are trivially destructible: it
// may longjmp.  A caller that might do something else with a failed Outcome (run PostgreSQL's
// plan instead) must re-raise a pg_error first: PostgreSQL's state is only cleaned up by the
// abort that follows the ERROR.
void RaiseIfError(const Outcome &out);

}  // namespace rndn::pg
