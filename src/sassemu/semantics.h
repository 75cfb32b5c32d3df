// The rows of the semantics table (semantics.cpp, semantics_control.cpp, semantics_memory.cpp).
#pragma once

#include <string>
#include <vector>

#include "sassemu/values.h"

namespace rndn::sassemu {

// A modifier an opcode accepts: d.m[slot] = value.  slot -1: accepted and ignored; slot -2: the
// k-th such modifier sets d.m[k]; slot -3: accepted, interpreted by the row's prepare.
struct ModDef {
    const char *name;
    int slot;
    int value;
};

struct OpRow {
    const char *name;
    std::vector<ModDef> mods;
    Status (*prepare)(DInst &d);
    ExecFn exec;
    bool control;
    bool variable;  // variable latency: results guarded by a scoreboard
};

enum Cmp { CMP_F, CMP_LT, CMP_EQ, CMP_LE, CMP_GT, CMP_NE, CMP_GE, CMP_NUM, CMP_NAN, CMP_LTU, CMP_EQU, CMP_LEU, CMP_GTU, CMP_NEU, CMP_GEU, CMP_T, CMP_MAX, CMP_MIN };
enum Mufu { MUFU_RCP = 1, MUFU_RSQ, MUFU_SQRT, MUFU_EX2, MUFU_LG2, MUFU_SIN, MUFU_COS, MUFU_TANH, MUFU_RCP64H, MUFU_RSQ64H };
enum IType { T_S32 = 1, T_U32, T_S64, T_U64, T_U16, T_S16, T_U8, T_S8 };

inline bool Bop(int bop, bool a, bool b) { return bop == 0 ? (a && b) : bop == 1 ? (a || b) : (a != b); }
inline bool HasMod(const DInst &d, const char *m) {
    for (const std::string &s : d.mods)
        if (s == m) return true;
    return false;
}

const std::vector<OpRow> &ArithRows();    // semantics.cpp
const std::vector<OpRow> &ControlRows();  // semantics_control.cpp
const std::vector<OpRow> &MemoryRows();   // semantics_memory.cpp

}  // namespace rndn::sassemu
