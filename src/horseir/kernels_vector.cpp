// Whole-vector kernels: selection, gathering, sorting, grouping, joins, reductions.

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "horseir/kernel_util.h"
#include "horseir/payload_pool.h"
#include "horseir/keys_hash.h"
#include "horseir/parallel.h"
#include "horseir/radix_order.h"

namespace rndn::hir {

// ---------------------------------------------------------------------------------------------
// Shared helpers

void CopyRange(const Vector &src, int64_t from, int64_t n, Vector &dst, int64_t at) {
    int sz = ElementSize(src.type.kind);
    std::memcpy(dst.data.get() + at * sz, src.data.get() + from * sz, static_cast<size_t>(n * sz));
}

int CompareElements(const Vector &a, int64_t i, const Vector &b, int64_t j) {
    bool va = a.IsValid(i), vb = b.IsValid(j);
    if (!va || !vb) return va == vb ? 0 : (va ? -1 : 1);
    if (IsString(a.type.kind)) {
        int r = a.StringAt(i).compare(b.StringAt(j));
        return r < 0 ? -1 : r > 0;
    }
    return VisitFixed(a.type.kind, [&](auto t) {
        using T = decltype(t);
        return SqlCompare(a.Data<T>()[i], b.Data<T>()[j]);
    });
}

namespace {
// One string's bytes: short ones (flags, codes) without a library call.
inline void CopyStringBytes(char *dst, const char *src, int64_t len) {
    if (len <= 8) {
        for (int64_t j = 0; j < len; ++j) dst[j] = src[j];
    } else {
        std::memcpy(dst, src, static_cast<size_t>(len));
    }
}

// The strings of v at the rows for_each_row(f) passes to f, in that order, as a new vector
// (sized in a first pass, copied in a second; no validity).
template <class ForEachRow>
Expected<std::shared_ptr<Vector>> CollectStrings(const Vector &v, ForEachRow for_each_row) {
    int64_t count = 0, bytes = 0;
    const int64_t *in_off = v.offsets.data();
    const char *in = v.bytes.data();
    for_each_row([&](int64_t r) {
        PollCancel(count);
        ++count;
        bytes += in_off[r + 1] - in_off[r];
    });
    // pooled, not zero-filled (every byte and offset is written below)
    RNDN_ASSIGN_OR_RETURN(StringPayload p, AllocStrings(count, bytes));
    char *dst = p.Chars();
    int64_t *off = p.Offsets();
    int64_t k = 0, pos = 0;
    off[0] = 0;
    for_each_row([&](int64_t r) {
        PollCancel(k);
        const int64_t b = in_off[r], len = in_off[r + 1] - b;
        CopyStringBytes(dst + pos, in + b, len);
        pos += len;
        off[++k] = pos;
    });
    RNDN_ASSIGN_OR_RETURN(auto out, MakeVector(v.type, 0));
    FinishStrings(*out, std::move(p), count, bytes);
    return out;
}
}  // namespace

// v at the rows idx[0..n), in chunks on every core for long index vectors (parallel.h; chunks
// are multiples of 64 rows, so each writes whole words of the validity bitmap).  An index out of
// range is an error naming the first such index in order.
Expected<std::shared_ptr<const Vector>> Gather(const Vector &v, const int64_t *idx, int64_t n) {
    const RowChunks rc = ChunksOf(n);
    PoolVector<int64_t> bad(static_cast<size_t>(rc.count), -1), bytes(static_cast<size_t>(rc.count) + 1, 0);
    const bool str = IsString(v.type.kind);
    const int64_t *in_off = str ? v.offsets.data() : nullptr;
    ForChunks(rc, [&](int64_t c, int64_t lo, int64_t hi) {
        int64_t b = 0;
        for (int64_t i = lo; i < hi; ++i) {
            PollCancel(i);
            if (idx[i] < 0 || idx[i] >= v.length) {
                bad[static_cast<size_t>(c)] = i;
                return;
            }
            if (str) b += in_off[idx[i] + 1] - in_off[idx[i]];
        }
        bytes[static_cast<size_t>(c) + 1] = b;
    });
    for (int64_t c = 0; c < rc.count; ++c)
        if (const int64_t i = bad[static_cast<size_t>(c)]; i >= 0)
            return ShapeError("index " + std::to_string(idx[i]) + " out of range for a vector of length " + std::to_string(v.length));
    std::shared_ptr<Vector> out;
    if (str) {
        for (int64_t c = 0; c < rc.count; ++c) bytes[static_cast<size_t>(c) + 1] += bytes[static_cast<size_t>(c)];
        const int64_t total = bytes[static_cast<size_t>(rc.count)];
        // pooled, not zero-filled (every byte and offset is written below)
        RNDN_ASSIGN_OR_RETURN(StringPayload p, AllocStrings(n, total));
        char *dst = p.Chars();
        int64_t *off = p.Offsets();
        const char *in = v.bytes.data();
        off[0] = 0;
        ForChunks(rc, [&](int64_t c, int64_t lo, int64_t hi) {
            int64_t pos = bytes[static_cast<size_t>(c)];
            for (int64_t i = lo; i < hi; ++i) {
                PollCancel(i);
                const int64_t b = in_off[idx[i]], len = in_off[idx[i] + 1] - b;
                CopyStringBytes(dst + pos, in + b, len);
                pos += len;
                off[i + 1] = pos;
            }
        });
        RNDN_ASSIGN_OR_RETURN(out, MakeVector(v.type, 0));
        FinishStrings(*out, std::move(p), n, total);
    } else {
        RNDN_ASSIGN_OR_RETURN(out, MakeVectorUninit(v.type, n));
        VisitFixed(v.type.kind, [&](auto t) {
            using T = decltype(t);
            const T *in = v.Data<T>();
            T *o = out->template Data<T>();
            ForChunks(rc, [&](int64_t, int64_t lo, int64_t hi) {
                for (int64_t i = lo; i < hi; ++i) PollCancel(i), o[i] = in[idx[i]];
            });
            return 0;
        });
    }
    if (!v.elem_scale.empty()) {
        out->elem_scale.resize(static_cast<size_t>(n));
        for (int64_t i = 0; i < n; ++i) PollCancel(i), out->elem_scale[static_cast<size_t>(i)] = v.elem_scale[static_cast<size_t>(idx[i])];
    }
    out->scale_max = v.scale_max;
    if (v.HasNulls()) {
        out->EnsureValidity();
        ForChunks(rc, [&](int64_t, int64_t lo, int64_t hi) {
            for (int64_t i = lo; i < hi; ++i)
                if (PollCancel(i), !v.IsValid(idx[i])) out->SetNull(i);
        });
    }
    return std::shared_ptr<const Vector>(out);
}

namespace {

// Dense ranks of integer-like keys over a small range (at most 4n + 4096 values), by counting
// in O(n + range); false (rank untouched) for other keys.  NULLs rank above every value.
bool CountingRank(const Vector &v, PoolVector<int64_t> &rank, int64_t *num_ranks) {
    const int64_t n = v.length;
    const bool nulls = v.HasNulls();
    if (IsString(v.type.kind) || IsFloat(v.type.kind) || v.type.kind == TypeKind::DEC128 || n == 0) return false;
    rank.resize(static_cast<size_t>(n));
    return VisitFixed(v.type.kind, [&](auto t) -> bool {
        using T = decltype(t);
        if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, __int128> || kIsInterval<T>) {
            return false;
        } else {
            const T *x = v.Data<T>();
            int64_t lo = INT64_MAX, hi = INT64_MIN;
            for (int64_t i = 0; i < n; ++i) {
                PollCancel(i);
                if (nulls && !v.IsValid(i)) continue;
                lo = std::min<int64_t>(lo, static_cast<int64_t>(x[i]));
                hi = std::max<int64_t>(hi, static_cast<int64_t>(x[i]));
            }
            if (lo > hi) lo = hi = 0;  // all NULL
            if (static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo) > static_cast<uint64_t>(4 * n + 4096)) return false;
            size_t range = static_cast<size_t>(hi - lo) + 1;
            PoolVector<int64_t> map(range + 1, 0);  // last slot: NULL
            for (int64_t i = 0; i < n; ++i) {
                PollCancel(i);
                if (nulls && !v.IsValid(i)) map[range] = 1;
                else map[static_cast<size_t>(static_cast<int64_t>(x[i]) - lo)] = 1;
            }
            int64_t r = 0;
            for (auto &m : map) {
                PollCancel(r);
                int64_t present = m;
                m = r;
                r += present;
            }
            *num_ranks = r;
            for (int64_t i = 0; i < n; ++i)
                PollCancel(i), rank[static_cast<size_t>(i)] = (nulls && !v.IsValid(i)) ? map[range] : map[static_cast<size_t>(static_cast<int64_t>(x[i]) - lo)];
            return true;
        }
    });
}

// Dense ranks (0..k-1) of the elements of v in ascending order; NULLs rank above every value
// (all NULLs share one rank).  NaN ranks above all other floats, like PostgreSQL.
PoolVector<int64_t> DenseRank(const Vector &v, int64_t *num_ranks) {
    int64_t n = v.length;
    PoolVector<int64_t> order;  // filled only by the sorting paths
    PoolVector<int64_t> rank(static_cast<size_t>(n));
    auto assign = [&](auto same) {
        int64_t r = -1;
        for (int64_t k = 0; k < n; ++k) {
            PollCancel(k);
            if (k == 0 || !same(order[static_cast<size_t>(k - 1)], order[static_cast<size_t>(k)])) ++r;
            rank[static_cast<size_t>(order[static_cast<size_t>(k)])] = r;
        }
        *num_ranks = r + 1;
    };
    bool nulls = v.HasNulls();
    // Integer-like keys over a small range: counting, O(n + range).
    if (CountingRank(v, rank, num_ranks)) return rank;
    if (IsString(v.type.kind)) {
        // Short strings (at most 6 bytes, like char(1) flags): pack each into a non-negative
        // integer whose order is the strings' byte order (bytes big-endian, then the length),
        // and rank those integers -- by counting when their range is small.
        size_t longest = 0;
        for (int64_t i = 0; i < n && longest <= 6; ++i) longest = std::max(longest, v.StringAt(i).size());
        if (longest <= 6 && n > 0) {
            auto keys = MakeVectorUninit(TypeKind::I64, n);
            if (keys.ok()) {
                int64_t *k = keys.value()->Data<int64_t>();
                for (int64_t i = 0; i < n; ++i) {
                    PollCancel(i);
                    const std::string_view sv = v.StringAt(i);
                    uint64_t key = 0;
                    for (size_t b = 0; b < longest; ++b) key = (key << 8) | (b < sv.size() ? static_cast<unsigned char>(sv[b]) : 0u);
                    k[i] = static_cast<int64_t>((key << 8) | sv.size());
                }
                if (nulls) keys.value()->validity = v.validity;
                return DenseRank(*keys.value(), num_ranks);
            }
        }
        // Hash the rows to provisional ids in order of first appearance (O(n)), then sort only
        // the distinct strings (byte order, as std::string_view compares) to turn ids into ranks.
        // The table is flat (open addressing over ids): no allocation per entry, so building it
        // and freeing it (also when a cancel unwinds) cost one pass, not millions of nodes.
        size_t cap = 16;
        while (cap < 2 * static_cast<size_t>(n)) cap <<= 1;
        PoolVector<int64_t> slots(cap, -1);
        const std::hash<std::string_view> hash;
        std::vector<std::string_view> distinct;
        bool any_null = false;
        for (int64_t i = 0; i < n; ++i) {
            PollCancel(i);
            if (nulls && !v.IsValid(i)) {
                any_null = true;
                rank[static_cast<size_t>(i)] = -1;
                continue;
            }
            const std::string_view sv = v.StringAt(i);
            size_t p = hash(sv) & (cap - 1);
            int64_t id;
            while (true) {
                id = slots[p];
                if (id < 0) {
                    id = static_cast<int64_t>(distinct.size());
                    slots[p] = id;
                    distinct.push_back(sv);
                    break;
                }
                if (distinct[static_cast<size_t>(id)] == sv) break;
                p = (p + 1) & (cap - 1);
            }
            rank[static_cast<size_t>(i)] = id;
        }
        PoolVector<int64_t>().swap(slots);
        PoolVector<int64_t> by_value(distinct.size());
        std::iota(by_value.begin(), by_value.end(), 0);
        CancelTicker ticker;
        std::sort(by_value.begin(), by_value.end(), [&](int64_t a, int64_t b) {
            ticker.Tick();
            return distinct[static_cast<size_t>(a)] < distinct[static_cast<size_t>(b)];
        });
        PoolVector<int64_t> id_rank(distinct.size());
        for (size_t r = 0; r < by_value.size(); ++r) id_rank[static_cast<size_t>(by_value[r])] = static_cast<int64_t>(r);
        const int64_t null_rank = static_cast<int64_t>(distinct.size());
        for (int64_t i = 0; i < n; ++i) {
            PollCancel(i);
            int64_t &x = rank[static_cast<size_t>(i)];
            x = x < 0 ? null_rank : id_rank[static_cast<size_t>(x)];
        }
        *num_ranks = null_rank + (any_null ? 1 : 0);
        return rank;
    }
    // Integer-like keys over a wide range and floats: order-preserving 64-bit keys sorted by
    // radix (NULLs apart, ranked above every value), ranks assigned along that order.
    const bool radix_keys = VisitFixed(v.type.kind, [&](auto t) -> bool {
        using T = decltype(t);
        if constexpr (std::is_same_v<T, __int128> || kIsInterval<T>) {
            return false;
        } else {
            const T *x = v.Data<T>();
            PoolVector<int64_t> rows;  // the non-NULL rows, when there are NULLs
            if (nulls)
                for (int64_t i = 0; i < n; ++i)
                    if (PollCancel(i), v.IsValid(i)) rows.push_back(i);
            const int64_t m = nulls ? static_cast<int64_t>(rows.size()) : n;
            auto row_at = [&](int64_t j) { return nulls ? rows[static_cast<size_t>(j)] : j; };
            PoolVector<uint64_t> key(static_cast<size_t>(m));
            for (int64_t j = 0; j < m; ++j) {
                PollCancel(j);
                const T value = x[row_at(j)];
                if constexpr (std::is_floating_point_v<T>) key[static_cast<size_t>(j)] = radix::OrderKeyDouble(static_cast<double>(value));
                else if constexpr (std::is_signed_v<T>) key[static_cast<size_t>(j)] = radix::OrderKeySigned(static_cast<int64_t>(value));
                else key[static_cast<size_t>(j)] = static_cast<uint64_t>(value);
            }
            const std::vector<int64_t> by_key = radix::StableOrder(key.data(), m);
            int64_t r = -1;
            for (int64_t j = 0; j < m; ++j) {
                PollCancel(j);
                const size_t at = static_cast<size_t>(by_key[static_cast<size_t>(j)]);
                if (j == 0 || key[at] != key[static_cast<size_t>(by_key[static_cast<size_t>(j - 1)])]) ++r;
                rank[static_cast<size_t>(row_at(static_cast<int64_t>(at)))] = r;
            }
            if (m < n)
                for (int64_t i = 0; i < n; ++i)
                    if (PollCancel(i), !v.IsValid(i)) rank[static_cast<size_t>(i)] = r + 1;
            *num_ranks = r + 1 + (m < n ? 1 : 0);
            return true;
        }
    });
    if (radix_keys) return rank;
    VisitFixed(v.type.kind, [&](auto t) {
        using T = decltype(t);
        const T *x = v.Data<T>();
        CancelTicker ticker;
        auto less = [&](int64_t a, int64_t b) {
            ticker.Tick();
            if (nulls) {
                bool va = v.IsValid(a), vb = v.IsValid(b);
                if (!va || !vb) return va && !vb;
            }
            if constexpr (std::is_floating_point_v<T>) {
                bool na = x[a] != x[a], nb = x[b] != x[b];
                if (na || nb) return !na && nb;
            }
            return x[a] < x[b];
        };
        order.resize(static_cast<size_t>(n));
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(), less);
        assign([&](int64_t a, int64_t b) { return !less(a, b) && !less(b, a); });
        return 0;
    });
    return rank;
}

