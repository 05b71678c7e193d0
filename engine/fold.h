// The fold: Records -> the DeployedPackage snapshot (docs/model.md sections 1 and 2).
//
// Fold is pure and deterministic: the same records give the same snapshot,
// byte for byte once encoded, so replay, time travel and verification are the
// same code. It enforces the snapshot rules of docs/model.md section 1:
//   1. every package event is appended, never edited;
//   2. `events` keeps the newest max_events, evicting the oldest;
//   3. a component's `lastEvent` is overwritten by each attempt that touches
//      it, and a component appears only once an attempt reaches it;
//   4. the deprecated `status` follows the event (Deploy/InProgress ->
//      Deploying, Deploy/Succeeded -> Succeeded, */Failed -> Failed,
//      Remove/InProgress -> Removing; Cancelled keeps the old status);
//   6. top-level `deployConfig` and `configDigest` change only when a deploy
//      succeeds, to the config that deploy started with (or, for a deploy
//      resumed from a Secret, the config its Succeeded record carries);
//   9. a deploy never drops components it did not touch; a component leaves
//      the snapshot only when its removal succeeds. A component kept this
//      way keeps its definition too: when a deploy's package definition
//      lacks a component still deployed, that component's previous
//      definition is appended to `data.components` after the new ones (in
//      the previous definition's order), so that Zarf's remove and prune
//      planning still find its charts, images and onRemove actions;
//  12. as Zarf counts it, `generation` rises once per component deploy
//      attempt (Zarf re-reads the Secret per component and writes
//      generation + 1), and the component's `observedGeneration` is that
//      value, except for a component that needs no cluster, recorded at
//      generation 1 (which the package's generation then is, as Zarf's
//      write sets it); a component's charts are merged as Zarf merges them
//      (MergeInstalledCharts, engine/zarf_charts.h); a Remove that
//      ends (Succeeded, Failed or Cancelled) with no component left deletes
//      the Secret (deleted()), and the next deploy starts a new one at
//      generation 1 with no events.
//
// Thread safety: a Folder is a value; distinct Folders are independent.
#ifndef ZARF_STATE_ENGINE_FOLD_H_
#define ZARF_STATE_ENGINE_FOLD_H_

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/status.h"
#include "model/model.h"
#include "engine/record.h"

namespace zs::engine {

struct FoldOptions {
  // How many package events the snapshot keeps (docs/model.md rule 2). Default: 10.
  // 0 keeps every event (the cache's view).
  std::size_t max_events = 10;
};

// Applies records one at a time; snapshot() is the fold of all applied.
//
// Apply does the cheap part of each rule at once and defers the costly,
// idempotent part (copying a package definition or a config out of the
// shared facts, rebuilding the top-level connectStrings, trimming events to
// the cap) until the snapshot is read, so folding a long log costs little
// per record.
class Folder {
 public:
  explicit Folder(FoldOptions options = {}) : options_(options) {}

  // Applies one record. InvalidArgument (and no change) for a record that
  // cannot apply: a Base after other records, an event of unknown type or
  // outcome.
  Status Apply(const Record& record);
  // What Apply would answer, without applying.
  Status Validate(const Record& record) const;

  // The fold of every record applied so far. The reference stays valid until
  // the next Apply.
  const DeployedPackage& snapshot() const;
  std::size_t applied() const { return applied_; }
  // Whether the last remove left no component, which deletes the Secret
  // (rule 12). snapshot() is then an empty package of the same name, until
  // the next deploy starts a new one.
  bool deleted() const { return deleted_; }
  // Whether the config of the deploy in progress is known (it is unless the
  // log began with a Base taken mid-deploy).
  bool pending_config_known() const {
    return running_facts_ != nullptr && running_facts_->deploy_config.has_value();
  }

 private:
  void ApplyPackageEvent(const Record& r);
  void ApplyComponentEvent(const Record& r);
  void DeleteSecret();
  // Rule 2: keeps the newest `keep` events (all when 0).
  void TrimEvents(std::size_t keep) const;
  // Rule 9: keeps the definitions of deployed components that `next` (the
  // definition a deploy brings) lacks, in carried_.
  void CarryKeptDefinitions(const json::Value& next);

  FoldOptions options_;
  // Materialised lazily by snapshot(); see the class comment.
  mutable DeployedPackage pkg_;
  mutable std::shared_ptr<const DeployFacts> data_facts_;    // data to copy in
  // Definitions of kept components, appended to data.components when
  // data_facts_ is copied in.
  mutable std::vector<json::Value> carried_;
  mutable std::shared_ptr<const DeployFacts> config_facts_;  // deployConfig to copy in
  mutable bool config_dirty_ = false;
  mutable bool connect_strings_dirty_ = false;
  mutable bool go_written_dirty_ = false;  // MarkGoWritten before the next read
  // The leading events of pkg_ that MarkGoWritten already settled.
  mutable std::size_t events_marked_ = 0;
  // The facts of the deploy in progress, whose config becomes the top-level
  // one if it succeeds (rule 6).
  std::shared_ptr<const DeployFacts> running_facts_;
  std::string pending_config_digest_;
  std::size_t applied_ = 0;
  bool deleted_ = false;
};

// Folds `records` from an empty package. Stops at the first record that
// cannot apply, returning its error with the record's position.
Result<DeployedPackage> Fold(const std::vector<Record>& records, const FoldOptions& options = {});

// Time travel: the fold of the first `count` records.
Result<DeployedPackage> FoldPrefix(const std::vector<Record>& records, std::size_t count,
                                   const FoldOptions& options = {});

// Time travel: the fold of every record whose time is at or before `at`.
Result<DeployedPackage> FoldUntil(const std::vector<Record>& records, const Timestamp& at,
                                  const FoldOptions& options = {});

// One field that differs between a stored snapshot and the fold of its log.
struct Drift {
  std::string path;    // "deployedComponents[2].lastEvent.outcome", "events"
  std::string stored;  // compact JSON of the stored value, or "(absent)"
  std::string folded;  // compact JSON of the folded value, or "(absent)"
};

// The drift report: every leaf that differs between the Go-exact encodings
// of `stored` and `folded`. Empty when they encode to the same bytes.
std::vector<Drift> CompareSnapshots(const DeployedPackage& stored, const DeployedPackage& folded);

}  // namespace zs::engine

#endif  // ZARF_STATE_ENGINE_FOLD_H_
