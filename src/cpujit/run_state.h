// Launch-wide state shared by the generated code's helpers (internal to src/cpujit).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace rndn::cpujit {

struct RunState {
    bool check_bounds = true;
    std::vector<std::pair<uint64_t, uint64_t>> ranges;  // accessible [begin, end), sorted by begin
    std::vector<uint32_t> tid_tab;                      // lock-step kernels: see ThreadCtx::tid_tab
};

}  // namespace rndn::cpujit
