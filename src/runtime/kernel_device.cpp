// The shared part of the devices that run outlined kernels (kernel_device.h).
#include "runtime/kernel_device.h"

namespace rndn::runtime {

namespace {
constexpr size_t kCachedPlans = 64;  // outlined programs kept per device kind
}  // namespace

Status KernelRunDevice::Prepare(std::shared_ptr<const CompiledPlan> plan, const RunOptions &options) {
    if (!plan) return Status::Internal(std::string(kind()) + ": Prepare without a plan");
    // Entry parameters are values in the runner's frame (bound per run): a kernel reads one like
    // any scalar input.
    report_ = RunReport();
    ran_ = false;
    args_.clear();
    bound_ = false;
    plan_ = std::move(plan);
    options_ = options;
    OutlinedCache &sh = cache();
    // Keyed by the plan's shape: a plan that differs only in constants reuses the outlined
    // kernels and their PTX, re-pointed at its own literals (kernels read them as arguments).
    const std::string key = codegen::ShapeKey(plan_->program());
    std::lock_guard<std::mutex> lock(sh.mu);
    auto it = sh.entries.find(key);
    cached_ = false;
    shape_cached_ = false;
    if (it != sh.entries.end()) {
        if (it->second.plan->text() == plan_->text()) {
            plan_ = it->second.plan;  // same text: the program the outlined one points into
            outlined_ = it->second.outlined;
            cached_ = true;
        } else if (auto rebound = codegen::Rebind(*it->second.outlined, plan_->program()); rebound.ok()) {
            outlined_ = std::make_shared<const codegen::OutlinedProgram>(std::move(*rebound));
            cached_ = shape_cached_ = true;
        }
    }
    bool evict = !cached_ && sh.entries.size() >= kCachedPlans;
    RNDN_RETURN_IF_ERROR(EnsureBackend(&evict));
    if (!cached_) {
        RNDN_ASSIGN_OR_RETURN(auto out, codegen::Outline(plan_->program(), codegen::FusionMode::FULL, costs()));
        if (evict) sh.entries.clear();
        outlined_ = std::make_shared<const codegen::OutlinedProgram>(std::move(out));
        sh.entries[key] = OutlinedCache::Entry{plan_, outlined_};
    }
    return Status::Ok();
}

Status KernelRunDevice::Bind(const Inputs &inputs) {
    if (!plan_) return Status::Internal(std::string(kind()) + ": Bind before Prepare");
    RNDN_RETURN_IF_ERROR(BindParameters(*plan_, inputs, &args_));
    bound_ = true;
    if (inputs.registry != nullptr) {
        external_ = inputs.registry;
        return Status::Ok();
    }
    external_ = nullptr;
    registry_ = hir::DataRegistry();
    for (const auto &t : inputs.tables) {
        if (!t.foreign_keys.empty()) return Status::Unsupported(std::string(kind()) + ": tables with foreign keys are bound through a registry");
        std::vector<hir::Value> values;
        for (const auto &c : t.columns) {
            RNDN_ASSIGN_OR_RETURN(auto v, hir::VectorFromColumn(c));
            values.emplace_back(std::move(v));
        }
        RNDN_RETURN_IF_ERROR(registry_.AddTable(t.name, t.column_names, std::move(values)));
        if (!t.primary_key.empty()) registry_.SetPrimaryKey(t.name, t.primary_key);
    }
    return Status::Ok();
}

Status KernelRunDevice::Run() {
    if (!plan_) return Status::Internal(std::string(kind()) + ": Run before Prepare");
    if (!bound_ && !plan_->parameters().empty()) return Status::Internal(std::string(kind()) + ": Run before Bind");
    if (cancel_requested()) return Status::Cancelled();
    hir::InterpretOptions o = InterpreterOptions(options_, *this);
    ran_ = false;
    hir::DataRegistry &data = external_ != nullptr ? *external_ : registry_;
    OutlinedCache &sh = cache();
    std::lock_guard<std::mutex> lock(sh.mu);  // one query at a time on the shared device
    codegen::RunStats st;
    report_ = RunReport();
    auto r = RunOutlined(*outlined_, data, o, args_, &st, &report_);
    const int compiled = report_.modules_compiled;
    report_.kernels_launched = st.kernels_launched;
    report_.kernels_redone = st.kernels_redone;
    report_.kernels_deferred = st.kernels_deferred;
    report_.statements_compiled = st.statements_compiled;
    report_.statements_interpreted = st.statements_interpreted;
    report_.ptx_ms = st.ptx_ms;
    report_.jit_ms = st.jit_ms;
    report_.kernel_ms = st.kernel_ms;
    report_.module_cached = cached_ && compiled == 0 && st.kernels_deferred == 0;
    report_.shape_cached = shape_cached_;
    report_.ptx_generated = st.ptx_generated;
    report_.phase = st.phase;
    if (!r.ok()) {
        const Code c = r.status().code();
        const bool kernel_fault = c == Code::USER_ERROR && r.status().sqlstate() == sqlstate::kInternalError;
        if ((c == Code::USER_ERROR && !kernel_fault) || c == Code::CANCELLED || c == Code::OUT_OF_MEMORY) return r.status();
        // A program the hybrid runner could not carry through (an outliner or code generator
        // gap, or a kernel's out-of-bounds access caught by the device's checks) runs whole on
        // the interpreter: it still gives the interpreter's result and errors.
        report_.whole_program_interpreted = true;
        report_.runner_error = r.status().message();
        r = hir::Interpret(plan_->program(), data, o, args_);
        if (!r.ok()) return r.status();
    }
    result_ = std::move(r.value());
    ran_ = true;
    return Status::Ok();
}

Expected<Result> KernelRunDevice::Fetch() {
    if (!ran_) return Status::Internal(std::string(kind()) + ": Fetch without a successful Run");
    return ResultFromValue(result_);
}

Expected<hir::Value> KernelRunDevice::FetchValue() {
    if (!ran_) return Status::Internal(std::string(kind()) + ": Fetch without a successful Run");
    return result_;
}

}  // namespace rndn::runtime
