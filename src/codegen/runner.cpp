// Hybrid execution: kernels on the cpu device, everything else on the interpreter (see codegen.h).
#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <thread>
#include <tuple>

#include "codegen/internal.h"
#include "common/chunks.h"
#include "cpujit/cpujit.h"
#include "horseir/payload_pool.h"

namespace rndn::codegen {

Expected<std::string> KernelPtxText(const OutlinedProgram &p, int kernel, const PtxOptions &options, std::vector<bool> *output_nullable);

// Per kernel, PTX form (warp_reduce, group_atomics, group_thread_records, group_slots) and input nullability: the module text and its outputs'
// nullability.  Shared by an outlined program and its Rebind copies.
struct PtxCache {
    struct Entry {
        std::string text;
        std::vector<bool> output_nullable;
    };
    std::mutex mu;
    std::map<std::tuple<int, bool, bool, bool, int, std::vector<bool>>, Entry> entries;
};

std::shared_ptr<PtxCache> NewPtxCache() { return std::make_shared<PtxCache>(); }

namespace {

using Clock = std::chrono::steady_clock;
double Ms(Clock::time_point a) { return std::chrono::duration<double, std::milli>(Clock::now() - a).count(); }

bool StraightLine(const hir::Function &fn) {
    for (const auto &s : fn.body)
        if (s.kind != hir::Stmt::Kind::ASSIGN && s.kind != hir::Stmt::Kind::EXPR && s.kind != hir::Stmt::Kind::RETURN &&
            s.kind != hir::Stmt::Kind::VAR)
            return false;
    return true;
}

bool SameType(const hir::Type &a, const hir::Type &b) {
    if (a.kind != b.kind) return false;
    if (hir::IsDecimal(a.kind)) return a.scale == b.scale;
    return true;
}

// Memory registered with the device for one launch; unregistered on scope exit.
// The cpu device behind the runner's device interface.
class CpujitKernels final : public KernelDevice {
public:
    explicit CpujitKernels(cpujit::Device &d) : d_(d) {}
    Expected<std::shared_ptr<const void>> LoadModule(const std::string &ptx, const std::function<bool()> *cancel) override {
        RNDN_ASSIGN_OR_RETURN(std::shared_ptr<const cpujit::Module> m, d_.LoadModule(ptx, cancel));
        return std::shared_ptr<const void>(std::move(m));
    }
    Expected<std::shared_ptr<const void>> LoadModuleIfReady(const std::string &ptx) override {
        RNDN_ASSIGN_OR_RETURN(std::shared_ptr<const cpujit::Module> m, d_.LoadModuleIfReady(ptx));
        return std::shared_ptr<const void>(std::move(m));
    }
    const void *FindKernel(const void *module, const std::string &name) override {
        return static_cast<const cpujit::Module *>(module)->Find(name);
    }
    Status Launch(const void *kernel, uint32_t grid, uint32_t block, const std::vector<std::vector<uint8_t>> &args,
                  const std::function<bool()> *cancel) override {
        cpujit::LaunchConfig cfg;
        cfg.cancel = cancel;
        cfg.threads = threads_;
        cfg.grid.x = grid;
        cfg.block.x = block;
        std::vector<cpujit::Arg> a(args.size());
        for (size_t i = 0; i < args.size(); ++i) a[i].bytes = args[i];
        return d_.Launch(*static_cast<const cpujit::Kernel *>(kernel), cfg, a);
    }
    void RegisterMemory(const void *p, size_t bytes) override { d_.RegisterMemory(p, bytes); }
    void UnregisterMemory(const void *p) override { d_.UnregisterMemory(p); }
    unsigned threads_ = 0;

private:
    cpujit::Device &d_;
};

// The launch arguments as bytes.
std::vector<std::vector<uint8_t>> ArgBytes(const std::vector<cpujit::Arg> &args) {
    std::vector<std::vector<uint8_t>> out(args.size());
    for (size_t i = 0; i < args.size(); ++i) out[i] = args[i].bytes;
    return out;
}

class Registrations {
public:
    explicit Registrations(KernelDevice &d) : d_(d) {}
    ~Registrations() {
        for (const void *p : regs_) d_.UnregisterMemory(p);
    }
    void Add(const void *p, size_t bytes) {
        if (!p || bytes == 0 || regs_.count(p)) return;
        d_.RegisterMemory(p, bytes);
        regs_.insert(p);
    }

private:
    KernelDevice &d_;
    std::set<const void *> regs_;
};

// A fixed-width input vector's data (the dummy when it is empty) and, when nullable, its validity
// words: registered with the device and appended to a kernel's arguments.
void PassFixedInput(Registrations &regs, std::vector<cpujit::Arg> &args, const hir::Vector &x, bool nullable, const void *dummy) {
    size_t bytes = static_cast<size_t>(x.length) * static_cast<size_t>(kernel::ElementBytes(x.type));
    const void *ptr = bytes ? static_cast<const void *>(x.data.get()) : dummy;
    regs.Add(ptr, bytes);
    args.push_back(cpujit::Arg::Ptr(ptr));
    if (nullable) {
        regs.Add(x.validity.data(), x.validity.size() * 8);
        args.push_back(cpujit::Arg::Ptr(x.validity.data()));
    }
}

class Exec {
public:
    Exec(KernelDevice &d, const OutlinedProgram &p, hir::DataRegistry &data, const hir::InterpretOptions &o, RunStats &st, bool warp_reduce,
         bool group_atomics, int64_t defer_work)
        : dev_(d), p_(p), data_(data), opts_(o), stats_(st), frame_(static_cast<size_t>(p.entry->num_slots)), warp_reduce_(warp_reduce),
          group_atomics_(group_atomics), defer_work_(defer_work),
          has_by_rows_(std::any_of(p.kernels.begin(), p.kernels.end(), [](const codegen::Kernel &k) { return k.by_rows; })) {}

    Expected<hir::Value> Run() {
        const auto &body = p_.entry->body;
        // RNDN_CODEGEN_TRACE=1: each step's wall time on stderr (a profile of the schedule)
        static const bool trace = std::getenv("RNDN_CODEGEN_TRACE") != nullptr;
        for (const auto &step : p_.steps) {
            if (opts_.should_cancel && opts_.should_cancel()) return Status::Cancelled();
            auto t0 = Clock::now();
            const double k0 = stats_.kernel_ms;
            struct Trace {
                const Step &st;
                const OutlinedProgram &p;
                Clock::time_point t0;
                const double &kms;
                double k0;
                ~Trace() {
                    if (!trace) return;
                    const auto &b = p.entry->body;
                    std::string what = st.kind == Step::Kind::KERNEL ? "kernel " + p.kernels[static_cast<size_t>(st.kernel)].name
                                                                      : "interp " + (b[static_cast<size_t>(st.stmt)].targets.empty() ? std::string("return") : b[static_cast<size_t>(st.stmt)].targets[0].name);
                    if (st.kind != Step::Kind::KERNEL && b[static_cast<size_t>(st.stmt)].expr.kind == hir::Expr::Kind::CALL)
                        what += " = @" + b[static_cast<size_t>(st.stmt)].expr.callee.name;
                    std::fprintf(stderr, "rndn-trace %9.3f ms  %s (launches %.3f ms)\n", Ms(t0), what.c_str(), kms - k0);
                }
            } tr{step, p_, t0, stats_.kernel_ms, k0};
            switch (step.kind) {
                case Step::Kind::INTERP: RNDN_RETURN_IF_ERROR(Interp(body[static_cast<size_t>(step.stmt)])); break;
                case Step::Kind::RETURN: {
                    const auto &s = body[static_cast<size_t>(step.stmt)];
                    if (s.operands.empty()) return hir::Value();
                    const auto &o = s.operands[0];
                    if (o.kind == hir::Operand::Kind::LITERAL) return hir::Value(o.literal.value);
                    if (o.kind == hir::Operand::Kind::NAME && o.slot >= 0) return frame_[static_cast<size_t>(o.slot)];
                    return Status::Internal("return of an unsupported operand");
                }
                case Step::Kind::KERNEL: RNDN_RETURN_IF_ERROR(Kernel(step.kernel)); break;
            }
        }
        return hir::Value();
    }

    // An entry parameter's value, before Run.
    void SetSlot(int slot, hir::Value v) { frame_[static_cast<size_t>(slot)] = std::move(v); }

private:
    std::unordered_map<int, size_t> defs_;  // slot -> index of its defining statement (EnsureOperands)

    Status Interp(const hir::Stmt &s) {
        stats_.phase = "interpreter";
        RNDN_ASSIGN_OR_RETURN(auto vals, hir::EvaluateExpr(*p_.program, s.expr, frame_, data_, opts_));
        ++stats_.statements_interpreted;
        if (s.kind == hir::Stmt::Kind::ASSIGN) {
            if (vals.size() != s.targets.size()) return Status::Internal("assignment arity mismatch");
            for (size_t i = 0; i < vals.size(); ++i) frame_[static_cast<size_t>(s.targets[i].slot)] = std::move(vals[i]);
        }
        return Status::Ok();
    }

    // Counted as a re-run unless LoadKernel deferred the kernel (its module compiles meanwhile).
    void CountRedo() {
        if (deferred_)
            deferred_ = false;
        else
            ++stats_.kernels_redone;
    }

    // A kernel input's value: a literal's, else its slot's.
    hir::Value InputValue(const KernelInput &ki) const {
        return ki.literal ? hir::Value(ki.literal->literal.value) : frame_[static_cast<size_t>(ki.slot)];
    }

    Status Redo(const codegen::Kernel &k) {
        CountRedo();
        for (const auto &ks : k.stmts) {
            const hir::Stmt &s = p_.entry->body[static_cast<size_t>(ks.stmt)];
            RNDN_RETURN_IF_ERROR(EnsureOperands(s.expr, 0));
            RNDN_RETURN_IF_ERROR(Interp(s));
        }
        return Status::Ok();
    }

    // A kernel's statements re-run on the interpreter may read a value no step has computed yet:
    // a by-rows reduction reads the groups directly, so the interpreted statement that gathers
    // its input per group (@each_right(@index, x, G), kept for another reader such as
    // @each(@avg)) is scheduled after the kernel.  Such operands are computed first, from their
    // defining statements (in dependence order); the later step computes them again.
    Status EnsureOperands(const hir::Expr &e, int depth) {
        if (depth > 64) return Status::Internal("re-run on the interpreter: operand chain too deep");
        if (e.kind == hir::Expr::Kind::CAST) return e.inner ? EnsureOperands(*e.inner, depth) : Status::Ok();
        auto one = [&](const hir::Operand &o) -> Status {
            if (o.kind != hir::Operand::Kind::NAME || o.slot < 0) return Status::Ok();
            if (frame_[static_cast<size_t>(o.slot)].kind() != hir::ValueKind::NONE) return Status::Ok();
            if (defs_.empty()) {
                const auto &b = p_.entry->body;
                for (size_t i = 0; i < b.size(); ++i)
                    if (b[i].kind == hir::Stmt::Kind::ASSIGN)
                        for (const auto &t : b[i].targets)
                            if (t.slot >= 0) defs_.emplace(t.slot, i);
            }
            auto it = defs_.find(o.slot);
            if (it == defs_.end()) return Status::Ok();
            const hir::Stmt &d = p_.entry->body[it->second];
            RNDN_RETURN_IF_ERROR(EnsureOperands(d.expr, depth + 1));
            return Interp(d);
        };
        if (e.kind == hir::Expr::Kind::OPERAND) return one(e.operand);
        for (const auto &a : e.args) RNDN_RETURN_IF_ERROR(one(a));
        return Status::Ok();
    }

