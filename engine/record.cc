#include "engine/record.h"

#include <xxhash.h>

#include "base/hex.h"
#include "model/model_json.h"
#include "engine/internal/canonical_record.h"
#include "engine/work_counters.h"
#include "json/go_json.h"
#include "json/json_reader.h"

namespace zs::engine {
namespace {

using json::Value;

void AppendKey(std::string* out, std::string_view key) {
  out->push_back(',');
  json::AppendGoString(out, key);
  out->push_back(':');
}

Status ExpectObject(const Value* v, std::string_view what) {
  if (v == nullptr || !v->is_object()) {
    return Status::Corruption("record: " + std::string(what) + " is missing or not an object");
  }
  return Status::OK();
}

}  // namespace

std::string_view RecordKindName(RecordKind kind) {
  switch (kind) {
    case RecordKind::kBase: return "Base";
    case RecordKind::kPackageEvent: return "PackageEvent";
    case RecordKind::kComponentEvent: return "ComponentEvent";
  }
  return "Unknown";
}

Timestamp Record::time() const {
  switch (kind) {
    case RecordKind::kPackageEvent: return event.timestamp;
    case RecordKind::kComponentEvent: return component_event.timestamp;
    case RecordKind::kBase:
      // The last recorded event's time (append order, whatever its date).
      return base && !base->events.empty() ? base->events.back().timestamp : Timestamp{};
  }
  return Timestamp{};
}

namespace {

// `{"v":1,"kind":"<kind>"`: what every canonical record starts with.
void AppendRecordHead(std::string* out, RecordKind kind) {
  out->append("{\"v\":").append(std::to_string(kRecordFormatVersion)).append(",\"kind\":");
  json::AppendGoString(out, RecordKindName(kind));
}

void AppendFacts(std::string* out, const DeployFacts& f) {
  AppendKey(out, "facts");
  out->append("{\"name\":");
  json::AppendGoString(out, f.name);
  AppendKey(out, "digest");
  json::AppendGoString(out, f.digest);
  AppendKey(out, "data");
  Status ignored = json::AppendJson(out, f.data);  // raw numbers: cannot fail
  (void)ignored;
  AppendKey(out, "cliVersion");
  json::AppendGoString(out, f.cli_version);
  AppendKey(out, "namespaceOverride");
  json::AppendGoString(out, f.namespace_override);
  AppendKey(out, "packageConnectivity");
  json::AppendGoString(out, f.package_connectivity);
  if (f.deploy_config) {
    AppendKey(out, "deployConfig");
    ignored = json::AppendJson(out, *f.deploy_config);
  }
  out->push_back('}');
}

}  // namespace

void AppendPackageEventRecord(std::string* out, const PackageEvent& event,
                              const DeployFacts* facts) {
  AppendRecordHead(out, RecordKind::kPackageEvent);
  AppendKey(out, "event");
  AppendPackageEvent(out, event);
  if (facts != nullptr) AppendFacts(out, *facts);
  out->push_back('}');
}

void AppendComponentEventRecord(std::string* out, std::string_view component,
                                const ComponentEvent& event,
                                const std::vector<InstalledChart>* charts) {
  AppendRecordHead(out, RecordKind::kComponentEvent);
  AppendKey(out, "component");
  json::AppendGoString(out, component);
  AppendKey(out, "event");
  AppendComponentEvent(out, event);
  if (charts != nullptr) {
    AppendKey(out, "charts");
    AppendInstalledCharts(out, *charts);
  }
  out->push_back('}');
}

std::string EncodeRecord(const Record& r) {
  std::string out;
  switch (r.kind) {
    case RecordKind::kBase:
      AppendRecordHead(&out, r.kind);
      AppendKey(&out, "base");
      out += EncodeDeployedPackage(r.base ? *r.base : DeployedPackage{});
      out.push_back('}');
      break;
    case RecordKind::kPackageEvent:
      AppendPackageEventRecord(&out, r.event, r.facts.get());
      break;
    case RecordKind::kComponentEvent:
      AppendComponentEventRecord(&out, r.component, r.component_event,
                                 r.charts ? &*r.charts : nullptr);
      break;
  }
  return out;
}

Result<Record> DecodeRecord(std::string_view bytes) {
  internal::CountRecordDecoded();
  // Nearly every record of a cache log is a plain event in canonical form:
  // read it in place; everything else goes through the JSON tree.
  Record r;
  if (internal::DecodeCanonicalRecord(bytes, &r)) return r;
  return internal::DecodeRecordFromTree(bytes);
}

Result<Record> internal::DecodeRecordFromTree(std::string_view bytes) {
  ZS_ASSIGN_OR_RETURN(Value v, json::ParseJson(bytes, {.duplicates = json::DuplicateKeys::kReject}));
  ZS_RETURN_IF_ERROR(ExpectObject(&v, "the record"));
  const Value* version = v.Find("v");
  if (version == nullptr || !version->is_number()) {
    return Status::Corruption("record: no format version \"v\"");
  }
  if (version->number_raw() != std::to_string(kRecordFormatVersion)) {
    return Status::NotSupported("record: format version " + version->number_raw() +
                                " is newer than this zarf-state (" +
                                std::to_string(kRecordFormatVersion) + ")");
  }
  const std::string_view kind = v.StringOr("kind");
  Record r;
  if (kind == "Base") {
    r.kind = RecordKind::kBase;
    const Value* base = v.Find("base");
    ZS_RETURN_IF_ERROR(ExpectObject(base, "base"));
    ZS_ASSIGN_OR_RETURN(DeployedPackage pkg, DecodeDeployedPackage(*base));
    r.base = std::make_shared<const DeployedPackage>(std::move(pkg));
  } else if (kind == "PackageEvent") {
    r.kind = RecordKind::kPackageEvent;
    const Value* event = v.Find("event");
    ZS_RETURN_IF_ERROR(ExpectObject(event, "event"));
    ZS_ASSIGN_OR_RETURN(r.event, DecodePackageEvent(*event, "event"));
    if (const Value* facts = v.Find("facts")) {
      ZS_RETURN_IF_ERROR(ExpectObject(facts, "facts"));
      DeployFacts f;
      f.name = facts->StringOr("name");
      f.digest = facts->StringOr("digest");
      if (const Value* data = facts->Find("data"); data && data->is_object()) f.data = *data;
      f.cli_version = facts->StringOr("cliVersion");
      f.namespace_override = facts->StringOr("namespaceOverride");
      f.package_connectivity = facts->StringOr("packageConnectivity");
      if (const Value* dc = facts->Find("deployConfig")) f.deploy_config = *dc;
      r.facts = std::make_shared<const DeployFacts>(std::move(f));
    }
  } else if (kind == "ComponentEvent") {
    r.kind = RecordKind::kComponentEvent;
    const Value* component = v.Find("component");
    if (component == nullptr || !component->is_string()) {
      return Status::Corruption("record: component event without a component name");
    }
    r.component = component->as_string();
    const Value* event = v.Find("event");
    ZS_RETURN_IF_ERROR(ExpectObject(event, "event"));
    ZS_ASSIGN_OR_RETURN(r.component_event, DecodeComponentEvent(*event, "event"));
    if (const Value* charts = v.Find("charts")) {
      ZS_ASSIGN_OR_RETURN(auto decoded, DecodeInstalledCharts(*charts, "charts"));
      r.charts = std::move(decoded);
    }
  } else {
    const Value* skip = v.Find("skip");
    if (skip != nullptr && skip->is_bool() && skip->as_bool()) {
      return Status::NotFound("record: unknown kind '" + std::string(kind) + "' (skippable)");
    }
    return Status::Corruption("record: unknown kind '" + std::string(kind) + "'");
  }
  return r;
}

std::string RecordId(const Record& record) { return RecordIdOfBytes(EncodeRecord(record)); }

RecordHash RecordHashOfBytes(std::string_view encoded) {
  const XXH128_hash_t h = XXH3_128bits(encoded.data(), encoded.size());
  return RecordHash{h.high64, h.low64};
}

void AppendRecordId(std::string* out, const RecordHash& hash) {
  char id[32];
  for (int i = 0; i < 16; ++i) {
    id[i] = HexDigit(static_cast<unsigned>(hash.high >> (60 - 4 * i)));
    id[16 + i] = HexDigit(static_cast<unsigned>(hash.low >> (60 - 4 * i)));
  }
  out->append(id, sizeof id);
}

std::string RecordIdOfBytes(std::string_view bytes) {
  std::string out;
  AppendRecordId(&out, RecordHashOfBytes(bytes));
  return out;
}

}  // namespace zs::engine
