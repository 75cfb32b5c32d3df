// rndn::hir — HorseIR: the IR, its text form, the type checker and the reference interpreter.
//
// This is the only header other stages include.  It holds:
//   * the type system (Type, TypeKind) and the run-time values (Vector, List, Dict, Enum,
//     Table, KTable, FuncRef, all carried by Value);
//   * the program tree (Program/Module/Function/Stmt/Expr/Operand) and its text form
//     (ParseProgram, PrintProgram), the semantic passes (CheckProgram);
//   * the data registry and the interpreter (DataRegistry, Interpret).
// See src/horseir/README.md for the text form of the rndn extensions (decimal, NULL) and the
// encoding of calendar values.  API rule: add, don't change.
#pragma once

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "common/buffer.h"
#include "common/status.h"

namespace rndn::hir {

// ----------------------------------------------------------------------------------------------
// Types

enum class TypeKind : uint8_t {
    WILDCARD,  // ?
    BOOL,      // uint8_t 0/1
    CHAR,      // uint8_t (one byte)
    I8,
    I16,
    I32,
    I64,
    F32,
    F64,
    COMPLEX,   // parsed and type-checked; not supported by the interpreter
    STR,       // offsets + bytes (see Vector)
    SYM,       // same representation as STR
    MONTH,     // int32 months since 2000-01
    DATE,      // int32 days since 2000-01-01 (PostgreSQL's DateADT)
    DT,        // int64 microseconds since 2000-01-01 00:00:00 (PostgreSQL's Timestamp)
    MINUTE,    // int32 minutes since midnight
    SECOND,    // int32 seconds since midnight
    TIME,      // int64 microseconds since midnight (PostgreSQL's TimeADT)
    DEC64,     // rndn extension: int64 scaled by 10^scale (PostgreSQL numeric(p,s), p <= 18)
    DEC128,    // rndn extension: __int128 scaled by 10^scale (p <= 38)
    INTERVAL,  // rndn extension: PostgreSQL's Interval (IntervalValue: microseconds, days, months)
    FUNC,
    LIST,      // params: cell types (one param = homogeneous list of any length)
    DICT,      // params: {K, V}
    ENUM,      // params: {T}
    TABLE,
    KTABLE,
};

struct Type {
    TypeKind kind = TypeKind::WILDCARD;
    // DEC64/DEC128: digits after the decimal point (0..38); kUnknownScale when only known at
    // run time (e.g. numeric division, whose scale PostgreSQL picks per value).
    int32_t scale = 0;
    std::vector<Type> params;

    static constexpr int32_t kUnknownScale = -1;

