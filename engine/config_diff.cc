#include "engine/config_diff.h"

#include <algorithm>
#include <cstddef>
#include <map>
#include <unordered_map>
#include <utility>

#include "json/go_json.h"
#include "json/string_escape.h"

namespace zs::engine {
namespace {

using json::Kind;
using json::Value;

// Appends `s` as a JSON string with only the escapes JSON requires.
void AppendPlainString(std::string* out, std::string_view s) {
  json::AppendJsonString(out, s, json::kMinimalEscaping);
}

void AppendDisplay(std::string* out, const Value& v) {
  switch (v.kind()) {
    case Kind::kNull:
      out->append("null");
      return;
    case Kind::kBool:
      out->append(v.as_bool() ? "true" : "false");
      return;
    case Kind::kNumber:
      out->append(v.number_raw());
      return;
    case Kind::kString:
      AppendPlainString(out, v.as_string());
      return;
    case Kind::kArray: {
      out->push_back('[');
      for (std::size_t i = 0; i < v.array().size(); ++i) {
        if (i > 0) out->push_back(',');
        AppendDisplay(out, v.array()[i]);
      }
      out->push_back(']');
      return;
    }
    case Kind::kObject: {
      out->push_back('{');
      bool first = true;
      for (const json::Member& m : v.object()) {
        if (!first) out->push_back(',');
        first = false;
        AppendPlainString(out, m.first);
        out->push_back(':');
        AppendDisplay(out, m.second);
      }
      out->push_back('}');
      return;
    }
  }
}

bool NeedsQuoting(std::string_view key) {
  if (key.empty()) return true;
  return std::any_of(key.begin(), key.end(), [](char ch) {
    const auto c = static_cast<unsigned char>(ch);
    return c < 0x20 || c == '.' || c == '[' || c == ']' || c == '"' ||
           c == '\\';
  });
}

void AppendKeyToPath(std::string* path, std::string_view key) {
  if (NeedsQuoting(key)) {
    path->push_back('[');
    AppendPlainString(path, key);
    path->push_back(']');
    return;
  }
  if (!path->empty()) path->push_back('.');
  path->append(key);
}

// The members of `object`, one per key (the last duplicate wins), ordered by
// key bytes. Pointers borrow from `object`.
std::map<std::string_view, const Value*> LastWins(const json::Object& object) {
  std::map<std::string_view, const Value*> out;
  for (const json::Member& m : object) out[m.first] = &m.second;
  return out;
}

// A copy of `v` fit to report: duplicate keys resolved (position of the first,
// value of the last) and the value of every secret key masked. Sets *masked
// when something was masked.
Value Redact(const Value& v, bool* masked) {
  if (v.is_array()) {
    json::Array items;
    items.reserve(v.array().size());
    for (const Value& item : v.array()) items.push_back(Redact(item, masked));
    return Value::MakeArray(std::move(items));
  }
  if (!v.is_object()) return v;
  json::Object members;
  std::unordered_map<std::string_view, std::size_t> index;
  for (const json::Member& m : v.object()) {
    Value copy;
    if (IsCredentialName(m.first)) {
      copy = Value::String(std::string(kRedacted));
      *masked = true;
    } else {
      copy = Redact(m.second, masked);
    }
    auto [it, inserted] = index.emplace(m.first, members.size());
    if (inserted) {
      members.emplace_back(m.first, std::move(copy));
    } else {
      members[it->second].second = std::move(copy);
    }
  }
  return Value::MakeObject(std::move(members));
}

// Appends "[i]". (Built piecewise: `"[" + std::to_string(i) + "]"` trips a
// GCC 12 -Wrestrict false positive at -O3.)
void AppendIndex(std::string* path, std::size_t i) {
  path->push_back('[');
  path->append(std::to_string(i));
  path->push_back(']');
}

// Fails on the first number that does not fit in a float64, naming its path.
Status CheckNumbers(const Value& v, std::string* path) {
  const std::size_t mark = path->size();
  switch (v.kind()) {
    case Kind::kNumber: {
      Result<double> d = json::NumberToFloat64(v.number_raw());
      if (!d.ok()) {
        return d.status().WithContext(path->empty() ? "(root)" : *path);
      }
      return Status::OK();
    }
    case Kind::kArray:
      for (std::size_t i = 0; i < v.array().size(); ++i) {
        AppendIndex(path, i);
        ZS_RETURN_IF_ERROR(CheckNumbers(v.array()[i], path));
        path->resize(mark);
      }
      return Status::OK();
    case Kind::kObject:
      for (const json::Member& m : v.object()) {
        AppendKeyToPath(path, m.first);
        ZS_RETURN_IF_ERROR(CheckNumbers(m.second, path));
        path->resize(mark);
      }
      return Status::OK();
    default:
      return Status::OK();
  }
}

// Walks both documents together, appending to *out. `path_` is the path of
// the values being compared; `secret` says whether a key above them is secret.
class Differ {
 public:
  explicit Differ(std::vector<ConfigChange>* out) : out_(out) {}

