#include <chrono>
#include <cstdlib>
// rndn-hir compile (outlined program or PTX) and run --device=cpu (hybrid execution on the cpu
// device).  Kept apart from main.cpp so that the interpreter commands stay as they are.
#include <cstdio>
#include <iostream>

#include "codegen/codegen.h"
#include "cpujit/cpujit.h"

namespace rndn::hirtool {

// group_form: how by-rows grouped reductions are written ("atomics", the GPU form, by default;
// "cells": the per-cell kernel over the host's cells, the form the SASS emulator's TPC-H test runs)
int CompileCommand(const hir::Program &prog, const std::string &emit, const std::string &outline, const std::string &arch,
                   const std::string &group_form) {
    if (!group_form.empty() && group_form != "atomics" && group_form != "cells") {
        std::fprintf(stderr, "unknown --group-form=%s (atomics, cells)\n", group_form.c_str());
        return 2;
    }
    auto mode = codegen::ParseFusionMode(outline.empty() ? "full" : outline);
    if (!mode.ok()) {
        std::fprintf(stderr, "%s\n", mode.status().ToString().c_str());
        return 2;
    }
    // RNDN_HIR_COSTS=cpu: the cpu device's cost rules (what PostgreSQL's cpu device outlines)
    const char *costs = std::getenv("RNDN_HIR_COSTS");
    auto out = codegen::Outline(prog, *mode, costs && std::string(costs) == "cpu" ? codegen::CostModel::CPU_DEVICE : codegen::CostModel::ANY);
    if (!out.ok()) {
        std::fprintf(stderr, "%s\n", out.status().ToString().c_str());
        return 1;
    }
    if (emit.empty() || emit == "outlined") {
        std::cout << codegen::Print(*out);
        return 0;
    }
    if (emit == "ptx") {
        codegen::PtxOptions po;
        if (!arch.empty()) po.target = arch;
        po.group_atomics = group_form != "cells";
        auto m = codegen::GeneratePtx(*out, po);
        if (!m.ok()) {
            std::fprintf(stderr, "%s\n", m.status().ToString().c_str());
            return 1;
        }
        std::cout << ptx::Print(*m);
        return 0;
    }
    std::fprintf(stderr, "unknown --emit=%s (outlined, ptx)\n", emit.c_str());
    return 2;
}

Expected<hir::Value> RunOnCpu(const hir::Program &prog, hir::DataRegistry &data, const hir::InterpretOptions &opts,
                              const std::string &outline, bool timing) {
    RNDN_ASSIGN_OR_RETURN(auto mode, codegen::ParseFusionMode(outline.empty() ? "full" : outline));
    RNDN_ASSIGN_OR_RETURN(auto out, codegen::Outline(prog, mode,
                                                     // RNDN_HIR_COSTS=any: every kernel form, the cpu device's cost rules off
                                                     std::getenv("RNDN_HIR_COSTS") != nullptr && std::string(std::getenv("RNDN_HIR_COSTS")) == "any"
                                                         ? codegen::CostModel::ANY
                                                         : codegen::CostModel::CPU_DEVICE));
    cpujit::Device dev;
    codegen::Runner runner(dev);
    // RNDN_HIR_DEFER=W: kernels whose work is at most W run on the interpreter while they compile
    // in the background (codegen::Runner::set_defer_compiles; rndn.compile_in_background uses 32M)
    if (const char *w = std::getenv("RNDN_HIR_DEFER")) runner.set_defer_compiles(std::atoll(w));
    codegen::RunStats st;
    auto r = runner.Run(out, data, opts, &st);
    // RNDN_HIR_REPEAT=N: N more warm runs (modules cached), each timed on stderr
    const char *rep = std::getenv("RNDN_HIR_REPEAT");
    for (int i = 0, n = rep ? std::atoi(rep) : 0; i < n && r.ok(); ++i) {
        codegen::RunStats wst;
        auto t0 = std::chrono::steady_clock::now();
        r = runner.Run(out, data, opts, &wst);
        const double cpu_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        // the interpreter alone over the same columns, alternating with the cpu runs (same load)
        t0 = std::chrono::steady_clock::now();
        auto ir = hir::Interpret(prog, data, opts);
        const double interp_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        std::fprintf(stderr, "warm run %d: %.1f ms (kernels %.1f ms), interpreter %.1f ms%s\n", i + 1, cpu_ms, wst.kernel_ms,
                     interp_ms, ir.ok() ? "" : " (failed)");
    }
    if (timing)
        std::fprintf(stderr, "cpu: %d kernels launched (%d re-run on the interpreter, %d interpreted while compiling), %d statements compiled, %d interpreted; ptx %.1f ms, jit %.1f ms, kernels %.1f ms\n",
                     st.kernels_launched, st.kernels_redone, st.kernels_deferred, st.statements_compiled, st.statements_interpreted, st.ptx_ms,
                     st.jit_ms, st.kernel_ms);
    return r;
}

}  // namespace rndn::hirtool
