// rndn::cpujit — the `cpu` device: runs PTX kernels on the host's cores through LLVM 14 (ORC LLJIT).
//
//   Device dev;                                   // thread pool of N workers (default: all cores)
//   auto mod = dev.LoadModule(ptx_text);          // parse + translate + JIT, cached by PTX text
//   const Kernel *k = (*mod)->Find("saxpy");
//   void *x = dev.Allocate(bytes);                // memory kernels may touch (bounds-checked)
//   Status st = dev.Launch(*k, {grid, block, dyn_shared}, {Arg::Ptr(x), Arg::F32(2.f), Arg::U32(n)});
//
// Execution model: a CTA runs on one worker thread.  Each thread of the CTA runs the kernel's
// native code until it reaches a synchronisation point (bar.sync, shfl/vote/match.sync,
// activemask, bar.warp.sync) or exits; the CTA scheduler then completes the warp collective
// (or the CTA barrier) for the lanes that reached it and resumes them.  Collectives therefore
// see exactly the lanes the GPU would.  Global memory is host memory; shared memory is per CTA,
// local memory per thread.  Out-of-bounds accesses, integer division by zero and barrier
// deadlocks are reported as a Status naming the kernel, the thread and the PTX line.
#pragma once

#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "common/status.h"

namespace rndn::ptx {
struct Module;
}

namespace rndn::cpujit {

// Embedding in a host process that owns signals and fatal errors (a PostgreSQL backend).  Call
// once, before the first Device, with a function that reports `reason` and does not return
// (rndn's extension ends the backend with PostgreSQL's FATAL, as PostgreSQL's own LLVM JIT does).
// Then: no process-wide SIGSEGV/SIGBUS handler is installed (kernels always run with bounds
// checks instead), and while cpujit calls into LLVM, LLVM's fatal errors and out-of-memory
// (LLVM's bad-alloc handler and operator new's new-handler) go to `fatal` instead of aborting
// the process.  Worker threads block every asynchronous signal in either mode.  nullptr: standalone again.
// On cpujit's background compile threads (a cancellable load's helper, the upgrader) the host's
// function is never called (a host such as PostgreSQL is not thread-safe): the reason goes to
// stderr, the thread is given up (parked for good, no longer waited for: StopCompiles then
// returns false) and `background_fatal` (may be null) is called there; it must return, and
// should make the host end itself from its own thread (rndn's extension: SIGTERM to its backend).
using FatalErrorFn = void (*)(const char *reason);
void SetEmbedded(FatalErrorFn fatal, FatalErrorFn background_fatal = nullptr);
bool Embedded();

// The process-wide code cache on disk (code_cache.h): object code of -O2 compiled kernels in
// `dir`, shared by every process naming it and kept across restarts, bounded by max_bytes (the
// least recently used files go).  A module whose kernels are all there is loaded from it
// (translated, then linked from the objects: no optimisation or code generation) and never
// compiled at the fast tier.  dir empty or max_bytes 0: off (the default).
void SetCodeCache(const std::string &dir, uint64_t max_bytes);

// Asks every background compilation (a cancelled load's helper thread, the tier upgrader) to
// stop at its next stage boundary and waits until all have ended; no new one starts afterwards.
// Process exit does this too (atexit), but only after the static objects created since were
// destroyed, which a compilation still running may use: a host calls it before it exits
// (rndn's extension from a PostgreSQL on_proc_exit callback).  Idempotent.  False when a compile
// thread was given up after a fatal error in LLVM (SetEmbedded): it may hold LLVM's state, so the
// process should end without static destructors (_exit).
bool StopCompiles();
// Lets the background compilations queued so far (deferred modules, tier upgrades) finish, so
// that what they compile reaches the code cache on disk, waiting at most limit_ms; true when none
// is left running.  A host calls it on a normal exit before StopCompiles (a short session's
// kernels would otherwise be abandoned and every new session compile them again).
bool FinishCompiles(int limit_ms);

// Runs fn() as cpujit runs its own LLVM work (under the fatal-error hooks when embedded).
void RunLlvmSection(void (*fn)(void *), void *arg);
// Same on a new background compile thread (for tests of the embedded fatal-error paths); false
// when no thread could be started.
bool RunLlvmSectionOnCompileThread(void (*fn)(void *), void *arg);

struct Dim3 {
    uint32_t x = 1, y = 1, z = 1;
};

// The bytes of one kernel argument, in parameter order.
struct Arg {
    std::vector<uint8_t> bytes;
    template <class T>
    static Arg Of(T v) {
        Arg a;
        a.bytes.resize(sizeof(T));
        std::memcpy(a.bytes.data(), &v, sizeof(T));
        return a;
    }
    static Arg S32(int32_t v) { return Of(v); }
    static Arg U32(uint32_t v) { return Of(v); }
    static Arg S64(int64_t v) { return Of(v); }
    static Arg U64(uint64_t v) { return Of(v); }
    static Arg F32(float v) { return Of(v); }
    static Arg F64(double v) { return Of(v); }
    static Arg Ptr(const void *p) { return Of((uint64_t)(uintptr_t)p); }
};

struct LaunchConfig {
    Dim3 grid;
    Dim3 block;
    uint32_t dynamic_shared = 0;  // bytes of extern .shared memory per CTA
    bool check_bounds = true;     // global/generic accesses must fall in registered memory
    // Polled by the launching thread (which runs CTAs too) between its chunks of CTAs, never by
    // the other workers; true stops the launch: every worker stops at its next chunk (at most
    // 1024 CTAs) and Launch returns CANCELLED.  It may read a host's interrupt flags.
    const std::function<bool()> *cancel = nullptr;
    // Workers that run the launch's CTAs: 0 = all of the device's; 1 = the launching thread
    // alone (serial); more than the device has = all.
    unsigned threads = 0;
};

struct ParamInfo {
    uint32_t offset = 0;
    uint32_t size = 0;
};

// A compiled kernel (owned by its Module).
class Kernel {
public:
    const std::string &name() const { return name_; }
    const std::vector<ParamInfo> &params() const { return params_; }
    uint64_t static_shared_bytes() const { return static_shared_; }
    double jit_ms() const { return jit_ms_; }
    // The lanes of a warp run in lock-step as one vectorised function (kernels without
    // synchronisation points); otherwise each thread runs on its own, resumed at every cut.
    bool lockstep() const { return lockstep_; }

private:
    friend class Device;
    friend struct ModuleBuilder;
    bool lockstep_ = false;
    std::string name_;
    std::vector<ParamInfo> params_;
    uint32_t param_bytes_ = 0;
    uint64_t static_shared_ = 0;
    uint64_t local_bytes_ = 0;
    uint32_t frame_slots_ = 0;
    uint32_t check_sites_ = 0;
    std::vector<uint8_t> cut_kinds_;  // per synchronisation point (1-based ids)
    std::vector<int> cut_lines_;
    int line_ = 0;
    double jit_ms_ = 0;
    int32_t (*fn_)(void *ctx) = nullptr;
    int32_t (*cta_fn_)(void *ctx) = nullptr;  // whole-CTA loop (kernels without synchronisation)
};

// A loaded PTX module: its kernels and its .global/.const variables (which live as long as it).
class Module {
public:
    const Kernel *Find(const std::string &name) const;
    const std::vector<std::unique_ptr<Kernel>> &kernels() const { return kernels_; }
    double jit_ms() const { return jit_ms_; }  // parse + translate + optimise + codegen of all kernels
    // Compiled by the fast tier (-O0 code generation; a background -O2 compile replaces it in the
    // cache: see Device's tiers).
    bool fast_tier() const { return fast_tier_; }
    // Kernels whose object code came from the code cache on disk (SetCodeCache).
    int code_cache_kernels() const { return code_cache_kernels_; }

private:
    friend class Device;
    friend struct ModuleBuilder;
    std::vector<std::unique_ptr<Kernel>> kernels_;
    std::vector<std::unique_ptr<uint8_t[]>> globals_;  // module-scope variables
    std::vector<std::pair<const uint8_t *, uint64_t>> global_ranges_;
    double jit_ms_ = 0;
    bool fast_tier_ = false;
    int code_cache_kernels_ = 0;
};

class Device {
public:
    // worker_threads == 0: one worker per hardware thread.  Workers are created once and reused.
    explicit Device(unsigned worker_threads = 0);
    ~Device();
    Device(const Device &) = delete;
    Device &operator=(const Device &) = delete;

