// Lowering of the lock-step code's contiguity checks (see contiguity.h).
#include "cpujit/contiguity.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/Analysis/VectorUtils.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PatternMatch.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <vector>

namespace rndn::cpujit {
namespace {

using namespace llvm::PatternMatch;
using llvm::Value;

// addr = splat(base) + ext(index) * step, index a vector of 32-bit integers
struct Affine {
    Value *base = nullptr;   // scalar i64
    Value *index = nullptr;  // <W x i32>
    bool is_signed = false;
    llvm::Instruction *ext = nullptr, *scaled = nullptr, *addr = nullptr;  // scaled == ext when step is 1
};

bool MatchAffine(Value *addr, uint64_t step, Affine &out) {
    Value *a, *b;
    if (!llvm::isa<llvm::Instruction>(addr) || !match(addr, m_Add(m_Value(a), m_Value(b)))) return false;
    for (int swap = 0; swap < 2; ++swap, std::swap(a, b)) {
        Value *base = llvm::getSplatValue(a);
        if (!base) continue;
        Value *ext;
        const llvm::APInt *k;
        uint64_t scale = 0;
        if (match(b, m_Shl(m_Value(ext), m_APInt(k))) && k->ult(32)) scale = 1ull << k->getZExtValue();
        else if (match(b, m_Mul(m_Value(ext), m_APInt(k))) && k->ult(1ull << 31)) scale = k->getZExtValue();
        else {
            ext = b;
            scale = 1;
        }
        if (scale != step) continue;
        Value *index;
        if (match(ext, m_SExt(m_Value(index)))) out.is_signed = true;
        else if (match(ext, m_ZExt(m_Value(index)))) out.is_signed = false;
        else continue;
        auto *vt = llvm::dyn_cast<llvm::FixedVectorType>(index->getType());
        if (!vt || !vt->getElementType()->isIntegerTy(32) || !llvm::isa<llvm::Instruction>(b)) continue;
        out.ext = llvm::cast<llvm::Instruction>(ext);
        out.scaled = llvm::cast<llvm::Instruction>(b);
        out.addr = llvm::cast<llvm::Instruction>(addr);
        out.base = base;
        out.index = index;
        return true;
    }
    return false;
}

llvm::Constant *Iota(llvm::Type *elem, unsigned lanes, uint64_t step) {
    std::vector<llvm::Constant *> c;
    for (unsigned l = 0; l < lanes; ++l) c.push_back(llvm::ConstantInt::get(elem, (uint64_t)l * step));
    return llvm::ConstantVector::get(c);
}

// all(v == splat(v[0]) + iota * step)
Value *Consecutive(llvm::IRBuilder<> &b, Value *v, uint64_t step) {
    auto *vt = llvm::cast<llvm::FixedVectorType>(v->getType());
    Value *v0 = b.CreateExtractElement(v, (uint64_t)0);
    Value *want = b.CreateAdd(b.CreateVectorSplat(vt->getNumElements(), v0), Iota(vt->getElementType(), vt->getNumElements(), step));
    Value *bits = b.CreateBitCast(b.CreateICmpEQ(v, want), b.getIntNTy(vt->getNumElements()));
    return b.CreateICmpEQ(bits, llvm::ConstantInt::getAllOnesValue(bits->getType()));
}

// base + ext(index) * step for one 32-bit index: the address of the lane that holds it.
Value *ScalarAddress(llvm::IRBuilder<> &b, const Affine &af, Value *index, uint64_t step) {
    Value *e = af.is_signed ? b.CreateSExt(index, b.getInt64Ty()) : b.CreateZExt(index, b.getInt64Ty());
    return b.CreateAdd(af.base, b.CreateMul(e, b.getInt64(step)));
}

// Lane 0's address from scalars, placed right after the address vector (so it dominates every
// use of it): a consecutive access then needs no lane of the vector.
void ScalarizeFirstLane(llvm::Instruction *addr, const Affine &af, uint64_t step) {
    std::vector<llvm::ExtractElementInst *> firsts;
    for (llvm::User *u : addr->users())
        if (auto *x = llvm::dyn_cast<llvm::ExtractElementInst>(u))
            if (match(x->getIndexOperand(), m_Zero())) firsts.push_back(x);
    if (firsts.empty()) return;
    llvm::IRBuilder<> b(addr->getNextNode());
    Value *a0 = ScalarAddress(b, af, b.CreateExtractElement(af.index, (uint64_t)0), step);
    for (auto *x : firsts) {
        x->replaceAllUsesWith(a0);
        x->eraseFromParent();
    }
}

// Uses of the address vector in other blocks (the gather, range-check and fault paths, which a
// consecutive access never takes) get their own copy of the ext/scale/add chain, so the block
// that computes the address keeps only what the consecutive path needs.
void SinkAddressVector(const Affine &af) {
    llvm::Instruction *addr = af.addr;
    std::vector<llvm::Instruction *> chain = {af.ext};  // operands first
    if (af.scaled != af.ext) chain.push_back(af.scaled);
    chain.push_back(addr);
    for (auto *in : chain)
        if (in->getParent() != addr->getParent()) return;
    std::vector<llvm::Use *> far;
    for (llvm::Use &u : addr->uses()) {
        auto *user = llvm::cast<llvm::Instruction>(u.getUser());
        if (user->getParent() != addr->getParent() && !llvm::isa<llvm::PHINode>(user)) far.push_back(&u);
    }
    llvm::DenseMap<llvm::BasicBlock *, Value *> copies;
    for (llvm::Use *u : far) {
        llvm::BasicBlock *bb = llvm::cast<llvm::Instruction>(u->getUser())->getParent();
        Value *&copy = copies[bb];
        if (!copy) {
            llvm::Instruction *at = &*bb->getFirstInsertionPt();
            llvm::DenseMap<Value *, Value *> map;
            for (auto *in : chain) {
                llvm::Instruction *c = in->clone();
                for (unsigned i = 0; i < c->getNumOperands(); ++i)
                    if (auto it = map.find(c->getOperand(i)); it != map.end()) c->setOperand(i, it->second);
                c->insertBefore(at);
                map[in] = c;
            }
            copy = map[addr];
        }
        u->set(copy);
    }
}

// Iterations ahead that a strided loop's next accesses are prefetched.
constexpr int kPrefetchIterations = 16;

// A warp that walks an array with a uniform stride, as a grid-stride loop does
// (i += blockDim.x * gridDim.x), touches one short run of bytes per iteration, each run far from
// the last, so the hardware prefetcher never sees a stream; the index vector is then a loop phi
// that is incremented by a uniform value.  The run kPrefetchIterations ahead is prefetched (a
// hint: it never faults, whatever the address).
void PrefetchStride(llvm::IRBuilder<> &b, const Affine &af, Value *i0, uint64_t step, unsigned lanes,
                    llvm::DominatorTree &dt) {
    auto *phi = llvm::dyn_cast<llvm::PHINode>(af.index);
    if (!phi) return;
    Value *stride = nullptr;
    for (Value *in : phi->incoming_values()) {
        Value *s, *t;
        if (match(in, m_Select(m_Value(), m_Value(t), m_Specific(phi)))) in = t;  // a write under the lane mask
        if (match(in, m_c_Add(m_Specific(phi), m_Value(s))))
            if (Value *sc = llvm::getSplatValue(s)) {
                stride = sc;
                break;
            }
    }
    if (!stride) return;
    auto *si = llvm::dyn_cast<llvm::Instruction>(stride);
    if (si && !dt.dominates(si, &*b.GetInsertPoint())) return;
    if (auto *c = llvm::dyn_cast<llvm::ConstantInt>(stride); c && std::abs(c->getSExtValue()) * (int64_t)step < 4096)
        return;  // a walk within the page: the hardware prefetcher follows it
    llvm::Module *m = b.GetInsertBlock()->getModule();
    llvm::Function *pf = llvm::Intrinsic::getDeclaration(m, llvm::Intrinsic::prefetch, {b.getInt8PtrTy()});
    Value *ahead = b.CreateAdd(i0, b.CreateMul(stride, b.getInt32(kPrefetchIterations)));
    Value *addr = ScalarAddress(b, af, ahead, step);
    const uint64_t bytes = std::min<uint64_t>(lanes * step, 256);
    for (uint64_t off = 0; off < bytes; off += 64) {
        Value *p = b.CreateIntToPtr(b.CreateAdd(addr, b.getInt64(off)), b.getInt8PtrTy());
        b.CreateCall(pf, {p, b.getInt32(0), b.getInt32(3), b.getInt32(1)});
    }
}

// Returns true (and the address's form) when the address was affine.
bool Lower(llvm::CallInst *call, Affine &af, llvm::DominatorTree &dt) {
    llvm::IRBuilder<> b(call);
    Value *addr = call->getArgOperand(0);
    uint64_t step = llvm::cast<llvm::ConstantInt>(call->getArgOperand(1))->getZExtValue();
    unsigned lanes = llvm::cast<llvm::FixedVectorType>(addr->getType())->getNumElements();
    bool affine = MatchAffine(addr, step, af);
    Value *result;
    if (affine) {
        // Consecutive 32-bit indices whose extension does not wrap between lane 0 and the last
        // lane give consecutive addresses; the check then needs no 64-bit lane arithmetic.
        Value *i0 = b.CreateExtractElement(af.index, (uint64_t)0);
        uint64_t top = af.is_signed ? 0x7fffffffull - (lanes - 1) : 0xffffffffull - (lanes - 1);
        Value *no_wrap = af.is_signed ? b.CreateICmpSLE(i0, b.getInt32((uint32_t)top))
                                      : b.CreateICmpULE(i0, b.getInt32((uint32_t)top));
        result = b.CreateAnd(no_wrap, Consecutive(b, af.index, 1));
        PrefetchStride(b, af, i0, step, lanes, dt);
        ScalarizeFirstLane(af.addr, af, step);
    } else {
        result = Consecutive(b, addr, step);
    }
    call->replaceAllUsesWith(result);
    call->eraseFromParent();
    return affine;
}

}  // namespace

llvm::Function *ContiguityCheckFn(llvm::Module &m, unsigned lanes) {
    auto *i64 = llvm::Type::getInt64Ty(m.getContext());
    auto *fty = llvm::FunctionType::get(llvm::Type::getInt1Ty(m.getContext()),
                                        {llvm::FixedVectorType::get(i64, lanes), i64}, false);
    auto *f = llvm::cast<llvm::Function>(m.getOrInsertFunction(kContiguityCheck, fty).getCallee());
    f->setDoesNotAccessMemory();
    f->setDoesNotThrow();
    f->setWillReturn();
    return f;
}

void LowerContiguityChecks(llvm::Module &m) {
    llvm::Function *f = m.getFunction(kContiguityCheck);
    if (!f) return;
    std::vector<llvm::CallInst *> calls;
    for (llvm::User *u : f->users())
        if (auto *c = llvm::dyn_cast<llvm::CallInst>(u)) calls.push_back(c);
    llvm::DenseMap<llvm::Instruction *, Affine> affine;
    llvm::DenseMap<llvm::Function *, std::unique_ptr<llvm::DominatorTree>> dts;  // the CFG does not change here
    for (auto *c : calls) {
        auto &dt = dts[c->getFunction()];
        if (!dt) dt = std::make_unique<llvm::DominatorTree>(*c->getFunction());
        if (Affine af; Lower(c, af, *dt)) affine[af.addr] = af;
    }
    f->eraseFromParent();
    for (auto &kv : affine) SinkAddressVector(kv.second);
}

}  // namespace rndn::cpujit
