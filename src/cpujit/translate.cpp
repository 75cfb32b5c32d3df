// Translation of one PTX kernel (kernel IR, calls inlined) into an LLVM 14 function
// `i32 fn(i8* ctx)` following the ABI in rt.h.
//
// Every PTX register is an alloca of its width (predicates i1, floats kept as integer bits);
// mem2reg turns them into SSA.  Each synchronisation point (bar.sync, shfl/vote/match.sync,
// activemask, bar.warp.sync) is a cut: the inputs go to ctx->coll_*, all registers are spilled
// to ctx->frame, and the function returns the cut's id; the entry block's switch on ctx->resume
// reloads the registers and continues after the cut, reading the collective's result.
#include <functional>
#include <unordered_map>
#include <unordered_set>

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>

#include "cpujit/rt.h"
#include "cpujit/translate.h"
#include "cpujit/contiguity.h"

namespace rndn::cpujit {
namespace {

using llvm::BasicBlock;
using llvm::Type;
using llvm::Value;

struct Ty {
    int bits = 0;
    char cls = 'b';  // b u s f p
    bool is_float() const { return cls == 'f'; }
    bool is_signed() const { return cls == 's'; }
};

Ty ParseTy(const std::string &s) {
    Ty t;
    if (s == "pred") return {1, 'p'};
    int b = kir::TypeBits(s);
    if (b == 0 || s == "f16" || s == "f16x2" || s == "bf16") return t;
    t.bits = b;
    t.cls = s[0];
    return t;
}

struct SymInfo {
    enum Space : uint8_t { ABS, SHARED, LOCAL, KPARAM } space;
    uint64_t value;  // host address (ABS) or offset
    uint64_t size;
};

uint64_t AlignUp(uint64_t v, uint64_t a) { return a <= 1 ? v : (v + a - 1) / a * a; }

// Synchronisation points (cuts) of the per-thread model.
bool HasCuts(const kir::Function &f) {
    static const char *const kCutOps[] = {"bar", "barrier", "shfl", "vote", "match", "activemask"};
    for (auto &in : f.body)
        for (auto *op : kCutOps)
            if (in.op == op) return true;
    return false;
}

class FnTranslator;
using Handler = void (FnTranslator::*)(const kir::Instr &);

class FnTranslator {
public:
    FnTranslator(const kir::Module &m, const kir::Function &f, const GlobalAddrs &globals, llvm::Module &mod,
                 KernelPlan &plan)
        : m_(m), f_(f), globals_(globals), M_(mod), C_(mod.getContext()), B_(C_), plan_(plan) {}

    Status Run();

private:
    const kir::Module &m_;
    const kir::Function &f_;
    const GlobalAddrs &globals_;
    llvm::Module &M_;
    llvm::LLVMContext &C_;
    llvm::IRBuilder<> B_;
    KernelPlan &plan_;
    llvm::Function *fn_ = nullptr;
    Value *ctx_ = nullptr;
    llvm::SwitchInst *dispatch_ = nullptr;
    struct RegSlot {
        Value *slot;
        int bits;
        int index;
    };
    std::unordered_map<std::string, RegSlot> regs_;
    std::vector<std::string> reg_order_;
    std::unordered_map<std::string, BasicBlock *> labels_;
    std::unordered_map<std::string, SymInfo> syms_;
    const kir::Instr *cur_ = nullptr;
    std::string err_;
    // Warp mode (lock-step): one call runs the 32 lanes of a warp; every value is a lane vector,
    // control flow follows per-lane program counters (block ids) under an active mask.
    int W_ = 1;
    Value *em_ = nullptr;        // lanes the current instruction runs for (<W x i1>)
    Value *cur_lane_ = nullptr;  // inside PerLane: the lane index (i32)
    Value *block_mask_ = nullptr;
    llvm::AllocaInst *pc_slot_ = nullptr, *live_slot_ = nullptr, *mask_slot_ = nullptr;
    BasicBlock *dispatch_bb_ = nullptr, *warp_done_bb_ = nullptr;
    void ExitLanes(Value *live) {  // stores the live lanes and continues (returns when none is left)
        B_.CreateStore(live, live_slot_);
        B_.CreateCondBr(B_.CreateICmpEQ(MaskBits(live), SCI(W_, 0)), warp_done_bb_, dispatch_bb_);
    }
    std::vector<BasicBlock *> wblocks_;
    std::unordered_map<std::string, int> label_block_;
    int cur_block_ = 0;
    std::unordered_map<std::string, Value *> wspecial_;  // special registers (i32 lane vectors)
    Value *local_lanes_ = nullptr;                       // <W x i64>: each lane's local window
    std::unordered_set<std::string> exposed_;  // registers some block reads before writing them
    // Registers holding one value for all lanes (kept scalar): written once, by a pure
    // instruction of uniform operands (kernel parameters, launch-wide specials, immediates, other
    // uniform registers; module variables only in the entry block), so every lane that has run the
    // write holds the same value whenever it ran it.  The instructions that write them.
    std::unordered_set<std::string> uniform_regs_;
    std::unordered_set<const kir::Instr *> uniform_instrs_;
    void FindUniform(size_t entry_end);
    Value *LoadReg(const std::string &name, const RegSlot &r) {
        if (uniform_regs_.count(name)) {
            Value *v = B_.CreateLoad(S(r.bits), r.slot);
            return W_ > 1 ? B_.CreateVectorSplat(W_, v) : v;
        }
        return B_.CreateLoad(I(r.bits), r.slot);
    }
    void FindExposed(const std::vector<size_t> &starts);

    // ---- basic helpers ----
    // Value types are per lane: a scalar when the function runs one PTX thread (W_ == 1), a
    // vector of W_ elements when it runs a whole warp in lock-step.  S/SCI are always scalar.
    Type *Lane(Type *t) { return W_ == 1 ? t : llvm::FixedVectorType::get(t, W_); }
    Type *S(int bits) { return llvm::IntegerType::get(C_, bits); }
    Value *SCI(int bits, uint64_t v) { return llvm::ConstantInt::get(S(bits), v); }
    Type *I(int bits) { return Lane(S(bits)); }
    Type *SFT(int bits) { return bits == 64 ? B_.getDoubleTy() : B_.getFloatTy(); }
    Type *FT(int bits) { return Lane(SFT(bits)); }
    Value *CI(int bits, uint64_t v) { return llvm::ConstantInt::get(I(bits), v); }
    void Fail(const std::string &msg) {
        if (err_.empty()) err_ = "line " + std::to_string(cur_ ? cur_->line : 0) + ": " + msg;
    }
    BasicBlock *NewBlock(const char *name) { return BasicBlock::Create(C_, name, fn_); }
    // rc = f(ctx); a non-zero rc is returned at once, else code continues in a new block
    void CallOrReturn(llvm::Function *f) {
        Value *rc = B_.CreateCall(f, {ctx_});
        BasicBlock *fail = NewBlock("fail"), *next = NewBlock("next");
        B_.CreateCondBr(B_.CreateICmpNE(rc, SCI(32, 0)), fail, next);
        B_.SetInsertPoint(fail);
        B_.CreateRet(rc);
        B_.SetInsertPoint(next);
    }
    // `i32 name(i8* ctx)`, the signature of every generated thread, warp and CTA function
    llvm::Function *NewKernelFn(const std::string &name) {
        auto *fty = llvm::FunctionType::get(S(32), {B_.getInt8PtrTy()}, false);
        llvm::Function *f = llvm::Function::Create(fty, llvm::Function::ExternalLinkage, name, &M_);
        f->addParamAttr(0, llvm::Attribute::NoAlias);
        f->addFnAttr(llvm::Attribute::NoUnwind);
        return f;
    }
    bool Terminated() { return B_.GetInsertBlock()->getTerminator() != nullptr; }

    Value *CtxPtr(unsigned off, Type *t) {
        Value *p = B_.CreateConstInBoundsGEP1_64(B_.getInt8Ty(), ctx_, off);
        return B_.CreateBitCast(p, t->getPointerTo());
    }
    Value *CtxLoad(unsigned off, Type *t) { return B_.CreateLoad(t, CtxPtr(off, t)); }
    void CtxStore(unsigned off, Value *v) { B_.CreateStore(v, CtxPtr(off, v->getType())); }

    llvm::FunctionCallee Helper(const char *name, Type *ret, std::vector<Type *> args) {
        return M_.getOrInsertFunction(name, llvm::FunctionType::get(ret, args, false));
    }
    Value *Intr(llvm::Intrinsic::ID id, std::vector<Type *> tys, std::vector<Value *> args) {
        llvm::Function *f = llvm::Intrinsic::getDeclaration(&M_, id, tys);
        return B_.CreateCall(f, args);
    }

    // ---- lanes (warp mode) ----
    // Runs `body` once for every lane set in `mask`, in lane order, on the lanes' elements of
    // `args` (scalar arguments pass through); the body emits scalar code.  Returns the results as
    // a lane vector (nullptr when sret is void).  In thread mode it simply runs `body` on `args`.
    Value *PerLane(Value *mask, const std::vector<Value *> &args,
                   const std::function<Value *(const std::vector<Value *> &)> &body) {
        if (W_ == 1) return body(args);
        BasicBlock *pre = B_.GetInsertBlock();
        BasicBlock *loop = NewBlock("lane"), *run = NewBlock("lane_run"), *latch = NewBlock("lane_next"),
                   *done = NewBlock("lanes_done");
        B_.CreateBr(loop);
        B_.SetInsertPoint(loop);
        llvm::PHINode *i = B_.CreatePHI(S(32), 2);
        i->addIncoming(SCI(32, 0), pre);
        B_.CreateCondBr(B_.CreateExtractElement(mask, i), run, latch);
        B_.SetInsertPoint(run);
        std::vector<Value *> sc;
        for (auto *a : args) sc.push_back(a->getType()->isVectorTy() ? B_.CreateExtractElement(a, i) : a);
        int saved_w = W_;
        Value *saved_em = em_, *saved_lane = cur_lane_;
        W_ = 1;
        em_ = nullptr;
        cur_lane_ = i;
        Value *r = body(sc);
        W_ = saved_w;
        em_ = saved_em;
        cur_lane_ = saved_lane;
        Type *vret = r && !r->getType()->isVoidTy() ? Lane(r->getType()) : nullptr;
        llvm::PHINode *acc = nullptr;
        if (vret) {
            llvm::IRBuilder<> pb(loop, loop->getFirstInsertionPt());
            acc = pb.CreatePHI(vret, 2);
            acc->addIncoming(llvm::Constant::getNullValue(vret), pre);
        }
        Value *acc1 = acc ? B_.CreateInsertElement(acc, r, i) : nullptr;
        BasicBlock *run_end = B_.GetInsertBlock();
        B_.CreateBr(latch);
        B_.SetInsertPoint(latch);
        llvm::PHINode *acc2 = nullptr;
        if (acc) {
            acc2 = B_.CreatePHI(vret, 2);
            acc2->addIncoming(acc, loop);
            acc2->addIncoming(acc1, run_end);
            acc->addIncoming(acc2, latch);
        }
        Value *i1 = B_.CreateAdd(i, SCI(32, 1));
        i->addIncoming(i1, latch);
        B_.CreateCondBr(B_.CreateICmpULT(i1, SCI(32, W_)), loop, done);
        B_.SetInsertPoint(done);
        return acc2;
    }
    // Calls a runtime helper with the scalar signature (sret, sargs); in warp mode once per lane
    // the instruction runs for.
    Value *CallHelper(const char *name, Type *sret, std::vector<Type *> sargs, const std::vector<Value *> &args) {
        auto h = Helper(name, sret, std::move(sargs));
        if (W_ == 1) return B_.CreateCall(h, args);
        return PerLane(em_, args, [&](const std::vector<Value *> &a) { return B_.CreateCall(h, a); });
    }
    Value *MaskBits(Value *mask) { return B_.CreateBitCast(mask, S(W_)); }

    Value *Resize(Value *v, int bits, bool sign) {
        int have = (int)v->getType()->getScalarSizeInBits();
        if (have == bits) return v;
        if (have > bits) return B_.CreateTrunc(v, I(bits));
        return sign ? B_.CreateSExt(v, I(bits)) : B_.CreateZExt(v, I(bits));
    }
    Value *Bits(Value *v) {
        if (v->getType()->getScalarType()->isFloatTy()) return B_.CreateBitCast(v, I(32));
        if (v->getType()->getScalarType()->isDoubleTy()) return B_.CreateBitCast(v, I(64));
        return v;
    }

    // ---- operands ----
    Value *Special(const std::string &name, int bits);
    Value *SymAddr(const std::string &name) {
        auto it = syms_.find(name);
        if (it == syms_.end()) {
            Fail("unknown symbol '" + name + "'");
            return CI(64, 0);
        }
        if (it->second.space == SymInfo::ABS) return CI(64, it->second.value);
        return CI(64, it->second.value);
    }
    Value *SrcI(const kir::Operand &o, int bits, bool sign = false) {
        using K = kir::OperandKind;
        Value *v = nullptr;
        switch (o.kind) {
        case K::REG: {
            auto it = regs_.find(o.name);
            if (it == regs_.end()) {
                Fail("unknown register " + o.name);
                return llvm::UndefValue::get(I(bits));
            }
            v = LoadReg(o.name, it->second);
            if (o.neg) v = B_.CreateNot(v);
            if (bits == 1 && it->second.bits != 1) v = B_.CreateICmpNE(v, CI(it->second.bits, 0));
            return Resize(v, bits, sign);
        }
        case K::IMM_INT:
            if (bits == 1) return CI(1, o.imm != 0);
            return CI(bits, (uint64_t)o.imm);
        case K::IMM_F32:
        case K::IMM_F64: {
            if (bits == 32 && o.kind == K::IMM_F64) {
                double d;
                std::memcpy(&d, &o.imm, 8);
                float fl = (float)d;
                uint32_t b;
                std::memcpy(&b, &fl, 4);
                return CI(32, b);
            }
            if (bits == 64 && o.kind == K::IMM_F32) {
                float fl;
                uint32_t b = (uint32_t)o.imm;
                std::memcpy(&fl, &b, 4);
                double d = fl;
                uint64_t b64;
                std::memcpy(&b64, &d, 8);
                return CI(64, b64);
            }
            return CI(bits, (uint64_t)o.imm);
        }
        case K::SPECIAL:
            return Special(o.name, bits);
        case K::SYMBOL:
            return Resize(B_.CreateAdd(SymAddr(o.name), CI(64, (uint64_t)o.imm)), bits, false);
        default:
            Fail("unsupported operand form");
            return llvm::UndefValue::get(I(bits));
        }
    }
    Value *SrcF(const kir::Operand &o, int bits) {
        if (o.kind == kir::OperandKind::IMM_INT) {  // an integer literal used as a float
            double d = (double)o.imm;
            return llvm::ConstantFP::get(FT(bits), d);
        }
        return B_.CreateBitCast(SrcI(o, bits), FT(bits));
    }
    void Dst(const kir::Operand &o, Value *v, bool sign = false) {
        if (o.kind == kir::OperandKind::SYMBOL && o.name == "_") return;
        if (o.kind != kir::OperandKind::REG) {
            Fail("destination is not a register");
            return;
        }
        auto it = regs_.find(o.name);
        if (it == regs_.end()) {
            Fail("unknown register " + o.name);
            return;
        }
        v = Bits(v);
        int vb = (int)v->getType()->getScalarSizeInBits();
        if (it->second.bits == 1 && vb != 1) v = B_.CreateICmpNE(v, CI(vb, 0));
        v = Resize(v, it->second.bits, sign);
        // Lanes outside the mask keep their value, unless nobody can read it: an unguarded write
        // of a register that no block reads before writing it.
        if (W_ > 1 && (em_ != block_mask_ || exposed_.count(o.name)))
            v = B_.CreateSelect(em_, v, B_.CreateLoad(I(it->second.bits), it->second.slot));
        B_.CreateStore(v, it->second.slot);
    }

