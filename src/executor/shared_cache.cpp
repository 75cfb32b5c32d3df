// The column cache shared by every backend: shared memory, entry table, pins, eviction, and the
// SQL functions behind the rndn_column_cache view.  See shared_cache.h for the design.
extern "C" {
#include "postgres.h"

#include "access/htup_details.h"
#include "access/xact.h"
#include "catalog/objectaccess.h"
#include "catalog/pg_class.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "port/atomics.h"
#include "storage/ipc.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"
#include "utils/dsa.h"
#include "utils/inval.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"
#include "utils/tuplestore.h"

PGDLLEXPORT Datum rndn_column_cache_entries(PG_FUNCTION_ARGS);
PGDLLEXPORT Datum rndn_shared_cache_info(PG_FUNCTION_ARGS);
PG_FUNCTION_INFO_V1(rndn_column_cache_entries);
PG_FUNCTION_INFO_V1(rndn_shared_cache_info);
}

#include <algorithm>
#include <cstring>
#include <mutex>
#include <unordered_map>

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

struct SharedState {
    LWLock *lock;
    int dsa_tranche;
    int64 area_bytes;
    int64 capacity;    // bytes the columns may take (the area less the DSA's own bookkeeping)
    int64 bytes_used;  // columns linked or retired
    uint64 clock;
    int64 evictions;
    int nretired;
    dsa_pointer retired[kMaxRetired];
    Entry entries[kMaxEntries];
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

int64 BlockBytes(const hir::Vector &v) {
    // kAlign spare bytes: small allocations come from DSA size classes aligned to less than 64.
    int64 n = Round((int64)sizeof(ColumnBlock)) + kAlign;
    n += Round(v.length * hir::ElementSize(v.type.kind));
    n += Round((int64)v.validity.size() * 8);
    n += Round((int64)v.offsets.size() * 8);
    n += Round((int64)v.bytes.size());
    n += Round((int64)v.elem_scale.size());
    return n;
}

// Fills a fresh allocation with the column (no lock held; nobody else sees it yet).
void FillBlock(ColumnBlock *b, dsa_pointer dp, int64 bytes, Oid db, Oid relid, const CacheColumn &c) {
    const hir::Vector &v = *c.vec;
    std::memset((void *)b, 0, sizeof(ColumnBlock));
    pg_atomic_init_u32(&b->refs, 1);
    pg_atomic_init_u64(&b->hits, 0);
    pg_atomic_init_u64(&b->last_use, (uint64)GetCurrentTimestamp());
    b->self = dp;
    b->bytes = bytes;
    b->length = v.length;
    b->db = db;
    b->relid = relid;
    b->type = c.type;
    b->typmod = c.typmod;
    b->attnum = (int16)c.attnum;
    b->non_ascii = c.non_ascii;
    b->kind = v.type.kind;
    b->scale = v.type.scale;
    uint8 *base = (uint8 *)b;
    // Buffers start at 64-byte aligned addresses (what the devices expect of column data).
    int64 off = (int64)(Round((int64)(uintptr_t)(base + sizeof(ColumnBlock))) - (int64)(uintptr_t)base);
    b->data_off = off;
    b->data_bytes = v.length * hir::ElementSize(v.type.kind);
    if (b->data_bytes > 0) std::memcpy(base + off, v.data.get(), (size_t)b->data_bytes);
    off += Round(b->data_bytes);
    b->validity_off = off;
    b->validity_words = (int64)v.validity.size();
    if (b->validity_words > 0) std::memcpy(base + off, v.validity.data(), (size_t)b->validity_words * 8);
    off += Round(b->validity_words * 8);
    b->offsets_off = off;
    b->offsets_count = (int64)v.offsets.size();
    if (b->offsets_count > 0) std::memcpy(base + off, v.offsets.data(), (size_t)b->offsets_count * 8);
    off += Round(b->offsets_count * 8);
    b->bytes_off = off;
    b->bytes_len = (int64)v.bytes.size();
    if (b->bytes_len > 0) std::memcpy(base + off, v.bytes.data(), (size_t)b->bytes_len);
    off += Round(b->bytes_len);
    b->escale_off = off;
    b->escale_len = (int64)v.elem_scale.size();
    b->scale_max = v.scale_max;
    if (b->escale_len > 0) std::memcpy(base + off, v.elem_scale.data(), (size_t)b->escale_len);
}

}  // namespace

void RegisterSharedCache() {
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
    hit->key.node = copy.node;
    hit->key.nblocks = copy.nblocks;
    hit->key.vm_lsns.assign(copy.lsns, copy.lsns + copy.nlsns);
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
    auto v = std::make_shared<hir::Vector>();
    v->type = hir::Type::Decimal(b->kind, b->scale);
    v->length = b->length;
    const uint8 *base = (const uint8 *)b;
    // Every buffer in place: views of the shared memory (hir::Buf copies only if written).
    if (b->validity_words > 0)
        v->validity = hir::Buf<uint64_t>::View((const uint64 *)(base + b->validity_off), (size_t)b->validity_words, pin);
    if (b->offsets_count > 0) {
        v->offsets = hir::Buf<int64_t>::View((const int64 *)(base + b->offsets_off), (size_t)b->offsets_count, pin);
        v->bytes = hir::Buf<char>::View((const char *)base + b->bytes_off, (size_t)b->bytes_len, pin);
    }
    if (b->escale_len > 0) v->elem_scale.assign(base + b->escale_off, base + b->escale_off + b->escale_len);
    v->scale_max = b->scale_max;
    if (b->data_bytes > 0)
        v->data = std::shared_ptr<uint8_t[]>(pin, (uint8_t *)base + b->data_off);
    else if (hir::ElementSize(b->kind) > 0)
        v->data = std::shared_ptr<uint8_t[]>(new uint8_t[kAlign]());
    return v;
}

void SharedUnpin(SharedHit &hit) noexcept {
    for (void *&p : hit.blocks)
        if (p != nullptr) Unpin((ColumnBlock *)p), p = nullptr;
}

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
    for (const Candidate &c : candidates) {
        // The relation's file node as the catalog now says (this transaction's own changes
        // included: a rolled-back TRUNCATE or DROP only costs a reload).  0: a mapped relation.
        bool exists = false;
        Oid filenode = InvalidOid;
        pg::PgCall([&] {
            HeapTuple tp = SearchSysCache1(RELOID, ObjectIdGetDatum(c.relid));
            if (HeapTupleIsValid(tp)) {
                exists = true;
                filenode = ((Form_pg_class)GETSTRUCT(tp))->relfilenode;
                ReleaseSysCache(tp);
            }
        });
        if (exists && (filenode == InvalidOid || filenode == c.node.relNode)) continue;
        pg::PgCall([&] {
            LWLockAcquire(g_state->lock, LW_EXCLUSIVE);
            Entry *e = Find(MyDatabaseId, c.relid);
            if (e != nullptr && RelFileNodeEquals(e->node, c.node)) Unlink(*e);
            SweepRetired();
            LWLockRelease(g_state->lock);
        });
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
}

bool SharedPublish(Oid db, Oid relid, const CacheKey &key, int64 rows, const std::vector<CacheColumn> &cols) {
    if ((int)key.vm_lsns.size() > kMaxVmPages || (int)cols.size() > kMaxColumns) return false;
    int64 need = 0;
    std::vector<int64> sizes;
    for (const CacheColumn &c : cols) {
        sizes.push_back(BlockBytes(*c.vec));
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
        FillBlock(Block(dp), dp, sizes[k], db, relid, cols[k]);
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
        LWLockRelease(g_state->lock);
        return linked;
    });
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