  Status Diff(const Value& a, const Value& b, bool secret) {
    if (a.kind() != b.kind()) {
      Report(ConfigChange::Kind::kChanged, &a, &b, secret);
      return Status::OK();
    }
    switch (a.kind()) {
      case Kind::kNull:
        return Status::OK();
      case Kind::kBool:
        if (a.as_bool() != b.as_bool()) {
          Report(ConfigChange::Kind::kChanged, &a, &b, secret);
        }
        return Status::OK();
      case Kind::kString:
        if (a.as_string() != b.as_string()) {
          Report(ConfigChange::Kind::kChanged, &a, &b, secret);
        }
        return Status::OK();
      case Kind::kNumber: {
        ZS_ASSIGN_OR_RETURN(double x, json::NumberToFloat64(a.number_raw()));
        ZS_ASSIGN_OR_RETURN(double y, json::NumberToFloat64(b.number_raw()));
        if (x != y) Report(ConfigChange::Kind::kChanged, &a, &b, secret);
        return Status::OK();
      }
      case Kind::kArray:
        return DiffArrays(a.array(), b.array(), secret);
      case Kind::kObject:
        return DiffObjects(a.object(), b.object(), secret);
    }
    return Status::OK();
  }

 private:
  Status DiffArrays(const json::Array& a, const json::Array& b, bool secret) {
    const std::size_t mark = path_.size();
    for (std::size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
      AppendIndex(&path_, i);
      if (i >= b.size()) {
        Report(ConfigChange::Kind::kRemoved, &a[i], nullptr, secret);
      } else if (i >= a.size()) {
        Report(ConfigChange::Kind::kAdded, nullptr, &b[i], secret);
      } else {
        ZS_RETURN_IF_ERROR(Diff(a[i], b[i], secret));
      }
      path_.resize(mark);
    }
    return Status::OK();
  }

  Status DiffObjects(const json::Object& a, const json::Object& b,
                     bool secret) {
    const auto old_members = LastWins(a);
    const auto new_members = LastWins(b);
    const std::size_t mark = path_.size();
    auto visit = [&](std::string_view key, const Value* x,
                     const Value* y) -> Status {
      // A null on one side and nothing on the other is the same to Zarf.
      if (x == nullptr && y->is_null()) return Status::OK();
      if (y == nullptr && x->is_null()) return Status::OK();
      AppendKeyToPath(&path_, key);
      const bool under_secret = secret || IsCredentialName(key);
      Status status;
      if (x == nullptr) {
        Report(ConfigChange::Kind::kAdded, nullptr, y, under_secret);
      } else if (y == nullptr) {
        Report(ConfigChange::Kind::kRemoved, x, nullptr, under_secret);
      } else {
        status = Diff(*x, *y, under_secret);
      }
      path_.resize(mark);
      return status;
    };
    for (const auto& [key, value] : old_members) {
      const auto it = new_members.find(key);
      ZS_RETURN_IF_ERROR(
          visit(key, value, it == new_members.end() ? nullptr : it->second));
    }
    for (const auto& [key, value] : new_members) {
      if (old_members.count(key) == 0) {
        ZS_RETURN_IF_ERROR(visit(key, nullptr, value));
      }
    }
    return Status::OK();
  }

  // Records a change at path_; a null pointer is the missing side.
  void Report(ConfigChange::Kind kind, const Value* a, const Value* b,
              bool secret) {
    ConfigChange change;
    change.kind = kind;
    change.path = path_;
    const Value masked_value = Value::String(std::string(kRedacted));
    if (secret) {
      change.masked = true;
      if (a != nullptr) change.old_value = masked_value;
      if (b != nullptr) change.new_value = masked_value;
    } else {
      if (a != nullptr) change.old_value = Redact(*a, &change.masked);
      if (b != nullptr) change.new_value = Redact(*b, &change.masked);
    }
    out_->push_back(std::move(change));
  }