    // ---- instruction types ----
    Ty LastTy(const kir::Instr &in, int skip = 0) {
        for (auto it = in.mods.rbegin(); it != in.mods.rend(); ++it) {
            Ty t = ParseTy(*it);
            if (t.bits) {
                if (skip-- == 0) return t;
            }
        }
        Fail("missing or unsupported type in '" + in.op + "'");
        return {32, 'b'};
    }
    RMode Rounding(const kir::Instr &in) {
        if (in.Has("rz") || in.Has("rzi")) return RMode::RZ;
        if (in.Has("rm") || in.Has("rmi")) return RMode::RM;
        if (in.Has("rp") || in.Has("rpi")) return RMode::RP;
        return RMode::RN;
    }
    Value *Ftz(Value *f) {  // flush a subnormal to sign-preserving zero
        Type *t = f->getType();
        double tiny = t->getScalarType()->isFloatTy() ? 1.17549435e-38 : 2.2250738585072014e-308;
        Value *a = Intr(llvm::Intrinsic::fabs, {t}, {f});
        Value *is_sub = B_.CreateFCmpOLT(a, llvm::ConstantFP::get(t, tiny));
        Value *zero = Intr(llvm::Intrinsic::copysign, {t}, {llvm::ConstantFP::get(t, 0.0), f});
        return B_.CreateSelect(is_sub, zero, f);
    }
    Value *Sat(Value *f) {  // clamp to [0, 1], NaN -> 0
        Type *t = f->getType();
        Value *lo = Intr(llvm::Intrinsic::maxnum, {t}, {f, llvm::ConstantFP::get(t, 0.0)});
        Value *r = Intr(llvm::Intrinsic::minnum, {t}, {lo, llvm::ConstantFP::get(t, 1.0)});
        Value *nan = B_.CreateFCmpUNO(f, f);
        return B_.CreateSelect(nan, llvm::ConstantFP::get(t, 0.0), r);
    }

    // ---- memory ----
    enum class Space { GLOBAL, SHARED, LOCAL, PARAM, CONST, GENERIC };
    Space InstrSpace(const kir::Instr &in) {
        for (auto &m : in.mods) {
            if (m == "global") return Space::GLOBAL;
            if (m == "shared") return Space::SHARED;
            if (m == "local") return Space::LOCAL;
            if (m == "param") return Space::PARAM;
            if (m == "const") return Space::CONST;
        }
        return Space::GENERIC;
    }
    void ErrorExit(ErrKind kind, Value *addr, uint64_t size) {
        if (cur_lane_) {  // inside a PerLane body: name the lane
            auto f = Helper("rndn_cj_fail_lane", B_.getVoidTy(), {B_.getInt8PtrTy(), S(32), S(64), S(64), S(32), S(32)});
            B_.CreateCall(f, {ctx_, SCI(32, (uint32_t)kind), addr, SCI(64, size), SCI(32, cur_->line), cur_lane_});
        } else {
            auto f = Helper("rndn_cj_fail", B_.getVoidTy(), {B_.getInt8PtrTy(), S(32), S(64), S(64), S(32)});
            B_.CreateCall(f, {ctx_, SCI(32, (uint32_t)kind), addr, SCI(64, size), SCI(32, cur_->line)});
        }
        B_.CreateRet(SCI(32, (uint32_t)-1));
    }
    // Returns a host pointer (i8*) for a checked access of `size` bytes.
    Value *Address(const kir::Instr &in, Space space, const kir::Operand &a, uint64_t size, bool is_store);
    // The offset value of an address operand (lane-typed; nullptr on error); a symbol base
    // replaces `space` with the symbol's own (call-site .param variables live in local memory).
    Value *AddrOffset(const kir::Operand &a, Space &space, const SymInfo *&sym);
    // Warp mode: the lanes' host addresses (<W x i64>) for a checked access of `size` bytes each.
    Value *WarpAddress(Space space, const kir::Operand &a, uint64_t size, bool is_store);
    // (The address test is lowered after SROA, see contiguity.h.)
    Value *Contiguous(Value *addr, uint64_t step) {
        Value *all = B_.CreateICmpEQ(MaskBits(em_), llvm::ConstantInt::getAllOnesValue(S(W_)));
        return B_.CreateAnd(all, B_.CreateCall(ContiguityCheckFn(M_, W_), {addr, SCI(64, step)}));
    }
    Value *LoadLanes(Value *addr, int bits, bool vol);
    // Warp mode: what the bounds check of a global access already decided about its contiguity
    // (true on its fast path, false on the others), for the load or store that follows it.
    struct KnownContiguity {
        Value *addr = nullptr;
        uint64_t step = 0;
        Value *flag = nullptr;
    } known_contig_;
    Value *ContiguousAccess(Value *addr, uint64_t step) {
        KnownContiguity k = known_contig_;
        known_contig_ = {};
        return k.addr == addr && k.step == step ? k.flag : Contiguous(addr, step);
    }
    // Warp mode: the host pointer of an access that is the same for every lane and needs no
    // run-time check (a kernel parameter or module variable at a constant offset), else nullptr.
    Value *UniformPtr(const kir::Operand &a, uint64_t size) {
        if (a.kind != kir::OperandKind::ADDR || a.elems.size() != 1 || a.elems[0].kind != kir::OperandKind::SYMBOL)
            return nullptr;
        auto it = syms_.find(a.elems[0].name);
        if (it == syms_.end() || a.imm < 0 || (uint64_t)a.imm + size > it->second.size) return nullptr;
        const SymInfo &sym = it->second;
        if (sym.space == SymInfo::KPARAM)
            return B_.CreateConstInBoundsGEP1_64(B_.getInt8Ty(), CtxLoad(ctx_off::params, B_.getInt8PtrTy()), sym.value + a.imm);
        if (sym.space == SymInfo::ABS) return B_.CreateIntToPtr(SCI(64, sym.value + (uint64_t)a.imm), B_.getInt8PtrTy());
        return nullptr;
    }
    void StoreLanes(Value *addr, Value *v, int bits, bool vol);
    llvm::AllocaInst *addr_buf_ = nullptr;  // warp mode: [W x i64] for the lanes' addresses
    // Continues when `ok` holds (for every lane the instruction runs for), else fails with `kind`
    // (naming the first failing lane in warp mode).
    void CheckedBranch(Value *ok, ErrKind kind, Value *addr, uint64_t size) {
        BasicBlock *good = NewBlock("ok"), *bad = NewBlock("oob");
        Value *bad_bits = nullptr;
        if (W_ > 1) {
            bad_bits = MaskBits(B_.CreateAnd(em_, B_.CreateNot(ok)));
            ok = B_.CreateICmpEQ(bad_bits, SCI(W_, 0));
        }
        B_.CreateCondBr(ok, good, bad, llvm::MDBuilder(C_).createBranchWeights(1000, 1));
        B_.SetInsertPoint(bad);
        if (W_ > 1) {
            Value *lane = B_.CreateTrunc(Intr(llvm::Intrinsic::cttz, {S(W_)}, {bad_bits, B_.getTrue()}), S(32));
            Value *a = addr->getType()->isVectorTy() ? B_.CreateExtractElement(addr, lane) : addr;
            auto f = Helper("rndn_cj_fail_lane", B_.getVoidTy(), {B_.getInt8PtrTy(), S(32), S(64), S(64), S(32), S(32)});
            B_.CreateCall(f, {ctx_, SCI(32, (uint32_t)kind), a, SCI(64, size), SCI(32, cur_->line), lane});
            B_.CreateRet(SCI(32, (uint32_t)-1));
        } else {
            ErrorExit(kind, addr, size);
        }
        B_.SetInsertPoint(good);
    }

    // ---- cuts ----
    bool regs_in_frame_ = false;  // kernels with cuts keep their registers in ctx->frame
    void Cut(CutKind kind) {
        int k = (int)plan_.cut_kinds.size() + 1;
        plan_.cut_kinds.push_back((uint8_t)kind);
        plan_.cut_lines.push_back(cur_->line);
        if (regs_in_frame_) {
            CtxStore(ctx_off::resume, CI(32, k));
            B_.CreateRet(CI(32, k));
            BasicBlock *rb = NewBlock("resume");
            dispatch_->addCase(llvm::cast<llvm::ConstantInt>(CI(32, k)), rb);
            B_.SetInsertPoint(rb);
            return;
        }
        Value *frame = CtxLoad(ctx_off::frame, I(64)->getPointerTo());
        for (auto &name : reg_order_) {
            auto &r = regs_[name];
            Value *v = B_.CreateLoad(I(r.bits), r.slot);
            B_.CreateStore(B_.CreateZExt(v, I(64)), B_.CreateConstInBoundsGEP1_64(I(64), frame, r.index));
        }
        CtxStore(ctx_off::resume, CI(32, k));
        B_.CreateRet(CI(32, k));
        BasicBlock *rb = NewBlock("resume");
        dispatch_->addCase(llvm::cast<llvm::ConstantInt>(CI(32, k)), rb);
        B_.SetInsertPoint(rb);
        frame = CtxLoad(ctx_off::frame, I(64)->getPointerTo());
        for (auto &name : reg_order_) {
            auto &r = regs_[name];
            Value *v = B_.CreateLoad(I(64), B_.CreateConstInBoundsGEP1_64(I(64), frame, r.index));
            B_.CreateStore(B_.CreateTrunc(v, I(r.bits)), r.slot);
        }
    }

    // ---- handlers ----
    void Mov(const kir::Instr &in);
    void Ld(const kir::Instr &in);
    void St(const kir::Instr &in);
    void Cvta(const kir::Instr &in);
    void Cvt(const kir::Instr &in);
    void Arith(const kir::Instr &in);
    void DivRem(const kir::Instr &in);
    void Carry(const kir::Instr &in, Value *a, Value *b, bool with_carry_in);
    void AddcSubc(const kir::Instr &in) {
        Ty t = LastTy(in);
        Carry(in, SrcI(in.args[1], t.bits), SrcI(in.args[2], t.bits), true);
    }
    Value *Compare(const kir::Instr &in, const std::string &cmp, Ty t);
    void Set(const kir::Instr &in);
    void Testp(const kir::Instr &in);
    void Dp4a(const kir::Instr &in);
    void Unary(const kir::Instr &in);
    void MinMax(const kir::Instr &in);
    void Logic(const kir::Instr &in);
    void Shift(const kir::Instr &in);
    void Setp(const kir::Instr &in);
    void Selp(const kir::Instr &in);
    void Bra(const kir::Instr &in);
    void Ret(const kir::Instr &in);
    void Bar(const kir::Instr &in);
    void Shfl(const kir::Instr &in);
    void Vote(const kir::Instr &in);
    void Match(const kir::Instr &in);
    void Activemask(const kir::Instr &in);
    void Atom(const kir::Instr &in);
    void BitOp(const kir::Instr &in);
    void Bfe(const kir::Instr &in);
    void Bfi(const kir::Instr &in);
    void Prmt(const kir::Instr &in);
    void Sad(const kir::Instr &in);
    void Shf(const kir::Instr &in);
    void Copysign(const kir::Instr &in);
    void FMath(const kir::Instr &in);
    void Nop(const kir::Instr &) {}
    void Fence(const kir::Instr &) { B_.CreateFence(llvm::AtomicOrdering::SequentiallyConsistent); }
    void Trap(const kir::Instr &) {
        if (W_ > 1) return CheckedBranch(CI(1, 0), ErrKind::TRAP, CI(64, 0), 0);
        ErrorExit(ErrKind::TRAP, CI(64, 0), 0);
        B_.SetInsertPoint(NewBlock("after_trap"));
    }

    static const std::unordered_map<std::string, Handler> &Table();

