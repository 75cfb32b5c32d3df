// Types, vectors, values, formatting and the data registry.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <new>
#include <sys/mman.h>
#include <cstdlib>
#include <map>
#include <mutex>
#include <unordered_map>

#include "common/tracked_memory.h"

#include "horseir/internal.h"
#include "horseir/payload_pool.h"

namespace rndn::hir {

namespace {

struct KindRow {
    TypeKind kind;
    const char *name;
    int size;  // element bytes, 0 = not fixed width
    uint8_t cls;
};
enum : uint8_t { C_NONE = 0, C_INT = 1, C_FLOAT = 2, C_DEC = 4, C_STR = 8, C_CAL = 16, C_BASIC = 32 };

// One row per TypeKind, in enum order.
constexpr KindRow kKinds[] = {
    {TypeKind::WILDCARD, "?", 0, C_NONE},
    {TypeKind::BOOL, "bool", 1, C_INT | C_BASIC},
    {TypeKind::CHAR, "char", 1, C_INT | C_BASIC},
    {TypeKind::I8, "i8", 1, C_INT | C_BASIC},
    {TypeKind::I16, "i16", 2, C_INT | C_BASIC},
    {TypeKind::I32, "i32", 4, C_INT | C_BASIC},
    {TypeKind::I64, "i64", 8, C_INT | C_BASIC},
    {TypeKind::F32, "f32", 4, C_FLOAT | C_BASIC},
    {TypeKind::F64, "f64", 8, C_FLOAT | C_BASIC},
    {TypeKind::COMPLEX, "complex", 16, C_BASIC},
    {TypeKind::STR, "str", 0, C_STR | C_BASIC},
    {TypeKind::SYM, "sym", 0, C_STR | C_BASIC},
    {TypeKind::MONTH, "month", 4, C_CAL | C_BASIC},
    {TypeKind::DATE, "date", 4, C_CAL | C_BASIC},
    {TypeKind::DT, "dt", 8, C_CAL | C_BASIC},
    {TypeKind::MINUTE, "minute", 4, C_CAL | C_BASIC},
    {TypeKind::SECOND, "second", 4, C_CAL | C_BASIC},
    {TypeKind::TIME, "time", 8, C_CAL | C_BASIC},
    {TypeKind::DEC64, "dec64", 8, C_DEC | C_BASIC},
    {TypeKind::DEC128, "dec128", 16, C_DEC | C_BASIC},
    {TypeKind::INTERVAL, "interval", 16, C_BASIC},
    {TypeKind::FUNC, "func", 0, C_NONE},
    {TypeKind::LIST, "list", 0, C_NONE},
    {TypeKind::DICT, "dict", 0, C_NONE},
    {TypeKind::ENUM, "enum", 0, C_NONE},
    {TypeKind::TABLE, "table", 0, C_NONE},
    {TypeKind::KTABLE, "ktable", 0, C_NONE},
};
static_assert(sizeof(kKinds) / sizeof(kKinds[0]) == static_cast<size_t>(TypeKind::KTABLE) + 1);

const KindRow &Row(TypeKind k) { return kKinds[static_cast<int>(k)]; }

}  // namespace

const char *TypeKindName(TypeKind k) { return Row(k).name; }
bool IsBasic(TypeKind k) { return Row(k).cls & C_BASIC; }
bool IsInteger(TypeKind k) { return Row(k).cls & C_INT; }
bool IsFloat(TypeKind k) { return Row(k).cls & C_FLOAT; }
bool IsDecimal(TypeKind k) { return Row(k).cls & C_DEC; }
bool IsReal(TypeKind k) { return Row(k).cls & (C_INT | C_FLOAT | C_DEC); }
bool IsString(TypeKind k) { return Row(k).cls & C_STR; }
bool IsCalendar(TypeKind k) { return Row(k).cls & C_CAL; }
int ElementSize(TypeKind k) { return Row(k).size; }

std::string TypeToString(const Type &t) {
    std::string s = TypeKindName(t.kind);
    if (IsDecimal(t.kind)) {
        s += '<';
        s += t.scale == Type::kUnknownScale ? std::string("?") : std::to_string(t.scale);
        s += '>';
    } else if (t.kind == TypeKind::LIST || t.kind == TypeKind::DICT || t.kind == TypeKind::ENUM) {
        s += '<';
        for (size_t i = 0; i < t.params.size(); ++i) {
            if (i) s += ',';
            s += TypeToString(t.params[i]);
        }
        if (t.params.empty()) s += '?';
        s += '>';
    }
    return s;
}

void Vector::EnsureValidity() {
    if (!validity.empty()) return;
    validity.assign(static_cast<size_t>((length + 63) / 64), ~uint64_t(0));
    if (validity.empty()) validity.push_back(~uint64_t(0));
}

void Vector::SetNull(int64_t i) {
    EnsureValidity();
    // a string vector may have grown since its bitmap was made: cover element i first
    if (validity.size() <= static_cast<size_t>(i >> 6)) validity.resize(static_cast<size_t>(i >> 6) + 1, ~uint64_t(0));
    validity[static_cast<size_t>(i >> 6)] &= ~(uint64_t(1) << (i & 63));
}

namespace {
// Fixed-width payloads: 16-byte aligned; large ones 2 MiB aligned with transparent huge pages
// requested.  Payloads of 64 KiB and more are recycled through a pool: such a vector is above
// glibc's mmap threshold (or soon trimmed back), so without reuse every intermediate result of
// a big query costs fresh pages the kernel must fault in and zero (most of the time of an
// interpreted TPC-H Q1 at SF 1 went there).  Sizes are rounded to 64 KiB (2 MiB from 4 MiB on)
// so that the vectors of the next step and the next query (the same lengths) find them.
// ReleasePooledPayloads() hands the pool back; PooledPayloadBytes() says what it holds.
constexpr size_t kHugeAlign = size_t(2) << 20;
constexpr size_t kHugeMinBytes = 2 * kHugeAlign;
constexpr size_t kPoolMinBytes = size_t(64) << 10;
constexpr size_t kPoolMaxBytes = size_t(3) << 30;

// A pooled-size buffer goes back to the system: the listeners of common/tracked_memory.h first.
void FreePooled(uint8_t *p) {
    NoteRelease(p);
    std::free(p);
}

struct PayloadPool {
    std::mutex mu;
    std::multimap<size_t, uint8_t *> free_buffers;  // capacity -> buffer
    size_t cached = 0;