  std::vector<ConfigChange>* out_;
  std::string path_;
};

}  // namespace

Result<std::vector<ConfigChange>> DiffConfigs(const json::Value& old_config,
                                              const json::Value& new_config) {
  std::string path;
  ZS_RETURN_IF_ERROR(CheckNumbers(old_config, &path).WithContext("old config"));
  ZS_RETURN_IF_ERROR(CheckNumbers(new_config, &path).WithContext("new config"));
  std::vector<ConfigChange> changes;
  Differ differ(&changes);
  ZS_RETURN_IF_ERROR(differ.Diff(old_config, new_config, /*secret=*/false));
  std::stable_sort(changes.begin(), changes.end(),
                   [](const ConfigChange& x, const ConfigChange& y) {
                     return x.path < y.path;
                   });
  return changes;
}

namespace {

// Whether a SetVariables value of `config` named `name` (in any case) was
// stored redacted.
bool StoredRedacted(const Value& config, const std::string& name) {
  const Value* vars = config.Find("SetVariables");
  if (vars == nullptr || !vars->is_object()) return false;
  for (const json::Member& m : vars->object()) {
    if (IsSensitiveVariable(m.first, {name}) && m.second.is_string() &&
        m.second.as_string() == kRedacted) {
      return true;
    }
  }
  return false;
}

// Masks the values of sensitive variables inside a reported value at
// `path` (the root, "SetVariables" or "SetVariables.<name>").
void MaskSensitive(ConfigChange* c, const std::vector<std::string>& sensitive) {
  constexpr std::string_view kPrefix = "SetVariables.";
  if (c->path.starts_with(kPrefix)) {
    if (!IsSensitiveVariable(std::string_view(c->path).substr(kPrefix.size()), sensitive)) return;
    c->masked = true;
    if (!c->old_value.is_null()) c->old_value = Value::String(std::string(kRedacted));
    if (!c->new_value.is_null()) c->new_value = Value::String(std::string(kRedacted));
    return;
  }
  for (Value* v : {&c->old_value, &c->new_value}) {
    if (c->path.empty()) {
      c->masked |= RedactSensitiveVariables(v, sensitive);
    } else if (c->path == "SetVariables") {
      Value wrapped = Value::MakeObject({{"SetVariables", *v}});
      if (RedactSensitiveVariables(&wrapped, sensitive)) {
        c->masked = true;
        *v = *wrapped.Find("SetVariables");
      }
    }
  }
}

}  // namespace

Result<std::vector<ConfigChange>> DiffRedactedConfigs(json::Value old_config,
                                                      std::string_view old_digest,
                                                      json::Value new_config,
                                                      std::string_view new_digest,
                                                      const std::vector<std::string>& sensitive) {
  // A value stored redacted is unknown: it compares equal to the other side.
  for (const std::string& name : sensitive) {
    if (StoredRedacted(old_config, name) || StoredRedacted(new_config, name)) {
      for (Value* config : {&old_config, &new_config}) {
        RedactSensitiveVariables(config, {name});
      }
    }
  }
  ZS_ASSIGN_OR_RETURN(std::vector<ConfigChange> changes, DiffConfigs(old_config, new_config));
  for (ConfigChange& c : changes) MaskSensitive(&c, sensitive);
  if (changes.empty() && old_digest != new_digest && !sensitive.empty()) {
    ConfigChange hidden;
    hidden.path = "SetVariables";
    hidden.old_value = Value::String(std::string(kRedacted));
    hidden.new_value = Value::String(std::string(kRedacted));
    hidden.masked = true;
    changes.push_back(std::move(hidden));
  }
  return changes;
}

std::string FormatChanges(const std::vector<ConfigChange>& changes) {
  std::string out;
  for (const ConfigChange& c : changes) {
    const std::string_view path =
        c.path.empty() ? std::string_view("(root)") : std::string_view(c.path);
    switch (c.kind) {
      case ConfigChange::Kind::kAdded:
        out.append("+ ").append(path).append(": ");
        AppendDisplay(&out, c.new_value);
        break;
      case ConfigChange::Kind::kRemoved:
        out.append("- ").append(path).append(": ");
        AppendDisplay(&out, c.old_value);
        break;
      case ConfigChange::Kind::kChanged:
        out.append("~ ").append(path).append(": ");
        AppendDisplay(&out, c.old_value);
        out.append(" -> ");
        AppendDisplay(&out, c.new_value);
        break;
    }
    out.push_back('\n');
  }
  return out;
}

}  // namespace zs::engine
