#include "engine/lifecycle.h"

#include "model/config.h"
#include "model/credentials.h"
#include "model/names.h"
#include "engine/derived_status.h"
#include "json/json_reader.h"

namespace zs::engine {
namespace {

std::string_view MetadataString(const json::Value& package, std::string_view section,
                                std::string_view field) {
  const json::Value* s = package.Find(section);
  return s ? s->StringOr(field) : std::string_view();
}

}  // namespace

Result<Lifecycle> Lifecycle::Open(EventLog* log, std::string package, FoldOptions options,
                                  Clock clock) {
  if (!clock) clock = [] { return Timestamp::Now(); };
  Lifecycle lc(log, std::move(package), options, std::move(clock));
  ZS_ASSIGN_OR_RETURN(std::vector<Record> records, log->Read(lc.package_));
  for (std::size_t i = 0; i < records.size(); ++i) {
    Status s = lc.folder_.Apply(records[i]);
    if (!s.ok()) return s.WithContext("package " + lc.package_ + " record " + std::to_string(i + 1));
    lc.last_time_ = records[i].time();
  }
  return lc;
}

Timestamp Lifecycle::Now() {
  const Timestamp now = clock_();
  // Stored as the clock gives it (LatestEvent is the last recorded event,
  // not the newest date), but a clock going backwards is worth a word.
  if (now < last_time_) {
    warnings_.push_back("package " + package_ + ": the clock went backwards: " +
                        FormatRfc3339(now) + " is before the previous record's " +
                        FormatRfc3339(last_time_) + "; recorded as given");
  }
  return now;
}

Status Lifecycle::RefuseIfAnotherIsOpen() const {
  const DeployedPackage& pkg = folder_.snapshot();
  const std::vector<std::size_t> open = OpenOperations(pkg.events);
  if (open.empty()) return Status::OK();
  const PackageEvent& e = pkg.events[open.back()];
  std::string what = "a " + e.type + (e.version.empty() ? "" : " of version " + e.version) +
                     " has been InProgress since " + FormatRfc3339(e.timestamp) + " (" +
                     FormatAge(e.timestamp, clock_()) + ")";
  if (open.size() > 1) what += ", with " + std::to_string(open.size() - 1) + " more open before it";
  return Status::InvalidArgument(
      what + "; one operation at a time: finish it (`zarf-state record component|finish`) or "
             "close it with `zarf-state record abandon --outcome Cancelled|Failed`");
}

Status Lifecycle::Append(const Record& record) {
  // A record the fold refuses must not reach the log; one the log refuses
  // must not reach the snapshot.
  ZS_RETURN_IF_ERROR(folder_.Validate(record));
  ZS_ASSIGN_OR_RETURN(AppendResult appended, log_->Append(package_, record));
  (void)appended;
  return folder_.Apply(record);
}

Status Lifecycle::PackageEventRecord(std::string_view type, std::string_view outcome,
                                     std::optional<DeployFacts> facts) {
  const Timestamp now = Now();
  Record r;
  r.kind = RecordKind::kPackageEvent;
  r.event.type = std::string(type);
  r.event.outcome = std::string(outcome);
  r.event.timestamp = now;
  r.event.version = op_version_;
  r.event.flavor = op_flavor_;
  r.event.digest = op_digest_;
  if (type == kEventDeploy) r.event.source = op_source_;  // rule 5
  r.event.config_digest = op_config_digest_;              // rule 6
  if (facts) r.facts = std::make_shared<const DeployFacts>(std::move(*facts));
  ZS_RETURN_IF_ERROR(Append(r));
  last_time_ = now;
  return Status::OK();
}

Status Lifecycle::ComponentRecord(std::string_view component, std::string_view type,
                                  std::string_view outcome,
                                  std::optional<std::vector<InstalledChart>> charts) {
  if (component.empty()) return Status::InvalidArgument("a component needs a name");
  const Timestamp now = Now();
  Record r;
  r.kind = RecordKind::kComponentEvent;
  r.component = std::string(component);
  r.component_event = ComponentEvent{std::string(type), std::string(outcome), now, {}};
  r.charts = std::move(charts);
  ZS_RETURN_IF_ERROR(Append(r));
  last_time_ = now;
  return Status::OK();
}

Status Lifecycle::RequireRunning(std::string_view type) const {
  if (running_ != type) {
    return Status::InvalidArgument(
        running_.empty() ? "no " + std::string(type) + " is in progress"
                         : "a " + running_ + " is in progress, not a " + std::string(type));
  }
  return Status::OK();
}

Status Lifecycle::BeginDeploy(const DeployRequest& req) {
  if (!running_.empty()) return Status::InvalidArgument("a " + running_ + " is already in progress");
  ZS_RETURN_IF_ERROR(RefuseIfAnotherIsOpen());
  // Digest first: an undigestable config refuses the deploy before any change.
  ZS_ASSIGN_OR_RETURN(DeployConfig config, DecodeDeployConfig(req.config));
  ZS_ASSIGN_OR_RETURN(std::string marshaled, MarshalDeployConfig(config));
  ZS_ASSIGN_OR_RETURN(json::Value stored, json::ParseJson(marshaled));
  if (!req.package.is_object()) return Status::InvalidArgument("the package definition is not an object");
  DeployFacts facts;
  facts.name = std::string(MetadataString(req.package, "metadata", "name"));
  if (facts.name.empty()) facts.name = package_;
  if (facts.name != package_) {
    return Status::InvalidArgument("the package definition is named '" + facts.name +
                                   "', not '" + package_ + "'");
  }
  ZS_RETURN_IF_ERROR(CheckPackageNames(facts.name, config.namespace_override));
  RedactSensitiveVariables(&stored, SensitiveVariables(req.package));
  facts.digest = req.package_digest;
  facts.data = req.package;
  facts.cli_version = req.cli_version;
  facts.namespace_override = config.namespace_override;
  facts.package_connectivity = req.package_connectivity;
  facts.deploy_config = std::move(stored);

  op_config_digest_ = Sha256Digest(marshaled);
  op_source_ = ScrubSource(req.source);
  op_version_ = std::string(MetadataString(req.package, "metadata", "version"));
  op_flavor_ = std::string(MetadataString(req.package, "build", "flavor"));
  op_digest_ = req.package_digest;
  ZS_RETURN_IF_ERROR(PackageEventRecord(kEventDeploy, kOutcomeInProgress, std::move(facts)));
  running_ = std::string(kEventDeploy);
  return Status::OK();
}

Status Lifecycle::ComponentStarted(std::string_view component) {
  ZS_RETURN_IF_ERROR(RequireRunning(kEventDeploy));
  ZS_RETURN_IF_ERROR(ComponentRecord(component, kEventDeploy, kOutcomeInProgress, std::nullopt));
  in_progress_ = std::string(component);
  return Status::OK();
}

Status Lifecycle::ComponentSucceeded(std::string_view component, std::vector<InstalledChart> charts) {
  ZS_RETURN_IF_ERROR(RequireRunning(kEventDeploy));
  for (InstalledChart& c : charts) {
    if (c.status.empty()) c.status = std::string(kStatusSucceeded);
  }
  ZS_RETURN_IF_ERROR(ComponentRecord(component, kEventDeploy, kOutcomeSucceeded, std::move(charts)));
  if (in_progress_ == component) in_progress_.clear();
  return Status::OK();
}

Status Lifecycle::ComponentFailed(std::string_view component, std::vector<InstalledChart> charts) {
  ZS_RETURN_IF_ERROR(RequireRunning(kEventDeploy));
  std::optional<std::vector<InstalledChart>> attempted;
  if (!charts.empty()) attempted = std::move(charts);
  ZS_RETURN_IF_ERROR(ComponentRecord(component, kEventDeploy, kOutcomeFailed, std::move(attempted)));
  if (in_progress_ == component) in_progress_.clear();
  return Status::OK();
}

Status Lifecycle::FinishDeploy(std::string_view outcome) {
  ZS_RETURN_IF_ERROR(RequireRunning(kEventDeploy));
  if (outcome != kOutcomeSucceeded && outcome != kOutcomeFailed) {
    return Status::InvalidArgument("a deploy finishes Succeeded or Failed, not " + std::string(outcome));
  }
  std::optional<DeployFacts> facts;
  if (outcome == kOutcomeSucceeded && !folder_.pending_config_known()) {
    // Resumed from a Secret, which holds only the config's digest.
    if (!resumed_config_) {
      return Status::InvalidArgument(
          "the deploy being finished began in another process and its config is not in the "
          "log; give the same config again to record deployConfig");
    }
    facts.emplace();
    facts->deploy_config = resumed_config_;
  }
  ZS_RETURN_IF_ERROR(PackageEventRecord(kEventDeploy, outcome, std::move(facts)));
  running_.clear();
  in_progress_.clear();
  return Status::OK();
}

Status Lifecycle::BeginRemove(const RemoveRequest& req) {
  if (!running_.empty()) return Status::InvalidArgument("a " + running_ + " is already in progress");
  if (folder_.deleted()) {
    return Status::NotFound("package " + package_ +
                            " is not deployed: its last remove left no component and deleted its Secret");
  }
  ZS_RETURN_IF_ERROR(RefuseIfAnotherIsOpen());
  ZS_ASSIGN_OR_RETURN(RemoveConfig config, DecodeRemoveConfig(req.config));
  ZS_ASSIGN_OR_RETURN(op_config_digest_, RemoveConfigDigest(config));
  const DeployedPackage& pkg = folder_.snapshot();
  op_source_.clear();
  op_version_ = std::string(MetadataString(pkg.data, "metadata", "version"));
  op_flavor_ = std::string(MetadataString(pkg.data, "build", "flavor"));
  op_digest_ = pkg.digest;
  ZS_RETURN_IF_ERROR(PackageEventRecord(kEventRemove, kOutcomeInProgress, std::nullopt));
  running_ = std::string(kEventRemove);
  return Status::OK();
}

Status Lifecycle::ComponentRemoving(std::string_view component) {
  ZS_RETURN_IF_ERROR(RequireRunning(kEventRemove));
  if (folder_.snapshot().FindComponent(component) == nullptr) {
    return Status::NotFound("component '" + std::string(component) + "' is not deployed");
  }
  ZS_RETURN_IF_ERROR(ComponentRecord(component, kEventRemove, kOutcomeInProgress, std::nullopt));
  in_progress_ = std::string(component);
  return Status::OK();
}

Status Lifecycle::ComponentRemoved(std::string_view component) {
  ZS_RETURN_IF_ERROR(RequireRunning(kEventRemove));
  ZS_RETURN_IF_ERROR(ComponentRecord(component, kEventRemove, kOutcomeSucceeded, std::nullopt));
  if (in_progress_ == component) in_progress_.clear();
  return Status::OK();
}

Status Lifecycle::ComponentRemoveFailed(std::string_view component) {
  ZS_RETURN_IF_ERROR(RequireRunning(kEventRemove));
  ZS_RETURN_IF_ERROR(ComponentRecord(component, kEventRemove, kOutcomeFailed, std::nullopt));
  if (in_progress_ == component) in_progress_.clear();
  return Status::OK();
}

Status Lifecycle::FinishRemove(std::string_view outcome) {
  ZS_RETURN_IF_ERROR(RequireRunning(kEventRemove));
  if (outcome != kOutcomeSucceeded && outcome != kOutcomeFailed) {
    return Status::InvalidArgument("a remove finishes Succeeded or Failed, not " + std::string(outcome));
  }
  ZS_RETURN_IF_ERROR(PackageEventRecord(kEventRemove, outcome, std::nullopt));
  running_.clear();
  in_progress_.clear();
  return Status::OK();
}

Status Lifecycle::Cancel() {
  if (running_.empty()) return Status::InvalidArgument("no operation is in progress to cancel");
  if (!in_progress_.empty()) {
    ZS_RETURN_IF_ERROR(ComponentRecord(in_progress_, running_, kOutcomeCancelled, std::nullopt));
  }
  ZS_RETURN_IF_ERROR(PackageEventRecord(running_, kOutcomeCancelled, std::nullopt));
  running_.clear();
  in_progress_.clear();
  return Status::OK();
}

Status Lifecycle::Resume(const json::Value* config) {
  const DeployedPackage& pkg = folder_.snapshot();
  if (!running_.empty() || pkg.events.empty() || pkg.events.back().outcome != kOutcomeInProgress) {
    return Status::OK();
  }
  const PackageEvent& latest = pkg.events.back();
  if (config != nullptr && latest.type == kEventDeploy) {
    ZS_ASSIGN_OR_RETURN(DeployConfig c, DecodeDeployConfig(*config));
    ZS_ASSIGN_OR_RETURN(std::string marshaled, MarshalDeployConfig(c));
    if (Sha256Digest(marshaled) != latest.config_digest) {
      return Status::InvalidArgument("the config given has digest " + Sha256Digest(marshaled) +
                                     ", but the deploy in progress started with " +
                                     latest.config_digest);
    }
    ZS_ASSIGN_OR_RETURN(resumed_config_, json::ParseJson(marshaled));
    RedactSensitiveVariables(&*resumed_config_, SensitiveVariables(pkg.data));
  }
  running_ = latest.type;
  op_config_digest_ = latest.config_digest;
  op_source_ = latest.source;
  op_version_ = latest.version;
  op_flavor_ = latest.flavor;
  op_digest_ = latest.digest;
  in_progress_.clear();
  if (pkg.deployed_components) {
    for (const DeployedComponent& c : *pkg.deployed_components) {
      if (c.last_event && c.last_event->outcome == kOutcomeInProgress &&
          c.last_event->type == running_) {
        in_progress_ = c.name;
      }
    }
  }
  return Status::OK();
}

Status Lifecycle::Abandon(std::string_view outcome) {
  if (!running_.empty()) return Status::InvalidArgument("use Cancel for the operation this session runs");
  if (outcome != kOutcomeCancelled && outcome != kOutcomeFailed) {
    return Status::InvalidArgument("abandon closes with Cancelled or Failed, not " + std::string(outcome));
  }
  const DeployedPackage& pkg = folder_.snapshot();
  std::vector<PackageEvent> open;
  for (std::size_t i : OpenOperations(pkg.events)) open.push_back(pkg.events[i]);
  if (open.empty()) {
    return Status::InvalidArgument("package " + package_ + " has no operation in progress");
  }
  std::vector<std::pair<std::string, std::string>> stuck;  // component, its attempt's type
  if (pkg.deployed_components) {
    for (const DeployedComponent& c : *pkg.deployed_components) {
      if (c.last_event && c.last_event->outcome == kOutcomeInProgress) {
        stuck.emplace_back(c.name, c.last_event->type);
      }
    }
  }
  for (const auto& [component, type] : stuck) {
    ZS_RETURN_IF_ERROR(ComponentRecord(component, type, outcome, std::nullopt));
  }
  // Every open operation is closed, the newest first (an outcome closes the
  // newest open operation of its type).
  for (auto it = open.rbegin(); it != open.rend(); ++it) {
    op_config_digest_ = it->config_digest;
    op_source_ = it->source;
    op_version_ = it->version;
    op_flavor_ = it->flavor;
    op_digest_ = it->digest;
    ZS_RETURN_IF_ERROR(PackageEventRecord(it->type, outcome, std::nullopt));
  }
  return Status::OK();
}

}  // namespace zs::engine
