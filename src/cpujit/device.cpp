// The cpu device: LLJIT set-up, module loading and caching, memory registry, thread pool and the
// CTA scheduler that completes warp collectives and CTA barriers.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <thread>

#include <csetjmp>
#include <csignal>
#include <unordered_map>
#include <unordered_set>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <pthread.h>
#include <new>
#include <llvm/Support/ErrorHandling.h>

#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Transforms/InstCombine/InstCombine.h>
#include <llvm/Transforms/Scalar/ADCE.h>
#include <llvm/Transforms/Scalar/EarlyCSE.h>
#include <llvm/Transforms/Scalar/LICM.h>
#include <llvm/Transforms/Scalar/LoopPassManager.h>
#include <llvm/Transforms/Scalar/SROA.h>
#include <llvm/Transforms/Scalar/SimplifyCFG.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Target/TargetMachine.h>

#include "common/quiet_threads.h"
#include "cpujit/code_cache.h"
#include "cpujit/contiguity.h"
#include "cpujit/cpujit.h"
#include "cpujit/kir.h"
#include "cpujit/rt.h"
#include "cpujit/run_state.h"
#include "cpujit/translate.h"
#include "ptx/ptx.h"

namespace rndn::cpujit {

const Kernel *Module::Find(const std::string &name) const {
    for (auto &k : kernels_)
        if (k->name() == name) return k.get();
    return nullptr;
}

struct ModuleBuilder {
    static Kernel &Add(Module &m) {
        m.kernels_.push_back(std::unique_ptr<Kernel>(new Kernel()));
        return *m.kernels_.back();
    }
    static void Fill(Kernel &k, const KernelPlan &p) {
        k.name_ = p.name;
        k.params_ = p.params;
        k.param_bytes_ = p.param_bytes;
        k.static_shared_ = p.static_shared;
        k.local_bytes_ = p.local_bytes;
        k.frame_slots_ = p.frame_slots;
        k.check_sites_ = p.check_sites;
        k.cut_kinds_ = p.cut_kinds;
        k.cut_lines_ = p.cut_lines;
        k.line_ = p.line;
        k.lockstep_ = p.lockstep;
    }
    static std::vector<std::unique_ptr<uint8_t[]>> &Globals(Module &m) { return m.globals_; }
    static std::vector<std::pair<const uint8_t *, uint64_t>> &Ranges(Module &m) { return m.global_ranges_; }
    static void SetJitMs(Module &m, double v) { m.jit_ms_ = v; }
    static void SetFastTier(Module &m, bool v) { m.fast_tier_ = v; }
    static void SetCodeCacheKernels(Module &m, int v) { m.code_cache_kernels_ = v; }
    static void SetCtaFn(Kernel &k, int32_t (*fn)(void *)) { k.cta_fn_ = fn; }
    static void SetKernelJit(Kernel &k, double ms, int32_t (*fn)(void *)) {
        k.jit_ms_ = ms;
        k.fn_ = fn;
    }
};

namespace {

std::string ToString(llvm::Error e) {
    std::string s;
    llvm::handleAllErrors(std::move(e), [&](const llvm::ErrorInfoBase &info) { s += info.message(); });
    return s;
}

double MsSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// A fixed set of workers that all run the same job, created once and reused.
class Pool {
public:
    // Workers block every asynchronous signal (common/quiet_threads.h): a signal meant for the
    // process (a PostgreSQL backend's SIGINT, SIGALRM, SIGUSR1 ...) is taken by the thread that
    // owns it.
    explicit Pool(unsigned n) : n_(n) {
        WithAsyncSignalsBlocked([&] {
            for (unsigned i = 1; i < n_; ++i) threads_.emplace_back([this, i] { Loop(i); });
        });
    }
    ~Pool() {
        {
            std::lock_guard<std::mutex> g(mu_);
            stop_ = true;
            ++gen_;
        }
        cv_.notify_all();
        for (auto &t : threads_) t.join();
    }
    unsigned size() const { return n_; }
    // Runs job(worker) on every worker (the caller is worker 0) and waits for all.
    void Run(const std::function<void(unsigned)> &job) {
        std::lock_guard<std::mutex> run_guard(run_mu_);
        {
            std::lock_guard<std::mutex> g(mu_);
            job_ = &job;
            pending_ = n_ - 1;
            ++gen_;
        }
        cv_.notify_all();
        job(0);
        std::unique_lock<std::mutex> g(mu_);
        done_cv_.wait(g, [&] { return pending_ == 0; });
        job_ = nullptr;
    }

private:
    void Loop(unsigned id) {
        uint64_t seen = 0;
        while (true) {
            const std::function<void(unsigned)> *job;
            {
                std::unique_lock<std::mutex> g(mu_);
                cv_.wait(g, [&] { return gen_ != seen; });
                seen = gen_;
                if (stop_) return;
                job = job_;
            }
            (*job)(id);
            std::lock_guard<std::mutex> g(mu_);
            if (--pending_ == 0) done_cv_.notify_all();
        }
    }
    unsigned n_;
    std::vector<std::thread> threads_;
    std::mutex mu_, run_mu_;
    std::condition_variable cv_, done_cv_;
    const std::function<void(unsigned)> *job_ = nullptr;
    unsigned pending_ = 0;
    uint64_t gen_ = 0;
    bool stop_ = false;
};

enum : uint8_t { T_READY, T_WAIT, T_DONE };

// Per-worker buffers, reused across CTAs and launches.
struct Worker {
    std::vector<ThreadCtx> ctx;
    std::vector<uint64_t> frames;
    std::vector<uint8_t> local;
    std::vector<uint8_t> shared;
    std::vector<uint8_t> state;
    std::vector<int32_t> at;  // cut id a waiting thread stopped at
    std::vector<uint64_t> site_cache;  // 2 words per access site, reset at each launch
    uint64_t current_cta = 0;          // the CTA running (named when it faults)
};

const char *ErrText(ErrKind k) {
    switch (k) {
    case ErrKind::OOB_GLOBAL: return "out-of-bounds global memory access";
    case ErrKind::OOB_SHARED: return "out-of-bounds shared memory access";
    case ErrKind::OOB_LOCAL: return "out-of-bounds local memory access";
    case ErrKind::OOB_PARAM: return "out-of-bounds parameter access";
    case ErrKind::DIV_ZERO: return "integer division by zero";
    case ErrKind::TRAP: return "trap";
    default: return "error";
    }
}

std::string Where(const ThreadCtx &c) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "block (%u,%u,%u) thread (%u,%u,%u)", c.ctaid[0], c.ctaid[1], c.ctaid[2], c.tid[0],
                  c.tid[1], c.tid[2]);
    return buf;
}

}  // namespace

Status FailStatus(const Kernel &k, const ThreadCtx &c) {
    std::string what = ErrText((ErrKind)c.err_kind);
    char buf[200];
    if ((ErrKind)c.err_kind == ErrKind::OOB_GLOBAL) {
        bool st = (c.err_size >> 63) != 0;
        std::snprintf(buf, sizeof buf, " (%s of %llu bytes at 0x%llx)", st ? "store" : "load",
                      (unsigned long long)(c.err_size & ~(1ull << 63)), (unsigned long long)c.err_addr);
        what += buf;
    } else if ((ErrKind)c.err_kind != ErrKind::DIV_ZERO && (ErrKind)c.err_kind != ErrKind::TRAP) {
        std::snprintf(buf, sizeof buf, " (%llu bytes at offset %lld)", (unsigned long long)c.err_size,
                      (long long)c.err_addr);
        what += buf;
    }
    std::string msg = "kernel '" + k.name() + "': " + what + " at PTX line " + std::to_string(c.err_line) + ", " +
                      Where(c);
    if ((ErrKind)c.err_kind == ErrKind::DIV_ZERO) return Status::UserError(sqlstate::kDivisionByZero, msg);
    return Status::UserError(sqlstate::kInternalError, msg);
}

