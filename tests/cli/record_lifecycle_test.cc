// `record` against Zarf's own code paths, end to end: kept components stay
// removable and prunable, a remove that leaves nothing deletes the Secret,
// required components are deployed, one operation at a time, and replay's
// view of a Secret alone.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "json/json_reader.h"
#include "model/model_json.h"
#include "kube/secret.h"
#include "tests/test_dir.h"
#include "tests/test_util.h"
#include "cli/common.h"
#include "cli/prune_cmd.h"
#include "cli/record_cmd.h"
#include "cli/replay_cmd.h"

namespace zs::tools {
namespace {

namespace fs = std::filesystem;

constexpr const char* kDemoV1 =
    "kind: ZarfPackageConfig\nmetadata:\n  name: demo\n  version: 1.0.0\ncomponents:\n"
    "  - name: app\n    required: true\n    images:\n      - nginx:1.25\n"
    "  - name: extra\n    required: true\n    images:\n      - busybox:1.36\n"
    "    charts:\n      - name: extra-chart\n        namespace: extra\n"
    "    actions:\n      onRemove:\n        before:\n          - cmd: ./drain-extra.sh\n";
constexpr const char* kDemoV2 =
    "kind: ZarfPackageConfig\nmetadata:\n  name: demo\n  version: 2.0.0\ncomponents:\n"
    "  - name: app\n    required: true\n    images:\n      - nginx:1.25\n";
constexpr const char* kOther =
    "kind: ZarfPackageConfig\nmetadata:\n  name: other\n  version: 1.0.0\ncomponents:\n"
    "  - name: tools\n    required: true\n    images:\n      - busybox:1.36\n";

class RecordLifecycleTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::FreshTestDir("record-lifecycle");
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string P(const std::string& name) const { return (dir_ / name).string(); }
  std::string Write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name) << text;
    return P(name);
  }

  RecordOptions Options(const std::string& action, const std::string& secret = "secret.json") {
    RecordOptions o;
    o.action = action;
    o.session.secret_path = P(secret);
    o.session.log_path = P(secret + ".log.jsonl");
    return o;
  }
  int Run(const RecordOptions& o) {
    out_.str("");
    err_.str("");
    return FinishCommand(RunRecord(o, out_, err_), err_);
  }
  int Deploy(const std::string& yaml, std::vector<std::string> components = {},
             const std::string& secret = "secret.json") {
    RecordOptions o = Options("deploy", secret);
    o.package_file = Write(secret + ".zarf.yaml", yaml);
    for (const std::string& c : components) o.components += (o.components.empty() ? "" : ",") + c;
    return Run(o);
  }

  DeployedPackage Stored(const std::string& secret = "secret.json") {
    auto in = ReadInput(testing::ReadFile(dir_ / secret), secret);
    EXPECT_TRUE(in.ok()) << in.status().ToString();
    return *ParseDeployedPackage(in->objects.at(0).payload);
  }

  fs::path dir_;
  std::ostringstream out_, err_;
};

// Zarf's remove (remove.go): deployed components in reverse, a name not in
// data.components skipped (never removed); the Secret is deleted when no
// deployed component is left.
struct ZarfRemoval {
  std::vector<std::string> removed, skipped;
  bool secret_deleted = false;
};
ZarfRemoval ApplyZarfRemove(const DeployedPackage& pkg) {
  ZarfRemoval r;
  const json::Value* defs = pkg.data.Find("components");
  for (auto it = pkg.deployed_components->rbegin(); it != pkg.deployed_components->rend(); ++it) {
    const bool defined =
        defs != nullptr && std::any_of(defs->array().begin(), defs->array().end(),
                                       [&](const json::Value& d) { return d.StringOr("name") == it->name; });
    (defined ? r.removed : r.skipped).push_back(it->name);
  }
  r.secret_deleted = r.skipped.empty();
  return r;
}

