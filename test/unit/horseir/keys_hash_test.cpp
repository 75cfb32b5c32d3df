// The hash key paths (keys_hash.cpp) against the sort-based rank path they replace
// (InterpretOptions::hash_keys = false, kept as the reference): @join_index, @member,
// @index_of, @group, @unique and @run_bounds on random columns must give the same values in the
// same order.  Inputs: duplicates on both sides, NULLs, empty and one-row sides, strings with
// shared prefixes (short and long, str against sym), decimals of different scales, f64/f32 NaN,
// -0 and infinities, integers of different widths, multi-column keys and a join with an extra
// non-equality predicate.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "horseir/horseir.h"

namespace rndn::hir {
namespace {

// Random column of type t and length n: values from a domain of `domain` distinct values (so
// both sides share keys and repeat them), NULL with probability null_p.
std::shared_ptr<Vector> RandomColumn(const Type &t, int64_t n, int domain, double null_p, std::mt19937_64 &rng) {
    std::uniform_int_distribution<int> pick(0, domain - 1);
    std::bernoulli_distribution is_null(null_p);
    std::shared_ptr<Vector> v;
    if (IsString(t.kind)) {
        v = MakeVector(t, 0).value();
        for (int64_t i = 0; i < n; ++i) {
            const int k = pick(rng);
            // shared prefixes; some short (packed-key rank path), some long (hashed rank path)
            std::string s = (k % 3 == 0) ? std::string(1, static_cast<char>('a' + k % 5)) : "common_prefix_" + std::to_string(k);
            if (k % 7 == 0) s += std::string(1, '\0') + "z";  // an embedded NUL byte
            if (k % 11 == 0) s = "\xc3\xa9t\xc3\xa9";          // UTF-8 bytes >= 0x80
            if (k % 13 == 0) s.clear();                         // the empty string
            v->AppendString(s);
        }
    } else {
        v = MakeVector(t, n).value();
        for (int64_t i = 0; i < n; ++i) {
            const int k = pick(rng);
            switch (t.kind) {
                case TypeKind::BOOL: v->Data<uint8_t>()[i] = static_cast<uint8_t>(k & 1); break;
                case TypeKind::I8: v->Data<int8_t>()[i] = static_cast<int8_t>(k - domain / 2); break;
                case TypeKind::I16: v->Data<int16_t>()[i] = static_cast<int16_t>(k * 37 - 500); break;
                case TypeKind::I32:
                case TypeKind::DATE: v->Data<int32_t>()[i] = k * 1000003 - 7; break;  // wide range: no counting rank
                case TypeKind::I64:
                case TypeKind::TIME:
                case TypeKind::DT:
                case TypeKind::DEC64: v->Data<int64_t>()[i] = (k % 2 ? 1 : -1) * static_cast<int64_t>(k) * 1000000007LL; break;
                case TypeKind::DEC128: v->Data<__int128>()[i] = static_cast<__int128>(k - domain / 2) * (static_cast<__int128>(1) << 70); break;
                case TypeKind::F64: {
                    static const double special[] = {0.0, -0.0, std::nan(""), -std::nan(""), 1.0 / 0.0, -1.0 / 0.0, 0.1, 1e300};
                    v->Data<double>()[i] = k < 8 ? special[k] : k * 0.25 - 3;
                    break;
                }
                case TypeKind::F32: {
                    static const float special[] = {0.0f, -0.0f, std::nanf(""), 1.0f / 0.0f};
                    v->Data<float>()[i] = k < 4 ? special[k] : static_cast<float>(k) * 0.5f;
                    break;
                }
                default: ADD_FAILURE() << "no generator for " << TypeToString(t);
            }
        }
    }
    for (int64_t i = 0; i < n; ++i)
        if (is_null(rng)) v->SetNull(i);
    return v;
}

// Canonical text of a value, deep: vectors element by element, lists and dicts recursively.
std::string Deep(const Value &v) {
    if (v.is_vector()) {
        const Vector &x = v.vector();
        std::string s = TypeToString(x.type) + "[";
        for (int64_t i = 0; i < x.length; ++i) s += (i ? "," : "") + (x.IsValid(i) ? FormatElement(x, i) : std::string("null"));
        return s + "]";
    }
    if (v.kind() == ValueKind::LIST) {
        std::string s = "(";
        for (const auto &c : v.list().cells) s += Deep(c) + ";";
        return s + ")";
    }
    if (v.kind() == ValueKind::DICT) return "{" + Deep(v.dict().keys) + "->" + Deep(v.dict().values) + "}";
    return FormatValue(v);
}

// Runs `body` (statements over parameters a0.. / b0..) with hash_keys on and off; both must
// succeed with equal values.  Returns the hash path's value.
std::string Compare(const std::string &body, const std::vector<std::shared_ptr<Vector>> &a, const std::vector<std::shared_ptr<Vector>> &b) {
    std::string params;
    std::vector<Value> args;
    for (size_t i = 0; i < a.size(); ++i) {
        params += (params.empty() ? "" : ", ") + std::string("a") + std::to_string(i) + ":" + TypeToString(a[i]->type);
        args.emplace_back(std::shared_ptr<const Vector>(a[i]));
    }
    for (size_t i = 0; i < b.size(); ++i) {
        params += (params.empty() ? "" : ", ") + std::string("b") + std::to_string(i) + ":" + TypeToString(b[i]->type);
        args.emplace_back(std::shared_ptr<const Vector>(b[i]));
    }
    const std::string text = "module m{\n import Builtin.*;\n def main(" + params + ") : ?{\n" + body + "\n }\n}\n";
    auto p = ParseProgram(text, "t.hir");
    EXPECT_TRUE(p.ok()) << text << p.status().ToString();
    if (!p.ok()) return "";
    Status st = CheckProgram(*p);
    EXPECT_TRUE(st.ok()) << text << st.ToString();
    if (!st.ok()) return "";
    DataRegistry reg;
    InterpretOptions hash, rank;
    rank.hash_keys = false;
    auto h = Interpret(*p, reg, hash, args);
    auto r = Interpret(*p, reg, rank, args);
    EXPECT_EQ(h.ok(), r.ok()) << body;
    if (!h.ok() || !r.ok()) {
        EXPECT_EQ(h.ok() ? "" : h.status().ToString(), r.ok() ? "" : r.status().ToString()) << body;
        return h.ok() ? "" : h.status().ToString();
    }
    const std::string hs = Deep(*h), rs = Deep(*r);
    EXPECT_EQ(hs, rs) << body << "\n" << text;
    return hs;
}

struct Case {
    Type ta, tb;
};

std::vector<Case> SingleKeyCases() {
    return {
        {Type(TypeKind::BOOL), Type(TypeKind::BOOL)},
        {Type(TypeKind::I8), Type(TypeKind::I8)},
        {Type(TypeKind::I16), Type(TypeKind::I64)},  // widened to i64
        {Type(TypeKind::I32), Type(TypeKind::I32)},
        {Type(TypeKind::I64), Type(TypeKind::I64)},
        {Type(TypeKind::DATE), Type(TypeKind::DATE)},
        {Type(TypeKind::TIME), Type(TypeKind::TIME)},
        {Type(TypeKind::DT), Type(TypeKind::DT)},
        {Type::Decimal(TypeKind::DEC64, 2), Type::Decimal(TypeKind::DEC64, 2)},
        {Type::Decimal(TypeKind::DEC64, 2), Type::Decimal(TypeKind::DEC64, 4)},  // dec128<4>
        {Type::Decimal(TypeKind::DEC128, 3), Type::Decimal(TypeKind::DEC64, 1)},
        {Type(TypeKind::F64), Type(TypeKind::F64)},
        {Type(TypeKind::F32), Type(TypeKind::F32)},
        {Type(TypeKind::F32), Type(TypeKind::F64)},
        {Type(TypeKind::STR), Type(TypeKind::STR)},
        {Type(TypeKind::SYM), Type(TypeKind::STR)},
    };
}

const std::vector<std::pair<int64_t, int64_t>> kSizes = {{0, 0}, {0, 5}, {5, 0}, {1, 1}, {1, 40}, {40, 1}, {37, 300}, {500, 60}, {2000, 2000}};

TEST(KeysHash, SingleKeyAgainstRankPath) {
    std::mt19937_64 rng(16);
    int checked = 0;
    for (const Case &c : SingleKeyCases())
        for (auto [na, nb] : kSizes)
            for (double null_p : {0.0, 0.15}) {
                const int domain = 1 + static_cast<int>(rng() % 40);
                auto a = RandomColumn(c.ta, na, domain, null_p, rng);
                auto b = RandomColumn(c.tb, nb, domain, null_p, rng);
                const std::string what = TypeToString(c.ta) + "/" + TypeToString(c.tb) + " " + std::to_string(na) + "x" + std::to_string(nb);
                SCOPED_TRACE(what);
                Compare("r:? = @join_index(@eq, a0, b0); return r;", {a}, {b});
                Compare("r:? = @member(a0, b0); return r;", {a}, {b});
                Compare("r:? = @index_of(a0, b0); return r;", {a}, {b});
                Compare("r:? = @group(a0); return r;", {a}, {});
                Compare("r:? = @unique(a0); return r;", {a}, {});
                Compare("r:? = @run_bounds(a0, 1:bool); return r;", {a}, {});
                ++checked;
            }
    EXPECT_EQ(checked, static_cast<int>(SingleKeyCases().size() * kSizes.size() * 2));
}

TEST(KeysHash, MultiKeyAgainstRankPath) {
    std::mt19937_64 rng(61);
    const std::vector<std::vector<Type>> combos = {
        {Type(TypeKind::I32), Type(TypeKind::STR)},
        {Type(TypeKind::STR), Type(TypeKind::F64), Type(TypeKind::BOOL)},
        {Type::Decimal(TypeKind::DEC64, 2), Type(TypeKind::DATE)},
        {Type(TypeKind::I64), Type(TypeKind::I64)},
        {Type(TypeKind::F64), Type(TypeKind::I32)},  // float order keys in the flat group sort
        {Type(TypeKind::I16), Type(TypeKind::BOOL), Type(TypeKind::I8)},  // packed into one i64
    };
    for (const auto &types : combos)
        for (auto [na, nb] : kSizes)
            for (double null_p : {0.0, 0.1}) {
                std::vector<std::shared_ptr<Vector>> a, b;
                for (const Type &t : types) {
                    const int domain = 1 + static_cast<int>(rng() % 6);  // few values per column: many tuple repeats
                    a.push_back(RandomColumn(t, na, domain, null_p, rng));
                    b.push_back(RandomColumn(t, nb, domain, null_p, rng));
                }
                std::string la = "la:? = @list(", lb = "lb:? = @list(";
                for (size_t i = 0; i < types.size(); ++i) {
                    la += (i ? ",a" : "a") + std::to_string(i);
                    lb += (i ? ",b" : "b") + std::to_string(i);
                }
                const std::string lists = la + "); " + lb + "); ";
                SCOPED_TRACE(std::to_string(types.size()) + " keys, " + std::to_string(na) + "x" + std::to_string(nb));
                Compare(lists + "r:? = @join_index(@eq, la, lb); return r;", a, b);
                std::string eqs;
                for (size_t i = 0; i < types.size(); ++i) eqs += "@eq,";
                Compare(lists + "r:? = @join_index(" + eqs + " la, lb); return r;", a, b);
                Compare(lists + "r:? = @group(la); return r;", a, b);
                Compare(lists + "r:? = @run_bounds(la, 0:bool); return r;", a, b);
            }
}

// Sides long enough for the row-parallel paths (horseir/parallel.h: more than 2^18 rows, cut
// into 64Ki-row chunks that the cores take in turn): the probes of the direct-address, bits,
// generic and dec128 tables, the packed two-column keys, and the join's per-chunk pair counts
// and writes must still give the rank path's values in its order, on either side of the join.
TEST(KeysHash, LongSidesInParallelChunks) {
    std::mt19937_64 rng(2718);
    const int64_t kLong = 300001, kShort = 70003;
    const std::vector<std::vector<Type>> keys = {
        {Type(TypeKind::I16)},                    // small range: direct address
        {Type(TypeKind::I64)},                    // wide range: the bits table
        {Type(TypeKind::F64)},                    // bits of NaN and -0 normalised
        {Type(TypeKind::STR)},                    // the generic table over row hashes
        {Type::Decimal(TypeKind::DEC128, 3)},     // dec128: the generic table
        {Type(TypeKind::I32), Type(TypeKind::I16)},  // packed into one i64
    };
    for (const auto &types : keys)
        for (auto [na, nb] : {std::pair{kLong, kShort}, std::pair{kShort, kLong}}) {
            std::vector<std::shared_ptr<Vector>> a, b;
            for (const Type &t : types) {
                const int domain = types.size() == 1 ? 30011 : 173;  // about 2-10 matches per probe row
                if (IsString(t.kind)) {
                    // RandomColumn's strings repeat a few short values (a join of them here would
                    // be quadratic): distinct keys per value instead
                    for (auto [side, n] : {std::pair{&a, na}, std::pair{&b, nb}}) {
                        auto v = MakeVector(t, 0).value();
                        for (int64_t i = 0; i < n; ++i) v->AppendString("key-" + std::to_string(rng() % domain));
                        side->push_back(v);
                    }
                    continue;
                }
                a.push_back(RandomColumn(t, na, domain, types.size() == 1 ? 0.02 : 0.0, rng));
                b.push_back(RandomColumn(t, nb, domain, 0.0, rng));
            }
            SCOPED_TRACE(TypeToString(types[0]) + (types.size() > 1 ? "+" : "") + " " + std::to_string(na) + "x" + std::to_string(nb));
            if (types.size() == 1) {
                const std::string r = Compare("r:? = @join_index(@eq, a0, b0); i:? = @index(r, 0:i64); n:? = @len(i); return n;", a, b);
                EXPECT_GT(std::stoll(r.substr(r.find('[') + 1)), std::max(na, nb)) << "too few pairs to cross the chunks";
                Compare("r:? = @join_index(@eq, a0, b0); return r;", a, b);
                Compare("r:? = @member(a0, b0); return r;", a, b);
                Compare("r:? = @index_of(b0, a0); return r;", a, b);
                Compare("r:? = @group(a0); return r;", a, b);
            } else {
                Compare("la:? = @list(a0,a1); lb:? = @list(b0,b1); r:? = @join_index(@eq, la, lb); return r;", a, b);
            }
        }
}

// Integer-like keys of dense range (@member's bitmap, and the join that first drops the rows of a
// side at least 8 times longer whose key the short side lacks): values across zero and at the
// type's extremes (outside the short side's range), NULLs on either side, a second key column
// (dense or wide) and a non-equality predicate after the equality; either side long.  The short
// sides cover little of their range (the filter applies) or most of it (it does not).
TEST(KeysHash, DenseKeysAndPrefilteredJoins) {
    std::mt19937_64 rng(4242);
    const int64_t kLong = 400003, kShort = 3001;
    // a column of kind k: values lo + (random below span), on the long side every 97th row an
    // extreme of the type, NULL with probability null_p
    auto column = [&](TypeKind k, int64_t n, int64_t lo, int64_t span, double null_p) {
        const bool long_side = n == kLong;
        auto v = MakeVector(Type(k), n).value();
        std::bernoulli_distribution is_null(null_p);
        for (int64_t i = 0; i < n; ++i) {
            int64_t x = lo + static_cast<int64_t>(rng() % static_cast<uint64_t>(span));
            const bool extreme = long_side && i % 97 == 5;
            switch (k) {
                case TypeKind::I16: v->Data<int16_t>()[i] = extreme ? (i & 1 ? INT16_MIN : INT16_MAX) : static_cast<int16_t>(x); break;
                case TypeKind::I32:
                case TypeKind::DATE: v->Data<int32_t>()[i] = extreme ? (i & 1 ? INT32_MIN : INT32_MAX) : static_cast<int32_t>(x); break;
                default: v->Data<int64_t>()[i] = extreme ? (i & 1 ? INT64_MIN : INT64_MAX) : x; break;
            }
            if (is_null(rng)) v->SetNull(i);
        }
        return v;
    };
    struct Key {
        TypeKind kind;
        int64_t lo, span;        // the long side's values
        int64_t short_lo, short_span;  // the short side's
    };
    const std::vector<std::vector<Key>> cases = {
        {{TypeKind::I32, -200000, 400000, -5000, 30000}},              // a twentieth of the range kept
        {{TypeKind::I64, -1000000, 2000000, 985000, 30000}},           // across the long side's top
        {{TypeKind::DATE, 0, 20000, 100, 4000}},                       // covers most of its range: no filter
        {{TypeKind::I16, -30000, 60000, -100, 20000}},
        {{TypeKind::TIME, -1000, 3000, -10, 100}},                     // about 130 long rows per key; no filter
        {{TypeKind::I32, 0, 300000, 1000, 20000}, {TypeKind::I64, 0, 4, 0, 4}},   // the first key filters
        {{TypeKind::I64, 0, 7, 0, 7}, {TypeKind::I32, 0, 300000, 1000, 20000}},   // the second key filters
    };
    int checked = 0;
    for (const auto &keys : cases)
        for (bool left_long : {true, false})
            for (double null_p : {0.0, 0.05}) {
                const int64_t na = left_long ? kLong : kShort, nb = left_long ? kShort : kLong;
                std::vector<std::shared_ptr<Vector>> a, b;
                for (const Key &k : keys) {
                    a.push_back(left_long ? column(k.kind, na, k.lo, k.span, null_p) : column(k.kind, na, k.short_lo, k.short_span, null_p));
                    b.push_back(left_long ? column(k.kind, nb, k.short_lo, k.short_span, null_p) : column(k.kind, nb, k.lo, k.span, null_p));
                }
                auto fa = RandomColumn(Type(TypeKind::F64), na, 50, 0.0, rng), fb = RandomColumn(Type(TypeKind::F64), nb, 50, 0.0, rng);
                SCOPED_TRACE(TypeToString(Type(keys[0].kind)) + (keys.size() > 1 ? "+" : "") + (left_long ? " long left" : " long right") +
                             (null_p > 0 ? " with NULLs" : ""));
                if (keys.size() == 1) {
                    const std::string pairs = Compare("r:? = @join_index(@eq, a0, b0); i:? = @index(r, 0:i64); n:? = @len(i); return n;", a, b);
                    EXPECT_GT(std::stoll(pairs.substr(pairs.find('[') + 1)), 100) << "too few pairs to check the mapping back";
                    Compare("r:? = @join_index(@eq, a0, b0); return r;", a, b);
                    Compare("r:? = @member(a0, b0); return r;", a, b);
                    Compare("r:? = @member(b0, a0); return r;", a, b);
                    Compare("la:? = @list(a0, a1); lb:? = @list(b0, b1); r:? = @join_index(@eq, @lt, la, lb); return r;", {a[0], fa}, {b[0], fb});
                } else {
                    Compare("la:? = @list(a0,a1); lb:? = @list(b0,b1); r:? = @join_index(@eq, la, lb); return r;", a, b);
                    Compare("la:? = @list(a0,a1,a2); lb:? = @list(b0,b1,b2); r:? = @join_index(@eq, @eq, @geq, la, lb); return r;",
                            {a[0], a[1], fa}, {b[0], b[1], fb});
                }
                ++checked;
            }
    EXPECT_EQ(checked, static_cast<int>(cases.size() * 4));
}

// @group_distinct (count(DISTINCT x) per group in one pass) against the vector-per-group form it
// replaced in the translator (@each(@unique) over @each_right(@index) cells, then @count), on
// both key paths: every key type, NULLs in x, empty and one-row inputs, groups of one row.
TEST(KeysHash, GroupDistinctAgainstUniquePerGroup) {
    std::mt19937_64 rng(99);
    int checked = 0;
    for (const Case &c : SingleKeyCases())
        for (auto [na, unused] : kSizes)
            for (double null_p : {0.0, 0.2}) {
                (void)unused;
                const int domain = 1 + static_cast<int>(rng() % 40);
                auto x = RandomColumn(c.ta, na, domain, null_p, rng);
                auto k = RandomColumn(Type(TypeKind::I32), na, 1 + static_cast<int>(rng() % 9), 0.0, rng);
                SCOPED_TRACE(TypeToString(c.ta) + " " + std::to_string(na) + " rows");
                const std::string groups = "g:? = @group(a1); v:? = @values(g); ";
                const std::string fast = Compare(groups + "r:? = @group_distinct(a0, v); return r;", {x, k}, {});
                const std::string slow = Compare(groups + "p:? = @each_right(@index, a0, v); u:? = @each(@unique, p); "
                                                          "d:? = @each_item(@index, p, u); n:? = @each(@count, d); r:? = @raze(n); return r;",
                                                 {x, k}, {});
                if (na > 0) EXPECT_EQ(fast, slow);
                else EXPECT_EQ(fast, "i64[]");
                ++checked;
            }
    EXPECT_EQ(checked, static_cast<int>(SingleKeyCases().size() * kSizes.size() * 2));
}

// An equality key plus a non-equality predicate: the hash path makes the candidate pairs, the
// rest is filtered as before; and a join with no equality key at all keeps the nested loop.
TEST(KeysHash, MixedPredicates) {
    std::mt19937_64 rng(7);
    for (auto [na, nb] : kSizes) {
        auto a0 = RandomColumn(Type(TypeKind::I64), na, 8, 0.1, rng), b0 = RandomColumn(Type(TypeKind::I64), nb, 8, 0.1, rng);
        auto a1 = RandomColumn(Type(TypeKind::F64), na, 12, 0.1, rng), b1 = RandomColumn(Type(TypeKind::F64), nb, 12, 0.1, rng);
        Compare("la:? = @list(a0,a1); lb:? = @list(b0,b1); r:? = @join_index(@eq, @lt, la, lb); return r;", {a0, a1}, {b0, b1});
        Compare("la:? = @list(a1,a0); lb:? = @list(b1,b0); r:? = @join_index(@geq, @eq, la, lb); return r;", {a0, a1}, {b0, b1});
        if (na * nb <= 4000) Compare("r:? = @join_index(@neq, a0, b0); return r;", {a0}, {b0});
    }
}

// Fixed expectations for the float and string equality rules (held out of the random loops):
// NaN = NaN and -0 = 0 as PostgreSQL; strings by bytes.
TEST(KeysHash, FloatAndStringEquality) {
    auto x = MakeVector(TypeKind::F64, 4).value();
    double xs[] = {-0.0, std::nan(""), 2.5, 0.0};
    for (int i = 0; i < 4; ++i) x->Data<double>()[i] = xs[i];
    auto s = MakeVector(TypeKind::F64, 3).value();
    double ss[] = {0.0, -std::nan(""), 7.0};
    for (int i = 0; i < 3; ++i) s->Data<double>()[i] = ss[i];
    EXPECT_EQ(Compare("r:? = @index_of(a0, b0); return r;", {x}, {s}), "i64[0,1,3,0]");
    EXPECT_EQ(Compare("r:? = @join_index(@eq, a0, b0); return r;", {x}, {s}), "(i64[0,3,1];i64[0,0,1];)");
    EXPECT_EQ(Compare("r:? = @unique(a0); return r;", {x}, {}), "i64[0,1,2]");
    auto p = MakeVector(TypeKind::STR, 0).value();
    for (const char *t : {"abc", "ab", "abc", "abcd"}) p->AppendString(t);
    auto q = MakeVector(TypeKind::SYM, 0).value();
    for (const char *t : {"abcd", "abc "}) q->AppendString(t);
    EXPECT_EQ(Compare("r:? = @member(a0, b0); return r;", {p}, {q}), "bool[0,0,0,1]");
}

// @member of a string column in a small set of short strings (MemberSmallStrings' word path: the
// row's bytes as one 8-byte word, masked to its length) against the rank path: strings of 0-10
// bytes sharing prefixes and differing only past a shorter string's end, the last rows within 8
// bytes of the column's end (the path's bounds fallback), NULLs in the column and in the set, a
// set with a string longer than 8 bytes (the byte loop), and more than 6 M bytes in chunks.
TEST(KeysHash, MemberOfSmallStringSets) {
    std::mt19937_64 rng(777);
    const std::vector<std::string> words = {"", "A", "AB", "ABC", "AIR", "AIR REG", "AIR REGX", "MAIL", "MAI", "SHIP", "SHIPS", "RAIL",
                                            "FOB", "TRUCK", "REG AIR", "ABCDEFGH", "ABCDEFG", "ABCDEFGHI", "\xc3\xa9t\xc3\xa9"};
    auto column = [&](int64_t n, double null_p) {
        auto v = MakeVector(TypeKind::STR, 0).value();
        std::bernoulli_distribution is_null(null_p);
        for (int64_t i = 0; i < n; ++i) {
            v->AppendString(words[rng() % words.size()]);
            if (is_null(rng)) v->SetNull(i);
        }
        v->AppendString("AIR");  // the last rows: under 8 bytes from the end
        v->AppendString("A");
        return v;
    };
    auto set = [&](std::vector<std::string> s, bool with_null) {
        auto v = MakeVector(TypeKind::STR, 0).value();
        for (const auto &w : s) v->AppendString(w);
        if (with_null) {
            v->AppendString("");
            v->SetNull(v->length - 1);
        }
        return v;
    };
    const std::vector<std::vector<std::string>> sets = {
        {"AIR", "AIR REG"}, {"MAIL", "SHIP"}, {""}, {"ABCDEFGH", "A"}, {"ABCDEFGHI", "AIR"}, {"\xc3\xa9t\xc3\xa9", "FOB", "TRUCK", "RAIL"}};
    int checked = 0;
    for (int64_t n : {int64_t{0}, int64_t{37}, int64_t{700001}})
        for (double null_p : {0.0, 0.1})
            for (const auto &s : sets)
                for (bool with_null : {false, true}) {
                    SCOPED_TRACE(std::to_string(n) + " rows, set " + s[0] + (null_p > 0 ? ", NULLs" : "") + (with_null ? ", NULL in the set" : ""));
                    const std::string r = Compare("r:? = @member(a0, b0); return r;", {column(n, null_p)}, {set(s, with_null)});
                    if (n > 0 && !with_null && null_p == 0) EXPECT_NE(r.find('1'), std::string::npos) << "nothing found";
                    ++checked;
                }
    EXPECT_EQ(checked, 3 * 2 * 6 * 2);
    // @eq with one string literal (kernels_elementwise.cpp: a literal of up to 8 bytes compared
    // as one masked word) against @member in the one-string set on the rank path
    for (int64_t n : {int64_t{37}, int64_t{700001}})
        for (double null_p : {0.0, 0.1}) {
            auto col = column(n, null_p);
            for (const char *lit : {"AIR", "A", "", "ABCDEFGH", "ABCDEFG", "ABCDEFGHI", "AIR REG", "MAI"}) {
                SCOPED_TRACE(std::string("eq \"") + lit + "\" over " + std::to_string(n) + " rows");
                const std::string member = Compare("r:? = @member(a0, b0); return r;", {col}, {set({lit}, false)});
                const std::string eq = Compare(std::string("r:? = @eq(a0, \"") + lit + "\":str); return r;", {col}, {});
                EXPECT_EQ(eq, member);
            }
        }
}

}  // namespace
}  // namespace rndn::hir
