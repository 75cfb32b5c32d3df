// rndn's ARE-subset matcher (src/horseir/regex.h): the subset's refusals, and matches whose
// results PostgreSQL's documentation states (the differential cases compare many more against
// PostgreSQL itself; the expectations below were checked against PostgreSQL 15).
#include <gtest/gtest.h>

#include "horseir/regex.h"

namespace {

using namespace rndn::hir::regex;

std::string Replace(const std::string &s, const std::string &pat, const std::string &rep, bool glob) {
    auto p = Compile(pat, Options{});
    if (!p.ok()) return "UNSUPPORTED: " + p.status().message();
    Text t;
    Decode(s, t);
    std::vector<std::pair<long, long>> caps;
    std::string out;
    size_t search = 0, data = 0;
    while (search <= t.cp.size() && Search(**p, t, search, caps)) {
        const size_t so = caps[0].first, eo = caps[0].second;
        out += s.substr(t.off[data], t.off[so] - t.off[data]);
        for (size_t i = 0; i < rep.size(); ++i) {
            if (rep[i] == '\\' && i + 1 < rep.size() && rep[i + 1] >= '0' && rep[i + 1] <= '9') {
                const auto c = caps[rep[++i] - '0'];
                if (c.first >= 0) out += s.substr(t.off[c.first], t.off[c.second] - t.off[c.first]);
            } else {
                out += rep[i];
            }
        }
        data = eo;
        if (!glob) break;
        search = data + (so == eo ? 1 : 0);
    }
    return out + s.substr(t.off[data]);
}

TEST(Regex, DocumentedReplacements) {
    EXPECT_EQ(Replace("foobarbaz", "b..", "X", false), "fooXbaz");
    EXPECT_EQ(Replace("foobarbaz", "b..", "X", true), "fooXX");
    EXPECT_EQ(Replace("foobarbaz", "b(..)", "X\\1Y", true), "fooXarYXazY");
}

TEST(Regex, LeftmostLongestNotLeftmostFirst) {
    EXPECT_EQ(Replace("xabcx", "a|ab|abc", "_", false), "x_x");
    EXPECT_EQ(Replace("xyz", "x*", "-", true), "--y-z-");  // PostgreSQL 15: an empty match right after a match counts
}

TEST(Regex, RefusesWhatItDoesNotImplement) {
    for (const char *p : {"(a)\\1", "a*?", "a(?=b)", "[[:alpha:]]", "(?i)a", "a||b", "()", "(a)*", "a{256}", "***=a", "\\y", "a**"}) {
        auto r = Compile(p, Options{});
        EXPECT_FALSE(r.ok()) << p;
        if (!r.ok()) EXPECT_NE(r.status().message().find("outside rndn's ARE subset"), std::string::npos) << p << ": " << r.status().message();
    }
}

TEST(Regex, ClassesAreReported) {
    auto p = Compile("\\d+", Options{});
    ASSERT_TRUE(p.ok());
    EXPECT_TRUE(UsesClasses(**p));
    auto q = Compile("[^/]+", Options{});
    ASSERT_TRUE(q.ok());
    EXPECT_FALSE(UsesClasses(**q));
}

}  // namespace
