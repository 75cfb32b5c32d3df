// Whole-cubin decoding, the rndn-dis listing, and assembling a listing back into a cubin.
//
// Listing format (one directive or instruction per line; '//' starts a comment line):
//   .rndn_cubin 1
//   .elf ident=<32 hex> type=T machine=M version=V flags=F entry=E phoff=P shoff=S
//        ehsize=64 phentsize=56 shentsize=64 shstrndx=N                      (one line)
//   .segment type=T flags=F offset=O vaddr=V paddr=P filesz=S memsz=M align=A
//   .section NAME name_off=N type=T flags=F addr=A offset=O size=S link=L info=I align=A entsize=E
//   .data HEX...            raw bytes of the current (non-.text) section, 32 per line
//   LABEL:                  a branch target in the current .text section
//   /*ADDR*/ [B------:R-:W-:Y:S04] @P0 OPCODE operands ;   /* encoding, ignored */
//   /*ADDR*/ .inst 0x<32 hex> ;   an instruction word no table form decodes, or one whose hidden
//                                  operand (memory descriptor) the preceding text does not imply
// Every number is hexadecimal with a 0x prefix or decimal.  Sections appear in header order.
#include <cstdio>
#include <cstring>
#include <map>
#include <set>
#include <sstream>

#include "assembler/assembler.h"

