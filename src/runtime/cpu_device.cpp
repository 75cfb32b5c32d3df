// The cpu device: outlined kernels (src/codegen) compiled from PTX by src/cpujit and run on the
// host's cores; statements without a kernel form run on the interpreter over the same columns
// (codegen::Runner).  One cpujit device per process (its worker threads are created once) and a
// bounded cache of outlined programs keyed by the plan's shape (codegen::ShapeKey: the canonical
// text with literal values masked): a repeated plan, or one with other constants, outlines
// nothing, generates no PTX, and its modules come from cpujit's module cache (keyed by PTX text).
#include <chrono>
#include <list>
#include <mutex>
#include <thread>
#include <unordered_map>

#include "codegen/codegen.h"
#include "cpujit/cpujit.h"
#include "runtime/device_internal.h"

namespace rndn::runtime {

namespace {

// Plans whose outlined program is kept, and compiled modules kept (a plan has one module per
// kernel and per nullability of its inputs); over either, everything is dropped and the cpujit
// device (with its module cache) starts afresh.
constexpr size_t kCachedPlans = 64;
constexpr size_t kCachedModules = 512;

struct Shared {
    std::mutex mu;
    std::unique_ptr<cpujit::Device> device;
    // An outlined program points into its plan's program: the entry keeps that plan alive.
    struct Entry {
        std::shared_ptr<const CompiledPlan> plan;
        std::shared_ptr<const codegen::OutlinedProgram> outlined;
    };
    std::unordered_map<std::string, Entry> outlined;
};

Shared &TheShared() {
    static Shared *s = new Shared();  // never destroyed: worker threads outlive static teardown
    return *s;
}

class CpuDevice final : public Device {
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

    Status Prepare(std::shared_ptr<const CompiledPlan> plan, const RunOptions &options) override {
        if (!plan) return Status::Internal("cpu: Prepare without a plan");
        // Entry parameters are values in the runner's frame (bound per run): a kernel reads one
        // like any scalar input.
        fallback_.reset();
        report_ = RunReport();
        ran_ = false;
        args_.clear();
        bound_ = false;
        plan_ = std::move(plan);
        options_ = options;
        Shared &sh = TheShared();
        // Keyed by the plan's shape (its text with the literals' values masked): a plan that
        // differs only in constants reuses the outlined kernels and their PTX, re-pointed at its
        // own literals (kernels read them as arguments).
        const std::string key = codegen::ShapeKey(plan_->program());
        std::lock_guard<std::mutex> lock(sh.mu);
        auto it = sh.outlined.find(key);
        cached_ = false;
        shape_cached_ = false;
        if (it != sh.outlined.end()) {
            if (it->second.plan->text() == plan_->text()) {
                plan_ = it->second.plan;  // same text: the program the outlined one points into
                outlined_ = it->second.outlined;
                cached_ = true;
            } else if (auto rebound = codegen::Rebind(*it->second.outlined, plan_->program()); rebound.ok()) {
                outlined_ = std::make_shared<const codegen::OutlinedProgram>(std::move(*rebound));
                cached_ = shape_cached_ = true;
            }
        }
        if (!cached_) {
            RNDN_ASSIGN_OR_RETURN(auto out, codegen::Outline(plan_->program(), codegen::FusionMode::FULL, codegen::CostModel::CPU_DEVICE));
            if (sh.outlined.size() >= kCachedPlans || (sh.device && sh.device->cached_modules() >= kCachedModules)) {
                sh.outlined.clear();
                sh.device.reset();
            }
            outlined_ = std::make_shared<const codegen::OutlinedProgram>(std::move(out));
            sh.outlined[key] = Shared::Entry{plan_, outlined_};
        }
        if (!sh.device) sh.device = std::make_unique<cpujit::Device>();
        return Status::Ok();
    }

