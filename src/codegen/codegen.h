// rndn::codegen — the outliner and the PTX generator (rNdN thesis §3–4).
//
//   auto out = Outline(checked_program, FusionMode::FULL);    // host schedule + kernels
//   std::string text = Print(*out);                            // the seam's text form
//   auto mod = GeneratePtx(*out, {});                          // ptx::Module, verified
//   Runner (runner.h) executes an OutlinedProgram: kernels on the cpu device, the rest on the
//   interpreter over the same columns.
//
// The outliner works on the entry function's top-level statements (straight-line programs, as the
// planner and the TPC-H programs produce).  Each statement becomes either an interpreter step or
// part of a kernel.  Kernel forms: element-wise builtins (templates.def), @compress fused as a
// predicate (full mode; the compressed value is never materialised) and reductions
// (@sum @count @len @min @max, per-warp partials by warp shuffles, finished on the host), and
// @index gathers (x[idx] with a bounds check; idx gives the kernel's domain).
#pragma once

#include <functional>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/status.h"
#include "horseir/horseir.h"
#include "ptx/ptx.h"

namespace rndn::codegen {

enum class FusionMode { NONE, FLOW, FULL };
const char *FusionModeName(FusionMode m);
Expected<FusionMode> ParseFusionMode(std::string_view s);

// What a statement of the kernel computes.
enum class Form : uint8_t {
    ELEMENTWISE,
    COMPRESS,
    REDUCE,
    GATHER,
    SEGSOURCE,  // L = @each_right(@index, x, G) read only by one per-cell reduction: never built
    SEGREDUCE,  // M = @each(@op, L): one reduction per cell of the group list G over x[cell]
    RAZE,       // r = @raze(M): the per-cell results written as one vector (R-O7)
    GROUP,      // G = @group(K): hash-based grouping (a library kernel, thesis §4.7)
    GROUPKEYS,  // K = @list(k1, ...) read only by one @group: never built, the kernel reads k1...
    GROUPVALUES,  // V = @values(G) read only by per-cell reductions by rows: the member lists are never built
};

// A symbolic length.  ROWS: the length of an interpreter-produced value (all columns of one
// loaded table share one); SCALAR: length 1; COMPRESSED: the selected rows of `mask` (a slot) over
// geometry `base`; OPAQUE: an interpreter result of unknown length.
struct Geometry {
    enum class Kind : uint8_t { SCALAR, ROWS, COMPRESSED, OPAQUE };
    Kind kind = Kind::OPAQUE;
    int base = -1;   // COMPRESSED: the geometry of the mask
    int mask = -1;   // COMPRESSED: the mask's slot
    std::string text;  // "rows(t0)", "compress(t13)", "len(t20)", "1"
};

// One value a kernel reads: a variable (by frame slot) or a literal operand of one statement.
struct KernelInput {
    int slot = -1;                         // variable; -1 for a literal
    const hir::Operand *literal = nullptr; // literal operand (its value is a kernel argument)
    int literal_stmt = -1, literal_arg = -1;  // where it is: entry body statement, call argument
    hir::Type type;
    bool scalar = false;  // broadcast (length 1): element 0 is read once
    bool random_access = false;  // @index source: read at gathered positions (any length)
    bool segments = false;       // a list of i64 cells (group positions): offsets + indices
    std::string name;     // variable name or "lit<k>"
};

// A value a kernel writes.
struct KernelOutput {
    int slot = -1;
    hir::Type type;
    std::string name;
    bool reduction = false;  // a scalar finished on the host from per-warp partials
    std::string op;          // reduction builtin: sum count len min max
};

struct KernelStmt {
    int stmt = -1;  // index into the entry function's body
    Form form = Form::ELEMENTWISE;
    std::string op;  // builtin name
    int source = -1;  // SEGREDUCE: slot of the gathered column (-1: @len of the cells)
};

struct Kernel {
    std::string name;       // PTX entry name, "k0"...
    int domain = -1;        // geometry the threads iterate over (never COMPRESSED under full)
    std::vector<KernelStmt> stmts;
    std::vector<KernelInput> inputs;
    std::vector<KernelOutput> outputs;
    // A compaction kernel (materialised @compress, all statements share mask slot compact_mask):
    // each thread owns a contiguous chunk of rows; pass 0 counts the selected rows per thread,
    // the host turns the counts into offsets (exclusive scan), pass 1 writes the selected rows in
    // order.  Params: n, inputs (mask first), outputs (+ validity bytes), counts, pass, err.
    int compact_mask = -1;
    // A per-cell reduction kernel (segments = slot of the group list G, inputs[0]): one thread
    // per cell; params: n (cells), offsets (n+1 i64), indices, then each gathered source (ptr,
    // validity, length), the outputs (one element per cell), err.
    int segments = -1;
    // A per-cell reduction kernel by rows (GROUPREDUCE; segments = V = @values(G) of a group
    // kernel's G): one thread per row of the keys' geometry; each row adds its x into its group's
    // record (lo, hi, top, count: a 192-bit sum by carries from the atomics' old values, min/max by
    // atom.min/max) at the group's interpreter position, which the group kernel leaves per row.
    // Records per CTA (few groups) or one set in all; the host adds them up and writes the cells.
    // Params: n (rows), rowgroup (u32 per row), m (groups), per-CTA stride (bytes, 0: shared),
    // then each x (ptr, validity), the records of each output, err.
    bool by_rows = false;
    // A group-by kernel (G = @group(K), group = slot of G; inputs: the key columns, fixed-width
    // or str/sym, not f64): the library kernel of grouping (thesis §4.7, not counted in Table 7.3's kernels).
    // algorithm "hash": each row inserts its key tuple into a global open-addressing table by
    // atomic CAS of its row number (a slot holds the row that claimed it; equal keys compare the
    // columns at that row, NULL equal to NULL as in SQL's GROUP BY) and writes its slot; the host
    // numbers the slots in order of first appearance, sorts the groups by their first rows in the
    // interpreter's order of @group, and lays out the member lists (rows ascending).
    // Params: n, keys (ptr [+ bytes for str/sym] + validity), table, mask, slots, err.
    int group = -1;
    std::string algorithm;  // group kernels: "hash" (the sort-based form of the thesis is not built)
    // Group kernels: V = @values(G) read by per-cell reductions by rows (-1: none): the group
    // kernel leaves each row's group position for them; group_lists: G's member lists are built
    // (false when only @keys and those reductions read G).
    int group_values = -1;
    bool group_lists = true;
    bool library() const { return group >= 0; }
    // Launch geometry: a grid-stride loop, kBlock threads per CTA, at most kMaxGrid CTAs.
    static constexpr uint32_t kBlock = 128;
    static constexpr uint32_t kMaxGrid = 256;
};

struct Step {
    enum class Kind : uint8_t { INTERP, KERNEL, RETURN };
    Kind kind = Kind::INTERP;
    int stmt = -1;    // INTERP, RETURN: statement index
    int kernel = -1;  // KERNEL
    std::vector<int> deps;  // indices of earlier steps whose results this step reads
};

// PTX text generated for the kernels of one outlined program (per kernel, nullability and form),
// shared by the programs Rebind makes from it: a query shape generates its PTX once.
struct PtxCache;

struct OutlinedProgram {
    const hir::Program *program = nullptr;
    const hir::Function *entry = nullptr;
    FusionMode mode = FusionMode::FULL;
    std::vector<Geometry> geometries;
    std::vector<int> slot_geometry;        // per frame slot, -1 when not a vector value
    std::vector<std::string> slot_names;   // per frame slot
    std::vector<Kernel> kernels;
    std::vector<Step> steps;
    int compiled_statements = 0;     // statements inside kernels
    int interpreted_statements = 0;  // statements run by the interpreter
    std::shared_ptr<PtxCache> ptx_cache;  // made by Outline; null: no caching
};

// The program must be checked (hir::CheckProgram).  Never fails on a checked program whose entry
// is straight-line; other programs (control flow, reassigned names) keep every statement on the
// interpreter.
Expected<OutlinedProgram> Outline(const hir::Program &program, FusionMode mode);

// Cost rules of the device that will run the kernels.  CPU_DEVICE (the cpu device, what
// PostgreSQL and rndn-hir run): a `@group` stays on the interpreter when its kernel would be
// slower there than the interpreter's grouping, i.e. when no by-rows reduction (GROUPREDUCE)
// reads its rows and its member lists are built anyway — the kernel's hash probe plus the host's
// numbering, sort and lists then only repeat the interpreter's work.  ANY: every step that has a
// kernel form becomes a kernel (the tests of the kernel forms, ptxas and the GPU paths).
enum class CostModel { ANY, CPU_DEVICE };
Expected<OutlinedProgram> Outline(const hir::Program &program, FusionMode mode, CostModel costs);

// The query *shape* of a program: its canonical text with the values of its literals masked
// (types and lengths kept; symbols kept, since they name tables and columns).  The outliner and
// the PTX generator read a literal's type and length only, and kernels read its value as an
// argument, so programs with one shape key outline to the same kernels with the same PTX text.
std::string ShapeKey(const hir::Program &program);

// The outlined program `shape` (outlined from a program with the same ShapeKey as `program`)
// re-pointed at `program`: its interpreter steps and kernel arguments read `program`'s literals.
// Shares shape's PTX cache.  Fails (INTERNAL) when the programs do not line up.
Expected<OutlinedProgram> Rebind(const OutlinedProgram &shape, const hir::Program &program);

// Text form: geometries, the schedule with dependences, then each kernel with its statements.
std::string Print(const OutlinedProgram &p);

// The builtins the program's interpreter steps call, as "@name", sorted and distinct: what a
// compiling device leaves on the interpreter (EXPLAIN lists them until they have kernel forms).
std::vector<std::string> InterpretedBuiltins(const OutlinedProgram &p);

// Re-checks the invariants: every kernel input is produced by an earlier step or is a literal,
// every statement appears exactly once, kernel statements are kernel forms.
Status Verify(const OutlinedProgram &p);

struct PtxOptions {
    std::string target = "sm_80";
    // Per kernel (index) the inputs (index into Kernel::inputs) that carry a validity bitmap;
    // empty: no NULLs anywhere.
    std::vector<std::vector<bool>> nullable;
    // Reductions: true = warp shuffles, one 32-byte record (lo, hi, count) per warp (the GPU
    // form); false = one record per thread and no warp collective, so that the cpu device runs
    // the kernel's warps in lock-step (a shuffle makes every thread run on its own there).
    bool warp_reduce = true;
    // With warp_reduce: a by-rows grouped reduction (GROUPREDUCE) as the atomic GPU form (one
    // thread per row, per-group records); false: as the per-cell kernel over cells the host
    // builds from the group kernel's rows (the form the cpu device always runs).
    bool group_atomics = true;
    // A by-rows grouped reduction as the records form with one set of records per thread
    // (plain read-modify-write, no atomics; the host adds the threads' records up): the cpu
    // device's form for few groups, whatever warp_reduce and group_atomics say.
    bool group_thread_records = false;
    // With group_thread_records: every group's accumulators in registers (at most this many
    // groups; 0: records in memory).
    int group_slots = 0;
};

// One .entry per kernel.  The result passed ptx::Verify.
Expected<ptx::Module> GeneratePtx(const OutlinedProgram &p, const PtxOptions &options);
// PTX for one kernel (a module holding only it).
Expected<ptx::Module> GenerateKernelPtx(const OutlinedProgram &p, int kernel, const PtxOptions &options);

// Builtin names with a kernel form, with the types they take (for reports and tests).
std::vector<std::string> KernelForms();

// Error flags a kernel raises (u32 at the error pointer): the runner then re-runs the kernel's
// statements on the interpreter, which gives the exact result or PostgreSQL's error.
enum KernelFlag : uint32_t {
    FLAG_OVERFLOW = 1,  // integer/decimal overflow (or a 128-bit operand outside the fast path)
    FLAG_DIVZERO = 2,
};

}  // namespace rndn::codegen

