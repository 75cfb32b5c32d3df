// Safety of the SASS emulator (out-of-bounds and misaligned accesses, an undecodable instruction,
// a barrier deadlock give a Status naming kernel, block, thread and address; the process and
// the device survive) and bin/rndn-emu end to end.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sys/wait.h>

#include "assembler/assembler.h"
#include "harness.h"
#include "sassemu/internal.h"

namespace rndn::cpujit::testing {
namespace {

// split_sync: threads below `split` wait at barrier 1, the others at barrier 0, then every
// thread writes out[tid] = tid: a deadlock unless all threads pick the same barrier.  Compiled
// by ptxas when the test runs.
const char *kSplitSync = R"(
.version 8.0
.target sm_75
.address_size 64
.visible .entry split_sync(.param .u64 out, .param .u32 split)
{
    .reg .pred %p<2>;
    .reg .b32 %r<5>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [out];
    ld.param.u32 %r1, [split];
    mov.u32 %r2, %tid.x;
    setp.lt.u32 %p1, %r2, %r1;
    @%p1 bra OTHER;
    bar.sync 0;
    bra DONE;
OTHER:
    bar.sync 1;
DONE:
    mul.wide.u32 %rd2, %r2, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r2;
    ret;
}
)";

std::string Ptxas() {
    const char *env = std::getenv("PTXAS");
    if (env && *env) return env;
    std::ifstream f("/usr/local/cuda/bin/ptxas");
    return f ? "/usr/local/cuda/bin/ptxas" : "";
}

class SassErrorTest : public CorpusTest {
protected:
    Status Run(const Kernel *k, uint32_t grid, uint32_t block, std::vector<Arg> args) {
        LaunchConfig c;
        c.grid = {grid, 1, 1};
        c.block = {block, 1, 1};
        return dev().Launch(*k, c, args);
    }
};
RNDN_CJ_INSTANTIATE(SassErrorTest);

TEST_P(SassErrorTest, OutOfBoundsAndMisalignedAccessesAreErrors) {
    const Kernel *k = K("saxpy", "saxpy");
    ASSERT_NE(k, nullptr);
    const int n = 100;
    float *x = Filled<float>(n, 1.f), *y = Filled<float>(n, 2.f);
    Status st = Launch(k, D1(2), D1(128), {Arg::S32(200), Arg::F32(1.f), Arg::Ptr(x), Arg::Ptr(y)});
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.message().find("kernel saxpy"), std::string::npos) << st.message();
    EXPECT_NE(st.message().find("out-of-bounds global"), std::string::npos) << st.message();
    EXPECT_NE(st.message().find("thread ("), std::string::npos) << st.message();
    EXPECT_NE(st.message().find("instruction 0x"), std::string::npos) << st.message();
    st = Launch(k, D1(1), D1(32), {Arg::S32(16), Arg::F32(1.f), Arg::Ptr((char *)x + 2), Arg::Ptr(y)});
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.message().find("misaligned"), std::string::npos) << st.message();
    // the device still works (the failed launches' other threads may have written y)
    for (int i = 0; i < n; ++i) y[i] = 2.f;
    ASSERT_TRUE(Ok(Launch(k, D1(1), D1(128), {Arg::S32(n), Arg::F32(1.f), Arg::Ptr(x), Arg::Ptr(y)})));
    for (int i = 0; i < n; ++i) ASSERT_EQ(y[i], 3.f);
    // bad launches
    EXPECT_FALSE(Launch(k, D1(0), D1(32), {Arg::S32(n), Arg::F32(1.f), Arg::Ptr(x), Arg::Ptr(y)}).ok());
    EXPECT_FALSE(Launch(k, D1(1), D1(2048), {Arg::S32(n), Arg::F32(1.f), Arg::Ptr(x), Arg::Ptr(y)}).ok());
    EXPECT_FALSE(Launch(k, D1(1), D1(32), {Arg::S32(n), Arg::Ptr(x), Arg::Ptr(y)}).ok());
    EXPECT_FALSE(Launch(k, D1(1), D1(32), {Arg::S64(n), Arg::F32(1.f), Arg::Ptr(x), Arg::Ptr(y)}).ok());
}

