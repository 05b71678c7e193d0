#include "engine/replay_log.h"

#include <algorithm>
#include <optional>

#include "json/go_json.h"
#include "engine/record_display.h"

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

Status DumpLog(const engine::FileEventLog& log, const std::string& package, std::ostream& out,
               bool show_secrets) {
  // Two passes: the first reads and renders every record (each chunk within
  // the memory budget) and prints nothing, so that a chunk that fails late
  // leaves stdout empty, not holding the records before it.
  std::string line;
  auto render = [&](std::ostream* to) {
    return log.Scan([&](const engine::LogEntry& e) {
      if (e.checkpoint || (!package.empty() && e.package != package)) return Status::OK();
      line = "{\"package\":";
      json::AppendGoString(&line, e.package);
      line += ",\"record\":";
      ZS_ASSIGN_OR_RETURN(std::string record, RecordForDisplay(*e.record, show_secrets));
      line += record;
      line += "}\n";
      if (to != nullptr) *to << line;
      return Status::OK();
    });
  };
  ZS_RETURN_IF_ERROR(render(nullptr));
  return render(&out);
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

}  // namespace zs::tools
