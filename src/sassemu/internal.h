// Internal types of the SASS emulator: pre-decoded instructions, warp and CTA state.
#pragma once

#include <cstdint>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "assembler/assembler.h"
#include "sassemu/sassemu.h"

namespace rndn::sassemu {

// One operand of a pre-decoded instruction (parsed from the form's template and hole values).
struct Operand {
    enum Kind : uint8_t { NONE, R, UR, P, UP, B, IMM, CBANK, MEM, SR, LABEL, PR, SRZ };
    Kind kind = NONE;
    bool neg = false, abs = false, inv = false;  // '-', '|..|', '~' or '!'
    uint8_t reg = 0;        // R/UR/P/UP/B number; MEM base register; CBANK offset register
    bool has_reg = false;   // MEM/CBANK: a base/offset register is present
    bool base_ur = false;   // MEM: the base register is uniform
    uint8_t ureg = 63;      // MEM: an added uniform register (63: none)
    bool wide = false;      // MEM: ".64" base register pair; R: ".64" suffix
    uint8_t scale = 1;      // MEM: .X4 .X8 .X16
    uint8_t bank = 0;       // CBANK
    uint8_t fcode = 0;      // IMM: sass::HoleCode of a float literal (PLAIN: integer)
    uint8_t hsel = 0;       // R: half selector (0 none, 1 H0_H0, 2 H1_H1, 3 .H1 ...)
    int16_t sr = 0;         // SR: special register id
    int64_t imm = 0;        // IMM value (float: raw bits); CBANK/MEM: byte offset; LABEL: address
};

struct Warp;
struct Cta;
struct DInst;
using ExecFn = void (*)(Cta &c, Warp &w, const DInst &d, uint32_t m);

// Opcode classes for the hazard checker and the scheduler.
enum class OpClass : uint8_t { FIXED, VARIABLE, CONTROL };

struct DInst {
    uint64_t pc = 0;
    ExecFn fn = nullptr;
    bool control = false;    // the semantic sets the lanes' program counters itself
    bool uniform_guard = false;
    bool guard_neg = false;
    int8_t guard = 7;
    uint8_t nops = 0;
    int32_t m[4] = {0, 0, 0, 0};  // opcode-specific modifier values (set by the opcode's Prepare)
    Operand o[8];
    sass::Control ctl;
    std::string opcode;           // "IADD3"
    std::vector<std::string> mods;
    std::string text;             // nvdisasm-style text, for errors and traces
    std::string unsupported;      // non-empty: reason this instruction cannot run
    // hazard checker: registers read and written (R pairs expanded), latency class
    std::vector<uint8_t> reads, writes;        // R registers
    std::vector<uint8_t> preads, pwrites;      // predicates
    std::vector<uint8_t> ureads, uwrites;      // uniform registers
    bool variable = false;                     // result through a scoreboard
};

struct KernelImpl {
    std::string name;
    sass::Arch arch = sass::Arch::SM_86;
    std::vector<ParamInfo> params;
    uint32_t param_base = 0x160, param_bytes = 0;
    // where the launch header lives in c[0x0] (loader.cpp's table per architecture): %ntid.xyz,
    // %nctaid.xyz, the local stack top, and the SM count
    uint32_t ntid_at = 0x0, nctaid_at = 0xc, stack_top_at = 0x28, sm_count_at = 0x10c;
    // the 64-bit bases of the shared and local windows of the generic address space (0: none)
    uint32_t shared_window_at = 0x18, local_window_at = 0x20;
    std::vector<uint8_t> cbank0;                 // .nv.constant0.<k> (parameters filled at launch)
    uint64_t shared_bytes = 0;                   // static
    uint64_t local_bytes = 0;                    // per thread (frame + stack)
    int regs = 0;
    std::vector<DInst> code;                     // index = address / 16
    std::vector<std::vector<uint8_t>> banks;     // c[1..17]: the module's, overridden per kernel
    const std::vector<std::pair<const uint8_t *, uint64_t>> *globals = nullptr;  // module variables
};

enum LaneState : uint8_t { L_RUN, L_EXIT, L_BSYNC, L_WARPSYNC, L_BAR, L_NONE };

struct Warp {
    uint32_t r[256][32];
    uint32_t p[8];          // predicate lane masks (p[7] = PT, all ones)
    uint32_t ur[64];
    uint8_t up[8];
    uint32_t b[16];         // convergence barrier registers
    uint64_t pc[32];
    uint8_t state[32];
    uint8_t wait_arg[32];   // BSYNC: barrier register; BAR: barrier id
    uint32_t wait_mask[32]; // WARPSYNC: the lanes waited for
    // convergence: lanes run together only while they share a tag.  A branch that splits a group
    // gives the lanes that take it a new tag; only BSYNC and WARPSYNC give lanes a common tag
    // again.  A GPU does not promise to reconverge lanes that reach the same address on their
    // own, so neither does the emulator (an H100 ran a block reduction whose diverged warp
    // reached BAR.SYNC in two halves and summed wrongly).
    uint32_t tag[32];
    uint32_t next_tag = 1;
    uint32_t group = 0;     // lanes executing the current instruction (before the guard)
    uint32_t valid = 0;     // lanes that exist
    uint32_t exited = 0;
    int id = 0;
    uint32_t bar_result = 0;   // B2R.RESULT
    bool bar_pred = false;
    uint64_t steps = 0;
    // hazard checker state
    std::vector<int64_t> ready;          // per register: cycle from which a read is safe
    std::vector<int8_t> sb_of;           // per register: scoreboard guarding it (-1 none)
    int64_t cycle = 0;
    uint8_t sb_pending = 0;              // scoreboards set and not yet waited on
    std::vector<int64_t> pready;         // predicates
    std::vector<int64_t> uready;
};

// BSYNC and WARPSYNC: the released lanes run together again (one fresh tag).
inline void Reconverge(Warp &w, uint32_t lanes) {
    if (!lanes) return;
    uint32_t t = w.next_tag++;
    for (int l = 0; l < 32; ++l)
        if ((lanes >> l) & 1) w.tag[l] = t;
}

struct HazardSink;

struct Cta {
    const KernelImpl *k = nullptr;
    uint32_t ctaid[3] = {0, 0, 0};
    Dim3 grid, block;
    std::vector<Warp *> warps;
    std::vector<uint8_t> shared;
    std::vector<uint8_t> local;     // local_bytes per thread
    uint64_t local_bytes = 0;
    const std::vector<uint8_t> *cbank0 = nullptr;
    struct DeviceMemory *mem = nullptr;
    bool check_bounds = true;
    bool check_hazards = false;
    bool trace = false;
    Status error;
    bool failed = false;
    uint64_t insts = 0, thread_insts = 0;
    // barrier state: per barrier id, arrived thread count
    uint32_t bar_arrived[16] = {};
    uint32_t bar_expected[16] = {};
    uint32_t bar_popc[16] = {};
    bool bar_and[16] = {}, bar_or[16] = {};
    uint8_t bar_kind[16] = {};  // 0 sync, 1 popc, 2 and, 3 or
    const std::vector<std::pair<uintptr_t, size_t>> *ranges = nullptr;  // sorted global ranges
    uint64_t hit_lo = 0, hit_hi = 0;  // the last range an access fell in
    std::vector<uint8_t> *executed = nullptr;  // coverage: per instruction index
    const std::atomic<bool> *cancel = nullptr;
    uint64_t limit = 0;                        // warp instructions per CTA (0: none)
    std::vector<Hazard> *hazards = nullptr;
    std::mutex *hazard_mu = nullptr;

