// rndn::sasscomp — an in-process compiler from the PTX IR (src/ptx) to SASS and a cubin builder.
//
//   auto cubin = sasscomp::CompileToCubin(module, sass::Arch::SM_86);   // ELF bytes
//
// Pipeline per kernel (compiler.cpp): instruction selection from a table of PTX opcode x type ->
// SASS text patterns (patterns.def, data), register allocation by linear scan over live intervals
// of virtual registers (PTX registers and pattern temporaries; 64-bit values in aligned pairs,
// loops extend intervals over the whole loop), then a conservative scheduler that assigns the
// control codes (stall counts from the per-architecture latency table shared with the SASS
// emulator, src/assembler/latency.inc; scoreboards and wait masks for variable-latency results and
// for registers read by variable-latency instructions).  The text of every instruction is encoded
// through the assembler's ISA tables (src/assembler/assembler.h): a form the tables lack is an
// error naming the instruction, never a guess.  cubin.cpp writes the ELF image from scratch.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "assembler/assembler.h"
#include "common/status.h"
#include "ptx/ptx.h"

namespace rndn::sasscomp {

struct CompiledParam {
    uint32_t offset = 0, size = 0;
};

// A module-scope .const or .global variable.  A .const one lives in constant bank 3 at `offset`
// (.nv.constant3); a .global one at `offset` in .nv.global.init (initialised) or .nv.global
// (zeroed), and the code reads its address from constant bank 4 at `slot` (8 bytes, filled by an
// R_CUDA_64 relocation), as ptxas lays them out.
struct ModuleVariable {
    std::string name;
    bool is_const = false, initialised = false;
    uint32_t offset = 0, size = 0, align = 1, slot = 0;
    std::vector<uint8_t> init;  // initialised: `size` bytes
    bool operator==(const ModuleVariable &) const = default;
};

struct CompiledKernel {
    std::string name;
    std::vector<std::string> text;        // one SASS line per instruction (no control), for listings
    std::vector<sass::Control> control;
    std::vector<sass::Word> words;        // encoded, padded to 128 bytes
    int registers = 0;                    // general registers per thread (REGCOUNT)
    std::vector<uint32_t> exit_offsets;   // byte offsets of EXIT instructions
    bool uses_bssy = false;               // convergence regions (BSSY/BSYNC)
    bool backward_branch = false;         // the code loops (a branch to itself or an earlier address)
    std::vector<CompiledParam> params;
    uint32_t param_bytes = 0;
    uint32_t shared_bytes = 0;            // static shared memory (.nv.shared.<k>; sm_90+: with the reserved 1 KiB)
    bool uses_shared = false;             // any shared variable (static or extern): .nv.shared.<k> is written
    int barriers = 0;                     // named barriers used (EIATTR_NUM_BARRIERS)
    uint32_t frame_bytes = 0;             // stack frame for .local variables (EIATTR_FRAME_SIZE, MIN_STACK_SIZE)
    std::vector<ModuleVariable> module_vars;  // the module's .const/.global variables (the same list in every kernel of it)
};

// The layout of a module's .const and .global variables (declaration order, each aligned); an
// initialiser naming a symbol, an .extern variable or a bank over 64 KiB is UNSUPPORTED.
Expected<std::vector<ModuleVariable>> LayOutModuleVariables(const ptx::Module &m);

// Compiles every entry function (or only the one named `only`).  Unsupported PTX gives UNSUPPORTED naming the instruction
// ("file:line: <ptx text>: no SASS pattern for ..."); a missing register gives a clear error.
Expected<std::vector<CompiledKernel>> CompileModule(const ptx::Module &m, sass::Arch arch, const std::string &only = "");

// The cubin for compiled kernels (ELF header, .nv.info, .nv.info.<k>, .nv.constant0.<k>, .text.<k>,
// and for module variables .nv.constant3, .nv.constant4 with its relocations, .nv.global.init and
// .nv.global).  Kernels that carry module variables must carry the same list (one module).
Expected<std::vector<uint8_t>> BuildCubin(const std::vector<CompiledKernel> &kernels, sass::Arch arch);

// A copy of `kernel` with every call of a device function of `m` replaced by the callee's body
// (inline.cpp); the kernel itself when it calls nothing.
Expected<ptx::Function> InlineCalls(const ptx::Module &m, const ptx::Function &kernel);

// Both steps.
Expected<std::vector<uint8_t>> CompileToCubin(const ptx::Module &m, sass::Arch arch);

// A listing of the compiled code (control codes and text), for tools and test messages.
std::string FormatListing(const CompiledKernel &k);

}  // namespace rndn::sasscomp
