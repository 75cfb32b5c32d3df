// Text form (lexer, parser, printer) and semantic passes (resolution, types, definite
// assignment).
#include <dirent.h>

#include <fstream>
#include <limits>
#include <random>
#include <sstream>

#include "horseir/internal.h"
#include "test_util.h"

namespace rndn::hir::testing {
namespace {

std::string ParseError(const std::string &text) {
    auto p = ParseProgram(text, "f.hir");
    if (p.ok()) return "ok";
    EXPECT_EQ(p.status().code(), Code::PARSE_ERROR);
    return p.status().message();
}

std::string CheckError(const std::string &text) {
    auto p = ParseProgram(text, "f.hir");
    if (!p.ok()) return "parse: " + p.status().message();
    Status st = CheckProgram(*p);
    return st.ok() ? "ok" : st.message();
}

TEST(Parser, LiteralsOfEveryType) {
    EXPECT_EQ(E("(1,0,1):bool"), "1,0,1");
    EXPECT_EQ(E("'R':char"), "R");
    EXPECT_EQ(E("'\\n':char").size(), 1u);
    EXPECT_EQ(E("-3:i32"), "-3");
    EXPECT_EQ(E("- 3:i8"), "-3");
    EXPECT_EQ(E("(1,2):i16"), "1,2");
    EXPECT_EQ(E("7:i64"), "7");
    EXPECT_EQ(E("0.05:f64"), "0.05");
    EXPECT_EQ(E("24:f64"), "24");
    EXPECT_EQ(E(".5:f32"), "0.5");
    EXPECT_EQ(E("5.:f64"), "5");
    EXPECT_EQ(E("(1,2.5):f64"), "1,2.5");
    EXPECT_EQ(E("\"a\\\"b\":str"), "a\"b");
    EXPECT_EQ(E("(`EUROPE,`\"MED BOX\"):sym"), "EUROPE,MED BOX");
    EXPECT_EQ(E("1994-01-01:date"), "1994-01-01");
    EXPECT_EQ(E("(1994-01-01,2000-02-29):date"), "1994-01-01,2000-02-29");
    EXPECT_EQ(E("1994-01:month"), "1994-01");
    EXPECT_EQ(E("12:30:minute"), "12:30");
    EXPECT_EQ(E("12:30:15:second"), "12:30:15");
    EXPECT_EQ(E("12:30:15.250:time"), "12:30:15.250");
    EXPECT_EQ(E("2019-01-02T17:10:21.001:dt"), "2019-01-02T17:10:21.001");
    EXPECT_EQ(E("(1.5,-2.25,null):dec64<2>"), "1.50,-2.25,null");
    EXPECT_EQ(E("null:date"), "null");
    EXPECT_EQ(TypeOf("1.5:dec128<3>"), "dec128<3>");
}

// Non-finite floats are literals spelled as PostgreSQL prints them (issue 18: 'NaN'::float8).
TEST(Parser, NonFiniteFloatLiterals) {
    EXPECT_EQ(E("NaN:f64"), "NaN");
    EXPECT_EQ(E("Infinity:f64"), "Infinity");
    EXPECT_EQ(E("-Infinity:f32"), "-Infinity");
    EXPECT_EQ(E("(1.5,NaN,null,-Infinity,Infinity):f64"), "1.5,NaN,null,-Infinity,Infinity");
    EXPECT_EQ(TypeOf("-Infinity:f32"), "f32");
    EXPECT_NE(ParseError(Wrap("x:? = NaN:i64; return x;")), "ok");  // only floats have these words
    EXPECT_NE(ParseError(Wrap("x:? = -NaN:f64; return x;")), "ok");  // the printer never writes a signed NaN
    EXPECT_NE(ParseError(Wrap("x:? = Inf:f64; return x;")), "ok");
    // the Builder writes them, and the text parses back to the same values
    Builder b;
    b.BeginFunction("main", {});
    b.Assign("a", Type(), Builder::Use(b.F64(std::numeric_limits<double>::quiet_NaN())));
    b.Assign("c", Type(), Builder::Use(b.F32(-std::numeric_limits<float>::infinity())));
    b.Return({Builder::Name("a")});
    auto built = b.Finish();
    ASSERT_TRUE(built.ok()) << built.status().message();
    const std::string text = PrintProgram(*built);
    EXPECT_NE(text.find("a:? = NaN:f64;"), std::string::npos) << text;
    EXPECT_NE(text.find("c:? = -Infinity:f32;"), std::string::npos) << text;
    auto parsed = ParseProgram(text, "nf.hir");
    ASSERT_TRUE(parsed.ok()) << parsed.status().message();
    EXPECT_EQ(PrintProgram(*parsed), text);
}

TEST(Parser, ErrorsCarryFileLineColumn) {
    EXPECT_EQ(ParseError("module m{\n  def main() : i32{\n    x:i32 = 300:i8;\n  }\n}"), "f.hir:3:13: literal 300 is out of range for i8");
    EXPECT_EQ(ParseError("module m{ def main(){ x:? = 1994-13-01:date; } }"), "f.hir:1:29: invalid calendar value 1994-13-01");
    EXPECT_EQ(ParseError("module m{ def main(){ x:? = 007:i32; } }"), "f.hir:1:29: leading zeros are not allowed in a number");
    EXPECT_EQ(ParseError("module m{ def main(){ x:? = \"abc; } }"), "f.hir:1:29: unterminated literal");
    EXPECT_EQ(ParseError("module m{ /* never closed"), "f.hir:1:11: unterminated block comment");
    EXPECT_EQ(ParseError("module m{ def main(){ x:? = @f(@g(1:i32)); } }"), "f.hir:1:34: expected ')', found '('");
    EXPECT_EQ(ParseError("module m{ def main(){ date:? = 1:i32; } }"), "f.hir:1:23: 'date' is a keyword and cannot be used as a name");
    EXPECT_EQ(ParseError("module m{ def main(){ x:? = 1:foo; } }"), "f.hir:1:31: unknown type 'foo'");
    EXPECT_EQ(ParseError("module m{ def main(){ x:? = 'ab':char; } }"), "f.hir:1:29: a char literal holds exactly one character");
    EXPECT_EQ(ParseError("module m{ def main(){ x:? = 1.5:i32; } }"), "f.hir:1:29: float cannot be a i32 literal");
    EXPECT_EQ(ParseError("module m{ def main(){ x:? = 1:i32 } }"), "f.hir:1:35: expected ';', found '}'");
    EXPECT_EQ(ParseError("module m{ def main(){ x:? = #; } }"), "f.hir:1:29: unexpected character '#'");
}

TEST(Parser, NeverCrashesOnMutatedInput) {
    std::string base = Wrap("t0:? = @load_table(`lineitem:sym);\n t1:f64 = check_cast(@column_value(t0, `l_tax:sym), f64);\n"
                            " t2:? = @lt(t1, (0.5,1):f64);\n if (t2) { x:? = 1994-01-01:date; } else { y:? = \"s\\n\":str; }\n return t2;");
    std::mt19937 rng(12345);
    const std::string alphabet = "(){}<>:;,@.`'\"-+0123456789abcdefT?/*\n \\";
    for (int iter = 0; iter < 3000; ++iter) {
        std::string s = base;
        int edits = 1 + static_cast<int>(rng() % 4);
        for (int e = 0; e < edits; ++e) {
            size_t pos = rng() % s.size();
            switch (rng() % 3) {
                case 0: s.erase(pos, 1 + rng() % 3); break;
                case 1: s.insert(pos, 1, alphabet[rng() % alphabet.size()]); break;
                default: s[pos] = alphabet[rng() % alphabet.size()]; break;
            }
        }
        auto p = ParseProgram(s, "m.hir");
        if (p.ok()) {
            (void)CheckProgram(*p);
            (void)PrintProgram(*p);
        } else {
            EXPECT_NE(p.status().message().find("m.hir:"), std::string::npos) << p.status().message();
        }
    }
}

TEST(Parser, DialectExtensions) {
    // var with initialiser, empty return, concatenated function literals, @Builtin.list
    EXPECT_EQ(CheckError("module m{ import Builtin.*; def f(){ return; } def main() : i32{ var x:i32 = 1:i32; return x; } }"), "ok");
    EXPECT_EQ(E("@join_index(@lt@eq, a, b)", "a:? = @list((1,5):i32, (7,7):i32); b:? = @list((3):i32, (7):i32);"), "(0),(0)");
    EXPECT_EQ(E("@Builtin.list(1:i32, 2:i32)"), "(1),(2)");
    EXPECT_EQ(E("@sum:func"), "@sum\n");
}

std::vector<std::string> HirFiles() {
    std::vector<std::string> files;
    for (const char *dir : {"test/horseir/tpch", "test/horseir/rndn_style", "test/horseir"}) {
        DIR *d = opendir(dir);
        if (!d) continue;
        while (dirent *e = readdir(d)) {
            std::string n = e->d_name;
            if (n.size() > 4 && n.substr(n.size() - 4) == ".hir") files.push_back(std::string(dir) + "/" + n);
        }
        closedir(d);
    }
    return files;
}

std::string ReadAll(const std::string &path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

TEST(Printer, RoundTripOnEveryProgram) {
    auto files = HirFiles();
    ASSERT_GE(files.size(), 8u) << "expected the TPC-H programs in test/horseir/tpch";
    for (const auto &f : files) {
        auto p1 = ParseProgram(ReadAll(f), f);
        ASSERT_TRUE(p1.ok()) << p1.status().message();
        std::string t1 = PrintProgram(*p1);
        auto p2 = ParseProgram(t1, f);
        ASSERT_TRUE(p2.ok()) << f << ": " << p2.status().message() << "\n" << t1;
        std::string t2 = PrintProgram(*p2);
        EXPECT_EQ(t1, t2) << f;  // print . parse is stable
        ASSERT_TRUE(CheckProgram(*p2).ok()) << f;
    }
}

TEST(Printer, CanonicalForm) {
    auto p = ParseProgram("module default{import Builtin.*;def main():table{t0:?=@load_table(`lineitem:sym);"
                          "t1:f64=check_cast(@column_value(t0,`l_tax:sym),f64);t2:?=(1994-01-01,1995-01-01):date;return t0;}}\n"
                          "// Elapsed time: 2.20 ms\n",
                          "x.hir");
    ASSERT_TRUE(p.ok()) << p.status().message();
    EXPECT_EQ(PrintProgram(*p),
              "module default{\n"
              "  import Builtin.*;\n"
              "  def main() : table{\n"
              "    t0:? = @load_table(`lineitem:sym);\n"
              "    t1:f64 = check_cast(@column_value(t0, `l_tax:sym), f64);\n"
              "    t2:? = (1994-01-01,1995-01-01):date;\n"
              "    return t0;\n"
              "  }\n"
              "}\n");
}

TEST(Checker, ResolutionAndTypes) {
    EXPECT_EQ(CheckError("module m{ def main() : i32{ x:? = @plus(1:i32, 2:i32); return x; } }"),
              "f.hir:1:35: unknown function '@plus' (builtins need 'import Builtin.*;')");
    EXPECT_EQ(CheckError("module m{ def main() : i32{ x:? = @Builtin.plus(1:i32, 2:i32); return x; } }"), "ok");
    EXPECT_EQ(CheckError("module m{ import Builtin.{plus}; def main() : i32{ x:? = @plus(1:i32, 2:i32); return x; } }"), "ok");
    EXPECT_EQ(CheckError("module m{ import Builtin.{plus}; def main() : bool{ x:? = @lt(1:i32, 2:i32); return x; } }"),
              "f.hir:1:59: unknown function '@lt' (builtins need 'import Builtin.*;')");
    EXPECT_EQ(CheckError("module m{ import Builtin.*; def main() : i64{ x:i64 = @sum((1,2):i32); return x; } }"),
              "f.hir:1:47: cannot assign i32 to 'x' of type i64");
    EXPECT_EQ(CheckError("module m{ import Builtin.*; def main() : bool{ x:? = @leq(1:i32, 1998-09-02:date); return x; } }"),
              "f.hir:1:54: @leq: operands are not comparable (arguments: i32, date)");
    EXPECT_EQ(CheckError("module m{ import Builtin.*; def main() : bool{ x:? = @not(1:i32, 2:i32); return x; } }"),
              "f.hir:1:54: @not takes 1 argument(s), 2 given");
    EXPECT_EQ(CheckError("module m{ import Builtin.*; def main() : bool{ t:? = @load_table(`x:sym); c:? = @column_value(t, `c:sym); x:? = @not(c); return x; } }"),
              "f.hir:1:113: @not: argument 1 has unknown type '?' (use check_cast)");
    EXPECT_EQ(CheckError("module m{ import Builtin.*; def main() : bool{ @len(1:i32); return 1:bool; } }"),
              "f.hir:1:48: the value of an expression statement must be assigned");
    EXPECT_EQ(CheckError("module m{ import Builtin.*; def f() : i32{ return 1:i32; } }"), "f.hir: no entry point (function 'main')");
    EXPECT_EQ(CheckError("module m{ def main(){} } module n{ def main(){} }"), "f.hir: more than one entry point 'main'");
    EXPECT_EQ(CheckError("module m{ def main(){ x:? = 1:i32; x:? = 2:i32; } }"), "f.hir:1:36: 'x' already defined");
    EXPECT_EQ(CheckError("module m{ def main(){ x:? = y; } }"), "f.hir:1:29: 'y' is not declared");
    EXPECT_EQ(CheckError("module m{ def main(){ break; } }"), "f.hir:1:23: break outside a loop");
    EXPECT_EQ(CheckError("module m{ def main() : i32{ x:? = 1:bool; if (x) { return 1:i32; } } }"),
              "f.hir:1:11: function 'main' does not return a value on every path");
    EXPECT_EQ(CheckError("module m{ import Builtin.*; def main() : i32{ x:? = 1:i32; if (x) { return x; } else { return x; } } }"),
              "f.hir:1:64: condition must be bool");
    EXPECT_EQ(CheckError("module m{ import Builtin.*; def main() : i32{ x:i32 = check_cast(1994-01-01:date, i32); return x; } }"),
              "f.hir:1:55: cannot cast date to i32");
}

TEST(Checker, DefiniteAssignment) {
    EXPECT_EQ(CheckError("module m{ def main() : i32{ var x:i32; c:? = 1:bool; if (c) { x = 1:i32; } return x; } }"),
              "f.hir:1:83: 'x' may be used before it is assigned");
    EXPECT_EQ(CheckError("module m{ def main() : i32{ var x:i32; c:? = 1:bool; if (c) { x = 1:i32; } else { x = 2:i32; } return x; } }"), "ok");
    EXPECT_EQ(CheckError("module m{ def main() : i32{ var x:i32; c:? = 1:bool; while (c) { x = 1:i32; } return x; } }"),
              "f.hir:1:86: 'x' may be used before it is assigned");
    EXPECT_EQ(CheckError("module m{ def main() : i32{ var x:i32; c:? = 1:bool; if (c) { return 5:i32; } x = 2:i32; return x; } }"), "ok");
}

TEST(Checker, InfersWildcards) {
    auto p = ParseProgram(Wrap("t11:? = (1998-01-01):date; t17:? = @leq(t11, 1998-09-02:date); g:? = @group(t11); v:? = @values(g); "
                               "s:? = @each_right(@index, t11, v); a:? = (1.5):dec64<2>; d:? = @div(a, 3:i32); return t17;"),
                          "i.hir");
    ASSERT_TRUE(p.ok());
    ASSERT_TRUE(CheckProgram(*p).ok());
    const auto &body = p->modules[0].functions[0].body;
    EXPECT_EQ(TypeToString(body[1].expr.types[0]), "bool");
    EXPECT_EQ(TypeToString(body[2].expr.types[0]), "dict<i64,i64>");
    EXPECT_EQ(TypeToString(body[3].expr.types[0]), "list<i64>");
    EXPECT_EQ(TypeToString(body[4].expr.types[0]), "list<date>");
    EXPECT_EQ(TypeToString(body[6].expr.types[0]), "dec128<?>");
}

TEST(Builtins, TableIsCompleteAndSorted) {
    for (int i = 0; i < NumBuiltins(); ++i) {
        auto p = ParseProgram(Wrap("x:? = @" + std::string("Builtin.") + "len(1:i32); return x;"), "b.hir");
        ASSERT_TRUE(p.ok());
    }
    // every TPC-H builtin and every SQL builtin of the task resolves
    for (const char *n : {"index", "column_value", "compress", "load_table", "list", "eq", "fetch", "join_index", "each", "values", "raze", "and",
                          "mul", "sum", "each_right", "keys", "group", "table", "len", "order", "where", "lt", "geq", "member", "minus", "leq",
                          "not", "div", "vector", "like", "gt", "plus", "neq", "index_a", "avg", "sub_string", "or", "date_year", "unique",
                          "append", "min", "max", "abs", "neg", "mod", "power", "sqrt", "exp", "log", "each_item", "each_left", "count",
                          "is_null", "coalesce", "datetime_add", "date_month", "date_day"})
        EXPECT_GE(LookupBuiltin(n), 0) << n;
    EXPECT_EQ(LookupBuiltin("nosuch"), -1);
}

}  // namespace
}  // namespace rndn::hir::testing
