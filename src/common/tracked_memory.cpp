#include "common/tracked_memory.h"

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <utility>
#include <vector>

namespace rndn {

namespace {

struct Registry {
    std::mutex mu;
    std::map<uintptr_t, size_t> live;  // base -> bytes
    // listeners: shared while called, exclusive while the list changes
    std::shared_mutex listeners_mu;
    std::vector<std::pair<int, std::function<void(const void *, size_t)>>> listeners;
    int next_id = 1;
};

Registry &R() {
    static Registry *r = new Registry();  // never destroyed: memory may be freed during static teardown
    return *r;
}

}  // namespace

void NoteAllocation(const void *base, size_t bytes) {
    if (!base || bytes == 0) return;
    Registry &r = R();
    std::lock_guard<std::mutex> lock(r.mu);
    r.live[reinterpret_cast<uintptr_t>(base)] = bytes;
}

void NoteRelease(const void *base) {
    if (!base) return;
    Registry &r = R();
    size_t bytes = 0;
    {
        std::lock_guard<std::mutex> lock(r.mu);
        auto it = r.live.find(reinterpret_cast<uintptr_t>(base));
        if (it == r.live.end()) return;
        bytes = it->second;
        r.live.erase(it);
    }
    std::shared_lock<std::shared_mutex> lock(r.listeners_mu);
    for (const auto &l : r.listeners) l.second(base, bytes);
}

bool FindAllocation(const void *p, size_t bytes, const void **base, size_t *length) {
    Registry &r = R();
    const uintptr_t a = reinterpret_cast<uintptr_t>(p);
    std::lock_guard<std::mutex> lock(r.mu);
    auto it = r.live.upper_bound(a);
    if (it == r.live.begin()) return false;
    --it;
    if (a + bytes > it->first + it->second) return false;
    *base = reinterpret_cast<const void *>(it->first);
    *length = it->second;
    return true;
}

int AddReleaseListener(std::function<void(const void *, size_t)> listener) {
    Registry &r = R();
    std::unique_lock<std::shared_mutex> lock(r.listeners_mu);
    int id = r.next_id++;
    r.listeners.emplace_back(id, std::move(listener));
    return id;
}

void RemoveReleaseListener(int id) {
    Registry &r = R();
    std::unique_lock<std::shared_mutex> lock(r.listeners_mu);
    for (size_t i = 0; i < r.listeners.size(); ++i)
        if (r.listeners[i].first == id) {
            r.listeners.erase(r.listeners.begin() + static_cast<std::ptrdiff_t>(i));
            return;
        }
}

}  // namespace rndn
