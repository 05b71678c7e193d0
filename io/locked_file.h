// Files written in place under a lock, as the file event log
// (engine/file_event_log.h) is: a read-only mapping, an exclusively locked
// handle for appends, a file created whole or not at all, and the cleanup
// of what a kill left. With io/state_file.h (a file read and replaced
// whole) they are the one crash-safe file layer: both use the same locking,
// unnamed temp files and directory syncs (io/internal/posix_file.h).
//
// Thread safety: each object belongs to one thread.
#ifndef ZARF_STATE_IO_LOCKED_FILE_H_
#define ZARF_STATE_IO_LOCKED_FILE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "base/status.h"

namespace zs::tools {

// The bytes of a file, mapped read-only. A missing file maps as empty.
class MappedFile {
 public:
  // IOError naming `path` when it exists but cannot be read. With `fd` >= 0
  // that descriptor is mapped (borrowed) instead of opening `path`.
  static Result<std::unique_ptr<MappedFile>> Open(const std::string& path, int fd = -1);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  std::string_view bytes() const { return {static_cast<const char*>(data_), size_}; }
  bool exists() const { return exists_; }

 private:
  MappedFile() = default;
  void* data_ = nullptr;
  std::size_t size_ = 0;
  bool exists_ = false;
};

// A file open for writing under flock(LOCK_EX) on the file itself,
// checked (after the lock is granted) to still be the file at `path`, since
// a conversion replaces it. The lock is released on destruction.
class LockedFile {
 public:
  // NotFound when there is no file at `path`; IOError naming it otherwise.
  static Result<std::unique_ptr<LockedFile>> Open(const std::string& path);
  ~LockedFile();
  LockedFile(const LockedFile&) = delete;
  LockedFile& operator=(const LockedFile&) = delete;

  int fd() const { return fd_; }
  std::uint64_t dev() const { return dev_; }
  std::uint64_t ino() const { return ino_; }
  // Writes `data` at `offset` and fsyncs. IOError naming the path.
  Status WriteAt(std::uint64_t offset, std::string_view data);
  // Cuts the file to `size` and fsyncs.
  Status Truncate(std::uint64_t size);
  // The file's size now. IOError naming the path.
  Result<std::uint64_t> Size() const;

  // Creates `path` holding `contents`, whole or not at all, and returns it
  // locked: written unnamed (O_TMPFILE; a kill leaves nothing) or, where
  // that is missing, under a temp name, locked, then linked into place,
  // which fails when another writer created `path` first (nullptr, nothing
  // written). Another writer that opens `path` waits for this lock.
  static Result<std::unique_ptr<LockedFile>> CreateWhole(const std::string& path,
                                                         std::string_view contents);

 private:
  LockedFile(std::string path, int fd) : path_(std::move(path)), fd_(fd) {}
  // Takes the lock and notes the device and inode held.
  Status LockAndIdentify();
  std::string path_;
  int fd_;
  std::uint64_t dev_ = 0, ino_ = 0;
};

// Removes the temp files ("<path>.tmp-XXXXXX") a kill left beside `path`.
// Call it holding the lock on `path`: no replacement is then in progress.
void RemoveStrayTemps(const std::string& path);

// InvalidArgument naming `path` and its target when `path` is a symbolic
// link to nothing; OK otherwise.
Status CheckNotDangling(const std::string& path);

}  // namespace zs::tools

#endif  // ZARF_STATE_IO_LOCKED_FILE_H_
