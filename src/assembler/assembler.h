// rndn::sass — SASS instruction model, table-driven encoder/decoder, cubin reader/writer.
//
// Everything bit-level comes from per-architecture tables (src/assembler/isa/sm_XX.inc),
// generated from our own kernel corpus by src/assembler/gen/isa_gen.cpp (ptxas + nvdisasm are
// the oracle).  One generic routine packs and unpacks every form; there is no per-opcode code.
//
// Vocabulary:
//   Word      one 128-bit Volta-family instruction word (lo = bits 0..63, hi = bits 64..127).
//   Control   the scheduling fields in bits 105..125 (stall, yield, barriers, wait, reuse).
//   Form      one table row: an instruction template (mnemonic with modifiers plus operand
//             text with typed holes, e.g. "IADD3.X {R}, {R}, c[{X}][{X}], {R}, {P}, !{P}"),
//             its fixed bits, and one bit field per hole.
//   Instruction  a decoded/parsed instruction: form id, guard, hole values, control.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace rndn::sass {

// ----------------------------------------------------------------------------- architectures
enum class Arch : uint8_t { SM_75, SM_80, SM_86, SM_89, SM_90, SM_100, SM_120 };
inline constexpr Arch kAllArchs[] = {Arch::SM_75, Arch::SM_80, Arch::SM_86, Arch::SM_89,
                                     Arch::SM_90, Arch::SM_100, Arch::SM_120};

struct ArchInfo {
    Arch arch;
    const char *name;          // "sm_86"
    int sm;                    // 86
    uint32_t param_base;       // c[0x0][param_base]: first kernel parameter
    uint32_t text_align;       // .text.<k> alignment
    uint32_t mem_desc;         // c[0x0][mem_desc]: the global memory descriptor ptxas loads with
                               // "ULDC.64 URn, c[0x0][mem_desc]" (0: the architecture has none)
    int ur_zero;               // URZ in uniform register fields: 63 in 6-bit fields, 255 in the
                               // 8-bit fields of sm_100 on (nvdisasm prints UR63 there)
};
const ArchInfo &GetArchInfo(Arch arch);
Expected<Arch> ParseArch(std::string_view name);  // "sm_86" or "86"

// ----------------------------------------------------------------------------- words, control
struct Word {
    uint64_t lo = 0, hi = 0;
    bool operator==(const Word &o) const { return lo == o.lo && hi == o.hi; }
    bool Bit(int i) const { return i < 64 ? (lo >> i) & 1 : (hi >> (i - 64)) & 1; }
    uint64_t Get(int lo_bit, int width) const;           // width <= 64
    void Set(int lo_bit, int width, uint64_t value);     // width <= 64
};

// Control fields (bits 105..125): stall 4 | yield 1 | write barrier 3 | read barrier 3 |
// wait mask 6 | reuse 4, from the least significant end.
struct Control {
    uint8_t stall = 0, yield = 0, wbar = 7, rbar = 7, wait = 0, reuse = 0;
    bool operator==(const Control &o) const = default;
};
Control UnpackControl(const Word &w);
void PackControl(const Control &c, Word *w);
// "[B------:R-:W-:Y:S04]" (wait mask digits, read/write barrier, 'Y' when the yield bit is set
// -- ptxas sets it on ordinary instructions and clears it on padding NOPs, rNdN's polarity --,
// stall).  Reuse flags are printed on the operands (".reuse"), as nvdisasm does.
std::string FormatControl(const Control &c);
Expected<Control> ParseControl(std::string_view text);  // inverse of FormatControl (reuse = 0)

// ----------------------------------------------------------------------------- operand text
// Hole kinds of an instruction template.
enum class HoleKind : uint8_t { REG, UREG, PRED, UPRED, BREG, HEX, NUM, LABEL };
// How a hole's value sits in its bit field.
enum class HoleCode : uint8_t { PLAIN, SIGNED, F32, F64HI, F16, RELATIVE };

struct Hole {
    HoleKind kind;
    int64_t value;      // register number (RZ = 255 ...), integer, float bits, or label address
    std::string text;   // source text of the hole (numbers: for float-literal lookup)
    std::string label;  // LABEL: the name between `( and )
};

// An instruction's text split into guard, template and holes.  The template is the text with
// each hole replaced by "{R}", "{UR}", "{P}", "{UP}", "{B}", "{X}", "{N}" or "{L}", and ".reuse"
// removed (reuse_operands records which operand carried it).
struct SplitText {
    bool has_guard = false;
    bool guard_neg = false;
    bool guard_uniform = false;
    int guard_pred = 7;
    std::string templ;
    std::vector<Hole> holes;
    uint32_t reuse_operands = 0;  // bit i: operand i (0-based, comma-separated) had ".reuse"
};
// Parses "@!P0 IADD3 R1, R2, -0x8, RZ" (no trailing ';').  Errors carry the column.
Expected<SplitText> SplitInstructionText(std::string_view text);

