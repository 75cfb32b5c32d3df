extern "C" {
#include "postgres.h"

#include "miscadmin.h"
}

#include "pg_base/boundary.h"

namespace rndn::pg {

void RaiseIfError(const Outcome &out) {
    if (out.ok()) return;
    if (out.pg_error != nullptr) ReThrowError(out.pg_error);
    const int state = MAKE_SQLSTATE(out.sqlstate[0], out.sqlstate[1], out.sqlstate[2], out.sqlstate[3], out.sqlstate[4]);
    switch (out.code) {
        case Code::CANCELLED:
            // The real error (cancel or statement timeout) comes from PostgreSQL itself.
            CHECK_FOR_INTERRUPTS();
            ereport(ERROR, (errcode(ERRCODE_QUERY_CANCELED), errmsg("canceling statement due to user request")));
            break;
        case Code::INTERNAL:
            ereport(ERROR, (errcode(state), errmsg("rndn internal error: %s", out.message)));
            break;
        default:
            ereport(ERROR, (errcode(state), errmsg("%s", out.message)));
    }
}

}  // namespace rndn::pg