    Status Layout();
    void EmitCtaLoop();
    void Emit(const kir::Instr &in);
    void AddRegs(bool in_frame);
    // warp mode
public:
    Status RunWarp();
private:
    void EmitWarp(const kir::Instr &in);
    void WarpGoto(Value *mask, int target);
    void EmitWarpCtaLoop(llvm::Function *warp_fn);
    Value *FloatRounded(FOp op, RMode mode, Value *a, Value *b, Value *c);
};

// The lookup tables of this file are never destroyed: a compilation on a background thread may
// still be translating while the process exits (cpujit::StopCompiles).
const std::unordered_map<std::string, Handler> &FnTranslator::Table() {
    static const auto &t = *new const std::unordered_map<std::string, Handler>{
        {"mov", &FnTranslator::Mov},       {"ld", &FnTranslator::Ld},          {"ldu", &FnTranslator::Ld},
        {"st", &FnTranslator::St},         {"cvta", &FnTranslator::Cvta},      {"cvt", &FnTranslator::Cvt},
        {"add", &FnTranslator::Arith},     {"sub", &FnTranslator::Arith},      {"mul", &FnTranslator::Arith},
        {"mad", &FnTranslator::Arith},     {"fma", &FnTranslator::Arith},      {"div", &FnTranslator::DivRem},
        {"rem", &FnTranslator::DivRem},    {"abs", &FnTranslator::Unary},      {"neg", &FnTranslator::Unary},
        {"not", &FnTranslator::Unary},     {"cnot", &FnTranslator::Unary},     {"min", &FnTranslator::MinMax},
        {"max", &FnTranslator::MinMax},    {"and", &FnTranslator::Logic},      {"or", &FnTranslator::Logic},
        {"xor", &FnTranslator::Logic},     {"shl", &FnTranslator::Shift},      {"shr", &FnTranslator::Shift},
        {"setp", &FnTranslator::Setp},     {"selp", &FnTranslator::Selp},      {"bra", &FnTranslator::Bra},
        {"ret", &FnTranslator::Ret},       {"exit", &FnTranslator::Ret},       {"bar", &FnTranslator::Bar},
        {"barrier", &FnTranslator::Bar},   {"shfl", &FnTranslator::Shfl},      {"vote", &FnTranslator::Vote},
        {"match", &FnTranslator::Match},   {"activemask", &FnTranslator::Activemask},
        {"atom", &FnTranslator::Atom},     {"red", &FnTranslator::Atom},       {"popc", &FnTranslator::BitOp},
        {"clz", &FnTranslator::BitOp},     {"brev", &FnTranslator::BitOp},     {"bfind", &FnTranslator::BitOp},
        {"bfe", &FnTranslator::Bfe},       {"bfi", &FnTranslator::Bfi},        {"prmt", &FnTranslator::Prmt},
        {"sad", &FnTranslator::Sad},       {"shf", &FnTranslator::Shf},        {"copysign", &FnTranslator::Copysign},
        {"sqrt", &FnTranslator::FMath},    {"rsqrt", &FnTranslator::FMath},    {"rcp", &FnTranslator::FMath},
        {"ex2", &FnTranslator::FMath},     {"lg2", &FnTranslator::FMath},      {"sin", &FnTranslator::FMath},
        {"cos", &FnTranslator::FMath},     {"membar", &FnTranslator::Fence},   {"fence", &FnTranslator::Fence},
        {"prefetch", &FnTranslator::Nop},  {"nanosleep", &FnTranslator::Nop},  {"pmevent", &FnTranslator::Nop},
        {"trap", &FnTranslator::Trap},     {"addc", &FnTranslator::AddcSubc},  {"subc", &FnTranslator::AddcSubc},
        {"set", &FnTranslator::Set},       {"testp", &FnTranslator::Testp},    {"dp4a", &FnTranslator::Dp4a},
    };
    return t;
}

// ---------------------------------------------------------------------------------------------
Value *FnTranslator::Special(const std::string &name, int bits) {
    struct Field {
        const char *name;
        unsigned off;
    };
    static const Field kFields[] = {
        {"%tid.x", ctx_off::tid},          {"%tid.y", ctx_off::tid + 4},        {"%tid.z", ctx_off::tid + 8},
        {"%ntid.x", ctx_off::ntid},        {"%ntid.y", ctx_off::ntid + 4},      {"%ntid.z", ctx_off::ntid + 8},
        {"%ctaid.x", ctx_off::ctaid},      {"%ctaid.y", ctx_off::ctaid + 4},    {"%ctaid.z", ctx_off::ctaid + 8},
        {"%nctaid.x", ctx_off::nctaid},    {"%nctaid.y", ctx_off::nctaid + 4},  {"%nctaid.z", ctx_off::nctaid + 8},
        {"%laneid", ctx_off::laneid},      {"%warpid", ctx_off::warpid},        {"%nwarpid", ctx_off::nwarpid},
    };
    // uniform values are loaded once and splat in warp mode (the lanes of a warp read one clock)
    auto uniform = [&](Value *v) { return W_ > 1 ? B_.CreateVectorSplat(W_, v) : v; };
    if (W_ > 1) {
        auto it = wspecial_.find(name);
        if (it != wspecial_.end()) return Resize(it->second, bits, false);
    }
    for (auto &f : kFields)
        if (name == f.name) return Resize(uniform(CtxLoad(f.off, S(32))), bits, false);
    if (name == "%clock64" || name == "%clock")
        return Resize(uniform(B_.CreateCall(Helper("rndn_cj_clock64", S(64), {}))), bits, false);
    if (name == "%globaltimer")
        return Resize(uniform(B_.CreateCall(Helper("rndn_cj_globaltimer", S(64), {}))), bits, false);
    if (name == "%dynamic_smem_size") return Resize(uniform(CtxLoad(ctx_off::dyn_shared, S(64))), bits, false);
    if (name == "%smid" || name == "%gridid") return CI(bits, 0);
    if (name == "%nsmid") return CI(bits, 1);
    if (name.rfind("%lanemask_", 0) == 0) {
        Value *lane = W_ > 1 ? wspecial_.at("%laneid") : CtxLoad(ctx_off::laneid, I(32));
        Value *bit = B_.CreateShl(CI(32, 1), lane);
        std::string k = name.substr(10);
        Value *r = nullptr;
        if (k == "eq") r = bit;
        else if (k == "lt") r = B_.CreateSub(bit, CI(32, 1));
        else if (k == "le") r = B_.CreateOr(bit, B_.CreateSub(bit, CI(32, 1)));
        else if (k == "gt") r = B_.CreateNot(B_.CreateOr(bit, B_.CreateSub(bit, CI(32, 1))));
        else if (k == "ge") r = B_.CreateNot(B_.CreateSub(bit, CI(32, 1)));
        if (r) return Resize(r, bits, false);
    }
    Fail("unsupported special register " + name);
    return CI(bits, 0);
}

Value *FnTranslator::AddrOffset(const kir::Operand &a, Space &space, const SymInfo *&sym) {
    Value *addr = CI(64, (uint64_t)a.imm);
    sym = nullptr;
    if (!a.elems.empty()) {
        const kir::Operand &base = a.elems[0];
        if (base.kind == kir::OperandKind::REG) {
            addr = B_.CreateAdd(SrcI(base, 64), addr);
        } else {
            auto it = syms_.find(base.name);
            if (it == syms_.end()) {
                Fail("unknown symbol '" + base.name + "'");
                return nullptr;
            }
            sym = &it->second;
            addr = CI(64, sym->value + (uint64_t)a.imm);
        }
    }
    // A symbol names its own space (call-site .param variables live in local memory).
    if (sym) {
        switch (sym->space) {
        case SymInfo::ABS: space = space == Space::CONST ? Space::CONST : Space::GLOBAL; break;
        case SymInfo::SHARED: space = Space::SHARED; break;
        case SymInfo::LOCAL: space = Space::LOCAL; break;
        case SymInfo::KPARAM: space = Space::PARAM; break;
        }
    }
    return addr;
}

Value *FnTranslator::Address(const kir::Instr &in, Space space, const kir::Operand &a, uint64_t size, bool is_store) {
    (void)in;
    if (a.kind != kir::OperandKind::ADDR) {
        Fail("expected an address operand");
        return llvm::ConstantPointerNull::get(B_.getInt8PtrTy());
    }
    const SymInfo *sym = nullptr;
    Value *addr = AddrOffset(a, space, sym);
    if (!addr) return llvm::ConstantPointerNull::get(B_.getInt8PtrTy());
    switch (space) {
    case Space::SHARED:
    case Space::LOCAL: {
        bool sh = space == Space::SHARED;
        Value *limit = CtxLoad(sh ? ctx_off::shared_size : ctx_off::local_size, I(64));
        Value *end = B_.CreateAdd(addr, CI(64, size));
        Value *ok = B_.CreateAnd(B_.CreateICmpULE(end, limit), B_.CreateICmpULT(addr, end));
        CheckedBranch(ok, sh ? ErrKind::OOB_SHARED : ErrKind::OOB_LOCAL, addr, size);
        Value *base = CtxLoad(sh ? ctx_off::shared : ctx_off::local, B_.getInt8PtrTy());
        return B_.CreateGEP(B_.getInt8Ty(), base, addr);
    }
    case Space::PARAM: {
        if (sym) {
            if ((uint64_t)a.imm + size > sym->size && sym->space == SymInfo::KPARAM) {
                Fail("parameter access out of range");
            }
        } else {
            Value *ok = B_.CreateICmpULE(B_.CreateAdd(addr, CI(64, size)), CI(64, plan_.param_bytes));
            CheckedBranch(ok, ErrKind::OOB_PARAM, addr, size);
        }
        Value *base = CtxLoad(ctx_off::params, B_.getInt8PtrTy());
        return B_.CreateGEP(B_.getInt8Ty(), base, addr);
    }
    default: {
        // global / const / generic: host addresses, checked against the registered ranges; each
        // access site caches the last range it hit in ctx->site_cache[2*site .. 2*site+1].
        uint32_t site = plan_.check_sites++;
        Value *cache = CtxLoad(ctx_off::site_cache, I(64)->getPointerTo());
        Value *lo_p = B_.CreateConstInBoundsGEP1_64(I(64), cache, 2 * site);
        Value *hi_p = B_.CreateConstInBoundsGEP1_64(I(64), cache, 2 * site + 1);
        Value *lo = B_.CreateLoad(I(64), lo_p);
        Value *hi = B_.CreateLoad(I(64), hi_p);
        Value *end = B_.CreateAdd(addr, CI(64, size));
        Value *fast = B_.CreateAnd(B_.CreateICmpUGE(addr, lo), B_.CreateICmpULE(end, hi));
        BasicBlock *good = NewBlock("ok"), *slow = NewBlock("check");
        B_.CreateCondBr(fast, good, slow, llvm::MDBuilder(C_).createBranchWeights(1000, 1));
        B_.SetInsertPoint(slow);
        auto chk = Helper("rndn_cj_check", I(32), {B_.getInt8PtrTy(), I(64), I(64), I(32), I(32), I(64)->getPointerTo()});
        Value *r = B_.CreateCall(chk, {ctx_, addr, CI(64, size), CI(32, cur_->line), CI(32, is_store), lo_p});
        BasicBlock *bad = NewBlock("oob");
        B_.CreateCondBr(B_.CreateICmpNE(r, CI(32, 0)), good, bad);
        B_.SetInsertPoint(bad);
        B_.CreateRet(CI(32, (uint32_t)-1));
        B_.SetInsertPoint(good);
        return B_.CreateIntToPtr(addr, B_.getInt8PtrTy());
    }
    }
}

Value *FnTranslator::WarpAddress(Space space, const kir::Operand &a, uint64_t size, bool is_store) {
    if (a.kind != kir::OperandKind::ADDR) {
        Fail("expected an address operand");
        return CI(64, 0);
    }
    known_contig_ = {};
    const SymInfo *sym = nullptr;
    Value *addr = AddrOffset(a, space, sym);
    if (!addr) return CI(64, 0);
    auto splat_ptr = [&](unsigned off) {
        return B_.CreateVectorSplat(W_, B_.CreatePtrToInt(CtxLoad(off, B_.getInt8PtrTy()), S(64)));
    };
    switch (space) {
    case Space::SHARED:
    case Space::LOCAL: {
        bool sh = space == Space::SHARED;
        Value *limit = B_.CreateVectorSplat(W_, CtxLoad(sh ? ctx_off::shared_size : ctx_off::local_size, S(64)));
        Value *end = B_.CreateAdd(addr, CI(64, size));
        Value *ok = B_.CreateAnd(B_.CreateICmpULE(end, limit), B_.CreateICmpULT(addr, end));
        CheckedBranch(ok, sh ? ErrKind::OOB_SHARED : ErrKind::OOB_LOCAL, addr, size);
        return B_.CreateAdd(sh ? splat_ptr(ctx_off::shared) : local_lanes_, addr);
    }
    case Space::PARAM: {
        if (sym) {
            if ((uint64_t)a.imm + size > sym->size && sym->space == SymInfo::KPARAM) Fail("parameter access out of range");
        } else {
            Value *ok = B_.CreateICmpULE(B_.CreateAdd(addr, CI(64, size)), CI(64, plan_.param_bytes));
            CheckedBranch(ok, ErrKind::OOB_PARAM, addr, size);
        }
        return B_.CreateAdd(splat_ptr(ctx_off::params), addr);
    }
    default: {
        // The lanes' addresses are checked against the range this access site hit last (one span
        // test when they are consecutive); otherwise the runtime checks every lane and refreshes
        // the cache.
        uint32_t site = plan_.check_sites++;
        Value *cache = CtxLoad(ctx_off::site_cache, S(64)->getPointerTo());
        Value *lo_p = B_.CreateConstInBoundsGEP1_64(S(64), cache, 2 * site);
        Value *hi_p = B_.CreateConstInBoundsGEP1_64(S(64), cache, 2 * site + 1);
        Value *lo = B_.CreateLoad(S(64), lo_p), *hi = B_.CreateLoad(S(64), hi_p);
        BasicBlock *good = NewBlock("ok"), *slow = NewBlock("check"), *bad = NewBlock("oob"), *spread = NewBlock("spread");
        BasicBlock *span = B_.GetInsertBlock();
        {  // every lane, consecutive: one span [a0, a0 + W * size)
            Value *a0 = B_.CreateExtractElement(addr, (uint64_t)0);
            Value *a_end = B_.CreateAdd(a0, SCI(64, size * W_));
            Value *in = B_.CreateAnd(B_.CreateICmpUGE(a0, lo), B_.CreateICmpULE(a_end, hi));
            in = B_.CreateAnd(in, B_.CreateICmpULT(a0, a_end));
            B_.CreateCondBr(B_.CreateAnd(Contiguous(addr, size), in), good, spread,
                            llvm::MDBuilder(C_).createBranchWeights(1000, 1));
            B_.SetInsertPoint(spread);
        }
        // every running lane in [lo, hi - size] (per lane: no shuffles, unlike min/max reductions)
        Value *room = B_.CreateICmpUGE(hi, SCI(64, size));
        Value *last = B_.CreateVectorSplat(W_, B_.CreateSub(hi, SCI(64, size)));
        Value *in = B_.CreateAnd(B_.CreateICmpUGE(addr, B_.CreateVectorSplat(W_, lo)), B_.CreateICmpULE(addr, last));
        Value *fast = B_.CreateAnd(room, B_.CreateICmpEQ(MaskBits(B_.CreateAnd(em_, B_.CreateNot(in))), SCI(W_, 0)));
        B_.CreateCondBr(fast, good, slow, llvm::MDBuilder(C_).createBranchWeights(1000, 1));
        B_.SetInsertPoint(slow);
        B_.CreateAlignedStore(addr, B_.CreateBitCast(addr_buf_, I(64)->getPointerTo()), llvm::MaybeAlign(8));
        auto chk = Helper("rndn_cj_check_warp", S(32),
                          {B_.getInt8PtrTy(), S(64)->getPointerTo(), S(32), S(64), S(32), S(32), S(64)->getPointerTo()});
        Value *buf = B_.CreateBitCast(addr_buf_, S(64)->getPointerTo());
        Value *r = B_.CreateCall(chk, {ctx_, buf, B_.CreateZExt(MaskBits(em_), S(32)), SCI(64, size), SCI(32, cur_->line), SCI(32, is_store), lo_p});
        B_.CreateCondBr(B_.CreateICmpNE(r, SCI(32, 0)), good, bad);
        B_.SetInsertPoint(bad);
        B_.CreateRet(SCI(32, (uint32_t)-1));
        B_.SetInsertPoint(good);
        // Only the span path knows the lanes are consecutive; the others gather or scatter (they
        // run when lanes are inactive, scattered or outside the cached range).
        llvm::PHINode *contig = B_.CreatePHI(S(1), 3);
        contig->addIncoming(B_.getTrue(), span);
        contig->addIncoming(B_.getFalse(), spread);
        contig->addIncoming(B_.getFalse(), slow);
        known_contig_ = {addr, size, contig};
        return addr;
    }
    }
}

Value *FnTranslator::LoadLanes(Value *addr, int bits, bool vol) {
    Type *st = S(bits);
    if (vol)
        return PerLane(em_, {addr}, [&](const std::vector<Value *> &a) {
            auto *ld = B_.CreateAlignedLoad(st, B_.CreateIntToPtr(a[0], st->getPointerTo()), llvm::MaybeAlign(1));
            ld->setVolatile(true);
            return ld;
        });
    BasicBlock *vec = NewBlock("ld_vec"), *gat = NewBlock("ld_gather"), *join = NewBlock("ld_join");
    B_.CreateCondBr(ContiguousAccess(addr, (uint64_t)bits / 8), vec, gat);
    B_.SetInsertPoint(vec);
    Value *a0 = B_.CreateExtractElement(addr, (uint64_t)0);
    Value *v1 = B_.CreateAlignedLoad(I(bits), B_.CreateIntToPtr(a0, I(bits)->getPointerTo()), llvm::MaybeAlign(1));
    B_.CreateBr(join);
    B_.SetInsertPoint(gat);
    Value *ptrs = B_.CreateIntToPtr(addr, Lane(st->getPointerTo()));
    Value *v2 = B_.CreateMaskedGather(I(bits), ptrs, llvm::Align(1), em_, llvm::Constant::getNullValue(I(bits)));
    B_.CreateBr(join);
    B_.SetInsertPoint(join);
    llvm::PHINode *phi = B_.CreatePHI(I(bits), 2);
    phi->addIncoming(v1, vec);
    phi->addIncoming(v2, gat);
    return phi;
}

void FnTranslator::StoreLanes(Value *addr, Value *v, int bits, bool vol) {
    Type *st = S(bits);
    if (vol) {
        PerLane(em_, {addr, v}, [&](const std::vector<Value *> &a) -> Value * {
            auto *s = B_.CreateAlignedStore(a[1], B_.CreateIntToPtr(a[0], st->getPointerTo()), llvm::MaybeAlign(1));
            s->setVolatile(true);
            return nullptr;
        });
        return;
    }
    BasicBlock *vec = NewBlock("st_vec"), *sc = NewBlock("st_scatter"), *join = NewBlock("st_join");
    B_.CreateCondBr(ContiguousAccess(addr, (uint64_t)bits / 8), vec, sc);
    B_.SetInsertPoint(vec);
    Value *a0 = B_.CreateExtractElement(addr, (uint64_t)0);
    B_.CreateAlignedStore(v, B_.CreateIntToPtr(a0, I(bits)->getPointerTo()), llvm::MaybeAlign(1));
    B_.CreateBr(join);
    B_.SetInsertPoint(sc);
    B_.CreateMaskedScatter(v, B_.CreateIntToPtr(addr, Lane(st->getPointerTo())), llvm::Align(1), em_);
    B_.CreateBr(join);
    B_.SetInsertPoint(join);
}

// ---------------------------------------------------------------------------------------------
void FnTranslator::Mov(const kir::Instr &in) {
    Ty t = LastTy(in);
    if (in.args.size() != 2) return Fail("mov takes two operands");
    const kir::Operand &d = in.args[0], &a = in.args[1];
    if (d.kind == kir::OperandKind::VEC) {  // unpack
        Value *v = SrcI(a, t.bits);
        int n = (int)d.elems.size(), w = t.bits / n;
        for (int k = 0; k < n; ++k) {
            const kir::Operand &e = d.elems[k];
            if (e.kind == kir::OperandKind::SYMBOL && e.name == "_") continue;
            Dst(e, B_.CreateTrunc(B_.CreateLShr(v, CI(t.bits, k * w)), I(w)));
        }
        return;
    }
    if (a.kind == kir::OperandKind::VEC) {  // pack
        int n = (int)a.elems.size(), w = t.bits / n;
        Value *v = CI(t.bits, 0);
        for (int k = 0; k < n; ++k)
            v = B_.CreateOr(v, B_.CreateShl(B_.CreateZExt(SrcI(a.elems[k], w), I(t.bits)), CI(t.bits, k * w)));
        return Dst(d, v);
    }
    Dst(d, SrcI(a, t.bits));
}

void FnTranslator::Ld(const kir::Instr &in) {
    Ty t = LastTy(in);
    if (in.args.size() != 2) return Fail("ld takes two operands");
    const kir::Operand &d = in.args[0];
    int n = d.kind == kir::OperandKind::VEC ? (int)d.elems.size() : 1;
    int eb = std::max(1, t.bits / 8);
    bool vol = in.Has("volatile") || in.Has("relaxed") || in.Has("acquire");
    if (W_ > 1) {
        if (Value *p = UniformPtr(in.args[1], (uint64_t)eb * n)) {  // one load for the warp
            for (int k = 0; k < n; ++k) {
                Value *pk = B_.CreateConstInBoundsGEP1_64(B_.getInt8Ty(), p, k * eb);
                auto *ld = B_.CreateAlignedLoad(S(t.bits), B_.CreateBitCast(pk, S(t.bits)->getPointerTo()), llvm::MaybeAlign(1));
                if (vol) ld->setVolatile(true);
                Dst(n == 1 ? d : d.elems[k], B_.CreateVectorSplat(W_, ld), t.is_signed());
            }
            return;
        }
        Value *addr = WarpAddress(InstrSpace(in), in.args[1], (uint64_t)eb * n, false);
        std::vector<Value *> vals;
        for (int k = 0; k < n; ++k)
            vals.push_back(LoadLanes(k ? B_.CreateAdd(addr, CI(64, (uint64_t)k * eb)) : addr, eb * 8, vol));
        for (int k = 0; k < n; ++k) Dst(n == 1 ? d : d.elems[k], Resize(vals[k], t.bits, false), t.is_signed());
        return;
    }
    Value *p = Address(in, InstrSpace(in), in.args[1], (uint64_t)eb * n, false);
    for (int k = 0; k < n; ++k) {
        Value *pk = B_.CreateConstInBoundsGEP1_64(B_.getInt8Ty(), p, k * eb);
        auto *ld = B_.CreateAlignedLoad(I(t.bits), B_.CreateBitCast(pk, I(t.bits)->getPointerTo()), llvm::MaybeAlign(1));
        if (vol) ld->setVolatile(true);
        Dst(n == 1 ? d : d.elems[k], ld, t.is_signed());
    }
}

void FnTranslator::St(const kir::Instr &in) {
    Ty t = LastTy(in);
    if (in.args.size() != 2) return Fail("st takes two operands");
    const kir::Operand &a = in.args[1];
    int n = a.kind == kir::OperandKind::VEC ? (int)a.elems.size() : 1;
    int eb = std::max(1, t.bits / 8);
    std::vector<Value *> vals;
    for (int k = 0; k < n; ++k) vals.push_back(SrcI(n == 1 ? a : a.elems[k], t.bits));
    bool vol = in.Has("volatile") || in.Has("relaxed") || in.Has("release");
    if (W_ > 1) {
        Value *addr = WarpAddress(InstrSpace(in), in.args[0], (uint64_t)eb * n, true);
        for (int k = 0; k < n; ++k)
            StoreLanes(k ? B_.CreateAdd(addr, CI(64, (uint64_t)k * eb)) : addr, Resize(vals[k], eb * 8, false), eb * 8, vol);
        return;
    }
    Value *p = Address(in, InstrSpace(in), in.args[0], (uint64_t)eb * n, true);
    for (int k = 0; k < n; ++k) {
        Value *pk = B_.CreateConstInBoundsGEP1_64(B_.getInt8Ty(), p, k * eb);
        auto *st = B_.CreateAlignedStore(vals[k], B_.CreateBitCast(pk, I(t.bits)->getPointerTo()), llvm::MaybeAlign(1));
        if (vol) st->setVolatile(true);
    }
}

void FnTranslator::Cvta(const kir::Instr &in) {
    Ty t = LastTy(in);
    bool to = in.Has("to");
    Value *a = SrcI(in.args[1], 64);
    Value *r = a;
    auto base_of = [&](unsigned off) -> Value * {
        Value *b = B_.CreatePtrToInt(CtxLoad(off, B_.getInt8PtrTy()), S(64));
        if (W_ == 1) return b;
        return off == ctx_off::local ? local_lanes_ : B_.CreateVectorSplat(W_, b);
    };
    if (in.Has("shared")) r = to ? B_.CreateSub(a, base_of(ctx_off::shared)) : B_.CreateAdd(a, base_of(ctx_off::shared));
    else if (in.Has("local")) r = to ? B_.CreateSub(a, base_of(ctx_off::local)) : B_.CreateAdd(a, base_of(ctx_off::local));
    else if (in.Has("param")) r = to ? B_.CreateSub(a, base_of(ctx_off::params)) : B_.CreateAdd(a, base_of(ctx_off::params));
    Dst(in.args[0], Resize(r, t.bits, false));
}

Value *FnTranslator::FloatRounded(FOp op, RMode mode, Value *a, Value *b, Value *c) {
    bool d = a->getType()->getScalarType()->isDoubleTy();
    Type *ft = a->getType(), *sft = ft->getScalarType();
    if (!b) b = llvm::ConstantFP::get(ft, 0.0);
    if (!c) c = llvm::ConstantFP::get(ft, 0.0);
    return CallHelper(d ? "rndn_cj_f64_op" : "rndn_cj_f32_op", sft, {S(32), S(32), sft, sft, sft},
                      {SCI(32, (uint32_t)op), SCI(32, (uint32_t)mode), a, b, c});
}

void FnTranslator::Cvt(const kir::Instr &in) {
    Ty dt = LastTy(in, 1), st = LastTy(in, 0);
    if (!err_.empty()) return;
    bool ftz = in.Has("ftz"), sat = in.Has("sat");
    RMode rm = Rounding(in);
    bool int_round = in.Has("rni") || in.Has("rzi") || in.Has("rmi") || in.Has("rpi");
    const kir::Operand &d = in.args[0], &a = in.args[1];
    if (!dt.is_float() && !st.is_float()) {
        Value *v = SrcI(a, st.bits, st.is_signed());
        if (sat && (dt.bits < st.bits || dt.is_signed() != st.is_signed())) {
            // clamp the source value into the destination's range
            int w = std::max(st.bits, dt.bits) < 64 ? 64 : 128;  // room for both ranges (no odd-width vectors)
            Value *x = Resize(v, w, st.is_signed());
            int64_t lo = dt.is_signed() ? -(int64_t)(1ull << (dt.bits - 1)) : 0;
            uint64_t hi = dt.is_signed() ? (1ull << (dt.bits - 1)) - 1 : (dt.bits == 64 ? ~0ull : (1ull << dt.bits) - 1);
            Value *clo = llvm::ConstantInt::get(I(w), lo, true), *chi = llvm::ConstantInt::get(I(w), hi, false);
            x = B_.CreateSelect(B_.CreateICmpSLT(x, clo), clo, x);
            x = B_.CreateSelect(B_.CreateICmpSGT(x, chi), chi, x);
            return Dst(d, B_.CreateTrunc(x, I(dt.bits)), dt.is_signed());
        }
        return Dst(d, Resize(v, dt.bits, st.is_signed()), dt.is_signed());
    }
    if (dt.is_float() && st.is_float()) {
        Value *v = SrcF(a, st.bits);
        if (ftz) v = Ftz(v);
        Value *r;
        if (dt.bits > st.bits) r = B_.CreateFPExt(v, FT(dt.bits));
        else if (dt.bits < st.bits) r = rm == RMode::RN ? B_.CreateFPTrunc(v, FT(dt.bits)) : nullptr;
        else r = v;
        if (!r) {  // directed rounding f64 -> f32
            Type *dt64 = B_.getDoubleTy();
            Value *rd = CallHelper("rndn_cj_f64_op", dt64, {S(32), S(32), dt64, dt64, dt64},
                                   {SCI(32, (uint32_t)FOp::CVT), SCI(32, (uint32_t)rm), v, v, v});
            r = B_.CreateFPTrunc(rd, FT(32));  // exact: the helper already rounded to float
        }
        if (int_round) {
            static const llvm::Intrinsic::ID ids[] = {llvm::Intrinsic::rint, llvm::Intrinsic::trunc, llvm::Intrinsic::floor,
                                                      llvm::Intrinsic::ceil};
            r = Intr(ids[(int)rm], {r->getType()}, {r});
        }
        if (ftz) r = Ftz(r);
        if (sat) r = Sat(r);
        return Dst(d, r);
    }
    if (st.is_float()) {  // float -> int: round as asked, then saturate (NaN: see below)
        Value *v = SrcF(a, st.bits);
        if (ftz) v = Ftz(v);
        static const llvm::Intrinsic::ID ids[] = {llvm::Intrinsic::rint, llvm::Intrinsic::trunc, llvm::Intrinsic::floor,
                                                  llvm::Intrinsic::ceil};
        v = Intr(ids[(int)rm], {v->getType()}, {v});
        int w = std::max(dt.bits, 8);
        Value *r = Intr(dt.is_signed() ? llvm::Intrinsic::fptosi_sat : llvm::Intrinsic::fptoui_sat, {I(w), v->getType()}, {v});
        if (st.bits == 64 || dt.bits == 64)  // PTX ISA 9.0: NaN gives the top bit alone here, 0 otherwise
            r = B_.CreateSelect(B_.CreateFCmpUNO(v, v), llvm::ConstantInt::get(I(w), llvm::APInt::getSignMask(w)), r);
        return Dst(d, r, dt.is_signed());
    }
    // int -> float
    Value *v = SrcI(a, st.bits, st.is_signed());
    Value *r;
    if (rm == RMode::RN || (dt.bits == 64 && st.bits <= 32)) {
        r = st.is_signed() ? B_.CreateSIToFP(v, FT(dt.bits)) : B_.CreateUIToFP(v, FT(dt.bits));
    } else {
        Value *v64 = Resize(v, 64, st.is_signed());
        bool d64 = dt.bits == 64;
        r = CallHelper(d64 ? "rndn_cj_cvt_f64_i64" : "rndn_cj_cvt_f32_i64", SFT(dt.bits), {S(32), S(64), S(32)},
                       {SCI(32, (uint32_t)rm), v64, SCI(32, st.is_signed())});
    }
    if (ftz) r = Ftz(r);
    if (sat) r = Sat(r);
    Dst(d, r);
}

void FnTranslator::Arith(const kir::Instr &in) {
    Ty t = LastTy(in);
    const std::string &op = in.op;
    const kir::Operand &d = in.args[0];
    size_t need = (op == "mad" || op == "fma") ? 4 : 3;
    if (in.args.size() != need) return Fail(op + " takes " + std::to_string(need) + " operands");
    if (t.is_float()) {
        bool ftz = in.Has("ftz"), sat = in.Has("sat");
        RMode rm = Rounding(in);
        auto src = [&](int k) {
            Value *v = SrcF(in.args[k], t.bits);
            return ftz ? Ftz(v) : v;
        };
        Value *a = src(1), *b = src(2), *r = nullptr;
        if (op == "mad" || op == "fma") {
            Value *c = src(3);
            r = rm == RMode::RN ? Intr(llvm::Intrinsic::fma, {a->getType()}, {a, b, c}) : FloatRounded(FOp::FMA, rm, a, b, c);
        } else {
            FOp fo = op == "add" ? FOp::ADD : op == "sub" ? FOp::SUB : FOp::MUL;
            if (rm != RMode::RN) r = FloatRounded(fo, rm, a, b, nullptr);
            else if (fo == FOp::ADD) r = B_.CreateFAdd(a, b);
            else if (fo == FOp::SUB) r = B_.CreateFSub(a, b);
            else r = B_.CreateFMul(a, b);
        }
        if (ftz) r = Ftz(r);
        if (sat) r = Sat(r);
        return Dst(d, r);
    }
    bool sign = t.is_signed();
    bool hi = in.Has("hi"), wide = in.Has("wide");
    if (op == "add" || op == "sub") {
        Value *a = SrcI(in.args[1], t.bits, sign), *b = SrcI(in.args[2], t.bits, sign);
        Value *r;
        if (in.Has("cc")) return Carry(in, a, b, false);
        if (in.Has("sat"))
            r = Intr(op == "add" ? llvm::Intrinsic::sadd_sat : llvm::Intrinsic::ssub_sat, {I(t.bits)}, {a, b});
        else
            r = op == "add" ? B_.CreateAdd(a, b) : B_.CreateSub(a, b);
        return Dst(d, r);
    }
    // mul / mad
    int w = t.bits;
    Value *a = SrcI(in.args[1], w, sign), *b = SrcI(in.args[2], w, sign);
    Value *prod;
    if (hi && w == 64 && a->getType()->isVectorTy() && a->getType() == I(64) && b->getType() == a->getType()) {
        // A warp's 64 x 64 high products: LLVM splits a multiply of 128-bit vectors into one
        // scalar multiply per lane.  When every lane's operands fit in 32 bits (decimal prices,
        // quantities, discounts) the whole product is one vector multiply of the extended
        // halves, and its high word is the sign (zero) of that: a branch on the whole vector,
        // taken alike by every lane, so nothing diverges.
        Type *vt32 = I(32);  // (the lanes' vector)
        auto ext = [&](Value *v) { return sign ? B_.CreateSExt(B_.CreateTrunc(v, vt32), v->getType()) : B_.CreateZExt(B_.CreateTrunc(v, vt32), v->getType()); };
        Value *ae = ext(a), *be = ext(b);
        Value *all = B_.CreateAndReduce(B_.CreateAnd(B_.CreateICmpEQ(ae, a), B_.CreateICmpEQ(be, b)));
        BasicBlock *fast = NewBlock("mulhi_narrow"), *full = NewBlock("mulhi_wide"), *join = NewBlock("mulhi_join");
        B_.CreateCondBr(all, fast, full);
        B_.SetInsertPoint(fast);
        Value *narrow = B_.CreateMul(ae, be);
        Value *hn = sign ? B_.CreateAShr(narrow, 63) : llvm::Constant::getNullValue(a->getType());
        B_.CreateBr(join);
        B_.SetInsertPoint(full);
        Value *a2 = Resize(a, 2 * w, sign), *b2 = Resize(b, 2 * w, sign);
        Value *hw = B_.CreateTrunc(B_.CreateLShr(B_.CreateMul(a2, b2), CI(2 * w, w)), a->getType());
        BasicBlock *full_end = B_.GetInsertBlock();
        B_.CreateBr(join);
        B_.SetInsertPoint(join);
        llvm::PHINode *phi = B_.CreatePHI(a->getType(), 2);
        phi->addIncoming(hn, fast);
        phi->addIncoming(hw, full_end);
        prod = phi;
    } else if (hi || wide) {
        Value *a2 = Resize(a, 2 * w, sign), *b2 = Resize(b, 2 * w, sign);
        prod = B_.CreateMul(a2, b2);
        if (hi) prod = B_.CreateTrunc(B_.CreateLShr(prod, CI(2 * w, w)), I(w));
    } else {
        prod = B_.CreateMul(a, b);
    }
    if (op == "mad") {
        int rw = wide ? 2 * w : w;
        Value *c = SrcI(in.args[3], rw, sign);
        if (in.Has("sat") && hi && sign) {
            prod = Intr(llvm::Intrinsic::sadd_sat, {I(rw)}, {prod, c});
        } else {
            prod = B_.CreateAdd(prod, c);
        }
    }
    Dst(d, prod, sign);
}

void FnTranslator::DivRem(const kir::Instr &in) {
    Ty t = LastTy(in);
    const kir::Operand &d = in.args[0];
    if (t.is_float()) {
        bool ftz = in.Has("ftz");
        RMode rm = Rounding(in);
        Value *a = SrcF(in.args[1], t.bits), *b = SrcF(in.args[2], t.bits);
        if (ftz) {
            a = Ftz(a);
            b = Ftz(b);
        }
        // .approx and .full are within their ULP bounds when computed exactly
        Value *r = rm == RMode::RN ? B_.CreateFDiv(a, b) : FloatRounded(FOp::DIV, rm, a, b, nullptr);
        if (ftz) r = Ftz(r);
        return Dst(d, r);
    }
    bool sign = t.is_signed();
    Value *a = SrcI(in.args[1], t.bits, sign), *b = SrcI(in.args[2], t.bits, sign);
    Value *zero = B_.CreateICmpEQ(b, CI(t.bits, 0));
    CheckedBranch(B_.CreateNot(zero), ErrKind::DIV_ZERO, CI(64, 0), 0);
    if (W_ > 1) b = B_.CreateSelect(em_, b, CI(t.bits, 1));  // lanes not running may hold zero
    bool div = in.op == "div";
    Value *r;
    if (sign) {
        Value *m1 = B_.CreateICmpEQ(b, llvm::ConstantInt::getSigned(I(t.bits), -1));
        Value *safe_b = B_.CreateSelect(m1, CI(t.bits, 1), b);
        Value *q = div ? B_.CreateSDiv(a, safe_b) : B_.CreateSRem(a, safe_b);
        r = B_.CreateSelect(m1, div ? B_.CreateSub(CI(t.bits, 0), a) : CI(t.bits, 0), q);
    } else {
        r = div ? B_.CreateUDiv(a, b) : B_.CreateURem(a, b);
    }
    Dst(d, r);
}

void FnTranslator::Unary(const kir::Instr &in) {
    Ty t = LastTy(in);
    const kir::Operand &d = in.args[0];
    if (t.cls == 'p' || in.op == "not" || in.op == "cnot") {
        Value *a = SrcI(in.args[1], t.bits);
        if (in.op == "not") return Dst(d, B_.CreateNot(a));
        if (in.op == "cnot") return Dst(d, B_.CreateZExt(B_.CreateICmpEQ(a, CI(t.bits, 0)), I(t.bits)));
    }
    if (t.is_float()) {
        Value *a = SrcF(in.args[1], t.bits);
        if (in.Has("ftz")) a = Ftz(a);
        Value *r = in.op == "abs" ? Intr(llvm::Intrinsic::fabs, {a->getType()}, {a}) : B_.CreateFNeg(a);
        return Dst(d, r);
    }
    Value *a = SrcI(in.args[1], t.bits, true);
    if (in.op == "neg") return Dst(d, B_.CreateSub(CI(t.bits, 0), a));
    Value *neg = B_.CreateICmpSLT(a, CI(t.bits, 0));
    Dst(d, B_.CreateSelect(neg, B_.CreateSub(CI(t.bits, 0), a), a));
}

void FnTranslator::MinMax(const kir::Instr &in) {
    Ty t = LastTy(in);
    bool mx = in.op == "max";
    if (t.is_float()) {
        Value *a = SrcF(in.args[1], t.bits), *b = SrcF(in.args[2], t.bits);
        if (in.Has("ftz")) {
            a = Ftz(a);
            b = Ftz(b);
        }
        Value *r = Intr(mx ? llvm::Intrinsic::maxnum : llvm::Intrinsic::minnum, {a->getType()}, {a, b});
        if (in.Has("NaN")) {
            Value *nan = B_.CreateFCmpUNO(a, b);
            r = B_.CreateSelect(nan, llvm::ConstantFP::getNaN(a->getType()), r);
        }
        return Dst(in.args[0], r);
    }
    bool sign = t.is_signed();
    Value *a = SrcI(in.args[1], t.bits, sign), *b = SrcI(in.args[2], t.bits, sign);
    Value *lt = sign ? B_.CreateICmpSLT(a, b) : B_.CreateICmpULT(a, b);
    Dst(in.args[0], mx ? B_.CreateSelect(lt, b, a) : B_.CreateSelect(lt, a, b));
}

void FnTranslator::Logic(const kir::Instr &in) {
    Ty t = LastTy(in);
    Value *a = SrcI(in.args[1], t.bits), *b = SrcI(in.args[2], t.bits);
    Value *r = in.op == "and" ? B_.CreateAnd(a, b) : in.op == "or" ? B_.CreateOr(a, b) : B_.CreateXor(a, b);
    Dst(in.args[0], r);
}

void FnTranslator::Shift(const kir::Instr &in) {
    Ty t = LastTy(in);
    int w = t.bits;
    Value *a = SrcI(in.args[1], w, t.is_signed());
    Value *n32 = SrcI(in.args[2], 32);
    Value *big = B_.CreateICmpUGE(n32, CI(32, w));
    Value *amt = Resize(B_.CreateSelect(big, CI(32, w - 1), n32), w, false);
    Value *r;
    if (in.op == "shl") {
        r = B_.CreateSelect(big, CI(w, 0), B_.CreateShl(a, amt));
    } else if (t.is_signed()) {
        r = B_.CreateAShr(a, amt);  // clamped to w-1: sign fill
    } else {
        r = B_.CreateSelect(big, CI(w, 0), B_.CreateLShr(a, amt));
    }
    Dst(in.args[0], r);
}

static const char *const kCmpOps[] = {"eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs", "equ",
                                      "neu", "ltu", "leu", "gtu", "geu", "num", "nan"};

Value *FnTranslator::Compare(const kir::Instr &in, const std::string &cmp, Ty t) {
    if (t.is_float()) {
        Value *a = SrcF(in.args[1], t.bits), *b = SrcF(in.args[2], t.bits);
        if (in.Has("ftz")) {
            a = Ftz(a);
            b = Ftz(b);
        }
        using P = llvm::CmpInst::Predicate;
        static const auto &fp = *new const std::unordered_map<std::string, P>{
            {"eq", P::FCMP_OEQ},  {"ne", P::FCMP_ONE},  {"lt", P::FCMP_OLT},  {"le", P::FCMP_OLE},  {"gt", P::FCMP_OGT},
            {"ge", P::FCMP_OGE},  {"equ", P::FCMP_UEQ}, {"neu", P::FCMP_UNE}, {"ltu", P::FCMP_ULT}, {"leu", P::FCMP_ULE},
            {"gtu", P::FCMP_UGT}, {"geu", P::FCMP_UGE}, {"num", P::FCMP_ORD}, {"nan", P::FCMP_UNO}};
        auto it = fp.find(cmp);
        if (it == fp.end()) {
            Fail("unsupported float comparison '" + cmp + "'");
            return B_.getFalse();
        }
        return B_.CreateFCmp(it->second, a, b);
    }
    bool sign = t.is_signed();
    Value *a = SrcI(in.args[1], t.bits, sign), *b = SrcI(in.args[2], t.bits, sign);
    using P = llvm::CmpInst::Predicate;
    struct C {
        P s, u;
    };
    static const auto &ip = *new const std::unordered_map<std::string, C>{
        {"eq", {P::ICMP_EQ, P::ICMP_EQ}},   {"ne", {P::ICMP_NE, P::ICMP_NE}},   {"lt", {P::ICMP_SLT, P::ICMP_ULT}},
        {"le", {P::ICMP_SLE, P::ICMP_ULE}}, {"gt", {P::ICMP_SGT, P::ICMP_UGT}}, {"ge", {P::ICMP_SGE, P::ICMP_UGE}},
        {"lo", {P::ICMP_ULT, P::ICMP_ULT}}, {"ls", {P::ICMP_ULE, P::ICMP_ULE}}, {"hi", {P::ICMP_UGT, P::ICMP_UGT}},
        {"hs", {P::ICMP_UGE, P::ICMP_UGE}}};
    auto it = ip.find(cmp);
    if (it == ip.end()) {
        Fail("unsupported integer comparison '" + cmp + "'");
        return B_.getFalse();
    }
    return B_.CreateICmp(sign ? it->second.s : it->second.u, a, b);
}

static std::string FindMod(const kir::Instr &in, const char *const *set, size_t n) {
    for (auto &m : in.mods)
        for (size_t k = 0; k < n; ++k)
            if (m == set[k]) return m;
    return "";
}

void FnTranslator::Setp(const kir::Instr &in) {
    static const char *const kBool[] = {"and", "or", "xor"};
    std::string cmp = FindMod(in, kCmpOps, sizeof kCmpOps / sizeof *kCmpOps);
    std::string boolop = FindMod(in, kBool, 3);
    Ty t = LastTy(in);
    Value *r = Compare(in, cmp, t);
    Value *nr = B_.CreateNot(r);
    if (!boolop.empty()) {
        if (in.args.size() < 4) return Fail("setp with a boolean operation needs a predicate operand");
        Value *c = SrcI(in.args[3], 1);
        auto comb = [&](Value *x) {
            return boolop == "and" ? B_.CreateAnd(x, c) : boolop == "or" ? B_.CreateOr(x, c) : B_.CreateXor(x, c);
        };
        r = comb(r);
        nr = comb(nr);
    }
    const kir::Operand &d = in.args[0];
    if (d.kind == kir::OperandKind::PAIR) {
        Dst(d.elems[0], r);
        Dst(d.elems[1], nr);
    } else {
        Dst(d, r);
    }
}

void FnTranslator::Set(const kir::Instr &in) {
    // set.cmp{.boolop}.dtype.stype d, a, b{, {!}c}: d = all ones (or 1.0f) when true, else 0
    static const char *const kBool[] = {"and", "or", "xor"};
    std::string cmp = FindMod(in, kCmpOps, sizeof kCmpOps / sizeof *kCmpOps);
    std::string boolop = FindMod(in, kBool, 3);
    Ty st = LastTy(in, 0), dt = LastTy(in, 1);
    Value *r = Compare(in, cmp, st);
    if (!boolop.empty()) {
        if (in.args.size() < 4) return Fail("set with a boolean operation needs a predicate operand");
        Value *c = SrcI(in.args[3], 1);
        r = boolop == "and" ? B_.CreateAnd(r, c) : boolop == "or" ? B_.CreateOr(r, c) : B_.CreateXor(r, c);
    }
    Value *one = dt.is_float() ? Bits(llvm::ConstantFP::get(FT(dt.bits), 1.0)) : CI(dt.bits, ~0ull);
    Dst(in.args[0], B_.CreateSelect(r, one, CI(dt.bits, 0)));
}

void FnTranslator::Testp(const kir::Instr &in) {
    Ty t = LastTy(in);
    Value *a = SrcF(in.args[1], t.bits);
    Type *ft = a->getType();
    Value *abs = Intr(llvm::Intrinsic::fabs, {ft}, {a});
    Value *inf = llvm::ConstantFP::getInfinity(ft);
    double tiny = t.bits == 32 ? 1.17549435e-38 : 2.2250738585072014e-308;
    Value *r;
    if (in.Has("finite")) r = B_.CreateFCmpOLT(abs, inf);
    else if (in.Has("infinite")) r = B_.CreateFCmpOEQ(abs, inf);
    else if (in.Has("number")) r = B_.CreateFCmpORD(a, a);
    else if (in.Has("notanumber")) r = B_.CreateFCmpUNO(a, a);
    else if (in.Has("normal")) r = B_.CreateAnd(B_.CreateFCmpOGE(abs, llvm::ConstantFP::get(ft, tiny)), B_.CreateFCmpOLT(abs, inf));
    else if (in.Has("subnormal")) r = B_.CreateAnd(B_.CreateFCmpOLT(abs, llvm::ConstantFP::get(ft, tiny)), B_.CreateFCmpONE(abs, llvm::ConstantFP::get(ft, 0.0)));
    else return Fail("unsupported testp operation");
    Dst(in.args[0], r);
}

void FnTranslator::Dp4a(const kir::Instr &in) {
    // dp4a.atype.btype d, a, b, c: c + sum of the byte products
    Ty at = LastTy(in, 1), bt = LastTy(in, 0);
    Value *a = SrcI(in.args[1], 32), *b = SrcI(in.args[2], 32), *acc = SrcI(in.args[3], 32);
    for (int k = 0; k < 4; ++k) {
        Value *ab = B_.CreateTrunc(B_.CreateLShr(a, CI(32, 8 * k)), I(8));
        Value *bb = B_.CreateTrunc(B_.CreateLShr(b, CI(32, 8 * k)), I(8));
        Value *x = at.is_signed() ? B_.CreateSExt(ab, I(32)) : B_.CreateZExt(ab, I(32));
        Value *y = bt.is_signed() ? B_.CreateSExt(bb, I(32)) : B_.CreateZExt(bb, I(32));
        acc = B_.CreateAdd(acc, B_.CreateMul(x, y));
    }
    Dst(in.args[0], acc);
}

void FnTranslator::Carry(const kir::Instr &in, Value *a, Value *b, bool with_carry_in) {
    // CC.CF lives in a hidden predicate register; for subtraction it holds the borrow.
    Ty t = LastTy(in);
    auto &cc = regs_.at("%rndn_cc");
    bool sub = in.op == "sub" || in.op == "subc";
    int w = t.bits;
    // two overflowing steps (odd-width integer vectors are miscompiled by LLVM 14's x86 backend)
    auto id = sub ? llvm::Intrinsic::usub_with_overflow : llvm::Intrinsic::uadd_with_overflow;
    Value *cin = with_carry_in ? B_.CreateZExt(B_.CreateLoad(I(1), cc.slot), I(w)) : CI(w, 0);
    Value *s1 = Intr(id, {I(w)}, {a, b});
    Value *s2 = Intr(id, {I(w)}, {B_.CreateExtractValue(s1, 0), cin});
    if (in.Has("cc")) {
        Value *cf = B_.CreateOr(B_.CreateExtractValue(s1, 1), B_.CreateExtractValue(s2, 1));
        if (W_ > 1) cf = B_.CreateSelect(em_, cf, B_.CreateLoad(I(1), cc.slot));
        B_.CreateStore(cf, cc.slot);
    }
    Dst(in.args[0], B_.CreateExtractValue(s2, 0));
}

void FnTranslator::Selp(const kir::Instr &in) {
    Ty t = LastTy(in);
    Value *a = SrcI(in.args[1], t.bits), *b = SrcI(in.args[2], t.bits), *c = SrcI(in.args[3], 1);
    Dst(in.args[0], B_.CreateSelect(c, a, b));
}

void FnTranslator::Bra(const kir::Instr &in) {
    if (in.args.empty() || in.args[0].kind != kir::OperandKind::SYMBOL) return Fail("bra needs a label");
    auto it = labels_.find(in.args[0].name);
    if (it == labels_.end()) return Fail("unknown label '" + in.args[0].name + "'");
    B_.CreateBr(it->second);
    B_.SetInsertPoint(NewBlock("after_bra"));
}

void FnTranslator::Ret(const kir::Instr &) {
    B_.CreateRet(CI(32, 0));
    B_.SetInsertPoint(NewBlock("after_ret"));
}

void FnTranslator::Bar(const kir::Instr &in) {
    if (in.Has("warp")) {  // bar.warp.sync membermask
        CtxStore(ctx_off::coll_mask, SrcI(in.args.at(0), 32));
        return Cut(CutKind::BAR_WARP);
    }
    if (in.Has("arrive")) return Fail("bar.arrive is not supported");
    if (in.Has("red")) {  // bar.red.{popc.u32,and.pred,or.pred} d, a{, b}, {!}c
        CutKind kind = in.Has("popc") ? CutKind::BAR_RED_POPC : in.Has("and") ? CutKind::BAR_RED_AND : CutKind::BAR_RED_OR;
        CtxStore(ctx_off::coll_p, B_.CreateZExt(SrcI(in.args.back(), 1), I(32)));
        Cut(kind);
        Value *r = CtxLoad(ctx_off::coll_r, I(64));
        return Dst(in.args.at(0), kind == CutKind::BAR_RED_POPC ? B_.CreateTrunc(r, I(32)) : B_.CreateICmpNE(r, CI(64, 0)));
    }
    Cut(CutKind::BAR);
}

void FnTranslator::Shfl(const kir::Instr &in) {
    // shfl.sync.mode.b32 d[|p], a, b, c, membermask
    CutKind kind;
    if (in.Has("up")) kind = CutKind::SHFL_UP;
    else if (in.Has("down")) kind = CutKind::SHFL_DOWN;
    else if (in.Has("bfly")) kind = CutKind::SHFL_BFLY;
    else if (in.Has("idx")) kind = CutKind::SHFL_IDX;
    else return Fail("unsupported shfl mode");
    if (in.args.size() != 5) return Fail("shfl.sync takes five operands");
    CtxStore(ctx_off::coll_a, Resize(SrcI(in.args[1], 32), 64, false));
    CtxStore(ctx_off::coll_b, Resize(SrcI(in.args[2], 32), 64, false));
    CtxStore(ctx_off::coll_c, Resize(SrcI(in.args[3], 32), 64, false));
    CtxStore(ctx_off::coll_mask, SrcI(in.args[4], 32));
    Cut(kind);
    Value *r = B_.CreateTrunc(CtxLoad(ctx_off::coll_r, I(64)), I(32));
    const kir::Operand &d = in.args[0];
    if (d.kind == kir::OperandKind::PAIR) {
        Dst(d.elems[0], r);
        Dst(d.elems[1], B_.CreateICmpNE(CtxLoad(ctx_off::coll_p, I(32)), CI(32, 0)));
    } else {
        Dst(d, r);
    }
}

void FnTranslator::Vote(const kir::Instr &in) {
    // vote.sync.mode.type d, {!}a, membermask
    CutKind kind;
    if (in.Has("all")) kind = CutKind::VOTE_ALL;
    else if (in.Has("any")) kind = CutKind::VOTE_ANY;
    else if (in.Has("uni")) kind = CutKind::VOTE_UNI;
    else if (in.Has("ballot")) kind = CutKind::VOTE_BALLOT;
    else return Fail("unsupported vote mode");
    if (!in.Has("sync")) return Fail("non-.sync vote is not supported");
    if (in.args.size() != 3) return Fail("vote.sync takes three operands");
    CtxStore(ctx_off::coll_p, B_.CreateZExt(SrcI(in.args[1], 1), I(32)));
    CtxStore(ctx_off::coll_mask, SrcI(in.args[2], 32));
    Cut(kind);
    Value *r = CtxLoad(ctx_off::coll_r, I(64));
    if (kind == CutKind::VOTE_BALLOT) Dst(in.args[0], B_.CreateTrunc(r, I(32)));
    else Dst(in.args[0], B_.CreateICmpNE(r, CI(64, 0)));
}

void FnTranslator::Match(const kir::Instr &in) {
    Ty t = LastTy(in);
    CutKind kind = in.Has("all") ? CutKind::MATCH_ALL : CutKind::MATCH_ANY;
    if (in.args.size() != 3) return Fail("match.sync takes three operands");
    CtxStore(ctx_off::coll_a, Resize(SrcI(in.args[1], t.bits), 64, false));
    CtxStore(ctx_off::coll_mask, SrcI(in.args[2], 32));
    Cut(kind);
    Value *r = B_.CreateTrunc(CtxLoad(ctx_off::coll_r, I(64)), I(32));
    const kir::Operand &d = in.args[0];
    if (d.kind == kir::OperandKind::PAIR) {
        Dst(d.elems[0], r);
        Dst(d.elems[1], B_.CreateICmpNE(CtxLoad(ctx_off::coll_p, I(32)), CI(32, 0)));
    } else {
        Dst(d, r);
    }
}

void FnTranslator::Activemask(const kir::Instr &in) {
    Cut(CutKind::ACTIVEMASK);
    Dst(in.args.at(0), B_.CreateTrunc(CtxLoad(ctx_off::coll_r, I(64)), I(32)));
}

void FnTranslator::Atom(const kir::Instr &in) {
    Ty t = LastTy(in);
    bool is_red = in.op == "red";
    size_t first = is_red ? 0 : 1;  // index of the address operand
    if (in.args.size() < first + 2) return Fail(in.op + " has too few operands");
    static const char *kOps[] = {"add", "min", "max", "exch", "cas", "and", "or", "xor", "inc", "dec"};
    std::string op;
    for (auto &m : in.mods)
        for (auto *k : kOps)
            if (m == k) op = k;
    if (op.empty()) return Fail("unsupported atomic operation");
    Space sp = InstrSpace(in);
    int eb = t.bits / 8;
    Value *b = t.is_float() ? SrcF(in.args[first + 1], t.bits) : SrcI(in.args[first + 1], t.bits);
    Value *c = nullptr;
    if (op == "cas") {
        if (in.args.size() < first + 3) return Fail("atom.cas needs a swap value");
        c = SrcI(in.args[first + 2], t.bits);
    }
    if ((op == "inc" || op == "dec") && t.bits != 32) return Fail("atom.inc/dec need 32-bit operands");
    if (t.is_float() && op != "add" && op != "exch") return Fail("atomic float min/max is not supported");
    // the atomic itself on one thread's scalars (in warp mode once per lane, in lane order)
    auto atomic = [&](Value *p, Value *b, Value *c) -> Value * {
    auto order = llvm::AtomicOrdering::SequentiallyConsistent;
    if (op == "cas") {
        Value *tp = B_.CreateBitCast(p, I(t.bits)->getPointerTo());
        auto *x = B_.CreateAtomicCmpXchg(tp, b, c, llvm::MaybeAlign(eb), order, order);
        return B_.CreateExtractValue(x, 0);
    } else if (op == "inc" || op == "dec") {
        auto h = Helper(op == "inc" ? "rndn_cj_atom_inc" : "rndn_cj_atom_dec", I(32), {I(32)->getPointerTo(), I(32)});
        return B_.CreateCall(h, {B_.CreateBitCast(p, I(32)->getPointerTo()), b});
    } else {
        using BO = llvm::AtomicRMWInst::BinOp;
        BO bo;
        if (op == "add") bo = t.is_float() ? BO::FAdd : BO::Add;
        else if (op == "exch") bo = BO::Xchg;
        else if (op == "and") bo = BO::And;
        else if (op == "or") bo = BO::Or;
        else if (op == "xor") bo = BO::Xor;
        else if (op == "min") bo = t.is_signed() ? BO::Min : BO::UMin;
        else bo = t.is_signed() ? BO::Max : BO::UMax;
        Type *vt = b->getType();
        if (bo == BO::Xchg && t.is_float()) {
            vt = I(t.bits);
            b = Bits(b);
        }
        Value *tp = B_.CreateBitCast(p, vt->getPointerTo());
        return B_.CreateAtomicRMW(bo, tp, b, llvm::MaybeAlign(eb), order);
    }
    };
    Value *r;
    if (W_ == 1) {
        r = atomic(Address(in, sp, in.args[first], eb, true), b, c);
    } else {
        Value *addr = WarpAddress(sp, in.args[first], eb, true);
        std::vector<Value *> args = {addr, b};
        if (c) args.push_back(c);
        r = PerLane(em_, args, [&](const std::vector<Value *> &a) {
            return atomic(B_.CreateIntToPtr(a[0], B_.getInt8PtrTy()), a[1], a.size() > 2 ? a[2] : nullptr);
        });
    }
    if (!is_red) Dst(in.args[0], r);
}

void FnTranslator::BitOp(const kir::Instr &in) {
    Ty t = LastTy(in);
    Value *a = SrcI(in.args[1], t.bits);
    Value *r;
    if (in.op == "popc") {
        r = Resize(Intr(llvm::Intrinsic::ctpop, {I(t.bits)}, {a}), 32, false);
    } else if (in.op == "clz") {
        r = Resize(Intr(llvm::Intrinsic::ctlz, {I(t.bits)}, {a, B_.getFalse()}), 32, false);
    } else if (in.op == "brev") {
        r = Intr(llvm::Intrinsic::bitreverse, {I(t.bits)}, {a});
    } else {  // bfind
        Value *x = a;
        if (t.is_signed()) x = B_.CreateSelect(B_.CreateICmpSLT(a, CI(t.bits, 0)), B_.CreateNot(a), a);
        Value *lz = Resize(Intr(llvm::Intrinsic::ctlz, {I(t.bits)}, {x, B_.getFalse()}), 32, false);
        Value *pos = in.Has("shiftamt") ? lz : B_.CreateSub(CI(32, t.bits - 1), lz);
        r = B_.CreateSelect(B_.CreateICmpEQ(x, CI(t.bits, 0)), CI(32, 0xFFFFFFFFu), pos);
    }
    Dst(in.args[0], r);
}

void FnTranslator::Bfe(const kir::Instr &in) {
    Ty t = LastTy(in);
    Value *a = Resize(SrcI(in.args[1], t.bits), 64, false);
    Value *r = CallHelper("rndn_cj_bfe", S(64), {S(64), S(32), S(32), S(32), S(32)},
                          {a, SrcI(in.args[2], 32), SrcI(in.args[3], 32), SCI(32, t.bits), SCI(32, t.is_signed())});
    Dst(in.args[0], Resize(r, t.bits, false));
}

void FnTranslator::Bfi(const kir::Instr &in) {
    Ty t = LastTy(in);
    Value *a = Resize(SrcI(in.args[1], t.bits), 64, false), *b = Resize(SrcI(in.args[2], t.bits), 64, false);
    Value *r = CallHelper("rndn_cj_bfi", S(64), {S(64), S(64), S(32), S(32), S(32)},
                          {a, b, SrcI(in.args[3], 32), SrcI(in.args[4], 32), SCI(32, t.bits)});
    Dst(in.args[0], Resize(r, t.bits, false));
}

void FnTranslator::Prmt(const kir::Instr &in) {
    static const char *kModes[] = {"", "f4e", "b4e", "rc8", "ecl", "ecr", "rc16"};
    uint32_t mode = 0;
    for (uint32_t k = 1; k < 7; ++k)
        if (in.Has(kModes[k])) mode = k;
    Value *r = CallHelper("rndn_cj_prmt", S(32), {S(32), S(32), S(32), S(32)},
                          {SrcI(in.args[1], 32), SrcI(in.args[2], 32), SrcI(in.args[3], 32), SCI(32, mode)});
    Dst(in.args[0], r);
}

void FnTranslator::Sad(const kir::Instr &in) {
    Ty t = LastTy(in);
    bool sign = t.is_signed();
    Value *a = SrcI(in.args[1], t.bits, sign), *b = SrcI(in.args[2], t.bits, sign), *c = SrcI(in.args[3], t.bits);
    Value *lt = sign ? B_.CreateICmpSLT(a, b) : B_.CreateICmpULT(a, b);
    Value *diff = B_.CreateSelect(lt, B_.CreateSub(b, a), B_.CreateSub(a, b));
    Dst(in.args[0], B_.CreateAdd(diff, c));
}

void FnTranslator::Shf(const kir::Instr &in) {
    // shf.{l,r}.{wrap,clamp}.b32 d, a, b, c : funnel shift of {b:a}
    Value *a = SrcI(in.args[1], 32), *b = SrcI(in.args[2], 32), *c = SrcI(in.args[3], 32);
    bool left = in.Has("l");
    Value *n = in.Has("clamp") ? B_.CreateSelect(B_.CreateICmpUGT(c, CI(32, 32)), CI(32, 32), c) : B_.CreateAnd(c, CI(32, 31));
    Value *is32 = B_.CreateICmpEQ(n, CI(32, 32));
    Value *r = left ? Intr(llvm::Intrinsic::fshl, {I(32)}, {b, a, n}) : Intr(llvm::Intrinsic::fshr, {I(32)}, {b, a, n});
    r = B_.CreateSelect(is32, left ? a : b, r);
    Dst(in.args[0], r);
}

void FnTranslator::Copysign(const kir::Instr &in) {
    Ty t = LastTy(in);
    Value *a = SrcF(in.args[1], t.bits), *b = SrcF(in.args[2], t.bits);
    Dst(in.args[0], Intr(llvm::Intrinsic::copysign, {a->getType()}, {b, a}));
}

void FnTranslator::FMath(const kir::Instr &in) {
    Ty t = LastTy(in);
    if (!t.is_float()) return Fail(in.op + " needs a float type");
    bool ftz = in.Has("ftz");
    Value *a = SrcF(in.args[1], t.bits);
    if (ftz) a = Ftz(a);
    Type *ft = a->getType();
    RMode rm = Rounding(in);
    Value *one = llvm::ConstantFP::get(ft, 1.0);
    Value *r = nullptr;
    const std::string &op = in.op;
    if (op == "sqrt") r = rm == RMode::RN ? Intr(llvm::Intrinsic::sqrt, {ft}, {a}) : FloatRounded(FOp::SQRT, rm, a, nullptr, nullptr);
    else if (op == "rsqrt") r = B_.CreateFDiv(one, Intr(llvm::Intrinsic::sqrt, {ft}, {a}));
    else if (op == "rcp") r = rm == RMode::RN ? B_.CreateFDiv(one, a) : FloatRounded(FOp::RCP, rm, a, nullptr, nullptr);
    else if (op == "ex2") r = Intr(llvm::Intrinsic::exp2, {ft}, {a});
    else if (op == "lg2") r = Intr(llvm::Intrinsic::log2, {ft}, {a});
    else if (op == "sin") r = Intr(llvm::Intrinsic::sin, {ft}, {a});
    else r = Intr(llvm::Intrinsic::cos, {ft}, {a});
    if (ftz) r = Ftz(r);
    Dst(in.args[0], r);
}

// ---------------------------------------------------------------------------------------------
Status FnTranslator::Layout() {
    for (auto &r : f_.regs)
        if (!ParseTy(r.type).bits) return Status::Unsupported("kernel " + f_.name + ": unsupported register type ." + r.type);
    plan_.name = f_.name;
    plan_.line = f_.line;
    uint32_t off = 0;
    for (auto &p : f_.params) {
        uint32_t al = std::max<uint32_t>(1, p.align);
        off = (uint32_t)AlignUp(off, al);
        plan_.params.push_back({off, (uint32_t)p.size});
        syms_[p.name] = {SymInfo::KPARAM, off, p.size};
        off += (uint32_t)p.size;
    }
    plan_.param_bytes = off;
    uint64_t sh = 0;
    std::vector<const kir::Var *> ext;
    auto place_shared = [&](const kir::Var &v) {
        if (v.is_extern || v.size == 0) {
            ext.push_back(&v);
            return;
        }
        sh = AlignUp(sh, v.align);
        syms_[v.name] = {SymInfo::SHARED, sh, v.size};
        sh += v.size;
    };
    for (auto &v : m_.vars) {
        if (v.space == "shared") {
            place_shared(v);
        } else {
            auto it = globals_.find(v.name);
            if (it == globals_.end()) return Status::Internal("no storage for module variable " + v.name);
            syms_[v.name] = {SymInfo::ABS, it->second, v.size};
        }
    }
    uint64_t lo = 0;
    for (auto &v : f_.vars) {
        if (v.space == "shared") {
            place_shared(v);
        } else {  // .local and call-site .param variables: per-thread local memory
            lo = AlignUp(lo, std::max<uint32_t>(v.align, 1));
            syms_[v.name] = {SymInfo::LOCAL, lo, v.size};
            lo += v.size;
        }
    }
    sh = AlignUp(sh, 16);
    for (auto *v : ext) syms_[v->name] = {SymInfo::SHARED, sh, 0};
    plan_.static_shared = sh;
    plan_.local_bytes = AlignUp(lo, 16);
    return Status::Ok();
}

void FnTranslator::Emit(const kir::Instr &in) {
    cur_ = &in;
    if (W_ > 1) return EmitWarp(in);
    if (in.op == "call") return Fail("call was not inlined");
    auto &tab = Table();
    auto it = tab.find(in.op);
    if (it == tab.end()) return Fail("unsupported instruction '" + in.op + "'");
    if (in.guard.empty()) return (this->*(it->second))(in);
    auto rit = regs_.find(in.guard);
    if (rit == regs_.end()) return Fail("unknown guard " + in.guard);
    Value *g = B_.CreateLoad(I(rit->second.bits), rit->second.slot);
    if (rit->second.bits != 1) g = B_.CreateICmpNE(g, CI(rit->second.bits, 0));
    if (in.guard_neg) g = B_.CreateNot(g);
    BasicBlock *cont = NewBlock("cont");
    if (in.op == "bra") {
        auto lit = labels_.find(in.args.empty() ? std::string() : in.args[0].name);
        if (lit == labels_.end()) return Fail("bra needs a known label");
        B_.CreateCondBr(g, lit->second, cont);
        B_.SetInsertPoint(cont);
        return;
    }
    BasicBlock *then = NewBlock("pred");
    B_.CreateCondBr(g, then, cont);
    B_.SetInsertPoint(then);
    (this->*(it->second))(in);
    if (!Terminated()) B_.CreateBr(cont);
    B_.SetInsertPoint(cont);
}

Status FnTranslator::Run() {
    RNDN_RETURN_IF_ERROR(Layout());
    plan_.symbol = "rndn_k_" + f_.name;
    fn_ = NewKernelFn(plan_.symbol);
    ctx_ = fn_->getArg(0);
    BasicBlock *entry = NewBlock("entry");
    B_.SetInsertPoint(entry);
    // A kernel with synchronisation points keeps every register in its frame slot (no spill and
    // reload code at each cut, which would grow as registers x cuts); others use allocas, which
    // mem2reg turns into SSA values.
    regs_in_frame_ = HasCuts(f_);
    AddRegs(regs_in_frame_);
    for (auto &in : f_.body)
        if (!in.label.empty()) labels_[in.label] = BasicBlock::Create(C_, in.label, fn_);
    BasicBlock *start = NewBlock("start");
    Value *resume = CtxLoad(ctx_off::resume, I(32));
    dispatch_ = B_.CreateSwitch(resume, start);
    B_.SetInsertPoint(start);
    for (auto &in : f_.body) {
        if (!in.label.empty()) {
            BasicBlock *lb = labels_[in.label];
            if (!Terminated()) B_.CreateBr(lb);
            B_.SetInsertPoint(lb);
            continue;
        }
        Emit(in);
        if (!err_.empty()) return Status::Unsupported("kernel " + f_.name + ": " + err_);
    }
    if (!Terminated()) B_.CreateRet(CI(32, 0));
    // blocks left without a terminator (unreachable code after bra/ret)
    for (auto &bb : *fn_)
        if (!bb.getTerminator()) {
            B_.SetInsertPoint(&bb);
            B_.CreateUnreachable();
        }
    std::string verr;
    llvm::raw_string_ostream os(verr);
    if (llvm::verifyFunction(*fn_, &os)) return Status::Internal("kernel " + f_.name + ": invalid LLVM IR: " + os.str());
    if (!regs_in_frame_) EmitCtaLoop();
    return Status::Ok();
}

void FnTranslator::AddRegs(bool in_frame) {
    Value *frame = in_frame ? CtxLoad(ctx_off::frame, I(64)->getPointerTo()) : nullptr;
    int idx = 0;
    auto add_reg = [&](const std::string &name, int bits) {
        Value *slot;
        if (in_frame) {
            slot = B_.CreateBitCast(B_.CreateConstInBoundsGEP1_64(I(64), frame, idx), I(bits)->getPointerTo(), name);
        } else {
            Type *t = uniform_regs_.count(name) ? S(bits) : I(bits);
            slot = B_.CreateAlloca(t, nullptr, name);
            if (W_ > 1) B_.CreateStore(llvm::Constant::getNullValue(t), slot);
        }
        regs_[name] = {slot, bits, idx++};
        reg_order_.push_back(name);
    };
    for (auto &r : f_.regs) add_reg(r.name, ParseTy(r.type).bits);
    add_reg("%rndn_cc", 1);
    plan_.frame_slots = (uint32_t)idx;
}

// ---- warp mode --------------------------------------------------------------------------------
// The kernel becomes `i32 warp_fn(ctx)` running the lanes of warp ctx->warpid in lock-step.  The
// body is cut into blocks (at labels and after branches and exits), numbered in program order.
// Each lane has a program counter (the block it runs next); the dispatcher picks the lowest
// program counter among the live lanes and runs that block for every lane waiting there, so
// lanes that diverged meet again at the first block they share (loop exits and if/else joins
// come later in program order).  While the warp is converged, a uniform branch jumps straight
// to its target.  Registers are lane vectors; writes are masked by the running lanes.
// Only the dispatcher reads the program counters, so they are written only on the way to it:
// the running lanes' counters may be stale while they run (a converged loop stores none).
Status FnTranslator::RunWarp() {
    W_ = (int)kLanes;
    RNDN_RETURN_IF_ERROR(Layout());
    // blocks
    std::vector<size_t> starts;
    bool cut_next = true;
    for (size_t i = 0; i < f_.body.size(); ++i) {
        const kir::Instr &in = f_.body[i];
        if (!in.label.empty()) {
            starts.push_back(i);
            label_block_[in.label] = (int)starts.size() - 1;
            cut_next = false;
            continue;
        }
        if (cut_next) starts.push_back(i);
        cut_next = in.op == "bra" || in.op == "ret" || in.op == "exit";
    }
    if (starts.empty()) starts.push_back(0);
    FindExposed(starts);
    // the entry block (when nothing branches back to it) runs once, for every lane
    bool entry_once = f_.body.empty() || f_.body[0].label.empty();
    FindUniform(!entry_once ? 0 : starts.size() > 1 ? starts[1] : f_.body.size());
    plan_.symbol = "rndn_w_" + f_.name;
    fn_ = NewKernelFn(plan_.symbol);
    // wide vector spills need an aligned frame; LLVM 14 does not always realign it on its own
    fn_->addFnAttr("stackrealign");
    ctx_ = fn_->getArg(0);
    BasicBlock *entry = NewBlock("entry");
    B_.SetInsertPoint(entry);
    AddRegs(false);
    addr_buf_ = B_.CreateAlloca(llvm::ArrayType::get(S(64), W_), nullptr, "addr_buf");
    pc_slot_ = B_.CreateAlloca(I(32), nullptr, "pc");
    live_slot_ = B_.CreateAlloca(I(1), nullptr, "live");
    mask_slot_ = B_.CreateAlloca(I(1), nullptr, "mask");
    // special registers
    Value *warp = CtxLoad(ctx_off::warpid, S(32));  // the gang's index in the CTA
    Value *n = B_.CreateMul(B_.CreateMul(CtxLoad(ctx_off::ntid, S(32)), CtxLoad(ctx_off::ntid + 4, S(32))),
                            CtxLoad(ctx_off::ntid + 8, S(32)));
    std::vector<llvm::Constant *> lanes;
    for (int l = 0; l < W_; ++l) lanes.push_back(llvm::ConstantInt::get(S(32), l));
    Value *lane = llvm::ConstantVector::get(lanes);
    Value *first = B_.CreateMul(warp, SCI(32, (uint32_t)W_));
    Value *t = B_.CreateAdd(B_.CreateVectorSplat(W_, first), lane);
    Value *tab = CtxLoad(ctx_off::tid_tab, S(32)->getPointerTo());
    static const char *const kTid[] = {"%tid.x", "%tid.y", "%tid.z"};
    for (int d = 0; d < 3; ++d) {
        Value *p = B_.CreateGEP(S(32), tab, B_.CreateAdd(first, SCI(32, (uint32_t)d * kMaxThreads)));
        wspecial_[kTid[d]] = B_.CreateAlignedLoad(I(32), B_.CreateBitCast(p, I(32)->getPointerTo()), llvm::MaybeAlign(4));
    }
    wspecial_["%laneid"] = B_.CreateAnd(t, CI(32, 31));
    wspecial_["%warpid"] = B_.CreateLShr(t, CI(32, 5));
    Value *lsize = CtxLoad(ctx_off::local_size, S(64));
    Value *lbase = B_.CreatePtrToInt(CtxLoad(ctx_off::local_base, B_.getInt8PtrTy()), S(64));
    local_lanes_ = B_.CreateAdd(B_.CreateVectorSplat(W_, lbase),
                                B_.CreateMul(B_.CreateZExt(t, I(64)), B_.CreateVectorSplat(W_, lsize)));
    B_.CreateStore(CI(32, 0), pc_slot_);
    Value *live0 = B_.CreateICmpULT(t, B_.CreateVectorSplat(W_, n));
    B_.CreateStore(live0, live_slot_);
    BasicBlock *entry_tail = B_.GetInsertBlock();
    for (size_t b = 0; b < starts.size(); ++b) wblocks_.push_back(NewBlock("blk"));
    dispatch_bb_ = NewBlock("dispatch");
    B_.SetInsertPoint(dispatch_bb_);
    {
        Value *live = B_.CreateLoad(I(1), live_slot_), *pc = B_.CreateLoad(I(32), pc_slot_);
        Value *masked = B_.CreateSelect(live, pc, llvm::ConstantInt::getAllOnesValue(I(32)));
        Value *minpc = Intr(llvm::Intrinsic::vector_reduce_umin, {I(32)}, {masked});
        B_.CreateStore(B_.CreateAnd(live, B_.CreateICmpEQ(pc, B_.CreateVectorSplat(W_, minpc))), mask_slot_);
        BasicBlock *done = warp_done_bb_ = NewBlock("warp_done");
        llvm::SwitchInst *sw = B_.CreateSwitch(minpc, done, (unsigned)wblocks_.size());
        for (size_t b = 0; b < wblocks_.size(); ++b) sw->addCase(llvm::cast<llvm::ConstantInt>(SCI(32, b)), wblocks_[b]);
        B_.SetInsertPoint(done);
        B_.CreateRet(SCI(32, 0));
    }
    // Every live lane starts at the first block: no dispatch (a min-reduction of the lanes'
    // program counters) is needed to get there.
    B_.SetInsertPoint(entry_tail);
    B_.CreateStore(live0, mask_slot_);
    B_.CreateCondBr(B_.CreateICmpEQ(MaskBits(live0), SCI(W_, 0)), warp_done_bb_, wblocks_[0]);
    for (size_t b = 0; b < starts.size(); ++b) {
        cur_block_ = (int)b;
        B_.SetInsertPoint(wblocks_[b]);
        block_mask_ = B_.CreateLoad(I(1), mask_slot_);
        size_t end = b + 1 < starts.size() ? starts[b + 1] : f_.body.size();
        for (size_t i = starts[b]; i < end; ++i) {
            if (!f_.body[i].label.empty()) continue;
            Emit(f_.body[i]);
            if (!err_.empty()) return Status::Unsupported("kernel " + f_.name + ": " + err_);
            if (Terminated()) break;
        }
        if (!Terminated()) WarpGoto(block_mask_, (int)b + 1);
    }
    std::string verr;
    llvm::raw_string_ostream os(verr);
    if (llvm::verifyFunction(*fn_, &os)) return Status::Internal("kernel " + f_.name + ": invalid LLVM IR: " + os.str());
    EmitWarpCtaLoop(fn_);
    return Status::Ok();
}

// Registers read in some block before that block writes them (reads come before the writes
// of the same instruction; a guarded write does not count as a write).  The others hold only
// block-local values, so their writes need not preserve the lanes outside the mask.
void FnTranslator::FindUniform(size_t entry_end) {
    static const auto &kPure = *new const std::unordered_set<std::string>{"mov", "add", "sub", "mul", "mad", "shl", "shr", "and",
                                                          "or", "xor", "not", "cvt", "min", "max", "neg", "abs",
                                                          "selp", "setp", "cvta", "ld"};
    static const auto &kUniformSpecial = *new const std::unordered_set<std::string>{
        "%ntid.x", "%ntid.y", "%ntid.z", "%ctaid.x", "%ctaid.y", "%ctaid.z", "%nctaid.x", "%nctaid.y",
        "%nctaid.z", "%warpid", "%nwarpid", "%dynamic_smem_size", "%smid", "%nsmid", "%gridid"};
    std::unordered_map<std::string, int> writes;
    std::function<void(const kir::Operand &)> count = [&](const kir::Operand &o) {
        if (o.kind == kir::OperandKind::REG) ++writes[o.name];
        for (auto &e : o.elems) count(e);
    };
    for (auto &in : f_.body)
        if (!in.label.empty() || in.args.empty()) continue;
        else if (in.op != "st" && in.op != "red" && in.op != "bra") count(in.args[0]);
    std::function<bool(const kir::Operand &)> uniform = [&](const kir::Operand &o) -> bool {
        switch (o.kind) {
        case kir::OperandKind::REG: return uniform_regs_.count(o.name) > 0;
        case kir::OperandKind::SPECIAL: return kUniformSpecial.count(o.name) > 0;
        case kir::OperandKind::SYMBOL: {
            auto it = syms_.find(o.name);
            return it != syms_.end() && it->second.space != SymInfo::LOCAL;
        }
        case kir::OperandKind::ADDR:
        case kir::OperandKind::VEC:
        case kir::OperandKind::PAIR:
            return false;
        default: return true;  // immediates
        }
    };
    for (size_t i = 0; i < f_.body.size(); ++i) {
        const kir::Instr &in = f_.body[i];
        if (!in.label.empty() || !in.guard.empty() || !kPure.count(in.op) || in.args.size() < 2) continue;
        if (in.Has("cc") || in.Has("local") || (in.op == "cvta" && !in.Has("to") && !in.Has("shared") && !in.Has("param") &&
                                                 !in.Has("global")))
            continue;
        const kir::Operand &d = in.args[0];
        if (d.kind != kir::OperandKind::REG || writes[d.name] != 1) continue;
        bool ok = true;
        if (in.op == "ld") {  // a kernel parameter or module variable at a constant offset
            const kir::Operand &a = in.args[1];
            ok = a.kind == kir::OperandKind::ADDR && a.elems.size() == 1 && a.elems[0].kind == kir::OperandKind::SYMBOL;
            if (ok) {
                auto it = syms_.find(a.elems[0].name);
                // a module variable may change while the lanes diverge: read once, in the entry block
                ok = it != syms_.end() &&
                     (it->second.space == SymInfo::KPARAM || (it->second.space == SymInfo::ABS && i < entry_end)) &&
                     a.imm >= 0 && !in.Has("volatile");
            }
        } else {
            for (size_t k = 1; k < in.args.size() && ok; ++k) ok = uniform(in.args[k]);
        }
        if (!ok) continue;
        uniform_regs_.insert(d.name);
        uniform_instrs_.insert(&in);
    }
}

void FnTranslator::FindExposed(const std::vector<size_t> &starts) {
    static const auto &kNoDest = *new const std::unordered_set<std::string>{"st", "red", "bra", "ret", "exit", "bar", "barrier",
                                                            "membar", "fence", "prefetch", "nanosleep", "pmevent",
                                                            "trap", "call"};
    std::function<void(const kir::Operand &, std::vector<std::string> &)> regs_of = [&](const kir::Operand &o,
                                                                                       std::vector<std::string> &out) {
        if (o.kind == kir::OperandKind::REG) out.push_back(o.name);
        for (auto &e : o.elems) regs_of(e, out);
    };
    for (size_t b = 0; b < starts.size(); ++b) {
        size_t end = b + 1 < starts.size() ? starts[b + 1] : f_.body.size();
        std::unordered_set<std::string> written;
        for (size_t i = starts[b]; i < end; ++i) {
            const kir::Instr &in = f_.body[i];
            if (!in.label.empty()) continue;
            std::vector<std::string> reads, writes;
            bool has_dest = !kNoDest.count(in.op) && !in.args.empty();
            for (size_t k = has_dest ? 1 : 0; k < in.args.size(); ++k) regs_of(in.args[k], reads);
            if (!in.guard.empty()) reads.push_back(in.guard);
            if (in.op == "addc" || in.op == "subc") reads.push_back("%rndn_cc");
            if (has_dest) regs_of(in.args[0], writes);
            if (in.Has("cc")) writes.push_back("%rndn_cc");
            for (auto &r : reads)
                if (!written.count(r)) exposed_.insert(r);
            if (in.guard.empty())
                for (auto &w : writes) written.insert(w);
        }
    }
}

// The lanes in `mask` continue at block `target` (past the last block: they exit).
void FnTranslator::WarpGoto(Value *mask, int target) {
    Value *live = B_.CreateLoad(I(1), live_slot_);
    if (target >= (int)wblocks_.size()) return ExitLanes(B_.CreateAnd(live, B_.CreateNot(mask)));
    Value *converged = B_.CreateICmpEQ(MaskBits(mask), MaskBits(live));
    BasicBlock *park = NewBlock("goto_split");
    B_.CreateCondBr(converged, wblocks_[target], park);
    B_.SetInsertPoint(park);
    Value *pc = B_.CreateLoad(I(32), pc_slot_);
    B_.CreateStore(B_.CreateSelect(mask, CI(32, (uint32_t)target), pc), pc_slot_);
    B_.CreateBr(dispatch_bb_);
}

void FnTranslator::EmitWarp(const kir::Instr &in) {
    if (in.op == "call") return Fail("call was not inlined");
    auto &tab = Table();
    auto it = tab.find(in.op);
    if (it == tab.end()) return Fail("unsupported instruction '" + in.op + "'");
    Value *g = nullptr;
    if (!in.guard.empty()) {
        auto rit = regs_.find(in.guard);
        if (rit == regs_.end()) return Fail("unknown guard " + in.guard);
        g = LoadReg(in.guard, rit->second);
        if (rit->second.bits != 1) g = B_.CreateICmpNE(g, CI(rit->second.bits, 0));
        if (in.guard_neg) g = B_.CreateNot(g);
    }
    if (uniform_instrs_.count(&in)) {  // the same value for every lane: computed once, in scalar
        if (g) return Fail("guarded uniform instruction");
        int saved_w = W_;
        W_ = 1;
        em_ = nullptr;
        (this->*(it->second))(in);
        W_ = saved_w;
        return;
    }
    Value *m = block_mask_;
    em_ = g ? B_.CreateAnd(m, g) : m;
    int next = cur_block_ + 1;
    if (in.op == "bra") {
        auto lit = label_block_.find(in.args.empty() ? std::string() : in.args[0].name);
        if (lit == label_block_.end()) return Fail("bra needs a known label");
        int target = lit->second;
        if (!g) return WarpGoto(m, target);
        Value *taken = em_, *stay = B_.CreateAnd(m, B_.CreateNot(g));
        Value *live = B_.CreateLoad(I(1), live_slot_);
        if (next >= (int)wblocks_.size()) live = B_.CreateAnd(live, B_.CreateNot(stay));
        B_.CreateStore(live, live_slot_);
        Value *mb = MaskBits(m), *tb = MaskBits(taken);
        Value *converged = B_.CreateICmpEQ(mb, MaskBits(live));
        BasicBlock *not_all = NewBlock("bra_split");
        B_.CreateCondBr(B_.CreateAnd(converged, B_.CreateICmpEQ(tb, mb)), wblocks_[target], not_all);
        B_.SetInsertPoint(not_all);
        Value *pc = B_.CreateLoad(I(32), pc_slot_);
        pc = B_.CreateSelect(taken, CI(32, (uint32_t)target), pc);
        if (next < (int)wblocks_.size()) pc = B_.CreateSelect(stay, CI(32, (uint32_t)next), pc);
        B_.CreateStore(pc, pc_slot_);
        if (next < (int)wblocks_.size())
            B_.CreateCondBr(B_.CreateAnd(converged, B_.CreateICmpEQ(tb, SCI(W_, 0))), wblocks_[next], dispatch_bb_);
        else
            B_.CreateBr(dispatch_bb_);
        return;
    }
    if (in.op == "ret" || in.op == "exit") {
        Value *live = B_.CreateLoad(I(1), live_slot_);
        if (g && next < (int)wblocks_.size()) {
            Value *pc = B_.CreateLoad(I(32), pc_slot_);
            B_.CreateStore(B_.CreateSelect(B_.CreateAnd(m, B_.CreateNot(g)), CI(32, (uint32_t)next), pc), pc_slot_);
            return ExitLanes(B_.CreateAnd(live, B_.CreateNot(em_)));
        }
        return ExitLanes(B_.CreateAnd(live, B_.CreateNot(m)));  // the others fall off the end
    }
    (this->*(it->second))(in);
}

void FnTranslator::EmitWarpCtaLoop(llvm::Function *warp_fn) {
    // for (g = 0; g < ceil(threads / kLanes); ++g) { ctx->warpid = g; rc = gang_fn(ctx); if rc: return rc }
    plan_.cta_symbol = "rndn_cta_" + f_.name;
    llvm::Function *cf = NewKernelFn(plan_.cta_symbol);
    fn_ = cf;
    ctx_ = cf->getArg(0);
    BasicBlock *entry = NewBlock("entry"), *loop = NewBlock("loop"), *done = NewBlock("done");
    B_.SetInsertPoint(entry);
    Value *n = B_.CreateMul(B_.CreateMul(CtxLoad(ctx_off::ntid, S(32)), CtxLoad(ctx_off::ntid + 4, S(32))),
                            CtxLoad(ctx_off::ntid + 8, S(32)));
    Value *nw = B_.CreateUDiv(B_.CreateAdd(n, SCI(32, kLanes - 1)), SCI(32, kLanes));
    B_.CreateCondBr(B_.CreateICmpEQ(nw, SCI(32, 0)), done, loop);
    B_.SetInsertPoint(loop);
    llvm::PHINode *w = B_.CreatePHI(S(32), 2);
    w->addIncoming(SCI(32, 0), entry);
    CtxStore(ctx_off::warpid, w);
    CallOrReturn(warp_fn);
    BasicBlock *next = B_.GetInsertBlock();
    Value *w1 = B_.CreateAdd(w, SCI(32, 1));
    w->addIncoming(w1, next);
    B_.CreateCondBr(B_.CreateICmpULT(w1, nw), loop, done);
    B_.SetInsertPoint(done);
    B_.CreateRet(SCI(32, 0));
}

void FnTranslator::EmitCtaLoop() {
    // for (t = 0; t < ntid.x*ntid.y*ntid.z; ++t) { set tid, laneid, warpid, local; rc = fn(ctx); if rc: return rc }
    fn_->addFnAttr(llvm::Attribute::AlwaysInline);
    plan_.cta_symbol = "rndn_cta_" + f_.name;
    llvm::Function *cf = NewKernelFn(plan_.cta_symbol);
    llvm::Function *saved = fn_;
    Value *saved_ctx = ctx_;
    fn_ = cf;
    ctx_ = cf->getArg(0);
    BasicBlock *entry = NewBlock("entry"), *loop = NewBlock("loop"), *done = NewBlock("done");
    B_.SetInsertPoint(entry);
    Value *nx = CtxLoad(ctx_off::ntid, I(32)), *ny = CtxLoad(ctx_off::ntid + 4, I(32)), *nz = CtxLoad(ctx_off::ntid + 8, I(32));
    Value *nxy = B_.CreateMul(nx, ny);
    Value *n = B_.CreateMul(nxy, nz);
    Value *lbase = CtxLoad(ctx_off::local_base, B_.getInt8PtrTy());
    Value *lsize = CtxLoad(ctx_off::local_size, I(64));
    B_.CreateBr(loop);
    B_.SetInsertPoint(loop);
    // thread t = (z*ny + y)*nx + x; x/y/z advance incrementally (no division per thread)
    llvm::PHINode *t = B_.CreatePHI(I(32), 2), *x = B_.CreatePHI(I(32), 2), *y = B_.CreatePHI(I(32), 2),
                  *z = B_.CreatePHI(I(32), 2);
    for (auto *p : {t, x, y, z}) p->addIncoming(CI(32, 0), entry);
    CtxStore(ctx_off::tid, x);
    CtxStore(ctx_off::tid + 4, y);
    CtxStore(ctx_off::tid + 8, z);
    CtxStore(ctx_off::laneid, B_.CreateAnd(t, CI(32, 31)));
    CtxStore(ctx_off::warpid, B_.CreateLShr(t, CI(32, 5)));
    CtxStore(ctx_off::local, B_.CreateGEP(B_.getInt8Ty(), lbase, B_.CreateMul(B_.CreateZExt(t, I(64)), lsize)));
    CtxStore(ctx_off::resume, CI(32, 0));
    CallOrReturn(saved);
    BasicBlock *next = B_.GetInsertBlock();
    Value *t1 = B_.CreateAdd(t, CI(32, 1));
    Value *x1 = B_.CreateAdd(x, CI(32, 1));
    Value *xwrap = B_.CreateICmpEQ(x1, nx);
    Value *y1 = B_.CreateSelect(xwrap, B_.CreateAdd(y, CI(32, 1)), y);
    Value *ywrap = B_.CreateICmpEQ(y1, ny);
    Value *z1 = B_.CreateSelect(ywrap, B_.CreateAdd(z, CI(32, 1)), z);
    t->addIncoming(t1, next);
    x->addIncoming(B_.CreateSelect(xwrap, CI(32, 0), x1), next);
    y->addIncoming(B_.CreateSelect(ywrap, CI(32, 0), y1), next);
    z->addIncoming(z1, next);
    B_.CreateCondBr(B_.CreateICmpULT(t1, n), loop, done);
    B_.SetInsertPoint(done);
    B_.CreateRet(CI(32, 0));
    fn_ = saved;
    ctx_ = saved_ctx;
}

}  // namespace

Expected<KernelPlan> TranslateKernel(const kir::Module &m, const kir::Function &entry, const GlobalAddrs &globals,
                                     llvm::Module &out, bool lockstep) {
    if (lockstep && !HasCuts(entry)) {
        KernelPlan plan;
        FnTranslator t(m, entry, globals, out, plan);
        Status st = t.RunWarp();
        if (st.ok()) {
            plan.lockstep = true;
            return plan;
        }
        // something warp mode does not handle: drop what it emitted and run threads one by one
        for (const char *prefix : {"rndn_w_", "rndn_cta_"})
            if (llvm::Function *f = out.getFunction(prefix + entry.name)) {
                f->dropAllReferences();
                f->eraseFromParent();
            }
    }
    KernelPlan plan;
    FnTranslator t(m, entry, globals, out, plan);
    RNDN_RETURN_IF_ERROR(t.Run());
    return plan;
}

}  // namespace rndn::cpujit
