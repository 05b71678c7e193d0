#include "engine/derived_status.h"

#include <iterator>

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

}  // namespace zs::engine
