#include "cli/record_cmd.h"

#include <CLI/CLI.hpp>

#include <chrono>
#include <csignal>
#include <iostream>
#include <thread>

#include "cli/common.h"
#include "kube/input.h"
#include "engine/package_definition.h"
#include "base/terminal_text.h"
#include "engine/prune.h"
#include "engine/zarf_deploy.h"
#include "engine/zarf_remove.h"
#include "model/model.h"
#include "model/zarf_package.h"

namespace zs::tools {
namespace {

volatile std::sig_atomic_t g_stop_signal = 0;

extern "C" void OnStopSignal(int sig) { g_stop_signal = sig; }

// Installs the graceful-stop handlers for the lifetime of the object:
// SIGINT, SIGTERM and SIGHUP (a closed terminal or ssh session) alike.
class StopSignals {
 public:
  StopSignals() {
    g_stop_signal = 0;
    struct sigaction sa {};
    sa.sa_handler = OnStopSignal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int_);
    sigaction(SIGTERM, &sa, &old_term_);
    sigaction(SIGHUP, &sa, &old_hup_);
  }
  ~StopSignals() {
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
    sigaction(SIGHUP, &old_hup_, nullptr);
  }
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

 private:
  struct sigaction old_int_ {};
  struct sigaction old_term_ {};
  struct sigaction old_hup_ {};
};

// Waits `ms` unless a stop signal arrives; returns whether one did.
bool PauseOrStop(int ms) {
  for (int waited = 0; waited < ms && !g_stop_signal; waited += 10) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return g_stop_signal != 0;
}

// Step lines for --verbose, flushed at once so a watcher sees them live.
void Step(const RecordOptions& o, std::string_view what, std::string_view component) {
  if (!o.verbose) return;
  std::cerr << "step: " << what << " " << component << std::endl;
}

// The releases a failed attempt of `component` installed: all of them, the
// last one Failed (Zarf stops at the release that fails).
std::vector<InstalledChart> AttemptedCharts(const json::Value& component, std::string_view package) {
  std::vector<InstalledChart> charts = engine::ExpectedCharts(component, package);
  for (InstalledChart& c : charts) c.status = std::string(kStatusSucceeded);
  if (!charts.empty()) charts.back().status = std::string(kStatusFailed);
  return charts;
}

// Runs the steps of a deploy; returns the outcome recorded.
Result<std::string> SimulateDeploy(const RecordOptions& o, const json::Value& package,
                                   engine::Lifecycle& lc, std::ostream& err) {
  const std::string name = lc.snapshot().name;
  (void)err;
  const json::Value* components = package.Find("components");
  const json::Value none = json::Value::MakeArray();
  if (components == nullptr || !components->is_array()) components = &none;
  for (const json::Value& c : components->array()) {
    const std::string comp(c.StringOr("name"));
    if (PauseOrStop(o.step_delay_ms)) return std::string(kOutcomeCancelled);
    ZS_RETURN_IF_ERROR(lc.ComponentStarted(comp));
    Step(o, "deploying", comp);
    if (PauseOrStop(o.step_delay_ms)) return std::string(kOutcomeCancelled);
    if (comp == o.fail_component) {
      ZS_RETURN_IF_ERROR(lc.ComponentFailed(comp, AttemptedCharts(c, name)));
      ZS_RETURN_IF_ERROR(lc.FinishDeploy(kOutcomeFailed));
      return std::string(kOutcomeFailed);
    }
    ZS_RETURN_IF_ERROR(lc.ComponentSucceeded(comp, engine::ExpectedCharts(c, name)));
    Step(o, "deployed", comp);
  }
  if (PauseOrStop(o.step_delay_ms)) return std::string(kOutcomeCancelled);
  ZS_RETURN_IF_ERROR(lc.FinishDeploy(kOutcomeSucceeded));
  return std::string(kOutcomeSucceeded);
}

Result<std::string> SimulateRemove(const RecordOptions& o, const engine::ZarfRemovePlan& plan,
                                   engine::Lifecycle& lc) {
  std::vector<std::string> targets;  // Zarf's order; a name deployed twice is removed once
  for (const std::string& name : plan.removed) {
    if (std::find(targets.begin(), targets.end(), name) == targets.end()) targets.push_back(name);
  }
  for (const std::string& comp : targets) {
    if (PauseOrStop(o.step_delay_ms)) return std::string(kOutcomeCancelled);
    ZS_RETURN_IF_ERROR(lc.ComponentRemoving(comp));
    Step(o, "removing", comp);
    if (PauseOrStop(o.step_delay_ms)) return std::string(kOutcomeCancelled);
    if (comp == o.fail_component) {
      ZS_RETURN_IF_ERROR(lc.ComponentRemoveFailed(comp));
      ZS_RETURN_IF_ERROR(lc.FinishRemove(kOutcomeFailed));
      return std::string(kOutcomeFailed);
    }
    ZS_RETURN_IF_ERROR(lc.ComponentRemoved(comp));
  }
  ZS_RETURN_IF_ERROR(lc.FinishRemove(kOutcomeSucceeded));
  return std::string(kOutcomeSucceeded);
}

// --config: a file (JSON or YAML), or the JSON itself when it starts with '{'.
Result<json::Value> ConfigDocument(const std::string& arg) {
  if (arg.starts_with("{")) return ParseDocument(arg, "--config");
  return ReadDocument(arg);
}

Result<json::Value> OptionalDocument(const std::string& path) {
  if (path.empty()) return json::Value::Null();
  return ConfigDocument(path);
}

// Performs the action; returns the outcome of the operation it recorded
// ("" for steps that end nothing).
Result<std::string> Act(const RecordOptions& o, PackageSession& session, json::Value* package,
                        std::ostream& err) {
  engine::Lifecycle& lc = session.lifecycle();
  if (o.action == "deploy") {
    engine::DeployRequest req;
    req.package = *package;
    req.package_digest = o.package_digest;
    req.source = o.source.empty() ? o.package_file : o.source;
    req.cli_version = o.cli_version;
    req.package_connectivity = o.connectivity;
    ZS_ASSIGN_OR_RETURN(req.config, OptionalDocument(o.config_file));
    // What Zarf deploys and stores: its selection, its namespace override.
    ZS_ASSIGN_OR_RETURN(req.package, engine::ZarfDeployDefinition(*package, o.components, req.config));
    req.package_connectivity = engine::ZarfConnectivity(req.package, o.connectivity);
    ZS_RETURN_IF_ERROR(lc.BeginDeploy(req));
    if (o.begin_only) return std::string();
    return SimulateDeploy(o, req.package, lc, err);
  }
  if (o.action == "remove") {
    engine::RemoveRequest req;
    ZS_ASSIGN_OR_RETURN(req.config, OptionalDocument(o.config_file));
    // Zarf's selection first: one it refuses records nothing.
    ZS_ASSIGN_OR_RETURN(engine::ZarfRemovePlan plan, engine::PlanZarfRemove(lc.snapshot(), o.components));
    ZS_RETURN_IF_ERROR(lc.BeginRemove(req));
    if (o.begin_only) return std::string();
    ZS_ASSIGN_OR_RETURN(std::string outcome, SimulateRemove(o, plan, lc));
    if (plan.secret_deleted && !lc.secret_deleted()) {
      err << "warning: " << TerminalText(session.package()) << ": Zarf " << kZarfTypesVersion
          << " deletes Secret " << plan.secret_name
          << " here (no selected component needs the cluster, so it removes them from the "
             "definition alone); the Secret is kept while components remain deployed\n";
    }
    return outcome;
  }
  if (o.action == "abandon") {
    ZS_RETURN_IF_ERROR(lc.Abandon(o.outcome));
    return std::string(o.outcome);
  }
  // component / finish continue an operation begun earlier.
  json::Value config;
  if (!o.config_file.empty()) {
    ZS_ASSIGN_OR_RETURN(config, ConfigDocument(o.config_file));
  }
  ZS_RETURN_IF_ERROR(lc.Resume(o.config_file.empty() ? nullptr : &config));
  if (lc.running().empty()) {
    return Status::InvalidArgument("package " + session.package() + " has no operation in progress");
  }
  const bool deploying = lc.running() == kEventDeploy;
  if (o.action == "finish") {
    ZS_RETURN_IF_ERROR(deploying ? lc.FinishDeploy(o.outcome) : lc.FinishRemove(o.outcome));
    return std::string(o.outcome);
  }
  if (o.outcome == kOutcomeInProgress) {
    ZS_RETURN_IF_ERROR(deploying ? lc.ComponentStarted(o.component) : lc.ComponentRemoving(o.component));
  } else if (o.outcome == kOutcomeSucceeded) {
    std::vector<InstalledChart> charts;
    if (const json::Value* comps = lc.snapshot().data.Find("components"); comps && comps->is_array()) {
      for (const json::Value& c : comps->array()) {
        if (c.StringOr("name") == o.component) charts = engine::ExpectedCharts(c, session.package());
      }
    }
    ZS_RETURN_IF_ERROR(deploying ? lc.ComponentSucceeded(o.component, std::move(charts))
                                 : lc.ComponentRemoved(o.component));
  } else if (o.outcome == kOutcomeFailed) {
    ZS_RETURN_IF_ERROR(deploying ? lc.ComponentFailed(o.component) : lc.ComponentRemoveFailed(o.component));
  } else {
    return Status::InvalidArgument("a component step is InProgress, Succeeded or Failed, not '" +
                                   o.outcome + "'");
  }
  return std::string();
}

}  // namespace

