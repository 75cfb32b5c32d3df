// Corpus kernels compiled by rndn::sasscomp, run in the SASS emulator with the hazard checker on
// (zero hazards required) and compared with the C++ references of the cpu device's corpus tests
// (test/unit/cpujit/corpus_*_test.cpp, same launches and expressions), for every architecture.
#include <climits>
#include <cmath>
#include <numeric>
#include <random>

#ifdef RNDN_COMPILED_HARNESS  // test/unit/cuda runs these tests through the CUDA driver API
#include RNDN_COMPILED_HARNESS
#else
#include "sasscomp/harness.h"
#include "assembler/nv_tools.h"
#include "sasscomp/readback.h"
#endif

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

// shared memory tiles and barriers: block reductions (static and dynamic shared memory)
TEST_P(CompiledCorpus, SharedMemoryBlockReductions) {
    const int n = 1500;
    int nb = Blocks(n, 256);
    auto in = RandBits<int32_t>(n);
    int32_t *din = Buf(in), *out = Zeros<int32_t>(nb), *out2 = Zeros<int32_t>(nb);
    auto block_sum = [&](int b) {
        uint32_t s = 0;
        for (int i = b * 256; i < std::min(n, b * 256 + 256); ++i) s += (uint32_t)in[i];
        return s;
    };
    ASSERT_TRUE(Ok(Launch(K("block_reduce", "block_sum_i32"), D1(nb), D1(256), {Arg::Ptr(din), Arg::Ptr(out), Arg::S32(n)})));
    for (int b = 0; b < nb; ++b) ASSERT_EQ((uint32_t)out[b], block_sum(b)) << b;
    ASSERT_TRUE(Ok(Launch(K("block_reduce", "block_sum_warp_shfl"), D1(nb), D1(256), {Arg::Ptr(din), Arg::Ptr(out2), Arg::S32(n)})));
    for (int b = 0; b < nb; ++b) ASSERT_EQ((uint32_t)out2[b], block_sum(b)) << b;
    const int m = 333;
    const uint32_t bs = 64;
    auto d = RandD(m, -100, 100);
    double *dd = Buf(d), *ds = Zeros<double>(Blocks(m, bs));
    ASSERT_TRUE(Ok(Launch(K("dynamic_shared", "dyn_double_sum"), D1(Blocks(m, bs)), D1(bs), {Arg::Ptr(dd), Arg::Ptr(ds), Arg::S32(m)}, bs * 8)));
    for (uint32_t b = 0; b < Blocks(m, bs); ++b) {
        double sh[64];
        for (uint32_t t = 0; t < bs; ++t) sh[t] = b * bs + t < (uint32_t)m ? d[b * bs + t] : 0.0;
        for (int st = bs / 2; st >= 1; st /= 2)
            for (int t = 0; t < st; ++t) sh[t] = sh[t] + sh[t + st];
        ASSERT_TRUE(SameD(ds[b], sh[0])) << b;
    }
    int32_t *o = Zeros<int32_t>(n);
    ASSERT_TRUE(Ok(Launch(K("sync_variants", "named_barrier"), D1(Blocks(n, 128)), D1(128), {Arg::Ptr(din), Arg::Ptr(o), Arg::S32(n)})));
    for (int i = 0; i < n; ++i) ASSERT_EQ(o[i], (i ^ 32) < n ? in[i ^ 32] : 0) << i;
    // membar.gl / membar.cta (MEMBAR.SC.GPU + ERRBAR, MEMBAR.SC.CTA)
    int32_t *data = Zeros<int32_t>(n), *flag = Zeros<int32_t>(Blocks(n, 64));
    ASSERT_TRUE(Ok(Launch(K("sync_variants", "fence_publish"), D1(Blocks(n, 64)), D1(64), {Arg::Ptr(data), Arg::Ptr(flag), Arg::S32(n)})));
    for (int i = 0; i < n; ++i) ASSERT_EQ(data[i], 3 * i);
    for (uint32_t b = 0; b < Blocks(n, 64); ++b) ASSERT_EQ(flag[b], 1);
}

// warp shuffles (down, xor, idx, up) with partial last warps
TEST_P(CompiledCorpus, WarpShuffles) {
    const int n = 1000;
    auto in = RandBits<int32_t>(n);
    int32_t *din = Buf(in);
    int nw = Blocks(n, 32);
    int32_t *out = Zeros<int32_t>(nw + 8), *o2 = Zeros<int32_t>(n);
    ASSERT_TRUE(Ok(Launch(K("warp_reduce", "warp_sum_down"), D1(Blocks(n, 128)), D1(128), {Arg::Ptr(din), Arg::Ptr(out), Arg::S32(n)})));
    for (int w = 0; w < nw; ++w) {
        uint32_t s = 0;
        for (int i = w * 32; i < std::min(n, w * 32 + 32); ++i) s += (uint32_t)in[i];
        ASSERT_EQ((uint32_t)out[w], s) << w;
    }
    ASSERT_TRUE(Ok(Launch(K("warp_reduce", "warp_sum_xor"), D1(Blocks(n, 64)), D1(64), {Arg::Ptr(din), Arg::Ptr(o2), Arg::S32(n)})));
    for (int i = 0; i < n; ++i) {
        uint32_t s = 0;
        for (int j = i & ~31; j < std::min(n, (i & ~31) + 32); ++j) s += (uint32_t)in[j];
        ASSERT_EQ((uint32_t)o2[i], s) << i;
    }
    ASSERT_TRUE(Ok(Launch(K("warp_reduce", "warp_broadcast"), D1(Blocks(n, 128)), D1(128), {Arg::Ptr(din), Arg::Ptr(o2), Arg::S32(29), Arg::S32(n)})));
    for (int i = 0; i < n; ++i) ASSERT_EQ(o2[i], (i & ~31) + 29 < n ? in[(i & ~31) + 29] : 0) << i;
    ASSERT_TRUE(Ok(Launch(K("warp_reduce", "warp_scan_up"), D1(Blocks(n, 128)), D1(128), {Arg::Ptr(din), Arg::Ptr(o2), Arg::S32(n)})));
    for (int i = 0; i < n; ++i) {
        uint32_t s = 0;
        for (int j = i & ~31; j <= i; ++j) s += (uint32_t)in[j];
        ASSERT_EQ((uint32_t)o2[i], s) << i;
    }
}

