// PostgreSQL's numeric on-disk form, decoded without PostgreSQL: the bytes of a numeric
// varlena after its varlena header (VARDATA_ANY, VARSIZE_ANY_EXHDR) -> the value times
// 10^scale as a 64-bit or 128-bit integer (HorseIR's dec64<scale> / dec128<scale>).
//
// The form (PostgreSQL 15, src/backend/utils/adt/numeric.c, read for the layout only):
//   short header (first uint16 & 0xC000 == 0x8000): bit 0x2000 the sign, 0x1F80 the display
//     scale, 0x0040 the weight's sign and 0x003F its magnitude (weight in -64..63); the
//     base-10000 digits follow.
//   long header (first uint16 & 0xC000 == 0x0000 positive, 0x4000 negative): the display scale
//     in its low 14 bits, then an int16 weight, then the digits.
//   0xC000 and above: NaN, +Infinity, -Infinity.
// A digit d_i (0..9999, native byte order) counts d_i * 10000^(weight - i); zero has no digits.
// Plain data in, no allocation, no PostgreSQL call: the loader's worker threads use it.
#pragma once

#include <cstdint>
#include <cstring>

namespace rndn::numeric {

enum class Decoded {
    OK,
    SPECIAL,          // NaN or an infinity: the caller decides (PostgreSQL's own path)
    UNREPRESENTABLE,  // digits beyond `scale`, out of the integer's range, or malformed bytes
};

template <class T>
struct Pow10Table {
    static constexpr int kMax = sizeof(T) == 8 ? 18 : 38;
    T p[kMax + 1];
    constexpr Pow10Table() : p() {
        p[0] = 1;
        for (int k = 1; k <= kMax; ++k) p[k] = p[k - 1] * 10;
    }
};

// T is int64_t or __int128.  `scale` is the column's scale (0..38).
template <class T>
inline Decoded DecodeScaled(const uint8_t *data, int64_t size, int scale, T *out) {
    static constexpr Pow10Table<T> kPow{};
    if (size < 2) return Decoded::UNREPRESENTABLE;
    uint16_t header;
    std::memcpy(&header, data, 2);
    if ((header & 0xC000) == 0xC000) return Decoded::SPECIAL;
    bool negative;
    int weight;
    int64_t first;  // byte offset of the first digit
    if ((header & 0xC000) == 0x8000) {
        negative = (header & 0x2000) != 0;
        weight = (header & 0x0040) ? (int)(header & 0x003F) - 64 : (int)(header & 0x003F);
        first = 2;
    } else {
        if (size < 4) return Decoded::UNREPRESENTABLE;
        negative = (header & 0xC000) == 0x4000;
        int16_t w;
        std::memcpy(&w, data + 2, 2);
        weight = w;
        first = 4;
    }
    const int64_t ndigits = (size - first) / 2;
    if ((size - first) % 2 != 0) return Decoded::UNREPRESENTABLE;
    T acc = 0;
    for (int64_t i = 0; i < ndigits; ++i) {
        int16_t dig;
        std::memcpy(&dig, data + first + 2 * i, 2);
        if (dig < 0 || dig > 9999) return Decoded::UNREPRESENTABLE;
        if (dig == 0) continue;
        const int64_t e = 4 * ((int64_t)weight - i) + scale;  // power of ten of this digit
        T term;
        if (e >= 0) {
            if (e > Pow10Table<T>::kMax) return Decoded::UNREPRESENTABLE;
            if (__builtin_mul_overflow((T)dig, kPow.p[e], &term)) return Decoded::UNREPRESENTABLE;
        } else {
            // a digit group reaching past the scale: its low digits must be zero (constant
            // divisors, so no division instruction: this is the loader's hottest line)
            int q;
            if (e == -1) {
                q = dig / 10;
                if (q * 10 != dig) return Decoded::UNREPRESENTABLE;
            } else if (e == -2) {
                q = dig / 100;
                if (q * 100 != dig) return Decoded::UNREPRESENTABLE;
            } else if (e == -3) {
                q = dig / 1000;
                if (q * 1000 != dig) return Decoded::UNREPRESENTABLE;
            } else {
                return Decoded::UNREPRESENTABLE;  // a non-zero digit beyond the scale
            }
            term = q;
        }
        if (__builtin_add_overflow(acc, term, &acc)) return Decoded::UNREPRESENTABLE;
    }
    *out = negative ? -acc : acc;
    return Decoded::OK;
}

// The display scale a numeric value carries (digits numeric_out prints after the point), or -1
// for NaN, an infinity or malformed bytes.  Unconstrained numeric columns (no typmod) are loaded
// with each value's own display scale (HorseIR's per-element scale).
inline int DisplayScale(const uint8_t *data, int64_t size) {
    if (size < 2) return -1;
    uint16_t header;
    std::memcpy(&header, data, 2);
    if ((header & 0xC000) == 0xC000) return -1;
    if ((header & 0xC000) == 0x8000) return (header & 0x1F80) >> 7;
    return header & 0x3FFF;
}

// A value of an unconstrained numeric: its value times 10^dscale in *out and its display scale
// in *dscale.  SPECIAL for NaN and the infinities; UNREPRESENTABLE when the display scale is
// above 38 or the digits do not fit an __int128.
inline Decoded DecodeAtDisplayScale(const uint8_t *data, int64_t size, __int128 *out, int *dscale) {
    if (size >= 2) {
        uint16_t header;
        std::memcpy(&header, data, 2);
        if ((header & 0xC000) == 0xC000) return Decoded::SPECIAL;
    }
    const int s = DisplayScale(data, size);
    if (s < 0 || s > 38) return Decoded::UNREPRESENTABLE;
    *dscale = s;
    return DecodeScaled<__int128>(data, size, s, out);
}

// Precision and scale of a numeric column's typmod (atttypmod); false when it has none
// (unconstrained numeric) or it is outside 1..1000 / -1000..1000.
inline bool TypmodPrecisionScale(int32_t typmod, int *precision, int *scale) {
    if (typmod < 4) return false;  // VARHDRSZ: no typmod
    const int32_t tm = typmod - 4;
    *precision = (tm >> 16) & 0xffff;
    *scale = ((tm & 0x7ff) ^ 1024) - 1024;
    return true;
}

}  // namespace rndn::numeric
