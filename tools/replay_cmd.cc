#include "tools/replay_cmd.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <optional>

#include "codec/credentials.h"
#include "json/json_reader.h"
#include "codec/model_json.h"
#include "codec/package_secret.h"
#include "codec/secret.h"
#include "engine/derived_status.h"
#include "engine/fold.h"
#include "tools/common.h"
#include "tools/event_record.h"
#include "tools/output.h"
#include "tools/replay_log.h"
#include "tools/replay_verify.h"
#include "tools/terminal_text.h"

namespace zs::tools {
namespace {

std::string ComponentsLine(const DeployedPackage& pkg) {
  std::string s;
  if (!pkg.deployed_components) return s;
  for (const DeployedComponent& c : *pkg.deployed_components) {
    if (!s.empty()) s += ',';
    s += c.name + "=" + engine::ComponentEventSummary(c);
  }
  return s;
}

// The formats replay prints its timeline in (--dump prints JSON Lines).
const std::vector<std::string> kFormats = {"table", "wide", "json", "yaml"};

// One step of the timeline: a record (or a Secret's event) and the state
// it leads to.
struct TimelineStep {
  std::size_t seq = 0;
  Timestamp time;
  std::string record;  // Base | PackageEvent | ComponentEvent
  std::optional<EventRecord> event;  // none for a Base snapshot
  std::size_t base_events = 0;       // a Base snapshot's events
  bool deleted = false;              // the Secret no longer exists after it
  std::string latest;                // the state's latest event ("Unknown")
  std::optional<std::int64_t> generation;  // not recorded for this step
  std::string components;            // "web=Deploy/Succeeded,db=?"
  json::Value snapshot;              // json/yaml only: the state, redacted

  // "Deploy/Succeeded version 1.2.0", "web Deploy/Succeeded", "Base snapshot (3 events)".
  std::string What() const {
    if (!event) return "Base snapshot (" + std::to_string(base_events) + " events)";
    if (!event->component.empty()) return event->component + " " + event->Summary();
    return event->Summary() + (event->version.empty() ? "" : " version " + event->version);
  }