TEST_P(SassErrorTest, AnUndecodableInstructionIsAnError) {
    std::vector<uint8_t> bytes = ReadBytes("build/corpus/" + arch() + "/saxpy.cubin");
    ASSERT_FALSE(bytes.empty());
    auto elf = sass::ReadCubin(bytes);
    ASSERT_TRUE(elf.ok());
    int s = elf->Find(".text.saxpy");
    ASSERT_GE(s, 0);
    // overwrite the fourth instruction's opcode bits with a pattern no table form has
    auto &data = elf->sections[s].data;
    for (int i = 0; i < 12; ++i) data[3 * 16 + i] = 0xff;
    auto out = sass::WriteCubin(*elf);
    ASSERT_TRUE(out.ok());
    auto m = dev().LoadModule(*out);
    ASSERT_TRUE(m.ok()) << m.status().ToString();
    const Kernel *k = (*m)->Find("saxpy");
    float *x = Filled<float>(32, 1.f), *y = Filled<float>(32, 2.f);
    Status st = Launch(k, D1(1), D1(32), {Arg::S32(32), Arg::F32(1.f), Arg::Ptr(x), Arg::Ptr(y)});
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.message().find("instruction 0x0030"), std::string::npos) << st.message();
    EXPECT_NE(st.message().find("unsupported instruction"), std::string::npos) << st.message();
}

// ptxas -O3's cubin of `text` for `arch` (a temporary file named after `name`); empty on failure.
std::vector<uint8_t> PtxasCubin(const std::string &ptxas, const std::string &arch, const std::string &name, const char *text) {
    std::string dir = ::testing::TempDir();
    std::string ptx = dir + "/" + name + "_" + arch + ".ptx", cubin = dir + "/" + name + "_" + arch + ".cubin";
    {
        std::ofstream f(ptx);
        f << text;
    }
    if (std::system((ptxas + " -O3 -arch=" + arch + " " + ptx + " -o " + cubin).c_str()) != 0) return {};
    return ReadBytes(cubin);
}

TEST_P(SassErrorTest, BarrierDeadlockIsAnError) {
    std::string ptxas = Ptxas();
    if (ptxas.empty()) GTEST_SKIP() << "ptxas not found";
    std::vector<uint8_t> bytes = PtxasCubin(ptxas, arch(), "split_sync", kSplitSync);
    ASSERT_FALSE(bytes.empty()) << "ptxas failed";
    auto m = dev().LoadModule(bytes);
    ASSERT_TRUE(m.ok()) << m.status().ToString();
    const Kernel *k = (*m)->Find("split_sync");
    ASSERT_NE(k, nullptr);
    uint32_t *out = Zeros<uint32_t>(64);
    for (uint32_t split : {0u, 64u}) {  // everyone at one barrier
        ASSERT_TRUE(Ok(Run(k, 1, 64, {Arg::Ptr(out), Arg::U32(split)})));
        for (uint32_t i = 0; i < 64; ++i) ASSERT_EQ(out[i], i);
    }
    for (uint32_t split : {16u, 32u}) {
        Status st = Run(k, 1, 64, {Arg::Ptr(out), Arg::U32(split)});
        ASSERT_FALSE(st.ok());
        EXPECT_NE(st.message().find("split_sync"), std::string::npos) << st.message();
        // split 32: warp 0 waits at the barrier that warp 1 never reaches; split 16: warp 0 itself
        // reaches the aligned barrier in part, which a GPU leaves undefined
        EXPECT_NE(st.message().find(split == 32 ? "deadlock" : "BAR by a diverged warp"), std::string::npos) << st.message();
        EXPECT_NE(st.message().find("BAR.SYNC"), std::string::npos) << st.message();
    }
    ASSERT_TRUE(Ok(Run(k, 1, 64, {Arg::Ptr(out), Arg::U32(0)})));  // the device survives
}

