// Kernel-IR helpers.
#include "cpujit/kir.h"

namespace rndn::cpujit::kir {
namespace {

struct TypeInfo {
    const char *name;
    int bits;
};
constexpr TypeInfo kTypes[] = {
    {"pred", 1}, {"b8", 8},   {"u8", 8},   {"s8", 8},   {"b16", 16}, {"u16", 16}, {"s16", 16}, {"f16", 16},
    {"b32", 32}, {"u32", 32}, {"s32", 32}, {"f32", 32}, {"b64", 64}, {"u64", 64}, {"s64", 64}, {"f64", 64},
    {"f16x2", 32}, {"bf16", 16}, {"b128", 128},
};

}  // namespace

int TypeBits(const std::string &type) {
    for (auto &ti : kTypes)
        if (type == ti.name) return ti.bits;
    return 0;
}

}  // namespace rndn::cpujit::kir
