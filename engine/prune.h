// Prune planning: what Zarf's `--prune` (ZEP-0026, docs/model.md section 6) would
// remove when a package is upgraded or removed. The plan is computed exactly
// and only printed; nothing here talks to a cluster or a registry.
//
// An upgrade from the deployed package to a new definition prunes:
//  * charts: for each component deployed before and present in the new
//    package, the `namespace/chartName` keys it has installed that the new
//    component no longer installs (Helm charts and the releases of
//    `manifests` alike, named as Zarf names them, engine/zarf_charts.h; an
//    entry an earlier writer spelled `raw-...` counts as its release). When
//    the deployed package has a namespace override, the new definition is
//    read with it applied, as Zarf deploys it (model/namespace_override.h);
//  * components: deployed components absent from the new package, in the
//    order Zarf removes them (reverse deployment order), with their onRemove
//    actions and installed charts;
//  * images: images of the deployed package's deployed components that the
//    new package no longer lists and that no other deployed package
//    references; an image another package still references is listed as
//    kept, with the packages keeping it.
// A remove (`zarf package remove --prune`) prunes every deployed component
// and every image of the package that nothing else references.
//
// "Same image" means same ImageRef::Key(): the normalized name plus the
// digest if there is one, else the tag (engine/image_ref.h). So "nginx:1.25"
// and "docker.io/library/nginx:1.25" are one image; "nginx:1.25" and
// "nginx@sha256:..." are two, even if the tag points at that digest (the
// planner cannot know without a registry, and keeps both pushed references
// apart as Zarf pushed them apart).
//
// Which images a package references: those of its components that have a
// DeployedComponent (looked up by name in `data.components`); a package with
// no deployedComponents at all (never recorded) counts every component of its
// definition, which can only keep more images. The new package references
// all of its components' images (`--components` is ignored).
//
// Visibility: image pruning is only safe when every other package Secret was
// read. The caller lists what it could not read (`unreadable`, e.g.
// "secret zarf/zarf-package-x" or "namespace zarf"); if that list is not
// empty the plan refuses image pruning (`image_pruning_refused`, naming the
// missing read access) and still plans charts and components. Image pruning
// is refused the same way when a deployed component (of the deployed package
// or of another) has no definition in its package's `data.components` (a
// Zarf without ZEP-0026 rewrote the Secret and dropped it): the images it
// runs are unknown. The message names each such component. A component kept
// by the partial-deploy rule keeps its definition (engine/fold.h, rule 9), so
// its images, charts and onRemove actions are always seen.
//
// Thread safety: reentrant; the plan is a plain value.
#ifndef ZARF_STATE_ENGINE_PRUNE_H_
#define ZARF_STATE_ENGINE_PRUNE_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "model/model.h"
#include "engine/image_ref.h"
#include "engine/zarf_charts.h"
#include "json/json_value.h"

namespace zs::engine {

// One onRemove action of a removed component.
struct PruneAction {
  std::string phase;        // "before", "after", "onSuccess" or "onFailure"
  std::string cmd;          // may be empty (e.g. a wait action)
  std::string description;  // may be empty
};

// Charts to uninstall inside a component that stays.
struct ChartsToUninstall {
  std::string component;
  std::vector<std::string> charts;  // ChartKey()s, in installed order
};

// A component removed entirely.
struct ComponentToRemove {
  std::string name;
  // In the order Zarf runs them: onRemove.before, then (after the charts are
  // uninstalled) onRemove.after, then onRemove.onSuccess.
  std::vector<PruneAction> actions;
  // onRemove.onFailure: run only if the removal fails.
  std::vector<PruneAction> on_failure;
  std::vector<std::string> charts;  // ChartKey()s it has installed
};

// An image the plan deletes from the Zarf registry.
struct ImageToPrune {
  std::string image;  // as the deployed package lists it
  ImageRef ref;       // normalized
  // PushedReferences(ref, registry): the plain tag and the CRC tag, or the
  // digest reference alone.
  std::vector<std::string> references;
};

// An image the package no longer uses that another package still does.
struct ImageKept {
  std::string image;
  ImageRef ref;
  // The packages keeping it, sorted, unique: "<name>", or "<name> (namespace
  // override <ns>)" for a package deployed with a namespace override.
  std::vector<std::string> kept_by;
};

struct PrunePlan {
  std::string package;     // the deployed package's name
  bool is_remove = false;  // PlanRemove rather than PlanUpgrade
  std::vector<ChartsToUninstall> charts;
  std::vector<ComponentToRemove> components;
  std::vector<ImageToPrune> images;  // empty when image pruning is refused
  std::vector<ImageKept> kept_images;
  // Set when image pruning was refused (visibility, or a deployed component
  // whose definition is unknown); images/kept_images are then empty. The
  // message names the missing read access or the components.
  std::optional<Status> image_pruning_refused;
  // Images that could not be parsed: never pruned, reported here.
  std::vector<std::string> warnings;
};

struct PruneOptions {
  // The Zarf registry host the references are prefixed with. Default: ""
  // (references relative to the registry, "library/nginx:1.25").
  std::string registry;
};

// Plans the upgrade of `deployed` to `new_package` (a ZarfPackage
// definition), against `others`, every other deployed package the caller
// read (an entry with the same Secret name as `deployed` is ignored), and
// `unreadable`, what the caller could not read. Returns InvalidArgument when
// `new_package` is not an object with a `components` array (or none at all,
// read as no components), or when Zarf would refuse to deploy it with the
// deployed package's namespace override (the message gives Zarf's reason).
// Malformed image references are skipped with a
// warning, never pruned. The references must only live for the call.
Result<PrunePlan> PlanUpgrade(const DeployedPackage& deployed,
                              const json::Value& new_package,
                              const std::vector<DeployedPackage>& others,
                              const std::vector<std::string>& unreadable,
                              const PruneOptions& options = {});

// Plans `zarf package remove --prune` of `deployed`: every deployed
// component, and every image of it that no other package references.
Result<PrunePlan> PlanRemove(const DeployedPackage& deployed,
                             const std::vector<DeployedPackage>& others,
                             const std::vector<std::string>& unreadable,
                             const PruneOptions& options = {});

}  // namespace zs::engine

#endif  // ZARF_STATE_ENGINE_PRUNE_H_
