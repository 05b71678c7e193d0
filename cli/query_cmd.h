// `zarf-state query --db DIR WHAT ...`: answers from the local cache
// (engine/cache.h), without touching the cluster, printed through
// cli/output.h (`-o table|wide|json|yaml|name`; the documents are stable,
// documented in docs/cli.md):
//
//   history PACKAGE [--type T] [--outcome O] [--since TIME] [--until TIME]
//           [--no-components]        every event the cache has seen, in order
//   status [PACKAGE] [--outcome O]   latest outcome, in progress since when
//   image REF [--repository]         packages whose definition lists the image
//                                    (normalised; any tag with --repository)
//   component NAME                   packages with that deployed component
//   source URL                       packages deployed from that source
//   config-changed PACKAGE -f CONFIG whether a candidate DeployConfig differs
//                                    from the last successful deploy's
//                                    (digest compare, then `config diff`)
//
// Exit 1 when the package asked about is not in the cache; 2 for usage
// errors. Sources are printed with credentials scrubbed.
#ifndef ZARF_STATE_CLI_QUERY_CMD_H_
#define ZARF_STATE_CLI_QUERY_CMD_H_

#include <ostream>
#include <string>

#include "cli/command_status.h"
#include "cli/output.h"

namespace CLI {
class App;
}

namespace zs::tools {

struct QueryOptions {
  std::string db;      // required
  std::string what;    // history | status | image | component | source | config-changed
  std::string arg;     // the package, image, component or source
  std::string type;    // history: Deploy | Remove
  std::string outcome; // history, status: Succeeded | Failed | InProgress | Cancelled | Unknown
  std::string since, until;  // history: RFC 3339, inclusive
  bool no_components = false;  // history: package events only
  bool by_repository = false;  // image
  std::string config;          // config-changed: the candidate DeployConfig
  bool exit_code = false;      // config-changed: exit 1 when changed (or unknown), as git diff
  OutputOptions output;  // table | wide | json | yaml | name (history: no name; config-changed: table | json | yaml)
  std::string now;  // RFC 3339 for ages; default: the system clock
};

CommandStatus RunQuery(const QueryOptions& options, std::ostream& out, std::ostream& err);
void RegisterQuery(CLI::App* app, CommandStatus* outcome);

}  // namespace zs::tools

#endif  // ZARF_STATE_CLI_QUERY_CMD_H_