    Status Bind(const Inputs &inputs) override {
        if (fallback_) return fallback_->Bind(inputs);
        if (!plan_) return Status::Internal("cpu: Bind before Prepare");
        const auto &params = plan_->parameters();
        if (inputs.parameters.size() != params.size())
            return Status::UserError(sqlstate::kInvalidParameter, "the plan takes " + std::to_string(params.size()) + " parameter(s), " +
                                                                      std::to_string(inputs.parameters.size()) + " bound");
        args_.clear();
        for (const auto &p : inputs.parameters) {
            if (p.length != 1) return Status::UserError(sqlstate::kInvalidParameter, "a parameter is one value (length 1)");
            RNDN_ASSIGN_OR_RETURN(auto v, hir::VectorFromColumn(p));
            args_.emplace_back(std::move(v));
        }
        bound_ = true;
        if (inputs.registry != nullptr) {
            external_ = inputs.registry;
            return Status::Ok();
        }
        external_ = nullptr;
        registry_ = hir::DataRegistry();
        for (const auto &t : inputs.tables) {
            if (!t.foreign_keys.empty()) return Status::Unsupported("cpu: tables with foreign keys are bound through a registry");
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

    Status Run() override {
        if (fallback_) {
            if (cancel_requested()) fallback_->Cancel();
            RNDN_RETURN_IF_ERROR(fallback_->Run());
            ran_ = true;
            return Status::Ok();
        }
        if (!plan_) return Status::Internal("cpu: Run before Prepare");
        if (!bound_ && !plan_->parameters().empty()) return Status::Internal("cpu: Run before Bind");
        if (cancel_requested()) return Status::Cancelled();
        hir::InterpretOptions o;
        o.should_cancel = [this]() { return cancel_requested() || (options_.interrupted && options_.interrupted()); };
        o.memory_budget = options_.memory_budget;
        o.sql_empty_aggregates = o.sql_float_errors = o.sql_casts = options_.sql_semantics;
        ran_ = false;
        Shared &sh = TheShared();
        std::lock_guard<std::mutex> lock(sh.mu);  // one query at a time on the shared workers
        codegen::Runner runner(*sh.device);
        runner.set_threads(options_.cpu_threads > 0 ? (unsigned)options_.cpu_threads : 0u);
        runner.set_defer_compiles(options_.defer_compile_work);
        codegen::RunStats st;
        const size_t modules_before = sh.device->cached_modules();
        auto r = runner.Run(*outlined_, external_ != nullptr ? *external_ : registry_, o, args_, &st);
        const size_t compiled = sh.device->cached_modules() - modules_before;
        report_ = RunReport();
        report_.kernels_launched = st.kernels_launched;
        report_.kernels_redone = st.kernels_redone;
        report_.kernels_deferred = st.kernels_deferred;
        report_.statements_compiled = st.statements_compiled;
        report_.statements_interpreted = st.statements_interpreted;
        report_.ptx_ms = st.ptx_ms;
        report_.jit_ms = st.jit_ms;
        report_.kernel_ms = st.kernel_ms;
        report_.modules_compiled = (int)compiled;
        report_.module_cached = cached_ && compiled == 0 && st.kernels_deferred == 0;
        report_.shape_cached = shape_cached_;
        report_.ptx_generated = st.ptx_generated;
        report_.phase = st.phase;
        if (!r.ok()) {
            const Code c = r.status().code();
            const bool kernel_fault = c == Code::USER_ERROR && r.status().sqlstate() == sqlstate::kInternalError;
            if ((c == Code::USER_ERROR && !kernel_fault) || c == Code::CANCELLED || c == Code::OUT_OF_MEMORY) return r.status();
            // A program the hybrid runner could not carry through (an outliner or code generator
            // gap, or a kernel's out-of-bounds access caught by cpujit's checks) runs whole on the
            // interpreter: it still gives the interpreter's result and errors.
            report_.whole_program_interpreted = true;
            report_.runner_error = r.status().message();
            r = hir::Interpret(plan_->program(), external_ != nullptr ? *external_ : registry_, o, args_);
            if (!r.ok()) return r.status();
        }
        result_ = std::move(r.value());
        ran_ = true;
        return Status::Ok();
    }

    Expected<Result> Fetch() override {
        if (fallback_) return fallback_->Fetch();
        if (!ran_) return Status::Internal("cpu: Fetch without a successful Run");
        return ResultFromValue(result_);
    }

    Expected<hir::Value> FetchValue() override {
        if (fallback_) return fallback_->FetchValue();
        if (!ran_) return Status::Internal("cpu: Fetch without a successful Run");
        return result_;
    }

    RunReport report() const override { return fallback_ ? fallback_->report() : report_; }

private:
    std::shared_ptr<const CompiledPlan> plan_;
    std::shared_ptr<const codegen::OutlinedProgram> outlined_;
    std::unique_ptr<Device> fallback_;
    RunOptions options_;
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

}  // namespace

std::unique_ptr<Device> MakeCpuDevice() { return std::make_unique<CpuDevice>(); }

void SetCodeCache(const std::string &dir, uint64_t max_bytes) { cpujit::SetCodeCache(dir, max_bytes); }

bool StopBackgroundCompiles() { return cpujit::StopCompiles(); }

}  // namespace rndn::runtime