    // A pooled buffer of at least `bytes` (and not much more), with its capacity; null if none.
    uint8_t *Take(size_t bytes, size_t *capacity) {
        std::lock_guard<std::mutex> lock(mu);
        auto it = free_buffers.lower_bound(bytes);
        // Reuse only a buffer of about the right size, so a small request does not pin a huge one.
        if (it == free_buffers.end() || it->first > bytes + bytes / 4) return nullptr;
        uint8_t *p = it->second;
        *capacity = it->first;
        cached -= it->first;
        free_buffers.erase(it);
        return p;
    }
    void Give(uint8_t *p, size_t capacity) {
        {
            std::lock_guard<std::mutex> lock(mu);
            if (cached + capacity <= kPoolMaxBytes) {
                free_buffers.emplace(capacity, p);
                cached += capacity;
                return;
            }
        }
        FreePooled(p);
    }
    // Frees pooled buffers, largest first, until at most keep_bytes stay.
    void Release(size_t keep_bytes) {
        std::vector<uint8_t *> drop;
        {
            std::lock_guard<std::mutex> lock(mu);
            while (cached > keep_bytes && !free_buffers.empty()) {
                auto last = std::prev(free_buffers.end());
                cached -= last->first;
                drop.push_back(last->second);
                free_buffers.erase(last);
            }
        }
        for (uint8_t *p : drop) FreePooled(p);
    }
    size_t Bytes() {
        std::lock_guard<std::mutex> lock(mu);
        return cached;
    }
};

PayloadPool &Pool() {
    static PayloadPool *pool = new PayloadPool();  // never destroyed: freed buffers may outlive statics
    return *pool;
}

// A buffer of at least `bytes` from the pool, else from the system; *capacity is its size.
uint8_t *TakePooled(size_t bytes, size_t *capacity) {
    const bool huge = bytes >= kHugeMinBytes;
    const size_t align = huge ? kHugeAlign : kPoolMinBytes;
    *capacity = (bytes + align - 1) & ~(align - 1);
    uint8_t *p = Pool().Take(*capacity, capacity);
    if (p == nullptr) {
        p = static_cast<uint8_t *>(std::aligned_alloc(huge ? kHugeAlign : 64, *capacity));
        if (!p) throw std::bad_alloc();
        if (huge) madvise(p, *capacity, MADV_HUGEPAGE);
        NoteAllocation(p, *capacity);  // a device may keep it registered until FreePooled
    }
    return p;
}

std::shared_ptr<uint8_t[]> AllocPayload(size_t bytes, bool zero) {
    uint8_t *p;
    if (bytes >= kPoolMinBytes) {
        size_t capacity;
        p = TakePooled(bytes, &capacity);
        if (zero) std::memset(p, 0, bytes);
        return std::shared_ptr<uint8_t[]>(p, [capacity](uint8_t *q) { Pool().Give(q, capacity); });
    }
    p = static_cast<uint8_t *>(std::aligned_alloc(16, bytes));
    if (!p) throw std::bad_alloc();
    if (zero) std::memset(p, 0, bytes);
    return std::shared_ptr<uint8_t[]>(p, [](uint8_t *q) { std::free(q); });
}
Expected<std::shared_ptr<Vector>> AllocVector(const Type &type, int64_t length, bool zero) {
    if (!IsBasic(type.kind)) return Status::Internal("MakeVector: not a basic type " + TypeToString(type));
    if (length < 0) return Status::Internal("MakeVector: negative length");
    if (length > (int64_t(1) << 40))
        return Status::OutOfMemory("out of memory allocating a vector of " + std::to_string(length) + " elements");
    try {
        auto v = std::make_shared<Vector>();
        v->type = type;
        v->length = length;
        if (IsString(type.kind)) {
            v->offsets.assign(static_cast<size_t>(length) + 1, 0);
        } else {
            size_t bytes = static_cast<size_t>(length) * static_cast<size_t>(ElementSize(type.kind));
            bytes = (bytes + 15) & ~size_t(15);
            if (bytes == 0) bytes = 16;
            v->data = AllocPayload(bytes, zero);
        }
        return v;
    } catch (const std::bad_alloc &) {
        return Status::OutOfMemory("out of memory allocating a vector of " + std::to_string(length) + " elements");
    }
}
}  // namespace

// A scratch buffer keeps its capacity in a 64-byte header before the bytes handed out.
constexpr size_t kScratchHeader = 64;

void *TakePooledScratch(size_t bytes) {
    size_t capacity;
    uint8_t *p = TakePooled(bytes + kScratchHeader, &capacity);
    std::memcpy(p, &capacity, sizeof capacity);
    return p + kScratchHeader;
}

void GivePooledScratch(void *q) {
    uint8_t *p = static_cast<uint8_t *>(q) - kScratchHeader;
    size_t capacity;
    std::memcpy(&capacity, p, sizeof capacity);
    Pool().Give(p, capacity);
}

void ReleasePooledPayloads(size_t keep_bytes) { Pool().Release(keep_bytes); }
size_t PooledPayloadBytes() { return Pool().Bytes(); }

Expected<std::shared_ptr<Vector>> MakeVector(const Type &type, int64_t length) { return AllocVector(type, length, true); }
Expected<std::shared_ptr<Vector>> MakeVectorUninit(const Type &type, int64_t length) { return AllocVector(type, length, false); }

Expected<std::shared_ptr<Vector>> NewVector(const Type &t, int64_t n) { return MakeVector(t, n); }

Expected<StringPayload> AllocStrings(int64_t count, int64_t bytes) {
    if (count < 0 || bytes < 0 || count > (int64_t(1) << 40) || bytes > (int64_t(1) << 42))
        return Status::OutOfMemory("out of memory allocating " + std::to_string(count) + " strings");
    try {
        StringPayload p;
        p.offsets = AllocPayload(static_cast<size_t>(count + 1) * sizeof(int64_t), false);
        p.chars = AllocPayload(std::max<size_t>(static_cast<size_t>(bytes), 16), false);
        return p;
    } catch (const std::bad_alloc &) {
        return Status::OutOfMemory("out of memory allocating " + std::to_string(count) + " strings of " + std::to_string(bytes) +
                                   " bytes");
    }
}

void FinishStrings(Vector &v, StringPayload &&p, int64_t count, int64_t bytes) {
    const int64_t *off = p.Offsets();
    const char *chars = p.Chars();
    v.offsets = Buf<int64_t>::View(off, static_cast<size_t>(count) + 1, std::shared_ptr<const void>(p.offsets, off));
    v.bytes = Buf<char>::View(chars, static_cast<size_t>(bytes), std::shared_ptr<const void>(p.chars, chars));
    v.length = count;
}

std::shared_ptr<Vector> ScalarI64(int64_t v) {
    auto r = MakeVector(TypeKind::I64, 1);
    if (!r.ok()) return nullptr;
    r.value()->Data<int64_t>()[0] = v;
    return r.value();
}

std::shared_ptr<Vector> ScalarBool(bool v) {
    auto r = MakeVector(TypeKind::BOOL, 1);
    if (!r.ok()) return nullptr;
    r.value()->Data<uint8_t>()[0] = v;
    return r.value();
}

Type Value::type() const {
    switch (kind()) {
        case ValueKind::NONE: return Type();
        case ValueKind::VECTOR: return vector().type;
        case ValueKind::LIST: {
            std::vector<Type> cells;
            for (const auto &c : list().cells) cells.push_back(c.type());
            bool same = !cells.empty() && std::all_of(cells.begin(), cells.end(), [&](const Type &t) { return t == cells[0]; });
            if (same) cells.resize(1);
            return Type::List(cells);
        }
        case ValueKind::DICT: return Type::Dict(dict().keys.type(), dict().values.type());
        case ValueKind::ENUM: return Type::Enum(enumeration().keys->type);
        case ValueKind::TABLE: return TypeKind::TABLE;
        case ValueKind::KTABLE: return TypeKind::KTABLE;
        case ValueKind::FUNC: return TypeKind::FUNC;
    }
    return Type();
}

int64_t Table::rows() const {
    if (columns.empty()) return 0;
    const Value &c = columns[0];
    if (c.is_vector()) return c.vector().length;
    if (c.kind() == ValueKind::ENUM) return c.enumeration().values->length;
    return 0;
}

// ---- calendar (days since 2000-01-01; proleptic Gregorian)
int32_t DaysFromCivil(int32_t y, int32_t m, int32_t d) {
    y -= m <= 2;
    const int32_t era = (y >= 0 ? y : y - 399) / 400;
    const int32_t yoe = y - era * 400;
    const int32_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const int32_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468 - 10957;
}

void CivilFromDays(int32_t days, int32_t *year, int32_t *month, int32_t *day) {
    int64_t z = static_cast<int64_t>(days) + 10957 + 719468;
    const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    const int64_t doe = z - era * 146097;
    const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const int64_t mp = (5 * doy + 2) / 153;
    const int64_t d = doy - (153 * mp + 2) / 5 + 1;
    const int64_t m = mp < 10 ? mp + 3 : mp - 9;
    *year = static_cast<int32_t>(yoe + era * 400 + (m <= 2));
    *month = static_cast<int32_t>(m);
    *day = static_cast<int32_t>(d);
}

std::string DateToString(int32_t days) {
    int32_t y, m, d;
    CivilFromDays(days, &y, &m, &d);
    char buf[32];
    std::snprintf(buf, sizeof buf, "%04d-%02d-%02d", y, m, d);
    return buf;
}

// ---- decimals
namespace {
struct Pow10Table {
    __int128 p[39];
    Pow10Table() {
        p[0] = 1;
        for (int i = 1; i < 39; ++i) p[i] = p[i - 1] * 10;
    }
};
}  // namespace

__int128 Pow10(int n) {
    static const Pow10Table table;
    if (n >= 0 && n < 39) return table.p[n];
    // Scales are 0..38, so no caller asks for more; saturate rather than overflow if one does.
    if (n < 0) return 1;
    return static_cast<__int128>(~(static_cast<unsigned __int128>(1) << 127));
}

std::string FormatDecimal(__int128 value, int32_t scale) {
    bool neg = value < 0;
    unsigned __int128 u = neg ? static_cast<unsigned __int128>(-(value + 1)) + 1 : static_cast<unsigned __int128>(value);
    std::string digits;
    while (u) {
        digits.push_back(static_cast<char>('0' + static_cast<int>(u % 10)));
        u /= 10;
    }
    while (static_cast<int>(digits.size()) < scale + 1) digits.push_back('0');
    std::reverse(digits.begin(), digits.end());
    std::string out = neg ? "-" : "";
    out += digits.substr(0, digits.size() - static_cast<size_t>(scale));
    if (scale > 0) {
        out += '.';
        out += digits.substr(digits.size() - static_cast<size_t>(scale));
    }
    return out;
}

Expected<__int128> ParseDecimal(std::string_view text, int32_t scale) {
    size_t i = 0;
    bool neg = false;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) neg = text[i++] == '-';
    __int128 v = 0;
    int frac = 0;
    bool any = false, dot = false, round_up = false, extra = false;
    const __int128 limit = Pow10(38);
    for (; i < text.size(); ++i) {
        char c = text[i];
        if (c == '.' && !dot) {
            dot = true;
            continue;
        }
        if (c < '0' || c > '9') return Status::UserError(sqlstate::kInvalidTextRepresentation, "invalid input syntax for type numeric: \"" + std::string(text) + "\"");
        any = true;
        if (dot && frac >= scale) {
            if (!extra) round_up = c >= '5';
            extra = true;
            continue;
        }
        // v < limit / 10 keeps v * 10 + digit below limit (and inside __int128)
        if (v >= limit / 10) return Status::UserError(sqlstate::kNumericOutOfRange, "numeric field overflow");
        v = v * 10 + (c - '0');
        if (dot) ++frac;
    }
    if (!any) return Status::UserError(sqlstate::kInvalidTextRepresentation, "invalid input syntax for type numeric: \"" + std::string(text) + "\"");
    for (; frac < scale && v != 0; ++frac) {
        if (v >= limit / 10) return Status::UserError(sqlstate::kNumericOutOfRange, "numeric field overflow");
        v *= 10;
    }
    if (round_up) ++v;
    if (v >= limit) return Status::UserError(sqlstate::kNumericOutOfRange, "numeric field overflow");
    return neg ? -v : v;
}

