#include "kube/package_secret.h"

#include <optional>

#include <algorithm>

#include "base/base64.h"
#include "compact/compact.h"
#include "model/model_json.h"
#include "json/go_json.h"
#include "json/json_reader.h"

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

json::Value* ObjectMember(json::Value* parent, std::string_view key) {
  json::Value* v = parent->Find(key);
  if (v == nullptr || !v->is_object()) {
    parent->Set(key, json::Value::MakeObject());
    v = parent->Find(key);
  }
  return v;
}

// Moves the listing label to the codec's: Zarf's `package-deploy-info` on a
// JSON Secret, ours on a compact one (the layout in the header). A JSON
// Secret gains Zarf's label only where ours was (its value is the package
// name either way); `package` is needed only for a compact Secret that had
// neither.
void SetListingLabel(json::Value* md, PackageCodec codec, std::string_view package) {
  json::Value* labels = md->Find("labels");
  const bool has_labels = labels != nullptr && labels->is_object();
  if (codec == PackageCodec::kJson) {
    if (!has_labels) return;
    const json::Value* ours = labels->Find(kCompactPackageLabel);
    if (ours == nullptr) return;
    json::Value value = *ours;
    labels->Erase(kCompactPackageLabel);
    labels->Set(kPackageLabel, std::move(value));
    return;
  }
  json::Value value = json::Value::String(std::string(package));
  if (has_labels) {
    if (const json::Value* zarf = labels->Find(kPackageLabel); zarf != nullptr) value = *zarf;
    labels->Erase(kPackageLabel);
  }
  ObjectMember(md, "labels")->Set(kCompactPackageLabel, std::move(value));
}

// `secret` with `payload` stored under `codec`'s key, annotation and label,
// and everything of the other codec removed; with `leave_out` the key holds
// "" in place of the payload's base64. The value replaced (the old
// payload's base64, the bulk of the Secret) is set aside while copying.
json::Value WithPayload(json::Value* secret, PackageCodec codec, std::string_view payload,
                        std::string_view package, bool leave_out) {
  const std::string_view key = codec == PackageCodec::kJson ? kPackageDataKey : kCompactDataKey;
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
  json::Value* md = ObjectMember(&next, "metadata");
  if (codec == PackageCodec::kCompact) {
    ObjectMember(md, "annotations")->Set(kCodecAnnotation,
                                         json::Value::String(CodecAnnotationValue()));
  } else if (json::Value* annotations = md->Find("annotations");
             annotations != nullptr && annotations->is_object()) {
    annotations->Erase(kCodecAnnotation);
    if (annotations->object().empty()) md->Erase("annotations");
  }
  SetListingLabel(md, codec, package);
  SetSecretValue(&next, key, leave_out ? std::string_view() : payload);
  return next;
}

std::string Percent(std::size_t bytes) {
  const std::size_t tenths = (bytes * 1000 + kSecretSizeLimit / 2) / kSecretSizeLimit;
  return std::to_string(tenths / 10) + "." + std::to_string(tenths % 10) + "%";
}

