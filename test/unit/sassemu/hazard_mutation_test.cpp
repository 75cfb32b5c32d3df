// The hazard checker against mutated ptxas code: each mutation lowers one instruction's stall
// count to 1 or clears one bit of its wait mask (through the assembler's control-field packer),
// the cubin is rewritten and the kernel runs with --check-hazards.  The unmutated cubins have no
// hazards (corpus tests); the share of mutations caught is printed and must stay meaningful.
#include <algorithm>
#include <cstdio>
#include <functional>

#include "assembler/assembler.h"
#include "harness.h"

namespace rndn::cpujit::testing {
namespace {

struct Case {
    const char *file, *kernel;
    Dim3 grid, block;
    std::function<std::vector<Arg>(Device &, std::vector<void *> &)> args;
};

template <class T>
void *Fill(Device &dev, std::vector<void *> &bufs, size_t n, T v) {
    T *p = (T *)dev.Allocate(n * sizeof(T));
    for (size_t i = 0; i < n; ++i) p[i] = (T)(v + (T)(i % 13));
    bufs.push_back(p);
    return p;
}

std::vector<Case> Cases() {
    const int n = 256;
    return {
        {"saxpy", "saxpy", {2, 1, 1}, {128, 1, 1},
         [=](Device &d, std::vector<void *> &b) {
             return std::vector<Arg>{Arg::S32(n), Arg::F32(1.5f), Arg::Ptr(Fill<float>(d, b, n, 1.f)), Arg::Ptr(Fill<float>(d, b, n, 2.f))};
         }},
        {"map_int32", "map_i32_affine", {2, 1, 1}, {128, 1, 1},
         [=](Device &d, std::vector<void *> &b) {
             return std::vector<Arg>{Arg::Ptr(Fill<int32_t>(d, b, n, 3)), Arg::Ptr(Fill<int32_t>(d, b, n, 5)), Arg::Ptr(Fill<int32_t>(d, b, n, 0)),
                                     Arg::S32(n)};
         }},
        {"map_float", "map_f32_arith", {2, 1, 1}, {128, 1, 1},
         [=](Device &d, std::vector<void *> &b) {
             return std::vector<Arg>{Arg::Ptr(Fill<float>(d, b, n, 3.f)), Arg::Ptr(Fill<float>(d, b, n, 5.f)), Arg::Ptr(Fill<float>(d, b, n, 0.f)),
                                     Arg::S32(n)};
         }},
        {"block_reduce", "block_sum_i32", {2, 1, 1}, {256, 1, 1},
         [=](Device &d, std::vector<void *> &b) {
             return std::vector<Arg>{Arg::Ptr(Fill<int32_t>(d, b, 2 * n, 1)), Arg::Ptr(Fill<int32_t>(d, b, 2, 0)), Arg::S32(2 * n)};
         }},
        {"map_double", "map_f64_arith", {2, 1, 1}, {128, 1, 1},
         [=](Device &d, std::vector<void *> &b) {
             return std::vector<Arg>{Arg::Ptr(Fill<double>(d, b, n, 3.0)), Arg::Ptr(Fill<double>(d, b, n, 5.0)), Arg::Ptr(Fill<double>(d, b, n, 0.0)),
                                     Arg::S32(n)};
         }},
    };
}

struct Tally {
    int tried = 0, caught = 0;
};

// Runs `kernel` of the (possibly mutated) cubin with hazard checking; returns the hazard count,
// or -1 when the launch failed.
int Hazards(Device &dev, const std::vector<uint8_t> &cubin, const Case &c, std::vector<uint64_t> *executed = nullptr) {
    auto m = dev.LoadModule(cubin);
    if (!m.ok()) return -1;
    const Kernel *k = (*m)->Find(c.kernel);
    if (!k) return -1;
    std::vector<void *> bufs;
    std::vector<Arg> args = c.args(dev, bufs);
    LaunchConfig cfg;
    cfg.grid = c.grid;
    cfg.block = c.block;
    cfg.check_hazards = true;
    cfg.coverage = executed != nullptr;
    sassemu::LaunchStats stats;
    Status st = dev.Launch(*k, cfg, args, &stats);
    for (void *p : bufs) dev.Free(p);
    if (!st.ok()) return -1;
    if (executed) *executed = stats.executed;
    return (int)stats.hazards.size();
}

TEST(HazardMutation, MutatedControlCodesAreCaught) {
    Device &dev = DeviceFor(1);
    Tally stall, wait;
    for (const char *arch : {"sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "sm_100", "sm_120"}) {
        for (const Case &c : Cases()) {
            std::vector<uint8_t> bytes = ReadBytes(std::string("build/corpus/") + arch + "/" + c.file + ".cubin");
            ASSERT_FALSE(bytes.empty()) << arch << " " << c.file << " (make corpus)";
            std::vector<uint64_t> executed;
            ASSERT_EQ(Hazards(dev, bytes, c, &executed), 0) << arch << " " << c.kernel << ": ptxas's own code";
            auto elf = sass::ReadCubin(bytes);
            ASSERT_TRUE(elf.ok());
            int s = elf->Find(std::string(".text.") + c.kernel);
            ASSERT_GE(s, 0);
            size_t n = elf->sections[s].data.size() / 16;
            for (size_t i = 0; i < n; ++i) {
                // a dynamic checker sees only executed code: mutate the instructions the run executes
                if (!std::binary_search(executed.begin(), executed.end(), (uint64_t)i * 16)) continue;
                auto word_at = [&](sass::ElfFile &e) {
                    sass::Word w;
                    std::memcpy(&w.lo, e.sections[s].data.data() + i * 16, 8);
                    std::memcpy(&w.hi, e.sections[s].data.data() + i * 16 + 8, 8);
                    return w;
                };
                sass::Word w = word_at(*elf);
                sass::Control ctl = sass::UnpackControl(w);
                std::vector<std::pair<sass::Control, Tally *>> mutations;
                if (ctl.stall >= 2) {
                    sass::Control m = ctl;
                    m.stall = 1;
                    mutations.push_back({m, &stall});
                }
                if (ctl.wait != 0 && ctl.wait != 0x3f)
                    for (int b = 0; b < 6; ++b)
                        if ((ctl.wait >> b) & 1) {
                            sass::Control m = ctl;
                            m.wait &= (uint8_t)~(1u << b);
                            mutations.push_back({m, &wait});
                        }
                for (auto &[mctl, tally] : mutations) {
                    sass::ElfFile mutated = *elf;
                    sass::Word mw = w;
                    sass::PackControl(mctl, &mw);
                    std::memcpy(mutated.sections[s].data.data() + i * 16, &mw.lo, 8);
                    std::memcpy(mutated.sections[s].data.data() + i * 16 + 8, &mw.hi, 8);
                    auto out = sass::WriteCubin(mutated);
                    ASSERT_TRUE(out.ok());
                    int h = Hazards(dev, *out, c);
                    ASSERT_GE(h, 0) << arch << " " << c.kernel << " mutation at 0x" << std::hex << i * 16;
                    ++tally->tried;
                    if (h > 0) ++tally->caught;
                }
            }
        }
    }
    double rs = stall.tried ? 100.0 * stall.caught / stall.tried : 0, rw = wait.tried ? 100.0 * wait.caught / wait.tried : 0;
    std::printf("hazard mutations caught: stall counts lowered to 1: %d of %d (%.1f%%); wait-mask bits cleared: %d of %d (%.1f%%); "
                "all: %d of %d (%.1f%%)\n",
                stall.caught, stall.tried, rs, wait.caught, wait.tried, rw, stall.caught + wait.caught, stall.tried + wait.tried,
                100.0 * (stall.caught + wait.caught) / std::max(1, stall.tried + wait.tried));
    ASSERT_GT(stall.tried, 100);
    ASSERT_GT(wait.tried, 100);
    // A cleared wait bit leaves a variable-latency result (or a source still being read)
    // unguarded: most must be caught.  Many stall counts are slack (a consumer that waits on a
    // scoreboard anyway, branch and issue rules outside the model), so a quarter is the floor.
    EXPECT_GE(rw, 80.0);
    EXPECT_GE(rs, 25.0);
}

}  // namespace
}  // namespace rndn::cpujit::testing
