// Hash-based key matching (see keys_hash.h): one flat open-addressing table (linear probing)
// of the distinct keys of the build side, no allocation per entry.
#include "horseir/keys_hash.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <limits>
#include <numeric>
#include <string_view>

#include "horseir/kernel_util.h"
#include "horseir/payload_pool.h"
#include "horseir/parallel.h"

namespace rndn::hir::keys {
namespace {

inline uint64_t Mix(uint64_t h) {  // a 64-bit finaliser: every input bit moves every output bit
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return h;
}
constexpr uint64_t kStep = 0x9e3779b97f4a7c15ULL;     // combines the columns of a tuple
constexpr uint64_t kNullBits = 0x4e554c4c4b455931ULL;  // the bits a NULL element hashes as

// Bits of one element such that equal elements (by Same) have equal bits.
template <class T>
inline uint64_t Bits(T x) {
    if constexpr (std::is_same_v<T, double>) {
        if (x != x) return 0x7ff8000000000000ULL;  // every NaN alike
        if (x == 0) return 0;                      // -0 as 0
        uint64_t u;
        std::memcpy(&u, &x, sizeof u);
        return u;
    } else if constexpr (std::is_same_v<T, float>) {
        if (x != x) return 0x7fc00000u;
        if (x == 0) return 0;
        uint32_t u;
        std::memcpy(&u, &x, sizeof u);
        return u;
    } else if constexpr (std::is_same_v<T, __int128>) {
        const auto u = static_cast<unsigned __int128>(x);
        return static_cast<uint64_t>(u) ^ Mix(static_cast<uint64_t>(u >> 64));
    } else {
        return static_cast<uint64_t>(static_cast<int64_t>(x));
    }
}

// The rank path's equality (a sort's !(a<b) && !(b<a)): floats with NaN = NaN and -0 = 0.
template <class T>
inline bool Same(T x, T y) {
    if constexpr (std::is_floating_point_v<T>)
        return x == y || (x != x && y != y);
    else
        return x == y;
}

// Per-column operations, by type, as function pointers (one dispatch per column, not per row).
struct ColOps {
    void (*hash)(const Vector &v, uint64_t *h, int64_t n);  // h[i] = Mix(h[i] * kStep + bits(v[i]))
    bool (*eq)(const Vector &a, int64_t i, const Vector &b, int64_t j);  // NULL equals NULL
    int (*cmp)(const Vector &v, int64_t i, int64_t j);                   // NULLs last
};

template <class T>
void HashFixed(const Vector &v, uint64_t *h, int64_t n) {
    const T *x = v.Data<T>();
    if (!v.HasNulls()) {
        for (int64_t i = 0; i < n; ++i) PollCancel(i), h[i] = Mix(h[i] * kStep + Bits(x[i]));
        return;
    }
    for (int64_t i = 0; i < n; ++i) PollCancel(i), h[i] = Mix(h[i] * kStep + (v.IsValid(i) ? Bits(x[i]) : kNullBits));
}
template <class T>
bool EqFixed(const Vector &a, int64_t i, const Vector &b, int64_t j) {
    const bool va = a.IsValid(i), vb = b.IsValid(j);
    if (!va || !vb) return va == vb;
    return Same(a.Data<T>()[i], b.Data<T>()[j]);
}
template <class T>
int CmpFixed(const Vector &v, int64_t i, int64_t j) {
    const bool vi = v.IsValid(i), vj = v.IsValid(j);
    if (!vi || !vj) return vi == vj ? 0 : (vi ? -1 : 1);
    return SqlCompare(v.Data<T>()[i], v.Data<T>()[j]);
}

void HashStr(const Vector &v, uint64_t *h, int64_t n) {
    const std::hash<std::string_view> hs;
    for (int64_t i = 0; i < n; ++i) PollCancel(i), h[i] = Mix(h[i] * kStep + (v.IsValid(i) ? hs(v.StringAt(i)) : kNullBits));
}
bool EqStr(const Vector &a, int64_t i, const Vector &b, int64_t j) {
    const bool va = a.IsValid(i), vb = b.IsValid(j);
    if (!va || !vb) return va == vb;
    return a.StringAt(i) == b.StringAt(j);
}
int CmpStr(const Vector &v, int64_t i, int64_t j) {
    const bool vi = v.IsValid(i), vj = v.IsValid(j);
    if (!vi || !vj) return vi == vj ? 0 : (vi ? -1 : 1);
    const int r = v.StringAt(i).compare(v.StringAt(j));  // bytes, unsigned, as the rank path
    return r < 0 ? -1 : r > 0;
}

ColOps OpsFor(TypeKind k) {
    if (IsString(k)) return {HashStr, EqStr, CmpStr};
    return VisitFixed(k, [](auto t) -> ColOps {
        using T = decltype(t);
        if constexpr (kIsInterval<T>)
            return {nullptr, nullptr, nullptr};
        else
            return {HashFixed<T>, EqFixed<T>, CmpFixed<T>};
    });
}

std::vector<ColOps> OpsOf(const Columns &cols) {
    std::vector<ColOps> ops;
    for (const auto &c : cols) ops.push_back(OpsFor(c->type.kind));
    return ops;
}

PoolVector<uint64_t> RowHashes(const Columns &cols, const std::vector<ColOps> &ops) {
    const int64_t n = cols[0]->length;
    PoolVector<uint64_t> h(static_cast<size_t>(n), 0);
    for (size_t c = 0; c < cols.size(); ++c) ops[c].hash(*cols[c], h.data(), n);
    return h;
}

// 1 for a row with a NULL in some column; empty when no column has NULLs.
PoolVector<uint8_t> NullRows(const Columns &cols) {
    PoolVector<uint8_t> nulls;
    for (const auto &c : cols) {
        if (!c->HasNulls()) continue;
        if (nulls.empty()) nulls.assign(static_cast<size_t>(c->length), 0);
        for (int64_t i = 0; i < c->length; ++i) PollCancel(i), nulls[static_cast<size_t>(i)] |= !c->IsValid(i);
    }
    return nulls;
}

// The distinct keys: slots hold (upper 32 hash bits << 32) | (id + 1), 0 when empty; rep[id] is
// the key's first row on the build side.  Sized from the build side's row count (load <= 1/2).
class Table {
public:
    explicit Table(int64_t rows) {
        size_t cap = 16;
        while (cap < 2 * static_cast<size_t>(rows)) cap <<= 1;
        slots_.assign(cap, 0);
        mask_ = cap - 1;
    }
    // The id of the key hashed h for which same(rep row) holds, or kAbsent.
    template <class SameRow>
    int64_t Find(uint64_t h, SameRow same) const {
        const uint64_t tag = h >> 32;
        for (size_t p = h & mask_;; p = (p + 1) & mask_) {
            const uint64_t s = slots_[p];
            if (s == 0) return kAbsent;
            if ((s >> 32) == tag) {
                const int64_t id = static_cast<int64_t>(s & 0xffffffffu) - 1;
                if (same(rep[static_cast<size_t>(id)])) return id;
            }
        }
    }
    // Same, adding row as a new key when none is equal.
    template <class SameRow>
    int64_t FindOrAdd(uint64_t h, int64_t row, SameRow same) {
        const uint64_t tag = h >> 32;
        for (size_t p = h & mask_;; p = (p + 1) & mask_) {
            const uint64_t s = slots_[p];
            if (s == 0) {
                const int64_t id = static_cast<int64_t>(rep.size());
                rep.push_back(row);
                slots_[p] = (tag << 32) | static_cast<uint64_t>(id + 1);
                return id;
            }
            if ((s >> 32) == tag) {
                const int64_t id = static_cast<int64_t>(s & 0xffffffffu) - 1;
                if (same(rep[static_cast<size_t>(id)])) return id;
            }
        }
    }
    void Prefetch(uint64_t h) const { __builtin_prefetch(&slots_[h & mask_]); }
    PoolVector<int64_t> rep;

private:
    PoolVector<uint64_t> slots_;
    size_t mask_ = 0;
};

// ids[i] = id_of(i) for each of n rows, kNull where nulls marks the row NULL (cancel polled).
template <class F>
void AssignIds(int64_t n, const PoolVector<uint8_t> &nulls, PoolVector<int64_t> &ids, F id_of) {
    ids.resize(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) {
        PollCancel(i);
        ids[static_cast<size_t>(i)] = !nulls.empty() && nulls[static_cast<size_t>(i)] ? kNull : id_of(i);
    }
}

// AssignIds over the rows in chunks on every core (id_of only reads: a probe of a built table).
// prefetch(i) asks for the memory row i's probe will read first, kProbeAhead rows before it is
// probed: a table larger than the caches costs one miss per row, overlapped this way.
inline constexpr int64_t kProbeAhead = 16;
template <class F, class P>
void AssignIdsParallel(int64_t n, const PoolVector<uint8_t> &nulls, PoolVector<int64_t> &ids, F id_of, P prefetch) {
    ids.resize(static_cast<size_t>(n));
    ForChunks(ChunksOf(n), [&](int64_t, int64_t lo, int64_t hi) {
        for (int64_t i = lo; i < std::min(hi, lo + kProbeAhead); ++i) prefetch(i);
        for (int64_t i = lo; i < hi; ++i) {
            PollCancel(i);
            if (i + kProbeAhead < hi) prefetch(i + kProbeAhead);
            ids[static_cast<size_t>(i)] = !nulls.empty() && nulls[static_cast<size_t>(i)] ? kNull : id_of(i);
        }
    });
}

// The distinct keys of one fixed-width column by their bits (Bits: equal bits exactly when the
// values are Same, for every fixed type but dec128): each slot holds the bits and id + 1 side by
// side (0: empty), so a probe touches one cache line, not the table, the first-row list and the
// column.  Sized from the build side's row count (load <= 1/2); ids in order of first addition.
class BitsTable {
public:
    explicit BitsTable(int64_t rows) {
        size_t cap = 16;
        while (cap < 2 * static_cast<size_t>(rows)) cap <<= 1;
        slots_.assign(cap, Slot{});
        mask_ = cap - 1;
    }
    int64_t Find(uint64_t bits) const {
        for (size_t p = Mix(bits) & mask_;; p = (p + 1) & mask_) {
            const Slot &s = slots_[p];
            if (s.id1 == 0) return kAbsent;
            if (s.bits == bits) return s.id1 - 1;
        }
    }
    int64_t FindOrAdd(uint64_t bits) {
        for (size_t p = Mix(bits) & mask_;; p = (p + 1) & mask_) {
            Slot &s = slots_[p];
            if (s.id1 == 0) {
                s = Slot{bits, ++size_};
                return size_ - 1;
            }
            if (s.bits == bits) return s.id1 - 1;
        }
    }
    int64_t size() const { return size_; }
    void Prefetch(uint64_t bits) const { __builtin_prefetch(&slots_[Mix(bits) & mask_]); }

private:
    struct Slot {
        uint64_t bits = 0;
        int64_t id1 = 0;
    };
    PoolVector<Slot> slots_;
    size_t mask_ = 0;
    int64_t size_ = 0;
};

// Widens [*lo, *hi] to the values of x[0..n) (rows that `nulls` marks are skipped; empty: none),
// per chunk on every core.
template <class T>
void WidenSpan(const T *x, int64_t n, const PoolVector<uint8_t> &nulls, int64_t *lo, int64_t *hi) {
    const RowChunks rc = ChunksOf(n);
    PoolVector<int64_t> clo(static_cast<size_t>(rc.count), INT64_MAX), chi(static_cast<size_t>(rc.count), INT64_MIN);
    ForChunks(rc, [&](int64_t c, int64_t a, int64_t b) {
        int64_t l = INT64_MAX, h = INT64_MIN;
        for (int64_t i = a; i < b; ++i) {
            PollCancel(i);
            if (!nulls.empty() && nulls[static_cast<size_t>(i)]) continue;
            l = std::min<int64_t>(l, static_cast<int64_t>(x[i]));
            h = std::max<int64_t>(h, static_cast<int64_t>(x[i]));
        }
        clo[static_cast<size_t>(c)] = l;
        chi[static_cast<size_t>(c)] = h;
    });
    *lo = std::min(*lo, *std::min_element(clo.begin(), clo.end()));
    *hi = std::max(*hi, *std::max_element(chi.begin(), chi.end()));
}

// Builds over nb rows (hash hb(i), equality eqb(rep, i)), probes np rows (hp(j), eqp(rep, j)).
template <class HB, class EB, class HP, class EP>
int64_t BuildProbe(int64_t nb, const PoolVector<uint8_t> &nullb, HB hb, EB eqb, int64_t np, const PoolVector<uint8_t> &nullp, HP hp,
                   EP eqp, PoolVector<int64_t> &idb, PoolVector<int64_t> &idp) {
    Table t(nb);
    AssignIds(nb, nullb, idb, [&](int64_t i) { return t.FindOrAdd(hb(i), i, [&](int64_t r) { return eqb(r, i); }); });
    AssignIdsParallel(
        np, nullp, idp, [&](int64_t j) { return t.Find(hp(j), [&](int64_t r) { return eqp(r, j); }); }, [&](int64_t j) { t.Prefetch(hp(j)); });
    return static_cast<int64_t>(t.rep.size());
}

bool Fixed(const Vector &v) { return !IsString(v.type.kind) && HashableKey(v.type.kind); }

// Integer-like keys (not floats, not dec128) whose non-NULL values of both sides span a small
// range (at most 4 (nb + np) + 4096 values, the rank path's counting bound): the table is a
// direct-address array over the range, slot x - lo holding id + 1 (a perfect hash).  False
// when the keys do not qualify; ids untouched then.
template <class T>
bool DirectIds(const Vector &vb, const PoolVector<uint8_t> &nullb, const Vector &vp, const PoolVector<uint8_t> &nullp, PoolVector<int64_t> &idb,
               PoolVector<int64_t> &idp, int64_t *m) {
    if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, __int128> || kIsInterval<T>) {
        return false;
    } else {
        const T *xb = vb.Data<T>(), *xp = vp.Data<T>();
        const int64_t nb = vb.length, np = vp.length;
        int64_t lo = INT64_MAX, hi = INT64_MIN;
        WidenSpan(xb, nb, nullb, &lo, &hi);
        WidenSpan(xp, np, nullp, &lo, &hi);
        if (lo > hi) lo = hi = 0;  // no non-NULL key
        if (static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo) > static_cast<uint64_t>(4 * (nb + np) + 4096)) return false;
        PoolVector<uint32_t> slot(static_cast<size_t>(hi - lo) + 1, 0);
        uint32_t next = 0;
        AssignIds(nb, nullb, idb, [&](int64_t i) {
            uint32_t &s = slot[static_cast<size_t>(static_cast<int64_t>(xb[i]) - lo)];
            if (s == 0) s = ++next;
            return static_cast<int64_t>(s) - 1;
        });
        auto at = [&](int64_t j) { return static_cast<size_t>(static_cast<int64_t>(xp[j]) - lo); };
        AssignIdsParallel(
            np, nullp, idp,
            [&](int64_t j) {
                const uint32_t s = slot[at(j)];
                return s == 0 ? kAbsent : static_cast<int64_t>(s) - 1;
            },
            [&](int64_t j) {
                if (nullp.empty() || !nullp[static_cast<size_t>(j)]) __builtin_prefetch(&slot[at(j)]);
            });
        *m = next;
        return true;
    }
}

}  // namespace

