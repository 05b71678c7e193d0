#include "io/internal/posix_file.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "io/state_file.h"
#include "io/sync_directory.h"

namespace zs::tools {
namespace {

bool g_named_temps_only = false;  // UseNamedTempFilesForTesting

}  // namespace

void UseNamedTempFilesForTesting(bool on) { g_named_temps_only = on; }

namespace internal {

Status ErrnoError(std::string_view what, const std::string& path) {
  return Status::IOError(std::string(what) + " " + path + ": " + std::strerror(errno));
}

Status WriteAll(int fd, std::string_view data, const std::string& path) {
  while (!data.empty()) {
    const ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return ErrnoError("write", path);
    }
    data.remove_prefix(static_cast<std::size_t>(n));
  }
  return Status::OK();
}

Status WriteAllAt(int fd, std::string_view data, std::uint64_t offset, const std::string& path) {
  while (!data.empty()) {
    const ssize_t n = ::pwrite(fd, data.data(), data.size(), static_cast<off_t>(offset));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return ErrnoError("write", path);
    data.remove_prefix(static_cast<std::size_t>(n));
    offset += static_cast<std::uint64_t>(n);
  }
  return Status::OK();
}

Status LockExclusive(int fd, const std::string& path) {
  while (::flock(fd, LOCK_EX) != 0) {
    if (errno != EINTR) return ErrnoError("lock", path);
  }
  return Status::OK();
}

std::string DirOf(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

void SyncDirOf(const std::string& path) { (void)SyncDirectory(DirOf(path)); }

int OpenUnnamed(const std::string& path, int access) {
  if (g_named_temps_only || ::access("/proc/self/fd", X_OK) != 0) return -1;
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  const std::string dir = parent.empty() ? "." : parent.string();
  const int fd = ::open(dir.c_str(), O_TMPFILE | access | O_CLOEXEC, 0600);
  if (fd >= 0 && ::fchmod(fd, 0600) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

int LinkUnnamed(int fd, const std::string& name) {
  const std::string proc = "/proc/self/fd/" + std::to_string(fd);
  return ::linkat(AT_FDCWD, proc.c_str(), AT_FDCWD, name.c_str(), AT_SYMLINK_FOLLOW);
}

}  // namespace internal
}  // namespace zs::tools
