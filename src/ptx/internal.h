// Internal helpers shared by the ptx sources (not part of the seam).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "ptx/ptx.h"

namespace rndn::ptx {

// Value of `token` in group g, 0 if the group has no such token.
uint8_t ModifierValue(ModGroup g, std::string_view token);
// Number of values of group g including the "absent" value 0.
uint8_t ModGroupValueCount(ModGroup g);

// Operand role list of an opcode, parsed from opcodes.def's role string.
struct RoleSpec {
    char role = 0;          // d w p a c b q u s m l
    bool optional = false;
    bool pipe_next = false;  // this destination is joined to the next one with '|'
};
constexpr int kMaxRoles = 8;
struct RoleList {
    RoleSpec roles[kMaxRoles];
    int count = 0;
    int num_dests = 0;  // roles that are destinations (including the optional pipe partner)
};
const RoleList &OperandRoles(Opcode op);
bool IsDestRole(char role);

// Hex text of a float immediate in PTX syntax (0fXXXXXXXX / 0dXXXXXXXXXXXXXXXX).
std::string FormatImmediate(const Immediate &imm);
std::string LocPrefix(std::string_view file, SourceLoc loc);

}  // namespace rndn::ptx
