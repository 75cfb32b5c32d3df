// rndn-dis FILE.cubin : prints the cubin as an rndn listing (nvdisasm-style instruction text with
// control fields, plus the directives rndn-asm needs to rebuild the ELF).
#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>

#include "assembler/assembler.h"

int main(int argc, char **argv) {
    if (argc != 2 || std::string(argv[1]) == "--help") {
        std::cerr << "usage: rndn-dis FILE.cubin\n";
        return 2;
    }
    std::ifstream in(argv[1], std::ios::binary);
    if (!in) {
        std::cerr << "rndn-dis: cannot open " << argv[1] << "\n";
        return 1;
    }
    std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    auto elf = rndn::sass::ReadCubin(bytes);
    if (!elf.ok()) {
        std::cerr << "rndn-dis: " << argv[1] << ": " << elf.status().ToString() << "\n";
        return 1;
    }
    auto text = rndn::sass::Disassemble(*elf);
    if (!text.ok()) {
        std::cerr << "rndn-dis: " << argv[1] << ": " << text.status().ToString() << "\n";
        return 1;
    }
    std::fwrite(text->data(), 1, text->size(), stdout);
    return 0;
}