namespace rndn::sass {

namespace {

constexpr uint32_t kShtNobits = 8;

bool IsText(const ElfSection &s) { return s.name.rfind(".text.", 0) == 0; }

std::string Hex(uint64_t v) {
    char b[24];
    std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
    return b;
}

// Branch-target names for one cubin: function symbols by name, other targets .L_x_N numbered
// in order of first reference (text sections in header order), as nvdisasm does.
class LabelNamer {
public:
    LabelNamer(const ElfFile &elf, const std::vector<ElfSymbol> &syms) {
        for (const ElfSymbol &s : syms) {
            int type = s.info & 0xf;
            if (type == 2 /*STT_FUNC*/ && !s.name.empty()) symbols_[{s.shndx, s.value}] = s.name;
        }
        (void)elf;
    }
    std::string Name(int section, int64_t target) {
        auto it = symbols_.find({section, static_cast<uint64_t>(target)});
        if (it != symbols_.end()) return it->second;
        auto jt = numbers_.find({section, target});
        if (jt == numbers_.end()) jt = numbers_.emplace(std::make_pair(section, target), next_++).first;
        return ".L_x_" + std::to_string(jt->second);
    }
    bool IsSymbol(int section, int64_t target) const {
        return symbols_.count({section, static_cast<uint64_t>(target)}) != 0;
    }

private:
    std::map<std::pair<int, uint64_t>, std::string> symbols_;
    std::map<std::pair<int, int64_t>, int> numbers_;
    int next_ = 0;
};

}  // namespace

Expected<std::vector<DecodedFunction>> DecodeCubin(const ElfFile &elf) {
    RNDN_ASSIGN_OR_RETURN(Arch arch, elf.GetArch());
    RNDN_ASSIGN_OR_RETURN(const Isa *isa, Isa::Get(arch));
    RNDN_ASSIGN_OR_RETURN(std::vector<ElfSymbol> syms, ReadSymbols(elf));
    LabelNamer namer(elf, syms);
    std::vector<DecodedFunction> out;
    for (size_t si = 0; si < elf.sections.size(); ++si) {
        const ElfSection &s = elf.sections[si];
        if (!IsText(s)) continue;
        if (s.data.size() % 16) return Status::ParseError("cubin:1:1: " + s.name + " size is not a multiple of 16");
        DecodedFunction fn;
        fn.section = static_cast<int>(si);
        fn.name = s.name.substr(6);
        for (size_t off = 0; off < s.data.size(); off += 16) {
            DecodedInstruction d;
            d.address = off;
            std::memcpy(&d.word.lo, s.data.data() + off, 8);
            std::memcpy(&d.word.hi, s.data.data() + off + 8, 8);
            auto inst = isa->Decode(d.word, off);
            if (inst.ok()) {
                d.inst = std::move(*inst);
                d.ok = true;
            } else {
                d.error = inst.status().message();
            }
            fn.insts.push_back(std::move(d));
        }
        for (DecodedInstruction &d : fn.insts) {
            if (!d.ok) continue;
            d.text = isa->Print(d.inst, [&](int64_t target) { return namer.Name(fn.section, target); });
        }
        out.push_back(std::move(fn));
    }
    return out;
}

Expected<std::string> Disassemble(const ElfFile &elf) {
    RNDN_ASSIGN_OR_RETURN(std::vector<DecodedFunction> fns, DecodeCubin(elf));
    RNDN_ASSIGN_OR_RETURN(Arch arch, elf.GetArch());
    RNDN_ASSIGN_OR_RETURN(const Isa *isa, Isa::Get(arch));
    std::map<int, const DecodedFunction *> by_section;
    for (const DecodedFunction &f : fns) by_section[f.section] = &f;
    std::ostringstream o;
    o << "// rndn-dis listing (" << GetArchInfo(arch).name << "); rndn-asm --sass rebuilds the cubin from it\n";
    o << ".rndn_cubin 1\n.elf ident=";
    char b[8];
    for (uint8_t c : elf.ident) {
        std::snprintf(b, sizeof b, "%02x", c);
        o << b;
    }
    o << " type=" << Hex(elf.type) << " machine=" << elf.machine << " version=" << Hex(elf.version)
      << " flags=" << Hex(elf.flags) << " entry=" << Hex(elf.entry) << " phoff=" << Hex(elf.phoff)
      << " shoff=" << Hex(elf.shoff) << " ehsize=" << elf.ehsize << " phentsize=" << elf.phentsize
      << " shentsize=" << elf.shentsize << " shstrndx=" << elf.shstrndx << "\n";
    for (const ElfSegment &g : elf.segments)
        o << ".segment type=" << Hex(g.type) << " flags=" << Hex(g.flags) << " offset=" << Hex(g.offset)
          << " vaddr=" << Hex(g.vaddr) << " paddr=" << Hex(g.paddr) << " filesz=" << Hex(g.filesz)
          << " memsz=" << Hex(g.memsz) << " align=" << Hex(g.align) << "\n";
    for (size_t si = 1; si < elf.sections.size(); ++si) {
        const ElfSection &s = elf.sections[si];
        std::string name = s.name.empty() ? "\"\"" : s.name;
        o << "\n.section " << name << " name_off=" << s.name_off << " type=" << Hex(s.type) << " flags=" << Hex(s.flags)
          << " addr=" << Hex(s.addr) << " offset=" << Hex(s.offset) << " size=" << Hex(s.size) << " link=" << s.link
          << " info=" << Hex(s.info) << " align=" << Hex(s.align) << " entsize=" << Hex(s.entsize) << "\n";
        auto it = by_section.find(static_cast<int>(si));
        if (it == by_section.end()) {
            for (size_t k = 0; k < s.data.size(); k += 32) {
                o << ".data ";
                for (size_t j = k; j < s.data.size() && j < k + 32; ++j) {
                    std::snprintf(b, sizeof b, "%02x", s.data[j]);
                    o << b;
                }
                o << "\n";
            }
            continue;
        }
        const DecodedFunction &fn = *it->second;
        // Labels: every branch target that is not a symbol.
        std::map<int64_t, std::set<std::string>> labels;
        for (const DecodedInstruction &d : fn.insts) {
            if (!d.ok) continue;
            const Form &f = isa->forms()[d.inst.form];
            // Recover the printed names from the text by re-running the namer is not needed:
            // the text carries them; collect "`(name)" occurrences with their targets.
            size_t hole = 0, pos = 0;
            for (size_t fi = 0; fi < f.fields.size(); ++fi) {
                if (f.fields[fi].kind != HoleKind::LABEL) continue;
                pos = d.text.find("`(", pos);
                if (pos == std::string::npos) break;
                size_t e = d.text.find(')', pos);
                labels[d.inst.values[fi]].insert(d.text.substr(pos + 2, e - pos - 2));
                pos = e;
                ++hole;
            }
        }
        std::optional<int64_t> desc;  // what Assemble will supply for hidden operands
        for (const DecodedInstruction &d : fn.insts) {
            auto lt = labels.find(static_cast<int64_t>(d.address));
            if (lt != labels.end())
                for (const std::string &l : lt->second) o << l << ":\n";
            char addr[32];
            std::snprintf(addr, sizeof addr, "        /*%04llx*/ ", static_cast<unsigned long long>(d.address));
            char enc[64];
            std::snprintf(enc, sizeof enc, "0x%016llx%016llx", static_cast<unsigned long long>(d.word.hi),
                          static_cast<unsigned long long>(d.word.lo));
            bool text_suffices = d.ok;
            if (d.ok) {
                // A hidden operand the function's text does not imply (not ptxas's choice) would be
                // lost in the text: such a word is written raw.
                Instruction implied = d.inst;
                implied.implicit.reset();
                isa->TrackImplicit(&implied, &desc);
                if (d.inst.implicit) {
                    auto w = isa->Encode(implied, d.address);
                    text_suffices = w.ok() && *w == d.word;
                }
            }
            if (text_suffices) {
                o << addr << FormatControl(d.inst.control) << "  " << d.text << " ;  /* " << enc << " */\n";
            } else if (d.ok) {
                o << addr << ".inst " << enc << " ;  // " << d.text << " (hidden operand " << *d.inst.implicit
                  << " is not the one the function's text implies)\n";
            } else {
                o << addr << ".inst " << enc << " ;  // " << d.error << "\n";
            }
        }
        // Labels past the end (none in ptxas output, kept for completeness).
        for (const auto &[target, names] : labels)
            if (target >= static_cast<int64_t>(s.data.size()))
                for (const std::string &l : names) o << "// label " << l << " at " << Hex(static_cast<uint64_t>(target)) << "\n";
    }
    return o.str();
}

// ----------------------------------------------------------------------------- assembling
namespace {

struct LineCursor {
    int line = 0;
    Status Error(int col, const std::string &m) const {
        return Status::ParseError(std::to_string(line) + ":" + std::to_string(col) + ": " + m);
    }
};

// key=value pairs after the directive word.
Expected<std::map<std::string, std::string>> KeyValues(std::string_view rest, const LineCursor &lc, int col0) {
    std::map<std::string, std::string> kv;
    std::istringstream in{std::string(rest)};
    std::string item;
    while (in >> item) {
        size_t eq = item.find('=');
        if (eq == std::string::npos || eq == 0) return lc.Error(col0, "expected key=value, got '" + item + "'");
        kv[item.substr(0, eq)] = item.substr(eq + 1);
    }
    return kv;
}

Expected<uint64_t> Number(const std::map<std::string, std::string> &kv, const std::string &key, const LineCursor &lc) {
    auto it = kv.find(key);
    if (it == kv.end()) return lc.Error(1, "missing " + key + "=");
    const std::string &v = it->second;
    if (v.empty() || v.size() > 20) return lc.Error(1, "bad number for " + key);
    char *end = nullptr;
    errno = 0;
    uint64_t x = std::strtoull(v.c_str(), &end, 0);
    if (*end || errno) return lc.Error(1, "bad number '" + v + "' for " + key);
    return x;
}

int HexDigit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

std::string_view Trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
    return s;
}

struct PendingInst {
    int line;
    uint64_t address;
    std::string control;
    std::string text;
    bool raw = false;
    Word raw_word;
};

}  // namespace

