#include "model/internal/go_value.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <utility>

#include "base/base64.h"
#include "json/go_json.h"

namespace zs::internal {
namespace {

// A Go value of a known GoType; which members mean something depends on the
// type's kind.
struct GoValue {
  bool nil = true;      // kSlice, kMap, kBytes
  bool b = false;       // kBool
  std::int64_t i = 0;   // kInt
  std::string s;        // kString, kBytes
  json::Value any;      // kAny; null is the nil interface
  std::size_t len = 0;  // kSlice: the length; items.size() is the capacity
  // kStruct: a value per field; kSlice: the backing array; kPointer: the
  // pointee, if any; kMap: the value of each entry, in the order set (a
  // later entry replaces an earlier one with the same key).
  std::vector<GoValue> items;
  std::vector<std::string> keys;  // kMap: the key of each entry
};

GoValue Zero(const GoType& type) {
  GoValue v;
  if (type.kind == GoKind::kStruct) {
    v.items.reserve(type.fields.size());
    for (const GoField& f : type.fields) v.items.push_back(Zero(*f.type));
  }
  return v;
}

// Go's case folding of a key against an ASCII field name, as encoding/json
// matches them: letters in either case, and the two non-ASCII runes that
// fold to ASCII letters (U+212A to k, U+017F to s).
bool FoldEqual(std::string_view name, std::string_view key) {
  std::size_t k = 0;
  for (const char n : name) {
    if (k >= key.size()) return false;
    const auto c = static_cast<unsigned char>(key[k]);
    const char lower = static_cast<char>(n | 0x20);
    const bool letter = lower >= 'a' && lower <= 'z';
    if (c < 0x80) {
      if (letter ? (static_cast<char>(c | 0x20) != lower) : (static_cast<char>(c) != n))
        return false;
      ++k;
    } else if (lower == 'k' && key.substr(k, 3) == "\xE2\x84\xAA") {
      k += 3;
    } else if (lower == 's' && key.substr(k, 2) == "\xC5\xBF") {
      k += 2;
    } else {
      return false;
    }
  }
  return k == key.size();
}

int FindField(const GoType& type, std::string_view key) {
  const int n = static_cast<int>(type.fields.size());
  for (int i = 0; i < n; ++i) {
    if (type.fields[i].json_name == key) return i;
  }
  for (int i = 0; i < n; ++i) {
    if (FoldEqual(type.fields[i].json_name, key)) return i;
  }
  return -1;
}

std::string_view Expected(GoKind kind) {
  switch (kind) {
    case GoKind::kBool:
      return "boolean";
    case GoKind::kInt:
      return "integer";
    case GoKind::kString:
      return "string";
    case GoKind::kBytes:
      return "base64 string";
    case GoKind::kSlice:
      return "array";
    default:
      return "object";
  }
}

class Decoder {
 public:
  explicit Decoder(std::vector<std::string>* undeclared) : undeclared_(undeclared) {}

  Status Decode(const GoType& type, const json::Value& in, GoValue* v) {
    if (in.is_null()) {
      // Only nil-able kinds change; null leaves every other value as it was.
      switch (type.kind) {
        case GoKind::kPointer:
          v->items.clear();
          break;
        case GoKind::kSlice:
          v->nil = true;
          v->len = 0;
          v->items.clear();
          break;
        case GoKind::kMap:
          v->nil = true;
          v->keys.clear();
          v->items.clear();
          break;
        case GoKind::kBytes:
          v->nil = true;
          v->s.clear();
          break;
        case GoKind::kAny:
          v->any = json::Value();
          break;
        default:
          break;
      }
      return Status::OK();
    }
    switch (type.kind) {
      case GoKind::kBool:
        if (!in.is_bool()) return Mismatch(type, in);
        v->b = in.as_bool();
        return Status::OK();
      case GoKind::kString:
        if (!in.is_string()) return Mismatch(type, in);
        v->s = in.as_string();
        return Status::OK();
      case GoKind::kInt:
        return DecodeInt(type, in, v);
      case GoKind::kBytes: {
        if (!in.is_string()) return Mismatch(type, in);
        Status s = Base64DecodeTo(in.as_string(), &v->s);
        if (!s.ok()) return Fail(s.message());
        v->nil = false;
        return Status::OK();
      }
      case GoKind::kAny:
        ZS_RETURN_IF_ERROR(CheckFloat64s(in));
        v->any = in;
        return Status::OK();
      case GoKind::kPointer:
        if (v->items.empty()) v->items.push_back(Zero(*type.elem));
        return Decode(*type.elem, in, &v->items[0]);
      case GoKind::kSlice:
        return DecodeSlice(type, in, v);
      case GoKind::kMap:
        return DecodeMap(type, in, v);
      case GoKind::kStruct:
        return DecodeStruct(type, in, v);
      case GoKind::kUnsupported:
        break;
    }
    return Status::NotSupported(Where() + ": Go type " + type.name + " is not supported");
  }

