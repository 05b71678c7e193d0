// Files that hold cluster state: read-modify-write under an exclusive lock,
// replaced atomically (SPEC rule 11; STYLE: write-temp, fsync, rename).
//
// A StateFile holds `flock(LOCK_EX)` on "<path>.lock" from Open until it is
// destroyed, so two `zarf-state record` runs on the same Secret file
// serialise instead of losing an update. Replace() writes "<path>.tmp-XXXXXX"
// with mode 0600, fsyncs it, renames it over the path and fsyncs the
// directory: a kill at any moment leaves the complete old or the complete new
// file. Files we create are 0600: they hold cluster state and credentials.
// A temp file a kill left behind is never read, and Open (holding the lock)
// deletes it.
//
// Thread safety: one StateFile per thread; the lock is per open file.
#ifndef ZARF_STATE_TOOLS_STATE_FILE_H_
#define ZARF_STATE_TOOLS_STATE_FILE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "codec/status.h"

namespace zs::tools {

class StateFile {
 public:
  // Takes the lock and reads the file. A missing file is fine when
  // `may_be_missing` (exists() is then false); otherwise NotFound. A file
  // over `max_bytes` is InvalidArgument, refused before it is read.
  static Result<std::unique_ptr<StateFile>> Open(const std::string& path, bool may_be_missing,
                                                 std::size_t max_bytes = SIZE_MAX);
  ~StateFile();
  StateFile(const StateFile&) = delete;
  StateFile& operator=(const StateFile&) = delete;

  bool exists() const { return exists_; }
  const std::string& contents() const { return contents_; }
  const std::string& path() const { return path_; }

  // Atomically replaces the file's contents (mode 0600). IOError naming the
  // path on failure, in which case the old file is untouched.
  Status Replace(std::string_view contents);
  // Deletes the file (under the lock) and fsyncs its directory; a missing
  // file is fine. IOError naming the path on failure.
  Status Remove();

 private:
  StateFile(std::string path, int lock_fd) : path_(std::move(path)), lock_fd_(lock_fd) {}

  std::string path_;
  int lock_fd_;
  bool exists_ = false;
  std::string contents_;
};

// An output file written in pieces (a migrated List of hundreds of MiB is
// streamed, not held): a regular or new file is written as an unnamed file
// in the path's directory (O_TMPFILE, mode 0600), which a kill at any moment
// simply makes vanish, and on Commit gets the name "<path>.tmp-XXXXXX" and
// is renamed over the path, atomically: until then the old file is
// untouched. Only a kill between those two steps (microseconds) can leave
// that name behind. Where the filesystem has no O_TMPFILE (or /proc is not
// mounted), the file is written under the temp name from the start, which a
// destroyed, uncommitted OutputFile removes. A device or FIFO (/dev/null) is
// written in place. Errors are
// IOError naming the path, and sticky: after one, Append and Commit return
// it.
class OutputFile {
 public:
  static Result<std::unique_ptr<OutputFile>> Create(const std::string& path);
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  Status Append(std::string_view data);
  Status Commit();

 private:
  OutputFile(std::string path, std::string tmp, int fd, bool unnamed)
      : path_(std::move(path)), tmp_(std::move(tmp)), fd_(fd), unnamed_(unnamed) {}

  std::string path_;
  std::string tmp_;  // "" when writing a device or FIFO in place
  int fd_;
  bool unnamed_;     // an O_TMPFILE file: tmp_ is only its name-to-be
  bool committed_ = false;
  Status error_;
};

// Installs `contents` as `path` the crash-safe way, without a lock (outputs
// such as migrated manifests and reports are written once; StateFile::Replace
// uses it under its lock), through an OutputFile (above): written and
// fsynced unnamed, named "<path>.tmp-XXXXXX", renamed over `path`, directory
// fsynced. A kill at any moment leaves the old file (or none) or the complete
// new one, never a torn `path`; only a kill between the naming and the rename
// leaves a stray temp file. A device or FIFO (/dev/null, /dev/stdout) is
// written in place, never replaced. IOError naming the file on failure, the
// temp file then removed.
Status WriteOutputFile(const std::string& path, std::string_view contents);

// Appends `lines` (each ending in '\n') to `path` and fsyncs. Used for
// record logs, which are append-only. A new file (mode 0600) appears with
// the lines or not at all; an existing one is appended to under an flock,
// after cutting off an unterminated last line, the torn tail a SIGKILL can
// leave in the middle of an append (readers ignore such a tail too).
Status AppendLines(const std::string& path, std::string_view lines);

// For tests: write through named temp files only, as where the filesystem
// has no O_TMPFILE. Not thread-safe; set it before writing.
void UseNamedTempFilesForTesting(bool on);

}  // namespace zs::tools

#endif  // ZARF_STATE_TOOLS_STATE_FILE_H_
