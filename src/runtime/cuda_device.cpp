// The cuda device: outlined kernels (src/codegen) whose PTX rndn's own compiler (src/sasscomp)
// turns into cubins for the GPU's architecture, loaded and launched through the driver API
// (src/cuda: libcuda reached by dlopen only); statements without a kernel form run on the
// interpreter over the same columns (codegen::Runner; the shared part is kernel_device.cpp).  The
// runner's columns stay in host memory, registered with the driver for each launch.  A module our
// compiler refuses is handed to the driver as PTX (its JIT), counted in the report.  One driver
// per process, opened on first use from rndn.cuda_library, $RNDN_LIBCUDA or libcuda.so.1 (CI runs
// this device on the emulated driver, build/lib/libcuda_emu.so).
#include <map>
#include <optional>
#include <utility>

#include "cuda/cuda.h"
#include "ptx/ptx.h"
#include "runtime/kernel_device.h"
#include "sasscomp/sasscomp.h"

namespace rndn::runtime {

namespace {

constexpr size_t kCachedModules = 512;

// codegen's kernels on the driver: modules by PTX text, compiled by rndn::sasscomp.
class DriverKernels final : public codegen::KernelDevice {
public:
    explicit DriverKernels(cuda::Device &dev) : dev_(dev) {}
    Expected<std::shared_ptr<const void>> LoadModule(const std::string &ptx, const std::function<bool()> *) override {
        auto it = modules_.find(ptx);
        if (it != modules_.end()) return std::shared_ptr<const void>(it->second);
        std::vector<uint8_t> image;
        auto cubin = Compile(ptx);
        if (cubin.ok()) {
            image = std::move(*cubin);
        } else {  // the driver's PTX JIT (counted)
            ++jit_modules_;
            image.assign(ptx.begin(), ptx.end());
            image.push_back(0);
        }
        RNDN_ASSIGN_OR_RETURN(std::shared_ptr<const cuda::Module> m, dev_.LoadModule(image));
        if (modules_.size() >= kCachedModules) modules_.clear();
        modules_[ptx] = m;
        ++compiled_;
        return std::shared_ptr<const void>(std::move(m));
    }
    const void *FindKernel(const void *module, const std::string &name) override {
        return static_cast<const cuda::Module *>(module)->Find(name);
    }
    Status Launch(const void *kernel, uint32_t grid, uint32_t block, const std::vector<std::vector<uint8_t>> &args,
                  const std::function<bool()> *cancel) override {
        if (cancel && *cancel && (*cancel)()) return Status::Cancelled();
        return dev_.Launch(*static_cast<const cuda::Kernel *>(kernel), {grid}, {block}, 0, args);
    }
    void RegisterMemory(const void *p, size_t bytes) override {
        Status st = dev_.RegisterHost(p, bytes);
        if (!st.ok() && error_.empty()) error_ = st.ToString();
    }
    void UnregisterMemory(const void *p) override { dev_.UnregisterHost(p); }

