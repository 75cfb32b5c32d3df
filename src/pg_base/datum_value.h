// rndn::pg — PostgreSQL values as HorseIR values, shared by the translator (constants become
// literals) and the executor (query parameters are bound as the entry function's arguments).
// One conversion, so a constant and a parameter of the same value are the same HorseIR value.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>

#include "common/status.h"
#include "horseir/horseir.h"

namespace rndn::pg {

// The HorseIR type of a value of PostgreSQL type `type` (an OID); `scale` is the numeric's
// scale (dec128<scale>), ignored for other types.  nullopt: rndn has no column type for it
// (or a numeric with scale < 0, i.e. unknown).
std::optional<hir::Type> HirTypeOf(unsigned type, int scale);

// The HorseIR type of a table column of PostgreSQL type `type` and typmod `typmod`, as the
// translator declares it and the loader loads it (one table for both): HirTypeOf, except that a
// numeric(p,s) with p <= 18 is dec64<s> (8 bytes: every such value fits an int64 scaled by 10^s)
// and a numeric(p,s) with p > 18 is dec128<s>; an unconstrained numeric is dec128<?> (one display
// scale per value, PostgreSQL's dscale; values that do not fit make the scan fall back at run
// time).  nullopt for a negative scale or p > 38.
std::optional<hir::Type> ColumnHirTypeOf(unsigned type, int typmod);

// Digits after the decimal point of a numeric Datum (its display scale, as numeric_out writes
// it).  UNSUPPORTED for NaN and the infinities.  PostgreSQL calls are guarded (pg_call.h).
Expected<int> NumericDatumScale(uintptr_t datum);

// A length-1 vector of `target` holding the value (NULL when isnull).  `type` is the value's
// PostgreSQL type; target is HirTypeOf(type, ...).  Exact or refused (UNSUPPORTED, with a short
// reason): a numeric whose display scale differs from target.scale (or out of dec128's range),
// a non-finite float, an infinite date or one outside years 0001..9999.  char(n) values lose
// their trailing blanks (as the loader stores them).  PostgreSQL calls are guarded.  With
// `widen`, a numeric of another display scale is accepted too when it equals a value of the
// target's scale (a smaller scale, or only zeros beyond the target's): for uses that compare
// values and never show the scale, such as IN lists and by-value parameters.
Expected<std::shared_ptr<hir::Vector>> ScalarFromDatum(unsigned type, uintptr_t datum, bool isnull, const hir::Type &target,
                                                       bool widen = false);

}  // namespace rndn::pg
