// Files that hold cluster state: read-modify-write under an exclusive lock,
// replaced atomically (docs/model.md rule 11; STYLE: write-temp, fsync, rename).
//
// A StateFile holds `flock(LOCK_EX)` on "<path>.lock" from Open until it is
// destroyed, so two `zarf-state record` runs on the same Secret file
// serialise instead of losing an update; it removes the lock file as it
// releases it (the identity checks below make that safe), so none is left.
// Replace() writes "<path>.tmp-XXXXXX" with mode 0600, fsyncs it, renames it
// over the path and fsyncs the directory: a kill at any moment leaves the
// complete old or the complete new file. Files we create are 0600: they hold cluster state and credentials.
// A temp file a kill left behind is never read, and Open (holding the lock)
// deletes it.
//
// Writers that notice: a path that is a symbolic link is resolved first
// (link chains included, a dangling link names the file to create), so the
// file and its lock are those of the link's target and a write replaces the
// target, never the link. The lock file is opened without following a link
// (a link planted there is refused), and after flock() its identity (device
// and inode) is checked against the name: a lock file deleted or replaced
// while we waited is opened again. Before Replace or Remove changes
// anything, the lock is checked to still be the file at the lock's name and
// the file to still be the one read (device, inode, size, mtime and a hash
// of the contents; or still absent): a file replaced or edited underneath,
// by a writer that ignores the lock, is IOError and nothing is written.
//
// Thread safety: one StateFile per thread; the lock is per open file.
#ifndef ZARF_STATE_IO_STATE_FILE_H_
#define ZARF_STATE_IO_STATE_FILE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "base/status.h"

namespace zs::tools {

class StateFile {
 public:
  // Takes the lock and reads the file. A missing file is fine when
  // `may_be_missing` (exists() is then false); otherwise NotFound. A file
  // over `max_bytes` is InvalidArgument, refused before it is read.
  // Without `lock` (a read, or a write that goes elsewhere, such as
  // `record --stdout`) no lock file is created, so a read-only directory
  // works; Replace and Remove are then refused (InvalidArgument).
  static Result<std::unique_ptr<StateFile>> Open(const std::string& path, bool may_be_missing,
                                                 std::size_t max_bytes = SIZE_MAX,
                                                 bool lock = true);
  ~StateFile();
  StateFile(const StateFile&) = delete;
  StateFile& operator=(const StateFile&) = delete;

  bool exists() const { return exists_; }
  const std::string& contents() const { return contents_; }
  const std::string& path() const { return path_; }
  // The file written: path() with symbolic links resolved.
  const std::string& target() const { return target_; }

  // OK when the lock is still held on the file named "<target>.lock" and the
  // file is still the one read (or still absent). Otherwise IOError naming
  // the path and what changed; nothing has been written.
  Status CheckUnchanged() const;
  // Atomically replaces the file's contents (mode 0600), after
  // CheckUnchanged. IOError naming the path on failure, in which case the
  // old file is untouched.
  Status Replace(std::string_view contents);
  // Deletes the file (under the lock, after CheckUnchanged) and fsyncs its
  // directory; a missing file is fine. IOError naming the path on failure.
  Status Remove();

  // What identifies the file read: a file swapped or edited in between
  // differs in at least one of these.
  struct Identity {
    bool exists = false;
    std::uint64_t dev = 0, ino = 0, size = 0, mtime_ns = 0, hash = 0;
    bool operator==(const Identity&) const = default;
  };

 private:
  StateFile(std::string path, std::string target, int lock_fd)
      : path_(std::move(path)), target_(std::move(target)), lock_fd_(lock_fd) {}
  // After a successful write: the file now there is the one we wrote.
  void Reidentify();

  std::string path_;
  std::string target_;
  int lock_fd_;  // -1 when opened without the lock
  bool exists_ = false;
  std::string contents_;
  Identity identity_;
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

// For tests: write through named temp files only, as where the filesystem
// has no O_TMPFILE (OutputFile here, LockedFile::CreateWhole in
// io/locked_file.h). Not thread-safe; set it before writing.
void UseNamedTempFilesForTesting(bool on);

// For tests: the next StateFile::Replace or Remove fails with IOError after
// its checks, as a full disk would make it fail, writing nothing. Not
// thread-safe.
void FailNextStateWriteForTesting();

}  // namespace zs::tools

#endif  // ZARF_STATE_IO_STATE_FILE_H_
