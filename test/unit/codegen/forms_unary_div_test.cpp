// Kernel forms of division and remainder (i32 i64, f64 division), unary minus and absolute value
// (i32 i64 f64 dec128), the NULL tests and coalesce (every class), against the interpreter (the
// oracle) on columns with the edge values of each form: zero and -1 divisors, the minimum of each
// integer type and of 128 bits, NaN of both signs, infinities, -0, subnormals, values whose quotient
// overflows or underflows; NULLs, empty, one-row and all-NULL tables, in HorseIR's and SQL's float
// modes.  The printed results (or errors, with SQLSTATE) must be identical and the kernel must have
// launched; on the clean table (no edge values, no NULLs) it must have computed the result itself.
// The "heldout" table (another seed, other magnitudes) was not run while the patterns were written.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <climits>
#include <cmath>
#include <cstdio>
#include <cstring>
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

const std::vector<Col> &Cols() {
    static const std::vector<Col> cols = {
        {"i1", TypeKind::I32}, {"i2", TypeKind::I32}, {"l1", TypeKind::I64}, {"l2", TypeKind::I64},
        {"f1", TypeKind::F64}, {"f2", TypeKind::F64}, {"w1", Type::Decimal(TypeKind::DEC128, 4)},
        {"w2", Type::Decimal(TypeKind::DEC128, 4)}, {"m1", Type::Decimal(TypeKind::DEC64, 2)}, {"m2", Type::Decimal(TypeKind::DEC64, 2)},
        {"b1", TypeKind::BOOL}, {"b2", TypeKind::BOOL}, {"c1", TypeKind::CHAR}, {"c2", TypeKind::CHAR},
        {"d1", TypeKind::DATE}, {"d2", TypeKind::DATE}, {"h1", TypeKind::I16}, {"h2", TypeKind::I16},
        {"t1", TypeKind::DT}, {"t2", TypeKind::DT},
    };
    return cols;
}

double Bits(uint64_t b) {
    double d;
    std::memcpy(&d, &b, sizeof d);
    return d;
}

enum class Kind { CLEAN, EDGE, TAME, HELDOUT };

// TAME keeps the edge values no form flags (so the kernel must compute them itself, without a
// re-run): no zero divisors (the *2 columns), no integer or 128-bit minimum, no float whose
// quotient overflows or underflows, no infinite dates or years beyond i16.
bool Tame(double f, bool divisor) {
    if (divisor && f == 0) return false;
    return !(std::fabs(f) > 1e200 && !std::isinf(f)) && !(f != 0 && std::fabs(f) < 1e-200);
}

