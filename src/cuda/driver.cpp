// The driver API through dlopen: the entry points rndn uses, declared here with the driver's C
// ABI (opaque handles are pointers, CUdevice an int, CUdeviceptr a 64-bit integer, CUresult an
// int with 0 for success).
#include <dlfcn.h>

#include <chrono>
#include <cstdlib>

#include "common/tracked_memory.h"
#include "cuda/cuda.h"

namespace rndn::cuda {

namespace {
constexpr int kAttrComputeMajor = 75;  // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR
constexpr int kAttrComputeMinor = 76;
constexpr int kAttrMultiprocessors = 16;
constexpr int kAttrPageableMemoryAccess = 88;
constexpr int kAttrHostPointerForRegisteredMem = 91;
constexpr unsigned kHostRegisterPortableDeviceMap = 0x01 | 0x02;
constexpr uintptr_t kPage = 4096;
constexpr int kFuncAttrMaxDynamicShared = 8;  // CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
constexpr unsigned kMemAttachGlobal = 1;
constexpr uint32_t kDefaultDynamicSharedLimit = 48 * 1024;
}  // namespace

struct Api {
    void *lib = nullptr;
    int (*cuInit)(unsigned) = nullptr;
    int (*cuDriverGetVersion)(int *) = nullptr;
    int (*cuDeviceGetCount)(int *) = nullptr;
    int (*cuDeviceGet)(int *, int) = nullptr;
    int (*cuDeviceGetName)(char *, int, int) = nullptr;
    int (*cuDeviceGetAttribute)(int *, int, int) = nullptr;
    int (*cuDevicePrimaryCtxRetain)(void **, int) = nullptr;
    int (*cuDevicePrimaryCtxRelease_v2)(int) = nullptr;
    int (*cuCtxSetCurrent)(void *) = nullptr;
    int (*cuCtxSynchronize)() = nullptr;
    int (*cuModuleLoadData)(void **, const void *) = nullptr;
    int (*cuModuleUnload)(void *) = nullptr;
    int (*cuModuleGetFunction)(void **, void *, const char *) = nullptr;
    int (*cuFuncSetAttribute)(void *, int, int) = nullptr;
    int (*cuLaunchKernel)(void *, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, void *, void **,
                          void **) = nullptr;
    int (*cuMemAllocManaged)(uint64_t *, size_t, unsigned) = nullptr;
    int (*cuMemFree_v2)(uint64_t) = nullptr;
    int (*cuMemHostRegister_v2)(void *, size_t, unsigned) = nullptr;
    int (*cuMemHostUnregister)(void *) = nullptr;
    int (*cuGetErrorName)(int, const char **) = nullptr;
    int (*cuGetErrorString)(int, const char **) = nullptr;

    ~Api() {
        if (lib) dlclose(lib);
    }

