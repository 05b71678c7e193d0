// `zarf-state replay`: the timeline of a package's history and the snapshot
// after each step; time travel (--upto N records, --at TIME); --verify.
//
//   replay --log FILE [--package NAME] [-f SECRET]
//       Folds the record log: one line per record with the snapshot it leads
//       to (-o json: every snapshot in full). With -f and --verify, compares
//       the Secret with the fold of the whole log and prints the drift report.
//   replay -f SECRET
//       The Secret's own (capped) event history, with the derived status
//       after each event. --verify checks the Secret's invariants: events in
//       time order and within the cap, the v2 vocabulary, `configDigest`
//       equal to the newest successful deploy's, each component's `status`
//       consistent with its `lastEvent` (SPEC rules 2, 4, 6).
//
//   replay --db DIR PACKAGE
//       The package's full history from the local cache (engine/cache.h),
//       folded uncapped; --verify runs the cache's consistency check and
//       reports this package's problems.
//
// Exit 1 when --verify finds drift.
#ifndef ZARF_STATE_TOOLS_REPLAY_CMD_H_
#define ZARF_STATE_TOOLS_REPLAY_CMD_H_

#include <cstddef>
#include <ostream>
#include <string>

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
  std::size_t max_events = 10;
  std::string output = "table";
};

int RunReplay(const ReplayOptions& options, std::ostream& out, std::ostream& err);
void RegisterReplay(CLI::App* app, int* exit_code);

}  // namespace zs::tools

#endif  // ZARF_STATE_TOOLS_REPLAY_CMD_H_
