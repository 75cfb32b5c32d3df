// Every corpus kernel (build/corpus/sm_XX/*.ptx, made by `make corpus` with nvcc) must:
//   1. parse and verify;
//   2. print stably: Print(Parse(Print(Parse(text)))) == Print(Parse(text));
//   3. be accepted by NVIDIA's ptxas for its arch after printing; and
//   4. compile to exactly the same machine code as the original PTX (ptxas as the oracle:
//      every .text.<kernel> section of both cubins is byte-identical), which shows that printing
//      preserved every instruction, modifier and operand.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "ptx/ptx.h"
#include "ptx_test_util.h"

namespace rndn::ptx {
namespace {

using testing::CorpusArchs;
using testing::ListFiles;
using testing::ReadFile;
using testing::RunCommand;

struct CorpusFile {
    std::string arch;
    std::string name;  // without .ptx
    std::string Path() const { return "build/corpus/" + arch + "/" + name + ".ptx"; }
};

std::vector<CorpusFile> AllCorpusFiles() {
    std::vector<CorpusFile> out;
    for (const std::string &a : CorpusArchs())
        for (const std::string &f : ListFiles("build/corpus/" + a, ".ptx")) out.push_back({a, f.substr(0, f.size() - 4)});
    return out;
}

// The code of a cubin: every SHT_PROGBITS section named ".text.*", as "name:bytes" records.
// Parsed from the ELF64 headers directly (fast; no cuobjdump process per file).
bool CubinCode(const std::string &path, std::map<std::string, std::string> &out, std::string &err) {
    std::string b;
    if (!ReadFile(path, b)) {
        err = "cannot read " + path;
        return false;
    }
    auto u16 = [&](size_t o) { return o + 2 <= b.size() ? static_cast<uint32_t>(static_cast<uint8_t>(b[o]) | (static_cast<uint8_t>(b[o + 1]) << 8)) : 0u; };
    auto u32 = [&](size_t o) { return o + 4 <= b.size() ? (u16(o) | (u16(o + 2) << 16)) : 0u; };
    auto u64 = [&](size_t o) { return static_cast<uint64_t>(u32(o)) | (static_cast<uint64_t>(u32(o + 4)) << 32); };
    if (b.size() < 64 || b.compare(0, 4, "\x7f" "ELF") != 0 || b[4] != 2) {
        err = path + " is not an ELF64 file";
        return false;
    }
    uint64_t shoff = u64(0x28);
    uint32_t shentsize = u16(0x3a), shnum = u16(0x3c), shstrndx = u16(0x3e);
    if (shentsize < 64 || shoff + static_cast<uint64_t>(shnum) * shentsize > b.size() || shstrndx >= shnum) {
        err = path + ": bad section headers";
        return false;
    }
    auto sh = [&](uint32_t i) { return static_cast<size_t>(shoff + static_cast<uint64_t>(i) * shentsize); };
    uint64_t strtab = u64(sh(shstrndx) + 0x18);
    for (uint32_t i = 0; i < shnum; ++i) {
        size_t h = sh(i);
        uint64_t name_off = strtab + u32(h);
        if (name_off >= b.size()) continue;
        std::string name = b.c_str() + name_off;
        if (name.rfind(".text.", 0) != 0 || u32(h + 4) != 1 /* SHT_PROGBITS */) continue;
        uint64_t off = u64(h + 0x18), size = u64(h + 0x20);
        if (off + size > b.size()) {
            err = path + ": section out of range";
            return false;
        }
        out[name] = b.substr(off, size);
    }
    if (out.empty()) {
        err = path + ": no .text sections";
        return false;
    }
    return true;
}

class CorpusTest : public ::testing::TestWithParam<CorpusFile> {};

TEST_P(CorpusTest, ParsesVerifiesRoundTripsAndPtxasAgrees) {
    const CorpusFile &cf = GetParam();
    std::string text;
    ASSERT_TRUE(ReadFile(cf.Path(), text)) << cf.Path();
    auto m = ParseModule(text, cf.Path());
    ASSERT_TRUE(m.ok()) << m.status().message();
    Status vs = Verify(*m);
    ASSERT_TRUE(vs.ok()) << vs.message();
    EXPECT_EQ(m->SmVersion(), static_cast<uint32_t>(std::stoi(cf.arch.substr(3))));
    bool has_kernel = false;
    for (const Function &f : m->functions) has_kernel |= f.is_entry && f.has_body;
    EXPECT_TRUE(has_kernel) << "no .entry in " << cf.Path();

    std::string p1 = Print(*m);
    auto m2 = ParseModule(p1, cf.name + ".printed.ptx");
    ASSERT_TRUE(m2.ok()) << m2.status().message();
    Status vs2 = Verify(*m2);
    ASSERT_TRUE(vs2.ok()) << vs2.message();
    std::string p2 = Print(*m2);
    EXPECT_EQ(p1, p2) << "printing is not stable for " << cf.Path();

    testing::TempDir tmp;
    ASSERT_FALSE(tmp.path().empty());
    std::string printed = tmp.path() + "/" + cf.name + ".ptx";
    ASSERT_TRUE(testing::WriteFile(printed, p1));
    std::string cubin = tmp.path() + "/" + cf.name + ".cubin";
    std::string out;
    int rc = RunCommand(testing::Ptxas() + " -O3 -arch=" + cf.arch + " '" + printed + "' -o '" + cubin + "'", &out);
    ASSERT_EQ(rc, 0) << "ptxas rejected the printed PTX of " << cf.Path() << ":\n" << out;

    std::string orig_cubin = "build/corpus/" + cf.arch + "/" + cf.name + ".cubin";
    ASSERT_TRUE(testing::FileExists(orig_cubin)) << orig_cubin << " missing: run make corpus";
    std::map<std::string, std::string> code_orig, code_new;
    std::string err;
    ASSERT_TRUE(CubinCode(orig_cubin, code_orig, err)) << err;
    ASSERT_TRUE(CubinCode(cubin, code_new, err)) << err;
    ASSERT_EQ(code_orig.size(), code_new.size()) << cf.Path();
    for (const auto &[sec, bytes] : code_orig) {
        auto it = code_new.find(sec);
        ASSERT_NE(it, code_new.end()) << sec << " missing after printing " << cf.Path();
        EXPECT_TRUE(it->second == bytes) << "SASS of " << sec << " differs after printing " << cf.Path();
    }
}

std::string CorpusName(const ::testing::TestParamInfo<CorpusFile> &info) { return info.param.arch + "_" + info.param.name; }

INSTANTIATE_TEST_SUITE_P(Corpus, CorpusTest, ::testing::ValuesIn(AllCorpusFiles()), CorpusName);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(CorpusTest);

// The corpus itself: every test/cuda/*.cu was built for every arch, there are at least 30, and
// every file documents its kernels.
TEST(CorpusShape, EveryKernelFileBuiltForEveryArch) {
    std::vector<std::string> cus = ListFiles("test/cuda", ".cu");
    ASSERT_GE(cus.size(), 30u) << "the corpus must have at least 30 kernels files";
    for (const std::string &cu : cus) {
        std::string src;
        ASSERT_TRUE(ReadFile("test/cuda/" + cu, src));
        EXPECT_EQ(src.rfind("// " + cu + " - ", 0), 0u) << cu << " must start with a header comment";
        EXPECT_NE(src.find("extern \"C\" __global__"), std::string::npos) << cu;
        std::string base = cu.substr(0, cu.size() - 3);
        for (const std::string &a : CorpusArchs()) {
            EXPECT_TRUE(testing::FileExists("build/corpus/" + a + "/" + base + ".ptx")) << a << "/" << base << ".ptx (make corpus)";
            EXPECT_TRUE(testing::FileExists("build/corpus/" + a + "/" + base + ".cubin")) << a << "/" << base << ".cubin (make corpus)";
        }
    }
}

// Each kernel named in a header comment exists as an unmangled .entry in the PTX.
TEST(CorpusShape, DocumentedKernelsAreUnmangledEntries) {
    for (const std::string &cu : ListFiles("test/cuda", ".cu")) {
        std::string src;
        ASSERT_TRUE(ReadFile("test/cuda/" + cu, src));
        std::string base = cu.substr(0, cu.size() - 3);
        std::string ptx;
        ASSERT_TRUE(ReadFile("build/corpus/sm_90/" + base + ".ptx", ptx)) << base;
        auto m = ParseModule(ptx, base);
        ASSERT_TRUE(m.ok()) << m.status().message();
        size_t pos = 0;
        int kernels = 0;
        const std::string key = "extern \"C\" __global__ void ";
        while ((pos = src.find(key, pos)) != std::string::npos) {
            pos += key.size();
            std::string name = src.substr(pos, src.find('(', pos) - pos);
            ++kernels;
            uint32_t fi = m->FindFunction(name);
            ASSERT_NE(fi, kNoId) << name << " missing from " << base << ".ptx";
            EXPECT_TRUE(m->functions[fi].is_entry) << name;
            EXPECT_NE(src.find("// " + name + "("), std::string::npos) << name << " is not documented in the header of " << cu;
        }
        EXPECT_GT(kernels, 0) << cu;
    }
}

// The corpus exercises the PTX features the consumers rely on (checked on the parsed IR).
TEST(CorpusShape, CoversRequiredFeatures) {
    std::set<Opcode> ops;
    std::set<std::string> features;
    for (const CorpusFile &cf : AllCorpusFiles()) {
        if (cf.arch != "sm_90") continue;
        std::string text;
        ASSERT_TRUE(ReadFile(cf.Path(), text));
        auto m = ParseModule(text, cf.Path());
        ASSERT_TRUE(m.ok()) << m.status().message();
        for (const Variable &g : m->globals) {
            if (g.space == StateSpace::SHARED && g.linkage == Linkage::EXTERN) features.insert("extern-shared");
            if (g.space == StateSpace::CONST && g.has_init) features.insert("const-init");
            if (g.space == StateSpace::GLOBAL && g.has_init) features.insert("global-init");
        }
        for (const Function &f : m->functions) {
            if (!f.is_entry && f.has_body) features.insert("func");
            for (const Variable &v : f.vars)
                if (v.space == StateSpace::LOCAL) features.insert("local-array");
            for (const Statement &st : f.body) {
                if (st.kind != StatementKind::INSTRUCTION) continue;
                const Instruction &in = st.inst;
                ops.insert(in.opcode);
                if (in.guard.present) features.insert(in.guard.negated ? "guard-neg" : "guard");
                if (in.mods.vec == VecWidth::V4) features.insert("v4");
                if (in.mods.vec == VecWidth::V2) features.insert("v2");
                if (in.mods.space == StateSpace::SHARED && in.opcode == Opcode::ATOM) features.insert("atom-shared");
                if (in.mods.atom_op == AtomOp::CAS) features.insert("cas");
                if (in.opcode == Opcode::ATOM && in.type == Type::F32) features.insert("atom-f32");
                if (in.opcode == Opcode::SETP && in.mods.bool_op != BoolOp::NONE) features.insert("setp-bool");
                for (const Operand &o : in.operands) {
                    if (o.kind == OperandKind::SREG) features.insert(std::string(SpecialRegName(o.sreg)));
                    if (o.kind == OperandKind::IMM && o.imm.kind == ImmKind::F32) features.insert("imm-f32");
                    if (o.kind == OperandKind::IMM && o.imm.kind == ImmKind::F64) features.insert("imm-f64");
                }
            }
        }
    }
    const Opcode required_ops[] = {Opcode::ADD, Opcode::MUL, Opcode::MAD, Opcode::FMA, Opcode::DIV, Opcode::REM,
                                   Opcode::SQRT, Opcode::EX2, Opcode::LG2, Opcode::RCP, Opcode::CVT, Opcode::CVTA,
                                   Opcode::LD, Opcode::ST, Opcode::ATOM, Opcode::RED, Opcode::BAR_SYNC, Opcode::BAR_RED,
                                   Opcode::BAR_WARP_SYNC, Opcode::MEMBAR, Opcode::FENCE, Opcode::SHFL, Opcode::VOTE,
                                   Opcode::MATCH, Opcode::ACTIVEMASK, Opcode::SETP, Opcode::SELP, Opcode::SET,
                                   Opcode::BRA, Opcode::CALL, Opcode::RET, Opcode::POPC, Opcode::CLZ, Opcode::BREV,
                                   Opcode::BFIND, Opcode::SHF, Opcode::BFE, Opcode::BFI, Opcode::PRMT, Opcode::MIN,
                                   Opcode::MAX, Opcode::ABS, Opcode::NEG, Opcode::TESTP, Opcode::COPYSIGN,
                                   Opcode::ADDC, Opcode::SUBC, Opcode::DP4A, Opcode::SAD, Opcode::MOV};
    for (Opcode op : required_ops) EXPECT_TRUE(ops.count(op)) << "corpus never uses " << OpcodeName(op);
    const char *required_features[] = {"extern-shared", "const-init", "global-init", "func", "local-array", "guard",
                                       "guard-neg", "v4", "v2", "atom-shared", "cas", "atom-f32", "setp-bool",
                                       "%tid.x", "%ntid.x", "%ctaid.x", "%nctaid.x", "%ctaid.y", "%ctaid.z",
                                       "%tid.y", "%tid.z", "%laneid", "%warpid", "%clock64", "%globaltimer",
                                       "%lanemask_lt", "imm-f32", "imm-f64"};
    for (const char *f : required_features) EXPECT_TRUE(features.count(f)) << "corpus lacks " << f;
}

}  // namespace
}  // namespace rndn::ptx