// n rows.  CLEAN: small values, nonzero divisors (the kernel computes everything itself); EDGE: the
// edge values above mixed with small ones; HELDOUT: another seed with wider magnitudes and its own
// edge mix.  nulls: about one element in five is NULL.
std::shared_ptr<hir::Table> MakeTable(int64_t n, bool nulls, Kind kind, uint32_t seed) {
    std::mt19937_64 rng(seed);
    const int32_t kI32[] = {0, 1, -1, 2, -2, 7, -7, INT32_MIN, INT32_MAX, INT32_MIN + 1, 1000, -1000};
    const int64_t kI64[] = {0, 1, -1, 3, -3, INT64_MIN, INT64_MAX, INT64_MIN + 1, INT64_C(1) << 40, -(INT64_C(1) << 40), 999983};
    const double kF64[] = {0.0, -0.0, 1.0, -1.0, 3.0, 0.1, 1e308, -1e308, 1e-308, 4.9e-324, 2.2e-308,
                           HUGE_VAL, -HUGE_VAL, Bits(0x7FF8000000000000ULL), Bits(0xFFF8000000000000ULL), Bits(0x7FF0000000000123ULL) /* sNaN payload */,
                           1e-300, 1e300};
    const __int128 kMin128 = static_cast<__int128>(static_cast<unsigned __int128>(1) << 127);
    const __int128 kDec[] = {0, 1, -1, kMin128, ~kMin128, kMin128 + 1, static_cast<__int128>(1) << 100, -(static_cast<__int128>(1) << 100),
                             static_cast<__int128>(INT64_MIN), static_cast<__int128>(INT64_MAX) + 1};
    const int32_t kDate[] = {INT32_MIN, INT32_MAX, INT32_MIN + 1, INT32_MAX - 1, -730120, -730121, -730486, -730485, -730426,
                             -730425, -730424, 59, 60, 0, -1, 365, 366, -36525, -36524, 36524, 36525, 146097, -146097, -146098,
                             11228000, 11229000, 11240000, -12700000, -12680000, 5000000, -5000000};
    auto t = std::make_shared<hir::Table>();
    for (const auto &c : Cols()) {
        auto v = hir::MakeVector(c.type, n).value();
        for (int64_t i = 0; i < n; ++i) {
            const bool edge = kind != Kind::CLEAN && rng() % 3 == 0;
            const bool tame = kind == Kind::TAME, divisor = c.name.back() == '2';
            const int64_t wide = kind == Kind::HELDOUT ? 1000000 : 1000;
            int64_t small = static_cast<int64_t>(rng() % static_cast<uint64_t>(2 * wide + 1)) - wide;
            if ((kind == Kind::CLEAN || tame) && small == 0) small = 5;  // no zero divisors
            switch (c.type.kind) {
                case TypeKind::I16: v->Data<int16_t>()[i] = static_cast<int16_t>(edge ? (rng() % 2 ? INT16_MIN : INT16_MAX) : small % 30000); break;
                case TypeKind::I32: {
                    int32_t x = static_cast<int32_t>(small);
                    if (edge)
                        do x = kI32[rng() % (sizeof kI32 / sizeof kI32[0])];
                        while (tame && (x == INT32_MIN || (divisor && x == 0)));
                    v->Data<int32_t>()[i] = x;
                    break;
                }
                case TypeKind::I64: {
                    int64_t x = small * 1000003;
                    if (edge)
                        do x = kI64[rng() % (sizeof kI64 / sizeof kI64[0])];
                        while (tame && (x == INT64_MIN || (divisor && x == 0)));
                    v->Data<int64_t>()[i] = x;
                    break;
                }
                case TypeKind::F64:
                {
                    double x = static_cast<double>(small) / (kind == Kind::HELDOUT ? 3.0 : 7.0);
                    if (edge)
                        do x = kF64[rng() % (sizeof kF64 / sizeof kF64[0])];
                        while (tame && !Tame(x, divisor));
                    v->Data<double>()[i] = x;
                    break;
                }
                case TypeKind::DEC64: v->Data<int64_t>()[i] = edge ? kI64[rng() % (sizeof kI64 / sizeof kI64[0])] : small * 37; break;
                case TypeKind::DEC128: {
                    __int128 x = static_cast<__int128>(small) * 1234567;
                    if (edge)
                        do x = kDec[rng() % (sizeof kDec / sizeof kDec[0])];
                        while (tame && x == kMin128);
                    else if (rng() % 16 == 0) x = static_cast<__int128>(small) << 70;
                    v->Data<__int128>()[i] = x;
                    break;
                }
                case TypeKind::DATE:
                    // edges: the infinities, 1 AD / 1 BC, 0000-03-01, leap days, era and century
                    // boundaries, years near the i16 limit; held out: days over +-13 million
                {
                    int32_t x = static_cast<int32_t>(kind == Kind::HELDOUT ? small * 13 : small % 4000);
                    if (edge)
                        do x = kDate[rng() % (sizeof kDate / sizeof kDate[0])];
                        while (tame && (x < -12000000 || x > 11000000));
                    v->Data<int32_t>()[i] = x;
                    break;
                }
                case TypeKind::DT: {
                    // microseconds; edges: the infinities (int64 limits) and their neighbours, the epoch
                    const int64_t kDt[] = {INT64_MIN, INT64_MAX, INT64_MIN + 1, INT64_MAX - 1, 0, -1, 1};
                    v->Data<int64_t>()[i] = edge ? kDt[rng() % 7] : small * (kind == Kind::HELDOUT ? 977 : 86400000000LL / 7);
                    break;
                }
                case TypeKind::CHAR: v->Data<uint8_t>()[i] = static_cast<uint8_t>('A' + rng() % 5 + (rng() % 8 == 0 ? 130 : 0)); break;
                case TypeKind::BOOL: v->Data<uint8_t>()[i] = static_cast<uint8_t>(rng() % 2); break;
                default: break;
            }
            if (nulls && rng() % 5 == 0) v->SetNull(i);
        }
        t->names.push_back(c.name);
        t->columns.push_back(hir::Value(std::shared_ptr<hir::Vector>(v)));
    }
    return t;
}

