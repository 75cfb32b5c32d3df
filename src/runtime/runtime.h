// rndn::runtime — compiled plans and the one device interface (no PostgreSQL headers).
//
//   CompiledPlan   a checked HorseIR program with its shapes and canonical text (later: its
//                  outlined kernels and their binaries per device).  Immutable; shared.
//   Device         prepare a plan, bind inputs (tables of hir::Column, entry parameters), run,
//                  fetch result columns, cancel (from any thread), report capabilities.
//                  `interp` runs the HorseIR interpreter; cpu, cuda and the SASS emulator plug
//                  in behind the same interface.
//
// Columns are hir::Column (buffers over allocator memory, common/buffer.h): the interp device
// reads fixed-width input data in place and hands results back as views of its own memory.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/buffer.h"
#include "common/status.h"
#include "horseir/horseir.h"

namespace rndn::runtime {

class CompiledPlan {
public:
    // Checks the program (CheckProgram) and infers its shapes; a program that does not check
    // is an error here, never at run time.
    static Expected<std::shared_ptr<const CompiledPlan>> Compile(hir::Program program);
    static Expected<std::shared_ptr<const CompiledPlan>> CompileText(std::string_view text, std::string_view name);

    const hir::Program &program() const { return program_; }
    const hir::ShapeInfo &shapes() const { return shapes_; }
    // Canonical text (PrintProgram); ParseProgram of it gives this plan's program.
    const std::string &text() const { return text_; }
    // Parameters of the entry function (bound per run).
    const std::vector<hir::Param> &parameters() const;
    // Names the program loads with @load_table (literal arguments), in first-use order, and
    // whether that is all of them (false when a @load_table argument is not a literal).
    const std::vector<std::string> &tables() const { return tables_; }
    bool tables_known() const { return tables_known_; }

private:
    CompiledPlan() = default;
    hir::Program program_;
    hir::ShapeInfo shapes_;
    std::string text_;
    std::vector<std::string> tables_;
    bool tables_known_ = true;
};

// One input relation: named columns of equal length.  A foreign-key column (HorseIR enum)
// names the table and key column it references; that table must be bound in the same Inputs.
struct InputTable {
    struct ForeignKey {
        int column = -1;  // index into columns
        std::string table;
        std::string key_column;
    };
    std::string name;
    std::vector<std::string> column_names;
    std::vector<hir::Column> columns;
    std::vector<ForeignKey> foreign_keys;
    std::string primary_key;  // optional
};

struct Inputs {
    std::vector<InputTable> tables;
    // One scalar column (length 1; NULL allowed) per entry-function parameter, in order.
    std::vector<hir::Column> parameters;
    // Host-side alternative to `tables`: a registry that already holds the tables (the
    // executor's loader output), bound as it is (no copy, no enum rebuild).  It must outlive
    // the next Run; devices on host memory accept it.
    hir::DataRegistry *registry = nullptr;
};

// The result: a table's columns (a non-table value gives one unnamed column per vector).
struct Result {
    bool is_table = true;  // false: the program returned a vector or a list of vectors
    std::vector<std::string> names;
    std::vector<hir::Column> columns;
    int64_t rows = 0;  // a table's row count; for a list, its longest cell
};

struct RunOptions {
    int64_t memory_budget = 0;  // bytes of intermediates (0: unlimited); over it: OUT_OF_MEMORY
    bool sql_semantics = true;  // SQL empty aggregates, float errors and casts (the executor's)
    // Polled with the cancel flag in the device's long loops (e.g. the host's interrupt flags);
    // called on the thread that calls Run.
    std::function<bool()> interrupted;
    // Host threads a kernel launch of the cpu device uses (0: all cores; 1: serial).
    int cpu_threads = 0;
    // The cpu device: a kernel whose module is not compiled yet and whose work (rows x
    // statements, weighted by kind: codegen::Runner::set_defer_compiles) is at most this runs on the interpreter while the module compiles in the
    // background (codegen::Runner::set_defer_compiles); 0: every kernel waits for its compile.
    int64_t defer_compile_work = 0;
};

struct Capabilities {
    std::string name;
    std::string description;
    MemoryKind input_memory = MemoryKind::HOST;  // where bound columns must live
    bool zero_copy_inputs = false;               // reads fixed-width inputs in place
    bool needs_kernels = false;                  // runs outlined kernels (false: HorseIR itself)
    int parallelism = 1;                         // threads or SMs it uses
};

// What the last Run did (for EXPLAIN ANALYZE).  Timings in milliseconds.
struct RunReport {
    int kernels_launched = 0;
    int kernels_redone = 0;          // kernels re-run on the interpreter after a flag
    int kernels_deferred = 0;        // kernels run on the interpreter while their modules compile
    int statements_compiled = 0;
    int statements_interpreted = 0;
    int modules_compiled = 0;        // modules the run compiled (0: every one came from the cache)
    int modules_driver_jit = 0;      // cuda: of those, modules rndn's compiler refused, given to the driver as PTX
    bool module_cached = false;      // the plan and all its modules came from the device's caches
    bool shape_cached = false;       // the outlined program came from a plan of the same shape with other constants
    int ptx_generated = 0;           // kernels whose PTX the run generated (0: all from the shape's PTX cache)
    double ptx_ms = 0, jit_ms = 0, kernel_ms = 0;
    // The kernels' runner failed (not a user error): the whole program then ran on the
    // interpreter; runner_error says why.
    bool whole_program_interpreted = false;
    std::string runner_error;
    // Where the run was last ("interpreter", "jit", "kernel"); after CANCELLED, where the cancel
    // took effect.
    std::string phase;
};

class Device {
public:
    virtual ~Device() = default;
    virtual Capabilities capabilities() const = 0;
    // Everything per plan (code generation, module loading); a device may be prepared again
    // with another plan.
    virtual Status Prepare(std::shared_ptr<const CompiledPlan> plan, const RunOptions &options) = 0;
    // The inputs of the next Run (replacing earlier ones).  The device keeps views, not copies,
    // where its memory kind allows.
    virtual Status Bind(const Inputs &inputs) = 0;
    // Runs the prepared plan on the bound inputs; CANCELLED after Cancel().
    virtual Status Run() = 0;
    // The result of the last successful Run.
    virtual Expected<Result> Fetch() = 0;
    // The result of the last successful Run as the program's value (host devices: shares its
    // memory, no conversion).
    virtual Expected<hir::Value> FetchValue() = 0;
    virtual RunReport report() const { return RunReport(); }

