// ParseJsonTakingRaw (json_reader.h): a document parsed without the large
// member it only carries, whose text a taker reads instead.
#include "json/json_reader.h"

#include <simdjson.h>

#include <string>
#include <string_view>

#include "base/cpu_dispatch.h"
#include "base/memory_budget.h"
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

namespace {

// A string without escapes or control bytes at text[*at], in UTF-8: its
// contents, and `*at` past it. False for any other string.
bool PlainString(std::string_view text, std::size_t* at, std::string_view* contents) {
  if (*at >= text.size() || text[*at] != '"') return false;
  const std::size_t end = zs::internal::DispatchFindStringSpecial(text, *at + 1);
  if (end >= text.size() || text[end] != '"') return false;
  *contents = text.substr(*at + 1, end - *at - 1);
  if (!simdjson::validate_utf8(contents->data(), contents->size())) return false;
  *at = end + 1;
  return true;
}

// A RawTaker for an object whose members are all plain strings: builds it
// into `*out`, taking from `budget` a value's cost for each string as the
// parser would (the object's own cost is its `{}` stand-in's). 0, with
// nothing taken, for any other value.
std::size_t TakeStringObject(std::string_view text, MemoryBudget* budget, Value* out) {
  Object members;
  std::size_t at = SkipBlanks(text, 1);
  bool closed = at < text.size() && text[at] == '}';
  while (!closed) {
    std::string_view key, contents;
    if (!PlainString(text, &at, &key)) return 0;
    at = SkipBlanks(text, at);
    if (at >= text.size() || text[at] != ':') return 0;
    at = SkipBlanks(text, at + 1);
    if (!PlainString(text, &at, &contents)) return 0;
    members.emplace_back(std::string(key), Value::String(std::string(contents)));
    at = SkipBlanks(text, at);
    if (at >= text.size()) return 0;
    closed = text[at] == '}';
    if (!closed && text[at] != ',') return 0;
    if (!closed) at = SkipBlanks(text, at + 1);
  }
  if (!budget->Take(kValueCost * members.size())) return 0;
  *out = Value::MakeObject(std::move(members));
  return at + 1;
}

}  // namespace

Result<Value> ParseJsonTakingStrings(std::string_view text, std::string_view strings_key,
                                     const ParseOptions& options) {
  // The strings sit at depth 3, the object being 1.
  if (options.max_depth < 3) return ParseJson(text, options);
  MemoryBudget own_budget(text.size());
  ParseOptions with_budget = options;
  if (with_budget.budget == nullptr) with_budget.budget = &own_budget;
  Value strings;
  bool taken = false;
  const std::size_t used = with_budget.budget->used();
  Result<Value> object = ParseJsonTakingRaw(
      text, strings_key, with_budget,
      [&](std::string_view raw) { return TakeStringObject(raw, with_budget.budget, &strings); },
      &taken);
  if (!taken) {
    // Parsed whole after all: the strings' cost, if taken, was taken twice.
    if (!strings.is_null()) {
      with_budget.budget->Give(with_budget.budget->used() - used);
      return ParseJson(text, with_budget);
    }
    return object;
  }
  for (Member& m : object->object()) {
    if (m.first == strings_key) {
      m.second = std::move(strings);  // the first such member is the one taken
      break;
    }
  }
  return object;
}

}  // namespace zs::json
