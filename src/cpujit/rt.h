// The ABI between generated kernel code and the cpujit runtime (internal to src/cpujit).
//
// A kernel compiles to `int32_t fn(ThreadCtx *ctx)`, run once per thread and resumed after each
// synchronisation point:
//   returns 0   the thread exited
//   returns -1  an error was recorded in ctx (err_*)
//   returns k>0 the thread stopped at synchronisation point k (ctx->resume == k); its registers are
//               spilled to ctx->frame and the collective's inputs are in ctx->coll_*.
// A kernel without synchronisation points also gets `int32_t cta_fn(ThreadCtx *ctx)`, which runs
// every thread of the CTA in a loop (setting tid/laneid/warpid/local per thread) and returns the
// first non-zero result (ctx then describes the failing thread).
#pragma once

#include <cstddef>
#include <cstdint>

namespace rndn::cpujit {

enum class CutKind : uint8_t { BAR, BAR_WARP, SHFL_UP, SHFL_DOWN, SHFL_BFLY, SHFL_IDX, VOTE_ALL, VOTE_ANY, VOTE_UNI,
                               VOTE_BALLOT, MATCH_ANY, MATCH_ALL, ACTIVEMASK, BAR_RED_POPC, BAR_RED_AND,
                               BAR_RED_OR };

// CTA-wide barrier kinds (bar.sync and the bar.red reductions).
inline bool IsCtaBarrier(CutKind k) { return k == CutKind::BAR || k >= CutKind::BAR_RED_POPC; }

enum class ErrKind : uint32_t { NONE, OOB_GLOBAL, OOB_SHARED, OOB_LOCAL, OOB_PARAM, DIV_ZERO, TRAP, UNSUPPORTED };

struct RunState;

struct ThreadCtx {
    uint32_t tid[3];       // 0
    uint32_t ntid[3];      // 12
    uint32_t ctaid[3];     // 24
    uint32_t nctaid[3];    // 36
    uint32_t laneid;       // 48
    uint32_t warpid;       // 52
    uint32_t nwarpid;      // 56
    uint32_t resume;       // 60
    uint8_t *shared;       // 64
    uint8_t *local;        // 72
    const uint8_t *params; // 80
    uint64_t *frame;       // 88
    RunState *run;         // 96
    uint64_t shared_size;  // 104
    uint64_t local_size;   // 112
    uint32_t coll_mask;    // 136
    uint32_t coll_p;       // 140  predicate in / out
    uint64_t coll_a;       // 144  value
    uint64_t coll_b;       // 152  lane / delta
    uint64_t coll_c;       // 160  clamp
    uint64_t coll_r;       // 168  result
    uint32_t err_kind;     // 176
    uint32_t err_line;     // 180
    uint64_t err_addr;     // 184
    uint64_t err_size;     // 192
    uint64_t dyn_shared;   // 200  dynamic shared bytes
    uint8_t *local_base;   // 208  CTA loop: thread t's local memory is local_base + t * local_size
    uint64_t *site_cache;  // 216  per global-access site: last accessible range [lo, hi) hit there
    const uint32_t *tid_tab;  // 224  lock-step kernels: tid.x/y/z of CTA thread t at [d * kMaxThreads + t]
};

namespace ctx_off {
#define RNDN_CJ_OFF(f) inline constexpr unsigned f = offsetof(ThreadCtx, f);
RNDN_CJ_OFF(tid)
RNDN_CJ_OFF(ntid)
RNDN_CJ_OFF(ctaid)
RNDN_CJ_OFF(nctaid)
RNDN_CJ_OFF(laneid)
RNDN_CJ_OFF(warpid)
RNDN_CJ_OFF(nwarpid)
RNDN_CJ_OFF(resume)
RNDN_CJ_OFF(shared)
RNDN_CJ_OFF(local)
RNDN_CJ_OFF(params)
RNDN_CJ_OFF(frame)
RNDN_CJ_OFF(shared_size)
RNDN_CJ_OFF(local_size)
RNDN_CJ_OFF(coll_mask)
RNDN_CJ_OFF(coll_p)
RNDN_CJ_OFF(coll_a)
RNDN_CJ_OFF(coll_b)
RNDN_CJ_OFF(coll_c)
RNDN_CJ_OFF(coll_r)
RNDN_CJ_OFF(err_kind)
RNDN_CJ_OFF(err_line)
RNDN_CJ_OFF(err_addr)
RNDN_CJ_OFF(err_size)
RNDN_CJ_OFF(dyn_shared)
RNDN_CJ_OFF(local_base)
RNDN_CJ_OFF(site_cache)
RNDN_CJ_OFF(tid_tab)
#undef RNDN_CJ_OFF
}  // namespace ctx_off

// Helpers the generated code calls (defined in rt_helpers.cpp, bound as absolute symbols).
extern "C" {
int32_t rndn_cj_check(ThreadCtx *ctx, uint64_t addr, uint64_t size, uint32_t line, uint32_t is_store, uint64_t *site);
void rndn_cj_fail(ThreadCtx *ctx, uint32_t kind, uint64_t addr, uint64_t size, uint32_t line);
// Lock-step kernels: every lane in `mask` of warp ctx->warpid accesses `size` bytes at addrs[lane];
// returns 1 if all may, else records the first failing lane's error (and its tid) and returns 0.
int32_t rndn_cj_check_warp(ThreadCtx *ctx, const uint64_t *addrs, uint32_t mask, uint64_t size, uint32_t line,
                           uint32_t is_store, uint64_t *site);
// Lock-step kernels: records an error for lane `lane` of warp ctx->warpid (sets ctx->tid/laneid).
void rndn_cj_fail_lane(ThreadCtx *ctx, uint32_t kind, uint64_t addr, uint64_t size, uint32_t line, uint32_t lane);
uint64_t rndn_cj_clock64();
uint64_t rndn_cj_globaltimer();
float rndn_cj_f32_op(uint32_t op, uint32_t mode, float a, float b, float c);
double rndn_cj_f64_op(uint32_t op, uint32_t mode, double a, double b, double c);
float rndn_cj_cvt_f32_i64(uint32_t mode, int64_t v, uint32_t is_signed);
double rndn_cj_cvt_f64_i64(uint32_t mode, int64_t v, uint32_t is_signed);
uint32_t rndn_cj_prmt(uint32_t a, uint32_t b, uint32_t c, uint32_t mode);
uint64_t rndn_cj_bfe(uint64_t a, uint32_t pos, uint32_t len, uint32_t bits, uint32_t is_signed);
uint64_t rndn_cj_bfi(uint64_t a, uint64_t b, uint32_t pos, uint32_t len, uint32_t bits);
uint32_t rndn_cj_atom_inc(uint32_t *p, uint32_t b);
uint32_t rndn_cj_atom_dec(uint32_t *p, uint32_t b);
}

// Floating-point helper operations (rndn_cj_f*_op) and rounding modes.
enum class FOp : uint32_t { ADD, SUB, MUL, DIV, FMA, SQRT, RCP, CVT };
enum class RMode : uint32_t { RN, RZ, RM, RP };

}  // namespace rndn::cpujit