// Dense ids for tuples of ranks (lexicographic), ascending; returns the id count.
int64_t CombineRanks(const std::vector<PoolVector<int64_t>> &ranks, int64_t n, PoolVector<int64_t> &ids) {
    if (ranks.size() == 1) {
        ids = ranks[0];
        int64_t m = 0;
        for (size_t i = 0; i < ids.size(); ++i) {
            PollCancel(static_cast<int64_t>(i));
            m = std::max(m, ids[i] + 1);
        }
        return m;
    }
    // Mixed-radix combination when the product of the rank counts fits: one i64 key per row,
    // ranked like any integer column (ascending tuple order is preserved).
    {
        unsigned __int128 product = 1;
        PoolVector<int64_t> counts;
        for (const auto &r : ranks) {
            int64_t c = 1;
            for (size_t i = 0; i < r.size(); ++i) {
                PollCancel(static_cast<int64_t>(i));
                c = std::max(c, r[i] + 1);
            }
            counts.push_back(c);
            product *= static_cast<unsigned __int128>(c);
        }
        if (product < (static_cast<unsigned __int128>(1) << 62)) {
            auto key = MakeVectorUninit(TypeKind::I64, n);
            if (key.ok()) {
                int64_t *k = key.value()->Data<int64_t>();
                for (int64_t i = 0; i < n; ++i) k[i] = 0;
                for (size_t c = 0; c < ranks.size(); ++c)
                    for (int64_t i = 0; i < n; ++i) {
                        PollCancel(i);
                        k[i] = k[i] * counts[c] + ranks[c][static_cast<size_t>(i)];
                    }
                int64_t m;
                ids = DenseRank(*key.value(), &m);
                return m;
            }
        }
    }
    PoolVector<int64_t> order(static_cast<size_t>(n));
    std::iota(order.begin(), order.end(), 0);
    CancelTicker ticker;
    auto less = [&](int64_t a, int64_t b) {
        ticker.Tick();
        for (const auto &r : ranks) {
            if (r[static_cast<size_t>(a)] != r[static_cast<size_t>(b)]) return r[static_cast<size_t>(a)] < r[static_cast<size_t>(b)];
        }
        return false;
    };
    std::stable_sort(order.begin(), order.end(), less);
    ids.assign(static_cast<size_t>(n), 0);
    int64_t id = -1;
    for (int64_t k = 0; k < n; ++k) {
        PollCancel(k);
        if (k == 0 || less(order[static_cast<size_t>(k - 1)], order[static_cast<size_t>(k)])) ++id;
        ids[static_cast<size_t>(order[static_cast<size_t>(k)])] = id;
    }
    return id + 1;
}

// Key columns of a vector or a list of vectors.
Status KeyColumns(const Value &v, const char *fn, std::vector<std::shared_ptr<const Vector>> &cols) {
    if (v.is_vector()) {
        cols.push_back(v.vector_ptr());
        return Status::Ok();
    }
    if (v.kind() == ValueKind::LIST) {
        for (const auto &c : v.list().cells) {
            if (!c.is_vector()) return TypeError(std::string("@") + fn + ": key columns must be vectors");
            cols.push_back(c.vector_ptr());
        }
        if (cols.empty()) return ShapeError(std::string("@") + fn + ": no key columns");
        for (const auto &c : cols)
            if (c->length != cols[0]->length) return ShapeError(std::string("@") + fn + ": key columns differ in length");
        return Status::Ok();
    }
    return TypeError(std::string("@") + fn + ": expects a vector or a list of vectors");
}


// a and b converted to their common type (str for str/sym, the widest for numbers, dec128 at
// the larger scale for decimals), the type both key paths compare in.
Status CommonKeys(std::shared_ptr<const Vector> &a, std::shared_ptr<const Vector> &b, const char *fn) {
    Type ct = a->type;
    bool strs = IsString(a->type.kind) && IsString(b->type.kind);
    if (strs) ct = Type(TypeKind::STR);
    else if (a->type != b->type) {
        if (!(IsReal(a->type.kind) && IsReal(b->type.kind))) return TypeError(std::string("@") + fn + ": keys are not comparable");
        ct = WidestType(a->type, b->type);
        if (IsDecimal(ct.kind)) {
            int sa = IsDecimal(a->type.kind) ? (a->type.scale < 0 ? a->scale_max : a->type.scale) : 0;
            int sb = IsDecimal(b->type.kind) ? (b->type.scale < 0 ? b->scale_max : b->type.scale) : 0;
            ct = Type::Decimal(TypeKind::DEC128, std::max(sa, sb));
        }
    }
    RNDN_ASSIGN_OR_RETURN(a, As(a, ct));
    RNDN_ASSIGN_OR_RETURN(b, As(b, ct));
    return Status::Ok();
}

// Ranks of a and b on one common scale (values equal across a and b get equal ranks).
Status JointRanks(std::shared_ptr<const Vector> a, std::shared_ptr<const Vector> b, PoolVector<int64_t> &ra, PoolVector<int64_t> &rb,
                  int64_t *count, const char *fn) {
    RNDN_RETURN_IF_ERROR(CommonKeys(a, b, fn));
    const Type ct = a->type;
    // concatenate
    std::shared_ptr<Vector> both;
    int64_t na = a->length, nb = b->length;
    if (IsString(ct.kind)) {
        RNDN_ASSIGN_OR_RETURN(both, MakeVector(ct, 0));
        for (int64_t i = 0; i < na; ++i) {
            PollCancel(i);
            both->AppendString(a->StringAt(i));
        }
        for (int64_t i = 0; i < nb; ++i) {
            PollCancel(i);
            both->AppendString(b->StringAt(i));
        }
    } else {
        RNDN_ASSIGN_OR_RETURN(both, MakeVector(ct, na + nb));
        CopyRange(*a, 0, na, *both, 0);
        CopyRange(*b, 0, nb, *both, na);
    }
    if (a->HasNulls() || b->HasNulls()) {
        for (int64_t i = 0; i < na; ++i)
            if (!a->IsValid(i)) both->SetNull(i);
        for (int64_t i = 0; i < nb; ++i)
            if (!b->IsValid(i)) both->SetNull(na + i);
    }
    PoolVector<int64_t> r = DenseRank(*both, count);
    PollCancelNow();
    ra.assign(r.begin(), r.begin() + na);
    rb.assign(r.begin() + na, r.end());
    // NULL keys get rank -1 (never equal to anything)
    for (int64_t i = 0; i < na; ++i)
        if (!a->IsValid(i)) ra[static_cast<size_t>(i)] = -1;
    for (int64_t i = 0; i < nb; ++i)
        if (!b->IsValid(i)) rb[static_cast<size_t>(i)] = -1;
    return Status::Ok();
}

