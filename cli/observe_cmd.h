// `zarf-state observe`: the ZEP-0026 history of a Zarf v0.84 cluster,
// derived from the writes Zarf makes to its package Secrets
// (engine/observe.h, cli/observer.h, docs/keep-history.md).
//
//   observe -f SNAPSHOT... [--db DIR]
//       snapshots in time order: namespace dumps (`kubectl get secrets -n
//       zarf -l package-deploy-info -o json`) or single Secrets; a package
//       a later dump lacks was deleted.
//   observe --cluster [-n NS] [--context C] [--kubeconfig F] [--db DIR]
//       one list of the namespace, diffed against the cache (a poll).
//   observe --cluster ... --watch
//       lists, then follows `kubectl get secrets -l package-deploy-info
//       --watch --output-watch-events -o json`, each ADDED, MODIFIED and
//       DELETED as it arrives; when kubectl ends (a dropped connection, 410
//       Gone) lists again and diffs against the cache. SIGINT or SIGTERM
//       stop it; every line it printed is durable.
//
// One line per derived event on stdout, once durable; errors name the
// object and leave everything else observed. Exit 1 when an object failed.
#ifndef ZARF_STATE_CLI_OBSERVE_CMD_H_
#define ZARF_STATE_CLI_OBSERVE_CMD_H_

#include <ostream>
#include <string>
#include <vector>

#include "cli/cluster_input.h"
#include "cli/command_status.h"

namespace CLI {
class App;
}

namespace zs::tools {

struct ObserveCmdOptions {
  std::string db;
  std::vector<std::string> files;
  ClusterOptions cluster;
  bool watch = false;
  // Seconds between two lists when kubectl keeps failing (doubling up to
  // 60). Default: 2.
  int retry_seconds = 2;
};

CommandStatus RunObserve(const ObserveCmdOptions& options, std::ostream& out, std::ostream& err);
void RegisterObserve(CLI::App* app, CommandStatus* outcome);

}  // namespace zs::tools

#endif  // ZARF_STATE_CLI_OBSERVE_CMD_H_
