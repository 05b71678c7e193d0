#include "io/state_file.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <random>

#include "io/internal/posix_file.h"
#include "io/locked_file.h"

namespace zs::tools {
namespace {

using internal::DirOf;
using internal::ErrnoError;
using internal::LockExclusive;
using internal::SyncDirOf;
using internal::WriteAll;

// Whether `path` exists and is something other than a regular file (a
// device such as /dev/null, a FIFO, a directory): renaming over it would
// replace it.
bool IsSpecialFile(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode);
}

}  // namespace

namespace {

// FNV-1a over the contents: not a defence against an adversary, which can
// keep size and mtime too, but it catches an edit that kept both.
std::uint64_t HashOf(std::string_view data) {
  std::uint64_t h = 14695981039346656037ull;
  for (const unsigned char c : data) h = (h ^ c) * 1099511628211ull;
  return h;
}

StateFile::Identity IdentityOf(const struct stat& st, std::string_view contents) {
  StateFile::Identity id;
  id.exists = true;
  id.dev = st.st_dev;
  id.ino = st.st_ino;
  id.size = static_cast<std::uint64_t>(st.st_size);
  id.mtime_ns = static_cast<std::uint64_t>(st.st_mtim.tv_sec) * 1000000000ull +
                static_cast<std::uint64_t>(st.st_mtim.tv_nsec);
  id.hash = HashOf(contents);
  return id;
}

// `path` with a symbolic link in its last component followed to the file
// it names (chains too; the target of a dangling link is the file to
// create). Directories on the way are left as they are: a rename through
// them lands in the same directory.
Result<std::string> ResolveLinks(const std::string& path) {
  std::string p = path;
  for (int hops = 0; hops < 40; ++hops) {
    struct stat st {};
    if (::lstat(p.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return p;
    std::string target(static_cast<std::size_t>(st.st_size > 0 ? st.st_size : 4096) + 1, '\0');
    const ssize_t n = ::readlink(p.c_str(), target.data(), target.size());
    if (n < 0) return ErrnoError("read link", p);
    target.resize(static_cast<std::size_t>(n));
    if (target.empty()) return Status::InvalidArgument(p + ": an empty symbolic link");
    p = target.front() == '/' ? target : DirOf(p) + "/" + target;
  }
  return Status::InvalidArgument(path + ": too many levels of symbolic links");
}

// Opens and flocks "<target>.lock" (never through a link), until the file
// locked is the one at that name: a lock file deleted or replaced while we
// waited for it would let another writer in beside us. Having waited, a
// file gone from the name is the usual hand-over (its holder removes it as
// it releases it), however many writers go first; only a file found already
// replaced without a wait, again and again, is given up on.
Result<int> TakeLock(const std::string& lock_path) {
  int replaced_unheld = 0;
  for (;;) {
    const int fd = ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0 && errno == ELOOP) {
      return Status::InvalidArgument(lock_path +
                                     ": the lock file is a symbolic link; refusing to follow it");
    }
    if (fd < 0) return ErrnoError("open", lock_path);
    const bool waited = ::flock(fd, LOCK_EX | LOCK_NB) != 0;
    if (waited) {
      if (Status s = LockExclusive(fd, lock_path); !s.ok()) {
        ::close(fd);
        return s;
      }
    }
    struct stat held {}, named {};
    if (::fstat(fd, &held) == 0 && ::lstat(lock_path.c_str(), &named) == 0 &&
        held.st_dev == named.st_dev && held.st_ino == named.st_ino) {
      return fd;
    }
    ::close(fd);  // locked a file no longer at the name: try the new one
    if (!waited && ++replaced_unheld == 100) {
      return Status::IOError(lock_path + ": the lock file keeps being replaced; giving up");
    }
  }
}

}  // namespace

Result<std::unique_ptr<StateFile>> StateFile::Open(const std::string& path, bool may_be_missing,
                                                   std::size_t max_bytes, bool lock) {
  ZS_ASSIGN_OR_RETURN(const std::string target, ResolveLinks(path));
  if (IsSpecialFile(target)) {
    return Status::InvalidArgument(path + ": not a regular file; a state file is replaced "
                                          "atomically, which would replace this one");
  }
  int lock_fd = -1;
  if (lock) {
    ZS_ASSIGN_OR_RETURN(lock_fd, TakeLock(target + ".lock"));
  }
  std::unique_ptr<StateFile> file(new StateFile(path, target, lock_fd));
  if (lock) RemoveStrayTemps(target);
  const int fd = ::open(target.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT && may_be_missing) return file;
    if (errno == ENOENT) return Status::NotFound(path + ": no such file");
    return ErrnoError("open", path);
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    Status s = ErrnoError("stat", path);
    ::close(fd);
    return s;
  }
  if (static_cast<std::uint64_t>(st.st_size) > max_bytes) {
    ::close(fd);
    return Status::InvalidArgument(path + ": input of " + std::to_string(st.st_size) +
                                   " bytes exceeds the limit of " + std::to_string(max_bytes) +
                                   " bytes (raise it with --max-object-size)");
  }
  char buf[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      Status s = ErrnoError("read", path);
      ::close(fd);
      return s;
    }
    if (n == 0) break;
    file->contents_.append(buf, static_cast<std::size_t>(n));
  }
  // The stat taken after the read: a write that raced the read shows in it.
  if (::fstat(fd, &st) != 0) {
    Status s = ErrnoError("stat", path);
    ::close(fd);
    return s;
  }
  ::close(fd);
  file->exists_ = true;
  file->identity_ = IdentityOf(st, file->contents_);
  return file;
}

