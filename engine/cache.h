// Cache: the local RocksDB cache of package state (docs/model.md section 7).
//
// A Secret keeps only the newest events of its package; the cache keeps
// every event it has ever seen. Ingesting a package Secret (its payload, as
// Zarf JSON or the compact envelope) turns it into engine Records (one
// kPackageEvent per entry of `events`, one kComponentEvent per component
// `lastEvent`; no Base and no deploy facts), deduplicates them by RecordId
// against the package's log, appends the new ones in timestamp order, stores
// the payload as the package's latest snapshot and updates the indexes, all
// in one atomic WriteBatch. So ingesting successive Secrets of a package
// accumulates its full history without duplicates, and ingesting the same
// Secret twice changes nothing.
//
// Packages are keyed like Zarf's Secrets: the package name, plus
// "-override-<namespace>" for a namespace-override deployment (PackageKey).
// A snapshot is replaced only by one that is not older (newest event time,
// then generation); the events of an older Secret still join the history.
//
// The log is an EventLog (engine/event_log.h): log() returns the RocksDB
// implementation, so Fold/replay run on it unchanged.
//
// Durability: each Ingest is one WriteBatch through RocksDB's WAL (IngestGroup
// writes whole Secrets together, still one atomic batch per group). With
// CacheOptions::sync it is fsynced before Ingest returns; otherwise it
// survives a crash of this process at once, and a power loss after the next
// Sync(). Without the WAL (CacheOptions::write_ahead_log false, for bulk
// loads) a batch lives in the memtables until they are flushed: Sync()
// flushes them, all families in one atomic step, so a crash loses whole
// batches written since the last Sync() and never part of one. Callers
// acknowledge an ingest only once it is durable as they need.
//
// Files: the database directory is created 0700 and its files 0600. Because
// RocksDB creates files throughout its life, the process umask is 077 while
// a Cache is open (restored when the last one closes).
//
// Thread safety: a Cache is not thread-safe; callers serialise access. Only
// one process can open a database at a time (RocksDB's LOCK file).
#ifndef ZARF_STATE_ENGINE_CACHE_H_
#define ZARF_STATE_ENGINE_CACHE_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "model/model.h"
#include "engine/event_log.h"
#include "engine/record.h"

namespace zs::engine {

struct CacheOptions {
  // Create the database when the directory holds none. Default: true.
  bool create_if_missing = true;
  // Open without write access (queries, verify). Default: false.
  bool read_only = false;
  // fsync the WAL after every Ingest/MarkRemoved batch. Default: false (the
  // ingest command groups ingests and calls Sync() before acknowledging).
  bool sync = false;
  // Write through RocksDB's write-ahead log. Default: true. False is for
  // loading many Secrets at once: the WAL's copy of every batch (and its
  // checksum, ~15% of an ingest here) is skipped, and Sync() makes writes
  // durable by flushing the memtables to table files instead (see the file
  // comment). Ignored by read-only opens.
  bool write_ahead_log = true;
  // Size of the shared block cache, in MiB. Default: 64.
  std::size_t block_cache_mib = 64;
};

// The indexes; each maps a term to the packages whose snapshot has it.
enum class IndexKind {
  kImage,       // an image reference, normalised (ImageRef::Key)
  kRepository,  // an image repository, normalised (ImageRef::Name)
  kComponent,   // a deployed component's name
  kOutcome,     // the latest event's outcome, or "Unknown"
  kSource,      // a source a Deploy event of the snapshot was deployed from
};

// "image", "repository", "component", "outcome", "source".
std::string_view IndexKindName(IndexKind kind);

// What `query status` shows of a package; kept small, next to the snapshot.
struct PackageStatus {
  std::string package;  // the cache key (PackageKey)
  std::string name;     // DeployedPackage.name
  std::string secret_name;       // metadata of the Secret last ingested, or ""
  std::string secret_namespace;  // (a bare payload has neither)
  std::string version;           // data.metadata.version, or ""
  std::int64_t generation = 0;
  std::string latest;  // "Deploy/Succeeded", or "Unknown" without history
  std::optional<Timestamp> latest_time;
  std::optional<Timestamp> in_progress_since;  // when the latest is InProgress
  // A full-dump ingest no longer contained the package (MarkRemovedExcept).
  bool removed = false;
};

// One Secret to ingest; the views must live for the call only.
struct IngestSource {
  std::string_view payload;  // Zarf JSON or compact envelope
  std::string_view secret_name;
  std::string_view secret_namespace;
  // Bytes after `payload` that may be read, never written (the spare
  // capacity of its std::string; 0 when unknown): with 64 or more the JSON
  // parser reads the payload in place instead of copying it.
  std::size_t payload_padding = 0;
};

struct IngestResult {
  std::string package;             // the cache key
  std::uint64_t new_records = 0;   // records appended to the log
  std::uint64_t log_size = 0;      // records in the package's log after
  bool snapshot_replaced = false;  // the stored snapshot changed
  bool changed() const { return new_records != 0 || snapshot_replaced; }
};

struct HistoryFilter {
  std::string type;     // "Deploy"/"Remove", or "" for any
  std::string outcome;  // "Succeeded"/..., or "" for any
  std::optional<Timestamp> since, until;  // inclusive bounds
  bool components = true;  // include component events
};

struct HistoryEntry {
  std::uint64_t seq = 0;
  Record record;  // kPackageEvent or kComponentEvent
};

// What Verify found. ok() when nothing was.
struct VerifyReport {
  std::uint64_t packages = 0;
  std::uint64_t records = 0;
  std::uint64_t index_entries = 0;
  std::vector<std::string> problems;  // one line each, naming the package
  bool ok() const { return problems.empty(); }
};

class Cache {
 public:
  virtual ~Cache() = default;
  Cache(const Cache&) = delete;
  Cache& operator=(const Cache&) = delete;