    Type() = default;
    Type(TypeKind k) : kind(k) {}  // NOLINT: implicit on purpose (Type t = TypeKind::I64)
    static Type Decimal(TypeKind k, int32_t s) {
        Type t(k);
        t.scale = s;
        return t;
    }
    static Type List(std::vector<Type> cells) {
        Type t(TypeKind::LIST);
        t.params = std::move(cells);
        return t;
    }
    static Type Enum(Type target) {
        Type t(TypeKind::ENUM);
        t.params.push_back(std::move(target));
        return t;
    }
    static Type Dict(Type k, Type v) {
        Type t(TypeKind::DICT);
        t.params = {std::move(k), std::move(v)};
        return t;
    }
    // Structural identity (wildcards compare equal to wildcards here; the checker applies the
    // HorseIR rule "? equals nothing" itself).
    bool operator==(const Type &o) const {
        return kind == o.kind && scale == o.scale && params == o.params;
    }
    bool operator!=(const Type &o) const { return !(*this == o); }
};

// Text form of a type: "i64", "list<i32,f64>", "enum<i32>", "dec64<2>", "?".
std::string TypeToString(const Type &t);
const char *TypeKindName(TypeKind k);
bool IsBasic(TypeKind k);       // bool .. dec128 (a vector type)
bool IsInteger(TypeKind k);     // bool char i8 i16 i32 i64 (rNdN counts bool/char as integer)
bool IsFloat(TypeKind k);       // f32 f64
bool IsDecimal(TypeKind k);     // dec64 dec128
bool IsReal(TypeKind k);        // integer, float or decimal
bool IsString(TypeKind k);      // str sym
bool IsCalendar(TypeKind k);    // date month minute second time dt
// Bytes per element of the data buffer of a fixed-width basic type; 0 for str/sym and
// non-basic types.
int ElementSize(TypeKind k);

// One element of an `interval` vector: PostgreSQL's Interval with the same layout (time in
// microseconds, then days, then months), so that the executor copies it unchanged.  Ordered
// and compared by PostgreSQL's interval_cmp_value: the 128-bit span months*30 days + days*24 h
// + time, so '1 day' equals '24 hours' (one group, one join key) although the fields differ.
struct IntervalValue {
    int64_t time = 0;
    int32_t day = 0;
    int32_t month = 0;
};
static_assert(sizeof(IntervalValue) == 16);
inline __int128 IntervalSpan(const IntervalValue &v) {
    const int64_t days = static_cast<int64_t>(v.month) * 30 + v.day;
    return static_cast<__int128>(v.time) + static_cast<__int128>(days) * 86400000000LL;
}
inline bool operator<(const IntervalValue &a, const IntervalValue &b) { return IntervalSpan(a) < IntervalSpan(b); }
inline bool operator>(const IntervalValue &a, const IntervalValue &b) { return IntervalSpan(a) > IntervalSpan(b); }
inline bool operator<=(const IntervalValue &a, const IntervalValue &b) { return IntervalSpan(a) <= IntervalSpan(b); }
inline bool operator>=(const IntervalValue &a, const IntervalValue &b) { return IntervalSpan(a) >= IntervalSpan(b); }
inline bool operator==(const IntervalValue &a, const IntervalValue &b) { return IntervalSpan(a) == IntervalSpan(b); }
inline bool operator!=(const IntervalValue &a, const IntervalValue &b) { return IntervalSpan(a) != IntervalSpan(b); }
// Text of an interval element as HorseIR prints and parses it ("1m -2d 3000000us": months,
// days, microseconds); ParseIntervalText returns false for any other text.
std::string IntervalText(const IntervalValue &v);
bool ParseIntervalText(std::string_view s, IntervalValue *out);
// PostgreSQL 15's interval_out under IntervalStyle postgres ("1 year 2 mons -3 days +04:05:06.5").
std::string PgIntervalText(const IntervalValue &v);
// interval_in under IntervalStyle postgres for the plain spellings: signed integer amounts of
// year(s)/mon(s)/month(s)/day(s)/hour(s)/min(s)/minute(s)/sec(s)/second(s) and one
// [+-]H:MM[:SS[.ffffff]] time, each unit at most once, amounts of up to 6 digits.  Every other
// spelling (fractions of units, '@', 'ago', ISO 8601, weeks, out-of-range fields) is
// UNSUPPORTED: PostgreSQL's plan reads it, with its own errors.
Status ParsePgInterval(std::string_view s, IntervalValue *out);

// ----------------------------------------------------------------------------------------------
// Builtins: one enum and one metadata row per line of src/horseir/builtins.def (the enum value is
// the row index).  Dispatch on the enum; look names up only when parsing or checking.

// PostgreSQL's elog.h defines LOG as a macro; the enum is spelled without it (a file that
// includes PostgreSQL's headers cannot name Builtin::LOG, the core code can).
#pragma push_macro("LOG")
#undef LOG
enum class Builtin : int {
#define HIR_BUILTIN(ID, NAME, MINA, MAXA, RULE, KERNEL, PAR, NULLS) ID,
#include "horseir/builtins.def"
#undef HIR_BUILTIN
    COUNT_
};
#pragma pop_macro("LOG")
inline constexpr int kNumBuiltins = static_cast<int>(Builtin::COUNT_);

// Parallel class (how the interpreter / a device runs it) and NULL behaviour: see builtins.def.
enum class ParClass : uint8_t { ELEMENTWISE, REDUCTION, SCAN, LIST, CPU };
enum class NullRule : uint8_t { PROPAGATE, KLEENE, SKIP, FALSE, KEEP, NONE };
// Shape rule of the shape analysis (src/horseir/shapes.cpp; thesis §4.3).
enum class ShapeRule : uint8_t {
    NONE, SAME, BROADCAST, SCALAR, COMPRESS, WHERE, INDEX, PERMUTE, SIZED, GROUP, JOIN, LIST,
    RAZE, TOLIST, EACH, EACH_LEFT, EACH_RIGHT, EACH_ITEM, LOAD_TABLE, COLUMN_VALUE, TABLE, KEYS,
    VALUES, FETCH, ENUM, DICT, CELLS, DYNAMIC,
};
// Operation class the outliner groups statements by.
enum class BuiltinClass : uint8_t { ELEMENTWISE, REDUCTION, COMPACTION, GROUPING, JOIN, OTHER };

struct BuiltinMeta {
    Builtin id;
    const char *name;  // without '@'
    int min_arity;
    int max_arity;     // -1: variadic
    ParClass par;
    NullRule nulls;
    ShapeRule shape;
    BuiltinClass klass;
    bool fusable;
    bool interpreted;  // the interpreter has a kernel for it
};

const BuiltinMeta &GetBuiltinMeta(Builtin b);
const char *BuiltinName(Builtin b);
// Binary search over the sorted names; false when no builtin has that name.
bool FindBuiltin(std::string_view name, Builtin *out);
const char *ShapeRuleName(ShapeRule r);
const char *BuiltinClassName(BuiltinClass c);
const char *ParClassName(ParClass c);
const char *NullRuleName(NullRule r);

// ----------------------------------------------------------------------------------------------
// Values

// A std::vector-like buffer of T that owns its elements or views memory held by an owner (a
// column's DataBuffer, a shared-memory column cache entry): reads never copy; the first write
// through a view copies it into owned storage (copy on write).  Copies of a view share the
// owner; copies of owned elements copy them, as std::vector does.
template <class T>
class Buf {
public:
    using value_type = T;
    using size_type = size_t;
    using iterator = T *;
    using const_iterator = const T *;

    Buf() = default;
    Buf(std::initializer_list<T> il) : own_(il) {}
    Buf(size_t n, const T &v) : own_(n, v) {}
    Buf(std::vector<T> v) : own_(std::move(v)) {}  // NOLINT: implicit on purpose
    template <class It>
    Buf(It first, It last) : own_(first, last) {}
    // A view of n elements at p, kept alive by `owner`.
    static Buf View(const T *p, size_t n, std::shared_ptr<const void> owner) {
        Buf b;
        b.view_ = p;
        b.view_n_ = n;
        b.owner_ = std::move(owner);
        return b;
    }
    bool is_view() const { return owner_ != nullptr; }
    const std::shared_ptr<const void> &owner() const { return owner_; }

    size_t size() const { return owner_ ? view_n_ : own_.size(); }
    bool empty() const { return size() == 0; }
    size_t capacity() const { return owner_ ? view_n_ : own_.capacity(); }
    const T *data() const { return owner_ ? view_ : own_.data(); }
    T *data() { return Own().data(); }
    const T &operator[](size_t i) const { return data()[i]; }
    T &operator[](size_t i) { return Own()[i]; }
    const T *begin() const { return data(); }
    const T *end() const { return data() + size(); }
    T *begin() { return Own().data(); }
    T *end() { return Own().data() + own_.size(); }
    const T &front() const { return data()[0]; }
    const T &back() const { return data()[size() - 1]; }
    T &back() { return Own().back(); }

