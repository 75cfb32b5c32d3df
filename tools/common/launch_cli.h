// The command line that rndn-run (cpu device) and rndn-emu (SASS emulator) share: the file,
// --kernel, --grid, --block, --shared, --threads, --no-check, tool-specific boolean flags, and
// the kernel arguments in parameter order:
//   s32:V u32:V s64:V u64:V f32:V f64:V   scalars
//   in:FILE                                a buffer filled from FILE; the parameter is its address
//   out:BYTES:FILE                         a zeroed buffer written to FILE after the launch
//   inout:FILE:OUTFILE                     filled from FILE, written to OUTFILE after the launch
// Header-only: each tool instantiates BuildArgs with its device's argument type.
#pragma once

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace rndn::tools {

inline bool ParseU64(const std::string &s, uint64_t &out) {
    if (s.empty() || s[0] == '-') return false;
    char *end = nullptr;
    errno = 0;
    out = std::strtoull(s.c_str(), &end, 0);
    return *end == '\0' && errno == 0;
}

// "X[,Y,Z]", every extent in 1..2^32-1.
inline bool ParseDim(const std::string &s, uint32_t dim[3]) {
    uint64_t v[3] = {1, 1, 1};
    std::stringstream ss(s);
    std::string part;
    int k = 0;
    while (std::getline(ss, part, ',')) {
        if (k == 3 || !ParseU64(part, v[k]) || v[k] == 0 || v[k] > 0xFFFFFFFFull) return false;
        ++k;
    }
    if (k == 0) return false;
    for (int i = 0; i < 3; ++i) dim[i] = (uint32_t)v[i];
    return true;
}

inline bool ReadWholeFile(const std::string &path, std::string &out) {
    std::ifstream f(path, std::ios::binary);
    if (!f) return false;
    std::stringstream ss;
    ss << f.rdbuf();
    out = ss.str();
    return true;
}

struct LaunchCli {
    std::string file, kernel;
    uint32_t grid[3] = {1, 1, 1}, block[3] = {1, 1, 1};
    uint64_t shared = 0, threads = 0;
    bool check = true;
    std::vector<std::string> flags;  // the tool-specific flags given
    std::vector<std::string> args;   // kernel arguments, in order

    bool Has(const std::string &flag) const { return std::find(flags.begin(), flags.end(), flag) != flags.end(); }
};

// False on a malformed command line (the caller prints its usage).
inline bool ParseLaunchCli(int argc, char **argv, const std::vector<std::string> &extra_flags, LaunchCli &cli) {
    if (argc < 2) return false;
    cli.file = argv[1];
    bool have_grid = false, have_block = false;
    for (int i = 2; i < argc; ++i) {
        std::string a = argv[i], v;
        auto need = [&](std::string &out) {
            if (i + 1 >= argc) return false;
            out = argv[++i];
            return true;
        };
        if (a == "--kernel") {
            if (!need(cli.kernel)) return false;
        } else if (a == "--grid") {
            if (!need(v) || !ParseDim(v, cli.grid)) return false;
            have_grid = true;
        } else if (a == "--block") {
            if (!need(v) || !ParseDim(v, cli.block)) return false;
            have_block = true;
        } else if (a == "--shared") {
            if (!need(v) || !ParseU64(v, cli.shared) || cli.shared > (1u << 20)) return false;
        } else if (a == "--threads") {
            if (!need(v) || !ParseU64(v, cli.threads) || cli.threads > 1024) return false;
        } else if (a == "--no-check") {
            cli.check = false;
        } else if (std::find(extra_flags.begin(), extra_flags.end(), a) != extra_flags.end()) {
            cli.flags.push_back(a);
        } else if (a.rfind("--", 0) == 0) {
            return false;
        } else {
            cli.args.push_back(a);
        }
    }
    return !cli.kernel.empty() && have_grid && have_block;
}

struct OutBuf {
    void *ptr;
    size_t bytes;
    std::string file;
};

// Turns cli.args into the device's arguments; alloc(bytes) returns device memory or nullptr.
// Returns 0, 1 (an input or allocation failed, said on stderr) or 2 (a malformed argument).
template <class Arg, class Alloc>
int BuildArgs(const char *tool, const std::vector<std::string> &args, Alloc alloc, std::vector<Arg> &out,
              std::vector<OutBuf> &outs) {
    for (const std::string &a : args) {
        size_t c = a.find(':');
        if (c == std::string::npos) {
            std::fprintf(stderr, "%s: bad argument '%s'\n", tool, a.c_str());
            return 2;
        }
        std::string kind = a.substr(0, c), rest = a.substr(c + 1);
        char *end = nullptr;
        errno = 0;
        if (kind == "s32" || kind == "s64") {
            long long x = std::strtoll(rest.c_str(), &end, 0);
            if (*end || errno || rest.empty()) return 2;
            out.push_back(kind == "s32" ? Arg::S32((int32_t)x) : Arg::S64(x));
        } else if (kind == "u32" || kind == "u64") {
            uint64_t x;
            if (!ParseU64(rest, x)) return 2;
            out.push_back(kind == "u32" ? Arg::U32((uint32_t)x) : Arg::U64(x));
        } else if (kind == "f32" || kind == "f64") {
            double x = std::strtod(rest.c_str(), &end);
            if (*end || rest.empty()) return 2;
            out.push_back(kind == "f32" ? Arg::F32((float)x) : Arg::F64(x));
        } else if (kind == "in" || kind == "inout") {
            std::string in_file = rest, out_file;
            if (kind == "inout") {
                size_t c2 = rest.find(':');
                if (c2 == std::string::npos) return 2;
                in_file = rest.substr(0, c2);
                out_file = rest.substr(c2 + 1);
            }
            std::string data;
            if (!ReadWholeFile(in_file, data)) {
                std::fprintf(stderr, "%s: cannot read %s\n", tool, in_file.c_str());
                return 1;
            }
            void *p = alloc(std::max<size_t>(data.size(), 1));
            if (!p) {
                std::fprintf(stderr, "%s: cannot allocate %zu bytes\n", tool, data.size());
                return 1;
            }
            std::memcpy(p, data.data(), data.size());
            out.push_back(Arg::Ptr(p));
            if (kind == "inout") outs.push_back({p, data.size(), out_file});
        } else if (kind == "out") {
            size_t c2 = rest.find(':');
            uint64_t bytes;
            if (c2 == std::string::npos || !ParseU64(rest.substr(0, c2), bytes) || bytes > (1ull << 36)) return 2;
            void *p = alloc(std::max<size_t>(bytes, 1));
            if (!p) {
                std::fprintf(stderr, "%s: cannot allocate %llu bytes\n", tool, (unsigned long long)bytes);
                return 1;
            }
            out.push_back(Arg::Ptr(p));
            outs.push_back({p, bytes, rest.substr(c2 + 1)});
        } else {
            std::fprintf(stderr, "%s: bad argument '%s'\n", tool, a.c_str());
            return 2;
        }
    }
    return 0;
}

// Writes the out/inout buffers to their files; 0, or 1 when one cannot be written.
inline int WriteOuts(const char *tool, const std::vector<OutBuf> &outs) {
    for (const OutBuf &o : outs) {
        std::ofstream f(o.file, std::ios::binary);
        if (!f || !f.write((const char *)o.ptr, (std::streamsize)o.bytes)) {
            std::fprintf(stderr, "%s: cannot write %s\n", tool, o.file.c_str());
            return 1;
        }
    }
    return 0;
}

}  // namespace rndn::tools
