// Issue 18 (branch tsx18): dt literals with microseconds and the date/dt infinities; the
// long date_trunc units; extract(julian)'s numeric digits.  Expected values are PostgreSQL 15's
// answers (psql, noted beside each) or hand-computed counts of microseconds after 2000-01-01.
#include <gtest/gtest.h>

#include <climits>

#include "test_util.h"

namespace rndn::hir::testing {
namespace {

std::string ParseError(const std::string &text) {
    auto p = ParseProgram(text, "f.hir");
    return p.ok() ? "ok" : p.status().message();
}

// The raw elements of a date/dt result (FormatElement prints dt to milliseconds only).
std::vector<int64_t> Raw(const std::string &expr) {
    auto r = Run("r:? = " + expr + "; return r;");
    EXPECT_TRUE(r.ok()) << r.status().message();
    std::vector<int64_t> out;
    if (!r.ok()) return out;
    const Vector &v = r->vector();
    for (int64_t i = 0; i < v.length; ++i)
        out.push_back(v.type.kind == TypeKind::DATE ? v.Data<int32_t>()[i] : v.Data<int64_t>()[i]);
    return out;
}

TEST(TsxLiterals, MicrosecondsAndInfinities) {
    // 2000-01-01 00:00:00.000001 and 1999-12-31 23:59:59.999999
    EXPECT_EQ(Raw("(2000-01-01T00:00:00.000001, 1999-12-31T23:59:59.999999, 2000-01-01T00:00:00.123):dt"),
              (std::vector<int64_t>{1, -1, 123000}));
    EXPECT_EQ(Raw("(Infinity, -Infinity):dt"), (std::vector<int64_t>{INT64_MAX, INT64_MIN}));
    EXPECT_EQ(Raw("(Infinity, -Infinity, 2000-01-02):date"), (std::vector<int64_t>{INT32_MAX, INT32_MIN, 1}));
    // ordering as PostgreSQL's: -infinity < every finite value < infinity
    EXPECT_EQ(E("@lt((-Infinity, 0001-01-01T00:00:00.000, Infinity):dt, 2000-01-01T00:00:00.000001:dt)"), "1,1,0");
    EXPECT_EQ(E("@gt(Infinity:date, 9999-12-31:date)"), "1");
    // five or seven fraction digits are not a dt literal; month has no infinity
    EXPECT_NE(ParseError(Wrap("x:? = 2000-01-01T00:00:00.00001:dt; return x;")), "ok");
    EXPECT_NE(ParseError(Wrap("x:? = 2000-01-01T00:00:00.0000011:dt; return x;")), "ok");
    EXPECT_NE(ParseError(Wrap("x:? = Infinity:month; return x;")), "ok");
    EXPECT_NE(ParseError(Wrap("x:? = NaN:dt; return x;")), "ok");
}

TEST(TsxLiterals, BuilderPrintsAndParsesBack) {
    Builder b;
    b.BeginFunction("main", {});
    b.Assign("a", Type(), Builder::Use(b.Dt(-1)));  // 1999-12-31 23:59:59.999999
    b.Assign("c", Type(), Builder::Use(b.Dt(INT64_MAX)));
    b.Assign("e", Type(), Builder::Use(b.Date(INT32_MIN)));
    b.Assign("f", Type(), Builder::Use(b.Dt(86400000000LL + 7)));
    b.Return({Builder::Name("a")});
    auto built = b.Finish();
    ASSERT_TRUE(built.ok()) << built.status().message();
    const std::string text = PrintProgram(*built);
    EXPECT_NE(text.find("a:? = 1999-12-31T23:59:59.999999:dt;"), std::string::npos) << text;
    EXPECT_NE(text.find("c:? = Infinity:dt;"), std::string::npos) << text;
    EXPECT_NE(text.find("e:? = -Infinity:date;"), std::string::npos) << text;
    EXPECT_NE(text.find("f:? = 2000-01-02T00:00:00.000007:dt;"), std::string::npos) << text;
    auto parsed = ParseProgram(text, "tsx.hir");
    ASSERT_TRUE(parsed.ok()) << parsed.status().message();
    EXPECT_EQ(PrintProgram(*parsed), text);
}

// America/New_York around 2021 (as tz_test.cpp) and fixed offsets with minutes and seconds
const std::string kNy = "ny:? = (0, 700470000, -18000, 669020400, -14400, 689580000, -18000, 700470000, -14400):i64;";
const std::string kFixed =
    "kt:? = (-9223372036854775807, 9223372036854775807, 20700):i64; nf:? = (-9223372036854775807, 9223372036854775807, -9000):i64;"
    "lmt:? = (-9223372036854775807, 9223372036854775807, -17762):i64;";

TEST(TsxDateTrunc, LongUnits) {
    // PostgreSQL 15: date_trunc('decade'|'century'|'millennium', timestamp '2013-07-14 10:15:30.25')
    EXPECT_EQ(E("@date_trunc(2013-07-14T10:15:30.250:dt, `decade:sym)"), "2010-01-01T00:00:00.000");
    EXPECT_EQ(E("@date_trunc(2013-07-14T10:15:30.250:dt, `century:sym)"), "2001-01-01T00:00:00.000");
    EXPECT_EQ(E("@date_trunc(2013-07-14T10:15:30.250:dt, `millennium:sym)"), "2001-01-01T00:00:00.000");
    // century and millennium boundaries: 2000 is the last year of the 20th century
    EXPECT_EQ(E("@date_trunc((2000-12-31T23:59:59.999999, 2001-01-01T00:00:00.000):dt, `century:sym)"),
              "1901-01-01T00:00:00.000,2001-01-01T00:00:00.000");
    EXPECT_EQ(E("@date_trunc(2000-06-01T00:00:00.000:dt, `millennium:sym)"), "1001-01-01T00:00:00.000");
    EXPECT_EQ(E("@date_trunc((Infinity, -Infinity):dt, `century:sym)"), E("(Infinity, -Infinity):dt"));
}

TEST(TsxJulian, NumericDigitsOfPostgres15) {
    // psql: extract(julian FROM timestamp '2013-07-14 10:15:30.25') = 2456488.42743344907407407407,
    // '2000-01-01 00:00:00' = 2451545.0000000000000000000000000000 (a zero dividend: scale 28),
    // '2000-01-01 00:00:00.0001' = 2451545.0000000011574074074074074074 (100 us: first digit <= 864),
    // '2000-01-01 00:00:00.001' = 2451545.000000011574074074074074 (1000 us: 24 digits),
    // '2000-01-01 00:00:00.000865' = 2451545.000000010011574074074074
    EXPECT_EQ(E("@julian_num((2013-07-14T10:15:30.250, 2000-01-01T00:00:00.000, 2000-01-01T00:00:00.000100, "
                "2000-01-01T00:00:00.001, 2000-01-01T00:00:00.000865, null):dt)"),
              "2456488.42743344907407407407,2451545.0000000000000000000000000000,2451545.0000000011574074074074074074,"
              "2451545.000000011574074074074074,2451545.000000010011574074074074,null");
    EXPECT_EQ(TypeOf("@julian_num(2000-01-01T00:00:00.000:dt)"), "dec128<?>");
    // ±infinity is numeric ±Infinity in PostgreSQL: not representable, the plan answers
    EXPECT_EQ(E("@julian_num(Infinity:dt)").rfind("ERROR 0A000", 0), 0u);
}

TEST(TsxUuid, InputForms) {
    EXPECT_EQ(E("@uuid_in((\"{A0EEBC99-9C0B4EF8-BB6D6BB9BD380A11}\", \"a0eebc999c0b4ef8bb6d6bb9bd380a11\", "
                "\"a0ee-bc99-9c0b-4ef8-bb6d-6bb9-bd38-0a11\", null):str)"),
              "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11,a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11,a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11,null");
    for (const char *bad : {"a0e-ebc999c0b4ef8bb6d6bb9bd380a11", "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11-", " a0eebc999c0b4ef8bb6d6bb9bd380a11",
                            "{a0eebc999c0b4ef8bb6d6bb9bd380a11", "a0eebc999c0b4ef8bb6d6bb9bd380a1", "g0eebc999c0b4ef8bb6d6bb9bd380a11"}) {
        EXPECT_EQ(E(std::string("@uuid_in(\"") + bad + "\":str)"),
                  std::string("ERROR 22P02: invalid input syntax for type uuid: \"") + bad + "\"");
    }
}

TEST(TsxTypmod, VarcharAndChar) {
    const std::string v = "v:? = (\"äöüß€x\", \"ab  \", \"abcdef\", \"ab\", null):str;";
    // (Show drops trailing blanks: the varchar results are compared with @eq)
    EXPECT_EQ(E("@eq(r0, (\"äöü\", \"ab \", \"abc\", \"ab\", \"\"):str)", v + "r0:? = @str_typmod(v, `varchar:sym, (3, 1, 1):i64);"),
              "1,1,1,1,null");
    EXPECT_EQ(E("@str_typmod(v, `bpchar:sym, (3, 1, 1):i64)", v), "äöü,ab,abc,ab,null");
    // bytes in a single-byte encoding: the first three bytes of "äöü" (ä and the lead byte of ö)
    EXPECT_EQ(E("@str_typmod(\"äöü\":str, `varchar:sym, (3, 1, 0):i64)"), "ä\xc3");
    // implicit: the cut part must be blanks (22001 otherwise), names as PostgreSQL's messages
    EXPECT_EQ(E("@eq(r0, \"ab \":str)", "r0:? = @str_typmod(\"ab    \":str, `varchar:sym, (3, 0, 1):i64);"), "1");
    EXPECT_EQ(E("@str_typmod(v, `varchar:sym, (3, 0, 1):i64)", v), "ERROR 22001: value too long for type character varying(3)");
    EXPECT_EQ(E("@str_typmod(\"abcd\":str, `bpchar:sym, (2, 0, 1):i64)"), "ERROR 22001: value too long for type character(2)");
    // a varchar whose byte length is within n keeps every character
    EXPECT_EQ(E("@str_typmod(\"€\":str, `varchar:sym, (3, 0, 1):i64)"), "€");
}

TEST(TsxTimestamptzText, OutputWithOffsets) {
    // psql under America/New_York: 2021-03-14 01:59:59-05 and 03:00:00-04 (the spring-forward)
    EXPECT_EQ(E("@tz_to_text((2021-03-14T06:59:59.000, 2021-03-14T07:00:00.500, Infinity, null):dt, ny)", kNy),
              "2021-03-14 01:59:59-05,2021-03-14 03:00:00.5-04,infinity,null");
    EXPECT_EQ(E("@tz_to_text(2021-07-01T00:15:00.000001:dt, kt)", kFixed), "2021-07-01 06:00:00.000001+05:45");
    EXPECT_EQ(E("@tz_to_text(2021-07-01T00:00:00.000:dt, nf)", kFixed), "2021-06-30 21:30:00-02:30");
    EXPECT_EQ(E("@tz_to_text(1850-06-01T12:00:00.000:dt, lmt)", kFixed), "1850-06-01 07:03:58-04:56:02");
}

TEST(TsxTimestamptzText, Input) {
    // 02:30 in the spring-forward gap reads with the offset before it (EST): 07:30 UTC; Z, +05:30,
    // -03:30:45 offsets; blanks around; infinity
    const std::string in = kNy +
                           "p:? = @tz_from_text((\"2021-03-14 02:30:00\", \"2021-03-14T06:59:59Z\", \" 2021-03-14 06:59:59.5+05:30 \", "
                           "\"2021-03-14 01:00-03:30:45\", \"infinity\", null):str, ny);";
    EXPECT_EQ(E("@eq(p, (2021-03-14T07:30:00.000, 2021-03-14T06:59:59.000, 2021-03-14T01:29:59.500, 2021-03-14T04:30:45.000, "
                "Infinity, null):dt)", in),
              "1,1,1,1,1,null");
    // spellings left to PostgreSQL: zone names, BC, offsets past 15 hours
    for (const char *other : {"2021-03-14 12:00 Europe/Berlin", "0044-03-15 12:00:00+00 BC", "2021-03-14 12:00+16", "Mar 14 2021"})
        EXPECT_EQ(E(std::string("@tz_from_text(\"") + other + "\":str, ny)", kNy).rfind("ERROR 0A000", 0), 0u) << other;
}

TEST(TsxTimestamptzInterval, ColumnIntervals) {
    // + 1 day across the spring-forward: the same wall time, 23 hours later; - (-1 day) the same;
    // + 1 mon from 2021-10-31 12:00 EDT -> 2021-11-30 12:00 EST; a NULL interval gives NULL
    EXPECT_EQ(E("@tz_interval_plv((2021-03-13T17:00:00.000, 2021-10-31T16:00:00.000, 2021-10-31T16:00:00.000):dt, "
                "(\"0m 1d 0us\", \"1m 0d 0us\", null):interval, ny)", kNy),
              E("(2021-03-14T16:00:00.000, 2021-11-30T17:00:00.000, null):dt"));
    EXPECT_EQ(E("@tz_interval_miv(2021-03-13T17:00:00.000:dt, \"0m -1d 0us\":interval, ny)", kNy), E("2021-03-14T16:00:00.000:dt"));
    EXPECT_EQ(E("@tz_interval_plv((Infinity, -Infinity):dt, \"1m 1d 1us\":interval, ny)", kNy), E("(Infinity, -Infinity):dt"));
}

}  // namespace
}  // namespace rndn::hir::testing
