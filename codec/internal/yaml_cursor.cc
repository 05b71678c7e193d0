#include "codec/internal/yaml_cursor.h"

#include <algorithm>
#include <cassert>
#include <string>

#include "codec/internal/yaml_scalar.h"

namespace zs::yaml::internal {

using json::Value;

namespace {

// YAML's one-character escapes; \x, \u, \U and an escaped line break are
// handled separately.
struct SimpleEscape {
  char name;
  char32_t value;
};
constexpr SimpleEscape kSimpleEscapes[] = {
    {'0', 0x00}, {'a', 0x07},   {'b', 0x08},   {'t', 0x09},  {'\t', 0x09},
    {'n', 0x0A}, {'v', 0x0B},   {'f', 0x0C},   {'r', 0x0D},  {'e', 0x1B},
    {' ', 0x20}, {'"', 0x22},   {'/', 0x2F},   {'\\', 0x5C}, {'N', 0x85},
    {'_', 0xA0}, {'L', 0x2028}, {'P', 0x2029},
};

}  // namespace

// Errors are rare, so the line number is found by counting line breaks
// rather than tracked on every step of the parser.
Status Cursor::Error(Status::Code code, std::size_t at,
                     std::string_view msg) const {
  at = std::min(at, src_.size());
  const std::size_t line =
      1 + static_cast<std::size_t>(std::count(
              src_.begin(), src_.begin() + static_cast<long>(at), '\n'));
  std::size_t column = 1;
  for (std::size_t i = LineStart(at); i < at; ++i) {
    if ((static_cast<unsigned char>(src_[i]) & 0xC0) != 0x80) ++column;
  }
  std::string text = "yaml: line " + std::to_string(line) + ", column " +
                     std::to_string(column) + ": ";
  text += msg;
  switch (code) {
    case Status::Code::kNotSupported:
      return Status::NotSupported(text);
    case Status::Code::kInvalidArgument:
      return Status::InvalidArgument(text);
    default:
      return Status::Corruption(text);
  }
}

Status Cursor::CheckCharacters() const {
  for (std::size_t i = 0; i < src_.size();) {
    char32_t cp = 0;
    const std::size_t len = DecodeUtf8(src_, i, &cp);
    if (len == 0) return Corrupt(i, "invalid UTF-8");
    if (!IsPrintable(cp)) {
      return Corrupt(i,
                     "control characters are not allowed (escape them in a "
                     "double-quoted string)");
    }
    i += len;
  }
  return Status::OK();
}

Status Cursor::ExpectLineEnd(std::string_view after) {
  SkipBlanks();
  if (Peek() == '#') {
    if (pos_ > 0 && !IsBlankOrEnd(src_[pos_ - 1])) {
      return Corrupt(
          pos_, "a comment must be separated from other tokens by whitespace");
    }
    while (!AtEnd() && Peek() != '\n') ++pos_;
  }
  if (!AtEnd() && Peek() != '\n') {
    return Corrupt(pos_, "unexpected characters after " + std::string(after));
  }
  return Status::OK();
}

// Rejects what can never start a node of the supported subset, naming the
// feature when it is valid YAML we do not support.
Status Cursor::CheckNodeStart(bool flow) const {
  const char c = Peek();
  const char next = Peek(1);
  switch (c) {
    case '&':
      return Unsupported(pos_, "anchors (&) are not supported");
    case '*':
      return Unsupported(pos_, "aliases (*) are not supported");
    case '!':
      return Unsupported(pos_, "tags (!) are not supported");
    case '?':
      if (IsBlankOrEnd(next) || (flow && IsFlowIndicator(next))) {
        return Unsupported(pos_, "complex mapping keys (?) are not supported");
      }
      break;
    case '%':
    case '@':
    case '`':
    case '#':
      return Corrupt(pos_, std::string("found character '") + c +
                               "' that cannot start any token");
    case ',':
    case ']':
    case '}':
      return Corrupt(pos_, std::string("found unexpected '") + c + "'");
    case '-':
      if (flow && IsBlankOrEnd(next)) {
        return Corrupt(
            pos_,
            "block sequence entries are not allowed in a flow collection");
      }
      break;
    case '|':
    case '>':
      if (flow) {
        return Corrupt(pos_,
                       "block scalars are not allowed in a flow collection");
      }
      break;
    default:
      break;
  }
  return Status::OK();
}

// YAML's ns-plain-first: no indicator, except `-`, `?` and `:` directly
// followed by a character that could continue the scalar.
bool Cursor::CanStartPlain(bool flow) const {
  const char c = Peek();
  const char next = Peek(1);
  if (c == '-' || c == '?' || c == ':') {
    return !IsBlankOrEnd(next) && !(flow && IsFlowIndicator(next));
  }
  static constexpr std::string_view kIndicators = ",[]{}#&*!|>'\"%@`";
  return !IsBlankOrEnd(c) && kIndicators.find(c) == std::string_view::npos;
}

// Reads one line of a plain scalar from pos_, stopping at the line end, at
// `: ` (a mapping value indicator), at ` #` (a comment) and, in flow context,
// at `,[]{}`. Returns the text without trailing white space.
std::string_view Cursor::ScanPlainLine(bool flow) {
  const std::size_t begin = pos_;
  while (!AtEnd()) {
    const char c = src_[pos_];
    if (c == '\n') break;
    if (c == ':' &&
        (IsBlankOrEnd(Peek(1)) || (flow && IsFlowIndicator(Peek(1))))) {
      break;
    }
    if (flow && IsFlowIndicator(c)) break;
    if (IsBlank(c) && Peek(1) == '#') break;
    ++pos_;
  }
  std::size_t end = pos_;
  while (end > begin && IsBlank(src_[end - 1])) --end;
  return std::string_view(src_.data() + begin, end - begin);
}

Result<Value> Cursor::Resolve(const std::string& text,
                              std::size_t start) const {
  PlainResolution r = ResolvePlain(text);
  switch (r.kind) {
    case PlainKind::kNull:
      return Value::Null();
    case PlainKind::kBool:
      return Value::Bool(r.boolean);
    case PlainKind::kNumber:
      assert(json::IsValidNumber(r.number));
      return Value::RawNumber(std::move(r.number));
    case PlainKind::kNotFinite:
      return Error(Status::Code::kInvalidArgument, start,
                   "'" + text +
                       "' (infinity or NaN) cannot be represented in JSON; "
                       "quote it to keep it as a string");
    case PlainKind::kAmbiguousInteger:
      return Error(Status::Code::kInvalidArgument, start,
                   "integer '" + text +
                       "' has a leading zero, which YAML 1.1 reads as octal "
                       "and YAML 1.2 as decimal; quote it or write 0o...");
    case PlainKind::kString:
      break;
  }
  return Value::String(text);
}

// Parses a single- or double-quoted scalar starting at pos_. Line breaks
// inside fold like plain scalars; white space around them is dropped.
Result<std::string> Cursor::ParseQuoted(bool* multi_line) {
  const std::size_t start = pos_;
  const char quote = src_[pos_++];
  std::string out;
  // White space before a line break is dropped by folding, but white space
  // before other text is content; hold it back until we know which.
  std::string blanks;
  while (true) {
    if (AtEnd()) {
      return Corrupt(
          start,
          "found unexpected end of stream while scanning a quoted scalar");
    }
    const char c = src_[pos_];
    if (c == quote && quote == '\'' && Peek(1) == '\'') {
      out += blanks;
      blanks.clear();
      out += '\'';
      pos_ += 2;
      continue;
    }
    if (c == quote) {
      out += blanks;
      ++pos_;
      return out;
    }
    if (IsBlank(c)) {
      blanks += c;
      ++pos_;
      continue;
    }
    if (c == '\n') {
      blanks.clear();
      *multi_line = true;
      ZS_ASSIGN_OR_RETURN(const int empty, FoldLineBreaks(start));
      out += empty == 0 ? std::string(" ") : std::string(empty, '\n');
      continue;
    }
    out += blanks;
    blanks.clear();
    if (c == '\\' && quote == '"') {
      ZS_RETURN_IF_ERROR(ParseEscape(&out, multi_line, start));
      continue;
    }
    out += c;
    ++pos_;
  }
}

// pos_ at a line break inside a quoted scalar: consumes it, the empty lines
// after it and the next line's leading white space; returns how many empty
// lines there were.
Result<int> Cursor::FoldLineBreaks(std::size_t start) {
  int empty = 0;
  ++pos_;
  while (true) {
    if (IsDocumentMarker(pos_)) {
      return Corrupt(pos_, "found a document marker inside a quoted scalar");
    }
    SkipBlanks();
    if (AtEnd()) {
      return Corrupt(
          start,
          "found unexpected end of stream while scanning a quoted scalar");
    }
    if (Peek() != '\n') return empty;
    ++empty;
    ++pos_;
  }
}

Status Cursor::ParseEscape(std::string* out, bool* multi_line,
                           std::size_t start) {
  const std::size_t at = pos_;
  ++pos_;  // the backslash
  const char e = Peek();
  for (const SimpleEscape& simple : kSimpleEscapes) {
    if (simple.name == e) {
      AppendUtf8(simple.value, out);
      ++pos_;
      return Status::OK();
    }
  }
  if (e == '\n') {  // an escaped line break joins the lines without a space
    *multi_line = true;
    ZS_ASSIGN_OR_RETURN(const int empty, FoldLineBreaks(start));
    out->append(static_cast<std::size_t>(empty), '\n');
    return Status::OK();
  }
  const int hex_digits = e == 'x' ? 2 : e == 'u' ? 4 : e == 'U' ? 8 : 0;
  if (hex_digits == 0) {
    return Corrupt(at,
                   "found unknown escape character in a double-quoted scalar");
  }
  ++pos_;
  char32_t cp = 0;
  for (int i = 0; i < hex_digits; ++i, ++pos_) {
    const char h = Peek();
    int v = -1;
    if (h >= '0' && h <= '9') v = h - '0';
    if (h >= 'a' && h <= 'f') v = h - 'a' + 10;
    if (h >= 'A' && h <= 'F') v = h - 'A' + 10;
    if (v < 0) return Corrupt(at, "invalid hexadecimal escape");
    cp = cp * 16 + static_cast<char32_t>(v);
  }
  if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
    return Corrupt(at, "escape is not a Unicode scalar value");
  }
  AppendUtf8(cp, out);
  return Status::OK();
}

}  // namespace zs::yaml::internal
