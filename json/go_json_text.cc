// AppendCompactFromText (go_json.h): JSON text to Go's compact form in one
// pass, for the large parts of a payload that are only carried through
// (a package's `data`). Every choice mirrors what ParseJson + AppendJson do;
// anything this pass is not sure of returns 0 and the caller takes that
// (reference) path.
#include "json/go_json.h"

#include <simdjson.h>

#include "base/cpu_dispatch.h"
#include "base/hex.h"
#include "json/internal/go_string_scan.h"
#include "json/utf8.h"

namespace zs::json {
namespace {

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

class CompactWriter {
 public:
  CompactWriter(std::string* out, std::string_view text, std::size_t max_depth)
      : out_(out), s_(text), max_depth_(max_depth) {}

  std::size_t pos() const { return pos_; }

  // Copies what is still pending; call once the value is written.
  void Finish() { Flush(pos_); }

  bool Value(std::size_t depth) {
    if (depth > max_depth_ || pos_ >= s_.size()) return false;
    switch (s_[pos_]) {
      case '{': return Object(depth);
      case '[': return Array(depth);
      case '"': return String();
      case 't': return Literal("true");
      case 'f': return Literal("false");
      case 'n': return Literal("null");
      default: return Number();
    }
  }

 private:
  // The text Go writes is mostly the input itself: everything but
  // whitespace and strings that need rewriting. That text is not copied
  // token by token but left pending from run_ to pos_, and copied in one
  // piece when something that differs comes (or at the end).
  void Flush(std::size_t upto) {
    out_->append(s_.data() + run_, upto - run_);
    run_ = upto;
  }

  void SkipSpace() {
    if (pos_ >= s_.size() || !IsSpace(s_[pos_])) return;
    Flush(pos_);
    while (pos_ < s_.size() && IsSpace(s_[pos_])) ++pos_;
    run_ = pos_;
  }
  bool At(char c) const { return pos_ < s_.size() && s_[pos_] == c; }

  // Consumes the opening bracket. True when the container is empty, with
  // its `close` consumed too.
  bool OpenIsEmpty(char close) {
    ++pos_;
    SkipSpace();
    if (!At(close)) return false;
    ++pos_;
    return true;
  }

  // After a member or element: 1 when ',' follows (consumed, with the space
  // after it), 0 when `close` ends the container (consumed), -1 for
  // anything else.
  int NextOrClose(char close) {
    SkipSpace();
    if (At(',')) {
      ++pos_;
      SkipSpace();
      return 1;
    }
    if (!At(close)) return -1;
    ++pos_;
    return 0;
  }

  bool Object(std::size_t depth) {
    if (OpenIsEmpty('}')) return true;
    while (true) {
      if (!At('"') || !String()) return false;
      SkipSpace();
      if (!At(':')) return false;
      ++pos_;
      SkipSpace();
      if (!Value(depth + 1)) return false;
      if (const int next = NextOrClose('}'); next <= 0) return next == 0;
    }
  }

  bool Array(std::size_t depth) {
    if (OpenIsEmpty(']')) return true;
    while (true) {
      if (!Value(depth + 1)) return false;
      if (const int next = NextOrClose(']'); next <= 0) return next == 0;
    }
  }

  // The first '"', '\\' or control character at or after `i`, or size().
  std::size_t SpecialInString(std::size_t i) const {
    return zs::internal::DispatchFindStringSpecial(s_, i);
  }

  // Whether the string bytes [from, to), which SpecialInString stopped at
  // `to`, are valid UTF-8 and `to` is a quote or backslash inside the text
  // (not its end or a raw control character).
  bool Utf8Run(std::size_t from, std::size_t to) const {
    if (to >= s_.size() || static_cast<unsigned char>(s_[to]) < 0x20) return false;
    return simdjson::validate_utf8(s_.data() + from, to - from);
  }

  bool String() {
    const std::size_t start = ++pos_;
    // Most strings are plain ASCII that Go writes as it is: they stay
    // pending, quotes included.
    if (const std::size_t end = internal::SkipPlainBytes(s_, start); end < s_.size() && s_[end] == '"') {
      pos_ = end + 1;
      return true;
    }
    std::size_t i = SpecialInString(start);
    if (!Utf8Run(start, i)) return false;
    Flush(start - 1);  // up to the opening quote; the string is rewritten
    if (s_[i] == '"') {
      // No escape: the text is the value.
      AppendGoString(out_, s_.substr(start, i - start));
      pos_ = run_ = i + 1;
      return true;
    }
    scratch_.assign(s_.data() + start, i - start);
    while (true) {
      if (i >= s_.size()) return false;
      const char c = s_[i];
      if (c == '"') break;
      if (c != '\\') {
        const std::size_t next = SpecialInString(i);
        if (!Utf8Run(i, next)) return false;
        scratch_.append(s_.data() + i, next - i);
        i = next;
        continue;
      }
      if (i + 1 >= s_.size()) return false;
      switch (s_[i + 1]) {
        case '"': scratch_.push_back('"'); break;
        case '\\': scratch_.push_back('\\'); break;
        case '/': scratch_.push_back('/'); break;
        case 'b': scratch_.push_back('\b'); break;
        case 'f': scratch_.push_back('\f'); break;
        case 'n': scratch_.push_back('\n'); break;
        case 'r': scratch_.push_back('\r'); break;
        case 't': scratch_.push_back('\t'); break;
        case 'u': {
          if (i + 6 > s_.size()) return false;
          std::uint32_t cp = 0;
          for (std::size_t k = i + 2; k < i + 6; ++k) {
            const int d = HexValue(s_[k]);
            if (d < 0) return false;
            cp = (cp << 4) | static_cast<std::uint32_t>(d);
          }
          // Surrogates (pairs and lone ones) are the tree path's business.
          if (cp >= 0xD800 && cp <= 0xDFFF) return false;
          AppendUtf8(cp, &scratch_);
          i += 6;
          continue;
        }
        default: return false;
      }
      i += 2;
    }
    AppendGoString(out_, scratch_);
    pos_ = run_ = i + 1;
    return true;
  }

  // RFC 8259: -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?
  // Go writes a valid number as it reads it: it stays pending.
  bool Number() {
    auto digits = [&] {
      const std::size_t from = pos_;
      while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9') ++pos_;
      return pos_ - from;
    };
    if (At('-')) ++pos_;
    if (At('0')) {
      ++pos_;
    } else if (digits() == 0) {
      return false;
    }
    if (At('.')) {
      ++pos_;
      if (digits() == 0) return false;
    }
    if (At('e') || At('E')) {
      ++pos_;
      if (At('+') || At('-')) ++pos_;
      if (digits() == 0) return false;
    }
    return true;
  }

  bool Literal(std::string_view word) {
    if (s_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }

  std::string* out_;
  std::string_view s_;
  std::size_t max_depth_;
  std::size_t pos_ = 0;
  std::size_t run_ = 0;  // the first input byte not yet copied or skipped
  std::string scratch_;
};

}  // namespace

std::size_t AppendCompactFromText(std::string* out, std::string_view text,
                                  std::size_t max_depth) {
  CompactWriter writer(out, text, max_depth);
  if (!writer.Value(1)) return 0;
  writer.Finish();
  return writer.pos();
}

}  // namespace zs::json
