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

#include "cpujit/cpujit.h"

namespace rndn::cpujit::testing {

// One device per worker-thread count, shared by all tests.
inline Device &DeviceFor(unsigned threads) {
    static std::map<unsigned, std::unique_ptr<Device>> devs;
    auto &d = devs[threads];
    if (!d) d = std::make_unique<Device>(threads);
    return *d;
}

inline std::string ReadText(const std::string &path) {
    std::ifstream f(path);
    if (!f) return "";
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

// Parameter: (arch directory, worker threads).
class CorpusTest : public ::testing::TestWithParam<std::tuple<std::string, unsigned>> {
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

    template <class T>
    T *Buf(const std::vector<T> &init) {
        T *p = static_cast<T *>(dev().Allocate(std::max<size_t>(1, init.size() * sizeof(T))));
        if (!init.empty()) std::memcpy(p, init.data(), init.size() * sizeof(T));
        bufs_.push_back(p);
        return p;
    }
    template <class T>
    T *Zeros(size_t n) {
        return Buf(std::vector<T>(n));
    }
    template <class T>
    T *Filled(size_t n, T v) {
        return Buf(std::vector<T>(n, v));
    }
    template <class T>
    static std::vector<T> Get(const T *p, size_t n) {
        return std::vector<T>(p, p + n);
    }

    Status Launch(const Kernel *k, Dim3 grid, Dim3 block, const std::vector<Arg> &args, uint32_t dyn = 0) {
        if (!k) return Status::Internal("no kernel");
        LaunchConfig c;
        c.grid = grid;
        c.block = block;
        c.dynamic_shared = dyn;
        return dev().Launch(*k, c, args);
    }

    void TearDown() override {
        for (void *p : bufs_) dev().Free(p);
        bufs_.clear();
    }

    std::mt19937_64 rng_{12345};
    template <class T>
    std::vector<T> RandInt(size_t n, int64_t lo, int64_t hi) {
        std::uniform_int_distribution<int64_t> d(lo, hi);
        std::vector<T> v(n);
        for (auto &x : v) x = (T)d(rng_);
        return v;
    }
    template <class T>
    std::vector<T> RandBits(size_t n) {
        std::vector<T> v(n);
        for (auto &x : v) {
            uint64_t r = rng_();
            std::memcpy(&x, &r, sizeof(T));
        }
        return v;
    }
    std::vector<float> RandF(size_t n, double lo, double hi) {
        std::uniform_real_distribution<double> d(lo, hi);
        std::vector<float> v(n);
        for (auto &x : v) x = (float)d(rng_);
        return v;
    }
    std::vector<double> RandD(size_t n, double lo, double hi) {
        std::uniform_real_distribution<double> d(lo, hi);
        std::vector<double> v(n);
        for (auto &x : v) x = d(rng_);
        return v;
    }

private:
    std::vector<void *> bufs_;
    std::vector<std::shared_ptr<const Module>> modules_;
};

inline ::testing::AssertionResult Ok(const Status &st) {
    if (st.ok()) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << st.ToString();
}

inline Dim3 D1(uint32_t x) { return Dim3{x, 1, 1}; }
inline uint32_t Blocks(uint32_t n, uint32_t b) { return (n + b - 1) / b; }

// Bitwise float equality (NaN == NaN when both are NaN).
inline bool SameF(float a, float b) {
    if (std::isnan(a) && std::isnan(b)) return true;
    uint32_t x, y;
    std::memcpy(&x, &a, 4);
    std::memcpy(&y, &b, 4);
    return x == y;
}
inline bool SameD(double a, double b) {
    if (std::isnan(a) && std::isnan(b)) return true;
    uint64_t x, y;
    std::memcpy(&x, &a, 8);
    std::memcpy(&y, &b, 8);
    return x == y;
}
// Distance in units in the last place between two finite floats of the same sign region.
inline int64_t UlpF(float a, float b) {
    if (std::isnan(a) || std::isnan(b)) return (std::isnan(a) && std::isnan(b)) ? 0 : INT64_MAX;
    int32_t x, y;
    std::memcpy(&x, &a, 4);
    std::memcpy(&y, &b, 4);
    if (x < 0) x = INT32_MIN - x;
    if (y < 0) y = INT32_MIN - y;
    return std::llabs((int64_t)x - (int64_t)y);
}
inline int64_t UlpD(double a, double b) {
    if (std::isnan(a) || std::isnan(b)) return (std::isnan(a) && std::isnan(b)) ? 0 : INT64_MAX;
    int64_t x, y;
    std::memcpy(&x, &a, 8);
    std::memcpy(&y, &b, 8);
    if (x < 0) x = INT64_MIN - x;
    if (y < 0) y = INT64_MIN - y;
    __int128 d = (__int128)x - y;
    return d < 0 ? (int64_t)-d : (int64_t)d;
}

#define RNDN_CJ_INSTANTIATE(suite)                                                                          \
    INSTANTIATE_TEST_SUITE_P(Corpus, suite,                                                                 \
                             ::testing::Combine(::testing::Values(std::string("sm_80"), std::string("sm_90")), \
                                                ::testing::Values(1u, 2u)),                                  \
                             [](const auto &info) {                                                          \
                                 return std::get<0>(info.param) + "_w" + std::to_string(std::get<1>(info.param)); \
                             })

}  // namespace rndn::cpujit::testing
