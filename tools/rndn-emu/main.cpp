// rndn-emu: run one kernel of a cubin in the SASS emulator (src/sassemu).
//
//   rndn-emu FILE.cubin --kernel NAME --grid X[,Y,Z] --block X[,Y,Z] [--shared BYTES] [--threads N]
//            [--no-check] [--check-hazards] [--trace] ARG...
//
// ARG takes rndn-run's forms: s32:V u32:V s64:V u64:V f32:V f64:V (scalars), in:FILE (a buffer
// filled from FILE; the parameter is its address), out:BYTES:FILE (a zeroed buffer written to
// FILE after the launch), inout:FILE:OUTFILE.  --trace prints every executed warp instruction
// (with the first destination's value) to stderr; --check-hazards reports control-code hazards.
#include <cstdio>
#include <string>
#include <vector>

#include "../common/launch_cli.h"
#include "sassemu/sassemu.h"

namespace {

int Usage() {
    std::fprintf(stderr,
                 "usage: rndn-emu FILE.cubin --kernel NAME --grid X[,Y,Z] --block X[,Y,Z] [--shared BYTES]\n"
                 "                [--threads N] [--no-check] [--check-hazards] [--trace] ARG...\n"
                 "  ARG: s32:V u32:V s64:V u64:V f32:V f64:V | in:FILE | out:BYTES:FILE | inout:FILE:OUTFILE\n");
    return 2;
}

}  // namespace

int main(int argc, char **argv) {
    namespace cli_ns = rndn::tools;
    cli_ns::LaunchCli cli;
    if (!cli_ns::ParseLaunchCli(argc, argv, {"--check-hazards", "--trace"}, cli)) return Usage();
    const bool hazards = cli.Has("--check-hazards"), trace = cli.Has("--trace");
    std::string bytes;
    if (!cli_ns::ReadWholeFile(cli.file, bytes)) {
        std::fprintf(stderr, "rndn-emu: cannot read %s\n", cli.file.c_str());
        return 1;
    }
    rndn::sassemu::Device dev((unsigned)cli.threads);
    auto mod = dev.LoadModule(std::vector<uint8_t>(bytes.begin(), bytes.end()));
    if (!mod.ok()) {
        std::fprintf(stderr, "rndn-emu: %s: %s\n", cli.file.c_str(), mod.status().ToString().c_str());
        return 1;
    }
    const rndn::sassemu::Kernel *k = (*mod)->Find(cli.kernel);
    if (!k) {
        std::fprintf(stderr, "rndn-emu: no kernel '%s' in %s\n", cli.kernel.c_str(), cli.file.c_str());
        return 1;
    }
    std::vector<rndn::sassemu::Arg> launch_args;
    std::vector<cli_ns::OutBuf> outs;
    int rc = cli_ns::BuildArgs<rndn::sassemu::Arg>("rndn-emu", cli.args, [&](size_t n) { return dev.Allocate(n); }, launch_args, outs);
    if (rc == 2) return Usage();
    if (rc != 0) return rc;
    rndn::sassemu::LaunchConfig cfg;
    cfg.grid = {cli.grid[0], cli.grid[1], cli.grid[2]};
    cfg.block = {cli.block[0], cli.block[1], cli.block[2]};
    cfg.dynamic_shared = (uint32_t)cli.shared;
    cfg.check_bounds = cli.check;
    cfg.check_hazards = hazards;
    cfg.trace = trace;
    rndn::sassemu::LaunchStats stats;
    rndn::Status st = dev.Launch(*k, cfg, launch_args, &stats);
    std::printf("run: %.3f ms on %u worker threads (%s), %llu warp instructions\n", stats.seconds * 1e3, dev.worker_threads(),
                (*mod)->arch_name(), (unsigned long long)stats.warp_instructions);
    if (hazards) {
        std::printf("hazards: %zu\n", stats.hazards.size());
        for (const auto &h : stats.hazards) std::printf("  %s 0x%04llx: %s\n", h.kernel.c_str(), (unsigned long long)h.address, h.what.c_str());
    }
    if (!st.ok()) {
        std::fprintf(stderr, "rndn-emu: %s\n", st.ToString().c_str());
        return 1;
    }
    if (int wrc = cli_ns::WriteOuts("rndn-emu", outs)) return wrc;
    return hazards && !stats.hazards.empty() ? 3 : 0;
}
