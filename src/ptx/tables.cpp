// Tables generated from types.def, modifiers.def, sregs.def and opcodes.def, plus name lookups.
#include <algorithm>
#include <array>
#include <cstring>
#include <string>
#include <utility>

#include "ptx/internal.h"
#include "ptx/ptx.h"

namespace rndn::ptx {
namespace {

// ---- types ----
struct TypeRow {
    const char *name;
    uint32_t bits;
    TypeKind kind;
};
constexpr TypeRow kTypes[] = {
    {"", 0, TypeKind::NONE},
#define PTX_TYPE(e, s, bits, kind) {s, bits, TypeKind::kind},
#include "ptx/types.def"
#undef PTX_TYPE
};
static_assert(std::size(kTypes) == static_cast<size_t>(Type::COUNT));

// ---- modifiers ----
struct ModTokenRow {
    const char *token;  // row index = enum value
};
#define PTX_MV(m, tok) {tok},
#define PTX_MOD_ENUM(g, field, T, ...) constexpr ModTokenRow kTok_##g[] = {{""}, __VA_ARGS__};
#define PTX_MOD_FLAG(g, field, tok) constexpr ModTokenRow kTok_##g[] = {{""}, {tok}};
#include "ptx/modifiers.def"
#undef PTX_MOD_ENUM
#undef PTX_MOD_FLAG
#undef PTX_MV

struct ModGroupRow {
    const char *name;
    const ModTokenRow *tokens;
    size_t count;  // including the empty row 0
};
constexpr ModGroupRow kGroups[] = {
    {"NONE", nullptr, 0},
#define PTX_MOD_ENUM(g, field, T, ...) {#g, kTok_##g, std::size(kTok_##g)},
#define PTX_MOD_FLAG(g, field, tok) {#g, kTok_##g, std::size(kTok_##g)},
#include "ptx/modifiers.def"
#undef PTX_MOD_ENUM
#undef PTX_MOD_FLAG
};
static_assert(std::size(kGroups) == static_cast<size_t>(ModGroup::COUNT));

// ---- special registers ----
struct SregRow {
    const char *name;
    Type type;
};
constexpr SregRow kSregs[] = {
    {"", Type::NONE},
#define PTX_SREG(e, name, type) {name, Type::type},
#include "ptx/sregs.def"
#undef PTX_SREG
};
static_assert(std::size(kSregs) == static_cast<size_t>(SpecialReg::COUNT));

// ---- opcodes ----
constexpr TypeSet TypeSetOf(std::initializer_list<Type> ts) {
    TypeSet s = 0;
    for (Type t : ts) s |= TypeBit(t);
    return s;
}

namespace optable {
#define PTX_TYPE(e, s, bits, kind) constexpr Type e = Type::e;
#include "ptx/types.def"
#undef PTX_TYPE
#define PTX_MOD_ENUM(g, field, T, ...) constexpr ModGroup g = ModGroup::g;
#define PTX_MOD_FLAG(g, field, tok) constexpr ModGroup g = ModGroup::g;
#include "ptx/modifiers.def"
#undef PTX_MOD_ENUM
#undef PTX_MOD_FLAG
#define PTX_TS(...) TypeSetOf({__VA_ARGS__})
#define PTX_GROUPS(...) {__VA_ARGS__}
constexpr OpcodeInfo kOpcodes[] = {
    {Opcode::NONE, "", 0, 0, {}, "", 0},
#define PTX_OP(e, mn, ts, ts2, groups, sig, flags) {Opcode::e, mn, ts, ts2, groups, sig, flags},
#include "ptx/opcodes.def"
#undef PTX_OP
};
#undef PTX_TS
#undef PTX_GROUPS
}  // namespace optable
using optable::kOpcodes;
static_assert(std::size(kOpcodes) == static_cast<size_t>(Opcode::COUNT));

constexpr bool OpcodeRowsInOrder() {
    for (size_t i = 0; i < std::size(kOpcodes); ++i)
        if (static_cast<size_t>(kOpcodes[i].opcode) != i) return false;
    return true;
}
static_assert(OpcodeRowsInOrder(), "opcodes.def rows must follow the enum order");

// Sorted name index for binary search.
template <size_t N, class Row, class Key>
std::array<std::pair<std::string_view, Key>, N> SortedIndex(const Row (&rows)[N], std::string_view (*name_of)(const Row &),
                                                            Key (*key_of)(size_t)) {
    std::array<std::pair<std::string_view, Key>, N> idx{};
    for (size_t i = 0; i < N; ++i) idx[i] = {name_of(rows[i]), key_of(i)};
    std::sort(idx.begin(), idx.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
    return idx;
}

template <class Arr, class Key>
Key LookupSorted(const Arr &idx, std::string_view name, Key none) {
    auto it = std::lower_bound(idx.begin(), idx.end(), name,
                               [](const auto &e, std::string_view n) { return e.first < n; });
    if (it != idx.end() && it->first == name && !name.empty()) return it->second;
    return none;
}

const auto &TypeIndex() {
    static const auto idx = SortedIndex<std::size(kTypes), TypeRow, Type>(
        kTypes, [](const TypeRow &r) { return std::string_view(r.name); },
        [](size_t i) { return static_cast<Type>(i); });
    return idx;
}
const auto &OpcodeIndex() {
    static const auto idx = SortedIndex<std::size(kOpcodes), OpcodeInfo, Opcode>(
        kOpcodes, [](const OpcodeInfo &r) { return std::string_view(r.mnemonic); },
        [](size_t i) { return static_cast<Opcode>(i); });
    return idx;
}
const auto &SregIndex() {
    static const auto idx = SortedIndex<std::size(kSregs), SregRow, SpecialReg>(
        kSregs, [](const SregRow &r) { return std::string_view(r.name); },
        [](size_t i) { return static_cast<SpecialReg>(i); });
    return idx;
}

}  // namespace

std::string_view TypeName(Type t) {
    size_t i = static_cast<size_t>(t);
    return i < std::size(kTypes) ? kTypes[i].name : "";
}
uint32_t TypeBits(Type t) {
    size_t i = static_cast<size_t>(t);
    return i < std::size(kTypes) ? kTypes[i].bits : 0;
}
TypeKind TypeKindOf(Type t) {
    size_t i = static_cast<size_t>(t);
    return i < std::size(kTypes) ? kTypes[i].kind : TypeKind::NONE;
}
Type TypeFromName(std::string_view name) { return LookupSorted(TypeIndex(), name, Type::NONE); }

std::string_view ModifierToken(ModGroup g, uint8_t value) {
    size_t gi = static_cast<size_t>(g);
    if (gi == 0 || gi >= std::size(kGroups) || value >= kGroups[gi].count) return "";
    return kGroups[gi].tokens[value].token;
}
std::string_view ModGroupName(ModGroup g) {
    size_t gi = static_cast<size_t>(g);
    return gi < std::size(kGroups) ? kGroups[gi].name : "";
}
// Value of `token` in group g (0 if the group has no such token).
uint8_t ModifierValue(ModGroup g, std::string_view token) {
    size_t gi = static_cast<size_t>(g);
    if (gi == 0 || gi >= std::size(kGroups)) return 0;
    for (size_t v = 1; v < kGroups[gi].count; ++v)
        if (token == kGroups[gi].tokens[v].token) return static_cast<uint8_t>(v);
    return 0;
}
uint8_t ModGroupValueCount(ModGroup g) {
    size_t gi = static_cast<size_t>(g);
    return gi < std::size(kGroups) ? static_cast<uint8_t>(kGroups[gi].count) : 0;
}

uint32_t VecLanes(VecWidth v) {
    switch (v) {
    case VecWidth::V2: return 2;
    case VecWidth::V4: return 4;
    case VecWidth::V8: return 8;
    default: return 1;
    }
}

uint8_t Modifiers::Get(ModGroup g) const {
    switch (g) {
#define PTX_MOD_ENUM(grp, field, T, ...) \
    case ModGroup::grp: return static_cast<uint8_t>(field);
#define PTX_MOD_FLAG(grp, field, tok) \
    case ModGroup::grp: return field ? 1 : 0;
#include "ptx/modifiers.def"
#undef PTX_MOD_ENUM
#undef PTX_MOD_FLAG
    default: return 0;
    }
}

void Modifiers::Set(ModGroup g, uint8_t value) {
    switch (g) {
#define PTX_MOD_ENUM(grp, field, T, ...) \
    case ModGroup::grp: field = static_cast<T>(value); break;
#define PTX_MOD_FLAG(grp, field, tok) \
    case ModGroup::grp: field = value != 0; break;
#include "ptx/modifiers.def"
#undef PTX_MOD_ENUM
#undef PTX_MOD_FLAG
    default: break;
    }
}

bool Modifiers::operator==(const Modifiers &o) const {
    for (size_t g = 1; g < static_cast<size_t>(ModGroup::COUNT); ++g)
        if (Get(static_cast<ModGroup>(g)) != o.Get(static_cast<ModGroup>(g))) return false;
    return true;
}

std::string_view SpecialRegName(SpecialReg r) {
    size_t i = static_cast<size_t>(r);
    return i < std::size(kSregs) ? kSregs[i].name : "";
}
Type SpecialRegType(SpecialReg r) {
    size_t i = static_cast<size_t>(r);
    return i < std::size(kSregs) ? kSregs[i].type : Type::NONE;
}
SpecialReg SpecialRegFromName(std::string_view name) { return LookupSorted(SregIndex(), name, SpecialReg::NONE); }

const OpcodeInfo &GetOpcodeInfo(Opcode op) {
    size_t i = static_cast<size_t>(op);
    return i < std::size(kOpcodes) ? kOpcodes[i] : kOpcodes[0];
}
std::string_view OpcodeName(Opcode op) { return GetOpcodeInfo(op).mnemonic; }
Opcode OpcodeFromName(std::string_view mnemonic) { return LookupSorted(OpcodeIndex(), mnemonic, Opcode::NONE); }

}  // namespace rndn::ptx
