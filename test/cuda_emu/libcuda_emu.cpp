// An emulated CUDA driver: the driver API entry points that src/cuda resolves, implemented over
// the SASS emulator (src/sassemu), built as build/lib/libcuda_emu.so.  CI has no GPU; pointing
// RNDN_LIBCUDA at this library runs the cuda device's code path (dlopen, module loading from
// cubin images, parameter marshalling by the cubin's KPARAM_INFO, launches, managed memory)
// with the emulator executing the SASS.  Every launch also checks the control codes for hazards;
// a hazard fails the launch like a fault would.
//
// RNDN_EMU_ARCH (default sm_90) is the compute capability reported; RNDN_EMU_THREADS the
// emulator's worker threads (default 1).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unistd.h>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "sassemu/sassemu.h"

namespace {

using rndn::sassemu::Arg;

constexpr int kSuccess = 0;
constexpr int kInvalidValue = 1;
constexpr int kNotInitialized = 3;
constexpr int kInvalidDevice = 101;
constexpr int kInvalidImage = 200;
constexpr int kNotFound = 500;
constexpr int kLaunchFailed = 719;

struct State {
    std::mutex mu;
    std::unique_ptr<rndn::sassemu::Device> dev;
    int major = 9, minor = 0;
    std::vector<std::shared_ptr<const rndn::sassemu::Module>> modules;
};

State &S() {
    static State s;
    return s;
}

thread_local std::string g_last_error;

int Fail(int code, std::string what) {
    g_last_error = std::move(what);
    return code;
}

// The extent of an ELF64 image: cuModuleLoadData receives no size.
size_t ElfSize(const uint8_t *p) {
    if (std::memcmp(p, "\x7f" "ELF", 4) != 0 || p[4] != 2) return 0;
    auto u16 = [&](size_t o) { uint16_t v; std::memcpy(&v, p + o, 2); return (size_t)v; };
    auto u64 = [&](size_t o) { uint64_t v; std::memcpy(&v, p + o, 8); return (size_t)v; };
    size_t phoff = u64(0x20), shoff = u64(0x28), phentsize = u16(0x36), phnum = u16(0x38), shentsize = u16(0x3a), shnum = u16(0x3c);
    size_t end = 64;
    end = std::max(end, phoff + phentsize * phnum);
    end = std::max(end, shoff + shentsize * shnum);
    for (size_t i = 0; i < shnum; ++i) {
        const size_t h = shoff + i * shentsize;
        uint32_t type;
        std::memcpy(&type, p + h + 4, 4);
        if (type != 8 /* SHT_NOBITS */) end = std::max(end, u64(h + 0x18) + u64(h + 0x20));
    }
    return end;
}

bool CompilePtx(const char *ptx, int sm, std::vector<uint8_t> &cubin, std::string &log) {
    const char *env = std::getenv("PTXAS");
    std::string ptxas = env && *env ? env : "/usr/local/cuda/bin/ptxas";
    char tmpl[] = "/tmp/rndn-cuda-emu-XXXXXX";
    if (!mkdtemp(tmpl)) {
        log = "no temporary directory";
        return false;
    }
    const std::string dir = tmpl, in = dir + "/m.ptx", out = dir + "/m.cubin", err = dir + "/log";
    if (FILE *f = std::fopen(in.c_str(), "w")) {
        std::fputs(ptx, f);
        std::fclose(f);
    }
    const std::string cmd = ptxas + " -O3 -arch=sm_" + std::to_string(sm) + " " + in + " -o " + out + " 2>" + err;
    const bool ok = std::system(cmd.c_str()) == 0;
    if (FILE *f = std::fopen(ok ? out.c_str() : err.c_str(), "rb")) {
        std::vector<uint8_t> bytes;
        uint8_t buf[65536];
        size_t n;
        while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) bytes.insert(bytes.end(), buf, buf + n);
        std::fclose(f);
        if (ok) cubin = std::move(bytes);
        else log = "ptxas: " + std::string(bytes.begin(), bytes.end());
    }
    std::system(("rm -rf " + dir).c_str());
    return ok && !cubin.empty();
}

}  // namespace

#define EXPORT extern "C" __attribute__((visibility("default")))

EXPORT int cuInit(unsigned) {
    State &s = S();
    std::lock_guard<std::mutex> g(s.mu);
    if (!s.dev) {
        const char *arch = std::getenv("RNDN_EMU_ARCH");
        std::string a = arch && *arch ? arch : "sm_90";
        int sm = std::atoi(a.c_str() + (a.rfind("sm_", 0) == 0 ? 3 : 0));
        if (sm < 75) return Fail(kInvalidValue, "RNDN_EMU_ARCH: unsupported architecture " + a);
        s.major = sm / 10;
        s.minor = sm % 10;
        const char *th = std::getenv("RNDN_EMU_THREADS");
        s.dev = std::make_unique<rndn::sassemu::Device>(th ? (unsigned)std::atoi(th) : 1u);
    }
    return kSuccess;
}

EXPORT int cuDriverGetVersion(int *v) {
    *v = 13000;
    return kSuccess;
}

EXPORT int cuDeviceGetCount(int *n) {
    *n = S().dev ? 1 : 0;
    return S().dev ? kSuccess : kNotInitialized;
}

EXPORT int cuDeviceGet(int *d, int ordinal) {
    if (!S().dev) return kNotInitialized;
    if (ordinal != 0) return kInvalidDevice;
    *d = 0;
    return kSuccess;
}

EXPORT int cuDeviceGetName(char *name, int len, int) {
    std::snprintf(name, (size_t)len, "rndn SASS emulator (sm_%d%d)", S().major, S().minor);
    return kSuccess;
}

