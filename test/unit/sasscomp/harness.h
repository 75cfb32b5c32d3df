// Test harness for rndn's PTX -> SASS compiler: the cpu device's corpus tests (with their C++
// references) compile against this file.  K(file, kernel) compiles build/corpus/<arch>/<file>.ptx
// (the kernel alone) with rndn::sasscomp and loads the cubin into the SASS emulator; every launch
// checks the control codes (zero hazards required).  Tests whose kernels the compiler does not
// support yet are excluded by name (kUnsupportedTests in corpus_exec_test.cpp) -- and a test
// there checks that they do still fail to compile, so the list cannot go stale.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "common/corpus_util.h"
#include "ptx/ptx.h"
#include "sassemu/sassemu.h"
#include "sasscomp/sasscomp.h"

namespace rndn::cpujit {
using sassemu::Arg;
using sassemu::Device;
using sassemu::Dim3;
using sassemu::Kernel;
using sassemu::LaunchConfig;
using sassemu::Module;
}  // namespace rndn::cpujit

namespace rndn::sasscomp::testing {

// Compiles one corpus kernel for an architecture into a cubin.
inline Expected<std::vector<uint8_t>> CompileCorpusKernel(const std::string &arch, const std::string &file, const std::string &kernel) {
    std::string path = "build/corpus/" + arch + "/" + file + ".ptx";
    std::string text = rndn::testing::ReadText(path);
    if (text.empty()) return Status::Internal("missing corpus file " + path + " (run make corpus)");
    RNDN_ASSIGN_OR_RETURN(ptx::Module m, ptx::ParseModule(text, path));
    RNDN_ASSIGN_OR_RETURN(sass::Arch a, sass::ParseArch(arch));
    RNDN_ASSIGN_OR_RETURN(std::vector<CompiledKernel> ks, CompileModule(m, a, kernel));
    return BuildCubin(ks, a);
}

}  // namespace rndn::sasscomp::testing

namespace rndn::cpujit::testing {

using rndn::testing::Blocks;
using rndn::testing::SameD;
using rndn::testing::SameF;
using rndn::testing::UlpD;
using rndn::testing::UlpF;

inline Device &DeviceFor(unsigned threads) {
    static std::map<unsigned, std::unique_ptr<Device>> devs;
    auto &d = devs[threads];
    if (!d) d = std::make_unique<Device>(threads);
    return *d;
}

inline Expected<std::shared_ptr<const Module>> LoadCompiled(Device &dev, const std::string &arch, const std::string &file, const std::string &kernel) {
    static std::map<std::string, std::shared_ptr<const Module>> cache;
    std::string key = arch + "/" + file + "/" + kernel;
    auto it = cache.find(key);
    if (it != cache.end()) return it->second;
    RNDN_ASSIGN_OR_RETURN(std::vector<uint8_t> bytes, sasscomp::testing::CompileCorpusKernel(arch, file, kernel));
    auto m = dev.LoadModule(bytes);
    if (m.ok()) cache[key] = *m;
    return m;
}

// Tests of the cpu device's corpus suites (test/unit/cpujit/corpus_*_test.cpp, compiled against
// this harness by corpus_*_exec_test.cpp) that launch a kernel rndn::sasscomp cannot compile yet,
// with that kernel and the architectures where it fails ("" = every architecture): those tests are
// skipped there, and exec_test.cpp's KnownUnsupportedStillFail requires that the named kernel still
// fails to compile on each listed architecture and, for an entry naming architectures, compiles on
// the others (so the list only shrinks and cannot hide a kernel that compiles).
struct UnsupportedTest {
    std::string test, kernel, archs;  // archs: space-separated, "" = all of kAllArchs
    bool On(const std::string &arch) const { return archs.empty() || (" " + archs + " ").find(" " + arch + " ") != std::string::npos; }
};
inline const std::vector<std::string> &AllArchs() {
    static const std::vector<std::string> a = {"sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "sm_100", "sm_120"};
    return a;
}
inline const std::vector<UnsupportedTest> &UnsupportedTests() {
    static const std::vector<UnsupportedTest> m = {
    };
    return m;
}
inline const UnsupportedTest *FindUnsupported(const std::string &test, const std::string &arch) {
    for (const UnsupportedTest &u : UnsupportedTests())
        if (u.test == test && u.On(arch)) return &u;
    return nullptr;
}

class CorpusTest : public ::testing::TestWithParam<std::tuple<std::string, unsigned>>,
                   public rndn::testing::CorpusData<CorpusTest> {
protected:
    void SetUp() override {
        const auto *ti = ::testing::UnitTest::GetInstance()->current_test_info();
        std::string suite = ti->test_suite_name(), name = ti->name();
        suite = suite.substr(suite.find('/') + 1);
        name = name.substr(0, name.find('/'));
        if (const UnsupportedTest *u = FindUnsupported(suite + "." + name, arch()))
            GTEST_SKIP() << "launches " << u->kernel << ", which rndn::sasscomp cannot compile yet for " << arch() << " (listed in sasscomp/harness.h) [known gap]";
    }

    Device &dev() { return DeviceFor(std::get<1>(GetParam())); }
    std::string arch() const { return std::get<0>(GetParam()); }

    const Kernel *K(const std::string &file, const std::string &kernel) {
        auto m = LoadCompiled(dev(), arch(), file, kernel);
        EXPECT_TRUE(m.ok()) << file << "/" << kernel << " (" << arch() << "): " << m.status().ToString();
        if (!m.ok()) return nullptr;
        const Kernel *k = (*m)->Find(kernel);
        EXPECT_NE(k, nullptr) << "no kernel " << kernel;
        return k;
    }

    friend class rndn::testing::CorpusData<CorpusTest>;
    // CorpusData's buffers come from the device
    void *AllocateBytes(size_t n) { return dev().Allocate(n); }
    void FreeBytes(void *p) { dev().Free(p); }

    Status Launch(const Kernel *k, Dim3 grid, Dim3 block, const std::vector<Arg> &args, uint32_t dyn = 0) {
        if (!k) return Status::Internal("no kernel");
        LaunchConfig c;
        c.grid = grid;
        c.block = block;
        c.dynamic_shared = dyn;
        c.check_hazards = true;  // our control codes must be hazard-free
        c.cta_instruction_limit = 1u << 26;
        sassemu::LaunchStats stats;
        Status st = dev().Launch(*k, c, args, &stats);
        if (!st.ok() || stats.hazards.empty()) return st;
        std::string msg = std::to_string(stats.hazards.size()) + " hazard(s) in sasscomp's code:";
        for (const auto &h : stats.hazards) msg += "\n  " + h.kernel + " " + std::to_string(h.address) + ": " + h.what;
        return Status::Internal(msg);
    }

    void TearDown() override { FreeBuffers(); }

};

inline ::testing::AssertionResult Ok(const Status &st) {
    if (st.ok()) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << st.ToString();
}

inline Dim3 D1(uint32_t x) { return Dim3{x, 1, 1}; }

#define RNDN_CJ_INSTANTIATE(suite)                                                                                 \
    INSTANTIATE_TEST_SUITE_P(Comp, suite,                                                                          \
                             ::testing::Combine(::testing::Values(std::string("sm_75"), std::string("sm_80"),      \
                                                                  std::string("sm_86"), std::string("sm_89"),      \
                                                                  std::string("sm_90"), std::string("sm_100"),     \
                                                                  std::string("sm_120")),                          \
                                                ::testing::Values(1u)),                                            \
                             [](const auto &info) { return std::get<0>(info.param); })

}  // namespace rndn::cpujit::testing
