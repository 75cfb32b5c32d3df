// Device-independent helpers of the corpus tests (cpu device, SASS emulator, our compiler, the
// cuda device): file reading, bitwise float comparison, ulp distance, grid sizing, and the
// buffers and random inputs every corpus fixture shares (CorpusData).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <fstream>
#include <random>
#include <vector>
#include <sstream>
#include <string>

namespace rndn::testing {

inline std::string ReadText(const std::string &path) {
    std::ifstream f(path);
    if (!f) return "";
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

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

// Device buffers and random inputs of a corpus fixture.  Device (the fixture, CRTP) provides
// void *AllocateBytes(size_t) and void FreeBytes(void *); FreeBuffers() releases every buffer.
template <class Device>
class CorpusData {
public:
    template <class T>
    T *Buf(const std::vector<T> &init) {
        T *p = static_cast<T *>(static_cast<Device *>(this)->AllocateBytes(std::max<size_t>(1, init.size() * sizeof(T))));
        if (p && !init.empty()) std::memcpy(p, init.data(), init.size() * sizeof(T));
        if (p) bufs_.push_back(p);
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
    void FreeBuffers() {
        for (void *p : bufs_) static_cast<Device *>(this)->FreeBytes(p);
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
};

}  // namespace rndn::testing
