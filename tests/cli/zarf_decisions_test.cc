// Zarf v0.84.0's decisions, one scenario per decision, each a deploy, a
// prune plan and a remove recorded on the same Secret through the commands:
// which components deploy, what a manifest release is called, what a
// namespace override rewrites, what a remove takes, what a failed component
// keeps, generations of components that need no cluster, YOLO connectivity,
// and event types outside today's vocabulary.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "base/digest.h"
#include "model/model_json.h"
#include "kube/package_secret.h"
#include "kube/secret.h"
#include "engine/derived_status.h"
#include "json/json_reader.h"
#include "migrate/migrate.h"
#include "tests/test_util.h"
#include "cli/common.h"
#include "cli/prune_cmd.h"
#include "cli/record_cmd.h"

namespace zs::tools {
namespace {

namespace fs = std::filesystem;

class ZarfDecisionsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(::testing::TempDir()) /
           ("decisions-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string P(const std::string& name) const { return (dir_ / name).string(); }
  std::string Write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name) << text;
    return P(name);
  }

  int Record(const std::string& action, const std::string& package_yaml,
             const std::string& components = "", const std::string& config = "",
             const std::string& fail = "") {
    RecordOptions o;
    o.action = action;
    o.session.secret_path = P("secret.json");
    if (action == "deploy") o.package_file = Write("zarf.yaml", package_yaml);
    o.components = components;
    o.config_file = config;
    o.fail_component = fail;
    std::ostringstream out;
    err_.str("");
    return FinishCommand(RunRecord(o, out, err_), err_);
  }

  std::string SecretText() const { return testing::ReadFile(dir_ / "secret.json"); }

  DeployedPackage Stored() const {
    auto in = ReadInput(SecretText(), "secret");
    EXPECT_TRUE(in.ok());
    return *ParseDeployedPackage(in->objects.at(0).payload);
  }

  // `prune plan -o json` of the Secret against `package_yaml`, no other
  // package deployed.
  json::Value Plan(const std::string& package_yaml) {
    PrunePlanOptions o;
    o.deployed = P("secret.json");
    o.new_package = Write("next.yaml", package_yaml);
    o.no_others = true;
    o.output.format = "json";
    std::ostringstream out, err;
    EXPECT_EQ(FinishCommand(RunPrunePlan(o, out, err), err), kExitOk) << err.str();
    auto v = json::ParseJson(out.str());
    EXPECT_TRUE(v.ok()) << out.str();
    return v.ok() ? *v : json::Value();
  }

  static std::size_t Count(const json::Value& plan, std::string_view list) {
    const json::Value* v = plan.Find(list);
    return v != nullptr && v->is_array() ? v->array().size() : 0;
  }

  static std::vector<std::string> Names(const DeployedPackage& p) {
    std::vector<std::string> out;
    for (const DeployedComponent& c : *p.deployed_components) out.push_back(c.name);
    return out;
  }
  static std::vector<std::string> Defined(const DeployedPackage& p) {
    std::vector<std::string> out;
    for (const json::Value& c : p.data.Find("components")->array()) out.emplace_back(c.StringOr("name"));
    return out;
  }

  fs::path dir_;
  std::ostringstream err_;
};

constexpr const char* kManifests = R"(kind: ZarfPackageConfig
metadata:
  name: app
components:
  - name: web
    required: true
    manifests:
      - name: site
        files: [site.yaml]
      - name: api
        namespace: api
        files: [api.yaml]
)";

TEST_F(ZarfDecisionsTest, ManifestReleasesAreZarfsAndAPlanOverTheSamePackageUninstallsNothing) {
  ASSERT_EQ(Record("deploy", kManifests), kExitOk) << err_.str();
  const DeployedPackage p = Stored();
  const auto& charts = *p.FindComponent("web")->installed_charts;
  ASSERT_EQ(charts.size(), 2u);
  EXPECT_EQ(charts[0].namespace_, "default");
  EXPECT_EQ(charts[0].chart_name, "zarf-" + Sha1Hex("raw-app-web-site"));
  EXPECT_EQ(charts[1].namespace_, "api");
  EXPECT_EQ(charts[1].chart_name, "zarf-" + Sha1Hex("raw-app-web-api"));
  EXPECT_EQ(Count(Plan(kManifests), "charts"), 0u);

  // A Secret an earlier writer left with the `raw-...` spelling: the plan
  // still uninstalls nothing.
  DeployedPackage old = p;
  (*old.FindComponent("web")->installed_charts)[0] = {"", "raw-app-web-site", {}, "Succeeded", {}};
  (*old.FindComponent("web")->installed_charts)[1] = {"api", "raw-app-web-api", {}, "Succeeded", {}};
  std::ofstream(dir_ / "secret.json")
      << WriteObject(MakePackageSecret("app", "", EncodeDeployedPackage(old)), TextFormat::kJson);
  EXPECT_EQ(Count(Plan(kManifests), "charts"), 0u);

  ASSERT_EQ(Record("remove", ""), kExitOk) << err_.str();
  EXPECT_FALSE(fs::exists(dir_ / "secret.json"));
}