// Backstop for accesses that bounds checking does not cover (LaunchConfig::check_bounds off, or a
// wild generic address): a SIGSEGV/SIGBUS inside a CTA on a worker thread jumps back to the CTA
// runner, which reports the kernel.  Faults elsewhere go to the previously installed handler.
thread_local sigjmp_buf *tl_fault_jmp = nullptr;
thread_local uintptr_t tl_fault_addr = 0;
struct sigaction g_prev_segv, g_prev_bus;

void FaultHandler(int sig, siginfo_t *info, void *uctx) {
    if (tl_fault_jmp) {
        tl_fault_addr = (uintptr_t)info->si_addr;
        sigjmp_buf *jb = tl_fault_jmp;
        tl_fault_jmp = nullptr;
        siglongjmp(*jb, sig);
    }
    struct sigaction &prev = sig == SIGSEGV ? g_prev_segv : g_prev_bus;
    if (prev.sa_flags & SA_SIGINFO) {
        if (prev.sa_sigaction) return prev.sa_sigaction(sig, info, uctx);
    } else if (prev.sa_handler != SIG_IGN && prev.sa_handler != SIG_DFL) {
        return prev.sa_handler(sig);
    }
    sigaction(sig, &prev, nullptr);  // default action: re-raised when the instruction re-executes
}

void InstallFaultHandler() {
    static std::once_flag once;
    std::call_once(once, [] {
        struct sigaction sa;
        std::memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = FaultHandler;
        sa.sa_flags = SA_SIGINFO | SA_NODEFER | SA_ONSTACK;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGSEGV, &sa, &g_prev_segv);
        sigaction(SIGBUS, &sa, &g_prev_bus);
    });
}

// ---- embedding (SetEmbedded) ----
std::atomic<FatalErrorFn> g_fatal{nullptr};
std::atomic<FatalErrorFn> g_background_fatal{nullptr};
std::mutex g_section_mu;
int g_section_depth = 0;
std::new_handler g_prev_new_handler = nullptr;
thread_local bool t_compile_thread = false;  // a StartCompileThread thread
[[noreturn]] void LoseCompileThread(const char *reason);

// On the host's own threads the host's fatal function ends the process its way; a compile
// thread must not call into the host (not thread-safe): it is given up instead.
void LlvmFatal(void *, const char *reason, bool) {
    if (t_compile_thread) LoseCompileThread(reason);
    if (FatalErrorFn f = g_fatal.load()) f(reason);
    std::abort();  // the host's function does not return
}
void NewHandlerFatal() {
    if (t_compile_thread) LoseCompileThread("out of memory in LLVM (rndn cpu device)");
    if (FatalErrorFn f = g_fatal.load()) f("out of memory in LLVM (rndn cpu device)");
    std::abort();
}

// While cpujit calls LLVM in embedded mode: LLVM's fatal and bad-alloc handlers and the C++
// new-handler report to the host (nesting counted; put back when the outermost section ends).
class LlvmSection {
public:
    LlvmSection() : active_(g_fatal.load() != nullptr) {
        if (!active_) return;
        std::lock_guard<std::mutex> g(g_section_mu);
        if (g_section_depth++ == 0) {
            llvm::install_fatal_error_handler(LlvmFatal, nullptr);
            llvm::install_bad_alloc_error_handler(LlvmFatal, nullptr);
            g_prev_new_handler = std::set_new_handler(NewHandlerFatal);
        }
    }
    ~LlvmSection() {
        if (!active_) return;
        std::lock_guard<std::mutex> g(g_section_mu);
        if (--g_section_depth == 0) {
            std::set_new_handler(g_prev_new_handler);
            llvm::remove_bad_alloc_error_handler();
            llvm::remove_fatal_error_handler();
        }
    }
    LlvmSection(const LlvmSection &) = delete;
    LlvmSection &operator=(const LlvmSection &) = delete;

private:
    bool active_;
};

// The code cache on disk (SetCodeCache), shared by the full tiers of every device of the process.
DiskCodeCache g_code_cache;

// Compilations running on a helper thread (Device::Impl::Load with a cancel poller); waited for
// by ~Device and at process exit, which first asks them to stop (g_stop_compiles).
std::mutex g_compiles_mu;
std::condition_variable g_compiles_cv;
int g_compiles_running = 0;
std::atomic<bool> g_stop_compiles{false};
// A compile thread hit a fatal error inside LLVM (LoseCompileThread): it is parked, no longer
// counted, and may hold a tier's lock and LLVM state, so nothing waits for compiles any more
// and the process should end without running static destructors (StopCompiles returns false).
std::atomic<bool> g_compile_thread_lost{false};

void WaitForCompiles() {
    std::unique_lock<std::mutex> g(g_compiles_mu);
    g_compiles_cv.wait(g, [] { return g_compiles_running == 0 || g_compile_thread_lost.load(); });
}

void LoseCompileThread(const char *reason) {
    const std::string msg = std::string("rndn cpu device: fatal error in LLVM on a background compile thread: ") + reason + "\n";
    (void)!write(2, msg.data(), msg.size());
    {
        std::lock_guard<std::mutex> g(g_compiles_mu);
        g_compile_thread_lost.store(true);
        g_stop_compiles.store(true);
        --g_compiles_running;
        g_compiles_cv.notify_all();
    }
    if (FatalErrorFn f = g_background_fatal.load()) f(reason);  // returns: the host ends itself
    for (;;) std::this_thread::sleep_for(std::chrono::hours(1));
}

// Runs body() on a detached thread that blocks every asynchronous signal (the host's signals
// stay with its own threads) and is counted in g_compiles_running until body returns; the first
// such thread registers the process-exit wait.  False when no thread could be started.
bool StartCompileThread(std::function<void()> body) {
    {
        std::lock_guard<std::mutex> g(g_compiles_mu);
        if (g_stop_compiles.load()) return false;  // StopCompiles: the process is ending
        static std::once_flag at_exit;
        std::call_once(at_exit, [] { std::atexit([] { (void)StopCompiles(); }); });
        ++g_compiles_running;
    }
    bool started = true;
    try {
        WithAsyncSignalsBlocked([&] {
            std::thread([body = std::move(body)] {
                t_compile_thread = true;
                body();
                std::lock_guard<std::mutex> g(g_compiles_mu);
                if (--g_compiles_running == 0) g_compiles_cv.notify_all();
            }).detach();
        });
    } catch (...) {
        started = false;
        std::lock_guard<std::mutex> g(g_compiles_mu);
        if (--g_compiles_running == 0) g_compiles_cv.notify_all();
    }
    return started;
}

// One LLVM JIT at one code-generation level.  Each tier compiles one module at a time (its `mu`
// is held across the LLVM work, never together with Impl::mu).
struct JitTier {
    std::mutex mu;
    std::unique_ptr<llvm::orc::LLJIT> jit;
    std::unique_ptr<llvm::TargetMachine> tm;
};

