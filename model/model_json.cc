#include "model/model_json.h"

#include "model/internal/object_io.h"
#include "json/go_json.h"
#include "json/json_path.h"
#include "json/json_reader.h"

namespace zs {
namespace {

using internal::DecodeInt64;
using internal::DecodeString;
using internal::DecodeTimestamp;
using internal::JoinPath;
using internal::MatchField;
using internal::ObjectWriter;
using internal::TypeError;

// Calls `on_field(index, member)` for each member of `v` that matches one of
// `fields`, records the rest in `unknown` with their anchors.
template <typename OnField>
Status WalkObject(const json::Value& v, std::string_view path,
                  std::initializer_list<std::string_view> fields,
                  UnknownFields* unknown, OnField on_field) {
  if (!v.is_object()) return TypeError(path, "object", v);
  unknown->absent = (std::uint64_t{1} << fields.size()) - 1;
  int last_known = -1;
  for (const json::Member& m : v.object()) {
    const int index = MatchField(m.first, fields);
    if (index < 0) {
      unknown->members.emplace_back(last_known, m);
      continue;
    }
    unknown->absent &= ~(std::uint64_t{1} << index);
    last_known = index;
    ZS_RETURN_IF_ERROR(on_field(index, m));
  }
  return Status::OK();
}

// DecodeString / DecodeTimestamp of member `f` of the object at `path`;
// the member's path is built only for an error.
Status DecodeStringMember(const json::Member& f, std::string_view path, std::string* out) {
  if (f.second.is_string()) {
    *out = f.second.as_string();
    return Status::OK();
  }
  return DecodeString(f.second, JoinPath(path, f.first), out);
}

Status DecodeTimestampMember(const json::Member& f, std::string_view path, Timestamp* out) {
  if (f.second.is_string()) {
    if (Result<Timestamp> t = ParseRfc3339(f.second.as_string()); t.ok()) {
      *out = *t;
      return Status::OK();
    }
  }
  return DecodeTimestamp(f.second, JoinPath(path, f.first), out);
}

Status DecodeConnectStrings(const json::Value& v, std::string_view path,
                            ConnectStrings* out) {
  if (v.is_null()) return Status::OK();
  if (!v.is_object()) return TypeError(path, "object", v);
  for (const json::Member& m : v.object()) {
    const json::PathOnStack p(path, m.first);
    ConnectString cs;
    ZS_RETURN_IF_ERROR(WalkObject(
        m.second, p, {"description", "url"}, &cs.unknown,
        [&](int i, const json::Member& f) {
          return DecodeStringMember(f, p, i == 0 ? &cs.description : &cs.url);
        }));
    (*out)[m.first] = std::move(cs);  // duplicate keys: the last one wins
  }
  return Status::OK();
}

bool IsZeroEvent(const ComponentEvent& e) {
  return e.type.empty() && e.outcome.empty() && e.timestamp.is_zero() && e.unknown.empty();
}

Status DecodeComponentEventInto(const json::Value& v, std::string_view path,
                                ComponentEvent* out) {
  return WalkObject(v, path, {"type", "outcome", "timestamp"}, &out->unknown,
                    [&](int i, const json::Member& f) {
                      switch (i) {
                        case 0: return DecodeStringMember(f, path, &out->type);
                        case 1: return DecodeStringMember(f, path, &out->outcome);
                        default: return DecodeTimestampMember(f, path, &out->timestamp);
                      }
                    });
}

Status DecodeInstalledChart(const json::Value& v, std::string_view path,
                            InstalledChart* out) {
  return WalkObject(
      v, path, {"namespace", "chartName", "connectStrings", "status"}, &out->unknown,
      [&](int i, const json::Member& f) {
        switch (i) {
          case 0: return DecodeStringMember(f, path, &out->namespace_);
          case 1: return DecodeStringMember(f, path, &out->chart_name);
          case 2:
            out->connect_strings.clear();
            return DecodeConnectStrings(f.second, json::PathOnStack(path, f.first),
                                        &out->connect_strings);
          default: return DecodeStringMember(f, path, &out->status);
        }
      });
}

// Decodes each of `items` (the array at `path`) into `*out`, replacing
// what it held.
template <typename T, typename DecodeOne>
Status DecodeItems(const json::Array& items, std::string_view path, std::vector<T>* out,
                   DecodeOne decode_one) {
  out->clear();
  out->resize(items.size());
  for (std::size_t i = 0; i < items.size(); ++i) {
    const json::PathOnStack item_path(path, i);
    ZS_RETURN_IF_ERROR(decode_one(items[i], item_path, &(*out)[i]));
  }
  return Status::OK();
}

template <typename T, typename DecodeOne>
Status DecodeSlice(const json::Value& v, std::string_view path,
                   std::optional<std::vector<T>>* out, DecodeOne decode_one) {
  if (v.is_null()) {
    out->reset();
    return Status::OK();
  }
  if (!v.is_array()) return TypeError(path, "array", v);
  std::vector<T> items;
  ZS_RETURN_IF_ERROR(DecodeItems(v.array(), path, &items, decode_one));
  *out = std::move(items);
  return Status::OK();
}

Status DecodeDeployedComponent(const json::Value& v, std::string_view path,
                               DeployedComponent* out) {
  return WalkObject(
      v, path, {"name", "installedCharts", "status", "observedGeneration", "lastEvent"},
      &out->unknown, [&](int i, const json::Member& f) -> Status {
        switch (i) {
          case 0: return DecodeStringMember(f, path, &out->name);
          case 1:
            return DecodeSlice(f.second, json::PathOnStack(path, f.first),
                               &out->installed_charts, DecodeInstalledChart);
          case 2: return DecodeStringMember(f, path, &out->status);
          case 3:
            return DecodeInt64(f.second, json::PathOnStack(path, f.first),
                               &out->observed_generation);
          default: {
            // Go's zero ComponentEvent (what a component with no event holds)
            // and null both read as "no event".
            out->last_event.reset();
            if (f.second.is_null()) return Status::OK();
            ComponentEvent e;
            ZS_RETURN_IF_ERROR(
                DecodeComponentEventInto(f.second, json::PathOnStack(path, f.first), &e));
            if (!IsZeroEvent(e)) out->last_event = std::move(e);
            return Status::OK();
          }
        }
      });
}

void AppendConnectStrings(std::string* out, const ConnectStrings& cs) {
  out->push_back('{');
  bool first = true;
  for (const auto& [key, value] : cs) {  // std::map: already in byte order
    if (!first) out->push_back(',');
    first = false;
    json::AppendGoString(out, key);
    out->push_back(':');
    ObjectWriter w(out, &value.unknown);
    w.String(0, "description", value.description);
    w.String(1, "url", value.url);
    w.Finish();
  }
  out->push_back('}');
}

void AppendInstalledChart(std::string* out, const InstalledChart& c) {
  ObjectWriter w(out, &c.unknown);
  w.String(0, "namespace", c.namespace_);
  w.String(1, "chartName", c.chart_name);
  if (!c.connect_strings.empty()) {
    AppendConnectStrings(w.Key(2, "connectStrings"), c.connect_strings);
  }
  w.Skip(2);
  w.String(3, "status", c.status);
  w.Finish();
}

void AppendDeployedComponent(std::string* out, const DeployedComponent& c) {
  ObjectWriter w(out, &c.unknown);
  w.String(0, "name", c.name);
  if (!c.installed_charts) {
    if (!w.absent(1)) w.Key(1, "installedCharts")->append("null");
  } else {
    AppendInstalledCharts(w.Key(1, "installedCharts"), *c.installed_charts);
  }
  w.Skip(1);
  w.String(2, "status", c.status);
  w.Int(3, "observedGeneration", c.observed_generation);
  // A struct in Go, so always written: the zero event when there is none
  // (only a legacy input that never had the key goes without).
  if (c.last_event) {
    AppendComponentEvent(w.Key(4, "lastEvent"), *c.last_event);
  } else if (!w.absent(4)) {
    AppendComponentEvent(w.Key(4, "lastEvent"), ComponentEvent{});
  }
  w.Skip(4);
  w.Finish();
}

}  // namespace

namespace {

Status DecodePackageEventInto(const json::Value& v, std::string_view path, PackageEvent* e) {
  return WalkObject(
      v, path,
      {"type", "outcome", "timestamp", "version", "flavor", "digest", "source",
       "configDigest"},
      &e->unknown, [&](int i, const json::Member& f) {
        std::string* fields[] = {&e->type,   &e->outcome, nullptr,    &e->version,
                                 &e->flavor, &e->digest,  &e->source, &e->config_digest};
        if (i == 2) return DecodeTimestampMember(f, path, &e->timestamp);
        return DecodeStringMember(f, path, fields[i]);
      });
}

}  // namespace

Result<PackageEvent> DecodePackageEvent(const json::Value& v, std::string_view path) {
  PackageEvent e;
  ZS_RETURN_IF_ERROR(DecodePackageEventInto(v, path, &e));
  return e;
}

void AppendPackageEvent(std::string* out, const PackageEvent& e) {
  ObjectWriter w(out, &e.unknown);
  w.String(0, "type", e.type);
  w.String(1, "outcome", e.outcome);
  w.Time(2, "timestamp", e.timestamp);
  w.OmitEmptyString(3, "version", e.version);
  w.OmitEmptyString(4, "flavor", e.flavor);
  w.OmitEmptyString(5, "digest", e.digest);
  w.OmitEmptyString(6, "source", e.source);
  w.OmitEmptyString(7, "configDigest", e.config_digest);
  w.Finish();
}

Result<ComponentEvent> DecodeComponentEvent(const json::Value& v, std::string_view path) {
  ComponentEvent e;
  ZS_RETURN_IF_ERROR(DecodeComponentEventInto(v, path, &e));
  return e;
}

void AppendInstalledCharts(std::string* out, const std::vector<InstalledChart>& charts) {
  out->push_back('[');
  for (std::size_t i = 0; i < charts.size(); ++i) {
    if (i != 0) out->push_back(',');
    AppendInstalledChart(out, charts[i]);
  }
  out->push_back(']');
}

Result<std::vector<InstalledChart>> DecodeInstalledCharts(const json::Value& v,
                                                          std::string_view path) {
  std::optional<std::vector<InstalledChart>> charts;
  ZS_RETURN_IF_ERROR(DecodeSlice(v, path, &charts, DecodeInstalledChart));
  return charts ? std::move(*charts) : std::vector<InstalledChart>{};
}

void AppendComponentEvent(std::string* out, const ComponentEvent& e) {
  ObjectWriter w(out, &e.unknown);
  w.String(0, "type", e.type);
  w.String(1, "outcome", e.outcome);
  w.Time(2, "timestamp", e.timestamp);
  w.Finish();
}

Result<DeployedPackage> DecodeDeployedPackage(const json::Value& v) {
  DeployedPackage pkg;
  ZS_RETURN_IF_ERROR(WalkObject(
      v, "",
      {"name", "digest", "data", "cliVersion", "generation", "deployedComponents",
       "connectStrings", "packageConnectivity", "namespaceOverride", "events",
       "deployConfig", "configDigest"},
      &pkg.unknown, [&](int i, const json::Member& f) -> Status {
        const std::string& p = f.first;
        switch (i) {
          case 0: return DecodeString(f.second, p, &pkg.name);
          case 1: return DecodeString(f.second, p, &pkg.digest);
          case 2:
            if (f.second.is_null()) return Status::OK();
            if (!f.second.is_object()) return TypeError(p, "object", f.second);
            pkg.data = f.second;
            return Status::OK();
          case 3: return DecodeString(f.second, p, &pkg.cli_version);
          case 4: return DecodeInt64(f.second, p, &pkg.generation);
          case 5:
            return DecodeSlice(f.second, p, &pkg.deployed_components,
                               DecodeDeployedComponent);
          case 6:
            pkg.connect_strings.clear();
            return DecodeConnectStrings(f.second, p, &pkg.connect_strings);
          case 7: return DecodeString(f.second, p, &pkg.package_connectivity);
          case 8: return DecodeString(f.second, p, &pkg.namespace_override);
          case 9: {
            if (f.second.is_null()) {
              pkg.events.clear();
              return Status::OK();
            }
            if (!f.second.is_array()) return TypeError(p, "array", f.second);
            return DecodeItems(f.second.array(), p, &pkg.events, DecodePackageEventInto);
          }
          case 10:
            if (f.second.is_null()) {
              pkg.deploy_config.reset();
              return Status::OK();
            }
            if (!f.second.is_object()) return TypeError(p, "object", f.second);
            pkg.deploy_config = f.second;
            return Status::OK();
          default: return DecodeString(f.second, p, &pkg.config_digest);
        }
      }));
  return pkg;
}

namespace {

// DefinitionParts::kSummary as a json::Selection. The names are matched
// exactly, as the engine's lookups in the definition match them.
const json::Selection& DefinitionSummary() {
  static const json::Selection component{{{"name"}, {"images"}}, false};
  static const json::Selection definition{{{"metadata"}, {"components", &component}}, false};
  static const json::Selection package{{{"data", &definition}}, true};
  return package;
}

}  // namespace

Result<DeployedPackage> ParseDeployedPackage(std::string_view json_text,
                                             std::size_t readable_padding,
                                             DefinitionParts parts) {
  json::ParseOptions options;
  options.readable_padding = readable_padding;
  ZS_ASSIGN_OR_RETURN(json::Value v, parts == DefinitionParts::kSummary
                                         ? json::ParseJsonSelected(json_text, DefinitionSummary(), options)
                                         : json::ParseJson(json_text, options));
  // The package definition is most of a payload; the parsed tree is ours,
  // so it is moved into the result instead of copied. Only for the common
  // shape (one `data` member, an object): duplicates take the copying path.
  json::Value* data = nullptr;
  if (v.is_object()) {
    for (json::Member& m : v.object()) {
      if (MatchField(m.first, {"data"}) != 0) continue;
      if (data != nullptr) {
        data = nullptr;
        break;
      }
      data = &m.second;
      if (!data->is_object()) break;
    }
  }
  if (data == nullptr || !data->is_object()) return DecodeDeployedPackage(v);
  json::Value saved = std::move(*data);
  *data = json::Value::MakeObject();
  ZS_ASSIGN_OR_RETURN(DeployedPackage pkg, DecodeDeployedPackage(v));
  pkg.data = std::move(saved);
  return pkg;
}

std::string EncodeDeployedPackage(const DeployedPackage& pkg) {
  std::string out;
  out.reserve(4096);
  ObjectWriter w(&out, &pkg.unknown);
  w.String(0, "name", pkg.name);
  w.String(1, "digest", pkg.digest);  // no omitempty: "" when unknown
  Status ignored;  // raw numbers: AppendJson cannot fail
  if (!w.absent(2) || !pkg.data.is_object() || !pkg.data.object().empty()) {
    ignored = json::AppendJson(w.Key(2, "data"), pkg.data);
  }
  w.Skip(2);
  w.String(3, "cliVersion", pkg.cli_version);
  w.Int(4, "generation", pkg.generation);
  std::string* o = nullptr;
  if (!pkg.deployed_components) {
    if (!w.absent(5)) w.Key(5, "deployedComponents")->append("null");
  } else {
    o = w.Key(5, "deployedComponents");
    o->push_back('[');
    for (std::size_t i = 0; i < pkg.deployed_components->size(); ++i) {
      if (i != 0) o->push_back(',');
      AppendDeployedComponent(o, (*pkg.deployed_components)[i]);
    }
    o->push_back(']');
  }
  w.Skip(5);
  if (!pkg.connect_strings.empty()) {
    AppendConnectStrings(w.Key(6, "connectStrings"), pkg.connect_strings);
  }
  w.Skip(6);
  w.String(7, "packageConnectivity", pkg.package_connectivity);
  w.OmitEmptyString(8, "namespaceOverride", pkg.namespace_override);
  if (!pkg.events.empty()) {
    o = w.Key(9, "events");
    o->push_back('[');
    for (std::size_t i = 0; i < pkg.events.size(); ++i) {
      if (i != 0) o->push_back(',');
      AppendPackageEvent(o, pkg.events[i]);
    }
    o->push_back(']');
  }
  w.Skip(9);
  if (pkg.deploy_config) {
    ignored = json::AppendJson(w.Key(10, "deployConfig"), *pkg.deploy_config);
  }
  w.Skip(10);
  w.OmitEmptyString(11, "configDigest", pkg.config_digest);
  w.Finish();
  return out;
}

void MarkGoWritten(DeployedPackage* pkg) {
  pkg->unknown.absent = 0;
  for (PackageEvent& e : pkg->events) e.unknown.absent = 0;
  for (auto& [name, cs] : pkg->connect_strings) cs.unknown.absent = 0;
  if (!pkg->deployed_components) return;
  for (DeployedComponent& c : *pkg->deployed_components) {
    c.unknown.absent = 0;
    if (c.last_event) c.last_event->unknown.absent = 0;
    if (!c.installed_charts) continue;
    for (InstalledChart& chart : *c.installed_charts) {
      chart.unknown.absent = 0;
      for (auto& [name, cs] : chart.connect_strings) cs.unknown.absent = 0;
    }
  }
}

const DeployedComponent* DeployedPackage::FindComponent(std::string_view component) const {
  if (!deployed_components) return nullptr;
  for (const DeployedComponent& c : *deployed_components) {
    if (c.name == component) return &c;
  }
  return nullptr;
}

DeployedComponent* DeployedPackage::FindComponent(std::string_view component) {
  return const_cast<DeployedComponent*>(
      static_cast<const DeployedPackage*>(this)->FindComponent(component));
}

std::string PackageSecretName(std::string_view package,
                              std::string_view namespace_override) {
  std::string name = "zarf-package-";
  name += package;
  if (!namespace_override.empty()) {
    name += "-override-";
    name += namespace_override;
  }
  return name;
}

}  // namespace zs
