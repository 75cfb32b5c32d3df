// rndn-run: run one PTX kernel on the cpu device.
//
//   rndn-run FILE.ptx --kernel NAME --grid X[,Y,Z] --block X[,Y,Z] [--shared BYTES] [--threads N]
//            [--no-check] ARG...
//
// Each ARG, in parameter order: s32:V u32:V s64:V u64:V f32:V f64:V (scalars), in:FILE (buffer
// filled from FILE; the parameter is its address), out:BYTES:FILE (zeroed buffer written to FILE
// after the launch), inout:FILE:OUTFILE.  Prints the JIT and run times.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cpujit/cpujit.h"

namespace {

using rndn::Status;
using rndn::cpujit::Arg;
using rndn::cpujit::Dim3;

int Usage() {
    std::fprintf(stderr,
                 "usage: rndn-run FILE.ptx --kernel NAME --grid X[,Y,Z] --block X[,Y,Z] [--shared BYTES]\n"
                 "                [--threads N] [--no-check] ARG...\n"
                 "  ARG: s32:V u32:V s64:V u64:V f32:V f64:V | in:FILE | out:BYTES:FILE | inout:FILE:OUTFILE\n");
    return 2;
}

bool ParseU64(const std::string &s, uint64_t &out) {
    if (s.empty()) return false;
    char *end = nullptr;
    errno = 0;
    out = std::strtoull(s.c_str(), &end, 0);
    return *end == '\0' && errno == 0 && s[0] != '-';
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
    bool have_grid = false, have_block = false;
    uint64_t shared = 0, threads = 0;
    bool check = true;
    std::vector<std::string> args;
    for (int i = 2; i < argc; ++i) {
        std::string a = argv[i];
        auto need = [&](std::string &v) {
            if (i + 1 >= argc) return false;
            v = argv[++i];
            return true;
        };
        std::string v;
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
        } else if (a.rfind("--", 0) == 0) {
            return Usage();
        } else {
            args.push_back(a);
        }
    }
    if (kernel.empty() || !have_grid || !have_block) return Usage();
    std::string ptx;
    if (!ReadFile(file, ptx)) {
        std::fprintf(stderr, "rndn-run: cannot read %s\n", file.c_str());
        return 1;
    }
    rndn::cpujit::Device dev((unsigned)threads);
    auto mod = dev.LoadModule(ptx);
    if (!mod.ok()) {
        std::fprintf(stderr, "rndn-run: %s: %s\n", file.c_str(), mod.status().ToString().c_str());
        return 1;
    }
    const rndn::cpujit::Kernel *k = (*mod)->Find(kernel);
    if (!k) {
        std::fprintf(stderr, "rndn-run: no kernel '%s' in %s\n", kernel.c_str(), file.c_str());
        return 1;
    }
    std::vector<Arg> launch_args;
    std::vector<OutBuf> outs;
    for (auto &a : args) {
        size_t c = a.find(':');
        if (c == std::string::npos) {
            std::fprintf(stderr, "rndn-run: bad argument '%s'\n", a.c_str());
            return 2;
        }
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
                std::fprintf(stderr, "rndn-run: cannot read %s\n", in_file.c_str());
                return 1;
            }
            void *p = dev.Allocate(std::max<size_t>(data.size(), 1));
            std::memcpy(p, data.data(), data.size());
            launch_args.push_back(Arg::Ptr(p));
            if (kind == "inout") outs.push_back({p, data.size(), out_file});
        } else if (kind == "out") {
            size_t c2 = rest.find(':');
            uint64_t bytes;
            if (c2 == std::string::npos || !ParseU64(rest.substr(0, c2), bytes) || bytes > (1ull << 36)) return Usage();
            void *p = dev.Allocate(std::max<size_t>(bytes, 1));
            if (!p) {
                std::fprintf(stderr, "rndn-run: cannot allocate %llu bytes\n", (unsigned long long)bytes);
                return 1;
            }
            launch_args.push_back(Arg::Ptr(p));
            outs.push_back({p, bytes, rest.substr(c2 + 1)});
        } else {
            std::fprintf(stderr, "rndn-run: bad argument '%s'\n", a.c_str());
            return 2;
        }
    }
    rndn::cpujit::LaunchConfig cfg;
    cfg.grid = grid;
    cfg.block = block;
    cfg.dynamic_shared = (uint32_t)shared;
    cfg.check_bounds = check;
    auto t0 = std::chrono::steady_clock::now();
    Status st = dev.Launch(*k, cfg, launch_args);
    double run_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    std::printf("jit: %.3f ms (module), %.3f ms (kernel %s)\n", (*mod)->jit_ms(), k->jit_ms(), kernel.c_str());
    std::printf("run: %.3f ms on %u worker threads\n", run_ms, dev.worker_threads());
    if (!st.ok()) {
        std::fprintf(stderr, "rndn-run: %s\n", st.ToString().c_str());
        return 1;
    }
    for (auto &o : outs) {
        std::ofstream f(o.file, std::ios::binary);
        if (!f || !f.write((const char *)o.ptr, (std::streamsize)o.bytes)) {
            std::fprintf(stderr, "rndn-run: cannot write %s\n", o.file.c_str());
            return 1;
        }
    }
    return 0;
}
