// Safety of the cpu device: out-of-bounds accesses, integer division by zero, barrier deadlocks
// and malformed input give a Status naming the kernel, and the process (and device) survive.
#include "harness.h"
#include "ptx/ptx.h"

namespace rndn::cpujit::testing {
namespace {

// Hand-written PTX: each kernel misbehaves when its last parameter says so.
const char *kBadPtx = R"(
.version 8.0
.target sm_80
.address_size 64

// out[i] = in[i + off] for i < n
.visible .entry shifted_copy(.param .u64 in, .param .u64 out, .param .u32 n, .param .u32 off)
{
    .reg .pred %p<2>;
    .reg .b32 %r<6>;
    .reg .b64 %rd<8>;
    ld.param.u64 %rd1, [in];
    ld.param.u64 %rd2, [out];
    ld.param.u32 %r1, [n];
    ld.param.u32 %r2, [off];
    mov.u32 %r3, %tid.x;
    mov.u32 %r4, %ctaid.x;
    mov.u32 %r5, %ntid.x;
    mad.lo.s32 %r3, %r4, %r5, %r3;
    setp.ge.u32 %p1, %r3, %r1;
    @%p1 bra DONE;
    add.s32 %r4, %r3, %r2;
    mul.wide.u32 %rd3, %r4, 4;
    add.s64 %rd4, %rd1, %rd3;
    ld.global.u32 %r5, [%rd4];
    mul.wide.u32 %rd5, %r3, 4;
    add.s64 %rd6, %rd2, %rd5;
    st.global.u32 [%rd6], %r5;
DONE:
    ret;
}

// out[i] = a[i] / d
.visible .entry divide(.param .u64 a, .param .u64 out, .param .u32 d)
{
    .reg .b32 %r<5>;
    .reg .b64 %rd<6>;
    ld.param.u64 %rd1, [a];
    ld.param.u64 %rd2, [out];
    ld.param.u32 %r1, [d];
    mov.u32 %r2, %tid.x;
    mul.wide.u32 %rd3, %r2, 4;
    add.s64 %rd4, %rd1, %rd3;
    ld.global.u32 %r3, [%rd4];
    div.s32 %r4, %r3, %r1;
    add.s64 %rd5, %rd2, %rd3;
    st.global.u32 [%rd5], %r4;
    ret;
}

// s[tid + off] = tid in a 64-word shared array
.visible .entry shared_store(.param .u32 off)
{
    .reg .b32 %r<5>;
    .shared .align 4 .b8 s[256];
    ld.param.u32 %r1, [off];
    mov.u32 %r2, %tid.x;
    add.s32 %r3, %r2, %r1;
    shl.b32 %r3, %r3, 2;
    mov.u32 %r4, s;
    add.s32 %r4, %r4, %r3;
    st.shared.u32 [%r4], %r2;
    ret;
}

// lanes below `split` shuffle with the whole warp; the others wait at a CTA barrier: deadlock
// unless split == 0 or 32.
.visible .entry split_sync(.param .u64 out, .param .u32 split)
{
    .reg .pred %p<2>;
    .reg .b32 %r<5>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [out];
    ld.param.u32 %r1, [split];
    mov.u32 %r2, %tid.x;
    setp.lt.u32 %p1, %r2, %r1;
    @%p1 bra SHUFFLE;
    bar.sync 0;
    bra DONE;
SHUFFLE:
    shfl.sync.bfly.b32 %r3, %r2, 1, 31, -1;
    mul.wide.u32 %rd2, %r2, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r3;
DONE:
    ret;
}
)";

class ErrorTest : public ::testing::TestWithParam<unsigned> {
protected:
    Device &dev() { return DeviceFor(GetParam()); }
    const Kernel *K(const char *name) {
        auto m = dev().LoadModule(kBadPtx);
        EXPECT_TRUE(m.ok()) << m.status().ToString();
        if (!m.ok()) return nullptr;
        mod_ = *m;
        return mod_->Find(name);
    }
    Status Run(const Kernel *k, uint32_t grid, uint32_t block, std::vector<Arg> args) {
        LaunchConfig c;
        c.grid = {grid, 1, 1};
        c.block = {block, 1, 1};
        return dev().Launch(*k, c, args);
    }
    std::shared_ptr<const Module> mod_;
};
INSTANTIATE_TEST_SUITE_P(Workers, ErrorTest, ::testing::Values(1u, 2u));

TEST_P(ErrorTest, OutOfBoundsGlobalLoadIsAnError) {
    const Kernel *k = K("shifted_copy");
    ASSERT_NE(k, nullptr);
    const uint32_t n = 256;
    auto *in = static_cast<uint32_t *>(dev().Allocate(n * 4));
    auto *out = static_cast<uint32_t *>(dev().Allocate(n * 4));
    for (uint32_t i = 0; i < n; ++i) in[i] = i * 7;
    // in bounds
    ASSERT_TRUE(Ok(Run(k, 4, 64, {Arg::Ptr(in), Arg::Ptr(out), Arg::U32(n - 3), Arg::U32(3)})));
    for (uint32_t i = 0; i < n - 3; ++i) ASSERT_EQ(out[i], (i + 3) * 7);
    // reads past the end of `in`
    Status st = Run(k, 4, 64, {Arg::Ptr(in), Arg::Ptr(out), Arg::U32(n), Arg::U32(3)});
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.message().find("shifted_copy"), std::string::npos) << st.message();
    EXPECT_NE(st.message().find("out-of-bounds global"), std::string::npos) << st.message();
    EXPECT_NE(st.message().find("load of 4 bytes"), std::string::npos) << st.message();
    // wild pointer (never registered)
    st = Run(k, 1, 32, {Arg::U64(0x1000), Arg::Ptr(out), Arg::U32(32), Arg::U32(0)});
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.message().find("0x1000"), std::string::npos) << st.message();
    // the device still works afterwards
    ASSERT_TRUE(Ok(Run(k, 4, 64, {Arg::Ptr(in), Arg::Ptr(out), Arg::U32(n), Arg::U32(0)})));
    for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(out[i], i * 7);
    // caller-owned memory becomes accessible once registered
    std::vector<uint32_t> host(n, 5);
    st = Run(k, 4, 64, {Arg::Ptr(host.data()), Arg::Ptr(out), Arg::U32(n), Arg::U32(0)});
    ASSERT_FALSE(st.ok());
    dev().RegisterMemory(host.data(), n * 4);
    ASSERT_TRUE(Ok(Run(k, 4, 64, {Arg::Ptr(host.data()), Arg::Ptr(out), Arg::U32(n), Arg::U32(0)})));
    ASSERT_EQ(out[17], 5u);
    dev().UnregisterMemory(host.data());
    dev().Free(in);
    dev().Free(out);
}

