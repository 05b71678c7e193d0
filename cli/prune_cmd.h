// `zarf-state prune plan`: what Zarf's `--prune` (ZEP-0026, docs/model.md section 6)
// would remove, planned from files (or, with --cluster, from what kubectl
// reads) and printed for confirmation. It never writes to a cluster, never
// contacts a registry and deletes nothing.
//
//   zarf-state prune plan --deployed SECRET --new PACKAGE [--others LIST]...
//   zarf-state prune plan --deployed SECRET --remove [--others LIST]...
//       [--unreadable WHAT]... [--no-others] [--registry HOST] [--package NAME]
//       [--cluster [-n NS] [--context CTX] [--kubeconfig FILE]]
//       [-o table|wide|json|yaml] [--no-headers]
//
// --deployed is the package's Secret (or bare DeployedPackage JSON) as
// `kubectl get -o json|yaml` prints it; --new a ZarfPackage definition (JSON
// or YAML, as `zarf package inspect` shows it) or a package Secret; --others
// the other deployed package Secrets (a List; the deployed package itself may
// be in it and is skipped). An --others object that cannot be decoded counts
// as unreadable. Image pruning is refused (exit 1, the rest still printed)
// when anything is unreadable, or when neither --others nor --no-others says
// what else is deployed.
//
// Thread safety: not thread-safe (see cli/common.h).
#ifndef ZARF_STATE_CLI_PRUNE_CMD_H_
#define ZARF_STATE_CLI_PRUNE_CMD_H_

#include <ostream>
#include <string>
#include <vector>

#include "cli/command_status.h"
#include "cli/output.h"

namespace CLI {
class App;
}

namespace zs::tools {

struct PrunePlanOptions {
  std::string deployed;     // required
  std::string new_package;  // exactly one of new_package, remove
  bool remove = false;
  std::vector<std::string> others;      // files; default none
  bool no_others = false;               // assert there is no other package
  std::string db;                       // the local cache: every package in it
                                        // not marked removed is an "other"
  std::vector<std::string> unreadable;  // "secret NS/NAME", "namespace NS"
  std::string registry;  // "": the init state's in --others, else references without host
  std::string package;   // pick this package (or Secret) when --deployed holds several
  OutputOptions output;                 // table | wide | json | yaml; --no-headers
};

// Prints the plan on `out`. Returns OK; a Usage status for bad flags; the
// Status of --deployed or --new when it could not be read (no plan);
// FailureReported() when another input could not be read or image pruning
// was refused (each said on `err`, the plan printed).
CommandStatus RunPrunePlan(const PrunePlanOptions& options, std::ostream& out,
                           std::ostream& err);

// Adds `prune plan` to `app`; the outcome goes to *outcome.
void RegisterPrune(CLI::App* app, CommandStatus* outcome);

}  // namespace zs::tools

#endif  // ZARF_STATE_CLI_PRUNE_CMD_H_