    // PTX options for kernel `index` alone: the reduction form, and none of its inputs nullable yet.
    PtxOptions OptionsFor(int index, bool warp_reduce) const {
        PtxOptions po;
        po.warp_reduce = warp_reduce;
        po.nullable.assign(p_.kernels.size(), {});
        po.nullable[static_cast<size_t>(index)].assign(p_.kernels[static_cast<size_t>(index)].inputs.size(), false);
        return po;
    }

    // The kernel's PTX (with the module header) loaded on the device: the kernel handle, its
    // module kept alive by `*mod`.  out_nullable: see KernelPtxText.
    // nullptr (no error): the module is not compiled yet and the kernel's work over `rows` rows
    // is small enough for the interpreter (Runner::set_defer_compiles): it was queued for the
    // device's background compiler, and the caller re-runs the kernel's statements on the
    // interpreter (counted as deferred, not as re-run).
    Expected<const void *> LoadKernel(const codegen::Kernel &k, int index, const PtxOptions &po, std::vector<bool> *out_nullable,
                                      std::shared_ptr<const void> *mod, int64_t rows) {
        auto t0 = Clock::now();
        stats_.phase = "jit";
        std::vector<bool> nullable;
        if (static_cast<size_t>(index) < po.nullable.size()) nullable = po.nullable[static_cast<size_t>(index)];
        auto key = std::make_tuple(index, po.warp_reduce, po.group_atomics, po.group_thread_records, po.group_slots, nullable);
        std::string text;
        bool hit = false;
        if (p_.ptx_cache) {
            std::lock_guard<std::mutex> g(p_.ptx_cache->mu);
            auto it = p_.ptx_cache->entries.find(key);
            if (it != p_.ptx_cache->entries.end()) {
                text = it->second.text;
                if (out_nullable) *out_nullable = it->second.output_nullable;
                hit = true;
            }
        }
        if (!hit) {
            std::vector<bool> on;
            RNDN_ASSIGN_OR_RETURN(text, KernelPtxText(p_, index, po, &on));
            text = ".version 8.7\n.target sm_80\n.address_size 64\n\n" + text;
            if (out_nullable) *out_nullable = on;
            if (p_.ptx_cache) {
                std::lock_guard<std::mutex> g(p_.ptx_cache->mu);
                p_.ptx_cache->entries[key] = PtxCache::Entry{text, std::move(on)};
            }
            ++stats_.ptx_generated;
        }
        stats_.ptx_ms += Ms(t0);
        // RNDN_CODEGEN_DUMP=DIR: each kernel's module text as the device gets it (DIR/<kernel>.ptx)
        static const char *dump = std::getenv("RNDN_CODEGEN_DUMP");
        if (dump) {
            if (FILE *f = std::fopen((std::string(dump) + "/" + k.name + ".ptx").c_str(), "w")) {
                std::fputs(text.c_str(), f);
                std::fclose(f);
            }
        }
        t0 = Clock::now();
        // the interpreter's cost per row and statement: element-wise about 1 unit, a segmented
        // reduction (gathers per cell) several, a by-rows reduction (the interpreter builds a list
        // per group first) and @group (hashing the keys, building the groups' lists) tens, and
        // a @group whose groups by-rows reductions read more (deferring it sends them to the
        // interpreter too).  TPC-H at SF 1: Q18's groups interpreted took 2.5x the compiled
        // run, Q20's by-rows sum 0.9 s against a few ms compiled.
        const double weight = k.group >= 0 ? (has_by_rows_ ? 256.0 : 32.0) : k.by_rows ? 64.0 : k.segments >= 0 ? 4.0 : 1.0;
        const double work = weight * static_cast<double>(std::max<int64_t>(rows, 0)) * static_cast<double>(std::max<size_t>(k.stmts.size(), 1));
        if (defer_work_ > 0 && work <= static_cast<double>(defer_work_)) {
            RNDN_ASSIGN_OR_RETURN(*mod, dev_.LoadModuleIfReady(text));
            if (!*mod) {
                stats_.jit_ms += Ms(t0);
                ++stats_.kernels_deferred;
                deferred_ = any_deferred_ = true;
                return nullptr;
            }
        } else {
            RNDN_ASSIGN_OR_RETURN(*mod, dev_.LoadModule(text, &opts_.should_cancel));
        }
        stats_.jit_ms += Ms(t0);
        const void *ck = dev_.FindKernel(mod->get(), k.name);
        if (!ck) return Status::Internal("kernel " + k.name + " missing from its module");
        return ck;
    }

    // The arguments of the input columns in[first..]: data (string offsets, then bytes), then
    // the validity bitmap where nullable, then (with `lengths`) the length of each input the
    // kernel reads at random; false when a string column's offsets do not fit it.
    bool AddInputArgs(const std::vector<std::shared_ptr<const hir::Vector>> &in, size_t first, const std::vector<bool> &nullable,
                      Registrations &regs, std::vector<cpujit::Arg> &args, const codegen::Kernel *lengths = nullptr) {
        for (size_t i = first; i < in.size(); ++i) {
            const hir::Vector &x = *in[i];
            if (kernel::IsStringType(x.type)) {
                // offsets (length + 1), then the bytes
                if (x.offsets.size() != static_cast<size_t>(x.length) + 1) return false;
                regs.Add(x.offsets.data(), x.offsets.size() * 8);
                args.push_back(cpujit::Arg::Ptr(x.offsets.data()));
                const void *bp = x.bytes.empty() ? static_cast<const void *>(dummy_) : x.bytes.data();
                regs.Add(bp, x.bytes.size());
                args.push_back(cpujit::Arg::Ptr(bp));
            } else {
                size_t bytes = static_cast<size_t>(x.length) * static_cast<size_t>(kernel::ElementBytes(x.type));
                const void *ptr = bytes ? static_cast<const void *>(x.data.get()) : dummy_;
                regs.Add(ptr, bytes);
                args.push_back(cpujit::Arg::Ptr(ptr));
            }
            if (nullable[i]) {
                regs.Add(x.validity.data(), x.validity.size() * 8);
                args.push_back(cpujit::Arg::Ptr(x.validity.data()));
            }
            if (lengths && lengths->inputs[i].random_access) args.push_back(cpujit::Arg::U64(static_cast<uint64_t>(x.length)));
        }
        return true;
    }

    Status Kernel(int index) {
        const codegen::Kernel &k = p_.kernels[static_cast<size_t>(index)];
        if (k.by_rows && warp_reduce_ && group_atomics_) return GroupReduce(index, false);  // the atomic (GPU) form
        // the cpu device: few groups in per-thread records, else the cells form
        if (k.by_rows && !warp_reduce_ && ThreadRecordsFit(k)) return GroupReduce(index, true);
        if (k.segments >= 0) return Segmented(index);
        if (k.group >= 0) return Group(index);
        // inputs as the outliner expected them?
        std::vector<std::shared_ptr<const hir::Vector>> in(k.inputs.size());
        int64_t n = -1;
        PtxOptions po = OptionsFor(index, warp_reduce_);
        auto &nullable = po.nullable[static_cast<size_t>(index)];
        for (size_t i = 0; i < k.inputs.size(); ++i) {
            const KernelInput &ki = k.inputs[i];
            hir::Value v = ki.literal ? hir::Value(ki.literal->literal.value) : frame_[static_cast<size_t>(ki.slot)];
            if (!v.is_vector()) return Redo(k);
            in[i] = v.vector_ptr();
            const hir::Vector &x = *in[i];
            if (!SameType(x.type, ki.type) || !x.elem_scale.empty() || x.type.scale < 0) return Redo(k);
            if (ki.scalar) {
                if (x.length != 1) return Redo(k);
            } else if (ki.random_access) {
                // any length: the kernel checks every index against it
            } else {
                if (n >= 0 && x.length != n) return Redo(k);
                n = x.length;
            }
            nullable[i] = x.HasNulls();
        }
        if (n < 0) return Redo(k);
        if (k.compact_mask >= 0 && InterpCompaction(k, n)) {
            for (const auto &ks : k.stmts) RNDN_RETURN_IF_ERROR(Interp(p_.entry->body[static_cast<size_t>(ks.stmt)]));
            return Status::Ok();
        }
        // float arithmetic: the kernel flags what sql_float_errors rejects (templates.def), so no
        // re-run is needed up front
        std::vector<bool> out_nullable;
        std::shared_ptr<const void> mod;
        RNDN_ASSIGN_OR_RETURN(const void *ck, LoadKernel(k, index, po, &out_nullable, &mod, n));
        if (!ck) return Redo(k);  // compiling in the background
        auto t0 = Clock::now();

        Registrations regs(dev_);
        std::vector<cpujit::Arg> args;
        args.push_back(cpujit::Arg::U64(static_cast<uint64_t>(n)));
        uint64_t *dummy = dummy_;
        regs.Add(dummy, sizeof dummy_);
        if (!AddInputArgs(in, 0, nullable, regs, args, &k)) return Redo(k);
        if (k.compact_mask >= 0) return Compact(k, ck, regs, args, n, nullable, out_nullable);
        uint32_t grid = static_cast<uint32_t>(std::min<int64_t>(std::max<int64_t>(1, (n + codegen::Kernel::kBlock - 1) / codegen::Kernel::kBlock),
                                                                codegen::Kernel::kMaxGrid));
        // records: one per thread (cpu form) or one in all, updated by atomics (GPU form)
        size_t warps = warp_reduce_ ? 1 : static_cast<size_t>(grid) * codegen::Kernel::kBlock;
        std::vector<std::shared_ptr<hir::Vector>> outs(k.outputs.size());
        std::vector<std::vector<uint8_t>> out_valid(k.outputs.size());
        std::vector<std::vector<uint64_t>> partials(k.outputs.size());
        // the PTX's parameter order (ptxgen): the vector outputs (each with its validity bytes),
        // then the reductions' records
        std::vector<cpujit::Arg> red_args;
        for (size_t o = 0; o < k.outputs.size(); ++o) {
            const KernelOutput &ko = k.outputs[o];
            if (ko.reduction) {
                partials[o].assign(warps * 4, 0);
                if (warp_reduce_ && (ko.op == "min" || ko.op == "max"))
                    partials[o][0] = static_cast<uint64_t>(ko.op == "min" ? INT64_MAX : INT64_MIN);
                regs.Add(partials[o].data(), partials[o].size() * 8);
                red_args.push_back(cpujit::Arg::Ptr(partials[o].data()));
                continue;
            }
            RNDN_ASSIGN_OR_RETURN(outs[o], hir::MakeVector(ko.type, n));
            size_t bytes = static_cast<size_t>(n) * static_cast<size_t>(kernel::ElementBytes(ko.type));
            const void *ptr = bytes ? static_cast<const void *>(outs[o]->data.get()) : dummy;
            regs.Add(ptr, bytes);
            args.push_back(cpujit::Arg::Ptr(ptr));
            if (o < out_nullable.size() && out_nullable[o]) {
                out_valid[o].assign(static_cast<size_t>(std::max<int64_t>(n, 1)), 0);
                regs.Add(out_valid[o].data(), out_valid[o].size());
                args.push_back(cpujit::Arg::Ptr(out_valid[o].data()));
            }
        }
        args.insert(args.end(), red_args.begin(), red_args.end());
        uint32_t err = 0;
        regs.Add(&err, sizeof err);
        args.push_back(cpujit::Arg::Ptr(&err));
        cpujit::LaunchConfig cfg;
        cfg.cancel = &opts_.should_cancel;
        stats_.phase = "kernel";
        cfg.grid.x = grid;
        cfg.block.x = codegen::Kernel::kBlock;
        t0 = Clock::now();
        RNDN_RETURN_IF_ERROR(dev_.Launch(ck, cfg.grid.x, cfg.block.x, ArgBytes(args), cfg.cancel));
        stats_.kernel_ms += Ms(t0);
        ++stats_.kernels_launched;
        if (err != 0) return Redo(k);
        // finish reductions
        std::vector<hir::Value> results(k.outputs.size());
        for (size_t o = 0; o < k.outputs.size(); ++o) {
            const KernelOutput &ko = k.outputs[o];
            if (!ko.reduction) {
                if (!out_valid[o].empty()) {
                    outs[o]->EnsureValidity();
                    for (int64_t r = 0; r < n; ++r)
                        if (!out_valid[o][static_cast<size_t>(r)]) outs[o]->SetNull(r);
                }
                results[o] = hir::Value(outs[o]);
                continue;
            }
            __int128 sum = 0;
            int64_t mn = INT64_MAX, mx = INT64_MIN;
            uint64_t cnt = 0;
            bool ovf = false;
            for (size_t w = 0; w < warps; ++w) {
                const uint64_t *rec = &partials[o][w * 4];
                __int128 v = static_cast<__int128>((static_cast<unsigned __int128>(rec[1]) << 64) | rec[0]);
                ovf |= __builtin_add_overflow(sum, v, &sum);
                mn = std::min(mn, static_cast<int64_t>(rec[0]));
                mx = std::max(mx, static_cast<int64_t>(rec[0]));
                cnt += rec[2];
                // the atomic form's fourth word: bits 128-191 of the sum, the sign of hi unless it overflowed
                if (warp_reduce_ && ko.op == "sum" && rec[3] != (static_cast<int64_t>(rec[1]) < 0 ? ~uint64_t{0} : 0)) ovf = true;
            }
            if (ovf) return Redo(k);
            RNDN_ASSIGN_OR_RETURN(auto r, hir::MakeVector(ko.type, 1));
            if (ko.op == "count" || ko.op == "len") {
                r->Data<int64_t>()[0] = static_cast<int64_t>(cnt);
            } else {
                bool any_nullable = false;
                for (bool b : nullable) any_nullable |= b;
                if (cnt == 0 && (ko.op != "sum" || any_nullable || opts_.sql_empty_aggregates)) return Redo(k);
                int64_t val = ko.op == "min" ? mn : mx;
                switch (ko.type.kind) {
                    case hir::TypeKind::DEC128: r->Data<__int128>()[0] = sum; break;
                    case hir::TypeKind::I64:
                        if (ko.op == "sum") {
                            if (sum > INT64_MAX || sum < INT64_MIN) return Redo(k);
                            val = static_cast<int64_t>(sum);
                        }
                        r->Data<int64_t>()[0] = val;
                        break;
                    case hir::TypeKind::DEC64: r->Data<int64_t>()[0] = val; break;
                    case hir::TypeKind::I16: r->Data<int16_t>()[0] = static_cast<int16_t>(val); break;
                    case hir::TypeKind::I32:
                    case hir::TypeKind::DATE:
                        if (ko.op == "sum") {
                            if (sum > INT32_MAX || sum < INT32_MIN) return Redo(k);
                            val = static_cast<int64_t>(sum);
                        }
                        r->Data<int32_t>()[0] = static_cast<int32_t>(val);
                        break;
                    default: return Redo(k);
                }
            }
            results[o] = hir::Value(r);
        }
        for (size_t o = 0; o < k.outputs.size(); ++o) frame_[static_cast<size_t>(k.outputs[o].slot)] = results[o];
        stats_.statements_compiled += static_cast<int>(k.stmts.size());
        return Status::Ok();
    }

