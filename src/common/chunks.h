// Chunked loops on every core (the interpreter's long row loops, the runner's host passes).
// RowChunks/ChunksOf/ForChunks cut rows [0, n) into such chunks.
//
// RunChunks(chunks, fn, poll) runs fn(c) for every chunk c in [0, chunks) on the calling thread
// and up to seven helper threads (one per further core), each taking the next chunk in turn.
// Helpers block every asynchronous signal (quiet_threads.h) and must only read shared state and
// write what their chunk owns.  The calling thread calls poll() before each chunk it takes; poll
// may throw (the interpreter's cancel unwinds so): the helpers then finish the chunk they hold,
// take no more, and are joined.  Without threads (none could start) the calling thread runs
// every chunk.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <system_error>
#include <thread>
#include <vector>

#include "common/quiet_threads.h"

namespace rndn {

template <class Fn, class Poll>
void RunChunks(int64_t chunks, const Fn &fn, const Poll &poll) {
    std::atomic<int64_t> next{0};
    std::atomic<bool> stop{false};
    auto work = [&] {
        while (!stop.load(std::memory_order_relaxed)) {
            const int64_t c = next.fetch_add(1);
            if (c >= chunks) return;
            fn(c);
        }
    };
    struct Joiner {
        std::atomic<bool> &stop;
        std::vector<std::thread> threads;
        ~Joiner() {
            stop = true;
            for (std::thread &t : threads) t.join();
        }
    } joiner{stop, {}};
    const int64_t cores = std::max(1u, std::thread::hardware_concurrency());
    const int64_t helpers = std::min<int64_t>({cores - 1, chunks - 1, 7});
    if (helpers > 0) {
        try {
            WithAsyncSignalsBlocked([&] {
                for (int64_t h = 0; h < helpers; ++h) joiner.threads.emplace_back(work);
            });
        } catch (const std::system_error &) {
            // fewer helpers (or none): this thread takes the chunks left
        }
    }
    while (true) {
        poll();
        const int64_t c = next.fetch_add(1);
        if (c >= chunks) break;
        fn(c);
    }
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

// fn(c, lo, hi) for every chunk of rc: on the calling thread when there is one, else through
// RunChunks (poll as there).
template <class Fn, class Poll>
void ForChunks(const RowChunks &rc, const Fn &fn, const Poll &poll) {
    if (rc.count == 1) {
        fn(int64_t(0), int64_t(0), rc.n);
        return;
    }
    RunChunks(rc.count, [&](int64_t c) { fn(c, rc.lo(c), rc.hi(c)); }, poll);
}

}  // namespace rndn
