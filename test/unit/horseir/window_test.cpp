// Window and top-N builtins (issue 18 item 4): @frame, @clip, @order_top.  @frame is checked
// against @each over the same frames built as index lists, and @order_top against a prefix of
// @order (the stable full sort) on random keys with ties and NULLs.
#include <random>

#include "test_util.h"

namespace rndn::hir::testing {
namespace {

TEST(Window, ClipBoundsEachElement) {
    EXPECT_EQ(E("@clip((5,-3,2,10):i64, 0:i64, 4:i64)"), "4,0,2,4");
    EXPECT_EQ(E("@clip((5,5,5):i64, (0,6,1):i64, (3,9,9):i64)"), "3,6,5");
    EXPECT_EQ(E("@clip((1,null):i64, 0:i64, (2,2):i64)"), "1,null");
    EXPECT_EQ(TypeOf("@clip(1:i32, 0:i16, 4:i64)"), "i64");
    EXPECT_EQ(TypeOf("@clip(1.5:f64, 0:i64, 4:i64)").rfind("ERROR", 0), 0u);
}

TEST(Window, RunBoundsOfConsecutiveEqualKeys) {
    const std::string k = "a:? = (1,1,null,null,2,1,1):i32; b:? = (0,0,5,5,5,0,1):i64; k:? = @list(a, b);";
    EXPECT_EQ(E("@run_bounds(a, 0:bool)", k), "0,0,2,2,4,5,5");
    EXPECT_EQ(E("@run_bounds(a, 1:bool)", k), "2,2,4,4,5,7,7");
    EXPECT_EQ(E("@run_bounds(k, 0:bool)", k), "0,0,2,2,4,5,6");
    EXPECT_EQ(E("@run_bounds(k, 1:bool)", k), "2,2,4,4,5,6,7");
    // -0 and 0 are one group, as are two NaNs
    EXPECT_EQ(E("@run_bounds(x, 1:bool)", "z:? = @minus(0:f64, 0:f64); n:? = @div(z, z); y:? = @append((-0.0,0.0,1):f64, n); x:? = @append(y, n);"),
              "2,2,3,5,5");
    EXPECT_EQ(E("@run_bounds((\"b\",\"b\",\"\"):str, 0:bool)"), "0,0,2");
}

TEST(Window, FrameReducesEachRowsRange) {
    const std::string x = "x:? = (1.5,2,null,4,-0.5):f64; s:? = (0,0,1,2,4):i64; e:? = (1,3,4,5,5):i64;";
    EXPECT_EQ(E("@frame(@sum, x, s, e)", x), "1.5,3.5,6,3.5,-0.5");
    EXPECT_EQ(E("@frame(@count, x, s, e)", x), "1,2,2,2,1");
    EXPECT_EQ(E("@frame(@max, x, s, e)", x), "1.5,2,4,4,-0.5");
    EXPECT_EQ(E("@frame(@len, x, s, e)", x), "1,3,3,3,1");
    // the same as @each over the frames written out as index lists
    EXPECT_EQ(E("@frame(@min, x, s, e)", x),
              E("@raze(m)", x + " l:? = @list((0):i64, (0,1,2):i64, (1,2,3):i64, (2,3,4):i64, (4):i64);"
                                " p:? = @each_right(@index, x, l); m:? = @each(@min, p);"));
    // an end before its start is the empty frame; a frame outside the vector is an error
    EXPECT_EQ(E("@frame(@count, (1,2,3):i32, (0,2,1):i64, (3,1,1):i64)"), "3,0,0");
    EXPECT_EQ(E("@frame(@sum, (1,2,3):i32, 0:i64, 4:i64)").rfind("ERROR", 0), 0u);
    EXPECT_EQ(TypeOf("@frame(@sum, (1,2):i32, (0,0):i64, (1,2):i64)"), TypeOf("@sum((1,2):i32)"));
    EXPECT_EQ(TypeOf("@frame(@avg, (1,2):f32, (0,0):i64, (1,2):i64)"), TypeOf("@avg((1,2):f32)"));
    EXPECT_EQ(E("@frame(@max, (\"b\",\"a\",\"c\"):str, (0,1,1):i64, (2,2,3):i64)"), "b,a,c");
}

// Under SQL's empty-aggregate rule @frame takes its typed loop for @sum/@min/@max (continued
// running frames, restarted sliding ones): equal to @each over the frames written out as index
// lists, on random frames (running, sliding, empty, whole) of values with NULLs, ties, -0 and NaN.
TEST(Window, FrameTypedLoopEqualsEachUnderSqlRules) {
    InterpretOptions sql;
    sql.sql_empty_aggregates = true;
    auto run = [&](const std::string &stmts) {
        auto p = ParseProgram(Wrap(stmts), "frame.hir");
        if (!p.ok()) return "PARSE " + p.status().ToString();
        if (Status st = CheckProgram(*p); !st.ok()) return "CHECK " + st.ToString();
        DataRegistry reg;
        auto r = Interpret(*p, reg, sql);
        return r.ok() ? Show(*r) : std::string("ERROR ") + r.status().message();
    };
    std::mt19937 rng(4);
    const char *values[] = {"(3,null,-2,7,7,0,null,5,-9,1,4,4):i64",
                            "(1.5,null,-0.0,0.0,2.25,1e300,-1e300,0.1,null,0.2,0.3,-0.0):f64",
                            "(1.25,null,-3.50,7.00,7.00,0.01,null,5.55,-9.99,1.00,4.40,4.40):dec128(2)",
                            "(3,null,-2,7,7,0,null,5,-9,1,4,4):i32"};
    for (int round = 0; round < 30; ++round) {
        const int n = 12;
        std::vector<int64_t> st(n), en(n);
        const int mode = round % 3;  // running, sliding, random
        for (int i = 0; i < n; ++i) {
            if (mode == 0) st[static_cast<size_t>(i)] = i < 6 ? 0 : 6, en[static_cast<size_t>(i)] = i + 1 - static_cast<int>(rng() % 2);
            else if (mode == 1) st[static_cast<size_t>(i)] = std::max(0, i - 2), en[static_cast<size_t>(i)] = std::min(n, i + 2);
            else st[static_cast<size_t>(i)] = rng() % n, en[static_cast<size_t>(i)] = rng() % (n + 1);
        }
        std::string ss = "(", es = "(", lists = "@list(";
        for (int i = 0; i < n; ++i) {
            ss += (i ? "," : "") + std::to_string(st[static_cast<size_t>(i)]);
            es += (i ? "," : "") + std::to_string(en[static_cast<size_t>(i)]);
            std::string cell = "(";
            for (int64_t r = st[static_cast<size_t>(i)]; r < en[static_cast<size_t>(i)]; ++r) cell += (cell.size() > 1 ? "," : "") + std::to_string(r);
            lists += std::string(i ? ", " : "") + (cell.size() > 1 ? cell + "):i64" : "z");
        }
        ss += "):i64";
        es += "):i64";
        lists += ")";
        for (const char *vals : values) {
            for (const char *fn : {"@sum", "@min", "@max"}) {
                const std::string setup = std::string("x:? = ") + vals + "; s:? = " + ss + "; e:? = " + es + "; z:? = @compress(0:bool, (0):i64);";
                EXPECT_EQ(run(setup + " r:? = @frame(" + fn + ", x, s, e); return r;"),
                          run(setup + " l:? = " + lists + "; p:? = @each_right(@index, x, l); m:? = @each(" + fn + ", p); r:? = @raze(m); return r;"))
                    << fn << " over " << vals << " frames " << ss << " " << es;
            }
        }
    }
}

std::string Ints(const std::vector<int> &v, bool nulls) {
    std::string s = "(";
    for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + (nulls && v[i] % 7 == 0 ? std::string("null") : std::to_string(v[i]));
    return s + "):i64";
}

TEST(Window, OrderTopIsThePrefixOfTheStableOrder) {
    std::mt19937 rng(18);
    for (int round = 0; round < 40; ++round) {
        const int n = 50 + static_cast<int>(rng() % 400);
        std::vector<int> a(static_cast<size_t>(n)), b(static_cast<size_t>(n));
        for (auto &v : a) v = static_cast<int>(rng() % 20);  // many ties
        for (auto &v : b) v = static_cast<int>(rng() % 5);
        const std::string setup = "a:? = " + Ints(a, true) + "; b:? = " + Ints(b, round % 2 == 0) + "; k:? = @list(a, b);";
        for (const char *flags : {"(1,1):bool", "(0,1):bool", "(1,0):bool", "(0,0):bool"}) {
            const int k = static_cast<int>(rng() % static_cast<unsigned>(n / 4 + 2));
            const std::string ks = std::to_string(k) + ":i64";
            EXPECT_EQ(E(std::string("@order_top(k, ") + flags + ", " + ks + ")", setup),
                      E(std::string("@take(") + ks + ", o)", setup + " o:? = @order(k, " + flags + ");"))
                << "round " << round << " flags " << flags << " k " << k;
        }
        EXPECT_EQ(E("@order_top(a, 1:bool, 3:i64)", setup), E("@take(3:i64, o)", setup + " o:? = @order(a, 1:bool);"));
    }
    // strings, floats with NaN and -0, a count beyond the rows, no rows
    EXPECT_EQ(E("@order_top((\"b\",\"\",\"a\",null,\"a\"):str, 1:bool, 9:i64)"), "1,2,4,0,3");
    const std::string f = "z:? = @minus(0:f64, 0:f64); n:? = @div(z, z); x:? = @append((1.5,-0.0,0.0,null,-1):f64, n);";
    EXPECT_EQ(E("@order_top(x, 0:bool, 3:i64)", f), E("@take(3:i64, o)", f + " o:? = @order(x, 0:bool);"));
    EXPECT_EQ(E("@order_top(x, 1:bool, 4:i64)", f), E("@take(4:i64, o)", f + " o:? = @order(x, 1:bool);"));
    EXPECT_EQ(E("@len(t)", "c:? = @compress(0:bool, (1):i32); t:? = @order_top(c, 1:bool, 2:i64);"), "0");
    EXPECT_EQ(E("@order_top((3,1):i32, 1:bool, -1:i64)").rfind("ERROR", 0), 0u);
}

}  // namespace
}  // namespace rndn::hir::testing
