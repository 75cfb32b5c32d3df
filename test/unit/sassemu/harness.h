// Test harness for the SASS emulator: the cpu device's corpus tests (test/unit/cpujit/corpus_*_test.cpp,
// with their C++ references) compile against this file instead of cpujit's harness.h.  It loads
// build/corpus/<arch>/<file>.cubin (ptxas -O3) and runs it in rndn::sassemu, for every
// architecture and with 1 and 2 worker threads.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "common/corpus_util.h"
#include "sassemu/sassemu.h"

// The corpus tests name the device's types through namespace rndn::cpujit.
namespace rndn::cpujit {
using sassemu::Arg;
using sassemu::Device;
using sassemu::Dim3;
using sassemu::Kernel;
using sassemu::LaunchConfig;
using sassemu::Module;
}  // namespace rndn::cpujit

namespace rndn::cpujit::testing {

using rndn::testing::Blocks;
using rndn::testing::SameD;
using rndn::testing::SameF;
using rndn::testing::UlpD;
using rndn::testing::UlpF;

inline std::vector<uint8_t> ReadBytes(const std::string &path) {
    std::string s = rndn::testing::ReadText(path);
    return std::vector<uint8_t>(s.begin(), s.end());
}

inline Device &DeviceFor(unsigned threads) {
    static std::map<unsigned, std::unique_ptr<Device>> devs;
    auto &d = devs[threads];
    if (!d) d = std::make_unique<Device>(threads);
    return *d;
}

// Modules are loaded once per (arch, file) and shared by the tests.
inline Expected<std::shared_ptr<const Module>> LoadCorpus(Device &dev, const std::string &path) {
    static std::map<std::string, std::shared_ptr<const Module>> cache;
    auto it = cache.find(path);
    if (it != cache.end()) return it->second;
    std::vector<uint8_t> bytes = ReadBytes(path);
    if (bytes.empty()) return Status::Internal("missing corpus file " + path + " (run make corpus)");
    auto m = dev.LoadModule(bytes);
    if (m.ok()) cache[path] = *m;
    return m;
}

class CorpusTest : public ::testing::TestWithParam<std::tuple<std::string, unsigned>>,
                   public rndn::testing::CorpusData<CorpusTest> {
protected:
    Device &dev() { return DeviceFor(std::get<1>(GetParam())); }
    std::string arch() const { return std::get<0>(GetParam()); }

    const Kernel *K(const std::string &file, const std::string &kernel) {
        std::string path = "build/corpus/" + arch() + "/" + file + ".cubin";
        auto m = LoadCorpus(dev(), path);
        EXPECT_TRUE(m.ok()) << path << ": " << m.status().ToString();
        if (!m.ok()) return nullptr;
        const Kernel *k = (*m)->Find(kernel);
        EXPECT_NE(k, nullptr) << "no kernel " << kernel << " in " << path;
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
        // every corpus launch also checks ptxas's control codes: zero hazards validates the
        // latency table (src/sassemu/latency.inc)
        c.check_hazards = true;
        sassemu::LaunchStats stats;
        Status st = dev().Launch(*k, c, args, &stats);
        if (!st.ok() || stats.hazards.empty()) return st;
        std::string msg = std::to_string(stats.hazards.size()) + " hazard(s) in ptxas's code:";
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
    INSTANTIATE_TEST_SUITE_P(Sass, suite,                                                                          \
                             ::testing::Combine(::testing::Values(std::string("sm_75"), std::string("sm_80"),      \
                                                                  std::string("sm_86"), std::string("sm_89"),      \
                                                                  std::string("sm_90"), std::string("sm_100"),     \
                                                                  std::string("sm_120")),                          \
                                                ::testing::Values(1u, 2u)),                                        \
                             [](const auto &info) {                                                                \
                                 return std::get<0>(info.param) + "_w" + std::to_string(std::get<1>(info.param)); \
                             })

}  // namespace rndn::cpujit::testing
