// Finding one fixed byte string in many short ones (LIKE '%needle%' over a column): a finder
// made once per needle, then a scan that compares the needle's first and last bytes against 16
// haystack positions at a time (SSE2, part of every x86-64) and checks the middle bytes only
// where both agree.  glibc's memmem prepares its search anew on every call, which costs more
// than the search itself for haystacks of tens of bytes.  Plain data in, no allocation.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace rndn {

class SubstringFinder {
public:
    explicit SubstringFinder(std::string_view needle) : n_(needle) {}

    // The first occurrence of the needle in [p, p + len), or nullptr.
    const char *Find(const char *p, size_t len) const {
        const size_t m = n_.size();
        if (m == 0) return p;
        if (len < m) return nullptr;
        if (m == 1) return static_cast<const char *>(std::memchr(p, n_[0], len));
        const char first = n_[0], last = n_[m - 1];
        const size_t end = len - m + 1;  // candidate starts are [0, end)
        size_t i = 0;
#if defined(__SSE2__)
        const __m128i vf = _mm_set1_epi8(first), vl = _mm_set1_epi8(last);
        // a block reads bytes [i, i + 16) and [i + m - 1, i + m + 15): both inside [0, len)
        for (; i + 16 <= end; i += 16) {
            const __m128i bf = _mm_loadu_si128(reinterpret_cast<const __m128i *>(p + i));
            const __m128i bl = _mm_loadu_si128(reinterpret_cast<const __m128i *>(p + i + m - 1));
            unsigned mask = static_cast<unsigned>(_mm_movemask_epi8(_mm_and_si128(_mm_cmpeq_epi8(bf, vf), _mm_cmpeq_epi8(bl, vl))));
            while (mask != 0) {
                const size_t at = i + static_cast<size_t>(__builtin_ctz(mask));
                if (m == 2 || std::memcmp(p + at + 1, n_.data() + 1, m - 2) == 0) return p + at;
                mask &= mask - 1;
            }
        }
#endif
        for (; i < end; ++i)
            if (p[i] == first && p[i + m - 1] == last && std::memcmp(p + i + 1, n_.data() + 1, m - 2) == 0) return p + i;
        return nullptr;
    }

    size_t size() const { return n_.size(); }

private:
    std::string_view n_;  // the caller keeps the bytes alive
};

}  // namespace rndn
