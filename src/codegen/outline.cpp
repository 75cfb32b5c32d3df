// The outliner: statements of the entry function -> interpreter steps and kernels.
//
// Passes (thesis §3): (1) geometry analysis gives every value a symbolic length; (2) kernel-form
// selection decides which statements a kernel can compute (templates.def names the element-wise
// builtins and their types); (3) in full mode a compressed value that only feeds element-wise
// statements and reductions stays virtual (a predicate in the kernel over the uncompressed rows);
// (4) fusion groups kernel statements over one domain (none: one kernel per statement; flow:
// along producer -> consumer edges; full: any statements of the domain whose inputs are ready);
// (5) the schedule with its dependence graph.
#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include "codegen/internal.h"

namespace rndn::codegen {

const char *FusionModeName(FusionMode m) {
    switch (m) {
        case FusionMode::NONE: return "none";
        case FusionMode::FLOW: return "flow";
        case FusionMode::FULL: return "full";
    }
    return "?";
}

Expected<FusionMode> ParseFusionMode(std::string_view s) {
    if (s == "none") return FusionMode::NONE;
    if (s == "flow") return FusionMode::FLOW;
    if (s == "full") return FusionMode::FULL;
    return Status::UserError(sqlstate::kInvalidParameter, "unknown outline mode '" + std::string(s) + "' (none, flow, full)");
}

namespace {

using hir::Expr;
using hir::Operand;
using hir::Stmt;
using hir::Type;
using hir::TypeKind;

std::string CalleeName(const Expr &e) {
    if (e.kind != Expr::Kind::CALL) return "";
    if (e.callee.resolved.builtin < 0) return "";
    return e.callee.resolved.name.empty() ? e.callee.name : e.callee.resolved.name;
}

// Builtins whose result has one element per element of their first argument (geometry rule of
// the interpreter-run statements; R-O3).
const std::set<std::string> kRowwise = {"member", "like", "date_year", "date_month", "date_day", "date_hour", "date_minute",
                                        "date_second", "is_null", "is_not_null", "abs", "neg", "ceil", "floor", "round",
                                        "sub_string", "signum", "index_of"};

struct Outliner {
    const hir::Program &prog;
    const hir::Function &fn;
    FusionMode mode;
    CostModel costs = CostModel::ANY;
    OutlinedProgram out;
    std::map<std::string, int> geo_index;
    std::vector<int> producer;          // slot -> the one-target statement assigning it (-1: none)
    std::vector<std::vector<int>> users;  // slot -> statement indices reading it
    std::vector<bool> returned;         // slot used by a return
    std::set<int> forced;               // slots that must be materialised
    std::set<int> join_lists;           // slots holding @join_index results
    struct Seg {
        std::string op;
        int x = -1;      // gathered source slot (-1: @len over the cells of G itself)
        int g = -1;      // group list slot
        int a = -1;      // absorbed @each_right statement (-1: none)
        int c = -1;      // the @raze statement
        int geo = -1;    // cells(G)
        int grp = -1;    // by rows (GROUPREDUCE): the @group statement whose @values is G
    };
    struct Grp {
        std::vector<int> keys;   // key column slots
        std::vector<Type> types;
        int list = -1;           // absorbed @list statement (-1: none; the key is one column or a list built elsewhere)
        int geo = -1;            // geometry of the key columns
        int vslot = -1;          // V = @values(G) read by per-cell reductions by rows (-1: none)
        int values = -1;         // the @values statement, absorbed (never built; -1: interpreted)
        bool lists = true;       // G's member lists are built
    };
    std::map<int, Grp> groups;          // @group statement -> its keys
    std::set<int> group_lists;          // absorbed @list statements
    std::set<int> group_values;         // absorbed @values statements
    std::set<int> no_absorb;            // masks whose element-wise kernel a compaction may not take over
    std::map<int, Seg> seg_b;           // @each statement -> its chain
    std::map<int, int> seg_c;           // @raze statement -> its @each statement
    std::set<int> seg_a;                // absorbed @each_right statements
    std::vector<bool> virt;             // slot is a virtual compressed value
    std::vector<int> domain;            // statement -> domain geometry (-1: interpreted)
    std::vector<Form> form;

    Outliner(const hir::Program &p, const hir::Function &f, FusionMode m) : prog(p), fn(f), mode(m) {}

    int Geo(Geometry::Kind kind, const std::string &key, const std::string &text, int base = -1, int mask = -1) {
        auto it = geo_index.find(key);
        if (it != geo_index.end()) return it->second;
        Geometry g;
        g.kind = kind;
        g.text = text;
        g.base = base;
        g.mask = mask;
        out.geometries.push_back(g);
        return geo_index[key] = static_cast<int>(out.geometries.size()) - 1;
    }
    int Scalar() { return Geo(Geometry::Kind::SCALAR, "1", "1"); }
    const std::string &Name(int slot) { return out.slot_names[static_cast<size_t>(slot)]; }

    // Geometry of an operand: literals by length, names by their slot.
    int OperandGeo(const Operand &o) {
        if (o.kind == Operand::Kind::LITERAL) {
            if (o.literal.value && o.literal.value->length == 1) return Scalar();
            return -1;
        }
        if (o.kind == Operand::Kind::NAME && o.slot >= 0) return out.slot_geometry[static_cast<size_t>(o.slot)];
        return -1;
    }

    bool StraightLine() {
        std::vector<int> assigned(static_cast<size_t>(fn.num_slots), 0);
        for (const auto &p : fn.params) if (p.slot >= 0) assigned[static_cast<size_t>(p.slot)]++;
        for (const auto &s : fn.body) {
            if (s.kind == Stmt::Kind::VAR) continue;
            if (s.kind == Stmt::Kind::RETURN) continue;
            if (s.kind != Stmt::Kind::ASSIGN && s.kind != Stmt::Kind::EXPR) return false;
            for (const auto &t : s.targets) {
                if (t.slot < 0 || t.global >= 0) return false;
                if (++assigned[static_cast<size_t>(t.slot)] > 1) return false;
            }
            for (const auto &a : s.expr.args)
                if (a.kind == Operand::Kind::NAME && a.slot < 0) return false;  // globals
        }
        return true;
    }

    // Pass 1: geometry of every slot, in statement order.
    void Geometries() {
        out.slot_geometry.assign(static_cast<size_t>(fn.num_slots), -1);
        for (size_t k = 0; k < fn.body.size(); ++k) {
            const Stmt &s = fn.body[k];
            if (s.kind != Stmt::Kind::ASSIGN || s.targets.size() != 1) continue;
            int slot = s.targets[0].slot;
            const Type &t = s.expr.types.empty() ? s.targets[0].type : s.expr.types[0];
            const Expr *e = &s.expr;
            if (e->kind == Expr::Kind::CAST && e->inner) e = e->inner.get();
            std::string name = CalleeName(*e);
            if (name == "join_index") join_lists.insert(slot);
            // enums (foreign-key columns) have the rows of their table
            if (!hir::IsBasic(t.kind) && !(t.kind == TypeKind::ENUM && name == "column_value")) continue;
            int g = -1;
            if (e->kind == Expr::Kind::OPERAND) {
                g = OperandGeo(e->operand);
                if (g < 0 && e->operand.kind == Operand::Kind::LITERAL && e->operand.literal.value)
                    g = Geo(Geometry::Kind::OPAQUE, "lit" + std::to_string(k), "len(" + Name(slot) + ")");
            } else if (name == "column_value" && e->args.size() == 2 && e->args[0].kind == Operand::Kind::NAME) {
                std::string tab = e->args[0].name;
                g = Geo(Geometry::Kind::ROWS, "rows:" + std::to_string(e->args[0].slot), "rows(" + tab + ")");
            } else if (kernel::IsElementwise(name)) {
                // element-wise: the common geometry of the vector arguments
                int common = -2;
                for (const auto &a : e->args) {
                    int ag = OperandGeo(a);
                    if (ag == Scalar()) continue;
                    if (ag < 0 || (common != -2 && common != ag)) { common = -1; break; }
                    common = ag;
                }
                g = common == -2 ? Scalar() : common;
            } else if (name == "compress" && e->args.size() == 2) {
                int mg = OperandGeo(e->args[0]);
                int dg = OperandGeo(e->args[1]);
                if (mg >= 0 && mg == dg && e->args[0].kind == Operand::Kind::NAME)
                    g = Geo(Geometry::Kind::COMPRESSED, "c:" + std::to_string(mg) + ":" + std::to_string(e->args[0].slot),
                            "compress(" + e->args[0].name + ")", mg, e->args[0].slot);
            } else if (kernel::IsReduction(name)) {
                g = Scalar();
            } else if (name == "index" && e->args.size() == 2 && e->args[0].kind == Operand::Kind::NAME &&
                       join_lists.count(e->args[0].slot) && e->args[1].kind == Operand::Kind::LITERAL) {
                // the cells of a @join_index result: index vectors of one length
                g = Geo(Geometry::Kind::OPAQUE, "join:" + std::to_string(e->args[0].slot), "len(" + e->args[0].name + "[0])");
            } else if (name == "index" && e->args.size() == 2 && hir::IsBasic(e->args[0].type.kind) && hir::IsInteger(e->args[1].type.kind)) {
                g = OperandGeo(e->args[1]);
                if (g == Scalar()) g = -1;
            } else if ((name == "fetch" || name == "values") && e->args.size() == 1) {
                g = OperandGeo(e->args[0]);  // an enum's values and row positions: its rows
            } else if (kRowwise.count(name) && !e->args.empty()) {
                g = OperandGeo(e->args[0]);  // one result per element of the first argument
                if (g == Scalar() && e->args[0].kind == Operand::Kind::LITERAL) g = -1;
            }
            if (g < 0) g = Geo(Geometry::Kind::OPAQUE, "op" + std::to_string(slot), "len(" + Name(slot) + ")");
            out.slot_geometry[static_cast<size_t>(slot)] = g;
        }
    }

