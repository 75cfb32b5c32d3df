// cpujit's kernel IR: the small, name-based form of a PTX module that the LLVM translator
// consumes (opcode and modifier tokens, operands by name).  It is filled from the shared PTX IR
// by FromPtx (kir_from_ptx.cpp).  Internal to src/cpujit.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/status.h"

namespace rndn::ptx {
struct Module;
}

namespace rndn::cpujit::kir {

enum class OperandKind : uint8_t {
    REG,      // %r1 (name); neg: "!%p1"
    IMM_INT,  // 42, -1, 0x1F (imm)
    IMM_F32,  // 0f3F800000 (imm holds the bits)
    IMM_F64,  // 0d3FF0000000000000 or a decimal literal (imm holds the bits)
    SYMBOL,   // a variable, parameter, label or function name
    SPECIAL,  // %tid.x, %laneid, %clock64 ...
    ADDR,     // [base+offset]: base is a REG or SYMBOL in elems[0] (or none: absolute), offset in imm
    VEC,      // {a, b, ...} or (a, b, ...) in a call; '_' sink allowed as SYMBOL "_"
    PAIR,     // a|b (setp's two destinations)
};

struct Operand {
    OperandKind kind = OperandKind::IMM_INT;
    std::string name;
    int64_t imm = 0;
    bool neg = false;
    std::vector<Operand> elems;
};

struct Instr {
    std::string label;        // non-empty: this entry is a label, not an instruction
    std::string guard;        // predicate register guarding the instruction ("" = none)
    bool guard_neg = false;
    std::string op;           // "add"
    std::vector<std::string> mods;  // "rn", "f32", ... in source order
    std::vector<Operand> args;
    int line = 0;

    bool Has(const char *m) const {
        for (auto &x : mods)
            if (x == m) return true;
        return false;
    }
};

// A variable in a state space (module scope or function scope).
struct Var {
    std::string name;
    std::string space;  // "global", "const", "shared", "local", "param"
    std::string type;   // element type: "b8", "u32", "f64" ...
    uint32_t align = 1;
    uint64_t size = 0;  // bytes; 0 with is_extern: dynamic shared memory
    bool is_extern = false;
    std::vector<uint8_t> init;  // initial bytes (empty: zero)
};

struct Reg {
    std::string name;
    std::string type;  // "pred", "b32", "f64", ...
};

struct Function {
    std::string name;
    bool is_entry = false;
    int line = 0;
    std::vector<Var> params;   // in order (space "param")
    std::vector<Var> returns;  // .func return parameters
    std::vector<Reg> regs;
    std::vector<Var> vars;     // function-scope .local/.shared/.param (call sites) declarations
    std::vector<Instr> body;
};

struct Module {
    std::vector<Var> vars;  // module-scope .global/.const/.shared
    std::vector<Function> functions;
    const Function *Find(const std::string &name) const {
        for (auto &f : functions)
            if (f.name == name) return &f;
        return nullptr;
    }
};

// Converts the shared PTX IR (src/ptx) into the kernel IR.
Expected<Module> FromPtx(const ptx::Module &m);

// Width in bits of a PTX scalar type name ("u32" -> 32, "pred" -> 1); 0 if unknown.
int TypeBits(const std::string &type);

}  // namespace rndn::cpujit::kir
