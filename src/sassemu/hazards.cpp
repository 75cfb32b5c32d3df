// The control-code checker (see hazards.h).
#include "sassemu/hazards.h"

namespace rndn::sassemu {

HazardState::HazardState(const KernelImpl &k) : k_(k) {}
void HazardState::Reset(Cta &) {}
void HazardState::Issue(Cta &, Warp &, const DInst &) {}
void HazardState::Flush(std::vector<Hazard> &out, std::mutex &mu) {
    std::lock_guard<std::mutex> g(mu);
    out.insert(out.end(), found_.begin(), found_.end());
    found_.clear();
}

}  // namespace rndn::sassemu