struct Device::Impl {
    std::mutex mu;  // cache, module_counter and the upgrade queue
    // Tiered compilation: a module not in the cache is first compiled by `fast` (LLVM's
    // code generation at -O0: fast instruction selection, about 2.5x less compile time, kernels
    // 1-2x slower), returned at once, and queued for `full` (-O2 code generation), which a
    // background thread compiles; the cache entry is then replaced, so the next lookup (the next
    // run of the query's shape) gets the faster code.  The results are the same: both compile the
    // same optimised IR.  RNDN_CPUJIT_TIERS=1 (or a host that does not ask for tiers) compiles
    // with `full` only, on the calling thread.
    JitTier full, fast;
    bool tiered = false;
    std::deque<std::pair<std::string, std::string>> upgrades;  // (key, PTX text) for `full`
    std::unordered_set<std::string> queued;  // keys in `upgrades` or being compiled from it
    bool upgrader_running = false;
    std::atomic<bool> stopping{false};  // ~Device: the upgrader stops at its next stage boundary
    std::condition_variable upgrades_cv;  // upgrader_running became false
    Status init_status;
    // RNDN_CPUJIT_LOCKSTEP=0 runs every kernel thread by thread (for comparisons and tests)
    bool lockstep = [] {
        const char *e = std::getenv("RNDN_CPUJIT_LOCKSTEP");
        return !(e && e[0] == '0');
    }();
    std::unordered_map<std::string, std::shared_ptr<const Module>> cache;
    int module_counter = 0;
    std::mutex mem_mu;
    std::map<uint64_t, uint64_t> regions;  // begin -> end
    std::map<void *, size_t> owned;
    std::unique_ptr<Pool> pool;
    std::vector<Worker> workers;

    Status InitJit();
    Status InitTier(JitTier &t, llvm::CodeGenOpt::Level level);
    // What names a module's code in the code cache on disk besides its text: tier and translation mode.
    std::string DiskKey(const JitTier &t, const std::string &key) const {
        return std::string(&t == &fast ? "O0\n" : "O2\n") + (lockstep ? "lockstep\n" : "threads\n") + key;
    }
    void QueueUpgrade(const std::string &key, const std::string &text);
    void RunUpgrades();
    // if_ready (LoadModuleIfReady): a module that would have to be compiled is queued for the
    // background thread instead, and the result is nullptr.
    Expected<std::shared_ptr<const Module>> Load(const std::string &key, const std::string *text, const ptx::Module *ir,
                                                 const std::function<bool()> *cancel = nullptr, bool if_ready = false);
    // The compilation itself; `stop` (when set) is polled between the stages of each kernel.
    Expected<std::shared_ptr<const Module>> Compile(const std::string &key, const std::string *text, const ptx::Module *ir,
                                                    const std::atomic<bool> *stop, JitTier &tier, bool replace = false);
    void Optimize(llvm::Module &m, llvm::TargetMachine &tm);
    Status RunCta(const Kernel &k, const LaunchConfig &cfg, const uint8_t *params, RunState &run, Worker &w,
                  uint64_t cta);
    bool ResolveWarp(const Kernel &k, Worker &w, uint32_t first, uint32_t count);
    // RunCta under the fault backstop.  Only trivially destructible state lives in RunCta's frame
    // while kernel code runs, so jumping out of it skips no destructor.
    // Runs CTAs [begin, end) under one fault guard.
    Status GuardedCtas(const Kernel &k, const LaunchConfig &cfg, const uint8_t *params, RunState &run, Worker &w,
                       uint64_t begin, uint64_t end) {
        sigjmp_buf jb;
        if (sigsetjmp(jb, 0) != 0) {
            uint64_t cta = w.current_cta;
            char buf[64];
            std::snprintf(buf, sizeof buf, "0x%llx", (unsigned long long)tl_fault_addr);
            const Dim3 &g = cfg.grid;
            std::string where = "block (" + std::to_string(cta % g.x) + "," + std::to_string((cta / g.x) % g.y) + "," +
                                std::to_string(cta / ((uint64_t)g.x * g.y)) + ")";
            return Status::UserError(sqlstate::kInternalError, "kernel '" + k.name() + "': memory fault at " + buf +
                                                                   " in " + where);
        }
        tl_fault_jmp = &jb;
        Status st;
        for (uint64_t cta = begin; cta < end && st.ok(); ++cta) {
            w.current_cta = cta;
            st = RunCta(k, cfg, params, run, w, cta);
        }
        tl_fault_jmp = nullptr;
        return st;
    }
};

Status Device::Impl::InitJit() {
    LlvmSection llvm_section;
    static std::once_flag once;
    std::call_once(once, [] {
        llvm::InitializeNativeTarget();
        llvm::InitializeNativeTargetAsmPrinter();
    });
    // Tiers: inside a host (PostgreSQL: Embedded()) by default; RNDN_CPUJIT_TIERS=1 or 2 decides.
    tiered = Embedded();
    if (const char *e = std::getenv("RNDN_CPUJIT_TIERS"); e && (e[0] == '1' || e[0] == '2')) tiered = e[0] == '2';
    RNDN_RETURN_IF_ERROR(InitTier(full, llvm::CodeGenOpt::Default));
    if (tiered) RNDN_RETURN_IF_ERROR(InitTier(fast, llvm::CodeGenOpt::None));
    return Status::Ok();
}

Status Device::Impl::InitTier(JitTier &t, llvm::CodeGenOpt::Level level) {
    auto jtmb = llvm::orc::JITTargetMachineBuilder::detectHost();
    if (!jtmb) return Status::Internal("cpujit: " + ToString(jtmb.takeError()));
    jtmb->setCodeGenOptLevel(level);
    auto tm_or = jtmb->createTargetMachine();
    if (!tm_or) return Status::Internal("cpujit: " + ToString(tm_or.takeError()));
    t.tm = std::move(*tm_or);
    llvm::orc::LLJITBuilder builder;
    builder.setJITTargetMachineBuilder(*jtmb);
    // both tiers read and fill the code cache on disk (each under its own ids)
    builder.setCompileFunctionCreator([](llvm::orc::JITTargetMachineBuilder b)
                                              -> llvm::Expected<std::unique_ptr<llvm::orc::IRCompileLayer::IRCompiler>> {
            return std::make_unique<llvm::orc::ConcurrentIRCompiler>(std::move(b), &g_code_cache);
        });
    auto j = builder.create();
    if (!j) return Status::Internal("cpujit: cannot create LLJIT: " + ToString(j.takeError()));
    t.jit = std::move(*j);
    llvm::orc::LLJIT *jit = t.jit.get();
    auto &jd = jit->getMainJITDylib();
    auto gen = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(jit->getDataLayout().getGlobalPrefix());
    if (!gen) return Status::Internal("cpujit: " + ToString(gen.takeError()));
    jd.addGenerator(std::move(*gen));
    llvm::orc::SymbolMap syms;
    auto add = [&](const char *name, void *p) {
        syms[jit->mangleAndIntern(name)] =
            llvm::JITEvaluatedSymbol(llvm::pointerToJITTargetAddress(p), llvm::JITSymbolFlags::Exported);
    };
    add("rndn_cj_check", (void *)&rndn_cj_check);
    add("rndn_cj_fail", (void *)&rndn_cj_fail);
    add("rndn_cj_fail_lane", (void *)&rndn_cj_fail_lane);
    add("rndn_cj_check_warp", (void *)&rndn_cj_check_warp);
    add("rndn_cj_clock64", (void *)&rndn_cj_clock64);
    add("rndn_cj_globaltimer", (void *)&rndn_cj_globaltimer);
    add("rndn_cj_f32_op", (void *)&rndn_cj_f32_op);
    add("rndn_cj_f64_op", (void *)&rndn_cj_f64_op);
    add("rndn_cj_cvt_f32_i64", (void *)&rndn_cj_cvt_f32_i64);
    add("rndn_cj_cvt_f64_i64", (void *)&rndn_cj_cvt_f64_i64);
    add("rndn_cj_prmt", (void *)&rndn_cj_prmt);
    add("rndn_cj_bfe", (void *)&rndn_cj_bfe);
    add("rndn_cj_bfi", (void *)&rndn_cj_bfi);
    add("rndn_cj_atom_inc", (void *)&rndn_cj_atom_inc);
    add("rndn_cj_atom_dec", (void *)&rndn_cj_atom_dec);
    if (auto e = jd.define(llvm::orc::absoluteSymbols(std::move(syms))))
        return Status::Internal("cpujit: " + ToString(std::move(e)));
    return Status::Ok();
}

