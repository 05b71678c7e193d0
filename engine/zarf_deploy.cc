#include "engine/zarf_deploy.h"

#include <algorithm>
#include <vector>

#include "model/config.h"
#include "model/namespace_override.h"
#include "model/zarf_package.h"
#include "engine/zarf_selection.h"
#include "json/json_reader.h"

namespace zs::engine {

Result<json::Value> ZarfDeployDefinition(const json::Value& package, std::string_view requested,
                                         const json::Value& config) {
  ZS_ASSIGN_OR_RETURN(DeployConfig decoded, DecodeDeployConfig(config));
  ZS_ASSIGN_OR_RETURN(std::vector<std::size_t> picked, SelectForDeploy(package, requested));
  json::Value out = RetainComponents(package, picked);
  if (decoded.namespace_override.empty()) return out;
  ZS_RETURN_IF_ERROR(OverrideNamespace(&out, decoded.namespace_override));
  // A namespace added where there was none goes to its place in Zarf's
  // field order, and one set to "" is omitted, as Zarf writes them.
  ZS_ASSIGN_OR_RETURN(std::string bytes, MarshalZarfPackage(out, nullptr));
  json::ParseOptions options;
  options.max_depth = 1024;
  options.max_bytes = std::max(options.max_bytes, bytes.size());
  return json::ParseJson(bytes, options);
}

std::string ZarfConnectivity(const json::Value& package, std::string_view requested) {
  const json::Value* metadata = package.Find("metadata");
  const json::Value* yolo = metadata != nullptr ? metadata->Find("yolo") : nullptr;
  if (yolo != nullptr && yolo->is_bool() && yolo->as_bool()) return "connected";
  return std::string(requested);
}

}  // namespace zs::engine
