#include "cli/notes.h"

#include <algorithm>
#include <map>
#include <utility>

#include "base/terminal_text.h"

namespace zs::tools {
namespace {

bool quiet_notes = false;

constexpr std::string_view kSkippedPrefix = "skipped ";
constexpr std::string_view kSkippedMark = " that are not Zarf state: ";
constexpr std::string_view kSkippedMarkOne = " that is not Zarf state: ";

}  // namespace

void SetNotesQuiet(bool quiet) { quiet_notes = quiet; }
bool NotesQuiet() { return quiet_notes; }

std::string SkippedSummary(std::string_view source, const std::vector<std::string>& skipped) {
  if (skipped.empty()) return "";
  std::map<std::string, std::size_t> by_reason;
  for (const std::string& s : skipped) {
    const std::size_t at = s.rfind(": ");
    ++by_reason[at == std::string::npos ? s : s.substr(at + 2)];
  }
  std::vector<std::pair<std::string, std::size_t>> reasons(by_reason.begin(), by_reason.end());
  std::stable_sort(reasons.begin(), reasons.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  const std::size_t n = skipped.size();
  std::string line = std::string(kSkippedPrefix) + std::to_string(n) +
                     (n == 1 ? " Secret" : " Secrets") + " in " + TerminalText(source) +
                     std::string(n == 1 ? kSkippedMarkOne : kSkippedMark);
  for (std::size_t i = 0; i < reasons.size(); ++i) {
    const std::string& reason = reasons[i].first;
    line += (i > 0 ? ", " : "") + std::to_string(reasons[i].second) +
            (reason.starts_with("type ") ? " of " : " ") + TerminalText(reason);
  }
  return line + " (-q hides this line)";
}

bool IsSkippedSummary(std::string_view line) {
  return line.starts_with(kSkippedPrefix) &&
         (line.find(kSkippedMark) != std::string_view::npos ||
          line.find(kSkippedMarkOne) != std::string_view::npos);
}

}  // namespace zs::tools