TEST_F(RecordLifecycleTest, AKeptComponentStaysPrunableAndRemovable) {
  ASSERT_EQ(Deploy(kDemoV1), kExitOk) << err_.str();
  ASSERT_EQ(Deploy(kDemoV2), kExitOk) << err_.str();
  ASSERT_EQ(Deploy(kOther, {}, "other.json"), kExitOk) << err_.str();
  ASSERT_NE(Stored().FindComponent("extra"), nullptr);  // kept by the partial-deploy rule

  // Another package is removed with --prune: busybox:1.36 is still run by
  // demo's kept `extra`, so neither of its pushed references is planned.
  PrunePlanOptions other;
  other.deployed = P("other.json");
  other.remove = true;
  other.others = {P("secret.json")};
  other.output.format = "json";
  std::ostringstream out, err;
  ASSERT_EQ(FinishCommand(RunPrunePlan(other, out, err), err), kExitOk) << err.str();
  EXPECT_EQ(out.str().find("busybox:1.36-zarf-"), std::string::npos) << out.str();
  auto plan = json::ParseJson(out.str());
  ASSERT_TRUE(plan.ok());
  EXPECT_TRUE(plan->Find("images")->array().empty()) << out.str();
  const json::Array& kept = plan->Find("keptImages")->array();
  ASSERT_EQ(kept.size(), 1u) << out.str();
  EXPECT_EQ(kept.at(0).StringOr("image"), "busybox:1.36");
  EXPECT_EQ(kept.at(0).Find("keptBy")->array().at(0).as_string(), "demo");

  // demo itself removed with --prune: extra's onRemove actions and chart
  // are in the plan.
  PrunePlanOptions demo;
  demo.deployed = P("secret.json");
  demo.remove = true;
  demo.no_others = true;
  std::ostringstream out2, err2;
  ASSERT_EQ(FinishCommand(RunPrunePlan(demo, out2, err2), err2), kExitOk) << err2.str();
  EXPECT_NE(out2.str().find("./drain-extra.sh"), std::string::npos) << out2.str();
  EXPECT_NE(out2.str().find("extra/extra-chart"), std::string::npos) << out2.str();

  // Zarf's own remove rule finds every component of the Secret we wrote.
  const ZarfRemoval zarf = ApplyZarfRemove(Stored());
  EXPECT_EQ(zarf.removed, (std::vector<std::string>{"extra", "app"}));
  EXPECT_TRUE(zarf.skipped.empty());
  EXPECT_TRUE(zarf.secret_deleted);
}

TEST_F(RecordLifecycleTest, ARemoveThatLeavesNoComponentDeletesTheSecretFile) {
  ASSERT_EQ(Deploy(kDemoV1), kExitOk) << err_.str();
  const std::string log_before = testing::ReadFile(P("secret.json.log.jsonl"));
  ASSERT_EQ(Run(Options("remove")), kExitOk) << err_.str();
  EXPECT_FALSE(fs::exists(P("secret.json")));
  EXPECT_NE(err_.str().find("Secret zarf-package-demo deleted"), std::string::npos) << err_.str();
  const std::string log_after = testing::ReadFile(P("secret.json.log.jsonl"));
  EXPECT_TRUE(log_after.starts_with(log_before));
  // The log is compressed: read its records as `replay --dump` prints them.
  ReplayOptions dump;
  dump.log_path = P("secret.json.log.jsonl");
  dump.dump = true;
  std::ostringstream records, dump_err;
  ASSERT_EQ(FinishCommand(RunReplay(dump, records, dump_err), dump_err), kExitOk) << dump_err.str();
  EXPECT_NE(records.str().find("\"Remove\",\"outcome\":\"Succeeded\""), std::string::npos);
  // The next deploy starts a new Secret at generation 1, as Zarf's would.
  ASSERT_EQ(Deploy(kDemoV2), kExitOk) << err_.str();
  const DeployedPackage p = Stored();
  EXPECT_EQ(p.generation, 1);
  EXPECT_EQ(p.events.size(), 2u);
  EXPECT_EQ(p.FindComponent("extra"), nullptr);
}

TEST_F(RecordLifecycleTest, WithStdoutTheDeletionIsPrintedForKubectlDelete) {
  ASSERT_EQ(Deploy(kDemoV1), kExitOk) << err_.str();
  const std::string before = testing::ReadFile(P("secret.json"));
  RecordOptions o = Options("remove");
  o.session.to_stdout = true;
  ASSERT_EQ(Run(o), kExitOk) << err_.str();
  EXPECT_EQ(testing::ReadFile(P("secret.json")), before);  // --stdout touches no file
  auto doc = json::ParseJson(out_.str());
  ASSERT_TRUE(doc.ok()) << out_.str();
  EXPECT_EQ(*doc, *json::ParseJson(R"({"apiVersion":"v1","kind":"Secret",)"
                                   R"("metadata":{"name":"zarf-package-demo","namespace":"zarf"}})"));
}

