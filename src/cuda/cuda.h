// rndn::cuda — NVIDIA's driver API reached through dlopen only (no CUDA header, no link with
// libcuda): a device, modules loaded from cubin images, kernel launches and managed memory.
// The library is $RNDN_LIBCUDA when set (CI points it at build/lib/libcuda_emu.so, the SASS
// emulator behind the same entry points), else libcuda.so.1.  A machine without either gets a
// clear error from Device::Open, never a crash.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "common/status.h"

namespace rndn::cuda {

struct Dim3 {
    uint32_t x = 1, y = 1, z = 1;
};

struct DeviceInfo {
    std::string library;     // the shared object that was opened
    std::string name;        // the device's name as the driver reports it
    int driver_version = 0;  // e.g. 13000
    int major = 0, minor = 0;
    int multiprocessors = 0;
    bool pageable_memory_access = false;  // kernels may read any host memory (HMM/ATS)
    std::string arch() const { return "sm_" + std::to_string(major * 10 + minor); }
};

struct Api;  // the entry points resolved from the library

class Kernel {
public:
    const std::string &name() const { return name_; }
    void *handle() const { return fn_; }

private:
    friend class Module;
    std::string name_;
    void *fn_ = nullptr;
};

class Module {
public:
    ~Module();
    Module(const Module &) = delete;
    Module &operator=(const Module &) = delete;
    // The kernel of that name, loaded on first use; nullptr when the module has none.
    const Kernel *Find(const std::string &name) const;

private:
    friend class Device;
    Module() = default;
    std::shared_ptr<const Api> api_;
    void *module_ = nullptr;
    mutable std::vector<std::unique_ptr<Kernel>> kernels_;
};

class Device {
public:
    // Opens the library (see above), initialises the driver and makes the primary context of
    // device `ordinal` current on the calling thread.
    static Expected<std::unique_ptr<Device>> Open(int ordinal = 0, const std::string &library = "");
    ~Device();
    Device(const Device &) = delete;
    Device &operator=(const Device &) = delete;

    const DeviceInfo &info() const { return info_; }

    Expected<std::shared_ptr<const Module>> LoadModule(const std::vector<uint8_t> &cubin);

    // Launches and waits for the kernel.  args[i] holds the bytes of parameter i.  `seconds`
    // receives the wall time of launch + synchronisation.
    Status Launch(const Kernel &kernel, Dim3 grid, Dim3 block, uint32_t dynamic_shared,
                  const std::vector<std::vector<uint8_t>> &args, double *seconds = nullptr);

    // Managed memory: the same address on the host and the device (read it after Launch).
    void *Allocate(size_t bytes);
    void Free(void *p);

    // Host memory that kernels read and write at its own address: page-locked and mapped with
    // cuMemHostRegister (nothing to do where the device reads pageable memory).  Registrations
    // may share pages; pages are counted, and a driver registration ends when none of its pages
    // is in use.  Unregister takes the pointer given to Register.  A range inside an allocation
    // noted in common/tracked_memory.h registers that whole allocation once and keeps it
    // registered until the allocation is released (its Unregister does nothing), unless
    // set_keep_registrations(false): page-locking costs about as much as a launch reads.
    Status RegisterHost(const void *p, size_t bytes);
    void UnregisterHost(const void *p);
    // (false also ends the registrations kept so far)
    void set_keep_registrations(bool on);
    // Allocations kept registered now, and their bytes.
    size_t kept_registrations() const;
    size_t kept_bytes() const;

private:
    Device() = default;
    Status Check(int result, const char *call) const;
    struct Registration {
        uintptr_t first = 0, end = 0;  // page addresses
    };
    Status AddRange(const Registration &r);  // under mu_
    void DropRange(const Registration &r);   // under mu_
    void Released(const void *base);         // the release listener

    std::shared_ptr<const Api> api_;
    mutable std::mutex mu_;  // the registrations (the release listener runs on any thread)
    bool keep_ = true;
    int listener_ = 0;
    std::map<const void *, std::pair<Registration, size_t>> kept_;  // allocation base -> pages, bytes
    std::map<uintptr_t, int> page_uses_;
    std::multimap<const void *, Registration> host_ranges_;  // what callers registered
    std::vector<Registration> driver_ranges_;                // what the driver registered
    void *context_ = nullptr;
    int device_ = 0;
    DeviceInfo info_;
};

}  // namespace rndn::cuda