    // A per-cell reduction kernel: G's cells flattened to offsets + indices.
    Status Segmented(int index) {
        const codegen::Kernel &k = p_.kernels[static_cast<size_t>(index)];
        auto redo = [&]() { return k.by_rows ? RedoByRows(k) : Redo(k); };
        hir::PoolVector<int64_t> offsets, indices;  // (pooled: no fresh pages per run)
        int64_t n = 0;
        if (k.by_rows) {
            // the cpu form of a by-rows kernel: the cells straight from the group kernel's rows
            // (a counting sort, rows ascending per group; no lists built), one thread per cell
            auto git = group_rows_.find(k.inputs[0].slot);
            if (git == group_rows_.end()) {
                PtxOptions po = OptionsFor(index, warp_reduce_);
                po.group_atomics = false;
                return RedoWithoutGroups(k, index, po);
            }
            const GroupRows &g = *git->second;
            n = g.m;  // (no groups: launched over no cells)
            offsets.assign(static_cast<size_t>(n) + 1, 0);
            for (int64_t c = 0; c < n; ++c) offsets[static_cast<size_t>(c) + 1] = offsets[static_cast<size_t>(c)] + g.count[static_cast<size_t>(c)];
            indices.resize(g.row_group.size());
            hir::PoolVector<int64_t> at(offsets.begin(), offsets.end() - 1);
            for (size_t r = 0; r < g.row_group.size(); ++r) indices[static_cast<size_t>(at[g.row_group[r]]++)] = static_cast<int64_t>(r);
        } else {
            const hir::Value &gv = frame_[static_cast<size_t>(k.inputs[0].slot)];
            if (gv.kind() != hir::ValueKind::LIST) return Redo(k);
            const auto &cells = gv.list().cells;
            n = static_cast<int64_t>(cells.size());
            if (n == 0) return Redo(k);
            offsets.assign(static_cast<size_t>(n) + 1, 0);
            for (int64_t c = 0; c < n; ++c) {
                const hir::Value &cv = cells[static_cast<size_t>(c)];
                if (!cv.is_vector() || cv.vector().type.kind != hir::TypeKind::I64 || cv.vector().HasNulls()) return Redo(k);
                const hir::Vector &v = cv.vector();
                indices.insert(indices.end(), v.Data<int64_t>(), v.Data<int64_t>() + v.length);
                offsets[static_cast<size_t>(c) + 1] = static_cast<int64_t>(indices.size());
            }
        }
        // per-cell avg outputs: the kernel sums (as for sum), the host divides by the cell's size
        std::vector<const KernelStmt *> avg = CellReductions(*p_.entry, k);
        for (auto &a : avg)
            if (a && a->op != "avg") a = nullptr;
        const bool any_avg = std::any_of(avg.begin(), avg.end(), [](const KernelStmt *a) { return a != nullptr; });
        const hir::PoolVector<int64_t> cell_offsets = any_avg ? offsets : hir::PoolVector<int64_t>();
        // Few large cells (Q1: 4 groups): split each into pieces of kPiece rows so that many
        // threads share the work; the host then combines the pieces' results per cell.
        constexpr int64_t kPiece = 2048;
        hir::PoolVector<int64_t> owner;  // piece -> cell (empty: no split)
        const int64_t cells_n = n;
        if (n < 4096 && static_cast<int64_t>(indices.size()) > n * kPiece) {
            hir::PoolVector<int64_t> pieces{0};
            for (int64_t c = 0; c < n; ++c)
                for (int64_t b = offsets[static_cast<size_t>(c)]; b < offsets[static_cast<size_t>(c) + 1]; b += kPiece) {
                    pieces.push_back(std::min(b + kPiece, offsets[static_cast<size_t>(c) + 1]));
                    owner.push_back(c);
                }
            offsets = std::move(pieces);
            n = static_cast<int64_t>(owner.size());
        }
        PtxOptions po = OptionsFor(index, warp_reduce_);
        po.group_atomics = false;  // a by-rows kernel here is the cells form
        auto &nullable = po.nullable[static_cast<size_t>(index)];
        std::vector<std::shared_ptr<const hir::Vector>> in(k.inputs.size());
        for (size_t i = 1; i < k.inputs.size(); ++i) {
            const hir::Value v = InputValue(k.inputs[i]);
            if (!v.is_vector()) return redo();
            in[i] = v.vector_ptr();
            if (!SameType(in[i]->type, k.inputs[i].type) || !in[i]->elem_scale.empty()) return redo();
            if (k.inputs[i].scalar && in[i]->length != 1) return redo();
            nullable[i] = in[i]->HasNulls();
        }
        std::shared_ptr<const void> mod;
        RNDN_ASSIGN_OR_RETURN(const void *ck, LoadKernel(k, index, po, nullptr, &mod, static_cast<int64_t>(indices.size())));
        if (!ck) return redo();  // compiling in the background
        auto t0 = Clock::now();
        Registrations regs(dev_);
        uint64_t *dummy = dummy_;
        regs.Add(dummy, sizeof dummy_);
        std::vector<cpujit::Arg> args;
        args.push_back(cpujit::Arg::U64(static_cast<uint64_t>(n)));
        regs.Add(offsets.data(), offsets.size() * 8);
        args.push_back(cpujit::Arg::Ptr(offsets.data()));
        const void *ip = indices.empty() ? static_cast<const void *>(dummy) : indices.data();
        regs.Add(ip, indices.size() * 8);
        args.push_back(cpujit::Arg::Ptr(ip));
        for (size_t i = 1; i < in.size(); ++i) {
            PassFixedInput(regs, args, *in[i], nullable[i], dummy);
            args.push_back(cpujit::Arg::U64(static_cast<uint64_t>(in[i]->length)));
        }
        std::vector<std::shared_ptr<hir::Vector>> outs(k.outputs.size());
        for (size_t o = 0; o < k.outputs.size(); ++o) {
            RNDN_ASSIGN_OR_RETURN(outs[o], hir::MakeVector(k.outputs[o].type, n));
            regs.Add(outs[o]->data.get(), static_cast<size_t>(n) * static_cast<size_t>(kernel::ElementBytes(k.outputs[o].type)));
            args.push_back(cpujit::Arg::Ptr(outs[o]->data.get()));
        }
        uint32_t err = 0;
        regs.Add(&err, sizeof err);
        args.push_back(cpujit::Arg::Ptr(&err));
        cpujit::LaunchConfig cfg;
        cfg.cancel = &opts_.should_cancel;
        stats_.phase = "kernel";
        cfg.grid.x = static_cast<uint32_t>(std::min<int64_t>(std::max<int64_t>(1, (n + codegen::Kernel::kBlock - 1) / codegen::Kernel::kBlock), codegen::Kernel::kMaxGrid));
        cfg.block.x = codegen::Kernel::kBlock;
        t0 = Clock::now();
        RNDN_RETURN_IF_ERROR(dev_.Launch(ck, cfg.grid.x, cfg.block.x, ArgBytes(args), cfg.cancel));
        stats_.kernel_ms += Ms(t0);
        ++stats_.kernels_launched;
        if (err != 0) return redo();
        if (!owner.empty()) {
            for (size_t o = 0; o < k.outputs.size(); ++o) {
                auto combined = CombinePieces(*outs[o], owner, cells_n, k.outputs[o].op);
                if (!combined) return redo();  // a combined sum left its type's range
                outs[o] = combined;
            }
        }
        for (size_t o = 0; o < k.outputs.size(); ++o) {
            if (!avg[o]) continue;
            // each cell's values: its size, less its NULLs when the source has some
            const hir::Vector *src = nullptr;
            for (size_t i = 1; i < k.inputs.size(); ++i)
                if (k.inputs[i].slot == avg[o]->source) src = in[i].get();
            if (!src) return redo();
            const size_t cells = cell_offsets.size() - 1;
            std::vector<__int128> sum(outs[o]->Data<__int128>(), outs[o]->Data<__int128>() + cells);
            std::vector<int64_t> count(cells);
            for (size_t c = 0; c < cells; ++c) {
                count[c] = cell_offsets[c + 1] - cell_offsets[c];
                if (src->HasNulls())
                    for (int64_t p = cell_offsets[c]; p < cell_offsets[c + 1]; ++p) count[c] -= src->IsValid(indices[static_cast<size_t>(p)]) ? 0 : 1;
            }
            if (!FinishAvg(SourceType(k, *avg[o]), sum, count, *outs[o])) return redo();
        }
        for (size_t o = 0; o < k.outputs.size(); ++o) frame_[static_cast<size_t>(k.outputs[o].slot)] = hir::Value(outs[o]);
        stats_.statements_compiled += static_cast<int>(k.stmts.size());
        return Status::Ok();
    }

