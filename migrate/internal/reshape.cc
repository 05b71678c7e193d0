#include "migrate/internal/reshape.h"

#include <cctype>
#include <charconv>
#include <cstdint>

#include "codec/go_json.h"
#include "codec/json_path.h"

namespace zs::migrate::internal {
namespace {

// "deployedComponents[3].installedCharts[0].status" ->
// "deployedComponents[*].installedCharts[*].status".
std::string Generalize(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    out.push_back(text[i]);
    if (text[i] != '[') continue;
    std::size_t j = i + 1;
    while (j < text.size() && std::isdigit(static_cast<unsigned char>(text[j]))) ++j;
    if (j > i + 1 && j < text.size() && text[j] == ']') {
      out.push_back('*');
      i = j - 1;
    }
  }
  return out;
}

std::string_view TypeName(const json::Value& v) { return json::KindName(v.kind()); }

// `path()` gives the value's path; it is built only for an error.
template <typename PathFn>
Status CheckType(const Field& f, const json::Value& v, const PathFn& path) {
  if (v.is_null()) return Status::OK();  // Go leaves the field unset
  auto mismatch = [&](std::string_view want) {
    return Status::InvalidArgument(path() + ": expected " + std::string(want) +
                                   ", got " + std::string(TypeName(v)));
  };
  switch (f.type) {
    case FieldType::kBool: return v.is_bool() ? Status::OK() : mismatch("boolean");
    case FieldType::kString: return v.is_string() ? Status::OK() : mismatch("string");
    case FieldType::kObject: return v.is_object() ? Status::OK() : mismatch("object");
    case FieldType::kArray: return v.is_array() ? Status::OK() : mismatch("array");
    case FieldType::kAny: return Status::OK();
    case FieldType::kInt: {
      if (!v.is_number()) return mismatch("integer");
      const std::string& raw = v.number_raw();
      std::int64_t parsed = 0;
      auto [end, ec] = std::from_chars(raw.data(), raw.data() + raw.size(), parsed);
      if (ec == std::errc::result_out_of_range) {
        return Status::InvalidArgument(path() + ": number " + raw + " overflows int64");
      }
      if (ec != std::errc() || end != raw.data() + raw.size()) {
        return Status::InvalidArgument(path() + ": number " + raw + " is not an integer");
      }
      return Status::OK();
    }
  }
  return Status::OK();
}

}  // namespace

void ChangeLog::Add(Counted* c, std::string text) {
  text = Generalize(text);
  if (c->count[text]++ == 0) c->order.push_back(std::move(text));
}

std::vector<std::string> ChangeLog::Render(const Counted& c) {
  std::vector<std::string> out;
  out.reserve(c.order.size());
  for (const std::string& text : c.order) {
    const int n = c.count.at(text);
    out.push_back(n == 1 ? text : text + " (x" + std::to_string(n) + ")");
  }
  return out;
}

void ChangeLog::Mapping(std::string text) { Add(&mappings_, std::move(text)); }
void ChangeLog::Warning(std::string text) { Add(&warnings_, std::move(text)); }

bool IsZero(const json::Value& v) {
  switch (v.kind()) {
    case json::Kind::kNull: return true;
    case json::Kind::kBool: return !v.as_bool();
    case json::Kind::kNumber: return v.number_raw() == "0";
    case json::Kind::kString: return v.as_string().empty();
    case json::Kind::kArray: return v.array().empty();
    case json::Kind::kObject:
      for (const json::Member& m : v.object()) {
        if (!IsZero(m.second)) return false;
      }
      return true;
  }
  return false;
}

json::Value ZeroValue(const Field& f) {
  switch (f.type) {
    case FieldType::kBool: return json::Value::Bool(false);
    case FieldType::kString: return json::Value::String("");
    case FieldType::kInt: return json::Value::Int(0);
    case FieldType::kObject: {
      json::Value obj = json::Value::MakeObject();
      if (f.sub != nullptr) {
        for (const Field& sub : f.sub->fields) {
          if (!sub.omitempty) obj.object().emplace_back(sub.key, ZeroValue(sub));
        }
      }
      return obj;
    }
    case FieldType::kArray:
    case FieldType::kAny: return json::Value::Null();
  }
  return json::Value::Null();
}

