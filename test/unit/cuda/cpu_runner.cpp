// The cpu device's runner for tpch_test.cpp's timing (cpujit.h and the cuda harness declare
// the same names, so they live in separate files).
#include <memory>

#include "codegen/codegen.h"
#include "cpujit/cpujit.h"

namespace rndn::cuda::testing {

std::shared_ptr<codegen::Runner> CpuDeviceRunner() {
    struct Owner {
        cpujit::Device device;
        codegen::Runner runner{device};
    };
    auto o = std::make_shared<Owner>();
    return std::shared_ptr<codegen::Runner>(o, &o->runner);
}

}  // namespace rndn::cuda::testing
