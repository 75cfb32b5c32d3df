// The interpreter's pool of freed vector payloads (value.cpp, payload_pool.h): reuse of a
// buffer of the same size (no fresh pages), what the pool reports, and its bytes counting
// against an interpreter memory budget (handed back before live values plus pooled bytes would
// exceed it).
#include <gtest/gtest.h>

#include "horseir/payload_pool.h"
#include "test_util.h"

namespace rndn::hir::testing {
namespace {

TEST(PayloadPool, ReusesAFreedBufferOfTheSameSize) {
    ReleasePooledPayloads(0);
    EXPECT_EQ(PooledPayloadBytes(), 0u);
    const uint8_t *first = nullptr;
    {
        auto v = MakeVector(TypeKind::I32, 100000);  // 400 KB: a medium payload, pooled
        ASSERT_TRUE(v.ok());
        first = (*v)->Data<uint8_t>();
    }
    const size_t pooled = PooledPayloadBytes();
    EXPECT_GE(pooled, 400000u);
    EXPECT_LT(pooled, 400000u + (64u << 10));  // rounded to 64 KiB
    {
        auto w = MakeVector(TypeKind::I32, 100000);
        ASSERT_TRUE(w.ok());
        EXPECT_EQ((*w)->Data<uint8_t>(), first);  // the same pages, not a fresh mapping
        EXPECT_EQ((*w)->Data<int32_t>()[99999], 0);  // MakeVector still zeroes a reused buffer
        EXPECT_EQ(PooledPayloadBytes(), 0u);
    }
    {
        auto small = MakeVector(TypeKind::I32, 1000);  // 4 KB: plain malloc, never pooled
        ASSERT_TRUE(small.ok());
    }
    EXPECT_EQ(PooledPayloadBytes(), pooled);
    ReleasePooledPayloads(0);
    EXPECT_EQ(PooledPayloadBytes(), 0u);
}

TEST(PayloadPool, PooledBytesCountAgainstTheInterpreterBudget) {
    ReleasePooledPayloads(0);
    {
        // 8 MB of freed payloads in the pool
        std::vector<std::shared_ptr<Vector>> held;
        for (int i = 0; i < 8; ++i) {
            auto v = MakeVector(TypeKind::I64, 131072 + 4096 * i);  // distinct sizes of about 1 MB
            ASSERT_TRUE(v.ok());
            held.push_back(*v);
        }
    }
    ASSERT_GE(PooledPayloadBytes(), size_t(8) << 20);
    auto p = ParseProgram(Wrap("x:? = @range(1000:i64); y:? = @plus(x, x); return y;"), "pool.hir");
    ASSERT_TRUE(p.ok());
    ASSERT_TRUE(CheckProgram(*p).ok());
    DataRegistry reg;
    InterpretOptions opts;
    opts.memory_budget = 2 << 20;  // live values need 16 KB; the pool must shrink to fit
    ASSERT_TRUE(Interpret(*p, reg, opts).ok());
    EXPECT_LE(PooledPayloadBytes(), size_t(2) << 20);
    ReleasePooledPayloads(0);
}

}  // namespace
}  // namespace rndn::hir::testing
