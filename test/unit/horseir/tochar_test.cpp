// to_char(timestamp, format) (@to_char, src/horseir/kernels_tochar.cpp) against outputs printed
// by PostgreSQL 15 for the same values and formats, and which formats CheckToCharFormat leaves to
// PostgreSQL.  The differential suite (test/differential/cases.sql, tochar_*) compares many more
// with a live server, BC years and time zones included.
#include "test_util.h"

namespace rndn::hir::testing {
namespace {

std::string ToChar(const std::string &ts, const std::string &fmt) {
    return E("@to_char(x, \"" + fmt + "\":str)", "x:? = @from_text(\"" + ts + "\":str, 2000-01-01T00:00:00.000:dt);");
}

TEST(ToChar, NumbersWithOrdinalSuffixes) {
    EXPECT_EQ(ToChar("2024-02-29 13:05:09.123456", "DDth DDTH FMDDth MMth Qth CCth Jth YYYYth HH24th FMDDDth IWth Wth Dth"),
              "29th 29TH 29th 02nd 1st 21st 2460370th 2024th 13th 60th 09th 5th 5th");
    EXPECT_EQ(ToChar("2024-02-29 13:05:09.123456", "HH HH12 HH24 MI SS MS US FF1 FF4 SSSS FMHH12 am A.M."),
              "01 01 13 05 09 123 123456 1 1234 47109 1 pm P.M.");
}

TEST(ToChar, YearsAndIsoWeeks) {
    // 2021-01-03 is a Sunday in ISO week 53 of 2020
    EXPECT_EQ(ToChar("2021-01-03 11:59", "Y,YYY YYYY YYY YY Y IYYY IYY IY I CC BC B.C. ad a.d. FMCC FMYYYY"),
              "2,021 2021 021 21 1 2020 020 20 0 21 AD A.D. ad a.d. 21 2021");
    EXPECT_EQ(ToChar("2021-01-03 11:59", "IW IDDD ID WW W DDD DD D J Q RM rm FMRM"), "53 371 7 01 1 003 03 1 2459218 1 I    i    I");
}

TEST(ToChar, NamesPaddedUnlessFillMode) {
    EXPECT_EQ(ToChar("2000-01-01", "Day|DAY|Dy|Month|MON|mon|FMDay|FMMonth"), "Saturday |SATURDAY |Sat|January  |JAN|jan|Saturday|January");
}

TEST(ToChar, LiteralsAndPrefixesAsPostgresParsesThem) {
    // "tm" and "fm" prefixes before no keyword are dropped; quotes, escaped quotes, backslashes
    EXPECT_EQ(ToChar("2024-02-29", "tmp fmx Fmx \\\"unterminated"), "p x Fmx unterminated");
    EXPECT_EQ(ToChar("2024-02-29", "\\\"Year\\\" YYYY \\\\\\\"q\\\\\\\" FX TZ OF TZH:TZM"), "Year 2024 \"1\"   +00 +00:00");  // \" is a quote, q the quarter
}

TEST(ToChar, InfinityNullAndEmptyFormatGiveNull) {
    EXPECT_EQ(ToChar("infinity", "YYYY"), "null");
    EXPECT_EQ(ToChar("2024-02-29", ""), "null");
    EXPECT_EQ(TypeOf("@to_char(2000-01-01T00:00:00.000:dt, \"YYYY\":str)"), "str");
    EXPECT_EQ(TypeOf("@to_char(2000-01-01:date, \"YYYY\":str)").rfind("ERROR", 0), 0u);
}

TEST(ToChar, FormatsLeftToPostgres) {
    EXPECT_TRUE(CheckToCharFormat("YYYY-MM-DD HH24:MI:SS FMDay TZ OF", false).ok());
    EXPECT_FALSE(CheckToCharFormat("YYYY TZ", true).ok());
    EXPECT_FALSE(CheckToCharFormat("OF", true).ok());
    EXPECT_FALSE(CheckToCharFormat("TMMonth", false).ok());
    EXPECT_TRUE(CheckToCharFormat("TMDD", false).ok());  // TM changes names only
    EXPECT_FALSE(CheckToCharFormat("DDSP", false).ok());
    EXPECT_TRUE(CheckToCharFormat("\"TZ\" YYYY", true).ok());  // quoted: no pattern
}

}  // namespace
}  // namespace rndn::hir::testing
