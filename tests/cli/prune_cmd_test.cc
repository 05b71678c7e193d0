#include "cli/prune_cmd.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "json/json_reader.h"
#include "model/model.h"
#include "model/model_json.h"
#include "kube/secret.h"
#include "engine/image_ref.h"
#include "engine/prune.h"
#include "tests/table_rows.h"
#include "tests/test_util.h"
#include "cli/common.h"
#include "kube/input.h"

namespace zs::tools {
namespace {

namespace fs = std::filesystem;

std::string Sample(const std::string& name) {
  return (testing::DataDir() / "samples" / name).string();
}

// The Secret of podinfo-2.yaml deployed with every component.
std::string DeployedPodinfo2() {
  auto def = ReadDocument(Sample("podinfo-2.yaml"));
  EXPECT_TRUE(def.ok()) << def.status().ToString();
  DeployedPackage pkg;
  pkg.name = "podinfo";
  pkg.data = *def;
  pkg.cli_version = "v0.84.0";
  pkg.generation = 2;
  pkg.deployed_components.emplace();
  for (const json::Value& c : def->Find("components")->array()) {
    DeployedComponent dc;
    dc.name = std::string(c.StringOr("name"));
    dc.installed_charts = engine::ExpectedCharts(c, pkg.name);
    dc.status = "Succeeded";
    pkg.deployed_components->push_back(std::move(dc));
  }
  const json::Value secret =
      MakePackageSecret("podinfo", "", EncodeDeployedPackage(pkg));
  return testing::WriteTempFile("zarf-package-podinfo.json",
                   WriteObject(secret, TextFormat::kJson));
}

struct PlanRun {
  int code = -1;
  std::string out, err;
};

PlanRun RunPlan(const PrunePlanOptions& o) {
  std::ostringstream out, err;
  PlanRun r;
  r.code = FinishCommand(RunPrunePlan(o, out, err), err);
  r.out = out.str();
  r.err = err.str();
  return r;
}

PrunePlanOptions Upgrade() {
  PrunePlanOptions o;
  o.deployed = DeployedPodinfo2();
  o.new_package = Sample("podinfo-3.yaml");
  o.others = {Sample("others-list.json")};
  return o;
}

bool Has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}


TEST(PruneCmdTest, TableListsChartsComponentsAndKeptImages) {
  const PlanRun r = RunPlan(Upgrade());
  EXPECT_EQ(r.code, kExitOk) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_TRUE(
      Has(r.out, "zarf package deploy --prune would make these changes"))
      << r.out;
  EXPECT_TRUE(testing::HasTableRow(r.out, "uninstall chart podinfo/podinfo component podinfo stays"))
      << r.out;
  EXPECT_TRUE(testing::HasTableRows(r.out, {"remove component dashboards -",
                              "uninstall chart monitoring/zarf-ec8af937d0e4972aae9511b4a03f157f84e0928d "
                              "component dashboards"}))
      << r.out;
  EXPECT_TRUE(testing::HasTableRow(r.out, "keep image ghcr.io/stefanprodan/podinfo:6.5.0 used by podinfo-canary"))
      << r.out;
  EXPECT_FALSE(Has(r.out, "delete ")) << r.out;
}

TEST(PruneCmdTest, NoHeadersPrintsTheRowsOnly) {
  PrunePlanOptions o = Upgrade();
  o.output.no_headers = true;
  const PlanRun r = RunPlan(o);
  EXPECT_EQ(r.code, kExitOk) << r.err;
  EXPECT_EQ(testing::SqueezedLines(r.out),
            (std::vector<std::string>{
                "uninstall chart podinfo/podinfo component podinfo stays",
                "remove component dashboards -",
                "uninstall chart monitoring/zarf-ec8af937d0e4972aae9511b4a03f157f84e0928d component "
                "dashboards",
                "keep image ghcr.io/stefanprodan/podinfo:6.5.0 used by podinfo-canary"}))
      << r.out;
}

TEST(PruneCmdTest, JsonIsTheStableForm) {
  PrunePlanOptions o = Upgrade();
  o.output.format = "json";
  const PlanRun r = RunPlan(o);
  ASSERT_EQ(r.code, kExitOk) << r.err;
  auto v = json::ParseJson(r.out);
  ASSERT_TRUE(v.ok()) << r.out;
  EXPECT_EQ(v->StringOr("package"), "podinfo");
  EXPECT_EQ(v->StringOr("operation"), "upgrade");
  EXPECT_EQ(v->StringOr("imagePruning"), "planned");
  EXPECT_TRUE(v->Find("imagePruningError")->is_null());
  const auto& charts = v->Find("charts")->array();
  ASSERT_EQ(charts.size(), 1u);
  EXPECT_EQ(charts[0].Find("charts")->array()[0].as_string(),
            "podinfo/podinfo");
  EXPECT_EQ(v->Find("components")->array()[0].StringOr("name"), "dashboards");
  EXPECT_TRUE(v->Find("images")->array().empty());
  const auto& kept = v->Find("keptImages")->array();
  ASSERT_EQ(kept.size(), 1u);
  EXPECT_EQ(kept[0].StringOr("normalized"),
            "ghcr.io/stefanprodan/podinfo:6.5.0");
  EXPECT_EQ(kept[0].Find("keptBy")->array()[0].as_string(), "podinfo-canary");
}

TEST(PruneCmdTest, RemoveWithNoOtherPackagePrunesBothPushedReferences) {
  PrunePlanOptions o;
  o.deployed = DeployedPodinfo2();
  o.remove = true;
  o.no_others = true;
  o.registry = "127.0.0.1:31999";
  const PlanRun r = RunPlan(o);
  EXPECT_EQ(r.code, kExitOk) << r.err;
  const std::string crc = std::to_string(
      engine::ZarfCrc(*engine::ParseImageRef("ghcr.io/stefanprodan/podinfo")));
  EXPECT_TRUE(testing::HasTableRow(r.out,
                     "delete image ghcr.io/stefanprodan/podinfo:6.5.0 "
                     "as 127.0.0.1:31999/stefanprodan/podinfo:6.5.0, "
                     "127.0.0.1:31999/stefanprodan/podinfo:6.5.0-zarf-" + crc))
      << r.out;
  // Reverse deployment order: dashboards before podinfo.
  EXPECT_LT(r.out.find("component   dashboards"), r.out.find("component   podinfo ")) << r.out;
}

TEST(PruneCmdTest, UnreadableSecretRefusesImagePruningOnlyWithExitOne) {
  PrunePlanOptions o = Upgrade();
  o.unreadable = {"secret zarf/zarf-package-x", "namespace team-b"};
  const PlanRun r = RunPlan(o);
  EXPECT_EQ(r.code, kExitSomeFailed);
  EXPECT_TRUE(Has(
      r.err,
      "missing read access to: secret zarf/zarf-package-x, namespace team-b"))
      << r.err;
  EXPECT_TRUE(Has(r.out, "Images: NOT pruned: image pruning refused")) << r.out;
  EXPECT_TRUE(testing::HasTableRow(r.out, "remove component dashboards -")) << r.out;
  EXPECT_TRUE(testing::HasTableRow(r.out, "uninstall chart podinfo/podinfo component podinfo stays"))
      << r.out;
}

TEST(PruneCmdTest, WithoutOthersImagePruningIsRefused) {
  PrunePlanOptions o = Upgrade();
  o.others.clear();
  const PlanRun r = RunPlan(o);
  EXPECT_EQ(r.code, kExitSomeFailed);
  EXPECT_TRUE(Has(r.err, "no --others given")) << r.err;
}

TEST(PruneCmdTest, UndecodableOtherSecretCountsAsUnreadable) {
  PrunePlanOptions o = Upgrade();
  o.others = {
      testing::WriteTempFile("bad-others.json", R"({"apiVersion":"v1","kind":"Secret",
    "metadata":{"name":"zarf-package-broken","namespace":"zarf",
                "labels":{"package-deploy-info":"broken"}},
    "data":{"data":"!!!not base64"}})")};
  const PlanRun r = RunPlan(o);
  EXPECT_EQ(r.code, kExitSomeFailed);
  EXPECT_TRUE(Has(r.err, "zarf/zarf-package-broken")) << r.err;
  EXPECT_TRUE(Has(r.err, "missing read access to: ")) << r.err;
  EXPECT_TRUE(testing::HasTableRow(r.out, "remove component dashboards -")) << r.out;
}

TEST(PruneCmdTest, NewPackageMayBeASecret) {
  PrunePlanOptions o = Upgrade();
  o.new_package = o.deployed;
  const PlanRun r = RunPlan(o);
  EXPECT_EQ(r.code, kExitOk) << r.err;
  EXPECT_TRUE(Has(r.out, "Nothing to prune.")) << r.out;
}

TEST(PruneCmdTest, EveryLegacyEraPlansAgainstItsOwnList) {
  int eras = 0;
  for (const fs::path& secret :
       testing::LegacyFiles("pkg-small-dos-games.secret.json")) {
    PrunePlanOptions o;
    o.deployed = secret.string();
    o.remove = true;
    o.others = {(secret.parent_path() / "all-secrets.list.json").string()};
    o.output.format = "json";
    const PlanRun r = RunPlan(o);
    EXPECT_EQ(r.code, kExitOk) << secret << "\n" << r.err;
    auto v = json::ParseJson(r.out);
    ASSERT_TRUE(v.ok()) << secret;
    EXPECT_EQ(v->StringOr("imagePruning"), "planned") << secret;
    EXPECT_FALSE(v->Find("components")->array().empty()) << secret;
    ++eras;
  }
  EXPECT_GE(eras, 19);
}

TEST(PruneCmdTest, UsageErrorsExitTwo) {
  PrunePlanOptions o = Upgrade();
  o.remove = true;  // and --new
  EXPECT_EQ(RunPlan(o).code, kExitUsage);
  o = Upgrade();
  o.output.format = "xml";
  EXPECT_EQ(RunPlan(o).code, kExitUsage);
  o = Upgrade();
  o.no_others = true;
  EXPECT_EQ(RunPlan(o).code, kExitUsage);
}

TEST(PruneCmdTest, MissingDeployedFileExitsOne) {
  PrunePlanOptions o = Upgrade();
  o.deployed = "/nonexistent/secret.json";
  const PlanRun r = RunPlan(o);
  EXPECT_EQ(r.code, kExitSomeFailed);
  EXPECT_TRUE(Has(r.err, "error: --deployed: ")) << r.err;
}

}  // namespace
}  // namespace zs::tools

