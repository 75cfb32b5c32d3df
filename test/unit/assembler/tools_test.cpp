// bin/rndn-dis and bin/rndn-asm end to end, judged by NVIDIA's tools: for every corpus cubin and
// every architecture, the listing rndn-dis prints is assembled by rndn-asm from its text into a
// cubin that cuobjdump -elf accepts and describes exactly as it describes ptxas's original apart
// from the code words (sections, symbols, relocations, .nv.info attributes, constant banks; the
// code itself is compared bit by bit in corpus_test), and that nvdisasm reads with the same number
// of instructions in every function.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <regex>
#include <set>

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
    std::vector<std::string> cubins = CorpusCubins(arch);
    ASSERT_GE(cubins.size(), 30u) << "corpus missing in build/corpus (make corpus)";

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

// Constant-bank operands beyond the corpus: every corpus instruction with a c[bank][offset]
// operand is re-encoded by our encoder with other banks and offsets (large and negative ones
// included); our decoder must read each word back as that instruction, and nvdisasm must print
// the rewritten cubin exactly as our decoder does.
TEST_P(ToolsTest, ConstantBankOperandsAgreeWithNvdisasm) {
    const Arch arch = GetParam();
    std::string nvdisasm = ToolPath("nvdisasm");
    if (nvdisasm.empty()) {
        std::printf("SKIPPED: nvdisasm not found (.venv nvidia-cuda-nvdisasm or PATH)\n");
        GTEST_SKIP() << "nvdisasm not found";
    }
    const Isa *isa = *Isa::Get(arch);
    const int64_t kOffsets[] = {0x7ffc, -0x8000, -0x4, 0x48d0, 0x3a0};
    std::vector<std::string> cubins = CorpusCubins(GetArchInfo(arch).name);
    ASSERT_GE(cubins.size(), 30u) << "corpus missing in build/corpus (make corpus)";
    std::string tmp = (fs::temp_directory_path() / ("rndn_cbank_" + std::string(GetArchInfo(arch).name) + ".cubin")).string();
    static const std::regex kFunction(R"(^\s*\.text\.(\S+):)"), kInst(R"(^\s*/\*([0-9a-f]{4,})\*/\s*(.*?)\s*;)");
    long rewritten = 0, agree = 0;
    std::set<std::string> forms;
    for (const std::string &path : cubins) {
        auto elf = ReadCubin(ReadFile(path));
        ASSERT_TRUE(elf.ok()) << elf.status().message();
        auto fns = DecodeCubin(*elf);
        ASSERT_TRUE(fns.ok()) << fns.status().message();
        std::map<std::pair<std::string, uint64_t>, std::string> ours;  // (function, address) -> text
        for (const DecodedFunction &fn : *fns) {
            for (const DecodedInstruction &d : fn.insts) {
                if (!d.ok) continue;
                const Form &f = isa->forms()[d.inst.form];
                size_t at = f.templ.find("c[{X}][{X}]");
                if (at == std::string::npos) continue;
                size_t bank = static_cast<size_t>(std::count(f.templ.begin(), f.templ.begin() + at, '{'));
                Instruction inst = d.inst;
                inst.values[bank] = rewritten % 18;
                inst.values[bank + 1] = kOffsets[rewritten % 5];
                auto w = isa->Encode(inst, d.address);
                ASSERT_TRUE(w.ok()) << f.templ << ": " << w.status().message();
                std::memcpy(elf->sections[fn.section].data.data() + d.address, &w->lo, 8);
                std::memcpy(elf->sections[fn.section].data.data() + d.address + 8, &w->hi, 8);
                auto back = isa->Decode(*w, d.address);
                ASSERT_TRUE(back.ok()) << f.templ << ": " << back.status().message();
                auto no_labels = [](int64_t) { return std::string("?"); };
                std::string text = isa->Print(*back, no_labels);
                EXPECT_EQ(text, isa->Print(inst, no_labels)) << "decode(encode(x)) != x";
                ours[{fn.name, d.address}] = text;
                forms.insert(f.templ);
                ++rewritten;
            }
        }
        if (ours.empty()) continue;
        auto bytes = WriteCubin(*elf);
        ASSERT_TRUE(bytes.ok());
        std::ofstream(tmp, std::ios::binary).write(reinterpret_cast<const char *>(bytes->data()), bytes->size());
        std::string fn;
        for (const std::string &line : Lines(RunCmd(nvdisasm + " -c '" + tmp + "' 2>&1"))) {
            std::smatch m;
            if (std::regex_search(line, m, kFunction)) {
                fn = m[1];
            } else if (std::regex_search(line, m, kInst)) {
                auto it = ours.find({fn, std::strtoull(m[1].str().c_str(), nullptr, 16)});
                if (it == ours.end()) continue;
                bool same = it->second == m[2].str();
                agree += same;
                EXPECT_TRUE(same) << path << " " << fn << "+0x" << m[1] << ": ours '" << it->second << "' nvdisasm '"
                                  << m[2] << "'";
            }
        }
    }
    fs::remove(tmp);
    std::printf("[%s] c[bank][offset] rewritten in %ld instructions of %zu forms: nvdisasm agrees on %ld\n",
                GetArchInfo(arch).name, rewritten, forms.size(), agree);
    EXPECT_GT(rewritten, 0);
    EXPECT_EQ(agree, rewritten);
}

INSTANTIATE_TEST_SUITE_P(AllArchs, ToolsTest, ::testing::ValuesIn(kAllArchs),
                         [](const ::testing::TestParamInfo<Arch> &i) { return std::string(GetArchInfo(i.param).name); });

}  // namespace