Expected<std::shared_ptr<Vector>> I64FromVector(const PoolVector<int64_t> &v) {
    RNDN_ASSIGN_OR_RETURN(auto out, MakeVector(TypeKind::I64, static_cast<int64_t>(v.size())));
    if (!v.empty()) std::memcpy(out->Data<int64_t>(), v.data(), v.size() * sizeof(int64_t));
    return out;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// where / compress / index / index_a

Expected<Value> KWhere(KernelCtx &, const std::vector<Value> &args) {
    RNDN_RETURN_IF_ERROR(NeedVector(args[0], "where", 0));
    const Vector &m = args[0].vector();
    if (m.type.kind != TypeKind::BOOL) return TypeError("@where: expects a bool vector");
    const uint8_t *x = m.Data<uint8_t>();
    int64_t count = 0;
    for (int64_t i = 0; i < m.length; ++i) count += (x[i] != 0) & m.IsValid(i);
    RNDN_ASSIGN_OR_RETURN(auto out, MakeVector(TypeKind::I64, count));
    int64_t *o = out->Data<int64_t>();
    int64_t k = 0;
    for (int64_t i = 0; i < m.length; ++i)
        if (x[i] && m.IsValid(i)) o[k++] = i;
    return V(out);
}

namespace {
constexpr int64_t kParallelRows = 1 << 20;  // a compress of fewer rows stays on one thread
constexpr int64_t kChunkRows = 1 << 18;

// The kept rows of in[lo..hi) (mask x) stored from o[k] on, up to o[end - 1], without a branch on
// the mask (at a selectivity far from 0 or 1 the branch is mispredicted half the time): every
// row is stored at the next free slot, which only a kept row then advances; the stores stop at
// the last kept row, so they never reach o[end] (the next chunk's part, or past the result).
template <class T>
void StoreKept(const uint8_t *x, const T *in, int64_t lo, int64_t hi, T *o, int64_t k, int64_t end) {
    for (int64_t i = lo; i < hi && k < end; ++i) {
        PollCancel(i);
        o[k] = in[i];
        k += x[i] != 0;
    }
}

// @compress of a long vector without NULLs in chunks on every core: per chunk the kept rows (and
// string bytes), a prefix sum, then each chunk writes its part (the interpreter's order).
Expected<Value> CompressParallel(const Vector &m, const Vector &d) {
    const uint8_t *x = m.Data<uint8_t>();
    const int64_t n = m.length;
    const RowChunks rc{n, kChunkRows, (n + kChunkRows - 1) / kChunkRows};
    const int64_t chunks = rc.count;
    const bool str = IsString(d.type.kind);
    const int64_t *in_off = str ? d.offsets.data() : nullptr;
    PoolVector<int64_t> rows(static_cast<size_t>(chunks) + 1, 0), bytes(static_cast<size_t>(chunks) + 1, 0);
    ForChunks(rc, [&](int64_t c, int64_t lo, int64_t hi) {
        int64_t k = 0, b = 0;
        for (int64_t i = lo; i < hi; ++i) {
            const int64_t keep = x[i] != 0;
            k += keep;
            if (str) b += keep * (in_off[i + 1] - in_off[i]);
        }
        rows[static_cast<size_t>(c) + 1] = k;
        bytes[static_cast<size_t>(c) + 1] = b;
    });
    for (int64_t c = 0; c < chunks; ++c) {
        rows[static_cast<size_t>(c) + 1] += rows[static_cast<size_t>(c)];
        bytes[static_cast<size_t>(c) + 1] += bytes[static_cast<size_t>(c)];
    }
    const int64_t count = rows[static_cast<size_t>(chunks)];
    if (str) {
        // pooled, not zero-filled (every byte and offset is written below)
        RNDN_ASSIGN_OR_RETURN(StringPayload p, AllocStrings(count, bytes[static_cast<size_t>(chunks)]));
        char *dst = p.Chars();
        int64_t *off = p.Offsets();
        const char *in = d.bytes.data();
        off[0] = 0;
        ForChunks(rc, [&](int64_t c, int64_t lo, int64_t hi) {
            int64_t k = rows[static_cast<size_t>(c)], pos = bytes[static_cast<size_t>(c)];
            for (int64_t i = lo; i < hi; ++i) {
                if (!x[i]) continue;
                const int64_t b = in_off[i], len = in_off[i + 1] - b;
                CopyStringBytes(dst + pos, in + b, len);
                pos += len;
                off[++k] = pos;
            }
        });
        RNDN_ASSIGN_OR_RETURN(auto out, MakeVector(d.type, 0));
        FinishStrings(*out, std::move(p), count, bytes[static_cast<size_t>(chunks)]);
        return Value(std::shared_ptr<const Vector>(out));
    }
    RNDN_ASSIGN_OR_RETURN(auto out, MakeVectorUninit(d.type, count));
    VisitFixed(d.type.kind, [&](auto t) {
        using T = decltype(t);
        const T *in = d.Data<T>();
        T *o = out->template Data<T>();
        ForChunks(rc, [&](int64_t c, int64_t lo, int64_t hi) {
            StoreKept(x, in, lo, hi, o, rows[static_cast<size_t>(c)], rows[static_cast<size_t>(c) + 1]);
        });
        return 0;
    });
    out->scale_max = d.scale_max;
    return Value(std::shared_ptr<const Vector>(out));
}
}  // namespace

Expected<Value> KCompress(KernelCtx &, const std::vector<Value> &args) {
    RNDN_RETURN_IF_ERROR(NeedVector(args[0], "compress", 0));
    RNDN_RETURN_IF_ERROR(NeedVector(args[1], "compress", 1));
    const Vector &m = args[0].vector(), &d = args[1].vector();
    if (m.type.kind != TypeKind::BOOL) return TypeError("@compress: the mask must be bool");
    if (m.length != d.length)
        return ShapeError("@compress: mask length " + std::to_string(m.length) + " differs from data length " + std::to_string(d.length));
    const uint8_t *x = m.Data<uint8_t>();
    const bool mask_nulls = m.HasNulls();
    auto keep = [&](int64_t i) { return x[i] != 0 && (!mask_nulls || m.IsValid(i)); };
    if (m.length >= kParallelRows && !mask_nulls && d.elem_scale.empty() && !d.HasNulls()) return CompressParallel(m, d);
    if (!IsString(d.type.kind) && d.elem_scale.empty() && !d.HasNulls()) {
        // Fixed-width data without NULLs: one counting pass, one copying pass, no index vector.
        int64_t count = 0;
        for (int64_t i = 0; i < m.length; ++i) PollCancel(i), count += keep(i) ? 1 : 0;
        RNDN_ASSIGN_OR_RETURN(auto out, MakeVectorUninit(d.type, count));
        VisitFixed(d.type.kind, [&](auto t) {
            using T = decltype(t);
            const T *in = d.Data<T>();
            T *o = out->template Data<T>();
            int64_t k = 0;
            if (!mask_nulls) {
                StoreKept(x, in, 0, m.length, o, 0, count);
                return 0;
            }
            for (int64_t i = 0; i < m.length; ++i)
                if (PollCancel(i), keep(i)) o[k++] = in[i];
            return 0;
        });
        out->scale_max = d.scale_max;
        return Value(std::shared_ptr<const Vector>(out));
    }
    if (IsString(d.type.kind) && !d.HasNulls()) {
        // Strings without NULLs: straight from the mask, no index vector.
        RNDN_ASSIGN_OR_RETURN(auto out, CollectStrings(d, [&](auto &&row) {
            for (int64_t i = 0; i < m.length; ++i)
                if (keep(i)) row(i);
        }));
        return Value(std::shared_ptr<const Vector>(out));
    }
    PoolVector<int64_t> idx;
    idx.reserve(static_cast<size_t>(m.length));
    for (int64_t i = 0; i < m.length; ++i)
        if (PollCancel(i), keep(i)) idx.push_back(i);
    RNDN_ASSIGN_OR_RETURN(auto r, Gather(d, idx.data(), static_cast<int64_t>(idx.size())));
    return Value(r);
}

namespace {
// i64 view of an index vector (NULL index -> error).
Expected<std::shared_ptr<const Vector>> IndexVector(const Value &v, const char *fn) {
    RNDN_RETURN_IF_ERROR(NeedVector(v, fn, 1));
    if (!IsInteger(v.vector().type.kind)) return TypeError(std::string("@") + fn + ": the index must be an integer vector");
    if (v.vector().HasNulls())
        for (int64_t i = 0; i < v.vector().length; ++i)
            if (!v.vector().IsValid(i)) return ShapeError(std::string("@") + fn + ": NULL index");
    return As(v.vector_ptr(), TypeKind::I64);
}
}  // namespace

Expected<Value> KIndex(KernelCtx &, const std::vector<Value> &args) {
    RNDN_ASSIGN_OR_RETURN(auto idx, IndexVector(args[1], "index"));
    if (args[0].kind() == ValueKind::LIST) {
        const auto &cells = args[0].list().cells;
        if (idx->length != 1) return ShapeError("@index: a list is indexed by one cell number");
        int64_t k = idx->Data<int64_t>()[0];
        if (k < 0 || k >= static_cast<int64_t>(cells.size()))
            return ShapeError("index " + std::to_string(k) + " out of range for a list of " + std::to_string(cells.size()) + " cells");
        return cells[static_cast<size_t>(k)];
    }
    RNDN_RETURN_IF_ERROR(NeedVector(args[0], "index", 0));
    RNDN_ASSIGN_OR_RETURN(auto r, Gather(args[0].vector(), idx->Data<int64_t>(), idx->length));
    return Value(r);
}

namespace {
// @index_a on decimals of different (or per-element) scales, as SQL's CASE over numerics of
// different scales: every element keeps its own display scale (PostgreSQL prints CASE WHEN ..
// THEN 1.50 ELSE 0 END as 1.50 or 0); the integers are stored at the larger scale.
Expected<Value> IndexAssignScaled(const std::shared_ptr<const Vector> &px, const Vector &idx, const std::shared_ptr<const Vector> &pv) {
    const Vector &x = *px, &v = *pv;
    auto scale_of = [](const Vector &d) { return d.type.scale == Type::kUnknownScale ? d.scale_max : d.type.scale; };
    const int sx = scale_of(x), sv = scale_of(v), smax = std::max(sx, sv);
    if (v.length != 1 && v.length != idx.length) return ShapeError("@index_a: values and indexes differ in length");
    RNDN_ASSIGN_OR_RETURN(auto cx, As(px, Type::Decimal(TypeKind::DEC128, smax)));
    RNDN_ASSIGN_OR_RETURN(auto cv, As(pv, Type::Decimal(TypeKind::DEC128, smax)));
    RNDN_ASSIGN_OR_RETURN(auto out, MakeVector(Type::Decimal(TypeKind::DEC128, Type::kUnknownScale), x.length));
    CopyRange(*cx, 0, x.length, *out, 0);
    out->validity = x.validity;
    out->scale_max = smax;
    out->elem_scale.resize(static_cast<size_t>(x.length));
    for (int64_t i = 0; i < x.length; ++i)
        out->elem_scale[static_cast<size_t>(i)] = static_cast<uint8_t>(x.elem_scale.empty() ? sx : x.elem_scale[static_cast<size_t>(i)]);
    const int64_t *ix = idx.Data<int64_t>();
    for (int64_t i = 0; i < idx.length; ++i) {
        const int64_t k = ix[i];
        if (k < 0 || k >= x.length) return ShapeError("index " + std::to_string(k) + " out of range for a vector of length " + std::to_string(x.length));
        const int64_t j = v.length == 1 ? 0 : i;
        CopyRange(*cv, j, 1, *out, k);
        out->elem_scale[static_cast<size_t>(k)] = static_cast<uint8_t>(v.elem_scale.empty() ? sv : v.elem_scale[static_cast<size_t>(j)]);
        if (!v.IsValid(j)) out->SetNull(k);
        else if (out->HasNulls()) out->validity[static_cast<size_t>(k >> 6)] |= uint64_t(1) << (k & 63);
    }
    return V(out);
}
}  // namespace

Expected<Value> KIndexA(KernelCtx &, const std::vector<Value> &args) {
    RNDN_RETURN_IF_ERROR(NeedVector(args[0], "index_a", 0));
    RNDN_RETURN_IF_ERROR(NeedVector(args[2], "index_a", 2));
    RNDN_ASSIGN_OR_RETURN(auto idx, IndexVector(args[1], "index_a"));
    const Vector &x = args[0].vector();
    if (IsString(x.type.kind)) {
        // Strings: note for every row where its value comes from, then rebuild bytes/offsets.
        const Vector &vals = args[2].vector();
        if (!IsString(vals.type.kind)) return TypeError("@index_a: string vector assigned non-string values");
        if (vals.length != 1 && vals.length != idx->length) return ShapeError("@index_a: values and indexes differ in length");
        PoolVector<int64_t> from(static_cast<size_t>(x.length));  // >= 0: row of x; < 0: -(row of vals) - 1
        std::iota(from.begin(), from.end(), 0);
        const int64_t *ix = idx->Data<int64_t>();
        for (int64_t i = 0; i < idx->length; ++i) {
            const int64_t k = ix[i];
            if (k < 0 || k >= x.length) return ShapeError("index " + std::to_string(k) + " out of range for a vector of length " + std::to_string(x.length));
            from[static_cast<size_t>(k)] = -(vals.length == 1 ? 0 : i) - 1;
        }
        RNDN_ASSIGN_OR_RETURN(auto out, MakeVector(x.type, 0));
        PoolVector<int64_t> null_rows;
        for (int64_t r = 0; r < x.length; ++r) {
            PollCancel(r);
            const int64_t f = from[static_cast<size_t>(r)];
            const Vector &src = f >= 0 ? x : vals;
            const int64_t row = f >= 0 ? f : -f - 1;
            if (src.IsValid(row)) {
                out->AppendString(src.StringAt(row));
            } else {
                out->AppendString(std::string_view());
                null_rows.push_back(r);
            }
        }
        for (int64_t r : null_rows) out->SetNull(r);
        return V(out);
    }
    if (IsDecimal(x.type.kind) && IsDecimal(args[2].vector().type.kind) &&
        (x.type.scale == Type::kUnknownScale || args[2].vector().type.scale != x.type.scale))
        return IndexAssignScaled(args[0].vector_ptr(), *idx, args[2].vector_ptr());
    RNDN_ASSIGN_OR_RETURN(auto vals, As(args[2].vector_ptr(), x.type));
    if (vals->length != 1 && vals->length != idx->length) return ShapeError("@index_a: values and indexes differ in length");
    RNDN_ASSIGN_OR_RETURN(auto out, MakeVector(x.type, x.length));
    CopyRange(x, 0, x.length, *out, 0);
    out->validity = x.validity;
    const int64_t *ix = idx->Data<int64_t>();
    for (int64_t i = 0; i < idx->length; ++i) {
        int64_t k = ix[i];
        if (k < 0 || k >= x.length) return ShapeError("index " + std::to_string(k) + " out of range for a vector of length " + std::to_string(x.length));
        int64_t j = vals->length == 1 ? 0 : i;
        CopyRange(*vals, j, 1, *out, k);
        if (!vals->IsValid(j)) out->SetNull(k);
        else if (out->HasNulls()) out->validity[static_cast<size_t>(k >> 6)] |= uint64_t(1) << (k & 63);
    }
    return V(out);
}

// ---------------------------------------------------------------------------------------------
// order / group / unique

namespace {
// Integer-like keys whose value ranges multiply to at most 2^63: one mixed-radix key per row
// straight from the values (no dense ranks), its order the tuples' order under the flags
// (ascending: NULL after every value; descending: NULL first).  False for other keys.
// The key words come from the payload pool (*words, nullptr when it could not have them).
bool IntegerTupleKey(const std::vector<std::shared_ptr<const Vector>> &keys, const Vector &flags, std::shared_ptr<Vector> *words) {
    struct Digit {
        const Vector *v;
        int64_t lo = INT64_MAX, hi = INT64_MIN;
        uint64_t count = 0;  // values in the digit, NULL included
        bool asc = true, nulls = false;
    };
    auto value = [](const Vector &v, int64_t i) -> int64_t {
        switch (v.type.kind) {
            case TypeKind::BOOL:
            case TypeKind::CHAR: return v.Data<uint8_t>()[i];
            case TypeKind::I8: return v.Data<int8_t>()[i];
            case TypeKind::I16: return v.Data<int16_t>()[i];
            case TypeKind::I32:
            case TypeKind::DATE: return v.Data<int32_t>()[i];
            default: return v.Data<int64_t>()[i];  // I64, DT, TIME, DEC64
        }
    };
    std::vector<Digit> digits;
    unsigned __int128 product = 1;
    const int64_t n = keys[0]->length;
    for (size_t c = 0; c < keys.size(); ++c) {
        const Vector &v = *keys[c];
        const TypeKind t = v.type.kind;
        const bool integer_like = t == TypeKind::BOOL || t == TypeKind::CHAR || t == TypeKind::I8 || t == TypeKind::I16 ||
                                  t == TypeKind::I32 || t == TypeKind::DATE || t == TypeKind::I64 || t == TypeKind::DT ||
                                  t == TypeKind::TIME || (t == TypeKind::DEC64 && v.elem_scale.empty());
        if (!integer_like) return false;
        Digit d;
        d.v = &v;
        d.asc = flags.Data<uint8_t>()[flags.length == 1 ? 0 : c] != 0;
        d.nulls = v.HasNulls();
        for (int64_t i = 0; i < n; ++i) {
            PollCancel(i);
            if (d.nulls && !v.IsValid(i)) continue;
            const int64_t x = value(v, i);
            d.lo = std::min(d.lo, x);
            d.hi = std::max(d.hi, x);
        }
        if (d.lo > d.hi) d.lo = d.hi = 0;  // every value NULL
        // values in the digit, NULL included: up to 2^64 + 1 (timestamps from -infinity to
        // infinity and a NULL), so counted in 128 bits
        const unsigned __int128 count =
            static_cast<unsigned __int128>(static_cast<uint64_t>(d.hi) - static_cast<uint64_t>(d.lo)) + 1 + (d.nulls ? 1 : 0);
        if (count > (static_cast<unsigned __int128>(1) << 63)) return false;
        d.count = static_cast<uint64_t>(count);
        product *= d.count;
        if (product > (static_cast<unsigned __int128>(1) << 63)) return false;
        digits.push_back(d);
    }
    auto made = MakeVectorUninit(TypeKind::I64, n);
    if (!made.ok()) return false;  // the comparison path then reports what it cannot allocate
    *words = made.value();
    uint64_t *key = (*words)->Data<uint64_t>();
    std::fill(key, key + n, uint64_t{0});
    for (const Digit &d : digits)
        for (int64_t i = 0; i < n; ++i) {
            PollCancel(i);
            uint64_t x;
            if (d.nulls && !d.v->IsValid(i)) x = d.asc ? d.count - 1 : 0;
            else if (d.asc) x = static_cast<uint64_t>(value(*d.v, i)) - static_cast<uint64_t>(d.lo);
            else x = static_cast<uint64_t>(d.hi) - static_cast<uint64_t>(value(*d.v, i)) + (d.nulls ? 1 : 0);
            key[i] = key[i] * d.count + x;
        }
    return true;
}
}  // namespace

Expected<Value> KOrder(KernelCtx &, const std::vector<Value> &args) {
    std::vector<std::shared_ptr<const Vector>> keys;
    RNDN_RETURN_IF_ERROR(KeyColumns(args[0], "order", keys));
    RNDN_RETURN_IF_ERROR(NeedVector(args[1], "order", 1));
    const Vector &flags = args[1].vector();
    if (flags.type.kind != TypeKind::BOOL) return TypeError("@order: direction flags must be bool");
    if (flags.length != 1 && flags.length != static_cast<int64_t>(keys.size()))
        return ShapeError("@order: " + std::to_string(flags.length) + " direction flags for " + std::to_string(keys.size()) + " keys");
    int64_t n = keys[0]->length;
    if (std::shared_ptr<Vector> key; IntegerTupleKey(keys, flags, &key)) {
        RNDN_ASSIGN_OR_RETURN(auto out, MakeVectorUninit(TypeKind::I64, n));
        RNDN_RETURN_IF_ERROR(radix::StableOrder(key->Data<uint64_t>(), n, out->Data<int64_t>()));
        return V(out);
    }
    std::vector<PoolVector<int64_t>> ranks;
    unsigned __int128 product = 1;  // of the rank counts
    PoolVector<int64_t> counts;
    for (size_t k = 0; k < keys.size(); ++k) {
        int64_t cnt;
        PoolVector<int64_t> r = DenseRank(*keys[k], &cnt);
        bool asc = flags.Data<uint8_t>()[flags.length == 1 ? 0 : k];
        if (!asc)
            for (auto &x : r) x = cnt - 1 - x;  // descending: NULLs (highest rank) come first
        ranks.push_back(std::move(r));
        counts.push_back(std::max<int64_t>(cnt, 1));
        product *= static_cast<unsigned __int128>(counts.back());
    }
    if (product <= (static_cast<unsigned __int128>(1) << 63)) {
        // The rank tuple as one mixed-radix key (its order is the tuples' lexicographic order),
        // sorted stably by radix: a few streaming passes instead of a comparison sort that
        // jumps between the rank vectors.
        PoolVector<uint64_t> key(static_cast<size_t>(n), 0);
        for (size_t c = 0; c < ranks.size(); ++c)
            for (int64_t i = 0; i < n; ++i) {
                PollCancel(i);
                key[static_cast<size_t>(i)] = key[static_cast<size_t>(i)] * static_cast<uint64_t>(counts[c]) +
                                              static_cast<uint64_t>(ranks[c][static_cast<size_t>(i)]);
            }
        ranks.clear();
        RNDN_ASSIGN_OR_RETURN(auto out, MakeVectorUninit(TypeKind::I64, n));
        RNDN_RETURN_IF_ERROR(radix::StableOrder(key.data(), n, out->Data<int64_t>()));
        return V(out);
    }
    PoolVector<int64_t> order(static_cast<size_t>(n));
    std::iota(order.begin(), order.end(), 0);
    CancelTicker ticker;
    std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
        ticker.Tick();
        for (const auto &r : ranks)
            if (r[static_cast<size_t>(a)] != r[static_cast<size_t>(b)]) return r[static_cast<size_t>(a)] < r[static_cast<size_t>(b)];
        return false;
    });
    RNDN_ASSIGN_OR_RETURN(auto out, I64FromVector(order));
    return V(out);
}