    std::string Describe(int result) const {
        const char *name = nullptr, *text = nullptr;
        if (cuGetErrorName) cuGetErrorName(result, &name);
        if (cuGetErrorString) cuGetErrorString(result, &text);
        std::string s = name ? name : "CUDA error " + std::to_string(result);
        if (text) s += std::string(": ") + text;
        return s;
    }
};

namespace {

// Each entry point with the symbol the library exports under it.
template <class F>
bool Resolve(void *lib, const char *symbol, F &fn, std::string &missing) {
    fn = reinterpret_cast<F>(dlsym(lib, symbol));
    if (!fn) missing += std::string(missing.empty() ? "" : ", ") + symbol;
    return fn != nullptr;
}

Expected<std::shared_ptr<Api>> OpenApi(const std::string &library) {
    auto api = std::make_shared<Api>();
    api->lib = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!api->lib) {
        const char *e = dlerror();
        return Status::Unsupported("cannot load the CUDA driver " + library + ": " + (e ? e : "unknown error"));
    }
    std::string missing;
    Resolve(api->lib, "cuInit", api->cuInit, missing);
    Resolve(api->lib, "cuDriverGetVersion", api->cuDriverGetVersion, missing);
    Resolve(api->lib, "cuDeviceGetCount", api->cuDeviceGetCount, missing);
    Resolve(api->lib, "cuDeviceGet", api->cuDeviceGet, missing);
    Resolve(api->lib, "cuDeviceGetName", api->cuDeviceGetName, missing);
    Resolve(api->lib, "cuDeviceGetAttribute", api->cuDeviceGetAttribute, missing);
    Resolve(api->lib, "cuDevicePrimaryCtxRetain", api->cuDevicePrimaryCtxRetain, missing);
    Resolve(api->lib, "cuDevicePrimaryCtxRelease_v2", api->cuDevicePrimaryCtxRelease_v2, missing);
    Resolve(api->lib, "cuCtxSetCurrent", api->cuCtxSetCurrent, missing);
    Resolve(api->lib, "cuCtxSynchronize", api->cuCtxSynchronize, missing);
    Resolve(api->lib, "cuModuleLoadData", api->cuModuleLoadData, missing);
    Resolve(api->lib, "cuModuleUnload", api->cuModuleUnload, missing);
    Resolve(api->lib, "cuModuleGetFunction", api->cuModuleGetFunction, missing);
    Resolve(api->lib, "cuFuncSetAttribute", api->cuFuncSetAttribute, missing);
    Resolve(api->lib, "cuLaunchKernel", api->cuLaunchKernel, missing);
    Resolve(api->lib, "cuMemAllocManaged", api->cuMemAllocManaged, missing);
    Resolve(api->lib, "cuMemFree_v2", api->cuMemFree_v2, missing);
    Resolve(api->lib, "cuMemHostRegister_v2", api->cuMemHostRegister_v2, missing);
    Resolve(api->lib, "cuMemHostUnregister", api->cuMemHostUnregister, missing);
    Resolve(api->lib, "cuGetErrorName", api->cuGetErrorName, missing);
    Resolve(api->lib, "cuGetErrorString", api->cuGetErrorString, missing);
    if (!missing.empty()) return Status::Unsupported("the CUDA driver " + library + " lacks " + missing);
    return api;
}

}  // namespace

Status Device::Check(int result, const char *call) const {
    if (result == 0) return Status::Ok();
    return Status::Internal(std::string("cuda: ") + call + ": " + api_->Describe(result));
}

Expected<std::unique_ptr<Device>> Device::Open(int ordinal, const std::string &library) {
    std::string lib = library;
    if (lib.empty()) {
        const char *env = std::getenv("RNDN_LIBCUDA");
        lib = env && *env ? env : "libcuda.so.1";
    }
    RNDN_ASSIGN_OR_RETURN(std::shared_ptr<Api> api, OpenApi(lib));
    std::unique_ptr<Device> d(new Device());
    d->api_ = api;
    d->info_.library = lib;
    RNDN_RETURN_IF_ERROR(d->Check(api->cuInit(0), "cuInit"));
    RNDN_RETURN_IF_ERROR(d->Check(api->cuDriverGetVersion(&d->info_.driver_version), "cuDriverGetVersion"));
    int count = 0;
    RNDN_RETURN_IF_ERROR(d->Check(api->cuDeviceGetCount(&count), "cuDeviceGetCount"));
    if (ordinal < 0 || ordinal >= count)
        return Status::Unsupported("no CUDA device " + std::to_string(ordinal) + " (" + std::to_string(count) + " present)");
    RNDN_RETURN_IF_ERROR(d->Check(api->cuDeviceGet(&d->device_, ordinal), "cuDeviceGet"));
    char name[256] = {};
    RNDN_RETURN_IF_ERROR(d->Check(api->cuDeviceGetName(name, sizeof name - 1, d->device_), "cuDeviceGetName"));
    d->info_.name = name;
    RNDN_RETURN_IF_ERROR(d->Check(api->cuDeviceGetAttribute(&d->info_.major, kAttrComputeMajor, d->device_), "cuDeviceGetAttribute"));
    RNDN_RETURN_IF_ERROR(d->Check(api->cuDeviceGetAttribute(&d->info_.minor, kAttrComputeMinor, d->device_), "cuDeviceGetAttribute"));
    int v = 0;
    RNDN_RETURN_IF_ERROR(d->Check(api->cuDeviceGetAttribute(&d->info_.multiprocessors, kAttrMultiprocessors, d->device_), "cuDeviceGetAttribute"));
    if (api->cuDeviceGetAttribute(&v, kAttrPageableMemoryAccess, d->device_) == 0) d->info_.pageable_memory_access = v != 0;
    v = 0;
    if (api->cuDeviceGetAttribute(&v, kAttrHostPointerForRegisteredMem, d->device_) != 0 || v == 0)
        if (!d->info_.pageable_memory_access)
            return Status::Unsupported("the CUDA device cannot use host pointers for registered memory");
    RNDN_RETURN_IF_ERROR(d->Check(api->cuDevicePrimaryCtxRetain(&d->context_, d->device_), "cuDevicePrimaryCtxRetain"));
    Status st = d->Check(api->cuCtxSetCurrent(d->context_), "cuCtxSetCurrent");
    if (!st.ok()) return st;
    return d;
}

