// TPC-H through our own compiler: the 22 HorseIR programs (test/horseir/tpch) outlined under full
// fusion by src/codegen, every kernel compiled by rndn::sasscomp (CompileModule + BuildCubin) and run
// in the SASS emulator with the hazard checker on, on the SF 0.01 data (build/tpch/sf0.01,
// tools/tpch.sh gen 0.01).  Every result equals the interpreter's, every kernel is launched, no
// hazard.  A kernel our compiler cannot compile yet is taken from ptxas's cubin of the same PTX, but
// only if it is listed in kKnownUncompiled (checked both ways: a listed kernel that compiles fails
// the test, so the list only shrinks).  The runner's per-thread reduction form is used
// (warp_reduce = false: the warp-shuffle form needs shfl.sync, not compiled yet).
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>

#include "codegen/codegen.h"
#include "cpujit/cpujit.h"
#include "sassemu/sassemu.h"
#include "sasscomp/sasscomp.h"

namespace rndn::sasscomp::testing {
namespace {

// "q<N>/<kernel>": kernels of the TPC-H programs that rndn::sasscomp cannot compile yet (the same on
// every architecture), with the reason (empty since predicate spilling: every kernel compiles).
const std::set<std::string> kKnownUncompiled = {
#include "tpch_known_uncompiled.inc"
};

std::string ReadAll(const std::string &path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::string Ptxas() {
    const char *env = std::getenv("PTXAS");
    if (env && *env) return env;
    return access("/usr/local/cuda/bin/ptxas", X_OK) == 0 ? "/usr/local/cuda/bin/ptxas" : "";
}

// codegen's kernel device: PTX -> rndn::sasscomp -> cubin -> rndn::sassemu, kernel by kernel.
class OurKernels final : public codegen::KernelDevice {
public:
    OurKernels(std::string ptxas, std::string arch, unsigned workers) : ptxas_(std::move(ptxas)), arch_(std::move(arch)), dev_(workers) {
        char tmpl[] = "/tmp/rndn-sasscomp-XXXXXX";
        if (mkdtemp(tmpl)) dir_ = tmpl;
    }
    ~OurKernels() override {
        if (!dir_.empty()) std::system(("rm -rf " + dir_).c_str());
    }
    void SetQuery(int q) { query_ = "q" + std::to_string(q); }

    struct Mod {
        std::map<std::string, const sassemu::Kernel *> kernels;
        std::vector<std::shared_ptr<const sassemu::Module>> keep;
    };

    Expected<std::shared_ptr<const void>> LoadModule(const std::string &ptx, const std::function<bool()> * /*cancel*/) override {
        auto it = cache_.find(query_ + "\n" + ptx);
        if (it != cache_.end()) return std::shared_ptr<const void>(it->second);
        RNDN_ASSIGN_OR_RETURN(sass::Arch arch, sass::ParseArch(arch_));
        RNDN_ASSIGN_OR_RETURN(ptx::Module m, ptx::ParseModule(ptx, query_ + ".ptx"));
        auto mod = std::make_shared<Mod>();
        std::shared_ptr<const sassemu::Module> theirs;
        for (const ptx::Function &f : m.functions) {
            if (!f.is_entry || !f.has_body) continue;
            std::string id = query_ + "/" + f.name;
            auto ks = CompileModule(m, arch, f.name);
            if (ks.ok()) {
                RNDN_ASSIGN_OR_RETURN(std::vector<uint8_t> cubin, BuildCubin(*ks, arch));
                RNDN_ASSIGN_OR_RETURN(std::shared_ptr<const sassemu::Module> sm, dev_.LoadModule(cubin));
                mod->kernels[f.name] = sm->Find(f.name);
                mod->keep.push_back(sm);
                ours_.insert(id);
                for (const auto &k : *ks) instructions_ += (int)k.text.size();
                continue;
            }
            uncompiled_[id] = ks.status().message();
            // an unlisted kernel is missing (the run fails); RNDN_TPCH_FALLBACK_ALL=1 takes every
            // uncompiled kernel from ptxas so that one run names them all (to rewrite the list; the
            // test still fails on each unlisted one)
            if (!kKnownUncompiled.count(id) && !std::getenv("RNDN_TPCH_FALLBACK_ALL")) continue;
            if (!theirs) {
                RNDN_ASSIGN_OR_RETURN(theirs, Ptxas(ptx));
            }
            mod->kernels[f.name] = theirs->Find(f.name);
            mod->keep.push_back(theirs);
            from_ptxas_.insert(mod->kernels[f.name]);
        }
        cache_[query_ + "\n" + ptx] = mod;
        return std::shared_ptr<const void>(std::move(mod));
    }
    const void *FindKernel(const void *module, const std::string &name) override {
        const Mod *m = static_cast<const Mod *>(module);
        auto it = m->kernels.find(name);
        return it == m->kernels.end() ? nullptr : it->second;
    }
    Status Launch(const void *kernel, uint32_t grid, uint32_t block, const std::vector<std::vector<uint8_t>> &args,
                  const std::function<bool()> * /*cancel*/) override {
        sassemu::LaunchConfig cfg;
        cfg.grid = {grid, 1, 1};
        cfg.block = {block, 1, 1};
        cfg.check_hazards = true;
        std::vector<sassemu::Arg> a(args.size());
        for (size_t i = 0; i < args.size(); ++i) a[i].bytes = args[i];
        sassemu::LaunchStats st;
        const auto *k = static_cast<const sassemu::Kernel *>(kernel);
        Status s = dev_.Launch(*k, cfg, a, &st);
        (from_ptxas_.count(k) ? launches_ptxas_ : launches_ours_)++;
        for (const sassemu::Hazard &h : st.hazards) hazards_.push_back(h.kernel + " " + std::to_string(h.address) + ": " + h.what);
        return s;
    }
    void RegisterMemory(const void *p, size_t bytes) override { dev_.RegisterMemory(p, bytes); }
    void UnregisterMemory(const void *p) override { dev_.UnregisterMemory(p); }

    std::set<std::string> ours_;
    std::map<std::string, std::string> uncompiled_;
    std::vector<std::string> hazards_;
    int launches_ours_ = 0, launches_ptxas_ = 0, instructions_ = 0;

private:
    Expected<std::shared_ptr<const sassemu::Module>> Ptxas(std::string ptx) {
        if (ptxas_.empty() || dir_.empty()) return Status::Internal("no ptxas for the listed kernels");
        size_t t = ptx.find(".target sm_80");
        if (t != std::string::npos) ptx.replace(t, 13, ".target " + arch_);
        std::string base = dir_ + "/m" + std::to_string(n_++);
        std::ofstream(base + ".ptx") << ptx;
        std::string cmd = ptxas_ + " -O3 -arch=" + arch_ + " " + base + ".ptx -o " + base + ".cubin 2>" + base + ".log";
        if (std::system(cmd.c_str()) != 0) return Status::Internal("ptxas failed: " + ReadAll(base + ".log"));
        std::string bytes = ReadAll(base + ".cubin");
        return dev_.LoadModule(std::vector<uint8_t>(bytes.begin(), bytes.end()));
    }
    std::string ptxas_, arch_, dir_, query_;
    sassemu::Device dev_;
    std::map<std::string, std::shared_ptr<const Mod>> cache_;
    std::set<const sassemu::Kernel *> from_ptxas_;
    int n_ = 0;
};

hir::DataRegistry *Data(std::string *why) {
    static hir::DataRegistry reg;
    static int state = 0;
    static std::string error;
    if (state == 0) {
        std::ifstream probe("build/tpch/sf0.01/lineitem.tbl");
        if (!probe) {
            state = 2;
            error = "no SF 0.01 data in build/tpch/sf0.01 (run tools/tpch.sh gen 0.01)";
        } else {
            Status st = hir::LoadSchemaAndData(ReadAll("test/tpch/schema.sql"), "build/tpch/sf0.01", reg);
            state = st.ok() ? 1 : 2;
            if (!st.ok()) error = st.ToString();
        }
    }
    *why = error;
    return state == 1 ? &reg : nullptr;
}

class TpchOurCompiler : public ::testing::TestWithParam<std::string> {};

TEST_P(TpchOurCompiler, EveryProgramEqualsTheInterpreterOnSf001) {
    std::string why;
    hir::DataRegistry *data = Data(&why);
    if (!data) {
        std::printf("SKIPPED: %s\n", why.c_str());
        GTEST_SKIP() << why;
    }
    const std::string arch = GetParam();
    OurKernels kd(Ptxas(), arch, 2);
    codegen::Runner runner(kd, /*warp_reduce=*/false);
    auto t0 = std::chrono::steady_clock::now();
    int kernels = 0;
    for (int q = 1; q <= 22; ++q) {
        std::string path = "test/horseir/tpch/q" + std::to_string(q) + ".hir";
        auto parsed = hir::ParseProgram(ReadAll(path), path);
        ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
        ASSERT_TRUE(hir::CheckProgram(*parsed).ok()) << "q" << q;
        hir::InterpretOptions opts;
        auto want = hir::Interpret(*parsed, *data, opts);
        ASSERT_TRUE(want.ok()) << want.status().ToString();
        auto out = codegen::Outline(*parsed, codegen::FusionMode::FULL);
        ASSERT_TRUE(out.ok()) << out.status().ToString();
        kd.SetQuery(q);
        codegen::RunStats st;
        auto got = runner.Run(*out, *data, opts, &st);
        ASSERT_TRUE(got.ok()) << "q" << q << " " << arch << ": " << got.status().ToString();
        EXPECT_EQ(hir::FormatValue(*got), hir::FormatValue(*want)) << "q" << q << " " << arch;
        EXPECT_EQ(st.kernels_launched, static_cast<int>(out->kernels.size())) << "q" << q << ": every kernel launched";
        if (st.kernels_redone > 0) {
            // re-run on the interpreter after a flag: the cpu device, running the same PTX, must agree
            static cpujit::Device cpu(2);
            codegen::Runner cpu_runner(cpu, /*warp_reduce=*/false);
            codegen::RunStats cst;
            auto again = cpu_runner.Run(*out, *data, opts, &cst);
            ASSERT_TRUE(again.ok()) << again.status().ToString();
            EXPECT_EQ(st.kernels_redone, cst.kernels_redone) << "q" << q << ": kernels redone, emulator vs cpu device";
        }
        kernels += st.kernels_launched;
    }
    std::string hz;
    for (size_t i = 0; i < kd.hazards_.size() && i < 30; ++i) hz += "\n  " + kd.hazards_[i];
    EXPECT_TRUE(kd.hazards_.empty()) << kd.hazards_.size() << " hazard(s):" << hz;
    // the known list, both ways
    for (const auto &[id, msg] : kd.uncompiled_) EXPECT_TRUE(kKnownUncompiled.count(id)) << id << " does not compile for " << arch << ": " << msg;
    for (const std::string &id : kKnownUncompiled) {
        EXPECT_TRUE(kd.uncompiled_.count(id) || !kd.ours_.count(id)) << id << " compiles for " << arch << " now: remove it from tpch_known_uncompiled.inc";
        EXPECT_TRUE(kd.uncompiled_.count(id)) << id << " (listed) was not seen in " << arch << "'s runs";
    }
    double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("[sasscomp] %s TPC-H SF 0.01, 22 programs: %d kernels launched; %zu distinct kernels compiled by sasscomp (%d SASS instructions), "
                "%zu from ptxas (listed); launches %d ours / %d ptxas; %.1f s\n",
                arch.c_str(), kernels, kd.ours_.size(), kd.instructions_, kd.uncompiled_.size(), kd.launches_ours_, kd.launches_ptxas_, total);
}

INSTANTIATE_TEST_SUITE_P(Archs, TpchOurCompiler,
                         ::testing::Values(std::string("sm_75"), std::string("sm_80"), std::string("sm_86"), std::string("sm_89"), std::string("sm_90")),
                         [](const auto &info) { return info.param; });

}  // namespace
}  // namespace rndn::sasscomp::testing
