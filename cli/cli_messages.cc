#include "cli/cli_messages.h"

#include <CLI/CLI.hpp>

#include <memory>
#include <string_view>
#include <vector>

#include "cli/command_status.h"

namespace zs::tools {
namespace {

// Flag values as kubectl names them: string, int, uint, float.
std::string ValueName(const CLI::Option* opt) {
  std::string type = opt->get_type_name();
  if (type.starts_with("TEXT")) return "string";
  if (type.starts_with("UINT")) return "uint";
  if (type.starts_with("INT")) return "int";
  if (type.starts_with("FLOAT")) return "float";
  for (char& c : type) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return type;
}

class PlainHelpFormatter : public CLI::Formatter {
 public:
  std::string make_option_name(const CLI::Option* opt, bool positional) const override {
    std::string names = CLI::Formatter::make_option_name(opt, positional);
    if (positional) return names;
    std::string out;
    for (char c : names) {
      out.push_back(c);
      if (c == ',') out.push_back(' ');
    }
    return out;
  }
  std::string make_option_opts(const CLI::Option* opt) const override {
    if (opt->get_type_size() == 0) return "";  // a flag: no value
    return " " + ValueName(opt);
  }
  std::string make_option_desc(const CLI::Option* opt) const override {
    std::string desc = opt->get_description();
    std::string def = opt->get_default_str();
    // A list of one ("[-]") is shown as its one value.
    if (def.size() > 2 && def.front() == '[' && def.back() == ']' &&
        def.find(',') == std::string::npos) {
      def = def.substr(1, def.size() - 2);
    }
    if (opt->get_type_size() != 0 && !def.empty() && def != "[]") {
      desc += " (default " + (def.front() == '[' ? def : "\"" + def + "\"") + ")";
    }
    if (opt->get_required()) desc += " (required)";
    return desc;
  }
};

void SetFormatterEverywhere(CLI::App* app, const std::shared_ptr<CLI::Formatter>& f) {
  app->formatter(f);
  for (CLI::App* sub : app->get_subcommands([](CLI::App*) { return true; })) {
    SetFormatterEverywhere(sub, f);
  }
}

// The command parsed last, and how it is called ("zarf-state query history").
const CLI::App* LastCommand(const CLI::App& app, std::string* chain) {
  const CLI::App* cmd = &app;
  *chain = app.get_name();
  while (!cmd->get_subcommands().empty()) {
    cmd = cmd->get_subcommands().front();
    *chain += " " + cmd->get_name();
  }
  return cmd;
}

std::string FirstLine(std::string_view s) { return std::string(s.substr(0, s.find('\n'))); }

}  // namespace

void UsePlainHelp(CLI::App* app) {
  SetFormatterEverywhere(app, std::make_shared<PlainHelpFormatter>());
}

bool IsMissingSubcommand(const CLI::ParseError& error) {
  return dynamic_cast<const CLI::RequiredError*>(&error) != nullptr &&
         std::string_view(error.what()).find("subcommand") != std::string_view::npos;
}

std::string KubectlStyleParseError(const CLI::App& app, const CLI::ParseError& error) {
  std::string chain;
  LastCommand(app, &chain);
  const std::string what = error.what();
  std::string message;
  if (dynamic_cast<const CLI::ExtrasError*>(&error) != nullptr) {
    const std::vector<std::string> left = app.remaining(true);
    for (const std::string& word : left) {
      if (word.size() > 1 && word[0] == '-') {
        message = "unknown flag: " + word.substr(0, word.find('='));
        break;
      }
    }
    if (message.empty() && !left.empty()) message = "unexpected argument \"" + left.front() + "\"";
  } else if (dynamic_cast<const CLI::ArgumentMismatch*>(&error) != nullptr &&
             what.find(" required ") != std::string::npos && what.ends_with(" missing")) {
    message = "flag needs an argument: " + what.substr(0, what.find(':'));
  } else if (dynamic_cast<const CLI::RequiredError*>(&error) != nullptr &&
             what.ends_with(" is required")) {
    message = "required flag \"" + what.substr(0, what.size() - 12) + "\" not set";
  }
  if (message.empty()) {
    message = FirstLine(what);
    if (!message.empty() && message[0] >= 'A' && message[0] <= 'Z' &&
        !(message.size() > 1 && message[1] >= 'A' && message[1] <= 'Z')) {
      message[0] = static_cast<char>(message[0] - 'A' + 'a');
    }
  }
  return ErrorLine(message) + "Run '" + chain + " --help' for usage.\n";
}

}  // namespace zs::tools
