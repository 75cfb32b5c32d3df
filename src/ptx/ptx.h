// rndn::ptx - the PTX IR seam: a PTX module as a plain C++ value, with a parser, a printer and a
// verifier.  Consumers: src/codegen (produces Modules), src/cpujit (PTX -> LLVM IR) and
// src/assembler (PTX -> SASS).  See src/ptx/README.md for the invariants.
//
// Shape of the IR (everything is a value; ids are indices into the owning vectors):
//
//   Module     .version/.target/.address_size, module-scope variables (globals), functions
//   Function   .entry or .func: params, return params, performance directives, and a body that is
//              a flat list of Statements (instructions, labels, declarations, '{' '}' scopes)
//   Register   every register the function declares, in one table: RegId indexes Function::regs.
//              Registers declared in nested '{ }' scopes (inline asm) get their own entries, so a
//              RegId is unique within a function even where names are reused.
//   Instruction  opcode enum + type suffixes + structured modifiers + guard + typed operands
//
// Consumers typically do:
//   for (const Statement& st : fn.body) {
//     if (st.kind == StatementKind::LABEL) ...fn.labels[st.id]...
//     if (st.kind != StatementKind::INSTRUCTION) continue;
//     const Instruction& in = st.inst;
//     switch (in.opcode) { case Opcode::ADD: ...in.type, in.mods.rounding, in.operands[0].reg... }
//   }
//
// This header only grows: fields and enum members are appended, never renamed or reordered.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace rndn::ptx {

// ---------------------------------------------------------------------------------------------
// Types (types.def)

enum class Type : uint8_t {
    NONE,
#define PTX_TYPE(e, s, bits, kind) e,
#include "ptx/types.def"
#undef PTX_TYPE
    COUNT
};

enum class TypeKind : uint8_t { NONE, PRED, BIT, UINT, SINT, FLOAT };

std::string_view TypeName(Type t);  // "u32" (no dot); "" for NONE
uint32_t TypeBits(Type t);          // 1 for PRED, 0 for NONE
TypeKind TypeKindOf(Type t);
// Suffix text without the dot -> Type; Type::NONE if unknown.
Type TypeFromName(std::string_view name);

// A set of types as a bit mask (bit i = Type with value i).
using TypeSet = uint32_t;
constexpr TypeSet TypeBit(Type t) { return TypeSet{1} << static_cast<unsigned>(t); }
static_assert(static_cast<unsigned>(Type::COUNT) <= 32, "TypeSet must hold every Type");

// ---------------------------------------------------------------------------------------------
// Modifiers (modifiers.def): one structured field per group.

enum class ModGroup : uint8_t {
    NONE,
#define PTX_MOD_ENUM(g, field, T, ...) g,
#define PTX_MOD_FLAG(g, field, tok) g,
#include "ptx/modifiers.def"
#undef PTX_MOD_ENUM
#undef PTX_MOD_FLAG
    COUNT
};

#define PTX_MV(m, tok) m,
#define PTX_MOD_ENUM(g, field, T, ...) enum class T : uint8_t { NONE, __VA_ARGS__ };
#define PTX_MOD_FLAG(g, field, tok)
#include "ptx/modifiers.def"
#undef PTX_MOD_ENUM
#undef PTX_MOD_FLAG
#undef PTX_MV

// Every field is NONE/false when the modifier is absent.  Field names: see modifiers.def
// (rounding, ftz, sat, approx, full, cmp, bool_op, mul_mode, cc, space, to, vec, cache, nc,
// evict, prefetch_size, sem, scope, atom_op, noftz, sync, aligned, uni, shfl_mode, vote_mode,
// testp_op, shf_dir, shf_mode, prmt_mode, shiftamt, nan_mode, xorsign_abs, relu, membar_level,
// dp_half, level).
struct Modifiers {
#define PTX_MOD_ENUM(g, field, T, ...) T field = T::NONE;
#define PTX_MOD_FLAG(g, field, tok) bool field = false;
#include "ptx/modifiers.def"
#undef PTX_MOD_ENUM
#undef PTX_MOD_FLAG

    // Generic access by group (value 0 = absent; enum values as integers; flags 0/1).
    uint8_t Get(ModGroup g) const;
    void Set(ModGroup g, uint8_t value);
    bool operator==(const Modifiers &o) const;
};

// Token of a group's value without the dot ("rn", "shared::cta", "xorsign.abs"); "" for 0.
std::string_view ModifierToken(ModGroup g, uint8_t value);
std::string_view ModGroupName(ModGroup g);  // "ROUND", "SPACE", ...
// Number of lanes for a VecWidth (1 for NONE).
uint32_t VecLanes(VecWidth v);

// ---------------------------------------------------------------------------------------------
// Special registers (sregs.def)