// The generated code is already in SSA form over whole-warp vectors, with every helper call
// out of line, so the O2 module pipeline (inliner, loop unrolling, loop and SLP vectorisers, ...)
// mostly spends time finding nothing to do: it took about a third of the JIT time of a kernel.
// This function pipeline keeps what matters for the translated code (scalar replacement of the
// register slots, CSE of the per-lane index arithmetic, combining the masks and selects, loop
// invariant hoisting of parameter loads and region bounds) and runs each pass once; the
// contiguity checks are lowered as soon as the code is in SSA form (contiguity.h).
void Device::Impl::Optimize(llvm::Module &m, llvm::TargetMachine &tm) {
    llvm::LoopAnalysisManager lam;
    llvm::FunctionAnalysisManager fam;
    llvm::CGSCCAnalysisManager cam;
    llvm::ModuleAnalysisManager mam;
    llvm::PassBuilder pb(&tm);
    pb.registerModuleAnalyses(mam);
    pb.registerCGSCCAnalyses(cam);
    pb.registerFunctionAnalyses(fam);
    pb.registerLoopAnalyses(lam);
    pb.crossRegisterProxies(lam, fam, cam, mam);
    llvm::FunctionPassManager ssa;
    ssa.addPass(llvm::SROAPass());
    ssa.addPass(llvm::EarlyCSEPass(/*UseMemorySSA=*/true));
    llvm::ModulePassManager first;
    first.addPass(llvm::createModuleToFunctionPassAdaptor(std::move(ssa)));
    first.run(m, mam);
    LowerContiguityChecks(m);
    llvm::FunctionPassManager fpm;
    fpm.addPass(llvm::SimplifyCFGPass());
    fpm.addPass(llvm::InstCombinePass());
    fpm.addPass(llvm::createFunctionToLoopPassAdaptor(llvm::LICMPass(), /*UseMemorySSA=*/true));
    fpm.addPass(llvm::InstCombinePass());
    fpm.addPass(llvm::SimplifyCFGPass());
    fpm.addPass(llvm::ADCEPass());
    llvm::ModulePassManager mpm;
    mpm.addPass(llvm::createModuleToFunctionPassAdaptor(std::move(fpm)));
    mpm.run(m, mam);
    // Debugging aid: RNDN_CPUJIT_DUMP_IR=1 prints every optimised kernel module to stderr.
    if (const char *dump = std::getenv("RNDN_CPUJIT_DUMP_IR"); dump && dump[0] == '1') m.print(llvm::errs(), nullptr);
}

// LLVM's code generation of one big kernel takes seconds and cannot be stopped inside, so a
// load with a cancel poller compiles on a helper thread (all asynchronous signals blocked; it
// calls nothing of the host) while the calling thread polls every 10 ms.  On cancel the caller
// returns CANCELLED at once and sets the job's stop flag; the helper stops at its next stage
// boundary (or, past the last one, still caches the module it finished).
Expected<std::shared_ptr<const Module>> Device::Impl::Load(const std::string &key, const std::string *text,
                                                           const ptx::Module *ir, const std::function<bool()> *cancel, bool if_ready) {
    {
        std::lock_guard<std::mutex> g(mu);
        auto it = cache.find(key);
        if (it != cache.end()) return it->second;
        RNDN_RETURN_IF_ERROR(init_status);
    }
    // a thread given up inside LLVM may hold a tier's lock: no compile would finish
    if (g_compile_thread_lost.load()) return Status::Internal("cpujit: a compile thread failed inside LLVM; no more compiles in this process");
    // the code cache on disk has the module's -O2 code: it loads without compiling
    const bool on_disk = text != nullptr && g_code_cache.enabled() && g_code_cache.HasModule(g_code_cache.ModuleId(DiskKey(full, key)));
    if (if_ready && !on_disk) {
        if (text != nullptr) QueueUpgrade(key, *text);
        return std::shared_ptr<const Module>();
    }
    // the first compilation: -O0 code generation when tiered (then queued for -O2), except
    // from disk and after StopCompiles (no upgrade could follow)
    const bool first_fast = tiered && text != nullptr && !g_stop_compiles.load() && !on_disk;
    JitTier &first = first_fast ? fast : full;
    if (cancel == nullptr || !*cancel || text == nullptr) {
        auto r = Compile(key, text, ir, nullptr, first);
        if (r.ok() && first_fast) QueueUpgrade(key, *text);
        return r;
    }
    if ((*cancel)()) return Status::Cancelled();
    struct Job {
        std::mutex m;
        std::condition_variable cv;
        bool done = false;
        std::atomic<bool> stop{false};
        Expected<std::shared_ptr<const Module>> result = Status::Internal("cpujit: compilation did not finish");
        std::string key, text;
    };
    auto job = std::make_shared<Job>();
    job->key = key;
    job->text = *text;
    JitTier *tier = &first;
    const bool started = StartCompileThread([this, job, first_fast, tier] {
        auto r = Compile(job->key, &job->text, nullptr, &job->stop, *tier);
        if (r.ok() && first_fast) QueueUpgrade(job->key, job->text);
        {
            std::lock_guard<std::mutex> g(job->m);
            job->result = std::move(r);
            job->done = true;
        }
        job->cv.notify_all();
    });
    if (!started) return Status::Internal("cpujit: could not start a compile thread");
    std::unique_lock<std::mutex> g(job->m);
    while (!job->cv.wait_for(g, std::chrono::milliseconds(10), [&] { return job->done; })) {
        g.unlock();
        const bool stop = (*cancel)();
        g.lock();
        if (stop && !job->done) {
            job->stop.store(true);
            return Status::Cancelled();
        }
    }
    return job->result;
}

