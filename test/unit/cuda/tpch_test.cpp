// TPC-H through the CUDA driver API: the 22 HorseIR programs (test/horseir/tpch) outlined under
// full fusion by src/codegen, their PTX modules handed to the driver as PTX (the driver compiles
// them: libcuda's JIT on a GPU, ptxas inside the emulated driver in CI) and run through
// codegen::Runner on the SF 0.01 data (build/tpch/sf0.01) with the runner's columns in host
// memory registered with the driver.  Every result equals the interpreter's and every kernel is
// launched.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>

#include "codegen/codegen.h"
#include "cuda/harness.h"
#include "horseir/horseir.h"
#include "ptx/ptx.h"
#include "sasscomp/sasscomp.h"

namespace rndn::cuda::testing {
namespace {

std::string ReadAll(const std::string &path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// Modules from the driver's PTX JIT, or (own_compiler) from rndn::sasscomp for the device's
// architecture, with the JIT for a module our compiler cannot compile yet (counted).
class DriverKernels final : public codegen::KernelDevice {
public:
    explicit DriverKernels(Device &dev, bool own_compiler = false) : dev_(dev), own_(own_compiler) {}
    Expected<std::shared_ptr<const void>> LoadModule(const std::string &ptx, const std::function<bool()> *) override {
        auto it = cache_.find(ptx);
        if (it != cache_.end()) return std::shared_ptr<const void>(it->second);
        std::vector<uint8_t> image;
        if (own_) {
            auto cubin = Compile(ptx);
            if (cubin.ok()) image = std::move(*cubin), ++ours_;
            else ++jit_, first_refusal_ = first_refusal_.empty() ? cubin.status().message() : first_refusal_;
        }
        if (image.empty()) {
            image.assign(ptx.begin(), ptx.end());
            image.push_back(0);
        }
        RNDN_ASSIGN_OR_RETURN(std::shared_ptr<const Module> m, dev_.LoadModule(image));
        cache_[ptx] = m;
        return std::shared_ptr<const void>(std::move(m));
    }
    int ours() const { return ours_; }
    int jit() const { return jit_; }
    const std::string &first_refusal() const { return first_refusal_; }
    const void *FindKernel(const void *module, const std::string &name) override {
        return static_cast<const Module *>(module)->Find(name);
    }
    Status Launch(const void *kernel, uint32_t grid, uint32_t block, const std::vector<std::vector<uint8_t>> &args,
                  const std::function<bool()> *) override {
        double s = 0;
        Status st = dev_.Launch(*static_cast<const Kernel *>(kernel), {grid}, {block}, 0, args, &s);
        seconds_ += s;
        ++launches_;
        return st;
    }
    void RegisterMemory(const void *p, size_t bytes) override {
        Status st = dev_.RegisterHost(p, bytes);
        if (!st.ok() && error_.empty()) error_ = st.ToString();
    }
    void UnregisterMemory(const void *p) override { dev_.UnregisterHost(p); }

    double seconds() const { return seconds_; }
    int launches() const { return launches_; }
    int modules() const { return (int)cache_.size(); }
    const std::string &error() const { return error_; }

private:
    Expected<std::vector<uint8_t>> Compile(const std::string &ptx) {
        RNDN_ASSIGN_OR_RETURN(ptx::Module m, ptx::ParseModule(ptx, "tpch.ptx"));
        RNDN_ASSIGN_OR_RETURN(sass::Arch a, sass::ParseArch(dev_.info().arch()));
        RNDN_ASSIGN_OR_RETURN(std::vector<sasscomp::CompiledKernel> ks, sasscomp::CompileModule(m, a));
        return sasscomp::BuildCubin(ks, a);
    }
    Device &dev_;
    bool own_ = false;
    int ours_ = 0, jit_ = 0;
    std::string first_refusal_;
    std::map<std::string, std::shared_ptr<const Module>> cache_;
    double seconds_ = 0;
    int launches_ = 0;
    std::string error_;
};

void RunTpch(bool own_compiler) {
    auto d = cpujit::testing::TheDevice();
    ASSERT_TRUE(d.ok()) << d.status().ToString();
    hir::DataRegistry data;
    ASSERT_TRUE(std::ifstream("build/tpch/sf0.01/lineitem.tbl").good()) << "no SF 0.01 data (tools/tpch.sh gen 0.01)";
    Status ld = hir::LoadSchemaAndData(ReadAll("test/tpch/schema.sql"), "build/tpch/sf0.01", data);
    ASSERT_TRUE(ld.ok()) << ld.ToString();
    DriverKernels kd(**d, own_compiler);
    codegen::Runner runner(kd, /*warp_reduce=*/true);
    // Known gap (issue 15): ptxas's SASS for the atomic GROUPREDUCE form holds instructions the
    // emulator's decoder (behind the emulated driver) does not know yet, so grouped reductions run in the cells form here; the
    // atomic form runs on the cpu device in codegen's forms_test.
    runner.set_group_atomics(false);
    auto t0 = std::chrono::steady_clock::now();
    int kernels = 0;
    for (int q = 1; q <= 22; ++q) {
        std::string path = "test/horseir/tpch/q" + std::to_string(q) + ".hir";
        auto p = hir::ParseProgram(ReadAll(path), path);
        ASSERT_TRUE(p.ok()) << p.status().ToString();
        ASSERT_TRUE(hir::CheckProgram(*p).ok());
        hir::InterpretOptions opts;
        auto want = hir::Interpret(*p, data, opts);
        ASSERT_TRUE(want.ok()) << want.status().ToString();
        auto out = codegen::Outline(*p, codegen::FusionMode::FULL);
        ASSERT_TRUE(out.ok()) << out.status().ToString();
        codegen::RunStats st;
        auto got = runner.Run(*out, data, opts, &st);
        ASSERT_TRUE(got.ok()) << "q" << q << ": " << got.status().ToString();
        ASSERT_TRUE(kd.error().empty()) << kd.error();
        EXPECT_EQ(hir::FormatValue(*got), hir::FormatValue(*want)) << "q" << q;
        EXPECT_EQ(st.kernels_launched, static_cast<int>(out->kernels.size())) << "q" << q << ": every kernel launched";
        kernels += st.kernels_launched;
    }
    double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("[cuda] TPC-H SF 0.01 on %s (%s): 22 programs, %d kernels launched, %d modules (%s); %.2f s in all, %.3f s in launches\n",
                (*d)->info().name.c_str(), (*d)->info().arch().c_str(), kernels, kd.modules(),
                own_compiler ? (std::to_string(kd.ours()) + " compiled by rndn::sasscomp, " + std::to_string(kd.jit()) +
                                " by the driver's PTX JIT; first refusal: " + kd.first_refusal()).c_str()
                             : "the driver's PTX JIT",
                total, kd.seconds());
    if (own_compiler) EXPECT_GT(kd.ours(), 0) << "no module compiled by our compiler";
}

TEST(CudaTpch, EveryProgramEqualsTheInterpreterOnSf001) { RunTpch(false); }

// The same with our own PTX -> SASS compiler's cubins wherever it compiles a module (on the
// emulated driver every launch is also checked for hazards).
TEST(CudaTpch, OurCompilersModulesEqualTheInterpreterOnSf001) { RunTpch(true); }

}  // namespace
}  // namespace rndn::cuda::testing