    // The host's passes over a kernel's rows: fn(c, lo, hi) per chunk of ChunksOf(n) (common/
    // chunks.h: on every core from 2^18 rows on, else on this thread).  fn must write only what
    // its rows own.  A cancel seen between chunks skips the chunks left and is returned.
    template <class Fn>
    Status HostRows(const RowChunks &rc, const Fn &fn) {
        std::atomic<bool> cancelled{false};
        ForChunks(
            rc,
            [&](int64_t c, int64_t lo, int64_t hi) {
                if (!cancelled.load(std::memory_order_relaxed)) fn(c, lo, hi);
            },
            [&] {
                if (opts_.should_cancel && opts_.should_cancel()) cancelled = true;
            });
        return cancelled ? Status::Cancelled() : Status::Ok();
    }

    // An integer key column (i16, i32, date, i64, dec64) without NULLs: the value at each of
    // rows[0..m) as an order-preserving unsigned word (sign bit flipped), and their stable order
    // by a radix sort.
    static bool IntKey(const hir::Vector &x) {
        const hir::TypeKind t = x.type.kind;
        return !x.HasNulls() && (t == hir::TypeKind::I16 || t == hir::TypeKind::I32 || t == hir::TypeKind::DATE ||
                                 t == hir::TypeKind::I64 || t == hir::TypeKind::DEC64);
    }
    static int64_t IntKeyAt(const hir::Vector &x, int64_t r) {
        switch (x.type.kind) {
            case hir::TypeKind::I16: return x.Data<int16_t>()[r];
            case hir::TypeKind::I32: case hir::TypeKind::DATE: return x.Data<int32_t>()[r];
            default: return x.Data<int64_t>()[r];
        }
    }
    static Status IntKeyOrder(const hir::Vector &x, const int64_t *rows, int64_t m, int64_t *ord) {
        hir::PoolVector<uint64_t> key(static_cast<size_t>(m));
        for (int64_t j = 0; j < m; ++j) key[static_cast<size_t>(j)] = static_cast<uint64_t>(IntKeyAt(x, rows[j])) ^ (uint64_t(1) << 63);
        return hir::StableOrderByKey(key.data(), m, ord);
    }

    // What a group kernel leaves for the per-cell reductions by rows of its @values.
    struct GroupRows {
        int64_t m = 0;                   // groups
        hir::PoolVector<int64_t> count;  // rows per group (interpreter order)
        struct {                         // row -> group position (a pooled payload)
            std::shared_ptr<hir::Vector> v;
            size_t n = 0;
            size_t size() const { return n; }
            bool empty() const { return n == 0; }
            const uint32_t *data() const { return v ? v->Data<uint32_t>() : nullptr; }
            uint32_t operator[](size_t i) const { return data()[i]; }
        } row_group;
    };

    // One integer key without NULLs whose equal values lie next to each other (a table stored
    // clustered by the key, as TPC-H's lineitem by l_orderkey, in key order or in chunks that
    // are): its groups come from its runs, put in the interpreter's order (ascending keys) by a
    // radix sort of one key per run (the runs of one key make one group), so no hash table is
    // built.  *done false: too many runs, the hash kernel groups instead.
    Status GroupByRuns(const codegen::Kernel &k, const hir::Vector &x, int64_t n, bool *done) {
        *done = false;
        if (n < (int64_t{1} << 16) || !IntKey(x) || x.type.kind == hir::TypeKind::I16) return Status::Ok();
        auto at = [&](int64_t r) { return IntKeyAt(x, r); };
        // the runs (one starts where the key differs from the row before), counted per chunk;
        // more than one run in two rows: the keys hardly repeat next to each other, hash them
        const RowChunks rc = ChunksOf(n);
        hir::PoolVector<int64_t> before(static_cast<size_t>(rc.count) + 1, 0);  // runs before each chunk
        RNDN_RETURN_IF_ERROR(HostRows(rc, [&](int64_t c, int64_t lo, int64_t hi) {
            int64_t runs = 0;
            for (int64_t r = lo; r < hi; ++r) runs += r == 0 || at(r) != at(r - 1);
            before[static_cast<size_t>(c) + 1] = runs;
        }));
        for (int64_t c = 0; c < rc.count; ++c) before[static_cast<size_t>(c) + 1] += before[static_cast<size_t>(c)];
        const int64_t m = before[static_cast<size_t>(rc.count)];
        if (m > n / 2) return Status::Ok();
        hir::PoolVector<int64_t> start(static_cast<size_t>(m));
        RNDN_ASSIGN_OR_RETURN(auto rg, hir::MakeVectorUninit(hir::Type(hir::TypeKind::I32), n));
        uint32_t *row_group = rg->Data<uint32_t>();
        RNDN_RETURN_IF_ERROR(HostRows(rc, [&](int64_t c, int64_t lo, int64_t hi) {
            int64_t g = before[static_cast<size_t>(c)] - 1;  // the run of the row before lo
            for (int64_t r = lo; r < hi; ++r) {
                if (r == 0 || at(r) != at(r - 1)) start[static_cast<size_t>(++g)] = r;
                row_group[static_cast<size_t>(r)] = static_cast<uint32_t>(g);
            }
        }));
        // the runs in key order (stable: a key's runs by their rows), a group per distinct key
        hir::PoolVector<int64_t> ord(static_cast<size_t>(m));
        bool ascending = true;
        for (int64_t j = 1; j < m && ascending; ++j) ascending = at(start[static_cast<size_t>(j) - 1]) < at(start[static_cast<size_t>(j)]);
        if (ascending) {
            for (int64_t j = 0; j < m; ++j) ord[static_cast<size_t>(j)] = j;
        } else {
            RNDN_RETURN_IF_ERROR(IntKeyOrder(x, start.data(), m, ord.data()));
        }
        hir::PoolVector<uint32_t> rank(ascending ? 0 : static_cast<size_t>(m));  // run -> group position
        hir::PoolVector<int64_t> first, count;
        first.reserve(static_cast<size_t>(m));
        count.reserve(static_cast<size_t>(m));
        for (int64_t i = 0; i < m; ++i) {
            const int64_t j = ord[static_cast<size_t>(i)];
            const int64_t len = (j + 1 < m ? start[static_cast<size_t>(j) + 1] : n) - start[static_cast<size_t>(j)];
            if (i == 0 || at(start[static_cast<size_t>(j)]) != at(start[static_cast<size_t>(ord[static_cast<size_t>(i) - 1])])) {
                first.push_back(start[static_cast<size_t>(j)]);
                count.push_back(len);
            } else {
                count.back() += len;
            }
            if (!ascending) rank[static_cast<size_t>(j)] = static_cast<uint32_t>(first.size() - 1);
        }
        if (!ascending)
            RNDN_RETURN_IF_ERROR(HostRows(rc, [&](int64_t, int64_t lo, int64_t hi) {
                for (int64_t r = lo; r < hi; ++r) row_group[static_cast<size_t>(r)] = rank[row_group[static_cast<size_t>(r)]];
            }));
        *done = true;
        return FinishGroup(k, first, std::move(count), std::move(rg), n);
    }

    // Key tuples without NULLs that pack into at most kSmallKeyBits bits in their order: short
    // strings (at most 2 bytes: the bytes zero-padded to the column's longest, then the length,
    // so that a prefix sorts first; bytes unsigned, as std::string_view orders them) and integers of small range (the
    // value above the column's least), the first column most significant (TPC-H Q1's
    // l_returnflag, l_linestatus: 18 bits).  The packed tuple indexes a table directly: one pass
    // marks the tuples present, their ranks in the table are the groups' positions in the
    // interpreter's order (ascending tuples), and a second pass gives every row its group (no hash
    // kernel, no string compares).  *done false: the keys do not pack so.
    static constexpr int kSmallKeyBits = 20;
    Status GroupBySmallKeys(const codegen::Kernel &k, const std::vector<std::shared_ptr<const hir::Vector>> &in, int64_t n, bool *done) {
        *done = false;
        if (n < (int64_t{1} << 16)) return Status::Ok();
        struct Part {
            const hir::Vector *x;
            bool str;
            int len_bits = 0;  // strings: bits of the length
            int bytes = 0;     // strings: padded width
            int64_t lo = 0;    // integers: the least value
            int width = 0;     // bits
            int shift = 0;
            const int64_t *off = nullptr;  // strings: offsets, bytes
            const uint8_t *chars = nullptr;
        };
        std::vector<Part> parts;
        int bits = 0;
        const RowChunks rc = ChunksOf(n);
        // per chunk: a string column's longest value, an integer column's least and greatest
        hir::PoolVector<int64_t> chunk_lo(static_cast<size_t>(rc.count)), chunk_hi(static_cast<size_t>(rc.count));
        for (const auto &v : in) {
            const hir::Vector &x = *v;
            if (x.HasNulls()) return Status::Ok();
            Part p{&x, kernel::IsStringType(x.type)};
            if (p.str) {
                const int64_t *off = x.offsets.data();
                p.off = off;
                p.chars = reinterpret_cast<const uint8_t *>(x.bytes.data());
                RNDN_RETURN_IF_ERROR(HostRows(rc, [&, off](int64_t c, int64_t lo, int64_t hi) {
                    int64_t longest = 0;
                    for (int64_t r = lo; r < hi; ++r) longest = std::max(longest, off[r + 1] - off[r]);
                    chunk_hi[static_cast<size_t>(c)] = longest;
                }));
                const int64_t longest = *std::max_element(chunk_hi.begin(), chunk_hi.end());
                if (longest > 2) return Status::Ok();
                p.bytes = static_cast<int>(longest);
                p.len_bits = std::bit_width(static_cast<uint64_t>(longest));
                p.width = 8 * p.bytes + p.len_bits;
            } else {
                if (!IntKey(x)) return Status::Ok();
                RNDN_RETURN_IF_ERROR(HostRows(rc, [&](int64_t c, int64_t rlo, int64_t rhi) {
                    int64_t least = INT64_MAX, most = INT64_MIN;
                    for (int64_t r = rlo; r < rhi; ++r) {
                        const int64_t v2 = IntKeyAt(x, r);
                        least = std::min(least, v2);
                        most = std::max(most, v2);
                    }
                    chunk_lo[static_cast<size_t>(c)] = least;
                    chunk_hi[static_cast<size_t>(c)] = most;
                }));
                const int64_t lo = *std::min_element(chunk_lo.begin(), chunk_lo.end());
                const int64_t hi = *std::max_element(chunk_hi.begin(), chunk_hi.end());
                const uint64_t span = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo);
                if (span >= (uint64_t{1} << kSmallKeyBits)) return Status::Ok();
                p.lo = lo;
                p.width = std::bit_width(span);
            }
            bits += p.width;
            if (bits > kSmallKeyBits) return Status::Ok();
            parts.push_back(p);
        }
        for (int i = static_cast<int>(parts.size()) - 1, at = 0; i >= 0; --i) {
            parts[static_cast<size_t>(i)].shift = at;
            at += parts[static_cast<size_t>(i)].width;
        }
        auto pack = [&](int64_t r) {
            uint64_t key = 0;
            for (const Part &p : parts) {
                uint64_t f;
                if (p.str) {
                    const int64_t b = p.off[r], len = p.off[r + 1] - b;
                    const uint8_t *c = p.chars + b;
                    f = 0;
                    for (int j = 0; j < p.bytes; ++j) f = f << 8 | uint64_t(j < len ? c[j] : 0);
                    f = f << p.len_bits | static_cast<uint64_t>(len);
                } else {
                    f = static_cast<uint64_t>(IntKeyAt(*p.x, r)) - static_cast<uint64_t>(p.lo);
                }
                key |= f << p.shift;
            }
            return key;
        };
        const size_t slots = size_t{1} << bits;
        std::vector<uint8_t> present(slots, 0);
        // every row's packed tuple, kept in the row -> group vector (the strings' offsets are
        // read once); read before writing `present`: rows of a few groups would otherwise store
        // to the same cache line from every core
        RNDN_ASSIGN_OR_RETURN(auto rg, hir::MakeVectorUninit(hir::Type(hir::TypeKind::I32), n));
        uint32_t *row_group = rg->Data<uint32_t>();
        RNDN_RETURN_IF_ERROR(HostRows(rc, [&](int64_t, int64_t lo, int64_t hi) {
            for (int64_t r = lo; r < hi; ++r) {
                const uint32_t key = static_cast<uint32_t>(pack(r));
                row_group[r] = key;
                std::atomic_ref<uint8_t> p(present[key]);
                if (!p.load(std::memory_order_relaxed)) p.store(1, std::memory_order_relaxed);
            }
        }));
        std::vector<uint32_t> pos(slots, 0);
        int64_t m = 0;
        for (size_t t = 0; t < slots; ++t)
            if (present[t]) pos[t] = static_cast<uint32_t>(m++);
        // per group its first row and its rows: for few groups counted in the chunk's own arrays
        // and added up under a lock at its end (neighbouring chunks' counters would share cache
        // lines), for many with atomics
        constexpr int64_t kFewGroups = 4096;
        const bool few = m <= kFewGroups;
        hir::PoolVector<int64_t> count(static_cast<size_t>(m), 0), first(static_cast<size_t>(m), n);
        std::mutex merge;
        RNDN_RETURN_IF_ERROR(HostRows(rc, [&](int64_t, int64_t lo, int64_t hi) {
            std::vector<int64_t> my_count(few ? static_cast<size_t>(m) : 0, 0), my_first(few ? static_cast<size_t>(m) : 0, n);
            for (int64_t r = lo; r < hi; ++r) {
                const uint32_t g = pos[row_group[r]];
                row_group[r] = g;
                if (few) {
                    if (my_first[g] == n) my_first[g] = r;
                    ++my_count[g];
                } else {
                    std::atomic_ref<int64_t>(count[g]).fetch_add(1, std::memory_order_relaxed);
                    std::atomic_ref<int64_t> f(first[g]);
                    int64_t cur = f.load(std::memory_order_relaxed);
                    while (r < cur && !f.compare_exchange_weak(cur, r, std::memory_order_relaxed)) {
                    }
                }
            }
            if (few) {
                std::lock_guard<std::mutex> hold(merge);
                for (int64_t g = 0; g < m; ++g) {
                    count[static_cast<size_t>(g)] += my_count[static_cast<size_t>(g)];
                    first[static_cast<size_t>(g)] = std::min(first[static_cast<size_t>(g)], my_first[static_cast<size_t>(g)]);
                }
            }
        }));
        *done = true;
        return FinishGroup(k, first, std::move(count), std::move(rg), n);
    }