StateFile::~StateFile() {
  if (lock_fd_ < 0) return;
  // No lock file is left behind: it is unlinked while still held, then
  // released. Safe because only the holder of the lock at the name ever
  // unlinks it (here, after checking the name is still its file), and every
  // taker checks after flock() that the file it locked is still at the name
  // (TakeLock): one that waited on this file finds it gone and opens the
  // name again, so two writers never both hold "the" lock.
  const std::string lock_path = target_ + ".lock";
  struct stat held {}, named {};
  if (::fstat(lock_fd_, &held) == 0 && ::lstat(lock_path.c_str(), &named) == 0 &&
      held.st_dev == named.st_dev && held.st_ino == named.st_ino) {
    ::unlink(lock_path.c_str());
  }
  ::close(lock_fd_);  // releases the flock
}

Status StateFile::CheckUnchanged() const {
  if (lock_fd_ < 0) {
    return Status::InvalidArgument(path_ + ": opened without its lock; not written");
  }
  const std::string lock_path = target_ + ".lock";
  struct stat held {}, named {};
  if (::fstat(lock_fd_, &held) != 0 || ::lstat(lock_path.c_str(), &named) != 0 ||
      held.st_dev != named.st_dev || held.st_ino != named.st_ino) {
    return Status::IOError(lock_path + ": the lock file was deleted or replaced while held, so "
                           "another writer may have the file; nothing was written");
  }
  Identity now;
  const int fd = ::open(target_.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0 && errno != ENOENT) return ErrnoError("open", path_);
  if (fd >= 0) {
    struct stat st {};
    std::string contents;
    Status s = ::fstat(fd, &st) == 0 ? Status::OK() : ErrnoError("stat", path_);
    char buf[1 << 16];
    while (s.ok()) {
      const ssize_t n = ::read(fd, buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) s = ErrnoError("read", path_);
      if (n <= 0) break;
      contents.append(buf, static_cast<std::size_t>(n));
    }
    ::close(fd);
    ZS_RETURN_IF_ERROR(s);
    now = IdentityOf(st, contents);
  }
  if (now == identity_) return Status::OK();
  const char* what = !identity_.exists ? "was created"
                     : !now.exists     ? "was deleted"
                     : now.dev != identity_.dev || now.ino != identity_.ino
                         ? "was replaced by another file"
                         : "was modified";
  return Status::IOError(path_ + " " + what + " since it was read, by a writer outside the "
                         "lock; nothing was written (run the command again on the new file)");
}

void StateFile::Reidentify() {
  struct stat st {};
  if (::stat(target_.c_str(), &st) == 0) identity_ = IdentityOf(st, contents_);
}

namespace {
bool g_fail_next_write = false;  // FailNextStateWriteForTesting

Status InjectedFailure(const std::string& path) {
  if (!g_fail_next_write) return Status::OK();
  g_fail_next_write = false;
  return Status::IOError("write " + path + ": injected failure (test)");
}
}  // namespace

