// Per-execution state of one Custom Scan (rndn): owned by the CustomScanState through a raw
// pointer, deleted by End or, on error, by a memory-context reset callback.  Internal to
// src/executor.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "common/status.h"
#include "horseir/horseir.h"
#include "runtime/runtime.h"
#include "pg_base/boundary.h"
#include "pg_base/guc.h"
#include "pg_base/plan_node.h"

namespace rndn::exec {

// From the shared base (src/pg_base).
using pg::DeviceChoice;
using pg::DeviceName;
using pg::g_settings;
using pg::Outcome;
using pg::RaiseIfError;
using pg::ResolveDevice;
using pg::RunGuarded;

// Aligned host memory for column buffers, bounded by rndn.memory_limit: the runtime's allocator
// interface (common/buffer.h: a CountingAllocator over HostMemory), with the loader's messages.
// (Page-locked or shared memory when a device needs it: another base allocator.)
class HostAllocator {
public:
    explicit HostAllocator(int64_t limit) : counting_(HostMemory(), limit) {}
    // nullptr when over the limit or out of memory; *why says which.  64-byte aligned.
    uint8_t *Alloc(int64_t bytes, const char **why) noexcept;
    void Free(uint8_t *p, int64_t bytes) noexcept;
    // Accounts memory allocated elsewhere (string bytes); false when over the limit.
    bool Charge(int64_t bytes) noexcept { return counting_.Charge(bytes); }
    int64_t used() const { return counting_.used(); }
    int64_t limit() const { return counting_.limit(); }
    // The base allocator buffers handed to a column are freed through (after the run, the
    // bytes stay charged to it).
    static Allocator &base() { return HostMemory(); }

private:
    CountingAllocator counting_;
};

// One column being loaded.
struct ColumnBuilder {
    int attnum = 0;
    unsigned type = 0;  // PostgreSQL type OID
    int scale = 0;      // numeric (hir::Type::kUnknownScale: unconstrained, per-value scales)
    hir::Type hir_type;
    int elem_size = 0;
    bool non_ascii = false;   // a loaded string had a byte >= 0x80
    uint8_t *buf = nullptr;  // fixed-width payload (from the allocator)
    int64_t cap = 0;         // elements
    int64_t length = 0;
    std::shared_ptr<hir::Vector> vec;  // string payload / validity live here while loading
    // unconstrained numeric: each row's display scale (grown with buf; the row's value is held
    // scaled by 10^its own scale until Finish brings every row to the largest one)
    std::vector<uint8_t> escale;
};

struct ScanRun {
    explicit ScanRun(int64_t limit) : alloc(limit) {}
    HostAllocator alloc;  // first: outlives every buffer below
    std::string program_text;
    std::string summary;
    std::string translate_ms;
    bool ascii_guard = false;
    std::string timezone;  // pg::TimeZoneKey() the program was made for ("": none)
    // The program writes floats or dates as text in the form the plan was made for (issue 18
    // casts): under other settings the executor runs PostgreSQL's plan instead.
    bool float_text_guard = false;
    bool iso_date_guard = false;
    bool interval_style_guard = false;  // "interval_style": IntervalStyle postgres
    std::vector<pg::RelationRead> relations;
    std::vector<ColumnBuilder> builders;  // of the relation being loaded
    hir::DataRegistry registry;
    hir::Value result;
    std::vector<std::shared_ptr<const hir::Vector>> out_cols;
    int64_t out_rows = 0;
    bool executed = false;
    // The step the first fetch is in ("loading", "compiling", "executing (<device phase>)"): a
    // cancel that stops the program names it in a DEBUG1 message (test/cancel checks it).
    std::string phase;
    // statistics for EXPLAIN ANALYZE
    int64_t rows_loaded = 0;
    double est_groups = 0;  // the most groups PostgreSQL's plan (custom_plans) estimates for an Agg
    int cached_relations = 0;  // relations served from the column cache (this backend's or the shared one)
    int shared_relations = 0;  // of those, relations served from the shared column cache
    int file_relations = 0;    // of those, relations the shared cache read from their column files
    int64_t bytes_loaded = 0;
    double load_ms = 0, exec_ms = 0;
    const char *device = nullptr;  // the device that ran the program
    runtime::RunReport report;     // what it did (kernels, compile and kernel time, cache)
    double deform_cpu_ms = 0;  // CPU time the loader's worker threads spent deforming
    int loader_threads = 0;    // worker threads of the last heap load (0: none)
};

// Loads every relation of run.relations into run.registry through the table AM under
// `snapshot` (a PostgreSQL Snapshot).  Calls PostgreSQL: never from a worker thread.
Status LoadRelationsUnsafe(ScanRun &run, void *snapshot);

// True when a cancel or termination is pending (reads PostgreSQL's flags, calls nothing).
bool InterruptRequested();

}  // namespace rndn::exec