// vector loads and stores (split per element), lane masks
TEST_P(CompiledCorpus, VectorsAndLaneMasks) {
    const int n = 300;
    auto a = RandF(4 * n, -10, 10), b = RandF(4 * n, -10, 10);
    float *da = Buf(a), *db = Buf(b), *out = Zeros<float>(4 * n);
    ASSERT_TRUE(Ok(Launch(K("vector_memory", "vec4_add_f32"), D1(Blocks(n, 64)), D1(64), {Arg::Ptr(da), Arg::Ptr(db), Arg::Ptr(out), Arg::S32(n)})));
    for (int i = 0; i < 4 * n; ++i) ASSERT_TRUE(SameF(out[i], a[i] + b[i])) << i;
    auto l = RandBits<int64_t>(2 * n);
    int64_t *dl = Buf(l), *lo = Zeros<int64_t>(2 * n);
    ASSERT_TRUE(Ok(Launch(K("vector_memory", "vec2_swap_i64"), D1(Blocks(n, 64)), D1(64), {Arg::Ptr(dl), Arg::Ptr(lo), Arg::S32(n)})));
    for (int i = 0; i < n; ++i) {
        ASSERT_EQ(lo[2 * i], l[2 * i + 1]);
        ASSERT_EQ(lo[2 * i + 1], l[2 * i]);
    }
    const uint32_t g = 3, bl = 50, cnt = g * bl;
    uint32_t *lm = Zeros<uint32_t>(5 * cnt);
    ASSERT_TRUE(Ok(Launch(K("special_regs", "sreg_lanemasks"), D1(g), D1(bl), {Arg::Ptr(lm)})));
    for (uint32_t i = 0; i < cnt; ++i) {
        uint32_t ln = (i % bl) % 32;
        uint64_t one = 1;
        ASSERT_EQ(lm[5 * i], (uint32_t)(one << ln)) << i;
        ASSERT_EQ(lm[5 * i + 1], (uint32_t)((one << ln) - 1)) << i;
        ASSERT_EQ(lm[5 * i + 2], (uint32_t)((2 * one << ln) - 1)) << i;
        ASSERT_EQ(lm[5 * i + 3], (uint32_t)~((2 * one << ln) - 1)) << i;
        ASSERT_EQ(lm[5 * i + 4], (uint32_t)~((one << ln) - 1)) << i;
    }
}

// global atomics: RED/REDG when the old value is unused, ATOMG otherwise
TEST_P(CompiledCorpus, GlobalAtomics) {
    const int n = 2000;
    auto in = RandInt<int32_t>(n, -50, 50);
    std::vector<float> f(in.begin(), in.end());
    float *df = Buf(f), *sum = Filled<float>(1, 10.f);
    ASSERT_TRUE(Ok(Launch(K("atomic_float", "atomic_add_f32"), D1(Blocks(n, 128)), D1(128), {Arg::Ptr(df), Arg::Ptr(sum), Arg::S32(n)})));
    ASSERT_EQ(*sum, 10.f + (float)std::accumulate(in.begin(), in.end(), 0));
    auto a = RandBits<int32_t>(n);
    int32_t *da = Buf(a), *mm = Buf(std::vector<int32_t>{INT_MAX, INT_MIN});
    ASSERT_TRUE(Ok(Launch(K("atomic_minmax", "atomic_min_max_i32"), D1(Blocks(n, 128)), D1(128), {Arg::Ptr(da), Arg::Ptr(mm), Arg::S32(n)})));
    ASSERT_EQ(mm[0], *std::min_element(a.begin(), a.end()));
    ASSERT_EQ(mm[1], *std::max_element(a.begin(), a.end()));
    auto u = RandBits<uint64_t>(n);
    uint64_t *du = Buf(u), *um = Buf(std::vector<uint64_t>{UINT64_MAX, 0});
    ASSERT_TRUE(Ok(Launch(K("atomic_minmax", "atomic_min_max_u64"), D1(Blocks(n, 128)), D1(128), {Arg::Ptr(du), Arg::Ptr(um), Arg::S32(n)})));
    ASSERT_EQ(um[0], *std::min_element(u.begin(), u.end()));
    ASSERT_EQ(um[1], *std::max_element(u.begin(), u.end()));
    int32_t *flags = Zeros<int32_t>(4), *win = Zeros<int32_t>(1);
    ASSERT_TRUE(Ok(Launch(K("atomic_minmax", "atomic_exch_flag"), D1(Blocks(n, 128)), D1(128), {Arg::Ptr(flags), Arg::Ptr(win), Arg::S32(n)})));
    ASSERT_EQ(win[0], 4);
    for (int k = 0; k < 4; ++k) ASSERT_NE(flags[k], 0);
}

// f64 additions and inc/dec (on sm_75 from the register-address RED forms of the ISA probe
// red_forms.cu's red_per_thread)
TEST_P(CompiledCorpus, GlobalAtomicsF64IncDec) {
    const int n = 2000;
    auto in = RandInt<int32_t>(n, -50, 50);
    std::vector<double> d(in.begin(), in.end());
    double *dd = Buf(d), *dsum = Zeros<double>(1);
    ASSERT_TRUE(Ok(Launch(K("atomic_float", "atomic_add_f64"), D1(Blocks(n, 128)), D1(128), {Arg::Ptr(dd), Arg::Ptr(dsum), Arg::S32(n)})));
    ASSERT_EQ(*dsum, (double)std::accumulate(in.begin(), in.end(), 0));
    uint32_t *ctr = Zeros<uint32_t>(2);
    ASSERT_TRUE(Ok(Launch(K("atomic_minmax", "atomic_inc_dec"), D1(Blocks(1234, 128)), D1(128), {Arg::Ptr(ctr), Arg::S32(1234)})));
    ASSERT_EQ(ctr[0], 1234u % 10);
    ASSERT_EQ(ctr[1], (10 - 1234u % 10) % 10);
}

}  // namespace
}  // namespace rndn::cpujit::testing