    // A group-by kernel (Kernel::group, hash-based): the kernel gives every row the slot of its
    // key tuple; the host numbers the slots by first appearance, orders the groups as the
    // interpreter does and builds @group's dictionary (keys: first row of each group; values: the
    // rows of each group ascending).
    Status Group(int index) {
        const codegen::Kernel &k = p_.kernels[static_cast<size_t>(index)];
        const auto &body = p_.entry->body;
        const hir::Stmt *gs = nullptr;
        for (const auto &ks : k.stmts)
            if (ks.form == Form::GROUP) gs = &body[static_cast<size_t>(ks.stmt)];
        if (!gs || k.outputs.size() != 1) return Status::Internal("group kernel without its @group");
        PtxOptions po = OptionsFor(index, PtxOptions{}.warp_reduce);  // the group kernel has no reductions
        auto &nullable = po.nullable[static_cast<size_t>(index)];
        std::vector<std::shared_ptr<const hir::Vector>> in(k.inputs.size());
        int64_t n = -1;
        for (size_t i = 0; i < k.inputs.size(); ++i) {
            const hir::Value &v = frame_[static_cast<size_t>(k.inputs[i].slot)];
            if (!v.is_vector()) return Redo(k);
            in[i] = v.vector_ptr();
            if (!SameType(in[i]->type, k.inputs[i].type) || !in[i]->elem_scale.empty()) return Redo(k);
            if (n >= 0 && in[i]->length != n) return Redo(k);
            n = in[i]->length;
            nullable[i] = in[i]->HasNulls();
        }
        if (n < 0 || n >= (int64_t{1} << 30)) return Redo(k);
        if (in.size() == 1) {
            bool done = false;
            RNDN_RETURN_IF_ERROR(GroupByRuns(k, *in[0], n, &done));
            if (done) return Status::Ok();
        }
        {
            bool done = false;
            RNDN_RETURN_IF_ERROR(GroupBySmallKeys(k, in, n, &done));
            if (done) return Status::Ok();
        }
        std::shared_ptr<const void> mod;
        RNDN_ASSIGN_OR_RETURN(const void *ck, LoadKernel(k, index, po, nullptr, &mod, n));
        if (!ck) return Redo(k);  // compiling in the background
        auto t0 = Clock::now();
        uint64_t cap = 64;
        while (cap < 2 * static_cast<uint64_t>(n)) cap <<= 1;
        // the table and the slots are transient; over half the interpreter's memory budget the
        // interpreter groups instead (and accounts its own intermediates against the budget)
        if (opts_.memory_budget > 0 && cap * 8 + static_cast<uint64_t>(n) * 4 > static_cast<uint64_t>(opts_.memory_budget) / 2) return Redo(k);
        // scratch from the interpreter's payload pool: the next run of the query (same sizes)
        // reuses the memory instead of faulting fresh pages in
        RNDN_ASSIGN_OR_RETURN(auto table_v, hir::MakeVectorUninit(hir::Type(hir::TypeKind::I64), static_cast<int64_t>(cap)));
        RNDN_ASSIGN_OR_RETURN(auto slots_v, hir::MakeVectorUninit(hir::Type(hir::TypeKind::I32), std::max<int64_t>(n, 1)));
        RNDN_ASSIGN_OR_RETURN(auto num_v, hir::MakeVectorUninit(hir::Type(hir::TypeKind::I32), std::max<int64_t>(n, 1)));
        int64_t *table = table_v->Data<int64_t>();
        uint32_t *slots = slots_v->Data<uint32_t>();
        std::fill(table, table + cap, int64_t{-1});
        Registrations regs(dev_);
        regs.Add(dummy_, sizeof dummy_);
        std::vector<cpujit::Arg> args;
        args.push_back(cpujit::Arg::U64(static_cast<uint64_t>(n)));
        if (!AddInputArgs(in, 0, nullable, regs, args)) return Redo(k);
        regs.Add(table, cap * 8);
        args.push_back(cpujit::Arg::Ptr(table));
        args.push_back(cpujit::Arg::U64(cap - 1));
        regs.Add(slots, static_cast<size_t>(std::max<int64_t>(n, 1)) * 4);
        args.push_back(cpujit::Arg::Ptr(slots));
        uint32_t err = 0;
        regs.Add(&err, sizeof err);
        args.push_back(cpujit::Arg::Ptr(&err));
        cpujit::LaunchConfig cfg;
        cfg.cancel = &opts_.should_cancel;
        stats_.phase = "kernel";
        cfg.grid.x = static_cast<uint32_t>(std::min<int64_t>(std::max<int64_t>(1, (n + codegen::Kernel::kBlock - 1) / codegen::Kernel::kBlock),
                                                             codegen::Kernel::kMaxGrid));
        cfg.block.x = codegen::Kernel::kBlock;
        t0 = Clock::now();
        RNDN_RETURN_IF_ERROR(dev_.Launch(ck, cfg.grid.x, cfg.block.x, ArgBytes(args), cfg.cancel));
        stats_.kernel_ms += Ms(t0);
        ++stats_.kernels_launched;
        if (err != 0) return Redo(k);
        // The groups: each row names the row that claimed its group's slot.  The claimer's entry
        // in `num` (row-sized, far smaller than the table) first gets the group's smallest row (an
        // atomic minimum, rows in chunks on every core), then the group's number, in claimer
        // order (any numbering serves: the groups are put in the interpreter's order below, by
        // their keys, which differ); then every row takes its group's number.
        table_v.reset();
        hir::PoolVector<int64_t> first;  // per group: its first row
        uint32_t *gid = slots;           // reused: row -> group number
        {
            uint32_t *num = num_v->Data<uint32_t>();
            std::fill(num, num + n, UINT32_MAX);
            std::atomic<bool> bad{false};
            const RowChunks rc = ChunksOf(n);
            RNDN_RETURN_IF_ERROR(HostRows(rc, [&](int64_t, int64_t lo, int64_t hi) {
                for (int64_t r = lo; r < hi; ++r) {
                    const uint32_t c = slots[static_cast<size_t>(r)];
                    if (c >= static_cast<uint64_t>(n)) {
                        bad = true;
                        continue;
                    }
                    std::atomic_ref<uint32_t> least(num[c]);
                    uint32_t cur = least.load(std::memory_order_relaxed);
                    while (static_cast<uint32_t>(r) < cur && !least.compare_exchange_weak(cur, static_cast<uint32_t>(r), std::memory_order_relaxed)) {
                    }
                }
            }));
            if (bad) return Status::Internal("group kernel left a row without its group");
            for (int64_t c = 0; c < n; ++c)
                if (num[c] != UINT32_MAX) {
                    first.push_back(num[c]);
                    num[c] = static_cast<uint32_t>(first.size() - 1);
                }
            RNDN_RETURN_IF_ERROR(HostRows(rc, [&](int64_t, int64_t lo, int64_t hi) {
                for (int64_t r = lo; r < hi; ++r) gid[static_cast<size_t>(r)] = num[slots[static_cast<size_t>(r)]];
            }));
        }
        const int64_t m = static_cast<int64_t>(first.size());
        // The interpreter's order of the groups (ascending key tuples, each column by its element
        // type's order: bool/char unsigned, integers/dates/decimals signed, strings by bytes as
        // std::string_view orders them; NULL after every value): a sort of the groups' first rows.
        hir::PoolVector<int64_t> rank(static_cast<size_t>(m), 0);  // first-appearance group -> interpreter position
        bool sorted = true;
        for (const auto &x : in) {
            switch (x->type.kind) {
                case hir::TypeKind::BOOL: case hir::TypeKind::CHAR: case hir::TypeKind::I16: case hir::TypeKind::I32:
                case hir::TypeKind::DATE: case hir::TypeKind::I64: case hir::TypeKind::DEC64: case hir::TypeKind::DEC128:
                case hir::TypeKind::STR: case hir::TypeKind::SYM: break;
                default: sorted = false;
            }
        }
        if (sorted && m > 1) {
            auto cmp = [&](const hir::Vector &x, int64_t a, int64_t b) -> int {
                const bool va = x.IsValid(a), vb = x.IsValid(b);
                if (!va || !vb) return va == vb ? 0 : va ? -1 : 1;
                auto three = [](auto u, auto v) { return u < v ? -1 : v < u ? 1 : 0; };
                switch (x.type.kind) {
                    case hir::TypeKind::BOOL:
                    case hir::TypeKind::CHAR: return three(x.Data<uint8_t>()[a], x.Data<uint8_t>()[b]);
                    case hir::TypeKind::I16: return three(x.Data<int16_t>()[a], x.Data<int16_t>()[b]);
                    case hir::TypeKind::I32:
                    case hir::TypeKind::DATE: return three(x.Data<int32_t>()[a], x.Data<int32_t>()[b]);
                    case hir::TypeKind::I64:
                    case hir::TypeKind::DEC64: return three(x.Data<int64_t>()[a], x.Data<int64_t>()[b]);
                    case hir::TypeKind::DEC128: return three(x.Data<__int128>()[a], x.Data<__int128>()[b]);
                    default: return three(x.StringAt(a), x.StringAt(b));
                }
            };
            hir::PoolVector<int64_t> ord(static_cast<size_t>(m));
            for (int64_t j = 0; j < m; ++j) ord[static_cast<size_t>(j)] = j;
            const hir::Vector &k0 = *in[0];
            if (in.size() == 1 && IntKey(k0)) {
                // one integer key without NULLs: the groups' keys (distinct) sorted by radix
                RNDN_RETURN_IF_ERROR(IntKeyOrder(k0, first.data(), m, ord.data()));
            } else
            std::sort(ord.begin(), ord.end(), [&](int64_t ga, int64_t gb) {
                const int64_t a = first[static_cast<size_t>(ga)], b = first[static_cast<size_t>(gb)];
                for (const auto &x : in) {
                    int c = cmp(*x, a, b);
                    if (c) return c < 0;
                }
                return false;
            });
            for (int64_t pos = 0; pos < m; ++pos) rank[static_cast<size_t>(ord[static_cast<size_t>(pos)])] = pos;
        } else if (m > 1) {
            // other key types: the interpreter's own @group over one row per group (the keys at
            // each group's first row); every cell then has one member, the group's position here
            std::vector<hir::Value> reps;
            for (size_t i = 0; i < in.size(); ++i) {
                const hir::Vector &x = *in[i];
                if (kernel::IsStringType(x.type)) {
                    RNDN_ASSIGN_OR_RETURN(auto g, hir::MakeVector(x.type, 0));
                    for (int64_t j = 0; j < m; ++j) g->AppendString(x.StringAt(first[static_cast<size_t>(j)]));
                    for (int64_t j = 0; j < m; ++j)
                        if (!x.IsValid(first[static_cast<size_t>(j)])) g->SetNull(j);
                    reps.emplace_back(std::shared_ptr<const hir::Vector>(g));
                    continue;
                }
                RNDN_ASSIGN_OR_RETURN(auto g, hir::MakeVector(x.type, m));
                const size_t eb = static_cast<size_t>(kernel::ElementBytes(x.type));
                for (int64_t j = 0; j < m; ++j) {
                    const int64_t r = first[static_cast<size_t>(j)];
                    std::memcpy(g->data.get() + static_cast<size_t>(j) * eb, x.data.get() + static_cast<size_t>(r) * eb, eb);
                    if (!x.IsValid(r)) g->SetNull(j);
                }
                reps.emplace_back(std::shared_ptr<const hir::Vector>(g));
            }
            const hir::Operand &karg = gs->expr.args[0];
            hir::Value sub;
            if (karg.type.kind == hir::TypeKind::LIST) {
                auto l = std::make_shared<hir::List>();
                l->cells = reps;
                sub = hir::Value(std::shared_ptr<const hir::List>(l));
            } else {
                sub = reps[0];
            }
            hir::Value saved = frame_[static_cast<size_t>(karg.slot)];
            frame_[static_cast<size_t>(karg.slot)] = sub;
            auto ordered = hir::EvaluateExpr(*p_.program, gs->expr, frame_, data_, opts_);
            frame_[static_cast<size_t>(karg.slot)] = saved;
            if (!ordered.ok()) return ordered.status();
            if (ordered->size() != 1 || (*ordered)[0].kind() != hir::ValueKind::DICT) return Status::Internal("@group did not give a dictionary");
            const hir::Value &ok = (*ordered)[0].dict().keys;
            if (!ok.is_vector() || ok.vector().length != m) return Status::Internal("group order: one group per distinct key expected");
            for (int64_t pos = 0; pos < m; ++pos) rank[static_cast<size_t>(ok.vector().Data<int64_t>()[pos])] = pos;
        }
        // each row's group position (interpreter order), the groups' sizes (few groups: counted
        // per chunk and added up, many: atomic adds, rarely to one group at once)
        uint32_t *row_group = slots;  // reused again: row -> position
        hir::PoolVector<int64_t> count(static_cast<size_t>(m), 0);
        {
            constexpr int64_t kFewGroups = 4096;
            const RowChunks rc = ChunksOf(n);
            const int64_t chunks = rc.count;
            hir::PoolVector<int64_t> local(m <= kFewGroups ? static_cast<size_t>(chunks * m) : 0, 0);
            RNDN_RETURN_IF_ERROR(HostRows(rc, [&](int64_t c, int64_t lo, int64_t hi) {
                int64_t *mine = m <= kFewGroups ? local.data() + c * m : nullptr;
                for (int64_t r = lo; r < hi; ++r) {
                    const uint32_t pos = static_cast<uint32_t>(rank[gid[static_cast<size_t>(r)]]);
                    row_group[static_cast<size_t>(r)] = pos;
                    if (mine) ++mine[pos];
                    else std::atomic_ref<int64_t>(count[pos]).fetch_add(1, std::memory_order_relaxed);
                }
            }));
            if (m <= kFewGroups)
                for (int64_t c = 0; c < chunks; ++c)
                    for (int64_t g = 0; g < m; ++g) count[static_cast<size_t>(g)] += local[static_cast<size_t>(c * m + g)];
        }
        hir::PoolVector<int64_t> ordered(static_cast<size_t>(m));  // the first rows in the interpreter's order
        for (int64_t j = 0; j < m; ++j) ordered[static_cast<size_t>(rank[static_cast<size_t>(j)])] = first[static_cast<size_t>(j)];
        return FinishGroup(k, ordered, std::move(count), std::move(slots_v), n);
    }

