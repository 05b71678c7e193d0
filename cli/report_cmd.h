// `zarf-state report`: one self-contained HTML page of a cluster's package
// state (report/report_page.h has what is on it).
//
//   zarf-state report [-f FILE|-]... [--db DIR] [--migrate-report FILE]
//       [--prune-plan FILE] [--growth DIR] [--now RFC3339] --out report.html
//
// Reads package Secrets and the init state as `inspect` does (single
// objects, Lists, bare payloads); with --db the timelines are the cache's
// full histories and drift from the cache is a warning; --migrate-report
// takes `migrate --report-format json` output, --prune-plan `prune plan -o
// json` output, --growth a `bench growth --out` directory. The page never
// holds a credential: the init state is a summary of non-credential fields.
// Written atomically, as every output file is (io/state_file.h).
#ifndef ZARF_STATE_CLI_REPORT_CMD_H_
#define ZARF_STATE_CLI_REPORT_CMD_H_

#include <ostream>
#include <string>
#include <vector>

#include "cli/command_status.h"

namespace CLI {
class App;
}

namespace zs::tools {

struct ReportOptions {
  std::vector<std::string> files;  // "-" is standard input; default {"-"}
  std::string db;                  // a cache directory, or "" for none
  std::string migrate_report;      // a file, or ""
  std::string prune_plan;          // a file, or ""
  std::string growth_dir;          // a directory, or ""
  std::string now;                 // RFC 3339, or "" for the clock
  std::string out;                 // required: the HTML file to write; "-" is stdout
  bool quiet = false;              // -q: no notes on stderr (the CLI sets SetNotesQuiet)
};

// Writes the page to options.out and prints its path on `out`. Returns
// OK; FailureReported() when an object or an optional input could not be
// read (the page is still written, the problem shown in it, and one error
// line on `err` names it); the Status when the file cannot be written; a
// Usage status for bad flags.
CommandStatus RunReport(const ReportOptions& options, std::ostream& out, std::ostream& err);

// Adds the subcommand to `app`; its callback stores the outcome.
void RegisterReport(CLI::App* app, CommandStatus* outcome);

}  // namespace zs::tools

#endif  // ZARF_STATE_CLI_REPORT_CMD_H_
