// The Cache implementation (engine/cache.h). Its member functions are split
// by concern: cache.cc (open, ingest, removal marks), cache_query.cc
// (status, index lookups, history) and cache_verify.cc (Verify).
//
// Thread safety: as Cache.
#ifndef ZARF_STATE_ENGINE_INTERNAL_CACHE_IMPL_H_
#define ZARF_STATE_ENGINE_INTERNAL_CACHE_IMPL_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/cache.h"
#include "engine/internal/cache_db.h"
#include "engine/internal/cache_format.h"
#include "engine/internal/rocksdb_event_log.h"

namespace zs::engine::internal {

// How far past this machine's clock an event may be dated and still count
// as a time (clocks of a cluster and of this machine disagree a little).
inline constexpr std::int64_t kFutureSkewSeconds = 24 * 60 * 60;

// `t`, or nullopt when there is none or it lies more than kFutureSkewSeconds
// after `now`: a future-dated event orders nothing.
std::optional<Timestamp> SaneTime(const std::optional<Timestamp>& t, const Timestamp& now);

class CacheImpl final : public Cache {
 public:
  explicit CacheImpl(std::unique_ptr<CacheDb> db) : db_(std::move(db)), log_(db_.get()) {}

  Result<IngestResult> Ingest(const IngestSource& source) override;
  std::vector<Result<IngestResult>> IngestGroup(std::span<const IngestSource> sources) override;
  Status Sync() override;
  Status Flush() override;
  Result<std::vector<std::string>> MarkRemovedExcept(
      const std::vector<std::string>& present) override;

  Result<PackageStatus> StatusOf(std::string_view package) const override;
  Result<std::vector<PackageStatus>> Statuses() const override;
  Result<std::string> SnapshotPayload(std::string_view package) const override;
  Result<std::vector<std::string>> Lookup(IndexKind kind, std::string_view term) const override;
  Result<std::vector<std::string>> FindImage(std::string_view image,
                                             bool by_repository) const override;
  Result<std::vector<HistoryEntry>> History(std::string_view package,
                                            const HistoryFilter& filter) const override;
  Status ScanHistory(const std::function<bool(std::string_view package, HistoryEntry& entry)>&
                         visit) const override;
  using Cache::Verify;
  Result<VerifyReport> Verify(const VerifyProgress& progress) const override;
  EventLog& log() override { return log_; }

 private:
  // Decodes `source` and adds everything its ingest writes to `batch`, which
  // must hold no other Secret of the same package. On error `batch` is
  // unchanged. `result->package` is set as soon as the payload decodes.
  Status StageIngest(const IngestSource& source, const DeployedPackage& pkg,
                     rocksdb::WriteBatch* batch, IngestResult* result);
  // StageIngest's steps. FindFreshRecords: the records `pkg` implies that
  // package `key`'s log (of `log_size` records) does not hold yet, encoded
  // into record_bytes_ and listed in candidates_. StageFreshRecords: stages
  // them into `batch`, numbered on from result->log_size, with their
  // identities; sets result->log_size and result->new_records.
  Status FindFreshRecords(const std::string& key, const DeployedPackage& pkg,
                          std::uint64_t log_size);
  void StageFreshRecords(const std::string& key, rocksdb::WriteBatch* batch,
                         IngestResult* result);

  // The index entries of the package's stored snapshot (what it has in the
  // idx_* families), into `*out`. Corruption when it is missing or does not
  // decode.
  Status StoredSnapshotEntries(std::string_view package, IndexEntries* out) const;
  // The package's metadata, or nullopt when the cache does not know it.
  Result<std::optional<PackageMeta>> ReadMeta(std::string_view package) const;
  // Checks one package for Verify; adds the index entries its snapshot
  // implies to `expected` (as IndexKey strings per family).
  Status VerifyPackage(std::string_view package, std::string_view meta_bytes,
                             std::vector<std::vector<std::string>>* expected,
                             VerifyReport* report) const;

  // A record a Secret being staged implies: its time, the range of its
  // canonical bytes in record_bytes_, its identity, whether it is a package
  // event and, once it is staged, its sequence number.
  struct Candidate {
    Timestamp time;
    std::size_t begin;
    std::size_t end;
    RecordHash hash;
    bool package_event = false;
    std::uint64_t seq = 0;
  };
  // Puts a Secret's new records (package events first, in the Secret's
  // order, then component events) in the order they were recorded, using
  // `scratch`: package events keep the Secret's order (append order,
  // whatever their dates); each component event goes before the first
  // package event dated after it (a Secret has no other order between the
  // two); at equal times package events first.
  static void OrderAsRecorded(std::vector<Candidate>* fresh, std::vector<Candidate>* scratch);

  std::unique_ptr<CacheDb> db_;
  RocksDbEventLog log_;
  // StageIngest's scratch, kept between Secrets with its buffers.
  std::string record_bytes_;
  std::vector<Candidate> candidates_;
  std::vector<Candidate> ordered_;
  std::vector<RecordHash> seen_;
  IndexEntries entries_;
  IndexEntries before_entries_;
  // IngestGroup's batch, kept between calls with its buffer (given back
  // after a group of unusually large Secrets).
  static constexpr std::size_t kGroupBatchReserve = 1 << 20;
  rocksdb::WriteBatch group_batch_{kGroupBatchReserve};
};

}  // namespace zs::engine::internal

#endif  // ZARF_STATE_ENGINE_INTERNAL_CACHE_IMPL_H_
