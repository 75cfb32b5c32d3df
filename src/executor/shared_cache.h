// The column cache shared by every backend (internal to src/executor; PostgreSQL types).
//
// With rndn in shared_preload_libraries and rndn.shared_cache_size > 0, the server reserves
// that much shared memory at start and makes it a DSA area placed in the main shared memory
// segment (so it maps at the same address in every backend and never grows).  Entries hold the
// loaded columns of one relation of one database (each column one DSA allocation: a header,
// then the fixed-width data, the validity bitmap, the string offsets and bytes) with the
// validity key the per-backend cache uses (relation file node, number of blocks, LSNs of the
// visibility map pages recorded before the load; see loader.cpp).
//
// Concurrency: one LWLock guards the entry table; every column carries an atomic reference
// count (one for the cache's link, one per reader).  A reader pins under the lock and unpins
// with one atomic decrement (no PostgreSQL call: the unpin runs from a C++ destructor).  A
// column unlinked while readers hold it (eviction, replacement by a newer load, a stale key) is
// retired: it keeps its memory (and counts against the size) until a later writer, holding the
// lock, finds it unreferenced and frees it.  Eviction: least recently used relation first,
// until the new columns fit within the size.
#pragma once

extern "C" {
#include "postgres.h"

#include "access/xlogdefs.h"
#include "storage/block.h"
#include "storage/relfilenode.h"
}

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "horseir/horseir.h"

namespace rndn::exec {

// The proof that cached columns are what a scan now would return (see loader.cpp).
struct CacheKey {
    RelFileNode node{};
    BlockNumber nblocks = 0;
    std::vector<XLogRecPtr> vm_lsns;
    bool operator==(const CacheKey &o) const {
        return RelFileNodeEquals(node, o.node) && nblocks == o.nblocks && vm_lsns == o.vm_lsns;
    }
};

// A column as the cache stores it, with what identifies its type.
struct CacheColumn {
    int attnum = 0;
    Oid type = InvalidOid;
    int32 typmod = -1;
    bool non_ascii = false;
    std::shared_ptr<const hir::Vector> vec;
};

// Columns pinned in the shared cache by one lookup.
struct SharedHit {
    CacheKey key;
    int64 rows = 0;
    std::vector<void *> blocks;  // one per requested attnum (pinned)
};

// True when this backend can use the shared cache (preloaded, size > 0); attaches on first use.
// Calls PostgreSQL (through PgCall).
bool SharedCacheUsable();

// Pins the columns `attnums` of relation (db, relid) when the cache holds all of them; false
// when it does not (nothing pinned).
bool SharedLookup(Oid db, Oid relid, const std::vector<int> &attnums, SharedHit *hit);
// The type identity and non-ASCII flag of pinned column k.
void SharedColumnInfo(const SharedHit &hit, size_t k, Oid *type, int32 *typmod, bool *non_ascii);
// A HorseIR vector over pinned column k, every buffer in place (data, validity bitmap, string
// offsets and bytes are views of the shared memory; one owner holds the pin until the vector's
// last buffer goes).  Counts a hit and the time of use.  The hit's own pin on k is handed over.
std::shared_ptr<const hir::Vector> SharedVector(SharedHit &hit, size_t k);
// Drops the pins of `hit` still held (columns not turned into vectors).
void SharedUnpin(SharedHit &hit) noexcept;
// Unlinks the entries of this database whose relation was dropped or got a new file node
// (TRUNCATE, VACUUM FULL, CLUSTER, a rewriting ALTER TABLE) since they were published, among the
// relations this backend saw invalidated or dropped (a relcache callback and an object-access
// hook note them; nothing else is checked).  Called before loading and by the cache's SQL
// functions.  Calls PostgreSQL (through PgCall).
void SharedForgetDeadRelations();
// The entry (db, relid) no longer proves its columns: unlinks it if it still has `key`, and
// removes the relation's column files.
void SharedDropStale(Oid db, Oid relid, const CacheKey &key);
// Columns read from their column files (each vector a read-only mapping of its file).
struct FileColumns {
    CacheKey key;
    int64 rows = 0;
    std::vector<std::shared_ptr<const hir::Vector>> vecs;  // one per requested attnum
    std::vector<Oid> types;
    std::vector<int32> typmods;
    std::vector<bool> non_ascii;
};
// Maps the column files of the columns `attnums` of relation (db, relid) when every one has a
// file and `valid` says each file's key still proves its columns for this backend's snapshot
// (files whose key does not are removed).  False when not.  Calls PostgreSQL (`valid`).
bool SharedMapFiles(Oid db, Oid relid, const std::vector<int> &attnums, const std::function<bool(const CacheKey &)> &valid,
                    FileColumns *out);
// Removes the column files of relation (db, relid) (their columns' types are no longer the
// relation's).
void SharedForgetFiles(Oid db, Oid relid);
// Publishes freshly loaded columns of (db, relid) under `key` (added to the entry when the key
// is the same, replacing it otherwise).  False when they do not fit (the caller keeps them in
// the backend's own cache).  Columns already present are left as they are.
bool SharedPublish(Oid db, Oid relid, const CacheKey &key, int64 rows, const std::vector<CacheColumn> &cols);


// ---- plan time (the cost model's hint, pg::ColumnCacheProbe) ----
// The key of the shared entry of (db, relid) when it holds every column of `attnums` (nothing
// pinned).  Calls PostgreSQL (through PgCall).
bool SharedEntryKey(Oid db, Oid relid, const std::vector<int> &attnums, CacheKey *key);
// The keys of the column files of `attnums` (one per column) when every one has a valid file.
bool SharedFileKeys(Oid db, Oid relid, const std::vector<int> &attnums, std::vector<CacheKey> *keys);

// ---- background loads (rndn.background_load) ----
// Asks the "rndn column loader" background worker to load columns `attnums` of (db, relid) into
// the shared cache: false when nothing was asked (no shared cache, more columns than an entry
// holds, `bytes` over half the cache or, with the relation's other cached columns, over all of
// it, a load of the relation asked or running, one that failed within the last 5 minutes or
// loaded these columns within the last 10 seconds, no free request slot or worker slot).  Calls PostgreSQL (through PgCall).
bool SharedRequestLoad(Oid db, Oid relid, const std::vector<int> &attnums, int64 bytes);
// In loader.cpp: the worker's load of the columns under the active snapshot (a transaction is
// open); true when they are in the shared cache afterwards.  *why: what stopped it otherwise.
// Calls PostgreSQL: run it through RunGuarded.
Status LoadIntoSharedCache(Oid relid, const std::vector<int> &attnums, bool *cached);
// In loader.cpp: pg::ColumnCacheProbe::cached.
bool ColumnsCachedHint(unsigned relid, const std::vector<int> &attnums);

}  // namespace rndn::exec
