// Differential test of the verifier against ptxas: random single-instruction mutations of corpus
// kernels (another legal type suffix, another modifier value, another register operand).  Every
// mutant the verifier accepts must be accepted by ptxas (soundness), and the verifier must not
// reject what ptxas accepts (false alarms) beyond a small tolerance.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "ptx/ptx.h"
#include "ptx_test_util.h"

namespace rndn::ptx {
namespace {

struct Tally {
    int both_accept = 0, both_reject = 0, unsound = 0, false_alarm = 0;
    std::string unsound_examples, false_alarm_examples;
};

// Returns false if nothing changed.
bool Mutate(std::mt19937 &rng, Module &m, Function *&fn, std::string &before, std::string &after) {
    std::vector<Function *> fns;
    for (Function &f : m.functions)
        if (f.has_body) fns.push_back(&f);
    if (fns.empty()) return false;
    Function &f = *fns[rng() % fns.size()];
    std::vector<size_t> idx;
    for (size_t i = 0; i < f.body.size(); ++i)
        if (f.body[i].kind == StatementKind::INSTRUCTION) idx.push_back(i);
    if (idx.empty()) return false;
    Instruction &in = f.body[idx[rng() % idx.size()]].inst;
    before = PrintInstruction(m, f, in);
    const OpcodeInfo &info = in.info();
    switch (rng() % 3) {
    case 0: {
        std::vector<Type> ts;
        for (unsigned t = 1; t < static_cast<unsigned>(Type::COUNT); ++t)
            if (info.types & TypeBit(static_cast<Type>(t))) ts.push_back(static_cast<Type>(t));
        if (ts.empty()) return false;
        in.type = ts[rng() % ts.size()];
        break;
    }
    case 1: {
        int ng = 0;
        while (ng < kMaxModGroups && info.groups[ng] != ModGroup::NONE) ++ng;
        if (ng == 0) return false;
        ModGroup g = info.groups[rng() % ng];
        unsigned nv = 0;
        while (!ModifierToken(g, static_cast<uint8_t>(nv + 1)).empty()) ++nv;
        in.mods.Set(g, static_cast<uint8_t>(rng() % (nv + 1)));
        break;
    }
    default: {
        if (in.operands.empty() || f.regs.empty()) return false;
        Operand &op = in.operands[rng() % in.operands.size()];
        if (op.kind != OperandKind::REG) return false;
        op.reg = static_cast<RegId>(rng() % f.regs.size());
        break;
    }
    }
    after = PrintInstruction(m, f, in);
    fn = &f;
    return after != before;
}

void RunMutations(const std::string &arch, uint32_t seed, int want, Tally &t) {
    std::vector<std::string> files = testing::ListFiles("build/corpus/" + arch, ".ptx");
    ASSERT_FALSE(files.empty()) << "make corpus";
    std::mt19937 rng(seed);
    testing::TempDir tmp;
    int done = 0;
    for (int attempt = 0; done < want && attempt < want * 20; ++attempt) {
        std::string text;
        ASSERT_TRUE(testing::ReadFile("build/corpus/" + arch + "/" + files[rng() % files.size()], text));
        auto m = ParseModule(text, "mutant.ptx");
        ASSERT_TRUE(m.ok()) << m.status().message();
        Function *fn = nullptr;
        std::string before, after;
        if (!Mutate(rng, *m, fn, before, after)) continue;
        ++done;
        bool verifier_ok = Verify(*m).ok();
        std::string path = tmp.path() + "/mutant.ptx";
        ASSERT_TRUE(testing::WriteFile(path, Print(*m)));
        std::string out;
        bool ptxas_ok = testing::RunCommand(testing::Ptxas() + " -arch=" + arch + " '" + path + "' -o '" + path + ".cubin'", &out) == 0;
        if (verifier_ok && ptxas_ok) ++t.both_accept;
        else if (!verifier_ok && !ptxas_ok) ++t.both_reject;
        else if (verifier_ok) {
            ++t.unsound;
            t.unsound_examples += "  " + after + "   (was " + before + ")\n    ptxas: " + out.substr(0, 200) + "\n";
        } else {
            ++t.false_alarm;
            t.false_alarm_examples += "  " + after + "   (was " + before + ")\n";
        }
    }
}

TEST(VerifierVsPtxas, RandomMutantsAgree) {
    Tally t;
    RunMutations("sm_80", 20261122u, 120, t);
    RunMutations("sm_90", 7u, 80, t);
    std::printf("[  STATS   ] mutants: both accept %d, both reject %d, verifier-only accept %d, verifier-only reject %d\n",
                t.both_accept, t.both_reject, t.unsound, t.false_alarm);
    EXPECT_EQ(t.unsound, 0) << "verifier accepted PTX that ptxas rejects:\n" << t.unsound_examples;
    int total = t.both_accept + t.both_reject + t.unsound + t.false_alarm;
    EXPECT_GE(total, 150);
    EXPECT_GT(t.both_accept, 20);
    EXPECT_GT(t.both_reject, 20);
    EXPECT_LE(t.false_alarm * 50, total) << "verifier rejects too much valid PTX:\n" << t.false_alarm_examples;
}

}  // namespace
}  // namespace rndn::ptx
