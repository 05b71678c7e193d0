// `zarf-state replay`: the timeline of a package's history and the snapshot
// after each step; time travel (--upto N records, --at TIME); --verify.
//
//   replay --log FILE [--package NAME] [-f SECRET]
//       Folds the record log: one table row per record with the state it
//       leads to (-o json|yaml: every snapshot in full; a step after which
//       the Secret is deleted says so). With -f and --verify, compares the Secret with
//       the fold of the whole log and prints the drift report, plus every
//       operation of the log begun while another was InProgress, plus each
//       checkpoint of the log that differs from the fold before it.
//       --dump prints the log's records as JSON Lines instead.
//   replay -f SECRET
//       The Secret's own (capped) event history, with the state after each
//       event as far as the Secret records it: a component appears once its
//       lastEvent (by timestamp) was recorded; a component touched later and
//       the generation are shown as unknown ("?"; -o json: "unknown") for
//       steps before the last. --verify checks the Secret's invariants:
//       events within the cap, the v2 vocabulary, no operation begun while
//       another was InProgress, `configDigest` equal to the last successful
//       deploy's, each component's `status` consistent with its `lastEvent`
//       (docs/model.md rules 2, 4, 6, 12). Timestamps need not increase: a clock
//       going backwards is recorded as it is.
//
//   replay --db DIR PACKAGE
//       The package's full history from the local cache (engine/cache.h),
//       folded uncapped; --verify runs the cache's consistency check and
//       reports this package's problems.
//
// With -o json|yaml, stdout is one document: the timeline (an array of
// steps), or with --verify {"timeline": [...], "verify": {...}}
// (ReplayVerification::ToDocument); nothing when the check cannot run.
// --dump takes no -o. Exit 1 when --verify finds drift.
//
// Each step is printed as the fold reaches it (cli/replay_timeline.h), so
// the memory is one snapshot's whatever the history's length: the history
// is folded once to check it and measure the table, then again to print,
// and a history that does not fold prints nothing. --verify (and --db)
// read the whole history at once for the check.
#ifndef ZARF_STATE_CLI_REPLAY_CMD_H_
#define ZARF_STATE_CLI_REPLAY_CMD_H_

#include <cstddef>
#include <ostream>
#include <string>

#include "cli/command_status.h"
#include "cli/output.h"

namespace CLI {
class App;
}

namespace zs::tools {

struct ReplayOptions {
  std::string secret_path;
  std::string log_path;
  std::string package;
  std::string db;          // the local cache; the package is `package`
  std::string at;          // RFC 3339: stop after the last record at or before
  std::size_t upto = 0;    // stop after this many records (0: all)
  bool verify = false;
  bool dump = false;       // with --log: print the records as JSON Lines
  bool show_secrets = false;  // with --dump: credentials as stored
  std::size_t max_events = 10;
  OutputOptions output;  // table | wide | json | yaml (not --dump: JSON Lines)
};

CommandStatus RunReplay(const ReplayOptions& options, std::ostream& out, std::ostream& err);
void RegisterReplay(CLI::App* app, CommandStatus* outcome);

}  // namespace zs::tools

#endif  // ZARF_STATE_CLI_REPLAY_CMD_H_
