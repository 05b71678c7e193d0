#include "cli/completion_cmd.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <set>
#include <sstream>

#include "tests/run_binary.h"
#include "tests/test_dir.h"
#include "tests/test_util.h"
#include "tests/zsh_completion.h"
#include "cli/common.h"

namespace zs::tools {
namespace {

namespace fs = std::filesystem;

fs::path CompletionsDir() { return testing::DataDir() / ".." / ".." / "packaging" / "completions"; }

// The subcommand names a `--help` text lists under "Subcommands:".
std::set<std::string> SubcommandsInHelp(const std::string& help) {
  std::set<std::string> names;
  const size_t start = help.find("\nSubcommands:\n");
  if (start == std::string::npos) return names;
  std::istringstream in(help.substr(start + 14));
  static const std::regex kRow("^  ([a-z][a-z0-9-]*) .*");
  for (std::string line; std::getline(in, line) && !line.empty();) {
    std::smatch m;
    if (std::regex_match(line, m, kRow)) names.insert(m[1]);
  }
  return names;
}

// Every command path of the real binary ("inspect", "record deploy", ...),
// read from its --help texts.
std::vector<std::string> CommandPaths(const fs::path& dir) {
  std::vector<std::string> paths;
  const auto top = testing::RunBinary(ZS_BINARY_PATH, {"--help"}, dir);
  for (const std::string& name : SubcommandsInHelp(top.out)) {
    paths.push_back(name);
    const auto sub = testing::RunBinary(ZS_BINARY_PATH, {name, "--help"}, dir);
    for (const std::string& child : SubcommandsInHelp(sub.out)) paths.push_back(name + " " + child);
  }
  return paths;
}

// The last word of each path that `text` does not mention as a whole word.
std::vector<std::string> Unmentioned(const std::string& text, const std::vector<std::string>& paths) {
  std::vector<std::string> missing;
  for (const std::string& path : paths) {
    const std::string word = path.substr(path.rfind(' ') + 1);
    const std::regex whole("(^|[^a-z-])" + word + "([^a-z-]|$)");
    if (!std::regex_search(text, whole)) missing.push_back(path);
  }
  return missing;
}

// Runs `shell -c script` (no start-up files) and returns what it printed.
testing::RunResult RunShell(const std::string& shell, const std::vector<std::string>& flags,
                            const std::string& script, const fs::path& dir) {
  std::vector<std::string> args = flags;
  args.push_back("-c");
  args.push_back(script);
  return testing::RunBinary(shell, args, dir);
}

bool Installed(const std::string& program) { return fs::exists(program); }

TEST(CompletionCmdTest, PrintsTheInstalledScriptsByteForByte) {
  const std::vector<std::pair<std::string, std::string>> files = {
      {"bash", "zarf-state.bash"}, {"zsh", "_zarf-state"}, {"fish", "zarf-state.fish"}};
  for (const auto& [shell, file] : files) {
    const std::string expected = testing::ReadFile(CompletionsDir() / file);
    ASSERT_FALSE(expected.empty()) << file;
    std::ostringstream out, err;
    EXPECT_EQ(FinishCommand(RunCompletion(shell, out), err), kExitOk) << err.str();
    EXPECT_EQ(out.str(), expected) << shell;
  }
}

TEST(CompletionCmdTest, UnknownShellIsAUsageErrorNamingIt) {
  std::ostringstream out, err;
  EXPECT_EQ(FinishCommand(RunCompletion("powershell", out), err), kExitUsage);
  EXPECT_EQ(out.str(), "");
  EXPECT_EQ(err.str(), "error: completion: no script for shell 'powershell' (choose bash, zsh or fish)\n");
  EXPECT_TRUE(CompletionScript("").empty());
}

TEST(CompletionCmdTest, EveryScriptNamesEveryCommandTheBinaryHas) {
  const fs::path dir = testing::FreshTestDir("completion-commands");
  const std::vector<std::string> paths = CommandPaths(dir);
  ASSERT_GE(paths.size(), 20u);  // 13 commands and their subcommands
  for (const std::string& shell : CompletionShells()) {
    EXPECT_EQ(Unmentioned(std::string(CompletionScript(shell)), paths), std::vector<std::string>{})
        << shell;
  }
  // The check itself: a command no script knows is reported.
  EXPECT_EQ(Unmentioned(std::string(CompletionScript("bash")), {"query no-such-command"}),
            std::vector<std::string>{"query no-such-command"});
}

TEST(CompletionCmdTest, BashCompletesSubcommandsFlagsAndValues) {
  if (!Installed("/bin/bash")) GTEST_SKIP() << "bash is not installed";
  const fs::path dir = testing::FreshTestDir("completion-bash");
  const std::string script = std::string("source <('") + ZS_BINARY_PATH +
                             "' completion bash)\n"
                             "t() { COMP_WORDS=(\"$@\"); COMP_CWORD=$(($# - 1)); _zarf_state;"
                             " echo \"${COMPREPLY[*]}\"; }\n"
                             "t zarf-state ins; t zarf-state query --db x hi; t zarf-state inspect -o y;"
                             " t kubectl-zarf_state record deploy --conn; t zarf-state zzz\n"
                             "complete -p kubectl-zarf_state\n";
  const auto r = RunShell("/bin/bash", {"--norc", "--noprofile"}, script, dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "inspect\nhistory\nyaml\n--connectivity\n\n"
            "complete -o filenames -F _zarf_state kubectl-zarf_state\n");
}

TEST(CompletionCmdTest, ZshCompletesASubcommandFromTheInstalledFunction) {
  if (!Installed("/usr/bin/zsh")) GTEST_SKIP() << "zsh is not installed";
  const fs::path dir = testing::FreshTestDir("completion-zsh");
  // The words completion wrote show as "args:<words>" (tests/zsh_completion.h).
  auto complete = [&](const std::string& line) {
    return testing::CompleteInZsh(CompletionScript("zsh"), line, dir);
  };
  const auto r = complete("zarf-state ins");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("args:inspect "), std::string::npos) << r.out;
  const auto nested = complete("zarf-state query hi");
  EXPECT_NE(nested.out.find("args:query history "), std::string::npos) << nested.out;
  const auto none = complete("zarf-state zzz");
  EXPECT_NE(none.out.find("args:zzz"), std::string::npos) << none.out;
  const auto parsed = RunShell("/usr/bin/zsh", {"-f", "-n"}, std::string(CompletionScript("zsh")), dir);
  EXPECT_EQ(parsed.exit_code, 0) << parsed.err;
}

TEST(CompletionCmdTest, FishCompletesSubcommandsAndFlags) {
  if (!Installed("/usr/bin/fish")) GTEST_SKIP() << "fish is not installed";
  const fs::path dir = testing::FreshTestDir("completion-fish");
  const std::string script = std::string("'") + ZS_BINARY_PATH +
                             "' completion fish | source\n"
                             "complete -C 'zarf-state ins'; complete -C 'zarf-state query hi';"
                             " complete -C 'kubectl-zarf_state completion z'; complete -C 'zarf-state zzz'\n";
  const auto r = RunShell("/usr/bin/fish", {"--no-config"}, script, dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "inspect\tShow each package (or the init state, redacted)\nhistory\nzsh\n");
}

}  // namespace
}  // namespace zs::tools