namespace {
bool UseHash(const KernelCtx &ctx) { return !ctx.options || ctx.options->hash_keys; }

// Groups rows by key tuple: groups in ascending key order, members ascending.
// Group ids (0..m-1, ascending key order) of the rows of a key column or list of columns.
// With hash: a single integer-like key over a small range is ranked by counting; other keys
// of hashable types get ids from a hash table (keys_hash.cpp), renumbered into key order when
// ordered (@group); @unique needs only the classes, not their order.
Status GroupIds(const Value &key, const char *fn, bool hash, bool ordered, PoolVector<int64_t> &ids, int64_t *m) {
    std::vector<std::shared_ptr<const Vector>> keys;
    RNDN_RETURN_IF_ERROR(KeyColumns(key, fn, keys));
    int64_t n = keys[0]->length;
    if (hash && keys::HashableKeys(keys)) {
        if (std::vector<std::shared_ptr<const Vector>> packed; keys::PackTuples({&keys}, packed)) keys = {packed[0]};
        if (keys.size() == 1 && CountingRank(*keys[0], ids, m)) return Status::Ok();
        PoolVector<int64_t> first;
        *m = keys::FirstIds(keys, ids, first);
        if (ordered) keys::SortGroups(keys, ids, first);
        return Status::Ok();
    }
    std::vector<PoolVector<int64_t>> ranks;
    for (const auto &k : keys) {
        int64_t cnt;
        ranks.push_back(DenseRank(*k, &cnt));
    }
    *m = CombineRanks(ranks, n, ids);
    return Status::Ok();
}
}  // namespace

Expected<Value> KGroup(KernelCtx &ctx, const std::vector<Value> &args) {
    PoolVector<int64_t> ids;
    int64_t m = 0;
    RNDN_RETURN_IF_ERROR(GroupIds(args[0], "group", UseHash(ctx), true, ids, &m));
    // Counting sort of the row numbers by group: exact-size index vectors, rows ascending.
    PoolVector<int64_t> fill(static_cast<size_t>(m), 0);
    for (size_t i = 0; i < ids.size(); ++i) {
        PollCancel(static_cast<int64_t>(i));
        ++fill[static_cast<size_t>(ids[i])];
    }
    std::vector<int64_t *> dst(static_cast<size_t>(m));
    RNDN_ASSIGN_OR_RETURN(auto keys, MakeVector(TypeKind::I64, m));
    auto vals = std::make_shared<List>();
    vals->cells.reserve(static_cast<size_t>(m));
    // Every cell's rows in one payload (each cell starting 16-byte aligned), the cells' data
    // aliasing it: one allocation for the rows instead of two per group (a GROUP BY of many
    // small groups spent its time in malloc and free).
    size_t slots = 0;
    for (int64_t g = 0; g < m; ++g) slots += (static_cast<size_t>(fill[static_cast<size_t>(g)]) + 1) & ~size_t(1);
    RNDN_ASSIGN_OR_RETURN(auto block, MakeVectorUninit(TypeKind::I64, static_cast<int64_t>(slots)));
    int64_t *next_cell = block->Data<int64_t>();
    try {
        for (int64_t g = 0; g < m; ++g) {
            PollCancel(g);
            const int64_t len = fill[static_cast<size_t>(g)];
            auto cell = std::make_shared<Vector>();
            cell->type = Type(TypeKind::I64);
            cell->length = len;
            cell->data = std::shared_ptr<uint8_t[]>(block->data, reinterpret_cast<uint8_t *>(next_cell));
            dst[static_cast<size_t>(g)] = next_cell;
            next_cell += (len + 1) & ~int64_t(1);
            vals->cells.emplace_back(std::shared_ptr<const Vector>(cell));
        }
    } catch (const std::bad_alloc &) {
        return Status::OutOfMemory("out of memory grouping into " + std::to_string(m) + " groups");
    }
    const int64_t n = static_cast<int64_t>(ids.size());
    for (int64_t i = 0; i < n; ++i) {
        PollCancel(i);
        *dst[static_cast<size_t>(ids[static_cast<size_t>(i)])]++ = i;
    }
    for (int64_t g = 0; g < m; ++g) {
        PollCancel(g);
        keys->Data<int64_t>()[g] = vals->cells[static_cast<size_t>(g)].vector().Data<int64_t>()[0];
    }
    auto d = std::make_shared<Dict>();
    d->keys = Value(keys);
    d->values = Value(std::shared_ptr<const List>(vals));
    return Value(std::shared_ptr<const Dict>(d));
}

Expected<Value> KUnique(KernelCtx &ctx, const std::vector<Value> &args) {
    RNDN_RETURN_IF_ERROR(NeedVector(args[0], "unique", 0));
    PoolVector<int64_t> ids;
    int64_t m = 0;
    RNDN_RETURN_IF_ERROR(GroupIds(args[0], "unique", UseHash(ctx), false, ids, &m));
    PoolVector<int64_t> first(static_cast<size_t>(m), -1);
    for (int64_t i = static_cast<int64_t>(ids.size()) - 1; i >= 0; --i) first[static_cast<size_t>(ids[static_cast<size_t>(i)])] = i;
    std::sort(first.begin(), first.end());
    RNDN_ASSIGN_OR_RETURN(auto out, I64FromVector(first));
    return V(out);
}

// One pass over the (cell, row) pairs of G whose value of x is not NULL: a group id over the
// pair (cell number, value), then per cell the pairs' distinct ids.  Equal values as @unique's
// (keys_hash.cpp: NaN = NaN, -0 = 0, strings by bytes).
Expected<Value> KGroupDistinct(KernelCtx &ctx, const std::vector<Value> &args) {
    RNDN_RETURN_IF_ERROR(NeedVector(args[0], "group_distinct", 0));
    if (args[1].kind() != ValueKind::LIST) return TypeError("@group_distinct: expects a list of row-number vectors");
    const Vector &x = args[0].vector();
    const std::vector<Value> &cells = args[1].list().cells;
    const int64_t groups = static_cast<int64_t>(cells.size());
    int64_t total = 0;
    for (const Value &c : cells) {
        if (!c.is_vector() || c.vector().type.kind != TypeKind::I64) return TypeError("@group_distinct: expects a list of row-number vectors");
        total += c.vector().length;
    }
    RNDN_ASSIGN_OR_RETURN(auto gcol, MakeVectorUninit(TypeKind::I64, total));
    PoolVector<int64_t> rows(static_cast<size_t>(total));
    int64_t *gid = gcol->Data<int64_t>();
    int64_t w = 0;
    const bool nulls = x.HasNulls();
    for (int64_t g = 0; g < groups; ++g) {
        const Vector &c = cells[static_cast<size_t>(g)].vector();
        const int64_t *r = c.Data<int64_t>();
        for (int64_t i = 0; i < c.length; ++i) {
            PollCancel(w);
            if (r[i] < 0 || r[i] >= x.length)
                return ShapeError("index " + std::to_string(r[i]) + " out of range for a vector of length " + std::to_string(x.length));
            if (nulls && !x.IsValid(r[i])) continue;
            gid[w] = g;
            rows[static_cast<size_t>(w++)] = r[i];
        }
    }
    gcol->length = w;
    RNDN_ASSIGN_OR_RETURN(auto xcol, Gather(x, rows.data(), w));
    auto pair = std::make_shared<List>();
    pair->cells = {V(gcol), Value(xcol)};
    PoolVector<int64_t> ids;
    int64_t m = 0;
    RNDN_RETURN_IF_ERROR(GroupIds(Value(std::shared_ptr<const List>(pair)), "group_distinct", UseHash(ctx), false, ids, &m));
    PoolVector<uint8_t> seen(static_cast<size_t>(m), 0);
    RNDN_ASSIGN_OR_RETURN(auto out, MakeVector(TypeKind::I64, groups));
    int64_t *cnt = out->Data<int64_t>();
    for (int64_t i = 0; i < w; ++i) {
        PollCancel(i);
        uint8_t &s = seen[static_cast<size_t>(ids[static_cast<size_t>(i)])];
        cnt[gid[i]] += !s;
        s = 1;
    }
    return V(out);
}

// ---------------------------------------------------------------------------------------------
// member / index_of / join_index

namespace {
// Ids of x's and s's elements over one id space (0..cnt-1, equal keys equal ids): NULL elements
// get keys::kNull, and with the hash path elements of the larger side that the smaller side
// lacks get keys::kAbsent (the rank path gives every non-NULL element an id).
Status MemberIds(const KernelCtx &ctx, const std::vector<Value> &args, const char *fn, PoolVector<int64_t> &rx, PoolVector<int64_t> &rs,
                 int64_t *cnt) {
    if (UseHash(ctx)) {
        std::shared_ptr<const Vector> x = args[0].vector_ptr(), s = args[1].vector_ptr();
        RNDN_RETURN_IF_ERROR(CommonKeys(x, s, fn));
        if (keys::HashableKeys({x}) && keys::HashableKeys({s})) {
            *cnt = keys::JointIds({x}, {s}, rx, rs);
            return Status::Ok();
        }
    }
    return JointRanks(args[0].vector_ptr(), args[1].vector_ptr(), rx, rs, cnt, fn);
}
}  // namespace

