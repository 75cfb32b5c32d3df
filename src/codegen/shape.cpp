// Query shapes: a program's text with its literal values masked (ShapeKey), and an outlined
// program re-pointed at another program of the same shape (Rebind), so that a query repeated with
// other constants reuses the outlined kernels and their PTX (the constants are kernel arguments).
#include "codegen/internal.h"

namespace rndn::codegen {

namespace {

// Literal values masked: each element becomes "?" and the value's own type (a decimal literal's
// scale comes from its text) is kept, so that only values that kernels read as arguments differ.
void MaskOperand(hir::Operand &o) {
    if (o.kind != hir::Operand::Kind::LITERAL) return;
    if (o.literal.type.kind == hir::TypeKind::SYM) return;  // names of tables and columns: part of the shape
    std::string mark = "?";
    if (o.literal.value) {
        mark += "<" + hir::TypeToString(o.literal.value->type) + (o.literal.value->elem_scale.empty() ? "" : "*") + ">";
        o.literal.text.assign(static_cast<size_t>(o.literal.value->length), mark);
    } else {
        for (auto &t : o.literal.text) t = mark;
    }
}

void MaskExpr(hir::Expr &e) {
    MaskOperand(e.callee);
    MaskOperand(e.operand);
    for (auto &a : e.args) MaskOperand(a);
    if (e.inner) {
        e.inner = std::make_shared<hir::Expr>(*e.inner);  // the copy shares inner expressions: copy before masking
        MaskExpr(*e.inner);
    }
}

const hir::Function *EntryOf(const hir::Program &p) {
    if (!p.checked || p.entry_module < 0 || p.entry_function < 0 || static_cast<size_t>(p.entry_module) >= p.modules.size())
        return nullptr;
    const auto &m = p.modules[static_cast<size_t>(p.entry_module)];
    if (static_cast<size_t>(p.entry_function) >= m.functions.size()) return nullptr;
    return &m.functions[static_cast<size_t>(p.entry_function)];
}

}  // namespace

std::string ShapeKey(const hir::Program &program) {
    hir::Program copy = program;
    for (auto &m : copy.modules) {
        for (auto &g : m.globals) MaskOperand(g.init);
        for (auto &f : m.functions)
            for (auto &s : f.body) {
                MaskExpr(s.expr);
                for (auto &o : s.operands) MaskOperand(o);
            }
    }
    return hir::PrintProgram(copy);
}

Expected<OutlinedProgram> Rebind(const OutlinedProgram &shape, const hir::Program &program) {
    const hir::Function *fn = EntryOf(program);
    if (!fn || !shape.entry) return Status::Internal("Rebind: an unchecked program");
    if (fn->body.size() != shape.entry->body.size() || fn->num_slots != shape.entry->num_slots ||
        fn->params.size() != shape.entry->params.size())
        return Status::Internal("Rebind: the programs have different shapes");
    OutlinedProgram out = shape;
    out.program = &program;
    out.entry = fn;
    for (auto &k : out.kernels)
        for (auto &in : k.inputs) {
            if (!in.literal) continue;
            if (in.literal_stmt < 0 || static_cast<size_t>(in.literal_stmt) >= fn->body.size())
                return Status::Internal("Rebind: a kernel literal without its place");
            const hir::Stmt &s = fn->body[static_cast<size_t>(in.literal_stmt)];
            if (in.literal_arg < 0 || static_cast<size_t>(in.literal_arg) >= s.expr.args.size())
                return Status::Internal("Rebind: the programs have different shapes");
            const hir::Operand &a = s.expr.args[static_cast<size_t>(in.literal_arg)];
            const hir::Operand &old = *in.literal;
            if (a.kind != hir::Operand::Kind::LITERAL || !a.literal.value || !old.literal.value ||
                a.literal.value->length != old.literal.value->length || !(a.literal.value->type == old.literal.value->type))
                return Status::Internal("Rebind: the programs have different shapes");
            in.literal = &a;
        }
    return out;
}

}  // namespace rndn::codegen
