#include "migrate/migrate.h"

#include <utility>

#include "codec/go_json.h"
#include "codec/json_reader.h"
#include "codec/model_json.h"
#include "migrate/internal/migrators.h"
#include "migrate/internal/reshape.h"

namespace zs::migrate {
namespace {

using internal::ChangeLog;

// Migrates `value` (consumed), detected as `d`, into `*result`.
Status Migrate(json::Value value, Detection d, const Target& target,
               MigratedPayload* result) {
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
  ZS_RETURN_IF_ERROR(json::AppendJson(&result->bytes, out));
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

}  // namespace

Result<MigratedPayload> MigratePayload(std::string_view payload, PayloadKind kind,
                                       const Target& target, std::size_t readable_padding) {
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

Result<MigratedPayload> MigratePackage(const DeployedPackage& pkg, const Target& target) {
  const std::string json_text = EncodeDeployedPackage(pkg);
  return MigratePayload(json_text, PayloadKind::kPackage, target);
}

}  // namespace zs::migrate
