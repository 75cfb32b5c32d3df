// Helpers shared by the assembler tests that consult NVIDIA's tools (nvdisasm, cuobjdump).
#pragma once

#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <algorithm>
#include <iterator>
#include <string>
#include <vector>

namespace rndn::sass::nvtools {

// The .venv copy installed by `make deps` (PyPI nvidia-cuda-nvdisasm / -cuobjdump), else PATH;
// "" when neither has it.
inline std::string ToolPath(const char *name) {
    std::string venv = std::string(".venv/lib/python3.11/site-packages/nvidia/cu13/bin/") + name;
    if (std::filesystem::exists(venv)) return venv;
    std::string cmd = std::string("command -v ") + name + " >/dev/null 2>&1";
    if (std::system(cmd.c_str()) == 0) return name;
    return "";
}

struct CmdResult {
    int status = -1;  // exit status, -1 when the command could not run or was killed
    std::string out;  // standard output
};

inline CmdResult Shell(const std::string &cmd) {
    CmdResult r;
    FILE *f = popen(cmd.c_str(), "r");
    if (!f) return r;
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) r.out.append(buf, n);
    int st = pclose(f);
    r.status = st != -1 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    return r;
}

inline std::string RunCmd(const std::string &cmd) { return Shell(cmd).out; }

inline std::vector<std::string> Lines(const std::string &text) {
    std::vector<std::string> out;
    size_t s = 0;
    while (s < text.size()) {
        size_t e = text.find('\n', s);
        if (e == std::string::npos) e = text.size();
        out.push_back(text.substr(s, e - s));
        s = e + 1;
    }
    return out;
}

// The corpus cubins ptxas built for `arch` (e.g. "sm_80"), sorted; `make corpus` builds them.
inline std::vector<std::string> CorpusCubins(const std::string &arch) {
    std::vector<std::string> out;
    std::string dir = "build/corpus/" + arch;
    if (std::filesystem::exists(dir))
        for (const auto &e : std::filesystem::directory_iterator(dir))
            if (e.path().extension() == ".cubin") out.push_back(e.path().string());
    std::sort(out.begin(), out.end());
    return out;
}

inline std::vector<uint8_t> ReadFile(const std::string &p) {
    std::ifstream in(p, std::ios::binary);
    return std::vector<uint8_t>((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

}  // namespace rndn::sass::nvtools
