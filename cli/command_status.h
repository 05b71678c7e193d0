// What a command's entry point returns, and the one place that turns it into
// the lines on stderr and the exit code.
//
// A command (RunInspect, RunMigrate, ...) returns a CommandStatus:
//   - OK: it did everything; exit kExitOk.
//   - a non-OK Status: it stopped; FinishCommand prints one line
//     "error: <message>" (kubectl's form) and exits kExitUsage when the
//     code is Status::Code::kUsage, kExitSomeFailed otherwise;
//   - FailureReported(): it went on after a failure (one object of many, a
//     difference asked for with --exit-code) and has reported each failure
//     as it happened, through PrintError where it is an error; exit
//     kExitSomeFailed and nothing more is printed.
// A Status converts implicitly, so a command returns one as it comes
// (ZS_RETURN_IF_ERROR and ZS_ASSIGN_OR_RETURN work in its body).
//
// Thread safety: CommandStatus is a value type; PrintError and FinishCommand
// write to the stream they are given and need it to themselves.
#ifndef ZARF_STATE_CLI_COMMAND_STATUS_H_
#define ZARF_STATE_CLI_COMMAND_STATUS_H_

#include <ostream>
#include <string>
#include <string_view>
#include <utility>

#include "base/status.h"
#include "base/terminal_text.h"

namespace zs::tools {

class [[nodiscard]] CommandStatus {
 public:
  CommandStatus() = default;  // OK
  CommandStatus(Status status) : status_(std::move(status)) {}  // NOLINT: implicit by design

  // Failed, and every failure has been printed already: exit
  // kExitSomeFailed, or kExitUsage when `usage` (a usage error reported
  // with more than one line, such as an unknown command and its
  // suggestions).
  static CommandStatus FailureReported(bool usage = false) {
    CommandStatus s;
    s.reported_ = usage ? Reported::kUsage : Reported::kFailure;
    return s;
  }
  // OK, or FailureReported() when `failed`.
  static CommandStatus FailedIf(bool failed) {
    return failed ? FailureReported() : CommandStatus();
  }

  bool ok() const { return status_.ok() && reported_ == Reported::kNone; }
  bool failure_reported() const { return reported_ != Reported::kNone; }
  bool usage_error() const {
    return reported_ == Reported::kUsage || status_.code() == Status::Code::kUsage;
  }
  // The failure still to print; OK when ok() or failure_reported().
  const Status& status() const { return status_; }

 private:
  enum class Reported : unsigned char { kNone, kFailure, kUsage };
  Status status_;
  Reported reported_ = Reported::kNone;
};

// "error: <message>\n": the one spelling of an error line. The message
// goes through TerminalText(message, layout): with the default kValue every
// control character is escaped, line feeds too, so that text from an input
// (a Secret's name) cannot fake a line of its own; kTable keeps line feeds,
// for a message that holds another program's lines, already escaped.
std::string ErrorLine(std::string_view message, Layout layout = Layout::kValue);

// Writes ErrorLine(message, layout) to `err`: how a command reports the
// failure of one item while it goes on with the others.
void PrintError(std::ostream& err, std::string_view message, Layout layout = Layout::kValue);

// The exit code of a command that returned `outcome`, after printing its
// failure, if one is still to print, to `err` (PrintError). main() calls it
// once, after the command ran; tests call it to see what a user sees.
int FinishCommand(const CommandStatus& outcome, std::ostream& err);

}  // namespace zs::tools

#endif  // ZARF_STATE_CLI_COMMAND_STATUS_H_
