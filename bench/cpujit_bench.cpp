// cpujit benchmark (not run in CI): `make bench-cpujit` then build/bench/cpujit_bench [N] [THREADS]
//
//  1. map:        saxpy (build/corpus/sm_80/saxpy.ptx) over N floats on the cpu device, versus the
//                 same loop in C++ (g++ -O2) split over the same number of threads;
//  2. reduction:  gs_sum_atomic (grid_stride.ptx: per-thread strided int64 sums, one atomicAdd per
//                 thread) versus a threaded C++ sum;
//  3. JIT:        median compile time per corpus kernel (every build/corpus/sm_80/*.ptx, fresh device).
// Prints the ratios measured in this run.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "cpujit/cpujit.h"

using namespace rndn::cpujit;

namespace {
// Each side's best of kReps runs, the two interleaved so both see the same machine load.
constexpr int kReps = 5;

std::string Read(const std::string &p) {
    std::ifstream f(p);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

double Now() { return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

template <class F>
void Parallel(unsigned threads, size_t n, F f) {
    std::vector<std::thread> ts;
    for (unsigned t = 0; t < threads; ++t) {
        size_t lo = n * t / threads, hi = n * (t + 1) / threads;
        ts.emplace_back([=] { f(t, lo, hi); });
    }
    for (auto &t : ts) t.join();
}

__attribute__((noinline)) void SaxpyRef(size_t lo, size_t hi, float a, const float *x, float *y) {
    for (size_t i = lo; i < hi; ++i) y[i] = a * x[i] + y[i];
}
__attribute__((noinline)) int64_t SumRef(size_t lo, size_t hi, const int32_t *v) {
    int64_t s = 0;
    for (size_t i = lo; i < hi; ++i) s += v[i];
    return s;
}

}  // namespace

int main(int argc, char **argv) {
    size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 0) : 100000000ull;
    unsigned threads = argc > 2 ? (unsigned)std::atoi(argv[2]) : std::max(1u, std::thread::hardware_concurrency());
    Device dev(threads);
    std::printf("cpujit bench: N = %zu, %u threads\n", n, dev.worker_threads());

    auto saxpy_mod = dev.LoadModule(Read("build/corpus/sm_80/saxpy.ptx"));
    auto gs_mod = dev.LoadModule(Read("build/corpus/sm_80/grid_stride.ptx"));
    if (!saxpy_mod.ok() || !gs_mod.ok()) {
        std::fprintf(stderr, "cannot load the corpus (make corpus): %s %s\n", saxpy_mod.status().ToString().c_str(),
                     gs_mod.status().ToString().c_str());
        return 1;
    }
    float *x = (float *)dev.Allocate(n * 4), *y = (float *)dev.Allocate(n * 4);
    std::vector<float> yref(n);
    for (size_t i = 0; i < n; ++i) {
        x[i] = (float)(i % 1000) * 0.5f;
        y[i] = yref[i] = (float)(i % 7);
    }
    // map
    const Kernel *saxpy = (*saxpy_mod)->Find("saxpy");
    LaunchConfig cfg;
    cfg.block = {256, 1, 1};
    cfg.grid = {(uint32_t)((n + 255) / 256), 1, 1};
    double best_jit = 1e30, best_ref = 1e30;
    for (int rep = 0; rep < kReps; ++rep) {
        double t0 = Now();
        auto st = dev.Launch(*saxpy, cfg, {Arg::S32((int32_t)n), Arg::F32(1.5f), Arg::Ptr(x), Arg::Ptr(y)});
        double t1 = Now();
        if (!st.ok()) {
            std::fprintf(stderr, "%s\n", st.ToString().c_str());
            return 1;
        }
        best_jit = std::min(best_jit, t1 - t0);
        t0 = Now();
        Parallel(threads, n, [&](unsigned, size_t lo, size_t hi) { SaxpyRef(lo, hi, 1.5f, x, yref.data()); });
        best_ref = std::min(best_ref, Now() - t0);
    }
    bool same = std::memcmp(y, yref.data(), n * 4) == 0;
    std::printf("map (saxpy, 1 element/thread, bounds-checked): cpujit %.1f ms, g++ -O2 %.1f ms, ratio %.2fx%s\n",
                best_jit, best_ref, best_jit / best_ref, same ? "" : "  (RESULTS DIFFER)");
    cfg.check_bounds = false;
    double unchecked = 1e30, t0;
    for (int rep = 0; rep < kReps; ++rep) {
        t0 = Now();
        (void)dev.Launch(*saxpy, cfg, {Arg::S32((int32_t)n), Arg::F32(1.5f), Arg::Ptr(x), Arg::Ptr(y)});
        unchecked = std::min(unchecked, Now() - t0);
    }
    std::printf("map without bounds checks: cpujit %.1f ms, ratio %.2fx\n", unchecked, unchecked / best_ref);
    cfg.check_bounds = true;

    // reduction
    int32_t *v = (int32_t *)x;
    for (size_t i = 0; i < n; ++i) v[i] = (int32_t)(i * 2654435761u) >> 8;
    uint64_t *total = (uint64_t *)dev.Allocate(8);
    const Kernel *gs = (*gs_mod)->Find("gs_sum_atomic");
    LaunchConfig rc;
    rc.block = {256, 1, 1};
    rc.grid = {threads * 64, 1, 1};
    best_jit = best_ref = 1e30;
    int64_t ref_sum = 0;
    for (int rep = 0; rep < kReps; ++rep) {
        *total = 0;
        t0 = Now();
        auto st = dev.Launch(*gs, rc, {Arg::Ptr(v), Arg::Ptr(total), Arg::S32((int32_t)n)});
        best_jit = std::min(best_jit, Now() - t0);
        if (!st.ok()) {
            std::fprintf(stderr, "%s\n", st.ToString().c_str());
            return 1;
        }
        std::vector<int64_t> part(threads);
        t0 = Now();
        Parallel(threads, n, [&](unsigned t, size_t lo, size_t hi) { part[t] = SumRef(lo, hi, v); });
        ref_sum = 0;
        for (auto p : part) ref_sum += p;
        best_ref = std::min(best_ref, Now() - t0);
    }
    std::printf("reduction (grid-stride int32 -> int64 sum): cpujit %.1f ms, g++ -O2 %.1f ms, ratio %.2fx%s\n", best_jit,
                best_ref, best_jit / best_ref, (int64_t)*total == ref_sum ? "" : "  (RESULTS DIFFER)");

    // JIT compile time per kernel over the corpus
    std::vector<double> per_kernel;
    DIR *d = opendir("build/corpus/sm_80");
    std::vector<std::string> files;
    while (d) {
        dirent *e = readdir(d);
        if (!e) break;
        std::string f = e->d_name;
        if (f.size() > 4 && f.substr(f.size() - 4) == ".ptx") files.push_back("build/corpus/sm_80/" + f);
    }
    if (d) closedir(d);
    Device fresh(1);
    for (auto &f : files) {
        auto m = fresh.LoadModule(Read(f));
        if (!m.ok()) {
            std::printf("  %s: %s\n", f.c_str(), m.status().ToString().c_str());
            continue;
        }
        for (auto &k : (*m)->kernels()) per_kernel.push_back(k->jit_ms());
    }
    std::sort(per_kernel.begin(), per_kernel.end());
    if (!per_kernel.empty())
        std::printf("JIT per corpus kernel (%zu kernels, %zu files): median %.1f ms, p90 %.1f ms, max %.1f ms (target < 20 ms)\n",
                    per_kernel.size(), files.size(), per_kernel[per_kernel.size() / 2],
                    per_kernel[per_kernel.size() * 9 / 10], per_kernel.back());
    return 0;
}
