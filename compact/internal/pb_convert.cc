#include "compact/internal/pb_convert.h"

#include <simdjson.h>

#include <string>
#include <string_view>

#include "base/memory_budget.h"
#include "compact/internal/format.h"
#include "json/go_json.h"
#include "json/json_reader.h"

namespace zs::compact::internal {
namespace {

namespace format = ::zs::compact::internal;
using RepeatedUnknown = google::protobuf::RepeatedPtrField<pb::UnknownMember>;
using RepeatedConnect = google::protobuf::RepeatedPtrField<pb::ConnectString>;

// ---------------------------------------------------------------- model -> pb

bool ValidUtf8(const std::string& s) {
  return simdjson::validate_utf8(s.data(), s.size());
}

// How a free-JSON value can be written: checks the limits the reader will
// apply and, unless `utf8` is null, whether every string and key is valid
// UTF-8 (JSON text needs it). `depth` is the value's own nesting level, 1 for
// the root.
Status Inspect(const json::Value& v, int depth, bool* utf8) {
  if (depth > format::kMaxJsonDepth) {
    return Status::InvalidArgument("compact: JSON nested deeper than " +
                                   std::to_string(format::kMaxJsonDepth) +
                                   " levels");
  }
  switch (v.kind()) {
    case json::Kind::kNumber:
      if (!json::IsValidNumber(v.number_raw())) {
        return Status::InvalidArgument("compact: invalid JSON number \"" +
                                       v.number_raw() + "\"");
      }
      break;
    case json::Kind::kString:
      if (utf8 != nullptr) *utf8 = *utf8 && ValidUtf8(v.as_string());
      break;
    case json::Kind::kArray:
      for (const json::Value& item : v.array()) {
        ZS_RETURN_IF_ERROR(Inspect(item, depth + 1, utf8));
      }
      break;
    case json::Kind::kObject:
      for (const json::Member& m : v.object()) {
        if (utf8 != nullptr) *utf8 = *utf8 && ValidUtf8(m.first);
        ZS_RETURN_IF_ERROR(Inspect(m.second, depth + 1, utf8));
      }
      break;
    default:
      break;
  }
  return Status::OK();
}

// Writes `v` as JSON text when it can, else in the structured form, whose
// children each choose again (event.proto, FORMAT.md).
//
// The text is written first and checked after: Go's writer turns invalid
// UTF-8 into the escape \ufffd and writes a valid U+FFFD raw, so a text
// without that escape came from valid strings only. With it (or with an
// escaped backslash followed by "ufffd"), every string is checked; strings
// that are not UTF-8 are rare, so the repeated Inspect of a structured path
// costs nothing in practice.
Status PutJson(const json::Value& v, int depth, pb::JsonValue* out) {
  ZS_RETURN_IF_ERROR(Inspect(v, depth, nullptr));
  std::string* text = out->mutable_json();
  Status ignored = json::AppendJson(text, v);  // raw numbers: cannot fail
  (void)ignored;
  if (text->find("\\ufffd") == std::string::npos) return Status::OK();
  bool utf8 = true;
  ZS_RETURN_IF_ERROR(Inspect(v, depth, &utf8));
  if (utf8) return Status::OK();
  out->clear_json();
  switch (v.kind()) {
    case json::Kind::kNull:
      out->set_null(pb::NULL_VALUE);
      break;
    case json::Kind::kBool:
      out->set_boolean(v.as_bool());
      break;
    case json::Kind::kNumber:
      out->set_number(v.number_raw());
      break;
    case json::Kind::kString:
      out->set_text(v.as_string());
      break;
    case json::Kind::kArray: {
      auto* values = out->mutable_array()->mutable_values();
      values->Reserve(static_cast<int>(v.array().size()));
      for (const json::Value& item : v.array()) {
        ZS_RETURN_IF_ERROR(PutJson(item, depth + 1, values->Add()));
      }
      break;
    }
    case json::Kind::kObject: {
      pb::JsonObject* object = out->mutable_object();
      const int n = static_cast<int>(v.object().size());
      object->mutable_keys()->Reserve(n);
      object->mutable_values()->Reserve(n);
      for (const json::Member& m : v.object()) {
        object->add_keys(m.first);
        ZS_RETURN_IF_ERROR(PutJson(m.second, depth + 1, object->add_values()));
      }
      break;
    }
  }
  return Status::OK();
}

template <typename Message>
Status PutUnknown(const UnknownFields& unknown, Message* out) {
  out->set_absent_fields(unknown.absent);
  RepeatedUnknown* members = out->mutable_unknown_members();
  for (const auto& [anchor, member] : unknown.members) {
    pb::UnknownMember* m = members->Add();
    m->set_anchor(anchor);
    m->set_key(member.first);
    ZS_RETURN_IF_ERROR(PutJson(member.second, 1, m->mutable_value()));
  }
  return Status::OK();
}

bool ValidTimestamp(const Timestamp& t) {
  return t.seconds >= format::kMinTimestampSeconds &&
         t.seconds <= format::kMaxTimestampSeconds && t.nanos >= 0 &&
         t.nanos < 1000000000 &&
         t.offset_seconds >= -format::kMaxOffsetSeconds &&
         t.offset_seconds <= format::kMaxOffsetSeconds;
}

// Leaves the message absent for Go's zero time, the model's default.
template <typename Message>
Status PutTimestamp(const Timestamp& t, Message* out) {
  if (!ValidTimestamp(t)) {
    return Status::InvalidArgument(
        "compact: timestamp outside years 0000..9999");
  }
  if (t.seconds == Timestamp::kZeroSeconds && t.nanos == 0 &&
      t.offset_seconds == 0) {
    return Status::OK();
  }
  pb::Timestamp* ts = out->mutable_timestamp();
  ts->set_seconds(t.seconds);
  ts->set_nanos(t.nanos);
  ts->set_offset_seconds(t.offset_seconds);
  return Status::OK();
}

Status PutConnectStrings(const ConnectStrings& in, RepeatedConnect* out) {
  out->Reserve(static_cast<int>(in.size()));
  for (const auto& [key, cs] : in) {
    pb::ConnectString* m = out->Add();
    m->set_key(key);
    m->set_description(cs.description);
    m->set_url(cs.url);
    ZS_RETURN_IF_ERROR(PutUnknown(cs.unknown, m));
  }
  return Status::OK();
}

Status PutComponent(const DeployedComponent& c, pb::DeployedComponent* out) {
  out->set_name(c.name);
  if (c.installed_charts) {
    auto* charts = out->mutable_installed_charts();
    charts->Reserve(static_cast<int>(c.installed_charts->size()));
    for (const InstalledChart& chart : *c.installed_charts) {
      pb::InstalledChart* m = charts->Add();
      m->set_namespace_(chart.namespace_);
      m->set_chart_name(chart.chart_name);
      ZS_RETURN_IF_ERROR(PutConnectStrings(chart.connect_strings,
                                           m->mutable_connect_strings()));
      m->set_status(chart.status);
      ZS_RETURN_IF_ERROR(PutUnknown(chart.unknown, m));
    }
  } else {
    out->set_installed_charts_is_null(true);
  }
  out->set_status(c.status);
  out->set_observed_generation(c.observed_generation);
  if (c.last_event) {
    pb::ComponentEvent* e = out->mutable_last_event();
    e->set_type(c.last_event->type);
    e->set_outcome(c.last_event->outcome);
    ZS_RETURN_IF_ERROR(PutTimestamp(c.last_event->timestamp, e));
    ZS_RETURN_IF_ERROR(PutUnknown(c.last_event->unknown, e));
  }
  return PutUnknown(c.unknown, out);
}

}  // namespace

Status PutPackage(const DeployedPackage& p, pb::DeployedPackage* out) {
  out->set_name(p.name);
  out->set_digest(p.digest);
  ZS_RETURN_IF_ERROR(PutJson(p.data, 1, out->mutable_data()));
  out->set_cli_version(p.cli_version);
  out->set_generation(p.generation);
  if (p.deployed_components) {
    auto* components = out->mutable_deployed_components();
    components->Reserve(static_cast<int>(p.deployed_components->size()));
    for (const DeployedComponent& c : *p.deployed_components) {
      ZS_RETURN_IF_ERROR(PutComponent(c, components->Add()));
    }
  } else {
    out->set_deployed_components_is_null(true);
  }
  ZS_RETURN_IF_ERROR(
      PutConnectStrings(p.connect_strings, out->mutable_connect_strings()));
  out->set_package_connectivity(p.package_connectivity);
  out->set_namespace_override(p.namespace_override);
  auto* events = out->mutable_events();
  events->Reserve(static_cast<int>(p.events.size()));
  for (const PackageEvent& e : p.events) {
    pb::PackageEvent* m = events->Add();
    m->set_type(e.type);
    m->set_outcome(e.outcome);
    ZS_RETURN_IF_ERROR(PutTimestamp(e.timestamp, m));
    m->set_version(e.version);
    m->set_flavor(e.flavor);
    m->set_digest(e.digest);
    m->set_source(e.source);
    m->set_config_digest(e.config_digest);
    ZS_RETURN_IF_ERROR(PutUnknown(e.unknown, m));
  }
  if (p.deploy_config) {
    ZS_RETURN_IF_ERROR(
        PutJson(*p.deploy_config, 1, out->mutable_deploy_config()));
  }
  out->set_config_digest(p.config_digest);
  return PutUnknown(p.unknown, out);
}

namespace {

// ---------------------------------------------------------------- pb -> model

// Every message below comes from a checksummed payload, so these fire only
// for a buggy or hostile writer; each names what it found.
Status Invalid(std::string_view what) {
  return Status::Corruption("compact: invalid zs.compact.pb.DeployedPackage: " +
                            std::string(what));
}

}  // namespace

// What the JSON reader charges for building `v` (base/memory_budget.h).
std::size_t JsonCost(const json::Value& v) {
  std::size_t n = v.kind() == json::Kind::kObject ? kObjectCost : kValueCost;
  if (v.kind() == json::Kind::kArray) {
    for (const json::Value& item : v.array()) n += JsonCost(item);
  } else if (v.kind() == json::Kind::kObject) {
    for (const json::Member& m : v.object()) n += JsonCost(m.second);
  }
  return n;
}

namespace {

// `depth` as in Inspect; the text form's parser enforces the rest of it. A
// JSON text is parsed within the bytes left of the memory budget `*left`
// (the JsonValue message itself was charged by CountMessages).
Status GetJson(const pb::JsonValue& in, int depth, std::size_t* left,
               json::Value* out) {
  if (depth > format::kMaxJsonDepth) return Invalid("JSON nested too deep");
  switch (in.kind_case()) {
    case pb::JsonValue::kJson: {
      json::ParseOptions options;
      options.max_depth =
          static_cast<std::size_t>(format::kMaxJsonDepth - depth + 1);
      MemoryBudget part(in.json().size(), *left);
      options.budget = &part;
      auto value = json::ParseJson(in.json(), options);
      if (!value.ok()) {
        if (value.status().message().find(kOverMemoryBudget) !=
            std::string::npos) {
          return Status::InvalidArgument("over budget");  // Decode names it
        }
        return Invalid(value.status().message());
      }
      *left -= part.used();
      *out = std::move(*value);
      return Status::OK();
    }
    case pb::JsonValue::kNull:
      *out = json::Value::Null();
      return Status::OK();
    case pb::JsonValue::kBoolean:
      *out = json::Value::Bool(in.boolean());
      return Status::OK();
    case pb::JsonValue::kNumber:
      if (!json::IsValidNumber(in.number()))
        return Invalid("number is not a JSON number");
      *out = json::Value::RawNumber(in.number());
      return Status::OK();
    case pb::JsonValue::kText:
      *out = json::Value::String(in.text());
      return Status::OK();
    case pb::JsonValue::kArray: {
      const auto& values = in.array().values();
      json::Array items(values.size());
      for (int i = 0; i < values.size(); ++i) {
        ZS_RETURN_IF_ERROR(GetJson(values[i], depth + 1, left, &items[i]));
      }
      *out = json::Value::MakeArray(std::move(items));
      return Status::OK();
    }
    case pb::JsonValue::kObject: {
      const pb::JsonObject& object = in.object();
      if (object.keys_size() != object.values_size()) {
        return Invalid("JsonObject keys and values differ in number");
      }
      json::Object members(object.keys_size());
      for (int i = 0; i < object.keys_size(); ++i) {
        members[i].first = object.keys(i);
        ZS_RETURN_IF_ERROR(
            GetJson(object.values(i), depth + 1, left, &members[i].second));
      }
      *out = json::Value::MakeObject(std::move(members));
      return Status::OK();
    }
    case pb::JsonValue::KIND_NOT_SET:
      break;
  }
  return Invalid("JsonValue without a kind");
}

template <typename Message>
Status GetUnknown(const Message& in, std::size_t* left, UnknownFields* out) {
  out->absent = in.absent_fields();
  out->members.resize(in.unknown_members_size());
  for (int i = 0; i < in.unknown_members_size(); ++i) {
    const pb::UnknownMember& m = in.unknown_members(i);
    if (!m.has_value()) return Invalid("unknown member without a value");
    out->members[i].first = m.anchor();
    out->members[i].second.first = m.key();
    ZS_RETURN_IF_ERROR(
        GetJson(m.value(), 1, left, &out->members[i].second.second));
  }
  return Status::OK();
}

template <typename Message>
Status GetTimestamp(const Message& in, Timestamp* out) {
  *out = Timestamp{};
  if (!in.has_timestamp()) return Status::OK();
  out->seconds = in.timestamp().seconds();
  out->nanos = in.timestamp().nanos();
  out->offset_seconds = in.timestamp().offset_seconds();
  return ValidTimestamp(*out) ? Status::OK()
                              : Invalid("timestamp out of range");
}

Status GetConnectStrings(const RepeatedConnect& in, std::size_t* left,
                         ConnectStrings* out) {
  for (const pb::ConnectString& m : in) {
    auto [it, inserted] = out->try_emplace(m.key());
    if (!inserted) return Invalid("duplicate connect string key");
    it->second.description = m.description();
    it->second.url = m.url();
    ZS_RETURN_IF_ERROR(GetUnknown(m, left, &it->second.unknown));
  }
  return Status::OK();
}

Status GetComponent(const pb::DeployedComponent& in, std::size_t* left,
                    DeployedComponent* out) {
  out->name = in.name();
  if (in.installed_charts_is_null()) {
    if (in.installed_charts_size() != 0)
      return Invalid("null installedCharts with entries");
  } else {
    std::vector<InstalledChart>& charts =
        out->installed_charts.emplace(in.installed_charts_size());
    for (int i = 0; i < in.installed_charts_size(); ++i) {
      const pb::InstalledChart& m = in.installed_charts(i);
      charts[i].namespace_ = m.namespace_();
      charts[i].chart_name = m.chart_name();
      ZS_RETURN_IF_ERROR(
          GetConnectStrings(m.connect_strings(), left, &charts[i].connect_strings));
      charts[i].status = m.status();
      ZS_RETURN_IF_ERROR(GetUnknown(m, left, &charts[i].unknown));
    }
  }
  out->status = in.status();
  out->observed_generation = in.observed_generation();
  if (in.has_last_event()) {
    ComponentEvent& e = out->last_event.emplace();
    e.type = in.last_event().type();
    e.outcome = in.last_event().outcome();
    ZS_RETURN_IF_ERROR(GetTimestamp(in.last_event(), &e.timestamp));
    ZS_RETURN_IF_ERROR(GetUnknown(in.last_event(), left, &e.unknown));
  }
  return GetUnknown(in, left, &out->unknown);
}

}  // namespace

Status GetPackage(const pb::DeployedPackage& in, std::size_t* left,
                  DeployedPackage* out) {
  out->name = in.name();
  out->digest = in.digest();
  if (in.has_data()) {
    ZS_RETURN_IF_ERROR(GetJson(in.data(), 1, left, &out->data));
  }
  out->cli_version = in.cli_version();
  out->generation = in.generation();
  if (in.deployed_components_is_null()) {
    if (in.deployed_components_size() != 0) {
      return Invalid("null deployedComponents with entries");
    }
  } else {
    auto& components =
        out->deployed_components.emplace(in.deployed_components_size());
    for (int i = 0; i < in.deployed_components_size(); ++i) {
      ZS_RETURN_IF_ERROR(
          GetComponent(in.deployed_components(i), left, &components[i]));
    }
  }
  ZS_RETURN_IF_ERROR(
      GetConnectStrings(in.connect_strings(), left, &out->connect_strings));
  out->package_connectivity = in.package_connectivity();
  out->namespace_override = in.namespace_override();
  out->events.resize(in.events_size());
  for (int i = 0; i < in.events_size(); ++i) {
    const pb::PackageEvent& m = in.events(i);
    PackageEvent& e = out->events[i];
    e.type = m.type();
    e.outcome = m.outcome();
    ZS_RETURN_IF_ERROR(GetTimestamp(m, &e.timestamp));
    e.version = m.version();
    e.flavor = m.flavor();
    e.digest = m.digest();
    e.source = m.source();
    e.config_digest = m.config_digest();
    ZS_RETURN_IF_ERROR(GetUnknown(m, left, &e.unknown));
  }
  if (in.has_deploy_config()) {
    ZS_RETURN_IF_ERROR(
        GetJson(in.deploy_config(), 1, left, &out->deploy_config.emplace()));
  }
  out->config_digest = in.config_digest();
  return GetUnknown(in, left, &out->unknown);
}

}  // namespace zs::compact::internal
