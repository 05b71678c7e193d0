// `zarf-state migrate`: brings every state object of the input to a target
// shape (v2 by default) and writes the same kind of document back: a bare
// payload as a bare payload, a Secret as a Secret (metadata kept, notably
// resourceVersion, so `kubectl replace` refuses a stale write), a List as a
// List. Objects that fail are reported with their name and reason and left
// out of the output; the rest still migrate, and the exit code is 1.
#ifndef ZARF_STATE_CLI_MIGRATE_CMD_H_
#define ZARF_STATE_CLI_MIGRATE_CMD_H_

#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

#include "cli/command_status.h"

namespace CLI {
class App;
}

namespace zs::tools {

struct MigrateOptions {
  std::vector<std::string> files;  // "-" is standard input; default {"-"}
  std::string to = "v2";           // v2 | legacy | P1..P10 | S1..S14 | a Zarf tag
  bool dry_run = false;            // write no manifests, only the report (to `out`)
  // The manifests' format: json | yaml ("" = json). Checked with --dry-run
  // too, which writes none.
  std::string output;
  // The report's format, with --dry-run too: table | json | yaml.
  std::string report_format = "table";
  bool no_headers = false;              // the report's table without its header row
  std::string report_file;              // write the report here instead of stderr
  std::string out_file;                 // write the manifests here (atomically, 0600)
  // json | compact | auto, for package Secrets. "" = auto for --to v2 (as
  // `record` writes), json for a legacy target (no Zarf release reads compact).
  std::string codec;
  bool progress = false;  // a progress line on stderr (cli/progress.h)
  bool quiet = false;     // -q: the CLI sets no progress
};

// Returns OK; FailureReported() when an object or file failed (the report
// says which); a Usage status for bad flags; the Status of a write that
// failed. Manifests go to `out` (or out_file), the report to `err` (or
// report_file; `out` with dry_run).
CommandStatus RunMigrate(const MigrateOptions& options, std::ostream& out, std::ostream& err);

void RegisterMigrate(CLI::App* app, CommandStatus* outcome);

}  // namespace zs::tools

#endif  // ZARF_STATE_CLI_MIGRATE_CMD_H_