    // Kernel form of a statement, ignoring fusion (types and operands only).
    bool Compilable(size_t k, Form *f) {
        const Stmt &s = fn.body[k];
        if (s.kind != Stmt::Kind::ASSIGN || s.targets.size() != 1 || s.expr.kind != Expr::Kind::CALL) return false;
        if (s.expr.types.size() != 1) return false;
        std::string name = CalleeName(s.expr);
        std::vector<Type> args;
        for (const auto &a : s.expr.args) {
            if (a.kind == Operand::Kind::FUNC) return false;
            if (a.kind == Operand::Kind::LITERAL && (!a.literal.value || a.literal.value->length != 1)) return false;
            args.push_back(a.type);
        }
        if ((name == "eq" || name == "neq") && args.size() == 2 && kernel::IsStringType(args[0]) && kernel::IsStringType(args[1])) {
            // strings: against one literal only (a column compared with a constant).  Not under
            // CostModel::CPU_DEVICE: the byte loop runs per lane there (Q19 SF 0.1: l_shipinstruct
            // = literal 55-60 ms in the kernel, 20 ms as the interpreter's @eq)
            if (costs == CostModel::CPU_DEVICE) return false;
            int lits = (s.expr.args[0].kind == Operand::Kind::LITERAL) + (s.expr.args[1].kind == Operand::Kind::LITERAL);
            if (lits != 1 || s.expr.types[0].kind != TypeKind::BOOL) return false;
            *f = Form::ELEMENTWISE;
            return true;
        }
        if (kernel::IsElementwise(name)) {
            if (!kernel::ElementwiseSupported(name, args, s.expr.types[0])) return false;
            *f = Form::ELEMENTWISE;
            return true;
        }
        if (name == "compress") {
            if (args.size() != 2 || args[0].kind != TypeKind::BOOL || !kernel::TypeSupported(args[1])) return false;
            if (s.expr.args[0].kind != Operand::Kind::NAME || s.expr.args[1].kind != Operand::Kind::NAME) return false;
            *f = Form::COMPRESS;
            return true;
        }
        if (name == "index") {
            if (args.size() != 2 || !kernel::TypeSupported(args[0]) || args[1].kind != TypeKind::I64) return false;
            if (s.expr.args[0].kind != Operand::Kind::NAME || s.expr.args[1].kind != Operand::Kind::NAME) return false;
            if (!(s.expr.types[0] == args[0])) return false;
            *f = Form::GATHER;
            return true;
        }
        if (kernel::IsReduction(name)) {
            if (args.size() != 1 || s.expr.args[0].kind != Operand::Kind::NAME) return false;
            if (!kernel::ReductionSupported(name, args[0], s.expr.types[0])) return false;
            *f = Form::REDUCE;
            return true;
        }
        return false;
    }

    // Per-cell reductions (R-O7): M = @each(@op, L) whose only reader is r = @raze(M), where L is
    // @each_right(@index, x, G) (or G itself for @len).  The kernel reads x and G directly.
    void Segments() {
        for (size_t k = 0; k < fn.body.size(); ++k) {
            const Stmt &b = fn.body[k];
            if (b.kind != Stmt::Kind::ASSIGN || b.targets.size() != 1 || CalleeName(b.expr) != "each" || b.expr.args.size() != 2) continue;
            const Operand &fa = b.expr.args[0], &la = b.expr.args[1];
            if (fa.kind != Operand::Kind::FUNC || fa.resolved.builtin < 0 || la.kind != Operand::Kind::NAME || la.slot < 0) continue;
            Seg sg;
            sg.op = fa.resolved.name;
            if (sg.op != "sum" && sg.op != "min" && sg.op != "max" && sg.op != "count" && sg.op != "len" && sg.op != "avg") continue;
            int m = b.targets[0].slot;
            if (returned[static_cast<size_t>(m)] || users[static_cast<size_t>(m)].size() != 1) continue;
            int c = users[static_cast<size_t>(m)][0];
            const Stmt &cs = fn.body[static_cast<size_t>(c)];
            if (cs.kind != Stmt::Kind::ASSIGN || cs.targets.size() != 1 || CalleeName(cs.expr) != "raze" || cs.expr.args.size() != 1 ||
                cs.expr.types.size() != 1)
                continue;
            const Type &rt = cs.expr.types[0];
            int pl = producer[static_cast<size_t>(la.slot)];
            const Stmt *a = pl >= 0 ? &fn.body[static_cast<size_t>(pl)] : nullptr;
            if (a && CalleeName(a->expr) == "each_right" && a->expr.args.size() == 3 && a->expr.args[0].kind == Operand::Kind::FUNC &&
                a->expr.args[0].resolved.name == "index" && a->expr.args[1].kind == Operand::Kind::NAME &&
                a->expr.args[2].kind == Operand::Kind::NAME && a->expr.args[2].type.kind == TypeKind::LIST) {
                const Type &xt = a->expr.args[1].type;
                if (!kernel::ReductionSupported(sg.op, xt, rt)) continue;
                sg.x = a->expr.args[1].slot;
                sg.g = a->expr.args[2].slot;
                if (mode != FusionMode::NONE && users[static_cast<size_t>(la.slot)].size() == 1 && !returned[static_cast<size_t>(la.slot)])
                    sg.a = pl;
            } else if (sg.op == "len" && la.type.kind == TypeKind::LIST && rt.kind == TypeKind::I64) {
                sg.g = la.slot;
            } else {
                continue;
            }
            sg.c = c;
            sg.geo = Geo(Geometry::Kind::OPAQUE, "cells:" + std::to_string(sg.g), "cells(" + Name(sg.g) + ")");
            out.slot_geometry[static_cast<size_t>(cs.targets[0].slot)] = sg.geo;
            seg_b[static_cast<int>(k)] = sg;
            seg_c[c] = static_cast<int>(k);
            if (sg.a >= 0) seg_a.insert(sg.a);
        }
    }

    // Group-by kernels: G = @group(K), K one column or @list(k1, ...) of columns of one geometry:
    // fixed-width or str/sym (bytes compared; not f64: the interpreter ranks floats by value, the
    // kernel compares bits; not enums).
    void Groups() {
        auto key_ok = [&](const Type &t) {
            return (kernel::TypeSupported(t) && t.kind != TypeKind::F64 && t.kind != TypeKind::F32) || kernel::IsStringType(t);
        };
        for (size_t k = 0; k < fn.body.size(); ++k) {
            const Stmt &s = fn.body[k];
            if (s.kind != Stmt::Kind::ASSIGN || s.targets.size() != 1 || s.expr.kind != Expr::Kind::CALL || CalleeName(s.expr) != "group" ||
                s.expr.args.size() != 1 || s.expr.types.size() != 1)
                continue;
            const Operand &a = s.expr.args[0];
            if (a.kind != Operand::Kind::NAME || a.slot < 0) continue;
            Grp g;
            std::vector<const Operand *> cols;
            if (a.type.kind == TypeKind::LIST) {
                int pl = producer[static_cast<size_t>(a.slot)];
                if (pl < 0) continue;
                const Stmt &ls = fn.body[static_cast<size_t>(pl)];
                if (ls.expr.kind != Expr::Kind::CALL || CalleeName(ls.expr) != "list" || ls.expr.args.empty()) continue;
                for (const auto &la : ls.expr.args) cols.push_back(&la);
                if (mode != FusionMode::NONE && users[static_cast<size_t>(a.slot)].size() == 1 && !returned[static_cast<size_t>(a.slot)]) g.list = pl;
            } else {
                cols.push_back(&a);
            }
            bool ok = true;
            for (const Operand *c : cols) {
                if (c->kind != Operand::Kind::NAME || c->slot < 0 || !key_ok(c->type)) { ok = false; break; }
                int cg = OperandGeo(*c);
                if (cg < 0 || cg == Scalar() || (g.geo >= 0 && g.geo != cg)) { ok = false; break; }
                g.geo = cg;
                g.keys.push_back(c->slot);
                g.types.push_back(c->type);
            }
            if (!ok) continue;
            groups[static_cast<int>(k)] = g;
            if (g.list >= 0) group_lists.insert(g.list);
        }
    }

