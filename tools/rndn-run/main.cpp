// rndn-run: run one PTX kernel on the cpu device.
//
//   rndn-run FILE.ptx --kernel NAME --grid X[,Y,Z] --block X[,Y,Z] [--shared BYTES] [--threads N]
//            [--no-check] ARG...
//
// Each ARG, in parameter order: s32:V u32:V s64:V u64:V f32:V f64:V (scalars), in:FILE (buffer
// filled from FILE; the parameter is its address), out:BYTES:FILE (zeroed buffer written to FILE
// after the launch), inout:FILE:OUTFILE.  Prints the JIT and run times.
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "../common/launch_cli.h"
#include "cpujit/cpujit.h"

namespace {

int Usage() {
    std::fprintf(stderr,
                 "usage: rndn-run FILE.ptx --kernel NAME --grid X[,Y,Z] --block X[,Y,Z] [--shared BYTES]\n"
                 "                [--threads N] [--no-check] ARG...\n"
                 "  ARG: s32:V u32:V s64:V u64:V f32:V f64:V | in:FILE | out:BYTES:FILE | inout:FILE:OUTFILE\n");
    return 2;
}

}  // namespace

int main(int argc, char **argv) {
    namespace cli_ns = rndn::tools;
    cli_ns::LaunchCli cli;
    if (!cli_ns::ParseLaunchCli(argc, argv, {}, cli)) return Usage();
    std::string ptx;
    if (!cli_ns::ReadWholeFile(cli.file, ptx)) {
        std::fprintf(stderr, "rndn-run: cannot read %s\n", cli.file.c_str());
        return 1;
    }
    rndn::cpujit::Device dev((unsigned)cli.threads);
    auto mod = dev.LoadModule(ptx);
    if (!mod.ok()) {
        std::fprintf(stderr, "rndn-run: %s: %s\n", cli.file.c_str(), mod.status().ToString().c_str());
        return 1;
    }
    const rndn::cpujit::Kernel *k = (*mod)->Find(cli.kernel);
    if (!k) {
        std::fprintf(stderr, "rndn-run: no kernel '%s' in %s\n", cli.kernel.c_str(), cli.file.c_str());
        return 1;
    }
    std::vector<rndn::cpujit::Arg> launch_args;
    std::vector<cli_ns::OutBuf> outs;
    int rc = cli_ns::BuildArgs<rndn::cpujit::Arg>("rndn-run", cli.args, [&](size_t n) { return dev.Allocate(n); }, launch_args, outs);
    if (rc == 2) return Usage();
    if (rc != 0) return rc;
    rndn::cpujit::LaunchConfig cfg;
    cfg.grid = {cli.grid[0], cli.grid[1], cli.grid[2]};
    cfg.block = {cli.block[0], cli.block[1], cli.block[2]};
    cfg.dynamic_shared = (uint32_t)cli.shared;
    cfg.check_bounds = cli.check;
    auto t0 = std::chrono::steady_clock::now();
    rndn::Status st = dev.Launch(*k, cfg, launch_args);
    double run_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    std::printf("jit: %.3f ms (module), %.3f ms (kernel %s)\n", (*mod)->jit_ms(), k->jit_ms(), cli.kernel.c_str());
    std::printf("run: %.3f ms on %u worker threads\n", run_ms, dev.worker_threads());
    if (!st.ok()) {
        std::fprintf(stderr, "rndn-run: %s\n", st.ToString().c_str());
        return 1;
    }
    return cli_ns::WriteOuts("rndn-run", outs);
}
