#include "json/json_value.h"

namespace zs::json {

std::string_view KindName(Kind kind) {
  switch (kind) {
    case Kind::kNull: return "null";
    case Kind::kBool: return "boolean";
    case Kind::kNumber: return "number";
    case Kind::kString: return "string";
    case Kind::kArray: return "array";
    case Kind::kObject: return "object";
  }
  return "unknown";
}

const Value* Value::Find(std::string_view key) const {
  if (!is_object()) return nullptr;
  const Object& members = object();
  for (auto it = members.rbegin(); it != members.rend(); ++it) {
    if (it->first == key) return &it->second;
  }
  return nullptr;
}

Value* Value::Find(std::string_view key) {
  return const_cast<Value*>(static_cast<const Value*>(this)->Find(key));
}

std::string_view Value::StringOr(std::string_view key,
                                 std::string_view fallback) const {
  const Value* v = Find(key);
  return v != nullptr && v->is_string() ? std::string_view(v->as_string())
                                        : fallback;
}

void Value::Set(std::string_view key, Value value) {
  if (Value* existing = Find(key)) {
    *existing = std::move(value);
    return;
  }
  object().emplace_back(std::string(key), std::move(value));
}

bool Value::Erase(std::string_view key) {
  Object& members = object();
  const auto old_size = members.size();
  std::erase_if(members, [key](const Member& m) { return m.first == key; });
  return members.size() != old_size;
}

bool IsValidNumber(std::string_view s) {
  size_t i = 0;
  const size_t n = s.size();
  auto digit = [&](size_t k) { return k < n && s[k] >= '0' && s[k] <= '9'; };
  if (i < n && s[i] == '-') ++i;
  if (!digit(i)) return false;
  if (s[i] == '0') {
    ++i;
  } else {
    while (digit(i)) ++i;
  }
  if (i < n && s[i] == '.') {
    ++i;
    if (!digit(i)) return false;
    while (digit(i)) ++i;
  }
  if (i < n && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < n && (s[i] == '+' || s[i] == '-')) ++i;
    if (!digit(i)) return false;
    while (digit(i)) ++i;
  }
  return i == n;
}

}  // namespace zs::json