    // Per-cell reductions by rows (GROUPREDUCE): a per-cell reduction over V = @values(G) of a
    // group kernel's G, whose x has the keys' geometry, adds each row into its group's record
    // (one thread per row) instead of reading member lists.  V itself is absorbed (never built)
    // when only such reductions read it, and G's member lists are built only when something else
    // than @keys and that @values reads G.
    void GroupReduces() {
        for (auto &[gi, g] : groups) {
            const int gslot = fn.body[static_cast<size_t>(gi)].targets[0].slot;
            int v = -1;
            bool other = returned[static_cast<size_t>(gslot)];
            for (int u : users[static_cast<size_t>(gslot)]) {
                const Stmt &us = fn.body[static_cast<size_t>(u)];
                const std::string c = CalleeName(us.expr);
                const bool one = us.kind == Stmt::Kind::ASSIGN && us.targets.size() == 1 && us.expr.args.size() == 1 &&
                                 us.expr.args[0].kind == Operand::Kind::NAME && us.expr.args[0].slot == gslot;
                if (one && c == "values" && v < 0) v = u;
                else if (!(one && c == "keys")) other = true;
            }
            if (v < 0) continue;
            const int vslot = fn.body[static_cast<size_t>(v)].targets[0].slot;
            int fused = 0;
            for (auto &[b, sg] : seg_b) {
                if (sg.g != vslot) continue;
                if (sg.x >= 0 && out.slot_geometry[static_cast<size_t>(sg.x)] != g.geo) continue;
                sg.grp = gi;
                ++fused;
            }
            if (!fused) continue;
            g.vslot = vslot;
            // An @each_right(@index, x, V) read only by by-rows reductions of this group (say a
            // sum and an avg of the same column) is never built: each reads x and the rows'
            // groups directly (the first one placed carries the statement).
            for (int u : users[static_cast<size_t>(vslot)]) {
                if (seg_a.count(u)) continue;
                const Stmt &us = fn.body[static_cast<size_t>(u)];
                if (us.kind != Stmt::Kind::ASSIGN || us.targets.size() != 1 || CalleeName(us.expr) != "each_right") continue;
                const int ls = us.targets[0].slot;
                if (returned[static_cast<size_t>(ls)] || users[static_cast<size_t>(ls)].empty() || mode == FusionMode::NONE) continue;
                bool all = true;
                for (int r : users[static_cast<size_t>(ls)]) {
                    auto it = seg_b.find(r);
                    all = all && it != seg_b.end() && it->second.grp == gi && it->second.a < 0 && it->second.x >= 0;
                }
                if (!all) continue;
                for (int r : users[static_cast<size_t>(ls)]) seg_b[r].a = u;
                seg_a.insert(u);
            }
            // V absorbed: every reader of V is a by-rows reduction (its absorbed @each_right, or @len's @each)
            bool absorb = mode != FusionMode::NONE && !returned[static_cast<size_t>(vslot)];
            for (int u : users[static_cast<size_t>(vslot)]) {
                bool ok = false;
                for (const auto &[b, sg] : seg_b)
                    if (sg.grp == gi && ((sg.a >= 0 && sg.a == u) || (sg.x < 0 && b == u))) ok = true;
                if (!ok) absorb = false;
            }
            if (absorb) {
                g.values = v;
                g.lists = other;
                group_values.insert(v);
            }
        }
    }

    // CostModel::CPU_DEVICE: a group kernel that builds its member lists and feeds no by-rows
    // reduction does the interpreter's work again (hash probe on every row, then the host's
    // numbering, sort and lists): keep that @group (and its @list) on the interpreter.
    // Q17 at SF 0.1 (@group of l_partkey, read by @each(@avg)): 31 ms kernel + host vs 15 ms.
    void GroupCosts() {
        for (auto it = groups.begin(); it != groups.end();) {
            bool by_rows = false;
            for (const auto &[b, sg] : seg_b)
                if (sg.grp == it->first) by_rows = true;
            if (!by_rows && it->second.lists) {
                if (it->second.list >= 0) group_lists.erase(it->second.list);
                it = groups.erase(it);
            } else {
                ++it;
            }
        }
    }

    // A per-cell avg is compiled only by rows (GROUPREDUCE: the host divides each group's sum
    // by its count); over member lists it stays with the interpreter.
    void AvgByRowsOnly() {
        for (auto it = seg_b.begin(); it != seg_b.end();) {
            if (it->second.op != "avg" || it->second.grp >= 0) {
                ++it;
                continue;
            }
            seg_c.erase(it->second.c);
            if (it->second.a >= 0) seg_a.erase(it->second.a);
            it = seg_b.erase(it);
        }
    }

    // Type of the gathered source of a per-cell reduction.
    Type XType(int b) {
        const Seg &sg = seg_b[b];
        for (const auto &st : fn.body)
            if (st.kind == Stmt::Kind::ASSIGN && CalleeName(st.expr) == "each_right" && st.expr.args.size() == 3 &&
                st.expr.args[1].kind == Operand::Kind::NAME && st.expr.args[1].slot == sg.x)
                return st.expr.args[1].type;
        return Type();
    }

    // Pass 2+3: forms, virtual compressed values, domains.
    void Forms() {
        size_t n = fn.body.size();
        form.assign(n, Form::ELEMENTWISE);
        std::vector<bool> can(n, false);
        for (size_t k = 0; k < n; ++k) {
            Form f;
            if (Compilable(k, &f)) {
                can[k] = true;
                form[k] = f;
            }
        }
        // virtual candidates (full mode only)
        virt.assign(static_cast<size_t>(fn.num_slots), false);
        if (mode == FusionMode::FULL) {
            for (size_t k = 0; k < n; ++k) {
                if (!can[k]) continue;
                const Stmt &s = fn.body[k];
                int slot = s.targets[0].slot;
                if (forced.count(slot)) continue;
                if (form[k] == Form::COMPRESS) {
                    int mg = OperandGeo(s.expr.args[0]);
                    if (mg >= 0 && out.geometries[static_cast<size_t>(mg)].kind != Geometry::Kind::COMPRESSED &&
                        !virt[static_cast<size_t>(s.expr.args[0].slot)] && mg == OperandGeo(s.expr.args[1]) &&
                        !virt[static_cast<size_t>(s.expr.args[1].slot)])
                        virt[static_cast<size_t>(slot)] = true;
                } else if (form[k] == Form::ELEMENTWISE) {
                    bool any = false, all = true;
                    int g = -1;
                    for (const auto &a : s.expr.args) {
                        int ag = OperandGeo(a);
                        if (ag == Scalar()) continue;
                        if (a.kind != Operand::Kind::NAME || !virt[static_cast<size_t>(a.slot)]) { all = false; continue; }
                        if (g >= 0 && g != ag) all = false;
                        g = ag;
                        any = true;
                    }
                    if (any && all) virt[static_cast<size_t>(slot)] = true;
                }
            }
            // remove virtual values with a use that cannot stay in the kernel
            for (bool changed = true; changed;) {
                changed = false;
                for (int slot = 0; slot < fn.num_slots; ++slot) {
                    if (!virt[static_cast<size_t>(slot)]) continue;
                    bool ok = !returned[static_cast<size_t>(slot)];
                    for (int u : users[static_cast<size_t>(slot)]) {
                        const Stmt &s = fn.body[static_cast<size_t>(u)];
                        if (!can[static_cast<size_t>(u)]) ok = false;
                        else if (form[static_cast<size_t>(u)] == Form::REDUCE) continue;
                        else if (form[static_cast<size_t>(u)] == Form::ELEMENTWISE && virt[static_cast<size_t>(s.targets[0].slot)]) continue;
                        else ok = false;
                    }
                    if (!ok) {
                        virt[static_cast<size_t>(slot)] = false;
                        changed = true;
                        // element-wise users with this input cannot be virtual either
                        for (int u : users[static_cast<size_t>(slot)])
                            if (can[static_cast<size_t>(u)] && form[static_cast<size_t>(u)] == Form::ELEMENTWISE)
                                virt[static_cast<size_t>(fn.body[static_cast<size_t>(u)].targets[0].slot)] = false;
                    }
                }
            }
        }
        // CostModel::CPU_DEVICE: the masks whose materialised compactions stay one kernel: those
        // with a compressed column that a per-cell reduction reads or an element-wise kernel
        // statement computes from (TPC-H Q1's sums and sunk chains over one mask: with the
        // compressions interpreted one by one between them, the by-rows kernels of the group
        // split and the chains' products were written; 193-226 -> 228-249 ms).  Other masks'
        // compactions run on the interpreter.
        std::set<int> kernel_masks;
        if (costs == CostModel::CPU_DEVICE)
            for (size_t k = 0; k < n; ++k) {
                if (!can[k] || form[k] != Form::COMPRESS || virt[static_cast<size_t>(fn.body[k].targets[0].slot)]) continue;
                const int c = fn.body[k].targets[0].slot, mask = fn.body[k].expr.args[0].slot;
                bool feeds = false;
                for (const auto &[b, sg] : seg_b) feeds = feeds || sg.x == c;
                for (int u : users[static_cast<size_t>(c)])
                    feeds = feeds || (can[static_cast<size_t>(u)] && form[static_cast<size_t>(u)] == Form::ELEMENTWISE);
                if (feeds) kernel_masks.insert(mask);
            }
        // domains
        domain.assign(n, -1);
        for (size_t k = 0; k < n; ++k) {
            if (!can[k]) continue;
            const Stmt &s = fn.body[k];
            if (form[k] == Form::COMPRESS) {
                int mg = OperandGeo(s.expr.args[0]);
                if (virt[static_cast<size_t>(s.targets[0].slot)]) domain[k] = mg;
                else if (costs == CostModel::CPU_DEVICE && !kernel_masks.count(s.expr.args[0].slot))
                    continue;  // materialised on the cpu device: the interpreter's compress (kernel_masks above)
                else if (mg >= 0 && mg != Scalar() && mg == OperandGeo(s.expr.args[1]) && !virt[static_cast<size_t>(s.expr.args[0].slot)] &&
                         !virt[static_cast<size_t>(s.expr.args[1].slot)])
                    domain[k] = mg;  // materialised: a compaction kernel
                continue;
            }
            if (form[k] == Form::GATHER) {
                int ig = OperandGeo(s.expr.args[1]);
                if (ig >= 0 && ig != Scalar() && !virt[static_cast<size_t>(s.expr.args[0].slot)] &&
                    !virt[static_cast<size_t>(s.expr.args[1].slot)] && OperandGeo(s.expr.args[0]) >= 0)
                    domain[k] = ig;
                continue;
            }
            int d = -2;
            bool bad = false;
            bool want = form[k] == Form::ELEMENTWISE && virt[static_cast<size_t>(s.targets[0].slot)];
            for (const auto &a : s.expr.args) {
                int ag = OperandGeo(a);
                if (ag < 0) { bad = true; break; }
                if (ag == Scalar()) continue;
                bool v = a.kind == Operand::Kind::NAME && virt[static_cast<size_t>(a.slot)];
                if (form[k] == Form::ELEMENTWISE && v != want) { bad = true; break; }
                int dom = v ? out.geometries[static_cast<size_t>(ag)].base : ag;
                if (d != -2 && d != dom) { bad = true; break; }
                d = dom;
            }
            if (bad || d < 0) continue;
            domain[k] = d;
        }
    }

