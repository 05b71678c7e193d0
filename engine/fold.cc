#include "engine/fold.h"

#include <algorithm>

#include "engine/work_counters.h"
#include "engine/zarf_charts.h"
#include "engine/zarf_selection.h"
#include "model/model_json.h"
#include "json/go_json.h"
#include "json/json_reader.h"

namespace zs::engine {
namespace {

const json::Value* FindComponentDefinition(const json::Value& definition, std::string_view name) {
  const json::Value* comps = definition.Find("components");
  if (comps == nullptr || !comps->is_array()) return nullptr;
  for (const json::Value& c : comps->array()) {
    if (c.StringOr("name") == name) return &c;
  }
  return nullptr;
}

bool ValidType(std::string_view t) { return t == kEventDeploy || t == kEventRemove; }

bool ValidOutcome(std::string_view o) {
  return o == kOutcomeInProgress || o == kOutcomeSucceeded || o == kOutcomeFailed ||
         o == kOutcomeCancelled;
}

// docs/model.md rule 4: the deprecated status an event maps to; empty = keep.
std::string_view StatusFor(std::string_view type, std::string_view outcome) {
  if (outcome == kOutcomeCancelled) return {};
  if (outcome == kOutcomeFailed) return kStatusFailed;
  if (type == kEventDeploy) {
    return outcome == kOutcomeInProgress ? kStatusDeploying : kStatusSucceeded;
  }
  return outcome == kOutcomeInProgress ? kStatusRemoving : std::string_view{};
}

// The top-level connectStrings are the union of every installed chart's.
void RebuildConnectStrings(DeployedPackage* pkg) {
  ConnectStrings merged;
  if (pkg->deployed_components) {
    for (const DeployedComponent& c : *pkg->deployed_components) {
      if (!c.installed_charts) continue;
      for (const InstalledChart& chart : *c.installed_charts) {
        for (const auto& [k, v] : chart.connect_strings) merged[k] = v;
      }
    }
  }
  pkg->connect_strings = std::move(merged);
}

}  // namespace

Status Folder::Validate(const Record& r) const {
  switch (r.kind) {
    case RecordKind::kBase:
      if (applied_ != 0) return Status::InvalidArgument("a Base record may only start a log");
      break;
    case RecordKind::kPackageEvent:
      if (!ValidType(r.event.type) || !ValidOutcome(r.event.outcome)) {
        return Status::InvalidArgument("package event " + r.event.type + "/" + r.event.outcome +
                                       " is not in the v2 vocabulary");
      }
      break;
    case RecordKind::kComponentEvent:
      if (!ValidType(r.component_event.type) || !ValidOutcome(r.component_event.outcome)) {
        return Status::InvalidArgument("component event " + r.component_event.type + "/" +
                                       r.component_event.outcome + " of " + r.component +
                                       " is not in the v2 vocabulary");
      }
      break;
  }
  return Status::OK();
}

Status Folder::Apply(const Record& r) {
  ZS_RETURN_IF_ERROR(Validate(r));
  internal::CountRecordFolded();
  switch (r.kind) {
    case RecordKind::kBase:
      if (r.base) {
        pkg_ = *r.base;
        events_marked_ = 0;
      }
      break;
    case RecordKind::kPackageEvent:
      ApplyPackageEvent(r);
      break;
    case RecordKind::kComponentEvent:
      ApplyComponentEvent(r);
      break;
  }
  ++applied_;
  return Status::OK();
}

const DeployedPackage& Folder::snapshot() const {
  if (data_facts_) {
    pkg_.data = data_facts_->data;
    data_facts_.reset();
    if (!carried_.empty()) {
      json::Value* comps = pkg_.data.Find("components");
      if (comps == nullptr || !comps->is_array()) {
        pkg_.data.Set("components", json::Value::MakeArray());
        comps = pkg_.data.Find("components");
      }
      for (json::Value& c : carried_) comps->array().push_back(std::move(c));
      carried_.clear();
    }
  }
  if (config_dirty_) {
    if (config_facts_) {
      pkg_.deploy_config = config_facts_->deploy_config;
    } else {
      pkg_.deploy_config.reset();
    }
    config_facts_.reset();
    config_dirty_ = false;
  }
  if (connect_strings_dirty_) {
    RebuildConnectStrings(&pkg_);
    connect_strings_dirty_ = false;
  }
  if (go_written_dirty_) {
    // Events marked at an earlier read stay marked: only the new ones are
    // walked, so reading the snapshot after every record of a long uncapped
    // history stays linear. The rest (components, charts) is small.
    for (std::size_t i = events_marked_; i < pkg_.events.size(); ++i) {
      pkg_.events[i].unknown.absent = 0;
    }
    events_marked_ = pkg_.events.size();
    std::vector<PackageEvent> events;
    events.swap(pkg_.events);
    MarkGoWritten(&pkg_);
    events.swap(pkg_.events);
    go_written_dirty_ = false;
  }
  // Rule 2, settled: keep the newest max_events.
  TrimEvents(options_.max_events);
  return pkg_;
}

void Folder::ApplyPackageEvent(const Record& r) {
  const PackageEvent& e = r.event;
  // A package with an event is v2 state, written as Go writes the ZEP-0026
  // types: from here on no field counts as absent (snapshot()).
  go_written_dirty_ = true;
  // Rules 1 and 2: append; the oldest beyond the cap are evicted in batches
  // here and exactly when the snapshot is read.
  pkg_.events.push_back(e);
  if (options_.max_events != 0 && pkg_.events.size() >= 2 * options_.max_events + 8) {
    TrimEvents(options_.max_events);
  }
  if (e.type == kEventDeploy && e.outcome == kOutcomeInProgress) {
    deleted_ = false;
    running_facts_ = r.facts;
    if (r.facts) {
      const DeployFacts& f = *r.facts;
      if (!f.name.empty()) pkg_.name = f.name;
      pkg_.digest = f.digest;
      CarryKeptDefinitions(f.data);
      data_facts_ = r.facts;  // the definition is copied in by snapshot()
      pkg_.cli_version = f.cli_version;
      pkg_.namespace_override = f.namespace_override;
      pkg_.package_connectivity = f.package_connectivity;
    }
    pending_config_digest_ = e.config_digest;
    if (!pkg_.deployed_components) pkg_.deployed_components.emplace();
  } else if (e.type == kEventDeploy && e.outcome == kOutcomeSucceeded) {
    // Rule 6: only a successful deploy replaces the recorded config: the one
    // it started with, or (resumed from a Secret) the one its record carries.
    config_facts_ = r.facts && r.facts->deploy_config ? r.facts : running_facts_;
    if (config_facts_ && !config_facts_->deploy_config) config_facts_.reset();
    config_dirty_ = true;
    pkg_.config_digest = pending_config_digest_.empty() ? e.config_digest : pending_config_digest_;
    running_facts_.reset();
    pending_config_digest_.clear();
  } else if (e.type == kEventDeploy) {
    running_facts_.reset();
    pending_config_digest_.clear();
  } else if (e.outcome != kOutcomeInProgress && pkg_.deployed_components &&
             pkg_.deployed_components->empty()) {
    // Rule 12: a remove that leaves no component deletes the Secret. The
    // next deploy starts a new one (generation 1, no events), as Zarf's does.
    DeleteSecret();
  }
}

void Folder::TrimEvents(std::size_t keep) const {
  if (keep == 0 || pkg_.events.size() <= keep) return;
  const std::size_t evicted = pkg_.events.size() - keep;
  pkg_.events.erase(pkg_.events.begin(), pkg_.events.begin() + static_cast<std::ptrdiff_t>(evicted));
  events_marked_ = events_marked_ > evicted ? events_marked_ - evicted : 0;
}

void Folder::DeleteSecret() {
  DeployedPackage fresh;
  fresh.name = pkg_.name;
  pkg_ = std::move(fresh);
  events_marked_ = 0;
  data_facts_.reset();
  carried_.clear();
  config_facts_.reset();
  config_dirty_ = false;
  connect_strings_dirty_ = false;
  running_facts_.reset();
  pending_config_digest_.clear();
  deleted_ = true;
}

void Folder::CarryKeptDefinitions(const json::Value& next) {
  // The definition the package has now: the materialised one, or the one a
  // deploy not yet read out will copy in, with what that deploy carries.
  std::vector<json::Value> carried;
  auto consider = [&](const json::Value& def) {
    const std::string_view name = def.StringOr("name");
    if (pkg_.FindComponent(name) == nullptr || FindComponentDefinition(next, name) != nullptr) {
      return;
    }
    for (const json::Value& c : carried) {
      if (c.StringOr("name") == name) return;
    }
    carried.push_back(def);
  };
  const json::Value& now = data_facts_ ? data_facts_->data : pkg_.data;
  if (const json::Value* comps = now.Find("components"); comps && comps->is_array()) {
    for (const json::Value& c : comps->array()) consider(c);
  }
  for (const json::Value& c : carried_) consider(c);
  carried_ = std::move(carried);
}

void Folder::ApplyComponentEvent(const Record& r) {
  const ComponentEvent& e = r.component_event;
  DeployedComponent* c = pkg_.FindComponent(r.component);
  if (c == nullptr) {
    // Rule 3: a component exists once a deploy attempt reaches it. A remove
    // of a component the snapshot does not have changes nothing.
    if (e.type != kEventDeploy) return;
    if (!pkg_.deployed_components) pkg_.deployed_components.emplace();
    DeployedComponent fresh;
    fresh.name = r.component;
    fresh.installed_charts.emplace();
    pkg_.deployed_components->push_back(std::move(fresh));
    c = &pkg_.deployed_components->back();
  }
  if (e.type == kEventRemove && e.outcome == kOutcomeSucceeded) {
    // Rule 9: only a successful removal takes a component out.
    auto& comps = *pkg_.deployed_components;
    comps.erase(std::remove_if(comps.begin(), comps.end(),
                               [&](const DeployedComponent& x) { return x.name == r.component; }),
                comps.end());
    connect_strings_dirty_ = true;
    return;
  }
  // A new attempt: any InProgress, or an outcome not closing an InProgress.
  const bool new_attempt =
      e.outcome == kOutcomeInProgress || !c->last_event ||
      c->last_event->type != e.type || c->last_event->outcome != kOutcomeInProgress;
  c->last_event = e;
  if (const std::string_view status = StatusFor(e.type, e.outcome); !status.empty()) {
    c->status = std::string(status);
  }
  if (e.type == kEventDeploy) {
    // Zarf reads the Secret at each component it deploys and writes
    // generation + 1: one step per component attempt, which the component
    // records as its observedGeneration.
    // Go's int wraps at 2^63 (a Secret may already hold MaxInt64); C++'s
    // signed overflow is undefined, so the step is taken unsigned.
    // A component that needs no cluster is recorded at generation 1
    // (deploy.go:243-265), which the write also sets as the package's.
    if (new_attempt) {
      const json::Value* def =
          running_facts_ ? FindComponentDefinition(running_facts_->data, r.component) : nullptr;
      pkg_.generation =
          def != nullptr && !RequiresCluster(*def)
              ? 1
              : static_cast<std::int64_t>(static_cast<std::uint64_t>(pkg_.generation) + 1);
    }
    c->observed_generation = pkg_.generation;
  }
  if (r.charts) {
    // Merged as Zarf merges them (engine/zarf_charts.h).
    if (!c->installed_charts) c->installed_charts.emplace();
    *c->installed_charts = MergeInstalledCharts(*c->installed_charts, *r.charts);
    connect_strings_dirty_ = true;
  }
}

Result<DeployedPackage> FoldPrefix(const std::vector<Record>& records, std::size_t count,
                                   const FoldOptions& options) {
  Folder folder(options);
  const std::size_t n = std::min(count, records.size());
  for (std::size_t i = 0; i < n; ++i) {
    Status s = folder.Apply(records[i]);
    if (!s.ok()) return s.WithContext("record " + std::to_string(i + 1));
  }
  return folder.snapshot();
}

Result<DeployedPackage> Fold(const std::vector<Record>& records, const FoldOptions& options) {
  return FoldPrefix(records, records.size(), options);
}

Result<DeployedPackage> FoldUntil(const std::vector<Record>& records, const Timestamp& at,
                                  const FoldOptions& options) {
  std::size_t count = 0;
  // Records are in log order; time travel stops at the first one past `at`.
  while (count < records.size() && !(at < records[count].time())) ++count;
  return FoldPrefix(records, count, options);
}

namespace {

void CompareValues(const json::Value& a, const json::Value& b, std::string* path,
                   std::vector<Drift>* out) {
  auto render = [](const json::Value& v) {
    auto s = json::WriteJson(v);
    return s.ok() ? *s : std::string("?");
  };
  if (a.kind() == b.kind() && a.is_object()) {
    const std::size_t mark = path->size();
    std::vector<std::string> keys;
    for (const auto& m : a.object()) keys.push_back(m.first);
    for (const auto& m : b.object()) {
      if (!a.Find(m.first)) keys.push_back(m.first);
    }
    for (const std::string& k : keys) {
      if (!path->empty()) path->push_back('.');
      path->append(k);
      const json::Value* x = a.Find(k);
      const json::Value* y = b.Find(k);
      if (x == nullptr || y == nullptr) {
        out->push_back({*path, x ? render(*x) : "(absent)", y ? render(*y) : "(absent)"});
      } else {
        CompareValues(*x, *y, path, out);
      }
      path->resize(mark);
    }
    return;
  }
  if (a.kind() == b.kind() && a.is_array() && a.array().size() == b.array().size()) {
    const std::size_t mark = path->size();
    for (std::size_t i = 0; i < a.array().size(); ++i) {
      path->push_back('[');
      path->append(std::to_string(i));
      path->push_back(']');
      CompareValues(a.array()[i], b.array()[i], path, out);
      path->resize(mark);
    }
    return;
  }
  if (!(a == b)) out->push_back({path->empty() ? "(root)" : *path, render(a), render(b)});
}

}  // namespace

std::vector<Drift> CompareSnapshots(const DeployedPackage& stored, const DeployedPackage& folded) {
  const std::string a = EncodeDeployedPackage(stored);
  const std::string b = EncodeDeployedPackage(folded);
  std::vector<Drift> out;
  if (a == b) return out;
  auto va = json::ParseJson(a);
  auto vb = json::ParseJson(b);
  if (!va.ok() || !vb.ok()) {
    out.push_back({"(root)", a, b});
    return out;
  }
  std::string path;
  CompareValues(*va, *vb, &path, &out);
  if (out.empty()) out.push_back({"(member order)", a, b});
  return out;
}

}  // namespace zs::engine