// ----------------------------------------------------------------------------- the ISA tables
// A field is one or two bit segments of the word, concatenated least significant first
// (lo/width, then lo2/width2), holding the value shifted right by `shift` (e.g. branch offsets
// in 4-byte units on sm_90).
struct Field {
    HoleKind kind;
    HoleCode code;
    int lo = 0, width = 0;   // bit position in the 128-bit word
    int lo2 = 0, width2 = 0; // optional second segment (width2 == 0: none)
    int shift = 0;
};

// One condition of a value-chosen alias: hole `hole` holds `value` (RZ: 255), or (pow2) a power
// of two.
struct AliasCondition {
    int hole = 0;
    bool pow2 = false;
    int64_t value = 0;
};

struct Form {
    int id = 0;
    std::string templ;                 // see SplitText::templ
    Word fixed_mask, fixed_bits;       // bits that identify the form
    Word free_mask, free_default;      // bits that vary unexplained (encoder uses the default)
    std::vector<Field> fields;         // one per hole, in text order
    std::vector<int8_t> reuse_bit;     // per operand: control reuse bit, or -1
    std::vector<std::optional<int64_t>> constant;  // per hole: the value every instance had
    std::vector<int> aliases;          // other forms with the same fixed bits (decoder tie-break)
    // A hidden operand: a field nvdisasm does not print.  On sm_80..sm_89 the global memory
    // instructions (LDG.E, STG.E, RED.E, ATOM.E ...) encode the uniform register that holds the
    // memory descriptor; its bits are also in free_mask, so the encoder falls back to the table
    // default when the instruction carries no value.
    std::optional<Field> implicit;
    // Bits (sign excluded) for a NaN literal: nvdisasm prints every NaN as +QNAN/-QNAN, dropping
    // the payload, so the parser takes the form's preference (default: the canonical 0x7fc00000).
    std::optional<uint64_t> nan_bits;
    // Predicate (and uniform register) operands, "{P}" / "{UP}" / "{UR}" holes, that nvdisasm
    // leaves out of its text when they hold PT/UPT (URZ): IADD3's carry-outs, VOTEU's destination.
    // The printer does the same, and the parser reads a text without them as this form with
    // PT/URZ there when no form has that text.
    std::vector<int> omit_pt;
    // Register operands that must not be RZ (hand.txt "norz"): nvdisasm rejects the word, prints
    // ???255 or prints another form's text there (the sm_80..89 atomics' [RZ.64] base, sm_75
    // ATOMG.E.CAS's compare value, an RZ base with a scale or a uniform register).  The encoder
    // refuses RZ there and the decoder does not take the form for such a word.
    std::vector<int> not_rz;
    // A value-chosen alias (hand.txt "alias": IMAD.MOV.U32 is IMAD.U32 with an RZ factor, ...):
    // nvdisasm prints the form's name only when one of these alternatives holds (each a list of
    // conditions that must all hold), and among the aliases a word's values select, the lowest
    // alias_rank.  The decoder picks the form only then; the encoder refuses other values.
    std::vector<std::vector<AliasCondition>> select;
    int alias_rank = 0;
    bool Selects(const std::vector<int64_t> &values) const;  // true without alternatives
    // Sets values that select the form (its first alternative's; `random` picks a power of two).
    void SelectingValues(std::vector<int64_t> *values, uint64_t random) const;
    std::string provenance;            // "kernel.cubin:0x01a0"
    int seen = 0;                      // instances in the corpus
};

struct Instruction {
    int form = -1;
    bool guard_neg = false;
    int guard_pred = 7;
    std::vector<int64_t> values;       // per hole (LABEL: absolute target address)
    Control control;
    uint32_t reuse_operands = 0;
    std::optional<int64_t> implicit;   // the form's hidden operand (unset: the table default)
};

class Isa {
public:
    // The table for an architecture (parsed once, cached; thread-safe).
    static Expected<const Isa *> Get(Arch arch);
    // Parses a table text (the format written by isa_gen); used by Get and by tests.
    static Expected<Isa> FromTableText(std::string_view text);

    Arch arch() const { return arch_; }
    const std::vector<Form> &forms() const { return forms_; }
    int FindForm(const std::string &templ) const;  // -1 if absent