namespace zs::tools {
namespace {

// --package picks one package of a dump, which is also --others (read
// once); the init state in --others gives the registry host.
TEST(PruneCmdTest, PackageOfADumpAndTheRegistryOfTheInitState) {
  const std::string dump = (testing::DataDir() / "samples/others-list.json").string();
  PrunePlanOptions o;
  o.deployed = dump;
  o.others = {dump};
  o.remove = true;
  std::ostringstream out, err;
  o.package = "podinfo";
  EXPECT_EQ(FinishCommand(RunPrunePlan(o, out, err), err), kExitSomeFailed);
  EXPECT_NE(err.str().find("no package podinfo (found: zarf-package-podinfo-canary, "
                           "zarf-package-dos-games)"),
            std::string::npos)
      << err.str();
  o.package = "podinfo-canary";
  std::ostringstream out2, err2;
  ASSERT_EQ(FinishCommand(RunPrunePlan(o, out2, err2), err2), kExitOk) << err2.str();
  EXPECT_NE(out2.str().find("Package \"podinfo-canary\""), std::string::npos) << out2.str();
  EXPECT_NE(out2.str().find("as stefanprodan/podinfo:6.5.0,"), std::string::npos) << out2.str();
  // With the init state among --others: its registry host.
  const std::string state =
      testing::ReadFile(testing::DataDir() / "legacy/e22-v0.80.0-v0.84.0/state-internal.secret.json");
  const std::string with_state = testing::WriteTempFile("with-state.json", state);
  o.others = {dump, with_state};
  std::ostringstream out3, err3;
  ASSERT_EQ(FinishCommand(RunPrunePlan(o, out3, err3), err3), kExitOk) << err3.str();
  EXPECT_NE(out3.str().find("as 127.0.0.1:31999/stefanprodan/podinfo:6.5.0,"), std::string::npos)
      << out3.str();
  o.registry = "registry.example:5000";  // --registry still wins
  std::ostringstream out4, err4;
  ASSERT_EQ(FinishCommand(RunPrunePlan(o, out4, err4), err4), kExitOk) << err4.str();
  EXPECT_NE(out4.str().find("as registry.example:5000/stefanprodan/"), std::string::npos);
}

}  // namespace
}  // namespace zs::tools
