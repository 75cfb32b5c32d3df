// Small IR helpers: immediates, lookups, programmatic construction, operand roles.
#include <array>
#include <cstdio>
#include <cstring>

#include "ptx/internal.h"
#include "ptx/ptx.h"

namespace rndn::ptx {

float Immediate::AsF32() const {
    switch (kind) {
    case ImmKind::F32: {
        uint32_t b = static_cast<uint32_t>(bits);
        float f;
        std::memcpy(&f, &b, sizeof f);
        return f;
    }
    case ImmKind::F64: return static_cast<float>(AsF64());
    default: return static_cast<float>(AsInt());
    }
}

double Immediate::AsF64() const {
    switch (kind) {
    case ImmKind::F64: {
        double d;
        std::memcpy(&d, &bits, sizeof d);
        return d;
    }
    case ImmKind::F32: return static_cast<double>(AsF32());
    default: return static_cast<double>(AsInt());
    }
}

uint64_t Variable::SizeBytes() const {
    uint64_t elem = TypeBits(type) / 8;
    if (type == Type::PRED) elem = 1;
    elem *= VecLanes(vec);
    for (uint64_t d : dims) elem *= d;
    return elem;
}

uint32_t Variable::AlignBytes() const {
    if (align) return align;
    uint32_t elem = TypeBits(type) / 8;
    if (elem == 0) elem = 1;
    return elem * VecLanes(vec);
}

ParamLayout KernelParamLayout(const Function &f) {
    ParamLayout l;
    uint64_t off = 0;
    for (const Variable &p : f.params) {
        uint64_t a = p.AlignBytes();
        off = (off + a - 1) / a * a;
        l.offsets.push_back(off);
        l.sizes.push_back(p.SizeBytes());
        off += p.SizeBytes();
    }
    l.total = off;
    return l;
}

RegId Function::FindRegister(std::string_view n) const {
    for (size_t i = 0; i < regs.size(); ++i)
        if (regs[i].name == n) return static_cast<RegId>(i);
    return kNoId;
}

LabelId Function::FindLabel(std::string_view n) const {
    for (size_t i = 0; i < labels.size(); ++i)
        if (labels[i].name == n) return static_cast<LabelId>(i);
    return kNoId;
}

RegId Function::AddRegisters(Type type, std::string_view n, uint32_t count) {
    RegDecl d;
    d.type = type;
    d.name = std::string(n);
    d.count = count;
    d.first = static_cast<RegId>(regs.size());
    uint32_t decl_id = static_cast<uint32_t>(reg_decls.size());
    if (count == 0) {
        regs.push_back(Register{std::string(n), type, decl_id});
    } else {
        for (uint32_t i = 0; i < count; ++i) regs.push_back(Register{std::string(n) + std::to_string(i), type, decl_id});
    }
    reg_decls.push_back(d);
    Statement st;
    st.kind = StatementKind::REG_DECL;
    st.id = decl_id;
    body.push_back(std::move(st));
    has_body = true;
    return d.first;
}

LabelId Function::AddLabel(std::string_view n) {
    labels.push_back(Label{std::string(n), kNoId, {}});
    return static_cast<LabelId>(labels.size() - 1);
}

void Function::Append(Instruction inst) {
    Statement st;
    st.kind = StatementKind::INSTRUCTION;
    st.loc = inst.loc;
    st.inst = std::move(inst);
    body.push_back(std::move(st));
    has_body = true;
}

void Function::PlaceLabel(LabelId label) {
    Statement st;
    st.kind = StatementKind::LABEL;
    st.id = label;
    if (label < labels.size()) labels[label].stmt = static_cast<uint32_t>(body.size());
    body.push_back(std::move(st));
    has_body = true;
}

uint32_t Module::FindFunction(std::string_view n) const {
    for (size_t i = 0; i < functions.size(); ++i)
        if (functions[i].name == n) return static_cast<uint32_t>(i);
    return kNoId;
}

uint32_t Module::FindGlobal(std::string_view n) const {
    for (size_t i = 0; i < globals.size(); ++i)
        if (globals[i].name == n) return static_cast<uint32_t>(i);
    return kNoId;
}

uint32_t Module::SmVersion() const {
    for (const std::string &t : target) {
        if (t.size() > 3 && t.compare(0, 3, "sm_") == 0) {
            uint32_t v = 0;
            for (size_t i = 3; i < t.size() && t[i] >= '0' && t[i] <= '9'; ++i) v = v * 10 + static_cast<uint32_t>(t[i] - '0');
            return v;
        }
    }
    return 0;
}

bool IsDestRole(char role) { return role == 'd' || role == 'w' || role == 'p'; }

namespace {
RoleList ParseRoles(const char *s) {
    RoleList rl;
    const char *p = s;
    while (*p && rl.count < kMaxRoles) {
        RoleSpec r;
        r.role = *p++;
        if (*p == '?') {
            r.optional = true;
            ++p;
        }
        if (*p == '|') {
            r.pipe_next = true;
            ++p;
        } else if (*p == ',') {
            ++p;
        }
        rl.roles[rl.count++] = r;
    }
    for (int i = 0; i < rl.count; ++i)
        if (IsDestRole(rl.roles[i].role)) rl.num_dests = i + 1;
    return rl;
}
}  // namespace

const RoleList &OperandRoles(Opcode op) {
    static const auto table = [] {
        std::array<RoleList, static_cast<size_t>(Opcode::COUNT)> t{};
        for (size_t i = 0; i < t.size(); ++i) t[i] = ParseRoles(GetOpcodeInfo(static_cast<Opcode>(i)).operands);
        return t;
    }();
    size_t i = static_cast<size_t>(op);
    return table[i < table.size() ? i : 0];
}

std::string FormatImmediate(const Immediate &imm) {
    char buf[40];
    switch (imm.kind) {
    case ImmKind::F32: std::snprintf(buf, sizeof buf, "0f%08X", static_cast<unsigned>(imm.bits & 0xffffffffu)); break;
    case ImmKind::F64: std::snprintf(buf, sizeof buf, "0d%016llX", static_cast<unsigned long long>(imm.bits)); break;
    default: std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(imm.AsInt())); break;
    }
    return buf;
}

std::string LocPrefix(std::string_view file, SourceLoc loc) {
    std::string s(file.empty() ? "<ptx>" : file);
    s += ':';
    s += std::to_string(loc.line);
    s += ':';
    s += std::to_string(loc.col);
    s += ": ";
    return s;
}

}  // namespace rndn::ptx
