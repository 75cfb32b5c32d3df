// SASS emulator benchmark (not run in CI): `make bench-sassemu` then build/bench/sassemu_bench [N] [THREADS]
//
// Runs ptxas's cubins (build/corpus/sm_86) in the emulator and prints warp-instructions per second
// per worker thread, for
//   1. map:        saxpy over N floats (no synchronisation);
//   2. reduction:  block_sum_i32 (shared memory + BAR per step) over N ints;
//   3. sort:       bitonic_sort_u32 (divergent compare-exchange, BAR) over 256-element tiles;
// with the same loop in C++ (g++ -O2, one thread) as the peer for the map (slowdown factor).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "sassemu/sassemu.h"

using namespace rndn::sassemu;

namespace {

std::vector<uint8_t> Read(const std::string &p) {
    std::ifstream f(p, std::ios::binary);
    return std::vector<uint8_t>((std::istreambuf_iterator<char>(f)), {});
}
double Now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

struct Result {
    double seconds = 1e30;
    uint64_t insts = 0;
};

template <class F>
Result Best(F launch) {
    Result r;
    for (int rep = 0; rep < 3; ++rep) {
        LaunchStats st;
        if (!launch(&st)) std::exit(1);
        if (st.seconds < r.seconds) r.seconds = st.seconds, r.insts = st.warp_instructions;
    }
    return r;
}

void Report(const char *name, const Result &r, unsigned threads) {
    std::printf("%-10s %12llu warp-instructions  %8.1f ms  %7.2f M warp-inst/s per core\n", name, (unsigned long long)r.insts,
                r.seconds * 1e3, r.insts / r.seconds / threads / 1e6);
}

}  // namespace

int main(int argc, char **argv) {
    uint32_t n = argc > 1 ? (uint32_t)std::atoi(argv[1]) : (1u << 20);
    unsigned threads = argc > 2 ? (unsigned)std::atoi(argv[2]) : 1;
    Device dev(threads);
    auto load = [&](const char *file) {
        auto m = dev.LoadModule(Read(std::string("build/corpus/sm_86/") + file + ".cubin"));
        if (!m.ok()) {
            std::fprintf(stderr, "%s: %s (make corpus)\n", file, m.status().ToString().c_str());
            std::exit(1);
        }
        return *m;
    };
    auto check = [](const rndn::Status &st) {
        if (!st.ok()) std::fprintf(stderr, "%s\n", st.ToString().c_str());
        return st.ok();
    };
    std::printf("sassemu bench: n = %u, %u worker thread(s), sm_86 cubins\n", n, threads);

    auto saxpy = load("saxpy");
    std::vector<float> hx(n), hy(n);
    for (uint32_t i = 0; i < n; ++i) hx[i] = (float)i * 0.5f, hy[i] = 1.0f;
    float *x = (float *)dev.Allocate(n * 4), *y = (float *)dev.Allocate(n * 4);
    std::memcpy(x, hx.data(), n * 4);
    std::memcpy(y, hy.data(), n * 4);
    LaunchConfig c;
    c.grid = {(n + 255) / 256, 1, 1};
    c.block = {256, 1, 1};
    Result map = Best([&](LaunchStats *st) {
        return check(dev.Launch(*saxpy->Find("saxpy"), c, {Arg::S32((int)n), Arg::F32(2.f), Arg::Ptr(x), Arg::Ptr(y)}, st));
    });
    Report("map", map, threads);
    double t0 = Now();
    volatile float sink = 0;
    for (int rep = 0; rep < 3; ++rep) {
        for (uint32_t i = 0; i < n; ++i) hy[i] = std::fmaf(2.f, hx[i], hy[i]);
        sink = sink + hy[n / 2];
    }
    double cpp = (Now() - t0) / 3;
    std::printf("           peer: the same loop in C++ %.3f ms (one thread): the emulator is %.0fx slower per core\n", cpp * 1e3,
                map.seconds * threads / cpp);

    auto red = load("block_reduce");
    int32_t *in = (int32_t *)dev.Allocate(n * 4);
    int32_t *out = (int32_t *)dev.Allocate(((n + 255) / 256) * 4);
    for (uint32_t i = 0; i < n; ++i) in[i] = (int32_t)(i % 7);
    c.grid = {(n + 255) / 256, 1, 1};
    Result reduction = Best([&](LaunchStats *st) {
        return check(dev.Launch(*red->Find("block_sum_i32"), c, {Arg::Ptr(in), Arg::Ptr(out), Arg::S32((int)n)}, st));
    });
    Report("reduction", reduction, threads);

    auto sort = load("bitonic_sort");
    uint32_t m = std::min<uint32_t>(n, 1u << 18);
    uint32_t *keys = (uint32_t *)dev.Allocate(m * 4);
    for (uint32_t i = 0; i < m; ++i) keys[i] = (i * 2654435761u) >> 7;
    c.grid = {m / 256, 1, 1};
    c.block = {256, 1, 1};
    Result sorted = Best([&](LaunchStats *st) {
        return check(dev.Launch(*sort->Find("bitonic_sort_u32"), c, {Arg::Ptr(keys), Arg::S32((int)m)}, st));
    });
    Report("sort", sorted, threads);
    return 0;
}
