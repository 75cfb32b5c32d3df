// The interpreter's pool of freed vector payloads (value.cpp), as memory accounting sees it.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

namespace rndn::hir {

// Returns pooled payloads to the system, largest first, until at most keep_bytes stay (also
// declared in horseir.h).  Thread-safe.
void ReleasePooledPayloads(size_t keep_bytes);
// Bytes of freed payloads the pool holds for reuse (not in any vector).  A caller that bounds
// memory counts them as in use: the interpreter's memory budget and the loader's allocator hand
// them back to the system before live values plus pooled bytes would exceed their limit.
size_t PooledPayloadBytes();

// Scratch arrays of the kernels (ids, ranks, hash tables, counts) through the same pool: a
// std::vector of 64 KiB or more from PoolAllocator takes a freed payload of about its size and
// gives it back when freed, so the next step or query reuses the memory instead of faulting
// fresh pages in and zeroing them (a plain std::vector that large is mmapped and unmapped each
// time).  Smaller ones come from operator new.
inline constexpr size_t kPooledScratchMinBytes = size_t(64) << 10;
void *TakePooledScratch(size_t bytes);  // bytes >= kPooledScratchMinBytes; throws std::bad_alloc
void GivePooledScratch(void *p);

template <class T>
struct PoolAllocator {
    using value_type = T;
    PoolAllocator() = default;
    template <class U>
    PoolAllocator(const PoolAllocator<U> &) {}
    T *allocate(size_t n) {
        if (n * sizeof(T) >= kPooledScratchMinBytes) return static_cast<T *>(TakePooledScratch(n * sizeof(T)));
        return std::allocator<T>().allocate(n);
    }
    void deallocate(T *p, size_t n) {
        if (n * sizeof(T) >= kPooledScratchMinBytes) GivePooledScratch(p);
        else std::allocator<T>().deallocate(p, n);
    }
    template <class U>
    bool operator==(const PoolAllocator<U> &) const {
        return true;
    }
};
template <class T>
using PoolVector = std::vector<T, PoolAllocator<T>>;

}  // namespace rndn::hir
