// Column files: the shared column cache's columns kept on disk across server restarts
// (internal to src/executor; PostgreSQL types, no PostgreSQL call).
//
// One file per column, `<dir>/<db>_<relid>_<attnum>`, dir being the data directory's
// rndn_column_files folder: a fixed header (format, the cluster's system identifier, the relation,
// the column's type identity, the validity key the columns were loaded under) followed by the
// column's buffers (fixed-width data, validity bitmap, string offsets and bytes, per-row scales).
// A file is written by the column writer (a background worker, shared_cache.cpp) to a temporary
// name, flushed to disk and renamed into place, so a file under its own name is always complete.
// A file proves nothing by itself: its key is checked against the relation by the backend that
// reads it, under its own snapshot, exactly as a shared cache entry's key is (loader.cpp), and a
// file whose key no longer holds is removed.
#pragma once

extern "C" {
#include "postgres.h"
}

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "executor/shared_cache.h"

namespace rndn::exec {

// What a column file says of its column, and the sizes of its buffers.
struct ColumnFileMeta {
    Oid db = InvalidOid, relid = InvalidOid;
    int attnum = 0;
    Oid type = InvalidOid;
    int32 typmod = -1;
    bool non_ascii = false;
    hir::TypeKind kind = hir::TypeKind::WILDCARD;
    int32 scale = 0, scale_max = 0;
    int64 length = 0, rows = 0;
    CacheKey key;
    int64 data_bytes = 0, validity_words = 0, offsets_count = 0, bytes_len = 0, escale_len = 0;
};

// The buffers written after the header, in this order (each may be empty).
struct ColumnFileSections {
    const void *data = nullptr;
    const void *validity = nullptr;
    const void *offsets = nullptr;
    const void *bytes = nullptr;
    const void *escale = nullptr;
};

std::string ColumnFilePath(const std::string &dir, Oid db, Oid relid, int attnum);

// Writes the file under a temporary name (fsync when `sync`), then asks `commit` whether it is
// still wanted and renames it into place if so.  `stop` is polled between pieces of at most
// 8 MB; true from it abandons the file.  False on any failure or refusal (nothing left behind).
bool WriteColumnFile(const std::string &dir, uint64 system_id, const ColumnFileMeta &meta,
                     const ColumnFileSections &sections, bool sync, bool (*stop)(),
                     const std::function<bool(const std::function<bool()> &rename)> &commit);

// An opened column file whose header was read and checked (format, system identifier, the
// relation and column asked for, a known type kind, buffer sizes that add up to the file's size).
struct ColumnFileReader {
    int fd = -1;
    ColumnFileMeta meta;
    int64 section_off[5] = {0, 0, 0, 0, 0};  // data, validity, offsets, bytes, escale
    int64 file_bytes = 0;
    ColumnFileReader() = default;
    ColumnFileReader(const ColumnFileReader &) = delete;
    ColumnFileReader &operator=(const ColumnFileReader &) = delete;
    ~ColumnFileReader();
};

// Opens `<dir>/<db>_<relid>_<attnum>`; false when it is absent or not a valid file of that
// column of this cluster (a file that is there but unusable is removed).
bool OpenColumnFile(const std::string &dir, uint64 system_id, Oid db, Oid relid, int attnum, ColumnFileReader *r);
// A HorseIR vector over a column's buffers in place (`m` gives its type and the buffers' sizes;
// views that copy only if written; `owner` keeps the buffers alive while any view is held).
// Shared by the shared cache's blocks and the mapped files.
std::shared_ptr<const hir::Vector> ViewVector(const ColumnFileMeta &m, const ColumnFileSections &s,
                                              std::shared_ptr<const void> owner);
// The column as a HorseIR vector whose buffers are a read-only shared mapping of the file (the
// page cache's pages: no copy; the mapping lives as long as the vector's last buffer).  Null if
// the mapping fails.  A file is never written in place (a new one is renamed over it), so the
// mapping stays what was checked.
std::shared_ptr<const hir::Vector> MapColumnFile(const ColumnFileReader &r);
// Marks the file used now (its modification time orders the trimming below).
void TouchColumnFile(const ColumnFileReader &r);

// The relations of database `db` that have files in the folder, with their files' attnums
// (names only, unchecked).
std::map<Oid, std::vector<int>> ColumnFileRelations(const std::string &dir, Oid db);
// Removes the files of relation (db, relid), or the one of `attnum` when it is not 0.
void RemoveColumnFiles(const std::string &dir, Oid db, Oid relid, int attnum = 0);
// Removes the least recently used files (and temporary files of writers that died) until the
// folder holds at most `limit_bytes`.
void TrimColumnFiles(const std::string &dir, int64 limit_bytes);

}  // namespace rndn::exec
