// The RocksDB implementation of EventLog (engine/event_log.h): a package's
// records live in the `log` family under Lp(package) + be64(seq), and the
// `ids` family maps Lp(package) + RecordId to the sequence number, which is
// what deduplicates appends. The cache's ingest stages the same keys into
// its own WriteBatch (StageLogRecord, StageRecordId) so that a Secret's
// records, snapshot and index entries commit together.
//
// Thread safety: not thread-safe (EventLog's contract); reads may run
// concurrently with each other.
#ifndef ZARF_STATE_ENGINE_INTERNAL_ROCKSDB_EVENT_LOG_H_
#define ZARF_STATE_ENGINE_INTERNAL_ROCKSDB_EVENT_LOG_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/event_log.h"
#include "engine/internal/cache_db.h"

namespace zs::engine::internal {

class RocksDbEventLog final : public EventLog {
 public:
  // `db` is borrowed and must outlive this log.
  explicit RocksDbEventLog(const CacheDb* db) : db_(db) {}

  Result<AppendResult> Append(std::string_view package, const Record& record) override;
  // A record that fails to decode is Corruption naming the package and its
  // sequence number; a skippable unknown kind is left out.
  Result<std::vector<Record>> Read(std::string_view package, std::uint64_t first = 1,
                                   std::uint64_t limit = UINT64_MAX) const override;
  Result<std::uint64_t> Size(std::string_view package) const override;
  Result<std::vector<std::string>> Packages() const override;

  // Read, keeping each record's sequence number.
  Status ReadWithSequence(std::string_view package,
                          std::vector<std::pair<std::uint64_t, Record>>* out) const;
  // The sequence number of the record with `record_id`, if logged.
  Result<std::optional<std::uint64_t>> FindId(std::string_view package,
                                              std::string_view record_id) const;
  // Add record `encoded` (EncodeRecord bytes, identity `record_id`) as
  // number `seq` of `package` to `batch`: its log entry and its identity.
  // Separate, so that a caller staging many records adds each family's keys
  // in key order.
  static void StageLogRecord(rocksdb::WriteBatch* batch, const CacheDb& db,
                             std::string_view package, std::uint64_t seq, std::string_view encoded);
  static void StageRecordId(rocksdb::WriteBatch* batch, const CacheDb& db,
                            std::string_view package, std::uint64_t seq,
                            std::string_view record_id);

 private:
  const CacheDb* db_;
};

}  // namespace zs::engine::internal

#endif  // ZARF_STATE_ENGINE_INTERNAL_ROCKSDB_EVENT_LOG_H_
