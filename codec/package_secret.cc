#include "codec/package_secret.h"

#include <optional>

#include <algorithm>

#include "codec/base64.h"
#include "codec/compact.h"
#include "codec/go_json.h"
#include "codec/json_reader.h"
#include "codec/model_json.h"

namespace zs {
namespace {

std::string CodecAnnotationValue() {
  return std::string(compact::kCodecName) + "/v" + std::to_string(compact::kFormatVersion);
}

std::string FormatContributors(const DeployedPackage& pkg) {
  std::string out;
  for (const auto& [path, bytes] : BiggestContributors(pkg)) {
    if (!out.empty()) out += ", ";
    out += path + " " + std::to_string(bytes);
  }
  return out;
}

}  // namespace

Result<PackageCodec> ParsePackageCodec(std::string_view name) {
  if (name == "json") return PackageCodec::kJson;
  if (name == "compact") return PackageCodec::kCompact;
  if (name == "auto") return PackageCodec::kAuto;
  return Status::InvalidArgument("unknown codec '" + std::string(name) + "' (json, compact or auto)");
}

Result<DeployedPackage> DecodePackagePayload(std::string_view payload,
                                             std::size_t readable_padding,
                                             DefinitionParts parts) {
  if (compact::LooksCompact(payload)) return compact::Decode(payload);
  return ParseDeployedPackage(payload, readable_padding, parts);
}

Result<DeployedPackage> DecodePackage(const json::Value& secret) {
  auto compact_bytes = SecretValue(secret, kCompactDataKey);
  if (compact_bytes.ok()) {
    const json::Value* md = secret.Find("metadata");
    const json::Value* annotations = md ? md->Find("annotations") : nullptr;
    const std::string_view codec = annotations ? annotations->StringOr(kCodecAnnotation) : "";
    if (!codec.empty() && codec.substr(0, compact::kCodecName.size()) != compact::kCodecName) {
      return Status::NotSupported("annotation " + std::string(kCodecAnnotation) + " names codec '" +
                                  std::string(codec) + "'");
    }
    return compact::Decode(*compact_bytes);
  }
  if (compact_bytes.status().code() != Status::Code::kNotFound) return compact_bytes.status();
  ZS_ASSIGN_OR_RETURN(std::string payload, SecretValue(secret, kPackageDataKey));
  return ParseDeployedPackage(payload);
}

namespace {

// StorePackage and StorePackageJson: `json_payload` is the package's Zarf
// JSON; `known` the package itself, or nullptr to decode it from the JSON
// only if needed (the compact codec, the size error's contributors).
Result<PackageCodec> Store(json::Value* secret, std::string_view json_payload,
                           const DeployedPackage* known, const StoreOptions& options) {
  std::optional<DeployedPackage> decoded;
  auto package = [&]() -> Result<const DeployedPackage*> {
    if (known != nullptr) return known;
    if (!decoded) {
      ZS_ASSIGN_OR_RETURN(DeployedPackage p, ParseDeployedPackage(json_payload));
      decoded = std::move(p);
    }
    return &*decoded;
  };
  PackageCodec codec = options.codec;
  if (codec == PackageCodec::kAuto) {
    codec = json_payload.size() <= options.auto_threshold ? PackageCodec::kJson : PackageCodec::kCompact;
  }
  std::string compact_payload;
  std::string_view payload = json_payload;
  if (codec != PackageCodec::kJson) {
    ZS_ASSIGN_OR_RETURN(const DeployedPackage* pkg, package());
    ZS_ASSIGN_OR_RETURN(compact_payload, compact::Encode(*pkg));
    payload = compact_payload;
  }
  const std::string_view key = codec == PackageCodec::kJson ? kPackageDataKey : kCompactDataKey;
  // Build the new Secret aside: the caller's object changes only on success.
  // The value SetSecretValue replaces below (the old payload's base64, the
  // bulk of the Secret) is set aside while copying, not copied.
  json::Value next;
  {
    json::Value* data = secret->Find("data");
    json::Value* old = data != nullptr && data->is_object() ? data->Find(key) : nullptr;
    json::Value saved;
    if (old != nullptr) std::swap(saved, *old);
    next = *secret;
    if (old != nullptr) std::swap(saved, *old);
  }
  if (json::Value* data = next.Find("data"); data && data->is_object()) {
    data->Erase(codec == PackageCodec::kJson ? kCompactDataKey : kPackageDataKey);
  }
  if (json::Value* sd = next.Find("stringData"); sd && sd->is_object()) {
    sd->Erase(kPackageDataKey);
    sd->Erase(kCompactDataKey);
    if (sd->object().empty()) next.Erase("stringData");
  }
  json::Value* md = next.Find("metadata");
  if (md == nullptr || !md->is_object()) {
    next.Set("metadata", json::Value::MakeObject());
    md = next.Find("metadata");
  }
  json::Value* annotations = md->Find("annotations");
  if (codec == PackageCodec::kCompact) {
    if (annotations == nullptr || !annotations->is_object()) {
      md->Set("annotations", json::Value::MakeObject());
      annotations = md->Find("annotations");
    }
    annotations->Set(kCodecAnnotation, json::Value::String(CodecAnnotationValue()));
  } else if (annotations != nullptr && annotations->is_object()) {
    annotations->Erase(kCodecAnnotation);
    if (annotations->object().empty()) md->Erase("annotations");
  }
  SetSecretValue(&next, key, payload);
  ZS_ASSIGN_OR_RETURN(std::size_t size, SecretDataSize(next, key, payload.size()));
  if (size > kSecretSizeLimit) {
    ZS_ASSIGN_OR_RETURN(const DeployedPackage* pkg, package());
    return Status::TooLarge("package " + pkg->name + ": the Secret would hold " + std::to_string(size) +
                            " bytes (codec " + (codec == PackageCodec::kJson ? "json" : "compact") +
                            "), over the API server's limit of " + std::to_string(kSecretSizeLimit) +
                            "; biggest parts: " + FormatContributors(*pkg) + "; nothing was written");
  }
  *secret = std::move(next);
  return codec;
}

}  // namespace

Result<PackageCodec> StorePackage(json::Value* secret, const DeployedPackage& pkg,
                                  const StoreOptions& options) {
  return Store(secret, EncodeDeployedPackage(pkg), &pkg, options);
}

Result<PackageCodec> StorePackageJson(json::Value* secret, std::string_view json_payload,
                                      const StoreOptions& options) {
  return Store(secret, json_payload, nullptr, options);
}

std::vector<std::pair<std::string, std::size_t>> BiggestContributors(const DeployedPackage& pkg,
                                                                     std::size_t n) {
  std::vector<std::pair<std::string, std::size_t>> parts;
  auto measure = [](const json::Value& v) {
    std::string s;
    Status ignored = json::AppendJson(&s, v);  // raw numbers: cannot fail
    (void)ignored;
    return s.size();
  };
  auto doc = json::ParseJson(EncodeDeployedPackage(pkg));
  if (!doc.ok()) return parts;
  for (const json::Member& m : doc->object()) {
    if (m.first == "data" && m.second.is_object()) {
      for (const json::Member& d : m.second.object()) parts.emplace_back("data." + d.first, measure(d.second));
    } else {
      parts.emplace_back(m.first, measure(m.second));
    }
  }
  std::stable_sort(parts.begin(), parts.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  if (parts.size() > n) parts.resize(n);
  return parts;
}

}  // namespace zs
