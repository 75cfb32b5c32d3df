// The radix ordering (radix_order.cpp) behind @order and the dense ranks of @group and joins:
// radix::StableOrder against std::stable_sort on keys of every width (both of its layouts:
// key and row packed in one word, and key and row side by side), the order-preserving key maps
// against the interpreter's comparison rules, and @order through the interpreter against a
// reference written here (stable, NULLs last ascending and first descending, NaN above every
// float, -0 equal to 0, strings in byte order) on random multi-column keys with NULLs, including
// tuples too wide for one mixed-radix key (the comparison path).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "horseir/horseir.h"
#include "horseir/radix_order.h"

namespace rndn::hir {
namespace {

std::vector<int64_t> ReferenceOrder(const std::vector<uint64_t> &key) {
    std::vector<int64_t> o(key.size());
    std::iota(o.begin(), o.end(), int64_t{0});
    std::stable_sort(o.begin(), o.end(), [&](int64_t a, int64_t b) { return key[(size_t)a] < key[(size_t)b]; });
    return o;
}

TEST(RadixOrder, StableOrderEqualsStableSortForEveryKeyWidth) {
    std::mt19937_64 rng(20261127);
    for (int64_t n : {0, 1, 2, 3, 17, 1000, 70000}) {
        for (int bits : {1, 3, 11, 12, 23, 40, 41, 63, 64}) {
            for (int dups : {0, 1}) {
                std::vector<uint64_t> key((size_t)n);
                const uint64_t mask = bits == 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
                const uint64_t base = rng();
                for (auto &k : key) {
                    k = rng() & mask;
                    if (dups) k &= ~uint64_t(0xff);  // many equal keys: stability matters
                    if (bits < 64) k += base & ~mask;  // an offset: only the span matters
                }
                EXPECT_EQ(radix::StableOrder(key.data(), n), ReferenceOrder(key)) << "n=" << n << " bits=" << bits;
            }
        }
    }
    // keys already in order, with ties, and one row out of place at the end
    std::vector<uint64_t> sorted(5000);
    for (size_t i = 0; i < sorted.size(); ++i) sorted[i] = i / 3;
    EXPECT_EQ(radix::StableOrder(sorted.data(), (int64_t)sorted.size()), ReferenceOrder(sorted));
    sorted.back() = 0;
    EXPECT_EQ(radix::StableOrder(sorted.data(), (int64_t)sorted.size()), ReferenceOrder(sorted));
    // the extremes of the key space together
    std::vector<uint64_t> ends = {~uint64_t(0), 0, 5, ~uint64_t(0), 0, uint64_t(1) << 63};
    EXPECT_EQ(radix::StableOrder(ends.data(), (int64_t)ends.size()), ReferenceOrder(ends));
}

TEST(RadixOrder, KeyMapsPreserveTheInterpretersOrder) {
    const double nan = std::nan("");
    const std::vector<double> d = {-INFINITY, -1e308, -1.5, -0.0, 0.0, 4.9e-324, 1.0, 1e308, INFINITY, nan, -nan};
    for (double a : d)
        for (double b : d) {
            const bool na = a != a, nb = b != b;
            const bool less = na || nb ? (!na && nb) : a < b;
            const bool equal = na || nb ? (na && nb) : a == b;
            EXPECT_EQ(radix::OrderKeyDouble(a) < radix::OrderKeyDouble(b), less) << a << " " << b;
            EXPECT_EQ(radix::OrderKeyDouble(a) == radix::OrderKeyDouble(b), equal) << a << " " << b;
        }
    const std::vector<int64_t> i = {INT64_MIN, INT64_MIN + 1, -2, -1, 0, 1, INT64_MAX - 1, INT64_MAX};
    for (int64_t a : i)
        for (int64_t b : i) EXPECT_EQ(radix::OrderKeySigned(a) < radix::OrderKeySigned(b), a < b) << a << " " << b;
}

// One random key column: values from `domain` distinct values spread over the type's range.
std::shared_ptr<Vector> Column(TypeKind kind, int64_t n, int64_t domain, double null_p, std::mt19937_64 &rng) {
    std::uniform_int_distribution<int64_t> pick(0, domain - 1);
    std::bernoulli_distribution is_null(null_p);
    auto v = MakeVector(kind == TypeKind::STR ? Type(TypeKind::STR) : Type(kind), kind == TypeKind::STR ? 0 : n).value();
    for (int64_t r = 0; r < n; ++r) {
        const int64_t k = pick(rng);
        switch (kind) {
            case TypeKind::I16: v->Data<int16_t>()[r] = (int16_t)(k * 7 - 3000); break;
            case TypeKind::I32: v->Data<int32_t>()[r] = (int32_t)(k * 1000003 - 900000000); break;
            case TypeKind::I64: v->Data<int64_t>()[r] = (k % 2 ? 1 : -1) * k * 1000000000039LL; break;
            case TypeKind::F64: {
                static const double special[] = {0.0, -0.0, std::nan(""), -std::nan(""), INFINITY, -INFINITY};
                v->Data<double>()[r] = k < 6 ? special[k] : (double)(k - domain / 2) * 0.375;
                break;
            }
            case TypeKind::F32: v->Data<float>()[r] = k == 0 ? -0.0f : k == 1 ? std::nanf("") : (float)(k - domain / 2) * 0.5f; break;
            case TypeKind::STR: v->AppendString(k % 4 == 0 ? std::string() : "s" + std::to_string(k * 7919 % 100003)); break;
            default: ADD_FAILURE() << "no generator";
        }
    }
    for (int64_t r = 0; r < n; ++r)
        if (is_null(rng)) v->SetNull(r);
    return v;
}

// -1, 0, 1: a against b in ascending order of one key, by the interpreter's rules.
int Cmp(const Vector &v, int64_t a, int64_t b) {
    const bool va = v.IsValid(a), vb = v.IsValid(b);
    if (!va || !vb) return va == vb ? 0 : va ? -1 : 1;  // NULL above every value
    auto num = [](auto x, auto y) {
        const bool nx = x != x, ny = y != y;
        if (nx || ny) return nx == ny ? 0 : nx ? 1 : -1;
        return x < y ? -1 : y < x ? 1 : 0;
    };
    switch (v.type.kind) {
        case TypeKind::I16: return num(v.Data<int16_t>()[a], v.Data<int16_t>()[b]);
        case TypeKind::I32: return num(v.Data<int32_t>()[a], v.Data<int32_t>()[b]);
        case TypeKind::I64: return num(v.Data<int64_t>()[a], v.Data<int64_t>()[b]);
        case TypeKind::DATE: return num(v.Data<int32_t>()[a], v.Data<int32_t>()[b]);
        case TypeKind::F64: return num(v.Data<double>()[a], v.Data<double>()[b]);
        case TypeKind::F32: return num(v.Data<float>()[a], v.Data<float>()[b]);
        case TypeKind::STR: return v.StringAt(a).compare(v.StringAt(b)) < 0 ? -1 : v.StringAt(a) == v.StringAt(b) ? 0 : 1;
        default: return 0;
    }
}

std::string OrderThroughInterpreter(const std::vector<std::shared_ptr<Vector>> &cols, const std::vector<bool> &asc) {
    std::string params, list, flags;
    std::vector<Value> args;
    for (size_t c = 0; c < cols.size(); ++c) {
        params += (c ? ", " : "") + std::string("a") + std::to_string(c) + ":" + TypeToString(cols[c]->type);
        list += (c ? ", " : "") + std::string("a") + std::to_string(c);
        flags += (c ? "," : "") + std::string(asc[c] ? "1" : "0");
        args.emplace_back(std::shared_ptr<const Vector>(cols[c]));
    }
    if (cols.size() > 1) flags = "(" + flags + ")";
    const std::string text = "module m{\n import Builtin.*;\n def main(" + params + ") : ?{\n k:? = @list(" + list +
                             ");\n r:? = @order(k, " + flags + ":bool);\n return r;\n }\n}\n";
    auto p = ParseProgram(text, "t.hir");
    if (!p.ok()) return "parse: " + p.status().ToString();
    if (Status st = CheckProgram(*p); !st.ok()) return "check: " + st.ToString();
    DataRegistry reg;
    auto r = Interpret(*p, reg, InterpretOptions(), args);
    if (!r.ok()) return "run: " + r.status().ToString();
    std::string s;
    for (int64_t i = 0; i < r->vector().length; ++i) s += std::to_string(r->vector().Data<int64_t>()[i]) + ",";
    return s;
}

TEST(RadixOrder, OrderEqualsAStableReferenceOnRandomKeys) {
    std::mt19937_64 rng(7);
    const TypeKind kinds[] = {TypeKind::I16, TypeKind::I32, TypeKind::I64, TypeKind::F64, TypeKind::F32, TypeKind::STR};
    int cases = 0;
    for (int64_t n : {0, 1, 5, 3000}) {
        for (int ncols : {1, 2, 3, 4}) {
            for (int trial = 0; trial < 6; ++trial) {
                std::vector<std::shared_ptr<Vector>> cols;
                std::vector<bool> asc;
                for (int c = 0; c < ncols; ++c) {
                    const TypeKind kind = kinds[rng() % 6];
                    // few distinct values (ties), or nearly all distinct (wide keys: with 4
                    // columns their rank tuples need more than 63 bits: the comparison path)
                    const int64_t domain = trial % 2 ? 7 : std::max<int64_t>(n * 40, 1);
                    cols.push_back(Column(kind, n, domain, trial % 3 == 0 ? 0.0 : 0.2, rng));
                    asc.push_back(rng() % 2 == 0);
                }
                std::vector<int64_t> ref((size_t)n);
                std::iota(ref.begin(), ref.end(), int64_t{0});
                std::stable_sort(ref.begin(), ref.end(), [&](int64_t a, int64_t b) {
                    for (size_t c = 0; c < cols.size(); ++c) {
                        const int k = Cmp(*cols[c], a, b);
                        if (k != 0) return asc[c] ? k < 0 : k > 0;
                    }
                    return false;
                });
                std::string want;
                for (int64_t r : ref) want += std::to_string(r) + ",";
                EXPECT_EQ(OrderThroughInterpreter(cols, asc), want) << "n=" << n << " columns=" << ncols << " trial=" << trial;
                ++cases;
            }
        }
    }
    EXPECT_EQ(cases, 4 * 4 * 6);
}

// The extremes of the 64-bit range (timestamps' -infinity and infinity) with NULLs: a key whose
// values and NULL span more than 2^63 cannot be one mixed-radix digit (the comparison path then
// orders it); with a narrow second key, both directions.
TEST(RadixOrder, ExtremeIntegerKeysWithNulls) {
    const int64_t vals[] = {INT64_MIN, 5, INT64_MAX, 0, -7, INT64_MIN + 1, INT64_MAX - 1, 3};
    const int64_t n = 40;
    for (TypeKind kind : {TypeKind::I64, TypeKind::DT}) {
        auto a = MakeVector(Type(kind), n).value();
        auto b = MakeVector(Type(TypeKind::I16), n).value();
        for (int64_t r = 0; r < n; ++r) {
            a->Data<int64_t>()[r] = vals[r % 8];
            b->Data<int16_t>()[r] = (int16_t)(r % 3);
        }
        a->SetNull(4);
        a->SetNull(17);
        b->SetNull(9);
        for (const std::vector<bool> &asc : {std::vector<bool>{true}, std::vector<bool>{false}}) {
            std::vector<int64_t> ref((size_t)n);
            std::iota(ref.begin(), ref.end(), int64_t{0});
            std::stable_sort(ref.begin(), ref.end(), [&](int64_t x, int64_t y) {
                const bool vx = a->IsValid(x), vy = a->IsValid(y);
                int k = !vx || !vy ? (vx == vy ? 0 : vx ? -1 : 1)
                                   : (a->Data<int64_t>()[x] < a->Data<int64_t>()[y] ? -1 : a->Data<int64_t>()[x] > a->Data<int64_t>()[y] ? 1 : 0);
                return asc[0] ? k < 0 : k > 0;
            });
            std::string want;
            for (int64_t r : ref) want += std::to_string(r) + ",";
            EXPECT_EQ(OrderThroughInterpreter({a}, asc), want) << TypeToString(Type(kind)) << " asc " << asc[0];
        }
        for (const std::vector<bool> &asc : {std::vector<bool>{true, false}, std::vector<bool>{false, true}}) {
            std::vector<int64_t> ref((size_t)n);
            std::iota(ref.begin(), ref.end(), int64_t{0});
            std::stable_sort(ref.begin(), ref.end(), [&](int64_t x, int64_t y) {
                for (int c = 0; c < 2; ++c) {
                    const Vector &v = c == 0 ? *a : *b;
                    const bool vx = v.IsValid(x), vy = v.IsValid(y);
                    int64_t px = 0, py = 0;
                    if (vx) px = c == 0 ? v.Data<int64_t>()[x] : v.Data<int16_t>()[x];
                    if (vy) py = c == 0 ? v.Data<int64_t>()[y] : v.Data<int16_t>()[y];
                    const int k = !vx || !vy ? (vx == vy ? 0 : vx ? -1 : 1) : (px < py ? -1 : px > py ? 1 : 0);
                    if (k != 0) return asc[(size_t)c] ? k < 0 : k > 0;
                }
                return false;
            });
            std::string want;
            for (int64_t r : ref) want += std::to_string(r) + ",";
            EXPECT_EQ(OrderThroughInterpreter({a, b}, asc), want) << TypeToString(Type(kind)) << " two keys";
        }
    }
}

// Keys already in order (a relation loaded in its index's order) come back as the identity
// without a sort; one row out of place, or a NULL, takes the sort; both equal the reference.
TEST(RadixOrder, RowsAlreadyInKeyOrder) {
    const int64_t n = 20000;
    for (int variant = 0; variant < 4; ++variant) {
        auto a = MakeVector(Type(TypeKind::I64), n).value();
        auto b = MakeVector(Type(TypeKind::DATE), n).value();
        for (int64_t r = 0; r < n; ++r) {
            a->Data<int64_t>()[r] = (r / 4) * 3 - 5000;        // ascending, ties of 4
            b->Data<int32_t>()[r] = 10000 - (int32_t)(r % 4);  // descending within the ties
        }
        if (variant == 1) a->Data<int64_t>()[n - 1] = -1000000;  // the last row belongs first
        if (variant == 2) b->SetNull(7);
        if (variant == 3) b->Data<int32_t>()[5] = b->Data<int32_t>()[4];  // a tie within a tie
        for (const std::vector<bool> &asc : {std::vector<bool>{true, false}, std::vector<bool>{true, true}}) {
            std::vector<int64_t> ref((size_t)n);
            std::iota(ref.begin(), ref.end(), int64_t{0});
            std::stable_sort(ref.begin(), ref.end(), [&](int64_t x, int64_t y) {
                for (const Vector *c : {a.get(), b.get()}) {
                    const int k = Cmp(*c, x, y);
                    if (k != 0) return (c == a.get() ? asc[0] : asc[1]) ? k < 0 : k > 0;
                }
                return false;
            });
            std::string want;
            for (int64_t r : ref) want += std::to_string(r) + ",";
            EXPECT_EQ(OrderThroughInterpreter({a, b}, asc), want) << "variant " << variant << " asc " << asc[1];
        }
    }
}

}  // namespace
}  // namespace rndn::hir
