#include "json/json_path.h"

#include <charconv>
#include <cstring>

namespace zs::json {

void AppendJoinedPath(std::string* out, std::string_view parent, std::string_view field) {
  if (!parent.empty()) out->append(parent).push_back('.');
  out->append(field);
}

std::string JoinPath(std::string_view parent, std::string_view field) {
  std::string out;
  out.reserve(parent.size() + 1 + field.size());
  AppendJoinedPath(&out, parent, field);
  return out;
}

std::string IndexPath(std::string_view parent, std::size_t index) {
  return std::string(PathOnStack(parent, index).view());
}

PathOnStack::PathOnStack(std::string_view parent, std::string_view field) {
  Assign({parent, parent.empty() ? std::string_view() : std::string_view("."), field});
}

PathOnStack::PathOnStack(std::string_view parent, std::size_t index) {
  char digits[24];
  const auto end = std::to_chars(digits, digits + sizeof digits, index).ptr;
  Assign({parent, "[", std::string_view(digits, static_cast<std::size_t>(end - digits)), "]"});
}

void PathOnStack::Assign(std::initializer_list<std::string_view> parts) {
  std::size_t n = 0;
  for (std::string_view part : parts) n += part.size();
  char* out = inline_;
  if (n > kInline) {
    heap_.resize(n);
    out = heap_.data();
  }
  data_ = out;
  size_ = n;
  for (std::string_view part : parts) {
    if (part.empty()) continue;  // its data() may be null
    std::memcpy(out, part.data(), part.size());
    out += part.size();
  }
}

}  // namespace zs::json
