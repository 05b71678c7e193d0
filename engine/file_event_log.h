// FileEventLog: the EventLog (engine/event_log.h) kept in one append-only
// file, the `--log` of `zarf-state record` and `replay`. Byte layout:
// engine/FORMAT.md.
//
// The file is a header naming the format version, then chunks. A chunk holds
// the records one append wrote for one package, zstd-compressed, framed by a
// length and an XXH64 checksum, so that:
//   - a chunk a kill tore off at the end is never read, and the next append
//     cuts it off first (the torn-tail rule), under an exclusive flock that
//     makes writers of one file take turns;
//   - a damaged chunk, at the end of the file too, is skipped, reported
//     (skipped()) and kept; the records after it still read, with their own
//     sequence numbers;
//   - each chunk names the chunk it follows, and a package's sequence
//     numbers run on from chunk to chunk: a full read reports a chunk
//     deleted, repeated or moved (findings());
//   - an append can stay pending (BeginAppend) under the lock until the
//     Secret it feeds is written, and be taken back then without touching
//     another writer's bytes.
// A package definition (the `data` of a deploy's facts) is stored once per
// content digest (XXH3-128 of its JSON) and referenced by the digest.
// Every `checkpoint_every` records of a package, the next append of that
// package starts its chunk with a checkpoint: the package's snapshot folded
// so far (taken only when no operation is open and the Secret is not
// deleted, so a snapshot holds all the fold's state). Opening a package
// (ReadTail, and each append) reads chunks from the end of the file back to
// the package's last checkpoint only, and takes its definition from where
// those chunks say it is stored, so its cost does not grow with the log's
// history; Read still returns the full history, and Scan shows checkpoints
// for verification.
//
// A log written by earlier releases (JSON Lines, one {"package":..,
// "record":..} per line) still reads; the first append converts it to this
// format (write-temp, fsync, rename).
//
// Record identity (engine/record.h) deduplicates appends against the records
// since the package's last checkpoint: a re-append of an older record is not
// detected.
//
// Thread safety: not thread-safe (EventLog's contract). Several processes
// may append to one file: they take turns under the flock.
#ifndef ZARF_STATE_ENGINE_FILE_EVENT_LOG_H_
#define ZARF_STATE_ENGINE_FILE_EVENT_LOG_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "engine/event_log.h"
#include "engine/fold.h"
#include "engine/record.h"

namespace zs::tools {
class LockedFile;
}  // namespace zs::tools

namespace zs::engine {

struct FileEventLogOptions {
  // Records of a package between checkpoints; 0 writes none. Default: 256
  // (about one redeploy of a 120-component package: opening a package then
  // folds at most about two appends' records).
  std::uint64_t checkpoint_every = 256;
  // The fold checkpoints are taken with, and ReadTail reads them with: a
  // checkpoint of another max_events is passed over. Default: 10 events.
  FoldOptions fold;
  // Refuse Append, AppendBatch and Checkpoint (nothing is created or
  // locked). Default: false.
  bool read_only = false;
};

// A region a reader passed over because it holds no valid chunk.
struct LogSkip {
  std::uint64_t offset = 0;  // where it starts
  std::uint64_t bytes = 0;   // its length
  std::string reason;
};

// What a full read found about the order of chunks: a chunk that does not
// follow the one before it (kFollows), or records of a package missing,
// repeated or out of order (sequence numbers).
struct LogFinding {
  std::uint64_t offset = 0;  // of the chunk
  std::string what;
};

// The whole file checked (Check).
struct LogCheck {
  std::uint64_t chunks = 0, records = 0, checkpoints = 0;
  std::vector<std::string> packages;
  std::vector<LogSkip> damaged;      // regions passed over: damaged chunks
  std::vector<LogFinding> findings;  // chunks deleted, repeated or moved
  // An append a kill interrupted (torn_bytes 0: none): never acknowledged,
  // cut off by the next append. A truncated last chunk looks the same.
  std::uint64_t torn_offset = 0, torn_bytes = 0;
  bool ok() const { return damaged.empty() && findings.empty(); }
};

// Where an append put its chunk.
struct AppendedChunk {
  std::uint64_t offset = 0, length = 0;  // length 0: nothing was appended
  std::vector<AppendResult> results;     // one per record given
};

class FileEventLogInternal;

// An append not yet final: its chunk is written and fsynced, and the log's
// exclusive lock is held until Commit or TakeBack, so no other writer
// appends meanwhile and taking the chunk back never touches another
// writer's bytes. A kill before either leaves the chunk in the log (a
// Secret one operation behind its log is rolled forward by the next
// `record`). Destroyed without Commit, it takes the chunk back.
class PendingAppend {
 public:
  ~PendingAppend();
  PendingAppend(const PendingAppend&) = delete;
  PendingAppend& operator=(const PendingAppend&) = delete;

  const AppendedChunk& chunk() const { return chunk_; }
  // Keeps the chunk and releases the lock.
  void Commit();
  // Cuts the chunk off the end of the file (one ftruncate, fsynced: a kill
  // leaves the chunk whole or gone) and releases the lock. IOError naming
  // the file when it cannot; the chunk then stays.
  Status TakeBack();

