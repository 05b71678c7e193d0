// The lexical layer of the YAML parser: a read position in the stream and the
// rules shared by block and flow context, namely white space, comments and
// line ends, document markers, plain and quoted scalars, and errors that name
// a line and column.
//
// Internal to codec/: nothing outside the folder includes this header.
//
// Thread safety: a Cursor belongs to one parse; it is not shared.
#ifndef ZARF_STATE_CODEC_INTERNAL_YAML_CURSOR_H_
#define ZARF_STATE_CODEC_INTERNAL_YAML_CURSOR_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>

#include "codec/json_value.h"
#include "codec/status.h"

namespace zs::yaml::internal {

// Space or tab: YAML's white space inside a line.
inline bool IsBlank(char c) { return c == ' ' || c == '\t'; }

// '\0' stands for the end of input: Cursor::Peek returns it there, and the
// text cannot contain NUL because CheckCharacters rejects it.
inline bool IsBlankOrEnd(char c) {
  return IsBlank(c) || c == '\n' || c == '\0';
}

inline bool IsFlowIndicator(char c) {
  return c == ',' || c == '[' || c == ']' || c == '{' || c == '}';
}

// The parser derives from Cursor so that the grammar code reads `Peek()` and
// `pos_` directly; everything here is protected for that one subclass.
class Cursor {
 public:
  // `src` is the whole stream with line ends already normalised to LF.
  explicit Cursor(std::string src) : src_(std::move(src)) {}
  Cursor(const Cursor&) = delete;
  Cursor& operator=(const Cursor&) = delete;

 protected:
  // The character `off` places after pos_, or '\0' past the end.
  char Peek(std::size_t off = 0) const {
    return pos_ + off < src_.size() ? src_[pos_ + off] : '\0';
  }
  bool AtEnd() const { return pos_ >= src_.size(); }
  // Offset of the first character of the line holding offset `p`.
  std::size_t LineStart(std::size_t p) const {
    const std::size_t nl = src_.rfind('\n', p == 0 ? 0 : p - 1);
    return p == 0 || nl == std::string::npos ? 0 : nl + 1;
  }
  // Whether only spaces precede offset `p` on its line.
  bool OnlySpacesBefore(std::size_t p) const {
    for (std::size_t i = LineStart(p); i < p; ++i) {
      if (src_[i] != ' ') return false;
    }
    return true;
  }
  // `---` or `...` at the start of a line, followed by white space or the end.
  bool IsDocumentMarker(std::size_t p) const {
    if (p + 3 > src_.size() || (p != 0 && src_[p - 1] != '\n')) return false;
    const std::string_view m(src_.data() + p, 3);
    const char after = p + 3 < src_.size() ? src_[p + 3] : '\0';
    return (m == "---" || m == "...") && IsBlankOrEnd(after);
  }
  void SkipBlanks() {
    while (IsBlank(Peek())) ++pos_;
  }

  // A Status of `code` whose message is "yaml: line L, column C: <msg>" for
  // offset `at` (1-based; the column counts characters, not bytes).
  Status Error(Status::Code code, std::size_t at, std::string_view msg) const;
  Status Corrupt(std::size_t at, std::string_view msg) const {
    return Error(Status::Code::kCorruption, at, msg);
  }
  Status Unsupported(std::size_t at, std::string_view msg) const {
    return Error(Status::Code::kNotSupported, at, msg);
  }

  // Corruption unless the whole text is valid UTF-8 made of characters YAML
  // allows unescaped.
  Status CheckCharacters() const;

  // Skips white space and a comment; then requires the end of the line.
  // Corruption names what the stray characters follow (`after`).
  Status ExpectLineEnd(std::string_view after);

  // Rejects characters that cannot start a node of the supported subset:
  // NotSupported for anchors, aliases, tags and `? ` keys; Corruption for
  // reserved and misplaced indicators. `flow`: inside [] or {}.
  Status CheckNodeStart(bool flow) const;

  // YAML's ns-plain-first: whether a plain scalar may start at pos_.
  bool CanStartPlain(bool flow) const;

  // Reads one line of a plain scalar, stopping at the line end, at `: ` (a
  // mapping value indicator), at ` #` (a comment) and, in flow context, at
  // `,[]{}`. Returns the text without trailing white space; pos_ is left at
  // the stop.
  std::string_view ScanPlainLine(bool flow);

  // Resolves the text of a plain scalar that started at `start` (see
  // codec/yaml.h); InvalidArgument for `.inf`, `.nan` and `0755`.
  Result<json::Value> Resolve(const std::string& text, std::size_t start) const;

  // Parses the single- or double-quoted scalar at pos_ and returns its value;
  // sets *multi_line if it spans lines. Corruption for a bad escape, a
  // document marker inside, or a missing closing quote.
  Result<std::string> ParseQuoted(bool* multi_line);

  std::string src_;
  std::size_t pos_ = 0;

 private:
  Status ParseEscape(std::string* out, bool* multi_line, std::size_t start);
  Result<int> FoldLineBreaks(std::size_t start);
};

}  // namespace zs::yaml::internal

#endif  // ZARF_STATE_CODEC_INTERNAL_YAML_CURSOR_H_