Device::~Device() {
    if (listener_) RemoveReleaseListener(listener_);  // (before mu_: a call in flight takes it)
    for (const auto &r : driver_ranges_) api_->cuMemHostUnregister(reinterpret_cast<void *>(r.first));
    if (context_) api_->cuDevicePrimaryCtxRelease_v2(device_);
}

Status Device::RegisterHost(const void *p, size_t bytes) {
    if (info_.pageable_memory_access || !p || bytes == 0) return Status::Ok();
    const void *base = nullptr;
    size_t length = 0;
    std::lock_guard<std::mutex> lock(mu_);
    if (keep_ && FindAllocation(p, bytes, &base, &length)) {
        if (kept_.count(base)) return Status::Ok();
        if (listener_ == 0) listener_ = AddReleaseListener([this](const void *b, size_t) { Released(b); });
        const auto a = reinterpret_cast<uintptr_t>(base);
        Registration r{a & ~(kPage - 1), (a + length + kPage - 1) & ~(kPage - 1)};
        RNDN_RETURN_IF_ERROR(AddRange(r));
        kept_.emplace(base, std::make_pair(r, length));
        return Status::Ok();
    }
    const auto a = reinterpret_cast<uintptr_t>(p);
    Registration r{a & ~(kPage - 1), (a + bytes + kPage - 1) & ~(kPage - 1)};
    RNDN_RETURN_IF_ERROR(AddRange(r));
    host_ranges_.emplace(p, r);
    return Status::Ok();
}

Status Device::AddRange(const Registration &r) {
    RNDN_RETURN_IF_ERROR(Check(api_->cuCtxSetCurrent(context_), "cuCtxSetCurrent"));
    // the runs of pages nobody registered yet become driver registrations
    for (uintptr_t pg = r.first; pg < r.end;) {
        if (page_uses_.count(pg)) {
            pg += kPage;
            continue;
        }
        uintptr_t run_end = pg;
        while (run_end < r.end && !page_uses_.count(run_end)) run_end += kPage;
        RNDN_RETURN_IF_ERROR(Check(api_->cuMemHostRegister_v2(reinterpret_cast<void *>(pg), run_end - pg, kHostRegisterPortableDeviceMap),
                                   "cuMemHostRegister"));
        driver_ranges_.push_back({pg, run_end});
        for (uintptr_t q = pg; q < run_end; q += kPage) page_uses_[q] = 0;
        pg = run_end;
    }
    for (uintptr_t pg = r.first; pg < r.end; pg += kPage) ++page_uses_[pg];
    return Status::Ok();
}

void Device::UnregisterHost(const void *p) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = host_ranges_.find(p);
    if (it == host_ranges_.end()) return;  // (a kept allocation stays registered)
    const Registration r = it->second;
    host_ranges_.erase(it);
    DropRange(r);
}

void Device::DropRange(const Registration &r) {
    for (uintptr_t pg = r.first; pg < r.end; pg += kPage) --page_uses_[pg];
    api_->cuCtxSetCurrent(context_);  // (the release listener may run on another thread)
    for (size_t i = 0; i < driver_ranges_.size();) {
        const Registration d = driver_ranges_[i];
        bool unused = true;
        for (uintptr_t pg = d.first; pg < d.end && unused; pg += kPage) unused = page_uses_[pg] == 0;
        if (!unused) {
            ++i;
            continue;
        }
        api_->cuMemHostUnregister(reinterpret_cast<void *>(d.first));
        for (uintptr_t pg = d.first; pg < d.end; pg += kPage) page_uses_.erase(pg);
        driver_ranges_[i] = driver_ranges_.back();
        driver_ranges_.pop_back();
    }
}

