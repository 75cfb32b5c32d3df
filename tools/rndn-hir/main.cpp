// rndn-hir: check | print | run a HorseIR program.
//   rndn-hir check [--shapes] PROGRAM.hir   (--shapes: every variable's type, shape and class)
//   rndn-hir print PROGRAM.hir
//   rndn-hir run PROGRAM.hir [--schema SCHEMA.sql --data DIR] [--time] [--device=interp|cpu|cuda [--outline=M]]
//     --device=interp: through runtime::CompiledPlan on the interp device, inputs bound as columns
//     --device=cpu: outlined kernels on the cpu device, the rest on the interpreter (codegen::Runner)
//     --device=cuda: outlined kernels compiled by rndn::sasscomp on the CUDA driver ($RNDN_LIBCUDA or
//       libcuda.so.1), the rest on the interpreter
//   rndn-hir compile PROGRAM.hir [--emit=outlined|ptx] [--outline=none|flow|full] [--arch=sm_XX] [--group-form=atomics|cells]
#include <chrono>
#include <ctime>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include "horseir/horseir.h"
#include "runtime/runtime.h"

namespace rndn::hirtool {  // codegen_cmds.cpp
int CompileCommand(const hir::Program &prog, const std::string &emit, const std::string &outline, const std::string &arch,
                   const std::string &group_form);
Expected<hir::Value> RunOnCpu(const hir::Program &prog, hir::DataRegistry &data, const hir::InterpretOptions &opts,
                              const std::string &outline, bool timing);
}  // namespace rndn::hirtool

namespace {

int Usage() {
    std::fprintf(stderr, "usage: rndn-hir check [--shapes] PROGRAM.hir\n"
                         "       rndn-hir print PROGRAM.hir\n"
                         "       rndn-hir run PROGRAM.hir [--schema SCHEMA.sql --data DIR] [--time] [--device=interp|cpu|cuda [--outline=M]]\n"
                         "       rndn-hir compile PROGRAM.hir [--emit=outlined|ptx] [--outline=none|flow|full] [--arch=sm_XX] [--group-form=atomics|cells]\n");
    return 2;
}

bool ReadFile(const std::string &path, std::string &out) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return false;
    std::ostringstream ss;
    ss << in.rdbuf();
    out = ss.str();
    return true;
}

int Fail(const rndn::Status &st) {
    std::fprintf(stderr, "%s\n", st.ToString().c_str());
    return 1;
}

}  // namespace

