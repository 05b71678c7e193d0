// `zarf-state size [-f FILE|-]... [-o table|wide|json|yaml|name] [--no-headers]`: how big each package's
// Secret is under each codec, against the API server's 1,048,576-byte limit.
//
// For every package: the bytes as Zarf JSON (codec `json`), as
// base64(gzip(JSON)) (the way Helm stores releases: a fair peer), and as the
// compact envelope (on request, or near the limit); the headroom left under each; and how many more events
// would fit before the limit if the history were not capped (measured by
// adding typical events and encoding, not estimated from averages).
// A Secret over 90% of the limit as stored gets a warning on stderr;
// --fail-above PCT makes one over PCT% an error (exit 1), as a CI gate. A
// failing run (a bad input, the gate) prints its errors and no table.
// One row per Secret: an override package's second Secret is a second row
// of the same package name, told apart by its SECRET column.
#ifndef ZARF_STATE_CLI_SIZE_CMD_H_
#define ZARF_STATE_CLI_SIZE_CMD_H_

#include <ostream>
#include <string>
#include <vector>

#include "cli/command_status.h"
#include "cli/output.h"

namespace CLI {
class App;
}

namespace zs::tools {

struct SizeOptions {
  std::vector<std::string> files;
  OutputOptions output;  // table | wide | json | yaml | name; --no-headers
  std::string now;       // RFC 3339: the time the LAST EVENT age is computed against; "" = now
  // Exit 1 when a Secret, as stored, is over this share of the limit (in
  // percent; 0: never). Every Secret over 90% is warned about regardless.
  double fail_above_percent = 0;
  // Measure the compact codec for every Secret. Without it, only for a
  // Secret stored compact or whose JSON is over 90% of the limit: zstd
  // level 19 costs milliseconds a Secret, minutes for a large List.
  bool compact = false;
  bool progress = false;  // a progress line on stderr (cli/progress.h)
  bool quiet = false;     // -q: the CLI sets no progress
};

CommandStatus RunSize(const SizeOptions& options, std::ostream& out, std::ostream& err);
void RegisterSize(CLI::App* app, CommandStatus* outcome);

}  // namespace zs::tools

#endif  // ZARF_STATE_CLI_SIZE_CMD_H_
