#include "json/json_path.h"

#include <charconv>

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

void SetIndexPath(std::string* out, std::string_view parent, std::size_t index) {
  char digits[24];
  const auto end = std::to_chars(digits, digits + sizeof digits, index).ptr;
  out->assign(parent);
  out->push_back('[');
  out->append(digits, end);
  out->push_back(']');
}

std::string IndexPath(std::string_view parent, std::size_t index) {
  std::string out;
  SetIndexPath(&out, parent, index);
  return out;
}

}  // namespace zs::json