enum class SpecialReg : uint8_t {
    NONE,
#define PTX_SREG(e, name, type) e,
#include "ptx/sregs.def"
#undef PTX_SREG
    COUNT
};
std::string_view SpecialRegName(SpecialReg r);  // "%tid.x"
Type SpecialRegType(SpecialReg r);              // U32 or U64
SpecialReg SpecialRegFromName(std::string_view name);  // NONE if unknown

// ---------------------------------------------------------------------------------------------
// Opcodes (opcodes.def)

enum class Opcode : uint8_t {
    NONE,
#define PTX_OP(e, mn, ts, ts2, groups, sig, flags) e,
#include "ptx/opcodes.def"
#undef PTX_OP
    COUNT
};

enum OpFlag : uint32_t {
    OP_LOAD = 1u << 0,        // reads memory
    OP_STORE = 1u << 1,       // writes memory
    OP_ATOMIC = 1u << 2,      // atomic read-modify-write / reduction
    OP_BRANCH = 1u << 3,      // bra
    OP_CALL = 1u << 4,        // call
    OP_RETURN = 1u << 5,      // ret
    OP_TERMINATOR = 1u << 6,  // ends the thread's path (ret, exit, trap)
    OP_BARRIER = 1u << 7,     // CTA or warp barrier
    OP_FENCE = 1u << 8,       // memory fence
    OP_WARP = 1u << 9,        // warp-collective (shfl, vote, match, activemask, redux, bar.warp.sync)
    OP_WIDEN = 1u << 10,      // integer registers wider than the type suffix are legal (ld/st/cvt)
};

constexpr int kMaxModGroups = 10;
struct OpcodeInfo {
    Opcode opcode;
    const char *mnemonic;
    TypeSet types;   // legal first type suffix; 0 = none
    TypeSet types2;  // legal second type suffix; 0 = none
    ModGroup groups[kMaxModGroups];  // accepted groups in print order, NONE-terminated
    const char *operands;            // operand roles, see opcodes.def
    uint32_t flags;                  // OpFlag bits
};
const OpcodeInfo &GetOpcodeInfo(Opcode op);
std::string_view OpcodeName(Opcode op);  // the mnemonic, e.g. "bar.warp.sync"
// Exact mnemonic (possibly dotted) -> Opcode; NONE if unknown.
Opcode OpcodeFromName(std::string_view mnemonic);

// ---------------------------------------------------------------------------------------------
// Operands

struct SourceLoc {
    uint32_t line = 0;  // 1-based; 0 = unknown (built programmatically)
    uint32_t col = 0;   // 1-based
};

using RegId = uint32_t;
using LabelId = uint32_t;
constexpr uint32_t kNoId = 0xffffffffu;

enum class SymbolKind : uint8_t {
    NONE,
    GLOBAL,      // Module::globals[index]
    LOCAL,       // Function::vars[index] (function-scope .local/.shared/.param/... declarations)
    PARAM,       // Function::params[index]
    RET_PARAM,   // Function::ret_params[index]
    FUNCTION,    // Module::functions[index]
};
struct SymbolRef {
    SymbolKind kind = SymbolKind::NONE;
    uint32_t index = kNoId;
    bool operator==(const SymbolRef &o) const { return kind == o.kind && index == o.index; }
};

enum class ImmKind : uint8_t { INT, F32, F64 };
struct Immediate {
    ImmKind kind = ImmKind::INT;
    uint64_t bits = 0;  // INT: two's complement 64-bit value; F32: low 32 bits; F64: IEEE bits
    int64_t AsInt() const { return static_cast<int64_t>(bits); }
    float AsF32() const;   // INT converts the value; F64 rounds
    double AsF64() const;  // INT converts the value
    bool operator==(const Immediate &o) const { return kind == o.kind && bits == o.bits; }
};

enum class AddrBase : uint8_t {
    ABSOLUTE,  // [imm]
    REG,       // [%rd + off]
    SYMBOL,    // [name + off]  (variable or parameter)
};
struct Address {
    AddrBase base = AddrBase::ABSOLUTE;
    RegId reg = kNoId;
    SymbolRef sym;
    int64_t offset = 0;
};

enum class OperandKind : uint8_t {
    NONE,
    REG,     // reg (+ negated for predicate sources written "!%p")
    IMM,     // imm
    SREG,    // sreg (special register, e.g. %tid.x)
    SYMBOL,  // sym (+ offset): address of a variable / parameter, or a function (call target)
    ADDRESS, // addr: a memory operand [..]
    VECTOR,  // elems: "{a, b, c, d}" (vector ld/st, mov.b64 pack/unpack); elements REG/IMM/SINK
    LABEL,   // label (bra target)
    SINK,    // "_" (discarded result)
};

