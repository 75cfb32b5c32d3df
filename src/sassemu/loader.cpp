// Cubin loading: kernels, .nv.info parameter layout, constant banks, shared/local sizes,
// module-scope variables, and the pre-decoding of every instruction into a DInst.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "sassemu/hazards.h"
#include "sassemu/internal.h"

namespace rndn::sassemu {

namespace {

constexpr uint32_t kShtRel = 9, kShtRela = 4, kShtNobits = 8;

struct SrName {
    const char *name;
    SpecialReg id;
};
constexpr SrName kSpecialRegs[] = {
    {"SR_TID.X", SR_TID_X},       {"SR_TID.Y", SR_TID_Y},           {"SR_TID.Z", SR_TID_Z},
    {"SR_CTAID.X", SR_CTAID_X},   {"SR_CTAID.Y", SR_CTAID_Y},       {"SR_CTAID.Z", SR_CTAID_Z},
    {"SR_LANEID", SR_LANEID},     {"SR_EQMASK", SR_EQMASK},         {"SR_LTMASK", SR_LTMASK},
    {"SR_LEMASK", SR_LEMASK},     {"SR_GTMASK", SR_GTMASK},         {"SR_GEMASK", SR_GEMASK},
    {"SR_CLOCKLO", SR_CLOCKLO},   {"SR_GLOBALTIMERLO", SR_GLOBALTIMERLO}, {"SR_VIRTID", SR_VIRTID},
    {"SR_VIRTUALSMID", SR_VIRTUALSMID}, {"SR_CgaCtaId", SR_CGACTAID}, {"SR_NTID.X", SR_NTID_X},
    {"SR_NTID.Y", SR_NTID_Y},     {"SR_NTID.Z", SR_NTID_Z},     {"SR_SWINHI", SR_SWINHI},
};

bool ParseInt(std::string_view s, int64_t *out) {
    if (s.empty()) return false;
    bool neg = false;
    if (s[0] == '-') {
        neg = true;
        s.remove_prefix(1);
    } else if (s[0] == '+') {
        s.remove_prefix(1);
    }
    if (s.empty()) return false;
    std::string t(s);
    char *end = nullptr;
    unsigned long long v = std::strtoull(t.c_str(), &end, 0);
    if (*end) return false;
    *out = neg ? -(int64_t)v : (int64_t)v;
    return true;
}

// Register-like token: R5, RZ, UR4, URZ, P0, PT, UP1, UPT, B3 (with suffixes split off).
bool ParseRegToken(std::string_view s, Operand *o) {
    auto num = [&](std::string_view t, int z) -> int {
        if (t == "Z" || t == "T") return z;
        if (t.empty()) return -1;
        int v = 0;
        for (char c : t) {
            if (c < '0' || c > '9') return -1;
            v = v * 10 + (c - '0');
        }
        return v;
    };
    int v = -1;
    if (s.rfind("UR", 0) == 0) o->kind = Operand::UR, v = num(s.substr(2), 63);
    else if (s.rfind("UP", 0) == 0) o->kind = Operand::UP, v = num(s.substr(2), 7);
    else if (s.rfind("R", 0) == 0) o->kind = Operand::R, v = num(s.substr(1), 255);
    else if (s.rfind("P", 0) == 0 && s != "PR") o->kind = Operand::P, v = num(s.substr(1), 7);
    else if (s.rfind("B", 0) == 0) o->kind = Operand::B, v = num(s.substr(1), -1);
    if (v < 0) {
        o->kind = Operand::NONE;
        return false;
    }
    o->reg = (uint8_t)v;
    return true;
}

// "[R2.64+UR4+0x10]" contents (without brackets) into a MEM/CBANK operand.
bool ParseAddress(std::string_view s, Operand *o) {
    size_t i = 0;
    while (i <= s.size()) {
        size_t e = s.find('+', i);
        if (e == std::string_view::npos) e = s.size();
        std::string_view t = s.substr(i, e - i);
        i = e + 1;
        if (t.empty()) {
            if (e == s.size()) break;
            continue;
        }
        int64_t v;
        if (ParseInt(t, &v)) {
            o->imm += v;
            continue;
        }
        std::string_view base = t, suffix;
        size_t dot = t.find('.');
        if (dot != std::string_view::npos) base = t.substr(0, dot), suffix = t.substr(dot);
        Operand r;
        if (!ParseRegToken(base, &r)) return false;
        if (r.kind == Operand::UR && (o->has_reg || o->base_ur)) {
            o->ureg = r.reg;
        } else if (r.kind == Operand::R || r.kind == Operand::UR) {
            if (o->has_reg) return false;
            o->has_reg = true;
            o->base_ur = r.kind == Operand::UR;
            o->reg = r.reg;
        } else {
            return false;
        }
        while (!suffix.empty()) {
            size_t n = suffix.find('.', 1);
            std::string_view sf = suffix.substr(0, n);
            suffix = n == std::string_view::npos ? std::string_view() : suffix.substr(n);
            if (sf == ".64") o->wide = true;
            else if (sf == ".X4") o->scale = 4;
            else if (sf == ".X8") o->scale = 8;
            else if (sf == ".X16") o->scale = 16;
            else if (sf == ".U32") {
            } else return false;
        }
        if (e == s.size()) break;
    }
    return true;
}

// One operand's text.  dbl: a float literal written out in the template is an f64 high word.
bool ParseOperand(std::string_view s, bool flt, bool dbl, Operand *o) {
    *o = Operand();
    while (!s.empty() && (s[0] == '-' || s[0] == '~' || s[0] == '!')) {
        if (s[0] == '-') {
            if (s.size() > 1 && (s[1] == '0' || s[1] == 'I' || s[1] == 'Q' || (s[1] >= '1' && s[1] <= '9'))) break;
            o->neg = true;
        } else {
            o->inv = true;
        }
        s.remove_prefix(1);
    }
    if (s.size() >= 2 && s.front() == '|' && s.back() == '|') {
        o->abs = true;
        s = s.substr(1, s.size() - 2);
    }
    if (s.rfind("`(@", 0) == 0) {
        o->kind = Operand::LABEL;
        return ParseInt(s.substr(3, s.size() - 4), &o->imm);
    }
    if (s.rfind("c[", 0) == 0) {
        o->kind = Operand::CBANK;
        size_t e = s.find(']');
        int64_t b;
        if (e == std::string_view::npos || !ParseInt(s.substr(2, e - 2), &b)) return false;
        o->bank = (uint8_t)b;
        std::string_view rest = s.substr(e + 1);
        if (rest.size() < 2 || rest[0] != '[' || rest.back() != ']') return false;
        if (!ParseAddress(rest.substr(1, rest.size() - 2), o)) return false;
        if (o->has_reg && o->reg == 255) o->has_reg = false;
        return true;
    }
    if (s.rfind("desc[", 0) == 0) {
        size_t e = s.find(']');
        if (e == std::string_view::npos) return false;
        s = s.substr(e + 1);
    }
    if (!s.empty() && s[0] == '[') {
        o->kind = Operand::MEM;
        if (s.back() != ']') return false;
        if (!ParseAddress(s.substr(1, s.size() - 2), o)) return false;
        if (o->has_reg && !o->base_ur && o->reg == 255) o->has_reg = false;
        if (o->has_reg && o->base_ur && o->reg == 63) o->has_reg = false;
        return true;
    }
    if (s[0] == '#') {  // float literal from a hole: #code:hex
        o->kind = Operand::IMM;
        size_t c = s.find(':');
        o->fcode = (uint8_t)std::atoi(std::string(s.substr(1, c - 1)).c_str());
        return ParseInt(s.substr(c + 1), &o->imm);
    }
    if (s.rfind("SR_", 0) == 0) {
        o->kind = Operand::SR;
        for (const SrName &n : kSpecialRegs)
            if (s == n.name) {
                o->sr = n.id;
                return true;
            }
        return false;
    }
    if (s == "SRZ") {
        o->kind = Operand::SRZ;
        return true;
    }
    if (s == "PR") {
        o->kind = Operand::PR;
        return true;
    }
    int64_t v;
    bool decimal = s.find("0x") == std::string_view::npos;
    if (!(flt && decimal) && ParseInt(s, &v)) {
        o->kind = Operand::IMM;
        o->imm = v;
        return true;
    }
    if (s == "+INF" || s == "-INF" || s == "+QNAN" || s == "-QNAN" || (s.size() > 0 && (std::isdigit((unsigned char)s[0]) || s[0] == '-' || s[0] == '+'))) {
        double d;
        if (s == "+INF") d = INFINITY;
        else if (s == "-INF") d = -INFINITY;
        else if (s == "+QNAN") d = NAN;
        else if (s == "-QNAN") d = -NAN;
        else d = std::strtod(std::string(s).c_str(), nullptr);
        o->kind = Operand::IMM;
        if (dbl) {
            uint64_t bits;
            std::memcpy(&bits, &d, 8);
            o->fcode = (uint8_t)sass::HoleCode::F64HI;
            o->imm = (int64_t)(bits >> 32);
        } else {
            float f = (float)d;
            uint32_t bits;
            std::memcpy(&bits, &f, 4);
            o->fcode = (uint8_t)sass::HoleCode::F32;
            o->imm = bits;
        }
        return true;
    }
    std::string_view base = s, suffix;
    size_t dot = s.find('.');
    if (dot != std::string_view::npos) base = s.substr(0, dot), suffix = s.substr(dot);
    if (!ParseRegToken(base, o)) return false;
    if (suffix == ".64") o->wide = true;
    else if (suffix == ".H0_H0") o->hsel = 1;
    else if (suffix == ".H1_H1") o->hsel = 2;
    else if (suffix == ".H1") o->hsel = 3;
    else if (suffix == ".F32") o->hsel = 4;
    else if (!suffix.empty()) return false;
    return true;
}

// The instruction text with holes filled in; float literals as "#code:bits", labels "`(@addr)".
std::string Render(const sass::Isa &isa, const sass::Instruction &inst) {
    const sass::Form &f = isa.forms()[inst.form];
    std::string_view t = f.templ;
    if (t.rfind("@U ", 0) == 0) t.remove_prefix(3);
    std::string out;
    size_t hole = 0;
    char buf[64];
    for (size_t i = 0; i < t.size(); ++i) {
        if (t[i] != '{') {
            out += t[i];
            continue;
        }
        size_t e = t.find('}', i);
        i = e;
        if (hole >= f.fields.size()) continue;
        const sass::Field &fl = f.fields[hole];
        int64_t v = inst.values[hole];
        switch (fl.kind) {
            case sass::HoleKind::REG: out += v == 255 ? std::string("RZ") : "R" + std::to_string(v); break;
            case sass::HoleKind::UREG: out += v == sass::GetArchInfo(isa.arch()).ur_zero ? std::string("URZ") : "UR" + std::to_string(v); break;
            case sass::HoleKind::PRED: out += v == 7 ? std::string("PT") : "P" + std::to_string(v); break;
            case sass::HoleKind::UPRED: out += v == 7 ? std::string("UPT") : "UP" + std::to_string(v); break;
            case sass::HoleKind::BREG: out += "B" + std::to_string(v); break;
            case sass::HoleKind::HEX:
                if (v < 0) std::snprintf(buf, sizeof buf, "-0x%llx", (unsigned long long)-v);
                else std::snprintf(buf, sizeof buf, "0x%llx", (unsigned long long)v);
                out += buf;
                break;
            case sass::HoleKind::NUM:
                if (fl.code == sass::HoleCode::PLAIN || fl.code == sass::HoleCode::SIGNED) out += std::to_string(v);
                else {
                    std::snprintf(buf, sizeof buf, "#%d:0x%llx", (int)fl.code, (unsigned long long)v);
                    out += buf;
                }
                break;
            case sass::HoleKind::LABEL:
                std::snprintf(buf, sizeof buf, "`(@0x%llx)", (unsigned long long)v);
                // the template already has `( and ): drop them
                if (out.size() >= 2 && out.compare(out.size() - 2, 2, "`(") == 0) out.resize(out.size() - 2);
                out += buf;
                if (i + 1 < t.size() && t[i + 1] == ')') ++i;
                break;
        }
        ++hole;
    }
    return out;
}

}  // namespace

// Parses the rendered text into d (opcode, modifiers, operands).
Status ParseDInst(const std::string &text, DInst *d) {
    size_t sp = text.find(' ');
    std::string mn = text.substr(0, sp);
    size_t dot = mn.find('.');
    d->opcode = mn.substr(0, dot);
    d->mods.clear();
    while (dot != std::string::npos) {
        size_t n = mn.find('.', dot + 1);
        d->mods.push_back(mn.substr(dot + 1, n == std::string::npos ? std::string::npos : n - dot - 1));
        dot = n;
    }
    d->nops = 0;
    if (sp == std::string::npos) return Status::Ok();
    std::string rest = text.substr(sp + 1);
    std::vector<std::string> parts;
    size_t i = 0;
    while (i < rest.size()) {
        size_t e = rest.find(", ", i);
        std::string p = rest.substr(i, e == std::string::npos ? std::string::npos : e - i);
        while (!p.empty() && p.back() == ' ') p.pop_back();
        size_t lab = p.find(" `(");
        if (lab != std::string::npos) {
            parts.push_back(p.substr(0, lab));
            parts.push_back(p.substr(lab + 1));
        } else {
            parts.push_back(p);
        }
        if (e == std::string::npos) break;
        i = e + 2;
    }
    bool dbl = !d->opcode.empty() && d->opcode[0] == 'D';
    // opcodes whose decimal literals are floating-point values
    static const char *kFloatOps[] = {"FADD", "FMUL", "FFMA", "FSETP", "FMNMX", "FSEL", "FCHK", "DADD", "DMUL", "DFMA", "DSETP", "MUFU", "FRND", "FSWZADD"};
    bool flt = false;
    for (const char *f : kFloatOps) flt = flt || d->opcode == f;
    for (const std::string &p : parts) {
        if (d->nops >= 8) return Status::Unsupported("too many operands");
        if (!ParseOperand(p, flt, dbl, &d->o[d->nops])) return Status::Unsupported("cannot parse operand '" + p + "'");
        ++d->nops;
    }
    return Status::Ok();
}

struct ModuleLoader {
    static Expected<std::shared_ptr<const Module>> Load(const std::vector<uint8_t> &bytes);
};

Kernel::~Kernel() = default;
const std::string &Kernel::name() const { return impl_->name; }
const std::vector<ParamInfo> &Kernel::params() const { return impl_->params; }
uint64_t Kernel::static_shared_bytes() const { return impl_->shared_bytes; }
uint64_t Kernel::local_bytes() const { return impl_->local_bytes; }
size_t Kernel::instruction_count() const { return impl_->code.size(); }

Module::~Module() = default;
const Kernel *Module::Find(const std::string &name) const {
    for (const auto &k : kernels_)
        if (k->name() == name) return k.get();
    return nullptr;
}

namespace {

struct NvInfoAttr {
    uint8_t format, attr;
    std::vector<uint8_t> data;  // SVAL payload, or the 2-byte HVAL
};

std::vector<NvInfoAttr> ReadNvInfo(const std::vector<uint8_t> &d) {
    std::vector<NvInfoAttr> out;
    size_t i = 0;
    while (i + 4 <= d.size()) {
        NvInfoAttr a;
        a.format = d[i];
        a.attr = d[i + 1];
        uint16_t v = (uint16_t)(d[i + 2] | (d[i + 3] << 8));
        i += 4;
        if (a.format == 0x04) {
            if (i + v > d.size()) break;
            a.data.assign(d.begin() + i, d.begin() + i + v);
            i += v;
        } else {
            a.data = {(uint8_t)(v & 0xff), (uint8_t)(v >> 8)};
        }
        out.push_back(std::move(a));
    }
    return out;
}

// The launch header in constant bank 0, per architecture (the first row whose sm is at most the
// kernel's applies).  Read from ptxas's code: sm_75..sm_90 read %ntid from c[0x0][0x0..0x8],
// %nctaid from c[0x0][0xc..0x14], the stack top from c[0x0][0x28] and the SM count (compared
// with SR_VIRTUALSMID) from c[0x0][0x10c]; sm_100 and sm_120 read the same values at 0x360,
// 0x370, 0x37c and 0x2d0 (the parameters start at 0x380 there).  The generic address space's
// windows (cvta.shared / cvta.local): the shared window's base at c[0x0][0x18] up to sm_89
// (sm_90 on read its high word from SR_SWINHI), the local window's at c[0x0][0x20] up to sm_90
// and at c[0x0][0x2f8] on sm_100 and sm_120.
struct HeaderLayout {
    int min_sm;
    uint32_t ntid, nctaid, stack_top, sm_count, shared_window, local_window;
};
constexpr HeaderLayout kHeaderLayouts[] = {
    {100, 0x360, 0x370, 0x37c, 0x2d0, 0, 0x2f8},
    {0, 0x0, 0xc, 0x28, 0x10c, 0x18, 0x20},
};

uint32_t U32At(const std::vector<uint8_t> &d, size_t off) {
    uint32_t v = 0;
    if (off + 4 <= d.size()) std::memcpy(&v, d.data() + off, 4);
    return v;
}

}  // namespace

Status PrepareDInst(DInst &d);  // semantics.cpp

Expected<std::shared_ptr<const Module>> ModuleLoader::Load(const std::vector<uint8_t> &bytes) {
    RNDN_ASSIGN_OR_RETURN(sass::ElfFile elf, sass::ReadCubin(bytes));
    RNDN_ASSIGN_OR_RETURN(sass::Arch arch, elf.GetArch());
    RNDN_ASSIGN_OR_RETURN(const sass::Isa *isa, sass::Isa::Get(arch));
    RNDN_ASSIGN_OR_RETURN(std::vector<sass::ElfSymbol> syms, sass::ReadSymbols(elf));
    const sass::ArchInfo &ai = sass::GetArchInfo(arch);
    auto mod = std::make_shared<Module>();
    mod->arch_name_ = ai.name;

    // Module-scope globals, then the constant sections (.nv.constant<N> for the module,
    // .nv.constant<N>.<kernel> per kernel) with the relocations that put variables' addresses in them.
    std::vector<uint64_t> sec_addr(elf.sections.size(), 0);  // host address of a data section
    std::vector<std::vector<uint8_t>> cdata(elf.sections.size());
    auto bank_of = [](const std::string &name, std::string *kernel) -> int {
        if (name.rfind(".nv.constant", 0) != 0 || name.size() < 13 || !std::isdigit((unsigned char)name[12])) return -1;
        size_t dot = name.find('.', 12);
        *kernel = dot == std::string::npos ? "" : name.substr(dot + 1);
        int n = std::atoi(name.c_str() + 12);
        return n >= 0 && n < 18 ? n : -1;
    };
    for (size_t s = 0; s < elf.sections.size(); ++s) {
        const sass::ElfSection &sec = elf.sections[s];
        std::string kn;
        if (bank_of(sec.name, &kn) >= 0) {
            cdata[s] = sec.data;
            cdata[s].resize(std::max<size_t>(sec.size, sec.data.size()));
        } else if (sec.name == ".nv.global" || sec.name == ".nv.global.init") {
            size_t n = std::max<uint64_t>(sec.size, 1);
            auto mem = std::make_unique<uint8_t[]>(n);
            std::memset(mem.get(), 0, n);
            if (sec.type != kShtNobits) std::memcpy(mem.get(), sec.data.data(), std::min<size_t>(sec.data.size(), n));
            sec_addr[s] = (uint64_t)(uintptr_t)mem.get();
            mod->global_ranges_.push_back({mem.get(), n});
            mod->globals_.push_back(std::move(mem));
        }
    }
    for (const sass::ElfSection &sec : elf.sections) {
        if ((sec.type != kShtRel && sec.type != kShtRela) || sec.info >= elf.sections.size()) continue;
        size_t entry = sec.type == kShtRela ? 24 : 16;
        const std::string &target = elf.sections[sec.info].name;
        std::string kn;
        if (bank_of(target, &kn) < 0) {
            if (target.rfind(".text.", 0) == 0 && !sec.data.empty()) return Status::Unsupported("relocations in " + target + " are not supported");
            continue;
        }
        auto &bank = cdata[sec.info];
        for (size_t i = 0; i + entry <= sec.data.size(); i += entry) {
            uint64_t off, info;
            int64_t addend = 0;
            std::memcpy(&off, sec.data.data() + i, 8);
            std::memcpy(&info, sec.data.data() + i + 8, 8);
            if (entry == 24) std::memcpy(&addend, sec.data.data() + i + 16, 8);
            uint32_t type = (uint32_t)info, sym = (uint32_t)(info >> 32);
            if (sym >= syms.size()) return Status::Internal("bad relocation symbol");
            const sass::ElfSymbol &es = syms[sym];
            uint64_t addr = (es.shndx < sec_addr.size() ? sec_addr[es.shndx] : 0) + es.value + (uint64_t)addend;
            if (type != 2) return Status::Unsupported("relocation type " + std::to_string(type) + " in " + target);
            if (off + 8 > bank.size()) return Status::Internal("relocation outside " + target);
            std::memcpy(bank.data() + off, &addr, 8);  // R_CUDA_64
        }
    }
    std::vector<std::vector<uint8_t>> module_banks(18);
    for (size_t s = 0; s < elf.sections.size(); ++s) {
        std::string kn;
        int b = bank_of(elf.sections[s].name, &kn);
        if (b >= 1 && kn.empty()) module_banks[b] = cdata[s];
    }

    // Per-function attributes from the module .nv.info (by symbol index).
    std::map<uint32_t, uint64_t> frame_size, stack_size;
    std::map<uint32_t, int> regcount;
    int global_info = elf.Find(".nv.info");
    if (global_info >= 0)
        for (const NvInfoAttr &a : ReadNvInfo(elf.sections[global_info].data)) {
            if (a.format != 0x04 || a.data.size() < 8) continue;
            uint32_t sym = U32At(a.data, 0), v = U32At(a.data, 4);
            if (a.attr == 0x2f) regcount[sym] = (int)v;                        // REGCOUNT
            else if (a.attr == 0x11) frame_size[sym] += v;                  // FRAME_SIZE
            else if (a.attr == 0x12 || a.attr == 0x23) stack_size[sym] = std::max<uint64_t>(stack_size[sym], v);  // MIN/MAX_STACK_SIZE
        }

    for (size_t s = 0; s < elf.sections.size(); ++s) {
        const sass::ElfSection &sec = elf.sections[s];
        if (sec.name.rfind(".text.", 0) != 0) continue;
        std::string name = sec.name.substr(6);
        uint32_t symidx = sec.info & 0xffffff;
        bool is_kernel = false;
        if (symidx < syms.size()) is_kernel = (syms[symidx].other & 0x10) != 0 || true;
        int info = elf.Find(".nv.info." + name);
        if (info < 0) continue;  // device functions without an entry have no .nv.info.<name>
        auto ki = std::make_unique<KernelImpl>();
        ki->name = name;
        ki->arch = arch;
        ki->regs = (int)(sec.info >> 24);  // up to sm_89; sm_90 on: REGCOUNT alone
        if (regcount.count(symidx)) ki->regs = regcount[symidx];
        ki->param_base = ai.param_base;
        for (const HeaderLayout &hl : kHeaderLayouts)
            if (ai.sm >= hl.min_sm) {
                ki->ntid_at = hl.ntid, ki->nctaid_at = hl.nctaid, ki->stack_top_at = hl.stack_top, ki->sm_count_at = hl.sm_count;
                ki->shared_window_at = hl.shared_window, ki->local_window_at = hl.local_window;
                break;
            }
        for (const NvInfoAttr &a : ReadNvInfo(elf.sections[info].data)) {
            if (a.attr == 0x17 && a.data.size() >= 12) {  // KPARAM_INFO
                uint16_t ordinal = (uint16_t)(a.data[4] | (a.data[5] << 8));
                uint16_t offset = (uint16_t)(a.data[6] | (a.data[7] << 8));
                uint32_t flags = U32At(a.data, 8);
                if (ki->params.size() <= ordinal) ki->params.resize(ordinal + 1);
                ki->params[ordinal] = {offset, (flags >> 18) & 0x3fff};
            } else if (a.attr == 0x0a && a.data.size() >= 8) {  // PARAM_CBANK
                ki->param_base = (uint16_t)(a.data[4] | (a.data[5] << 8));
                ki->param_bytes = (uint16_t)(a.data[6] | (a.data[7] << 8));
            } else if (a.attr == 0x19 && a.data.size() >= 2) {  // CBANK_PARAM_SIZE
                ki->param_bytes = (uint16_t)(a.data[0] | (a.data[1] << 8));
            }
        }
        int c0 = elf.Find(".nv.constant0." + name);
        ki->cbank0.assign(std::max<uint32_t>(ki->param_base + ki->param_bytes, ki->stack_top_at + 4), 0);
        if (c0 >= 0) {
            const auto &cd = cdata[c0];
            if (cd.size() > ki->cbank0.size()) ki->cbank0.resize(cd.size());
            std::copy(cd.begin(), cd.end(), ki->cbank0.begin());
        }
        int sh = elf.Find(".nv.shared." + name);
        if (sh >= 0) ki->shared_bytes = elf.sections[sh].size;
        ki->local_bytes = frame_size[symidx] + stack_size[symidx];
        ki->local_bytes = (ki->local_bytes + 15) & ~15ull;
        ki->banks = module_banks;
        for (size_t t = 0; t < elf.sections.size(); ++t) {
            std::string kn;
            int b = bank_of(elf.sections[t].name, &kn);
            if (b >= 1 && kn == name) ki->banks[b] = cdata[t];
        }
        ki->globals = &mod->global_ranges_;
        (void)is_kernel;

        // Decode once.
        size_t n = sec.data.size() / 16;
        ki->code.resize(n);
        for (size_t i = 0; i < n; ++i) {
            sass::Word w;
            std::memcpy(&w.lo, sec.data.data() + i * 16, 8);
            std::memcpy(&w.hi, sec.data.data() + i * 16 + 8, 8);
            DInst &d = ki->code[i];
            d.pc = i * 16;
            d.ctl = sass::UnpackControl(w);
            auto inst = isa->Decode(w, d.pc);
            if (!inst.ok() && d.ctl.reuse) {
                // Reuse flags only steer the operand reuse cache, which the emulator does not
                // model: a flag on an operand the tables do not know is no reason to stop.
                sass::Word plain = w;
                sass::Control c = d.ctl;
                c.reuse = 0;
                sass::PackControl(c, &plain);
                auto retry = isa->Decode(plain, d.pc);
                if (retry.ok()) inst = std::move(retry);
            }
            if (!inst.ok()) {
                d.unsupported = "undecodable instruction (" + inst.status().message() + ")";
                d.text = "?";
                continue;
            }
            d.text = isa->Print(*inst, [](int64_t a) {
                char b[32];
                std::snprintf(b, sizeof b, "0x%llx", (unsigned long long)a);
                return std::string(b);
            });
            d.guard = (int8_t)inst->guard_pred;
            d.guard_neg = inst->guard_neg;
            d.uniform_guard = isa->forms()[inst->form].templ.rfind("@U ", 0) == 0;
            Status st = ParseDInst(Render(*isa, *inst), &d);
            // The uniform datapath's instructions (U*, LDCU) are guarded by uniform predicates;
            // the guard's bits do not say so, and a table form learned from unguarded examples
            // prints "@P0" where nvdisasm prints "@UP0" (sm_120's "@!UP0 LDCU.64").
            if (d.opcode.size() > 1 && (d.opcode[0] == 'U' || d.opcode == "LDCU")) d.uniform_guard = true;
            if (!st.ok()) {
                d.unsupported = st.message();
                continue;
            }
            st = PrepareDInst(d);
            if (!st.ok()) d.unsupported = st.message();
            // The GPU keeps the top two registers of the declared count for itself: ptxas declares
            // the highest register + 3, and code that touches either of those two stops with
            // CUDA_ERROR_ILLEGAL_INSTRUCTION (an H100, 2026-11-27: our kernels declaring the highest
            // register + 1 stopped from 15 registers up).
            int top = ki->regs > 0 && d.unsupported.empty() ? HighestRegister(*ki, d) : -1;
            if (top >= ki->regs - 2) {
                char b[200];
                std::snprintf(b, sizeof b, "uses R%d, but the kernel declares %d registers, of which the GPU keeps the top two (R%d and up) for itself",
                              top, ki->regs, ki->regs - 2);
                d.unsupported = b;
                d.fn = nullptr;  // stops the warp that reaches it, naming the register
            }
        }
        auto k = std::make_unique<Kernel>();
        k->impl_ = std::move(ki);
        mod->kernels_.push_back(std::move(k));
    }
    return std::shared_ptr<const Module>(std::move(mod));
}

Expected<std::shared_ptr<const Module>> LoadCubin(const std::vector<uint8_t> &bytes) { return ModuleLoader::Load(bytes); }

}  // namespace rndn::sassemu
