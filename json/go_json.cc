#include "json/go_json.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "json/string_escape.h"

namespace zs::json {
namespace {

Status AppendValue(std::string* out, const Value& v, const WriteOptions& opt);

Status AppendNumber(std::string* out, const std::string& raw,
                    const WriteOptions& opt) {
  if (opt.numbers == NumberStyle::kRaw) {
    out->append(raw);
    return Status::OK();
  }
  ZS_ASSIGN_OR_RETURN(double d, NumberToFloat64(raw));
  AppendGoFloat(out, d);
  return Status::OK();
}

Status AppendSortedObject(std::string* out, const Object& members,
                          const WriteOptions& opt) {
  // Go decodes an object into a map (the last duplicate wins) and writes the
  // map's keys in byte order.
  out->push_back('{');
  bool first = true;
  for (std::size_t i : GoMapOrder(members.size(), [&](std::size_t k) -> const std::string& {
         return members[k].first;
       })) {
    if (!first) out->push_back(',');
    first = false;
    AppendGoString(out, members[i].first);
    out->push_back(':');
    ZS_RETURN_IF_ERROR(AppendValue(out, members[i].second, opt));
  }
  out->push_back('}');
  return Status::OK();
}

Status AppendValue(std::string* out, const Value& v, const WriteOptions& opt) {
  switch (v.kind()) {
    case Kind::kNull: out->append("null"); return Status::OK();
    case Kind::kBool: out->append(v.as_bool() ? "true" : "false"); return Status::OK();
    case Kind::kNumber: return AppendNumber(out, v.number_raw(), opt);
    case Kind::kString: AppendGoString(out, v.as_string()); return Status::OK();
    case Kind::kArray: {
      out->push_back('[');
      bool first = true;
      for (const Value& item : v.array()) {
        if (!first) out->push_back(',');
        first = false;
        ZS_RETURN_IF_ERROR(AppendValue(out, item, opt));
      }
      out->push_back(']');
      return Status::OK();
    }
    case Kind::kObject: {
      if (opt.sort_keys) return AppendSortedObject(out, v.object(), opt);
      out->push_back('{');
      bool first = true;
      for (const Member& m : v.object()) {
        if (!first) out->push_back(',');
        first = false;
        AppendGoString(out, m.first);
        out->push_back(':');
        ZS_RETURN_IF_ERROR(AppendValue(out, m.second, opt));
      }
      out->push_back('}');
      return Status::OK();
    }
  }
  return Status::OK();
}

void AppendNewline(std::string* out, std::string_view indent, int depth) {
  out->push_back('\n');
  for (int i = 0; i < depth; ++i) out->append(indent);
}

}  // namespace


void AppendGoString(std::string* out, std::string_view s) {
  AppendJsonString(out, s, kGoEscaping);
}

void AppendGoFloat(std::string* out, double v) {
  // Go takes the shortest digits that round-trip and lays them out in %e
  // form past 1e21 (or below 1e-6), in %f form otherwise, padding with
  // zeros: 2^63 is written 9223372036854776000. (to_chars' fixed form would
  // write every digit of the exact value, 9223372036854775808.)
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
  const std::string_view sci(buf, static_cast<std::size_t>(res.ptr - buf));
  const std::size_t e_at = sci.find('e');
  const double abs = std::fabs(v);
  if (abs != 0 && (abs < 1e-6 || abs >= 1e21)) {
    // Both write two exponent digits at least; Go then trims e-07 to e-7
    // (never a positive one: the form starts at 1e+21).
    std::string_view text = sci;
    const std::size_t n = text.size();
    out->append(text.substr(0, e_at + 2));
    if (n - e_at == 4 && text[e_at + 1] == '-' && text[e_at + 2] == '0') {
      out->push_back(text[n - 1]);
    } else {
      out->append(text.substr(e_at + 2));
    }
    return;
  }
  if (abs == 0) {
    out->append(std::signbit(v) ? "-0" : "0");
    return;
  }
  // Digits without the point, and the decimal exponent of the first one.
  std::string digits;
  std::size_t i = 0;
  if (sci[0] == '-') {
    out->push_back('-');
    i = 1;
  }
  for (; i < e_at; ++i) {
    if (sci[i] != '.') digits.push_back(sci[i]);
  }
  int exp10 = 0;
  std::from_chars(sci.data() + e_at + 1 + (sci[e_at + 1] == '+'), sci.data() + sci.size(), exp10);
  const int int_digits = exp10 + 1;  // digits before the point
  if (int_digits <= 0) {
    out->append("0.");
    out->append(static_cast<std::size_t>(-int_digits), '0');
    out->append(digits);
  } else if (static_cast<std::size_t>(int_digits) >= digits.size()) {
    out->append(digits);
    out->append(static_cast<std::size_t>(int_digits) - digits.size(), '0');
  } else {
    out->append(digits, 0, static_cast<std::size_t>(int_digits));
    out->push_back('.');
    out->append(digits, static_cast<std::size_t>(int_digits));
  }
}

Result<double> NumberToFloat64(std::string_view raw) {
  double d = 0;
  auto res = std::from_chars(raw.data(), raw.data() + raw.size(), d);
  if (res.ec == std::errc() && res.ptr == raw.data() + raw.size()) return d;
  if (res.ec == std::errc::result_out_of_range) {
    // from_chars refuses subnormal and underflowing results; strtod (always
    // in the "C" locale here: the program never calls setlocale) returns the
    // correctly rounded subnormal or zero, and +-HUGE_VAL on overflow.
    std::string copy(raw);
    errno = 0;
    d = std::strtod(copy.c_str(), nullptr);
    if (!std::isinf(d)) return d;
  }
  if (res.ec == std::errc() || res.ec == std::errc::result_out_of_range) {
    return Status::InvalidArgument("number " + std::string(raw) +
                                   " does not fit in a float64");
  }
  return Status::InvalidArgument("not a number: " + std::string(raw));
}

Status AppendJson(std::string* out, const Value& value,
                  const WriteOptions& options) {
  return AppendValue(out, value, options);
}

Result<std::string> WriteJson(const Value& value, const WriteOptions& options) {
  std::string out;
  ZS_RETURN_IF_ERROR(AppendValue(&out, value, options));
  return out;
}

namespace {

void AppendIndented(std::string* out, const Value& value, std::string_view indent, int depth,
                    const SplicedValue* splice) {
  if (splice != nullptr && &value == splice->at) {
    splice->append(out);
    return;
  }
  switch (value.kind()) {
    case Kind::kArray: {
      if (value.array().empty()) {
        out->append("[]");
        return;
      }
      out->push_back('[');
      bool first = true;
      for (const Value& item : value.array()) {
        if (!first) out->push_back(',');
        first = false;
        AppendNewline(out, indent, depth + 1);
        AppendIndented(out, item, indent, depth + 1, splice);
      }
      AppendNewline(out, indent, depth);
      out->push_back(']');
      return;
    }
    case Kind::kObject: {
      if (value.object().empty()) {
        out->append("{}");
        return;
      }
      out->push_back('{');
      bool first = true;
      for (const Member& m : value.object()) {
        if (!first) out->push_back(',');
        first = false;
        AppendNewline(out, indent, depth + 1);
        AppendGoString(out, m.first);
        out->append(": ");
        AppendIndented(out, m.second, indent, depth + 1, splice);
      }
      AppendNewline(out, indent, depth);
      out->push_back('}');
      return;
    }
    default: {
      Status ignored = AppendValue(out, value, WriteOptions{});
      (void)ignored;  // raw numbers cannot fail
    }
  }
}

}  // namespace

void AppendIndentedJson(std::string* out, const Value& value, std::string_view indent,
                        int depth) {
  AppendIndented(out, value, indent, depth, nullptr);
}

void AppendIndentedJson(std::string* out, const Value& value, std::string_view indent,
                        int depth, const SplicedValue& splice) {
  AppendIndented(out, value, indent, depth, &splice);
}

}  // namespace zs::json