 private:
  std::string Where() const { return path_.empty() ? std::string("top level") : path_; }

  Status Fail(std::string_view problem) const {
    return Status::InvalidArgument(Where() + ": " + std::string(problem));
  }

  Status Mismatch(const GoType& type, const json::Value& in) const {
    std::string got(json::KindName(in.kind()));
    if (in.is_number()) got += " " + in.number_raw();
    return Fail("expected " + std::string(Expected(type.kind)) + ", got " + got);
  }

  Status DecodeInt(const GoType& type, const json::Value& in, GoValue* v) {
    if (!in.is_number()) return Mismatch(type, in);
    const std::string& raw = in.number_raw();
    std::int64_t n = 0;
    const auto [end, ec] = std::from_chars(raw.data(), raw.data() + raw.size(), n);
    if (ec == std::errc::result_out_of_range) {
      return Fail("integer " + raw + " out of range for " + type.name);
    }
    if (ec != std::errc() || end != raw.data() + raw.size()) return Mismatch(type, in);
    v->i = n;
    return Status::OK();
  }

  // Go decodes every number of an interface{} value to float64, the ones an
  // object's later duplicate key replaces included.
  Status CheckFloat64s(const json::Value& in) const {
    if (in.is_number()) {
      auto d = json::NumberToFloat64(in.number_raw());
      if (!d.ok()) return Fail("number " + in.number_raw() + " out of float64 range");
    } else if (in.is_array()) {
      for (const json::Value& item : in.array()) ZS_RETURN_IF_ERROR(CheckFloat64s(item));
    } else if (in.is_object()) {
      for (const json::Member& m : in.object()) ZS_RETURN_IF_ERROR(CheckFloat64s(m.second));
    }
    return Status::OK();
  }

  Status DecodeSlice(const GoType& type, const json::Value& in, GoValue* v) {
    if (!in.is_array()) return Mismatch(type, in);
    const std::size_t base = path_.size();
    std::size_t i = 0;
    for (const json::Value& item : in.array()) {
      if (i >= v->items.size()) {
        // Go 1.19 grows by half its capacity, at least to 4, copying the
        // old elements; the new ones are zero.
        const std::size_t cap = v->items.size();
        v->items.resize(std::max<std::size_t>(cap + cap / 2, 4), Zero(*type.elem));
      }
      if (i >= v->len) v->len = i + 1;
      path_.push_back('[');
      path_.append(std::to_string(i));
      path_.push_back(']');
      ZS_RETURN_IF_ERROR(Decode(*type.elem, item, &v->items[i]));
      path_.resize(base);
      ++i;
    }
    if (i < v->len) v->len = i;
    if (i == 0) v->items.clear();  // a new empty slice
    v->nil = false;
    return Status::OK();
  }

  Status DecodeMap(const GoType& type, const json::Value& in, GoValue* v) {
    if (!in.is_object()) return Mismatch(type, in);
    v->nil = false;
    const std::size_t base = path_.size();
    for (const json::Member& m : in.object()) {
      GoValue element = Zero(*type.elem);
      Enter(m.first);
      ZS_RETURN_IF_ERROR(Decode(*type.elem, m.second, &element));
      path_.resize(base);
      v->keys.push_back(m.first);
      v->items.push_back(std::move(element));
    }
    return Status::OK();
  }

  Status DecodeStruct(const GoType& type, const json::Value& in, GoValue* v) {
    if (!in.is_object()) return Mismatch(type, in);
    const std::size_t base = path_.size();
    for (const json::Member& m : in.object()) {
      const int field = FindField(type, m.first);
      Enter(m.first);
      if (field < 0) {
        if (undeclared_ != nullptr) undeclared_->push_back(path_);
      } else {
        ZS_RETURN_IF_ERROR(Decode(*type.fields[field].type, m.second, &v->items[field]));
      }
      path_.resize(base);
    }
    return Status::OK();
  }

  void Enter(std::string_view key) {
    if (!path_.empty()) path_.push_back('.');
    path_.append(key);
  }

