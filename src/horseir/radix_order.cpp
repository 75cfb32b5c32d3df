#include "horseir/radix_order.h"

#include <algorithm>
#include <numeric>

#include "horseir/internal.h"

namespace rndn::hir::radix {

namespace {

constexpr int kMaxDigitBits = 11;  // 2048 buckets: the counts stay in the L1 cache

int BitsOf(uint64_t span) { return span == 0 ? 0 : 64 - __builtin_clzll(span); }

// One stable counting pass of `in` into `out` by digit (x >> shift) & mask of what `digit_of`
// returns for element i; `move(i, j)` places element i of the input at position j.
template <class DigitOf, class Move>
void CountingPass(int64_t n, int digit_bits, DigitOf digit_of, Move move) {
    std::vector<int64_t> start((size_t(1) << digit_bits) + 1, 0);
    for (int64_t i = 0; i < n; ++i) {
        PollCancel(i);
        ++start[static_cast<size_t>(digit_of(i)) + 1];
    }
    for (size_t d = 1; d < start.size(); ++d) start[d] += start[d - 1];
    for (int64_t i = 0; i < n; ++i) {
        PollCancel(i);
        move(i, start[static_cast<size_t>(digit_of(i))]++);
    }
}

}  // namespace

std::vector<int64_t> StableOrder(const uint64_t *key, int64_t n) {
    std::vector<int64_t> order(static_cast<size_t>(std::max<int64_t>(n, 0)));
    if (n <= 0) return order;
    uint64_t lo = key[0], hi = key[0];
    bool sorted = true;  // rows already in key order (a relation loaded in its index's order)
    for (int64_t i = 0; i < n; ++i) {
        PollCancel(i);
        lo = std::min(lo, key[i]);
        hi = std::max(hi, key[i]);
        sorted = sorted && (i == 0 || key[i - 1] <= key[i]);
    }
    const int key_bits = BitsOf(hi - lo);
    if (key_bits == 0 || sorted) {  // one key, or sorted already: the rows' own order
        std::iota(order.begin(), order.end(), int64_t{0});
        return order;
    }
    const int passes = (key_bits + kMaxDigitBits - 1) / kMaxDigitBits;
    const int digit_bits = (key_bits + passes - 1) / passes;
    const uint64_t mask = (uint64_t(1) << digit_bits) - 1;
    const int row_bits = std::max(1, BitsOf(static_cast<uint64_t>(n - 1)));
    if (key_bits + row_bits <= 64) {
        // Key and row number packed into one word (key above, row below): each pass moves one
        // array, and the row numbers need no pass of their own (they start ascending).
        std::vector<uint64_t> a(static_cast<size_t>(n)), b(static_cast<size_t>(n));
        for (int64_t i = 0; i < n; ++i) {
            PollCancel(i);
            a[static_cast<size_t>(i)] = ((key[i] - lo) << row_bits) | static_cast<uint64_t>(i);
        }
        for (int p = 0; p < passes; ++p) {
            const int shift = row_bits + p * digit_bits;
            CountingPass(
                n, digit_bits, [&](int64_t i) { return (a[static_cast<size_t>(i)] >> shift) & mask; },
                [&](int64_t i, int64_t j) { b[static_cast<size_t>(j)] = a[static_cast<size_t>(i)]; });
            a.swap(b);
        }
        const uint64_t row_mask = row_bits == 64 ? ~uint64_t(0) : (uint64_t(1) << row_bits) - 1;
        for (int64_t i = 0; i < n; ++i) order[static_cast<size_t>(i)] = static_cast<int64_t>(a[static_cast<size_t>(i)] & row_mask);
        return order;
    }
    // Keys too wide to share a word with the row number: key and row move side by side.
    std::vector<uint64_t> k(static_cast<size_t>(n)), k2(static_cast<size_t>(n));
    std::vector<int64_t> o2(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) {
        PollCancel(i);
        k[static_cast<size_t>(i)] = key[i] - lo;
        order[static_cast<size_t>(i)] = i;
    }
    for (int p = 0; p < passes; ++p) {
        const int shift = p * digit_bits;
        CountingPass(
            n, digit_bits, [&](int64_t i) { return (k[static_cast<size_t>(i)] >> shift) & mask; },
            [&](int64_t i, int64_t j) {
                k2[static_cast<size_t>(j)] = k[static_cast<size_t>(i)];
                o2[static_cast<size_t>(j)] = order[static_cast<size_t>(i)];
            });
        k.swap(k2);
        order.swap(o2);
    }
    return order;
}

}  // namespace rndn::hir::radix
