// The column cache shared by every backend: shared memory, entry table, pins, eviction, and the
// SQL functions behind the rndn_column_cache view.  See shared_cache.h for the design.
extern "C" {
#include "postgres.h"

#include "access/htup_details.h"
#include "access/xlog.h"
#include "access/xact.h"
#include "catalog/objectaccess.h"
#include "catalog/pg_class.h"
#include "catalog/pg_type.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "postmaster/interrupt.h"
#include "storage/latch.h"
#include "utils/guc.h"
#include "port/atomics.h"
#include "storage/ipc.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"
#include "tcop/tcopprot.h"
#include "utils/dsa.h"
#include "utils/snapmgr.h"
#include "utils/acl.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"
#include "utils/tuplestore.h"

PGDLLEXPORT Datum rndn_column_cache_entries(PG_FUNCTION_ARGS);
PGDLLEXPORT Datum rndn_shared_cache_info(PG_FUNCTION_ARGS);
PG_FUNCTION_INFO_V1(rndn_column_cache_entries);
PG_FUNCTION_INFO_V1(rndn_shared_cache_info);
}

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <unordered_map>

#include "executor/column_files.h"
#include "executor/shared_cache.h"
#include "pg_base/boundary.h"
#include "pg_base/guc.h"
#include "pg_base/pg_call.h"
#include "pg_base/plan_node.h"

