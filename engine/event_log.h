// EventLog: the append-only, per-package sequence of Records that is the
// engine's source of truth (docs/model.md section 2).
//
// Appends are deduplicated by record identity (RecordId): appending a record
// the log already holds changes nothing and reports the existing sequence
// number, which is what makes re-reading the same Secret or log file
// idempotent. Sequence numbers start at 1 per package and never repeat.
//
// Two implementations: in memory (tests, replay of one Secret or log file;
// NewMemoryEventLog) and RocksDB (the cache; see the cache issue).
//
// Thread safety: implementations are not thread-safe; callers serialise
// access to one EventLog.
#ifndef ZARF_STATE_ENGINE_EVENT_LOG_H_
#define ZARF_STATE_ENGINE_EVENT_LOG_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "engine/record.h"

namespace zs::engine {

struct AppendResult {
  std::uint64_t sequence = 0;  // the record's sequence number in its package
  bool appended = false;       // false: an identical record was already there
};

class EventLog {
 public:
  virtual ~EventLog() = default;

  // Appends `record` to `package`'s log unless a record with the same
  // identity is already in it. Errors are the implementation's (IOError).
  virtual Result<AppendResult> Append(std::string_view package, const Record& record) = 0;

  // Records of `package` with sequence numbers in [first, first + limit), in
  // order. An unknown package reads as empty.
  virtual Result<std::vector<Record>> Read(std::string_view package, std::uint64_t first = 1,
                                           std::uint64_t limit = UINT64_MAX) const = 0;

  // Number of records of `package`.
  virtual Result<std::uint64_t> Size(std::string_view package) const = 0;

  // Every package with at least one record, sorted.
  virtual Result<std::vector<std::string>> Packages() const = 0;
};

std::unique_ptr<EventLog> NewMemoryEventLog();

}  // namespace zs::engine

#endif  // ZARF_STATE_ENGINE_EVENT_LOG_H_
