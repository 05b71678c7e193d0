#include "json/canonical_json.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <utility>
#include <vector>

#include "base/digest.h"
#include "json/go_json.h"
#include "json/json_reader.h"

namespace zs::json {
namespace {

constexpr char kHex[] = "0123456789abcdef";

// Decodes the UTF-8 sequence at s[i]; returns its length, or 0 when it is
// malformed, overlong, a surrogate or beyond U+10FFFF.
std::size_t DecodeUtf8(std::string_view s, std::size_t i, char32_t* cp) {
  const auto c0 = static_cast<unsigned char>(s[i]);
  if (c0 < 0x80) {
    *cp = c0;
    return 1;
  }
  std::size_t len;
  char32_t min;
  if ((c0 & 0xE0) == 0xC0) {
    len = 2;
    min = 0x80;
  } else if ((c0 & 0xF0) == 0xE0) {
    len = 3;
    min = 0x800;
  } else if ((c0 & 0xF8) == 0xF0) {
    len = 4;
    min = 0x10000;
  } else {
    return 0;
  }
  if (len > s.size() - i) return 0;
  char32_t v = c0 & (0x7F >> len);
  for (std::size_t k = 1; k < len; ++k) {
    const auto c = static_cast<unsigned char>(s[i + k]);
    if ((c & 0xC0) != 0x80) return 0;
    v = (v << 6) | (c & 0x3F);
  }
  if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) return 0;
  *cp = v;
  return len;
}

Status InvalidUtf8(std::string_view what, std::size_t offset) {
  return Status::InvalidArgument(std::string(what) +
                                 " is not valid UTF-8 at byte " +
                                 std::to_string(offset));
}

// The UTF-16 code units of `key`, which is the order RFC 8785 sorts by.
Result<std::u16string> ToUtf16(std::string_view key) {
  std::u16string out;
  out.reserve(key.size());
  for (std::size_t i = 0; i < key.size();) {
    char32_t cp = 0;
    const std::size_t len = DecodeUtf8(key, i, &cp);
    if (len == 0) return InvalidUtf8("object key", i);
    if (cp >= 0x10000) {
      cp -= 0x10000;
      out.push_back(static_cast<char16_t>(0xD800 + (cp >> 10)));
      out.push_back(static_cast<char16_t>(0xDC00 + (cp & 0x3FF)));
    } else {
      out.push_back(static_cast<char16_t>(cp));
    }
    i += len;
  }
  return out;
}

Status AppendString(std::string* out, std::string_view s) {
  out->push_back('"');
  std::size_t start = 0;  // first byte not yet copied
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x80) {
      // Non-ASCII is written raw; it only has to be valid.
      char32_t cp = 0;
      const std::size_t len = DecodeUtf8(s, i, &cp);
      if (len == 0) return InvalidUtf8("string", i);
      i += len;
      continue;
    }
    if (c >= 0x20 && c != '"' && c != '\\') {
      ++i;
      continue;
    }
    out->append(s.data() + start, i - start);
    switch (c) {
      case '"':
        out->append("\\\"");
        break;
      case '\\':
        out->append("\\\\");
        break;
      case '\b':
        out->append("\\b");
        break;
      case '\f':
        out->append("\\f");
        break;
      case '\n':
        out->append("\\n");
        break;
      case '\r':
        out->append("\\r");
        break;
      case '\t':
        out->append("\\t");
        break;
      default: {
        const char esc[6] = {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 0xF]};
        out->append(esc, sizeof esc);
      }
    }
    start = ++i;
  }
  out->append(s.data() + start, s.size() - start);
  out->push_back('"');
  return Status::OK();
}

