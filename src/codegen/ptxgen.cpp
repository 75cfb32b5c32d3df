// PTX generation: each kernel of an OutlinedProgram becomes one .entry.  The element-wise
// statements are instances of the patterns in templates.def; loads, stores, validity bitmaps,
// decimal rescaling, compress predicates and reductions are emitted here.  The text is parsed
// into ptx::Module and verified (the seam type), so a pattern error is caught before any device
// sees it.
//
// Kernel shape (every kernel):
//   params: n, then per input its pointer (+ validity bitmap pointer when nullable), per vector
//   output its pointer (+ one validity byte per element when nullable), per reduction its
//   partials pointer (one 32-byte record per warp: lo, hi, count), then the error flag pointer.
//   A grid-stride loop over i < n; at the end each reduction is combined across the warp with
//   shfl.sync.down and lane 0 writes the warp's record; any overflow writes 1 to the error flag.
#include <algorithm>
#include <cstring>
#include <map>
#include <set>
#include <sstream>

#include "codegen/internal.h"

namespace rndn::codegen {
namespace kernel {

namespace {
struct Row {
    const char *op;
    VClass cls;
    const char *pattern;
};
const Row kRows[] = {
#define CG_EW(OP, CLASS, PATTERN) {#OP, VClass::CLASS, PATTERN},
#include "codegen/templates.def"
#undef CG_EW
};
}  // namespace

const char *VClassName(VClass c) {
    switch (c) {
        case VClass::NONE: return "none";
        case VClass::PRED: return "pred";
        case VClass::U8: return "u8";
        case VClass::S32: return "s32";
        case VClass::S64: return "s64";
        case VClass::F64: return "f64";
        case VClass::DEC: return "dec";
        case VClass::STR: return "str";
    }
    return "?";
}

VClass ClassOf(const hir::Type &t) {
    switch (t.kind) {
        case hir::TypeKind::BOOL: return VClass::PRED;
        case hir::TypeKind::CHAR: return VClass::U8;
        case hir::TypeKind::I16:  // comparisons, gathers, compress, min/max (no arithmetic: smallint overflow)
        case hir::TypeKind::I32:
        case hir::TypeKind::DATE: return VClass::S32;
        case hir::TypeKind::I64:
        case hir::TypeKind::DT: return VClass::S64;  // timestamps (microseconds): comparisons only, see TypeSupported
        case hir::TypeKind::F64: return VClass::F64;
        case hir::TypeKind::DEC64:
        case hir::TypeKind::DEC128: return t.scale >= 0 && t.scale <= 38 ? VClass::DEC : VClass::NONE;
        case hir::TypeKind::STR:
        case hir::TypeKind::SYM: return VClass::STR;
        default: return VClass::NONE;
    }
}

// dt loads as s64 for comparisons (signed microseconds, the infinities at the int64 limits, as the
// interpreter orders them); results, gathers, compresses, reductions and group keys of dt stay on the
// interpreter
bool TypeSupported(const hir::Type &t) { return ClassOf(t) != VClass::NONE && ClassOf(t) != VClass::STR && t.kind != hir::TypeKind::DT; }
bool IsStringType(const hir::Type &t) { return ClassOf(t) == VClass::STR; }

int ElementBytes(const hir::Type &t) {
    switch (t.kind) {
        case hir::TypeKind::BOOL:
        case hir::TypeKind::CHAR: return 1;
        case hir::TypeKind::I16: return 2;
        case hir::TypeKind::I32:
        case hir::TypeKind::DATE: return 4;
        case hir::TypeKind::I64:
        case hir::TypeKind::DT:
        case hir::TypeKind::F64:
        case hir::TypeKind::DEC64: return 8;
        case hir::TypeKind::DEC128: return 16;
        default: return 0;
    }
}

bool IsElementwise(const std::string &b) {
    for (const auto &r : kRows)
        if (b == r.op) return true;
    return false;
}
bool IsComparison(const std::string &b) { return b == "lt" || b == "gt" || b == "leq" || b == "geq" || b == "eq" || b == "neq"; }
bool IsReduction(const std::string &b) { return b == "sum" || b == "count" || b == "len" || b == "min" || b == "max"; }

const char *Pattern(const std::string &b, VClass c) {
    for (const auto &r : kRows)
        if (b == r.op && r.cls == c) return r.pattern;
    return nullptr;
}

bool ElementwiseSupported(const std::string &b, const std::vector<hir::Type> &args, const hir::Type &result) {
    if (!TypeSupported(result)) return false;
    for (const auto &a : args)
        if (!TypeSupported(a) && !(a.kind == hir::TypeKind::DT && IsComparison(b))) return false;
    if (b == "not") return args.size() == 1 && args[0].kind == hir::TypeKind::BOOL && Pattern(b, VClass::PRED);
    if (args.size() == 1) {
        VClass c = ClassOf(args[0]);
        if (b == "is_null" || b == "is_not_null") return result.kind == hir::TypeKind::BOOL && Pattern(b, c) != nullptr;
        if (b == "date_year" || b == "date_month" || b == "date_day")
            return args[0].kind == hir::TypeKind::DATE && result.kind == hir::TypeKind::I16 && Pattern(b, c) != nullptr;
        if (b == "neg" || b == "abs") {
            // same type in and out; decimals as dec128 (a dec64 result would need a 64-bit range check)
            if (!(result == args[0])) return false;
            if (c == VClass::DEC) return args[0].kind == hir::TypeKind::DEC128 && Pattern(b, c) != nullptr;
            if (args[0].kind != hir::TypeKind::I32 && args[0].kind != hir::TypeKind::I64 && args[0].kind != hir::TypeKind::F64) return false;
            return Pattern(b, c) != nullptr;
        }
        return false;
    }
    if (args.size() != 2) return false;
    VClass ca = ClassOf(args[0]), cb = ClassOf(args[1]);
    // mixed integer widths (i16 i32 i64): both operands widen to the wider type (s32 -> s64 in the
    // generator; i16 is already s32), as the interpreter's arithmetic and comparisons do
    auto rank = [](hir::TypeKind k) { return k == hir::TypeKind::I16 ? 1 : k == hir::TypeKind::I32 ? 2 : k == hir::TypeKind::I64 ? 3 : 0; };
    if (rank(args[0].kind) && rank(args[1].kind) && args[0].kind != args[1].kind && b != "coalesce") {
        const hir::TypeKind wide = rank(args[0].kind) > rank(args[1].kind) ? args[0].kind : args[1].kind;
        const VClass cw = ClassOf(hir::Type(wide));
        if (IsComparison(b)) return result.kind == hir::TypeKind::BOOL && Pattern(b, cw) != nullptr;
        if (wide == hir::TypeKind::I16 || result.kind != wide) return false;
        return Pattern(b, cw) != nullptr;
    }
    if (ca != cb) return false;
    if (b == "coalesce") {
        // decimals: dec128 at the larger scale (the generator rescales both operands), else one type
        if (ca == VClass::DEC)
            return result.kind == hir::TypeKind::DEC128 && result.scale == std::max(args[0].scale, args[1].scale) && Pattern(b, ca) != nullptr;
        return args[0] == args[1] && result == args[0] && Pattern(b, ca) != nullptr;
    }
    if (ca != VClass::DEC && args[0].kind != args[1].kind) return false;
    if (IsComparison(b)) return result.kind == hir::TypeKind::BOOL && Pattern(b, ca) != nullptr;
    if (ca == VClass::DEC) {
        if (result.kind != hir::TypeKind::DEC128 || result.scale < 0) return false;
        int s = b == "mul" ? args[0].scale + args[1].scale : std::max(args[0].scale, args[1].scale);
        if (s != result.scale) return false;
    } else if (ClassOf(result) != ca || result.kind != args[0].kind || args[0].kind == hir::TypeKind::I16) {
        return false;
    }
    return Pattern(b, ca) != nullptr;
}

bool ReductionSupported(const std::string &b, const hir::Type &arg, const hir::Type &result) {
    VClass c = ClassOf(arg);
    if (c == VClass::NONE || c == VClass::STR) return false;
    if (b == "count" || b == "len") return result.kind == hir::TypeKind::I64;
    if (b == "sum") {
        if (c == VClass::DEC) return result.kind == hir::TypeKind::DEC128 && result.scale == arg.scale;
        if (arg.kind == hir::TypeKind::I32) return result.kind == hir::TypeKind::I32;
        if (arg.kind == hir::TypeKind::I64) return result.kind == hir::TypeKind::I64;
        return false;
    }
    if (b == "avg") {
        // numeric avg per cell, by rows only: the kernel sums as for sum, the host divides
        // (hir::DecimalAverage) and the cells' display scales differ
        return c == VClass::DEC && arg.scale != hir::Type::kUnknownScale && result.kind == hir::TypeKind::DEC128 &&
               result.scale == hir::Type::kUnknownScale;
    }
    if (b == "min" || b == "max") {
        if (!(arg == result)) return false;
        return arg.kind == hir::TypeKind::I16 || arg.kind == hir::TypeKind::I32 || arg.kind == hir::TypeKind::DATE || arg.kind == hir::TypeKind::I64 ||
               arg.kind == hir::TypeKind::DEC64;
    }
    return false;
}

}  // namespace kernel

std::vector<std::string> KernelForms() {
    std::map<std::string, std::vector<std::string>> by;
    for (const auto &r : kernel::kRows) by[r.op].push_back(kernel::VClassName(r.cls));
    std::vector<std::string> out;
    for (auto &[op, cls] : by) {
        std::string s = "@" + op + ":";
        for (const auto &c : cls) s += " " + c;
        out.push_back(s);
    }
    out.push_back("@compress: pred u8 s32 s64 f64 dec (fused as a predicate in full mode; else a two-pass order-preserving compaction kernel)");
    out.push_back("@sum: s32 s64 dec (128-bit accumulation)");
    out.push_back("@count @len: every class");
    out.push_back("@min @max: s32 (i32, date) s64 dec64");
    out.push_back("@index (gather with an i64 index vector): pred u8 s32 s64 f64 dec");
    out.push_back("@eq @neq: str/sym against a literal (byte-wise)");
    out.push_back("@raze(@each(@sum|@count|@len|@min|@max, @each_right(@index, x, G))): one reduction per group cell");
    return out;
}

namespace {

using kernel::VClass;

// A value in registers.
struct Val {
    VClass cls = VClass::NONE;
    std::string r, hi;  // hi: DEC only; STR: r, hi = start, end offsets
    std::string bytes;  // STR: the bytes pointer
    int scale = 0;
    std::string valid;  // .pred register; empty: always valid
    std::string sel;    // .pred register: row selected (compressed values); empty: all rows
};

class Gen {
public:
    Gen(const OutlinedProgram &p, const Kernel &k, const std::vector<bool> &nullable, bool warp_reduce)
        : p_(p), k_(k), nullable_(nullable), warp_reduce_(warp_reduce) {}

