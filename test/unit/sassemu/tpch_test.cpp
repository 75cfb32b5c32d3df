// TPC-H through the SASS emulator: the 22 HorseIR programs (test/horseir/tpch) outlined under full
// fusion by src/codegen, their PTX kernels compiled by ptxas -O3 for sm_80, sm_90, sm_100 and
// sm_120 and run in
// rndn::sassemu on the SF 0.01 data (build/tpch/sf0.01, tools/tpch.sh gen 0.01) through
// codegen::Runner (the warp-shuffle reductions of the GPU form); every result equals the
// interpreter's, every kernel is launched (a kernel redone on the interpreter after a flag must be
// redone on the cpu device too), and ptxas's control codes show no hazard.
// Prints the time per architecture and the emulator's warp-instructions per second per core.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "cpujit/cpujit.h"
#include "ptxas_kernels.h"

namespace rndn::sassemu::testing {
namespace {

std::string ReadAll(const std::string &path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::unique_ptr<hir::Program> LoadQuery(int q) {
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

std::string Ptxas() {
    const char *env = std::getenv("PTXAS");
    if (env && *env) return env;
    return access("/usr/local/cuda/bin/ptxas", X_OK) == 0 ? "/usr/local/cuda/bin/ptxas" : "";
}

class TpchEmuTest : public ::testing::TestWithParam<std::string> {};

TEST_P(TpchEmuTest, EveryProgramEqualsTheInterpreterOnSf001) {
    std::string why;
    hir::DataRegistry *data = Data(&why);
    if (!data) {
        std::printf("SKIPPED: %s\n", why.c_str());
        GTEST_SKIP() << why;
    }
    std::string ptxas = Ptxas();
    if (ptxas.empty()) {
        std::printf("SKIPPED: no ptxas\n");
        GTEST_SKIP() << "no ptxas";
    }
    const std::string arch = GetParam();
    PtxasKernels kd(ptxas, arch, 2, /*check_hazards=*/true);
    codegen::Runner runner(kd, /*warp_reduce=*/true);
    // Grouped reductions by rows in the atomic GPU form, the form of the TPC-H probes that give
    // the ISA tables ptxas's code for these kernels (test/isa/probe/tpch_q*.ptx).  The cells form,
    // which the cuda device runs, runs compiled by rndn's own compiler in test/unit/cuda; ptxas's
    // sm_120 code for it holds forms the tables lack (issue 15: a UIADD3.X whose register fields
    // the probes' examples do not vary, and sm_120's 8-bit uniform-register fields).
    auto t0 = std::chrono::steady_clock::now();
    int kernels = 0, redone = 0;
    for (int q = 1; q <= 22; ++q) {
        auto p = LoadQuery(q);
        ASSERT_NE(p, nullptr) << "q" << q;
        hir::InterpretOptions opts;
        auto want = hir::Interpret(*p, *data, opts);
        ASSERT_TRUE(want.ok()) << want.status().ToString();
        auto out = codegen::Outline(*p, codegen::FusionMode::FULL);
        ASSERT_TRUE(out.ok()) << out.status().ToString();
        codegen::RunStats st;
        auto got = runner.Run(*out, *data, opts, &st);
        ASSERT_TRUE(got.ok()) << "q" << q << " " << arch << ": " << got.status().ToString();
        EXPECT_EQ(hir::FormatValue(*got), hir::FormatValue(*want)) << "q" << q << " " << arch;
        EXPECT_EQ(st.kernels_launched, static_cast<int>(out->kernels.size())) << "q" << q << ": every kernel launched";
        if (st.kernels_redone > 0) {
            // a kernel re-run on the interpreter after a flag (overflow, a decimal outside the
            // fast path): the cpu device, running the same PTX, must raise the same flags
            static cpujit::Device cpu(2);
            codegen::Runner cpu_runner(cpu, /*warp_reduce=*/true);
            cpu_runner.set_group_atomics(false);
            codegen::RunStats cst;
            auto again = cpu_runner.Run(*out, *data, opts, &cst);
            ASSERT_TRUE(again.ok()) << again.status().ToString();
            EXPECT_EQ(st.kernels_redone, cst.kernels_redone) << "q" << q << ": kernels redone, emulator vs cpu device";
            redone += st.kernels_redone;
        }
        kernels += st.kernels_launched;
    }
    double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::string hz;
    for (size_t i = 0; i < kd.hazards().size() && i < 30; ++i) hz += "\n  " + kd.hazards()[i];
    EXPECT_TRUE(kd.hazards().empty()) << kd.hazards().size() << " hazard(s) in ptxas's code:" << hz;
    std::printf("[%s] TPC-H SF 0.01, 22 programs: %d kernels launched (%d redone, as on the cpu device), %d modules by ptxas; %.1f s in all, %.1f s in the "
                "emulator (%u workers, hazard checking on): %.2f M warp instructions, %.2f M per second per worker\n",
                arch.c_str(), kernels, redone, kd.compiled(), total, kd.seconds(), kd.workers(), kd.warp_instructions() / 1e6,
                kd.warp_instructions() / 1e6 / std::max(1e-9, kd.seconds() * kd.workers()));
}

INSTANTIATE_TEST_SUITE_P(Sass, TpchEmuTest, ::testing::Values(std::string("sm_80"), std::string("sm_90"), std::string("sm_100"), std::string("sm_120")),
                         [](const auto &info) { return info.param; });

}  // namespace
}  // namespace rndn::sassemu::testing
