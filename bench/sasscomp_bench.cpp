// rndn's PTX -> SASS compiler (src/sasscomp) against ptxas on the same corpus kernels, per
// architecture: compile time per kernel (ours in-process, ptxas -O3 and ptxas
// --Ofast-compile=max as processes, each compiling the one kernel with --entry), and the static
// quality of the code (instructions without the trailing BRA/NOP padding, registers) against
// ptxas -O3.  Geometric means, printed, not asserted.  Usage: sasscomp_bench [sm_XX ...] [--ptxas PATH]
#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "assembler/assembler.h"
#include "ptx/ptx.h"
#include "sasscomp/sasscomp.h"

using namespace rndn;
namespace fs = std::filesystem;

namespace {

double Now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

std::string ReadText(const std::string &p) {
    std::ifstream in(p, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// Instructions of a function without the final BRA-to-self and NOP padding.
int CountInstructions(const sass::DecodedFunction &f) {
    int n = (int)f.insts.size();
    while (n > 0 && (f.insts[n - 1].text == "NOP" || f.insts[n - 1].text.rfind("BRA", 0) == 0)) {
        bool self_branch = f.insts[n - 1].text.rfind("BRA", 0) == 0;
        --n;
        if (self_branch) break;
    }
    return n;
}

// Registers of a kernel: .nv.info REGCOUNT (attribute 0x2f) for the kernel's symbol.
int RegisterCount(const sass::ElfFile &elf, const std::string &kernel) {
    auto syms = sass::ReadSymbols(elf);
    int info = elf.Find(".nv.info");
    if (!syms.ok() || info < 0) return -1;
    uint32_t sym = 0;
    for (size_t i = 0; i < syms->size(); ++i)
        if ((*syms)[i].name == kernel) sym = (uint32_t)i;
    const auto &d = elf.sections[info].data;
    for (size_t i = 0; i + 4 <= d.size();) {
        uint8_t fmt = d[i], attr = d[i + 1];
        size_t len = fmt == 0x04 ? (size_t)(d[i + 2] | d[i + 3] << 8) : 0;
        if (fmt == 0x04 && attr == 0x2f && len >= 8) {
            uint32_t s, v;
            std::memcpy(&s, &d[i + 4], 4);
            std::memcpy(&v, &d[i + 8], 4);
            if (s == sym) return (int)v;
        }
        i += 4 + len;
    }
    return -1;
}

struct Stats {
    int insts = 0, regs = 0;
};
bool StaticStats(const std::vector<uint8_t> &bytes, const std::string &kernel, Stats *out) {
    auto elf = sass::ReadCubin(bytes);
    if (!elf.ok()) return false;
    auto fns = sass::DecodeCubin(*elf);
    if (!fns.ok()) return false;
    for (const auto &f : *fns)
        if (f.name == kernel) {
            out->insts = CountInstructions(f);
            out->regs = RegisterCount(*elf, kernel);
            return out->regs > 0;
        }
    return false;
}

double RunPtxas(const std::string &ptxas, const std::string &args, int reps) {
    double best = 1e30;
    for (int r = 0; r < reps; ++r) {
        double t0 = Now();
        int st = std::system((ptxas + " " + args + " >/dev/null 2>&1").c_str());
        double t = Now() - t0;
        if (st != 0) return -1;
        best = std::min(best, t);
    }
    return best;
}

struct Geo {
    double log_sum = 0;
    int n = 0;
    void Add(double r) {
        if (r > 0) log_sum += std::log(r), ++n;
    }
    double Mean() const { return n ? std::exp(log_sum / n) : 0; }
};

}  // namespace

int main(int argc, char **argv) {
    std::vector<std::string> archs;
    std::string ptxas = "/usr/local/cuda/bin/ptxas";
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--ptxas" && i + 1 < argc) ptxas = argv[++i];
        else archs.push_back(a);
    }
    if (archs.empty()) archs = {"sm_75", "sm_80", "sm_86", "sm_89", "sm_90"};
    // (--Ofast-compile conflicts with an explicit -O level, so the fast run passes none)
    bool fast_ok = std::system((ptxas + " --help 2>/dev/null | grep -q Ofast-compile").c_str()) == 0;
    std::string tmp = "build/bench/sasscomp_bench_tmp.cubin";
    fs::create_directories("build/bench");
    for (const std::string &arch_name : archs) {
        auto arch = sass::ParseArch(arch_name);
        if (!arch.ok()) {
            std::fprintf(stderr, "bad arch %s\n", arch_name.c_str());
            return 2;
        }
        std::string dir = "build/corpus/" + arch_name;
        if (!fs::exists(dir)) {
            std::fprintf(stderr, "%s missing (make corpus)\n", dir.c_str());
            return 1;
        }
        std::vector<std::string> files;
        for (const auto &e : fs::directory_iterator(dir))
            if (e.path().extension() == ".ptx") files.push_back(e.path().string());
        std::sort(files.begin(), files.end());
        Geo g_o3, g_fast, g_insts, g_regs;
        int total = 0, compiled = 0;
        std::printf("%s: kernel, ours us, ptxas -O3 us, ptxas -Ofc=max us, O3/ours, fast/ours, insts ours/ptxas, regs ours/ptxas\n", arch_name.c_str());
        for (const std::string &file : files) {
            auto m = ptx::ParseModule(ReadText(file), file);
            if (!m.ok()) continue;
            for (const ptx::Function &f : m->functions) {
                if (!f.is_entry || !f.has_body) continue;
                ++total;
                // ours: compile + cubin, best of 20 (parsing excluded: ptxas's times include it)
                double best = 1e30;
                std::vector<uint8_t> ours;
                bool ok = true;
                for (int r = 0; r < 20 && ok; ++r) {
                    double t0 = Now();
                    auto ks = sasscomp::CompileModule(*m, *arch, f.name);
                    if (!ks.ok()) {
                        ok = false;
                        break;
                    }
                    auto c = sasscomp::BuildCubin(*ks, *arch);
                    best = std::min(best, Now() - t0);
                    if (c.ok()) ours = std::move(*c);
                }
                if (!ok || ours.empty()) continue;
                ++compiled;
                std::string common = "-arch=" + arch_name + " -e " + f.name + " " + file + " -o " + tmp;
                double o3 = RunPtxas(ptxas, "-O3 " + common, 3);
                std::vector<uint8_t> theirs;
                {
                    std::ifstream in(tmp, std::ios::binary);
                    theirs.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
                }
                double fast = fast_ok ? RunPtxas(ptxas, "--Ofast-compile=max " + common, 3) : -1;
                Stats so, st;
                bool sok = StaticStats(ours, f.name, &so) && StaticStats(theirs, f.name, &st);
                std::printf("  %-28s %8.1f %9.1f %9.1f %8.1fx %8.1fx", f.name.c_str(), best * 1e6, o3 * 1e6, fast * 1e6,
                            o3 / best, fast > 0 ? fast / best : 0.0);
                if (sok) std::printf("  %3d/%-3d %5.2f  %3d/%-3d %5.2f", so.insts, st.insts, (double)so.insts / st.insts, so.regs,
                                     st.regs, (double)so.regs / st.regs);
                std::printf("\n");
                if (o3 > 0) g_o3.Add(o3 / best);
                if (fast > 0) g_fast.Add(fast / best);
                if (sok) g_insts.Add((double)so.insts / st.insts), g_regs.Add((double)so.regs / st.regs);
            }
        }
        std::printf("%s: %d of %d corpus kernels compiled; geometric means: compile speed vs ptxas -O3 %.1fx, vs "
                    "--Ofast-compile=max %.1fx; instructions %.2fx, registers %.2fx of ptxas -O3\n\n",
                    arch_name.c_str(), compiled, total, g_o3.Mean(), g_fast.Mean(), g_insts.Mean(), g_regs.Mean());
    }
    std::remove(tmp.c_str());
    return 0;
}
