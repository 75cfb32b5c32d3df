// Device-independent helpers of the corpus tests (cpu device and SASS emulator): file reading,
// bitwise float comparison, ulp distance, grid sizing.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
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

}  // namespace rndn::testing
