// The interval type's arithmetic with numbers, its parts and its aggregates (issue 18):
// @interval_mul / @interval_div (interval_mul, mul_d_interval, interval_div), @interval_field
// (extract's numeric) and @interval_field_f (date_part's float8), @interval_sum / @interval_avg.
// Every expected value was printed by PostgreSQL 15.20 (psql) for the SQL beside it and written
// here as months, days, microseconds.
#include "test_util.h"

namespace rndn::hir::testing {
namespace {

const std::string kA = "\"1m 3d 14706789000us\"";          // interval '1 mon 3 days 04:05:06.789'
const std::string kB = "\"-12m 2d -1us\"";                 // interval '-1 year 2 days -00:00:00.000001'
const std::string kC = "\"7m -29d 86399999999us\"";        // interval '7 mons -29 days 23:59:59.999999'

TEST(IntervalOps, MultiplyByFloat8) {
    // i * 0.1: 3 days 07:36:30.6789 | -1 mons -6 days +04:48:00 | 19 days -19:12:00
    EXPECT_EQ(E("@interval_mul((" + kA + ", " + kB + ", " + kC + ", null):interval, 0.1:f64)"),
              "0m 3d 27390678900us,-1m -6d 17280000000us,0m 19d -69120000000us,null");
    // i * (1/3.0): 11 days 01:21:42.263 | -4 mons +16:00:00 | 2 mons 1 day -08:00:00
    EXPECT_EQ(E("@interval_mul((" + kA + ", " + kB + ", " + kC + "):interval, 0.3333333333333333:f64)"),
              "0m 11d 4902263000us,-4m 0d 57600000000us,2m 1d -28800000000us");
    // i * -2.5: -2 mons -22 days -22:12:46.9725 | 2 years 6 mons -5 days +00:00:00.000002
    EXPECT_EQ(E("@interval_mul((" + kA + ", " + kB + "):interval, -2.5:f64)"), "-2m -22d -79966972500us,30m -5d 2us");
    // i * 1e-7: 00:00:00.286591 | -00:00:03.09312 | 00:00:01.57248
    EXPECT_EQ(E("@interval_mul((" + kA + ", " + kB + ", " + kC + "):interval, 1e-7:f64)"), "0m 0d 286591us,0m 0d -3093120us,0m 0d 1572480us");
    // per-element factors and a NULL factor
    EXPECT_EQ(E("@interval_mul(" + kA + ":interval, (2.0, null):f64)"), "2m 6d 29413578000us,null");
}

TEST(IntervalOps, DivideByFloat8) {
    // i / 3: 11 days 01:21:42.263; i / -0.7: -1 mons -17 days -09:15:52.568057 |
    // 1 year 5 mons 2 days -13:42:51.453256 | -10 mons +41 days -23:59:59.999998
    EXPECT_EQ(E("@interval_div(" + kA + ":interval, 3.0:f64)"), "0m 11d 4902263000us");
    EXPECT_EQ(E("@interval_div((" + kA + ", " + kB + ", " + kC + "):interval, -0.7:f64)"),
              "-1m -17d -33352568057us,17m 2d -49371453256us,-10m 41d -86399999998us");
    // interval '1 mon' / 'infinity' = 00:00:00
    EXPECT_EQ(E("@interval_div(\"1m 0d 0us\":interval, Infinity:f64)"), "0m 0d 0us");
}

TEST(IntervalOps, ScaleErrors) {
    // interval '1 mon 1 day' / 0: division by zero; interval '2147483647 days' / 0.5,
    // interval '1 mon' * 'NaN', interval '1 day' * 'Infinity', interval '0' * 'Infinity':
    // interval out of range
    EXPECT_EQ(E("@interval_div(\"1m 1d 0us\":interval, 0.0:f64)"), "ERROR 22012: division by zero");
    EXPECT_EQ(E("@interval_div(\"0m 2147483647d 0us\":interval, 0.5:f64)"), "ERROR 22008: interval out of range");
    EXPECT_EQ(E("@interval_mul(\"1m 0d 0us\":interval, NaN:f64)"), "ERROR 22008: interval out of range");
    EXPECT_EQ(E("@interval_mul(\"0m 1d 0us\":interval, Infinity:f64)"), "ERROR 22008: interval out of range");
    EXPECT_EQ(E("@interval_mul(\"0m 0d 0us\":interval, Infinity:f64)"), "ERROR 22008: interval out of range");
    // interval '1 mon' * 2147483647.5 = 178956970 years 7 mons 15 days (the product fits int32
    // by FLOAT8_FITS_IN_INT32); * -2147483648.5 is out of range
    EXPECT_EQ(E("@interval_mul(\"1m 0d 0us\":interval, 2147483647.5:f64)"), "2147483647m 15d 0us");
    EXPECT_EQ(E("@interval_mul(\"1m 0d 0us\":interval, -2147483648.5:f64)"), "ERROR 22008: interval out of range");
    EXPECT_NE(TypeOf("@interval_mul(\"1m 0d 0us\":interval, 2:i64)").find("ERROR"), std::string::npos);
}

TEST(IntervalOps, ExtractNumeric) {
    const std::string x = "(\"-163m 3d -14706789012us\", \"2147483647m 2147483647d 9223372036854775807us\", null):interval";
    // interval '-13 years -7 mons 3 days -04:05:06.789012' and the largest interval
    EXPECT_EQ(E("@interval_field(" + x + ", `microseconds:sym)"), "-6789012.000000,54775807.000000,null");
    EXPECT_EQ(E("@interval_field(" + x + ", `second:sym)"), "-6.789012,54.775807,null");
    EXPECT_EQ(E("@interval_field(" + x + ", `milliseconds:sym)"), "-6789.012000,54775.807000,null");
    EXPECT_EQ(E("@interval_field(" + x + ", `hour:sym)"), "-4.000000,2562047788.000000,null");
    EXPECT_EQ(E("@interval_field(" + x + ", `quarter:sym)"), "-1.000000,3.000000,null");
    EXPECT_EQ(E("@interval_field(" + x + ", `millennium:sym)"), "0.000000,178956.000000,null");
    EXPECT_EQ(E("@interval_field(" + x + ", `epoch:sym)"), "-428148306.789012,5842218453753654.775807,null");
    EXPECT_EQ(E("@interval_field(" + x + ", `week:sym)"), "ERROR 0A000: unit \"week\" not supported for type interval");
}

TEST(IntervalOps, DatePartFloat8) {
    const std::string x = "(\"-163m 3d -14706789012us\", \"2147483647m 2147483647d 9223372036854775807us\"):interval";
    EXPECT_EQ(E("@interval_field_f(" + x + ", `second:sym)"), E("(-6.789012, 54.775807):f64"));
    EXPECT_EQ(E("@interval_field_f(" + x + ", `milliseconds:sym)"), E("(-6789.012, 54775.807):f64"));
    EXPECT_EQ(E("@interval_field_f(" + x + ", `decade:sym)"), E("(-1.0, 17895697.0):f64"));
    // date_part('epoch', ...) = -428148306.789012 and 5.842218453753655e+15
    EXPECT_EQ(E("@interval_field_f(" + x + ", `epoch:sym)"), E("(-428148306.789012, 5.842218453753655e15):f64"));
}

TEST(IntervalOps, SumAndAvg) {
    // sum / avg over ('1 mon 3 days 04:05:06.789', NULL, '-1 year 2 days -00:00:00.000001',
    // '7 mons -29 days 23:59:59.999999') = -4 mons -24 days +28:05:06.788998 and
    // -1 mons -18 days +09:21:42.262999
    const std::string x = "(" + kA + ", null, " + kB + ", " + kC + "):interval";
    EXPECT_EQ(E("@interval_sum(" + x + ")"), "-4m -24d 101106788998us");
    EXPECT_EQ(E("@interval_avg(" + x + ")"), "-1m -18d 33702262999us");
    EXPECT_EQ(E("@interval_sum((null, null):interval)"), "null");
    EXPECT_EQ(E("@interval_avg(\"0m 0d 0us\":interval)"), "0m 0d 0us");
    EXPECT_EQ(E("@interval_sum((\"0m 2147483647d 0us\", \"0m 1d 0us\", \"0m -5d 0us\"):interval)"), "ERROR 22008: interval out of range");
}

TEST(IntervalOps, TextOutput) {
    // interval_out under IntervalStyle postgres, as psql printed i::text
    EXPECT_EQ(E("@to_text((\"0m 0d 0us\", \"-14m 3d 0us\", \"1m -1d 0us\", \"0m 0d -500000us\", null):interval)"),
              "00:00:00,-1 years -2 mons +3 days,1 mon -1 days,-00:00:00.5,null");
    EXPECT_EQ(E("@to_text((\"2147483647m 2147483647d 9223372036854775807us\", \"0m 1d 1120000us\", \"13m 1d 3600000000us\"):interval)"),
              "178956970 years 7 mons 2147483647 days 2562047788:00:54.775807,1 day 00:00:01.12,1 year 1 mon 1 day 01:00:00");
    EXPECT_EQ(E("@to_text((\"0m -1d 3600000000us\", \"0m 1d -3600000000us\"):interval)"), "-1 days +01:00:00,1 day -01:00:00");
}

TEST(IntervalOps, TextInput) {
    // interval_in of the plain spellings, as psql printed s::interval
    const std::string in = "(\"1 day 2 hours\", \"3 mons\", \"01:02:03\", \"-1 year\", \"  1 YEAR  -2 Mons +3 days -04:05:06.5 \", "
                           "\"1:2\", \"100:59:59.123456\", \"2 hours 3 minutes 4 seconds\", \"-0:0:0.000001\", \"1 min 1 sec\", "
                           "\"-1 day -2 hours\", null):str";
    EXPECT_EQ(E("@to_text(x)", "x:? = @from_text(" + in + ", null:interval);"),
              "1 day 02:00:00,3 mons,01:02:03,-1 years,10 mons 3 days -04:05:06.5,01:02:00,100:59:59.123456,02:03:04,"
              "-00:00:00.000001,00:01:01,-1 days -02:00:00,null");
    // other spellings are PostgreSQL's to read (or reject: '1 year 1 year' is a syntax error there)
    for (const char *other : {"1 year 1 year", "1.5 days", "@ 1 day", "1 day ago", "P1D", "1 week", "1 d", "1 day 2 hours 01:00",
                              "00:60:00", "1234567 days", "", "5"})
        EXPECT_NE(E(std::string("@from_text(\"") + other + "\":str, null:interval)").find("ERROR 0A000"), std::string::npos) << other;
}

}  // namespace
}  // namespace rndn::hir::testing
