// rndn-ptx: command-line front end of the PTX front end (src/ptx).
//   rndn-ptx check FILE.ptx...   parse + verify; prints errors; exit 1 if any file fails
//   rndn-ptx print FILE.ptx      parse + verify, print the canonical text on stdout
// FILE may be "-" for standard input.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "ptx/ptx.h"

namespace {

bool ReadAll(const std::string &path, std::string &out) {
    if (path == "-") {
        std::ostringstream ss;
        ss << std::cin.rdbuf();
        out = ss.str();
        return true;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) return false;
    std::ostringstream ss;
    ss << in.rdbuf();
    out = ss.str();
    return true;
}

int Usage() {
    std::fprintf(stderr, "usage: rndn-ptx check FILE.ptx...\n       rndn-ptx print FILE.ptx\n");
    return 2;
}

rndn::Expected<rndn::ptx::Module> Load(const std::string &path) {
    std::string text;
    if (!ReadAll(path, text)) return rndn::Status::UserError(rndn::sqlstate::kInvalidParameter, "cannot read " + path);
    auto m = rndn::ptx::ParseModule(text, path);
    if (!m.ok()) return m;
    rndn::Status st = rndn::ptx::Verify(*m);
    if (!st.ok()) return st;
    return m;
}

}  // namespace

int main(int argc, char **argv) {
    if (argc < 3) return Usage();
    std::string cmd = argv[1];
    if (cmd == "check") {
        int bad = 0;
        for (int i = 2; i < argc; ++i) {
            auto m = Load(argv[i]);
            if (!m.ok()) {
                std::fprintf(stderr, "%s\n", m.status().message().c_str());
                ++bad;
            }
        }
        return bad ? 1 : 0;
    }
    if (cmd == "print") {
        if (argc != 3) return Usage();
        auto m = Load(argv[2]);
        if (!m.ok()) {
            std::fprintf(stderr, "%s\n", m.status().message().c_str());
            return 1;
        }
        std::string text = rndn::ptx::Print(*m);
        std::fwrite(text.data(), 1, text.size(), stdout);
        return 0;
    }
    return Usage();
}
