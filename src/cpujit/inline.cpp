// Inlining of PTX .func calls into kernels, at the kernel-IR level.
//
// A call site `call (retval0), f, (param0, ...)` uses .param variables declared by the caller.
// The callee's formal parameters and return parameters are renamed to those caller variables,
// its registers, labels and local variables get a unique suffix, and `ret` becomes a branch to
// the end of the inlined body.  Call-site .param variables live in per-thread local memory.
#include <functional>
#include <unordered_map>

#include "cpujit/translate.h"

namespace rndn::cpujit {
namespace {

class Inliner {
public:
    explicit Inliner(const kir::Module &m) : m_(m) {}

    Status Expand(const kir::Function &f, const std::unordered_map<std::string, std::string> &rename,
                  const std::string &suffix, const std::string &end_label, int depth, kir::Function &out) {
        if (depth > 16) return Status::Unsupported("call depth over 16 in '" + f.name + "' (recursion?)");
        auto rn = [&](const std::string &s) {
            auto it = rename.find(s);
            return it == rename.end() ? s : it->second;
        };
        std::function<void(kir::Operand &)> fix = [&](kir::Operand &o) {
            if (o.kind == kir::OperandKind::REG || o.kind == kir::OperandKind::SYMBOL) o.name = rn(o.name);
            for (auto &e : o.elems) fix(e);
        };
        for (const kir::Instr &src : f.body) {
            kir::Instr in = src;
            if (!in.label.empty()) {
                in.label = rn(in.label);
                out.body.push_back(std::move(in));
                continue;
            }
            if (!in.guard.empty()) in.guard = rn(in.guard);
            if (in.op == "call") {
                // operands: [VEC rets,] SYMBOL callee [, VEC args]
                size_t k = 0;
                const kir::Operand *rets = nullptr, *args = nullptr;
                if (k < in.args.size() && in.args[k].kind == kir::OperandKind::VEC) rets = &in.args[k++];
                if (k >= in.args.size() || in.args[k].kind != kir::OperandKind::SYMBOL)
                    return Status::Unsupported("line " + std::to_string(in.line) + ": indirect calls are not supported");
                const std::string callee_name = in.args[k++].name;
                if (k < in.args.size() && in.args[k].kind == kir::OperandKind::VEC) args = &in.args[k++];
                const kir::Function *callee = m_.Find(callee_name);
                if (!callee || callee->body.empty())
                    return Status::Unsupported("line " + std::to_string(in.line) + ": call to undefined function '" +
                                               callee_name + "'");
                std::string sfx = "$i" + std::to_string(++counter_);
                std::unordered_map<std::string, std::string> map;
                for (auto &r : callee->regs) {
                    map[r.name] = r.name + sfx;
                    out.regs.push_back({r.name + sfx, r.type});
                }
                for (auto &v : callee->vars) {
                    kir::Var nv = v;
                    nv.name = v.name + sfx;
                    map[v.name] = nv.name;
                    out.vars.push_back(std::move(nv));
                }
                for (auto &ins : callee->body)
                    if (!ins.label.empty()) map[ins.label] = ins.label + sfx;
                size_t nargs = args ? args->elems.size() : 0, nrets = rets ? rets->elems.size() : 0;
                if (nargs != callee->params.size() || nrets != callee->returns.size())
                    return Status::Unsupported("line " + std::to_string(in.line) + ": call to '" + callee_name +
                                               "' has the wrong number of arguments");
                for (size_t j = 0; j < nargs; ++j) map[callee->params[j].name] = rn(args->elems[j].name);
                for (size_t j = 0; j < nrets; ++j) map[callee->returns[j].name] = rn(rets->elems[j].name);
                std::string end = "$ret" + sfx;
                RNDN_RETURN_IF_ERROR(Expand(*callee, map, sfx, end, depth + 1, out));
                kir::Instr lab;
                lab.label = end;
                lab.line = in.line;
                out.body.push_back(std::move(lab));
                continue;
            }
            if (in.op == "ret" && !end_label.empty()) {
                kir::Instr br;
                br.guard = in.guard;
                br.guard_neg = in.guard_neg;
                br.op = "bra";
                br.line = in.line;
                kir::Operand t;
                t.kind = kir::OperandKind::SYMBOL;
                t.name = end_label;
                br.args.push_back(t);
                out.body.push_back(std::move(br));
                continue;
            }
            for (auto &a : in.args) fix(a);
            out.body.push_back(std::move(in));
        }
        (void)suffix;
        return Status::Ok();
    }

private:
    const kir::Module &m_;
    int counter_ = 0;
};

}  // namespace

Expected<kir::Function> InlineCalls(const kir::Module &m, const kir::Function &entry) {
    bool has_call = false;
    for (auto &in : entry.body) has_call |= in.op == "call";
    if (!has_call) return entry;
    kir::Function out = entry;
    out.body.clear();
    Inliner inl(m);
    RNDN_RETURN_IF_ERROR(inl.Expand(entry, {}, "", "", 0, out));
    return out;
}

}  // namespace rndn::cpujit
