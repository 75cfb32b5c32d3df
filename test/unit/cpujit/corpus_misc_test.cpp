// Remaining corpus kernels: control flow, device functions, module variables, math libraries,
// local memory, vector memory, strings and inline PTX, checked against C++ references.
#include <climits>
#include <cstring>

// The SASS emulator's tests compile this file again against its own harness (same API shape).
#ifdef RNDN_CORPUS_HARNESS
#include RNDN_CORPUS_HARNESS
#else
#include "harness.h"
#endif

namespace rndn::cpujit::testing {
namespace {

class MiscTest : public CorpusTest {};
RNDN_CJ_INSTANTIATE(MiscTest);

constexpr int kN = 700;

TEST_P(MiscTest, ControlFlow) {
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
    auto s = RandBits<int32_t>(kN);
    int32_t *ds = Buf(s);
    ASSERT_TRUE(Ok(Launch(K("control_flow", "switch_map"), D1(Blocks(kN, 128)), D1(128), {Arg::Ptr(ds), Arg::Ptr(out), Arg::S32(kN)})));
    for (int i = 0; i < kN; ++i) {
        int x = s[i], e;
        switch (x & 7) {
        case 0: e = 10; break;
        case 1: e = 21; break;
        case 2: e = (int32_t)((uint32_t)x * 2); break;
        case 3: e = (int32_t)(0u - (uint32_t)x); break;
        case 4: e = x ^ 0xff; break;
        case 5:
        case 6: e = 99; break;
        default: e = 0;
        }
        ASSERT_EQ(out[i], e) << i;
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
    auto d = RandInt<int32_t>(kN, -1000, 1000000);
    int32_t *dd = Buf(d);
    ASSERT_TRUE(Ok(Launch(K("control_flow", "divergent_exit"), D1(Blocks(kN, 128)), D1(128), {Arg::Ptr(dd), Arg::Ptr(out), Arg::S32(kN)})));
    for (int i = 0; i < kN; ++i) {
        int e;
        if (d[i] < 0) {
            e = -1;
        } else {
            int t = d[i];
            while (t > 9) {
                int q = 0;
                while (t) {
                    q += t % 10;
                    t /= 10;
                }
                t = q;
            }
            e = t;
        }
        ASSERT_EQ(out[i], e) << i;
    }
}

TEST_P(MiscTest, DeviceFunctions) {
    auto a = RandBits<int32_t>(kN);
    int32_t *da = Buf(a), *out = Zeros<int32_t>(kN);
    ASSERT_TRUE(Ok(Launch(K("device_func", "call_poly"), D1(Blocks(kN, 128)), D1(128), {Arg::Ptr(da), Arg::Ptr(out), Arg::S32(kN)})));
    for (int i = 0; i < kN; ++i) {
        uint32_t x = (uint32_t)a[i];
        ASSERT_EQ((uint32_t)out[i], 3u * x * x - 2u * x + 1u) << i;
    }
    auto d = RandD(kN, -100, 100);
    double *dd = Buf(d), *s = Zeros<double>(kN), *c = Zeros<double>(kN);
    ASSERT_TRUE(Ok(Launch(K("device_func", "call_two_results"), D1(Blocks(kN, 128)), D1(128), {Arg::Ptr(dd), Arg::Ptr(s), Arg::Ptr(c), Arg::S32(kN)})));
    for (int i = 0; i < kN; ++i) {
        ASSERT_TRUE(SameD(s[i], d[i] * 2.0)) << i;
        ASSERT_TRUE(SameD(c[i], d[i] - 1.0)) << i;
    }
    auto u = RandBits<uint64_t>(kN);
    uint64_t *du = Buf(u), *uo = Zeros<uint64_t>(kN);
    ASSERT_TRUE(Ok(Launch(K("device_func", "call_chain"), D1(Blocks(kN, 128)), D1(128), {Arg::Ptr(du), Arg::Ptr(uo), Arg::S32(kN)})));
    for (int i = 0; i < kN; ++i) ASSERT_EQ(uo[i], (u[i] ^ (u[i] >> 17)) * 0x9e3779b97f4a7c15ull) << i;
    auto f = RandF(kN, -0.5, 1.5);
    float *df = Buf(f);
    ASSERT_TRUE(Ok(Launch(K("device_func", "call_pred"), D1(Blocks(kN, 128)), D1(128), {Arg::Ptr(df), Arg::Ptr(out), Arg::S32(kN)})));
    for (int i = 0; i < kN; ++i) ASSERT_EQ(out[i], (f[i] >= 0 && f[i] <= 1) ? 7 : 9) << i;
}

TEST_P(MiscTest, ModuleVariables) {
    static const int kPrimes[16] = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53};
    static const float kScale[4] = {0.5f, 1.0f, 2.0f, 4.0f};
    auto idx = RandBits<int32_t>(kN);
    int32_t *di = Buf(idx), *out = Zeros<int32_t>(kN);
    float *fo = Zeros<float>(kN);
    ASSERT_TRUE(Ok(Launch(K("const_global_vars", "const_lookup"), D1(Blocks(kN, 128)), D1(128), {Arg::Ptr(di), Arg::Ptr(out), Arg::Ptr(fo), Arg::S32(kN)})));
    for (int i = 0; i < kN; ++i) {
        int k = idx[i] & 15;
        ASSERT_EQ(out[i], kPrimes[k] * 2) << i;
        ASSERT_TRUE(SameF(fo[i], (float)kPrimes[k] * kScale[k & 3])) << i;
    }
    uint64_t *mo = Zeros<uint64_t>(kN);
    ASSERT_TRUE(Ok(Launch(K("const_global_vars", "const_magic"), D1(Blocks(kN, 128)), D1(128), {Arg::Ptr(mo), Arg::S32(kN)})));
    for (int i = 0; i < kN; ++i) ASSERT_EQ(mo[i], 0x0123456789abcdefull ^ (uint64_t)i);
    auto a = RandD(kN, -10, 10);
    double *da = Buf(a), *dout = Zeros<double>(kN);
    ASSERT_TRUE(Ok(Launch(K("const_global_vars", "global_bias"), D1(Blocks(kN, 128)), D1(128), {Arg::Ptr(da), Arg::Ptr(dout), Arg::S32(kN)})));
    const double bias[3] = {1.5, -2.25, 1e10};
    for (int i = 0; i < kN; ++i) ASSERT_TRUE(SameD(dout[i], a[i] + bias[i % 3])) << i;
    uint32_t *marks = Zeros<uint32_t>(kN);
    ASSERT_TRUE(Ok(Launch(K("const_global_vars", "global_counter"), D1(Blocks(kN, 128)), D1(128), {Arg::Ptr(marks), Arg::S32(kN)})));
    for (int i = 0; i < kN; ++i) ASSERT_EQ(marks[i], 1u);
}

TEST_P(MiscTest, FloatMath) {
    auto a = RandF(kN, -80, 80), b = RandF(kN, -80, 80);
    b[0] = 0.f;
    float *da = Buf(a), *db = Buf(b), *o1 = Zeros<float>(kN), *o2 = Zeros<float>(kN);
    ASSERT_TRUE(Ok(Launch(K("float_math", "f32_sqrt_div"), D1(Blocks(kN, 128)), D1(128), {Arg::Ptr(da), Arg::Ptr(db), Arg::Ptr(o1), Arg::S32(kN)})));
    for (int i = 0; i < kN; ++i) ASSERT_TRUE(SameF(o1[i], std::sqrt(std::fabs(a[i])) / b[i])) << i;
    ASSERT_TRUE(Ok(Launch(K("float_math", "f32_exp_log"), D1(Blocks(kN, 128)), D1(128), {Arg::Ptr(da), Arg::Ptr(o1), Arg::Ptr(o2), Arg::S32(kN)})));
    for (int i = 0; i < kN; ++i) {
        ASSERT_LE(UlpF(o1[i], (float)std::exp((double)a[i])), 2) << i << " " << a[i];
        ASSERT_LE(UlpF(o2[i], (float)std::log((double)(std::fabs(a[i]) + 1.0f))), 1) << i;
    }
    ASSERT_TRUE(Ok(Launch(K("float_math", "f32_approx"), D1(Blocks(kN, 128)), D1(128), {Arg::Ptr(da), Arg::Ptr(db), Arg::Ptr(o1), Arg::S32(kN)})));
    for (int i = 0; i < kN; ++i) {
        double e = std::exp(a[i] * 0.125) + std::log(std::fabs(b[i]) + 2.0) + a[i] / (std::fabs(b[i]) + 1.0);
        ASSERT_LE(std::fabs(o1[i] - e), std::ldexp(std::fabs(e), -19) + 1e-5) << i;
    }
    ASSERT_TRUE(Ok(Launch(K("float_math", "f32_rcp_rsqrt"), D1(Blocks(kN, 128)), D1(128), {Arg::Ptr(da), Arg::Ptr(o1), Arg::Ptr(o2), Arg::S32(kN)})));
    for (int i = 0; i < kN; ++i) {
        ASSERT_TRUE(SameF(o1[i], 1.0f / a[i])) << i;
        ASSERT_LE(UlpF(o2[i], (float)(1.0 / std::sqrt((double)(std::fabs(a[i]) + 1.0f)))), 2) << i;
    }
    float *o4 = Zeros<float>(4 * kN);
    ASSERT_TRUE(Ok(Launch(K("float_math", "f32_round_funcs"), D1(Blocks(kN, 128)), D1(128), {Arg::Ptr(da), Arg::Ptr(o4), Arg::S32(kN)})));
    for (int i = 0; i < kN; ++i) {
        ASSERT_TRUE(SameF(o4[4 * i], std::floor(a[i])));
        ASSERT_TRUE(SameF(o4[4 * i + 1], std::ceil(a[i])));
        ASSERT_TRUE(SameF(o4[4 * i + 2], std::trunc(a[i])));
        ASSERT_TRUE(SameF(o4[4 * i + 3], std::nearbyint(a[i])));
    }
    a[1] = NAN;
    float *da2 = Buf(a);
    ASSERT_TRUE(Ok(Launch(K("float_math", "f32_ftz_sat"), D1(Blocks(kN, 128)), D1(128), {Arg::Ptr(da2), Arg::Ptr(o1), Arg::S32(kN)})));
    for (int i = 0; i < kN; ++i) {
        float v = a[i] * 2.0f;
        float e = std::isnan(v) ? 0.f : std::min(1.f, std::max(0.f, v));
        ASSERT_TRUE(SameF(o1[i], e)) << i;
    }
}

TEST_P(MiscTest, DoubleMath) {
    auto a = RandD(kN, -30, 30), b = RandD(kN, -30, 30);
    double *da = Buf(a), *db = Buf(b), *o1 = Zeros<double>(kN), *o2 = Zeros<double>(kN);
    ASSERT_TRUE(Ok(Launch(K("double_math", "f64_sqrt_div"), D1(Blocks(kN, 128)), D1(128), {Arg::Ptr(da), Arg::Ptr(db), Arg::Ptr(o1), Arg::S32(kN)})));
    for (int i = 0; i < kN; ++i) ASSERT_TRUE(SameD(o1[i], std::sqrt(std::fabs(a[i])) / b[i])) << i;
    ASSERT_TRUE(Ok(Launch(K("double_math", "f64_exp_log"), D1(Blocks(kN, 128)), D1(128), {Arg::Ptr(da), Arg::Ptr(o1), Arg::Ptr(o2), Arg::S32(kN)})));
    for (int i = 0; i < kN; ++i) {
        ASSERT_LE(UlpD(o1[i], std::exp(a[i])), 2) << i;
        ASSERT_LE(UlpD(o2[i], std::log(std::fabs(a[i]) + 1.0)), 2) << i;
    }
    auto k = RandInt<int32_t>(kN, -6, 6);
    int32_t *dk = Buf(k);
    ASSERT_TRUE(Ok(Launch(K("double_math", "f64_pow_int"), D1(Blocks(kN, 128)), D1(128), {Arg::Ptr(da), Arg::Ptr(dk), Arg::Ptr(o1), Arg::S32(kN)})));
    for (int i = 0; i < kN; ++i) ASSERT_LE(UlpD(o1[i], std::pow(a[i], (double)k[i])), 3) << i << " " << a[i] << "^" << k[i];
    double *o3 = Zeros<double>(3 * kN);
    ASSERT_TRUE(Ok(Launch(K("double_math", "f64_round_funcs"), D1(Blocks(kN, 128)), D1(128), {Arg::Ptr(da), Arg::Ptr(o3), Arg::S32(kN)})));
    for (int i = 0; i < kN; ++i) {
        ASSERT_TRUE(SameD(o3[3 * i], std::floor(a[i])));
        ASSERT_TRUE(SameD(o3[3 * i + 1], std::ceil(a[i])));
        ASSERT_TRUE(SameD(o3[3 * i + 2], std::nearbyint(a[i])));
    }
    ASSERT_TRUE(Ok(Launch(K("double_math", "f64_rcp"), D1(Blocks(kN, 128)), D1(128), {Arg::Ptr(da), Arg::Ptr(o1), Arg::S32(kN)})));
    for (int i = 0; i < kN; ++i) ASSERT_TRUE(SameD(o1[i], 1.0 / a[i])) << i;
    ASSERT_TRUE(Ok(Launch(K("double_math", "f64_minmax_abs"), D1(Blocks(kN, 128)), D1(128), {Arg::Ptr(da), Arg::Ptr(db), Arg::Ptr(o1), Arg::S32(kN)})));
    for (int i = 0; i < kN; ++i) ASSERT_TRUE(SameD(o1[i], std::fmax(a[i], b[i]) - std::fmin(std::fabs(a[i]), std::fabs(b[i])))) << i;
}

TEST_P(MiscTest, GuardedLoads) {
    const int src_len = 50;
    auto src = RandBits<int32_t>(src_len);
    auto idx = RandInt<int32_t>(kN, -10, 60);
    int32_t *ds = Buf(src), *di = Buf(idx), *out = Zeros<int32_t>(kN);
    ASSERT_TRUE(Ok(Launch(K("guarded_load", "gather_guarded"), D1(Blocks(kN, 128)), D1(128), {Arg::Ptr(ds), Arg::Ptr(di), Arg::Ptr(out), Arg::S32(kN), Arg::S32(src_len)})));
    for (int i = 0; i < kN; ++i) ASSERT_EQ(out[i], (idx[i] >= 0 && idx[i] < src_len) ? src[idx[i]] : -1) << i;
    auto f = RandF(kN, -1, 1);
    auto m = RandInt<uint8_t>(kN, 0, 1);
    float *df = Buf(f), *dst = Filled<float>(kN, 42.f);
    uint8_t *dm = Buf(m);
    ASSERT_TRUE(Ok(Launch(K("guarded_load", "masked_copy"), D1(Blocks(kN, 128)), D1(128), {Arg::Ptr(df), Arg::Ptr(dm), Arg::Ptr(dst), Arg::S32(kN)})));
    for (int i = 0; i < kN; ++i) ASSERT_TRUE(SameF(dst[i], m[i] ? f[i] : 42.f)) << i;
    auto a = RandBits<int32_t>(kN);
    int32_t *da = Buf(a);
    ASSERT_TRUE(Ok(Launch(K("guarded_load", "neighbour_sum"), D1(Blocks(kN, 128)), D1(128), {Arg::Ptr(da), Arg::Ptr(out), Arg::S32(kN)})));
    for (int i = 0; i < kN; ++i) {
        uint32_t e = (uint32_t)a[i] + (i > 0 ? (uint32_t)a[i - 1] : 0) + (i + 1 < kN ? (uint32_t)a[i + 1] : 0);
        ASSERT_EQ((uint32_t)out[i], e) << i;
    }
    auto d = RandD(kN, -1, 1);
    double *dd = Buf(d), *dout = Zeros<double>(kN);
    ASSERT_TRUE(Ok(Launch(K("guarded_load", "clamp_load"), D1(Blocks(kN, 128)), D1(128), {Arg::Ptr(dd), Arg::Ptr(dout), Arg::S32(kN), Arg::S32(100), Arg::S32(400)})));
    for (int i = 0; i < kN; ++i) ASSERT_TRUE(SameD(dout[i], d[std::min(std::max(i, 100), 400)])) << i;
}

TEST_P(MiscTest, LocalArrays) {
    const int n = 200;
    auto in = RandBits<int32_t>(8 * n);
    int32_t *din = Buf(in), *out = Zeros<int32_t>(8 * n);
    ASSERT_TRUE(Ok(Launch(K("local_array", "local_sort8"), D1(Blocks(n, 64)), D1(64), {Arg::Ptr(din), Arg::Ptr(out), Arg::S32(n)})));
    auto e = in;
    for (int i = 0; i < n; ++i) std::sort(e.begin() + 8 * i, e.begin() + 8 * i + 8);
    for (int i = 0; i < 8 * n; ++i) ASSERT_EQ(out[i], e[i]) << i;
    auto idx = RandBits<int32_t>(n);
    int32_t *di = Buf(idx);
    ASSERT_TRUE(Ok(Launch(K("local_array", "local_lookup"), D1(Blocks(n, 64)), D1(64), {Arg::Ptr(di), Arg::Ptr(out), Arg::S32(n)})));
    for (int i = 0; i < n; ++i) {
        uint32_t k = idx[i] & 15;
        ASSERT_EQ((uint32_t)out[i], k * k + (uint32_t)i) << i;
    }
    auto u = RandBits<uint64_t>(n);
    u[0] = 0;
    uint64_t *du = Buf(u);
    uint8_t *digits = Zeros<uint8_t>(20 * n);
    ASSERT_TRUE(Ok(Launch(K("local_array", "local_digits"), D1(Blocks(n, 64)), D1(64), {Arg::Ptr(du), Arg::Ptr(digits), Arg::S32(n)})));
    for (int i = 0; i < n; ++i) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%020llu", (unsigned long long)u[i]);
        ASSERT_EQ(std::string((const char *)digits + 20 * i, 20), std::string(buf)) << i;
    }
}

TEST_P(MiscTest, VectorMemory) {
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
    auto u = RandBits<uint32_t>(4 * n);
    uint32_t *du = Buf(u), *uo = Zeros<uint32_t>(n);
    ASSERT_TRUE(Ok(Launch(K("vector_memory", "vec4_u32_sum"), D1(Blocks(n, 64)), D1(64), {Arg::Ptr(du), Arg::Ptr(uo), Arg::S32(n)})));
    for (int i = 0; i < n; ++i) ASSERT_EQ(uo[i], u[4 * i] + u[4 * i + 1] + u[4 * i + 2] + u[4 * i + 3]);
    ASSERT_TRUE(Ok(Launch(K("vector_memory", "ldg_scale"), D1(Blocks(n, 64)), D1(64), {Arg::Ptr(da), Arg::Ptr(out), Arg::F32(1.5f), Arg::S32(n)})));
    for (int i = 0; i < n; ++i) ASSERT_TRUE(SameF(out[i], a[i] * 1.5f));
    auto s = RandBits<int32_t>(n);
    int32_t *ds = Buf(s), *so = Zeros<int32_t>(n);
    ASSERT_TRUE(Ok(Launch(K("vector_memory", "cache_hints"), D1(Blocks(n, 64)), D1(64), {Arg::Ptr(ds), Arg::Ptr(so), Arg::S32(n)})));
    for (int i = 0; i < n; ++i) ASSERT_EQ((uint32_t)so[i], 5u * (uint32_t)s[i]);
    ASSERT_TRUE(Ok(Launch(K("vector_memory", "volatile_copy"), D1(Blocks(n, 64)), D1(64), {Arg::Ptr(ds), Arg::Ptr(so), Arg::S32(n)})));
    for (int i = 0; i < n; ++i) ASSERT_EQ((uint32_t)so[i], 2u * (uint32_t)s[i]);
    auto x = RandD(2 * n, -5, 5), y = RandD(2 * n, -5, 5);
    double *dx = Buf(x), *dy = Buf(y), *dot = Zeros<double>(n);
    ASSERT_TRUE(Ok(Launch(K("vector_memory", "vec2_f64_dot"), D1(Blocks(n, 64)), D1(64), {Arg::Ptr(dx), Arg::Ptr(dy), Arg::Ptr(dot), Arg::S32(n)})));
    // The header says fma(a.y, b.y, a.x*b.x), but nvcc emits mul(a.y, b.y) then fma(a.x, b.x, that)
    // (checked in the sm_80 and sm_90 PTX); the reference follows the emitted contraction.
    for (int i = 0; i < n; ++i) ASSERT_TRUE(SameD(dot[i], std::fma(x[2 * i], y[2 * i], x[2 * i + 1] * y[2 * i + 1]))) << i;
}

TEST_P(MiscTest, Strings) {
    std::vector<std::string> rows = {"", "a", "ab", "abc", "abcd", "xabc", "abcx", "b", "zzz", "abd", "aba", "abcabc", "ab\xff"};
    for (int i = 0; i < 100; ++i) {
        std::string r;
        int len = (int)(rng_() % 7);
        for (int k = 0; k < len; ++k) r += (char)('a' + rng_() % 4);
        rows.push_back(r);
    }
    int n = (int)rows.size();
    std::vector<int32_t> off{0};
    std::string bytes;
    for (auto &r : rows) {
        bytes += r;
        off.push_back((int32_t)bytes.size());
    }
    std::vector<uint8_t> bv(bytes.begin(), bytes.end());
    int32_t *doff = Buf(off);
    uint8_t *db = Buf(bv);
    for (std::string pat : {std::string("abc"), std::string(""), std::string("b")}) {
        std::vector<uint8_t> pv(pat.begin(), pat.end());
        uint8_t *dp = Buf(pv), *out = Zeros<uint8_t>(n);
        int pl = (int)pat.size();
        ASSERT_TRUE(Ok(Launch(K("string_match", "str_equals"), D1(Blocks(n, 32)), D1(32), {Arg::Ptr(doff), Arg::Ptr(db), Arg::Ptr(dp), Arg::S32(pl), Arg::Ptr(out), Arg::S32(n)})));
        for (int r = 0; r < n; ++r) ASSERT_EQ(out[r], rows[r] == pat ? 1 : 0) << r;
        ASSERT_TRUE(Ok(Launch(K("string_match", "str_like_prefix"), D1(Blocks(n, 32)), D1(32), {Arg::Ptr(doff), Arg::Ptr(db), Arg::Ptr(dp), Arg::S32(pl), Arg::Ptr(out), Arg::S32(n)})));
        for (int r = 0; r < n; ++r) ASSERT_EQ(out[r], rows[r].rfind(pat, 0) == 0 ? 1 : 0) << r;
        ASSERT_TRUE(Ok(Launch(K("string_match", "str_like_suffix"), D1(Blocks(n, 32)), D1(32), {Arg::Ptr(doff), Arg::Ptr(db), Arg::Ptr(dp), Arg::S32(pl), Arg::Ptr(out), Arg::S32(n)})));
        for (int r = 0; r < n; ++r) {
            bool e = rows[r].size() >= pat.size() && rows[r].compare(rows[r].size() - pat.size(), pat.size(), pat) == 0;
            ASSERT_EQ(out[r], e ? 1 : 0) << r;
        }
        ASSERT_TRUE(Ok(Launch(K("string_match", "str_contains"), D1(Blocks(n, 32)), D1(32), {Arg::Ptr(doff), Arg::Ptr(db), Arg::Ptr(dp), Arg::S32(pl), Arg::Ptr(out), Arg::S32(n)})));
        for (int r = 0; r < n; ++r) ASSERT_EQ(out[r], rows[r].find(pat) != std::string::npos ? 1 : 0) << r;
        int32_t *cmp = Zeros<int32_t>(n);
        ASSERT_TRUE(Ok(Launch(K("string_match", "str_compare"), D1(Blocks(n, 32)), D1(32), {Arg::Ptr(doff), Arg::Ptr(db), Arg::Ptr(dp), Arg::S32(pl), Arg::Ptr(cmp), Arg::S32(n)})));
        for (int r = 0; r < n; ++r) {
            int c = rows[r].compare(pat);  // std::string compares chars as unsigned via char_traits
            ASSERT_EQ(cmp[r], c < 0 ? -1 : c > 0 ? 1 : 0) << r;
        }
    }
}

TEST_P(MiscTest, InlinePtx) {
    const int n = 300;
    auto a = RandBits<uint64_t>(2 * n), b = RandBits<uint64_t>(2 * n);
    uint64_t *da = Buf(a), *db = Buf(b), *out = Zeros<uint64_t>(2 * n);
    ASSERT_TRUE(Ok(Launch(K("ptx_inline", "carry_add128"), D1(Blocks(n, 64)), D1(64), {Arg::Ptr(da), Arg::Ptr(db), Arg::Ptr(out), Arg::S32(n)})));
    for (int i = 0; i < n; ++i) {
        unsigned __int128 x = ((unsigned __int128)a[2 * i + 1] << 64) | a[2 * i], y = ((unsigned __int128)b[2 * i + 1] << 64) | b[2 * i];
        unsigned __int128 s = x + y;
        ASSERT_EQ(out[2 * i], (uint64_t)s) << i;
        ASSERT_EQ(out[2 * i + 1], (uint64_t)(s >> 64)) << i;
    }
    ASSERT_TRUE(Ok(Launch(K("ptx_inline", "borrow_sub64"), D1(Blocks(n, 64)), D1(64), {Arg::Ptr(da), Arg::Ptr(db), Arg::Ptr(out), Arg::S32(n)})));
    for (int i = 0; i < n; ++i) ASSERT_EQ(out[i], a[i] - b[i]) << i;
    auto ua = RandBits<uint32_t>(n), ub = RandBits<uint32_t>(n);
    uint32_t *dua = Buf(ua), *dub = Buf(ub), *uo = Zeros<uint32_t>(4 * n);
    ASSERT_TRUE(Ok(Launch(K("ptx_inline", "bfe_bfi_prmt"), D1(Blocks(n, 64)), D1(64), {Arg::Ptr(dua), Arg::Ptr(dub), Arg::Ptr(uo), Arg::S32(n)})));
    for (int i = 0; i < n; ++i) {
        uint32_t x = ua[i], y = ub[i];
        ASSERT_EQ(uo[4 * i], (x >> 4) & 0xff);
        ASSERT_EQ((int32_t)uo[4 * i + 1], (int32_t)(int8_t)((x >> 4) & 0xff));
        ASSERT_EQ(uo[4 * i + 2], (y & ~(0xfffu << 8)) | ((x & 0xfff) << 8));
        uint32_t e = (x & 0xff) | ((y & 0xff) << 8) | (((x >> 8) & 0xff) << 16) | (((y >> 8) & 0xff) << 24);
        ASSERT_EQ(uo[4 * i + 3], e);
    }
    auto fx = RandF(n, -3, 3);
    fx[0] = INFINITY;
    fx[1] = NAN;
    auto iy = RandInt<int32_t>(n, 0, 10);
    float *dfx = Buf(fx);
    int32_t *diy = Buf(iy);
    uint32_t *so = Zeros<uint32_t>(3 * n);
    ASSERT_TRUE(Ok(Launch(K("ptx_inline", "set_testp"), D1(Blocks(n, 64)), D1(64), {Arg::Ptr(dfx), Arg::Ptr(diy), Arg::Ptr(so), Arg::S32(n)})));
    for (int i = 0; i < n; ++i) {
        ASSERT_EQ(so[3 * i], iy[i] > 5 ? 0xffffffffu : 0u) << i;
        ASSERT_EQ(so[3 * i + 1], std::isfinite(fx[i]) ? 1u : 0u) << i;
        ASSERT_EQ(so[3 * i + 2], (fx[i] < 1.0f && (iy[i] & 1)) ? 0xffffffffu : 0u) << i;
    }
    auto sa = RandBits<int32_t>(n), sb = RandBits<int32_t>(n);
    int32_t *dsa = Buf(sa), *dsb = Buf(sb);
    int64_t *lo = Zeros<int64_t>(2 * n);
    ASSERT_TRUE(Ok(Launch(K("ptx_inline", "mad_hi_wide"), D1(Blocks(n, 64)), D1(64), {Arg::Ptr(dsa), Arg::Ptr(dsb), Arg::Ptr(lo), Arg::S32(n)})));
    for (int i = 0; i < n; ++i) {
        int64_t p = (int64_t)sa[i] * sb[i];
        ASSERT_EQ(lo[2 * i], (int64_t)(int32_t)((uint32_t)(p >> 32) + 1u)) << i;
        ASSERT_EQ(lo[2 * i + 1], p + 7) << i;
    }
    int32_t *dp = Zeros<int32_t>(n);
    ASSERT_TRUE(Ok(Launch(K("ptx_inline", "dp4a_sum"), D1(Blocks(n, 64)), D1(64), {Arg::Ptr(dua), Arg::Ptr(dub), Arg::Ptr(dp), Arg::S32(n)})));
    for (int i = 0; i < n; ++i) {
        int s = 0;
        for (int k = 0; k < 4; ++k) s += (int8_t)(ua[i] >> (8 * k)) * (int8_t)(ub[i] >> (8 * k));
        ASSERT_EQ(dp[i], s) << i;
    }
    uint32_t *ctr = Zeros<uint32_t>(3), *old = Filled<uint32_t>(1, 9);
    ASSERT_TRUE(Ok(Launch(K("ptx_inline", "atom_scoped"), D1(Blocks(n, 64)), D1(64), {Arg::Ptr(ctr), Arg::Ptr(old), Arg::S32(n)})));
    ASSERT_EQ(ctr[0], (uint32_t)n);
    ASSERT_EQ(ctr[1], 2u * n);
    ASSERT_GE(ctr[2], 1u);
    ASSERT_LE(ctr[2], (uint32_t)n);
    ASSERT_EQ(old[0], 0u);
    int32_t *po = Zeros<int32_t>(n);
    ASSERT_TRUE(Ok(Launch(K("ptx_inline", "pred_logic"), D1(Blocks(n, 64)), D1(64), {Arg::Ptr(dsa), Arg::Ptr(dsb), Arg::Ptr(po), Arg::S32(n)})));
    for (int i = 0; i < n; ++i) {
        bool q = sb[i] > 0, p = sa[i] < 10 && q, np = !(sa[i] < 10) && q;
        ASSERT_EQ(po[i], (p ? 1 : 2) + (np ? 4 : 0)) << i;
    }
}

}  // namespace
}  // namespace rndn::cpujit::testing
