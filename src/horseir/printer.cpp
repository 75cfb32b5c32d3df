// Canonical HorseIR text (rNdN layout: 2-space indentation, one statement per line).
#include "horseir/internal.h"

namespace rndn::hir {

namespace {

class Printer {
public:
    std::string out;

    void Program_(const Program &p) {
        for (size_t i = 0; i < p.modules.size(); ++i) {
            if (i) out += '\n';
            Module_(p.modules[i]);
        }
    }

private:
    void Indent(int d) { out.append(static_cast<size_t>(d) * 2, ' '); }

    void Module_(const Module &m) {
        out += "module " + m.name + "{\n";
        for (auto [kind, idx] : m.order) {
            if (kind == 0) {
                const Import &imp = m.imports[static_cast<size_t>(idx)];
                Indent(1);
                out += "import " + imp.module + ".";
                if (imp.star) out += "*";
                else if (imp.names.size() == 1) out += imp.names[0];
                else {
                    out += "{";
                    for (size_t i = 0; i < imp.names.size(); ++i) out += (i ? "," : "") + imp.names[i];
                    out += "}";
                }
                out += ";\n";
            } else if (kind == 1) {
                const Global &g = m.globals[static_cast<size_t>(idx)];
                Indent(1);
                out += "global " + g.name + ":" + TypeToString(g.type) + " = " + Operand_(g.init) + ";\n";
            } else {
                Function_(m.functions[static_cast<size_t>(idx)]);
            }
        }
        out += "}\n";
    }

    void Function_(const Function &f) {
        Indent(1);
        out += (f.is_kernel ? "kernel " : "def ") + f.name + "(";
        for (size_t i = 0; i < f.params.size(); ++i) out += (i ? ", " : "") + f.params[i].name + ":" + TypeToString(f.params[i].type);
        out += ")";
        if (!f.returns.empty()) {
            out += " : ";
            for (size_t i = 0; i < f.returns.size(); ++i) out += (i ? ", " : "") + TypeToString(f.returns[i]);
        }
        out += "{\n";
        for (const auto &s : f.body) Stmt_(s, 2);
        Indent(1);
        out += "}\n";
    }

    void Body(const std::vector<Stmt> &b, int d) {
        out += "{\n";
        for (const auto &s : b) Stmt_(s, d + 1);
        Indent(d);
        out += "}";
    }

    static std::string Target_(const Target &t) {
        std::string s = t.module.empty() ? t.name : t.module + "." + t.name;
        if (t.declares) s += ":" + TypeToString(t.type);
        return s;
    }

    uint32_t statements_ = 0;  // printed so far (a cancel is polled every 256)
    void Stmt_(const Stmt &s, int d) {
        if ((++statements_ & 0xff) == 0) PollCancelNow();
        Indent(d);
        switch (s.kind) {
            case Stmt::Kind::ASSIGN:
                for (size_t i = 0; i < s.targets.size(); ++i) out += (i ? ", " : "") + Target_(s.targets[i]);
                out += " = " + Expr_(s.expr) + ";\n";
                return;
            case Stmt::Kind::VAR:
                out += "var ";
                for (size_t i = 0; i < s.targets.size(); ++i) out += (i ? ", " : "") + s.targets[i].name;
                out += ":" + TypeToString(s.targets.empty() ? Type() : s.targets[0].type) + ";\n";
                return;
            case Stmt::Kind::EXPR: out += Expr_(s.expr) + ";\n"; return;
            case Stmt::Kind::RETURN:
                out += "return";
                for (size_t i = 0; i < s.operands.size(); ++i) out += (i ? ", " : " ") + Operand_(s.operands[i]);
                out += ";\n";
                return;
            case Stmt::Kind::BREAK: out += "break;\n"; return;
            case Stmt::Kind::CONTINUE: out += "continue;\n"; return;
            case Stmt::Kind::IF:
            case Stmt::Kind::WHILE:
            case Stmt::Kind::REPEAT: {
                const char *kw = s.kind == Stmt::Kind::IF ? "if" : s.kind == Stmt::Kind::WHILE ? "while" : "repeat";
                out += std::string(kw) + " (" + Operand_(s.operands[0]) + ") ";
                Body(s.body, d);
                if (s.has_else) {
                    out += " else ";
                    Body(s.else_body, d);
                }
                out += "\n";
                return;
            }
        }
    }

public:
    static std::string Operand_(const Operand &o) {
        switch (o.kind) {
            case Operand::Kind::NAME: return o.module.empty() ? o.name : o.module + "." + o.name;
            case Operand::Kind::FUNC:
                return "@" + (o.module.empty() ? o.name : o.module + "." + o.name) + (o.func_suffix ? ":func" : "");
            case Operand::Kind::LITERAL: {
                const Literal &l = o.literal;
                std::string s;
                if (l.text.size() == 1) s = l.text[0];
                else {
                    s = "(";
                    for (size_t i = 0; i < l.text.size(); ++i) s += (i ? "," : "") + l.text[i];
                    s += ")";
                }
                return s + ":" + TypeToString(l.type);
            }
        }
        return "";
    }
    static std::string Expr_(const Expr &e) {
        switch (e.kind) {
            case Expr::Kind::OPERAND: return Operand_(e.operand);
            case Expr::Kind::CAST: return "check_cast(" + Expr_(*e.inner) + ", " + TypeToString(e.cast_type) + ")";
            case Expr::Kind::CALL: {
                std::string s = Operand_(e.callee) + "(";
                for (size_t i = 0; i < e.args.size(); ++i) s += (i ? ", " : "") + Operand_(e.args[i]);
                return s + ")";
            }
        }
        return "";
    }
};

}  // namespace

std::string PrintExpr(const Expr &expr) { return Printer::Expr_(expr); }
std::string PrintOperand(const Operand &operand) { return Printer::Operand_(operand); }

std::string PrintProgram(const Program &program) {
    Printer p;
    p.Program_(program);
    return p.out;
}

}  // namespace rndn::hir
