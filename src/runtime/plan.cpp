// CompiledPlan: check once, keep the program, its shapes and its canonical text.
#include "runtime/runtime.h"

namespace rndn::runtime {

namespace {

void CollectTables(const std::vector<hir::Stmt> &body, std::vector<std::string> &out, bool &known) {
    auto note = [&](const hir::Expr &e) {
        if (e.kind != hir::Expr::Kind::CALL || !e.callee.resolved.is_builtin() ||
            e.callee.resolved.builtin_id() != hir::Builtin::LOAD_TABLE || e.args.empty())
            return;
        const hir::Operand &a = e.args[0];
        if (a.kind != hir::Operand::Kind::LITERAL || !a.literal.value || a.literal.value->length != 1 ||
            !hir::IsString(a.literal.value->type.kind)) {
            known = false;
            return;
        }
        std::string name(a.literal.value->StringAt(0));
        for (const auto &t : out)
            if (t == name) return;
        out.push_back(std::move(name));
    };
    for (const auto &s : body) {
        note(s.expr);
        if (s.expr.inner) note(*s.expr.inner);
        CollectTables(s.body, out, known);
        CollectTables(s.else_body, out, known);
    }
}

}  // namespace

Expected<std::shared_ptr<const CompiledPlan>> CompiledPlan::Compile(hir::Program program) {
    std::shared_ptr<CompiledPlan> plan(new CompiledPlan());
    plan->text_ = hir::PrintProgram(program);
    if (!program.checked) RNDN_RETURN_IF_ERROR(hir::CheckProgram(program));
    RNDN_ASSIGN_OR_RETURN(plan->shapes_, hir::InferShapes(program));
    for (const auto &m : program.modules)
        for (const auto &f : m.functions) CollectTables(f.body, plan->tables_, plan->tables_known_);
    plan->program_ = std::move(program);
    return std::shared_ptr<const CompiledPlan>(std::move(plan));
}

Expected<std::shared_ptr<const CompiledPlan>> CompiledPlan::CompileText(std::string_view text, std::string_view name) {
    RNDN_ASSIGN_OR_RETURN(hir::Program p, hir::ParseProgram(text, name));
    return Compile(std::move(p));
}

const std::vector<hir::Param> &CompiledPlan::parameters() const {
    static const std::vector<hir::Param> kNone;
    if (program_.entry_module < 0) return kNone;
    return program_.modules[static_cast<size_t>(program_.entry_module)].functions[static_cast<size_t>(program_.entry_function)].params;
}

}  // namespace rndn::runtime
