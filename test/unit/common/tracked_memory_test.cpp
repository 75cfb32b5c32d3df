// common/tracked_memory.h: lookups inside noted allocations, release listeners, and the
// allocators that note (HostMemory() from 64 KiB on).
#include <gtest/gtest.h>

#include <cstdlib>
#include <vector>

#include "common/buffer.h"
#include "common/tracked_memory.h"

namespace rndn {
namespace {

TEST(TrackedMemory, FindsTheAllocationHoldingARange) {
    std::vector<char> block(1000);
    const char *p = block.data();
    NoteAllocation(p, 1000);
    const void *base = nullptr;
    size_t len = 0;
    EXPECT_TRUE(FindAllocation(p, 1000, &base, &len));
    EXPECT_EQ(base, p);
    EXPECT_EQ(len, 1000u);
    EXPECT_TRUE(FindAllocation(p + 999, 1, &base, &len));
    EXPECT_TRUE(FindAllocation(p + 100, 50, &base, &len));
    EXPECT_FALSE(FindAllocation(p + 999, 2, &base, &len)) << "a range running past the end";
    EXPECT_FALSE(FindAllocation(p - 1, 1, &base, &len)) << "a range before the start";
    NoteRelease(p);
    EXPECT_FALSE(FindAllocation(p + 100, 50, &base, &len)) << "released";
}

TEST(TrackedMemory, ListenersHearEachReleaseOnceUntilRemoved) {
    std::vector<std::pair<const void *, size_t>> heard;
    int id = AddReleaseListener([&](const void *b, size_t n) { heard.emplace_back(b, n); });
    std::vector<char> a(300), b(500);
    NoteAllocation(a.data(), 300);
    NoteAllocation(b.data(), 500);
    NoteRelease(a.data());
    NoteRelease(a.data());      // already released: nothing
    NoteRelease(a.data() + 1);  // never noted: nothing
    ASSERT_EQ(heard.size(), 1u);
    EXPECT_EQ(heard[0].first, a.data());
    EXPECT_EQ(heard[0].second, 300u);
    RemoveReleaseListener(id);
    NoteRelease(b.data());
    EXPECT_EQ(heard.size(), 1u) << "a removed listener was called";
}

TEST(TrackedMemory, HostMemoryNotesLargeAllocations) {
    int released = 0;
    int id = AddReleaseListener([&](const void *, size_t) { ++released; });
    Allocator &host = HostMemory();
    void *big = host.Allocate(kTrackedMinBytes, 64);
    void *small = host.Allocate(1024, 64);
    ASSERT_TRUE(big && small);
    const void *base = nullptr;
    size_t len = 0;
    EXPECT_TRUE(FindAllocation(static_cast<char *>(big) + 10, 100, &base, &len));
    EXPECT_EQ(base, big);
    EXPECT_GE(len, kTrackedMinBytes);
    EXPECT_FALSE(FindAllocation(small, 1024, &base, &len));
    host.Free(small, 1024);
    EXPECT_EQ(released, 0);
    host.Free(big, 0);  // (the loader frees with a size of 0)
    EXPECT_EQ(released, 1);
    EXPECT_FALSE(FindAllocation(big, 1, &base, &len));
    RemoveReleaseListener(id);
}

}  // namespace
}  // namespace rndn
