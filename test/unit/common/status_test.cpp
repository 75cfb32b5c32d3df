#include "common/status.h"

#include <gtest/gtest.h>

namespace rndn {
namespace {

Expected<int> Half(int v) {
    if (v % 2) return Status::UserError(sqlstate::kInvalidParameter, "odd value");
    return v / 2;
}

Expected<int> Quarter(int v) {
    RNDN_ASSIGN_OR_RETURN(int h, Half(v));
    RNDN_ASSIGN_OR_RETURN(int q, Half(h));
    return q;
}

TEST(Status, OkAndErrors) {
    EXPECT_TRUE(Status().ok());
    Status s = Status::UserError(sqlstate::kDivisionByZero, "division by zero");
    EXPECT_FALSE(s.ok());
    EXPECT_EQ(s.code(), Code::USER_ERROR);
    EXPECT_TRUE(s.sqlstate() == sqlstate::kDivisionByZero);
    EXPECT_EQ(s.ToString(), "error: division by zero");
}

TEST(Status, ExpectedPropagates) {
    auto ok = Quarter(8);
    ASSERT_TRUE(ok.ok());
    EXPECT_EQ(*ok, 2);
    auto bad = Quarter(6);  // 6 -> 3 -> odd
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.status().message(), "odd value");
}

}  // namespace
}  // namespace rndn
