// Operand reads and register writes shared by the semantics (semantics*.cpp).
#pragma once

#include <bit>
#include <cfenv>
#include <cmath>
#include <cstring>

#include "sassemu/internal.h"

namespace rndn::sassemu {

#define SE_FOR_LANES(mask, l) \
    for (uint32_t se_mm_ = (mask), l = 0; se_mm_ && ((l = (uint32_t)__builtin_ctz(se_mm_)), true); se_mm_ &= se_mm_ - 1)

inline float AsF(uint32_t b) { return std::bit_cast<float>(b); }
inline uint32_t FBits(float f) { return std::bit_cast<uint32_t>(f); }
inline double AsD(uint64_t b) { return std::bit_cast<double>(b); }
inline uint64_t DBits(double d) { return std::bit_cast<uint64_t>(d); }

inline uint32_t Special(const Cta &c, const Warp &w, int sr, int l) {
    uint32_t t = (uint32_t)(w.id * 32 + l);
    uint32_t tx = t % c.block.x, ty = (t / c.block.x) % c.block.y, tz = t / (c.block.x * c.block.y);
    switch (sr) {
        case SR_TID_X: return tx;
        case SR_TID_Y: return ty;
        case SR_TID_Z: return tz;
        case SR_CTAID_X: return c.ctaid[0];
        case SR_CTAID_Y: return c.ctaid[1];
        case SR_CTAID_Z: return c.ctaid[2];
        case SR_NTID_X: return c.block.x;
        case SR_NTID_Y: return c.block.y;
        case SR_NTID_Z: return c.block.z;
        case SR_LANEID: return (uint32_t)l;
        case SR_EQMASK: return 1u << l;
        case SR_LTMASK: return (1u << l) - 1;
        case SR_LEMASK: return (uint32_t)((2ull << l) - 1);
        case SR_GTMASK: return ~(uint32_t)((2ull << l) - 1);
        case SR_GEMASK: return ~((1u << l) - 1);
        case SR_CLOCKLO: return (uint32_t)w.steps;
        case SR_GLOBALTIMERLO: return (uint32_t)(w.steps * 1000);
        case SR_VIRTID: return 0;
        case SR_VIRTUALSMID: return 0;
        case SR_CGACTAID: return 0;
        case SR_SWINHI: return (uint32_t)(kSharedWindow >> 32);
        default: return 0;
    }
}

inline uint32_t Raw(const Cta &c, const Warp &w, const Operand &o, int l) {
    switch (o.kind) {
        case Operand::R: return o.reg == 255 ? 0 : w.r[o.reg][l];
        case Operand::UR: return o.reg == 63 ? 0 : w.ur[o.reg];
        case Operand::IMM: return (uint32_t)o.imm;
        case Operand::CBANK: {
            int64_t off = o.imm;
            if (o.has_reg) off += o.base_ur ? (int64_t)w.ur[o.reg] : (int64_t)(int32_t)w.r[o.reg][l];
            if (o.ureg != 63) off += w.ur[o.ureg];
            bool ok;
            return c.ConstRead32(o.bank, off, &ok);
        }
        case Operand::SR: return Special(c, w, o.sr, l);
        case Operand::P: return ((w.p[o.reg] >> l) & 1) ^ (o.inv ? 1 : 0);
        default: return 0;
    }
}

inline uint64_t Raw64(const Cta &c, const Warp &w, const Operand &o, int l) {
    switch (o.kind) {
        case Operand::R:
            return o.reg == 255 ? 0 : (uint64_t)w.r[o.reg][l] | ((uint64_t)w.r[(o.reg + 1) & 255][l] << 32);
        case Operand::UR:
            return o.reg == 63 ? 0 : (uint64_t)w.ur[o.reg] | ((uint64_t)w.ur[(o.reg + 1) & 63] << 32);
        case Operand::IMM:
            if (o.fcode == (uint8_t)sass::HoleCode::F64HI) return (uint64_t)o.imm << 32;
            if (o.fcode == (uint8_t)sass::HoleCode::F32) {
                double d = AsF((uint32_t)o.imm);
                return DBits(d);
            }
            return (uint64_t)o.imm;
        case Operand::CBANK: {
            int64_t off = o.imm;
            if (o.has_reg) off += o.base_ur ? (int64_t)w.ur[o.reg] : (int64_t)(int32_t)w.r[o.reg][l];
            bool ok;
            return (uint64_t)c.ConstRead32(o.bank, off, &ok) | ((uint64_t)c.ConstRead32(o.bank, off + 4, &ok) << 32);
        }
        default: return Raw(c, w, o, l);
    }
}

// Integer source: '~' and '-' applied.
inline uint32_t I32(const Cta &c, const Warp &w, const Operand &o, int l) {
    uint32_t v = Raw(c, w, o, l);
    if (o.kind == Operand::P) return v;
    if (o.inv) v = ~v;
    if (o.neg) v = 0u - v;
    return v;
}
// Float source: '|..|' then '-' on the sign bit.
inline uint32_t F32Bits(const Cta &c, const Warp &w, const Operand &o, int l) {
    uint32_t v = Raw(c, w, o, l);
    if (o.abs) v &= 0x7fffffffu;
    if (o.neg) v ^= 0x80000000u;
    return v;
}
inline float F32(const Cta &c, const Warp &w, const Operand &o, int l) { return AsF(F32Bits(c, w, o, l)); }
inline double F64(const Cta &c, const Warp &w, const Operand &o, int l) {
    uint64_t v = Raw64(c, w, o, l);
    if (o.abs) v &= 0x7fffffffffffffffull;
    if (o.neg) v ^= 0x8000000000000000ull;
    return AsD(v);
}

inline void W32(Warp &w, uint8_t reg, int l, uint32_t v) {
    if (reg != 255) w.r[reg][l] = v;
}
inline void W64(Warp &w, uint8_t reg, int l, uint64_t v) {
    if (reg == 255) return;
    w.r[reg][l] = (uint32_t)v;
    if (reg + 1 < 255) w.r[reg + 1][l] = (uint32_t)(v >> 32);
}
inline void WU(Warp &w, uint8_t reg, uint32_t v) {
    if (reg != 63) w.ur[reg] = v;
}
inline void WP(Warp &w, uint8_t p, int l, bool v) {
    if (p == 7) return;
    if (v) w.p[p] |= 1u << l;
    else w.p[p] &= ~(1u << l);
}
// Predicate source (with '!').
inline bool PV(const Warp &w, const Operand &o, int l) {
    bool v;
    if (o.kind == Operand::UP) v = o.reg == 7 ? true : w.up[o.reg] != 0;
    else v = (w.p[o.reg] >> l) & 1;
    return o.inv ? !v : v;
}

inline float Ftz(float f) {
    if (std::fpclassify(f) == FP_SUBNORMAL) return std::copysign(0.0f, f);
    return f;
}

struct RoundScope {
    int old;
    explicit RoundScope(int mode) : old(-1) {
        if (mode == 0) return;
        old = std::fegetround();
        std::fesetround(mode == 1 ? FE_DOWNWARD : mode == 2 ? FE_UPWARD : FE_TOWARDZERO);
    }
    ~RoundScope() {
        if (old >= 0) std::fesetround(old);
    }
};

}  // namespace rndn::sassemu