    // Parses (rndn::ptx::ParseModule), translates and compiles every kernel; the result is cached
    // by PTX text.  Tiers (inside a host process by default, RNDN_CPUJIT_TIERS=1|2 decides): a
    // module loaded from text is first compiled with -O0 code generation and returned; a
    // background thread below the host's priority compiles it again with -O2 and replaces the
    // cache entry, so a later load of the same text gets the faster code (same results).  `cancel` (called on this thread) is polled between the stages of each
    // kernel's compilation (translation, optimisation, code generation: LLVM cannot be stopped
    // inside one) and true gives CANCELLED with nothing cached.
    Expected<std::shared_ptr<const Module>> LoadModule(const std::string &ptx, const std::function<bool()> *cancel = nullptr);
    // Same for a module in the PTX IR (cached by its canonical text, ptx::Print).
    Expected<std::shared_ptr<const Module>> LoadModule(const ptx::Module &ptx);
    // The module when it is ready without compiling: in the cache, or every kernel's -O2 code in
    // the code cache on disk (linked here, no code generation).  Otherwise nullptr, and the text
    // is queued for the background thread (the upgrader's queue: -O2, below the host's priority;
    // queued once), so a later call finds it; a caller that cannot wait for a compile runs the
    // module's work another way meanwhile (the runner: on the interpreter).
    Expected<std::shared_ptr<const Module>> LoadModuleIfReady(const std::string &ptx);

    // Runs the kernel over the grid and waits for it.  Errors name the kernel.
    Status Launch(const Kernel &kernel, const LaunchConfig &config, const std::vector<Arg> &args);

    // Memory that kernels may access when bounds checking is on (zero-filled, 64-byte aligned).
    void *Allocate(size_t bytes);
    void Free(void *p);
    // Registers caller-owned memory as accessible (until UnregisterMemory).
    void RegisterMemory(const void *p, size_t bytes);
    void UnregisterMemory(const void *p);

    unsigned worker_threads() const;
    // Modules in the cache (LoadModule's compiled modules; it only grows).
    size_t cached_modules() const;
    // Waits until the background (-O2) compilations queued so far (upgrades and
    // LoadModuleIfReady's) have finished.
    void WaitForUpgrades() const;

    struct Impl;

private:
    std::unique_ptr<Impl> impl_;
};

}  // namespace rndn::cpujit
