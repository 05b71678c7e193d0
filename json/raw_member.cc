// ParseJsonTakingRaw (json_reader.h): a document parsed without the large
// member it only carries, whose text a taker reads instead.
#include "json/json_reader.h"

#include <simdjson.h>

#include <string>
#include <string_view>

#include "json/internal/reader_support.h"

namespace zs::json {

namespace {

using internal::EndOfValueText;
using internal::SkipBlanks;

// Where the value of the first member named `key` of the object `text`
// holds starts, when it is an object; npos otherwise. The members before it
// are skipped lexically (EndOfValueText); whatever is odd (an escaped key,
// not an object) gives npos, and the whole text goes to the parser.
std::size_t FindTopLevelObjectMember(std::string_view text, std::string_view key) {
  constexpr std::size_t kNone = std::string_view::npos;
  std::size_t at = SkipBlanks(text, 0);
  if (at >= text.size() || text[at] != '{') return kNone;
  at = SkipBlanks(text, at + 1);
  while (at < text.size() && text[at] == '"') {
    const std::size_t key_end = EndOfValueText(text, at);
    if (key_end == kNone) return kNone;
    const std::string_view name = text.substr(at + 1, key_end - at - 2);
    if (name.find('\\') != std::string_view::npos) return kNone;
    at = SkipBlanks(text, key_end);
    if (at >= text.size() || text[at] != ':') return kNone;
    at = SkipBlanks(text, at + 1);
    if (at >= text.size()) return kNone;
    if (name == key) return text[at] == '{' ? at : kNone;
    at = EndOfValueText(text, at);
    if (at == kNone) return kNone;
    at = SkipBlanks(text, at);
    if (at >= text.size() || text[at] != ',') return kNone;
    at = SkipBlanks(text, at + 1);
  }
  return kNone;
}

}  // namespace

Result<Value> ParseJsonTakingRaw(std::string_view text, std::string_view raw_key,
                                 const ParseOptions& options, const RawTaker& take_raw,
                                 bool* taken) {
  *taken = false;
  if (options.duplicates != DuplicateKeys::kKeep || text.size() > options.max_bytes) {
    return ParseJson(text, options);
  }
  const std::size_t begin = FindTopLevelObjectMember(text, raw_key);
  if (begin == std::string_view::npos) return ParseJson(text, options);
  const std::size_t used = take_raw(text.substr(begin));
  if (used == 0) return ParseJson(text, options);
  // The text with `{}` where the value was, padded for simdjson.
  std::string rest;
  rest.reserve(text.size() - used + 2 + simdjson::SIMDJSON_PADDING);
  rest.append(text.substr(0, begin)).append("{}").append(text.substr(begin + used));
  ParseOptions rest_options = options;
  rest_options.readable_padding = rest.capacity() - rest.size();
  Result<Value> tree = ParseJson(rest, rest_options);
  // An error is told as the whole text gives it (its byte offsets).
  if (!tree.ok()) return ParseJson(text, options);
  *taken = true;
  return tree;
}

}  // namespace zs::json
