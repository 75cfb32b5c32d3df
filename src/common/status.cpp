#include "common/status.h"

namespace rndn {

const char *CodeName(Code code) {
    static constexpr const char *kNames[] = {"ok", "unsupported", "error", "cancelled", "out of memory", "internal error", "parse error"};
    static_assert(sizeof(kNames) / sizeof(kNames[0]) == static_cast<int>(Code::PARSE_ERROR) + 1);
    return kNames[static_cast<int>(code)];
}

std::string Status::ToString() const {
    if (ok()) return "ok";
    return std::string(CodeName(code_)) + ": " + message_;
}

}  // namespace rndn
