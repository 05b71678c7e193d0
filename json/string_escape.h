// The one JSON string escaper. Go's encoding/json, RFC 8785 (canonical JSON)
// and plain RFC 8259 output differ only in a few choices, which are the
// fields of StringEscaping; every writer of a JSON string literal in the
// project goes through AppendJsonString with one of the presets below.
//
// Always escaped: '"' and '\\' (as \" and \\), \n \r \t by their short
// forms, every other byte below 0x20 as \u00xx in lower-case hex. DEL and
// everything else not named by an option is written as it is.
//
// Thread safety: pure and reentrant.
#ifndef ZARF_STATE_JSON_STRING_ESCAPE_H_
#define ZARF_STATE_JSON_STRING_ESCAPE_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace zs::json {

// What a byte sequence that is not valid UTF-8 (json/utf8.h) becomes.
enum class InvalidUtf8 {
  kCopy,     // written as it is (nothing is decoded)
  kReplace,  // each invalid byte becomes \ufffd, as Go writes it
  kFail,     // AppendJsonString stops and reports the offset
};

struct StringEscaping {
  // '<', '>' and '&' as \u003c, \u003e and \u0026 (Go's HTML-safe default).
  bool escape_html = false;
  // U+2028 and U+2029 as \u2028 and \u2029 (Go, for JavaScript).
  bool escape_line_separators = false;
  // \b and \f by their short forms rather than \u0008 and \u000c (RFC 8785;
  // Go 1.19 has no short form for them).
  bool short_backspace_formfeed = false;
  InvalidUtf8 invalid_utf8 = InvalidUtf8::kCopy;
};

// Go's json.Marshal (encoding/json with HTML escaping on).
inline constexpr StringEscaping kGoEscaping = {.escape_html = true,
                                               .escape_line_separators = true,
                                               .short_backspace_formfeed = false,
                                               .invalid_utf8 = InvalidUtf8::kReplace};
// RFC 8785: minimal escapes with \b and \f, and invalid UTF-8 refused.
inline constexpr StringEscaping kCanonicalEscaping = {.escape_html = false,
                                                      .escape_line_separators = false,
                                                      .short_backspace_formfeed = true,
                                                      .invalid_utf8 = InvalidUtf8::kFail};
// Only the escapes JSON requires; bytes >= 0x80 are copied unchecked.
inline constexpr StringEscaping kMinimalEscaping = {};

// Returned by AppendJsonString when it wrote the whole literal.
inline constexpr std::size_t kEscapedAll = static_cast<std::size_t>(-1);

// Appends `s` as a JSON string literal, quotes included, escaped as `how`
// says. Returns kEscapedAll, or (only with InvalidUtf8::kFail) the byte
// offset in `s` of the first invalid UTF-8 sequence; `*out` then holds a
// partial literal that the caller should discard. Plain runs are found 16,
// 32 or 64 bytes a step (base/cpu_dispatch.h).
std::size_t AppendJsonString(std::string* out, std::string_view s, const StringEscaping& how);

}  // namespace zs::json

#endif  // ZARF_STATE_JSON_STRING_ESCAPE_H_
