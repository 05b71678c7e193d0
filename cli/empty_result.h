// What a command says when its input holds nothing for it to show, the way
// kubectl says `No resources found in zraf namespace.`: one line on stderr,
// so that stdout stays empty for a pipe (a table prints no header, a
// document an empty list). Which exit code follows is each command's
// (docs/cli.md, "Exit codes").
#ifndef ZARF_STATE_CLI_EMPTY_RESULT_H_
#define ZARF_STATE_CLI_EMPTY_RESULT_H_

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace zs::tools {

// "No package Secrets found in FILE." for `what` = "package Secrets" and the
// inputs as a command names them ("-" is standard input; a --cluster input
// is its ClusterLabel, "cluster (current context, namespace zraf)").
std::string NothingFoundLine(std::string_view what, const std::vector<std::string>& inputs);

// Prints NothingFoundLine and a newline on `err`.
void SayNothingFound(std::string_view what, const std::vector<std::string>& inputs,
                     std::ostream& err);

}  // namespace zs::tools

#endif  // ZARF_STATE_CLI_EMPTY_RESULT_H_
