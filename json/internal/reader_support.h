// What json_reader.cc needs besides building trees: the simdjson parsers it
// parses with, the scans that say where a refused text went wrong, and the
// lexical scan that finds where a value ends without parsing it.
//
// Thread safety: the parsers are per thread; the scans are pure functions.
#ifndef ZARF_STATE_JSON_INTERNAL_READER_SUPPORT_H_
#define ZARF_STATE_JSON_INTERNAL_READER_SUPPORT_H_

#include <simdjson.h>

#include <cstddef>
#include <string_view>

namespace zs::json::internal {

// The parser of the next level of this thread's parses, for the lifetime of
// one parse. Parses run inside one another's callbacks (a List streamed,
// each item's payload parsed as it comes) and a parser serves one document
// at a time, so each level has its own. Each is kept: its buffers grow to
// the largest input seen at its level and are reused, so a batch of many
// payloads allocates (and page-faults) them once instead of once per
// payload.
class ParserLease {
 public:
  ParserLease();
  ~ParserLease();
  ParserLease(const ParserLease&) = delete;
  ParserLease& operator=(const ParserLease&) = delete;

  simdjson::ondemand::parser& parser();

 private:
  std::size_t level_;
};

// Gives back the buffers of the parser of the level a parse just finished
// at (no lease of it held), for an input unusually large for that level.
void ReleaseIdleParser();

// Byte offset of the first invalid UTF-8 sequence; text.size() if none.
// Only run after simdjson has already said the input is not UTF-8.
std::size_t FirstInvalidUtf8(std::string_view text);

// How many `{` and `[` are still open at the end of `text` (strings and
// their escapes skipped). Only run after the parse has failed, to tell a
// truncated document from one with extra content.
std::size_t UnclosedBrackets(std::string_view text);

// The first index at or after `i` that is not JSON whitespace, or
// text.size(). (json_text_scan.cc)
std::size_t SkipBlanks(std::string_view text, std::size_t i);

// The index just past the string whose opening quote is text[i]: its
// closing quote is the first not escaped by an odd run of backslashes.
// npos when the text ends inside it. (json_text_scan.cc)
std::size_t EndOfStringText(std::string_view text, std::size_t i);

// The index just past the value whose text starts at text[i] (its first
// byte, not a blank), told lexically: a string runs to its first quote not
// escaped, brackets nest (strings and their escapes skipped), a number or
// literal runs to the next `,`, `}`, `]` or blank. Nothing is validated:
// the text is meant for a parser that checks it. npos when the text ends
// inside the value. (json_text_scan.cc)
std::size_t EndOfValueText(std::string_view text, std::size_t i);

}  // namespace zs::json::internal

#endif  // ZARF_STATE_JSON_INTERNAL_READER_SUPPORT_H_
