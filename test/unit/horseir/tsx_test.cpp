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

}  // namespace
}  // namespace rndn::hir::testing
