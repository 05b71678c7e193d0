#include "cli/report_cmd.h"

#include <CLI/CLI.hpp>

#include <iostream>
#include <memory>

#include "cli/cluster_input.h"
#include "cli/common.h"
#include "io/standard_output.h"
#include "cli/progress.h"
#include "cli/report_inputs.h"
#include "report/report_page.h"
#include "io/state_file.h"

namespace zs::tools {

CommandStatus RunReport(const ReportOptions& o, std::ostream& out, std::ostream& err) {
  if (o.out.empty()) return Status::Usage("--out FILE is required (the HTML page to write)");
  auto now = ParseNow(o.now);
  if (!now.ok()) return Status::Usage(now.status().message());
  ReportData data;
  data.generated_at = FormatRfc3339(*now);
  bool failed = CollectObjects(o.files.empty() ? std::vector<std::string>{"-"} : o.files, *now, err,
                               &data);
  // An optional input that cannot be read is said on stderr.
  auto optional = [&](const char* flag, const std::string& value, Status s) {
    if (s.ok()) return;
    failed = true;
    PrintError(err, std::string(flag) + " " + value + ": " + std::string(s.message()));
    data.warnings.push_back({std::string(flag) + " " + value, std::string(s.message())});
  };
  if (!o.db.empty()) optional("--db", o.db, AddCacheHistory(o.db, &data));
  if (!o.migrate_report.empty()) {
    optional("--migrate-report", o.migrate_report, LoadMigrationReport(o.migrate_report, &data));
  }
  if (!o.prune_plan.empty()) optional("--prune-plan", o.prune_plan, LoadPrunePlan(o.prune_plan, &data));
  if (!o.growth_dir.empty()) optional("--growth", o.growth_dir, LoadGrowth(o.growth_dir, &data));

  // A failing run writes no page: it would read as the state of every input.
  if (failed) return CommandStatus::FailureReported();
  const std::string page = RenderReportPage(data);
  if (o.out == "-") {  // the page itself on standard output
    out << page;
    ZS_RETURN_IF_ERROR(FlushOutput(out, "standard output"));
    return Status::OK();
  }
  ZS_RETURN_IF_ERROR(WriteOutputFile(o.out, page));
  out << o.out << "\n";
  return Status::OK();
}

void RegisterReport(CLI::App* app, CommandStatus* outcome) {
  auto o = std::make_shared<ReportOptions>();
  CLI::App* cmd = app->add_subcommand(
      "report", "Write one self-contained HTML page of the packages' state (works offline)");
  CLI::Option* files =
      cmd->add_option("-f,--filename", o->files, "Input file(s) of Secrets; '-' for stdin")
          ->default_val(std::vector<std::string>{"-"});
  cmd->add_option("--db", o->db, "Cache directory: full event histories and drift");
  cmd->add_option("--migrate-report", o->migrate_report, "JSON of `migrate --report-format json`");
  cmd->add_option("--prune-plan", o->prune_plan, "JSON of `prune plan -o json`");
  cmd->add_option("--growth", o->growth_dir, "Directory written by `bench growth --out`");
  cmd->add_option("--now", o->now, "Compute ages as of this RFC 3339 time");
  AddQuietFlag(cmd, &o->quiet);
  cmd->add_option("--out", o->out, "The HTML file to write ('-': standard output)")->required();
  // The init state: read too (shown as a summary, never its credentials).
  auto cluster = AddClusterFlags(cmd, files, /*init_state=*/true);
  cmd->callback([o, cluster, outcome] {
    *outcome = PrepareCommandInput(*cluster, &o->files, "report");
    if (outcome->ok()) *outcome = RunReport(*o, std::cout, std::cerr);
  });
}

}  // namespace zs::tools
