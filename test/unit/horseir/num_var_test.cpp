// rndn's exact BigInt/BigDecimal (bignum.h) and @num_var, PostgreSQL 15's stddev/variance of
// integer and numeric inputs.  The arithmetic is checked against identities and hand values;
// NumericVariance and @num_var against PostgreSQL's own digits for 216 random inputs
// (num_var_cases.inc, printed by PostgreSQL 15 through gen_num_var_cases.py).  The SQL-level
// held-out checks (int8 extremes, mixed numeric scales, groups, FILTER) are the differential
// cases in test/differential/cases.sql and the random query generator.
#include <random>
#include <sstream>

#include "horseir/bignum.h"
#include "test_util.h"

namespace rndn::hir::testing {
namespace {

BigInt B(const std::string &s) { return *BigInt::Parse(s); }

TEST(BigInt, ParsePrintAndArithmetic) {
    EXPECT_EQ(B("0").ToString(), "0");
    EXPECT_EQ(B("-0").ToString(), "0");
    EXPECT_EQ(B("-123456789012345678901234567890").ToString(), "-123456789012345678901234567890");
    EXPECT_FALSE(BigInt::Parse("12a").has_value());
    EXPECT_FALSE(BigInt::Parse("-").has_value());
    EXPECT_EQ((B("99999999999999999999") + B("1")).ToString(), "100000000000000000000");
    EXPECT_EQ((B("5") - B("7")).ToString(), "-2");
    EXPECT_EQ((B("-5") - B("-7")).ToString(), "2");
    // (2^64 + 1)^2 and 2^128 - 1 (hand values)
    EXPECT_EQ((B("18446744073709551617") * B("18446744073709551617")).ToString(), "340282366920938463500268095579187314689");
    EXPECT_EQ((B("-3") * B("4")).ToString(), "-12");
    EXPECT_EQ(BigInt::Pow10(20).ToString(), "100000000000000000000");
    EXPECT_EQ(BigInt::Pow10(0).ToString(), "1");
    EXPECT_LT(Compare(B("-10"), B("3")), 0);
    EXPECT_GT(Compare(B("-3"), B("-10")), 0);
    EXPECT_EQ(Compare(B("170141183460469231731687303715884105727"), BigInt(static_cast<__int128>((~static_cast<unsigned __int128>(0)) >> 1))), 0);
    EXPECT_FALSE(B("170141183460469231731687303715884105728").ToInt128().has_value());
    EXPECT_TRUE(B("-170141183460469231731687303715884105728").ToInt128().has_value());
    EXPECT_EQ(B("12345").DecimalDigits(), 5);
}

TEST(BigInt, DivisionAndRoot) {
    BigInt q, r;
    BigInt::DivMod(B("-7"), B("2"), &q, &r);
    EXPECT_EQ(q.ToString(), "-3");
    EXPECT_EQ(r.ToString(), "-1");
    EXPECT_EQ(BigInt::DivRound(B("5"), B("2")).ToString(), "3");  // half away from zero
    EXPECT_EQ(BigInt::DivRound(B("-5"), B("2")).ToString(), "-3");
    EXPECT_EQ(BigInt::DivRound(B("7"), B("3")).ToString(), "2");
    EXPECT_EQ(BigInt::Isqrt(B("0")).ToString(), "0");
    EXPECT_EQ(BigInt::Isqrt(B("15")).ToString(), "3");
    EXPECT_EQ(BigInt::Isqrt(B("16")).ToString(), "4");
    EXPECT_EQ(BigInt::Isqrt(BigInt::Pow10(60)).ToString(), "1000000000000000000000000000000");
    // random identities: a = q*b + r with |r| < |b|, floor roots, on multi-limb values
    std::mt19937_64 rng(7);
    auto rnd = [&](int limbs) {
        std::string s = std::to_string(rng() % 9 + 1);
        for (int i = 0; i < limbs; ++i) s += std::to_string(rng() % 1000000000000000000ull + 1000000000000000000ull).substr(1);
        return (rng() % 2 ? "-" : "") + s;
    };
    for (int it = 0; it < 400; ++it) {
        BigInt a = B(rnd(static_cast<int>(rng() % 6))), b = B(rnd(static_cast<int>(rng() % 4)));
        BigInt::DivMod(a, b, &q, &r);
        EXPECT_EQ(q * b + r, a) << a.ToString() << " / " << b.ToString();
        EXPECT_LT(Compare(r.Abs(), b.Abs()), 0);
        EXPECT_TRUE(r.IsZero() || r.Negative() == a.Negative());
        BigInt s = BigInt::Isqrt(a.Abs());
        EXPECT_LE(Compare(s * s, a.Abs()), 0);
        BigInt s1 = s + BigInt(1);
        EXPECT_GT(Compare(s1 * s1, a.Abs()), 0);
    }
    // a divisor whose top limb makes the first quotient estimate too large (Knuth's add-back)
    BigInt::DivMod(B("340282366920938463463374607431768211455"), B("18446744073709551617"), &q, &r);
    EXPECT_EQ(q.ToString(), "18446744073709551615");
    EXPECT_EQ(r.ToString(), "0");
}

TEST(BigDecimal, SelectDivScaleAsPostgres) {
    // PostgreSQL: SELECT 1::numeric / 3 -> 0.33333333333333333333 (scale 20);
    // 10000::numeric / 3 -> 3333.3333333333333333 (16); 1::numeric(10,4) / 100000000 -> 28
    EXPECT_EQ(SelectDivScaleBig({B("1"), 0}, 0, {B("3"), 0}, 0), 20);
    EXPECT_EQ(SelectDivScaleBig({B("10000"), 0}, 0, {B("3"), 0}, 0), 16);
    EXPECT_EQ(SelectDivScaleBig({B("10000"), 4}, 4, {B("100000000"), 0}, 0), 28);
    EXPECT_EQ((BigDecimal{B("-5"), 3}).ToString(), "-0.005");
    EXPECT_EQ((BigDecimal{B("12345"), 2}).ToString(), "123.45");
    EXPECT_EQ((BigDecimal{B("0"), 0}).ToString(), "0");
}

struct Case {
    std::string type;
    int scale = 0;
    std::vector<std::string> values;
    std::string expect[4];  // var_pop, var_samp, stddev_pop, stddev_samp ("" = NULL)
};

std::vector<std::string> Split(const std::string &s, char sep) {
    std::vector<std::string> out;
    std::string cur;
    std::istringstream in(s);
    while (std::getline(in, cur, sep)) out.push_back(cur);
    if (!s.empty() && s.back() == sep) out.push_back("");
    return out;
}

std::vector<Case> Cases() {
    static const char *const kText =
#include "num_var_cases.inc"
        ;
    std::vector<Case> out;
    std::istringstream in(kText);
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty()) continue;
        auto f = Split(line, '|');
        if (f.size() != 7) continue;
        Case c;
        c.type = f[0];
        c.scale = std::stoi(f[1]);
        c.values = Split(f[2], ',');
        for (int k = 0; k < 4; ++k) c.expect[k] = f[3 + static_cast<size_t>(k)];
        out.push_back(std::move(c));
    }
    return out;
}