constexpr const char* kOneNamespace = R"(kind: ZarfPackageConfig
metadata:
  name: app
components:
  - name: web
    required: true
    charts:
      - name: podinfo
        namespace: podinfo
    manifests:
      - name: extra
        namespace: podinfo
        files: [extra.yaml]
    actions:
      onDeploy:
        after:
          - wait:
              cluster:
                kind: deployment
                name: podinfo
                namespace: podinfo
)";

TEST_F(ZarfDecisionsTest, NamespaceOverrideRewritesTheDefinitionAndKeepsOneEntryPerRelease) {
  const std::string config = Write("config.json", R"({"NamespaceOverride":"team-a"})");
  ASSERT_EQ(Record("deploy", kOneNamespace, "", config), kExitOk) << err_.str();
  ASSERT_EQ(Record("deploy", kOneNamespace, "", config), kExitOk) << err_.str();
  const DeployedPackage p = Stored();
  EXPECT_EQ(p.namespace_override, "team-a");
  const json::Value& web = p.data.Find("components")->array()[0];
  EXPECT_EQ(web.Find("charts")->array()[0].StringOr("namespace"), "team-a");
  EXPECT_EQ(web.Find("manifests")->array()[0].StringOr("namespace"), "team-a");
  const json::Value& wait = web.Find("actions")->Find("onDeploy")->Find("after")->array()[0];
  EXPECT_EQ(wait.Find("wait")->Find("cluster")->StringOr("namespace"), "team-a");
  const auto& charts = *p.FindComponent("web")->installed_charts;
  ASSERT_EQ(charts.size(), 2u);  // one entry per release after two deploys
  EXPECT_EQ(charts[0].namespace_, "team-a");
  EXPECT_EQ(charts[0].chart_name, "podinfo");
  EXPECT_EQ(charts[1].namespace_, "team-a");
  // The plan reads the package with the override applied, as Zarf deploys it.
  EXPECT_EQ(Count(Plan(kOneNamespace), "charts"), 0u);
  ASSERT_EQ(Record("remove", ""), kExitOk) << err_.str();
  EXPECT_FALSE(fs::exists(dir_ / "secret.json"));

  // Zarf's refusals, nothing written.
  const std::string two = std::string(kOneNamespace) + "  - name: db\n    required: true\n"
                          "    charts:\n      - name: pg\n        namespace: data\n";
  EXPECT_EQ(Record("deploy", two, "", config), kExitSomeFailed);
  EXPECT_NE(err_.str().find("package contains 2 unique namespaces, cannot override namespace"),
            std::string::npos) << err_.str();
  std::string forbidden = kOneNamespace;
  forbidden.replace(forbidden.find("  name: app\n"), 12, "  name: app\n  allowNamespaceOverride: false\n");
  EXPECT_EQ(Record("deploy", forbidden, "", config), kExitSomeFailed);
  EXPECT_NE(err_.str().find("package explicitly prevents namespace overrides"), std::string::npos);
  EXPECT_FALSE(fs::exists(dir_ / "secret.json"));
}

constexpr const char* kSelection = R"(kind: ZarfPackageConfig
metadata:
  name: app
components:
  - name: base
    required: true
    charts: [{name: base, namespace: app}]
  - name: logging
    default: true
    charts: [{name: logging, namespace: app}]
  - name: extras
    charts: [{name: extras, namespace: app}]
  - name: flavor-a
    group: flavor
    charts: [{name: a, namespace: app}]
  - name: flavor-b
    group: flavor
    default: true
    charts: [{name: b, namespace: app}]
)";

TEST_F(ZarfDecisionsTest, ComponentSelectionIsZarfsFilterAndARefusalWritesNothing) {
  ASSERT_EQ(Record("deploy", kSelection), kExitOk) << err_.str();
  DeployedPackage p = Stored();
  const std::vector<std::string> defaults = {"base", "logging", "flavor-b"};
  EXPECT_EQ(Names(p), defaults);
  EXPECT_EQ(Defined(p), defaults);  // data: the definition filtered to them
  const std::string before = SecretText();
  EXPECT_EQ(Record("deploy", kSelection, "nosuch"), kExitSomeFailed);
  EXPECT_NE(err_.str().find("error applying filter *filters.deploymentFilter: no compatible "
                            "components found: nosuch, suggestions ("),
            std::string::npos) << err_.str();
  EXPECT_EQ(Record("deploy", kSelection, "flavor-a, FLAVOR-B"), kExitSomeFailed);
  EXPECT_NE(err_.str().find("cannot specify multiple components from the same group: group: "
                            "flavor selected: flavor-a, flavor-b"),
            std::string::npos) << err_.str();
  EXPECT_EQ(SecretText(), before);
  // A glob and an exclusion: extras added, logging excluded, the group's
  // default kept.
  ASSERT_EQ(Record("deploy", kSelection, "ext*,-logging"), kExitOk) << err_.str();
  p = Stored();
  // logging stays deployed (the ZEP keeps what a deploy did not touch), with
  // its definition after the deploy's.
  EXPECT_EQ(Defined(p), (std::vector<std::string>{"base", "extras", "flavor-b", "logging"}));
  EXPECT_EQ(Names(p), (std::vector<std::string>{"base", "logging", "flavor-b", "extras"}));
  const json::Value plan = Plan(kSelection);
  EXPECT_EQ(Count(plan, "charts"), 0u);
  EXPECT_EQ(Count(plan, "components"), 0u);
  ASSERT_EQ(Record("remove", ""), kExitOk) << err_.str();
  EXPECT_FALSE(fs::exists(dir_ / "secret.json"));
}

