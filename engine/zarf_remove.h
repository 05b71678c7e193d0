// What `zarf package remove <name> --confirm --components <requested>`
// removes when Zarf v0.84.0 reads the package from its Secret
// (src/pkg/packager/remove.go:44-203), computed from the Secret's payload.
//
// The selection is filters.BySelectState over `data.components`
// (engine/zarf_selection.h); an empty one is refused ("package to remove
// contains no components"). When a selected component needs the cluster,
// Zarf walks the Secret's `deployedComponents` in reverse and removes each
// one whose name was selected (a deployed component the definition lacks,
// and a selected one that is not deployed, are skipped), uninstalling its
// charts in reverse; the Secret is deleted when no deployed component is
// left. When none needs the cluster, Zarf builds the list from the selected
// definitions instead (no charts) and always deletes the Secret
// `zarf-package-<name>`, whatever else it held.
//
// Thread safety: pure function, reentrant.
#ifndef ZARF_STATE_ENGINE_ZARF_REMOVE_H_
#define ZARF_STATE_ENGINE_ZARF_REMOVE_H_

#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "model/model.h"

namespace zs::engine {

struct ZarfRemovePlan {
  // Names of the selected components of data.components, definition order.
  std::vector<std::string> selected;
  // Whether a selected component needs the cluster, so that Zarf walks the
  // Secret's deployedComponents (else its own list built from `selected`).
  bool uses_secret = false;
  // Components whose removal runs, in order (a name deployed twice appears
  // twice).
  std::vector<std::string> removed;
  // Releases uninstalled, in order.
  std::vector<InstalledChart> uninstalled;
  // Whether Zarf deletes the Secret (no deployed component left).
  bool secret_deleted = false;
  // The Secret Zarf updates or deletes.
  std::string secret_name;
  // deployedComponents names left when the Secret is kept.
  std::vector<std::string> remaining;
};

// Plans the remove of `pkg` (a package Secret's payload) for `requested`
// (the --components string; "" is the whole package). Errors, nothing
// planned: InvalidArgument "package to remove contains no components" when
// the selection is empty; the selection's bad-glob error.
Result<ZarfRemovePlan> PlanZarfRemove(const DeployedPackage& pkg, std::string_view requested);

}  // namespace zs::engine

#endif  // ZARF_STATE_ENGINE_ZARF_REMOVE_H_
