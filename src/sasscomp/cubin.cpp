// The cubin builder: an ELF image written from the compiled kernels, laid out as ptxas lays
// its cubins out (assembler's LayOut), with the .nv.info attributes the driver and the tools read.
#include <algorithm>
#include <cstring>

#include "sasscomp/sasscomp.h"

namespace rndn::sasscomp {
namespace {

// .nv.info attribute ids and formats (EIATTR_* / EIFMT_*; facts from ptxas output, anchors.md).
enum : uint8_t { kFmtNval = 0x01, kFmtBval = 0x02, kFmtHval = 0x03, kFmtSval = 0x04 };
enum : uint8_t {
    kAttrCtaidzUsed = 0x04,
    kAttrParamCbank = 0x0a,
    kAttrFrameSize = 0x11,
    kAttrMinStackSize = 0x12,
    kAttrKparamInfo = 0x17,
    kAttrCbankParamSize = 0x19,
    kAttrMaxregCount = 0x1b,
    kAttrExitInstrOffsets = 0x1c,
    kAttrCrsStackSize = 0x1e,
    kAttrCoopGroupInstrOffsets = 0x28,
    kAttrCoopGroupMaskRegids = 0x29,
    kAttrRegcount = 0x2f,
    kAttrNval35 = 0x35,       // no payload; cuobjdump 13 has no name for it
    kAttrSwWar = 0x36,
    kAttrCudaApiVersion = 0x37,
    kAttrNumBarriers = 0x4c,
    kAttrHval50 = 0x50,       // 16-bit value, unnamed by cuobjdump 13
    kAttrHval5f = 0x5f,       // 16-bit value, unnamed by cuobjdump 13
};

// The per-kernel attributes that ptxas 13 writes for every kernel of an architecture whatever
// its code does (read from ptxas -O3's cubins of the whole corpus, 164 kernels per arch, one
// value each; test/unit/sasscomp/nvinfo_test.cpp compares every compiled kernel with ptxas).
struct ArchAttrs {
    sass::Arch arch;
    int sw_war;          // EIATTR_SW_WAR value, -1: none
    bool nval35;         // attribute 0x35 (NVAL)
    int hval50, hval5f;  // attributes 0x50 and 0x5f (HVAL), -1: none
    bool ctaidz_used;    // EIATTR_CTAIDZ_USED when the code reads SR_CTAID.Z
};
constexpr ArchAttrs kArchAttrs[] = {
    {sass::Arch::SM_75, 1, false, -1, 0, true},    {sass::Arch::SM_80, -1, true, -1, 0, true},
    {sass::Arch::SM_86, -1, true, -1, 0, true},    {sass::Arch::SM_89, -1, false, -1, 0, true},
    {sass::Arch::SM_90, 8, false, 0, 0x101, false},
    // sm_100 / sm_120: sm_90's values, not compared with ptxas (NvInfoParity covers sm_75..sm_90)
    {sass::Arch::SM_100, 8, false, 0, 0x101, false}, {sass::Arch::SM_120, 8, false, 0, 0x101, false},
};
const ArchAttrs &AttrsOf(sass::Arch arch) {
    for (const ArchAttrs &a : kArchAttrs)
        if (a.arch == arch) return a;
    return kArchAttrs[0];
}
constexpr uint32_t kShtProgbits = 1, kShtSymtab = 2, kShtStrtab = 3, kShtRela = 4, kShtNobits = 8, kShtRel = 9, kShtNvRelAction = 0x7000000b, kShtNvInfo = 0x70000000;
constexpr uint64_t kShfWrite = 0x1, kShfAlloc = 0x2, kShfExec = 0x4, kShfInfoLink = 0x40;

struct Bytes {
    std::vector<uint8_t> v;
    void U8(uint8_t x) { v.push_back(x); }
    void U16(uint16_t x) { U8((uint8_t)x), U8((uint8_t)(x >> 8)); }
    void U32(uint32_t x) { U16((uint16_t)x), U16((uint16_t)(x >> 16)); }
    void U64(uint64_t x) { U32((uint32_t)x), U32((uint32_t)(x >> 32)); }
    void Attr(uint8_t attr, std::initializer_list<uint32_t> words) {
        U8(kFmtSval), U8(attr), U16((uint16_t)(words.size() * 4));
        for (uint32_t w : words) U32(w);
    }
    void Hval(uint8_t attr, uint16_t value) { U8(kFmtHval), U8(attr), U16(value); }
    void Nval(uint8_t attr) { U8(kFmtNval), U8(attr), U16(0); }
};

struct StrTab {
    std::vector<uint8_t> data{0};
    uint32_t Add(const std::string &s) {
        uint32_t off = (uint32_t)data.size();
        data.insert(data.end(), s.begin(), s.end());
        data.push_back(0);
        return off;
    }
};

}  // namespace

Expected<std::vector<uint8_t>> BuildCubin(const std::vector<CompiledKernel> &kernels, sass::Arch arch) {
    const sass::ArchInfo &ai = sass::GetArchInfo(arch);
    sass::ElfFile e;
    static const uint8_t ident[16] = {0x7f, 'E', 'L', 'F', 2, 1, 1, 0x41, 8, 0, 0, 0, 0, 0, 0, 0};
    std::memcpy(e.ident, ident, 16);
    e.type = 2;        // ET_EXEC
    e.machine = 190;   // EM_CUDA
    e.version = 1;
    // ABI version, SM number (anchors.md §C3); ptxas 13 writes 2 instead of 4 in the low byte
    // from sm_100 on (0x6006402, 0x6007802)
    bool post90 = arch >= sass::Arch::SM_90;
    e.flags = (arch >= sass::Arch::SM_100 ? 0x6000002u : 0x6000004u) | ((uint32_t)ai.sm << 8);
    e.shstrndx = 1;

    size_t n = kernels.size();
    // module variables: every kernel that carries them must carry the same list (one module)
    const std::vector<ModuleVariable> *mvars = nullptr;
    for (const CompiledKernel &ck : kernels) {
        if (ck.module_vars.empty()) continue;
        if (mvars && *mvars != ck.module_vars)
            return Status::Unsupported("kernels of different modules with .const/.global variables cannot share one cubin (" + ck.name + ")");
        mvars = &ck.module_vars;
    }
    uint32_t const_bytes = 0, init_bytes = 0, zero_bytes = 0, slots = 0, const_align = 1, init_align = 1, zero_align = 1;
    bool has_const = false, has_init = false, has_zero = false;
    if (mvars)
        for (const ModuleVariable &mv : *mvars) {
            uint32_t end = mv.offset + mv.size;
            if (mv.is_const) has_const = true, const_bytes = std::max(const_bytes, end), const_align = std::max(const_align, mv.align);
            else {
                slots = std::max(slots, mv.slot / 8 + 1);
                if (mv.initialised) has_init = true, init_bytes = std::max(init_bytes, end), init_align = std::max(init_align, mv.align);
                else has_zero = true, zero_bytes = std::max(zero_bytes, end), zero_align = std::max(zero_align, mv.align);
            }
        }
    const bool has_global = slots > 0;
    // section indices: 0 null, 1 .shstrtab, 2 .strtab, 3 .symtab, 4 .nv.info,
    // then per kernel .nv.info.<k>, then per kernel .nv.constant0.<k>, then per kernel .text.<k>
    // (sm_90+: the three note sections come right after .nv.info, at 5, 6 and 7, as in ptxas's
    // cubins: cuobjdump -elf rejects one whose notes follow the kernels' sections ("Invalid
    // ELF"), found by reordering the sections of ptxas's own cubins)
    // module variables: [.nv.rel.action] .rel(a).nv.constant4, .nv.constant3 and .nv.constant4
    // between the kernels' .nv.info.<k> and .nv.constant0.<k> sections (before the code, as in
    // ptxas's cubins), .nv.global.init and .nv.global after the code.  Up to sm_89 ptxas writes
    // REL relocations (16-byte entries) and a .nv.rel.action section; from sm_90 on RELA (24).
    const uint32_t first = post90 ? 8 : 5;
    auto info_idx = [&](size_t k) { return (uint32_t)(first + k); };
    uint32_t next_mod = (uint32_t)(first + n);
    const uint32_t action_idx = has_global && !post90 ? next_mod++ : 0;
    const uint32_t rel4_idx = has_global ? next_mod++ : 0, c3_idx = has_const ? next_mod++ : 0, c4_idx = has_global ? next_mod++ : 0;
    const uint32_t mod_sections = next_mod - (uint32_t)(first + n);
    auto c0_idx = [&](size_t k) { return (uint32_t)(first + n + mod_sections + k); };
    auto text_idx = [&](size_t k) { return (uint32_t)(first + 2 * n + mod_sections + k); };
    const uint32_t init_idx = has_init ? (uint32_t)(first + 3 * n + mod_sections) : 0;
    const uint32_t zero_idx = has_zero ? (uint32_t)(first + 3 * n + mod_sections + (has_init ? 1 : 0)) : 0;
    // symbols: 0 null, then per kernel the section symbols of .text and .nv.constant0 (local),
    // then the module variables' section and object symbols (local), then the kernels (global
    // functions)
    auto sec_sym_text = [&](size_t k) { return (uint32_t)(1 + 2 * k); };
    auto sec_sym_c0 = [&](size_t k) { return (uint32_t)(2 + 2 * k); };
    const uint32_t var_syms = mvars ? (uint32_t)((has_const ? 1 : 0) + (has_global ? 1 : 0) + (has_init ? 1 : 0) + (has_zero ? 1 : 0) + mvars->size()) : 0;
    auto func_sym = [&](size_t k) { return (uint32_t)(1 + 2 * n + var_syms + k); };

    StrTab shstr, str;
    e.sections.resize(first + 3 * n + mod_sections + (has_init ? 1 : 0) + (has_zero ? 1 : 0));
    auto &S = e.sections;
    S[1].name = ".shstrtab", S[1].type = kShtStrtab, S[1].align = 1;
    S[2].name = ".strtab", S[2].type = kShtStrtab, S[2].align = 1;
    S[3].name = ".symtab", S[3].type = kShtSymtab, S[3].align = 8, S[3].entsize = 24, S[3].link = 2;
    S[4].name = ".nv.info", S[4].type = kShtNvInfo, S[4].align = 4, S[4].link = 3;
    Bytes global_info;
    for (size_t k = 0; k < n; ++k) {
        const CompiledKernel &ck = kernels[k];

        sass::ElfSection &info = S[info_idx(k)];
        info.name = ".nv.info." + ck.name, info.type = kShtNvInfo, info.flags = kShfInfoLink, info.align = 4;
        info.link = 3, info.info = text_idx(k);
        sass::ElfSection &c0 = S[c0_idx(k)];
        c0.name = ".nv.constant0." + ck.name, c0.type = kShtProgbits, c0.flags = kShfAlloc | kShfInfoLink;
        c0.align = 4, c0.info = text_idx(k);
        c0.data.assign(ai.param_base + ck.param_bytes, 0);
        sass::ElfSection &tx = S[text_idx(k)];
        tx.name = ".text." + ck.name, tx.type = kShtProgbits, tx.flags = kShfAlloc | kShfExec;
        tx.align = ai.text_align ? ai.text_align : 128, tx.link = 3;
        // up to sm_89 the register count rides in the top byte of sh_info; sm_90 cubins keep it
        // only in .nv.info (REGCOUNT)
        tx.info = (post90 ? 0u : (uint32_t)ck.registers << 24) | func_sym(k);
        Bytes code;
        for (const sass::Word &w : ck.words) code.U64(w.lo), code.U64(w.hi);
        tx.data = std::move(code.v);

        // .nv.info.<k> in ptxas's order: up to sm_89 [SW_WAR] CUDA_API_VERSION [0x35]
        // PARAM_CBANK CBANK_PARAM_SIZE KPARAM_INFO... MAXREG_COUNT 0x5f EXIT_INSTR_OFFSETS
        // [CTAIDZ_USED] [CRS_STACK_SIZE]; sm_90 CUDA_API_VERSION KPARAM_INFO... 0x50 MAXREG_COUNT
        // 0x5f EXIT_INSTR_OFFSETS [CRS_STACK_SIZE] CBANK_PARAM_SIZE PARAM_CBANK SW_WAR.
        const ArchAttrs &aa = AttrsOf(arch);
        bool sm90 = post90;
        Bytes a;
        if (!sm90 && aa.sw_war >= 0) a.Attr(kAttrSwWar, {(uint32_t)aa.sw_war});
        a.Attr(kAttrCudaApiVersion, {0x82});
        if (aa.nval35) a.Nval(kAttrNval35);
        if (!sm90) {  // sm_90+: after EXIT_INSTR_OFFSETS
            a.Attr(kAttrParamCbank, {sec_sym_c0(k), ai.param_base | (ck.param_bytes << 16)});
            a.Hval(kAttrCbankParamSize, (uint16_t)ck.param_bytes);
        }
        for (size_t p = ck.params.size(); p-- > 0;)
            a.Attr(kAttrKparamInfo, {0, (uint32_t)p | (ck.params[p].offset << 16), 0x1f000u | (ck.params[p].size << 18)});
        if (aa.hval50 >= 0) a.Hval(kAttrHval50, (uint16_t)aa.hval50);
        a.Hval(kAttrMaxregCount, 0xff);
        if (ck.barriers > 0) a.U8(kFmtBval), a.U8(kAttrNumBarriers), a.U16((uint16_t)ck.barriers);
        if (aa.hval5f >= 0) a.Hval(kAttrHval5f, (uint16_t)aa.hval5f);
        // warp collectives with a member mask (SHFL, VOTE, MATCH, WARPSYNC): COOP_GROUP_MASK_REGIDS (0xffffffff, an
        // immediate full mask, per instruction) then COOP_GROUP_INSTR_OFFSETS, as ptxas writes them
        std::vector<uint32_t> coop;
        for (size_t i = 0; i < ck.text.size(); ++i) {
            std::string op = ck.text[i];
            if (!op.empty() && op[0] == '@') op = op.substr(op.find(' ') + 1);
            // (activemask, `VOTE.ANY R, PT, PT`, has no member mask: not listed)
            bool activemask = op.rfind("VOTE.ANY R", 0) == 0 && op.size() >= 8 && op.compare(op.size() - 8, 8, ", PT, PT") == 0;
            if (op.rfind("SHFL.", 0) == 0 || op.rfind("MATCH.", 0) == 0 || op.rfind("WARPSYNC", 0) == 0 || (op.rfind("VOTE.", 0) == 0 && !activemask))
                coop.push_back((uint32_t)(16 * i));
        }
        if (!coop.empty()) {
            a.U8(kFmtSval), a.U8(kAttrCoopGroupMaskRegids), a.U16((uint16_t)(4 * coop.size()));
            for (size_t i = 0; i < coop.size(); ++i) a.U32(0xffffffffu);
            a.U8(kFmtSval), a.U8(kAttrCoopGroupInstrOffsets), a.U16((uint16_t)(4 * coop.size()));
            for (uint32_t o : coop) a.U32(o);
        }
        if (!ck.exit_offsets.empty()) {
            a.U8(kFmtSval), a.U8(kAttrExitInstrOffsets), a.U16((uint16_t)(4 * ck.exit_offsets.size()));
            for (uint32_t o : ck.exit_offsets) a.U32(o);
        }
        if (aa.ctaidz_used)
            for (const std::string &line : ck.text)
                if (line.find("SR_CTAID.Z") != std::string::npos) {
                    a.Nval(kAttrCtaidzUsed);
                    break;
                }
        // the call-return stack: ptxas declares it (0 bytes: convergence uses barrier registers
        // since sm_70) for kernels with loops or convergence regions (BSSY)
        if (ck.backward_branch || ck.uses_bssy) a.Attr(kAttrCrsStackSize, {0});
        if (sm90) {
            // CBANK_PARAM_SIZE before PARAM_CBANK here
            a.Hval(kAttrCbankParamSize, (uint16_t)ck.param_bytes);
            a.Attr(kAttrParamCbank, {sec_sym_c0(k), ai.param_base | (ck.param_bytes << 16)});
            if (aa.sw_war >= 0) a.Attr(kAttrSwWar, {(uint32_t)aa.sw_war});
        }
        info.data = std::move(a.v);

        global_info.Attr(kAttrRegcount, {func_sym(k), (uint32_t)ck.registers});
        global_info.Attr(kAttrFrameSize, {func_sym(k), kernels[k].frame_bytes});
        global_info.Attr(kAttrMinStackSize, {func_sym(k), kernels[k].frame_bytes});
    }
    S[4].data = std::move(global_info.v);

    // sm_90: the tool notes and the compatibility attributes that cuobjdump requires there
    // (.note.nv.tkinfo: producer strings; .note.nv.cuinfo: SM and CUDA API version, linked to
    // the tkinfo note and the .nv.compat section; .nv.compat: the attribute list ptxas writes)
    if (post90) {
        uint32_t tk = 5, cu = 6, compat = 7;
        auto note = [](uint32_t type, const std::vector<uint8_t> &desc) {
            Bytes b;
            const char name[] = "NVIDIA Corp";
            b.U32(sizeof name), b.U32((uint32_t)desc.size()), b.U32(type);
            for (char c : name) b.U8((uint8_t)c);
            b.v.insert(b.v.end(), desc.begin(), desc.end());
            while (b.v.size() % 4) b.U8(0);
            return b.v;
        };
        Bytes tkdesc;
        std::string strings = std::string(1, '\0') + "rndn-sasscomp" + '\0' + "rndn PTX to SASS compiler" + '\0' + "rndn" + '\0' + "-arch " + ai.name + '\0';
        uint32_t o_tool = 1, o_ver = o_tool + 14, o_build = o_ver + 26, o_opts = o_build + 5;
        tkdesc.U32(2), tkdesc.U32(0), tkdesc.U32(o_tool), tkdesc.U32(o_ver), tkdesc.U32(o_build), tkdesc.U32(o_opts);
        for (char c : strings) tkdesc.U8((uint8_t)c);
        while (tkdesc.v.size() % 4) tkdesc.U8(0);  // descsz is a multiple of 4, as ptxas writes it
        S[tk].name = ".note.nv.tkinfo", S[tk].type = 7, S[tk].flags = 0x2000000, S[tk].align = 4;
        S[tk].data = note(2000, tkdesc.v);
        Bytes cudesc;
        cudesc.U16(2), cudesc.U16((uint16_t)ai.sm), cudesc.U32(0x82);
        S[cu].name = ".note.nv.cuinfo", S[cu].type = 7, S[cu].flags = 0x1000040, S[cu].align = 4;
        S[cu].link = tk, S[cu].info = compat;
        S[cu].data = note(1000, cudesc.v);
        static const uint8_t kCompat[] = {0x02, 0x09, 0x00, 0x00, 0x02, 0x02, 0x01, 0x00, 0x02, 0x05, 0x05, 0x00,
                                          0x03, 0x07, 0x01, 0x01, 0x02, 0x03, 0x00, 0x00, 0x02, 0x06, 0x01, 0x00,
                                          0x04, 0x0b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};
        S[compat].name = ".nv.compat", S[compat].type = 0x70000086, S[compat].align = 4;
        S[compat].data.assign(kCompat, kCompat + sizeof kCompat);
        // attribute 0x0b (8 bytes) differs per architecture in ptxas's cubins: 0 on sm_90,
        // 1 on sm_100, 0x50 on sm_120
        S[compat].data[28] = arch == sass::Arch::SM_100 ? 0x01 : arch == sass::Arch::SM_120 ? 0x50 : 0x00;
    }

    // .nv.shared.<k>: the kernel's static shared memory (NOBITS, linked to its .text as ptxas does)
    for (size_t k = 0; k < n; ++k) {
        if (!kernels[k].uses_shared) continue;
        sass::ElfSection sh;
        sh.name = ".nv.shared." + kernels[k].name, sh.type = kShtNobits, sh.flags = kShfWrite | kShfAlloc | kShfInfoLink;
        sh.align = 16, sh.info = text_idx(k), sh.size = kernels[k].shared_bytes;
        S.push_back(std::move(sh));
    }

    // module variables' sections: bank 3 holds the .const data; bank 4 one 8-byte slot per
    // .global variable, filled by the loader through R_CUDA_64 relocations against the variable
    if (has_const) {
        sass::ElfSection &c3 = S[c3_idx];
        c3.name = ".nv.constant3", c3.type = kShtProgbits, c3.flags = kShfAlloc, c3.align = std::max<uint32_t>(4, const_align);
        c3.data.assign(const_bytes, 0);
        for (const ModuleVariable &mv : *mvars)
            if (mv.is_const && mv.initialised) std::copy(mv.init.begin(), mv.init.end(), c3.data.begin() + mv.offset);
    }
    if (has_global) {
        sass::ElfSection &c4 = S[c4_idx];
        c4.name = ".nv.constant4", c4.type = kShtProgbits, c4.flags = kShfAlloc, c4.align = 8;
        c4.data.assign(8 * slots, 0);
        sass::ElfSection &r4 = S[rel4_idx];
        r4.name = post90 ? ".rela.nv.constant4" : ".rel.nv.constant4", r4.type = post90 ? kShtRela : kShtRel, r4.flags = kShfInfoLink;
        r4.align = 8, r4.entsize = post90 ? 24 : 16, r4.link = 3, r4.info = c4_idx;
        if (action_idx) {  // the relocation-action table ptxas writes up to sm_89 (the same 16 bytes in every cubin)
            static const uint8_t kRelAction[] = {0x73, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x11, 0x25, 0, 0x05, 0x36};
            sass::ElfSection &ra = S[action_idx];
            ra.name = ".nv.rel.action", ra.type = kShtNvRelAction, ra.align = 8, ra.entsize = 8;
            ra.data.assign(kRelAction, kRelAction + sizeof kRelAction);
        }
    }
    if (has_init) {
        sass::ElfSection &gi = S[init_idx];
        gi.name = ".nv.global.init", gi.type = kShtProgbits, gi.flags = kShfWrite | kShfAlloc, gi.align = std::max<uint32_t>(4, init_align);
        gi.data.assign(init_bytes, 0);
        for (const ModuleVariable &mv : *mvars)
            if (!mv.is_const && mv.initialised) std::copy(mv.init.begin(), mv.init.end(), gi.data.begin() + mv.offset);
    }
    if (has_zero) {
        sass::ElfSection &gz = S[zero_idx];
        gz.name = ".nv.global", gz.type = kShtNobits, gz.flags = kShfWrite | kShfAlloc, gz.align = std::max<uint32_t>(4, zero_align);
        gz.size = zero_bytes;
    }

    // symbol table
    Bytes sym;
    auto add_sym = [&](uint32_t name, uint8_t info, uint8_t other, uint16_t shndx, uint64_t value, uint64_t size) {
        sym.U32(name), sym.U8(info), sym.U8(other), sym.U16(shndx), sym.U64(value), sym.U64(size);
    };
    add_sym(0, 0, 0, 0, 0, 0);
    for (size_t k = 0; k < n; ++k) {
        add_sym(str.Add(S[text_idx(k)].name), 0x03, 0, (uint16_t)text_idx(k), 0, 0);  // STB_LOCAL STT_SECTION
        add_sym(str.Add(S[c0_idx(k)].name), 0x03, 0, (uint16_t)c0_idx(k), 0, 0);
    }
    if (mvars) {
        uint32_t next = 1 + 2 * (uint32_t)n;
        for (uint32_t idx : {c3_idx, c4_idx, init_idx, zero_idx})
            if (idx) add_sym(str.Add(S[idx].name), 0x03, 0, (uint16_t)idx, 0, 0), ++next;
        Bytes rela;
        for (const ModuleVariable &mv : *mvars) {  // STB_LOCAL STT_OBJECT
            uint32_t sec = mv.is_const ? c3_idx : mv.initialised ? init_idx : zero_idx;
            add_sym(str.Add(mv.name), 0x01, 0, (uint16_t)sec, mv.offset, mv.size);
            if (!mv.is_const) {  // R_CUDA_64 (addend 0 in RELA)
                rela.U64(mv.slot), rela.U64((uint64_t)next << 32 | 2);
                if (post90) rela.U64(0);
            }
            ++next;
        }
        if (has_global) S[rel4_idx].data = std::move(rela.v);
    }
    for (size_t k = 0; k < n; ++k)  // STB_GLOBAL STT_FUNC, STO_CUDA_ENTRY | visibility default
        add_sym(str.Add(kernels[k].name), 0x12, 0x10, (uint16_t)text_idx(k), 0, S[text_idx(k)].data.size());
    S[3].data = std::move(sym.v);
    S[3].info = (uint32_t)(1 + 2 * n + var_syms);  // first global symbol
    S[2].data = std::move(str.data);
    for (size_t i = 1; i < S.size(); ++i) S[i].name_off = shstr.Add(S[i].name);
    S[1].data = std::move(shstr.data);
    (void)sec_sym_text;

    // program headers as ptxas writes them: the table (PHDR, and a read-only load of it), the
    // code (read + execute), the constant banks (read-only).  An H200 ran code whose layout had
    // one read-execute load over constants and code and none over the table: parameters did not
    // arrive where the code read them.
    sass::ElfSegment phdr, load_ph, load_code, load_const;
    phdr.type = 6, phdr.flags = 4, phdr.align = 8;
    load_ph.type = 1, load_ph.flags = 4, load_ph.align = 8;
    load_code.type = 1, load_code.flags = 5, load_code.align = 8;
    load_const.type = 1, load_const.flags = 4, load_const.align = 8;
    if (!mvars) {
        e.segments = {phdr, load_ph, load_code, load_const};
    } else {
        // with module variables, as ptxas: banks 3 and 4, and a writable load of .nv.global.init and
        // .nv.global after the code
        auto cover = [](sass::ElfSegment *g, std::initializer_list<uint32_t> idxs) {
            for (uint32_t i : idxs)
                if (i) g->cover.push_back(i);
        };
        sass::ElfSegment banks = load_const, rw;
        cover(&banks, {c3_idx, c4_idx});
        rw.type = 1, rw.flags = 6, rw.align = 8;
        cover(&rw, {init_idx, zero_idx});
        if (post90) {  // banks 3/4 read-only before the code, the kernels' banks 0 last
            for (size_t k = 0; k < n; ++k) load_code.cover.push_back(text_idx(k)), load_const.cover.push_back(c0_idx(k));
            e.segments = {phdr, load_ph};
            if (!banks.cover.empty()) e.segments.push_back(banks);
            e.segments.push_back(load_code);
        } else {  // up to sm_89: the table read + execute, one such load over every bank and the code, the table again last
            sass::ElfSegment rx = load_code;
            phdr.flags = 5, load_const = load_code, load_const.cover = {sass::kCoverHeaders};
            rx.cover = banks.cover;
            for (size_t k = 0; k < n; ++k) rx.cover.push_back(c0_idx(k)), rx.cover.push_back(text_idx(k));
            e.segments = {phdr, rx};
        }
        if (!rw.cover.empty()) e.segments.push_back(rw);
        e.segments.push_back(load_const);
    }
    sass::LayOut(&e);
    return sass::WriteCubin(e);
}

}  // namespace rndn::sasscomp