hir::DataRegistry &Registry() {
    static hir::DataRegistry reg;
    static bool init = false;
    if (!init) {
        init = true;
        reg.AddTable("empty", MakeTable(0, false, Kind::CLEAN, 11)).ok();
        reg.AddTable("one", MakeTable(1, false, Kind::CLEAN, 12)).ok();
        reg.AddTable("clean", MakeTable(2500, false, Kind::CLEAN, 13)).ok();
        reg.AddTable("cleannulls", MakeTable(2500, true, Kind::CLEAN, 14)).ok();
        reg.AddTable("edge", MakeTable(1500, false, Kind::EDGE, 15)).ok();
        reg.AddTable("edgenulls", MakeTable(1500, true, Kind::EDGE, 16)).ok();
        reg.AddTable("onenull", MakeTable(1, true, Kind::CLEAN, 17)).ok();
        reg.AddTable("tame", MakeTable(1500, false, Kind::TAME, 19)).ok();
        reg.AddTable("tamenulls", MakeTable(1500, true, Kind::TAME, 20)).ok();
        reg.AddTable("heldout", MakeTable(3333, true, Kind::HELDOUT, 991)).ok();
        auto all = MakeTable(70, false, Kind::EDGE, 18);
        for (auto &c : all->columns) {
            auto v = std::const_pointer_cast<hir::Vector>(c.vector_ptr());
            for (int64_t i = 0; i < v->length; ++i) v->SetNull(i);
        }
        reg.AddTable("allnull", all).ok();
    }
    return reg;
}

const char *kTables[] = {"empty", "one", "onenull", "clean", "cleannulls", "tame", "tamenulls", "edge", "edgenulls", "allnull", "heldout"};

Type ColType(const std::string &name) {
    for (const auto &c : Cols())
        if (c.name == name) return c.type;
    return Type();
}

// Reads `cols` of `table` as a, b; runs `body`; returns the columns `results` as a table.
std::string Program(const std::string &table, const std::vector<std::string> &cols, const std::string &body,
                    const std::vector<std::string> &results = {"r"}) {
    std::string s = "module default{\n  import Builtin.*;\n  def main() : table{\n    t0:? = @load_table(`" + table + ":sym);\n";
    const char *names[] = {"a", "b", "c"};
    for (size_t i = 0; i < cols.size(); ++i) {
        std::string ty = hir::TypeToString(ColType(cols[i]));
        s += std::string("    ") + names[i] + ":" + ty + " = check_cast(@column_value(t0, `" + cols[i] + ":sym), " + ty + ");\n";
    }
    s += body;
    std::string list, syms;
    for (size_t i = 0; i < results.size(); ++i) {
        list += (i ? ", " : "") + results[i];
        syms += (i ? ",`" : "`") + results[i];
    }
    if (results.size() > 1) syms = "(" + syms + ")";
    s += "    u0:? = @list(" + list + ");\n    u1:? = @table(" + syms + ":sym, u0);\n    return u1;\n  }\n}\n";
    return s;
}

int checks = 0;

// Runs the program on the interpreter and through the runner (kernels on the cpu device).
void Check(const std::string &text, const std::string &what, bool clean, bool sql_float) {
    SCOPED_TRACE(what + (sql_float ? " (sql floats)" : "") + "\n" + text);
    auto p = hir::ParseProgram(text, what);
    ASSERT_TRUE(p.ok()) << p.status().ToString();
    ASSERT_TRUE(hir::CheckProgram(*p).ok()) << hir::CheckProgram(*p).ToString();
    hir::InterpretOptions opts;
    opts.sql_float_errors = sql_float;
    auto want = hir::Interpret(*p, Registry(), opts);
    auto out = Outline(*p, FusionMode::FULL);
    ASSERT_TRUE(out.ok()) << out.status().ToString();
    ASSERT_TRUE(Verify(*out).ok());
    ASSERT_EQ(out->kernels.size(), 1u) << Print(*out);
    // the statement under test is in the kernel, not an interpreter step
    EXPECT_TRUE(InterpretedBuiltins(*out) == std::vector<std::string>({"@column_value", "@list", "@load_table", "@table"})) << Print(*out);
    Runner runner(Dev());
    RunStats st;
    auto got = runner.Run(*out, Registry(), opts, &st);
    EXPECT_EQ(Show(got), Show(want)) << Print(*out);
    EXPECT_EQ(st.kernels_launched, 1);
    if (clean) {
        EXPECT_EQ(st.kernels_redone, 0);
    }
    ++checks;
}

