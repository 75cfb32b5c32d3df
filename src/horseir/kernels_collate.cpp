// @collate_rank: text ordered by a collation other than the bytes (issue 19 item 15).
//
// PostgreSQL orders text under a deterministic non-C collation by varstr_cmp: the locale's
// strcoll (libc strcoll_l, ICU ucol_strcollUTF8), and strings it calls equal by strcmp of their
// bytes.  glibc's strxfrm does not reproduce strcoll_l's order for every string (measured on
// glibc 2.36 en_US.UTF-8: 27 of 2,000,000 random pairs with combining accents and ignorable
// characters ordered differently), so sort keys cannot stand in for it.  This kernel ranks the
// distinct values of one vector with the comparison itself: rank order is the collation's order
// exactly, and equal ranks mean equal bytes.  Ranks of different vectors do not compare; the
// translator ranks the concatenation of the operands it compares.
#include <clocale>
#include <cstring>
#include <locale.h>
#include <map>
#include <mutex>
#include <unordered_map>

#include "horseir/kernel_util.h"

namespace rndn::hir {

namespace {
struct CollationRegistry {
    std::mutex mu;
    std::map<std::string, CollationOpener> providers;
    std::map<std::string, CollationCompare> open;
};
CollationRegistry &Registry() {
    static CollationRegistry *r = new CollationRegistry();  // never destroyed: used at exit
    return *r;
}

// glibc: newlocale's locale_t is immutable once made, so strcoll_l on it is thread-safe.
Expected<CollationCompare> OpenLibc(const std::string &name) {
    locale_t lt = newlocale(LC_COLLATE_MASK | LC_CTYPE_MASK, name.c_str(), (locale_t)0);
    if (lt == (locale_t)0) return Status::Unsupported("collation: locale \"" + name + "\" is not available");
    // the strings come NUL-terminated (see CollationCompare); text holds no NUL
    return CollationCompare([lt](std::string_view a, std::string_view b) { return strcoll_l(a.data(), b.data(), lt); });
}
}  // namespace

void RegisterCollationProvider(const std::string &provider, CollationOpener opener) {
    CollationRegistry &r = Registry();
    std::lock_guard<std::mutex> lock(r.mu);
    r.providers[provider] = std::move(opener);
}

Expected<CollationCompare> OpenCollation(const std::string &collation) {
    CollationRegistry &r = Registry();
    std::lock_guard<std::mutex> lock(r.mu);
    auto it = r.open.find(collation);
    if (it != r.open.end()) return it->second;
    const size_t colon = collation.find(':');
    if (colon == std::string::npos) return Status::Unsupported("collation \"" + collation + "\": expected provider:locale");
    const std::string provider = collation.substr(0, colon), locale = collation.substr(colon + 1);
    Expected<CollationCompare> cmp = Status::Unsupported("collation provider \"" + provider + "\" is not available");
    if (provider == "libc") cmp = OpenLibc(locale);
    else if (auto p = r.providers.find(provider); p != r.providers.end()) cmp = p->second(locale);
    if (!cmp.ok()) return cmp.status();
    r.open.emplace(collation, cmp.value());
    return cmp;
}

Expected<Value> KCollateRank(KernelCtx &, const std::vector<Value> &args) {
    RNDN_RETURN_IF_ERROR(NeedVector(args[0], "collate_rank", 0));
    RNDN_RETURN_IF_ERROR(NeedVector(args[1], "collate_rank", 1));
    const Vector &x = args[0].vector(), &c = args[1].vector();
    if (!IsString(x.type.kind) || !IsString(c.type.kind)) return TypeError("@collate_rank: expects (string vector, collation string)");
    if (c.length != 1 || !c.IsValid(0)) return ShapeError("@collate_rank: the collation must be one string");
    RNDN_ASSIGN_OR_RETURN(CollationCompare cmp, OpenCollation(std::string(c.StringAt(0))));
    // The distinct values, in order of first appearance, and each row's value number.
    std::unordered_map<std::string_view, int64_t> ids;
    std::vector<std::string_view> distinct;  // views into x's bytes
    std::vector<std::string> terminated;     // the same values NUL-terminated, for the comparison
    std::vector<int64_t> id(static_cast<size_t>(x.length), -1);
    for (int64_t i = 0; i < x.length; ++i) {
        PollCancel(i);
        if (!x.IsValid(i)) continue;
        auto [it, fresh] = ids.emplace(x.StringAt(i), static_cast<int64_t>(distinct.size()));
        if (fresh) distinct.push_back(it->first), terminated.emplace_back(it->first);
        id[static_cast<size_t>(i)] = it->second;
    }
    std::vector<int64_t> sorted(distinct.size());
    for (size_t k = 0; k < sorted.size(); ++k) sorted[k] = static_cast<int64_t>(k);
    CancelTicker ticker;
    // stable_sort (a merge sort) stays within bounds even if a locale's strcoll were not a
    // strict weak order; varstr_cmp's tie-break is strcmp, i.e. the bytes.
    std::stable_sort(sorted.begin(), sorted.end(), [&](int64_t a, int64_t b) {
        ticker.Tick();
        const std::string &sa = terminated[static_cast<size_t>(a)], &sb = terminated[static_cast<size_t>(b)];
        const int r = cmp(sa, sb);
        if (r != 0) return r < 0;
        return sa < sb;
    });
    std::vector<int64_t> rank_of(distinct.size());
    for (size_t k = 0; k < sorted.size(); ++k) rank_of[static_cast<size_t>(sorted[k])] = static_cast<int64_t>(k);
    RNDN_ASSIGN_OR_RETURN(auto out, MakeVector(TypeKind::I64, x.length));
    int64_t *o = out->Data<int64_t>();
    for (int64_t i = 0; i < x.length; ++i) {
        const int64_t v = id[static_cast<size_t>(i)];
        o[i] = v < 0 ? 0 : rank_of[static_cast<size_t>(v)];
    }
    if (x.HasNulls()) {
        out->EnsureValidity();
        for (int64_t i = 0; i < x.length; ++i)
            if (!x.IsValid(i)) out->SetNull(i);
    }
    return V(out);
}

}  // namespace rndn::hir
