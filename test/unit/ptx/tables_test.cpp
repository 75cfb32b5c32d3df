// Table completeness and consistency (opcodes.def, modifiers.def, types.def, sregs.def), and
// programmatic construction of a module that ptxas accepts.
#include <gtest/gtest.h>

#include <cstring>
#include <set>
#include <string>

#include "ptx/ptx.h"
#include "ptx_test_util.h"

namespace rndn::ptx {
namespace {

TEST(Tables, TypesRoundTripByName) {
    for (unsigned i = 1; i < static_cast<unsigned>(Type::COUNT); ++i) {
        Type t = static_cast<Type>(i);
        ASSERT_FALSE(TypeName(t).empty());
        EXPECT_EQ(TypeFromName(TypeName(t)), t) << TypeName(t);
        EXPECT_GT(TypeBits(t), 0u);
        EXPECT_NE(TypeKindOf(t), TypeKind::NONE);
    }
    EXPECT_EQ(TypeFromName("u33"), Type::NONE);
    EXPECT_EQ(TypeBits(Type::F64), 64u);
    EXPECT_EQ(TypeKindOf(Type::S8), TypeKind::SINT);
}

TEST(Tables, SpecialRegistersRoundTripByName) {
    for (unsigned i = 1; i < static_cast<unsigned>(SpecialReg::COUNT); ++i) {
        SpecialReg r = static_cast<SpecialReg>(i);
        EXPECT_EQ(SpecialRegFromName(SpecialRegName(r)), r) << SpecialRegName(r);
        Type t = SpecialRegType(r);
        EXPECT_TRUE(t == Type::U32 || t == Type::U64);
    }
}

TEST(Tables, OpcodeRowsAreConsistent) {
    std::set<std::string> names;
    for (unsigned i = 1; i < static_cast<unsigned>(Opcode::COUNT); ++i) {
        Opcode op = static_cast<Opcode>(i);
        const OpcodeInfo &info = GetOpcodeInfo(op);
        EXPECT_EQ(info.opcode, op);
        EXPECT_TRUE(names.insert(info.mnemonic).second) << "duplicate mnemonic " << info.mnemonic;
        EXPECT_EQ(OpcodeFromName(info.mnemonic), op) << info.mnemonic;
        if (info.types2 != 0) {
            EXPECT_NE(info.types, 0u) << info.mnemonic << ": second type without a first";
        }
        // Groups: valid, distinct, and no token shared by two groups of the same opcode (the
        // parser resolves a dotted word through the opcode's groups).
        std::set<ModGroup> seen;
        std::set<std::string> tokens;
        for (int g = 0; g < kMaxModGroups && info.groups[g] != ModGroup::NONE; ++g) {
            ModGroup grp = info.groups[g];
            ASSERT_LT(static_cast<unsigned>(grp), static_cast<unsigned>(ModGroup::COUNT));
            EXPECT_TRUE(seen.insert(grp).second) << info.mnemonic << " lists a group twice";
            for (unsigned v = 1; v < 64; ++v) {
                std::string_view tok = ModifierToken(grp, static_cast<uint8_t>(v));
                if (tok.empty()) break;
                EXPECT_TRUE(tokens.insert(std::string(tok)).second)
                    << info.mnemonic << ": token '" << tok << "' is in two of its groups";
                EXPECT_EQ(TypeFromName(tok), Type::NONE) << "modifier token " << tok << " is also a type name";
            }
        }
        // Operand roles use the documented letters.
        for (const char *p = info.operands; *p; ++p)
            EXPECT_NE(std::strchr("dwpacbqusml?|,", *p), nullptr) << info.mnemonic << ": bad role '" << *p << "'";
    }
    EXPECT_EQ(OpcodeFromName("bar.warp.sync"), Opcode::BAR_WARP_SYNC);
    EXPECT_EQ(OpcodeFromName("nosuch"), Opcode::NONE);
}

TEST(Tables, ModifierGetSetCoversEveryGroupAndValue) {
    for (unsigned g = 1; g < static_cast<unsigned>(ModGroup::COUNT); ++g) {
        ModGroup grp = static_cast<ModGroup>(g);
        EXPECT_FALSE(ModGroupName(grp).empty());
        unsigned count = 0;
        for (unsigned v = 1; v < 64 && !ModifierToken(grp, static_cast<uint8_t>(v)).empty(); ++v) {
            ++count;
            Modifiers m;
            m.Set(grp, static_cast<uint8_t>(v));
            EXPECT_EQ(m.Get(grp), v) << ModGroupName(grp);
            for (unsigned h = 1; h < static_cast<unsigned>(ModGroup::COUNT); ++h) {
                if (h != g) {
                    EXPECT_EQ(m.Get(static_cast<ModGroup>(h)), 0u) << "Set(" << ModGroupName(grp) << ") leaked";
                }
            }
            EXPECT_FALSE(m == Modifiers{});
        }
        EXPECT_GT(count, 0u) << ModGroupName(grp);
    }
    EXPECT_EQ(ModifierToken(ModGroup::SPACE, static_cast<uint8_t>(StateSpace::SHARED_CTA)), "shared::cta");
    EXPECT_EQ(ModifierToken(ModGroup::CMP, static_cast<uint8_t>(CmpOp::UNORDERED)), "nan");
}

// Build a kernel through the IR API (as codegen would), print it, and have ptxas assemble it.
TEST(Builder, ProgrammaticModulePrintsParsesAndAssembles) {
    Module m;
    m.version_major = 8;
    m.version_minor = 0;
    m.target = {"sm_80"};
    Function f;
    f.name = "inc";
    f.is_entry = true;
    f.linkage = Linkage::VISIBLE;
    Variable p;
    p.name = "inc_p0";
    p.space = StateSpace::PARAM;
    p.type = Type::U64;
    f.params.push_back(p);
    RegId rd = f.AddRegisters(Type::B64, "%rd", 4);
    RegId r = f.AddRegisters(Type::B32, "%r", 3);
    auto inst = [](Opcode op, Type t) {
        Instruction i;
        i.opcode = op;
        i.type = t;
        return i;
    };
    Instruction ld = inst(Opcode::LD, Type::U64);
    ld.mods.space = StateSpace::PARAM;
    Address pa;
    pa.base = AddrBase::SYMBOL;
    pa.sym = {SymbolKind::PARAM, 0};
    ld.operands = {Operand::Reg(rd + 1), Operand::Mem(pa)};
    ld.num_dests = 1;
    f.Append(ld);
    Instruction cvta = inst(Opcode::CVTA, Type::U64);
    cvta.mods.to = true;
    cvta.mods.space = StateSpace::GLOBAL;
    cvta.operands = {Operand::Reg(rd + 2), Operand::Reg(rd + 1)};
    cvta.num_dests = 1;
    f.Append(cvta);
    Instruction tid = inst(Opcode::MOV, Type::U32);
    tid.operands = {Operand::Reg(r + 1), Operand::Sreg(SpecialReg::TID_X)};
    tid.num_dests = 1;
    f.Append(tid);
    Instruction wide = inst(Opcode::MUL, Type::U32);
    wide.mods.mul_mode = MulMode::WIDE;
    wide.operands = {Operand::Reg(rd + 3), Operand::Reg(r + 1), Operand::Int(4)};
    wide.num_dests = 1;
    f.Append(wide);
    Instruction add = inst(Opcode::ADD, Type::S64);
    add.operands = {Operand::Reg(rd + 3), Operand::Reg(rd + 2), Operand::Reg(rd + 3)};
    add.num_dests = 1;
    f.Append(add);
    Instruction ldg = inst(Opcode::LD, Type::U32);
    ldg.mods.space = StateSpace::GLOBAL;
    Address ga;
    ga.base = AddrBase::REG;
    ga.reg = rd + 3;
    ldg.operands = {Operand::Reg(r + 2), Operand::Mem(ga)};
    ldg.num_dests = 1;
    f.Append(ldg);
    Instruction inc = inst(Opcode::ADD, Type::S32);
    inc.operands = {Operand::Reg(r + 2), Operand::Reg(r + 2), Operand::Int(1)};
    inc.num_dests = 1;
    f.Append(inc);
    Instruction st = inst(Opcode::ST, Type::U32);
    st.mods.space = StateSpace::GLOBAL;
    st.operands = {Operand::Mem(ga), Operand::Reg(r + 2)};
    f.Append(st);
    LabelId done = f.AddLabel("$L_done");
    f.PlaceLabel(done);
    f.Append(inst(Opcode::RET, Type::NONE));
    m.order.push_back({ItemKind::FUNCTION, 0});
    m.functions.push_back(std::move(f));

    Status vs = Verify(m);
    ASSERT_TRUE(vs.ok()) << vs.message();
    std::string text = Print(m);
    EXPECT_NE(text.find("\tmul.wide.u32 %rd3, %r1, 4;\n"), std::string::npos) << text;
    EXPECT_NE(text.find("\tcvta.to.global.u64 %rd2, %rd1;\n"), std::string::npos) << text;
    auto back = ParseModule(text, "built.ptx");
    ASSERT_TRUE(back.ok()) << back.status().message();
    EXPECT_EQ(Print(*back), text);
    testing::TempDir tmp;
    std::string path = tmp.path() + "/built.ptx";
    ASSERT_TRUE(testing::WriteFile(path, text));
    std::string out;
    EXPECT_EQ(testing::RunCommand(testing::Ptxas() + " -arch=sm_80 '" + path + "' -o '" + path + ".cubin'", &out), 0) << out;
}

}  // namespace
}  // namespace rndn::ptx

