// `zarf-state completion bash|zsh|fish`: prints the shell completion script
// for zarf-state (and its kubectl plugin name, kubectl-zarf_state). The
// scripts are the files of packaging/completions/, embedded at build time, so
// what `cmake --install` puts under share/ and what this command prints are
// the same bytes:
//   source <(zarf-state completion bash)
//   source <(zarf-state completion zsh)      # after compinit
//   zarf-state completion fish | source
//
// Thread safety: the functions keep no state; the scripts are constants.
#ifndef ZARF_STATE_CLI_COMPLETION_CMD_H_
#define ZARF_STATE_CLI_COMPLETION_CMD_H_

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "cli/command_status.h"

namespace CLI {
class App;
}

namespace zs::tools {

// The shells there is a script for, in the order help text lists them.
const std::vector<std::string>& CompletionShells();

// The completion script for `shell` ("bash", "zsh" or "fish"); an empty view
// for any other name. The view points at static storage.
std::string_view CompletionScript(std::string_view shell);

// Prints the script for `shell` on `out`. Returns OK, a Usage status for a
// shell with no script (naming it and the choices), or IOError when `out`
// could not be written.
CommandStatus RunCompletion(const std::string& shell, std::ostream& out);

// Adds the `completion SHELL` subcommand to `app`; its outcome goes to
// *outcome, which must outlive the parse.
void RegisterCompletion(CLI::App* app, CommandStatus* outcome);

}  // namespace zs::tools

#endif  // ZARF_STATE_CLI_COMPLETION_CMD_H_
