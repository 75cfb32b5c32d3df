extern "C" {
#include "postgres.h"

#include "utils/guc.h"
}

#include <climits>
#include <string>

#include "pg_base/guc.h"
#include "runtime/runtime.h"

namespace rndn::pg {

Settings g_settings;
int g_storing_depth = 0;

namespace {
const struct config_enum_entry kDeviceOptions[] = {
    {"auto", (int)DeviceChoice::AUTO, false},
    {"interp", (int)DeviceChoice::INTERP, false},
    {"cpu", (int)DeviceChoice::CPU, false},
    {"cuda", (int)DeviceChoice::CUDA, false},
    {nullptr, 0, false},
};
const struct config_enum_entry kErrorSites[] = {
    {"none", (int)ErrorSite::NONE, false},
    {"load_open", (int)ErrorSite::LOAD_OPEN, false},      // table_open of a relation that is gone
    {"load_cancel", (int)ErrorSite::LOAD_CANCEL, false},  // a cancel arriving during a heap page read
    // a cancel arriving while the backend waits for the loader's worker threads
    {"load_cancel_wait", (int)ErrorSite::LOAD_CANCEL_WAIT, false},
    {nullptr, 0, false},
};
}  // namespace

void DefineSettings() {
    DefineCustomBoolVariable("rndn.enabled", "Run eligible queries through rndn.",
                             "When off, every query runs on PostgreSQL's own plan.", &g_settings.enabled, true,
                             PGC_USERSET, 0, nullptr, nullptr, nullptr);
    DefineCustomBoolVariable("rndn.force", "Run every plan subtree rndn can run, whatever the estimated costs.",
                             "When off, rndn takes a subtree only when its plan is expected to be faster than "
                             "PostgreSQL's (for tests: on).",
                             &g_settings.force, false, PGC_USERSET, 0, nullptr, nullptr, nullptr);
    DefineCustomBoolVariable("rndn.explain_fallback", "Say why plan nodes stayed with PostgreSQL.",
                             "EXPLAIN shows one line per reason; the reasons are also logged at DEBUG1.",
                             &g_settings.explain_fallback, false, PGC_USERSET, 0, nullptr, nullptr, nullptr);
    DefineCustomBoolVariable("rndn.regression_mode", "Hide timings and sizes in EXPLAIN output.", nullptr,
                             &g_settings.regression_mode, false, PGC_USERSET, 0, nullptr, nullptr, nullptr);
    DefineCustomIntVariable("rndn.chunk_rows", "Rows the columnar loader deforms per chunk.", nullptr,
                            &g_settings.chunk_rows, 65536, 1, 1 << 30, PGC_USERSET, 0, nullptr, nullptr, nullptr);
    DefineCustomIntVariable("rndn.loader_threads", "Worker threads that deform heap tuples into columns.",
                            "0 means one per core.  The backend itself reads pages and decides visibility; the "
                            "workers only deform the visible tuples of pinned pages.",
                            &g_settings.loader_threads, 0, 0, 256, PGC_USERSET, 0, nullptr, nullptr, nullptr);
    DefineCustomIntVariable("rndn.memory_limit", "Memory rndn may use for one query's columns and intermediates.",
                            "Exceeding it raises an out-of-memory error (SQLSTATE 53200).",
                            &g_settings.memory_limit_mb, 4096, 1, INT_MAX / 2, PGC_USERSET, GUC_UNIT_MB, nullptr,
                            nullptr, nullptr);
    DefineCustomIntVariable("rndn.column_cache", "Memory this backend may keep for columns loaded by earlier queries.",
                            "Cached columns are reused only while every page they came from is unchanged and "
                            "all-visible; 0 turns the cache off.",
                            &g_settings.column_cache_mb, 2048, 0, INT_MAX / 2, PGC_USERSET, GUC_UNIT_MB, nullptr,
                            nullptr, nullptr);
    DefineCustomIntVariable("rndn.shared_cache_size", "Shared memory for the column cache every backend shares.",
                            "Reserved when the server starts (rndn in shared_preload_libraries); 0 turns the "
                            "shared cache off.  A backend with rndn.column_cache = 0 uses no cache at all.",
                            &g_settings.shared_cache_mb, 512, 0, INT_MAX / 2, PGC_POSTMASTER, GUC_UNIT_MB, nullptr,
                            nullptr, nullptr);
    DefineCustomIntVariable("rndn.column_files_size", "Disk space for the shared column cache's columns, kept across restarts.",
                            "Column files in the data directory's rndn_column_files folder, written by the "
                            "rndn column writer; a backend that misses the shared cache reads them when their "
                            "validity key still holds (the least recently used files go first); 0 turns them off.",
                            &g_settings.column_files_mb, 4096, 0, INT_MAX / 2, PGC_SIGHUP, GUC_UNIT_MB, nullptr,
                            nullptr, nullptr);
    DefineCustomBoolVariable("rndn.background_load", "Load missing columns into the shared cache in the background.",
                             "When the cost model leaves a query with PostgreSQL only because its columns are "
                             "not cached yet (rndn's plan would win with them cached), a background worker "
                             "loads them into the shared column cache, so that later queries run through rndn.",
                             &g_settings.background_load, true, PGC_USERSET, 0, nullptr, nullptr, nullptr);
    DefineCustomIntVariable("rndn.code_cache_size", "Disk space for kernels the cpu device compiled, shared by every backend.",
                            "Object code in the data directory's rndn_code_cache folder, kept across sessions "
                            "and restarts (the least recently used files go first); 0 turns it off.",
                            &g_settings.code_cache_mb, 256, 0, INT_MAX / 2, PGC_SUSET, GUC_UNIT_MB, nullptr, nullptr,
                            nullptr);
    DefineCustomEnumVariable("rndn.device", "Device that runs rndn programs.",
                             "auto: the cpu device for programs reading at least rndn.auto_cpu_rows rows, else "
                             "interp, the HorseIR interpreter.",
                             &g_settings.device, (int)DeviceChoice::AUTO, kDeviceOptions, PGC_USERSET, 0, nullptr,
                             nullptr, nullptr);
    DefineCustomIntVariable("rndn.auto_cpu_rows", "With rndn.device = auto, programs that read at least this many rows run on the cpu device.",
                            "Smaller programs run on the interpreter, where compiling kernels would cost more than it "
                            "saves.  The rows are those loaded (EXPLAIN without ANALYZE: the relations' row estimates).",
                            &g_settings.auto_cpu_rows, 1000000, 0, INT_MAX, PGC_USERSET, 0, nullptr, nullptr, nullptr);
    DefineCustomStringVariable("rndn.cuda_library", "The CUDA driver library the cuda device opens.",
                               "Empty: $RNDN_LIBCUDA when the server's environment sets it, else libcuda.so.1.  "
                               "Tests point it at build/lib/libcuda_emu.so, the driver API over rndn's SASS emulator.",
                               &g_settings.cuda_library, "", PGC_SUSET, 0, nullptr, nullptr, nullptr);
    DefineCustomIntVariable("rndn.cpu_threads", "Host threads that run a kernel launch on the cpu device.",
                            "0 means all cores; 1 runs every launch on the backend's own thread (serial).",
                            &g_settings.cpu_threads, 0, 0, 1024, PGC_USERSET, 0, nullptr, nullptr, nullptr);
    DefineCustomBoolVariable("rndn.compile_in_background",
                             "On the cpu device, run a new kernel on the interpreter while it compiles.",
                             "A kernel whose code is neither compiled in this backend nor in the code cache on "
                             "disk, and whose work is small (at most 32 million rows x statements, weighted by the "
                             "interpreter's cost per row: 4 to 256 for reductions and groupings), runs on the "
                             "interpreter while a background thread compiles it; later runs launch it.  off: "
                             "every query waits for its kernels' compiles.",
                             &g_settings.compile_in_background, true, PGC_USERSET, 0, nullptr, nullptr, nullptr);
    DefineCustomEnumVariable("rndn.test_error_site", "For tests: a guarded PostgreSQL call that raises an ERROR.",
                             nullptr, &g_settings.test_error_site, (int)ErrorSite::NONE, kErrorSites, PGC_USERSET,
                             GUC_NO_SHOW_ALL | GUC_NOT_IN_SAMPLE, nullptr, nullptr, nullptr);
    DefineCustomBoolVariable("rndn.test_ill_typed_program",
                             "For tests: the translator adds a statement the HorseIR checker rejects.", nullptr,
                             &g_settings.test_ill_typed, false, PGC_USERSET, GUC_NO_SHOW_ALL | GUC_NOT_IN_SAMPLE,
                             nullptr, nullptr, nullptr);
    MarkGUCPrefixReserved("rndn");
}

const char *DeviceName(DeviceChoice d) {
    switch (d) {
        case DeviceChoice::AUTO: return "auto";
        case DeviceChoice::INTERP: return "interp";
        case DeviceChoice::CPU: return "cpu";
        case DeviceChoice::CUDA: return "cuda";
    }
    return "?";
}

// With rndn.device = auto, a program whose GROUP BY makes at least this many groups runs on the
// cpu device whatever it reads: the interpreter builds a list of row numbers and one vector per
// aggregate per group, the cpu device's group kernels reduce in place.  ClickBench at 200k rows
// (warm, interpreter against cpu device): grouping by about 200k keys 560 -> 108 ms (Q33),
// 185 -> 59 (Q32), 87 -> 47 (Q31), 200 -> 120 (Q19); a few hundred groups stay faster on the
// interpreter (Q10 65 against 98 ms).
constexpr double kAutoCpuGroups = 10000;

bool ResolveDevice(DeviceChoice *out, const char **reason, double input_rows, double groups) {
    const DeviceChoice d = (DeviceChoice)g_settings.device;
    switch (d) {
        case DeviceChoice::AUTO:
            // Measured at TPC-H SF 1 (6M-row lineitem): the cpu device's warm runs are faster on
            // almost every query and a new shape's first run (compiling in the background) takes
            // about the interpreter's time; at SF 0.1 some queries were still slower on it.
            *out = input_rows >= (double)g_settings.auto_cpu_rows || groups >= kAutoCpuGroups ? DeviceChoice::CPU : DeviceChoice::INTERP;
            return true;
        case DeviceChoice::INTERP: *out = DeviceChoice::INTERP; return true;
        case DeviceChoice::CPU: *out = DeviceChoice::CPU; return true;
        case DeviceChoice::CUDA: {
            // the driver is opened once per library and backend; a failure is remembered too
            static std::string why;
            try {
                runtime::SetCudaLibrary(g_settings.cuda_library != nullptr ? g_settings.cuda_library : "");
                auto probe = runtime::ProbeCudaDevice();
                if (probe.ok()) {
                    *out = DeviceChoice::CUDA;
                    return true;
                }
                why = "rndn.device = cuda: " + probe.status().message();
            } catch (const std::exception &e) {
                why = std::string("rndn.device = cuda: ") + e.what();
            }
            *reason = why.c_str();
            return false;
        }
    }
    *reason = "unknown device";
    return false;
}

}  // namespace rndn::pg
