// Corpus kernels that use warp collectives, CTA barriers, shared memory and atomics, checked
// against C++ references written from each kernel's header comment.
#include <algorithm>
#include <climits>
#include <numeric>
#include <set>

// The SASS emulator's tests compile this file again against its own harness (same API shape).
#ifdef RNDN_CORPUS_HARNESS
#include RNDN_CORPUS_HARNESS
#else
#include "harness.h"
#endif

namespace rndn::cpujit::testing {
namespace {

class SyncTest : public CorpusTest {};
RNDN_CJ_INSTANTIATE(SyncTest);

TEST_P(SyncTest, WarpReduce) {
    const int n = 1000;  // not a multiple of 32: the last warp is partial
    auto in = RandBits<int32_t>(n);
    int32_t *din = Buf(in);
    int nw = Blocks(n, 32);
    int32_t *out = Zeros<int32_t>(nw + 8);
    for (uint32_t bs : {32u, 128u}) {
        ASSERT_TRUE(Ok(Launch(K("warp_reduce", "warp_sum_down"), D1(Blocks(n, bs)), D1(bs), {Arg::Ptr(din), Arg::Ptr(out), Arg::S32(n)})));
        for (int w = 0; w < nw; ++w) {
            uint32_t s = 0;
            for (int i = w * 32; i < std::min(n, w * 32 + 32); ++i) s += (uint32_t)in[i];
            ASSERT_EQ((uint32_t)out[w], s) << w;
        }
    }
    int32_t *o2 = Zeros<int32_t>(n);
    ASSERT_TRUE(Ok(Launch(K("warp_reduce", "warp_sum_xor"), D1(Blocks(n, 64)), D1(64), {Arg::Ptr(din), Arg::Ptr(o2), Arg::S32(n)})));
    for (int i = 0; i < n; ++i) {
        uint32_t s = 0;
        for (int j = i & ~31; j < std::min(n, (i & ~31) + 32); ++j) s += (uint32_t)in[j];
        ASSERT_EQ((uint32_t)o2[i], s) << i;
    }
    auto f = RandF(n, -1e6, 1e6);
    float *df = Buf(f), *fo = Zeros<float>(nw + 8);  // lane 0 of every launched warp writes
    ASSERT_TRUE(Ok(Launch(K("warp_reduce", "warp_max_f32"), D1(Blocks(n, 96)), D1(96), {Arg::Ptr(df), Arg::Ptr(fo), Arg::S32(n)})));
    for (int w = 0; w < nw; ++w) {
        float m = -INFINITY;
        for (int i = w * 32; i < std::min(n, w * 32 + 32); ++i) m = std::fmax(m, f[i]);
        ASSERT_TRUE(SameF(fo[w], m)) << w;
    }
    auto u = RandBits<uint64_t>(n);
    uint64_t *du = Buf(u), *uo = Zeros<uint64_t>(nw + 8);
    ASSERT_TRUE(Ok(Launch(K("warp_reduce", "warp_sum_u64"), D1(Blocks(n, 128)), D1(128), {Arg::Ptr(du), Arg::Ptr(uo), Arg::S32(n)})));
    for (int w = 0; w < nw; ++w) {
        uint64_t s = 0;
        for (int i = w * 32; i < std::min(n, w * 32 + 32); ++i) s += u[i];
        ASSERT_EQ(uo[w], s) << w;
    }
    ASSERT_TRUE(Ok(Launch(K("warp_reduce", "warp_broadcast"), D1(Blocks(n, 128)), D1(128), {Arg::Ptr(din), Arg::Ptr(o2), Arg::S32(29), Arg::S32(n)})));
    for (int i = 0; i < n; ++i) {
        int j = (i & ~31) + 29;
        ASSERT_EQ(o2[i], j < n ? in[j] : 0) << i;
    }
    ASSERT_TRUE(Ok(Launch(K("warp_reduce", "warp_scan_up"), D1(Blocks(n, 128)), D1(128), {Arg::Ptr(din), Arg::Ptr(o2), Arg::S32(n)})));
    for (int i = 0; i < n; ++i) {
        uint32_t s = 0;
        for (int j = i & ~31; j <= i; ++j) s += (uint32_t)in[j];
        ASSERT_EQ((uint32_t)o2[i], s) << i;
    }
}

TEST_P(SyncTest, WarpVote) {
    const int n = 900, th = 10;
    auto in = RandInt<int32_t>(n, 0, 30);
    for (int i = 64; i < 96; ++i) in[i] = 50;  // a warp where every lane votes true
    int32_t *din = Buf(in);
    int nw = Blocks(n, 32);
    auto p = [&](int i) { return i < n && in[i] > th; };
    uint32_t *bal = Zeros<uint32_t>(nw + 8);  // lane 0 of every launched warp writes
    ASSERT_TRUE(Ok(Launch(K("warp_vote", "vote_ballot"), D1(Blocks(n, 64)), D1(64), {Arg::Ptr(din), Arg::Ptr(bal), Arg::S32(th), Arg::S32(n)})));
    for (int w = 0; w < nw; ++w) {
        uint32_t e = 0;
        for (int l = 0; l < 32; ++l) e |= (p(w * 32 + l) ? 1u : 0u) << l;
        ASSERT_EQ(bal[w], e) << w;
    }
    int32_t *any = Zeros<int32_t>(nw + 8), *all = Zeros<int32_t>(nw + 8);
    ASSERT_TRUE(Ok(Launch(K("warp_vote", "vote_any_all"), D1(Blocks(n, 128)), D1(128), {Arg::Ptr(din), Arg::Ptr(any), Arg::Ptr(all), Arg::S32(th), Arg::S32(n)})));
    for (int w = 0; w < nw; ++w) {
        bool a = false, b = true;
        for (int l = 0; l < 32; ++l) {
            a |= p(w * 32 + l);
            b &= p(w * 32 + l);
        }
        ASSERT_EQ(any[w], a ? 1 : 0) << w;
        ASSERT_EQ(all[w], b ? 1 : 0) << w;
    }
    uint32_t *am = Filled<uint32_t>(n, 0xdeadbeef);
    ASSERT_TRUE(Ok(Launch(K("warp_vote", "vote_active"), D1(Blocks(n, 64)), D1(64), {Arg::Ptr(din), Arg::Ptr(am), Arg::S32(n)})));
    for (int i = 0; i < n; ++i) {
        uint32_t e = 0;
        if (in[i] & 1)
            for (int l = 0; l < 32; ++l) {
                int j = (i & ~31) + l;
                if (j < n && (in[j] & 1)) e |= 1u << l;
            }
        ASSERT_EQ(am[i], e) << i;
    }
    int32_t *cnt = Zeros<int32_t>(n);
    ASSERT_TRUE(Ok(Launch(K("warp_vote", "vote_count"), D1(Blocks(n, 256)), D1(256), {Arg::Ptr(din), Arg::Ptr(cnt), Arg::S32(th), Arg::S32(n)})));
    for (int i = 0; i < n; ++i) {
        int total = 0, rank = 0;
        for (int l = 0; l < 32; ++l) {
            bool q = p((i & ~31) + l);
            total += q;
            if (l < (i & 31)) rank += q;
        }
        ASSERT_EQ(cnt[i], total + 100 * rank) << i;
    }
}

TEST_P(SyncTest, WarpMatch) {
    const int n = 500;
    auto keys = RandInt<int32_t>(n, 0, 4);
    int32_t *dk = Buf(keys);
    auto key = [&](int i) { return i < n ? keys[i] : -1; };
    uint32_t *out = Zeros<uint32_t>(n);
    ASSERT_TRUE(Ok(Launch(K("warp_match", "match_any_i32"), D1(Blocks(n, 64)), D1(64), {Arg::Ptr(dk), Arg::Ptr(out), Arg::S32(n)})));
    auto mask_of = [&](int i) {
        uint32_t m = 0;
        for (int l = 0; l < 32; ++l)
            if (key((i & ~31) + l) == key(i)) m |= 1u << l;
        return m;
    };
    for (int i = 0; i < n; ++i) ASSERT_EQ(out[i], mask_of(i)) << i;
    std::vector<uint64_t> k64(n);
    for (int i = 0; i < n; ++i) k64[i] = (uint64_t)keys[i] << 40;
    uint64_t *dk64 = Buf(k64);
    ASSERT_TRUE(Ok(Launch(K("warp_match", "match_any_u64"), D1(Blocks(n, 128)), D1(128), {Arg::Ptr(dk64), Arg::Ptr(out), Arg::S32(n)})));
    for (int i = 0; i < n; ++i) ASSERT_EQ(out[i], mask_of(i)) << i;
    int32_t *leader = Zeros<int32_t>(n), *size = Zeros<int32_t>(n);
    ASSERT_TRUE(Ok(Launch(K("warp_match", "match_group_leader"), D1(Blocks(n, 32)), D1(32), {Arg::Ptr(dk), Arg::Ptr(leader), Arg::Ptr(size), Arg::S32(n)})));
    for (int i = 0; i < n; ++i) {
        ASSERT_EQ(leader[i], __builtin_ctz(mask_of(i))) << i;
        ASSERT_EQ(size[i], __builtin_popcount(mask_of(i))) << i;
    }
    std::vector<int32_t> k2(256, 7);
    for (int i = 32; i < 64; ++i) k2[i] = i == 40 ? 8 : 7;
    int32_t *dk2 = Buf(k2), *pred = Zeros<int32_t>(8);
    ASSERT_TRUE(Ok(Launch(K("warp_match", "match_all_i32"), D1(2), D1(128), {Arg::Ptr(dk2), Arg::Ptr(out), Arg::Ptr(pred), Arg::S32(256)})));
    for (int w = 0; w < 8; ++w) {
        ASSERT_EQ(out[w], w == 1 ? 0u : 0xffffffffu) << w;
        ASSERT_EQ(pred[w], w == 1 ? 0 : 1) << w;
    }
}

TEST_P(SyncTest, BlockReduce) {
    const int n = 1500;
    int nb = Blocks(n, 256);
    auto in = RandBits<int32_t>(n);
    int32_t *din = Buf(in), *out = Zeros<int32_t>(nb);
    auto block_sum = [&](int b) {
        uint32_t s = 0;
        for (int i = b * 256; i < std::min(n, b * 256 + 256); ++i) s += (uint32_t)in[i];
        return s;
    };
    ASSERT_TRUE(Ok(Launch(K("block_reduce", "block_sum_i32"), D1(nb), D1(256), {Arg::Ptr(din), Arg::Ptr(out), Arg::S32(n)})));
    for (int b = 0; b < nb; ++b) ASSERT_EQ((uint32_t)out[b], block_sum(b)) << b;
    int32_t *out2 = Zeros<int32_t>(nb);
    ASSERT_TRUE(Ok(Launch(K("block_reduce", "block_sum_warp_shfl"), D1(nb), D1(256), {Arg::Ptr(din), Arg::Ptr(out2), Arg::S32(n)})));
    for (int b = 0; b < nb; ++b) ASSERT_EQ((uint32_t)out2[b], block_sum(b)) << b;
    auto l = RandBits<int64_t>(n);
    int64_t *dl = Buf(l), *mn = Zeros<int64_t>(nb), *mx = Zeros<int64_t>(nb);
    ASSERT_TRUE(Ok(Launch(K("block_reduce", "block_min_max_i64"), D1(nb), D1(256), {Arg::Ptr(dl), Arg::Ptr(mn), Arg::Ptr(mx), Arg::S32(n)})));
    for (int b = 0; b < nb; ++b) {
        auto lo = l.begin() + b * 256, hi = l.begin() + std::min(n, b * 256 + 256);
        ASSERT_EQ(mn[b], *std::min_element(lo, hi));
        ASSERT_EQ(mx[b], *std::max_element(lo, hi));
    }
    auto d = RandD(n, -1e3, 1e3);
    double *dd = Buf(d), *ds = Zeros<double>(nb);
    ASSERT_TRUE(Ok(Launch(K("block_reduce", "block_sum_f64_ordered"), D1(nb), D1(256), {Arg::Ptr(dd), Arg::Ptr(ds), Arg::S32(n)})));
    for (int b = 0; b < nb; ++b) {
        double s[256];
        for (int t = 0; t < 256; ++t) s[t] = b * 256 + t < n ? d[b * 256 + t] : 0.0;
        for (int st = 128; st >= 1; st /= 2)
            for (int t = 0; t < st; ++t) s[t] = s[t] + s[t + st];
        ASSERT_TRUE(SameD(ds[b], s[0])) << b;
    }
}

TEST_P(SyncTest, BlockScan) {
    const int n = 700;
    int nb = Blocks(n, 256);
    auto in = RandBits<int32_t>(n);
    int32_t *din = Buf(in), *out = Zeros<int32_t>(n), *tot = Zeros<int32_t>(nb);
    ASSERT_TRUE(Ok(Launch(K("block_scan", "scan_inclusive_i32"), D1(nb), D1(256), {Arg::Ptr(din), Arg::Ptr(out), Arg::S32(n)})));
    for (int b = 0; b < nb; ++b) {
        uint32_t s = 0;
        for (int i = b * 256; i < std::min(n, b * 256 + 256); ++i) {
            s += (uint32_t)in[i];
            ASSERT_EQ((uint32_t)out[i], s) << i;
        }
    }
    ASSERT_TRUE(Ok(Launch(K("block_scan", "scan_exclusive_i32"), D1(nb), D1(256), {Arg::Ptr(din), Arg::Ptr(out), Arg::Ptr(tot), Arg::S32(n)})));
    for (int b = 0; b < nb; ++b) {
        uint32_t s = 0;
        for (int i = b * 256; i < std::min(n, b * 256 + 256); ++i) {
            ASSERT_EQ((uint32_t)out[i], s) << i;
            s += (uint32_t)in[i];
        }
        ASSERT_EQ((uint32_t)tot[b], s) << b;
    }
    auto u = RandBits<uint64_t>(n);
    uint64_t *du = Buf(u), *uo = Zeros<uint64_t>(n);
    ASSERT_TRUE(Ok(Launch(K("block_scan", "scan_inclusive_u64"), D1(nb), D1(256), {Arg::Ptr(du), Arg::Ptr(uo), Arg::S32(n)})));
    for (int b = 0; b < nb; ++b) {
        uint64_t s = 0;
        for (int i = b * 256; i < std::min(n, b * 256 + 256); ++i) {
            s += u[i];
            ASSERT_EQ(uo[i], s) << i;
        }
    }
}

TEST_P(SyncTest, BitonicSort) {
    const int n = 600;
    auto v = RandBits<uint32_t>(n);
    uint32_t *dv = Buf(v);
    ASSERT_TRUE(Ok(Launch(K("bitonic_sort", "bitonic_sort_u32"), D1(Blocks(n, 256)), D1(256), {Arg::Ptr(dv), Arg::S32(n)})));
    auto e = v;
    for (int b = 0; b * 256 < n; ++b) std::sort(e.begin() + b * 256, e.begin() + std::min(n, b * 256 + 256));
    for (int i = 0; i < n; ++i) ASSERT_EQ(dv[i], e[i]) << i;
    auto k = RandInt<int64_t>(n, -5, 5);
    auto val = RandBits<int32_t>(n);
    int64_t *dk = Buf(k);
    int32_t *dval = Buf(val);
    ASSERT_TRUE(Ok(Launch(K("bitonic_sort", "bitonic_sort_i64_kv"), D1(Blocks(n, 256)), D1(256), {Arg::Ptr(dk), Arg::Ptr(dval), Arg::S32(n)})));
    std::vector<std::pair<int64_t, int32_t>> kv(n);
    for (int i = 0; i < n; ++i) kv[i] = {k[i], val[i]};
    for (int b = 0; b * 256 < n; ++b) std::sort(kv.begin() + b * 256, kv.begin() + std::min(n, b * 256 + 256));
    for (int i = 0; i < n; ++i) {
        ASSERT_EQ(dk[i], kv[i].first) << i;
        ASSERT_EQ(dval[i], kv[i].second) << i;
    }
    auto f = RandF(n, -100, 100);
    float *df = Buf(f);
    ASSERT_TRUE(Ok(Launch(K("bitonic_sort", "bitonic_sort_f32_desc"), D1(Blocks(n, 256)), D1(256), {Arg::Ptr(df), Arg::S32(n)})));
    for (int b = 0; b * 256 < n; ++b) std::sort(f.begin() + b * 256, f.begin() + std::min(n, b * 256 + 256), std::greater<float>());
    for (int i = 0; i < n; ++i) ASSERT_TRUE(SameF(df[i], f[i])) << i;
}

TEST_P(SyncTest, StreamCompact) {
    const int n = 1000;
    int nb = Blocks(n, 256);
    auto in = RandInt<int32_t>(n, -10, 10);
    int32_t *din = Buf(in), *out = Filled<int32_t>(nb * 256, -777), *cnt = Zeros<int32_t>(nb);
    ASSERT_TRUE(Ok(Launch(K("stream_compact", "compact_positive"), D1(nb), D1(256), {Arg::Ptr(din), Arg::Ptr(out), Arg::Ptr(cnt), Arg::S32(n)})));
    for (int b = 0; b < nb; ++b) {
        int r = 0;
        for (int i = b * 256; i < std::min(n, b * 256 + 256); ++i)
            if (in[i] > 0) {
                ASSERT_EQ(out[b * 256 + r++], in[i]) << i;
            }
        ASSERT_EQ(cnt[b], r) << b;
        for (int j = r; j < 256; ++j) ASSERT_EQ(out[b * 256 + j], -777);
    }
    auto u = RandInt<uint64_t>(n, 0, 100);
    uint64_t *du = Buf(u);
    int32_t *idx = Zeros<int32_t>(nb * 256);
    ASSERT_TRUE(Ok(Launch(K("stream_compact", "compact_indices_u64"), D1(nb), D1(256), {Arg::Ptr(du), Arg::U64(20), Arg::U64(60), Arg::Ptr(idx), Arg::Ptr(cnt), Arg::S32(n)})));
    for (int b = 0; b < nb; ++b) {
        int r = 0;
        for (int i = b * 256; i < std::min(n, b * 256 + 256); ++i)
            if (u[i] >= 20 && u[i] < 60) {
                ASSERT_EQ(idx[b * 256 + r++], i) << i;
            }
        ASSERT_EQ(cnt[b], r) << b;
    }
}

TEST_P(SyncTest, SyncVariants) {
    const int n = 300;
    auto in = RandInt<int32_t>(n, -3, 10);
    for (int i = 128; i < 256; ++i) in[i] = 5;  // block 1 of 128 is all-positive
    int32_t *din = Buf(in);
    for (uint32_t bs : {128u, 96u}) {
        int nb = Blocks(n, bs);
        int32_t *out = Zeros<int32_t>(3 * nb);
        ASSERT_TRUE(Ok(Launch(K("sync_variants", "block_vote_counts"), D1(nb), D1(bs), {Arg::Ptr(din), Arg::Ptr(out), Arg::S32(n)})));
        for (int b = 0; b < nb; ++b) {
            int c = 0;
            for (uint32_t t = 0; t < bs; ++t) {
                int i = b * bs + t;
                c += i < n && in[i] > 0;
            }
            ASSERT_EQ(out[3 * b], c) << b;
            ASSERT_EQ(out[3 * b + 1], c == (int)bs ? 1 : 0) << b;
            ASSERT_EQ(out[3 * b + 2], c > 0 ? 1 : 0) << b;
        }
    }
    int32_t *o = Zeros<int32_t>(n);
    ASSERT_TRUE(Ok(Launch(K("sync_variants", "warp_sync_exchange"), D1(Blocks(n, 64)), D1(64), {Arg::Ptr(din), Arg::Ptr(o), Arg::S32(n)})));
    for (int i = 0; i < n; ++i) {
        int j = i ^ 1;
        ASSERT_EQ(o[i], j < n ? in[j] : 0) << i;
    }
    int32_t *data = Zeros<int32_t>(n), *flag = Zeros<int32_t>(Blocks(n, 64));
    ASSERT_TRUE(Ok(Launch(K("sync_variants", "fence_publish"), D1(Blocks(n, 64)), D1(64), {Arg::Ptr(data), Arg::Ptr(flag), Arg::S32(n)})));
    for (int i = 0; i < n; ++i) ASSERT_EQ(data[i], 3 * i);
    for (uint32_t b = 0; b < Blocks(n, 64); ++b) ASSERT_EQ(flag[b], 1);
    ASSERT_TRUE(Ok(Launch(K("sync_variants", "named_barrier"), D1(Blocks(n, 128)), D1(128), {Arg::Ptr(din), Arg::Ptr(o), Arg::S32(n)})));
    for (int i = 0; i < n; ++i) {
        int j = i ^ 32;
        ASSERT_EQ(o[i], j < n ? in[j] : 0) << i;
    }
}

TEST_P(SyncTest, DynamicShared) {
    const int n = 333;
    auto in = RandBits<int32_t>(n);
    int32_t *din = Buf(in), *out = Zeros<int32_t>(n);
    for (uint32_t bs : {64u, 100u}) {
        ASSERT_TRUE(Ok(Launch(K("dynamic_shared", "dyn_reverse_block"), D1(Blocks(n, bs)), D1(bs), {Arg::Ptr(din), Arg::Ptr(out), Arg::S32(n)}, bs * 4)));
        for (uint32_t b = 0; b < Blocks(n, bs); ++b) {
            int m = std::min<int>(bs, n - b * bs);
            for (int t = 0; t < m; ++t) ASSERT_EQ(out[b * bs + t], in[b * bs + (m - 1 - t)]) << b << " " << t;
        }
    }
    auto a = RandF(n, -10, 10);
    auto k = RandInt<int32_t>(n, -5, 5);
    float *da = Buf(a), *fo = Zeros<float>(n);
    int32_t *dk = Buf(k);
    const uint32_t bs = 64;
    ASSERT_TRUE(Ok(Launch(K("dynamic_shared", "dyn_two_arrays"), D1(Blocks(n, bs)), D1(bs), {Arg::Ptr(da), Arg::Ptr(dk), Arg::Ptr(fo), Arg::S32(n)}, bs * 8)));
    for (int i = 0; i < n; ++i) {
        int b = i / bs, t = i % bs;
        int j = b * bs + (t + 1) % bs;
        float nb = j < n ? a[j] : 0.f;
        ASSERT_TRUE(SameF(fo[i], nb * (float)k[i])) << i;
    }
    auto d = RandD(n, -100, 100);
    double *dd = Buf(d), *ds = Zeros<double>(Blocks(n, bs));
    ASSERT_TRUE(Ok(Launch(K("dynamic_shared", "dyn_double_sum"), D1(Blocks(n, bs)), D1(bs), {Arg::Ptr(dd), Arg::Ptr(ds), Arg::S32(n)}, bs * 8)));
    for (uint32_t b = 0; b < Blocks(n, bs); ++b) {
        double s[64];
        for (uint32_t t = 0; t < bs; ++t) s[t] = b * bs + t < (uint32_t)n ? d[b * bs + t] : 0.0;
        for (int st = bs / 2; st >= 1; st /= 2)
            for (int t = 0; t < st; ++t) s[t] = s[t] + s[t + st];
        ASSERT_TRUE(SameD(ds[b], s[0])) << b;
    }
}

TEST_P(SyncTest, Atomics) {
    const int n = 2000;
    auto in = RandInt<int32_t>(n, -50, 50);
    std::vector<float> f(in.begin(), in.end());
    float *df = Buf(f), *sum = Filled<float>(1, 10.f);
    ASSERT_TRUE(Ok(Launch(K("atomic_float", "atomic_add_f32"), D1(Blocks(n, 128)), D1(128), {Arg::Ptr(df), Arg::Ptr(sum), Arg::S32(n)})));
    float e = 10.f + (float)std::accumulate(in.begin(), in.end(), 0);
    ASSERT_EQ(*sum, e);
    auto bin = RandInt<int32_t>(n, 0, 9);
    int32_t *dbin = Buf(bin);
    float *sums = Zeros<float>(10);
    ASSERT_TRUE(Ok(Launch(K("atomic_float", "atomic_add_f32_bins"), D1(Blocks(n, 64)), D1(64), {Arg::Ptr(df), Arg::Ptr(dbin), Arg::Ptr(sums), Arg::S32(n)})));
    for (int b = 0; b < 10; ++b) {
        float s = 0;
        for (int i = 0; i < n; ++i)
            if (bin[i] == b) s += f[i];
        ASSERT_EQ(sums[b], s) << b;
    }
    std::vector<double> d(in.begin(), in.end());
    double *dd = Buf(d), *dsum = Zeros<double>(1);
    ASSERT_TRUE(Ok(Launch(K("atomic_float", "atomic_add_f64"), D1(Blocks(n, 128)), D1(128), {Arg::Ptr(dd), Arg::Ptr(dsum), Arg::S32(n)})));
    ASSERT_EQ(*dsum, (double)std::accumulate(in.begin(), in.end(), 0));
    float *ssum = Zeros<float>(1);
    ASSERT_TRUE(Ok(Launch(K("atomic_float", "atomic_add_f32_shared"), D1(Blocks(n, 256)), D1(256), {Arg::Ptr(df), Arg::Ptr(ssum), Arg::S32(n)})));
    ASSERT_EQ(*ssum, (float)std::accumulate(in.begin(), in.end(), 0));

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
    std::vector<int64_t> s(u.begin(), u.end());
    int64_t *ds = Buf(s), *sm = Buf(std::vector<int64_t>{INT64_MAX, INT64_MIN});
    ASSERT_TRUE(Ok(Launch(K("atomic_minmax", "atomic_min_max_i64"), D1(Blocks(n, 128)), D1(128), {Arg::Ptr(ds), Arg::Ptr(sm), Arg::S32(n)})));
    ASSERT_EQ(sm[0], *std::min_element(s.begin(), s.end()));
    ASSERT_EQ(sm[1], *std::max_element(s.begin(), s.end()));
    auto bits = RandBits<uint32_t>(n);
    uint32_t *db = Buf(bits), *res = Buf(std::vector<uint32_t>{0xffffffffu, 0, 0, 12345});
    ASSERT_TRUE(Ok(Launch(K("atomic_minmax", "atomic_bitwise"), D1(Blocks(n, 128)), D1(128), {Arg::Ptr(db), Arg::Ptr(res), Arg::S32(n)})));
    uint32_t ea = ~0u, eo = 0, ex = 0, es = 12345;
    for (auto x : bits) {
        ea &= x;
        eo |= x;
        ex ^= x;
        es -= x & 0xff;
    }
    ASSERT_EQ(res[0], ea);
    ASSERT_EQ(res[1], eo);
    ASSERT_EQ(res[2], ex);
    ASSERT_EQ(res[3], es);
    int32_t *flags = Zeros<int32_t>(4), *win = Zeros<int32_t>(1);
    ASSERT_TRUE(Ok(Launch(K("atomic_minmax", "atomic_exch_flag"), D1(Blocks(n, 128)), D1(128), {Arg::Ptr(flags), Arg::Ptr(win), Arg::S32(n)})));
    ASSERT_EQ(win[0], 4);
    for (int k = 0; k < 4; ++k) ASSERT_NE(flags[k], 0);
    uint32_t *ctr = Zeros<uint32_t>(2);
    ASSERT_TRUE(Ok(Launch(K("atomic_minmax", "atomic_inc_dec"), D1(Blocks(1234, 128)), D1(128), {Arg::Ptr(ctr), Arg::S32(1234)})));
    ASSERT_EQ(ctr[0], 1234u % 10);
    ASSERT_EQ(ctr[1], (10 - 1234u % 10) % 10);
}

TEST_P(SyncTest, HistogramAndHash) {
    const int n = 3000;
    auto keys = RandBits<uint32_t>(n);
    uint32_t *dk = Buf(keys), *bins = Zeros<uint32_t>(37);
    ASSERT_TRUE(Ok(Launch(K("histogram", "hist_global"), D1(Blocks(n, 128)), D1(128), {Arg::Ptr(dk), Arg::Ptr(bins), Arg::S32(37), Arg::S32(n)})));
    std::vector<uint32_t> e(37);
    for (auto k : keys) e[k % 37]++;
    for (int b = 0; b < 37; ++b) ASSERT_EQ(bins[b], e[b]);
    auto bytes = RandBits<uint8_t>(n);
    uint8_t *db = Buf(bytes);
    uint32_t *b256 = Zeros<uint32_t>(256);
    ASSERT_TRUE(Ok(Launch(K("histogram", "hist_shared256"), D1(3), D1(96), {Arg::Ptr(db), Arg::Ptr(b256), Arg::S32(n)})));
    std::vector<uint32_t> e256(256);
    for (auto x : bytes) e256[x]++;
    for (int b = 0; b < 256; ++b) ASSERT_EQ(b256[b], e256[b]);
    auto w = RandBits<uint64_t>(n);
    uint64_t *dw = Buf(w), *wb = Zeros<uint64_t>(16);
    ASSERT_TRUE(Ok(Launch(K("histogram", "hist_weighted_u64"), D1(Blocks(n, 256)), D1(256), {Arg::Ptr(dk), Arg::Ptr(dw), Arg::Ptr(wb), Arg::S32(16), Arg::S32(n)})));
    std::vector<uint64_t> ew(16);
    for (int i = 0; i < n; ++i) ew[keys[i] % 16] += w[i];
    for (int b = 0; b < 16; ++b) ASSERT_EQ(wb[b], ew[b]);

    // hash table: distinct keys, build then probe (half present, half absent)
    const int m = 500;
    const uint32_t cap = 1024;
    std::set<uint32_t> ks;
    while ((int)ks.size() < 2 * m) ks.insert((uint32_t)(rng_() % 0xfffffff0u));
    std::vector<uint32_t> all(ks.begin(), ks.end());
    std::vector<uint32_t> hk(all.begin(), all.begin() + m), hv = RandBits<uint32_t>(m);
    uint32_t *dhk = Buf(hk), *dhv = Buf(hv);
    uint64_t *slots = Filled<uint64_t>(cap, ~0ull);
    ASSERT_TRUE(Ok(Launch(K("hash_table", "ht_build"), D1(Blocks(m, 128)), D1(128), {Arg::Ptr(dhk), Arg::Ptr(dhv), Arg::Ptr(slots), Arg::U32(cap), Arg::S32(m)})));
    std::set<uint64_t> got, want;
    for (uint32_t i = 0; i < cap; ++i)
        if (slots[i] != ~0ull) got.insert(slots[i]);
    for (int i = 0; i < m; ++i) want.insert(((uint64_t)hk[i] << 32) | hv[i]);
    ASSERT_EQ(got, want);
    std::vector<uint32_t> probe(all.begin() + m / 2, all.begin() + m / 2 + m);
    uint32_t *dp = Buf(probe), *ov = Zeros<uint32_t>(m);
    int32_t *found = Zeros<int32_t>(m);
    ASSERT_TRUE(Ok(Launch(K("hash_table", "ht_probe"), D1(Blocks(m, 64)), D1(64), {Arg::Ptr(dp), Arg::Ptr(slots), Arg::U32(cap), Arg::Ptr(ov), Arg::Ptr(found), Arg::S32(m)})));
    for (int i = 0; i < m; ++i) {
        int j = m / 2 + i;
        bool present = j < m;
        ASSERT_EQ(found[i], present ? 1 : 0) << i;
        ASSERT_EQ(ov[i], present ? hv[j] : 0u) << i;
    }
    auto dup = RandInt<uint32_t>(n, 0, 700);
    uint32_t *ddup = Buf(dup), *s32 = Filled<uint32_t>(2048, 0xffffffffu), *distinct = Zeros<uint32_t>(1);
    ASSERT_TRUE(Ok(Launch(K("hash_table", "ht_count_distinct"), D1(Blocks(n, 128)), D1(128), {Arg::Ptr(ddup), Arg::Ptr(s32), Arg::U32(2048), Arg::Ptr(distinct), Arg::S32(n)})));
    ASSERT_EQ(*distinct, std::set<uint32_t>(dup.begin(), dup.end()).size());
}

TEST_P(SyncTest, Grids) {
    const int rows = 45, cols = 70;
    auto in = RandF(rows * cols, -1, 1);
    float *din = Buf(in), *out = Zeros<float>(rows * cols);
    ASSERT_TRUE(Ok(Launch(K("grid_3d", "transpose_2d"), Dim3{Blocks(cols, 16), Blocks(rows, 8), 1}, Dim3{16, 8, 1}, {Arg::Ptr(din), Arg::Ptr(out), Arg::S32(rows), Arg::S32(cols)})));
    for (int y = 0; y < rows; ++y)
        for (int x = 0; x < cols; ++x) ASSERT_TRUE(SameF(out[x * rows + y], in[y * cols + x]));
    float *out2 = Zeros<float>(rows * cols);
    ASSERT_TRUE(Ok(Launch(K("grid_3d", "tiled_transpose_32"), Dim3{Blocks(cols, 32), Blocks(rows, 32), 1}, Dim3{32, 8, 1}, {Arg::Ptr(din), Arg::Ptr(out2), Arg::S32(rows), Arg::S32(cols)})));
    for (int i = 0; i < rows * cols; ++i) ASSERT_TRUE(SameF(out2[i], out[i])) << i;
    const int nx = 13, ny = 7, nz = 5;
    int32_t *vol = Zeros<int32_t>(nx * ny * nz);
    ASSERT_TRUE(Ok(Launch(K("grid_3d", "volume_index_3d"), Dim3{2, 2, 3}, Dim3{8, 4, 2}, {Arg::Ptr(vol), Arg::S32(nx), Arg::S32(ny), Arg::S32(nz)})));
    for (int z = 0; z < nz; ++z)
        for (int y = 0; y < ny; ++y)
            for (int x = 0; x < nx; ++x) ASSERT_EQ(vol[(z * ny + y) * nx + x], x + 1000 * y + 1000000 * z);
    Dim3 g{3, 2, 2}, b{4, 3, 2};
    int nthreads = 24, nblocks = 12;
    int32_t *gd = Zeros<int32_t>(6 + nblocks * nthreads);
    ASSERT_TRUE(Ok(Launch(K("grid_3d", "grid_dims"), g, b, {Arg::Ptr(gd)})));
    int32_t head[6] = {3, 2, 2, 4, 3, 2};
    for (int k = 0; k < 6; ++k) ASSERT_EQ(gd[k], head[k]);
    for (int bid = 0; bid < nblocks; ++bid)
        for (int t = 0; t < nthreads; ++t) ASSERT_EQ(gd[6 + bid * nthreads + t], bid * 65536 + t);

    const int n = 5000;
    auto l = RandBits<int64_t>(n);
    int64_t *dl = Buf(l), *lo = Zeros<int64_t>(n);
    ASSERT_TRUE(Ok(Launch(K("grid_stride", "gs_square_i64"), D1(3), D1(64), {Arg::Ptr(dl), Arg::Ptr(lo), Arg::S64(n)})));
    for (int i = 0; i < n; ++i) ASSERT_EQ((uint64_t)lo[i], (uint64_t)l[i] * (uint64_t)l[i]);
    int32_t *iota = Zeros<int32_t>(n);
    ASSERT_TRUE(Ok(Launch(K("grid_stride", "gs_fill_iota"), D1(2), D1(96), {Arg::Ptr(iota), Arg::S32(-7), Arg::S32(3), Arg::S32(n)})));
    for (int i = 0; i < n; ++i) ASSERT_EQ(iota[i], -7 + 3 * i);
    auto v = RandBits<int32_t>(n);
    int32_t *dv = Buf(v);
    uint64_t *tot = Zeros<uint64_t>(1);
    ASSERT_TRUE(Ok(Launch(K("grid_stride", "gs_sum_atomic"), D1(4), D1(128), {Arg::Ptr(dv), Arg::Ptr(tot), Arg::S32(n)})));
    int64_t es = 0;
    for (auto x : v) es += x;
    ASSERT_EQ((int64_t)*tot, es);
    auto by = RandBits<uint8_t>(n);
    uint8_t *dby = Buf(by), *bo = Zeros<uint8_t>(n);
    ASSERT_TRUE(Ok(Launch(K("grid_stride", "gs_copy_u8"), D1(1), D1(32), {Arg::Ptr(dby), Arg::Ptr(bo), Arg::S32(n)})));
    for (int i = 0; i < n; ++i) ASSERT_EQ(bo[i], (uint8_t)(by[i] ^ 0x80));
}

#ifndef RNDN_CORPUS_DEVICE_IS_SASSEMU  // a test of the cpu device's prefetcher, 2^25 threads
// A grid-stride loop's accesses are prefetched 16 strides ahead (contiguity.cpp).  With 2^24
// threads the prefetched addresses lie a gigabyte past the buffer (2^28 elements ahead); that
// may not fault, checked or unchecked.
TEST_P(SyncTest, GridStridePrefetchesFarOutsideTheBufferNeverFault) {
    const int n = 1 << 16;
    auto v = RandBits<int32_t>(n);
    int32_t *dv = Buf(v);
    uint64_t *tot = Zeros<uint64_t>(1);
    int64_t want = 0;
    for (auto x : v) want += x;
    const Kernel *k = K("grid_stride", "gs_sum_atomic");
    ASSERT_NE(k, nullptr);
    for (bool checked : {true, false}) {
        *tot = 0;
        LaunchConfig c;
        c.grid = D1(1u << 16);
        c.block = D1(256);
        c.check_bounds = checked;
        ASSERT_TRUE(Ok(dev().Launch(*k, c, {Arg::Ptr(dv), Arg::Ptr(tot), Arg::S32(n)})));
        EXPECT_EQ((int64_t)*tot, want) << (checked ? "checked" : "unchecked");
    }
}

#endif

TEST_P(SyncTest, SpecialRegs) {
    const uint32_t g = 3, b = 64, n = g * b;
    int32_t *ids = Zeros<int32_t>(4 * n);
    ASSERT_TRUE(Ok(Launch(K("special_regs", "sreg_ids"), D1(g), D1(b), {Arg::Ptr(ids)})));
    for (uint32_t i = 0; i < n; ++i) {
        ASSERT_EQ(ids[4 * i], (int)(i % 32));
        ASSERT_EQ(ids[4 * i + 1], (int)g);
        ASSERT_EQ(ids[4 * i + 2], (int)b);
        ASSERT_EQ(ids[4 * i + 3], 1);
    }
    int32_t *clk = Zeros<int32_t>(n);
    ASSERT_TRUE(Ok(Launch(K("special_regs", "sreg_clocks"), D1(g), D1(b), {Arg::Ptr(clk)})));
    for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(clk[i], 1);
    uint32_t *lm = Zeros<uint32_t>(5 * n);
    ASSERT_TRUE(Ok(Launch(K("special_regs", "sreg_lanemasks"), D1(g), D1(b), {Arg::Ptr(lm)})));
    for (uint32_t i = 0; i < n; ++i) {
        uint32_t l = i % 32;
        uint64_t one = 1;
        ASSERT_EQ(lm[5 * i], (uint32_t)(one << l));
        ASSERT_EQ(lm[5 * i + 1], (uint32_t)((one << l) - 1));
        ASSERT_EQ(lm[5 * i + 2], (uint32_t)((2 * one << l) - 1));
        ASSERT_EQ(lm[5 * i + 3], (uint32_t)~((2 * one << l) - 1));
        ASSERT_EQ(lm[5 * i + 4], (uint32_t)~((one << l) - 1));
    }
    uint32_t *sm = Zeros<uint32_t>(n);
    ASSERT_TRUE(Ok(Launch(K("special_regs", "sreg_smid"), D1(g), D1(b), {Arg::Ptr(sm)})));
    for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(sm[i], 1u);
}

}  // namespace
}  // namespace rndn::cpujit::testing
