// What json_reader.h tells of a JSON text without parsing it: whether it
// looks like JSON, and where concatenated values split (json/concatenated.h).
#include "json/json_reader.h"

#include <cstring>
#include <string_view>
#include <vector>

#include <simdjson.h>

#include "base/cpu_dispatch.h"
#include "json/concatenated.h"
#include "json/internal/reader_support.h"

namespace zs::json {

bool LooksLikeJson(std::string_view text) {
  constexpr std::string_view kBlanks = " \t\r\n";
  const std::size_t first = text.find_first_not_of(kBlanks);
  if (first == std::string_view::npos) return false;
  if (text[first] == '[') return true;
  if (text[first] != '{') return false;
  const std::size_t next = text.find_first_not_of(kBlanks, first + 1);
  return next != std::string_view::npos && (text[next] == '"' || text[next] == '}');
}

std::vector<Span> SplitConcatenated(std::string_view text) {
  return SplitConcatenatedAtMost(text, static_cast<std::size_t>(-1));
}

namespace internal {

std::size_t SkipBlanks(std::string_view text, std::size_t i) {
  while (i < text.size() &&
         (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r')) {
    ++i;
  }
  return i;
}

std::size_t EndOfStringText(std::string_view text, std::size_t i) {
  // The closing quote is the first one not escaped by an odd run of
  // backslashes; memchr keeps long strings (payloads) fast.
  std::size_t at = i + 1;
  while (true) {
    const void* q = std::memchr(text.data() + at, '"', text.size() - at);
    if (q == nullptr) return std::string_view::npos;
    at = static_cast<const char*>(q) - text.data();
    std::size_t slashes = 0;
    while (text[at - 1 - slashes] == '\\') ++slashes;
    if (slashes % 2 == 0) return at + 1;
    ++at;
  }
}

std::size_t EndOfValueText(std::string_view text, std::size_t i) {
  const std::size_t size = text.size();
  const char first = text[i];
  if (first != '"' && first != '{' && first != '[') {
    // A number or a literal: up to what may follow a value.
    while (i < size && std::strchr(",}] \t\r\n", text[i]) == nullptr) ++i;
    return i;
  }
  std::size_t depth = 0;
  do {
    const char c = text[i];
    if (c == '"') {
      i = EndOfStringText(text, i);
      if (i == std::string_view::npos) return i;
      continue;
    } else if (c == '{' || c == '[') {
      ++depth;
    } else if (c == '}' || c == ']') {
      --depth;
    }
    ++i;
  } while (depth > 0 && i < size);
  return depth > 0 ? std::string_view::npos : i;
}

}  // namespace internal

ValueScan ScanValueText(std::string_view text, std::size_t at, std::size_t* end) {
  const std::size_t size = text.size();
  if (at >= size) return ValueScan::kCutShort;
  std::size_t i = at;
  const char first = text[i];
  if (first != '"' && first != '{' && first != '[') {
    // A number or a literal: up to what may follow a value, which must be
    // there to tell that it ended.
    while (i < size && std::strchr(",}] \t\r\n", text[i]) == nullptr) ++i;
    if (i == size) return ValueScan::kCutShort;
    if (i == at) return ValueScan::kRefused;
  } else {
    std::size_t depth = 0;
    do {
      const char c = text[i];
      if (c == '"') {
        // The string's end, refusing what no string may hold unescaped.
        std::size_t j = i + 1;
        while (true) {
          j = zs::internal::DispatchFindStringSpecial(text, j);
          if (j >= size) return ValueScan::kCutShort;
          if (text[j] == '"') break;
          if (text[j] != '\\') return ValueScan::kRefused;
          if (j + 1 >= size) return ValueScan::kCutShort;
          if (static_cast<unsigned char>(text[j + 1]) < 0x20) return ValueScan::kRefused;
          j += 2;
        }
        i = j + 1;
        continue;
      }
      if (c == '{' || c == '[') {
        ++depth;
      } else if (c == '}' || c == ']') {
        --depth;
      }
      ++i;
    } while (depth > 0 && i < size);
    if (depth > 0) return ValueScan::kCutShort;
  }
  if (!simdjson::validate_utf8(text.data() + at, i - at)) return ValueScan::kRefused;
  *end = i;
  return ValueScan::kEnded;
}

std::vector<Span> SplitConcatenatedAtMost(std::string_view text, std::size_t max_spans) {
  std::vector<Span> spans;
  std::size_t i = internal::SkipBlanks(text, 0);
  while (i < text.size()) {
    if (text[i] != '{' && text[i] != '[') return {};
    const std::size_t end = internal::EndOfValueText(text, i);
    if (end == std::string_view::npos) return {};
    spans.push_back({i, end});
    if (spans.size() > max_spans) return spans;  // the caller refuses it
    i = internal::SkipBlanks(text, end);
  }
  if (spans.size() < 2) return {};
  return spans;
}

}  // namespace zs::json
