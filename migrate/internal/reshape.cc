#include "migrate/internal/reshape.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <cstring>

#include "json/go_json.h"
#include "json/json_path.h"

namespace zs::migrate::internal {
namespace {

// "deployedComponents[3].installedCharts[0].status" ->
// "deployedComponents[*].installedCharts[*].status", in place.
void Generalize(std::string* text) {
  std::string& t = *text;
  std::size_t r = t.find('[');
  std::size_t w = r;
  while (r < t.size()) {  // t[r] is '['
    t[w++] = '[';
    std::size_t j = r + 1;
    while (j < t.size() && std::isdigit(static_cast<unsigned char>(t[j]))) ++j;
    if (j > r + 1 && j < t.size() && t[j] == ']') {
      t[w++] = '*';
      r = j;
    } else {
      ++r;
    }
    const std::size_t next = std::min(t.find('[', r), t.size());
    std::memmove(t.data() + w, t.data() + r, next - r);
    w += next - r;
    r = next;
  }
  if (w != std::string::npos) t.resize(w);
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
    case FieldType::kString:
    case FieldType::kTime: return v.is_string() ? Status::OK() : mismatch("string");
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

void ChangeLog::Add(Counted* c, std::string_view text) {
  // Most steps repeat one seen before (once per item of an array): those
  // are counted without a copy of their own.
  key_.assign(text);
  Generalize(&key_);
  if (auto it = c->count.find(key_); it != c->count.end()) {
    ++it->second;
    return;
  }
  c->count.emplace(key_, 1);
  c->order.push_back(key_);
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

void ChangeLog::Mapping(std::string_view text) { Add(&mappings_, text); }
void ChangeLog::Warning(std::string_view text) { Add(&warnings_, text); }

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
    case FieldType::kTime: return json::Value::String("0001-01-01T00:00:00Z");
    case FieldType::kObject: {
      json::Value obj = json::Value::MakeObject();
      if (f.sub != nullptr) {
        obj.object().reserve(f.sub->fields.size());
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

namespace {

// A path walked down, as links on the stack: rendered into text only for
// an error, or for the one member that makes a payload not fit.
struct PathLink {
  const PathLink* parent;
  bool is_item;            // an array item (index) or a member (field)
  std::string_view field;
  std::size_t index;
};

std::string Render(std::string_view root, const PathLink* link) {
  if (link == nullptr) return std::string(root);
  const std::string parent = Render(root, link->parent);
  return link->is_item ? json::IndexPath(parent, link->index)
                       : json::JoinPath(parent, link->field);
}

// What a Reshape carries down its walk. The log counts the items of an
// array as one step, so its messages name a path with every index "[*]":
// `log_path` is that path of the object being reshaped, grown and cut back
// as the walk goes down and up (built once per level, never per item), and
// `message` the buffer each message is built in. A path with its indices
// is rendered from PathLinks only for an error.
struct Walk {
  std::string_view root;  // the reshaped value's own path
  std::string_view shape;
  ChangeLog* log;
  std::string log_path;
  std::string message;

  // `message` set to `prefix` and the log's path of member `key`.
  std::string& Start(std::string_view prefix, std::string_view key) {
    message.assign(prefix);
    json::AppendJoinedPath(&message, log_path, key);
    return message;
  }
};

Status ReshapeAt(json::Value* in_value, const Schema& target, const PathLink* at, Walk* w,
                 json::Value* out);

// Input members that are not target fields, each with the index of the
// target field it followed in the input (-1: none yet), in input order.
using Extras = std::vector<std::pair<int, json::Member*>>;

// Reshapes the value of member `m` of the object at `at`, target field `f`
// (an object or an array of objects), in place.
Status ReshapeChild(const Field& f, json::Member* m, const PathLink* at, Walk* w) {
  const PathLink member{at, false, m->first, 0};
  const std::size_t mark = w->log_path.size();
  if (mark > 0) w->log_path.push_back('.');
  w->log_path.append(m->first);
  json::Value reshaped;
  Status status;
  if (f.type == FieldType::kObject) {
    status = ReshapeAt(&m->second, *f.sub, &member, w, &reshaped);
  } else {  // kArray
    w->log_path.append("[*]");
    reshaped = json::Value::MakeArray();
    json::Array& items = m->second.array();
    reshaped.array().resize(items.size());
    for (std::size_t k = 0; k < items.size() && status.ok(); ++k) {
      const PathLink item{&member, true, {}, k};
      status = ReshapeAt(&items[k], *f.sub, &item, w, &reshaped.array()[k]);
    }
  }
  w->log_path.resize(mark);
  ZS_RETURN_IF_ERROR(status);
  m->second = std::move(reshaped);
  return Status::OK();
}

// Sorts the members of object `in` (at `at`): placed[i] gets the member
// holding target field i, its value type-checked and reshaped in place;
// `extras` the members that are not target fields (an empty one of a field
// another shape has is dropped).
Status PlaceMembers(json::Value* in, const Schema& target, const PathLink* at, Walk* w,
                    json::Member** placed, Extras* extras) {
  ChangeLog* log = w->log;
  int anchor = -1;
  for (json::Member& m : in->object()) {
    const std::string_view key = m.first;
    int index = -1;
    const Field* f = target.Find(key, &index, static_cast<std::size_t>(anchor + 1));
    if (f == nullptr) {
      if (target.KnownAnywhere(key)) {
        if (IsZero(m.second)) {
          log->Mapping(w->Start("removed ", key)
                           .append(" (empty; ")
                           .append(w->shape)
                           .append(" has no such field)"));
          continue;
        }
        log->Mapping(w->Start("kept ", key)
                         .append(" (")
                         .append(w->shape)
                         .append(" has no such field; kept for a lossless migration back)"));
      } else {
        log->Mapping(w->Start("kept unknown field ", key));
      }
      extras->emplace_back(anchor, &m);
      continue;
    }
    ZS_RETURN_IF_ERROR(
        CheckType(*f, m.second, [&] { return json::JoinPath(Render(w->root, at), key); }));
    if (placed[index] != nullptr) {
      log->Warning(w->Start("", key).append(" appears twice; the last one wins, as in Go"));
    }
    placed[index] = &m;
    anchor = index;
    if (f->sub == nullptr || m.second.is_null()) continue;
    ZS_RETURN_IF_ERROR(ReshapeChild(*f, &m, at, w));
  }
  return Status::OK();
}

// The target's fields in its order, each followed by the extras that
// followed it in the input; a missing field that is not omitempty is filled
// with its zero value (or, for an array or any, reported).
json::Object Assemble(const Schema& target, Walk* w, json::Member** placed, Extras& extras,
                      std::size_t input_size) {
  const std::size_t n = target.fields.size();
  json::Object result;
  result.reserve(input_size + n);
  auto append_extras = [&](int after) {
    for (auto& [a, m] : extras) {
      if (a == after) result.push_back(std::move(*m));
    }
  };
  append_extras(-1);
  for (std::size_t i = 0; i < n; ++i) {
    const Field& f = target.fields[i];
    if (placed[i] != nullptr) {
      // The input's key is the field's key (Find matches exactly).
      result.push_back(std::move(*placed[i]));
    } else if (!f.omitempty) {
      if (f.type == FieldType::kArray || f.type == FieldType::kAny) {
        w->log->Warning(w->Start("", f.key)
                            .append(" is missing; Zarf writes it in every ")
                            .append(w->shape)
                            .append(" payload"));
      } else {
        json::Value zero = ZeroValue(f);
        std::string& filled = w->Start("filled ", f.key);
        if (zero.is_object()) {
          filled.append(" with zero values");
        } else {
          filled.append(" = ");
          (void)json::AppendJson(&filled, zero);
        }
        filled.append(" (").append(w->shape).append(" always writes it)");
        w->log->Mapping(filled);
        result.emplace_back(f.key, std::move(zero));
      }
    }
    if (!extras.empty()) append_extras(static_cast<int>(i));
  }
  return result;
}

Status ReshapeAt(json::Value* in_value, const Schema& target, const PathLink* at, Walk* w,
                 json::Value* out) {
  json::Value& in = *in_value;
  if (!in.is_object()) {
    const std::string path = Render(w->root, at);
    return Status::InvalidArgument((path.empty() ? std::string("payload") : path) +
                                   ": expected object, got " + std::string(TypeName(in)));
  }
  const std::size_t n = target.fields.size();
  // placed[i]: the input member holding target field i. Schemas have a few
  // dozen fields at most; a larger one takes the heap.
  constexpr std::size_t kInline = 32;
  json::Member* placed_inline[kInline];
  std::vector<json::Member*> placed_heap;
  json::Member** placed = placed_inline;
  if (n > kInline) {
    placed_heap.assign(n, nullptr);
    placed = placed_heap.data();
  } else {
    std::fill_n(placed_inline, n, nullptr);
  }
  Extras extras;
  ZS_RETURN_IF_ERROR(PlaceMembers(&in, target, at, w, placed, &extras));
  *out = json::Value::MakeObject(Assemble(target, w, placed, extras, in.object().size()));
  return Status::OK();
}

}  // namespace

Status Reshape(json::Value* in, const Schema& target, std::string_view path,
               std::string_view shape, ChangeLog* log, json::Value* out) {
  Walk w{path, shape, log, std::string(path), {}};
  return ReshapeAt(in, target, nullptr, &w, out);
}

namespace {

bool FitsAt(const json::Value& in, const Schema& schema, std::string_view root,
            const PathLink* at, std::string* why) {
  if (!in.is_object()) return true;  // type errors are Reshape's to report
  // Which of the first 64 fields the object has (schemas have a few dozen
  // at most; any further ones are looked up below).
  std::uint64_t present = 0;
  std::size_t next = 0;  // where the field of the next member is looked for first
  for (const json::Member& m : in.object()) {
    int index = -1;
    const Field* f = schema.Find(m.first, &index, next);
    if (f == nullptr) {
      if (schema.KnownAnywhere(m.first)) {
        *why = "has " + json::JoinPath(Render(root, at), m.first);
        return false;
      }
      continue;
    }
    next = static_cast<std::size_t>(index) + 1;
    if (index < 64) present |= std::uint64_t{1} << index;
    if (f->sub == nullptr) continue;
    const PathLink member{at, false, m.first, 0};
    if (f->type == FieldType::kObject && m.second.is_object()) {
      if (!FitsAt(m.second, *f->sub, root, &member, why)) return false;
    } else if (f->type == FieldType::kArray && m.second.is_array()) {
      for (std::size_t k = 0; k < m.second.array().size(); ++k) {
        const PathLink item{&member, true, {}, k};
        if (!FitsAt(m.second.array()[k], *f->sub, root, &item, why)) return false;
      }
    }
  }
  for (std::size_t i = 0; i < schema.fields.size(); ++i) {
    const Field& f = schema.fields[i];
    const bool has = i < 64 ? (present >> i & 1) != 0 : in.Find(f.key) != nullptr;
    if (!f.omitempty && !has) {
      *why = "no " + json::JoinPath(Render(root, at), f.key);
      return false;
    }
  }
  return true;
}

}  // namespace

bool Fits(const json::Value& in, const Schema& schema, std::string_view path, std::string* why) {
  return FitsAt(in, schema, path, nullptr, why);
}

}  // namespace zs::migrate::internal
