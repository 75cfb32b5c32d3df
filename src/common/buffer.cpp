#include "common/buffer.h"

#include "common/tracked_memory.h"

#include <sys/mman.h>

#include <cstdlib>
#include <cstring>
#include <new>
#include <string>

namespace rndn {

const char *MemoryKindName(MemoryKind k) {
    switch (k) {
        case MemoryKind::HOST: return "host";
        case MemoryKind::PINNED_HOST: return "pinned-host";
        case MemoryKind::SHARED: return "shared";
        case MemoryKind::DEVICE: return "device";
    }
    return "?";
}

namespace {

// Buffers of 4 MiB and more (column buffers of a large relation) start on a 2 MiB boundary
// and ask for transparent huge pages: a fresh column is written once from start to end, and
// faulting it in by 4 KiB pages costs several times what huge pages cost (on the machines we
// measured, about 0.4 s per GiB against 0.1 s; more on a virtual machine's first touch).
constexpr size_t kHugePage = size_t(2) << 20;
constexpr size_t kHugeMinBytes = 2 * kHugePage;

class Malloc final : public Allocator {
public:
    MemoryKind kind() const override { return MemoryKind::HOST; }
    const char *name() const override { return "host"; }
    void *Allocate(size_t bytes, size_t alignment) noexcept override {
        if (alignment < 16) alignment = 16;
        const bool huge = bytes >= kHugeMinBytes && alignment <= kHugePage;
        if (huge) alignment = kHugePage;
        size_t rounded = (bytes + alignment - 1) / alignment * alignment;
        if (rounded == 0) rounded = alignment;
        void *p = std::aligned_alloc(alignment, rounded);
        if (p != nullptr && huge) madvise(p, rounded, MADV_HUGEPAGE);
        if (p != nullptr && rounded >= kTrackedMinBytes) NoteAllocation(p, rounded);  // see tracked_memory.h
        return p;
    }
    void Free(void *p, size_t) noexcept override {
        NoteRelease(p);  // (callers may pass 0 bytes)
        std::free(p);
    }
};

}  // namespace

Allocator &HostMemory() {
    static Malloc host;
    return host;
}

void *CountingAllocator::Allocate(size_t bytes, size_t alignment) noexcept {
    if (!Charge(static_cast<int64_t>(bytes))) return nullptr;
    void *p = base_.Allocate(bytes, alignment);
    if (!p) Uncharge(static_cast<int64_t>(bytes));
    return p;
}

void CountingAllocator::Free(void *p, size_t bytes) noexcept {
    if (!p) return;
    base_.Free(p, bytes);
    Uncharge(static_cast<int64_t>(bytes));
}

bool CountingAllocator::Charge(int64_t bytes) noexcept {
    int64_t now = used_.fetch_add(bytes, std::memory_order_relaxed) + bytes;
    if (limit_ > 0 && now > limit_) {
        used_.fetch_sub(bytes, std::memory_order_relaxed);
        return false;
    }
    return true;
}

namespace {

// Owner of one allocation: frees it through its allocator when the last view goes.
struct Allocation {
    Allocator *allocator;
    void *p;
    size_t bytes;
    ~Allocation() { allocator->Free(p, bytes); }
};

}  // namespace

Expected<DataBuffer> DataBuffer::Allocate(Allocator &allocator, size_t bytes, bool zero) {
    void *p = allocator.Allocate(bytes == 0 ? kAlignment : bytes, kAlignment);
    if (!p)
        return Status::OutOfMemory("out of memory: " + std::to_string(bytes) + " bytes of " + allocator.name() +
                                   " memory for a column buffer");
    if (zero) std::memset(p, 0, bytes);
    auto *a = new (std::nothrow) Allocation{&allocator, p, bytes == 0 ? kAlignment : bytes};
    if (!a) {
        allocator.Free(p, bytes == 0 ? kAlignment : bytes);
        return Status::OutOfMemory("out of memory for a column buffer");
    }
    std::shared_ptr<Allocation> owner;
    try {
        owner.reset(a);  // on failure reset deletes a, which frees p
    } catch (...) {
        return Status::OutOfMemory("out of memory for a column buffer");
    }
    DataBuffer b;
    b.data_ = static_cast<const uint8_t *>(p);
    b.size_ = bytes;
    b.memory_ = allocator.kind();
    b.owner_ = std::move(owner);
    return b;
}

DataBuffer DataBuffer::View(const void *data, size_t size, std::shared_ptr<const void> owner, MemoryKind memory) {
    DataBuffer b;
    b.data_ = static_cast<const uint8_t *>(data);
    b.size_ = size;
    b.memory_ = memory;
    b.owner_ = std::move(owner);
    return b;
}

DataBuffer DataBuffer::Slice(size_t offset, size_t size) const {
    if (offset > size_) offset = size_;
    if (size > size_ - offset) size = size_ - offset;
    return View(data_ + offset, size, owner_, memory_);
}

}  // namespace rndn
