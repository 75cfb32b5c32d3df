// Hash-based key matching for @join_index, @member, @index_of, @group and @unique
// (keys_hash.cpp).  Internal to src/horseir.
//
// Keys are tuples of columns of one type per position (the kernels convert both sides to their
// common type first, exactly as the rank path does).  Equality is the rank path's equality:
// fixed-width values by value (f32/f64 with PostgreSQL's float semantics: NaN equals NaN, -0
// equals 0), str/sym by bytes.  Interval keys (PostgreSQL compares intervals after
// normalisation, 1 day = 24 hours) and other types have no hash path: HashableKey is false and
// the kernels keep the sort-based rank path.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "horseir/horseir.h"
#include "horseir/payload_pool.h"

namespace rndn::hir::keys {

using Columns = std::vector<std::shared_ptr<const Vector>>;

inline constexpr int64_t kNull = -1;    // a row with a NULL in some key column
inline constexpr int64_t kAbsent = -2;  // a probe row whose key the build side lacks

bool HashableKey(TypeKind k);
bool HashableKeys(const Columns &cols);

// Two or more integer-like columns without NULLs (one Columns per side, columns alike): one i64
// per row, a mixed-radix number over each column's value range across all sides, so that equal
// tuples pack equal and the packed order is the tuples' lexicographic order.  False (packed
// unspecified) when a column is not integer-like, has NULLs, or the ranges' product reaches
// 2^62.
bool PackTuples(const std::vector<const Columns *> &sides, std::vector<std::shared_ptr<const Vector>> &packed);

// One id space for the key tuples of two sides (a and b: the same number of columns, column c
// of one type on both sides).  The hash table is built over the side with fewer rows; its
// distinct keys get ids 0..m-1 (returned), the other side's rows the id of their equal key or
// kAbsent.  Rows with a NULL in any column get kNull on either side (NULL never matches).
int64_t JointIds(const Columns &a, const Columns &b, PoolVector<int64_t> &ia, PoolVector<int64_t> &ib);

// Group ids of the rows of one side, NULL a value of its own (all NULLs of a column are equal):
// ids 0..m-1 in order of first appearance (returned m); first[g] is g's first row.
int64_t FirstIds(const Columns &cols, PoolVector<int64_t> &ids, PoolVector<int64_t> &first);

// Renumbers FirstIds' groups into ascending key order (lexicographic over the columns; per
// column the rank path's order: NULLs last, NaN above every number, str/sym by bytes):
// ids[i] and first[] are rewritten so that group g is the g-th smallest key.
void SortGroups(const Columns &cols, PoolVector<int64_t> &ids, PoolVector<int64_t> &first);

}  // namespace rndn::hir::keys