#ifndef RNDN_COMPILED_HARNESS  // below: the emulator harness's unsupported list and device (not in test/unit/cuda)
namespace rndn::cpujit::testing {
namespace {

// Every kernel named in UnsupportedTests() must still fail to compile on each architecture it is
// listed for (once it compiles, its test must run: remove it), and compile on the architectures an
// entry with a list of architectures does not name.
TEST(CompiledCorpusList, KnownUnsupportedStillFail) {
    for (const UnsupportedTest &u : UnsupportedTests()) {
        std::string file = u.kernel.substr(0, u.kernel.find('/')), name = u.kernel.substr(u.kernel.find('/') + 1);
        for (const std::string &arch : AllArchs()) {
            if (!u.On(arch)) {
                auto c = sasscomp::testing::CompileCorpusKernel(arch, file, name);
                EXPECT_TRUE(c.ok()) << u.kernel << " (" << u.test << ", listed for " << u.archs << ") does not compile for " << arch
                                    << ": " << c.status().ToString();
                continue;
            }
            auto c = sasscomp::testing::CompileCorpusKernel(arch, file, name);
            EXPECT_FALSE(c.ok()) << u.kernel << " compiles for " << arch << ": remove " << u.test << " (" << arch << ") from UnsupportedTests()";
            if (!c.ok()) EXPECT_EQ(c.status().message().find("missing corpus file"), std::string::npos) << c.status().ToString();
        }
    }
}

}  // namespace
}  // namespace rndn::cpujit::testing

