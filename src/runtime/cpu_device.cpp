// The cpu device: outlined kernels (src/codegen) compiled from PTX by src/cpujit and run on the
// host's cores; statements without a kernel form run on the interpreter over the same columns
// (codegen::Runner; the shared part is kernel_device.cpp).  One cpujit device per process (its
// worker threads are created once); its modules come from cpujit's module cache (keyed by PTX
// text), so a plan of a known shape compiles nothing.
#include <thread>

#include "cpujit/cpujit.h"
#include "runtime/kernel_device.h"

namespace rndn::runtime {

namespace {

// Compiled modules kept (a plan has one module per kernel and per nullability of its inputs);
// over this, the cpujit device (with its module cache) starts afresh with the plan cache.
constexpr size_t kCachedModules = 512;

struct CpuShared {
    OutlinedCache plans;
    std::unique_ptr<cpujit::Device> device;
};

CpuShared &TheShared() {
    static CpuShared *s = new CpuShared();  // never destroyed: worker threads outlive static teardown
    return *s;
}

class CpuDevice final : public KernelRunDevice {
public:
    Capabilities capabilities() const override {
        Capabilities c;
        c.name = "cpu";
        c.description = "outlined PTX kernels compiled by LLVM on the host's cores, the rest on the interpreter";
        c.input_memory = MemoryKind::HOST;
        c.zero_copy_inputs = true;
        c.needs_kernels = true;
        c.parallelism = (int)std::max(1u, std::thread::hardware_concurrency());
        return c;
    }

protected:
    const char *kind() const override { return "cpu"; }
    codegen::CostModel costs() const override { return codegen::CostModel::CPU_DEVICE; }
    OutlinedCache &cache() override { return TheShared().plans; }
    Status EnsureBackend(bool *evict) override {
        CpuShared &sh = TheShared();
        if (sh.device && sh.device->cached_modules() >= kCachedModules) *evict = true;
        if (*evict) sh.device.reset();
        if (!sh.device) sh.device = std::make_unique<cpujit::Device>();
        return Status::Ok();
    }
    Expected<hir::Value> RunOutlined(const codegen::OutlinedProgram &p, hir::DataRegistry &data, const hir::InterpretOptions &o,
                                     const std::vector<hir::Value> &args, codegen::RunStats *st, RunReport *report) override {
        CpuShared &sh = TheShared();
        codegen::Runner runner(*sh.device);
        runner.set_threads(options_.cpu_threads > 0 ? (unsigned)options_.cpu_threads : 0u);
        runner.set_defer_compiles(options_.defer_compile_work);
        const size_t before = sh.device->cached_modules();
        auto r = runner.Run(p, data, o, args, st);
        report->modules_compiled = (int)(sh.device->cached_modules() - before);
        return r;
    }
};

}  // namespace

std::unique_ptr<Device> MakeCpuDevice() { return std::make_unique<CpuDevice>(); }

void SetCodeCache(const std::string &dir, uint64_t max_bytes) { cpujit::SetCodeCache(dir, max_bytes); }

bool StopBackgroundCompiles() { return cpujit::StopCompiles(); }
bool FinishBackgroundCompiles(int limit_ms) { return cpujit::FinishCompiles(limit_ms); }

}  // namespace rndn::runtime