    size_t compiled() const { return compiled_; }
    int jit_modules() const { return jit_modules_; }
    // The first registration failure since the last call (then cleared).
    std::string TakeError() { return std::exchange(error_, std::string()); }

private:
    Expected<std::vector<uint8_t>> Compile(const std::string &ptx) {
        RNDN_ASSIGN_OR_RETURN(ptx::Module m, ptx::ParseModule(ptx, "kernels.ptx"));
        RNDN_ASSIGN_OR_RETURN(sass::Arch a, sass::ParseArch(dev_.info().arch()));
        RNDN_ASSIGN_OR_RETURN(std::vector<sasscomp::CompiledKernel> ks, sasscomp::CompileModule(m, a));
        return sasscomp::BuildCubin(ks, a);
    }
    cuda::Device &dev_;
    std::map<std::string, std::shared_ptr<const cuda::Module>> modules_;
    size_t compiled_ = 0;
    int jit_modules_ = 0;
    std::string error_;
};

struct CudaShared {
    OutlinedCache plans;
    std::string library;                  // what rndn.cuda_library asks for ("" = the default)
    std::optional<std::string> opened;    // the library the device (or the error) comes from, once tried
    std::unique_ptr<cuda::Device> device;
    std::unique_ptr<DriverKernels> kernels;
    Status open_error = Status::Ok();
};

CudaShared &TheShared() {
    static CudaShared *s = new CudaShared();  // never destroyed: the driver may outlive static teardown
    return *s;
}

// Under plans.mu: the driver, opened once per library.
Status OpenDriver(CudaShared &sh) {
    if (sh.opened == sh.library) return sh.open_error;
    sh.kernels.reset();
    sh.device.reset();
    sh.plans.entries.clear();
    sh.opened = sh.library;
    auto d = cuda::Device::Open(0, sh.library);
    if (!d.ok()) {
        sh.open_error = d.status();
        return sh.open_error;
    }
    sh.device = std::move(*d);
    sh.kernels = std::make_unique<DriverKernels>(*sh.device);
    sh.open_error = Status::Ok();
    return Status::Ok();
}

class CudaDevice final : public KernelRunDevice {
public:
    Capabilities capabilities() const override {
        Capabilities c;
        c.name = "cuda";
        CudaShared &sh = TheShared();
        std::lock_guard<std::mutex> lock(sh.plans.mu);
        c.description = sh.device ? "outlined kernels compiled by rndn's own PTX to SASS compiler on " + sh.device->info().name + " (" +
                                        sh.device->info().arch() + "), the rest on the interpreter"
                                  : "outlined kernels on a CUDA GPU (no driver opened yet)";
        c.input_memory = MemoryKind::HOST;
        c.zero_copy_inputs = true;
        c.needs_kernels = true;
        c.parallelism = sh.device ? std::max(1, sh.device->info().multiprocessors) : 1;
        return c;
    }

protected:
    const char *kind() const override { return "cuda"; }
    codegen::CostModel costs() const override { return codegen::CostModel::ANY; }
    OutlinedCache &cache() override { return TheShared().plans; }
    Status EnsureBackend(bool *evict) override {
        CudaShared &sh = TheShared();
        RNDN_RETURN_IF_ERROR(OpenDriver(sh));
        if (sh.kernels->compiled() >= kCachedModules) *evict = true;
        if (*evict) sh.kernels = std::make_unique<DriverKernels>(*sh.device);
        return Status::Ok();
    }
    Expected<hir::Value> RunOutlined(const codegen::OutlinedProgram &p, hir::DataRegistry &data, const hir::InterpretOptions &o,
                                     const std::vector<hir::Value> &args, codegen::RunStats *st, RunReport *report) override {
        CudaShared &sh = TheShared();
        codegen::Runner runner(*sh.kernels, /*warp_reduce=*/true);
        // grouped reductions in the cells form: faster on a GPU (H200, TPC-H SF 1, 2026-11-27:
        // Q1 256 against 817 ms in the atomic form, whose few groups serialise the atomics; Q18
        // 198 against 343 ms; no query slower by more than 5%), and the configuration CudaTpch checks
        runner.set_group_atomics(false);
        const size_t before = sh.kernels->compiled();
        const int jit_before = sh.kernels->jit_modules();
        auto r = runner.Run(p, data, o, args, st);
        report->modules_compiled = (int)(sh.kernels->compiled() - before);
        report->modules_driver_jit = sh.kernels->jit_modules() - jit_before;
        std::string reg = sh.kernels->TakeError();
        if (r.ok() && !reg.empty()) return Status::Internal("cuda: host memory registration failed: " + reg);
        return r;
    }
};

}  // namespace

std::unique_ptr<Device> MakeCudaDevice() { return std::make_unique<CudaDevice>(); }

void SetCudaLibrary(const std::string &library) {
    CudaShared &sh = TheShared();
    std::lock_guard<std::mutex> lock(sh.plans.mu);
    sh.library = library;
}

Expected<std::string> ProbeCudaDevice() {
    CudaShared &sh = TheShared();
    std::lock_guard<std::mutex> lock(sh.plans.mu);
    RNDN_RETURN_IF_ERROR(OpenDriver(sh));
    const cuda::DeviceInfo &i = sh.device->info();
    return i.name + " (" + i.arch() + ", " + i.library + ")";
}

}  // namespace rndn::runtime
