// bin/rndn-run end to end: scalar, in:, out: and inout: arguments on a corpus kernel.
#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "harness.h"

namespace rndn::cpujit::testing {
namespace {

template <class T>
void WriteFile(const std::string &path, const std::vector<T> &v) {
    std::ofstream f(path, std::ios::binary);
    f.write((const char *)v.data(), (std::streamsize)(v.size() * sizeof(T)));
}
template <class T>
std::vector<T> ReadFile(const std::string &path) {
    std::string s = ReadText(path);
    std::vector<T> v(s.size() / sizeof(T));
    std::memcpy(v.data(), s.data(), v.size() * sizeof(T));
    return v;
}

TEST(RndnRun, RunsACorpusKernelWithFileArguments) {
    if (ReadText("bin/rndn-run").empty() || ReadText("build/corpus/sm_80/saxpy.ptx").empty()) {
        std::printf("SKIPPED: bin/rndn-run or build/corpus/sm_80/saxpy.ptx not built (make bin/rndn-run corpus)\n");
        GTEST_SKIP() << "bin/rndn-run or the corpus is not built";
    }
    std::string dir = ::testing::TempDir();
    const int n = 1000;
    std::vector<float> x(n), y(n);
    for (int i = 0; i < n; ++i) {
        x[i] = (float)i * 0.25f;
        y[i] = (float)(n - i);
    }
    WriteFile(dir + "/rr_x.bin", x);
    WriteFile(dir + "/rr_y.bin", y);
    std::string cmd = "bin/rndn-run build/corpus/sm_80/saxpy.ptx --kernel saxpy --grid 4 --block 256 --threads 2 s32:" +
                      std::to_string(n) + " f32:1.5 in:" + dir + "/rr_x.bin inout:" + dir + "/rr_y.bin:" + dir +
                      "/rr_out.bin > " + dir + "/rr_log.txt 2>&1";
    ASSERT_EQ(std::system(cmd.c_str()), 0) << ReadText(dir + "/rr_log.txt");
    std::string log = ReadText(dir + "/rr_log.txt");
    EXPECT_NE(log.find("jit:"), std::string::npos) << log;
    EXPECT_NE(log.find("run:"), std::string::npos) << log;
    auto out = ReadFile<float>(dir + "/rr_out.bin");
    ASSERT_EQ(out.size(), (size_t)n);
    for (int i = 0; i < n; ++i) ASSERT_TRUE(SameF(out[i], std::fmaf(1.5f, x[i], y[i]))) << i;

    // out:BYTES:FILE with a 2D grid kernel
    cmd = "bin/rndn-run build/corpus/sm_80/grid_3d.ptx --kernel volume_index_3d --grid 1,2,1 --block 4,2,3 out:" +
          std::to_string(4 * 4 * 4 * 3) + ":" + dir + "/rr_vol.bin s32:4 s32:4 s32:3 > " + dir + "/rr_log.txt 2>&1";
    ASSERT_EQ(std::system(cmd.c_str()), 0) << ReadText(dir + "/rr_log.txt");
    auto vol = ReadFile<int32_t>(dir + "/rr_vol.bin");
    ASSERT_EQ(vol.size(), 48u);
    for (int z = 0; z < 3; ++z)
        for (int yy = 0; yy < 4; ++yy)
            for (int xx = 0; xx < 4; ++xx) ASSERT_EQ(vol[(z * 4 + yy) * 4 + xx], xx + 1000 * yy + 1000000 * z);

    // an out-of-bounds launch fails with a message naming the kernel, and bad usage is rejected
    cmd = "bin/rndn-run build/corpus/sm_80/saxpy.ptx --kernel saxpy --grid 8 --block 256 s32:2000 f32:1 in:" + dir +
          "/rr_x.bin inout:" + dir + "/rr_y.bin:" + dir + "/rr_out.bin > " + dir + "/rr_log.txt 2>&1";
    EXPECT_NE(std::system(cmd.c_str()), 0);
    EXPECT_NE(ReadText(dir + "/rr_log.txt").find("kernel 'saxpy'"), std::string::npos) << ReadText(dir + "/rr_log.txt");
    EXPECT_NE(std::system("bin/rndn-run build/corpus/sm_80/saxpy.ptx --kernel saxpy --grid 0 --block 1 > /dev/null 2>&1"), 0);
    EXPECT_NE(std::system("bin/rndn-run build/corpus/sm_80/saxpy.ptx --kernel saxpy --grid 1 --block 1 q32:1 > /dev/null 2>&1"), 0);
}

}  // namespace
}  // namespace rndn::cpujit::testing
