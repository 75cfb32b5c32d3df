// TPC-H through the CUDA driver API: the 22 HorseIR programs (test/horseir/tpch) outlined under
// full fusion by src/codegen, their PTX modules handed to the driver as PTX (the driver compiles
// them: libcuda's JIT on a GPU, ptxas inside the emulated driver in CI) and run through
// codegen::Runner on the SF 0.01 data (build/tpch/sf0.01) with the runner's columns in host
// memory registered with the driver.  Every result equals the interpreter's and every kernel is
// launched.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
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
        auto t0 = std::chrono::steady_clock::now();
        Status st = dev_.RegisterHost(p, bytes);
        register_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (!st.ok() && error_.empty()) error_ = st.ToString();
    }
    void UnregisterMemory(const void *p) override {
        auto t0 = std::chrono::steady_clock::now();
        dev_.UnregisterHost(p);
        register_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }
    // time inside RegisterMemory and UnregisterMemory
    double register_seconds() const { return register_seconds_; }

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
    double seconds_ = 0, register_seconds_ = 0;
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

// Timing on a machine with a GPU (tools/gpu-check.sh runs it; never part of make test): every
// TPC-H program over $RNDN_TPCH_DIR (default build/tpch/sf0.01) on the interpreter, on the cpu
// device (-O2, all host threads) and on the GPU with rndn::sasscomp's cubins (group atomics as the
// cuda device inside PostgreSQL uses them), each result checked against the interpreter's.  Times
// are the best of two runs after a first run that compiles; "launches" is the time inside the
// driver's launches, "register" inside the driver's host registrations; the GPU runs with
// columns registered per launch and then with tracked allocations kept registered
// (cuda::Device::set_keep_registrations), then in the cells form of grouped reductions.
// $RNDN_TIMING_QUERIES limits the queries ("1,6").
}  // namespace

// cpu_runner.cpp (cpujit.h's names collide with the harness's).
std::shared_ptr<codegen::Runner> CpuDeviceRunner();