 private:
  friend class FileEventLog;
  PendingAppend(std::string path, std::unique_ptr<tools::LockedFile> file, AppendedChunk chunk);
  std::string path_;
  std::unique_ptr<tools::LockedFile> file_;  // null once committed or taken back
  AppendedChunk chunk_;
};

// What opening a package needs.
struct PackageTail {
  // The last usable checkpoint as a Base record, or none (fold from the
  // start).
  std::optional<Record> checkpoint;
  std::uint64_t checkpoint_sequence = 0;  // records the checkpoint folds
  std::vector<Record> records;            // every record after it, in order
};

// One entry of the file, in file order (Scan).
struct LogEntry {
  std::string_view package;
  // A record's sequence number, or the number of records a checkpoint folds.
  std::uint64_t sequence = 0;
  bool checkpoint = false;
  std::uint64_t max_events = 0;  // a checkpoint's fold option
  const Record* record = nullptr;  // a checkpoint's snapshot is a Base record
};

// A package's tail read for a write (FileEventLog::OpenPackage), kept with
// what the append that ends the write needs (the file as read, where its
// definitions are stored, the package's last sequence number), so that the
// append need not read and fold the tail again.
class OpenedPackage {
 public:
  ~OpenedPackage();
  OpenedPackage(const OpenedPackage&) = delete;
  OpenedPackage& operator=(const OpenedPackage&) = delete;
  PackageTail& tail() { return tail_; }

 private:
  friend class FileEventLog;
  OpenedPackage();
  std::string package_;
  std::unique_ptr<FileEventLogInternal> reader_;  // null: there was no file
  PackageTail tail_;
  std::uint64_t dev_ = 0, ino_ = 0, size_ = 0;
  std::uint64_t last_sequence_ = 0;
};

class FileEventLog : public EventLog {
 public:
  // Opens the log at `path`; a missing file is an empty log (created by the
  // first append). Checks nothing else yet: each call reads the file as it
  // is then.
  static Result<std::unique_ptr<FileEventLog>> Open(std::string path,
                                                    FileEventLogOptions options = {});
  FileEventLog(const FileEventLog&) = delete;
  FileEventLog& operator=(const FileEventLog&) = delete;

  // EventLog. Append is AppendBatch of one record. Read decodes the whole
  // history of `package`; Corruption names the file, byte offset and
  // package for a record that does not decode or a definition that is
  // missing; NotSupported for a newer format version.
  Result<AppendResult> Append(std::string_view package, const Record& record) override;
  Result<std::vector<Record>> Read(std::string_view package, std::uint64_t first = 1,
                                   std::uint64_t limit = UINT64_MAX) const override;
  Result<std::uint64_t> Size(std::string_view package) const override;
  Result<std::vector<std::string>> Packages() const override;

  // Appends the records of `records` that are not already in the package's
  // tail as one chunk, fsynced: all of them or none. IOError naming the
  // file on failure; InvalidArgument when opened read_only.
  Result<AppendedChunk> AppendBatch(std::string_view package, const std::vector<Record>& records);
  // AppendBatch that holds the log's lock until the caller commits or takes
  // the chunk back (PendingAppend): the transaction of a record log and
  // the Secret it feeds.
  Result<std::unique_ptr<PendingAppend>> BeginAppend(std::string_view package,
                                                     const std::vector<Record>& records);
  // Reads `package`'s tail (as ReadTail) for a write that ends with
  // BeginAppendAfter.
  Result<std::unique_ptr<OpenedPackage>> OpenPackage(std::string_view package) const;
  // BeginAppend of `records`, new records (not checked against the tail)
  // of the package `opened`, whose tail folds to `snapshot` (`quiet`: no
  // operation open in it and its Secret not deleted), which a checkpoint,
  // when one is due, holds. When the file has not changed since it was
  // opened, or only grown by chunks of other packages, nothing of it is
  // read or folded again; otherwise this is BeginAppend.
  Result<std::unique_ptr<PendingAppend>> BeginAppendAfter(OpenedPackage& opened,
                                                          const std::vector<Record>& records,
                                                          const DeployedPackage& snapshot, bool quiet);
  // Writes a checkpoint of `package` now. InvalidArgument while an
  // operation is open or after a remove deleted the Secret, and for a
  // package without records.
  Status Checkpoint(std::string_view package);

  // The package's last checkpoint and the records after it.
  Result<PackageTail> ReadTail(std::string_view package) const;
  // Calls `visit` for every record and checkpoint of the file in order; the
  // entry lives for the call. Stops at the first error `visit` returns.
  Status Scan(const std::function<Status(const LogEntry&)>& visit) const;

  // Reads the whole file forward, every chunk's checksum checked and every
  // record, definition and checkpoint decoded, and reports what is damaged
  // or out of order. Corruption (naming the byte) for a chunk whose
  // checksum matches but whose records do not decode; NotSupported for a
  // newer format.
  Result<LogCheck> Check() const;

  // Regions the last read passed over (damaged chunks).
  const std::vector<LogSkip>& skipped() const { return skipped_; }
  // What the last full read (Read, Scan, Check) found about the order of
  // chunks.
  const std::vector<LogFinding>& findings() const { return findings_; }
  const std::string& path() const { return path_; }

 private:
  FileEventLog(std::string path, FileEventLogOptions options)
      : path_(std::move(path)), options_(options) {}
  friend class FileEventLogInternal;
  Result<std::unique_ptr<PendingAppend>> AppendImpl(std::string_view package,
                                                    const std::vector<Record>& records,
                                                    bool force_checkpoint);
  // Writes `chunk` at `size` of the locked `file` (nothing when empty).
  Result<std::unique_ptr<PendingAppend>> WritePlanned(std::unique_ptr<tools::LockedFile> file,
                                                      std::uint64_t size, std::string_view chunk,
                                                      std::vector<AppendResult> results);
  Result<bool> StillHolds(OpenedPackage& opened, tools::LockedFile& file,
                          std::optional<std::uint64_t>* follows) const;

  std::string path_;
  FileEventLogOptions options_;
  mutable std::vector<LogSkip> skipped_;
  mutable std::vector<LogFinding> findings_;
};

}  // namespace zs::engine

#endif  // ZARF_STATE_ENGINE_FILE_EVENT_LOG_H_
