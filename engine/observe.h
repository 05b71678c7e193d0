// Observe: ZEP-0026 history derived from the writes Zarf v0.84 makes to a
// package Secret (docs/keep-history.md), for clusters whose Zarf records no
// events.
//
// Zarf writes the whole Secret before and after each component it deploys,
// and as each chart and component of a remove goes, then deletes the Secret
// (docs/keep-history.md, "What a watcher sees"). ObserveWrite compares one such
// write with the observer's view of the package (the previous write, with
// the history derived so far) and derives the events a ZEP-0026 writer would
// have recorded:
//   * a deploy starts when `generation` rises or a component turns
//     `Deploying` without continuing the running deploy: Deploy/InProgress;
//     a deploy continues while `deployedComponents` extends the run's list;
//   * each component of the run: Deploy/InProgress when it turns
//     `Deploying`, Deploy/Succeeded or Deploy/Failed when it turns so (both
//     when the `Deploying` write was not seen);
//   * the deploy ends Failed with its first failed component, Succeeded once
//     every component of its definition (`data.components`, which Zarf
//     filters to the selected ones) has succeeded;
//   * a remove is a write, with `generation` unchanged, in which charts or
//     components went: Remove/InProgress, and per component Remove/InProgress
//     as its charts go, Remove/Succeeded as it goes; the Secret's deletion
//     ends it Succeeded;
//   * an operation still open when the next one starts was interrupted (a
//     killed deploy leaves its component `Deploying`; a failed remove stops
//     writing): its open components and itself end Failed;
//   * a write that carries ZEP-0026 events (a ZEP writer, `zarf-state
//     record`) is taken as it is, its events never derived again.
// Deploy events carry `source: observed`; every event carries the package
// version, flavor and digest of the write, and the time given as seen.
//
// The view is the payload as Zarf wrote it plus the derived history (its
// `events`, each component's `lastEvent`), so a cache that stores each step
// as the package's snapshot keeps every derived event as ordinary history,
// and observing a write equal to the view derives nothing.
//
// Thread safety: pure functions of their arguments.
#ifndef ZARF_STATE_ENGINE_OBSERVE_H_
#define ZARF_STATE_ENGINE_OBSERVE_H_

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "model/model.h"
#include "engine/record.h"

namespace zs::engine {

// The `source` of every derived Deploy event.
inline constexpr std::string_view kObservedSource = "observed";

// One write of a package Secret as an observer saw it.
struct ObservedWrite {
  // The payload as decoded; nullopt when the Secret was deleted.
  std::optional<DeployedPackage> package;
  // When it was seen (or, better, when the Secret says it was written).
  Timestamp seen;
};

struct ObserveOptions {
  // Events a view keeps, newest last, as a Secret keeps them; 0: all.
  // Default: 10.
  std::size_t max_events = 10;
};

// What observing one write derived.
struct ObservedSteps {
  // The views to store, in order; the last is the new view. Each adds at
  // most one event per component to the one before, and a package event
  // never follows a component event within one view, so storing each in
  // turn (Cache::Ingest) logs every event once and in order. Empty when the
  // write changes nothing.
  std::vector<DeployedPackage> steps;
  // The events derived, in order (no deploy facts, no charts).
  std::vector<Record> events;
  // The write carried ZEP-0026 events: `steps` is the write itself.
  bool taken_as_is = false;
};

// Derives the events of `write` against `view` (nullptr: the package was
// never seen). A view whose last remove deleted the Secret counts as never
// seen, so the next write starts a deploy. Errors: InvalidArgument when the
// write is of another package than the view.
Result<ObservedSteps> ObserveWrite(const DeployedPackage* view, const ObservedWrite& write,
                                   const ObserveOptions& options = {});

// Whether `view` is of a package whose Secret a remove deleted.
bool ObservedDeleted(const DeployedPackage& view);

}  // namespace zs::engine

#endif  // ZARF_STATE_ENGINE_OBSERVE_H_