// A 32-bit index that wraps inside a warp gives addresses that are not consecutive even though
// the indices are (mod 2^32).  Threads 0-47 read in[0..47]; threads 48-63 (in the second warp,
// after the first has filled the access site's range cache) read 4 * 2^32 bytes below `in`.
TEST_P(ErrorTest, IndexWrappingInsideAWarpIsNotAConsecutiveAccess) {
    const Kernel *k = K("shifted_copy");
    ASSERT_NE(k, nullptr);
    auto *in = static_cast<uint32_t *>(dev().Allocate(64 * 4));
    auto *out = static_cast<uint32_t *>(dev().Allocate(64 * 4));
    for (uint32_t i = 0; i < 64; ++i) in[i] = i + 100;
    const uint32_t off = 0xffffffd0u;
    uint64_t base = (uint64_t)(uintptr_t)in - 4ull * off;
    ASSERT_TRUE(Ok(Run(k, 1, 64, {Arg::U64(base), Arg::Ptr(out), Arg::U32(48), Arg::U32(off)})));
    for (uint32_t i = 0; i < 48; ++i) ASSERT_EQ(out[i], i + 100);
    Status st = Run(k, 1, 64, {Arg::U64(base), Arg::Ptr(out), Arg::U32(64), Arg::U32(off)});
    ASSERT_FALSE(st.ok()) << "thread 48 read " << out[48];
    EXPECT_NE(st.message().find("out-of-bounds global"), std::string::npos) << st.message();
    dev().Free(in);
    dev().Free(out);
}

TEST_P(ErrorTest, MemoryFaultWithoutBoundsChecksIsAnError) {
    const Kernel *k = K("shifted_copy");
    ASSERT_NE(k, nullptr);
    auto *out = static_cast<uint32_t *>(dev().Allocate(64 * 4));
    LaunchConfig c;
    c.grid = {2, 1, 1};
    c.block = {32, 1, 1};
    c.check_bounds = false;
    Status st = dev().Launch(*k, c, {Arg::U64(0x10), Arg::Ptr(out), Arg::U32(64), Arg::U32(0)});
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.message().find("shifted_copy"), std::string::npos) << st.message();
    EXPECT_NE(st.message().find("memory fault"), std::string::npos) << st.message();
    auto *in = static_cast<uint32_t *>(dev().Allocate(64 * 4));
    for (uint32_t i = 0; i < 64; ++i) in[i] = i + 1;
    ASSERT_TRUE(Ok(dev().Launch(*k, c, {Arg::Ptr(in), Arg::Ptr(out), Arg::U32(64), Arg::U32(0)})));  // still works
    EXPECT_EQ(out[63], 64u);
    dev().Free(in);
    dev().Free(out);
}

