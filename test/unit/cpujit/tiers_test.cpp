// The cpu device's compile tiers: a module is first compiled with -O0 code generation, then again
// with -O2 on a background thread, which replaces the cache entry.  Both give the same results.
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cpujit/cpujit.h"

namespace rndn::cpujit {
namespace {

// A kernel per `kernels`: out[tid] = a chain of `steps` multiply-adds of (x + tid), with 64-bit
// and 32-bit arithmetic and a data-dependent branch, so that the two code generators have work.
std::string Chain(int kernels, int steps, int salt) {
    std::string s = ".version 8.0\n.target sm_80\n.address_size 64\n\n";
    for (int k = 0; k < kernels; ++k) {
        s += ".visible .entry chain" + std::to_string(k) + "(.param .u64 out, .param .u32 x)\n{\n";
        s += "    .reg .pred %p<2>;\n    .reg .b32 %r<" + std::to_string(steps + 8) + ">;\n    .reg .b64 %rd<8>;\n";
        s += "    ld.param.u64 %rd1, [out];\n    ld.param.u32 %r1, [x];\n    mov.u32 %r2, %tid.x;\n";
        s += "    add.u32 %r3, %r1, %r2;\n";
        for (int i = 0; i < steps; ++i)
            s += "    mad.lo.s32 %r" + std::to_string(i + 4) + ", %r" + std::to_string(i + 3) + ", " + std::to_string(3 + 2 * i + k) + ", " +
                 std::to_string(salt + i) + ";\n";
        const std::string last = "%r" + std::to_string(steps + 3);
        s += "    setp.lt.u32 %p1, " + last + ", 1000000;\n";
        s += "    @%p1 add.u32 " + last + ", " + last + ", 7;\n";
        s += "    cvt.u64.u32 %rd2, %r2;\n    shl.b64 %rd3, %rd2, 2;\n    add.s64 %rd4, %rd1, %rd3;\n";
        s += "    st.global.u32 [%rd4], " + last + ";\n    ret;\n}\n\n";
    }
    return s;
}

uint32_t Want(int k, int steps, int salt, uint32_t x) {
    uint32_t v = x;
    for (int i = 0; i < steps; ++i) v = v * static_cast<uint32_t>(3 + 2 * i + k) + static_cast<uint32_t>(salt + i);
    if (v < 1000000u) v += 7;
    return v;
}

void ExpectRuns(Device &dev, const Module &m, int kernels, int steps, int salt) {
    auto *out = static_cast<uint32_t *>(dev.Allocate(64 * 4));
    for (int k = 0; k < kernels; ++k) {
        const Kernel *kn = m.Find("chain" + std::to_string(k));
        ASSERT_NE(kn, nullptr);
        LaunchConfig cfg;
        cfg.block.x = 64;
        ASSERT_TRUE(dev.Launch(*kn, cfg, {Arg::Ptr(out), Arg::U32(11)}).ok());
        for (uint32_t t = 0; t < 64; ++t) ASSERT_EQ(out[t], Want(k, steps, salt, 11 + t)) << "kernel " << k << " thread " << t;
    }
    dev.Free(out);
}

class EnvTiers {
public:
    explicit EnvTiers(const char *v) { setenv("RNDN_CPUJIT_TIERS", v, 1); }
    ~EnvTiers() { unsetenv("RNDN_CPUJIT_TIERS"); }
};

TEST(CpuJitTiers, FastFirstThenUpgradedInPlaceWithTheSameResults) {
    EnvTiers tiers("2");
    Device dev(2);
    const std::string text = Chain(3, 200, 5);
    auto first = dev.LoadModule(text);
    ASSERT_TRUE(first.ok()) << first.status().ToString();
    EXPECT_TRUE((*first)->fast_tier());
    ExpectRuns(dev, **first, 3, 200, 5);
    dev.WaitForUpgrades();
    auto second = dev.LoadModule(text);
    ASSERT_TRUE(second.ok()) << second.status().ToString();
    EXPECT_FALSE((*second)->fast_tier()) << "the -O2 compile did not replace the cache entry";
    EXPECT_NE(first->get(), second->get());
    EXPECT_EQ(dev.cached_modules(), 1u);
    ExpectRuns(dev, **second, 3, 200, 5);
    // the fast module stays usable while a holder keeps it
    ExpectRuns(dev, **first, 3, 200, 5);
}

TEST(CpuJitTiers, OneTierCompilesOnceWithO2) {
    EnvTiers tiers("1");
    Device dev(2);
    const std::string text = Chain(2, 50, 9);
    auto first = dev.LoadModule(text);
    ASSERT_TRUE(first.ok()) << first.status().ToString();
    EXPECT_FALSE((*first)->fast_tier());
    dev.WaitForUpgrades();
    auto second = dev.LoadModule(text);
    ASSERT_TRUE(second.ok());
    EXPECT_EQ(first->get(), second->get());
    ExpectRuns(dev, **second, 2, 50, 9);
}

// A device destroyed with upgrades queued stops them instead of compiling them all.
TEST(CpuJitTiers, DestroyedDeviceStopsItsUpgrades) {
    EnvTiers tiers("2");
    for (int salt = 1; salt <= 2; ++salt) {
        Device dev(1);
        for (int m = 0; m < 6; ++m) {
            auto mod = dev.LoadModule(Chain(2, 120, salt * 100 + m));
            ASSERT_TRUE(mod.ok()) << mod.status().ToString();
            ExpectRuns(dev, **mod, 2, 120, salt * 100 + m);
        }
    }  // ~Device returns with the queue dropped (a hang here fails by the suite's timeout)
}

// StopCompiles (what a host calls on its way out, before exit() destroys static objects that a
// background compilation may still use): the upgrader ends with its queue dropped, and no compile
// thread starts afterwards.  It is final for the process, so it runs in a child process.
TEST(CpuJitTiersDeathTest, StopCompilesEndsTheUpgraderAndStartsNoMoreThreads) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_EXIT(
        {
            EnvTiers tiers("2");
            auto *dev = new Device(1);  // lives until the process exits, as inside a host
            for (int m = 0; m < 6; ++m)
                if (!dev->LoadModule(Chain(2, 120, 700 + m)).ok()) std::exit(3);
            StopCompiles();
            dev->WaitForUpgrades();  // returns: the upgrader has ended
            const std::function<bool()> never = [] { return false; };
            auto late = dev->LoadModule(Chain(1, 20, 999), &never);  // would compile on a helper thread
            if (late.ok()) std::exit(4);
            auto direct = dev->LoadModule(Chain(1, 20, 998));  // the caller's own thread still compiles
            if (!direct.ok() || (*direct)->fast_tier()) std::exit(5);  // no upgrade could follow a fast module
            std::exit(0);
        },
        ::testing::ExitedWithCode(0), "");
}

// The code cache on disk (SetCodeCache): a second device (another backend, another server
// start) links the kernels from it instead of compiling them; a damaged file is a miss.
class CodeCacheTest : public ::testing::Test {
protected:
    void SetUp() override {
        char tmpl[] = "/tmp/rndn_code_cache_XXXXXX";
        ASSERT_NE(mkdtemp(tmpl), nullptr);
        dir_ = tmpl;
    }
    void TearDown() override {
        SetCodeCache("", 0);
        for (const std::string &f : Files()) unlink((dir_ + "/" + f).c_str());
        rmdir(dir_.c_str());
    }
    std::vector<std::string> Files(const char *prefix = "") const {
        std::vector<std::string> out;
        if (DIR *d = opendir(dir_.c_str())) {
            while (dirent *e = readdir(d))
                if (e->d_name[0] != '.' && std::string(e->d_name).rfind(prefix, 0) == 0) out.push_back(e->d_name);
            closedir(d);
        }
        return out;
    }
    std::string dir_;
};

TEST_F(CodeCacheTest, ASecondDeviceLinksTheKernelsFromDisk) {
    EnvTiers tiers("1");
    SetCodeCache(dir_, 64 << 20);
    const std::string text = Chain(3, 150, 21);
    {
        Device a(2);
        auto m = a.LoadModule(text);
        ASSERT_TRUE(m.ok()) << m.status().ToString();
        EXPECT_EQ((*m)->code_cache_kernels(), 0);
        ExpectRuns(a, **m, 3, 150, 21);
    }
    EXPECT_EQ(Files("o_").size(), 3u);
    EXPECT_EQ(Files("m_").size(), 1u);
    Device b(2);
    auto m = b.LoadModule(text);
    ASSERT_TRUE(m.ok()) << m.status().ToString();
    EXPECT_EQ((*m)->code_cache_kernels(), 3);
    ExpectRuns(b, **m, 3, 150, 21);
    // other text (other constants in the code): compiled, not taken from the cache
    auto other = b.LoadModule(Chain(3, 150, 22));
    ASSERT_TRUE(other.ok());
    EXPECT_EQ((*other)->code_cache_kernels(), 0);
    ExpectRuns(b, **other, 3, 150, 22);
}

TEST_F(CodeCacheTest, ADamagedObjectIsCompiledAgain) {
    EnvTiers tiers("1");
    SetCodeCache(dir_, 64 << 20);
    const std::string text = Chain(2, 80, 31);
    {
        Device a(1);
        ASSERT_TRUE(a.LoadModule(text).ok());
    }
    auto objs = Files("o_");
    ASSERT_EQ(objs.size(), 2u);
    {  // one file cut short, the other with a flipped byte in its code
        const std::string p0 = dir_ + "/" + objs[0], p1 = dir_ + "/" + objs[1];
        struct stat st;
        ASSERT_EQ(stat(p0.c_str(), &st), 0);
        ASSERT_EQ(truncate(p0.c_str(), st.st_size / 2), 0);
        std::fstream f(p1, std::ios::in | std::ios::out | std::ios::binary);
        f.seekp(100);
        char c = 0;
        f.read(&c, 1);
        f.seekp(100);
        c = static_cast<char>(c ^ 0x5a);
        f.write(&c, 1);
    }
    Device b(1);
    auto m = b.LoadModule(text);
    ASSERT_TRUE(m.ok()) << m.status().ToString();
    EXPECT_EQ((*m)->code_cache_kernels(), 0);
    ExpectRuns(b, **m, 2, 80, 31);
    Device c(1);  // rewritten whole by b
    auto again = c.LoadModule(text);
    ASSERT_TRUE(again.ok());
    EXPECT_EQ((*again)->code_cache_kernels(), 2);
    ExpectRuns(c, **again, 2, 80, 31);
}

TEST_F(CodeCacheTest, TieredLoadOfACachedModuleSkipsTheFastTier) {
    SetCodeCache(dir_, 64 << 20);
    const std::string text = Chain(2, 60, 41);
    {
        EnvTiers tiers("1");
        Device a(1);
        ASSERT_TRUE(a.LoadModule(text).ok());
    }
    EnvTiers tiers("2");
    Device b(1);
    auto m = b.LoadModule(text);
    ASSERT_TRUE(m.ok());
    EXPECT_FALSE((*m)->fast_tier());
    EXPECT_EQ((*m)->code_cache_kernels(), 2);
    ExpectRuns(b, **m, 2, 60, 41);
    // a new text still starts at the fast tier, and its upgrade fills the cache
    const std::string fresh = Chain(1, 60, 42);
    auto f = b.LoadModule(fresh);
    ASSERT_TRUE(f.ok());
    EXPECT_TRUE((*f)->fast_tier());
    b.WaitForUpgrades();
    Device c(1);
    auto g = c.LoadModule(fresh);
    ASSERT_TRUE(g.ok());
    EXPECT_EQ((*g)->code_cache_kernels(), 1);
    ExpectRuns(c, **g, 1, 60, 42);
}

TEST_F(CodeCacheTest, TheDirectoryStaysWithinItsLimit) {
    EnvTiers tiers("1");
    SetCodeCache(dir_, 1);  // every check of the size removes what is there
    Device a(1);
    for (int i = 0; i < 16; ++i) ASSERT_TRUE(a.LoadModule(Chain(1, 20, 500 + i)).ok());
    // the 16th object write found the directory over its limit and emptied it; only the last
    // module's marker (written after its object) is left
    EXPECT_EQ(Files("o_").size(), 0u);
    EXPECT_EQ(Files("m_").size(), 1u);
}

}  // namespace
}  // namespace rndn::cpujit