    Expected<std::string> Run() {
        std::ostringstream params;
        params << ".param .u64 n";
        for (size_t i = 0; i < k_.inputs.size(); ++i) {
            params << ", .param .u64 in" << i;
            if (kernel::IsStringType(k_.inputs[i].type)) params << ", .param .u64 instr" << i;
            if (Nullable(i)) params << ", .param .u64 inv" << i;
            if (k_.inputs[i].random_access) params << ", .param .u64 inlen" << i;
        }
        // head: parameters and scalars
        std::string n = Q();
        zero32_ = R();
        Emit("mov.u32 " + zero32_ + ", 0");
        Emit("ld.param.u64 " + n + ", [n]");
        std::vector<std::string> in_ptr(k_.inputs.size()), in_vptr(k_.inputs.size()), in_len(k_.inputs.size());
        for (size_t i = 0; i < k_.inputs.size(); ++i) {
            in_ptr[i] = Q();
            Emit("ld.param.u64 " + in_ptr[i] + ", [in" + std::to_string(i) + "]");
            Emit("cvta.to.global.u64 " + in_ptr[i] + ", " + in_ptr[i]);
            if (kernel::IsStringType(k_.inputs[i].type)) str_bytes_[in_ptr[i]] = Param("instr" + std::to_string(i));
            if (Nullable(i)) {
                in_vptr[i] = Q();
                Emit("ld.param.u64 " + in_vptr[i] + ", [inv" + std::to_string(i) + "]");
                Emit("cvta.to.global.u64 " + in_vptr[i] + ", " + in_vptr[i]);
            }
            if (k_.inputs[i].random_access) {
                in_len[i] = Q();
                Emit("ld.param.u64 " + in_len[i] + ", [inlen" + std::to_string(i) + "]");
            }
        }
        // scalars load element 0 once
        std::string zero = Q();
        Emit("mov.u64 " + zero + ", 0");
        std::map<size_t, Val> scalar_vals;
        for (size_t i = 0; i < k_.inputs.size(); ++i)
            if (k_.inputs[i].scalar) {
                RNDN_ASSIGN_OR_RETURN(Val v, Load(k_.inputs[i].type, in_ptr[i], in_vptr[i], zero));
                scalar_vals[i] = v;
            }
        // outputs
        std::vector<std::string> out_ptr(k_.outputs.size()), out_vptr(k_.outputs.size());
        std::string ovf_any = P();
        Emit("setp.ne.u32 " + ovf_any + ", " + zero32_ + ", 0");
        struct Red {
            std::string lo, hi, cnt;
        };
        std::vector<Red> reds(k_.outputs.size());
        output_nullable_.assign(k_.outputs.size(), false);
        // the loop
        [[maybe_unused]] auto [tid, ntid, ctaid, nctaid, gid] = EmitThreadIds();
        auto [i, stride] = EmitGridStride(ntid, nctaid, gid);
        std::string body_head = body_.str();
        body_.str("");
        // Body statements are generated into body_, then wrapped.
        std::map<int, Val> vals;  // slot -> value
        std::map<size_t, Val> row_inputs;
        for (size_t j = 0; j < k_.inputs.size(); ++j) {
            if (k_.inputs[j].scalar || k_.inputs[j].random_access) continue;
            RNDN_ASSIGN_OR_RETURN(Val v, Load(k_.inputs[j].type, in_ptr[j], in_vptr[j], i));
            vals[k_.inputs[j].slot] = v;
        }
        const auto &body = p_.entry->body;
        size_t lit = 0;
        std::map<const hir::Operand *, Val> lit_vals;
        for (size_t j = 0; j < k_.inputs.size(); ++j)
            if (k_.inputs[j].literal) lit_vals[k_.inputs[j].literal] = scalar_vals[j];
            else if (k_.inputs[j].scalar) vals[k_.inputs[j].slot] = scalar_vals[j];
        (void)lit;
        auto arg = [&](const hir::Operand &o) -> Val {
            if (o.kind == hir::Operand::Kind::LITERAL) return lit_vals[&o];
            return vals[o.slot];
        };
        for (const auto &ks : k_.stmts) {
            const hir::Stmt &s = body[static_cast<size_t>(ks.stmt)];
            int slot = s.targets[0].slot;
            const hir::Type &rt = s.expr.types[0];
            if (ks.form == Form::COMPRESS) {
                Val m = arg(s.expr.args[0]), x = arg(s.expr.args[1]);
                Val r = x;
                std::string sel = P();
                if (!m.valid.empty()) Emit("and.pred " + sel + ", " + m.r + ", " + m.valid);
                else Emit("mov.pred " + sel + ", " + m.r);
                if (!x.sel.empty()) Emit("and.pred " + sel + ", " + sel + ", " + x.sel);
                r.sel = sel;
                vals[slot] = r;
                continue;
            }
            if (ks.form == Form::GATHER) {
                RNDN_ASSIGN_OR_RETURN(vals[slot], Gather(0, s, arg(s.expr.args[1]), in_ptr, in_vptr, in_len, ovf_any));
                continue;
            }
            if (ks.form == Form::REDUCE) {
                Val x = arg(s.expr.args[0]);
                size_t oi = OutputIndex(slot);
                Red &rd = reds[oi];
                rd.lo = Q();
                rd.hi = Q();
                rd.cnt = Q();
                std::string inc = Include(x, ks.op != "len");
                // initial values go to the head
                std::string init_lo = ks.op == "min" ? "9223372036854775807" : ks.op == "max" ? "-9223372036854775808" : "0";
                head_extra_ += "mov.u64 " + rd.lo + ", " + init_lo + ";\n";
                head_extra_ += "mov.u64 " + rd.hi + ", 0;\n";
                head_extra_ += "mov.u64 " + rd.cnt + ", 0;\n";
                Accumulate(ks.op, x, inc, rd.lo, rd.hi, rd.cnt, ovf_any);
                continue;
            }
            // element-wise
            std::vector<Val> av;
            for (const auto &a : s.expr.args) av.push_back(arg(a));
            RNDN_ASSIGN_OR_RETURN(Val d, Elementwise(ks, rt, std::move(av), ovf_any));
            vals[slot] = d;
        }
        // stores of vector outputs
        for (size_t o = 0; o < k_.outputs.size(); ++o) {
            const KernelOutput &ko = k_.outputs[o];
            if (ko.reduction) continue;
            const Val &v = vals[ko.slot];
            out_ptr[o] = Q();
            params_out_ += ", .param .u64 out" + std::to_string(o);
            head_extra_ += "ld.param.u64 " + out_ptr[o] + ", [out" + std::to_string(o) + "];\n";
            head_extra_ += "cvta.to.global.u64 " + out_ptr[o] + ", " + out_ptr[o] + ";\n";
            Store(ko.type, v, out_ptr[o], i);
            if (!v.valid.empty()) {
                out_vptr[o] = Q();
                params_out_ += ", .param .u64 outv" + std::to_string(o);
                head_extra_ += "ld.param.u64 " + out_vptr[o] + ", [outv" + std::to_string(o) + "];\n";
                head_extra_ += "cvta.to.global.u64 " + out_vptr[o] + ", " + out_vptr[o] + ";\n";
                std::string a = Q(), b = R();
                Emit("add.u64 " + a + ", " + out_vptr[o] + ", " + i);
                Emit("selp.u32 " + b + ", 1, 0, " + v.valid);
                Emit("st.global.u8 [" + a + "], " + b);
            }
            output_nullable_[o] = !v.valid.empty();
        }
        std::string loop_body = body_.str();
        body_.str("");
        // tail: warp reductions, partial records, error flag
        std::string lane = R(), p0 = P();
        std::string warp = Q();
        Emit("cvt.u64.u32 " + warp + ", " + gid);
        if (warp_reduce_) {
            // one record per warp, written by lane 0 after the shuffles
            Emit("and.b32 " + lane + ", " + tid + ", 31");
            Emit("setp.eq.u32 " + p0 + ", " + lane + ", 0");
            Emit("shr.u64 " + warp + ", " + warp + ", 5");
        } else {
            // one record per thread (no warp collective: the cpu device runs the warp in lock-step)
            Emit("setp.eq.u32 " + p0 + ", " + zero32_ + ", 0");
        }
        Emit("shl.b64 " + warp + ", " + warp + ", 5");
        for (size_t o = 0; o < k_.outputs.size(); ++o) {
            const KernelOutput &ko = k_.outputs[o];
            if (!ko.reduction) continue;
            Red &rd = reds[o];
            std::string ptr = Q();
            params_out_ += ", .param .u64 red" + std::to_string(o);
            head_extra_ += "ld.param.u64 " + ptr + ", [red" + std::to_string(o) + "];\n";
            head_extra_ += "cvta.to.global.u64 " + ptr + ", " + ptr + ";\n";
            for (int off = 16; warp_reduce_ && off >= 1; off /= 2) {
                std::string lo2 = Shfl(rd.lo, off), cnt2 = Shfl(rd.cnt, off);
                Emit("add.u64 " + rd.cnt + ", " + rd.cnt + ", " + cnt2);
                if (ko.op == "sum") {
                    std::string hi2 = Shfl(rd.hi, off);
                    Add128(rd.lo, rd.hi, lo2, hi2, ovf_any);
                } else if (ko.op == "min" || ko.op == "max") {
                    Emit(std::string(ko.op == "min" ? "min.s64 " : "max.s64 ") + rd.lo + ", " + rd.lo + ", " + lo2);
                }
            }
            if (warp_reduce_) {
                // R-P4: one set of atomics per warp into a single record (lo, hi, count, top):
                // a 192-bit sum by carries from the old values the atomics return, so the host
                // sees an overflow of 128 bits as top != the sign of hi.
                std::string old = Q(), t = Q(), c = Q(), addhi = Q(), cb = Q(), top = Q(), pc = P();
                Emit("@" + p0 + " atom.global.add.u64 " + old + ", [" + ptr + "+16], " + rd.cnt);
                if (ko.op == "sum") {
                    Emit("@" + p0 + " atom.global.add.u64 " + old + ", [" + ptr + "], " + rd.lo);
                    Emit("add.u64 " + t + ", " + old + ", " + rd.lo);
                    Emit("setp.lt.u64 " + pc + ", " + t + ", " + old);
                    Emit("selp.u64 " + c + ", 1, 0, " + pc);
                    Emit("add.u64 " + addhi + ", " + rd.hi + ", " + c);
                    Emit("setp.lt.u64 " + pc + ", " + addhi + ", " + rd.hi);
                    Emit("selp.u64 " + cb + ", 1, 0, " + pc);
                    Emit("@" + p0 + " atom.global.add.u64 " + old + ", [" + ptr + "+8], " + addhi);
                    Emit("add.u64 " + t + ", " + old + ", " + addhi);
                    Emit("setp.lt.u64 " + pc + ", " + t + ", " + old);
                    Emit("selp.u64 " + c + ", 1, 0, " + pc);
                    Emit("shr.s64 " + top + ", " + rd.hi + ", 63");
                    Emit("add.u64 " + top + ", " + top + ", " + cb);
                    Emit("add.u64 " + top + ", " + top + ", " + c);
                    Emit("@" + p0 + " atom.global.add.u64 " + old + ", [" + ptr + "+24], " + top);
                } else if (ko.op == "min" || ko.op == "max") {
                    Emit("@" + p0 + " atom.global." + ko.op + ".s64 " + old + ", [" + ptr + "], " + rd.lo);
                }
                continue;
            }
            std::string a = Q();
            Emit("add.u64 " + a + ", " + ptr + ", " + warp);
            Emit("@" + p0 + " st.global.u64 [" + a + "], " + rd.lo);
            Emit("@" + p0 + " st.global.u64 [" + a + "+8], " + rd.hi);
            Emit("@" + p0 + " st.global.u64 [" + a + "+16], " + rd.cnt);
        }
        std::string err = Q(), one = R();
        head_extra_ += "ld.param.u64 " + err + ", [err];\n";
        head_extra_ += "cvta.to.global.u64 " + err + ", " + err + ";\n";
        Emit("mov.u32 " + one + ", 1");
        Emit("@" + ovf_any + " st.global.u32 [" + err + "], " + one);
        Emit("ret");
        std::string tail = body_.str();

        std::ostringstream os;
        os << ".visible .entry " << k_.name << "(" << params.str() << params_out_ << ", .param .u64 err)\n{\n";
        os << ".reg .pred %p<" << np_ + 1 << ">;\n.reg .b32 %r<" << nr_ + 1 << ">;\n.reg .b64 %rd<" << nq_ + 1 << ">;\n.reg .f64 %fd<"
           << nf_ + 1 << ">;\n";
        os << body_head << head_extra_;
        std::string pg = "%p0";  // reserved: loop guard
        os << "setp.ge.u64 " << pg << ", " << i << ", " << n << ";\n@" << pg << " bra $DONE;\n$LOOP:\n";
        os << loop_body;
        os << "add.u64 " << i << ", " << i << ", " << stride << ";\nsetp.lt.u64 " << pg << ", " << i << ", " << n << ";\n@" << pg
           << " bra $LOOP;\n$DONE:\n";
        os << tail << "}\n";
        return os.str();
    }

    const std::vector<bool> &output_nullable() const { return output_nullable_; }