    // Asks a running (or the next) Run to stop; safe from any thread and from a signal
    // handler.  Devices poll cancel_requested() in their long loops.
    void Cancel() { cancel_.store(true, std::memory_order_relaxed); }
    void ResetCancel() { cancel_.store(false, std::memory_order_relaxed); }
    bool cancel_requested() const { return cancel_.load(std::memory_order_relaxed); }

protected:
    std::atomic<bool> cancel_{false};
};

// The cpu device's code cache on disk (cpujit::SetCodeCache): compiled kernels in `dir`, shared
// by every process naming it, bounded by max_bytes; dir empty or max_bytes 0 turns it off.
void SetCodeCache(const std::string &dir, uint64_t max_bytes);

// Stops the cpu device's background compilations and waits for them (cpujit::StopCompiles): a
// host process calls it on its way out, before static objects are destroyed.  False: a compile
// thread was given up after a fatal LLVM error; end the process without destructors (_exit).
bool StopBackgroundCompiles();
// Waits at most limit_ms for the cpu device's background compilations to finish (their code
// then reaches the code cache on disk: cpujit::FinishCompiles); a host calls it on a normal
// exit, before StopBackgroundCompiles.
bool FinishBackgroundCompiles(int limit_ms);

// The cuda device's driver library: "" (the default) means $RNDN_LIBCUDA when set, else
// libcuda.so.1.  Takes effect at the next use of the device.
void SetCudaLibrary(const std::string &library);
// Opens the cuda device's driver (once per library; a failure is remembered too) and describes
// its GPU ("NVIDIA H100 (sm_90, libcuda.so.1)"), or says why there is none (UNSUPPORTED).
Expected<std::string> ProbeCudaDevice();

// The devices this build has ("interp", "cpu", "cuda"); MakeDevice fails with UNSUPPORTED for other names.
std::vector<std::string> DeviceNames();
Expected<std::unique_ptr<Device>> MakeDevice(std::string_view name);

// Result as text (hir::FormatValue's table format: header line, '|'-separated rows).
std::string FormatResult(const Result &r);
// The tables of a DataRegistry (e.g. from hir::LoadSchemaAndData) as inputs: columns shared
// without copying, enum columns as foreign keys onto their referenced table's primary key.
Expected<std::vector<InputTable>> InputsFromRegistry(const hir::DataRegistry &registry);

}  // namespace rndn::runtime
