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
//   - a damaged chunk in the middle is skipped and reported (skipped());
//     the records after it still read, with their own sequence numbers.
// A package definition (the `data` of a deploy's facts) is stored once per
// content digest (XXH3-128 of its JSON) and referenced by the digest.
// Every `checkpoint_every` records of a package, the next append of that
// package starts its chunk with a checkpoint: the package's snapshot folded
// so far (taken only when no operation is open and the Secret is not
// deleted, so a snapshot holds all the fold's state). Opening a package
// (ReadTail) folds only from its last checkpoint; Read still returns the full
// history, and Scan shows checkpoints for verification.
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

// Where an AppendBatch put its chunk: enough to take it out again.
struct AppendedChunk {
  std::uint64_t dev = 0, ino = 0;
  std::uint64_t offset = 0, length = 0;  // length 0: nothing was appended
  std::vector<AppendResult> results;     // one per record given
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
  // Takes back what AppendBatch appended (`where`), moving up chunks other
  // writers appended after it. IOError when the file is not the one
  // appended to.
  Status CutBack(const AppendedChunk& where);
  // Writes a checkpoint of `package` now. InvalidArgument while an
  // operation is open or after a remove deleted the Secret, and for a
  // package without records.
  Status Checkpoint(std::string_view package);

  // The package's last checkpoint and the records after it.
  Result<PackageTail> ReadTail(std::string_view package) const;
  // Calls `visit` for every record and checkpoint of the file in order; the
  // entry lives for the call. Stops at the first error `visit` returns.
  Status Scan(const std::function<Status(const LogEntry&)>& visit) const;

  // Regions the last read passed over (damaged chunks).
  const std::vector<LogSkip>& skipped() const { return skipped_; }
  const std::string& path() const { return path_; }

 private:
  FileEventLog(std::string path, FileEventLogOptions options)
      : path_(std::move(path)), options_(options) {}
  friend class FileEventLogInternal;
  Result<AppendedChunk> AppendImpl(std::string_view package, const std::vector<Record>& records,
                                   bool force_checkpoint);

  std::string path_;
  FileEventLogOptions options_;
  mutable std::vector<LogSkip> skipped_;
};

}  // namespace zs::engine

#endif  // ZARF_STATE_ENGINE_FILE_EVENT_LOG_H_