struct Operand {
    OperandKind kind = OperandKind::NONE;
    bool negated = false;  // "!%p"
    RegId reg = kNoId;
    Immediate imm;
    SpecialReg sreg = SpecialReg::NONE;
    SymbolRef sym;
    int64_t offset = 0;  // SYMBOL + offset
    Address addr;
    LabelId label = kNoId;
    std::vector<Operand> elems;

    static Operand Reg(RegId r, bool neg = false) { Operand o; o.kind = OperandKind::REG; o.reg = r; o.negated = neg; return o; }
    static Operand Imm(Immediate i) { Operand o; o.kind = OperandKind::IMM; o.imm = i; return o; }
    static Operand Int(int64_t v) { Operand o; o.kind = OperandKind::IMM; o.imm.bits = static_cast<uint64_t>(v); return o; }
    static Operand Sreg(SpecialReg s) { Operand o; o.kind = OperandKind::SREG; o.sreg = s; return o; }
    static Operand Label(LabelId l) { Operand o; o.kind = OperandKind::LABEL; o.label = l; return o; }
    static Operand Mem(Address a) { Operand o; o.kind = OperandKind::ADDRESS; o.addr = a; return o; }
    static Operand Symbol(SymbolRef s, int64_t off = 0) { Operand o; o.kind = OperandKind::SYMBOL; o.sym = s; o.offset = off; return o; }
};

struct Guard {
    bool present = false;
    bool negated = false;  // "@!%p"
    RegId reg = kNoId;
};

struct Instruction {
    Opcode opcode = Opcode::NONE;
    Type type = Type::NONE;   // first type suffix (cvt: destination type; set: destination type)
    Type type2 = Type::NONE;  // second type suffix (cvt/set: source type; dp4a/dp2a: b; slct: c)
    Modifiers mods;
    Guard guard;
    // Destinations first.  num_dests leading operands are written (two of them joined by '|' for
    // setp/shfl/match pairs).  call: operands = [return params (SYMBOL)..., callee (SYMBOL,
    // FUNCTION), arguments (SYMBOL or other values)...] and num_dests = number of return params.
    std::vector<Operand> operands;
    uint8_t num_dests = 0;
    SourceLoc loc;

    const OpcodeInfo &info() const { return GetOpcodeInfo(opcode); }
};

// ---------------------------------------------------------------------------------------------
// Declarations

enum class Linkage : uint8_t { NONE, VISIBLE, EXTERN, WEAK, COMMON };

// One initialiser element: an immediate, or the address of a symbol ("sym", "generic(sym)").
struct InitValue {
    bool is_symbol = false;
    Immediate imm;
    std::string symbol;
    bool generic = false;  // generic(sym)
};

// A variable in any state space (module scope, function scope, or a parameter).
struct Variable {
    std::string name;
    StateSpace space = StateSpace::NONE;
    Linkage linkage = Linkage::NONE;
    Type type = Type::NONE;
    uint32_t align = 0;  // 0 = natural alignment
    VecWidth vec = VecWidth::NONE;
    std::vector<uint64_t> dims;  // array dimensions, outermost first; {0} means "[]" (unsized)
    bool has_init = false;
    std::vector<InitValue> init;  // flattened initialiser
    // Kernel parameter attributes: ".ptr .global .align 8".
    bool is_ptr = false;
    StateSpace ptr_space = StateSpace::NONE;
    uint32_t ptr_align = 0;
    SourceLoc loc;

    // Size in bytes of one element times the array extent (0 for unsized arrays).
    uint64_t SizeBytes() const;
    // The explicit .align, else the natural alignment of one (vector) element.
    uint32_t AlignBytes() const;
};

struct Register {
    std::string name;  // full name, e.g. "%r12" or "p"
    Type type = Type::NONE;
    uint32_t decl = kNoId;  // index into Function::reg_decls; kNoId if used but never declared
};

// One ".reg" line: ".reg .b32 %r<12>;" (count 12: %r0..%r11) or ".reg .pred p;" (count 0).
struct RegDecl {
    Type type = Type::NONE;
    std::string name;  // base name ("%r") for ranges, full name otherwise
    uint32_t count = 0;  // 0 = single register
    RegId first = kNoId;  // registers first .. first + max(count,1) - 1 in Function::regs
    SourceLoc loc;
};

struct Label {
    std::string name;
    uint32_t stmt = kNoId;  // index of the LABEL statement in Function::body; kNoId = undefined
    SourceLoc first_use;
};

enum class StatementKind : uint8_t {
    INSTRUCTION,  // inst
    LABEL,        // id = LabelId
    REG_DECL,     // id = index into Function::reg_decls
    VAR_DECL,     // id = index into Function::vars
    BLOCK_BEGIN,  // '{'
    BLOCK_END,    // '}'
    PRAGMA,       // text = the pragma string contents, e.g. nounroll
};

