// The semantics table lookup: binds each pre-decoded instruction to its row, checking its
// modifiers against the row's list (an unknown one makes the instruction unsupported).
#include <map>

#include "sassemu/semantics.h"

namespace rndn::sassemu {

namespace {

const std::map<std::string, const OpRow *> &RowIndex() {
    static const std::map<std::string, const OpRow *> index = [] {
        std::map<std::string, const OpRow *> m;
        for (const auto *rows : {&ArithRows(), &ControlRows(), &MemoryRows()})
            for (const OpRow &r : *rows) m[r.name] = &r;
        return m;
    }();
    return index;
}

}  // namespace

Status PrepareDInst(DInst &d) {
    auto it = RowIndex().find(d.opcode);
    if (it == RowIndex().end()) return Status::Unsupported("opcode " + d.opcode + " has no semantics");
    const OpRow &row = *it->second;
    int positional = 0;
    for (const std::string &mod : d.mods) {
        const ModDef *def = nullptr;
        for (const ModDef &md : row.mods)
            if (mod == md.name) {
                def = &md;
                break;
            }
        if (!def) return Status::Unsupported("modifier ." + mod + " of " + d.opcode + " has no semantics");
        if (def->slot >= 0) d.m[def->slot] = def->value;
        else if (def->slot == -2 && positional < 4) d.m[positional++] = def->value;
    }
    if (row.prepare) RNDN_RETURN_IF_ERROR(row.prepare(d));
    d.fn = row.exec;
    d.control = row.control;
    d.variable = row.variable;
    return Status::Ok();
}

}  // namespace rndn::sassemu
