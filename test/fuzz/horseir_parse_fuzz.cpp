// libFuzzer target: HorseIR parser, type checker, shape analysis and printer on arbitrary text.
// A program that parses must check without crashing, and its printed form must parse again and
// print the same; a program that checks must get its shapes (or a shape error) without crashing.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "horseir/horseir.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    std::string text(reinterpret_cast<const char *>(data), size);
    auto p = rndn::hir::ParseProgram(text, "fuzz.hir");
    if (!p.ok()) return 0;
    std::string printed = rndn::hir::PrintProgram(*p);
    auto q = rndn::hir::ParseProgram(printed, "fuzz.hir");
    if (!q.ok()) std::abort();  // printer output must always parse
    if (rndn::hir::PrintProgram(*q) != printed) std::abort();
    if (rndn::hir::CheckProgram(*p).ok()) (void)rndn::hir::InferShapes(*p);
    return 0;
}
