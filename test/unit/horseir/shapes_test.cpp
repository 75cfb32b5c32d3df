// Shape analysis (thesis §4.3): the thesis's worked example, the 22 TPC-H programs, merges, and
// shape errors.
#include <fstream>
#include <sstream>

#include "test_util.h"

namespace rndn::hir::testing {
namespace {

std::string Slurp(const std::string &path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

Expected<ShapeInfo> Shapes(const std::string &text) {
    auto p = ParseProgram(text, "s.hir");
    if (!p.ok()) return p.status();
    Status st = CheckProgram(*p);
    if (!st.ok()) return st;
    return InferShapes(*p);
}

std::string ShapeOf(const ShapeInfo &info, const std::string &var, const std::string &fn = "main") {
    const VarShape *v = info.Find(fn, var);
    if (!v) return "<none>";
    return ShapeToString(v->shape, info.data_objects);
}

std::string ClassOf(const ShapeInfo &info, const std::string &var) {
    const VarShape *v = info.Find("main", var);
    return v ? ShapeClassName(v->klass) : "<none>";
}

// Thesis Fig 4.7 (digest §3.3 / requirement R-O1).
TEST(Shapes, ThesisWorkedExample) {
    auto info = Shapes(Wrap("    t0:? = @load_table(`T:sym);\n"
                            "    t1:i32 = check_cast(@column_value(t0, `amount:sym), i32);\n"
                            "    t2:? = @min(t1);\n"
                            "    t3:? = @eq(t1, t2);\n"
                            "    t4:? = @compress(t3, t1);\n"
                            "    t5:? = @list(t4);\n"
                            "    t6:? = @table(`out:sym, t5);\n"
                            "    return t6;"));
    ASSERT_TRUE(info.ok()) << info.status().message();
    EXPECT_EQ(ShapeOf(*info, "t1"), "Vector('T)");
    EXPECT_EQ(ShapeOf(*info, "t2"), "Vector(1)");
    EXPECT_EQ(ShapeOf(*info, "t3"), "Vector('T)");
    EXPECT_EQ(ShapeOf(*info, "t4"), "Vector('T[t3])");
    EXPECT_EQ(ShapeOf(*info, "t5"), "List(1, [Vector('T[t3])])");
    EXPECT_EQ(ShapeOf(*info, "t6"), "Table('T[t3], 1)");
    EXPECT_EQ(ClassOf(*info, "t1"), "relation");
    EXPECT_EQ(ClassOf(*info, "t2"), "scalar");
    EXPECT_EQ(ClassOf(*info, "t4"), "compressed");
    EXPECT_EQ(ClassOf(*info, "t6"), "table");
    const VarShape *t3 = info->Find("main", "t3");
    ASSERT_NE(t3, nullptr);
    EXPECT_EQ(TypeToString(t3->type), "bool");
}

TEST(Shapes, BroadcastAndCompressionRules) {
    auto info = Shapes(Wrap("    a:? = @load_table(`A:sym);\n"
                            "    b:? = @load_table(`B:sym);\n"
                            "    x:i64 = check_cast(@column_value(a, `x:sym), i64);\n"
                            "    y:i64 = check_cast(@column_value(a, `y:sym), i64);\n"
                            "    z:i64 = check_cast(@column_value(b, `z:sym), i64);\n"
                            "    s1:? = @plus(x, y);\n"
                            "    s2:? = @plus(x, z);\n"
                            "    m1:? = @gt(x, 0:i64);\n"
                            "    m2:? = @gt(y, 0:i64);\n"
                            "    c1:? = @compress(m1, x);\n"
                            "    c2:? = @compress(m1, y);\n"
                            "    c3:? = @compress(m2, y);\n"
                            "    p1:? = @mul(c1, c2);\n"
                            "    p2:? = @mul(c1, c3);\n"
                            "    w:? = @where(m1);\n"
                            "    g:? = @index(z, w);\n"
                            "    k:? = (1,2,3):i64;\n"
                            "    k2:? = @plus(k, 1:i64);\n"
                            "    r:? = @range(5:i64);\n"
                            "    n:? = @len(x);\n"
                            "    u:? = @unique(x);\n"
                            "    return n;"));
    ASSERT_TRUE(info.ok()) << info.status().message();
    EXPECT_EQ(ShapeOf(*info, "s1"), "Vector('A)");
    EXPECT_EQ(ClassOf(*info, "s2"), "dynamic");  // 'A against 'B: not provably equal
    EXPECT_EQ(ShapeOf(*info, "p1"), "Vector('A[m1])");  // same mask object
    EXPECT_EQ(ClassOf(*info, "p2"), "dynamic");  // different masks
    EXPECT_EQ(ShapeOf(*info, "w"), "Vector('A[m1])");
    EXPECT_EQ(ShapeOf(*info, "g"), "Vector('A[m1])");  // a gather has its index's shape
    EXPECT_EQ(ShapeOf(*info, "k2"), "Vector(3)");
    EXPECT_EQ(ShapeOf(*info, "r"), "Vector(5)");
    EXPECT_EQ(ClassOf(*info, "n"), "scalar");
    EXPECT_EQ(ClassOf(*info, "u"), "dynamic");
}

TEST(Shapes, GroupAndJoinIdioms) {
    auto info = Shapes(Wrap("    a:? = @load_table(`A:sym);\n"
                            "    b:? = @load_table(`B:sym);\n"
                            "    x:i64 = check_cast(@column_value(a, `x:sym), i64);\n"
                            "    v:f64 = check_cast(@column_value(a, `v:sym), f64);\n"
                            "    z:i64 = check_cast(@column_value(b, `z:sym), i64);\n"
                            "    g:? = @group(x);\n"
                            "    gk:? = @keys(g);\n"
                            "    gv:? = @values(g);\n"
                            "    kx:? = @index(x, gk);\n"
                            "    parts:? = @each_right(@index, v, gv);\n"
                            "    sums:? = @each(@sum, parts);\n"
                            "    agg:? = @raze(sums);\n"
                            "    tot:? = @plus(agg, kx);\n"
                            "    j:? = @join_index(@eq, x, z);\n"
                            "    j0:? = @index(j, 0:i64);\n"
                            "    j1:? = @index(j, 1:i64);\n"
                            "    jx:? = @index(x, j0);\n"
                            "    jz:? = @index(z, j1);\n"
                            "    both:? = @plus(jx, jz);\n"
                            "    return both;"));
    ASSERT_TRUE(info.ok()) << info.status().message();
    EXPECT_EQ(ClassOf(*info, "g"), "grouping");
    EXPECT_EQ(ClassOf(*info, "gk"), "grouped");
    EXPECT_EQ(ClassOf(*info, "kx"), "grouped");
    EXPECT_EQ(ClassOf(*info, "parts"), "cells");
    EXPECT_EQ(ClassOf(*info, "agg"), "grouped");
    // the aggregate and the key have the same symbolic length (one per group)
    EXPECT_EQ(ShapeOf(*info, "agg"), ShapeOf(*info, "kx"));
    EXPECT_EQ(ShapeOf(*info, "tot"), ShapeOf(*info, "kx"));
    EXPECT_EQ(ClassOf(*info, "j"), "cells");
    EXPECT_EQ(ClassOf(*info, "jx"), "joined");
    EXPECT_EQ(ShapeOf(*info, "jx"), ShapeOf(*info, "jz"));
    EXPECT_EQ(ShapeOf(*info, "both"), ShapeOf(*info, "jx"));
}

TEST(Shapes, BranchesMergeAndLoopsTerminate) {
    auto info = Shapes(Wrap("    a:? = @load_table(`A:sym);\n"
                            "    x:i64 = check_cast(@column_value(a, `x:sym), i64);\n"
                            "    m1:? = @gt(x, 0:i64);\n"
                            "    m2:? = @lt(x, 9:i64);\n"
                            "    var c:i64;\n"
                            "    var d:i64;\n"
                            "    c = @compress(m1, x);\n"
                            "    d = @plus(x, 1:i64);\n"
                            "    b:? = @any(m1);\n"
                            "    if (b) { c = @compress(m2, x); d = @minus(x, 1:i64); }\n"
                            "    i:i64 = 0:i64;\n"
                            "    e:? = (1,2):i64;\n"
                            "    while (b) { e = @append(e, e); i = @plus(i, 1:i64); b = @lt(i, 3:i64); }\n"
                            "    f:? = @plus(c, 1:i64);\n"
                            "    h:? = @plus(d, 1:i64);\n"
                            "    return f;"));
    ASSERT_TRUE(info.ok()) << info.status().message();
    // c is x compressed by one of two masks: compressed, with a fresh mask object
    EXPECT_EQ(ClassOf(*info, "f"), "compressed");
    EXPECT_NE(ShapeOf(*info, "f"), "Vector('A[m1])");
    EXPECT_EQ(ShapeOf(*info, "h"), "Vector('A)");  // both branches keep 'A
    EXPECT_EQ(ClassOf(*info, "e"), "dynamic");
}

TEST(Shapes, ShapeErrors) {
    auto err = [](const std::string &stmts) {
        auto info = Shapes(Wrap(stmts));
        return info.ok() ? std::string("ok") : info.status().message();
    };
    EXPECT_NE(err("    r:? = @plus((1,2):i64, (1,2,3):i64);\n    return r;").find("shape error: @plus: operands of constant lengths 2 and 3"),
              std::string::npos);
    EXPECT_NE(err("    r:? = @compress((1,0):bool, (1,2,3):i64);\n    return r;").find("shape error: @compress"), std::string::npos);
    EXPECT_NE(err("    j:? = @join_index(@eq, (1,2):i64, (2,3):i64);\n    r:? = @index(j, 2:i64);\n    return r;").find("shape error: @index: cell 2"),
              std::string::npos);
    EXPECT_NE(err("    c:? = @list((1,2):i64, (1,2,3):i64);\n    r:? = @table((`a,`b):sym, c);\n    return r;").find("shape error: @table"),
              std::string::npos);
    EXPECT_NE(err("    c:? = @list((1,2):i64, (1,2,3):i64);\n    r:? = @order(c, (1,1):bool);\n    return r;").find("shape error: @order"),
              std::string::npos);
    // positions point at the statement
    EXPECT_NE(err("    r:? = @plus((1,2):i64, (1,2,3):i64);\n    return r;").find("s.hir:4:"), std::string::npos);
    // a scalar broadcasts to any length; equal constants agree
    EXPECT_EQ(err("    r:? = @plus(1:i64, (1,2,3):i64);\n    q:? = @plus((4,5,6):i64, r);\n    return q;"), "ok");
}

TEST(Shapes, EveryTpchProgramGetsShapes) {
    int n = 0;
    for (int q = 1; q <= 22; ++q) {
        std::string f = "test/horseir/tpch/q" + std::to_string(q) + ".hir";
        auto p = ParseProgram(Slurp(f), f);
        ASSERT_TRUE(p.ok()) << p.status().message();
        ASSERT_TRUE(CheckProgram(*p).ok()) << f;
        auto info = InferShapes(*p);
        ASSERT_TRUE(info.ok()) << f << ": " << info.status().message();
        EXPECT_FALSE(info->vars.empty()) << f;
        for (const auto &v : info->vars) {
            EXPECT_NE(v.shape.kind, Shape::Kind::WILDCARD) << f << ": " << v.name;
            EXPECT_NE(v.type.kind, TypeKind::WILDCARD) << f << ": " << v.name;
        }
        ++n;
        if (q == 6) {
            EXPECT_EQ(ShapeOf(*info, "t14"), "Vector('lineitem[t13])");
            EXPECT_EQ(ShapeOf(*info, "t16"), "Vector('lineitem[t13])");
            EXPECT_EQ(ClassOf(*info, "t17"), "scalar");
            EXPECT_EQ(ShapeOf(*info, "t19"), "Table(1, 1)");
        }
        if (q == 3) {
            EXPECT_EQ(ClassOf(*info, "o_k"), "compressed");
            EXPECT_EQ(ClassOf(*info, "k"), "joined");
            EXPECT_EQ(ClassOf(*info, "rev"), "joined");
            EXPECT_EQ(ClassOf(*info, "r_rev"), "grouped");
            // @take(10, ord) keeps at most 10 rows: a length known only at run time
            EXPECT_EQ(ClassOf(*info, "out_k"), "dynamic");
            EXPECT_EQ(ShapeOf(*info, "out_k"), ShapeOf(*info, "out_r"));
        }
    }
    EXPECT_EQ(n, 22);
}

}  // namespace
}  // namespace rndn::hir::testing
