#include "cli/status_cmd.h"

#include <CLI/CLI.hpp>

#include <cstdint>
#include <iostream>
#include <memory>
#include <optional>
#include <string_view>

#include "model/credentials.h"
#include "json/json_reader.h"
#include "cli/cluster_input.h"
#include "cli/common.h"
#include "cli/empty_result.h"
#include "cli/event_record.h"
#include "cli/notes.h"
#include "cli/object_names.h"
#include "cli/output.h"
#include "cli/progress.h"
#include "cli/state_record.h"
#include "base/terminal_text.h"
#include "engine/cache.h"
#include "engine/derived_status.h"
#include "engine/history_view.h"
#include "kube/package_secret.h"
#include "kube/secret.h"
#include "model/model_json.h"

namespace zs::tools {
namespace {

using json::Value;

// The formats status prints.
const std::vector<std::string> kFormats = {"table", "wide", "json", "yaml", "name"};

struct ComponentStatus {
  std::string name;
  std::string status;  // the deprecated `status` field
  std::optional<EventRecord> last_event;
  engine::ComponentState state;
};

// The derived status of one package (docs/model.md section 1).
struct StatusReport {
  std::string name;
  std::string key;     // the table's name (cli/object_names.h)
  std::string secret;  // the Secret's name; "" for a bare payload
  std::optional<EventRecord> latest_event;
  std::optional<Timestamp> in_progress_since;  // the latest event is an open InProgress
  std::optional<EventRecord> latest_deploy, latest_remove, last_successful_deploy;
  std::string config_digest;
  std::string zarf_note;  // why no Zarf release reads the Secret; "" when one does
  engine::PackageState state;  // its `latest` and components are not kept
  std::vector<ComponentStatus> components;

