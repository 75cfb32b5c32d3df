// rndn's small exact integer and decimal (see bignum.h).
#include "horseir/bignum.h"

#include <algorithm>

namespace rndn::hir {

namespace {
using Mag = std::vector<uint32_t>;
constexpr uint64_t kBase = uint64_t{1} << 32;

void TrimMag(Mag &m) {
    while (!m.empty() && m.back() == 0) m.pop_back();
}

Mag MagFromU128(unsigned __int128 v) {
    Mag m;
    while (v != 0) {
        m.push_back(static_cast<uint32_t>(v));
        v >>= 32;
    }
    return m;
}

// m * k + add, in place (k, add < 2^32)
void MulSmallAdd(Mag &m, uint32_t k, uint32_t add) {
    uint64_t carry = add;
    for (uint32_t &d : m) {
        uint64_t t = static_cast<uint64_t>(d) * k + carry;
        d = static_cast<uint32_t>(t);
        carry = t >> 32;
    }
    if (carry != 0) m.push_back(static_cast<uint32_t>(carry));
}

// m / k in place, returning the remainder (k < 2^32, k != 0)
uint32_t DivSmall(Mag &m, uint32_t k) {
    uint64_t rem = 0;
    for (size_t i = m.size(); i-- > 0;) {
        uint64_t cur = (rem << 32) | m[i];
        m[i] = static_cast<uint32_t>(cur / k);
        rem = cur % k;
    }
    TrimMag(m);
    return static_cast<uint32_t>(rem);
}

Mag ShiftLeftBits(const Mag &m, int s, size_t extra) {  // 0 <= s < 32
    Mag out(m.size() + extra, 0);
    uint32_t carry = 0;
    for (size_t i = 0; i < m.size(); ++i) {
        out[i] = (m[i] << s) | carry;
        carry = s == 0 ? 0 : m[i] >> (32 - s);
    }
    if (extra > 0) out[m.size()] = carry;
    return out;
}
}  // namespace

BigInt::BigInt(__int128 v) {
    neg_ = v < 0;
    unsigned __int128 u = neg_ ? ~static_cast<unsigned __int128>(v) + 1 : static_cast<unsigned __int128>(v);
    mag_ = MagFromU128(u);
}

BigInt BigInt::FromUnsigned(unsigned __int128 v) {
    BigInt r;
    r.mag_ = MagFromU128(v);
    return r;
}

BigInt BigInt::FromLimbs64(const uint64_t *limbs, int n, bool negative) {
    BigInt r;
    for (int i = 0; i < n; ++i) {
        r.mag_.push_back(static_cast<uint32_t>(limbs[i]));
        r.mag_.push_back(static_cast<uint32_t>(limbs[i] >> 32));
    }
    r.neg_ = negative;
    r.Trim();
    return r;
}

std::optional<BigInt> BigInt::Parse(const std::string &s) {
    size_t i = 0;
    bool neg = false;
    if (i < s.size() && s[i] == '-') neg = true, ++i;
    if (i == s.size()) return std::nullopt;
    BigInt r;
    for (; i < s.size(); ++i) {
        if (s[i] < '0' || s[i] > '9') return std::nullopt;
        MulSmallAdd(r.mag_, 10, static_cast<uint32_t>(s[i] - '0'));
    }
    r.Trim();
    r.neg_ = neg && !r.mag_.empty();
    return r;
}

void BigInt::Trim() {
    TrimMag(mag_);
    if (mag_.empty()) neg_ = false;
}

int BigInt::BitLength() const {
    if (mag_.empty()) return 0;
    return static_cast<int>(mag_.size() - 1) * 32 + (32 - __builtin_clz(mag_.back()));
}

std::optional<__int128> BigInt::ToInt128() const {
    if (mag_.size() > 4) return std::nullopt;
    unsigned __int128 u = 0;
    for (size_t i = mag_.size(); i-- > 0;) u = (u << 32) | mag_[i];
    const unsigned __int128 lim = static_cast<unsigned __int128>(1) << 127;  // |INT128_MIN|
    if (neg_) {
        if (u > lim) return std::nullopt;
        return static_cast<__int128>(~u + 1);
    }
    if (u >= lim) return std::nullopt;
    return static_cast<__int128>(u);
}

std::string BigInt::ToString() const {
    if (mag_.empty()) return "0";
    Mag m = mag_;
    std::string digits;
    while (!m.empty()) {
        uint32_t chunk = DivSmall(m, 1000000000u);
        for (int k = 0; k < 9; ++k) {
            digits.push_back(static_cast<char>('0' + chunk % 10));
            chunk /= 10;
            if (m.empty() && chunk == 0) break;
        }
    }
    while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
    if (neg_) digits.push_back('-');
    std::reverse(digits.begin(), digits.end());
    return digits;
}

int BigInt::DecimalDigits() const {
    std::string s = Abs().ToString();
    return static_cast<int>(s.size());
}

int BigInt::CompareMag(const Mag &a, const Mag &b) {
    if (a.size() != b.size()) return a.size() < b.size() ? -1 : 1;
    for (size_t i = a.size(); i-- > 0;)
        if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
    return 0;
}

Mag BigInt::AddMag(const Mag &a, const Mag &b) {
    const Mag &l = a.size() >= b.size() ? a : b;
    const Mag &s = a.size() >= b.size() ? b : a;
    Mag out(l.size() + 1, 0);
    uint64_t carry = 0;
    for (size_t i = 0; i < l.size(); ++i) {
        uint64_t t = static_cast<uint64_t>(l[i]) + (i < s.size() ? s[i] : 0) + carry;
        out[i] = static_cast<uint32_t>(t);
        carry = t >> 32;
    }
    out[l.size()] = static_cast<uint32_t>(carry);
    TrimMag(out);
    return out;
}

Mag BigInt::SubMag(const Mag &a, const Mag &b) {
    Mag out(a.size(), 0);
    int64_t borrow = 0;
    for (size_t i = 0; i < a.size(); ++i) {
        int64_t t = static_cast<int64_t>(a[i]) - (i < b.size() ? b[i] : 0) - borrow;
        borrow = t < 0 ? 1 : 0;
        if (t < 0) t += static_cast<int64_t>(kBase);
        out[i] = static_cast<uint32_t>(t);
    }
    TrimMag(out);
    return out;
}

BigInt operator+(const BigInt &a, const BigInt &b) {
    BigInt r;
    if (a.neg_ == b.neg_) {
        r.mag_ = BigInt::AddMag(a.mag_, b.mag_);
        r.neg_ = a.neg_;
    } else if (BigInt::CompareMag(a.mag_, b.mag_) >= 0) {
        r.mag_ = BigInt::SubMag(a.mag_, b.mag_);
        r.neg_ = a.neg_;
    } else {
        r.mag_ = BigInt::SubMag(b.mag_, a.mag_);
        r.neg_ = b.neg_;
    }
    r.Trim();
    return r;
}

BigInt BigInt::operator-() const {
    BigInt r = *this;
    r.neg_ = !r.neg_;
    r.Trim();
    return r;
}

BigInt BigInt::Abs() const {
    BigInt r = *this;
    r.neg_ = false;
    return r;
}

BigInt operator-(const BigInt &a, const BigInt &b) { return a + (-b); }

BigInt operator*(const BigInt &a, const BigInt &b) {
    BigInt r;
    if (a.mag_.empty() || b.mag_.empty()) return r;
    r.mag_.assign(a.mag_.size() + b.mag_.size(), 0);
    for (size_t i = 0; i < a.mag_.size(); ++i) {
        uint64_t carry = 0;
        for (size_t j = 0; j < b.mag_.size(); ++j) {
            uint64_t t = static_cast<uint64_t>(a.mag_[i]) * b.mag_[j] + r.mag_[i + j] + carry;
            r.mag_[i + j] = static_cast<uint32_t>(t);
            carry = t >> 32;
        }
        r.mag_[i + b.mag_.size()] = static_cast<uint32_t>(carry);
    }
    r.neg_ = a.neg_ != b.neg_;
    r.Trim();
    return r;
}

int Compare(const BigInt &a, const BigInt &b) {
    if (a.neg_ != b.neg_) return a.neg_ ? -1 : 1;
    int c = BigInt::CompareMag(a.mag_, b.mag_);
    return a.neg_ ? -c : c;
}

void BigInt::DivModMag(const Mag &a, const Mag &b, Mag *q, Mag *r) {
    q->clear();
    r->clear();
    if (CompareMag(a, b) < 0) {
        *r = a;
        return;
    }
    if (b.size() == 1) {
        *q = a;
        uint32_t rem = DivSmall(*q, b[0]);
        if (rem != 0) r->push_back(rem);
        return;
    }
    // Algorithm D: normalize so that the divisor's top limb has its high bit set; each
    // quotient limb is estimated from the top two limbs of the remainder and the top limb of
    // the divisor, corrected with the second limb (at most twice), then by one add-back.
    const int s = __builtin_clz(b.back());
    const Mag v = ShiftLeftBits(b, s, 0);
    Mag u = ShiftLeftBits(a, s, 1);
    const size_t n = v.size(), m = a.size() - n;
    q->assign(m + 1, 0);
    for (size_t j = m + 1; j-- > 0;) {
        const uint64_t top = (static_cast<uint64_t>(u[j + n]) << 32) | u[j + n - 1];
        uint64_t qhat = top / v[n - 1];
        uint64_t rhat = top % v[n - 1];
        while (qhat >= kBase || qhat * v[n - 2] > ((rhat << 32) | u[j + n - 2])) {
            --qhat;
            rhat += v[n - 1];
            if (rhat >= kBase) break;
        }
        // u[j..j+n] -= qhat * v
        int64_t borrow = 0;
        uint64_t carry = 0;
        for (size_t i = 0; i < n; ++i) {
            uint64_t p = qhat * v[i] + carry;
            carry = p >> 32;
            int64_t t = static_cast<int64_t>(u[i + j]) - static_cast<int64_t>(p & 0xffffffffu) - borrow;
            borrow = t < 0 ? 1 : 0;
            u[i + j] = static_cast<uint32_t>(t < 0 ? t + static_cast<int64_t>(kBase) : t);
        }
        int64_t t = static_cast<int64_t>(u[j + n]) - static_cast<int64_t>(carry) - borrow;
        u[j + n] = static_cast<uint32_t>(t < 0 ? t + static_cast<int64_t>(kBase) : t);
        if (t < 0) {  // qhat was one too large: add v back
            --qhat;
            uint64_t c = 0;
            for (size_t i = 0; i < n; ++i) {
                uint64_t w = static_cast<uint64_t>(u[i + j]) + v[i] + c;
                u[i + j] = static_cast<uint32_t>(w);
                c = w >> 32;
            }
            u[j + n] = static_cast<uint32_t>(u[j + n] + c);
        }
        (*q)[j] = static_cast<uint32_t>(qhat);
    }
    TrimMag(*q);
    // the remainder is u's low n limbs shifted back
    r->assign(n, 0);
    for (size_t i = 0; i < n; ++i) {
        uint64_t w = (static_cast<uint64_t>(i + 1 < n ? u[i + 1] : 0) << 32) | u[i];
        (*r)[i] = static_cast<uint32_t>(w >> s);
    }
    TrimMag(*r);
}

void BigInt::DivMod(const BigInt &a, const BigInt &b, BigInt *q, BigInt *r) {
    BigInt qq, rr;
    DivModMag(a.mag_, b.mag_, &qq.mag_, &rr.mag_);
    qq.neg_ = a.neg_ != b.neg_;
    rr.neg_ = a.neg_;
    qq.Trim();
    rr.Trim();
    if (q) *q = std::move(qq);
    if (r) *r = std::move(rr);
}

BigInt BigInt::DivRound(const BigInt &a, const BigInt &b) {
    BigInt q, r;
    DivMod(a, b, &q, &r);
    // |r| * 2 >= |b|: away from zero
    BigInt twice = r.Abs() + r.Abs();
    if (Compare(twice, b.Abs()) >= 0) q = q + BigInt(a.neg_ != b.neg_ ? -1 : 1);
    return q;
}

BigInt BigInt::Isqrt(const BigInt &a) {
    if (a.Sign() <= 0) return BigInt();
    // Newton from a power of two at or above the root: the iterates fall to floor(sqrt(a))
    BigInt x;
    const int half = (a.BitLength() + 1) / 2;
    x.mag_.assign(static_cast<size_t>(half / 32 + 1), 0);
    x.mag_[static_cast<size_t>(half / 32)] = uint32_t{1} << (half % 32);
    for (;;) {
        BigInt q;
        DivMod(a, x, &q, nullptr);
        BigInt y = x + q;
        DivSmall(y.mag_, 2);
        y.Trim();
        if (Compare(y, x) >= 0) return x;
        x = std::move(y);
    }
}

BigInt BigInt::Pow10(int k) {
    BigInt r(1);
    for (; k >= 9; k -= 9) MulSmallAdd(r.mag_, 1000000000u, 0);
    for (; k > 0; --k) MulSmallAdd(r.mag_, 10, 0);
    return r;
}

std::string BigDecimal::ToString() const {
    std::string d = unscaled.Abs().ToString();
    if (scale > 0) {
        if (static_cast<int>(d.size()) <= scale) d.insert(0, static_cast<size_t>(scale + 1) - d.size(), '0');
        d.insert(d.size() - static_cast<size_t>(scale), ".");
    }
    return unscaled.Negative() ? "-" + d : d;
}

void BaseNbaseWeight(const BigDecimal &x, int *weight, int *first) {
    if (x.unscaled.IsZero()) {
        *weight = 0;
        *first = 0;
        return;
    }
    const int e = x.unscaled.DecimalDigits() - 1 - x.scale;  // |x| in [10^e, 10^(e+1))
    const int w = e >= 0 ? e / 4 : -((-e + 3) / 4);
    const int shift = x.scale + 4 * w;  // first = floor(|x| / 10^(4w)) = floor(|u| / 10^shift)
    BigInt f = x.unscaled.Abs();
    if (shift >= 0) BigInt::DivMod(f, BigInt::Pow10(shift), &f, nullptr);
    else f = f * BigInt::Pow10(-shift);
    *weight = w;
    *first = static_cast<int>(*f.ToInt128());
}

int SelectDivScaleBig(const BigDecimal &num, int num_dscale, const BigDecimal &den, int den_dscale) {
    int w1, f1, w2, f2;
    BaseNbaseWeight(num, &w1, &f1);
    BaseNbaseWeight(den, &w2, &f2);
    int qweight = w1 - w2;
    if (f1 <= f2) --qweight;  // equal leading digits: assume num < den, as PostgreSQL does
    int rscale = 16 - qweight * 4;  // NUMERIC_MIN_SIG_DIGITS, DEC_DIGITS
    rscale = std::max({rscale, num_dscale, den_dscale, 0});
    return std::min(rscale, 1000);  // NUMERIC_MAX_DISPLAY_SCALE
}

std::optional<BigDecimal> NumericVariance(int64_t n, const BigInt &sum_x, const BigInt &sum_xx, int dscale, int kind) {
    const bool samp = kind == 1 || kind == 3;
    if (n == 0 || (samp && n <= 1)) return std::nullopt;
    const BigInt bn(n);
    // N * sumX2 - sumX * sumX at scale 2 * dscale: exact
    BigDecimal num{bn * sum_xx - sum_x * sum_x, 2 * dscale};
    if (num.unscaled.Sign() <= 0) return BigDecimal{BigInt(), 0};  // PostgreSQL's const_zero
    BigDecimal den{samp ? bn * BigInt(n - 1) : bn * bn, 0};
    const int rscale = SelectDivScaleBig(num, num.scale, den, 0);
    // variance = round(num / den) at rscale (rscale >= num.scale)
    BigInt v = BigInt::DivRound(num.unscaled * BigInt::Pow10(rscale - num.scale), den.unscaled);
    if (kind >= 2) {
        // sqrt at the same scale, rounded half away from zero: from the root truncated to
        // one more digit, floor(sqrt(v / 10^rscale) * 10^(rscale + 1))
        BigInt t = BigInt::Isqrt(v * BigInt::Pow10(rscale + 2));
        BigInt q, r;
        BigInt::DivMod(t, BigInt(10), &q, &r);
        if (Compare(r, BigInt(5)) >= 0) q = q + BigInt(1);
        v = q;
    }
    return BigDecimal{v, rscale};
}

}  // namespace rndn::hir
