// rndn-emu: run one kernel of a cubin in the SASS emulator (src/sassemu).
//
//   rndn-emu FILE.cubin --kernel NAME --grid X[,Y,Z] --block X[,Y,Z] [--shared BYTES] [--threads N]
//            [--no-check] [--check-hazards] [--trace] ARG...
//
// ARG takes rndn-run's forms: s32:V u32:V s64:V u64:V f32:V f64:V (scalars), in:FILE (a buffer
// filled from FILE; the parameter is its address), out:BYTES:FILE (a zeroed buffer written to
// FILE after the launch), inout:FILE:OUTFILE.  --trace prints every executed warp instruction
// (with the first destination's value) to stderr; --check-hazards reports control-code hazards.
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "sassemu/sassemu.h"

namespace {

using rndn::Status;
using rndn::sassemu::Arg;
using rndn::sassemu::Dim3;

int Usage() {
    std::fprintf(stderr,
                 "usage: rndn-emu FILE.cubin --kernel NAME --grid X[,Y,Z] --block X[,Y,Z] [--shared BYTES]\n"
                 "                [--threads N] [--no-check] [--check-hazards] [--trace] ARG...\n"
                 "  ARG: s32:V u32:V s64:V u64:V f32:V f64:V | in:FILE | out:BYTES:FILE | inout:FILE:OUTFILE\n");
    return 2;
}

bool ParseU64(const std::string &s, uint64_t &out) {
    if (s.empty() || s[0] == '-') return false;
    char *end = nullptr;
    errno = 0;
    out = std::strtoull(s.c_str(), &end, 0);
    return *end == '\0' && errno == 0;
}

bool ParseDim(const std::string &s, Dim3 &d) {
    uint64_t v[3] = {1, 1, 1};
    std::stringstream ss(s);
    std::string part;
    int k = 0;
    while (std::getline(ss, part, ',')) {
        if (k == 3 || !ParseU64(part, v[k]) || v[k] == 0 || v[k] > 0xFFFFFFFFull) return false;
        ++k;
    }
    if (k == 0) return false;
    d = {(uint32_t)v[0], (uint32_t)v[1], (uint32_t)v[2]};
    return true;
}

bool ReadFile(const std::string &path, std::string &out) {
    std::ifstream f(path, std::ios::binary);
    if (!f) return false;
    std::stringstream ss;
    ss << f.rdbuf();
    out = ss.str();
    return true;
}

struct OutBuf {
    void *ptr;
    size_t bytes;
    std::string file;
};

}  // namespace