// Queues a module compiled by the fast tier for the full tier; one background thread (all
// asynchronous signals blocked, no host call) works through the queue and replaces each cache
// entry when its -O2 code is ready.  Counted in g_compiles_running, so ~Device and process exit
// wait for it (after asking it to stop: `stopping`, g_stop_compiles).
void Device::Impl::QueueUpgrade(const std::string &key, const std::string &text) {
    {
        std::lock_guard<std::mutex> g(mu);
        if (stopping.load()) return;
        if (!queued.insert(key).second) return;  // already queued
        upgrades.emplace_back(key, text);
        if (upgrader_running) return;
        upgrader_running = true;
    }
    if (!StartCompileThread([this] { RunUpgrades(); })) {
        std::lock_guard<std::mutex> g(mu);
        upgrades.clear();
        queued.clear();
        upgrader_running = false;
        upgrades_cv.notify_all();
    }
}

void Device::Impl::RunUpgrades() {
    // below the host's threads: the upgrades use idle cores and yield to queries and first compiles
    (void)setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), 10);
    for (;;) {
        std::pair<std::string, std::string> job;
        {
            std::lock_guard<std::mutex> g(mu);
            if (upgrades.empty() || stopping.load() || g_stop_compiles.load()) {
                upgrades.clear();
                queued.clear();
                upgrader_running = false;
                upgrades_cv.notify_all();
                break;
            }
            job = std::move(upgrades.front());
            upgrades.pop_front();
        }
        // a failure leaves the fast tier's module in the cache (same results, slower code)
        (void)Compile(job.first, &job.second, nullptr, &stopping, full, /*replace=*/true);
        std::lock_guard<std::mutex> g(mu);
        queued.erase(job.first);
    }
}

Expected<std::shared_ptr<const Module>> Device::Impl::Compile(const std::string &key, const std::string *text,
                                                              const ptx::Module *ir, const std::atomic<bool> *stop,
                                                              JitTier &tier, bool replace) {
    std::lock_guard<std::mutex> jg(tier.mu);
    LlvmSection llvm_section;
    llvm::orc::LLJIT *jit = tier.jit.get();
    llvm::TargetMachine *tm = tier.tm.get();
    if (!replace) {
        std::lock_guard<std::mutex> g(mu);  // compiled meanwhile by an earlier (abandoned) load?
        auto it = cache.find(key);
        if (it != cache.end()) return it->second;
    }
    auto t0 = std::chrono::steady_clock::now();
    ptx::Module parsed;
    if (text) {
        RNDN_ASSIGN_OR_RETURN(parsed, ptx::ParseModule(*text, "<ptx>"));
        ir = &parsed;
    }
    RNDN_ASSIGN_OR_RETURN(kir::Module km, kir::FromPtx(*ir));
    auto mod = std::make_shared<Module>();
    GlobalAddrs addrs;
    for (auto &v : km.vars) {
        if (v.space == "shared") continue;
        size_t n = std::max<uint64_t>(v.size, 1);
        auto buf = std::unique_ptr<uint8_t[]>(new uint8_t[n + 64]);
        uint8_t *p = buf.get();
        p += (64 - ((uintptr_t)p & 63)) & 63;
        std::memset(p, 0, n);
        if (!v.init.empty()) std::memcpy(p, v.init.data(), std::min<size_t>(v.init.size(), n));
        addrs[v.name] = (uint64_t)(uintptr_t)p;
        ModuleBuilder::Ranges(*mod).push_back({p, v.size});
        ModuleBuilder::Globals(*mod).push_back(std::move(buf));
    }
    int module_id;
    {
        std::lock_guard<std::mutex> g(mu);
        module_id = ++module_counter;
    }
    auto jd_or = jit->createJITDylib("rndn_m" + std::to_string(module_id));
    if (!jd_or) return Status::Internal("cpujit: " + ToString(jd_or.takeError()));
    llvm::orc::JITDylib &jd = *jd_or;
    jd.addToLinkOrder(jit->getMainJITDylib());
    // A stopped compilation removes its dylib (the modules added to it, compiled or not).
    auto cancelled = [&]() -> bool {
        if (stop == nullptr || !(stop->load() || g_stop_compiles.load())) return false;
        llvm::consumeError(jit->getExecutionSession().removeJITDylib(jd));
        return true;
    };
    // The code cache on disk: kernels of modules without module-scope variables (their addresses
    // are in the code), keyed by the tier, the translation mode, the module's text and the kernel.
    const bool disk = g_code_cache.enabled() && addrs.empty();
    const std::string disk_key = disk ? DiskKey(tier, key) : std::string();
    int from_disk = 0;
    for (auto &f : km.functions) {
        if (!f.is_entry) continue;
        if (cancelled()) return Status::Cancelled();
        auto tk = std::chrono::steady_clock::now();
        RNDN_ASSIGN_OR_RETURN(kir::Function flat, InlineCalls(km, f));
        auto ctx = std::make_unique<llvm::LLVMContext>();
        // "rc_<id>": a module the code cache on disk may supply or keep (DiskCodeCache)
        std::string disk_id = disk ? g_code_cache.KernelId(disk_key, f.name) : std::string();
        auto lm = std::make_unique<llvm::Module>(disk ? "rc_" + disk_id : "rndn_" + f.name, *ctx);
        lm->setDataLayout(jit->getDataLayout());
        lm->setTargetTriple(tm->getTargetTriple().str());
        RNDN_ASSIGN_OR_RETURN(KernelPlan plan, TranslateKernel(km, flat, addrs, *lm, lockstep));
        const double translate_ms = MsSince(tk);
        if (cancelled()) return Status::Cancelled();
        // an object read (and checked) now is what the compile layer gets: no optimisation needed
        if (disk && g_code_cache.Preload(disk_id)) ++from_disk;
        else Optimize(*lm, *tm);
        const double optimize_ms = MsSince(tk) - translate_ms;
        if (cancelled()) return Status::Cancelled();
        if (auto e = jit->addIRModule(jd, llvm::orc::ThreadSafeModule(std::move(lm), std::move(ctx))))
            return Status::Internal("cpujit: " + ToString(std::move(e)));
        auto sym = jit->lookup(jd, plan.symbol);
        // Debugging aid: RNDN_CPUJIT_STAGES=1 prints each kernel's translate / optimise / codegen ms.
        if (const char *st = std::getenv("RNDN_CPUJIT_STAGES"); st && st[0] == '1')
            std::fprintf(stderr, "cpujit %s: translate %.1f ms, optimise %.1f ms, codegen %.1f ms\n", f.name.c_str(), translate_ms,
                         optimize_ms, MsSince(tk) - translate_ms - optimize_ms);
        if (!sym) return Status::Internal("cpujit: kernel " + f.name + ": " + ToString(sym.takeError()));
        Kernel &k = ModuleBuilder::Add(*mod);
        ModuleBuilder::Fill(k, plan);
        if (!plan.cta_symbol.empty()) {
            auto cta = jit->lookup(jd, plan.cta_symbol);
            if (!cta) return Status::Internal("cpujit: kernel " + f.name + ": " + ToString(cta.takeError()));
            ModuleBuilder::SetCtaFn(k, reinterpret_cast<int32_t (*)(void *)>(cta->getAddress()));
        }
        ModuleBuilder::SetKernelJit(k, MsSince(tk), reinterpret_cast<int32_t (*)(void *)>(sym->getAddress()));
    }
    ModuleBuilder::SetJitMs(*mod, MsSince(t0));
    ModuleBuilder::SetFastTier(*mod, &tier == &fast);
    ModuleBuilder::SetCodeCacheKernels(*mod, from_disk);
    // the marker once every kernel is on disk: not rewritten when they all came from there
    if (disk && from_disk < static_cast<int>(mod->kernels().size())) g_code_cache.MarkModule(g_code_cache.ModuleId(disk_key));
    std::shared_ptr<const Module> cm = mod;
    std::lock_guard<std::mutex> g(mu);
    cache[key] = cm;
    return cm;
}