    void push_back(const T &v) { Own().push_back(v); }
    void pop_back() { Own().pop_back(); }
    void reserve(size_t n) { Own().reserve(n); }
    void resize(size_t n) { Own().resize(n); }
    void resize(size_t n, const T &v) { Own().resize(n, v); }
    void shrink_to_fit() { Own().shrink_to_fit(); }
    void clear() {
        Drop();
        own_.clear();
    }
    void assign(size_t n, const T &v) {
        Drop();
        own_.assign(n, v);
    }
    template <class It>
    void assign(It first, It last) {
        std::vector<T> fresh(first, last);  // the range may lie in the view
        Drop();
        own_ = std::move(fresh);
    }
    template <class It>
    T *insert(const T *pos, It first, It last) {
        const size_t at = static_cast<size_t>(pos - data());
        std::vector<T> fresh(first, last);
        std::vector<T> &o = Own();
        return &*o.insert(o.begin() + static_cast<std::ptrdiff_t>(at), fresh.begin(), fresh.end());
    }
    // std::string-like, for byte buffers.
    void append(const T *p, size_t n) {
        std::vector<T> &o = Own();
        o.insert(o.end(), p, p + n);
    }
    void assign(const T *p, size_t n) { assign(p, p + n); }
    template <class S>
    void append(const S &s) {
        append(s.data(), s.size());
    }
    void swap(Buf &o) noexcept {
        own_.swap(o.own_);
        std::swap(view_, o.view_);
        std::swap(view_n_, o.view_n_);
        owner_.swap(o.owner_);
    }
    bool operator==(const Buf &o) const { return size() == o.size() && std::equal(begin(), end(), o.begin()); }
    // The owned elements (copies a view first), for code that needs a std::vector.
    std::vector<T> &vec() { return Own(); }

private:
    std::vector<T> &Own() {
        if (owner_) {
            own_.assign(view_, view_ + view_n_);
            Drop();
        }
        return own_;
    }
    void Drop() {
        owner_.reset();
        view_ = nullptr;
        view_n_ = 0;
    }
    std::vector<T> own_;
    const T *view_ = nullptr;
    size_t view_n_ = 0;
    std::shared_ptr<const void> owner_;
};

// A basic-typed column (HorseIR has no scalars: a scalar is a vector of length 1).
//  * fixed-width types: `data` holds length * ElementSize(kind) bytes, contiguous, 16-aligned.
//  * str/sym: `offsets` holds length+1 int64 offsets into `bytes` (offsets[0] = 0); element i
//    is bytes[offsets[i] .. offsets[i+1]).  `data` is unused.
//  * NULL: `validity` is empty (no NULLs) or holds ceil(length/64) words; bit (i % 64) of word
//    i / 64 is 1 when element i is valid, 0 when it is NULL.  The data of a NULL element is
//    unspecified but initialised (zero when made by this library).
//  * DEC64/DEC128 with type.scale == kUnknownScale (only for results of numeric division and
//    avg): `elem_scale` holds one display scale per element, and the stored integer is scaled
//    by 10^max_scale where max_scale is `scale_max`.
struct Vector {
    Type type;
    int64_t length = 0;
    std::shared_ptr<uint8_t[]> data;  // fixed-width payload (capacity >= length elements)
    Buf<int64_t> offsets;             // str/sym
    Buf<char> bytes;                  // str/sym
    Buf<uint64_t> validity;           // empty = no NULLs
    std::vector<uint8_t> elem_scale;  // decimal with per-element display scale (see above)
    int32_t scale_max = 0;

    template <class T>
    T *Data() {
        return reinterpret_cast<T *>(data.get());
    }
    template <class T>
    const T *Data() const {
        return reinterpret_cast<const T *>(data.get());
    }
    bool HasNulls() const { return !validity.empty(); }
    bool IsValid(int64_t i) const {
        return validity.empty() || ((validity[static_cast<size_t>(i >> 6)] >> (i & 63)) & 1);
    }
    // Allocates an all-valid bitmap if there is none, then clears bit i.
    void SetNull(int64_t i);
    // Allocates an all-valid bitmap (the executor's loader may then clear bits directly).
    void EnsureValidity();
    std::string_view StringAt(int64_t i) const {
        return std::string_view(bytes.data() + offsets[static_cast<size_t>(i)],
                                static_cast<size_t>(offsets[static_cast<size_t>(i) + 1] -
                                                    offsets[static_cast<size_t>(i)]));
    }
    // str/sym building: start from MakeVector(type, 0) (offsets = {0}), then append.
    void AppendString(std::string_view s) {
        bytes.append(s.data(), s.size());
        offsets.push_back(static_cast<int64_t>(bytes.size()));
        ++length;
        // a bitmap made before this element keeps covering every element (new ones are valid)
        if (!validity.empty() && validity.size() * 64 < static_cast<size_t>(length)) validity.push_back(~uint64_t(0));
    }
};

// A vector of `type` (basic) and `length` elements, data zero-filled, no validity bitmap.
// For str/sym, `offsets` is length+1 zeros (all empty strings) — or use length 0 and
// AppendString.  Fails with OUT_OF_MEMORY when the allocation fails.
Expected<std::shared_ptr<Vector>> MakeVector(const Type &type, int64_t length);
// Like MakeVector, but a fixed-width payload is not zero-filled (the caller writes every
// element).  Payloads of 64 KiB and more come from the interpreter's pool of freed payloads, so
// scratch arrays of a query's steps reuse memory instead of faulting fresh pages in.
Expected<std::shared_ptr<Vector>> MakeVectorUninit(const Type &type, int64_t length);

// Row numbers 0..n-1 stably sorted by key[row] (unsigned, ascending) into order[0..n): a radix
// sort with scratch from the payload pool; polls for cancellation; OutOfMemory when the scratch
// cannot be had.
Status StableOrderByKey(const uint64_t *key, int64_t n, int64_t *order);

// PostgreSQL's avg of numeric values from their exact sum (at `scale`) and their number
// (count > 0): the quotient at the display scale PostgreSQL's division chooses, which is
// returned in *result_scale (the interpreter's @avg of a decimal computes it the same way).
Expected<__int128> DecimalAverage(__int128 sum, int scale, int64_t count, int *result_scale);

// The one column type: a basic-typed column whose buffers are views over memory from an
// Allocator (rndn::DataBuffer), shared without copying between the loader, the column cache, the
// runtime's devices and the interpreter.  Layout as in Vector: `data` holds length elements of
// ElementSize(type.kind) bytes (fixed-width types); `validity` is empty (no NULLs) or
// ceil(length/64) uint64 words, bit 1 = valid; str/sym use `offsets` (length+1 int64) and
// `bytes`.
struct Column {
    Type type;
    int64_t length = 0;
    DataBuffer data;
    DataBuffer validity;
    DataBuffer offsets;
    DataBuffer bytes;
    // Decimal results whose scale is known per element (type.scale == kUnknownScale, e.g.
    // avg): one uint8 display scale per element, values scaled by 10^scale_max (see Vector).
    DataBuffer elem_scale;
    int32_t scale_max = 0;