namespace rndn::ptx {
namespace {

// nvcc -lineinfo / -G output (.loc, .file, DWARF .section blocks, ".target ..., debug") parses,
// verifies, and its printed form (debug info dropped) is accepted by ptxas.
TEST(CorpusDebugInfo, LineinfoAndDebugBuildsParse) {
    const std::string nvcc = "/usr/local/cuda/bin/nvcc";
    if (!testing::FileExists(nvcc)) {
        std::printf("[  SKIPPED ] %s not found: debug-info variants not tested\n", nvcc.c_str());
        GTEST_SKIP() << "nvcc not installed";
    }
    testing::TempDir tmp;
    for (const char *name : {"warp_reduce", "device_func"}) {
        for (const char *flag : {"-lineinfo", "-G"}) {
            std::string out_ptx = tmp.path() + "/" + name + (flag[1] == 'G' ? "_G" : "_li") + ".ptx";
            std::string out;
            ASSERT_EQ(RunCommand(nvcc + " -ptx -arch=sm_80 " + flag + " test/cuda/" + name + ".cu -o '" + out_ptx + "'", &out), 0) << out;
            std::string text;
            ASSERT_TRUE(ReadFile(out_ptx, text));
            ASSERT_NE(text.find(".loc"), std::string::npos) << "expected line info in " << out_ptx;
            auto m = ParseModule(text, out_ptx);
            ASSERT_TRUE(m.ok()) << m.status().message();
            Status vs = Verify(*m);
            ASSERT_TRUE(vs.ok()) << vs.message();
            std::string printed = tmp.path() + "/printed.ptx";
            ASSERT_TRUE(testing::WriteFile(printed, Print(*m)));
            EXPECT_EQ(RunCommand(testing::Ptxas() + " -arch=sm_80 '" + printed + "' -o '" + printed + ".cubin'", &out), 0)
                << name << " " << flag << ":\n" << out;
        }
    }
}

// bin/rndn-ptx: check succeeds on a corpus file and fails with file:line:col on a broken one;
// print writes exactly Print(ParseModule(file)).
TEST(Tool, CheckAndPrint) {
    ASSERT_TRUE(testing::FileExists("bin/rndn-ptx")) << "bin/rndn-ptx not built";
    std::string out;
    EXPECT_EQ(RunCommand("bin/rndn-ptx check build/corpus/sm_86/saxpy.ptx build/corpus/sm_86/hash_table.ptx", &out), 0) << out;
    testing::TempDir tmp;
    std::string bad = tmp.path() + "/bad.ptx";
    ASSERT_TRUE(testing::WriteFile(bad, ".version 8.0\n.target sm_80\n.address_size 64\n.entry k()\n{\n  bra $nowhere;\n}\n"));
    EXPECT_EQ(RunCommand("bin/rndn-ptx check '" + bad + "'", &out), 1);
    EXPECT_NE(out.find(bad + ":6:7: undefined label '$nowhere'"), std::string::npos) << out;
    std::string text;
    ASSERT_TRUE(ReadFile("build/corpus/sm_86/saxpy.ptx", text));
    auto m = ParseModule(text, "saxpy.ptx");
    ASSERT_TRUE(m.ok());
    EXPECT_EQ(RunCommand("bin/rndn-ptx print build/corpus/sm_86/saxpy.ptx", &out), 0);
    EXPECT_EQ(out, Print(*m));
    EXPECT_EQ(RunCommand("bin/rndn-ptx frobnicate x", &out), 2);
}

}  // namespace
}  // namespace rndn::ptx