// The GPU keeps the top two registers of a kernel's declared count for itself (an H100 stopped
// our kernels that declared the highest register + 1 with CUDA_ERROR_ILLEGAL_INSTRUCTION; ptxas
// declares the highest + 3): the same cubin with its REGCOUNT lowered by two stops the same way
// in the emulator, naming the register.
TEST_P(SassErrorTest, RegisterCountLeavesTwoForTheGpu) {
    std::string ptxas = Ptxas();
    if (ptxas.empty()) GTEST_SKIP() << "ptxas not found";
    std::vector<uint8_t> bytes = PtxasCubin(ptxas, arch(), "regcount", kSplitSync);
    ASSERT_FALSE(bytes.empty()) << "ptxas failed";
    uint32_t *out = Zeros<uint32_t>(64);
    {
        auto m = dev().LoadModule(bytes);
        ASSERT_TRUE(m.ok()) << m.status().ToString();
        ASSERT_TRUE(Ok(Run((*m)->Find("split_sync"), 1, 64, {Arg::Ptr(out), Arg::U32(0)})));
    }
    // lower REGCOUNT (EIATTR 0x2f: format 0x04, symbol, count) in .nv.info by two
    auto elf = sass::ReadCubin(bytes);
    ASSERT_TRUE(elf.ok()) << elf.status().ToString();
    int info = elf->Find(".nv.info");
    ASSERT_GE(info, 0);
    std::vector<uint8_t> &d = elf->sections[info].data;
    bool lowered = false;
    for (size_t i = 0; i + 4 <= d.size();) {
        uint8_t fmt = d[i], attr = d[i + 1];
        size_t len = fmt == 0x04 ? 4u + (d[i + 2] | (d[i + 3] << 8)) : 4u;
        if (fmt == 0x04 && attr == 0x2f && i + 12 <= d.size()) {
            ASSERT_GT(d[i + 8], 4) << "register count";
            d[i + 8] -= 2;
            lowered = true;
        }
        i += len;
    }
    ASSERT_TRUE(lowered) << "no REGCOUNT attribute";
    auto patched = sass::WriteCubin(*elf);
    ASSERT_TRUE(patched.ok()) << patched.status().ToString();
    auto m = dev().LoadModule(*patched);
    ASSERT_TRUE(m.ok()) << m.status().ToString();
    Status st = Run((*m)->Find("split_sync"), 1, 64, {Arg::Ptr(out), Arg::U32(0)});
    ASSERT_FALSE(st.ok()) << "a kernel using the registers the GPU keeps ran";
    EXPECT_NE(st.message().find("the GPU keeps the top two"), std::string::npos) << st.message();
}

// spin: every thread counts in flag[1] until flag[0] becomes nonzero (never, here).
const char *kSpin = R"(
.version 8.0
.target sm_75
.address_size 64
.visible .entry spin(.param .u64 flag)
{
    .reg .pred %p<2>;
    .reg .b32 %r<3>;
    .reg .b64 %rd<2>;
    ld.param.u64 %rd1, [flag];
    mov.u32 %r2, 0;
LOOP:
    ld.global.u32 %r1, [%rd1];
    add.u32 %r2, %r2, 1;
    st.global.u32 [%rd1+4], %r2;
    setp.eq.u32 %p1, %r1, 0;
    @%p1 bra LOOP;
    ret;
}
)";

TEST_P(SassErrorTest, EndlessLoopsStopAtTheLimitOrOnCancel) {
    std::string ptxas = Ptxas();
    if (ptxas.empty()) GTEST_SKIP() << "ptxas not found";
    std::string dir = ::testing::TempDir();
    std::string ptx = dir + "/spin_" + arch() + ".ptx", cubin = dir + "/spin_" + arch() + ".cubin";
    {
        std::ofstream f(ptx);
        f << kSpin;
    }
    ASSERT_EQ(std::system((ptxas + " -O3 -arch=" + arch() + " " + ptx + " -o " + cubin).c_str()), 0);
    auto m = dev().LoadModule(ReadBytes(cubin));
    ASSERT_TRUE(m.ok()) << m.status().ToString();
    const Kernel *k = (*m)->Find("spin");
    ASSERT_NE(k, nullptr);
    uint32_t *flag = Zeros<uint32_t>(2);
    LaunchConfig c;
    c.grid = {2, 1, 1};
    c.block = {64, 1, 1};
    c.cta_instruction_limit = 100000;
    Status st = dev().Launch(*k, c, {Arg::Ptr(flag)});
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.message().find("endless loop"), std::string::npos) << st.message();
    EXPECT_NE(st.message().find("kernel spin"), std::string::npos) << st.message();
    std::atomic<bool> cancel{true};
    c.cta_instruction_limit = 0;
    c.cancel = &cancel;
    st = dev().Launch(*k, c, {Arg::Ptr(flag)});
    EXPECT_EQ(st.code(), Code::CANCELLED) << st.ToString();
    *flag = 1;  // now it terminates
    c.cancel = nullptr;
    ASSERT_TRUE(Ok(dev().Launch(*k, c, {Arg::Ptr(flag)})));
}

