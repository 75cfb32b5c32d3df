// bin/rndn-dis and bin/rndn-asm end to end, judged by NVIDIA's tools: for every corpus cubin and
// every architecture, the listing rndn-dis prints is assembled by rndn-asm from its text into a
// cubin that cuobjdump -elf accepts and describes exactly as it describes ptxas's original apart
// from the code words (sections, symbols, relocations, .nv.info attributes, constant banks; the
// code itself is compared bit by bit in corpus_test), and that nvdisasm reads with the same number
// of instructions in every function.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <regex>

#include "assembler/assembler.h"
#include "assembler/nv_tools.h"

namespace fs = std::filesystem;
using namespace rndn::sass;
using namespace rndn::sass::nvtools;

namespace {

// function name -> instruction count in an nvdisasm listing
std::map<std::string, int> InstructionsPerFunction(const std::string &listing) {
    static const std::regex kFunction(R"(^\s*\.text\.(\S+):)"), kInst(R"(^\s*/\*[0-9a-f]{4,}\*/)");
    std::map<std::string, int> out;
    std::string fn;
    for (const std::string &line : Lines(listing)) {
        std::smatch m;
        if (std::regex_search(line, m, kFunction)) fn = m[1];
        else if (!fn.empty() && std::regex_search(line, kInst)) ++out[fn];
    }
    return out;
}

// cuobjdump -elf's description without the words of the .text.<function> sections.
std::string WithoutCode(const std::string &description) {
    std::string out;
    bool in_code = false;
    for (const std::string &line : Lines(description)) {
        if (line.rfind(".text.", 0) == 0) in_code = true;
        else if (!line.empty() && line[0] == '.') in_code = false;
        else if (in_code && line.rfind("0x", 0) == 0) continue;
        out += line + "\n";
    }
    return out;
}

class ToolsTest : public ::testing::TestWithParam<Arch> {};

TEST_P(ToolsTest, DisassembleAssembleAcceptedByNvidiaTools) {
    const std::string arch = GetArchInfo(GetParam()).name;
    std::string nvdisasm = ToolPath("nvdisasm"), cuobjdump = ToolPath("cuobjdump");
    if (nvdisasm.empty() || cuobjdump.empty()) {
        std::printf("SKIPPED: nvdisasm/cuobjdump not found (.venv nvidia-cuda-nvdisasm or PATH)\n");
        GTEST_SKIP() << "nvdisasm/cuobjdump not found";
    }
    ASSERT_TRUE(fs::exists("bin/rndn-dis") && fs::exists("bin/rndn-asm")) << "tools not built (make tools)";
    std::vector<std::string> cubins;
    std::string dir = "build/corpus/" + arch;
    if (fs::exists(dir))
        for (const auto &e : fs::directory_iterator(dir))
            if (e.path().extension() == ".cubin") cubins.push_back(e.path().string());
    std::sort(cubins.begin(), cubins.end());
    ASSERT_GE(cubins.size(), 30u) << "corpus missing in " << dir << " (make corpus)";

    fs::path tmp = fs::temp_directory_path() / ("rndn_tools_test_" + arch);
    fs::create_directories(tmp);
    int same_bytes = 0, same_description = 0;
    for (const std::string &path : cubins) {
        std::string stem = fs::path(path).stem().string();
        std::string sass = (tmp / (stem + ".sass")).string(), out = (tmp / (stem + ".cubin")).string();
        ASSERT_EQ(Shell("bin/rndn-dis '" + path + "' > '" + sass + "' 2>&1").status, 0) << "rndn-dis failed on " << path;
        CmdResult as = Shell("bin/rndn-asm --sass '" + sass + "' --arch " + arch + " -o '" + out + "' 2>&1");
        ASSERT_EQ(as.status, 0) << "rndn-asm failed on the listing of " << path << ": " << as.out;

        CmdResult elf_orig = Shell(cuobjdump + " -elf '" + path + "' 2>&1");
        CmdResult elf_ours = Shell(cuobjdump + " -elf '" + out + "' 2>&1");
        ASSERT_EQ(elf_orig.status, 0) << elf_orig.out;
        EXPECT_EQ(elf_ours.status, 0) << "cuobjdump -elf rejects the cubin rebuilt from " << path << ": " << elf_ours.out;
        EXPECT_EQ(WithoutCode(elf_ours.out), WithoutCode(elf_orig.out))
            << "cuobjdump -elf describes the rebuilt " << stem << " differently";
        same_description += elf_ours.out == elf_orig.out;

        // A byte-identical file needs no second opinion; any other is read by nvdisasm.
        if (ReadFile(out) == ReadFile(path)) {
            ++same_bytes;
            continue;
        }
        CmdResult dis_orig = Shell(nvdisasm + " '" + path + "' 2>&1"), dis_ours = Shell(nvdisasm + " '" + out + "' 2>&1");
        EXPECT_EQ(dis_ours.status, 0) << "nvdisasm rejects the cubin rebuilt from " << path << ": " << dis_ours.out;
        auto want = InstructionsPerFunction(dis_orig.out);
        EXPECT_FALSE(want.empty()) << "no functions found in nvdisasm's listing of " << path;
        EXPECT_EQ(InstructionsPerFunction(dis_ours.out), want) << "nvdisasm reads other functions in the rebuilt " << stem;
    }
    std::printf("[%s] rndn-dis -> rndn-asm: %zu cubins accepted by cuobjdump and nvdisasm; %d described identically "
                "code included, %d byte-identical\n",
                arch.c_str(), cubins.size(), same_description, same_bytes);
    fs::remove_all(tmp);
}

INSTANTIATE_TEST_SUITE_P(AllArchs, ToolsTest, ::testing::ValuesIn(kAllArchs),
                         [](const ::testing::TestParamInfo<Arch> &i) { return std::string(GetArchInfo(i.param).name); });

}  // namespace
