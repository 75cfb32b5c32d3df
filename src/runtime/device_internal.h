// Internal to src/runtime: device constructors and shared helpers.
#pragma once

#include <algorithm>

#include "runtime/runtime.h"

namespace rndn::runtime {

std::unique_ptr<Device> MakeInterpDevice();
std::unique_ptr<Device> MakeCpuDevice();
std::unique_ptr<Device> MakeCudaDevice();
// A program's result value as columns (views of the value's memory).
Expected<Result> ResultFromValue(const hir::Value &v);
// The entry parameters' values from Inputs::parameters (one value each, as many as the plan takes).
Status BindParameters(const CompiledPlan &plan, const Inputs &inputs, std::vector<hir::Value> *args);
// The interpreter's options for a run: RunOptions' budget and SQL rules, and a cancel poller that
// reads the device's flag and RunOptions::interrupted.
hir::InterpretOptions InterpreterOptions(const RunOptions &options, const Device &device);

}  // namespace rndn::runtime