// Completes the warp collectives whose lanes have all arrived.  Returns true if any lane resumed.
bool Device::Impl::ResolveWarp(const Kernel &k, Worker &w, uint32_t first, uint32_t count) {
    uint32_t live = 0, waiting = 0;
    for (uint32_t l = 0; l < count; ++l) {
        uint8_t s = w.state[first + l];
        if (s == T_READY) return false;
        if (s != T_DONE) live |= 1u << l;
        if (s == T_WAIT && !IsCtaBarrier((CutKind)k.cut_kinds_[w.at[first + l] - 1])) waiting |= 1u << l;
    }
    bool any = false;
    uint32_t handled = 0;
    for (uint32_t l = 0; l < count; ++l) {
        if (!((waiting >> l) & 1) || ((handled >> l) & 1)) continue;
        ThreadCtx &c0 = w.ctx[first + l];
        int cut = w.at[first + l];
        CutKind kind = (CutKind)k.cut_kinds_[cut - 1];
        uint32_t group = 0;
        for (uint32_t j = l; j < count; ++j) {
            if (!((waiting >> j) & 1) || ((handled >> j) & 1)) continue;
            ThreadCtx &cj = w.ctx[first + j];
            int cutj = w.at[first + j];
            bool same;
            if (kind == CutKind::BAR_WARP)
                same = (CutKind)k.cut_kinds_[cutj - 1] == CutKind::BAR_WARP && cj.coll_mask == c0.coll_mask;
            else if (kind == CutKind::ACTIVEMASK)
                same = cutj == cut;
            else
                same = cutj == cut && cj.coll_mask == c0.coll_mask;
            if (same) group |= 1u << j;
        }
        handled |= group;
        uint32_t lane_mask_full = count == 32 ? ~0u : ((1u << count) - 1);
        uint32_t required = kind == CutKind::ACTIVEMASK ? group : (c0.coll_mask & live & lane_mask_full);
        if ((required & ~group) != 0) continue;  // some named lane has not arrived (yet)
        // all present: compute the collective
        auto lanes = [&](auto fn) {
            for (uint32_t j = 0; j < count; ++j)
                if ((group >> j) & 1) fn(j, w.ctx[first + j]);
        };
        switch (kind) {
        case CutKind::SHFL_UP:
        case CutKind::SHFL_DOWN:
        case CutKind::SHFL_BFLY:
        case CutKind::SHFL_IDX: {
            uint64_t vals[32];
            lanes([&](uint32_t j, ThreadCtx &c) { vals[j] = c.coll_a; });
            lanes([&](uint32_t lane, ThreadCtx &c) {
                uint32_t b = (uint32_t)c.coll_b & 31, cc = (uint32_t)c.coll_c & 31;
                uint32_t segmask = ((uint32_t)c.coll_c >> 8) & 31;
                uint32_t max_lane = (lane & segmask) | (cc & ~segmask);
                uint32_t min_lane = lane & segmask;
                int32_t j;
                bool p;
                if (kind == CutKind::SHFL_UP) {
                    j = (int32_t)lane - (int32_t)b;
                    p = j >= (int32_t)max_lane;
                } else if (kind == CutKind::SHFL_DOWN) {
                    j = (int32_t)(lane + b);
                    p = j <= (int32_t)max_lane;
                } else if (kind == CutKind::SHFL_BFLY) {
                    j = (int32_t)(lane ^ b);
                    p = j <= (int32_t)max_lane;
                } else {
                    j = (int32_t)(min_lane | (b & ~segmask));
                    p = j <= (int32_t)max_lane;
                }
                if (!p) j = (int32_t)lane;
                bool src_ok = j >= 0 && j < 32 && ((group >> j) & 1);
                c.coll_r = src_ok ? vals[j] : vals[lane];
                c.coll_p = p;
            });
            break;
        }
        case CutKind::VOTE_ALL:
        case CutKind::VOTE_ANY:
        case CutKind::VOTE_UNI:
        case CutKind::VOTE_BALLOT: {
            uint32_t ballot = 0;
            lanes([&](uint32_t j, ThreadCtx &c) { ballot |= (c.coll_p ? 1u : 0u) << j; });
            uint64_t r = kind == CutKind::VOTE_BALLOT ? ballot
                         : kind == CutKind::VOTE_ALL  ? (ballot == group)
                         : kind == CutKind::VOTE_ANY  ? (ballot != 0)
                                                      : (ballot == group || ballot == 0);
            lanes([&](uint32_t, ThreadCtx &c) { c.coll_r = r; });
            break;
        }
        case CutKind::MATCH_ANY: {
            lanes([&](uint32_t, ThreadCtx &c) {
                uint32_t m = 0;
                lanes([&](uint32_t j, ThreadCtx &o) { m |= (o.coll_a == c.coll_a ? 1u : 0u) << j; });
                c.coll_r = m;
            });
            break;
        }
        case CutKind::MATCH_ALL: {
            bool all = true;
            lanes([&](uint32_t, ThreadCtx &c) { all &= c.coll_a == c0.coll_a; });
            lanes([&](uint32_t, ThreadCtx &c) {
                c.coll_r = all ? group : 0;
                c.coll_p = all;
            });
            break;
        }
        case CutKind::ACTIVEMASK:
            lanes([&](uint32_t, ThreadCtx &c) { c.coll_r = group; });
            break;
        default:
            break;
        }
        lanes([&](uint32_t j, ThreadCtx &) { w.state[first + j] = T_READY; });
        any = true;
    }
    return any;
}