namespace rndn::cpujit {
class Device;
}

namespace rndn::codegen {

// Hybrid execution of an OutlinedProgram: kernels run on the cpu device (src/cpujit) over the
// interpreter's columns (registered with the device, never copied); interpreter steps run through
// hir::EvaluateExpr on the same frame.  A kernel whose inputs are not what the outliner expected
// (types, lengths), or that raises a flag (overflow), or whose reduction saw no element (NULL
// rules), is re-run statement by statement on the interpreter, so results and errors are the
// interpreter's exactly.  Programs with control flow run on the interpreter.
struct RunStats {
    int kernels_launched = 0;
    int kernels_redone = 0;          // re-run on the interpreter after a flag
    int kernels_deferred = 0;        // run on the interpreter while their modules compile (set_defer_compiles)
    int thread_records = 0;          // by-rows kernels run in the per-thread records form (cpu device, few groups)
    int register_slots = 0;          // of those, with every group's accumulators in registers (up to 8 groups)
    int statements_compiled = 0;     // statements computed by kernels (launched, not redone)
    int statements_interpreted = 0;  // statements evaluated by the interpreter
    int ptx_generated = 0;           // kernels whose PTX was generated (not found in the PTX cache)
    double ptx_ms = 0;               // PTX generation (or lookup in the outlined program's cache)
    double jit_ms = 0;               // cpu device compile (first load of a module)
    double kernel_ms = 0;            // launches
    // What the run was doing last ("interpreter", "jit": PTX generation and module compile,
    // "kernel": a launch); after a CANCELLED run, where the cancel took effect.
    const char *phase = "";
};

// What the runner needs from a device that runs PTX kernels: the cpu device (src/cpujit) by
// default; tests and tools plug in others behind this (the SASS emulator on ptxas's cubins).
// Modules and kernels are opaque handles of the device.
class KernelDevice {
public:
    virtual ~KernelDevice() = default;
    // A module from PTX text (the runner's modules start ".version 8.7 / .target sm_80");
    // `cancel` (may be null) is polled while it compiles.
    virtual Expected<std::shared_ptr<const void>> LoadModule(const std::string &ptx, const std::function<bool()> *cancel) = 0;
    // The module if it is ready without compiling; else nullptr, with its compilation started in
    // the background (cpujit::Device::LoadModuleIfReady).  Devices without a background compiler
    // load it (compiling if need be).
    virtual Expected<std::shared_ptr<const void>> LoadModuleIfReady(const std::string &ptx) { return LoadModule(ptx, nullptr); }
    // The kernel named `name` of a loaded module (nullptr: none).
    virtual const void *FindKernel(const void *module, const std::string &name) = 0;
    // One launch: a 1-D grid of 1-D blocks, the arguments' bytes in parameter order; `cancel`
    // (may be null) is polled between parts of the grid.
    virtual Status Launch(const void *kernel, uint32_t grid, uint32_t block, const std::vector<std::vector<uint8_t>> &args,
                          const std::function<bool()> *cancel) = 0;
    // Host memory kernels may access (the runner registers what it passes, per launch).
    virtual void RegisterMemory(const void *p, size_t bytes) = 0;
    virtual void UnregisterMemory(const void *p) = 0;
};

class Runner {
public:
    // warp_reduce: see PtxOptions (false is the fast form on the cpu device).
    explicit Runner(cpujit::Device &device, bool warp_reduce = false);
    // Kernels on another device (it outlives the runner).
    explicit Runner(KernelDevice &device, bool warp_reduce = true);
    ~Runner();
    Expected<hir::Value> Run(const OutlinedProgram &p, hir::DataRegistry &data, const hir::InterpretOptions &options,
                             RunStats *stats = nullptr);
    // Same, with the values of the entry function's parameters (one per parameter, in order).
    Expected<hir::Value> Run(const OutlinedProgram &p, hir::DataRegistry &data, const hir::InterpretOptions &options,
                             const std::vector<hir::Value> &entry_args, RunStats *stats = nullptr);
    // Host threads per launch on the cpu device (Runner(cpujit::Device&)): 0 = all the device's
    // workers, 1 = serial.  Other devices ignore it.
    void set_threads(unsigned threads);
    // Grouped reductions by rows in the atomic GPU form (default, with warp_reduce) or, when
    // false, in the cells form (see PtxOptions::group_atomics).
    void set_group_atomics(bool on) { group_atomics_ = on; }
    // Compile in the background instead of waiting: a kernel whose module is not ready (not
    // compiled in this process, not in the code cache on disk) and whose work (rows x
    // statements x the interpreter's relative cost per row for the kernel's kind: 1
    // element-wise, 4 segmented, 64 by-rows, 32 @group, 256 @group read by by-rows
    // reductions) is at most `max_work` runs on the interpreter this time while the device
    // compiles its module (RunStats::kernels_deferred); a later run launches it.  0 (the
    // default): every kernel waits for its compile.
    void set_defer_compiles(int64_t max_work) { defer_work_ = max_work; }

private:
    std::unique_ptr<KernelDevice> own_;  // the cpu device's adapter
    KernelDevice *device_ = nullptr;
    bool warp_reduce_ = false;
    bool group_atomics_ = true;
    int64_t defer_work_ = 0;
};

}  // namespace rndn::codegen
