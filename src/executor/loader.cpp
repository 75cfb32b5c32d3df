// The columnar loader: reads relations through the table AM under the query's snapshot
// (visibility exactly as PostgreSQL's own scans see it) and deforms only the needed columns,
// chunk by chunk, into HorseIR vectors (fixed-width buffers from the HostAllocator, strings as
// offsets + bytes, validity bitmaps only when a NULL appears).
extern "C" {
#include "postgres.h"

#include "access/heapam.h"
#include "access/htup_details.h"
#include "access/relation.h"
#include "access/table.h"
#include "access/tableam.h"
#include "access/tupmacs.h"
#include "access/visibilitymapdefs.h"
#include "access/xlog.h"
#include "access/xact.h"
#include "catalog/pg_class.h"
#include "catalog/pg_type.h"
#include "executor/tuptable.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "storage/bufmgr.h"
#include "storage/bufpage.h"
#include "storage/predicate.h"
#include "storage/smgr.h"
#include "utils/date.h"
#include "utils/timestamp.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"
#include "utils/snapshot.h"
#include "utils/syscache.h"
#include "utils/uuid.h"
}

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <functional>
#include <mutex>
#include <thread>
#include <cstring>
#include <map>
#include <new>
#include <unordered_map>

#include "common/numeric_digits.h"
#include "common/quiet_threads.h"
#include "common/uuid_text.h"
#include "executor/scan_run.h"
#include "executor/shared_cache.h"
#include "horseir/payload_pool.h"
#include "pg_base/datum_value.h"
#include "pg_base/guc.h"
#include "pg_base/pg_call.h"