namespace rndn::cpujit::testing {
namespace {

// A fixture for tests whose PTX is their own: CompileOwn compiles it with rndn::sasscomp for the
// test's architecture (all seven), checks that nvdisasm reads every instruction back as the text we
// meant, loads it and returns the kernel; the caller returns when
// HasFatalFailure() and asserts the kernel.
class OwnPtxTest : public CorpusTest {
protected:
    void CompileOwn(const char *text, const char *file, const char *kernel, const Kernel *&k) {
        k = nullptr;
        auto m = ptx::ParseModule(text, file);
        ASSERT_TRUE(m.ok()) << m.status().ToString();
        auto a = sass::ParseArch(arch());
        ASSERT_TRUE(a.ok());
        auto ks = sasscomp::CompileModule(*m, *a);
        ASSERT_TRUE(ks.ok()) << ks.status().ToString();
        auto cubin = sasscomp::BuildCubin(*ks, *a);
        ASSERT_TRUE(cubin.ok()) << cubin.status().ToString();
        // nvdisasm reads back what we meant to encode
        std::string nvdisasm = sass::nvtools::ToolPath("nvdisasm");
        ASSERT_FALSE(nvdisasm.empty()) << "nvdisasm not found (make deps)";
        std::string tmp = "build/test/own_" + arch() + "_" + file + ".cubin";
        {
            std::ofstream o(tmp, std::ios::binary);
            o.write(reinterpret_cast<const char *>(cubin->data()), (std::streamsize)cubin->size());
        }
        auto dis = sass::nvtools::Shell(nvdisasm + " " + tmp + " 2>&1");
        std::remove(tmp.c_str());
        ASSERT_EQ(dis.status, 0) << file << ": nvdisasm rejects our cubin: " << dis.out.substr(0, 2000);
        std::vector<std::pair<std::string, const sasscomp::CompiledKernel *>> named;
        for (const sasscomp::CompiledKernel &c : *ks) named.push_back({file, &c});
        EXPECT_EQ(sasscomp::ReadBackMismatches(dis.out, named, arch(), 50), 0);
        auto mod = dev().LoadModule(*cubin);
        ASSERT_TRUE(mod.ok()) << mod.status().ToString();
        own_ = *mod;
        k = own_->Find(kernel);
    }

private:
    std::shared_ptr<const Module> own_;
};


// Division, remainder, reciprocal and square root sequences on edge operands (not from the corpus):
// u64/s64 quotients and remainders against C++, f32 div/sqrt/rcp bit-exact including denormals,
// zeros, infinities and NaNs (the f64 path), f64 div/sqrt bit-exact for operands and results in the
// normal range and for zero/inf/NaN operands.
const char kDivPtx[] = R"(.version 8.0
.target sm_80
.address_size 64
.visible .entry divs(.param .u64 pa, .param .u64 pb, .param .u64 po, .param .u32 n)
{
    .reg .pred %p<2>;
    .reg .b32 %r<12>;
    .reg .f32 %f<8>;
    .reg .b64 %rd<20>;
    .reg .f64 %fd<8>;
    mov.u32 %r1, %tid.x;
    mov.u32 %r2, %ctaid.x;
    mov.u32 %r3, %ntid.x;
    mad.lo.s32 %r4, %r2, %r3, %r1;
    ld.param.u32 %r5, [n];
    setp.ge.u32 %p1, %r4, %r5;
    @%p1 bra DONE;
    ld.param.u64 %rd1, [pa];
    ld.param.u64 %rd2, [pb];
    ld.param.u64 %rd3, [po];
    mul.wide.u32 %rd4, %r4, 8;
    add.s64 %rd5, %rd1, %rd4;
    add.s64 %rd6, %rd2, %rd4;
    ld.global.u64 %rd7, [%rd5];
    ld.global.u64 %rd8, [%rd6];
    div.u64 %rd9, %rd7, %rd8;
    rem.u64 %rd10, %rd7, %rd8;
    div.s64 %rd11, %rd7, %rd8;
    rem.s64 %rd12, %rd7, %rd8;
    mov.b64 %fd1, %rd7;
    mov.b64 %fd2, %rd8;
    div.rn.f64 %fd3, %fd1, %fd2;
    sqrt.rn.f64 %fd4, %fd1;
    cvt.u32.u64 %r6, %rd7;
    cvt.u32.u64 %r7, %rd8;
    mov.b32 %f1, %r6;
    mov.b32 %f2, %r7;
    div.rn.f32 %f3, %f1, %f2;
    sqrt.rn.f32 %f4, %f1;
    rcp.rn.f32 %f5, %f2;
    div.u32 %r8, %r6, %r7;
    rem.s32 %r9, %r6, %r7;
    mul.wide.u32 %rd13, %r4, 64;
    add.s64 %rd14, %rd3, %rd13;
    st.global.u64 [%rd14], %rd9;
    st.global.u64 [%rd14+8], %rd10;
    st.global.u64 [%rd14+16], %rd11;
    st.global.u64 [%rd14+24], %rd12;
    st.global.f64 [%rd14+32], %fd3;
    st.global.f64 [%rd14+40], %fd4;
    st.global.f32 [%rd14+48], %f3;
    st.global.f32 [%rd14+52], %f4;
    st.global.f32 [%rd14+56], %f5;
    st.global.u32 [%rd14+60], %r8;
DONE:
    ret;
}
)";

// Register pressure beyond the 253 allocatable registers (not from the corpus): each thread loads
// kLive 32-bit values and kLive64 64-bit values, all live at once, and folds them in reverse order,
// so the allocator must spill general registers (LDL/STL in the stack frame).  The results equal
// the C++ fold, and the code holds spill loads and stores.
std::string PressurePtx(int live32, int live64) {
    std::string t = ".version 8.0\n.target sm_80\n.address_size 64\n"
                    ".visible .entry pressure(.param .u64 pa, .param .u64 pb, .param .u64 po)\n{\n";
    t += "    .reg .b32 %r<" + std::to_string(live32 + 8) + ">;\n    .reg .b64 %rd<" + std::to_string(live64 + 16) + ">;\n";
    t += "    mov.u32 %r1, %tid.x;\n    ld.param.u64 %rd1, [pa];\n    ld.param.u64 %rd2, [pb];\n    ld.param.u64 %rd3, [po];\n";
    t += "    mul.wide.u32 %rd4, %r1, " + std::to_string(4 * live32) + ";\n    add.s64 %rd5, %rd1, %rd4;\n";
    t += "    mul.wide.u32 %rd6, %r1, " + std::to_string(8 * live64) + ";\n    add.s64 %rd7, %rd2, %rd6;\n";
    for (int j = 0; j < live32; ++j) t += "    ld.global.u32 %r" + std::to_string(j + 8) + ", [%rd5+" + std::to_string(4 * j) + "];\n";
    for (int j = 0; j < live64; ++j) t += "    ld.global.u64 %rd" + std::to_string(j + 16) + ", [%rd7+" + std::to_string(8 * j) + "];\n";
    // acc = ((v[n-1] * 3 + v[n-2]) * 3 + ...) ^ ..., 32-bit then 64-bit
    t += "    mov.u32 %r2, 0;\n";
    for (int j = live32 - 1; j >= 0; --j) t += "    mad.lo.u32 %r2, %r2, 3, %r" + std::to_string(j + 8) + ";\n";
    t += "    cvt.u64.u32 %rd8, %r2;\n";
    for (int j = live64 - 1; j >= 0; --j) {
        t += "    mul.lo.u64 %rd8, %rd8, 5;\n";
        t += "    xor.b64 %rd8, %rd8, %rd" + std::to_string(j + 16) + ";\n";
    }
    t += "    mul.wide.u32 %rd9, %r1, 8;\n    add.s64 %rd10, %rd3, %rd9;\n    st.global.u64 [%rd10], %rd8;\n    ret;\n}\n";
    return t;
}

class CompiledSpilling : public OwnPtxTest {};
RNDN_CJ_INSTANTIATE(CompiledSpilling);

TEST_P(CompiledSpilling, ValuesBeyondTheRegisterFileAreSpilledAndReloaded) {
    const int live32 = 200, live64 = 60;  // 320 registers of values live at once
    const std::string text = PressurePtx(live32, live64);
    {  // the code spills: LDL/STL in the listing, a stack frame, and at most 255 registers declared
        auto m = ptx::ParseModule(text, "pressure.ptx");
        ASSERT_TRUE(m.ok()) << m.status().ToString();
        auto a = sass::ParseArch(arch());
        ASSERT_TRUE(a.ok());
        auto ks = sasscomp::CompileModule(*m, *a);
        ASSERT_TRUE(ks.ok()) << ks.status().ToString();
        std::string listing = sasscomp::FormatListing((*ks)[0]);
        EXPECT_NE(listing.find("STL"), std::string::npos);
        EXPECT_NE(listing.find("LDL"), std::string::npos);
        EXPECT_GT((*ks)[0].frame_bytes, 0u);
        EXPECT_LE((*ks)[0].registers, 255);
    }
    const Kernel *k = nullptr;
    CompileOwn(text.c_str(), "pressure.ptx", "pressure", k);
    if (IsSkipped() || HasFatalFailure()) return;
    ASSERT_NE(k, nullptr);
    const int threads = 64;
    std::mt19937_64 rng(20261127);
    std::vector<uint32_t> a((size_t)threads * live32);
    std::vector<uint64_t> b((size_t)threads * live64);
    for (auto &x : a) x = (uint32_t)rng();
    for (auto &x : b) x = rng();
    uint32_t *da = Buf(a);
    uint64_t *db = Buf(b), *out = Zeros<uint64_t>(threads);
    ASSERT_TRUE(Ok(Launch(k, D1(1), D1(threads), {Arg::Ptr(da), Arg::Ptr(db), Arg::Ptr(out)})));
    for (int t = 0; t < threads; ++t) {
        uint32_t acc = 0;
        for (int j = live32 - 1; j >= 0; --j) acc = acc * 3 + a[(size_t)t * live32 + j];
        uint64_t acc64 = acc;
        for (int j = live64 - 1; j >= 0; --j) acc64 = (acc64 * 5) ^ b[(size_t)t * live64 + j];
        ASSERT_EQ(out[t], acc64) << "thread " << t;
    }
}

bool SameBitsOrNan(double x, double y) {
    if (std::isnan(x) || std::isnan(y)) return std::isnan(x) && std::isnan(y);
    return std::memcmp(&x, &y, 8) == 0;
}
bool SameBitsOrNanF(float x, float y) {
    if (std::isnan(x) || std::isnan(y)) return std::isnan(x) && std::isnan(y);
    return std::memcmp(&x, &y, 4) == 0;
}

class CompiledDivision : public OwnPtxTest {};
RNDN_CJ_INSTANTIATE(CompiledDivision);

TEST_P(CompiledDivision, EdgeOperandsEqualCpp) {
    const Kernel *k = nullptr;
    CompileOwn(kDivPtx, "divs.ptx", "divs", k);
    if (IsSkipped() || HasFatalFailure()) return;
    ASSERT_NE(k, nullptr);

    // integer operands
    std::vector<uint64_t> iv = {0, 1, 2, 3, 7, 10, 0xffffffffull, 0x100000000ull, 0x100000001ull, 0x7fffffffffffffffull, 0x8000000000000000ull,
                                0xffffffffffffffffull, 0xfffffffffffffffeull, 12345678901234567ull, 0x8000000000000001ull, 0xdeadbeefcafef00dull,
                                (uint64_t)-3, (uint64_t)-1000000007, 1ull << 52, (1ull << 53) + 1};
    // float operands: f64 bit patterns in the normal range plus zeros, infinities, NaN; the low
    // word of each also serves as an f32 operand (denormals included)
    auto d = [](double x) {
        uint64_t u;
        std::memcpy(&u, &x, 8);
        return u;
    };
    auto fbits = [](float x) {
        uint32_t u;
        std::memcpy(&u, &x, 4);
        return (uint64_t)u;
    };
    std::vector<uint64_t> fv = {d(1.0), d(-3.0), d(0.1), d(7.5e10), d(-2.5e-7), d(1e300), d(3e-300), d(0.0), d(-0.0), d(INFINITY), d(-INFINITY), d(NAN),
                                d(1.0) | fbits(1.5f), d(2.0) | fbits(1e-40f), d(3.0) | fbits(3e38f), d(5.0) | fbits(1.17549435e-38f), d(9.0) | fbits(-7.25f),
                                d(0.3) | fbits(1.4e-45f), d(4.0) | fbits(0.1f), d(1.5) | fbits(INFINITY)};
    std::vector<uint64_t> av, bv;
    for (uint64_t x : iv)
        for (uint64_t y : iv) av.push_back(x), bv.push_back(y);
    for (uint64_t x : fv)
        for (uint64_t y : fv) av.push_back(x), bv.push_back(y);
    const size_t n = av.size();
    uint64_t *da = Buf(av), *db = Buf(bv), *out = Zeros<uint64_t>(n * 8);
    ASSERT_TRUE(Ok(Launch(k, D1(Blocks((int)n, 128)), D1(128), {Arg::Ptr(da), Arg::Ptr(db), Arg::Ptr(out), Arg::U32((uint32_t)n)})));
    for (size_t i = 0; i < n; ++i) {
        uint64_t x = av[i], y = bv[i];
        const uint64_t *o = out + i * 8;
        if (i < iv.size() * iv.size()) {
            if (y == 0) continue;  // unspecified in PTX
            EXPECT_EQ(o[0], x / y) << x << " / " << y;
            EXPECT_EQ(o[1], x % y) << x << " % " << y;
            int64_t sx = (int64_t)x, sy = (int64_t)y;
            if (!(sx == INT64_MIN && sy == -1)) {
                EXPECT_EQ((int64_t)o[2], sx / sy) << sx << " / " << sy;
                EXPECT_EQ((int64_t)o[3], sx % sy) << sx << " % " << sy;
            }
            uint32_t x32 = (uint32_t)x, y32 = (uint32_t)y;
            if (y32 != 0) EXPECT_EQ((uint32_t)(o[7] >> 32), x32 / y32) << x32 << " / " << y32;
            continue;
        }
        double fx, fy, q, s;
        std::memcpy(&fx, &x, 8);
        std::memcpy(&fy, &y, 8);
        std::memcpy(&q, &o[4], 8);
        std::memcpy(&s, &o[5], 8);
        double want = fx / fy;
        bool normal_range = std::fpclassify(want) != FP_SUBNORMAL && (std::isinf(want) == (std::isinf(fx) || fy == 0));
        if (normal_range) EXPECT_TRUE(SameBitsOrNan(q, want)) << fx << " / " << fy << " = " << q << ", want " << want;
        EXPECT_TRUE(SameBitsOrNan(s, std::sqrt(fx))) << "sqrt " << fx << " = " << s;
        float gx, gy, fq, fs, fr;
        uint32_t x32 = (uint32_t)x, y32 = (uint32_t)y, w0 = (uint32_t)o[6], w1 = (uint32_t)(o[6] >> 32), w2 = (uint32_t)o[7];
        std::memcpy(&gx, &x32, 4);
        std::memcpy(&gy, &y32, 4);
        std::memcpy(&fq, &w0, 4);
        std::memcpy(&fs, &w1, 4);
        std::memcpy(&fr, &w2, 4);
        EXPECT_TRUE(SameBitsOrNanF(fq, gx / gy)) << gx << " / " << gy << " = " << fq << ", want " << gx / gy;
        EXPECT_TRUE(SameBitsOrNanF(fs, std::sqrt(gx))) << "sqrt " << gx << " = " << fs;
        EXPECT_TRUE(SameBitsOrNanF(fr, 1.0f / gy)) << "1 / " << gy << " = " << fr;
    }
}

}  // namespace
}  // namespace rndn::cpujit::testing