namespace rndn::exec {

namespace {

using pg::g_settings;

constexpr int kMaxEntries = 256;   // relations
constexpr int kMaxColumns = 64;    // columns of one relation
constexpr int kMaxVmPages = 64;    // visibility map pages of a key (relations up to 16 GB)
constexpr int kMaxRetired = 1024;  // unlinked columns still read by someone
constexpr int64 kAlign = 64;

int64 Round(int64 n) { return (n + kAlign - 1) / kAlign * kAlign; }

// The head of one column's allocation; the buffers follow at the recorded offsets.
struct ColumnBlock {
    pg_atomic_uint32 refs;      // the cache's link + one per reader
    pg_atomic_uint32 on_disk;   // 1: the column writer wrote (or gave up on) its column file
    pg_atomic_uint64 hits;      // lookups served
    pg_atomic_uint64 last_use;  // TimestampTz of the last load or hit
    dsa_pointer self;
    int64 bytes;  // the allocation's size
    int64 length;
    Oid db, relid;
    Oid type;
    int32 typmod;
    int16 attnum;
    bool non_ascii;
    hir::TypeKind kind;
    int32 scale;
    int64 data_off, data_bytes;
    int64 validity_off, validity_words;
    int64 offsets_off, offsets_count;
    int64 bytes_off, bytes_len;
    int64 escale_off, escale_len;  // unconstrained numeric: per-element display scales
    int32 scale_max;
};

struct Entry {
    bool used;
    Oid db, relid;
    RelFileNode node;
    BlockNumber nblocks;
    int nlsns;
    XLogRecPtr lsns[kMaxVmPages];
    int64 rows;
    uint64 tick;  // LRU clock at the last use
    int ncols;
    int16 attnums[kMaxColumns];
    dsa_pointer cols[kMaxColumns];
};

// One request for a background load (rndn.background_load), and what became of it.
enum LoadState : int { LOAD_FREE = 0, LOAD_ASKED, LOAD_RUNNING, LOAD_DONE, LOAD_FAILED };
constexpr int kMaxLoads = 8;
struct LoadSlot {
    int state;
    Oid db, relid;
    int natts;
    int16 attnums[kMaxColumns];
    TimestampTz since;  // asked, or finished
};

struct SharedState {
    LWLock *lock;
    int dsa_tranche;
    int64 area_bytes;
    int64 capacity;    // bytes the columns may take (the area less the DSA's own bookkeeping)
    int64 bytes_used;  // columns linked or retired
    uint64 clock;
    int64 evictions;
    Latch *writer_latch;  // the column writer's, while it runs
    int nretired;
    dsa_pointer retired[kMaxRetired];
    Entry entries[kMaxEntries];
    LoadSlot loads[kMaxLoads];  // under the lock
    // the DSA area follows, aligned
};

size_t StateBytes() { return (size_t)Round((int64)sizeof(SharedState)); }
int64 AreaBytes() { return (int64)g_settings.shared_cache_mb << 20; }

SharedState *g_state = nullptr;
dsa_area *g_area = nullptr;
bool g_attach_failed = false;
shmem_request_hook_type g_prev_request = nullptr;
shmem_startup_hook_type g_prev_startup = nullptr;

// This backend's pins (so that they are given back if the backend exits while holding any).
// A vector's last reference may go on a device's worker thread: the map has a mutex.
std::mutex g_pins_mutex;
std::unordered_map<ColumnBlock *, int64> &LocalPins() {
    static auto *pins = new std::unordered_map<ColumnBlock *, int64>();  // never destroyed
    return *pins;
}

void Unpin(ColumnBlock *b) noexcept {
    std::lock_guard<std::mutex> guard(g_pins_mutex);
    auto &pins = LocalPins();
    auto it = pins.find(b);
    if (it == pins.end()) return;  // given back at exit already
    if (--it->second == 0) pins.erase(it);
    pg_atomic_fetch_sub_u32(&b->refs, 1);
}

// Relations whose shared entry may belong to a dropped or rewritten (truncated, VACUUM FULL,
// CLUSTER, ALTER TABLE rewrite) relation: noted by a relcache invalidation or the drop hook,
// checked against the catalog at this backend's next rndn load (or cache view): an entry whose
// relation is gone or has another file node than the entry's is unlinked.  Backend-local; no
// PostgreSQL call while noting.
constexpr int kMaxPending = 256;
Oid g_pending[kMaxPending];
int g_npending = 0;
bool g_pending_all = false;  // a relcache reset, or more than kMaxPending: check every entry
object_access_hook_type g_prev_object_access = nullptr;

void NoteRelation(Oid relid) noexcept {
    if (g_state == nullptr || g_pending_all || MyBackendType != B_BACKEND) return;
    if (relid == InvalidOid) {
        g_pending_all = true;
        return;
    }
    for (int i = 0; i < g_npending; ++i)
        if (g_pending[i] == relid) return;
    if (g_npending == kMaxPending)
        g_pending_all = true;
    else
        g_pending[g_npending++] = relid;
}

void NoteInvalidation(Datum, Oid relid) noexcept { NoteRelation(relid); }

void ObjectAccess(ObjectAccessType access, Oid class_id, Oid object_id, int sub_id, void *arg) {
    if (g_prev_object_access) g_prev_object_access(access, class_id, object_id, sub_id, arg);
    if (access == OAT_DROP && class_id == RelationRelationId && sub_id == 0) NoteRelation(object_id);
}

void ForgetDeadAtCommit(XactEvent event, void *);

void ReleasePinsAtExit(int, Datum) {
    std::lock_guard<std::mutex> guard(g_pins_mutex);
    for (auto &p : LocalPins()) pg_atomic_fetch_sub_u32(&p.first->refs, (uint32)p.second);
    LocalPins().clear();
}

ColumnBlock *Block(dsa_pointer dp) { return (ColumnBlock *)dsa_get_address(g_area, dp); }

void RequestShmem() {
    if (g_prev_request) g_prev_request();
    if (g_settings.shared_cache_mb <= 0) return;
    RequestAddinShmemSpace(StateBytes() + (size_t)AreaBytes());
    RequestNamedLWLockTranche("rndn_column_cache", 1);
}

void StartupShmem() {
    if (g_prev_startup) g_prev_startup();
    if (g_settings.shared_cache_mb <= 0) return;
    LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
    bool found = false;
    SharedState *s = (SharedState *)ShmemInitStruct("rndn column cache", StateBytes() + (size_t)AreaBytes(), &found);
    if (!found) {
        std::memset((void *)s, 0, sizeof(SharedState));
        s->lock = &(GetNamedLWLockTranche("rndn_column_cache"))->lock;
        s->dsa_tranche = LWLockNewTrancheId();
        s->area_bytes = AreaBytes();
        // The DSA's own bookkeeping (free-page map, span headers) comes out of the area.
        s->capacity = s->area_bytes - s->area_bytes / 32 - (64 << 10);
        dsa_area *area = dsa_create_in_place((char *)s + StateBytes(), (size_t)s->area_bytes, s->dsa_tranche, nullptr);
        dsa_pin(area);
        dsa_set_size_limit(area, (size_t)s->area_bytes);  // never a segment beyond the area
        dsa_detach(area);
    }
    LWLockRelease(AddinShmemInitLock);
    g_state = s;
}

// Frees the retired columns nobody reads any more.  Under the exclusive lock.
void SweepRetired() {
    SharedState *s = g_state;
    int kept = 0;
    for (int i = 0; i < s->nretired; ++i) {
        ColumnBlock *b = Block(s->retired[i]);
        if (pg_atomic_read_u32(&b->refs) == 0) {
            s->bytes_used -= b->bytes;
            dsa_free(g_area, s->retired[i]);
        } else {
            s->retired[kept++] = s->retired[i];
        }
    }
    s->nretired = kept;
}

// Unlinks an entry's columns (freed now, or retired while read).  Under the exclusive lock.
// False (nothing changed) when the retired list cannot take its read columns.
bool Unlink(Entry &e) {
    SharedState *s = g_state;
    int busy = 0;
    for (int c = 0; c < e.ncols; ++c) busy += pg_atomic_read_u32(&Block(e.cols[c])->refs) > 1;
    if (s->nretired + busy > kMaxRetired) return false;
    for (int c = 0; c < e.ncols; ++c) {
        ColumnBlock *b = Block(e.cols[c]);
        if (pg_atomic_sub_fetch_u32(&b->refs, 1) == 0) {
            s->bytes_used -= b->bytes;
            dsa_free(g_area, e.cols[c]);
        } else {
            s->retired[s->nretired++] = e.cols[c];
        }
    }
    e.used = false;
    e.ncols = 0;
    return true;
}

Entry *Find(Oid db, Oid relid) {
    for (Entry &e : g_state->entries)
        if (e.used && e.db == db && e.relid == relid) return &e;
    return nullptr;
}

bool KeyIs(const Entry &e, const CacheKey &k) {
    if (!RelFileNodeEquals(e.node, k.node) || e.nblocks != k.nblocks || e.nlsns != (int)k.vm_lsns.size()) return false;
    for (int i = 0; i < e.nlsns; ++i)
        if (e.lsns[i] != k.vm_lsns[(size_t)i]) return false;
    return true;
}

// Evicts least recently used entries (never `keep`) until `need` more bytes fit.  Under the
// exclusive lock.
bool MakeRoom(int64 need, const Entry *keep) {
    SharedState *s = g_state;
    SweepRetired();
    while (s->bytes_used + need > s->capacity) {
        Entry *victim = nullptr;
        for (Entry &e : s->entries)
            if (e.used && &e != keep && (victim == nullptr || e.tick < victim->tick)) victim = &e;
        if (victim == nullptr || !Unlink(*victim)) return false;
        ++s->evictions;
    }
    return true;
}

// A column's identity and buffer sizes: what a block is laid out from (a loaded vector's or a
// column file's).
ColumnFileMeta MetaOf(Oid db, Oid relid, const CacheKey &key, int64 rows, const CacheColumn &c) {
    const hir::Vector &v = *c.vec;
    ColumnFileMeta m;
    m.db = db;
    m.relid = relid;
    m.attnum = c.attnum;
    m.type = c.type;
    m.typmod = c.typmod;
    m.non_ascii = c.non_ascii;
    m.kind = v.type.kind;
    m.scale = v.type.scale;
    m.scale_max = v.scale_max;
    m.length = v.length;
    m.rows = rows;
    m.key = key;
    m.data_bytes = v.length * hir::ElementSize(v.type.kind);
    m.validity_words = (int64)v.validity.size();
    m.offsets_count = (int64)v.offsets.size();
    m.bytes_len = (int64)v.bytes.size();
    m.escale_len = (int64)v.elem_scale.size();
    return m;
}

int64 BlockBytes(const ColumnFileMeta &m) {
    // kAlign spare bytes: small allocations come from DSA size classes aligned to less than 64.
    int64 n = Round((int64)sizeof(ColumnBlock)) + kAlign;
    n += Round(m.data_bytes) + Round(m.validity_words * 8) + Round(m.offsets_count * 8) + Round(m.bytes_len) +
         Round(m.escale_len);
    return n;
}

// Lays a fresh allocation out for the column (no lock held; nobody else sees it yet): the header
// filled, the buffers at 64-byte aligned addresses (what the devices expect of column data),
// their contents still to be written.
void LayOutBlock(ColumnBlock *b, dsa_pointer dp, int64 bytes, const ColumnFileMeta &m, bool on_disk) {
    std::memset((void *)b, 0, sizeof(ColumnBlock));
    pg_atomic_init_u32(&b->refs, 1);
    pg_atomic_init_u32(&b->on_disk, on_disk ? 1 : 0);
    pg_atomic_init_u64(&b->hits, 0);
    pg_atomic_init_u64(&b->last_use, (uint64)GetCurrentTimestamp());
    b->self = dp;
    b->bytes = bytes;
    b->length = m.length;
    b->db = m.db;
    b->relid = m.relid;
    b->type = m.type;
    b->typmod = m.typmod;
    b->attnum = (int16)m.attnum;
    b->non_ascii = m.non_ascii;
    b->kind = m.kind;
    b->scale = m.scale;
    b->scale_max = m.scale_max;
    uint8 *base = (uint8 *)b;
    int64 off = (int64)(Round((int64)(uintptr_t)(base + sizeof(ColumnBlock))) - (int64)(uintptr_t)base);
    b->data_off = off;
    b->data_bytes = m.data_bytes;
    off += Round(b->data_bytes);
    b->validity_off = off;
    b->validity_words = m.validity_words;
    off += Round(b->validity_words * 8);
    b->offsets_off = off;
    b->offsets_count = m.offsets_count;
    off += Round(b->offsets_count * 8);
    b->bytes_off = off;
    b->bytes_len = m.bytes_len;
    off += Round(b->bytes_len);
    b->escale_off = off;
    b->escale_len = m.escale_len;
}

// The block's buffers, in the order of a column file's sections.
ColumnFileSections SectionsOf(ColumnBlock *b) {
    uint8 *base = (uint8 *)b;
    ColumnFileSections s;
    s.data = base + b->data_off;
    s.validity = base + b->validity_off;
    s.offsets = base + b->offsets_off;
    s.bytes = base + b->bytes_off;
    s.escale = base + b->escale_off;
    return s;
}

CacheKey KeyOf(const Entry &e) {
    CacheKey k;
    k.node = e.node;
    k.nblocks = e.nblocks;
    k.vm_lsns.assign(e.lsns, e.lsns + e.nlsns);
    return k;
}

// What a block holds (its relation's row count and key are the entry's).
ColumnFileMeta MetaOfBlock(const ColumnBlock *b) {
    ColumnFileMeta m;
    m.db = b->db;
    m.relid = b->relid;
    m.attnum = b->attnum;
    m.type = b->type;
    m.typmod = b->typmod;
    m.non_ascii = b->non_ascii;
    m.kind = b->kind;
    m.scale = b->scale;
    m.scale_max = b->scale_max;
    m.length = b->length;
    m.data_bytes = b->data_bytes;
    m.validity_words = b->validity_words;
    m.offsets_count = b->offsets_count;
    m.bytes_len = b->bytes_len;
    m.escale_len = b->escale_len;
    return m;
}

// Copies a loaded vector's buffers into its laid-out block.
void FillFromVector(ColumnBlock *b, const hir::Vector &v) {
    const ColumnFileSections s = SectionsOf(b);
    if (b->data_bytes > 0) std::memcpy((void *)s.data, v.data.get(), (size_t)b->data_bytes);
    if (b->validity_words > 0) std::memcpy((void *)s.validity, v.validity.data(), (size_t)b->validity_words * 8);
    if (b->offsets_count > 0) std::memcpy((void *)s.offsets, v.offsets.data(), (size_t)b->offsets_count * 8);
    if (b->bytes_len > 0) std::memcpy((void *)s.bytes, v.bytes.data(), (size_t)b->bytes_len);
    if (b->escale_len > 0) std::memcpy((void *)s.escale, v.elem_scale.data(), (size_t)b->escale_len);
}


std::string ColumnFilesDir() { return std::string(DataDir) + "/rndn_column_files"; }
bool ColumnFilesOn() { return g_settings.column_files_mb > 0; }


}  // namespace

void RegisterColumnWriter();

namespace {
bool ProbeLoadInBackground(unsigned relid, const std::vector<int> &attnums);
}

void RegisterSharedCache() {
    // The cost model's probe: this backend's cache works without preloading, the rest with it.
    pg::CacheProbe().cached = ColumnsCachedHint;
    pg::CacheProbe().load_in_background = ProbeLoadInBackground;
    if (!process_shared_preload_libraries_in_progress) return;
    g_prev_request = shmem_request_hook;
    shmem_request_hook = RequestShmem;
    g_prev_startup = shmem_startup_hook;
    shmem_startup_hook = StartupShmem;
    g_prev_object_access = object_access_hook;
    object_access_hook = ObjectAccess;
    // inherited by every backend (fork); noting calls nothing, the check runs before commit
    CacheRegisterRelcacheCallback(NoteInvalidation, (Datum)0);
    RegisterXactCallback(ForgetDeadAtCommit, nullptr);
    if (g_settings.shared_cache_mb > 0) RegisterColumnWriter();
}

bool SharedCacheUsable() {
    if (g_area != nullptr) return true;
    if (g_state == nullptr || g_attach_failed || g_settings.shared_cache_mb <= 0) return false;
    g_attach_failed = true;  // until it worked
    dsa_area *area = pg::PgCall([] {
        MemoryContext old = MemoryContextSwitchTo(TopMemoryContext);
        dsa_area *a = dsa_attach_in_place((char *)g_state + StateBytes(), nullptr);
        dsa_pin_mapping(a);
        MemoryContextSwitchTo(old);
        LWLockRegisterTranche(g_state->dsa_tranche, "rndn_column_cache_dsa");
        before_shmem_exit(ReleasePinsAtExit, (Datum)0);
        return a;
    });
    g_area = area;
    g_attach_failed = false;
    return true;
}

bool SharedLookup(Oid db, Oid relid, const std::vector<int> &attnums, SharedHit *hit) {
    hit->blocks.clear();
    if (attnums.empty()) return false;
    // Pins are taken under the lock (an unlinked column is never pinned afresh).
    std::vector<ColumnBlock *> found(attnums.size(), nullptr);
    Entry copy;
    const bool ok = pg::PgCall([&] {
        LWLockAcquire(g_state->lock, LW_SHARED);
        Entry *e = Find(db, relid);
        bool all = e != nullptr;
        for (size_t k = 0; all && k < attnums.size(); ++k) {
            for (int c = 0; c < e->ncols; ++c)
                if (e->attnums[c] == attnums[k]) found[k] = Block(e->cols[c]);
            all = found[k] != nullptr;
        }
        if (all) {
            std::memcpy((void *)&copy, (const void *)e, sizeof(Entry));
            for (ColumnBlock *b : found) pg_atomic_fetch_add_u32(&b->refs, 1);
            // LRU clock: atomic stores under the shared lock (writers hold it exclusively).
            __atomic_store_n(&e->tick, __atomic_add_fetch(&g_state->clock, 1, __ATOMIC_RELAXED), __ATOMIC_RELAXED);
        }
        LWLockRelease(g_state->lock);
        return all;
    });
    if (!ok) return false;
    {
        std::lock_guard<std::mutex> guard(g_pins_mutex);
        for (ColumnBlock *b : found) ++LocalPins()[b];
    }
    for (ColumnBlock *b : found) hit->blocks.push_back(b);
    hit->key = KeyOf(copy);
    hit->rows = copy.rows;
    return true;
}

void SharedColumnInfo(const SharedHit &hit, size_t k, Oid *type, int32 *typmod, bool *non_ascii) {
    const ColumnBlock *b = (const ColumnBlock *)hit.blocks[k];
    *type = b->type;
    *typmod = b->typmod;
    *non_ascii = b->non_ascii;
}

std::shared_ptr<const hir::Vector> SharedVector(SharedHit &hit, size_t k) {
    ColumnBlock *b = (ColumnBlock *)hit.blocks[k];
    hit.blocks[k] = nullptr;
    pg_atomic_fetch_add_u64(&b->hits, 1);
    pg_atomic_write_u64(&b->last_use, (uint64)GetCurrentTimestamp());
    // One owner holds the pin for every buffer of the vector (the constructor unpins if it fails).
    std::shared_ptr<const void> pin(b, [](ColumnBlock *p) { Unpin(p); });
    // Every buffer in place: views of the shared memory (hir::Buf copies only if written).
    return ViewVector(MetaOfBlock(b), SectionsOf(b), std::move(pin));
}

void SharedUnpin(SharedHit &hit) noexcept {
    for (void *&p : hit.blocks)
        if (p != nullptr) Unpin((ColumnBlock *)p), p = nullptr;
}

bool SharedEntryKey(Oid db, Oid relid, const std::vector<int> &attnums, CacheKey *key) {
    if (attnums.empty() || !SharedCacheUsable()) return false;
    Entry copy;
    const bool all = pg::PgCall([&] {
        LWLockAcquire(g_state->lock, LW_SHARED);
        const Entry *e = Find(db, relid);
        bool have = e != nullptr;
        for (size_t k = 0; have && k < attnums.size(); ++k) {
            bool one = false;
            for (int c = 0; c < e->ncols && !one; ++c) one = e->attnums[c] == attnums[k];
            have = one;
        }
        if (have) std::memcpy((void *)&copy, (const void *)e, sizeof(Entry));
        LWLockRelease(g_state->lock);
        return have;
    });
    if (all) *key = KeyOf(copy);
    return all;
}

namespace {
// The relation's file node as the catalog now says (this transaction's own changes included);
// false when the relation is gone.  0: a mapped relation.
bool CatalogFileNode(Oid relid, Oid *filenode) {
    return pg::PgCall([&] {
        HeapTuple tp = SearchSysCache1(RELOID, ObjectIdGetDatum(relid));
        if (!HeapTupleIsValid(tp)) return false;
        *filenode = ((Form_pg_class)GETSTRUCT(tp))->relfilenode;
        ReleaseSysCache(tp);
        return true;
    });
}
}  // namespace

void SharedForgetDeadRelations() {
    if (g_npending == 0 && !g_pending_all) return;
    if (!SharedCacheUsable()) {
        g_npending = 0;
        g_pending_all = false;
        return;
    }
    // Taken first: the catalog lookups below may process invalidations that note more.
    std::vector<Oid> pending(g_pending, g_pending + g_npending);
    const bool all = g_pending_all;
    g_npending = 0;
    g_pending_all = false;
    struct Candidate {
        Oid relid;
        RelFileNode node;
    };
    std::vector<Candidate> candidates;
    candidates.reserve(kMaxEntries);
    pg::PgCall([&] {
        LWLockAcquire(g_state->lock, LW_SHARED);
        for (const Entry &e : g_state->entries)
            if (e.used && e.db == MyDatabaseId && (all || std::find(pending.begin(), pending.end(), e.relid) != pending.end()))
                candidates.push_back(Candidate{e.relid, e.node});
        LWLockRelease(g_state->lock);
    });
    // Relations dropped or rewritten while not in shared memory (after a restart, an eviction)
    // may still have column files: those of a gone relation, or of another file node, go too.
    if (ColumnFilesOn() && !all) {
        const std::string dir = ColumnFilesDir();
        const std::map<Oid, std::vector<int>> on_disk = ColumnFileRelations(dir, MyDatabaseId);
        for (Oid relid : pending) {
            bool listed = false;
            for (const Candidate &c : candidates) listed = listed || c.relid == relid;
            const auto files = on_disk.find(relid);
            if (listed || files == on_disk.end()) continue;
            const std::vector<int> &attnums = files->second;
            Oid filenode = InvalidOid;
            const bool exists = CatalogFileNode(relid, &filenode);
            ColumnFileReader r;
            const bool stale = !exists || (filenode != InvalidOid &&
                                           OpenColumnFile(dir, GetSystemIdentifier(), MyDatabaseId, relid, attnums[0], &r) &&
                                           r.meta.key.node.relNode != filenode);
            if (stale) RemoveColumnFiles(dir, MyDatabaseId, relid);
        }
    }
    for (const Candidate &c : candidates) {
        // The relation's file node as the catalog now says (this transaction's own changes
        // included: a rolled-back TRUNCATE or DROP only costs a reload).  0: a mapped relation.
        Oid filenode = InvalidOid;
        const bool exists = CatalogFileNode(c.relid, &filenode);
        if (exists && (filenode == InvalidOid || filenode == c.node.relNode)) continue;
        pg::PgCall([&] {
            LWLockAcquire(g_state->lock, LW_EXCLUSIVE);
            Entry *e = Find(MyDatabaseId, c.relid);
            if (e != nullptr && RelFileNodeEquals(e->node, c.node)) Unlink(*e);
            SweepRetired();
            LWLockRelease(g_state->lock);
        });
        RemoveColumnFiles(ColumnFilesDir(), MyDatabaseId, c.relid);
    }
}

namespace {
// Before a transaction commits, the relations it dropped or rewritten (its own invalidations
// were processed at its command boundaries) leave the shared cache: the catalog still answers
// then, and so the backend that ran DROP or TRUNCATE removes their entries itself.
void ForgetDeadAtCommit(XactEvent event, void *) {
    if (event != XACT_EVENT_PRE_COMMIT || (g_npending == 0 && !g_pending_all)) return;
    if (MyBackendType != B_BACKEND || !OidIsValid(MyDatabaseId) || !IsTransactionState()) return;
    const pg::Outcome out = pg::RunGuarded([] {
        SharedForgetDeadRelations();
        return Status::Ok();
    });
    pg::RaiseIfError(out);
}
}  // namespace

void SharedDropStale(Oid db, Oid relid, const CacheKey &key) {
    pg::PgCall([&] {
        LWLockAcquire(g_state->lock, LW_EXCLUSIVE);
        Entry *e = Find(db, relid);
        if (e != nullptr && KeyIs(*e, key)) Unlink(*e);
        SweepRetired();
        LWLockRelease(g_state->lock);
    });
    // The relation's files were written from such entries (or hold a column whose type changed
    // without a rewrite): they go too, so that they are not read again only to be dropped.
    if (ColumnFilesOn()) RemoveColumnFiles(ColumnFilesDir(), db, relid);
}

bool SharedPublish(Oid db, Oid relid, const CacheKey &key, int64 rows, const std::vector<CacheColumn> &cols) {
    if ((int)key.vm_lsns.size() > kMaxVmPages || (int)cols.size() > kMaxColumns) return false;
    // a column the writer is not to save (files off) counts as on disk already
    const bool on_disk = !ColumnFilesOn();
    int64 need = 0;
    std::vector<ColumnFileMeta> metas;
    std::vector<int64> sizes;
    for (const CacheColumn &c : cols) {
        metas.push_back(MetaOf(db, relid, key, rows, c));
        sizes.push_back(BlockBytes(metas.back()));
        need += sizes.back();
    }
    // 1. Room, reserved under the lock (evicting others); the copy runs without the lock.
    const bool room = pg::PgCall([&] {
        LWLockAcquire(g_state->lock, LW_EXCLUSIVE);
        Entry *e = Find(db, relid);
        bool ok = need <= g_state->capacity && MakeRoom(need, e);
        if (ok) g_state->bytes_used += need;
        LWLockRelease(g_state->lock);
        return ok;
    });
    if (!room) return false;
    std::vector<dsa_pointer> made(cols.size(), InvalidDsaPointer);
    bool all = true;
    for (size_t k = 0; k < cols.size() && all; ++k) {
        const dsa_pointer dp = pg::PgCall([&] {
            return dsa_allocate_extended(g_area, (size_t)sizes[k], DSA_ALLOC_HUGE | DSA_ALLOC_NO_OOM);
        });
        if (!DsaPointerIsValid(dp)) {
            all = false;
            break;
        }
        made[k] = dp;
        LayOutBlock(Block(dp), dp, sizes[k], metas[k], on_disk);
        FillFromVector(Block(dp), *cols[k].vec);
    }
    // 2. Link (or give back what was not needed).
    return pg::PgCall([&] {
        LWLockAcquire(g_state->lock, LW_EXCLUSIVE);
        SharedState *s = g_state;
        bool linked = false;
        if (all) {
            Entry *e = Find(db, relid);
            if (e != nullptr && !KeyIs(*e, key) && !Unlink(*e)) e = nullptr, all = false;
            else if (e != nullptr && !e->used) e = nullptr;
            if (all && e == nullptr) {
                for (Entry &x : s->entries)
                    if (!x.used) {
                        e = &x;
                        break;
                    }
                if (e == nullptr) {  // the table is full: the least recently used entry goes
                    Entry *victim = nullptr;
                    for (Entry &x : s->entries)
                        if (victim == nullptr || x.tick < victim->tick) victim = &x;
                    if (Unlink(*victim)) e = victim, ++s->evictions;
                }
                if (e != nullptr) {
                    std::memset((void *)e, 0, sizeof(Entry));
                    e->used = true;
                    e->db = db;
                    e->relid = relid;
                    e->node = key.node;
                    e->nblocks = key.nblocks;
                    e->nlsns = (int)key.vm_lsns.size();
                    for (int i = 0; i < e->nlsns; ++i) e->lsns[i] = key.vm_lsns[(size_t)i];
                    e->rows = rows;
                }
            }
            if (e != nullptr) {
                for (size_t k = 0; k < cols.size(); ++k) {
                    bool present = false;
                    for (int c = 0; c < e->ncols; ++c) present = present || e->attnums[c] == cols[k].attnum;
                    if (present || e->ncols >= kMaxColumns) continue;
                    e->attnums[e->ncols] = (int16)cols[k].attnum;
                    e->cols[e->ncols++] = made[k];
                    made[k] = InvalidDsaPointer;
                }
                e->tick = ++s->clock;
                linked = true;
            }
        }
        for (size_t k = 0; k < cols.size(); ++k) {
            if (DsaPointerIsValid(made[k])) dsa_free(g_area, made[k]);
            if (DsaPointerIsValid(made[k]) || !all) s->bytes_used -= sizes[k];
        }
        Latch *writer = s->writer_latch;
        LWLockRelease(g_state->lock);
        if (linked && !on_disk && writer != nullptr) SetLatch(writer);
        return linked;
    });
}

bool SharedMapFiles(Oid db, Oid relid, const std::vector<int> &attnums, const std::function<bool(const CacheKey &)> &valid,
                    FileColumns *out) {
    if (!ColumnFilesOn() || attnums.empty() || g_state == nullptr) return false;
    const std::string dir = ColumnFilesDir();
    const uint64 sysid = GetSystemIdentifier();
    std::vector<std::unique_ptr<ColumnFileReader>> files;
    for (int a : attnums) {
        files.push_back(std::make_unique<ColumnFileReader>());
        if (!OpenColumnFile(dir, sysid, db, relid, a, files.back().get())) return false;
    }
    // Every file's key must hold now (files of one relation may come from different loads).
    std::vector<CacheKey> checked;
    bool all_valid = true;
    for (size_t k = 0; k < files.size(); ++k) {
        const CacheKey &key = files[k]->meta.key;
        if (std::find(checked.begin(), checked.end(), key) != checked.end()) continue;
        if (valid(key)) {
            checked.push_back(key);
            continue;
        }
        all_valid = false;
        for (size_t j = 0; j < files.size(); ++j)
            if (files[j]->meta.key == key) RemoveColumnFiles(dir, db, relid, attnums[j]);
    }
    if (!all_valid || checked.size() != 1) return false;
    FileColumns got;
    got.key = checked[0];
    got.rows = files[0]->meta.rows;
    for (auto &f : files) {
        std::shared_ptr<const hir::Vector> v = MapColumnFile(*f);
        if (v == nullptr) return false;
        got.vecs.push_back(std::move(v));
        got.types.push_back(f->meta.type);
        got.typmods.push_back(f->meta.typmod);
        got.non_ascii.push_back(f->meta.non_ascii);
    }
    for (auto &f : files) TouchColumnFile(*f);
    *out = std::move(got);
    return true;
}

bool SharedFileKeys(Oid db, Oid relid, const std::vector<int> &attnums, std::vector<CacheKey> *keys) {
    keys->clear();
    if (!ColumnFilesOn() || attnums.empty() || g_state == nullptr) return false;
    const std::string dir = ColumnFilesDir();
    const uint64 sysid = GetSystemIdentifier();
    for (int a : attnums) {
        ColumnFileReader r;
        if (!OpenColumnFile(dir, sysid, db, relid, a, &r)) return false;
        keys->push_back(r.meta.key);
    }
    return true;
}

void SharedForgetFiles(Oid db, Oid relid) {
    if (ColumnFilesOn()) RemoveColumnFiles(ColumnFilesDir(), db, relid);
}


// ---- The column writer ------------------------------------------------------------------------
// A background worker (registered with the shared cache) that writes every linked column not yet
// on disk to its column file, then trims the folder to rndn.column_files_size.  Woken by the
// publishing backend's SetLatch; between wakes it sleeps (and polls every 10 s).  It reads
// columns under a pin, as any reader, so eviction meanwhile only retires them.

namespace {

// The worker's own pins, given back if it exits while holding some.
std::vector<ColumnBlock *> g_writer_pins;

void WriterExit(int, Datum) {
    for (ColumnBlock *b : g_writer_pins) pg_atomic_fetch_sub_u32(&b->refs, 1);
    g_writer_pins.clear();
    if (g_state != nullptr) {
        LWLockAcquire(g_state->lock, LW_EXCLUSIVE);
        if (g_state->writer_latch == MyLatch) g_state->writer_latch = nullptr;
        LWLockRelease(g_state->lock);
    }
}

bool WriterStopping() { return ShutdownRequestPending; }

// Writes the columns linked but not yet on disk; true when it wrote any.
bool WritePending() {
    struct Task {
        Entry entry;  // its key as it was when the column was found (an Entry copy)
        ColumnBlock *block;
    };
    std::vector<Task> tasks;
    LWLockAcquire(g_state->lock, LW_SHARED);
    for (const Entry &e : g_state->entries) {
        if (!e.used) continue;
        for (int c = 0; c < e.ncols; ++c) {
            ColumnBlock *b = Block(e.cols[c]);
            if (pg_atomic_read_u32(&b->on_disk) != 0) continue;
            pg_atomic_fetch_add_u32(&b->refs, 1);
            g_writer_pins.push_back(b);
            Task t;
            std::memcpy((void *)&t.entry, (const void *)&e, sizeof(Entry));
            t.block = b;
            tasks.push_back(t);
        }
    }
    LWLockRelease(g_state->lock);
    const std::string dir = ColumnFilesDir();
    const uint64 sysid = GetSystemIdentifier();
    bool wrote = false;
    for (const Task &t : tasks) {
        if (!WriterStopping() && g_settings.column_files_mb > 0) {
            ColumnFileMeta m = MetaOfBlock(t.block);
            m.rows = t.entry.rows;
            m.key = KeyOf(t.entry);
            // a column larger than the whole folder is not written (it would only evict others)
            if (BlockBytes(m) <= ((int64)g_settings.column_files_mb << 20) &&
                WriteColumnFile(dir, sysid, m, SectionsOf(t.block), enableFsync, WriterStopping,
                                [&t](const std::function<bool()> &rename) {
                                    // Renamed only while the column is still linked, under the
                                    // lock: a DROP or TRUNCATE unlinks the entry before it
                                    // removes the relation's files, so no file outlives it.
                                    LWLockAcquire(g_state->lock, LW_SHARED);
                                    const Entry *e = Find(t.block->db, t.block->relid);
                                    bool linked = false;
                                    for (int c = 0; e != nullptr && c < e->ncols; ++c)
                                        linked = linked || e->cols[c] == t.block->self;
                                    const bool done = linked && rename();
                                    LWLockRelease(g_state->lock);
                                    return done;
                                }))
                wrote = true;
            // written, or not writable (no space, too large): not tried again for this column
            if (!WriterStopping()) pg_atomic_write_u32(&t.block->on_disk, 1);
        }
        pg_atomic_fetch_sub_u32(&t.block->refs, 1);
        g_writer_pins.erase(std::find(g_writer_pins.begin(), g_writer_pins.end(), t.block));
    }
    return wrote;
}

}  // namespace

}  // namespace rndn::exec

