// The device: memory bookkeeping, the worker pool, kernel launches, and the CTA scheduler that
// runs warps with per-lane program counters.
#include <algorithm>
#include <map>
#include <atomic>
#include <chrono>
#include <cinttypes>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <thread>

#include "sassemu/hazards.h"
#include "sassemu/semantics.h"

namespace rndn::sassemu {

Expected<std::shared_ptr<const Module>> LoadCubin(const std::vector<uint8_t> &bytes);  // loader.cpp

// ---------------------------------------------------------------------------- errors, constants
void Cta::Fail(const Warp &w, int lane, const DInst &d, const std::string &msg) {
    if (failed) return;
    failed = true;
    uint32_t t = (uint32_t)(w.id * 32 + lane);
    uint32_t tx = t % block.x, ty = (t / block.x) % block.y, tz = t / (block.x * block.y);
    char buf[256];
    std::snprintf(buf, sizeof buf, "kernel %s, block (%u,%u,%u), thread (%u,%u,%u), instruction 0x%04" PRIx64 " `%s`: ",
                  k->name.c_str(), ctaid[0], ctaid[1], ctaid[2], tx, ty, tz, d.pc, d.text.c_str());
    error = Status::UserError(sqlstate::kInternalError, buf + msg);
}

bool DeviceMemory::Contains(uintptr_t a, size_t n) {
    std::lock_guard<std::mutex> g(mu);
    auto it = ranges.upper_bound(a);
    if (it == ranges.begin()) return false;
    --it;
    return a >= it->first && a + n <= it->first + it->second;
}

// ---------------------------------------------------------------------------- the scheduler
namespace {

void InitWarp(Warp &w, const Cta &c, int id, uint32_t nthreads) {
    int regs = std::min(255, c.k->regs + 8);
    for (int r = 0; r < regs; ++r) std::memset(w.r[r], 0, sizeof w.r[r]);
    std::memset(w.r[255], 0, sizeof w.r[255]);
    std::memset(w.p, 0, sizeof w.p);
    w.p[7] = 0xffffffffu;
    std::memset(w.ur, 0, sizeof w.ur);
    std::memset(w.up, 0, sizeof w.up);
    w.up[7] = 1;
    std::memset(w.b, 0, sizeof w.b);
    w.id = id;
    uint32_t first = (uint32_t)id * 32;
    uint32_t n = std::min<uint32_t>(32, nthreads - first);
    w.valid = n == 32 ? 0xffffffffu : ((1u << n) - 1);
    w.exited = ~w.valid;
    w.next_tag = 1;
    for (int l = 0; l < 32; ++l) {
        w.pc[l] = 0;
        w.tag[l] = 0;
        w.state[l] = ((w.valid >> l) & 1) ? L_RUN : L_NONE;
    }
    w.bar_result = 0;
    w.bar_pred = false;
    w.steps = 0;
}

uint32_t RunMask(const Warp &w) {
    uint32_t m = 0;
    for (int l = 0; l < 32; ++l)
        if (w.state[l] == L_RUN) m |= 1u << l;
    return m;
}

// Releases lanes parked at BSYNC/WARPSYNC whose partners have all arrived or exited.
bool ReleaseParked(Warp &w) {
    bool any = false;
    uint32_t at_bsync[16] = {}, at_ws = 0;
    for (int l = 0; l < 32; ++l) {
        if (w.state[l] == L_BSYNC) at_bsync[w.wait_arg[l] & 15] |= 1u << l;
        if (w.state[l] == L_WARPSYNC) at_ws |= 1u << l;
    }
    for (int b = 0; b < 16; ++b)
        if (at_bsync[b] && (w.b[b] & ~w.exited & ~at_bsync[b]) == 0) {
            SE_FOR_LANES(at_bsync[b], l) w.state[l] = L_RUN, w.pc[l] += 16;
            Reconverge(w, at_bsync[b]);
            any = true;
        }
    if (at_ws) {
        uint32_t rel = 0;
        SE_FOR_LANES(at_ws, l) if ((w.wait_mask[l] & ~w.exited & ~at_ws) == 0) rel |= 1u << l;
        SE_FOR_LANES(rel, l) w.state[l] = L_RUN, w.pc[l] += 16;
        Reconverge(w, rel);
        any = any || rel;
    }
    return any;
}

void Trace(const Cta &c, const Warp &w, const DInst &d, uint32_t g, uint32_t m) {
    std::fprintf(stderr, "[%u,%u,%u] w%d %08x/%08x %04" PRIx64 ": %s\n", c.ctaid[0], c.ctaid[1], c.ctaid[2], w.id, g, m, d.pc,
                 d.text.c_str());
}

// The first destination's value in the lowest active lane.
void TraceResult(const Warp &w, const DInst &d, int l) {
    for (int i = 0; i < d.nops && i < 2; ++i) {
        const Operand &o = d.o[i];
        if (o.kind == Operand::R && o.reg != 255) {
            std::fprintf(stderr, "      lane %d: R%d=0x%08x R%d=0x%08x\n", l, o.reg, w.r[o.reg][l], o.reg + 1, w.r[(o.reg + 1) & 255][l]);
            return;
        }
        if (o.kind == Operand::P && o.reg != 7) std::fprintf(stderr, "      lane %d: P%d=%d\n", l, o.reg, (w.p[o.reg] >> l) & 1);
        if (o.kind == Operand::UR && o.reg != 63) {
            std::fprintf(stderr, "      UR%d=0x%08x\n", o.reg, w.ur[o.reg]);
            return;
        }
    }
}

// Runs the warp until every lane has exited or is parked; returns whether it executed anything.
// The lanes at the lowest program counter run together (a group); while the group runs through
// non-control instructions its lanes' pcs live in `pc` and are written back when it regroups.
bool RunWarp(Cta &c, Warp &w, HazardState *hz) {
    const std::vector<DInst> &code = c.k->code;
    bool progressed = false;
    uint32_t g = 0;
    uint64_t pc = 0, other_min = UINT64_MAX;
    bool regroup = true;
    auto write_back = [&] { SE_FOR_LANES(g, l) w.pc[l] = pc; };
    for (uint32_t budget = 1u << 16;; --budget) {
        if (budget == 0) {  // let the other warps run (spin loops across warps)
            if (!regroup) write_back();
            return progressed;
        }
        if ((budget & 4095) == 0) {  // cancel and runaway checks
            if (c.cancel && c.cancel->load(std::memory_order_relaxed)) {
                if (!regroup) write_back();
                c.failed = true;
                c.error = Status::Cancelled();
                return true;
            }
            if (c.limit && c.insts > c.limit) {
                if (!regroup) write_back();
                const DInst &at = code[std::min<size_t>(pc / 16, code.size() - 1)];
                c.Fail(w, __builtin_ctz(g), at, "more than " + std::to_string(c.limit) + " warp instructions in one block (an endless loop?)");
                return true;
            }
        }
        if (regroup) {
            uint32_t run = RunMask(w);
            if (!run) {
                if (ReleaseParked(w)) continue;
                return progressed;
            }
            pc = UINT64_MAX;
            SE_FOR_LANES(run, l) pc = std::min(pc, w.pc[l]);
            g = 0;
            other_min = UINT64_MAX;
            int lead = -1;  // the group: the lanes at the lowest pc that share the first one's tag
            SE_FOR_LANES(run, l) {
                if (w.pc[l] == pc && (lead < 0 || w.tag[l] == w.tag[lead])) {
                    if (lead < 0) lead = l;
                    g |= 1u << l;
                } else {
                    other_min = std::min(other_min, w.pc[l]);
                }
            }
            regroup = false;
        }
        size_t idx = (size_t)(pc / 16);
        if (pc % 16 != 0 || idx >= code.size()) {
            DInst fake;
            fake.pc = pc;
            fake.text = "?";
            write_back();
            c.Fail(w, __builtin_ctz(g), fake, "program counter outside the kernel");
            return true;
        }
        const DInst &d = code[idx];
        if (!d.fn) {
            write_back();
            c.Fail(w, __builtin_ctz(g), d, "unsupported instruction: " + (d.unsupported.empty() ? std::string("no semantics") : d.unsupported));
            return true;
        }
        uint32_t m = g;
        if (d.guard != 7 || d.guard_neg) {
            if (d.uniform_guard) {
                bool v = d.guard == 7 ? true : w.up[d.guard] != 0;
                if (d.guard_neg) v = !v;
                m = v ? g : 0;
            } else {
                uint32_t p = w.p[d.guard];
                if (d.guard_neg) p = ~p;
                m = g & p;
            }
        }
        if (c.trace) Trace(c, w, d, g, m);
        w.group = g;
        if (hz) hz->Issue(c, w, d);
        if (c.executed) (*c.executed)[idx] = 1;
        ++w.steps;
        ++c.insts;
        c.thread_insts += (uint64_t)__builtin_popcount(m);
        progressed = true;
        if (d.control) {
            pc += 16;
            write_back();
            d.fn(c, w, d, m);
            regroup = true;
        } else {
            d.fn(c, w, d, m);
            pc += 16;
            if (pc >= other_min) {  // another group is now at a lower (or the same) pc
                write_back();
                regroup = true;
            }
        }
        if (c.failed) {
            if (!regroup) write_back();
            return true;
        }
        if (c.trace && m) TraceResult(w, d, __builtin_ctz(m));
    }
}

bool ReleaseBarriers(Cta &c) {
    uint32_t live = 0;
    for (Warp *w : c.warps) live += (uint32_t)__builtin_popcount(w->valid & ~w->exited);
    bool any = false;
    for (int id = 0; id < 16; ++id) {
        if (c.bar_arrived[id] == 0) continue;
        uint32_t expected = c.bar_expected[id] ? c.bar_expected[id] : live;
        if (c.bar_arrived[id] < expected) continue;
        uint32_t result = c.bar_kind[id] == 1 ? c.bar_popc[id] : 0;
        bool pred = c.bar_kind[id] == 2 ? c.bar_and[id] : c.bar_or[id];
        for (Warp *w : c.warps) {
            bool hit = false;
            for (int l = 0; l < 32; ++l)
                if (w->state[l] == L_BAR && w->wait_arg[l] == id) {
                    w->state[l] = L_RUN;
                    hit = true;
                }
            if (hit) w->bar_result = result, w->bar_pred = pred;
        }
        c.bar_arrived[id] = 0;
        any = true;
    }
    return any;
}

}  // namespace

void RunCtaWith(Cta &c, HazardState *hz) {
    for (;;) {
        bool progress = false;
        for (Warp *w : c.warps) {
            if (RunWarp(c, *w, hz)) progress = true;
            if (c.failed) return;
        }
        bool done = true;
        for (Warp *w : c.warps)
            if (~w->exited) done = false;
        if (done) return;
        if (ReleaseBarriers(c)) continue;
        if (!progress) {
            // nobody can move: a barrier (or convergence barrier) deadlock
            for (Warp *w : c.warps)
                for (int l = 0; l < 32; ++l)
                    if (w->state[l] == L_BAR || w->state[l] == L_BSYNC || w->state[l] == L_WARPSYNC) {
                        const DInst &d = c.k->code[std::min<size_t>(w->pc[l] / 16, c.k->code.size() - 1)];
                        char buf[200];
                        uint32_t live = 0;
                        for (Warp *x : c.warps) live += (uint32_t)__builtin_popcount(x->valid & ~x->exited);
                        if (w->state[l] == L_BAR)
                            std::snprintf(buf, sizeof buf, "barrier deadlock: %u of %u threads wait at barrier %d", c.bar_arrived[w->wait_arg[l]],
                                          c.bar_expected[w->wait_arg[l]] ? c.bar_expected[w->wait_arg[l]] : live, w->wait_arg[l]);
                        else if (w->state[l] == L_BSYNC)
                            std::snprintf(buf, sizeof buf, "convergence deadlock: lanes wait at BSYNC forever (B%d holds lanes %08x; %08x have exited)",
                                          w->wait_arg[l] & 15, w->b[w->wait_arg[l] & 15], w->exited);
                        else
                            std::snprintf(buf, sizeof buf, "convergence deadlock: lanes wait at WARPSYNC forever");
                        std::string where = buf;
                        if (w->state[l] != L_BAR) {  // where the warp's lanes are: mask at pc
                            std::map<uint64_t, uint32_t> at_pc;
                            for (int k = 0; k < 32; ++k)
                                if (!((w->exited >> k) & 1)) at_pc[w->pc[k]] |= 1u << k;
                            for (auto &[pc, lanes] : at_pc) {
                                std::snprintf(buf, sizeof buf, "; lanes %08x at %04llx", lanes, (unsigned long long)pc);
                                where += buf;
                            }
                        }
                        // point at the instruction the lane waits at (BAR: the one before its pc)
                        const DInst &at = w->state[l] == L_BAR ? c.k->code[std::max<size_t>(1, w->pc[l] / 16) - 1] : d;
                        c.Fail(*w, l, at, where);
                        return;
                    }
            c.failed = true;
            c.error = Status::Internal("kernel " + c.k->name + ": scheduler made no progress");
            return;
        }
    }
}

void RunCta(Cta &c) { RunCtaWith(c, nullptr); }

// ---------------------------------------------------------------------------- the device
struct Device::Impl {
    DeviceMemory mem;
    std::vector<std::thread> workers;
    std::mutex mu;
    std::condition_variable cv, done_cv;
    std::function<void(unsigned)> job;
    uint64_t generation = 0;
    unsigned running = 0;
    bool stop = false;
    std::mutex launch_mu;