    void Fail(const Warp &w, int lane, const DInst &d, const std::string &msg);
    uint32_t ConstRead32(int bank, int64_t offset, bool *ok) const {
        const std::vector<uint8_t> *b = bank == 0 ? cbank0 : (bank < 18 ? &k->banks[bank] : nullptr);
        *ok = b && offset >= 0 && (uint64_t)offset + 4 <= b->size();
        if (!*ok) return 0;  // unpopulated constant memory reads as zero
        uint32_t v;
        std::memcpy(&v, b->data() + offset, 4);
        return v;
    }
};

// Memory ranges kernels may access (device allocations, registered memory, module globals).
struct DeviceMemory {
    std::mutex mu;
    std::map<uintptr_t, size_t> ranges;  // start -> size
    bool Contains(uintptr_t a, size_t n);
};

// The semantics table (semantics.cpp).
struct OpSemantics {
    const char *name;
    Status (*prepare)(DInst &d);  // validates modifiers, fills d.m[] (nullptr: no modifiers allowed)
    ExecFn exec;
    bool control;
    bool variable;  // variable latency (memory, MUFU, conversions of 64-bit, ...)
};
const OpSemantics *FindSemantics(const std::string &opcode);

// Special register ids.
enum SpecialReg : int16_t {
    SR_TID_X, SR_TID_Y, SR_TID_Z, SR_CTAID_X, SR_CTAID_Y, SR_CTAID_Z, SR_LANEID, SR_EQMASK,
    SR_LTMASK, SR_LEMASK, SR_GTMASK, SR_GEMASK, SR_CLOCKLO, SR_GLOBALTIMERLO, SR_VIRTID,
    SR_VIRTUALSMID, SR_CGACTAID, SR_ZERO, SR_NTID_X, SR_NTID_Y, SR_NTID_Z, SR_SWINHI,
};

// The generic address space: a generic address in [window, window + 2^32) is the shared (local)
// memory offset address - window; anything else is global.  The windows sit at non-canonical
// x86-64 addresses, so no host pointer (global memory) can fall in them.  Kernels learn the
// bases from c[0x0] (KernelImpl::shared_window_at/local_window_at) and SR_SWINHI.
constexpr uint64_t kSharedWindow = 0x0001000000000000ull;
constexpr uint64_t kLocalWindow = 0x0002000000000000ull;
constexpr uint64_t kWindowSize = 0x100000000ull;

// Parses a rendered instruction text into d (loader.cpp); binds it to its semantics row,
// checking its modifiers (table.cpp).
Status ParseDInst(const std::string &text, DInst *d);
Status PrepareDInst(DInst &d);

// Runs one CTA to completion (or error).  device.cpp.
void RunCta(Cta &c);

}  // namespace rndn::sassemu
