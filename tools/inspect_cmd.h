// `zarf-state inspect`: what each state object in the input says.
//
// For each package (a Secret, a List item, or a bare DeployedPackage JSON):
// name, version, Secret size and headroom under the API server's limit, the
// latest event (or Unknown for legacy state), and each component's status,
// lastEvent and charts. For the `zarf-state` Secret: the init state with
// every credential redacted unless show_secrets. Bad objects get one error
// line each on `err`; the good ones are still printed.
#ifndef ZARF_STATE_TOOLS_INSPECT_CMD_H_
#define ZARF_STATE_TOOLS_INSPECT_CMD_H_

#include <ostream>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace zs::tools {

struct InspectOptions {
  std::vector<std::string> files;  // "-" is standard input; default {"-"}
  std::string output = "table";    // table | json | yaml
  bool show_secrets = false;
};

// Returns kExitOk, kExitSomeFailed (some object or file failed) or kExitUsage.
int RunInspect(const InspectOptions& options, std::ostream& out, std::ostream& err);

// Adds the subcommand to `app`; its callback stores the exit code.
void RegisterInspect(CLI::App* app, int* exit_code);

}  // namespace zs::tools

#endif  // ZARF_STATE_TOOLS_INSPECT_CMD_H_