namespace rndn::exec {

bool InterruptRequested() { return QueryCancelPending || ProcDiePending; }

namespace {

// A statement that stores its result (CREATE MATERIALIZED VIEW, REFRESH, CREATE TABLE AS,
// SELECT INTO) keeps a value PostgreSQL's plan passes through in the form the source row held
// it: compressed inline, or fetched compressed from its TOAST table, and then stored compressed
// even where the new row is narrow.  rndn's rows hold values anew (uncompressed; compressed by
// the toaster only when the new row is wide), byte for byte what PostgreSQL's plan stores for
// every value that was neither compressed nor out of line in its source.  So under such a
// statement the loader reads no cached columns (they no longer say how a value was held) and a
// compressed or out-of-line varlena value ends the load: the scan runs PostgreSQL's plan instead.
bool KeepStoredForm() { return pg::g_storing_depth > 0; }

Status StoredFormFallback() {
    return Status::Unsupported(
        "the statement stores its result and a source value is compressed or out of line: PostgreSQL's plan "
        "keeps that stored form");
}

}  // namespace

uint8_t *HostAllocator::Alloc(int64_t bytes, const char **why) noexcept {
    if (bytes < 0 || used() + bytes > limit()) {
        *why = "rndn.memory_limit exceeded";
        return nullptr;
    }
    // The interpreter's pooled intermediate buffers (kept between queries) count against the
    // same limit: they go back to the system before the columns would push the total over it.
    const int64_t pooled = (int64_t)hir::PooledPayloadBytes();
    if (pooled > 0 && used() + bytes + pooled > limit()) hir::ReleasePooledPayloads((size_t)(limit() - used() - bytes));
    void *p = counting_.Allocate((size_t)bytes, 64);
    if (p == nullptr) *why = used() + bytes > limit() ? "rndn.memory_limit exceeded" : "out of memory";
    return (uint8_t *)p;
}

void HostAllocator::Free(uint8_t *p, int64_t bytes) noexcept {
    if (p != nullptr) counting_.Free(p, (size_t)bytes);
}

namespace {

Status MemoryError(const HostAllocator &a, const char *why) {
    return Status::OutOfMemory(std::string("rndn: ") + why + " while loading columns (" +
                               std::to_string(a.used() >> 20) + " MB in use, limit " +
                               std::to_string(a.limit() >> 20) + " MB); raise rndn.memory_limit or set rndn.enabled = off");
}

// A numeric Datum -> its value times 10^scale in `slot`: an int64 (dec64 column, elem_size 8)
// or an __int128 (dec128, 16).  The digits are decoded here (common/numeric_digits.h), never by
// PostgreSQL's numeric code; only a toasted or compressed value is detoasted first, which is a
// PostgreSQL call (workers give such values back before calling this).  SPECIAL: NaN or an
// infinity; UNREPRESENTABLE cannot happen for a value PostgreSQL checked against the typmod.
numeric::Decoded NumericToSlot(Datum d, int scale, int elem_size, uint8_t *slot) {
    struct varlena *raw = (struct varlena *)DatumGetPointer(d);
    struct varlena *v = (VARATT_IS_EXTERNAL(raw) || VARATT_IS_COMPRESSED(raw))
                            ? pg::PgCall([raw] { return pg_detoast_datum_packed(raw); })
                            : raw;
    const uint8_t *data = (const uint8_t *)VARDATA_ANY(v);
    const int64 size = VARSIZE_ANY_EXHDR(v);
    numeric::Decoded r;
    if (elem_size == 8) {
        int64_t x = 0;
        r = numeric::DecodeScaled<int64_t>(data, size, scale, &x);
        if (r == numeric::Decoded::OK) std::memcpy(slot, &x, sizeof x);
    } else {
        __int128 x = 0;
        r = numeric::DecodeScaled<__int128>(data, size, scale, &x);
        if (r == numeric::Decoded::OK) std::memcpy(slot, &x, sizeof x);
    }
    if (v != raw) pfree(v);
    return r;
}

// NaN, an infinity, or a value of an unconstrained numeric column that rndn cannot hold (a
// display scale above 38, more than 38 digits): PostgreSQL's plan runs the scan instead.
Status NumericLoadError(numeric::Decoded r) {
    return Status::Unsupported(r == numeric::Decoded::SPECIAL
                                   ? "numeric NaN or Infinity in a loaded column"
                                   : "a numeric value outside what rndn's decimals hold (38 digits, scale <= 38)");
}

// One value of an unconstrained numeric column: the value times 10^(its display scale) in the
// __int128 slot, the display scale in *es (Finish rescales every row to the column's largest).
numeric::Decoded NumericToSlotPerValue(Datum d, uint8_t *slot, uint8_t *es) {
    struct varlena *raw = (struct varlena *)DatumGetPointer(d);
    struct varlena *v = (VARATT_IS_EXTERNAL(raw) || VARATT_IS_COMPRESSED(raw))
                            ? pg::PgCall([raw] { return pg_detoast_datum_packed(raw); })
                            : raw;
    __int128 x = 0;
    int ds = 0;
    const numeric::Decoded r = numeric::DecodeAtDisplayScale((const uint8_t *)VARDATA_ANY(v), VARSIZE_ANY_EXHDR(v), &x, &ds);
    if (r == numeric::Decoded::OK) {
        std::memcpy(slot, &x, sizeof x);
        *es = (uint8_t)ds;
    }
    if (v != raw) pfree(v);
    return r;
}

// The numeric decode of either kind of column (scale kUnknownScale: per value).
numeric::Decoded NumericInto(Datum d, int scale, int elem_size, uint8_t *slot, uint8_t *escale, int64_t row) {
    if (scale == hir::Type::kUnknownScale) return NumericToSlotPerValue(d, slot, escale + row);
    return NumericToSlot(d, scale, elem_size, slot);
}

Status Grow(ColumnBuilder &b, HostAllocator &alloc, int64_t want);

// interval columns are copied into HorseIR's interval vectors byte for byte
static_assert(sizeof(Interval) == sizeof(hir::IntervalValue) && offsetof(Interval, time) == offsetof(hir::IntervalValue, time) &&
              offsetof(Interval, day) == offsetof(hir::IntervalValue, day) && offsetof(Interval, month) == offsetof(hir::IntervalValue, month));

Status InitBuilder(ColumnBuilder &b, Relation rel, int attnum, HostAllocator &alloc, int64_t expected_rows) {
    Form_pg_attribute att = TupleDescAttr(RelationGetDescr(rel), attnum - 1);
    b.attnum = attnum;
    b.type = att->atttypid;
    b.length = 0;
    b.cap = 0;
    b.buf = nullptr;
    switch (att->atttypid) {
        case BOOLOID: b.hir_type = hir::TypeKind::BOOL; break;
        case INT2OID: b.hir_type = hir::TypeKind::I16; break;
        case INT4OID: b.hir_type = hir::TypeKind::I32; break;
        case INT8OID: b.hir_type = hir::TypeKind::I64; break;
        case FLOAT4OID: b.hir_type = hir::TypeKind::F32; break;
        case FLOAT8OID: b.hir_type = hir::TypeKind::F64; break;
        case DATEOID: b.hir_type = hir::TypeKind::DATE; break;
        // int64 microseconds since 2000-01-01, infinities as INT64_MIN/MAX: HorseIR's dt
        case TIMESTAMPOID:
        case TIMESTAMPTZOID: b.hir_type = hir::TypeKind::DT; break;
        case INTERVALOID: b.hir_type = hir::TypeKind::INTERVAL; break;  // PostgreSQL's Interval, same layout
        case NUMERICOID: {
            // dec64 for precision <= 18; unconstrained: dec128 with per-value scales
            auto t = pg::ColumnHirTypeOf(NUMERICOID, att->atttypmod);
            if (!t) return Status::Internal("loader: numeric column without a supported precision and scale");
            b.scale = t->scale;
            b.hir_type = *t;
            break;
        }
        case TEXTOID:
        case VARCHAROID:
        case BPCHAROID:
        case UUIDOID: b.hir_type = hir::TypeKind::STR; break;  // uuid: its canonical text
        default: return Status::Internal("loader: unexpected column type " + std::to_string(att->atttypid));
    }
    b.elem_size = hir::ElementSize(b.hir_type.kind);
    b.vec = std::make_shared<hir::Vector>();
    b.vec->type = b.hir_type;
    if (b.elem_size == 0) {
        b.vec->offsets.reserve((size_t)expected_rows + 1);
        b.vec->offsets.push_back(0);
        // The bytes too, from the column's average stored width (ANALYZE's statistics): growing
        // a buffer of hundreds of megabytes by doubling copies it and faults fresh pages in
        // twice over.  Reserved pages nobody writes are never touched.
        const Oid relid = RelationGetRelid(rel);
        const int32 width = expected_rows > 0 ? pg::PgCall([relid, attnum] { return get_attavgwidth(relid, (AttrNumber)attnum); }) : 0;
        // (never beyond the memory limit, and only a hint: a reservation refused is no error)
        const double want = std::min((double)expected_rows * width * 1.05, (double)alloc.limit());
        if (width > 0 && want > 0) try {
                b.vec->bytes.reserve((size_t)want);
            } catch (const std::bad_alloc &) {
            }
    } else if (expected_rows > 0) {
        RNDN_RETURN_IF_ERROR(Grow(b, alloc, expected_rows));
    }
    return Status::Ok();
}

Status Grow(ColumnBuilder &b, HostAllocator &alloc, int64_t want) {
    int64_t cap = b.cap ? b.cap : std::max<int64_t>(1024, want);
    while (cap < want) cap *= 2;
    const char *why = nullptr;
    uint8_t *nb = alloc.Alloc(cap * b.elem_size, &why);
    if (nb == nullptr) return MemoryError(alloc, why);
    if (b.buf) {
        std::memcpy(nb, b.buf, (size_t)(b.length * b.elem_size));
        alloc.Free(b.buf, b.cap * b.elem_size);
    }
    b.buf = nb;
    b.cap = cap;
    if (b.scale == hir::Type::kUnknownScale && b.type == NUMERICOID) b.escale.resize((size_t)cap, 0);
    return Status::Ok();
}

void MarkNull(ColumnBuilder &b, int64_t i) {
    hir::Buf<uint64_t> &v = b.vec->validity;
    const size_t words = (size_t)(i / 64 + 1);
    if (v.empty()) {
        // All rows before i were valid.
        v.assign(words, ~uint64_t(0));
    }
    while (v.size() < words) v.push_back(~uint64_t(0));
    v[(size_t)(i / 64)] &= ~(uint64_t(1) << (i % 64));
}

// The common cases without building a Status: false means "take the general path".
inline bool AppendFast(ColumnBuilder &b, Datum d, bool isnull) {
    const int64_t i = b.length;
    if (isnull || i >= b.cap) return false;
    uint8_t *slot = b.buf + i * b.elem_size;
    switch (b.type) {
        case INT4OID: *(int32 *)slot = DatumGetInt32(d); break;
        case DATEOID: *(int32 *)slot = DatumGetDateADT(d); break;
        case INT8OID: *(int64 *)slot = DatumGetInt64(d); break;
        case TIMESTAMPOID: *(int64 *)slot = DatumGetTimestamp(d); break;
        case TIMESTAMPTZOID: *(int64 *)slot = DatumGetTimestampTz(d); break;
        case FLOAT8OID: *(float8 *)slot = DatumGetFloat8(d); break;
        case NUMERICOID:
            if (VARATT_IS_EXTERNAL(DatumGetPointer(d)) || VARATT_IS_COMPRESSED(DatumGetPointer(d))) return false;
            if (NumericInto(d, b.scale, b.elem_size, slot, b.escale.data(), i) != numeric::Decoded::OK) return false;
            break;
        default: return false;
    }
    b.length = i + 1;
    return true;
}

Status Append(ColumnBuilder &b, HostAllocator &alloc, Datum d, bool isnull) {
    const int64_t i = b.length;
    if (b.elem_size > 0) {
        if (i >= b.cap) RNDN_RETURN_IF_ERROR(Grow(b, alloc, i + 1));
        uint8_t *slot = b.buf + i * b.elem_size;
        if (isnull) {
            std::memset(slot, 0, (size_t)b.elem_size);
            if (!b.escale.empty()) b.escale[(size_t)i] = 0;
            MarkNull(b, i);
        } else {
            switch (b.type) {
                case BOOLOID: *slot = DatumGetBool(d) ? 1 : 0; break;
                case INT2OID: *(int16 *)slot = DatumGetInt16(d); break;
                case INT4OID: *(int32 *)slot = DatumGetInt32(d); break;
                case INT8OID: *(int64 *)slot = DatumGetInt64(d); break;
                case TIMESTAMPOID: *(int64 *)slot = DatumGetTimestamp(d); break;
                case TIMESTAMPTZOID: *(int64 *)slot = DatumGetTimestampTz(d); break;
                case FLOAT4OID: *(float4 *)slot = DatumGetFloat4(d); break;
                case FLOAT8OID: *(float8 *)slot = DatumGetFloat8(d); break;
                case DATEOID: *(int32 *)slot = DatumGetDateADT(d); break;
                case INTERVALOID: std::memcpy(slot, DatumGetIntervalP(d), sizeof(Interval)); break;
                case NUMERICOID: {
                    if (KeepStoredForm() && (VARATT_IS_EXTERNAL(DatumGetPointer(d)) || VARATT_IS_COMPRESSED(DatumGetPointer(d))))
                        return StoredFormFallback();
                    const numeric::Decoded r = NumericInto(d, b.scale, b.elem_size, slot, b.escale.data(), i);
                    if (r != numeric::Decoded::OK) return NumericLoadError(r);
                    break;
                }
                default: return Status::Internal("loader: unexpected fixed-width type");
            }
        }
        b.length = i + 1;
        return Status::Ok();
    }
    // text, varchar, bpchar (blank padding stripped: bpchar semantics ignore it); uuid
    hir::Vector &v = *b.vec;
    if (isnull) {
        v.offsets.push_back((int64_t)v.bytes.size());
        MarkNull(b, i);
    } else if (b.type == UUIDOID) {
        char txt[uuidtext::kTextLen];
        uuidtext::Format(DatumGetUUIDP(d)->data, txt);
        if (!alloc.Charge((int64_t)sizeof txt + 8)) return MemoryError(alloc, "rndn.memory_limit exceeded");
        v.bytes.append(txt, sizeof txt);
        v.offsets.push_back((int64_t)v.bytes.size());
    } else {
        struct varlena *raw = (struct varlena *)DatumGetPointer(d);
        if (KeepStoredForm() && (VARATT_IS_EXTERNAL(raw) || VARATT_IS_COMPRESSED(raw))) return StoredFormFallback();
        struct varlena *t = (VARATT_IS_EXTERNAL(raw) || VARATT_IS_COMPRESSED(raw))
                                ? pg::PgCall([raw] { return pg_detoast_datum_packed(raw); })
                                : raw;
        const char *p = VARDATA_ANY(t);
        size_t n = VARSIZE_ANY_EXHDR(t);
        if (b.type == BPCHAROID)
            while (n > 0 && p[n - 1] == ' ') --n;
        if (!b.non_ascii)
            for (size_t k = 0; k < n; ++k)
                if ((unsigned char)p[k] >= 0x80) {
                    b.non_ascii = true;
                    break;
                }
        if (!alloc.Charge((int64_t)n + 8)) return MemoryError(alloc, "rndn.memory_limit exceeded");
        v.bytes.append(p, n);
        v.offsets.push_back((int64_t)v.bytes.size());
        if ((void *)t != DatumGetPointer(d)) pfree(t);
    }
    b.length = i + 1;
    return Status::Ok();
}

// An unconstrained numeric column: every row's value (held at its own display scale) brought
// to the column's largest display scale, as HorseIR's per-element decimals hold them
// (Vector::elem_scale, scale_max).  A value that does not fit 38 digits there leaves the scan to
// PostgreSQL's plan.
Status FinishPerValueScales(ColumnBuilder &b) {
    int smax = 0;
    for (int64_t i = 0; i < b.length; ++i) smax = std::max<int>(smax, b.escale[(size_t)i]);
    static constexpr numeric::Pow10Table<__int128> kPow{};
    __int128 *x = (__int128 *)b.buf;
    for (int64_t i = 0; i < b.length; ++i) {
        const int up = smax - b.escale[(size_t)i];
        __int128 y;
        if (__builtin_mul_overflow(x[i], kPow.p[up], &y) || y >= kPow.p[38] || y <= -kPow.p[38])
            return Status::Unsupported("an unconstrained numeric column whose values need more than 38 digits at scale " +
                                       std::to_string(smax));
        x[i] = y;
    }
    b.vec->elem_scale.assign(b.escale.begin(), b.escale.begin() + b.length);
    b.vec->scale_max = smax;
    return Status::Ok();
}

// Hands the finished buffers to HorseIR vectors.
Expected<std::shared_ptr<hir::Vector>> Finish(ColumnBuilder &b, HostAllocator &alloc) {
    std::shared_ptr<hir::Vector> v = b.vec;
    v->length = b.length;
    if (!v->validity.empty()) {
        const size_t words = (size_t)((b.length + 63) / 64);
        while (v->validity.size() < words) v->validity.push_back(~uint64_t(0));
    }
    if (b.elem_size > 0) {
        if (b.buf == nullptr) RNDN_RETURN_IF_ERROR(Grow(b, alloc, 1));
        if (b.type == NUMERICOID && b.scale == hir::Type::kUnknownScale) RNDN_RETURN_IF_ERROR(FinishPerValueScales(b));
        // The bytes stay charged to this run; the buffer itself may outlive it in the column
        // cache, so its deleter must not refer to the run's allocator.
        v->data = std::shared_ptr<uint8_t[]>(b.buf, [](uint8_t *p) { HostAllocator::base().Free(p, 0); });
        b.buf = nullptr;
        b.cap = 0;
    }
    b.vec.reset();
    return v;
}

// Appends one row (values/isnull indexed by attribute number - 1) to every column builder.
Status AppendRow(ScanRun &run, const Datum *values, const bool *isnull) {
    for (ColumnBuilder &b : run.builders) {
        const int a = b.attnum - 1;
        if (AppendFast(b, values[a], isnull[a])) continue;
        RNDN_RETURN_IF_ERROR(Append(b, run.alloc, values[a], isnull[a]));
    }
    return Status::Ok();
}

// Deforms attributes [0, max_att) of one heap tuple into values/isnull.
void DeformHeapTuple(TupleDesc desc, HeapTupleHeader td, int max_att, Datum *values, bool *isnull) {
    const int natts = std::min<int>(HeapTupleHeaderGetNatts(td), max_att);
    const bool hasnulls = (td->t_infomask & HEAP_HASNULL) != 0;
    const bits8 *bp = td->t_bits;
    const char *tp = (const char *)td + td->t_hoff;
    uint32 off = 0;
    for (int a = 0; a < natts; ++a) {
        Form_pg_attribute att = TupleDescAttr(desc, a);
        if (hasnulls && att_isnull(a, bp)) {
            values[a] = (Datum)0;
            isnull[a] = true;
            continue;
        }
        if (att->attlen == -1)
            off = att_align_pointer(off, att->attalign, -1, tp + off);
        else
            off = att_align_nominal(off, att->attalign);
        values[a] = fetchatt(att, tp + off);
        isnull[a] = false;
        off = att_addlength_pointer(off, att->attlen, tp + off);
    }
    // Attributes added after the tuple was written: their "missing" default, else NULL.
    for (int a = natts; a < max_att; ++a) values[a] = getmissingattr(desc, a + 1, &isnull[a]);
}

// ---- parallel deform ------------------------------------------------------------------------
//
// The backend reads pages (pin, prune, share-lock, visibility, serializable checks, copy,
// unlock, unpin) and hands the visible tuples of a batch of page copies to worker threads as
// plain data: tuple
// header pointers, a copy of the attribute descriptors, and each column's type and target
// buffer.  Workers call no PostgreSQL function: fixed-width values go straight into their row's
// slot (buffers are grown by the backend before the batch starts), strings and NULLs into a
// per-range output merged in order by the backend afterwards.  A value a worker cannot read
// without PostgreSQL (a toasted or compressed varlena, a numeric NaN, an attribute missing from
// an old tuple) makes the worker give its range back; the backend deforms that range itself.
// While the workers deform batch k the backend reads batch k+1, then waits for them, checking
// for interrupts every 20 ms (a cancel stops the workers at their next 256 tuples).

// One worker pool per backend, created at first use with every asynchronous signal blocked (a
// signal for the backend is always taken by the backend's own thread); never destroyed.
class DeformPool {
public:
    explicit DeformPool(int n) : n_(n) {
        WithAsyncSignalsBlocked([&] {
            for (int i = 0; i < n_; ++i) threads_.emplace_back([this, i] { Loop(i); });
        });
    }
    int size() const { return n_; }
    // Runs job(i) on worker i for every i; returns at once.
    void Start(std::function<void(int)> job) {
        std::lock_guard<std::mutex> g(mu_);
        job_ = std::move(job);
        pending_ = n_;
        ++gen_;
        work_cv_.notify_all();
    }
    // Waits until every worker finished the job; with `poll`, calls it at once and every 20 ms
    // meanwhile.
    void Wait(const std::function<void()> &poll) {
        if (poll) poll();
        std::unique_lock<std::mutex> g(mu_);
        while (pending_ > 0) {
            done_cv_.wait_for(g, std::chrono::milliseconds(20));
            if (pending_ > 0 && poll) {
                g.unlock();
                poll();
                g.lock();
            }
        }
    }
    bool busy() {
        std::lock_guard<std::mutex> g(mu_);
        return pending_ > 0;
    }

private:
    void Loop(int i) {
        uint64_t seen = 0;
        for (;;) {
            std::function<void(int)> *job;
            {
                std::unique_lock<std::mutex> g(mu_);
                work_cv_.wait(g, [&] { return gen_ != seen; });
                seen = gen_;
                job = &job_;
            }
            (*job)(i);  // the job catches everything itself
            std::lock_guard<std::mutex> g(mu_);
            if (--pending_ == 0) done_cv_.notify_all();
        }
    }
    int n_;
    std::vector<std::thread> threads_;
    std::mutex mu_;
    std::condition_variable work_cv_, done_cv_;
    std::function<void(int)> job_;
    uint64_t gen_ = 0;
    int pending_ = 0;
};

int LoaderThreads() {
    if (g_settings.loader_threads > 0) return g_settings.loader_threads;
    const unsigned hc = std::thread::hardware_concurrency();
    return hc == 0 ? 1 : (int)std::min(hc, 256u);
}

DeformPool &Pool(int n) {
    // One pool per size ever asked for, reused when rndn.loader_threads comes back to it; never
    // destroyed (the threads stay parked).
    static auto *pools = new std::map<int, DeformPool *>();
    DeformPool *&pool = (*pools)[n];
    if (pool == nullptr) pool = new DeformPool(n);
    return *pool;
}

// What a worker needs about one column.
struct ColumnPlan {
    int att = 0;   // attribute index (attnum - 1)
    unsigned type = 0;
    int scale = 0;
    int elem_size = 0;    // 0: string
    uint8_t *buf = nullptr;  // fixed-width: the builder's buffer (row slots)
    uint8_t *escale = nullptr;  // unconstrained numeric: the builder's per-row display scales
    // How the tuple walk stores it (ScanHeap sets it from the type and the attribute's length):
    // COPY: the on-disk bytes are the slot (fixed-width types of the slot's size); DEC: a
    // numeric(p,s) decoded straight into the slot; GENERIC: through PutValue.
    enum class Fast : uint8_t { GENERIC, COPY, DEC } fast = Fast::GENERIC;
};

// What one range of a batch produced besides the fixed-width slots.
struct RangeOut {
    size_t first = 0, count = 0;                // tuples [first, first + count) of the batch
    std::vector<std::vector<int64_t>> str_ends;  // per column: end offsets into str_bytes
    std::vector<std::string> str_bytes;
    std::vector<char> non_ascii;
    std::vector<std::pair<int, int64_t>> nulls;  // (column, row)
    bool give_back = false;                      // the backend must deform this range
    bool failed = false;                         // out of memory in the worker
    void Reset(size_t ncols) {  // keeps the capacity of the previous batch
        str_ends.resize(ncols);
        str_bytes.resize(ncols);
        for (auto &e : str_ends) e.clear();
        for (auto &b : str_bytes) b.clear();
        non_ascii.assign(ncols, 0);
        nulls.clear();
        give_back = failed = false;
    }
};

enum class Put { OK, GIVE_BACK, NUMERIC_SPECIAL, NUMERIC_UNREPRESENTABLE, STORED_FORM };

// Stores one value of column k into row `row` / the range's output.  With `on_backend`, toasted
// values are detoasted (a PostgreSQL call); a worker gives them back instead.
Put PutValue(const ColumnPlan &c, size_t k, int64_t row, Datum d, bool isnull, RangeOut &out, bool on_backend) {
    if (c.elem_size > 0) {
        uint8_t *slot = c.buf + row * c.elem_size;
        if (isnull) {
            std::memset(slot, 0, (size_t)c.elem_size);
            if (c.escale != nullptr) c.escale[row] = 0;
            out.nulls.emplace_back((int)k, row);
            return Put::OK;
        }
        switch (c.type) {
            case BOOLOID: *slot = DatumGetBool(d) ? 1 : 0; break;
            case INT2OID: *(int16 *)slot = DatumGetInt16(d); break;
            case INT4OID: *(int32 *)slot = DatumGetInt32(d); break;
            case INT8OID: *(int64 *)slot = DatumGetInt64(d); break;
            case TIMESTAMPOID: *(int64 *)slot = DatumGetTimestamp(d); break;
            case TIMESTAMPTZOID: *(int64 *)slot = DatumGetTimestampTz(d); break;
            case FLOAT4OID: *(float4 *)slot = DatumGetFloat4(d); break;
            case FLOAT8OID: *(float8 *)slot = DatumGetFloat8(d); break;
            case DATEOID: *(int32 *)slot = DatumGetDateADT(d); break;
            case INTERVALOID: std::memcpy(slot, DatumGetIntervalP(d), sizeof(Interval)); break;  // by reference, never toasted
            case NUMERICOID: {
                struct varlena *raw = (struct varlena *)DatumGetPointer(d);
                if (!on_backend && (VARATT_IS_EXTERNAL(raw) || VARATT_IS_COMPRESSED(raw))) return Put::GIVE_BACK;
                if (KeepStoredForm() && (VARATT_IS_EXTERNAL(raw) || VARATT_IS_COMPRESSED(raw))) return Put::STORED_FORM;
                const numeric::Decoded r = NumericInto(d, c.scale, c.elem_size, slot, c.escale, row);
                if (r == numeric::Decoded::OK) break;
                if (!on_backend) return Put::GIVE_BACK;
                return r == numeric::Decoded::SPECIAL ? Put::NUMERIC_SPECIAL : Put::NUMERIC_UNREPRESENTABLE;
            }
            default: return Put::GIVE_BACK;
        }
        return Put::OK;
    }
    std::vector<int64_t> &ends = out.str_ends[k];
    std::string &bytes = out.str_bytes[k];
    if (isnull) {
        ends.push_back((int64_t)bytes.size());
        out.nulls.emplace_back((int)k, row);
        return Put::OK;
    }
    if (c.type == UUIDOID) {  // 16 bytes by reference, held as its canonical text
        char txt[uuidtext::kTextLen];
        uuidtext::Format(DatumGetUUIDP(d)->data, txt);
        bytes.append(txt, sizeof txt);
        ends.push_back((int64_t)bytes.size());
        return Put::OK;
    }
    struct varlena *raw = (struct varlena *)DatumGetPointer(d);
    const bool toasted = VARATT_IS_EXTERNAL(raw) || VARATT_IS_COMPRESSED(raw);
    if (toasted && !on_backend) return Put::GIVE_BACK;
    if (toasted && KeepStoredForm()) return Put::STORED_FORM;
    struct varlena *t = toasted ? pg::PgCall([raw] { return pg_detoast_datum_packed(raw); }) : raw;
    const char *p = VARDATA_ANY(t);
    size_t n = VARSIZE_ANY_EXHDR(t);
    if (c.type == BPCHAROID)
        while (n > 0 && p[n - 1] == ' ') --n;
    if (!out.non_ascii[k]) {  // eight bytes at a time: any byte with its top bit set
        uint64_t any = 0;
        size_t i = 0;
        for (; i + 8 <= n; i += 8) {
            uint64_t w;
            std::memcpy(&w, p + i, 8);
            any |= w;
        }
        for (; i < n; ++i) any |= (unsigned char)p[i];
        if (any & 0x8080808080808080ULL) out.non_ascii[k] = 1;
    }
    bytes.append(p, n);
    ends.push_back((int64_t)bytes.size());
    if (t != raw) pfree(t);
    return Put::OK;
}

// Deforms attributes [0, max_att) of a tuple with the copied descriptors; false when the
// tuple has fewer attributes (their defaults need PostgreSQL's getmissingattr).
bool DeformPlain(const FormData_pg_attribute *atts, HeapTupleHeader td, int max_att, Datum *values, bool *isnull) {
    if (HeapTupleHeaderGetNatts(td) < max_att) return false;
    const bool hasnulls = (td->t_infomask & HEAP_HASNULL) != 0;
    const bits8 *bp = td->t_bits;
    const char *tp = (const char *)td + td->t_hoff;
    uint32 off = 0;
    for (int a = 0; a < max_att; ++a) {
        const FormData_pg_attribute *att = &atts[a];
        if (hasnulls && att_isnull(a, bp)) {
            values[a] = (Datum)0;
            isnull[a] = true;
            continue;
        }
        if (att->attlen == -1)
            off = att_align_pointer(off, att->attalign, -1, tp + off);
        else
            off = att_align_nominal(off, att->attalign);
        values[a] = fetchatt(att, tp + off);
        isnull[a] = false;
        off = att_addlength_pointer(off, att->attlen, tp + off);
    }
    return true;
}

// A batch holds copies of the pages it read, not pins: each page is copied while the backend
// holds its share lock (the tuples' contents cannot change then; only hint bits can, and the
// copy's are never read) and its buffer is released at once.  So a scan holds one pin at a time
// and its ring of buffers (BAS_BULKREAD, 32 buffers) really is reused: holding a whole batch
// pinned made every read past the ring take a fresh buffer from shared_buffers, which evicted
// other relations' pages and, after a restart, faulted new shared memory in for every page.
struct Batch {
    static constexpr size_t kMaxPages = 512;
    std::unique_ptr<char[]> pages;             // kMaxPages page copies, allocated on first use
    size_t npages = 0;
    std::vector<HeapTupleHeader> tuples;       // visible tuples (in the copies), in heap order
    char *NextPage() {
        if (!pages) pages.reset(new char[kMaxPages * BLCKSZ]);
        return pages.get() + (npages++) * BLCKSZ;
    }
    void Clear() {
        npages = 0;
        tuples.clear();
    }
};

// How a worker walks a tuple without NULLs up to the last needed attribute, without PostgreSQL's
// per-attribute generality: the needed attributes among the leading fixed-width ones sit at
// offsets fixed by the descriptor alone (the idea of attcacheoff); from the first variable-width
// attribute on, each offset follows from the one before (its length and its alignment), and only
// the needed attributes are fetched.  Tuples with NULLs, or with fewer attributes than the walk
// needs, take DeformPlain instead.
struct WalkStep {
    int16_t len = 0;      // attlen: > 0 fixed width, -1 varlena, -2 C string
    char align = 'c';     // attalign
    uint32_t off = 0;     // in `fixed`: the attribute's offset from the tuple's data
    int att = 0;
    int first_col = 0, ncols = 0;  // the columns it fills: TupleWalk::cols[first_col, +ncols)
};

struct TupleWalk {
    std::vector<WalkStep> fixed;  // needed attributes at constant offsets
    std::vector<WalkStep> rest;   // every attribute from the first variable-width one on
    uint32_t rest_off = 0;        // offset where `rest` starts (before its first alignment)
    std::vector<int> cols;        // ColumnPlan indices, grouped by step

