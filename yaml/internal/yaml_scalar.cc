#include "yaml/internal/yaml_scalar.h"

#include <initializer_list>
#include <vector>

#include "base/hex.h"

namespace zs::yaml::internal {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

bool OneOf(std::string_view text,
           std::initializer_list<std::string_view> words) {
  for (std::string_view w : words) {
    if (text == w) return true;
  }
  return false;
}

// Digits of `base` (8 or 16, already validated) as a decimal string without
// leading zeros. Schoolbook conversion, so any length stays exact.
std::string ToDecimal(std::string_view digits, unsigned base) {
  std::vector<unsigned char> dec;  // least significant digit first
  for (char c : digits) {
    unsigned carry = static_cast<unsigned>(HexValue(c));
    for (unsigned char& d : dec) {
      const unsigned v = d * base + carry;
      d = static_cast<unsigned char>(v % 10);
      carry = v / 10;
    }
    for (; carry != 0; carry /= 10) {
      dec.push_back(static_cast<unsigned char>(carry % 10));
    }
  }
  if (dec.empty()) return "0";
  std::string out;
  for (auto it = dec.rbegin(); it != dec.rend(); ++it) {
    out.push_back(static_cast<char>('0' + *it));
  }
  return out;
}

bool AllOf(std::string_view text, int base) {
  if (text.empty()) return false;
  for (char c : text) {
    const int v = HexValue(c);
    if (v < 0 || v >= base) return false;
  }
  return true;
}

// The core schema's int and float grammar, decimal only:
//   [-+]? ( \. [0-9]+ | [0-9]+ ( \. [0-9]* )? ) ( [eE] [-+]? [0-9]+ )?
// On a match fills *out and returns true.
bool ResolveDecimal(std::string_view t, PlainResolution* out) {
  const std::size_t n = t.size();
  std::size_t i = 0;
  bool negative = false;
  if (i < n && (t[i] == '+' || t[i] == '-')) negative = t[i++] == '-';
  const std::size_t int_begin = i;
  while (i < n && IsDigit(t[i])) ++i;
  const std::string_view int_part = t.substr(int_begin, i - int_begin);
  bool has_dot = false;
  std::string_view frac;
  if (i < n && t[i] == '.') {
    has_dot = true;
    const std::size_t frac_begin = ++i;
    while (i < n && IsDigit(t[i])) ++i;
    frac = t.substr(frac_begin, i - frac_begin);
  }
  if (int_part.empty() && frac.empty()) return false;
  std::string_view exponent;
  if (i < n && (t[i] == 'e' || t[i] == 'E')) {
    const std::size_t exp_begin = i++;
    if (i < n && (t[i] == '+' || t[i] == '-')) ++i;
    const std::size_t digits_begin = i;
    while (i < n && IsDigit(t[i])) ++i;
    if (i == digits_begin) return false;
    exponent = t.substr(exp_begin, i - exp_begin);
  }
  if (i != n) return false;
  if (!has_dot && exponent.empty() && int_part.size() > 1 &&
      int_part[0] == '0') {
    out->kind = PlainKind::kAmbiguousInteger;
    return true;
  }
  // JSON wants exactly one digit before the point and no redundant zeros
  // there; the fraction and exponent are kept as the author wrote them.
  std::string num = negative ? "-" : "";
  std::size_t zeros = 0;
  while (zeros + 1 < int_part.size() && int_part[zeros] == '0') ++zeros;
  num += int_part.empty() ? std::string_view("0") : int_part.substr(zeros);
  if (!frac.empty()) {
    num += '.';
    num += frac;
  }
  num += exponent;
  out->kind = PlainKind::kNumber;
  out->number = std::move(num);
  return true;
}

// YAML 1.1 numbers (ints with `_`, 0b/0o/0x, sexagesimal, floats) that the
// core schema may read as strings. Deliberately generous: a false positive
// only costs a pair of quotes.
bool LooksLikeYaml11Number(std::string_view text) {
  std::size_t i = 0;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
  const std::string_view rest = text.substr(i);
  const std::size_t m = rest.size();
  if (m > 2 && rest[0] == '0' &&
      (rest[1] == 'b' || rest[1] == 'o' || rest[1] == 'x')) {
    for (char c : rest.substr(2)) {
      if (HexValue(c) < 0 && c != '_') return false;
    }
    return true;
  }
  auto digit_or_underscore = [&](std::size_t k) {
    return k < m && (IsDigit(rest[k]) || rest[k] == '_');
  };
  std::size_t j = 0;
  bool any_digit = false;
  for (; digit_or_underscore(j); ++j) any_digit |= IsDigit(rest[j]);
  while (j < m && rest[j] == ':' && any_digit) {
    const std::size_t begin = ++j;
    while (digit_or_underscore(j)) ++j;
    if (j == begin) return false;
  }
  if (j < m && rest[j] == '.') {
    for (++j; digit_or_underscore(j); ++j) any_digit |= IsDigit(rest[j]);
  }
  if (!any_digit) return false;
  if (j < m && (rest[j] == 'e' || rest[j] == 'E')) {
    ++j;
    if (j < m && (rest[j] == '+' || rest[j] == '-')) ++j;
    const std::size_t begin = j;
    while (j < m && IsDigit(rest[j])) ++j;
    if (j == begin) return false;
  }
  return j == m;
}

}  // namespace

PlainResolution ResolvePlain(std::string_view text) {
  PlainResolution r;
  if (OneOf(text, {"", "~", "null", "Null", "NULL"})) {
    r.kind = PlainKind::kNull;
    return r;
  }
  if (OneOf(text, {"true", "True", "TRUE", "false", "False", "FALSE"})) {
    r.kind = PlainKind::kBool;
    r.boolean = text[0] == 't' || text[0] == 'T';
    return r;
  }
  std::string_view unsigned_text = text;
  if (!text.empty() && (text[0] == '+' || text[0] == '-')) {
    unsigned_text.remove_prefix(1);
  }
  if (OneOf(unsigned_text, {".inf", ".Inf", ".INF"}) ||
      OneOf(text, {".nan", ".NaN", ".NAN"})) {
    r.kind = PlainKind::kNotFinite;
    return r;
  }
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'o' || text[1] == 'x')) {
    const unsigned base = text[1] == 'o' ? 8 : 16;
    if (AllOf(text.substr(2), static_cast<int>(base))) {
      r.kind = PlainKind::kNumber;
      r.number = ToDecimal(text.substr(2), base);
    }
    return r;
  }
  ResolveDecimal(text, &r);
  return r;
}

bool IsYaml11NonString(std::string_view text) {
  if (OneOf(text, {"y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO",
                   "on", "On", "ON", "off", "Off", "OFF", "=", "<<"})) {
    return true;
  }
  if (LooksLikeYaml11Number(text)) return true;
  // Timestamps start with a four-digit year: 2001-12-14, 2001-12-14t21:59...
  return text.size() >= 6 && IsDigit(text[0]) && IsDigit(text[1]) &&
         IsDigit(text[2]) && IsDigit(text[3]) && text[4] == '-' &&
         IsDigit(text[5]);
}

bool IsPrintable(char32_t cp) {
  return cp == 0x09 || cp == 0x0A || cp == 0x0D || (cp >= 0x20 && cp <= 0x7E) ||
         cp == 0x85 || (cp >= 0xA0 && cp <= 0xD7FF) ||
         (cp >= 0xE000 && cp <= 0xFFFD) || (cp >= 0x10000 && cp <= 0x10FFFF);
}

}  // namespace zs::yaml::internal
