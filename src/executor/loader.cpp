// The columnar loader: reads relations through the table AM under the query's snapshot
// (visibility exactly as PostgreSQL's own scans see it) and deforms only the needed columns,
// chunk by chunk, into HorseIR vectors (fixed-width buffers from the HostAllocator, strings as
// offsets + bytes, validity bitmaps only when a NULL appears).
extern "C" {
#include "postgres.h"

#include "access/relation.h"
#include "access/table.h"
#include "access/tableam.h"
#include "catalog/pg_type.h"
#include "executor/tuptable.h"
#include "miscadmin.h"
#include "utils/date.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/snapshot.h"
}

#include <algorithm>
#include <cstring>
#include <new>

#include "executor/guc.h"
#include "executor/scan_run.h"

namespace rndn::exec {

bool InterruptRequested() { return QueryCancelPending || ProcDiePending; }

uint8_t *HostAllocator::Alloc(int64_t bytes, const char **why) noexcept {
    if (bytes < 0 || used_ + bytes > limit_) {
        *why = "rndn.memory_limit exceeded";
        return nullptr;
    }
    const size_t rounded = (size_t)((bytes + 63) / 64 * 64);
    void *p = std::aligned_alloc(64, rounded == 0 ? 64 : rounded);
    if (p == nullptr) {
        *why = "out of memory";
        return nullptr;
    }
    used_ += bytes;
    return (uint8_t *)p;
}

void HostAllocator::Free(uint8_t *p, int64_t bytes) noexcept {
    if (p == nullptr) return;
    std::free(p);
    used_ -= bytes;
}

bool HostAllocator::Charge(int64_t bytes) noexcept {
    used_ += bytes;
    return used_ <= limit_;
}

namespace {

Status MemoryError(const HostAllocator &a, const char *why) {
    return Status::OutOfMemory(std::string("rndn: ") + why + " while loading columns (" +
                               std::to_string(a.used() >> 20) + " MB in use, limit " +
                               std::to_string(a.limit() >> 20) + " MB); raise rndn.memory_limit or set rndn.enabled = off");
}

int NumericTypmodScale(int32 typmod) {
    const int32 tm = typmod - VARHDRSZ;
    return (((tm & 0x7ff) ^ 1024) - 1024);
}

// PostgreSQL's numeric on-disk form -> integer scaled by 10^scale.  False for NaN/Infinity
// or digits beyond the scale (cannot happen in a numeric(p,s) column).
bool NumericToScaled(Datum d, int scale, __int128 *out) {
    struct varlena *v = pg_detoast_datum_packed((struct varlena *)DatumGetPointer(d));
    const uint8_t *data = (const uint8_t *)VARDATA_ANY(v);
    const int64 size = VARSIZE_ANY_EXHDR(v);
    uint16 header;
    std::memcpy(&header, data, 2);
    bool negative;
    int weight;
    const uint8_t *digits;
    int64 ndigits;
    if ((header & 0xC000) == 0xC000) return false;  // NaN, +/-Infinity
    if (header & 0x8000) {                            // short format
        negative = (header & 0x2000) != 0;
        weight = (header & 0x0040) ? (int)(~0x003F | (header & 0x003F)) : (int)(header & 0x003F);
        digits = data + 2;
        ndigits = (size - 2) / 2;
    } else {
        negative = (header & 0xC000) == 0x4000;
        int16 w;
        std::memcpy(&w, data + 2, 2);
        weight = w;
        digits = data + 4;
        ndigits = (size - 4) / 2;
    }
    static const struct Pow10Table {
        __int128 p[39];
        Pow10Table() {
            p[0] = 1;
            for (int k = 1; k < 39; ++k) p[k] = p[k - 1] * 10;
        }
    } kPow;
    __int128 acc = 0;
    for (int64 i = 0; i < ndigits; ++i) {
        int16 dig;
        std::memcpy(&dig, digits + 2 * i, 2);
        const int e = 4 * (weight - (int)i) + scale;  // power of ten of this base-10000 digit
        if (e >= 0) {
            if (e > 38) return false;
            acc += (__int128)dig * kPow.p[e];
        } else {
            if (e < -3) {
                if (dig != 0) return false;
                continue;
            }
            static const int kSmall[] = {1, 10, 100, 1000};
            if (dig % kSmall[-e] != 0) return false;
            acc += dig / kSmall[-e];
        }
    }
    if ((void *)v != DatumGetPointer(d)) pfree(v);
    *out = negative ? -acc : acc;
    return true;
}

Status Grow(ColumnBuilder &b, HostAllocator &alloc, int64_t want);

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
        case NUMERICOID:
            b.scale = NumericTypmodScale(att->atttypmod);
            b.hir_type = hir::Type::Decimal(hir::TypeKind::DEC128, b.scale);
            break;
        case TEXTOID:
        case VARCHAROID:
        case BPCHAROID: b.hir_type = hir::TypeKind::STR; break;
        default: return Status::Internal("loader: unexpected column type " + std::to_string(att->atttypid));
    }
    b.elem_size = hir::ElementSize(b.hir_type.kind);
    b.vec = std::make_shared<hir::Vector>();
    b.vec->type = b.hir_type;
    if (b.elem_size == 0) {
        b.vec->offsets.reserve((size_t)expected_rows + 1);
        b.vec->offsets.push_back(0);
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
    return Status::Ok();
}

void MarkNull(ColumnBuilder &b, int64_t i) {
    std::vector<uint64_t> &v = b.vec->validity;
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
        case FLOAT8OID: *(float8 *)slot = DatumGetFloat8(d); break;
        case NUMERICOID: {
            __int128 v;
            if (!NumericToScaled(d, b.scale, &v)) return false;
            std::memcpy(slot, &v, sizeof v);
            break;
        }
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
            MarkNull(b, i);
        } else {
            switch (b.type) {
                case BOOLOID: *slot = DatumGetBool(d) ? 1 : 0; break;
                case INT2OID: *(int16 *)slot = DatumGetInt16(d); break;
                case INT4OID: *(int32 *)slot = DatumGetInt32(d); break;
                case INT8OID: *(int64 *)slot = DatumGetInt64(d); break;
                case FLOAT4OID: *(float4 *)slot = DatumGetFloat4(d); break;
                case FLOAT8OID: *(float8 *)slot = DatumGetFloat8(d); break;
                case DATEOID: *(int32 *)slot = DatumGetDateADT(d); break;
                case NUMERICOID: {
                    __int128 v;
                    if (!NumericToScaled(d, b.scale, &v))
                        return Status::UserError(sqlstate::kFeatureNotSupported,
                                                 "rndn cannot load numeric NaN or Infinity; set rndn.enabled = off");
                    std::memcpy(slot, &v, sizeof v);
                    break;
                }
                default: return Status::Internal("loader: unexpected fixed-width type");
            }
        }
        b.length = i + 1;
        return Status::Ok();
    }
    // text, varchar, bpchar (blank padding stripped: bpchar semantics ignore it)
    hir::Vector &v = *b.vec;
    if (isnull) {
        v.offsets.push_back((int64_t)v.bytes.size());
        MarkNull(b, i);
    } else {
        struct varlena *t = pg_detoast_datum_packed((struct varlena *)DatumGetPointer(d));
        const char *p = VARDATA_ANY(t);
        size_t n = VARSIZE_ANY_EXHDR(t);
        if (b.type == BPCHAROID)
            while (n > 0 && p[n - 1] == ' ') --n;
        if (b.ascii_only)
            for (size_t k = 0; k < n; ++k)
                if ((unsigned char)p[k] >= 0x80) return Status::Unsupported("non-ASCII text where the program counts bytes");
        if (!alloc.Charge((int64_t)n + 8)) return MemoryError(alloc, "rndn.memory_limit exceeded");
        v.bytes.append(p, n);
        v.offsets.push_back((int64_t)v.bytes.size());
        if ((void *)t != DatumGetPointer(d)) pfree(t);
    }
    b.length = i + 1;
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
        HostAllocator *a = &alloc;
        const int64_t bytes = b.cap * b.elem_size;
        uint8_t *buf = b.buf;
        v->data = std::shared_ptr<uint8_t[]>(buf, [a, bytes](uint8_t *p) { a->Free(p, bytes); });
        b.buf = nullptr;
        b.cap = 0;
    }
    b.vec.reset();
    return v;
}

}  // namespace

