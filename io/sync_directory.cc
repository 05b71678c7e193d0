#include "io/sync_directory.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace zs::tools {

Status SyncDirectory(const std::string& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) {
    return Status::IOError("cannot open " + dir + " to sync it: " + std::strerror(errno));
  }
  const bool synced = ::fsync(fd) == 0;
  const int error = errno;
  ::close(fd);
  if (!synced) return Status::IOError("cannot sync " + dir + ": " + std::strerror(error));
  return Status::OK();
}

}  // namespace zs::tools
