#include "engine/internal/log_file.h"

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

Result<std::unique_ptr<LockedFile>> LockedFile::Open(const std::string& path) {
  for (;;) {
    const int fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
    if (fd < 0) {
      if (errno == ENOENT) return Status::NotFound(path + ": no such file");
      return IoError("open", path);
    }
    std::unique_ptr<LockedFile> f(new LockedFile(path, fd));
    while (::flock(fd, LOCK_EX) != 0) {
      if (errno != EINTR) return IoError("lock", path);
    }
    struct stat held {}, named {};
    if (::fstat(fd, &held) != 0) return IoError("stat", path);
    if (::stat(path.c_str(), &named) != 0 || held.st_dev != named.st_dev ||
        held.st_ino != named.st_ino) {
      continue;  // replaced while we waited: lock the file there now
    }
    f->dev_ = static_cast<std::uint64_t>(held.st_dev);
    f->ino_ = static_cast<std::uint64_t>(held.st_ino);
    return f;
  }
}

Result<bool> CreateWhole(const std::string& path, std::string_view contents, struct stat* st) {
  const std::size_t slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
  int linked = -1;
  const int fd = ::open(dir.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
  if (fd >= 0) {
    Status s = WriteAllAt(fd, contents, 0, path);
    if (s.ok() && ::fsync(fd) != 0) s = IoError("fsync", path);
    const std::string proc = "/proc/self/fd/" + std::to_string(fd);
    if (s.ok()) linked = ::linkat(AT_FDCWD, proc.c_str(), AT_FDCWD, path.c_str(), AT_SYMLINK_FOLLOW);
    const int link_errno = errno;
    ::close(fd);
    if (!s.ok()) return s;
    errno = link_errno;
  }
  if (linked != 0 && (fd < 0 || errno != EEXIST)) {
    // No O_TMPFILE (or no /proc): a named temp file, linked into place.
    ZS_ASSIGN_OR_RETURN(std::string tmp, WriteTempBeside(path, contents));
    linked = ::link(tmp.c_str(), path.c_str());
    const int link_errno = errno;
    ::unlink(tmp.c_str());
    errno = link_errno;
  }
  if (linked != 0) {
    if (errno == EEXIST) return false;
    return IoError("create", path);
  }
  SyncDirOf(path);
  if (::stat(path.c_str(), st) != 0) return IoError("stat", path);
  return true;
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
