// Every kernel form against the interpreter (the oracle) on random columns: all classes, NULLs,
// empty and one-row inputs, scalar broadcast, overflow.  Each case is a small HorseIR program run
// twice: by hir::Interpret and by codegen::Runner (kernels on the cpu device); the printed results
// (or the errors) must be identical, and the runner must have launched the kernel.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <climits>
#include <cmath>
#include <cstdio>
#include <fstream>
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

// Columns of every kernel class; two of each so that binary forms see two different vectors.
const std::vector<Col> &Cols() {
    static const std::vector<Col> cols = {
        {"i1", TypeKind::I32}, {"i2", TypeKind::I32}, {"l1", TypeKind::I64}, {"l2", TypeKind::I64},
        {"f1", TypeKind::F64}, {"f2", TypeKind::F64}, {"d1", TypeKind::DATE}, {"d2", TypeKind::DATE},
        {"c1", TypeKind::CHAR}, {"c2", TypeKind::CHAR}, {"b1", TypeKind::BOOL}, {"b2", TypeKind::BOOL},
        {"m1", Type::Decimal(TypeKind::DEC64, 2)}, {"m2", Type::Decimal(TypeKind::DEC64, 3)},
        {"w1", Type::Decimal(TypeKind::DEC128, 4)}, {"w2", Type::Decimal(TypeKind::DEC128, 2)},
        // gather indexes: ix in range, ox sometimes out of range (negative or past the end)
        {"ix", TypeKind::I64}, {"ox", TypeKind::I64}, {"h1", TypeKind::I16}, {"h2", TypeKind::I16},
        // v1: 2^121 in the extreme table: a warp's sum fits 128 bits, the whole column's does not
        {"v1", Type::Decimal(TypeKind::DEC128, 4)},
        {"s1", TypeKind::SYM},
    };
    return cols;
}

// A table of n rows.  extreme: values near the type limits (overflow cases); nulls: about one
// element in five is NULL.
std::shared_ptr<hir::Table> MakeTable(int64_t n, bool nulls, bool extreme, uint32_t seed) {
    std::mt19937_64 rng(seed);
    auto t = std::make_shared<hir::Table>();
    for (const auto &c : Cols()) {
        if (c.type.kind == TypeKind::SYM) {
            static const char *kWords[] = {"", "A", "AB", "BUILDING", "BUILDINGS", "BUILDINF", "MACHINERY", "\xc3\xa9t\xc3\xa9"};
            auto v = hir::MakeVector(c.type, 0).value();
            for (int64_t i = 0; i < n; ++i) v->AppendString(kWords[rng() % 8]);
            for (int64_t i = 0; i < n; ++i)
                if (nulls && rng() % 5 == 0) v->SetNull(i);
            t->names.push_back(c.name);
            t->columns.push_back(hir::Value(std::shared_ptr<hir::Vector>(v)));
            continue;
        }
        auto v = hir::MakeVector(c.type, n).value();
        for (int64_t i = 0; i < n; ++i) {
            int64_t small = static_cast<int64_t>(rng() % 2001) - 1000;
            switch (c.type.kind) {
                case TypeKind::I16: v->Data<int16_t>()[i] = static_cast<int16_t>(extreme ? (rng() % 2 ? 32767 : -32767) : small); break;
                case TypeKind::I32: v->Data<int32_t>()[i] = extreme ? (rng() % 2 ? INT32_MAX - static_cast<int32_t>(rng() % 3) : INT32_MIN + 1) : static_cast<int32_t>(small); break;
                case TypeKind::I64: v->Data<int64_t>()[i] = extreme ? (rng() % 2 ? INT64_MAX - static_cast<int64_t>(rng() % 3) : INT64_MIN + 1) : small * 1000003; break;
                case TypeKind::F64: v->Data<double>()[i] = static_cast<double>(small) / 7.0; break;
                case TypeKind::DATE: v->Data<int32_t>()[i] = static_cast<int32_t>(small % 400); break;
                case TypeKind::CHAR: v->Data<uint8_t>()[i] = static_cast<uint8_t>('A' + rng() % 5 + (rng() % 8 == 0 ? 130 : 0)); break;
                case TypeKind::BOOL: v->Data<uint8_t>()[i] = static_cast<uint8_t>(rng() % 2); break;
                case TypeKind::DEC64: v->Data<int64_t>()[i] = extreme ? (rng() % 2 ? INT64_MAX - 5 : INT64_MIN + 5) : small * 37; break;
                case TypeKind::DEC128: {
                    __int128 x = small * 1234567;
                    if (extreme) x = (static_cast<__int128>(1) << (c.name == "v1" ? 121 : 126)) + static_cast<__int128>(rng() % 100);
                    else if (rng() % 16 == 0) x = static_cast<__int128>(small) << 70;  // outside the 64-bit fast path
                    v->Data<__int128>()[i] = x;
                    break;
                }
                default: break;
            }
            if (c.name == "ix") v->Data<int64_t>()[i] = static_cast<int64_t>(rng() % static_cast<uint64_t>(n));
            if (c.name == "ox") v->Data<int64_t>()[i] = static_cast<int64_t>(rng() % static_cast<uint64_t>(n + 3)) - (i == n / 2 ? n + 1 : 0);
            if (nulls && rng() % 5 == 0) v->SetNull(i);
        }
        t->names.push_back(c.name);
        t->columns.push_back(hir::Value(std::shared_ptr<hir::Vector>(v)));
    }
    return t;
}

// Keys whose equal values lie next to each other (a table stored clustered by its key), over
// 200003 rows: i1 in runs of 1-7 rows whose blocks come out of key order, a block boundary
// splitting a key's run in two (TPC-H's lineitem as loaded in chunks); l1 ascending; d1
// ascending with one NULL; the other columns as MakeTable makes them (i2 random).
std::shared_ptr<hir::Table> RunsTable() {
    const int64_t n = 200003;
    auto t = MakeTable(n, false, false, 12);
    auto col = [&](const char *name) {
        for (size_t i = 0; i < t->names.size(); ++i)
            if (t->names[i] == name) return std::const_pointer_cast<hir::Vector>(t->columns[i].vector_ptr());
        return std::shared_ptr<hir::Vector>();
    };
    std::mt19937_64 rng(99);
    std::vector<int32_t> keys;
    for (int32_t key = 0; static_cast<int64_t>(keys.size()) < n; ++key)
        for (int r = 1 + static_cast<int>(rng() % 7); r > 0 && static_cast<int64_t>(keys.size()) < n; --r) keys.push_back(key * 3 - 50000);
    // five blocks of unequal sizes in the order 3 0 4 1 2
    const int64_t cut[] = {0, 31000, 77777, 120001, 160000, n};
    std::vector<int32_t> shuffled;
    for (int b : {3, 0, 4, 1, 2}) shuffled.insert(shuffled.end(), keys.begin() + cut[b], keys.begin() + cut[b + 1]);
    auto i1 = col("i1"), l1 = col("l1"), d1 = col("d1");
    for (int64_t i = 0; i < n; ++i) {
        i1->Data<int32_t>()[i] = shuffled[static_cast<size_t>(i)];
        l1->Data<int64_t>()[i] = (i / 3) * 1000003 - (int64_t{1} << 40);
        d1->Data<int32_t>()[i] = static_cast<int32_t>(i / 5);
    }
    d1->SetNull(n / 2);
    return t;
}

// Group keys that pack into a few bits (the runner's table-indexed grouping), over 200003 rows:
// s1 strings of at most one byte (the empty string, a byte over 0x7f) or, two_bytes, of at most
// two (a prefix of another too), h1 small integers across zero; i2, d1 as MakeTable makes them
// (d1 under 400 days apart).  with_null: one NULL string (it may not pack).
std::shared_ptr<hir::Table> ShortKeysTable(bool with_null, bool two_bytes) {
    const int64_t n = 200003;
    auto t = MakeTable(n, false, false, 13);
    std::mt19937_64 rng(5);
    static const char *kOne[] = {"", "A", "B", "N", "\xc3", "Z", "\x01", "R", "F"};
    static const char *kTwo[] = {"", "A", "AB", "B", "N", "\xc3\xa9", "Z", "ZZ", "\x01"};
    const char *const *words = two_bytes ? kTwo : kOne;
    for (size_t i = 0; i < t->names.size(); ++i) {
        if (t->names[i] == "s1") {
            auto v = hir::MakeVector(Type(TypeKind::SYM), 0).value();
            for (int64_t r = 0; r < n; ++r) v->AppendString(words[rng() % 9]);
            if (with_null) v->SetNull(n / 3);
            t->columns[i] = hir::Value(std::shared_ptr<hir::Vector>(v));
        }
        if (t->names[i] == "h1") {
            auto v = std::const_pointer_cast<hir::Vector>(t->columns[i].vector_ptr());
            for (int64_t r = 0; r < n; ++r) v->Data<int16_t>()[r] = static_cast<int16_t>(static_cast<int64_t>(rng() % 9) - 4);
        }
    }
    return t;
}

