// horseir.h is included by the PostgreSQL-side sources after PostgreSQL's headers, which define
// macros with the names of some builtins (elog.h: LOG).  This file defines them first, as such
// a source does, and must still compile and see the whole Builtin enum.
#define LOG 15  // as PostgreSQL's elog.h

#include <gtest/gtest.h>

#include "horseir/horseir.h"

namespace {

TEST(PostgresMacros, PublicHeaderCompilesUnderThem) {
    EXPECT_EQ(LOG, 15);  // the macro is left as it was
    rndn::hir::Builtin b;
    ASSERT_TRUE(rndn::hir::FindBuiltin("log", &b));
    EXPECT_STREQ(rndn::hir::BuiltinName(b), "log");
    EXPECT_EQ(rndn::hir::kNumBuiltins, static_cast<int>(rndn::hir::Builtin::COUNT_));
}

}  // namespace
