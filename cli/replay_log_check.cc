#include "cli/replay_log_check.h"

#include <cstdint>
#include <string>
#include <vector>

#include "cli/common.h"
#include "io/standard_output.h"
#include "base/terminal_text.h"
#include "json/json_value.h"

namespace zs::tools {

namespace {

// The lines under the summary row: what is wrong, then the torn append.
std::vector<std::string> LogCheckLines(const engine::LogCheck& c) {
  std::vector<std::string> lines;
  for (const engine::LogSkip& s : c.damaged) {
    lines.push_back("damaged: " + std::to_string(s.bytes) + " bytes at byte " + std::to_string(s.offset) +
                    ": " + s.reason);
  }
  for (const engine::LogFinding& f : c.findings) {
    lines.push_back("order: chunk at byte " + std::to_string(f.offset) + ": " + f.what);
  }
  return lines;
}

std::string TornLine(const engine::LogCheck& c) {
  return std::to_string(c.torn_bytes) + " bytes at byte " + std::to_string(c.torn_offset) +
         ": an append that did not complete (a kill, or the last chunk cut short); the next "
         "append removes them";
}

}  // namespace

CommandStatus RunLogCheck(const engine::FileEventLog& log, const OutputOptions& output,
                          std::ostream& out) {
  auto checked = log.Check();
  if (!checked.ok()) return checked.status();
  const engine::LogCheck& c = *checked;
  const std::vector<std::string> problems = LogCheckLines(c);
  if (output.structured()) {
    json::Value list = json::Value::MakeArray();
    for (const std::string& p : problems) list.array().push_back(json::Value::String(p));
    json::Value doc = json::Value::MakeObject(
        {{"ok", json::Value::Bool(c.ok())},
         {"log", json::Value::String(log.path())},
         {"chunks", json::Value::Int(static_cast<std::int64_t>(c.chunks))},
         {"records", json::Value::Int(static_cast<std::int64_t>(c.records))},
         {"checkpoints", json::Value::Int(static_cast<std::int64_t>(c.checkpoints))},
         {"packages", json::Value::Int(static_cast<std::int64_t>(c.packages.size()))},
         {"problems", std::move(list)},
         {"torn", c.torn_bytes == 0 ? json::Value::Null() : json::Value::String(TornLine(c))}});
    PrintStructured(doc, output.format, out);
  } else {
    Table table({{"LOG"}, {"CHUNKS"}, {"RECORDS"}, {"CHECKPOINTS"}, {"PACKAGES"}, {"PROBLEMS"}, {"RESULT"}});
    table.AddRow({log.path(), std::to_string(c.chunks), std::to_string(c.records), std::to_string(c.checkpoints),
                  std::to_string(c.packages.size()), std::to_string(problems.size()), c.ok() ? "ok" : "FAILED"});
    table.Print(output, out);
    for (const std::string& p : problems) out << "  " << TerminalText(p) << "\n";
    if (c.torn_bytes != 0) out << "  torn: " << TornLine(c) << "\n";
  }
  ZS_RETURN_IF_ERROR(FlushOutput(out, "standard output"));
  return CommandStatus::FailedIf(!c.ok());  // the problems are in the output
}

}  // namespace zs::tools
