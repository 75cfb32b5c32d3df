// Regressions found by a demanding user (issue 19): each case failed, crashed or corrupted memory
// before its fix.  Expected values were printed by PostgreSQL 15 for the same SQL.
#include <string>

#include "test_util.h"

namespace rndn::hir::testing {
namespace {

// Item 1: a string vector built by appending keeps a bitmap that covers every element, whether
// the first NULL came early (the bitmap was sized for two elements) or late.
TEST(Issue19, StringBitmapGrowsWithAppendedElements) {
    auto v = MakeVector(TypeKind::STR, 0);
    ASSERT_TRUE(v.ok());
    Vector &s = **v;
    for (int i = 0; i < 300; ++i) {
        s.AppendString(i % 2 ? "" : "x");
        if (i % 2) s.SetNull(i);
    }
    ASSERT_GE(s.validity.size() * 64, static_cast<size_t>(s.length));
    int nulls = 0;
    for (int64_t i = 0; i < s.length; ++i) nulls += !s.IsValid(i);
    EXPECT_EQ(nulls, 150);
    EXPECT_TRUE(s.IsValid(298));
    EXPECT_FALSE(s.IsValid(299));
}

// The group-wise max of text (`select g, max(t) from kr group by g`) razes one-row cells, NULL
// every second one: 5000 groups, 2500 NULLs.
TEST(Issue19, RazeOfStringCellsKeepsEveryNull) {
    std::string lit = "(";
    for (int i = 0; i < 5000; ++i) lit += std::string(i ? "," : "") + (i % 2 ? "null" : "\"x\"");
    lit += "):str";
    const std::string setup = "v:? = " + lit + "; l:? = @tolist(v); r1:? = @raze(l); m:? = @each(@max, l); r2:? = @raze(m);";
    EXPECT_EQ(E("@count(r1)", setup), "2500");
    EXPECT_EQ(E("@len(r1)", setup), "5000");
    EXPECT_EQ(E("@count(r2)", setup), "2500");
    EXPECT_EQ(E("@match(r1, v)", setup), "1");
}

}  // namespace
}  // namespace rndn::hir::testing
