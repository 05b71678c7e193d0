// What users expect of any command line, for the zarf-state app: the
// `version` and `help [COMMAND...]` subcommands, an "Examples:" section at
// the end of every command's --help, the program's name (`zarf-state`, or
// `kubectl zarf-state` when run as the kubectl plugin `kubectl-zarf_state`)
// and "did you mean" for a mistyped subcommand (docs/cli.md).
//
// Thread safety: not thread-safe (registers on and prints for one app).
#ifndef ZARF_STATE_CLI_CLI_BASICS_H_
#define ZARF_STATE_CLI_CLI_BASICS_H_

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "cli/command_status.h"

namespace CLI {
class App;
class ParseError;
}  // namespace CLI

namespace zs::tools {

// The name help texts give the program: "kubectl zarf-state" when `argv0`'s
// file name is the plugin's, `kubectl-zarf_state`; otherwise "zarf-state".
std::string ProgramName(std::string_view argv0);

// Names the app ProgramName(argv0), adds `version` and `help` and gives
// every command (nested ones too) its Examples footer (ExamplesFor) unless
// it set a footer of its own. Call after every other subcommand is
// registered. The callbacks store their outcome in `*outcome`.
void RegisterCliBasics(CLI::App* app, std::string_view argv0, CommandStatus* outcome);

// The examples of the command at `path` ("inspect", "record deploy"): lines
// without the heading, or "" for a command that has none.
std::string_view ExamplesFor(std::string_view path);

// `zarf-state version`: version, git commit, build type and the compact
// codec's dictionary ids, as a table or (`output` "json") one JSON object.
// OK, or a Usage status for another `output`.
CommandStatus RunVersion(const std::string& output, std::ostream& out);

// Levenshtein distance between `a` and `b`, case-insensitive (ASCII).
std::size_t EditDistance(std::string_view a, std::string_view b);

// The names of `candidates` a user who typed `typed` probably meant: at an
// edit distance of at most 2, or starting with `typed`; closest first,
// then by name.
std::vector<std::string> Suggestions(std::string_view typed,
                                     const std::vector<std::string>& candidates);

// The exit code for a parse error of `app` (main's catch), after printing
// what to print: for a word where a subcommand was expected, "error:
// unknown command 'WORD' for 'PROGRAM'", the suggestions ("Did you mean
// this?") and where help is, to `err`, and kExitUsage; no subcommand where
// one is needed (`zarf-state` alone): that command's help on `out`, and
// kExitOk; help and --version: kExitOk; any other error in kubectl's words
// (KubectlStyleParseError, cli/cli_messages.h) on `err`, and kExitUsage.
int ExitForParseError(const CLI::App& app, const CLI::ParseError& error, std::ostream& out,
                      std::ostream& err);

}  // namespace zs::tools

#endif  // ZARF_STATE_CLI_CLI_BASICS_H_
