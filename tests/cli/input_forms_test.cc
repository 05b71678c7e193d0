// The input forms real tools print, read by the commands end to end: JSON
// streams (jq, kubectl on several objects), YAML flow documents and shared
// (anchored) mappings as PyYAML writes them, UTF-16 with a BOM, and a dump
// of a whole namespace holding Secrets that are not Zarf's.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "json/json_reader.h"
#include "cli/common.h"
#include "cli/inspect_cmd.h"
#include "cli/migrate_cmd.h"
#include "cli/report_inputs.h"
#include "report/report_page.h"
#include "kube/secret.h"
#include "tests/run_binary.h"
#include "tests/test_dir.h"
#include "tests/test_util.h"

namespace zs::tools {
namespace {

using zs::testing::DataDir;

struct Ran {
  int code;
  std::string out;
  std::string err;
};

Ran InspectJson(const std::string& path) {
  InspectOptions o;
  o.files = {path};
  o.output.format = "json";
  std::ostringstream out, err;
  const int code = FinishCommand(RunInspect(o, out, err), err);
  return {code, out.str(), err.str()};
}

// The names inspect -o json reports, in order.
std::vector<std::string> InspectedNames(const Ran& r) {
  std::vector<std::string> names;
  auto v = json::ParseJson(r.out);
  EXPECT_TRUE(v.ok()) << r.out;
  if (!v.ok()) return names;
  for (const json::Value& item : v->array()) names.emplace_back(item.StringOr("name"));
  return names;
}

const char kEraList[] = "legacy/e22-v0.80.0-v0.84.0/all-secrets.list.json";

TEST(InputFormsTest, EveryPrintedFormOfTheSecretsInspectsLikeTheList) {
  const Ran list = InspectJson((DataDir() / kEraList).string());
  ASSERT_EQ(list.code, kExitOk) << list.err;
  const std::vector<std::string> expected = InspectedNames(list);
  ASSERT_EQ(expected.size(), 10u);
  for (const char* file : {"inputs/all-secrets.jq-items.json", "inputs/all-secrets.jq-c-items.jsonl",
                           "kubectl/all-secrets-annotated.stream.json",
                           "kubectl/all-secrets-annotated.stream.yaml"}) {
    SCOPED_TRACE(file);
    const Ran r = InspectJson((DataDir() / file).string());
    EXPECT_EQ(r.code, kExitOk) << r.err;
    EXPECT_EQ(r.err, "");
    EXPECT_EQ(InspectedNames(r), expected);
  }
}

TEST(InputFormsTest, SingleSecretsInOtherSpellingsAndEncodingsInspect) {
  for (const char* file : {"inputs/secret-dos-games.pyyaml-flow.yaml", "inputs/secret-dos-games.utf16le-bom.yaml",
                           "inputs/secret-dos-games.utf8-bom.json", "inputs/secret-pkg-unicode.utf16be-bom.json"}) {
    SCOPED_TRACE(file);
    const Ran r = InspectJson((DataDir() / file).string());
    EXPECT_EQ(r.code, kExitOk) << r.err;
    EXPECT_EQ(InspectedNames(r), std::vector<std::string>{"dos-games"});
  }
}

TEST(InputFormsTest, AnchorsMergeKeysAndTagsAsPeopleAndPyYamlWriteThem) {
  const Ran shared = InspectJson((DataDir() / "inputs/packages-shared-labels.pyyaml.yaml").string());
  EXPECT_EQ(shared.code, kExitOk) << shared.err;
  EXPECT_EQ(InspectedNames(shared), (std::vector<std::string>{"dos-games", "init", "init"}));
  const std::string merged_path = (DataDir() / "inputs/secrets-merge-keys-tags.yaml").string();
  const Ran merged = InspectJson(merged_path);
  EXPECT_EQ(merged.code, kExitOk) << merged.err;
  EXPECT_EQ(InspectedNames(merged), (std::vector<std::string>{"dos-games", "dos-games"}));
  auto in = ReadInput(testing::ReadFile(merged_path), "m");
  ASSERT_TRUE(in.ok()) << in.status().ToString();
  ASSERT_EQ(in->objects.size(), 2u);
  EXPECT_EQ(in->objects[0].payload, in->objects[1].payload) << "!!str and !!binary give the same bytes";
  EXPECT_EQ(ObjectNamespace(in->objects[1].object), "zarf");
  const json::Value* labels = in->objects[1].object.Find("metadata")->Find("labels");
  EXPECT_EQ(labels->StringOr("package-deploy-info"), "dos-games");
  EXPECT_EQ(labels->StringOr("extra"), "2024");
}

TEST(InputFormsTest, ANamespaceDumpSkipsOtherSecretsSaysSoAndSucceeds) {
  const Ran r = InspectJson((DataDir() / "inputs/namespace-dump.list.json").string());
  EXPECT_EQ(r.code, kExitOk) << r.err;
  EXPECT_EQ(InspectedNames(r).size(), 6u);
  // One line, by reason.
  EXPECT_EQ(r.err, "skipped 4 Secrets in " + (DataDir() / "inputs/namespace-dump.list.json").string() +
                       " that are not Zarf state: 1 not named zarf-state or zarf-package-*, 1 of "
                       "type helm.sh/release.v1, 1 of type kubernetes.io/dockerconfigjson, 1 of "
                       "type kubernetes.io/tls (-q hides this line)\n");
}

TEST(InputFormsTest, MigratingSeveralDocumentsWritesAListInspectReads) {
  for (const char* file : {"kubectl/all-secrets-annotated.stream.yaml", "inputs/all-secrets.jq-c-items.jsonl"}) {
    SCOPED_TRACE(file);
    MigrateOptions o;
    o.files = {(DataDir() / file).string()};
    std::ostringstream out, err;
    ASSERT_EQ(FinishCommand(RunMigrate(o, out, err), err), kExitOk) << err.str();
    auto written = json::ParseJson(out.str());
    ASSERT_TRUE(written.ok()) << "not one JSON text: " << written.status().ToString();
    EXPECT_EQ(written->StringOr("kind"), "List");
    EXPECT_EQ(written->Find("items")->array().size(), 10u);
    auto back = ReadInput(out.str(), "migrated");
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(back->objects.size(), 10u);
  }
}

}  // namespace
}  // namespace zs::tools