namespace rndn::ptx {
namespace {

// KernelParamLayout agrees with the parameter offsets and sizes ptxas records in each cubin
// (EIATTR_KPARAM_INFO in .nv.info.<kernel>, read with cuobjdump -elf).
TEST(CorpusParamLayout, MatchesPtxasKparamInfo) {
    std::string tool = testing::Cuobjdump();
    if (tool.empty()) {
        std::printf("[  SKIPPED ] cuobjdump not found (pip nvidia-cuda-cuobjdump): parameter layout not cross-checked\n");
        GTEST_SKIP() << "cuobjdump not found";
    }
    int kernels = 0, params = 0;
    for (const std::string &file : ListFiles("build/corpus/sm_80", ".ptx")) {
        std::string base = file.substr(0, file.size() - 4);
        std::string text, out;
        ASSERT_TRUE(ReadFile("build/corpus/sm_80/" + file, text));
        auto m = ParseModule(text, file);
        ASSERT_TRUE(m.ok()) << m.status().message();
        ASSERT_EQ(RunCommand("'" + tool + "' -elf build/corpus/sm_80/" + base + ".cubin", &out), 0) << out;
        // section name -> ordinal -> (offset, size)
        std::map<std::string, std::map<unsigned, std::pair<unsigned, unsigned>>> info;
        std::istringstream in(out);
        std::string line, section;
        while (std::getline(in, line)) {
            if (line.rfind(".nv.info.", 0) == 0) section = line.substr(9);
            size_t o = line.find("Ordinal : ");
            if (o == std::string::npos || section.empty()) continue;
            unsigned ord = std::stoul(line.substr(o + 10), nullptr, 16);
            unsigned off = std::stoul(line.substr(line.find("Offset  : ") + 10), nullptr, 16);
            unsigned size = std::stoul(line.substr(line.find("Size    : ") + 10), nullptr, 16);
            info[section][ord] = {off, size};
        }
        for (const Function &f : m->functions) {
            if (!f.is_entry || f.params.empty()) continue;
            ++kernels;
            ParamLayout l = KernelParamLayout(f);
            auto it = info.find(f.name);
            ASSERT_NE(it, info.end()) << "no KPARAM_INFO for " << f.name;
            ASSERT_EQ(it->second.size(), f.params.size()) << f.name;
            for (size_t i = 0; i < f.params.size(); ++i) {
                ++params;
                EXPECT_EQ(l.offsets[i], it->second[static_cast<unsigned>(i)].first) << f.name << " param " << i;
                EXPECT_EQ(l.sizes[i], it->second[static_cast<unsigned>(i)].second) << f.name << " param " << i;
            }
        }
    }
    EXPECT_GT(kernels, 100);
    std::printf("[  STATS   ] parameter layout checked for %d kernels, %d parameters\n", kernels, params);
}

}  // namespace
}  // namespace rndn::ptx