    // FinishGroup from its parts: the groups' first rows in the interpreter's order, their sizes,
    // and every row's group position (a pooled u32 vector of n rows).
    Status FinishGroup(const codegen::Kernel &k, const hir::PoolVector<int64_t> &first, hir::PoolVector<int64_t> count,
                       std::shared_ptr<hir::Vector> row_group, int64_t n) {
        const int64_t m = static_cast<int64_t>(first.size());
        RNDN_ASSIGN_OR_RETURN(auto keys, hir::MakeVector(hir::Type(hir::TypeKind::I64), m));
        std::copy(first.begin(), first.end(), keys->Data<int64_t>());
        auto rows = std::make_shared<GroupRows>();
        rows->m = m;
        rows->count = std::move(count);
        rows->row_group.v = std::move(row_group);
        rows->row_group.n = static_cast<size_t>(n);
        return FinishGroup(k, std::move(keys), std::move(rows));
    }

    // A group kernel's results: G (the groups' first rows in the interpreter's order, and their
    // member lists when something reads them), @values(G), and the rows' groups for by-rows
    // reductions.
    Status FinishGroup(const codegen::Kernel &k, std::shared_ptr<hir::Vector> keys, std::shared_ptr<GroupRows> rows) {
        const auto &body = p_.entry->body;
        auto d = std::make_shared<hir::Dict>();
        d->keys = hir::Value(keys);
        if (k.group_lists) {
            RNDN_ASSIGN_OR_RETURN(d->values, MemberLists(*rows));
        } else {
            d->values = hir::Value(std::shared_ptr<const hir::List>(std::make_shared<hir::List>()));  // never read: only @keys reads G
        }
        for (const auto &ks : k.stmts)
            if (ks.form == Form::GROUPVALUES && k.group_lists) frame_[static_cast<size_t>(body[static_cast<size_t>(ks.stmt)].targets[0].slot)] = d->values;
        if (k.group_values >= 0) group_rows_[k.group_values] = std::move(rows);
        frame_[static_cast<size_t>(k.outputs[0].slot)] = hir::Value(std::shared_ptr<const hir::Dict>(d));
        stats_.statements_compiled += static_cast<int>(k.stmts.size());
        return Status::Ok();
    }


    // @group's member lists (rows ascending, a counting sort by group).
    static Expected<hir::Value> MemberLists(const GroupRows &g) {
        auto vals = std::make_shared<hir::List>();
        vals->cells.reserve(static_cast<size_t>(g.m));
        std::vector<int64_t *> dst(static_cast<size_t>(g.m));
        for (int64_t pos = 0; pos < g.m; ++pos) {
            RNDN_ASSIGN_OR_RETURN(auto cell, hir::MakeVector(hir::Type(hir::TypeKind::I64), g.count[static_cast<size_t>(pos)]));
            dst[static_cast<size_t>(pos)] = cell->Data<int64_t>();
            vals->cells.emplace_back(std::shared_ptr<const hir::Vector>(cell));
        }
        const int64_t n = static_cast<int64_t>(g.row_group.size());
        for (int64_t r = 0; r < n; ++r) *dst[g.row_group[static_cast<size_t>(r)]]++ = r;
        return hir::Value(std::shared_ptr<const hir::List>(vals));
    }

    // A by-rows kernel whose group kernel ran on the interpreter runs there too.  When that was
    // because kernels were deferred (their modules compiling), its own module is requested now
    // as well (queued, or compiled when its work is over the limit), so that the next run
    // launches both instead of discovering it only then.
    Status RedoWithoutGroups(const codegen::Kernel &k, int index, PtxOptions po) {
        if (any_deferred_) {
            auto &nullable = po.nullable[static_cast<size_t>(index)];
            int64_t rows = 0;
            bool known = true;
            for (size_t i = 1; i < k.inputs.size() && known; ++i) {
                const hir::Value v = InputValue(k.inputs[i]);
                known = v.is_vector();
                if (known) {
                    nullable[i] = v.vector().HasNulls();
                    if (!k.inputs[i].random_access && !k.inputs[i].scalar) rows = std::max(rows, v.vector().length);
                }
            }
            // on the cpu device the group count picks the form: the interpreter's @values (its
            // cells are the groups) says which module the next run will want
            if (known && k.by_rows && !warp_reduce_) {
                const hir::Value &gv = frame_[static_cast<size_t>(k.inputs[0].slot)];
                const int64_t m = gv.kind() == hir::ValueKind::LIST ? static_cast<int64_t>(gv.list().cells.size()) : -1;
                if (m >= 0 && ThreadRecordsFit(rows, m)) {
                    po.group_thread_records = true;
                    po.group_slots = GroupSlots(m);
                }
            }
            std::shared_ptr<const void> mod;
            if (known) RNDN_RETURN_IF_ERROR(LoadKernel(k, index, po, nullptr, &mod, rows).status());
        }
        return RedoByRows(k);
    }

    // A by-rows kernel re-run on the interpreter: its @values first, when the group kernel did
    // not build it.
    Status RedoByRows(const codegen::Kernel &k) {
        const int v = k.inputs[0].slot;
        auto it = group_rows_.find(v);
        if (frame_[static_cast<size_t>(v)].kind() != hir::ValueKind::LIST && it != group_rows_.end()) {
            RNDN_ASSIGN_OR_RETURN(frame_[static_cast<size_t>(v)], MemberLists(*it->second));
        }
        return Redo(k);
    }

    // The source type of a per-cell reduction (a decimal of one scale for avg).
    static hir::Type SourceType(const codegen::Kernel &k, const KernelStmt &red) {
        for (const auto &in : k.inputs)
            if (in.slot == red.source) return in.type;
        return hir::Type();
    }