hir::DataRegistry &Registry() {
    static hir::DataRegistry reg;
    static bool init = false;
    if (!init) {
        init = true;
        reg.AddTable("empty", MakeTable(0, false, false, 1)).ok();
        reg.AddTable("one", MakeTable(1, false, false, 2)).ok();
        reg.AddTable("big", MakeTable(3001, false, false, 3)).ok();
        reg.AddTable("nulls", MakeTable(2999, true, false, 4)).ok();
        reg.AddTable("onenull", MakeTable(1, true, false, 5)).ok();
        reg.AddTable("extreme", MakeTable(700, false, true, 6)).ok();
        // extreme values, tens of rows per thread of the cpu device's per-thread records
        reg.AddTable("longextreme", MakeTable(40000, false, true, 14)).ok();
        // cells of several thousand rows: the runner splits them into pieces
        reg.AddTable("long", MakeTable(40000, false, false, 8)).ok();
        reg.AddTable("longnulls", MakeTable(40000, true, false, 9)).ok();
        // past the runner's row count for host passes in chunks on every core (2^18)
        reg.AddTable("huge", MakeTable(300007, false, false, 10)).ok();
        reg.AddTable("hugenulls", MakeTable(300007, true, false, 11)).ok();
        reg.AddTable("runs", RunsTable()).ok();
        reg.AddTable("short", ShortKeysTable(false, false)).ok();
        reg.AddTable("short2", ShortKeysTable(false, true)).ok();
        reg.AddTable("shortnull", ShortKeysTable(true, false)).ok();
        // all NULL: reductions over no valid element
        auto all = MakeTable(64, false, false, 7);
        for (auto &c : all->columns) {
            auto v = std::const_pointer_cast<hir::Vector>(c.vector_ptr());
            for (int64_t i = 0; i < v->length; ++i) v->SetNull(i);
        }
        reg.AddTable("allnull", all).ok();
    }
    return reg;
}

std::string TypeText(const Type &t) { return hir::TypeToString(t); }

// A program reading columns `cols` of `table` then running `body` (statements using a, b, ...);
// returns `r` as a one-column table.
std::string Program(const std::string &table, const std::vector<std::string> &cols, const std::string &body) {
    std::string s = "module default{\n  import Builtin.*;\n  def main() : table{\n    t0:? = @load_table(`" + table + ":sym);\n";
    const char *names[] = {"a", "b", "c"};
    for (size_t i = 0; i < cols.size(); ++i) {
        Type t;
        for (const auto &c : Cols())
            if (c.name == cols[i]) t = c.type;
        s += std::string("    ") + names[i] + ":" + TypeText(t) + " = check_cast(@column_value(t0, `" + cols[i] + ":sym), " + TypeText(t) + ");\n";
    }
    s += body;
    s += "    u0:? = @list(r);\n    u1:? = @table(`r:sym, u0);\n    return u1;\n  }\n}\n";
    return s;
}

struct Outcome {
    std::string text;
    RunStats stats;
    int kernels = 0;
};

// Runs the program both ways; expects equal output and at least one kernel launch.
void Check(const std::string &text, const std::string &what, bool expect_redo = false, bool warp_reduce = false,
           RunStats *stats = nullptr) {
    SCOPED_TRACE(what + "\n" + text);
    auto p = hir::ParseProgram(text, what);
    ASSERT_TRUE(p.ok()) << p.status().ToString();
    ASSERT_TRUE(hir::CheckProgram(*p).ok()) << hir::CheckProgram(*p).ToString();
    hir::InterpretOptions opts;
    auto want = hir::Interpret(*p, Registry(), opts);
    auto out = Outline(*p, FusionMode::FULL);
    ASSERT_TRUE(out.ok()) << out.status().ToString();
    ASSERT_TRUE(Verify(*out).ok());
    ASSERT_GE(out->kernels.size(), 1u) << Print(*out);
    Runner runner(Dev(), warp_reduce);
    RunStats st;
    auto got = runner.Run(*out, Registry(), opts, &st);
    if (stats) *stats = st;
    EXPECT_EQ(Show(got), Show(want)) << Print(*out);
    EXPECT_EQ(st.kernels_launched, static_cast<int>(out->kernels.size()));
    if (expect_redo) {
        EXPECT_GE(st.kernels_redone, 1);
    }
    // without a flag the kernel computed the result itself
    if (!expect_redo && st.kernels_redone == 0) {
        EXPECT_GE(st.statements_compiled, 1);
    }
    // tables without NULLs or extreme values: the kernels compute the result themselves
    // (dec128 columns hold some values outside the 64-bit multiply fast path: re-run allowed)
    const bool clean = what.find("null") == std::string::npos && what.find("extreme") == std::string::npos &&
                       what.find("empty") == std::string::npos && what.find("w1") == std::string::npos && what.find("w2") == std::string::npos &&
                       !(what.find(" one") != std::string::npos && (what.find("compress") != std::string::npos || what.find("warp") != std::string::npos));  // row not selected
    if (!expect_redo && clean) {
        EXPECT_EQ(st.kernels_redone, 0);
    }
}

const char *kTables[] = {"empty", "one", "big", "nulls", "onenull"};

TEST(KernelForms, ComparisonsEveryClass) {
    const std::vector<std::pair<std::string, std::string>> pairs = {
        {"i1", "i2"}, {"l1", "l2"}, {"f1", "f2"}, {"d1", "d2"}, {"c1", "c2"}, {"m1", "m2"}, {"w1", "m1"}, {"w1", "w2"}, {"h1", "h2"}};
    int n = 0;
    for (const auto &[x, y] : pairs)
        for (const char *op : {"lt", "gt", "leq", "geq", "eq", "neq"})
            for (const char *t : {"big", "nulls"}) {
                Check(Program(t, {x, y}, std::string("    r:? = @") + op + "(a, b);\n"), std::string(op) + " " + x + " " + y + " " + t);
                ++n;
            }
    for (const char *op : {"eq", "neq"}) Check(Program("nulls", {"b1", "b2"}, std::string("    r:? = @") + op + "(a, b);\n"), op);
    EXPECT_GT(n, 90);
}

TEST(KernelForms, ArithmeticEveryClassAndEdgeLengths) {
    const std::vector<std::pair<std::string, std::string>> pairs = {{"i1", "i2"}, {"l1", "l2"}, {"f1", "f2"}, {"m1", "m2"}, {"w1", "m2"}, {"w2", "w1"}};
    for (const auto &[x, y] : pairs)
        for (const char *op : {"plus", "minus", "mul"})
            for (const char *t : kTables)
                Check(Program(t, {x, y}, std::string("    r:? = @") + op + "(a, b);\n"), std::string(op) + " " + x + " " + y + " " + t);
}

TEST(KernelForms, ScalarLiteralsBroadcast) {
    Check(Program("nulls", {"m1"}, "    r:? = @mul(a, 1.5:dec64<1>);\n"), "dec literal");
    Check(Program("big", {"i1"}, "    r:? = @minus(7:i32, a);\n"), "i32 literal left");
    Check(Program("big", {"d1"}, "    r:? = @geq(a, 2000-03-01:date);\n"), "date literal");
    Check(Program("nulls", {"f1"}, "    r:? = @lt(a, 0.5:f64);\n"), "f64 literal");
    Check(Program("big", {"c1"}, "    r:? = @eq(a, 'B':char);\n"), "char literal");
}

// Strings compare with a literal byte by byte (prefixes, longer strings, empty strings, UTF-8).
TEST(KernelForms, StringEqualityWithALiteral) {
    for (const char *t : kTables)
        for (const char *lit : {"`BUILDING:sym", "`A:sym"}) {
            Check(Program(t, {"s1"}, std::string("    r:? = @eq(a, ") + lit + ");\n"), std::string("eq str ") + lit + " " + t);
            Check(Program(t, {"s1"}, std::string("    r:? = @neq(") + lit + ", a);\n"), std::string("neq str ") + lit + " " + t);
        }
    // fused with a compaction, as TPC-H's segment filters
    Check(Program("nulls", {"s1", "i1"}, "    x:? = @eq(a, `BUILDING:sym);\n    r:? = @compress(x, b);\n"), "str mask compaction nulls");
    Check(Program("big", {"s1", "i1"}, "    x:? = @eq(a, `BUILDING:sym);\n    r:? = @compress(x, b);\n"), "str mask compaction big");
}

TEST(KernelForms, KleeneLogicWithNulls) {
    for (const char *t : kTables) {
        Check(Program(t, {"b1", "b2"}, "    r:? = @and(a, b);\n"), std::string("and ") + t);
        Check(Program(t, {"b1", "b2"}, "    r:? = @or(a, b);\n"), std::string("or ") + t);
        Check(Program(t, {"b1"}, "    r:? = @not(a);\n"), std::string("not ") + t);
    }
    // a chain with both Kleene and propagating steps
    Check(Program("nulls", {"i1", "b1"}, "    x:? = @gt(a, 0:i32);\n    y:? = @or(x, b);\n    r:? = @and(y, x);\n"), "chain");
}

