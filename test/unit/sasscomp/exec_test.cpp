// Corpus kernels compiled by rndn::sasscomp, run in the SASS emulator with the hazard checker on
// (zero hazards required) and compared with the C++ references of the cpu device's corpus tests
// (test/unit/cpujit/corpus_*_test.cpp, same launches and expressions), for every architecture.
#include <cmath>

#include "sasscomp/harness.h"

namespace rndn::cpujit::testing {
namespace {

class CompiledCorpus : public CorpusTest {};
RNDN_CJ_INSTANTIATE(CompiledCorpus);

constexpr int kN = 1000;

TEST_P(CompiledCorpus, Saxpy) {
    auto x = RandF(kN, -100, 100), y = RandF(kN, -100, 100);
    float *dx = Buf(x), *dy = Buf(y);
    ASSERT_TRUE(Ok(Launch(K("saxpy", "saxpy"), D1(Blocks(kN, 128)), D1(128), {Arg::S32(kN), Arg::F32(1.75f), Arg::Ptr(dx), Arg::Ptr(dy)})));
    for (int i = 0; i < kN; ++i) ASSERT_TRUE(SameF(dy[i], std::fmaf(1.75f, x[i], y[i]))) << i;
    auto xd = RandD(kN, -1e3, 1e3), yd = RandD(kN, -1e3, 1e3);
    double *ddx = Buf(xd), *ddy = Buf(yd);
    ASSERT_TRUE(Ok(Launch(K("saxpy", "daxpy"), D1(Blocks(kN, 64)), D1(64), {Arg::S32(kN), Arg::F64(-0.3), Arg::Ptr(ddx), Arg::Ptr(ddy)})));
    for (int i = 0; i < kN; ++i) ASSERT_TRUE(SameD(ddy[i], std::fma(-0.3, xd[i], yd[i]))) << i;
    float *sx = Buf(x);
    ASSERT_TRUE(Ok(Launch(K("saxpy", "sscal_offset"), D1(3), D1(512), {Arg::Ptr(sx), Arg::F32(3.f), Arg::F32(-1.f), Arg::U32(kN)})));
    for (int i = 0; i < kN; ++i) ASSERT_TRUE(SameF(sx[i], std::fmaf(x[i], 3.f, -1.f))) << i;
}

TEST_P(CompiledCorpus, MapInt32) {
    auto a = RandBits<int32_t>(kN), b = RandBits<int32_t>(kN);
    int32_t *da = Buf(a), *db = Buf(b), *out = Zeros<int32_t>(kN);
    ASSERT_TRUE(Ok(Launch(K("map_int32", "map_i32_logic"), D1(Blocks(kN, 256)), D1(256), {Arg::Ptr(da), Arg::Ptr(db), Arg::Ptr(out), Arg::S32(kN)})));
    for (int i = 0; i < kN; ++i) ASSERT_EQ(out[i], ((a[i] & b[i]) | (a[i] ^ 0x5a5a5a5a)) ^ ~b[i]) << i;
    ASSERT_TRUE(Ok(Launch(K("map_int32", "map_i32_shift"), D1(Blocks(kN, 128)), D1(128), {Arg::Ptr(da), Arg::Ptr(db), Arg::Ptr(out), Arg::S32(kN)})));
    for (int i = 0; i < kN; ++i) {
        uint32_t s = (uint32_t)b[i] & 31;
        int32_t e = (int32_t)((uint32_t)(a[i] >> s) + ((uint32_t)a[i] << s) + ((uint32_t)a[i] >> s));
        ASSERT_EQ(out[i], e) << i;
    }
    int64_t *o64 = Zeros<int64_t>(kN);
    ASSERT_TRUE(Ok(Launch(K("map_int32", "map_i32_mulwide"), D1(Blocks(kN, 128)), D1(128), {Arg::Ptr(da), Arg::Ptr(db), Arg::Ptr(o64), Arg::S32(kN)})));
    for (int i = 0; i < kN; ++i) ASSERT_EQ(o64[i], (int64_t)a[i] * b[i]) << i;
}

TEST_P(CompiledCorpus, MapFloatDouble) {
    auto a = RandF(kN, -100, 100), b = RandF(kN, -100, 100), c = RandF(kN, -100, 100);
    float *da = Buf(a), *db = Buf(b), *dc = Buf(c), *out = Zeros<float>(kN);
    ASSERT_TRUE(Ok(Launch(K("map_float", "map_f32_fma"), D1(Blocks(kN, 128)), D1(128), {Arg::Ptr(da), Arg::Ptr(db), Arg::Ptr(dc), Arg::Ptr(out), Arg::S32(kN)})));
    for (int i = 0; i < kN; ++i) ASSERT_TRUE(SameF(out[i], std::fmaf(a[i], b[i], c[i]))) << i;
    auto ad = RandD(kN, -1e3, 1e3), bd = RandD(kN, -1e3, 1e3), cd = RandD(kN, -1e3, 1e3);
    double *dad = Buf(ad), *dbd = Buf(bd), *dcd = Buf(cd), *outd = Zeros<double>(kN);
    ASSERT_TRUE(Ok(Launch(K("map_double", "map_f64_fma"), D1(Blocks(kN, 128)), D1(128), {Arg::Ptr(dad), Arg::Ptr(dbd), Arg::Ptr(dcd), Arg::Ptr(outd), Arg::S32(kN)})));
    for (int i = 0; i < kN; ++i) ASSERT_TRUE(SameD(outd[i], std::fma(ad[i], bd[i], cd[i]))) << i;
    auto f = RandF(kN, -1e4, 1e4);
    float *df = Buf(f), *of = Zeros<float>(kN);
    ASSERT_TRUE(Ok(Launch(K("map_double", "map_f64_from_f32"), D1(Blocks(kN, 128)), D1(128), {Arg::Ptr(df), Arg::Ptr(outd), Arg::S32(kN)})));
    for (int i = 0; i < kN; ++i) ASSERT_TRUE(SameD(outd[i], (double)f[i] * 0.1)) << i;
    ASSERT_TRUE(Ok(Launch(K("map_double", "map_f32_from_f64"), D1(Blocks(kN, 128)), D1(128), {Arg::Ptr(dad), Arg::Ptr(of), Arg::S32(kN)})));
    for (int i = 0; i < kN; ++i) ASSERT_TRUE(SameF(of[i], (float)ad[i])) << i;
}

TEST_P(CompiledCorpus, SelectAndGrid) {
    auto u = RandBits<uint32_t>(kN);
    auto s = RandInt<int32_t>(kN, -300, 300);
    u[0] = 5;
    uint32_t *du = Buf(u);
    int32_t *ds = Buf(s), *out = Zeros<int32_t>(kN);
    ASSERT_TRUE(Ok(Launch(K("select_compare", "unsigned_vs_signed"), D1(Blocks(kN, 128)), D1(128), {Arg::Ptr(du), Arg::Ptr(ds), Arg::Ptr(out), Arg::S32(kN)})));
    for (int i = 0; i < kN; ++i) {
        int e = (u[i] < 100u ? 1 : 0) + (s[i] < 100 ? 2 : 0) + ((unsigned)s[i] > u[i] ? 4 : 0) + (u[i] >= 0x80000000u ? 8 : 0);
        ASSERT_EQ(out[i], e) << i;
    }
    Dim3 g{3, 2, 2}, b{4, 3, 2};
    int nthreads = 24, nblocks = 12;
    int32_t *gd = Zeros<int32_t>(6 + nblocks * nthreads);
    ASSERT_TRUE(Ok(Launch(K("grid_3d", "grid_dims"), g, b, {Arg::Ptr(gd)})));
    int32_t head[6] = {3, 2, 2, 4, 3, 2};
    for (int k = 0; k < 6; ++k) ASSERT_EQ(gd[k], head[k]);
    for (int bid = 0; bid < nblocks; ++bid)
        for (int t = 0; t < nthreads; ++t) ASSERT_EQ(gd[6 + bid * nthreads + t], bid * 65536 + t);
    const int n = 5000;
    int32_t *iota = Zeros<int32_t>(n);  // a grid-stride loop: loop-carried registers, backward branch
    ASSERT_TRUE(Ok(Launch(K("grid_stride", "gs_fill_iota"), D1(2), D1(96), {Arg::Ptr(iota), Arg::S32(-7), Arg::S32(3), Arg::S32(n)})));
    for (int i = 0; i < n; ++i) ASSERT_EQ(iota[i], -7 + 3 * i);
}

TEST_P(CompiledCorpus, VectorMemoryAndDivPow2) {
    const int n = 777;
    auto a = RandF(n, -100, 100);
    float *da = Buf(a), *out = Zeros<float>(n);
    ASSERT_TRUE(Ok(Launch(K("vector_memory", "ldg_scale"), D1(Blocks(n, 64)), D1(64), {Arg::Ptr(da), Arg::Ptr(out), Arg::F32(1.5f), Arg::S32(n)})));
    for (int i = 0; i < n; ++i) ASSERT_TRUE(SameF(out[i], a[i] * 1.5f));
    auto s = RandBits<int32_t>(n);
    int32_t *ds = Buf(s), *so = Zeros<int32_t>(n);
    ASSERT_TRUE(Ok(Launch(K("vector_memory", "cache_hints"), D1(Blocks(n, 64)), D1(64), {Arg::Ptr(ds), Arg::Ptr(so), Arg::S32(n)})));
    for (int i = 0; i < n; ++i) ASSERT_EQ((uint32_t)so[i], 5u * (uint32_t)s[i]);
    auto q = Zeros<int32_t>(kN);
    auto x = RandBits<int32_t>(kN);
    int32_t *dx = Buf(x);
    ASSERT_TRUE(Ok(Launch(K("int32_divmod", "div_s32_pow2"), D1(Blocks(kN, 128)), D1(128), {Arg::Ptr(dx), Arg::Ptr(q), Arg::S32(kN)})));
    for (int i = 0; i < kN; ++i) ASSERT_EQ(q[i], (int32_t)((uint32_t)(x[i] / 16) + (uint32_t)(x[i] % 8) + (uint32_t)(x[i] / -3))) << i;
}


TEST_P(CompiledCorpus, DivergentLoopsAndGuards) {
    auto a = RandInt<uint32_t>(kN, 0, 100000);
    a[0] = 0;
    a[1] = 1;
    a[2] = 27;
    uint32_t *da = Buf(a);
    int32_t *out = Zeros<int32_t>(kN);
    ASSERT_TRUE(Ok(Launch(K("control_flow", "collatz_steps"), D1(Blocks(kN, 64)), D1(64), {Arg::Ptr(da), Arg::Ptr(out), Arg::S32(kN)})));
    for (int i = 0; i < kN; ++i) {
        uint32_t x = a[i];
        int steps = 0;
        while (x != 1 && steps < 1000) {
            x = (x & 1) ? 3 * x + 1 : x / 2;
            ++steps;
        }
        ASSERT_EQ(out[i], steps) << i;
    }
    auto m = RandInt<int32_t>(kN, -20, 20);
    int32_t *dm = Buf(m);
    ASSERT_TRUE(Ok(Launch(K("control_flow", "nested_loops"), D1(Blocks(kN, 32)), D1(32), {Arg::Ptr(dm), Arg::Ptr(out), Arg::S32(kN)})));
    for (int i = 0; i < kN; ++i) {
        int lim = m[i] % 8, sum = 0;
        for (int j = 0; j < lim; ++j)
            for (int k = 0; k <= j; ++k) {
                if (k == 2) continue;
                if (j * k > 20) break;
                sum += j * k;
            }
        ASSERT_EQ(out[i], sum) << i;
    }
    const int src_len = 50;
    auto src = RandBits<int32_t>(src_len);
    auto idx = RandInt<int32_t>(kN, -10, 60);
    int32_t *ds = Buf(src), *di = Buf(idx);
    ASSERT_TRUE(Ok(Launch(K("guarded_load", "gather_guarded"), D1(Blocks(kN, 128)), D1(128), {Arg::Ptr(ds), Arg::Ptr(di), Arg::Ptr(out), Arg::S32(kN), Arg::S32(src_len)})));
    for (int i = 0; i < kN; ++i) ASSERT_EQ(out[i], (idx[i] >= 0 && idx[i] < src_len) ? src[idx[i]] : -1) << i;
}

TEST_P(CompiledCorpus, GridsMinMaxNarrowStores) {
    const int rows = 45, cols = 70;
    auto in = RandF(rows * cols, -1, 1);
    float *din = Buf(in), *tr = Zeros<float>(rows * cols);
    ASSERT_TRUE(Ok(Launch(K("grid_3d", "transpose_2d"), Dim3{Blocks(cols, 16), Blocks(rows, 8), 1}, Dim3{16, 8, 1}, {Arg::Ptr(din), Arg::Ptr(tr), Arg::S32(rows), Arg::S32(cols)})));
    for (int y = 0; y < rows; ++y)
        for (int x = 0; x < cols; ++x) ASSERT_TRUE(SameF(tr[x * rows + y], in[y * cols + x]));
    const int nx = 13, ny = 7, nz = 5;
    int32_t *vol = Zeros<int32_t>(nx * ny * nz);
    ASSERT_TRUE(Ok(Launch(K("grid_3d", "volume_index_3d"), Dim3{2, 2, 3}, Dim3{8, 4, 2}, {Arg::Ptr(vol), Arg::S32(nx), Arg::S32(ny), Arg::S32(nz)})));
    for (int z = 0; z < nz; ++z)
        for (int y = 0; y < ny; ++y)
            for (int x = 0; x < nx; ++x) ASSERT_EQ(vol[(z * ny + y) * nx + x], x + 1000 * y + 1000000 * z);
    auto a = RandF(kN, -100, 100), b = RandF(kN, -100, 100);
    float *da = Buf(a), *db = Buf(b), *out = Zeros<float>(kN);
    ASSERT_TRUE(Ok(Launch(K("map_float", "map_f32_minmax"), D1(Blocks(kN, 128)), D1(128), {Arg::Ptr(da), Arg::Ptr(db), Arg::Ptr(out), Arg::S32(kN)})));
    for (int i = 0; i < kN; ++i) ASSERT_TRUE(SameF(out[i], std::fmaf(std::fmin(a[i], b[i]), 0.5f, std::fmax(a[i], b[i])))) << i;
}

TEST_P(CompiledCorpus, NarrowStores) {
    auto fa = RandF(kN, -70000, 70000);
    float *dfa = Buf(fa);
    uint8_t *b8 = Zeros<uint8_t>(kN);
    int16_t *h16 = Zeros<int16_t>(kN);
    ASSERT_TRUE(Ok(Launch(K("conversions", "f32_to_u8_i16"), D1(Blocks(kN, 128)), D1(128), {Arg::Ptr(dfa), Arg::Ptr(b8), Arg::Ptr(h16), Arg::S32(kN)})));
    for (int i = 0; i < kN; ++i) {
        int32_t v = (int32_t)fa[i];
        ASSERT_EQ(b8[i], (uint8_t)v) << i;
        ASSERT_EQ(h16[i], (int16_t)v) << i;
    }
}

}  // namespace
}  // namespace rndn::cpujit::testing

namespace rndn::cpujit::testing {
namespace {

// Every kernel named in UnsupportedTests() must still fail to compile on every architecture: once it
// compiles, its test must run (remove it from the list).
TEST(CompiledCorpusList, KnownUnsupportedStillFail) {
    for (const auto &[test, kernel] : UnsupportedTests()) {
        std::string file = kernel.substr(0, kernel.find('/')), name = kernel.substr(kernel.find('/') + 1);
        for (const char *arch : {"sm_75", "sm_80", "sm_86", "sm_89", "sm_90"}) {
            auto c = sasscomp::testing::CompileCorpusKernel(arch, file, name);
            EXPECT_FALSE(c.ok()) << kernel << " compiles for " << arch << ": remove " << test << " from UnsupportedTests()";
            if (!c.ok()) EXPECT_EQ(c.status().message().find("missing corpus file"), std::string::npos) << c.status().ToString();
        }
    }
}

}  // namespace
}  // namespace rndn::cpujit::testing