EXPORT int cuDeviceGetAttribute(int *v, int attr, int) {
    if (attr == 75) *v = S().major;
    else if (attr == 76) *v = S().minor;
    else if (attr == 16) *v = 1;  // multiprocessors
    else if (attr == 88) *v = 0;  // no pageable memory access: callers register host memory
    else if (attr == 91) *v = 1;  // registered host memory keeps its address
    else return Fail(kInvalidValue, "attribute " + std::to_string(attr) + " is not emulated");
    return kSuccess;
}

EXPORT int cuDevicePrimaryCtxRetain(void **ctx, int) {
    if (!S().dev) return kNotInitialized;
    *ctx = S().dev.get();
    return kSuccess;
}

EXPORT int cuDevicePrimaryCtxRelease_v2(int) { return kSuccess; }
EXPORT int cuCtxSetCurrent(void *) { return kSuccess; }
EXPORT int cuCtxSynchronize() { return kSuccess; }  // launches are synchronous
EXPORT int cuFuncSetAttribute(void *, int, int) { return kSuccess; }

EXPORT int cuModuleLoadData(void **module, const void *image) {
    State &s = S();
    if (!s.dev) return kNotInitialized;
    const auto *p = static_cast<const uint8_t *>(image);
    std::vector<uint8_t> cubin;
    if (std::memcmp(p, "\x7f" "ELF", 4) == 0) {
        size_t n = ElfSize(p);
        if (n == 0) return Fail(kInvalidImage, "not an ELF64 cubin");
        cubin.assign(p, p + n);
    } else {
        // PTX text: the real driver compiles it; here ptxas does
        std::string log;
        if (!CompilePtx(static_cast<const char *>(image), s.major * 10 + s.minor, cubin, log)) return Fail(kInvalidImage, log);
    }
    auto m = s.dev->LoadModule(cubin);
    if (!m.ok()) return Fail(kInvalidImage, m.status().ToString());
    std::lock_guard<std::mutex> g(s.mu);
    s.modules.push_back(*m);
    *module = const_cast<rndn::sassemu::Module *>(m->get());
    return kSuccess;
}

EXPORT int cuModuleUnload(void *module) {
    State &s = S();
    std::lock_guard<std::mutex> g(s.mu);
    for (auto it = s.modules.begin(); it != s.modules.end(); ++it)
        if (it->get() == module) {
            s.modules.erase(it);
            return kSuccess;
        }
    return kInvalidValue;
}

EXPORT int cuModuleGetFunction(void **fn, void *module, const char *name) {
    const auto *k = static_cast<const rndn::sassemu::Module *>(module)->Find(name);
    if (!k) return Fail(kNotFound, std::string("no kernel ") + name);
    *fn = const_cast<rndn::sassemu::Kernel *>(k);
    return kSuccess;
}

EXPORT int cuLaunchKernel(void *fn, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                          unsigned shared, void *, void **params, void **extra) {
    if (extra) return Fail(kInvalidValue, "the extra launch options are not emulated");
    const auto *k = static_cast<const rndn::sassemu::Kernel *>(fn);
    std::vector<Arg> args;
    for (size_t i = 0; i < k->params().size(); ++i) {
        Arg a;
        const auto *src = static_cast<const uint8_t *>(params[i]);
        a.bytes.assign(src, src + k->params()[i].size);
        args.push_back(std::move(a));
    }
    rndn::sassemu::LaunchConfig c;
    c.grid = {gx, gy, gz};
    c.block = {bx, by, bz};
    c.dynamic_shared = shared;
    c.check_hazards = true;
    rndn::sassemu::LaunchStats stats;
    auto st = S().dev->Launch(*k, c, args, &stats);
    if (!st.ok()) return Fail(kLaunchFailed, st.ToString());
    if (!stats.hazards.empty())
        return Fail(kLaunchFailed, std::to_string(stats.hazards.size()) + " hazard(s), first at " +
                                       std::to_string(stats.hazards[0].address) + ": " + stats.hazards[0].what);
    return kSuccess;
}

EXPORT int cuMemAllocManaged(uint64_t *p, size_t bytes, unsigned) {
    if (!S().dev) return kNotInitialized;
    *p = reinterpret_cast<uint64_t>(S().dev->Allocate(bytes));
    return *p ? kSuccess : 2 /* CUDA_ERROR_OUT_OF_MEMORY */;
}

EXPORT int cuMemFree_v2(uint64_t p) {
    S().dev->Free(reinterpret_cast<void *>(p));
    return kSuccess;
}

EXPORT int cuMemHostRegister_v2(void *p, size_t bytes, unsigned) {
    if (!S().dev) return kNotInitialized;
    S().dev->RegisterMemory(p, bytes);
    return kSuccess;
}

EXPORT int cuMemHostUnregister(void *p) {
    S().dev->UnregisterMemory(p);
    return kSuccess;
}

EXPORT int cuGetErrorName(int code, const char **s) {
    switch (code) {
        case kSuccess: *s = "CUDA_SUCCESS"; break;
        case kInvalidValue: *s = "CUDA_ERROR_INVALID_VALUE"; break;
        case kNotInitialized: *s = "CUDA_ERROR_NOT_INITIALIZED"; break;
        case kInvalidDevice: *s = "CUDA_ERROR_INVALID_DEVICE"; break;
        case kInvalidImage: *s = "CUDA_ERROR_INVALID_IMAGE"; break;
        case kNotFound: *s = "CUDA_ERROR_NOT_FOUND"; break;
        case kLaunchFailed: *s = "CUDA_ERROR_LAUNCH_FAILED"; break;
        default: *s = "CUDA_ERROR_UNKNOWN"; return kInvalidValue;
    }
    return kSuccess;
}

EXPORT int cuGetErrorString(int, const char **s) {
    *s = g_last_error.c_str();
    return kSuccess;
}
