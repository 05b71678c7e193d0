// Opening the cache, ingesting Secrets and marking removed packages.
#include "engine/cache.h"

#include <xxhash.h>

#include <algorithm>
#include <set>
#include <tuple>

#include "model/names.h"
#include "kube/package_secret.h"
#include "engine/internal/cache_impl.h"

namespace zs::engine {

using internal::CacheImpl;
using internal::IndexEntries;
using internal::PackageMeta;

std::string_view IndexKindName(IndexKind kind) {
  switch (kind) {
    case IndexKind::kImage: return "image";
    case IndexKind::kRepository: return "repository";
    case IndexKind::kComponent: return "component";
    case IndexKind::kOutcome: return "outcome";
    case IndexKind::kSource: return "source";
  }
  return "unknown";
}

std::string PackageKey(const DeployedPackage& pkg) {
  if (pkg.namespace_override.empty()) return pkg.name;
  return pkg.name + "-override-" + pkg.namespace_override;
}

Result<std::unique_ptr<Cache>> OpenCache(const std::string& dir, const CacheOptions& options) {
  ZS_ASSIGN_OR_RETURN(std::unique_ptr<internal::CacheDb> db, internal::CacheDb::Open(dir, options));
  return std::unique_ptr<Cache>(new CacheImpl(std::move(db)));
}

namespace internal {

std::optional<Timestamp> SaneTime(const std::optional<Timestamp>& t, const Timestamp& now) {
  if (!t || t->seconds > now.seconds + kFutureSkewSeconds) return std::nullopt;
  return t;
}

namespace {

// Orders snapshots of one package as Zarf writes them, not by wall time:
// the higher generation (each deploy attempt raises it) is newer. At equal
// generations (a remove does not raise it) the later latest event is newer,
// a time beyond the skew counting as none, and otherwise the Secret ingested
// last. A snapshot a full dump no longer held gives way to any: a Secret
// deleted and made again starts again at generation 1.
bool NotOlder(const PackageStatus& incoming, const PackageStatus& stored) {
  if (stored.removed) return true;
  if (incoming.generation != stored.generation) return incoming.generation > stored.generation;
  const Timestamp now = Timestamp::Now();
  const std::optional<Timestamp> in = SaneTime(incoming.latest_time, now);
  const std::optional<Timestamp> have = SaneTime(stored.latest_time, now);
  if (in && have && *in != *have) return *in > *have;
  return true;
}

}  // namespace

void CacheImpl::OrderAsRecorded(std::vector<Candidate>* fresh, std::vector<Candidate>* scratch) {
  auto by_time = [](const Candidate& a, const Candidate& b) { return a.time < b.time; };
  const auto split = std::partition_point(fresh->begin(), fresh->end(),
                                          [](const Candidate& c) { return c.package_event; });
  std::stable_sort(split, fresh->end(), by_time);
  scratch->clear();
  auto p = fresh->begin();
  auto c = split;
  while (p != split || c != fresh->end()) {
    if (c == fresh->end() || (p != split && !by_time(*c, *p))) {
      scratch->push_back(*p++);
    } else {
      scratch->push_back(*c++);
    }
  }
  fresh->swap(*scratch);
}

Result<std::optional<PackageMeta>> CacheImpl::ReadMeta(std::string_view package) const {
  std::string value;
  ZS_ASSIGN_OR_RETURN(bool found, db_->Get(kCfPackages, package, &value));
  if (!found) return std::optional<PackageMeta>();
  ZS_ASSIGN_OR_RETURN(PackageMeta meta, DecodeMeta(package, value));
  return std::optional<PackageMeta>(std::move(meta));
}

namespace {

// The name keys every record: one no package Secret could be named after
// (zarf-package-<name> is a DNS-1123 subdomain) is refused before it
// becomes a key of each (a 100 MB name took 3.9 GB and 104 s).
Status CheckNameLength(const DeployedPackage& pkg) {
  constexpr std::size_t kSecretPrefix = sizeof("zarf-package-") - 1;
  if (pkg.name.size() > kDns1123SubdomainMaxBytes - kSecretPrefix) {
    return Status::InvalidArgument(
        "package name of " + std::to_string(pkg.name.size()) +
        " bytes: longer than any package Secret can be named after (zarf-package-<name> holds at "
        "most " + std::to_string(kDns1123SubdomainMaxBytes) + " bytes)");
  }
  return Status::OK();
}

// The status record `src` makes for package `key`.
PackageMeta MetaOf(const IngestSource& src, const DeployedPackage& pkg, const std::string& key) {
  PackageMeta meta;
  meta.status.package = key;
  meta.status.secret_name = std::string(src.secret_name);
  meta.status.secret_namespace = std::string(src.secret_namespace);
  FillStatus(pkg, &meta.status);
  meta.payload_hash = XXH3_64bits(src.payload.data(), src.payload.size());
  return meta;
}

// Sets result->snapshot_replaced when `meta` replaces the stored snapshot:
// always for a package the cache does not know; otherwise when it is not
// older than `old` and differs from it (payload, removal, Secret).
void DecideReplacement(const PackageMeta& meta, const std::optional<PackageMeta>& old,
                       IngestResult* result) {
  if (!old) {
    result->snapshot_replaced = true;
  } else if (NotOlder(meta.status, old->status)) {
    result->snapshot_replaced = old->payload_hash != meta.payload_hash || old->status.removed ||
                                old->status.secret_name != meta.status.secret_name ||
                                old->status.secret_namespace != meta.status.secret_namespace;
  }
}

// Stages into `batch` the index entries to delete (only in `before`) and to
// add (only in `after`). Both lists are sorted alike: one merge finds them.
void StageIndexChanges(const CacheDb& db, const IndexEntries& before, const IndexEntries& after,
                       rocksdb::WriteBatch* batch) {
  auto stage = [&](const IndexEntries& from, const IndexEntries::Entry& e, bool add) {
    const std::string_view k = from.key(e);
    const rocksdb::Slice slice(k.data(), k.size());
    if (add) {
      batch->Put(db.cf(e.cf), slice, rocksdb::Slice()).PermitUncheckedError();
    } else {
      batch->Delete(db.cf(e.cf), slice).PermitUncheckedError();
    }
  };
  auto b = before.entries().begin();
  auto a = after.entries().begin();
  while (b != before.entries().end() || a != after.entries().end()) {
    if (a == after.entries().end() ||
        (b != before.entries().end() && before.Less(*b, after, *a))) {
      stage(before, *b++, false);
    } else if (b == before.entries().end() || after.Less(*a, before, *b)) {
      stage(after, *a++, true);
    } else {
      ++b;
      ++a;
    }
  }
}

}  // namespace

Status CacheImpl::FindFreshRecords(const std::string& key, const DeployedPackage& pkg,
                                   std::uint64_t log_size) {
  std::string& bytes = record_bytes_;
  std::vector<Candidate>& fresh = candidates_;
  std::vector<RecordHash>& seen = seen_;
  bytes.clear();
  fresh.clear();
  seen.clear();
  std::string id;
  for (const SnapshotRecord& r : SnapshotRecords(pkg)) {
    const std::size_t begin = bytes.size();
    r.AppendEncoded(&bytes);
    const RecordHash hash = RecordHashOfBytes(std::string_view(bytes).substr(begin));
    // A snapshot repeats a record only when written by hand: a linear look
    // over its few records is enough.
    bool known = std::find(seen.begin(), seen.end(), hash) != seen.end();
    seen.push_back(hash);
    if (!known && log_size != 0) {
      id.clear();
      AppendRecordId(&id, hash);
      ZS_ASSIGN_OR_RETURN(std::optional<std::uint64_t> seq, log_.FindId(key, id));
      known = seq.has_value();
    }
    if (known) {
      bytes.resize(begin);
      continue;
    }
    fresh.push_back({r.time(), begin, bytes.size(), hash, r.kind == RecordKind::kPackageEvent});
  }
  return Status::OK();
}

void CacheImpl::StageFreshRecords(const std::string& key, rocksdb::WriteBatch* batch,
                                  IngestResult* result) {
  std::vector<Candidate>& fresh = candidates_;
  OrderAsRecorded(&fresh, &ordered_);
  for (Candidate& c : fresh) {
    c.seq = ++result->log_size;
    RocksDbEventLog::StageLogRecord(
        batch, *db_, key, c.seq, std::string_view(record_bytes_).substr(c.begin, c.end - c.begin));
  }
  // Their identities in key order: a skiplist memtable inserts a run of
  // ascending keys next to the previous one (RocksDB keeps the splice),
  // where random order searches from the top each time (14% of ingest).
  std::sort(fresh.begin(), fresh.end(), [](const Candidate& a, const Candidate& b) {
    return std::tie(a.hash.high, a.hash.low) < std::tie(b.hash.high, b.hash.low);
  });
  std::string id;
  for (const Candidate& c : fresh) {
    id.clear();
    AppendRecordId(&id, c.hash);
    RocksDbEventLog::StageRecordId(batch, *db_, key, c.seq, id);
  }
  result->new_records = fresh.size();
}

Status CacheImpl::StageIngest(const IngestSource& src, const DeployedPackage& pkg,
                              rocksdb::WriteBatch* batch, IngestResult* result) {
  ZS_RETURN_IF_ERROR(CheckNameLength(pkg));
  const std::string& key = result->package;
  // Every read comes first, so that an error leaves `batch` untouched.
  // The records this Secret implies that the log does not hold yet, encoded
  // one after another into `record_bytes_`. A package's first Secret has an
  // empty log: no identity lookups then.
  ZS_ASSIGN_OR_RETURN(result->log_size, log_.Size(key));
  ZS_RETURN_IF_ERROR(FindFreshRecords(key, pkg, result->log_size));
  ZS_ASSIGN_OR_RETURN(std::optional<PackageMeta> old, ReadMeta(key));
  const PackageMeta meta = MetaOf(src, pkg, key);
  DecideReplacement(meta, old, result);
  // The index entries the stored snapshot made, derived from it again.
  IndexEntries& before = before_entries_;
  before.Clear();
  if (result->snapshot_replaced && old) ZS_RETURN_IF_ERROR(StoredSnapshotEntries(key, &before));

  StageFreshRecords(key, batch, result);
  if (result->snapshot_replaced) {
    IndexEntries& after = entries_;
    after.Build(pkg, key, db_->format());
    StageIndexChanges(*db_, before, after, batch);
    batch->Put(db_->cf(kCfSnapshots), key, rocksdb::Slice(src.payload.data(), src.payload.size()))
        .PermitUncheckedError();
    batch->Put(db_->cf(kCfPackages), key, EncodeMeta(meta)).PermitUncheckedError();
  }
  return Status::OK();
}

Status CacheImpl::StoredSnapshotEntries(std::string_view package, IndexEntries* out) const {
  std::string payload;
  ZS_ASSIGN_OR_RETURN(bool found, db_->Get(kCfSnapshots, package, &payload));
  if (!found) {
    return Status::Corruption("cache: package " + std::string(package) +
                              " has a status record but no snapshot");
  }
  auto pkg = DecodePackagePayload(payload, 0, DefinitionParts::kSummary);
  if (!pkg.ok()) {
    return pkg.status().WithContext("cache: package " + std::string(package) + ": stored snapshot");
  }
  out->Build(*pkg, package, db_->format());
  return Status::OK();
}

Result<IngestResult> CacheImpl::Ingest(const IngestSource& src) {
  return std::move(IngestGroup(std::span<const IngestSource>(&src, 1)).front());
}

std::vector<Result<IngestResult>> CacheImpl::IngestGroup(std::span<const IngestSource> sources) {
  std::vector<Result<IngestResult>> results;
  results.reserve(sources.size());
  // Reused across groups and calls: a group's batch (~20 KB per realistic
  // Secret) would otherwise be regrown by copying, Secret by Secret.
  rocksdb::WriteBatch& batch = group_batch_;
  batch.Clear();
  std::set<std::string, std::less<>> in_group;  // package keys staged in `batch`
  std::size_t group_begin = 0;                    // first result of the group
  // Writes the group staged so far; a failed write fails all of its Secrets.
  auto write_group = [&] {
    if (batch.Count() != 0) {
      Status s = db_->Write(&batch);
      if (!s.ok()) {
        for (std::size_t i = group_begin; i < results.size(); ++i) {
          if (results[i].ok()) {
            results[i] = Status(s).WithContext("package " + results[i]->package);
          }
        }
      }
    }
    batch.Clear();
    in_group.clear();
    group_begin = results.size();
  };
  for (const IngestSource& src : sources) {
    // Only what the cache reads of the package definition is built: the
    // snapshot stored is the payload's bytes, never the decoded package.
    auto pkg = DecodePackagePayload(src.payload, src.payload_padding, DefinitionParts::kSummary);
    if (!pkg.ok()) {
      results.emplace_back(pkg.status());
      continue;
    }
    if (pkg->name.empty()) {
      results.emplace_back(Status::InvalidArgument("the package has no name"));
      continue;
    }
    IngestResult result;
    result.package = PackageKey(*pkg);
    // A package already in the group: its reads must see that Secret.
    if (in_group.count(result.package) != 0) write_group();
    Status s = StageIngest(src, *pkg, &batch, &result);
    if (!s.ok()) {
      results.emplace_back(std::move(s));
      continue;
    }
    in_group.insert(result.package);
    results.emplace_back(std::move(result));
  }
  write_group();
  if (batch.Data().capacity() > 16 * kGroupBatchReserve) {
    batch = rocksdb::WriteBatch(kGroupBatchReserve);
  }
  return results;
}

namespace {

// IOError when a background flush or compaction of `db` failed since it was
// opened: RocksDB reports those only to the next write, which may never
// come, so Sync and Flush ask before they report success.
Status BackgroundErrors(internal::CacheDb& db) {
  std::uint64_t n = 0;
  if (!db.db()->GetIntProperty("rocksdb.background-errors", &n) || n == 0) return Status::OK();
  return Status::IOError("cache " + db.dir() + ": " + std::to_string(n) +
                         " background flush or compaction error(s) (see " + db.dir() + "/LOG)");
}

}  // namespace

Status CacheImpl::Sync() {
  ZS_RETURN_IF_ERROR(db_->write_error());  // syncing after it would abort
  if (!db_->write_ahead_log()) return Flush();
  ZS_RETURN_IF_ERROR(
      FromRocks(db_->db()->FlushWAL(/*sync=*/true), "cache " + db_->dir() + ": syncing the WAL"));
  return BackgroundErrors(*db_);
}

Status CacheImpl::Flush() {
  ZS_RETURN_IF_ERROR(db_->write_error());
  std::vector<rocksdb::ColumnFamilyHandle*> families;
  for (int i = 0; i < kCfCount; ++i) families.push_back(db_->cf(i));
  rocksdb::FlushOptions options;
  options.wait = true;
  ZS_RETURN_IF_ERROR(
      FromRocks(db_->db()->Flush(options, families), "cache " + db_->dir() + ": flushing"));
  return BackgroundErrors(*db_);
}

Result<std::vector<std::string>> CacheImpl::MarkRemovedExcept(
    const std::vector<std::string>& present) {
  const std::set<std::string, std::less<>> keep(present.begin(), present.end());
  std::vector<std::string> marked;
  rocksdb::WriteBatch batch;
  Status error;
  ZS_RETURN_IF_ERROR(ScanPrefix(*db_, kCfPackages, "", [&](std::string_view key, std::string_view v) {
    if (keep.count(key) != 0) return true;
    auto meta = DecodeMeta(key, v);
    if (!meta.ok()) {
      error = meta.status();
      return false;
    }
    if (meta->status.removed) return true;
    meta->status.removed = true;
    batch.Put(db_->cf(kCfPackages), rocksdb::Slice(key.data(), key.size()), EncodeMeta(*meta))
        .PermitUncheckedError();
    marked.emplace_back(key);
    return true;
  }));
  ZS_RETURN_IF_ERROR(error);
  if (batch.Count() != 0) ZS_RETURN_IF_ERROR(db_->Write(&batch));
  return marked;
}

}  // namespace internal
}  // namespace zs::engine
