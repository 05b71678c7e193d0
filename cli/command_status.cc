#include "cli/command_status.h"

#include "cli/common.h"

namespace zs::tools {

std::string ErrorLine(std::string_view message, Layout layout) {
  return "error: " + TerminalText(message, layout) + "\n";
}

void PrintError(std::ostream& err, std::string_view message, Layout layout) {
  err << ErrorLine(message, layout);
}

int FinishCommand(const CommandStatus& outcome, std::ostream& err) {
  if (outcome.ok()) return kExitOk;
  if (!outcome.failure_reported()) PrintError(err, outcome.status().message());
  return outcome.usage_error() ? kExitUsage : kExitSomeFailed;
}

}  // namespace zs::tools
