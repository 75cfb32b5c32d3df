// Smallest fuzz target: keeps the fuzz build path itself tested.  Real targets live beside it.
#include <cstddef>
#include <cstdint>
#include <string>

#include "common/status.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    std::string text(reinterpret_cast<const char *>(data), size);
    rndn::Status st = size % 2 ? rndn::Status::ParseError(text) : rndn::Status::Ok();
    (void)st.ToString();
    return 0;
}
