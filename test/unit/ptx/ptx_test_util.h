// Helpers shared by the PTX unit tests: files, the corpus, running NVIDIA's tools.
#pragma once

#include <dirent.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace rndn::ptx::testing {

inline const std::vector<std::string> &CorpusArchs() {
    static const std::vector<std::string> archs = {"sm_75", "sm_80", "sm_86", "sm_89", "sm_90"};
    return archs;
}

inline bool ReadFile(const std::string &path, std::string &out) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return false;
    std::ostringstream ss;
    ss << in.rdbuf();
    out = ss.str();
    return true;
}

inline bool WriteFile(const std::string &path, const std::string &text) {
    std::ofstream out(path, std::ios::binary);
    out << text;
    return static_cast<bool>(out);
}

// Sorted list of files in `dir` whose names end with `suffix`.
inline std::vector<std::string> ListFiles(const std::string &dir, const std::string &suffix) {
    std::vector<std::string> out;
    DIR *d = opendir(dir.c_str());
    if (!d) return out;
    while (dirent *e = readdir(d)) {
        std::string n = e->d_name;
        if (n.size() > suffix.size() && n.compare(n.size() - suffix.size(), suffix.size(), suffix) == 0) out.push_back(n);
    }
    closedir(d);
    std::sort(out.begin(), out.end());
    return out;
}

inline bool FileExists(const std::string &p) {
    struct stat st;
    return stat(p.c_str(), &st) == 0;
}

// Runs a shell command, capturing stdout+stderr.  Returns the exit status (-1 if it did not run).
inline int RunCommand(const std::string &cmd, std::string *output = nullptr) {
    std::string full = cmd + " 2>&1";
    FILE *p = popen(full.c_str(), "r");
    if (!p) return -1;
    std::string out;
    std::array<char, 4096> buf;
    size_t n;
    while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) out.append(buf.data(), n);
    int st = pclose(p);
    if (output) *output = out;
    if (st == -1) return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

inline std::string Ptxas() { return "/usr/local/cuda/bin/ptxas"; }

// cuobjdump ships in the project's venv (pip nvidia-cuda-cuobjdump); empty if not found.
inline std::string Cuobjdump() {
    const char *candidates[] = {".venv/lib/python3.11/site-packages/nvidia/cu13/bin/cuobjdump", "/usr/local/cuda/bin/cuobjdump"};
    for (const char *c : candidates)
        if (FileExists(c)) return c;
    return "";
}

// A fresh temporary directory, removed by the destructor.
class TempDir {
public:
    TempDir() {
        char tmpl[] = "/tmp/rndn_ptx_test_XXXXXX";
        const char *d = mkdtemp(tmpl);
        path_ = d ? d : "";
    }
    ~TempDir() {
        if (!path_.empty()) RunCommand("rm -rf '" + path_ + "'");
    }
    TempDir(const TempDir &) = delete;
    TempDir &operator=(const TempDir &) = delete;
    const std::string &path() const { return path_; }

private:
    std::string path_;
};

}  // namespace rndn::ptx::testing
