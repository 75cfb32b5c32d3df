// Control flow (branches, calls, exit), convergence barriers (BSSY/BSYNC/BREAK/BMOV, WARPSYNC),
// CTA barriers (BAR, B2R) and warp collectives (SHFL, VOTE, MATCH, REDUX).
//
// The scheduler (device.cpp) has already moved every lane of the group to pc + 16 before a
// control semantic runs; the semantic redirects or parks the lanes of the guard mask m.
#include <algorithm>
#include <cstdio>

#include "sassemu/semantics.h"

namespace rndn::sassemu {

namespace {

void ExecNOP(Cta &, Warp &, const DInst &, uint32_t) {}

void ExecBRA(Cta &, Warp &w, const DInst &d, uint32_t m) {
    uint64_t t = (uint64_t)d.o[d.nops - 1].imm;
    if (d.nops > 1 && (d.o[0].kind == Operand::P || d.o[0].kind == Operand::UP)) {  // BRA [!]P / BRA.U [!]UP, target
        uint32_t keep = 0;
        SE_FOR_LANES(m, l) if (PV(w, d.o[0], l)) keep |= 1u << l;
        m = keep;
    }
    SE_FOR_LANES(m, l) w.pc[l] = t;
    if (m && m != w.group) {  // the group splits: the lanes that branch go on as a group of their own
        uint32_t tag = w.next_tag++;
        SE_FOR_LANES(m, l) w.tag[l] = tag;
    }
}

void ExecEXIT(Cta &, Warp &w, const DInst &, uint32_t m) {
    SE_FOR_LANES(m, l) w.state[l] = L_EXIT;
    w.exited |= m;
}

void ExecRET(Cta &, Warp &w, const DInst &d, uint32_t m) {
    SE_FOR_LANES(m, l) w.pc[l] = w.r[d.o[0].reg][l];
}

void ExecBSSY(Cta &, Warp &w, const DInst &d, uint32_t m) {
    if (m) w.b[d.o[0].reg & 15] = m;
}

void ExecBSYNC(Cta &, Warp &w, const DInst &d, uint32_t m) {
    int b = d.o[0].reg & 15;
    uint32_t waiting = m;
    for (int l = 0; l < 32; ++l)
        if (w.state[l] == L_BSYNC && w.wait_arg[l] == b) waiting |= 1u << l;
    if ((w.b[b] & ~w.exited & ~waiting) == 0) {
        // everyone arrived: release the parked lanes past the BSYNC, together with the group
        for (int l = 0; l < 32; ++l)
            if (w.state[l] == L_BSYNC && w.wait_arg[l] == b) w.state[l] = L_RUN, w.pc[l] += 16;
        Reconverge(w, waiting);
        return;
    }
    SE_FOR_LANES(m, l) {
        w.state[l] = L_BSYNC;
        w.wait_arg[l] = (uint8_t)b;
        w.pc[l] = d.pc;
    }
}

void ExecBREAK(Cta &, Warp &w, const DInst &d, uint32_t m) { w.b[d.o[0].reg & 15] &= ~m; }

void ExecBMOV(Cta &c, Warp &w, const DInst &d, uint32_t m) {
    // BMOV.32[.CLEAR] Rd, Bs  |  BMOV.32 Bd, Rs
    if (d.o[0].kind == Operand::B) {
        if (m) w.b[d.o[0].reg & 15] = Raw(c, w, d.o[1], __builtin_ctz(m));
        return;
    }
    uint32_t v = w.b[d.o[1].reg & 15];
    SE_FOR_LANES(m, l) W32(w, d.o[0].reg, l, v);
    if (d.m[0] && m) w.b[d.o[1].reg & 15] = 0;
}

void ExecWARPSYNC(Cta &c, Warp &w, const DInst &d, uint32_t m) {
    if (!m) return;
    uint32_t mask = d.nops ? Raw(c, w, d.o[0], __builtin_ctz(m)) : 0xffffffffu;
    mask &= w.valid & ~w.exited;
    uint32_t waiting = m;
    for (int l = 0; l < 32; ++l)
        if (w.state[l] == L_WARPSYNC) waiting |= 1u << l;
    if ((mask & ~waiting) == 0) {
        uint32_t released = m;
        for (int l = 0; l < 32; ++l)
            if (w.state[l] == L_WARPSYNC && (w.wait_mask[l] & ~waiting & ~w.exited) == 0) {
                w.state[l] = L_RUN, w.pc[l] += 16;
                released |= 1u << l;
            }
        Reconverge(w, released);
        return;
    }
    SE_FOR_LANES(m, l) {
        w.state[l] = L_WARPSYNC;
        w.wait_mask[l] = mask;
        w.pc[l] = d.pc;
    }
}

void ExecBAR(Cta &c, Warp &w, const DInst &d, uint32_t m) {
    // BAR.SYNC id[, count] | BAR.RED.{POPC,AND,OR} id, P ; d.m[0]: reduction kind
    if (!m) return;
    uint32_t live = w.valid & ~w.exited;
    if (m != live) {
        // BAR.SYNC is aligned (bar.sync, barrier.sync.aligned): the whole warp executes it
        // together.  A diverged warp that reaches it in parts is undefined on a GPU (an H100
        // released the barrier early); reconverge first (BSSY/BSYNC, WARPSYNC).
        char buf[200];
        std::snprintf(buf, sizeof buf, "BAR by a diverged warp: lanes %08x of the live %08x (reconverge with BSSY/BSYNC before an aligned barrier)", m, live);
        c.Fail(w, __builtin_ctz(m), d, buf);
        return;
    }
    int id = (int)(Raw(c, w, d.o[0], __builtin_ctz(m)) & 15);
    uint32_t count = 0;
    int kind = d.m[0];
    if (kind == 0 && d.nops > 1) count = Raw(c, w, d.o[1], __builtin_ctz(m));
    if (c.bar_arrived[id] == 0) {
        c.bar_popc[id] = 0;
        c.bar_and[id] = true;
        c.bar_or[id] = false;
        c.bar_kind[id] = (uint8_t)kind;
        c.bar_expected[id] = count;
    }
    if (kind) {
        SE_FOR_LANES(m, l) {
            bool p = PV(w, d.o[1], l);
            c.bar_popc[id] += p;
            c.bar_and[id] = c.bar_and[id] && p;
            c.bar_or[id] = c.bar_or[id] || p;
        }
    }
    c.bar_arrived[id] += (uint32_t)__builtin_popcount(m);
    SE_FOR_LANES(m, l) {
        w.state[l] = L_BAR;
        w.wait_arg[l] = (uint8_t)id;
    }
}

void ExecB2R(Cta &, Warp &w, const DInst &d, uint32_t m) {
    SE_FOR_LANES(m, l) {
        W32(w, d.o[0].reg, l, w.bar_result);
        if (d.nops > 1) WP(w, d.o[1].reg, l, w.bar_pred);
    }
}

// ---------------------------------------------------------------------------- collectives
void ExecSHFL(Cta &c, Warp &w, const DInst &d, uint32_t m) {
    // SHFL.mode Pd, Rd, a, b, c
    int mode = d.m[0];
    uint32_t src[32];
    for (int l = 0; l < 32; ++l) src[l] = Raw(c, w, d.o[2], l);
    SE_FOR_LANES(m, l) {
        uint32_t b = Raw(c, w, d.o[3], l) & 31, cc = Raw(c, w, d.o[4], l);
        uint32_t segmask = (cc >> 8) & 31, clamp = cc & 31;
        uint32_t minl = l & segmask, maxl = minl | (clamp & ~segmask);
        int j;
        bool p;
        switch (mode) {
            case 0: j = (int)(minl | (b & ~segmask)); p = (uint32_t)j <= maxl; break;  // IDX
            case 1: j = (int)l - (int)b; p = j >= (int)maxl; break;                     // UP
            case 2: j = (int)(l + b); p = (uint32_t)j <= maxl; break;                   // DOWN
            default: j = (int)(l ^ b); p = (uint32_t)j <= maxl; break;                  // BFLY
        }
        if (!p) j = (int)l;
        W32(w, d.o[1].reg, l, src[j]);
        WP(w, d.o[0].reg, l, p);
    }
}

void ExecVOTE(Cta &, Warp &w, const DInst &d, uint32_t m) {
    // VOTE.{ANY,ALL,EQ} [Rd,] Pd, Ps   |  VOTEU.ANY URd, UPd, Ps
    int mode = d.m[0];
    int i = d.nops == 3 ? 1 : 0;
    const Operand &ps = d.o[i + 1];
    uint32_t ballot = 0;
    SE_FOR_LANES(m, l) if (PV(w, ps, l)) ballot |= 1u << l;
    bool any = ballot != 0, all = ballot == m, eq = ballot == 0 || ballot == m;
    bool r = mode == 0 ? any : mode == 1 ? all : eq;
    if (d.m[1]) {  // uniform
        if (!m) return;
        if (i) WU(w, d.o[0].reg, ballot);
        if (d.o[i].reg != 7) w.up[d.o[i].reg] = r;
        return;
    }
    SE_FOR_LANES(m, l) {
        if (i) W32(w, d.o[0].reg, l, ballot);
        WP(w, d.o[i].reg, l, r);
    }
}

void ExecMATCH(Cta &c, Warp &w, const DInst &d, uint32_t m) {
    // MATCH.ANY[.U64] Rd, a  |  MATCH.ALL[.U64] Pd, Rd, a
    bool all = d.m[0], wide = d.m[1];
    int i = all ? 1 : 0;
    uint64_t v[32];
    SE_FOR_LANES(m, l) v[l] = wide ? Raw64(c, w, d.o[i + 1], l) : Raw(c, w, d.o[i + 1], l);
    bool same = true;
    SE_FOR_LANES(m, l) if (v[l] != v[__builtin_ctz(m)]) same = false;
    SE_FOR_LANES(m, l) {
        if (all) {
            W32(w, d.o[1].reg, l, same ? m : 0);
            WP(w, d.o[0].reg, l, same);
        } else {
            uint32_t r = 0;
            SE_FOR_LANES(m, k) if (v[k] == v[l]) r |= 1u << k;
            W32(w, d.o[0].reg, l, r);
        }
    }
}

void ExecREDUX(Cta &c, Warp &w, const DInst &d, uint32_t m) {
    // REDUX[.SUM|.OR|.XOR|.MIN|.MAX][.S32] URd, Ra  (plain REDUX: AND)
    if (!m) return;
    int op = d.m[0];
    bool s = d.m[1];
    uint32_t acc = 0;
    bool first = true;
    SE_FOR_LANES(m, l) {
        uint32_t v = Raw(c, w, d.o[1], l);
        if (first) {
            acc = v;
            first = false;
            continue;
        }
        switch (op) {
            case 0: acc &= v; break;
            case 1: acc |= v; break;
            case 2: acc ^= v; break;
            case 3: acc += v; break;
            case 4: acc = s ? (uint32_t)std::min((int32_t)acc, (int32_t)v) : std::min(acc, v); break;
            case 5: acc = s ? (uint32_t)std::max((int32_t)acc, (int32_t)v) : std::max(acc, v); break;
        }
    }
    WU(w, d.o[0].reg, acc);
}

}  // namespace

#define M(name, slot, value) ModDef{name, slot, value}
const std::vector<OpRow> &ControlRows() {
    static const std::vector<OpRow> rows = {
        {"NOP", {}, nullptr, ExecNOP, false, false},
        {"YIELD", {}, nullptr, ExecNOP, false, false},
        {"MEMBAR", {M("SC", -1, 0), M("ALL", -1, 0), M("GPU", -1, 0), M("CTA", -1, 0), M("SYS", -1, 0), M("VC", -1, 0)}, nullptr, ExecNOP, false, true},
        {"ERRBAR", {}, nullptr, ExecNOP, false, false},
        {"CGAERRBAR", {}, nullptr, ExecNOP, false, false},
        {"CCTL", {M("IVALL", -1, 0)}, nullptr, ExecNOP, false, true},
        {"DEPBAR", {M("LE", -1, 0)}, nullptr, ExecNOP, false, false},
        {"BRA", {M("U", -1, 0)}, nullptr, ExecBRA, true, false},
        {"EXIT", {}, nullptr, ExecEXIT, true, false},
        {"CALL", {M("REL", -1, 0), M("NOINC", -1, 0)}, nullptr, ExecBRA, true, false},
        {"RET", {M("REL", -1, 0), M("NODEC", -1, 0)}, nullptr, ExecRET, true, false},
        {"BSSY", {M("RECONVERGENT", -1, 0), M("RELIABLE", -1, 0)}, nullptr, ExecBSSY, true, false},
        {"BSYNC", {M("RECONVERGENT", -1, 0), M("RELIABLE", -1, 0)}, nullptr, ExecBSYNC, true, false},
        {"BREAK", {M("RELIABLE", -1, 0)}, nullptr, ExecBREAK, true, false},
        {"BMOV", {M("32", -1, 0), M("CLEAR", 0, 1)}, nullptr, ExecBMOV, false, true},
        {"WARPSYNC", {M("ALL", -1, 0)}, nullptr, ExecWARPSYNC, true, false},
        {"BAR", {M("SYNC", 0, 0), M("DEFER_BLOCKING", -1, 0), M("RED", -1, 0), M("POPC", 0, 1), M("AND", 0, 2), M("OR", 0, 3), M("ARV", -3, 0)}, nullptr, ExecBAR, true, false},
        {"B2R", {M("RESULT", -1, 0)}, nullptr, ExecB2R, false, true},
        {"SHFL", {M("IDX", 0, 0), M("UP", 0, 1), M("DOWN", 0, 2), M("BFLY", 0, 3)}, nullptr, ExecSHFL, false, true},
        {"VOTE", {M("ANY", 0, 0), M("ALL", 0, 1), M("EQ", 0, 2)}, nullptr, ExecVOTE, false, false},
        {"VOTEU", {M("ANY", 0, 0), M("ALL", 0, 1), M("EQ", 0, 2)}, [](DInst &d) { d.m[1] = 1; return Status::Ok(); }, ExecVOTE, false, false},
        {"MATCH", {M("ANY", 0, 0), M("ALL", 0, 1), M("U64", 1, 1), M("U32", 1, 0)}, nullptr, ExecMATCH, false, true},
        {"REDUX", {M("AND", 0, 0), M("OR", 0, 1), M("XOR", 0, 2), M("SUM", 0, 3), M("MIN", 0, 4), M("MAX", 0, 5), M("S32", 1, 1), M("U32", 1, 0)}, nullptr, ExecREDUX, false, true},
        // sm_100: REDUX's min/max into a uniform register, a fixed-latency form
        {"CREDUX", {M("MIN", 0, 4), M("MAX", 0, 5), M("S32", 1, 1), M("U32", 1, 0)}, nullptr, ExecREDUX, false, false},
    };
    return rows;
}
#undef M

}  // namespace rndn::sassemu
