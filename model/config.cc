#include "model/config.h"

#include "model/internal/object_io.h"
#include "json/canonical_json.h"
#include "json/go_json.h"
#include "json/json_reader.h"

namespace zs {
namespace {

Result<std::string> DigestMarshaled(const Result<std::string>& marshaled) {
  if (!marshaled.ok()) return marshaled.status();
  ZS_ASSIGN_OR_RETURN(json::Value doc, json::ParseJson(*marshaled));
  return json::CanonicalDigest(doc);
}

using internal::DecodeString;
using internal::JoinPath;
using internal::MatchField;
using internal::TypeError;

// Decodes a JSON object into a Go map[string]any held as a json::Value.
// `merge_into` is the map decoded so far for this field (Go reuses a non-nil
// map), or nullopt.
Status DecodeAnyMap(const json::Value& v, std::string_view path,
                    std::optional<json::Value>* out) {
  if (v.is_null()) {
    out->reset();
    return Status::OK();
  }
  if (!v.is_object()) return TypeError(path, "object", v);
  if (!out->has_value()) *out = json::Value::MakeObject();
  for (const json::Member& m : v.object()) (*out)->Set(m.first, m.second);
  return Status::OK();
}

// map[string]map[string]map[string]any: the outer map merges like any map
// field; inner maps are fresh per key (Go zeroes a map element before
// decoding into it), and each must be an object or null. Every level is
// checked before anything is decoded.
Status DecodeOverrides(const json::Value& v, std::string_view path,
                       std::optional<json::Value>* out) {
  if (v.is_object()) {
    for (const json::Member& component : v.object()) {
      const json::Value& charts = component.second;
      if (charts.is_null()) continue;
      const std::string cpath = JoinPath(path, component.first);
      if (!charts.is_object()) return TypeError(cpath, "object", charts);
      for (const json::Member& chart : charts.object()) {
        if (!chart.second.is_null() && !chart.second.is_object()) {
          return TypeError(JoinPath(cpath, chart.first), "object", chart.second);
        }
      }
    }
  }
  return DecodeAnyMap(v, path, out);
}

Status DecodeStringMap(const json::Value& v, std::string_view path,
                       std::optional<std::map<std::string, std::string>>* out) {
  if (v.is_null()) {
    out->reset();
    return Status::OK();
  }
  if (!v.is_object()) return TypeError(path, "object", v);
  if (!out->has_value()) out->emplace();
  for (const json::Member& m : v.object()) {
    std::string s;
    ZS_RETURN_IF_ERROR(DecodeString(m.second, JoinPath(path, m.first), &s));
    (**out)[m.first] = std::move(s);
  }
  return Status::OK();
}

Status AppendNullableMap(std::string* out, const std::optional<json::Value>& map) {
  if (!map) {
    out->append("null");
    return Status::OK();
  }
  return json::AppendJson(out, *map, json::kGoAny);
}

}  // namespace

Result<DeployConfig> DecodeDeployConfig(const json::Value& v) {
  DeployConfig c;
  if (v.is_null()) return c;
  if (!v.is_object()) return TypeError("DeployConfig", "object", v);
  for (const json::Member& m : v.object()) {
    const int i = MatchField(
        m.first, {"SetVariables", "Values", "NamespaceOverride", "ValuesOverridesMap"});
    switch (i) {
      case 0: ZS_RETURN_IF_ERROR(DecodeStringMap(m.second, m.first, &c.set_variables)); break;
      case 1: ZS_RETURN_IF_ERROR(DecodeAnyMap(m.second, m.first, &c.values)); break;
      case 2:
        ZS_RETURN_IF_ERROR(DecodeString(m.second, m.first, &c.namespace_override));
        break;
      case 3:
        ZS_RETURN_IF_ERROR(DecodeOverrides(m.second, m.first, &c.values_overrides_map));
        break;
      default: break;  // Go ignores unknown members
    }
  }
  return c;
}

Result<RemoveConfig> DecodeRemoveConfig(const json::Value& v) {
  RemoveConfig c;
  if (v.is_null()) return c;
  if (!v.is_object()) return TypeError("RemoveConfig", "object", v);
  for (const json::Member& m : v.object()) {
    switch (MatchField(m.first, {"Values", "NamespaceOverride"})) {
      case 0: ZS_RETURN_IF_ERROR(DecodeAnyMap(m.second, m.first, &c.values)); break;
      case 1:
        ZS_RETURN_IF_ERROR(DecodeString(m.second, m.first, &c.namespace_override));
        break;
      default: break;
    }
  }
  return c;
}

Result<std::string> MarshalDeployConfig(const DeployConfig& c) {
  std::string out = "{\"SetVariables\":";
  if (!c.set_variables) {
    out += "null";
  } else {
    out += '{';
    bool first = true;
    for (const auto& [k, v] : *c.set_variables) {
      if (!first) out += ',';
      first = false;
      json::AppendGoString(&out, k);
      out += ':';
      json::AppendGoString(&out, v);
    }
    out += '}';
  }
  out += ",\"Values\":";
  ZS_RETURN_IF_ERROR(AppendNullableMap(&out, c.values).WithContext("Values"));
  out += ",\"NamespaceOverride\":";
  json::AppendGoString(&out, c.namespace_override);
  out += ",\"ValuesOverridesMap\":";
  ZS_RETURN_IF_ERROR(
      AppendNullableMap(&out, c.values_overrides_map).WithContext("ValuesOverridesMap"));
  out += '}';
  return out;
}

Result<std::string> MarshalRemoveConfig(const RemoveConfig& c) {
  std::string out = "{\"Values\":";
  ZS_RETURN_IF_ERROR(AppendNullableMap(&out, c.values).WithContext("Values"));
  out += ",\"NamespaceOverride\":";
  json::AppendGoString(&out, c.namespace_override);
  out += '}';
  return out;
}

Result<std::string> DeployConfigDigest(const DeployConfig& config) {
  ZS_ASSIGN_OR_RETURN(std::string bytes, MarshalDeployConfig(config));
  return Sha256Digest(bytes);
}

Result<std::string> RemoveConfigDigest(const RemoveConfig& config) {
  ZS_ASSIGN_OR_RETURN(std::string bytes, MarshalRemoveConfig(config));
  return Sha256Digest(bytes);
}

Result<std::string> CanonicalDeployConfigDigest(const DeployConfig& config) {
  return DigestMarshaled(MarshalDeployConfig(config));
}

Result<std::string> CanonicalRemoveConfigDigest(const RemoveConfig& config) {
  return DigestMarshaled(MarshalRemoveConfig(config));
}

}  // namespace zs
