// The interval type (issue 18 items 1-2): literals, PostgreSQL 15's interval arithmetic and
// justify_* functions, comparisons and grouping by interval_cmp_value's span.  Every expected
// value was printed by PostgreSQL 15 (psql) for the same SQL expression, noted beside it, and
// written here as months, days, microseconds.
#include "test_util.h"

namespace rndn::hir::testing {
namespace {

TEST(Interval, LiteralsPrintAndParse) {
    EXPECT_EQ(E("(\"1m -2d 3000000us\", null, \"-2147483648m 2147483647d -9223372036854775808us\"):interval"),
              "1m -2d 3000000us,null,-2147483648m 2147483647d -9223372036854775808us");
    EXPECT_EQ(TypeOf("\"0m 1d 0us\":interval"), "interval");
    EXPECT_NE(E("\"1 day\":interval").find("ERROR"), std::string::npos);
    EXPECT_NE(E("\"2147483648m 0d 0us\":interval").find("ERROR"), std::string::npos);  // month out of int32
}

TEST(Interval, TimestampMinusTimestamp) {
    // '2000-03-01' - '2000-02-28 01:00' = 1 day 23:00:00; '2000-01-01' - '2000-01-03 12:00' =
    // -2 days -12:00:00 (justify_hours applied, as timestamp_mi does)
    EXPECT_EQ(E("@ts_diff((2000-03-01T00:00:00.000, 2000-01-01T00:00:00.000, null):dt, "
                "(2000-02-28T01:00:00.000, 2000-01-03T12:00:00.000, 2000-01-01T00:00:00.000):dt)"),
              "0m 1d 82800000000us,0m -2d -43200000000us,null");
    // '2000-01-01 00:00:00.5' - '2000-01-02' = -23:59:59.5 (broadcast of one timestamp)
    EXPECT_EQ(E("@ts_diff(2000-01-01T00:00:00.500:dt, 2000-01-02T00:00:00.000:dt)"), "0m 0d -86399500000us");
    EXPECT_EQ(TypeOf("@ts_diff(2000-01-01T00:00:00.000:dt, 2000-01-01T00:00:00.000:dt)"), "interval");
}

TEST(Interval, ArithmeticAndOverflow) {
    const std::string a = "(\"1m 0d 0us\", null):interval", b = "\"0m -2d 10800000000us\":interval";
    // interval '1 mon' + interval '-2 days 3 hours' = 1 mon -2 days +03:00:00, and the minus
    EXPECT_EQ(E("@interval_plus(" + a + ", " + b + ")"), "1m -2d 10800000000us,null");
    EXPECT_EQ(E("@interval_minus(" + a + ", " + b + ")"), "1m 2d -10800000000us,null");
    EXPECT_EQ(E("@interval_neg(" + a + ")"), "-1m 0d 0us,null");
    // interval '2147483647 mons' + interval '1 mon': interval out of range; so is -'-2147483648 days'
    EXPECT_EQ(E("@interval_plus(\"2147483647m 0d 0us\":interval, \"1m 0d 0us\":interval)"), "ERROR 22008: interval out of range");
    EXPECT_EQ(E("@interval_neg(\"0m -2147483648d 0us\":interval)"), "ERROR 22008: interval out of range");
    EXPECT_EQ(E("@interval_minus(\"0m 0d -9223372036854775807us\":interval, \"0m 0d 2us\":interval)"),
              "ERROR 22008: interval out of range");
}

TEST(Interval, Justify) {
    // justify_hours('-1 day 30 hours') = 06:00:00, justify_hours('1 day -30 hours') = -06:00:00
    EXPECT_EQ(E("@justify_hours((\"0m -1d 108000000000us\", \"0m 1d -108000000000us\"):interval)"),
              "0m 0d 21600000000us,0m 0d -21600000000us");
    // justify_days('1 mon -35 days') = -5 days; justify_days('-35 days 3 hours') = -1 mons -5 days +03:00:00
    EXPECT_EQ(E("@justify_days((\"1m -35d 0us\", \"0m -35d 10800000000us\"):interval)"), "0m -5d 0us,-1m -5d 10800000000us");
    // justify_interval('-1 mon 40 days -100 hours') = 5 days 20:00:00; ('1 mon -1 hour') = 29 days 23:00:00
    EXPECT_EQ(E("@justify_interval((\"-1m 40d -360000000000us\", \"1m 0d -3600000000us\", null):interval)"),
              "0m 5d 72000000000us,0m 29d 82800000000us,null");
    // justify_hours(interval '2147483647 days 25 hours'): interval out of range
    EXPECT_EQ(E("@justify_hours(\"0m 2147483647d 90000000000us\":interval)"), "ERROR 22008: interval out of range");
}

TEST(Interval, ShiftByIntervalVector) {
    // timestamp '2000-01-31' + interval '1 mon' = 2000-02-29; date '2000-02-29' - interval '1 year 1 day' = 1999-02-27
    EXPECT_EQ(E("@interval_plv((2000-01-31T00:00:00.000, null):dt, (\"1m 0d 0us\", \"0m 1d 0us\"):interval)"),
              "2000-02-29T00:00:00.000,null");
    EXPECT_EQ(E("@interval_miv(2000-02-29:date, (\"12m 1d 0us\", null):interval)"), "1999-02-27T00:00:00.000,null");
    // timestamp '2000-01-31' - interval '-2147483648 mons': timestamp out of range (the fields wrap)
    EXPECT_EQ(E("@interval_miv(2000-01-31T00:00:00.000:dt, \"-2147483648m 0d 0us\":interval)"), "ERROR 22008: timestamp out of range");
}

TEST(Interval, ComparedGroupedAndOrderedBySpan) {
    // interval '1 day' = interval '24 hours', interval '1 mon' = interval '30 days', '1 mon' < '31 days'
    const std::string x = "(\"0m 1d 0us\", \"1m 0d 0us\", \"1m 0d 0us\", null):interval";
    const std::string y = "(\"0m 0d 86400000000us\", \"0m 30d 0us\", \"0m 31d 0us\", \"0m 0d 0us\"):interval";
    EXPECT_EQ(E("@eq(" + x + ", " + y + ")"), "1,1,0,null");
    EXPECT_EQ(E("@lt(" + x + ", " + y + ")"), "0,0,1,null");
    EXPECT_EQ(E("@geq(" + x + ", " + y + ")"), "1,1,0,null");
    const std::string g = "(\"0m 1d 0us\", \"0m 2d 0us\", \"0m 0d 86400000000us\", null, \"-1m 0d 0us\"):interval";
    EXPECT_EQ(E("@len(k)", "d:? = @group(" + g + "); k:? = @keys(d);"), "4");  // '1 day' and '24 hours' in one group
    EXPECT_EQ(E("@order(" + g + ", 1:bool)"), "4,0,2,1,3");  // stable among equal spans, NULL last
    // min/max keep the later of equal spans, as interval_smaller/interval_larger do
    EXPECT_EQ(E("@min((\"0m 1d 0us\", \"0m 0d 86400000000us\", \"0m 3d 0us\"):interval)"), "0m 0d 86400000000us");
    EXPECT_EQ(E("@max((\"0m 3d 0us\", \"0m 0d 259200000000us\", null):interval)"), "0m 0d 259200000000us");
    EXPECT_NE(TypeOf("@plus(\"0m 1d 0us\":interval, 1:i64)").find("ERROR"), std::string::npos);
    EXPECT_NE(TypeOf("@lt(\"0m 1d 0us\":interval, 1:i64)").find("ERROR"), std::string::npos);
}

}  // namespace
}  // namespace rndn::hir::testing
