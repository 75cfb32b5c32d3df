// PostgreSQL's uuid (16 bytes, ordered by memcmp) as rndn holds it: the 36-character canonical
// text 8-4-4-4-12 in lower-case hexadecimal (uuid_out's form).  Fixed width and lower-case hex
// digits ('0'-'9' < 'a'-'f' in ASCII) make the byte order of the texts the memcmp order of the
// uuids, and equal texts equal uuids: HorseIR compares, sorts, groups and joins str by bytes.
// Plain data in, no allocation, no PostgreSQL call: the loader's worker threads use it.
#pragma once

#include <cstdint>
#include <string_view>

namespace rndn::uuidtext {

inline constexpr int kTextLen = 36;

// The 16 bytes -> 36 characters (no terminator).
inline void Format(const uint8_t *u, char *out) {
    static constexpr char kHex[] = "0123456789abcdef";
    int o = 0;
    for (int i = 0; i < 16; ++i) {
        if (i == 4 || i == 6 || i == 8 || i == 10) out[o++] = '-';
        out[o++] = kHex[u[i] >> 4];
        out[o++] = kHex[u[i] & 15];
    }
}

// The canonical text -> 16 bytes; false when `s` is not in Format's form.
inline bool Parse(std::string_view s, uint8_t *u) {
    if ((int)s.size() != kTextLen) return false;
    auto nib = [](char c) -> int { return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1; };
    int k = 0;
    for (int i = 0; i < 16; ++i) {
        if (i == 4 || i == 6 || i == 8 || i == 10) {
            if (s[(size_t)k] != '-') return false;
            ++k;
        }
        const int hi = nib(s[(size_t)k]), lo = nib(s[(size_t)k + 1]);
        if (hi < 0 || lo < 0) return false;
        u[i] = (uint8_t)(hi * 16 + lo);
        k += 2;
    }
    return true;
}

}  // namespace rndn::uuidtext
