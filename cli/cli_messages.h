// The command line's own messages in kubectl's manner: help text without
// the flag parser's notation (no `-h,--help`, `TEXT=[-]`, `Excludes:`), and
// parse errors as `error: unknown flag: --outptu` with where help is,
// instead of the parser's sentences (docs/cli.md, "Global flags").
//
// Thread safety: not thread-safe (configures and reads one app).
#ifndef ZARF_STATE_CLI_CLI_MESSAGES_H_
#define ZARF_STATE_CLI_CLI_MESSAGES_H_

#include <string>

namespace CLI {
class App;
class ParseError;
}  // namespace CLI

namespace zs::tools {

// Gives `app` and every command under it the plain help formatter: flags as
// `-f, --filename string`, a default as `(default "-")` after the
// description, `(required)` for a required flag, and no parser notation.
void UsePlainHelp(CLI::App* app);

// The message for `error` (not help, not --version) from parsing `app`, as
// kubectl words it, ending in a line feed: "error: unknown flag: --outptu",
// "error: flag needs an argument: --to", "error: required flag \"--out\"
// not set", or the parser's own sentence after "error: "; then
// "Run 'CHAIN --help' for usage." for the command parsed last.
std::string KubectlStyleParseError(const CLI::App& app, const CLI::ParseError& error);

// Whether `error` says that a command that needs a subcommand got none
// (then its help is shown, exit 0, as kubectl does).
bool IsMissingSubcommand(const CLI::ParseError& error);

}  // namespace zs::tools

#endif  // ZARF_STATE_CLI_CLI_MESSAGES_H_