double DecimalToDouble(__int128 v, int scale) {
    // v and 10^scale are exact doubles here, so one IEEE division rounds correctly.
    static const double kPow[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
                                  1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    const __int128 exact = static_cast<__int128>(1) << 53;
    if (scale >= 0 && scale <= 22 && v < exact && v > -exact) return static_cast<double>(static_cast<int64_t>(v)) / kPow[scale];
    // otherwise through text, so that the result is the double nearest the decimal value
    std::string s = FormatDecimal(v, scale);
    return std::strtod(s.c_str(), nullptr);
}

__int128 RoundShift(__int128 x, int drop) {
    if (drop <= 0) return x;
    __int128 p = Pow10(drop);
    __int128 q = x / p, r = x % p;
    if (r < 0) r = -r;
    if (2 * r >= p) q += x < 0 ? -1 : 1;
    return q;
}

namespace {
// PostgreSQL numeric weight (base 10000) and first base-10000 digit of v / 10^scale.
void NumericWeight(__int128 v, int scale, int *weight, int *first) {
    if (v == 0) {
        *weight = 0;
        *first = 0;
        return;
    }
    if (v < 0) v = -v;
    int digits = 0;
    for (__int128 t = v; t; t /= 10) ++digits;
    int e = digits - 1 - scale;  // v/10^scale in [10^e, 10^(e+1))
    int w = e >= 0 ? e / 4 : -((-e + 3) / 4);
    int shift = scale + 4 * w;  // first = floor(v / 10^shift)
    __int128 f = shift >= 0 ? v / Pow10(shift) : v * Pow10(-shift);
    *weight = w;
    *first = static_cast<int>(f);
}
}  // namespace

int SelectDivScale(__int128 num, int num_scale, __int128 den, int den_scale) {
    return SelectDivScale(num, num_scale, den, den_scale, num_scale, den_scale);
}

int SelectDivScale(__int128 num, int num_scale, __int128 den, int den_scale, int num_dscale, int den_dscale) {
    int w1, f1, w2, f2;
    NumericWeight(num, num_scale, &w1, &f1);
    NumericWeight(den, den_scale, &w2, &f2);
    int qweight = w1 - w2;
    if (f1 <= f2) --qweight;
    int rscale = 16 - qweight * 4;
    rscale = std::max(rscale, num_dscale);
    rscale = std::max(rscale, den_dscale);
    rscale = std::max(rscale, 0);
    rscale = std::min(rscale, 1000);
    return rscale;
}

Expected<__int128> DecimalDivide(__int128 num, int num_scale, __int128 den, int den_scale, int rscale) {
    // result = num/10^ns / (den/10^ds) * 10^rs = num * 10^(rs + ds - ns) / den
    int k = rscale + den_scale - num_scale;
    __int128 n = num, d = den;
    // compute with one extra digit for rounding
    k += 1;
    auto overflow = [] { return Status::UserError(sqlstate::kNumericOutOfRange, "value overflows numeric format"); };
    if (k >= 0) {
        for (int i = 0; i < k; ++i)
            if (__builtin_mul_overflow(n, static_cast<__int128>(10), &n)) return overflow();
    } else {
        for (int i = 0; i < -k; ++i)
            if (__builtin_mul_overflow(d, static_cast<__int128>(10), &d)) return overflow();
    }
    __int128 q = n / d;  // truncated, one extra digit
    // round half away from zero on the extra digit (PostgreSQL div_var rounds the same way)
    __int128 last = q % 10;
    q /= 10;
    if (last >= 5) ++q;
    else if (last <= -5) --q;
    return q;
}

// ---- formatting
namespace {
std::string FormatFloat(double d) {
    if (std::isnan(d)) return "NaN";
    if (std::isinf(d)) return d > 0 ? "Infinity" : "-Infinity";
    char buf[64];
    auto r = std::to_chars(buf, buf + sizeof buf, d);
    return std::string(buf, r.ptr);
}
std::string FormatFloat32(float d) {
    if (std::isnan(d)) return "NaN";
    if (std::isinf(d)) return d > 0 ? "Infinity" : "-Infinity";
    char buf[64];
    auto r = std::to_chars(buf, buf + sizeof buf, d);
    return std::string(buf, r.ptr);
}
std::string TwoDigits(int64_t v) {
    char b[8];
    std::snprintf(b, sizeof b, "%02d", static_cast<int>(v));
    return b;
}
std::string TimeOfDayMicros(int64_t us) {
    int64_t ms = us / 1000;
    char b[32];
    std::snprintf(b, sizeof b, "%02d:%02d:%02d.%03d", static_cast<int>(ms / 3600000), static_cast<int>(ms / 60000 % 60),
                  static_cast<int>(ms / 1000 % 60), static_cast<int>(ms % 1000));
    return b;
}
int64_t FloorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }
}  // namespace

