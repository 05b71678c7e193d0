#include "cli/replay_cmd.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <functional>
#include <optional>

#include "model/credentials.h"
#include "json/json_reader.h"
#include "model/model_json.h"
#include "kube/package_secret.h"
#include "kube/secret.h"
#include "engine/derived_status.h"
#include "engine/fold.h"
#include "cli/common.h"
#include "kube/input.h"
#include "cli/event_record.h"
#include "cli/output.h"
#include "cli/replay_log_check.h"
#include "cli/replay_timeline.h"
#include "engine/replay_verify.h"
#include "base/terminal_text.h"
#include "engine/replay_log.h"

namespace zs::tools {
namespace {

// The formats replay prints its timeline in (--dump prints JSON Lines).
const std::vector<std::string> kFormats = {"table", "wide", "json", "yaml"};

std::optional<EventRecord> EventOfRecord(const engine::Record& r) {
  switch (r.kind) {
    case engine::RecordKind::kBase:
      return std::nullopt;
    case engine::RecordKind::kPackageEvent:
      return EventRecord::Of(r.event);
    case engine::RecordKind::kComponentEvent:
      return EventRecord::Of(r.component_event, r.component);
  }
  return std::nullopt;
}

Result<std::string> LoadSecretPayload(const std::string& path) {
  ZS_ASSIGN_OR_RETURN(InputText text, ReadInputText(path));
  ZS_ASSIGN_OR_RETURN(Input input, ReadInput(text.text(), path, CurrentReadLimits()));
  if (input.objects.size() != 1) {
    return Status::InvalidArgument(path + ": replay takes one package Secret");
  }
  if (!input.objects[0].error.ok()) return input.objects[0].error;
  if (input.objects[0].payload_kind != PayloadKind::kPackage) {
    return Status::InvalidArgument(input.objects[0].label +
                                   ": the Zarf init state (zarf-state), not a package Secret: it "
                                   "has no event history to replay");
  }
  return input.objects[0].payload;
}

// The state after events[k] of a Secret, as far as the Secret records it:
// events up to k; the components whose lastEvent was recorded by then (its
// timestamp at or before events[k]'s: a Secret has no other order between
// component and package events), which had that state from then on. A
// component touched later, and the generation, are not recorded for an
// earlier step: they are listed in `unknown`. After the last event the state
// is the Secret's.
//
// Built step by step (k = 0, 1, 2, ...): each step appends one event and
// filters the components, so a timeline of n events costs n steps, not a
// copy of the whole Secret per step.
class SecretTimeline {
 public:
  explicit SecretTimeline(const DeployedPackage& stored) : stored_(stored) {
    view_ = stored;
    view_.events.clear();
  }

  // The state after events[k]; `k` is one more than at the last call.
  const DeployedPackage& StateAt(std::size_t k, std::vector<std::string>* unknown) {
    if (k + 1 >= stored_.events.size()) return stored_;
    view_.events.push_back(stored_.events[k]);
    const Timestamp t = stored_.events[k].timestamp;
    unknown->push_back("generation");
    if (stored_.deployed_components) {
      std::vector<DeployedComponent> known;
      for (const DeployedComponent& c : *stored_.deployed_components) {
        if (c.last_event && !(t < c.last_event->timestamp)) {
          known.push_back(c);
        } else {
          unknown->push_back("component " + c.name);
        }
      }
      view_.deployed_components = std::move(known);
    }
    return view_;
  }

