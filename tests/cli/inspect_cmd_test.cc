#include "cli/inspect_cmd.h"

#include <gtest/gtest.h>

#include <sstream>

#include "json/json_reader.h"
#include "tests/subprocess_runner.h"
#include "tests/test_util.h"
#include "cli/common.h"

namespace zs::tools {
namespace {

struct Ran {
  int code;
  std::string out;
  std::string err;
};

Ran Inspect(std::vector<std::string> files, std::string output = "table", bool show = false) {
  InspectOptions o;
  for (auto& f : files) o.files.push_back((testing::DataDir() / f).string());
  o.output.format = std::move(output);
  o.show_secrets = show;
  std::ostringstream out, err;
  const int code = FinishCommand(RunInspect(o, out, err), err);
  return {code, out.str(), err.str()};
}

const std::string kEra = "legacy/e22-v0.80.0-v0.84.0/";

TEST(InspectCmdTest, TableShowsPackageSizeLatestEventAndComponents) {
  Ran r = Inspect({kEra + "pkg-realistic-init-failed.secret.json"});
  EXPECT_EQ(r.code, kExitOk) << r.err;
  EXPECT_EQ(r.out.rfind("NAME   VERSION   SIZE    USED   LATEST            AGE   EVENTS   COMPONENTS\n", 0), 0u)
      << r.out;
  // The package's row: its size (of 1048576 bytes: 1.2%) and no latest
  // event, but the status its components store (docs/model.md).
  EXPECT_NE(r.out.find("\ninit   "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("   12970   1.2%   stored:Removing   -     "), std::string::npos) << r.out;
  Ran wide = Inspect({kEra + "pkg-realistic-init-failed.secret.json"}, "wide");
  EXPECT_NE(wide.out.find(" 1035606 "), std::string::npos) << wide.out;  // headroom
  EXPECT_NE(wide.out.find("git-server=Unknown"), std::string::npos) << wide.out;
  EXPECT_NE(wide.out.find("zarf/zarf-gitea (Succeeded)"), std::string::npos) << wide.out;
}

TEST(InspectCmdTest, JsonOutputIsMachineReadable) {
  Ran r = Inspect({kEra + "all-secrets.list.json"}, "json");
  EXPECT_EQ(r.code, kExitOk) << r.err;
  auto v = json::ParseJson(r.out);
  ASSERT_TRUE(v.ok()) << r.out;
  ASSERT_EQ(v->array().size(), 10u);
  int packages = 0;
  for (const json::Value& item : v->array()) {
    if (item.StringOr("kind") != "package") continue;
    ++packages;
    // No history: null, so that `.latestEvent.outcome` is null, not an error.
    // The edge fixture's `events` (a newer writer's type) is its history.
    ASSERT_NE(item.Find("latestEvent"), nullptr);
    if (!item.Find("latestEvent")->is_null()) {
      EXPECT_EQ(item.Find("latestEvent")->StringOr("type"), "Deployed") << r.out;
      continue;
    }
    EXPECT_EQ(item.Find("limitBytes")->number_raw(), "1048576");
  }
  EXPECT_EQ(packages, 7);
}

TEST(InspectCmdTest, InitStateCredentialsAreRedactedUnlessAsked) {
  Ran r = Inspect({kEra + "state-internal.secret.json"}, "json");
  EXPECT_EQ(r.code, kExitOk);
  EXPECT_EQ(r.out.find("fake-password"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("fake-registry-http-secret"), std::string::npos);
  EXPECT_EQ(r.out.find("LS0tLS1CRUdJTiBFQyBQUklWQVRFIEtFWS"), std::string::npos);  // agentTLS.key
  EXPECT_NE(r.out.find("[REDACTED]"), std::string::npos);
  Ran shown = Inspect({kEra + "state-internal.secret.json"}, "json", true);
  EXPECT_NE(shown.out.find("fake-password-1"), std::string::npos);
  Ran table = Inspect({"legacy/e01-v0.15.0-v0.16.2/state-internal.secret.json"});
  EXPECT_EQ(table.code, kExitOk) << table.err;
  EXPECT_EQ(table.out.find("fake-password"), std::string::npos) << table.out;
}

TEST(InspectCmdTest, BadObjectsGetOneLineEachAndGoodOnesStillPrint) {
  Ran r = Inspect({kEra + "malformed-bad-base64.secret.json", kEra + "malformed-truncated-json.secret.json",
                   kEra + "pkg-small-dos-games.payload.json", "legacy/missing-file.json"});
  EXPECT_EQ(r.code, kExitSomeFailed);
  EXPECT_NE(r.out.find("\ndos-games "), std::string::npos) << r.out;
  int lines = 0;
  for (char c : r.err) lines += c == '\n';
  EXPECT_EQ(lines, 3) << r.err;
  EXPECT_NE(r.err.find("illegal base64"), std::string::npos);
  EXPECT_NE(r.err.find("missing-file.json"), std::string::npos);
}

TEST(InspectCmdTest, EveryEraReads) {
  for (const auto& path : testing::LegacyFiles("all-secrets.list.json")) {
    InspectOptions o;
    o.files = {path.string()};
    std::ostringstream out, err;
    EXPECT_EQ(FinishCommand(RunInspect(o, out, err), err), kExitOk) << path << err.str();
  }
}

TEST(InspectCmdTest, BinaryExitCodesFollowTheSpec) {
  auto exit_code = [](const std::vector<std::string>& args, const std::string& in = "/dev/null") {
    testing::ChildSpec spec;
    spec.argv = {ZS_BINARY_PATH};
    spec.argv.insert(spec.argv.end(), args.begin(), args.end());
    spec.stdin_path = in;
    return testing::WaitChild(testing::SpawnChild(spec)).exit_code;
  };
  EXPECT_EQ(exit_code({"--version"}), 0);
  EXPECT_EQ(exit_code({"inspect", "-o", "bogus", "-f", "/dev/null"}), kExitUsage);
  EXPECT_EQ(exit_code({"nosuchcommand"}), kExitUsage);
  const std::string f = (testing::DataDir() / (kEra + "pkg-small-dos-games.secret.json")).string();
  EXPECT_EQ(exit_code({"inspect", "-f", "-"}, f), 0);
}

}  // namespace
}  // namespace zs::tools