bool PackTuples(const std::vector<const Columns *> &sides, std::vector<std::shared_ptr<const Vector>> &packed) {
    const size_t ncols = sides[0]->size();
    if (ncols < 2) return false;
    PoolVector<int64_t> lo(ncols, INT64_MAX), hi(ncols, INT64_MIN);
    for (const Columns *side : sides)
        for (size_t c = 0; c < ncols; ++c) {
            const Vector &v = *(*side)[c];
            if (v.HasNulls() || IsString(v.type.kind)) return false;
            const bool ok = VisitFixed(v.type.kind, [&](auto t) -> bool {
                using T = decltype(t);
                if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, __int128> || kIsInterval<T>) {
                    return false;
                } else {
                    WidenSpan(v.Data<T>(), v.length, PoolVector<uint8_t>(), &lo[c], &hi[c]);
                    return true;
                }
            });
            if (!ok) return false;
        }
    // Mixed radix, first column most significant: the packed order is the tuples' order.
    PoolVector<int64_t> radix(ncols);
    unsigned __int128 product = 1;
    for (size_t c = ncols; c-- > 0;) {
        if (lo[c] > hi[c]) lo[c] = hi[c] = 0;  // no rows
        radix[c] = static_cast<int64_t>(product);
        product *= static_cast<unsigned __int128>(static_cast<uint64_t>(hi[c]) - static_cast<uint64_t>(lo[c])) + 1;
        if (product >= (static_cast<unsigned __int128>(1) << 62)) return false;
    }
    packed.clear();
    for (const Columns *side : sides) {
        const int64_t n = (*side)[0]->length;
        auto out = MakeVector(TypeKind::I64, n);
        if (!out.ok()) return false;
        int64_t *k = out.value()->Data<int64_t>();
        for (size_t c = 0; c < ncols; ++c)
            VisitFixed((*side)[c]->type.kind, [&](auto t) {
                using T = decltype(t);
                if constexpr (!(std::is_floating_point_v<T> || std::is_same_v<T, __int128> || kIsInterval<T>)) {
                    const T *x = (*side)[c]->template Data<T>();
                    ForChunks(ChunksOf(n), [&](int64_t, int64_t a, int64_t b) {
                        for (int64_t i = a; i < b; ++i) PollCancel(i), k[i] += (static_cast<int64_t>(x[i]) - lo[c]) * radix[c];
                    });
                }
                return 0;
            });
        packed.push_back(std::shared_ptr<const Vector>(out.value()));
    }
    return true;
}

