// All rndn.* settings, defined in one place (guc.cpp).
#pragma once

namespace rndn::pg {

enum class DeviceChoice : int { AUTO = 0, INTERP = 1, CPU = 2, CUDA = 3 };

// Sites where rndn.test_error_site makes a guarded PostgreSQL call raise PostgreSQL's own ERROR
// (hidden setting, for the boundary tests in test/regress/sql/rndn_boundary.sql).
enum class ErrorSite : int { NONE = 0, LOAD_OPEN = 2, LOAD_CANCEL = 3, LOAD_CANCEL_WAIT = 4 };

struct Settings {
    bool enabled = true;            // rndn.enabled
    bool force = false;             // rndn.force: take every subtree rndn can run, whatever the costs
    bool explain_fallback = false;  // rndn.explain_fallback: EXPLAIN / DEBUG1 say why a node stayed
    bool regression_mode = false;   // rndn.regression_mode: hide timings and sizes in EXPLAIN
    int chunk_rows = 65536;         // rndn.chunk_rows: rows the loader deforms per chunk
    int loader_threads = 0;         // rndn.loader_threads: worker threads that deform heap tuples (0 = one per core)
    int memory_limit_mb = 4096;     // rndn.memory_limit: bytes of column buffers + intermediates
    int device = 0;                 // rndn.device (DeviceChoice)
    int auto_cpu_rows = 1000000;    // rndn.auto_cpu_rows: with device = auto, programs reading this many rows run on cpu
    int cpu_threads = 0;            // rndn.cpu_threads: host threads per kernel launch on the cpu device (0 = all cores)
    char *cuda_library = nullptr;   // rndn.cuda_library: the CUDA driver the cuda device opens ("" = $RNDN_LIBCUDA or libcuda.so.1)
    bool compile_in_background = true;  // rndn.compile_in_background: small kernels not yet compiled run interpreted meanwhile
    int column_cache_mb = 2048;     // rndn.column_cache: this backend's cache of loaded columns (0 = off)
    int shared_cache_mb = 512;      // rndn.shared_cache_size: the column cache every backend shares (0 = off; server start)
    int column_files_mb = 4096;     // rndn.column_files_size: the shared cache's columns on disk across restarts (0 = off)
    bool background_load = true;    // rndn.background_load: a query left to PostgreSQL only for its loads starts them in the background
    int code_cache_mb = 256;        // rndn.code_cache_size: compiled kernels on disk, shared by every backend (0 = off)
    int test_error_site = 0;        // rndn.test_error_site (ErrorSite): tests of the error boundary
    bool test_ill_typed = false;    // rndn.test_ill_typed_program: the translator adds an ill-typed statement
};

extern Settings g_settings;

// Statements that store their query's result in a relation (CREATE MATERIALIZED VIEW, REFRESH
// MATERIALIZED VIEW, CREATE TABLE AS, SELECT INTO, EXPLAIN ANALYZE of those, and statements
// that write rows) under way in this backend, nested included: counted by the planner hook's
// ProcessUtility, ExplainOneQuery and ExecutorRun hooks, read by the loader (a stored value keeps PostgreSQL's physical form, see
// src/executor/README.md).
extern int g_storing_depth;

// Define every rndn.* GUC; called once from _PG_init.
void DefineSettings();

// The device rndn.device resolves to now for a program reading `input_rows` rows whose GROUP BY
// or DISTINCT PostgreSQL's plan estimates at `groups` groups at most (0: none) (auto: the cpu
// device from rndn.auto_cpu_rows rows or 10,000 groups on, else the interpreter); false (with the
// reason) when it is not available.
bool ResolveDevice(DeviceChoice *out, const char **reason, double input_rows = 0, double groups = 0);
const char *DeviceName(DeviceChoice d);

}  // namespace rndn::pg