namespace rndn::ptx {
namespace {

// Initialisers of every kind survive printing, and ptxas accepts the printed module.
TEST(Printer, InitialisersRoundTripAndAssemble) {
    const char *text = R"(.version 8.0
.target sm_80
.address_size 64
.global .align 4 .u32 tbl[2] = {1, 2};
.global .align 8 .u64 ptrs[2] = {generic(tbl), tbl};
.global .align 4 .f32 scale = 1.5;
.global .v2 .u32 pair = {3, 4};
.const .align 8 .f64 dd[2] = {0d3FF0000000000000, -2.5};
.entry k(.param .u64 p)
{
	.reg .b64 %rd<3>;
	.reg .f32 %f<2>;
	ld.global.u64 %rd1, [ptrs+8];
	ld.global.f32 %f1, [scale];
	ret;
}
)";
    auto m = ParseModule(text, "init.ptx");
    ASSERT_TRUE(m.ok()) << m.status().message();
    ASSERT_TRUE(Verify(*m).ok()) << Verify(*m).message();
    const Variable &ptrs = m->globals[1];
    ASSERT_EQ(ptrs.init.size(), 2u);
    EXPECT_TRUE(ptrs.init[0].is_symbol && ptrs.init[0].generic && ptrs.init[0].symbol == "tbl");
    EXPECT_TRUE(ptrs.init[1].is_symbol && !ptrs.init[1].generic);
    EXPECT_EQ(m->globals[2].init[0].imm.AsF64(), 1.5);
    EXPECT_EQ(m->globals[3].vec, VecWidth::V2);
    EXPECT_EQ(m->globals[3].SizeBytes(), 8u);
    EXPECT_EQ(m->globals[4].init[1].imm.AsF64(), -2.5);
    std::string p1 = Print(*m);
    auto m2 = ParseModule(p1, "init2.ptx");
    ASSERT_TRUE(m2.ok()) << m2.status().message();
    EXPECT_EQ(Print(*m2), p1);
    testing::TempDir tmp;
    std::string path = tmp.path() + "/init.ptx";
    ASSERT_TRUE(testing::WriteFile(path, p1));
    std::string out;
    EXPECT_EQ(testing::RunCommand(testing::Ptxas() + " -arch=sm_80 '" + path + "' -o '" + path + ".cubin'", &out), 0) << out << p1;
}

}  // namespace
}  // namespace rndn::ptx
