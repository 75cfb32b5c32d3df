// common/numeric_digits.h: PostgreSQL's numeric on-disk digits decoded without PostgreSQL.
// The reference: a decimal string is encoded here into both header forms (short and long) the
// way PostgreSQL lays them out (base-10000 digits aligned at the decimal point, leading and
// trailing zero digits stripped, zero without digits), and the expected scaled integer is read
// from the string itself, digit by digit.  The SQL side (every precision/scale edge against
// PostgreSQL's own answers) is test/regress/sql/rndn_decimal.sql.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "common/numeric_digits.h"

namespace rndn::numeric {
namespace {

struct Encoded {
    bool negative = false;
    int weight = 0;
    int dscale = 0;
    std::vector<int16_t> digits;
};

// "-123.0450" -> base-10000 digits with weight, as PostgreSQL stores the value.
Encoded Encode(const std::string &text) {
    Encoded e;
    std::string s = text;
    if (!s.empty() && s[0] == '-') e.negative = true, s = s.substr(1);
    const size_t dot = s.find('.');
    std::string ip = dot == std::string::npos ? s : s.substr(0, dot);
    std::string fp = dot == std::string::npos ? "" : s.substr(dot + 1);
    e.dscale = (int)fp.size();
    while (ip.size() % 4 != 0) ip = "0" + ip;
    while (fp.size() % 4 != 0) fp += "0";
    std::vector<int16_t> groups;
    for (size_t i = 0; i < ip.size(); i += 4) groups.push_back((int16_t)std::stoi(ip.substr(i, 4)));
    const int int_groups = (int)groups.size();
    for (size_t i = 0; i < fp.size(); i += 4) groups.push_back((int16_t)std::stoi(fp.substr(i, 4)));
    size_t first = 0, last = groups.size();
    while (first < last && groups[first] == 0) ++first;
    while (last > first && groups[last - 1] == 0) --last;
    if (first == last) {  // zero: no digits, weight 0, positive
        e.negative = false;
        return e;
    }
    e.weight = int_groups - 1 - (int)first;
    e.digits.assign(groups.begin() + (long)first, groups.begin() + (long)last);
    return e;
}

std::vector<uint8_t> Bytes(const Encoded &e, bool long_form) {
    std::vector<uint8_t> out;
    auto put16 = [&](uint16_t v) {
        uint8_t b[2];
        std::memcpy(b, &v, 2);
        out.push_back(b[0]);
        out.push_back(b[1]);
    };
    if (long_form) {
        put16((uint16_t)((e.negative ? 0x4000 : 0x0000) | (e.dscale & 0x3FFF)));
        put16((uint16_t)(int16_t)e.weight);
    } else {
        uint16_t h = 0x8000 | (e.negative ? 0x2000 : 0) | (uint16_t)((e.dscale & 0x3F) << 7);
        if (e.weight < 0) h |= 0x0040 | (uint16_t)((e.weight + 64) & 0x3F);
        else h |= (uint16_t)(e.weight & 0x3F);
        put16(h);
    }
    for (int16_t d : e.digits) put16((uint16_t)d);
    return out;
}

// The value of `text` times 10^scale, read from its characters; false if digits remain beyond
// the scale (non-zero) .
bool Reference(const std::string &text, int scale, __int128 *out) {
    std::string s = text;
    bool neg = false;
    if (s[0] == '-') neg = true, s = s.substr(1);
    const size_t dot = s.find('.');
    std::string ip = dot == std::string::npos ? s : s.substr(0, dot);
    std::string fp = dot == std::string::npos ? "" : s.substr(dot + 1);
    for (size_t i = (size_t)scale; i < fp.size(); ++i)
        if (fp[i] != '0') return false;
    if ((int)fp.size() > scale) fp.resize((size_t)scale);
    while ((int)fp.size() < scale) fp += "0";
    __int128 v = 0;
    for (char c : ip + fp) v = v * 10 + (c - '0');
    *out = neg ? -v : v;
    return true;
}

template <class T>
Decoded Decode(const std::vector<uint8_t> &b, int scale, T *out) {
    return DecodeScaled<T>(b.data(), (int64_t)b.size(), scale, out);
}

void ExpectBothForms(const std::string &text, int scale) {
    SCOPED_TRACE(text + " at scale " + std::to_string(scale));
    __int128 want;
    ASSERT_TRUE(Reference(text, scale, &want));
    const Encoded e = Encode(text);
    for (bool long_form : {false, true}) {
        if (!long_form && (e.weight < -64 || e.weight > 63 || e.dscale > 63)) continue;
        SCOPED_TRACE(long_form ? "long header" : "short header");
        const auto b = Bytes(e, long_form);
        __int128 got128 = 0;
        ASSERT_EQ(Decode(b, scale, &got128), Decoded::OK);
        EXPECT_TRUE(got128 == want);
        int64_t got64 = 0;
        const bool fits64 = want >= INT64_MIN && want <= INT64_MAX;
        EXPECT_EQ(Decode(b, scale, &got64), fits64 ? Decoded::OK : Decoded::UNREPRESENTABLE);
        if (fits64) {
            EXPECT_EQ(got64, (int64_t)want);
        }
    }
}

TEST(NumericDigits, EdgesOfEveryPrecisionAndScale) {
    const std::vector<std::pair<int, int>> typmods = {{1, 0},   {1, 1},   {4, 4},   {5, 0},   {9, 4},  {15, 2}, {17, 3},
                                                      {18, 0},  {18, 9},  {18, 18}, {19, 2},  {38, 0}, {38, 10}, {38, 38}};
    for (auto [p, s] : typmods) {
        const std::string nines_int(p - s, '9'), nines_frac(s, '9');
        std::vector<std::string> values = {"0", nines_int.empty() ? "0." + nines_frac : nines_int + (s ? "." + nines_frac : "")};
        values.push_back("-" + values[1]);
        values.push_back(s == 0 ? "1" : "0." + std::string(s - 1, '0') + "1");  // one unit
        values.push_back("-" + values.back());
        for (int k = 0; k < p; ++k) {  // every power of ten the typmod holds
            const int e = k - s;       // 10^e
            values.push_back(e >= 0 ? "1" + std::string(e, '0') : "0." + std::string(-e - 1, '0') + "1");
        }
        if (s >= 2) values.push_back("0." + std::string(s - 2, '0') + "12");  // fewer digits than the scale
        if (s >= 1) values.push_back("0.5");
        values.push_back(std::string("1234567890123456789012345678901234567890").substr(0, p - s) + (s ? "." + std::string("98765432109876543210987654321098765432").substr(0, s) : ""));
        if (values.back()[0] == '.') values.back() = "0" + values.back();
        for (const auto &v : values) ExpectBothForms(v, s);
        // the same values at a larger column scale than their own (dscale < scale)
        if (s + 2 <= 38 && p + 2 <= 38)
            for (const auto &v : values) ExpectBothForms(v, s + 2);
    }
}

TEST(NumericDigits, WeightExtremesOnlyInTheLongForm) {
    // weight 63 and -64 are the short form's limits; the long form carries any int16 weight
    __int128 x;
    Encoded e = Encode("1" + std::string(4 * 9, '0'));  // 10^36: weight 9
    EXPECT_EQ(e.weight, 9);
    EXPECT_EQ(Decode(Bytes(e, true), 3, &x), Decoded::UNREPRESENTABLE);  // 10^39 does not fit
    EXPECT_EQ(Decode(Bytes(e, true), 2, &x), Decoded::OK);                // 10^38 does
    EXPECT_TRUE(x == (__int128)10000000000000000000ULL * (__int128)10000000000000000000ULL);
    Encoded big;
    big.weight = 300;
    big.digits = {1};
    EXPECT_EQ(Decode(Bytes(big, true), 0, &x), Decoded::UNREPRESENTABLE);
    Encoded tiny;
    tiny.weight = -300;
    tiny.digits = {1};
    EXPECT_EQ(Decode(Bytes(tiny, true), 38, &x), Decoded::UNREPRESENTABLE);  // beyond any scale
    tiny.weight = -64;                                                      // short form's minimum
    EXPECT_EQ(Decode(Bytes(tiny, false), 38, &x), Decoded::UNREPRESENTABLE);
    tiny.weight = -10;
    tiny.digits = {1000};  // 1000 * 10000^-10 = 10^-37
    EXPECT_EQ(Decode(Bytes(tiny, false), 38, &x), Decoded::OK);
    EXPECT_TRUE(x == 10);
    Encoded top;
    top.weight = 63;
    top.digits = {1};
    EXPECT_EQ(Decode(Bytes(top, false), 0, &x), Decoded::UNREPRESENTABLE);
}

TEST(NumericDigits, SpecialValuesAndMalformedBytes) {
    int64_t v = 42;
    for (uint16_t h : {0xC000, 0xD000, 0xF000}) {  // NaN, +Infinity, -Infinity
        uint8_t b[2];
        std::memcpy(b, &h, 2);
        EXPECT_EQ(DecodeScaled<int64_t>(b, 2, 2, &v), Decoded::SPECIAL);
    }
    EXPECT_EQ(v, 42);
    auto b = Bytes(Encode("12.5"), false);
    EXPECT_EQ(DecodeScaled<int64_t>(b.data(), 0, 2, &v), Decoded::UNREPRESENTABLE);
    EXPECT_EQ(DecodeScaled<int64_t>(b.data(), (int64_t)b.size() - 1, 2, &v), Decoded::UNREPRESENTABLE);
    EXPECT_EQ(Decode(b, 0, &v), Decoded::UNREPRESENTABLE);  // .5 beyond scale 0
    EXPECT_EQ(Decode(b, 1, &v), Decoded::OK);
    EXPECT_EQ(v, 125);
    Encoded bad;
    bad.digits = {12000};  // not a base-10000 digit
    EXPECT_EQ(Decode(Bytes(bad, false), 0, &v), Decoded::UNREPRESENTABLE);
    bad.digits = {-1};
    EXPECT_EQ(Decode(Bytes(bad, true), 0, &v), Decoded::UNREPRESENTABLE);
    // int64's edges: 9223372036854775807 fits dec64<0>, one more does not
    EXPECT_EQ(Decode(Bytes(Encode("9223372036854775807"), false), 0, &v), Decoded::OK);
    EXPECT_EQ(v, INT64_MAX);
    EXPECT_EQ(Decode(Bytes(Encode("-9223372036854775807"), false), 0, &v), Decoded::OK);
    EXPECT_EQ(v, -INT64_MAX);
    EXPECT_EQ(Decode(Bytes(Encode("9223372036854775808"), false), 0, &v), Decoded::UNREPRESENTABLE);
    EXPECT_EQ(Decode(Bytes(Encode("999999999999999999.99"), false), 2, &v), Decoded::UNREPRESENTABLE);
}

TEST(NumericDigits, TypmodPrecisionScale) {
    int p = 0, s = 0;
    EXPECT_FALSE(TypmodPrecisionScale(-1, &p, &s));
    ASSERT_TRUE(TypmodPrecisionScale(((15 << 16) | 2) + 4, &p, &s));
    EXPECT_EQ(p, 15);
    EXPECT_EQ(s, 2);
    ASSERT_TRUE(TypmodPrecisionScale(((5 << 16) | (-2 & 0x7ff)) + 4, &p, &s));  // numeric(5,-2)
    EXPECT_EQ(p, 5);
    EXPECT_EQ(s, -2);
}

// Unconstrained numeric (issue 18): each value at its own display scale, in both header forms;
// a display scale above 38 or more than 38 digits is refused, NaN and the infinities are SPECIAL.
TEST(NumericDigits, DisplayScaleOfEachValue) {
    const std::vector<std::string> values = {"0", "0.000", "1.5", "1.50", "-2.125", "100", "-0.5", "12345678901234567890.12345",
                                             "99999999999999999999999999999.999999999", "0.0000000001", "-7"};
    for (const auto &v : values) {
        SCOPED_TRACE(v);
        const Encoded e = Encode(v);
        for (bool long_form : {false, true}) {
            const auto b = Bytes(e, long_form);
            EXPECT_EQ(DisplayScale(b.data(), (int64_t)b.size()), e.dscale);
            __int128 x = 0, want = 0;
            int ds = -1;
            ASSERT_EQ(DecodeAtDisplayScale(b.data(), (int64_t)b.size(), &x, &ds), Decoded::OK);
            EXPECT_EQ(ds, e.dscale);
            ASSERT_TRUE(Reference(v, e.dscale, &want));
            EXPECT_TRUE(x == want);
        }
    }
    __int128 x = 0;
    int ds = 0;
    Encoded deep = Encode("0." + std::string(38, '0') + "1");  // display scale 39
    auto b = Bytes(deep, true);
    EXPECT_EQ(DecodeAtDisplayScale(b.data(), (int64_t)b.size(), &x, &ds), Decoded::UNREPRESENTABLE);
    Encoded wide = Encode("1" + std::string(39, '0'));  // 40 digits
    b = Bytes(wide, true);
    EXPECT_EQ(DecodeAtDisplayScale(b.data(), (int64_t)b.size(), &x, &ds), Decoded::UNREPRESENTABLE);
    for (uint16_t h : {0xC000, 0xD000, 0xF000}) {
        uint8_t raw[2];
        std::memcpy(raw, &h, 2);
        EXPECT_EQ(DisplayScale(raw, 2), -1);
        EXPECT_EQ(DecodeAtDisplayScale(raw, 2, &x, &ds), Decoded::SPECIAL);
    }
}

}  // namespace
}  // namespace rndn::numeric
