#include "cli/query_cmd.h"

#include <CLI/CLI.hpp>

#include <cstdint>
#include <iostream>
#include <optional>

#include "model/config.h"
#include "model/credentials.h"
#include "json/json_reader.h"
#include "model/model_json.h"
#include "kube/package_secret.h"
#include "engine/cache.h"
#include "engine/config_diff.h"
#include "engine/derived_status.h"
#include "engine/history_view.h"
#include "engine/image_ref.h"
#include "engine/lifecycle.h"
#include "cli/common.h"
#include "io/standard_output.h"
#include "kube/input.h"
#include "cli/config_cmd.h"
#include "cli/event_record.h"
#include "cli/object_names.h"
#include "cli/output.h"
#include "cli/state_record.h"
#include "base/terminal_text.h"

namespace zs::tools {
namespace {

using json::Value;

// What -o may be: all five for the package lists; history has no names to
// print, config-changed no table columns to widen.
const std::vector<std::string> kFormats = {"table", "wide", "json", "yaml", "name"};
const std::vector<std::string> kHistoryFormats = {"table", "wide", "json", "yaml"};
const std::vector<std::string> kConfigChangedFormats = {"table", "json", "yaml"};

// The latest event of a cache status record. The cache stores it as
// "Type/Outcome" and its time (engine/cache.h); "Unknown" is none.
std::optional<EventRecord> LatestOf(const engine::PackageStatus& s) {
  const std::size_t slash = s.latest.find('/');
  if (slash == std::string::npos || !s.latest_time) return std::nullopt;
  EventRecord e;
  e.type = s.latest.substr(0, slash);
  e.outcome = s.latest.substr(slash + 1);
  e.timestamp = *s.latest_time;
  return e;
}

std::string SecretOf(const engine::PackageStatus& s) {
  return s.secret_namespace.empty() ? s.secret_name : s.secret_namespace + "/" + s.secret_name;
}

// A package as the lists show it: its status record, and its derived
// status (its `latest` and components not kept).
struct ShownStatus {
  engine::PackageStatus status;
  engine::PackageState state;
};

// The status record holds the latest event of the snapshot. A snapshot
// without one (a Secret Zarf wrote) is read with the cache's full history,
// observed events included, and else shows the statuses it stores.
Result<ShownStatus> Shown(const engine::Cache& cache, engine::PackageStatus s) {
  ShownStatus out;
  if (s.latest != kOutcomeUnknown) {
    out.state.basis = engine::StatusBasis::kEvents;
    out.state.status = s.latest;
  } else {
    ZS_ASSIGN_OR_RETURN(DeployedPackage view, engine::CachedPackage(cache, s.package));
    out.state = engine::DerivePackageState(view);
    if (out.state.latest != nullptr) {
      s.latest = out.state.status;
      s.latest_time = out.state.latest->timestamp;
      s.in_progress_since = engine::InProgressSince(view);
    }
    out.state.latest = nullptr;
    out.state.components.clear();
  }
  out.status = std::move(s);
  return out;
}

Result<std::vector<ShownStatus>> ShownAll(const engine::Cache& cache,
                                          std::vector<engine::PackageStatus> list) {
  std::vector<ShownStatus> out;
  for (engine::PackageStatus& s : list) {
    ZS_ASSIGN_OR_RETURN(ShownStatus shown, Shown(cache, std::move(s)));
    out.push_back(std::move(shown));
  }
  return out;
}

Value StatusDocument(const ShownStatus& shown) {
  const engine::PackageStatus& s = shown.status;
  return Value::MakeObject({{"package", Value::String(s.package)},
                            {"name", Value::String(s.name)},
                            {"secret", Value::String(SecretOf(s))},
                            {"version", Value::String(s.version)},
                            {"generation", Value::Int(s.generation)},
                            {"latestEvent", EventDocument(LatestOf(s))},
                            {"state", StateDocument(shown.state)},
                            {"inProgressSince", ReportTimeValue(s.in_progress_since)},
                            {"removed", Value::Bool(s.removed)}});
}

void PrintStatusTable(const std::vector<ShownStatus>& list, const Timestamp& now,
                      const OutputOptions& o, std::ostream& out) {
  Table t({{"PACKAGE"}, {"VERSION"}, {"GEN"}, {"LATEST"}, {"AGE"}, {"IN PROGRESS"}, {"REMOVED"},
           {"NAME", true}, {"SECRET", true}, {"TIME", true}});
  for (const ShownStatus& shown : list) {
    const engine::PackageStatus& s = shown.status;
    t.AddRow({s.package, OrDash(s.version), std::to_string(s.generation),
              StateCell(shown.state), AgeOr(s.latest_time, now),
              s.in_progress_since        ? "for " + FormatAge(*s.in_progress_since, now)
              : shown.state.interrupted ? "interrupted"
                                         : "-",
              s.removed ? "yes" : "no", s.name, OrDash(SecretOf(s)),
              s.latest_time ? ReportTime(*s.latest_time) : "-"});
  }
  t.Print(o, out);
}

// One entry of `query history`.
struct HistoryRow {
  std::uint64_t seq = 0;
  std::string kind;  // PackageEvent | ComponentEvent
  EventRecord event;

