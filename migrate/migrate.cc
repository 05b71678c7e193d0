#include "migrate/migrate.h"

#include <optional>
#include <utility>
#include <vector>

#include "model/model_json.h"
#include "json/go_json.h"
#include "json/json_reader.h"
#include "migrate/internal/migrators.h"
#include "migrate/internal/reshape.h"
#include "migrate/internal/schema.h"

namespace zs::migrate {
namespace {

using internal::ChangeLog;

// Appends `out` compact, with its one top-level member "data" written as
// `data_json` (its Go form, made beforehand) instead of from its (stand-in)
// value. The members before and after "data" are written first, so that
// `bytes` grows once, to its final size: the definition, most of the
// payload, is copied once.
void AppendWithRawData(std::string* bytes, const json::Value& out, std::string_view data_json) {
  std::string before = "{", after;
  std::string* side = &before;
  bool first = true;
  for (const json::Member& m : out.object()) {
    if (!first) side->push_back(',');
    first = false;
    json::AppendGoString(side, m.first);
    side->push_back(':');
    if (m.first == "data") {
      side = &after;
    } else {
      Status ignored = json::AppendJson(side, m.second);  // raw numbers: cannot fail
      (void)ignored;
    }
  }
  side->push_back('}');
  bytes->reserve(bytes->size() + before.size() + data_json.size() + after.size());
  bytes->append(before).append(data_json).append(after);
}

// Migrates `value` (consumed), detected as `d`, into `*result`. With
// `data_json` set, `value`'s member "data" is a stand-in for the value
// whose Go form `*data_json` holds (MigratePackageLeavingData).
Status Migrate(json::Value value, Detection d, const Target& target,
               MigratedPayload* result, const std::string* data_json = nullptr) {
  MigrationReport& r = result->report;
  ChangeLog log;
  json::Value out;
  if (d.kind == PayloadKind::kPackage) {
    if (!target.package) {
      if (!target.package_note.empty()) log.Warning(target.package_note);
      r.target.clear();
    } else {
      r.target = std::string(ShapeName(*target.package));
      ZS_RETURN_IF_ERROR(internal::MigratePackageValue(&value, internal::PackageShapeOf(d),
                                                       *target.package, &log, &out));
    }
  } else if (!target.state) {
    if (!target.state_note.empty()) log.Warning(target.state_note);
  } else {
    r.target = std::string(ShapeName(*target.state));
    ZS_RETURN_IF_ERROR(internal::MigrateStateValue(&value, internal::StateShapeOf(d),
                                                   *target.state, &log, &out));
  }
  if (r.target.empty()) out = std::move(value);
  result->bytes.clear();
  if (data_json != nullptr) {
    // The stand-in must have come through untouched: one "data", still {}.
    int seen = 0;
    if (out.is_object()) {
      for (const json::Member& m : out.object()) {
        if (m.first != "data") continue;
        ++seen;
        if (!m.second.is_object() || !m.second.object().empty()) seen = 2;
      }
    }
    if (seen != 1) return Status::NotSupported("data was reshaped");
    AppendWithRawData(&result->bytes, out, *data_json);
  } else {
    ZS_RETURN_IF_ERROR(json::AppendJson(&result->bytes, out));
  }
  r.bytes_after = result->bytes.size();
  r.mappings = log.mappings();
  r.warnings = std::move(d.warnings);
  for (std::string& w : log.warnings()) r.warnings.push_back(std::move(w));
  r.detection = std::move(d);
  return Status::OK();
}

// Decodes `payload` as Go would, to validate it and to detect v2, without
// copying the package definition: `data` is set aside while the rest decodes
// (it is kept as parsed JSON, so an object is all it has to be).
Result<DeployedPackage> DecodeWithoutData(json::Value* payload) {
  json::Value* data = payload->Find("data");
  if (data == nullptr) return DecodeDeployedPackage(*payload);
  if (!data->is_object() && !data->is_null()) {
    return Status::InvalidArgument("data: expected object, got " +
                                   std::string(json::KindName(data->kind())));
  }
  json::Value saved = std::move(*data);
  *data = json::Value::MakeObject();
  Result<DeployedPackage> pkg = DecodeDeployedPackage(*payload);
  *data = std::move(saved);
  return pkg;
}

// MigratePayload for a package whose `data` (the package definition, most
// of the bytes) is carried through unchanged: that member is neither parsed
// nor built as a tree but rewritten in Go's form straight from the text,
// which that rewrite checks. Every package shape carries `data` as an
// opaque value, so the result is the same as the tree path's. Returns
// nullopt whenever anything is not as expected (errors included): the
// caller then takes the tree path, whose results and messages are the
// reference.
std::optional<MigratedPayload> MigratePackageLeavingData(std::string_view payload,
                                                         const Target& target,
                                                         const json::ParseOptions& parse) {
  if (target.package) {
    const internal::Field* f = internal::PackageSchema(*target.package).Find("data");
    if (f == nullptr || f->type != internal::FieldType::kAny || f->sub != nullptr) {
      return std::nullopt;
    }
  }
  // "data" sits at depth 2 (the payload object is 1).
  if (parse.max_depth < 2) return std::nullopt;
  std::string data_json;
  data_json.reserve(payload.size());  // the Go form is rarely longer than the text
  auto take_data = [&](std::string_view text) {
    return json::AppendCompactFromText(&data_json, text, parse.max_depth - 1);
  };
  bool taken = false;
  Result<json::Value> value = json::ParseJsonTakingRaw(payload, "data", parse, take_data, &taken);
  if (!value.ok() || !taken || !value->is_object()) return std::nullopt;
  int data_members = 0;
  for (const json::Member& m : value->object()) data_members += m.first == "data";
  if (data_members != 1) return std::nullopt;
  Detection d;
  d.kind = PayloadKind::kPackage;
  Result<DeployedPackage> pkg = DecodeWithoutData(&*value);
  if (!pkg.ok()) return std::nullopt;
  internal::DetectPackage(*value, *pkg, &d);
  MigratedPayload result;
  result.report.bytes_before = payload.size();
  if (!Migrate(std::move(*value), std::move(d), target, &result, &data_json).ok()) {
    return std::nullopt;
  }
  result.report.changed = result.bytes != payload;
  return result;
}

}  // namespace

Result<MigratedPayload> MigratePayload(std::string_view payload, PayloadKind kind,
                                       const Target& target, std::size_t readable_padding) {
  json::ParseOptions parse;
  parse.readable_padding = readable_padding;
  if (kind == PayloadKind::kPackage) {
    if (std::optional<MigratedPayload> fast = MigratePackageLeavingData(payload, target, parse)) {
      return std::move(*fast);
    }
  }
  return internal::MigratePayloadWithTree(payload, kind, target, readable_padding);
}

namespace internal {

Result<MigratedPayload> MigratePayloadWithTree(std::string_view payload, PayloadKind kind,
                                               const Target& target,
                                               std::size_t readable_padding) {
  json::ParseOptions parse;
  parse.readable_padding = readable_padding;
  ZS_ASSIGN_OR_RETURN(json::Value value, json::ParseJson(payload, parse));
  if (!value.is_object()) {
    return Status::InvalidArgument("payload: expected a JSON object, got " +
                                   std::string(json::KindName(value.kind())));
  }
  Detection d;
  d.kind = kind;
  if (kind == PayloadKind::kPackage) {
    ZS_ASSIGN_OR_RETURN(DeployedPackage pkg, DecodeWithoutData(&value));
    internal::DetectPackage(value, pkg, &d);
  } else {
    ZS_ASSIGN_OR_RETURN(d, DetectShape(value, kind));
  }
  MigratedPayload result;
  result.report.bytes_before = payload.size();
  ZS_RETURN_IF_ERROR(Migrate(std::move(value), std::move(d), target, &result));
  result.report.changed = result.bytes != payload;
  return result;
}

}  // namespace internal

Result<MigratedPayload> MigratePackage(const DeployedPackage& pkg, const Target& target) {
  const std::string json_text = EncodeDeployedPackage(pkg);
  return MigratePayload(json_text, PayloadKind::kPackage, target);
}

}  // namespace zs::migrate