    // A per-cell reduction kernel (see Kernel::segments): one thread per cell of G.
    Expected<std::string> RunSegmented() {
        std::ostringstream params;
        params << ".param .u64 n, .param .u64 offsets, .param .u64 indices";
        zero32_ = R();
        Emit("mov.u32 " + zero32_ + ", 0");
        std::string n = Q();
        Emit("ld.param.u64 " + n + ", [n]");
        std::string offs = Param("offsets"), inds = Param("indices");
        std::vector<std::string> in_ptr(k_.inputs.size()), in_vptr(k_.inputs.size()), in_len(k_.inputs.size());
        for (size_t i = 1; i < k_.inputs.size(); ++i) {
            params << ", .param .u64 in" << i;
            in_ptr[i] = Param("in" + std::to_string(i));
            if (Nullable(i)) {
                params << ", .param .u64 inv" << i;
                in_vptr[i] = Param("inv" + std::to_string(i));
            }
            params << ", .param .u64 inlen" << i;
            in_len[i] = Q();
            Emit("ld.param.u64 " + in_len[i] + ", [inlen" + std::to_string(i) + "]");
        }
        RNDN_ASSIGN_OR_RETURN(const auto scalars, LoadScalars(in_ptr, in_vptr));
        std::vector<std::string> out_ptr(k_.outputs.size());
        for (size_t o = 0; o < k_.outputs.size(); ++o) {
            params << ", .param .u64 out" << o;
            out_ptr[o] = Param("out" + std::to_string(o));
        }
        params << ", .param .u64 err";
        std::string err = Param("err");
        std::string ovf_any = P();
        Emit("setp.ne.u32 " + ovf_any + ", " + zero32_ + ", 0");
        [[maybe_unused]] auto [tid, ntid, ctaid, nctaid, gid] = EmitThreadIds();
        auto [g, stride] = EmitGridStride(ntid, nctaid, gid);
        std::string pg = P();
        Emit("setp.ge.u64 " + pg + ", " + g + ", " + n);
        Emit("@" + pg + " bra $SDONE");
        body_ << "$SCELL:\n";
        std::string oa = Q(), start = Q(), end = Q();
        Emit("shl.b64 " + oa + ", " + g + ", 3");
        Emit("add.u64 " + oa + ", " + offs + ", " + oa);
        Emit("ld.global.u64 " + start + ", [" + oa + "]");
        Emit("ld.global.u64 " + end + ", [" + oa + "+8]");
        // accumulators per reduction statement
        const auto &body = p_.entry->body;
        struct Acc {
            const KernelStmt *ks;
            size_t input;
            std::string lo, hi, cnt;
        };
        std::vector<Acc> accs;
        for (const auto &ks : k_.stmts) {
            if (ks.form != Form::SEGREDUCE) continue;
            Acc a{&ks, 0, Q(), Q(), Q()};
            if (ks.source >= 0 && ComputedInKernel(ks.source)) {
                a.input = k_.inputs.size() + static_cast<size_t>(ks.source);  // computed per row (a key of its own)
            } else if (ks.source >= 0) {
                while (a.input < k_.inputs.size() && !((k_.inputs[a.input].random_access || k_.by_rows) && k_.inputs[a.input].slot == ks.source)) ++a.input;
                if (a.input == k_.inputs.size()) return Status::Internal("per-cell source missing from the kernel inputs");
            }
            Emit("mov.u64 " + a.lo + ", " + (ks.op == "min" ? "9223372036854775807" : ks.op == "max" ? "-9223372036854775808" : "0"));
            Emit("mov.u64 " + a.hi + ", 0");
            Emit("mov.u64 " + a.cnt + ", 0");
            accs.push_back(a);
        }
        std::string j = Q(), pj = P();
        Emit("mov.u64 " + j + ", " + start);
        Emit("setp.ge.u64 " + pj + ", " + j + ", " + end);
        Emit("@" + pj + " bra $SEND");
        body_ << "$SROW:\n";
        std::string ia = Q(), idx = Q();
        Emit("shl.b64 " + ia + ", " + j + ", 3");
        Emit("add.u64 " + ia + ", " + inds + ", " + ia);
        Emit("ld.global.u64 " + idx + ", [" + ia + "]");
        std::map<size_t, Val> loaded;
        if (HasRowChain()) {
            std::map<int, Val> chain;
            RNDN_RETURN_IF_ERROR(RowChain(idx, true, in_ptr, in_vptr, in_len, scalars, chain, ovf_any));
            // computed sources, and the row inputs the chain already loaded (not loaded twice)
            for (auto &a : accs)
                if (a.ks->source >= 0 && chain.count(a.ks->source)) loaded[a.input] = chain[a.ks->source];
        }
        for (auto &a : accs) {
            if (a.ks->source < 0) continue;
            if (!loaded.count(a.input)) {
                std::string ok = P(), bad = P();
                Emit("setp.lt.u64 " + ok + ", " + idx + ", " + in_len[a.input]);
                Emit("not.pred " + bad + ", " + ok);
                Emit("or.pred " + ovf_any + ", " + ovf_any + ", " + bad);
                guard_ = ok;
                auto v = Load(k_.inputs[a.input].type, in_ptr[a.input], in_vptr[a.input], idx);
                guard_.clear();
                if (!v.ok()) return v.status();
                loaded[a.input] = *v;
            }
            const Val &x = loaded[a.input];
            std::string inc = Include(x, a.ks->op != "len");
            Accumulate(a.ks->op, x, inc, a.lo, a.hi, a.cnt, ovf_any);
        }
        Emit("add.u64 " + j + ", " + j + ", 1");
        Emit("setp.lt.u64 " + pj + ", " + j + ", " + end);
        Emit("@" + pj + " bra $SROW");
        body_ << "$SEND:\n";
        // one result per cell
        for (size_t o = 0; o < k_.outputs.size(); ++o) {
            const KernelOutput &ko = k_.outputs[o];
            const Acc *acc = nullptr;
            for (const auto &a : accs) {
                // the @each whose @raze writes this output
                for (const auto &ks : k_.stmts)
                    if (ks.form == Form::RAZE && body[static_cast<size_t>(ks.stmt)].targets[0].slot == ko.slot &&
                        body[static_cast<size_t>(ks.stmt)].expr.args[0].slot == body[static_cast<size_t>(a.ks->stmt)].targets[0].slot)
                        acc = &a;
            }
            if (!acc) return Status::Internal("per-cell output without its reduction");
            Val v;
            if (acc->ks->op == "len") {
                std::string l = Q();
                Emit("sub.u64 " + l + ", " + end + ", " + start);
                v.cls = VClass::S64;
                v.r = l;
            } else if (acc->ks->op == "count") {
                v.cls = VClass::S64;
                v.r = acc->cnt;
            } else {
                // no valid element: the interpreter decides (NULL); sums must fit the result type
                std::string none = P();
                Emit("setp.eq.u64 " + none + ", " + acc->cnt + ", 0");
                if (acc->ks->op != "sum" || SourceNullable(acc->input)) Emit("or.pred " + ovf_any + ", " + ovf_any + ", " + none);
                // (an avg's output has per-cell display scales: the cell's 128-bit sum is stored,
                // the host divides it)
                v.cls = acc->ks->op == "avg" ? VClass::DEC : kernel::ClassOf(ko.type);
                if (v.cls == VClass::DEC) {
                    v.r = acc->lo;
                    v.hi = acc->hi;
                } else if (v.cls == VClass::S64 && acc->ks->op != "sum") {
                    v.r = acc->lo;  // min/max keep the 64-bit value in lo
                } else if (v.cls == VClass::S32 && acc->ks->op != "sum") {
                    v.r = R();
                    Emit("cvt.u32.u64 " + v.r + ", " + acc->lo);
                } else if (v.cls == VClass::S64) {
                    std::string sx = Q(), bad = P();
                    Emit("shr.s64 " + sx + ", " + acc->lo + ", 63");
                    Emit("setp.ne.s64 " + bad + ", " + sx + ", " + acc->hi);
                    Emit("or.pred " + ovf_any + ", " + ovf_any + ", " + bad);
                    v.r = acc->lo;
                } else if (v.cls == VClass::S32) {
                    std::string sx = Q(), bad = P(), bad2 = P(), t32 = R(), back = Q();
                    Emit("shr.s64 " + sx + ", " + acc->lo + ", 63");
                    Emit("setp.ne.s64 " + bad + ", " + sx + ", " + acc->hi);
                    Emit("cvt.u32.u64 " + t32 + ", " + acc->lo);
                    if (ko.type.kind == hir::TypeKind::I16) Emit("cvt.s64.s16 " + back + ", " + t32);
                    else Emit("cvt.s64.s32 " + back + ", " + t32);
                    Emit("setp.ne.s64 " + bad2 + ", " + back + ", " + acc->lo);
                    Emit("or.pred " + bad + ", " + bad + ", " + bad2);
                    Emit("or.pred " + ovf_any + ", " + ovf_any + ", " + bad);
                    v.r = t32;
                } else {
                    return Status::Internal("per-cell result type not supported");
                }
            }
            Store(ko.type, v, out_ptr[o], g);
        }
        Emit("add.u64 " + g + ", " + g + ", " + stride);
        Emit("setp.lt.u64 " + pg + ", " + g + ", " + n);
        Emit("@" + pg + " bra $SCELL");
        body_ << "$SDONE:\n";
        std::string one = R();
        Emit("mov.u32 " + one + ", 1");
        Emit("@" + ovf_any + " st.global.u32 [" + err + "], " + one);
        Emit("ret");
        return Entry(params.str());
    }