namespace {
// x in s for strings against a small set s (an IN list): each element compared with the set's
// strings of its length, straight into the result (no id vectors for the whole column).
constexpr int64_t kSmallStringSet = 16;

std::shared_ptr<Vector> MemberSmallStrings(const Vector &x, const Vector &s, std::shared_ptr<Vector> out) {
    std::vector<std::string_view> set;
    bool set_has_null = false;
    uint64_t lengths = 0;  // bit L: some set string has length L (L < 63); bit 63: a longer one
    for (int64_t j = 0; j < s.length; ++j) {
        if (!s.IsValid(j)) {
            set_has_null = true;
            continue;
        }
        set.push_back(s.StringAt(j));
        lengths |= uint64_t(1) << std::min<size_t>(set.back().size(), 63);
    }
    const int64_t *off = x.offsets.data();
    const char *chars = x.bytes.data();
    uint8_t *o = out->Data<uint8_t>();
    const bool x_nulls = x.HasNulls();
    // NULL IN (...) is NULL, and so is x IN (.., NULL) when x is not found: the bitmap is made
    // before the chunks run on every core (parallel.h: each chunk owns whole words of it)
    if (x_nulls || set_has_null) out->EnsureValidity();
    // Set strings of at most 8 bytes (codes, modes, flags): each row's bytes as one
    // little-endian word (the bytes past its length masked off) compared with every set word of
    // its length, with no branch or call per set string.  A row whose 8-byte read would pass the
    // end of the column's bytes takes the loop below.
    const bool words = std::all_of(set.begin(), set.end(), [](std::string_view v) { return v.size() <= 8; });
    std::vector<uint64_t> set_word(set.size()), set_len(set.size());
    for (size_t j = 0; j < set.size(); ++j) {
        set_word[j] = ShortStringWord(set[j]);
        set_len[j] = set[j].size();
    }
    const int64_t nbytes = static_cast<int64_t>(x.bytes.size());
    ForChunks(ChunksOf(x.length), [&](int64_t, int64_t lo, int64_t hi) {
        // locals: the byte stores below may alias anything the lambda reaches by reference
        const int64_t *const offs = off;
        const char *const bytes = chars;
        uint8_t *const outs = o;
        const uint64_t *const sw = set_word.data(), *const sl = set_len.data();
        const size_t ns = set_word.size();
        const bool use_words = words, xn = x_nulls, sn = set_has_null;
        const int64_t end = nbytes;
        for (int64_t i = lo; i < hi; ++i) {
            PollCancel(i);
            const int64_t b = offs[i], len = offs[i + 1] - b;
            uint64_t w;
            if (use_words && !(xn && !x.IsValid(i)) && RowStringWord(bytes, end, b, len, &w)) {
                uint8_t found = 0;
                for (size_t j = 0; j < ns; ++j) found |= (sl[j] == static_cast<uint64_t>(len)) & (sw[j] == w);
                outs[i] = found;
                if (!found && sn) out->SetNull(i);
                continue;
            }
            if (x_nulls && !x.IsValid(i)) {
                o[i] = 0;
                out->SetNull(i);
                continue;
            }
            uint8_t found = 0;
            if ((lengths >> std::min<int64_t>(len, 63)) & 1)
                for (const std::string_view &v : set)
                    if (static_cast<int64_t>(v.size()) == len && std::memcmp(chars + b, v.data(), v.size()) == 0) {
                        found = 1;
                        break;
                    }
            o[i] = found;
            if (!found && set_has_null) out->SetNull(i);
        }
    });
    return out;
}
}  // namespace

namespace {
// The non-NULL values of an integer-like key column (integers, dates, times) as a bitmap over
// their range lo .. lo + range - 1 (bit d: the value lo + d, an unsigned difference in the
// column's own width, so no overflow); bit `range` stays clear and every value outside the range
// probes it.  Built only when the range is at most `limit` values.
struct DenseSet {
    TypeKind kind = TypeKind::I64;
    int64_t lo = 0;
    uint64_t range = 0;
    int64_t distinct = 0;
    bool has_null = false;
    PoolVector<uint64_t> bits;
};

bool IntegerKey(TypeKind k) {
    return !IsString(k) && keys::HashableKey(k) && VisitFixed(k, [](auto t) { return std::is_integral_v<decltype(t)>; });
}

bool MakeDenseSet(const Vector &s, uint64_t limit, DenseSet &set) {
    if (!IntegerKey(s.type.kind)) return false;
    return VisitFixed(s.type.kind, [&](auto t) -> bool {
        using T = decltype(t);
        if constexpr (!std::is_integral_v<T>) {
            return false;
        } else {
            using U = std::make_unsigned_t<T>;
            const T *sv = s.Data<T>();
            const bool nulls = s.HasNulls();
            bool any = false;
            T lo = 0, hi = 0;
            for (int64_t j = 0; j < s.length; ++j) {
                PollCancel(j);
                if (nulls && !s.IsValid(j)) {
                    set.has_null = true;
                    continue;
                }
                lo = any ? std::min(lo, sv[j]) : sv[j];
                hi = any ? std::max(hi, sv[j]) : sv[j];
                any = true;
            }
            set.kind = s.type.kind;
            set.lo = static_cast<int64_t>(lo);
            set.range = any ? uint64_t(U(U(hi) - U(lo))) + 1 : 0;
            if (any && (set.range == 0 || set.range > limit)) return false;  // range == 0: the whole 64-bit span
            set.bits.assign(set.range / 64 + 1, 0);
            for (int64_t j = 0; j < s.length; ++j) {
                PollCancel(j);
                if (nulls && !s.IsValid(j)) continue;
                const uint64_t d = U(U(sv[j]) - U(lo));
                set.distinct += !((set.bits[d >> 6] >> (d & 63)) & 1);
                set.bits[d >> 6] |= uint64_t(1) << (d & 63);
            }
            return true;
        }
    });
}

// o[i] = 1 where x[i] (of the set's kind) is in the set, 0 elsewhere (NULL rows too: their value
// is not read for the answer), on every core.
void ProbeDenseSet(const DenseSet &set, const Vector &x, uint8_t *o) {
    VisitFixed(set.kind, [&](auto t) {
        using T = decltype(t);
        if constexpr (std::is_integral_v<T>) {
            using U = std::make_unsigned_t<T>;
            const T *xv = x.Data<T>();
            const U lo = U(static_cast<T>(set.lo));
            const uint64_t range = set.range, *w = set.bits.data();
            const bool nulls = x.HasNulls();
            ForChunks(ChunksOf(x.length), [&](int64_t, int64_t b, int64_t e) {
                for (int64_t i = b; i < e; ++i) {
                    const uint64_t d = std::min<uint64_t>(U(U(xv[i]) - lo), range);
                    o[i] = static_cast<uint8_t>((w[d >> 6] >> (d & 63)) & 1);
                }
                if (nulls)
                    for (int64_t i = b; i < e; ++i)
                        if (!x.IsValid(i)) o[i] = 0;
            });
        }
    });
}

// At most 8 (|x| + |s|) + 65536 values: a bitmap of about a bit per element of either side.
uint64_t DenseLimit(int64_t nx, int64_t ns) { return 8 * uint64_t(nx + ns) + 65536; }

// x in s for integer-like keys of one kind whose set s spans a dense range (DenseLimit): a
// bitmap over s's range, probed on every core, with no id vectors for either side (a semi join's
// keep filter over a whole fact table).  Null when the keys do not qualify.  NULL rules as
// everywhere: NULL IN s is NULL, and so is an x not found in a set holding a NULL.
std::shared_ptr<Vector> MemberDense(const Vector &x, const Vector &s) {
    DenseSet set;
    if (x.type != s.type || !MakeDenseSet(s, DenseLimit(x.length, s.length), set)) return nullptr;
    auto made = MakeVectorUninit(TypeKind::BOOL, x.length);
    if (!made.ok()) return nullptr;
    std::shared_ptr<Vector> out = std::move(*made);
    uint8_t *o = out->Data<uint8_t>();
    ProbeDenseSet(set, x, o);
    if (x.HasNulls() || set.has_null) {
        out->EnsureValidity();
        for (int64_t i = 0; i < x.length; ++i)
            if (PollCancel(i), (!o[i] && set.has_null) || !x.IsValid(i)) out->SetNull(i);
    }
    return out;
}
}  // namespace

Expected<Value> KMember(KernelCtx &ctx, const std::vector<Value> &args) {
    RNDN_RETURN_IF_ERROR(NeedVector(args[0], "member", 0));
    RNDN_RETURN_IF_ERROR(NeedVector(args[1], "member", 1));
    if (UseHash(ctx) && IsString(args[0].vector().type.kind) && IsString(args[1].vector().type.kind) &&
        args[1].vector().length <= kSmallStringSet) {
        RNDN_ASSIGN_OR_RETURN(auto out, MakeVectorUninit(TypeKind::BOOL, args[0].vector().length));
        return V(MemberSmallStrings(args[0].vector(), args[1].vector(), out));
    }
    if (UseHash(ctx))
        if (std::shared_ptr<Vector> out = MemberDense(args[0].vector(), args[1].vector())) return V(out);
    PoolVector<int64_t> rx, rs;
    int64_t cnt;
    RNDN_RETURN_IF_ERROR(MemberIds(ctx, args, "member", rx, rs, &cnt));
    PoolVector<uint8_t> in(static_cast<size_t>(cnt), 0);
    bool set_has_null = false;
    for (size_t j = 0; j < rs.size(); ++j) {
        PollCancel(static_cast<int64_t>(j));
        const int64_t r = rs[j];
        if (r >= 0) in[static_cast<size_t>(r)] = 1;
        else if (r == keys::kNull) set_has_null = true;
    }
    const Vector &x = args[0].vector();
    RNDN_ASSIGN_OR_RETURN(auto out, MakeVector(TypeKind::BOOL, x.length));
    for (int64_t i = 0; i < x.length; ++i) {
        PollCancel(i);
        int64_t r = rx[static_cast<size_t>(i)];
        if (r == keys::kNull) {
            out->SetNull(i);  // NULL IN (...) is NULL
            continue;
        }
        const uint8_t found = r >= 0 ? in[static_cast<size_t>(r)] : 0;
        out->Data<uint8_t>()[i] = found;
        if (!found && set_has_null) out->SetNull(i);  // x IN (.., NULL) not found: NULL
    }
    return V(out);
}

Expected<Value> KIndexOf(KernelCtx &ctx, const std::vector<Value> &args) {
    RNDN_RETURN_IF_ERROR(NeedVector(args[0], "index_of", 0));
    RNDN_RETURN_IF_ERROR(NeedVector(args[1], "index_of", 1));
    PoolVector<int64_t> rx, rs;
    int64_t cnt;
    RNDN_RETURN_IF_ERROR(MemberIds(ctx, args, "index_of", rx, rs, &cnt));
    int64_t ns = args[1].vector().length;
    PoolVector<int64_t> first(static_cast<size_t>(cnt), ns);
    for (int64_t j = ns - 1; j >= 0; --j)
        if (PollCancel(j), rs[static_cast<size_t>(j)] >= 0) first[static_cast<size_t>(rs[static_cast<size_t>(j)])] = j;
    RNDN_ASSIGN_OR_RETURN(auto out, MakeVector(TypeKind::I64, static_cast<int64_t>(rx.size())));
    for (size_t i = 0; i < rx.size(); ++i) PollCancel(static_cast<int64_t>(i)), out->Data<int64_t>()[i] = rx[i] < 0 ? ns : first[static_cast<size_t>(rx[i])];
    return V(out);
}

namespace {
// Two i64 indexes per pair, plus at least one gathered column of the same length.
Status CheckJoinSize(const KernelCtx &ctx, int64_t pairs) {
    const int64_t budget = ctx.options ? ctx.options->memory_budget : 0;
    if (budget > 0 && pairs > budget / 24)
        return Status::Unsupported("@join_index: a join of " + std::to_string(pairs) + " pairs exceeds the memory budget");
    return Status::Ok();
}
}  // namespace

namespace {
Expected<Value> JoinIndex(KernelCtx &ctx, const std::vector<Value> &args, bool prefilter);

// A key list (a vector or a list of vectors) with every column gathered at rows sel.
Expected<Value> GatherKeys(const Value &keys, const std::vector<std::shared_ptr<const Vector>> &cols, const int64_t *sel, int64_t n) {
    std::vector<Value> cells;
    for (const auto &c : cols) {
        RNDN_ASSIGN_OR_RETURN(auto g, Gather(*c, sel, n));
        cells.push_back(Value(g));
    }
    if (keys.is_vector()) return cells[0];
    auto out = std::make_shared<List>();
    out->cells = std::move(cells);
    return Value(std::shared_ptr<const List>(out));
}

// An equi-join of a long side (at least kParallelMinRows rows) against a side at least 8 times
// shorter, one of whose equality keys is an integer-like column of dense range (DenseLimit): the
// long side's rows whose value in that column the short side lacks are dropped first (a bitmap
// probe on every core; the column chosen is the one whose set covers the least of its range),
// the join runs on the rows kept, and the long side's row numbers are mapped back (in order, so
// the pairs' order is the full join's).  Null when it does not apply or would keep over half of
// the long side.
Expected<std::optional<Value>> PrefilteredJoin(KernelCtx &ctx, const std::vector<Value> &args, const std::vector<size_t> &eqs,
                                                const std::vector<std::shared_ptr<const Vector>> &left,
                                                const std::vector<std::shared_ptr<const Vector>> &right) {
    const size_t nargs = args.size();
    const int64_t nl = left[0]->length, nr = right[0]->length;
    const bool left_long = nl >= 8 * nr;
    if (!(left_long || nr >= 8 * nl) || std::max(nl, nr) < kParallelMinRows) return std::optional<Value>();
    const auto &lng = left_long ? left : right, &sht = left_long ? right : left;
    auto at = [](const std::vector<std::shared_ptr<const Vector>> &cols, size_t c) { return cols[cols.size() == 1 ? 0 : c]; };
    DenseSet best;
    size_t best_col = 0;
    double best_cover = 0.5;  // a set covering over half its range keeps too much to pay
    bool found = false;
    for (size_t c : eqs) {
        DenseSet set;
        const Vector &x = *at(lng, c), &sv = *at(sht, c);
        if (x.type != sv.type || !MakeDenseSet(sv, DenseLimit(x.length, sv.length), set)) continue;
        const double cover = set.range ? double(set.distinct) / double(set.range) : 0.0;
        if (cover < best_cover) {
            best_cover = cover;
            best = std::move(set);
            best_col = c;
            found = true;
        }
    }
    if (!found) return std::optional<Value>();
    const Vector &x = *at(lng, best_col);
    PoolVector<uint8_t> keep(static_cast<size_t>(x.length));
    ProbeDenseSet(best, x, keep.data());
    int64_t kept = 0;
    for (int64_t i = 0; i < x.length; ++i) kept += keep[static_cast<size_t>(i)];
    if (kept > x.length / 2) return std::optional<Value>();
    PoolVector<int64_t> sel(static_cast<size_t>(kept));
    for (int64_t i = 0, w = 0; i < x.length; ++i)
        if (PollCancel(i), keep[static_cast<size_t>(i)]) sel[static_cast<size_t>(w++)] = i;
    std::vector<Value> sub = args;
    const size_t side = left_long ? nargs - 2 : nargs - 1;
    RNDN_ASSIGN_OR_RETURN(sub[side], GatherKeys(args[side], lng, sel.data(), kept));
    RNDN_ASSIGN_OR_RETURN(Value joined, JoinIndex(ctx, sub, false));
    const List &pairs = joined.list();
    const Vector &idx = pairs.cells[left_long ? 0 : 1].vector();
    RNDN_ASSIGN_OR_RETURN(auto mapped, MakeVectorUninit(TypeKind::I64, idx.length));
    const int64_t *from = idx.Data<int64_t>();
    int64_t *to = mapped->Data<int64_t>();
    ForChunks(ChunksOf(idx.length), [&](int64_t, int64_t b, int64_t e) {
        for (int64_t p = b; p < e; ++p) to[p] = sel[static_cast<size_t>(from[p])];
    });
    auto out = std::make_shared<List>();
    out->cells = pairs.cells;
    out->cells[left_long ? 0 : 1] = V(mapped);
    return std::optional<Value>(Value(std::shared_ptr<const List>(out)));
}
}  // namespace

