// Derived status of a DeployedPackage (docs/model.md section 1, "Derived status"):
// never stored, always computed from the snapshot's events and components.
//
// A legacy snapshot (no events) has no history: its latest event is Unknown
// (docs/model.md rule 8). What it does store, each component's deprecated
// `status`, is still read: DerivePackageState is the one derivation every
// command shows, from the events when there are any, else from the stored
// statuses, marked as such.
//
// Thread safety: pure functions over const inputs.
#ifndef ZARF_STATE_ENGINE_DERIVED_STATUS_H_
#define ZARF_STATE_ENGINE_DERIVED_STATUS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/model.h"

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

// Which of `events` (a package's history, oldest first) an observer derived
// from Zarf's own writes to the Secret, rather than a ZEP-0026 writer
// recorded as it acted; one flag per event. A Deploy event is observed when
// its `source` is "observed". A Remove event carries no source (docs/model.md
// rule 5): it is observed when it carries no `configDigest` (a ZEP-0026
// writer records one with every event, rule 6; an observer never has one),
// unless the latest Deploy event before it is a recorded one without a
// `configDigest` either (a writer that records none).
std::vector<bool> ObservedEvents(const std::vector<PackageEvent>& events);

// What a derived status was computed from.
enum class StatusBasis {
  kEvents,  // the recorded events (`events`, a component's `lastEvent`)
  kStored,  // the deprecated `status` the Secret stores (no event history)
  kNone,    // nothing: the status is Unknown
};

// "events", "stored", "none": the wire name reports print.
std::string_view StatusBasisName(StatusBasis basis);

// One deployed component's derived status.
struct ComponentState {
  std::string name;
  StatusBasis basis = StatusBasis::kNone;
  // kEvents: the lastEvent as "Deploy/Failed"; kStored: the stored status as
  // written ("Failed"); kNone: "Unknown".
  std::string status;
};

// A package's derived status (docs/model.md, "Derived status"). Pointers
// point into the DeployedPackage it was derived from, which must outlive it.
struct PackageState {
  // kEvents when the package has any v2 event; else kStored when a component
  // stores a status; else kNone.
  StatusBasis basis = StatusBasis::kNone;
  // kEvents: the latest event as "Deploy/Succeeded". kStored: the status of
  // the package from its components' stored statuses, the first of this
  // order that any component has: Deploying, Removing, Failed, Unknown (a
  // component that stores none, or a value outside the four), else
  // Succeeded (every component Succeeded). kNone: "Unknown".
  std::string status;
  const PackageEvent* latest = nullptr;  // kEvents: the latest event
  // kStored: a component was left Deploying or Removing. Zarf writes
  // Succeeded or Failed after each component, so the operation that wrote it
  // was interrupted (or is running at this very moment: a Secret alone cannot
  // tell). With events, an open operation is InProgressSince instead.
  bool interrupted = false;
  std::string interrupted_component;  // the first such component, or ""
  // The version deployed: kEvents, the last successful deploy's (or "");
  // otherwise the stored definition's `metadata.version` (the version of
  // the last deploy the Secret records, whatever its outcome).
  std::string deployed_version;
  std::vector<ComponentState> components;  // in deployedComponents order
};

// The derived status of `pkg`. Pure; never fails.
PackageState DerivePackageState(const DeployedPackage& pkg);

}  // namespace zs::engine

#endif  // ZARF_STATE_ENGINE_DERIVED_STATUS_H_
