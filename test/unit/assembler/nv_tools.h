// Helpers shared by the assembler tests that consult NVIDIA's tools (nvdisasm, cuobjdump).
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstring>

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

#include "assembler/assembler.h"

namespace rndn::sass::nvtools {

// What nvdisasm prints for arbitrary instruction words: they replace the code of the largest
// function of a carrier cubin (the corpus cubin of `arch` that has it; the section is resized to
// hold them all and the file laid out again), nvdisasm -c reads it, and the text at each word's
// address comes back.  nvdisasm refuses a whole file when a word is not an instruction and names
// its address: such words are replaced by the carrier's first instruction and come back as "".
inline std::vector<std::string> NvdisasmTexts(const std::string &nvdisasm, Arch arch, const std::vector<Word> &words,
                                              std::string *error = nullptr) {
    std::vector<std::string> out(words.size());
    std::string carrier;
    size_t best = 0;
    int section = -1;
    for (const std::string &p : CorpusCubins(GetArchInfo(arch).name)) {
        auto elf = ReadCubin(ReadFile(p));
        if (!elf.ok()) continue;
        for (size_t i = 0; i < elf->sections.size(); ++i)
            if (elf->sections[i].name.rfind(".text.", 0) == 0 && elf->sections[i].data.size() > best)
                best = elf->sections[i].data.size(), carrier = p, section = static_cast<int>(i);
    }
    if (carrier.empty()) {
        if (error) *error = "no carrier cubin (make corpus)";
        return out;
    }
    auto elf = ReadCubin(ReadFile(carrier));
    const std::string fn = elf->sections[section].name.substr(6);
    Word filler;
    std::memcpy(&filler.lo, elf->sections[section].data.data(), 8);
    std::memcpy(&filler.hi, elf->sections[section].data.data() + 8, 8);
    std::vector<Word> ws = words;
    std::vector<bool> illegal(words.size(), false);
    std::string tmp = (std::filesystem::temp_directory_path() / ("rndn_nvwords_" + std::to_string(getpid()) + ".cubin")).string();
    for (int attempt = 0; attempt < 16; ++attempt) {
        ElfFile e = *elf;
        // The carrier's own code stays after the words (shrinking the section would leave its
        // .nv.info offsets, e.g. of EXIT, outside it).
        std::vector<uint8_t> code = elf->sections[section].data;
        if (code.size() < ws.size() * 16) code.resize(ws.size() * 16);
        for (size_t k = 0; k < ws.size(); ++k) {
            std::memcpy(code.data() + 16 * k, &ws[k].lo, 8);
            std::memcpy(code.data() + 16 * k + 8, &ws[k].hi, 8);
        }
        e.sections[section].data = code;
        LayOut(&e);
        auto bytes = WriteCubin(e);
        if (!bytes.ok()) break;
        std::ofstream(tmp, std::ios::binary).write(reinterpret_cast<const char *>(bytes->data()), bytes->size());
        std::vector<std::string> lines = Lines(RunCmd(nvdisasm + " -c '" + tmp + "' 2>&1"));
        bool any_bad = false;
        for (const std::string &l : lines) {
            size_t at = l.find("at address 0x");
            if (l.rfind("nvdisasm error", 0) != 0 || at == std::string::npos) continue;
            size_t idx = std::strtoull(l.c_str() + at + 13, nullptr, 16) / 16;
            if (idx < ws.size() && !illegal[idx]) illegal[idx] = true, ws[idx] = filler, any_bad = true;
        }
        if (any_bad) continue;
        std::string cur;
        for (const std::string &l : lines) {
            if (l.rfind("//--------------------- .text.", 0) == 0) {
                cur = l.substr(30, l.find(' ', 30) - 30);
                continue;
            }
            size_t a = l.find("/*");
            size_t close = a == std::string::npos ? std::string::npos : l.find("*/", a);
            if (cur != fn || close == std::string::npos || close > a + 10) continue;
            size_t addr = std::strtoull(l.substr(a + 2, close - a - 2).c_str(), nullptr, 16);
            if (addr % 16 || addr / 16 >= words.size() || illegal[addr / 16]) continue;
            std::string text = l.substr(close + 2);
            size_t semi = text.rfind(';');
            if (semi != std::string::npos) text = text.substr(0, semi);
            while (!text.empty() && text.back() == ' ') text.pop_back();
            size_t b = text.find_first_not_of(' ');
            out[addr / 16] = b == std::string::npos ? "" : text.substr(b);
        }
        break;
    }
    std::filesystem::remove(tmp);
    return out;
}

}  // namespace rndn::sass::nvtools