TEST_P(ErrorTest, DivisionByZeroIsAnError) {
    const Kernel *k = K("divide");
    ASSERT_NE(k, nullptr);
    auto *a = static_cast<int32_t *>(dev().Allocate(64 * 4));
    auto *out = static_cast<int32_t *>(dev().Allocate(64 * 4));
    for (int i = 0; i < 64; ++i) a[i] = i - 32;
    a[0] = INT32_MIN;
    ASSERT_TRUE(Ok(Run(k, 1, 64, {Arg::Ptr(a), Arg::Ptr(out), Arg::S32(-1)})));
    EXPECT_EQ(out[0], INT32_MIN);  // INT_MIN / -1 wraps as on the GPU, without a host trap
    EXPECT_EQ(out[1], 31);
    Status st = Run(k, 1, 64, {Arg::Ptr(a), Arg::Ptr(out), Arg::S32(0)});
    ASSERT_FALSE(st.ok());
    EXPECT_TRUE(st.sqlstate() == sqlstate::kDivisionByZero);
    EXPECT_NE(st.message().find("divide"), std::string::npos) << st.message();
    EXPECT_NE(st.message().find("division by zero"), std::string::npos) << st.message();
    dev().Free(a);
    dev().Free(out);
}

TEST_P(ErrorTest, OutOfBoundsSharedStoreIsAnError) {
    const Kernel *k = K("shared_store");
    ASSERT_NE(k, nullptr);
    EXPECT_EQ(k->static_shared_bytes(), 256u);
    ASSERT_TRUE(Ok(Run(k, 2, 64, {Arg::U32(0)})));
    Status st = Run(k, 2, 64, {Arg::U32(1)});
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.message().find("out-of-bounds shared"), std::string::npos) << st.message();
    EXPECT_NE(st.message().find("thread (63,0,0)"), std::string::npos) << st.message();
}

TEST_P(ErrorTest, BarrierDeadlockIsAnError) {
    const Kernel *k = K("split_sync");
    ASSERT_NE(k, nullptr);
    auto *out = static_cast<uint32_t *>(dev().Allocate(64 * 4));
    ASSERT_TRUE(Ok(Run(k, 1, 64, {Arg::Ptr(out), Arg::U32(64)})));  // everyone shuffles
    for (uint32_t i = 0; i < 64; ++i) ASSERT_EQ(out[i], i ^ 1);
    ASSERT_TRUE(Ok(Run(k, 1, 64, {Arg::Ptr(out), Arg::U32(0)})));  // everyone waits at the barrier
    Status st = Run(k, 1, 64, {Arg::Ptr(out), Arg::U32(16)});
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.message().find("split_sync"), std::string::npos) << st.message();
    EXPECT_NE(st.message().find("deadlock"), std::string::npos) << st.message();
    ASSERT_TRUE(Ok(Run(k, 1, 64, {Arg::Ptr(out), Arg::U32(32)})));  // warp 0 shuffles, warp 1 waits
    dev().Free(out);
}

TEST_P(ErrorTest, BadLaunchesAreErrors) {
    const Kernel *k = K("divide");
    ASSERT_NE(k, nullptr);
    EXPECT_FALSE(Run(k, 1, 64, {Arg::U64(0)}).ok());                                   // too few args
    EXPECT_FALSE(Run(k, 1, 64, {Arg::U64(0), Arg::U64(0), Arg::U64(0)}).ok());          // wrong size
    EXPECT_FALSE(Run(k, 1, 2048, {Arg::U64(0), Arg::U64(0), Arg::S32(1)}).ok());        // block too big
    EXPECT_FALSE(Run(k, 0, 32, {Arg::U64(0), Arg::U64(0), Arg::S32(1)}).ok());          // empty grid
}

TEST(CpuJitModule, MalformedPtxIsAParseError) {
    Device &dev = DeviceFor(1);
    auto m = dev.LoadModule(".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\n  add.s32 %r1, ;\n}\n");
    ASSERT_FALSE(m.ok());
    EXPECT_EQ(m.status().code(), Code::PARSE_ERROR);
    EXPECT_NE(m.status().message().find("6:"), std::string::npos) << m.status().message();
    auto m2 = dev.LoadModule(".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\n  .reg .b32 %r<2>;\n  tex.1d.v4.f32.f32 {%r0,%r0,%r0,%r0}, [t, {%r1}];\n  ret;\n}\n");
    ASSERT_FALSE(m2.ok());
    EXPECT_NE(m2.status().code(), Code::OK);
    auto m3 = dev.LoadModule("garbage $$$ {");
    ASSERT_FALSE(m3.ok());
}

