// common/uuid_text.h: uuid's 16 bytes as their canonical text and back; the text's byte order is
// the bytes' memcmp order (how PostgreSQL orders uuid), checked over random and edge values.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "common/uuid_text.h"

namespace rndn::uuidtext {
namespace {

std::string Text(const uint8_t *u) {
    char t[kTextLen];
    Format(u, t);
    return std::string(t, kTextLen);
}

TEST(UuidText, CanonicalForm) {
    const uint8_t a[16] = {0xa0, 0xee, 0xbc, 0x99, 0x9c, 0x0b, 0x4e, 0xf8, 0xbb, 0x6d, 0x6b, 0xb9, 0xbd, 0x38, 0x0a, 0x11};
    EXPECT_EQ(Text(a), "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11");  // uuid_out's text
    uint8_t back[16];
    ASSERT_TRUE(Parse("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", back));
    EXPECT_EQ(std::memcmp(a, back, 16), 0);
    EXPECT_FALSE(Parse("A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11", back));  // only the canonical form
    EXPECT_FALSE(Parse("a0eebc999c0b4ef8bb6d6bb9bd380a11", back));
    EXPECT_FALSE(Parse("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a1", back));
    EXPECT_FALSE(Parse("a0eebc99-9c0b-4ef8-bb6d_6bb9bd380a11", back));
}

TEST(UuidText, TextOrderIsMemcmpOrder) {
    std::mt19937_64 rng(18);
    std::vector<std::vector<uint8_t>> us;
    for (int i = 0; i < 400; ++i) {
        std::vector<uint8_t> u(16);
        for (auto &b : u) b = (uint8_t)(i % 4 == 0 ? (rng() % 2 ? 0x00 : 0xff) : rng());  // edges too
        us.push_back(u);
    }
    for (size_t i = 0; i < us.size(); ++i)
        for (size_t j = 0; j < us.size(); j += 7) {
            const int m = std::memcmp(us[i].data(), us[j].data(), 16);
            const int t = Text(us[i].data()).compare(Text(us[j].data()));
            EXPECT_EQ((m > 0) - (m < 0), (t > 0) - (t < 0));
            uint8_t back[16];
            ASSERT_TRUE(Parse(Text(us[i].data()), back));
            EXPECT_EQ(std::memcmp(back, us[i].data(), 16), 0);
        }
}

}  // namespace
}  // namespace rndn::uuidtext