    // Every result of kernel kk (element-wise statements only) is read only inside it or by
    // materialised compresses with this mask (which then join it as a compaction kernel).
    bool OnlyFeedsCompaction(int kk, int mask, const std::vector<int> &kernel_of) {
        for (const auto &ks : out.kernels[static_cast<size_t>(kk)].stmts) {
            if (ks.form != Form::ELEMENTWISE) return false;
            int slot = fn.body[static_cast<size_t>(ks.stmt)].targets[0].slot;
            if (returned[static_cast<size_t>(slot)]) return false;
            for (int u : users[static_cast<size_t>(slot)]) {
                if (kernel_of[static_cast<size_t>(u)] == kk) continue;
                const Stmt &us = fn.body[static_cast<size_t>(u)];
                bool compaction = form[static_cast<size_t>(u)] == Form::COMPRESS && domain[static_cast<size_t>(u)] >= 0 &&
                                  !virt[static_cast<size_t>(us.targets[0].slot)] && us.expr.args[0].slot == mask;
                if (!compaction) return false;
            }
        }
        return true;
    }

    // Kernel kk may move to the position of statement k: every reader of its results is in the
    // kernel or not scheduled yet (statement index >= k).
    bool Movable(int kk, size_t k, const std::vector<int> &kernel_of) {
        for (const auto &ks : out.kernels[static_cast<size_t>(kk)].stmts) {
            int slot = fn.body[static_cast<size_t>(ks.stmt)].targets[0].slot;
            for (int u : users[static_cast<size_t>(slot)])
                if (kernel_of[static_cast<size_t>(u)] != kk && static_cast<size_t>(u) < k) return false;
        }
        return true;
    }

    // A statement that only fetches a column of a loaded table (`@column_value(T, `c)`, maybe
    // under check_cast): cheap, no effects, reads only T.
    bool IsColumnFetch(int stmt) const {
        const Stmt &st = fn.body[static_cast<size_t>(stmt)];
        if (st.kind != Stmt::Kind::ASSIGN || st.targets.size() != 1) return false;
        const Expr *e = &st.expr;
        if (e->kind == Expr::Kind::CAST && e->inner) e = e->inner.get();
        return e->kind == Expr::Kind::CALL && CalleeName(*e) == "column_value";
    }

    // Moves the interpreter steps that fetch the late inputs of statement s (produced after kernel
    // kk's launch) to just before that launch, when each is a column fetch whose table was loaded
    // before it.  False (nothing moved) otherwise.
    bool HoistFetches(int kk, const Stmt &s, const std::vector<int> &slot_kernel, std::vector<int> &slot_step,
                      std::vector<int> &kernel_step) {
        std::vector<int> late_steps;
        for (const auto &a : s.expr.args) {
            if (a.kind != Operand::Kind::NAME || a.slot < 0) continue;
            const int sl = a.slot;
            if (slot_kernel[static_cast<size_t>(sl)] == kk || slot_step[static_cast<size_t>(sl)] < kernel_step[static_cast<size_t>(kk)]) continue;
            const int p = slot_step[static_cast<size_t>(sl)];
            const Step &st = out.steps[static_cast<size_t>(p)];
            if (st.kind != Step::Kind::INTERP || !IsColumnFetch(st.stmt)) return false;
            const Expr *e = &fn.body[static_cast<size_t>(st.stmt)].expr;
            if (e->kind == Expr::Kind::CAST && e->inner) e = e->inner.get();
            for (const auto &b : e->args)
                if (b.kind == Operand::Kind::NAME && b.slot >= 0 && slot_step[static_cast<size_t>(b.slot)] >= kernel_step[static_cast<size_t>(kk)])
                    return false;
            late_steps.push_back(p);
        }
        std::sort(late_steps.begin(), late_steps.end());
        late_steps.erase(std::unique(late_steps.begin(), late_steps.end()), late_steps.end());
        for (size_t i = late_steps.size(); i-- > 0;) {
            // later steps first: moving one shifts only the steps between the launch and it
            const int p = late_steps[i] + static_cast<int>(late_steps.size() - 1 - i);  // earlier moves shifted it down by one each
            const int q = kernel_step[static_cast<size_t>(kk)];
            Step moved = out.steps[static_cast<size_t>(p)];
            out.steps.erase(out.steps.begin() + p);
            out.steps.insert(out.steps.begin() + q, moved);
            auto remap = [&](int &x) {
                if (x == p) x = q;
                else if (x >= q && x < p) ++x;
            };
            for (auto &x : kernel_step) remap(x);
            for (auto &x : slot_step) remap(x);
        }
        return true;
    }

    // The element-wise chain (maps and gathers) inside kernel M that computes the sources xs of
    // by-rows kernel b's reductions: their statements and, transitively, the statements of M they
    // read.  False when it cannot move into b: a statement of another form, a string or virtual
    // value, or a value read outside the chain other than by b's absorbed @each_right statements
    // of reductions that need no source column on the host (sum, min, max, count; an avg's
    // host divides by a count it takes from the source).
    bool RowChain(const std::set<int> &xs, int M, int b, const std::vector<int> &kernel_of, std::set<int> &chain) {
        std::vector<int> work;
        for (int x : xs) work.push_back(producer[static_cast<size_t>(x)]);
        while (!work.empty()) {
            const int s = work.back();
            work.pop_back();
            if (s < 0 || kernel_of[static_cast<size_t>(s)] != M) return false;
            if (!chain.insert(s).second) continue;
            const Stmt &st = fn.body[static_cast<size_t>(s)];
            if (form[static_cast<size_t>(s)] != Form::ELEMENTWISE && form[static_cast<size_t>(s)] != Form::GATHER) return false;
            if (st.targets.size() != 1 || kernel::IsStringType(st.expr.types[0])) return false;
            for (const auto &a : st.expr.args) {
                if (kernel::IsStringType(a.kind == Operand::Kind::LITERAL ? a.literal.value->type : a.type)) return false;
                if (a.kind != Operand::Kind::NAME || a.slot < 0) continue;
                if (virt[static_cast<size_t>(a.slot)]) return false;
                const int p = producer[static_cast<size_t>(a.slot)];
                if (p >= 0 && kernel_of[static_cast<size_t>(p)] == M) work.push_back(p);
            }
        }
        for (int s : chain) {
            const int t = fn.body[static_cast<size_t>(s)].targets[0].slot;
            if (returned[static_cast<size_t>(t)] || virt[static_cast<size_t>(t)]) return false;
            for (int u : users[static_cast<size_t>(t)]) {
                if (chain.count(u)) continue;
                if (!xs.count(t) || !seg_a.count(u) || kernel_of[static_cast<size_t>(u)] != b) return false;
                for (const auto &[r, sg] : seg_b)
                    if (sg.a == u && sg.op != "sum" && sg.op != "min" && sg.op != "max" && sg.op != "count") return false;
            }
        }
        return true;
    }

