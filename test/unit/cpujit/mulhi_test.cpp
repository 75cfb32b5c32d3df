// mul.hi.s64 / mul.hi.u64 in lock-step warps (translate.cpp: a warp whose operands all fit in 32
// bits takes one vector multiply; any lane that does not sends the whole warp to the 128-bit
// product per lane) against __int128 references: warps that all fit, warps with one wide lane,
// the 32-bit limits on both sides of the test, negative operands, and the 64-bit extremes, with
// mul.lo beside it and a thread-by-thread module (a bar.sync) doing the same.
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "harness.h"

namespace rndn::cpujit::testing {
namespace {

std::string MulHiPtx(bool with_barrier) {
    std::string body = R"(
.version 8.0
.target sm_80
.address_size 64

.visible .entry mulhi(.param .u64 a, .param .u64 b, .param .u64 hs, .param .u64 hu, .param .u64 lo, .param .u32 n)
{
    .reg .pred %p<2>;
    .reg .b32 %r<6>;
    .reg .b64 %rd<16>;
    ld.param.u64 %rd1, [a];
    ld.param.u64 %rd2, [b];
    ld.param.u64 %rd3, [hs];
    ld.param.u64 %rd4, [hu];
    ld.param.u64 %rd5, [lo];
    ld.param.u32 %r1, [n];
    mov.u32 %r2, %tid.x;
    mov.u32 %r3, %ctaid.x;
    mov.u32 %r4, %ntid.x;
    mad.lo.s32 %r2, %r3, %r4, %r2;
)";
    if (with_barrier) body += "    bar.sync 0;\n";
    body += R"(
    setp.ge.u32 %p1, %r2, %r1;
    @%p1 bra DONE;
    mul.wide.u32 %rd6, %r2, 8;
    add.s64 %rd7, %rd1, %rd6;
    ld.global.u64 %rd8, [%rd7];
    add.s64 %rd7, %rd2, %rd6;
    ld.global.u64 %rd9, [%rd7];
    mul.hi.s64 %rd10, %rd8, %rd9;
    mul.hi.u64 %rd11, %rd8, %rd9;
    mul.lo.s64 %rd12, %rd8, %rd9;
    add.s64 %rd7, %rd3, %rd6;
    st.global.u64 [%rd7], %rd10;
    add.s64 %rd7, %rd4, %rd6;
    st.global.u64 [%rd7], %rd11;
    add.s64 %rd7, %rd5, %rd6;
    st.global.u64 [%rd7], %rd12;
DONE:
    ret;
}
)";
    return body;
}

TEST(CpuJitArith, MulHiInWarpsThatFitAndDoNot) {
    const int64_t fits32[] = {0, 1, -1, 7, -7, 104949, -104949, INT32_MAX, INT32_MIN, 10494950, -2};
    const int64_t wide[] = {int64_t{1} << 31, -(int64_t{1} << 31) - 1, int64_t{0xffffffff}, int64_t{1} << 40, INT64_MAX, INT64_MIN,
                            -(int64_t{1} << 50) + 3};
    const int n = 32 * 24 + 5;  // 24 full warps and a partial one
    std::mt19937_64 rng(31);
    std::vector<int64_t> a(n), b(n);
    for (int i = 0; i < n; ++i) {
        const int warp = i / 32;
        auto pick = [&](bool fit) { return fit ? fits32[rng() % std::size(fits32)] : wide[rng() % std::size(wide)]; };
        if (warp % 3 == 0) {  // every lane fits
            a[i] = pick(true);
            b[i] = pick(true);
        } else if (warp % 3 == 1) {  // one lane of the warp does not
            a[i] = pick(true);
            b[i] = pick(i % 32 != 17);
        } else {  // anything
            a[i] = rng() % 2 ? pick(rng() % 2) : static_cast<int64_t>(rng());
            b[i] = rng() % 2 ? pick(rng() % 2) : static_cast<int64_t>(rng() >> (rng() % 64));
        }
    }
    for (bool with_barrier : {false, true})
        for (unsigned threads : {1u, 2u}) {
            SCOPED_TRACE(std::string(with_barrier ? "thread by thread" : "lock-step") + ", " + std::to_string(threads) + " workers");
            Device &dev = DeviceFor(threads);
            auto m = dev.LoadModule(MulHiPtx(with_barrier));
            ASSERT_TRUE(m.ok()) << m.status().ToString();
            const Kernel *k = (*m)->Find("mulhi");
            ASSERT_NE(k, nullptr);
            auto buf = [&](const std::vector<int64_t> &v) {
                auto *p = static_cast<int64_t *>(dev.Allocate(v.size() * 8));
                std::copy(v.begin(), v.end(), p);
                return p;
            };
            int64_t *da = buf(a), *db = buf(b), *hs = buf(std::vector<int64_t>(n)), *hu = buf(std::vector<int64_t>(n)),
                    *lo = buf(std::vector<int64_t>(n));
            LaunchConfig c;
            c.grid = {static_cast<uint32_t>((n + 63) / 64), 1, 1};
            c.block = {64, 1, 1};
            ASSERT_TRUE(Ok(dev.Launch(*k, c, {Arg::Ptr(da), Arg::Ptr(db), Arg::Ptr(hs), Arg::Ptr(hu), Arg::Ptr(lo), Arg::U32(n)})));
            for (int i = 0; i < n; ++i) {
                const __int128 s = static_cast<__int128>(a[i]) * b[i];
                const unsigned __int128 u = static_cast<unsigned __int128>(static_cast<uint64_t>(a[i])) * static_cast<uint64_t>(b[i]);
                ASSERT_EQ(hs[i], static_cast<int64_t>(s >> 64)) << i << ": " << a[i] << " * " << b[i];
                ASSERT_EQ(static_cast<uint64_t>(hu[i]), static_cast<uint64_t>(u >> 64)) << i << ": " << a[i] << " * " << b[i];
                ASSERT_EQ(static_cast<uint64_t>(lo[i]), static_cast<uint64_t>(u)) << i;
            }
            for (int64_t *p : {da, db, hs, hu, lo}) dev.Free(p);
        }
}

}  // namespace
}  // namespace rndn::cpujit::testing
