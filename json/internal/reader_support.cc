#include "json/internal/reader_support.h"

#include <deque>

#include "json/utf8.h"

namespace zs::json::internal {
namespace {

namespace od = simdjson::ondemand;

// This thread's parsers by level. A deque: a deeper level added never
// moves the ones in use.
std::deque<od::parser>& Parsers() {
  thread_local std::deque<od::parser> parsers;
  return parsers;
}

// How many leases this thread holds: the level the next one gets.
std::size_t& ParseDepth() {
  thread_local std::size_t depth = 0;
  return depth;
}

}  // namespace

ParserLease::ParserLease() : level_(ParseDepth()++) {
  if (Parsers().size() <= level_) Parsers().emplace_back();
}

ParserLease::~ParserLease() { --ParseDepth(); }

od::parser& ParserLease::parser() { return Parsers()[level_]; }

void ReleaseIdleParser() {
  if (Parsers().size() > ParseDepth()) Parsers()[ParseDepth()] = od::parser();
}

std::size_t FirstInvalidUtf8(std::string_view text) {
  char32_t cp = 0;
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t len = DecodeUtf8(text, i, &cp);
    if (len == 0) return i;
    i += len;
  }
  return text.size();
}

std::size_t UnclosedBrackets(std::string_view text) {
  std::size_t open = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '"') {
      i = EndOfStringText(text, i);
      if (i == std::string_view::npos) break;  // ends inside a string
      --i;  // at its closing quote
    } else if (c == '{' || c == '[') {
      ++open;
    } else if ((c == '}' || c == ']') && open > 0) {
      --open;
    }
  }
  return open;
}

}  // namespace zs::json::internal
