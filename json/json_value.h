// json::Value: an ordered, lossless JSON document tree.
//
// Unlike a map-based DOM, a Value keeps what a byte-exact round trip needs:
// object members in their original order (duplicates included, unless the
// reader was asked to resolve them), and every number as its original spelling
// (`5.0`, `1E-7` and `123456789012345678901234` stay as written). Converting a
// number to float64, as Go's `encoding/json` does when it decodes into `any`,
// is the writer's choice (see go_json.h), never the tree's.
//
// Thread safety: a Value is a plain value type; concurrent reads are safe,
// writes need external synchronisation.
#ifndef ZARF_STATE_JSON_JSON_VALUE_H_
#define ZARF_STATE_JSON_JSON_VALUE_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace zs::json {

class Value;
using Member = std::pair<std::string, Value>;
using Array = std::vector<Value>;
using Object = std::vector<Member>;

enum class Kind : std::uint8_t { kNull, kBool, kNumber, kString, kArray, kObject };

// "null", "boolean", "number", "string", "array" or "object".
std::string_view KindName(Kind kind);

class Value {
 public:
  // A number's text, exactly as it appeared in the input (already validated
  // against the RFC 8259 number grammar by whoever built it).
  struct Number {
    std::string raw;
    bool operator==(const Number&) const = default;
  };

  Value() = default;  // null
  static Value Null() { return Value(); }
  static Value Bool(bool b) { return Value(Storage(b)); }
  // `raw` must be a valid JSON number; see IsValidNumber.
  static Value RawNumber(std::string raw) {
    return Value(Storage(Number{std::move(raw)}));
  }
  static Value Int(std::int64_t v) { return RawNumber(std::to_string(v)); }
  static Value String(std::string s) { return Value(Storage(std::move(s))); }
  static Value MakeArray(Array items = {}) {
    return Value(Storage(std::move(items)));
  }
  static Value MakeObject(Object members = {}) {
    return Value(Storage(std::move(members)));
  }

  Kind kind() const { return static_cast<Kind>(v_.index()); }
  bool is_null() const { return kind() == Kind::kNull; }
  bool is_bool() const { return kind() == Kind::kBool; }
  bool is_number() const { return kind() == Kind::kNumber; }
  bool is_string() const { return kind() == Kind::kString; }
  bool is_array() const { return kind() == Kind::kArray; }
  bool is_object() const { return kind() == Kind::kObject; }

  // Accessors; each requires the matching kind (asserted).
  bool as_bool() const { return std::get<bool>(v_); }
  const std::string& number_raw() const { return std::get<Number>(v_).raw; }
  const std::string& as_string() const { return std::get<std::string>(v_); }
  std::string& as_string() { return std::get<std::string>(v_); }
  const Array& array() const { return std::get<Array>(v_); }
  Array& array() { return std::get<Array>(v_); }
  const Object& object() const { return std::get<Object>(v_); }
  Object& object() { return std::get<Object>(v_); }

  // Object helpers; on a non-object Find returns nullptr.
  // Find returns the last member named `key` (Go's "last one wins").
  const Value* Find(std::string_view key) const;
  Value* Find(std::string_view key);
  // Member `key` if it is a string, else empty.
  std::string_view StringOr(std::string_view key,
                            std::string_view fallback = {}) const;
  // Replaces the value of the last member named `key`, or appends a member.
  // Requires is_object().
  void Set(std::string_view key, Value value);
  // Removes every member named `key`; returns whether one was removed.
  bool Erase(std::string_view key);

  // Structural equality: numbers compare by spelling, objects by member order.
  bool operator==(const Value& other) const { return v_ == other.v_; }

 private:
  using Storage =
      std::variant<std::monostate, bool, Number, std::string, Array, Object>;
  explicit Value(Storage v) : v_(std::move(v)) {}
  Storage v_;
};

// Whether `text` matches the JSON number grammar of RFC 8259 exactly.
bool IsValidNumber(std::string_view text);

}  // namespace zs::json

#endif  // ZARF_STATE_JSON_JSON_VALUE_H_