// tables on which no element is flagged: the kernel's own results are compared
bool IsClean(const std::string &table) {
    return table == "one" || table == "clean" || table == "cleannulls" || table == "empty" || table == "tame" || table == "tamenulls";
}

TEST(KernelFormsDivision, DivAndModEveryIntegerClassAndFloatDiv) {
    const std::vector<std::pair<std::string, std::string>> pairs = {{"i1", "i2"}, {"l1", "l2"}, {"f1", "f2"}};
    for (const auto &[x, y] : pairs)
        for (const char *op : {"div", "mod"}) {
            if (x[0] == 'f' && std::string(op) == "mod") continue;  // fmod: no kernel form
            for (const char *t : kTables)
                for (bool sqlf : {false, true}) {
                    if (!sqlf && x[0] != 'f') continue;  // the mode changes float arithmetic only
                    const bool clean = IsClean(t) && !(x[0] == 'f' && sqlf && std::string(t) == "empty");
                    Check(Program(t, {x, y}, std::string("    r:? = @") + op + "(a, b);\n"), std::string(op) + " " + x + " " + y + " " + t, clean, sqlf);
                    // a column by itself: every element its own divisor (x / x, with 0 / 0 and MIN / MIN)
                    Check(Program(t, {x}, std::string("    r:? = @") + op + "(a, a);\n"), std::string(op) + " self " + x + " " + t, false, sqlf);
                }
        }
    // literal divisors, -1 and 0 among them (the edge tables' MIN / -1 overflows)
    for (const char *t : {"clean", "tame", "edge", "edgenulls", "heldout"}) {
        for (const char *lit : {"-1:i32", "0:i32", "3:i32", "-7:i32", "2147483647:i32"}) {
            Check(Program(t, {"i1"}, std::string("    r:? = @div(a, ") + lit + ");\n"), std::string("div i32 by ") + lit + " " + t, false, true);
            Check(Program(t, {"i1"}, std::string("    r:? = @mod(a, ") + lit + ");\n"), std::string("mod i32 by ") + lit + " " + t, false, true);
        }
        for (const char *lit : {"-1:i64", "0:i64", "1000:i64", "-9223372036854775807:i64"}) {
            Check(Program(t, {"l1"}, std::string("    r:? = @div(a, ") + lit + ");\n"), std::string("div i64 by ") + lit + " " + t, false, true);
            Check(Program(t, {"l1"}, std::string("    r:? = @mod(") + lit + ", a);\n"), std::string("mod i64 literal by ") + lit + " " + t, false, true);
        }
        for (const char *lit : {"0:f64", "7:f64", "1e-310:f64", "-0.5:f64"})
            for (bool sqlf : {false, true}) {
                Check(Program(t, {"f1"}, std::string("    r:? = @div(a, ") + lit + ");\n"), std::string("div f64 by ") + lit + " " + t, false, sqlf);
                Check(Program(t, {"f1"}, std::string("    r:? = @div(") + lit + ", a);\n"), std::string("div f64 literal by ") + lit + " " + t, false, sqlf);
            }
    }
    EXPECT_GT(checks, 150);
}

TEST(KernelFormsUnary, NegAndAbsEveryClass) {
    for (const char *x : {"i1", "l1", "f1", "w1"})
        for (const char *op : {"neg", "abs"})
            for (const char *t : kTables)
                Check(Program(t, {x}, std::string("    r:? = @") + op + "(a);\n"), std::string(op) + " " + x + " " + t, IsClean(t), false);
    // fused: -(a * b) and abs(a - b) in one kernel with a comparison
    for (const char *t : {"clean", "tamenulls", "edgenulls", "heldout"}) {
        Check(Program(t, {"w1", "w2"}, "    x:? = @minus(a, b);\n    y:? = @abs(x);\n    r:? = @neg(y);\n"), std::string("neg abs dec chain ") + t, false, false);
        Check(Program(t, {"f1", "f2"}, "    x:? = @mul(a, b);\n    y:? = @neg(x);\n    r:? = @lt(y, a);\n"), std::string("neg f64 in a comparison ") + t, false, true);
    }
}