    explicit Impl(unsigned n) {
        for (unsigned i = 0; i < n; ++i)
            workers.emplace_back([this, i] { Loop(i); });
    }
    ~Impl() {
        {
            std::lock_guard<std::mutex> g(mu);
            stop = true;
        }
        cv.notify_all();
        for (auto &t : workers) t.join();
    }
    void Loop(unsigned i) {
        uint64_t seen = 0;
        for (;;) {
            std::function<void(unsigned)> j;
            {
                std::unique_lock<std::mutex> g(mu);
                cv.wait(g, [&] { return stop || generation != seen; });
                if (stop) return;
                seen = generation;
                j = job;
            }
            j(i);
            {
                std::lock_guard<std::mutex> g(mu);
                if (--running == 0) done_cv.notify_all();
            }
        }
    }
    void RunOnAll(std::function<void(unsigned)> f) {
        std::unique_lock<std::mutex> g(mu);
        job = std::move(f);
        running = (unsigned)workers.size();
        ++generation;
        cv.notify_all();
        done_cv.wait(g, [&] { return running == 0; });
    }
};

Device::Device(unsigned worker_threads) {
    if (worker_threads == 0) worker_threads = std::max(1u, std::thread::hardware_concurrency());
    impl_ = std::make_unique<Impl>(worker_threads);
}
Device::~Device() = default;
unsigned Device::worker_threads() const { return (unsigned)impl_->workers.size(); }

Expected<std::shared_ptr<const Module>> Device::LoadModule(const std::vector<uint8_t> &cubin) { return LoadCubin(cubin); }

void *Device::Allocate(size_t bytes) {
    size_t n = (std::max<size_t>(bytes, 1) + 63) & ~size_t(63);
    void *p = std::aligned_alloc(64, n);
    if (!p) return nullptr;
    std::memset(p, 0, n);
    std::lock_guard<std::mutex> g(impl_->mem.mu);
    impl_->mem.ranges[(uintptr_t)p] = bytes;
    return p;
}
void Device::Free(void *p) {
    if (!p) return;
    {
        std::lock_guard<std::mutex> g(impl_->mem.mu);
        impl_->mem.ranges.erase((uintptr_t)p);
    }
    std::free(p);
}
void Device::RegisterMemory(const void *p, size_t bytes) {
    std::lock_guard<std::mutex> g(impl_->mem.mu);
    impl_->mem.ranges[(uintptr_t)p] = bytes;
}
void Device::UnregisterMemory(const void *p) {
    std::lock_guard<std::mutex> g(impl_->mem.mu);
    impl_->mem.ranges.erase((uintptr_t)p);
}

namespace {
std::string Dims(const Dim3 &d) { return std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z); }
}  // namespace

