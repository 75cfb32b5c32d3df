// The control-code checker: per warp, when each register written by a fixed-latency instruction
// is ready (stall counts) and which scoreboard guards each variable-latency result.
#pragma once

#include <mutex>
#include <vector>

#include "sassemu/internal.h"

namespace rndn::sassemu {

class HazardState {
public:
    explicit HazardState(const KernelImpl &k);
    void Reset(Cta &c);
    void Issue(Cta &c, Warp &w, const DInst &d);
    void Flush(std::vector<Hazard> &out, std::mutex &mu);
    bool ok() const { return found_.empty(); }

private:
    const KernelImpl &k_;
    std::vector<Hazard> found_;
};

}  // namespace rndn::sassemu
