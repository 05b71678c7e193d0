// Lifecycle: recording a deploy or a remove the way Zarf drives one, as
// Records appended to an EventLog and folded into the snapshot at once.
//
//   BeginDeploy -> ComponentStarted -> ComponentSucceeded(charts) |
//                  ComponentFailed -> ... -> FinishDeploy(Succeeded|Failed)
//   BeginRemove -> ComponentRemoving -> ComponentRemoved |
//                  ComponentRemoveFailed -> ... -> FinishRemove(outcome)
//   Cancel      (graceful stop, SIGINT/SIGTERM: docs/model.md rule 7)
//   Abandon     (close an InProgress a hard kill left behind: rule 10)
//
// Rules enforced before anything is appended: the config digest is computed
// at the start and an operation whose config cannot be digested is refused
// (InvalidArgument, log and snapshot untouched); so is a deploy whose package
// name or namespace override breaks the name rules (model/names.h); `source`
// is scrubbed of credentials and set on Deploy events only, and the values of
// the package's sensitive variables are stored redacted in deployConfig (the
// one credential rule, model/credentials.h); calls out of order (a component
// step with no operation running, a second Begin, a Begin while the snapshot
// has an operation open) are refused. Events are stamped with the clock's
// time as given, never adjusted: the order of the log is the order of
// recording.
//
// Thread safety: not thread-safe. Cancel() is meant to be called from the
// main flow after a signal handler has set a flag, never from the handler.
#ifndef ZARF_STATE_ENGINE_LIFECYCLE_H_
#define ZARF_STATE_ENGINE_LIFECYCLE_H_

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/status.h"
#include "model/model.h"
#include "engine/event_log.h"
#include "engine/fold.h"
#include "json/json_value.h"

namespace zs::engine {

// What Zarf knows when a deploy starts.
struct DeployRequest {
  json::Value package = json::Value::MakeObject();  // the ZarfPackage definition
  std::string package_digest;                        // "sha256:..."
  std::string source;                                // where it came from (scrubbed here)
  std::string cli_version;
  std::string package_connectivity = "airgap";
  // The DeployConfig as the user gave it (JSON; Go field names, any case).
  json::Value config = json::Value::Null();
};

struct RemoveRequest {
  json::Value config = json::Value::Null();  // the RemoveConfig as given
};

// Returns the time to stamp on the next event. Tests pass a fake clock.
using Clock = std::function<Timestamp()>;

class Lifecycle {
 public:
  // Records for `package` go to `log` (borrowed; must outlive this object).
  // If the log already holds records for the package they are folded first,
  // so a Lifecycle continues where the last one stopped. `clock` defaults to
  // the system clock.
  static Result<Lifecycle> Open(EventLog* log, std::string package, FoldOptions options = {},
                                Clock clock = nullptr);

  // BeginDeploy and BeginRemove refuse (InvalidArgument, nothing appended)
  // while another operation is open in the snapshot (docs/model.md rule 12: one
  // operation at a time); the message names it, its age and `record
  // abandon`. BeginRemove is NotFound once a remove deleted the Secret.
  Status BeginDeploy(const DeployRequest& request);
  Status ComponentStarted(std::string_view component);
  Status ComponentSucceeded(std::string_view component, std::vector<InstalledChart> charts);
  // `charts`: the releases the failed attempt installed, the failing one
  // with status Failed (Zarf merges them into the component's, deploy.go:312).
  Status ComponentFailed(std::string_view component, std::vector<InstalledChart> charts = {});
  // `outcome` is Succeeded or Failed.
  Status FinishDeploy(std::string_view outcome);

  Status BeginRemove(const RemoveRequest& request);
  Status ComponentRemoving(std::string_view component);
  Status ComponentRemoved(std::string_view component);
  Status ComponentRemoveFailed(std::string_view component);
  Status FinishRemove(std::string_view outcome);

  // Graceful stop: a Cancelled event of the running operation's type, and
  // Cancelled on the in-progress component's lastEvent. InvalidArgument when
  // no operation is running.
  Status Cancel();

  // Closes every operation left open in the snapshot (by a hard kill, or
  // overlapping ones an older zarf-state accepted): sets `outcome`
  // (Cancelled or Failed) on every component whose lastEvent is still
  // InProgress, then appends one event of each open operation's type with
  // `outcome`, the newest operation first. InvalidArgument if no operation
  // is open.
  Status Abandon(std::string_view outcome);

  // Continues an operation an earlier process began and left InProgress in
  // the snapshot (step-by-step recording: `record deploy --begin-only`, then
  // `record component`, then `record finish`). No-op when the latest event
  // is not InProgress. A Secret does not store the config of a deploy in
  // progress, only its digest: when the log does not hold it either, pass
  // the same config again as `config`, or FinishDeploy(Succeeded) is refused
  // (it could not record `deployConfig`). InvalidArgument if `config` does
  // not have the digest the running operation started with.
  Status Resume(const json::Value* config = nullptr);

  // The operation this session is running: "Deploy", "Remove" or "".
  std::string_view running() const { return running_; }
  const DeployedPackage& snapshot() const { return folder_.snapshot(); }
  // Whether the last remove left no component, so the Secret is deleted
  // (Folder::deleted()).
  bool secret_deleted() const { return folder_.deleted(); }
  // Warnings about records appended so far (a clock that went backwards:
  // its time is recorded as given). Cleared by TakeWarnings.
  std::vector<std::string> TakeWarnings() { return std::exchange(warnings_, {}); }

 private:
  Lifecycle(EventLog* log, std::string package, FoldOptions options, Clock clock)
      : log_(log), package_(std::move(package)), folder_(options), clock_(std::move(clock)) {}

  Status Append(const Record& record);
  Status PackageEventRecord(std::string_view type, std::string_view outcome,
                            std::optional<DeployFacts> facts);
  Status ComponentRecord(std::string_view component, std::string_view type,
                         std::string_view outcome,
                         std::optional<std::vector<InstalledChart>> charts);
  Status RequireRunning(std::string_view type) const;
  Status RefuseIfAnotherIsOpen() const;
  // The clock's time for the next record, warning if it went backwards.
  Timestamp Now();

  EventLog* log_;
  std::string package_;
  Folder folder_;
  Clock clock_;
  std::string running_;            // type of the operation in progress
  std::string in_progress_;        // component whose attempt is running
  std::string op_config_digest_;   // configDigest of every event of the operation
  std::string op_source_;          // scrubbed source (Deploy only)
  std::string op_version_, op_flavor_, op_digest_;
  std::optional<json::Value> resumed_config_;  // see Resume
  Timestamp last_time_;  // the last record's time
  std::vector<std::string> warnings_;
};

}  // namespace zs::engine

#endif  // ZARF_STATE_ENGINE_LIFECYCLE_H_