extern "C" PGDLLEXPORT void rndn_column_writer_main(Datum);

void rndn_column_writer_main(Datum) {
    using namespace rndn::exec;
    pqsignal(SIGHUP, SignalHandlerForConfigReload);
    pqsignal(SIGTERM, SignalHandlerForShutdownRequest);
    BackgroundWorkerUnblockSignals();
    if (g_state == nullptr) proc_exit(0);
    MemoryContext old = MemoryContextSwitchTo(TopMemoryContext);
    g_area = dsa_attach_in_place((char *)g_state + StateBytes(), nullptr);
    dsa_pin_mapping(g_area);
    MemoryContextSwitchTo(old);
    LWLockRegisterTranche(g_state->dsa_tranche, "rndn_column_cache_dsa");
    before_shmem_exit(WriterExit, (Datum)0);
    LWLockAcquire(g_state->lock, LW_EXCLUSIVE);
    g_state->writer_latch = MyLatch;
    LWLockRelease(g_state->lock);
    // The folder within its size from the start (a smaller setting, files of a dead writer).
    if (g_settings.column_files_mb > 0) TrimColumnFiles(ColumnFilesDir(), (int64)g_settings.column_files_mb << 20);
    while (!ShutdownRequestPending) {
        if (ConfigReloadPending) {
            ConfigReloadPending = false;
            ProcessConfigFile(PGC_SIGHUP);
        }
        if (g_settings.column_files_mb > 0 && WritePending())
            TrimColumnFiles(ColumnFilesDir(), (int64)g_settings.column_files_mb << 20);
        (void)WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH, 10000L, PG_WAIT_EXTENSION);
        ResetLatch(MyLatch);
    }
    proc_exit(0);
}