std::string Unscaled(std::string v) {
    v.erase(std::remove(v.begin(), v.end(), '.'), v.end());
    return v;
}

TEST(NumVar, FinalStepMatchesPostgres) {
    auto cases = Cases();
    ASSERT_EQ(cases.size(), 216u);
    for (const Case &c : cases) {
        BigInt sx, sxx;
        for (const auto &v : c.values) {
            BigInt x = B(Unscaled(v));
            sx = sx + x;
            sxx = sxx + x * x;
        }
        for (int k = 0; k < 4; ++k) {
            auto r = NumericVariance(static_cast<int64_t>(c.values.size()), sx, sxx, c.scale, k);
            EXPECT_EQ(r ? r->ToString() : "", c.expect[k]) << c.type << " kind " << k << " of " << c.values.size() << " values, first " << c.values[0];
        }
    }
}

TEST(NumVar, KernelMatchesPostgres) {
    int run = 0, beyond = 0;
    for (const Case &c : Cases()) {
        std::string lit = "(";
        for (size_t i = 0; i < c.values.size(); ++i) lit += (i ? "," : "") + c.values[i];
        // a NULL among the values is skipped
        lit += ",null):";
        lit += c.type == "int2" ? "i16" : c.type == "int4" ? "i32" : c.type == "int8" ? "i64" : "dec128<" + std::to_string(c.scale) + ">";
        for (int k = 0; k < 4; ++k) {
            const std::string got = E("@num_var(" + lit + ", " + std::to_string(k) + ":i64)");
            const std::string &want = c.expect[k];
            // results beyond a dec128 (38 digits) are left to PostgreSQL: Unsupported
            const size_t digits = want.size() - (want.find('.') != std::string::npos ? 1 : 0) - (want[0] == '-' ? 1 : 0);
            if (digits > 38 || (want.find('.') != std::string::npos && want.size() - want.find('.') - 1 > 38)) {
                EXPECT_NE(got.find("ERROR"), std::string::npos) << got;
                ++beyond;
            } else {
                EXPECT_EQ(got, want.empty() ? "null" : want) << c.type << " kind " << k << " " << lit.substr(0, 200);
                ++run;
            }
        }
    }
    EXPECT_GT(run, 800);
    EXPECT_GT(beyond, 0);  // int8 extremes reach past 128 bits
}

TEST(NumVar, NullsEmptyAndTypes) {
    EXPECT_EQ(E("@num_var((null,null):i32, 0:i64)"), "null");
    EXPECT_EQ(E("@num_var((5,null):i32, 1:i64)"), "null");
    EXPECT_EQ(E("@num_var((5,null):i32, 2:i64)"), "0");
    EXPECT_EQ(E("@num_var((7,7,7):i64, 3:i64)"), "0");  // numerator 0: PostgreSQL's plain 0
    EXPECT_EQ(E("@num_var((1.50,1.50):dec128<2>, 1:i64)"), "0");
    EXPECT_EQ(TypeOf("@num_var((1,2):i16, 0:i64)"), "dec128<?>");
    EXPECT_NE(E("@num_var((1.0,2.0):f64, 0:i64)").find("ERROR"), std::string::npos);
    EXPECT_NE(E("@num_var((1,2):i64, 4:i64)").find("ERROR"), std::string::npos);
    // PostgreSQL: SELECT variance(x) FROM unnest('{1,2,4}'::int[]) x -> 2.3333333333333333
    EXPECT_EQ(E("@num_var((1,2,4):i32, 1:i64)"), "2.3333333333333333");
    EXPECT_EQ(E("@num_var((1,2,4):i32, 3:i64)"), "1.5275252316519467");
}

}  // namespace
}  // namespace rndn::hir::testing