    bool HasNulls() const { return !validity.empty(); }
    bool IsValid(int64_t i) const {
        return validity.empty() || ((validity.As<uint64_t>()[i >> 6] >> (i & 63)) & 1);
    }
    std::string_view StringAt(int64_t i) const {
        const int64_t *o = offsets.As<int64_t>();
        return std::string_view(reinterpret_cast<const char *>(bytes.data()) + o[i], static_cast<size_t>(o[i + 1] - o[i]));
    }
};

// A column of `length` elements of `type` from `allocator`: data zero-filled, a validity
// bitmap (all valid) when `nullable`, and for str/sym offsets all zero and no bytes (fill them,
// or use ColumnFromStrings).  The producer writes through DataBuffer::mutable_data() before sharing.
Expected<Column> MakeColumn(Allocator &allocator, const Type &type, int64_t length, bool nullable = false);
// Checks the invariants above (buffer sizes, offsets monotone and within bytes).
Status ValidateColumn(const Column &c);
// Zero-copy views, both ways.  A Vector made from a column shares the column's buffers (data,
// validity bitmap, string offsets and bytes: the interpreter reads them in place; Buf views,
// copied only if written).  A column made from a vector shares all of the vector's memory (it
// keeps the vector alive).
Expected<std::shared_ptr<const Vector>> VectorFromColumn(const Column &c);
Expected<Column> ColumnFromVector(std::shared_ptr<const Vector> v);

struct List;
struct Dict;
struct Enum;
struct Table;
struct KTable;

// A function value (`@sum`, `@Builtin.plus`, `@default.f`).  builtin >= 0 names a builtin by
// its Builtin id (builtins.def row); otherwise module/name name a user function.
struct FuncRef {
    std::string module;
    std::string name;
    int builtin = -1;
    bool is_builtin() const { return builtin >= 0; }
    Builtin builtin_id() const { return static_cast<Builtin>(builtin); }  // when is_builtin()
};

enum class ValueKind : uint8_t { NONE, VECTOR, LIST, DICT, ENUM, TABLE, KTABLE, FUNC };

class Value {
public:
    Value() = default;
    Value(std::shared_ptr<const Vector> v) : v_(std::move(v)) {}
    Value(std::shared_ptr<Vector> v) : v_(std::shared_ptr<const Vector>(std::move(v))) {}
    Value(std::shared_ptr<const List> v) : v_(std::move(v)) {}
    Value(std::shared_ptr<const Dict> v) : v_(std::move(v)) {}
    Value(std::shared_ptr<const Enum> v) : v_(std::move(v)) {}
    Value(std::shared_ptr<const Table> v) : v_(std::move(v)) {}
    Value(std::shared_ptr<const KTable> v) : v_(std::move(v)) {}
    Value(FuncRef f) : v_(std::move(f)) {}

