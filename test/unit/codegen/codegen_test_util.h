// Helpers shared by the codegen unit tests: the cpu device they run kernels on, column
// descriptions, printing a run's outcome, reading files and running NVIDIA's tools.
#pragma once

#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "codegen/codegen.h"
#include "cpujit/cpujit.h"

namespace rndn::codegen::testing {

// One cpu device per test binary (2 workers).
inline cpujit::Device &Dev() {
    static cpujit::Device d(2);
    return d;
}

// A generated table's column.
struct Col {
    std::string name;
    hir::Type type;
};

// A run's value as text, or its error as "ERROR <sqlstate> <message>".
inline std::string Show(const Expected<hir::Value> &r) {
    if (!r.ok()) return "ERROR " + std::string(r.status().sqlstate().chars) + " " + r.status().message();
    return hir::FormatValue(*r);
}

inline std::string ReadAll(const std::string &path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// A shell command's exit status (-1: it could not run or was killed), its output and errors in *out.
inline int RunShell(const std::string &cmd, std::string *out) {
    FILE *f = popen((cmd + " 2>&1").c_str(), "r");
    if (!f) return -1;
    char buf[4096];
    size_t k;
    while ((k = fread(buf, 1, sizeof buf, f)) > 0) out->append(buf, k);
    int st = pclose(f);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

}  // namespace rndn::codegen::testing
