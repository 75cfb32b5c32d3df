#include "common/buffer.h"

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

class Malloc final : public Allocator {
public:
    MemoryKind kind() const override { return MemoryKind::HOST; }
    const char *name() const override { return "host"; }
    void *Allocate(size_t bytes, size_t alignment) noexcept override {
        if (alignment < 16) alignment = 16;
        size_t rounded = (bytes + alignment - 1) / alignment * alignment;
        if (rounded == 0) rounded = alignment;
        return std::aligned_alloc(alignment, rounded);
    }
    void Free(void *p, size_t) noexcept override { std::free(p); }
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
