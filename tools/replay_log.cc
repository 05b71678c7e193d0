#include "tools/replay_log.h"

#include <algorithm>
#include <optional>

#include "json/go_json.h"
#include "tools/common.h"
#include "tools/terminal_text.h"

namespace zs::tools {

Result<std::unique_ptr<engine::FileEventLog>> OpenLogForReading(const std::string& path,
                                                                std::size_t max_events) {
  engine::FileEventLogOptions options;
  options.read_only = true;
  options.fold.max_events = max_events;
  return engine::FileEventLog::Open(path, options);
}

void ReportSkipped(const engine::FileEventLog& log, std::ostream& err) {
  for (const engine::LogSkip& s : log.skipped()) {
    err << "warning: " << log.path() << ": skipped " << s.bytes << " bytes at byte " << s.offset
        << ": " << s.reason << "\n";
  }
  for (const engine::LogFinding& f : log.findings()) {
    err << "warning: " << log.path() << ": chunk at byte " << f.offset << ": " << f.what << "\n";
  }
}

Status DumpLog(const engine::FileEventLog& log, const std::string& package, std::ostream& out) {
  std::string line;
  return log.Scan([&](const engine::LogEntry& e) {
    if (e.checkpoint || (!package.empty() && e.package != package)) return Status::OK();
    line = "{\"package\":";
    json::AppendGoString(&line, e.package);
    line += ",\"record\":";
    line += engine::EncodeRecord(*e.record);
    line += "}\n";
    out << line;
    return Status::OK();
  });
}

Result<std::vector<CheckpointDrift>> VerifyCheckpoints(const engine::FileEventLog& log,
                                                     const std::string& package,
                                                     const std::vector<engine::Record>& records,
                                                     std::size_t* checked) {
  struct Checkpoint {
    std::uint64_t sequence, max_events;
    std::shared_ptr<const DeployedPackage> snapshot;
  };
  std::vector<Checkpoint> checkpoints;
  ZS_RETURN_IF_ERROR(log.Scan([&](const engine::LogEntry& e) {
    if (e.checkpoint && e.package == package) {
      checkpoints.push_back({e.sequence, e.max_events, e.record->base});
    }
    return Status::OK();
  }));
  std::stable_sort(checkpoints.begin(), checkpoints.end(), [](const Checkpoint& a, const Checkpoint& b) {
    return a.max_events != b.max_events ? a.max_events < b.max_events : a.sequence < b.sequence;
  });
  // One fold per event cap, advanced from checkpoint to checkpoint: the
  // whole check folds the history once.
  std::vector<CheckpointDrift> out;
  std::optional<engine::Folder> folder;
  std::size_t next = 0;
  for (std::size_t i = 0; i < checkpoints.size(); ++i) {
    const Checkpoint& c = checkpoints[i];
    if (i == 0 || c.max_events != checkpoints[i - 1].max_events) {
      folder.emplace(engine::FoldOptions{c.max_events});
      next = 0;
    }
    if (c.sequence > records.size()) {
      out.push_back({c.sequence, {"(history)", std::to_string(c.sequence) + " records",
                                  std::to_string(records.size()) + " records"}});
      continue;
    }
    for (; next < c.sequence; ++next) {
      Status s = folder->Apply(records[next]);
      if (!s.ok()) return s.WithContext("record " + std::to_string(next + 1));
    }
    for (engine::Drift& d : engine::CompareSnapshots(*c.snapshot, folder->snapshot())) {
      out.push_back({c.sequence, std::move(d)});
    }
  }
  *checked = checkpoints.size();
  return out;
}

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

int RunLogCheck(const engine::FileEventLog& log, const OutputOptions& output, std::ostream& out,
                std::ostream& err) {
  auto checked = log.Check();
  if (!checked.ok()) {
    err << "error: " << TerminalText(checked.status().message()) << "\n";
    return kExitSomeFailed;
  }
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
  if (Status s = FlushOutput(out, "standard output"); !s.ok()) {
    err << "error: " << TerminalText(s.message()) << "\n";
    return kExitSomeFailed;
  }
  return c.ok() ? kExitOk : kExitSomeFailed;
}

}  // namespace zs::tools
