// Making a change to a directory durable: after a file is created, renamed
// or removed in a directory, fsync of the directory itself is what puts the
// new entry on disk (fsync of the file does not). The crash-safe files of
// io/ (io/state_file.h, io/locked_file.h) and the cache's creation
// (engine/cache.h) use this one call.
//
// Thread safety: reentrant.
#ifndef ZARF_STATE_IO_SYNC_DIRECTORY_H_
#define ZARF_STATE_IO_SYNC_DIRECTORY_H_

#include <string>

#include "base/status.h"

namespace zs::tools {

// fsyncs the directory `dir` (not the directory holding it). OK once the
// directory's entries are on disk; IOError naming `dir` and the system's
// reason when it cannot be opened as a directory or the fsync fails.
Status SyncDirectory(const std::string& dir);

}  // namespace zs::tools

#endif  // ZARF_STATE_IO_SYNC_DIRECTORY_H_
