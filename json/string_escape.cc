#include "json/string_escape.h"

#include "base/cpu_dispatch.h"
#include "base/hex.h"
#include "json/utf8.h"

namespace zs::json {
namespace {

// Appends the escape of ASCII byte `c` (a control byte, '"', '\\', or one of
// '<' '>' '&').
void AppendEscapedByte(std::string* out, unsigned char c, bool short_b_f) {
  switch (c) {
    case '"': out->append("\\\""); return;
    case '\\': out->append("\\\\"); return;
    case '\n': out->append("\\n"); return;
    case '\r': out->append("\\r"); return;
    case '\t': out->append("\\t"); return;
    case '\b':
      if (short_b_f) {
        out->append("\\b");
        return;
      }
      break;
    case '\f':
      if (short_b_f) {
        out->append("\\f");
        return;
      }
      break;
    default:
      break;
  }
  const char esc[6] = {'\\', 'u', '0', '0', HexDigit(c >> 4), HexDigit(c)};
  out->append(esc, sizeof esc);
}

}  // namespace

std::size_t AppendJsonString(std::string* out, std::string_view s, const StringEscaping& how) {
  out->push_back('"');
  std::size_t start = 0;  // first byte not yet copied
  std::size_t i = 0;
  const std::size_t n = s.size();
  // Whether bytes >= 0x80 need decoding at all.
  const bool decode = how.invalid_utf8 != InvalidUtf8::kCopy || how.escape_line_separators;
  while (i < n) {
    // Stops at control bytes, '"', '\\', '<', '>', '&' and bytes >= 0x80.
    i = zs::internal::DispatchSkipPlainBytes(s, i);
    if (i >= n) break;
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      if (!how.escape_html && (c == '<' || c == '>' || c == '&')) {
        ++i;
        continue;
      }
      out->append(s.data() + start, i - start);
      AppendEscapedByte(out, c, how.short_backspace_formfeed);
      start = ++i;
      continue;
    }
    if (!decode) {
      ++i;
      continue;
    }
    char32_t cp = 0;
    const std::size_t len = DecodeUtf8(s, i, &cp);
    if (len == 0) {
      if (how.invalid_utf8 == InvalidUtf8::kFail) return i;
      if (how.invalid_utf8 == InvalidUtf8::kReplace) {
        out->append(s.data() + start, i - start);
        out->append("\\ufffd");
        start = i + 1;
      }
      ++i;
      continue;
    }
    if (how.escape_line_separators && (cp == 0x2028 || cp == 0x2029)) {
      out->append(s.data() + start, i - start);
      out->append(cp == 0x2028 ? "\\u2028" : "\\u2029");
      start = i + len;
    }
    i += len;
  }
  out->append(s.data() + start, n - start);
  out->push_back('"');
  return kEscapedAll;
}

}  // namespace zs::json