void Device::Released(const void *base) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = kept_.find(base);
    if (it == kept_.end()) return;
    const Registration r = it->second.first;
    kept_.erase(it);
    DropRange(r);
}

void Device::set_keep_registrations(bool on) {
    std::lock_guard<std::mutex> lock(mu_);
    keep_ = on;
    if (on) return;
    for (const auto &k : kept_) DropRange(k.second.first);
    kept_.clear();
}

size_t Device::kept_registrations() const {
    std::lock_guard<std::mutex> lock(mu_);
    return kept_.size();
}

size_t Device::kept_bytes() const {
    std::lock_guard<std::mutex> lock(mu_);
    size_t n = 0;
    for (const auto &k : kept_) n += k.second.second;
    return n;
}

Module::~Module() {
    if (module_) api_->cuModuleUnload(module_);
}

const Kernel *Module::Find(const std::string &name) const {
    for (const auto &k : kernels_)
        if (k->name() == name) return k.get();
    void *fn = nullptr;
    if (api_->cuModuleGetFunction(&fn, module_, name.c_str()) != 0 || !fn) return nullptr;
    auto k = std::unique_ptr<Kernel>(new Kernel());
    k->name_ = name;
    k->fn_ = fn;
    kernels_.push_back(std::move(k));
    return kernels_.back().get();
}

Expected<std::shared_ptr<const Module>> Device::LoadModule(const std::vector<uint8_t> &cubin) {
    if (cubin.empty()) return Status::Internal("cuda: empty module image");
    std::shared_ptr<Module> m(new Module());
    m->api_ = api_;
    RNDN_RETURN_IF_ERROR(Check(api_->cuCtxSetCurrent(context_), "cuCtxSetCurrent"));
    RNDN_RETURN_IF_ERROR(Check(api_->cuModuleLoadData(&m->module_, cubin.data()), "cuModuleLoadData"));
    return std::shared_ptr<const Module>(m);
}

Status Device::Launch(const Kernel &kernel, Dim3 grid, Dim3 block, uint32_t dynamic_shared,
                      const std::vector<std::vector<uint8_t>> &args, double *seconds) {
    std::vector<void *> params;
    params.reserve(args.size());
    for (const auto &a : args) params.push_back(const_cast<uint8_t *>(a.data()));
    RNDN_RETURN_IF_ERROR(Check(api_->cuCtxSetCurrent(context_), "cuCtxSetCurrent"));
    if (dynamic_shared > kDefaultDynamicSharedLimit)
        RNDN_RETURN_IF_ERROR(Check(api_->cuFuncSetAttribute(kernel.handle(), kFuncAttrMaxDynamicShared, (int)dynamic_shared),
                                   "cuFuncSetAttribute"));
    auto t0 = std::chrono::steady_clock::now();
    RNDN_RETURN_IF_ERROR(Check(api_->cuLaunchKernel(kernel.handle(), grid.x, grid.y, grid.z, block.x, block.y, block.z,
                                                    dynamic_shared, nullptr, params.empty() ? nullptr : params.data(), nullptr),
                               "cuLaunchKernel"));
    Status st = Check(api_->cuCtxSynchronize(), "cuCtxSynchronize");
    if (seconds) *seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!st.ok()) return Status::Internal(st.message() + " (kernel " + kernel.name() + ")");
    return st;
}

void *Device::Allocate(size_t bytes) {
    uint64_t p = 0;
    if (api_->cuCtxSetCurrent(context_) != 0) return nullptr;
    if (api_->cuMemAllocManaged(&p, bytes ? bytes : 1, kMemAttachGlobal) != 0) return nullptr;
    return reinterpret_cast<void *>(p);
}

void Device::Free(void *p) {
    if (p) api_->cuMemFree_v2(reinterpret_cast<uint64_t>(p));
}

}  // namespace rndn::cuda