bool HashableKey(TypeKind k) {
    if (IsString(k)) return true;
    switch (k) {
        case TypeKind::BOOL:
        case TypeKind::CHAR:
        case TypeKind::I8:
        case TypeKind::I16:
        case TypeKind::I32:
        case TypeKind::I64:
        case TypeKind::DATE:
        case TypeKind::MONTH:
        case TypeKind::MINUTE:
        case TypeKind::SECOND:
        case TypeKind::TIME:
        case TypeKind::DT:
        case TypeKind::DEC64:
        case TypeKind::DEC128:
        case TypeKind::F32:
        case TypeKind::F64: return true;
        default: return false;  // interval (compared normalised), lists, ...
    }
}

bool HashableKeys(const Columns &cols) {
    if (cols.empty()) return false;
    for (const auto &c : cols)
        if (!HashableKey(c->type.kind) || c->length >= (int64_t(1) << 31)) return false;
    return true;
}

int64_t JointIds(const Columns &a, const Columns &b, PoolVector<int64_t> &ia, PoolVector<int64_t> &ib) {
    if (std::vector<std::shared_ptr<const Vector>> packed; PackTuples({&a, &b}, packed)) return JointIds({packed[0]}, {packed[1]}, ia, ib);
    const bool a_builds = a[0]->length <= b[0]->length;
    const Columns &bc = a_builds ? a : b, &pc = a_builds ? b : a;
    PoolVector<int64_t> &idb = a_builds ? ia : ib, &idp = a_builds ? ib : ia;
    const int64_t nb = bc[0]->length, np = pc[0]->length;
    const PoolVector<uint8_t> nullb = NullRows(bc), nullp = NullRows(pc);
    if (bc.size() == 1 && Fixed(*bc[0])) {
        // One fixed-width column: hash and compare the values inline (NULL rows never reach
        // the table).
        return VisitFixed(bc[0]->type.kind, [&](auto t) -> int64_t {
            using T = decltype(t);
            if constexpr (kIsInterval<T>) {
                return 0;  // not reached: Fixed() is false for intervals
            } else {
                int64_t m;
                if (DirectIds<T>(*bc[0], nullb, *pc[0], nullp, idb, idp, &m)) return m;
                const T *xb = bc[0]->template Data<T>(), *xp = pc[0]->template Data<T>();
                if constexpr (!std::is_same_v<T, __int128>) {
                    BitsTable t(nb);
                    AssignIds(nb, nullb, idb, [&](int64_t i) { return t.FindOrAdd(Bits(xb[i])); });
                    AssignIdsParallel(
                        np, nullp, idp, [&](int64_t j) { return t.Find(Bits(xp[j])); }, [&](int64_t j) { t.Prefetch(Bits(xp[j])); });
                    return t.size();
                }
                return BuildProbe(
                    nb, nullb, [&](int64_t i) { return Mix(Bits(xb[i])); }, [&](int64_t r, int64_t i) { return Same(xb[r], xb[i]); }, np, nullp,
                    [&](int64_t j) { return Mix(Bits(xp[j])); }, [&](int64_t r, int64_t j) { return Same(xb[r], xp[j]); }, idb, idp);
            }
        });
    }
    const std::vector<ColOps> ops = OpsOf(bc);
    const PoolVector<uint64_t> hb = RowHashes(bc, ops), hp = RowHashes(pc, ops);
    auto eq = [&](const Columns &x, int64_t i, const Columns &y, int64_t j) {
        for (size_t c = 0; c < ops.size(); ++c)
            if (!ops[c].eq(*x[c], i, *y[c], j)) return false;
        return true;
    };
    return BuildProbe(
        nb, nullb, [&](int64_t i) { return hb[static_cast<size_t>(i)]; }, [&](int64_t r, int64_t i) { return eq(bc, r, bc, i); }, np, nullp,
        [&](int64_t j) { return hp[static_cast<size_t>(j)]; }, [&](int64_t r, int64_t j) { return eq(bc, r, pc, j); }, idb, idp);
}

