#include <string>

#include "model/config.h"
#include "fuzz/targets.h"
#include "json/canonical_json.h"
#include "json/json_reader.h"
#include "yaml/yaml.h"

namespace zs::fuzz {
namespace {

// One document, as `config digest` reads it: JSON when it starts like JSON,
// else YAML.
Result<json::Value> ReadConfigDocument(std::string_view data) {
  const std::size_t first = data.find_first_not_of(" \t\r\n");
  if (first != std::string_view::npos && (data[first] == '{' || data[first] == '[')) {
    return json::ParseJson(data);
  }
  ZS_ASSIGN_OR_RETURN(std::vector<json::Value> docs, yaml::ParseDocuments(data));
  if (docs.size() != 1) return Status::InvalidArgument("not one document");
  return std::move(docs[0]);
}

// Marshal, digest, and the fixed point: decoding what Marshal wrote and
// marshalling again gives the same bytes (else digests would drift).
template <typename Config, typename Decode, typename Marshal, typename Digest,
          typename Canonical>
std::string Check(const json::Value& doc, Decode decode, Marshal marshal, Digest digest,
                  Canonical canonical, std::string_view kind) {
  Result<Config> config = decode(doc);
  if (!config.ok()) {
    return config.status().message().empty() ? std::string(kind) + " error without a message" : "";
  }
  Result<std::string> bytes = marshal(*config);
  Result<std::string> d = digest(*config);
  if (bytes.ok() != d.ok()) return std::string(kind) + ": marshal and digest disagree";
  if (!bytes.ok()) return "";  // a number beyond float64: refused, as Go would
  if (*d != Sha256Digest(*bytes)) return std::string(kind) + ": digest is not sha256 of marshal";
  auto reparsed = json::ParseJson(*bytes);
  if (!reparsed.ok()) return std::string(kind) + ": marshal output does not parse: " +
                             reparsed.status().ToString();
  Result<Config> again = decode(*reparsed);
  if (!again.ok()) return std::string(kind) + ": marshal output does not decode: " +
                          again.status().ToString();
  Result<std::string> bytes_again = marshal(*again);
  if (!bytes_again.ok() || *bytes_again != *bytes) {
    return std::string(kind) + ": marshal is not a fixed point";
  }
  Result<std::string> c = canonical(*config);
  if (!c.ok()) return std::string(kind) + ": canonical digest failed on a marshallable config: " +
                     c.status().ToString();
  if (!c->starts_with(json::kCanonicalDigestPrefix)) return std::string(kind) + ": bad canonical prefix";
  return "";
}

}  // namespace

std::string ConfigDigest(std::string_view data) {
  auto doc = ReadConfigDocument(data);
  if (!doc.ok()) return "";
  (void)json::CanonicalDigest(*doc);
  std::string broken = Check<DeployConfig>(*doc, DecodeDeployConfig, MarshalDeployConfig,
                                           DeployConfigDigest, CanonicalDeployConfigDigest,
                                           "DeployConfig");
  if (!broken.empty()) return broken;
  return Check<RemoveConfig>(*doc, DecodeRemoveConfig, MarshalRemoveConfig, RemoveConfigDigest,
                             CanonicalRemoveConfigDigest, "RemoveConfig");
}

}  // namespace zs::fuzz
