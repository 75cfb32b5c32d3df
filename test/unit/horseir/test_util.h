// Helpers for the horseir unit tests: run a snippet of statements as `main`.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "horseir/horseir.h"

namespace rndn::hir::testing {

inline std::string Wrap(const std::string &stmts) {
    return "module m{\n  import Builtin.*;\n  def main() : ?{\n" + stmts + "\n  }\n}\n";
}

// Parses, checks and runs a program; returns the value or the failing status.
inline Expected<Value> RunProgram(const std::string &text, DataRegistry *reg = nullptr) {
    auto p = ParseProgram(text, "t.hir");
    if (!p.ok()) return p.status();
    Status st = CheckProgram(*p);
    if (!st.ok()) return st;
    DataRegistry local;
    InterpretOptions opts;
    return Interpret(*p, reg ? *reg : local, opts);
}

inline Expected<Value> Run(const std::string &stmts, DataRegistry *reg = nullptr) { return RunProgram(Wrap(stmts), reg); }

// Elements joined by ',' (NULL prints as "null"); lists as (a,b),(c).
inline std::string Show(const Value &v) {
    std::string s;
    if (v.is_vector()) {
        const Vector &x = v.vector();
        for (int64_t i = 0; i < x.length; ++i) {
            if (i) s += ",";
            s += x.IsValid(i) ? FormatElement(x, i) : "null";
        }
        return s;
    }
    if (v.kind() == ValueKind::LIST) {
        const auto &cells = v.list().cells;
        for (size_t i = 0; i < cells.size(); ++i) s += (i ? ",(" : "(") + Show(cells[i]) + ")";
        return s;
    }
    return FormatValue(v);
}

// "value" or "ERROR <sqlstate>: <message>"
inline std::string Eval(const std::string &stmts, DataRegistry *reg = nullptr) {
    auto r = Run(stmts, reg);
    if (!r.ok()) return std::string("ERROR ") + r.status().sqlstate().chars + ": " + r.status().message();
    return Show(*r);
}

// Evaluates one expression: "r:? = EXPR; return r;"
inline std::string E(const std::string &expr, const std::string &setup = "") {
    return Eval(setup + "\n    r:? = " + expr + ";\n    return r;");
}

// Type of `r` after checking.
inline std::string TypeOf(const std::string &expr, const std::string &setup = "") {
    auto r = Run(setup + "\n    r:? = " + expr + ";\n    return r;");
    if (!r.ok()) return "ERROR: " + r.status().message();
    return TypeToString(r->type());
}

}  // namespace rndn::hir::testing