TEST(CpuJitModule, LoadsTheSharedPtxIr) {
    auto ir = ptx::ParseModule(kBadPtx, "bad.ptx");
    ASSERT_TRUE(ir.ok()) << ir.status().ToString();
    Device &dev = DeviceFor(2);
    auto m = dev.LoadModule(*ir);
    ASSERT_TRUE(m.ok()) << m.status().ToString();
    const Kernel *k = (*m)->Find("shifted_copy");
    ASSERT_NE(k, nullptr);
    ASSERT_EQ(k->params().size(), 4u);
    auto *in = static_cast<uint32_t *>(dev.Allocate(100 * 4));
    auto *out = static_cast<uint32_t *>(dev.Allocate(100 * 4));
    for (uint32_t i = 0; i < 100; ++i) in[i] = i * i;
    LaunchConfig c;
    c.grid = {4, 1, 1};
    c.block = {32, 1, 1};
    ASSERT_TRUE(Ok(dev.Launch(*k, c, {Arg::Ptr(in), Arg::Ptr(out), Arg::U32(90), Arg::U32(10)})));
    for (uint32_t i = 0; i < 90; ++i) ASSERT_EQ(out[i], (i + 10) * (i + 10));
    dev.Free(in);
    dev.Free(out);
}

TEST(CpuJitModule, ModulesAreCachedByText) {
    Device &dev = DeviceFor(1);
    auto a = dev.LoadModule(kBadPtx);
    auto b = dev.LoadModule(kBadPtx);
    ASSERT_TRUE(a.ok() && b.ok());
    EXPECT_EQ(a->get(), b->get());
    EXPECT_EQ((*a)->kernels().size(), 4u);
    EXPECT_GT((*a)->kernels()[0]->jit_ms(), 0.0);
}

// PTX ISA 9.0 cvt, float -> integer of NaN: 0 when the source is f32 and the destination 32 bits
// or fewer, otherwise the destination's top bit alone (an H200 gave INT64_MIN for
// cvt.rzi.s64.f64, where this device gave 0 before).
TEST(CpuJitModule, FloatToIntegerOfNaN) {
    const char *ptx = R"(.version 8.0
.target sm_80
.address_size 64
.visible .entry nan_cvt(.param .u64 out)
{
  .reg .b64 %rd<12>;
  .reg .b32 %r<8>;
  .reg .b16 %h<2>;
  .reg .f32 %f<2>;
  .reg .f64 %fd<2>;
  ld.param.u64 %rd0, [out];
  mov.b32 %f0, 0x7fc00000;
  mov.b64 %fd0, 0x7ff8000000000000;
  cvt.rzi.s32.f32 %r0, %f0;
  cvt.rzi.u32.f32 %r1, %f0;
  cvt.rzi.s32.f64 %r2, %fd0;
  cvt.rni.u32.f64 %r3, %fd0;
  cvt.rzi.s64.f32 %rd1, %f0;
  cvt.rmi.u64.f32 %rd2, %f0;
  cvt.rzi.s64.f64 %rd3, %fd0;
  cvt.rpi.u64.f64 %rd4, %fd0;
  cvt.rzi.s16.f32 %h0, %f0;
  cvt.rzi.s16.f64 %h1, %fd0;
  cvt.u64.u32 %rd5, %r0;
  st.global.u64 [%rd0], %rd5;
  cvt.u64.u32 %rd5, %r1;
  st.global.u64 [%rd0+8], %rd5;
  cvt.u64.u32 %rd5, %r2;
  st.global.u64 [%rd0+16], %rd5;
  cvt.u64.u32 %rd5, %r3;
  st.global.u64 [%rd0+24], %rd5;
  st.global.u64 [%rd0+32], %rd1;
  st.global.u64 [%rd0+40], %rd2;
  st.global.u64 [%rd0+48], %rd3;
  st.global.u64 [%rd0+56], %rd4;
  cvt.u64.u16 %rd5, %h0;
  st.global.u64 [%rd0+64], %rd5;
  cvt.u64.u16 %rd5, %h1;
  st.global.u64 [%rd0+72], %rd5;
  ret;
}
)";
    Device &dev = DeviceFor(1);
    auto m = dev.LoadModule(ptx);
    ASSERT_TRUE(m.ok()) << m.status().ToString();
    const Kernel *k = (*m)->Find("nan_cvt");
    ASSERT_NE(k, nullptr);
    auto *out = static_cast<uint64_t *>(dev.Allocate(10 * 8));
    for (int i = 0; i < 10; ++i) out[i] = 0x5555;
    LaunchConfig c;
    c.grid = {1, 1, 1};
    c.block = {1, 1, 1};
    ASSERT_TRUE(Ok(dev.Launch(*k, c, {Arg::Ptr(out)})));
    const uint64_t want[10] = {0, 0, 0x80000000u, 0x80000000u, 1ull << 63, 1ull << 63, 1ull << 63, 1ull << 63, 0, 0x8000};
    for (int i = 0; i < 10; ++i) EXPECT_EQ(out[i], want[i]) << "conversion " << i;
    dev.Free(out);
}

}  // namespace
}  // namespace rndn::cpujit::testing
