// The control-code checker (see hazards.h) and the latency table reader.
#include "sassemu/hazards.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>

namespace rndn::sassemu {

namespace {

const char kLatencyTable[] =
#include "assembler/latency.inc"
    ;

struct LatencyRow {
    bool variable;
    int cycles;
    std::string pipe;
};

// arch name ("*" for all) -> opcode -> class
const std::map<std::string, std::map<std::string, LatencyRow>> &Table() {
    static const auto table = [] {
        std::map<std::string, std::map<std::string, LatencyRow>> t;
        std::istringstream in(kLatencyTable);
        std::string line;
        while (std::getline(in, line)) {
            if (line.empty() || line[0] == '#') continue;
            std::istringstream ls(line);
            std::string arch, op, cls, arg;
            ls >> arch >> op >> cls >> arg;
            if (cls == "schedule") continue;  // the compiler's floors
            bool var = cls == "variable";
            t[arch][op] = {var, var ? 0 : std::atoi(arg.c_str()), var ? arg : std::string()};
        }
        return t;
    }();
    return table;
}

const LatencyRow *Lookup(const std::string &arch, const std::string &op) {
    const auto &t = Table();
    auto a = t.find(arch);
    if (a == t.end()) return nullptr;
    auto o = a->second.find(op);
    return o == a->second.end() ? nullptr : &o->second;
}

bool Has(const DInst &d, const char *m) {
    for (const std::string &s : d.mods)
        if (s == m) return true;
    return false;
}

// sm_100's 64-bit integer forms: register-pair sources and destination.
bool Wide64(const DInst &d) {
    const std::string &op = d.opcode;
    if (op == "IADD" || op == "MOV" || op == "SEL" || op == "UMOV" || op == "UIADD3") return Has(d, "64");
    if (op == "ISETP" || op == "IMNMX") return Has(d, "S64") || Has(d, "U64");
    return false;
}

// Width in registers of the destination and of 64-bit sources.
int DstWidth(const DInst &d) {
    const std::string &op = d.opcode;
    if (Wide64(d)) return 2;
    if (op == "DADD" || op == "DMUL" || op == "DFMA") return 2;
    if (op == "IMAD" && Has(d, "WIDE")) return 2;
    if (op == "LDG" || op == "LDS" || op == "LDL" || op == "LD" || op == "LDC") return Has(d, "128") ? 4 : Has(d, "64") ? 2 : 1;
    if (op == "ATOM" || op == "ATOMG" || op == "ATOMS") return Has(d, "64") || Has(d, "S64") || Has(d, "F64") ? 2 : 1;
    if (op == "F2I") return Has(d, "S64") || Has(d, "U64") ? 2 : 1;
    if (op == "I2F" || op == "FRND") return (Has(d, "F64") && (op == "FRND" || (!d.mods.empty() && d.mods[0] == "F64"))) ? 2 : 1;
    if (op == "F2F") return d.mods.size() && d.mods[0] == "F64" ? 2 : 1;
    if (op == "CS2R") return Has(d, "32") ? 1 : 2;
    return 1;
}

}  // namespace

bool LatencyOf(sass::Arch arch, const std::string &opcode, int *cycles, int *pipe, const std::vector<std::string> *mods) {
    const char *name = sass::GetArchInfo(arch).name;
    const LatencyRow *r = nullptr;
    // a row for one modifier of the opcode ("IMAD.WIDE") comes before the opcode's own row
    for (size_t i = 0; mods && !r && i < mods->size(); ++i) {
        r = Lookup(name, opcode + "." + (*mods)[i]);
        if (!r) r = Lookup("*", opcode + "." + (*mods)[i]);
    }
    if (!r) r = Lookup(name, opcode);
    if (!r) r = Lookup("*", opcode);
    if (!r) r = Lookup(name, "default");
    if (!r) r = Lookup("*", "default");
    *cycles = r ? r->cycles : 4;
    static const std::vector<std::string> kPipes = {"", "global", "shared", "local", "constant", "xu", "fp64", "sr", "warp", "bar", "uconstant"};
    *pipe = 0;
    if (r && r->variable) *pipe = (int)(std::find(kPipes.begin(), kPipes.end(), r->pipe) - kPipes.begin());
    return r && r->variable;
}

// The fixed latency of a predicate written by `producer` to a read as a guard or by a control
// instruction (`early`) or as an operand: its "@predicate-guard:OP" / "@predicate:OP" row, 0 when
// it has none (the general predicate rows apply).
int ProducerPredicateLatency(sass::Arch arch, const std::string &producer, bool early) {
    const char *name = sass::GetArchInfo(arch).name;
    const std::string key = std::string(early ? "@predicate-guard:" : "@predicate:") + producer;
    const LatencyRow *r = Lookup(name, key);
    if (!r) r = Lookup("*", key);
    return r && !r->variable ? r->cycles : 0;
}

namespace {

HazardInfo Analyse(const KernelImpl &k, const DInst &d) {
    HazardInfo h;
    h.variable = LatencyOf(k.arch, d.opcode, &h.latency, &h.pipe, &d.mods);
    if (!d.fn) return h;
    int i = 0;
    // leading predicates are destinations (PLOP3: only the first two, its sources are predicates too)
    int max_pdst = d.opcode == "PLOP3" || d.opcode == "UPLOP3" ? 2 : 8;
    while (i < d.nops && (d.o[i].kind == Operand::P || d.o[i].kind == Operand::UP) && i < max_pdst) {
        if (d.o[i].kind == Operand::P && d.o[i].reg != 7 && d.opcode != "BRA") h.pwrites.push_back(d.o[i].reg);
        ++i;
    }
    if (d.opcode == "BRA") h.pwrites.clear();
    if (!d.uniform_guard && d.guard != 7) h.preads.push_back((uint8_t)d.guard);
    for (int j = i; j < d.nops; ++j)
        if (d.o[j].kind == Operand::P && d.o[j].reg != 7) h.preads.push_back(d.o[j].reg);
    if (d.opcode == "BRA" && d.nops > 1 && d.o[0].kind == Operand::P && d.o[0].reg != 7) h.preads.push_back(d.o[0].reg);
    // uniform registers: the first operand of a uniform-datapath instruction is its destination
    bool uniform_dst = d.nops > 0 && d.o[0].kind == Operand::UR &&
                       (d.opcode[0] == 'U' || d.opcode == "S2UR" || d.opcode == "VOTEU" || d.opcode == "REDUX" || d.opcode == "CREDUX" ||
                        d.opcode == "LDCU" || d.opcode == "CS2UR" || d.opcode == "R2UR");
    for (int j = 0; j < d.nops; ++j) {
        const Operand &o = d.o[j];
        if (j == 0 && uniform_dst) {
            int width = 1;
            if ((d.opcode == "ULDC" || d.opcode == "LDCU") && Has(d, "64")) width = 2;
            if (d.opcode == "LDCU" && Has(d, "128")) width = 4;
            if (d.opcode == "CS2UR" && !Has(d, "32")) width = 2;
            if (Wide64(d) || (d.opcode == "UIMAD" && Has(d, "WIDE"))) width = 2;
            for (int r = o.reg; r < o.reg + width && r < 63; ++r) h.uwrites.push_back((uint8_t)r);
            continue;
        }
        if (o.kind == Operand::UR && o.reg != 63) {
            h.ureads.push_back(o.reg);
            if (Wide64(d) && o.reg + 1 < 63) h.ureads.push_back((uint8_t)(o.reg + 1));
        }
        if ((o.kind == Operand::MEM || o.kind == Operand::CBANK) && o.has_reg && o.base_ur && o.reg != 63) h.ureads.push_back(o.reg);
        if (o.kind == Operand::MEM && o.ureg != 63) {
            h.ureads.push_back(o.ureg);
            h.ureads.push_back((uint8_t)(o.ureg + 1));
        }
    }
    bool store = d.nops > 0 && d.o[0].kind == Operand::MEM;
    bool has_dst = i < d.nops && d.o[i].kind == Operand::R && !store && d.opcode != "BRA" && d.opcode != "RET";
    // after predicate destinations, only these opcodes have a register destination too
    static const char *kPredThenReg[] = {"LOP3", "SHFL", "MATCH", "ATOM", "ATOMG", "IADD3", "IMAD", "LEA", "UIADD3", "ULEA", "IMNMX"};
    if (i > 0 && has_dst) {
        bool ok = false;
        for (const char *n : kPredThenReg) ok = ok || d.opcode == n;
        has_dst = ok;
    }
    static const char *kNoDst[] = {"STG", "STS", "STL", "ST", "RED", "REDG", "BMOV", "WARPSYNC", "BAR"};
    for (const char *n : kNoDst) has_dst = has_dst && d.opcode != n;
    if (d.opcode == "BMOV" && d.o[0].kind == Operand::R) has_dst = true;
    if (has_dst) {
        h.writes.push_back({d.o[i].reg, (uint8_t)DstWidth(d)});
        if (h.writes.back().reg == 255) h.writes.clear();
        ++i;
    } else {
        i = 0;
    }
    bool pair_src = Wide64(d) || d.opcode == "DADD" || d.opcode == "DMUL" || d.opcode == "DFMA" || d.opcode == "DSETP" ||
                    (d.opcode == "F2I" && Has(d, "F64")) || (d.opcode == "F2F" && d.mods.size() > 1 && d.mods[1] == "F64") ||
                    (d.opcode == "FRND" && Has(d, "F64")) || (d.opcode == "I2F" && (Has(d, "S64") || Has(d, "U64"))) ||
                    (d.opcode == "MATCH" && Has(d, "U64"));
    bool global = d.opcode == "LDG" || d.opcode == "STG" || d.opcode == "ATOMG" || d.opcode == "REDG" || d.opcode == "ATOM" ||
                  d.opcode == "RED" || d.opcode == "LD" || d.opcode == "ST";
    int data_width = 1;
    if (store) data_width = Has(d, "128") ? 4 : Has(d, "64") ? 2 : 1;
    for (; i < d.nops; ++i) {
        const Operand &o = d.o[i];
        int w = pair_src ? 2 : 1;
        if (d.opcode == "IMAD" && (Has(d, "WIDE") || Has(d, "HI")) && o.kind == Operand::R && i == d.nops - 1 - (d.o[d.nops - 1].kind == Operand::P))
            w = 2;  // the 64-bit addend
        if (store && o.kind == Operand::R) w = data_width;
        if ((d.opcode == "ATOM" || d.opcode == "ATOMG" || d.opcode == "RED" || d.opcode == "REDG") && o.kind == Operand::R)
            w = DstWidth(d) == 2 || Has(d, "64") ? 2 : 1;
        if (o.kind == Operand::MEM && o.has_reg && !o.base_ur && o.reg != 255) {
            h.reads.push_back({o.reg, (uint8_t)(global || o.wide ? 2 : 1)});
            continue;
        }
        if (o.kind == Operand::CBANK && o.has_reg && !o.base_ur && o.reg != 255) {
            h.reads.push_back({o.reg, 1});
            continue;
        }
        if (o.kind == Operand::R && o.reg != 255) h.reads.push_back({o.reg, (uint8_t)w});
    }
    return h;
}

}  // namespace

int HighestRegister(const KernelImpl &k, const DInst &d) {
    HazardInfo h = Analyse(k, d);
    int top = -1;
    for (const std::vector<RegUse> *uses : {&h.reads, &h.writes})
        for (const RegUse &u : *uses)
            if (u.reg != 255) top = std::max(top, u.reg + std::max<int>(u.width, 1) - 1);
    return top;
}

HazardState::HazardState(const KernelImpl &k) : k_(k) {
    int unused_pipe;
    LatencyOf(k.arch, "@predicate", &plat_, &unused_pipe);
    LatencyOf(k.arch, "@predicate-control", &plat_control_, &unused_pipe);
    LatencyOf(k.arch, "@predicate-guard", &plat_guard_, &unused_pipe);
    LatencyOf(k.arch, "@bar-result", &bar_result_, &unused_pipe);
    info_.reserve(k.code.size());
    for (const DInst &d : k.code) {
        info_.push_back(Analyse(k, d));
        if (d.ctl.wbar < 6) static_sbs_ |= 1u << d.ctl.wbar;
        if (d.ctl.rbar < 6) static_sbs_ |= 1u << d.ctl.rbar;
    }
}

void HazardState::Reset(Cta &c) {
    warps_.assign(c.warps.size(), WarpState());
    for (WarpState &s : warps_) {
        std::fill(std::begin(s.ready), std::end(s.ready), 0);
        std::fill(std::begin(s.writer), std::end(s.writer), 0);
        std::fill(std::begin(s.sb), std::end(s.sb), -1);
        std::fill(std::begin(s.rsb), std::end(s.rsb), -1);
        std::fill(std::begin(s.from), std::end(s.from), 0);
        std::fill(std::begin(s.pready), std::end(s.pready), 0);
        std::fill(std::begin(s.pwriter), std::end(s.pwriter), 0);
        std::fill(std::begin(s.psb), std::end(s.psb), -1);
        std::fill(std::begin(s.pfrom), std::end(s.pfrom), 0);
        std::fill(std::begin(s.uready), std::end(s.uready), 0);
        std::fill(std::begin(s.uwriter), std::end(s.uwriter), 0);
        std::fill(std::begin(s.usb), std::end(s.usb), -1);
        std::fill(std::begin(s.ufrom), std::end(s.ufrom), 0);
    }
}

void HazardState::Report(const DInst &d, const std::string &what) {
    if (std::find(reported_.begin(), reported_.end(), d.pc) != reported_.end()) return;
    reported_.push_back(d.pc);
    found_.push_back({k_.name, d.pc, what});
}

void HazardState::Issue(Cta &, Warp &w, const DInst &d) {
    WarpState &s = warps_[w.id];
    const HazardInfo &h = info_[d.pc / 16];
    uint32_t g = w.group;
    int64_t t = s.cycle;
    char buf[200];
    // 1. scoreboard waits
    for (int b = 0; b < 6; ++b) {
        if (!((d.ctl.wait >> b) & 1)) continue;
        // a wait on a scoreboard that no instruction of the kernel sets (a wait on all six is
        // a drain, and a join may wait on one that only the other path set)
        if (!((static_sbs_ >> b) & 1) && d.ctl.wait != 0x3f) {
            std::snprintf(buf, sizeof buf, "waits on scoreboard SB%d that no instruction set", b);
            Report(d, buf);
        }
        for (int r = 0; r < 255; ++r) {
            if (s.sb[r] == b) s.sb[r] = -1;
            if (s.rsb[r] == b) s.rsb[r] = -1;
            // an in-order pipe: results issued before the barrier's setter are in too
            if (s.sb[r] == 7 && s.pipe[r] == s.sb_pipe[b] && s.seq[r] < s.sb_seq[b]) s.sb[r] = -1;
        }
        for (int p = 0; p < 7; ++p)
            if (s.psb[p] == b) s.psb[p] = -1;
        for (int u = 0; u < 63; ++u)
            if (s.usb[u] == b) s.usb[u] = -1;
    }
    // 2. reads
    for (const RegUse &u : h.reads)
        for (int r = u.reg; r < u.reg + u.width && r < 255; ++r) {
            if (!(s.writer[r] & g)) continue;
            const DInst &p = k_.code[s.from[r]];
            if (s.sb[r] >= 0 && s.sb[r] < 6) {
                std::snprintf(buf, sizeof buf, "R%d read before scoreboard SB%d of its writer at 0x%04llx was waited on", r, s.sb[r],
                              (unsigned long long)p.pc);
                Report(d, buf);
            } else if (s.sb[r] == 7) {
                std::snprintf(buf, sizeof buf, "R%d read, but its variable-latency writer at 0x%04llx set no scoreboard", r,
                              (unsigned long long)p.pc);
                Report(d, buf);
            } else if (s.ready[r] > t) {
                std::snprintf(buf, sizeof buf, "R%d read %lld cycle(s) before ready (written at 0x%04llx by %s, fixed latency)", r,
                              (long long)(s.ready[r] - t), (unsigned long long)p.pc, p.opcode.c_str());
                Report(d, buf);
            }
        }
    // 2a'. a barrier reduction's result: B2R.RESULT reads it no sooner than the "@bar-result" row
    // after the BAR.RED (ptxas: 6 cycles on every architecture)
    if (d.opcode == "B2R" && s.bar_result_ready > t) {
        std::snprintf(buf, sizeof buf, "B2R.RESULT read the barrier's result %lld cycle(s) before ready", (long long)(s.bar_result_ready - t));
        Report(d, buf);
    }
    if (d.opcode == "BAR" && Has(d, "RED")) s.bar_result_ready = t + bar_result_;
    // 2b. predicate reads
    for (uint8_t p : h.preads) {
        if (!(s.pwriter[p] & g)) continue;
        const DInst &pw = k_.code[s.pfrom[p]];
        if (s.psb[p] >= 0 && s.psb[p] < 6) {
            std::snprintf(buf, sizeof buf, "P%d read before scoreboard SB%d of its writer at 0x%04llx was waited on", p, s.psb[p],
                          (unsigned long long)pw.pc);
            Report(d, buf);
        } else if (s.psb[p] == 7) {
            std::snprintf(buf, sizeof buf, "P%d read, but its variable-latency writer at 0x%04llx set no scoreboard", p, (unsigned long long)pw.pc);
            Report(d, buf);
        } else {
            // read early, as a guard is: VOTE's predicate source too (ptxas waits 13 cycles there)
            bool guard = (!d.uniform_guard && p == d.guard) || d.opcode == "VOTE" || d.opcode == "VOTEU";
            int64_t need = s.pready[p] + (d.control ? plat_control_ : guard ? std::max(plat_guard_, plat_) : plat_);
            // a producer whose predicate arrives later (DSETP: "@predicate-guard:DSETP" rows)
            need = std::max(need, s.pready[p] + ProducerPredicateLatency(k_.arch, pw.opcode, d.control || guard));
            if (need > t) {
                std::snprintf(buf, sizeof buf, "P%d read %lld cycle(s) before ready (written at 0x%04llx by %s, fixed latency%s)", p,
                              (long long)(need - t), (unsigned long long)pw.pc, pw.opcode.c_str(),
                              d.control ? ", control consumer" : guard ? ", as a guard" : "");
                Report(d, buf);
            }
        }
    }
    for (uint8_t p : h.pwrites) {
        s.pwriter[p] = g;
        s.pfrom[p] = (uint16_t)(d.pc / 16);
        if (d.ctl.wbar < 6) s.psb[p] = (int8_t)d.ctl.wbar;
        else if (h.variable) s.psb[p] = 7;
        else s.psb[p] = -1, s.pready[p] = t;  // + the consumer's predicate latency
    }
    // 2c. uniform registers
    for (uint8_t u : h.ureads) {
        if (u >= 63 || !(s.uwriter[u] & g)) continue;
        const DInst &uw = k_.code[s.ufrom[u]];
        if (s.usb[u] >= 0 && s.usb[u] < 6) {
            std::snprintf(buf, sizeof buf, "UR%d read before scoreboard SB%d of its writer at 0x%04llx was waited on", u, s.usb[u],
                          (unsigned long long)uw.pc);
            Report(d, buf);
        } else if (s.uready[u] > t) {
            std::snprintf(buf, sizeof buf, "UR%d read %lld cycle(s) before ready (written at 0x%04llx by %s, fixed latency)", u,
                          (long long)(s.uready[u] - t), (unsigned long long)uw.pc, uw.opcode.c_str());
            Report(d, buf);
        }
    }
    for (uint8_t u : h.uwrites) {
        if (u >= 63) continue;
        s.uwriter[u] = g;
        s.ufrom[u] = (uint16_t)(d.pc / 16);
        if (d.ctl.wbar < 6) s.usb[u] = (int8_t)d.ctl.wbar;
        else if (h.variable) s.usb[u] = 7, s.uready[u] = t;
        else s.usb[u] = -1, s.uready[u] = t + h.latency;
    }
    // 3. writes
    for (const RegUse &u : h.writes)
        for (int r = u.reg; r < u.reg + u.width && r < 255; ++r) {
            if ((s.writer[r] & g) && s.sb[r] >= 0 && s.sb[r] < 6) {
                std::snprintf(buf, sizeof buf, "R%d overwritten before scoreboard SB%d of its writer at 0x%04llx was waited on", r, s.sb[r],
                              (unsigned long long)k_.code[s.from[r]].pc);
                Report(d, buf);
            }
            if (s.rsb[r] >= 0) {
                std::snprintf(buf, sizeof buf, "R%d overwritten while an earlier instruction still reads it (scoreboard SB%d not waited on)", r,
                              s.rsb[r]);
                Report(d, buf);
            }
            s.writer[r] = g;
            s.from[r] = (uint16_t)(d.pc / 16);
            s.pipe[r] = (int8_t)h.pipe;
            s.seq[r] = s.issued;
            bool guarded = d.ctl.wbar < 6;
            if (guarded) {
                s.sb[r] = (int8_t)d.ctl.wbar;
                s.ready[r] = t;  // the scoreboard, not a latency, orders its consumers
            } else if (h.variable) {
                s.sb[r] = 7;
                s.ready[r] = t;
            } else {
                s.sb[r] = -1;
                s.ready[r] = t + h.latency;
            }
        }
    // 4. scoreboards set by this instruction
    for (int b : {(int)d.ctl.wbar, (int)d.ctl.rbar})
        if (b < 6) {
            s.sb_ever[b] = true;
            s.sb_pipe[b] = (int8_t)h.pipe;
            s.sb_seq[b] = s.issued + 1;
        }
    ++s.issued;
    if (d.ctl.rbar < 6) {
        // sources the instruction also overwrites are covered by its write scoreboard
        for (const RegUse &u : h.reads)
            for (int r = u.reg; r < u.reg + u.width && r < 255; ++r) {
                bool written = false;
                for (const RegUse &wu : h.writes) written = written || (r >= wu.reg && r < wu.reg + wu.width);
                if (!written || d.ctl.wbar >= 6) s.rsb[r] = (int8_t)d.ctl.rbar;
            }
    }
    s.cycle = t + std::max<int>(1, d.ctl.stall);
}

void HazardState::Flush(std::vector<Hazard> &out, std::mutex &mu) {
    std::lock_guard<std::mutex> g(mu);
    for (const Hazard &h : found_) {
        bool dup = false;
        for (const Hazard &o : out) dup = dup || (o.address == h.address && o.kernel == h.kernel);
        if (!dup) out.push_back(h);
    }
    found_.clear();
}

}  // namespace rndn::sassemu
