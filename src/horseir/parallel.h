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

using rndn::ChunksOf;
using rndn::RowChunks;

// fn(c, lo, hi) for every chunk of rc (common/chunks.h): on this thread when there is one, else
// on every core, this thread polling for a cancel between its chunks.
template <class Fn>
void ForChunks(const RowChunks &rc, const Fn &fn) {
    rndn::ForChunks(rc, fn, [] { PollCancelNow(); });
}

}  // namespace rndn::hir