    // A per-cell reduction kernel by rows (Kernel::by_rows, GROUPREDUCE): one thread per row of
    // the keys' geometry; the row's x goes into the record of its group (rowgroup: the group's
    // interpreter position, left by the group kernel) with atomics.  Record (lo, hi, count, top):
    // sums as a 192-bit add whose carries come from the old words the atomics return (the host
    // sees a 128-bit overflow as top != the sign of hi), min/max by atom.min/max.s64 on lo, count
    // of the rows included (NULLs add nothing); @len needs no record (the host counts the rows).
    // thread_records: each thread its own records (rec + global thread id * cstride), updated by
    // plain loads and stores (no two lanes share a record: nothing is lost in SIMT).
    // slots > 0 (with thread_records; at most that many groups): each thread keeps every group's
    // accumulators in registers (a row adds into slot j when its group is j, with no memory
    // access) and writes them into its records once, after its last row; a 128-bit overflow
    // sets the error flag (the host re-runs the reduction on the interpreter).
    Expected<std::string> RunGroupReduce(bool thread_records = false, int slots = 0) {
        std::ostringstream params;
        params << ".param .u64 n, .param .u64 rowgroup, .param .u64 cstride";
        zero32_ = R();
        Emit("mov.u32 " + zero32_ + ", 0");
        std::string n = Q(), cstride = Q();
        Emit("ld.param.u64 " + n + ", [n]");
        Emit("ld.param.u64 " + cstride + ", [cstride]");
        std::string rowgroup = Param("rowgroup");
        std::vector<std::string> in_ptr(k_.inputs.size()), in_vptr(k_.inputs.size()), in_len(k_.inputs.size());
        for (size_t i = 1; i < k_.inputs.size(); ++i) {
            params << ", .param .u64 in" << i;
            in_ptr[i] = Param("in" + std::to_string(i));
            if (Nullable(i)) {
                params << ", .param .u64 inv" << i;
                in_vptr[i] = Param("inv" + std::to_string(i));
            }
            if (k_.inputs[i].random_access) {  // (a gather of a sunk chain)
                params << ", .param .u64 inlen" << i;
                in_len[i] = Q();
                Emit("ld.param.u64 " + in_len[i] + ", [inlen" + std::to_string(i) + "]");
            }
        }
        RNDN_ASSIGN_OR_RETURN(const auto scalars, LoadScalars(in_ptr, in_vptr));
        std::vector<std::string> rec(k_.outputs.size());
        for (size_t o = 0; o < k_.outputs.size(); ++o) {
            params << ", .param .u64 rec" << o;
            rec[o] = Param("rec" + std::to_string(o));
        }
        params << ", .param .u64 err";
        [[maybe_unused]] auto [tid, ntid, ctaid, nctaid, gid] = EmitThreadIds();
        // this CTA's records: rec + ctaid * cstride (this thread's: rec + gid * cstride)
        std::string cta_off = Q();
        Emit("mul.wide.u32 " + cta_off + ", " + (thread_records ? gid : ctaid) + ", 1");
        Emit("mul.lo.u64 " + cta_off + ", " + cta_off + ", " + cstride);
        for (auto &r : rec) Emit("add.u64 " + r + ", " + r + ", " + cta_off);
        const std::vector<const KernelStmt *> reds = CellReductions(*p_.entry, k_);
        if (std::none_of(reds.begin(), reds.end(), [](const KernelStmt *r) { return r && r->op != "len" && r->source >= 0; })) {
            // only @len: the host counts each group's rows, the kernel reads nothing (no row loop)
            Emit("ret");
            return Entry(params.str());
        }
        // the slots' accumulators: [output][slot] = (lo, hi, count) for min/max; for sums the
        // 32-bit pieces' sums in lo, hi, c, d (SumPieces), put together after the loop
        struct Acc {
            std::string lo, hi, cnt, c, d;
        };
        std::vector<std::vector<Acc>> acc(k_.outputs.size());
        std::vector<std::string> slot_cnt;  // with slots: rows per slot (the count of outputs that take every row)
        bool slot_count_used = false;
        std::set<size_t> wide_sum;  // outputs summing 128-bit values (pieces c, d in use)
        std::string ovf;
        if (slots > 0) {
            if (!thread_records) return Status::Internal("group slots without thread records");
            ovf = P();
            Emit("setp.ne.u32 " + ovf + ", " + zero32_ + ", 0");
            for (size_t o = 0; o < k_.outputs.size(); ++o) {
                const KernelStmt *red = reds[o];
                if (!red) return Status::Internal("per-cell output without its reduction");
                if (red->op == "len" || red->source < 0) continue;
                const char *init = red->op == "min" ? "9223372036854775807" : red->op == "max" ? "-9223372036854775808" : "0";
                for (int j = 0; j < slots; ++j) {
                    Acc a{Q(), Q(), Q(), Q(), Q()};
                    Emit(std::string("mov.u64 ") + a.lo + ", " + init);
                    for (const std::string *r : {&a.hi, &a.cnt, &a.c, &a.d}) Emit("mov.u64 " + *r + ", 0");
                    acc[o].push_back(a);
                }
            }
            for (int j = 0; j < slots; ++j) {
                slot_cnt.push_back(Q());
                Emit("mov.u64 " + slot_cnt.back() + ", 0");
            }
        }
        if (ovf.empty() && HasRowChain()) {  // the chain's overflow or range errors
            ovf = P();
            Emit("setp.ne.u32 " + ovf + ", " + zero32_ + ", 0");
        }
        auto [i, stride] = EmitGridStride(ntid, nctaid, gid);
        std::string pi = P();
        Emit("setp.ge.u64 " + pi + ", " + i + ", " + n);
        Emit("@" + pi + " bra $RDONE");
        body_ << "$RROW:\n";
        std::string ga = Q(), g32 = R(), goff = Q();
        Emit("shl.b64 " + ga + ", " + i + ", 2");
        Emit("add.u64 " + ga + ", " + rowgroup + ", " + ga);
        Emit("ld.global.u32 " + g32 + ", [" + ga + "]");
        Emit("mul.wide.u32 " + goff + ", " + g32 + ", 32");
        // with slots: the row's slot tests, shared by every output
        std::vector<std::string> slot_p, slot_m;  // predicate, and all ones in the row's slot
        for (int j = 0; j < slots; ++j) {
            slot_p.push_back(P());
            slot_m.push_back(Q());
            Emit("setp.eq.u32 " + slot_p.back() + ", " + g32 + ", " + std::to_string(j));
            Emit("selp.b64 " + slot_m.back() + ", -1, 0, " + slot_p.back());
        }
        std::map<std::string, std::vector<std::string>> pieces;  // a summed value's 32-bit pieces
        std::map<int, Val> chain;  // the sunk chain's values for this row
        if (HasRowChain()) {
            RNDN_RETURN_IF_ERROR(RowChain(i, false, in_ptr, in_vptr, in_len, scalars, chain, ovf));
        }
        std::map<size_t, Val> loaded;
        for (size_t o = 0; o < k_.outputs.size(); ++o) {
            const KernelStmt *red = reds[o];
            if (!red) return Status::Internal("per-cell output without its reduction");
            if (red->op == "len" || red->source < 0) continue;
            size_t in = 1;
            if (chain.count(red->source)) {
                in = k_.inputs.size() + static_cast<size_t>(red->source);  // (a key of its own)
                loaded[in] = chain[red->source];
            } else {
                while (in < k_.inputs.size() && !(k_.inputs[in].slot == red->source && !k_.inputs[in].random_access && !k_.inputs[in].literal)) ++in;
                if (in == k_.inputs.size()) return Status::Internal("per-cell source missing from the kernel inputs");
            }
            if (!loaded.count(in)) {
                RNDN_ASSIGN_OR_RETURN(Val v, Load(k_.inputs[in].type, in_ptr[in], in_vptr[in], i));
                loaded[in] = v;
            }
            const Val &x = loaded[in];
            const std::string xtype = hir::TypeToString(in < k_.inputs.size() ? k_.inputs[in].type : SlotType(red->source));
            std::string inc = Include(x, true);
            if (slots > 0) {
                if (red->op != "count" && x.cls != VClass::S32 && x.cls != VClass::S64 && x.cls != VClass::DEC)
                    return Status::Unsupported("per-cell reduction of " + xtype);
                // every row counts (no NULL, no selection): the slot's shared count is the output's
                const bool every_row = x.sel.empty() && x.valid.empty() && (red->op == "sum" || red->op == "avg" || red->op == "count");
                if (every_row) slot_count_used = true;
                const bool sum = red->op == "sum" || red->op == "avg";
                std::vector<std::string> *pc = nullptr;
                if (sum) {
                    pc = &pieces[x.r + "/" + x.hi];
                    if (pc->empty()) *pc = SumPieces(x);
                    if (pc->size() > 2) wide_sum.insert(o);
                }
                for (int j = 0; j < slots; ++j) {
                    std::string pj = slot_p[static_cast<size_t>(j)], mj = slot_m[static_cast<size_t>(j)];
                    if (!every_row) {
                        pj = P();
                        mj = Q();
                        Emit("and.pred " + pj + ", " + slot_p[static_cast<size_t>(j)] + ", " + inc);
                        Emit("selp.b64 " + mj + ", -1, 0, " + pj);
                    }
                    Acc &ac = acc[o][static_cast<size_t>(j)];
                    if (every_row) ac.cnt = slot_cnt[static_cast<size_t>(j)];
                    if (sum) {
                        if (!every_row) {
                            std::string one = Q();
                            Emit("selp.u64 " + one + ", 1, 0, " + pj);
                            Emit("add.u64 " + ac.cnt + ", " + ac.cnt + ", " + one);
                        }
                        const std::string *accs[4] = {&ac.lo, &ac.hi, &ac.c, &ac.d};
                        for (size_t q = 0; q < pc->size(); ++q) {
                            std::string t = Q();
                            Emit("and.b64 " + t + ", " + (*pc)[q] + ", " + mj);
                            Emit("add.u64 " + *accs[q] + ", " + *accs[q] + ", " + t);
                        }
                    } else if (!every_row) {
                        Accumulate(red->op, x, pj, ac.lo, ac.hi, ac.cnt, ovf);
                    }
                }
                continue;
            }
            std::string a = Q();
            Emit("add.u64 " + a + ", " + rec[o] + ", " + goff);
            std::string old = Q();
            // [a+off] op= v under the row's inclusion, `old` the value before (atomic, or a plain
            // load and store of the thread's own record)
            auto update = [&](const std::string &op, int off, const std::string &v) {
                const std::string addr = "[" + a + (off ? "+" + std::to_string(off) : "") + "]";
                if (!thread_records) {
                    Emit("@" + inc + " atom.global." + op + " " + old + ", " + addr + ", " + v);
                    return;
                }
                std::string nv = Q();
                Emit("@" + inc + " ld.global.u64 " + old + ", " + addr);
                if (op == "add.u64") Emit("add.u64 " + nv + ", " + old + ", " + v);
                else Emit(op.substr(0, 3) + ".s64 " + nv + ", " + old + ", " + v);  // min.s64 / max.s64
                Emit("@" + inc + " st.global.u64 " + addr + ", " + nv);
            };
            update("add.u64", 16, "1");
            if (red->op == "count") continue;
            std::string lo = Q(), hi = Q();
            if (x.cls == VClass::S32) {
                Emit("cvt.s64.s32 " + lo + ", " + x.r);
                Emit("shr.s64 " + hi + ", " + lo + ", 63");
            } else if (x.cls == VClass::S64) {
                Emit("mov.b64 " + lo + ", " + x.r);
                Emit("shr.s64 " + hi + ", " + lo + ", 63");
            } else if (x.cls == VClass::DEC) {
                Emit("mov.b64 " + lo + ", " + x.r);
                Emit("mov.b64 " + hi + ", " + x.hi);
            } else {
                return Status::Unsupported("per-cell reduction of " + xtype);
            }
            if (red->op == "min" || red->op == "max") {
                update(red->op + ".s64", 0, lo);
                continue;
            }
            if (red->op != "sum" && red->op != "avg") return Status::Internal("per-cell reduction " + red->op);  // avg: the sum
            std::string t = Q(), c = Q(), addhi = Q(), cb = Q(), top = Q(), pc = P();
            update("add.u64", 0, lo);
            Emit("add.u64 " + t + ", " + old + ", " + lo);
            Emit("setp.lt.u64 " + pc + ", " + t + ", " + old);
            Emit("selp.u64 " + c + ", 1, 0, " + pc);
            Emit("add.u64 " + addhi + ", " + hi + ", " + c);
            Emit("setp.lt.u64 " + pc + ", " + addhi + ", " + hi);
            Emit("selp.u64 " + cb + ", 1, 0, " + pc);
            update("add.u64", 8, addhi);
            Emit("add.u64 " + t + ", " + old + ", " + addhi);
            Emit("setp.lt.u64 " + pc + ", " + t + ", " + old);
            Emit("selp.u64 " + c + ", 1, 0, " + pc);
            Emit("shr.s64 " + top + ", " + hi + ", 63");
            Emit("add.u64 " + top + ", " + top + ", " + cb);
            Emit("add.u64 " + top + ", " + top + ", " + c);
            update("add.u64", 24, top);
        }
        if (slot_count_used)
            for (int j = 0; j < slots; ++j) {
                std::string one = Q();
                Emit("selp.u64 " + one + ", 1, 0, " + slot_p[static_cast<size_t>(j)]);
                Emit("add.u64 " + slot_cnt[static_cast<size_t>(j)] + ", " + slot_cnt[static_cast<size_t>(j)] + ", " + one);
            }
        Emit("add.u64 " + i + ", " + i + ", " + stride);
        Emit("setp.lt.u64 " + pi + ", " + i + ", " + n);
        Emit("@" + pi + " bra $RROW");
        body_ << "$RDONE:\n";
        if (slots > 0) {
            // the slots of existing groups (j < cstride / 32) into this thread's records
            for (int j = 0; j < slots; ++j) {
                std::string pj = P();
                Emit("setp.gt.u64 " + pj + ", " + cstride + ", " + std::to_string(32 * j));
                for (size_t o = 0; o < k_.outputs.size(); ++o) {
                    if (acc[o].empty()) continue;
                    Acc ac = acc[o][static_cast<size_t>(j)];
                    std::string top = Q();
                    const KernelStmt *red = reds[o];
                    if (red->op == "sum" || red->op == "avg") {
                        SumFromPieces(ac.lo, ac.hi, ac.c, ac.d, wide_sum.count(o) > 0, top);
                    } else {
                        Emit("shr.s64 " + top + ", " + ac.hi + ", 63");
                    }
                    auto at = [&](int off) { return "[" + rec[o] + "+" + std::to_string(32 * j + off) + "]"; };
                    Emit("@" + pj + " st.global.u64 " + at(0) + ", " + ac.lo);
                    Emit("@" + pj + " st.global.u64 " + at(8) + ", " + ac.hi);
                    Emit("@" + pj + " st.global.u64 " + at(16) + ", " + ac.cnt);
                    Emit("@" + pj + " st.global.u64 " + at(24) + ", " + top);
                }
            }
        }
        if (!ovf.empty()) {
            std::string err = Param("err"), one = R();
            Emit("mov.u32 " + one + ", 1");
            Emit("@" + ovf + " st.global.u32 [" + err + "], " + one);
        }
        Emit("ret");
        return Entry(params.str());
    }

    // The raw bits of key column c at row idx (zero-extended; 16-byte keys in two words) and its
    // validity (empty: no bitmap).  NULL elements read as zero bits.
    struct Key {
        std::string lo, hi, valid;  // str/sym: lo, hi = start, end offsets into the bytes (NULL: empty)
    };
    Key LoadKey(size_t c, const std::string &base, const std::string &vbase, const std::string &idx) {
        Key k;
        const bool str = kernel::IsStringType(k_.inputs[c].type);
        int bytes = str ? 16 : kernel::ElementBytes(k_.inputs[c].type);
        std::string a = Q();
        k.lo = Q();
        if (str) {
            // offsets[idx], offsets[idx + 1]
            k.hi = Q();
            Emit("shl.b64 " + a + ", " + idx + ", 3");
            Emit("add.u64 " + a + ", " + base + ", " + a);
            Emit("ld.global.u64 " + k.lo + ", [" + a + "]");
            Emit("ld.global.u64 " + k.hi + ", [" + a + "+8]");
        } else {
            int sh = bytes == 1 ? 0 : bytes == 2 ? 1 : bytes == 4 ? 2 : bytes == 8 ? 3 : 4;
            if (sh) Emit("shl.b64 " + a + ", " + idx + ", " + std::to_string(sh));
            else Emit("mov.u64 " + a + ", " + idx);
            Emit("add.u64 " + a + ", " + base + ", " + a);
            if (bytes == 8 || bytes == 16) {
                Emit("ld.global.u64 " + k.lo + ", [" + a + "]");
            } else {
                std::string r = R();
                Emit(std::string("ld.global.") + (bytes == 1 ? "u8" : bytes == 2 ? "u16" : "u32") + " " + r + ", [" + a + "]");
                Emit("cvt.u64.u32 " + k.lo + ", " + r);
            }
            if (bytes == 16) {
                k.hi = Q();
                Emit("ld.global.u64 " + k.hi + ", [" + a + "+8]");
            }
        }
        if (!vbase.empty()) {
            std::string w = Q(), wa = Q(), sh6 = R(), bit = Q();
            k.valid = P();
            Emit("shr.u64 " + wa + ", " + idx + ", 6");
            Emit("shl.b64 " + wa + ", " + wa + ", 3");
            Emit("add.u64 " + wa + ", " + vbase + ", " + wa);
            Emit("ld.global.u64 " + w + ", [" + wa + "]");
            Emit("cvt.u32.u64 " + sh6 + ", " + idx);
            Emit("and.b32 " + sh6 + ", " + sh6 + ", 63");
            Emit("shr.b64 " + bit + ", " + w + ", " + sh6);
            Emit("and.b64 " + bit + ", " + bit + ", 1");
            Emit("setp.ne.u64 " + k.valid + ", " + bit + ", 0");
            if (str) {
                Emit("selp.b64 " + k.hi + ", " + k.hi + ", " + k.lo + ", " + k.valid);
            } else {
                Emit("selp.b64 " + k.lo + ", " + k.lo + ", 0, " + k.valid);
                if (!k.hi.empty()) Emit("selp.b64 " + k.hi + ", " + k.hi + ", 0, " + k.valid);
            }
        }
        return k;
    }

