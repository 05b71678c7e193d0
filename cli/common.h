// Shared plumbing of the zarf-state subcommands: exit codes, the global
// limit flags, visiting the objects of the inputs, --now, the cache
// directory and refusing a terminal as input. (Reading inputs:
// kube/input.h; standard output: io/standard_output.h; credentials:
// model/credentials.h.)
//
// Thread safety: not thread-safe (writes to the process's stdout/stderr).
#ifndef ZARF_STATE_CLI_COMMON_H_
#define ZARF_STATE_CLI_COMMON_H_

#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "json/json_value.h"
#include "kube/secret.h"
#include "base/status.h"
#include "model/timestamp.h"
#include "engine/cache.h"
#include "engine/config_diff.h"

namespace CLI {
class App;
}

namespace zs::tools {

// Exit codes of every subcommand (docs/model.md section 8).
inline constexpr int kExitOk = 0;
inline constexpr int kExitSomeFailed = 1;
inline constexpr int kExitUsage = 2;

// Adds --max-object-size and --max-depth to `app` (and lets them follow the
// subcommand's name).
void RegisterLimitFlags(CLI::App* app);

// Writes what `input`, read from `file` ("-": stdin), skipped
// (Input::skipped) to `err`: one note, SkippedSummary (cli/notes.h), by
// reason. Nothing when nothing was skipped or under -q. Skipping does not
// fail a command.
void ReportSkipped(const Input& input, std::string_view file, std::ostream& err);

// Reads each file ("-": stdin; none: stdin) and calls `visit` for each usable
// object in it. A file that cannot be read, an object that cannot be used,
// and a non-OK Status from `visit` each print one error line on `err`
// (PrintError, cli/command_status.h) naming the object; the other objects are still visited. Secrets skipped as
// not Zarf state are listed (ReportSkipped). Returns whether anything failed.
bool ForEachObject(const std::vector<std::string>& files, std::ostream& err,
                   const std::function<Status(const InputObject&)>& visit);

// The time ages are computed from: `now` (RFC 3339) or, when empty, the
// system clock. InvalidArgument naming --now for a malformed time.
Result<Timestamp> ParseNow(const std::string& now);

// The cache directory when --db is not given: $ZARF_STATE_DB, else
// $XDG_CACHE_HOME/zarf-state, else $HOME/.cache/zarf-state (else
// ".zarf-state-cache" when neither variable is set).
std::string DefaultCacheDir();

// Adds `--db DIR` to `cmd`, defaulting to DefaultCacheDir() (shown in help).
void AddCacheDirOption(CLI::App* cmd, std::string* dir, const std::string& what);

// engine::FormatChanges(changes) for a terminal: each change on one line,
// its control characters (line feeds in a key included) escaped as
// TerminalText escapes them (base/terminal_text.h).
std::string TerminalChanges(const std::vector<engine::ConfigChange>& changes);

// Opens the local cache in `dir` for queries (read-only, never created).
// NotFound with the command that creates one when `dir` holds no cache.
Result<std::unique_ptr<engine::Cache>> OpenCacheReadOnly(const std::string& dir);

// Whether `files` would read standard input (no file, or "-") while it is a
// terminal: a command would then wait silently for text nobody is typing.
// InvalidArgument with a hint; OK otherwise.
Status RefuseTerminalStdin(const std::vector<std::string>& files, std::string_view command);
// The check above, and RefuseDirectoryInputs (cli/input_paths.h), as a
// command's callback makes them: OK, or a Usage status saying why not.
Status InputIsUsable(const std::vector<std::string>& files, std::string_view command);

}  // namespace zs::tools

#endif  // ZARF_STATE_CLI_COMMON_H_
