#include "report/html_writer.h"

#include <cassert>

#include "json/utf8.h"

namespace zs::tools {
namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

}  // namespace

std::string HtmlEscape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c >= 0x80) {
      char32_t cp = 0;
      const std::size_t n = json::DecodeUtf8(text, i, &cp);
      if (n == 0) {
        out += kReplacement;
        ++i;
      } else {
        out.append(text.substr(i, n));
        i += n;
      }
      continue;
    }
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      case '\t':
      case '\n': out += static_cast<char>(c); break;
      default:
        if (c < 0x20 || c == 0x7F) {
          out += kReplacement;
        } else {
          out += static_cast<char>(c);
        }
    }
    ++i;
  }
  return out;
}

HtmlWriter& HtmlWriter::Raw(std::string_view html) {
  out_.append(html);
  return *this;
}

HtmlWriter& HtmlWriter::Text(std::string_view text) {
  out_ += HtmlEscape(text);
  return *this;
}

void HtmlWriter::Attr(std::string_view name, std::string_view value) {
  out_ += ' ';
  out_.append(name);
  out_ += "=\"";
  out_ += HtmlEscape(value);
  out_ += '"';
}

HtmlWriter& HtmlWriter::Open(std::string_view tag, std::initializer_list<HtmlAttr> attrs) {
  out_ += '<';
  out_.append(tag);
  for (const auto& [name, value] : attrs) Attr(name, value);
  out_ += '>';
  open_.emplace_back(tag);
  return *this;
}

HtmlWriter& HtmlWriter::Close(std::string_view tag) {
  assert(!open_.empty() && open_.back() == tag);
  open_.pop_back();
  out_ += "</";
  out_.append(tag);
  out_ += '>';
  return *this;
}

HtmlWriter& HtmlWriter::Element(std::string_view tag, std::string_view text,
                                std::initializer_list<HtmlAttr> attrs) {
  Open(tag, attrs);
  Text(text);
  return Close(tag);
}

std::string HtmlWriter::Take() {
  assert(open_.empty());
  return std::move(out_);
}

}  // namespace zs::tools
