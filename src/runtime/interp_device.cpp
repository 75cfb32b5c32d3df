// The interp device: the HorseIR reference interpreter behind runtime::Device.  Inputs are
// bound as hir::Vector views of the bound columns (fixed-width data read in place).
#include <map>
#include <set>

#include "runtime/device_internal.h"

namespace rndn::runtime {

namespace {

class InterpDevice final : public Device {
public:
    Capabilities capabilities() const override {
        Capabilities c;
        c.name = "interp";
        c.description = "HorseIR reference interpreter (host, one thread)";
        c.input_memory = MemoryKind::HOST;
        c.zero_copy_inputs = true;
        c.needs_kernels = false;
        c.parallelism = 1;
        return c;
    }

    Status Prepare(std::shared_ptr<const CompiledPlan> plan, const RunOptions &options) override {
        if (!plan) return Status::Internal("interp: Prepare without a plan");
        plan_ = std::move(plan);
        options_ = options;
        result_ = hir::Value();
        ran_ = false;
        return Status::Ok();
    }

    Status Bind(const Inputs &inputs) override {
        if (!plan_) return Status::Internal("interp: Bind before Prepare");
        registry_ = hir::DataRegistry();
        external_ = inputs.registry;
        args_.clear();
        // Only the tables the plan loads, and those their foreign keys reference, are made
        // visible (binding costs the enum indexes and the string copies).
        std::set<std::string> needed;
        if (plan_->tables_known()) {
            std::vector<std::string> work = plan_->tables();
            while (!work.empty()) {
                std::string n = work.back();
                work.pop_back();
                if (!needed.insert(n).second) continue;
                for (const auto &t : inputs.tables)
                    if (t.name == n)
                        for (const auto &fk : t.foreign_keys) work.push_back(fk.table);
            }
        }
        auto wanted = [&](const InputTable &t) { return !plan_->tables_known() || needed.count(t.name) > 0; };
        // plain columns first, then foreign keys (enums need their referenced key column)
        std::map<std::string, std::vector<std::shared_ptr<const hir::Vector>>> vectors;
        for (const auto &t : inputs.tables) {
            if (external_ != nullptr) break;
            if (!wanted(t)) continue;
            if (t.column_names.size() != t.columns.size())
                return Status::Internal("interp: table " + t.name + " has " + std::to_string(t.column_names.size()) + " names for " +
                                        std::to_string(t.columns.size()) + " columns");
            if (vectors.count(t.name)) return Status::Internal("interp: table " + t.name + " bound twice");
            auto &vs = vectors[t.name];
            for (size_t c = 0; c < t.columns.size(); ++c) {
                if (c > 0 && t.columns[c].length != t.columns[0].length)
                    return Status::Internal("interp: columns of " + t.name + " differ in length");
                RNDN_ASSIGN_OR_RETURN(auto v, hir::VectorFromColumn(t.columns[c]));
                vs.push_back(std::move(v));
            }
        }
        for (const auto &t : inputs.tables) {
            if (external_ != nullptr) break;
            if (!wanted(t)) continue;
            std::vector<hir::Value> values(vectors[t.name].begin(), vectors[t.name].end());
            for (const auto &fk : t.foreign_keys) {
                if (fk.column < 0 || static_cast<size_t>(fk.column) >= t.columns.size())
                    return Status::Internal("interp: foreign key of " + t.name + " names no column");
                auto target = std::find_if(inputs.tables.begin(), inputs.tables.end(), [&](const InputTable &x) { return x.name == fk.table; });
                if (target == inputs.tables.end())
                    return Status::Internal("interp: " + t.name + "." + t.column_names[static_cast<size_t>(fk.column)] + " references table " +
                                            fk.table + ", which is not bound");
                auto kc = std::find(target->column_names.begin(), target->column_names.end(), fk.key_column);
                if (kc == target->column_names.end())
                    return Status::Internal("interp: referenced column " + fk.table + "." + fk.key_column + " is not bound");
                const auto &keys = vectors[fk.table][static_cast<size_t>(kc - target->column_names.begin())];
                RNDN_ASSIGN_OR_RETURN(auto e, hir::MakeEnum(keys, vectors[t.name][static_cast<size_t>(fk.column)], fk.table));
                values[static_cast<size_t>(fk.column)] = hir::Value(std::shared_ptr<const hir::Enum>(std::move(e)));
            }
            RNDN_RETURN_IF_ERROR(registry_.AddTable(t.name, t.column_names, std::move(values)));
            if (!t.primary_key.empty()) registry_.SetPrimaryKey(t.name, t.primary_key);
        }
        RNDN_RETURN_IF_ERROR(BindParameters(*plan_, inputs, &args_));
        bound_ = true;
        return Status::Ok();
    }

    Status Run() override {
        if (!plan_) return Status::Internal("interp: Run before Prepare");
        if (!bound_ && !plan_->parameters().empty()) return Status::Internal("interp: Run before Bind");
        if (cancel_requested()) return Status::Cancelled();
        hir::InterpretOptions o = InterpreterOptions(options_, *this);
        ran_ = false;
        RNDN_ASSIGN_OR_RETURN(result_, hir::Interpret(plan_->program(), external_ != nullptr ? *external_ : registry_, o, args_));
        ran_ = true;
        return Status::Ok();
    }

    RunReport report() const override {
        RunReport r;
        r.phase = "interpreter";
        return r;
    }

    Expected<Result> Fetch() override {
        if (!ran_) return Status::Internal("interp: Fetch without a successful Run");
        return ResultFromValue(result_);
    }

    Expected<hir::Value> FetchValue() override {
        if (!ran_) return Status::Internal("interp: Fetch without a successful Run");
        return result_;
    }

private:
    std::shared_ptr<const CompiledPlan> plan_;
    RunOptions options_;
    hir::DataRegistry registry_;
    hir::DataRegistry *external_ = nullptr;
    std::vector<hir::Value> args_;
    hir::Value result_;
    bool bound_ = false;
    bool ran_ = false;
};

}  // namespace

std::unique_ptr<Device> MakeInterpDevice() { return std::make_unique<InterpDevice>(); }

}  // namespace rndn::runtime
