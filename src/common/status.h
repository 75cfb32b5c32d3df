// rndn::Status and rndn::Expected<T>: how every core stage reports expected failures.
//
// The core libraries (horseir, codegen, ptx, assembler, cpujit) never include PostgreSQL
// headers and never throw across their public API.  An expected failure is a value:
//   UNSUPPORTED   - a construct a stage cannot handle (planner falls back to PostgreSQL)
//   USER_ERROR    - an error the user must see, with PostgreSQL's SQLSTATE and wording
//   CANCELLED     - an interrupt was noticed; the boundary calls CHECK_FOR_INTERRUPTS
//   OUT_OF_MEMORY - an allocation over rndn.memory_limit or a failed allocation
//   INTERNAL      - a bug; reported as "rndn internal error: ..."
//   PARSE_ERROR   - malformed text input (file:line:col in the message)
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace rndn {

enum class Code : uint8_t { OK, UNSUPPORTED, USER_ERROR, CANCELLED, OUT_OF_MEMORY, INTERNAL, PARSE_ERROR };

const char *CodeName(Code code);

// SQLSTATE packed as five characters, e.g. "22012" (division_by_zero).
struct SqlState {
    char chars[6] = {'X', 'X', '0', '0', '0', '\0'};  // internal_error by default
    constexpr SqlState() = default;
    constexpr SqlState(const char (&s)[6]) {
        for (int i = 0; i < 6; ++i) chars[i] = s[i];
    }
    bool operator==(const SqlState &o) const {
        for (int i = 0; i < 5; ++i)
            if (chars[i] != o.chars[i]) return false;
        return true;
    }
};

namespace sqlstate {
inline constexpr SqlState kDivisionByZero{"22012"};
inline constexpr SqlState kNumericOutOfRange{"22003"};
inline constexpr SqlState kInvalidParameter{"22023"};
inline constexpr SqlState kDatetimeOverflow{"22008"};
inline constexpr SqlState kStringDataRightTruncation{"22001"};
inline constexpr SqlState kInvalidTextRepresentation{"22P02"};
inline constexpr SqlState kCardinalityViolation{"21000"};
inline constexpr SqlState kFeatureNotSupported{"0A000"};
inline constexpr SqlState kOutOfMemory{"53200"};
inline constexpr SqlState kQueryCanceled{"57014"};
inline constexpr SqlState kSyntaxError{"42601"};
inline constexpr SqlState kDatatypeMismatch{"42804"};
inline constexpr SqlState kInternalError{"XX000"};
}  // namespace sqlstate

class [[nodiscard]] Status {
public:
    Status() = default;  // OK
    Status(Code code, std::string message, SqlState state = sqlstate::kInternalError)
        : code_(code), state_(state), message_(std::move(message)) {}

    static Status Ok() { return Status(); }
    static Status Unsupported(std::string m) { return {Code::UNSUPPORTED, std::move(m), sqlstate::kFeatureNotSupported}; }
    static Status UserError(SqlState s, std::string m) { return {Code::USER_ERROR, std::move(m), s}; }
    static Status Internal(std::string m) { return {Code::INTERNAL, std::move(m), sqlstate::kInternalError}; }
    static Status Cancelled() { return {Code::CANCELLED, "canceling statement due to user request", sqlstate::kQueryCanceled}; }
    static Status OutOfMemory(std::string m) { return {Code::OUT_OF_MEMORY, std::move(m), sqlstate::kOutOfMemory}; }
    static Status ParseError(std::string m) { return {Code::PARSE_ERROR, std::move(m), sqlstate::kSyntaxError}; }

    bool ok() const { return code_ == Code::OK; }
    explicit operator bool() const { return ok(); }
    Code code() const { return code_; }
    const SqlState &sqlstate() const { return state_; }
    const std::string &message() const { return message_; }
    // "<code name>: message" for logs and command-line tools.
    std::string ToString() const;

private:
    Code code_ = Code::OK;
    SqlState state_{};
    std::string message_;
};

template <class T>
class [[nodiscard]] Expected {
public:
    Expected(T value) : v_(std::move(value)) {}
    Expected(Status status) : v_(std::move(status)) {}

    bool ok() const { return v_.index() == 0; }
    explicit operator bool() const { return ok(); }
    T &value() & { return std::get<0>(v_); }
    const T &value() const & { return std::get<0>(v_); }
    T &&value() && { return std::get<0>(std::move(v_)); }
    T &operator*() & { return value(); }
    const T &operator*() const & { return value(); }
    T *operator->() { return &value(); }
    const T *operator->() const { return &value(); }
    const Status &status() const {
        static const Status kOk;
        return ok() ? kOk : std::get<1>(v_);
    }
    Status take_status() && { return ok() ? Status() : std::get<1>(std::move(v_)); }

private:
    std::variant<T, Status> v_;
};

}  // namespace rndn

// Propagate a failed Status / Expected from the current function.
#define RNDN_RETURN_IF_ERROR(expr)              \
    do {                                        \
        ::rndn::Status rndn_st_ = (expr);       \
        if (!rndn_st_.ok()) return rndn_st_;    \
    } while (0)

#define RNDN_CONCAT_INNER(a, b) a##b
#define RNDN_CONCAT(a, b) RNDN_CONCAT_INNER(a, b)
#define RNDN_ASSIGN_OR_RETURN(lhs, expr)                                   \
    auto RNDN_CONCAT(rndn_ex_, __LINE__) = (expr);                         \
    if (!RNDN_CONCAT(rndn_ex_, __LINE__).ok())                             \
        return std::move(RNDN_CONCAT(rndn_ex_, __LINE__)).take_status();   \
    lhs = std::move(RNDN_CONCAT(rndn_ex_, __LINE__)).value()