TEST(KernelForms, CompressAndReductions) {
    struct R {
        const char *col, *op;
    };
    const R cases[] = {{"i1", "sum"}, {"l1", "sum"}, {"m1", "sum"}, {"w1", "sum"}, {"i1", "count"}, {"f1", "count"}, {"c1", "len"},
                       {"i1", "min"}, {"l1", "max"}, {"d1", "min"}, {"d1", "max"}, {"m1", "min"}, {"m2", "max"}, {"h1", "min"}, {"h2", "max"}};
    for (const auto &c : cases)
        for (const char *t : {"empty", "one", "big", "nulls", "onenull", "allnull"}) {
            // fused: compress is a predicate, the reduction consumes it
            Check(Program(t, {c.col, "b1"}, std::string("    x:? = @compress(b, a);\n    r:? = @") + c.op + "(x);\n"),
                  std::string(c.op) + " of compress " + c.col + " " + t);
            // plain reduction
            Check(Program(t, {c.col}, std::string("    r:? = @") + c.op + "(a);\n"), std::string(c.op) + " " + c.col + " " + t);
        }
}

// The GPU form of the reductions (shfl.sync.down, one record per warp) on the cpu device.
TEST(KernelForms, WarpShuffleReductions) {
    for (const char *op : {"sum", "count", "len", "min", "max"})
        for (const char *col : {"i1", "m1", "w1", "d1"})
            for (const char *t : {"empty", "one", "big", "nulls"}) {
                if ((std::string(col) == "w1" || std::string(col) == "d1") && std::string(op) == "sum" && col[0] == 'd') continue;
                if (std::string(col) == "w1" && (std::string(op) == "min" || std::string(op) == "max")) continue;
                Check(Program(t, {col, "b1"}, std::string("    x:? = @compress(b, a);\n    r:? = @") + op + "(x);\n"),
                      std::string("warp ") + op + " " + col + " " + t, false, true);
            }
    Check(Program("extreme", {"l1"}, "    r:? = @sum(a);\n"), "warp i64 sum out of range", true, true);
    // overflow across warps: caught by the atomic record's top word (and by the host in the cpu form)
    Check(Program("extreme", {"v1"}, "    r:? = @sum(a);\n"), "warp dec128 sum beyond 128 bits", true, true);
    Check(Program("extreme", {"v1"}, "    r:? = @sum(a);\n"), "thread-record dec128 sum beyond 128 bits", true, false);
}

TEST(KernelForms, OverflowReportsTheInterpretersError) {
    // flags raised in the kernel: the runner re-runs the statements and gets PostgreSQL's error
    Check(Program("extreme", {"i1", "i2"}, "    r:? = @plus(a, b);\n"), "i32 plus overflow", true);
    Check(Program("extreme", {"l1", "l2"}, "    r:? = @mul(a, b);\n"), "i64 mul overflow", true);
    Check(Program("extreme", {"l1", "l2"}, "    r:? = @minus(a, b);\n"), "i64 minus overflow", true);
    Check(Program("extreme", {"w1", "w2"}, "    r:? = @plus(a, b);\n"), "dec128 plus overflow", true);
    Check(Program("extreme", {"i1"}, "    r:? = @sum(a);\n"), "i32 sum out of range", true);
    Check(Program("extreme", {"l1"}, "    r:? = @sum(a);\n"), "i64 sum out of range", true);
    Check(Program("extreme", {"m1", "m2"}, "    r:? = @plus(a, b);\n"), "dec64 rescale of values near the 64-bit limits (exact in 128 bits)");
}

TEST(KernelForms, GatherEveryClass) {
    for (const char *col : {"i1", "l1", "f1", "d1", "c1", "b1", "m1", "w1", "h1"})
        for (const char *t : kTables) Check(Program(t, {col, "ix"}, "    r:? = @index(a, b);\n"), std::string("index ") + col + " " + t);
    // gathers fused with element-wise statements over the index's rows
    for (const char *t : {"big", "nulls"})
        Check(Program(t, {"m1", "ix", "i1"}, "    x:? = @index(a, b);\n    y:? = @index(c, b);\n    z:? = @gt(y, 0:i32);\n"
                                            "    w:? = @compress(z, x);\n    r:? = @sum(w);\n"),
              std::string("gather + compress + sum ") + t, std::string(t) == "nulls" /* NULL indexes: the error */);
    // out of range and NULL indexes: the interpreter's error
    Check(Program("big", {"i1", "ox"}, "    r:? = @index(a, b);\n"), "index out of range", true);
    Check(Program("nulls", {"l1", "ox"}, "    r:? = @index(a, b);\n"), "NULL index", true);
}

TEST(KernelForms, MaterialisedCompressKeepsOrderAndNulls) {
    // the compressed column escapes to the result: a two-pass compaction kernel
    for (const char *col : {"i1", "l1", "f1", "d1", "c1", "b1", "m1", "w1"})
        for (const char *t : {"empty", "one", "big", "nulls", "onenull", "allnull"}) {
            Check(Program(t, {"b2", col}, "    r:? = @compress(a, b);\n"), std::string("compress ") + col + " " + t);
        }
    // the mask computed in the same program; two columns compacted by one mask in one kernel
    std::string text = Program("nulls", {"i1", "m1"}, "    x:? = @gt(a, 10:i32);\n    y:? = @compress(x, a);\n    z:? = @compress(x, b);\n"
                                                      "    r:? = @list(y, z);\n");
    Check(text, "two columns, one mask");
}

// Per-cell reductions over the cells of @group (@raze(@each(@op, @each_right(@index, x, G)))).
TEST(KernelForms, PerCellReductions) {
    struct R {
        const char *col, *op;
    };
    const R cases[] = {{"i1", "sum"}, {"l1", "sum"}, {"m1", "sum"}, {"w1", "sum"}, {"i1", "min"}, {"d1", "max"},
                       {"m1", "max"}, {"h1", "min"}, {"f1", "count"}, {"c1", "len"}};
    for (const auto &c : cases)
        for (const char *t : {"one", "big", "nulls", "allnull", "long", "longnulls"}) {
            Check(Program(t, {c.col, "c2"}, std::string("    g:? = @group(b);\n    v:? = @values(g);\n    l:? = @each_right(@index, a, v);\n"
                                                        "    m:? = @each(@") + c.op + ", l);\n    r:? = @raze(m);\n"),
                  std::string("per-cell ") + c.op + " " + c.col + " " + t);
        }
    // @len over the cells themselves; two reductions sharing one kernel
    Check(Program("nulls", {"c1", "i1"}, "    g:? = @group(a);\n    v:? = @values(g);\n    m:? = @each(@len, v);\n    n:? = @raze(m);\n"
                                        "    l:? = @each_right(@index, b, v);\n    s:? = @each(@sum, l);\n    t:? = @raze(s);\n"
                                        "    r:? = @plus(n, n);\n"),
          "per-cell len and sum");
    // overflow of a per-cell sum: the interpreter's error
    Check(Program("extreme", {"i1", "c2"}, "    g:? = @group(b);\n    v:? = @values(g);\n    l:? = @each_right(@index, a, v);\n"
                                          "    m:? = @each(@sum, l);\n    r:? = @raze(m);\n"),
          "per-cell i32 sum overflow", true);
}

TEST(KernelForms, FusedChainLikeQ6) {
    const std::string body =
        "    x:? = @geq(c, 0:dec64<3>);\n    y:? = @lt(a, 500:i32);\n    z:? = @and(x, y);\n"
        "    p:? = @compress(z, b);\n    q:? = @compress(z, c);\n    s:? = @mul(p, q);\n    r:? = @sum(s);\n";
    for (const char *t : kTables) {
        std::string text = Program(t, {"i1", "m1", "m2"}, body);
        Check(text, std::string("q6-like ") + t);
        auto p = hir::ParseProgram(text, "q6like");
        ASSERT_TRUE(p.ok());
        ASSERT_TRUE(hir::CheckProgram(*p).ok());
        auto full = Outline(*p, FusionMode::FULL);
        auto flow = Outline(*p, FusionMode::FLOW);
        auto none = Outline(*p, FusionMode::NONE);
        ASSERT_TRUE(full.ok() && flow.ok() && none.ok());
        EXPECT_EQ(full->kernels.size(), 1u) << Print(*full);
        EXPECT_EQ(full->compiled_statements, 7);
        // without predicate fusion each compress materialises (a compaction kernel)
        EXPECT_EQ(none->compiled_statements, 7) << Print(*none);
        EXPECT_EQ(none->kernels.size(), 7u) << Print(*none);
        // flow: {x}, {y, z}, {p, q} (one compaction over mask z), {s, r}
        EXPECT_EQ(flow->kernels.size(), 4u) << Print(*flow);
    }
}

// Group-by kernels (hash-based @group): the dictionary must equal the interpreter's — group order
// (@keys: each group's first row, in the interpreter's order of the groups), member lists (rows
// ascending, @raze of @values) and the per-cell reductions that read them — for every key class,
// one key and several, NULL keys (one group, as GROUP BY), duplicates, one group, many groups and
// empty input.
std::string GroupBody(size_t keys, const std::string &result) {
    std::string k = keys == 1 ? "a" : keys == 2 ? "a, b" : "a, b, c";
    return "    k:? = @list(" + k + ");\n    g:? = @group(k);\n    ky:? = @keys(g);\n    v:? = @values(g);\n" + result;
}