CommandStatus RunRecord(const RecordOptions& o, std::ostream& out, std::ostream& err) {
  json::Value package;
  std::string hint;
  if (o.action == "deploy") {
    if (o.package_file.empty()) {
      return Status::Usage("record deploy needs --package FILE (the ZarfPackage definition)");
    }
    auto p = ReadPackageDefinition(o.package_file, err);
    if (!p.ok()) return p.status();
    package = std::move(p).value();
    const json::Value* md = package.Find("metadata");
    hint = md ? std::string(md->StringOr("name")) : "";
  }
  SessionOptions so = o.session;
  so.create = o.action == "deploy";
  auto codec = ParsePackageCodec(o.codec);
  if (!codec.ok()) return Status::Usage(codec.status().WithContext("--codec").message());
  so.store.codec = *codec;
  StopSignals signals;  // installed before anything is read: no window to lose a stop
  auto session = PackageSession::Open(so, hint);
  if (!session.ok()) return session.status();
  auto outcome = Act(o, **session, &package, err);
  for (const std::string& w : (*session)->lifecycle().TakeWarnings()) err << "warning: " << TerminalText(w) << "\n";
  if (!outcome.ok()) {
    // Nothing is written: the operation was refused before its first record,
    // or a step failed and the Secret keeps its last good state.
    return outcome.status().WithContext(session.value()->package());
  }
  if (*outcome == kOutcomeCancelled && g_stop_signal != 0) {
    Status cancelled = (*session)->lifecycle().Cancel();
    ZS_RETURN_IF_ERROR(cancelled);
    err << "stopped by signal " << g_stop_signal << ": recorded " << o.action << "/Cancelled\n";
  }
  for (const std::string& w : (*session)->lifecycle().TakeWarnings()) err << "warning: " << TerminalText(w) << "\n";
  Status saved = (*session)->Save(out);
  ZS_RETURN_IF_ERROR(saved);
  if (!(*session)->store_warning().empty()) {
    err << "warning: " << TerminalText((*session)->store_warning()) << "\n";
  }
  const bool printed = o.session.to_stdout || o.session.secret_path == "-";
  if (!printed && !(*session)->lifecycle().secret_deleted()) {
    // One line of what was written, as kubectl apply prints it; flushed so
    // that it comes before any line on stderr below.
    out << TerminalText((*session)->SavedLine()) << std::endl;
  }
  if ((*session)->lifecycle().secret_deleted()) {
    err << TerminalText((*session)->package()) << ": no component left: Secret " << (*session)->secret_name()
        << (o.session.to_stdout || o.session.secret_path == "-"
                ? " deleted (the deletion is printed for `kubectl delete -f -`)"
                : " deleted (" + o.session.secret_path + " removed)")
        << "; the history stays in the log\n";
  }
  if (*outcome == kOutcomeFailed || *outcome == kOutcomeCancelled) {
    if (o.action != "abandon") {
      err << TerminalText((*session)->package()) << ": " << o.action << " " << *outcome << "\n";
      return CommandStatus::FailureReported();
    }
  }
  return Status::OK();
}

