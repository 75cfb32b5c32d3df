// Malformed input: PARSE_ERROR with the right file:line:col, never a crash.  Invalid but
// well-formed PTX: the verifier rejects it, and NVIDIA's ptxas (the oracle) rejects it too.
#include <gtest/gtest.h>

#include <string>

#include "ptx/ptx.h"
#include "ptx_test_util.h"

namespace rndn::ptx {
namespace {

struct ParseCase {
    const char *name;
    const char *text;
    const char *where;    // expected "file:line:col: " prefix
    const char *message;  // expected substring
};

const char *kHdr = ".version 8.0\n.target sm_80\n.address_size 64\n";  // 3 lines

const ParseCase kParseCases[] = {
    {"no_version", ".target sm_80\n", "bad.ptx:1:1: ", "must start with .version"},
    {"unknown_instruction", ".entry k()\n{\n  frobnicate.u32 %r1;\n}\n", "bad.ptx:6:3: ", "unknown instruction 'frobnicate'"},
    {"unknown_modifier", ".entry k()\n{\n .reg .b32 %r<3>;\n add.bogus.s32 %r1, %r2, %r2;\n}\n", "bad.ptx:7:5: ",
     "unknown modifier '.bogus' for 'add'"},
    {"conflicting_modifiers", ".entry k()\n{\n .reg .f32 %f<3>;\n add.rn.rz.f32 %f1, %f2, %f2;\n}\n", "bad.ptx:7:8: ",
     "conflicting modifier '.rz'"},
    {"missing_semicolon", ".entry k()\n{\n .reg .b32 %r<3>;\n mov.u32 %r1, 1\n ret;\n}\n", "bad.ptx:8:2: ", "expected ';'"},
    {"bad_float_literal", ".entry k()\n{\n .reg .f32 %f<3>;\n mov.f32 %f1, 0f3F80;\n}\n", "bad.ptx:7:15: ",
     "exactly 8 hex digits"},
    {"unterminated_block", ".entry k()\n{\n ret;\n", "bad.ptx:7:1: ", "unexpected end of input inside function 'k'"},
    {"unterminated_comment", "/* never closed\n.entry k() { ret; }\n", "bad.ptx:4:1: ", "unterminated /* comment"},
    {"bad_character", ".entry k()\n{\n ret; #\n}\n", "bad.ptx:6:7: ", "unexpected character '#'"},
    {"unsupported_texture", ".entry k()\n{\n tex.2d.v4.f32.f32 {%f1,%f2,%f3,%f4}, [t, {%f1,%f2}];\n}\n", "bad.ptx:6:2: ",
     "unsupported PTX instruction 'tex'"},
    {"modifier_after_type", ".entry k()\n{\n .reg .b32 %r<3>;\n ld.u32.global %r1, [%r2];\n}\n", "bad.ptx:7:8: ",
     "after the type suffix"},
    {"duplicate_label", ".entry k()\n{\nL1:\nL1:\n ret;\n}\n", "bad.ptx:7:1: ", "duplicate label 'L1'"},
    {"bad_alignment", ".global .align 3 .u32 x;\n", "bad.ptx:4:16: ", "power of two"},
    {"register_redefinition", ".entry k()\n{\n .reg .b32 %r<3>;\n .reg .f32 %r1;\n}\n", "bad.ptx:7:12: ",
     "redefinition of register '%r1'"},
    {"call_undeclared", ".entry k()\n{\n call.uni nothere, ();\n}\n", "bad.ptx:6:11: ", "call to undeclared function"},
    {"integer_overflow", ".entry k()\n{\n .reg .b64 %rd<2>;\n mov.u64 %rd1, 99999999999999999999999;\n}\n", "bad.ptx:7:16: ",
     "out of range"},
    {"double_negation", ".entry k()\n{\n .reg .pred %p<2>;\n @%p1 bra L;\n L: and.pred %p1, !!%p1, %p1;\n}\n", "bad.ptx:8:20: ",
     "'!' may appear only once"},
    {"register_flood", ".entry k()\n{\n .reg .b32 %a<100000>, %b<100000>;\n}\n", "bad.ptx:6:27: ", "register count out of range"},
    {"too_many_types", ".entry k()\n{\n .reg .f32 %f<3>;\n cvt.f32.f32.f32 %f1, %f2;\n}\n", "bad.ptx:7:13: ",
     "too many type suffixes"},
};

class ParseErrorTest : public ::testing::TestWithParam<ParseCase> {};

TEST_P(ParseErrorTest, GivesParseErrorWithLocation) {
    const ParseCase &c = GetParam();
    std::string text = std::string(c.name == std::string("no_version") ? "" : kHdr) + c.text;
    auto m = ParseModule(text, "bad.ptx");
    ASSERT_FALSE(m.ok()) << "accepted: " << c.name;
    EXPECT_EQ(m.status().code(), Code::PARSE_ERROR);
    const std::string &msg = m.status().message();
    EXPECT_EQ(msg.rfind(c.where, 0), 0u) << "message: " << msg;
    EXPECT_NE(msg.find(c.message), std::string::npos) << "message: " << msg;
}

INSTANTIATE_TEST_SUITE_P(Cases, ParseErrorTest, ::testing::ValuesIn(kParseCases),
                         [](const ::testing::TestParamInfo<ParseCase> &i) { return std::string(i.param.name); });

// Well-formed PTX that is invalid: the verifier and ptxas must both reject it.
struct VerifyCase {
    const char *name;
    const char *body;     // function body lines (inside ".visible .entry k(.param .u64 k_p) { ... }")
    const char *where;    // expected location prefix of the first verifier error
    const char *message;  // expected substring
};

// The kernel header spans lines 4-5 ("{" on line 5); body line N is file line 5 + N.
const VerifyCase kVerifyCases[] = {
    {"undeclared_register", ".reg .b32 %r<2>;\nadd.s32 %r1, %r1, %r9;\nret;", "bad.ptx:7:1: ", "undeclared register or symbol '%r9'"},
    {"undefined_label", "bra $L_nowhere;\nret;", "bad.ptx:6:5: ", "undefined label '$L_nowhere'"},
    {"illegal_type_for_opcode", ".reg .b32 %r<3>;\npopc.u32 %r1, %r2;\nret;", "bad.ptx:7:1: ", "type .u32 is not legal for 'popc'"},
    {"register_type_mismatch", ".reg .f32 %f<2>;\n.reg .b32 %r<2>;\nadd.s32 %r1, %r1, %f1;\nret;", "bad.ptx:8:1: ",
     "register '%f1' of type .f32 where .s32 is expected"},
    {"predicate_guard_not_pred", ".reg .b32 %r<2>;\n@%r1 ret;", "bad.ptx:7:1: ", "is not a predicate register"},
    {"wrong_operand_count", ".reg .b32 %r<3>;\nadd.s32 %r1, %r2;\nret;", "bad.ptx:7:1: ", "takes 3 operands, got 2"},
    {"missing_type", ".reg .b32 %r<3>;\nadd %r1, %r2, %r2;\nret;", "bad.ptx:7:1: ", "needs a type suffix"},
    {"integer_mul_without_mode", ".reg .b32 %r<3>;\nmul.s32 %r1, %r2, %r2;\nret;", "bad.ptx:7:1: ", "needs .lo, .hi or .wide"},
    {"fma_without_rounding", ".reg .f32 %f<3>;\nfma.f32 %f1, %f2, %f2, %f2;\nret;", "bad.ptx:7:1: ", "fma needs a rounding mode"},
    {"cvt_float_to_int_without_rounding", ".reg .f32 %f<3>;\n.reg .b32 %r<2>;\ncvt.s32.f32 %r1, %f1;\nret;", "bad.ptx:8:1: ",
     "needs a rounding mode"},
    {"store_to_const", ".reg .b64 %rd<2>;\n.reg .b32 %r<2>;\nst.const.u32 [%rd1], %r1;\nret;", "bad.ptx:8:1: ", "st to .const"},
    {"atom_on_local", ".reg .b64 %rd<2>;\n.reg .b32 %r<2>;\natom.local.add.u32 %r1, [%rd1], 1;\nret;", "bad.ptx:8:1: ",
     "only works on .global or .shared"},
    {"setp_dest_not_pred", ".reg .b32 %r<3>;\nsetp.eq.s32 %r1, %r2, %r2;\nret;", "bad.ptx:7:1: ",
     "register '%r1' of type .b32 where .pred is expected"},
    {"vector_width_mismatch", ".reg .b64 %rd<2>;\n.reg .f32 %f<3>;\nld.global.v4.f32 {%f1, %f2}, [%rd1];\nret;", "bad.ptx:8:1: ",
     "needs a vector of 4 elements"},
    {"param_without_param_space", ".reg .b64 %rd<2>;\nld.u64 %rd1, [k_p];\nret;", "bad.ptx:7:1: ", "parameter accessed without .param"},
    {"shfl_mode_missing", ".reg .b32 %r<3>;\nshfl.sync.b32 %r1, %r2, 1, 31, -1;\nret;", "bad.ptx:7:1: ", "shfl needs .up/.down/.bfly/.idx"},
    {"special_register_in_add", ".reg .b32 %r<2>;\nadd.s32 %r1, %tid.x, 1;\nret;", "bad.ptx:7:1: ", "special register %tid.x outside mov/cvt"},
    {"special_register_size", ".reg .b64 %rd<2>;\nmov.u64 %rd1, %tid.x;\nret;", "bad.ptx:7:1: ", "special register %tid.x where .u64 is expected"},
    {"prefetch_without_level", ".reg .b64 %rd<2>;\nprefetch.global [%rd1];\nret;", "bad.ptx:7:1: ", "prefetch needs .L1 or .L2"},
    {"bitwise_atom_typed", ".reg .b64 %rd<2>;\n.reg .b32 %r<2>;\natom.global.and.u32 %r1, [%rd1], 1;\nret;", "bad.ptx:8:1: ",
     "need a .bNN type"},
};

class VerifyErrorTest : public ::testing::TestWithParam<VerifyCase> {};

TEST_P(VerifyErrorTest, VerifierAndPtxasBothReject) {
    const VerifyCase &c = GetParam();
    std::string text = std::string(kHdr) + ".visible .entry k(.param .u64 k_p)\n{\n" + c.body + "\n}\n";
    auto m = ParseModule(text, "bad.ptx");
    ASSERT_TRUE(m.ok()) << m.status().message();
    Status st = Verify(*m);
    ASSERT_FALSE(st.ok()) << "verifier accepted " << c.name;
    EXPECT_EQ(st.code(), Code::PARSE_ERROR);
    EXPECT_EQ(st.message().rfind(c.where, 0), 0u) << st.message();
    EXPECT_NE(st.message().find(c.message), std::string::npos) << st.message();

    // Oracle: ptxas must reject the same text.
    testing::TempDir tmp;
    std::string path = tmp.path() + "/bad.ptx";
    ASSERT_TRUE(testing::WriteFile(path, text));
    std::string out;
    int rc = testing::RunCommand(testing::Ptxas() + " -arch=sm_80 '" + path + "' -o '" + tmp.path() + "/bad.cubin'", &out);
    EXPECT_NE(rc, 0) << "ptxas accepted what the verifier rejects (" << c.name << ")";
}

INSTANTIATE_TEST_SUITE_P(Cases, VerifyErrorTest, ::testing::ValuesIn(kVerifyCases),
                         [](const ::testing::TestParamInfo<VerifyCase> &i) { return std::string(i.param.name); });

// Valid variants of the cases above: the verifier and ptxas both accept them (no false alarms).
const char *kValidBodies[] = {
    ".reg .b32 %r<3>;\nadd.s32 %r1, %r1, %r2;\nret;",
    ".reg .b32 %r<3>;\nmul.lo.s32 %r1, %r2, %r2;\nret;",
    ".reg .f32 %f<3>;\nfma.rn.f32 %f1, %f2, %f2, %f2;\nret;",
    ".reg .f32 %f<3>;\n.reg .b32 %r<2>;\ncvt.rzi.s32.f32 %r1, %f1;\nret;",
    ".reg .b64 %rd<2>;\n.reg .b32 %r<2>;\natom.global.and.b32 %r1, [%rd1], 1;\nret;",
    ".reg .b64 %rd<2>;\n.reg .f32 %f<5>;\nld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1];\nret;",
    ".reg .b64 %rd<2>;\nld.param.u64 %rd1, [k_p];\nret;",
    ".reg .b32 %r<3>;\nshfl.sync.idx.b32 %r1, %r2, 1, 31, -1;\nret;",
    ".reg .pred %p<3>;\n.reg .b32 %r<3>;\nsetp.lt.or.s32 %p1|%p2, %r1, %r2, !%p1;\n@!%p2 bra L;\nL:\nret;",
    ".reg .b32 %r<3>;\n.reg .b16 %h<2>;\n.reg .b64 %rd<2>;\nld.global.u8 %r1, [%rd1];\nld.global.s8 %h1, [%rd1];\nret;",
    ".reg .b32 %r<3>;\n.reg .b64 %rd<3>;\nmov.b64 %rd1, {%r1, %r2};\nmov.b64 {%r1, %r2}, %rd2;\nret;",
    ".reg .b32 %r<3>;\n.reg .pred %p<2>;\nmov.pred %p1, 0;\nvote.sync.ballot.b32 %r1, %p1, -1;\nret;",
    ".reg .b64 %rd<2>;\nprefetch.global.L2 [%rd1];\nprefetch.L1 [%rd1];\nret;",
    ".reg .b32 %r<3>;\n.reg .b64 %rd<2>;\nmov.u32 %r1, %tid.x;\ncvt.u64.u32 %rd1, %ctaid.y;\nmov.u64 %rd1, %clock64;\nret;",
};

TEST(VerifyValid, VerifierAndPtxasBothAccept) {
    testing::TempDir tmp;
    int idx = 0;
    for (const char *body : kValidBodies) {
        std::string text = std::string(kHdr) + ".visible .entry k(.param .u64 k_p)\n{\n" + body + "\n}\n";
        auto m = ParseModule(text, "ok.ptx");
        ASSERT_TRUE(m.ok()) << m.status().message() << "\n" << body;
        Status st = Verify(*m);
        EXPECT_TRUE(st.ok()) << st.message() << "\n" << body;
        std::string path = tmp.path() + "/ok" + std::to_string(idx++) + ".ptx";
        ASSERT_TRUE(testing::WriteFile(path, Print(*m)));
        std::string out;
        int rc = testing::RunCommand(testing::Ptxas() + " -arch=sm_80 '" + path + "' -o '" + path + ".cubin'", &out);
        EXPECT_EQ(rc, 0) << "ptxas rejected printed PTX:\n" << out << "\n" << Print(*m);
    }
}

// Garbage never crashes: truncations of a real kernel at every byte parse or fail cleanly.
TEST(Robustness, EveryPrefixOfAKernelParsesOrFailsCleanly) {
    std::string text;
    ASSERT_TRUE(testing::ReadFile("build/corpus/sm_80/warp_reduce.ptx", text)) << "make corpus";
    size_t ok = 0, failed = 0;
    for (size_t n = 0; n <= text.size(); n += 7) {
        auto m = ParseModule(std::string_view(text).substr(0, n), "prefix.ptx");
        if (m.ok()) {
            ++ok;
            (void)Verify(*m);
            (void)Print(*m);
        } else {
            ++failed;
            EXPECT_EQ(m.status().code(), Code::PARSE_ERROR);
            EXPECT_EQ(m.status().message().rfind("prefix.ptx:", 0), 0u);
        }
    }
    EXPECT_GT(failed, 0u);
}

}  // namespace
}  // namespace rndn::ptx
