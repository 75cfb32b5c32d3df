// TPC-H programs (test/horseir/tpch/qN.hir) on SF 0.01 data against PostgreSQL's own output
// (test/horseir/tpch/expected/qN.out, produced by PostgreSQL 15 with rndn disabled:
//  psql -A -F'|' -P footer=off -f test/tpch/queries/qN.sql; regenerate with
//  test/horseir/tpch/make_expected.sh).
#include <dirent.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "test_util.h"

namespace rndn::hir::testing {
namespace {

const char *kData = "build/tpch/sf0.01";

std::string ReadAll(const std::string &path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

DataRegistry *Registry(std::string *why) {
    static DataRegistry reg;
    static bool loaded = false;
    static std::string error;
    if (!loaded && error.empty()) {
        std::ifstream probe(std::string(kData) + "/lineitem.tbl");
        if (!probe) {
            error = std::string("no SF 0.01 data in ") + kData + " (run tools/tpch.sh gen 0.01)";
        } else {
            Status st = LoadSchemaAndData(ReadAll("test/tpch/schema.sql"), kData, reg);
            if (!st.ok()) error = "loading failed: " + st.ToString();
            else loaded = true;
        }
    }
    *why = error;
    return loaded ? &reg : nullptr;
}

TEST(Tpch, ProgramsMatchPostgres) {
    std::string why;
    DataRegistry *reg = Registry(&why);
    if (!reg) {
        std::printf("SKIPPED: %s\n", why.c_str());
        GTEST_SKIP() << why;
    }
    int checked = 0;
    for (int q = 1; q <= 22; ++q) {
        std::string hir = "test/horseir/tpch/q" + std::to_string(q) + ".hir";
        std::string exp = "test/horseir/tpch/expected/q" + std::to_string(q) + ".out";
        std::ifstream a(hir), b(exp);
        if (!a || !b) {
            ADD_FAILURE() << "missing " << (a ? exp : hir) << ": all 22 TPC-H programs are checked";
            continue;
        }
        auto p = ParseProgram(ReadAll(hir), hir);
        ASSERT_TRUE(p.ok()) << p.status().message();
        ASSERT_TRUE(CheckProgram(*p).ok()) << hir << ": " << CheckProgram(*p).message();
        InterpretOptions opts;
        auto r = Interpret(*p, *reg, opts);
        ASSERT_TRUE(r.ok()) << hir << ": " << r.status().ToString();
        EXPECT_EQ(FormatValue(*r), ReadAll(exp)) << hir;
        ++checked;
    }
    std::printf("checked %d TPC-H programs against PostgreSQL output\n", checked);
    EXPECT_EQ(checked, 22);
}

std::vector<std::vector<std::string>> Rows(const std::string &text) {
    std::vector<std::vector<std::string>> rows;
    std::stringstream ss(text);
    std::string line;
    while (std::getline(ss, line)) {
        std::vector<std::string> f;
        size_t p = 0;
        for (;;) {
            size_t q = line.find('|', p);
            f.push_back(line.substr(p, q == std::string::npos ? std::string::npos : q - p));
            if (q == std::string::npos) break;
            p = q + 1;
        }
        rows.push_back(f);
    }
    return rows;
}

// Programs in rNdN's own dialect (f64 arithmetic on the price columns, AVG as @div(sum, len))
// against PostgreSQL's exact answers, numerically (relative tolerance 1e-9).
TEST(Tpch, RndnDialectProgramsMatchPostgresNumerically) {
    std::string why;
    DataRegistry *reg = Registry(&why);
    if (!reg) {
        std::printf("SKIPPED: %s\n", why.c_str());
        GTEST_SKIP() << why;
    }
    for (int q : {1, 6}) {
        std::string hir = "test/horseir/rndn_style/q" + std::to_string(q) + ".hir";
        auto p = ParseProgram(ReadAll(hir), hir);
        ASSERT_TRUE(p.ok()) << p.status().message();
        ASSERT_TRUE(CheckProgram(*p).ok());
        InterpretOptions opts;
        auto r = Interpret(*p, *reg, opts);
        ASSERT_TRUE(r.ok()) << r.status().ToString();
        auto got = Rows(FormatValue(*r));
        auto want = Rows(ReadAll("test/horseir/tpch/expected/q" + std::to_string(q) + ".out"));
        ASSERT_EQ(got.size(), want.size()) << hir;
        for (size_t i = 0; i < got.size(); ++i) {
            ASSERT_EQ(got[i].size(), want[i].size());
            for (size_t j = 0; j < got[i].size(); ++j) {
                char *e1 = nullptr, *e2 = nullptr;
                double a = std::strtod(got[i][j].c_str(), &e1), b = std::strtod(want[i][j].c_str(), &e2);
                if (i > 0 && *e1 == 0 && *e2 == 0 && !got[i][j].empty())
                    EXPECT_NEAR(a, b, 1e-9 * std::max(1.0, std::fabs(b))) << hir << " row " << i << " col " << j;
                else
                    EXPECT_EQ(got[i][j], want[i][j]) << hir << " row " << i << " col " << j;
            }
        }
    }
}

}  // namespace
}  // namespace rndn::hir::testing
