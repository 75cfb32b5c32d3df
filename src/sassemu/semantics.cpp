// The semantics table: one row per opcode with its accepted modifiers (mapped to small integer
// slots d.m[0..3]) and the function that executes it for the active lanes of a warp.
// Control-flow, warp-collective and barrier opcodes are in semantics_control.cpp.
#include <algorithm>
#include <atomic>
#include <climits>

#include "sassemu/semantics.h"

namespace rndn::sassemu {

namespace {

// ---------------------------------------------------------------------------- integer
// 64-bit source: a register pair, or an immediate (a literal that fits 32 bits is sign-extended, as a negative
// one is printed with '-'; a wider one is the 64-bit value itself); '~' and '-' on 64 bits.
inline uint64_t I64(const Cta &c, const Warp &w, const Operand &o, int l) {
    uint64_t v = o.kind == Operand::IMM && o.fcode == 0 ? (uint64_t)(o.imm >= INT32_MIN && o.imm <= UINT32_MAX ? (int64_t)(int32_t)o.imm : o.imm) : Raw64(c, w, o, l);
    if (o.inv) v = ~v;
    if (o.neg) v = 0 - v;
    return v;
}

void ExecIADD3(Cta &c, Warp &w, const DInst &d, uint32_t m) {
    // IADD3[.X] Rd, [Pc0, [Pc1,]] a, b, c [, Pci0, Pci1]
    const Operand *src = d.o + 1 + d.m[1];
    int nout = d.m[1];
    bool x = d.m[0];
    SE_FOR_LANES(m, l) {
        uint64_t sum = 0;
        for (int i = 0; i < 3; ++i) {
            const Operand &o = src[i];
            uint32_t v = Raw(c, w, o, l);
            if (o.inv) v = ~v;
            if (o.neg) sum += (uint64_t)(uint32_t)~v + 1;
            else sum += v;
        }
        if (x)
            for (int i = 1 + nout + 3; i < d.nops; ++i) sum += PV(w, d.o[i], l) ? 1 : 0;
        W32(w, d.o[0].reg, l, (uint32_t)sum);
        uint32_t carry = (uint32_t)(sum >> 32);
        if (nout >= 1) WP(w, d.o[1].reg, l, carry >= 1);
        if (nout >= 2) WP(w, d.o[2].reg, l, carry >= 2);
    }
}

void ExecIMAD(Cta &c, Warp &w, const DInst &d, uint32_t m) {
    // IMAD[.MOV|.IADD|.SHL|.HI|.WIDE][.U32][.X] Rd, [Pc,] a, b, c [, Pci]
    int kind = d.m[0];  // 0 lo, 1 hi, 2 wide
    bool u = d.m[1], x = d.m[2];
    int nout = d.m[3];
    const Operand *src = d.o + 1 + nout;
    SE_FOR_LANES(m, l) {
        uint32_t a = I32(c, w, src[0], l), b = I32(c, w, src[1], l);
        uint64_t cin = 0;
        if (x)
            for (int i = 4 + nout; i < d.nops; ++i) cin += PV(w, d.o[i], l) ? 1 : 0;
        if (kind == 0) {
            uint32_t cv = I32(c, w, src[2], l);
            uint64_t r = (uint64_t)(uint32_t)(a * b) + cv + cin;
            W32(w, d.o[0].reg, l, (uint32_t)r);
            if (nout) WP(w, d.o[1].reg, l, (r >> 32) != 0);
        } else if (kind == 1) {
            // the addend is a 64-bit register pair: d = (a * b + c + carry-in) >> 32
            __int128 prod = u ? (__int128)((uint64_t)a * b) : (__int128)((int64_t)(int32_t)a * (int32_t)b);
            uint64_t cv = src[2].kind == Operand::R ? Raw64(c, w, src[2], l) : (uint64_t)I32(c, w, src[2], l);
            unsigned __int128 r = (unsigned __int128)(prod + (__int128)cv) + cin;
            W32(w, d.o[0].reg, l, (uint32_t)(r >> 32));
            if (nout) WP(w, d.o[1].reg, l, (uint32_t)(r >> 64) & 1);
        } else {
            uint64_t prod = u ? (uint64_t)a * b : (uint64_t)((int64_t)(int32_t)a * (int32_t)b);
            uint64_t cv = Raw64(c, w, src[2], l);
            if (src[2].kind == Operand::IMM && src[2].fcode == 0) cv = (uint64_t)(int64_t)(int32_t)src[2].imm;
            if (src[2].neg) cv = 0 - cv;
            unsigned __int128 r = (unsigned __int128)prod + cv + cin;
            W64(w, d.o[0].reg, l, (uint64_t)r);
            if (nout) WP(w, d.o[1].reg, l, (r >> 64) != 0);
        }
    }
}

Status PrepIMAD(DInst &d) {
    // count predicate outputs after the destination
    int n = 0;
    while (1 + n < d.nops && (d.o[1 + n].kind == Operand::P || d.o[1 + n].kind == Operand::UP) && n < 2 && d.nops - (1 + n) > 3) ++n;
    if (d.opcode == "IADD3" || d.opcode == "UIADD3") d.m[1] = n;
    else d.m[3] = n;
    return Status::Ok();
}

void ExecLEA(Cta &c, Warp &w, const DInst &d, uint32_t m) {
    // LEA Rd, [Pc,] a, b, s            : (a << s) + b
    // LEA.HI Rd, [Pc,] a, b, hi, s     : b + ({hi,a} << s) >> 32
    // LEA.HI.X Rd, a, b, hi, s, Pci    ; LEA.HI[.X].SX32 Rd, a, b, s[, Pci]
    bool hi = d.m[0], x = d.m[1], sx = d.m[2];
    int nout = (d.nops > 1 && d.o[1].kind == Operand::P) ? 1 : 0;
    const Operand *s = d.o + 1 + nout;
    SE_FOR_LANES(m, l) {
        uint32_t a = I32(c, w, s[0], l), b = I32(c, w, s[1], l);
        uint64_t r;
        if (!hi) {
            uint32_t sh = Raw(c, w, s[2], l) & 31;
            r = (uint64_t)(uint32_t)(a << sh) + b;
        } else {
            uint32_t hiw;
            int si;
            if (sx) hiw = (uint32_t)((int32_t)a >> 31), si = 2;
            else hiw = I32(c, w, s[2], l), si = 3;
            uint32_t sh = Raw(c, w, s[si], l) & 63;
            uint64_t v = ((uint64_t)hiw << 32) | a;
            r = (uint64_t)(uint32_t)((v << sh) >> 32) + b;
            if (x) r += PV(w, s[si + 1], l) ? 1 : 0;
        }
        W32(w, d.o[0].reg, l, (uint32_t)r);
        if (nout) WP(w, d.o[1].reg, l, (r >> 32) != 0);
    }
}

void ExecLOP3(Cta &c, Warp &w, const DInst &d, uint32_t m) {
    // LOP3.LUT [Pd,] Rd, a, b, c, lut, Pc
    int i0 = d.o[0].kind == Operand::P ? 1 : 0;
    const Operand &rd = d.o[i0];
    uint32_t lut = (uint32_t)d.o[i0 + 4].imm;
    SE_FOR_LANES(m, l) {
        uint32_t a = I32(c, w, d.o[i0 + 1], l), b = I32(c, w, d.o[i0 + 2], l), cc = I32(c, w, d.o[i0 + 3], l);
        uint32_t r = 0;
        for (int bit = 0; bit < 8; ++bit)
            if ((lut >> bit) & 1) {
                uint32_t t = ((bit & 4) ? a : ~a) & ((bit & 2) ? b : ~b) & ((bit & 1) ? cc : ~cc);
                r |= t;
            }
        if (rd.kind == Operand::R) W32(w, rd.reg, l, r);
        else if (rd.kind == Operand::UR) WU(w, rd.reg, r);
        if (i0) WP(w, d.o[0].reg, l, r != 0);
    }
}

void ExecPLOP3(Cta &, Warp &w, const DInst &d, uint32_t m) {
    // PLOP3.LUT Pd0, Pd1, a, b, c, lut0, lut1
    uint32_t lut0 = (uint32_t)d.o[5].imm, lut1 = (uint32_t)d.o[6].imm;
    SE_FOR_LANES(m, l) {
        int idx = (PV(w, d.o[2], l) ? 4 : 0) | (PV(w, d.o[3], l) ? 2 : 0) | (PV(w, d.o[4], l) ? 1 : 0);
        WP(w, d.o[0].reg, l, (lut0 >> idx) & 1);
        WP(w, d.o[1].reg, l, (lut1 >> idx) & 1);
    }
}

void ExecMOV(Cta &c, Warp &w, const DInst &d, uint32_t m) {
    if (d.m[0]) {  // MOV.64 (sm_100): a register pair or a 64-bit literal
        SE_FOR_LANES(m, l) W64(w, d.o[0].reg, l, I64(c, w, d.o[1], l));
        return;
    }
    SE_FOR_LANES(m, l) W32(w, d.o[0].reg, l, Raw(c, w, d.o[1], l));
}

void ExecSEL(Cta &c, Warp &w, const DInst &d, uint32_t m) {
    // SEL / FSEL Rd, a, b, P  (FSEL applies float modifiers)
    bool f = d.m[0];
    SE_FOR_LANES(m, l) {
        bool p = PV(w, d.o[3], l);
        const Operand &o = p ? d.o[1] : d.o[2];
        if (d.m[1]) W64(w, d.o[0].reg, l, I64(c, w, o, l));  // SEL.64 (sm_100)
        else W32(w, d.o[0].reg, l, f ? F32Bits(c, w, o, l) : I32(c, w, o, l));
    }
}

void ExecISETP(Cta &c, Warp &w, const DInst &d, uint32_t m) {
    // ISETP.cmp[.U32|.S64|.U64].bop[.EX] Pd, Pd2, a, b, Pc [, Pex]   (m[1]: 0 S32, 1 U32, 2 S64, 3 U64)
    int cmp = d.m[0], bop = d.m[2], type = d.m[1];
    bool u = type & 1, ex = d.m[3];
    SE_FOR_LANES(m, l) {
        bool lt, eq;
        if (type >= 2) {
            uint64_t a = I64(c, w, d.o[2], l), b = I64(c, w, d.o[3], l);
            lt = u ? a < b : (int64_t)a < (int64_t)b;
            eq = a == b;
        } else {
            uint32_t a = I32(c, w, d.o[2], l), b = I32(c, w, d.o[3], l);
            lt = u ? a < b : (int32_t)a < (int32_t)b;
            eq = a == b;
        }
        bool prev = ex ? PV(w, d.o[5], l) : false;
        bool r;
        switch (cmp) {
            case CMP_LT: r = lt || (ex && eq && prev); break;
            case CMP_LE: r = lt || (eq && (!ex || prev)); break;
            case CMP_GT: r = (!lt && !eq) || (ex && eq && prev); break;
            case CMP_GE: r = (!lt && !eq) || (eq && (!ex || prev)); break;
            case CMP_EQ: r = eq && (!ex || prev); break;
            case CMP_NE: r = !eq || (ex && prev); break;
            case CMP_T: r = true; break;
            default: r = false; break;
        }
        bool pc = PV(w, d.o[4], l);
        WP(w, d.o[0].reg, l, Bop(bop, r, pc));
        WP(w, d.o[1].reg, l, Bop(bop, !r, pc));
    }
}

void ExecIMNMX(Cta &c, Warp &w, const DInst &d, uint32_t m) {
    // IMNMX[.U32] Rd, a, b, P (P: min) ; VIMNMX the same, or (sm_100) VIMNMX Rd, PT, PT, a, b, P ;
    // IMNMX.S64/.U64 PT, PT, Rd, a, b, P, !PT (sm_120).  m[1]: 0 S32, 1 U32, 2 S64, 3 U64;
    // m[0]: index of Rd, m[2]: index of a.
    int type = d.m[1], rd = d.m[0], ia = d.m[2];
    bool u = type & 1;
    SE_FOR_LANES(m, l) {
        bool mn = PV(w, d.o[ia + 2], l);
        if (type >= 2) {
            uint64_t a = I64(c, w, d.o[ia], l), b = I64(c, w, d.o[ia + 1], l);
            bool lt = u ? a < b : (int64_t)a < (int64_t)b;
            W64(w, d.o[rd].reg, l, (mn == lt) ? a : b);
            continue;
        }
        uint32_t a = I32(c, w, d.o[ia], l), b = I32(c, w, d.o[ia + 1], l);
        bool lt = u ? a < b : (int32_t)a < (int32_t)b;
        W32(w, d.o[rd].reg, l, (mn == lt) ? a : b);
    }
}

// Operand layout of IMNMX/VIMNMX: the register destination and the first source, with any
// predicate outputs (which must be PT: their meaning is unknown) around them.
Status PrepIMNMX(DInst &d) {
    int rd = 0;
    while (rd < d.nops && d.o[rd].kind == Operand::P) ++rd;
    int ia = rd + 1;
    while (ia < d.nops && d.o[ia].kind == Operand::P) ++ia;
    for (int i = 0; i < d.nops; ++i)
        if (d.o[i].kind == Operand::P && (i < rd || (i > rd && i < ia)) && d.o[i].reg != 7)
            return Status::Unsupported(d.opcode + " with a predicate destination");
    if (ia + 2 >= d.nops) return Status::Unsupported(d.opcode + ": unexpected operands");
    if (ia + 3 < d.nops && !(d.o[ia + 3].kind == Operand::P && d.o[ia + 3].reg == 7 && d.o[ia + 3].inv))
        return Status::Unsupported(d.opcode + " with a second selector other than !PT");
    d.m[0] = rd;
    d.m[2] = ia;
    return Status::Ok();
}

void ExecVIADDMNMX(Cta &c, Warp &w, const DInst &d, uint32_t m) {
    // VIADDMNMX[.U32] Rd, a, b, c, P : minmax(a + b, c)
    bool u = d.m[1];
    SE_FOR_LANES(m, l) {
        uint32_t a = I32(c, w, d.o[1], l) + I32(c, w, d.o[2], l), b = I32(c, w, d.o[3], l);
        bool mn = PV(w, d.o[4], l);
        bool lt = u ? a < b : (int32_t)a < (int32_t)b;
        W32(w, d.o[0].reg, l, (mn == lt) ? a : b);
    }
}

void ExecVIADD(Cta &c, Warp &w, const DInst &d, uint32_t m) {
    SE_FOR_LANES(m, l) W32(w, d.o[0].reg, l, I32(c, w, d.o[1], l) + I32(c, w, d.o[2], l));
}

void ExecIADD64(Cta &c, Warp &w, const DInst &d, uint32_t m) {
    // IADD.64[.X] Rd, [Pco,] a, b[, Pci] (sm_100): a 64-bit add of register pairs, with a
    // carry-out predicate (sm_120's 128-bit sums) and, with .X, a carry-in
    bool x = d.m[0];
    int nout = (d.nops > 1 && d.o[1].kind == Operand::P) ? 1 : 0;
    const Operand *src = d.o + 1 + nout;
    bool cin = x && d.nops > 3 + nout;
    // a negated source adds ~b + 1 in 65 bits (so -0 carries out, as in IADD3)
    auto wide = [&](const Operand &o, int l) -> unsigned __int128 {
        if (!o.neg) return I64(c, w, o, l);
        Operand p = o;
        p.neg = false;
        return (unsigned __int128)(uint64_t)~I64(c, w, p, l) + 1;
    };
    SE_FOR_LANES(m, l) {
        unsigned __int128 v = wide(src[0], l) + wide(src[1], l);
        if (cin) v += PV(w, src[2], l) ? 1 : 0;
        W64(w, d.o[0].reg, l, (uint64_t)v);
        if (nout) WP(w, d.o[1].reg, l, (v >> 64) != 0);
    }
}

void ExecIABS(Cta &c, Warp &w, const DInst &d, uint32_t m) {
    SE_FOR_LANES(m, l) {
        int32_t v = (int32_t)I32(c, w, d.o[1], l);
        W32(w, d.o[0].reg, l, v < 0 ? 0u - (uint32_t)v : (uint32_t)v);
    }
}

void ExecSHF(Cta &c, Warp &w, const DInst &d, uint32_t m) {
    // SHF.{L,R}.{U32,S32,U64,S64}[.W][.HI] Rd, lo, s, hi
    bool right = d.m[0];
    int type = d.m[1];  // 0 U32, 1 S32, 2 U64, 3 S64
    bool wrap = d.m[2], hi = d.m[3];
    bool is64 = type >= 2, sgn = type == 1 || type == 3;
    SE_FOR_LANES(m, l) {
        uint32_t lo = I32(c, w, d.o[1], l), h = I32(c, w, d.o[3], l);
        uint32_t s = Raw(c, w, d.o[2], l);
        uint32_t maxs = is64 ? 64 : 32;
        s = wrap ? (s & (maxs - 1)) : std::min(s, maxs);
        uint64_t v = ((uint64_t)h << 32) | lo;
        uint64_t r;
        if (!right) {
            r = s >= 64 ? 0 : v << s;
        } else if (sgn) {
            r = (uint64_t)((int64_t)v >> std::min<uint32_t>(s, 63));
        } else {
            r = s >= 64 ? 0 : v >> s;
        }
        W32(w, d.o[0].reg, l, hi ? (uint32_t)(r >> 32) : (uint32_t)r);
    }
}

void ExecPRMT(Cta &c, Warp &w, const DInst &d, uint32_t m) {
    SE_FOR_LANES(m, l) {
        uint32_t a = I32(c, w, d.o[1], l), sel = Raw(c, w, d.o[2], l), b = I32(c, w, d.o[3], l);
        uint64_t v = ((uint64_t)b << 32) | a;
        uint32_t r = 0;
        for (int i = 0; i < 4; ++i) {
            uint32_t n = (sel >> (4 * i)) & 15;
            uint8_t byte = (uint8_t)(v >> (8 * (n & 7)));
            if (n & 8) byte = (byte & 0x80) ? 0xff : 0;
            r |= (uint32_t)byte << (8 * i);
        }
        W32(w, d.o[0].reg, l, r);
    }
}

void ExecPOPC(Cta &c, Warp &w, const DInst &d, uint32_t m) {
    SE_FOR_LANES(m, l) W32(w, d.o[0].reg, l, (uint32_t)__builtin_popcount(I32(c, w, d.o[1], l)));
}
void ExecBREV(Cta &c, Warp &w, const DInst &d, uint32_t m) {
    SE_FOR_LANES(m, l) {
        uint32_t v = I32(c, w, d.o[1], l), r = 0;
        for (int i = 0; i < 32; ++i) r |= ((v >> i) & 1u) << (31 - i);
        W32(w, d.o[0].reg, l, r);
    }
}
void ExecFLO(Cta &c, Warp &w, const DInst &d, uint32_t m) {
    // FLO[.U32|.S32][.SH] Rd, a
    bool sgn = d.m[0], sh = d.m[1];
    SE_FOR_LANES(m, l) {
        uint32_t v = I32(c, w, d.o[1], l);
        if (sgn && (int32_t)v < 0) v = ~v;
        uint32_t r = v == 0 ? 0xffffffffu : (uint32_t)(31 - __builtin_clz(v));
        if (sh && v != 0) r = 31 - r;
        W32(w, d.o[0].reg, l, r);
    }
}
void ExecUFLO(Cta &c, Warp &w, const DInst &d, uint32_t m) {
    if (!m) return;
    uint32_t v = I32(c, w, d.o[1], 0);
    WU(w, d.o[0].reg, v == 0 ? 0xffffffffu : (uint32_t)(31 - __builtin_clz(v)));
}
void ExecSGXT(Cta &c, Warp &w, const DInst &d, uint32_t m) {
    bool u = d.m[0];
    SE_FOR_LANES(m, l) {
        uint32_t v = I32(c, w, d.o[1], l), n = Raw(c, w, d.o[2], l) & 0x3f;
        uint32_t r;
        if (n == 0) r = 0;
        else if (n >= 32) r = v;
        else if (u) r = v & ((1u << n) - 1);
        else r = (uint32_t)(((int32_t)(v << (32 - n))) >> (32 - n));
        W32(w, d.o[0].reg, l, r);
    }
}
void ExecIDP(Cta &c, Warp &w, const DInst &d, uint32_t m) {
    // IDP.4A.{S8,U8}.{S8,U8} Rd, a, b, c
    bool sa = d.m[0], sb = d.m[1];
    SE_FOR_LANES(m, l) {
        uint32_t a = I32(c, w, d.o[1], l), b = I32(c, w, d.o[2], l);
        int32_t acc = (int32_t)I32(c, w, d.o[3], l);
        for (int i = 0; i < 4; ++i) {
            int32_t x = sa ? (int8_t)(a >> (8 * i)) : (uint8_t)(a >> (8 * i));
            int32_t y = sb ? (int8_t)(b >> (8 * i)) : (uint8_t)(b >> (8 * i));
            acc += x * y;
        }
        W32(w, d.o[0].reg, l, (uint32_t)acc);
    }
}
void ExecVABSDIFF(Cta &c, Warp &w, const DInst &d, uint32_t m) {
    bool u = d.m[0];
    SE_FOR_LANES(m, l) {
        uint32_t a = I32(c, w, d.o[1], l), b = I32(c, w, d.o[2], l), cc = I32(c, w, d.o[3], l);
        uint32_t diff;
        if (u) diff = a > b ? a - b : b - a;
        else diff = (int32_t)a > (int32_t)b ? a - b : b - a;
        W32(w, d.o[0].reg, l, diff + cc);
    }
}
void ExecP2R(Cta &c, Warp &w, const DInst &d, uint32_t m) {
    // P2R Rd, PR, Rs, mask
    SE_FOR_LANES(m, l) {
        uint32_t mask = Raw(c, w, d.o[3], l), src = I32(c, w, d.o[2], l), pr = 0;
        for (int i = 0; i < 7; ++i) pr |= ((w.p[i] >> l) & 1u) << i;
        W32(w, d.o[0].reg, l, (src & ~mask) | (pr & mask));
    }
}
void ExecR2P(Cta &c, Warp &w, const DInst &d, uint32_t m) {
    // R2P PR, Rs, mask
    SE_FOR_LANES(m, l) {
        uint32_t v = I32(c, w, d.o[1], l), mask = Raw(c, w, d.o[2], l);
        for (int i = 0; i < 7; ++i)
            if ((mask >> i) & 1) WP(w, (uint8_t)i, l, (v >> i) & 1);
    }
}
void ExecCS2R(Cta &c, Warp &w, const DInst &d, uint32_t m) {
    SE_FOR_LANES(m, l) {
        uint64_t v = 0;
        if (d.o[1].kind == Operand::SR) v = Special(c, w, d.o[1].sr, l);
        if (d.m[0]) W32(w, d.o[0].reg, l, (uint32_t)v);
        else W64(w, d.o[0].reg, l, v);
    }
}
void ExecS2R(Cta &c, Warp &w, const DInst &d, uint32_t m) {
    SE_FOR_LANES(m, l) W32(w, d.o[0].reg, l, Special(c, w, d.o[1].sr, l));
}

// ---------------------------------------------------------------------------- uniform datapath
int FirstLane(uint32_t m) { return __builtin_ctz(m); }
void ExecS2UR(Cta &c, Warp &w, const DInst &d, uint32_t m) {
    if (m) WU(w, d.o[0].reg, Special(c, w, d.o[1].sr, FirstLane(m)));
}
void ExecULDC(Cta &c, Warp &w, const DInst &d, uint32_t m) {
    if (!m) return;
    uint64_t v = Raw64(c, w, d.o[1], 0);
    WU(w, d.o[0].reg, (uint32_t)v);
    if (d.m[0] && d.o[0].reg != 63) WU(w, (uint8_t)(d.o[0].reg + 1), (uint32_t)(v >> 32));
}
void ExecUMOV(Cta &c, Warp &w, const DInst &d, uint32_t m) {
    if (!m) return;
    if (!d.m[0]) {
        WU(w, d.o[0].reg, Raw(c, w, d.o[1], 0));
        return;
    }
    uint64_t v = I64(c, w, d.o[1], 0);  // UMOV.64 (sm_100)
    WU(w, d.o[0].reg, (uint32_t)v);
    if (d.o[0].reg != 63) WU(w, (uint8_t)(d.o[0].reg + 1), (uint32_t)(v >> 32));
}
void ExecUIADD3_64(Cta &c, Warp &w, const DInst &d, uint32_t m) {
    // UIADD3.64 URd, UPT, UPT, a, b, c (sm_100): a 64-bit three-way add of register pairs
    if (!m) return;
    int nout = d.m[1];
    const Operand *src = d.o + 1 + nout;
    unsigned __int128 v = (unsigned __int128)I64(c, w, src[0], 0) + I64(c, w, src[1], 0) + I64(c, w, src[2], 0);
    WU(w, d.o[0].reg, (uint32_t)v);
    if (d.o[0].reg != 63) WU(w, (uint8_t)(d.o[0].reg + 1), (uint32_t)((uint64_t)v >> 32));
    uint64_t carry = (uint64_t)(v >> 64);
    for (int i = 0; i < nout; ++i)
        if (d.o[1 + i].reg != 7) w.up[d.o[1 + i].reg] = carry >= (uint64_t)(i + 1);
}
void ExecUIADD3(Cta &c, Warp &w, const DInst &d, uint32_t m) {
    if (!m) return;
    if (d.m[2]) {
        ExecUIADD3_64(c, w, d, m);
        return;
    }
    int nout = d.m[1];
    const Operand *src = d.o + 1 + nout;
    uint64_t sum = 0;
    for (int i = 0; i < 3; ++i) {
        uint32_t v = Raw(c, w, src[i], 0);
        if (src[i].inv) v = ~v;
        if (src[i].neg) sum += (uint64_t)(uint32_t)~v + 1;
        else sum += v;
    }
    if (d.m[0])
        for (int i = 1 + nout + 3; i < d.nops; ++i) sum += PV(w, d.o[i], 0) ? 1 : 0;
    WU(w, d.o[0].reg, (uint32_t)sum);
    uint32_t carry = (uint32_t)(sum >> 32);
    for (int i = 0; i < nout; ++i)
        if (d.o[1 + i].reg != 7) w.up[d.o[1 + i].reg] = carry >= (uint32_t)(i + 1);
}
void ExecUIMAD(Cta &c, Warp &w, const DInst &d, uint32_t m) {
    if (!m) return;
    if (d.m[0]) {
        // UIMAD.WIDE[.U32][.X] URd, [UPc,] a, b, c [, UPci]: a 64-bit product plus the 64-bit
        // pair c (and, with .X, the carry-in predicates: sm_120's 128-bit decimal products)
        const int nout = (d.nops > 4 && d.o[1].kind == Operand::UP) ? 1 : 0;
        const Operand *s = d.o + 1 + nout;
        uint32_t a = I32(c, w, s[0], 0), b = I32(c, w, s[1], 0);
        uint64_t prod = d.m[1] ? (uint64_t)a * b : (uint64_t)((int64_t)(int32_t)a * (int32_t)b);
        uint64_t cin = 0;
        if (d.m[2])
            for (int i = 4 + nout; i < d.nops; ++i) cin += (d.o[i].kind == Operand::UP && PV(w, d.o[i], 0)) ? 1 : 0;
        unsigned __int128 v = (unsigned __int128)prod + I64(c, w, s[2], 0) + cin;
        WU(w, d.o[0].reg, (uint32_t)v);
        if (d.o[0].reg != 63) WU(w, (uint8_t)(d.o[0].reg + 1), (uint32_t)((uint64_t)v >> 32));
        if (nout && d.o[1].reg != 7) w.up[d.o[1].reg] = (v >> 64) != 0;
        return;
    }
    WU(w, d.o[0].reg, I32(c, w, d.o[1], 0) * I32(c, w, d.o[2], 0) + I32(c, w, d.o[3], 0));
}
void ExecR2UR(Cta &c, Warp &w, const DInst &d, uint32_t m) {
    // R2UR URd, Rs: the value of the first active lane (ptxas uses it on warp-uniform values)
    if (m) WU(w, d.o[0].reg, I32(c, w, d.o[1], FirstLane(m)));
}
void ExecULEA(Cta &c, Warp &w, const DInst &d, uint32_t m) {
    if (!m) return;
    // ULEA[.HI] URd, [UPc,] a, b, [hi,] s
    int nout = d.o[1].kind == Operand::UP ? 1 : 0;
    const Operand *s = d.o + 1 + nout;
    uint32_t a = I32(c, w, s[0], 0), b = I32(c, w, s[1], 0);
    uint64_t r;
    if (!d.m[0]) {
        r = (uint64_t)(uint32_t)(a << (Raw(c, w, s[2], 0) & 31)) + b;
    } else {
        uint32_t hiw = I32(c, w, s[2], 0), sh = Raw(c, w, s[3], 0) & 63;
        r = (uint64_t)(uint32_t)(((((uint64_t)hiw << 32) | a) << sh) >> 32) + b;
    }
    WU(w, d.o[0].reg, (uint32_t)r);
    if (nout && d.o[1].reg != 7) w.up[d.o[1].reg] = (r >> 32) != 0;
}
void ExecUSHF(Cta &c, Warp &w, const DInst &d, uint32_t m) {
    if (!m) return;
    bool right = d.m[0];
    int type = d.m[1];
    bool wrap = d.m[2], hi = d.m[3];
    bool is64 = type >= 2, sgn = type == 1 || type == 3;
    uint32_t lo = I32(c, w, d.o[1], 0), h = I32(c, w, d.o[3], 0), s = Raw(c, w, d.o[2], 0);
    uint32_t maxs = is64 ? 64 : 32;
    s = wrap ? (s & (maxs - 1)) : std::min(s, maxs);
    uint64_t v = ((uint64_t)h << 32) | lo, r;
    if (!right) r = s >= 64 ? 0 : v << s;
    else if (sgn) r = (uint64_t)((int64_t)v >> std::min<uint32_t>(s, 63));
    else r = s >= 64 ? 0 : v >> s;
    WU(w, d.o[0].reg, hi ? (uint32_t)(r >> 32) : (uint32_t)r);
}
void ExecULOP3(Cta &c, Warp &w, const DInst &d, uint32_t m) {
    if (m) ExecLOP3(c, w, d, 1);
}
void ExecUSEL(Cta &c, Warp &w, const DInst &d, uint32_t m) {
    if (!m) return;
    bool p = PV(w, d.o[3], 0);
    WU(w, d.o[0].reg, I32(c, w, p ? d.o[1] : d.o[2], 0));
}
void ExecUISETP(Cta &c, Warp &w, const DInst &d, uint32_t m) {
    if (!m) return;
    int cmp = d.m[0], bop = d.m[2];
    bool u = d.m[1];
    uint32_t a = I32(c, w, d.o[2], 0), b = I32(c, w, d.o[3], 0);
    bool lt = u ? a < b : (int32_t)a < (int32_t)b, eq = a == b, r;
    switch (cmp) {
        case CMP_LT: r = lt; break;
        case CMP_LE: r = lt || eq; break;
        case CMP_GT: r = !lt && !eq; break;
        case CMP_GE: r = !lt; break;
        case CMP_EQ: r = eq; break;
        case CMP_NE: r = !eq; break;
        default: r = false;
    }
    bool pc = PV(w, d.o[4], 0);
    if (d.o[0].reg != 7) w.up[d.o[0].reg] = Bop(bop, r, pc);
    if (d.o[1].reg != 7) w.up[d.o[1].reg] = Bop(bop, !r, pc);
}

void ExecUVIMNMX(Cta &c, Warp &w, const DInst &d, uint32_t m) {
    // UVIMNMX[.U32|.S32] URd, a, b, UPp (UPp: min)
    if (!m) return;
    bool u = d.m[1];
    uint32_t a = I32(c, w, d.o[1], 0), b = I32(c, w, d.o[2], 0);
    bool mn = PV(w, d.o[3], 0);
    bool lt = u ? a < b : (int32_t)a < (int32_t)b;
    WU(w, d.o[0].reg, (mn == lt) ? a : b);
}
// LDCU[.64|.128] URd, c[bank][off] (sm_100): the uniform constant load, through a scoreboard
void ExecLDCU(Cta &c, Warp &w, const DInst &d, uint32_t m) {
    if (!m) return;
    int n = d.m[0] == 7 ? 4 : d.m[0] == 6 ? 2 : 1;
    Operand o = d.o[1];
    uint32_t v[4];
    for (int i = 0; i < n; ++i, o.imm += 4) v[i] = Raw(c, w, o, 0);
    if (d.m[0] >= 1 && d.m[0] <= 4) {
        static const uint32_t kMask[] = {0, 0xff, 0xff, 0xffff, 0xffff};
        v[0] &= kMask[d.m[0]];
        if (d.m[0] == 2) v[0] = (uint32_t)(int32_t)(int8_t)v[0];
        if (d.m[0] == 4) v[0] = (uint32_t)(int32_t)(int16_t)v[0];
    }
    if (d.o[0].reg == 63) return;
    for (int i = 0; i < n; ++i) WU(w, (uint8_t)(d.o[0].reg + i), v[i]);
}
void ExecCS2UR(Cta &c, Warp &w, const DInst &d, uint32_t m) {
    if (!m) return;
    uint64_t v = d.o[1].kind == Operand::SR ? Special(c, w, d.o[1].sr, FirstLane(m)) : 0;
    WU(w, d.o[0].reg, (uint32_t)v);
    if (!d.m[0] && d.o[0].reg != 63) WU(w, (uint8_t)(d.o[0].reg + 1), (uint32_t)(v >> 32));
}

// ---------------------------------------------------------------------------- float
bool FCompare(int cmp, double a, double b) {
    bool un = std::isnan(a) || std::isnan(b);
    switch (cmp) {
        case CMP_F: return false;
        case CMP_LT: return !un && a < b;
        case CMP_EQ: return !un && a == b;
        case CMP_LE: return !un && a <= b;
        case CMP_GT: return !un && a > b;
        case CMP_NE: return !un && a != b;
        case CMP_GE: return !un && a >= b;
        case CMP_NUM: return !un;
        case CMP_NAN: return un;
        case CMP_LTU: return un || a < b;
        case CMP_EQU: return un || a == b;
        case CMP_LEU: return un || a <= b;
        case CMP_GTU: return un || a > b;
        case CMP_NEU: return un || a != b;
        case CMP_GEU: return un || a >= b;
        case CMP_T: return true;
        default: return false;
    }
}

void ExecFSETP(Cta &c, Warp &w, const DInst &d, uint32_t m) {
    int cmp = d.m[0], bop = d.m[2];
    bool ftz = d.m[1];
    SE_FOR_LANES(m, l) {
        float a = F32(c, w, d.o[2], l), b = F32(c, w, d.o[3], l);
        if (ftz) a = Ftz(a), b = Ftz(b);
        bool r = FCompare(cmp, a, b);
        bool pc = PV(w, d.o[4], l);
        WP(w, d.o[0].reg, l, Bop(bop, r, pc));
        WP(w, d.o[1].reg, l, Bop(bop, !r, pc));
    }
}

void ExecDSETP(Cta &c, Warp &w, const DInst &d, uint32_t m) {
    int cmp = d.m[0], bop = d.m[2];
    SE_FOR_LANES(m, l) {
        double a = F64(c, w, d.o[2], l), b = F64(c, w, d.o[3], l);
        bool pc = PV(w, d.o[4], l);
        if (cmp == CMP_MAX || cmp == CMP_MIN) {
            // P0: take a (the NaN-avoiding max/min); P1: both NaN
            bool take_a;
            if (std::isnan(b)) take_a = true;
            else if (std::isnan(a)) take_a = false;
            else if (a == b) take_a = cmp == CMP_MAX ? !std::signbit(a) : std::signbit(a);
            else take_a = cmp == CMP_MAX ? a > b : a < b;
            WP(w, d.o[0].reg, l, Bop(bop, take_a, pc));
            WP(w, d.o[1].reg, l, std::isnan(a) && std::isnan(b));
            continue;
        }
        bool r = FCompare(cmp, a, b);
        WP(w, d.o[0].reg, l, Bop(bop, r, pc));
        WP(w, d.o[1].reg, l, Bop(bop, !r, pc));
    }
}

inline float Sat(float f) {
    if (std::isnan(f)) return 0.0f;
    return std::min(1.0f, std::max(0.0f, f));
}

// The uniform datapath's float instructions (sm_100): one value per warp.
void ExecUFSETP(Cta &c, Warp &w, const DInst &d, uint32_t m) {
    // UFSETP.cmp[.FTZ].bop UPd, UPd2, a, b, UPc
    if (!m) return;
    float a = F32(c, w, d.o[2], 0), b = F32(c, w, d.o[3], 0);
    if (d.m[1]) a = Ftz(a), b = Ftz(b);
    bool r = FCompare(d.m[0], a, b), pc = PV(w, d.o[4], 0);
    if (d.o[0].reg != 7) w.up[d.o[0].reg] = Bop(d.m[2], r, pc);
    if (d.o[1].reg != 7) w.up[d.o[1].reg] = Bop(d.m[2], !r, pc);
}
void ExecUFSEL(Cta &c, Warp &w, const DInst &d, uint32_t m) {
    if (!m) return;
    WU(w, d.o[0].reg, F32Bits(c, w, PV(w, d.o[3], 0) ? d.o[1] : d.o[2], 0));
}
void ExecUFADD(Cta &c, Warp &w, const DInst &d, uint32_t m) {
    // UFADD/UFMUL/UFFMA [.FTZ][.SAT][.RM/.RP/.RZ]: the slots of FADD
    if (!m) return;
    int op = d.m[0];
    bool ftz = d.m[1];
    RoundScope rs(d.m[3]);
    float a0 = F32(c, w, d.o[1], 0), b0 = F32(c, w, d.o[2], 0);
    if (ftz) a0 = Ftz(a0), b0 = Ftz(b0);
    volatile float a = a0, b = b0;
    float r;
    if (op == 0) r = a + b;
    else if (op == 1) r = a * b;
    else {
        float cc = F32(c, w, d.o[3], 0);
        r = std::fmaf(a, b, ftz ? Ftz(cc) : cc);
    }
    if (ftz) r = Ftz(r);
    if (d.m[2]) r = Sat(r);
    WU(w, d.o[0].reg, FBits(r));
}

void ExecFADD(Cta &c, Warp &w, const DInst &d, uint32_t m) {
    // FADD/FMUL/FFMA [.FTZ][.SAT][.RM/.RP/.RZ]: m[0] op (0 add, 1 mul, 2 fma), m[1] ftz, m[2] sat, m[3] round
    int op = d.m[0];
    bool ftz = d.m[1], sat = d.m[2];
    RoundScope rs(d.m[3]);
    SE_FOR_LANES(m, l) {
        float a0 = F32(c, w, d.o[1], l), b0 = F32(c, w, d.o[2], l);
        if (ftz) a0 = Ftz(a0), b0 = Ftz(b0);
        volatile float a = a0, b = b0;  // evaluated under the rounding mode set above
        float r;
        if (op == 0) r = a + b;
        else if (op == 1) r = a * b;
        else {
            float cc = F32(c, w, d.o[3], l);
            if (ftz) cc = Ftz(cc);
            r = std::fmaf(a, b, cc);
        }
        if (ftz) r = Ftz(r);
        if (sat) r = Sat(r);
        W32(w, d.o[0].reg, l, FBits(r));
    }
}

void ExecDADD(Cta &c, Warp &w, const DInst &d, uint32_t m) {
    int op = d.m[0];
    RoundScope rs(d.m[3]);
    SE_FOR_LANES(m, l) {
        volatile double a = F64(c, w, d.o[1], l), b = F64(c, w, d.o[2], l);
        double r;
        if (op == 0) r = a + b;
        else if (op == 1) r = a * b;
        else r = std::fma((double)a, (double)b, F64(c, w, d.o[3], l));
        W64(w, d.o[0].reg, l, DBits(r));
    }
}

void ExecFMNMX(Cta &c, Warp &w, const DInst &d, uint32_t m) {
    bool ftz = d.m[1];
    SE_FOR_LANES(m, l) {
        float a = F32(c, w, d.o[1], l), b = F32(c, w, d.o[2], l);
        if (ftz) a = Ftz(a), b = Ftz(b);
        bool mn = PV(w, d.o[3], l);
        float r;
        if (std::isnan(a) && std::isnan(b)) r = AsF(0x7fffffffu);
        else if (std::isnan(a)) r = b;
        else if (std::isnan(b)) r = a;
        else if (a == b) r = mn ? (std::signbit(a) ? a : b) : (std::signbit(a) ? b : a);
        else r = mn ? std::min(a, b) : std::max(a, b);
        W32(w, d.o[0].reg, l, FBits(r));
    }
}

void ExecMUFU(Cta &c, Warp &w, const DInst &d, uint32_t m) {
    int fn = d.m[0];
    SE_FOR_LANES(m, l) {
        if (fn == MUFU_RCP64H || fn == MUFU_RSQ64H) {
            uint32_t hi = F32Bits(c, w, d.o[1], l);
            double x = AsD((uint64_t)hi << 32);
            double r = fn == MUFU_RCP64H ? 1.0 / x : 1.0 / std::sqrt(x);
            W32(w, d.o[0].reg, l, (uint32_t)(DBits(r) >> 32));
            continue;
        }
        float x = Ftz(F32(c, w, d.o[1], l));
        float r;
        switch (fn) {
            case MUFU_RCP: r = 1.0f / x; break;
            case MUFU_RSQ: r = 1.0f / std::sqrt(x); break;
            case MUFU_SQRT: r = std::sqrt(x); break;
            case MUFU_EX2: r = std::exp2(x); break;
            case MUFU_LG2: r = std::log2(x); break;
            case MUFU_SIN: r = std::sin(x); break;
            case MUFU_COS: r = std::cos(x); break;
            case MUFU_TANH: r = std::tanh(x); break;
            default: r = NAN;
        }
        W32(w, d.o[0].reg, l, FBits(Ftz(r)));
    }
}

void ExecFCHK(Cta &c, Warp &w, const DInst &d, uint32_t m) {
    // FCHK P, a, b: true when a / b needs the slow path (special operands, extreme exponents).
    SE_FOR_LANES(m, l) {
        float a = F32(c, w, d.o[1], l), b = F32(c, w, d.o[2], l);
        int ea, eb;
        bool slow = !std::isnormal(b) || !(std::isnormal(a) || a == 0.0f);
        if (!slow && a != 0.0f) {
            std::frexp(a, &ea);
            std::frexp(b, &eb);
            slow = ea - eb > 126 || ea - eb < -125 || ea > 126 || ea < -124 || eb > 125 || eb < -124;
        }
        WP(w, d.o[0].reg, l, slow);
    }
}

// float -> integer, saturating, NaN -> 0
template <class T>
T SatConv(double v) {
    if (std::isnan(v)) return 0;
    if (v <= (double)std::numeric_limits<T>::min()) return std::numeric_limits<T>::min();
    if (v >= (double)std::numeric_limits<T>::max()) return std::numeric_limits<T>::max();
    return (T)v;
}
double RoundWith(double v, int mode) {
    switch (mode) {
        case 1: return std::floor(v);
        case 2: return std::ceil(v);
        case 3: return std::trunc(v);
        default: return std::nearbyint(v);
    }
}

void ExecF2I(Cta &c, Warp &w, const DInst &d, uint32_t m) {
    // m[0] dst type (T_S32 ...), m[1] src f64, m[2] rounding (0 RN 1 floor 2 ceil 3 trunc), m[3] ftz
    SE_FOR_LANES(m, l) {
        double v = d.m[1] ? F64(c, w, d.o[1], l) : (double)(d.m[3] ? Ftz(F32(c, w, d.o[1], l)) : F32(c, w, d.o[1], l));
        v = RoundWith(v, d.m[2]);
        // NaN: 0 from an f32 source into 32 bits or fewer, else the destination's top bit alone
        // (PTX ISA 9.0 cvt; measured on an H200: F2I.S64.F64 of NaN is INT64_MIN)
        bool nan_top = std::isnan(v) && (d.m[1] || d.m[0] == T_S64 || d.m[0] == T_U64);
        switch (d.m[0]) {
            case T_S32: W32(w, d.o[0].reg, l, nan_top ? 0x80000000u : (uint32_t)SatConv<int32_t>(v)); break;
            case T_U32: W32(w, d.o[0].reg, l, nan_top ? 0x80000000u : SatConv<uint32_t>(v)); break;
            case T_S64: {
                int64_t r = std::isnan(v) ? INT64_MIN : v >= 9.2233720368547758e18 ? INT64_MAX : v < -9.2233720368547758e18 ? INT64_MIN : (int64_t)v;
                W64(w, d.o[0].reg, l, (uint64_t)r);
                break;
            }
            case T_U64: {
                uint64_t r = std::isnan(v) ? (1ull << 63) : v >= 1.8446744073709552e19 ? UINT64_MAX : v <= 0 ? 0 : (uint64_t)v;
                W64(w, d.o[0].reg, l, r);
                break;
            }
            default: break;
        }
    }
}

// An integer source of I2F narrowed to its type (T_U16 .. T_S8 take the low bits).
inline uint64_t I2FSource(const Cta &c, const Warp &w, const Operand &o, int type, int l) {
    uint64_t raw = (type == T_S64 || type == T_U64) ? Raw64(c, w, o, l) : Raw(c, w, o, l);
    if (o.neg) raw = 0 - raw;
    switch (type) {
        case T_U16: return (uint32_t)(uint16_t)raw;
        case T_S16: return (uint32_t)(int32_t)(int16_t)raw;
        case T_U8: return (uint32_t)(uint8_t)raw;
        case T_S8: return (uint32_t)(int32_t)(int8_t)raw;
        default: return raw;
    }
}
inline int I2FType(int t) { return t == T_U16 || t == T_U8 ? T_U32 : t == T_S16 || t == T_S8 ? T_S32 : t; }

void ExecUI2F(Cta &c, Warp &w, const DInst &d, uint32_t m) {
    // UI2F[.type][.F32][.rnd] URd, URs
    if (!m) return;
    RoundScope rs(d.m[2]);
    uint64_t raw = I2FSource(c, w, d.o[1], d.m[0], 0);
    volatile float r;
    switch (I2FType(d.m[0])) {
        case T_S32: r = (float)(int32_t)raw; break;
        case T_U32: r = (float)(uint32_t)raw; break;
        case T_S64: r = (float)(int64_t)raw; break;
        default: r = (float)raw; break;
    }
    WU(w, d.o[0].reg, FBits(r));
}

void ExecI2F(Cta &c, Warp &w, const DInst &d, uint32_t m) {
    // m[0] src type, m[1] dst f64, m[2] rounding
    RoundScope rs(d.m[2]);
    int type = I2FType(d.m[0]);
    SE_FOR_LANES(m, l) {
        uint64_t raw = I2FSource(c, w, d.o[1], d.m[0], l);
        if (d.m[1]) {
            volatile double r;
            switch (type) {
                case T_S32: r = (double)(int32_t)raw; break;
                case T_U32: r = (double)(uint32_t)raw; break;
                case T_S64: r = (double)(int64_t)raw; break;
                default: r = (double)raw; break;
            }
            W64(w, d.o[0].reg, l, DBits(r));
        } else {
            volatile float r;
            switch (type) {
                case T_S32: r = (float)(int32_t)raw; break;
                case T_U32: r = (float)(uint32_t)raw; break;
                case T_S64: r = (float)(int64_t)raw; break;
                default: r = (float)raw; break;
            }
            W32(w, d.o[0].reg, l, FBits(r));
        }
    }
}

void ExecF2F(Cta &c, Warp &w, const DInst &d, uint32_t m) {
    // F2F.dst.src: m[0] dst f64, m[1] src f64, m[2] round, m[3] ftz
    RoundScope rs(d.m[2]);
    SE_FOR_LANES(m, l) {
        if (d.m[0] && !d.m[1]) {
            float f = F32(c, w, d.o[1], l);
            if (d.m[3]) f = Ftz(f);
            W64(w, d.o[0].reg, l, DBits((double)f));
        } else if (!d.m[0] && d.m[1]) {
            volatile double v = F64(c, w, d.o[1], l);
            float f = (float)v;
            if (d.m[3]) f = Ftz(f);
            W32(w, d.o[0].reg, l, FBits(f));
        } else if (d.m[0]) {
            W64(w, d.o[0].reg, l, DBits(RoundWith(F64(c, w, d.o[1], l), d.m[2])));
        } else {
            float f = F32(c, w, d.o[1], l);
            if (d.m[3]) f = Ftz(f);
            W32(w, d.o[0].reg, l, FBits((float)RoundWith(f, d.m[2])));
        }
    }
}

void ExecFRND(Cta &c, Warp &w, const DInst &d, uint32_t m) {
    // FRND[.F64][.FLOOR|.CEIL|.TRUNC]
    SE_FOR_LANES(m, l) {
        if (d.m[1]) W64(w, d.o[0].reg, l, DBits(RoundWith(F64(c, w, d.o[1], l), d.m[2])));
        else {
            float f = F32(c, w, d.o[1], l);
            if (d.m[3]) f = Ftz(f);
            W32(w, d.o[0].reg, l, FBits((float)RoundWith(f, d.m[2])));
        }
    }
}

// half precision helpers (round to nearest even)
float HalfToFloat(uint16_t h) {
    uint32_t s = (uint32_t)(h >> 15) << 31, e = (h >> 10) & 31, f = h & 0x3ff;
    if (e == 31) return AsF(s | 0x7f800000u | (f << 13));
    if (e == 0) {
        float v = std::ldexp((float)f, -24);
        return s ? -v : v;
    }
    return AsF(s | ((e + 112) << 23) | (f << 13));
}
uint16_t FloatToHalf(float x) {
    uint32_t b = FBits(x);
    uint16_t s = (uint16_t)((b >> 16) & 0x8000);
    if (std::isnan(x)) return s | 0x7e00;
    float a = std::fabs(x);
    if (a >= 65520.0f) return s | 0x7c00;
    if (a < 6.103515625e-05f) {  // subnormal half
        float q = std::nearbyint(a * 16777216.0f);
        return s | (uint16_t)q;
    }
    int e;
    float mant = std::frexp(a, &e);  // a = mant * 2^e, mant in [0.5,1)
    float q = std::nearbyint(mant * 2048.0f);
    if (q >= 2048.0f) q = 1024.0f, ++e;
    uint16_t exp = (uint16_t)(e - 1 + 15);
    if (exp >= 31) return s | 0x7c00;
    return s | (uint16_t)(exp << 10) | ((uint16_t)q & 0x3ff);
}

void ExecHFMA2(Cta &c, Warp &w, const DInst &d, uint32_t m) {
    // HFMA2[.MMA] Rd, a, b, c0, c1 (immediate halves) or Rd, a, b, c
    SE_FOR_LANES(m, l) {
        uint32_t a = Raw(c, w, d.o[1], l), b = Raw(c, w, d.o[2], l), cc;
        if (d.nops >= 5) cc = ((uint32_t)d.o[4].imm & 0xffff) | (((uint32_t)d.o[3].imm & 0xffff) << 16);  // printed high half first
        else cc = Raw(c, w, d.o[3], l);
        uint32_t r = 0;
        for (int h = 0; h < 2; ++h) {
            float x = HalfToFloat((uint16_t)(a >> (16 * h))), y = HalfToFloat((uint16_t)(b >> (16 * h)));
            float z = HalfToFloat((uint16_t)(cc >> (16 * h)));
            if (d.o[1].neg) x = -x;
            if (d.o[2].neg) y = -y;
            float v = (float)std::fma((double)x, (double)y, (double)z);
            r |= (uint32_t)FloatToHalf(v) << (16 * h);
        }
        W32(w, d.o[0].reg, l, r);
    }
}

}  // namespace

// ---------------------------------------------------------------------------- the table
#define M(name, slot, value) ModDef{name, slot, value}
const std::vector<ModDef> kCmpMods = {M("F", 0, CMP_F),     M("LT", 0, CMP_LT),   M("EQ", 0, CMP_EQ),   M("LE", 0, CMP_LE),
                                      M("GT", 0, CMP_GT),   M("NE", 0, CMP_NE),   M("GE", 0, CMP_GE),   M("NUM", 0, CMP_NUM),
                                      M("NAN", 0, CMP_NAN), M("LTU", 0, CMP_LTU), M("EQU", 0, CMP_EQU), M("LEU", 0, CMP_LEU),
                                      M("GTU", 0, CMP_GTU), M("NEU", 0, CMP_NEU), M("GEU", 0, CMP_GEU), M("T", 0, CMP_T),
                                      M("MAX", 0, CMP_MAX), M("MIN", 0, CMP_MIN), M("AND", 2, 0),       M("OR", 2, 1),
                                      M("XOR", 2, 2)};

std::vector<ModDef> With(std::vector<ModDef> a, const std::vector<ModDef> &b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

const std::vector<OpRow> &ArithRows() {
    static const std::vector<OpRow> rows = {
        {"IADD3", {M("X", 0, 1)}, PrepIMAD, ExecIADD3, false, false},
        {"IMAD", {M("MOV", 0, 0), M("IADD", 0, 0), M("SHL", 0, 0), M("HI", 0, 1), M("WIDE", 0, 2), M("U32", 1, 1), M("X", 2, 1)}, PrepIMAD, ExecIMAD, false, false},
        {"LEA", {M("HI", 0, 1), M("X", 1, 1), M("SX32", 2, 1)}, nullptr, ExecLEA, false, false},
        {"LOP3", {M("LUT", -1, 0)}, nullptr, ExecLOP3, false, false},
        {"PLOP3", {M("LUT", -1, 0)}, nullptr, ExecPLOP3, false, false},
        {"MOV", {M("64", 0, 1)}, nullptr, ExecMOV, false, false},
        {"SEL", {M("64", 1, 1)}, nullptr, ExecSEL, false, false},
        {"FSEL", {}, [](DInst &d) { d.m[0] = 1; return Status::Ok(); }, ExecSEL, false, false},
        {"ISETP", With(kCmpMods, {M("U32", 1, 1), M("S32", 1, 0), M("S64", 1, 2), M("U64", 1, 3), M("EX", 3, 1)}), nullptr, ExecISETP, false, false},
        {"IMNMX", {M("U32", 1, 1), M("S32", 1, 0), M("S64", 1, 2), M("U64", 1, 3)}, PrepIMNMX, ExecIMNMX, false, false},
        {"VIMNMX", {M("U32", 1, 1), M("S32", 1, 0)}, PrepIMNMX, ExecIMNMX, false, false},
        {"VIADDMNMX", {M("U32", 1, 1), M("S32", 1, 0)}, nullptr, ExecVIADDMNMX, false, false},
        {"VIADD", {}, nullptr, ExecVIADD, false, false},
        {"IABS", {}, nullptr, ExecIABS, false, false},
        {"SHF", {M("L", 0, 0), M("R", 0, 1), M("U32", 1, 0), M("S32", 1, 1), M("U64", 1, 2), M("S64", 1, 3), M("W", 2, 1), M("HI", 3, 1)}, nullptr, ExecSHF, false, false},
        {"PRMT", {}, nullptr, ExecPRMT, false, false},
        {"POPC", {}, nullptr, ExecPOPC, false, true},
        {"BREV", {}, nullptr, ExecBREV, false, true},
        {"FLO", {M("U32", 0, 0), M("S32", 0, 1), M("SH", 1, 1)}, nullptr, ExecFLO, false, true},
        {"SGXT", {M("U32", 0, 1), M("W", -1, 0)}, nullptr, ExecSGXT, false, false},
        {"IDP", {M("4A", -1, 0), M("S8", -2, 1), M("U8", -2, 0)}, nullptr, ExecIDP, false, false},
        {"VABSDIFF", {M("U32", 0, 1), M("S32", 0, 0)}, nullptr, ExecVABSDIFF, false, false},
        {"P2R", {}, nullptr, ExecP2R, false, false},
        {"R2P", {}, nullptr, ExecR2P, false, false},
        {"CS2R", {M("32", 0, 1)}, nullptr, ExecCS2R, false, false},
        {"S2R", {}, nullptr, ExecS2R, false, true},
        {"S2UR", {}, nullptr, ExecS2UR, false, true},
        {"ULDC", {M("64", 0, 1)}, nullptr, ExecULDC, false, false},
        {"UMOV", {M("64", 0, 1)}, nullptr, ExecUMOV, false, false},
        {"UIADD3", {M("X", 0, 1), M("64", 2, 1)}, [](DInst &d) {
             RNDN_RETURN_IF_ERROR(PrepIMAD(d));
             if (d.m[2] && d.m[0]) return Status::Unsupported("UIADD3.64.X");
             return Status::Ok();
         }, ExecUIADD3, false, false},
        {"UIMAD", {M("WIDE", 0, 1), M("U32", 1, 1), M("X", 2, 1)}, nullptr, ExecUIMAD, false, false},
        {"R2UR", {}, nullptr, ExecR2UR, false, false},
        {"ULEA", {M("HI", 0, 1)}, nullptr, ExecULEA, false, false},
        {"USHF", {M("L", 0, 0), M("R", 0, 1), M("U32", 1, 0), M("S32", 1, 1), M("U64", 1, 2), M("S64", 1, 3), M("W", 2, 1), M("HI", 3, 1)}, nullptr, ExecUSHF, false, false},
        {"ULOP3", {M("LUT", -1, 0)}, nullptr, ExecULOP3, false, false},
        {"USEL", {}, nullptr, ExecUSEL, false, false},
        {"UISETP", With(kCmpMods, {M("U32", 1, 1)}), nullptr, ExecUISETP, false, false},
        {"UFLO", {M("U32", -1, 0)}, nullptr, ExecUFLO, false, false},
        {"FSETP", With(kCmpMods, {M("FTZ", 1, 1)}), nullptr, ExecFSETP, false, false},
        {"DSETP", kCmpMods, nullptr, ExecDSETP, false, true},
        {"FADD", {M("FTZ", 1, 1), M("SAT", 2, 1), M("RN", 3, 0), M("RM", 3, 1), M("RP", 3, 2), M("RZ", 3, 3)}, [](DInst &d) { d.m[0] = 0; return Status::Ok(); }, ExecFADD, false, false},
        {"FMUL", {M("FTZ", 1, 1), M("SAT", 2, 1), M("RN", 3, 0), M("RM", 3, 1), M("RP", 3, 2), M("RZ", 3, 3)}, [](DInst &d) { d.m[0] = 1; return Status::Ok(); }, ExecFADD, false, false},
        {"FFMA", {M("FTZ", 1, 1), M("SAT", 2, 1), M("RN", 3, 0), M("RM", 3, 1), M("RP", 3, 2), M("RZ", 3, 3)}, [](DInst &d) { d.m[0] = 2; return Status::Ok(); }, ExecFADD, false, false},
        {"DADD", {M("RN", 3, 0), M("RM", 3, 1), M("RP", 3, 2), M("RZ", 3, 3)}, [](DInst &d) { d.m[0] = 0; return Status::Ok(); }, ExecDADD, false, true},
        {"DMUL", {M("RN", 3, 0), M("RM", 3, 1), M("RP", 3, 2), M("RZ", 3, 3)}, [](DInst &d) { d.m[0] = 1; return Status::Ok(); }, ExecDADD, false, true},
        {"DFMA", {M("RN", 3, 0), M("RM", 3, 1), M("RP", 3, 2), M("RZ", 3, 3)}, [](DInst &d) { d.m[0] = 2; return Status::Ok(); }, ExecDADD, false, true},
        {"FMNMX", {M("FTZ", 1, 1)}, nullptr, ExecFMNMX, false, false},
        {"MUFU", {M("RCP", 0, MUFU_RCP), M("RSQ", 0, MUFU_RSQ), M("SQRT", 0, MUFU_SQRT), M("EX2", 0, MUFU_EX2), M("LG2", 0, MUFU_LG2), M("SIN", 0, MUFU_SIN), M("COS", 0, MUFU_COS), M("TANH", 0, MUFU_TANH), M("RCP64H", 0, MUFU_RCP64H), M("RSQ64H", 0, MUFU_RSQ64H)}, nullptr, ExecMUFU, false, true},
        {"FCHK", {}, nullptr, ExecFCHK, false, true},
        {"F2I", {M("S32", 0, T_S32), M("U32", 0, T_U32), M("S64", 0, T_S64), M("U64", 0, T_U64), M("F64", 1, 1), M("F32", 1, 0), M("FLOOR", 2, 1), M("CEIL", 2, 2), M("TRUNC", 2, 3), M("FTZ", 3, 1), M("NTZ", -1, 0)}, [](DInst &d) { if (!d.m[0] && !HasMod(d, "S32")) d.m[0] = T_S32; return Status::Ok(); }, ExecF2I, false, true},
        {"I2F", {M("U16", 0, T_U16), M("S16", 0, T_S16), M("U8", 0, T_U8), M("S8", 0, T_S8), M("S32", 0, T_S32), M("U32", 0, T_U32), M("S64", 0, T_S64), M("U64", 0, T_U64), M("F64", 1, 1), M("F32", 1, 0), M("RN", 2, 0), M("RM", 2, 1), M("RP", 2, 2), M("RZ", 2, 3)}, [](DInst &d) { if (!d.m[0]) d.m[0] = T_S32; return Status::Ok(); }, ExecI2F, false, true},
        {"I2FP", {M("S32", 0, T_S32), M("U32", 0, T_U32), M("F32", 1, 0), M("RN", 2, 0), M("RM", 2, 1), M("RP", 2, 2), M("RZ", 2, 3)}, [](DInst &d) { if (!d.m[0]) d.m[0] = T_S32; return Status::Ok(); }, ExecI2F, false, false},
        {"F2F", {M("F64", -3, 0), M("F32", -3, 0), M("RN", 2, 0), M("RM", 2, 1), M("RP", 2, 2), M("RZ", 2, 3), M("FTZ", 3, 1)}, [](DInst &d) {
             int seen = 0;
             for (const std::string &s : d.mods)
                 if (s == "F64" || s == "F32") d.m[seen++ == 0 ? 0 : 1] = s == "F64";
             if (seen != 2) return Status::Unsupported("F2F needs two types");
             return Status::Ok();
         }, ExecF2F, false, true},
        {"FRND", {M("F64", 1, 1), M("F32", 1, 0), M("FLOOR", 2, 1), M("CEIL", 2, 2), M("TRUNC", 2, 3), M("FTZ", 3, 1)}, nullptr, ExecFRND, false, true},
        {"HFMA2", {M("MMA", -1, 0)}, nullptr, ExecHFMA2, false, false},
        // sm_100's additions: the 64-bit add, the uniform constant load and uniform float/integer forms
        {"IADD", {M("64", -1, 0), M("X", 0, 1)}, [](DInst &d) { return HasMod(d, "64") ? Status::Ok() : Status::Unsupported("IADD without .64"); }, ExecIADD64, false, false},
        {"LDCU", {M("U8", 0, 1), M("S8", 0, 2), M("U16", 0, 3), M("S16", 0, 4), M("32", 0, 5), M("64", 0, 6), M("128", 0, 7)}, nullptr, ExecLDCU, false, true},
        {"CS2UR", {M("32", 0, 1)}, nullptr, ExecCS2UR, false, false},
        {"UVIMNMX", {M("U32", 1, 1), M("S32", 1, 0)}, nullptr, ExecUVIMNMX, false, false},
        {"UFSETP", With(kCmpMods, {M("FTZ", 1, 1)}), nullptr, ExecUFSETP, false, false},
        {"UFSEL", {}, nullptr, ExecUFSEL, false, false},
        {"UFADD", {M("FTZ", 1, 1), M("SAT", 2, 1), M("RN", 3, 0), M("RM", 3, 1), M("RP", 3, 2), M("RZ", 3, 3)}, [](DInst &d) { d.m[0] = 0; return Status::Ok(); }, ExecUFADD, false, false},
        {"UFMUL", {M("FTZ", 1, 1), M("SAT", 2, 1), M("RN", 3, 0), M("RM", 3, 1), M("RP", 3, 2), M("RZ", 3, 3)}, [](DInst &d) { d.m[0] = 1; return Status::Ok(); }, ExecUFADD, false, false},
        {"UFFMA", {M("FTZ", 1, 1), M("SAT", 2, 1), M("RN", 3, 0), M("RM", 3, 1), M("RP", 3, 2), M("RZ", 3, 3)}, [](DInst &d) { d.m[0] = 2; return Status::Ok(); }, ExecUFADD, false, false},
        {"UI2F", {M("U16", 0, T_U16), M("S16", 0, T_S16), M("U8", 0, T_U8), M("S8", 0, T_S8), M("S32", 0, T_S32), M("U32", 0, T_U32), M("F32", 1, 0), M("RN", 2, 0), M("RM", 2, 1), M("RP", 2, 2), M("RZ", 2, 3)}, [](DInst &d) { if (!d.m[0]) d.m[0] = T_S32; return Status::Ok(); }, ExecUI2F, false, false},
    };
    return rows;
}
#undef M

}  // namespace rndn::sassemu
