#include "cli/observe_cmd.h"

#include <CLI/CLI.hpp>
#include <signal.h>

#include <chrono>
#include <csignal>
#include <iostream>
#include <thread>

#include "kube/package_secret.h"
#include "json/go_json.h"
#include "json/json_reader.h"
#include "cli/common.h"
#include "kube/input.h"
#include "cli/observer.h"
#include "cli/stream_process.h"
#include "base/terminal_text.h"

namespace zs::tools {
namespace {

volatile std::sig_atomic_t g_observe_stop = 0;

extern "C" void OnObserveStop(int sig) { g_observe_stop = sig; }

// SIGINT and SIGTERM set g_observe_stop while the object lives.
class StopOnSignal {
 public:
  StopOnSignal() {
    g_observe_stop = 0;
    struct sigaction sa {};
    sa.sa_handler = OnObserveStop;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int_);
    sigaction(SIGTERM, &sa, &old_term_);
  }
  ~StopOnSignal() {
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
  }
  StopOnSignal(const StopOnSignal&) = delete;
  StopOnSignal& operator=(const StopOnSignal&) = delete;

 private:
  struct sigaction old_int_ {};
  struct sigaction old_term_ {};
};

// How an input hands out its objects (ObjectInput::Read).
using ReadObjects =
    std::function<Status(Input* header, const std::function<Status(InputObject)>& on_object)>;

// Observes every object `read` hands out (of the input named `source`); a
// List is a whole namespace, whose missing packages were deleted. Returns
// whether all went well; errors are printed.
bool ObserveObjects(Observer* observer, const ReadObjects& read_objects, const std::string& source,
                    std::string_view default_namespace, std::ostream& err) {
  bool ok = true;
  std::string ns;
  Input header;
  const Timestamp now = Timestamp::Now();
  observer->ListStarted();
  Status read = read_objects(&header, [&](InputObject obj) -> Status {
    if (ns.empty() && obj.is_secret) ns = std::string(ObjectNamespace(obj.object));
    if (Status s = observer->See(obj, now); !s.ok()) {
      PrintError(err, s.message());
      ok = false;
    }
    return Status::OK();
  });
  ReportSkipped(header, source, err);
  if (!read.ok()) {
    PrintError(err, read.message());
    ok = false;
  }
  if (header.is_list) {
    if (!ok) {
      err << "warning: " << TerminalText(source)
          << ": not taking packages the list lacks as deleted, since some of it failed\n";
    } else if (Status s = observer->ListEnded(ns.empty() ? default_namespace : ns, now); !s.ok()) {
      PrintError(err, s.message());
      ok = false;
    }
  }
  if (Status s = observer->Commit(); !s.ok()) {
    PrintError(err, s.message());
    ok = false;
  }
  return ok;
}

// One list of the cluster's namespace, diffed against the cache.
bool Poll(Observer* observer, const ClusterOptions& cluster, std::ostream& err) {
  ClusterOptions packages_only = cluster;
  packages_only.init_state = false;
  auto text = FetchClusterSecrets(packages_only);
  if (!text.ok()) {
    PrintError(err, text.status().message());
    return false;
  }
  const std::string source = ClusterLabel(cluster);
  auto read = [&](Input* header, const std::function<Status(InputObject)>& on_object) {
    return ReadInputStreaming(*text, source, CurrentReadLimits(), header, on_object);
  };
  return ObserveObjects(observer, read, source, cluster.namespace_, err);
}

std::vector<std::string> WatchCommand(const ClusterOptions& c) {
  std::vector<std::string> argv = {"kubectl", "get", "secrets", "-l", std::string(kPackageLabel),
                                   "--watch", "--output-watch-events", "-o", "json",
                                   "--namespace", c.namespace_};
  if (!c.context.empty()) argv.insert(argv.end(), {"--context", c.context});
  if (!c.kubeconfig.empty()) argv.insert(argv.end(), {"--kubeconfig", c.kubeconfig});
  return argv;
}

// One watch event; false when the watch must start over (an ERROR event,
// such as 410 Gone).
bool ObserveEvent(Observer* observer, const std::string& text, const std::string& label,
                  std::ostream& err) {
  auto event = json::ParseJson(text);
  const json::Value* object = event.ok() ? event->Find("object") : nullptr;
  const std::string type(event.ok() ? event->StringOr("type") : "");
  if (object == nullptr || type == "ERROR") {
    const std::string why(object != nullptr ? object->StringOr("message") : "not a watch event");
    err << "warning: " << TerminalText(label) << ": the watch ended: " << TerminalText(why)
        << "; listing again\n";
    return false;
  }
  auto input = ReadInput(WriteJson(*object).value(), label + " " + type);
  Status s;
  if (!input.ok()) {
    s = input.status();
  } else if (input->objects.empty()) {
    s = Status::InvalidArgument(label + " " + type + ": not a Zarf package Secret");
  } else if (type == "DELETED") {
    s = observer->SeeDeleted(input->objects.front(), Timestamp::Now());
  } else {
    s = observer->See(input->objects.front(), Timestamp::Now());
  }
  if (!s.ok()) PrintError(err, s.message());
  if (Status c = observer->Commit(); !c.ok()) PrintError(err, c.message());
  return true;
}

// Follows one `kubectl get --watch` until it ends or a stop signal.
void FollowWatch(Observer* observer, const ClusterOptions& cluster, std::ostream& err) {
  const std::string label = ClusterLabel(cluster);
  auto proc = StreamProcess::Start(WatchCommand(cluster));
  if (!proc.ok()) {
    PrintError(err, label + ": " + std::string(proc.status().message()));
    return;
  }
  JsonValueSplitter splitter;
  std::string chunk, value;
  bool restart = false;
  while (!g_observe_stop && !restart) {
    chunk.clear();
    auto more = (*proc)->Read(&chunk, 200);
    if (!more.ok() || !*more) break;
    splitter.Feed(chunk);
    while (!restart && splitter.Next(&value)) {
      restart = !ObserveEvent(observer, value, label, err);
    }
  }
  (*proc)->Terminate();
  const ProcessResult r = (*proc)->Wait();
  if (g_observe_stop || restart) return;
  err << "warning: " << TerminalText(label) << ": kubectl watch ended ("
      << (r.exit_code >= 0 ? "exit " + std::to_string(r.exit_code)
                           : "signal " + std::to_string(r.signal))
      << ")" << (r.err.empty() ? "" : ": " + TerminalText(r.err))
      << (splitter.pending() ? " in the middle of an event" : "") << "; listing again\n";
}

void PauseUnlessStopped(int seconds) {
  for (int ms = 0; ms < seconds * 1000 && !g_observe_stop; ms += 50) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

void Watch(Observer* observer, const ObserveCmdOptions& o, std::ostream& err) {
  StopOnSignal signals;
  int backoff = o.retry_seconds;
  while (!g_observe_stop) {
    if (!Poll(observer, o.cluster, err)) {
      PauseUnlessStopped(backoff);
      backoff = std::min(backoff * 2, 60);
      continue;
    }
    backoff = o.retry_seconds;
    FollowWatch(observer, o.cluster, err);
    if (!g_observe_stop) PauseUnlessStopped(1);
  }
}

}  // namespace

CommandStatus RunObserve(const ObserveCmdOptions& o, std::ostream& out, std::ostream& err) {
  if (o.watch && !o.cluster.enabled) {
    return Status::Usage("observe --watch follows a cluster: give --cluster");
  }
  auto observer = Observer::Open(o.db, out);
  if (!observer.ok()) return observer.status();
  Observer* obs = observer->get();
  bool ok = true;
  if (o.watch) {
    Watch(obs, o, err);  // each failure printed as it happens; the watch goes on
    err << "observe: " << obs->writes() << " writes, " << obs->events() << " events\n";
    return Status::OK();
  }
  if (o.cluster.enabled) {
    ok = Poll(obs, o.cluster, err);
  } else {
    const std::vector<std::string> stdin_only{"-"};
    for (const std::string& file : o.files.empty() ? stdin_only : o.files) {
      auto input = ObjectInput::Open(file);
      if (!input.ok()) {
        PrintError(err, input.status().message());
        ok = false;
        continue;
      }
      auto read = [&](Input* header, const std::function<Status(InputObject)>& on_object) {
        return input->Read(header, on_object);
      };
      ok &= ObserveObjects(obs, read, file == "-" ? "<stdin>" : file, kZarfNamespace, err);
    }
  }
  err << "observe: " << obs->writes() << " writes, " << obs->events() << " events\n";
  return CommandStatus::FailedIf(!ok);
}

void RegisterObserve(CLI::App* app, CommandStatus* outcome) {
  auto o = std::make_shared<ObserveCmdOptions>();
  CLI::App* cmd = app->add_subcommand(
      "observe", "Derive the history of Zarf v0.84 packages from the writes to their Secrets");
  AddCacheDirOption(cmd, &o->db, "The cache directory the history goes to (created 0700)");
  CLI::Option* files = cmd->add_option("-f,--filename", o->files,
                                       "Snapshots in time order: namespace dumps or Secrets (- for stdin)");
  auto cluster = AddClusterFlags(cmd, files, /*init_state=*/false);
  cmd->add_flag("--watch", o->watch,
                "With --cluster: follow the Secrets as they change until SIGINT/SIGTERM");
  cmd->callback([o, cluster, outcome] {
    o->cluster = *cluster;
    if (!o->cluster.enabled) *outcome = InputIsUsable(o->files, "observe");
    if (outcome->ok()) *outcome = RunObserve(*o, std::cout, std::cerr);
  });
}

}  // namespace zs::tools