  json::Value ToDocument(const std::vector<std::string>& unknown) const {
    json::Value step = json::Value::MakeObject(
        {{"seq", json::Value::Int(static_cast<std::int64_t>(seq))},
         {"time", json::Value::String(ReportTime(time))},
         {"record", json::Value::String(record)},
         {"what", json::Value::String(What())},
         {"event", EventDocument(event)},
         {"snapshot", deleted ? json::Value() : snapshot}});
    if (deleted) step.Set("secretDeleted", json::Value::Bool(true));
    if (!unknown.empty()) {
      json::Value list = json::Value::MakeArray();
      for (const std::string& u : unknown) list.array().push_back(json::Value::String(u));
      step.Set("unknown", std::move(list));
    }
    return step;
  }
};

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

Table TimelineTable(const std::vector<TimelineStep>& steps) {
  Table t({{"SEQ"}, {"TIME"}, {"RECORD", true}, {"EVENT"}, {"LATEST"}, {"GENERATION"},
           {"COMPONENTS"}, {"SOURCE", true}});
  for (const TimelineStep& s : steps) {
    const std::string source = s.event && !s.event->source.empty() ? s.event->source : "-";
    if (s.deleted) {
      t.AddRow({std::to_string(s.seq), ReportTime(s.time), s.record, s.What(), "Secret deleted",
                "-", "-", source});
      continue;
    }
    t.AddRow({std::to_string(s.seq), ReportTime(s.time), s.record, s.What(), s.latest,
              s.generation ? std::to_string(*s.generation) : "?",
              OrDash(s.components), source});
  }
  return t;
}

Result<std::string> LoadSecretPayload(const std::string& path) {
  ZS_ASSIGN_OR_RETURN(std::string text, ReadFileOrStdin(path));
  ZS_ASSIGN_OR_RETURN(Input input, ReadInput(text, path, CurrentReadLimits()));
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

}  // namespace

int RunReplay(const ReplayOptions& o, std::ostream& raw_out, std::ostream& err) {
  if (!OutputFormatIsOneOf(o.output, kFormats, err)) return kExitUsage;
  // The drift report names values from Secrets: its control characters
  // never reach the terminal (the timeline table escapes its own cells).
  TableStream table(raw_out, o.output.tabular());
  std::ostream& out = table.stream();
  auto fail = [&](const Status& s) {
    err << "error: " << TerminalText(s.message()) << "\n";
    return kExitSomeFailed;
  };
  if (o.secret_path.empty() && o.log_path.empty() && o.db.empty()) {
    err << "error: replay needs -f SECRET, --log FILE or --db DIR PACKAGE\n";
    return kExitUsage;
  }
  if (!o.db.empty() && (o.package.empty() || !o.log_path.empty() || !o.secret_path.empty())) {
    err << "error: replay --db DIR takes a PACKAGE and neither -f nor --log\n";
    return kExitUsage;
  }
  if (o.verify && !o.log_path.empty() && o.secret_path.empty()) {
    err << "error: --verify with --log needs -f SECRET to compare against\n";
    return kExitUsage;
  }
  std::unique_ptr<engine::FileEventLog> log;
  if (!o.log_path.empty()) {
    auto opened = OpenLogForReading(o.log_path, o.max_events);
    if (!opened.ok()) return fail(opened.status());
    log = std::move(opened).value();
  }
  if (o.dump) {
    if (!log) {
      err << "error: replay --dump needs --log FILE\n";
      return kExitUsage;
    }
    // JSON Lines are not one json/yaml document: -o would promise one.
    if (o.output.format != kFormatTable) {
      err << "error: replay --dump prints JSON Lines; it takes no -o " << o.output.format << "\n";
      return kExitUsage;
    }
    const Status s = DumpLog(*log, o.package, raw_out, o.show_secrets);
    ReportSkipped(*log, err);
    return s.ok() ? kExitOk : fail(s);
  }
  std::optional<Timestamp> at;
  if (!o.at.empty()) {
    auto t = ParseRfc3339(o.at);
    if (!t.ok()) return fail(t.status().WithContext("--at"));
    at = *t;
  }
  std::optional<DeployedPackage> stored;
  if (!o.secret_path.empty()) {
    auto payload = LoadSecretPayload(o.secret_path);
    if (!payload.ok()) return fail(payload.status());
    auto pkg = DecodePackagePayload(*payload);
    if (!pkg.ok()) return fail(pkg.status().WithContext(o.secret_path));
    stored = std::move(pkg).value();
  }
  std::vector<engine::Record> records;
  std::string package = o.package.empty() && stored ? stored->name : o.package;
  if (!o.log_path.empty()) {
    if (package.empty()) {
      auto pkgs = log->Packages();
      if (!pkgs.ok()) return fail(pkgs.status());
      if (pkgs->size() != 1) {
        err << "error: " << o.log_path << " holds " << pkgs->size() << " packages; name one with --package\n";
        return kExitUsage;
      }
      package = (*pkgs)[0];
    }
    auto r = log->Read(package);
    ReportSkipped(*log, err);
    if (!r.ok()) return fail(r.status());
    records = std::move(r).value();
  }
  std::unique_ptr<engine::Cache> cache;
  if (!o.db.empty()) {
    auto c = OpenCacheReadOnly(o.db);
    if (!c.ok()) return fail(c.status());
    cache = std::move(c).value();
    auto r = cache->log().Read(package);
    if (!r.ok()) return fail(r.status());
    if (r->empty()) return fail(Status::NotFound("package " + package + " has no history in the cache"));
    records = std::move(r).value();
  }
  // The cache keeps the whole history: fold it uncapped.
  const std::size_t max_events = cache ? 0 : o.max_events;
  std::vector<TimelineStep> steps;
  json::Value timeline = json::Value::MakeArray();
  std::size_t applied = 0;
  // `unknown`: what the input does not record at this step ("generation",
  // "component db"); `deleted`: the Secret no longer exists.
  auto emit = [&](const Timestamp& time, const std::string& kind, std::optional<EventRecord> event,
                  std::size_t base_events, const DeployedPackage& snap,
                  const std::vector<std::string>& unknown, bool deleted) {
    TimelineStep step;
    step.seq = ++applied;
    step.time = time;
    step.record = kind;
    step.event = std::move(event);
    step.base_events = base_events;
    step.deleted = deleted;
    if (o.output.structured()) {
      auto snapshot = json::ParseJson(EncodeDeployedPackage(snap));
      if (snapshot.ok()) {
        RedactPackageForDisplay(&*snapshot);
        step.snapshot = std::move(snapshot).value();
      }
      timeline.array().push_back(step.ToDocument(unknown));
      return;
    }
    step.latest = engine::LatestEventSummary(snap);
    if (std::find(unknown.begin(), unknown.end(), "generation") == unknown.end()) {
      step.generation = snap.generation;
    }
    step.components = ComponentsLine(snap);
    for (const std::string& u : unknown) {
      if (!u.starts_with("component ")) continue;
      step.components += (step.components.empty() ? "" : ",") + u.substr(10) + "=?";
    }
    steps.push_back(std::move(step));
  };
  if (!o.log_path.empty() || cache) {
    engine::Folder folder(engine::FoldOptions{max_events});
    for (const engine::Record& r : records) {
      if (o.upto != 0 && applied >= o.upto) break;
      if (at && *at < r.time() && r.kind != engine::RecordKind::kBase) break;
      Status s = folder.Apply(r);
      if (!s.ok()) return fail(s.WithContext("record " + std::to_string(applied + 1)));
      emit(r.time(), std::string(engine::RecordKindName(r.kind)), EventOfRecord(r),
           r.base ? r.base->events.size() : 0, folder.snapshot(), {}, folder.deleted());
    }
  } else {
    // The Secret alone holds only its capped package events and each
    // component's last event: the timeline is those events, each with the
    // state it leads to as far as the Secret records it (SecretTimeline).
    SecretTimeline timeline_of(*stored);
    for (std::size_t k = 0; k < stored->events.size(); ++k) {
      const PackageEvent& e = stored->events[k];
      if (o.upto != 0 && applied >= o.upto) break;
      if (at && *at < e.timestamp) break;
      std::vector<std::string> unknown;
      const DeployedPackage& view = timeline_of.StateAt(k, &unknown);
      emit(e.timestamp, "PackageEvent", EventRecord::Of(e), 0, view, unknown, false);
    }
  }
  std::optional<Result<ReplayVerification>> verification;
  if (o.verify) verification = Verify(o, package, stored, records, log.get(), cache.get());
  // json/yaml: one document, or nothing when the check could not run.
  if (o.output.structured()) {
    if (verification && !verification->ok()) return fail(verification->status());
    json::Value document = std::move(timeline);
    if (verification) {
      document = json::Value::MakeObject({{"timeline", std::move(document)},
                                          {"verify", (*verification)->ToDocument()}});
    }
    PrintStructured(document, o.output.format, out);
  } else {
    TimelineTable(steps).Print(o.output, out);
    if (verification && !verification->ok()) return fail(verification->status());
    if (verification) (*verification)->PrintText(out);
  }
  if (!verification) return kExitOk;
  return (*verification)->ok() ? kExitOk : kExitSomeFailed;
}

void RegisterReplay(CLI::App* app, int* exit_code) {
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
  cmd->callback([o, exit_code] { *exit_code = RunReplay(*o, std::cout, std::cerr); });
}

}  // namespace zs::tools
