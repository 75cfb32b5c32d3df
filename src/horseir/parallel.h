// Row-parallel loops of the interpreter's whole-vector kernels (internal to src/horseir).
//
// The interpreter runs on the backend's thread; a kernel over a long vector may split its rows
// into chunks that this thread and helper threads take in turn.  Helpers block every
// asynchronous signal (common/quiet_threads.h) and have no cancel poller (a PollCancel there is
// a no-op); this thread polls between its chunks, and a cancel's unwind lets the helpers finish
// the chunk they hold and joins them.  Without threads (none could start) this thread runs
// every chunk.  fn must only read shared state and write what its own chunk owns.
#pragma once

#include <algorithm>
#include <cstdint>

#include "common/chunks.h"
#include "horseir/internal.h"

namespace rndn::hir {

// Runs fn(c) for every chunk c in [0, chunks) on this thread and up to seven helpers (one per
// further core); this thread polls for a cancel before each chunk it takes.
template <class Fn>
void ParallelChunks(int64_t chunks, const Fn &fn) {
    RunChunks(chunks, fn, [] { PollCancelNow(); });
}

// The rows [0, n) cut into chunks for ForChunks: one chunk (run on the calling thread alone,
// starting helpers costs more) below kParallelMinRows, else chunks of kParallelChunkRows.
inline constexpr int64_t kParallelMinRows = int64_t(1) << 18;
inline constexpr int64_t kParallelChunkRows = int64_t(1) << 16;

struct RowChunks {
    int64_t n = 0, size = 1, count = 1;
    int64_t lo(int64_t c) const { return c * size; }
    int64_t hi(int64_t c) const { return std::min(n, (c + 1) * size); }
};
inline RowChunks ChunksOf(int64_t n) {
    if (n < kParallelMinRows) return {n, std::max<int64_t>(n, 1), 1};
    return {n, kParallelChunkRows, (n + kParallelChunkRows - 1) / kParallelChunkRows};
}

// fn(c, lo, hi) for every chunk of rc: on this thread when there is one, else on every core.
template <class Fn>
void ForChunks(const RowChunks &rc, const Fn &fn) {
    if (rc.count == 1) {
        fn(int64_t(0), int64_t(0), rc.n);
        return;
    }
    ParallelChunks(rc.count, [&](int64_t c) { fn(c, rc.lo(c), rc.hi(c)); });
}

}  // namespace rndn::hir