namespace rndn::exec {

void RegisterColumnWriter() {
    BackgroundWorker w;
    std::memset(&w, 0, sizeof w);
    w.bgw_flags = BGWORKER_SHMEM_ACCESS;
    w.bgw_start_time = BgWorkerStart_RecoveryFinished;
    w.bgw_restart_time = 5;
    std::snprintf(w.bgw_library_name, BGW_MAXLEN, "rndn");
    std::snprintf(w.bgw_function_name, BGW_MAXLEN, "rndn_column_writer_main");
    std::snprintf(w.bgw_name, BGW_MAXLEN, "rndn column writer");
    std::snprintf(w.bgw_type, BGW_MAXLEN, "rndn column writer");
    RegisterBackgroundWorker(&w);
}

}  // namespace rndn::exec

// ---- SQL functions ----------------------------------------------------------------------------

namespace {

struct CacheRow {
    Oid db, relid;
    int16 attnum;
    int64 rows, bytes, hits;
    TimestampTz last_use;
};

// Attaches from a SQL function's frame: errors raised as PostgreSQL ERRORs.
bool UsableForSql() {
    bool usable = false;
    const rndn::pg::Outcome out = rndn::pg::RunGuarded([&usable] {
        usable = rndn::exec::SharedCacheUsable();
        if (usable) rndn::exec::SharedForgetDeadRelations();
        return rndn::Status::Ok();
    });
    rndn::pg::RaiseIfError(out);
    return usable;
}

}  // namespace

