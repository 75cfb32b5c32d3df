// Element-wise corpus kernels (maps, integer/float arithmetic, conversions, bit operations) on the
// cpu device, checked against C++ references written from each kernel's header comment.
#include <cfenv>
#include <climits>

// The SASS emulator's tests compile this file again against its own harness (same API shape).
#ifdef RNDN_CORPUS_HARNESS
#include RNDN_CORPUS_HARNESS
#else
#include "harness.h"
#endif

namespace rndn::cpujit::testing {
namespace {

class MapTest : public CorpusTest {};
RNDN_CJ_INSTANTIATE(MapTest);

constexpr int kN = 1000;

TEST_P(MapTest, Saxpy) {
    auto x = RandF(kN, -100, 100), y = RandF(kN, -100, 100);
    float *dx = Buf(x), *dy = Buf(y);
    ASSERT_TRUE(Ok(Launch(K("saxpy", "saxpy"), D1(Blocks(kN, 128)), D1(128),
                       {Arg::S32(kN), Arg::F32(1.75f), Arg::Ptr(dx), Arg::Ptr(dy)})));
    for (int i = 0; i < kN; ++i) ASSERT_TRUE(SameF(dy[i], std::fmaf(1.75f, x[i], y[i]))) << i;
    auto xd = RandD(kN, -1e3, 1e3), yd = RandD(kN, -1e3, 1e3);
    double *ddx = Buf(xd), *ddy = Buf(yd);
    ASSERT_TRUE(Ok(Launch(K("saxpy", "daxpy"), D1(Blocks(kN, 64)), D1(64),
                       {Arg::S32(kN), Arg::F64(-0.3), Arg::Ptr(ddx), Arg::Ptr(ddy)})));
    for (int i = 0; i < kN; ++i) ASSERT_TRUE(SameD(ddy[i], std::fma(-0.3, xd[i], yd[i]))) << i;
    float *sx = Buf(x);
    ASSERT_TRUE(Ok(Launch(K("saxpy", "sscal_offset"), D1(3), D1(512), {Arg::Ptr(sx), Arg::F32(3.f), Arg::F32(-1.f), Arg::U32(kN)})));
    for (int i = 0; i < kN; ++i) ASSERT_TRUE(SameF(sx[i], std::fmaf(x[i], 3.f, -1.f))) << i;
}

TEST_P(MapTest, MapInt32) {
    auto a = RandBits<int32_t>(kN), b = RandBits<int32_t>(kN);
    int32_t *da = Buf(a), *db = Buf(b), *out = Zeros<int32_t>(kN);
    ASSERT_TRUE(Ok(Launch(K("map_int32", "map_i32_affine"), D1(Blocks(kN, 96)), D1(96), {Arg::Ptr(da), Arg::Ptr(db), Arg::Ptr(out), Arg::S32(kN)})));
    for (int i = 0; i < kN; ++i) ASSERT_EQ(out[i], (int32_t)((uint32_t)a[i] * 3u + (uint32_t)b[i] - 7u)) << i;
    ASSERT_TRUE(Ok(Launch(K("map_int32", "map_i32_logic"), D1(Blocks(kN, 256)), D1(256), {Arg::Ptr(da), Arg::Ptr(db), Arg::Ptr(out), Arg::S32(kN)})));
    for (int i = 0; i < kN; ++i) ASSERT_EQ(out[i], ((a[i] & b[i]) | (a[i] ^ 0x5a5a5a5a)) ^ ~b[i]) << i;
    ASSERT_TRUE(Ok(Launch(K("map_int32", "map_i32_shift"), D1(Blocks(kN, 128)), D1(128), {Arg::Ptr(da), Arg::Ptr(db), Arg::Ptr(out), Arg::S32(kN)})));
    for (int i = 0; i < kN; ++i) {
        uint32_t s = (uint32_t)b[i] & 31;
        int32_t e = (int32_t)((uint32_t)(a[i] >> s) + ((uint32_t)a[i] << s) + ((uint32_t)a[i] >> s));
        ASSERT_EQ(out[i], e) << i;
    }
    ASSERT_TRUE(Ok(Launch(K("map_int32", "map_u32_mulhi"), D1(Blocks(kN, 128)), D1(128), {Arg::Ptr(da), Arg::Ptr(db), Arg::Ptr(out), Arg::S32(kN)})));
    for (int i = 0; i < kN; ++i) {
        uint32_t x = (uint32_t)a[i], y = (uint32_t)b[i];
        uint32_t e = (uint32_t)(((uint64_t)x * y) >> 32) + (uint32_t)(((uint64_t)x * 7u) >> 32);
        ASSERT_EQ((uint32_t)out[i], e) << i;
    }
    int64_t *o64 = Zeros<int64_t>(kN);
    ASSERT_TRUE(Ok(Launch(K("map_int32", "map_i32_mulwide"), D1(Blocks(kN, 128)), D1(128), {Arg::Ptr(da), Arg::Ptr(db), Arg::Ptr(o64), Arg::S32(kN)})));
    for (int i = 0; i < kN; ++i) ASSERT_EQ(o64[i], (int64_t)a[i] * b[i]) << i;
}

TEST_P(MapTest, MapInt64) {
    auto a = RandBits<int64_t>(kN), b = RandBits<int64_t>(kN);
    int64_t *da = Buf(a), *db = Buf(b), *out = Zeros<int64_t>(kN);
    ASSERT_TRUE(Ok(Launch(K("map_int64", "map_i64_affine"), D1(Blocks(kN, 128)), D1(128), {Arg::Ptr(da), Arg::Ptr(db), Arg::Ptr(out), Arg::S64(kN)})));
    for (int i = 0; i < kN; ++i) ASSERT_EQ(out[i], (int64_t)((uint64_t)a[i] * 1000003u + (uint64_t)b[i] - 42u)) << i;
    ASSERT_TRUE(Ok(Launch(K("map_int64", "map_i64_logic"), D1(Blocks(kN, 64)), D1(64), {Arg::Ptr(da), Arg::Ptr(db), Arg::Ptr(out), Arg::S64(kN)})));
    for (int i = 0; i < kN; ++i) {
        uint64_t x = (uint64_t)a[i], y = (uint64_t)b[i], s = y & 63;
        uint64_t e = ((x << s) | (x >> (63 - s))) ^ (x & ~y);
        ASSERT_EQ((uint64_t)out[i], e) << i;
    }
    auto a32 = RandBits<int32_t>(kN);
    auto b32 = RandBits<uint32_t>(kN);
    int32_t *da32 = Buf(a32);
    uint32_t *db32 = Buf(b32);
    ASSERT_TRUE(Ok(Launch(K("map_int64", "map_i64_widen"), D1(Blocks(kN, 128)), D1(128), {Arg::Ptr(da32), Arg::Ptr(db32), Arg::Ptr(out), Arg::S32(kN)})));
    for (int i = 0; i < kN; ++i) ASSERT_EQ(out[i], (int64_t)((uint64_t)(int64_t)a32[i] + (uint64_t)b32[i] * 4294967296ull)) << i;
    int32_t *lo = Zeros<int32_t>(kN), *hi = Zeros<int32_t>(kN);
    ASSERT_TRUE(Ok(Launch(K("map_int64", "map_i64_narrow"), D1(Blocks(kN, 128)), D1(128), {Arg::Ptr(da), Arg::Ptr(lo), Arg::Ptr(hi), Arg::S32(kN)})));
    for (int i = 0; i < kN; ++i) {
        ASSERT_EQ(lo[i], (int32_t)(a[i] & 0xffffffff)) << i;
        ASSERT_EQ(hi[i], (int32_t)(a[i] >> 32)) << i;
    }
}

TEST_P(MapTest, MapFloat) {
    auto a = RandF(kN, -50, 50), b = RandF(kN, -50, 50), c = RandF(kN, -50, 50);
    a[0] = NAN;
    b[1] = NAN;
    float *da = Buf(a), *db = Buf(b), *dc = Buf(c), *out = Zeros<float>(kN);
    ASSERT_TRUE(Ok(Launch(K("map_float", "map_f32_arith"), D1(Blocks(kN, 128)), D1(128), {Arg::Ptr(da), Arg::Ptr(db), Arg::Ptr(out), Arg::S32(kN)})));
    for (int i = 0; i < kN; ++i) {
        volatile float t = a[i] * 2.5f;
        t = t + b[i];
        t = t - 1.0f;
        volatile float den = std::fabs(b[i]) + 1.0f;
        ASSERT_TRUE(SameF(out[i], t / den)) << i;
    }
    ASSERT_TRUE(Ok(Launch(K("map_float", "map_f32_fma"), D1(Blocks(kN, 128)), D1(128), {Arg::Ptr(da), Arg::Ptr(db), Arg::Ptr(dc), Arg::Ptr(out), Arg::S32(kN)})));
    for (int i = 0; i < kN; ++i) ASSERT_TRUE(SameF(out[i], std::fmaf(a[i], b[i], c[i]))) << i;
    ASSERT_TRUE(Ok(Launch(K("map_float", "map_f32_neg_abs"), D1(Blocks(kN, 128)), D1(128), {Arg::Ptr(da), Arg::Ptr(out), Arg::S32(kN)})));
    for (int i = 0; i < kN; ++i) {
        volatile float e = -std::fabs(a[i]) + std::copysign(1.0f, a[i]);
        ASSERT_TRUE(SameF(out[i], e)) << i;
    }
    ASSERT_TRUE(Ok(Launch(K("map_float", "map_f32_minmax"), D1(Blocks(kN, 128)), D1(128), {Arg::Ptr(da), Arg::Ptr(db), Arg::Ptr(out), Arg::S32(kN)})));
    for (int i = 0; i < kN; ++i) ASSERT_TRUE(SameF(out[i], std::fmaf(std::fmin(a[i], b[i]), 0.5f, std::fmax(a[i], b[i])))) << i;
}

TEST_P(MapTest, MapDouble) {
    auto a = RandD(kN, -1e6, 1e6), b = RandD(kN, -1e3, 1e3), c = RandD(kN, -1e6, 1e6);
    double *da = Buf(a), *db = Buf(b), *dc = Buf(c), *out = Zeros<double>(kN);
    ASSERT_TRUE(Ok(Launch(K("map_double", "map_f64_arith"), D1(Blocks(kN, 128)), D1(128), {Arg::Ptr(da), Arg::Ptr(db), Arg::Ptr(out), Arg::S32(kN)})));
    for (int i = 0; i < kN; ++i) {
        volatile double t = a[i] * 3.0;
        t = t + b[i];
        ASSERT_TRUE(SameD(out[i], t / std::fma(b[i], b[i], 1.0))) << i;
    }
    ASSERT_TRUE(Ok(Launch(K("map_double", "map_f64_fma"), D1(Blocks(kN, 128)), D1(128), {Arg::Ptr(da), Arg::Ptr(db), Arg::Ptr(dc), Arg::Ptr(out), Arg::S32(kN)})));
    for (int i = 0; i < kN; ++i) ASSERT_TRUE(SameD(out[i], std::fma(a[i], b[i], c[i]))) << i;
    ASSERT_TRUE(Ok(Launch(K("map_double", "map_f64_sqrt"), D1(Blocks(kN, 128)), D1(128), {Arg::Ptr(da), Arg::Ptr(out), Arg::S32(kN)})));
    for (int i = 0; i < kN; ++i) ASSERT_TRUE(SameD(out[i], std::sqrt(std::fabs(a[i])))) << i;
    auto f = RandF(kN, -1e4, 1e4);
    float *df = Buf(f), *of = Zeros<float>(kN);
    ASSERT_TRUE(Ok(Launch(K("map_double", "map_f64_from_f32"), D1(Blocks(kN, 128)), D1(128), {Arg::Ptr(df), Arg::Ptr(out), Arg::S32(kN)})));
    for (int i = 0; i < kN; ++i) ASSERT_TRUE(SameD(out[i], (double)f[i] * 0.1)) << i;
    ASSERT_TRUE(Ok(Launch(K("map_double", "map_f32_from_f64"), D1(Blocks(kN, 128)), D1(128), {Arg::Ptr(da), Arg::Ptr(of), Arg::S32(kN)})));
    for (int i = 0; i < kN; ++i) ASSERT_TRUE(SameF(of[i], (float)a[i])) << i;
}

TEST_P(MapTest, IntDivMod) {
    auto a = RandBits<int32_t>(kN), b = RandInt<int32_t>(kN, -1000, 1000);
    for (auto &x : b)
        if (x == 0) x = 3;
    b[5] = -1;
    a[6] = INT_MIN;
    b[6] = 7;
    int32_t *da = Buf(a), *db = Buf(b), *q = Zeros<int32_t>(kN), *r = Zeros<int32_t>(kN);
    ASSERT_TRUE(Ok(Launch(K("int32_divmod", "div_s32"), D1(Blocks(kN, 128)), D1(128), {Arg::Ptr(da), Arg::Ptr(db), Arg::Ptr(q), Arg::Ptr(r), Arg::S32(kN)})));
    for (int i = 0; i < kN; ++i) {
        ASSERT_EQ(q[i], a[i] / b[i]) << i;
        ASSERT_EQ(r[i], a[i] % b[i]) << i;
    }
    ASSERT_TRUE(Ok(Launch(K("int32_divmod", "div_u32"), D1(Blocks(kN, 128)), D1(128), {Arg::Ptr(da), Arg::Ptr(db), Arg::Ptr(q), Arg::Ptr(r), Arg::S32(kN)})));
    for (int i = 0; i < kN; ++i) {
        ASSERT_EQ((uint32_t)q[i], (uint32_t)a[i] / (uint32_t)b[i]) << i;
        ASSERT_EQ((uint32_t)r[i], (uint32_t)a[i] % (uint32_t)b[i]) << i;
    }
    ASSERT_TRUE(Ok(Launch(K("int32_divmod", "div_s32_pow2"), D1(Blocks(kN, 128)), D1(128), {Arg::Ptr(da), Arg::Ptr(q), Arg::S32(kN)})));
    for (int i = 0; i < kN; ++i) ASSERT_EQ(q[i], (int32_t)((uint32_t)(a[i] / 16) + (uint32_t)(a[i] % 8) + (uint32_t)(a[i] / -3))) << i;
    ASSERT_TRUE(Ok(Launch(K("int32_divmod", "div_u32_const"), D1(Blocks(kN, 128)), D1(128), {Arg::Ptr(da), Arg::Ptr(q), Arg::S32(kN)})));
    for (int i = 0; i < kN; ++i) {
        uint32_t x = (uint32_t)a[i];
        ASSERT_EQ((uint32_t)q[i], x / 10u + x % 10u + x / 4096u) << i;
    }
    auto a64 = RandBits<int64_t>(kN), b64 = RandInt<int64_t>(kN, -100000, 100000);
    for (size_t i = 0; i < b64.size(); ++i) {
        if (b64[i] == 0) b64[i] = 11;
        if (i % 3 == 0) b64[i] = (int64_t)(rng_() >> (i % 50));
    }
    int64_t *da64 = Buf(a64), *db64 = Buf(b64), *q64 = Zeros<int64_t>(kN), *r64 = Zeros<int64_t>(kN);
    ASSERT_TRUE(Ok(Launch(K("int64_divmod", "div_s64"), D1(Blocks(kN, 128)), D1(128), {Arg::Ptr(da64), Arg::Ptr(db64), Arg::Ptr(q64), Arg::Ptr(r64), Arg::S32(kN)})));
    for (int i = 0; i < kN; ++i) {
        ASSERT_EQ(q64[i], a64[i] / b64[i]) << i;
        ASSERT_EQ(r64[i], a64[i] % b64[i]) << i;
    }
    ASSERT_TRUE(Ok(Launch(K("int64_divmod", "div_u64"), D1(Blocks(kN, 128)), D1(128), {Arg::Ptr(da64), Arg::Ptr(db64), Arg::Ptr(q64), Arg::Ptr(r64), Arg::S32(kN)})));
    for (int i = 0; i < kN; ++i) {
        ASSERT_EQ((uint64_t)q64[i], (uint64_t)a64[i] / (uint64_t)b64[i]) << i;
        ASSERT_EQ((uint64_t)r64[i], (uint64_t)a64[i] % (uint64_t)b64[i]) << i;
    }
    ASSERT_TRUE(Ok(Launch(K("int64_divmod", "div_s64_const"), D1(Blocks(kN, 128)), D1(128), {Arg::Ptr(da64), Arg::Ptr(q64), Arg::S32(kN)})));
    for (int i = 0; i < kN; ++i) ASSERT_EQ(q64[i], a64[i] / 1000 + a64[i] % 7) << i;
    ASSERT_TRUE(Ok(Launch(K("int64_divmod", "div_u64_by_u32"), D1(Blocks(kN, 128)), D1(128), {Arg::Ptr(da64), Arg::U32(12345u), Arg::Ptr(q64), Arg::S32(kN)})));
    for (int i = 0; i < kN; ++i) ASSERT_EQ((uint64_t)q64[i], (uint64_t)a64[i] / 12345u + (uint64_t)a64[i] % 12345u) << i;
}

TEST_P(MapTest, MinMaxAbs) {
    auto a = RandBits<int32_t>(kN), b = RandBits<int32_t>(kN);
    a[0] = INT_MIN;
    int32_t *da = Buf(a), *db = Buf(b), *out = Zeros<int32_t>(4 * kN);
    ASSERT_TRUE(Ok(Launch(K("min_max_abs", "minmax_i32"), D1(Blocks(kN, 128)), D1(128), {Arg::Ptr(da), Arg::Ptr(db), Arg::Ptr(out), Arg::S32(kN)})));
    for (int i = 0; i < kN; ++i) {
        ASSERT_EQ(out[4 * i], std::min(a[i], b[i]));
        ASSERT_EQ(out[4 * i + 1], std::max(a[i], b[i]));
        ASSERT_EQ(out[4 * i + 2], a[i] == INT_MIN ? INT_MIN : std::abs(a[i]));
        ASSERT_EQ((uint32_t)out[4 * i + 3], std::min((uint32_t)a[i], (uint32_t)b[i]));
    }
    auto fa = RandF(kN, -10, 10), fb = RandF(kN, -10, 10);
    fa[1] = NAN;
    fb[2] = NAN;
    fa[3] = -NAN;
    float *dfa = Buf(fa), *dfb = Buf(fb), *fo = Zeros<float>(3 * kN);
    ASSERT_TRUE(Ok(Launch(K("min_max_abs", "minmax_f32"), D1(Blocks(kN, 128)), D1(128), {Arg::Ptr(dfa), Arg::Ptr(dfb), Arg::Ptr(fo), Arg::S32(kN)})));
    for (int i = 0; i < kN; ++i) {
        ASSERT_TRUE(SameF(fo[3 * i], std::fmin(fa[i], fb[i]))) << i;
        ASSERT_TRUE(SameF(fo[3 * i + 1], std::fmax(fa[i], fb[i]))) << i;
        ASSERT_FALSE(std::signbit(fo[3 * i + 2])) << i;
        ASSERT_TRUE(SameF(fo[3 * i + 2], std::fabs(fa[i]))) << i;
    }
    auto la = RandBits<int64_t>(kN), lb = RandBits<int64_t>(kN);
    la[0] = INT64_MIN;
    int64_t *dla = Buf(la), *dlb = Buf(lb), *lo = Zeros<int64_t>(4 * kN);
    ASSERT_TRUE(Ok(Launch(K("min_max_abs", "minmax_i64"), D1(Blocks(kN, 64)), D1(64), {Arg::Ptr(dla), Arg::Ptr(dlb), Arg::Ptr(lo), Arg::S32(kN)})));
    for (int i = 0; i < kN; ++i) {
        ASSERT_EQ(lo[4 * i], std::min(la[i], lb[i]));
        ASSERT_EQ(lo[4 * i + 1], std::max(la[i], lb[i]));
        ASSERT_EQ(lo[4 * i + 2], la[i] == INT64_MIN ? INT64_MIN : std::llabs(la[i]));
        ASSERT_EQ((uint64_t)lo[4 * i + 3], std::max((uint64_t)la[i], (uint64_t)lb[i]));
    }
    ASSERT_TRUE(Ok(Launch(K("min_max_abs", "clamp_i32"), D1(Blocks(kN, 128)), D1(128), {Arg::Ptr(da), Arg::S32(-1000), Arg::S32(123456), Arg::Ptr(out), Arg::S32(kN)})));
    for (int i = 0; i < kN; ++i) ASSERT_EQ(out[i], std::min(std::max(a[i], -1000), 123456));
    ASSERT_TRUE(Ok(Launch(K("min_max_abs", "abs_diff_u32"), D1(Blocks(kN, 128)), D1(128), {Arg::Ptr(da), Arg::Ptr(db), Arg::Ptr(out), Arg::S32(kN)})));
    for (int i = 0; i < kN; ++i) {
        uint32_t x = (uint32_t)a[i], y = (uint32_t)b[i];
        ASSERT_EQ((uint32_t)out[i], x > y ? x - y : y - x);
    }
}

TEST_P(MapTest, SelectCompare) {
    auto a = RandInt<int32_t>(kN, -200, 200);
    int32_t *da = Buf(a), *out = Zeros<int32_t>(kN);
    ASSERT_TRUE(Ok(Launch(K("select_compare", "case_when_i32"), D1(Blocks(kN, 128)), D1(128), {Arg::Ptr(da), Arg::Ptr(out), Arg::S32(kN)})));
    for (int i = 0; i < kN; ++i) {
        int x = a[i];
        ASSERT_EQ(out[i], x < 0 ? -1 : x == 0 ? 0 : x < 10 ? 1 : x < 100 ? 2 : 3);
    }
    auto a2 = RandInt<int32_t>(kN, 0, 30);
    auto b = RandInt<int64_t>(kN, 999999999000ll, 1000000001000ll);
    auto c = RandF(kN, 0, 1);
    c[0] = NAN;
    int32_t *da2 = Buf(a2);
    int64_t *dbb = Buf(b);
    float *dc = Buf(c);
    uint8_t *o8 = Zeros<uint8_t>(kN);
    ASSERT_TRUE(Ok(Launch(K("select_compare", "between_and_or"), D1(Blocks(kN, 128)), D1(128), {Arg::Ptr(da2), Arg::Ptr(dbb), Arg::Ptr(dc), Arg::Ptr(o8), Arg::S32(kN)})));
    for (int i = 0; i < kN; ++i) {
        bool e = ((10 <= a2[i] && a2[i] <= 20) || b[i] > 1000000000000ll) && !(c[i] != c[i]) && c[i] >= 0.5f;
        ASSERT_EQ(o8[i], e ? 1 : 0) << i;
    }
    auto fa = RandF(kN, -5, 5), fb = RandF(kN, -5, 5);
    fa[0] = NAN;
    fb[1] = NAN;
    fb[2] = fa[2];
    float *dfa = Buf(fa), *dfb = Buf(fb);
    ASSERT_TRUE(Ok(Launch(K("select_compare", "float_unordered"), D1(Blocks(kN, 128)), D1(128), {Arg::Ptr(dfa), Arg::Ptr(dfb), Arg::Ptr(out), Arg::S32(kN)})));
    for (int i = 0; i < kN; ++i) {
        float x = fa[i], y = fb[i];
        int e = (x < y) | (x <= y) << 1 | (x > y) << 2 | (x >= y) << 3 | (x == y) << 4 | (x != y) << 5 |
                (std::isnan(x) ? 1 : 0) << 6 | (!(x < y)) << 7;
        ASSERT_EQ(out[i], e) << i;
    }
    auto da_ = RandD(kN, -5, 5), db_ = RandD(kN, -5, 5);
    auto m = RandInt<uint8_t>(kN, 0, 1);
    double *dda = Buf(da_), *ddb = Buf(db_), *dout = Zeros<double>(kN);
    uint8_t *dm = Buf(m);
    ASSERT_TRUE(Ok(Launch(K("select_compare", "select_f64"), D1(Blocks(kN, 128)), D1(128), {Arg::Ptr(dda), Arg::Ptr(ddb), Arg::Ptr(dm), Arg::Ptr(dout), Arg::S32(kN)})));
    for (int i = 0; i < kN; ++i) ASSERT_TRUE(SameD(dout[i], m[i] ? da_[i] : (da_[i] < db_[i] ? db_[i] : -da_[i]))) << i;
    auto ua = RandBits<uint64_t>(kN);
    for (int i = 0; i < 50; ++i) ua[i] = 1000 + i;
    uint64_t *dua = Buf(ua);
    ASSERT_TRUE(Ok(Launch(K("select_compare", "count_matches_u64"), D1(Blocks(kN, 128)), D1(128), {Arg::Ptr(dua), Arg::U64(1010), Arg::U64(0x8000000000000000ull), Arg::Ptr(out), Arg::S32(kN)})));
    for (int i = 0; i < kN; ++i) {
        uint64_t x = ua[i];
        int e = (x >= 1010) + (x <= 0x8000000000000000ull) + (x == 1010) + ((int64_t)x < 0);
        ASSERT_EQ(out[i], e) << i;
    }
    auto u = RandBits<uint32_t>(kN);
    auto s = RandInt<int32_t>(kN, -300, 300);
    u[0] = 5;
    uint32_t *du = Buf(u);
    int32_t *ds = Buf(s);
    ASSERT_TRUE(Ok(Launch(K("select_compare", "unsigned_vs_signed"), D1(Blocks(kN, 128)), D1(128), {Arg::Ptr(du), Arg::Ptr(ds), Arg::Ptr(out), Arg::S32(kN)})));
    for (int i = 0; i < kN; ++i) {
        int e = (u[i] < 100u ? 1 : 0) + (s[i] < 100 ? 2 : 0) + ((unsigned)s[i] > u[i] ? 4 : 0) + (u[i] >= 0x80000000u ? 8 : 0);
        ASSERT_EQ(out[i], e) << i;
    }
}

TEST_P(MapTest, Conversions) {
    auto a = RandF(kN, -3e9, 3e9);
    for (int i = 0; i < 200; ++i) a[i] = (float)((int)(rng_() % 41) - 20) * 0.5f;  // ties
    a[200] = NAN;
    a[201] = INFINITY;
    a[202] = -INFINITY;
    float *da = Buf(a);
    int32_t *out = Zeros<int32_t>(4 * kN);
    ASSERT_TRUE(Ok(Launch(K("conversions", "f32_to_i32_modes"), D1(Blocks(kN, 128)), D1(128), {Arg::Ptr(da), Arg::Ptr(out), Arg::S32(kN)})));
    auto sat = [](double v) -> int32_t {
        if (std::isnan(v)) return 0;
        if (v <= INT_MIN) return INT_MIN;
        if (v >= INT_MAX) return INT_MAX;
        return (int32_t)v;
    };
    for (int i = 0; i < kN; ++i) {
        ASSERT_EQ(out[4 * i], sat(std::nearbyint(a[i]))) << i << " " << a[i];
        ASSERT_EQ(out[4 * i + 1], sat(std::trunc(a[i]))) << i;
        ASSERT_EQ(out[4 * i + 2], sat(std::floor(a[i]))) << i;
        ASSERT_EQ(out[4 * i + 3], sat(std::ceil(a[i]))) << i;
    }
    auto ia = RandBits<int32_t>(kN);
    int32_t *dia = Buf(ia);
    float *fo = Zeros<float>(4 * kN);
    ASSERT_TRUE(Ok(Launch(K("conversions", "i32_to_f32_modes"), D1(Blocks(kN, 128)), D1(128), {Arg::Ptr(dia), Arg::Ptr(fo), Arg::S32(kN)})));
    const int modes[4] = {FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD};
    for (int i = 0; i < kN; ++i)
        for (int m = 0; m < 4; ++m) {
            std::fesetround(modes[m]);
            volatile int32_t v = ia[i];
            volatile float e = (float)v;
            std::fesetround(FE_TONEAREST);
            ASSERT_TRUE(SameF(fo[4 * i + m], e)) << i << " mode " << m;
        }
    auto d = RandD(kN, -2e19, 2e19);
    d[0] = NAN;
    d[1] = -1.5;
    int64_t *s64 = Zeros<int64_t>(kN);
    uint64_t *u64 = Zeros<uint64_t>(kN);
    double *dd = Buf(d);
    ASSERT_TRUE(Ok(Launch(K("conversions", "f64_to_i64_u64"), D1(Blocks(kN, 128)), D1(128), {Arg::Ptr(dd), Arg::Ptr(s64), Arg::Ptr(u64), Arg::S32(kN)})));
    for (int i = 0; i < kN; ++i) {
        double v = d[i];
        int64_t es = std::isnan(v) ? INT64_MIN : v <= -9223372036854775808.0 ? INT64_MIN : v >= 9223372036854775808.0 ? INT64_MAX : (int64_t)v;
        double f = std::floor(v);
        uint64_t eu = std::isnan(v) ? 1ull << 63 : f <= 0 ? 0 : f >= 18446744073709551616.0 ? UINT64_MAX : (uint64_t)f;
        ASSERT_EQ(s64[i], es) << i << " " << v;
        ASSERT_EQ(u64[i], eu) << i << " " << v;
    }
    auto l = RandBits<int64_t>(kN);
    int64_t *dl = Buf(l);
    double *od = Zeros<double>(kN);
    float *of = Zeros<float>(kN);
    ASSERT_TRUE(Ok(Launch(K("conversions", "i64_to_f64_f32"), D1(Blocks(kN, 128)), D1(128), {Arg::Ptr(dl), Arg::Ptr(od), Arg::Ptr(of), Arg::S32(kN)})));
    for (int i = 0; i < kN; ++i) {
        ASSERT_TRUE(SameD(od[i], (double)l[i])) << i;
        std::fesetround(FE_TOWARDZERO);
        volatile int64_t v = l[i];
        volatile float e = (float)v;
        std::fesetround(FE_TONEAREST);
        ASSERT_TRUE(SameF(of[i], e)) << i;
    }
    auto ua = RandBits<uint32_t>(kN);
    uint32_t *dua = Buf(ua), *uo = Zeros<uint32_t>(kN);
    ASSERT_TRUE(Ok(Launch(K("conversions", "u32_f32_bits"), D1(Blocks(kN, 128)), D1(128), {Arg::Ptr(dua), Arg::Ptr(of), Arg::Ptr(uo), Arg::S32(kN)})));
    for (int i = 0; i < kN; ++i) {
        float bits;
        std::memcpy(&bits, &ua[i], 4);
        volatile float e = bits + (float)ua[i];
        ASSERT_TRUE(SameF(of[i], e)) << i;
        float ex = (float)(ua[i] & 0xffff);
        uint32_t eb;
        std::memcpy(&eb, &ex, 4);
        ASSERT_EQ(uo[i], eb) << i;
    }
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

TEST_P(MapTest, BitOps) {
    auto a = RandBits<uint32_t>(kN);
    a[0] = 0;
    a[1] = 1;
    a[2] = 0x80000000u;
    uint32_t *da = Buf(a);
    int32_t *out = Zeros<int32_t>(6 * kN);
    ASSERT_TRUE(Ok(Launch(K("bit_ops", "bits_u32"), D1(Blocks(kN, 128)), D1(128), {Arg::Ptr(da), Arg::Ptr(out), Arg::S32(kN)})));
    for (int i = 0; i < kN; ++i) {
        uint32_t x = a[i];
        int clz = x ? __builtin_clz(x) : 32;
        uint32_t rev = 0;
        for (int k = 0; k < 32; ++k) rev |= ((x >> k) & 1u) << (31 - k);
        ASSERT_EQ(out[6 * i], __builtin_popcount(x));
        ASSERT_EQ(out[6 * i + 1], clz);
        ASSERT_EQ((uint32_t)out[6 * i + 2], rev);
        ASSERT_EQ(out[6 * i + 3], x ? __builtin_ctz(x) + 1 : 0);
        ASSERT_EQ(out[6 * i + 4], 31 - clz);
        ASSERT_EQ((uint32_t)out[6 * i + 5], __builtin_bswap32(x));
    }
    auto b = RandBits<uint64_t>(kN);
    b[0] = 0;
    uint64_t *db = Buf(b), *rev = Zeros<uint64_t>(kN);
    ASSERT_TRUE(Ok(Launch(K("bit_ops", "bits_u64"), D1(Blocks(kN, 128)), D1(128), {Arg::Ptr(db), Arg::Ptr(out), Arg::Ptr(rev), Arg::S32(kN)})));
    for (int i = 0; i < kN; ++i) {
        uint64_t x = b[i], r = 0;
        for (int k = 0; k < 64; ++k) r |= ((x >> k) & 1ull) << (63 - k);
        ASSERT_EQ(out[3 * i], __builtin_popcountll(x));
        ASSERT_EQ(out[3 * i + 1], x ? __builtin_clzll(x) : 64);
        ASSERT_EQ(out[3 * i + 2], x ? __builtin_ctzll(x) + 1 : 0);
        ASSERT_EQ(rev[i], r);
    }
    auto lo = RandBits<uint32_t>(kN), hi = RandBits<uint32_t>(kN), s = RandInt<uint32_t>(kN, 0, 70);
    uint32_t *dlo = Buf(lo), *dhi = Buf(hi), *ds = Buf(s), *uo = Zeros<uint32_t>(2 * kN);
    ASSERT_TRUE(Ok(Launch(K("bit_ops", "funnel_shift"), D1(Blocks(kN, 128)), D1(128), {Arg::Ptr(dlo), Arg::Ptr(dhi), Arg::Ptr(ds), Arg::Ptr(uo), Arg::S32(kN)})));
    for (int i = 0; i < kN; ++i) {
        uint64_t v = ((uint64_t)hi[i] << 32) | lo[i];
        uint32_t sh = s[i] & 31;
        ASSERT_EQ(uo[2 * i], (uint32_t)((v << sh) >> 32)) << i;
        ASSERT_EQ(uo[2 * i + 1], (uint32_t)(v >> sh)) << i;
    }
    ASSERT_TRUE(Ok(Launch(K("bit_ops", "funnel_shift_clamp"), D1(Blocks(kN, 128)), D1(128), {Arg::Ptr(dlo), Arg::Ptr(dhi), Arg::Ptr(ds), Arg::Ptr(uo), Arg::S32(kN)})));
    for (int i = 0; i < kN; ++i) {
        uint64_t v = ((uint64_t)hi[i] << 32) | lo[i];
        uint32_t sh = std::min<uint32_t>(s[i], 32);
        ASSERT_EQ(uo[2 * i], (uint32_t)((v << sh) >> 32)) << i;
        ASSERT_EQ(uo[2 * i + 1], (uint32_t)(v >> sh)) << i;
    }
    ASSERT_TRUE(Ok(Launch(K("bit_ops", "rotate_extract"), D1(Blocks(kN, 128)), D1(128), {Arg::Ptr(dlo), Arg::Ptr(ds), Arg::Ptr(uo), Arg::S32(kN)})));
    for (int i = 0; i < kN; ++i) {
        uint32_t x = lo[i], r = s[i] & 31;
        ASSERT_EQ(uo[2 * i], (x << r) | (x >> ((32 - r) & 31))) << i;
        ASSERT_EQ(uo[2 * i + 1], (x >> 7) & 0x1ff) << i;
    }
    auto sa = RandBits<int32_t>(kN);
    int32_t *dsa = Buf(sa), *so = Zeros<int32_t>(2 * kN);
    int64_t *so64 = Zeros<int64_t>(kN);
    ASSERT_TRUE(Ok(Launch(K("bit_ops", "shifts_signed"), D1(Blocks(kN, 128)), D1(128), {Arg::Ptr(dsa), Arg::Ptr(ds), Arg::Ptr(so), Arg::Ptr(so64), Arg::S32(kN)})));
    for (int i = 0; i < kN; ++i) {
        uint32_t sh = s[i] & 31;
        ASSERT_EQ(so[2 * i], sa[i] >> sh) << i;
        ASSERT_EQ(so[2 * i + 1], (int32_t)((uint32_t)sa[i] >> sh)) << i;
        ASSERT_EQ(so64[i], (int64_t)((uint64_t)(int64_t)sa[i] << 32) >> (sh + 1)) << i;
    }
}

}  // namespace
}  // namespace rndn::cpujit::testing
