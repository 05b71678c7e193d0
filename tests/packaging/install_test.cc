// `cmake --install` of this build into a scratch prefix: every file in its
// usual place (GNUInstallDirs), the plugin link, and the installed binary
// runs by either name.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "tests/run_binary.h"
#include "tests/test_dir.h"
#include "tests/test_util.h"

namespace zs::testing {
namespace {

namespace fs = std::filesystem;

// The paths of `expected` that are not files (or links) under `prefix`.
std::vector<std::string> Missing(const fs::path& prefix, const std::vector<std::string>& expected) {
  std::vector<std::string> missing;
  for (const std::string& p : expected) {
    if (!fs::exists(fs::symlink_status(prefix / p))) missing.push_back(p);
  }
  return missing;
}

TEST(InstallTest, PutsEveryFileInItsPlaceAndThePluginLink) {
  const fs::path dir = FreshTestDir("install");
  const fs::path prefix = dir / "prefix";
  const RunResult r = RunBinary(ZS_CMAKE_COMMAND,
                                {"--install", ZS_BUILD_DIR, "--prefix", prefix.string()}, dir);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const std::vector<std::string> expected = {
      "bin/zarf-state",
      "bin/kubectl-zarf_state",
      "bin/kubectl_complete-zarf_state",
      "share/man/man1/zarf-state.1.gz",
      "share/man/man1/kubectl-zarf_state.1.gz",
      "share/bash-completion/completions/zarf-state",
      "share/bash-completion/completions/kubectl-zarf_state",
      "share/zsh/site-functions/_zarf-state",
      "share/fish/vendor_completions.d/zarf-state.fish",
      "share/doc/zarf-state/LICENSE",
      "share/doc/zarf-state/README.md",
      "share/doc/zarf-state/copyright",
      "share/doc/zarf-state/changelog.Debian.gz",
      "share/doc/zarf-state/docs/cli.md",
      "share/doc/zarf-state/docs/install.md",
  };
  EXPECT_EQ(Missing(prefix, expected), std::vector<std::string>{});
  EXPECT_EQ(Missing(prefix, {"bin/no-such-file"}), std::vector<std::string>{"bin/no-such-file"});

  EXPECT_TRUE(fs::is_symlink(prefix / "bin/kubectl-zarf_state"));
  EXPECT_TRUE((fs::status(prefix / "bin/kubectl_complete-zarf_state").permissions() &
               fs::perms::others_exec) != fs::perms::none);
  EXPECT_EQ(fs::read_symlink(prefix / "bin/kubectl-zarf_state"), "zarf-state");
  EXPECT_NE(ReadFile(prefix / "share/doc/zarf-state/LICENSE").find("Apache License"), std::string::npos);

  for (const char* name : {"zarf-state", "kubectl-zarf_state"}) {
    const RunResult v = RunBinary((prefix / "bin" / name).string(), {"--version"}, dir);
    EXPECT_EQ(v.exit_code, 0) << name << ": " << v.err;
    EXPECT_EQ(v.out, "zarf-state " ZS_VERSION "\n") << name;
  }
  fs::remove_all(dir);
}

// Lines of `text`.
std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

bool Contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

// `cmake --install --prefix P` (into a DESTDIR, so nothing outside the test
// folder is written) puts the zsh and fish completions where the shells of
// this machine look for that prefix: zsh's $fpath, fish's completion path
// (with the XDG_DATA_DIRS of a desktop or systemd session).
TEST(InstallTest, CompletionsGoWhereTheShellsLookForEachPrefix) {
  const fs::path dir = FreshTestDir("install-prefixes");
  const bool zsh = fs::exists("/usr/bin/zsh"), fish = fs::exists("/usr/bin/fish");
  const std::vector<std::string> fpath =
      zsh ? Lines(RunBinary("/usr/bin/zsh", {"-f", "-c", "print -l $fpath"}, dir).out)
          : std::vector<std::string>{};
  const std::string fish_script = "for p in $fish_complete_path; echo $p; end";
  const std::vector<std::string> fish_path =
      fish ? Lines(RunBinary("/usr/bin/env",
                             {"HOME=" + dir.string(), "XDG_DATA_DIRS=/usr/local/share:/usr/share",
                              "/usr/bin/fish", "-c", fish_script},
                             dir)
                       .out)
           : std::vector<std::string>{};
  const std::vector<std::pair<std::string, std::string>> zsh_dirs = {
      {"/usr/local", "/usr/local/share/zsh/site-functions"},
      {"/usr", "/usr/share/zsh/vendor-completions"},
  };
  for (const auto& [prefix, zsh_dir] : zsh_dirs) {
    const fs::path root = dir / ("root" + prefix);
    const RunResult r = RunBinary(
        "/usr/bin/env",
        {"DESTDIR=" + root.string(), ZS_CMAKE_COMMAND, "--install", ZS_BUILD_DIR, "--prefix", prefix},
        dir);
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_TRUE(fs::exists(root.string() + zsh_dir + "/_zarf-state")) << prefix;
    const std::string fish_dir = prefix + "/share/fish/vendor_completions.d";
    EXPECT_TRUE(fs::exists(root.string() + fish_dir + "/zarf-state.fish")) << prefix;
    if (zsh) {
      EXPECT_TRUE(Contains(fpath, zsh_dir)) << zsh_dir << " is not on zsh's $fpath";
    }
    if (fish) {
      EXPECT_TRUE(Contains(fish_path, fish_dir)) << fish_dir << " is not fish's";
    }
  }
  // The check can fail: vendor-completions is not where zsh looks for /usr/local.
  if (zsh) {
    EXPECT_FALSE(Contains(fpath, "/usr/local/share/zsh/vendor-completions"));
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace zs::testing
