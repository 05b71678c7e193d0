#include "cli/progress.h"

#include <CLI/CLI.hpp>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <utility>

#include "cli/notes.h"
#include "base/terminal_text.h"

namespace zs::tools {

namespace {

constexpr auto kQuietPeriod = std::chrono::seconds(1);
constexpr auto kRedrawPeriod = std::chrono::milliseconds(250);
// Back to the start of the line, erase it (a terminal's CR and EL).
constexpr std::string_view kErase = "\r\x1b[K";

}  // namespace

// What other code writes to the stream passes through, after erasing the
// progress line if it shows.
class Progress::ErasingBuf : public std::streambuf {
 public:
  ErasingBuf(std::streambuf* target, bool* drawn) : target_(target), drawn_(drawn) {}

 protected:
  int_type overflow(int_type c) override {
    if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
    Erase();
    return target_->sputc(traits_type::to_char_type(c));
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    Erase();
    return target_->sputn(s, n);
  }
  int sync() override { return target_->pubsync(); }

 private:
  void Erase() {
    if (!*drawn_) return;
    target_->sputn(kErase.data(), static_cast<std::streamsize>(kErase.size()));
    *drawn_ = false;
  }
  std::streambuf* target_;
  bool* drawn_;
};

bool ProgressWanted(bool quiet) { return !quiet && ::isatty(STDERR_FILENO) != 0; }

void AddQuietFlag(CLI::App* cmd, bool* quiet) {
  cmd->add_flag_function(
      "-q,--quiet",
      [quiet](std::int64_t count) {
        *quiet = count > 0;
        SetNotesQuiet(*quiet);
      },
      "No progress line and no notes (skipped Secrets) on stderr");
}

std::string FormatElapsed(double seconds) {
  char buf[48];
  if (seconds < 0) seconds = 0;
  if (seconds < 1) {
    std::snprintf(buf, sizeof buf, "%dms", static_cast<int>(seconds * 1000 + 0.5));
  } else if (seconds < 10) {
    std::snprintf(buf, sizeof buf, "%.1fs", seconds);
  } else if (seconds < 60) {
    std::snprintf(buf, sizeof buf, "%ds", static_cast<int>(seconds + 0.5));
  } else if (seconds < 3600) {
    const long s = static_cast<long>(seconds + 0.5);
    std::snprintf(buf, sizeof buf, "%ldm%02lds", s / 60, s % 60);
  } else {
    const long m = static_cast<long>(seconds / 60 + 0.5);
    std::snprintf(buf, sizeof buf, "%ldh%02ldm", m / 60, m % 60);
  }
  return buf;
}

Progress::Progress(std::ostream& err, std::string what, bool enabled)
    : err_(err),
      what_(TerminalText(what)),
      enabled_(enabled),
      start_(std::chrono::steady_clock::now()),
      last_draw_(start_) {
  if (!enabled_) return;
  target_ = err_.rdbuf();
  erasing_ = std::make_unique<ErasingBuf>(target_, &drawn_);
  err_.rdbuf(erasing_.get());
}

Progress::~Progress() {
  Finish();
  if (target_ != nullptr) err_.rdbuf(target_);
}

bool Progress::Due() {
  if (!enabled_) return false;
  const auto now = std::chrono::steady_clock::now();
  if (now - start_ < kQuietPeriod || (drawn_ && now - last_draw_ < kRedrawPeriod)) return false;
  last_draw_ = now;
  return true;
}

void Progress::Draw(const std::string& text) {
  const double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  // Whole seconds while under a minute: the line changes once a second.
  const std::string elapsed =
      secs < 60 ? std::to_string(static_cast<int>(secs)) + "s" : FormatElapsed(secs);
  const std::string line = std::string(kErase) + what_ + ": " + text + " (" + elapsed + ")";
  target_->sputn(line.data(), static_cast<std::streamsize>(line.size()));
  target_->pubsync();
  drawn_ = true;
}

std::string ProgressCount(std::size_t done, std::size_t total, std::string_view unit) {
  return std::to_string(done) + (total > 0 ? "/" + std::to_string(total) : "") + " " +
         std::string(unit);
}

std::string ProgressTitle(std::string_view command, const std::string& file,
                          const std::vector<std::string>& files) {
  std::string title = std::string(command) + " " + file;
  for (std::size_t i = 0; files.size() > 1 && i < files.size(); ++i) {
    if (&files[i] != &file) continue;
    title += " (file " + std::to_string(i + 1) + "/" + std::to_string(files.size()) + ")";
    break;
  }
  return title;
}

void Progress::Update(std::size_t done, std::string_view unit, std::size_t total) {
  if (!Due()) return;
  Draw(ProgressCount(done, total, unit));
}

void Progress::Stage(std::string_view stage) {
  // Stages are few and each may last long: drawn at once.
  if (!enabled_) return;
  last_draw_ = std::chrono::steady_clock::now();
  Draw(TerminalText(stage));
}

void Progress::Finish() {
  if (!drawn_) return;
  target_->sputn(kErase.data(), static_cast<std::streamsize>(kErase.size()));
  target_->pubsync();
  drawn_ = false;
}

}  // namespace zs::tools
