// hir::Column: the one column type (buffers over allocator memory) and its zero-copy views
// to and from the interpreter's Vector.
#include <cstring>

#include "horseir/internal.h"

namespace rndn::hir {

namespace {

size_t Round16(size_t n) { return (n + 15) & ~size_t(15); }
size_t ValidityBytes(int64_t length) { return static_cast<size_t>((length + 63) / 64) * 8; }

}  // namespace

Expected<Column> MakeColumn(Allocator &allocator, const Type &type, int64_t length, bool nullable) {
    if (!IsBasic(type.kind) || type.kind == TypeKind::COMPLEX) return Status::Internal("MakeColumn: not a column type " + TypeToString(type));
    if (length < 0) return Status::Internal("MakeColumn: negative length");
    Column c;
    c.type = type;
    c.length = length;
    if (IsString(type.kind)) {
        RNDN_ASSIGN_OR_RETURN(c.offsets, DataBuffer::Allocate(allocator, static_cast<size_t>(length + 1) * 8, true));
    } else {
        size_t bytes = Round16(static_cast<size_t>(length) * static_cast<size_t>(ElementSize(type.kind)));
        RNDN_ASSIGN_OR_RETURN(c.data, DataBuffer::Allocate(allocator, bytes == 0 ? 16 : bytes, true));
    }
    if (nullable && length > 0) {
        RNDN_ASSIGN_OR_RETURN(c.validity, DataBuffer::Allocate(allocator, ValidityBytes(length), false));
        std::memset(c.validity.mutable_data(), 0xff, c.validity.size());
    }
    return c;
}

Status ValidateColumn(const Column &c) {
    auto bad = [&](const std::string &why) { return Status::Internal("invalid " + TypeToString(c.type) + " column: " + why); };
    if (!IsBasic(c.type.kind) || c.type.kind == TypeKind::COMPLEX) return bad("not a column type");
    if (c.length < 0) return bad("negative length");
    if (!c.validity.empty() && c.validity.size() < ValidityBytes(c.length)) return bad("validity bitmap too short");
    if (IsString(c.type.kind)) {
        if (c.offsets.size() < static_cast<size_t>(c.length + 1) * 8) return bad("offsets too short");
        const int64_t *o = c.offsets.As<int64_t>();
        if (o[0] != 0) return bad("offsets[0] is not 0");
        for (int64_t i = 0; i < c.length; ++i)
            if (o[i + 1] < o[i]) return bad("offsets decrease at " + std::to_string(i));
        if (static_cast<size_t>(o[c.length]) > c.bytes.size()) return bad("offsets point past the bytes");
        return Status::Ok();
    }
    if (c.data.size() < static_cast<size_t>(c.length) * static_cast<size_t>(ElementSize(c.type.kind))) return bad("data too short");
    if (IsDecimal(c.type.kind) && c.type.scale == Type::kUnknownScale && c.elem_scale.size() < static_cast<size_t>(c.length))
        return bad("per-element scales missing");
    return Status::Ok();
}

Expected<std::shared_ptr<const Vector>> VectorFromColumn(const Column &c) {
    RNDN_RETURN_IF_ERROR(ValidateColumn(c));
    try {
        auto v = std::make_shared<Vector>();
        v->type = c.type;
        v->length = c.length;
        v->scale_max = c.scale_max;
        if (IsString(c.type.kind)) {
            // zero copy: views of the column's offsets and bytes, kept alive by their owners
            const int64_t *o = c.offsets.As<int64_t>();
            if (c.offsets.owner())
                v->offsets = Buf<int64_t>::View(o, static_cast<size_t>(c.length + 1), c.offsets.owner());
            else
                v->offsets.assign(o, o + c.length + 1);
            const char *b = reinterpret_cast<const char *>(c.bytes.data());
            if (c.bytes.owner())
                v->bytes = Buf<char>::View(b, static_cast<size_t>(o[c.length]), c.bytes.owner());
            else
                v->bytes.assign(b, static_cast<size_t>(o[c.length]));
        } else {
            size_t need = static_cast<size_t>(c.length) * static_cast<size_t>(ElementSize(c.type.kind));
            bool aligned = (reinterpret_cast<uintptr_t>(c.data.data()) & 15) == 0;
            if (c.length > 0 && aligned && c.data.size() >= need) {
                // zero copy: the vector's payload is the column's buffer, kept alive by its owner
                v->data = std::shared_ptr<uint8_t[]>(c.data.owner(), c.data.mutable_data());
            } else {
                RNDN_ASSIGN_OR_RETURN(auto copy, MakeVector(c.type, c.length));
                if (c.length > 0)
                    std::memcpy(copy->data.get(), c.data.data(), static_cast<size_t>(c.length) * static_cast<size_t>(ElementSize(c.type.kind)));
                v->data = copy->data;
            }
        }
        if (!c.validity.empty()) {
            const uint64_t *w = c.validity.As<uint64_t>();
            const size_t words = static_cast<size_t>((c.length + 63) / 64);
            if (c.validity.owner())
                v->validity = Buf<uint64_t>::View(w, words, c.validity.owner());  // zero copy
            else
                v->validity.assign(w, w + words);
        }
        if (!c.elem_scale.empty()) v->elem_scale.assign(c.elem_scale.data(), c.elem_scale.data() + c.length);
        return std::shared_ptr<const Vector>(std::move(v));
    } catch (const std::bad_alloc &) {
        return Status::OutOfMemory("out of memory converting a column");
    }
}

Expected<Column> ColumnFromVector(std::shared_ptr<const Vector> v) {
    if (!v) return Status::Internal("ColumnFromVector: no vector");
    if (!IsBasic(v->type.kind) || v->type.kind == TypeKind::COMPLEX) return Status::Internal("ColumnFromVector: not a column type " + TypeToString(v->type));
    Column c;
    c.type = v->type;
    c.length = v->length;
    c.scale_max = v->scale_max;
    std::shared_ptr<const void> owner = v;
    if (IsString(v->type.kind)) {
        c.offsets = DataBuffer::View(v->offsets.data(), v->offsets.size() * 8, owner);
        c.bytes = DataBuffer::View(v->bytes.data(), v->bytes.size(), owner);
    } else {
        c.data = DataBuffer::View(v->data.get(), static_cast<size_t>(v->length) * static_cast<size_t>(ElementSize(v->type.kind)), owner);
    }
    if (!v->validity.empty()) c.validity = DataBuffer::View(v->validity.data(), v->validity.size() * 8, owner);
    if (!v->elem_scale.empty()) c.elem_scale = DataBuffer::View(v->elem_scale.data(), v->elem_scale.size(), owner);
    return c;
}

}  // namespace rndn::hir