std::string FormatElement(const Vector &v, int64_t i) {
    if (!v.IsValid(i)) return "";
    switch (v.type.kind) {
        case TypeKind::BOOL: return v.Data<uint8_t>()[i] ? "1" : "0";
        case TypeKind::CHAR: return std::string(1, static_cast<char>(v.Data<uint8_t>()[i]));
        case TypeKind::I8: return std::to_string(v.Data<int8_t>()[i]);
        case TypeKind::I16: return std::to_string(v.Data<int16_t>()[i]);
        case TypeKind::I32: return std::to_string(v.Data<int32_t>()[i]);
        case TypeKind::I64: return std::to_string(v.Data<int64_t>()[i]);
        case TypeKind::F32: return FormatFloat32(v.Data<float>()[i]);
        case TypeKind::F64: return FormatFloat(v.Data<double>()[i]);
        case TypeKind::STR:
        case TypeKind::SYM: {
            std::string_view s = v.StringAt(i);
            while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
            return std::string(s);
        }
        case TypeKind::DATE: return DateToString(v.Data<int32_t>()[i]);
        case TypeKind::MONTH: {
            int32_t m = v.Data<int32_t>()[i];
            int64_t y = FloorDiv(m, 12);
            return std::to_string(2000 + y) + "-" + TwoDigits(m - y * 12 + 1);
        }
        case TypeKind::MINUTE: {
            int32_t m = v.Data<int32_t>()[i];
            return TwoDigits(m / 60) + ":" + TwoDigits(m % 60);
        }
        case TypeKind::SECOND: {
            int32_t s = v.Data<int32_t>()[i];
            return TwoDigits(s / 3600) + ":" + TwoDigits(s / 60 % 60) + ":" + TwoDigits(s % 60);
        }
        case TypeKind::TIME: return TimeOfDayMicros(v.Data<int64_t>()[i]);
        case TypeKind::DT: {
            int64_t us = v.Data<int64_t>()[i];
            int64_t day = FloorDiv(us, 86400000000LL);
            return DateToString(static_cast<int32_t>(day)) + "T" + TimeOfDayMicros(us - day * 86400000000LL);
        }
        case TypeKind::DEC64:
        case TypeKind::DEC128: {
            __int128 x = v.type.kind == TypeKind::DEC64 ? v.Data<int64_t>()[i] : v.Data<__int128>()[i];
            if (v.type.scale == Type::kUnknownScale) {
                int es = v.elem_scale.empty() ? v.scale_max : v.elem_scale[static_cast<size_t>(i)];
                return FormatDecimal(RoundShift(x, v.scale_max - es), es);
            }
            return FormatDecimal(x, v.type.scale);
        }
        case TypeKind::INTERVAL: return IntervalText(v.Data<IntervalValue>()[i]);
        default: return "?";
    }
}

