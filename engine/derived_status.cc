#include "engine/derived_status.h"

namespace zs::engine {

const PackageEvent* LatestEvent(const DeployedPackage& pkg) {
  const PackageEvent* latest = nullptr;
  for (const PackageEvent& e : pkg.events) {
    if (!IsV2Event(e)) continue;
    if (latest == nullptr || !(e.timestamp < latest->timestamp)) latest = &e;
  }
  return latest;
}

const PackageEvent* LatestEventOfType(const DeployedPackage& pkg, std::string_view type) {
  const PackageEvent* latest = nullptr;
  for (const PackageEvent& e : pkg.events) {
    if (e.type != type || !IsV2Event(e)) continue;
    if (latest == nullptr || !(e.timestamp < latest->timestamp)) latest = &e;
  }
  return latest;
}

const PackageEvent* LastSuccessfulDeploy(const DeployedPackage& pkg) {
  const PackageEvent* latest = nullptr;
  for (const PackageEvent& e : pkg.events) {
    if (e.type != kEventDeploy || e.outcome != kOutcomeSucceeded) continue;
    if (latest == nullptr || !(e.timestamp < latest->timestamp)) latest = &e;
  }
  return latest;
}

std::optional<Timestamp> InProgressSince(const DeployedPackage& pkg) {
  const PackageEvent* latest = LatestEvent(pkg);
  if (latest == nullptr || latest->outcome != kOutcomeInProgress) return std::nullopt;
  return latest->timestamp;
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