// rndn_column_cache_entries(): one row per column in the shared cache (every database).
Datum rndn_column_cache_entries(PG_FUNCTION_ARGS) {
    using namespace rndn::exec;
    InitMaterializedSRF(fcinfo, 0);
    ReturnSetInfo *rsinfo = (ReturnSetInfo *)fcinfo->resultinfo;
    if (!UsableForSql()) PG_RETURN_VOID();
    // Copied under the lock into a plain array (no C++ object lives across PostgreSQL calls
    // that may raise).
    int n = 0;
    CacheRow *rows = (CacheRow *)palloc(sizeof(CacheRow) * kMaxEntries * kMaxColumns);
    LWLockAcquire(g_state->lock, LW_SHARED);
    for (const Entry &e : g_state->entries) {
        if (!e.used) continue;
        for (int c = 0; c < e.ncols; ++c) {
            ColumnBlock *b = Block(e.cols[c]);
            rows[n++] = CacheRow{e.db, e.relid, e.attnums[c], e.rows, b->bytes, (int64)pg_atomic_read_u64(&b->hits),
                                 (TimestampTz)pg_atomic_read_u64(&b->last_use)};
        }
    }
    LWLockRelease(g_state->lock);
    for (int i = 0; i < n; ++i) {
        Datum values[7];
        bool nulls[7] = {false, false, false, false, false, false, false};
        values[0] = ObjectIdGetDatum(rows[i].db);
        values[1] = ObjectIdGetDatum(rows[i].relid);
        values[2] = Int16GetDatum(rows[i].attnum);
        values[3] = Int64GetDatum(rows[i].rows);
        values[4] = Int64GetDatum(rows[i].bytes);
        values[5] = Int64GetDatum(rows[i].hits);
        values[6] = TimestampTzGetDatum(rows[i].last_use);
        tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
    }
    pfree(rows);
    PG_RETURN_VOID();
}