std::string IntervalText(const IntervalValue &v) {
    return std::to_string(v.month) + "m " + std::to_string(v.day) + "d " + std::to_string(v.time) + "us";
}

bool ParseIntervalText(std::string_view s, IntervalValue *out) {
    // exactly "<int>m <int>d <int>us", each integer within its field's range
    auto number = [&](std::string_view &rest, const char *unit, int64_t lo, int64_t hi, int64_t *x) {
        size_t k = 0;
        bool neg = false;
        if (k < rest.size() && rest[k] == '-') neg = true, ++k;
        const size_t first = k;
        unsigned __int128 u = 0;
        while (k < rest.size() && rest[k] >= '0' && rest[k] <= '9' && k - first < 20) u = u * 10 + static_cast<unsigned>(rest[k++] - '0');
        if (k == first) return false;
        const std::string_view want(unit);
        if (rest.substr(k, want.size()) != want) return false;
        const __int128 w = neg ? -static_cast<__int128>(u) : static_cast<__int128>(u);
        if (w < lo || w > hi) return false;
        *x = static_cast<int64_t>(w);
        rest.remove_prefix(k + want.size());
        return true;
    };
    int64_t m = 0, d = 0, t = 0;
    std::string_view rest = s;
    if (!number(rest, "m ", INT32_MIN, INT32_MAX, &m) || !number(rest, "d ", INT32_MIN, INT32_MAX, &d) ||
        !number(rest, "us", INT64_MIN, INT64_MAX, &t) || !rest.empty())
        return false;
    out->month = static_cast<int32_t>(m);
    out->day = static_cast<int32_t>(d);
    out->time = t;
    return true;
}

