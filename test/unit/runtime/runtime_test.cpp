// runtime: compiled plans on the interp device, without a server.  The TPC-H programs run on
// the SF 0.01 .tbl data (build/tpch/sf0.01, made by `make test` / tools/tpch.sh gen 0.01) bound
// as columns, and are compared with PostgreSQL's output (test/horseir/tpch/expected/).
#include <gtest/gtest.h>

#include <functional>

#include <chrono>
#include <cstring>
#include <fstream>
#include <sstream>
#include <thread>

#include "runtime/runtime.h"

namespace rndn::runtime {
namespace {

std::string ReadAll(const std::string &path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::unique_ptr<Device> Interp() {
    auto d = MakeDevice("interp");
    EXPECT_TRUE(d.ok()) << d.status().message();
    return d.ok() ? std::move(*d) : nullptr;
}

// An i64 column from values (from the host allocator, written before it is shared).
hir::Column I64Column(const std::vector<int64_t> &values) {
    auto c = hir::MakeColumn(HostMemory(), hir::TypeKind::I64, static_cast<int64_t>(values.size()));
    EXPECT_TRUE(c.ok());
    if (!values.empty()) std::memcpy(c->data.mutable_data(), values.data(), values.size() * 8);
    return *c;
}

hir::Column StrColumn(const std::vector<std::string> &values) {
    auto c = hir::MakeColumn(HostMemory(), hir::TypeKind::STR, static_cast<int64_t>(values.size()));
    EXPECT_TRUE(c.ok());
    size_t total = 0;
    for (const auto &s : values) total += s.size();
    auto bytes = DataBuffer::Allocate(HostMemory(), total);
    EXPECT_TRUE(bytes.ok());
    auto *o = reinterpret_cast<int64_t *>(c->offsets.mutable_data());
    size_t at = 0;
    for (size_t i = 0; i < values.size(); ++i) {
        std::memcpy(bytes->mutable_data() + at, values[i].data(), values[i].size());
        at += values[i].size();
        o[i + 1] = static_cast<int64_t>(at);
    }
    c->bytes = *bytes;
    return *c;
}

TEST(Runtime, DevicesAndCapabilities) {
    auto names = DeviceNames();
    ASSERT_FALSE(names.empty());
    EXPECT_EQ(names[0], "interp");
    auto d = Interp();
    ASSERT_TRUE(d);
    Capabilities c = d->capabilities();
    EXPECT_EQ(c.name, "interp");
    EXPECT_TRUE(c.zero_copy_inputs);
    EXPECT_FALSE(c.needs_kernels);
    EXPECT_EQ(c.input_memory, MemoryKind::HOST);
    auto none = MakeDevice("warp-drive");
    ASSERT_FALSE(none.ok());
    EXPECT_EQ(none.status().code(), Code::UNSUPPORTED);
    EXPECT_NE(none.status().message().find("interp"), std::string::npos);
}

TEST(Runtime, PlanChecksAtCompileTime) {
    auto bad = CompiledPlan::CompileText("module m{ import Builtin.*; def main() : i64{ x:? = @plus(1:i64, `a:sym); return x; } }", "bad.hir");
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.status().code(), Code::USER_ERROR);
    auto shape = CompiledPlan::CompileText("module m{ import Builtin.*; def main() : i64{ x:? = @plus((1,2):i64, (1,2,3):i64); return x; } }", "s.hir");
    ASSERT_FALSE(shape.ok());
    EXPECT_NE(shape.status().message().find("shape error"), std::string::npos);
    auto ok = CompiledPlan::CompileText(ReadAll("test/horseir/tpch/q3.hir"), "q3.hir");
    ASSERT_TRUE(ok.ok()) << ok.status().message();
    EXPECT_EQ((*ok)->tables(), (std::vector<std::string>{"customer", "orders", "lineitem"}));
    EXPECT_NE((*ok)->shapes().Find("main", "k"), nullptr);
    // the canonical text parses back to the same program
    auto again = hir::ParseProgram((*ok)->text(), "q3.hir");
    ASSERT_TRUE(again.ok());
    EXPECT_EQ(hir::PrintProgram(*again), (*ok)->text());
}

TEST(Runtime, BindRunFetchZeroCopy) {
    auto plan = CompiledPlan::CompileText(
        "module m{ import Builtin.*; def main(lim:i64) : table{\n"
        "  t:? = @load_table(`t:sym);\n"
        "  x:i64 = check_cast(@column_value(t, `x:sym), i64);\n"
        "  s:str = check_cast(@column_value(t, `s:sym), str);\n"
        "  m:? = @lt(x, lim);\n"
        "  y:? = @compress(m, x);\n"
        "  z:? = @compress(m, s);\n"
        "  c:? = @list(y, z);\n"
        "  q:? = @table((`y,`z):sym, c);\n"
        "  return q;\n"
        "} }",
        "t.hir");
    ASSERT_TRUE(plan.ok()) << plan.status().message();
    ASSERT_EQ((*plan)->parameters().size(), 1u);
    auto d = Interp();
    ASSERT_TRUE(d->Prepare(*plan, RunOptions()).ok());
    Inputs in;
    InputTable t;
    t.name = "t";
    t.column_names = {"x", "s"};
    t.columns = {I64Column({5, 1, 7, 3}), StrColumn({"five", "one", "seven", "three"})};
    in.tables.push_back(t);
    in.parameters.push_back(I64Column({6}));
    ASSERT_TRUE(d->Bind(in).ok());
    Status st = d->Run();
    ASSERT_TRUE(st.ok()) << st.message();
    auto r = d->Fetch();
    ASSERT_TRUE(r.ok()) << r.status().message();
    EXPECT_EQ(r->rows, 3);
    EXPECT_EQ(FormatResult(*r), "y|z\n5|five\n1|one\n3|three\n");

    // A program that returns its input column: the result is the bound buffer itself, so the
    // interpreter read it without a copy and fetch hands it back without one.
    auto ident = CompiledPlan::CompileText("module m{ import Builtin.*; def main() : table{\n"
                                           "  t:? = @load_table(`t:sym);\n"
                                           "  x:i64 = check_cast(@column_value(t, `x:sym), i64);\n"
                                           "  c:? = @list(x);\n"
                                           "  r:? = @table(`x:sym, c);\n"
                                           "  return r;\n"
                                           "} }",
                                           "id.hir");
    ASSERT_TRUE(ident.ok());
    ASSERT_TRUE(d->Prepare(*ident, RunOptions()).ok());
    in.parameters.clear();
    ASSERT_TRUE(d->Bind(in).ok());
    ASSERT_TRUE(d->Run().ok());
    auto r2 = d->Fetch();
    ASSERT_TRUE(r2.ok());
    ASSERT_EQ(r2->columns.size(), 1u);
    EXPECT_EQ(r2->columns[0].data.data(), in.tables[0].columns[0].data.data());

    // Only the tables a plan loads are bound: an unrelated table whose foreign key points at a
    // table that is not there does not matter, a needed one does.
    Inputs extra = in;
    InputTable u;
    u.name = "u";
    u.column_names = {"k"};
    u.columns = {I64Column({1})};
    u.foreign_keys.push_back(InputTable::ForeignKey{0, "missing", "id"});
    extra.tables.push_back(u);
    EXPECT_TRUE(d->Bind(extra).ok());
    auto uses_u = CompiledPlan::CompileText("module m{ import Builtin.*; def main() : table{\n"
                                            "  t:? = @load_table(`u:sym);\n"
                                            "  return t;\n"
                                            "} }",
                                            "u.hir");
    ASSERT_TRUE(uses_u.ok());
    ASSERT_TRUE(d->Prepare(*uses_u, RunOptions()).ok());
    Status bu = d->Bind(extra);
    EXPECT_FALSE(bu.ok());
    EXPECT_NE(bu.message().find("missing"), std::string::npos) << bu.message();

    // parameters: wrong count is an error at bind
    Inputs none = in;
    none.parameters.clear();
    ASSERT_TRUE(d->Prepare(*plan, RunOptions()).ok());
    EXPECT_FALSE(d->Bind(none).ok());
}

TEST(Runtime, NullAndStringParameters) {
    auto plan = CompiledPlan::CompileText("module m{ import Builtin.*; def main(p:i64, s:str) : ?{\n"
                                          "  x:? = @plus((1,2,3):i64, p);\n"
                                          "  n:? = @is_null(x);\n"
                                          "  c:? = @list(x, n, s);\n"
                                          "  return c;\n"
                                          "} }",
                                          "p.hir");
    ASSERT_TRUE(plan.ok()) << plan.status().message();
    auto d = Interp();
    ASSERT_TRUE(d->Prepare(*plan, RunOptions()).ok());
    auto p = hir::MakeColumn(HostMemory(), hir::TypeKind::I64, 1, true);
    ASSERT_TRUE(p.ok());
    reinterpret_cast<uint64_t *>(p->validity.mutable_data())[0] = 0;  // NULL
    Inputs in;
    in.parameters = {*p, StrColumn({"abc"})};
    ASSERT_TRUE(d->Bind(in).ok());
    Status st = d->Run();
    ASSERT_TRUE(st.ok()) << st.message();
    auto r = d->Fetch();
    ASSERT_TRUE(r.ok()) << r.status().message();
    // a list result: one column per cell
    EXPECT_FALSE(r->is_table);
    ASSERT_EQ(r->columns.size(), 3u);
    EXPECT_FALSE(r->columns[0].IsValid(0));
    EXPECT_EQ(r->columns[1].data.data()[2], 1);
    EXPECT_EQ(r->columns[2].StringAt(0), "abc");
    // a parameter of the wrong type is refused before the program runs
    in.parameters = {StrColumn({"x"}), StrColumn({"abc"})};
    ASSERT_TRUE(d->Bind(in).ok());
    EXPECT_EQ(d->Run().code(), Code::USER_ERROR);
}

TEST(Runtime, CancelStopsALongRun) {
    // a loop long enough to run for seconds unless cancelled
    auto plan = CompiledPlan::CompileText("module m{ import Builtin.*; def main() : i64{\n"
                                          "  i:i64 = 0:i64;\n"
                                          "  x:? = @range(100000:i64);\n"
                                          "  repeat (100000000:i64) { i = @plus(i, 1:i64); y:? = @sum(x); }\n"
                                          "  return i;\n"
                                          "} }",
                                          "loop.hir");
    ASSERT_TRUE(plan.ok()) << plan.status().message();
    auto d = Interp();
    ASSERT_TRUE(d->Prepare(*plan, RunOptions()).ok());
    ASSERT_TRUE(d->Bind(Inputs()).ok());
    Device *dev = d.get();
    std::thread canceller([dev]() {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        dev->Cancel();
    });
    auto t0 = std::chrono::steady_clock::now();
    Status st = d->Run();
    canceller.join();
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_EQ(st.code(), Code::CANCELLED) << st.message();
    EXPECT_LT(ms, 5000.0);
    EXPECT_FALSE(d->Fetch().ok());
    // cancelled before it starts
    EXPECT_EQ(d->Run().code(), Code::CANCELLED);
    d->ResetCancel();
}

// A cancel inside one long builtin (a sort of 2M floats, a group of 2M keys): its loops and its
// comparator poll the flag, so Run returns within milliseconds, not at the builtin's end.
TEST(Runtime, CancelStopsInsideOneBuiltin) {
    const char *bodies[] = {
        "  r:? = @range(2000000:i64);\n  m:? = @mul(r, 7919:i64);\n  k:? = @mod(m, 1000003:i64);\n"
        "  f:? = @div(k, 7.0:f64);\n  o:? = @order(f, 1:bool);\n",
        "  r:? = @range(2000000:i64);\n  m:? = @mul(r, 7919:i64);\n  k:? = @mod(m, 1000003:i64);\n"
        "  g:? = @group(k);\n  o:? = @keys(g);\n",
    };
    for (const char *body : bodies) {
        auto plan = CompiledPlan::CompileText(std::string("module m{ import Builtin.*; def main() : i64{\n") + body +
                                                  "  s:? = @sum(o);\n  return s;\n} }",
                                              "sort.hir");
        ASSERT_TRUE(plan.ok()) << plan.status().ToString();
        auto d = Interp();
        ASSERT_TRUE(d->Prepare(*plan, RunOptions()).ok());
        ASSERT_TRUE(d->Bind(Inputs()).ok());
        auto t0 = std::chrono::steady_clock::now();
        ASSERT_TRUE(d->Run().ok());
        const double full = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        Device *dev = d.get();
        std::chrono::steady_clock::time_point cancelled;
        std::thread canceller([dev, full, &cancelled]() {
            std::this_thread::sleep_for(std::chrono::microseconds(static_cast<int64_t>(full * 300)));
            cancelled = std::chrono::steady_clock::now();
            dev->Cancel();
        });
        Status st = d->Run();
        const auto end = std::chrono::steady_clock::now();
        canceller.join();
        EXPECT_EQ(st.code(), Code::CANCELLED) << "the run (" << full << " ms uncancelled) ended before the cancel: " << st.message();
        const double latency = std::chrono::duration<double, std::milli>(end - cancelled).count();
        EXPECT_LT(latency, 250.0) << "run of " << full << " ms stopped " << latency << " ms after Cancel()";
        std::printf("[ cancel   ] %.0f ms run stopped %.1f ms after Cancel()\n", full, latency);
        d->ResetCancel();
    }
}

TEST(Runtime, MemoryBudget) {
    auto plan = CompiledPlan::CompileText("module m{ import Builtin.*; def main() : i64{\n"
                                          "  x:? = @range(10000000:i64);\n"
                                          "  y:? = @plus(x, 1:i64);\n"
                                          "  z:? = @sum(y);\n"
                                          "  return z;\n"
                                          "} }",
                                          "mem.hir");
    ASSERT_TRUE(plan.ok());
    auto d = Interp();
    RunOptions o;
    o.memory_budget = 1 << 20;
    ASSERT_TRUE(d->Prepare(*plan, o).ok());
    ASSERT_TRUE(d->Bind(Inputs()).ok());
    EXPECT_EQ(d->Run().code(), Code::OUT_OF_MEMORY);
}

TEST(Runtime, ColumnsValidateAndAccount) {
    CountingAllocator counted(HostMemory(), 4096);
    {
        auto c = hir::MakeColumn(counted, hir::TypeKind::I32, 100, true);
        ASSERT_TRUE(c.ok());
        EXPECT_GE(counted.used(), 400);
        EXPECT_TRUE(c->IsValid(99));
        EXPECT_TRUE(hir::ValidateColumn(*c).ok());
        auto big = hir::MakeColumn(counted, hir::TypeKind::I64, 10000);
        ASSERT_FALSE(big.ok());
        EXPECT_EQ(big.status().code(), Code::OUT_OF_MEMORY);
    }
    EXPECT_EQ(counted.used(), 0);  // every buffer went back
    hir::Column s = StrColumn({"a", "bc"});
    EXPECT_TRUE(hir::ValidateColumn(s).ok());
    EXPECT_EQ(s.StringAt(1), "bc");
    hir::Column broken = s;
    broken.bytes = broken.bytes.Slice(0, 1);  // offsets point past the bytes
    EXPECT_FALSE(hir::ValidateColumn(broken).ok());
    auto v = hir::VectorFromColumn(broken);
    EXPECT_FALSE(v.ok());
}

// The 22 TPC-H programs through CompiledPlan + interp, inputs bound as columns.
TEST(Runtime, TpchProgramsMatchPostgres) {
    const std::string data = "build/tpch/sf0.01";
    if (!std::ifstream(data + "/lineitem.tbl")) {
        std::printf("SKIPPED: no SF 0.01 data in %s (run tools/tpch.sh gen 0.01)\n", data.c_str());
        GTEST_SKIP();
    }
    hir::DataRegistry reg;
    Status ls = hir::LoadSchemaAndData(ReadAll("test/tpch/schema.sql"), data, reg);
    ASSERT_TRUE(ls.ok()) << ls.ToString();
    auto tables = InputsFromRegistry(reg);
    ASSERT_TRUE(tables.ok()) << tables.status().message();
    Inputs in;
    in.tables = *tables;
    auto d = Interp();
    int checked = 0;
    for (int q = 1; q <= 22; ++q) {
        std::string hir = "test/horseir/tpch/q" + std::to_string(q) + ".hir";
        std::string exp = ReadAll("test/horseir/tpch/expected/q" + std::to_string(q) + ".out");
        ASSERT_FALSE(exp.empty()) << q;
        auto plan = CompiledPlan::CompileText(ReadAll(hir), hir);
        ASSERT_TRUE(plan.ok()) << hir << ": " << plan.status().message();
        RunOptions o;
        o.sql_semantics = false;  // the programs are compared under HorseIR's own rules, as tpch_test does
        ASSERT_TRUE(d->Prepare(*plan, o).ok());
        Status b = d->Bind(in);
        ASSERT_TRUE(b.ok()) << b.message();
        Status st = d->Run();
        ASSERT_TRUE(st.ok()) << hir << ": " << st.ToString();
        auto r = d->Fetch();
        ASSERT_TRUE(r.ok()) << r.status().message();
        EXPECT_EQ(FormatResult(*r), exp) << hir;
        ++checked;
    }
    EXPECT_EQ(checked, 22);
}

// The cpu device (kernels on cpujit, the rest on the interpreter) on TPC-H programs bound as a
// registry (no copy): results equal PostgreSQL's, Q6 is one kernel, and a repeated plan reuses
// its outlined program and modules (no JIT time).
// TPC-H programs on a kernel device over SF 0.01 columns: each result equals the expected answer
// and launches kernels (Q6 exactly one); `check` sees each run's report.
void RunTpchQueries(Device &d, hir::DataRegistry &reg, std::initializer_list<int> queries,
                    const std::function<void(int, const RunReport &)> &check) {
    Inputs in;
    in.registry = &reg;
    for (int q : queries) {
        std::string hir = "test/horseir/tpch/q" + std::to_string(q) + ".hir";
        std::string exp = ReadAll("test/horseir/tpch/expected/q" + std::to_string(q) + ".out");
        auto plan = CompiledPlan::CompileText(ReadAll(hir), hir);
        ASSERT_TRUE(plan.ok()) << hir << ": " << plan.status().message();
        RunOptions o;
        o.sql_semantics = false;
        ASSERT_TRUE(d.Prepare(*plan, o).ok());
        ASSERT_TRUE(d.Bind(in).ok());
        Status st = d.Run();
        ASSERT_TRUE(st.ok()) << hir << ": " << st.ToString();
        auto r = d.Fetch();
        ASSERT_TRUE(r.ok()) << r.status().message();
        EXPECT_EQ(FormatResult(*r), exp) << hir;
        RunReport rep = d.report();
        EXPECT_GT(rep.kernels_launched, 0) << hir;
        if (q == 6) EXPECT_EQ(rep.kernels_launched, 1);
        check(q, rep);
    }
}

TEST(Runtime, CpuDeviceRunsTpchKernels) {
    const std::string data = "build/tpch/sf0.01";
    if (!std::ifstream(data + "/lineitem.tbl")) {
        std::printf("SKIPPED: no SF 0.01 data in %s (run tools/tpch.sh gen 0.01)\n", data.c_str());
        GTEST_SKIP();
    }
    hir::DataRegistry reg;
    Status ls = hir::LoadSchemaAndData(ReadAll("test/tpch/schema.sql"), data, reg);
    ASSERT_TRUE(ls.ok()) << ls.ToString();
    auto made = MakeDevice("cpu");
    ASSERT_TRUE(made.ok()) << made.status().message();
    std::unique_ptr<Device> d = std::move(*made);
    EXPECT_TRUE(d->capabilities().needs_kernels);
    RunTpchQueries(*d, reg, {1, 3, 6, 14, 6}, [](int q, const RunReport &rep) {
        if (q == 1) EXPECT_GT(rep.modules_compiled, 0);
    });
    if (HasFatalFailure()) return;
    // the second Q6 found its plan in the cache and compiled nothing
    EXPECT_TRUE(d->report().module_cached);
    EXPECT_EQ(d->report().modules_compiled, 0);
}

// The cuda device on the emulated driver (build/lib/libcuda_emu.so, the driver API over rndn's SASS
// emulator): TPC-H programs at SF 0.01 with their kernels compiled by rndn's own PTX -> SASS
// compiler (none handed to the driver's JIT) equal the expected answers; a repeated plan compiles
// nothing.  A library that is not there is a clear UNSUPPORTED, remembered, never a crash.
TEST(Runtime, CudaDeviceRunsTpchKernelsOnTheEmulatedDriver) {
    SetCudaLibrary("/nonexistent/libcuda.so.1");
    auto none = ProbeCudaDevice();
    ASSERT_FALSE(none.ok());
    EXPECT_EQ(none.status().code(), Code::UNSUPPORTED);
    EXPECT_NE(none.status().message().find("/nonexistent/libcuda.so.1"), std::string::npos) << none.status().message();
    const std::string data = "build/tpch/sf0.01", emu = "build/lib/libcuda_emu.so";
    ASSERT_TRUE(std::ifstream(data + "/lineitem.tbl").good()) << "no SF 0.01 data (tools/tpch.sh gen 0.01)";
    ASSERT_TRUE(std::ifstream(emu).good()) << "no emulated driver (make build/lib/libcuda_emu.so)";
    SetCudaLibrary(emu);
    auto probe = ProbeCudaDevice();
    ASSERT_TRUE(probe.ok()) << probe.status().ToString();
    EXPECT_NE(probe->find("sm_"), std::string::npos) << *probe;
    hir::DataRegistry reg;
    Status ls = hir::LoadSchemaAndData(ReadAll("test/tpch/schema.sql"), data, reg);
    ASSERT_TRUE(ls.ok()) << ls.ToString();
    auto made = MakeDevice("cuda");
    ASSERT_TRUE(made.ok()) << made.status().message();
    std::unique_ptr<Device> d = std::move(*made);
    RunTpchQueries(*d, reg, {1, 3, 6, 9, 14, 6}, [](int q, const RunReport &rep) {
        EXPECT_FALSE(rep.whole_program_interpreted) << "q" << q << ": " << rep.runner_error;
        EXPECT_EQ(rep.modules_driver_jit, 0) << "q" << q << ": a module rndn::sasscomp refused";
    });
    if (HasFatalFailure()) return;
    EXPECT_TRUE(d->report().module_cached);
    EXPECT_EQ(d->report().modules_compiled, 0);
    EXPECT_TRUE(d->capabilities().needs_kernels);
    EXPECT_NE(d->capabilities().description.find("rndn's own"), std::string::npos) << d->capabilities().description;
}

// Query shapes on the cpu device: Q6 with other constants finds Q6's outlined kernels (its
// shape), generates no PTX and compiles no module, and answers as the interp device does for its
// own constants; rndn.cpu_threads = 1 (serial launches) changes nothing.
TEST(Runtime, CpuDeviceReusesAShapeWithOtherConstants) {
    const std::string data = "build/tpch/sf0.01";
    if (!std::ifstream(data + "/lineitem.tbl")) {
        std::printf("SKIPPED: no SF 0.01 data in %s (run tools/tpch.sh gen 0.01)\n", data.c_str());
        GTEST_SKIP();
    }
    hir::DataRegistry reg;
    Status ls = hir::LoadSchemaAndData(ReadAll("test/tpch/schema.sql"), data, reg);
    ASSERT_TRUE(ls.ok()) << ls.ToString();
    Inputs in;
    in.registry = &reg;
    auto cpu = MakeDevice("cpu");
    ASSERT_TRUE(cpu.ok());
    auto interp = Interp();
    const std::string q6 = ReadAll("test/horseir/tpch/q6.hir");
    auto with = [&](std::string t, const std::vector<std::pair<std::string, std::string>> &subs) {
        for (const auto &[a, b] : subs) {
            const size_t at = t.find(a);
            EXPECT_NE(at, std::string::npos) << a;
            if (at != std::string::npos) t.replace(at, a.size(), b);
        }
        return t;
    };
    const std::string other = with(q6, {{"1994-01-01:date", "1996-01-01:date"}, {"1995-01-01:date", "1997-01-01:date"},
                                        {"0.05:dec64<2>", "0.02:dec64<2>"}, {"0.07:dec64<2>", "0.04:dec64<2>"}});
    std::vector<std::string> answers;
    for (const auto &[text, threads] : std::vector<std::pair<std::string, int>>{{q6, 0}, {other, 0}, {other, 1}}) {
        auto plan = CompiledPlan::CompileText(text, "q6.hir");
        ASSERT_TRUE(plan.ok()) << plan.status().message();
        RunOptions o;
        o.sql_semantics = false;
        o.cpu_threads = threads;
        ASSERT_TRUE(interp->Prepare(*plan, o).ok());
        ASSERT_TRUE(interp->Bind(in).ok());
        ASSERT_TRUE(interp->Run().ok());
        auto want = interp->Fetch();
        ASSERT_TRUE(want.ok());
        ASSERT_TRUE((*cpu)->Prepare(*plan, o).ok());
        ASSERT_TRUE((*cpu)->Bind(in).ok());
        Status st = (*cpu)->Run();
        ASSERT_TRUE(st.ok()) << st.ToString();
        auto got = (*cpu)->Fetch();
        ASSERT_TRUE(got.ok());
        EXPECT_EQ(FormatResult(*got), FormatResult(*want)) << "threads " << threads;
        answers.push_back(FormatResult(*want));
        const RunReport rep = (*cpu)->report();
        EXPECT_EQ(rep.kernels_launched, 1);
        if (text == other) {  // Q6's shape, found through the first plan
            EXPECT_TRUE(rep.module_cached);
            EXPECT_TRUE(rep.shape_cached);
            EXPECT_EQ(rep.modules_compiled, 0);
            EXPECT_EQ(rep.ptx_generated, 0);
        }
    }
    EXPECT_NE(answers[0], answers[1]);  // the other constants took effect
}

// Entry parameters on the cpu device: bound per run into the runner's frame, read by the
// kernels like any scalar; re-running with another value gives that value's answer, and a NULL
// parameter gives NULLs.  The interp device is the oracle.
TEST(Runtime, CpuDeviceBindsEntryParameters) {
    auto plan = CompiledPlan::CompileText(
        "module m{ import Builtin.*; def main(lim:i64, k:i64) : table{\n"
        "  t:? = @load_table(`t:sym);\n"
        "  x:i64 = check_cast(@column_value(t, `x:sym), i64);\n"
        "  m:? = @lt(x, lim);\n"
        "  y:? = @compress(m, x);\n"
        "  z:? = @mul(y, k);\n"
        "  s:? = @sum(z);\n"
        "  c:? = @list(s);\n"
        "  q:? = @table(`s:sym, c);\n"
        "  return q;\n"
        "} }",
        "p.hir");
    ASSERT_TRUE(plan.ok()) << plan.status().message();
    auto made = MakeDevice("cpu");
    ASSERT_TRUE(made.ok()) << made.status().message();
    std::unique_ptr<Device> cpu = std::move(*made);
    auto interp = Interp();
    std::vector<int64_t> xs;
    for (int64_t i = 0; i < 5000; ++i) xs.push_back((i * 7919) % 1000);
    InputTable t;
    t.name = "t";
    t.column_names = {"x"};
    t.columns = {I64Column(xs)};
    auto expect_sum = [&](int64_t lim, int64_t k) {
        int64_t s = 0;
        for (int64_t v : xs)
            if (v < lim) s += v * k;
        return s;
    };
    for (auto [lim, k] : std::vector<std::pair<int64_t, int64_t>>{{500, 3}, {10, -2}, {2000, 1}}) {
        Inputs in;
        in.tables = {t};
        in.parameters = {I64Column({lim}), I64Column({k})};
        std::string out[2];
        int n = 0;
        for (Device *d : {cpu.get(), interp.get()}) {
            ASSERT_TRUE(d->Prepare(*plan, RunOptions()).ok());
            ASSERT_TRUE(d->Bind(in).ok());
            Status st = d->Run();
            ASSERT_TRUE(st.ok()) << st.ToString();
            auto r = d->Fetch();
            ASSERT_TRUE(r.ok()) << r.status().message();
            out[n++] = FormatResult(*r);
        }
        EXPECT_EQ(out[0], "s\n" + std::to_string(expect_sum(lim, k)) + "\n") << lim << " " << k;
        EXPECT_EQ(out[0], out[1]);
        EXPECT_GT(cpu->report().kernels_launched, 0);
        EXPECT_FALSE(cpu->report().whole_program_interpreted) << cpu->report().runner_error;
    }
    // a NULL limit: no row qualifies (NULL comparison), the sum of nothing is SQL's NULL
    auto p = hir::MakeColumn(HostMemory(), hir::TypeKind::I64, 1, true);
    ASSERT_TRUE(p.ok());
    reinterpret_cast<uint64_t *>(p->validity.mutable_data())[0] = 0;
    Inputs in;
    in.tables = {t};
    in.parameters = {*p, I64Column({1})};
    std::string out[2];
    int n = 0;
    for (Device *d : {cpu.get(), interp.get()}) {
        ASSERT_TRUE(d->Prepare(*plan, RunOptions()).ok());
        ASSERT_TRUE(d->Bind(in).ok());
        Status st = d->Run();
        ASSERT_TRUE(st.ok()) << st.ToString();
        auto r = d->Fetch();
        ASSERT_TRUE(r.ok());
        out[n++] = FormatResult(*r);
    }
    EXPECT_EQ(out[0], out[1]);
    EXPECT_EQ(out[0], "s\n\n");
    // the parameter count is checked at bind
    in.parameters.pop_back();
    ASSERT_TRUE(cpu->Prepare(*plan, RunOptions()).ok());
    EXPECT_FALSE(cpu->Bind(in).ok());
}

}  // namespace
}  // namespace rndn::runtime
