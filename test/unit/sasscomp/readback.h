// Reading our cubins back with nvdisasm: its listing, instruction by instruction, against the text
// rndn::sasscomp meant to encode (compile_test.cpp over the corpus and the TPC-H kernels,
// exec_test.cpp's own PTX).  The emulator decodes with our own tables, so only NVIDIA's
// disassembler can say that the bits mean what we meant.
#pragma once

#include <gtest/gtest.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "sasscomp/sasscomp.h"

namespace rndn::sasscomp {

// nvdisasm's listing: per kernel, the instruction text at each 16-byte slot.
inline std::map<std::string, std::vector<std::string>> ListedInstructions(const std::string &listing) {
    std::map<std::string, std::vector<std::string>> out;
    std::vector<std::string> *cur = nullptr;
    std::istringstream in(listing);
    for (std::string l; std::getline(in, l);) {
        size_t t = l.find(".text.");
        if (t != std::string::npos && !l.empty() && l.back() == ':' && l.find("/*") == std::string::npos) {
            cur = &out[l.substr(t + 6, l.size() - t - 7)];
            continue;
        }
        if (l.find(".section") != std::string::npos || l.rfind("//----", 0) == 0) cur = nullptr;  // another section
        size_t a = l.find("/*"), e = a == std::string::npos ? a : l.find("*/", a);
        if (cur == nullptr || e == std::string::npos || e > a + 10) continue;
        size_t slot = std::strtoull(l.c_str() + a + 2, nullptr, 16) / 16;
        if (cur->size() <= slot) cur->resize(slot + 1);
        (*cur)[slot] = l.substr(e + 2);
    }
    return out;
}

// One spelling for both listings: single spaces, no trailing ';', c[0x0][RZ] (nvdisasm's spelling
// of a constant-bank load at offset 0) as c[0x0][0x0], and 32-bit immediates nvdisasm prints as
// negative ("-0x80000000") in their unsigned form.
inline std::string SameSpelling(std::string s) {
    size_t c = s.find("/*");
    if (c != std::string::npos) s = s.substr(0, c);
    std::string o;
    for (char ch : s) {
        if (ch == ' ' || ch == '\t') {
            if (!o.empty() && o.back() != ' ') o += ' ';
        } else {
            o += ch;
        }
    }
    while (!o.empty() && (o.back() == ' ' || o.back() == ';')) o.pop_back();
    for (size_t z; (z = o.find("][RZ]")) != std::string::npos;) o.replace(z, 5, "][0x0]");
    if (!o.empty() && o.front() == ' ') o.erase(0, 1);
    std::string r;
    for (size_t i = 0; i < o.size(); ++i) {
        if (o.compare(i, 3, "-0x") == 0 && (i == 0 || o[i - 1] == ' ' || o[i - 1] == ',')) {
            size_t j = i + 3;
            while (j < o.size() && std::isxdigit((unsigned char)o[j])) ++j;
            uint64_t v = std::strtoull(o.substr(i + 3, j - i - 3).c_str(), nullptr, 16);
            if (v > 0 && v <= 0x80000000ull) {
                char buf[16];
                std::snprintf(buf, sizeof buf, "0x%x", (unsigned)(0x100000000ull - v));
                r += buf;
                i = j - 1;
                continue;
            }
        }
        r += o[i];
    }
    return r;
}

// Compares nvdisasm's listing of our cubin with the text we meant to encode, kernel by kernel;
// reports up to `report` differences as failures and returns their number.  Branch targets are
// skipped (nvdisasm names its own labels), and IMAD with a zero multiplicand is nvdisasm's
// IMAD.MOV alias.
inline int ReadBackMismatches(const std::string &listing, const std::vector<std::pair<std::string, const CompiledKernel *>> &kernels,
                       const std::string &arch, int report) {
    std::map<std::string, std::vector<std::string>> listed = ListedInstructions(listing);
    int n = 0;
    for (const auto &[label, k] : kernels) {
        const std::vector<std::string> &theirs = listed[k->name];
        for (size_t i = 0; i < k->text.size(); ++i) {
            std::string ours = SameSpelling(k->text[i]);
            std::string nv = i < theirs.size() ? SameSpelling(theirs[i]) : "(missing)";
            if (ours.find("`(") != std::string::npos) continue;
            if (nv.rfind("IMAD.MOV ", 0) == 0 && ours.rfind("IMAD ", 0) == 0 && nv.substr(9) == ours.substr(5) && ours.find("RZ") != std::string::npos) continue;
            if (ours == nv) continue;
            if (++n <= report) ADD_FAILURE() << arch << " " << label << " @" << std::hex << 16 * i << std::dec << ": ours '" << ours << "', nvdisasm reads '" << nv << "'";
        }
    }
    return n;
}

}  // namespace rndn::sasscomp
