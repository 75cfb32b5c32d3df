// rndn::sassemu — a functional emulator of NVIDIA SASS (sm_75 .. sm_120) that runs cubins on the
// host, with an optional checker of the control codes (stall counts, scoreboards).
//
//   Device dev;                                         // thread pool of N workers (0: all cores)
//   auto mod = dev.LoadModule(cubin_bytes);             // ELF + .nv.info + constant banks, decoded once
//   const Kernel *k = (*mod)->Find("saxpy");
//   void *x = dev.Allocate(bytes);                      // memory kernels may touch (bounds-checked)
//   Status st = dev.Launch(*k, {grid, block, dyn_shared}, {Arg::Ptr(x), Arg::F32(2.f), Arg::U32(n)});
//
// Same launch API shape as the cpu device (src/cpujit/cpujit.h).  Instructions are decoded through
// the assembler's ISA tables (src/assembler/assembler.h) into a pre-decoded array per kernel and
// executed from a table of semantics per opcode (semantics.cpp), one warp of 32 lanes at a time
// with per-lane program counters (Volta's independent thread scheduling: BSSY/BSYNC, WARPSYNC).
// A CTA runs on one worker thread; CTAs of a grid are spread over the pool.  Errors (bad memory
// access, unsupported opcode or modifier, barrier deadlock) are a Status naming the kernel, the
// block, the thread and the instruction address.
#pragma once

#include <atomic>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "common/status.h"

namespace rndn::sassemu {

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
    uint32_t dynamic_shared = 0;  // bytes of extern shared memory per CTA
    bool check_bounds = true;     // global accesses must fall in registered memory
    bool check_hazards = false;   // check stall counts and scoreboards (see hazards.cpp)
    bool trace = false;           // print every executed warp instruction to stderr
    bool coverage = false;        // collect the addresses of executed instructions
    // Stops a launch: a flag another thread may set (the launch returns CANCELLED), and a limit
    // on the warp instructions of one CTA (0: none; exceeding it is an error, e.g. an endless loop).
    const std::atomic<bool> *cancel = nullptr;
    uint64_t cta_instruction_limit = 0;
};

struct ParamInfo {
    uint32_t offset = 0;  // from the first parameter
    uint32_t size = 0;
};

// One hazard found by the checker.
struct Hazard {
    std::string kernel;
    uint64_t address = 0;
    std::string what;  // e.g. "R4 read 2 cycles before ready (written at 0x0080, fixed latency)"
};

struct KernelImpl;
class Kernel {
public:
    ~Kernel();
    const std::string &name() const;
    const std::vector<ParamInfo> &params() const;
    uint64_t static_shared_bytes() const;
    uint64_t local_bytes() const;   // per thread
    size_t instruction_count() const;
    const KernelImpl &impl() const { return *impl_; }

private:
    friend struct ModuleLoader;
    std::unique_ptr<KernelImpl> impl_;
};

// A loaded cubin: its kernels and module-scope variables (which live as long as it).
class Module {
public:
    ~Module();
    const Kernel *Find(const std::string &name) const;
    const std::vector<std::unique_ptr<Kernel>> &kernels() const { return kernels_; }
    const char *arch_name() const { return arch_name_; }

private:
    friend struct ModuleLoader;
    friend class Device;
    std::vector<std::unique_ptr<Kernel>> kernels_;
    std::vector<std::unique_ptr<uint8_t[]>> globals_;
    std::vector<std::pair<const uint8_t *, uint64_t>> global_ranges_;
    const char *arch_name_ = "";
};

struct LaunchStats {
    uint64_t warp_instructions = 0;  // executed (issued) warp instructions
    uint64_t thread_instructions = 0;
    double seconds = 0;
    std::vector<Hazard> hazards;     // with check_hazards
    std::vector<uint64_t> executed;  // with coverage: addresses of executed instructions, sorted
};

class Device {
public:
    explicit Device(unsigned worker_threads = 0);
    ~Device();
    Device(const Device &) = delete;
    Device &operator=(const Device &) = delete;

    // Reads the cubin and pre-decodes every kernel.  Errors name the kernel and address of an
    // instruction the ISA tables cannot decode; opcodes without semantics fail at launch.
    Expected<std::shared_ptr<const Module>> LoadModule(const std::vector<uint8_t> &cubin);

    Status Launch(const Kernel &kernel, const LaunchConfig &config, const std::vector<Arg> &args,
                  LaunchStats *stats = nullptr);

    void *Allocate(size_t bytes);
    void Free(void *p);
    void RegisterMemory(const void *p, size_t bytes);
    void UnregisterMemory(const void *p);

    unsigned worker_threads() const;

    struct Impl;

private:
    std::unique_ptr<Impl> impl_;
};

}  // namespace rndn::sassemu
