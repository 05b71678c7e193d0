#include "cli/empty_result.h"

#include "base/terminal_text.h"

namespace zs::tools {

std::string NothingFoundLine(std::string_view what, const std::vector<std::string>& inputs) {
  std::string where;
  const std::vector<std::string> stdin_only{"-"};
  const std::vector<std::string>& names = inputs.empty() ? stdin_only : inputs;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) where += i + 1 == names.size() ? " or " : ", ";
    where += names[i] == "-" ? "standard input" : TerminalText(names[i]);
  }
  return "No " + std::string(what) + " found in " + where + ".";
}

void SayNothingFound(std::string_view what, const std::vector<std::string>& inputs,
                     std::ostream& err) {
  err << NothingFoundLine(what, inputs) << "\n";
}

}  // namespace zs::tools