    // Group-by kernel, hash-based (Kernel::group): every row claims or finds the slot of its key
    // tuple in an open-addressing table (linear probing) by atom.cas of its row number into an
    // empty slot (-1); a slot taken by another row holds that row's number, so the keys compare
    // against the columns at that row (immutable inputs: no ordering needed between threads).
    // NULL keys hash and compare as one value, distinct from every non-NULL value.
    Expected<std::string> RunGroup() {
        std::ostringstream params;
        params << ".param .u64 n";
        zero32_ = R();
        Emit("mov.u32 " + zero32_ + ", 0");
        std::string n = Q();
        Emit("ld.param.u64 " + n + ", [n]");
        std::vector<std::string> in_ptr(k_.inputs.size()), in_vptr(k_.inputs.size());
        for (size_t i = 0; i < k_.inputs.size(); ++i) {
            const hir::Type &t = k_.inputs[i].type;
            int b = kernel::ElementBytes(t);
            const bool str = kernel::IsStringType(t);
            if (!str && (!kernel::TypeSupported(t) || t.kind == hir::TypeKind::F64 || (b != 1 && b != 2 && b != 4 && b != 8 && b != 16)))
                return Status::Unsupported("group keys of type " + hir::TypeToString(t));
            params << ", .param .u64 in" << i;
            in_ptr[i] = Param("in" + std::to_string(i));
            if (str) {
                params << ", .param .u64 instr" << i;
                str_bytes_[in_ptr[i]] = Param("instr" + std::to_string(i));
            }
            if (Nullable(i)) {
                params << ", .param .u64 inv" << i;
                in_vptr[i] = Param("inv" + std::to_string(i));
            }
        }
        params << ", .param .u64 table, .param .u64 mask, .param .u64 slots, .param .u64 err";
        std::string table = Param("table"), slots = Param("slots"), mask = Q();
        Emit("ld.param.u64 " + mask + ", [mask]");
        [[maybe_unused]] auto [tid, ntid, ctaid, nctaid, gid] = EmitThreadIds();
        auto [i, stride] = EmitGridStride(ntid, nctaid, gid);
        std::string pi = P();
        Emit("setp.ge.u64 " + pi + ", " + i + ", " + n);
        Emit("@" + pi + " bra $GDONE");
        body_ << "$GROW:\n";
        // hash of the key tuple: per word h = (h ^ w) * K, h ^= h >> 29; a NULL adds a marker word
        std::string h = Q();
        Emit("mov.u64 " + h + ", -7046029254386353131");
        auto mix = [&](const std::string &w) {
            std::string t = Q();
            Emit("xor.b64 " + h + ", " + h + ", " + w);
            Emit("mul.lo.u64 " + h + ", " + h + ", -4417276706812531889");
            Emit("shr.u64 " + t + ", " + h + ", 29");
            Emit("xor.b64 " + h + ", " + h + ", " + t);
        };
        std::vector<Key> mine;
        for (size_t c = 0; c < k_.inputs.size(); ++c) {
            Key k = LoadKey(c, in_ptr[c], in_vptr[c], i);
            if (kernel::IsStringType(k_.inputs[c].type)) {
                // the length, then every byte
                std::string len = Q(), j = Q(), ba = Q(), w = Q(), b8 = R(), pj = P();
                std::string loop = "$GH" + std::to_string(labels_) + "L", end = "$GH" + std::to_string(labels_++) + "E";
                Emit("sub.u64 " + len + ", " + k.hi + ", " + k.lo);
                mix(len);
                Emit("mov.u64 " + j + ", " + k.lo);
                Emit("setp.ge.u64 " + pj + ", " + j + ", " + k.hi);
                Emit("@" + pj + " bra " + end);
                body_ << loop << ":\n";
                Emit("add.u64 " + ba + ", " + str_bytes_[in_ptr[c]] + ", " + j);
                Emit("ld.global.u8 " + b8 + ", [" + ba + "]");
                Emit("cvt.u64.u32 " + w + ", " + b8);
                Emit("xor.b64 " + h + ", " + h + ", " + w);
                Emit("mul.lo.u64 " + h + ", " + h + ", -4417276706812531889");
                Emit("add.u64 " + j + ", " + j + ", 1");
                Emit("setp.lt.u64 " + pj + ", " + j + ", " + k.hi);
                Emit("@" + pj + " bra " + loop);
                body_ << end << ":\n";
            } else {
                mix(k.lo);
                if (!k.hi.empty()) mix(k.hi);
            }
            if (!k.valid.empty()) {
                std::string m = Q();
                Emit("selp.b64 " + m + ", 0, 6148914691236517205, " + k.valid);
                mix(m);
            }
            mine.push_back(k);
        }
        std::string slot = Q();
        Emit("and.b64 " + slot + ", " + h + ", " + mask);
        body_ << "$GPROBE:\n";
        std::string sa = Q(), old = Q(), pe = P();
        Emit("shl.b64 " + sa + ", " + slot + ", 3");
        Emit("add.u64 " + sa + ", " + table + ", " + sa);
        // a plain load first: a claimed slot never changes again, so a row number read here is
        // final and needs no atomic (few groups: every row would otherwise contend for one line);
        // an empty slot (or a stale read of one) goes through the CAS
        Emit("ld.global.u64 " + old + ", [" + sa + "]");
        Emit("setp.ne.s64 " + pe + ", " + old + ", -1");
        Emit("@" + pe + " bra $GCMP");
        Emit("atom.global.cas.b64 " + old + ", [" + sa + "], -1, " + i);
        Emit("setp.eq.s64 " + pe + ", " + old + ", -1");
        Emit("@" + pe + " bra $GFOUND");
        body_ << "$GCMP:\n";
        // the slot belongs to row `old`: same key tuple?
        std::string same = P();
        Emit("setp.eq.u32 " + same + ", " + zero32_ + ", 0");
        for (size_t c = 0; c < k_.inputs.size(); ++c) {
            Key o = LoadKey(c, in_ptr[c], in_vptr[c], old);
            std::string e = P();
            if (kernel::IsStringType(k_.inputs[c].type)) {
                // equal lengths, then byte by byte (skipped once a key differs)
                std::string li = Q(), lo = Q(), j = Q(), ai = Q(), ao = Q(), x = R(), y = R(), pj = P(), ne = P(), differ = P();
                std::string id = std::to_string(labels_++);
                Emit("sub.u64 " + li + ", " + mine[c].hi + ", " + mine[c].lo);
                Emit("sub.u64 " + lo + ", " + o.hi + ", " + o.lo);
                Emit("setp.eq.u64 " + e + ", " + li + ", " + lo);
                Emit("and.pred " + same + ", " + same + ", " + e);
                Emit("not.pred " + differ + ", " + same);
                Emit("@" + differ + " bra $GC" + id + "E");
                Emit("mov.u64 " + j + ", 0");
                Emit("setp.ge.u64 " + pj + ", " + j + ", " + li);
                Emit("@" + pj + " bra $GC" + id + "E");
                body_ << "$GC" << id << "L:\n";
                Emit("add.u64 " + ai + ", " + mine[c].lo + ", " + j);
                Emit("add.u64 " + ai + ", " + str_bytes_[in_ptr[c]] + ", " + ai);
                Emit("add.u64 " + ao + ", " + o.lo + ", " + j);
                Emit("add.u64 " + ao + ", " + str_bytes_[in_ptr[c]] + ", " + ao);
                Emit("ld.global.u8 " + x + ", [" + ai + "]");
                Emit("ld.global.u8 " + y + ", [" + ao + "]");
                Emit("setp.ne.u32 " + ne + ", " + x + ", " + y);
                Emit("@" + ne + " bra $GC" + id + "N");
                Emit("add.u64 " + j + ", " + j + ", 1");
                Emit("setp.lt.u64 " + pj + ", " + j + ", " + li);
                Emit("@" + pj + " bra $GC" + id + "L");
                Emit("bra $GC" + id + "E");
                body_ << "$GC" << id << "N:\n";
                Emit("setp.ne.u32 " + same + ", " + zero32_ + ", 0");
                body_ << "$GC" << id << "E:\n";
            } else {
                Emit("setp.eq.u64 " + e + ", " + o.lo + ", " + mine[c].lo);
                Emit("and.pred " + same + ", " + same + ", " + e);
            }
            if (!o.hi.empty() && !kernel::IsStringType(k_.inputs[c].type)) {
                Emit("setp.eq.u64 " + e + ", " + o.hi + ", " + mine[c].hi);
                Emit("and.pred " + same + ", " + same + ", " + e);
            }
            if (!o.valid.empty()) {
                Emit("xor.pred " + e + ", " + o.valid + ", " + mine[c].valid);
                Emit("not.pred " + e + ", " + e);
                Emit("and.pred " + same + ", " + same + ", " + e);
            }
        }
        Emit("@" + same + " bra $GFOUND");
        Emit("add.u64 " + slot + ", " + slot + ", 1");
        Emit("and.b64 " + slot + ", " + slot + ", " + mask);
        Emit("bra $GPROBE");
        body_ << "$GFOUND:\n";
        // the row writes the row that claimed its group's slot (itself after a successful CAS,
        // where old is -1): the host numbers groups over row-sized arrays, not the table
        std::string oa = Q(), s32 = R(), owner = Q(), mine_claim = P();
        Emit("setp.eq.s64 " + mine_claim + ", " + old + ", -1");
        Emit("selp.b64 " + owner + ", " + i + ", " + old + ", " + mine_claim);
        Emit("shl.b64 " + oa + ", " + i + ", 2");
        Emit("add.u64 " + oa + ", " + slots + ", " + oa);
        Emit("cvt.u32.u64 " + s32 + ", " + owner);
        Emit("st.global.u32 [" + oa + "], " + s32);
        Emit("add.u64 " + i + ", " + i + ", " + stride);
        Emit("setp.lt.u64 " + pi + ", " + i + ", " + n);
        Emit("@" + pi + " bra $GROW");
        body_ << "$GDONE:\n";
        Emit("ret");
        return Entry(params.str());
    }

    // The kernel's entry: its parameters, the register declarations and the body emitted so far.
    std::string Entry(const std::string &params) const {
        std::ostringstream os;
        os << ".visible .entry " << k_.name << "(" << params << ")\n{\n";
        os << ".reg .pred %p<" << np_ + 1 << ">;\n.reg .b32 %r<" << nr_ + 1 << ">;\n.reg .b64 %rd<" << nq_ + 1 << ">;\n.reg .f64 %fd<"
           << nf_ + 1 << ">;\n";
        os << body_.str() << "}\n";
        return os.str();
    }

    // The type of a statement's target (the sunk chain's values).
    hir::Type SlotType(int slot) const {
        for (const auto &s : p_.entry->body)
            for (size_t t = 0; t < s.targets.size(); ++t)
                if (s.targets[t].slot == slot && t < s.expr.types.size()) return s.expr.types[t];
        return hir::Type();
    }
    // A per-cell kernel by rows computes the element-wise chains SinkIntoByRows moved into it
    // (maps and gathers ahead of its reductions).
    bool HasRowChain() const {
        return std::any_of(k_.stmts.begin(), k_.stmts.end(), [](const KernelStmt &ks) { return ks.form == Form::ELEMENTWISE || ks.form == Form::GATHER; });
    }
    // True when a reduction's source is computed by such a chain (not an input).
    bool ComputedInKernel(int slot) const {
        for (const auto &ks : k_.stmts)
            if ((ks.form == Form::ELEMENTWISE || ks.form == Form::GATHER) && p_.entry->body[static_cast<size_t>(ks.stmt)].targets[0].slot == slot) return true;
        return false;
    }
    // The scalar inputs (literals, one-element values) of such a kernel, loaded once at the head.
    Expected<std::map<size_t, Val>> LoadScalars(const std::vector<std::string> &in_ptr, const std::vector<std::string> &in_vptr) {
        std::map<size_t, Val> scalars;
        std::string zero;
        for (size_t i = 1; i < k_.inputs.size(); ++i) {
            if (!k_.inputs[i].scalar) continue;
            if (zero.empty()) {
                zero = Q();
                Emit("mov.u64 " + zero + ", 0");
            }
            RNDN_ASSIGN_OR_RETURN(Val v, Load(k_.inputs[i].type, in_ptr[i], in_vptr[i], zero));
            scalars[i] = v;
        }
        return scalars;
    }
    // The chain for row `row`, in program order: the row's inputs load at it (checked against
    // their lengths when check_rows: the cells form visits rows in cell order), gathers at their
    // index (checked: out of range sets ovf_any, the host re-runs on the interpreter), scalars
    // from `scalars`.  Each target's value goes into vals.
    Status RowChain(const std::string &row, bool check_rows, const std::vector<std::string> &in_ptr, const std::vector<std::string> &in_vptr,
                    const std::vector<std::string> &in_len, const std::map<size_t, Val> &scalars, std::map<int, Val> &vals,
                    const std::string &ovf_any) {
        auto checked_load = [&](size_t i, const std::string &at) -> Expected<Val> {
            if (in_len[i].empty()) return Load(k_.inputs[i].type, in_ptr[i], in_vptr[i], at);
            std::string ok = P(), bad = P();
            Emit("setp.lt.u64 " + ok + ", " + at + ", " + in_len[i]);
            Emit("not.pred " + bad + ", " + ok);
            Emit("or.pred " + ovf_any + ", " + ovf_any + ", " + bad);
            guard_ = ok;
            auto v = Load(k_.inputs[i].type, in_ptr[i], in_vptr[i], at);
            guard_.clear();
            return v;
        };
        auto arg = [&](const hir::Operand &o) -> Expected<Val> {
            for (size_t i = 1; i < k_.inputs.size(); ++i)
                if (o.kind == hir::Operand::Kind::LITERAL ? k_.inputs[i].literal == &o
                                                          : (!k_.inputs[i].literal && !k_.inputs[i].random_access && k_.inputs[i].slot == o.slot && k_.inputs[i].scalar)) {
                    auto it = scalars.find(i);
                    if (it == scalars.end()) return Status::Internal("by-rows kernel: scalar input not loaded");
                    return it->second;
                }
            if (o.kind != hir::Operand::Kind::NAME) return Status::Internal("by-rows kernel: operand without its input");
            auto it = vals.find(o.slot);
            if (it != vals.end()) return it->second;
            for (size_t i = 1; i < k_.inputs.size(); ++i)
                if (!k_.inputs[i].literal && !k_.inputs[i].random_access && !k_.inputs[i].scalar && k_.inputs[i].slot == o.slot) {
                    RNDN_ASSIGN_OR_RETURN(Val v, check_rows ? checked_load(i, row) : Load(k_.inputs[i].type, in_ptr[i], in_vptr[i], row));
                    vals[o.slot] = v;
                    return v;
                }
            return Status::Internal("by-rows kernel: operand " + o.name + " missing from the inputs");
        };
        const auto &body = p_.entry->body;
        for (const auto &ks : k_.stmts) {
            if (ks.form != Form::ELEMENTWISE && ks.form != Form::GATHER) continue;
            const hir::Stmt &s = body[static_cast<size_t>(ks.stmt)];
            const int slot = s.targets[0].slot;
            if (ks.form == Form::GATHER) {
                RNDN_ASSIGN_OR_RETURN(Val idx, arg(s.expr.args[1]));
                RNDN_ASSIGN_OR_RETURN(vals[slot], Gather(1, s, idx, in_ptr, in_vptr, in_len, ovf_any));
                continue;
            }
            std::vector<Val> av;
            for (const auto &a : s.expr.args) {
                RNDN_ASSIGN_OR_RETURN(Val v, arg(a));
                av.push_back(v);
            }
            RNDN_ASSIGN_OR_RETURN(Val d, Elementwise(ks, s.expr.types[0], std::move(av), ovf_any));
            vals[slot] = d;
        }
        return Status::Ok();
    }

