#include "engine/prune.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "model/namespace_override.h"

namespace zs::engine {
namespace {

using json::Value;

const Value* ComponentsOf(const Value& definition) {
  const Value* comps = definition.Find("components");
  return comps != nullptr && comps->is_array() ? comps : nullptr;
}

const Value* FindDefinedComponent(const Value& definition,
                                  std::string_view name) {
  if (const Value* comps = ComponentsOf(definition)) {
    for (const Value& c : comps->array()) {
      if (c.StringOr("name") == name) return &c;
    }
  }
  return nullptr;
}

std::string PackageNameOf(const Value& definition, std::string_view fallback) {
  if (const Value* meta = definition.Find("metadata");
      meta != nullptr && meta->is_object()) {
    if (std::string_view name = meta->StringOr("name"); !name.empty())
      return std::string(name);
  }
  return std::string(fallback);
}

// Calls visit(image string) for each image listed by `component`.
template <typename Visit>
void ForEachImageOf(const Value& component, Visit&& visit) {
  const Value* images = component.Find("images");
  if (images == nullptr || !images->is_array()) return;
  for (const Value& image : images->array()) {
    if (image.is_string()) visit(image.as_string());
  }
}

// Calls visit(image string) for each image `pkg` references (see prune.h:
// the images of its deployed components, or of every component when it has
// no deployedComponents at all).
template <typename Visit>
void ForEachReferencedImage(const DeployedPackage& pkg, Visit&& visit) {
  const Value* comps = ComponentsOf(pkg.data);
  if (comps == nullptr) return;
  for (const Value& c : comps->array()) {
    if (pkg.deployed_components.has_value() &&
        pkg.FindComponent(c.StringOr("name")) == nullptr) {
      continue;
    }
    ForEachImageOf(c, visit);
  }
}

// The charts a deployed component has installed; a legacy state without the
// list gets the charts its definition installs.
std::vector<InstalledChart> InstalledOf(const DeployedPackage& deployed,
                                        const DeployedComponent& dc) {
  if (dc.installed_charts.has_value()) return *dc.installed_charts;
  if (const Value* def = FindDefinedComponent(deployed.data, dc.name)) {
    return ExpectedCharts(*def, deployed.name);
  }
  return {};
}

std::vector<std::string> InstalledKeys(const DeployedPackage& deployed,
                                       const DeployedComponent& dc) {
  std::vector<std::string> keys;
  for (const InstalledChart& c : InstalledOf(deployed, dc)) keys.push_back(ChartKey(c));
  return keys;
}

void AppendActions(const Value* on_remove, std::string_view phase,
                   std::vector<PruneAction>* out) {
  if (on_remove == nullptr || !on_remove->is_object()) return;
  const Value* list = on_remove->Find(phase);
  if (list == nullptr || !list->is_array()) return;
  for (const Value& a : list->array()) {
    PruneAction action;
    action.phase = std::string(phase);
    action.cmd = std::string(a.StringOr("cmd"));
    action.description = std::string(a.StringOr("description"));
    out->push_back(std::move(action));
  }
}

ComponentToRemove RemovalOf(const DeployedPackage& deployed,
                            const DeployedComponent& dc) {
  ComponentToRemove r;
  r.name = dc.name;
  r.charts = InstalledKeys(deployed, dc);
  const Value* on_remove = nullptr;
  if (const Value* def = FindDefinedComponent(deployed.data, dc.name)) {
    if (const Value* actions = def->Find("actions");
        actions != nullptr && actions->is_object()) {
      on_remove = actions->Find("onRemove");
    }
  }
  AppendActions(on_remove, "before", &r.actions);
  AppendActions(on_remove, "after", &r.actions);
  AppendActions(on_remove, "onSuccess", &r.actions);
  AppendActions(on_remove, "onFailure", &r.on_failure);
  return r;
}

// The image candidates of a plan, in first-seen order, deduplicated by key.
struct Candidate {
  std::string image;
  ImageRef ref;
  std::vector<std::size_t> kept_by;  // indexes into `others`
};

// "component 'x' of package p" for each deployed component of `pkg` whose
// definition is not in its data.components (e.g. a Zarf without ZEP-0026
// rewrote the Secret): the images it runs are unknown.
void AddUnknownDefinitions(const DeployedPackage& pkg, std::vector<std::string>* out) {
  if (!pkg.deployed_components) return;
  for (const DeployedComponent& dc : *pkg.deployed_components) {
    if (FindDefinedComponent(pkg.data, dc.name) == nullptr) {
      out->push_back("component '" + dc.name + "' of package " + pkg.name);
    }
  }
}

// Why image pruning must be refused, or OK: a package that could not be
// read (`unreadable`), or a deployed component of `deployed` or of another
// package whose definition is missing, may run any image.
Status ImagePruningRefusal(const DeployedPackage& deployed,
                           const std::vector<DeployedPackage>& others,
                           const std::vector<std::string>& unreadable,
                           const std::string& self) {
  if (!unreadable.empty()) {
    std::string missing;
    for (const std::string& u : unreadable)
      missing += (missing.empty() ? "" : ", ") + u;
    return Status::InvalidArgument(
        "image pruning refused: not every deployed package could be read, so "
        "an image may "
        "still be in use; missing read access to: " +
        missing +
        " (grant get/list on Secrets there and plan again; charts and "
        "components are still "
        "planned)");
  }
  std::vector<std::string> unknown;
  AddUnknownDefinitions(deployed, &unknown);
  for (const DeployedPackage& other : others) {
    if (PackageSecretName(other.name, other.namespace_override) != self)
      AddUnknownDefinitions(other, &unknown);
  }
  if (!unknown.empty()) {
    std::string list;
    for (const std::string& u : unknown) list += (list.empty() ? "" : ", ") + u;
    return Status::InvalidArgument(
        "image pruning refused: the definition of a deployed component is not in its "
        "package's data.components, so the images it runs are unknown: " +
        list +
        " (a Zarf without ZEP-0026 may have rewritten the Secret; redeploy that package "
        "with its full definition and plan again; charts and components are still planned)");
  }
  return Status::OK();
}

// Sets each candidate's kept_by: the indexes of the packages in `others`
// (but `deployed` itself, named `self`) that reference it.
void FindKeepers(const DeployedPackage& deployed, const std::string& self,
                 const std::vector<DeployedPackage>& others,
                 std::vector<Candidate>* candidates) {
  // Only candidates can be kept, so the index holds candidate keys alone and
  // the scan of the others is one parse and one lookup per image.
  std::unordered_map<std::string, std::size_t> index;
  index.reserve(candidates->size() * 2);
  for (std::size_t i = 0; i < candidates->size(); ++i)
    index.emplace((*candidates)[i].ref.Key(), i);
  std::string key;
  ImageRefView ref;
  for (std::size_t p = 0; p < others.size() && !index.empty(); ++p) {
    const DeployedPackage& other = others[p];
    if (other.name == deployed.name &&
        PackageSecretName(other.name, other.namespace_override) == self) {
      continue;
    }
    ForEachReferencedImage(other, [&](const std::string& image) {
      if (!ParseImageRef(image, &ref).ok()) return;  // cannot name a candidate, which all parse
      key.clear();
      AppendImageKey(&key, ref);
      auto it = index.find(key);
      if (it == index.end()) return;
      std::vector<std::size_t>& kept = (*candidates)[it->second].kept_by;
      if (kept.empty() || kept.back() != p) kept.push_back(p);
    });
  }
}

// Finds which candidates other packages reference, and fills the plan.
void PlanImages(const DeployedPackage& deployed,
                std::vector<Candidate> candidates,
                const std::vector<DeployedPackage>& others,
                const std::vector<std::string>& unreadable,
                const PruneOptions& options, PrunePlan* plan) {
  const std::string self =
      PackageSecretName(deployed.name, deployed.namespace_override);
  Status refusal = ImagePruningRefusal(deployed, others, unreadable, self);
  if (!refusal.ok()) {
    plan->image_pruning_refused = std::move(refusal);
    return;
  }
  FindKeepers(deployed, self, others, &candidates);
  for (Candidate& c : candidates) {
    if (c.kept_by.empty()) {
      ImageToPrune prune{c.image, c.ref,
                         PushedReferences(c.ref, options.registry)};
      plan->images.push_back(std::move(prune));
      continue;
    }
    ImageKept kept{c.image, c.ref, {}};
    for (std::size_t p : c.kept_by) {
      const DeployedPackage& other = others[p];
      kept.kept_by.push_back(other.namespace_override.empty()
                                 ? other.name
                                 : other.name + " (namespace override " +
                                       other.namespace_override + ")");
    }
    std::sort(kept.kept_by.begin(), kept.kept_by.end());
    kept.kept_by.erase(std::unique(kept.kept_by.begin(), kept.kept_by.end()),
                       kept.kept_by.end());
    plan->kept_images.push_back(std::move(kept));
  }
}

// Adds `image` to `candidates` unless its key is in `still_used` or already
// there; malformed references become warnings.
void AddCandidate(const std::string& image,
                  const std::unordered_set<std::string>& still_used,
                  std::unordered_set<std::string>* seen,
                  std::vector<Candidate>* candidates, PrunePlan* plan) {
  auto ref = ParseImageRef(image);
  if (!ref.ok()) {
    plan->warnings.push_back("not pruned: " +
                             std::string(ref.status().message()));
    return;
  }
  std::string key = ref->Key();
  if (still_used.count(key) != 0 || !seen->insert(std::move(key)).second)
    return;
  candidates->push_back(Candidate{image, std::move(ref).value(), {}});
}

}  // namespace

Result<PrunePlan> PlanUpgrade(const DeployedPackage& deployed,
                              const Value& new_package,
                              const std::vector<DeployedPackage>& others,
                              const std::vector<std::string>& unreadable,
                              const PruneOptions& options) {
  if (!new_package.is_object()) {
    return Status::InvalidArgument(
        "new package: expected a ZarfPackage object, found " +
        std::string(json::KindName(new_package.kind())));
  }
  if (const Value* comps = new_package.Find("components");
      comps != nullptr && !comps->is_array() && !comps->is_null()) {
    return Status::InvalidArgument(
        "new package: components: expected an array");
  }
  // Zarf deploys the new package with the override the deployed one has.
  Value overridden;
  const Value* next = &new_package;
  if (!deployed.namespace_override.empty()) {
    overridden = new_package;
    Status s = OverrideNamespace(&overridden, deployed.namespace_override);
    if (!s.ok()) {
      return s.WithContext("new package: Zarf cannot deploy it with the namespace override '" +
                           deployed.namespace_override + "' the deployed package has");
    }
    next = &overridden;
  }
  PrunePlan plan;
  plan.package = deployed.name;
  const std::string new_name = PackageNameOf(*next, deployed.name);
  static const std::vector<DeployedComponent> kNone;
  const std::vector<DeployedComponent>& deployed_comps =
      deployed.deployed_components ? *deployed.deployed_components : kNone;

  for (const DeployedComponent& dc : deployed_comps) {
    const Value* now = FindDefinedComponent(*next, dc.name);
    if (now == nullptr) continue;
    std::unordered_set<std::string> keep;
    for (const InstalledChart& c : ExpectedCharts(*now, new_name)) keep.insert(ChartKey(c));
    ChartsToUninstall u{dc.name, {}};
    for (const InstalledChart& c : InstalledOf(deployed, dc)) {
      // A release counts as kept under its legacy `raw-...` spelling too.
      if (keep.count(ChartKey(c)) == 0 && keep.count(ReleaseKey(c)) == 0) {
        u.charts.push_back(ChartKey(c));
      }
    }
    if (!u.charts.empty()) plan.charts.push_back(std::move(u));
  }
  for (auto it = deployed_comps.rbegin(); it != deployed_comps.rend(); ++it) {
    if (FindDefinedComponent(*next, it->name) == nullptr) {
      plan.components.push_back(RemovalOf(deployed, *it));
    }
  }

  std::unordered_set<std::string> still_used;
  if (const Value* comps = ComponentsOf(*next)) {
    for (const Value& c : comps->array()) {
      ForEachImageOf(c, [&](const std::string& image) {
        if (auto ref = ParseImageRef(image); ref.ok())
          still_used.insert(ref->Key());
      });
    }
  }
  std::unordered_set<std::string> seen;
  std::vector<Candidate> candidates;
  ForEachReferencedImage(deployed, [&](const std::string& image) {
    AddCandidate(image, still_used, &seen, &candidates, &plan);
  });
  PlanImages(deployed, std::move(candidates), others, unreadable, options,
             &plan);
  return plan;
}

Result<PrunePlan> PlanRemove(const DeployedPackage& deployed,
                             const std::vector<DeployedPackage>& others,
                             const std::vector<std::string>& unreadable,
                             const PruneOptions& options) {
  PrunePlan plan;
  plan.package = deployed.name;
  plan.is_remove = true;
  if (deployed.deployed_components) {
    for (auto it = deployed.deployed_components->rbegin();
         it != deployed.deployed_components->rend(); ++it) {
      plan.components.push_back(RemovalOf(deployed, *it));
    }
  }
  const std::unordered_set<std::string> none;
  std::unordered_set<std::string> seen;
  std::vector<Candidate> candidates;
  ForEachReferencedImage(deployed, [&](const std::string& image) {
    AddCandidate(image, none, &seen, &candidates, &plan);
  });
  PlanImages(deployed, std::move(candidates), others, unreadable, options,
             &plan);
  return plan;
}

}  // namespace zs::engine