Status LoadRelationsUnsafe(ScanRun &run, void *snapshot_ptr) {
    Snapshot snapshot = (Snapshot)snapshot_ptr;
    const int chunk = std::max(1, g_settings.chunk_rows);
    MemoryContext tmp = AllocSetContextCreate(CurrentMemoryContext, "rndn loader", ALLOCSET_DEFAULT_SIZES);
    MemoryContext old = CurrentMemoryContext;
    for (const plan::RelationRead &rr : run.relations) {
        Relation rel = table_open(rr.relid, AccessShareLock);
        run.builders.clear();
        run.builders.resize(rr.attnums.size());
        int max_att = 0;
        Status st;
        for (size_t k = 0; k < rr.attnums.size() && st.ok(); ++k) {
            // Capacity from the planner's row estimate (plus a margin): usually no regrowth.
            const double est = rel->rd_rel->reltuples;
            const int64_t expected = est > 0 ? (int64_t)(est * 1.02) + 16 : 0;
            st = InitBuilder(run.builders[k], rel, rr.attnums[k], run.alloc, expected);
            run.builders[k].ascii_only = run.ascii_guard;
            max_att = std::max(max_att, rr.attnums[k]);
        }
        if (!st.ok()) {
            table_close(rel, AccessShareLock);
            MemoryContextDelete(tmp);
            return st;
        }
        TupleTableSlot *slot = table_slot_create(rel, nullptr);
        // No synchronized scan: rows must come in heap order (index order is reproduced by a
        // stable sort of that order).
        TableScanDesc scan = table_beginscan_strat(rel, snapshot, 0, nullptr, true, false);
        int64 n = 0;
        while (st.ok() && table_scan_getnextslot(scan, ForwardScanDirection, slot)) {
            slot_getsomeattrs(slot, max_att);
            MemoryContextSwitchTo(tmp);
            const Datum *values = slot->tts_values;
            const bool *nulls = slot->tts_isnull;
            for (ColumnBuilder &b : run.builders) {
                if (AppendFast(b, values[b.attnum - 1], nulls[b.attnum - 1])) continue;
                st = Append(b, run.alloc, values[b.attnum - 1], nulls[b.attnum - 1]);
                if (!st.ok()) break;
            }
            MemoryContextSwitchTo(old);
            if (++n % chunk == 0) {
                MemoryContextReset(tmp);
                if (InterruptRequested()) st = Status::Cancelled();
            }
        }
        table_endscan(scan);
        ExecDropSingleTupleTableSlot(slot);
        table_close(rel, AccessShareLock);
        MemoryContextReset(tmp);
        if (!st.ok()) {
            MemoryContextDelete(tmp);
            for (ColumnBuilder &b : run.builders) run.alloc.Free(b.buf, b.cap * b.elem_size), b.buf = nullptr;
            return st;
        }
        run.rows_loaded += n;
        std::vector<std::string> names;
        std::vector<hir::Value> cols;
        for (ColumnBuilder &b : run.builders) {
            auto v = Finish(b, run.alloc);
            if (!v.ok()) {
                MemoryContextDelete(tmp);
                return v.status();
            }
            names.push_back("a" + std::to_string(b.attnum));
            cols.emplace_back(std::move(v.value()));
        }
        run.builders.clear();
        Status add = run.registry.AddTable(rr.name, std::move(names), std::move(cols));
        if (!add.ok()) {
            MemoryContextDelete(tmp);
            return add;
        }
    }
    MemoryContextDelete(tmp);
    run.bytes_loaded = run.alloc.used();
    return Status::Ok();
}

}  // namespace rndn::exec
