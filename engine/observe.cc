#include "engine/observe.h"

#include <map>
#include <set>
#include <string>
#include <utility>

#include "engine/derived_status.h"

namespace zs::engine {
namespace {

std::string_view DefinitionString(const json::Value& data, std::string_view section,
                                  std::string_view field) {
  const json::Value* s = data.Find(section);
  return s ? s->StringOr(field) : std::string_view();
}

bool IsTerminal(std::string_view status) {
  return status == kStatusSucceeded || status == kStatusFailed;
}

bool HasV2Events(const DeployedPackage& pkg) {
  for (const PackageEvent& e : pkg.events) {
    if (IsV2Event(e)) return true;
  }
  return false;
}

std::size_t ChartCount(const DeployedComponent& c) {
  return c.installed_charts ? c.installed_charts->size() : 0;
}

bool LastIs(const DeployedComponent& c, std::string_view type, std::string_view outcome) {
  return c.last_event && c.last_event->type == type && c.last_event->outcome == outcome;
}

const std::vector<DeployedComponent>& Components(const DeployedPackage& pkg) {
  static const std::vector<DeployedComponent> kNone;
  return pkg.deployed_components ? *pkg.deployed_components : kNone;
}

// Whether `next`'s components extend the running deploy's list `run`: the
// same names first, each as it was or gone from Deploying to an outcome.
bool ContinuesRun(const DeployedPackage& view, const DeployedPackage& next) {
  const auto& run = Components(view);
  const auto& list = Components(next);
  if (list.size() < run.size() || next.generation < view.generation) return false;
  for (std::size_t i = 0; i < run.size(); ++i) {
    if (list[i].name != run[i].name) return false;
    if (list[i].status == run[i].status) continue;
    if (run[i].status != kStatusDeploying || !IsTerminal(list[i].status)) return false;
  }
  return true;
}

// Whether charts or components of `view` are gone from `next`.
bool SomethingWent(const DeployedPackage& view, const DeployedPackage& next) {
  for (const DeployedComponent& c : Components(view)) {
    const DeployedComponent* now = next.FindComponent(c.name);
    if (now == nullptr || ChartCount(*now) < ChartCount(c)) return true;
  }
  return false;
}

bool StartsDeploying(const DeployedPackage& view, const DeployedPackage& next) {
  for (const DeployedComponent& c : Components(next)) {
    if (c.status != kStatusDeploying) continue;
    const DeployedComponent* before = view.FindComponent(c.name);
    if (before == nullptr || before->status != kStatusDeploying) return true;
  }
  return false;
}

// Builds the steps of one write: events are applied to `cur`, the view as
// it evolves, and each step is a copy of it.
class Deriver {
 public:
  Deriver(const DeployedPackage* view, const ObserveOptions& options, Timestamp seen)
      : options_(options), seen_(seen) {
    if (view != nullptr) cur_ = *view;
    if (view == nullptr || ObservedDeleted(*view)) {
      fresh_ = true;
    } else if (const PackageEvent* latest = LatestEvent(cur_);
               latest != nullptr && latest->outcome == kOutcomeInProgress) {
      open_ = latest->type;
    }
  }

  void Written(const DeployedPackage& next);
  void Deleted();
  ObservedSteps Finish(const DeployedPackage* view);

 private:
  void BeginDeploy(const DeployedPackage& next);
  void DeployProgress(const std::map<std::string, std::string, std::less<>>& before,
                      const DeployedPackage& next);
  void RemoveProgress(const DeployedPackage& next);
  void CloseOpen();
  void EnsureRemoving();
  void EmitPackage(std::string_view type, std::string_view outcome);
  void EmitComponent(std::string_view name, std::string_view type, std::string_view outcome);
  void SwitchTo(const DeployedPackage& next);
  void Flush();