  // Ingests one package payload (see the file comment). Corruption naming
  // nothing but the payload's problem when it cannot be decoded (the caller
  // adds which object it was); InvalidArgument for a package without a name;
  // IOError from RocksDB. On any error nothing was written.
  virtual Result<IngestResult> Ingest(const IngestSource& source) = 0;

  // Ingests `sources` in order with as few RocksDB writes as possible:
  // consecutive Secrets share one WriteBatch, and a group ends before a
  // package it already holds, so every Secret is deduplicated against the
  // Secrets before it exactly as with one Ingest each. Returns one result per
  // source, in order, each what Ingest would have returned. A Secret that
  // fails to decode or read is left out of its group (nothing of it is
  // written); when a group's write fails, every Secret of that group gets
  // the IOError and nothing of the group was written. The cache afterwards
  // is the same as after calling Ingest on each source in turn.
  virtual std::vector<Result<IngestResult>> IngestGroup(std::span<const IngestSource> sources) = 0;

  // Makes every ingest committed so far durable: fsyncs the WAL, or, with
  // CacheOptions::write_ahead_log false, flushes the memtables (as Flush).
  virtual Status Sync() = 0;

  // Writes the memtables out to table files, so that the next open need not
  // replay the write-ahead log (every `query` is a new process: after a big
  // ingest each one would otherwise pay for replaying all of it).
  virtual Status Flush() = 0;

  // Marks every package not in `present` (cache keys) removed, and clears
  // the mark of those in it that had one. Returns the newly marked keys.
  virtual Result<std::vector<std::string>> MarkRemovedExcept(
      const std::vector<std::string>& present) = 0;

  // The package's status; NotFound when the cache does not know it.
  virtual Result<PackageStatus> StatusOf(std::string_view package) const = 0;
  // Every package's status, sorted by key.
  virtual Result<std::vector<PackageStatus>> Statuses() const = 0;
  // The latest snapshot payload as ingested; NotFound for an unknown package.
  virtual Result<std::string> SnapshotPayload(std::string_view package) const = 0;

  // Packages whose snapshot has `term` in index `kind`, sorted. Terms are
  // matched exactly as stored: images and repositories are normalised by
  // the caller (FindImage does it).
  virtual Result<std::vector<std::string>> Lookup(IndexKind kind, std::string_view term) const = 0;
  // Packages referencing `image`: as a whole reference (nginx:1.25 ==
  // docker.io/library/nginx:1.25) or, with `by_repository`, any tag or
  // digest of its repository. An unparseable reference is matched verbatim.
  virtual Result<std::vector<std::string>> FindImage(std::string_view image,
                                                     bool by_repository) const = 0;

  // The package's full history in log order, filtered. NotFound for an
  // unknown package.
  virtual Result<std::vector<HistoryEntry>> History(std::string_view package,
                                                    const HistoryFilter& filter) const = 0;

  // Visits every package's records in one pass over the log: packages in
  // the log's key order (shorter names first, then bytewise), each
  // package's records together and in log order, until `visit` returns
  // false. A record that fails to decode is Corruption naming the package
  // and sequence number; skippable unknown kinds are left out. The package
  // view and the entry live for the call only.
  virtual Status ScanHistory(
      const std::function<bool(std::string_view package, HistoryEntry& entry)>& visit) const = 0;

  // Folds each package's log and checks it against the stored snapshot, the
  // status record and the indexes (both missing and extra entries). Errors
  // only when the database cannot be read; findings are in the report.
  Result<VerifyReport> Verify() const { return Verify(VerifyProgress()); }
  // The same, calling `progress` (when set) after each package checked with
  // the stage "packages" and the packages checked so far, then before each
  // of the four indexes with the stage "indexes" and the indexes checked so
  // far. It must not use this Cache.
  using VerifyProgress = std::function<void(std::string_view stage, std::uint64_t done)>;
  virtual Result<VerifyReport> Verify(const VerifyProgress& progress) const = 0;

  // The RocksDB event log (borrowed; lives as long as this Cache). Appending
  // through it adds records without touching snapshots or indexes.
  virtual EventLog& log() = 0;

 protected:
  Cache() = default;
};

// Opens (or creates) the cache in directory `dir`. NotSupported, naming the
// directory and both versions, when the database was written by a newer
// format version; InvalidArgument when `dir` holds no cache and
// create_if_missing is false; IOError for anything RocksDB reports (another
// process holding the database, permissions).
Result<std::unique_ptr<Cache>> OpenCache(const std::string& dir, const CacheOptions& options = {});

// The cache key of a package: its name, plus "-override-<namespace>" when it
// was deployed with a namespace override (as Zarf names its Secret).
std::string PackageKey(const DeployedPackage& pkg);

}  // namespace zs::engine

#endif  // ZARF_STATE_ENGINE_CACHE_H_
