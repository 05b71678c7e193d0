#include "engine/internal/rocksdb_event_log.h"

namespace zs::engine::internal {

Result<AppendResult> RocksDbEventLog::Append(std::string_view package, const Record& record) {
  const std::string id = RecordId(record);
  ZS_ASSIGN_OR_RETURN(std::optional<std::uint64_t> existing, FindId(package, id));
  if (existing) return AppendResult{*existing, false};
  ZS_ASSIGN_OR_RETURN(std::uint64_t size, Size(package));
  rocksdb::WriteBatch batch;
  StageLogRecord(&batch, *db_, package, size + 1, EncodeRecord(record));
  StageRecordId(&batch, *db_, package, size + 1, id);
  ZS_RETURN_IF_ERROR(db_->Write(&batch));
  return AppendResult{size + 1, true};
}

namespace {

// Stages Lp(package) + tail -> value into family `cf` of `batch`.
void PutPrefixed(rocksdb::WriteBatch* batch, rocksdb::ColumnFamilyHandle* cf,
                 std::string_view package, std::string_view tail, std::string_view value) {
  const rocksdb::Slice v(value.data(), value.size());
  batch->Put(cf, KeyParts(package, tail).parts(), rocksdb::SliceParts(&v, 1)).PermitUncheckedError();
}

}  // namespace

void RocksDbEventLog::StageLogRecord(rocksdb::WriteBatch* batch, const CacheDb& db,
                                     std::string_view package, std::uint64_t seq,
                                     std::string_view encoded) {
  char seq_bytes[8];
  PutBigEndian<8>(seq_bytes, seq);
  PutPrefixed(batch, db.cf(kCfLog), package, std::string_view(seq_bytes, 8), encoded);
}

void RocksDbEventLog::StageRecordId(rocksdb::WriteBatch* batch, const CacheDb& db,
                                    std::string_view package, std::uint64_t seq,
                                    std::string_view record_id) {
  char seq_bytes[8];
  PutBigEndian<8>(seq_bytes, seq);
  PutPrefixed(batch, db.cf(kCfIds), package, record_id, std::string_view(seq_bytes, 8));
}

Result<std::optional<std::uint64_t>> RocksDbEventLog::FindId(std::string_view package,
                                                             std::string_view record_id) const {
  std::string value;
  ZS_ASSIGN_OR_RETURN(bool found, db_->Get(kCfIds, IdKey(package, record_id), &value));
  if (!found) return std::optional<std::uint64_t>();
  if (value.size() != 8) {
    return Status::Corruption("cache: package " + std::string(package) + ": record id " +
                              std::string(record_id) + " maps to a malformed sequence number");
  }
  return std::optional<std::uint64_t>(ReadBigEndian64(value));
}

Status RocksDbEventLog::ReadWithSequence(
    std::string_view package, std::vector<std::pair<std::uint64_t, Record>>* out) const {
  std::string prefix;
  AppendLengthPrefixed(&prefix, package);
  Status error;
  ZS_RETURN_IF_ERROR(ScanPrefix(*db_, kCfLog, prefix, [&](std::string_view key, std::string_view v) {
    const std::uint64_t seq = LogKeySequence(key);
    auto r = DecodeRecord(v);
    if (r.status().code() == Status::Code::kNotFound) return true;  // skippable kind
    if (!r.ok() || seq == 0) {
      error = (r.ok() ? Status::Corruption("malformed key") : r.status())
                  .WithContext("cache: package " + std::string(package) + " record " +
                               std::to_string(seq));
      return false;
    }
    out->emplace_back(seq, std::move(r).value());
    return true;
  }));
  return error;
}

Result<std::vector<Record>> RocksDbEventLog::Read(std::string_view package, std::uint64_t first,
                                                  std::uint64_t limit) const {
  std::vector<std::pair<std::uint64_t, Record>> all;
  ZS_RETURN_IF_ERROR(ReadWithSequence(package, &all));
  std::vector<Record> out;
  for (auto& [seq, r] : all) {
    if (seq >= first && seq - first < limit) out.push_back(std::move(r));
  }
  return out;
}

Result<std::uint64_t> RocksDbEventLog::Size(std::string_view package) const {
  rocksdb::ReadOptions ro;
  ro.prefix_same_as_start = true;
  std::unique_ptr<rocksdb::Iterator> it(db_->db()->NewIterator(ro, db_->cf(kCfLog)));
  it->SeekForPrev(LogKey(package, UINT64_MAX));
  std::uint64_t size = 0;
  if (it->Valid()) {
    const std::string_view key(it->key().data(), it->key().size());
    std::string prefix;
    AppendLengthPrefixed(&prefix, package);
    if (key.starts_with(prefix)) size = LogKeySequence(key);
  }
  ZS_RETURN_IF_ERROR(FromRocks(it->status(), "cache: sizing the log of " + std::string(package)));
  return size;
}

Result<std::vector<std::string>> RocksDbEventLog::Packages() const {
  std::vector<std::string> out;
  rocksdb::ReadOptions ro;
  ro.total_order_seek = true;
  ro.fill_cache = false;
  std::unique_ptr<rocksdb::Iterator> it(db_->db()->NewIterator(ro, db_->cf(kCfLog)));
  for (it->SeekToFirst(); it->Valid();) {
    const std::string_view key(it->key().data(), it->key().size());
    const std::size_t p = PrefixLength(key);
    if (p == 0) return Status::Corruption("cache: malformed log key");
    std::string package(key.substr(4, p - 4));
    it->Seek(LogKey(package, UINT64_MAX));  // the next package's first record
    out.push_back(std::move(package));
  }
  ZS_RETURN_IF_ERROR(FromRocks(it->status(), "cache: listing packages"));
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace zs::engine::internal