// rndn_shared_cache_info(): size, bytes used (linked and retired columns), entries, retired
// columns, evictions since the server started.
Datum rndn_shared_cache_info(PG_FUNCTION_ARGS) {
    using namespace rndn::exec;
    TupleDesc desc;
    if (get_call_result_type(fcinfo, nullptr, &desc) != TYPEFUNC_COMPOSITE) elog(ERROR, "return type must be a row type");
    desc = BlessTupleDesc(desc);
    Datum values[5] = {Int64GetDatum(0), Int64GetDatum(0), Int32GetDatum(0), Int32GetDatum(0), Int64GetDatum(0)};
    bool nulls[5] = {false, false, false, false, false};
    if (UsableForSql()) {
        LWLockAcquire(g_state->lock, LW_SHARED);
        int entries = 0;
        for (const Entry &e : g_state->entries) entries += e.used;
        values[0] = Int64GetDatum(g_state->area_bytes);
        values[1] = Int64GetDatum(g_state->bytes_used);
        values[2] = Int32GetDatum(entries);
        values[3] = Int32GetDatum(g_state->nretired);
        values[4] = Int64GetDatum(g_state->evictions);
        LWLockRelease(g_state->lock);
    }
    PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(desc, values, nulls)));
}

// ---- Background loads -------------------------------------------------------------------------
// When the cost model leaves a query with PostgreSQL only because its columns would have to be
// read from the heap (with them cached rndn's plan would win), the planner asks for them here: a
// dynamic background worker, "rndn column loader", connects to the database, loads the columns
// under its own snapshot through the same loader as a query (so the same all-visible proof
// decides whether they may be cached), and publishes them to the shared cache, where the next
// query's cost model finds them.  The query itself runs PostgreSQL's plan, no slower than
// without rndn.  Requests sit in a few slots of the shared state: one per relation at a time,
// a relation whose load failed (not all-visible, too large, an error) is not asked again for
// 5 minutes, the columns of one that succeeded not for 10 seconds (a query planned while the
// worker publishes).

