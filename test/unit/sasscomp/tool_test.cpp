// bin/rndn-asm FILE.ptx --arch sm_XX -o FILE.cubin: the cubin loads in the SASS emulator and runs
// saxpy correctly; an unsupported instruction fails with exit status 1 and names it; --sass still
// assembles listings (rndn-dis | rndn-asm --sass round trip).
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include "assembler/nv_tools.h"
#include "common/corpus_util.h"
#include "sassemu/sassemu.h"

namespace rndn::sasscomp {
namespace {

using sass::nvtools::ReadFile;
using sass::nvtools::Shell;

TEST(RndnAsm, CompilesPtxToARunnableCubin) {
    for (const char *arch : {"sm_80", "sm_90"}) {
        std::string out = std::string("build/test/rndn_asm_saxpy_") + arch + ".cubin";
        auto r = Shell(std::string("bin/rndn-asm build/corpus/") + arch + "/saxpy.ptx --arch " + arch + " -o " + out + " 2>&1");
        ASSERT_EQ(r.status, 0) << r.out;
        auto bytes = ReadFile(out);
        std::remove(out.c_str());
        sassemu::Device dev(1);
        auto m = dev.LoadModule(bytes);
        ASSERT_TRUE(m.ok()) << m.status().ToString();
        const sassemu::Kernel *k = (*m)->Find("saxpy");
        ASSERT_NE(k, nullptr);
        const int n = 300;
        float *x = static_cast<float *>(dev.Allocate(n * 4)), *y = static_cast<float *>(dev.Allocate(n * 4));
        for (int i = 0; i < n; ++i) x[i] = 0.5f * i, y[i] = 3.f - i;
        sassemu::LaunchConfig c;
        c.grid = {3, 1, 1};
        c.block = {128, 1, 1};
        c.check_hazards = true;
        sassemu::LaunchStats stats;
        Status st = dev.Launch(*k, c, {sassemu::Arg::S32(n), sassemu::Arg::F32(2.5f), sassemu::Arg::Ptr(x), sassemu::Arg::Ptr(y)}, &stats);
        ASSERT_TRUE(st.ok()) << st.ToString();
        EXPECT_TRUE(stats.hazards.empty());
        for (int i = 0; i < n; ++i) ASSERT_EQ(y[i], std::fmaf(2.5f, 0.5f * i, 3.f - i)) << i;
        dev.Free(x);
        dev.Free(y);
    }
}

TEST(RndnAsm, UnsupportedInstructionFailsNamingIt) {
    std::string ptx = "build/test/rndn_asm_bad.ptx";
    {
        std::ofstream o(ptx);
        o << ".version 9.0\n.target sm_86\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n"
             "  .reg .b32 %r<3>;\n  mul24.lo.s32 %r2, %r1, %r1;\n  ret;\n}\n";
    }
    auto r = Shell("bin/rndn-asm " + ptx + " --arch sm_86 -o build/test/rndn_asm_bad.cubin 2>&1");
    std::remove(ptx.c_str());
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.out.find("mul24.lo.s32"), std::string::npos) << r.out;
}

TEST(RndnAsm, SassListingsStillAssemble) {
    std::string lst = "build/test/rndn_asm_rt.sass", out = "build/test/rndn_asm_rt.cubin";
    auto d = Shell("bin/rndn-dis build/corpus/sm_86/saxpy.cubin > " + lst + " && bin/rndn-asm --sass " + lst + " --arch sm_86 -o " + out + " 2>&1");
    ASSERT_EQ(d.status, 0) << d.out;
    EXPECT_EQ(ReadFile(out), ReadFile("build/corpus/sm_86/saxpy.cubin"));
    std::remove(lst.c_str());
    std::remove(out.c_str());
}

}  // namespace
}  // namespace rndn::sasscomp
