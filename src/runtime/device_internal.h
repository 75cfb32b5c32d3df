// Internal to src/runtime: device constructors and shared helpers.
#pragma once

#include <algorithm>

#include "runtime/runtime.h"

namespace rndn::runtime {

std::unique_ptr<Device> MakeInterpDevice();
std::unique_ptr<Device> MakeCpuDevice();
// A program's result value as columns (views of the value's memory).
Expected<Result> ResultFromValue(const hir::Value &v);

}  // namespace rndn::runtime
