// libFuzzer target: SASS instruction text and rndn listings.  Malformed input must give an error
// value, never a crash.
#include <cstddef>
#include <cstdint>
#include <string>

#include "assembler/assembler.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    std::string text(reinterpret_cast<const char *>(data), size);
    auto split = rndn::sass::SplitInstructionText(text);
    auto isa = rndn::sass::Isa::Get(rndn::sass::Arch::SM_86);
    if (isa.ok()) {
        auto inst = (*isa)->Parse(text, [](const std::string &) -> rndn::Expected<int64_t> { return int64_t{0x100}; });
        if (inst.ok()) {
            auto w = (*isa)->Encode(*inst, 0);
            if (w.ok()) (void)(*isa)->Decode(*w, 0);
        }
    }
    (void)rndn::sass::ParseControl(text);
    auto elf = rndn::sass::Assemble(text);
    if (elf.ok()) (void)rndn::sass::WriteCubin(*elf);
    return 0;
}