    // The inputs an element-wise or gather statement of kernel K reads: each literal as a scalar
    // input of its own, each other operand once per (slot, random access) unless K computes it
    // (a gather's source is always an input: fusion never gathers from a column of its own kernel).
    void AddOperandInputs(Kernel &K, const KernelStmt &ks, const std::set<int> &inside, std::set<std::pair<int, bool>> &seen_in, int &lit) {
        const Stmt &s = fn.body[static_cast<size_t>(ks.stmt)];
        for (size_t ai = 0; ai < s.expr.args.size(); ++ai) {
            const auto &a = s.expr.args[ai];
            KernelInput in;
            in.type = a.type;
            in.random_access = ks.form == Form::GATHER && ai == 0;
            if (a.kind == Operand::Kind::LITERAL) {
                in.literal = &a;
                in.literal_stmt = ks.stmt;
                in.literal_arg = static_cast<int>(ai);
                in.scalar = true;
                in.type = a.literal.value->type;
                in.name = "lit" + std::to_string(lit++);
                K.inputs.push_back(in);
                continue;
            }
            if ((inside.count(a.slot) && !in.random_access) || seen_in.count({a.slot, in.random_access})) continue;
            seen_in.insert({a.slot, in.random_access});
            in.slot = a.slot;
            in.name = a.name;
            in.scalar = OperandGeo(a) == Scalar();
            K.inputs.push_back(in);
        }
    }

    // Full fusion of element-wise work into by-rows reductions (R-O6 for GROUPREDUCE): when the
    // sources of a group's by-rows sums (or min, max, count) are computed by an element-wise
    // kernel of the rows' own domain and read by nothing else, that chain moves into the by-rows
    // kernel, which computes them per row instead of reading them: they are never written (TPC-H
    // Q1's l_extendedprice * (1 - l_discount) and its product with (1 + l_tax), 16-byte decimals
    // per row, and the revenue of Q3, Q5, Q7-Q10 gathered through a join's index vectors).  All
    // the sources that one kernel computes move together (Q1's second product reads the first),
    // else each alone.  A kernel left without statements is dropped.
    void SinkIntoByRows(std::vector<int> &kernel_of) {
        bool dropped = false;
        for (size_t b = 0; b < out.kernels.size(); ++b) {
            if (!out.kernels[b].by_rows) continue;
            const int bi = static_cast<int>(b);
            // the sources each element-wise kernel of b's domain computes
            std::map<int, std::set<int>> from;
            for (const auto &ks : out.kernels[b].stmts) {
                if (ks.form != Form::SEGREDUCE || ks.source < 0) continue;
                const int p = producer[static_cast<size_t>(ks.source)];
                if (p < 0 || kernel_of[static_cast<size_t>(p)] < 0 || kernel_of[static_cast<size_t>(p)] == bi) continue;
                const int M = kernel_of[static_cast<size_t>(p)];
                const Kernel &MK = out.kernels[static_cast<size_t>(M)];
                if (MK.by_rows || MK.segments >= 0 || MK.group >= 0 || MK.compact_mask >= 0 || MK.domain != out.kernels[b].domain) continue;
                from[M].insert(ks.source);
            }
            std::vector<int> moved;
            for (const auto &[M, xs] : from) {
                std::vector<std::set<int>> tries{xs};
                if (xs.size() > 1)
                    for (int x : xs) tries.push_back({x});
                for (const auto &t : tries) {
                    std::set<int> chain;
                    if (std::any_of(t.begin(), t.end(), [&](int x) { return kernel_of[static_cast<size_t>(producer[static_cast<size_t>(x)])] != M; }))
                        continue;  // (moved by an earlier try)
                    if (!RowChain(t, M, bi, kernel_of, chain)) continue;
                    for (int s : chain) {
                        kernel_of[static_cast<size_t>(s)] = bi;
                        moved.push_back(s);
                    }
                    auto &ms = out.kernels[static_cast<size_t>(M)].stmts;
                    ms.erase(std::remove_if(ms.begin(), ms.end(), [&](const KernelStmt &m) { return chain.count(m.stmt) > 0; }), ms.end());
                    dropped = dropped || ms.empty();
                    if (t.size() == xs.size()) break;  // all of them moved
                }
            }
            Kernel &B = out.kernels[b];
            if (moved.empty()) continue;
            // in program order, before the reductions (the interpreter re-runs them in this order)
            std::sort(moved.begin(), moved.end());
            std::vector<KernelStmt> head;
            for (int s : moved) {
                KernelStmt m;
                m.stmt = s;
                m.form = form[static_cast<size_t>(s)];
                m.op = CalleeName(fn.body[static_cast<size_t>(s)].expr);
                head.push_back(m);
            }
            B.stmts.insert(B.stmts.begin(), head.begin(), head.end());
        }
        if (!dropped) return;
        std::vector<int> renumber(out.kernels.size(), -1);
        std::vector<Kernel> kept;
        for (size_t k = 0; k < out.kernels.size(); ++k) {
            if (out.kernels[k].stmts.empty()) continue;
            renumber[k] = static_cast<int>(kept.size());
            kept.push_back(std::move(out.kernels[k]));
            kept.back().name = "k" + std::to_string(renumber[k]);
        }
        out.kernels = std::move(kept);
        std::vector<Step> steps;
        for (auto &st : out.steps) {
            if (st.kind == Step::Kind::KERNEL) {
                if (renumber[static_cast<size_t>(st.kernel)] < 0) continue;
                st.kernel = renumber[static_cast<size_t>(st.kernel)];
            }
            steps.push_back(st);
        }
        out.steps = std::move(steps);
        for (auto &k : kernel_of)
            if (k >= 0) k = renumber[static_cast<size_t>(k)];
    }