namespace rndn::exec {

namespace {

constexpr int64 kRetryAfterFailureUs = 300 * USECS_PER_SEC;
constexpr int64 kRetryAfterSuccessUs = 10 * USECS_PER_SEC;

bool ProbeLoadInBackground(unsigned relid, const std::vector<int> &attnums) {
    // (a serializable transaction never uses the shared cache: nothing to load for it)
    if (!g_settings.background_load || g_settings.column_cache_mb <= 0 || g_state == nullptr || IsolationIsSerializable()) return false;
    // The columns' size as loaded: fixed-width types their width (numerics of precision <= 18
    // as 8 bytes, others 16), strings their average width in the statistics (32 without) plus
    // an 8-byte offset.
    const double bytes = pg::PgCall([relid, &attnums] {
        HeapTuple tp = SearchSysCache1(RELOID, ObjectIdGetDatum(relid));
        if (!HeapTupleIsValid(tp)) return -1.0;
        const Form_pg_class c = (Form_pg_class)GETSTRUCT(tp);
        const bool ok = c->relpersistence == RELPERSISTENCE_PERMANENT && c->relkind == RELKIND_RELATION && c->reltuples > 0;
        const double tuples = c->reltuples;
        ReleaseSysCache(tp);
        if (!ok) return -1.0;
        // only for a user who may read the columns (the planner runs before the executor checks
        // the query's privileges)
        if (pg_class_aclcheck(relid, GetUserId(), ACL_SELECT) != ACLCHECK_OK)
            for (int a : attnums)
                if (pg_attribute_aclcheck(relid, (AttrNumber)a, GetUserId(), ACL_SELECT) != ACLCHECK_OK) return -1.0;
        double per_row = 0;
        for (int a : attnums) {
            Oid type;
            int32 typmod;
            Oid coll;
            get_atttypetypmodcoll(relid, (AttrNumber)a, &type, &typmod, &coll);
            const int16 len = get_typlen(type);
            if (type == NUMERICOID)
                per_row += typmod >= (int32)VARHDRSZ && ((typmod - VARHDRSZ) >> 16) <= 18 ? 8 : 16;
            else if (len > 0)
                per_row += len;
            else {
                const int32 w = get_attavgwidth(relid, (AttrNumber)a);
                per_row += (w > 0 ? w : 32) + 8;
            }
        }
        return tuples * per_row;
    });
    if (bytes <= 0) return false;
    return SharedRequestLoad(MyDatabaseId, relid, attnums, (int64)bytes);
}

}  // namespace

bool SharedRequestLoad(Oid db, Oid relid, const std::vector<int> &attnums, int64 bytes) {
    if (g_state == nullptr || attnums.empty() || attnums.size() > (size_t)kMaxColumns || RecoveryInProgress()) return false;
    if (bytes > g_state->capacity / 2) return false;
    const TimestampTz now = GetCurrentTimestamp();
    const int slot = pg::PgCall([&] {
        LWLockAcquire(g_state->lock, LW_EXCLUSIVE);
        int pick = -1;
        // The relation's entry must hold its other columns and these at once.
        int64 others = 0;
        if (const Entry *e = Find(db, relid))
            for (int c = 0; c < e->ncols; ++c)
                if (std::find(attnums.begin(), attnums.end(), (int)e->attnums[c]) == attnums.end()) others += Block(e->cols[c])->bytes;
        bool refused = others + bytes > g_state->capacity;
        for (int i = 0; i < kMaxLoads && !refused; ++i) {
            LoadSlot &l = g_state->loads[i];
            if (l.state == LOAD_FREE) {
                if (pick < 0) pick = i;
                continue;
            }
            if (l.db == db && l.relid == relid) {
                const int64 age = now - l.since;
                bool covered = true;  // every column asked for now was in that load
                for (int a : attnums) covered = covered && std::find(l.attnums, l.attnums + l.natts, (int16)a) != l.attnums + l.natts;
                refused = l.state == LOAD_ASKED || l.state == LOAD_RUNNING ||
                          (l.state == LOAD_FAILED && age < kRetryAfterFailureUs) ||
                          (l.state == LOAD_DONE && covered && age < kRetryAfterSuccessUs);
                pick = i;
                continue;
            }
        }
        // no free slot: the oldest finished one
        for (int i = 0; i < kMaxLoads && pick < 0 && !refused; ++i) {
            const LoadSlot &l = g_state->loads[i];
            if ((l.state == LOAD_DONE || l.state == LOAD_FAILED) &&
                (pick < 0 || l.since < g_state->loads[pick].since))
                pick = i;
        }
        if (!refused && pick >= 0) {
            LoadSlot &l = g_state->loads[pick];
            l.state = LOAD_ASKED;
            l.db = db;
            l.relid = relid;
            l.natts = (int)attnums.size();
            for (size_t k = 0; k < attnums.size(); ++k) l.attnums[k] = (int16)attnums[k];
            l.since = now;
        }
        LWLockRelease(g_state->lock);
        return refused ? -1 : pick;
    });
    if (slot < 0) return false;
    const bool started = pg::PgCall([slot] {
        BackgroundWorker w;
        std::memset(&w, 0, sizeof w);
        w.bgw_flags = BGWORKER_SHMEM_ACCESS | BGWORKER_BACKEND_DATABASE_CONNECTION;
        w.bgw_start_time = BgWorkerStart_RecoveryFinished;
        w.bgw_restart_time = BGW_NEVER_RESTART;
        std::snprintf(w.bgw_library_name, BGW_MAXLEN, "rndn");
        std::snprintf(w.bgw_function_name, BGW_MAXLEN, "rndn_column_loader_main");
        std::snprintf(w.bgw_name, BGW_MAXLEN, "rndn column loader");
        std::snprintf(w.bgw_type, BGW_MAXLEN, "rndn column loader");
        w.bgw_main_arg = Int32GetDatum(slot);
        w.bgw_notify_pid = 0;
        BackgroundWorkerHandle *h = nullptr;
        return RegisterDynamicBackgroundWorker(&w, &h);
    });
    if (!started)
        pg::PgCall([slot, now] {
            LWLockAcquire(g_state->lock, LW_EXCLUSIVE);
            g_state->loads[slot].state = LOAD_FAILED;
            g_state->loads[slot].since = now;
            LWLockRelease(g_state->lock);
        });
    return started;
}

namespace {

int g_loader_slot = -1;

void FinishLoadSlot(bool ok) {
    if (g_state == nullptr || g_loader_slot < 0) return;
    LWLockAcquire(g_state->lock, LW_EXCLUSIVE);
    LoadSlot &l = g_state->loads[g_loader_slot];
    if (l.state == LOAD_RUNNING) {
        l.state = ok ? LOAD_DONE : LOAD_FAILED;
        l.since = GetCurrentTimestamp();
    }
    LWLockRelease(g_state->lock);
    g_loader_slot = -1;
}

// An ERROR or a termination ends the worker: its request counts as failed.
void LoaderExit(int, Datum) { FinishLoadSlot(false); }

}  // namespace

}  // namespace rndn::exec