    // A per-cell avg's cells from each cell's exact sum (at the source's scale) and its number
    // of values: PostgreSQL's numeric avg per cell (hir::DecimalAverage), laid out as @raze lays
    // out the interpreter's cells (values at the largest display scale, each cell's own scale
    // kept).  False (the caller redoes the kernel on the interpreter, which decides) for a cell
    // without a value (NULL), or a scale or value PostgreSQL's numeric would not give.
    static bool FinishAvg(const hir::Type &xt, const std::vector<__int128> &sum, const std::vector<int64_t> &count, hir::Vector &out) {
        const size_t m = sum.size();
        if (!hir::IsDecimal(xt.kind) || xt.scale == hir::Type::kUnknownScale || out.type.kind != hir::TypeKind::DEC128 ||
            out.length != static_cast<int64_t>(m))
            return false;
        std::vector<__int128> q(m);
        std::vector<uint8_t> scale(m);
        int smax = 0;
        for (size_t j = 0; j < m; ++j) {
            if (count[j] <= 0) return false;
            int rs = 0;
            auto avg = hir::DecimalAverage(sum[j], xt.scale, count[j], &rs);
            if (!avg.ok()) return false;
            q[j] = *avg;
            scale[j] = static_cast<uint8_t>(rs);
            smax = std::max(smax, rs);
        }
        __int128 *dst = out.Data<__int128>();
        for (size_t j = 0; j < m; ++j) {
            __int128 x = q[j];
            for (int s = scale[j]; s < smax; ++s)
                if (__builtin_mul_overflow(x, static_cast<__int128>(10), &x)) return false;
            dst[j] = x;
        }
        out.scale_max = smax;
        out.elem_scale = std::move(scale);
        return true;
    }

    // Per-cell reductions by rows (Kernel::by_rows): each row adds its x into the record of its
    // group with atomics; records per CTA when the groups are few (no contention between the
    // device's workers), else one set; the host adds the records up and writes the cells.
    // The cpu device's grid for per-thread records: a few CTAs per hardware thread (the rows go
    // round in a grid-stride loop), so that the records stay small and the host's sum is short.
    static uint32_t ThreadRecordsGrid(int64_t n) {
        const int64_t hw = std::max<int64_t>(1, static_cast<int64_t>(std::thread::hardware_concurrency()));
        return static_cast<uint32_t>(std::clamp<int64_t>((n + codegen::Kernel::kBlock - 1) / codegen::Kernel::kBlock, 1, 4 * hw));
    }
    // Per-thread records fit when the groups are few: every thread's records for every output
    // at most 32 MiB (then zeroing them and adding them up costs little next to the rows).
    static bool ThreadRecordsFit(int64_t n, int64_t m) {
        const int64_t threads = static_cast<int64_t>(ThreadRecordsGrid(n)) * codegen::Kernel::kBlock;
        // (and a thread takes under 2^31 rows: the register slots' 32-bit pieces' sums, ptxgen's
        // SumPieces, cannot overflow)
        return m <= 64 && threads * m * 32 <= (int64_t(32) << 20) && n / threads < (int64_t(1) << 31);
    }
    bool ThreadRecordsFit(const codegen::Kernel &k) const {
        auto git = group_rows_.find(k.inputs[0].slot);
        if (git == group_rows_.end()) return false;
        return ThreadRecordsFit(static_cast<int64_t>(git->second->row_group.size()), git->second->m);
    }

    // Up to 8 groups: their accumulators in registers (1, 2, 4 or 8 slots: few variants).
    static int GroupSlots(int64_t m) { return m > 8 ? 0 : m <= 1 ? 1 : m <= 2 ? 2 : m <= 4 ? 4 : 8; }

    // thread_records: the cpu device's form (PtxOptions::group_thread_records); else the atomic
    // GPU form.
    Status GroupReduce(int index, bool thread_records) {
        const codegen::Kernel &k = p_.kernels[static_cast<size_t>(index)];
        auto git = group_rows_.find(k.inputs[0].slot);
        if (git == group_rows_.end()) return RedoWithoutGroups(k, index, OptionsFor(index, warp_reduce_));  // the group kernel ran on the interpreter
        const GroupRows &g = *git->second;
        const int64_t n = static_cast<int64_t>(g.row_group.size()), m = g.m;
        PtxOptions po = OptionsFor(index, warp_reduce_);
        po.group_thread_records = thread_records;
        if (thread_records) po.group_slots = GroupSlots(g.m);
        auto &nullable = po.nullable[static_cast<size_t>(index)];
        std::vector<std::shared_ptr<const hir::Vector>> in(k.inputs.size());
        bool any_nullable = false;
        for (size_t i = 1; i < k.inputs.size(); ++i) {
            const KernelInput &ki = k.inputs[i];
            const hir::Value v = InputValue(ki);
            if (!v.is_vector()) return RedoByRows(k);
            in[i] = v.vector_ptr();
            if (!SameType(in[i]->type, ki.type) || !in[i]->elem_scale.empty()) return RedoByRows(k);
            if (ki.scalar ? in[i]->length != 1 : !ki.random_access && in[i]->length != n) return RedoByRows(k);
            nullable[i] = in[i]->HasNulls();
            any_nullable = any_nullable || nullable[i];
        }
        // the reduction of each output (the @each its @raze reads); a source computed in the
        // kernel (a sunk chain) may be NULL where any input is
        const std::vector<const KernelStmt *> red = CellReductions(*p_.entry, k);
        std::vector<bool> red_nullable(k.outputs.size(), false);
        for (size_t o = 0; o < k.outputs.size(); ++o) {
            if (!red[o]) return Status::Internal("per-cell output without its reduction");
            bool input = false;
            for (size_t i = 1; i < k.inputs.size(); ++i)
                if (k.inputs[i].slot == red[o]->source && !k.inputs[i].random_access && !k.inputs[i].literal) {
                    red_nullable[o] = nullable[i];
                    input = true;
                }
            if (!input && red[o]->source >= 0) red_nullable[o] = any_nullable;
        }
        std::vector<std::shared_ptr<hir::Vector>> outs(k.outputs.size());
        for (size_t o = 0; o < k.outputs.size(); ++o) {
            RNDN_ASSIGN_OR_RETURN(outs[o], hir::MakeVector(k.outputs[o].type, m));
        }
        const uint32_t grid = thread_records ? ThreadRecordsGrid(n)
                                             : static_cast<uint32_t>(std::min<int64_t>(std::max<int64_t>(1, (n + codegen::Kernel::kBlock - 1) / codegen::Kernel::kBlock),
                                                                                       codegen::Kernel::kMaxGrid));
        // records per thread (thread_records), per CTA while they stay small (few groups), else
        // one set shared by all rows
        const size_t copies = thread_records ? static_cast<size_t>(grid) * codegen::Kernel::kBlock : m <= 256 ? grid : 1;
        std::vector<std::vector<uint64_t>> recs(k.outputs.size());
        {  // (launched for @len alone and for no rows too: it reads only the rows' groups then)
            std::shared_ptr<const void> mod;
            RNDN_ASSIGN_OR_RETURN(const void *ck, LoadKernel(k, index, po, nullptr, &mod, n));
            if (!ck) return RedoByRows(k);  // compiling in the background
            Registrations regs(dev_);
            regs.Add(dummy_, sizeof dummy_);
            std::vector<cpujit::Arg> args;
            args.push_back(cpujit::Arg::U64(static_cast<uint64_t>(n)));
            const void *rg = g.row_group.empty() ? static_cast<const void *>(dummy_) : g.row_group.data();
            regs.Add(rg, g.row_group.size() * 4);
            args.push_back(cpujit::Arg::Ptr(rg));
            args.push_back(cpujit::Arg::U64(copies > 1 ? static_cast<uint64_t>(m) * 32 : 0));
            for (size_t i = 1; i < in.size(); ++i) {
                PassFixedInput(regs, args, *in[i], nullable[i], dummy_);
                if (k.inputs[i].random_access) args.push_back(cpujit::Arg::U64(static_cast<uint64_t>(in[i]->length)));
            }
            for (size_t o = 0; o < k.outputs.size(); ++o) {
                if (red[o]->op == "len") {
                    args.push_back(cpujit::Arg::Ptr(dummy_));
                    continue;
                }
                recs[o].assign(copies * static_cast<size_t>(m) * 4, 0);
                if (red[o]->op == "min" || red[o]->op == "max")
                    for (size_t r = 0; r < copies * static_cast<size_t>(m); ++r)
                        recs[o][r * 4] = static_cast<uint64_t>(red[o]->op == "min" ? INT64_MAX : INT64_MIN);
                const void *rp = recs[o].empty() ? static_cast<const void *>(dummy_) : recs[o].data();
                regs.Add(rp, recs[o].size() * 8);
                args.push_back(cpujit::Arg::Ptr(rp));
            }
            uint32_t err = 0;
            regs.Add(&err, sizeof err);
            args.push_back(cpujit::Arg::Ptr(&err));
            stats_.phase = "kernel";
            auto t0 = Clock::now();
            RNDN_RETURN_IF_ERROR(dev_.Launch(ck, grid, codegen::Kernel::kBlock, ArgBytes(args), &opts_.should_cancel));
            stats_.kernel_ms += Ms(t0);
            ++stats_.kernels_launched;
            if (thread_records) ++stats_.thread_records;
            if (po.group_slots > 0) ++stats_.register_slots;
            if (err != 0) return RedoByRows(k);
        }
        for (size_t o = 0; o < k.outputs.size(); ++o) {
            const std::string &op = red[o]->op;
            hir::Vector &out = *outs[o];
            // avg: each group's sum and count, divided on the host below
            std::vector<__int128> avg_sum(op == "avg" ? static_cast<size_t>(m) : 0);
            std::vector<int64_t> avg_count(avg_sum.size());
            for (int64_t j = 0; j < m; ++j) {
                __int128 sum = 0;
                int64_t mn = INT64_MAX, mx = INT64_MIN;
                uint64_t cnt = 0;
                if (op == "len") {
                    cnt = static_cast<uint64_t>(g.count[static_cast<size_t>(j)]);
                } else {
                    for (size_t c = 0; c < copies; ++c) {
                        const uint64_t *rec = &recs[o][(c * static_cast<size_t>(m) + static_cast<size_t>(j)) * 4];
                        if (rec[2] == 0) continue;
                        cnt += rec[2];
                        if (op == "sum" || op == "avg") {
                            // bits 128-191 of the record's sum: the sign of hi unless 128 bits overflowed
                            if (rec[3] != (static_cast<int64_t>(rec[1]) < 0 ? ~uint64_t{0} : 0)) return RedoByRows(k);
                            __int128 v = static_cast<__int128>((static_cast<unsigned __int128>(rec[1]) << 64) | rec[0]);
                            if (__builtin_add_overflow(sum, v, &sum)) return RedoByRows(k);
                        }
                        mn = std::min(mn, static_cast<int64_t>(rec[0]));
                        mx = std::max(mx, static_cast<int64_t>(rec[0]));
                    }
                }
                if (op == "count" || op == "len") {
                    out.Data<int64_t>()[j] = static_cast<int64_t>(cnt);
                    continue;
                }
                // a cell without a valid element: the interpreter decides (NULL)
                if (cnt == 0 && (op != "sum" || red_nullable[o])) return RedoByRows(k);
                if (op == "avg") {
                    avg_sum[static_cast<size_t>(j)] = sum;
                    avg_count[static_cast<size_t>(j)] = static_cast<int64_t>(cnt);
                    continue;
                }
                int64_t val = op == "min" ? mn : mx;
                switch (out.type.kind) {
                    case hir::TypeKind::DEC128: out.Data<__int128>()[j] = sum; break;
                    case hir::TypeKind::I64:
                        if (op == "sum") {
                            if (sum > INT64_MAX || sum < INT64_MIN) return RedoByRows(k);
                            val = static_cast<int64_t>(sum);
                        }
                        out.Data<int64_t>()[j] = val;
                        break;
                    case hir::TypeKind::DEC64: out.Data<int64_t>()[j] = val; break;
                    case hir::TypeKind::I16: out.Data<int16_t>()[j] = static_cast<int16_t>(val); break;
                    case hir::TypeKind::I32:
                    case hir::TypeKind::DATE:
                        if (op == "sum") {
                            if (sum > INT32_MAX || sum < INT32_MIN) return RedoByRows(k);
                            val = static_cast<int64_t>(sum);
                        }
                        out.Data<int32_t>()[j] = static_cast<int32_t>(val);
                        break;
                    default: return RedoByRows(k);
                }
            }
            if (op == "avg" && !FinishAvg(SourceType(k, *red[o]), avg_sum, avg_count, out)) return RedoByRows(k);
        }
        for (size_t o = 0; o < k.outputs.size(); ++o) frame_[static_cast<size_t>(k.outputs[o].slot)] = hir::Value(outs[o]);
        stats_.statements_compiled += static_cast<int>(k.stmts.size());
        return Status::Ok();
    }

