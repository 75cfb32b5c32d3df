// rndn::Allocator and rndn::DataBuffer: the memory under every column (loader output, column
// cache, device inputs and results).
//
//   * Allocator: where bytes come from (host memory now; page-locked host memory and shared
//     memory for GPU devices later), with a byte counter and an optional limit
//     (rndn.memory_limit: over it, OUT_OF_MEMORY / SQLSTATE 53200, never the OOM killer).
//   * DataBuffer: an immutable-once-shared view (pointer, size) over bytes whose lifetime is held by
//     an owner: an allocation from an Allocator, or any other object (a hir::Vector, a
//     PostgreSQL-side cache entry).  Copies share; nothing is copied.
//
// No PostgreSQL, no LLVM.  Thread-safe: allocators may be used from worker threads.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "common/status.h"

namespace rndn {

enum class MemoryKind : uint8_t { HOST, PINNED_HOST, SHARED, DEVICE };
const char *MemoryKindName(MemoryKind k);

class Allocator {
public:
    virtual ~Allocator() = default;
    virtual MemoryKind kind() const = 0;
    virtual const char *name() const = 0;
    // `bytes` bytes aligned to `alignment` (a power of two, at least 16); nullptr when the
    // memory is not there.  Never throws.
    virtual void *Allocate(size_t bytes, size_t alignment) noexcept = 0;
    virtual void Free(void *p, size_t bytes) noexcept = 0;
};

// malloc-backed host memory (process-wide, thread-safe).
Allocator &HostMemory();

// Counts the bytes allocated through it from `base` and refuses to go over `limit` (0: no
// limit).  Charge/Uncharge account memory held elsewhere (e.g. string bytes in std containers).
class CountingAllocator final : public Allocator {
public:
    explicit CountingAllocator(Allocator &base, int64_t limit = 0) : base_(base), limit_(limit) {}
    MemoryKind kind() const override { return base_.kind(); }
    const char *name() const override { return base_.name(); }
    void *Allocate(size_t bytes, size_t alignment) noexcept override;
    void Free(void *p, size_t bytes) noexcept override;
    bool Charge(int64_t bytes) noexcept;
    void Uncharge(int64_t bytes) noexcept { used_.fetch_sub(bytes, std::memory_order_relaxed); }
    int64_t used() const { return used_.load(std::memory_order_relaxed); }
    int64_t limit() const { return limit_; }

private:
    Allocator &base_;
    int64_t limit_;
    std::atomic<int64_t> used_{0};
};

class DataBuffer {
public:
    static constexpr size_t kAlignment = 64;

    DataBuffer() = default;
    // A fresh allocation of `bytes` (zero-filled when `zero`), freed through `allocator` when
    // the last view goes.  The allocator must outlive the buffer.  OUT_OF_MEMORY on failure.
    static Expected<DataBuffer> Allocate(Allocator &allocator, size_t bytes, bool zero = true);
    // A view of memory owned by `owner` (kept alive by the buffer); nothing is copied.
    static DataBuffer View(const void *data, size_t size, std::shared_ptr<const void> owner,
                       MemoryKind memory = MemoryKind::HOST);

    const uint8_t *data() const { return data_; }
    // Writable access, for the producer that filled a fresh allocation before sharing it.
    uint8_t *mutable_data() const { return const_cast<uint8_t *>(data_); }
    size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    MemoryKind memory() const { return memory_; }
    const std::shared_ptr<const void> &owner() const { return owner_; }
    template <class T>
    const T *As() const {
        return reinterpret_cast<const T *>(data_);
    }
    // Bytes [offset, offset + size) of this view (clamped to it), sharing the owner.
    DataBuffer Slice(size_t offset, size_t size) const;

private:
    const uint8_t *data_ = nullptr;
    size_t size_ = 0;
    MemoryKind memory_ = MemoryKind::HOST;
    std::shared_ptr<const void> owner_;
};

}  // namespace rndn
