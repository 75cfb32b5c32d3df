// Held-out check: kernels the table generator never reads (test/isa/heldout/*.cu, built by
// mk/assembler.mk into build/isa_heldout/sm_XX/) compiled by ptxas; the share of their
// instructions our decoder prints exactly as nvdisasm does and our encoder rebuilds bit-exact
// from nvdisasm's text, per architecture.  An instruction the tables cannot encode is an error
// (counted as a miss), never a guess.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "assembler/assembler.h"
#include "assembler/nv_tools.h"

namespace fs = std::filesystem;
using namespace rndn::sass;
using namespace rndn::sass::nvtools;

namespace {

// No coverage floor is asserted: the shares are reported (test output and the README) and depend
// on how far these kernels stray from the corpus.  What is asserted is the rule "an instruction
// the tables cannot handle is an error, never a guess": every decode that succeeds prints
// nvdisasm's text, every encode that succeeds gives ptxas's bits.

// Known wrong decodes (open, listed so that any other one fails): nvdisasm prints a register
// operand that is RZ by omitting it ("STS [UR4], R0"); the sm_90 corpus has only the form with the
// register, so our decoder prints "STS [RZ+UR4], R0".  Needs the alias learned from a probe.
const std::set<std::string> kKnownWrongDecodes = {"sm_90 STS [UR4], R0", "sm_100 STS [UR4], R0",
                                                   "sm_120 STS [UR4], R0"};

// The held-out kernels came in two sets, each measured and reported on its own: set 1 was written
// with the first tables (2026-11), set 2 before the generator learned to compose forms across
// opcodes and modifier counts (issue 15), so that its figures judge rules not tuned on it.
const std::set<std::string> kFirstSet = {"int_hash", "stencil", "warp_scan"};

class HeldOutTest : public ::testing::TestWithParam<Arch> {};

TEST_P(HeldOutTest, DecodeAndEncodeKernelsTheGeneratorNeverSaw) {
    const Arch arch = GetParam();
    const std::string name = GetArchInfo(arch).name;
    std::string nvdisasm = ToolPath("nvdisasm");
    if (nvdisasm.empty()) {
        std::printf("SKIPPED: nvdisasm not found (.venv nvidia-cuda-nvdisasm or PATH)\n");
        GTEST_SKIP() << "nvdisasm not found";
    }
    std::vector<std::string> cubins;
    std::string dir = "build/isa_heldout/" + name;
    if (fs::exists(dir))
        for (const auto &e : fs::directory_iterator(dir))
            if (e.path().extension() == ".cubin") cubins.push_back(e.path().string());
    std::sort(cubins.begin(), cubins.end());
    ASSERT_GE(cubins.size(), 3u) << "held-out kernels missing in " << dir << " (mk/assembler.mk)";
    const Isa *isa = *Isa::Get(arch);
    long total = 0, printed = 0, encoded = 0, wrong_print = 0, wrong_bits = 0;
    std::map<std::string, int> misses;  // nvdisasm text (registers kept) -> count
    struct Share {
        long total = 0, printed = 0, encoded = 0;
        std::map<std::string, int> misses;
    };
    std::map<int, Share> sets;  // 1, 2: the kernel sets above
    for (const std::string &path : cubins) {
        Share &set = sets[kFirstSet.count(fs::path(path).stem().string()) ? 1 : 2];
        auto elf = ReadCubin(ReadFile(path));
        ASSERT_TRUE(elf.ok()) << elf.status().message();
        auto fns = DecodeCubin(*elf);
        ASSERT_TRUE(fns.ok()) << fns.status().message();
        // nvdisasm's text per (function, address)
        std::map<std::pair<std::string, uint64_t>, std::string> oracle;
        std::string fn;
        for (const std::string &l : Lines(RunCmd(nvdisasm + " -c '" + path + "' 2>&1"))) {
            if (l.rfind("//--------------------- .text.", 0) == 0) {
                fn = l.substr(30, l.find(' ', 30) - 30);
                continue;
            }
            size_t a = l.find("/*");
            if (fn.empty() || a == std::string::npos || l.size() < a + 8 || l[a + 6] != '*' || l[a + 7] != '/') continue;
            std::string text = l.substr(a + 8);
            size_t semi = text.rfind(';');
            if (semi != std::string::npos) text = text.substr(0, semi);
            while (!text.empty() && text.back() == ' ') text.pop_back();
            size_t b = text.find_first_not_of(' ');
            oracle[{fn, std::strtoull(l.substr(a + 2, 4).c_str(), nullptr, 16)}] = b == std::string::npos ? "" : text.substr(b);
        }
        for (const DecodedFunction &f : *fns) {
            std::optional<int64_t> desc;
            for (const DecodedInstruction &d : f.insts) {
                auto it = oracle.find({f.name, d.address});
                ASSERT_NE(it, oracle.end()) << path << " " << f.name << "+" << d.address;
                ++total;
                bool print_ok = d.ok && d.text == it->second;
                printed += print_ok;
                if (d.ok && !print_ok && kKnownWrongDecodes.count(name + " " + it->second)) {
                    std::printf("    known wrong decode (open): ours '%s', nvdisasm '%s'\n", d.text.c_str(), it->second.c_str());
                } else if (d.ok && !print_ok) {
                    ++wrong_print;
                    ADD_FAILURE() << path << " " << f.name << "+" << d.address << ": decoded as '" << d.text
                                  << "', nvdisasm prints '" << it->second << "'";
                }
                auto inst = isa->Parse(it->second, [&](const std::string &) -> rndn::Expected<int64_t> {
                    for (size_t k = 0; d.ok && k < isa->forms()[d.inst.form].fields.size(); ++k)
                        if (isa->forms()[d.inst.form].fields[k].kind == HoleKind::LABEL) return d.inst.values[k];
                    return rndn::Status::Unsupported("label");
                });
                bool enc_ok = false;
                if (inst.ok()) {
                    isa->TrackImplicit(&*inst, &desc);
                    inst->control = UnpackControl(d.word);
                    auto w = isa->Encode(*inst, d.address);
                    enc_ok = w.ok() && *w == d.word;
                    if (w.ok() && !enc_ok) {
                        ++wrong_bits;
                        ADD_FAILURE() << path << " " << f.name << "+" << d.address << ": '" << it->second
                                      << "' encoded with other bits than ptxas's";
                    }
                }
                encoded += enc_ok;
                ++set.total, set.printed += print_ok, set.encoded += enc_ok;
                if (!print_ok || !enc_ok) {
                    std::string miss = it->second + (print_ok ? "" : " [decode]") + (enc_ok ? "" : " [encode]");
                    ++misses[miss];
                    ++set.misses[miss];
                }
            }
        }
    }
    auto pct = [](long a, long b) { return b ? 100.0 * static_cast<double>(a) / static_cast<double>(b) : 0.0; };
    std::printf("[%s] held-out: %zu cubins, %ld instructions: printed exactly as nvdisasm %.2f%% (%ld), encoded "
                "bit-exact %.2f%% (%ld)\n",
                name.c_str(), cubins.size(), total, pct(printed, total), printed, pct(encoded, total), encoded);
    for (const auto &[id, set] : sets) {
        std::printf("[%s] held-out set %d: %ld instructions: printed %.2f%% (%ld), encoded %.2f%% (%ld)\n", name.c_str(), id,
                    set.total, pct(set.printed, set.total), set.printed, pct(set.encoded, set.total), set.encoded);
        for (const auto &[text, n] : set.misses) std::printf("    set %d miss x%d: %s\n", id, n, text.c_str());
    }
    EXPECT_EQ(wrong_print, 0) << name;
    EXPECT_EQ(wrong_bits, 0) << name;
    EXPECT_GT(printed, 0) << name;
}

INSTANTIATE_TEST_SUITE_P(AllArchs, HeldOutTest, ::testing::ValuesIn(kAllArchs),
                         [](const ::testing::TestParamInfo<Arch> &i) { return std::string(GetArchInfo(i.param).name); });

}  // namespace