Expected<Value> KJoinIndex(KernelCtx &ctx, const std::vector<Value> &args) { return JoinIndex(ctx, args, true); }

namespace {
Expected<Value> JoinIndex(KernelCtx &ctx, const std::vector<Value> &args, bool prefilter) {
    size_t nargs = args.size();
    size_t k = nargs - 2;
    std::vector<FuncRef> preds;
    for (size_t i = 0; i < k; ++i) {
        if (args[i].kind() != ValueKind::FUNC) return TypeError("@join_index: expects comparison functions first");
        preds.push_back(args[i].func());
    }
    std::vector<std::shared_ptr<const Vector>> left, right;
    RNDN_RETURN_IF_ERROR(KeyColumns(args[nargs - 2], "join_index", left));
    RNDN_RETURN_IF_ERROR(KeyColumns(args[nargs - 1], "join_index", right));
    size_t cells = std::max(left.size(), right.size());
    if ((left.size() != cells && left.size() != 1) || (right.size() != cells && right.size() != 1))
        return ShapeError("@join_index: key lists differ in length");
    if (k != 1 && k != cells) return ShapeError("@join_index: expects one predicate per key column");
    auto L = [&](size_t i) { return left[left.size() == 1 ? 0 : i]; };
    auto Rt = [&](size_t i) { return right[right.size() == 1 ? 0 : i]; };
    auto P = [&](size_t i) { return preds[k == 1 ? 0 : i]; };
    int64_t nl = L(0)->length, nr = Rt(0)->length;
    std::vector<size_t> eqs, others;
    for (size_t i = 0; i < cells; ++i) (P(i).builtin == static_cast<int>(Builtin::EQ) ? eqs : others).push_back(i);
    // the candidate pairs, written into pooled result vectors of the counted size (the
    // remaining predicates below keep a prefix of them)
    std::shared_ptr<Vector> lvec, rvec;
    int64_t np = 0;
    auto alloc_pairs = [&](int64_t pairs) -> Status {
        RNDN_ASSIGN_OR_RETURN(lvec, MakeVectorUninit(TypeKind::I64, pairs));
        RNDN_ASSIGN_OR_RETURN(rvec, MakeVectorUninit(TypeKind::I64, pairs));
        return Status::Ok();
    };
    if (prefilter && UseHash(ctx) && !eqs.empty()) {
        RNDN_ASSIGN_OR_RETURN(std::optional<Value> done, PrefilteredJoin(ctx, args, eqs, left, right));
        if (done) return std::move(*done);
    }
    if (!eqs.empty()) {
        // The equality keys of both sides in one id space: idl[i] / idr[j] < 0 for a row that
        // matches nothing (a NULL key, or with the hash path a key the other side lacks).
        PoolVector<int64_t> idl, idr;
        int64_t m = 0;
        bool hashed = false;
        if (UseHash(ctx)) {
            keys::Columns lc, rc;
            for (size_t c : eqs) {
                std::shared_ptr<const Vector> a = L(c), b = Rt(c);
                RNDN_RETURN_IF_ERROR(CommonKeys(a, b, "join_index"));
                lc.push_back(std::move(a));
                rc.push_back(std::move(b));
            }
            if (keys::HashableKeys(lc) && keys::HashableKeys(rc)) {
                m = keys::JointIds(lc, rc, idl, idr);
                hashed = true;
            }
        }
        if (!hashed) {
            // the rank path: joint ranks per key, combined into one id space
            std::vector<PoolVector<int64_t>> joint;
            for (size_t c : eqs) {
                PoolVector<int64_t> a, b;
                int64_t cnt;
                RNDN_RETURN_IF_ERROR(JointRanks(L(c), Rt(c), a, b, &cnt, "join_index"));
                PollCancelNow();
                a.insert(a.end(), b.begin(), b.end());
                joint.push_back(std::move(a));
            }
            PoolVector<int64_t> ids;
            m = CombineRanks(joint, nl + nr, ids);
            for (int64_t row = 0; row < nl + nr; ++row) {
                PollCancel(row);
                for (const auto &r : joint)
                    if (r[static_cast<size_t>(row)] < 0) ids[static_cast<size_t>(row)] = -1;
            }
            idl.assign(ids.begin(), ids.begin() + nl);
            idr.assign(ids.begin() + nl, ids.end());
        }
        PoolVector<int64_t> start(static_cast<size_t>(m) + 1, 0);
        for (int64_t i = 0; i < nl; ++i)
            if (PollCancel(i), idl[static_cast<size_t>(i)] >= 0) ++start[static_cast<size_t>(idl[static_cast<size_t>(i)]) + 1];
        for (int64_t g = 0; g < m; ++g) start[static_cast<size_t>(g) + 1] += start[static_cast<size_t>(g)];
        PoolVector<int64_t> rows(static_cast<size_t>(start[static_cast<size_t>(m)]));
        PoolVector<int64_t> fill(start.begin(), start.end() - 1);
        for (int64_t i = 0; i < nl; ++i)
            if (PollCancel(i), idl[static_cast<size_t>(i)] >= 0) rows[static_cast<size_t>(fill[static_cast<size_t>(idl[static_cast<size_t>(i)])]++)] = i;
        // Count the pairs before making them: a join larger than the memory budget is left to
        // PostgreSQL's plan (which may also stop early under a LIMIT) instead of running out.
        // Per chunk of right rows (on every core for long sides): its pairs, then a prefix sum
        // gives each chunk where its pairs go (right rows ascending, left rows ascending within).
        const RowChunks rc = ChunksOf(nr);
        PoolVector<int64_t> at(static_cast<size_t>(rc.count) + 1, 0);
        ForChunks(rc, [&](int64_t c, int64_t a, int64_t b) {
            int64_t k = 0;
            for (int64_t j = a; j < b; ++j) {
                PollCancel(j);
                const int64_t g = idr[static_cast<size_t>(j)];
                if (g >= 0) k += start[static_cast<size_t>(g) + 1] - start[static_cast<size_t>(g)];
            }
            at[static_cast<size_t>(c) + 1] = k;
        });
        for (int64_t c = 0; c < rc.count; ++c) at[static_cast<size_t>(c) + 1] += at[static_cast<size_t>(c)];
        const int64_t pairs = at[static_cast<size_t>(rc.count)];
        RNDN_RETURN_IF_ERROR(CheckJoinSize(ctx, pairs));
        RNDN_RETURN_IF_ERROR(alloc_pairs(pairs));
        int64_t *lo = lvec->Data<int64_t>(), *ro = rvec->Data<int64_t>();
        ForChunks(rc, [&](int64_t c, int64_t a, int64_t b) {
            int64_t w = at[static_cast<size_t>(c)];
            for (int64_t j = a; j < b; ++j) {
                PollCancel(j);
                const int64_t g = idr[static_cast<size_t>(j)];
                if (g < 0) continue;
                for (int64_t p = start[static_cast<size_t>(g)]; p < start[static_cast<size_t>(g) + 1]; ++p) {
                    lo[w] = rows[static_cast<size_t>(p)];
                    ro[w++] = j;
                }
            }
        });
        np = pairs;
    } else {
        if (nl * nr > (int64_t(1) << 31)) return Status::Unsupported("@join_index: nested-loop join of " + std::to_string(nl) + " x " + std::to_string(nr) + " rows");
        RNDN_RETURN_IF_ERROR(CheckJoinSize(ctx, nl * nr));
        RNDN_RETURN_IF_ERROR(alloc_pairs(nl * nr));
        int64_t *lo = lvec->Data<int64_t>(), *ro = rvec->Data<int64_t>();
        for (int64_t j = 0; j < nr; ++j) {
            if ((j & 0x3ff) == 0 && ctx.Cancelled()) return Status::Cancelled();
            for (int64_t i = 0; i < nl; ++i) {
                PollCancel(np);
                lo[np] = i;
                ro[np++] = j;
            }
        }
    }
    // the remaining predicates: evaluate vectorised on the candidate pairs, keep the true ones
    int64_t *li = lvec->Data<int64_t>(), *ri = rvec->Data<int64_t>();
    for (size_t c : others) {
        if (np == 0) break;
        RNDN_ASSIGN_OR_RETURN(auto lv, Gather(*L(c), li, np));
        RNDN_ASSIGN_OR_RETURN(auto rv, Gather(*Rt(c), ri, np));
        RNDN_ASSIGN_OR_RETURN(auto res, ctx.call(P(c), {Value(lv), Value(rv)}));
        if (res.size() != 1 || !res[0].is_vector() || res[0].vector().type.kind != TypeKind::BOOL || res[0].vector().length != np)
            return TypeError("@join_index: a predicate did not return one bool per pair");
        const Vector &mask = res[0].vector();
        int64_t w = 0;
        for (int64_t p = 0; p < np; ++p)
            if (PollCancel(p), mask.Data<uint8_t>()[p] && mask.IsValid(p)) {
                li[w] = li[p];
                ri[w] = ri[p];
                ++w;
            }
        np = w;
    }
    lvec->length = rvec->length = np;
    auto out = std::make_shared<List>();
    out->cells = {V(lvec), V(rvec)};
    return Value(std::shared_ptr<const List>(out));
}
}  // namespace

// ---------------------------------------------------------------------------------------------
// append / vector / range / reverse / take / drop

Expected<Value> KAppend(KernelCtx &, const std::vector<Value> &args) {
    if (args[0].kind() == ValueKind::LIST || args[1].kind() == ValueKind::LIST) {
        auto out = std::make_shared<List>();
        for (const auto &a : args) {
            if (a.kind() == ValueKind::LIST) out->cells.insert(out->cells.end(), a.list().cells.begin(), a.list().cells.end());
            else out->cells.push_back(a);
        }
        return Value(std::shared_ptr<const List>(out));
    }
    if (args[0].kind() == ValueKind::ENUM && args[1].is_vector()) {
        const Enum &e = args[0].enumeration();
        auto vals = std::make_shared<List>();
        std::vector<Value> parts{Value(e.values), args[1]};
        KernelCtx dummy;
        RNDN_ASSIGN_OR_RETURN(Value joined, KAppend(dummy, parts));
        RNDN_ASSIGN_OR_RETURN(auto ne, MakeEnum(e.keys, joined.vector_ptr(), e.target_table));
        return Value(std::shared_ptr<const Enum>(ne));
    }
    RNDN_RETURN_IF_ERROR(NeedVector(args[0], "append", 0));
    RNDN_RETURN_IF_ERROR(NeedVector(args[1], "append", 1));
    const auto &pa = args[0].vector_ptr();
    const auto &pb = args[1].vector_ptr();
    Type rt = pa->type;
    if (pa->type != pb->type) {
        if (IsReal(pa->type.kind) && IsReal(pb->type.kind)) {
            rt = WidestType(pa->type, pb->type);
            if (IsDecimal(rt.kind)) {
                int sa = IsDecimal(pa->type.kind) ? pa->type.scale : 0, sb = IsDecimal(pb->type.kind) ? pb->type.scale : 0;
                if (sa < 0 || sb < 0) return Status::Unsupported("@append on decimals with per-element scale");
                rt = Type::Decimal(TypeKind::DEC128, std::max(sa, sb));
            }
        } else if (!(IsString(pa->type.kind) && IsString(pb->type.kind))) {
            return TypeError("@append: operands have incompatible types " + TypeToString(pa->type) + " and " + TypeToString(pb->type));
        }
    }
    if (IsDecimal(rt.kind) && rt.scale == Type::kUnknownScale) return Status::Unsupported("@append on decimals with per-element scale");
    RNDN_ASSIGN_OR_RETURN(auto a, As(pa, rt));
    RNDN_ASSIGN_OR_RETURN(auto b, As(pb, rt));
    int64_t n = a->length + b->length;
    std::shared_ptr<Vector> out;
    if (IsString(rt.kind)) {
        RNDN_ASSIGN_OR_RETURN(out, MakeVector(rt, 0));
        for (int64_t i = 0; i < a->length; ++i) out->AppendString(a->StringAt(i));
        for (int64_t i = 0; i < b->length; ++i) out->AppendString(b->StringAt(i));
    } else {
        RNDN_ASSIGN_OR_RETURN(out, MakeVector(rt, n));
        CopyRange(*a, 0, a->length, *out, 0);
        CopyRange(*b, 0, b->length, *out, a->length);
    }
    if (a->HasNulls() || b->HasNulls()) {
        for (int64_t i = 0; i < a->length; ++i)
            if (!a->IsValid(i)) out->SetNull(i);
        for (int64_t i = 0; i < b->length; ++i)
            if (!b->IsValid(i)) out->SetNull(a->length + i);
    }
    return V(out);
}