// The member lists in group order, as one position-weighted checksum (a mismatch on 40000 rows
// stays a one-line message) plus the number of members.
const char *kMembers =
    "    s:? = @raze(v);\n    n:? = @len(s);\n    w:? = @range(n);\n    x:? = @mul(s, w);\n    y:? = @sum(x);\n"
    "    r:? = @plus(y, n);\n";

int GroupKernels(const std::string &text) {
    auto p = hir::ParseProgram(text, "grp");
    if (!p.ok() || !hir::CheckProgram(*p).ok()) return -1;
    auto out = Outline(*p, FusionMode::FULL);
    if (!out.ok()) return -1;
    int n = 0;
    for (const auto &k : out->kernels) n += k.group >= 0 && k.algorithm == "hash";
    return n;
}

// A program with one group kernel, through the runner and the interpreter: equal results, nothing
// re-run, and every kernel launched but `skipped` (groups the runner made without the kernel).
void CheckGroupLaunches(const std::string &text, int skipped) {
    auto p = hir::ParseProgram(text, "grp");
    ASSERT_TRUE(p.ok()) << p.status().ToString();
    ASSERT_TRUE(hir::CheckProgram(*p).ok());
    auto out = Outline(*p, FusionMode::FULL);
    ASSERT_TRUE(out.ok());
    ASSERT_EQ(GroupKernels(text), 1);
    hir::InterpretOptions opts;
    auto want = hir::Interpret(*p, Registry(), opts);
    ASSERT_TRUE(want.ok()) << want.status().ToString();
    Runner runner(Dev());
    RunStats st;
    auto got = runner.Run(*out, Registry(), opts, &st);
    EXPECT_EQ(Show(got), Show(want)) << Print(*out);
    EXPECT_EQ(st.kernels_redone, 0);
    EXPECT_EQ(st.kernels_launched, static_cast<int>(out->kernels.size()) - skipped) << Print(*out);
}

TEST(KernelForms, GroupByEveryKeyClass) {
    const char *tables[] = {"empty", "one", "big", "nulls", "onenull", "allnull", "long", "longnulls"};
    int n = 0;
    for (const char *col : {"c1", "i1", "l1", "d1", "b1", "m1", "w1", "h1", "ix", "s1"})
        for (const char *t : tables) {
            for (const char *res : {"    r:? = ky;\n", kMembers}) {
                std::string text = Program(t, {col}, GroupBody(1, res));
                ASSERT_EQ(GroupKernels(text), 1) << text;
                Check(text, std::string("group ") + col + " " + t);
                ++n;
            }
        }
    EXPECT_EQ(n, 10 * 8 * 2);
}

TEST(KernelForms, GroupByMultipleKeysThenPerCellReductions) {
    struct C {
        std::vector<std::string> cols;
    };
    const C cases[] = {{{"c1", "c2"}}, {{"b1", "i1", "d1"}}, {{"m1", "h1"}}, {{"w2", "c1"}}, {{"l1", "b2", "ix"}}, {{"s1", "c1"}}, {{"b1", "s1"}}};
    for (const auto &c : cases)
        for (const char *t : {"empty", "one", "big", "nulls", "allnull", "long", "longnulls"}) {
            std::string what = "group";
            for (const auto &x : c.cols) what += " " + x;
            what += std::string(" ") + t;
            Check(Program(t, c.cols, GroupBody(c.cols.size(), "    r:? = ky;\n")), what + " keys");
            Check(Program(t, c.cols, GroupBody(c.cols.size(), kMembers)), what + " members");
        }
    // Q1's shape: grouped sum, count and min after the group kernel (the per-cell kernels read its cells)
    for (const char *t : {"big", "nulls", "long", "longnulls", "one"}) {
        std::string body = GroupBody(2, "    l:? = @each_right(@index, c, v);\n    s:? = @each(@sum, l);\n    r0:? = @raze(s);\n"
                                        "    e:? = @each(@len, v);\n    r1:? = @raze(e);\n    r:? = @plus(r0, r1);\n");
        std::string text = Program(t, {"c1", "c2", "i1"}, body);
        ASSERT_EQ(GroupKernels(text), 1) << text;
        Check(text, std::string("group sum+len ") + t);
    }
    // Q1's avg: numeric @each(@avg) by rows (the host divides each group's sum by its count),
    // beside a sum of the same gathered cells (that @each_right is never built), against the
    // interpreter: the cells form (cpu) and the atomic records form (GPU), NULLs in keys and
    // values (left out of each group's count), empty and one row
    for (const char *col : {"m1", "m2", "w1"})
        for (const char *t : {"big", "nulls", "long", "longnulls", "one", "empty"})
            for (bool atomics : {false, true}) {
                std::string body = GroupBody(2, "    l:? = @each_right(@index, c, v);\n    s:? = @each(@sum, l);\n    r0:? = @raze(s);\n"
                                                "    av:? = @each(@avg, l);\n    r:? = @raze(av);\n");
                std::string text = Program(t, {"c1", "i1", col}, body);
                auto p = hir::ParseProgram(text, "avg");
                ASSERT_TRUE(p.ok());
                ASSERT_TRUE(hir::CheckProgram(*p).ok());
                auto out = Outline(*p, FusionMode::FULL);
                ASSERT_TRUE(out.ok());
                int by_rows = 0;
                for (const auto &k : out->kernels) by_rows += k.by_rows ? 1 : 0;
                ASSERT_EQ(by_rows, 1) << Print(*out);
                ASSERT_EQ(Print(*out).find("interp av = @each"), std::string::npos) << Print(*out);
                Check(text, std::string("group avg ") + col + " " + t + (atomics ? " atomics" : ""), false, atomics);
                // one key of few values: every group holds values, also where some are NULL
                // (counted out), so the kernel's result stands
                std::string few = Program(t, {"c1", col}, GroupBody(1, "    l:? = @each_right(@index, b, v);\n    av:? = @each(@avg, l);\n"
                                                                          "    r:? = @raze(av);\n"));
                auto fp = hir::ParseProgram(few, "avg1");
                ASSERT_TRUE(fp.ok());
                ASSERT_TRUE(hir::CheckProgram(*fp).ok());
                auto fo = Outline(*fp, FusionMode::FULL);
                ASSERT_TRUE(fo.ok());
                hir::InterpretOptions opts;
                auto want = hir::Interpret(*fp, Registry(), opts);
                Runner runner(Dev(), atomics);
                RunStats st;
                auto got = runner.Run(*fo, Registry(), opts, &st);
                EXPECT_EQ(Show(got), Show(want)) << t << " " << col << " atomics=" << atomics;
                EXPECT_EQ(st.kernels_launched, static_cast<int>(fo->kernels.size())) << t << " " << col;
                if (std::string(t) == "big" || std::string(t) == "nulls" || std::string(t) == "longnulls")
                    EXPECT_EQ(st.kernels_redone, 0) << t << " " << col << " atomics=" << atomics;
            }
    // held out of the forms: f64 keys stay on the interpreter (no group kernel)
    EXPECT_EQ(GroupKernels(Program("big", {"f1"}, GroupBody(1, "    r:? = ky;\n"))), 0);
}

// A group kernel over more rows than the runner's host passes take on one thread (2^18): the
// groups' first rows (an atomic minimum per claimer), each row's group and position, and the
// groups' sizes (few groups counted per chunk, many by atomic adds) are made in chunks on every
// core.  @keys, the member lists and by-rows sums and counts must still be the interpreter's,
// with few groups (a char key; a char and a bool), many (an i64 key of too wide a range for the
// runner's packed-key table), and NULL keys.
TEST(KernelForms, GroupKernelHostPassesInChunks) {
    const std::string sums = "    l:? = @each_right(@index, c, v);\n    s:? = @each(@sum, l);\n    r:? = @raze(s);\n";
    const std::string lens = "    n1:? = @each(@len, v);\n    r:? = @raze(n1);\n";
    for (const char *t : {"huge", "hugenulls"}) {
        for (const auto &cols : std::vector<std::vector<std::string>>{{"c1", "b1", "i2"}, {"l1", "c2", "h1"}}) {
            const std::string what = std::string("group ") + t + " " + cols[0] + "," + cols[1];
            Check(Program(t, cols, GroupBody(2, sums)), what + " sums by rows");
            Check(Program(t, cols, GroupBody(2, lens)), what + " sizes");
            Check(Program(t, cols, GroupBody(2, "    r:? = ky;\n")), what + " keys");
            Check(Program(t, cols, GroupBody(1, kMembers)), what + " lists");
        }
    }
}