namespace rndn::cpujit::testing {
namespace {

// Multi-line patterns under a guard and with a destination that is also a source (computed in a
// temporary and copied): guarded division keeps the old value where the guard is false, in-place
// 64-bit multiply, bit reverse and division read their sources before the result replaces them.
const char kInPlacePtx[] = R"(.version 8.0
.target sm_80
.address_size 64
.visible .entry inplace(.param .u64 pa, .param .u64 po, .param .u32 n)
{
    .reg .pred %p<4>;
    .reg .b32 %r<12>;
    .reg .b64 %rd<20>;
    mov.u32 %r1, %tid.x;
    ld.param.u32 %r2, [n];
    setp.ge.u32 %p1, %r1, %r2;
    @%p1 bra DONE;
    ld.param.u64 %rd1, [pa];
    ld.param.u64 %rd2, [po];
    mul.wide.u32 %rd3, %r1, 8;
    add.s64 %rd4, %rd1, %rd3;
    ld.global.u64 %rd5, [%rd4];
    ld.global.u64 %rd6, [%rd4+8];
    cvt.u32.u64 %r3, %rd5;
    cvt.u32.u64 %r4, %rd6;
    or.b32 %r4, %r4, 1;
    and.b32 %r5, %r1, 1;
    setp.eq.u32 %p2, %r5, 0;
    mov.u32 %r6, 77;
    @%p2 div.u32 %r6, %r3, %r4;
    @!%p2 rem.s32 %r6, %r3, %r4;
    div.u32 %r3, %r3, %r4;
    mul.lo.u64 %rd5, %rd5, %rd6;
    brev.b64 %rd7, %rd6;
    brev.b64 %rd7, %rd7;
    or.b64 %rd8, %rd6, 1;
    div.u64 %rd6, %rd6, %rd8;
    setp.lt.u32 %p3|%p1, %r3, %r4;
    selp.u32 %r7, 1, 2, %p1;
    mul.wide.u32 %rd9, %r1, 48;
    add.s64 %rd10, %rd2, %rd9;
    st.global.u32 [%rd10], %r6;
    st.global.u32 [%rd10+4], %r3;
    st.global.u64 [%rd10+8], %rd5;
    st.global.u64 [%rd10+16], %rd7;
    st.global.u64 [%rd10+24], %rd6;
    st.global.u32 [%rd10+32], %r7;
DONE:
    ret;
}
)";

class CompiledInPlace : public OwnPtxTest {};
RNDN_CJ_INSTANTIATE(CompiledInPlace);

TEST_P(CompiledInPlace, GuardedAndAliasedPatternsEqualCpp) {
    const Kernel *k = nullptr;
    CompileOwn(kInPlacePtx, "inplace.ptx", "inplace", k);
    if (IsSkipped() || HasFatalFailure()) return;
    ASSERT_NE(k, nullptr);
    const int n = 64;
    auto in = RandBits<uint64_t>(n + 1);
    uint64_t *din = Buf(in);
    uint32_t *out = Zeros<uint32_t>(n * 12);
    ASSERT_TRUE(Ok(Launch(k, D1(1), D1(n), {Arg::Ptr(din), Arg::Ptr(out), Arg::U32(n)})));
    for (int i = 0; i < n; ++i) {
        uint64_t x = in[i], y = in[i + 1];
        uint32_t a32 = (uint32_t)x, b32 = (uint32_t)y | 1;
        uint32_t r6 = (i % 2 == 0) ? a32 / b32 : (uint32_t)((int32_t)a32 % (int32_t)b32);
        const uint32_t *o = out + i * 12;
        uint64_t o8, o16, o24;
        std::memcpy(&o8, o + 2, 8);
        std::memcpy(&o16, o + 4, 8);
        std::memcpy(&o24, o + 6, 8);
        EXPECT_EQ(o[0], r6) << i;
        EXPECT_EQ(o[1], a32 / b32) << i;
        EXPECT_EQ(o8, x * y) << i;
        EXPECT_EQ(o16, y) << i;
        EXPECT_EQ(o24, y / (y | 1)) << i;
        EXPECT_EQ(o[8], a32 / b32 < b32 ? 2u : 1u) << i;
    }
}

const char kPredSpillPtx[] = R"(.version 8.0
.target sm_80
.address_size 64
.visible .entry predspill(.param .u64 pa, .param .u64 po, .param .u32 n)
{
    .reg .pred %p<12>;
    .reg .b32 %r<40>;
    .reg .b64 %rd<8>;
    mov.u32 %r1, %tid.x;
    ld.param.u32 %r2, [n];
    setp.ge.u32 %p11, %r1, %r2;
    @%p11 bra DONE;
    ld.param.u64 %rd1, [pa];
    ld.param.u64 %rd2, [po];
    mul.wide.u32 %rd3, %r1, 4;
    add.s64 %rd4, %rd1, %rd3;
    ld.global.u32 %r3, [%rd4];
    and.b32 %r10, %r3, 1;
    setp.ne.u32 %p1, %r10, 0;
    and.b32 %r11, %r3, 2;
    setp.ne.u32 %p2, %r11, 0;
    and.b32 %r12, %r3, 4;
    setp.ne.u32 %p3, %r12, 0;
    and.b32 %r13, %r3, 8;
    setp.ne.u32 %p4, %r13, 0;
    and.b32 %r14, %r3, 16;
    setp.ne.u32 %p5, %r14, 0;
    and.b32 %r15, %r3, 32;
    setp.ne.u32 %p6, %r15, 0;
    and.b32 %r16, %r3, 64;
    setp.ne.u32 %p7, %r16, 0;
    and.b32 %r17, %r3, 128;
    setp.ne.u32 %p8, %r17, 0;
    and.b32 %r18, %r3, 256;
    setp.ne.u32 %p9, %r18, 0;
    and.b32 %r19, %r3, 512;
    setp.ne.u32 %p10, %r19, 0;
    @%p1 setp.eq.u32 %p2, %r3, 0;
    mov.u32 %r20, 0;
    selp.u32 %r30, 512, 0, %p10;
    add.u32 %r20, %r20, %r30;
    selp.u32 %r29, 256, 0, %p9;
    add.u32 %r20, %r20, %r29;
    selp.u32 %r28, 128, 0, %p8;
    add.u32 %r20, %r20, %r28;
    selp.u32 %r27, 64, 0, %p7;
    add.u32 %r20, %r20, %r27;
    selp.u32 %r26, 32, 0, %p6;
    add.u32 %r20, %r20, %r26;
    selp.u32 %r25, 16, 0, %p5;
    add.u32 %r20, %r20, %r25;
    selp.u32 %r24, 8, 0, %p4;
    add.u32 %r20, %r20, %r24;
    selp.u32 %r23, 4, 0, %p3;
    add.u32 %r20, %r20, %r23;
    selp.u32 %r22, 2, 0, %p2;
    add.u32 %r20, %r20, %r22;
    selp.u32 %r21, 1, 0, %p1;
    add.u32 %r20, %r20, %r21;
    add.s64 %rd5, %rd2, %rd3;
    st.global.u32 [%rd5], %r20;
DONE:
    ret;
}
)";

