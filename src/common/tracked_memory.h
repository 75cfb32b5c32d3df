// Large host allocations that say when they end.  A GPU device reads host columns at their own
// address once the driver has page-locked them (cuMemHostRegister), and locking 100 MB costs
// tens of milliseconds: done before each launch and undone after it, that was most of a warm
// query's time on the GPU.  An allocation noted here may stay registered from its first use until
// it is released, because the allocator calls NoteRelease (and so the listeners) before the memory
// goes back to the system.  Memory not noted here (std::vector words, PostgreSQL's, a shared
// segment) is registered for one launch only, as before.
//
// Noted by horseir's payload pool and common's HostMemory() for allocations of 64 KiB and more.
// Thread-safe; listeners run on the releasing thread, outside the registry's lock.
#pragma once

#include <cstddef>
#include <functional>

namespace rndn {

constexpr size_t kTrackedMinBytes = size_t(64) << 10;

void NoteAllocation(const void *base, size_t bytes);
// Before `base` (a noted allocation; others are ignored) is freed: every listener first.
void NoteRelease(const void *base);
// The noted allocation holding [p, p + bytes): its base and length.
bool FindAllocation(const void *p, size_t bytes, const void **base, size_t *length);

// Called with (base, length) of each noted allocation about to be freed.  Returns an id for
// RemoveReleaseListener, which waits for calls of that listener in flight to end.
int AddReleaseListener(std::function<void(const void *, size_t)> listener);
void RemoveReleaseListener(int id);

}  // namespace rndn
