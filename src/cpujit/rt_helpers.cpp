// Runtime helpers called from generated kernel code (see rt.h).
#include <algorithm>
#include <atomic>
#include <cfenv>
#include <chrono>
#include <cmath>

#include "cpujit/rt.h"
#include "cpujit/run_state.h"
#include "cpujit/translate.h"

namespace rndn::cpujit {

namespace {
// Whether [addr, addr + size) lies in the CTA's shared memory, in the local window
// [local_lo, local_hi), or in one registered range (then cached in site[0..1]).
bool Accessible(const ThreadCtx *ctx, uint64_t addr, uint64_t size, uint64_t local_lo, uint64_t local_hi,
                uint64_t *site) {
    uint64_t end = addr + size;
    if (end < addr) return false;
    auto sh = (uint64_t)(uintptr_t)ctx->shared;
    if (addr >= sh && end <= sh + ctx->shared_size) return true;
    if (addr >= local_lo && end <= local_hi) return true;
    const auto &r = ctx->run->ranges;
    auto it = std::upper_bound(r.begin(), r.end(), addr,
                               [](uint64_t a, const std::pair<uint64_t, uint64_t> &x) { return a < x.first; });
    if (it == r.begin()) return false;
    --it;
    if (addr < it->first || end > it->second) return false;
    site[0] = it->first;
    site[1] = it->second;
    return true;
}

// With bounds checking off every access is allowed (the site caches the whole address space).
bool Unchecked(const ThreadCtx *ctx, uint64_t *site) {
    if (ctx->run->check_bounds) return false;
    site[0] = 0;
    site[1] = ~0ull;
    return true;
}

void RecordOob(ThreadCtx *ctx, uint64_t addr, uint64_t size, uint32_t line, uint32_t is_store) {
    ctx->err_kind = (uint32_t)ErrKind::OOB_GLOBAL;
    ctx->err_addr = addr;
    ctx->err_size = size | ((uint64_t)is_store << 63);
    ctx->err_line = line;
}

// Names lane `lane` of gang ctx->warpid (lock-step kernels) as the failing thread.
void SetLane(ThreadCtx *ctx, uint32_t lane) {
    uint32_t t = ctx->warpid * kLanes + lane;
    for (int d = 0; d < 3; ++d) ctx->tid[d] = ctx->tid_tab[d * kMaxThreads + t];
    ctx->laneid = t & 31;
}
}  // namespace

extern "C" int32_t rndn_cj_check(ThreadCtx *ctx, uint64_t addr, uint64_t size, uint32_t line, uint32_t is_store,
                                 uint64_t *site) {
    if (Unchecked(ctx, site)) return 1;
    auto lo = (uint64_t)(uintptr_t)ctx->local;
    if (Accessible(ctx, addr, size, lo, lo + ctx->local_size, site)) return 1;
    RecordOob(ctx, addr, size, line, is_store);
    return 0;
}

extern "C" int32_t rndn_cj_check_warp(ThreadCtx *ctx, const uint64_t *addrs, uint32_t mask, uint64_t size,
                                      uint32_t line, uint32_t is_store, uint64_t *site) {
    if (Unchecked(ctx, site)) return 1;
    // the gang's local windows, one after the other
    uint64_t lo = (uint64_t)(uintptr_t)ctx->local_base + (uint64_t)ctx->warpid * kLanes * ctx->local_size;
    uint64_t lo_end = lo + kLanes * ctx->local_size;
    for (uint32_t lane = 0; lane < kLanes; ++lane) {
        if (!((mask >> lane) & 1) || Accessible(ctx, addrs[lane], size, lo, lo_end, site)) continue;
        RecordOob(ctx, addrs[lane], size, line, is_store);
        SetLane(ctx, lane);
        return 0;
    }
    return 1;
}

extern "C" void rndn_cj_fail_lane(ThreadCtx *ctx, uint32_t kind, uint64_t addr, uint64_t size, uint32_t line,
                                  uint32_t lane) {
    rndn_cj_fail(ctx, kind, addr, size, line);
    SetLane(ctx, lane);
}

extern "C" void rndn_cj_fail(ThreadCtx *ctx, uint32_t kind, uint64_t addr, uint64_t size, uint32_t line) {
    ctx->err_kind = kind;
    ctx->err_addr = addr;
    ctx->err_size = size;
    ctx->err_line = line;
}

extern "C" uint64_t rndn_cj_clock64() {
    return (uint64_t)std::chrono::steady_clock::now().time_since_epoch().count();
}

extern "C" uint64_t rndn_cj_globaltimer() {
    return (uint64_t)std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

namespace {
int FeMode(uint32_t mode) {
    switch ((RMode)mode) {
    case RMode::RZ: return FE_TOWARDZERO;
    case RMode::RM: return FE_DOWNWARD;
    case RMode::RP: return FE_UPWARD;
    default: return FE_TONEAREST;
    }
}

// Computes op under the given rounding mode.  volatile keeps the compiler from folding or
// moving the arithmetic across the rounding-mode switches.
template <class T>
T RoundedOp(uint32_t op, uint32_t mode, T a, T b, T c) {
    int old = std::fegetround();
    std::fesetround(FeMode(mode));
    volatile T va = a, vb = b, vc = c;
    T r;
    switch ((FOp)op) {
    case FOp::ADD: r = va + vb; break;
    case FOp::SUB: r = va - vb; break;
    case FOp::MUL: r = va * vb; break;
    case FOp::DIV: r = va / vb; break;
    case FOp::FMA: r = std::fma((T)va, (T)vb, (T)vc); break;
    case FOp::SQRT: r = std::sqrt((T)va); break;
    case FOp::RCP: r = (T)1 / va; break;
    default: r = va; break;
    }
    volatile T vr = r;
    std::fesetround(old);
    return vr;
}
}  // namespace

extern "C" float rndn_cj_f32_op(uint32_t op, uint32_t mode, float a, float b, float c) {
    return RoundedOp<float>(op, mode, a, b, c);
}

extern "C" double rndn_cj_f64_op(uint32_t op, uint32_t mode, double a, double b, double c) {
    if ((FOp)op == FOp::CVT) {  // round a double to float precision under `mode`
        int old = std::fegetround();
        std::fesetround(FeMode(mode));
        volatile double va = a;
        volatile float f = (float)va;
        std::fesetround(old);
        return f;
    }
    return RoundedOp<double>(op, mode, a, b, c);
}

extern "C" float rndn_cj_cvt_f32_i64(uint32_t mode, int64_t v, uint32_t is_signed) {
    int old = std::fegetround();
    std::fesetround(FeMode(mode));
    volatile int64_t vv = v;
    volatile float r = is_signed ? (float)vv : (float)(uint64_t)vv;
    std::fesetround(old);
    return r;
}

extern "C" double rndn_cj_cvt_f64_i64(uint32_t mode, int64_t v, uint32_t is_signed) {
    int old = std::fegetround();
    std::fesetround(FeMode(mode));
    volatile int64_t vv = v;
    volatile double r = is_signed ? (double)vv : (double)(uint64_t)vv;
    std::fesetround(old);
    return r;
}

extern "C" uint32_t rndn_cj_prmt(uint32_t a, uint32_t b, uint32_t c, uint32_t mode) {
    uint64_t x = ((uint64_t)b << 32) | a;
    auto byte = [&](unsigned k) { return (uint32_t)(x >> (8 * (k & 7))) & 0xFF; };
    uint32_t r = 0;
    if (mode == 0) {
        for (int k = 0; k < 4; ++k) {
            uint32_t sel = (c >> (4 * k)) & 0xF;
            uint32_t v = byte(sel & 7);
            if (sel & 8) v = (v & 0x80) ? 0xFF : 0;
            r |= v << (8 * k);
        }
        return r;
    }
    uint32_t s = c & 3;
    static const uint8_t kTab[6][4][4] = {
        {{0, 1, 2, 3}, {1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6}},  // f4e
        {{0, 7, 6, 5}, {1, 0, 7, 6}, {2, 1, 0, 7}, {3, 2, 1, 0}},  // b4e
        {{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}},  // rc8
        {{0, 1, 2, 3}, {1, 1, 2, 3}, {2, 2, 2, 3}, {3, 3, 3, 3}},  // ecl
        {{0, 0, 0, 0}, {0, 1, 1, 1}, {0, 1, 2, 2}, {0, 1, 2, 3}},  // ecr
        {{0, 1, 0, 1}, {2, 3, 2, 3}, {0, 1, 0, 1}, {2, 3, 2, 3}},  // rc16
    };
    for (int k = 0; k < 4; ++k) r |= byte(kTab[mode - 1][s][k]) << (8 * k);
    return r;
}

extern "C" uint64_t rndn_cj_bfe(uint64_t a, uint32_t pos, uint32_t len, uint32_t bits, uint32_t is_signed) {
    pos &= 0xFF;
    len &= 0xFF;
    uint64_t mask_all = bits == 64 ? ~0ull : ((1ull << bits) - 1);
    a &= mask_all;
    bool sbit;
    if (!is_signed || len == 0) sbit = false;
    else sbit = (a >> std::min<uint32_t>(pos + len - 1, bits - 1)) & 1;
    uint64_t r = 0;
    for (uint32_t i = 0; i < bits; ++i) {
        uint64_t bit = (i < len && pos + i <= bits - 1) ? (a >> (pos + i)) & 1 : (uint64_t)sbit;
        r |= bit << i;
    }
    return r;
}

extern "C" uint64_t rndn_cj_bfi(uint64_t a, uint64_t b, uint32_t pos, uint32_t len, uint32_t bits) {
    pos &= 0xFF;
    len &= 0xFF;
    uint64_t r = b;
    for (uint32_t i = 0; i < len && pos + i < bits; ++i) {
        uint64_t bit = (a >> i) & 1;
        r = (r & ~(1ull << (pos + i))) | (bit << (pos + i));
    }
    return r;
}

extern "C" uint32_t rndn_cj_atom_inc(uint32_t *p, uint32_t b) {
    std::atomic_ref<uint32_t> ref(*p);
    uint32_t old = ref.load();
    while (!ref.compare_exchange_weak(old, old >= b ? 0 : old + 1)) {
    }
    return old;
}

extern "C" uint32_t rndn_cj_atom_dec(uint32_t *p, uint32_t b) {
    std::atomic_ref<uint32_t> ref(*p);
    uint32_t old = ref.load();
    while (!ref.compare_exchange_weak(old, (old == 0 || old > b) ? b : old - 1)) {
    }
    return old;
}

}  // namespace rndn::cpujit
