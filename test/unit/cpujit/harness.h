// Test harness for the cpu device: corpus PTX loading, device buffers, launches.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "common/corpus_util.h"
#include "cpujit/cpujit.h"

namespace rndn::cpujit::testing {

using rndn::testing::ReadText;
using rndn::testing::SameF;
using rndn::testing::SameD;
using rndn::testing::UlpF;
using rndn::testing::UlpD;
using rndn::testing::Blocks;

// One device per worker-thread count, shared by all tests.
inline Device &DeviceFor(unsigned threads) {
    static std::map<unsigned, std::unique_ptr<Device>> devs;
    auto &d = devs[threads];
    if (!d) d = std::make_unique<Device>(threads);
    return *d;
}

// Parameter: (arch directory, worker threads).
class CorpusTest : public ::testing::TestWithParam<std::tuple<std::string, unsigned>>,
                   public rndn::testing::CorpusData<CorpusTest> {
protected:
    Device &dev() { return DeviceFor(std::get<1>(GetParam())); }
    std::string arch() const { return std::get<0>(GetParam()); }

    // Loads build/corpus/<arch>/<file>.ptx and returns the kernel (fails the test if absent).
    const Kernel *K(const std::string &file, const std::string &kernel) {
        std::string path = "build/corpus/" + arch() + "/" + file + ".ptx";
        std::string text = ReadText(path);
        EXPECT_FALSE(text.empty()) << "missing corpus file " << path << " (run make corpus)";
        if (text.empty()) return nullptr;
        auto m = dev().LoadModule(text);
        EXPECT_TRUE(m.ok()) << path << ": " << m.status().ToString();
        if (!m.ok()) return nullptr;
        modules_.push_back(*m);
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
        return dev().Launch(*k, c, args);
    }

    void TearDown() override { FreeBuffers(); }

private:
    std::vector<std::shared_ptr<const Module>> modules_;
};

inline ::testing::AssertionResult Ok(const Status &st) {
    if (st.ok()) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << st.ToString();
}

inline Dim3 D1(uint32_t x) { return Dim3{x, 1, 1}; }

#define RNDN_CJ_INSTANTIATE(suite)                                                                          \
    INSTANTIATE_TEST_SUITE_P(Corpus, suite,                                                                 \
                             ::testing::Combine(::testing::Values(std::string("sm_80"), std::string("sm_90")), \
                                                ::testing::Values(1u, 2u)),                                  \
                             [](const auto &info) {                                                          \
                                 return std::get<0>(info.param) + "_w" + std::to_string(std::get<1>(info.param)); \
                             })

}  // namespace rndn::cpujit::testing
