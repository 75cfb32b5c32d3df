// rndn-asm FILE.ptx --arch sm_XX -o FILE.cubin [--listing] : compiles PTX to a cubin with rndn's
//          own compiler (src/sasscomp); --listing prints the SASS with its control codes.
// rndn-asm --sass FILE.sass --arch sm_XX -o FILE.cubin : assembles an rndn-dis listing.
// rndn-asm --cubin IN.cubin -o OUT.cubin [--layout] : reads and rewrites a cubin (writer check;
//          --layout recomputes every offset with LayOut instead of keeping the recorded ones).
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include "assembler/assembler.h"
#include "ptx/ptx.h"
#include "sasscomp/sasscomp.h"

namespace {
int Usage() {
    std::cerr << "usage: rndn-asm FILE.ptx --arch sm_XX -o FILE.cubin [--listing]\n"
                 "       rndn-asm --sass FILE.sass --arch sm_XX -o FILE.cubin\n"
                 "       rndn-asm --cubin IN.cubin -o OUT.cubin [--layout]\n";
    return 2;
}
int CompilePtx(const std::string &file, const std::string &arch_name, const std::string &out, bool listing) {
    if (arch_name.empty() || out.empty()) return Usage();
    auto arch = rndn::sass::ParseArch(arch_name);
    if (!arch.ok()) {
        std::cerr << "rndn-asm: " << arch.status().ToString() << "\n";
        return 1;
    }
    std::ifstream in(file, std::ios::binary);
    if (!in) {
        std::cerr << "rndn-asm: cannot open " << file << "\n";
        return 1;
    }
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    auto mod = rndn::ptx::ParseModule(text, file);
    if (!mod.ok()) {
        std::cerr << "rndn-asm: " << mod.status().message() << "\n";
        return 1;
    }
    auto ks = rndn::sasscomp::CompileModule(*mod, *arch);
    if (!ks.ok()) {
        std::cerr << "rndn-asm: " << ks.status().message() << "\n";
        return 1;
    }
    if (listing)
        for (const auto &k : *ks) std::cout << rndn::sasscomp::FormatListing(k);
    auto bytes = rndn::sasscomp::BuildCubin(*ks, *arch);
    if (!bytes.ok()) {
        std::cerr << "rndn-asm: " << bytes.status().message() << "\n";
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
}  // namespace

int main(int argc, char **argv) {
    std::string sass, cubin, arch, out, ptxfile;
    bool layout = false, listing = false;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--sass" && i + 1 < argc) sass = argv[++i];
        else if (a == "--cubin" && i + 1 < argc) cubin = argv[++i];
        else if (a == "--arch" && i + 1 < argc) arch = argv[++i];
        else if (a == "-o" && i + 1 < argc) out = argv[++i];
        else if (a == "--layout") layout = true;
        else if (a == "--listing") listing = true;
        else if (!a.empty() && a[0] != '-' && ptxfile.empty()) ptxfile = a;
        else return Usage();
    }
    if (!ptxfile.empty()) return CompilePtx(ptxfile, arch, out, listing);
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
