// ICU collations for @collate_rank (src/horseir, issue 19 item 15).  The core compiler does not
// link ICU; rndn.so does (PostgreSQL is built with it) and registers the "icu:" provider when it
// is loaded.  PostgreSQL 15 opens a deterministic ICU collation with ucol_open(<ICU locale>) (no
// attributes on ICU >= 54) and compares UTF-8 text with ucol_strcollUTF8 (varstr_cmp); this
// does the same.  No PostgreSQL call: a comparison may run on any thread (ICU's collators are
// safe for concurrent comparisons).
#include <unicode/ucol.h>
#include <unicode/uversion.h>

#include "horseir/horseir.h"

namespace rndn::exec {
namespace {

Expected<hir::CollationCompare> OpenIcu(const std::string &locale) {
    UErrorCode status = U_ZERO_ERROR;
    UCollator *coll = ucol_open(locale.c_str(), &status);
    if (U_FAILURE(status) || coll == nullptr)
        return Status::Unsupported("ICU collator for \"" + locale + "\": " + u_errorName(status));
    // kept for the life of the process, like PostgreSQL's collation cache
    return hir::CollationCompare([coll](std::string_view a, std::string_view b) {
        UErrorCode st = U_ZERO_ERROR;
        const UCollationResult r = ucol_strcollUTF8(coll, a.data(), (int32_t)a.size(), b.data(), (int32_t)b.size(), &st);
        if (U_FAILURE(st)) return a.compare(b);  // invalid UTF-8 cannot reach a UTF-8 table
        return r == UCOL_LESS ? -1 : r == UCOL_GREATER ? 1 : 0;
    });
}

struct Registrar {
    Registrar() { hir::RegisterCollationProvider("icu", OpenIcu); }
} registrar;

}  // namespace
}  // namespace rndn::exec
