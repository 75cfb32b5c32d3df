// Differential tests against NVIDIA's tools over the whole kernel corpus (build/corpus/sm_XX/).
//
// For every corpus cubin and every architecture:
//   * our cubin reader + decoder prints every instruction exactly as `nvdisasm -c -hex` does;
//   * our encoder, given nvdisasm's text and the control fields, rebuilds all 128 bits;
//   * rndn-dis's listing assembled back (Disassemble -> Assemble) gives byte-identical .text;
//   * read -> write of the cubin gives the same bytes, and so does LayOut (recomputed offsets);
//     files that differ are compared through nvdisasm and cuobjdump -elf.
// The coverage actually achieved is printed and asserted per architecture (regressions fail).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>

#include "assembler/assembler.h"
#include "assembler/nv_tools.h"

namespace fs = std::filesystem;
using namespace rndn::sass;
using namespace rndn::sass::nvtools;

namespace {

struct OracleInst {
    std::string text;
    Word word;
};
// (function name, address) -> nvdisasm's text and encoding.
std::map<std::pair<std::string, uint64_t>, OracleInst> Oracle(const std::string &nvdisasm, const std::string &cubin) {
    std::map<std::pair<std::string, uint64_t>, OracleInst> out;
    std::vector<std::string> lines = Lines(RunCmd(nvdisasm + " -c -hex '" + cubin + "' 2>&1"));
    std::string func;
    for (size_t i = 0; i < lines.size(); ++i) {
        const std::string &l = lines[i];
        if (l.rfind("//--------------------- .text.", 0) == 0) {
            func = l.substr(30, l.find(' ', 30) - 30);
            continue;
        }
        size_t a = l.find("/*");
        if (func.empty() || a == std::string::npos || l.size() < a + 8 || l[a + 6] != '*' || l[a + 7] != '/') continue;
        size_t c = l.find("/* 0x", a + 8);
        if (c == std::string::npos || i + 1 >= lines.size()) continue;
        std::string text = l.substr(a + 8, c - a - 8);
        while (!text.empty() && (text.back() == ' ' || text.back() == ';')) text.pop_back();
        size_t b = text.find_first_not_of(' ');
        OracleInst oi;
        oi.text = b == std::string::npos ? "" : text.substr(b);
        oi.word.lo = std::strtoull(l.substr(c + 3, 18).c_str(), nullptr, 16);
        size_t c2 = lines[i + 1].find("/* 0x");
        if (c2 == std::string::npos) continue;
        oi.word.hi = std::strtoull(lines[i + 1].substr(c2 + 3, 18).c_str(), nullptr, 16);
        out[{func, std::strtoull(l.substr(a + 2, 4).c_str(), nullptr, 16)}] = oi;
    }
    return out;
}

// Coverage floors (percent) actually achieved on the 37-file corpus with the committed tables,
// measured 2026-11-23: every arch is at 100% (decode, encode and listing -> asm .text), so any
// miss fails.  Lower an arch's row only with the reason in the tables' hand-correction notes.
struct Floors {
    double decode, encode, listing_text;
};
Floors FloorsFor(Arch arch) {
    switch (arch) {
        case Arch::SM_75: return {100.0, 100.0, 100.0};
        case Arch::SM_80: return {100.0, 100.0, 100.0};
        case Arch::SM_86: return {100.0, 100.0, 100.0};
        case Arch::SM_89: return {100.0, 100.0, 100.0};
        case Arch::SM_90: return {100.0, 100.0, 100.0};
        case Arch::SM_100: return {100.0, 100.0, 100.0};
        case Arch::SM_120: return {100.0, 100.0, 100.0};
    }
    return {100.0, 100.0, 100.0};
}

// Known encoder misses, listed one by one (arch, file, function+offset) so that any other miss
// fails.  Empty: the sm_100 misses listed before (URZ written as 0x3f into uniform register
// fields that are 8 bits wide there) went with the 8-bit fields (ArchInfo::ur_zero).
const std::set<std::string> kKnownEncodeMisses = {};

class CorpusTest : public ::testing::TestWithParam<Arch> {};

TEST_P(CorpusTest, MatchesNvdisasmAndRoundTrips) {
    Arch arch = GetParam();
    std::string nvdisasm = ToolPath("nvdisasm"), cuobjdump = ToolPath("cuobjdump");
    if (nvdisasm.empty() || cuobjdump.empty()) {
        std::printf("SKIPPED: nvdisasm/cuobjdump not found (.venv nvidia-cuda-nvdisasm or PATH)\n");
        GTEST_SKIP() << "nvdisasm/cuobjdump not found";
    }
    std::vector<std::string> cubins = CorpusCubins(GetArchInfo(arch).name);
    ASSERT_GE(cubins.size(), 30u) << "corpus missing in build/corpus (make corpus)";

    long total = 0, decoded = 0, printed_ok = 0, encoded_ok = 0, text_sections = 0, text_identical = 0;
    long known_misses = 0, known_files = 0;
    long layout_checked = 0, files_identical = 0, layout_identical = 0, layout_equivalent = 0, listing_identical = 0;
    int shown = 0;
    for (const std::string &path : cubins) {
        std::vector<uint8_t> bytes = ReadFile(path);
        auto elf = ReadCubin(bytes);
        ASSERT_TRUE(elf.ok()) << path << ": " << elf.status().message();
        ASSERT_EQ(*elf->GetArch(), arch) << path;
        auto oracle = Oracle(nvdisasm, path);
        ASSERT_FALSE(oracle.empty()) << "nvdisasm printed no instructions for " << path;
        auto fns = DecodeCubin(*elf);
        ASSERT_TRUE(fns.ok()) << fns.status().message();
        const Isa *isa = *Isa::Get(arch);
        long file_insts = 0;
        bool file_known_miss = false;
        for (const DecodedFunction &fn : *fns) {
            std::optional<int64_t> desc;  // hidden operands come from the function's preceding text
            for (const DecodedInstruction &d : fn.insts) {
                auto it = oracle.find({fn.name, d.address});
                ASSERT_NE(it, oracle.end()) << path << " " << fn.name << " " << d.address;
                ASSERT_EQ(it->second.word, d.word) << "reader disagrees with nvdisasm on the encoding";
                ++total;
                ++file_insts;
                decoded += d.ok;
                if (d.ok && d.text == it->second.text) ++printed_ok;
                else if (shown++ < 12)
                    std::printf("  decode mismatch %s %s+0x%04llx: ours '%s' nvdisasm '%s' %s\n", path.c_str(),
                                fn.name.c_str(), static_cast<unsigned long long>(d.address), d.text.c_str(),
                                it->second.text.c_str(), d.error.c_str());
                // Encoder: from nvdisasm's own text plus the control fields.
                auto inst = isa->Parse(it->second.text, [&](const std::string &) -> rndn::Expected<int64_t> {
                    // Labels: the decoded target of the same instruction (names are nvdisasm's).
                    for (size_t k = 0; d.ok && k < isa->forms()[d.inst.form].fields.size(); ++k)
                        if (isa->forms()[d.inst.form].fields[k].kind == HoleKind::LABEL) return d.inst.values[k];
                    return rndn::Status::Unsupported("label");
                });
                if (inst.ok()) {
                    isa->TrackImplicit(&*inst, &desc);
                    inst->control = UnpackControl(d.word);
                    auto w = isa->Encode(*inst, d.address);
                    char key[256];
                    std::snprintf(key, sizeof key, "%s %s %s+0x%04llx", GetArchInfo(arch).name,
                                  path.substr(path.rfind('/') + 1).c_str(), fn.name.c_str(),
                                  static_cast<unsigned long long>(d.address));
                    if (w.ok() && *w == d.word) ++encoded_ok;
                    else if (kKnownEncodeMisses.count(key)) ++known_misses, file_known_miss = true;
                    else if (shown++ < 12)
                        std::printf("  encode mismatch %s %s+0x%04llx '%s': %s\n", path.c_str(), fn.name.c_str(),
                                    static_cast<unsigned long long>(d.address), it->second.text.c_str(),
                                    w.ok() ? "bits differ" : w.status().message().c_str());
                }
            }
        }
        ASSERT_EQ(file_insts, static_cast<long>(oracle.size())) << "instruction count differs from nvdisasm";

        // read -> write
        auto out = WriteCubin(*elf);
        ASSERT_TRUE(out.ok());
        files_identical += *out == bytes;
        ElfFile relaid = *elf;
        LayOut(&relaid);
        auto out2 = WriteCubin(relaid);
        ASSERT_TRUE(out2.ok());
        bool same_layout = *out2 == bytes;
        layout_identical += same_layout;
        if (!same_layout && layout_checked++ < 3) {  // nvdisasm runs are slow: check a sample
            // ptxas leaves gaps LayOut does not reproduce; the relaid file must still be described
            // identically by nvdisasm (which prints no file offsets).
            std::string tmp = (fs::temp_directory_path() / "rndn_asm_layout.cubin").string();
            std::ofstream(tmp, std::ios::binary).write(reinterpret_cast<const char *>(out2->data()), out2->size());
            bool same = RunCmd(nvdisasm + " '" + path + "' 2>&1") == RunCmd(nvdisasm + " " + tmp + " 2>&1");
            EXPECT_TRUE(same) << "LayOut changed what nvdisasm sees for " << path;
            layout_equivalent += same;
        }

        // rndn-dis listing -> rndn-asm
        auto listing = Disassemble(*elf);
        ASSERT_TRUE(listing.ok()) << listing.status().message();
        auto rebuilt = Assemble(*listing);
        ASSERT_TRUE(rebuilt.ok()) << path << ": " << rebuilt.status().message();
        for (size_t i = 0; i < elf->sections.size(); ++i) {
            if (elf->sections[i].name.rfind(".text.", 0) != 0) continue;
            if (file_known_miss) continue;  // a listed encoder miss: the rebuilt .text differs there
            ++text_sections;
            text_identical += rebuilt->sections[i].data == elf->sections[i].data;
        }
        auto rebuilt_bytes = WriteCubin(*rebuilt);
        ASSERT_TRUE(rebuilt_bytes.ok());
        if (file_known_miss) ++known_files;
        else listing_identical += *rebuilt_bytes == bytes;
    }
    auto pct = [](long a, long b) { return b ? 100.0 * static_cast<double>(a) / static_cast<double>(b) : 0.0; };
    std::printf("[%s] %zu cubins, %ld instructions: decoded %.2f%%, printed exactly as nvdisasm %.2f%% (%ld), "
                "encoded bit-exact from nvdisasm text %.2f%% (%ld)\n",
                GetArchInfo(arch).name, cubins.size(), total, pct(decoded, total), pct(printed_ok, total), printed_ok,
                pct(encoded_ok, total), encoded_ok);
    std::printf("[%s] read->write identical files %ld/%zu, LayOut identical %ld/%zu (+%ld same nvdisasm output), "
                "listing->asm identical .text %ld/%ld, identical files %ld/%zu\n",
                GetArchInfo(arch).name, files_identical, cubins.size(), layout_identical, cubins.size(),
                layout_equivalent, text_identical,
                text_sections, listing_identical, cubins.size());
    Floors fl = FloorsFor(arch);
    EXPECT_GE(pct(printed_ok, total), fl.decode);
    if (known_misses) std::printf("[%s] %ld listed known encoder misses (kKnownEncodeMisses) in %ld files\n", GetArchInfo(arch).name, known_misses, known_files);
    EXPECT_GE(pct(encoded_ok + known_misses, total), fl.encode);
    EXPECT_GE(pct(text_identical, text_sections), fl.listing_text);
    EXPECT_EQ(files_identical, static_cast<long>(cubins.size()));
    EXPECT_EQ(listing_identical + known_files, static_cast<long>(cubins.size()));
}

// A hidden operand that is not the one the function's ULDC implies (no ptxas output has one)
// survives rndn-dis -> rndn-asm: the listing writes that word raw.
TEST(CorpusListing, UnimpliedHiddenOperandRoundTrips) {
    const std::string path = "build/corpus/sm_86/atomic_minmax.cubin";
    if (!fs::exists(path)) GTEST_SKIP() << "corpus missing (make corpus)";
    auto elf = ReadCubin(ReadFile(path));
    ASSERT_TRUE(elf.ok()) << elf.status().message();
    auto fns = DecodeCubin(*elf);
    ASSERT_TRUE(fns.ok()) << fns.status().message();
    const Isa *isa = *Isa::Get(Arch::SM_86);
    int changed = 0;
    for (const DecodedFunction &fn : *fns)
        for (const DecodedInstruction &d : fn.insts) {
            if (!d.ok || !d.inst.implicit) continue;
            Instruction other = d.inst;
            other.implicit = (*d.inst.implicit + 2) % 64;
            auto w = isa->Encode(other, d.address);
            ASSERT_TRUE(w.ok()) << w.status().message();
            std::memcpy(elf->sections[fn.section].data.data() + d.address, &w->lo, 8);
            std::memcpy(elf->sections[fn.section].data.data() + d.address + 8, &w->hi, 8);
            ++changed;
        }
    ASSERT_GT(changed, 0);
    auto listing = Disassemble(*elf);
    ASSERT_TRUE(listing.ok()) << listing.status().message();
    EXPECT_NE(listing->find("is not the one the function's text implies"), std::string::npos);
    auto rebuilt = Assemble(*listing);
    ASSERT_TRUE(rebuilt.ok()) << rebuilt.status().message();
    for (size_t i = 0; i < elf->sections.size(); ++i)
        EXPECT_EQ(rebuilt->sections[i].data, elf->sections[i].data) << elf->sections[i].name;
}

INSTANTIATE_TEST_SUITE_P(AllArchs, CorpusTest, ::testing::ValuesIn(kAllArchs),
                         [](const ::testing::TestParamInfo<Arch> &i) { return std::string(GetArchInfo(i.param).name); });

}  // namespace
