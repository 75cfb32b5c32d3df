// libFuzzer target for the PTX front end: ParseModule must never crash; for input that parses
// and verifies, Print must produce text that parses, verifies and prints identically.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "ptx/ptx.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > (1u << 16)) return 0;
    std::string_view text(reinterpret_cast<const char *>(data), size);
    auto m = rndn::ptx::ParseModule(text, "fuzz.ptx");
    if (!m.ok()) {
        if (m.status().code() != rndn::Code::PARSE_ERROR) std::abort();
        return 0;
    }
    rndn::Status st = rndn::ptx::Verify(*m);
    std::string p1 = rndn::ptx::Print(*m);
    if (!st.ok()) return 0;
    auto m2 = rndn::ptx::ParseModule(p1, "printed.ptx");
    if (!m2.ok()) std::abort();
    if (!rndn::ptx::Verify(*m2).ok()) std::abort();
    if (rndn::ptx::Print(*m2) != p1) std::abort();
    return 0;
}