    // Pass 4+5: fusion and the schedule.  Returns a slot to force materialised when a virtual
    // value could not stay with its consumer (the caller then re-runs), or -1.
    int Fuse() {
        out.kernels.clear();
        out.steps.clear();
        size_t n = fn.body.size();
        std::vector<int> kernel_of(n, -1);
        std::vector<int> kernel_step;                 // kernel -> step index
        std::vector<int> slot_step(static_cast<size_t>(fn.num_slots), -1);   // producing step
        std::vector<int> slot_kernel(static_cast<size_t>(fn.num_slots), -1); // producing kernel
        std::vector<bool> slot_reduced(static_cast<size_t>(fn.num_slots), false);
        for (size_t k = 0; k < n; ++k) {
            const Stmt &s = fn.body[k];
            if (s.kind == Stmt::Kind::VAR) continue;
            const int ki = static_cast<int>(k);
            if (seg_a.count(ki)) continue;  // placed with its reduction
            if (group_lists.count(ki)) continue;  // placed with its @group
            if (group_values.count(ki)) continue;  // placed with its @group
            if (groups.count(ki)) {
                const Grp &g = groups[ki];
                Kernel K;
                K.name = "k" + std::to_string(out.kernels.size());
                K.domain = g.geo;
                K.group = s.targets[0].slot;
                K.algorithm = "hash";
                K.group_values = g.vslot;
                K.group_lists = g.lists;
                out.kernels.push_back(K);
                Step st;
                st.kind = Step::Kind::KERNEL;
                st.kernel = static_cast<int>(out.kernels.size()) - 1;
                out.steps.push_back(st);
                kernel_step.push_back(static_cast<int>(out.steps.size()) - 1);
                std::vector<int> stmts;
                if (g.list >= 0) stmts.push_back(g.list);
                stmts.push_back(ki);
                if (g.values >= 0) stmts.push_back(g.values);
                for (int sk : stmts) {
                    KernelStmt ks;
                    ks.stmt = sk;
                    ks.form = sk == ki ? Form::GROUP : sk == g.values ? Form::GROUPVALUES : Form::GROUPKEYS;
                    ks.op = sk == ki ? "group" : sk == g.values ? "values" : "list";
                    out.kernels.back().stmts.push_back(ks);
                    kernel_of[static_cast<size_t>(sk)] = st.kernel;
                    int ts = fn.body[static_cast<size_t>(sk)].targets[0].slot;
                    slot_kernel[static_cast<size_t>(ts)] = st.kernel;
                    slot_step[static_cast<size_t>(ts)] = kernel_step.back();
                }
                continue;
            }
            if (seg_b.count(ki) || seg_c.count(ki)) {
                int chosen = -1;
                if (seg_c.count(ki)) {
                    chosen = slot_kernel[static_cast<size_t>(fn.body[static_cast<size_t>(seg_c[ki])].targets[0].slot)];
                } else {
                    const Seg &sg = seg_b[ki];
                    auto ready = [&](int slot, int kk) {
                        return slot < 0 || (slot_kernel[static_cast<size_t>(slot)] != kk && slot_step[static_cast<size_t>(slot)] < kernel_step[static_cast<size_t>(kk)]);
                    };
                    for (int kk = static_cast<int>(out.kernels.size()) - 1; mode != FusionMode::NONE && kk >= 0 && chosen < 0; --kk) {
                        const Kernel &K = out.kernels[static_cast<size_t>(kk)];
                        if (K.segments == sg.g && K.by_rows == (sg.grp >= 0) && ready(sg.x, kk) && ready(sg.g, kk)) chosen = kk;
                    }
                    if (chosen < 0) {
                        Kernel K;
                        K.name = "k" + std::to_string(out.kernels.size());
                        K.domain = sg.grp >= 0 ? groups[sg.grp].geo : sg.geo;
                        K.segments = sg.g;
                        K.by_rows = sg.grp >= 0;
                        out.kernels.push_back(K);
                        Step st;
                        st.kind = Step::Kind::KERNEL;
                        st.kernel = static_cast<int>(out.kernels.size()) - 1;
                        out.steps.push_back(st);
                        kernel_step.push_back(static_cast<int>(out.steps.size()) - 1);
                        chosen = st.kernel;
                    }
                    if (sg.a >= 0 && kernel_of[static_cast<size_t>(sg.a)] < 0) {  // (once when reductions share it)
                        KernelStmt ka;
                        ka.stmt = sg.a;
                        ka.form = Form::SEGSOURCE;
                        ka.op = "each_right";
                        out.kernels[static_cast<size_t>(chosen)].stmts.push_back(ka);
                        kernel_of[static_cast<size_t>(sg.a)] = chosen;
                        int ls = fn.body[static_cast<size_t>(sg.a)].targets[0].slot;
                        slot_kernel[static_cast<size_t>(ls)] = chosen;
                        slot_step[static_cast<size_t>(ls)] = kernel_step[static_cast<size_t>(chosen)];
                    }
                }
                KernelStmt ks;
                ks.stmt = ki;
                ks.form = seg_b.count(ki) ? Form::SEGREDUCE : Form::RAZE;
                ks.op = seg_b.count(ki) ? seg_b[ki].op : "raze";
                if (seg_b.count(ki)) ks.source = seg_b[ki].x;
                out.kernels[static_cast<size_t>(chosen)].stmts.push_back(ks);
                kernel_of[k] = chosen;
                int slot = s.targets[0].slot;
                slot_kernel[static_cast<size_t>(slot)] = chosen;
                slot_step[static_cast<size_t>(slot)] = kernel_step[static_cast<size_t>(chosen)];
                continue;
            }
            if (domain[k] < 0) {
                Step st;
                st.kind = s.kind == Stmt::Kind::RETURN ? Step::Kind::RETURN : Step::Kind::INTERP;
                st.stmt = static_cast<int>(k);
                out.steps.push_back(st);
                for (const auto &t : s.targets) {
                    slot_step[static_cast<size_t>(t.slot)] = static_cast<int>(out.steps.size()) - 1;
                    if (t.slot >= 0 && virt[static_cast<size_t>(t.slot)]) return t.slot;
                }
                for (const auto &a : (s.kind == Stmt::Kind::RETURN ? s.operands : s.expr.args))
                    if (a.kind == Operand::Kind::NAME && a.slot >= 0 && virt[static_cast<size_t>(a.slot)]) return a.slot;
                continue;
            }
            // candidate kernels, latest first
            int chosen = -1;
            const bool compaction = form[k] == Form::COMPRESS && !virt[static_cast<size_t>(s.targets[0].slot)];
            const int mask_slot = compaction ? s.expr.args[0].slot : -1;
            if (mode != FusionMode::NONE) {
                for (int kk = static_cast<int>(out.kernels.size()) - 1; kk >= 0 && chosen < 0; --kk) {
                    const Kernel &K = out.kernels[static_cast<size_t>(kk)];
                    if (K.domain != domain[k]) continue;
                    bool absorb = false;  // a compaction taking over the element-wise kernel that computes its mask
                    if (K.compact_mask != mask_slot) {
                        if (!(compaction && mode == FusionMode::FULL && K.compact_mask < 0 && K.segments < 0 && !no_absorb.count(mask_slot) &&
                              slot_kernel[static_cast<size_t>(mask_slot)] == kk && OnlyFeedsCompaction(kk, mask_slot, kernel_of)))
                            continue;  // compactions fuse only with compactions of one mask
                        absorb = true;
                    }
                    if (K.segments >= 0 || K.group >= 0) continue;  // per-cell and group kernels hold only their chains
                    bool ready = true, flows = false, late = false;
                    for (size_t ai = 0; ai < s.expr.args.size(); ++ai) {
                        const auto &a = s.expr.args[ai];
                        if (a.kind != Operand::Kind::NAME) continue;
                        int sl = a.slot;
                        if (form[k] == Form::GATHER && ai == 0 && slot_kernel[static_cast<size_t>(sl)] == kk) {
                            ready = false;  // gathering from a column the kernel is still writing
                        } else if (slot_kernel[static_cast<size_t>(sl)] == kk) {
                            if (slot_reduced[static_cast<size_t>(sl)]) ready = false;
                            else flows = true;
                        } else if (slot_step[static_cast<size_t>(sl)] >= kernel_step[static_cast<size_t>(kk)]) {
                            late = true;  // produced after the kernel's launch
                        }
                    }
                    if (compaction) flows = true;  // siblings reading one mask
                    if (!ready || !(flows || mode == FusionMode::FULL)) continue;
                    if (absorb) {
                        for (size_t ai = 0; ai < s.expr.args.size(); ++ai) {
                            int sl = s.expr.args[ai].slot;
                            if (slot_kernel[static_cast<size_t>(sl)] != kk && slot_step[static_cast<size_t>(sl)] >= kernel_step[static_cast<size_t>(kk)])
                                late = true;
                        }
                        if (late) continue;
                        out.kernels[static_cast<size_t>(kk)].compact_mask = mask_slot;
                    }
                    if (late && !Movable(kk, k, kernel_of)) {
                        // The launch cannot move down (a step since reads its results): move the
                        // late inputs up instead when each is a column fetch of a table loaded
                        // before the launch (Q19: three compactions of one lineitem mask, whose
                        // columns were fetched after the first one's results were read, fuse).
                        if (!HoistFetches(kk, s, slot_kernel, slot_step, kernel_step)) continue;
                        late = false;
                    }
                    if (late) {
                        // Launch the kernel later instead (here), when no step scheduled since reads its results.
                        int old = kernel_step[static_cast<size_t>(kk)];
                        out.steps.erase(out.steps.begin() + old);
                        for (auto &x : kernel_step) if (x > old) --x;
                        for (auto &x : slot_step) if (x > old) --x;
                        Step st;
                        st.kind = Step::Kind::KERNEL;
                        st.kernel = kk;
                        out.steps.push_back(st);
                        int now = static_cast<int>(out.steps.size()) - 1;
                        kernel_step[static_cast<size_t>(kk)] = now;
                        for (const auto &ks : out.kernels[static_cast<size_t>(kk)].stmts)
                            slot_step[static_cast<size_t>(fn.body[static_cast<size_t>(ks.stmt)].targets[0].slot)] = now;
                    }
                    chosen = kk;
                }
            }
            if (chosen < 0) {
                Kernel K;
                K.name = "k" + std::to_string(out.kernels.size());
                K.domain = domain[k];
                K.compact_mask = mask_slot;
                out.kernels.push_back(K);
                Step st;
                st.kind = Step::Kind::KERNEL;
                st.kernel = static_cast<int>(out.kernels.size()) - 1;
                out.steps.push_back(st);
                kernel_step.push_back(static_cast<int>(out.steps.size()) - 1);
                chosen = st.kernel;
            }
            // a virtual input must come from this kernel
            for (const auto &a : s.expr.args)
                if (a.kind == Operand::Kind::NAME && virt[static_cast<size_t>(a.slot)] && slot_kernel[static_cast<size_t>(a.slot)] != chosen)
                    return a.slot;
            Kernel &K = out.kernels[static_cast<size_t>(chosen)];
            KernelStmt ks;
            ks.stmt = static_cast<int>(k);
            ks.form = form[k];
            ks.op = CalleeName(s.expr);
            K.stmts.push_back(ks);
            kernel_of[k] = chosen;
            int slot = s.targets[0].slot;
            slot_kernel[static_cast<size_t>(slot)] = chosen;
            slot_step[static_cast<size_t>(slot)] = kernel_step[static_cast<size_t>(chosen)];
            slot_reduced[static_cast<size_t>(slot)] = form[k] == Form::REDUCE;
        }
        if (mode == FusionMode::FULL) SinkIntoByRows(kernel_of);
        // kernel inputs and outputs
        int lit = 0;
        for (size_t kk = 0; kk < out.kernels.size(); ++kk) {
            Kernel &K = out.kernels[kk];
            std::set<int> inside;
            std::set<std::pair<int, bool>> seen_in;
            for (const auto &ks : K.stmts) inside.insert(fn.body[static_cast<size_t>(ks.stmt)].targets[0].slot);
            if (K.group >= 0) {
                for (const auto &ks : K.stmts) {
                    if (ks.form != Form::GROUP) continue;
                    const Grp &g = groups[ks.stmt];
                    for (size_t c = 0; c < g.keys.size(); ++c) {
                        KernelInput in;
                        in.slot = g.keys[c];
                        in.name = Name(g.keys[c]);
                        in.type = g.types[c];
                        K.inputs.push_back(in);
                    }
                    const Stmt &s = fn.body[static_cast<size_t>(ks.stmt)];
                    KernelOutput o;
                    o.slot = s.targets[0].slot;
                    o.type = s.expr.types[0];
                    o.name = s.targets[0].name;
                    o.op = "group";
                    K.outputs.push_back(o);
                }
                continue;
            }
            if (K.segments >= 0) {
                KernelInput g;
                g.slot = K.segments;
                g.name = Name(K.segments);
                g.type = Type::List({Type(TypeKind::I64)});
                g.segments = true;
                K.inputs.push_back(g);
                for (const auto &ks : K.stmts) {
                    const Stmt &s = fn.body[static_cast<size_t>(ks.stmt)];
                    if (ks.form == Form::ELEMENTWISE || ks.form == Form::GATHER) {
                        AddOperandInputs(K, ks, inside, seen_in, lit);  // a chain sunk into a by-rows kernel (SinkIntoByRows)
                        continue;
                    }
                    if (ks.form == Form::SEGREDUCE && seg_b[ks.stmt].x >= 0 && inside.count(seg_b[ks.stmt].x)) continue;  // computed per row
                    if (ks.form == Form::SEGREDUCE && seg_b[ks.stmt].x >= 0 && !seen_in.count({seg_b[ks.stmt].x, !K.by_rows})) {
                        int x = seg_b[ks.stmt].x;
                        seen_in.insert({x, !K.by_rows});
                        KernelInput in;
                        in.slot = x;
                        in.name = Name(x);
                        in.random_access = !K.by_rows;  // by rows: x has the rows' geometry
                        in.type = XType(ks.stmt);
                        K.inputs.push_back(in);
                    }
                    if (ks.form == Form::RAZE) {
                        KernelOutput o;
                        o.slot = s.targets[0].slot;
                        o.type = s.expr.types[0];
                        o.name = s.targets[0].name;
                        o.op = seg_b[seg_c[ks.stmt]].op;
                        K.outputs.push_back(o);
                    }
                }
                continue;
            }
            for (const auto &ks : K.stmts) {
                const Stmt &s = fn.body[static_cast<size_t>(ks.stmt)];
                AddOperandInputs(K, ks, inside, seen_in, lit);
                int slot = s.targets[0].slot;
                bool used_outside = returned[static_cast<size_t>(slot)];
                for (int u : users[static_cast<size_t>(slot)])
                    if (kernel_of[static_cast<size_t>(u)] != static_cast<int>(kk)) used_outside = true;
                // a compaction kernel that took over its mask's element-wise kernel writes only
                // compressed values: a later reader of the mask outside it (a compaction of the
                // same mask that could not join, TPC-H Q3) keeps the mask's kernel apart (re-run)
                if (K.compact_mask >= 0 && ks.form == Form::ELEMENTWISE && used_outside) {
                    no_absorb.insert(K.compact_mask);
                    return -2;
                }
                if (ks.form == Form::REDUCE || (K.compact_mask >= 0 && ks.form == Form::COMPRESS) ||
                    (used_outside && !virt[static_cast<size_t>(slot)])) {
                    KernelOutput o;
                    o.slot = slot;
                    o.type = s.expr.types[0];
                    o.name = s.targets[0].name;
                    o.reduction = ks.form == Form::REDUCE;
                    if (o.reduction) o.op = ks.op;
                    K.outputs.push_back(o);
                }
            }
        }
        // dependence graph
        std::vector<int> producer_step(static_cast<size_t>(fn.num_slots), -1);
        for (size_t i = 0; i < out.steps.size(); ++i) {
            Step &st = out.steps[i];
            std::set<int> deps;
            auto reads = [&](const Operand &a) {
                if (a.kind == Operand::Kind::NAME && a.slot >= 0 && producer_step[static_cast<size_t>(a.slot)] >= 0)
                    deps.insert(producer_step[static_cast<size_t>(a.slot)]);
            };
            std::vector<int> writes;
            if (st.kind == Step::Kind::KERNEL) {
                for (const auto &in : out.kernels[static_cast<size_t>(st.kernel)].inputs)
                    if (in.slot >= 0 && producer_step[static_cast<size_t>(in.slot)] >= 0) deps.insert(producer_step[static_cast<size_t>(in.slot)]);
                for (const auto &ks : out.kernels[static_cast<size_t>(st.kernel)].stmts)
                    writes.push_back(fn.body[static_cast<size_t>(ks.stmt)].targets[0].slot);
            } else {
                const Stmt &s = fn.body[static_cast<size_t>(st.stmt)];
                if (s.kind == Stmt::Kind::RETURN) for (const auto &a : s.operands) reads(a);
                else {
                    std::vector<const Expr *> es{&s.expr};
                    while (!es.empty()) {
                        const Expr *e = es.back();
                        es.pop_back();
                        reads(e->operand);
                        for (const auto &a : e->args) reads(a);
                        if (e->inner) es.push_back(e->inner.get());
                    }
                }
                for (const auto &t : s.targets) writes.push_back(t.slot);
            }
            st.deps.assign(deps.begin(), deps.end());
            for (int w : writes) producer_step[static_cast<size_t>(w)] = static_cast<int>(i);
        }
        out.compiled_statements = 0;
        for (const auto &K : out.kernels) out.compiled_statements += static_cast<int>(K.stmts.size());
        out.interpreted_statements = 0;
        for (const auto &st : out.steps) if (st.kind == Step::Kind::INTERP) ++out.interpreted_statements;
        return -1;
    }

