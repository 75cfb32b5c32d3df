// hir::Buf (owned or a view, copy on write) and the zero-copy column -> vector views: a vector
// made from a column reads the column's validity bitmap and string offsets/bytes in place.
#include <gtest/gtest.h>

#include <cstring>

#include "horseir/horseir.h"

namespace rndn::hir {
namespace {

TEST(Buf, OwnedBehavesLikeAVector) {
    Buf<int64_t> b;
    EXPECT_TRUE(b.empty());
    b.push_back(1);
    b.push_back(2);
    b.resize(4, 9);
    ASSERT_EQ(b.size(), 4u);
    EXPECT_EQ(b[0] + b[1] + b[2] + b[3], 21);
    Buf<int64_t> c = b;  // owned elements are copied
    c[0] = 100;
    EXPECT_EQ(b[0], 1);
    Buf<char> s;
    s.append("ab", 2);
    s.append(std::string("cd"));
    EXPECT_EQ(std::string(s.data(), s.size()), "abcd");
}

TEST(Buf, ViewReadsInPlaceAndCopiesOnWrite) {
    auto owner = std::make_shared<std::vector<uint64_t>>(std::vector<uint64_t>{1, 2, 3});
    const uint64_t *p = owner->data();
    Buf<uint64_t> v = Buf<uint64_t>::View(p, 3, owner);
    const Buf<uint64_t> &cv = v;
    EXPECT_TRUE(v.is_view());
    EXPECT_EQ(cv.data(), p);  // no copy
    EXPECT_EQ(cv[2], 3u);
    Buf<uint64_t> shared = v;  // a copy of a view shares the owner
    EXPECT_TRUE(shared.is_view());
    EXPECT_EQ(static_cast<const Buf<uint64_t> &>(shared).data(), p);
    EXPECT_EQ(owner.use_count(), 3);
    v[1] = 42;  // the first write copies: the owner's memory is untouched
    EXPECT_FALSE(v.is_view());
    EXPECT_EQ((*owner)[1], 2u);
    EXPECT_EQ(v[1], 42u);
    EXPECT_EQ(owner.use_count(), 2);
    EXPECT_TRUE(shared == Buf<uint64_t>({1, 2, 3}));
    const Buf<uint64_t> &cs = shared;
    shared.assign(cs.begin(), cs.begin() + 2);  // a range inside the view itself
    EXPECT_TRUE(shared == Buf<uint64_t>({1, 2}));
    EXPECT_EQ(owner.use_count(), 1);
}

TEST(Buf, VectorFromColumnSharesStringsAndValidity) {
    const char *words[] = {"alpha", "", "gamma", "delta"};
    auto c = MakeColumn(HostMemory(), TypeKind::STR, 4, /*nullable=*/true);
    ASSERT_TRUE(c.ok()) << c.status().message();
    std::string all;
    int64_t *off = reinterpret_cast<int64_t *>(c->offsets.mutable_data());
    for (int i = 0; i < 4; ++i) {
        all += words[i];
        off[i + 1] = static_cast<int64_t>(all.size());
    }
    auto bytes = DataBuffer::Allocate(HostMemory(), all.size());
    ASSERT_TRUE(bytes.ok());
    std::memcpy(bytes->mutable_data(), all.data(), all.size());
    c->bytes = *bytes;
    reinterpret_cast<uint64_t *>(c->validity.mutable_data())[0] &= ~uint64_t(2);  // element 1 is NULL
    ASSERT_TRUE(ValidateColumn(*c).ok());
    auto v = VectorFromColumn(*c);
    ASSERT_TRUE(v.ok()) << v.status().message();
    const Vector &x = **v;
    EXPECT_EQ(static_cast<const void *>(x.offsets.data()), static_cast<const void *>(c->offsets.data()));
    EXPECT_EQ(static_cast<const void *>(x.bytes.data()), static_cast<const void *>(c->bytes.data()));
    EXPECT_EQ(static_cast<const void *>(x.validity.data()), static_cast<const void *>(c->validity.data()));
    EXPECT_EQ(x.StringAt(0), "alpha");
    EXPECT_EQ(x.StringAt(3), "delta");
    EXPECT_TRUE(x.IsValid(0));
    EXPECT_FALSE(x.IsValid(1));
    // A writer gets its own copy; the column stays as it was.
    Vector w = x;
    w.SetNull(0);
    EXPECT_FALSE(w.IsValid(0));
    EXPECT_TRUE(x.IsValid(0));
    EXPECT_TRUE(c->IsValid(0));
    w.AppendString("epsilon");
    EXPECT_EQ(w.StringAt(4), "epsilon");
    EXPECT_EQ(x.offsets.size(), 5u);
    // And back: the column made from the vector views the same memory.
    auto back = ColumnFromVector(*v);
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(back->offsets.data(), c->offsets.data());
    EXPECT_EQ(back->bytes.data(), c->bytes.data());
}

}  // namespace
}  // namespace rndn::hir
