// A small exact arbitrary-precision integer and decimal, rndn's own, for the few per-group
// steps that need more than 128 bits: the final step of stddev/variance over integer and
// numeric inputs (PostgreSQL 15's numeric_stddev_internal: N*sumX2 - sumX^2, a division at
// the scale select_div_scale picks, a square root at that scale).  Values are small (a few
// hundred bits) and used once per group, so the algorithms are the schoolbook ones: limb-wise
// multiplication, Knuth's long division (The Art of Computer Programming, vol. 2, 4.3.1,
// algorithm D) and Newton's iteration for the integer square root.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rndn::hir {

class BigInt {
public:
    BigInt() = default;
    BigInt(__int128 v);  // NOLINT(google-explicit-constructor): exact
    static BigInt FromUnsigned(unsigned __int128 v);
    // from little-endian 64-bit limbs of a magnitude
    static BigInt FromLimbs64(const uint64_t *limbs, int n, bool negative);
    // decimal digits with an optional leading '-'; nullopt for anything else
    static std::optional<BigInt> Parse(const std::string &s);

    bool IsZero() const { return mag_.empty(); }
    bool Negative() const { return neg_; }
    int Sign() const { return IsZero() ? 0 : (neg_ ? -1 : 1); }
    int BitLength() const;
    // the value when it fits an __int128
    std::optional<__int128> ToInt128() const;
    std::string ToString() const;
    // the number of decimal digits of |x| (0 has 1)
    int DecimalDigits() const;

    friend BigInt operator+(const BigInt &a, const BigInt &b);
    friend BigInt operator-(const BigInt &a, const BigInt &b);
    friend BigInt operator*(const BigInt &a, const BigInt &b);
    friend int Compare(const BigInt &a, const BigInt &b);
    friend bool operator==(const BigInt &a, const BigInt &b) { return Compare(a, b) == 0; }
    friend bool operator<(const BigInt &a, const BigInt &b) { return Compare(a, b) < 0; }
    BigInt operator-() const;
    BigInt Abs() const;

    // truncated division (the quotient rounds toward zero, the remainder has a's sign);
    // b must not be zero
    static void DivMod(const BigInt &a, const BigInt &b, BigInt *q, BigInt *r);
    // a / b rounded half away from zero
    static BigInt DivRound(const BigInt &a, const BigInt &b);
    // floor(sqrt(a)) of a >= 0
    static BigInt Isqrt(const BigInt &a);
    static BigInt Pow10(int k);

private:
    static int CompareMag(const std::vector<uint32_t> &a, const std::vector<uint32_t> &b);
    static std::vector<uint32_t> AddMag(const std::vector<uint32_t> &a, const std::vector<uint32_t> &b);
    static std::vector<uint32_t> SubMag(const std::vector<uint32_t> &a, const std::vector<uint32_t> &b);  // |a| >= |b|
    static void DivModMag(const std::vector<uint32_t> &a, const std::vector<uint32_t> &b, std::vector<uint32_t> *q,
                          std::vector<uint32_t> *r);
    void Trim();

    std::vector<uint32_t> mag_;  // little-endian base 2^32, no high zero limbs; empty is 0
    bool neg_ = false;           // never set for 0
};

// A decimal: unscaled * 10^-scale (scale >= 0).
struct BigDecimal {
    BigInt unscaled;
    int scale = 0;
    std::string ToString() const;  // PostgreSQL's text form: all `scale` digits after the point
};

// PostgreSQL's base-10000 weight and leading base-10000 digit of a nonzero decimal: the
// largest w with 10000^w <= |x|, and floor(|x| / 10000^w) (1..9999); zero gives (0, 0).
void BaseNbaseWeight(const BigDecimal &x, int *weight, int *first);

// PostgreSQL 15's select_div_scale for num / den, given their display scales.
int SelectDivScaleBig(const BigDecimal &num, int num_dscale, const BigDecimal &den, int den_dscale);

// The final step of PostgreSQL 15's stddev/variance of integer and numeric inputs
// (numeric_stddev_internal) from the exact N, sum(X) and sum(X*X), where every X had display
// scale at most `dscale` (sum_x is at scale dscale, sum_xx at 2*dscale).  kind: 0 var_pop,
// 1 var_samp, 2 stddev_pop, 3 stddev_samp.  nullopt is SQL NULL (no value; one, for samp).
std::optional<BigDecimal> NumericVariance(int64_t n, const BigInt &sum_x, const BigInt &sum_xx, int dscale, int kind);

}  // namespace rndn::hir
