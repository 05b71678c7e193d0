// `cmake --install` of this build into a scratch prefix: every file in its
// usual place (GNUInstallDirs), the plugin link, and the installed binary
// runs by either name.
#include <gtest/gtest.h>

#include <filesystem>
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
      "share/man/man1/zarf-state.1",
      "share/bash-completion/completions/zarf-state",
      "share/bash-completion/completions/kubectl-zarf_state",
      "share/zsh/vendor-completions/_zarf-state",
      "share/fish/vendor_completions.d/zarf-state.fish",
      "share/doc/zarf-state/LICENSE",
      "share/doc/zarf-state/README.md",
      "share/doc/zarf-state/docs/cli.md",
      "share/doc/zarf-state/docs/install.md",
  };
  EXPECT_EQ(Missing(prefix, expected), std::vector<std::string>{});
  EXPECT_EQ(Missing(prefix, {"bin/no-such-file"}), std::vector<std::string>{"bin/no-such-file"});

  EXPECT_TRUE(fs::is_symlink(prefix / "bin/kubectl-zarf_state"));
  EXPECT_EQ(fs::read_symlink(prefix / "bin/kubectl-zarf_state"), "zarf-state");
  EXPECT_NE(ReadFile(prefix / "share/doc/zarf-state/LICENSE").find("Apache License"), std::string::npos);

  for (const char* name : {"zarf-state", "kubectl-zarf_state"}) {
    const RunResult v = RunBinary((prefix / "bin" / name).string(), {"--version"}, dir);
    EXPECT_EQ(v.exit_code, 0) << name << ": " << v.err;
    EXPECT_EQ(v.out, "zarf-state " ZS_VERSION "\n") << name;
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace zs::testing
