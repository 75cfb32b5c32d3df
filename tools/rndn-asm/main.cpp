// rndn-asm --sass FILE.sass --arch sm_XX -o FILE.cubin : assembles an rndn-dis listing.
// rndn-asm --cubin IN.cubin -o OUT.cubin [--layout] : reads and rewrites a cubin (writer check;
//          --layout recomputes every offset with LayOut instead of keeping the recorded ones).
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include "assembler/assembler.h"

namespace {
int Usage() {
    std::cerr << "usage: rndn-asm --sass FILE.sass --arch sm_XX -o FILE.cubin\n"
                 "       rndn-asm --cubin IN.cubin -o OUT.cubin [--layout]\n";
    return 2;
}
}  // namespace

int main(int argc, char **argv) {
    std::string sass, cubin, arch, out;
    bool layout = false;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--sass" && i + 1 < argc) sass = argv[++i];
        else if (a == "--cubin" && i + 1 < argc) cubin = argv[++i];
        else if (a == "--arch" && i + 1 < argc) arch = argv[++i];
        else if (a == "-o" && i + 1 < argc) out = argv[++i];
        else if (a == "--layout") layout = true;
        else return Usage();
    }
    if (out.empty() || sass.empty() == cubin.empty()) return Usage();
    std::ifstream in(sass.empty() ? cubin : sass, std::ios::binary);
    if (!in) {
        std::cerr << "rndn-asm: cannot open " << (sass.empty() ? cubin : sass) << "\n";
        return 1;
    }
    std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    rndn::Expected<rndn::sass::ElfFile> elf = rndn::Status::Internal("unset");
    if (!sass.empty()) {
        elf = rndn::sass::Assemble(content);
        if (elf.ok() && !arch.empty()) {
            auto want = rndn::sass::ParseArch(arch);
            if (!want.ok()) {
                std::cerr << "rndn-asm: " << want.status().ToString() << "\n";
                return 1;
            }
            auto have = elf->GetArch();
            if (!have.ok() || *have != *want) {
                std::cerr << "rndn-asm: " << sass << ": listing is not for " << arch << "\n";
                return 1;
            }
        }
    } else {
        elf = rndn::sass::ReadCubin(std::vector<uint8_t>(content.begin(), content.end()));
    }
    if (!elf.ok()) {
        std::cerr << "rndn-asm: " << (sass.empty() ? cubin : sass) << ":" << elf.status().message() << "\n";
        return 1;
    }
    if (layout) rndn::sass::LayOut(&*elf);
    auto bytes = rndn::sass::WriteCubin(*elf);
    if (!bytes.ok()) {
        std::cerr << "rndn-asm: " << bytes.status().ToString() << "\n";
        return 1;
    }
    std::ofstream o(out, std::ios::binary);
    o.write(reinterpret_cast<const char *>(bytes->data()), static_cast<std::streamsize>(bytes->size()));
    if (!o) {
        std::cerr << "rndn-asm: cannot write " << out << "\n";
        return 1;
    }
    return 0;
}