Status Device::Impl::RunCta(const Kernel &k, const LaunchConfig &cfg, const uint8_t *params, RunState &run, Worker &w,
                            uint64_t cta) {
    const Dim3 &b = cfg.block, &g = cfg.grid;
    uint32_t n = b.x * b.y * b.z;
    uint64_t shared_bytes = k.static_shared_ + cfg.dynamic_shared;
    if (w.ctx.size() < n) {
        w.ctx.resize(n);
        w.state.resize(n);
        w.at.resize(n);
    }
    if (w.frames.size() < (size_t)n * k.frame_slots_) w.frames.resize((size_t)n * k.frame_slots_);
    if (w.local.size() < n * k.local_bytes_) w.local.resize(n * k.local_bytes_);
    if (w.shared.size() < shared_bytes + 64) w.shared.resize(shared_bytes + 64);
    uint8_t *shared = w.shared.data();
    shared += (64 - ((uintptr_t)shared & 63)) & 63;
    std::memset(shared, 0, shared_bytes);
    if (k.local_bytes_) std::memset(w.local.data(), 0, n * k.local_bytes_);
    uint32_t cx = (uint32_t)(cta % g.x), cy = (uint32_t)((cta / g.x) % g.y), cz = (uint32_t)(cta / ((uint64_t)g.x * g.y));
    uint32_t nwarps = (n + 31) / 32;
    if (k.cta_fn_) {  // no synchronisation points: one context, the generated loop runs every thread
        ThreadCtx &c = w.ctx[0];
        std::memset(&c, 0, sizeof c);
        c.ntid[0] = b.x;
        c.ntid[1] = b.y;
        c.ntid[2] = b.z;
        c.ctaid[0] = cx;
        c.ctaid[1] = cy;
        c.ctaid[2] = cz;
        c.nctaid[0] = g.x;
        c.nctaid[1] = g.y;
        c.nctaid[2] = g.z;
        c.nwarpid = nwarps;
        c.shared = shared;
        c.local_base = w.local.data();
        c.params = params;
        c.frame = w.frames.data();
        c.run = &run;
        c.shared_size = shared_bytes;
        c.local_size = k.local_bytes_;
        c.dyn_shared = cfg.dynamic_shared;
        c.site_cache = w.site_cache.data();
        c.tid_tab = run.tid_tab.data();
        if (k.cta_fn_(&c) != 0) return FailStatus(k, c);
        return Status::Ok();
    }
    for (uint32_t t = 0; t < n; ++t) {
        ThreadCtx &c = w.ctx[t];
        std::memset(&c, 0, sizeof c);
        c.tid[0] = t % b.x;
        c.tid[1] = (t / b.x) % b.y;
        c.tid[2] = t / (b.x * b.y);
        c.ntid[0] = b.x;
        c.ntid[1] = b.y;
        c.ntid[2] = b.z;
        c.ctaid[0] = cx;
        c.ctaid[1] = cy;
        c.ctaid[2] = cz;
        c.nctaid[0] = g.x;
        c.nctaid[1] = g.y;
        c.nctaid[2] = g.z;
        c.laneid = t % 32;
        c.warpid = t / 32;
        c.nwarpid = nwarps;
        c.shared = shared;
        c.local = w.local.data() + (size_t)t * k.local_bytes_;
        c.params = params;
        c.frame = w.frames.data() + (size_t)t * k.frame_slots_;
        c.run = &run;
        c.shared_size = shared_bytes;
        c.local_size = k.local_bytes_;
        c.dyn_shared = cfg.dynamic_shared;
        c.site_cache = w.site_cache.data();
        w.state[t] = T_READY;
    }
    auto fail = [&](const ThreadCtx &c) { return FailStatus(k, c); };
    while (true) {
        for (uint32_t wi = 0; wi < nwarps; ++wi) {
            uint32_t first = wi * 32, count = std::min<uint32_t>(32, n - first);
            do {
                for (uint32_t t = first; t < first + count; ++t) {
                    if (w.state[t] != T_READY) continue;
                    int32_t rc = k.fn_(&w.ctx[t]);
                    if (rc == 0) {
                        w.state[t] = T_DONE;
                    } else if (rc < 0) {
                        return fail(w.ctx[t]);
                    } else {
                        w.state[t] = T_WAIT;
                        w.at[t] = rc;
                    }
                }
            } while (ResolveWarp(k, w, first, count));
        }
        // every thread has exited or waits: release a CTA barrier if all live threads reached one
        bool all_done = true, all_bar = true;
        int stuck = -1;
        for (uint32_t t = 0; t < n; ++t) {
            if (w.state[t] == T_DONE) continue;
            all_done = false;
            if (!IsCtaBarrier((CutKind)k.cut_kinds_[w.at[t] - 1])) {
                all_bar = false;
                if (stuck < 0) stuck = (int)t;
            }
        }
        if (all_done) return Status::Ok();
        if (all_bar) {
            // bar.red: reduce the predicates of the threads at a reduction barrier of each kind
            uint64_t count[3] = {0, 0, 0}, arrived[3] = {0, 0, 0};
            for (uint32_t t = 0; t < n; ++t) {
                if (w.state[t] != T_WAIT) continue;
                int kk = (int)k.cut_kinds_[w.at[t] - 1] - (int)CutKind::BAR_RED_POPC;
                if (kk >= 0) {
                    ++arrived[kk];
                    count[kk] += w.ctx[t].coll_p != 0;
                }
            }
            for (uint32_t t = 0; t < n; ++t) {
                if (w.state[t] != T_WAIT) continue;
                int kk = (int)k.cut_kinds_[w.at[t] - 1] - (int)CutKind::BAR_RED_POPC;
                if (kk == 0) w.ctx[t].coll_r = count[0];
                else if (kk == 1) w.ctx[t].coll_r = count[1] == arrived[1];
                else if (kk == 2) w.ctx[t].coll_r = count[2] != 0;
                w.state[t] = T_READY;
            }
            continue;
        }
        // deadlock: some threads wait at a barrier or collective that can never complete
        int bar_t = -1;
        for (uint32_t t = 0; t < n; ++t)
            if (w.state[t] == T_WAIT && IsCtaBarrier((CutKind)k.cut_kinds_[w.at[t] - 1])) bar_t = (int)t;
        const ThreadCtx &c = w.ctx[stuck];
        std::string msg = "kernel '" + k.name_ + "': deadlock: " + Where(c) + " waits at the warp collective on PTX line " +
                          std::to_string(k.cut_lines_[w.at[stuck] - 1]);
        if (bar_t >= 0)
            msg += " while " + Where(w.ctx[bar_t]) + " waits at the barrier on PTX line " +
                   std::to_string(k.cut_lines_[w.at[bar_t] - 1]);
        else
            msg += " whose named lanes never arrive";
        return Status::UserError(sqlstate::kInternalError, msg);
    }
}

Device::Device(unsigned worker_threads) : impl_(std::make_unique<Impl>()) {
    unsigned n = worker_threads ? worker_threads : std::max(1u, std::thread::hardware_concurrency());
    impl_->pool = std::make_unique<Pool>(n);
    impl_->workers.resize(n);
    impl_->init_status = impl_->InitJit();
    if (!Embedded()) InstallFaultHandler();
}

void SetEmbedded(FatalErrorFn fatal, FatalErrorFn background_fatal) {
    g_fatal.store(fatal);
    g_background_fatal.store(background_fatal);
}
bool StopCompiles() {
    {
        std::lock_guard<std::mutex> g(g_compiles_mu);  // StartCompileThread checks under it
        g_stop_compiles.store(true);
    }
    WaitForCompiles();
    return !g_compile_thread_lost.load();
}
bool FinishCompiles(int limit_ms) {
    std::unique_lock<std::mutex> g(g_compiles_mu);
    return g_compiles_cv.wait_for(g, std::chrono::milliseconds(std::max(0, limit_ms)),
                                  [] { return g_compiles_running == 0 || g_compile_thread_lost.load(); });
}
bool RunLlvmSectionOnCompileThread(void (*fn)(void *), void *arg) {
    return StartCompileThread([fn, arg] {
        LlvmSection llvm_section;
        fn(arg);
    });
}
void SetCodeCache(const std::string &dir, uint64_t max_bytes) { g_code_cache.Configure(dir, max_bytes); }
bool Embedded() { return g_fatal.load() != nullptr; }

void RunLlvmSection(void (*fn)(void *), void *arg) {
    LlvmSection llvm_section;
    fn(arg);
}

Device::~Device() {
    impl_->stopping.store(true);
    WaitForCompiles();
}

void Device::WaitForUpgrades() const {
    std::unique_lock<std::mutex> g(impl_->mu);
    impl_->upgrades_cv.wait(g, [&] { return !impl_->upgrader_running; });
}

size_t Device::cached_modules() const {
    std::lock_guard<std::mutex> g(impl_->mu);
    return impl_->cache.size();
}

unsigned Device::worker_threads() const { return impl_->pool->size(); }