    ValueKind kind() const { return static_cast<ValueKind>(v_.index()); }
    bool is_vector() const { return kind() == ValueKind::VECTOR; }
    const Vector &vector() const { return *std::get<1>(v_); }
    const std::shared_ptr<const Vector> &vector_ptr() const { return std::get<1>(v_); }
    const List &list() const { return *std::get<2>(v_); }
    const Dict &dict() const { return *std::get<3>(v_); }
    const Enum &enumeration() const { return *std::get<4>(v_); }
    const Table &table() const { return *std::get<5>(v_); }
    const KTable &ktable() const { return *std::get<6>(v_); }
    const FuncRef &func() const { return std::get<7>(v_); }
    // Run-time type of the value (list cell types, enum target, decimal scale...).
    Type type() const;

private:
    std::variant<std::monostate, std::shared_ptr<const Vector>, std::shared_ptr<const List>,
                 std::shared_ptr<const Dict>, std::shared_ptr<const Enum>,
                 std::shared_ptr<const Table>, std::shared_ptr<const KTable>, FuncRef>
        v_;
};

struct List {
    std::vector<Value> cells;
    // The interpreter's memory check after every statement adds up the live values' bytes; a
    // list of many cells (a GROUP BY's groups) is counted once: a list is not changed once it
    // is a value.  -1: not counted yet.  (Only the interpreter's own thread reads or sets it.)
    mutable int64_t bytes_memo = -1;
};

struct Dict {
    Value keys;
    Value values;
};

// A foreign-key column of table A referencing the primary key of table B (horseir-reference
// §3.7): keys = B's key column (rows(B)), values = the raw foreign-key values (rows(A)),
// indexes = i64 row positions into B with keys[indexes[i]] == values[i].
// @keys -> keys, @fetch -> values, @values -> indexes.
struct Enum {
    std::shared_ptr<const Vector> keys;
    std::shared_ptr<const Vector> values;
    std::shared_ptr<const Vector> indexes;
    std::string target_table;  // informational
};

// Builds an Enum: computes indexes by looking each value up in keys.  A value missing from
// keys (or NULL) is an error "foreign key value ... not found" (USER_ERROR).
Expected<std::shared_ptr<Enum>> MakeEnum(std::shared_ptr<const Vector> keys,
                                         std::shared_ptr<const Vector> values,
                                         std::string target_table = "");

struct Table {
    std::vector<std::string> names;
    std::vector<Value> columns;  // basic vectors or enums, all of one length
    int64_t rows() const;
};

struct KTable {
    std::shared_ptr<const Table> key;
    std::shared_ptr<const Table> value;
};

// Text of one element for output ("run" format): dates YYYY-MM-DD, floats shortest round-trip,
// decimals with their scale, bool 0/1, NULL as the empty string.
std::string FormatElement(const Vector &v, int64_t i);
// A table as text: header line of names, then one line per row, fields separated by '|'.
// Non-table values print one element (or cell) per line.
std::string FormatValue(const Value &v);

// ----------------------------------------------------------------------------------------------
// Program tree.  Positions are 1-based line:col into the parsed text.

struct Loc {
    int line = 0;
    int col = 0;
};

// A literal: its declared type plus the value (a vector of that type; FUNC literals are
// Operand::FUNC, not literals).  `text` keeps the source spelling of each element, used by the
// printer so that print(parse(x)) keeps float digits exactly.
struct Literal {
    Type type;
    std::shared_ptr<const Vector> value;
    std::vector<std::string> text;
};

struct Operand {
    enum class Kind : uint8_t { NAME, FUNC, LITERAL };
    Kind kind = Kind::NAME;
    std::string module;  // qualifier, may be empty
    std::string name;
    bool func_suffix = false;  // written "@f:func"
    Literal literal;
    Loc loc;
    // Filled by CheckProgram: the variable slot in the enclosing function's frame (NAME), the
    // global index (module-level NAME, slot < 0 then global >= 0), or the resolved function.
    int slot = -1;
    int global = -1;
    FuncRef resolved;
    Type type;
};

struct Expr {
    enum class Kind : uint8_t { CALL, CAST, OPERAND };
    Kind kind = Kind::OPERAND;
    Operand callee;                 // CALL: a FUNC operand
    std::vector<Operand> args;      // CALL
    std::shared_ptr<Expr> inner;    // CAST
    Type cast_type;                 // CAST
    Operand operand;                // OPERAND
    Loc loc;
    std::vector<Type> types;        // filled by CheckProgram: result type(s)
};

struct Target {
    std::string module;
    std::string name;
    bool declares = false;  // "x:T" (declare-and-assign); false for "x" (assign declared name)
    Type type;              // declared type when declares
    Loc loc;
    int slot = -1;          // filled by CheckProgram
    int global = -1;
};

struct Stmt {
    enum class Kind : uint8_t { ASSIGN, EXPR, RETURN, IF, WHILE, REPEAT, VAR, BREAK, CONTINUE };
    Kind kind = Kind::EXPR;
    std::vector<Target> targets;   // ASSIGN, VAR (declares = true)
    Expr expr;                     // ASSIGN, EXPR
    std::vector<Operand> operands; // RETURN; IF/WHILE/REPEAT: operands[0] is the condition
    std::vector<Stmt> body;        // IF (then), WHILE, REPEAT
    std::vector<Stmt> else_body;   // IF
    bool has_else = false;
    Loc loc;
};

struct Param {
    std::string name;
    Type type;
    Loc loc;
    int slot = -1;
};

struct Function {
    std::string name;
    bool is_kernel = false;
    std::vector<Param> params;
    std::vector<Type> returns;
    std::vector<Stmt> body;
    Loc loc;
    int num_slots = 0;  // filled by CheckProgram
};

struct Import {
    std::string module;
    std::vector<std::string> names;  // empty with star = true: "import M.*"
    bool star = false;
    Loc loc;
};

struct Global {
    std::string name;
    Type type;
    Operand init;
    Loc loc;
};

struct Module {
    std::string name;
    std::vector<Import> imports;
    std::vector<Global> globals;
    std::vector<Function> functions;
    // Item order as written (kind 0 import, 1 global, 2 function; index into its vector), so
    // the printer reproduces the source order.
    std::vector<std::pair<int, int>> order;
    Loc loc;
};

struct Program {
    std::vector<Module> modules;
    std::string filename;
    // Trailing comments after the last module (rNdN's "// Elapsed time" trailers) are dropped.
    bool checked = false;  // set by CheckProgram
    int entry_module = -1;
    int entry_function = -1;
};

// Parses HorseIR text.  Errors are PARSE_ERROR "filename:line:col: message"; never crashes.
Expected<Program> ParseProgram(std::string_view text, std::string_view filename);
// Symbol resolution, type checking (infers every '?'), definite assignment, entry point.
// Errors are USER_ERROR (SQLSTATE 42804) "filename:line:col: message".
Status CheckProgram(Program &program);
// Canonical text; ParseProgram(PrintProgram(p)) prints identically.
std::string PrintProgram(const Program &program);
// The canonical text of one expression or operand, as PrintProgram writes it inside a
// statement ("@plus(t1, 2:i64)", "check_cast(t3, dec128<2>)", "t7").
std::string PrintExpr(const Expr &expr);
std::string PrintOperand(const Operand &operand);

// ----------------------------------------------------------------------------------------------
// Shape analysis (shapes.cpp; thesis §4.3, shared/docs/rndn-thesis-digest.md §3.3): the abstract
// layout and symbolic length of every variable of a checked program.  It is the outliner's input.

// A symbolic length.  CONSTANT: known at compile time (literals, reductions); SYMBOL: the row
// count of a relation (`symbol` is the table name given to @load_table); COMPRESSED: `base`
// after a boolean mask, identified by its data object (`mask`, an index into
// ShapeInfo::data_objects); DYNAMIC: data-dependent, equal only to itself (`dynamic` id), made
// by the builtin `origin` (group counts, join results, unique ...).
struct ShapeSize {
    enum class Kind : uint8_t { CONSTANT, SYMBOL, COMPRESSED, DYNAMIC };
    Kind kind = Kind::DYNAMIC;
    int64_t constant = 0;
    std::string symbol;
    std::shared_ptr<const ShapeSize> base;
    int mask = -1;
    int dynamic = -1;
    Builtin origin = Builtin::COUNT_;  // COUNT_: none (a parameter, a merge, a user function)

