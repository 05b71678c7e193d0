// `zarf-state verify --db DIR [-o table|wide|json|yaml] [--no-headers] [-q]`:
// the consistency of the local cache (engine/cache.h, Cache::Verify): each
// package's log is folded and compared with its stored snapshot and status
// record, and every index entry is recomputed from the snapshots (missing
// and extra entries). Prints a summary row, then one line per problem;
// exits 1 when there is any. A progress line goes to stderr on a terminal.
#ifndef ZARF_STATE_CLI_VERIFY_CMD_H_
#define ZARF_STATE_CLI_VERIFY_CMD_H_

#include <ostream>
#include <string>

#include "cli/command_status.h"
#include "cli/output.h"

namespace CLI {
class App;
}

namespace zs::tools {

struct VerifyOptions {
  std::string db;  // required
  OutputOptions output;  // table | wide | json | yaml; --no-headers
  bool progress = false;  // a progress line on stderr (cli/progress.h)
  bool quiet = false;     // -q: the CLI sets no progress
};

CommandStatus RunVerify(const VerifyOptions& options, std::ostream& out, std::ostream& err);
void RegisterVerify(CLI::App* app, CommandStatus* outcome);

}  // namespace zs::tools

#endif  // ZARF_STATE_CLI_VERIFY_CMD_H_