Expected<std::shared_ptr<const Module>> Device::LoadModule(const std::string &ptx, const std::function<bool()> *cancel) {
    return impl_->Load(ptx, &ptx, nullptr, cancel);
}

Expected<std::shared_ptr<const Module>> Device::LoadModuleIfReady(const std::string &ptx) {
    return impl_->Load(ptx, &ptx, nullptr, nullptr, /*if_ready=*/true);
}

Expected<std::shared_ptr<const Module>> Device::LoadModule(const ptx::Module &ptx) {
    return impl_->Load(ptx::Print(ptx), nullptr, &ptx);
}

void *Device::Allocate(size_t bytes) {
    // Large buffers sit on 2 MiB boundaries and ask for transparent huge pages: a warp's strided
    // accesses (grid-stride loops jump blockDim*gridDim elements) then miss the TLB far less often.
    constexpr size_t kHuge = size_t{2} << 20;
    const bool huge = bytes >= kHuge && !std::getenv("RNDN_CPUJIT_NO_HUGEPAGES");
    const size_t align = huge ? kHuge : 64;
    const size_t rounded = std::max<size_t>(align, (bytes + align - 1) / align * align);
    void *p = std::aligned_alloc(align, rounded);
    if (!p) return nullptr;
    if (huge) (void)madvise(p, rounded, MADV_HUGEPAGE);
    std::memset(p, 0, bytes);
    std::lock_guard<std::mutex> g(impl_->mem_mu);
    impl_->owned[p] = bytes;
    impl_->regions[(uint64_t)(uintptr_t)p] = (uint64_t)(uintptr_t)p + bytes;
    return p;
}

void Device::Free(void *p) {
    std::lock_guard<std::mutex> g(impl_->mem_mu);
    auto it = impl_->owned.find(p);
    if (it == impl_->owned.end()) return;
    impl_->owned.erase(it);
    impl_->regions.erase((uint64_t)(uintptr_t)p);
    std::free(p);
}

void Device::RegisterMemory(const void *p, size_t bytes) {
    std::lock_guard<std::mutex> g(impl_->mem_mu);
    impl_->regions[(uint64_t)(uintptr_t)p] = (uint64_t)(uintptr_t)p + bytes;
}

void Device::UnregisterMemory(const void *p) {
    std::lock_guard<std::mutex> g(impl_->mem_mu);
    impl_->regions.erase((uint64_t)(uintptr_t)p);
}

Status Device::Launch(const Kernel &k, const LaunchConfig &cfg, const std::vector<Arg> &args) {
    const std::string who = "kernel '" + k.name() + "': ";
    if (!k.fn_) return Status::Internal(who + "not compiled");
    if (args.size() != k.params_.size())
        return Status::UserError(sqlstate::kInvalidParameter, who + "expects " + std::to_string(k.params_.size()) +
                                                                  " arguments, got " + std::to_string(args.size()));
    uint64_t threads = (uint64_t)cfg.block.x * cfg.block.y * cfg.block.z;
    uint64_t ctas = (uint64_t)cfg.grid.x * cfg.grid.y * cfg.grid.z;
    if (threads == 0 || threads > 1024 || ctas == 0 || cfg.block.z > 64)
        return Status::UserError(sqlstate::kInvalidParameter, who + "invalid launch shape");
    if (k.static_shared_ + cfg.dynamic_shared > (256u << 10))
        return Status::UserError(sqlstate::kInvalidParameter, who + "too much shared memory");
    std::vector<uint8_t> params(std::max<uint32_t>(k.param_bytes_, 1), 0);
    for (size_t i = 0; i < args.size(); ++i) {
        if (args[i].bytes.size() != k.params_[i].size)
            return Status::UserError(sqlstate::kInvalidParameter,
                                     who + "argument " + std::to_string(i) + " has " + std::to_string(args[i].bytes.size()) +
                                         " bytes, the parameter " + std::to_string(k.params_[i].size));
        std::memcpy(params.data() + k.params_[i].offset, args[i].bytes.data(), args[i].bytes.size());
    }
    RunState run;
    run.check_bounds = cfg.check_bounds || Embedded();  // no fault backstop in a host process
    if (k.lockstep_) {  // tid.x/y/z of every thread of the CTA, for the lock-step warps
        run.tid_tab.assign(3 * kMaxThreads, 0);
        for (uint32_t t = 0; t < threads; ++t) {
            run.tid_tab[t] = t % cfg.block.x;
            run.tid_tab[kMaxThreads + t] = (t / cfg.block.x) % cfg.block.y;
            run.tid_tab[2 * kMaxThreads + t] = t / (cfg.block.x * cfg.block.y);
        }
    }
    {
        std::lock_guard<std::mutex> g(impl_->mem_mu);
        for (auto &r : impl_->regions) run.ranges.push_back(r);
    }
    {
        std::lock_guard<std::mutex> g(impl_->mu);
        for (auto &m : impl_->cache)
            for (auto &r : m.second->global_ranges_)
                run.ranges.push_back({(uint64_t)(uintptr_t)r.first, (uint64_t)(uintptr_t)r.first + r.second});
    }
    std::sort(run.ranges.begin(), run.ranges.end());
    std::atomic<uint64_t> next{0};
    // CTAs are handed out in chunks: a shared counter per CTA costs more than a small CTA, and
    // long runs of neighbouring CTAs keep each worker streaming through its own part of memory
    // (saxpy over 100 M floats: 43 ms with chunks of 64 CTAs, 36 ms with 1024).  Eight chunks
    // per worker at least keep the load balanced when CTAs are few and long.
    // A cancellable launch takes smaller chunks (64 per worker at least), so that the launching
    // thread polls often: the codegen runner's grids have at most 256 CTAs.
    const bool cancellable = cfg.cancel != nullptr && *cfg.cancel;
    const unsigned active = cfg.threads == 0 ? (unsigned)impl_->workers.size()
                                              : std::min<unsigned>(cfg.threads, (unsigned)impl_->workers.size());
    uint64_t chunk = std::clamp<uint64_t>(ctas / ((cancellable ? 64 : 8) * (uint64_t)active), 1, 1024);
    std::atomic<bool> failed{false};
    std::mutex err_mu;
    Status first_error;
    auto job = [&](unsigned wid) {
        if (wid >= active) return;  // rndn.cpu_threads: the launch uses workers 0..active-1 only
        Worker &w = impl_->workers[wid];
        // the registered ranges may have changed since the last launch: empty every site's cache
        w.site_cache.assign(2 * (size_t)std::max<uint32_t>(1, k.check_sites_), 0);
        while (!failed.load(std::memory_order_relaxed)) {
            // Only the launching thread (worker 0) polls the host's cancel; the others see `failed`.
            if (wid == 0 && cancellable && (*cfg.cancel)()) {
                std::lock_guard<std::mutex> g(err_mu);
                if (!failed.exchange(true)) first_error = Status::Cancelled();
                break;
            }
            uint64_t cta = next.fetch_add(chunk);
            if (cta >= ctas) break;
            Status st = impl_->GuardedCtas(k, cfg, params.data(), run, w, cta, std::min(ctas, cta + chunk));
            if (!st.ok()) {
                std::lock_guard<std::mutex> g(err_mu);
                if (!failed.exchange(true)) first_error = std::move(st);
            }
        }
    };
    impl_->pool->Run(job);
    return first_error;
}

}  // namespace rndn::cpujit
