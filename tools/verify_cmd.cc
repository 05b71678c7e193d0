#include "tools/verify_cmd.h"

#include <CLI/CLI.hpp>

#include <iostream>

#include "json/go_json.h"
#include "engine/cache.h"
#include "tools/common.h"
#include "tools/terminal_text.h"

namespace zs::tools {

int RunVerify(const VerifyOptions& o, std::ostream& raw_out, std::ostream& err) {
  // Names and values come from Secrets: a table never passes their control
  // characters to the terminal.
  TableStream table(raw_out, o.output == "table");
  std::ostream& out = table.stream();
  if (o.output != "table" && o.output != "json" && o.output != "yaml") {
    err << "error: -o must be table, json or yaml\n";
    return kExitUsage;
  }
  auto cache = OpenCacheReadOnly(o.db);
  if (!cache.ok()) {
    err << "error: " << TerminalText(cache.status().message()) << "\n";
    return kExitSomeFailed;
  }
  auto report = (*cache)->Verify();
  if (!report.ok()) {
    err << "error: " << TerminalText(report.status().message()) << "\n";
    return kExitSomeFailed;
  }
  if (o.output != "table") {
    json::Value problems = json::Value::MakeArray();
    for (const std::string& p : report->problems) problems.array().push_back(json::Value::String(p));
    const json::Value v = json::Value::MakeObject(
        {{"ok", json::Value::Bool(report->ok())},
         {"packages", json::Value::Int(static_cast<std::int64_t>(report->packages))},
         {"records", json::Value::Int(static_cast<std::int64_t>(report->records))},
         {"indexEntries", json::Value::Int(static_cast<std::int64_t>(report->index_entries))},
         {"problems", std::move(problems)}});
    PrintDocument(v, o.output, out);
  } else {
    out << "verify: " << o.db << ": " << report->packages << " packages, " << report->records
        << " records, " << report->index_entries << " index entries: "
        << (report->ok() ? "ok" : std::to_string(report->problems.size()) + " problem(s)") << "\n";
    for (const std::string& p : report->problems) out << "  " << TerminalText(p) << "\n";
  }
  if (Status s = FlushOutput(out, "standard output"); !s.ok()) {
    err << "error: " << TerminalText(s.message()) << "\n";
    return kExitSomeFailed;
  }
  return report->ok() ? kExitOk : kExitSomeFailed;
}

void RegisterVerify(CLI::App* app, int* exit_code) {
  auto o = std::make_shared<VerifyOptions>();
  CLI::App* cmd = app->add_subcommand("verify", "Check the local cache's consistency");
  AddCacheDirOption(cmd, &o->db, "The cache directory");
  AddOutputOption(cmd, &o->output, {"table", "json", "yaml"});
  cmd->callback([o, exit_code] { *exit_code = RunVerify(*o, std::cout, std::cerr); });
}

}  // namespace zs::tools
