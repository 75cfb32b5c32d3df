// @tz_local / @tz_utc / @tz_field / @tz_trunc / @tz_interval_add (src/horseir/kernels_tz.cpp)
// over a hand-written table of America/New_York around 2021 (boundaries 2021-03-14 07:00 UTC,
// EST -> EDT, and 2021-11-07 06:00 UTC, EDT -> EST, as the tz database has them).  The expected
// values are PostgreSQL 15's answers under SET TimeZone = 'America/New_York' (spring-forward
// gap read with the offset before it, fall-back overlap with the offset after it), checked in psql;
// the SQL differential cases (test/differential/cases.sql) compare the real tables.
#include <gtest/gtest.h>

#include "test_util.h"

namespace rndn::hir::testing {
namespace {

// lo = 2000-01-01 UTC, hi = the 2022-03-13 boundary; seconds after 2000-01-01 UTC.
const std::string kNy = "ny:? = (0, 700470000, -18000, 669020400, -14400, 689580000, -18000, 700470000, -14400):i64;";
// +05:45 forever (Asia/Kathmandu since 1986) and -02:30 (a negative offset with minutes)
const std::string kFixed = "kt:? = (-9223372036854775807, 9223372036854775807, 20700):i64; nf:? = (-9223372036854775807, 9223372036854775807, -9000):i64;";

TEST(TimeZone, UtcToLocal) {
    EXPECT_EQ(E("@tz_local((2021-03-14T06:59:59.000, 2021-03-14T07:00:00.000, null):dt, ny)", kNy),
              E("(2021-03-14T01:59:59.000, 2021-03-14T03:00:00.000, null):dt"));
    EXPECT_EQ(E("@tz_local((2021-11-07T05:30:00.000, 2021-11-07T06:30:00.000):dt, ny)", kNy),
              E("(2021-11-07T01:30:00.000, 2021-11-07T01:30:00.000):dt"));  // the hour seen twice
    EXPECT_EQ(E("@tz_local(2021-07-01T00:15:00.000:dt, kt)", kFixed), E("2021-07-01T06:00:00.000:dt"));
}

TEST(TimeZone, LocalToUtc) {
    // 02:30 does not exist on 2021-03-14: the offset before the gap (EST) -> 07:30 UTC (03:30 EDT)
    EXPECT_EQ(E("@tz_utc(2021-03-14T02:30:00.000:dt, ny)", kNy), E("2021-03-14T07:30:00.000:dt"));
    // 01:30 happens twice on 2021-11-07: the offset after the overlap (EST) -> 06:30 UTC
    EXPECT_EQ(E("@tz_utc(2021-11-07T01:30:00.000:dt, ny)", kNy), E("2021-11-07T06:30:00.000:dt"));
    EXPECT_EQ(E("@tz_utc(2021-11-07T00:30:00.000:dt, ny)", kNy), E("2021-11-07T04:30:00.000:dt"));
    EXPECT_EQ(E("@tz_utc((2021-07-01T12:00:00.000, null):dt, ny)", kNy), E("(2021-07-01T16:00:00.000, null):dt"));
    // a date is its midnight
    EXPECT_EQ(E("@tz_utc(2021-03-14:date, ny)", kNy), E("2021-03-14T05:00:00.000:dt"));
    EXPECT_EQ(E("@tz_utc(2021-07-01T06:00:00.000:dt, kt)", kFixed), E("2021-07-01T00:15:00.000:dt"));
}

TEST(TimeZone, WallDate) {
    // 2021-11-07 03:30 UTC is 23:30 EDT on the 6th
    EXPECT_EQ(E("@tz_date((2021-11-07T03:30:00.000, 2021-11-07T04:30:00.000, null):dt, ny)", kNy),
              E("(2021-11-06, 2021-11-07, null):date"));
}

TEST(TimeZone, Fields) {
    EXPECT_EQ(E("@tz_field((2021-03-14T06:59:59.000, 2021-03-14T07:00:00.000):dt, `timezone:sym, ny)", kNy), "-18000,-14400");
    EXPECT_EQ(E("@tz_field(2021-07-01T00:00:00.000:dt, `timezone_hour:sym, kt)", kFixed), "5");
    EXPECT_EQ(E("@tz_field(2021-07-01T00:00:00.000:dt, `timezone_minute:sym, kt)", kFixed), "45");
    // C division: -02:30 is hour -2, minute -30
    EXPECT_EQ(E("@tz_field(2021-07-01T00:00:00.000:dt, `timezone_hour:sym, nf)", kFixed), "-2");
    EXPECT_EQ(E("@tz_field(2021-07-01T00:00:00.000:dt, `timezone_minute:sym, nf)", kFixed), "-30");
}

TEST(TimeZone, Trunc) {
    // day: midnight of the wall date, with the offset in force then (EST on 2021-03-14)
    EXPECT_EQ(E("@tz_trunc(2021-03-14T12:00:00.000:dt, `day:sym, ny)", kNy), E("2021-03-14T05:00:00.000:dt"));
    // hour keeps the value's own offset: 01:30 EDT (the first 01:30) -> 01:00 EDT = 05:00 UTC
    EXPECT_EQ(E("@tz_trunc(2021-11-07T05:30:00.000:dt, `hour:sym, ny)", kNy), E("2021-11-07T05:00:00.000:dt"));
    EXPECT_EQ(E("@tz_trunc(2021-11-07T06:30:00.000:dt, `hour:sym, ny)", kNy), E("2021-11-07T06:00:00.000:dt"));
    EXPECT_EQ(E("@tz_trunc(2021-07-15T03:00:00.000:dt, `month:sym, ny)", kNy), E("2021-07-01T04:00:00.000:dt"));
}

TEST(TimeZone, IntervalAdd) {
    // + 1 day across spring-forward: the same wall time (12:00 EST -> 12:00 EDT), 23 hours later
    EXPECT_EQ(E("@tz_interval_add(2021-03-13T17:00:00.000:dt, (0, 1, 0):i64, ny)", kNy), E("2021-03-14T16:00:00.000:dt"));
    // + 24 hours: absolute
    EXPECT_EQ(E("@tz_interval_add(2021-03-13T17:00:00.000:dt, (0, 0, 86400000000):i64, ny)", kNy), E("2021-03-14T17:00:00.000:dt"));
    // + 1 month from 2021-10-31 12:00 EDT -> 2021-11-30 12:00 EST
    EXPECT_EQ(E("@tz_interval_add(2021-10-31T16:00:00.000:dt, (1, 0, 0):i64, ny)", kNy), E("2021-11-30T17:00:00.000:dt"));
}

TEST(TimeZone, OutsideTheTableFallsBack) {
    // before lo, or a wall time whose day before lies after the last boundary: UNSUPPORTED
    EXPECT_NE(E("@tz_local(1999-12-31T00:00:00.000:dt, ny)", kNy).find("outside the time zone table"), std::string::npos);
    EXPECT_NE(E("@tz_utc(2022-06-01T00:00:00.000:dt, ny)", kNy).find("outside the time zone table"), std::string::npos);
    EXPECT_EQ(TypeOf("@tz_field(2021-07-01T00:00:00.000:dt, `timezone:sym, ny)", kNy), "i64");
    EXPECT_NE(TypeOf("@tz_local(2021-07-01:date, ny)", kNy).find("ERROR"), std::string::npos);
}

}  // namespace
}  // namespace rndn::hir::testing
