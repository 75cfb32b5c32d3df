// Plan-time check of a translated program (no PostgreSQL headers).
#include "horseir/horseir.h"
#include "planner_hook/translate.h"

namespace rndn::plan {

Status CheckProgram(Translation &t) {
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

}  // namespace rndn::plan