namespace {

double Ms(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

TEST(CudaTpch, DISABLED_TimesEveryProgram) {
    auto d = cpujit::testing::TheDevice();
    ASSERT_TRUE(d.ok()) << d.status().ToString();
    const char *env = std::getenv("RNDN_TPCH_DIR");
    std::string dir = env && *env ? env : "build/tpch/sf0.01";
    hir::DataRegistry data;
    auto t0 = std::chrono::steady_clock::now();
    Status ld = hir::LoadSchemaAndData(ReadAll("test/tpch/schema.sql"), dir, data);
    ASSERT_TRUE(ld.ok()) << ld.ToString();
    std::printf("[cuda] timing: %s loaded in %.1f s\n", dir.c_str(), Ms(t0) / 1000);
    std::fflush(stdout);
    DriverKernels kd(**d, /*own_compiler=*/true);
    codegen::Runner gpu(kd, /*warp_reduce=*/true);
    codegen::Runner gpu_cells(kd, /*warp_reduce=*/true);  // grouped reductions in the cells form
    gpu_cells.set_group_atomics(false);
    std::shared_ptr<codegen::Runner> cpu_runner = CpuDeviceRunner();
    codegen::Runner &cpu = *cpu_runner;
    std::printf("[cuda] device %s, pageable memory access: %s\n", (*d)->info().name.c_str(), (*d)->info().pageable_memory_access ? "yes" : "no");
    std::printf("[cuda] ms: interpreter, cpu device, GPU first run | GPU registering per launch: run, launches, (un)registering |"
                " GPU keeping registrations: run, launches, registering | the same with grouped reductions in the cells form |"
                " interp/GPU kept, cpu/GPU kept\n");
    std::printf("[cuda] %-4s %9s %9s %9s | %9s %9s %9s | %9s %9s %9s | %9s | %7s %7s %s\n", "q", "interp", "cpu", "first", "gpu", "launches",
                "register", "gpu kept", "launches", "register", "cells", "i/g", "c/g", "equal");
    double log_ig = 0, log_cg = 0, log_gk = 0;
    int n = 0, unequal = 0;
    // $RNDN_TIMING_QUERIES: the queries to time (e.g. "1,3,6"; default all 22)
    const char *only = std::getenv("RNDN_TIMING_QUERIES");
    const std::string list = only && *only ? "," + std::string(only) + "," : "";
    for (int q = 1; q <= 22; ++q) {
        if (!list.empty() && list.find("," + std::to_string(q) + ",") == std::string::npos) continue;
        std::string path = "test/horseir/tpch/q" + std::to_string(q) + ".hir";
        auto p = hir::ParseProgram(ReadAll(path), path);
        ASSERT_TRUE(p.ok()) << p.status().ToString();
        ASSERT_TRUE(hir::CheckProgram(*p).ok());
        hir::InterpretOptions opts;
        double ti = 1e30, tc = 1e30, tg = 1e30, tl = 0, tg0 = 0, treg = 0, tk = 1e30, tkl = 0, tkreg = 0;
        std::string want;
        for (int r = 0; r < 2; ++r) {
            auto t = std::chrono::steady_clock::now();
            auto v = hir::Interpret(*p, data, opts);
            ti = std::min(ti, Ms(t));
            ASSERT_TRUE(v.ok()) << "q" << q << ": " << v.status().ToString();
            want = hir::FormatValue(*v);
        }
        auto out = codegen::Outline(*p, codegen::FusionMode::FULL);
        ASSERT_TRUE(out.ok()) << out.status().ToString();
        bool equal = true;
        for (int r = 0; r < 3; ++r) {
            auto t = std::chrono::steady_clock::now();
            auto v = cpu.Run(*out, data, opts);
            if (r) tc = std::min(tc, Ms(t));
            ASSERT_TRUE(v.ok()) << "q" << q << " (cpu): " << v.status().ToString();
            if (hir::FormatValue(*v) != want) {
                equal = false;
                std::printf("[cuda] q%d: the cpu device differs\n", q);
            }
        }
        // the GPU: a compiling run, two with every column registered for each launch only, two
        // with tracked allocations kept registered (cuda::Device::set_keep_registrations)
        for (int r = 0; r < 5; ++r) {
            const bool keep = r >= 3;
            (*d)->set_keep_registrations(keep);
            double k0 = kd.seconds(), g0 = kd.register_seconds();
            auto t = std::chrono::steady_clock::now();
            auto v = gpu.Run(*out, data, opts);
            double ms = Ms(t);
            if (!v.ok()) {
                std::printf("[cuda] q%d (gpu): %s\n", q, v.status().ToString().c_str());
                equal = false;
                break;
            }
            if (r == 0) tg0 = ms;
            else if (!keep && ms < tg) tg = ms, tl = (kd.seconds() - k0) * 1000, treg = (kd.register_seconds() - g0) * 1000;
            else if (keep && ms < tk) tk = ms, tkl = (kd.seconds() - k0) * 1000, tkreg = (kd.register_seconds() - g0) * 1000;
            if (hir::FormatValue(*v) != want) {
                if (equal) std::printf("[cuda] q%d: the GPU differs from the interpreter\n", q);
                equal = false;
            }
        }
        double tcells = 1e30;  // registrations kept; the first run compiles the cells form's modules
        for (int r = 0; r < 3 && equal; ++r) {
            auto t = std::chrono::steady_clock::now();
            auto v = gpu_cells.Run(*out, data, opts);
            double ms = Ms(t);
            if (!v.ok() || hir::FormatValue(*v) != want) {
                std::printf("[cuda] q%d (gpu, cells form): %s\n", q, v.ok() ? "differs from the interpreter" : v.status().ToString().c_str());
                equal = false;
            }
            if (r) tcells = std::min(tcells, ms);
        }
        EXPECT_TRUE(equal) << "q" << q;
        if (!equal) ++unequal;
        if (tg < 1e30 && tk < 1e30) {
            log_ig += std::log(ti / tk), log_cg += std::log(tc / tk), log_gk += std::log(tg / tk), ++n;
        }
        std::printf("[cuda] q%-3d %9.1f %9.1f %9.1f | %9.1f %9.1f %9.1f | %9.1f %9.1f %9.1f | %9.1f | %7.2f %7.2f %s\n", q, ti, tc, tg0,
                    tg, tl, treg, tk, tkl, tkreg, tcells, ti / tk, tc / tk, equal ? "yes" : "NO");
        std::fflush(stdout);
    }
    std::printf("[cuda] timing: geomean interp/gpu %.2f, cpu/gpu %.2f (registrations kept), per-launch/kept %.2f, over %d programs;"
                " %d differ; modules: %d ours, %d JIT (%s); %zu allocations (%.0f MB) kept registered\n",
                n ? std::exp(log_ig / n) : 0.0, n ? std::exp(log_cg / n) : 0.0, n ? std::exp(log_gk / n) : 0.0, n, unequal, kd.ours(),
                kd.jit(), kd.first_refusal().c_str(), (*d)->kept_registrations(), (*d)->kept_bytes() / 1e6);
}

}  // namespace
}  // namespace rndn::cuda::testing