    static ShapeSize Constant(int64_t k);
    static ShapeSize Symbol(std::string relation);
    static ShapeSize Compressed(ShapeSize base, int mask);
    bool operator==(const ShapeSize &o) const;
    bool operator!=(const ShapeSize &o) const { return !(*this == o); }
};

// VECTOR(size); LIST(size = cell count, cells: one shape when all cells are alike, else one per
// cell); ENUM(size = entries, size2 = referenced keys); DICT(size, cells = {keys, values});
// TABLE(size = rows, size2 = columns); FUNC (a function value); WILDCARD (unknown).
struct Shape {
    enum class Kind : uint8_t { WILDCARD, VECTOR, LIST, ENUM, DICT, TABLE, FUNC };
    Kind kind = Kind::WILDCARD;
    ShapeSize size;
    ShapeSize size2;
    std::vector<Shape> cells;

    static Shape Vector(ShapeSize n);
    bool operator==(const Shape &o) const;
    bool operator!=(const Shape &o) const { return !(*this == o); }
};

// What the outliner asks first about a variable.
enum class ShapeClass : uint8_t {
    SCALAR,      // Vector(1)
    CONSTANT,    // Vector(k), k != 1
    RELATION,    // a vector with a relation's length
    COMPRESSED,  // a vector compressed by a mask
    GROUPED,     // one element per group (@group keys, aggregates razed per group)
    JOINED,      // one element per joined pair (@join_index results and gathers through them)
    DYNAMIC,     // another data-dependent length
    CELLS,       // a list (per-group cells, @list of columns, join index pairs)
    GROUPING,    // the dictionary @group returns
    ENUM,
    TABLE,
    OTHER,       // functions, unknown
};

std::string ShapeSizeToString(const ShapeSize &s, const std::vector<std::string> &data_objects);
std::string ShapeToString(const Shape &s, const std::vector<std::string> &data_objects);
ShapeClass ClassifyShape(const Shape &s);
const char *ShapeClassName(ShapeClass c);

struct VarShape {
    std::string function;
    std::string name;
    Type type;
    Shape shape;
    ShapeClass klass = ShapeClass::OTHER;
    Loc loc;
};

struct ShapeInfo {
    // One row per definition, in program order (a variable assigned twice has two rows).
    std::vector<VarShape> vars;
    // Printable name of each data object (the variable and, when it is redefined, "#k").
    std::vector<std::string> data_objects;
    // The last row for `name` in `function`; nullptr when there is none.
    const VarShape *Find(const std::string &function, const std::string &name) const;
    // One line per row: "function name:type shape class".
    std::string ToString() const;
};

// Infers the shape of every variable of a program that CheckProgram accepted, and checks for
// shape errors (USER_ERROR "file:line:col: shape error: ...": element-wise operands of two
// different constant lengths, a compress whose mask and data have different constant lengths,
// a table whose columns have different constant lengths, a constant list index out of range).
Expected<ShapeInfo> InferShapes(const Program &program);

// ----------------------------------------------------------------------------------------------
// Builder: makes a Program value without writing HorseIR text (builder.cpp).  The program it
// makes prints (PrintProgram) exactly as the equivalent parsed text, and ParseProgram of that
// text gives the same program.  Errors (a bad name, a literal that has no text form such as a
// NaN) are sticky: the first one is returned by Finish().
//
//   Builder b;                                  // module default{ import Builtin.*; ...
//   b.BeginFunction("main", {TypeKind::TABLE});
//   Operand t = b.Assign("t0", Type(), b.Call(Builtin::LOAD_TABLE, {b.Sym("lineitem")}));
//   ...
//   b.Return({r});
//   Expected<Program> p = b.Finish();
class Builder {
public:
    // Starts a program with one module that imports Builtin.* (as the translator's programs do).
    explicit Builder(std::string module_name = "default", bool import_builtins = true);

    // Further modules and imports ("import M.*" when names is empty).
    void BeginModule(std::string name, bool import_builtins = true);
    void Import(std::string module, std::vector<std::string> names = {});
    void Global(std::string name, Type type, Operand init);

    // A function of the current module (def, or kernel); statements go to it until the next
    // BeginFunction / BeginModule / Finish.
    void BeginFunction(std::string name, std::vector<Type> returns, bool kernel = false);
    // A parameter of the current function; returns the operand naming it.
    Operand Param(std::string name, Type type);

