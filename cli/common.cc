#include "cli/common.h"

#include <CLI/CLI.hpp>

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "cli/command_status.h"
#include "cli/input_paths.h"
#include "cli/notes.h"
#include "base/terminal_text.h"
#include "kube/input.h"

namespace zs::tools {

void RegisterLimitFlags(CLI::App* app) {
  ReadLimits& limits = MutableReadLimits();
  app->add_option(std::string(kMaxObjectSizeFlag), limits.max_bytes,
                  "Largest input file or document read, in bytes (default 268435456)")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1} << 40));
  app->add_option(std::string(kMaxDepthFlag), limits.max_depth,
                  "Deepest JSON/YAML nesting accepted (default 512, at most 1024)")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1024}));
  app->fallthrough();
}

void ReportSkipped(const Input& input, std::string_view file, std::ostream& err) {
  if (input.skipped.empty() || NotesQuiet()) return;
  err << SkippedSummary(file == "-" ? "<stdin>" : file, input.skipped) << "\n";
}

bool ForEachObject(const std::vector<std::string>& files, std::ostream& err,
                   const std::function<Status(const InputObject&)>& visit) {
  bool failed = false;
  const std::vector<std::string> stdin_only{"-"};
  for (const std::string& file : files.empty() ? stdin_only : files) {
    auto text = ReadInputText(file);
    ReadLimits limits = CurrentReadLimits();
    if (text.ok()) limits.readable_padding = text->readable_padding();  // parsed in place
    auto input = text.ok() ? ReadInput(text->text(), file == "-" ? "<stdin>" : file, limits)
                           : Result<Input>(text.status());
    if (!input.ok()) input = WithLimitHint(input.status());
    if (!input.ok()) {
      PrintError(err, input.status().message());
      failed = true;
      continue;
    }
    ReportSkipped(*input, file, err);
    for (const InputObject& in : input->objects) {
      Status s = in.error.ok() ? visit(in) : in.error;
      if (!s.ok()) {
        const std::string object = in.error.ok() ? in.label + ": " : "";
        PrintError(err, object + std::string(s.message()));
        failed = true;
      }
    }
  }
  return failed;
}

Result<Timestamp> ParseNow(const std::string& now) {
  if (now.empty()) return Timestamp::Now();
  auto t = ParseRfc3339(now);
  if (!t.ok()) return t.status().WithContext("--now");
  return t;
}

std::string DefaultCacheDir() {
  auto env = [](const char* name) -> std::string {
    const char* v = std::getenv(name);
    return v == nullptr ? std::string() : std::string(v);
  };
  if (std::string db = env("ZARF_STATE_DB"); !db.empty()) return db;
  if (std::string xdg = env("XDG_CACHE_HOME"); !xdg.empty()) return xdg + "/zarf-state";
  if (std::string home = env("HOME"); !home.empty()) return home + "/.cache/zarf-state";
  return ".zarf-state-cache";
}

void AddCacheDirOption(CLI::App* cmd, std::string* dir, const std::string& what) {
  *dir = DefaultCacheDir();
  cmd->add_option("--db", *dir, what + " (default: $ZARF_STATE_DB, else $XDG_CACHE_HOME/zarf-state)")
      ->capture_default_str();
}

std::string TerminalChanges(const std::vector<engine::ConfigChange>& changes) {
  std::string out;
  for (const engine::ConfigChange& c : changes) {
    std::string line = engine::FormatChanges({c});
    if (!line.empty() && line.back() == '\n') line.pop_back();
    out += TerminalText(line);
    out += '\n';
  }
  return out;
}

Result<std::unique_ptr<engine::Cache>> OpenCacheReadOnly(const std::string& dir) {
  std::error_code ec;
  if (!std::filesystem::exists(std::filesystem::path(dir) / "CURRENT", ec)) {
    const bool exists = std::filesystem::exists(dir, ec);
    return Status::NotFound("cache " + dir + ": " +
                            (exists ? "holds no zarf-state cache" : "does not exist") +
                            "; create it with: zarf-state ingest --db " + dir + " -f SECRETS");
  }
  engine::CacheOptions options;
  options.create_if_missing = false;
  options.read_only = true;
  return engine::OpenCache(dir, options);
}

Status RefuseTerminalStdin(const std::vector<std::string>& files, std::string_view command) {
  const bool reads_stdin =
      files.empty() || std::find(files.begin(), files.end(), "-") != files.end();
  if (!reads_stdin || ::isatty(STDIN_FILENO) == 0) return Status::OK();
  return Status::InvalidArgument(
      std::string(command) +
      ": standard input is a terminal; give the Secrets with -f FILE, or pipe them in "
      "(kubectl get secrets -n zarf -o json | zarf-state " + std::string(command) + ")");
}

Status InputIsUsable(const std::vector<std::string>& files, std::string_view command) {
  Status s = RefuseTerminalStdin(files, command);
  if (s.ok()) s = RefuseDirectoryInputs(files);
  return s.ok() ? s : Status::Usage(s.message());
}

}  // namespace zs::tools
