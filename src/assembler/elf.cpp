// Cubin (ELF64, little-endian, EM_CUDA) reader and writer.
#include <cstring>

#include "assembler/assembler.h"

namespace rndn::sass {

namespace {

constexpr uint32_t kShtNobits = 8;
constexpr uint32_t kPtLoad = 1, kPtPhdr = 6;
constexpr uint64_t kShfAlloc = 2, kShfExec = 4;
constexpr uint16_t kEmCuda = 190;

template <class T>
T Load(const uint8_t *p) {
    T v;
    std::memcpy(&v, p, sizeof v);
    return v;
}
template <class T>
void Store(uint8_t *p, T v) {
    std::memcpy(p, &v, sizeof v);
}

bool InBounds(uint64_t off, uint64_t len, uint64_t total) { return off <= total && len <= total - off; }

uint64_t AlignUp(uint64_t v, uint64_t a) { return a > 1 ? (v + a - 1) / a * a : v; }

}  // namespace

int ElfFile::Find(std::string_view name) const {
    for (size_t i = 0; i < sections.size(); ++i)
        if (sections[i].name == name) return static_cast<int>(i);
    return -1;
}

Expected<Arch> ElfFile::GetArch() const {
    // e_flags: SM number in bits 8..15 (CUDA 12+ cubins, anchors.md §C3).
    int sm = (flags >> 8) & 0xff;
    return ParseArch(std::to_string(sm));
}

Expected<ElfFile> ReadCubin(const std::vector<uint8_t> &bytes) {
    const uint8_t *p = bytes.data();
    uint64_t n = bytes.size();
    auto bad = [](const std::string &m) { return Status::ParseError("cubin:1:1: " + m); };
    if (n < 64) return bad("file shorter than an ELF64 header");
    if (std::memcmp(p, "\x7f" "ELF", 4) != 0) return bad("not an ELF file");
    if (p[4] != 2 || p[5] != 1) return bad("not a little-endian ELF64 file");
    ElfFile e;
    std::memcpy(e.ident, p, 16);
    e.type = Load<uint16_t>(p + 16);
    e.machine = Load<uint16_t>(p + 18);
    e.version = Load<uint32_t>(p + 20);
    e.entry = Load<uint64_t>(p + 24);
    e.phoff = Load<uint64_t>(p + 32);
    e.shoff = Load<uint64_t>(p + 40);
    e.flags = Load<uint32_t>(p + 48);
    e.ehsize = Load<uint16_t>(p + 52);
    e.phentsize = Load<uint16_t>(p + 54);
    uint16_t phnum = Load<uint16_t>(p + 56);
    e.shentsize = Load<uint16_t>(p + 58);
    uint16_t shnum = Load<uint16_t>(p + 60);
    e.shstrndx = Load<uint16_t>(p + 62);
    if (e.machine != kEmCuda) return bad("e_machine is not EM_CUDA (190)");
    if (e.ehsize != 64 || (shnum && e.shentsize != 64) || (phnum && e.phentsize != 56))
        return bad("unexpected ELF header/entry sizes");
    if (!InBounds(e.shoff, uint64_t{shnum} * 64, n)) return bad("section headers out of bounds");
    if (!InBounds(e.phoff, uint64_t{phnum} * 56, n)) return bad("program headers out of bounds");
    if (shnum == 0 || e.shstrndx >= shnum) return bad("bad section-name string table index");
    for (uint16_t i = 0; i < shnum; ++i) {
        const uint8_t *h = p + e.shoff + uint64_t{i} * 64;
        ElfSection s;
        s.name_off = Load<uint32_t>(h);
        s.type = Load<uint32_t>(h + 4);
        s.flags = Load<uint64_t>(h + 8);
        s.addr = Load<uint64_t>(h + 16);
        s.offset = Load<uint64_t>(h + 24);
        s.size = Load<uint64_t>(h + 32);
        s.link = Load<uint32_t>(h + 40);
        s.info = Load<uint32_t>(h + 44);
        s.align = Load<uint64_t>(h + 48);
        s.entsize = Load<uint64_t>(h + 56);
        if (s.type != kShtNobits && s.type != 0) {
            if (!InBounds(s.offset, s.size, n)) return bad("section " + std::to_string(i) + " data out of bounds");
            s.data.assign(p + s.offset, p + s.offset + s.size);
        }
        e.sections.push_back(std::move(s));
    }
    const ElfSection &strs = e.sections[e.shstrndx];
    for (ElfSection &s : e.sections) {
        if (s.name_off >= strs.data.size()) {
            if (s.name_off != 0) return bad("section name offset out of bounds");
            continue;
        }
        const char *b = reinterpret_cast<const char *>(strs.data.data()) + s.name_off;
        size_t len = strnlen(b, strs.data.size() - s.name_off);
        if (len == strs.data.size() - s.name_off) return bad("unterminated section name");
        s.name.assign(b, len);
    }
    for (uint16_t i = 0; i < phnum; ++i) {
        const uint8_t *h = p + e.phoff + uint64_t{i} * 56;
        ElfSegment g;
        g.type = Load<uint32_t>(h);
        g.flags = Load<uint32_t>(h + 4);
        g.offset = Load<uint64_t>(h + 8);
        g.vaddr = Load<uint64_t>(h + 16);
        g.paddr = Load<uint64_t>(h + 24);
        g.filesz = Load<uint64_t>(h + 32);
        g.memsz = Load<uint64_t>(h + 40);
        g.align = Load<uint64_t>(h + 48);
        e.segments.push_back(g);
    }
    return e;
}

Expected<std::vector<uint8_t>> WriteCubin(const ElfFile &e) {
    if (e.sections.empty() || e.sections.size() > 0xffff || e.segments.size() > 0xffff)
        return Status::UserError(sqlstate::kInvalidParameter, "cubin needs 1..65535 sections");
    uint64_t end = 64;
    auto grow = [&](uint64_t off, uint64_t len) { end = std::max(end, off + len); };
    grow(e.shoff, e.sections.size() * 64);
    grow(e.phoff, e.segments.size() * 56);
    for (const ElfSection &s : e.sections) {
        if (s.type == kShtNobits || s.type == 0) continue;
        if (s.data.size() != s.size) return Status::Internal("section '" + s.name + "' size does not match its data");
        if (s.offset < 64 && s.size) return Status::Internal("section '" + s.name + "' overlaps the ELF header");
        grow(s.offset, s.size);
    }
    if (end > (uint64_t{1} << 32)) return Status::OutOfMemory("cubin larger than 4 GiB");
    std::vector<uint8_t> out(end, 0);
    uint8_t *p = out.data();
    std::memcpy(p, e.ident, 16);
    Store<uint16_t>(p + 16, e.type);
    Store<uint16_t>(p + 18, e.machine);
    Store<uint32_t>(p + 20, e.version);
    Store<uint64_t>(p + 24, e.entry);
    Store<uint64_t>(p + 32, e.phoff);
    Store<uint64_t>(p + 40, e.shoff);
    Store<uint32_t>(p + 48, e.flags);
    Store<uint16_t>(p + 52, e.ehsize);
    Store<uint16_t>(p + 54, e.phentsize);
    Store<uint16_t>(p + 56, static_cast<uint16_t>(e.segments.size()));
    Store<uint16_t>(p + 58, e.shentsize);
    Store<uint16_t>(p + 60, static_cast<uint16_t>(e.sections.size()));
    Store<uint16_t>(p + 62, e.shstrndx);
    for (size_t i = 0; i < e.sections.size(); ++i) {
        const ElfSection &s = e.sections[i];
        uint8_t *h = p + e.shoff + i * 64;
        Store<uint32_t>(h, s.name_off);
        Store<uint32_t>(h + 4, s.type);
        Store<uint64_t>(h + 8, s.flags);
        Store<uint64_t>(h + 16, s.addr);
        Store<uint64_t>(h + 24, s.offset);
        Store<uint64_t>(h + 32, s.size);
        Store<uint32_t>(h + 40, s.link);
        Store<uint32_t>(h + 44, s.info);
        Store<uint64_t>(h + 48, s.align);
        Store<uint64_t>(h + 56, s.entsize);
        if (!s.data.empty() && s.type != kShtNobits) std::memcpy(p + s.offset, s.data.data(), s.data.size());
    }
    for (size_t i = 0; i < e.segments.size(); ++i) {
        const ElfSegment &g = e.segments[i];
        uint8_t *h = p + e.phoff + i * 56;
        Store<uint32_t>(h, g.type);
        Store<uint32_t>(h + 4, g.flags);
        Store<uint64_t>(h + 8, g.offset);
        Store<uint64_t>(h + 16, g.vaddr);
        Store<uint64_t>(h + 24, g.paddr);
        Store<uint64_t>(h + 32, g.filesz);
        Store<uint64_t>(h + 40, g.memsz);
        Store<uint64_t>(h + 48, g.align);
    }
    return out;
}

void LayOut(ElfFile *e) {
    // Sections in index order; then the segments, as ptxas writes them: PT_PHDR (the table), a
    // read-only PT_LOAD before the executable one (the table again), the executable PT_LOAD
    // (the code), a writable PT_LOAD (the NOBITS sections: shared memory), and a read-only
    // PT_LOAD after the executable one (the other allocated sections: constant banks).
    uint64_t off = 64;
    struct Range {
        uint64_t lo = UINT64_MAX, hi = 0;
        void Add(uint64_t a, uint64_t b) { lo = std::min(lo, a), hi = std::max(hi, b); }
        bool empty() const { return lo == UINT64_MAX; }
    } code, data, nobits, all;
    for (size_t i = 1; i < e->sections.size(); ++i) {
        ElfSection &s = e->sections[i];
        s.size = s.type == kShtNobits ? s.size : s.data.size();
        off = AlignUp(off, s.align);
        s.offset = off;
        if (s.type != kShtNobits) off += s.size;
        if (!(s.flags & kShfAlloc)) continue;
        if (s.type == kShtNobits) nobits.Add(s.offset, s.offset + s.size);
        else {
            all.Add(s.offset, s.offset + s.size);
            if (s.flags & kShfExec) code.Add(s.offset, s.offset + s.size);
            else data.Add(s.offset, s.offset + s.size);
        }
    }
    if (code.empty()) code = all;  // no section marked executable: the one load holds them all
    e->shoff = AlignUp(off, 8);
    e->phoff = e->shoff + e->sections.size() * 64;
    const uint64_t phsize = e->segments.size() * 56;
    bool after_code = false;
    for (ElfSegment &g : e->segments) {
        auto cover = [&](const Range &r, bool bits) {
            g.offset = r.empty() ? e->phoff : r.lo;
            g.memsz = r.empty() ? 0 : r.hi - r.lo;
            g.filesz = bits ? g.memsz : 0;
        };
        if (g.type == kPtPhdr) {
            g.offset = e->phoff;
            g.filesz = g.memsz = phsize;
        } else if (g.type == kPtLoad && g.cover.size() == 1 && g.cover[0] == kCoverHeaders) {
            g.offset = e->phoff;
            g.filesz = g.memsz = phsize;
        } else if (g.type == kPtLoad && !g.cover.empty()) {
            uint64_t lo = UINT64_MAX, file_hi = 0, mem_hi = 0;
            for (uint32_t i : g.cover) {
                if (i >= e->sections.size()) continue;
                const ElfSection &s = e->sections[i];
                lo = std::min(lo, s.offset);
                if (s.type != kShtNobits) file_hi = std::max(file_hi, s.offset + s.size);
                mem_hi = std::max(mem_hi, s.offset + s.size);
            }
            if (lo == UINT64_MAX) lo = e->phoff;
            g.offset = lo;
            g.filesz = file_hi > lo ? file_hi - lo : 0;
            g.memsz = mem_hi > lo ? mem_hi - lo : 0;
            if (g.flags & 1) after_code = true;
        } else if (g.type != kPtLoad) {
            continue;
        } else if (g.flags & 1) {  // executable
            cover(code, true);
            after_code = true;
        } else if (g.flags & 2) {  // writable
            cover(nobits, false);
        } else if (after_code) {
            cover(data, true);
        } else {
            g.offset = e->phoff;
            g.filesz = g.memsz = phsize;
        }
    }
}

Expected<std::vector<ElfSymbol>> ReadSymbols(const ElfFile &e) {
    std::vector<ElfSymbol> out;
    int si = e.Find(".symtab");
    if (si < 0) return out;
    const ElfSection &sym = e.sections[si];
    if (sym.link >= e.sections.size()) return Status::ParseError("cubin:1:1: .symtab links to a bad section");
    const ElfSection &str = e.sections[sym.link];
    if (sym.data.size() % 24) return Status::ParseError("cubin:1:1: .symtab size is not a multiple of 24");
    for (size_t off = 0; off < sym.data.size(); off += 24) {
        const uint8_t *q = sym.data.data() + off;
        ElfSymbol s;
        uint32_t name = Load<uint32_t>(q);
        s.info = q[4];
        s.other = q[5];
        s.shndx = Load<uint16_t>(q + 6);
        s.value = Load<uint64_t>(q + 8);
        s.size = Load<uint64_t>(q + 16);
        if (name >= str.data.size()) {
            if (name) return Status::ParseError("cubin:1:1: symbol name out of bounds");
        } else {
            const char *b = reinterpret_cast<const char *>(str.data.data()) + name;
            s.name.assign(b, strnlen(b, str.data.size() - name));
        }
        out.push_back(std::move(s));
    }
    return out;
}

}  // namespace rndn::sass