    // Statements.  Assign declares ("name:T = e;", T may be Type() for '?'); Set assigns an
    // already declared name ("name = e;"); AssignMany is "a:T, b:U = @f(...);".
    Operand Assign(std::string name, Type declared, Expr e);
    void Set(std::string name, Expr e);
    std::vector<Operand> AssignMany(std::vector<std::pair<std::string, Type>> targets, Expr e);
    // "t<N>:? = e;" with a fresh name t<N> (N counts per builder).
    Operand Temp(Expr e, Type declared = Type());
    void Declare(std::vector<std::string> names, Type type);  // var a, b:T;
    void Eval(Expr e);                                        // e;
    void Return(std::vector<Operand> values);
    void Break();
    void Continue();
    // Structured control flow: Begin*, statements, [Else, statements,] End.
    void BeginIf(Operand cond);
    void Else();
    void BeginWhile(Operand cond);
    void BeginRepeat(Operand count);
    void End();

    // Expressions and operands (no statement is added).
    Expr Call(Builtin b, std::vector<Operand> args) const;
    Expr CallUser(std::string module, std::string name, std::vector<Operand> args) const;
    static Expr Cast(Expr inner, Type to);
    static Expr Use(Operand o);
    static Operand Name(std::string name);
    static Operand Fn(Builtin b);  // @name as a function argument (@each(@sum, x))

    // Literals: scalars of every basic type, NULL, and whole vectors.
    Operand Bool(bool v);
    Operand Char(char v);
    Operand I8(int8_t v);
    Operand I16(int16_t v);
    Operand I32(int32_t v);
    Operand I64(int64_t v);
    Operand F32(float v);
    Operand F64(double v);
    Operand Str(std::string_view v);
    Operand Sym(std::string_view v);
    Operand Date(int32_t days_since_2000);
    Operand Month(int32_t months_since_2000);
    Operand Minute(int32_t minutes);
    Operand Second(int32_t seconds);
    Operand Time(int64_t micros);   // whole milliseconds (the literal's unit)
    Operand Dt(int64_t micros);     // microseconds; INT64_MAX / INT64_MIN: Infinity / -Infinity
    Operand Dec64(int64_t unscaled, int32_t scale);
    Operand Dec128(__int128 unscaled, int32_t scale);
    Operand Null(Type type);
    Operand Syms(const std::vector<std::string> &v);
    Operand I64s(const std::vector<int64_t> &v);
    Operand Bools(const std::vector<bool> &v);
    // Any basic vector (length >= 1, fixed scale): the literal whose value it is.
    Operand Literal(std::shared_ptr<const Vector> value);

    const Status &status() const { return status_; }
    // The program; the builder is empty afterwards.  Positions (Loc) are those of the
    // printed text, so checker messages point into PrintProgram's output.
    Expected<Program> Finish();

private:
    std::vector<Stmt> &Body();
    void Add(Stmt s);
    void Fail(Status s);
    bool CheckName(const std::string &name);