 private:
  const DeployedPackage& stored_;
  DeployedPackage view_;
};

// What the timeline is read from: the log, record by record as it is
// scanned (`log`, `package`); records already read (`records`); or the
// Secret alone (`stored`).
struct TimelineInput {
  const engine::FileEventLog* log = nullptr;
  std::string package;
  const std::vector<engine::Record>* records = nullptr;
  const DeployedPackage* stored = nullptr;
  std::size_t max_events = 0;  // the fold's event cap (0: none)
};

using StepVisitor = std::function<void(const TimelineStep& step, const DeployedPackage& snap,
                                       const std::vector<std::string>& unknown)>;

// Calls `visit` for each step of the timeline in order, within --upto,
// --at and `limit` steps, with the state it leads to. The fold advances
// with the steps: the memory of one snapshot, whatever the history's
// length. Each call reads and folds from the start; `*steps` receives how
// many steps were visited.
Status ForEachStep(const ReplayOptions& o, const std::optional<Timestamp>& at,
                   const TimelineInput& in, std::size_t limit, const StepVisitor& visit,
                   std::size_t* steps) {
  std::size_t applied = 0;
  *steps = 0;
  if (in.stored != nullptr) {
    // The Secret alone holds only its capped package events and each
    // component's last event: the timeline is those events, each with the
    // state it leads to as far as the Secret records it (SecretTimeline).
    SecretTimeline timeline_of(*in.stored);
    for (std::size_t k = 0; k < in.stored->events.size(); ++k) {
      const PackageEvent& e = in.stored->events[k];
      if ((o.upto != 0 && applied >= o.upto) || applied >= limit) break;
      if (at && *at < e.timestamp) break;
      std::vector<std::string> unknown;
      const DeployedPackage& view = timeline_of.StateAt(k, &unknown);
      TimelineStep step{++applied, e.timestamp, "PackageEvent", EventRecord::Of(e), 0, false};
      visit(step, view, unknown);
    }
    *steps = applied;
    return Status::OK();
  }
  engine::Folder folder(engine::FoldOptions{in.max_events});
  const std::vector<std::string> none;
  bool stopped = false;
  // Records past the end of the timeline are still read (not folded): a
  // damaged one fails the command as reading the whole history does.
  auto apply = [&](const engine::Record& r) -> Status {
    stopped = stopped || (o.upto != 0 && applied >= o.upto) || applied >= limit ||
              (at && *at < r.time() && r.kind != engine::RecordKind::kBase);
    if (stopped) return Status::OK();
    Status s = folder.Apply(r);
    if (!s.ok()) return s.WithContext("record " + std::to_string(applied + 1));
    TimelineStep step{++applied, r.time(), std::string(engine::RecordKindName(r.kind)),
                      EventOfRecord(r), r.base ? r.base->events.size() : 0, folder.deleted()};
    visit(step, folder.snapshot(), none);
    return Status::OK();
  };
  Status s;
  if (in.records != nullptr) {
    for (const engine::Record& r : *in.records) {
      s = apply(r);
      if (!s.ok()) break;
    }
  } else {
    s = in.log->Scan([&](const engine::LogEntry& e) {
      if (e.checkpoint || e.package != in.package) return Status::OK();
      return apply(*e.record);
    });
  }
  *steps = applied;
  return s;
}

// The --verify check of the input replay read: the cache's own check of
// `package`, the Secret against the fold of the log (and the log's
// checkpoints), or the Secret's invariants.
Result<ReplayVerification> Verify(const ReplayOptions& o, const std::string& package,
                                  const std::optional<DeployedPackage>& stored,
                                  const std::vector<engine::Record>& records,
                                  const engine::FileEventLog* log, engine::Cache* cache) {
  ReplayVerification v;
  if (cache) {
    ZS_ASSIGN_OR_RETURN(engine::VerifyReport report, cache->Verify());
    v.cache = true;
    v.subject = package + " in " + o.db;
    const std::string prefix = "package " + package + ": ";
    for (const std::string& p : report.problems) {
      if (p.starts_with(prefix)) v.problems.push_back(p.substr(prefix.size()));
    }
    return v;
  }
  v.sensitive = SensitiveVariables(stored->data);
  if (log == nullptr) {
    v.subject = o.secret_path + " invariants";
    v.drift = CheckInvariants(*stored, o.max_events);
    return v;
  }
  v.subject = o.secret_path + " against the fold of " + o.log_path;
  ZS_ASSIGN_OR_RETURN(DeployedPackage folded, engine::Fold(records, engine::FoldOptions{o.max_events}));
  v.drift = engine::CompareSnapshots(*stored, folded);
  ZS_ASSIGN_OR_RETURN(DeployedPackage history, engine::Fold(records, engine::FoldOptions{0}));
  AppendOverlaps(history.events, &v.drift);
  std::size_t checked = 0;
  ZS_ASSIGN_OR_RETURN(v.checkpoints, VerifyCheckpoints(*log, package, records, &checked));
  v.checkpoints_checked = checked;
  return v;
}

// Prints the timeline of `in` in two passes over it: the first folds it
// (a history that does not fold fails before anything is printed) and
// measures the table; the second prints each step as it is folded, then
// the --verify report. The memory of one snapshot, whatever the length.
// Drift found: FailureReported() (the report says what).
CommandStatus PrintTimeline(const ReplayOptions& o, const std::optional<Timestamp>& at,
                            const TimelineInput& in, const std::string& package,
                            const std::optional<DeployedPackage>& stored,
                            const engine::FileEventLog* log, engine::Cache* cache,
                            std::ostream& out, std::ostream& err) {
  const bool tabular = o.output.tabular();
  StreamedTable table(TimelineColumns(), o.output);
  std::size_t steps = 0;
  Status folded = ForEachStep(
      o, at, in, SIZE_MAX,
      [&](const TimelineStep& step, const DeployedPackage& snap,
          const std::vector<std::string>& unknown) {
        if (tabular) table.Measure(TimelineRow(step, snap, unknown));
      },
      &steps);
  if (in.log != nullptr) ReportSkipped(*in.log, err);
  if (!folded.ok()) return folded;
  std::optional<Result<ReplayVerification>> verification;
  const std::vector<engine::Record> no_records;
  if (o.verify) {
    verification = Verify(o, package, stored, in.records ? *in.records : no_records, log, cache);
  }
  // The second pass prints the steps the first saw (a record appended to
  // the log in between is not one of them).
  std::size_t printed = 0;
  Status s;
  if (o.output.structured()) {
    // json/yaml: one document, or nothing when the check could not run.
    if (verification && !verification->ok()) return verification->status();
    TimelineDocumentWriter document(o.output.format, verification.has_value(), out);
    s = ForEachStep(
        o, at, in, steps,
        [&](const TimelineStep& step, const DeployedPackage& snap,
            const std::vector<std::string>& unknown) {
          document.Add(TimelineDocument(step, snap, unknown));
        },
        &printed);
    document.End(verification ? (*verification)->ToDocument() : json::Value());
    if (!s.ok()) return s;
  } else {
    s = ForEachStep(
        o, at, in, steps,
        [&](const TimelineStep& step, const DeployedPackage& snap,
            const std::vector<std::string>& unknown) {
          table.Print(TimelineRow(step, snap, unknown), out);
        },
        &printed);
    if (!s.ok()) return s;
    if (verification && !verification->ok()) return verification->status();
    if (verification) {
      // The drift report names values from Secrets: its control characters
      // never reach the terminal (the table escapes its own cells).
      TableStream text(out, true);
      (*verification)->PrintText(text.stream());
    }
  }
  if (!verification) return Status::OK();
  return CommandStatus::FailedIf(!(*verification)->ok());
}

// Whether -f, --log, --db and --verify make one of replay's inputs: OK, or a
// Usage status saying why not.
Status CheckInputs(const ReplayOptions& o) {
  if (o.secret_path.empty() && o.log_path.empty() && o.db.empty()) {
    return Status::Usage("replay needs -f SECRET, --log FILE or --db DIR PACKAGE");
  }
  if (!o.db.empty() && (o.package.empty() || !o.log_path.empty() || !o.secret_path.empty())) {
    return Status::Usage("replay --db DIR takes a PACKAGE and neither -f nor --log");
  }
  return Status::OK();
}

// replay --dump: the log's records as JSON Lines.
Status RunDump(const ReplayOptions& o, const engine::FileEventLog* log, std::ostream& out,
               std::ostream& err) {
  if (log == nullptr) return Status::Usage("replay --dump needs --log FILE");
  // JSON Lines are not one json/yaml document: -o would promise one.
  if (o.output.format != kFormatTable) {
    return Status::Usage("replay --dump prints JSON Lines; it takes no -o " + o.output.format);
  }
  Status s = DumpLog(*log, o.package, out, o.show_secrets);
  ReportSkipped(*log, err);
  return s;
}

}  // namespace

CommandStatus RunReplay(const ReplayOptions& o, std::ostream& out, std::ostream& err) {
  ZS_RETURN_IF_ERROR(CheckOutputFormat(o.output, kFormats));
  ZS_RETURN_IF_ERROR(CheckInputs(o));
  std::unique_ptr<engine::FileEventLog> log;
  if (!o.log_path.empty()) {
    auto opened = OpenLogForReading(o.log_path, o.max_events);
    if (!opened.ok()) return opened.status();
    log = std::move(opened).value();
  }
  // --verify of a log alone: the log's own framing and order.
  if (o.verify && log && o.secret_path.empty() && !o.dump) return RunLogCheck(*log, o.output, out);
  if (o.dump) return RunDump(o, log.get(), out, err);
  std::optional<Timestamp> at;
  if (!o.at.empty()) {
    auto t = ParseRfc3339(o.at);
    if (!t.ok()) return t.status().WithContext("--at");
    at = *t;
  }
  std::optional<DeployedPackage> stored;
  if (!o.secret_path.empty()) {
    auto payload = LoadSecretPayload(o.secret_path);
    if (!payload.ok()) return payload.status();
    auto pkg = DecodePackagePayload(*payload);
    if (!pkg.ok()) return pkg.status().WithContext(o.secret_path);
    stored = std::move(pkg).value();
  }
  TimelineInput in;
  std::vector<engine::Record> records;
  std::string package = o.package.empty() && stored ? stored->name : o.package;
  if (log) {
    if (package.empty()) {
      auto pkgs = log->Packages();
      if (!pkgs.ok()) return pkgs.status();
      if (pkgs->size() != 1) {
        return Status::Usage(o.log_path + " holds " + std::to_string(pkgs->size()) +
                             " packages; name one with --package");
      }
      package = (*pkgs)[0];
    }
    if (o.verify) {
      // The check needs the whole history at once.
      auto r = log->Read(package);
      ReportSkipped(*log, err);
      if (!r.ok()) return r.status();
      records = std::move(r).value();
      in.records = &records;
    } else {
      in.log = log.get();
      in.package = package;
    }
  }
  std::unique_ptr<engine::Cache> cache;
  if (!o.db.empty()) {
    auto c = OpenCacheReadOnly(o.db);
    if (!c.ok()) return c.status();
    cache = std::move(c).value();
    auto r = cache->log().Read(package);
    if (!r.ok()) return r.status();
    if (r->empty()) return Status::NotFound("package " + package + " has no history in the cache");
    records = std::move(r).value();
    in.records = &records;
  }
  if (!log && !cache) in.stored = &*stored;
  // The cache keeps the whole history: fold it uncapped.
  in.max_events = cache ? 0 : o.max_events;
  return PrintTimeline(o, at, in, package, stored, log.get(), cache.get(), out, err);
}

void RegisterReplay(CLI::App* app, CommandStatus* outcome) {
  auto o = std::make_shared<ReplayOptions>();
  CLI::App* cmd = app->add_subcommand("replay", "Timeline of a package's events and the snapshot after each; drift report");
  cmd->add_option("-f,--filename", o->secret_path, "The package Secret (or bare payload)");
  cmd->add_option("--log", o->log_path, "A record log written by `record --log`");
  cmd->add_option("--package", o->package, "Which package of the log");
  cmd->add_option("--db", o->db, "The local cache: replay PACKAGE's full history from it");
  cmd->add_option("PACKAGE", o->package, "With --db: the package (its cache key)");
  cmd->add_option("--at", o->at, "Time travel: stop at this RFC 3339 time");
  cmd->add_option("--upto", o->upto, "Time travel: stop after N records");
  cmd->add_flag("--verify", o->verify, "Report drift (exit 1 if any)");
  CLI::Option* dump =
      cmd->add_flag("--dump", o->dump, "With --log: print its records as JSON Lines");
  cmd->add_flag("--show-secrets", o->show_secrets,
                "With --dump: print sensitive variables and credentials as stored "
                "(masked by default)")
      ->needs(dump);
  cmd->add_option("--max-events", o->max_events, "Event cap the Secret was written with (default 10)");
  AddOutputOptions(cmd, &o->output, kFormats);
  cmd->callback([o, outcome] { *outcome = RunReplay(*o, std::cout, std::cerr); });
}

}  // namespace zs::tools