std::string FormatValue(const Value &v) {
    std::string out;
    switch (v.kind()) {
        case ValueKind::TABLE: {
            const Table &t = v.table();
            for (size_t c = 0; c < t.names.size(); ++c) {
                if (c) out += '|';
                out += t.names[c];
            }
            out += '\n';
            int64_t rows = t.rows();
            for (int64_t r = 0; r < rows; ++r) {
                for (size_t c = 0; c < t.columns.size(); ++c) {
                    if (c) out += '|';
                    const Value &col = t.columns[c];
                    if (col.is_vector()) out += FormatElement(col.vector(), r);
                    else if (col.kind() == ValueKind::ENUM) out += FormatElement(*col.enumeration().values, r);
                }
                out += '\n';
            }
            return out;
        }
        case ValueKind::VECTOR:
            for (int64_t i = 0; i < v.vector().length; ++i) out += FormatElement(v.vector(), i) + "\n";
            return out;
        case ValueKind::LIST:
            for (const auto &c : v.list().cells) {
                out += "(";
                std::string s = FormatValue(c);
                for (char &ch : s)
                    if (ch == '\n') ch = ',';
                if (!s.empty()) s.pop_back();
                out += s + ")\n";
            }
            return out;
        case ValueKind::DICT: return "keys:\n" + FormatValue(v.dict().keys) + "values:\n" + FormatValue(v.dict().values);
        case ValueKind::ENUM: return FormatValue(Value(v.enumeration().values));
        case ValueKind::KTABLE:
            return FormatValue(Value(v.ktable().key)) + FormatValue(Value(v.ktable().value));
        case ValueKind::FUNC: return "@" + v.func().name + "\n";
        case ValueKind::NONE: return "";
    }
    return out;
}

