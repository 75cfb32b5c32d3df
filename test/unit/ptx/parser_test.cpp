// Parser: the IR fields produced for each construct, checked against values derived by hand
// from the PTX ISA (bit patterns of float literals, two's complement of negative constants, ...).
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "ptx/ptx.h"

namespace rndn::ptx {
namespace {

const char *kHeader = ".version 8.5\n.target sm_80\n.address_size 64\n";

Module MustParse(const std::string &body) {
    auto m = ParseModule(std::string(kHeader) + body, "t.ptx");
    EXPECT_TRUE(m.ok()) << m.status().message();
    if (!m.ok()) return Module{};
    Status st = Verify(*m);
    EXPECT_TRUE(st.ok()) << st.message();
    return std::move(m).value();
}

std::vector<const Instruction *> Insts(const Function &f) {
    std::vector<const Instruction *> v;
    for (const Statement &s : f.body)
        if (s.kind == StatementKind::INSTRUCTION) v.push_back(&s.inst);
    return v;
}

TEST(Parser, ModuleHeader) {
    Module m = MustParse(".entry k() { ret; }\n");
    EXPECT_EQ(m.version_major, 8u);
    EXPECT_EQ(m.version_minor, 5u);
    ASSERT_EQ(m.target.size(), 1u);
    EXPECT_EQ(m.target[0], "sm_80");
    EXPECT_EQ(m.SmVersion(), 80u);
    EXPECT_EQ(m.address_size, 64u);
    ASSERT_EQ(m.functions.size(), 1u);
    EXPECT_TRUE(m.functions[0].is_entry);
    EXPECT_TRUE(m.functions[0].has_body);
}

TEST(Parser, KernelParamsAndRegisterRanges) {
    Module m = MustParse(R"(
.visible .entry k(.param .u64 .ptr .global .align 16 k_p0, .param .u32 k_p1, .param .align 8 .b8 k_p2[24])
.maxntid 256, 1, 1
.minnctapersm 2
{
    .reg .b32 %r<5>;
    .reg .pred %p;
    .reg .f64 %fd1, %fd2;
    ld.param.u32 %r1, [k_p1];
    ret;
}
)");
    const Function &f = m.functions[0];
    EXPECT_EQ(f.linkage, Linkage::VISIBLE);
    ASSERT_EQ(f.params.size(), 3u);
    EXPECT_TRUE(f.params[0].is_ptr);
    EXPECT_EQ(f.params[0].ptr_space, StateSpace::GLOBAL);
    EXPECT_EQ(f.params[0].ptr_align, 16u);
    EXPECT_EQ(f.params[0].type, Type::U64);
    EXPECT_EQ(f.params[2].align, 8u);
    ASSERT_EQ(f.params[2].dims.size(), 1u);
    EXPECT_EQ(f.params[2].dims[0], 24u);
    EXPECT_EQ(f.params[2].SizeBytes(), 24u);
    ASSERT_EQ(f.perf.size(), 2u);
    EXPECT_EQ(f.perf[0].kind, PerfDirective::MAXNTID);
    EXPECT_EQ(f.perf[0].values, (std::vector<uint32_t>{256, 1, 1}));
    EXPECT_EQ(f.perf[1].kind, PerfDirective::MINNCTAPERSM);
    // %r<5> declares %r0..%r4; then %p, %fd1, %fd2.
    ASSERT_EQ(f.regs.size(), 8u);
    EXPECT_EQ(f.regs[0].name, "%r0");
    EXPECT_EQ(f.regs[4].name, "%r4");
    EXPECT_EQ(f.regs[4].type, Type::B32);
    EXPECT_EQ(f.regs[5].type, Type::PRED);
    EXPECT_EQ(f.regs[7].name, "%fd2");
    ASSERT_EQ(f.reg_decls.size(), 4u);
    EXPECT_EQ(f.reg_decls[0].count, 5u);
    auto in = Insts(f);
    ASSERT_EQ(in.size(), 2u);
    EXPECT_EQ(in[0]->opcode, Opcode::LD);
    EXPECT_EQ(in[0]->mods.space, StateSpace::PARAM);
    EXPECT_EQ(in[0]->type, Type::U32);
    EXPECT_EQ(in[0]->num_dests, 1);
    ASSERT_EQ(in[0]->operands.size(), 2u);
    EXPECT_EQ(in[0]->operands[0].kind, OperandKind::REG);
    EXPECT_EQ(in[0]->operands[0].reg, f.FindRegister("%r1"));
    const Operand &a = in[0]->operands[1];
    EXPECT_EQ(a.kind, OperandKind::ADDRESS);
    EXPECT_EQ(a.addr.base, AddrBase::SYMBOL);
    EXPECT_EQ(a.addr.sym.kind, SymbolKind::PARAM);
    EXPECT_EQ(a.addr.sym.index, 1u);
    EXPECT_EQ(in[1]->opcode, Opcode::RET);
}

TEST(Parser, ImmediatesAndAddresses) {
    Module m = MustParse(R"(
.entry k(.param .u64 p)
{
    .reg .b32 %r<4>;
    .reg .f32 %f<3>;
    .reg .f64 %fd<2>;
    .reg .b64 %rd<3>;
    mov.u32 %r1, 0xFFFFFFFF;
    mov.u32 %r2, -7;
    mov.f32 %f1, 0f3F800000;
    mov.f64 %fd1, 0dC000000000000000;
    add.s32 %r3, %r1, 0b101;
    add.s32 %r3, %r3, 017;
    ld.global.u32 %r1, [%rd1+-4];
    ld.global.u32 %r1, [%rd1+16];
    ld.global.v4.f32 {%f0, %f1, %f2, %f1}, [%rd2];
    st.global.v2.u32 [%rd1+8], {%r1, %r2};
    mov.b64 {%r1, %r2}, %rd1;
    ret;
}
)");
    const Function &f = m.functions[0];
    auto in = Insts(f);
    ASSERT_GE(in.size(), 11u);
    EXPECT_EQ(in[0]->operands[1].imm.kind, ImmKind::INT);
    EXPECT_EQ(in[0]->operands[1].imm.bits, 0xFFFFFFFFull);
    EXPECT_EQ(in[1]->operands[1].imm.AsInt(), -7);
    EXPECT_EQ(in[2]->operands[1].imm.kind, ImmKind::F32);
    EXPECT_EQ(in[2]->operands[1].imm.AsF32(), 1.0f);  // 0x3F800000 is 1.0f
    EXPECT_EQ(in[3]->operands[1].imm.kind, ImmKind::F64);
    EXPECT_EQ(in[3]->operands[1].imm.AsF64(), -2.0);  // 0xC000000000000000 is -2.0
    EXPECT_EQ(in[4]->operands[2].imm.AsInt(), 5);     // 0b101
    EXPECT_EQ(in[5]->operands[2].imm.AsInt(), 15);    // octal 017
    EXPECT_EQ(in[6]->operands[1].addr.base, AddrBase::REG);
    EXPECT_EQ(in[6]->operands[1].addr.reg, f.FindRegister("%rd1"));
    EXPECT_EQ(in[6]->operands[1].addr.offset, -4);
    EXPECT_EQ(in[7]->operands[1].addr.offset, 16);
    EXPECT_EQ(in[8]->mods.vec, VecWidth::V4);
    ASSERT_EQ(in[8]->operands[0].kind, OperandKind::VECTOR);
    ASSERT_EQ(in[8]->operands[0].elems.size(), 4u);
    EXPECT_EQ(in[8]->operands[0].elems[2].reg, f.FindRegister("%f2"));
    EXPECT_EQ(in[9]->opcode, Opcode::ST);
    EXPECT_EQ(in[9]->num_dests, 0);
    EXPECT_EQ(in[9]->operands[0].kind, OperandKind::ADDRESS);
    EXPECT_EQ(in[9]->operands[1].elems.size(), 2u);
    EXPECT_EQ(in[10]->opcode, Opcode::MOV);
    EXPECT_EQ(in[10]->operands[0].kind, OperandKind::VECTOR);
}

TEST(Parser, ModifiersAreStructured) {
    Module m = MustParse(R"(
.entry k()
{
    .reg .b32 %r<4>;
    .reg .f32 %f<4>;
    .reg .f64 %fd<4>;
    .reg .b64 %rd<4>;
    .reg .pred %p<4>;
    cvt.rzi.s32.f32 %r1, %f1;
    cvt.rn.f32.f64 %f1, %fd1;
    add.rn.ftz.sat.f32 %f1, %f2, %f3;
    mul.wide.u32 %rd1, %r1, %r2;
    mad.hi.s32 %r1, %r2, %r3, %r1;
    div.full.f32 %f1, %f2, %f3;
    setp.ltu.and.f32 %p1|%p2, %f1, %f2, !%p3;
    atom.acq_rel.gpu.global.cas.b64 %rd1, [%rd2], %rd3, %rd1;
    red.relaxed.cta.shared.add.u32 [%rd2], 2;
    ld.relaxed.sys.global.L1::evict_last.u32 %r1, [%rd1];
    ld.global.cg.nc.v2.f32 {%f1, %f2}, [%rd1];
    shfl.sync.bfly.b32 %r1|%p1, %r2, 16, 31, -1;
    vote.sync.ballot.b32 %r1, %p1, -1;
    match.all.sync.b64 %r1|%p2, %rd1, -1;
    shf.r.clamp.b32 %r1, %r2, %r3, %r1;
    bar.red.popc.u32 %r1, 0, %p1;
    barrier.sync.aligned 1, 64;
    fence.acq_rel.gpu;
    membar.gl;
    cvta.to.global.u64 %rd1, %rd2;
    min.NaN.f32 %f1, %f2, %f3;
    max.xorsign.abs.f32 %f1, %f2, %f3;
    ret;
}
)");
    auto in = Insts(m.functions[0]);
    ASSERT_EQ(in.size(), 23u);
    EXPECT_EQ(in[0]->opcode, Opcode::CVT);
    EXPECT_EQ(in[0]->mods.rounding, Rounding::RZI);
    EXPECT_EQ(in[0]->type, Type::S32);
    EXPECT_EQ(in[0]->type2, Type::F32);
    EXPECT_EQ(in[1]->mods.rounding, Rounding::RN);
    EXPECT_EQ(in[1]->type2, Type::F64);
    EXPECT_TRUE(in[2]->mods.ftz);
    EXPECT_TRUE(in[2]->mods.sat);
    EXPECT_EQ(in[2]->mods.rounding, Rounding::RN);
    EXPECT_EQ(in[3]->mods.mul_mode, MulMode::WIDE);
    EXPECT_EQ(in[4]->mods.mul_mode, MulMode::HI);
    EXPECT_TRUE(in[5]->mods.full);
    EXPECT_EQ(in[6]->mods.cmp, CmpOp::LTU);
    EXPECT_EQ(in[6]->mods.bool_op, BoolOp::AND);
    EXPECT_EQ(in[6]->num_dests, 2);
    EXPECT_TRUE(in[6]->operands[4].negated);
    EXPECT_EQ(in[7]->mods.sem, MemSem::ACQ_REL);
    EXPECT_EQ(in[7]->mods.scope, Scope::GPU);
    EXPECT_EQ(in[7]->mods.space, StateSpace::GLOBAL);
    EXPECT_EQ(in[7]->mods.atom_op, AtomOp::CAS);
    EXPECT_EQ(in[7]->operands.size(), 4u);
    EXPECT_EQ(in[8]->opcode, Opcode::RED);
    EXPECT_EQ(in[8]->mods.space, StateSpace::SHARED);
    EXPECT_EQ(in[8]->mods.scope, Scope::CTA);
    EXPECT_EQ(in[9]->mods.evict, EvictHint::L1_EVICT_LAST);
    EXPECT_EQ(in[9]->mods.sem, MemSem::RELAXED);
    EXPECT_EQ(in[10]->mods.cache, CacheOp::CG);
    EXPECT_TRUE(in[10]->mods.nc);
    EXPECT_EQ(in[10]->mods.vec, VecWidth::V2);
    EXPECT_TRUE(in[11]->mods.sync);
    EXPECT_EQ(in[11]->mods.shfl_mode, ShflMode::BFLY);
    EXPECT_EQ(in[11]->num_dests, 2);
    EXPECT_EQ(in[11]->operands.size(), 6u);
    EXPECT_EQ(in[12]->mods.vote_mode, VoteMode::BALLOT);
    EXPECT_EQ(in[13]->opcode, Opcode::MATCH);
    EXPECT_EQ(in[13]->mods.vote_mode, VoteMode::ALL);
    EXPECT_EQ(in[14]->mods.shf_dir, ShfDir::R);
    EXPECT_EQ(in[14]->mods.shf_mode, ShfMode::CLAMP);
    EXPECT_EQ(in[15]->opcode, Opcode::BAR_RED);
    EXPECT_EQ(in[15]->mods.bool_op, BoolOp::POPC);
    EXPECT_EQ(in[16]->opcode, Opcode::BARRIER_SYNC);
    EXPECT_TRUE(in[16]->mods.aligned);
    EXPECT_EQ(in[17]->opcode, Opcode::FENCE);
    EXPECT_EQ(in[18]->mods.membar_level, MembarLevel::GL);
    EXPECT_TRUE(in[19]->mods.to);
    EXPECT_TRUE(in[20]->mods.nan_mode);
    EXPECT_TRUE(in[21]->mods.xorsign_abs);
}

TEST(Parser, ModifierOrderIsFreeAndPrintedCanonically) {
    // ptxas accepts atom's .space before or after the operation; we print one canonical order.
    Module a = MustParse(".entry k(){ .reg .b64 %rd<2>; .reg .b32 %r<2>; atom.global.add.u32 %r1, [%rd1], 1; ret; }");
    Module b = MustParse(".entry k(){ .reg .b64 %rd<2>; .reg .b32 %r<2>; atom.add.global.u32 %r1, [%rd1], 1; ret; }");
    EXPECT_EQ(Print(a), Print(b));
    EXPECT_NE(Print(a).find("atom.global.add.u32 %r1, [%rd1], 1;"), std::string::npos) << Print(a);
}

TEST(Parser, SpecialRegistersGuardsLabels) {
    Module m = MustParse(R"(
.entry k()
{
    .reg .b32 %r<4>;
    .reg .b64 %rd<2>;
    .reg .pred %p<2>;
    mov.u32 %r1, %tid.x;
    mov.u32 %r2, %ctaid.z;
    mov.u32 %r3, %laneid;
    mov.u64 %rd1, %clock64;
    setp.eq.s32 %p1, %r1, 0;
$L_loop:
    @!%p1 bra $L_done;
    @%p1 bra.uni $L_loop;
$L_done:
    ret;
}
)");
    const Function &f = m.functions[0];
    auto in = Insts(f);
    EXPECT_EQ(in[0]->operands[1].kind, OperandKind::SREG);
    EXPECT_EQ(in[0]->operands[1].sreg, SpecialReg::TID_X);
    EXPECT_EQ(in[1]->operands[1].sreg, SpecialReg::CTAID_Z);
    EXPECT_EQ(in[2]->operands[1].sreg, SpecialReg::LANEID);
    EXPECT_EQ(in[3]->operands[1].sreg, SpecialReg::CLOCK64);
    EXPECT_EQ(SpecialRegType(SpecialReg::CLOCK64), Type::U64);
    ASSERT_EQ(f.labels.size(), 2u);
    const Instruction *br = in[5];
    EXPECT_EQ(br->opcode, Opcode::BRA);
    EXPECT_TRUE(br->guard.present);
    EXPECT_TRUE(br->guard.negated);
    EXPECT_EQ(br->guard.reg, f.FindRegister("%p1"));
    EXPECT_EQ(br->operands[0].kind, OperandKind::LABEL);
    LabelId done = f.FindLabel("$L_done");
    EXPECT_EQ(br->operands[0].label, done);
    ASSERT_NE(f.labels[done].stmt, kNoId);
    EXPECT_EQ(f.body[f.labels[done].stmt].kind, StatementKind::LABEL);
    EXPECT_TRUE(in[6]->mods.uni);
}

TEST(Parser, GlobalsInitialisersAndExternShared) {
    Module m = MustParse(R"(
.const .align 4 .b8 tbl[8] = {1, 0, 0, 0, 255, 255, 255, 255};
.global .align 8 .u64 magic = 81985529216486895;
.global .f32 fl[2] = {0f3F800000, 0fBF800000};
.extern .shared .align 16 .b8 dyn[];
.shared .align 4 .u32 counters[4][8];
.entry k()
{
    .reg .b64 %rd<3>;
    .reg .b32 %r<3>;
    mov.u64 %rd1, tbl;
    cvta.const.u64 %rd2, %rd1;
    mov.u32 %r1, dyn;
    ld.shared.u32 %r2, [counters+12];
    ld.const.u32 %r2, [tbl+4];
    ret;
}
)");
    ASSERT_EQ(m.globals.size(), 5u);
    EXPECT_EQ(m.globals[0].space, StateSpace::CONST);
    EXPECT_EQ(m.globals[0].SizeBytes(), 8u);
    ASSERT_EQ(m.globals[0].init.size(), 8u);
    EXPECT_EQ(m.globals[0].init[4].imm.AsInt(), 255);
    EXPECT_EQ(m.globals[1].init[0].imm.bits, 0x0123456789abcdefull);
    EXPECT_EQ(m.globals[2].init[1].imm.AsF32(), -1.0f);
    EXPECT_EQ(m.globals[3].linkage, Linkage::EXTERN);
    EXPECT_EQ(m.globals[3].dims, (std::vector<uint64_t>{0}));
    EXPECT_EQ(m.globals[4].dims, (std::vector<uint64_t>{4, 8}));
    EXPECT_EQ(m.globals[4].SizeBytes(), 128u);
    auto in = Insts(m.functions[0]);
    EXPECT_EQ(in[0]->operands[1].kind, OperandKind::SYMBOL);
    EXPECT_EQ(in[0]->operands[1].sym.kind, SymbolKind::GLOBAL);
    EXPECT_EQ(in[0]->operands[1].sym.index, 0u);
    EXPECT_EQ(in[3]->operands[1].addr.base, AddrBase::SYMBOL);
    EXPECT_EQ(in[3]->operands[1].addr.sym.index, 4u);
    EXPECT_EQ(in[3]->operands[1].addr.offset, 12);
}

TEST(Parser, FunctionsCallsAndScopes) {
    Module m = MustParse(R"(
.func (.param .b32 ret0) add1(.param .b32 a0);
.visible .entry k(.param .u64 out)
{
    .reg .b32 %r<3>;
    mov.u32 %r1, 41;
    {
        .reg .b32 t;
        .param .b32 param0;
        st.param.b32 [param0], %r1;
        .param .b32 retval0;
        call.uni (retval0), add1, (param0);
        ld.param.b32 t, [retval0];
        mov.u32 %r2, t;
    }
    {
        .reg .pred t;
        setp.eq.s32 t, %r2, 42;
    }
    ret;
}
.func (.param .b32 ret0) add1(.param .b32 a0)
{
    .reg .b32 %r<2>;
    ld.param.b32 %r0, [a0];
    add.s32 %r1, %r0, 1;
    st.param.b32 [ret0], %r1;
    ret;
}
)");
    ASSERT_EQ(m.functions.size(), 2u);
    uint32_t fi = m.FindFunction("add1");
    EXPECT_TRUE(m.functions[fi].has_body);  // the definition replaced the prototype in place
    EXPECT_EQ(m.functions[fi].ret_params.size(), 1u);
    const Function &k = m.functions[m.FindFunction("k")];
    // Two registers named "t" in different scopes: distinct ids and types.
    int t_count = 0;
    for (const Register &r : k.regs) t_count += r.name == "t";
    EXPECT_EQ(t_count, 2);
    const Instruction *call = nullptr;
    for (auto *i : Insts(k))
        if (i->opcode == Opcode::CALL) call = i;
    ASSERT_NE(call, nullptr);
    EXPECT_TRUE(call->mods.uni);
    EXPECT_EQ(call->num_dests, 1);
    ASSERT_EQ(call->operands.size(), 3u);
    EXPECT_EQ(call->operands[0].sym.kind, SymbolKind::LOCAL);
    EXPECT_EQ(k.vars[call->operands[0].sym.index].name, "retval0");
    EXPECT_EQ(call->operands[1].sym.kind, SymbolKind::FUNCTION);
    EXPECT_EQ(call->operands[1].sym.index, fi);
    EXPECT_EQ(k.vars[call->operands[2].sym.index].name, "param0");
    const Function &f = m.functions[fi];
    auto fin = Insts(f);
    EXPECT_EQ(fin[2]->operands[0].addr.sym.kind, SymbolKind::RET_PARAM);
}

TEST(Parser, CommentsDebugDirectivesAndPragmas) {
    Module m = MustParse(R"(
// line comment
.file 1 "k.cu"
/* block
   comment */
.entry k()
{
    .reg .b32 %r<2>;
    .loc 1 10 3
    .pragma "nounroll";
    mov.u32 %r1, 1; // trailing
    ret;
}
)");
    const Function &f = m.functions[0];
    bool pragma = false;
    for (const Statement &s : f.body) pragma |= s.kind == StatementKind::PRAGMA && s.text == "nounroll";
    EXPECT_TRUE(pragma);
    EXPECT_EQ(Insts(f).size(), 2u);
}

TEST(Parser, SourceLocationsAreOneBased) {
    auto m = ParseModule(".version 8.0\n.target sm_80\n.address_size 64\n.entry k()\n{\n  ret;\n}\n", "x.ptx");
    ASSERT_TRUE(m.ok());
    auto in = Insts(m->functions[0]);
    EXPECT_EQ(in[0]->loc.line, 6u);
    EXPECT_EQ(in[0]->loc.col, 3u);
}

}  // namespace
}  // namespace rndn::ptx