Status Device::Launch(const Kernel &kernel, const LaunchConfig &cfg, const std::vector<Arg> &args, LaunchStats *stats) {
    const KernelImpl &k = kernel.impl();
    auto t0 = std::chrono::steady_clock::now();
    if (cfg.grid.x == 0 || cfg.grid.y == 0 || cfg.grid.z == 0 || cfg.block.x == 0 || cfg.block.y == 0 || cfg.block.z == 0)
        return Status::UserError(sqlstate::kInvalidParameter, "kernel " + k.name + ": empty grid (" + Dims(cfg.grid) + ") or block (" + Dims(cfg.block) + ")");
    uint64_t nthreads = (uint64_t)cfg.block.x * cfg.block.y * cfg.block.z;
    if (nthreads > 1024 || cfg.block.z > 64)
        return Status::UserError(sqlstate::kInvalidParameter, "kernel " + k.name + ": block (" + Dims(cfg.block) + ") has more than 1024 threads");
    if (args.size() != k.params.size())
        return Status::UserError(sqlstate::kInvalidParameter, "kernel " + k.name + " takes " + std::to_string(k.params.size()) + " arguments, got " + std::to_string(args.size()));
    std::vector<uint8_t> bank0 = k.cbank0;
    for (size_t i = 0; i < args.size(); ++i) {
        if (args[i].bytes.size() != k.params[i].size)
            return Status::UserError(sqlstate::kInvalidParameter, "kernel " + k.name + ": argument " + std::to_string(i) + " has " + std::to_string(args[i].bytes.size()) +
                                                                      " bytes, the parameter " + std::to_string(k.params[i].size));
        size_t off = k.param_base + k.params[i].offset;
        if (off + args[i].bytes.size() > bank0.size()) bank0.resize(off + args[i].bytes.size());
        std::memcpy(bank0.data() + off, args[i].bytes.data(), args[i].bytes.size());
    }
    // the launch header (its place in c[0x0] depends on the architecture, see loader.cpp)
    auto put = [&](uint32_t at, uint32_t v) {
        if (at + 4 <= bank0.size() && (at + 4 <= k.param_base || at >= k.param_base + k.param_bytes)) std::memcpy(bank0.data() + at, &v, 4);
    };
    uint32_t ntid[3] = {cfg.block.x, cfg.block.y, cfg.block.z}, nctaid[3] = {cfg.grid.x, cfg.grid.y, cfg.grid.z};
    for (int i = 0; i < 3; ++i) put(k.ntid_at + 4 * i, ntid[i]), put(k.nctaid_at + 4 * i, nctaid[i]);
    put(k.stack_top_at, (uint32_t)k.local_bytes);
    put(k.sm_count_at, 1);  // the number of (virtual) SMs, compared with SR_VIRTUALSMID
    for (auto [at, base] : {std::pair<uint32_t, uint64_t>{k.shared_window_at, kSharedWindow}, {k.local_window_at, kLocalWindow}})
        if (at) put(at, (uint32_t)base), put(at + 4, (uint32_t)(base >> 32));
    uint64_t shared_bytes = k.shared_bytes + cfg.dynamic_shared;
    if (shared_bytes > 228 * 1024)
        return Status::UserError(sqlstate::kInvalidParameter, "kernel " + k.name + ": " + std::to_string(shared_bytes) + " bytes of shared memory per block");

    std::vector<std::pair<uintptr_t, size_t>> ranges;
    {
        std::lock_guard<std::mutex> g(impl_->mem.mu);
        ranges.assign(impl_->mem.ranges.begin(), impl_->mem.ranges.end());
    }
    if (k.globals)
        for (const auto &g : *k.globals) ranges.push_back({(uintptr_t)g.first, (size_t)g.second});
    std::sort(ranges.begin(), ranges.end());

    std::lock_guard<std::mutex> launch_lock(impl_->launch_mu);
    uint64_t nctas = (uint64_t)cfg.grid.x * cfg.grid.y * cfg.grid.z;
    std::atomic<uint64_t> next{0};
    std::atomic<bool> failed{false};
    std::mutex err_mu;
    Status first_error;
    uint64_t first_cta = UINT64_MAX;
    std::atomic<uint64_t> insts{0}, tinsts{0};
    std::vector<Hazard> hazards;
    std::mutex hazard_mu;
    std::vector<uint64_t> covered;
    int nwarps = (int)((nthreads + 31) / 32);
    impl_->RunOnAll([&](unsigned) {
        std::vector<std::unique_ptr<Warp>> warps;
        for (int i = 0; i < nwarps; ++i) warps.push_back(std::make_unique<Warp>());
        Cta c;
        c.k = &k;
        c.grid = cfg.grid;
        c.block = cfg.block;
        c.cbank0 = &bank0;
        c.mem = &impl_->mem;
        c.ranges = &ranges;
        c.check_bounds = cfg.check_bounds;
        c.check_hazards = cfg.check_hazards;
        c.trace = cfg.trace;
        c.hazards = &hazards;
        c.hazard_mu = &hazard_mu;
        c.local_bytes = k.local_bytes;
        c.cancel = cfg.cancel;
        c.limit = cfg.cta_instruction_limit;
        for (auto &w : warps) c.warps.push_back(w.get());
        std::vector<uint8_t> executed;
        if (cfg.coverage) executed.assign(k.code.size(), 0), c.executed = &executed;
        std::unique_ptr<HazardState> hz;
        if (cfg.check_hazards) hz = std::make_unique<HazardState>(k);
        uint64_t my_insts = 0, my_tinsts = 0;
        for (;;) {
            uint64_t i = next.fetch_add(1);
            if (i >= nctas || failed.load(std::memory_order_relaxed)) break;
            c.ctaid[0] = (uint32_t)(i % cfg.grid.x);
            c.ctaid[1] = (uint32_t)((i / cfg.grid.x) % cfg.grid.y);
            c.ctaid[2] = (uint32_t)(i / ((uint64_t)cfg.grid.x * cfg.grid.y));
            c.shared.assign(shared_bytes, 0);
            c.local.assign(k.local_bytes * nthreads, 0);
            std::memset(c.bar_arrived, 0, sizeof c.bar_arrived);
            c.failed = false;
            c.insts = c.thread_insts = 0;
            for (int w = 0; w < nwarps; ++w) InitWarp(*warps[w], c, w, (uint32_t)nthreads);
            if (hz) hz->Reset(c);
            RunCtaWith(c, hz.get());
            my_insts += c.insts;
            my_tinsts += c.thread_insts;
            if (c.failed) {
                failed = true;
                std::lock_guard<std::mutex> g(err_mu);
                if (i < first_cta) first_cta = i, first_error = c.error;
                break;
            }
        }
        if (hz) hz->Flush(hazards, hazard_mu);
        if (cfg.coverage) {
            std::lock_guard<std::mutex> g(hazard_mu);
            for (size_t i = 0; i < executed.size(); ++i)
                if (executed[i]) covered.push_back(i * 16);
        }
        insts += my_insts;
        tinsts += my_tinsts;
    });
    if (stats) {
        stats->warp_instructions = insts.load();
        stats->thread_instructions = tinsts.load();
        stats->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        stats->hazards = std::move(hazards);
        std::sort(covered.begin(), covered.end());
        covered.erase(std::unique(covered.begin(), covered.end()), covered.end());
        stats->executed = std::move(covered);
    }
    if (failed) return first_error;
    return Status::Ok();
}

}  // namespace rndn::sassemu
