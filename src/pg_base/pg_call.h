// PgCall: the one guarded way to call PostgreSQL from C++ code that has objects alive.
//
// PostgreSQL raises an ERROR with siglongjmp, which would skip the destructors of every C++
// frame between the call and PostgreSQL's handler.  PgCall runs one call under PG_TRY; when it
// raises, the ERROR is copied (CopyErrorData, into the memory context current at the call), the
// error state flushed, and the copy thrown as pg::PgError: the C++ frames unwind normally, and
// RunGuarded / RaiseIfError (boundary.h) re-raise it at the boundary with ReThrowError, so the
// client sees PostgreSQL's own SQLSTATE, message, detail and hint.  Nothing else runs in
// between: the transaction's abort releases what PostgreSQL held (buffer pins and locks,
// relations, memory contexts).  Destructors therefore never call PostgreSQL.
//
// The callable must be a thin lambda around PostgreSQL calls that creates no C++ object with a
// destructor.  Include after postgres.h.
#pragma once

extern "C" {
#include "postgres.h"

#include "utils/memutils.h"
}

#include <exception>
#include <type_traits>

#include "pg_base/boundary.h"

namespace rndn::pg {

namespace detail {
// Runs body() under PG_TRY: the caught ERROR (copied into `ctx`), or null.  A C++ exception
// from body leaves PG_TRY normally and is stored in *cxx.  Locals live outside this frame.
template <class B>
ErrorData *TryPg(B &body, std::exception_ptr *cxx) {
    MemoryContext const ctx = CurrentMemoryContext;
    ErrorData *volatile edata = nullptr;
    PG_TRY();
    {
        try {
            body();
        } catch (...) {
            *cxx = std::current_exception();
        }
    }
    PG_CATCH();
    {
        MemoryContextSwitchTo(ctx);
        edata = CopyErrorData();
        FlushErrorState();
    }
    PG_END_TRY();
    return edata;
}
}  // namespace detail

template <class F>
auto PgCall(F &&fn) -> decltype(fn()) {
    using R = decltype(fn());
    std::exception_ptr cxx;
    if constexpr (std::is_void_v<R>) {
        auto body = [&] { fn(); };
        if (ErrorData *e = detail::TryPg(body, &cxx)) throw PgError(e);
        if (cxx) std::rethrow_exception(cxx);
    } else {
        R result{};
        auto body = [&] { result = fn(); };
        if (ErrorData *e = detail::TryPg(body, &cxx)) throw PgError(e);
        if (cxx) std::rethrow_exception(cxx);
        return result;
    }
}

}  // namespace rndn::pg