struct Statement {
    StatementKind kind = StatementKind::INSTRUCTION;
    uint32_t id = kNoId;
    Instruction inst;
    std::string text;
    SourceLoc loc;
};

enum class PerfDirective : uint8_t { MAXNTID, REQNTID, MINNCTAPERSM, MAXNCTAPERSM, MAXNREG };

struct Performance {
    PerfDirective kind = PerfDirective::MAXNTID;
    std::vector<uint32_t> values;
};

struct Function {
    std::string name;
    bool is_entry = false;  // .entry (kernel) vs .func
    Linkage linkage = Linkage::NONE;
    bool has_body = false;  // false for a prototype ".func f(...);"
    bool noreturn = false;
    std::vector<Variable> params;      // space PARAM
    std::vector<Variable> ret_params;  // .func return parameters
    std::vector<Performance> perf;
    std::vector<std::string> pragmas;  // function-level .pragma strings (before the body)
    std::vector<Register> regs;
    std::vector<RegDecl> reg_decls;
    std::vector<Variable> vars;        // variables declared inside the body
    std::vector<Label> labels;
    std::vector<Statement> body;
    SourceLoc loc;

    // Lookups by name (first match); kNoId if absent.
    RegId FindRegister(std::string_view name) const;
    LabelId FindLabel(std::string_view name) const;
    // Appends a ".reg" declaration statement (count 0 = single register named `name`, otherwise
    // `name`0..count-1) and returns the first RegId.  Helper for programmatic construction.
    RegId AddRegisters(Type type, std::string_view name, uint32_t count);
    // Appends a label (not yet placed) and returns its id.
    LabelId AddLabel(std::string_view name);
    // Appends an instruction / places a label at the end of the body.
    void Append(Instruction inst);
    void PlaceLabel(LabelId label);
};

enum class ItemKind : uint8_t { GLOBAL, FUNCTION };
struct ModuleItem {
    ItemKind kind = ItemKind::GLOBAL;
    uint32_t index = 0;
};

struct Module {
    uint32_t version_major = 9;
    uint32_t version_minor = 0;
    std::vector<std::string> target;  // e.g. {"sm_90"}; further entries: "texmode_independent"...
    uint32_t address_size = 64;
    std::vector<Variable> globals;
    std::vector<Function> functions;
    std::vector<ModuleItem> order;  // print order of globals and functions (declaration order)
    std::string filename;           // for messages

    // Index of the first function / global with that name, or kNoId.
    uint32_t FindFunction(std::string_view name) const;
    uint32_t FindGlobal(std::string_view name) const;
    // The SM number of the first ".target sm_XX[a]" entry (e.g. 90), or 0.
    uint32_t SmVersion() const;
};

// Byte layout of a kernel's parameter buffer (the CUDA launch ABI: each parameter at the next
// multiple of its alignment, in declaration order).  Matches ptxas' EIATTR_KPARAM_INFO offsets.
struct ParamLayout {
    std::vector<uint64_t> offsets;  // one per Function::params entry
    std::vector<uint64_t> sizes;
    uint64_t total = 0;             // size of the whole buffer (end of the last parameter)
};
ParamLayout KernelParamLayout(const Function &f);

// ---------------------------------------------------------------------------------------------
// Entry points

// Parses PTX text.  Malformed input yields Code::PARSE_ERROR with "file:line:col: message".
// Constructs outside the supported subset (textures, surfaces, tensor-core ops, indirect calls,
// ...) also give PARSE_ERROR naming the construct.  Undeclared registers and undefined labels are
// NOT parse errors: they are recorded (Register::decl == kNoId, Label::stmt == kNoId) and
// reported by Verify.
Expected<Module> ParseModule(std::string_view text, std::string_view filename);

// Canonical text: one directive / statement per line, modifiers in opcodes.def order, integer
// immediates in decimal, float immediates as 0fXXXXXXXX / 0dXXXXXXXXXXXXXXXX.
// Print(ParseModule(Print(m))) == Print(m) for every verified module.
std::string Print(const Module &m);
std::string PrintInstruction(const Module &m, const Function &f, const Instruction &inst);
std::string PrintOperand(const Module &m, const Function &f, const Operand &op);

// Checks: opcode/type/modifier legality, operand count and kinds, register declarations and
// register types against operand roles, labels defined, symbols resolved, state spaces valid for
// the instruction.  A failure is Code::PARSE_ERROR (the module is malformed) whose message lists
// the problems, one per line (at most 50), each "file:line:col: message" (line:col of the
// offending statement or declaration; 0:0 for IR built without locations).
Status Verify(const Module &m);

}  // namespace rndn::ptx
