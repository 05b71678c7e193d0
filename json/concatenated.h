// Splitting a stream of JSON values within what a reader can hold.
//
// Thread safety: pure functions; reentrant.
#ifndef ZARF_STATE_JSON_CONCATENATED_H_
#define ZARF_STATE_JSON_CONCATENATED_H_

#include <cstddef>
#include <string_view>
#include <vector>

#include "json/json_reader.h"

namespace zs::json {

// SplitConcatenated (json_reader.h), except that past `max_spans` values it
// stops and returns the first max_spans + 1, the rest of the text unchecked:
// a caller that cannot hold more values refuses the text without the list
// of all of them ever being built.
std::vector<Span> SplitConcatenatedAtMost(std::string_view text, std::size_t max_spans);

}  // namespace zs::json

#endif  // ZARF_STATE_JSON_CONCATENATED_H_
