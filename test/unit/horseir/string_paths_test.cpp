// The interpreter's fast string paths against references written here: LIKE patterns made of
// literals and % (matched by segments), = and <> against one string, compress and index of
// strings (pooled payloads, short strings copied inline).  Inputs: random strings over a small
// alphabet (so patterns match often), the empty string, embedded NUL and UTF-8 bytes, NULLs, and
// strings longer than the inline copy.  @member against a small string set is compared with the
// rank path in keys_hash_test.cpp.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "horseir/horseir.h"

namespace rndn::hir {
namespace {

// LIKE by the definition: % any run of bytes, _ one byte, everything else itself.
bool RefLike(const std::string &s, size_t i, const std::string &p, size_t j) {
    if (j == p.size()) return i == s.size();
    if (p[j] == '%') {
        for (size_t k = i; k <= s.size(); ++k)
            if (RefLike(s, k, p, j + 1)) return true;
        return false;
    }
    if (i == s.size()) return false;
    return (p[j] == '_' || p[j] == s[i]) && RefLike(s, i + 1, p, j + 1);
}

std::string RandomString(std::mt19937_64 &rng, const std::string &alphabet, size_t max_len) {
    std::string s(rng() % (max_len + 1), ' ');
    for (char &c : s) c = alphabet[rng() % alphabet.size()];
    return s;
}

// Runs `body` over parameters a0 (the column) and b0 (a second vector); returns the value.
Value RunWith(const std::string &body, const std::shared_ptr<Vector> &a, const std::shared_ptr<Vector> &b) {
    const std::string text = "module m{\n import Builtin.*;\n def main(a0:" + TypeToString(a->type) + ", b0:" + TypeToString(b->type) +
                             ") : ?{\n" + body + "\n }\n}\n";
    auto p = ParseProgram(text, "t.hir");
    EXPECT_TRUE(p.ok()) << text;
    EXPECT_TRUE(CheckProgram(*p).ok()) << text;
    DataRegistry reg;
    InterpretOptions opts;
    auto r = Interpret(*p, reg, opts, {Value(std::shared_ptr<const Vector>(a)), Value(std::shared_ptr<const Vector>(b))});
    EXPECT_TRUE(r.ok()) << body << (r.ok() ? "" : r.status().ToString());
    return r.ok() ? *r : Value();
}

std::shared_ptr<Vector> Strings(const std::vector<std::string> &xs, const std::vector<bool> &null = {}) {
    auto v = MakeVector(Type(TypeKind::STR), 0).value();
    for (const auto &x : xs) v->AppendString(x);
    for (size_t i = 0; i < null.size(); ++i)
        if (null[i]) v->SetNull(static_cast<int64_t>(i));
    return v;
}

TEST(StringPaths, LikeEqualsTheDefinition) {
    std::mt19937_64 rng(23);
    std::vector<std::string> xs;
    std::vector<bool> null;
    for (int i = 0; i < 400; ++i) {
        xs.push_back(RandomString(rng, "ab", 9));
        null.push_back(rng() % 10 == 0);
    }
    xs.push_back(std::string("a\0b", 3));
    null.push_back(false);
    xs.push_back("\xc3\xa9" "ab");
    null.push_back(false);
    auto col = Strings(xs, null);
    int patterns = 0, matched = 0;
    for (int t = 0; t < 300; ++t) {
        // % only (the segment matcher) in most patterns, some with _ (the general matcher)
        const std::string pat = RandomString(rng, t % 5 == 0 ? "ab%_" : "ab%%", 6);
        Value r = RunWith("r:? = @like(a0, b0); return r;", col, Strings({pat}));
        ASSERT_TRUE(r.is_vector());
        const Vector &v = r.vector();
        ASSERT_EQ(v.length, static_cast<int64_t>(xs.size()));
        for (size_t i = 0; i < xs.size(); ++i) {
            ASSERT_EQ(v.IsValid(static_cast<int64_t>(i)), !null[i]) << pat;
            if (null[i]) continue;
            const bool want = RefLike(xs[i], 0, pat, 0);
            ASSERT_EQ(v.Data<uint8_t>()[i] != 0, want) << "'" << xs[i] << "' LIKE '" << pat << "'";
            matched += want;
        }
        ++patterns;
    }
    EXPECT_EQ(patterns, 300);
    EXPECT_GT(matched, 1000);  // the patterns match often enough to test both answers
}

TEST(StringPaths, EqualityWithOneString) {
    std::mt19937_64 rng(5);
    std::vector<std::string> xs;
    std::vector<bool> null;
    for (int i = 0; i < 500; ++i) {
        xs.push_back(i % 50 == 0 ? std::string("ab\0a", 4) : RandomString(rng, "ab", 3));
        null.push_back(rng() % 8 == 0);
    }
    auto col = Strings(xs, null);
    for (const std::string lit : {std::string(), std::string("a"), std::string("ab"), std::string("ab\0a", 4), std::string("abab")}) {
        for (const char *op : {"eq", "neq"}) {
            for (bool lit_first : {false, true}) {
                const std::string body = std::string("r:? = @") + op + (lit_first ? "(b0, a0)" : "(a0, b0)") + "; return r;";
                Value r = RunWith(body, col, Strings({lit}));
                ASSERT_TRUE(r.is_vector());
                const Vector &v = r.vector();
                for (size_t i = 0; i < xs.size(); ++i) {
                    ASSERT_EQ(v.IsValid(static_cast<int64_t>(i)), !null[i]);
                    if (null[i]) continue;
                    const bool want = (xs[i] == lit) == (std::string(op) == "eq");
                    ASSERT_EQ(v.Data<uint8_t>()[i] != 0, want) << body << " '" << xs[i] << "'";
                }
            }
        }
    }
    // a NULL literal: every result NULL
    Value r = RunWith("r:? = @eq(a0, b0); return r;", col, Strings({"a"}, {true}));
    for (int64_t i = 0; i < r.vector().length; ++i) EXPECT_FALSE(r.vector().IsValid(i));
}

TEST(StringPaths, CompressAndIndexCopyEveryString) {
    std::mt19937_64 rng(11);
    std::vector<std::string> xs;
    for (int i = 0; i < 3000; ++i) xs.push_back(RandomString(rng, "xyz\xc3", i % 3 == 0 ? 40 : 9));  // beyond the inline copy too
    auto col = Strings(xs);
    auto mask = MakeVector(Type(TypeKind::BOOL), static_cast<int64_t>(xs.size())).value();
    auto idx = MakeVector(Type(TypeKind::I64), 5000).value();
    std::vector<std::string> kept, picked;
    for (size_t i = 0; i < xs.size(); ++i)
        if ((mask->Data<uint8_t>()[i] = rng() % 3 != 0)) kept.push_back(xs[i]);
    for (int64_t i = 0; i < idx->length; ++i) {
        idx->Data<int64_t>()[i] = static_cast<int64_t>(rng() % xs.size());
        picked.push_back(xs[static_cast<size_t>(idx->Data<int64_t>()[i])]);
    }
    for (int k = 0; k < 2; ++k) {  // the second round reuses pooled payloads
        Value c = RunWith("r:? = @compress(b0, a0); return r;", col, mask);
        ASSERT_EQ(c.vector().length, static_cast<int64_t>(kept.size()));
        for (size_t i = 0; i < kept.size(); ++i) ASSERT_EQ(std::string(c.vector().StringAt(static_cast<int64_t>(i))), kept[i]);
        Value g = RunWith("r:? = @index(a0, b0); return r;", col, idx);
        ASSERT_EQ(g.vector().length, idx->length);
        for (size_t i = 0; i < picked.size(); ++i) ASSERT_EQ(std::string(g.vector().StringAt(static_cast<int64_t>(i))), picked[i]);
        // a result is a value like any other: appending to it copies the pooled payload
        auto copy = std::make_shared<Vector>(g.vector());
        copy->AppendString("tail");
        EXPECT_EQ(copy->StringAt(copy->length - 1), "tail");
        EXPECT_EQ(std::string(copy->StringAt(0)), picked[0]);
        EXPECT_EQ(std::string(g.vector().StringAt(g.vector().length - 1)), picked.back());
    }
}

// A compress of over a million rows runs in chunks on every core: the same rows in the same
// order as a one-pass reference, for strings (lengths 0..12, so chunk boundaries fall between
// strings of every length) and for i64, with masks that keep runs across chunk boundaries, keep
// nothing, and keep everything.
TEST(StringPaths, LongCompressInChunksKeepsOrder) {
    const int64_t n = (1 << 20) * 3 + 12345;
    std::mt19937_64 rng(29);
    std::vector<std::string> xs(static_cast<size_t>(n));
    for (auto &x : xs) x = RandomString(rng, "abcdefgh", 12);
    auto col = Strings(xs);
    auto nums = MakeVector(Type(TypeKind::I64), n).value();
    for (int64_t i = 0; i < n; ++i) nums->Data<int64_t>()[i] = i * 7 - 3;
    for (int pattern = 0; pattern < 3; ++pattern) {
        auto mask = MakeVector(Type(TypeKind::BOOL), n).value();
        std::vector<int64_t> kept;
        for (int64_t i = 0; i < n; ++i) {
            const bool keep = pattern == 0 ? ((i / 100000) % 3 != 1 && rng() % 5 != 0) : pattern == 2;
            mask->Data<uint8_t>()[i] = keep;
            if (keep) kept.push_back(i);
        }
        Value c = RunWith("r:? = @compress(b0, a0); return r;", col, mask);
        ASSERT_EQ(c.vector().length, static_cast<int64_t>(kept.size())) << pattern;
        for (size_t i = 0; i < kept.size(); ++i)
            ASSERT_EQ(std::string(c.vector().StringAt(static_cast<int64_t>(i))), xs[static_cast<size_t>(kept[i])]) << pattern << " " << i;
        Value f = RunWith("r:? = @compress(b0, a0); return r;", nums, mask);
        ASSERT_EQ(f.vector().length, static_cast<int64_t>(kept.size())) << pattern;
        for (size_t i = 0; i < kept.size(); ++i) ASSERT_EQ(f.vector().Data<int64_t>()[i], kept[i] * 7 - 3) << pattern << " " << i;
    }
}

// Row-parallel paths over columns of more than 2^18 rows (64Ki-row chunks on every core): a
// string against a literal (short and long), LIKE, IN with a small set (with and without NULL), and
// gathers of strings and of fixed-width values with NULLs, against the definitions row by row;
// an index out of range names the first one in order, also when a later chunk holds another.
TEST(StringPaths, LongColumnsInChunks) {
    const int64_t n = 300000 + 4321;
    std::mt19937_64 rng(31);
    std::vector<std::string> xs(static_cast<size_t>(n));
    std::vector<bool> null(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) {
        xs[static_cast<size_t>(i)] = rng() % 4 == 0 ? "abcdefghijk" : RandomString(rng, "ab", 3);
        null[static_cast<size_t>(i)] = rng() % 9 == 0;
    }
    auto col = Strings(xs, null);
    auto plain = Strings(xs);
    auto one = [](const std::string &x) { return Strings({x}); };
    for (const std::string lit : {"ab", "abcdefghijk", ""}) {
        Value e = RunWith("r:? = @eq(a0, b0); return r;", col, one(lit));
        Value ne = RunWith("r:? = @neq(b0, a0); return r;", plain, one(lit));
        for (int64_t i = 0; i < n; ++i) {
            const bool want = xs[static_cast<size_t>(i)] == lit;
            ASSERT_EQ(e.vector().IsValid(i), !null[static_cast<size_t>(i)]) << lit << " " << i;
            if (!null[static_cast<size_t>(i)]) ASSERT_EQ(e.vector().Data<uint8_t>()[i], want) << lit << " " << i;
            ASSERT_EQ(ne.vector().Data<uint8_t>()[i], !want) << lit << " " << i;
        }
    }
    for (const std::string pat : {"%b%a", "a_b%"}) {
        Value l = RunWith("r:? = @like(a0, b0); return r;", col, one(pat));
        for (int64_t i = 0; i < n; ++i) {
            ASSERT_EQ(l.vector().IsValid(i), !null[static_cast<size_t>(i)]) << pat << " " << i;
            if (!null[static_cast<size_t>(i)]) ASSERT_EQ(l.vector().Data<uint8_t>()[i] != 0, RefLike(xs[static_cast<size_t>(i)], 0, pat, 0)) << pat << " " << i;
        }
    }
    for (bool set_null : {false, true}) {
        auto set = Strings({"a", "bab", "abcdefghijk", ""}, {false, false, false, set_null});
        Value m = RunWith("r:? = @member(a0, b0); return r;", col, set);
        for (int64_t i = 0; i < n; ++i) {
            const std::string &x = xs[static_cast<size_t>(i)];
            const bool found = x == "a" || x == "bab" || x == "abcdefghijk" || (x.empty() && !set_null);
            const bool is_null = null[static_cast<size_t>(i)] || (!found && set_null);
            ASSERT_EQ(m.vector().IsValid(i), !is_null) << set_null << " " << i;
            if (!is_null) ASSERT_EQ(m.vector().Data<uint8_t>()[i], found) << set_null << " " << i;
        }
    }
    auto idx = MakeVector(Type(TypeKind::I64), n).value();
    auto nums = MakeVector(Type(TypeKind::I64), n).value();
    for (int64_t i = 0; i < n; ++i) {
        idx->Data<int64_t>()[i] = static_cast<int64_t>(rng() % static_cast<uint64_t>(n));
        nums->Data<int64_t>()[i] = i * 3 + 1;
        if (null[static_cast<size_t>(i)]) nums->SetNull(i);
    }
    Value gs = RunWith("r:? = @index(a0, b0); return r;", col, idx);
    Value gf = RunWith("r:? = @index(a0, b0); return r;", nums, idx);
    for (int64_t i = 0; i < n; ++i) {
        const int64_t r = idx->Data<int64_t>()[i];
        ASSERT_EQ(gs.vector().IsValid(i), !null[static_cast<size_t>(r)]) << i;
        ASSERT_EQ(gf.vector().IsValid(i), !null[static_cast<size_t>(r)]) << i;
        ASSERT_EQ(std::string(gs.vector().StringAt(i)), xs[static_cast<size_t>(r)]) << i;
        if (!null[static_cast<size_t>(r)]) ASSERT_EQ(gf.vector().Data<int64_t>()[i], r * 3 + 1) << i;
    }
    idx->Data<int64_t>()[200000] = n + 5;  // the first out of range, in a later chunk than ...
    idx->Data<int64_t>()[290000] = -1;     // ... this one's
    const std::string text = "module m{\n import Builtin.*;\n def main(a0:str, b0:i64) : ?{\n r:? = @index(a0, b0); return r;\n }\n}\n";
    auto p = ParseProgram(text, "t.hir");
    ASSERT_TRUE(p.ok());
    ASSERT_TRUE(CheckProgram(*p).ok());
    DataRegistry reg;
    auto bad = Interpret(*p, reg, InterpretOptions{}, {Value(std::shared_ptr<const Vector>(col)), Value(std::shared_ptr<const Vector>(idx))});
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.status().ToString().find("index " + std::to_string(n + 5) + " out of range"), std::string::npos) << bad.status().ToString();
}

}  // namespace
}  // namespace rndn::hir
