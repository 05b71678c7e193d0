#include "cli/cli_basics.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <iostream>
#include <memory>
#include <utility>

#include "compact/compact.h"
#include "json/json_value.h"
#include "cli/build_info.h"
#include "cli/cli_messages.h"
#include "cli/command_status.h"
#include "cli/common.h"
#include "cli/output.h"

namespace zs::tools {
namespace {

constexpr std::string_view kPluginFileName = "kubectl-zarf_state";

// The subcommand of `app` called `name`, or nullptr.
const CLI::App* FindSubcommand(const CLI::App& app, std::string_view name) {
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    if (sub->get_name() == name) return sub;
  }
  return nullptr;
}

std::vector<std::string> SubcommandNames(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    names.push_back(sub->get_name());
  }
  return names;
}

// The "unknown command" message for `word` where a subcommand of `parent`
// (called `chain` on the command line) was expected.
void PrintUnknownCommand(const CLI::App& parent, const std::string& chain,
                         std::string_view word, std::ostream& err) {
  PrintError(err, "unknown command '" + std::string(word) + "' for '" + chain + "'");
  const std::vector<std::string> near = Suggestions(word, SubcommandNames(parent));
  if (!near.empty()) {
    err << "\nDid you mean this?\n";
    for (const std::string& name : near) err << "\t" << name << "\n";
    err << "\n";
  }
  err << "Run '" << chain << " --help' for usage.\n";
}

// The help text `chain --help` prints for `cmd` (chain names it last).
std::string HelpText(const CLI::App& cmd, const std::string& chain) {
  return cmd.get_formatter()->make_help(&cmd, chain, CLI::AppFormatMode::Normal);
}

// Gives `cmd` (at `path`, "" for the program) and every command under it
// the Examples footer, where it has none of its own.
void AddExampleFooters(CLI::App* cmd, const std::string& path) {
  const std::string_view examples = ExamplesFor(path);
  if (cmd->get_footer().empty() && !examples.empty()) {
    std::string footer = "Examples:\n";
    std::size_t start = 0;
    while (start < examples.size()) {
      std::size_t end = examples.find('\n', start);
      if (end == std::string_view::npos) end = examples.size();
      footer += "  " + std::string(examples.substr(start, end - start)) + "\n";
      start = end + 1;
    }
    footer.pop_back();  // the formatter ends the footer with its own line feed
    cmd->footer(footer);
  }
  for (CLI::App* sub : cmd->get_subcommands([](CLI::App*) { return true; })) {
    AddExampleFooters(sub, path.empty() ? sub->get_name() : path + " " + sub->get_name());
  }
}

// `help [COMMAND...]`: the help text of the command named, as its --help.
// An unknown word is a usage error, reported here (with its suggestions).
CommandStatus RunHelp(const CLI::App& app, const std::vector<std::string>& words,
                      std::ostream& out, std::ostream& err) {
  const CLI::App* cmd = &app;
  std::string chain = app.get_name();
  for (const std::string& word : words) {
    const CLI::App* sub = FindSubcommand(*cmd, word);
    if (sub == nullptr) {
      PrintUnknownCommand(*cmd, chain, word, err);
      return CommandStatus::FailureReported(/*usage=*/true);
    }
    cmd = sub;
    chain += " " + word;
  }
  out << HelpText(*cmd, chain);
  return CommandStatus();
}

}  // namespace

std::string ProgramName(std::string_view argv0) {
  const std::size_t slash = argv0.rfind('/');
  const std::string_view base = slash == std::string_view::npos ? argv0 : argv0.substr(slash + 1);
  return base == kPluginFileName ? "kubectl zarf-state" : "zarf-state";
}