int64_t FirstIds(const Columns &cols, PoolVector<int64_t> &ids, PoolVector<int64_t> &first) {
    const int64_t n = cols[0]->length;
    const PoolVector<uint8_t> none;
    PoolVector<int64_t> unused;
    int64_t m;
    if (cols.size() == 1 && Fixed(*cols[0]) && !cols[0]->HasNulls()) {
        m = VisitFixed(cols[0]->type.kind, [&](auto t) -> int64_t {
            using T = decltype(t);
            if constexpr (kIsInterval<T>) {
                return 0;  // not reached
            } else {
                int64_t direct;
                if (DirectIds<T>(*cols[0], none, *cols[0], none, ids, unused, &direct)) return direct;
                const T *x = cols[0]->template Data<T>();
                if constexpr (!std::is_same_v<T, __int128>) {
                    BitsTable t(n);
                    AssignIds(n, none, ids, [&](int64_t i) { return t.FindOrAdd(Bits(x[i])); });
                    return t.size();
                }
                auto h = [&](int64_t i) { return Mix(Bits(x[i])); };
                auto e = [&](int64_t r, int64_t i) { return Same(x[r], x[i]); };
                return BuildProbe(n, none, h, e, 0, none, h, e, ids, unused);
            }
        });
    } else {
        const std::vector<ColOps> ops = OpsOf(cols);
        const PoolVector<uint64_t> hs = RowHashes(cols, ops);
        auto h = [&](int64_t i) { return hs[static_cast<size_t>(i)]; };
        auto e = [&](int64_t r, int64_t i) {
            for (size_t c = 0; c < ops.size(); ++c)
                if (!ops[c].eq(*cols[c], r, *cols[c], i)) return false;
            return true;
        };
        m = BuildProbe(n, none, h, e, 0, none, h, e, ids, unused);
    }
    first.assign(static_cast<size_t>(m), 0);
    for (int64_t i = n - 1; i >= 0; --i) PollCancel(i), first[static_cast<size_t>(ids[static_cast<size_t>(i)])] = i;
    return m;
}

