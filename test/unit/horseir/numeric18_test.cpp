// Numeric typmods and rounding for SQL (issue 18).  Expected values are PostgreSQL 15's for the
// same SQL: ceil/floor of numeric print no fraction digits; x::numeric(p, s) rounds half away from
// zero to s and then raises "numeric field overflow" (22003) beyond p digits; trunc(x, k) is
// translated as x - mod(x, 10^-k) cast to scale k.
#include <string>

#include "test_util.h"

namespace rndn::hir::testing {
namespace {

TEST(Numeric18, CeilFloorOfDecimalsHaveScaleZero) {
    const std::string s = "x:? = (1.50,-1.50,0.00,null,-0.01,7.00):dec64<2>; ";
    EXPECT_EQ(E("@ceil(x)", s), "2,-1,0,null,0,7");  // SELECT ceil(-1.50) = -1, ceil(-0.01) = 0
    EXPECT_EQ(E("@floor(x)", s), "1,-2,0,null,-1,7");
    EXPECT_EQ(E("@round(x)", s), "2,-2,0,null,0,7");
    EXPECT_EQ(TypeOf("@ceil(x)", s), "dec128<0>");
    EXPECT_EQ(TypeOf("@floor(1.5:f64)"), "f64");
    // per-element scales (an unconstrained numeric column): the same digits
    const std::string p = "y:? = check_cast((1,2,3):dec64<0>, dec128<?>); z:? = @index_a(y, 1:i64, -2.125:dec64<3>); ";
    EXPECT_EQ(E("z", p), "1,-2.125,3");
    EXPECT_EQ(E("@ceil(z)", p), "1,-2,3");
    EXPECT_EQ(E("@floor(z)", p), "1,-3,3");
}

// x::numeric(p, s) as the translator writes it: c = check_cast(x, dec128<s>); @numeric_fit(c, p)
std::string Fit(const std::string &x, int s, int p) {
    return E("@numeric_fit(c, " + std::to_string(p) + ":i64)", "c:? = check_cast(" + x + ", dec128<" + std::to_string(s) + ">); ");
}

TEST(Numeric18, NumericFitIsTheTypmodPrecisionCheck) {
    // SELECT 123.456::numeric(5,2), (-99.995)::numeric(5,2): 123.46, -100.00
    EXPECT_EQ(Fit("(123.456,-99.995,null):dec128<3>", 2, 5), "123.46,-100.00,null");
    // SELECT 999.995::numeric(5,2): ERROR 22003 numeric field overflow (rounds to 1000.00)
    EXPECT_EQ(Fit("999.995:dec128<3>", 2, 5), "ERROR 22003: numeric field overflow");
    EXPECT_EQ(Fit("-999.994:dec128<3>", 2, 5), "-999.99");
    // numeric(3,3): only |x| < 1; 0.9995 rounds to 1.000
    EXPECT_EQ(Fit("0.9994:dec64<4>", 3, 3), "0.999");
    EXPECT_EQ(Fit("0.9995:dec64<4>", 3, 3), "ERROR 22003: numeric field overflow");
    // integers: SELECT 12345::numeric(4,0) raises, 1234::numeric(6,2) is 1234.00
    EXPECT_EQ(Fit("12345:i32", 0, 4), "ERROR 22003: numeric field overflow");
    EXPECT_EQ(Fit("1234:i32", 2, 6), "1234.00");
    EXPECT_EQ(Fit("(1234,-12345):i64", 2, 6), "ERROR 22003: numeric field overflow");
    // per-element scales: the values at the common storage scale after the cast
    EXPECT_EQ(E("@numeric_fit(c, 4:i64)", "y:? = check_cast((1,2):dec64<0>, dec128<?>); z:? = @index_a(y, 1:i64, -2.125:dec64<3>); "
                                           "c:? = check_cast(z, dec128<1>); "),
              "1.0,-2.1");
    EXPECT_EQ(TypeOf("@numeric_fit(1.5:dec64<1>, 2:i64)"), "dec64<1>");
    EXPECT_EQ(E("@numeric_fit(1.5:f64, 2:i64)").substr(0, 5), "ERROR");
}

// trunc(x, k) as the translator writes it: x - mod(x, 10^-k), cast to scale k
std::string Trunc(const std::string &unit, int k) {
    return E("check_cast(t, dec128<" + std::to_string(k) + ">)",
             "x:? = (1.99,-1.99,0.05,-0.05,null):dec64<2>; m:? = @mod(x, " + unit + "); t:? = @minus(x, m); ");
}

TEST(Numeric18, TruncAsMinusMod) {
    // SELECT trunc(x, 1) over 1.99, -1.99, 0.05, -0.05: 1.9, -1.9, 0.0, 0.0; trunc(x, 3): 1.990 ...
    EXPECT_EQ(Trunc("0.1:dec128<1>", 1), "1.9,-1.9,0.0,0.0,null");
    EXPECT_EQ(Trunc("1:dec128<0>", 0), "1,-1,0,0,null");
    EXPECT_EQ(Trunc("0.001:dec128<3>", 3), "1.990,-1.990,0.050,-0.050,null");
}

}  // namespace
}  // namespace rndn::hir::testing
