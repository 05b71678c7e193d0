#include "tools/html_writer.h"

#include <cassert>

namespace zs::tools {
namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

// Length of the valid UTF-8 sequence starting at text[i], or 0.
std::size_t Utf8Length(std::string_view text, std::size_t i) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char c = b(i);
  std::size_t n = 0;
  unsigned char lo = 0x80, hi = 0xBF;
  if (c >= 0xC2 && c <= 0xDF) {
    n = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    n = 3;
    if (c == 0xE0) lo = 0xA0;
    if (c == 0xED) hi = 0x9F;  // no UTF-16 surrogates
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4;
    if (c == 0xF0) lo = 0x90;
    if (c == 0xF4) hi = 0x8F;
  } else {
    return 0;
  }
  if (i + n > text.size()) return 0;
  if (b(i + 1) < lo || b(i + 1) > hi) return 0;
  for (std::size_t k = 2; k < n; ++k) {
    if (b(i + k) < 0x80 || b(i + k) > 0xBF) return 0;
  }
  return n;
}

}  // namespace

std::string HtmlEscape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c >= 0x80) {
      const std::size_t n = Utf8Length(text, i);
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
