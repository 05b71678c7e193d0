// Derived status of a DeployedPackage (SPEC section 1, "Derived status"):
// never stored, always computed from the snapshot's events and components.
//
// A legacy snapshot (no events) has no history: its latest event is Unknown
// and its components report their deprecated `status` only (SPEC rule 8).
//
// Thread safety: pure functions over const inputs.
#ifndef ZARF_STATE_ENGINE_DERIVED_STATUS_H_
#define ZARF_STATE_ENGINE_DERIVED_STATUS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "codec/model.h"

namespace zs::engine {

// The newest package event, or nullptr when there is no history. Events are
// stored oldest first; ties in timestamp go to the later-stored event. Events
// outside the v2 vocabulary (IsV2Event) are not history and are skipped by
// every function here.
const PackageEvent* LatestEvent(const DeployedPackage& pkg);

// The newest event of one operation type ("Deploy" or "Remove"), or nullptr.
const PackageEvent* LatestEventOfType(const DeployedPackage& pkg, std::string_view type);

// The newest Deploy/Succeeded event, or nullptr.
const PackageEvent* LastSuccessfulDeploy(const DeployedPackage& pkg);

// When the latest event is InProgress: since when. Otherwise nullopt.
std::optional<Timestamp> InProgressSince(const DeployedPackage& pkg);

// "Deploy/Succeeded", or "Unknown" when there is no history.
std::string LatestEventSummary(const DeployedPackage& pkg);

// A component's lastEvent as "Deploy/Failed", or "Unknown".
std::string ComponentEventSummary(const DeployedComponent& component);

}  // namespace zs::engine

#endif  // ZARF_STATE_ENGINE_DERIVED_STATUS_H_
