// The 22 TPC-H programs (test/horseir/tpch): outlined under none/flow/full, PTX verified by our
// verifier and accepted by NVIDIA's ptxas for every listed architecture, and run hybrid (kernels on
// the cpu device) on the SF 0.01 data with results equal to the interpreter's and to PostgreSQL's
// (test/horseir/tpch/expected).  Prints kernel counts and compiled/interpreted statements.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "codegen/codegen.h"
#include "codegen/codegen_test_util.h"
#include "cpujit/cpujit.h"

namespace rndn::codegen::testing {
namespace {

std::unique_ptr<hir::Program> Load(int q) {
    std::string path = "test/horseir/tpch/q" + std::to_string(q) + ".hir";
    auto p = hir::ParseProgram(ReadAll(path), path);
    if (!p.ok()) return nullptr;
    auto prog = std::make_unique<hir::Program>(std::move(*p));
    if (!hir::CheckProgram(*prog).ok()) return nullptr;
    return prog;
}

hir::DataRegistry *Data(std::string *why) {
    static hir::DataRegistry reg;
    static int state = 0;  // 0 unknown, 1 loaded, 2 missing
    static std::string error;
    if (state == 0) {
        std::ifstream probe("build/tpch/sf0.01/lineitem.tbl");
        if (!probe) {
            state = 2;
            error = "no SF 0.01 data in build/tpch/sf0.01 (run tools/tpch.sh gen 0.01)";
        } else {
            Status st = hir::LoadSchemaAndData(ReadAll("test/tpch/schema.sql"), "build/tpch/sf0.01", reg);
            state = st.ok() ? 1 : 2;
            if (!st.ok()) error = st.ToString();
        }
    }
    *why = error;
    return state == 1 ? &reg : nullptr;
}

TEST(TpchOutline, KernelCountsAndQ6IsOneKernel) {
    std::printf("query  kernels none/flow/full (+ group library kernels)  statements compiled/interpreted (full)\n");
    int total_compiled = 0, groups = 0;
    for (int q = 1; q <= 22; ++q) {
        auto p = Load(q);
        ASSERT_NE(p, nullptr) << "q" << q;
        int counts[3];
        int i = 0;
        for (FusionMode m : {FusionMode::NONE, FusionMode::FLOW, FusionMode::FULL}) {
            auto out = Outline(*p, m);
            ASSERT_TRUE(out.ok()) << out.status().ToString();
            ASSERT_TRUE(Verify(*out).ok()) << "q" << q << " " << Verify(*out).ToString();
            // Table 7.3 counts exclude library kernels (group): compare the others
            int library = 0;
            for (const auto &k : out->kernels) library += k.library();
            counts[i++] = static_cast<int>(out->kernels.size()) - library;
            if (m == FusionMode::FULL) {
                std::printf("q%-5d %4d %4d %4d (+%d)       %4d / %d\n", q, counts[0], counts[1], counts[2], library, out->compiled_statements,
                            out->interpreted_statements);
                total_compiled += out->compiled_statements;
                groups += library;
                EXPECT_GE(out->kernels.size(), 1u) << "q" << q << " has no kernel";
                // fusion never adds kernels
                EXPECT_LE(counts[2], counts[1]);
                EXPECT_LE(counts[1], counts[0]);
            }
        }
        if (q == 6) {
            EXPECT_EQ(counts[2], 1) << "TPC-H Q6 must be exactly one kernel under full fusion";
        }
        // R-O8: no more kernels under full than the thesis's Table 7.3 for q1-q11
        static const int kThesisFull[] = {0, 5, 18, 9, 9, 13, 1, 19, 17, 11, 9, 9};
        if (q <= 11) {
            EXPECT_LE(counts[2], kThesisFull[q]) << "q" << q;
        }
    }
    std::printf("full mode: %d statements in kernels, %d group kernels over the 22 programs\n", total_compiled, groups);
    // Q1's @group(@list(returnflag, linestatus)) is a hash group kernel
    auto q1 = Load(1);
    ASSERT_NE(q1, nullptr);
    auto o1 = Outline(*q1, FusionMode::FULL);
    ASSERT_TRUE(o1.ok());
    int q1_groups = 0;
    for (const auto &k : o1->kernels) q1_groups += k.group >= 0 && k.algorithm == "hash";
    EXPECT_EQ(q1_groups, 1) << Print(*o1);
    EXPECT_NE(Print(*o1).find("library group(hash)"), std::string::npos);
}

TEST(TpchOutline, PrintedFormNamesEveryStep) {
    auto p = Load(6);
    ASSERT_NE(p, nullptr);
    auto out = Outline(*p, FusionMode::FULL);
    ASSERT_TRUE(out.ok());
    std::string text = Print(*out);
    EXPECT_NE(text.find("launch k0 over g0 (rows(t0))"), std::string::npos) << text;
    EXPECT_NE(text.find("compress t14 = @compress(t13, t4)"), std::string::npos) << text;
    EXPECT_NE(text.find("reduce t17 = @sum(t16)"), std::string::npos) << text;
    EXPECT_NE(text.find("outputs: t17(sum)"), std::string::npos) << text;
}

// Same location the ptx tests use.
const char *kPtxas = "/usr/local/cuda/bin/ptxas";

TEST(TpchPtx, VerifiedAndAcceptedByPtxasOnEveryArch) {
    if (access(kPtxas, X_OK) != 0) {
        std::printf("SKIPPED: no ptxas at %s\n", kPtxas);
        GTEST_SKIP() << "no ptxas";
    }
    char tmpl[] = "/tmp/rndn-codegen-XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    std::string dir = tmpl;
    int accepted = 0;
    for (int q = 1; q <= 22; ++q) {
        auto p = Load(q);
        ASSERT_NE(p, nullptr);
        auto out = Outline(*p, FusionMode::FULL);
        ASSERT_TRUE(out.ok());
        for (const char *arch : {"sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "sm_120"}) {
            PtxOptions po;
            po.target = arch;
            po.warp_reduce = q % 3 != 0;  // both reduction forms
            // half the queries with every input nullable: the validity code paths
            po.nullable.resize(out->kernels.size());
            for (size_t k = 0; k < out->kernels.size(); ++k) po.nullable[k].assign(out->kernels[k].inputs.size(), q % 2 == 0);
            auto m = GeneratePtx(*out, po);
            ASSERT_TRUE(m.ok()) << "q" << q << " " << arch << ": " << m.status().ToString();
            std::string file = dir + "/q" + std::to_string(q) + "_" + arch + ".ptx";
            std::ofstream(file) << ptx::Print(*m);
            std::string msg;
            int rc = RunShell(std::string(kPtxas) + " -arch=" + arch + " " + file + " -o " + file + ".cubin", &msg);
            EXPECT_EQ(rc, 0) << "ptxas rejected q" << q << " for " << arch << ":\n" << msg;
            if (rc == 0) ++accepted;
        }
    }
    std::string ignore;
    RunShell("rm -rf " + dir, &ignore);
    std::printf("ptxas accepted %d of %d modules (22 queries x 6 architectures)\n", accepted, 22 * 6);
}

TEST(TpchHybrid, EveryProgramEqualsTheInterpreterOnSf001) {
    std::string why;
    hir::DataRegistry *data = Data(&why);
    if (!data) {
        std::printf("SKIPPED: %s\n", why.c_str());
        GTEST_SKIP() << why;
    }
    static cpujit::Device dev(2);
    Runner runner(dev);
    std::printf("query  mode  kernels launched re-run  statements compiled/interpreted\n");
    int total_compiled = 0, total_interp = 0;
    for (int q = 1; q <= 22; ++q) {
        auto p = Load(q);
        ASSERT_NE(p, nullptr);
        hir::InterpretOptions opts;
        auto want = hir::Interpret(*p, *data, opts);
        ASSERT_TRUE(want.ok()) << want.status().ToString();
        std::string want_text = hir::FormatValue(*want);
        EXPECT_EQ(want_text, ReadAll("test/horseir/tpch/expected/q" + std::to_string(q) + ".out")) << "q" << q;
        for (FusionMode m : {FusionMode::FULL, FusionMode::NONE}) {
            // the unfused schedule on a few programs (time): kernels per statement, compactions
            if (m == FusionMode::NONE && q != 1 && q != 3 && q != 6 && q != 14 && q != 19) continue;
            auto out = Outline(*p, m);
            ASSERT_TRUE(out.ok());
            RunStats st;
            auto got = runner.Run(*out, *data, opts, &st);
            ASSERT_TRUE(got.ok()) << "q" << q << ": " << got.status().ToString();
            EXPECT_EQ(hir::FormatValue(*got), want_text) << "q" << q << " mode " << FusionModeName(m);
            // every kernel of the schedule was launched (no silent interpretation)
            EXPECT_EQ(st.kernels_launched, static_cast<int>(out->kernels.size())) << "q" << q;
            std::printf("q%-5d %-5s %4zu %8d %6d  %4d / %d\n", q, FusionModeName(m), out->kernels.size(), st.kernels_launched,
                        st.kernels_redone, st.statements_compiled, st.statements_interpreted);
            if (m == FusionMode::FULL) {
                total_compiled += st.statements_compiled;
                total_interp += st.statements_interpreted;
                if (q == 6) {
                    EXPECT_EQ(st.kernels_redone, 0);
                    EXPECT_EQ(st.statements_compiled, 13);
                }
            }
        }
    }
    std::printf("full mode: %d statements compiled, %d interpreted over the 22 programs\n", total_compiled, total_interp);
}

// Runner::set_defer_compiles: a kernel whose module is not compiled yet and whose work is
// within the limit runs on the interpreter while the device compiles it in the background; once
// compiled (WaitForUpgrades), the same program launches every kernel.  Over the limit, the run
// waits for the compile as before.  Same results throughout.
TEST(TpchHybrid, DeferredCompilesRunInterpretedThenLaunch) {
    std::string why;
    hir::DataRegistry *data = Data(&why);
    if (!data) {
        std::printf("SKIPPED: %s\n", why.c_str());
        GTEST_SKIP() << why;
    }
    cpujit::Device dev(2);  // its own module cache: nothing compiled yet
    for (int q : {1, 3, 6, 13}) {
        auto p = Load(q);
        ASSERT_NE(p, nullptr);
        hir::InterpretOptions opts;
        auto want = hir::Interpret(*p, *data, opts);
        ASSERT_TRUE(want.ok());
        auto out = Outline(*p, FusionMode::FULL);
        ASSERT_TRUE(out.ok());
        Runner runner(dev);
        runner.set_defer_compiles(int64_t{1} << 40);
        RunStats first;
        auto got = runner.Run(*out, *data, opts, &first);
        ASSERT_TRUE(got.ok()) << got.status().ToString();
        EXPECT_EQ(hir::FormatValue(*got), hir::FormatValue(*want)) << "q" << q << " interpreted while compiling";
        EXPECT_EQ(first.kernels_launched, 0) << "q" << q;
        EXPECT_GT(first.kernels_deferred, 0) << "q" << q;
        EXPECT_EQ(first.kernels_redone + first.kernels_deferred, static_cast<int>(out->kernels.size())) << "q" << q;
        dev.WaitForUpgrades();
        RunStats second;
        got = runner.Run(*out, *data, opts, &second);
        ASSERT_TRUE(got.ok()) << got.status().ToString();
        EXPECT_EQ(hir::FormatValue(*got), hir::FormatValue(*want)) << "q" << q << " compiled";
        EXPECT_EQ(second.kernels_deferred, 0) << "q" << q;
        EXPECT_EQ(second.kernels_launched, static_cast<int>(out->kernels.size())) << "q" << q;
        std::printf("q%-3d %zu kernels: first run %d deferred, %d re-run (their groups interpreted); then %d launched\n", q,
                    out->kernels.size(), first.kernels_deferred, first.kernels_redone, second.kernels_launched);
    }
    // work over the limit: compiled before the run, as without deferral
    auto p = Load(14);
    ASSERT_NE(p, nullptr);
    auto out = Outline(*p, FusionMode::FULL);
    ASSERT_TRUE(out.ok());
    Runner runner(dev);
    runner.set_defer_compiles(1);
    RunStats st;
    hir::InterpretOptions opts;
    ASSERT_TRUE(runner.Run(*out, *data, opts, &st).ok());
    EXPECT_EQ(st.kernels_deferred, 0);
    EXPECT_EQ(st.kernels_launched, static_cast<int>(out->kernels.size()));
}

}  // namespace
}  // namespace rndn::codegen::testing