TEST(KernelFormsNulls, IsNullIsNotNullAndCoalesceEveryClass) {
    for (const char *x : {"i1", "l1", "f1", "w1", "m1", "b1", "c1", "d1", "h1"})
        for (const char *t : kTables) {
            Check(Program(t, {x}, "    r:? = @is_null(a);\n"), std::string("is_null ") + x + " " + t, IsClean(t), false);
            Check(Program(t, {x}, "    r:? = @is_not_null(a);\n"), std::string("is_not_null ") + x + " " + t, IsClean(t), false);
            std::string y = std::string(x).substr(0, 1) + "2";
            Check(Program(t, {x, y}, "    r:? = @coalesce(a, b);\n"), std::string("coalesce ") + x + " " + y + " " + t, IsClean(t), false);
        }
    // coalesce with a literal fallback (the result is never NULL), and a NULL test feeding logic
    for (const char *t : {"cleannulls", "edgenulls", "allnull", "heldout"}) {
        Check(Program(t, {"i1"}, "    r:? = @coalesce(a, -5:i32);\n"), std::string("coalesce i32 literal ") + t, IsClean(t), false);
        Check(Program(t, {"f1"}, "    r:? = @coalesce(a, 0.25:f64);\n"), std::string("coalesce f64 literal ") + t, IsClean(t), false);
        Check(Program(t, {"b1", "i1"}, "    x:? = @is_null(b);\n    r:? = @or(a, x);\n"), std::string("is_null into or ") + t, IsClean(t), false);
    }
}

TEST(KernelFormsDates, YearMonthDayOfDates) {
    for (const char *op : {"date_year", "date_month", "date_day"})
        for (const char *t : kTables) Check(Program(t, {"d1"}, std::string("    r:? = @") + op + "(a);\n"), std::string(op) + " " + t, IsClean(t), false);
    // as TPC-H Q7/Q9 use it: the year of a filtered date column, compared and compacted
    for (const char *t : {"clean", "tamenulls", "edgenulls", "heldout"})
        Check(Program(t, {"d1", "i1"}, "    y:? = @date_year(a);\n    m:? = @geq(y, 2005:i16);\n    r:? = @compress(m, b);\n"),
              std::string("date_year filter ") + t, IsClean(t), false);
}

// mixed integer widths: i16 with i32, i32 with i64, i16 with i64 (literals too), both orders
TEST(KernelFormsDivision, MixedIntegerWidths) {
    const std::vector<std::pair<std::string, std::string>> pairs = {{"h1", "i2"}, {"i1", "h2"}, {"i1", "l2"}, {"l1", "i2"}, {"h1", "l2"}};
    for (const auto &[x, y] : pairs)
        for (const char *op : {"lt", "geq", "eq", "neq", "plus", "minus", "mul", "div", "mod"})
            for (const char *t : {"empty", "one", "cleannulls", "tame", "edgenulls", "heldout"})
                Check(Program(t, {x, y}, std::string("    r:? = @") + op + "(a, b);\n"), std::string(op) + " " + x + " " + y + " " + t,
                      // tame holds the integer limits but MIN: sums and products may overflow there
                      IsClean(t) && !(std::string(t).rfind("tame", 0) == 0 && (std::string(op) == "plus" || std::string(op) == "minus")) &&
                          std::string(op) != "mul",
                      false);
    for (const char *t : {"clean", "edgenulls", "heldout"}) {
        Check(Program(t, {"l1"}, "    r:? = @gt(a, 7:i32);\n"), std::string("i64 > i32 literal ") + t, IsClean(t), false);
        Check(Program(t, {"h1"}, "    r:? = @minus(a, 1:i32);\n"), std::string("i16 - i32 literal ") + t, IsClean(t), false);
        Check(Program(t, {"i1"}, "    r:? = @mul(a, 3:i64);\n"), std::string("i32 * i64 literal ") + t, false, false);
    }
}