void RegisterRecord(CLI::App* app, CommandStatus* outcome) {
  CLI::App* record = app->add_subcommand("record", "Append lifecycle events to a package Secret, as Zarf would");
  record->require_subcommand(1);
  auto add_common = [](CLI::App* cmd, RecordOptions* o) {
    cmd->add_option("-f,--filename", o->session.secret_path,
                    "The package Secret (JSON/YAML) or bare payload; '-' reads stdin and prints")
        ->required();
    cmd->add_option("--log", o->session.log_path, "Also append the records to this event log: the package's full, uncapped history");
    cmd->add_option("--max-events", o->session.max_events, "Events the Secret keeps (default 10)");
    cmd->add_flag("--stdout", o->session.to_stdout, "Print the new Secret instead of replacing the file");
    cmd->add_option("--codec", o->codec,
                    "json | compact | auto (JSON whenever it fits; compact only when it cannot)")
        ->default_val("auto");
  };
  struct Spec {
    const char* name;
    const char* help;
  };
  for (Spec spec : {Spec{"deploy", "Record a deploy of --package (the components Zarf selects)"},
                    Spec{"remove", "Record a removal (the components Zarf's remove takes)"},
                    Spec{"component", "Record one component step of the operation in progress"},
                    Spec{"finish", "Record the end of the operation in progress"},
                    Spec{"abandon", "Close an operation a hard kill left InProgress"}}) {
    auto o = std::make_shared<RecordOptions>();
    o->action = spec.name;
    CLI::App* cmd = record->add_subcommand(spec.name, spec.help);
    add_common(cmd, o.get());
    const std::string action = spec.name;
    if (action == "deploy") {
      cmd->add_option("--package", o->package_file, "ZarfPackage definition (zarf.yaml or JSON)")->required();
      cmd->add_option("--digest", o->package_digest, "The package's digest (sha256:...)");
      cmd->add_option("--source", o->source, "Where the package came from (credentials are scrubbed)");
      cmd->add_option("--cli-version", o->cli_version, "Zarf version to record");
      cmd->add_option("--connectivity", o->connectivity, "airgap | connected");
    }
    if (action == "deploy" || action == "remove" || action == "finish") {
      cmd->add_option("--config", o->config_file, "DeployConfig / RemoveConfig: a JSON or YAML file, or inline JSON ('{...}')");
    }
    if (action == "deploy" || action == "remove") {
      cmd->add_option("--components", o->components,
                      "Zarf's --components: comma list of globs, '-name' excludes");
      cmd->add_option("--fail", o->fail_component, "Make this component fail");
      cmd->add_flag("--begin-only", o->begin_only, "Only record the start");
      cmd->add_option("--step-delay", o->step_delay_ms, "Milliseconds to wait between steps");
      cmd->add_flag("-v,--verbose", o->verbose, "Print each step on stderr");
    }
    if (action == "component") {
      cmd->add_option("--name", o->component, "Component name")->required();
      cmd->add_option("--outcome", o->outcome, "InProgress | Succeeded | Failed")->required();
    }
    if (action == "finish" || action == "abandon") {
      cmd->add_option("--outcome", o->outcome,
                      action == "finish" ? "Succeeded | Failed" : "Cancelled | Failed")->required();
    }
    cmd->callback([o, outcome] { *outcome = RunRecord(*o, std::cout, std::cerr); });
  }
}

}  // namespace zs::tools
