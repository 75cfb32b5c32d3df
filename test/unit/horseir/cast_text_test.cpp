// Casts between text and the other types (issue 18): @to_text / @from_text and the float, date
// and timestamp text forms of src/horseir/kernels_cast.h.  Float text is checked against a
// reference built a different way (glibc's correctly rounded printf: the fewest %.*e digits that
// strtod reads back, laid out with %.*f or by hand), on random bit patterns and decimal values;
// a list of PostgreSQL 15's own outputs is kept apart from that reference.
#include <cinttypes>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "horseir/kernels_cast.h"
#include "test_util.h"

namespace rndn::hir::testing {
namespace {

// Exact order of two positive decimals written as d.ddd...e±X (a nonzero leading digit).
int CompareDecimal(const std::string &a, const std::string &b) {
    auto split = [](const std::string &t, std::string *digits) {
        const size_t e = t.find('e');
        for (size_t i = 0; i < e; ++i)
            if (t[i] != '.') *digits += t[i];
        while (digits->size() > 1 && digits->back() == '0') digits->pop_back();
        return std::atoi(t.c_str() + e + 1);
    };
    std::string da, db;
    const int ea = split(a, &da), eb = split(b, &db);
    if (ea != eb) return ea < eb ? -1 : 1;
    const size_t n = std::max(da.size(), db.size());
    da.resize(n, '0');
    db.resize(n, '0');
    return da < db ? -1 : da > db ? 1 : 0;
}

// The reference: the fewest correctly rounded digits (%.*e) that lie strictly between the
// midpoints from v to its neighbours (PostgreSQL's Ryu code takes neither end), the midpoints
// exact in long double; then fixed notation (printf %.*f with just enough decimals) for decimal
// exponents in [-4, fixed_limit), else d.ddde±XX.
std::string Reference(double v, bool single, int fixed_limit) {
    if (std::isnan(v)) return "NaN";
    if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
    if (v == 0) return std::signbit(v) ? "-0" : "0";
    const long double a = std::fabs(static_cast<long double>(v));
    long double below, above;
    if (single) {
        const float f = static_cast<float>(std::fabs(v));
        below = std::nextafter(f, 0.0f);
        above = std::nextafter(f, std::numeric_limits<float>::infinity());
    } else {
        below = std::nextafter(std::fabs(v), 0.0);
        above = std::nextafter(std::fabs(v), std::numeric_limits<double>::infinity());
    }
    if (std::isinf(above)) above = a + (a - below);
    const long double mid_lo = (a + below) / 2, mid_hi = (a + above) / 2;
    // the midpoints' exact decimal expansions (glibc prints every digit asked for)
    std::vector<char> big(1200);
    std::snprintf(big.data(), big.size(), "%.900Le", mid_lo);
    const std::string lo_text = big.data();
    std::snprintf(big.data(), big.size(), "%.900Le", mid_hi);
    const std::string hi_text = big.data();
    char buf[64];
    int p = 1;
    for (; p <= 17; ++p) {
        std::snprintf(buf, sizeof buf, "%.*e", p - 1, std::fabs(v));
        if (CompareDecimal(buf, lo_text) > 0 && CompareDecimal(buf, hi_text) < 0) break;
    }
    if (v < 0) std::snprintf(buf, sizeof buf, "%.*e", p - 1, v);
    const char *e = std::strchr(buf, 'e');
    const int exp = std::atoi(e + 1);
    std::string mant(static_cast<const char *>(buf), e);
    if (mant.find('.') != std::string::npos)
        while (mant.back() == '0') mant.pop_back();
    if (mant.back() == '.') mant.pop_back();
    int digits = 0;
    for (char c : mant) digits += c >= '0' && c <= '9';
    if (exp >= -4 && exp < fixed_limit) {
        std::snprintf(buf, sizeof buf, "%.*f", std::max(0, digits - 1 - exp), v);
        return buf;
    }
    std::snprintf(buf, sizeof buf, "%se%c%02d", mant.c_str(), exp < 0 ? '-' : '+', std::abs(exp));
    return buf;
}

TEST(CastText, Float8MatchesReferenceOnRandomValues) {
    std::mt19937_64 rng(18);
    int checked = 0;
    for (int i = 0; i < 20000; ++i) {
        double v;
        if (i % 2 == 0) {
            const uint64_t bits = rng();
            std::memcpy(&v, &bits, sizeof v);
        } else {
            // decimal-looking values across the fixed/exponent boundaries
            const int64_t m = static_cast<int64_t>(rng() % 2000001) - 1000000;
            const int sh = static_cast<int>(rng() % 40) - 20;
            v = static_cast<double>(m) * std::pow(10.0, sh);
        }
        ASSERT_EQ(PgFloat8Text(v), Reference(v, false, 15)) << std::hexfloat << v;
        ++checked;
    }
    EXPECT_EQ(checked, 20000);
}

TEST(CastText, Float4MatchesReferenceOnRandomValues) {
    std::mt19937 rng(18);
    for (int i = 0; i < 20000; ++i) {
        float v;
        if (i % 2 == 0) {
            const uint32_t bits = rng();
            std::memcpy(&v, &bits, sizeof v);
        } else {
            v = static_cast<float>(static_cast<int32_t>(rng() % 200001) - 100000) * std::pow(10.0f, static_cast<float>(rng() % 20) - 10);
        }
        ASSERT_EQ(PgFloat4Text(v), Reference(v, true, 6)) << std::hexfloat << v;
    }
}

// PostgreSQL 15's output (SELECT x::float8::text / x::float4::text), not used by the reference.
TEST(CastText, FloatTextAsPostgresWritesIt) {
    EXPECT_EQ(PgFloat8Text(1e100), "1e+100");
    EXPECT_EQ(PgFloat8Text(1e-5), "1e-05");
    EXPECT_EQ(PgFloat8Text(0.0001), "0.0001");
    EXPECT_EQ(PgFloat8Text(123456789012345678.0), "1.2345678901234568e+17");
    EXPECT_EQ(PgFloat8Text(123456789012345.0), "123456789012345");
    EXPECT_EQ(PgFloat8Text(1e15), "1e+15");
    EXPECT_EQ(PgFloat8Text(0.1 + 0.2), "0.30000000000000004");
    EXPECT_EQ(PgFloat8Text(-0.0), "-0");
    EXPECT_EQ(PgFloat8Text(5e-324), "5e-324");
    EXPECT_EQ(PgFloat8Text(1.7976931348623157e308), "1.7976931348623157e+308");
    EXPECT_EQ(PgFloat4Text(1e6f), "1e+06");
    EXPECT_EQ(PgFloat4Text(123456.0f), "123456");
    EXPECT_EQ(PgFloat4Text(0.1f), "0.1");
    EXPECT_EQ(PgFloat4Text(3.4028235e38f), "3.4028235e+38");
    // the shortest digits lie on an end of the interval (std::to_chars takes them, PostgreSQL not)
    EXPECT_EQ(PgFloat8Text(48199590583418624.0), "4.8199590583418624e+16");
    EXPECT_EQ(PgFloat8Text(-18837256908904808.0), "-1.8837256908904808e+16");
    EXPECT_EQ(PgFloat4Text(-386591616.0f), "-3.8659162e+08");
    EXPECT_EQ(PgFloat4Text(3664176128.0f), "3.6641761e+09");
}

TEST(CastText, DatesAndTimestampsInIso) {
    EXPECT_EQ(PgDateText(0), "2000-01-01");
    EXPECT_EQ(PgDateText(DaysFromCivil(0, 12, 31)), "0001-12-31 BC");
    EXPECT_EQ(PgDateText(DaysFromCivil(-43, 3, 15)), "0044-03-15 BC");
    EXPECT_EQ(PgDateText(DaysFromCivil(12345, 6, 7)), "12345-06-07");
    EXPECT_EQ(PgDateText(INT32_MAX), "infinity");
    EXPECT_EQ(PgDateText(INT32_MIN), "-infinity");
    EXPECT_EQ(PgTimestampText(0), "2000-01-01 00:00:00");
    EXPECT_EQ(PgTimestampText(-1), "1999-12-31 23:59:59.999999");
    EXPECT_EQ(PgTimestampText(45296500000LL), "2000-01-01 12:34:56.5");
    EXPECT_EQ(PgTimestampText(int64_t(DaysFromCivil(0, 1, 1)) * 86400000000LL + 3600000000LL), "0001-01-01 01:00:00 BC");
    EXPECT_EQ(PgTimestampText(INT64_MAX), "infinity");
    EXPECT_EQ(PgTimestampText(INT64_MIN), "-infinity");
}

TEST(CastText, ToTextOfEachType) {
    EXPECT_EQ(E("@to_text((1,0,null):bool)"), "true,false,null");
    EXPECT_EQ(E("@to_text((-32768,7):i16)"), "-32768,7");
    EXPECT_EQ(E("@to_text((-9223372036854775807,0):i64)"), "-9223372036854775807,0");
    EXPECT_EQ(E("@to_text((1.5,-0.0,1e20):f64)"), "1.5,-0,1e+20");
    EXPECT_EQ(E("@to_text(x)", "x:? = @from_text((\"1.50\",\" -0.5\",\"7\",\"-0.00\",\".5\",\"5.\"):str, 0:dec128<0>);"), "1.50,-0.5,7,0.00,0.5,5");
    EXPECT_EQ(TypeOf("@to_text(1:i32)"), "str");
    EXPECT_EQ(TypeOf("@to_text(@list(1:i32))").rfind("ERROR", 0), 0u);
}

TEST(CastText, TextToIntegersAsInt4in) {
    EXPECT_EQ(E("@from_text((\" 12 \",\"-7\",\"+3\",null):str, 0:i32)"), "12,-7,3,null");
    EXPECT_EQ(E("@from_text(\"-2147483648\":str, 0:i32)"), "-2147483648");
    EXPECT_EQ(E("@from_text(\"2147483648\":str, 0:i32)"), "ERROR 22003: value \"2147483648\" is out of range for type integer");
    EXPECT_EQ(E("@from_text(\"1x\":str, 0:i32)"), "ERROR 22P02: invalid input syntax for type integer: \"1x\"");
    EXPECT_EQ(E("@from_text(\"\":str, 0:i16)"), "ERROR 22P02: invalid input syntax for type smallint: \"\"");
    EXPECT_EQ(E("@from_text(\"32768\":str, 0:i16)"), "ERROR 22003: value \"32768\" is out of range for type smallint");
    EXPECT_EQ(E("@from_text(\"-9223372036854775808\":str, 0:i64)"), "-9223372036854775808");
    EXPECT_EQ(E("@from_text(\"1.0\":str, 0:i64)"), "ERROR 22P02: invalid input syntax for type bigint: \"1.0\"");
}

TEST(CastText, TextToBoolFloatNumeric) {
    EXPECT_EQ(E("@from_text((\"t\",\" TRUE \",\"no\",\"of\",\"on\",\"1\",\"0\",\"Ye\"):str, 0:bool)"), "1,1,0,0,1,1,0,1");
    EXPECT_EQ(E("@from_text(\"o\":str, 0:bool)"), "ERROR 22P02: invalid input syntax for type boolean: \"o\"");
    EXPECT_EQ(E("@to_text(x)", "x:? = @from_text((\"0.1\",\" -1e3 \",\"-Infinity\",\"nan\",\"4.9e-324\",\"+INF\"):str, 0:f64);"), "0.1,-1000,-Infinity,NaN,5e-324,Infinity");
    EXPECT_EQ(E("@from_text(\"1e400\":str, 0:f64)"), "ERROR 22003: \"1e400\" is out of range for type double precision");
    EXPECT_EQ(E("@from_text(\"1e39\":str, 0:f32)"), "ERROR 22003: \"1e39\" is out of range for type real");
    EXPECT_EQ(E("@from_text(\"abc\":str, 0:f64)"), "ERROR 22P02: invalid input syntax for type double precision: \"abc\"");
    EXPECT_EQ(E("@from_text(\"0x10\":str, 0:f64)").rfind("ERROR 0A000", 0), 0u);  // left to PostgreSQL
    EXPECT_EQ(E("@from_text(\"1.2.3\":str, 0:dec128<0>)"), "ERROR 22P02: invalid input syntax for type numeric: \"1.2.3\"");
    EXPECT_EQ(E("@to_text(x)", "x:? = @from_text(\"1e5\":str, 0:dec128<0>);"), "100000");  // exponents as numeric_in
}

TEST(CastText, TextToIsoDatesAndTimestamps) {
    EXPECT_EQ(E("@to_text(x)", "x:? = @from_text((\" 2024-02-29 \",\"infinity\"):str, 2000-01-01:date);"), "2024-02-29,infinity");
    EXPECT_EQ(E("@to_text(x)", "x:? = @from_text((\"2024-02-29 13:45:00.250\",\"1999-12-31\",\"2001-01-01 00:01\"):str, 2000-01-01T00:00:00.000:dt);"),
              "2024-02-29 13:45:00.25,1999-12-31 00:00:00,2001-01-01 00:01:00");
    // other spellings and out-of-range fields: PostgreSQL's plan answers
    EXPECT_EQ(E("@from_text(\"2023-02-29\":str, 2000-01-01:date)").rfind("ERROR 0A000", 0), 0u);
    EXPECT_EQ(E("@from_text(\"Jan 5 2024\":str, 2000-01-01:date)").rfind("ERROR 0A000", 0), 0u);
    EXPECT_EQ(E("@from_text(\"2024-01-05 10:00:00.1234567\":str, 2000-01-01T00:00:00.000:dt)").rfind("ERROR 0A000", 0), 0u);
}

TEST(CastText, NumericExponentsAsNumericIn) {
    EXPECT_EQ(E("@to_text(x)", "x:? = @from_text((\"1e5\",\"1.5E-7\",\" -2.50e+2 \",\"0.000e3\",\"12e-1\",\"+.5e1\"):str, 0:dec128<0>);"),
              "100000,0.00000015,-250,0,1.2,5");
    EXPECT_EQ(E("@from_text(\"1e\":str, 0:dec128<0>)"), "ERROR 22P02: invalid input syntax for type numeric: \"1e\"");
    EXPECT_EQ(E("@from_text(\"1e40\":str, 0:dec128<0>)").rfind("ERROR 0A000", 0), 0u);  // past 38 digits: PostgreSQL
}

TEST(CastText, FloatToNumericThroughItsDigits) {
    // float8_numeric prints DBL_DIG (15) significant digits, float4_numeric FLT_DIG (6)
    EXPECT_EQ(E("@to_text(x)", "x:? = @float_numeric((0.1,-0.0,1e20,1.5e-7,33.333333333333336,2.5):f64);"), "0.1,0,100000000000000000000,0.00000015,33.3333333333333,2.5");
    EXPECT_EQ(E("@to_text(x)", "x:? = @float_numeric((0.1,1234.5678,16777217):f32);"), "0.1,1234.57,16777200");
    EXPECT_EQ(E("@float_numeric(1e-300:f64)").rfind("ERROR 0A000", 0), 0u);
    EXPECT_EQ(TypeOf("@float_numeric(1:f64)"), "dec128<?>");
}

}  // namespace
}  // namespace rndn::hir::testing
