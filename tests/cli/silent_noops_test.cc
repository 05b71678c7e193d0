// Commands given something they have nothing to do with say so: `status`
// and `replay` of the init-state Secret, `config digest` of a package
// definition.
#include <gtest/gtest.h>

#include <sstream>

#include "tests/test_util.h"
#include "cli/common.h"
#include "cli/config_cmd.h"
#include "cli/replay_cmd.h"
#include "cli/status_cmd.h"

namespace zs::tools {
namespace {

const char* const kInitState = "legacy/e21-v0.78.0-v0.79.0/state-internal.secret.json";

// `status` (table) of one file under tests/data.
int StatusOf(const std::string& data_file, std::ostringstream& out, std::ostringstream& err) {
  StatusOptions o;
  o.files = {(testing::DataDir() / data_file).string()};
  return FinishCommand(RunStatus(o, out, err), err);
}

TEST(SilentNoopsTest, StatusOfTheInitStateFailsSayingWhatItIs) {
  std::ostringstream out, err;
  EXPECT_EQ(StatusOf(kInitState, out, err), kExitSomeFailed);
  EXPECT_NE(err.str().find("init state"), std::string::npos) << err.str();
  EXPECT_NE(err.str().find("no package Secret"), std::string::npos) << err.str();
}

TEST(SilentNoopsTest, StatusOfAListWithTheInitStateNotesTheSkip) {
  std::ostringstream out, err;
  EXPECT_EQ(StatusOf("legacy/e21-v0.78.0-v0.79.0/all-secrets.list.json", out, err), kExitOk)
      << err.str();
  EXPECT_NE(err.str().find("init state"), std::string::npos) << err.str();
  EXPECT_EQ(out.str().rfind("NAME ", 0), 0u) << out.str();
  EXPECT_NE(out.str().find("\n"), out.str().size() - 1) << "a package row after the header";
}

TEST(SilentNoopsTest, ReplayOfTheInitStateFails) {
  ReplayOptions o;
  o.secret_path = (testing::DataDir() / kInitState).string();
  std::ostringstream out, err;
  EXPECT_EQ(FinishCommand(RunReplay(o, out, err), err), kExitSomeFailed);
  EXPECT_NE(err.str().find("no event history to replay"), std::string::npos) << err.str();
  o.verify = true;
  EXPECT_EQ(FinishCommand(RunReplay(o, out, err), err), kExitSomeFailed);
}

TEST(SilentNoopsTest, ConfigDigestOfAPackageDefinitionSaysWhatItWasGiven) {
  // With its kind, and without (Go's decoder would ignore every key and
  // digest an empty config).
  for (const std::string& text :
       {std::string(testing::kDemoPackageYaml), std::string("metadata:\n  name: demo\ncomponents:\n  - name: web\n")}) {
    ConfigOptions o;
    o.action = "digest";
    o.file = testing::WriteTempFile("zarf.yaml", text);
    std::ostringstream out, err;
    EXPECT_EQ(FinishCommand(RunConfig(o, out, err), err), kExitSomeFailed);
    EXPECT_EQ(out.str(), "");
    EXPECT_NE(err.str().find("zarf.yaml is a package definition"), std::string::npos) << err.str();
  }
  // A config with a definition-like key besides its own fields is a config.
  ConfigOptions o;
  o.action = "digest";
  o.file = testing::WriteTempFile("cfg.yaml", "metadata: x\nValues:\n  a: 1\n");
  std::ostringstream out, err;
  EXPECT_EQ(FinishCommand(RunConfig(o, out, err), err), kExitOk) << err.str();
}

}  // namespace
}  // namespace zs::tools
