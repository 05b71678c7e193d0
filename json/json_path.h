// Paths to a value inside a JSON document, as error messages and migration
// reports spell them: "deployedComponents[2].installedCharts".
//
// Thread safety: reentrant.
#ifndef ZARF_STATE_JSON_JSON_PATH_H_
#define ZARF_STATE_JSON_JSON_PATH_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace zs::json {

// "parent.field", or "field" when `parent` is empty.
std::string JoinPath(std::string_view parent, std::string_view field);
// JoinPath appended to `*out` (for a message built in one buffer).
void AppendJoinedPath(std::string* out, std::string_view parent, std::string_view field);
// "parent[index]".
std::string IndexPath(std::string_view parent, std::size_t index);
// IndexPath into `*out`, reusing its buffer (for a loop over an array).
void SetIndexPath(std::string* out, std::string_view parent, std::size_t index);

}  // namespace zs::json

#endif  // ZARF_STATE_JSON_JSON_PATH_H_