namespace zs::tools {
namespace {

namespace fs = std::filesystem;

TEST(InputFormsTest, QuietSilencesTheSkippedSecretsNote) {
  const std::string dump = (testing::DataDir() / "inputs/namespace-dump.list.json").string();
  const fs::path dir = testing::FreshTestDir("quiet_notes");
  for (const char* command : {"inspect", "status", "size"}) {
    SCOPED_TRACE(command);
    testing::RunResult r = testing::RunBinary(ZS_BINARY_PATH, {command, "-f", dump}, dir);
    EXPECT_NE(r.err.find("skipped 4 Secrets"), std::string::npos) << r.err;
    r = testing::RunBinary(ZS_BINARY_PATH, {command, "-f", dump, "-q"}, dir);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.err.find("skipped"), std::string::npos) << r.err;
  }
  fs::remove_all(dir);
}

// -o name is each Secret once, as kubectl names it; every table names an
// override package the same way (its cache key).
TEST(InputFormsTest, NamesAreUniqueSecretsAndOverridesAreNamedAlike) {
  const std::string dump = (testing::DataDir() / "inputs/namespace-dump.list.json").string();
  const fs::path dir = testing::FreshTestDir("names");
  for (const char* command : {"inspect", "status", "size"}) {
    SCOPED_TRACE(command);
    testing::RunResult r = testing::RunBinary(ZS_BINARY_PATH, {command, "-f", dump, "-o", "name", "-q"}, dir);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    std::string want = std::string(command) == "inspect" ? "secret/zarf-state\n" : "";
    want += "secret/zarf-package-dos-games\nsecret/zarf-package-init\n"
            "secret/zarf-package-dos-games-override-games-2\n";
    EXPECT_EQ(r.out, want);
    r = testing::RunBinary(ZS_BINARY_PATH, {command, "-f", dump, "-q", "--no-headers"}, dir);
    EXPECT_NE(r.out.find("\ndos-games-override-games-2 "), std::string::npos) << r.out;
  }
  fs::remove_all(dir);
}

TEST(InputFormsTest, TheReportShowsSkippedSecretsAsANoteNotAWarning) {
  ReportData data;
  std::ostringstream err;
  CollectObjects({(testing::DataDir() / "inputs/namespace-dump.list.json").string()},
                 Timestamp::FromUnixNanos(1700000000LL * 1000000000LL), err, &data);
  ASSERT_EQ(data.notes.size(), 1u) << err.str();
  EXPECT_NE(data.notes[0].find("skipped 4 Secrets"), std::string::npos);
  for (const ReportWarning& w : data.warnings) {
    EXPECT_EQ(w.text.find("skipped"), std::string::npos) << w.text;
  }
  const std::string page = RenderReportPage(data);
  EXPECT_NE(page.find("<ul class=\"notes\" id=\"notes\"><li>skipped 4 Secrets"), std::string::npos);
  EXPECT_NE(page.find(".notes li{color:var(--off)}"), std::string::npos) << "grey, not red";
}

}  // namespace
}  // namespace zs::tools
