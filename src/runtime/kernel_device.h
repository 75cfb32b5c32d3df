// Internal to src/runtime: what the devices that run outlined kernels share (the cpu device and the
// cuda device).  A plan is outlined once per *shape* (codegen::ShapeKey: its text with the
// literals' values masked) and kept in the device kind's bounded cache, so a repeated plan, or one
// with other constants, outlines nothing and generates no PTX; Run hands the outlined program to
// codegen::Runner on the device kind's kernels (RunOutlined), and a program the runner cannot carry
// through (an outliner or code generator gap, a kernel's fault) runs whole on the interpreter,
// which still gives its result and errors.
#pragma once

#include <mutex>
#include <unordered_map>

#include "codegen/codegen.h"
#include "runtime/device_internal.h"

namespace rndn::runtime {

// One device kind's cache of outlined programs, shared by its Device objects (guarded by `mu`,
// which also serialises runs on the kind's shared hardware or workers).
struct OutlinedCache {
    std::mutex mu;
    // An outlined program points into its plan's program: the entry keeps that plan alive.
    struct Entry {
        std::shared_ptr<const CompiledPlan> plan;
        std::shared_ptr<const codegen::OutlinedProgram> outlined;
    };
    std::unordered_map<std::string, Entry> entries;
};

class KernelRunDevice : public Device {
public:
    Status Prepare(std::shared_ptr<const CompiledPlan> plan, const RunOptions &options) override;
    Status Bind(const Inputs &inputs) override;
    Status Run() override;
    Expected<Result> Fetch() override;
    Expected<hir::Value> FetchValue() override;
    RunReport report() const override { return report_; }

protected:
    virtual const char *kind() const = 0;
    virtual codegen::CostModel costs() const = 0;
    virtual OutlinedCache &cache() = 0;
    // Under cache().mu: makes the kind's shared device if need be; `evict` says the plan cache is
    // full (the device then starts afresh too, dropping its modules).
    virtual Status EnsureBackend(bool *evict) = 0;
    // Under cache().mu: one run of the outlined program; `report` receives the modules it had to
    // compile (modules_compiled, modules_driver_jit).
    virtual Expected<hir::Value> RunOutlined(const codegen::OutlinedProgram &p, hir::DataRegistry &data, const hir::InterpretOptions &o,
                                             const std::vector<hir::Value> &args, codegen::RunStats *st, RunReport *report) = 0;

    RunOptions options_;

private:
    std::shared_ptr<const CompiledPlan> plan_;
    std::shared_ptr<const codegen::OutlinedProgram> outlined_;
    hir::DataRegistry registry_;
    hir::DataRegistry *external_ = nullptr;
    std::vector<hir::Value> args_;  // entry parameters' values
    hir::Value result_;
    RunReport report_;
    bool bound_ = false;
    bool cached_ = false;
    bool shape_cached_ = false;  // cached_ through another plan of the same shape (Rebind)
    bool ran_ = false;
};

}  // namespace rndn::runtime
