// Derived status of a DeployedPackage (docs/model.md section 1, "Derived status"):
// never stored, always computed from the snapshot's events and components.
//
// A legacy snapshot (no events) has no history: its latest event is Unknown
// and its components report their deprecated `status` only (docs/model.md rule 8).
//
// Thread safety: pure functions over const inputs.
#ifndef ZARF_STATE_ENGINE_DERIVED_STATUS_H_
#define ZARF_STATE_ENGINE_DERIVED_STATUS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "codec/model.h"

namespace zs::engine {

// The most recently recorded package event (ZEP-0026's LatestEvent()): the
// last one in `events`, which are stored in append order, whatever its
// timestamp (a clock may go backwards; the order of recording is the truth).
// nullptr when there is no history. Type and outcome are open strings
// (ZEP-0026 declares them as Go strings): an event outside today's
// vocabulary ("Upgrade", "Paused") is still the latest. The other functions
// here look at the v2 vocabulary (IsV2Event) only.
const PackageEvent* LatestEvent(const DeployedPackage& pkg);

// The last recorded event of one operation type ("Deploy" or "Remove"), or
// nullptr.
const PackageEvent* LatestEventOfType(const DeployedPackage& pkg, std::string_view type);

// The last recorded Deploy/Succeeded event, or nullptr.
const PackageEvent* LastSuccessfulDeploy(const DeployedPackage& pkg);

// The operations of `events` still open, oldest first, as the indexes of
// their InProgress events: an operation is open until a later outcome of its
// type closes it (an outcome closes the newest open operation of its type).
// More than one means operations overlapped.
std::vector<std::size_t> OpenOperations(const std::vector<PackageEvent>& events);

// An operation that another one began over: `begin` was still InProgress
// when `overlapped_by` (another InProgress) was recorded.
struct Overlap {
  std::size_t begin = 0;
  std::size_t overlapped_by = 0;
};
std::vector<Overlap> OverlappedOperations(const std::vector<PackageEvent>& events);

// When the latest event is InProgress: since when. Otherwise nullopt.
std::optional<Timestamp> InProgressSince(const DeployedPackage& pkg);

// "Deploy/Succeeded", or "Unknown" when there is no history.
std::string LatestEventSummary(const DeployedPackage& pkg);

// A component's lastEvent as "Deploy/Failed", or "Unknown".
std::string ComponentEventSummary(const DeployedComponent& component);

}  // namespace zs::engine

#endif  // ZARF_STATE_ENGINE_DERIVED_STATUS_H_
