// The man page (packaging/man/zarf-state.1, configured into the build) as
// `man -l` renders it: no groff or man warnings, every command listed.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "tests/run_binary.h"
#include "tests/test_dir.h"
#include "tests/test_util.h"

namespace zs::testing {
namespace {

namespace fs = std::filesystem;

// Renders `page` at 80 columns with the warnings `man --warnings` turns on
// (groff's default set: undefined macros and strings, bad escapes, ...).
RunResult RenderMan(const fs::path& page, const fs::path& dir) {
  ::setenv("MANWIDTH", "80", 1);
  return RunBinary("/usr/bin/man", {"--warnings", "-l", page.string()}, dir);
}

// The command names the real binary lists under "Subcommands:".
std::vector<std::string> TopLevelCommands(const fs::path& dir) {
  const RunResult help = RunBinary(ZS_BINARY_PATH, {"--help"}, dir);
  std::vector<std::string> names;
  std::istringstream in(help.out.substr(help.out.find("\nSubcommands:\n") + 14));
  static const std::regex kRow("^  ([a-z][a-z0-9-]*) .*");
  for (std::string line; std::getline(in, line) && !line.empty();) {
    std::smatch m;
    if (std::regex_match(line, m, kRow)) names.push_back(m[1]);
  }
  return names;
}

TEST(ManPageTest, RendersWithoutWarningsAndListsEveryCommand) {
  if (!fs::exists("/usr/bin/man")) GTEST_SKIP() << "man-db is not installed";
  const fs::path dir = FreshTestDir("man-page");
  const RunResult r = RenderMan(ZS_MAN_PAGE, dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_NE(r.out.find("ZARF-STATE(1)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("zarf-state " ZS_VERSION), std::string::npos) << "version in the footer";
  const std::vector<std::string> commands = TopLevelCommands(dir);
  ASSERT_GE(commands.size(), 13u);
  const size_t section = r.out.find("\nCOMMANDS\n");
  ASSERT_NE(section, std::string::npos);
  for (const std::string& name : commands) {
    const std::regex entry("\n       " + name + "( |\n)");
    EXPECT_TRUE(std::regex_search(r.out.substr(section), entry)) << "no entry for " << name;
  }
}

// What an operator needs that no command's synopsis says: the cluster flag
// and the environment the program and kubectl read.
TEST(ManPageTest, NamesTheClusterFlagAndTheEnvironment) {
  if (!fs::exists("/usr/bin/man")) GTEST_SKIP() << "man-db is not installed";
  const fs::path dir = FreshTestDir("man-page-env");
  const RunResult r = RenderMan(ZS_MAN_PAGE, dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("--cluster"), std::string::npos);
  EXPECT_EQ(r.out.find("contacts a cluster"), std::string::npos) << "--cluster reads one";
  const size_t env = r.out.find("\nENVIRONMENT\n");
  ASSERT_NE(env, std::string::npos);
  for (const char* name : {"ZARF_STATE_DB", "XDG_CACHE_HOME", "KUBECONFIG"}) {
    EXPECT_NE(r.out.find(std::string("\n       ") + name + "\n", env), std::string::npos) << name;
  }
}

TEST(ManPageTest, TheWarningCheckSeesABrokenPage) {
  if (!fs::exists("/usr/bin/man")) GTEST_SKIP() << "man-db is not installed";
  const fs::path dir = FreshTestDir("man-page-broken");
  const fs::path broken = dir / "broken.1";
  std::ofstream(broken) << ReadFile(ZS_MAN_PAGE) << ".XQ not a macro\n\\*[nosuchstring]\n";
  const RunResult r = RenderMan(broken, dir);
  EXPECT_NE(r.err, "");
}

}  // namespace
}  // namespace zs::testing
