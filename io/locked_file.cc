#include "io/locked_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <system_error>
#include <vector>

#include "io/internal/posix_file.h"

namespace zs::tools {
namespace {

using internal::ErrnoError;

// A temp file beside `path` holding `contents`, fsynced, mode 0600.
Result<std::string> WriteTempBeside(const std::string& path, std::string_view contents) {
  std::string tmp = path + ".tmp-XXXXXX";
  const int fd = ::mkstemp(tmp.data());
  if (fd < 0) return ErrnoError("create temp file for", path);
  Status s = internal::WriteAll(fd, contents, tmp);
  if (s.ok() && ::fsync(fd) != 0) s = ErrnoError("fsync", tmp);
  ::close(fd);
  if (!s.ok()) {
    ::unlink(tmp.c_str());
    return s;
  }
  return tmp;
}

}  // namespace

Result<std::unique_ptr<MappedFile>> MappedFile::Open(const std::string& path, int fd) {
  std::unique_ptr<MappedFile> m(new MappedFile());
  const bool own = fd < 0;
  if (own) {
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      if (errno == ENOENT) return m;
      return ErrnoError("open", path);
    }
  }
  struct stat st {};
  Status s = ::fstat(fd, &st) == 0 ? Status::OK() : ErrnoError("stat", path);
  if (s.ok() && !S_ISREG(st.st_mode)) s = Status::InvalidArgument(path + ": not a regular file");
  m->exists_ = true;
  if (s.ok() && st.st_size > 0) {
    void* p = ::mmap(nullptr, static_cast<std::size_t>(st.st_size), PROT_READ, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) {
      s = ErrnoError("map", path);
    } else {
      m->data_ = p;
      m->size_ = static_cast<std::size_t>(st.st_size);
    }
  }
  if (own) ::close(fd);
  if (!s.ok()) return s;
  return m;
}

MappedFile::~MappedFile() {
  if (data_ != nullptr) ::munmap(data_, size_);
}

Status LockedFile::LockAndIdentify() {
  ZS_RETURN_IF_ERROR(internal::LockExclusive(fd_, path_));
  struct stat held {};
  if (::fstat(fd_, &held) != 0) return ErrnoError("stat", path_);
  dev_ = static_cast<std::uint64_t>(held.st_dev);
  ino_ = static_cast<std::uint64_t>(held.st_ino);
  return Status::OK();
}

Result<std::unique_ptr<LockedFile>> LockedFile::Open(const std::string& path) {
  for (;;) {
    const int fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
    if (fd < 0) {
      if (errno == ENOENT) return Status::NotFound(path + ": no such file");
      return ErrnoError("open", path);
    }
    std::unique_ptr<LockedFile> f(new LockedFile(path, fd));
    ZS_RETURN_IF_ERROR(f->LockAndIdentify());
    struct stat named {};
    if (::stat(path.c_str(), &named) != 0 || f->dev_ != static_cast<std::uint64_t>(named.st_dev) ||
        f->ino_ != static_cast<std::uint64_t>(named.st_ino)) {
      continue;  // replaced or removed while we waited: lock the file there now
    }
    return f;
  }
}

Result<std::unique_ptr<LockedFile>> LockedFile::CreateWhole(const std::string& path,
                                                           std::string_view contents) {
  int linked = -1;
  int link_errno = 0;
  std::unique_ptr<LockedFile> f;
  const int fd = internal::OpenUnnamed(path, O_RDWR);
  if (fd >= 0) {
    f.reset(new LockedFile(path, fd));
    Status s = internal::WriteAllAt(fd, contents, 0, path);
    if (s.ok() && ::fsync(fd) != 0) s = ErrnoError("fsync", path);
    if (s.ok()) s = f->LockAndIdentify();
    if (!s.ok()) return s;
    linked = internal::LinkUnnamed(fd, path);
    link_errno = errno;
  }
  if (linked != 0 && (fd < 0 || link_errno != EEXIST)) {
    // No O_TMPFILE (or no /proc): a named temp file, locked, linked into place.
    ZS_ASSIGN_OR_RETURN(std::string tmp, WriteTempBeside(path, contents));
    const int tfd = ::open(tmp.c_str(), O_RDWR | O_CLOEXEC);
    if (tfd < 0) {
      Status s = ErrnoError("open", tmp);
      ::unlink(tmp.c_str());
      return s;
    }
    f.reset(new LockedFile(path, tfd));
    Status s = f->LockAndIdentify();
    linked = s.ok() ? ::link(tmp.c_str(), path.c_str()) : -1;
    link_errno = errno;
    ::unlink(tmp.c_str());
    if (!s.ok()) return s;
    // Removed by a writer that cleaned up stray temps: the file exists.
    if (linked != 0 && link_errno == ENOENT) link_errno = EEXIST;
  }
  if (linked != 0) {
    if (link_errno == EEXIST) return std::unique_ptr<LockedFile>();
    errno = link_errno;
    return ErrnoError("create", path);
  }
  internal::SyncDirOf(path);
  return f;
}

Result<std::uint64_t> LockedFile::Size() const {
  struct stat st {};
  if (::fstat(fd_, &st) != 0) return ErrnoError("stat", path_);
  return static_cast<std::uint64_t>(st.st_size);
}

LockedFile::~LockedFile() { ::close(fd_); }

Status LockedFile::WriteAt(std::uint64_t offset, std::string_view data) {
  ZS_RETURN_IF_ERROR(internal::WriteAllAt(fd_, data, offset, path_));
  return ::fsync(fd_) == 0 ? Status::OK() : ErrnoError("fsync", path_);
}

Status LockedFile::Truncate(std::uint64_t size) {
  if (::ftruncate(fd_, static_cast<off_t>(size)) != 0) return ErrnoError("truncate", path_);
  return ::fsync(fd_) == 0 ? Status::OK() : ErrnoError("fsync", path_);
}

void RemoveStrayTemps(const std::string& path) {
  const std::string prefix = path.substr(path.rfind('/') + 1) + ".tmp-";
  std::vector<std::filesystem::path> stray;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(internal::DirOf(path), ec)) {
    const std::string name = e.path().filename().string();
    if (name.size() == prefix.size() + 6 && name.starts_with(prefix)) stray.push_back(e.path());
  }
  for (const std::filesystem::path& p : stray) std::filesystem::remove(p, ec);
}

Status CheckNotDangling(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return Status::OK();
  if (::stat(path.c_str(), &st) == 0 || errno != ENOENT) return Status::OK();
  std::string target(4096, '\0');
  const ssize_t n = ::readlink(path.c_str(), target.data(), target.size());
  target.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
  return Status::InvalidArgument(path + " is a symbolic link to '" + target +
                                 "', which does not exist: create that file, or name the log's file itself");
}

}  // namespace zs::tools
