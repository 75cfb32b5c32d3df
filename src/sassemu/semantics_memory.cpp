// Memory: global (LDG/STG), shared (LDS/STS), local (LDL/STL), generic (LD/ST: global, shared
// or local by the address's window), constant (LDC), and the atomics and reductions on generic
// (ATOM/RED), global (ATOMG/REDG) and shared (ATOMS) memory.
//
// Global memory is host memory: with bounds checking on, an access must fall inside a range the
// device handed out or registered (or a module variable).  Every access must be aligned to its
// size.  Global atomics use the host's atomic instructions (CTAs run on several threads).
#include <algorithm>
#include <cinttypes>
#include <cstdio>

#include "sassemu/semantics.h"

namespace rndn::sassemu {

namespace {

enum Space { GLOBAL, SHARED, LOCAL, GENERIC };
const char *SpaceName(Space s) { return s == GLOBAL ? "global" : s == SHARED ? "shared" : s == LOCAL ? "local" : "generic"; }

// A generic address: the space its window says and the offset in it (see internal.h).
Space Window(uint64_t *a) {
    if (*a - kSharedWindow < kWindowSize) {
        *a -= kSharedWindow;
        return SHARED;
    }
    if (*a - kLocalWindow < kWindowSize) {
        *a -= kLocalWindow;
        return LOCAL;
    }
    return GLOBAL;
}

uint64_t Addr64(const Cta &c, const Warp &w, const Operand &o, int l) {
    (void)c;
    uint64_t a = 0;
    if (o.has_reg) {
        if (o.base_ur) a = (uint64_t)w.ur[o.reg] | ((uint64_t)w.ur[(o.reg + 1) & 63] << 32);
        else a = (uint64_t)w.r[o.reg][l] | ((uint64_t)w.r[(o.reg + 1) & 255][l] << 32);
        a *= o.scale;
    }
    if (o.ureg != 63) a += (uint64_t)w.ur[o.ureg] | ((uint64_t)w.ur[(o.ureg + 1) & 63] << 32);
    return a + (uint64_t)o.imm;
}
uint32_t Addr32(const Warp &w, const Operand &o, int l) {
    uint32_t a = 0;
    if (o.has_reg) a = (o.base_ur ? w.ur[o.reg] : w.r[o.reg][l]) * o.scale;
    if (o.ureg != 63) a += w.ur[o.ureg];
    return a + (uint32_t)o.imm;
}

bool InRanges(Cta &c, uint64_t a, uint32_t n) {
    if (a >= c.hit_lo && a + n <= c.hit_hi && a + n >= a) return true;  // the last range that matched
    const auto &r = *c.ranges;
    auto it = std::upper_bound(r.begin(), r.end(), std::make_pair((uintptr_t)a, SIZE_MAX));
    if (it == r.begin()) return false;
    --it;
    if (!(a >= it->first && a + n <= it->first + it->second && a + n >= a)) return false;
    c.hit_lo = it->first;
    c.hit_hi = it->first + it->second;
    return true;
}

// Host pointer for an access, or nullptr after reporting the error.
uint8_t *Resolve(Cta &c, Warp &w, const DInst &d, int l, Space sp, uint64_t a, uint32_t n, const char *what) {
    char buf[160];
    if (sp == GENERIC) sp = Window(&a);
    if ((a & (n - 1)) != 0) {  // n is a power of two
        std::snprintf(buf, sizeof buf, "misaligned %s %s of %u bytes at 0x%" PRIx64, SpaceName(sp), what, n, a);
        c.Fail(w, l, d, buf);
        return nullptr;
    }
    switch (sp) {
        case GLOBAL:
            if (c.check_bounds && !InRanges(c, a, n)) {
                std::snprintf(buf, sizeof buf, "out-of-bounds global %s of %u bytes at 0x%" PRIx64, what, n, a);
                c.Fail(w, l, d, buf);
                return nullptr;
            }
            return reinterpret_cast<uint8_t *>((uintptr_t)a);
        case SHARED:
            if (a + n > c.shared.size()) {
                std::snprintf(buf, sizeof buf, "out-of-bounds shared %s of %u bytes at 0x%" PRIx64 " (%zu bytes of shared memory)", what, n, a, c.shared.size());
                c.Fail(w, l, d, buf);
                return nullptr;
            }
            return c.shared.data() + a;
        case GENERIC: return nullptr;  // resolved above
        case LOCAL:
            if (a + n > c.local_bytes) {
                std::snprintf(buf, sizeof buf, "out-of-bounds local %s of %u bytes at 0x%" PRIx64 " (%" PRIu64 " bytes per thread)", what, n, a, c.local_bytes);
                c.Fail(w, l, d, buf);
                return nullptr;
            }
            return c.local.data() + (uint64_t)(w.id * 32 + l) * c.local_bytes + a;
    }
    return nullptr;
}

// size codes: 1 U8, 2 S8, 3 U16, 4 S16, 5 32, 6 64, 7 128
uint32_t SizeBytes(int code) {
    static const uint32_t kBytes[] = {4, 1, 1, 2, 2, 4, 8, 16};
    return kBytes[code];
}

template <Space SP>
void ExecLoad(Cta &c, Warp &w, const DInst &d, uint32_t m) {
    int sz = d.m[0] ? d.m[0] : 5;
    uint32_t n = SizeBytes(sz);
    SE_FOR_LANES(m, l) {
        uint64_t a = SP == GLOBAL || SP == GENERIC ? Addr64(c, w, d.o[1], l) : Addr32(w, d.o[1], l);
        const uint8_t *p = Resolve(c, w, d, l, SP, a, n, "load");
        if (!p) return;
        uint32_t v[4] = {0, 0, 0, 0};
        switch (sz) {
            case 1: v[0] = *p; break;
            case 2: v[0] = (uint32_t)(int32_t)(int8_t)*p; break;
            case 3: {
                uint16_t h;
                std::memcpy(&h, p, 2);
                v[0] = h;
                break;
            }
            case 4: {
                int16_t h;
                std::memcpy(&h, p, 2);
                v[0] = (uint32_t)(int32_t)h;
                break;
            }
            default: std::memcpy(v, p, n); break;
        }
        for (uint32_t i = 0; i < std::max<uint32_t>(1, n / 4); ++i)
            if (d.o[0].reg != 255) W32(w, (uint8_t)(d.o[0].reg + i), l, v[i]);
    }
}

template <Space SP>
void ExecStore(Cta &c, Warp &w, const DInst &d, uint32_t m) {
    int sz = d.m[0] ? d.m[0] : 5;
    uint32_t n = SizeBytes(sz);
    SE_FOR_LANES(m, l) {
        uint64_t a = SP == GLOBAL || SP == GENERIC ? Addr64(c, w, d.o[0], l) : Addr32(w, d.o[0], l);
        uint8_t *p = Resolve(c, w, d, l, SP, a, n, "store");
        if (!p) return;
        uint32_t v[4];
        for (uint32_t i = 0; i < 4; ++i) v[i] = d.o[1].reg == 255 ? 0 : w.r[(d.o[1].reg + i) & 255][l];
        std::memcpy(p, v, n);
    }
}

void ExecLDC(Cta &c, Warp &w, const DInst &d, uint32_t m) {
    int sz = d.m[0] ? d.m[0] : 5;
    SE_FOR_LANES(m, l) {
        if (sz == 6) W64(w, d.o[0].reg, l, Raw64(c, w, d.o[1], l));
        else {
            uint32_t v = Raw(c, w, d.o[1], l);
            if (sz == 1) v &= 0xff;
            else if (sz == 2) v = (uint32_t)(int32_t)(int8_t)v;
            else if (sz == 3) v &= 0xffff;
            else if (sz == 4) v = (uint32_t)(int32_t)(int16_t)v;
            W32(w, d.o[0].reg, l, v);
        }
    }
}

// ---------------------------------------------------------------------------- atomics
enum AtomOp { A_ADD, A_MIN, A_MAX, A_INC, A_DEC, A_AND, A_OR, A_XOR, A_EXCH, A_CAS, A_POPC_INC, A_CAST };
enum AtomType { AT_U32, AT_S32, AT_U64, AT_S64, AT_F32, AT_F64 };

uint64_t Combine(int op, int type, uint64_t old, uint64_t v) {
    switch (type) {
        case AT_F32: {
            float r = AsF((uint32_t)old) + AsF((uint32_t)v);
            return FBits(r);
        }
        case AT_F64: return DBits(AsD(old) + AsD(v));
        default: break;
    }
    bool is64 = type == AT_U64 || type == AT_S64;
    uint64_t mask = is64 ? ~0ull : 0xffffffffull;
    old &= mask, v &= mask;
    auto lt = [&](uint64_t a, uint64_t b) {
        if (type == AT_S32) return (int32_t)a < (int32_t)b;
        if (type == AT_S64) return (int64_t)a < (int64_t)b;
        return a < b;
    };
    switch (op) {
        case A_ADD: return (old + v) & mask;
        case A_MIN: return lt(v, old) ? v : old;
        case A_MAX: return lt(old, v) ? v : old;
        case A_INC: return old >= v ? 0 : old + 1;
        case A_DEC: return (old == 0 || old > v) ? v : old - 1;
        case A_AND: return old & v;
        case A_OR: return old | v;
        case A_XOR: return old ^ v;
        case A_EXCH: return v;
        case A_POPC_INC: return (old + 1) & mask;
        default: return old;
    }
}

// Applies the operation at p; returns the old value.  CAS: v = new, cmp = compare.
template <bool ATOMIC>
uint64_t Apply(uint8_t *p, bool is64, int op, int type, uint64_t v, uint64_t cmp, bool *swapped) {
    if (is64) {
        uint64_t *q = reinterpret_cast<uint64_t *>(p);
        uint64_t old = ATOMIC ? __atomic_load_n(q, __ATOMIC_RELAXED) : *q;
        for (;;) {
            uint64_t nv;
            if (op == A_CAS || op == A_CAST) {
                if (old != cmp) {
                    *swapped = false;
                    return old;
                }
                nv = v;
            } else {
                nv = Combine(op, type, old, v);
            }
            if (!ATOMIC) {
                *q = nv;
                *swapped = true;
                return old;
            }
            if (__atomic_compare_exchange_n(q, &old, nv, false, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED)) {
                *swapped = true;
                return old;
            }
        }
    }
    uint32_t *q = reinterpret_cast<uint32_t *>(p);
    uint32_t old = ATOMIC ? __atomic_load_n(q, __ATOMIC_RELAXED) : *q;
    for (;;) {
        uint32_t nv;
        if (op == A_CAS || op == A_CAST) {
            if (old != (uint32_t)cmp) {
                *swapped = false;
                return old;
            }
            nv = (uint32_t)v;
        } else {
            nv = (uint32_t)Combine(op, type, old, v);
        }
        if (!ATOMIC) {
            *q = nv;
            *swapped = true;
            return old;
        }
        if (__atomic_compare_exchange_n(q, &old, nv, false, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED)) {
            *swapped = true;
            return old;
        }
    }
}

// Operand layout, after PrepAtom: m[0] op, m[1] type, m[2] index of the address operand,
// m[3] index of the destination (-1: none, a reduction).
template <Space SP>
void ExecAtom(Cta &c, Warp &w, const DInst &d, uint32_t m) {
    int op = d.m[0], type = d.m[1], ai = d.m[2], di = d.m[3];
    bool is64 = type == AT_U64 || type == AT_S64 || type == AT_F64;
    uint32_t n = is64 ? 8 : 4;
    SE_FOR_LANES(m, l) {
        uint64_t a = SP == GLOBAL || SP == GENERIC ? Addr64(c, w, d.o[ai], l) : Addr32(w, d.o[ai], l);
        uint8_t *p = Resolve(c, w, d, l, SP, a, n, "atomic");
        if (!p) return;
        uint64_t v = 0, cmp = 0;
        if (op == A_CAS || op == A_CAST) {
            cmp = is64 ? Raw64(c, w, d.o[ai + 1], l) : Raw(c, w, d.o[ai + 1], l);
            v = is64 ? Raw64(c, w, d.o[ai + 2], l) : Raw(c, w, d.o[ai + 2], l);
        } else if (op != A_POPC_INC) {
            v = is64 ? Raw64(c, w, d.o[ai + 1], l) : Raw(c, w, d.o[ai + 1], l);
        }
        bool swapped = false;
        // global memory is shared with the other workers' CTAs: the host's atomics
        bool host_atomic = SP == GLOBAL || (SP == GENERIC && (p < c.shared.data() || p >= c.shared.data() + c.shared.size()) &&
                                            (p < c.local.data() || p >= c.local.data() + c.local.size()));
        uint64_t old = host_atomic ? Apply<true>(p, is64, op, type, v, cmp, &swapped) : Apply<false>(p, is64, op, type, v, cmp, &swapped);
        if (di >= 0) {
            if (op == A_CAST && d.o[di].kind == Operand::P) WP(w, d.o[di].reg, l, swapped);
            else if (op == A_CAST) W32(w, d.o[di].reg, l, swapped ? 1 : 0);
            else if (is64) W64(w, d.o[di].reg, l, old);
            else W32(w, d.o[di].reg, l, (uint32_t)old);
        }
    }
}

Status PrepAtom(DInst &d) {
    // find the address operand
    int ai = -1;
    for (int i = 0; i < d.nops; ++i)
        if (d.o[i].kind == Operand::MEM) {
            ai = i;
            break;
        }
    if (ai < 0) return Status::Unsupported(d.opcode + " without an address operand");
    d.m[2] = ai;
    if (HasMod(d, "POPC")) d.m[0] = A_POPC_INC;
    d.m[3] = -1;
    for (int i = ai - 1; i >= 0; --i)
        if (d.o[i].kind == Operand::R || (d.o[i].kind == Operand::P && HasMod(d, "CAST"))) {  // sm_100: ATOMS.CAST P, [..]
            d.m[3] = i;
            break;
        }
    int type = AT_U32;
    bool f = false;
    for (const std::string &s : d.mods) {
        if (s == "64") type = type == AT_S32 ? AT_S64 : AT_U64;
        else if (s == "S32") type = AT_S32;
        else if (s == "S64") type = AT_S64;
        else if (s == "U64") type = AT_U64;
        else if (s == "F32") type = AT_F32, f = true;
        else if (s == "F64") type = AT_F64, f = true;
    }
    if (HasMod(d, "64") && type == AT_S32) type = AT_S64;
    (void)f;
    d.m[1] = type;
    return Status::Ok();
}

}  // namespace

#define M(name, slot, value) ModDef{name, slot, value}
static const std::vector<ModDef> kMemMods = {
    M("E", -1, 0),       M("U8", 0, 1),   M("S8", 0, 2),         M("U16", 0, 3),      M("S16", 0, 4),     M("32", 0, 5),
    M("64", 0, 6),       M("128", 0, 7),  M("SYS", -1, 0),       M("GPU", -1, 0),     M("CTA", -1, 0),    M("SM", -1, 0),
    M("STRONG", -1, 0),  M("CONSTANT", -1, 0), M("EF", -1, 0),   M("EL", -1, 0),      M("LU", -1, 0),     M("EU", -1, 0),
    M("NA", -1, 0),      M("U", -1, 0),   M("ZD", -1, 0),        M("LTC64B", -1, 0),  M("LTC128B", -1, 0), M("PRIVATE", -1, 0),
};
static const std::vector<ModDef> kAtomMods = {
    M("E", -1, 0),      M("ADD", 0, A_ADD),   M("MIN", 0, A_MIN),   M("MAX", 0, A_MAX),  M("INC", 0, A_INC),  M("DEC", 0, A_DEC),
    M("AND", 0, A_AND), M("OR", 0, A_OR),     M("XOR", 0, A_XOR),   M("EXCH", 0, A_EXCH), M("CAS", 0, A_CAS), M("CAST", 0, A_CAST),
    M("SPIN", -1, 0),   M("POPC", 0, A_POPC_INC), M("32", -1, 0),   M("64", -3, 0),      M("S32", -3, 0),     M("S64", -3, 0),
    M("U64", -3, 0),    M("F32", -3, 0),      M("F64", -3, 0),      M("FTZ", -1, 0),     M("RN", -1, 0),      M("STRONG", -1, 0),
    M("GPU", -1, 0),    M("SYS", -1, 0),      M("CTA", -1, 0),      M("SM", -1, 0),
};

const std::vector<OpRow> &MemoryRows() {
    static const std::vector<OpRow> rows = {
        {"LDG", kMemMods, nullptr, ExecLoad<GLOBAL>, false, true},
        {"LD", kMemMods, nullptr, ExecLoad<GENERIC>, false, true},
        {"STG", kMemMods, nullptr, ExecStore<GLOBAL>, false, true},
        {"ST", kMemMods, nullptr, ExecStore<GENERIC>, false, true},
        {"LDS", kMemMods, nullptr, ExecLoad<SHARED>, false, true},
        {"STS", kMemMods, nullptr, ExecStore<SHARED>, false, true},
        {"LDL", kMemMods, nullptr, ExecLoad<LOCAL>, false, true},
        {"STL", kMemMods, nullptr, ExecStore<LOCAL>, false, true},
        {"LDC", kMemMods, nullptr, ExecLDC, false, true},
        {"ATOM", kAtomMods, PrepAtom, ExecAtom<GENERIC>, false, true},
        {"ATOMG", kAtomMods, PrepAtom, ExecAtom<GLOBAL>, false, true},
        {"RED", kAtomMods, PrepAtom, ExecAtom<GENERIC>, false, true},
        {"REDG", kAtomMods, PrepAtom, ExecAtom<GLOBAL>, false, true},
        {"ATOMS", kAtomMods, PrepAtom, ExecAtom<SHARED>, false, true},
    };
    return rows;
}
#undef M

}  // namespace rndn::sassemu