    Expected<Instruction> Decode(const Word &w, uint64_t address) const;
    Expected<Word> Encode(const Instruction &inst, uint64_t address) const;
    // The instruction text as nvdisasm prints it, without the trailing " ;".
    // label_name(target) names branch targets.
    template <class F>
    std::string Print(const Instruction &inst, F label_name) const {
        std::vector<std::string> names;
        const Form &f = forms_[inst.form];
        for (size_t i = 0; i < f.fields.size(); ++i)
            names.push_back(f.fields[i].kind == HoleKind::LABEL ? label_name(inst.values[i]) : std::string());
        return PrintWithLabels(inst, names);
    }
    std::string PrintWithLabels(const Instruction &inst, const std::vector<std::string> &label_names) const;
    // Parses instruction text; resolve(label) gives a label's address.
    template <class F>
    Expected<Instruction> Parse(std::string_view text, F resolve) const {
        RNDN_ASSIGN_OR_RETURN(SplitText st, SplitInstructionText(text));
        for (Hole &h : st.holes)
            if (h.kind == HoleKind::LABEL) {
                RNDN_ASSIGN_OR_RETURN(int64_t a, resolve(h.label));
                h.value = a;
            }
        return FromSplit(st);
    }
    Expected<Instruction> FromSplit(const SplitText &st) const;
    // Supplies hidden operands from the preceding instructions of the same function: `desc`
    // carries the memory-descriptor register between calls (reset it per function).  A
    // "ULDC.64 URn, c[0x0][mem_desc]" sets it; a form with an implicit field takes it.
    void TrackImplicit(Instruction *inst, std::optional<int64_t> *desc) const;
    // Float literal text as nvdisasm prints it (corpus table first, then a formatting rule).
    std::string FormatFloat(HoleCode code, uint64_t bits) const;

private:
    Arch arch_ = Arch::SM_86;
    std::vector<Form> forms_;
    std::map<std::string, int> by_templ_;
    // Templates with omitted PT operands -> (form, holes that hold PT), see Form::omit_pt.
    std::map<std::string, std::pair<int, std::vector<int>>> by_short_templ_;
    std::map<uint32_t, std::vector<int>> by_opcode_;  // low 12 bits -> candidate forms
    std::vector<int> wildcard_;                        // forms whose low 12 bits are not fixed
    std::map<std::pair<int, uint64_t>, std::string> float_text_;  // (code, bits) -> text
};

// Reads a table field/hole value out of a word and back (the one generic pack/unpack routine).
int64_t UnpackField(const Field &f, const Word &w, uint64_t address);
Status PackField(const Field &f, int64_t value, uint64_t address, Word *w);

// nvdisasm-style float literal for a value without a table entry (see isa.cpp).
std::string FormatFloatRule(double d);
double FloatFromBits(HoleCode code, uint64_t bits);

// ----------------------------------------------------------------------------- cubin (ELF64)
struct ElfSection {
    std::string name;
    uint32_t name_off = 0, type = 0, link = 0, info = 0;
    uint64_t flags = 0, addr = 0, offset = 0, size = 0, align = 0, entsize = 0;
    std::vector<uint8_t> data;  // empty for SHT_NOBITS
};
struct ElfSegment {
    uint32_t type = 0, flags = 0;
    uint64_t offset = 0, vaddr = 0, paddr = 0, filesz = 0, memsz = 0, align = 0;
    // for LayOut: the sections a PT_LOAD covers (file bytes up to the last one with bits, memory up
    // to the end of the last one; kCoverHeaders: the program header table); empty: LayOut's rule
    // by flags
    std::vector<uint32_t> cover;
};
constexpr uint32_t kCoverHeaders = 0xffffffffu;
struct ElfFile {
    uint8_t ident[16] = {};
    uint16_t type = 0, machine = 0, ehsize = 64, phentsize = 56, shentsize = 64, shstrndx = 0;
    uint32_t version = 0, flags = 0;
    uint64_t entry = 0, phoff = 0, shoff = 0;
    std::vector<ElfSection> sections;  // index 0 is the null section
    std::vector<ElfSegment> segments;
    int Find(std::string_view name) const;  // section index or -1
    Expected<Arch> GetArch() const;         // from e_flags
};
Expected<ElfFile> ReadCubin(const std::vector<uint8_t> &bytes);
// Writes sections at their recorded offsets (as read, or as set by LayOut).
Expected<std::vector<uint8_t>> WriteCubin(const ElfFile &elf);
// Recomputes section, section-header and program-header offsets the way ptxas lays a cubin out.
void LayOut(ElfFile *elf);

struct ElfSymbol {
    std::string name;
    uint64_t value = 0, size = 0;
    uint8_t info = 0, other = 0;
    uint16_t shndx = 0;
};
Expected<std::vector<ElfSymbol>> ReadSymbols(const ElfFile &elf);

// ----------------------------------------------------------------------------- listings
struct DecodedInstruction {
    uint64_t address = 0;
    Word word;
    Instruction inst;
    bool ok = false;
    std::string text;   // nvdisasm-style text, no " ;"  (empty when !ok)
    std::string error;
};
struct DecodedFunction {
    int section = 0;           // index of .text.<name>
    std::string name;          // the section name without ".text."
    std::vector<DecodedInstruction> insts;
};
// Decodes every .text section; branch targets get nvdisasm's .L_x_N names.
Expected<std::vector<DecodedFunction>> DecodeCubin(const ElfFile &elf);
// The rndn-dis listing: directives for the ELF layout plus one line per instruction, e.g.
//   /*0050*/ [B------:R-:W-:Y:S05]  @P0 EXIT ;
Expected<std::string> Disassemble(const ElfFile &elf);
// The inverse: rebuilds the cubin from a listing's text (encodings in comments ignored).
Expected<ElfFile> Assemble(std::string_view listing);

}  // namespace rndn::sass