// One integer key whose equal values lie next to each other: the runner groups by its runs
// (sorted into key order, a key's runs merged) instead of launching the hash kernel; a key that
// is not clustered (i2), or has a NULL (d1), still takes the kernel.  The groups' keys, sizes,
// member lists and by-rows sums are the interpreter's either way.
TEST(KernelForms, GroupByRunsOfAClusteredKey) {
    const std::string sums = "    l:? = @each_right(@index, c, v);\n    s:? = @each(@sum, l);\n    r:? = @raze(s);\n";
    const std::string lens = "    n1:? = @each(@len, v);\n    r:? = @raze(n1);\n";
    for (const char *key : {"i1", "l1", "i2", "d1"}) {
        const bool runs = std::string(key) == "i1" || std::string(key) == "l1";
        for (const auto &[body, name] : std::vector<std::pair<std::string, std::string>>{
                 {sums, "sums"}, {lens, "sizes"}, {"    r:? = ky;\n", "keys"}, {kMembers, "lists"}}) {
            SCOPED_TRACE(std::string(key) + " " + name);
            // i2 (random, 2001 values) packs into 11 bits: grouped through the runner's table
            CheckGroupLaunches(Program("runs", {key, "i2", "m1"}, GroupBody(1, body)), runs || std::string(key) == "i2" ? 1 : 0);
        }
    }
}

// Group keys that pack into a few bits in their order (strings of at most two bytes, integers of
// small range; one key and several) are grouped by the runner through a table the packed tuple
// indexes, without launching the hash kernel (one-byte strings with i2: 9 + 11 bits, the most);
// a NULL key, keys over 20 bits (two-byte strings with h1: 18 + 4, with i2: 18 + 11) or a long
// string keeps the kernel.  The dictionary and the reductions over it must equal the
// interpreter's either way.
TEST(KernelForms, GroupBySmallPackedKeys) {
    const std::string sums = "    l:? = @each_right(@index, c, v);\n    s:? = @each(@sum, l);\n    r:? = @raze(s);\n";
    struct Case {
        const char *table;
        std::vector<std::string> keys;
        bool packed;
    };
    const std::vector<Case> cases = {
        {"short", {"s1"}, true},        {"short", {"s1", "h1"}, true},   {"short", {"h1", "s1"}, true},
        {"short2", {"s1"}, true},       {"short2", {"s1", "h1"}, false}, {"short", {"d1", "h1"}, true},
        {"short", {"s1", "i2"}, true},  {"short2", {"s1", "i2"}, false}, {"shortnull", {"s1", "h1"}, false},
        {"huge", {"s1"}, false},
    };
    for (const Case &c : cases)
        for (const auto &[body, name] : std::vector<std::pair<std::string, std::string>>{
                 {sums, "sums"}, {"    r:? = ky;\n", "keys"}, {kMembers, "lists"}}) {
            std::vector<std::string> cols = c.keys;
            if (cols.size() == 1) cols.push_back("i2");
            cols.push_back("m1");
            SCOPED_TRACE(std::string(c.table) + " " + c.keys[0] + (c.keys.size() > 1 ? "," + c.keys[1] : "") + " " + name);
            CheckGroupLaunches(Program(c.table, cols, GroupBody(c.keys.size(), body)), c.packed ? 1 : 0);
        }
}

// A compaction kernel of plain @compress statements over many rows runs on the interpreter's
// compress at any density (the cpu form's warps would gather and scatter: Q1's 98%-kept
// compaction of four dec64 columns took 48 ms as a kernel, 26 on the interpreter); a kernel that
// computes its mask, or a mask with NULLs, stays a kernel.  Same columns either way.
TEST(KernelForms, SparseCompactionOnTheInterpreter) {
    const std::string body = "    m:? = @lt(a, %s:i32);\n    ka:? = @compress(m, b);\n    xc:? = @compress(m, c);\n    g:? = @group(ka);\n"
                             "    v:? = @values(g);\n    l:? = @each_right(@index, xc, v);\n    s:? = @each(@sum, l);\n    r:? = @raze(s);\n";
    int interpreted = 0;
    for (const char *t : {"huge", "hugenulls"})
        for (const char *cut : {"-800", "-300", "900"})
          for (bool shared_mask : {false, true}) {  // the mask also read outside the kernel: not absorbed
            std::string b = body;
            b.replace(b.find("%s"), 2, cut);
            if (shared_mask) b += "    w:? = @where(m);\n";
            const std::string text = Program(t, {"i2", "c1", "m1"}, b);
            SCOPED_TRACE(std::string(t) + " cut " + cut);
            auto p = hir::ParseProgram(text, "sparse");
            ASSERT_TRUE(p.ok()) << p.status().ToString();
            ASSERT_TRUE(hir::CheckProgram(*p).ok());
            auto out = Outline(*p, FusionMode::FULL, CostModel::CPU_DEVICE);
            ASSERT_TRUE(out.ok());
            int compactions = 0;
            for (const auto &k : out->kernels) compactions += k.compact_mask >= 0;
            ASSERT_EQ(compactions, 1) << Print(*out);
            bool only_compress = true;  // a compaction kernel that computes its mask keeps it
            for (const auto &k : out->kernels)
                if (k.compact_mask >= 0)
                    for (const auto &ks : k.stmts) only_compress = only_compress && ks.form == Form::COMPRESS;
            hir::InterpretOptions opts;
            auto want = hir::Interpret(*p, Registry(), opts);
            ASSERT_TRUE(want.ok());
            Runner runner(Dev());
            RunStats st;
            auto got = runner.Run(*out, Registry(), opts, &st);
            EXPECT_EQ(Show(got), Show(want)) << Print(*out);
            EXPECT_EQ(st.kernels_redone, 0);
            // a < -800: ~10% kept, a < -300: ~35%, a < 900: ~95%; a mask with NULLs stays a kernel
            const bool sparse = std::string(t) == "huge" && only_compress;
            EXPECT_EQ(st.kernels_launched, static_cast<int>(out->kernels.size()) - (sparse ? 1 : 0)) << Print(*out);
            interpreted += sparse;
        }
    EXPECT_GE(interpreted, 3);  // the shared masks' cases did take the interpreter, the dense one too
}

// Over half the interpreter's memory budget the group kernel leaves @group to the interpreter.
TEST(KernelForms, GroupByOverTheMemoryBudgetRunsOnTheInterpreter) {
    std::string text = Program("long", {"i1"}, GroupBody(1, "    r:? = ky;\n"));
    auto p = hir::ParseProgram(text, "grp");
    ASSERT_TRUE(p.ok());
    ASSERT_TRUE(hir::CheckProgram(*p).ok());
    auto out = Outline(*p, FusionMode::FULL);
    ASSERT_TRUE(out.ok());
    for (int64_t budget : {int64_t{2} << 20, int64_t{64} << 20}) {
        hir::InterpretOptions opts;
        opts.memory_budget = budget;  // table 131072 x 8 bytes + slots 40000 x 4: over 1 MiB, under 32 MiB
        auto want = hir::Interpret(*p, Registry(), opts);
        ASSERT_TRUE(want.ok()) << want.status().ToString();
        Runner runner(Dev());
        RunStats st;
        auto got = runner.Run(*out, Registry(), opts, &st);
        EXPECT_EQ(Show(got), Show(want)) << budget;
        EXPECT_EQ(st.kernels_redone, budget < (int64_t{32} << 20) ? 1 : 0) << budget;
    }
}

