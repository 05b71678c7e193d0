// `--cluster`: the reading commands (inspect, status, size, migrate, ingest)
// take their input from the cluster instead of a file, by running the real
// `kubectl` (docs/kubectl-plugin.md). Nothing here writes to the cluster:
// writes stay explicit (`migrate --out FILE`, then `kubectl replace -f FILE`).
//
// kubectl is run in the namespace given (default `zarf`): `get secrets -l
// package-deploy-info` (Zarf's package Secrets), `get secrets -l
// zarf-state.dev/package-deploy-info` (compact ones, which carry that label
// instead) and, for the commands that read the init state (inspect,
// migrate), `get secret zarf-state --ignore-not-found`, each `-o json`, with --context and --kubeconfig passed on
// when given (otherwise kubectl's defaults: $KUBECONFIG, its current
// context). The Secrets are merged into one List, each once, in name
// order, which the command reads as it would read the same List from a file.
// It holds the init state's credentials: commands print them only as they
// would from a file (redacted unless asked).
//
// Thread safety: not thread-safe (ProvideInput is process-wide).
#ifndef ZARF_STATE_CLI_CLUSTER_INPUT_H_
#define ZARF_STATE_CLI_CLUSTER_INPUT_H_

#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "cli/command_status.h"

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace zs::tools {

struct ClusterOptions {
  bool enabled = false;             // --cluster
  std::string namespace_ = "zarf";  // -n, --namespace
  std::string context;              // --context; "" is the kubeconfig's current one
  std::string kubeconfig;           // --kubeconfig; "" is kubectl's default
  // Whether the command reads the init state (the `zarf-state` Secret, with
  // the cluster's credentials): set by the command, not a flag. Commands
  // that only read packages neither fetch nor need permission for it.
  bool init_state = true;
  // How long kubectl may take: passed as its --request-timeout, and twice
  // that is the wall-clock limit after which it is killed (a kubectl stuck
  // before or after its request). Not a flag; tests shorten it.
  int timeout_seconds = 30;
};

// What errors and reports call the input: "cluster (context C, namespace
// N)", "current context" when none is given.
std::string ClusterLabel(const ClusterOptions& options);

// The kubectl command lines FetchClusterSecrets runs, in order.
std::vector<std::vector<std::string>> KubectlCommands(const ClusterOptions& options);

// Merges kubectl's `-o json` outputs (a List, one object, or nothing for a
// Secret --ignore-not-found did not find) into one List of Secrets as
// kubectl prints one: each Secret (by namespace and name) once, in name
// order. Corruption naming `label` and the command's position for an
// output that is not such JSON.
Result<std::string> MergeKubectlOutputs(const std::vector<std::string>& outputs,
                                        const std::string& label);

// The kubeconfig kubectl reads: --kubeconfig when given, else $KUBECONFIG
// (as set, a list of files included), else $HOME/.kube/config.
std::string KubeconfigInUse(const ClusterOptions& options);

// Runs KubectlCommands and merges their outputs. NotFound when kubectl is
// not on PATH. The errors of a run name the cluster with the kubeconfig,
// "cluster (context C, namespace N, kubeconfig K)": IOError "<that>: kubectl ...
// failed (exit N): <its last meaningful stderr line>" (LastKubectlErrorLine,
// escaped for the terminal) when a run fails; InvalidArgument for more
// output than the read limit.
Result<std::string> FetchClusterSecrets(const ClusterOptions& options);

// Adds --cluster, -n/--namespace, --context and --kubeconfig to `cmd`;
// --cluster and `files` (its -f option) exclude each other, and the other
// three need --cluster. `init_state`: ClusterOptions::init_state. The
// options live as long as the returned pointer.
std::shared_ptr<ClusterOptions> AddClusterFlags(CLI::App* cmd, CLI::Option* files,
                                                bool init_state);

// For a command's callback: without --cluster, true and nothing done. With
// it, fetches the Secrets, provides them as input (ProvideInput) under
// ClusterLabel and makes `*files` name only that; false after printing the
// error (PrintError, cli/command_status.h) on `err` when that fails (the
// command then exits 1).
bool UseClusterInput(const ClusterOptions& options, std::vector<std::string>* files,
                     std::ostream& err);

// The input preamble of every reading command's callback: UseClusterInput,
// then InputIsUsable (cli/common.h) for `command`. OK when the command may
// run; FailureReported() when the cluster could not be read (printed on
// stderr); InputIsUsable's Usage status when the input would be a
// terminal's standard input or a directory.
CommandStatus PrepareCommandInput(const ClusterOptions& options, std::vector<std::string>* files,
                                  std::string_view command);

}  // namespace zs::tools

#endif  // ZARF_STATE_CLI_CLUSTER_INPUT_H_