  ObserveOptions options_;
  Timestamp seen_;
  DeployedPackage cur_;
  bool fresh_ = false;
  std::string open_;  // the type of the open operation, or ""
  ObservedSteps out_;
  std::set<std::string, std::less<>> touched_;  // components with an event in the pending step
  bool pending_ = false;                        // events not yet in a step
  bool pending_component_ = false;              // the last pending event is a component's
};

void Deriver::Flush() {
  if (!pending_) return;
  if (options_.max_events != 0 && cur_.events.size() > options_.max_events) {
    cur_.events.erase(cur_.events.begin(),
                      cur_.events.end() - static_cast<std::ptrdiff_t>(options_.max_events));
  }
  out_.steps.push_back(cur_);
  touched_.clear();
  pending_ = false;
  pending_component_ = false;
}

void Deriver::EmitPackage(std::string_view type, std::string_view outcome) {
  if (pending_component_) Flush();
  PackageEvent e;
  e.type = std::string(type);
  e.outcome = std::string(outcome);
  e.timestamp = seen_;
  e.version = std::string(DefinitionString(cur_.data, "metadata", "version"));
  e.flavor = std::string(DefinitionString(cur_.data, "build", "flavor"));
  e.digest = cur_.digest;
  if (type == kEventDeploy) e.source = std::string(kObservedSource);
  cur_.events.push_back(e);
  Record r;
  r.kind = RecordKind::kPackageEvent;
  r.event = std::move(e);
  out_.events.push_back(std::move(r));
  open_ = outcome == kOutcomeInProgress ? std::string(type) : std::string();
  pending_ = true;
}

void Deriver::EmitComponent(std::string_view name, std::string_view type,
                            std::string_view outcome) {
  if (touched_.count(name) != 0) Flush();
  DeployedComponent* c = cur_.FindComponent(name);
  if (c == nullptr) return;  // every caller names a component of cur_
  c->last_event = ComponentEvent{std::string(type), std::string(outcome), seen_, {}};
  Record r;
  r.kind = RecordKind::kComponentEvent;
  r.component = std::string(name);
  r.component_event = *c->last_event;
  out_.events.push_back(std::move(r));
  touched_.insert(std::string(name));
  pending_ = true;
  pending_component_ = true;
}

// The view becomes `next` as written, keeping the derived history: the
// events and each component's lastEvent.
void Deriver::SwitchTo(const DeployedPackage& next) {
  Flush();
  std::map<std::string, std::optional<ComponentEvent>, std::less<>> last;
  for (const DeployedComponent& c : Components(cur_)) last[c.name] = c.last_event;
  std::vector<PackageEvent> events = std::move(cur_.events);
  cur_ = next;
  cur_.events = std::move(events);
  if (cur_.deployed_components) {
    for (DeployedComponent& c : *cur_.deployed_components) {
      auto it = last.find(c.name);
      c.last_event = it == last.end() ? std::nullopt : it->second;
    }
  }
}

// An open operation that the write shows to be over without an outcome of
// its own: its open components and itself end Failed.
void Deriver::CloseOpen() {
  if (open_.empty()) return;
  const std::string type = open_;
  for (const DeployedComponent& c : Components(cur_)) {
    const bool open = type == kEventDeploy ? (c.status == kStatusDeploying ||
                                              LastIs(c, kEventDeploy, kOutcomeInProgress))
                                           : LastIs(c, kEventRemove, kOutcomeInProgress);
    if (open) EmitComponent(c.name, type, kOutcomeFailed);
  }
  EmitPackage(type, kOutcomeFailed);
}

void Deriver::BeginDeploy(const DeployedPackage& next) {
  SwitchTo(next);
  EmitPackage(kEventDeploy, kOutcomeInProgress);
  DeployProgress({}, next);
}

void Deriver::DeployProgress(const std::map<std::string, std::string, std::less<>>& before,
                             const DeployedPackage& next) {
  bool failed = false;
  for (const DeployedComponent& c : Components(next)) {
    auto it = before.find(c.name);
    const std::string_view was = it == before.end() ? std::string_view() : it->second;
    if (c.status == kStatusFailed) failed = true;
    if (c.status == was) continue;
    if (c.status == kStatusDeploying) {
      EmitComponent(c.name, kEventDeploy, kOutcomeInProgress);
    } else if (IsTerminal(c.status)) {
      if (was != kStatusDeploying) EmitComponent(c.name, kEventDeploy, kOutcomeInProgress);
      EmitComponent(c.name, kEventDeploy,
                    c.status == kStatusFailed ? kOutcomeFailed : kOutcomeSucceeded);
    }
  }
  if (open_ != kEventDeploy) return;
  if (failed) {
    EmitPackage(kEventDeploy, kOutcomeFailed);
    return;
  }
  // Zarf stores the definition filtered to the selected components: the
  // deploy is over once each of them succeeded.
  bool all = true;
  const json::Value* defs = next.data.Find("components");
  if (defs != nullptr && defs->is_array() && !defs->array().empty()) {
    for (const json::Value& d : defs->array()) {
      const DeployedComponent* c = next.FindComponent(d.StringOr("name"));
      if (c == nullptr || c->status != kStatusSucceeded) all = false;
    }
  } else {
    for (const DeployedComponent& c : Components(next)) {
      if (c.status != kStatusSucceeded) all = false;
    }
  }
  if (all) EmitPackage(kEventDeploy, kOutcomeSucceeded);
}

void Deriver::EnsureRemoving() {
  if (open_ == kEventRemove) return;
  CloseOpen();
  EmitPackage(kEventRemove, kOutcomeInProgress);
}

void Deriver::RemoveProgress(const DeployedPackage& next) {
  EnsureRemoving();
  const auto& comps = Components(cur_);
  std::vector<std::string> gone;
  for (auto it = comps.rbegin(); it != comps.rend(); ++it) {
    const DeployedComponent* now = next.FindComponent(it->name);
    if (now != nullptr && ChartCount(*now) >= ChartCount(*it)) continue;
    if (!LastIs(*it, kEventRemove, kOutcomeInProgress)) {
      EmitComponent(it->name, kEventRemove, kOutcomeInProgress);
    }
    if (now == nullptr) gone.push_back(it->name);
  }
  for (const std::string& name : gone) EmitComponent(name, kEventRemove, kOutcomeSucceeded);
  SwitchTo(next);
}

void Deriver::Written(const DeployedPackage& next) {
  if (fresh_) {
    BeginDeploy(next);
    return;
  }
  if (open_ == kEventDeploy && ContinuesRun(cur_, next)) {
    std::map<std::string, std::string, std::less<>> before;
    for (const DeployedComponent& c : Components(cur_)) before[c.name] = c.status;
    SwitchTo(next);
    DeployProgress(before, next);
    return;
  }
  if (next.generation > cur_.generation || StartsDeploying(cur_, next)) {
    CloseOpen();
    BeginDeploy(next);
    return;
  }
  if (SomethingWent(cur_, next)) {
    RemoveProgress(next);
    return;
  }
  SwitchTo(next);
}

void Deriver::Deleted() {
  if (fresh_) return;
  EnsureRemoving();
  const auto& comps = Components(cur_);
  std::vector<std::string> names;
  for (auto it = comps.rbegin(); it != comps.rend(); ++it) names.push_back(it->name);
  for (const std::string& name : names) {
    const DeployedComponent* c = cur_.FindComponent(name);
    if (!LastIs(*c, kEventRemove, kOutcomeInProgress)) {
      EmitComponent(name, kEventRemove, kOutcomeInProgress);
    }
  }
  for (const std::string& name : names) EmitComponent(name, kEventRemove, kOutcomeSucceeded);
  Flush();
  cur_.deployed_components.emplace();
  EmitPackage(kEventRemove, kOutcomeSucceeded);
}

ObservedSteps Deriver::Finish(const DeployedPackage* view) {
  Flush();
  if (view == nullptr || !(cur_ == *view)) {
    if (out_.steps.empty() || !(out_.steps.back() == cur_)) out_.steps.push_back(cur_);
  }
  return std::move(out_);
}

}  // namespace

bool ObservedDeleted(const DeployedPackage& view) {
  if (!Components(view).empty()) return false;
  const PackageEvent* latest = LatestEvent(view);
  return latest != nullptr && latest->type == kEventRemove &&
         latest->outcome != kOutcomeInProgress;
}

Result<ObservedSteps> ObserveWrite(const DeployedPackage* view, const ObservedWrite& write,
                                   const ObserveOptions& options) {
  if (view != nullptr && write.package && write.package->name != view->name) {
    return Status::InvalidArgument("a write of package '" + write.package->name +
                                   "' observed as one of package '" + view->name + "'");
  }
  if (write.package && HasV2Events(*write.package)) {
    ObservedSteps out;
    out.taken_as_is = true;
    if (view == nullptr || !(*view == *write.package)) out.steps.push_back(*write.package);
    return out;
  }
  if (!write.package && (view == nullptr || ObservedDeleted(*view))) return ObservedSteps{};
  Deriver d(view, options, write.seen);
  if (write.package) {
    d.Written(*write.package);
  } else {
    d.Deleted();
  }
  return d.Finish(view);
}

}  // namespace zs::engine
