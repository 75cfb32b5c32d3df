// The generated tables are reproduced by their generator: src/assembler/gen/isa_gen.cpp run over
// nvdisasm's saved listings of the corpus (build/corpus/sm_XX/*.sass, mk/assembler.mk) with the
// hand knowledge in src/assembler/isa/hand.txt writes src/assembler/isa/sm_XX.inc byte for byte.
#include <gtest/gtest.h>

#include "assembler/assembler.h"
#include "assembler/nv_tools.h"

namespace fs = std::filesystem;
using namespace rndn::sass;
using namespace rndn::sass::nvtools;

namespace {

std::string Slurp(const std::string &path) {
    std::vector<uint8_t> b = ReadFile(path);
    return std::string(b.begin(), b.end());
}

class IsaGenTest : public ::testing::TestWithParam<Arch> {};

TEST_P(IsaGenTest, RegeneratingReproducesTheTable) {
    const std::string arch = GetArchInfo(GetParam()).name;
    if (ToolPath("nvdisasm").empty()) {
        std::printf("SKIPPED: nvdisasm not found (.venv nvidia-cuda-nvdisasm or PATH)\n");
        GTEST_SKIP() << "nvdisasm not found";
    }
    ASSERT_TRUE(fs::exists("build/assembler/isa_gen")) << "generator not built (mk/assembler.mk)";
    std::vector<std::string> listings;
    for (const std::string &cubin : CorpusCubins(arch)) {
        std::string sass = cubin.substr(0, cubin.size() - 6) + ".sass";
        ASSERT_TRUE(fs::exists(sass)) << sass << " missing (make isa-sass)";
        listings.push_back(sass);
    }
    ASSERT_GE(listings.size(), 30u) << "corpus missing in build/corpus (make corpus)";
    // The ISA probe kernels (test/isa/probe, mk/assembler.mk) are generator input too.
    std::string probe = "build/isa_probe/" + arch;
    if (fs::exists(probe))
        for (const auto &e : fs::directory_iterator(probe))
            if (e.path().extension() == ".sass") listings.push_back(e.path().string());
    std::string out = (fs::temp_directory_path() / ("rndn_isa_gen_" + arch + ".inc")).string();
    // Synthesized forms are confirmed by nvdisasm, so the generator runs it too (mk/assembler.mk).
    std::string cmd = "build/assembler/isa_gen --arch " + arch + " --nvdisasm '" + ToolPath("nvdisasm") +
                      "' --synthesize 2 --hand src/assembler/isa/hand.txt -o '" + out + "'";
    for (const std::string &l : listings) cmd += " '" + l + "'";
    CmdResult r = Shell(cmd + " 2>&1");
    ASSERT_EQ(r.status, 0) << r.out;
    std::string want = Slurp("src/assembler/isa/" + arch + ".inc"), got = Slurp(out);
    fs::remove(out);
    ASSERT_FALSE(want.empty());
    if (got != want) {
        std::vector<std::string> a = Lines(want), b = Lines(got);
        size_t i = 0;
        while (i < a.size() && i < b.size() && a[i] == b[i]) ++i;
        FAIL() << arch << ".inc differs from the generator's output (make isa-tables) at line " << i + 1 << ":\n  table: "
               << (i < a.size() ? a[i] : "<end>") << "\n  generated: " << (i < b.size() ? b[i] : "<end>");
    }
}

INSTANTIATE_TEST_SUITE_P(AllArchs, IsaGenTest, ::testing::ValuesIn(kAllArchs),
                         [](const ::testing::TestParamInfo<Arch> &i) { return std::string(GetArchInfo(i.param).name); });

}  // namespace