template <class T>
void WriteVec(const std::string &path, const std::vector<T> &v) {
    std::ofstream f(path, std::ios::binary);
    f.write((const char *)v.data(), (std::streamsize)(v.size() * sizeof(T)));
}

TEST(RndnEmu, RunsACorpusCubinWithFileArguments) {
    if (rndn::testing::ReadText("bin/rndn-emu").empty()) GTEST_SKIP() << "bin/rndn-emu not built";
    std::string dir = ::testing::TempDir();
    const int n = 1000;
    std::vector<float> x(n), y(n);
    for (int i = 0; i < n; ++i) x[i] = (float)i * 0.25f, y[i] = (float)(n - i);
    WriteVec(dir + "/re_x.bin", x);
    WriteVec(dir + "/re_y.bin", y);
    for (const char *arch : {"sm_75", "sm_90"}) {
        std::string cmd = std::string("bin/rndn-emu build/corpus/") + arch + "/saxpy.cubin --kernel saxpy --grid 4 --block 256 --threads 2 s32:" +
                          std::to_string(n) + " f32:1.5 in:" + dir + "/re_x.bin inout:" + dir + "/re_y.bin:" + dir + "/re_out.bin > " + dir +
                          "/re_log.txt 2>&1";
        ASSERT_EQ(std::system(cmd.c_str()), 0) << rndn::testing::ReadText(dir + "/re_log.txt");
        EXPECT_NE(rndn::testing::ReadText(dir + "/re_log.txt").find("warp instructions"), std::string::npos);
        std::string s = rndn::testing::ReadText(dir + "/re_out.bin");
        ASSERT_EQ(s.size(), n * sizeof(float));
        for (int i = 0; i < n; ++i) {
            float v;
            std::memcpy(&v, s.data() + 4 * i, 4);
            ASSERT_TRUE(SameF(v, std::fmaf(1.5f, x[i], y[i]))) << i;
        }
    }
    // --trace prints the executed instructions
    std::string cmd = "bin/rndn-emu build/corpus/sm_86/saxpy.cubin --kernel saxpy --grid 1 --block 32 --trace s32:32 f32:1 in:" + dir +
                      "/re_x.bin inout:" + dir + "/re_y.bin:" + dir + "/re_out.bin > " + dir + "/re_log.txt 2>&1";
    ASSERT_EQ(std::system(cmd.c_str()), 0);
    std::string log = rndn::testing::ReadText(dir + "/re_log.txt");
    EXPECT_NE(log.find("FFMA"), std::string::npos) << log;
    EXPECT_NE(log.find("EXIT"), std::string::npos) << log;
    // --check-hazards: none in ptxas's code; a cleared wait mask is reported (exit status 3)
    cmd = "bin/rndn-emu build/corpus/sm_86/saxpy.cubin --kernel saxpy --grid 4 --block 256 --check-hazards s32:1000 f32:1 in:" + dir +
          "/re_x.bin inout:" + dir + "/re_y.bin:" + dir + "/re_out.bin > " + dir + "/re_log.txt 2>&1";
    ASSERT_EQ(std::system(cmd.c_str()), 0) << rndn::testing::ReadText(dir + "/re_log.txt");
    EXPECT_NE(rndn::testing::ReadText(dir + "/re_log.txt").find("hazards: 0"), std::string::npos);
    {
        auto elf = sass::ReadCubin(ReadBytes("build/corpus/sm_86/saxpy.cubin"));
        ASSERT_TRUE(elf.ok());
        int s = elf->Find(".text.saxpy");
        ASSERT_GE(s, 0);
        auto &data = elf->sections[s].data;
        bool done = false;
        for (size_t i = 0; i + 16 <= data.size() && !done; i += 16) {
            sass::Word w;
            std::memcpy(&w.lo, data.data() + i, 8);
            std::memcpy(&w.hi, data.data() + i + 8, 8);
            sass::Control ctl = sass::UnpackControl(w);
            if (ctl.wait == 0 || ctl.wait == 0x3f) continue;
            ctl.wait = 0;  // the first consumer of a load no longer waits for it
            sass::PackControl(ctl, &w);
            std::memcpy(data.data() + i, &w.lo, 8);
            std::memcpy(data.data() + i + 8, &w.hi, 8);
            done = true;
        }
        ASSERT_TRUE(done);
        auto out = sass::WriteCubin(*elf);
        ASSERT_TRUE(out.ok());
        std::ofstream f(dir + "/re_mutated.cubin", std::ios::binary);
        f.write((const char *)out->data(), (std::streamsize)out->size());
    }
    cmd = "bin/rndn-emu " + dir + "/re_mutated.cubin --kernel saxpy --grid 4 --block 256 --check-hazards s32:1000 f32:1 in:" + dir +
          "/re_x.bin inout:" + dir + "/re_y.bin:" + dir + "/re_out.bin > " + dir + "/re_log.txt 2>&1";
    int rc = std::system(cmd.c_str());
    EXPECT_TRUE(WIFEXITED(rc) && WEXITSTATUS(rc) == 3) << rc << rndn::testing::ReadText(dir + "/re_log.txt");
    EXPECT_NE(rndn::testing::ReadText(dir + "/re_log.txt").find("before scoreboard"), std::string::npos) << rndn::testing::ReadText(dir + "/re_log.txt");
    // an out-of-bounds launch fails naming the kernel; bad usage is rejected
    cmd = "bin/rndn-emu build/corpus/sm_86/saxpy.cubin --kernel saxpy --grid 8 --block 256 s32:2000 f32:1 in:" + dir + "/re_x.bin inout:" + dir +
          "/re_y.bin:" + dir + "/re_out.bin > " + dir + "/re_log.txt 2>&1";
    EXPECT_NE(std::system(cmd.c_str()), 0);
    EXPECT_NE(rndn::testing::ReadText(dir + "/re_log.txt").find("kernel saxpy"), std::string::npos);
    EXPECT_NE(std::system("bin/rndn-emu build/corpus/sm_86/saxpy.cubin --kernel saxpy --grid 0 --block 1 > /dev/null 2>&1"), 0);
    EXPECT_NE(std::system("bin/rndn-emu build/corpus/sm_86/saxpy.cubin --kernel saxpy --grid 1 --block 1 q32:1 > /dev/null 2>&1"), 0);
}

}  // namespace
}  // namespace rndn::cpujit::testing