  static HistoryRow Of(const engine::HistoryEntry& h) {
    const engine::Record& r = h.record;
    HistoryRow row{h.seq, std::string(engine::RecordKindName(r.kind)), {}};
    row.event = r.kind == engine::RecordKind::kComponentEvent
                    ? EventRecord::Of(r.component_event, r.component)
                    : EventRecord::Of(r.event);
    return row;
  }

  Value ToDocument() const {
    return Value::MakeObject(
        {{"seq", Value::Int(static_cast<std::int64_t>(seq))},
         {"kind", Value::String(kind)},
         {"component", event.component.empty() ? Value::Null() : Value::String(event.component)},
         {"event", event.ToDocument()}});
  }
};

Result<engine::HistoryFilter> Filter(const QueryOptions& o) {
  engine::HistoryFilter f;
  f.type = o.type;
  f.outcome = o.outcome;
  f.components = !o.no_components;
  if (!o.since.empty()) {
    ZS_ASSIGN_OR_RETURN(Timestamp t, ParseRfc3339(o.since));
    f.since = t;
  }
  if (!o.until.empty()) {
    ZS_ASSIGN_OR_RETURN(Timestamp t, ParseRfc3339(o.until));
    f.until = t;
  }
  return f;
}

// What a query that found nothing says on stderr, kubectl's way ("No
// resources found in zraf namespace."); the exit code stays 0.
std::string NothingFound(const QueryOptions& o) {
  const std::string term = TerminalText(o.arg);
  if (o.what == "history") {
    const bool filtered = !o.type.empty() || !o.outcome.empty() || !o.since.empty() ||
                          !o.until.empty() || o.no_components;
    return "No events found for package " + term + (filtered ? " that match the filters" : "") +
           " in the cache.";
  }
  std::string which;
  if (o.what == "image") {
    which = (o.by_repository ? " using an image of repository " : " using image ") + term;
  } else if (o.what == "component") {
    which = " with a deployed component " + term;
  } else if (o.what == "source") {
    which = " deployed from " + TerminalText(ScrubSource(o.arg));
  } else if (!o.outcome.empty()) {
    which = " whose latest outcome is " + TerminalText(o.outcome);
  }
  return "No packages found" + which + " in the cache.";
}

Status History(engine::Cache& cache, const QueryOptions& o, const Timestamp& now,
               std::ostream& out, std::string* none) {
  ZS_ASSIGN_OR_RETURN(engine::HistoryFilter filter, Filter(o));
  ZS_ASSIGN_OR_RETURN(std::vector<engine::HistoryEntry> entries, cache.History(o.arg, filter));
  if (entries.empty()) *none = NothingFound(o);
  std::vector<HistoryRow> rows;
  for (const engine::HistoryEntry& h : entries) rows.push_back(HistoryRow::Of(h));
  if (o.output.structured()) {
    Value list = Value::MakeArray();
    for (const HistoryRow& h : rows) list.array().push_back(h.ToDocument());
    PrintStructured(Value::MakeObject({{"package", Value::String(o.arg)}, {"events", std::move(list)}}),
                    o.output.format, out);
    return Status::OK();
  }
  Table t({{"SEQ"}, {"TIME"}, {"AGE"}, {"COMPONENT"}, {"EVENT"}, {"VERSION"}, {"SOURCE"},
           {"DIGEST", true}, {"CONFIG", true}});
  for (const HistoryRow& h : rows) {
    const EventRecord& e = h.event;
    t.AddRow({std::to_string(h.seq), ReportTime(e.timestamp), FormatAge(e.timestamp, now),
              OrDash(e.component), e.Summary(), OrDash(e.version), OrDash(e.source), OrDash(e.digest),
              OrDash(e.config_digest)});
  }
  t.Print(o.output, out);
  return Status::OK();
}

// Prints the statuses of `packages` (cache keys); sets `*none` when there
// are none.
Status PrintPackages(engine::Cache& cache, const std::vector<std::string>& packages,
                     const QueryOptions& o, Value query, const Timestamp& now, std::ostream& out,
                     std::string* none) {
  if (packages.empty()) *none = NothingFound(o);
  if (o.output.name()) {
    std::vector<std::string> names;
    for (const std::string& key : packages) names.push_back(PackageObjectName("", key));
    PrintUniqueNames(names, out);
    return Status::OK();
  }
  std::vector<ShownStatus> list;
  for (const std::string& p : packages) {
    ZS_ASSIGN_OR_RETURN(engine::PackageStatus s, cache.StatusOf(p));
    ZS_ASSIGN_OR_RETURN(ShownStatus shown, Shown(cache, std::move(s)));
    list.push_back(std::move(shown));
  }
  if (o.output.structured()) {
    Value arr = Value::MakeArray();
    for (const auto& s : list) arr.array().push_back(StatusDocument(s));
    query.object().emplace_back("packages", std::move(arr));
    PrintStructured(query, o.output.format, out);
    return Status::OK();
  }
  PrintStatusTable(list, now, o.output, out);
  return Status::OK();
}

// `*differs` is set when the candidate counts as changed (for --exit-code).
Status ConfigChanged(engine::Cache& cache, const QueryOptions& o, std::ostream& out, bool* differs) {
  ZS_ASSIGN_OR_RETURN(std::string payload, cache.SnapshotPayload(o.arg));
  ZS_ASSIGN_OR_RETURN(DeployedPackage pkg, DecodePackagePayload(payload));
  ZS_ASSIGN_OR_RETURN(Value doc, ReadDocument(o.config));
  auto config = DecodeDeployConfig(doc);
  if (!config.ok()) return config.status().WithContext(o.config);
  ZS_ASSIGN_OR_RETURN(std::string marshaled, MarshalDeployConfig(*config));
  const std::string digest = Sha256Digest(marshaled);
  // docs/model.md rule 8: without a recorded successful deploy the answer is
  // "unknown", which counts as different.
  const bool known = !pkg.config_digest.empty();
  const bool changed = !known || digest != pkg.config_digest;
  *differs = changed;
  std::vector<engine::ConfigChange> changes;
  if (known && pkg.deploy_config) {
    // The stored config keeps sensitive variables redacted; the digests
    // still tell whether one of them changed.
    ZS_ASSIGN_OR_RETURN(Value candidate, json::ParseJson(marshaled));
    ZS_ASSIGN_OR_RETURN(changes, engine::DiffRedactedConfigs(*pkg.deploy_config, pkg.config_digest,
                                                             std::move(candidate), digest,
                                                             SensitiveVariables(pkg.data)));
  }
  if (o.output.structured()) {
    PrintStructured(Value::MakeObject({{"package", Value::String(o.arg)},
                                 {"changed", Value::Bool(changed)},
                                 {"known", Value::Bool(known)},
                                 {"lastDigest", Value::String(pkg.config_digest)},
                                 {"candidateDigest", Value::String(digest)},
                                 {"changes", ConfigChangesJson(changes)}}),
                    o.output.format, out);
    return Status::OK();
  }
  if (!known) {
    out << o.arg << ": unknown (no successful deploy recorded): treat as changed; candidate "
        << digest << "\n";
  } else if (!changed) {
    out << o.arg << ": unchanged (" << digest << ")\n";
  } else {
    out << o.arg << ": changed " << TerminalText(pkg.config_digest) << " -> " << digest << "\n"
        << TerminalChanges(changes);
  }
  return Status::OK();
}

// `*none`: what to say on stderr when the answer is empty.
Status Dispatch(engine::Cache& cache, const QueryOptions& o, const Timestamp& now, std::ostream& out,
                bool* differs, std::string* none) {
  using engine::IndexKind;
  if (o.what == "history") return History(cache, o, now, out, none);
  if (o.what == "config-changed") return ConfigChanged(cache, o, out, differs);
  if (o.what == "status") {
    std::vector<std::string> keys;
    if (!o.arg.empty()) {
      keys.push_back(o.arg);
    } else if (!o.outcome.empty()) {
      ZS_ASSIGN_OR_RETURN(keys, cache.Lookup(IndexKind::kOutcome, o.outcome));
    } else {
      ZS_ASSIGN_OR_RETURN(std::vector<engine::PackageStatus> all, cache.Statuses());
      if (o.output.tabular()) {
        if (all.empty()) *none = NothingFound(o);
        ZS_ASSIGN_OR_RETURN(std::vector<ShownStatus> shown, ShownAll(cache, std::move(all)));
        PrintStatusTable(shown, now, o.output, out);
        return Status::OK();
      }
      for (const auto& s : all) keys.push_back(s.package);
    }
    return PrintPackages(cache, keys, o, Value::MakeObject({{"query", Value::String("status")}}), now, out, none);
  }
  Value query = Value::MakeObject({{"query", Value::String(o.what)}, {"term", Value::String(o.arg)}});
  std::vector<std::string> keys;
  if (o.what == "image") {
    ZS_ASSIGN_OR_RETURN(keys, cache.FindImage(o.arg, o.by_repository));
    if (auto ref = engine::ParseImageRef(o.arg); ref.ok()) {
      query.object().emplace_back("normalized", Value::String(o.by_repository ? ref->Name() : ref->Key()));
    }
    query.object().emplace_back("byRepository", Value::Bool(o.by_repository));
  } else if (o.what == "component") {
    ZS_ASSIGN_OR_RETURN(keys, cache.Lookup(IndexKind::kComponent, o.arg));
  } else {
    ZS_ASSIGN_OR_RETURN(keys, cache.Lookup(IndexKind::kSource, o.arg));
    query.object()[1].second = Value::String(ScrubSource(o.arg));
  }
  return PrintPackages(cache, keys, o, std::move(query), now, out, none);
}

}  // namespace

CommandStatus RunQuery(const QueryOptions& o, std::ostream& raw_out, std::ostream& err) {
  const std::vector<std::string>& formats = o.what == "history"          ? kHistoryFormats
                                            : o.what == "config-changed" ? kConfigChangedFormats
                                                                         : kFormats;
  ZS_RETURN_IF_ERROR(CheckOutputFormat(o.output, formats));
  // config-changed's text report names values from Secrets: its control
  // characters never reach the terminal (the tables escape their cells).
  TableStream table(raw_out, o.what == "config-changed" && o.output.tabular());
  std::ostream& out = table.stream();
  const bool needs_arg = o.what != "status";
  if (o.db.empty() || (needs_arg && o.arg.empty()) ||
      (o.what == "config-changed" && o.config.empty())) {
    return Status::Usage("query " + o.what + " needs --db DIR" +
                         (needs_arg ? " and its argument" : "") +
                         (o.what == "config-changed" ? " and -f CONFIG" : ""));
  }
  auto now_or = ParseNow(o.now);
  if (!now_or.ok()) return Status::Usage(now_or.status().message());
  const Timestamp now = *now_or;
  auto cache = OpenCacheReadOnly(o.db);
  if (!cache.ok()) return cache.status();
  bool differs = false;
  std::string none;
  Status s = Dispatch(**cache, o, now, out, &differs, &none);
  if (s.ok()) s = FlushOutput(out, "standard output");
  ZS_RETURN_IF_ERROR(s);
  if (!none.empty()) err << none << "\n";
  // --exit-code: a change is a failure the output already shows.
  return CommandStatus::FailedIf(o.exit_code && differs);
}

void RegisterQuery(CLI::App* app, CommandStatus* outcome) {
  auto o = std::make_shared<QueryOptions>();
  CLI::App* cmd = app->add_subcommand("query", "Answer state questions from the local cache");
  AddCacheDirOption(cmd, &o->db, "The cache directory");
  AddOutputOptions(cmd, &o->output, kFormats);
  cmd->add_option("--now", o->now, "RFC 3339 time to compute ages from (default: now)");
  cmd->require_subcommand(1);
  struct Sub {
    const char* name;
    const char* help;
    const char* arg;
  };
  const Sub subs[] = {
      {"history", "Every event of a package the cache has seen", "package"},
      {"status", "Latest outcome of each package (or one)", "package"},
      {"image", "Packages referencing an image", "image"},
      {"component", "Packages with a deployed component", "component"},
      {"source", "Packages deployed from a source", "source"},
      {"config-changed", "Whether a DeployConfig differs from the last successful deploy's",
       "package"},
  };
  for (const Sub& s : subs) {
    CLI::App* sub = cmd->add_subcommand(s.name, s.help);
    auto* arg = sub->add_option(s.arg, o->arg, s.arg);
    if (std::string_view(s.name) != "status") arg->required();
    const std::string name = s.name;
    if (name == "history") {
      sub->add_option("--type", o->type, "Deploy | Remove");
      sub->add_option("--outcome", o->outcome, "InProgress | Succeeded | Failed | Cancelled");
      sub->add_option("--since", o->since, "RFC 3339, inclusive");
      sub->add_option("--until", o->until, "RFC 3339, inclusive");
      sub->add_flag("--no-components", o->no_components, "Package events only");
    } else if (name == "status") {
      sub->add_option("--outcome", o->outcome, "Only packages whose latest outcome is this");
    } else if (name == "image") {
      sub->add_flag("--repository", o->by_repository, "Any tag or digest of the repository");
    } else if (name == "config-changed") {
      sub->add_option("-f,--filename", o->config, "The candidate DeployConfig (JSON or YAML)")
          ->required();
      sub->add_flag("--exit-code", o->exit_code,
                    "Exit 1 when the config changed or no successful deploy is recorded (as git diff)");
    }
    sub->callback([o, outcome, name] {
      o->what = name;
      *outcome = RunQuery(*o, std::cout, std::cerr);
    });
  }
}

}  // namespace zs::tools
