// Paths to a value inside a JSON document, as error messages and migration
// reports spell them: "deployedComponents[2].installedCharts".
//
// Thread safety: reentrant.
#ifndef ZARF_STATE_JSON_JSON_PATH_H_
#define ZARF_STATE_JSON_JSON_PATH_H_

#include <cstddef>
#include <initializer_list>
#include <string>
#include <string_view>

namespace zs::json {

// "parent.field", or "field" when `parent` is empty.
std::string JoinPath(std::string_view parent, std::string_view field);
// JoinPath appended to `*out` (for a message built in one buffer).
void AppendJoinedPath(std::string* out, std::string_view parent, std::string_view field);
// "parent[index]".
std::string IndexPath(std::string_view parent, std::size_t index);

// A path made where it is used, for a walk that hands each nested value
// its path but reads it only for an error: held in the object itself up to
// kInline bytes (no allocation), on the heap beyond. Neither copied nor
// moved (it may point into itself).
class PathOnStack {
 public:
  // JoinPath(parent, field).
  PathOnStack(std::string_view parent, std::string_view field);
  // IndexPath(parent, index).
  PathOnStack(std::string_view parent, std::size_t index);
  PathOnStack(const PathOnStack&) = delete;
  PathOnStack& operator=(const PathOnStack&) = delete;

  std::string_view view() const { return {data_, size_}; }
  operator std::string_view() const { return view(); }  // NOLINT: a path is a string

 private:
  static constexpr std::size_t kInline = 120;
  void Assign(std::initializer_list<std::string_view> parts);
  char inline_[kInline];
  std::string heap_;
  const char* data_ = inline_;
  std::size_t size_ = 0;
};

}  // namespace zs::json

#endif  // ZARF_STATE_JSON_JSON_PATH_H_