// More than 7 predicates live at once: the allocator spills predicates into general registers
// (a guarded definition of one included); the result equals C++ on every architecture.
class CompiledPredicateSpill : public OwnPtxTest {};
RNDN_CJ_INSTANTIATE(CompiledPredicateSpill);
TEST_P(CompiledPredicateSpill, TenLivePredicatesEqualCpp) {
    const Kernel *k = nullptr;
    CompileOwn(kPredSpillPtx, "predspill.ptx", "predspill", k);
    if (IsSkipped() || HasFatalFailure()) return;
    ASSERT_NE(k, nullptr);
    const int n = 96;
    auto in = RandBits<uint32_t>(n);
    in[0] = 0, in[1] = 0x3ff, in[2] = 1, in[3] = 2, in[4] = 3;
    uint32_t *din = Buf(in);
    uint32_t *out = Zeros<uint32_t>(n);
    ASSERT_TRUE(Ok(Launch(k, D1(1), D1(n), {Arg::Ptr(din), Arg::Ptr(out), Arg::U32(n)})));
    for (int i = 0; i < n; ++i) {
        uint32_t want = in[i] & 0x3ff;
        if (in[i] & 1) want &= ~2u;  // @p1 setp.eq p2, x, 0: false when bit 0 is set
        EXPECT_EQ(out[i], want) << i << ": x = " << in[i];
    }
}

