#include "yaml/yaml.h"

#include <cstdio>
#include <string>
#include <string_view>

#include "json/utf8.h"
#include "yaml/internal/yaml_parser.h"
#include "yaml/internal/yaml_scalar.h"

namespace zs::yaml {
namespace {

using json::DecodeUtf8;
using internal::IsPrintable;

enum class Style { kPlain, kSingleQuoted, kDoubleQuoted, kLiteral };

constexpr char32_t kReplacement = 0xFFFD;

// Code points a double-quoted scalar must escape. Tabs, the YAML 1.1 line
// breaks (NEL, LS, PS) and the byte order mark are printable in YAML 1.2, but
// folding trims tabs at line edges, YAML 1.1 readers (kubectl) break lines at
// NEL/LS/PS, and a BOM may be dropped; kubectl escapes them too.
bool NeedsEscape(char32_t cp) {
  return !IsPrintable(cp) || cp == '\t' || cp == '\r' || cp == 0x85 ||
         cp == 0x2028 || cp == 0x2029 || cp == 0xFEFF;
}

// Whether `s` can be written as a plain scalar in block context without being
// read back differently or breaking the line's structure. Resolution to a
// non-string is checked separately.
bool PlainSyntaxAllowed(std::string_view s) {
  if (s.empty() || s.front() == ' ' || s.back() == ' ' || s.back() == ':') {
    return false;
  }
  if (s.starts_with("---") || s.starts_with("...")) return false;
  const char c = s.front();
  if (c == '-' || c == '?' || c == ':') {
    if (s.size() == 1 || s[1] == ' ') return false;
  } else if (std::string_view(",[]{}#&*!|>'\"%@`").find(c) !=
             std::string_view::npos) {
    return false;
  }
  return s.find(": ") == std::string_view::npos &&
         s.find(" #") == std::string_view::npos;
}

// A `|` block represents `s` exactly unless a line ends in a space (editors
// and linters strip those) or there is no text at all.
bool LiteralAllowed(std::string_view s) {
  if (s.find_first_not_of('\n') == std::string_view::npos) return false;
  if (s.back() == ' ') return false;
  return s.find(" \n") == std::string_view::npos;
}

Style ChooseStyle(std::string_view s, bool literal_allowed) {
  if (s.empty()) return Style::kDoubleQuoted;
  bool newline = false;
  for (std::size_t i = 0; i < s.size();) {
    char32_t cp = 0;
    const std::size_t len = DecodeUtf8(s, i, &cp);
    if (len == 0) return Style::kDoubleQuoted;
    if (cp == '\n') {
      newline = true;
    } else if (NeedsEscape(cp)) {
      return Style::kDoubleQuoted;
    }
    i += len;
  }
  if (newline) {
    return literal_allowed && LiteralAllowed(s) ? Style::kLiteral
                                                : Style::kDoubleQuoted;
  }
  if (!PlainSyntaxAllowed(s)) return Style::kSingleQuoted;
  // Text that resolves to null, a bool or a number gets double quotes, the
  // way kubectl prints "true", "1e3" or "2024-01-02T03:04:05Z".
  if (internal::ResolvePlain(s).kind != internal::PlainKind::kString ||
      internal::IsYaml11NonString(s)) {
    return Style::kDoubleQuoted;
  }
  return Style::kPlain;
}

// Escapes with a name of their own; other code points that need escaping are
// written as \xXX or \uXXXX.
struct ShortEscape {
  char32_t cp;
  const char* text;
};
constexpr ShortEscape kShortEscapes[] = {
    {'"', "\\\""},   {'\\', "\\\\"},  {0x00, "\\0"}, {0x07, "\\a"},
    {0x08, "\\b"},   {0x09, "\\t"},   {0x0A, "\\n"}, {0x0B, "\\v"},
    {0x0C, "\\f"},   {0x0D, "\\r"},   {0x1B, "\\e"}, {0x85, "\\N"},
    {0x2028, "\\L"}, {0x2029, "\\P"},
};

void AppendDoubleQuoted(std::string_view s, std::string* out) {
  *out += '"';
  for (std::size_t i = 0; i < s.size();) {
    char32_t cp = 0;
    const std::size_t len = DecodeUtf8(s, i, &cp);
    if (len == 0) {  // an invalid byte becomes U+FFFD
      json::AppendUtf8(kReplacement, out);
      ++i;
      continue;
    }
    const ShortEscape* named = nullptr;
    for (const ShortEscape& e : kShortEscapes) {
      if (e.cp == cp) named = &e;
    }
    if (named != nullptr) {
      *out += named->text;
    } else if (NeedsEscape(cp)) {
      char buf[16];
      std::snprintf(buf, sizeof(buf), cp <= 0xFF ? "\\x%02X" : "\\u%04X",
                    static_cast<unsigned>(cp));
      *out += buf;
    } else {
      out->append(s.substr(i, len));  // UTF-8 is written as is
    }
    i += len;
  }
  *out += '"';
}

void AppendSingleQuoted(std::string_view s, std::string* out) {
  *out += '\'';
  for (char c : s) {
    if (c == '\'') *out += '\'';
    *out += c;
  }
  *out += '\'';
}

// A `|` block whose text lines sit at column `indent`. Readers detect the
// indentation from the first text line, which fails when that line starts
// with a space (or, in some readers, after leading empty lines); then an
// explicit indicator is written. It is relative to the enclosing collection,
// which the writer always places two columns to the left, hence "2".
// Chomping: `-` for no final line break, none for one, `+` to keep several.
void AppendLiteral(std::string_view s, std::size_t indent, std::string* out) {
  std::size_t trailing = 0;
  while (trailing < s.size() && s[s.size() - 1 - trailing] == '\n') ++trailing;
  const std::size_t first_text = s.find_first_not_of('\n');
  *out += '|';
  if (s.front() == '\n' || s[first_text] == ' ') *out += '2';
  if (trailing == 0) *out += '-';
  if (trailing >= 2) *out += '+';
  *out += '\n';
  std::string_view body = s;
  if (trailing > 0) body.remove_suffix(1);
  while (true) {
    const std::size_t nl = body.find('\n');
    const std::string_view line = body.substr(0, nl);
    if (!line.empty()) {
      out->append(indent, ' ');
      out->append(line);
    }
    *out += '\n';
    if (nl == std::string_view::npos) break;
    body.remove_prefix(nl + 1);
  }
}

// Appends `s` in the style it needs; returns true if that was a literal
// block, which already ends its last line.
bool AppendString(std::string_view s, bool literal_allowed, std::size_t indent,
                  std::string* out) {
  switch (ChooseStyle(s, literal_allowed)) {
    case Style::kPlain:
      out->append(s);
      break;
    case Style::kSingleQuoted:
      AppendSingleQuoted(s, out);
      break;
    case Style::kDoubleQuoted:
      AppendDoubleQuoted(s, out);
      break;
    case Style::kLiteral:
      AppendLiteral(s, indent, out);
      return true;
  }
  return false;
}

bool IsBlockCollection(const json::Value& v) {
  return (v.is_object() && !v.object().empty()) ||
         (v.is_array() && !v.array().empty());
}

// Writes a scalar or an empty collection at the current column and ends the
// line. `indent` is where a literal block's lines go.
void WriteScalar(const json::Value& v, std::size_t indent, std::string* out) {
  switch (v.kind()) {
    case json::Kind::kNull:
      *out += "null";
      break;
    case json::Kind::kBool:
      *out += v.as_bool() ? "true" : "false";
      break;
    case json::Kind::kNumber:
      *out += v.number_raw();
      break;
    case json::Kind::kString:
      if (AppendString(v.as_string(), /*literal_allowed=*/true, indent, out)) {
        return;
      }
      break;
    case json::Kind::kArray:
      *out += "[]";
      break;
    case json::Kind::kObject:
      *out += "{}";
      break;
  }
  *out += '\n';
}

void WriteBlock(const json::Value& v, std::size_t indent, bool first_inline,
                std::string* out);

// Writes what follows `key:` or `-` on the current line, then the lines of a
// nested collection. `indent` is the column of the key or dash.
void WriteChild(const json::Value& v, std::size_t indent, bool after_dash,
                std::string* out) {
  if (!IsBlockCollection(v)) {
    *out += ' ';
    WriteScalar(v, indent + 2, out);
  } else if (after_dash) {
    *out += ' ';
    WriteBlock(v, indent + 2, /*first_inline=*/true, out);
  } else {
    *out += '\n';
    // kubectl style: a sequence under a key is not indented.
    WriteBlock(v, v.is_array() ? indent : indent + 2, /*first_inline=*/false,
               out);
  }
}

// Writes a non-empty mapping or sequence whose entries start at column
// `indent`; with `first_inline` the first entry continues the current line.
void WriteBlock(const json::Value& v, std::size_t indent, bool first_inline,
                std::string* out) {
  bool pad = !first_inline;
  if (v.is_object()) {
    for (const json::Member& m : v.object()) {
      if (pad) out->append(indent, ' ');
      pad = true;
      // A key must fit on one line, so a multi-line key is double-quoted.
      AppendString(m.first, /*literal_allowed=*/false, indent, out);
      *out += ':';
      WriteChild(m.second, indent, /*after_dash=*/false, out);
    }
  } else {
    for (const json::Value& item : v.array()) {
      if (pad) out->append(indent, ' ');
      pad = true;
      *out += '-';
      WriteChild(item, indent, /*after_dash=*/true, out);
    }
  }
}

}  // namespace

Result<std::vector<json::Value>> ParseDocuments(std::string_view text, std::size_t max_depth) {
  return internal::ParseStream(text, max_depth);
}

std::string Write(const json::Value& value) {
  std::string out;
  if (IsBlockCollection(value)) {
    WriteBlock(value, 0, /*first_inline=*/false, &out);
  } else {
    // A root `|` block also puts its lines at column 2: for a document root
    // the indentation indicator counts from column 0, so "2" still fits.
    WriteScalar(value, 2, &out);
  }
  return out;
}

}  // namespace zs::yaml
