#include "cli/verify_cmd.h"

#include <CLI/CLI.hpp>

#include <iostream>

#include "engine/cache.h"
#include "cli/common.h"
#include "io/standard_output.h"
#include "cli/progress.h"
#include "base/terminal_text.h"

namespace zs::tools {
namespace {

using json::Value;

const std::vector<std::string> kVerifyFormats = {"table", "wide", "json", "yaml"};

// What verify found, as it is printed: the cache checked and its report.
struct VerifyResult {
  std::string db;
  engine::VerifyReport report;

  Value ToDocument() const {
    Value problems = Value::MakeArray();
    for (const std::string& p : report.problems) problems.array().push_back(Value::String(p));
    return Value::MakeObject(
        {{"ok", Value::Bool(report.ok())},
         {"packages", Value::Int(static_cast<std::int64_t>(report.packages))},
         {"records", Value::Int(static_cast<std::int64_t>(report.records))},
         {"indexEntries", Value::Int(static_cast<std::int64_t>(report.index_entries))},
         {"problems", std::move(problems)}});
  }

  // One row for the cache, then one indented line per problem: the
  // problems are the point of the command, so --no-headers keeps them.
  void PrintTable(const OutputOptions& output, std::ostream& out) const {
    Table table({{"CACHE"}, {"PACKAGES"}, {"RECORDS"}, {"INDEX ENTRIES"}, {"PROBLEMS"},
                 {"RESULT"}});
    table.AddRow({db, std::to_string(report.packages), std::to_string(report.records),
                  std::to_string(report.index_entries), std::to_string(report.problems.size()),
                  report.ok() ? "ok" : "FAILED"});
    table.Print(output, out);
    for (const std::string& p : report.problems) out << "  " << TerminalText(p) << "\n";
  }
};

}  // namespace

CommandStatus RunVerify(const VerifyOptions& o, std::ostream& out, std::ostream& err) {
  ZS_RETURN_IF_ERROR(CheckOutputFormat(o.output, kVerifyFormats));
  auto cache = OpenCacheReadOnly(o.db);
  if (!cache.ok()) return cache.status();
  // A big cache takes seconds: a progress line on a terminal (cli/progress.h).
  Progress progress(err, "verify " + o.db, o.progress);
  auto report = (*cache)->Verify([&](std::string_view stage, std::uint64_t done) {
    if (stage == "packages") {
      progress.Update(done, "packages checked");
    } else {
      progress.Update(done, "indexes checked", 4);
    }
  });
  progress.Finish();
  if (!report.ok()) return report.status();
  const VerifyResult result{o.db, std::move(*report)};
  if (o.output.structured()) {
    PrintStructured(result.ToDocument(), o.output.format, out);
  } else {
    result.PrintTable(o.output, out);
  }
  ZS_RETURN_IF_ERROR(FlushOutput(out, "standard output"));
  // The problems are in the table: a failure with no error line.
  return CommandStatus::FailedIf(!result.report.ok());
}

void RegisterVerify(CLI::App* app, CommandStatus* outcome) {
  auto o = std::make_shared<VerifyOptions>();
  CLI::App* cmd = app->add_subcommand("verify", "Check the local cache's consistency");
  AddCacheDirOption(cmd, &o->db, "The cache directory");
  AddOutputOptions(cmd, &o->output, kVerifyFormats);
  AddQuietFlag(cmd, &o->quiet);
  cmd->callback([o, outcome] {
    o->progress = ProgressWanted(o->quiet);
    *outcome = RunVerify(*o, std::cout, std::cerr);
  });
}

}  // namespace zs::tools