const char kWarpMiscPtx[] = R"(.version 8.0
.target sm_80
.address_size 64
.visible .entry warpmisc(.param .u64 po)
{
    .reg .pred %p<10>;
    .reg .b32 %r<40>;
    .reg .b64 %rd<16>;
    .shared .align 4 .b8 s[128];
    ld.param.u64 %rd1, [po];
    mov.u32 %r1, %tid.x;
    mul.wide.u32 %rd2, %r1, 32;
    add.s64 %rd3, %rd1, %rd2;
    mov.u32 %r2, %clock_hi;
    mov.u64 %rd4, %clock64;
    shr.u64 %rd5, %rd4, 32;
    cvt.u32.u64 %r3, %rd5;
    setp.ge.u32 %p1, %r3, %r2;
    selp.u32 %r4, 1, 0, %p1;
    st.global.u32 [%rd3], %r4;
    mov.u32 %r5, %globaltimer_hi;
    mov.u64 %rd6, %globaltimer;
    shr.u64 %rd7, %rd6, 32;
    cvt.u32.u64 %r6, %rd7;
    setp.ge.u32 %p2, %r6, %r5;
    selp.u32 %r7, 1, 0, %p2;
    st.global.u32 [%rd3+4], %r7;
    mov.u32 %r8, %clock;
    mov.u32 %r9, %clock;
    sub.u32 %r10, %r9, %r8;
    setp.lt.u32 %p3, %r10, 0x80000000;
    selp.u32 %r11, 1, 0, %p3;
    st.global.u32 [%rd3+8], %r11;
    mov.u32 %r12, %globaltimer_lo;
    mov.u32 %r13, %globaltimer_lo;
    sub.u32 %r14, %r13, %r12;
    setp.lt.u32 %p4, %r14, 0x80000000;
    selp.u32 %r15, 1, 0, %p4;
    st.global.u32 [%rd3+12], %r15;
    and.b32 %r16, %r1, 31;
    setp.eq.u32 %p5, %r16, 40;
    vote.sync.all.pred %p6, !%p5, -1;
    selp.u32 %r17, 1, 0, %p6;
    setp.eq.u32 %p5, %r16, 3;
    vote.sync.all.pred %p6, !%p5, -1;
    selp.u32 %r18, 2, 0, %p6;
    or.b32 %r17, %r17, %r18;
    vote.sync.any.pred %p6, !%p5, -1;
    selp.u32 %r18, 4, 0, %p6;
    or.b32 %r17, %r17, %r18;
    setp.ne.u32 %p5, %r16, 40;
    vote.sync.any.pred %p6, !%p5, -1;
    selp.u32 %r18, 8, 0, %p6;
    or.b32 %r17, %r17, %r18;
    st.global.u32 [%rd3+16], %r17;
    setp.lt.u32 %p7, %r1, 32;
    bar.red.popc.u32 %r30, 2, 64, %p7;
    st.global.u32 [%rd3+24], %r30;
    bar.red.and.pred %p8, 3, 64, !%p7;
    selp.u32 %r31, 2, 0, %p8;
    bar.red.or.pred %p9, 4, 64, !%p7;
    selp.u32 %r32, 1, 0, %p9;
    or.b32 %r31, %r31, %r32;
    st.global.u32 [%rd3+28], %r31;
    @!%p7 bra CONSUMER;
    mul.lo.u32 %r19, %r1, 7;
    shl.b32 %r20, %r1, 2;
    mov.u32 %r21, s;
    add.u32 %r22, %r21, %r20;
    st.shared.u32 [%r22], %r19;
    bar.arrive 1, 64;
    mov.u32 %r23, 12345;
    st.global.u32 [%rd3+20], %r23;
    bra DONE;
CONSUMER:
    bar.sync 1, 64;
    sub.u32 %r24, %r1, 32;
    shl.b32 %r25, %r24, 2;
    mov.u32 %r26, s;
    add.u32 %r27, %r26, %r25;
    ld.shared.u32 %r28, [%r27];
    st.global.u32 [%rd3+20], %r28;
DONE:
    ret;
}
)";

