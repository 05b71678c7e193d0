#include "engine/derived_status.h"

#include <iterator>

#include "json/json_value.h"

namespace zs::engine {
namespace {

// The last event (append order) that passes `keep`, or nullptr.
template <typename Keep>
const PackageEvent* LastWhere(const DeployedPackage& pkg, Keep keep) {
  for (auto it = pkg.events.rbegin(); it != pkg.events.rend(); ++it) {
    if (keep(*it)) return &*it;
  }
  return nullptr;
}

}  // namespace

const PackageEvent* LatestEvent(const DeployedPackage& pkg) {
  return pkg.events.empty() ? nullptr : &pkg.events.back();
}

const PackageEvent* LatestEventOfType(const DeployedPackage& pkg, std::string_view type) {
  return LastWhere(pkg, [&](const PackageEvent& e) { return e.type == type && IsV2Event(e); });
}

const PackageEvent* LastSuccessfulDeploy(const DeployedPackage& pkg) {
  return LastWhere(pkg, [](const PackageEvent& e) {
    return e.type == kEventDeploy && e.outcome == kOutcomeSucceeded;
  });
}

std::optional<Timestamp> InProgressSince(const DeployedPackage& pkg) {
  const PackageEvent* latest = LatestEvent(pkg);
  if (latest == nullptr || latest->outcome != kOutcomeInProgress) return std::nullopt;
  return latest->timestamp;
}

namespace {

// Scans `events` in order, keeping the begins still open; calls
// on_begin(open, i) before each InProgress at `i` is added.
template <typename OnBegin>
std::vector<std::size_t> ScanOperations(const std::vector<PackageEvent>& events, OnBegin on_begin) {
  std::vector<std::size_t> open;
  for (std::size_t i = 0; i < events.size(); ++i) {
    const PackageEvent& e = events[i];
    if (!IsV2Event(e)) continue;
    if (e.outcome == kOutcomeInProgress) {
      on_begin(open, i);
      open.push_back(i);
      continue;
    }
    for (auto it = open.rbegin(); it != open.rend(); ++it) {
      if (events[*it].type == e.type) {
        open.erase(std::next(it).base());
        break;
      }
    }
  }
  return open;
}

}  // namespace

std::vector<std::size_t> OpenOperations(const std::vector<PackageEvent>& events) {
  return ScanOperations(events, [](const std::vector<std::size_t>&, std::size_t) {});
}

std::vector<Overlap> OverlappedOperations(const std::vector<PackageEvent>& events) {
  std::vector<Overlap> out;
  ScanOperations(events, [&](const std::vector<std::size_t>& open, std::size_t i) {
    for (std::size_t b : open) out.push_back({b, i});
  });
  return out;
}

std::string LatestEventSummary(const DeployedPackage& pkg) {
  const PackageEvent* latest = LatestEvent(pkg);
  if (latest == nullptr) return std::string(kOutcomeUnknown);
  return latest->type + "/" + latest->outcome;
}

std::string ComponentEventSummary(const DeployedComponent& component) {
  if (!component.last_event) return std::string(kOutcomeUnknown);
  return component.last_event->type + "/" + component.last_event->outcome;
}

std::vector<bool> ObservedEvents(const std::vector<PackageEvent>& events) {
  // The source an observer gives the Deploy events it derives.
  constexpr std::string_view kObserved = "observed";
  std::vector<bool> out(events.size(), false);
  const PackageEvent* last_deploy = nullptr;
  for (std::size_t i = 0; i < events.size(); ++i) {
    const PackageEvent& e = events[i];
    if (e.type == kEventDeploy) {
      out[i] = e.source == kObserved;
      last_deploy = &e;
    } else if (e.type == kEventRemove) {
      const bool writer_records_digests = last_deploy == nullptr ||
                                          last_deploy->source == kObserved ||
                                          !last_deploy->config_digest.empty();
      out[i] = e.source.empty() && e.config_digest.empty() && writer_records_digests;
    }
  }
  return out;
}

std::string_view StatusBasisName(StatusBasis basis) {
  switch (basis) {
    case StatusBasis::kEvents:
      return "events";
    case StatusBasis::kStored:
      return "stored";
    case StatusBasis::kNone:
      break;
  }
  return "none";
}

namespace {

// The rank of a stored component status in the package rule (lower wins):
// an operation left open first, then a failure, then what is not known.
int StoredRank(std::string_view status) {
  if (status == kStatusDeploying) return 0;
  if (status == kStatusRemoving) return 1;
  if (status == kStatusFailed) return 2;
  if (status == kStatusSucceeded) return 4;
  return 3;  // none stored, or a value outside the four
}

ComponentState StateOf(const DeployedComponent& c) {
  if (c.last_event) return {c.name, StatusBasis::kEvents, ComponentEventSummary(c)};
  if (!c.status.empty()) return {c.name, StatusBasis::kStored, c.status};
  return {c.name, StatusBasis::kNone, std::string(kOutcomeUnknown)};
}

// The package status from the components' stored statuses (kStored), or
// kNone when no component stores one.
void DeriveFromStored(const DeployedPackage& pkg, PackageState* s) {
  s->status = std::string(kOutcomeUnknown);
  if (const json::Value* md = pkg.data.Find("metadata")) {
    s->deployed_version = std::string(md->StringOr("version"));
  }
  if (!pkg.deployed_components) return;
  int best = 5;
  for (const DeployedComponent& c : *pkg.deployed_components) {
    if (!c.status.empty()) s->basis = StatusBasis::kStored;
    const int rank = StoredRank(c.status);
    if (rank < best) {
      best = rank;
      s->status = rank == 3 ? std::string(kOutcomeUnknown) : c.status;
    }
    if (rank <= 1 && s->interrupted_component.empty()) s->interrupted_component = c.name;
  }
  s->interrupted = best <= 1;
}

}  // namespace

PackageState DerivePackageState(const DeployedPackage& pkg) {
  PackageState s;
  if (pkg.deployed_components) {
    for (const DeployedComponent& c : *pkg.deployed_components) s.components.push_back(StateOf(c));
  }
  s.latest = LatestEvent(pkg);
  if (s.latest != nullptr) {
    s.basis = StatusBasis::kEvents;
    s.status = s.latest->type + "/" + s.latest->outcome;
    if (const PackageEvent* ok = LastSuccessfulDeploy(pkg)) s.deployed_version = ok->version;
    return s;
  }
  DeriveFromStored(pkg, &s);
  return s;
}

}  // namespace zs::engine
