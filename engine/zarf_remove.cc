#include "engine/zarf_remove.h"

#include <algorithm>

#include "engine/zarf_selection.h"

namespace zs::engine {

Result<ZarfRemovePlan> PlanZarfRemove(const DeployedPackage& pkg, std::string_view requested) {
  ZS_ASSIGN_OR_RETURN(std::vector<std::size_t> picked, SelectForRemove(pkg.data, requested));
  if (picked.empty()) return Status::InvalidArgument("package to remove contains no components");
  ZarfRemovePlan plan;
  const json::Value& defs = *pkg.data.Find("components");  // non-empty: something was picked
  for (std::size_t i : picked) {
    const json::Value& c = defs.array()[i];
    plan.selected.emplace_back(c.StringOr("name"));
    plan.uses_secret = plan.uses_secret || RequiresCluster(c);
  }
  std::vector<DeployedComponent> deployed;
  if (plan.uses_secret) {
    if (pkg.deployed_components) deployed = *pkg.deployed_components;
    plan.secret_name = PackageSecretName(pkg.name, pkg.namespace_override);
  } else {
    for (const std::string& name : plan.selected) {
      DeployedComponent dc;
      dc.name = name;
      deployed.push_back(std::move(dc));
    }
    const json::Value* metadata = pkg.data.Find("metadata");
    plan.secret_name =
        PackageSecretName(metadata != nullptr ? metadata->StringOr("name") : pkg.name, "");
  }
  std::vector<std::string> left;
  for (const DeployedComponent& dc : deployed) left.push_back(dc.name);
  for (auto it = deployed.rbegin(); it != deployed.rend(); ++it) {
    if (std::find(plan.selected.begin(), plan.selected.end(), it->name) == plan.selected.end()) {
      continue;
    }
    plan.removed.push_back(it->name);
    if (it->installed_charts) {
      plan.uninstalled.insert(plan.uninstalled.end(), it->installed_charts->rbegin(),
                              it->installed_charts->rend());
    }
    std::erase(left, it->name);
  }
  plan.secret_deleted = left.empty();
  if (!plan.secret_deleted) plan.remaining = std::move(left);
  return plan;
}

}  // namespace zs::engine