TEST_F(ZarfDecisionsTest, RemoveTakesWhatZarfTakesAndKeepsTheSecretWhileAnyRemains) {
  ASSERT_EQ(Record("deploy", kSelection, "extras"), kExitOk) << err_.str();
  const std::string before = SecretText();
  EXPECT_EQ(Record("remove", "", "nosuch"), kExitSomeFailed);
  EXPECT_NE(err_.str().find("package to remove contains no components"), std::string::npos);
  EXPECT_EQ(Record("remove", "", "-extras"), kExitSomeFailed);  // an exclusion alone takes nothing
  EXPECT_EQ(SecretText(), before);
  ASSERT_EQ(Record("remove", "", "EXTRAS,log*"), kExitOk) << err_.str();
  EXPECT_EQ(Names(Stored()), (std::vector<std::string>{"base", "flavor-b"}));
  const json::Value plan = Plan(kSelection);
  EXPECT_EQ(Count(plan, "components"), 0u);
  ASSERT_EQ(Record("remove", ""), kExitOk) << err_.str();
  EXPECT_FALSE(fs::exists(dir_ / "secret.json"));
}

constexpr const char* kSmaller = R"(kind: ZarfPackageConfig
metadata:
  name: app
  yolo: true
components:
  - name: web
    required: true
    charts:
      - name: one
        namespace: app
      - name: two
        namespace: app
  - name: script
    required: true
    actions:
      onDeploy:
        before:
          - cmd: echo hi
)";

TEST_F(ZarfDecisionsTest, FailedChartsGenerationsOfLocalComponentsAndYolo) {
  ASSERT_EQ(Record("deploy", kSmaller), kExitOk) << err_.str();
  DeployedPackage p = Stored();
  EXPECT_EQ(p.package_connectivity, "connected");  // YOLO, though --connectivity is airgap
  EXPECT_EQ(p.FindComponent("web")->observed_generation, 1);
  EXPECT_EQ(p.FindComponent("script")->observed_generation, 1);
  ASSERT_EQ(Record("deploy", kSmaller), kExitOk) << err_.str();
  p = Stored();
  EXPECT_EQ(p.FindComponent("web")->observed_generation, 2);
  // A component that needs no cluster is written at generation 1, which
  // the write sets as the package's (deploy.go:243-265).
  EXPECT_EQ(p.FindComponent("script")->observed_generation, 1);
  EXPECT_EQ(p.generation, 1);
  EXPECT_EQ(Record("deploy", kSmaller, "", "", "web"), kExitSomeFailed);
  p = Stored();
  const auto& charts = *p.FindComponent("web")->installed_charts;
  ASSERT_EQ(charts.size(), 2u);
  EXPECT_EQ(charts[0].status, "Succeeded");
  EXPECT_EQ(charts[1].status, "Failed");
  EXPECT_EQ(p.FindComponent("web")->status, "Failed");
  EXPECT_EQ(Count(Plan(kSmaller), "charts"), 0u);
  ASSERT_EQ(Record("remove", ""), kExitOk) << err_.str();
  EXPECT_FALSE(fs::exists(dir_ / "secret.json"));
}

TEST_F(ZarfDecisionsTest, EventsOutsideTodaysVocabularyStayTheHistory) {
  ASSERT_EQ(Record("deploy", kSmaller), kExitOk) << err_.str();
  DeployedPackage p = Stored();
  PackageEvent start = p.events.back();
  start.outcome = "InProgress";
  PackageEvent upgrade = p.events.back();
  upgrade.type = "Upgrade";
  upgrade.outcome = "Paused";
  p.events = {start, upgrade};
  const std::string payload = EncodeDeployedPackage(p);
  auto migrated = migrate::MigratePayload(payload, PayloadKind::kPackage,
                                          *migrate::ParseTarget("v2"));
  ASSERT_TRUE(migrated.ok()) << migrated.status().ToString();
  EXPECT_EQ(migrated->bytes.find("x-zarf-state-foreign-events"), std::string::npos);
  auto back = ParseDeployedPackage(migrated->bytes);
  ASSERT_TRUE(back.ok());
  ASSERT_EQ(back->events.size(), 2u);
  ASSERT_NE(engine::LatestEvent(*back), nullptr);
  EXPECT_EQ(engine::LatestEvent(*back)->type, "Upgrade");
  EXPECT_FALSE(engine::InProgressSince(*back).has_value());  // not an old deploy in progress
}

}  // namespace
}  // namespace zs::tools
