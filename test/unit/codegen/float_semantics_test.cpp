// Float kernels follow the interpreter's (= PostgreSQL's) semantics bit for bit: NaN equals NaN
// and is above every number (+Infinity included), -0 equals 0, and float arithmetic raises
// PostgreSQL's overflow / underflow errors under sql_float_errors.  Every pair of the special
// values below meets in each binary form; each case runs through the interpreter and through
// codegen::Runner (kernels on the cpu device) and the printed results or errors must be equal.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cfloat>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "codegen/codegen.h"
#include "codegen/codegen_test_util.h"
#include "cpujit/cpujit.h"

namespace rndn::codegen::testing {
namespace {

using hir::Type;
using hir::TypeKind;

const double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::numeric_limits<double>::quiet_NaN();

// The edge values: NaN (both signs of the bit pattern), infinities, signed zeros, extremes,
// the smallest subnormal, ordinary numbers.
const std::vector<double> &Specials() {
    static const std::vector<double> v = {kNaN, -kNaN, kInf, -kInf, 0.0, -0.0, 1.0, -1.0, 2.5, DBL_MAX, -DBL_MAX, DBL_MIN, 4.9e-324, 1e-200, 1e200};
    return v;
}

// "pairs": every ordered pair of specials (f1, f2), and the same with NULLs sprinkled in
// ("pairsnull"); "mixed": 3000 random rows, a quarter of them specials; "negzero": only -0
// values; "nanmax": ordinary numbers and one NaN.  b1 is a random mask.
std::shared_ptr<hir::Table> MakeTable(const std::vector<double> &x, const std::vector<double> &y, bool nulls, uint32_t seed) {
    std::mt19937_64 rng(seed);
    auto t = std::make_shared<hir::Table>();
    const int64_t n = static_cast<int64_t>(x.size());
    auto add = [&](const char *name, Type type, auto fill) {
        auto v = hir::MakeVector(type, n).value();
        for (int64_t i = 0; i < n; ++i) fill(*v, i);
        if (nulls)
            for (int64_t i = 0; i < n; ++i)
                if (rng() % 7 == 0) v->SetNull(i);
        t->names.push_back(name);
        t->columns.push_back(hir::Value(std::shared_ptr<hir::Vector>(v)));
    };
    add("f1", TypeKind::F64, [&](hir::Vector &v, int64_t i) { v.Data<double>()[i] = x[static_cast<size_t>(i)]; });
    add("f2", TypeKind::F64, [&](hir::Vector &v, int64_t i) { v.Data<double>()[i] = y[static_cast<size_t>(i)]; });
    add("b1", TypeKind::BOOL, [&](hir::Vector &v, int64_t i) { v.Data<uint8_t>()[i] = static_cast<uint8_t>(rng() % 2); });
    return t;
}

hir::DataRegistry &Registry() {
    static hir::DataRegistry reg;
    static bool init = false;
    if (!init) {
        init = true;
        std::vector<double> x, y;
        for (double a : Specials())
            for (double b : Specials()) {
                x.push_back(a);
                y.push_back(b);
            }
        reg.AddTable("pairs", MakeTable(x, y, false, 1)).ok();
        reg.AddTable("pairsnull", MakeTable(x, y, true, 2)).ok();
        std::mt19937_64 rng(3);
        auto pick = [&]() {
            if (rng() % 4 == 0) return Specials()[rng() % Specials().size()];
            return static_cast<double>(static_cast<int64_t>(rng() % 2001) - 1000) / 8.0;
        };
        std::vector<double> mx, my;
        for (int i = 0; i < 3000; ++i) {
            mx.push_back(pick());
            my.push_back(pick());
        }
        reg.AddTable("mixed", MakeTable(mx, my, true, 4)).ok();
        reg.AddTable("negzero", MakeTable(std::vector<double>(5, -0.0), std::vector<double>(5, -0.0), false, 5)).ok();
        std::vector<double> nm = {1.0, 2.0, kNaN, 3.0, -kInf, kInf};
        reg.AddTable("nanmax", MakeTable(nm, nm, false, 6)).ok();
    }
    return reg;
}

std::string Program(const std::string &table, const std::string &body) {
    return "module default{\n  import Builtin.*;\n  def main() : table{\n    t0:? = @load_table(`" + table +
           ":sym);\n    a:f64 = check_cast(@column_value(t0, `f1:sym), f64);\n    b:f64 = check_cast(@column_value(t0, `f2:sym), f64);\n"
           "    m:bool = check_cast(@column_value(t0, `b1:sym), bool);\n" +
           body + "    u0:? = @list(r);\n    u1:? = @table(`r:sym, u0);\n    return u1;\n  }\n}\n";
}

// Runs the program both ways with PostgreSQL's options (sql) or HorseIR's; expects the same
// printed output, every scheduled kernel launched and, unless redo_ok, no re-run on the
// interpreter (the kernel computed the answer itself).
void Check(const std::string &table, const std::string &body, bool sql, bool redo_ok = false) {
    const std::string text = Program(table, body);
    SCOPED_TRACE(std::string(sql ? "sql " : "horseir ") + table + "\n" + text);
    auto p = hir::ParseProgram(text, "float");
    ASSERT_TRUE(p.ok()) << p.status().ToString();
    ASSERT_TRUE(hir::CheckProgram(*p).ok()) << hir::CheckProgram(*p).ToString();
    hir::InterpretOptions opts;
    opts.sql_empty_aggregates = opts.sql_float_errors = opts.sql_casts = sql;
    auto want = hir::Interpret(*p, Registry(), opts);
    auto out = Outline(*p, FusionMode::FULL);
    ASSERT_TRUE(out.ok()) << out.status().ToString();
    ASSERT_GE(out->kernels.size(), 1u) << Print(*out);
    Runner runner(Dev());
    RunStats st;
    auto got = runner.Run(*out, Registry(), opts, &st);
    EXPECT_EQ(Show(got), Show(want)) << Print(*out);
    EXPECT_EQ(st.kernels_launched, static_cast<int>(out->kernels.size()));
    if (!redo_ok) {
        EXPECT_EQ(st.kernels_redone, 0);
    }
}

const char *kCmps[] = {"lt", "gt", "leq", "geq", "eq", "neq"};

TEST(FloatSemantics, ComparisonsOnEveryPairOfSpecials) {
    for (const char *t : {"pairs", "pairsnull", "mixed"})
        for (const char *op : kCmps)
            for (bool sql : {true, false}) {
                Check(t, std::string("    r:? = @") + op + "(a, b);\n", sql);
                // the operand against itself: NaN = NaN, NaN <> NaN is false
                Check(t, std::string("    r:? = @") + op + "(a, a);\n", sql);
            }
}

TEST(FloatSemantics, ComparisonsWithLiterals) {
    // +Infinity is below NaN; the literal on either side
    for (const char *op : kCmps)
        for (const char *lit : {"1:f64", "0:f64", "-1:f64", "1e308:f64"}) {
            Check("pairs", std::string("    r:? = @") + op + "(a, " + lit + ");\n", true);
            Check("pairs", std::string("    r:? = @") + op + "(" + lit + ", a);\n", true);
        }
}

// The reproducer of the bug: count(*) where f <> f, where f > 1 (a fused predicate + reduction).
TEST(FloatSemantics, FilteredCountsAsPostgres) {
    for (const char *t : {"pairs", "pairsnull", "mixed", "nanmax"})
        for (const char *op : kCmps) {
            Check(t, std::string("    x:? = @") + op + "(a, b);\n    y:? = @compress(x, a);\n    r:? = @len(y);\n", true);
            Check(t, std::string("    x:? = @") + op + "(a, 1:f64);\n    y:? = @compress(x, b);\n    r:? = @count(y);\n", true);
            // materialised compaction of the float values themselves (NaN and -0 bits kept)
            Check(t, std::string("    x:? = @") + op + "(b, 0:f64);\n    r:? = @compress(x, a);\n", true);
        }
}

// Float arithmetic: IEEE in HorseIR's mode; PostgreSQL's overflow / underflow errors in SQL mode.
// Both must equal the interpreter (a kernel may leave the error to a re-run of its statements).
TEST(FloatSemantics, ArithmeticOverflowUnderflowAndSignedZero) {
    for (const char *t : {"pairs", "pairsnull", "mixed", "negzero"})
        for (const char *op : {"plus", "minus", "mul"})
            for (bool sql : {true, false}) Check(t, std::string("    r:? = @") + op + "(a, b);\n", sql, true);
    // an arithmetic result compared in the same kernel
    Check("mixed", "    x:? = @mul(a, b);\n    y:? = @gt(x, a);\n    r:? = @compress(y, x);\n", true, true);
    // values that neither overflow nor underflow: the kernel answers itself in both modes
    for (const char *op : {"plus", "minus", "mul"})
        for (bool sql : {true, false}) Check("nanmax", std::string("    r:? = @") + op + "(a, b);\n", sql);
}

// Reductions over floats: count/len are kernels; sum/min/max of f64 (NaN is the maximum, a lone
// -0 sums to -0) must give the interpreter's answer whichever way the runner takes.
TEST(FloatSemantics, ReductionsWithNaNAndNegativeZero) {
    for (const char *t : {"pairs", "pairsnull", "mixed", "negzero", "nanmax"})
        for (const char *op : {"count", "len"}) {
            Check(t, std::string("    r:? = @") + op + "(a);\n", true);
            Check(t, std::string("    x:? = @compress(m, a);\n    r:? = @") + op + "(x);\n", true);
        }
}

// The float patterns (setp with unordered / num / nan, testp) are PTX that NVIDIA's ptxas takes,
// with and without validity bitmaps.
TEST(FloatSemantics, PatternsAcceptedByPtxas) {
    const char *ptxas = "/usr/local/cuda/bin/ptxas";
    ASSERT_EQ(access(ptxas, X_OK), 0) << "ptxas missing at " << ptxas << " (tools/deps.sh installs it)";
    std::string body;
    int i = 0;
    for (const char *op : {"lt", "gt", "leq", "geq", "eq", "neq", "plus", "minus", "mul"}) {
        const std::string x = "x" + std::to_string(i++);
        body += "    " + x + ":? = @" + op + "(a, b);\n";
    }
    body += "    r:? = @list(x0, x1, x2, x3, x4, x5, x6, x7, x8);\n";
    auto p = hir::ParseProgram(Program("pairs", body), "floatptx");
    ASSERT_TRUE(p.ok()) << p.status().ToString();
    ASSERT_TRUE(hir::CheckProgram(*p).ok());
    auto out = Outline(*p, FusionMode::FULL);
    ASSERT_TRUE(out.ok());
    ASSERT_EQ(out->kernels.size(), 1u) << Print(*out);
    char tmpl[] = "/tmp/rndn-floatptx-XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    const std::string dir = tmpl;
    for (const char *arch : {"sm_75", "sm_90"})
        for (bool nullable : {false, true}) {
            PtxOptions po;
            po.target = arch;
            po.nullable.assign(1, std::vector<bool>(out->kernels[0].inputs.size(), nullable));
            auto m = GeneratePtx(*out, po);
            ASSERT_TRUE(m.ok()) << m.status().ToString();
            const std::string file = dir + "/k.ptx";
            std::ofstream(file) << ptx::Print(*m);
            std::string msg;
            FILE *f = popen((std::string(ptxas) + " -arch=" + arch + " " + file + " -o " + file + ".cubin 2>&1").c_str(), "r");
            ASSERT_NE(f, nullptr);
            char buf[4096];
            size_t n;
            while ((n = fread(buf, 1, sizeof buf, f)) > 0) msg.append(buf, n);
            int st = pclose(f);
            EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0) << arch << ": " << msg;
            std::remove((file + ".cubin").c_str());
            std::remove(file.c_str());
        }
    rmdir(dir.c_str());
}

}  // namespace
}  // namespace rndn::codegen::testing