// The group kernel's PTX (NULL-bearing keys of every width: 1, 2, 4, 8, 16 bytes) passes our
// verifier and NVIDIA's ptxas for every listed architecture.
TEST(KernelForms, GroupByPtxAcceptedByPtxas) {
    const char *ptxas = "/usr/local/cuda/bin/ptxas";
    if (access(ptxas, X_OK) != 0) {
        std::printf("SKIPPED: no ptxas at %s\n", ptxas);
        GTEST_SKIP() << "no ptxas";
    }
    for (const auto &cols : std::vector<std::vector<std::string>>{{"c1", "h1", "w1"}, {"i1", "l1", "b1"}, {"m1", "s1"}}) {
        // with three keys a by-rows kernel too (a sum and a max per group)
        std::string body = cols[0] == "c1" ? "    l:? = @each_right(@index, c, v);\n    m:? = @each(@sum, l);\n    r0:? = @raze(m);\n"
                                              "    l2:? = @each_right(@index, b, v);\n    m2:? = @each(@max, l2);\n    r1:? = @raze(m2);\n"
                                              "    r:? = @list(r0, r1);\n"
                                            : "    r:? = ky;\n";
        auto p = hir::ParseProgram(Program("nulls", cols, GroupBody(cols.size(), body)), "grp");
        ASSERT_TRUE(p.ok());
        ASSERT_TRUE(hir::CheckProgram(*p).ok());
        auto out = Outline(*p, FusionMode::FULL);
        ASSERT_TRUE(out.ok());
        for (bool nulls : {false, true})
            for (const char *arch : {"sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "sm_120"}) {
                PtxOptions po;
                po.target = arch;
                po.nullable.assign(out->kernels.size(), {});
                for (size_t k = 0; k < out->kernels.size(); ++k) po.nullable[k].assign(out->kernels[k].inputs.size(), nulls);
                auto mod = GeneratePtx(*out, po);
                ASSERT_TRUE(mod.ok()) << mod.status().ToString();
                std::string text = ptx::Print(*mod);
                ASSERT_NE(text.find("atom.global.cas.b64"), std::string::npos);
                if (cols[0] == "c1") {  // the by-rows kernel
                    ASSERT_NE(text.find("atom.global.max.s64"), std::string::npos);
                }
                std::string file = ::testing::TempDir() + "group_" + arch + ".ptx";
                {
                    std::ofstream f(file);
                    f << text;
                }
                std::string msg;
                EXPECT_EQ(RunShell(std::string(ptxas) + " -arch=" + arch + " " + file + " -o " + file + ".cubin", &msg), 0) << arch << "\n" << msg;
            }
    }
}

// GROUPREDUCE: per-cell reductions over @values of a group kernel run by rows (atomics into
// per-group records, no member lists when only they read the groups) — against the interpreter
// on every reduction class, few groups (records per CTA), many groups (one shared set), one
// group, NULLs, empty and one-row tables, and overflow (the interpreter's error after a re-run).
struct ByRows {
    int by_rows = 0;       // by-rows kernels
    int lists = 0;         // group kernels that build member lists
    int groups = 0;        // group kernels
};
ByRows ByRowsOf(const std::string &text) {
    ByRows b;
    auto p = hir::ParseProgram(text, "gr");
    if (!p.ok() || !hir::CheckProgram(*p).ok()) return b;
    auto out = Outline(*p, FusionMode::FULL);
    if (!out.ok()) return b;
    for (const auto &k : out->kernels) {
        b.by_rows += k.by_rows;
        b.groups += k.group >= 0;
        b.lists += k.group >= 0 && k.group_lists;
    }
    return b;
}

std::string ReduceBody(const std::string &key_stmt, const std::string &key, const std::string &op) {
    const std::string x = op == "len" ? "v" : "l";
    return key_stmt + "    g:? = @group(" + key + ");\n    ky:? = @keys(g);\n    v:? = @values(g);\n" +
           (op == "len" ? "" : "    l:? = @each_right(@index, a, v);\n") + "    m:? = @each(@" + op + ", " + x + ");\n    r:? = @raze(m);\n";
}

TEST(KernelForms, GroupReduceByRows) {
    struct R {
        const char *col, *op;
    };
    const R cases[] = {{"i1", "sum"}, {"l1", "sum"}, {"m1", "sum"}, {"w1", "sum"}, {"i1", "min"}, {"l1", "max"},
                       {"d1", "max"}, {"m1", "min"}, {"h1", "max"}, {"f1", "count"}, {"c1", "len"}};
    // keys: few groups (c2: about ten values; records per CTA), many groups (ix: random row
    // numbers; one shared set of records), one group (a = a is true on every row without NULLs)
    // five: c mod 3 (-2..2, and NULL: up to 6 groups, the cpu device's accumulators in registers)
    const std::pair<const char *, const char *> keys[] = {
        {"few", ""}, {"many", ""}, {"one", "    k:? = @eq(c, c);\n"}, {"five", "    k:? = @mod(c, 3:i32);\n"}};
    int n = 0;
    // the cpu device's two forms: per-thread records for few groups, cells for many
    int few_records = 0, many_records = 0, many_long = 0, five_slots = 0;
    for (const auto &c : cases)
        for (const auto &[kname, kstmt] : keys)
            for (const char *t : {"empty", "one", "big", "nulls", "onenull", "allnull", "long", "longnulls"}) {
                if (std::string(kname) == "one" && std::string(t).find("null") != std::string::npos) continue;
                std::vector<std::string> cols = {c.col, std::string(kname) == "many" ? "ix" : "c2", "i2"};
                std::string body = ReduceBody(kstmt, *kstmt ? "k" : "b", c.op);
                std::string text = Program(t, cols, body);
                const ByRows b = ByRowsOf(text);
                ASSERT_EQ(b.by_rows, 1) << text;
                EXPECT_EQ(b.lists, 0) << text;  // only @keys and the reduction read the groups
                // the cpu form (cells from the group kernel's rows) and the GPU form (atomics by rows)
                RunStats st;
                Check(text, std::string("by rows ") + c.op + " " + c.col + " " + kname + " " + t, false, false, &st);
                if (std::string(kname) == "few") few_records += st.thread_records;
                if (std::string(kname) == "five") five_slots += st.register_slots;
                if (std::string(kname) == "many" && std::string(t).rfind("long", 0) == 0) many_records += st.thread_records, ++many_long;
                if (std::string(t).rfind("long", 0) != 0)
                    Check(text, std::string("by rows atomics ") + c.op + " " + c.col + " " + kname + " " + t, false, true);
                ++n;
            }
    EXPECT_EQ(n, 11 * (4 * 8 - 4));
    EXPECT_GT(five_slots, 0) << "up to 8 groups never kept their accumulators in registers";
    EXPECT_GT(few_records, 0) << "few groups never ran in per-thread records";
    EXPECT_EQ(many_records, 0) << "thousands of groups ran in per-thread records (" << many_long << " cases)";
    // several reductions in one by-rows kernel, and the member lists kept for another reader of @values
    for (const char *t : {"big", "nulls", "long"}) {
        std::string body =
            "    g:? = @group(b);\n    v:? = @values(g);\n    l:? = @each_right(@index, a, v);\n"
            "    m:? = @each(@sum, l);\n    r0:? = @raze(m);\n    l2:? = @each_right(@index, c, v);\n    m2:? = @each(@max, l2);\n"
            "    r1:? = @raze(m2);\n    e:? = @each(@len, v);\n    r2:? = @raze(e);\n    s:? = @raze(v);\n    sn:? = @len(s);\n"
            "    t1:? = @plus(r0, r1);\n    t2:? = @plus(t1, r2);\n    r:? = @plus(t2, sn);\n";
        std::string text = Program(t, {"i1", "c2", "l1"}, body);
        const ByRows b = ByRowsOf(text);
        EXPECT_EQ(b.by_rows, 1) << text;
        EXPECT_EQ(b.lists, 1) << text;
        Check(text, std::string("by rows, lists kept ") + t);
        Check(text, std::string("by rows, lists kept, atomics ") + t, false, true);
    }
    // overflow: an i32/i64 group sum out of range, and 128-bit sums whose top word shows it
    // (v1: 2^121 per row, a CTA's few rows fit, a group of ~70 rows does not; w1: 2^126)
    for (const char *col : {"i1", "l1", "v1", "w1"})
        for (const char *key : {"c2", "ix"}) {
            if (std::string(col) == "v1" && std::string(key) == "ix") continue;  // groups of 1-3 rows: 2^121 each fits
            for (bool atomics : {false, true})
                Check(Program("extreme", {col, key, "i2"}, ReduceBody("", "b", "sum")),
                      std::string("by rows overflow ") + col + " " + key + (atomics ? " atomics" : ""), true, atomics);
        }
    // the cpu device's register slots (k: i2 mod 3, up to 5 groups) sum 32-bit pieces of each
    // value (ptxgen's SumPieces): 128-bit sums beyond 128 bits are seen from the top word
    // (a re-run), and exact sums of extreme 64-bit values (m1: INT64_MAX - 5 or INT64_MIN + 5,
    // l1 near INT64_MAX and INT64_MIN: a dec64 sum needs 128 bits, an i64 sum overflows) and of
    // 128-bit values of either sign (w1 in "big": one value in 16 is +-1000 * 2^70)
    // ("longextreme": about 40 rows a thread, so a thread's own sum overflows)
    for (const char *t : {"extreme", "longextreme"}) {
        for (const char *col : {"v1", "w1"}) {
            RunStats st;
            Check(Program(t, {col, "c2", "i2"}, ReduceBody("    k:? = @mod(c, 3:i32);\n", "k", "sum")),
                  std::string("slots overflow ") + col + " " + t, true, false, &st);
            EXPECT_GT(st.register_slots, 0) << col;
        }
        for (const char *col : {"m1", "l1"}) {
            RunStats st;
            Check(Program(t, {col, "c2", "i2"}, ReduceBody("    k:? = @mod(c, 3:i32);\n", "k", "sum")),
                  std::string("slots extreme ") + col + " " + t, std::string(col) == "l1", false, &st);
            EXPECT_GT(st.register_slots, 0) << col;
            if (std::string(col) == "m1") EXPECT_EQ(st.kernels_redone, 0) << "an exact dec64 sum re-ran in " << t;
        }
    }
    for (const char *col : {"w1", "w2", "m1"})
        for (const char *op : {"sum", "avg"})
            for (const char *t : {"big", "long", "nulls"}) {
                RunStats st;
                Check(Program(t, {col, "c2", "i2"}, ReduceBody("    k:? = @mod(c, 3:i32);\n", "k", op)),
                      std::string("slots ") + op + " " + col + " " + t, false, false, &st);
                EXPECT_GT(st.register_slots, 0) << col << " " << op << " " << t;
                EXPECT_EQ(st.kernels_redone, 0) << "a sum within 128 bits re-ran: " << col << " " << op << " " << t;
            }
}

// SinkIntoByRows: a by-rows reduction whose source an element-wise chain computes (maps with a
// literal, a gather through an index vector of the rows' domain) takes the chain in: the
// chain's kernel disappears and the by-rows kernel computes the source per row.  Against the
// interpreter in every form (cpu: registers, per-thread records, cells; GPU: atomics), with
// NULLs, decimal overflow of the product (extreme), an out-of-range gather index (ox: the
// interpreter's error after the re-run), and a source also read by an avg (not sunk: the host
// counts the avg's values from its column).
TEST(KernelForms, GroupReduceBySunkChains) {
    struct Chain {
        const char *name, *a, *c, *body, *op;
        bool sunk, redo;
    };
    // a: the value, c: a second value or an index into a; the group key b is c2 (few) or ix (many)
    const Chain chains[] = {
        {"revenue", "m1", "m2", "    one:? = @minus(1:dec64<0>, c);\n    x:? = @mul(a, one);\n", "sum", true, false},
        {"two products", "m1", "m2",
         "    one:? = @minus(1:dec64<0>, c);\n    x1:? = @mul(a, one);\n    two:? = @plus(1:dec64<0>, c);\n    x:? = @mul(x1, two);\n"
         "    l1:? = @each_right(@index, x1, v);\n    n1:? = @each(@sum, l1);\n    s1:? = @raze(n1);\n",
         "sum", true, false},
        {"integer max", "l1", "l2", "    x:? = @minus(a, c);\n", "max", true, false},
        {"count", "i1", "i2", "    x:? = @plus(a, c);\n", "count", true, false},
        {"gather", "m1", "ix", "    ga:? = @index(a, c);\n    x:? = @mul(ga, a);\n", "sum", true, false},
        {"gather out of range", "m1", "ox", "    ga:? = @index(a, c);\n    x:? = @mul(ga, a);\n", "sum", true, true},
        {"avg reads it", "m1", "m2", "    one:? = @minus(1:dec64<0>, c);\n    x:? = @mul(a, one);\n", "avg", false, false},
    };
    int n = 0;
    for (const auto &ch : chains)
        for (const char *key : {"c2", "ix"})
            for (const char *t : {"empty", "one", "big", "nulls", "long", "longnulls", "extreme"}) {
                std::string body = std::string("    g:? = @group(b);\n    ky:? = @keys(g);\n    v:? = @values(g);\n") + ch.body +
                                   "    l:? = @each_right(@index, x, v);\n    m:? = @each(@" + ch.op + ", l);\n    r:? = @raze(m);\n";
                const std::string text = Program(t, {ch.a, key, ch.c}, body);
                auto p = hir::ParseProgram(text, "sunk");
                ASSERT_TRUE(p.ok() && hir::CheckProgram(*p).ok()) << text;
                auto out = Outline(*p, FusionMode::FULL);
                ASSERT_TRUE(out.ok()) << out.status().ToString();
                int by_rows = 0, maps_inside = 0, elementwise_kernels = 0;
                for (const auto &k : out->kernels) {
                    by_rows += k.by_rows;
                    for (const auto &ks : k.stmts) {
                        if (k.by_rows && (ks.form == Form::ELEMENTWISE || ks.form == Form::GATHER)) ++maps_inside;
                    }
                    if (!k.by_rows && k.group < 0 && k.segments < 0 && k.compact_mask < 0) ++elementwise_kernels;
                }
                ASSERT_EQ(by_rows, 1) << Print(*out);
                if (ch.sunk) {
                    EXPECT_GT(maps_inside, 0) << Print(*out);
                } else {
                    EXPECT_EQ(maps_inside, 0) << Print(*out);
                    EXPECT_GE(elementwise_kernels, 1) << Print(*out);
                }
                const std::string what = std::string("sunk ") + ch.name + " " + key + " " + t;
                // out of range: the interpreter's error after the re-run (no rows: nothing to gather)
                const bool redo = ch.redo && std::string(t) != "empty";
                Check(text, what, redo, false);
                if (std::string(t).rfind("long", 0) != 0) Check(text, what + " atomics", redo, true);
                ++n;
            }
    EXPECT_EQ(n, 7 * 2 * 7);
}

// A kernel whose reduction output comes before a vector output (the translator's @len of a join
// index fused with the gathers through it, TPC-H Q18): the arguments follow the PTX's order
// (vector outputs, then the reductions' records), or a store lands out of bounds.
TEST(KernelForms, ReductionOutputBeforeAVectorOutput) {
    for (const char *t : {"empty", "one", "big", "nulls"}) {
        std::string text = Program(t, {"i1", "i2"}, "    n:? = @len(a);\n    x:? = @plus(a, b);\n    r:? = @plus(x, n);\n");
        auto p = hir::ParseProgram(text, "redvec");
        ASSERT_TRUE(p.ok());
        ASSERT_TRUE(hir::CheckProgram(*p).ok());
        auto out = Outline(*p, FusionMode::FULL);
        ASSERT_TRUE(out.ok());
        bool red_first = false;
        for (const auto &k : out->kernels)
            for (size_t o = 0; o + 1 < k.outputs.size(); ++o) red_first |= k.outputs[o].reduction && !k.outputs[o + 1].reduction;
        ASSERT_TRUE(red_first) << Print(*out);
        Check(text, std::string("reduction before a vector output ") + t);
    }
}

// A compaction that took over its mask's kernel, and a later compaction of the same mask that
// cannot join it (its column comes after a reader of the first one, TPC-H Q3): the mask is then
// computed apart and read by both (a compaction kernel writes only compressed values).
TEST(KernelForms, MaskReadByACompactionThatCannotJoin) {
    for (const char *t : {"empty", "one", "big", "nulls"}) {
        std::string text = Program(t, {"i1", "i2"},
                                   "    m:? = @lt(a, 0:i32);\n    p:? = @compress(m, a);\n    u:? = @unique(p);\n    bb:? = @abs(b);\n"
                                   "    c2:? = @compress(m, bb);\n    r:? = @unique(c2);\n");
        Check(text, std::string("mask read by a later compaction ") + t);
    }
}

// The group kernel left to the interpreter (over the memory budget): the by-rows kernel then
// re-runs on the interpreter too, over the @values the interpreter built.
TEST(KernelForms, GroupReduceAfterAnInterpretedGroup) {
    std::string text = Program("long", {"i1", "l1", "i2"}, ReduceBody("", "b", "sum"));
    auto p = hir::ParseProgram(text, "grp");
    ASSERT_TRUE(p.ok());
    ASSERT_TRUE(hir::CheckProgram(*p).ok());
    auto out = Outline(*p, FusionMode::FULL);
    ASSERT_TRUE(out.ok());
    for (int64_t budget : {int64_t{2} << 20, int64_t{64} << 20}) {
        hir::InterpretOptions opts;
        opts.memory_budget = budget;
        auto want = hir::Interpret(*p, Registry(), opts);
        ASSERT_TRUE(want.ok()) << want.status().ToString();
        Runner runner(Dev());
        RunStats st;
        auto got = runner.Run(*out, Registry(), opts, &st);
        EXPECT_EQ(Show(got), Show(want)) << budget;
        EXPECT_EQ(st.kernels_redone, budget < (int64_t{32} << 20) ? 2 : 0) << budget;
    }
}

}  // namespace
}  // namespace rndn::codegen::testing