    // A gather `s` = @index(x, idx) from the random-access input holding x (searched from
    // `first`): idx is checked against x's length (a NULL index or one out of range sets ovf_any:
    // the host re-runs on the interpreter, which raises the error), the load guarded by it.
    Expected<Val> Gather(size_t first, const hir::Stmt &s, const Val &idx, const std::vector<std::string> &in_ptr,
                         const std::vector<std::string> &in_vptr, const std::vector<std::string> &in_len, const std::string &ovf_any) {
        size_t j = first;
        while (j < k_.inputs.size() && !(k_.inputs[j].random_access && k_.inputs[j].slot == s.expr.args[0].slot)) ++j;
        if (j == k_.inputs.size() || in_len[j].empty()) return Status::Internal("gather source missing from the kernel inputs");
        std::string ok = P(), bad = P();
        Emit("setp.lt.u64 " + ok + ", " + idx.r + ", " + in_len[j]);
        if (!idx.valid.empty()) Emit("and.pred " + ok + ", " + ok + ", " + idx.valid);  // NULL index: an error
        Emit("not.pred " + bad + ", " + ok);
        Emit("or.pred " + ovf_any + ", " + ovf_any + ", " + bad);
        guard_ = ok;
        auto v = Load(k_.inputs[j].type, in_ptr[j], in_vptr[j], idx.r);
        guard_.clear();
        return v;
    }

    // One element-wise statement (a templates.def pattern plus validity and overflow).
    Expected<Val> Elementwise(const KernelStmt &ks, const hir::Type &rt, std::vector<Val> av, const std::string &ovf_any) {
        if (av.size() == 2 && av[0].cls != av[1].cls && (av[0].cls == VClass::S32 || av[0].cls == VClass::S64) &&
            (av[1].cls == VClass::S32 || av[1].cls == VClass::S64)) {
            // mixed integer widths (ElementwiseSupported): the s32 operand widens to s64
            for (auto &v : av)
                if (v.cls == VClass::S32) {
                    std::string w = Q();
                    Emit("cvt.s64.s32 " + w + ", " + v.r);
                    v.r = w;
                    v.cls = VClass::S64;
                }
        }
        VClass cls = av[0].cls;
        if (cls == VClass::DEC && av.size() == 2 && ks.op != "mul") {
            int sc = std::max(av[0].scale, av[1].scale);
            av[0] = Rescale(av[0], sc, ovf_any);
            av[1] = Rescale(av[1], sc, ovf_any);
        }
        Val d;
        d.cls = kernel::IsComparison(ks.op) ? VClass::PRED : cls;
        if (rt.kind == hir::TypeKind::BOOL) d.cls = VClass::PRED;
        d.scale = kernel::ClassOf(rt) == VClass::DEC ? rt.scale : 0;
        d.r = Reg(d.cls);
        if (d.cls == VClass::DEC) d.hi = Q();
        std::string ovf;
        if (cls == VClass::STR) {
            // byte-wise equality (str/sym compare by bytes): lengths, then a loop over the bytes
            if (ks.op != "eq" && ks.op != "neq") return Status::Internal("strings only compare for equality in kernels");
            std::string la = Q(), lb = Q(), j = Q(), x = Q(), y = Q(), ca = R(), cb = R(), p = P(), eq = P();
            std::string L = "$STR" + std::to_string(labels_++);
            Emit("sub.u64 " + la + ", " + av[0].hi + ", " + av[0].r);
            Emit("sub.u64 " + lb + ", " + av[1].hi + ", " + av[1].r);
            Emit("setp.eq.u64 " + eq + ", " + la + ", " + lb);
            Emit("@!" + eq + " bra " + L + "_END");
            Emit("mov.u64 " + j + ", 0");
            body_ << L << "_LOOP:\n";
            Emit("setp.ge.u64 " + p + ", " + j + ", " + la);
            Emit("@" + p + " bra " + L + "_END");
            Emit("add.u64 " + x + ", " + av[0].r + ", " + j);
            Emit("add.u64 " + x + ", " + av[0].bytes + ", " + x);
            Emit("add.u64 " + y + ", " + av[1].r + ", " + j);
            Emit("add.u64 " + y + ", " + av[1].bytes + ", " + y);
            Emit("ld.global.u8 " + ca + ", [" + x + "]");
            Emit("ld.global.u8 " + cb + ", [" + y + "]");
            Emit("add.u64 " + j + ", " + j + ", 1");
            Emit("setp.eq.u32 " + eq + ", " + ca + ", " + cb);
            Emit("@" + eq + " bra " + L + "_LOOP");
            body_ << L << "_END:\n";
            if (ks.op == "eq") Emit("mov.pred " + d.r + ", " + eq);
            else Emit("not.pred " + d.r + ", " + eq);
        } else {
            const char *pat = kernel::Pattern(ks.op, cls);
            if (!pat) return Status::Internal("no PTX pattern for @" + ks.op + " on " + kernel::VClassName(cls));
            RNDN_RETURN_IF_ERROR(Instantiate(pat, d, av, &ovf));
        }
        // validity
        bool kleene = ks.op == "and" || ks.op == "or";
        std::vector<std::string> valids;
        for (const auto &a : av)
            if (!a.valid.empty()) valids.push_back(a.valid);
        if (ks.op == "is_null" || ks.op == "is_not_null") {
            valids.clear();  // never NULL
        } else if (ks.op == "coalesce") {
            // NULL only when every operand is (an operand without a bitmap: never NULL)
            if (valids.size() == av.size()) {
                d.valid = P();
                Emit("or.pred " + d.valid + ", " + valids[0] + ", " + valids[1]);
            }
            valids.clear();
        }
        if (!valids.empty()) {
            d.valid = P();
            if (kleene && av.size() == 2) {
                // valid when both are, or when one valid operand decides (false for and, true for or)
                std::string va = av[0].valid.empty() ? "" : av[0].valid, vb = av[1].valid.empty() ? "" : av[1].valid;
                std::string both = P(), da = P(), db = P();
                bool is_and = ks.op == "and";
                auto decides = [&](const Val &v, const std::string &vv, const std::string &outp) {
                    if (is_and) Emit("not.pred " + outp + ", " + v.r);
                    else Emit("mov.pred " + outp + ", " + v.r);
                    if (!vv.empty()) Emit("and.pred " + outp + ", " + outp + ", " + vv);
                };
                decides(av[0], va, da);
                decides(av[1], vb, db);
                if (!va.empty() && !vb.empty()) Emit("and.pred " + both + ", " + va + ", " + vb);
                else Emit("mov.pred " + both + ", " + (va.empty() ? vb : va));
                Emit("or.pred " + d.valid + ", " + both + ", " + da);
                Emit("or.pred " + d.valid + ", " + d.valid + ", " + db);
            } else {
                Emit("mov.pred " + d.valid + ", " + valids[0]);
                for (size_t v = 1; v < valids.size(); ++v) Emit("and.pred " + d.valid + ", " + d.valid + ", " + valids[v]);
            }
        }
        for (const auto &a : av)
            if (!a.sel.empty()) d.sel = a.sel;
        if (!ovf.empty()) {
            // neg/abs: the interpreter checks every element, NULL ones included (SameUnary), so a
            // NULL slot holding the minimum is flagged too and the re-run gives its error
            std::string g = Include(d, !(ks.op == "neg" || ks.op == "abs"));
            Emit("and.pred " + ovf + ", " + ovf + ", " + g);
            Emit("or.pred " + ovf_any + ", " + ovf_any + ", " + ovf);
        }
        return d;
    }