    // Per-cell results of the pieces of split cells, combined per cell (nullptr on overflow).
    static std::shared_ptr<hir::Vector> CombinePieces(const hir::Vector &pieces, const hir::PoolVector<int64_t> &owner, int64_t cells,
                                                      const std::string &op) {
        auto made = hir::MakeVector(pieces.type, cells);
        if (!made.ok()) return nullptr;
        std::shared_ptr<hir::Vector> out = *made;
        std::vector<__int128> acc(static_cast<size_t>(cells), 0);
        std::vector<bool> seen(static_cast<size_t>(cells), false);
        bool bad = false;
        for (size_t p = 0; p < owner.size(); ++p) {
            __int128 v = 0;
            switch (pieces.type.kind) {
                case hir::TypeKind::DEC128: v = pieces.Data<__int128>()[p]; break;
                case hir::TypeKind::I64:
                case hir::TypeKind::DEC64: v = pieces.Data<int64_t>()[p]; break;
                case hir::TypeKind::I32:
                case hir::TypeKind::DATE: v = pieces.Data<int32_t>()[p]; break;
                case hir::TypeKind::I16: v = pieces.Data<int16_t>()[p]; break;
                default: return nullptr;
            }
            __int128 &a = acc[static_cast<size_t>(owner[p])];
            bool first = !seen[static_cast<size_t>(owner[p])];
            seen[static_cast<size_t>(owner[p])] = true;
            if (op == "min") a = first ? v : std::min(a, v);
            else if (op == "max") a = first ? v : std::max(a, v);
            else bad |= __builtin_add_overflow(a, v, &a);
        }
        if (bad) return nullptr;
        for (int64_t c = 0; c < cells; ++c) {
            __int128 a = acc[static_cast<size_t>(c)];
            switch (pieces.type.kind) {
                case hir::TypeKind::DEC128: out->Data<__int128>()[c] = a; break;
                case hir::TypeKind::I64:
                case hir::TypeKind::DEC64:
                    if (a > INT64_MAX || a < INT64_MIN) return nullptr;
                    out->Data<int64_t>()[c] = static_cast<int64_t>(a);
                    break;
                case hir::TypeKind::I32:
                case hir::TypeKind::DATE:
                    if (a > INT32_MAX || a < INT32_MIN) return nullptr;
                    out->Data<int32_t>()[c] = static_cast<int32_t>(a);
                    break;
                case hir::TypeKind::I16: out->Data<int16_t>()[c] = static_cast<int16_t>(a); break;
                default: return nullptr;
            }
        }
        return out;
    }

    // Two passes of a compaction kernel around a host exclusive scan of the per-thread counts.
    // A compaction kernel whose mask (already computed) keeps under half of many rows: on the
    // cpu device its threads each own a chunk of rows, so a warp's loads and stores are gathers
    // and scatters whatever the mask; the interpreter's compress reads the columns in order.
    // TPC-H Q15's 3 lineitem columns at 3.7% kept: 35 ms as a kernel, about 17 interpreted.
    // A compaction kernel of plain @compress statements on the cpu device: the interpreter's
    // compress (branch-free, chunks on every core, one stream per column) is the faster one at
    // every density (Q1, 98% kept, 4 dec64 columns: 26 against 48 ms); the kernel's threads each
    // take a range of rows, so a lock-step warp reads and writes 32 streams per column.
    bool InterpCompaction(const codegen::Kernel &k, int64_t n) const {
        if (warp_reduce_ || n < (int64_t{1} << 16)) return false;  // the GPU form, or too small to matter
        for (const auto &ks : k.stmts)
            if (ks.form != Form::COMPRESS) return false;
        const hir::Value &m = frame_[static_cast<size_t>(k.compact_mask)];
        if (!m.is_vector()) return false;
        const hir::Vector &mv = m.vector();
        return mv.type.kind == hir::TypeKind::BOOL && mv.length == n && !mv.HasNulls();
    }

    Status Compact(const codegen::Kernel &k, const void *ck, Registrations &regs, std::vector<cpujit::Arg> args, int64_t n,
                   const std::vector<bool> &nullable, const std::vector<bool> &out_nullable) {
        (void)nullable;
        uint32_t grid = static_cast<uint32_t>(std::min<int64_t>(std::max<int64_t>(1, (n + codegen::Kernel::kBlock * 8 - 1) / (codegen::Kernel::kBlock * 8)),
                                                                codegen::Kernel::kMaxGrid));
        size_t threads = static_cast<size_t>(grid) * codegen::Kernel::kBlock;
        std::vector<uint64_t> counts(threads, 0);
        regs.Add(counts.data(), counts.size() * 8);
        // pass 0: outputs not needed yet (placeholders), counts per thread
        uint64_t *dummy = dummy_;
        regs.Add(dummy, sizeof dummy_);
        std::vector<cpujit::Arg> a0 = args;
        for (size_t o = 0; o < k.outputs.size(); ++o) {
            a0.push_back(cpujit::Arg::Ptr(dummy));
            if (o < out_nullable.size() && out_nullable[o]) a0.push_back(cpujit::Arg::Ptr(dummy));
        }
        uint32_t err = 0;
        regs.Add(&err, sizeof err);
        a0.push_back(cpujit::Arg::Ptr(counts.data()));
        a0.push_back(cpujit::Arg::U32(0));
        a0.push_back(cpujit::Arg::Ptr(&err));
        cpujit::LaunchConfig cfg;
        cfg.cancel = &opts_.should_cancel;
        stats_.phase = "kernel";
        cfg.grid.x = grid;
        cfg.block.x = codegen::Kernel::kBlock;
        auto t0 = Clock::now();
        RNDN_RETURN_IF_ERROR(dev_.Launch(ck, cfg.grid.x, cfg.block.x, ArgBytes(a0), cfg.cancel));
        uint64_t total = 0;
        for (auto &c : counts) {
            uint64_t x = c;
            c = total;
            total += x;
        }
        std::vector<std::shared_ptr<hir::Vector>> outs(k.outputs.size());
        std::vector<std::vector<uint8_t>> valid(k.outputs.size());
        std::vector<cpujit::Arg> a1 = args;
        for (size_t o = 0; o < k.outputs.size(); ++o) {
            RNDN_ASSIGN_OR_RETURN(outs[o], hir::MakeVector(k.outputs[o].type, static_cast<int64_t>(total)));
            size_t bytes = total * static_cast<size_t>(kernel::ElementBytes(k.outputs[o].type));
            const void *ptr = bytes ? static_cast<const void *>(outs[o]->data.get()) : dummy;
            regs.Add(ptr, bytes);
            a1.push_back(cpujit::Arg::Ptr(ptr));
            if (o < out_nullable.size() && out_nullable[o]) {
                valid[o].assign(std::max<size_t>(total, 1), 0);
                regs.Add(valid[o].data(), valid[o].size());
                a1.push_back(cpujit::Arg::Ptr(valid[o].data()));
            }
        }
        a1.push_back(cpujit::Arg::Ptr(counts.data()));
        a1.push_back(cpujit::Arg::U32(1));
        a1.push_back(cpujit::Arg::Ptr(&err));
        RNDN_RETURN_IF_ERROR(dev_.Launch(ck, cfg.grid.x, cfg.block.x, ArgBytes(a1), cfg.cancel));
        stats_.kernel_ms += Ms(t0);
        stats_.kernels_launched += 1;
        if (err != 0) return Redo(k);
        for (size_t o = 0; o < k.outputs.size(); ++o) {
            if (o < out_nullable.size() && out_nullable[o]) {
                // the interpreter keeps a bitmap on a compressed column whose source had one
                outs[o]->EnsureValidity();
                for (uint64_t r = 0; r < total; ++r)
                    if (!valid[o][r]) outs[o]->SetNull(static_cast<int64_t>(r));
            }
            frame_[static_cast<size_t>(k.outputs[o].slot)] = hir::Value(outs[o]);
        }
        stats_.statements_compiled += static_cast<int>(k.stmts.size());
        return Status::Ok();
    }

    KernelDevice &dev_;
    const OutlinedProgram &p_;
    hir::DataRegistry &data_;
    const hir::InterpretOptions &opts_;
    RunStats &stats_;
    std::vector<hir::Value> frame_;
    bool warp_reduce_ = false;
    bool group_atomics_ = true;
    int64_t defer_work_ = 0;  // Runner::set_defer_compiles
    bool deferred_ = false;   // the kernel being run was deferred (LoadKernel): its redo is not a re-run
    bool any_deferred_ = false;  // some kernel of this run was
    bool has_by_rows_ = false;   // the program has by-rows reductions (LoadKernel's weights)
    std::map<int, std::shared_ptr<GroupRows>> group_rows_;  // @values slot -> what its group kernel left
    uint64_t dummy_[4] = {};  // stands in for empty buffers (registered per launch, per run)
};

}  // namespace

Runner::Runner(cpujit::Device &device, bool warp_reduce)
    : own_(std::make_unique<CpujitKernels>(device)), device_(own_.get()), warp_reduce_(warp_reduce) {}
Runner::Runner(KernelDevice &device, bool warp_reduce) : device_(&device), warp_reduce_(warp_reduce) {}
Runner::~Runner() = default;

void Runner::set_threads(unsigned threads) {
    if (own_) static_cast<CpujitKernels *>(own_.get())->threads_ = threads;
}

Expected<hir::Value> Runner::Run(const OutlinedProgram &p, hir::DataRegistry &data, const hir::InterpretOptions &options, RunStats *stats) {
    return Run(p, data, options, {}, stats);
}

Expected<hir::Value> Runner::Run(const OutlinedProgram &p, hir::DataRegistry &data, const hir::InterpretOptions &options,
                                 const std::vector<hir::Value> &entry_args, RunStats *stats) {
    RunStats local;
    RunStats &st = stats ? *stats : local;
    if (!p.program || !p.entry) return Status::Internal("Runner: empty outlined program");
    if (entry_args.size() != p.entry->params.size())
        return Status::Internal("Runner: " + std::to_string(p.entry->params.size()) + " entry parameter(s), " +
                                std::to_string(entry_args.size()) + " value(s)");
    if (!StraightLine(*p.entry)) {
        ++st.statements_interpreted;
        return hir::Interpret(*p.program, data, options, entry_args);
    }
    Exec e(*device_, p, data, options, st, warp_reduce_, group_atomics_, defer_work_);
    for (size_t i = 0; i < entry_args.size(); ++i) {
        const int slot = p.entry->params[i].slot;
        if (slot < 0) return Status::Internal("Runner: entry parameter without a slot (unchecked program)");
        e.SetSlot(slot, entry_args[i]);
    }
    try {
        return e.Run();
    } catch (const std::bad_alloc &) {
        return Status::OutOfMemory("out of memory in the hybrid executor");
    }
}

}  // namespace rndn::codegen
