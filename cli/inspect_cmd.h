// `zarf-state inspect`: what each state object in the input says.
//
// For each package (a Secret, a List item, or a bare DeployedPackage JSON):
// name, version, Secret size and headroom under the API server's limit, the
// latest event (or Unknown for legacy state) and its age, and each
// component's status, lastEvent and charts; one table row each (-o wide for
// the details), or one document each (-o json|yaml, docs/cli.md). For
// the `zarf-state` Secret: the init state with every credential redacted
// unless show_secrets. Bad objects get one error line each on `err`; the good
// ones are still printed. Printed through cli/output.h.
#ifndef ZARF_STATE_CLI_INSPECT_CMD_H_
#define ZARF_STATE_CLI_INSPECT_CMD_H_

#include <ostream>
#include <string>
#include <vector>

#include "cli/command_status.h"
#include "cli/output.h"

namespace CLI {
class App;
}

namespace zs::tools {

struct InspectOptions {
  std::vector<std::string> files;  // "-" is standard input; default {"-"}
  OutputOptions output;            // table | wide | json | yaml | name
  std::string now;                 // RFC 3339 for ages; default: the system clock
  bool show_secrets = false;
  bool quiet = false;  // -q: no notes on stderr (the CLI sets SetNotesQuiet)
};

// OK; FailureReported() when some object or file failed (each printed on
// `err`); a Usage status for bad flags.
CommandStatus RunInspect(const InspectOptions& options, std::ostream& out, std::ostream& err);

// Adds the subcommand to `app`; its callback stores the outcome.
void RegisterInspect(CLI::App* app, CommandStatus* outcome);

}  // namespace zs::tools

#endif  // ZARF_STATE_CLI_INSPECT_CMD_H_