namespace {
// An unsigned 64-bit key with the order of SqlCompare (NaN above every number, -0 as 0) for
// fixed-width values other than dec128; false for other types.
bool OrderBits(const Vector &v, PoolVector<uint64_t> &out, const PoolVector<int64_t> &rows) {
    return VisitFixed(v.type.kind, [&](auto t) -> bool {
        using T = decltype(t);
        if constexpr (kIsInterval<T> || std::is_same_v<T, __int128>) {
            return false;
        } else {
            const T *x = v.Data<T>();
            out.resize(rows.size());
            for (size_t g = 0; g < rows.size(); ++g) {
                PollCancel(static_cast<int64_t>(g));
                const T e = x[rows[g]];
                uint64_t u;
                if constexpr (std::is_floating_point_v<T>) {
                    const double d = e != e ? std::numeric_limits<double>::quiet_NaN() : (e == 0 ? 0.0 : static_cast<double>(e));
                    std::memcpy(&u, &d, sizeof u);
                    u = (u >> 63) ? ~u : (u | (uint64_t(1) << 63));
                } else {
                    u = static_cast<uint64_t>(static_cast<int64_t>(e)) ^ (uint64_t(1) << 63);
                }
                out[g] = u;
            }
            return true;
        }
    });
}

// by_key sorted by the tuples of C order keys (keys[c][g]), lexicographic.
template <size_t C>
void SortByBits(const std::vector<PoolVector<uint64_t>> &keys, PoolVector<int64_t> &by_key) {
    struct Row {
        uint64_t k[C];
        int64_t g;
    };
    std::vector<Row> rows(by_key.size());
    for (size_t g = 0; g < rows.size(); ++g) {
        PollCancel(static_cast<int64_t>(g));
        for (size_t c = 0; c < C; ++c) rows[g].k[c] = keys[c][g];
        rows[g].g = static_cast<int64_t>(g);
    }
    CancelTicker ticker;
    std::sort(rows.begin(), rows.end(), [&](const Row &a, const Row &b) {
        ticker.Tick();
        for (size_t c = 0; c < C; ++c)
            if (a.k[c] != b.k[c]) return a.k[c] < b.k[c];
        return false;
    });
    for (size_t g = 0; g < rows.size(); ++g) by_key[g] = rows[g].g;
}
}  // namespace

