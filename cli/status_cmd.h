// `zarf-state status [-f FILE|-] [--db DIR] [-o table|wide|json|yaml|name] [--now TIME] [-q]`: the
// derived status of each package in the input (docs/model.md section 1, "Derived status"):
// the latest event, or for a Secret without history the status it stores
// ("stored:Failed", an interrupted deploy), or Unknown; whether an operation
// is in progress and for how long ("InProgress for 6h12m": a hard kill leaves
// one behind, rule 10), the latest deploy and remove, the last successful
// deploy (version, digest, source, configDigest), and each component's
// lastEvent, stored status or Unknown. With --db each package's history is
// the cache's full history of it, observed events included.
#ifndef ZARF_STATE_CLI_STATUS_CMD_H_
#define ZARF_STATE_CLI_STATUS_CMD_H_

#include <ostream>
#include <string>
#include <vector>

#include "cli/command_status.h"
#include "cli/output.h"

namespace CLI {
class App;
}

namespace zs::tools {

struct StatusOptions {
  std::vector<std::string> files;
  OutputOptions output;  // table | wide | json | yaml | name
  std::string now;  // RFC 3339; default: the system clock
  bool quiet = false;  // -q: no notes on stderr (the CLI sets SetNotesQuiet)
  // The local cache: each package's history is the cache's full history of
  // it (engine/history_view.h); "" reads the Secrets' own events only.
  std::string db;
  // With `db`: report every package of the cache instead of `files`.
  bool from_cache = false;
};

CommandStatus RunStatus(const StatusOptions& options, std::ostream& out, std::ostream& err);
void RegisterStatus(CLI::App* app, CommandStatus* outcome);

}  // namespace zs::tools

#endif  // ZARF_STATE_CLI_STATUS_CMD_H_
