// Encoder/decoder throughput over the kernel corpus, and ptxas's time on the same kernels.
//   build/bench/assembler_bench [arch ...]     (default: all corpus archs)
// Prints instructions per second for decode (+print) and parse+encode, then the wall time of
// `ptxas -O3` on the corpus PTX of that arch and the ratio (per instruction).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "assembler/assembler.h"

using namespace rndn::sass;
namespace fs = std::filesystem;

int main(int argc, char **argv) {
    std::vector<Arch> archs;
    for (int i = 1; i < argc; ++i) {
        auto a = ParseArch(argv[i]);
        if (!a.ok()) {
            std::fprintf(stderr, "%s\n", a.status().message().c_str());
            return 2;
        }
        archs.push_back(*a);
    }
    if (archs.empty()) archs.assign(std::begin(kAllArchs), std::end(kAllArchs));
    for (Arch arch : archs) {
        std::string dir = std::string("build/corpus/") + GetArchInfo(arch).name;
        if (!fs::exists(dir)) {
            std::printf("%s: no corpus in %s (make corpus)\n", GetArchInfo(arch).name, dir.c_str());
            continue;
        }
        std::vector<std::string> cubins, ptxs;
        for (const auto &e : fs::directory_iterator(dir)) {
            if (e.path().extension() == ".cubin") cubins.push_back(e.path().string());
            if (e.path().extension() == ".ptx") ptxs.push_back(e.path().string());
        }
        std::vector<ElfFile> elfs;
        for (const std::string &c : cubins) {
            std::ifstream in(c, std::ios::binary);
            std::vector<uint8_t> b((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
            auto e = ReadCubin(b);
            if (e.ok()) elfs.push_back(std::move(*e));
        }
        const Isa *isa = *Isa::Get(arch);
        using Clock = std::chrono::steady_clock;
        // Decode + print.
        long n = 0;
        std::vector<std::pair<std::string, Instruction>> texts;
        auto t0 = Clock::now();
        const int reps = 5;
        for (int r = 0; r < reps; ++r)
            for (const ElfFile &e : elfs) {
                auto fns = DecodeCubin(e);
                if (!fns.ok()) continue;
                for (const DecodedFunction &f : *fns)
                    for (const DecodedInstruction &d : f.insts) {
                        ++n;
                        if (r == 0 && d.ok) texts.emplace_back(d.text, d.inst);
                    }
            }
        double dec_s = std::chrono::duration<double>(Clock::now() - t0).count();
        // Parse + encode (labels resolved to the decoded targets).
        long m = 0, enc_ok = 0;
        t0 = Clock::now();
        for (int r = 0; r < reps; ++r)
            for (const auto &[text, inst] : texts) {
                auto p = isa->Parse(text, [&](const std::string &) -> rndn::Expected<int64_t> {
                    for (size_t k = 0; k < inst.values.size(); ++k)
                        if (isa->forms()[inst.form].fields[k].kind == HoleKind::LABEL) return inst.values[k];
                    return int64_t{0};
                });
                ++m;
                if (!p.ok()) continue;
                p->control = inst.control;
                enc_ok += isa->Encode(*p, 0).ok();
            }
        double enc_s = std::chrono::duration<double>(Clock::now() - t0).count();
        // ptxas on the same kernels.
        double ptxas_s = 0;
        for (const std::string &p : ptxs) {
            std::string cmd = "/usr/local/cuda/bin/ptxas -O3 -arch=" + std::string(GetArchInfo(arch).name) + " '" + p +
                              "' -o /tmp/rndn_bench_ptxas.cubin";
            auto s = Clock::now();
            if (std::system(cmd.c_str()) != 0) std::fprintf(stderr, "ptxas failed on %s\n", p.c_str());
            ptxas_s += std::chrono::duration<double>(Clock::now() - s).count();
        }
        long insts = n / reps;
        double dec_rate = n / dec_s, enc_rate = m / enc_s, ptxas_rate = ptxas_s > 0 ? insts / ptxas_s : 0;
        std::printf("%s: %zu cubins, %ld instructions | decode+print %.0f inst/s | parse+encode %.0f inst/s (%ld/%ld ok)"
                    " | ptxas -O3 %.2f s for %zu kernels files = %.0f inst/s | decoder %.0fx, encoder %.0fx ptxas\n",
                    GetArchInfo(arch).name, elfs.size(), insts, dec_rate, enc_rate, enc_ok, m, ptxas_s, ptxs.size(),
                    ptxas_rate, ptxas_rate ? dec_rate / ptxas_rate : 0, ptxas_rate ? enc_rate / ptxas_rate : 0);
    }
    return 0;
}
