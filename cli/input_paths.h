// Checks on the input paths a command is given, before anything is read:
// a directory is refused with what to give instead (reading one would fail
// with a bare "read error").
#ifndef ZARF_STATE_CLI_INPUT_PATHS_H_
#define ZARF_STATE_CLI_INPUT_PATHS_H_

#include <string>
#include <vector>

#include "base/status.h"

namespace zs::tools {

// InvalidArgument naming the first of `files` that is a directory, with the
// hint to name its files (`-f DIR/*.json`); OK otherwise ("-" and paths that
// do not exist are left to the reader, which names them).
Status RefuseDirectoryInputs(const std::vector<std::string>& files);

}  // namespace zs::tools

#endif  // ZARF_STATE_CLI_INPUT_PATHS_H_