// StorePackage and StorePackageJson: `json_payload` is the package's Zarf
// JSON; `known` the package itself, or nullptr to decode it from the JSON
// only if needed (the compact codec, the size error's contributors). With
// `compact_out`, the payload is left out of the tree (StorePackageJsonApart)
// and a compact envelope moved to `*compact_out`.
Result<StoredPackage> Store(json::Value* secret, std::string_view json_payload,
                            const DeployedPackage* known, const StoreOptions& options,
                            std::string* compact_out = nullptr) {
  const bool leave_out = compact_out != nullptr;
  std::optional<DeployedPackage> decoded;
  auto package = [&]() -> Result<const DeployedPackage*> {
    if (known != nullptr) return known;
    if (!decoded) {
      ZS_ASSIGN_OR_RETURN(DeployedPackage p, ParseDeployedPackage(json_payload));
      decoded = std::move(p);
    }
    return &*decoded;
  };
  StoredPackage stored;
  stored.json_bytes = json_payload.size();
  // The JSON Secret is measured whatever the codec: a compact one's warning
  // says whether JSON would have fitted.
  json::Value next = WithPayload(secret, PackageCodec::kJson, json_payload, "", leave_out);
  ZS_ASSIGN_OR_RETURN(const std::size_t json_secret_bytes,
                      SecretDataSize(next, kPackageDataKey, json_payload.size()));
  const bool json_fits = json_secret_bytes <= kSecretSizeLimit;
  stored.payload_bytes = json_payload.size();
  stored.codec = PackageCodec::kJson;
  stored.secret_bytes = json_secret_bytes;
  stored.data_key = kPackageDataKey;
  std::string compact_payload;
  if (options.codec == PackageCodec::kCompact ||
      (options.codec == PackageCodec::kAuto && !json_fits)) {
    ZS_ASSIGN_OR_RETURN(const DeployedPackage* pkg, package());
    ZS_ASSIGN_OR_RETURN(compact_payload, compact::Encode(*pkg));
    next = WithPayload(secret, PackageCodec::kCompact, compact_payload, pkg->name, leave_out);
    ZS_ASSIGN_OR_RETURN(stored.secret_bytes,
                        SecretDataSize(next, kCompactDataKey, compact_payload.size()));
    stored.payload_bytes = compact_payload.size();
    stored.codec = PackageCodec::kCompact;
    stored.data_key = kCompactDataKey;
  }
  if (stored.secret_bytes > kSecretSizeLimit) {
    ZS_ASSIGN_OR_RETURN(const DeployedPackage* pkg, package());
    return Status::TooLarge("package " + pkg->name + ": the Secret would hold " +
                            std::to_string(stored.secret_bytes) + " bytes (codec " +
                            (stored.codec == PackageCodec::kJson ? "json" : "compact") +
                            "), over the API server's limit of " +
                            std::to_string(kSecretSizeLimit) + "; biggest parts: " +
                            FormatContributors(*pkg) + "; nothing was written");
  }
  if (stored.codec == PackageCodec::kCompact) {
    ZS_ASSIGN_OR_RETURN(const DeployedPackage* pkg, package());
    const std::string why =
        " (as JSON the Secret would hold " + std::to_string(json_secret_bytes) + " bytes, " +
        (json_fits ? std::string("which fits: --codec json writes it so)")
                   : "over the limit of " + std::to_string(kSecretSizeLimit) + ")");
    stored.warning = "package " + pkg->name + ": written with the compact codec, " +
                     std::to_string(stored.secret_bytes) + " bytes" + why +
                     ". No Zarf release reads it, so the Secret carries the label " +
                     std::string(kCompactPackageLabel) + " instead of " +
                     std::string(kPackageLabel) + ": Zarf's package list, remove and " +
                     "registry prune will not see this package (zarf-state reads it), " +
                     "until it is stored as JSON again";
  } else if (stored.secret_bytes > kSecretWarnBytes) {
    const json::Value* md = next.Find("metadata");
    const std::string_view name = md != nullptr ? md->StringOr("name") : "";
    stored.warning = "Secret " + (name.empty() ? std::string("of the package") : std::string(name)) +
                     ": " + std::to_string(stored.secret_bytes) + " of " +
                     std::to_string(kSecretSizeLimit) + " bytes (" + Percent(stored.secret_bytes) +
                     "), past 90% of the API server's limit; still JSON, which Zarf reads";
  }
  *secret = std::move(next);
  if (leave_out) *compact_out = std::move(compact_payload);
  return stored;
}

}  // namespace

Result<StoredPackage> StorePackage(json::Value* secret, const DeployedPackage& pkg,
                                   const StoreOptions& options) {
  return Store(secret, EncodeDeployedPackage(pkg), &pkg, options);
}

Result<StoredPackage> StorePackageJson(json::Value* secret, std::string_view json_payload,
                                       const StoreOptions& options) {
  return Store(secret, json_payload, nullptr, options);
}

Result<StoredPackage> StorePackageJsonApart(json::Value* secret, std::string* payload,
                                            const StoreOptions& options) {
  std::string compact_payload;
  ZS_ASSIGN_OR_RETURN(StoredPackage stored,
                      Store(secret, *payload, nullptr, options, &compact_payload));
  if (stored.codec == PackageCodec::kCompact) *payload = std::move(compact_payload);
  return stored;
}

std::string_view ZarfCannotRead(std::string_view payload) {
  if (!compact::LooksCompact(payload)) return {};
  return "compact codec: no Zarf release reads it or lists it (label "
         "zarf-state.dev/package-deploy-info); migrate --codec json makes it Zarf's again";
}

bool ListedByZarf(const json::Value& secret) {
  const json::Value* md = secret.Find("metadata");
  const json::Value* labels = md != nullptr ? md->Find("labels") : nullptr;
  return labels != nullptr && labels->is_object() && labels->Find(kPackageLabel) != nullptr;
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
