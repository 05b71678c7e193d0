// How `zarf-state report` reads its inputs into the page's data
// (report/report_data.h): the package and init-state Secrets of the files,
// the cache's history, and the files other commands wrote (a migration
// report, a prune plan, growth curves).
//
// Thread safety: functions over their arguments; CollectObjects reads
// standard input when a file is "-".
#ifndef ZARF_STATE_CLI_REPORT_INPUTS_H_
#define ZARF_STATE_CLI_REPORT_INPUTS_H_

#include <ostream>
#include <string>
#include <vector>

#include "base/status.h"
#include "model/timestamp.h"
#include "report/report_data.h"

namespace zs::tools {

// Reads every object of `files` ("-": stdin) into `data`. A file or object
// that cannot be read prints one "error: ..." line on `err` naming it (as
// every command does) and becomes a warning in the page too; the others are
// still read. Packages come SortByUse (report/report_data.h). Returns whether anything failed.
bool CollectObjects(const std::vector<std::string>& files, const Timestamp& now,
                    std::ostream& err, ReportData* data);

// Replaces each package's timeline with the cache's full history of it and
// warns about drift: a package whose cached snapshot differs from the
// Secret read. IOError/NotFound/Corruption from opening `db`.
Status AddCacheHistory(const std::string& db, ReportData* data);

// The JSON report of `migrate --report-format json` (or `--dry-run -o
// json`), or the plan of `prune plan -o json`. InvalidArgument naming the
// file when it is not one.
Status LoadMigrationReport(const std::string& path, ReportData* data);
Status LoadPrunePlan(const std::string& path, ReportData* data);

// The curves of `bench growth --out DIR`, redrawn from its CSVs.
// NotFound naming the directory when it holds neither CSV; InvalidArgument
// naming the file and line for a malformed row.
Status LoadGrowth(const std::string& dir, ReportData* data);

}  // namespace zs::tools

#endif  // ZARF_STATE_CLI_REPORT_INPUTS_H_