  Value ToDocument(const Timestamp& now) const;
};

StatusReport StatusOf(const DeployedPackage& pkg) {
  StatusReport r;
  r.name = pkg.name;
  r.key = engine::PackageKey(pkg);
  r.latest_event = EventOf(engine::LatestEvent(pkg));
  r.in_progress_since = engine::InProgressSince(pkg);
  r.latest_deploy = EventOf(engine::LatestEventOfType(pkg, kEventDeploy));
  r.latest_remove = EventOf(engine::LatestEventOfType(pkg, kEventRemove));
  r.last_successful_deploy = EventOf(engine::LastSuccessfulDeploy(pkg));
  r.config_digest = pkg.config_digest;
  r.state = engine::DerivePackageState(pkg);
  if (pkg.deployed_components) {
    for (std::size_t i = 0; i < pkg.deployed_components->size(); ++i) {
      const DeployedComponent& c = (*pkg.deployed_components)[i];
      r.components.push_back({c.name, c.status, EventOf(c.last_event), r.state.components[i]});
    }
  }
  r.state.latest = nullptr;
  r.state.components.clear();
  return r;
}

Value StatusReport::ToDocument(const Timestamp& now) const {
  Value comps = Value::MakeArray();
  for (const ComponentStatus& c : components) {
    comps.array().push_back(Value::MakeObject({{"name", Value::String(c.name)},
                                               {"status", Value::String(c.status)},
                                               {"lastEvent", EventDocument(c.last_event)},
                                               {"state", StateDocument(c.state)}}));
  }
  Value seconds = Value::Null();
  if (in_progress_since) {
    std::int64_t s = now.seconds - in_progress_since->seconds;
    seconds = Value::Int(s < 0 ? 0 : s);
  }
  Value v = Value::MakeObject({{"name", Value::String(name)},
                               {"secret", Value::String(secret)},
                               {"state", StateDocument(state)},
                               {"deployedVersion", Value::String(state.deployed_version)},
                               {"latestEvent", EventDocument(latest_event)},
                               {"inProgressSince", ReportTimeValue(in_progress_since)},
                               {"inProgressSeconds", std::move(seconds)},
                               {"latestDeploy", EventDocument(latest_deploy)},
                               {"latestRemove", EventDocument(latest_remove)},
                               {"lastSuccessfulDeploy", EventDocument(last_successful_deploy)},
                               {"configDigest", Value::String(config_digest)},
                               {"zarfReadable", Value::Bool(zarf_note.empty())},
                               {"components", std::move(comps)}});
  if (!zarf_note.empty()) v.Set("zarfNote", Value::String(zarf_note));
  return v;
}

// "Deploy/Failed 3d" for a wide cell: the event and its age; "-" for none.
std::string EventWithAge(const std::optional<EventRecord>& e, const Timestamp& now) {
  return e ? e->Summary() + " " + FormatAge(e->timestamp, now) : "-";
}


Table StatusTable(const std::vector<StatusReport>& reports, const Timestamp& now) {
  Table t({{"NAME"}, {"LATEST"}, {"AGE"}, {"IN PROGRESS"}, {"DEPLOYED"}, {"SECRET", true},
           {"LATEST DEPLOY", true}, {"LATEST REMOVE", true}, {"LAST SUCCESS", true},
           {"DIGEST", true}, {"SOURCE", true}, {"CONFIG", true}, {"COMPONENTS", true}});
  for (const StatusReport& r : reports) {
    const std::optional<EventRecord>& ok = r.last_successful_deploy;
    std::string comps;
    for (const ComponentStatus& c : r.components) {
      comps += (comps.empty() ? "" : ",") + c.name + "=" + StateCell(c.state);
    }
    t.AddRow({r.key, StateCell(r.state),
              r.latest_event ? FormatAge(r.latest_event->timestamp, now) : "-",
              r.in_progress_since ? "for " + FormatAge(*r.in_progress_since, now)
              : r.state.interrupted ? "interrupted" : "-",
              OrDash(r.state.deployed_version), OrDash(r.secret),
              EventWithAge(r.latest_deploy, now), EventWithAge(r.latest_remove, now),
              EventWithAge(ok, now), ok ? OrDash(ok->digest) : "-", ok ? OrDash(ok->source) : "-",
              ok ? OrDash(ok->config_digest) : "-", OrDash(comps)});
  }
  return t;
}

// Adds the status of `pkg` (its payload `payload`, its Secret `secret`) to
// `all`; a package no Zarf release reads is said on `err` under a table.
void AddStatus(const DeployedPackage& pkg, std::string_view payload, std::string secret,
               std::string_view label, const StatusOptions& o, std::vector<StatusReport>* all,
               std::ostream& err) {
  StatusReport status = StatusOf(pkg);
  status.secret = std::move(secret);
  status.zarf_note = std::string(ZarfCannotRead(payload));
  // A table has no room for it; a document carries zarfNote.
  if (!status.zarf_note.empty() && !o.output.structured()) {
    err << "warning: " << TerminalText(label) << ": Zarf CANNOT READ this Secret: "
        << TerminalText(status.zarf_note) << "\n";
  }
  all->push_back(std::move(status));
}

// `status --db` alone: every package of the cache, its snapshot with its
// full history. Returns whether one failed (said on `err`).
bool CollectFromCache(const engine::Cache& cache, const StatusOptions& o,
                      std::vector<StatusReport>* all, std::ostream& err) {
  auto statuses = cache.Statuses();
  if (!statuses.ok()) {
    PrintError(err, "cache " + o.db + ": " + std::string(statuses.status().message()));
    return true;
  }
  bool failed = false;
  for (const engine::PackageStatus& s : *statuses) {
    auto payload = cache.SnapshotPayload(s.package);
    auto pkg = payload.ok() ? DecodePackagePayload(*payload) : Result<DeployedPackage>(payload.status());
    auto history = cache.History(s.package, engine::HistoryFilter{});
    Status st = !pkg.ok() ? pkg.status() : history.status();
    if (!st.ok()) {
      PrintError(err, "package " + s.package + " in cache " + o.db + ": " + std::string(st.message()));
      failed = true;
      continue;
    }
    AddStatus(engine::WithHistory(std::move(pkg).value(), *history), *payload, s.secret_name,
              s.package, o, all, err);
  }
  return failed;
}

// The packages of the input; with `cache`, each with the cache's full
// history of it. Returns whether an object failed (said on `err`).
bool CollectFromInput(const engine::Cache* cache, const StatusOptions& o,
                      std::vector<StatusReport>* all, std::ostream& err) {
  std::size_t init_states = 0;
  bool failed = ForEachObject(o.files, err, [&](const InputObject& in) -> Status {
    if (in.payload_kind != PayloadKind::kPackage) {
      // The init state has no lifecycle: said, never silently skipped.
      ++init_states;
      if (NotesQuiet()) return Status::OK();
      err << TerminalText(in.label) << ": the Zarf init state (zarf-state), not a package Secret: "
          << "it has no deploy status; skipped\n";
      return Status::OK();
    }
    ZS_ASSIGN_OR_RETURN(DeployedPackage pkg, DecodePackagePayload(in.payload));
    if (cache != nullptr) {
      auto history = cache->History(engine::PackageKey(pkg), engine::HistoryFilter{});
      if (history.ok()) {
        pkg = engine::WithHistory(std::move(pkg), *history);
      } else if (history.status().code() == Status::Code::kNotFound) {
        err << "warning: " << TerminalText(in.label) << ": not in the cache " << TerminalText(o.db)
            << ": the Secret's own events only\n";
      } else {
        return history.status().WithContext("cache " + o.db);
      }
    }
    AddStatus(pkg, in.payload, in.is_secret ? std::string(ObjectName(in.object)) : "", in.label,
              o, all, err);
    return Status::OK();
  });
  if (all->empty() && init_states > 0) {
    PrintError(err,
               "no package Secret in the input, only the init state: nothing to report (status "
               "reports package Secrets, zarf-package-*)");
    failed = true;
  } else if (all->empty() && !failed) {
    // Nothing to report is a failure here (docs/cli.md): a script asking for
    // the status of a namespace learns that it holds no package.
    SayNothingFound("package Secrets", o.files, err);
    failed = true;
  }
  return failed;
}

}  // namespace

CommandStatus RunStatus(const StatusOptions& o, std::ostream& out, std::ostream& err) {
  ZS_RETURN_IF_ERROR(CheckOutputFormat(o.output, kFormats));
  auto now_or = ParseNow(o.now);
  if (!now_or.ok()) return Status::Usage(now_or.status().message());
  const Timestamp now = *now_or;
  std::unique_ptr<engine::Cache> cache;
  if (!o.db.empty()) {
    auto opened = OpenCacheReadOnly(o.db);
    if (!opened.ok()) return opened.status();
    cache = std::move(opened).value();
  }
  std::vector<StatusReport> all;
  const bool failed = o.from_cache && cache ? CollectFromCache(*cache, o, &all, err)
                                            : CollectFromInput(cache.get(), o, &all, err);
  if (o.output.structured()) {
    Value docs = Value::MakeArray();
    for (const StatusReport& s : all) docs.array().push_back(s.ToDocument(now));
    PrintStructured(docs, o.output.format, out);
  } else if (o.output.name()) {
    std::vector<std::string> names;
    for (const StatusReport& s : all) names.push_back(PackageObjectName(s.secret, s.key));
    PrintUniqueNames(names, out);
  } else {
    StatusTable(all, now).Print(o.output, out);
  }
  return CommandStatus::FailedIf(failed);
}

void RegisterStatus(CLI::App* app, CommandStatus* outcome) {
  auto o = std::make_shared<StatusOptions>();
  CLI::App* cmd = app->add_subcommand("status", "Derived status: latest event, in progress since when, last successful deploy");
  CLI::Option* files = cmd->add_option("-f,--filename", o->files, "Input file(s); '-' for stdin")->default_val(std::vector<std::string>{"-"});
  AddOutputOptions(cmd, &o->output, kFormats);
  cmd->add_option("--now", o->now, "Compute ages as of this RFC 3339 time");
  AddQuietFlag(cmd, &o->quiet);
  cmd->add_option("--db", o->db,
                  "Cache directory: each package's full history (recorded and observed); "
                  "alone, every package of the cache");
  // The init state: not read, not fetched.
  auto cluster = AddClusterFlags(cmd, files, /*init_state=*/false);
  cmd->callback([o, cluster, files, outcome] {
    o->from_cache = !o->db.empty() && files->count() == 0 && !cluster->enabled;
    if (!o->from_cache) *outcome = PrepareCommandInput(*cluster, &o->files, "status");
    if (outcome->ok()) *outcome = RunStatus(*o, std::cout, std::cerr);
  });
}

}  // namespace zs::tools
