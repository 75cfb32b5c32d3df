// rndn's PTX -> SASS compiler (src/sasscomp) against NVIDIA's compilers on the same PTX (issue 15,
// verification "static quality" and "compile speed").  For every kernel that our compiler compiles
// (found at run time: the corpus build/corpus/<arch>/*.ptx and src/codegen's TPC-H kernels
// build/isa_probe/<arch>/tpch_q*.ptx), per architecture:
//   - the kernel alone is cut out of its file as a PTX module (the other .entry blocks removed,
//     everything else kept), and every compiler compiles that same text;
//   - compile time: ours in process (parse PTX -> cubin bytes, median of --reps runs), ptxas as a
//     process with -O3 and with --Ofast-compile=max (median of --ptxas-reps), nvJitLink in
//     process (PTX input, -O3, median of --ptxas-reps) where the toolkit has it;
//   - static quality against ptxas -O3: SASS instructions (without the trailing BRA-to-self and
//     NOP padding) and registers (.nv.info REGCOUNT);
//   - an ESTIMATE of execution cost from static counts (no GPU here): every instruction weighted
//     by its latency class in src/assembler/latency.inc (fixed: its cycles; variable: a nominal
//     latency per pipe, kNominal below) and the sum of the stall counts of the control codes
//     (straight-line issue cycles as each compiler scheduled them); loops count once.
// Geometric means per architecture and a summary at the end.  Printed, never asserted; not part
// of make test.  Usage: asm_bench [sm_XX ...] [--reps N] [--ptxas-reps N] [--ptxas PATH] [--quiet]
//   [--static]     static counts only: ours once, ptxas -O3 once, no fast mode or nvJitLink timing
//   [--worst N]    per architecture, the N kernels with the highest instruction ratio
//   [--dump DIR]   write DIR/<arch>/<file>__<kernel>.{ours,ptxas}.cubin for diffing (nvdisasm)
// Held-out split: every kernel falls in half A or B by an FNV-1a hash of "<file stem>/<kernel>"
// (bit 0).  Tuning looks at half A only; both halves' geometric means are printed, so a change
// fitted to the studied kernels shows as a gap between A and B.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "assembler/assembler.h"
#include "ptx/ptx.h"
#include "sasscomp/sasscomp.h"

#ifdef RNDN_HAVE_NVJITLINK
#include <nvJitLink.h>
#endif

using namespace rndn;
namespace fs = std::filesystem;

