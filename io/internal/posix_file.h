// The POSIX calls behind io/'s crash-safe files (io/state_file.h,
// io/locked_file.h), written once: errors, whole writes, the exclusive
// lock, the directory sync after a rename, and unnamed temp files.
// Internal to io/.
//
// Thread safety: reentrant, except that UseNamedTempFilesForTesting
// (io/state_file.h) must be set before any file is written.
#ifndef ZARF_STATE_IO_INTERNAL_POSIX_FILE_H_
#define ZARF_STATE_IO_INTERNAL_POSIX_FILE_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "base/status.h"

namespace zs::tools::internal {

// IOError "<what> <path>: <strerror(errno)>".
Status ErrnoError(std::string_view what, const std::string& path);

// Writes all of `data` to `fd` (at its offset, or at `offset` with pwrite),
// retrying after a signal. IOError naming `path`.
Status WriteAll(int fd, std::string_view data, const std::string& path);
Status WriteAllAt(int fd, std::string_view data, std::uint64_t offset, const std::string& path);

// flock(LOCK_EX) on `fd`, retried when a signal interrupts it.
Status LockExclusive(int fd, const std::string& path);

// The directory holding `path` ("." for a bare name).
std::string DirOf(const std::string& path);

// fsyncs the directory holding `path` (io/sync_directory.h), so that a
// rename or unlink just done in it is durable. Best effort: the change is
// made whether or not its directory syncs, and a failure here must not tell
// the caller it was not.
void SyncDirOf(const std::string& path);

// An unnamed file (O_TMPFILE, mode 0600) in the directory of `path`, open
// with `access` (O_WRONLY or O_RDWR); -1 where the filesystem has no
// O_TMPFILE or /proc is not mounted (LinkUnnamed names the file through
// /proc: linkat with AT_EMPTY_PATH would need a capability), and under
// UseNamedTempFilesForTesting. A kill before it is named leaves nothing.
int OpenUnnamed(const std::string& path, int access);

// Gives the unnamed file `fd` the name `name`; fails with EEXIST, as link
// does, when the name is taken. -1 and errno on failure.
int LinkUnnamed(int fd, const std::string& name);

}  // namespace zs::tools::internal

#endif  // ZARF_STATE_IO_INTERNAL_POSIX_FILE_H_