    Expected<OutlinedProgram> Run() {
        out.program = &prog;
        out.entry = &fn;
        out.mode = mode;
        out.slot_names.assign(static_cast<size_t>(fn.num_slots), "");
        for (const auto &p : fn.params) if (p.slot >= 0) out.slot_names[static_cast<size_t>(p.slot)] = p.name;
        for (const auto &s : fn.body)
            for (const auto &t : s.targets) if (t.slot >= 0) out.slot_names[static_cast<size_t>(t.slot)] = t.name;
        size_t n = fn.body.size();
        producer.assign(static_cast<size_t>(fn.num_slots), -1);
        for (size_t k = 0; k < n; ++k)
            if (fn.body[k].kind == Stmt::Kind::ASSIGN && fn.body[k].targets.size() == 1)
                producer[static_cast<size_t>(fn.body[k].targets[0].slot)] = static_cast<int>(k);
        if (!StraightLine()) {
            out.slot_geometry.assign(static_cast<size_t>(fn.num_slots), -1);
            domain.assign(n, -1);
            form.assign(n, Form::ELEMENTWISE);
            virt.assign(static_cast<size_t>(fn.num_slots), false);
            returned.assign(static_cast<size_t>(fn.num_slots), false);
            users.assign(static_cast<size_t>(fn.num_slots), {});
            Fuse();
            return std::move(out);
        }
        users.assign(static_cast<size_t>(fn.num_slots), {});
        returned.assign(static_cast<size_t>(fn.num_slots), false);
        for (size_t k = 0; k < n; ++k) {
            const Stmt &s = fn.body[k];
            if (s.kind == Stmt::Kind::RETURN) {
                for (const auto &o : s.operands) if (o.kind == Operand::Kind::NAME && o.slot >= 0) returned[static_cast<size_t>(o.slot)] = true;
                continue;
            }
            std::vector<const Expr *> es{&s.expr};
            while (!es.empty()) {
                const Expr *e = es.back();
                es.pop_back();
                if (e->operand.kind == Operand::Kind::NAME && e->operand.slot >= 0) users[static_cast<size_t>(e->operand.slot)].push_back(static_cast<int>(k));
                for (const auto &a : e->args)
                    if (a.kind == Operand::Kind::NAME && a.slot >= 0) users[static_cast<size_t>(a.slot)].push_back(static_cast<int>(k));
                if (e->inner) es.push_back(e->inner.get());
            }
        }
        Geometries();
        Segments();
        Groups();
        GroupReduces();
        if (costs == CostModel::CPU_DEVICE) GroupCosts();
        AvgByRowsOnly();
        for (int attempt = 0; attempt < 1000; ++attempt) {
            Forms();
            int bad = Fuse();
            if (bad == -2) continue;  // a mask kept out of its compaction kernel (no_absorb)
            if (bad < 0) return std::move(out);
            forced.insert(bad);
        }
        return Status::Internal("outliner: fusion did not converge");
    }
};

}  // namespace

Expected<OutlinedProgram> Outline(const hir::Program &program, FusionMode mode) {
    return Outline(program, mode, CostModel::ANY);
}

Expected<OutlinedProgram> Outline(const hir::Program &program, FusionMode mode, CostModel costs) {
    if (!program.checked || program.entry_module < 0) return Status::Internal("Outline: the program was not checked (call CheckProgram)");
    const hir::Function &fn = program.modules[static_cast<size_t>(program.entry_module)].functions[static_cast<size_t>(program.entry_function)];
    Outliner o(program, fn, mode);
    o.costs = costs;
    RNDN_ASSIGN_OR_RETURN(OutlinedProgram out, o.Run());
    out.ptx_cache = NewPtxCache();
    return out;
}

std::vector<std::string> InterpretedBuiltins(const OutlinedProgram &p) {
    std::vector<std::string> out;
    if (p.entry == nullptr) return out;
    for (const auto &st : p.steps) {
        if (st.kind != Step::Kind::INTERP || st.stmt < 0) continue;
        const hir::Expr *e = &p.entry->body[static_cast<size_t>(st.stmt)].expr;
        if (e->kind == hir::Expr::Kind::CAST && e->inner) e = e->inner.get();
        if (e->kind != hir::Expr::Kind::CALL) continue;
        const std::string name = CalleeName(*e);
        if (!name.empty()) out.push_back("@" + name);
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

namespace {
std::string StmtText(const hir::Stmt &s) {
    std::ostringstream os;
    if (s.kind == hir::Stmt::Kind::RETURN) {
        os << "return";
        for (size_t i = 0; i < s.operands.size(); ++i) os << (i ? ", " : " ") << s.operands[i].name;
        return os.str();
    }
    for (size_t i = 0; i < s.targets.size(); ++i) os << (i ? ", " : "") << s.targets[i].name;
    os << " = ";
    const hir::Expr *e = &s.expr;
    bool cast = false;
    if (e->kind == hir::Expr::Kind::CAST && e->inner) {
        os << "check_cast(";
        e = e->inner.get();
        cast = true;
    }
    if (e->kind == hir::Expr::Kind::CALL) {
        os << "@" << CalleeName(*e) << (CalleeName(*e).empty() ? e->callee.name : "") << "(";
        for (size_t i = 0; i < e->args.size(); ++i) {
            const auto &a = e->args[i];
            os << (i ? ", " : "");
            if (a.kind == hir::Operand::Kind::LITERAL && a.literal.value) {
                os << (a.literal.text.size() == 1 ? a.literal.text[0] : std::string("(...)")) << ":" << hir::TypeToString(a.literal.type);
            } else if (a.kind == hir::Operand::Kind::FUNC) {
                os << "@" << a.name;
            } else {
                os << a.name;
            }
        }
        os << ")";
    } else if (e->kind == hir::Expr::Kind::OPERAND) {
        os << (e->operand.kind == hir::Operand::Kind::LITERAL ? std::string("literal") : e->operand.name);
    }
    if (cast) os << ", " << hir::TypeToString(s.expr.cast_type) << ")";
    return os.str();
}
}  // namespace

std::string Print(const OutlinedProgram &p) {
    std::ostringstream os;
    os << "outlined " << (p.program ? p.program->filename : "") << " mode=" << FusionModeName(p.mode) << " kernels=" << p.kernels.size()
       << " compiled=" << p.compiled_statements << " interpreted=" << p.interpreted_statements << "\n";
    for (size_t g = 0; g < p.geometries.size(); ++g) os << "geometry g" << g << " = " << p.geometries[g].text << "\n";
    const auto &body = p.entry->body;
    for (size_t i = 0; i < p.steps.size(); ++i) {
        const Step &st = p.steps[i];
        os << "step " << i << ": ";
        switch (st.kind) {
            case Step::Kind::INTERP: os << "interp " << StmtText(body[static_cast<size_t>(st.stmt)]); break;
            case Step::Kind::RETURN: os << StmtText(body[static_cast<size_t>(st.stmt)]); break;
            case Step::Kind::KERNEL: {
                const Kernel &K = p.kernels[static_cast<size_t>(st.kernel)];
                if (K.compact_mask >= 0) os << "compact ";
                if (K.group >= 0) os << "library group(" << K.algorithm << ") ";
                os << "launch " << K.name << " over g" << K.domain << " (" << p.geometries[static_cast<size_t>(K.domain)].text
                   << ") grid=min(ceil(n/" << Kernel::kBlock << ")," << Kernel::kMaxGrid << ") block=" << Kernel::kBlock;
                if (K.group >= 0)
                    os << "; alloc table:i64 x pow2(2n) (-1: empty), slots:u32 x n; host: first appearance, interpreter order"
                       << (K.group_lists ? ", member lists" : ", no member lists") << (K.group_values >= 0 ? ", group per row" : "");
                if (K.by_rows) os << "; by rows: alloc records 32 B x groups (x CTAs when few groups), atomics; host: cells";
                for (const auto &o : K.outputs) {
                    if (K.group >= 0) break;
                    os << "; alloc " << o.name << ":" << hir::TypeToString(o.type) << " x ";
                    os << (o.reduction ? std::string("1 (partials: one per warp)") : K.compact_mask >= 0 ? "count(" + p.slot_names[static_cast<size_t>(K.compact_mask)] + ")" : "n");
                }
                break;
            }
        }
        if (!st.deps.empty()) {
            os << "  <-";
            for (int d : st.deps) os << " " << d;
        }
        os << "\n";
    }
    for (const auto &K : p.kernels) {
        os << "kernel " << K.name << " domain=g" << K.domain;
        if (K.group >= 0) os << " library=group algorithm=" << K.algorithm;
        if (K.by_rows) os << " by-rows";
        os << " inputs:";
        for (const auto &in : K.inputs) os << " " << in.name << ":" << hir::TypeToString(in.type) << (in.scalar ? "[1]" : in.random_access ? "[*]" : in.segments ? "[cells]" : "[n]");
        os << " outputs:";
        for (const auto &o : K.outputs) os << " " << o.name << (o.reduction ? "(" + o.op + ")" : "");
        os << "\n";
        for (const auto &ks : K.stmts) {
            const auto &s = body[static_cast<size_t>(ks.stmt)];
            static const char *kFormNames[] = {"map", "compress", "reduce", "gather", "cells", "reduce-cells", "raze", "group", "group-keys", "group-values"};
            const char *f = kFormNames[static_cast<int>(ks.form)];
            os << "  " << f << " " << StmtText(s);
            int g = p.slot_geometry[static_cast<size_t>(s.targets[0].slot)];
            if (g >= 0) os << "  : g" << g;
            os << "\n";
        }
    }
    return os.str();
}

Status Verify(const OutlinedProgram &p) {
    if (!p.entry) return Status::Internal("outlined program without an entry function");
    std::vector<int> seen(p.entry->body.size(), 0);
    std::vector<bool> ready(static_cast<size_t>(p.entry->num_slots), false);
    for (const auto &par : p.entry->params) if (par.slot >= 0) ready[static_cast<size_t>(par.slot)] = true;
    for (const auto &st : p.steps) {
        if (st.kind == Step::Kind::KERNEL) {
            if (st.kernel < 0 || static_cast<size_t>(st.kernel) >= p.kernels.size()) return Status::Internal("step names a missing kernel");
            const Kernel &K = p.kernels[static_cast<size_t>(st.kernel)];
            for (const auto &in : K.inputs)
                if (in.slot >= 0 && !ready[static_cast<size_t>(in.slot)])
                    return Status::Internal("kernel " + K.name + " reads " + in.name + " before it is produced");
            for (const auto &ks : K.stmts) {
                seen[static_cast<size_t>(ks.stmt)]++;
                ready[static_cast<size_t>(p.entry->body[static_cast<size_t>(ks.stmt)].targets[0].slot)] = true;
            }
        } else {
            seen[static_cast<size_t>(st.stmt)]++;
            for (const auto &t : p.entry->body[static_cast<size_t>(st.stmt)].targets) ready[static_cast<size_t>(t.slot)] = true;
        }
    }
    for (size_t k = 0; k < seen.size(); ++k)
        if (p.entry->body[k].kind != hir::Stmt::Kind::VAR && seen[k] != 1)
            return Status::Internal("statement " + std::to_string(k) + " appears " + std::to_string(seen[k]) + " times in the schedule");
    return Status::Ok();
}

}  // namespace rndn::codegen
