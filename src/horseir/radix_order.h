// Stable ordering of rows by unsigned 64-bit keys, by least-significant-digit radix sort
// (internal to src/horseir).
//
// The interpreter orders rows by one key or by a tuple of keys (@order, ranks for @group and
// joins).  Comparison sorts over row numbers jump between the key arrays at random; a radix
// sort streams through them a few times, whatever the number of rows.  Keys are given as
// order-preserving unsigned integers: the callers map signed integers, dates, decimals and
// floats into them (OrderKey* below) or combine per-key dense ranks into one mixed-radix key.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

#include "common/status.h"

namespace rndn::hir::radix {

// Row numbers 0..n-1 sorted by key[row] ascending into order[0..n); rows with equal keys keep
// their relative order (stable).  Polls for cancellation (hir::PollCancel) as it goes.  The
// scratch arrays come from the interpreter's payload pool (huge pages, reused by the next sort
// of a similar size instead of faulting fresh memory in): OutOfMemory when it cannot have them.
Status StableOrder(const uint64_t *key, int64_t n, int64_t *order);
// The same into a new vector (std::bad_alloc when the memory is not there, as for the vector).
std::vector<int64_t> StableOrder(const uint64_t *key, int64_t n);

// Order-preserving maps into uint64_t: a < b exactly when OrderKey(a) < OrderKey(b).
inline uint64_t OrderKeySigned(int64_t v) { return static_cast<uint64_t>(v) ^ (uint64_t(1) << 63); }
// Floats as the interpreter compares them (PostgreSQL's rule): -0 equals 0, every NaN is equal
// to every other NaN and above +Infinity.
inline uint64_t OrderKeyDouble(double v) {
    if (v != v) return ~uint64_t(0);  // NaN: above the image of +Infinity
    if (v == 0) v = 0.0;              // -0 -> +0
    uint64_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    return (bits >> 63) != 0 ? ~bits : bits | (uint64_t(1) << 63);
}

}  // namespace rndn::hir::radix
