// Query shapes: constants are kernel arguments, so programs that differ only in their literals
// outline to the same kernels with the same PTX text, the second one compiles nothing on the cpu
// device (cpujit's module cache and the outlined program's PTX cache), and results stay the
// interpreter's for each program's own constants.  Also rndn.cpu_threads' launch setting.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

#include "codegen/codegen.h"
#include "codegen/codegen_test_util.h"
#include "cpujit/cpujit.h"

namespace rndn::codegen::testing {
namespace {

std::string Replace(std::string s, const std::string &from, const std::string &to) {
    size_t at = s.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) s.replace(at, from.size(), to);
    return s;
}

std::unique_ptr<hir::Program> Parse(const std::string &text) {
    auto p = hir::ParseProgram(text, "shape.hir");
    EXPECT_TRUE(p.ok()) << p.status().ToString();
    if (!p.ok()) return nullptr;
    auto prog = std::make_unique<hir::Program>(std::move(*p));
    Status st = hir::CheckProgram(*prog);
    EXPECT_TRUE(st.ok()) << st.ToString();
    return st.ok() ? std::move(prog) : nullptr;
}

// Q6 with its five constants replaced.
std::string Q6With(const std::string &from_date, const std::string &to_date, const std::string &lo, const std::string &hi,
                   const std::string &qty) {
    std::string t = ReadAll("test/horseir/tpch/q6.hir");
    t = Replace(t, "@geq(t1, 1994-01-01:date)", "@geq(t1, " + from_date + ":date)");
    t = Replace(t, "@lt(t1, 1995-01-01:date)", "@lt(t1, " + to_date + ":date)");
    t = Replace(t, "0.05:dec64<2>", lo + ":dec64<2>");
    t = Replace(t, "0.07:dec64<2>", hi + ":dec64<2>");
    t = Replace(t, "24:dec64<2>", qty + ":dec64<2>");
    return t;
}

hir::DataRegistry *Data() {
    static hir::DataRegistry reg;
    static int state = 0;
    if (state == 0) {
        std::ifstream probe("build/tpch/sf0.01/lineitem.tbl");
        state = probe && hir::LoadSchemaAndData(ReadAll("test/tpch/schema.sql"), "build/tpch/sf0.01", reg).ok() ? 1 : 2;
    }
    return state == 1 ? &reg : nullptr;
}

std::string PtxText(const OutlinedProgram &o) {
    PtxOptions po;
    po.warp_reduce = false;
    auto m = GeneratePtx(o, po);
    EXPECT_TRUE(m.ok()) << m.status().ToString();
    return m.ok() ? ptx::Print(*m) : std::string();
}

TEST(Shape, KeyMasksConstantsButNotStructureOrNames) {
    auto a = Parse(Q6With("1994-01-01", "1995-01-01", "0.05", "0.07", "24"));
    auto b = Parse(Q6With("1993-03-15", "1997-01-01", "0.02", "0.09", "40"));
    ASSERT_TRUE(a && b);
    EXPECT_EQ(ShapeKey(*a), ShapeKey(*b));
    EXPECT_EQ(ShapeKey(*a).find("1994-01-01"), std::string::npos);
    // another builtin, another column (a symbol), another literal type: other shapes
    auto c = Parse(Replace(Q6With("1994-01-01", "1995-01-01", "0.05", "0.07", "24"), "@lt(t3,", "@leq(t3,"));
    auto d = Parse(Replace(Q6With("1994-01-01", "1995-01-01", "0.05", "0.07", "24"), "`l_discount:sym", "`l_tax:sym"));
    auto e = Parse(Replace(Q6With("1994-01-01", "1995-01-01", "0.05", "0.07", "24"), "24:dec64<2>", "24:dec128<2>"));
    ASSERT_TRUE(c && d && e);
    EXPECT_NE(ShapeKey(*a), ShapeKey(*c));
    EXPECT_NE(ShapeKey(*a), ShapeKey(*d));
    EXPECT_NE(ShapeKey(*a), ShapeKey(*e));
    // the original program is untouched by the masking
    EXPECT_NE(hir::PrintProgram(*a).find("1994-01-01"), std::string::npos);
}

TEST(Shape, OtherConstantsGiveTheSamePtxAndCompileNothing) {
    hir::DataRegistry *data = Data();
    if (!data) GTEST_SKIP() << "no SF 0.01 data in build/tpch/sf0.01 (run tools/tpch.sh gen 0.01)";
    struct C {
        const char *from, *to, *lo, *hi, *qty;
    };
    const C cases[] = {{"1994-01-01", "1995-01-01", "0.05", "0.07", "24"},
                       {"1996-01-01", "1997-01-01", "0.02", "0.04", "25"},
                       {"1992-01-01", "1999-01-01", "0.00", "0.10", "50"},
                       {"1995-06-01", "1995-06-02", "0.08", "0.08", "1"},
                       {"1997-01-01", "1995-01-01", "0.05", "0.07", "24"}};  // empty selection: NULL sum
    cpujit::Device dev(2);
    Runner runner(dev);
    std::vector<std::unique_ptr<hir::Program>> progs;
    std::unique_ptr<OutlinedProgram> first;
    std::string first_ptx;
    std::set<std::string> results;
    for (const C &c : cases) {
        progs.push_back(Parse(Q6With(c.from, c.to, c.lo, c.hi, c.qty)));
        const hir::Program &p = *progs.back();
        hir::InterpretOptions opts;
        auto want = hir::Interpret(p, *data, opts);
        ASSERT_TRUE(want.ok()) << want.status().ToString();
        // outlined afresh: the same PTX text as the first program's
        auto fresh = Outline(p, FusionMode::FULL);
        ASSERT_TRUE(fresh.ok());
        if (!first) {
            first = std::make_unique<OutlinedProgram>(std::move(*fresh));
            first_ptx = PtxText(*first);
            ASSERT_FALSE(first_ptx.empty());
            RunStats st;
            auto got = runner.Run(*first, *data, opts, &st);
            ASSERT_TRUE(got.ok()) << got.status().ToString();
            EXPECT_EQ(hir::FormatValue(*got), hir::FormatValue(*want));
            EXPECT_EQ(st.kernels_launched, 1);
            EXPECT_EQ(st.ptx_generated, 1);
            results.insert(hir::FormatValue(*want));
            continue;
        }
        EXPECT_EQ(PtxText(*fresh), first_ptx) << c.from << " " << c.lo;
        // the first program's outlined kernels re-pointed at this program's constants
        auto rebound = Rebind(*first, p);
        ASSERT_TRUE(rebound.ok()) << rebound.status().ToString();
        EXPECT_EQ(PtxText(*rebound), first_ptx);
        const size_t modules = dev.cached_modules();
        RunStats st;
        auto got = runner.Run(*rebound, *data, opts, &st);
        ASSERT_TRUE(got.ok()) << got.status().ToString();
        EXPECT_EQ(hir::FormatValue(*got), hir::FormatValue(*want)) << c.from << " " << c.lo;
        EXPECT_EQ(dev.cached_modules(), modules) << "a repeated shape compiled a module";
        EXPECT_EQ(st.ptx_generated, 0) << "a repeated shape generated PTX";
        EXPECT_EQ(st.kernels_launched + st.kernels_redone, 1);
        results.insert(hir::FormatValue(*want));
    }
    // the constants took effect (each case's own answer, not the first's)
    EXPECT_GE(results.size(), 4u);
}

TEST(Shape, RebindRefusesAnotherShape) {
    auto a = Parse(Q6With("1994-01-01", "1995-01-01", "0.05", "0.07", "24"));
    auto e = Parse(Replace(Q6With("1994-01-01", "1995-01-01", "0.05", "0.07", "24"), "24:dec64<2>", "24:dec128<2>"));
    auto f = Parse(ReadAll("test/horseir/tpch/q1.hir"));
    ASSERT_TRUE(a && e && f);
    auto o = Outline(*a, FusionMode::FULL);
    ASSERT_TRUE(o.ok());
    EXPECT_FALSE(Rebind(*o, *e).ok());
    EXPECT_FALSE(Rebind(*o, *f).ok());
}

// EXPLAIN's "Interpreted Builtins": Q6's table loads stay on the interpreter while its filter
// and arithmetic are kernel statements; the list is sorted and has each name once.
TEST(Shape, InterpretedBuiltinsNameTheInterpreterStepsOnly) {
    auto a = Parse(Q6With("1994-01-01", "1995-01-01", "0.05", "0.07", "24"));
    ASSERT_TRUE(a);
    auto o = Outline(*a, FusionMode::FULL);
    ASSERT_TRUE(o.ok());
    const auto names = InterpretedBuiltins(*o);
    auto has = [&](const char *n) { return std::find(names.begin(), names.end(), n) != names.end(); };
    EXPECT_TRUE(has("@load_table"));
    EXPECT_TRUE(has("@column_value"));
    EXPECT_FALSE(has("@mul"));
    EXPECT_FALSE(has("@geq"));
    EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
    EXPECT_EQ(std::adjacent_find(names.begin(), names.end()), names.end());
}

TEST(Shape, CpuThreadsChangeNoResult) {
    hir::DataRegistry *data = Data();
    if (!data) GTEST_SKIP() << "no SF 0.01 data in build/tpch/sf0.01 (run tools/tpch.sh gen 0.01)";
    cpujit::Device dev(4);
    for (int q : {1, 6, 14}) {
        auto p = Parse(ReadAll("test/horseir/tpch/q" + std::to_string(q) + ".hir"));
        ASSERT_TRUE(p);
        hir::InterpretOptions opts;
        auto want = hir::Interpret(*p, *data, opts);
        ASSERT_TRUE(want.ok());
        auto o = Outline(*p, FusionMode::FULL);
        ASSERT_TRUE(o.ok());
        for (unsigned threads : {1u, 2u, 0u, 64u}) {
            Runner runner(dev);
            runner.set_threads(threads);
            RunStats st;
            auto got = runner.Run(*o, *data, opts, &st);
            ASSERT_TRUE(got.ok()) << got.status().ToString();
            EXPECT_EQ(hir::FormatValue(*got), hir::FormatValue(*want)) << "q" << q << " threads " << threads;
            EXPECT_GT(st.kernels_launched, 0);
        }
    }
}

}  // namespace
}  // namespace rndn::codegen::testing