// Special registers, votes and barriers the corpus does not have: %clock, %clock_hi,
// %globaltimer_lo/_hi against the 64-bit reads after them; vote.all/any of negated predicates
// (sm_75 has no ballot of !p: compared with the active mask instead); a producer warp that
// bar.arrive's on named barrier 1 and a consumer warp that bar.sync's on it; bar.red with a thread
// count and a negated predicate.
class CompiledWarpMisc : public OwnPtxTest {};
RNDN_CJ_INSTANTIATE(CompiledWarpMisc);
TEST_P(CompiledWarpMisc, TimersVotesAndArriveEqualCpp) {
    const Kernel *k = nullptr;
    CompileOwn(kWarpMiscPtx, "warpmisc.ptx", "warpmisc", k);
    if (IsSkipped() || HasFatalFailure()) return;
    ASSERT_NE(k, nullptr);
    const int n = 64;
    uint32_t *out = Zeros<uint32_t>(8 * n);
    ASSERT_TRUE(Ok(Launch(k, D1(1), D1(n), {Arg::Ptr(out)})));
    for (int i = 0; i < n; ++i) {
        const uint32_t *o = out + 8 * i;
        EXPECT_EQ(o[0], 1u) << i << ": %clock_hi after %clock64's high word";
        EXPECT_EQ(o[1], 1u) << i << ": %globaltimer_hi after %globaltimer's high word";
        EXPECT_EQ(o[2], 1u) << i << ": %clock went backwards";
        EXPECT_EQ(o[3], 1u) << i << ": %globaltimer_lo went backwards";
        // all(!false) = 1, all(!(lane == 3)) = 0, any(!(lane == 3)) = 4, any(!(lane != 40)) = 0
        EXPECT_EQ(o[4], 1u | 4u) << i;
        EXPECT_EQ(o[5], i < 32 ? 12345u : (uint32_t)(i - 32) * 7) << i;
        EXPECT_EQ(o[6], 32u) << i << ": bar.red.popc with a thread count";
        EXPECT_EQ(o[7], 1u) << i << ": bar.red.and / .or of a negated predicate";
    }
}

const char kAtomicOrderPtx[] = R"(.version 8.0
.target sm_80
.address_size 64
.visible .entry orders(.param .u64 pc, .param .u64 po)
{
    .reg .b32 %r<10>;
    .reg .b64 %rd<8>;
    ld.param.u64 %rd1, [pc];
    ld.param.u64 %rd2, [po];
    mov.u32 %r1, %tid.x;
    mov.u32 %r2, %ctaid.x;
    mov.u32 %r3, %ntid.x;
    mad.lo.u32 %r4, %r2, %r3, %r1;
    atom.acquire.gpu.add.u32 %r5, [%rd1], 1;
    atom.release.gpu.add.u32 %r6, [%rd1+4], 2;
    fence.acq_rel.cta;
    atom.acq_rel.gpu.add.u32 %r7, [%rd1+8], 3;
    fence.acq_rel.gpu;
    atom.relaxed.gpu.global.exch.b32 %r8, [%rd1+12], %r4;
    mul.wide.u32 %rd3, %r4, 4;
    add.s64 %rd4, %rd2, %rd3;
    st.global.u32 [%rd4], %r7;
    ret;
}
)";

// Generic-space atomics with acquire, release and acq_rel orders and fence.acq_rel at CTA and GPU
// scope (ptxas's MEMBAR.ALL / ERRBAR / CGAERRBAR / CCTL.IVALL around them): the counters and every
// old value equal C++'s.
class CompiledAtomicOrders : public OwnPtxTest {};
RNDN_CJ_INSTANTIATE(CompiledAtomicOrders);
TEST_P(CompiledAtomicOrders, GenericAtomicsAndFencesEqualCpp) {
    const Kernel *k = nullptr;
    CompileOwn(kAtomicOrderPtx, "orders.ptx", "orders", k);
    if (IsSkipped() || HasFatalFailure()) return;
    ASSERT_NE(k, nullptr);
    const uint32_t blocks = 3, threads = 64, n = blocks * threads;
    uint32_t *ctr = Zeros<uint32_t>(4);
    uint32_t *olds = Zeros<uint32_t>(n);
    ASSERT_TRUE(Ok(Launch(k, D1(blocks), D1(threads), {Arg::Ptr(ctr), Arg::Ptr(olds)})));
    EXPECT_EQ(ctr[0], n);
    EXPECT_EQ(ctr[1], 2 * n);
    EXPECT_EQ(ctr[2], 3 * n);
    EXPECT_LT(ctr[3], n);
    std::vector<uint32_t> got(olds, olds + n), want(n);
    for (uint32_t i = 0; i < n; ++i) want[i] = 3 * i;
    std::sort(got.begin(), got.end());
    EXPECT_EQ(got, want) << "the acq_rel atomic's old values are not 0, 3, 6, ... once each";
}

}  // namespace
}  // namespace rndn::cpujit::testing
#endif  // RNDN_COMPILED_HARNESS