namespace {
Expected<int64_t> ScalarInt(const Value &v, const char *fn) {
    RNDN_RETURN_IF_ERROR(NeedVector(v, fn, 0));
    if (!IsInteger(v.vector().type.kind) || v.vector().length != 1 || !v.vector().IsValid(0))
        return ShapeError(std::string("@") + fn + ": expects one integer");
    RNDN_ASSIGN_OR_RETURN(auto c, As(v.vector_ptr(), TypeKind::I64));
    return c->Data<int64_t>()[0];
}
}  // namespace

Expected<Value> KVector(KernelCtx &, const std::vector<Value> &args) {
    RNDN_ASSIGN_OR_RETURN(int64_t n, ScalarInt(args[0], "vector"));
    RNDN_RETURN_IF_ERROR(NeedVector(args[1], "vector", 1));
    const Vector &x = args[1].vector();
    if (n < 0) return ShapeError("@vector: negative length");
    if (x.length == 0 && n > 0) return ShapeError("@vector: empty source vector");
    PoolVector<int64_t> idx(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) idx[static_cast<size_t>(i)] = i % std::max<int64_t>(x.length, 1);
    RNDN_ASSIGN_OR_RETURN(auto r, Gather(x, idx.data(), n));
    return Value(r);
}

Expected<Value> KRange(KernelCtx &, const std::vector<Value> &args) {
    RNDN_ASSIGN_OR_RETURN(int64_t n, ScalarInt(args[0], "range"));
    if (n < 0) return ShapeError("@range: negative length");
    RNDN_ASSIGN_OR_RETURN(auto out, MakeVector(TypeKind::I64, n));
    std::iota(out->Data<int64_t>(), out->Data<int64_t>() + n, int64_t{0});
    return V(out);
}

Expected<Value> KReverse(KernelCtx &, const std::vector<Value> &args) {
    RNDN_RETURN_IF_ERROR(NeedVector(args[0], "reverse", 0));
    const Vector &x = args[0].vector();
    PoolVector<int64_t> idx(static_cast<size_t>(x.length));
    for (int64_t i = 0; i < x.length; ++i) idx[static_cast<size_t>(i)] = x.length - 1 - i;
    RNDN_ASSIGN_OR_RETURN(auto r, Gather(x, idx.data(), x.length));
    return Value(r);
}

namespace {
Expected<Value> TakeDrop(const std::vector<Value> &args, bool take) {
    const char *fn = take ? "take" : "drop";
    RNDN_ASSIGN_OR_RETURN(int64_t n, ScalarInt(args[0], fn));
    RNDN_RETURN_IF_ERROR(NeedVector(args[1], fn, 1));
    const Vector &x = args[1].vector();
    int64_t len = x.length;
    PoolVector<int64_t> idx;
    if (take) {
        int64_t m = std::min<int64_t>(n < 0 ? -n : n, len);
        int64_t from = n < 0 ? len - m : 0;
        for (int64_t i = 0; i < m; ++i) idx.push_back(from + i);
    } else {
        int64_t m = std::min<int64_t>(n < 0 ? -n : n, len);
        int64_t from = n < 0 ? 0 : m, to = n < 0 ? len - m : len;
        for (int64_t i = from; i < to; ++i) idx.push_back(i);
    }
    RNDN_ASSIGN_OR_RETURN(auto r, Gather(x, idx.data(), static_cast<int64_t>(idx.size())));
    return Value(r);
}
}  // namespace
Expected<Value> KTake(KernelCtx &, const std::vector<Value> &a) { return TakeDrop(a, true); }
Expected<Value> KDrop(KernelCtx &, const std::vector<Value> &a) { return TakeDrop(a, false); }

// ---------------------------------------------------------------------------------------------
// Reductions

Expected<Value> KLen(KernelCtx &, const std::vector<Value> &args) {
    const Value &v = args[0];
    int64_t n = 0;
    switch (v.kind()) {
        case ValueKind::VECTOR: n = v.vector().length; break;
        case ValueKind::LIST: n = static_cast<int64_t>(v.list().cells.size()); break;
        case ValueKind::TABLE: n = v.table().rows(); break;
        case ValueKind::ENUM: n = v.enumeration().values->length; break;
        case ValueKind::DICT: {
            const Value &k = v.dict().keys;
            n = k.is_vector() ? k.vector().length : k.kind() == ValueKind::LIST ? static_cast<int64_t>(k.list().cells.size()) : 0;
            break;
        }
        case ValueKind::KTABLE: n = v.ktable().key->rows(); break;
        default: return TypeError("@len: unsupported argument");
    }
    return Value(ScalarI64(n));
}

Expected<Value> KCount(KernelCtx &ctx, const std::vector<Value> &args) {
    if (!args[0].is_vector()) return KLen(ctx, args);
    const Vector &v = args[0].vector();
    int64_t n = 0;
    for (int64_t i = 0; i < v.length; ++i) n += v.IsValid(i);
    return Value(ScalarI64(n));
}

namespace {
int64_t ValidCount(const Vector &v) {
    if (!v.HasNulls()) return v.length;
    int64_t n = 0;
    for (int64_t i = 0; i < v.length; ++i) n += v.IsValid(i);
    return n;
}

Expected<std::shared_ptr<Vector>> NullScalar(const Type &t) {
    std::shared_ptr<Vector> out;
    if (IsString(t.kind)) {
        RNDN_ASSIGN_OR_RETURN(out, MakeVector(t, 0));
        out->AppendString("");
    } else {
        RNDN_ASSIGN_OR_RETURN(out, MakeVector(t, 1));
    }
    out->SetNull(0);
    return out;
}

// Sum as the rule's type.  Integers accumulate in __int128 and are range-checked.
Expected<std::shared_ptr<Vector>> SumVector(const Vector &v, const Type &rt, bool sql_empty = false) {
    if ((v.HasNulls() || sql_empty) && ValidCount(v) == 0) return NullScalar(rt);
    RNDN_ASSIGN_OR_RETURN(auto out, MakeVector(rt, 1));
    bool nulls = v.HasNulls();
    if (IsFloat(v.type.kind)) {
        // PostgreSQL's float4pl / float8pl: the values in order, in the result's own precision
        // (sum(real) accumulates in real), and a finite sum that becomes infinite is an error.
        // -0 is the additive identity: a lone -0 sums to -0, as PostgreSQL's float sum (which
        // starts from its first input) gives.
        bool overflow = false;
        auto add_all = [&](auto s) {
            using A = decltype(s);
            VisitFixed(v.type.kind, [&](auto t) {
                using T = decltype(t);
                if constexpr (std::is_floating_point_v<T>) {
                    const T *x = v.Data<T>();
                    for (int64_t i = 0; i < v.length; ++i) {
                        if (nulls && !v.IsValid(i)) continue;
                        const A next = s + static_cast<A>(x[i]);
                        if (OverflowedToInfinity<A>(next, s, static_cast<A>(x[i]))) overflow = true;
                        s = next;
                    }
                }
                return 0;
            });
            return s;
        };
        if (rt.kind == TypeKind::F32) out->Data<float>()[0] = add_all(v.length ? -0.0f : 0.0f);
        else out->Data<double>()[0] = add_all(v.length ? -0.0 : 0.0);
        if (overflow) return FloatOutOfRange("overflow");
        return out;
    }
    __int128 s = 0;
    bool ovf = false;
    VisitFixed(v.type.kind, [&](auto t) {
        using T = decltype(t);
        if constexpr (!std::is_floating_point_v<T> && !kIsInterval<T>) {
            const T *x = v.Data<T>();
            if constexpr (std::is_same_v<T, __int128>) {
                for (int64_t i = 0; i < v.length; ++i)
                    if (!nulls || v.IsValid(i)) ovf |= __builtin_add_overflow(s, x[i], &s);
            } else {
                int64_t acc = 0;
                for (int64_t i = 0; i < v.length; ++i) {
                    int64_t e = (!nulls || v.IsValid(i)) ? static_cast<int64_t>(x[i]) : 0;
                    int64_t next;
                    if (__builtin_add_overflow(acc, e, &next)) {
                        s += acc;  // fold the partial sum into the wide accumulator
                        acc = e;
                    } else {
                        acc = next;
                    }
                }
                s += acc;
            }
        }
        return 0;
    });
    if (ovf) return Status::UserError(sqlstate::kNumericOutOfRange, "value overflows numeric format");
    if (IsDecimal(rt.kind)) {
        out->Data<__int128>()[0] = s;
        return out;
    }
    if (rt.kind == TypeKind::I64) {
        if (s > INT64_MAX || s < INT64_MIN) return IntegerOutOfRange(TypeKind::I64);
        out->Data<int64_t>()[0] = static_cast<int64_t>(s);
    } else {
        if (s > INT32_MAX || s < INT32_MIN) return IntegerOutOfRange(TypeKind::I32);
        out->Data<int32_t>()[0] = static_cast<int32_t>(s);
    }
    return out;
}

// The largest display scale among the valid elements of a decimal with per-element scales.
int MaxDisplayScale(const Vector &v) {
    if (v.elem_scale.empty()) return v.scale_max;
    int s = 0;
    for (int64_t i = 0; i < v.length; ++i)
        if (v.IsValid(i)) s = std::max(s, static_cast<int>(v.elem_scale[static_cast<size_t>(i)]));
    return s;
}

Expected<Type> ReduceType(Builtin b, const Value &v) {
    std::vector<Type> types{v.type()};
    std::vector<const FuncRef *> funcs{nullptr};
    RuleCtx ctx{types, funcs, nullptr};
    auto r = GetBuiltin(b).rule(ctx);
    if (!r.ok()) return TypeError(std::string("@") + GetBuiltin(b).name + ": " + r.status().message());
    return r.value()[0];
}
}  // namespace

Expected<Value> KSum(KernelCtx &ctx, const std::vector<Value> &args) {
    bool sql_empty = ctx.options && ctx.options->sql_empty_aggregates;
    RNDN_RETURN_IF_ERROR(NeedVector(args[0], "sum", 0));
    RNDN_ASSIGN_OR_RETURN(Type rt, ReduceType(Builtin::SUM, args[0]));
    const Vector &v = args[0].vector();
    if (IsDecimal(v.type.kind) && v.type.scale == Type::kUnknownScale) {
        // PostgreSQL's sum has the largest display scale among the values summed (of this
        // group, not of the whole column the values came from)
        const int s = MaxDisplayScale(v);
        RNDN_ASSIGN_OR_RETURN(auto c, As(args[0].vector_ptr(), Type::Decimal(TypeKind::DEC128, s)));
        rt.scale = s;
        RNDN_ASSIGN_OR_RETURN(auto r, SumVector(*c, rt, sql_empty));
        // still a value with its own display scale: the sums of groups differ in scale
        r->type.scale = Type::kUnknownScale;
        r->scale_max = s;
        r->elem_scale.assign(static_cast<size_t>(r->length), static_cast<uint8_t>(s));
        return V(r);
    }
    RNDN_ASSIGN_OR_RETURN(auto r, SumVector(v, rt, sql_empty));
    return V(r);
}

Status FloatAccumStep(double val, double *n, double *sx, double *sxx);  // kernels_stat.cpp
namespace {
struct FloatAccum {
    double n = 0, sx = 0, sxx = 0;
};
// float8_accum over the non-NULL values of a float vector, in order
Expected<FloatAccum> FloatAccumulate(const std::shared_ptr<const Vector> &in) {
    RNDN_ASSIGN_OR_RETURN(auto v, As(in, TypeKind::F64));
    const double *x = v->Data<double>();
    double n = 0, sx = 0, sxx = 0;
    for (int64_t i = 0; i < v->length; ++i) {
        PollCancel(i);
        if (v->IsValid(i)) RNDN_RETURN_IF_ERROR(FloatAccumStep(x[i], &n, &sx, &sxx));
    }
    return FloatAccum{n, sx, sxx};
}
}  // namespace

Expected<__int128> DecimalAverage(__int128 sum, int scale, int64_t count, int *result_scale) {
    const int rs = SelectDivScale(sum, scale, count, 0);
    if (rs > 38) return Status::Unsupported("numeric avg result scale above 38");
    *result_scale = rs;
    return DecimalDivide(sum, scale, count, 0, rs);
}

Expected<Value> KAvg(KernelCtx &, const std::vector<Value> &args) {
    RNDN_RETURN_IF_ERROR(NeedVector(args[0], "avg", 0));
    RNDN_ASSIGN_OR_RETURN(Type rt, ReduceType(Builtin::AVG, args[0]));
    const Vector &v = args[0].vector();
    int64_t cnt = ValidCount(v);
    if (cnt == 0) return V(NullScalar(rt).value());  // SQL: avg of no rows is NULL
    if (IsDecimal(v.type.kind)) {
        int s = v.type.scale == Type::kUnknownScale ? MaxDisplayScale(v) : v.type.scale;
        RNDN_ASSIGN_OR_RETURN(auto c, As(args[0].vector_ptr(), Type::Decimal(TypeKind::DEC128, s)));
        RNDN_ASSIGN_OR_RETURN(auto sum, SumVector(*c, Type::Decimal(TypeKind::DEC128, s)));
        int rs = 0;
        RNDN_ASSIGN_OR_RETURN(__int128 q, DecimalAverage(sum->Data<__int128>()[0], s, cnt, &rs));
        RNDN_ASSIGN_OR_RETURN(auto out, MakeVector(Type::Decimal(TypeKind::DEC128, Type::kUnknownScale), 1));
        out->Data<__int128>()[0] = q;
        out->scale_max = rs;
        out->elem_scale = {static_cast<uint8_t>(rs)};
        return V(out);
    }
    if (IsFloat(v.type.kind)) {
        // PostgreSQL's avg(float4/float8) is float8_accum (Youngs-Cramer): Sx summed from 0,
        // and its Sxx overflowing on finite inputs raises, as for variance
        RNDN_ASSIGN_OR_RETURN(FloatAccum acc, FloatAccumulate(args[0].vector_ptr()));
        RNDN_ASSIGN_OR_RETURN(auto out, MakeVector(rt, 1));
        if (rt.kind == TypeKind::F32) out->Data<float>()[0] = static_cast<float>(acc.sx / acc.n);
        else out->Data<double>()[0] = acc.sx / acc.n;
        return V(out);
    }
    RNDN_ASSIGN_OR_RETURN(auto sum, SumVector(v, IsFloat(v.type.kind) ? Type(TypeKind::F64) : Type(TypeKind::I64)));
    // + 0.0: PostgreSQL's float avg accumulates from 0, so a sum of -0 only is +0
    double total = IsFloat(v.type.kind) ? sum->Data<double>()[0] + 0.0 : static_cast<double>(sum->Data<int64_t>()[0]);
    RNDN_ASSIGN_OR_RETURN(auto out, MakeVector(rt, 1));
    if (rt.kind == TypeKind::F32) out->Data<float>()[0] = static_cast<float>(total / static_cast<double>(cnt));
    else out->Data<double>()[0] = total / static_cast<double>(cnt);
    return V(out);
}