// ECMA-262 Number::toString for a finite double. std::to_chars gives the
// shortest round-trip digits (ties to the closest value, as ECMA-262 asks)
// in scientific form; the layout is then chosen from the digit count k and
// the decimal exponent n, where value = 0.d1d2...dk * 10^n.
void AppendNumberValue(std::string* out, double d) {
  if (d == 0) {  // +0 and -0 alike
    out->push_back('0');
    return;
  }
  char buf[40];
  const auto res =
      std::to_chars(buf, buf + sizeof buf, d, std::chars_format::scientific);
  std::string_view sci(buf, static_cast<std::size_t>(res.ptr - buf));
  if (sci.front() == '-') {
    out->push_back('-');
    sci.remove_prefix(1);
  }
  // sci is "d[.ddd]e(+|-)xx".
  const std::size_t e = sci.find('e');
  char digits[24];
  int k = 0;
  for (std::size_t i = 0; i < e; ++i) {
    if (sci[i] != '.') digits[k++] = sci[i];
  }
  int exp = 0;
  for (std::size_t i = e + 2; i < sci.size(); ++i)
    exp = exp * 10 + (sci[i] - '0');
  if (sci[e + 1] == '-') exp = -exp;
  const int n = exp + 1;

  if (k <= n && n <= 21) {
    out->append(digits, k);
    out->append(static_cast<std::size_t>(n - k), '0');
  } else if (0 < n && n <= 21) {
    out->append(digits, n);
    out->push_back('.');
    out->append(digits + n, k - n);
  } else if (-6 < n && n <= 0) {
    out->append("0.");
    out->append(static_cast<std::size_t>(-n), '0');
    out->append(digits, k);
  } else {
    out->push_back(digits[0]);
    if (k > 1) {
      out->push_back('.');
      out->append(digits + 1, k - 1);
    }
    out->push_back('e');
    out->push_back(n - 1 < 0 ? '-' : '+');
    out->append(std::to_string(n - 1 < 0 ? 1 - n : n - 1));
  }
}

Status AppendCanonical(std::string* out, const Value& v);

Status AppendObject(std::string* out, const Object& members) {
  struct Entry {
    std::u16string key16;
    const Member* member;
  };
  std::vector<Entry> entries;
  entries.reserve(members.size());
  for (const Member& m : members) {
    ZS_ASSIGN_OR_RETURN(std::u16string key16, ToUtf16(m.first));
    entries.push_back({std::move(key16), &m});
  }
  // Stable, so that among equal keys the last member stays last and wins.
  std::stable_sort(
      entries.begin(), entries.end(),
      [](const Entry& a, const Entry& b) { return a.key16 < b.key16; });
  out->push_back('{');
  bool first = true;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (i + 1 < entries.size() && entries[i + 1].key16 == entries[i].key16) {
      continue;
    }
    if (!first) out->push_back(',');
    first = false;
    ZS_RETURN_IF_ERROR(AppendString(out, entries[i].member->first));
    out->push_back(':');
    ZS_RETURN_IF_ERROR(AppendCanonical(out, entries[i].member->second));
  }
  out->push_back('}');
  return Status::OK();
}

Status AppendCanonical(std::string* out, const Value& v) {
  switch (v.kind()) {
    case Kind::kNull:
      out->append("null");
      return Status::OK();
    case Kind::kBool:
      out->append(v.as_bool() ? "true" : "false");
      return Status::OK();
    case Kind::kNumber: {
      ZS_ASSIGN_OR_RETURN(double d, NumberToFloat64(v.number_raw()));
      AppendNumberValue(out, d);
      return Status::OK();
    }
    case Kind::kString:
      return AppendString(out, v.as_string());
    case Kind::kArray: {
      out->push_back('[');
      bool first = true;
      for (const Value& item : v.array()) {
        if (!first) out->push_back(',');
        first = false;
        ZS_RETURN_IF_ERROR(AppendCanonical(out, item));
      }
      out->push_back(']');
      return Status::OK();
    }
    case Kind::kObject:
      return AppendObject(out, v.object());
  }
  return Status::OK();
}

}  // namespace

Result<std::string> Canonicalize(const Value& value) {
  std::string out;
  ZS_RETURN_IF_ERROR(AppendCanonical(&out, value));
  return out;
}

Result<std::string> CanonicalDigest(const Value& value) {
  ZS_ASSIGN_OR_RETURN(std::string canonical, Canonicalize(value));
  const std::string digest = Sha256Digest(canonical);
  // Sha256Digest returns "sha256:<hex>"; keep the hex only.
  const std::size_t colon = digest.find(':');
  return std::string(kCanonicalDigestPrefix) + digest.substr(colon + 1);
}

}  // namespace zs::json
