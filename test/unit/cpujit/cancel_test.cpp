// Cancel on the cpu device: a launch stops within one chunk of CTAs once the launching thread's
// poller says so, and a module load stops while LLVM works on a helper thread (issue 19, item 14).
#include <atomic>
#include <chrono>
#include <functional>

#include "harness.h"

namespace rndn::cpujit::testing {
namespace {

using Clock = std::chrono::steady_clock;

double MsSince(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

// Every thread runs `iters` steps of a linear congruential generator and stores the result.
const char *kSpinPtx = R"(
.version 8.0
.target sm_80
.address_size 64

.visible .entry spin(.param .u64 out, .param .u32 iters)
{
    .reg .pred %p<2>;
    .reg .b32 %r<8>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [out];
    ld.param.u32 %r1, [iters];
    mov.u32 %r2, 0;
    mov.u32 %r3, %tid.x;
    mov.u32 %r5, %ctaid.x;
    mov.u32 %r6, %ntid.x;
    mad.lo.s32 %r7, %r5, %r6, %r3;
LOOP:
    setp.ge.u32 %p1, %r2, %r1;
    @%p1 bra DONE;
    mad.lo.s32 %r3, %r3, 1664525, 1013904223;
    add.s32 %r2, %r2, 1;
    bra LOOP;
DONE:
    mul.wide.u32 %rd2, %r7, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r3;
    ret;
}
)";

// A poller that turns true `after_ms` after its first call and remembers when.
struct DelayedCancel {
    double after_ms;
    Clock::time_point start{};
    Clock::time_point fired{};
    bool started = false, has_fired = false;
    std::function<bool()> fn() {
        return [this] {
            const auto now = Clock::now();
            if (!started) {
                started = true;
                start = now;
            }
            if (!has_fired && std::chrono::duration<double, std::milli>(now - start).count() >= after_ms) {
                has_fired = true;
                fired = now;
            }
            return has_fired;
        };
    }
};

TEST(CpuJitCancel, LaunchStopsSoonAfterThePollerFires) {
    Device &dev = DeviceFor(0);
    auto m = dev.LoadModule(kSpinPtx);
    ASSERT_TRUE(m.ok()) << m.status().ToString();
    const Kernel *k = (*m)->Find("spin");
    ASSERT_NE(k, nullptr);
    constexpr uint32_t kGrid = 256, kBlock = 128;
    auto *out = static_cast<uint32_t *>(dev.Allocate(kGrid * kBlock * 4));
    // Calibrate: iterations that take about 2 s for the whole grid, whatever the machine.
    LaunchConfig cfg;
    cfg.grid.x = kGrid;
    cfg.block.x = kBlock;
    uint32_t iters = 2000;
    double ms = 0;
    while (true) {
        const auto t0 = Clock::now();
        ASSERT_TRUE(dev.Launch(*k, cfg, {Arg::Ptr(out), Arg::U32(iters)}).ok());
        ms = MsSince(t0);
        if (ms > 200 || iters > (1u << 30)) break;
        iters *= 4;
    }
    iters = static_cast<uint32_t>(std::min<double>(4e9, iters * (2000.0 / std::max(ms, 1.0))));
    DelayedCancel cancel{50};
    const auto poller = cancel.fn();
    cfg.cancel = &poller;
    const auto t0 = Clock::now();
    Status st = dev.Launch(*k, cfg, {Arg::Ptr(out), Arg::U32(iters)});
    const double total = MsSince(t0);
    ASSERT_TRUE(cancel.has_fired) << "the launch ended before the poller fired (" << total << " ms)";
    const double latency = std::chrono::duration<double, std::milli>(Clock::now() - cancel.fired).count();
    EXPECT_EQ(st.code(), Code::CANCELLED) << st.ToString();
    // One chunk is at most 1/64 of a worker's share of the grid (about 16-30 ms here).
    EXPECT_LT(latency, 100.0) << "launch of about 2 s stopped " << latency << " ms after the cancel";
    std::printf("[ cancel   ] launch stopped %.1f ms after the poller fired (%.0f ms into a ~2 s launch)\n", latency, total);
    // The device still runs kernels afterwards.
    cfg.cancel = nullptr;
    EXPECT_TRUE(dev.Launch(*k, cfg, {Arg::Ptr(out), Arg::U32(10)}).ok());
    dev.Free(out);
}

// A module with many kernels, each a long straight line: seconds of LLVM work.
std::string BigModule(int kernels, int steps, int salt) {
    std::string s = ".version 8.0\n.target sm_80\n.address_size 64\n\n";
    for (int k = 0; k < kernels; ++k) {
        s += ".visible .entry big" + std::to_string(k) + "(.param .u64 out, .param .u32 x)\n{\n";
        s += "    .reg .b32 %r<" + std::to_string(steps + 4) + ">;\n    .reg .b64 %rd<4>;\n";
        s += "    ld.param.u64 %rd1, [out];\n    ld.param.u32 %r1, [x];\n";
        for (int i = 0; i < steps; ++i)
            s += "    mad.lo.s32 %r" + std::to_string(i + 2) + ", %r" + std::to_string(i + 1) + ", " + std::to_string(3 + 2 * i) + ", " +
                 std::to_string(salt + i) + ";\n";
        s += "    st.global.u32 [%rd1], %r" + std::to_string(steps + 1) + ";\n    ret;\n}\n\n";
    }
    return s;
}

TEST(CpuJitCancel, ModuleLoadReturnsAtOnceAndCachesNothing) {
    Device dev(2);
    const std::string text = BigModule(4, 1200, 17);
    // Uncancelled compile time of this module (a copy with other constants, so nothing is cached).
    const auto tc = Clock::now();
    ASSERT_TRUE(dev.LoadModule(BigModule(4, 1200, 18)).ok());
    const double compile_ms = MsSince(tc);
    const size_t cached = dev.cached_modules();
    DelayedCancel cancel{compile_ms / 4};
    const auto poller = cancel.fn();
    const auto t0 = Clock::now();
    auto m = dev.LoadModule(text, &poller);
    const double total = MsSince(t0);
    ASSERT_FALSE(m.ok()) << "the load finished (" << total << " ms) before the poller fired";
    EXPECT_EQ(m.status().code(), Code::CANCELLED) << m.status().ToString();
    ASSERT_TRUE(cancel.has_fired);
    const double latency = std::chrono::duration<double, std::milli>(Clock::now() - cancel.fired).count();
    EXPECT_LT(latency, 50.0) << "load returned " << latency << " ms after the cancel";
    std::printf("[ cancel   ] module load (%.0f ms uncancelled) returned %.1f ms after the poller fired\n", compile_ms, latency);
    // The abandoned compilation stops at its next stage and caches nothing; the same text then
    // loads whole and runs.
    auto again = dev.LoadModule(text);
    ASSERT_TRUE(again.ok()) << again.status().ToString();
    EXPECT_EQ(dev.cached_modules(), cached + 1);
    const Kernel *k = (*again)->Find("big3");
    ASSERT_NE(k, nullptr);
    auto *out = static_cast<uint32_t *>(dev.Allocate(4));
    LaunchConfig cfg;
    EXPECT_TRUE(dev.Launch(*k, cfg, {Arg::Ptr(out), Arg::U32(5)}).ok());
    uint32_t want = 5;
    for (int i = 0; i < 1200; ++i) want = want * static_cast<uint32_t>(3 + 2 * i) + static_cast<uint32_t>(17 + i);
    EXPECT_EQ(*out, want);
    dev.Free(out);
}

TEST(CpuJitCancel, PollerAlreadySetCompilesNothing) {
    Device dev(1);
    const std::function<bool()> yes = [] { return true; };
    auto m = dev.LoadModule(BigModule(1, 10, 5), &yes);
    ASSERT_FALSE(m.ok());
    EXPECT_EQ(m.status().code(), Code::CANCELLED);
    EXPECT_EQ(dev.cached_modules(), 0u);
}

}  // namespace
}  // namespace rndn::cpujit::testing
