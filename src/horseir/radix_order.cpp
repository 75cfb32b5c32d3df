#include "horseir/radix_order.h"

#include <algorithm>
#include <new>
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

Status StableOrder(const uint64_t *key, int64_t n, int64_t *order) {
    if (n <= 0) return Status::Ok();
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
        std::iota(order, order + n, int64_t{0});
        return Status::Ok();
    }
    const int passes = (key_bits + kMaxDigitBits - 1) / kMaxDigitBits;
    const int digit_bits = (key_bits + passes - 1) / passes;
    const uint64_t mask = (uint64_t(1) << digit_bits) - 1;
    const int row_bits = std::max(1, BitsOf(static_cast<uint64_t>(n - 1)));
    // scratch words from the payload pool
    auto scratch = [n]() -> Expected<std::shared_ptr<Vector>> { return MakeVectorUninit(TypeKind::I64, n); };
    if (key_bits + row_bits <= 64) {
        // Key and row number packed into one word (key above, row below): each pass moves one
        // array, and the row numbers need no pass of their own (they start ascending).
        RNDN_ASSIGN_OR_RETURN(auto va, scratch());
        RNDN_ASSIGN_OR_RETURN(auto vb, scratch());
        uint64_t *a = va->Data<uint64_t>(), *b = vb->Data<uint64_t>();
        for (int64_t i = 0; i < n; ++i) {
            PollCancel(i);
            a[i] = ((key[i] - lo) << row_bits) | static_cast<uint64_t>(i);
        }
        for (int p = 0; p < passes; ++p) {
            const int shift = row_bits + p * digit_bits;
            CountingPass(
                n, digit_bits, [&](int64_t i) { return (a[i] >> shift) & mask; }, [&](int64_t i, int64_t j) { b[j] = a[i]; });
            std::swap(a, b);
        }
        const uint64_t row_mask = row_bits == 64 ? ~uint64_t(0) : (uint64_t(1) << row_bits) - 1;
        for (int64_t i = 0; i < n; ++i) order[i] = static_cast<int64_t>(a[i] & row_mask);
        return Status::Ok();
    }
    // Keys too wide to share a word with the row number: key and row move side by side.
    RNDN_ASSIGN_OR_RETURN(auto vk, scratch());
    RNDN_ASSIGN_OR_RETURN(auto vk2, scratch());
    RNDN_ASSIGN_OR_RETURN(auto vo2, scratch());
    uint64_t *k = vk->Data<uint64_t>(), *k2 = vk2->Data<uint64_t>();
    int64_t *o = order, *o2 = vo2->Data<int64_t>();
    for (int64_t i = 0; i < n; ++i) {
        PollCancel(i);
        k[i] = key[i] - lo;
        o[i] = i;
    }
    for (int p = 0; p < passes; ++p) {
        const int shift = p * digit_bits;
        CountingPass(
            n, digit_bits, [&](int64_t i) { return (k[i] >> shift) & mask; },
            [&](int64_t i, int64_t j) {
                k2[j] = k[i];
                o2[j] = o[i];
            });
        std::swap(k, k2);
        std::swap(o, o2);
    }
    if (o != order) std::copy(o, o + n, order);
    return Status::Ok();
}

}  // namespace rndn::hir::radix

namespace rndn::hir {
Status StableOrderByKey(const uint64_t *key, int64_t n, int64_t *order) { return radix::StableOrder(key, n, order); }
}  // namespace rndn::hir

namespace rndn::hir::radix {

std::vector<int64_t> StableOrder(const uint64_t *key, int64_t n) {
    std::vector<int64_t> order(static_cast<size_t>(std::max<int64_t>(n, 0)));
    if (!StableOrder(key, n, order.data()).ok()) throw std::bad_alloc();  // as the vector itself would
    return order;
}

}  // namespace rndn::hir::radix
