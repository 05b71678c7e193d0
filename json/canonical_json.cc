#include "json/canonical_json.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <utility>
#include <vector>

#include "base/digest.h"
#include "json/go_json.h"
#include "json/json_reader.h"
#include "json/string_escape.h"
#include "json/utf8.h"

namespace zs::json {
namespace {

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
  const std::size_t bad = AppendJsonString(out, s, kCanonicalEscaping);
  if (bad != kEscapedAll) return InvalidUtf8("string", bad);
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
