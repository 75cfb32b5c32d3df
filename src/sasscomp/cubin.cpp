// The cubin builder: an ELF image written from the compiled kernels, laid out as ptxas lays
// its cubins out (assembler's LayOut), with the .nv.info attributes the driver and the tools read.
#include <cstring>

#include "sasscomp/sasscomp.h"

namespace rndn::sasscomp {
namespace {

// .nv.info attribute ids and formats (EIATTR_* / EIFMT_*; facts from ptxas output, anchors.md).
enum : uint8_t { kFmtNval = 0x01, kFmtBval = 0x02, kFmtHval = 0x03, kFmtSval = 0x04 };
enum : uint8_t {
    kAttrParamCbank = 0x0a,
    kAttrFrameSize = 0x11,
    kAttrMinStackSize = 0x12,
    kAttrKparamInfo = 0x17,
    kAttrCbankParamSize = 0x19,
    kAttrMaxregCount = 0x1b,
    kAttrExitInstrOffsets = 0x1c,
    kAttrRegcount = 0x2f,
    kAttrCudaApiVersion = 0x37,
    kAttrNumBarriers = 0x4c,
};
constexpr uint32_t kShtProgbits = 1, kShtSymtab = 2, kShtStrtab = 3, kShtNobits = 8, kShtNvInfo = 0x70000000;
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
    // section indices: 0 null, 1 .shstrtab, 2 .strtab, 3 .symtab, 4 .nv.info,
    // then per kernel .nv.info.<k>, then per kernel .nv.constant0.<k>, then per kernel .text.<k>
    auto info_idx = [&](size_t k) { return (uint32_t)(5 + k); };
    auto c0_idx = [&](size_t k) { return (uint32_t)(5 + n + k); };
    auto text_idx = [&](size_t k) { return (uint32_t)(5 + 2 * n + k); };
    // symbols: 0 null, then per kernel the section symbols of .text and .nv.constant0 (local),
    // then the kernels (global functions)
    auto sec_sym_text = [&](size_t k) { return (uint32_t)(1 + 2 * k); };
    auto sec_sym_c0 = [&](size_t k) { return (uint32_t)(2 + 2 * k); };
    auto func_sym = [&](size_t k) { return (uint32_t)(1 + 2 * n + k); };

    StrTab shstr, str;
    e.sections.resize(5 + 3 * n);
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

        Bytes a;
        a.Attr(kAttrCudaApiVersion, {0x82});
        if (!post90) {  // sm_90+ cubins leave the parameter bank implicit
            a.Attr(kAttrParamCbank, {sec_sym_c0(k), ai.param_base | (ck.param_bytes << 16)});
            a.Hval(kAttrCbankParamSize, (uint16_t)ck.param_bytes);
        }
        for (size_t p = ck.params.size(); p-- > 0;)
            a.Attr(kAttrKparamInfo, {0, (uint32_t)p | (ck.params[p].offset << 16), 0x1f000u | (ck.params[p].size << 18)});
        a.Hval(kAttrMaxregCount, 0xff);
        if (ck.barriers > 0) a.U8(kFmtBval), a.U8(kAttrNumBarriers), a.U16((uint16_t)ck.barriers);
        if (!ck.exit_offsets.empty()) {
            a.U8(kFmtSval), a.U8(kAttrExitInstrOffsets), a.U16((uint16_t)(4 * ck.exit_offsets.size()));
            for (uint32_t o : ck.exit_offsets) a.U32(o);
        }
        info.data = std::move(a.v);

        global_info.Attr(kAttrRegcount, {func_sym(k), (uint32_t)ck.registers});
        global_info.Attr(kAttrFrameSize, {func_sym(k), 0});
        global_info.Attr(kAttrMinStackSize, {func_sym(k), 0});
    }
    S[4].data = std::move(global_info.v);

    // sm_90: the tool notes and the compatibility attributes that cuobjdump requires there
    // (.note.nv.tkinfo: producer strings; .note.nv.cuinfo: SM and CUDA API version, linked to
    // the tkinfo note and the .nv.compat section; .nv.compat: the attribute list ptxas writes)
    if (post90) {
        uint32_t tk = (uint32_t)S.size(), cu = tk + 1, compat = tk + 2;
        S.resize(S.size() + 3);
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
    (void)kFmtNval;

    // .nv.shared.<k>: the kernel's static shared memory (NOBITS, linked to its .text as ptxas does)
    for (size_t k = 0; k < n; ++k) {
        if (!kernels[k].uses_shared) continue;
        sass::ElfSection sh;
        sh.name = ".nv.shared." + kernels[k].name, sh.type = kShtNobits, sh.flags = kShfWrite | kShfAlloc | kShfInfoLink;
        sh.align = 16, sh.info = text_idx(k), sh.size = kernels[k].shared_bytes;
        S.push_back(std::move(sh));
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
    for (size_t k = 0; k < n; ++k)  // STB_GLOBAL STT_FUNC, STO_CUDA_ENTRY | visibility default
        add_sym(str.Add(kernels[k].name), 0x12, 0x10, (uint16_t)text_idx(k), 0, S[text_idx(k)].data.size());
    S[3].data = std::move(sym.v);
    S[3].info = (uint32_t)(1 + 2 * n);  // first global symbol
    S[2].data = std::move(str.data);
    for (size_t i = 1; i < S.size(); ++i) S[i].name_off = shstr.Add(S[i].name);
    S[1].data = std::move(shstr.data);
    (void)sec_sym_text;

    // program headers: PHDR, one load segment for the code and constants, one for the headers
    sass::ElfSegment phdr, load, load_ph;
    phdr.type = 6, phdr.flags = 5, phdr.align = 8;
    load.type = 1, load.flags = 5, load.align = 8;
    load_ph.type = 1, load_ph.flags = 5, load_ph.align = 8;
    e.segments = {phdr, load, load_ph};
    sass::LayOut(&e);
    return sass::WriteCubin(e);
}

}  // namespace rndn::sasscomp