namespace rndn::codegen::testing {
namespace {

// Programs outside the outliner's scope (control flow, reassigned names) keep every statement on
// the interpreter, and still run through the runner.
TEST(Outline, ControlFlowStaysOnTheInterpreter) {
    const char *text =
        "module default{\n  import Builtin.*;\n  def main() : i64{\n    var x:i64;\n    c:? = 1:bool;\n"
        "    t0:? = @load_table(`big:sym);\n    a:i64 = check_cast(@column_value(t0, `l1:sym), i64);\n"
        "    if (c) { x = @sum(a); } else { x = 0:i64; }\n    return x;\n  }\n}\n";
    auto p = hir::ParseProgram(text, "cf");
    ASSERT_TRUE(p.ok()) << p.status().ToString();
    ASSERT_TRUE(hir::CheckProgram(*p).ok()) << hir::CheckProgram(*p).ToString();
    auto out = Outline(*p, FusionMode::FULL);
    ASSERT_TRUE(out.ok());
    EXPECT_EQ(out->kernels.size(), 0u) << Print(*out);
    EXPECT_TRUE(Verify(*out).ok());
    hir::InterpretOptions opts;
    Runner runner(Dev());
    auto got = runner.Run(*out, Registry(), opts);
    auto want = hir::Interpret(*p, Registry(), opts);
    EXPECT_EQ(Show(got), Show(want));
}

TEST(Outline, ModeNamesParse) {
    EXPECT_EQ(*ParseFusionMode("none"), FusionMode::NONE);
    EXPECT_EQ(*ParseFusionMode("flow"), FusionMode::FLOW);
    EXPECT_EQ(*ParseFusionMode("full"), FusionMode::FULL);
    EXPECT_FALSE(ParseFusionMode("fast").ok());
}

}  // namespace
}  // namespace rndn::codegen::testing

