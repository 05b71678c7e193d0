// What `zarf-state replay` does with a record log (engine/file_event_log.h)
// beyond folding it: reading it read-only with what was skipped said,
// --dump (the records as JSON Lines), and the checkpoint check of --verify.
//
// Thread safety: functions are reentrant.
#ifndef ZARF_STATE_ENGINE_REPLAY_LOG_H_
#define ZARF_STATE_ENGINE_REPLAY_LOG_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "base/status.h"
#include "engine/file_event_log.h"
#include "engine/fold.h"

namespace zs::tools {

// The log at `path` opened read-only, read with the event cap `max_events`.
Result<std::unique_ptr<engine::FileEventLog>> OpenLogForReading(const std::string& path,
                                                                std::size_t max_events);

// One "warning: ..." line on `err` per region the last read of `log`
// skipped (a damaged chunk), naming the file, offset, length and reason,
// and per finding about the order of its chunks (a chunk deleted, repeated
// or moved), naming the chunk's offset.
void ReportSkipped(const engine::FileEventLog& log, std::ostream& err);

// Prints every record of `log` (of `package` only, unless it is empty) as
// one {"package":..,"record":..} line, the form earlier releases wrote,
// which any reader of a record log accepts; credentials hidden as
// RecordForDisplay does unless `show_secrets` (then a faithful copy).
// The log is read twice, the first time without printing: an error (a
// damaged chunk, one over the memory budget) prints nothing at all.
Status DumpLog(const engine::FileEventLog& log, const std::string& package, std::ostream& out,
               bool show_secrets = false);

// One difference between a checkpoint of the log and the fold of the
// records before it.
struct CheckpointDrift {
  std::uint64_t after_record = 0;  // the checkpoint follows this many records
  engine::Drift drift;             // drift.path within the snapshot, or "(history)"

  // The path as the text report prints it: "(checkpoint after record N) PATH".
  std::string Path() const {
    return "(checkpoint after record " + std::to_string(after_record) + ") " + drift.path;
  }
};

// Every checkpoint of `package` compared with the fold of the records
// before it (`records`, the package's full history): the differences, in
// checkpoint order. "(history)" reports a checkpoint after more records
// than the history holds. `*checked` receives how many checkpoints were
// compared.
Result<std::vector<CheckpointDrift>> VerifyCheckpoints(const engine::FileEventLog& log,
                                                     const std::string& package,
                                                     const std::vector<engine::Record>& records,
                                                     std::size_t* checked);

}  // namespace zs::tools

#endif  // ZARF_STATE_ENGINE_REPLAY_LOG_H_