    void Build(const FormData_pg_attribute *atts, int max_att, const std::vector<ColumnPlan> &plans) {
        uint32_t off = 0;
        bool constant = true;
        for (int a = 0; a < max_att; ++a) {
            const FormData_pg_attribute &att = atts[a];
            WalkStep st;
            st.len = att.attlen;
            st.align = att.attalign;
            st.att = a;
            st.first_col = (int)cols.size();
            for (size_t k = 0; k < plans.size(); ++k)
                if (plans[k].att == a) cols.push_back((int)k);
            st.ncols = (int)cols.size() - st.first_col;
            if (constant && att.attlen > 0) {
                off = att_align_nominal(off, att.attalign);
                st.off = off;
                off += (uint32_t)att.attlen;
                if (st.ncols > 0) fixed.push_back(st);
                continue;
            }
            if (constant) rest_off = off;
            constant = false;
            rest.push_back(st);
        }
        if (constant) rest_off = off;
        // Steps after the last needed attribute of `rest` are never walked.
        while (!rest.empty() && rest.back().ncols == 0) rest.pop_back();
    }
};

struct DeformJob {
    const FormData_pg_attribute *atts;
    const TupleWalk *walk;
    int max_att;
    const std::vector<ColumnPlan> *cols;
    const Batch *batch;
    int64_t row0;  // row of the batch's first tuple
    std::vector<RangeOut> *ranges;
    std::atomic<bool> *stop;
    std::atomic<size_t> *next;  // the next range to claim
};

// Stores the value at `p` (an attribute of a tuple without NULLs) into column k; false when a
// worker must give the range back (toasted or compressed, a numeric it cannot decode, a type
// it does not handle).
[[gnu::always_inline]] inline bool StoreAt(const ColumnPlan &c, const FormData_pg_attribute &att, size_t k, int64_t row, const char *p, RangeOut &out) {
    switch (c.fast) {
        case ColumnPlan::Fast::COPY:
            std::memcpy(c.buf + row * c.elem_size, p, (size_t)c.elem_size);
            return true;
        case ColumnPlan::Fast::DEC:  // (not toasted: NumericToSlot calls no PostgreSQL function then)
            if (VARATT_IS_EXTERNAL(p) || VARATT_IS_COMPRESSED(p)) return false;
            return NumericToSlot(PointerGetDatum(p), c.scale, c.elem_size, c.buf + row * c.elem_size) == numeric::Decoded::OK;
        case ColumnPlan::Fast::GENERIC: break;
    }
    return PutValue(c, k, row, fetchatt(&att, p), false, out, false) == Put::OK;
}

// The tuple walk (TupleWalk): false when the range must be given back.
inline bool WalkTuple(const DeformJob &j, HeapTupleHeader td, int64_t row, RangeOut &out) {
    const TupleWalk &w = *j.walk;
    const std::vector<ColumnPlan> &cols = *j.cols;
    const char *tp = (const char *)td + td->t_hoff;
    for (const WalkStep &st : w.fixed)
        for (int i = 0; i < st.ncols; ++i) {
            const int k = w.cols[(size_t)(st.first_col + i)];
            if (!StoreAt(cols[(size_t)k], j.atts[st.att], (size_t)k, row, tp + st.off, out)) return false;
        }
    uint32 off = w.rest_off;
    for (const WalkStep &st : w.rest) {
        if (st.len == -1)
            off = att_align_pointer(off, st.align, -1, tp + off);
        else
            off = att_align_nominal(off, st.align);
        const char *p = tp + off;
        for (int i = 0; i < st.ncols; ++i) {
            const int k = w.cols[(size_t)(st.first_col + i)];
            if (!StoreAt(cols[(size_t)k], j.atts[st.att], (size_t)k, row, p, out)) return false;
        }
        off = att_addlength_pointer(off, st.len, p);
    }
    return true;
}

// A worker's part: deform the range's tuples; on anything it cannot do, give the range back.
void DeformRangeWorker(const DeformJob &j, RangeOut &out) noexcept {
    try {
        std::vector<Datum> values((size_t)j.max_att);
        std::unique_ptr<bool[]> isnull(new bool[(size_t)j.max_att]);
        const std::vector<ColumnPlan> &cols = *j.cols;
        for (size_t t = out.first; t < out.first + out.count; ++t) {
            if ((t & 255) == 0 && j.stop->load(std::memory_order_relaxed)) return;
            const HeapTupleHeader td = j.batch->tuples[t];
            // The page copies are read once, tuple by tuple in no address order the hardware
            // predicts: fetch a later tuple's header and first line now.
            if (t + 4 < out.first + out.count) {
                const char *ahead = (const char *)j.batch->tuples[t + 4];
                __builtin_prefetch(ahead);
                __builtin_prefetch(ahead + 64);
            }
            if ((td->t_infomask & HEAP_HASNULL) == 0 && HeapTupleHeaderGetNatts(td) >= j.max_att) {
                if (!WalkTuple(j, td, j.row0 + (int64_t)t, out)) {
                    out.give_back = true;
                    return;
                }
                continue;
            }
            if (!DeformPlain(j.atts, td, j.max_att, values.data(), isnull.get())) {
                out.give_back = true;
                return;
            }
            const int64_t row = j.row0 + (int64_t)t;
            for (size_t k = 0; k < cols.size(); ++k)
                if (PutValue(cols[k], k, row, values[cols[k].att], isnull[cols[k].att], out, false) != Put::OK) {
                    out.give_back = true;
                    return;
                }
        }
    } catch (...) {
        out.failed = true;
    }
}

// The backend's part for a range a worker gave back (PostgreSQL calls allowed).
Status DeformRangeBackend(const DeformJob &j, TupleDesc desc, RangeOut &out) {
    out.Reset(j.cols->size());
    std::vector<Datum> values((size_t)j.max_att);
    std::unique_ptr<bool[]> isnull(new bool[(size_t)j.max_att]);
    const std::vector<ColumnPlan> &cols = *j.cols;
    for (size_t t = out.first; t < out.first + out.count; ++t) {
        DeformHeapTuple(desc, j.batch->tuples[t], j.max_att, values.data(), isnull.get());
        const int64_t row = j.row0 + (int64_t)t;
        for (size_t k = 0; k < cols.size(); ++k) {
            const Put p = PutValue(cols[k], k, row, values[cols[k].att], isnull[cols[k].att], out, true);
            if (p == Put::STORED_FORM) return StoredFormFallback();
            if (p == Put::NUMERIC_SPECIAL) return NumericLoadError(numeric::Decoded::SPECIAL);
            if (p == Put::NUMERIC_UNREPRESENTABLE) return NumericLoadError(numeric::Decoded::UNREPRESENTABLE);
            if (p != Put::OK) return Status::Internal("loader: unexpected column type");
        }
    }
    return Status::Ok();
}

// Appends a finished range's strings and NULLs to the builders (backend thread, range order).
Status MergeRange(ScanRun &run, const RangeOut &out) {
    for (size_t k = 0; k < run.builders.size(); ++k) {
        ColumnBuilder &b = run.builders[k];
        if (b.elem_size > 0) continue;
        hir::Vector &v = *b.vec;
        const int64_t base = (int64_t)v.bytes.size();
        if (!run.alloc.Charge((int64_t)out.str_bytes[k].size() + 8 * (int64_t)out.str_ends[k].size()))
            return MemoryError(run.alloc, "rndn.memory_limit exceeded");
        v.bytes.append(out.str_bytes[k]);
        for (int64_t e : out.str_ends[k]) v.offsets.push_back(base + e);
        if (out.non_ascii[k]) b.non_ascii = true;
    }
    for (const auto &[k, row] : out.nulls) MarkNull(run.builders[(size_t)k], row);
    return Status::Ok();
}

// ---- heap scan ----------------------------------------------------------------------------
//
// Heap relations are read page by page, the way heapam's page-at-a-time scan does it (prune
// opportunistically, share-lock, decide visibility of every normal tuple under the snapshot,
// copy, unlock), and the visible tuples are deformed from the page copies, only up to the last
// attribute the program needs, by the worker threads above.  The page's all-visible flag and
// LSN, read under the same lock as the visibility decisions, say whether its rows may be
// cached (see ColumnCache).

struct HeapReader {
    Relation rel;
    Snapshot snapshot;
    BufferAccessStrategy strategy;
    BlockNumber nblocks;
    BlockNumber next = 0;
    std::vector<XLogRecPtr> *lsns;
    std::vector<OffsetNumber> visible;