    Program program_;
    Status status_;
    int temp_ = 0;
    int function_ = -1;  // index in the current module, -1 = none
    // Open blocks: the statement (in its parent body) and whether its else branch is open.
    std::vector<std::pair<Stmt *, bool>> blocks_;
    std::vector<std::vector<Stmt> *> block_bodies_;
};

// ----------------------------------------------------------------------------------------------
// Data registry and interpreter

class DataRegistry {
public:
    // Registers (or replaces) a table under `name`.  Columns must be basic vectors or enums
    // of equal length; names must be unique.
    Status AddTable(const std::string &name, std::shared_ptr<const Table> table);
    // Convenience: builds the Table from parallel vectors.
    Status AddTable(const std::string &name, std::vector<std::string> column_names,
                    std::vector<Value> columns);
    Expected<std::shared_ptr<const Table>> GetTable(const std::string &name) const;
    bool HasTable(const std::string &name) const;
    std::vector<std::string> TableNames() const;
    // Primary-key column name of a table, when known (used by loaders to build enums).
    void SetPrimaryKey(const std::string &table, const std::string &column);
    std::string PrimaryKey(const std::string &table) const;

private:
    std::map<std::string, std::shared_ptr<const Table>> tables_;
    std::map<std::string, std::string> primary_keys_;
};

// Cancel polling for long work on this thread.  While a CancelPollScope is alive, the long
// loops of the interpreter's kernels, the lexer and parser, the checker, the shape inference and
// the printer call `poll` now and then (well under a millisecond of work apart); when it returns
// true they throw CancelUnwind, which unwinds their frames (RAII state only).  Interpret turns it
// into Status::Cancelled itself (it installs its own should_cancel); a caller of ParseProgram,
// CheckProgram, InferShapes or PrintProgram under a scope catches it.  Scopes nest.
struct CancelUnwind {};
class CancelPollScope {
public:
    explicit CancelPollScope(const std::function<bool()> *poll);
    ~CancelPollScope();
    CancelPollScope(const CancelPollScope &) = delete;
    CancelPollScope &operator=(const CancelPollScope &) = delete;

private:
    const std::function<bool()> *saved_;
};

struct InterpretOptions {
    // Polled between builtins and inside long loops; returning true makes Interpret return
    // Status::Cancelled().
    std::function<bool()> should_cancel;
    // Bytes the interpreter may hold in intermediate results (0 = unlimited).  Going over it
    // gives OUT_OF_MEMORY (SQLSTATE 53200).
    int64_t memory_budget = 0;
    // SQL aggregate semantics everywhere: @sum/@min/@max over no valid element give NULL even
    // when the input has no validity bitmap (HorseIR's own rule: @sum of an empty vector is 0).
    bool sql_empty_aggregates = false;
    // SQL float semantics in @plus/@minus/@mul/@div on f32/f64: a finite computation that
    // overflows to infinity or underflows to zero raises 22003 "value out of range: overflow" /
    // "...: underflow", and division by zero raises 22012, as PostgreSQL's float4/float8
    // operators do (HorseIR's own rule is IEEE arithmetic).
    bool sql_float_errors = false;
    // SQL semantics for narrowing check_cast (i64 -> i32, f64 -> i32, f64 -> f32, ...): a value
    // out of the target's range raises PostgreSQL's error ("integer out of range", "value out of
    // range: overflow"), and float -> integer rounds half to even (rint) as PostgreSQL does.
    // HorseIR's own rule: C conversions (integers wrap, floats truncate and saturate).
    bool sql_casts = false;
    // @join_index (equality keys), @member, @index_of, @group and @unique match keys through
    // hash tables (keys_hash.cpp); false: through the sort-based rank path, the reference the
    // unit tests compare the hash path with (same results, same order).
    bool hash_keys = true;
};

// Runs `main` of a program that CheckProgram accepted (an unchecked program is an INTERNAL
// error).  Returns main's (first) return value.  Run-time errors carry PostgreSQL's SQLSTATE and
// wording (22003 overflow, 22012 division by zero, ...); CANCELLED when should_cancel fires;
// OUT_OF_MEMORY over the budget; UNSUPPORTED for builtins the interpreter does not implement.
Expected<Value> Interpret(const Program &program, DataRegistry &data,
                          const InterpretOptions &options);
// Same, with the values of the entry function's parameters (one per parameter, in order).
Expected<Value> Interpret(const Program &program, DataRegistry &data, const InterpretOptions &options,
                          const std::vector<Value> &entry_args);
// Same, for a program that may not be checked yet.
Expected<Value> CheckAndInterpret(Program &program, DataRegistry &data,
                                  const InterpretOptions &options);

// Evaluates one expression of a checked program's function against a frame of values indexed
// by the slots CheckProgram assigned (the hybrid executor of src/codegen runs the statements it
// does not compile through it).  Same errors as Interpret.
Expected<std::vector<Value>> EvaluateExpr(const Program &program, const Expr &expr,
                                          const std::vector<Value> &frame, DataRegistry &data,
                                          const InterpretOptions &options);

// Large vector payloads freed during a run are kept for reuse by later allocations (fresh
// column-sized mappings cost page faults, and the kernel zeroes every page); this returns them
// to the system, largest first, until at most keep_bytes stay pooled.  Thread-safe.
void ReleasePooledPayloads(size_t keep_bytes = 0);

// ----------------------------------------------------------------------------------------------
// Calendar helpers (days since 2000-01-01 <-> civil date).
int32_t DaysFromCivil(int32_t year, int32_t month, int32_t day);
void CivilFromDays(int32_t days, int32_t *year, int32_t *month, int32_t *day);

// to_char(timestamp, format) (@to_char, PostgreSQL 15's date/time patterns): OK when @to_char
// writes `format` exactly as PostgreSQL does; UNSUPPORTED names the part it leaves to PostgreSQL
// (TM on a month or day name, the SP suffix, and when `zoned` (a timestamptz) the zone patterns
// TZ, tz, TZH, TZM and OF).
Status CheckToCharFormat(std::string_view format, bool zoned);

// Decimal helpers.  Text "123.45" -> integer scaled by 10^scale (rounded half away from zero
// like PostgreSQL when the text has more digits).  Fails on bad text or out of range.
Expected<__int128> ParseDecimal(std::string_view text, int32_t scale);
std::string FormatDecimal(__int128 value, int32_t scale);

// Loading dbgen-style data: --schema SQL text (CREATE TABLE with PRIMARY KEY / REFERENCES) and
// a directory of NAME.tbl files.  Types: integer/bigint/smallint -> i32/i64/i16,
// numeric(p,s)/decimal(p,s) -> dec64<s> (dec128<s> when p > 18), double precision/real ->
// f64/f32, date -> date, char(1) -> char, other char/varchar/text -> str; foreign keys ->
// enum<T> onto the referenced table (tables are loaded in dependency order).
// With `decimal_as_f64` numeric columns load as f64 (the rNdN TPC-H programs cast them to f64).
struct LoadOptions {
    bool decimal_as_f64 = false;
    bool text_as_sym = true;  // str columns load as sym (rNdN's programs cast text to sym)
};
Status LoadSchemaAndData(std::string_view schema_sql, const std::string &data_dir,
                         DataRegistry &registry, const LoadOptions &options = {});

// Collations for @collate_rank.  A collation string is "libc:<locale>" (glibc's strcoll_l under
// newlocale(<locale>), built in) or "icu:<locale>" (ICU's collator for <locale>, which the host
// registers: rndn.so links ICU, the core does not).  The comparison returns <0, 0, >0 like
// strcoll; @collate_rank breaks its ties by the bytes, as PostgreSQL's varstr_cmp does for
// deterministic collations.  A comparison must be safe to call from any thread; @collate_rank
// passes NUL-terminated strings (a.data()[a.size()] == '\0'), as strcoll needs.
using CollationCompare = std::function<int(std::string_view a, std::string_view b)>;
using CollationOpener = std::function<Expected<CollationCompare>(const std::string &locale)>;
// Registers the opener of "<provider>:" collations (replaces an earlier one).
void RegisterCollationProvider(const std::string &provider, CollationOpener opener);
// The comparison of a collation string (opened once per process, then cached).
Expected<CollationCompare> OpenCollation(const std::string &collation);

}  // namespace rndn::hir
