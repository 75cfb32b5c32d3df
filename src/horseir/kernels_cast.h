// PostgreSQL 15's text output of floats, dates and timestamps (kernels_cast.cpp), shared with
// the unit tests.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/status.h"

namespace rndn::hir {

// float8out / float4out with extra_float_digits > 0: the shortest digits that read back as the
// value, laid out as PostgreSQL's Ryu code does (fixed for decimal exponents -4..14, resp. -4..5).
std::string PgFloat8Text(double v);
std::string PgFloat4Text(float v);
// date_out / timestamp_out under DateStyle ISO.
std::string PgDateText(int32_t days_since_2000);
std::string PgTimestampText(int64_t us_since_2000);
// timestamp_in for the ISO forms (YYYY-MM-DD[ HH:MI[:SS[.f]]], ±infinity), blanks around;
// other spellings UNSUPPORTED, as @from_text reads them (tsx18: timestamptz text)
Status PgTimestampFromText(std::string_view s, int64_t *out);

}  // namespace rndn::hir
