// The YAML stream parser behind zs::yaml::ParseDocuments.
//
// libfyaml's event parser does the syntax; a small builder turns its events
// into json::Values and applies the rules of yaml/yaml.h (scalar
// resolution, tags, duplicate and merge keys, aliases, limits). libfyaml
// stays private to yaml/: no libfyaml type appears in a header.
//
// Internal to yaml/: nothing outside the folder includes this header.
//
// Thread safety: ParseStream is reentrant; each call owns its state.
#ifndef ZARF_STATE_YAML_INTERNAL_YAML_PARSER_H_
#define ZARF_STATE_YAML_INTERNAL_YAML_PARSER_H_

#include <cstddef>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "json/json_value.h"

namespace zs::yaml::internal {

// Parses every document of `text`; the contract is ParseDocuments' in
// yaml/yaml.h. `text` is borrowed for the duration of the call only.
// `max_depth` is the deepest nesting accepted.
Result<std::vector<json::Value>> ParseStream(std::string_view text, std::size_t max_depth);

}  // namespace zs::yaml::internal

#endif  // ZARF_STATE_YAML_INTERNAL_YAML_PARSER_H_
