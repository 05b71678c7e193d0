// The package definition a `zarf package deploy` records, from the
// definition given, the `--components` request and the DeployConfig, as
// Zarf v0.84.0 derives it: the components filters.ForDeploy selects
// (engine/zarf_selection.h), in its order, then the namespace override
// applied (model/namespace_override.h); Zarf stores that as the Secret's
// `data` (src/pkg/cluster/zarf.go:172) and deploys exactly those
// components. A package with `metadata.yolo: true` is recorded as
// `connected` (src/pkg/packager/deploy.go:134-136).
//
// Thread safety: pure functions, reentrant.
#ifndef ZARF_STATE_ENGINE_ZARF_DEPLOY_H_
#define ZARF_STATE_ENGINE_ZARF_DEPLOY_H_

#include <string>
#include <string_view>

#include "base/status.h"
#include "json/json_value.h"

namespace zs::engine {

// The definition Zarf deploys and stores for `package` (a ZarfPackage as
// Zarf stores it: model/zarf_package.h), `requested` (the --components
// string, "" for none) and `config` (a DeployConfig as JSON, or null).
// Errors, in Zarf's words: the selection's (InvalidArgument "error applying
// filter *filters.deploymentFilter: ..."), the namespace override's
// refusal, a config that does not decode. When an override rewrites the
// definition it is returned as Zarf marshals it again.
Result<json::Value> ZarfDeployDefinition(const json::Value& package, std::string_view requested,
                                         const json::Value& config);

// "connected" for a YOLO package, else `requested` ("airgap" or "connected").
std::string ZarfConnectivity(const json::Value& package, std::string_view requested);

}  // namespace zs::engine

#endif  // ZARF_STATE_ENGINE_ZARF_DEPLOY_H_
