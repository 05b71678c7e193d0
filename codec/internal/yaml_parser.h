// The YAML stream parser behind zs::yaml::ParseDocuments.
//
// A hand-written recursive-descent parser over the whole input: no token
// stream, no event layer, because the JSON-shaped subset it accepts (see
// codec/yaml.h) is small enough to be read directly, and reading directly
// keeps every error pointing at the exact line and column.
//
// Internal to codec/: nothing outside the folder includes this header.
//
// Thread safety: ParseStream is reentrant; each call owns its state.
#ifndef ZARF_STATE_CODEC_INTERNAL_YAML_PARSER_H_
#define ZARF_STATE_CODEC_INTERNAL_YAML_PARSER_H_

#include <cstddef>
#include <string_view>
#include <vector>

#include "codec/json_value.h"
#include "codec/status.h"

namespace zs::yaml::internal {

// Parses every document of `text`; the contract is ParseDocuments' in
// codec/yaml.h. `text` is borrowed for the duration of the call only (the
// parser works on its own copy with line ends normalised to LF).
// `max_depth` is the deepest nesting accepted.
Result<std::vector<json::Value>> ParseStream(std::string_view text, std::size_t max_depth);

}  // namespace zs::yaml::internal

#endif  // ZARF_STATE_CODEC_INTERNAL_YAML_PARSER_H_