    // A compaction kernel (see Kernel::compact_mask): element-wise statements computing the mask
    // (and compacted values) run per row in both passes.
    Expected<std::string> RunCompaction() {
        std::ostringstream params;
        params << ".param .u64 n";
        for (size_t i = 0; i < k_.inputs.size(); ++i) {
            params << ", .param .u64 in" << i;
            if (kernel::IsStringType(k_.inputs[i].type)) params << ", .param .u64 instr" << i;
            if (Nullable(i)) params << ", .param .u64 inv" << i;
        }
        zero32_ = R();
        Emit("mov.u32 " + zero32_ + ", 0");
        std::string n = Q();
        Emit("ld.param.u64 " + n + ", [n]");
        std::vector<std::string> in_ptr(k_.inputs.size()), in_vptr(k_.inputs.size());
        for (size_t i = 0; i < k_.inputs.size(); ++i) {
            in_ptr[i] = Param("in" + std::to_string(i));
            if (kernel::IsStringType(k_.inputs[i].type)) str_bytes_[in_ptr[i]] = Param("instr" + std::to_string(i));
            if (Nullable(i)) in_vptr[i] = Param("inv" + std::to_string(i));
        }
        std::string zero = Q();
        Emit("mov.u64 " + zero + ", 0");
        std::map<size_t, Val> scalar_vals;
        std::map<const hir::Operand *, Val> lit_vals;
        for (size_t i = 0; i < k_.inputs.size(); ++i)
            if (k_.inputs[i].scalar) {
                RNDN_ASSIGN_OR_RETURN(Val v, Load(k_.inputs[i].type, in_ptr[i], in_vptr[i], zero));
                scalar_vals[i] = v;
                if (k_.inputs[i].literal) lit_vals[k_.inputs[i].literal] = v;
            }
        const auto &body = p_.entry->body;
        std::string ovf_any = P();
        Emit("setp.ne.u32 " + ovf_any + ", " + zero32_ + ", 0");
        std::string pass = R();
        Emit("ld.param.u32 " + pass + ", [pass]");
        std::string counts = Param("counts");
        std::string err = Param("err");
        // chunk of this thread: [start, end)
        [[maybe_unused]] auto [tid, ntid, ctaid, nctaid, gid] = EmitThreadIds();
        std::string total = Q(), chunk = Q(), start = Q(), end = Q(), g64 = Q(), slot = Q();
        Emit("mul.wide.u32 " + total + ", " + ntid + ", " + nctaid);
        Emit("add.u64 " + chunk + ", " + n + ", " + total);
        Emit("sub.u64 " + chunk + ", " + chunk + ", 1");
        Emit("div.u64 " + chunk + ", " + chunk + ", " + total);
        Emit("cvt.u64.u32 " + g64 + ", " + gid);
        Emit("mul.lo.u64 " + start + ", " + g64 + ", " + chunk);
        Emit("add.u64 " + end + ", " + start + ", " + chunk);
        Emit("min.u64 " + end + ", " + end + ", " + n);
        Emit("shl.b64 " + slot + ", " + g64 + ", 3");
        Emit("add.u64 " + slot + ", " + counts + ", " + slot);
        std::string pos = Q(), i = Q(), pdone = P(), pcount = P();
        Emit("setp.eq.u32 " + pcount + ", " + pass + ", 0");
        Emit("mov.u64 " + pos + ", 0");
        Emit("@!" + pcount + " ld.global.u64 " + pos + ", [" + slot + "]");
        Emit("mov.u64 " + i + ", " + start);
        Emit("setp.ge.u64 " + pdone + ", " + i + ", " + end);
        Emit("@" + pdone + " bra $CDONE");
        body_ << "$CLOOP:\n";
        // row values: element-wise statements over loaded inputs
        std::map<int, Val> vals;
        std::map<size_t, Val> loaded;
        auto value = [&](int s) -> Expected<Val> {
            auto it = vals.find(s);
            if (it != vals.end()) return it->second;
            for (size_t j = 0; j < k_.inputs.size(); ++j) {
                if (k_.inputs[j].slot != s || k_.inputs[j].literal) continue;
                if (k_.inputs[j].scalar) return scalar_vals[j];
                if (!loaded.count(j)) {
                    RNDN_ASSIGN_OR_RETURN(Val v, Load(k_.inputs[j].type, in_ptr[j], in_vptr[j], i));
                    loaded[j] = v;
                }
                return loaded[j];
            }
            return Status::Internal("compaction kernel: no value for slot " + std::to_string(s));
        };
        for (const auto &ks : k_.stmts) {
            if (ks.form != Form::ELEMENTWISE) continue;
            const hir::Stmt &st = body[static_cast<size_t>(ks.stmt)];
            std::vector<Val> av;
            for (const auto &a : st.expr.args) {
                if (a.kind == hir::Operand::Kind::LITERAL) {
                    av.push_back(lit_vals[&a]);
                } else {
                    RNDN_ASSIGN_OR_RETURN(Val v, value(a.slot));
                    av.push_back(v);
                }
            }
            RNDN_ASSIGN_OR_RETURN(Val d, Elementwise(ks, st.expr.types[0], std::move(av), ovf_any));
            vals[st.targets[0].slot] = d;
        }
        RNDN_ASSIGN_OR_RETURN(Val m, value(k_.compact_mask));
        std::string sel = P();
        if (!m.valid.empty()) Emit("and.pred " + sel + ", " + m.r + ", " + m.valid);
        else Emit("mov.pred " + sel + ", " + m.r);
        // pass 1: copy the selected row of every compacted value to its position
        std::string write = P();
        Emit("and.pred " + write + ", " + sel + ", !" + pcount);
        Emit("@!" + write + " bra $CNEXT");
        output_nullable_.assign(k_.outputs.size(), false);
        std::string params_out;
        for (size_t o = 0; o < k_.outputs.size(); ++o) {
            int data_slot = -1;
            for (const auto &ks : k_.stmts)
                if (ks.form == Form::COMPRESS && body[static_cast<size_t>(ks.stmt)].targets[0].slot == k_.outputs[o].slot)
                    data_slot = body[static_cast<size_t>(ks.stmt)].expr.args[1].slot;
            RNDN_ASSIGN_OR_RETURN(Val x, value(data_slot));
            params << ", .param .u64 out" << o;
            std::string op = Param("out" + std::to_string(o));
            Store(k_.outputs[o].type, x, op, pos);
            if (!x.valid.empty()) {
                params << ", .param .u64 outv" << o;
                std::string vp = Param("outv" + std::to_string(o));
                std::string a = Q(), b = R();
                Emit("add.u64 " + a + ", " + vp + ", " + pos);
                Emit("selp.u32 " + b + ", 1, 0, " + x.valid);
                Emit("st.global.u8 [" + a + "], " + b);
                output_nullable_[o] = true;
            }
        }
        body_ << "$CNEXT:\n";
        std::string one = Q();
        Emit("selp.u64 " + one + ", 1, 0, " + sel);
        Emit("add.u64 " + pos + ", " + pos + ", " + one);
        Emit("add.u64 " + i + ", " + i + ", 1");
        Emit("setp.lt.u64 " + pdone + ", " + i + ", " + end);
        Emit("@" + pdone + " bra $CLOOP");
        body_ << "$CDONE:\n";
        Emit("@" + pcount + " st.global.u64 [" + slot + "], " + pos);
        std::string flag = R();
        Emit("mov.u32 " + flag + ", 1");
        Emit("@" + ovf_any + " st.global.u32 [" + err + "], " + flag);
        Emit("ret");
        params << ", .param .u64 counts, .param .u32 pass, .param .u64 err";
        return Entry(params.str());
    }

    std::string Param(const std::string &name) {
        std::string r = Q();
        Emit("ld.param.u64 " + r + ", [" + name + "]");
        Emit("cvta.to.global.u64 " + r + ", " + r);
        return r;
    }
    bool Nullable(size_t i) const { return i < nullable_.size() && nullable_[i]; }
    // A per-cell source: input i, or (i past the inputs) a value computed per row, which may be
    // NULL when any input is.
    bool SourceNullable(size_t i) const {
        if (i < k_.inputs.size()) return Nullable(i);
        for (size_t j = 0; j < k_.inputs.size(); ++j)
            if (Nullable(j)) return true;
        return false;
    }
    size_t OutputIndex(int slot) const {
        for (size_t o = 0; o < k_.outputs.size(); ++o)
            if (k_.outputs[o].slot == slot) return o;
        return 0;
    }
    void Emit(const std::string &s) { body_ << (guard_.empty() ? "" : "@" + guard_ + " ") << s << ";\n"; }
    // The thread's indices: %tid.x, %ntid.x, %ctaid.x, %nctaid.x and gid = ctaid * ntid + tid.
    struct ThreadIds {
        std::string tid, ntid, ctaid, nctaid, gid;
    };
    ThreadIds EmitThreadIds() {
        ThreadIds t{R(), R(), R(), R(), R()};
        Emit("mov.u32 " + t.tid + ", %tid.x");
        Emit("mov.u32 " + t.ntid + ", %ntid.x");
        Emit("mov.u32 " + t.ctaid + ", %ctaid.x");
        Emit("mov.u32 " + t.nctaid + ", %nctaid.x");
        Emit("mad.lo.u32 " + t.gid + ", " + t.ctaid + ", " + t.ntid + ", " + t.tid);
        return t;
    }
    // A grid-stride loop's first 64-bit index (gid) and its stride (ntid * nctaid).
    std::pair<std::string, std::string> EmitGridStride(const std::string &ntid, const std::string &nctaid, const std::string &gid) {
        std::pair<std::string, std::string> r{Q(), Q()};
        Emit("cvt.u64.u32 " + r.first + ", " + gid);
        Emit("mul.wide.u32 " + r.second + ", " + ntid + ", " + nctaid);
        return r;
    }
    std::string P() { return "%p" + std::to_string(++np_); }
    std::string R() { return "%r" + std::to_string(++nr_); }
    std::string Q() { return "%rd" + std::to_string(++nq_); }
    std::string F() { return "%fd" + std::to_string(++nf_); }
    std::string Reg(VClass c) {
        switch (c) {
            case VClass::PRED: return P();
            case VClass::U8:
            case VClass::S32: return R();
            case VClass::F64: return F();
            default: return Q();
        }
    }

    // Predicate "element takes part": selected and (optionally) valid.
    std::string Include(const Val &v, bool need_valid) {
        std::string p = P();
        std::vector<std::string> parts;
        if (!v.sel.empty()) parts.push_back(v.sel);
        if (need_valid && !v.valid.empty()) parts.push_back(v.valid);
        if (parts.empty()) Emit("setp.eq.u32 " + p + ", " + zero32_ + ", 0");
        else if (parts.size() == 1) Emit("mov.pred " + p + ", " + parts[0]);
        else Emit("and.pred " + p + ", " + parts[0] + ", " + parts[1]);
        return p;
    }

    // One element into a reduction's accumulators (lo, hi: 128-bit sum or the 64-bit min/max;
    // cnt: elements included).
    void Accumulate(const std::string &op, const Val &x, const std::string &inc, const std::string &alo, const std::string &ahi,
                    const std::string &cnt, const std::string &ovf_any) {
        std::string one = Q();
        Emit("selp.u64 " + one + ", 1, 0, " + inc);
        Emit("add.u64 " + cnt + ", " + cnt + ", " + one);
        if (op != "sum" && op != "avg" && op != "min" && op != "max") return;  // avg: the sum (the host divides)
        std::string lo = Q(), hi = Q();
        if (x.cls == VClass::S32) {
            Emit("cvt.s64.s32 " + lo + ", " + x.r);
            Emit("shr.s64 " + hi + ", " + lo + ", 63");
        } else if (x.cls == VClass::S64) {
            Emit("mov.b64 " + lo + ", " + x.r);
            Emit("shr.s64 " + hi + ", " + lo + ", 63");
        } else {
            Emit("mov.b64 " + lo + ", " + x.r);
            Emit("mov.b64 " + hi + ", " + x.hi);
        }
        if (op == "sum" || op == "avg") {
            Emit("selp.b64 " + lo + ", " + lo + ", 0, " + inc);
            Emit("selp.b64 " + hi + ", " + hi + ", 0, " + inc);
            Add128(alo, ahi, lo, hi, ovf_any);
        } else {
            std::string m = Q();
            Emit(std::string(op == "min" ? "min.s64 " : "max.s64 ") + m + ", " + alo + ", " + lo);
            Emit("selp.b64 " + alo + ", " + m + ", " + alo + ", " + inc);
        }
    }

    // A slot's sum (group_slots) adds 32-bit pieces of each value into 64-bit sums, so the
    // per-row work is an AND with the slot's mask and an add per piece, with no carries or
    // overflow tests (a thread takes under 2^31 rows: the runner's ThreadRecordsFit).  A
    // 64-bit value v: (v & 0xffffffff, v >> 32 arithmetic).  A 128-bit value (lo, hi): lo's two
    // halves unsigned, hi's low half unsigned and high half arithmetic.
    std::vector<std::string> SumPieces(const Val &x) {
        std::string v = x.r;
        if (x.cls == VClass::S32) {
            v = Q();
            Emit("cvt.s64.s32 " + v + ", " + x.r);
        }
        const bool wide = x.cls == VClass::DEC && !sign_hi_.count(x.hi);
        std::vector<std::string> out;
        auto piece = [&](const std::string &op, const std::string &src, const std::string &b) {
            out.push_back(Q());
            Emit(op + " " + out.back() + ", " + src + ", " + b);
        };
        piece("and.b64", v, "4294967295");
        piece(wide ? "shr.u64" : "shr.s64", v, "32");
        if (wide) {
            piece("and.b64", x.hi, "4294967295");
            piece("shr.s64", x.hi, "32");
        }
        return out;
    }

    // The pieces' sums (a + b 2^32 [+ c 2^64 + d 2^96]) as a 192-bit (lo, hi, top); a, c are
    // unsigned, d signed, b signed unless wide.  The host reads an overflow of 128 bits from top.
    void SumFromPieces(std::string &a, std::string &b, const std::string &c, const std::string &d, bool wide, const std::string &top) {
        std::string lo = Q(), hi = Q(), t = Q(), u = Q();
        Emit("shl.b64 " + t + ", " + b + ", 32");
        Emit(std::string(wide ? "shr.u64 " : "shr.s64 ") + u + ", " + b + ", 32");
        Emit("add.cc.u64 " + lo + ", " + a + ", " + t);
        Emit("addc.u64 " + hi + ", " + u + ", 0");
        if (!wide) {
            Emit("shr.s64 " + top + ", " + hi + ", 63");
        } else {
            std::string dl = Q(), dh = Q();
            Emit("mov.u64 " + top + ", 0");
            Emit("add.cc.u64 " + hi + ", " + hi + ", " + c);
            Emit("addc.u64 " + top + ", " + top + ", 0");
            Emit("shl.b64 " + dl + ", " + d + ", 32");
            Emit("shr.s64 " + dh + ", " + d + ", 32");
            Emit("add.cc.u64 " + hi + ", " + hi + ", " + dl);
            Emit("addc.u64 " + top + ", " + top + ", " + dh);
        }
        a = lo;
        b = hi;
    }

    // acc (lo, hi) += (lo, hi), signed overflow into ovf_any.
    void Add128(const std::string &alo, const std::string &ahi, const std::string &blo, const std::string &bhi, const std::string &ovf_any) {
        std::string old = Q(), x = Q(), y = Q(), p = P();
        Emit("mov.b64 " + old + ", " + ahi);
        Emit("add.cc.u64 " + alo + ", " + alo + ", " + blo);
        Emit("addc.u64 " + ahi + ", " + ahi + ", " + bhi);
        Emit("xor.b64 " + x + ", " + ahi + ", " + old);
        Emit("xor.b64 " + y + ", " + ahi + ", " + bhi);
        Emit("and.b64 " + x + ", " + x + ", " + y);
        Emit("setp.lt.s64 " + p + ", " + x + ", 0");
        Emit("or.pred " + ovf_any + ", " + ovf_any + ", " + p);
    }

    std::string Shfl(const std::string &v, int off) {
        std::string lo = R(), hi = R(), lo2 = R(), hi2 = R(), out = Q();
        Emit("mov.b64 {" + lo + ", " + hi + "}, " + v);
        Emit("shfl.sync.down.b32 " + lo2 + ", " + lo + ", " + std::to_string(off) + ", 31, -1");
        Emit("shfl.sync.down.b32 " + hi2 + ", " + hi + ", " + std::to_string(off) + ", 31, -1");
        Emit("mov.b64 " + out + ", {" + lo2 + ", " + hi2 + "}");
        return out;
    }