namespace {

const char kLatencyText[] =
#include "assembler/latency.inc"
    ;

// Nominal latencies (cycles) of the variable-latency pipes for the estimate.  Memory is kept
// near an L1 hit on purpose: both compilers issue the same loads and stores, and DRAM-sized
// weights would hide every difference in the rest of the code.  Round figures, not measured.
const std::map<std::string, int> kNominal = {
    {"global", 30}, {"local", 30}, {"shared", 25}, {"constant", 10}, {"uconstant", 10}, {"xu", 15},
    {"fp64", 30},   {"sr", 20},    {"warp", 25},   {"bar", 20},
};

double Now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

std::string ReadText(const std::string &p) {
    std::ifstream in(p, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}
std::vector<uint8_t> ReadBytes(const std::string &p) {
    std::ifstream in(p, std::ios::binary);
    return std::vector<uint8_t>((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}
void WriteText(const std::string &p, const std::string &s) {
    std::ofstream o(p, std::ios::binary);
    o << s;
}

double Median(std::vector<double> v) {
    if (v.empty()) return -1;
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

// The module text with every .entry except `keep` removed (from the start of its line to its
// closing brace).  Comments and strings in PTX bodies hold no braces in the corpus; a brace in
// a // comment is skipped anyway.
std::string OneKernel(const std::string &text, const std::string &keep) {
    std::string out;
    size_t pos = 0;
    while (true) {
        size_t e = text.find(".entry", pos);
        if (e == std::string::npos) break;
        size_t line = text.rfind('\n', e);
        line = line == std::string::npos ? 0 : line + 1;
        if (text.compare(line, 2, "//") == 0 || text.substr(line, e - line).find("//") != std::string::npos) {
            pos = e + 6;
            continue;
        }
        size_t n0 = e + 6;
        while (n0 < text.size() && std::isspace((unsigned char)text[n0])) ++n0;
        size_t n1 = n0;
        while (n1 < text.size() && (std::isalnum((unsigned char)text[n1]) || text[n1] == '_' || text[n1] == '$')) ++n1;
        std::string name = text.substr(n0, n1 - n0);
        size_t open = text.find('{', n1), end = open;
        int depth = 0;
        for (; end < text.size(); ++end) {
            if (text[end] == '/' && end + 1 < text.size() && text[end + 1] == '/') {
                end = text.find('\n', end);
                if (end == std::string::npos) break;
                continue;
            }
            if (text[end] == '{') ++depth;
            if (text[end] == '}' && --depth == 0) break;
        }
        if (open == std::string::npos || end >= text.size()) break;
        out += text.substr(pos, line - pos);
        if (name == keep) out += text.substr(line, end + 1 - line);
        pos = end + 1;
    }
    out += text.substr(pos);
    return out;
}

// Static figures of one kernel in a cubin.
struct Stats {
    int insts = 0, regs = -1;
    double weighted = 0;  // latency-class estimate
    int stalls = 0;       // sum of the control codes' stall counts
};

struct LatencyClasses {
    std::map<std::string, int> cost;
    int dflt = 4;
};
LatencyClasses LatencyFor(sass::Arch arch) {
    LatencyClasses lc;
    std::istringstream in(kLatencyText);
    std::string line, name = sass::GetArchInfo(arch).name;
    while (std::getline(in, line)) {
        std::istringstream ls(line);
        std::string scope, op, kind, arg;
        if (!(ls >> scope >> op >> kind >> arg) || scope[0] == '#' || (scope != "*" && scope != name)) continue;
        int c = kind == "fixed" ? std::atoi(arg.c_str()) : (kNominal.count(arg) ? kNominal.at(arg) : 20);
        if (op == "default") lc.dflt = c;
        else if (op[0] != '@') lc.cost[op] = c;
    }
    return lc;
}

std::string Opcode(const std::string &text) {
    size_t s = 0;
    if (!text.empty() && text[0] == '@') s = text.find(' ') + 1;
    size_t e = text.find_first_of(" .", s);
    return text.substr(s, e == std::string::npos ? std::string::npos : e - s);
}

bool StaticStats(const std::vector<uint8_t> &bytes, const std::string &kernel, const LatencyClasses &lc, Stats *out) {
    auto elf = sass::ReadCubin(bytes);
    if (!elf.ok()) return false;
    auto fns = sass::DecodeCubin(*elf);
    auto syms = sass::ReadSymbols(*elf);
    if (!fns.ok() || !syms.ok()) return false;
    for (const auto &f : *fns) {
        if (f.name != kernel) continue;
        int n = (int)f.insts.size();
        while (n > 0 && f.insts[n - 1].text == "NOP") --n;
        if (n > 0 && f.insts[n - 1].text.rfind("BRA", 0) == 0) --n;  // the trailing BRA to itself
        out->insts = n;
        for (int i = 0; i < n; ++i) {
            const auto &in = f.insts[i];
            std::string op = in.ok ? Opcode(in.text) : "";
            auto it = lc.cost.find(op);
            out->weighted += it == lc.cost.end() ? lc.dflt : it->second;
            out->stalls += sass::UnpackControl(in.word).stall;
        }
    }
    // registers: .nv.info REGCOUNT (0x2f) of the kernel's symbol
    uint32_t sym = UINT32_MAX;
    for (size_t i = 0; i < syms->size(); ++i)
        if ((*syms)[i].name == kernel) sym = (uint32_t)i;
    int info = elf->Find(".nv.info");
    if (info < 0) return false;
    const auto &d = elf->sections[info].data;
    for (size_t i = 0; i + 4 <= d.size();) {
        size_t len = d[i] == 0x04 ? (size_t)(d[i + 2] | d[i + 3] << 8) : 0;
        if (d[i] == 0x04 && d[i + 1] == 0x2f && len >= 8 && i + 12 <= d.size()) {
            uint32_t s, v;
            std::memcpy(&s, &d[i + 4], 4);
            std::memcpy(&v, &d[i + 8], 4);
            if (s == sym) out->regs = (int)v;
        }
        i += 4 + len;
    }
    return out->insts > 0 && out->regs > 0;
}

// Median wall time of a command (process start included); -1 when it fails.
double TimeCommand(const std::string &cmd, int reps) {
    std::vector<double> t;
    for (int r = 0; r < reps; ++r) {
        double t0 = Now();
        if (std::system((cmd + " >/dev/null 2>&1").c_str()) != 0) return -1;
        t.push_back(Now() - t0);
    }
    return Median(t);
}

// nvJitLink in process: PTX -> cubin, median seconds; -1 when unavailable or failing.
double TimeNvJitLink(const std::string &ptx, const std::string &arch, int reps) {
#ifdef RNDN_HAVE_NVJITLINK
    std::string a = "-arch=" + arch;
    const char *opts[] = {a.c_str(), "-O3"};
    std::vector<double> t;
    for (int r = 0; r < reps; ++r) {
        double t0 = Now();
        nvJitLinkHandle h;
        if (nvJitLinkCreate(&h, 2, opts) != NVJITLINK_SUCCESS) return -1;
        bool ok = nvJitLinkAddData(h, NVJITLINK_INPUT_PTX, ptx.data(), ptx.size(), "kernel.ptx") == NVJITLINK_SUCCESS &&
                  nvJitLinkComplete(h) == NVJITLINK_SUCCESS;
        size_t size = 0;
        std::vector<char> cubin;
        if (ok && nvJitLinkGetLinkedCubinSize(h, &size) == NVJITLINK_SUCCESS) {
            cubin.resize(size);
            ok = nvJitLinkGetLinkedCubin(h, cubin.data()) == NVJITLINK_SUCCESS;
        }
        nvJitLinkDestroy(&h);
        if (!ok) return -1;
        t.push_back(Now() - t0);
    }
    return Median(t);
#else
    (void)ptx, (void)arch, (void)reps;
    return -1;
#endif
}

struct Geo {
    double log_sum = 0;
    int n = 0;
    void Add(double r) {
        if (r > 0 && std::isfinite(r)) log_sum += std::log(r), ++n;
    }
    double Mean() const { return n ? std::exp(log_sum / n) : 0; }
};

struct ArchSummary {
    std::string arch;
    int kernels = 0, compiled = 0;
    Geo ours_us, o3, fast, jit, insts, regs, weighted, stalls;
    Geo half_insts[2], half_regs[2];
};

// Which half of the held-out split a kernel belongs to (0 = A, studied; 1 = B, held out).
int HalfOf(const std::string &label) {
    uint32_t h = 2166136261u;
    for (unsigned char c : label) h = (h ^ c) * 16777619u;
    return (int)(h & 1);
}

}  // namespace

int main(int argc, char **argv) {
    std::vector<std::string> archs;
    std::string ptxas = "/usr/local/cuda/bin/ptxas";
    int reps = 21, ptxas_reps = 3;
    bool quiet = false, static_only = false;
    int worst = 0;
    std::string dump;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--ptxas" && i + 1 < argc) ptxas = argv[++i];
        else if (a == "--reps" && i + 1 < argc) reps = std::max(1, std::atoi(argv[++i]));
        else if (a == "--ptxas-reps" && i + 1 < argc) ptxas_reps = std::max(1, std::atoi(argv[++i]));
        else if (a == "--quiet") quiet = true;
        else if (a == "--static") static_only = true, reps = 1, ptxas_reps = 1;
        else if (a == "--worst" && i + 1 < argc) worst = std::atoi(argv[++i]);
        else if (a == "--dump" && i + 1 < argc) dump = argv[++i];
        else if (a.rfind("sm_", 0) == 0) archs.push_back(a);
        else {
            std::fprintf(stderr, "usage: asm_bench [sm_XX ...] [--reps N] [--ptxas-reps N] [--ptxas PATH] [--quiet] [--static] [--worst N] [--dump DIR]\n");
            return 2;
        }
    }
    if (archs.empty()) archs = {"sm_75", "sm_80", "sm_86", "sm_89", "sm_90"};
    if (!fs::exists(ptxas)) {
        std::fprintf(stderr, "%s missing (make deps)\n", ptxas.c_str());
        return 1;
    }
    // ptxas 13 spells the fast mode --Ofast-compile=<0|min|mid|max> (it conflicts with an
    // explicit -O level, so that run passes none)
    bool fast_ok = std::system((ptxas + " --help 2>/dev/null | grep -q -- --Ofast-compile").c_str()) == 0;
    fs::create_directories("build/bench");
    std::string tmp_ptx = "build/bench/asm_bench_kernel.ptx", tmp_cubin = "build/bench/asm_bench_kernel.cubin";
    std::vector<ArchSummary> summary;
    for (const std::string &arch_name : archs) {
        auto arch = sass::ParseArch(arch_name);
        if (!arch.ok()) {
            std::fprintf(stderr, "bad arch %s\n", arch_name.c_str());
            return 2;
        }
        LatencyClasses lc = LatencyFor(*arch);
        std::vector<std::string> files;
        for (const std::string &dir : {"build/corpus/" + arch_name, "build/isa_probe/" + arch_name}) {
            if (!fs::exists(dir)) continue;
            for (const auto &e : fs::directory_iterator(dir))
                if (e.path().extension() == ".ptx" && (dir.find("corpus") != std::string::npos || e.path().stem().string().rfind("tpch_q", 0) == 0))
                    files.push_back(e.path().string());
        }
        std::sort(files.begin(), files.end());
        if (files.empty()) {
            std::fprintf(stderr, "build/corpus/%s missing (make corpus)\n", arch_name.c_str());
            return 1;
        }
        ArchSummary s;
        s.arch = arch_name;
        std::vector<std::pair<double, std::string>> ratios;  // (instruction ratio, label) for --worst
        std::printf("%s: compile time in microseconds (median) and ratios to ours; static counts ours/ptxas -O3; est = latency-weighted "
                    "instructions, stalls = sum of stall counts (ESTIMATES from static code, loops counted once)\n",
                    arch_name.c_str());
        std::printf("  %-34s %9s %9s %9s %9s %7s %7s %7s %9s %6s %7s %6s %6s\n", "kernel", "ours", "O3", "Ofc=max", "nvJitLink", "O3/us",
                    "fast/us", "jit/us", "insts", "ratio", "regs", "est", "stalls");
        for (const std::string &file : files) {
            std::string text = ReadText(file);
            auto m = ptx::ParseModule(text, file);
            if (!m.ok()) continue;
            for (const ptx::Function &f : m->functions) {
                if (!f.is_entry || !f.has_body) continue;
                ++s.kernels;
                if (!sasscomp::CompileModule(*m, *arch, f.name).ok()) continue;  // the set that compiles today
                std::string one = OneKernel(text, f.name);
                // ours: parse + compile + cubin, median of reps
                std::vector<double> times;
                std::vector<uint8_t> ours;
                std::string err;
                for (int r = 0; r < reps && err.empty(); ++r) {
                    double t0 = Now();
                    auto mod = ptx::ParseModule(one, file);
                    if (!mod.ok()) {
                        err = mod.status().ToString();
                        break;
                    }
                    auto c = sasscomp::CompileToCubin(*mod, *arch);
                    double t = Now() - t0;
                    if (!c.ok()) {
                        err = c.status().ToString();
                        break;
                    }
                    times.push_back(t);
                    ours = std::move(*c);
                }
                std::string label = fs::path(file).stem().string() + "/" + f.name;
                if (!err.empty()) {
                    std::printf("  %-34s the one-kernel module does not compile: %s\n", label.c_str(), err.c_str());
                    continue;
                }
                ++s.compiled;
                double us = Median(times);
                WriteText(tmp_ptx, one);
                std::string common = "-arch=" + arch_name + " " + tmp_ptx + " -o " + tmp_cubin;
                double o3 = TimeCommand(ptxas + " -O3 " + common, ptxas_reps);
                std::vector<uint8_t> theirs = ReadBytes(tmp_cubin);
                double fast = fast_ok && !static_only ? TimeCommand(ptxas + " --Ofast-compile=max " + common, ptxas_reps) : -1;
                double jit = static_only ? -1 : TimeNvJitLink(one, arch_name, ptxas_reps);
                if (!dump.empty()) {
                    std::string base = dump + "/" + arch_name + "/" + fs::path(file).stem().string() + "__" + f.name;
                    fs::create_directories(dump + "/" + arch_name);
                    std::ofstream(base + ".ours.cubin", std::ios::binary).write((const char *)ours.data(), (std::streamsize)ours.size());
                    std::ofstream(base + ".ptxas.cubin", std::ios::binary).write((const char *)theirs.data(), (std::streamsize)theirs.size());
                }
                Stats so, st;
                bool sok = o3 > 0 && StaticStats(ours, f.name, lc, &so) && StaticStats(theirs, f.name, lc, &st);
                if (!quiet) {
                    std::printf("  %-34s %9.1f %9.1f %9.1f %9.1f %6.0fx %6.0fx %6.0fx", label.c_str(), us * 1e6, o3 * 1e6, fast * 1e6, jit * 1e6,
                                o3 / us, fast > 0 ? fast / us : 0.0, jit > 0 ? jit / us : 0.0);
                    if (sok)
                        std::printf(" %4d/%-4d %5.2f %3d/%-3d %5.2f %5.2f", so.insts, st.insts, (double)so.insts / st.insts, so.regs, st.regs,
                                    so.weighted / st.weighted, st.stalls ? (double)so.stalls / st.stalls : 0.0);
                    std::printf("\n");
                }
                s.ours_us.Add(us * 1e6);
                if (o3 > 0) s.o3.Add(o3 / us);
                if (fast > 0) s.fast.Add(fast / us);
                if (jit > 0) s.jit.Add(jit / us);
                if (sok) {
                    s.insts.Add((double)so.insts / st.insts), s.regs.Add((double)so.regs / st.regs);
                    int h = HalfOf(label);
                    s.half_insts[h].Add((double)so.insts / st.insts), s.half_regs[h].Add((double)so.regs / st.regs);
                    if (h == 0) ratios.push_back({(double)so.insts / st.insts, label + " " + std::to_string(so.insts) + "/" + std::to_string(st.insts)});
                    s.weighted.Add(so.weighted / st.weighted);
                    if (st.stalls > 0 && so.stalls > 0) s.stalls.Add((double)so.stalls / st.stalls);
                }
            }
        }
        std::printf("%s: %d of %d kernels compile; geometric means: ours %.1f us; faster than ptxas -O3 %.0fx, than --Ofast-compile=max "
                    "%.0fx, than nvJitLink %.0fx; instructions %.2fx, registers %.2fx of ptxas -O3; estimated cost %.2fx (latency-weighted), "
                    "%.2fx (stall sum)\n\n",
                    arch_name.c_str(), s.compiled, s.kernels, s.ours_us.Mean(), s.o3.Mean(), s.fast.Mean(), s.jit.Mean(), s.insts.Mean(), s.regs.Mean(),
                    s.weighted.Mean(), s.stalls.Mean());
        std::printf("%s: half A (studied) %d kernels: instructions %.3fx, registers %.3fx; half B (held out) %d kernels: instructions %.3fx, "
                    "registers %.3fx\n",
                    arch_name.c_str(), s.half_insts[0].n, s.half_insts[0].Mean(), s.half_regs[0].Mean(), s.half_insts[1].n, s.half_insts[1].Mean(),
                    s.half_regs[1].Mean());
        if (worst > 0) {
            std::sort(ratios.begin(), ratios.end(), [](const auto &x, const auto &y) { return x.first > y.first; });
            std::printf("%s: worst instruction ratios (half A):", arch_name.c_str());
            for (int i = 0; i < worst && i < (int)ratios.size(); ++i) std::printf(" %s (%.2f);", ratios[i].second.c_str(), ratios[i].first);
            std::printf("\n");
        }
        std::printf("\n");
        std::fflush(stdout);
        summary.push_back(s);
    }
    std::remove(tmp_ptx.c_str());
    std::remove(tmp_cubin.c_str());
    std::printf("summary (geometric means over the kernels that compile; issue 15 targets: speed >= 20x vs -O3 and > 1x vs the fast mode, "
                "instructions <= 1.2x, registers <= 1.5x)\n");
    std::printf("%-6s %9s %8s %8s %8s %8s %7s %7s %9s %9s %8s %8s %8s %8s\n", "arch", "kernels", "ours us", "vs O3", "vs fast", "vs jit", "insts", "regs",
                "est(lat)", "est(stall)", "insts A", "regs A", "insts B", "regs B");
    for (const ArchSummary &s : summary)
        std::printf("%-6s %4d/%-4d %8.1f %7.0fx %7.0fx %7.0fx %6.2fx %6.2fx %8.2fx %8.2fx %7.3fx %7.3fx %7.3fx %7.3fx\n", s.arch.c_str(), s.compiled,
                    s.kernels, s.ours_us.Mean(), s.o3.Mean(), s.fast.Mean(), s.jit.Mean(), s.insts.Mean(), s.regs.Mean(), s.weighted.Mean(),
                    s.stalls.Mean(), s.half_insts[0].Mean(), s.half_regs[0].Mean(), s.half_insts[1].Mean(), s.half_regs[1].Mean());
    return 0;
}
