// Text fit for a terminal: the one escaping every table printer uses, so
// that a package name, component name or value taken from a Secret cannot
// move the cursor, retitle the window, rewrite earlier lines or write to
// the clipboard (ESC, CSI and OSC sequences, carriage returns, backspaces).
//
// Escaped: the C0 controls U+0000..U+001F, DEL U+007F and the C1 controls
// U+0080..U+009F (encoded as C2 80..C2 9F), each as \xHH (\x1b) or \uHHHH
// (\u009b). Everything else, invalid UTF-8 included, is kept byte for byte.
// Only table output goes through it; JSON and YAML output escape control
// characters by their own rules.
//
// Thread safety: pure functions; reentrant.
#ifndef ZARF_STATE_BASE_TERMINAL_TEXT_H_
#define ZARF_STATE_BASE_TERMINAL_TEXT_H_

#include <ostream>
#include <sstream>
#include <string>
#include <string_view>

#include "base/hex.h"

namespace zs {

// How TerminalText treats line feeds and tabs.
enum class Layout {
  // A value inside a row: every control character is escaped, \n and \t too.
  kValue,
  // A whole table: \n and \t are kept (they lay the table out); every other
  // control character is escaped.
  kTable,
};

// `text` with control characters escaped as described above.
inline std::string TerminalText(std::string_view text, Layout layout = Layout::kValue) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (layout == Layout::kTable && (c == '\n' || c == '\t')) {
      out += static_cast<char>(c);
    } else if (c < 0x20 || c == 0x7f) {
      out += "\\x";
      out += HexDigit(c >> 4);
      out += HexDigit(c);
    } else if (c == 0xc2 && i + 1 < text.size() &&
               static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
               static_cast<unsigned char>(text[i + 1]) <= 0x9f) {
      const auto next = static_cast<unsigned char>(text[++i]);
      out += "\\u00";
      out += HexDigit(next >> 4);
      out += HexDigit(next);
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

// The stream a command prints its table to: when `table`, what is written
// to stream() reaches `out` as TerminalText(..., Layout::kTable) when this
// object is destroyed (at the end of the command, before its output is
// flushed and checked); otherwise stream() is `out` itself. `out` must
// outlive this object. Not copyable.
class TableStream {
 public:
  TableStream(std::ostream& out, bool table) : out_(out), table_(table) {}
  ~TableStream() {
    if (table_) out_ << TerminalText(buffer_.str(), Layout::kTable);
  }
  TableStream(const TableStream&) = delete;
  TableStream& operator=(const TableStream&) = delete;

  std::ostream& stream() { return table_ ? buffer_ : out_; }

 private:
  std::ostream& out_;
  const bool table_;
  std::ostringstream buffer_;
};

}  // namespace zs

#endif  // ZARF_STATE_BASE_TERMINAL_TEXT_H_