// ---- enums
namespace {
struct KeyHash {
    const Vector *v;
    size_t operator()(int64_t i) const {
        if (IsString(v->type.kind)) return std::hash<std::string_view>()(v->StringAt(i));
        if (v->type.kind == TypeKind::INTERVAL) {  // equal spans hash alike ('1 day', '24 hours')
            const __int128 span = IntervalSpan(v->Data<IntervalValue>()[i]);
            return std::hash<uint64_t>()(static_cast<uint64_t>(span) ^ static_cast<uint64_t>(span >> 64) * 0x9e3779b97f4a7c15ull);
        }
        int sz = ElementSize(v->type.kind);
        uint64_t h = 1469598103934665603ull;
        const uint8_t *p = v->data.get() + i * sz;
        for (int k = 0; k < sz; ++k) h = (h ^ p[k]) * 1099511628211ull;
        return h;
    }
};
}  // namespace

Expected<std::shared_ptr<Enum>> MakeEnum(std::shared_ptr<const Vector> keys, std::shared_ptr<const Vector> values,
                                         std::string target_table) {
    if (!keys || !values) return Status::Internal("MakeEnum: null vector");
    if (keys->type.kind != values->type.kind) return TypeError("enum keys and values differ in type");
    auto e = std::make_shared<Enum>();
    e->keys = keys;
    e->values = values;
    e->target_table = std::move(target_table);
    RNDN_ASSIGN_OR_RETURN(auto idx, MakeVector(TypeKind::I64, values->length));
    // Index the keys; look each value up.  Keys and values live in separate vectors: hash
    // both through a comparator over (vector, row).
    std::unordered_map<uint64_t, std::vector<int64_t>> table;
    KeyHash hk{keys.get()}, hv{values.get()};
    table.reserve(static_cast<size_t>(keys->length) * 2);
    for (int64_t i = 0; i < keys->length; ++i) table[hk(i)].push_back(i);
    int64_t *out = idx->Data<int64_t>();
    for (int64_t i = 0; i < values->length; ++i) {
        if (!values->IsValid(i)) {
            out[i] = keys->length;
            idx->SetNull(i);
            continue;
        }
        auto it = table.find(hv(i));
        int64_t found = -1;
        if (it != table.end())
            for (int64_t k : it->second)
                if (CompareElements(*keys, k, *values, i) == 0) {
                    found = k;
                    break;
                }
        if (found < 0)
            return Status::UserError(sqlstate::kInvalidParameter, "foreign key value " + FormatElement(*values, i) +
                                                                      " not found in referenced key" +
                                                                      (e->target_table.empty() ? "" : " of " + e->target_table));
        out[i] = found;
    }
    e->indexes = idx;
    return e;
}

