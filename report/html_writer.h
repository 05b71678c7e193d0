// Building an HTML document as a string, with every piece of input text
// escaped: the one place `report` turns names, versions and messages that
// come from Secrets (which may hold `<script>`) into markup.
//
// Markup written through Raw() and the tag and attribute names given to
// Open()/Element() come from this program; every text and attribute value
// is escaped. Tags must be closed in order (asserted).
//
// Thread safety: an HtmlWriter is not thread-safe; HtmlEscape is reentrant.
#ifndef ZARF_STATE_REPORT_HTML_WRITER_H_
#define ZARF_STATE_REPORT_HTML_WRITER_H_

#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace zs::tools {

// `text` fit for HTML text content and for a quoted attribute value:
// & < > " ' become character references, and every control character
// except tab and line feed (NUL included) becomes U+FFFD, as does a byte
// that is not part of valid UTF-8.
std::string HtmlEscape(std::string_view text);

// One attribute: a name from this program, a value from anywhere.
using HtmlAttr = std::pair<std::string_view, std::string_view>;

class HtmlWriter {
 public:
  HtmlWriter() = default;
  HtmlWriter(const HtmlWriter&) = delete;
  HtmlWriter& operator=(const HtmlWriter&) = delete;

  // Appends trusted markup as is (constants of this program only).
  HtmlWriter& Raw(std::string_view html);
  // Appends `text`, escaped.
  HtmlWriter& Text(std::string_view text);
  // Appends `<tag a="v"...>` and remembers it for Close().
  HtmlWriter& Open(std::string_view tag, std::initializer_list<HtmlAttr> attrs = {});
  // Appends `</tag>`; `tag` must be the innermost open one.
  HtmlWriter& Close(std::string_view tag);
  // `<tag attrs>text</tag>`, text escaped.
  HtmlWriter& Element(std::string_view tag, std::string_view text,
                      std::initializer_list<HtmlAttr> attrs = {});

  // The document so far; every opened tag must be closed.
  std::string Take();
  std::size_t size() const { return out_.size(); }

 private:
  void Attr(std::string_view name, std::string_view value);
  std::string out_;
  std::vector<std::string> open_;
};

}  // namespace zs::tools

#endif  // ZARF_STATE_REPORT_HTML_WRITER_H_