namespace rndn::codegen::testing {
namespace {

// Outlines text with the given cost model, runs it on the cpu device and compares with the
// interpreter; returns the outlined program (null on a failed assertion).
std::unique_ptr<OutlinedProgram> RunWithCosts(const std::string &text, CostModel costs, const std::string &what,
                                              std::unique_ptr<hir::Program> *keep) {
    SCOPED_TRACE(what + "\n" + text);
    auto p = hir::ParseProgram(text, what);
    EXPECT_TRUE(p.ok()) << p.status().ToString();
    if (!p.ok()) return nullptr;
    *keep = std::make_unique<hir::Program>(std::move(*p));
    EXPECT_TRUE(hir::CheckProgram(**keep).ok());
    hir::InterpretOptions opts;
    auto want = hir::Interpret(**keep, Registry(), opts);
    auto out = Outline(**keep, FusionMode::FULL, costs);
    EXPECT_TRUE(out.ok()) << out.status().ToString();
    if (!out.ok()) return nullptr;
    EXPECT_TRUE(Verify(*out).ok());
    Runner runner(Dev());
    RunStats st;
    auto got = runner.Run(*out, Registry(), opts, &st);
    EXPECT_EQ(Show(got), Show(want)) << Print(*out);
    EXPECT_EQ(st.kernels_launched, static_cast<int>(out->kernels.size())) << Print(*out);
    EXPECT_EQ(st.kernels_redone, 0) << Print(*out);
    return std::make_unique<OutlinedProgram>(std::move(*out));
}

int GroupKernels(const OutlinedProgram &o) {
    int n = 0;
    for (const auto &k : o.kernels) n += k.group >= 0;
    return n;
}

// CostModel::CPU_DEVICE: a @group whose member lists are read by an interpreted @each(@avg) (Q17)
// stays on the interpreter; one that feeds a by-rows reduction (Q1, Q18) stays a kernel.  Under
// ANY both are group kernels.  Same results as the interpreter either way.
TEST(CostModel, CpuDeviceKeepsAGroupWithoutByRowsReductionsOnTheInterpreter) {
    const std::string avg = "    g:? = @group(b);\n    ky:? = @keys(g);\n    v:? = @values(g);\n"
                            "    l:? = @each_right(@index, a, v);\n    m:? = @each(@avg, l);\n    r:? = @raze(m);\n";
    for (const char *t : {"empty", "one", "big", "nulls", "long"}) {
        std::unique_ptr<hir::Program> keep;
        auto any = RunWithCosts(Program(t, {"i1", "c2"}, avg), CostModel::ANY, std::string("avg any ") + t, &keep);
        ASSERT_NE(any, nullptr);
        EXPECT_EQ(GroupKernels(*any), 1) << Print(*any);
        auto cpu = RunWithCosts(Program(t, {"i1", "c2"}, avg), CostModel::CPU_DEVICE, std::string("avg cpu ") + t, &keep);
        ASSERT_NE(cpu, nullptr);
        EXPECT_EQ(GroupKernels(*cpu), 0) << Print(*cpu);
        auto sum = RunWithCosts(Program(t, {"i1", "c2"}, ReduceBody("", "b", "sum")), CostModel::CPU_DEVICE,
                                std::string("sum cpu ") + t, &keep);
        ASSERT_NE(sum, nullptr);
        EXPECT_EQ(GroupKernels(*sum), 1) << Print(*sum);
    }
}

// CostModel::CPU_DEVICE: a string compared with a literal stays on the interpreter (its byte loop
// is slower per lane on the cpu device than the interpreter's comparison), and so does a
// materialised compaction (the interpreter's @compress runs on every core without a branch per
// row; the compaction kernel's per-thread chunks are strided across a warp's lanes there); the
// mask's other statements still run as a kernel.
TEST(CostModel, CpuDeviceKeepsStringEqualityOnTheInterpreter) {
    const std::string body = "    x:? = @eq(a, `BUILDING:sym);\n    y:? = @lt(b, 0:i32);\n    z:? = @and(x, y);\n"
                             "    r:? = @compress(z, b);\n";
    for (const char *t : {"empty", "one", "big", "nulls"}) {
        std::unique_ptr<hir::Program> keep;
        auto any = RunWithCosts(Program(t, {"s1", "i1"}, body), CostModel::ANY, std::string("any ") + t, &keep);
        ASSERT_NE(any, nullptr);
        const std::string any_text = Print(*any);  // (before `keep` holds the next program)
        auto cpu = RunWithCosts(Program(t, {"s1", "i1"}, body), CostModel::CPU_DEVICE, std::string("cpu ") + t, &keep);
        ASSERT_NE(cpu, nullptr);
        EXPECT_EQ(cpu->compiled_statements + 2, any->compiled_statements) << Print(*cpu);
        EXPECT_GE(cpu->kernels.size(), 1u);
        EXPECT_NE(Print(*cpu).find("interp x = @eq"), std::string::npos) << Print(*cpu);
        EXPECT_NE(Print(*cpu).find("interp r = @compress"), std::string::npos) << Print(*cpu);
        EXPECT_NE(any_text.find("compress r = @compress"), std::string::npos) << any_text;
    }
}

// CostModel::CPU_DEVICE keeps the compaction kernel of a mask whose compressed columns feed
// by-rows reductions (interpreted one by one between them, the group's by-rows kernels split:
// TPC-H Q1), and interprets the compaction of a mask whose columns only the interpreter reads.
TEST(CostModel, CpuDeviceKeepsCompactionsThatFeedByRowsReductions) {
    const std::string by_rows = "    m:? = @gt(b, 0:i32);\n    ka:? = @compress(m, a);\n    xc:? = @compress(m, c);\n    g:? = @group(ka);\n"
                                "    v:? = @values(g);\n    l:? = @each_right(@index, xc, v);\n    s:? = @each(@sum, l);\n    r:? = @raze(s);\n";
    const std::string only_interp = "    m:? = @gt(b, 0:i32);\n    xc:? = @compress(m, c);\n    r:? = @unique(xc);\n";
    for (const char *t : {"empty", "one", "big", "nulls", "long"}) {
        std::unique_ptr<hir::Program> keep;
        auto cpu = RunWithCosts(Program(t, {"c1", "i1", "i2"}, by_rows), CostModel::CPU_DEVICE, std::string("by rows ") + t, &keep);
        ASSERT_NE(cpu, nullptr);
        EXPECT_NE(Print(*cpu).find("compress xc = @compress"), std::string::npos) << Print(*cpu);
        EXPECT_EQ(Print(*cpu).find("interp xc = @compress"), std::string::npos) << Print(*cpu);
        auto other = RunWithCosts(Program(t, {"c1", "i1", "i2"}, only_interp), CostModel::CPU_DEVICE, std::string("interp ") + t, &keep);
        ASSERT_NE(other, nullptr);
        EXPECT_NE(Print(*other).find("interp xc = @compress"), std::string::npos) << Print(*other);
    }
}

// Compactions of one mask whose second column is fetched after a step that reads the first
// compaction's result (Q19's lineitem columns): the fetch moves up before the launch and both
// compactions share one kernel (which also computes the mask).  Held out of the fitting: the
// mask over a date and an i64 column, three compactions.
TEST(KernelForms, LateColumnFetchJoinsTheCompactionOfItsMask) {
    for (const char *t : {"empty", "one", "big", "nulls", "allnull"}) {
        const std::string body = "    m:? = @lt(a, 0:i32);\n    p:? = @compress(m, a);\n    u:? = @unique(p);\n"
                                 "    e:? = check_cast(@column_value(t0, `l1:sym), i64);\n    q:? = @compress(m, e);\n"
                                 "    w:? = @unique(q);\n    f:? = check_cast(@column_value(t0, `m1:sym), dec64<2>);\n"
                                 "    r:? = @compress(m, f);\n";
        std::unique_ptr<hir::Program> keep;
        auto o = RunWithCosts(Program(t, {"i1"}, body), CostModel::CPU_DEVICE, std::string("late fetch ") + t, &keep);
        ASSERT_NE(o, nullptr);
        EXPECT_EQ(o->kernels.size(), 1u) << Print(*o);
        const std::string held = "    m:? = @geq(a, 2000-01-01:date);\n    n:? = @lt(b, 0:i64);\n    k:? = @and(m, n);\n"
                                 "    p:? = @compress(k, b);\n    u:? = @unique(p);\n"
                                 "    e:? = check_cast(@column_value(t0, `i2:sym), i32);\n    q:? = @compress(k, e);\n"
                                 "    v:? = @unique(q);\n    r:? = @compress(k, a);\n";
        auto h = RunWithCosts(Program(t, {"d1", "l1"}, held), CostModel::CPU_DEVICE, std::string("late fetch held out ") + t, &keep);
        ASSERT_NE(h, nullptr);
        EXPECT_EQ(h->kernels.size(), 1u) << Print(*h);
    }
}

}  // namespace
}  // namespace rndn::codegen::testing
