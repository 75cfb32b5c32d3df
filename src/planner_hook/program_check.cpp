// Plan-time check of a translated program.  Only PostgreSQL's interrupt flags are read here
// (horseir.h comes after postgres.h: its names clash with PostgreSQL's macros otherwise).
extern "C" {
#include "postgres.h"

#include "miscadmin.h"
}

#include <functional>

#include "horseir/horseir.h"
#include "pg_base/pg_call.h"
#include "planner_hook/translate.h"

namespace rndn::plan {

namespace {

Status CheckProgramUnpolled(Translation &t) {
    if (!t.program_value) return Status::Internal("translation without a program");
    // The one place the program becomes text: the canonical form the plan node carries.
    t.program = hir::PrintProgram(*t.program_value);
    t.program_value.reset();
    Expected<hir::Program> parsed = hir::ParseProgram(t.program, "rndn");
    if (!parsed.ok()) return Status::Unsupported("HorseIR program does not parse: " + parsed.status().message());
    hir::Program &program = parsed.value();
    Status checked = hir::CheckProgram(program);
    if (!checked.ok()) return Status::Unsupported("HorseIR check failed: " + checked.message());
    Expected<hir::ShapeInfo> shapes = hir::InferShapes(program);
    if (!shapes.ok()) return Status::Unsupported("HorseIR shape check failed: " + shapes.status().message());
    if (hir::PrintProgram(program) != t.program) return Status::Internal("the translated program does not print back to itself");
    return Status::Ok();
}

}  // namespace

// Printing, parsing and checking a program of many thousand statements takes a while: it polls
// PostgreSQL's interrupt flags (reading them calls nothing) and a pending cancel is served here,
// raised as PostgreSQL's own ERROR.
Status CheckProgram(Translation &t) {
    const std::function<bool()> poll = [] { return InterruptPending && (QueryCancelPending || ProcDiePending); };
    try {
        hir::CancelPollScope scope(&poll);
        return CheckProgramUnpolled(t);
    } catch (const hir::CancelUnwind &) {
        pg::PgCall([] { CHECK_FOR_INTERRUPTS(); });
        return Status::Cancelled();
    }
}

}  // namespace rndn::plan
