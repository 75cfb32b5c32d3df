// @float_fn, @float_pow and the integer bit operations (kernels_sqlmath.cpp): PostgreSQL 15's
// domain errors and SQLSTATEs, its NaN and infinity cases, and the shift counts taken modulo the
// operand's width.  Expected values worked out from PostgreSQL's float.c/int.c rules; the
// differential suite (test/differential/cases.sql, mathx) compares the same functions with
// PostgreSQL itself.
#include "test_util.h"

namespace rndn::hir::testing {
namespace {

const char *const kInf = "inf:? = @div(1:f64, 0:f64);\n    ninf:? = @neg(inf);";
const char *const kNan = "nan:? = @div(0:f64, 0:f64);";

TEST(SqlMath, DomainErrorsCarryPostgresSqlstates) {
    EXPECT_EQ(E("@float_fn(-1:f64, `sqrt:sym)"), "ERROR 2201F: cannot take square root of a negative number");
    EXPECT_EQ(E("@float_fn(0:f64, `ln:sym)"), "ERROR 2201E: cannot take logarithm of zero");
    EXPECT_EQ(E("@float_fn(-2:f64, `log10:sym)"), "ERROR 2201E: cannot take logarithm of a negative number");
    EXPECT_EQ(E("@float_fn(1000:f64, `exp:sym)"), "ERROR 22003: value out of range: overflow");
    EXPECT_EQ(E("@float_fn(-1000:f64, `exp:sym)"), "ERROR 22003: value out of range: underflow");
    EXPECT_EQ(E("@float_pow(0:f64, -1:f64)"), "ERROR 2201F: zero raised to a negative power is undefined");
    EXPECT_EQ(E("@float_pow(-8:f64, 0.5:f64)"), "ERROR 2201F: a negative number raised to a non-integer power yields a complex result");
    EXPECT_EQ(E("@float_pow(10:f64, 400:f64)"), "ERROR 22003: value out of range: overflow");
    EXPECT_EQ(E("@float_pow(10:f64, -400:f64)"), "ERROR 22003: value out of range: underflow");
    // a NULL element raises nothing
    EXPECT_EQ(E("@float_fn((4,null):f64, `sqrt:sym)", ""), "2,null");
}

TEST(SqlMath, NanAndInfinityCases) {
    EXPECT_EQ(E("@float_fn(ninf, `exp:sym)", kInf), "0");
    EXPECT_EQ(E("@float_fn(inf, `ln:sym)", kInf), "Infinity");
    EXPECT_EQ(E("@float_pow(nan, 0:f64)", kNan), "1");
    EXPECT_EQ(E("@float_pow(1:f64, nan)", kNan), "1");
    EXPECT_EQ(E("@float_pow(0.5:f64, inf)", kInf), "0");
    EXPECT_EQ(E("@float_pow(ninf, 3:f64)", kInf), "-Infinity");
    EXPECT_EQ(E("@float_pow(ninf, -3:f64)", kInf), "-0");
    EXPECT_EQ(E("@float_fn((2.5,-2.5,-0.5):f64, `trunc:sym)"), "2,-2,-0");
    EXPECT_EQ(E("@float_fn((2.5,3.5):f64, `round:sym)"), "2,4");  // rint: half to even
    EXPECT_EQ(E("@float_fn(nan, `sign:sym)", kNan), "0");
    EXPECT_EQ(E("@float_fn(1:f64, `nosuch:sym)"), "ERROR 22023: @float_fn: unknown function 'nosuch'");
}

TEST(SqlMath, BitOperationsAndShiftsModuloWidth) {
    EXPECT_EQ(E("@bit_and((12,-1):i32, 10:i32)"), "8,10");
    EXPECT_EQ(E("@bit_or(5:i16, 2:i16)"), "7");
    EXPECT_EQ(E("@bit_xor(6:i64, 3:i64)"), "5");
    EXPECT_EQ(E("@bit_not((0,-1):i32)"), "-1,0");
    EXPECT_EQ(E("@shl(1:i32, (3,33):i32)"), "8,2");
    EXPECT_EQ(E("@shr(-16:i64, (2,66):i32)"), "-4,-4");
    EXPECT_EQ(E("@shl(1:i16, (15,17):i32)"), "-32768,0");  // computed in int, low 16 bits kept
    EXPECT_EQ(E("@shr(-32768:i16, 31:i32)"), "-1");
    EXPECT_EQ(TypeOf("@bit_and(1:i16, 2:i64)"), "i64");
    EXPECT_EQ(E("@bit_and(1.5:f64, 2:i64)"), "ERROR 42804: t.hir:5:11: @bit_and: expects i16, i32 or i64 arguments (arguments: f64, i64)");
}

}  // namespace
}  // namespace rndn::hir::testing
