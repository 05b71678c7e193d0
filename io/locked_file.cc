#include "engine/internal/log_file.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "json/go_json.h"
#include "json/json_reader.h"

namespace zs::engine::internal {
namespace {

Status IoError(std::string_view what, const std::string& path) {
  return Status::IOError(std::string(what) + " " + path + ": " + std::strerror(errno));
}

Status WriteAllAt(int fd, std::string_view data, std::uint64_t offset, const std::string& path) {
  while (!data.empty()) {
    const ssize_t n = ::pwrite(fd, data.data(), data.size(), static_cast<off_t>(offset));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return IoError("write", path);
    data.remove_prefix(static_cast<std::size_t>(n));
    offset += static_cast<std::uint64_t>(n);
  }
  return Status::OK();
}

void SyncDirOf(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
  const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
}

// A temp file beside `path` holding `contents`, fsynced, mode 0600.
Result<std::string> WriteTempBeside(const std::string& path, std::string_view contents) {
  std::string tmp = path + ".tmp-XXXXXX";
  const int fd = ::mkstemp(tmp.data());
  if (fd < 0) return IoError("create temp file for", path);
  Status s = WriteAllAt(fd, contents, 0, tmp);
  if (s.ok() && ::fsync(fd) != 0) s = IoError("fsync", tmp);
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
      return IoError("open", path);
    }
  }
  struct stat st {};
  Status s = ::fstat(fd, &st) == 0 ? Status::OK() : IoError("stat", path);
  if (s.ok() && !S_ISREG(st.st_mode)) s = Status::InvalidArgument(path + ": not a regular file");
  m->exists_ = true;
  if (s.ok() && st.st_size > 0) {
    void* p = ::mmap(nullptr, static_cast<std::size_t>(st.st_size), PROT_READ, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) {
      s = IoError("map", path);
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
  while (::flock(fd_, LOCK_EX) != 0) {
    if (errno != EINTR) return IoError("lock", path_);
  }
  struct stat held {};
  if (::fstat(fd_, &held) != 0) return IoError("stat", path_);
  dev_ = static_cast<std::uint64_t>(held.st_dev);
  ino_ = static_cast<std::uint64_t>(held.st_ino);
  return Status::OK();
}

Result<std::unique_ptr<LockedFile>> LockedFile::Open(const std::string& path) {
  for (;;) {
    const int fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
    if (fd < 0) {
      if (errno == ENOENT) return Status::NotFound(path + ": no such file");
      return IoError("open", path);
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
  const std::size_t slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
  int linked = -1;
  int link_errno = 0;
  std::unique_ptr<LockedFile> f;
  const int fd = ::open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (fd >= 0) {
    f.reset(new LockedFile(path, fd));
    Status s = WriteAllAt(fd, contents, 0, path);
    if (s.ok() && ::fsync(fd) != 0) s = IoError("fsync", path);
    if (s.ok()) s = f->LockAndIdentify();
    if (!s.ok()) return s;
    const std::string proc = "/proc/self/fd/" + std::to_string(fd);
    linked = ::linkat(AT_FDCWD, proc.c_str(), AT_FDCWD, path.c_str(), AT_SYMLINK_FOLLOW);
    link_errno = errno;
  }
  if (linked != 0 && (fd < 0 || link_errno != EEXIST)) {
    // No O_TMPFILE (or no /proc): a named temp file, locked, linked into place.
    ZS_ASSIGN_OR_RETURN(std::string tmp, WriteTempBeside(path, contents));
    const int tfd = ::open(tmp.c_str(), O_RDWR | O_CLOEXEC);
    if (tfd < 0) {
      Status s = IoError("open", tmp);
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
    return IoError("create", path);
  }
  SyncDirOf(path);
  return f;
}

Result<std::uint64_t> LockedFile::Size() const {
  struct stat st {};
  if (::fstat(fd_, &st) != 0) return IoError("stat", path_);
  return static_cast<std::uint64_t>(st.st_size);
}

LockedFile::~LockedFile() { ::close(fd_); }

Status LockedFile::WriteAt(std::uint64_t offset, std::string_view data) {
  ZS_RETURN_IF_ERROR(WriteAllAt(fd_, data, offset, path_));
  return ::fsync(fd_) == 0 ? Status::OK() : IoError("fsync", path_);
}

Status LockedFile::Truncate(std::uint64_t size) {
  if (::ftruncate(fd_, static_cast<off_t>(size)) != 0) return IoError("truncate", path_);
  return ::fsync(fd_) == 0 ? Status::OK() : IoError("fsync", path_);
}

Status ReplaceFile(const std::string& path, std::string_view contents) {
  ZS_ASSIGN_OR_RETURN(std::string tmp, WriteTempBeside(path, contents));
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    Status s = IoError("rename over", path);
    ::unlink(tmp.c_str());
    return s;
  }
  SyncDirOf(path);
  return Status::OK();
}

void RemoveStrayTemps(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
  const std::string prefix = (slash == std::string::npos ? path : path.substr(slash + 1)) + ".tmp-";
  DIR* d = ::opendir(dir.c_str());
  if (d == nullptr) return;
  std::vector<std::string> stray;
  while (const struct dirent* e = ::readdir(d)) {
    const std::string_view name(e->d_name);
    if (name.size() == prefix.size() + 6 && name.starts_with(prefix)) stray.emplace_back(name);
  }
  ::closedir(d);
  for (const std::string& name : stray) ::unlink((dir + "/" + name).c_str());
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

Result<std::vector<LegacyEntry>> ParseLegacyLog(std::string_view text, const std::string& path) {
  std::vector<LegacyEntry> out;
  std::size_t line_no = 0;
  while (!text.empty()) {
    const std::size_t nl = text.find('\n');
    // A last line without its newline is the torn tail of an append a kill
    // interrupted; it was never acknowledged.
    if (nl == std::string_view::npos) break;
    const std::string_view line = text.substr(0, nl);
    text.remove_prefix(nl + 1);
    ++line_no;
    if (line.empty()) continue;
    const std::string where = path + ":" + std::to_string(line_no);
    auto v = json::ParseJson(line);
    if (!v.ok()) return v.status().WithContext(where);
    const json::Value* pkg = v->Find("package");
    const json::Value* rec = v->Find("record");
    if (pkg == nullptr || !pkg->is_string() || rec == nullptr || !rec->is_object()) {
      return Status::Corruption(where + ": a log line needs \"package\" and \"record\"");
    }
    auto r = DecodeRecord(*json::WriteJson(*rec));
    if (r.status().code() == Status::Code::kNotFound) continue;  // skippable kind
    if (!r.ok()) return r.status().WithContext(where);
    out.push_back({pkg->as_string(), std::move(r).value()});
  }
  return out;
}

}  // namespace zs::engine::internal
