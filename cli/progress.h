// The one progress line of the command line: work that may run for seconds
// (ingest, migrate, size, bench growth, verify) reports how far it is on
// stderr, so that a long run is never silent on a terminal, and never
// writes progress into a log or a pipe.
//
// The line appears only when enabled (stderr is a terminal and --quiet was
// not given) and only once the work has run for a second; it is redrawn in
// place at most four times a second. Anything else written to the stream
// while the line shows (an error, a warning) first erases it, and the next
// update draws it again below; when the work ends the line is erased.
//
// Thread safety: not thread-safe; one Progress per command.
#ifndef ZARF_STATE_CLI_PROGRESS_H_
#define ZARF_STATE_CLI_PROGRESS_H_

#include <chrono>
#include <cstddef>
#include <memory>
#include <ostream>
#include <streambuf>
#include <string>
#include <string_view>
#include <vector>

namespace CLI {
class App;
}

namespace zs::tools {

// Whether a command shows progress: stderr is a terminal and not `quiet`.
bool ProgressWanted(bool quiet);

// A measured run time as people read it: "850ms", "1.2s", "42s", "3m05s",
// "2h10m" (fixed-width minutes and seconds, so a running clock does not
// jump). Not for ages, which read as kubectl's (FormatAge, model/timestamp.h).
std::string FormatElapsed(double seconds);

// A count as the progress line shows it: "12 Secrets", or "12/40 Secrets"
// when the total is known (`total` > 0).
std::string ProgressCount(std::size_t done, std::size_t total, std::string_view unit);

// What a progress line over one of several input files starts with:
// "ingest a.json", or "ingest a.json (file 2/3)" when `file` is element
// `index` of `files` and there are more than one.
std::string ProgressTitle(std::string_view command, const std::string& file,
                          const std::vector<std::string>& files);

// Adds `-q,--quiet` to `cmd`: no progress line, and no notes (SetNotesQuiet,
// cli/notes.h), on stderr.
void AddQuietFlag(CLI::App* cmd, bool* quiet);

class Progress {
 public:
  // `what` starts the line ("ingest list.json"); nothing is printed when
  // not `enabled`.
  Progress(std::ostream& err, std::string what, bool enabled);
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;
  ~Progress();

  // `done` items of `unit` so far ("Secrets"); cheap when not redrawn.
  // Drawn "12 Secrets" when the total is unknown (a streamed List), and
  // "12/40 Secrets" with the `total` known (0: unknown).
  void Update(std::size_t done, std::string_view unit, std::size_t total = 0);
  // A stage of work without a count ("searching ... with compact"), drawn
  // at once: stages are few and each may last long.
  void Stage(std::string_view stage);
  // Erases the line if one shows. Idempotent; later updates draw again.
  void Finish();

 private:
  class ErasingBuf;
  bool Due();
  void Draw(const std::string& text);

  std::ostream& err_;
  std::streambuf* target_ = nullptr;       // err_'s own buffer while enabled
  std::unique_ptr<ErasingBuf> erasing_;    // err_'s buffer while enabled
  std::string what_;
  bool enabled_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_draw_;
};

}  // namespace zs::tools

#endif  // ZARF_STATE_CLI_PROGRESS_H_
