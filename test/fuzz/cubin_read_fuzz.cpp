// libFuzzer target: the cubin reader, decoder and listing printer on arbitrary bytes.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "assembler/assembler.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    std::vector<uint8_t> bytes(data, data + size);
    auto elf = rndn::sass::ReadCubin(bytes);
    if (!elf.ok()) return 0;
    (void)rndn::sass::WriteCubin(*elf);
    (void)rndn::sass::ReadSymbols(*elf);
    auto listing = rndn::sass::Disassemble(*elf);
    if (listing.ok()) (void)rndn::sass::Assemble(*listing);
    return 0;
}
