// .nv.info parity (issue 15, verification "its .nv.info attributes are the same set that ptxas
// writes for the same PTX"): for every kernel our compiler compiles (corpus build/corpus/<arch>/
// and src/codegen's TPC-H kernels build/isa_probe/<arch>/tpch_q*.ptx, discovered at run time),
// for every architecture, the EIATTR kinds of the kernel's entries in .nv.info and of its
// .nv.info.<kernel> section equal the kinds ptxas -O3 writes for the same PTX, and the values
// that describe the kernel's interface agree (parameter layout, parameter bank and size, API
// version, register limit, launch bounds, stack sizes, barriers, workaround flags).  Values that
// follow from the code (register count, instruction offsets) are checked against the code
// instead: EXIT_INSTR_OFFSETS lists exactly the EXIT instructions of the kernel's .text, in our
// cubin and in ptxas's.  A kernel whose attributes differ fails unless kKnownMismatch names it,
// and a listed kernel that matches fails too (the list is checked both ways).
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>

#include "assembler/nv_tools.h"
#include "common/corpus_util.h"
#include "ptx/ptx.h"
#include "sasscomp/sasscomp.h"

namespace rndn::sasscomp {
namespace {

const std::vector<std::string> kArchs = {"sm_75", "sm_80", "sm_86", "sm_89", "sm_90"};

// "arch/file/kernel" whose attribute mismatch is understood but not fixed (reason per entry).
// One difference is a rule instead of a list: ptxas declares CRS_STACK_SIZE for code with BSSY
// convergence regions, and so do we, but the two compilers do not open regions in the same
// kernels (ptxas predicates many short branches that we keep, and keeps some it could predicate):
// where exactly one of the two codes has regions and the attribute is the only difference, the
// kernel is counted and printed, not failed.  Likewise where ptxas's code calls a device function
// (CALL.REL: it declares the call-return stack) and ours has the callee inlined.
const std::set<std::string> kKnownMismatch = {
    // FRAME_SIZE / MIN_STACK_SIZE 0x40 against ptxas's 0: ptxas -O3 removes this kernel's 64-byte .local
    // table (its entries are x + i*i, computed instead of loaded); we keep it in the stack frame
    "sm_75/local_array/local_lookup", "sm_80/local_array/local_lookup", "sm_86/local_array/local_lookup",
    "sm_89/local_array/local_lookup", "sm_90/local_array/local_lookup",
};

// EIATTR ids (facts read from cuobjdump -elf on ptxas's cubins); names for messages only.
const std::map<int, const char *> kNames = {
    {0x04, "CTAIDZ_USED"},         {0x05, "MAX_THREADS"},         {0x0a, "PARAM_CBANK"},
    {0x10, "REQNTID"},             {0x11, "FRAME_SIZE"},          {0x12, "MIN_STACK_SIZE"},
    {0x17, "KPARAM_INFO"},         {0x19, "CBANK_PARAM_SIZE"},    {0x1b, "MAXREG_COUNT"},
    {0x1c, "EXIT_INSTR_OFFSETS"},  {0x1e, "CRS_STACK_SIZE"},      {0x2f, "REGCOUNT"},
    {0x36, "SW_WAR"},              {0x37, "CUDA_API_VERSION"},    {0x4c, "NUM_BARRIERS"},
    {0x28, "COOP_GROUP_INSTR_OFFSETS"}, {0x29, "COOP_GROUP_MASK_REGIDS"}, {0x31, "INT_WARP_WIDE_INSTR_OFFSETS"},
};
std::string Name(int id) {
    auto it = kNames.find(id);
    char buf[32];
    std::snprintf(buf, sizeof buf, "0x%02x", id);
    return it == kNames.end() ? std::string(buf) : std::string(it->second) + "(" + buf + ")";
}

// Attributes whose value follows from the generated code: kinds compared, values not (offsets
// of instructions, register and call-return-stack usage); EXIT offsets are checked against .text.
// (0x28/0x29: offsets of the warp collectives and one mask per collective, as many as the code has)
const std::set<int> kCodeDependent = {0x1c, 0x1e, 0x28, 0x29, 0x2f};
constexpr int kParamCbank = 0x0a, kExitOffsets = 0x1c;

struct Attr {
    int fmt = 0, id = 0;
    std::vector<uint8_t> payload;  // SVAL: the bytes; HVAL/BVAL: the value (2 bytes); NVAL: none
};

// The attribute list of a .nv.info section (format byte, id byte, then per format: NVAL two
// zero bytes, BVAL one byte + pad, HVAL a 16-bit value, SVAL a 16-bit length and the bytes).
Expected<std::vector<Attr>> ParseAttrs(const std::vector<uint8_t> &d) {
    std::vector<Attr> out;
    for (size_t i = 0; i < d.size();) {
        if (i + 4 > d.size()) return Status::Internal("truncated attribute at " + std::to_string(i));
        Attr a;
        a.fmt = d[i], a.id = d[i + 1];
        size_t next = i + 4;
        if (a.fmt == 0x04) {
            size_t len = d[i + 2] | d[i + 3] << 8;
            if (i + 4 + len > d.size()) return Status::Internal("attribute " + Name(a.id) + " past the section's end");
            a.payload.assign(d.begin() + (long)i + 4, d.begin() + (long)(i + 4 + len));
            next = i + 4 + len;
        } else if (a.fmt == 0x01 || a.fmt == 0x02 || a.fmt == 0x03) {
            if (a.fmt != 0x01) a.payload = {d[i + 2], d[i + 3]};
        } else {
            return Status::Internal("unknown attribute format " + std::to_string(a.fmt));
        }
        out.push_back(std::move(a));
        i = next;
    }
    return out;
}

uint32_t U32(const std::vector<uint8_t> &p, size_t at) {
    uint32_t v = 0;
    if (at + 4 <= p.size()) std::memcpy(&v, &p[at], 4);
    return v;
}

// One kernel's attributes in one cubin: its entries of .nv.info (first word = its symbol), its
// .nv.info.<kernel> list, the symbol names (for PARAM_CBANK's section symbol) and its EXITs.
struct KernelInfo {
    std::vector<Attr> global, local;
    std::vector<std::string> sym_names;
    std::vector<uint32_t> exits;  // byte offsets of EXIT instructions, decoded
    bool convergence = false;     // the code has BSSY convergence regions
    bool calls = false;           // the code calls device functions (CALL)
};

Expected<KernelInfo> ReadKernelInfo(const std::vector<uint8_t> &bytes, const std::string &kernel) {
    auto elf = sass::ReadCubin(bytes);
    if (!elf.ok()) return elf.status();
    auto syms = sass::ReadSymbols(*elf);
    if (!syms.ok()) return syms.status();
    KernelInfo k;
    uint32_t sym = UINT32_MAX;
    for (size_t i = 0; i < syms->size(); ++i) {
        k.sym_names.push_back((*syms)[i].name);
        if ((*syms)[i].name == kernel) sym = (uint32_t)i;
    }
    if (sym == UINT32_MAX) return Status::Internal("no symbol " + kernel);
    int g = elf->Find(".nv.info"), l = elf->Find(".nv.info." + kernel);
    if (g < 0 || l < 0) return Status::Internal("no .nv.info or .nv.info." + kernel);
    auto ga = ParseAttrs(elf->sections[g].data);
    if (!ga.ok()) return ga.status();
    for (Attr &a : *ga)
        if (a.fmt == 0x04 && U32(a.payload, 0) == sym) k.global.push_back(std::move(a));
    auto la = ParseAttrs(elf->sections[l].data);
    if (!la.ok()) return la.status();
    k.local = std::move(*la);
    auto fns = sass::DecodeCubin(*elf);
    if (!fns.ok()) return fns.status();
    for (const auto &f : *fns)
        if (f.name == kernel)
            for (const auto &in : f.insts) {
                if (in.ok && (in.text == "EXIT" || in.text.find(" EXIT") != std::string::npos)) k.exits.push_back((uint32_t)in.address);
                if (in.ok && in.text.find("BSSY") != std::string::npos) k.convergence = true;
                if (in.ok && in.text.find("CALL.") != std::string::npos) k.calls = true;
            }
    return k;
}

// The comparable value of an attribute: the payload with symbol indices replaced by names
// (.nv.info entries start with the kernel's symbol; PARAM_CBANK with .nv.constant0.<k>'s).
std::string Value(const Attr &a, const KernelInfo &k, bool global) {
    std::ostringstream s;
    size_t from = 0;
    if (global || a.id == kParamCbank) {
        uint32_t sym = U32(a.payload, 0);
        s << "sym " << (sym < k.sym_names.size() ? k.sym_names[sym] : "?") << ";";
        from = 4;
    }
    for (size_t i = from; i < a.payload.size(); ++i) {
        char b[4];
        std::snprintf(b, sizeof b, "%02x", a.payload[i]);
        s << b;
    }
    return s.str();
}

// Differences between ours and ptxas's attributes of one list ("" when none).
std::string Compare(const std::vector<Attr> &ours, const KernelInfo &ko, const std::vector<Attr> &theirs, const KernelInfo &kt,
                    bool global) {
    std::ostringstream d;
    std::map<int, std::multiset<std::string>> vo, vt;
    for (const Attr &a : ours) vo[a.id].insert(kCodeDependent.count(a.id) ? "" : Value(a, ko, global));
    for (const Attr &a : theirs) vt[a.id].insert(kCodeDependent.count(a.id) ? "" : Value(a, kt, global));
    for (auto &[id, vals] : vt)
        if (!vo.count(id)) d << " missing " << Name(id);
    for (auto &[id, vals] : vo)
        if (!vt.count(id)) d << " extra " << Name(id);
    for (auto &[id, vals] : vt) {
        auto it = vo.find(id);
        if (it == vo.end() || it->second == vals) continue;
        d << " " << Name(id) << ": ours {";
        for (const auto &v : it->second) d << v << " ";
        d << "} ptxas {";
        for (const auto &v : vals) d << v << " ";
        d << "}";
    }
    return d.str();
}

// EXIT_INSTR_OFFSETS lists the .text's EXIT instructions (empty string when it does).
std::string CheckExits(const KernelInfo &k) {
    std::vector<uint32_t> listed;
    for (const Attr &a : k.local)
        if (a.id == kExitOffsets)
            for (size_t i = 0; i + 4 <= a.payload.size(); i += 4) listed.push_back(U32(a.payload, i));
    std::sort(listed.begin(), listed.end());
    std::vector<uint32_t> exits = k.exits;
    std::sort(exits.begin(), exits.end());
    if (listed == exits) return "";
    std::ostringstream s;
    s << " EXIT_INSTR_OFFSETS lists " << listed.size() << " offsets, the code has " << exits.size() << " EXITs";
    return s.str();
}

struct Source {
    std::string name, path;  // "saxpy", build/corpus/sm_80/saxpy.ptx
};

std::vector<Source> Sources(const std::string &arch) {
    std::vector<Source> out;
    for (const std::string &dir : {"build/corpus/" + arch, "build/isa_probe/" + arch}) {
        if (!std::filesystem::exists(dir)) continue;
        for (const auto &e : std::filesystem::directory_iterator(dir)) {
            std::string stem = e.path().stem().string();
            bool corpus = dir.find("corpus") != std::string::npos;
            if (e.path().extension() == ".ptx" && (corpus || stem.rfind("tpch_q", 0) == 0)) out.push_back({stem, e.path().string()});
        }
    }
    std::sort(out.begin(), out.end(), [](const Source &a, const Source &b) { return a.path < b.path; });
    return out;
}

class NvInfoParity : public ::testing::TestWithParam<std::string> {};

TEST_P(NvInfoParity, AttributesMatchPtxas) {
    std::string arch = GetParam();
    auto a = sass::ParseArch(arch);
    ASSERT_TRUE(a.ok());
    std::string ptxas = "/usr/local/cuda/bin/ptxas";
    ASSERT_TRUE(std::filesystem::exists(ptxas)) << "ptxas not found (make deps)";
    std::vector<Source> sources = Sources(arch);
    ASSERT_GT(sources.size(), 30u) << "corpus missing (make corpus)";
    std::string tmp = "build/test/nvinfo_" + arch + ".cubin";
    int compared = 0, matched = 0, other_regions = 0, no_aggregation = 0, inlined = 0;
    std::set<std::string> mismatched;
    for (const Source &src : sources) {
        auto m = ptx::ParseModule(rndn::testing::ReadText(src.path), src.path);
        if (!m.ok()) continue;
        std::vector<uint8_t> theirs;  // ptxas's cubin of the whole file, made on first use
        for (const ptx::Function &fn : m->functions) {
            if (!fn.is_entry || !fn.has_body) continue;
            auto ks = CompileModule(*m, *a, fn.name);
            if (!ks.ok()) continue;
            auto ours = BuildCubin(*ks, *a);
            ASSERT_TRUE(ours.ok()) << fn.name << ": " << ours.status().ToString();
            if (theirs.empty()) {
                auto r = sass::nvtools::Shell(ptxas + " -O3 -arch=" + arch + " " + src.path + " -o " + tmp + " 2>&1");
                ASSERT_EQ(r.status, 0) << src.path << ": " << r.out;
                theirs = sass::nvtools::ReadFile(tmp);
            }
            std::string key = arch + "/" + src.name + "/" + fn.name;
            auto ko = ReadKernelInfo(*ours, fn.name);
            ASSERT_TRUE(ko.ok()) << key << " (ours): " << ko.status().ToString();
            auto kt = ReadKernelInfo(theirs, fn.name);
            ASSERT_TRUE(kt.ok()) << key << " (ptxas): " << kt.status().ToString();
            // the judge's own cubin satisfies the EXIT rule (checks the rule, not only us)
            EXPECT_EQ(CheckExits(*kt), "") << key << " (ptxas)";
            std::string diff;
            if (std::string g = Compare(ko->global, *ko, kt->global, *kt, true); !g.empty()) diff += " .nv.info:" + g;
            if (std::string l = Compare(ko->local, *ko, kt->local, *kt, false); !l.empty()) diff += " .nv.info." + fn.name + ":" + l;
            diff += CheckExits(*ko);
            ++compared;
            // INT_WARP_WIDE_INSTR_OFFSETS lists the warp-wide instructions (VOTEU, REDUX, FLO, ...)
            // of ptxas's warp-aggregated atomics; ours issue one atomic per thread and have none
            if (diff == " .nv.info." + fn.name + ": missing INT_WARP_WIDE_INSTR_OFFSETS(0x31)") {
                ++no_aggregation;
                continue;
            }
            const std::string crs_only = " .nv.info." + fn.name + ": missing CRS_STACK_SIZE(0x1e)";
            const std::string crs_extra = " .nv.info." + fn.name + ": extra CRS_STACK_SIZE(0x1e)";
            if ((diff == crs_only && kt->convergence && !ko->convergence) || (diff == crs_extra && ko->convergence && !kt->convergence)) {
                ++other_regions;
                continue;
            }
            // ptxas keeps these device-function calls (CALL.REL) and declares their call-return
            // stack; ours are inlined and need none
            if (diff == crs_only && kt->calls && !ko->calls) {
                ++inlined;
                continue;
            }
            if (diff.empty()) {
                ++matched;
                EXPECT_FALSE(kKnownMismatch.count(key)) << key << " now matches ptxas: remove it from kKnownMismatch";
            } else {
                mismatched.insert(key);
                EXPECT_TRUE(kKnownMismatch.count(key)) << key << ":" << diff;
            }
        }
    }
    std::remove(tmp.c_str());
    std::printf("[nvinfo] %s: %d of %d compiled kernels have ptxas's .nv.info attributes; %d more differ only in the "
                "CRS_STACK_SIZE of convergence regions that one compiler opens and the other does not; %d lack only "
                "INT_WARP_WIDE_INSTR_OFFSETS (ptxas aggregates their atomics across the warp); %d lack only the "
                "CRS_STACK_SIZE of ptxas's calls (ours are inlined)\n",
                arch.c_str(), matched, compared, other_regions, no_aggregation, inlined);
    EXPECT_GT(compared, 0) << "no kernel compiled for " << arch;
    for (const std::string &k : kKnownMismatch)
        if (k.rfind(arch + "/", 0) == 0 && !mismatched.count(k))
            ADD_FAILURE() << k << " is listed in kKnownMismatch but was not compared as a mismatch (matches or no longer compiles)";
}

INSTANTIATE_TEST_SUITE_P(Archs, NvInfoParity, ::testing::ValuesIn(kArchs.begin(), kArchs.end()), [](const auto &i) { return i.param; });

// The parser and the comparison on hand-made lists: a missing kind, a differing parameter size
// and an EXIT list that disagrees with the code are each reported.
TEST(NvInfoParity, ComparisonReportsDifferences) {
    std::vector<uint8_t> list = {0x04, 0x37, 4, 0, 0x82, 0, 0, 0, 0x03, 0x19, 0x18, 0x00, 0x01, 0x35, 0, 0};
    auto attrs = ParseAttrs(list);
    ASSERT_TRUE(attrs.ok()) << attrs.status().ToString();
    ASSERT_EQ(attrs->size(), 3u);
    EXPECT_EQ((*attrs)[2].id, 0x35);
    KernelInfo k;
    std::vector<Attr> fewer(attrs->begin(), attrs->begin() + 2), other = *attrs;
    other[1].payload = {0x20, 0x00};
    EXPECT_EQ(Compare(*attrs, k, *attrs, k, false), "");
    EXPECT_NE(Compare(fewer, k, *attrs, k, false).find("missing 0x35"), std::string::npos);
    EXPECT_NE(Compare(other, k, *attrs, k, false).find("CBANK_PARAM_SIZE"), std::string::npos);
    k.local = {{0x04, kExitOffsets, {0x50, 0, 0, 0}}};
    k.exits = {0x50, 0xd0};
    EXPECT_NE(CheckExits(k), "");
    k.exits = {0x50};
    EXPECT_EQ(CheckExits(k), "");
    EXPECT_FALSE(ParseAttrs({0x04, 0x17, 12, 0, 1}).ok());
}

}  // namespace
}  // namespace rndn::sasscomp
