// What `zarf-state version` says about the build itself. Defined in a source
// generated at build time (cli/build_info.cmake), which is rewritten only
// when the values change.
//
// Thread safety: the functions return constants.
#ifndef ZARF_STATE_CLI_BUILD_INFO_H_
#define ZARF_STATE_CLI_BUILD_INFO_H_

#include <string_view>

namespace zs::tools {

// The source's git commit (12 hex digits, "-dirty" when tracked files
// differed from it), or "unknown" when built outside a git checkout.
std::string_view GitCommit();

// CMAKE_BUILD_TYPE (or the configuration) the binary was built with:
// "Release", "Debug", ...; "unspecified" when none was set.
std::string_view BuildType();

}  // namespace zs::tools

#endif  // ZARF_STATE_CLI_BUILD_INFO_H_
