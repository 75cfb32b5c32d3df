// common/substring.h against std::string_view::find: random haystacks over small alphabets (so
// partial matches, first/last-byte agreements without a match, and overlaps are common), every
// needle length from 0 to 40, haystacks from empty to a few hundred bytes (the vector loop, its
// tail and the positions where a 16-byte block would read past the end), and every offset of the
// match; bytes above 0x7f and NUL inside both.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <string_view>

#include "common/substring.h"

namespace rndn {
namespace {

const char *Expected(std::string_view hay, std::string_view needle) {
    const size_t at = hay.find(needle);
    return at == std::string_view::npos ? nullptr : hay.data() + at;
}

std::string Random(std::mt19937 &rng, size_t n, int alphabet) {
    std::string s(n, '\0');
    for (char &c : s) {
        const int k = static_cast<int>(rng() % static_cast<unsigned>(alphabet));
        c = k == 0 ? '\0' : k == 1 ? '\xe9' : static_cast<char>('a' + k);
    }
    return s;
}

TEST(Substring, MatchesStringViewFindOnRandomInputs) {
    std::mt19937 rng(20261128);
    size_t found = 0, checked = 0;
    for (int round = 0; round < 20000; ++round) {
        const int alphabet = 2 + static_cast<int>(rng() % 5);
        const size_t hay_len = rng() % 300;
        const size_t needle_len = rng() % 41;
        std::string hay = Random(rng, hay_len, alphabet);
        std::string needle = Random(rng, needle_len, alphabet);
        // half the time plant the needle somewhere (possibly at the very end)
        if (rng() % 2 == 0 && needle_len <= hay_len) {
            const size_t at = rng() % (hay_len - needle_len + 1);
            hay.replace(at, needle_len, needle);
        }
        // the haystack as a slice of a longer buffer: the finder must not look past its end
        const std::string buffer = hay + needle + "zz";
        const std::string_view h(buffer.data(), hay.size());
        const SubstringFinder f(needle);
        const char *got = f.Find(h.data(), h.size());
        const char *want = Expected(h, needle);
        ASSERT_EQ(got, want) << "hay " << hay.size() << " bytes, needle " << needle.size() << " bytes, round " << round;
        found += want != nullptr;
        ++checked;
    }
    EXPECT_GT(found, checked / 4);  // the planted cases really exercised matches
    EXPECT_LT(found, checked);      // and misses happened too
}

TEST(Substring, EveryOffsetAndLength) {
    for (size_t n = 0; n <= 70; ++n)
        for (size_t m = 1; m <= 20 && m <= n; ++m)
            for (size_t at = 0; at + m <= n; ++at) {
                std::string hay(n, 'x');
                std::string needle(m, 'y');
                needle.front() = 'a';
                needle.back() = 'b';
                if (m == 1) needle = "a";
                hay.replace(at, m, needle);
                const SubstringFinder f(needle);
                ASSERT_EQ(f.Find(hay.data(), hay.size()), hay.data() + at) << n << " " << m << " " << at;
                // the same haystack one byte short of the match: not found
                ASSERT_EQ(f.Find(hay.data(), at + m - 1), nullptr) << n << " " << m << " " << at;
            }
}

TEST(Substring, EmptyNeedleAndShortHaystacks) {
    const SubstringFinder empty("");
    const char *s = "abc";
    EXPECT_EQ(empty.Find(s, 3), s);
    EXPECT_EQ(empty.Find(s, 0), s);
    const SubstringFinder f("abcd");
    EXPECT_EQ(f.Find(s, 3), nullptr);
    const SubstringFinder first_last_only("a__b");  // first and last bytes agree, the middle does not
    const std::string hay = std::string(40, 'a') + "axxb" + std::string(40, 'b');
    EXPECT_EQ(first_last_only.Find(hay.data(), hay.size()), nullptr);
}

}  // namespace
}  // namespace rndn