namespace rndn::sassemu {
namespace {

// An opcode or a modifier without semantics makes the instruction unsupported, naming it.
TEST(SassSemantics, UnknownOpcodesAndModifiersAreNamed) {
    DInst d;
    ASSERT_TRUE(ParseDInst("IADD3 R0, R1, -R2, 0x10", &d).ok());
    ASSERT_TRUE(PrepareDInst(d).ok());
    EXPECT_EQ(d.nops, 4);
    EXPECT_TRUE(d.o[2].neg);
    EXPECT_EQ(d.o[3].imm, 0x10);
    DInst bad;
    ASSERT_TRUE(ParseDInst("IADD3.BOGUS R0, R1, R2, R3", &bad).ok());
    Status st = PrepareDInst(bad);
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.message().find(".BOGUS"), std::string::npos) << st.message();
    EXPECT_NE(st.message().find("IADD3"), std::string::npos) << st.message();
    DInst unknown;
    ASSERT_TRUE(ParseDInst("TEXS R0, R1, R2", &unknown).ok());
    st = PrepareDInst(unknown);
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.message().find("opcode TEXS"), std::string::npos) << st.message();
    DInst mem;
    ASSERT_TRUE(ParseDInst("LDG.E.64 R4, desc[UR4][R2.64+0x10]", &mem).ok());
    ASSERT_TRUE(PrepareDInst(mem).ok());
    EXPECT_EQ(mem.o[1].kind, Operand::MEM);
    EXPECT_TRUE(mem.o[1].wide);
    EXPECT_EQ(mem.o[1].reg, 2);
    EXPECT_EQ(mem.o[1].imm, 0x10);
}

}  // namespace
}  // namespace rndn::sassemu