  std::vector<std::string>* undeclared_;
  std::string path_;
};

bool IsEmpty(const GoType& type, const GoValue& v) {
  switch (type.kind) {
    case GoKind::kBool:
      return !v.b;
    case GoKind::kInt:
      return v.i == 0;
    case GoKind::kString:
    case GoKind::kBytes:
      return v.s.empty();
    case GoKind::kAny:
      return v.any.is_null();
    case GoKind::kSlice:
      return v.len == 0;
    case GoKind::kMap:
      return v.keys.empty();
    case GoKind::kPointer:
      return v.items.empty();
    case GoKind::kStruct:
    case GoKind::kUnsupported:
      return false;
  }
  return false;
}

void Encode(const GoType& type, const GoValue& v, std::string* out, bool* unsupported);

// A []byte: base64 in a string, or null.
void EncodeBytes(const GoValue& v, std::string* out) {
  if (v.nil) {
    out->append("null");
  } else {
    out->push_back('"');
    out->append(Base64Encode(v.s));
    out->push_back('"');
  }
}

// A slice: its first len items in an array, or null.
void EncodeSlice(const GoType& type, const GoValue& v, std::string* out, bool* unsupported) {
  if (v.nil) {
    out->append("null");
    return;
  }
  out->push_back('[');
  for (std::size_t i = 0; i < v.len; ++i) {
    if (i != 0) out->push_back(',');
    Encode(*type.elem, v.items[i], out, unsupported);
  }
  out->push_back(']');
}

// A map: its entries in Go's key order, or null.
void EncodeMap(const GoType& type, const GoValue& v, std::string* out, bool* unsupported) {
  if (v.nil) {
    out->append("null");
    return;
  }
  out->push_back('{');
  bool first = true;
  for (std::size_t i : json::GoMapOrder(
           v.keys.size(), [&](std::size_t k) -> const std::string& { return v.keys[k]; })) {
    if (!first) out->push_back(',');
    first = false;
    json::AppendGoString(out, v.keys[i]);
    out->push_back(':');
    Encode(*type.elem, v.items[i], out, unsupported);
  }
  out->push_back('}');
}

// A struct: its fields in declaration order, an empty omitempty one left out.
void EncodeStruct(const GoType& type, const GoValue& v, std::string* out, bool* unsupported) {
  out->push_back('{');
  bool first = true;
  for (std::size_t i = 0; i < type.fields.size(); ++i) {
    const GoField& f = type.fields[i];
    if (f.omitempty && IsEmpty(*f.type, v.items[i])) continue;
    if (!first) out->push_back(',');
    first = false;
    json::AppendGoString(out, f.json_name);
    out->push_back(':');
    Encode(*f.type, v.items[i], out, unsupported);
  }
  out->push_back('}');
}

// Writes `v` as json.Marshal does. Sets `*unsupported` on reaching a value
// of a type Go's encoder refuses (a func, say); nil pointers, slices and
// maps of one are written null, as Go writes them.
void Encode(const GoType& type, const GoValue& v, std::string* out, bool* unsupported) {
  switch (type.kind) {
    case GoKind::kBool:
      out->append(v.b ? "true" : "false");
      return;
    case GoKind::kInt: {
      char digits[24];
      const auto end = std::to_chars(digits, digits + sizeof digits, v.i).ptr;
      out->append(digits, end);
      return;
    }
    case GoKind::kString:
      json::AppendGoString(out, v.s);
      return;
    case GoKind::kBytes:
      EncodeBytes(v, out);
      return;
    case GoKind::kAny: {
      // Numbers were checked when decoded: this cannot fail.
      Status ignored = json::AppendJson(out, v.any, json::kGoAny);
      (void)ignored;
      return;
    }
    case GoKind::kPointer:
      if (v.items.empty()) {
        out->append("null");
      } else {
        Encode(*type.elem, v.items[0], out, unsupported);
      }
      return;
    case GoKind::kSlice:
      EncodeSlice(type, v, out, unsupported);
      return;
    case GoKind::kMap:
      EncodeMap(type, v, out, unsupported);
      return;
    case GoKind::kStruct:
      EncodeStruct(type, v, out, unsupported);
      return;
    case GoKind::kUnsupported:
      *unsupported = true;
      return;
  }
}

}  // namespace

Result<std::string> GoRoundTrip(const GoType& type, const json::Value& input,
                                std::vector<std::string>* undeclared_keys) {
  GoValue value = Zero(type);
  Decoder decoder(undeclared_keys);
  ZS_RETURN_IF_ERROR(decoder.Decode(type, input, &value));
  std::string out;
  bool unsupported = false;
  Encode(type, value, &out, &unsupported);
  if (unsupported)
    return Status::NotSupported("a value of a type Go cannot encode (" + type.name + ")");
  return out;
}

}  // namespace zs::internal