int main(int argc, char **argv) {
    if (argc < 3) return Usage();
    std::string cmd = argv[1], path, schema, data;
    bool timing = false, shapes = false;
    std::string emit, outline, arch, device, group_form;  // compile / run --device=...
    for (int i = 2; i < argc; ++i) {
        std::string a = argv[i];
        if (a.empty() || a[0] != '-') {
            if (!path.empty()) return Usage();
            path = a;
            continue;
        }
        if (a == "--shapes" && cmd == "check") shapes = true;
        else if (a == "--schema" && i + 1 < argc) schema = argv[++i];
        else if (a == "--data" && i + 1 < argc) data = argv[++i];
        else if (a == "--time") timing = true;
        else if (a.rfind("--emit=", 0) == 0 && cmd == "compile") emit = a.substr(7);
        else if (a.rfind("--outline=", 0) == 0) outline = a.substr(10);
        else if (a.rfind("--arch=", 0) == 0 && cmd == "compile") arch = a.substr(7);
        else if (a.rfind("--group-form=", 0) == 0 && cmd == "compile") group_form = a.substr(13);
        else if (a.rfind("--device=", 0) == 0 && cmd == "run") device = a.substr(9);
        else return Usage();
    }
    if ((cmd != "check" && cmd != "print" && cmd != "run" && cmd != "compile") || path.empty()) return Usage();
    std::string text;
    if (!ReadFile(path, text)) {
        std::fprintf(stderr, "cannot read %s\n", path.c_str());
        return 1;
    }
    auto prog = rndn::hir::ParseProgram(text, path);
    if (!prog.ok()) return Fail(prog.status());
    if (cmd == "print") {
        std::cout << rndn::hir::PrintProgram(*prog);
        return 0;
    }
    rndn::Status st = rndn::hir::CheckProgram(*prog);
    if (!st.ok()) return Fail(st);
    if (cmd == "check") {
        if (shapes) {
            auto info = rndn::hir::InferShapes(*prog);
            if (!info.ok()) return Fail(info.status());
            std::cout << info->ToString();
            return 0;
        }
        std::cout << path << ": ok\n";
        return 0;
    }
    if (cmd == "compile") return rndn::hirtool::CompileCommand(*prog, emit, outline, arch, group_form);
    rndn::hir::DataRegistry registry;
    if (!schema.empty()) {
        std::string sql;
        if (!ReadFile(schema, sql)) {
            std::fprintf(stderr, "cannot read %s\n", schema.c_str());
            return 1;
        }
        auto t0 = std::chrono::steady_clock::now();
        rndn::Status ls = rndn::hir::LoadSchemaAndData(sql, data.empty() ? "." : data, registry);
        if (!ls.ok()) return Fail(ls);
        if (timing)
            std::fprintf(stderr, "load: %.1f ms\n", std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    if (!device.empty() && device != "cpu") {
        auto dev = rndn::runtime::MakeDevice(device);
        if (!dev.ok()) return Fail(dev.status());
        auto plan = rndn::runtime::CompiledPlan::Compile(std::move(*prog));
        if (!plan.ok()) return Fail(plan.status());
        rndn::runtime::Inputs inputs;
        if ((*dev)->capabilities().needs_kernels) {
            inputs.registry = &registry;  // kernel devices take the registry itself (enums as foreign keys)
        } else {
            auto tables = rndn::runtime::InputsFromRegistry(registry);
            if (!tables.ok()) return Fail(tables.status());
            inputs.tables = std::move(*tables);
        }
        rndn::runtime::RunOptions ro;
        ro.sql_semantics = false;  // HorseIR's own rules, as the plain interpreter path
        auto ms = [](auto a, auto b) { return std::chrono::duration<double, std::milli>(b - a).count(); };
        auto t0 = std::chrono::steady_clock::now();
        rndn::Status st2 = (*dev)->Prepare(*plan, ro);
        if (!st2.ok()) return Fail(st2);
        auto t1 = std::chrono::steady_clock::now();
        st2 = (*dev)->Bind(inputs);
        if (!st2.ok()) return Fail(st2);
        auto t2 = std::chrono::steady_clock::now();
        st2 = (*dev)->Run();
        if (!st2.ok()) return Fail(st2);
        auto t3 = std::chrono::steady_clock::now();
        auto result = (*dev)->Fetch();
        if (!result.ok()) return Fail(result.status());
        if (timing)
            std::fprintf(stderr, "%s: prepare %.1f ms, bind %.1f ms, run %.1f ms, fetch %.1f ms\n", device.c_str(), ms(t0, t1), ms(t1, t2),
                         ms(t2, t3), ms(t3, std::chrono::steady_clock::now()));
        if (timing) {
            rndn::runtime::RunReport rep = (*dev)->report();
            std::fprintf(stderr, "%s: %d kernels launched, %d statements compiled, %d interpreted, %d modules compiled (%d by the driver's JIT)%s%s\n",
                         device.c_str(), rep.kernels_launched, rep.statements_compiled, rep.statements_interpreted, rep.modules_compiled,
                         rep.modules_driver_jit,
                         rep.whole_program_interpreted ? "; rerun on the interpreter: " : "", rep.runner_error.c_str());
        }
        std::cout << rndn::runtime::FormatResult(*result);
        return 0;
    }
    rndn::hir::InterpretOptions opts;
    // RNDN_HIR_KEYS=rank: joins, groups and membership through the sort-based rank path (the
    // reference the hash path replaced), for before/after timings with one binary.
    if (const char *k = std::getenv("RNDN_HIR_KEYS"); k && std::string(k) == "rank") opts.hash_keys = false;
    auto t0 = std::chrono::steady_clock::now();
    auto result = device == "cpu" ? rndn::hirtool::RunOnCpu(*prog, registry, opts, outline, timing) : rndn::hir::Interpret(*prog, registry, opts);
    auto t1 = std::chrono::steady_clock::now();
    if (!result.ok()) return Fail(result.status());
    if (timing) std::fprintf(stderr, "run: %.1f ms\n", std::chrono::duration<double, std::milli>(t1 - t0).count());
    // RNDN_HIR_REPEAT=N on the interpreter: N more runs, each timed on stderr
    if (const char *rep = std::getenv("RNDN_HIR_REPEAT"); rep && device != "cpu")
        for (int i = 0, n = std::atoi(rep); i < n; ++i) {
            const std::clock_t c0 = std::clock();  // CPU time too: steadier than wall time on a loaded machine
            auto r0 = std::chrono::steady_clock::now();
            auto again = rndn::hir::Interpret(*prog, registry, opts);
            if (!again.ok()) return Fail(again.status());
            std::fprintf(stderr, "repeat run %d: %.1f ms (cpu %.1f ms)\n", i + 1,
                         std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - r0).count(),
                         1000.0 * static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC);
        }
    std::cout << rndn::hir::FormatValue(*result);
    return 0;
}