namespace {
Expected<Value> MinMax(const std::vector<Value> &args, bool is_max, bool sql_empty) {
    const char *fn = is_max ? "max" : "min";
    RNDN_RETURN_IF_ERROR(NeedVector(args[0], fn, 0));
    RNDN_RETURN_IF_ERROR(ReduceType(is_max ? Builtin::MAX : Builtin::MIN, args[0]).status());
    const Vector &v = args[0].vector();
    int64_t best = -1;
    if (IsString(v.type.kind)) {
        for (int64_t i = 0; i < v.length; ++i) {
            if (!v.IsValid(i)) continue;
            if (best < 0 || (is_max ? v.StringAt(i) > v.StringAt(best) : v.StringAt(i) < v.StringAt(best))) best = i;
        }
        if (best < 0) return V(NullScalar(v.type).value());
        RNDN_ASSIGN_OR_RETURN(auto out, MakeVector(v.type, 0));
        out->AppendString(v.StringAt(best));
        return V(out);
    }
    if ((v.HasNulls() || sql_empty) && ValidCount(v) == 0) return V(NullScalar(v.type).value());
    RNDN_ASSIGN_OR_RETURN(auto out, MakeVector(v.type, 1));
    out->scale_max = v.scale_max;
    VisitFixed(v.type.kind, [&](auto t) {
        using T = decltype(t);
        const T *x = v.Data<T>();
        T acc;
        if constexpr (std::is_floating_point_v<T>) acc = is_max ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::infinity();
        else if constexpr (std::is_same_v<T, __int128>) acc = is_max ? -(~static_cast<unsigned __int128>(0) >> 1) - 1 : static_cast<__int128>(~static_cast<unsigned __int128>(0) >> 1);
        else acc = is_max ? std::numeric_limits<T>::min() : std::numeric_limits<T>::max();
        bool nulls = v.HasNulls();
        if constexpr (std::is_floating_point_v<T> || kIsInterval<T>) {
            // PostgreSQL's float8larger/float8smaller: NaN is the largest value, and of two
            // equal values (-0 and 0) the later one wins; interval_larger/interval_smaller keep
            // the later of two equal spans too ('1 day' and '24 hours')
            bool any = false;
            for (int64_t i = 0; i < v.length; ++i) {
                if (nulls && !v.IsValid(i)) continue;
                if (!any || (is_max ? SqlCompare(x[i], acc) >= 0 : SqlCompare(x[i], acc) <= 0)) acc = x[i];
                any = true;
            }
            out->template Data<T>()[0] = acc;
            return 0;
        }
        if (is_max) {
            for (int64_t i = 0; i < v.length; ++i)
                if ((!nulls || v.IsValid(i)) && x[i] > acc) acc = x[i];
        } else {
            for (int64_t i = 0; i < v.length; ++i)
                if ((!nulls || v.IsValid(i)) && x[i] < acc) acc = x[i];
        }
        out->template Data<T>()[0] = acc;
        return 0;
    });
    if (!v.elem_scale.empty()) {
        // per-element display scale: keep the scale of the chosen element, the last of equal
        // ones as PostgreSQL's numeric_smaller/numeric_larger keep (0 and 0.0000 are equal)
        for (int64_t i = v.length - 1; i >= 0; --i)
            if (v.IsValid(i) && CompareElements(v, i, *out, 0) == 0) {
                out->elem_scale = {v.elem_scale[static_cast<size_t>(i)]};
                break;
            }
    }
    return V(out);
}
}  // namespace

Expected<Value> KMin(KernelCtx &ctx, const std::vector<Value> &a) { return MinMax(a, false, ctx.options && ctx.options->sql_empty_aggregates); }
Expected<Value> KMax(KernelCtx &ctx, const std::vector<Value> &a) { return MinMax(a, true, ctx.options && ctx.options->sql_empty_aggregates); }

namespace {
Expected<Value> AnyAll(const std::vector<Value> &args, bool any) {
    RNDN_RETURN_IF_ERROR(NeedVector(args[0], any ? "any" : "all", 0));
    const Vector &v = args[0].vector();
    if (v.type.kind != TypeKind::BOOL) return TypeError("expects a bool vector");
    bool r = !any;
    for (int64_t i = 0; i < v.length; ++i) {
        if (!v.IsValid(i)) continue;
        if (any && v.Data<uint8_t>()[i]) r = true;
        if (!any && !v.Data<uint8_t>()[i]) r = false;
    }
    return Value(ScalarBool(r));
}
}  // namespace
// PostgreSQL 15's float8_accum (Youngs-Cramer): N, Sx, Sxx over the non-NULL values in order,
// then float8_var_pop/var_samp/stddev_pop/stddev_samp.  Finite inputs whose sums overflow are
// "value out of range: overflow"; an infinite or NaN input makes Sxx NaN.

Expected<Value> KFloatVar(KernelCtx &, const std::vector<Value> &args) {
    RNDN_RETURN_IF_ERROR(NeedVector(args[0], "float_var", 0));
    RNDN_ASSIGN_OR_RETURN(int64_t kind, ScalarInt(args[1], "float_var"));
    if (kind < 0 || kind > 3) return ShapeError("@float_var: kind must be 0..3");
    RNDN_ASSIGN_OR_RETURN(FloatAccum acc, FloatAccumulate(args[0].vector_ptr()));
    const double n = acc.n, sxx = acc.sxx;
    RNDN_ASSIGN_OR_RETURN(auto out, MakeVector(TypeKind::F64, 1));
    const bool samp = kind == 1 || kind == 3;
    if (n < (samp ? 2.0 : 1.0)) {
        out->SetNull(0);
        return V(out);
    }
    double r = sxx / (samp ? n - 1.0 : n);
    if (kind >= 2) r = std::sqrt(r);
    out->Data<double>()[0] = r;
    return V(out);
}

// @clip(x, lo, hi): min(max(x, lo), hi) per element.
Expected<Value> KClip(KernelCtx &, const std::vector<Value> &args) {
    std::shared_ptr<const Vector> v[3];
    for (int i = 0; i < 3; ++i) {
        RNDN_RETURN_IF_ERROR(NeedVector(args[static_cast<size_t>(i)], "clip", i));
        if (!IsInteger(args[static_cast<size_t>(i)].vector().type.kind)) return TypeError("@clip: expects integer arguments");
        RNDN_ASSIGN_OR_RETURN(v[i], As(args[static_cast<size_t>(i)].vector_ptr(), TypeKind::I64));
    }
    RNDN_ASSIGN_OR_RETURN(int64_t n, BroadcastLength(v[0]->length, v[1]->length, "clip"));
    RNDN_ASSIGN_OR_RETURN(n, BroadcastLength(n, v[2]->length, "clip"));
    RNDN_ASSIGN_OR_RETURN(auto out, MakeVectorUninit(TypeKind::I64, n));
    const int64_t *x = v[0]->Data<int64_t>(), *lo = v[1]->Data<int64_t>(), *hi = v[2]->Data<int64_t>();
    const bool bx = v[0]->length == 1, bl = v[1]->length == 1, bh = v[2]->length == 1;
    int64_t *o = out->Data<int64_t>();
    bool nulls = false;
    for (int i = 0; i < 3; ++i) nulls = nulls || v[i]->HasNulls();
    for (int64_t i = 0; i < n; ++i) {
        PollCancel(i);
        o[i] = std::min(std::max(x[bx ? 0 : i], lo[bl ? 0 : i]), hi[bh ? 0 : i]);
    }
    if (nulls) {
        out->EnsureValidity();
        for (int64_t i = 0; i < n; ++i)
            if (!ValidAt(*v[0], i) || !ValidAt(*v[1], i) || !ValidAt(*v[2], i)) out->SetNull(i);
    }
    return V(out);
}

// @order_top(keys, flags, k): the first k row numbers of @order(keys, flags).  A bounded heap
// keeps the k smallest rows under @order's comparison (NULLs above every value, so last
// ascending and first descending; ties by row number: a stable order), then only those are
// sorted: O(n log k) instead of a sort of every row.  Keys whose values carry their own
// decimal scales, and a k near n, take @order's path.
Expected<Value> KOrderTop(KernelCtx &ctx, const std::vector<Value> &args) {
    std::vector<std::shared_ptr<const Vector>> keys;
    RNDN_RETURN_IF_ERROR(KeyColumns(args[0], "order_top", keys));
    RNDN_RETURN_IF_ERROR(NeedVector(args[1], "order_top", 1));
    const Vector &flags = args[1].vector();
    if (flags.type.kind != TypeKind::BOOL) return TypeError("@order_top: direction flags must be bool");
    if (flags.length != 1 && flags.length != static_cast<int64_t>(keys.size()))
        return ShapeError("@order_top: " + std::to_string(flags.length) + " direction flags for " + std::to_string(keys.size()) + " keys");
    RNDN_ASSIGN_OR_RETURN(int64_t k, ScalarInt(args[2], "order_top"));
    if (k < 0) return ShapeError("@order_top: negative count");
    const int64_t n = keys[0]->length;
    for (const auto &c : keys)
        if (c->length != n) return ShapeError("@order_top: keys differ in length");
    k = std::min(k, n);
    bool plain = true;
    for (const auto &c : keys) plain = plain && !(IsDecimal(c->type.kind) && (c->type.scale == Type::kUnknownScale || !c->elem_scale.empty()));
    if (!plain || k > n / 4) {
        RNDN_ASSIGN_OR_RETURN(Value full, KOrder(ctx, {args[0], args[1]}));
        if (k == n) return full;
        RNDN_ASSIGN_OR_RETURN(auto out, MakeVector(TypeKind::I64, k));
        if (k > 0) std::memcpy(out->Data<int64_t>(), full.vector().Data<int64_t>(), static_cast<size_t>(k) * sizeof(int64_t));
        return V(out);
    }
    PoolVector<uint8_t> asc(keys.size());
    for (size_t j = 0; j < keys.size(); ++j) asc[j] = flags.Data<uint8_t>()[flags.length == 1 ? 0 : j];
    auto less = [&](int64_t a, int64_t b) {
        for (size_t j = 0; j < keys.size(); ++j) {
            int c = CompareElements(*keys[j], a, *keys[j], b);
            if (c != 0) return asc[j] ? c < 0 : c > 0;
        }
        return a < b;
    };
    PoolVector<int64_t> heap;
    heap.reserve(static_cast<size_t>(k));
    if (k > 0) {
        for (int64_t i = 0; i < n; ++i) {
            PollCancel(i);
            if (static_cast<int64_t>(heap.size()) < k) {
                heap.push_back(i);
                std::push_heap(heap.begin(), heap.end(), less);
            } else if (less(i, heap.front())) {
                std::pop_heap(heap.begin(), heap.end(), less);
                heap.back() = i;
                std::push_heap(heap.begin(), heap.end(), less);
            }
        }
    }
    std::sort_heap(heap.begin(), heap.end(), less);
    RNDN_ASSIGN_OR_RETURN(auto out, I64FromVector(heap));
    return V(out);
}

// @run_bounds(keys, end): runs of consecutive rows whose keys @group puts in one group.
Expected<Value> KRunBounds(KernelCtx &ctx, const std::vector<Value> &args) {
    PoolVector<int64_t> ids;
    int64_t m = 0;
    RNDN_RETURN_IF_ERROR(GroupIds(args[0], "run_bounds", UseHash(ctx), false, ids, &m));  // equal ids only
    RNDN_RETURN_IF_ERROR(NeedVector(args[1], "run_bounds", 1));
    const Vector &flag = args[1].vector();
    if (flag.type.kind != TypeKind::BOOL || flag.length != 1 || !flag.IsValid(0)) return TypeError("@run_bounds: expects one bool");
    const bool end = flag.Data<uint8_t>()[0] != 0;
    const int64_t n = static_cast<int64_t>(ids.size());
    RNDN_ASSIGN_OR_RETURN(auto out, MakeVectorUninit(TypeKind::I64, n));
    int64_t *o = out->Data<int64_t>();
    const int64_t *id = ids.data();
    if (!end) {
        for (int64_t i = 0; i < n; ++i) PollCancel(i), o[i] = (i > 0 && id[i] == id[i - 1]) ? o[i - 1] : i;
    } else {
        for (int64_t i = n - 1; i >= 0; --i) PollCancel(i), o[i] = (i + 1 < n && id[i] == id[i + 1]) ? o[i + 1] : i + 1;
    }
    return V(out);
}

Expected<Value> KAny(KernelCtx &, const std::vector<Value> &a) { return AnyAll(a, true); }
Expected<Value> KAll(KernelCtx &, const std::vector<Value> &a) { return AnyAll(a, false); }

}  // namespace rndn::hir