Expected<ElfFile> Assemble(std::string_view listing) {
    ElfFile elf;
    bool have_elf = false;
    elf.sections.emplace_back();  // null section
    std::vector<std::string> lines;
    {
        size_t s = 0;
        while (s <= listing.size()) {
            size_t e = listing.find('\n', s);
            if (e == std::string_view::npos) e = listing.size();
            lines.emplace_back(listing.substr(s, e - s));
            s = e + 1;
        }
    }
    // Per text section: instructions and labels, encoded once all labels are known.
    std::map<size_t, std::vector<PendingInst>> pending;
    std::map<size_t, std::map<std::string, uint64_t>> labels;
    LineCursor lc;
    for (size_t li = 0; li < lines.size(); ++li) {
        lc.line = static_cast<int>(li + 1);
        std::string_view l = Trim(lines[li]);
        if (l.empty() || l.rfind("//", 0) == 0) continue;
        ElfSection *cur = elf.sections.size() > 1 ? &elf.sections.back() : nullptr;
        if (l.rfind(".rndn_cubin", 0) == 0) continue;
        if (l.rfind(".elf ", 0) == 0) {
            RNDN_ASSIGN_OR_RETURN(auto kv, KeyValues(l.substr(5), lc, 6));
            auto id = kv.find("ident");
            if (id == kv.end() || id->second.size() != 32) return lc.Error(6, "ident= needs 32 hex digits");
            for (int i = 0; i < 16; ++i) {
                int hi = HexDigit(id->second[2 * i]), lo = HexDigit(id->second[2 * i + 1]);
                if (hi < 0 || lo < 0) return lc.Error(6, "bad ident");
                elf.ident[i] = static_cast<uint8_t>(hi * 16 + lo);
            }
            RNDN_ASSIGN_OR_RETURN(uint64_t type, Number(kv, "type", lc));
            RNDN_ASSIGN_OR_RETURN(uint64_t machine, Number(kv, "machine", lc));
            RNDN_ASSIGN_OR_RETURN(uint64_t version, Number(kv, "version", lc));
            RNDN_ASSIGN_OR_RETURN(uint64_t flags, Number(kv, "flags", lc));
            RNDN_ASSIGN_OR_RETURN(elf.entry, Number(kv, "entry", lc));
            RNDN_ASSIGN_OR_RETURN(elf.phoff, Number(kv, "phoff", lc));
            RNDN_ASSIGN_OR_RETURN(elf.shoff, Number(kv, "shoff", lc));
            RNDN_ASSIGN_OR_RETURN(uint64_t ehsize, Number(kv, "ehsize", lc));
            RNDN_ASSIGN_OR_RETURN(uint64_t phentsize, Number(kv, "phentsize", lc));
            RNDN_ASSIGN_OR_RETURN(uint64_t shentsize, Number(kv, "shentsize", lc));
            RNDN_ASSIGN_OR_RETURN(uint64_t shstrndx, Number(kv, "shstrndx", lc));
            elf.type = static_cast<uint16_t>(type);
            elf.machine = static_cast<uint16_t>(machine);
            elf.version = static_cast<uint32_t>(version);
            elf.flags = static_cast<uint32_t>(flags);
            elf.ehsize = static_cast<uint16_t>(ehsize);
            elf.phentsize = static_cast<uint16_t>(phentsize);
            elf.shentsize = static_cast<uint16_t>(shentsize);
            elf.shstrndx = static_cast<uint16_t>(shstrndx);
            have_elf = true;
            continue;
        }
        if (l.rfind(".segment ", 0) == 0) {
            RNDN_ASSIGN_OR_RETURN(auto kv, KeyValues(l.substr(9), lc, 10));
            ElfSegment g;
            RNDN_ASSIGN_OR_RETURN(uint64_t type, Number(kv, "type", lc));
            RNDN_ASSIGN_OR_RETURN(uint64_t flags, Number(kv, "flags", lc));
            g.type = static_cast<uint32_t>(type);
            g.flags = static_cast<uint32_t>(flags);
            RNDN_ASSIGN_OR_RETURN(g.offset, Number(kv, "offset", lc));
            RNDN_ASSIGN_OR_RETURN(g.vaddr, Number(kv, "vaddr", lc));
            RNDN_ASSIGN_OR_RETURN(g.paddr, Number(kv, "paddr", lc));
            RNDN_ASSIGN_OR_RETURN(g.filesz, Number(kv, "filesz", lc));
            RNDN_ASSIGN_OR_RETURN(g.memsz, Number(kv, "memsz", lc));
            RNDN_ASSIGN_OR_RETURN(g.align, Number(kv, "align", lc));
            elf.segments.push_back(g);
            continue;
        }
        if (l.rfind(".section ", 0) == 0) {
            std::string_view rest = Trim(l.substr(9));
            size_t sp = rest.find(' ');
            if (sp == std::string_view::npos) return lc.Error(10, "expected a section name and attributes");
            ElfSection s;
            s.name.assign(rest.substr(0, sp));
            if (s.name == "\"\"") s.name.clear();
            RNDN_ASSIGN_OR_RETURN(auto kv, KeyValues(rest.substr(sp), lc, 10));
            RNDN_ASSIGN_OR_RETURN(uint64_t name_off, Number(kv, "name_off", lc));
            RNDN_ASSIGN_OR_RETURN(uint64_t type, Number(kv, "type", lc));
            RNDN_ASSIGN_OR_RETURN(s.flags, Number(kv, "flags", lc));
            RNDN_ASSIGN_OR_RETURN(s.addr, Number(kv, "addr", lc));
            RNDN_ASSIGN_OR_RETURN(s.offset, Number(kv, "offset", lc));
            RNDN_ASSIGN_OR_RETURN(s.size, Number(kv, "size", lc));
            RNDN_ASSIGN_OR_RETURN(uint64_t link, Number(kv, "link", lc));
            RNDN_ASSIGN_OR_RETURN(uint64_t info, Number(kv, "info", lc));
            RNDN_ASSIGN_OR_RETURN(s.align, Number(kv, "align", lc));
            RNDN_ASSIGN_OR_RETURN(s.entsize, Number(kv, "entsize", lc));
            if (s.size > (uint64_t{1} << 30)) return lc.Error(10, "section too large");
            s.name_off = static_cast<uint32_t>(name_off);
            s.type = static_cast<uint32_t>(type);
            s.link = static_cast<uint32_t>(link);
            s.info = static_cast<uint32_t>(info);
            elf.sections.push_back(std::move(s));
            continue;
        }
        if (l.rfind(".data ", 0) == 0) {
            if (!cur) return lc.Error(1, ".data outside a section");
            std::string_view h = Trim(l.substr(6));
            if (h.size() % 2) return lc.Error(7, "odd number of hex digits");
            for (size_t i = 0; i < h.size(); i += 2) {
                int hi = HexDigit(h[i]), lo = HexDigit(h[i + 1]);
                if (hi < 0 || lo < 0) return lc.Error(static_cast<int>(7 + i), "bad hex digit");
                cur->data.push_back(static_cast<uint8_t>(hi * 16 + lo));
            }
            if (cur->data.size() > cur->size) return lc.Error(1, "more .data than the section size");
            continue;
        }
        if (!cur) return lc.Error(1, "instruction or label outside a section");
        size_t sec = elf.sections.size() - 1;
        uint64_t next_addr = pending[sec].size() * 16;
        if (l.back() == ':' && l.find(' ') == std::string_view::npos) {
            labels[sec][std::string(l.substr(0, l.size() - 1))] = next_addr;
            continue;
        }
        // Instruction: [/*ADDR*/] [CONTROL] TEXT ; [/* comment */ | // comment]
        PendingInst pi;
        pi.line = lc.line;
        pi.address = next_addr;
        std::string_view t = l;
        if (t.rfind("/*", 0) == 0) {
            size_t e = t.find("*/");
            if (e == std::string_view::npos) return lc.Error(1, "unterminated address comment");
            std::string a(t.substr(2, e - 2));
            char *end = nullptr;
            uint64_t addr = std::strtoull(a.c_str(), &end, 16);
            if (a.empty() || *end || addr != next_addr)
                return lc.Error(3, "address marker /*" + a + "*/ does not match the instruction's position " + Hex(next_addr));
            t = Trim(t.substr(e + 2));
        }
        size_t semi = t.find(';');
        if (semi == std::string_view::npos) return lc.Error(static_cast<int>(l.size()), "expected ';' after the instruction");
        std::string_view body = Trim(t.substr(0, semi));
        if (body.rfind(".inst ", 0) == 0) {
            std::string_view h = Trim(body.substr(6));
            if (h.size() != 34 || h[0] != '0' || h[1] != 'x') return lc.Error(1, ".inst needs 0x and 32 hex digits");
            for (size_t i = 2; i < 34; ++i)
                if (HexDigit(h[i]) < 0) return lc.Error(static_cast<int>(i), "bad hex digit in .inst");
            pi.raw = true;
            pi.raw_word.hi = std::strtoull(std::string(h.substr(2, 16)).c_str(), nullptr, 16);
            pi.raw_word.lo = std::strtoull(std::string(h.substr(18, 16)).c_str(), nullptr, 16);
        } else {
            if (body.rfind("[B", 0) == 0) {
                size_t e = body.find(']');
                if (e == std::string_view::npos) return lc.Error(1, "unterminated control field");
                pi.control.assign(body.substr(0, e + 1));
                body = Trim(body.substr(e + 1));
            }
            pi.text.assign(body);
        }
        pending[sec].push_back(std::move(pi));
    }
    if (!have_elf) return Status::ParseError("1:1: missing .elf directive");
    RNDN_ASSIGN_OR_RETURN(Arch arch, elf.GetArch());
    RNDN_ASSIGN_OR_RETURN(const Isa *isa, Isa::Get(arch));
    for (auto &[sec, insts] : pending) {
        ElfSection &s = elf.sections[sec];
        const auto &lab = labels[sec];
        // Function-symbol targets: the section's own function at 0 and any STT_FUNC symbol.
        std::map<std::string, uint64_t> syms;
        if (s.name.rfind(".text.", 0) == 0) syms[s.name.substr(6)] = 0;
        s.data.clear();
        std::optional<int64_t> desc;  // the function's memory-descriptor register (hidden operands)
        for (const PendingInst &pi : insts) {
            Word w;
            if (pi.raw) {
                w = pi.raw_word;
            } else {
                LineCursor il;
                il.line = pi.line;
                auto inst = isa->Parse(pi.text, [&](const std::string &name) -> Expected<int64_t> {
                    auto it = lab.find(name);
                    if (it != lab.end()) return static_cast<int64_t>(it->second);
                    auto jt = syms.find(name);
                    if (jt != syms.end()) return static_cast<int64_t>(jt->second);
                    return il.Error(1, "unknown label '" + name + "'");
                });
                if (!inst.ok()) return Status(inst.status().code(), std::to_string(pi.line) + ":1: " + inst.status().message());
                isa->TrackImplicit(&*inst, &desc);
                if (!pi.control.empty()) {
                    auto c = ParseControl(pi.control);
                    if (!c.ok()) return Status::ParseError(std::to_string(pi.line) + ":1: " + c.status().message());
                    inst->control = *c;
                }
                auto enc = isa->Encode(*inst, pi.address);
                if (!enc.ok()) return Status(enc.status().code(), std::to_string(pi.line) + ":1: " + enc.status().message());
                w = *enc;
            }
            uint8_t b[16];
            std::memcpy(b, &w.lo, 8);
            std::memcpy(b + 8, &w.hi, 8);
            s.data.insert(s.data.end(), b, b + 16);
        }
    }
    for (size_t i = 1; i < elf.sections.size(); ++i) {
        ElfSection &s = elf.sections[i];
        if (s.type == kShtNobits) {
            s.data.clear();
            continue;
        }
        if (s.data.size() != s.size)
            return Status::ParseError("1:1: section " + s.name + " has " + std::to_string(s.data.size()) +
                                      " bytes of contents but size " + Hex(s.size));
    }
    return elf;
}

}  // namespace rndn::sass