TEST_F(RecordLifecycleTest, ComponentsIsZarfsFilterWithRequiredOnesAlwaysIn) {
  const std::string yaml =
      "kind: ZarfPackageConfig\nmetadata:\n  name: demo\ncomponents:\n"
      "  - name: base\n    required: true\n  - name: web\n  - name: extra\n    required: false\n";
  ASSERT_EQ(Deploy(yaml, {"web"}), kExitOk) << err_.str();
  const DeployedPackage p = Stored();
  ASSERT_EQ(p.deployed_components->size(), 2u);
  EXPECT_EQ(p.deployed_components->at(0).name, "base");
  EXPECT_EQ(p.deployed_components->at(1).name, "web");
  EXPECT_EQ(err_.str(), "");
  ASSERT_EQ(Deploy(yaml, {"base", "web"}), kExitOk);
  EXPECT_EQ(err_.str(), "");
}

TEST_F(RecordLifecycleTest, OneOperationAtATime) {
  RecordOptions begin = Options("deploy");
  begin.package_file = Write("zarf.yaml", kDemoV1);
  begin.begin_only = true;
  ASSERT_EQ(Run(begin), kExitOk) << err_.str();
  const std::string secret = testing::ReadFile(P("secret.json"));
  EXPECT_EQ(Run(Options("remove")), kExitSomeFailed);
  EXPECT_NE(err_.str().find("a Deploy of version 1.0.0 has been InProgress since"), std::string::npos)
      << err_.str();
  EXPECT_NE(err_.str().find("record abandon"), std::string::npos);
  EXPECT_EQ(Deploy(kDemoV2), kExitSomeFailed);
  EXPECT_EQ(testing::ReadFile(P("secret.json")), secret);
  RecordOptions abandon = Options("abandon");
  abandon.outcome = "Cancelled";
  ASSERT_EQ(Run(abandon), kExitOk) << err_.str();
  EXPECT_EQ(Deploy(kDemoV2), kExitOk) << err_.str();
}

TEST_F(RecordLifecycleTest, ReplayVerifyReportsAnOverlappedInProgress) {
  DeployedPackage pkg;
  pkg.name = "demo";
  pkg.deployed_components.emplace();
  auto event = [](const char* type, const char* outcome, const char* when) {
    PackageEvent e;
    e.type = type;
    e.outcome = outcome;
    e.timestamp = *ParseRfc3339(when);
    return e;
  };
  pkg.events = {event("Deploy", "InProgress", "2026-01-01T00:00:00Z"),
                event("Remove", "InProgress", "2026-01-01T00:01:00Z"),
                event("Remove", "Succeeded", "2026-01-01T00:02:00Z")};
  const std::string path = Write("overlap.json", WriteObject(MakePackageSecret("demo", "", EncodeDeployedPackage(pkg)),
                                                             TextFormat::kJson));
  ReplayOptions o;
  o.secret_path = path;
  o.verify = true;
  std::ostringstream out, err;
  EXPECT_EQ(FinishCommand(RunReplay(o, out, err), err), kExitSomeFailed) << out.str() << err.str();
  EXPECT_NE(out.str().find("events[0]: stored Deploy/InProgress at 2026-01-01T00:00:00Z, still open "
                           "when events[1] Remove/InProgress began"),
            std::string::npos)
      << out.str();
  pkg.events.erase(pkg.events.begin());
  Write("overlap.json", WriteObject(MakePackageSecret("demo", "", EncodeDeployedPackage(pkg)), TextFormat::kJson));
  std::ostringstream out2;
  EXPECT_EQ(FinishCommand(RunReplay(o, out2, err), err), kExitOk) << out2.str();
}

TEST_F(RecordLifecycleTest, ReplayOfASecretShowsTheStateAtEachStep) {
  ASSERT_EQ(Deploy(kDemoV1), kExitOk) << err_.str();
  ASSERT_EQ(Deploy(kDemoV2, {"app"}), kExitOk) << err_.str();
  ReplayOptions o;
  o.secret_path = P("secret.json");
  o.upto = 2;
  std::ostringstream out, err;
  ASSERT_EQ(FinishCommand(RunReplay(o, out, err), err), kExitOk) << err.str();
  // After the first deploy's end, extra's lastEvent (recorded then) is
  // known; app was deployed again later, so its state then is not recorded.
  EXPECT_NE(out.str().find("   Deploy/Succeeded    ?            extra=Deploy/Succeeded,app=?\n"),
            std::string::npos)
      << out.str();
  o.upto = 0;
  std::ostringstream all;
  ASSERT_EQ(FinishCommand(RunReplay(o, all, err), err), kExitOk);
  EXPECT_NE(all.str().find("\n4 "), std::string::npos) << all.str();
  EXPECT_NE(all.str().find("   3            app=Deploy/Succeeded,extra=Deploy/Succeeded\n"),
            std::string::npos)
      << all.str();
}

}  // namespace
}  // namespace zs::tools
