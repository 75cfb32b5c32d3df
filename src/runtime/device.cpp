// Device registry, results as columns and text, inputs from a DataRegistry.
#include "runtime/device_internal.h"

namespace rndn::runtime {

namespace {

struct DeviceEntry {
    const char *name;
    std::unique_ptr<Device> (*make)();
};
// One row per device of this build.
const DeviceEntry kDevices[] = {
    {"interp", MakeInterpDevice},
    {"cpu", MakeCpuDevice},
    {"cuda", MakeCudaDevice},
};

Status AddVectorColumn(Result &r, const std::string &name, const hir::Value &v) {
    std::shared_ptr<const hir::Vector> vec;
    if (v.is_vector()) vec = v.vector_ptr();
    else if (v.kind() == hir::ValueKind::ENUM) vec = v.enumeration().values;
    else return Status::Unsupported("a result column that is not a vector");
    RNDN_ASSIGN_OR_RETURN(hir::Column c, hir::ColumnFromVector(vec));
    // a table's columns have one length; a list's cells may differ (rows: the longest)
    if (r.is_table && !r.columns.empty() && c.length != r.rows) return Status::Internal("result columns differ in length");
    r.rows = std::max(r.rows, c.length);
    r.names.push_back(name);
    r.columns.push_back(std::move(c));
    return Status::Ok();
}

Status AddTable(Result &r, const hir::Table &t) {
    for (size_t i = 0; i < t.columns.size(); ++i) RNDN_RETURN_IF_ERROR(AddVectorColumn(r, t.names[i], t.columns[i]));
    return Status::Ok();
}

}  // namespace

std::vector<std::string> DeviceNames() {
    std::vector<std::string> names;
    for (const auto &d : kDevices) names.push_back(d.name);
    return names;
}

Expected<std::unique_ptr<Device>> MakeDevice(std::string_view name) {
    for (const auto &d : kDevices)
        if (name == d.name) return d.make();
    std::string known;
    for (const auto &d : kDevices) known += std::string(known.empty() ? "" : ", ") + d.name;
    return Status::Unsupported("no device '" + std::string(name) + "' in this build (devices: " + known + ")");
}

Status BindParameters(const CompiledPlan &plan, const Inputs &inputs, std::vector<hir::Value> *args) {
    const auto &params = plan.parameters();
    if (inputs.parameters.size() != params.size())
        return Status::UserError(sqlstate::kInvalidParameter, "the plan takes " + std::to_string(params.size()) + " parameter(s), " +
                                                                  std::to_string(inputs.parameters.size()) + " bound");
    args->clear();
    for (const auto &p : inputs.parameters) {
        if (p.length != 1) return Status::UserError(sqlstate::kInvalidParameter, "a parameter is one value (length 1)");
        RNDN_ASSIGN_OR_RETURN(auto v, hir::VectorFromColumn(p));
        args->emplace_back(std::move(v));
    }
    return Status::Ok();
}

hir::InterpretOptions InterpreterOptions(const RunOptions &options, const Device &device) {
    hir::InterpretOptions o;
    auto interrupted = options.interrupted;
    o.should_cancel = [&device, interrupted]() { return device.cancel_requested() || (interrupted && interrupted()); };
    o.memory_budget = options.memory_budget;
    o.sql_empty_aggregates = o.sql_float_errors = o.sql_casts = options.sql_semantics;
    return o;
}

Expected<Result> ResultFromValue(const hir::Value &v) {
    Result r;
    switch (v.kind()) {
        case hir::ValueKind::TABLE: RNDN_RETURN_IF_ERROR(AddTable(r, v.table())); break;
        case hir::ValueKind::KTABLE:
            RNDN_RETURN_IF_ERROR(AddTable(r, *v.ktable().key));
            RNDN_RETURN_IF_ERROR(AddTable(r, *v.ktable().value));
            break;
        case hir::ValueKind::VECTOR:
        case hir::ValueKind::ENUM:
            r.is_table = false;
            RNDN_RETURN_IF_ERROR(AddVectorColumn(r, "", v));
            break;
        case hir::ValueKind::LIST:
            r.is_table = false;
            for (const auto &c : v.list().cells) RNDN_RETURN_IF_ERROR(AddVectorColumn(r, "", c));
            break;
        default: return Status::Unsupported("the program's result is not a table or vectors");
    }
    return r;
}

std::string FormatResult(const Result &r) {
    std::vector<hir::Value> cols;
    for (const auto &c : r.columns) {
        auto v = hir::VectorFromColumn(c);
        if (!v.ok()) return "error: " + v.status().message() + "\n";
        cols.emplace_back(*v);
    }
    if (!r.is_table) {
        std::string out;
        for (const auto &c : cols) out += hir::FormatValue(c);
        return out;
    }
    auto t = std::make_shared<hir::Table>();
    t->names = r.names;
    t->columns = std::move(cols);
    return hir::FormatValue(hir::Value(std::shared_ptr<const hir::Table>(t)));
}

Expected<std::vector<InputTable>> InputsFromRegistry(const hir::DataRegistry &registry) {
    std::vector<InputTable> out;
    for (const auto &name : registry.TableNames()) {
        RNDN_ASSIGN_OR_RETURN(auto t, registry.GetTable(name));
        InputTable in;
        in.name = name;
        in.primary_key = registry.PrimaryKey(name);
        for (size_t c = 0; c < t->columns.size(); ++c) {
            const hir::Value &v = t->columns[c];
            std::shared_ptr<const hir::Vector> vec;
            if (v.is_vector()) {
                vec = v.vector_ptr();
            } else if (v.kind() == hir::ValueKind::ENUM) {
                const hir::Enum &e = v.enumeration();
                vec = e.values;
                // the referenced key column: the target table's column that is e.keys
                RNDN_ASSIGN_OR_RETURN(auto target, registry.GetTable(e.target_table));
                std::string key;
                for (size_t k = 0; k < target->columns.size(); ++k)
                    if (target->columns[k].is_vector() && target->columns[k].vector_ptr() == e.keys) key = target->names[k];
                if (key.empty()) return Status::Internal(name + "." + t->names[c] + ": referenced key column not found");
                in.foreign_keys.push_back(InputTable::ForeignKey{static_cast<int>(c), e.target_table, key});
            } else {
                return Status::Unsupported(name + "." + t->names[c] + ": not a column");
            }
            RNDN_ASSIGN_OR_RETURN(hir::Column col, hir::ColumnFromVector(vec));
            in.column_names.push_back(t->names[c]);
            in.columns.push_back(std::move(col));
        }
        out.push_back(std::move(in));
    }
    return out;
}

}  // namespace rndn::runtime
