// Status and Result<T>: the one error type of zarf-state.
//
// A Status is either OK or carries a code and a human-readable message. An OK
// Status allocates nothing. Result<T> holds either a value or a non-OK Status;
// building a Result from an OK Status is a programming error (asserted).
//
// Thread safety: distinct objects may be used from different threads; a single
// object needs external synchronisation for concurrent non-const access, like
// any standard value type.
#ifndef ZARF_STATE_BASE_STATUS_H_
#define ZARF_STATE_BASE_STATUS_H_

#include <cassert>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace zs {

class [[nodiscard]] Status {
 public:
  // Callers branch on these; details belong in the message.
  enum class Code : unsigned char {
    kOk = 0,
    kNotFound = 1,
    kCorruption = 2,       // stored bytes are malformed (JSON, base64, envelope)
    kInvalidArgument = 3,  // the request or an input object breaks a rule
    kIOError = 4,
    kNotSupported = 5,
    kTooLarge = 6,  // a Secret would exceed the API server's size limit
    // The request itself cannot be carried out as asked: a required option
    // missing, two that exclude each other, a value outside its choices.
    // Nothing was read or written. (InvalidArgument is for inputs that
    // break a rule.) A command line reports it as a usage error.
    kUsage = 7,
  };

  Status() noexcept = default;
  Status(const Status& other);
  Status& operator=(const Status& other);
  Status(Status&&) noexcept = default;
  Status& operator=(Status&&) noexcept = default;

  static Status OK() { return Status(); }
  static Status NotFound(std::string_view msg) { return {Code::kNotFound, msg}; }
  static Status Corruption(std::string_view msg) {
    return {Code::kCorruption, msg};
  }
  static Status InvalidArgument(std::string_view msg) {
    return {Code::kInvalidArgument, msg};
  }
  static Status IOError(std::string_view msg) { return {Code::kIOError, msg}; }
  static Status NotSupported(std::string_view msg) {
    return {Code::kNotSupported, msg};
  }
  static Status TooLarge(std::string_view msg) { return {Code::kTooLarge, msg}; }
  static Status Usage(std::string_view msg) { return {Code::kUsage, msg}; }

  bool ok() const { return rep_ == nullptr; }
  Code code() const { return rep_ ? rep_->code : Code::kOk; }
  // The message without the code name; empty when OK.
  std::string_view message() const {
    return rep_ ? std::string_view(rep_->message) : std::string_view();
  }
  // "Corruption: <message>", or "OK".
  std::string ToString() const;

  // Returns a Status with the same code whose message is "<context>: <message>".
  // Used going up the stack to add the file, object or byte offset.
  Status WithContext(std::string_view context) const;

 private:
  struct Rep {
    Code code;
    std::string message;
  };
  Status(Code code, std::string_view msg);

  std::unique_ptr<Rep> rep_;
};

// A value of type T, or the Status saying why there is none.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : value_(std::move(value)) {}  // NOLINT: implicit by design
  Result(Status status) : status_(std::move(status)) {  // NOLINT
    assert(!status_.ok() && "Result built from an OK Status");
    if (status_.ok()) status_ = Status::InvalidArgument("Result without value");
  }

  bool ok() const { return value_.has_value(); }
  const Status& status() const { return status_; }

  // Precondition: ok().
  T& value() & {
    assert(ok());
    return *value_;
  }
  const T& value() const& {
    assert(ok());
    return *value_;
  }
  T&& value() && {
    assert(ok());
    return std::move(*value_);
  }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

 private:
  Status status_;
  std::optional<T> value_;
};

}  // namespace zs

#define ZS_CONCAT_INNER_(a, b) a##b
#define ZS_CONCAT_(a, b) ZS_CONCAT_INNER_(a, b)

// Evaluates `expr` (a Status) once; returns it from the enclosing function if
// it is not OK.
#define ZS_RETURN_IF_ERROR(expr)              \
  do {                                        \
    ::zs::Status zs_status_ = (expr);         \
    if (!zs_status_.ok()) return zs_status_;  \
  } while (0)

// Evaluates `rexpr` (a Result<T>) once; on error returns its Status, otherwise
// moves the value into `lhs` (a declaration like `auto x` or an lvalue). Being
// a declaration, it must stand alone as a statement, not as the body of an
// unbraced if/else.
#define ZS_ASSIGN_OR_RETURN(lhs, rexpr) \
  ZS_ASSIGN_OR_RETURN_IMPL_(ZS_CONCAT_(zs_result_, __LINE__), lhs, rexpr)
#define ZS_ASSIGN_OR_RETURN_IMPL_(tmp, lhs, rexpr) \
  auto tmp = (rexpr);                              \
  if (!tmp.ok()) return tmp.status();              \
  lhs = std::move(tmp).value()

#endif  // ZARF_STATE_BASE_STATUS_H_