CommandStatus RunVersion(const std::string& output, std::ostream& out) {
  OutputOptions format;
  format.format = output;
  ZS_RETURN_IF_ERROR(CheckOutputFormat(format, {"table", "json", "yaml"}));
  const std::vector<std::uint32_t> ids = compact::DictionaryIds();
  const std::uint32_t writer = compact::WriterDictionaryId();
  if (format.structured()) {
    json::Value id_list = json::Value::MakeArray();
    for (const std::uint32_t id : ids) id_list.array().push_back(json::Value::Int(id));
    const json::Value v = json::Value::MakeObject({
        {"version", json::Value::String(ZS_VERSION)},
        {"gitCommit", json::Value::String(std::string(GitCommit()))},
        {"buildType", json::Value::String(std::string(BuildType()))},
        {"compactFormatVersion", json::Value::Int(compact::kFormatVersion)},
        {"compactDictionaryIds", std::move(id_list)},
        {"compactWriterDictionaryId", json::Value::Int(writer)},
    });
    PrintStructured(v, output, out);
    return CommandStatus();
  }
  std::string dictionaries;
  for (const std::uint32_t id : ids) {
    dictionaries += (dictionaries.empty() ? "" : ", ") + std::to_string(id);
  }
  out << "zarf-state " << ZS_VERSION << "\n"
      << "  git commit:            " << GitCommit() << "\n"
      << "  build type:            " << BuildType() << "\n"
      << "  compact format:        " << compact::kFormatVersion << "\n"
      << "  compact dictionaries:  " << (ids.empty() ? "none" : dictionaries);
  if (writer != 0) out << " (writes with " << writer << ")";
  out << "\n";
  return CommandStatus();
}

std::size_t EditDistance(std::string_view a, std::string_view b) {
  const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t replace = diagonal + (lower(a[i - 1]) == lower(b[j - 1]) ? 0 : 1);
      diagonal = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, replace});
    }
  }
  return row[b.size()];
}

std::vector<std::string> Suggestions(std::string_view typed,
                                     const std::vector<std::string>& candidates) {
  constexpr std::size_t kMaxDistance = 2;
  std::vector<std::pair<std::size_t, std::string>> near;
  for (const std::string& name : candidates) {
    const std::size_t d = EditDistance(typed, name);
    const bool prefix = !typed.empty() && name.size() > typed.size() &&
                        EditDistance(typed, name.substr(0, typed.size())) == 0;
    if (d <= kMaxDistance || prefix) near.emplace_back(d, name);
  }
  std::sort(near.begin(), near.end());
  std::vector<std::string> names;
  for (auto& [d, name] : near) names.push_back(std::move(name));
  return names;
}

void RegisterCliBasics(CLI::App* app, std::string_view argv0, CommandStatus* outcome) {
  app->name(ProgramName(argv0));
  auto output = std::make_shared<std::string>("table");
  CLI::App* version = app->add_subcommand(
      "version", "Print the version, git commit, build type and compact dictionary ids");
  version->add_option("-o,--output", *output, "table | json | yaml")->default_val("table");
  version->callback([output, outcome] { *outcome = RunVersion(*output, std::cout); });

  auto words = std::make_shared<std::vector<std::string>>();
  CLI::App* help = app->add_subcommand("help", "Help about any command (the same as COMMAND --help)");
  help->add_option("command", *words, "The command, and its subcommand if it has them");
  help->callback([app, words, outcome] { *outcome = RunHelp(*app, *words, std::cout, std::cerr); });
  AddExampleFooters(app, "");
  UsePlainHelp(app);
}

int ExitForParseError(const CLI::App& app, const CLI::ParseError& error, std::ostream& out,
                      std::ostream& err) {
  // Help and --version.
  if (error.get_exit_code() == 0) return app.exit(error, out, err) == 0 ? kExitOk : kExitUsage;
  // The command parsed last: a word after it that is not one of its
  // subcommands, where one is expected, is a mistyped name.
  const CLI::App* cmd = &app;
  std::string chain = app.get_name();
  while (!cmd->get_subcommands().empty()) {
    cmd = cmd->get_subcommands().front();
    chain += " " + cmd->get_name();
  }
  const std::vector<std::string> left = app.remaining(true);
  if (!SubcommandNames(*cmd).empty() && !left.empty() && !left.front().empty() &&
      left.front()[0] != '-') {
    PrintUnknownCommand(*cmd, chain, left.front(), err);
    return kExitUsage;
  }
  // No command where one is needed: its help, as kubectl prints it.
  if (IsMissingSubcommand(error) && left.empty()) {
    out << HelpText(*cmd, chain);
    return kExitOk;
  }
  err << KubectlStyleParseError(app, error);
  return kExitUsage;
}

}  // namespace zs::tools