    // Reads pages into `batch` until it holds about `want` tuples or the relation ends; false
    // on an interrupt.
    bool ReadBatch(Batch &batch, size_t want) {
        batch.Clear();
        while (next < nblocks && batch.tuples.size() < want && batch.npages < Batch::kMaxPages) {
            const BlockNumber b = next++;
            if ((b & 31) == 0 && InterruptRequested()) return false;
            // Read (I/O errors), prune, lock, decide visibility, check serializable conflicts
            // (serialization failure), copy, unlock, unpin: one guarded call per page.
            // `visible` has room for every tuple of a page, so nothing in here allocates.
            const bool cancel_here = b == 1 && g_settings.test_error_site == (int)pg::ErrorSite::LOAD_CANCEL;
            Relation r = rel;
            Snapshot snap = snapshot;
            BufferAccessStrategy strat = strategy;
            std::vector<OffsetNumber> &vis = visible;
            std::vector<XLogRecPtr> &l = *lsns;
            // (HeapCheckForSerializableConflictOut does nothing outside SERIALIZABLE: one test a
            // page instead of a call a tuple)
            const bool serializable = IsolationIsSerializable();
            char *copy = batch.NextPage();
            pg::PgCall([&] {
                Buffer buf = ReadBufferExtended(r, MAIN_FORKNUM, b, RBM_NORMAL, strat);
                if (cancel_here) {  // as if the client's cancel arrived while the page was read
                    QueryCancelPending = true;
                    InterruptPending = true;
                    CHECK_FOR_INTERRUPTS();
                }
                heap_page_prune_opt(r, buf);
                LockBuffer(buf, BUFFER_LOCK_SHARE);
                Page pg_page = BufferGetPage(buf);
                const bool all_visible = PageIsAllVisible(pg_page) && !snap->takenDuringRecovery;
                if (all_visible) l[b] = PageGetLSN(pg_page);
                const OffsetNumber maxoff = PageGetMaxOffsetNumber(pg_page);
                vis.clear();
                for (OffsetNumber off = FirstOffsetNumber; off <= maxoff; off = OffsetNumberNext(off)) {
                    ItemId lp = PageGetItemId(pg_page, off);
                    if (!ItemIdIsNormal(lp)) continue;
                    HeapTupleData tup;
                    tup.t_tableOid = RelationGetRelid(r);
                    tup.t_data = (HeapTupleHeader)PageGetItem(pg_page, lp);
                    tup.t_len = ItemIdGetLength(lp);
                    ItemPointerSet(&tup.t_self, b, off);
                    const bool valid = all_visible || HeapTupleSatisfiesVisibility(&tup, snap, buf);
                    if (serializable) HeapCheckForSerializableConflictOut(valid, r, &tup, buf, snap);
                    if (valid) vis.push_back(off);
                }
                if (!vis.empty()) memcpy(copy, pg_page, BLCKSZ);
                UnlockReleaseBuffer(buf);
            });
            if (visible.empty()) {  // nothing of this page is needed: its slot is reused
                --batch.npages;
                continue;
            }
            Page page = (Page)copy;
            for (OffsetNumber off : visible) batch.tuples.push_back((HeapTupleHeader)PageGetItem(page, PageGetItemId(page, off)));
        }
        return true;
    }
};

// pg_stat_user_tables: a relation rndn loaded counts as a sequential scan that read its rows
// (seq_scan, seq_tup_read), as PostgreSQL's SeqScan of it would, also when the columns came from
// the column cache.
void CountScanRows(Relation rel, int64 n, bool count_scan) {
    pg::PgCall([rel, n, count_scan] {
        if (count_scan) pgstat_count_heap_scan(rel);
        if (pgstat_should_count_relation(rel)) rel->pgstat_info->t_counts.t_tuples_returned += n;
    });
}

// Scans a heap relation into run.builders.  lsns[b] is block b's LSN when the page was
// all-visible (its rows do not depend on the snapshot), else 0.
Status ScanHeap(ScanRun &run, Relation rel, Snapshot snapshot, int max_att, MemoryContext tmp,
                std::vector<XLogRecPtr> *lsns, int64 *nrows) {
    TupleDesc desc = RelationGetDescr(rel);
    HeapReader reader{rel, snapshot, nullptr, 0, 0, lsns, {}};
    reader.nblocks = pg::PgCall([rel] { return RelationGetNumberOfBlocks(rel); });
    lsns->assign(reader.nblocks, InvalidXLogRecPtr);
    reader.visible.reserve(MaxHeapTuplesPerPage);
    reader.strategy = pg::PgCall([rel, snapshot] {
        PredicateLockRelation(rel, snapshot);
        pgstat_count_heap_scan(rel);
        return GetAccessStrategy(BAS_BULKREAD);
    });
    // The attribute descriptors the workers read, copied out of the relcache.
    std::vector<FormData_pg_attribute> atts((size_t)max_att);
    for (int a = 0; a < max_att; ++a) atts[(size_t)a] = *TupleDescAttr(desc, a);
    std::vector<ColumnPlan> cols(run.builders.size());
    for (size_t k = 0; k < cols.size(); ++k) {
        const ColumnBuilder &b = run.builders[k];
        cols[k].att = b.attnum - 1;
        cols[k].type = b.type;
        cols[k].scale = b.scale;
        cols[k].elem_size = b.elem_size;
        const FormData_pg_attribute &att = atts[(size_t)cols[k].att];
        switch (b.type) {
            case INT2OID: case INT4OID: case INT8OID: case FLOAT4OID: case FLOAT8OID: case DATEOID:
            case TIMESTAMPOID: case TIMESTAMPTZOID: case INTERVALOID:
                if (att.attlen == b.elem_size) cols[k].fast = ColumnPlan::Fast::COPY;
                break;
            case NUMERICOID:
                if (b.scale != hir::Type::kUnknownScale && (b.elem_size == 8 || b.elem_size == 16)) cols[k].fast = ColumnPlan::Fast::DEC;
                break;
            default: break;
        }
    }
    TupleWalk walk;
    walk.Build(atts.data(), max_att, cols);
    const int nthreads = LoaderThreads();
    DeformPool &pool = Pool(nthreads);
    std::atomic<bool> stop{false};
    std::atomic<int64_t> cpu_ns{0};
    const size_t want = (size_t)std::max(1024, std::min(g_settings.chunk_rows, 16384));
    Batch cur, next;
    // A batch in small ranges that the workers claim one at a time, and the backend too once it
    // has read the next batch (so no core idles while a slower range finishes, and the backend's
    // own core works instead of waiting); strings and NULLs merge in range order afterwards.
    const size_t nranges = (size_t)nthreads * 8;
    std::vector<RangeOut> ranges(nranges);
    std::atomic<size_t> next_range{0};
    DeformJob job{atts.data(), &walk, max_att, &cols, &cur, 0, &ranges, &stop, &next_range};
    // Claims and deforms ranges until none is left (workers, and the backend between checks
    // for interrupts); CPU time into cpu_ns.
    auto claim = [&job, &cpu_ns](bool on_backend) {
        timespec a, b;
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
        for (;;) {
            const size_t r = job.next->fetch_add(1, std::memory_order_relaxed);
            if (r >= job.ranges->size() || job.stop->load(std::memory_order_relaxed)) break;
            DeformRangeWorker(job, (*job.ranges)[r]);
            if (on_backend && InterruptRequested()) {
                job.stop->store(true);
                break;
            }
        }
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
        cpu_ns.fetch_add((b.tv_sec - a.tv_sec) * 1000000000LL + (b.tv_nsec - a.tv_nsec), std::memory_order_relaxed);
    };
    // Whatever leaves this frame (a Status, a PostgreSQL ERROR thrown as PgError) first stops
    // the workers and waits for them: they read the batch's page copies and write into these
    // buffers.
    struct StopWorkers {
        DeformPool &pool;
        std::atomic<bool> &stop;
        ~StopWorkers() {
            stop.store(true);
            pool.Wait(nullptr);
        }
    } stop_workers{pool, stop};
    Status st;
    int64 n = 0, since_reset = 0;
    bool interrupted = !reader.ReadBatch(cur, want);
    while (st.ok() && !interrupted && !cur.tuples.empty()) {
        // Room for the batch in every fixed-width column (workers idle now).
        const int64_t rows = (int64_t)cur.tuples.size();
        for (size_t k = 0; k < cols.size() && st.ok(); ++k) {
            ColumnBuilder &b = run.builders[k];
            if (b.elem_size > 0 && b.length + rows > b.cap) st = Grow(b, run.alloc, b.length + rows);
            cols[k].buf = b.buf;
            cols[k].escale = b.escale.data();
        }
        if (!st.ok()) break;
        const size_t per = (cur.tuples.size() + nranges - 1) / nranges;
        for (size_t r = 0; r < ranges.size(); ++r) {
            ranges[r].Reset(cols.size());
            ranges[r].first = std::min(cur.tuples.size(), r * per);
            ranges[r].count = std::min(cur.tuples.size(), (r + 1) * per) - ranges[r].first;
        }
        job.batch = &cur;
        job.row0 = n;
        next_range.store(0);
        // (CPU time of the deforming: EXPLAIN ANALYZE's Deform CPU Time)
        pool.Start([&claim](int) { claim(false); });
        // Meanwhile the next batch's pages (PostgreSQL calls, this thread only), then the ranges
        // left.
        interrupted = !reader.ReadBatch(next, want);
        if (!interrupted) claim(true);
        pool.Wait([&stop] {
            if (g_settings.test_error_site == (int)pg::ErrorSite::LOAD_CANCEL_WAIT) {  // as the signal handler does
                QueryCancelPending = true;
                InterruptPending = true;
            }
            if (InterruptRequested()) stop.store(true);
        });
        if (interrupted || stop.load()) {
            interrupted = true;
            break;
        }
        MemoryContext old = MemoryContextSwitchTo(tmp);
        for (RangeOut &r : ranges) {
            if (!st.ok()) break;
            if (r.failed) st = Status::OutOfMemory("rndn: out of memory in a loader thread");
            else if (r.give_back) st = DeformRangeBackend(job, desc, r);
            if (st.ok()) st = MergeRange(run, r);
        }
        MemoryContextSwitchTo(old);
        if (!st.ok()) break;
        for (ColumnBuilder &b : run.builders) b.length += rows;
        n += rows;
        since_reset += rows;
        std::swap(cur, next);
        if (since_reset >= g_settings.chunk_rows) {  // rndn.chunk_rows rows per chunk of temporary memory
            pg::PgCall([tmp] { MemoryContextReset(tmp); });
            since_reset = 0;
        }
    }
    stop.store(true);
    pool.Wait(nullptr);
    FreeAccessStrategy(reader.strategy);
    run.deform_cpu_ms += (double)cpu_ns.load() / 1e6;
    run.loader_threads = nthreads;
    *nrows = n;
    if (st.ok() && interrupted) st = Status::Cancelled();
    return st;
}

// Any table AM: rows through table_scan_getnextslot.
Status ScanTableAm(ScanRun &run, Relation rel, Snapshot snapshot, int max_att, MemoryContext tmp, int64 *nrows) {
    const int chunk = std::max(1, g_settings.chunk_rows);
    MemoryContext old = CurrentMemoryContext;
    TupleTableSlot *slot = pg::PgCall([rel] { return table_slot_create(rel, nullptr); });
    // No synchronized scan: rows must come in heap order (index order is reproduced by a
    // stable sort of that order).
    TableScanDesc scan = pg::PgCall([rel, snapshot] { return table_beginscan_strat(rel, snapshot, 0, nullptr, true, false); });
    int64 n = 0;
    Status st;
    while (st.ok() && pg::PgCall([scan, slot, max_att] {
               if (!table_scan_getnextslot(scan, ForwardScanDirection, slot)) return false;
               slot_getsomeattrs(slot, max_att);
               return true;
           })) {
        MemoryContextSwitchTo(tmp);
        st = AppendRow(run, slot->tts_values, slot->tts_isnull);
        MemoryContextSwitchTo(old);
        if (++n % chunk == 0) {
            MemoryContextReset(tmp);
            if (InterruptRequested()) st = Status::Cancelled();
        }
    }
    pg::PgCall([scan, slot] {
        table_endscan(scan);
        ExecDropSingleTupleTableSlot(slot);
    });
    *nrows = n;
    return st;
}

// ---- column cache ---------------------------------------------------------------------------
//
// This backend keeps the columns it loaded from a relation whose every page was all-visible.
// The proof that they are still what a scan under the current snapshot would return reads the
// relation's visibility map (one map page covers 32672 heap pages: 4 pages for lineitem at
// SF 1), not the heap:
//
//  * Before the load, every heap block's all-visible bit was set; the LSN of each map page is
//    recorded then.  The scan itself also saw every page all-visible.
//  * Any insert, update or delete on a heap page clears its all-visible bit (in the same
//    critical section that changes the page, before the transaction can commit; an update
//    clears the bits of both pages).  Only VACUUM (or a frozen COPY into a new page) sets a bit
//    again, and setting one writes a WAL record whose LSN becomes the map page's LSN.  Pruning,
//    freezing and row locks change no tuple's visible content.
//  * So if, at the check, every bit is still set, every map page has its recorded LSN and the
//    relation has the same file (TRUNCATE, VACUUM FULL, CLUSTER and rewrites give a new one)
//    and number of blocks (an insert into a new page extends it), no heap page changed since
//    the load, except by a transaction still in progress (the bit is cleared an instant after
//    its tuple is placed): invisible to any snapshot taken before it commits, so to ours.
//    An all-visible page's tuples are visible to every snapshot in use, so the cached columns
//    serve every snapshot of this backend.
//  * Relations that skip WAL (temporary, unlogged, created or truncated in this transaction
//    under wal_level = minimal: setting a bit then moves no LSN), serializable transactions
//    (per-tuple conflict checks), hot standby snapshots and non-heap table AMs are never cached.
//  * A relcache invalidation of the relation (DROP, ALTER, VACUUM's and ANALYZE's statistics)
//    drops its entry, so a reused OID never meets an old entry.
// rndn.column_cache bounds the memory; the least recently used go first.

// The visibility map's layout (storage/visibilitymapdefs.h; the per-page arithmetic is private
// to visibilitymap.c): two bits per heap block, the all-visible bit the lower one.
constexpr int64 kVmMapBytes = BLCKSZ - MAXALIGN(SizeOfPageHeaderData);
constexpr int64 kVmBlocksPerPage = kVmMapBytes * (8 / BITS_PER_HEAPBLOCK);

// Reads the visibility map pages covering blocks [0, nblocks): true, with each page's LSN in
// *lsns, when every block's all-visible bit is set.
bool VisibilityMapAllVisible(Relation rel, BlockNumber nblocks, std::vector<XLogRecPtr> *lsns) {
    lsns->clear();
    const int64 need = ((int64)nblocks + kVmBlocksPerPage - 1) / kVmBlocksPerPage;
    if (need == 0) return true;
    const bool present = pg::PgCall([rel, need] {
        SMgrRelation smgr = RelationGetSmgr(rel);
        return smgrexists(smgr, VISIBILITYMAP_FORKNUM) && (int64)smgrnblocks(smgr, VISIBILITYMAP_FORKNUM) >= need;
    });
    if (!present) return false;
    lsns->resize((size_t)need);
    for (int64 p = 0; p < need; ++p) {
        const int64 first = p * kVmBlocksPerPage;
        const int64 count = std::min<int64>(kVmBlocksPerPage, (int64)nblocks - first);
        XLogRecPtr *lsn = &(*lsns)[(size_t)p];
        const bool all = pg::PgCall([rel, p, count, lsn] {
            Buffer buf = ReadBufferExtended(rel, VISIBILITYMAP_FORKNUM, (BlockNumber)p, RBM_NORMAL, nullptr);
            LockBuffer(buf, BUFFER_LOCK_SHARE);
            Page page = BufferGetPage(buf);
            *lsn = PageGetLSN(page);
            const uint8 *map = (const uint8 *)PageGetContents(page);
            bool ok = true;
            const int64 full = count / 4;  // bytes whose four blocks all count
            for (int64 i = 0; i < full && ok; ++i) ok = (map[i] & 0x55) == 0x55;
            for (int64 h = full * 4; h < count && ok; ++h)
                ok = ((map[h / 4] >> (BITS_PER_HEAPBLOCK * (h % 4))) & VISIBILITYMAP_ALL_VISIBLE) != 0;
            UnlockReleaseBuffer(buf);
            return ok;
        });
        if (!all) return false;
    }
    return true;
}

struct CachedRelation {
    RelFileNode node;
    BlockNumber nblocks = 0;
    std::vector<XLogRecPtr> vm_lsns;  // LSNs of the visibility map pages before the load
    int64 rows = 0;
    std::map<int, std::shared_ptr<hir::Vector>> columns;  // attnum -> column
    std::map<int, bool> non_ascii;                        // string columns with a byte >= 0x80
    int64 bytes = 0;
    uint64 last_use = 0;
};

std::unordered_map<Oid, CachedRelation> &Cache() {
    static auto *cache = new std::unordered_map<Oid, CachedRelation>();  // never destroyed
    return *cache;
}
uint64 g_cache_clock = 0;

int64 VectorBytes(const hir::Vector &v) {
    return v.length * hir::ElementSize(v.type.kind) + (int64)v.bytes.size() + (int64)v.offsets.size() * 8 +
           (int64)v.validity.size() * 8;
}

int64 CacheLimitBytes() { return (int64)g_settings.column_cache_mb << 20; }

void EvictUntil(int64 budget, Oid keep) {
    auto &cache = Cache();
    int64 total = 0;
    for (auto &e : cache) total += e.second.bytes;
    while (total > budget) {
        auto victim = cache.end();
        for (auto it = cache.begin(); it != cache.end(); ++it)
            if (it->first != keep && (victim == cache.end() || it->second.last_use < victim->second.last_use)) victim = it;
        if (victim == cache.end()) break;
        total -= victim->second.bytes;
        cache.erase(victim);
    }
}

bool CacheUsable(Relation rel, Snapshot snapshot) {
    return g_settings.column_cache_mb > 0 && RelationNeedsWAL(rel) &&
           rel->rd_tableam == GetHeapamTableAmRoutine() && IsMVCCSnapshot(snapshot) && !snapshot->takenDuringRecovery &&
           !IsolationIsSerializable();
}

// True when rel's file and size are the key's and its visibility map still says every block
// is all-visible, with the map pages' LSNs the key recorded (see above).  The same proof serves
// the shared cache: it holds for every snapshot in use in the database, whichever backend loaded.
bool KeyStillValid(Relation rel, const RelFileNode &node, BlockNumber nblocks_then, const std::vector<XLogRecPtr> &lsns) {
    if (!RelFileNodeEquals(node, rel->rd_node)) return false;
    const BlockNumber nblocks = pg::PgCall([rel] { return RelationGetNumberOfBlocks(rel); });
    if (nblocks != nblocks_then) return false;
    std::vector<XLogRecPtr> now;
    if (!VisibilityMapAllVisible(rel, nblocks, &now)) return false;
    return now == lsns;
}

Expected<bool> CacheStillValid(Relation rel, const CachedRelation &e) { return KeyStillValid(rel, e.node, e.nblocks, e.vm_lsns); }

// Relcache invalidation: the relation's entry goes (all entries for a cache reset).
void InvalidateCachedRelation(Datum, Oid relid) noexcept {
    if (relid == InvalidOid)
        Cache().clear();
    else
        Cache().erase(relid);
}

// Keeps columns loaded under `key` in this backend's own cache (added to the relation's entry
// when the key is the same), within rndn.column_cache.
void RememberLocally(Oid relid, const CacheKey &key, int64 rows, const std::map<int, std::shared_ptr<hir::Vector>> &columns,
                     const std::map<int, bool> &non_ascii) {
    int64 bytes = 0;
    for (auto &f : columns) bytes += VectorBytes(*f.second);
    if (bytes > CacheLimitBytes()) return;
    static bool callback_registered = false;
    if (!callback_registered) {
        pg::PgCall([] { CacheRegisterRelcacheCallback(InvalidateCachedRelation, (Datum)0); });
        callback_registered = true;
    }
    CachedRelation &e = Cache()[relid];
    if (!RelFileNodeEquals(e.node, key.node) || e.nblocks != key.nblocks || e.vm_lsns != key.vm_lsns) e = CachedRelation();
    e.node = key.node;
    e.nblocks = key.nblocks;
    e.vm_lsns = key.vm_lsns;
    e.rows = rows;
    for (auto &f : columns) {
        e.columns[f.first] = f.second;
        e.non_ascii[f.first] = non_ascii.at(f.first);
    }
    e.bytes = 0;
    for (auto &c : e.columns) e.bytes += VectorBytes(*c.second);
    e.last_use = ++g_cache_clock;
    EvictUntil(CacheLimitBytes(), relid);
    if (e.bytes > CacheLimitBytes()) Cache().erase(relid);
}

// Column `attnum` of rel is still there with this type and typmod (cached columns are only used
// then: an OID reused after a DROP meets a new file node anyway; this is a cheap second line).
bool ColumnTypeStill(Relation rel, int attnum, Oid type, int32 typmod) {
    TupleDesc desc = RelationGetDescr(rel);
    if (attnum < 1 || attnum > desc->natts) return false;
    Form_pg_attribute att = TupleDescAttr(desc, attnum - 1);
    return !att->attisdropped && att->atttypid == type && att->atttypmod == typmod;
}

Status NonAsciiGuard(const ScanRun &run, bool non_ascii) {
    if (run.ascii_guard && non_ascii) return Status::Unsupported("non-ASCII text where the program counts bytes");
    return Status::Ok();
}


// Loads relation `rr` (opened as `rel`) into run.registry.
Status LoadRelation(ScanRun &run, const pg::RelationRead &rr, Relation rel, Snapshot snapshot, MemoryContext tmp) {
        std::vector<std::string> names;
        std::vector<hir::Value> cols;
        for (int a : rr.attnums) names.push_back("a" + std::to_string(a));

        const bool cacheable = CacheUsable(rel, snapshot) && !KeepStoredForm();
        if (cacheable) {
            auto it = Cache().find(rr.relid);
            bool have_all = it != Cache().end();
            for (size_t k = 0; have_all && k < rr.attnums.size(); ++k) have_all = it->second.columns.count(rr.attnums[k]) > 0;
            if (have_all) {
                pg::PgCall([rel, snapshot] { PredicateLockRelation(rel, snapshot); });
                RNDN_ASSIGN_OR_RETURN(bool valid, CacheStillValid(rel, it->second));
                if (valid) {
                    CachedRelation &e = it->second;
                    e.last_use = ++g_cache_clock;
                    for (int a : rr.attnums) {
                        RNDN_RETURN_IF_ERROR(NonAsciiGuard(run, e.non_ascii[a]));
                        if (!run.alloc.Charge(VectorBytes(*e.columns[a]))) return MemoryError(run.alloc, "rndn.memory_limit exceeded");
                        cols.emplace_back(std::shared_ptr<const hir::Vector>(e.columns[a]));
                    }
                    run.rows_loaded += e.rows;
                    ++run.cached_relations;
                    CountScanRows(rel, e.rows, true);
                    return run.registry.AddTable(rr.name, std::move(names), std::move(cols));
                }
                Cache().erase(it);
            }
        }
        // The cache every backend shares (the same proof, checked here for this snapshot).
        const bool shared = cacheable && SharedCacheUsable();
        if (shared) {
            SharedHit hit;
            if (SharedLookup(MyDatabaseId, rr.relid, rr.attnums, &hit)) {
                struct UnpinGuard {
                    SharedHit &hit;
                    ~UnpinGuard() { SharedUnpin(hit); }
                } unpin_guard{hit};
                // The columns' types are still the relation's (an OID reused after a DROP
                // meets a new file node anyway; this is a cheap second line).
                bool valid = true;
                for (size_t k = 0; k < rr.attnums.size() && valid; ++k) {
                    Oid type;
                    int32 typmod;
                    bool na;
                    SharedColumnInfo(hit, k, &type, &typmod, &na);
                    valid = ColumnTypeStill(rel, rr.attnums[k], type, typmod);
                }
                if (valid) {
                    pg::PgCall([rel, snapshot] { PredicateLockRelation(rel, snapshot); });
                    valid = KeyStillValid(rel, hit.key.node, hit.key.nblocks, hit.key.vm_lsns);
                }
                if (valid) {
                    for (size_t k = 0; k < rr.attnums.size(); ++k) {
                        Oid type;
                        int32 typmod;
                        bool na;
                        SharedColumnInfo(hit, k, &type, &typmod, &na);
                        RNDN_RETURN_IF_ERROR(NonAsciiGuard(run, na));
                        std::shared_ptr<const hir::Vector> v = SharedVector(hit, k);
                        if (!run.alloc.Charge(VectorBytes(*v))) return MemoryError(run.alloc, "rndn.memory_limit exceeded");
                        cols.emplace_back(std::move(v));
                    }
                    run.rows_loaded += hit.rows;
                    ++run.cached_relations;
                    ++run.shared_relations;
                    CountScanRows(rel, hit.rows, true);
                    return run.registry.AddTable(rr.name, std::move(names), std::move(cols));
                }
                SharedUnpin(hit);
                SharedDropStale(MyDatabaseId, rr.relid, hit.key);
            } else {
                // Not in shared memory (a restart, an eviction): the columns' files, mapped in
                // place, when every file's key still holds and the types are the relation's.
                FileColumns fc;
                const auto key_holds = [rel, snapshot](const CacheKey &k) {
                    pg::PgCall([rel, snapshot] { PredicateLockRelation(rel, snapshot); });
                    return KeyStillValid(rel, k.node, k.nblocks, k.vm_lsns);
                };
                if (SharedMapFiles(MyDatabaseId, rr.relid, rr.attnums, key_holds, &fc)) {
                    bool types_hold = true;
                    for (size_t k = 0; k < rr.attnums.size() && types_hold; ++k)
                        types_hold = ColumnTypeStill(rel, rr.attnums[k], fc.types[k], fc.typmods[k]);
                    if (types_hold) {
                        std::map<int, std::shared_ptr<hir::Vector>> mapped;
                        std::map<int, bool> na;
                        for (size_t k = 0; k < rr.attnums.size(); ++k) {
                            RNDN_RETURN_IF_ERROR(NonAsciiGuard(run, fc.non_ascii[k]));
                            if (!run.alloc.Charge(VectorBytes(*fc.vecs[k]))) return MemoryError(run.alloc, "rndn.memory_limit exceeded");
                            cols.emplace_back(fc.vecs[k]);
                            mapped[rr.attnums[k]] = std::const_pointer_cast<hir::Vector>(fc.vecs[k]);
                            na[rr.attnums[k]] = fc.non_ascii[k];
                        }
                        // later queries of this backend: the backend's own cache (same proof)
                        RememberLocally(rr.relid, fc.key, fc.rows, mapped, na);
                        run.rows_loaded += fc.rows;
                        ++run.cached_relations;
                        ++run.file_relations;
                        CountScanRows(rel, fc.rows, true);
                        return run.registry.AddTable(rr.name, std::move(names), std::move(cols));
                    }
                    SharedForgetFiles(MyDatabaseId, rr.relid);
                }
            }
        }

        run.builders.clear();
        run.builders.resize(rr.attnums.size());
        int max_att = 0;
        // Capacity from the planner's row estimate (plus a margin): usually no regrowth.
        const double est = rel->rd_rel->reltuples;
        const int64_t expected = est > 0 ? (int64_t)(est * 1.02) + 16 : 0;
        for (size_t k = 0; k < rr.attnums.size(); ++k) {
            RNDN_RETURN_IF_ERROR(InitBuilder(run.builders[k], rel, rr.attnums[k], run.alloc, expected));
            max_att = std::max(max_att, rr.attnums[k]);
        }
        struct BuilderGuard {
            ScanRun &run;
            ~BuilderGuard() {
                for (ColumnBuilder &b : run.builders)
                    if (b.buf) run.alloc.Free(b.buf, b.cap * b.elem_size), b.buf = nullptr;
                run.builders.clear();
            }
        } builder_guard{run};
        int64 n = 0;
        std::vector<XLogRecPtr> lsns;
        const bool heap = rel->rd_tableam == GetHeapamTableAmRoutine();
        // The visibility map before the scan: what a later check compares with.
        std::vector<XLogRecPtr> vm_lsns;
        BlockNumber vm_nblocks = 0;
        bool vm_all_visible = false;
        if (heap && cacheable) {
            vm_nblocks = pg::PgCall([rel] { return RelationGetNumberOfBlocks(rel); });
            vm_all_visible = VisibilityMapAllVisible(rel, vm_nblocks, &vm_lsns);
        }
        if (heap) {
            RNDN_RETURN_IF_ERROR(ScanHeap(run, rel, snapshot, max_att, tmp, &lsns, &n));
            CountScanRows(rel, n, false);   // ScanHeap counted the scan; table AMs count both
        } else
            RNDN_RETURN_IF_ERROR(ScanTableAm(run, rel, snapshot, max_att, tmp, &n));
        pg::PgCall([tmp] { MemoryContextReset(tmp); });
        run.rows_loaded += n;
        std::map<int, std::shared_ptr<hir::Vector>> finished;
        std::map<int, bool> non_ascii;
        for (ColumnBuilder &b : run.builders) {
            const bool na = b.non_ascii;
            RNDN_ASSIGN_OR_RETURN(std::shared_ptr<hir::Vector> v, Finish(b, run.alloc));
            RNDN_RETURN_IF_ERROR(NonAsciiGuard(run, na));
            finished[b.attnum] = v;
            non_ascii[b.attnum] = na;
        }
        for (int a : rr.attnums) cols.emplace_back(std::shared_ptr<const hir::Vector>(finished[a]));
        RNDN_RETURN_IF_ERROR(run.registry.AddTable(rr.name, std::move(names), std::move(cols)));

        // Remember the columns when every page was all-visible, in the map before the scan and
        // on the page during it.
        bool all_visible = heap && cacheable && vm_all_visible && lsns.size() == (size_t)vm_nblocks;
        for (XLogRecPtr l : lsns) all_visible = all_visible && l != InvalidXLogRecPtr;
        if (all_visible) {
            bool published = false;
            if (shared) {
                CacheKey key;
                key.node = rel->rd_node;
                key.nblocks = vm_nblocks;
                key.vm_lsns = vm_lsns;
                std::vector<CacheColumn> out;
                TupleDesc desc = RelationGetDescr(rel);
                for (auto &f : finished) {
                    Form_pg_attribute att = TupleDescAttr(desc, f.first - 1);
                    out.push_back(CacheColumn{f.first, att->atttypid, att->atttypmod, non_ascii[f.first], f.second});
                }
                published = SharedPublish(MyDatabaseId, rr.relid, key, n, out);
            }
            if (!published) {
                CacheKey key;
                key.node = rel->rd_node;
                key.nblocks = vm_nblocks;
                key.vm_lsns = std::move(vm_lsns);
                RememberLocally(rr.relid, key, n, finished, non_ascii);
            }
        }
        return Status::Ok();
}

}  // namespace

bool ColumnsCachedHint(unsigned relid, const std::vector<int> &attnums) {
    if (g_settings.column_cache_mb <= 0 || attnums.empty() || IsolationIsSerializable()) return false;
    if (pg::PgCall([] { return RecoveryInProgress(); })) return false;
    Relation rel = pg::PgCall([relid] { return RelationIdGetRelation(relid); });
    if (rel == nullptr) return false;
    bool cached = false;
    if (RelationNeedsWAL(rel) && rel->rd_tableam == GetHeapamTableAmRoutine()) {
        // this backend's own cache
        auto it = Cache().find(relid);
        if (it != Cache().end()) {
            bool all = true;
            for (int a : attnums) all = all && it->second.columns.count(a) > 0;
            if (all) cached = KeyStillValid(rel, it->second.node, it->second.nblocks, it->second.vm_lsns);
        }
        // the shared cache, then its column files
        CacheKey key;
        if (!cached && SharedEntryKey(MyDatabaseId, relid, attnums, &key))
            cached = KeyStillValid(rel, key.node, key.nblocks, key.vm_lsns);
        std::vector<CacheKey> keys;
        if (!cached && SharedFileKeys(MyDatabaseId, relid, attnums, &keys)) {
            bool same = true;
            for (const CacheKey &k : keys) same = same && k == keys[0];
            cached = same && KeyStillValid(rel, keys[0].node, keys[0].nblocks, keys[0].vm_lsns);
        }
    }
    pg::PgCall([rel] { RelationClose(rel); });
    return cached;
}

Status LoadIntoSharedCache(Oid relid, const std::vector<int> &attnums, bool *cached) {
    *cached = false;
    if (!SharedCacheUsable()) return Status::Unsupported("no shared column cache");
    if (!pg::PgCall([relid] { return SearchSysCacheExists1(RELOID, ObjectIdGetDatum(relid)); })) return Status::Ok();
    Snapshot snapshot = pg::PgCall([] { return GetActiveSnapshot(); });
    // A relation whose pages are not all all-visible cannot be cached: not read at all.  Columns
    // the shared entry holds under a key that still holds are not read again.
    Relation rel = pg::PgCall([relid] { return table_open(relid, AccessShareLock); });
    bool usable = CacheUsable(rel, snapshot);
    if (usable) {
        const BlockNumber nblocks = pg::PgCall([rel] { return RelationGetNumberOfBlocks(rel); });
        std::vector<XLogRecPtr> lsns;
        usable = VisibilityMapAllVisible(rel, nblocks, &lsns);
    }
    std::vector<int> missing;
    for (int a : attnums) {
        CacheKey key;
        if (!usable || !SharedEntryKey(MyDatabaseId, relid, {a}, &key) || !KeyStillValid(rel, key.node, key.nblocks, key.vm_lsns))
            missing.push_back(a);
    }
    pg::PgCall([rel] { table_close(rel, AccessShareLock); });
    if (!usable) return Status::Unsupported("not every page is all-visible (VACUUM makes the relation cacheable)");
    if (!missing.empty()) {
        ScanRun run((int64_t)g_settings.memory_limit_mb << 20);
        pg::RelationRead rr;
        rr.relid = relid;
        rr.name = "r0";
        rr.attnums = missing;
        run.relations.push_back(rr);
        RNDN_RETURN_IF_ERROR(LoadRelationsUnsafe(run, snapshot));
    }
    CacheKey key;
    *cached = SharedEntryKey(MyDatabaseId, relid, attnums, &key);
    if (!*cached) return Status::Unsupported("the columns did not fit the shared cache");
    return Status::Ok();
}

// On a PostgreSQL ERROR (PgError) nothing here is closed or deleted: the abort that follows the
// re-raised ERROR releases the relation, its lock and the child memory context.  No destructor
// calls PostgreSQL.
Status LoadRelationsUnsafe(ScanRun &run, void *snapshot_ptr) {
    Snapshot snapshot = (Snapshot)snapshot_ptr;
    MemoryContext tmp = pg::PgCall([] { return AllocSetContextCreate(CurrentMemoryContext, "rndn loader", ALLOCSET_DEFAULT_SIZES); });
    if (g_settings.column_cache_mb <= 0) Cache().clear();
    // entries of relations dropped or rewritten since this backend last looked leave the shared cache
    if (g_settings.column_cache_mb > 0) SharedForgetDeadRelations();
    Status st;
    for (const pg::RelationRead &rr : run.relations) {
        const bool gone = g_settings.test_error_site == (int)pg::ErrorSite::LOAD_OPEN;
        Relation rel = pg::PgCall([&rr, gone] { return table_open(gone ? InvalidOid : rr.relid, AccessShareLock); });
        st = LoadRelation(run, rr, rel, snapshot, tmp);
        pg::PgCall([rel] { table_close(rel, AccessShareLock); });
        if (!st.ok()) break;
    }
    pg::PgCall([tmp] { MemoryContextDelete(tmp); });
    if (st.ok()) run.bytes_loaded = run.alloc.used();
    return st;
}

}  // namespace rndn::exec