Status Reshape(json::Value* in_value, const Schema& target, std::string_view path,
               std::string_view shape, ChangeLog* log, json::Value* out) {
  json::Value& in = *in_value;
  if (!in.is_object()) {
    return Status::InvalidArgument((path.empty() ? std::string("payload") : std::string(path)) +
                                   ": expected object, got " + std::string(TypeName(in)));
  }
  const std::size_t n = target.fields.size();
  // placed[i]: the value for target field i; after[i + 1]: members that
  // followed field i in the input and are not target fields (after[0]: the
  // ones before any target field).
  std::vector<json::Value*> placed(n, nullptr);
  std::vector<json::Value> converted(n);
  std::vector<std::vector<json::Member*>> after(n + 1);
  int anchor = -1;
  for (json::Member& m : in.object()) {
    // The member's path, for messages and nested levels only: most members
    // need none, and building it for each was most of a migration's mallocs.
    auto p = [&] { return json::JoinPath(path, m.first); };
    int index = -1;
    const Field* f = target.Find(m.first, &index);
    if (f == nullptr) {
      if (target.KnownAnywhere(m.first)) {
        if (IsZero(m.second)) {
          log->Mapping("removed " + p() + " (empty; " + std::string(shape) + " has no such field)");
          continue;
        }
        log->Mapping("kept " + p() + " (" + std::string(shape) +
                     " has no such field; kept for a lossless migration back)");
      } else {
        log->Mapping("kept unknown field " + p());
      }
      after[anchor + 1].push_back(&m);
      continue;
    }
    ZS_RETURN_IF_ERROR(CheckType(*f, m.second, p));
    if (placed[index] != nullptr) {
      log->Warning(p() + " appears twice; the last one wins, as in Go");
    }
    placed[index] = &m.second;
    anchor = index;
    if (f->sub == nullptr || m.second.is_null()) continue;
    const std::string child = p();
    if (f->type == FieldType::kObject) {
      ZS_RETURN_IF_ERROR(Reshape(&m.second, *f->sub, child, shape, log, &converted[index]));
    } else {  // kArray
      converted[index] = json::Value::MakeArray();
      json::Array& items = m.second.array();
      converted[index].array().resize(items.size());
      std::string item_path;
      for (std::size_t k = 0; k < items.size(); ++k) {
        json::SetIndexPath(&item_path, child, k);
        ZS_RETURN_IF_ERROR(Reshape(&items[k], *f->sub, item_path, shape, log,
                                   &converted[index].array()[k]));
      }
    }
    placed[index] = &converted[index];
  }

  json::Object result;
  result.reserve(in.object().size() + n);
  for (json::Member* m : after[0]) result.push_back(std::move(*m));
  for (std::size_t i = 0; i < n; ++i) {
    const Field& f = target.fields[i];
    if (placed[i] != nullptr) {
      result.emplace_back(f.key, std::move(*placed[i]));
    } else if (!f.omitempty) {
      if (f.type == FieldType::kArray || f.type == FieldType::kAny) {
        log->Warning(json::JoinPath(path, f.key) + " is missing; Zarf writes it in every " +
                     std::string(shape) + " payload");
      } else {
        json::Value zero = ZeroValue(f);
        std::string shown;
        if (!zero.is_object()) (void)json::AppendJson(&shown, zero);
        log->Mapping("filled " + json::JoinPath(path, f.key) +
                     (zero.is_object() ? std::string(" with zero values") : " = " + shown) +
                     " (" + std::string(shape) + " always writes it)");
        result.emplace_back(f.key, std::move(zero));
      }
    }
    for (json::Member* m : after[i + 1]) result.push_back(std::move(*m));
  }
  *out = json::Value::MakeObject(std::move(result));
  return Status::OK();
}

bool Fits(const json::Value& in, const Schema& schema, std::string_view path, std::string* why) {
  if (!in.is_object()) return true;  // type errors are Reshape's to report
  for (const json::Member& m : in.object()) {
    const Field* f = schema.Find(m.first);
    if (f == nullptr) {
      if (schema.KnownAnywhere(m.first)) {
        *why = "has " + json::JoinPath(path, m.first);
        return false;
      }
      continue;
    }
    if (f->sub == nullptr) continue;
    const std::string p = json::JoinPath(path, m.first);
    if (f->type == FieldType::kObject && m.second.is_object()) {
      if (!Fits(m.second, *f->sub, p, why)) return false;
    } else if (f->type == FieldType::kArray && m.second.is_array()) {
      std::string item_path;
      for (std::size_t k = 0; k < m.second.array().size(); ++k) {
        json::SetIndexPath(&item_path, p, k);
        if (!Fits(m.second.array()[k], *f->sub, item_path, why)) return false;
      }
    }
  }
  for (const Field& f : schema.fields) {
    if (!f.omitempty && in.Find(f.key) == nullptr) {
      *why = "no " + json::JoinPath(path, f.key);
      return false;
    }
  }
  return true;
}

}  // namespace zs::migrate::internal