// timestamps compare as signed 64-bit microseconds (the infinities at the int64 limits)
TEST(KernelFormsDates, TimestampComparisons) {
    for (const char *op : {"lt", "gt", "leq", "geq", "eq", "neq"})
        for (const char *t : kTables) Check(Program(t, {"t1", "t2"}, std::string("    r:? = @") + op + "(a, b);\n"), std::string(op) + " dt " + t, IsClean(t), false);
    for (const char *t : {"clean", "edgenulls", "heldout"}) {
        Check(Program(t, {"t1"}, "    r:? = @lt(a, 2000-01-02T00:00:00.000:dt);\n"), std::string("lt dt literal ") + t, IsClean(t), false);
        Check(Program(t, {"t1", "i1"}, "    m:? = @geq(a, 1999-12-31T23:59:59.999:dt);\n    r:? = @compress(m, b);\n"),
              std::string("dt filter ") + t, IsClean(t), false);
    }
}

// One kernel with every new form on every class it takes, with and without validity bitmaps:
// our verifier (GeneratePtx) and NVIDIA's ptxas for each listed architecture accept it.
TEST(KernelFormsDivision, NewFormsPtxAcceptedByPtxas) {
    const char *ptxas = "/usr/local/cuda/bin/ptxas";
    std::string body;
    std::vector<std::string> results;
    int k = 0;
    auto add = [&](const std::string &expr) {
        std::string r = "r" + std::to_string(k++);
        body += "    " + r + ":? = " + expr + ";\n";
        results.push_back(r);
    };
    // columns a..: one program per pair keeps the column names a, b
    const std::vector<std::vector<std::string>> sets = {{"i1", "i2"}, {"l1", "l2"}, {"f1", "f2"}, {"w1", "w2"}, {"b1", "b2"}, {"c1", "c2"}, {"m1", "m2"}, {"d1", "d2"}, {"t1", "t2"}};
    for (const auto &cols : sets) {
        body.clear();
        results.clear();
        k = 0;
        const char c = cols[0][0];
        if (c == 'i' || c == 'l') {
            add("@div(a, b)");
            add("@mod(a, b)");
        }
        if (c == 'f') add("@div(a, b)");
        if (c == 'd') {
            add("@date_year(a)");
            add("@date_month(b)");
            add("@date_day(a)");
        }
        if (c == 'i' || c == 'l' || c == 'f' || c == 'w') {
            add("@neg(a)");
            add("@abs(b)");
        }
        if (c == 't') {
            add("@lt(a, b)");
            add("@geq(a, b)");
            add("@neq(a, b)");
        } else {
            add("@is_null(a)");
            add("@is_not_null(b)");
            add("@coalesce(a, b)");
        }
        auto p = hir::ParseProgram(Program("edgenulls", cols, body, results), "forms");
        ASSERT_TRUE(p.ok()) << p.status().ToString();
        ASSERT_TRUE(hir::CheckProgram(*p).ok()) << hir::CheckProgram(*p).ToString();
        auto out = Outline(*p, FusionMode::FULL);
        ASSERT_TRUE(out.ok());
        ASSERT_EQ(out->kernels.size(), 1u) << Print(*out);
        // the whole program also runs equal to the interpreter
        for (bool sqlf : {false, true}) Check(Program("edgenulls", cols, body, results), "all forms " + cols[0], false, sqlf);
        if (access(ptxas, X_OK) != 0) continue;
        for (bool nulls : {false, true})
            for (const char *arch : {"sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "sm_120"}) {
                PtxOptions po;
                po.target = arch;
                po.nullable.assign(out->kernels.size(), {});
                for (size_t j = 0; j < out->kernels.size(); ++j) po.nullable[j].assign(out->kernels[j].inputs.size(), nulls);
                auto mod = GeneratePtx(*out, po);
                ASSERT_TRUE(mod.ok()) << mod.status().ToString();
                std::string file = ::testing::TempDir() + "forms_" + cols[0] + "_" + arch + ".ptx";
                {
                    std::ofstream f(file);
                    f << ptx::Print(*mod);
                }
                std::string msg;
                EXPECT_EQ(RunShell(std::string(ptxas) + " -arch=" + arch + " " + file + " -o " + file + ".cubin", &msg), 0) << arch << "\n" << msg;
            }
    }
    if (access(ptxas, X_OK) != 0) {
        std::printf("SKIPPED: no ptxas at %s\n", ptxas);
        GTEST_SKIP() << "no ptxas";
    }
}

}  // namespace
}  // namespace rndn::codegen::testing
