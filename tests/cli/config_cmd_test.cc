#include "cli/config_cmd.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "json/json_reader.h"
#include "tests/table_rows.h"
#include "tests/test_util.h"
#include "cli/common.h"

namespace zs::tools {
namespace {


std::string RunCmd(const ConfigOptions& o, int* code) {
  std::ostringstream out, err;
  *code = FinishCommand(RunConfig(o, out, err), err);
  return out.str() + err.str();
}

TEST(ConfigCmdTest, DigestMatchesZarfForTheFirstVectors) {
  const auto lines = testing::ReadLines("vectors/config-digest.jsonl");
  for (std::size_t i = 0; i < 10; ++i) {
    auto vec = json::ParseJson(lines[i]);
    ConfigOptions o;
    o.action = "digest";
    o.kind = vec->Find("kind")->as_string();
    o.file = testing::WriteTempFile("cfg.json", vec->Find("input")->as_string());
    int code = -1;
    EXPECT_EQ(RunCmd(o, &code), vec->Find("digest")->as_string() + "\n");
    EXPECT_EQ(code, kExitOk);
  }
}

TEST(ConfigCmdTest, CanonicalDigestTreatsFiveAndFivePointZeroAlike) {
  ConfigOptions o;
  o.action = "digest";
  o.canonical = true;
  int code = -1;
  o.file = testing::WriteTempFile("a.json", R"({"Values":{"n":5}})");
  const std::string a = RunCmd(o, &code);
  o.file = testing::WriteTempFile("b.yaml", "Values:\n  n: 5.0\n");
  const std::string b = RunCmd(o, &code);
  EXPECT_EQ(a, b);
  EXPECT_EQ(a.rfind("jcs-sha256:", 0), 0u);
}

TEST(ConfigCmdTest, DiffListsChangedPathsAndMasksSecrets) {
  ConfigOptions o;
  o.action = "diff";
  o.old_file =
      testing::WriteTempFile("old.json", R"({"Values":{"replicas":2,"db":{"password":"a"}}})");
  o.new_file = testing::WriteTempFile(
      "new.json", R"({"Values":{"replicas":3,"db":{"password":"b"}},"NamespaceOverride":"x"})");
  int code = -1;
  const std::string out = RunCmd(o, &code);
  EXPECT_EQ(code, kExitOk);
  EXPECT_TRUE(testing::HasTableRow(out, "changed Values.replicas 2 3")) << out;
  EXPECT_TRUE(testing::HasTableRow(out, "changed NamespaceOverride \"\" \"x\"")) << out;
  EXPECT_TRUE(testing::HasTableRow(out, "changed Values.db.password \"[REDACTED]\" \"[REDACTED]\"")) << out;
  EXPECT_EQ(out.find("\"a\""), std::string::npos);
  o.new_file = o.old_file;
  EXPECT_NE(RunCmd(o, &code).find("no changes"), std::string::npos);
}

TEST(ConfigCmdTest, BadConfigIsAnErrorNamingTheFile) {
  ConfigOptions o;
  o.action = "digest";
  o.file = testing::WriteTempFile("bad.json", R"({"Values":[1,2]})");
  int code = -1;
  const std::string out = RunCmd(o, &code);
  EXPECT_EQ(code, kExitSomeFailed);
  EXPECT_NE(out.find("bad.json"), std::string::npos) << out;
  EXPECT_NE(out.find("Values: expected object"), std::string::npos) << out;
}

}  // namespace
}  // namespace zs::tools