void FailNextStateWriteForTesting() { g_fail_next_write = true; }

Status StateFile::Replace(std::string_view contents) {
  ZS_RETURN_IF_ERROR(CheckUnchanged());
  ZS_RETURN_IF_ERROR(InjectedFailure(path_));
  ZS_RETURN_IF_ERROR(WriteOutputFile(target_, contents));
  contents_ = std::string(contents);
  exists_ = true;
  Reidentify();
  return Status::OK();
}

Status StateFile::Remove() {
  ZS_RETURN_IF_ERROR(CheckUnchanged());
  ZS_RETURN_IF_ERROR(InjectedFailure(path_));
  if (::unlink(target_.c_str()) != 0 && errno != ENOENT) return ErrnoError("delete", path_);
  SyncDirOf(target_);
  contents_.clear();
  exists_ = false;
  identity_ = Identity();
  return Status::OK();
}

Result<std::unique_ptr<OutputFile>> OutputFile::Create(const std::string& path) {
  if (IsSpecialFile(path)) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
    if (fd < 0) return ErrnoError("open", path);
    return std::unique_ptr<OutputFile>(new OutputFile(path, "", fd, false));
  }
  std::string tmp = path + ".tmp-XXXXXX";
  if (const int fd = internal::OpenUnnamed(path, O_WRONLY); fd >= 0) {
    return std::unique_ptr<OutputFile>(new OutputFile(path, std::move(tmp), fd, true));
  }
  // No O_TMPFILE here, or an error that creating the named file reports
  // again, with its path.
  const int fd = ::mkstemp(tmp.data());
  if (fd < 0) return ErrnoError("create", tmp);
  if (::fchmod(fd, 0600) != 0) {
    Status s = ErrnoError("chmod", tmp);
    ::close(fd);
    ::unlink(tmp.c_str());
    return s;
  }
  return std::unique_ptr<OutputFile>(new OutputFile(path, std::move(tmp), fd, false));
}

OutputFile::~OutputFile() {
  if (fd_ >= 0) ::close(fd_);
  if (!committed_ && !unnamed_ && !tmp_.empty()) ::unlink(tmp_.c_str());
}

Status OutputFile::Append(std::string_view data) {
  if (!error_.ok()) return error_;
  // Errors name the temp file only once it has a name.
  error_ = WriteAll(fd_, data, tmp_.empty() || unnamed_ ? path_ : tmp_);
  return error_;
}

Status OutputFile::Commit() {
  ZS_RETURN_IF_ERROR(error_);
  const int fd = fd_;
  fd_ = -1;
  if (tmp_.empty()) {  // a device or FIFO: written in place
    if (::close(fd) != 0) return ErrnoError("close", path_);
    committed_ = true;
    return Status::OK();
  }
  if (::fsync(fd) != 0) {
    ::close(fd);
    return ErrnoError("fsync", unnamed_ ? path_ : tmp_);
  }
  if (unnamed_) {
    // Give the unnamed file a fresh temp name (mkstemp's pattern: six
    // letters or digits for the X's), then rename that over the path.
    static constexpr char kChars[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    std::random_device random;
    std::string name;
    for (int attempt = 0;; ++attempt) {
      name = tmp_;
      for (std::size_t i = name.size() - 6; i < name.size(); ++i) {
        name[i] = kChars[random() % (sizeof kChars - 1)];
      }
      if (internal::LinkUnnamed(fd, name) == 0) break;
      if (errno != EEXIST || attempt == 16) {
        Status s = ErrnoError("link", name);
        ::close(fd);
        return s;
      }
    }
    tmp_ = std::move(name);
    unnamed_ = false;  // from here on, a failure removes the name again
  }
  if (::close(fd) != 0) return ErrnoError("close", tmp_);
  if (::rename(tmp_.c_str(), path_.c_str()) != 0) return ErrnoError("rename", tmp_);
  committed_ = true;
  SyncDirOf(path_);
  return Status::OK();
}

Status WriteOutputFile(const std::string& path, std::string_view contents) {
  ZS_ASSIGN_OR_RETURN(std::unique_ptr<OutputFile> file, OutputFile::Create(path));
  ZS_RETURN_IF_ERROR(file->Append(contents));
  return file->Commit();
}

}  // namespace zs::tools