int main(int argc, char **argv) {
    if (argc < 2) return Usage();
    std::string file = argv[1], kernel;
    Dim3 grid, block;
    bool have_grid = false, have_block = false, check = true, hazards = false, trace = false;
    uint64_t shared = 0, threads = 0;
    std::vector<std::string> args;
    for (int i = 2; i < argc; ++i) {
        std::string a = argv[i], v;
        auto need = [&](std::string &out) {
            if (i + 1 >= argc) return false;
            out = argv[++i];
            return true;
        };
        if (a == "--kernel") {
            if (!need(kernel)) return Usage();
        } else if (a == "--grid") {
            if (!need(v) || !ParseDim(v, grid)) return Usage();
            have_grid = true;
        } else if (a == "--block") {
            if (!need(v) || !ParseDim(v, block)) return Usage();
            have_block = true;
        } else if (a == "--shared") {
            if (!need(v) || !ParseU64(v, shared) || shared > (1u << 20)) return Usage();
        } else if (a == "--threads") {
            if (!need(v) || !ParseU64(v, threads) || threads > 1024) return Usage();
        } else if (a == "--no-check") {
            check = false;
        } else if (a == "--check-hazards") {
            hazards = true;
        } else if (a == "--trace") {
            trace = true;
        } else if (a.rfind("--", 0) == 0) {
            return Usage();
        } else {
            args.push_back(a);
        }
    }
    if (kernel.empty() || !have_grid || !have_block) return Usage();
    std::string bytes;
    if (!ReadFile(file, bytes)) {
        std::fprintf(stderr, "rndn-emu: cannot read %s\n", file.c_str());
        return 1;
    }
    rndn::sassemu::Device dev((unsigned)threads);
    auto mod = dev.LoadModule(std::vector<uint8_t>(bytes.begin(), bytes.end()));
    if (!mod.ok()) {
        std::fprintf(stderr, "rndn-emu: %s: %s\n", file.c_str(), mod.status().ToString().c_str());
        return 1;
    }
    const rndn::sassemu::Kernel *k = (*mod)->Find(kernel);
    if (!k) {
        std::fprintf(stderr, "rndn-emu: no kernel '%s' in %s\n", kernel.c_str(), file.c_str());
        return 1;
    }
    std::vector<Arg> launch_args;
    std::vector<OutBuf> outs;
    for (auto &a : args) {
        size_t c = a.find(':');
        if (c == std::string::npos) return Usage();
        std::string kind = a.substr(0, c), rest = a.substr(c + 1);
        char *end = nullptr;
        errno = 0;
        if (kind == "s32" || kind == "s64") {
            long long x = std::strtoll(rest.c_str(), &end, 0);
            if (*end || errno || rest.empty()) return Usage();
            launch_args.push_back(kind == "s32" ? Arg::S32((int32_t)x) : Arg::S64(x));
        } else if (kind == "u32" || kind == "u64") {
            uint64_t x;
            if (!ParseU64(rest, x)) return Usage();
            launch_args.push_back(kind == "u32" ? Arg::U32((uint32_t)x) : Arg::U64(x));
        } else if (kind == "f32" || kind == "f64") {
            double x = std::strtod(rest.c_str(), &end);
            if (*end || rest.empty()) return Usage();
            launch_args.push_back(kind == "f32" ? Arg::F32((float)x) : Arg::F64(x));
        } else if (kind == "in" || kind == "inout") {
            std::string in_file = rest, out_file;
            if (kind == "inout") {
                size_t c2 = rest.find(':');
                if (c2 == std::string::npos) return Usage();
                in_file = rest.substr(0, c2);
                out_file = rest.substr(c2 + 1);
            }
            std::string data;
            if (!ReadFile(in_file, data)) {
                std::fprintf(stderr, "rndn-emu: cannot read %s\n", in_file.c_str());
                return 1;
            }
            void *p = dev.Allocate(std::max<size_t>(data.size(), 1));
            std::memcpy(p, data.data(), data.size());
            launch_args.push_back(Arg::Ptr(p));
            if (kind == "inout") outs.push_back({p, data.size(), out_file});
        } else if (kind == "out") {
            size_t c2 = rest.find(':');
            uint64_t n;
            if (c2 == std::string::npos || !ParseU64(rest.substr(0, c2), n) || n > (1ull << 36)) return Usage();
            void *p = dev.Allocate(std::max<size_t>(n, 1));
            if (!p) {
                std::fprintf(stderr, "rndn-emu: cannot allocate %llu bytes\n", (unsigned long long)n);
                return 1;
            }
            launch_args.push_back(Arg::Ptr(p));
            outs.push_back({p, n, rest.substr(c2 + 1)});
        } else {
            std::fprintf(stderr, "rndn-emu: bad argument '%s'\n", a.c_str());
            return 2;
        }
    }
    rndn::sassemu::LaunchConfig cfg;
    cfg.grid = grid;
    cfg.block = block;
    cfg.dynamic_shared = (uint32_t)shared;
    cfg.check_bounds = check;
    cfg.check_hazards = hazards;
    cfg.trace = trace;
    rndn::sassemu::LaunchStats stats;
    Status st = dev.Launch(*k, cfg, launch_args, &stats);
    std::printf("run: %.3f ms on %u worker threads (%s), %llu warp instructions\n", stats.seconds * 1e3, dev.worker_threads(),
                (*mod)->arch_name(), (unsigned long long)stats.warp_instructions);
    if (hazards) {
        std::printf("hazards: %zu\n", stats.hazards.size());
        for (const auto &h : stats.hazards) std::printf("  %s 0x%04llx: %s\n", h.kernel.c_str(), (unsigned long long)h.address, h.what.c_str());
    }
    if (!st.ok()) {
        std::fprintf(stderr, "rndn-emu: %s\n", st.ToString().c_str());
        return 1;
    }
    for (auto &o : outs) {
        std::ofstream f(o.file, std::ios::binary);
        if (!f || !f.write((const char *)o.ptr, (std::streamsize)o.bytes)) {
            std::fprintf(stderr, "rndn-emu: cannot write %s\n", o.file.c_str());
            return 1;
        }
    }
    return hazards && !stats.hazards.empty() ? 3 : 0;
}
