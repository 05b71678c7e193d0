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

 private:
  StateFile(std::string path, int lock_fd) : path_(std::move(path)), lock_fd_(lock_fd) {}

  std::string path_;
  int lock_fd_;
  bool exists_ = false;
  std::string contents_;
};

// Installs `contents` as `path` the crash-safe way, without a lock: writes
// "<path>.tmp-XXXXXX" (mode 0600), fsyncs it, renames it over `path` and
// fsyncs the directory. A kill at any moment leaves the old file (or none)
// or the complete new one; at worst a stray temp file, never a torn `path`.
// IOError naming the file on failure, the temp file then removed.
Status WriteFileAtomically(const std::string& path, std::string_view contents);

// Appends `lines` (each ending in '\n') to `path`, creating it 0600, and
// fsyncs. Used for record logs, which are append-only.
Status AppendLines(const std::string& path, std::string_view lines);

}  // namespace zs::tools

#endif  // ZARF_STATE_TOOLS_STATE_FILE_H_