// ---- registry
Status DataRegistry::AddTable(const std::string &name, std::shared_ptr<const Table> table) {
    if (!table) return Status::Internal("AddTable: null table");
    if (table->names.size() != table->columns.size()) return ShapeError("table " + name + ": names and columns differ in count");
    int64_t rows = table->rows();
    for (size_t i = 0; i < table->columns.size(); ++i) {
        const Value &c = table->columns[i];
        int64_t n;
        if (c.is_vector()) n = c.vector().length;
        else if (c.kind() == ValueKind::ENUM) n = c.enumeration().values->length;
        else return TypeError("table " + name + ": column " + table->names[i] + " is not a vector or enum");
        if (n != rows) return ShapeError("table " + name + ": columns differ in length");
        for (size_t j = 0; j < i; ++j)
            if (table->names[j] == table->names[i]) return TypeError("table " + name + ": duplicate column " + table->names[i]);
    }
    tables_[name] = std::move(table);
    return Status::Ok();
}

Status DataRegistry::AddTable(const std::string &name, std::vector<std::string> column_names, std::vector<Value> columns) {
    auto t = std::make_shared<Table>();
    t->names = std::move(column_names);
    t->columns = std::move(columns);
    return AddTable(name, std::shared_ptr<const Table>(t));
}

Expected<std::shared_ptr<const Table>> DataRegistry::GetTable(const std::string &name) const {
    auto it = tables_.find(name);
    if (it == tables_.end()) return Status::UserError(sqlstate::kInvalidParameter, "table \"" + name + "\" not found in the data registry");
    return it->second;
}

bool DataRegistry::HasTable(const std::string &name) const { return tables_.count(name) != 0; }

std::vector<std::string> DataRegistry::TableNames() const {
    std::vector<std::string> r;
    for (const auto &kv : tables_) r.push_back(kv.first);
    return r;
}

void DataRegistry::SetPrimaryKey(const std::string &table, const std::string &column) { primary_keys_[table] = column; }

std::string DataRegistry::PrimaryKey(const std::string &table) const {
    auto it = primary_keys_.find(table);
    return it == primary_keys_.end() ? std::string() : it->second;
}

// ---- errors
Status ShapeError(const std::string &what) { return Status::UserError(sqlstate::kInvalidParameter, what); }
Status TypeError(const std::string &what) { return Status::UserError(sqlstate::kDatatypeMismatch, what); }
Status IntegerOutOfRange(TypeKind k) {
    const char *m = k == TypeKind::I64 ? "bigint out of range" : k == TypeKind::I16 ? "smallint out of range" : "integer out of range";
    return Status::UserError(sqlstate::kNumericOutOfRange, m);
}
Status FloatOutOfRange(const char *which) {
    return Status::UserError(sqlstate::kNumericOutOfRange, std::string("value out of range: ") + which);
}
Status DivisionByZero() { return Status::UserError(sqlstate::kDivisionByZero, "division by zero"); }

}  // namespace rndn::hir