extern "C" PGDLLEXPORT void rndn_column_loader_main(Datum);

void rndn_column_loader_main(Datum arg) {
    using namespace rndn::exec;
    // SIGTERM sets ProcDiePending (polled by the loader), as in any backend.
    pqsignal(SIGTERM, die);
    BackgroundWorkerUnblockSignals();
    const int slot = DatumGetInt32(arg);
    if (g_state == nullptr || slot < 0 || slot >= kMaxLoads) proc_exit(0);
    // Plain data only in this frame: an ERROR below ends the process from here.
    Oid db = InvalidOid, relid = InvalidOid;
    int natts = 0;
    int atts[kMaxColumns];
    LWLockAcquire(g_state->lock, LW_EXCLUSIVE);
    LoadSlot &l = g_state->loads[slot];
    if (l.state == LOAD_ASKED) {
        l.state = LOAD_RUNNING;
        db = l.db;
        relid = l.relid;
        natts = l.natts;
        for (int k = 0; k < natts; ++k) atts[k] = l.attnums[k];
    }
    LWLockRelease(g_state->lock);
    if (natts == 0) proc_exit(0);
    g_loader_slot = slot;
    before_shmem_exit(LoaderExit, (Datum)0);
    BackgroundWorkerInitializeConnectionByOid(db, InvalidOid, 0);
    pgstat_report_appname("rndn column loader");
    SetCurrentStatementStartTimestamp();
    StartTransactionCommand();
    PushActiveSnapshot(GetTransactionSnapshot());
    char activity[96];
    std::snprintf(activity, sizeof activity, "rndn: loading %d columns of relation %u", natts, relid);
    pgstat_report_activity(STATE_RUNNING, activity);
    bool cached = false;
    const rndn::pg::Outcome out = rndn::pg::RunGuarded([&] {
        return LoadIntoSharedCache(relid, std::vector<int>(atts, atts + natts), &cached);
    });
    if (out.pg_error != nullptr) rndn::pg::RaiseIfError(out);  // ends the worker (LoaderExit)
    if (!out.ok()) ereport(LOG, (errmsg("rndn column loader: relation %u not loaded: %s", relid, out.message)));
    PopActiveSnapshot();
    CommitTransactionCommand();
    pgstat_report_activity(STATE_IDLE, nullptr);
    FinishLoadSlot(cached);
    proc_exit(0);
}
