// Shared plumbing of the zarf-state subcommands: reading `-f FILE|-`,
// exit codes, opening the cache. (Credentials: model/credentials.h.)
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

// Limits on every input the commands read: the global flags
// --max-object-size and --max-depth (RegisterLimitFlags) write them while
// the command line is parsed, before any subcommand runs; in-process callers
// (tests) get the defaults of ReadLimits.
ReadLimits& MutableReadLimits();
inline const ReadLimits& CurrentReadLimits() { return MutableReadLimits(); }

// The global flags that take a value (RegisterLimitFlags).
inline constexpr std::string_view kMaxObjectSizeFlag = "--max-object-size";
inline constexpr std::string_view kMaxDepthFlag = "--max-depth";

// Adds --max-object-size and --max-depth to `app` (and lets them follow the
// subcommand's name).
void RegisterLimitFlags(CLI::App* app);

// Appends which flag raises the limit to a status that reports one.
Status WithLimitHint(Status status);

// Input the process fetched itself (the cluster's Secrets,
// cli/cluster_input.h), under a name that is not a file's: the next
// ReadFileOrStdin or ReadInputText of `name` returns `text` (moved out, so
// once) instead of opening a file, and errors and reports call the input
// `name`.
void ProvideInput(const std::string& name, std::string text);

// The whole of a file or of standard input ("-"), read one way for every
// command, with at least 64 readable bytes after the text so that the JSON
// parser works on it in place (ReadLimits::readable_padding):
//   - a regular file (standard input redirected from one included) is
//     mapped read-only and populated: its pages come from the page cache,
//     where a copy would first have the kernel hand out and zero as many
//     fresh pages, and nothing is copied;
//   - anything else (a pipe, a FIFO, a terminal) is read into an anonymous
//     mapping that grows in place (io/bounded_read.h) and is kept there.
// IOError naming the path; InvalidArgument for more than
// CurrentReadLimits().max_bytes: a regular file before it is read, a stream
// as soon as one byte over has arrived (peak memory stays near the limit).
// A mapped file must not be truncated while the command runs (reading a
// page it no longer has raises SIGBUS); nothing writes to it.
class InputText {
 public:
  InputText() = default;
  InputText(InputText&& other) noexcept;
  InputText& operator=(InputText&& other) noexcept;
  InputText(const InputText&) = delete;
  InputText& operator=(const InputText&) = delete;
  ~InputText();

  std::string_view text() const { return map_ ? std::string_view(map_, size_) : copy_; }
  // Bytes after text() that may be read.
  std::size_t readable_padding() const {
    return map_ ? map_bytes_ - size_ : copy_.capacity() - copy_.size();
  }

 private:
  friend Result<InputText> ReadInputText(const std::string& path);
  friend Result<std::string> ReadFileOrStdin(const std::string& path);
  std::string copy_;
  char* map_ = nullptr;
  std::size_t map_bytes_ = 0;  // the mapping's length: size_ and the padding
  std::size_t size_ = 0;
};
Result<InputText> ReadInputText(const std::string& path);

// ReadInputText's text as a string, for the small documents (a package
// definition, a config, a CSV) whose readers keep or edit it: the same
// read, limit and errors, then one copy.
Result<std::string> ReadFileOrStdin(const std::string& path);

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

// Reads one JSON or YAML document (a package definition, a config) from a
// file or "-". InvalidArgument when the file holds several documents.
Result<json::Value> ReadDocument(const std::string& path);
// The same for a text already read from `path` (named in errors).
Result<json::Value> ParseDocument(const std::string& text, const std::string& path);

// The time ages are computed from: `now` (RFC 3339) or, when empty, the
// system clock. InvalidArgument naming --now for a malformed time.
Result<Timestamp> ParseNow(const std::string& now);

// Gives std::cout a buffer that writes to descriptor 1 and keeps the first
// write error with its reason, for FlushOutput and CloseStandardOutput to
// report, and gives a descriptor 0-2 the process lacks /dev/null opened
// read-only (writes to it fail, as to the missing one; no file opened later
// takes its number). main() calls it first; nothing may write to stdout
// through C stdio after that (the two buffers would interleave).
void UseCheckedStandardOutput();

// Flushes `out` and says whether everything written to it arrived: OK, or
// IOError "<what>: write failed[: <reason>]" once any write to it failed
// (a full disk, /dev/full, a file size limit). For std::cout the C stdio
// buffer behind it is checked too. Commands call it before they report
// success, so that a cut output is never an exit 0.
Status FlushOutput(std::ostream& out, std::string_view what);

// Flushes and closes the process's standard output (std::cout, stdio and
// descriptor 1): the last check of what a command printed, made by main()
// after every command. IOError "standard output: write failed: <reason>"
// when a write failed or the close reports an error (NFS reports some only
// then). A failure FlushOutput already returned for std::cout is not
// returned again (the command has reported it).
Status CloseStandardOutput();

// The cache directory when --db is not given: $ZARF_STATE_DB, else
// $XDG_CACHE_HOME/zarf-state, else $HOME/.cache/zarf-state (else
// ".zarf-state-cache" when neither variable is set).
std::string DefaultCacheDir();

// Adds `--db DIR` to `cmd`, defaulting to DefaultCacheDir() (shown in help).
void AddCacheDirOption(CLI::App* cmd, std::string* dir, const std::string& what);

// engine::FormatChanges(changes) for a terminal: each change on one line,
// its control characters (line feeds in a key included) escaped as
// TerminalText escapes them (cli/terminal_text.h).
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
