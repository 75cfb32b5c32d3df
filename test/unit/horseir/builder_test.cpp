// hir::Builder and the public builtin table: built programs print exactly as the parsed text of
// the same program, and print(parse(text)) == text for every program in test/horseir.
#include <dirent.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

#include "test_util.h"

namespace rndn::hir::testing {
namespace {

std::string ReadFile(const std::string &path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// The text without its leading "//" comment lines (the parser drops comments).
std::string WithoutComments(const std::string &text) {
    std::stringstream in(text), out;
    std::string line;
    while (std::getline(in, line)) {
        size_t k = line.find_first_not_of(' ');
        if (k != std::string::npos && line.compare(k, 2, "//") == 0) continue;
        out << line << "\n";
    }
    return out.str();
}

std::vector<std::string> TpchFiles() {
    std::vector<std::string> files;
    for (int q = 1; q <= 22; ++q) files.push_back("test/horseir/tpch/q" + std::to_string(q) + ".hir");
    return files;
}

TEST(BuiltinTable, EnumNamesAndColumnsAgree) {
    std::set<std::string> names;
    for (int i = 0; i < kNumBuiltins; ++i) {
        Builtin b = static_cast<Builtin>(i);
        const BuiltinMeta &m = GetBuiltinMeta(b);
        EXPECT_EQ(static_cast<int>(m.id), i);
        EXPECT_STREQ(m.name, BuiltinName(b));
        Builtin back;
        ASSERT_TRUE(FindBuiltin(m.name, &back)) << m.name;
        EXPECT_EQ(back, b);
        EXPECT_TRUE(names.insert(m.name).second) << "duplicate " << m.name;
        // an element-wise builtin's result has its inputs' (broadcast) shape; a reduction's is a
        // scalar; a fusable builtin runs on a device (not host-only)
        if (m.klass == BuiltinClass::ELEMENTWISE) {
            EXPECT_TRUE(m.shape == ShapeRule::SAME || m.shape == ShapeRule::BROADCAST) << m.name;
        }
        if (m.klass == BuiltinClass::REDUCTION) {
            EXPECT_EQ(m.shape, ShapeRule::SCALAR) << m.name;
        }
        if (m.fusable) {
            EXPECT_NE(m.par, ParClass::CPU) << m.name;
        }
    }
    Builtin b;
    EXPECT_FALSE(FindBuiltin("no_such_builtin", &b));
    EXPECT_FALSE(FindBuiltin("", &b));
    // Held-out rows, checked by hand against the thesis (§3.3, §3.5).
    EXPECT_EQ(GetBuiltinMeta(Builtin::COMPRESS).shape, ShapeRule::COMPRESS);
    EXPECT_EQ(GetBuiltinMeta(Builtin::COMPRESS).klass, BuiltinClass::COMPACTION);
    EXPECT_TRUE(GetBuiltinMeta(Builtin::COMPRESS).fusable);
    EXPECT_EQ(GetBuiltinMeta(Builtin::JOIN_INDEX).klass, BuiltinClass::JOIN);
    EXPECT_FALSE(GetBuiltinMeta(Builtin::JOIN_INDEX).fusable);
    EXPECT_FALSE(GetBuiltinMeta(Builtin::GROUP).fusable);
    EXPECT_EQ(GetBuiltinMeta(Builtin::SUM).klass, BuiltinClass::REDUCTION);
    EXPECT_EQ(GetBuiltinMeta(Builtin::PLUS).shape, ShapeRule::BROADCAST);
    EXPECT_TRUE(GetBuiltinMeta(Builtin::PLUS).interpreted);
    EXPECT_FALSE(GetBuiltinMeta(Builtin::CONJ).interpreted);
    EXPECT_STREQ(BuiltinName(Builtin::EACH_RIGHT), "each_right");
    EXPECT_STREQ(ShapeRuleName(ShapeRule::COMPRESS), "COMPRESS");
    EXPECT_STREQ(BuiltinClassName(BuiltinClass::GROUPING), "GROUPING");
}

TEST(Printer, PrintOfParseIsTheTextForEveryTpchProgram) {
    int n = 0;
    for (const auto &f : TpchFiles()) {
        std::string text = ReadFile(f);
        ASSERT_FALSE(text.empty()) << f;
        auto p = ParseProgram(text, f);
        ASSERT_TRUE(p.ok()) << p.status().message();
        EXPECT_EQ(PrintProgram(*p), WithoutComments(text)) << f;
        ++n;
    }
    EXPECT_EQ(n, 22);
}

// TPC-H Q6 written with the builder, statement for statement as test/horseir/tpch/q6.hir.
Expected<Program> BuildQ6() {
    Builder b;
    b.BeginFunction("main", {TypeKind::TABLE});
    Operand t0 = b.Assign("t0", Type(), b.Call(Builtin::LOAD_TABLE, {b.Sym("lineitem")}));
    auto col = [&](const char *name, const char *c, Type t) {
        return b.Assign(name, t, Builder::Cast(b.Call(Builtin::COLUMN_VALUE, {t0, b.Sym(c)}), t));
    };
    Type d2 = Type::Decimal(TypeKind::DEC64, 2);
    Operand t1 = col("t1", "l_shipdate", TypeKind::DATE);
    Operand t2 = col("t2", "l_discount", d2);
    Operand t3 = col("t3", "l_quantity", d2);
    Operand t4 = col("t4", "l_extendedprice", d2);
    Operand t5 = b.Assign("t5", Type(), b.Call(Builtin::GEQ, {t1, b.Date(DaysFromCivil(1994, 1, 1))}));
    Operand t6 = b.Assign("t6", Type(), b.Call(Builtin::LT, {t1, b.Date(DaysFromCivil(1995, 1, 1))}));
    Operand t7 = b.Assign("t7", Type(), b.Call(Builtin::GEQ, {t2, b.Dec64(5, 2)}));
    Operand t8 = b.Assign("t8", Type(), b.Call(Builtin::LEQ, {t2, b.Dec64(7, 2)}));
    Operand t9 = b.Assign("t9", Type(), b.Call(Builtin::LT, {t3, b.Dec64(2400, 2)}));
    Operand t10 = b.Assign("t10", Type(), b.Call(Builtin::AND, {t5, t6}));
    Operand t11 = b.Assign("t11", Type(), b.Call(Builtin::AND, {t10, t7}));
    Operand t12 = b.Assign("t12", Type(), b.Call(Builtin::AND, {t11, t8}));
    Operand t13 = b.Assign("t13", Type(), b.Call(Builtin::AND, {t12, t9}));
    Operand t14 = b.Assign("t14", Type(), b.Call(Builtin::COMPRESS, {t13, t4}));
    Operand t15 = b.Assign("t15", Type(), b.Call(Builtin::COMPRESS, {t13, t2}));
    Operand t16 = b.Assign("t16", Type(), b.Call(Builtin::MUL, {t14, t15}));
    Operand t17 = b.Assign("t17", Type(), b.Call(Builtin::SUM, {t16}));
    Operand t18 = b.Assign("t18", Type(), b.Call(Builtin::LIST, {t17}));
    Operand t19 = b.Assign("t19", Type(), b.Call(Builtin::TABLE, {b.Sym("revenue"), t18}));
    b.Return({t19});
    return b.Finish();
}

TEST(Builder, Q6EqualsTheParsedProgram) {
    auto built = BuildQ6();
    ASSERT_TRUE(built.ok()) << built.status().message();
    std::string text = ReadFile("test/horseir/tpch/q6.hir");
    ASSERT_FALSE(text.empty());
    EXPECT_EQ(PrintProgram(*built), WithoutComments(text));
    // positions are those of the printed text
    auto parsed = ParseProgram(PrintProgram(*built), "q6.hir");
    ASSERT_TRUE(parsed.ok());
    const Function &fb = built->modules[0].functions[0], &fp = parsed->modules[0].functions[0];
    ASSERT_EQ(fb.body.size(), fp.body.size());
    for (size_t i = 0; i < fb.body.size(); ++i) {
        EXPECT_EQ(fb.body[i].loc.line, fp.body[i].loc.line) << i;
        EXPECT_EQ(fb.body[i].loc.col, fp.body[i].loc.col) << i;
    }
    EXPECT_TRUE(CheckProgram(*built).ok());
}

TEST(Builder, LiteralsOfEveryTypeRoundTrip) {
    Builder b;
    b.BeginFunction("main", {});
    std::vector<Operand> lits = {
        b.Bool(true), b.Char('R'), b.Char('\''), b.I8(-7), b.I16(300), b.I32(-2000000000), b.I64(INT64_MIN),
        b.F32(0.1f), b.F64(2.5e-300), b.F64(24), b.Str("a\"b\\c\nd"), b.Sym("EUROPE"), b.Sym("MED BOX"),
        b.Sym(""), b.Date(DaysFromCivil(1994, 1, 1)), b.Date(DaysFromCivil(1969, 12, 31)), b.Month(-1),
        b.Minute(12 * 60 + 30), b.Second(12 * 3600 + 30 * 60 + 15), b.Time(45015250000LL),
        b.Dt(600000001000LL), b.Dec64(-5, 2), b.Dec64(2400, 2), b.Dec128(static_cast<__int128>(1) << 100, 6),
        b.Null(TypeKind::DATE), b.Null(Type::Decimal(TypeKind::DEC64, 2)), b.Null(TypeKind::STR),
        b.Syms({"a", "b c"}), b.I64s({1, -2, 3}), b.Bools({true, false})};
    for (size_t i = 0; i < lits.size(); ++i) b.Assign("x" + std::to_string(i), Type(), Builder::Use(lits[i]));
    b.Return({});
    auto built = b.Finish();
    ASSERT_TRUE(built.ok()) << built.status().message();
    std::string text = PrintProgram(*built);
    EXPECT_NE(text.find("x0:? = 1:bool;"), std::string::npos) << text;
    EXPECT_NE(text.find("x2:? = '\\'':char;"), std::string::npos) << text;
    EXPECT_NE(text.find("x10:? = \"a\\\"b\\\\c\\nd\":str;"), std::string::npos) << text;
    EXPECT_NE(text.find("x12:? = `\"MED BOX\":sym;"), std::string::npos) << text;
    EXPECT_NE(text.find("x16:? = 1999-12:month;"), std::string::npos) << text;
    EXPECT_NE(text.find("x19:? = 12:30:15.250:time;"), std::string::npos) << text;
    EXPECT_NE(text.find("x20:? = 2000-01-07T22:40:00.001:dt;"), std::string::npos) << text;
    EXPECT_NE(text.find("x21:? = -0.05:dec64<2>;"), std::string::npos) << text;
    EXPECT_NE(text.find("x22:? = 24:dec64<2>;"), std::string::npos) << text;
    EXPECT_NE(text.find("x24:? = null:date;"), std::string::npos) << text;
    EXPECT_NE(text.find("x28:? = (1,-2,3):i64;"), std::string::npos) << text;
    auto parsed = ParseProgram(text, "lits.hir");
    ASSERT_TRUE(parsed.ok()) << parsed.status().message() << "\n" << text;
    EXPECT_EQ(PrintProgram(*parsed), text);
    const auto &bb = built->modules[0].functions[0].body, &pb = parsed->modules[0].functions[0].body;
    ASSERT_EQ(bb.size(), pb.size());
    for (size_t i = 0; i + 1 < bb.size(); ++i) {
        const Literal &x = bb[i].expr.operand.literal, &y = pb[i].expr.operand.literal;
        EXPECT_EQ(x.type, y.type) << i;
        ASSERT_EQ(x.value->length, y.value->length) << i;
        for (int64_t k = 0; k < x.value->length; ++k) {
            EXPECT_EQ(x.value->IsValid(k), y.value->IsValid(k)) << i;
            EXPECT_EQ(FormatElement(*x.value, k), FormatElement(*y.value, k)) << i;
        }
    }
    EXPECT_TRUE(CheckProgram(*built).ok());
}

// Replays a parsed program through the Builder API (what a translator would call), statement by
// statement; the built program must print exactly as the parsed one.
class Replay {
public:
    explicit Replay(Builder &b) : b_(b) {}
    Operand Op(const Operand &o) {
        switch (o.kind) {
            case Operand::Kind::NAME: return Builder::Name(o.module.empty() ? o.name : o.module + "." + o.name);
            case Operand::Kind::FUNC: {
                Builtin id;
                if (o.module.empty() && FindBuiltin(o.name, &id)) return Builder::Fn(id);
                ADD_FAILURE() << "function operand " << o.name;
                return Operand();
            }
            case Operand::Kind::LITERAL: return b_.Literal(o.literal.value);
        }
        return Operand();
    }
    Expr Ex(const Expr &e) {
        switch (e.kind) {
            case Expr::Kind::OPERAND: return Builder::Use(Op(e.operand));
            case Expr::Kind::CAST: return Builder::Cast(Ex(*e.inner), e.cast_type);
            case Expr::Kind::CALL: {
                std::vector<Operand> args;
                for (const auto &a : e.args) args.push_back(Op(a));
                Builtin id;
                if (e.callee.module.empty() && FindBuiltin(e.callee.name, &id)) return b_.Call(id, std::move(args));
                return b_.CallUser(e.callee.module, e.callee.name, std::move(args));
            }
        }
        return Expr();
    }
    void Body(const std::vector<Stmt> &body) {
        for (const auto &s : body) {
            switch (s.kind) {
                case Stmt::Kind::ASSIGN:
                    if (s.targets.size() == 1 && s.targets[0].declares) {
                        b_.Assign(s.targets[0].name, s.targets[0].type, Ex(s.expr));
                    } else if (s.targets.size() == 1) {
                        b_.Set(s.targets[0].name, Ex(s.expr));
                    } else {
                        std::vector<std::pair<std::string, Type>> ts;
                        for (const auto &t : s.targets) ts.emplace_back(t.name, t.type);
                        b_.AssignMany(std::move(ts), Ex(s.expr));
                    }
                    break;
                case Stmt::Kind::EXPR: b_.Eval(Ex(s.expr)); break;
                case Stmt::Kind::RETURN: {
                    std::vector<Operand> ops;
                    for (const auto &o : s.operands) ops.push_back(Op(o));
                    b_.Return(std::move(ops));
                    break;
                }
                case Stmt::Kind::VAR: {
                    std::vector<std::string> names;
                    for (const auto &t : s.targets) names.push_back(t.name);
                    b_.Declare(std::move(names), s.targets.empty() ? Type() : s.targets[0].type);
                    break;
                }
                case Stmt::Kind::BREAK: b_.Break(); break;
                case Stmt::Kind::CONTINUE: b_.Continue(); break;
                case Stmt::Kind::IF:
                case Stmt::Kind::WHILE:
                case Stmt::Kind::REPEAT:
                    if (s.kind == Stmt::Kind::IF) b_.BeginIf(Op(s.operands[0]));
                    else if (s.kind == Stmt::Kind::WHILE) b_.BeginWhile(Op(s.operands[0]));
                    else b_.BeginRepeat(Op(s.operands[0]));
                    Body(s.body);
                    if (s.has_else) {
                        b_.Else();
                        Body(s.else_body);
                    }
                    b_.End();
                    break;
            }
        }
    }
    Expected<Program> Program_(const Program &p) {
        for (size_t m = 0; m < p.modules.size(); ++m) {
            const Module &mod = p.modules[m];
            if (m) b_.BeginModule(mod.name, false);
            for (auto [kind, idx] : mod.order) {
                if (kind == 0) {
                    const Import &imp = mod.imports[static_cast<size_t>(idx)];
                    b_.Import(imp.module, imp.names);
                } else if (kind == 1) {
                    const Global &g = mod.globals[static_cast<size_t>(idx)];
                    b_.Global(g.name, g.type, Op(g.init));
                } else {
                    const Function &f = mod.functions[static_cast<size_t>(idx)];
                    b_.BeginFunction(f.name, f.returns, f.is_kernel);
                    for (const auto &pa : f.params) b_.Param(pa.name, pa.type);
                    Body(f.body);
                }
            }
        }
        return b_.Finish();
    }

private:
    Builder &b_;
};

// Decimal literals may be written with trailing zeros ("100.00:dec64<2>"); the Builder spells
// a value the shortest exact way ("100:dec64<2>").  Same value, so normalise before comparing.
std::string ShortestDecimal(std::string t) {
    if (t.find('.') == std::string::npos) return t;
    while (t.back() == '0') t.pop_back();
    if (t.back() == '.') t.pop_back();
    return t;
}
void NormaliseDecimals(Operand &o) {
    if (o.kind == Operand::Kind::LITERAL && IsDecimal(o.literal.type.kind))
        for (auto &t : o.literal.text)
            if (t != "null") t = ShortestDecimal(t);
}
void NormaliseDecimals(Expr &e) {
    NormaliseDecimals(e.operand);
    for (auto &a : e.args) NormaliseDecimals(a);
    if (e.inner) NormaliseDecimals(*e.inner);
}
void NormaliseDecimals(std::vector<Stmt> &body) {
    for (auto &s : body) {
        NormaliseDecimals(s.expr);
        for (auto &o : s.operands) NormaliseDecimals(o);
        NormaliseDecimals(s.body);
        NormaliseDecimals(s.else_body);
    }
}

TEST(Builder, RebuildsEveryTpchProgramStatementByStatement) {
    std::vector<std::string> files = TpchFiles();
    files.push_back("test/horseir/rndn_style/q1.hir");
    files.push_back("test/horseir/rndn_style/q6.hir");
    for (const auto &f : files) {
        std::string text = ReadFile(f);
        ASSERT_FALSE(text.empty()) << f;
        auto parsed = ParseProgram(text, f);
        ASSERT_TRUE(parsed.ok()) << parsed.status().message();
        ASSERT_EQ(parsed->modules.size(), 1u);
        // the first module's name and its imports come from the program itself
        Builder b(parsed->modules[0].name, false);
        auto built = Replay(b).Program_(*parsed);
        ASSERT_TRUE(built.ok()) << f << ": " << built.status().message();
        for (auto &m : parsed->modules)
            for (auto &fn : m.functions) NormaliseDecimals(fn.body);
        EXPECT_EQ(PrintProgram(*built), PrintProgram(*parsed)) << f;
        EXPECT_TRUE(CheckProgram(*built).ok()) << f;
    }
}

TEST(Builder, ValuesWithoutTextAndMisuseAreErrors) {
    {
        Builder b;
        b.BeginFunction("main", {});
        // NaN has a literal spelling since issue 18, so it is no longer an example here; a
        // variable may not be called NaN or Infinity (they read as float literals)
        b.Assign("NaN", Type(), Builder::Use(b.F64(std::nan(""))));
        EXPECT_FALSE(b.Finish().ok());
    }
    {
        Builder b;
        b.BeginFunction("main", {});
        b.Assign("x", Type(), Builder::Use(b.Time(1)));  // a microsecond: no literal spelling
        EXPECT_FALSE(b.Finish().ok());
    }
    {
        Builder b;
        b.BeginFunction("main", {});
        b.Assign("if", Type(), Builder::Use(b.I64(1)));  // keyword
        EXPECT_FALSE(b.Finish().ok());
    }
    {
        Builder b;
        b.BeginFunction("main", {});
        b.BeginIf(b.Bool(true));
        EXPECT_FALSE(b.Finish().ok());  // block not closed
    }
}

TEST(Builder, ParametersControlFlowAndUserFunctions) {
    Builder b;
    b.BeginFunction("twice", {TypeKind::I64});
    Operand v = b.Param("v", TypeKind::I64);
    b.Return({b.Temp(b.Call(Builtin::MUL, {v, b.I64(2)}))});
    b.BeginFunction("main", {TypeKind::I64});
    Operand n = b.Param("n", TypeKind::I64);
    b.Declare({"acc"}, TypeKind::I64);
    b.Set("acc", Builder::Use(b.I64(0)));
    b.BeginIf(b.Temp(b.Call(Builtin::GT, {n, b.I64(0)})));
    b.BeginRepeat(n);
    b.Set("acc", b.Call(Builtin::PLUS, {Builder::Name("acc"), b.I64(1)}));
    b.End();
    b.Else();
    b.Set("acc", b.CallUser("", "twice", {n}));
    b.End();
    b.Return({Builder::Name("acc")});
    auto built = b.Finish();
    ASSERT_TRUE(built.ok()) << built.status().message();
    std::string text = PrintProgram(*built);
    EXPECT_EQ(text,
              "module default{\n"
              "  import Builtin.*;\n"
              "  def twice(v:i64) : i64{\n"
              "    t0:? = @mul(v, 2:i64);\n"
              "    return t0;\n"
              "  }\n"
              "  def main(n:i64) : i64{\n"
              "    var acc:i64;\n"
              "    acc = 0:i64;\n"
              "    t1:? = @gt(n, 0:i64);\n"
              "    if (t1) {\n"
              "      repeat (n) {\n"
              "        acc = @plus(acc, 1:i64);\n"
              "      }\n"
              "    } else {\n"
              "      acc = @twice(n);\n"
              "    }\n"
              "    return acc;\n"
              "  }\n"
              "}\n");
    auto parsed = ParseProgram(text, "b.hir");
    ASSERT_TRUE(parsed.ok()) << parsed.status().message();
    EXPECT_EQ(PrintProgram(*parsed), text);
    EXPECT_EQ(built->modules[0].functions[1].body.back().loc.line, parsed->modules[0].functions[1].body.back().loc.line);
    // the parameter of the entry function is reported by the checker's entry point
    EXPECT_TRUE(CheckProgram(*built).ok()) << CheckProgram(*built).message();
}

}  // namespace
}  // namespace rndn::hir::testing