void SortGroups(const Columns &cols, PoolVector<int64_t> &ids, PoolVector<int64_t> &first) {
    const std::vector<ColOps> ops = OpsOf(cols);
    PoolVector<int64_t> by_key(first.size());
    std::iota(by_key.begin(), by_key.end(), 0);
    CancelTicker ticker;
    // One to four columns of fixed-width values without NULLs: sort flat tuples of order keys.
    bool flat = cols.size() <= 4;
    std::vector<PoolVector<uint64_t>> bits(cols.size());
    for (size_t c = 0; c < cols.size() && flat; ++c)
        flat = Fixed(*cols[c]) && !cols[c]->HasNulls() && OrderBits(*cols[c], bits[c], first);
    // The groups' keys are distinct: the order is strict and total, no stability needed.
    if (flat) {
        if (cols.size() == 1) SortByBits<1>(bits, by_key);
        else if (cols.size() == 2) SortByBits<2>(bits, by_key);
        else if (cols.size() == 3) SortByBits<3>(bits, by_key);
        else SortByBits<4>(bits, by_key);
    } else if (cols.size() == 1 && IsString(cols[0]->type.kind) && !cols[0]->HasNulls()) {
        // one string column: sort views of the distinct strings (bytes, as the rank path)
        std::vector<std::string_view> reps(first.size());
        for (size_t g = 0; g < reps.size(); ++g) reps[g] = cols[0]->StringAt(first[g]);
        std::sort(by_key.begin(), by_key.end(), [&](int64_t a, int64_t b) {
            ticker.Tick();
            return reps[static_cast<size_t>(a)] < reps[static_cast<size_t>(b)];
        });
    } else if (cols.size() == 1 && Fixed(*cols[0]) && !cols[0]->HasNulls()) {
        VisitFixed(cols[0]->type.kind, [&](auto t) {
            using T = decltype(t);
            if constexpr (!kIsInterval<T>) {
                const T *x = cols[0]->template Data<T>();
                std::sort(by_key.begin(), by_key.end(), [&](int64_t a, int64_t b) {
                    ticker.Tick();
                    return SqlCompare(x[first[static_cast<size_t>(a)]], x[first[static_cast<size_t>(b)]]) < 0;
                });
            }
            return 0;
        });
    } else {
        std::sort(by_key.begin(), by_key.end(), [&](int64_t a, int64_t b) {
            ticker.Tick();
            const int64_t ra = first[static_cast<size_t>(a)], rb = first[static_cast<size_t>(b)];
            for (size_t c = 0; c < ops.size(); ++c)
                if (const int r = ops[c].cmp(*cols[c], ra, rb)) return r < 0;
            return false;
        });
    }
    PoolVector<int64_t> pos(first.size()), sorted_first(first.size());
    for (size_t g = 0; g < by_key.size(); ++g) {
        pos[static_cast<size_t>(by_key[g])] = static_cast<int64_t>(g);
        sorted_first[g] = first[static_cast<size_t>(by_key[g])];
    }
    for (size_t i = 0; i < ids.size(); ++i) PollCancel(static_cast<int64_t>(i)), ids[i] = pos[static_cast<size_t>(ids[i])];
    first = std::move(sorted_first);
}

}  // namespace rndn::hir::keys
