// Plan-time check of a translated program (no PostgreSQL headers: horseir.h's names clash with
// PostgreSQL's macros).
extern "C" {
#include "postgres.h"

#include "miscadmin.h"
}

#include <functional>
#include <cstdlib>
#include <cstring>
#include <map>

#include "horseir/horseir.h"
#include "pg_base/guc.h"
#include "pg_base/pg_call.h"
#include "planner_hook/translate.h"

namespace rndn::plan {

namespace {

// The program with each generic-plan placeholder "$P<n>:<type>$" turned into a parameter
// "rndn_p<n>" of main (declared with the placeholder's type), so that it parses and checks
// with the parameters' types known and their values not.  String literals are copied as is.
Expected<std::string> PlaceholdersAsParams(const std::string &program, bool *had_params) {
    std::string out;
    out.reserve(program.size());
    std::map<int, std::string> params;
    size_t i = 0;
    const size_t n = program.size();
    while (i < n) {
        const char ch = program[i];
        if (ch == '"') {
            size_t j = i + 1;
            while (j < n && program[j] != '"') j += program[j] == '\\' ? 2 : 1;
            j = std::min(j + 1, n);
            out.append(program, i, j - i);
            i = j;
            continue;
        }
        if (ch == '$' && i + 1 < n && program[i + 1] == 'P') {
            const size_t colon = program.find(':', i);
            const size_t end = colon == std::string::npos ? colon : program.find('$', colon);
            if (end == std::string::npos) return Status::Internal("malformed parameter placeholder in the program");
            const int id = std::atoi(program.c_str() + i + 2);
            const std::string name = "rndn_p" + std::to_string(id);
            params[id] = program.substr(colon + 1, end - colon - 1);
            out += name;
            i = end + 1;
            continue;
        }
        out += ch;
        ++i;
    }
    *had_params = !params.empty();
    if (params.empty()) return out;
    std::string decl;
    for (const auto &[id, type] : params) decl += (decl.empty() ? "" : ", ") + ("rndn_p" + std::to_string(id)) + ":" + type;
    const size_t at = out.find("def main()");
    if (at == std::string::npos) return Status::Internal("program without main()");
    out.insert(at + std::strlen("def main("), decl);
    return out;
}

}  // namespace

namespace {
// Parsing, checking and printing a program of many thousand statements takes a while: it polls
// PostgreSQL's interrupt flags (reading them calls nothing) and a pending cancel is served here,
// raised as PostgreSQL's own ERROR.
Status CheckProgramTextUnpolled(std::string &program_text);
}  // namespace

Status CheckProgramText(std::string &program_text) {
    const std::function<bool()> poll = [] { return InterruptPending && (QueryCancelPending || ProcDiePending); };
    try {
        hir::CancelPollScope scope(&poll);
        return CheckProgramTextUnpolled(program_text);
    } catch (const hir::CancelUnwind &) {
        pg::PgCall([] { CHECK_FOR_INTERRUPTS(); });
        return Status::Cancelled();
    }
}

namespace {
Status CheckProgramTextUnpolled(std::string &program_text) {
    if (pg::g_settings.test_ill_typed) {  // rndn.test_ill_typed_program: before main's return
        const size_t at = program_text.rfind("    return ");
        if (at != std::string::npos) program_text.insert(at, "    rndn_ill:i64 = @plus(1:i64, `rndn:sym);\n");
    }
    bool had_params = false;
    RNDN_ASSIGN_OR_RETURN(std::string checked_text, PlaceholdersAsParams(program_text, &had_params));
    Expected<hir::Program> parsed = hir::ParseProgram(checked_text, "rndn");
    if (!parsed.ok()) return Status::Unsupported("HorseIR program does not parse: " + parsed.status().message());
    hir::Program &program = parsed.value();
    Status checked = hir::CheckProgram(program);
    if (!checked.ok()) return Status::Unsupported("HorseIR check failed: " + checked.message());
    Expected<hir::ShapeInfo> shapes = hir::InferShapes(program);
    if (!shapes.ok()) return Status::Unsupported("HorseIR shape check failed: " + shapes.status().message());
    // The plan node carries the canonical text (PrintProgram of the parsed program).  A program
    // with generic-plan parameters keeps its placeholders for the executor's substitution.
    if (!had_params) program_text = hir::PrintProgram(program);
    return Status::Ok();
}
}  // namespace

}  // namespace rndn::plan