    // Decimal value brought to scale s (exact when the value fits in 64 bits and 10^(s - scale)
    // does; otherwise the element is flagged).
    Val Rescale(const Val &v, int s, const std::string &ovf_any) {
        if (v.scale == s) return v;
        int k = s - v.scale;
        Val r = v;
        r.scale = s;
        r.r = Q();
        r.hi = Q();
        std::string t = Q(), p = P();
        Emit("shr.s64 " + t + ", " + v.r + ", 63");
        Emit("setp.ne.s64 " + p + ", " + t + ", " + v.hi);
        uint64_t pow = 1;
        bool big = k > 18;
        for (int j = 0; j < k && !big; ++j) pow *= 10;
        if (big) Emit("setp.eq.u32 " + p + ", " + zero32_ + ", 0");
        std::string m = Q();
        Emit("mov.u64 " + m + ", " + std::to_string(big ? 1 : pow));
        // |v| * 10^k < 2^63 * 10^18 < 2^127: the 128-bit product of two 64-bit values is exact
        Emit("mul.lo.s64 " + r.r + ", " + v.r + ", " + m);
        Emit("mul.hi.s64 " + r.hi + ", " + v.r + ", " + m);
        std::string g = Include(v, true);
        Emit("and.pred " + p + ", " + p + ", " + g);
        Emit("or.pred " + ovf_any + ", " + ovf_any + ", " + p);
        return r;
    }

    Expected<Val> Load(const hir::Type &t, const std::string &base, const std::string &vbase, const std::string &idx) {
        Val v;
        v.cls = kernel::ClassOf(t);
        int bytes = kernel::ElementBytes(t);
        if (v.cls == VClass::STR) {
            // offsets[idx], offsets[idx + 1] into the bytes
            std::string a = Q();
            v.r = Q();
            v.hi = Q();
            v.bytes = str_bytes_[base];
            Emit("shl.b64 " + a + ", " + idx + ", 3");
            Emit("add.u64 " + a + ", " + base + ", " + a);
            Emit("ld.global.u64 " + v.r + ", [" + a + "]");
            Emit("ld.global.u64 " + v.hi + ", [" + a + "+8]");
            bytes = 1;
        }
        if (v.cls == VClass::NONE || bytes == 0) return Status::Unsupported("kernels do not take " + hir::TypeToString(t));
        if (v.cls == VClass::STR) {
            if (!vbase.empty()) {
                std::string w = Q(), wa = Q(), sh6 = R(), bit = Q();
                v.valid = P();
                Emit("shr.u64 " + wa + ", " + idx + ", 6");
                Emit("shl.b64 " + wa + ", " + wa + ", 3");
                Emit("add.u64 " + wa + ", " + vbase + ", " + wa);
                Emit("ld.global.u64 " + w + ", [" + wa + "]");
                Emit("cvt.u32.u64 " + sh6 + ", " + idx);
                Emit("and.b32 " + sh6 + ", " + sh6 + ", 63");
                Emit("shr.b64 " + bit + ", " + w + ", " + sh6);
                Emit("and.b64 " + bit + ", " + bit + ", 1");
                Emit("setp.ne.u64 " + v.valid + ", " + bit + ", 0");
            }
            return v;
        }
        std::string a = Q();
        int sh = bytes == 1 ? 0 : bytes == 2 ? 1 : bytes == 4 ? 2 : bytes == 8 ? 3 : 4;
        if (sh) {
            Emit("shl.b64 " + a + ", " + idx + ", " + std::to_string(sh));
            Emit("add.u64 " + a + ", " + base + ", " + a);
        } else {
            Emit("add.u64 " + a + ", " + base + ", " + idx);
        }
        switch (v.cls) {
            case VClass::S32:
                if (bytes == 2) {
                    v.r = R();
                    Emit("ld.global.s16 " + v.r + ", [" + a + "]");
                    break;
                }
                v.r = R();
                Emit("ld.global.s32 " + v.r + ", [" + a + "]");
                break;
            case VClass::PRED: {
                std::string r = R();
                v.r = P();
                Emit("ld.global.u8 " + r + ", [" + a + "]");
                Emit("setp.ne.u32 " + v.r + ", " + r + ", 0");
                break;
            }
            case VClass::U8:
                v.r = R();
                Emit("ld.global.u8 " + v.r + ", [" + a + "]");
                break;
            case VClass::S64:
                v.r = Q();
                Emit("ld.global.s64 " + v.r + ", [" + a + "]");
                break;
            case VClass::F64:
                v.r = F();
                Emit("ld.global.f64 " + v.r + ", [" + a + "]");
                break;
            case VClass::DEC:
                v.r = Q();
                v.hi = Q();
                v.scale = t.scale;
                Emit("ld.global.s64 " + v.r + ", [" + a + "]");
                if (bytes == 16) Emit("ld.global.s64 " + v.hi + ", [" + a + "+8]");
                else {
                    Emit("shr.s64 " + v.hi + ", " + v.r + ", 63");
                    sign_hi_.insert(v.hi);
                }
                break;
            default: break;
        }
        if (!vbase.empty()) {
            std::string w = Q(), wa = Q(), sh6 = R(), bit = Q();
            v.valid = P();
            Emit("shr.u64 " + wa + ", " + idx + ", 6");
            Emit("shl.b64 " + wa + ", " + wa + ", 3");
            Emit("add.u64 " + wa + ", " + vbase + ", " + wa);
            Emit("ld.global.u64 " + w + ", [" + wa + "]");
            Emit("cvt.u32.u64 " + sh6 + ", " + idx);
            Emit("and.b32 " + sh6 + ", " + sh6 + ", 63");
            Emit("shr.b64 " + bit + ", " + w + ", " + sh6);
            Emit("and.b64 " + bit + ", " + bit + ", 1");
            Emit("setp.ne.u64 " + v.valid + ", " + bit + ", 0");
        }
        return v;
    }

    void Store(const hir::Type &t, const Val &v, const std::string &base, const std::string &idx) {
        int bytes = kernel::ElementBytes(t);
        std::string a = Q();
        int sh = bytes == 1 ? 0 : bytes == 2 ? 1 : bytes == 4 ? 2 : bytes == 8 ? 3 : 4;
        if (sh) {
            Emit("shl.b64 " + a + ", " + idx + ", " + std::to_string(sh));
            Emit("add.u64 " + a + ", " + base + ", " + a);
        } else {
            Emit("add.u64 " + a + ", " + base + ", " + idx);
        }
        switch (v.cls) {
            case VClass::PRED: {
                std::string r = R();
                Emit("selp.u32 " + r + ", 1, 0, " + v.r);
                Emit("st.global.u8 [" + a + "], " + r);
                break;
            }
            case VClass::U8: Emit("st.global.u8 [" + a + "], " + v.r); break;
            case VClass::S32: Emit(std::string(bytes == 2 ? "st.global.u16 [" : "st.global.u32 [") + a + "], " + v.r); break;
            case VClass::S64: Emit("st.global.u64 [" + a + "], " + v.r); break;
            case VClass::F64: Emit("st.global.f64 [" + a + "], " + v.r); break;
            case VClass::DEC:
                Emit("st.global.u64 [" + a + "], " + v.r);
                if (bytes == 16) Emit("st.global.u64 [" + a + "+8], " + v.hi);
                break;
            default: break;
        }
    }

    // Instantiates a pattern: placeholders -> registers.
    Status Instantiate(const char *pat, const Val &d, const std::vector<Val> &av, std::string *ovf) {
        std::map<std::string, std::string> m;
        m["d"] = d.r;
        m["d.lo"] = d.r;
        m["d.hi"] = d.hi;
        const char *names[] = {"a", "b"};
        for (size_t j = 0; j < av.size() && j < 2; ++j) {
            m[names[j]] = av[j].r;
            m[std::string(names[j]) + ".lo"] = av[j].r;
            m[std::string(names[j]) + ".hi"] = av[j].hi;
            // {a.valid}: the operand's validity, true when it carries no bitmap
            const std::string vkey = std::string(names[j]) + ".valid";
            if (std::strstr(pat, ("{" + vkey + "}").c_str()) == nullptr) continue;
            if (av[j].valid.empty()) {
                std::string t = P();
                Emit("setp.eq.u32 " + t + ", " + zero32_ + ", 0");
                m[vkey] = t;
            } else {
                m[vkey] = av[j].valid;
            }
        }
        std::string text(pat), out;
        for (size_t pos = 0; pos < text.size();) {
            if (text[pos] != '{') {
                out += text[pos++];
                continue;
            }
            size_t end = text.find('}', pos);
            if (end == std::string::npos) return Status::Internal(std::string("bad PTX pattern: ") + pat);
            std::string key = text.substr(pos + 1, end - pos - 1);
            pos = end + 1;
            auto it = m.find(key);
            if (it == m.end()) {
                if (key == "ovf") it = m.emplace(key, *ovf = P()).first;
                else if (key[0] == 'p') it = m.emplace(key, P()).first;
                else if (key[0] == 'r') it = m.emplace(key, R()).first;
                else if (key[0] == 'q') it = m.emplace(key, Q()).first;
                else return Status::Internal("bad placeholder {" + key + "} in PTX pattern");
            }
            if (it->second.empty()) return Status::Internal("placeholder {" + key + "} has no register");
            out += it->second;
        }
        // split on ';'
        size_t s = 0;
        while (s < out.size()) {
            size_t e = out.find(';', s);
            if (e == std::string::npos) e = out.size();
            std::string ins = out.substr(s, e - s);
            size_t b = ins.find_first_not_of(' ');
            if (b != std::string::npos) Emit(ins.substr(b));
            s = e + 1;
        }
        return Status::Ok();
    }

    const OutlinedProgram &p_;
    const Kernel &k_;
    std::vector<bool> nullable_;
    bool warp_reduce_ = true;
    std::ostringstream body_;
    std::string head_extra_, params_out_, zero32_;
    std::set<std::string> sign_hi_;  // DEC hi registers that only hold their r's sign (a dec64 loaded)
    std::string guard_;  // predicate on every emitted instruction (gathers: in-bounds rows only)
    std::map<std::string, std::string> str_bytes_;  // offsets pointer register -> bytes pointer register
    int labels_ = 0;
    std::vector<bool> output_nullable_;
    int np_ = 0, nr_ = 0, nq_ = 0, nf_ = 0;
};

Expected<ptx::Module> Finish(const std::string &text, const std::string &name) {
    RNDN_ASSIGN_OR_RETURN(ptx::Module m, ptx::ParseModule(text, name));
    Status st = ptx::Verify(m);
    if (!st.ok()) return Status::Internal("generated PTX does not verify: " + st.message() + "\n" + text);
    return m;
}

std::string Header(const PtxOptions &o) { return ".version 8.7\n.target " + o.target + "\n.address_size 64\n\n"; }

}  // namespace

std::vector<const KernelStmt *> CellReductions(const hir::Function &entry, const Kernel &k) {
    const auto &body = entry.body;
    std::vector<const KernelStmt *> red(k.outputs.size(), nullptr);
    for (size_t o = 0; o < k.outputs.size(); ++o)
        for (const auto &rz : k.stmts) {
            if (rz.form != Form::RAZE || body[static_cast<size_t>(rz.stmt)].targets[0].slot != k.outputs[o].slot) continue;
            for (const auto &ks : k.stmts)
                if (ks.form == Form::SEGREDUCE && body[static_cast<size_t>(ks.stmt)].targets[0].slot == body[static_cast<size_t>(rz.stmt)].expr.args[0].slot)
                    red[o] = &ks;
        }
    return red;
}

Expected<std::string> KernelPtxText(const OutlinedProgram &p, int kernel, const PtxOptions &options, std::vector<bool> *output_nullable) {
    const Kernel &k = p.kernels[static_cast<size_t>(kernel)];
    std::vector<bool> nullable;
    if (static_cast<size_t>(kernel) < options.nullable.size()) nullable = options.nullable[static_cast<size_t>(kernel)];
    Gen g(p, k, nullable, options.warp_reduce);
    RNDN_ASSIGN_OR_RETURN(std::string t, k.group >= 0 ? g.RunGroup() : k.by_rows && ((options.warp_reduce && options.group_atomics) || options.group_thread_records) ? g.RunGroupReduce(options.group_thread_records, options.group_slots) : k.segments >= 0 ? g.RunSegmented() : k.compact_mask >= 0 ? g.RunCompaction() : g.Run());
    if (output_nullable) *output_nullable = g.output_nullable();
    return t;
}

Expected<ptx::Module> GenerateKernelPtx(const OutlinedProgram &p, int kernel, const PtxOptions &options) {
    if (kernel < 0 || static_cast<size_t>(kernel) >= p.kernels.size()) return Status::Internal("no such kernel");
    RNDN_ASSIGN_OR_RETURN(std::string t, KernelPtxText(p, kernel, options, nullptr));
    return Finish(Header(options) + t, p.kernels[static_cast<size_t>(kernel)].name + ".ptx");
}

Expected<ptx::Module> GeneratePtx(const OutlinedProgram &p, const PtxOptions &options) {
    std::string text = Header(options);
    for (size_t k = 0; k < p.kernels.size(); ++k) {
        RNDN_ASSIGN_OR_RETURN(std::string t, KernelPtxText(p, static_cast<int>(k), options, nullptr));
        text += t + "\n";
    }
    return Finish(text, (p.program ? p.program->filename : std::string("program")) + ".ptx");
}

}  // namespace rndn::codegen
