#include "engine/prune.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "json/json_reader.h"
#include "model/model.h"

namespace zs::engine {
namespace {

json::Value Json(const std::string& text) {
  auto v = json::ParseJson(text);
  EXPECT_TRUE(v.ok()) << v.status().ToString();
  return v.ok() ? *v : json::Value();
}

// A package deployed from `definition`, every component deployed with the
// charts Zarf installs for it.
DeployedPackage Deployed(const std::string& definition) {
  DeployedPackage pkg;
  pkg.data = Json(definition);
  pkg.name = std::string(pkg.data.Find("metadata")->StringOr("name"));
  pkg.deployed_components.emplace();
  for (const json::Value& c : pkg.data.Find("components")->array()) {
    DeployedComponent dc;
    dc.name = std::string(c.StringOr("name"));
    dc.installed_charts = ExpectedCharts(c, pkg.name);
    dc.status = "Succeeded";
    pkg.deployed_components->push_back(std::move(dc));
  }
  return pkg;
}

// A package named `name` with one component listing `images`.
std::string WithImages(const std::string& name,
                       const std::vector<std::string>& images) {
  std::string list;
  for (const std::string& i : images)
    list += (list.empty() ? "\"" : ",\"") + i + "\"";
  return R"({"kind":"ZarfPackageConfig","metadata":{"name":")" + name +
         R"("},"components":[{"name":"main","images":[)" + list + "]}]}";
}

const char* kV1 =
    R"({"kind":"ZarfPackageConfig","metadata":{"name":"app","version":"1"},
  "components":[
   {"name":"web","charts":[{"name":"web","namespace":"app"},{"name":"cache","releaseName":"redis","namespace":"app"}],
    "manifests":[{"name":"extras","namespace":"app"}],
    "images":["nginx:1.25","redis:7"]},
   {"name":"dashboards","manifests":[{"name":"grafana","namespace":"monitoring"}],
    "images":["grafana/grafana:10.0.0"],
    "actions":{"onRemove":{
      "onFailure":[{"cmd":"echo failed"}],
      "after":[{"cmd":"echo after","description":"clean up"}],
      "before":[{"cmd":"echo before1"},{"cmd":"echo before2"}],
      "onSuccess":[{"description":"done"}]}}},
   {"name":"tools","images":["busybox"]}]})";

const char* kV2 =
    R"({"kind":"ZarfPackageConfig","metadata":{"name":"app","version":"2"},
  "components":[
   {"name":"web","charts":[{"name":"web","namespace":"app"}],
    "images":["docker.io/library/nginx:1.25","redis:7.2"]},
   {"name":"tools","images":["busybox:latest"]}]})";

TEST(PrunePlanTest,
     ComponentRemovedBetweenVersionsIsRemovedWithItsActionsInZarfOrder) {
  auto plan = PlanUpgrade(Deployed(kV1), Json(kV2), {}, {});
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  ASSERT_EQ(plan->components.size(), 1u);
  const ComponentToRemove& c = plan->components[0];
  EXPECT_EQ(c.name, "dashboards");
  EXPECT_EQ(c.charts,
            std::vector<std::string>{"monitoring/zarf-d5b04e970758d6e30b72825ad984600657995bf9"});
  std::vector<std::string> order;
  for (const PruneAction& a : c.actions)
    order.push_back(a.phase + ":" + a.cmd + a.description);
  EXPECT_EQ(order, (std::vector<std::string>{
                       "before:echo before1", "before:echo before2",
                       "after:echo afterclean up", "onSuccess:done"}));
  ASSERT_EQ(c.on_failure.size(), 1u);
  EXPECT_EQ(c.on_failure[0].cmd, "echo failed");
}

TEST(PrunePlanTest, ChartRemovedInsideAKeptComponentIsUninstalled) {
  auto plan = PlanUpgrade(Deployed(kV1), Json(kV2), {}, {});
  ASSERT_TRUE(plan.ok());
  ASSERT_EQ(plan->charts.size(), 1u);
  EXPECT_EQ(plan->charts[0].component, "web");
  EXPECT_EQ(plan->charts[0].charts,
            (std::vector<std::string>{"app/redis", "app/zarf-6ffe9f141b3c4ee45eb1a38d4f432d4b47ed61d9"}));
}

TEST(PrunePlanTest, ChartMovedToAnotherNamespaceIsUninstalledFromTheOldOne) {
  DeployedPackage deployed = Deployed(R"({"metadata":{"name":"p"},"components":[
    {"name":"c","charts":[{"name":"x","namespace":"a"}]}]})");
  auto plan =
      PlanUpgrade(deployed, Json(R"({"metadata":{"name":"p"},"components":[
    {"name":"c","charts":[{"name":"x","namespace":"b"}]}]})"),
                  {}, {});
  ASSERT_TRUE(plan.ok());
  ASSERT_EQ(plan->charts.size(), 1u);
  EXPECT_EQ(plan->charts[0].charts, std::vector<std::string>{"a/x"});
}

TEST(PrunePlanTest, ImagesNoLongerListedArePrunedWithBothPushedReferences) {
  auto plan = PlanUpgrade(Deployed(kV1), Json(kV2), {}, {});
  ASSERT_TRUE(plan.ok());
  ASSERT_EQ(plan->images.size(), 2u);
  EXPECT_EQ(plan->images[0].image, "redis:7");
  EXPECT_EQ(plan->images[0].references,
            (std::vector<std::string>{
                "library/redis:7",
                "library/redis:7-zarf-" +
                    std::to_string(ZarfCrc(plan->images[0].ref))}));
  EXPECT_EQ(plan->images[1].image, "grafana/grafana:10.0.0");
  EXPECT_TRUE(plan->kept_images.empty());
  EXPECT_FALSE(plan->image_pruning_refused.has_value());
}

TEST(PrunePlanTest, SpellingsNormalizingToOneImageCountAsOne) {
  // kV2 lists "docker.io/library/nginx:1.25" and "busybox:latest" where kV1
  // had "nginx:1.25" and "busybox": neither is pruned.
  auto plan = PlanUpgrade(Deployed(kV1), Json(kV2), {}, {});
  ASSERT_TRUE(plan.ok());
  for (const ImageToPrune& i : plan->images) {
    EXPECT_NE(i.ref.path, "library/nginx");
    EXPECT_NE(i.ref.path, "library/busybox");
  }
  // And another package's spelling keeps an image this one drops.
  DeployedPackage a =
      Deployed(WithImages("a", {"nginx:1.25", "docker.io/library/nginx:1.25"}));
  DeployedPackage b =
      Deployed(WithImages("b", {"index.docker.io/library/nginx:1.25"}));
  auto removal = PlanRemove(a, {b}, {});
  ASSERT_TRUE(removal.ok());
  EXPECT_TRUE(removal->images.empty());
  ASSERT_EQ(removal->kept_images.size(), 1u);  // deduplicated within `a` too
  EXPECT_EQ(removal->kept_images[0].kept_by, std::vector<std::string>{"b"});
}

TEST(PrunePlanTest, SharedImageIsKeptWhileReferencedAndPrunedOnceNothingDoes) {
  DeployedPackage a = Deployed(
      WithImages("a", {"ghcr.io/org/shared:1", "ghcr.io/org/only-a:1"}));
  DeployedPackage b = Deployed(WithImages("b", {"ghcr.io/org/shared:1"}));
  DeployedPackage c =
      Deployed(WithImages("c", {"ghcr.io/org/shared:1", "busybox"}));
  // a is removed while b and c still reference the shared image.
  auto first = PlanRemove(a, {b, c}, {});
  ASSERT_TRUE(first.ok());
  ASSERT_EQ(first->images.size(), 1u);
  EXPECT_EQ(first->images[0].image, "ghcr.io/org/only-a:1");
  ASSERT_EQ(first->kept_images.size(), 1u);
  EXPECT_EQ(first->kept_images[0].image, "ghcr.io/org/shared:1");
  EXPECT_EQ(first->kept_images[0].kept_by,
            (std::vector<std::string>{"b", "c"}));
  // b upgrades to a version without it: c keeps it.
  auto second =
      PlanUpgrade(b, Json(WithImages("b", {"ghcr.io/org/new:2"})), {c}, {});
  ASSERT_TRUE(second.ok());
  EXPECT_TRUE(second->images.empty());
  ASSERT_EQ(second->kept_images.size(), 1u);
  // Then c is removed and nothing else references it: it is pruned, once.
  DeployedPackage b2 = Deployed(WithImages("b", {"ghcr.io/org/new:2"}));
  auto third = PlanRemove(c, {b2}, {});
  ASSERT_TRUE(third.ok());
  ASSERT_EQ(third->images.size(), 2u);
  EXPECT_EQ(
      third->images[0].references,
      (std::vector<std::string>{
          "org/shared:1", "org/shared:1-zarf-" +
                              std::to_string(ZarfCrc(third->images[0].ref))}));
  EXPECT_EQ(third->images[1].references[1],
            "library/busybox:latest-zarf-2140033595");
  EXPECT_TRUE(third->kept_images.empty());
}

TEST(PrunePlanTest, TheDeployedPackageItselfAmongTheOthersKeepsNothing) {
  DeployedPackage a = Deployed(WithImages("a", {"ghcr.io/org/x:1"}));
  auto plan = PlanRemove(a, {a}, {});
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->images.size(), 1u);
}

TEST(PrunePlanTest, SamePackageUnderANamespaceOverrideIsAnotherPackage) {
  DeployedPackage a = Deployed(WithImages("games", {"ghcr.io/org/doom:1"}));
  DeployedPackage b = a;
  b.namespace_override = "games-2";
  auto plan = PlanRemove(a, {a, b}, {});
  ASSERT_TRUE(plan.ok());
  EXPECT_TRUE(plan->images.empty());
  ASSERT_EQ(plan->kept_images.size(), 1u);
  EXPECT_EQ(plan->kept_images[0].kept_by,
            std::vector<std::string>{"games (namespace override games-2)"});
}

TEST(PrunePlanTest, OnlyDeployedComponentsOfOthersKeepImages) {
  DeployedPackage a = Deployed(WithImages("a", {"ghcr.io/org/x:1"}));
  DeployedPackage b = Deployed(R"({"metadata":{"name":"b"},"components":[
    {"name":"on","images":["busybox"]},{"name":"off","images":["ghcr.io/org/x:1"]}]})");
  b.deployed_components->pop_back();  // "off" was never deployed
  auto plan = PlanRemove(a, {b}, {});
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->images.size(), 1u);
  b.deployed_components.reset();  // no record at all: every component counts
  plan = PlanRemove(a, {b}, {});
  ASSERT_TRUE(plan.ok());
  EXPECT_TRUE(plan->images.empty());
}

const std::string kSha = "sha256:" + std::string(64, 'b');

TEST(PrunePlanTest, DigestPinnedImagesArePrunedByDigestOnly) {
  DeployedPackage a = Deployed(
      WithImages("a", {"ghcr.io/org/pinned@" + kSha, "nginx:1.25@" + kSha}));
  DeployedPackage b = Deployed(WithImages(
      "b", {"ghcr.io/org/pinned:1", "docker.io/library/nginx@" + kSha}));
  auto plan = PlanRemove(a, {b}, {});
  ASSERT_TRUE(plan.ok());
  // A tag does not keep a digest: the planner cannot resolve tags.
  ASSERT_EQ(plan->images.size(), 1u);
  EXPECT_EQ(plan->images[0].references,
            std::vector<std::string>{"org/pinned@" + kSha});
  // The same digest spelled differently is one image, kept by b.
  ASSERT_EQ(plan->kept_images.size(), 1u);
  EXPECT_EQ(plan->kept_images[0].image, "nginx:1.25@" + kSha);
}

TEST(PrunePlanTest, IncompleteVisibilityRefusesImagePruningOnly) {
  auto plan = PlanUpgrade(Deployed(kV1), Json(kV2), {},
                          {"secret zarf/zarf-package-x", "namespace team-b"});
  ASSERT_TRUE(plan.ok());
  ASSERT_TRUE(plan->image_pruning_refused.has_value());
  const std::string msg(plan->image_pruning_refused->message());
  EXPECT_NE(msg.find("missing read access to: secret zarf/zarf-package-x, "
                     "namespace team-b"),
            std::string::npos)
      << msg;
  EXPECT_TRUE(plan->images.empty());
  EXPECT_TRUE(plan->kept_images.empty());
  EXPECT_EQ(plan->charts.size(), 1u);
  EXPECT_EQ(plan->components.size(), 1u);
}

TEST(PrunePlanTest, ADeployedComponentWithoutADefinitionRefusesImagePruning) {
  // An old Zarf rewrote the Secret: `tools` is deployed, its definition gone.
  DeployedPackage rewritten = Deployed(kV1);
  json::Array& comps = rewritten.data.Find("components")->array();
  comps.pop_back();
  auto plan = PlanRemove(rewritten, {}, {});
  ASSERT_TRUE(plan.ok());
  ASSERT_TRUE(plan->image_pruning_refused.has_value());
  const std::string msg(plan->image_pruning_refused->message());
  EXPECT_NE(msg.find("component 'tools' of package app"), std::string::npos) << msg;
  EXPECT_TRUE(plan->images.empty());
  EXPECT_EQ(plan->components.size(), 3u);  // still planned
  // The same in another package: it may run any image.
  DeployedPackage other = Deployed(WithImages("other", {"nginx:1.25"}));
  other.data.Find("components")->array().clear();
  auto upgrade = PlanUpgrade(Deployed(kV1), Json(kV2), {other}, {});
  ASSERT_TRUE(upgrade.ok());
  ASSERT_TRUE(upgrade->image_pruning_refused.has_value());
  EXPECT_NE(std::string(upgrade->image_pruning_refused->message()).find("component 'main' of package other"),
            std::string::npos);
  // Every definition known: planned.
  EXPECT_FALSE(PlanRemove(Deployed(kV1), {}, {})->image_pruning_refused.has_value());
}

TEST(PrunePlanTest, RemovePlansEveryComponentInReverseOrder) {
  auto plan = PlanRemove(Deployed(kV1), {}, {});
  ASSERT_TRUE(plan.ok());
  ASSERT_EQ(plan->components.size(), 3u);
  EXPECT_EQ(plan->components[0].name, "tools");
  EXPECT_EQ(plan->components[2].name, "web");
  EXPECT_EQ(plan->images.size(), 4u);
}

TEST(PrunePlanTest, MalformedImagesAreWarnedAboutNeverPruned) {
  auto plan =
      PlanRemove(Deployed(WithImages("a", {"Bad Image", "busybox"})), {}, {});
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->images.size(), 1u);
  ASSERT_EQ(plan->warnings.size(), 1u);
  EXPECT_NE(plan->warnings[0].find("Bad Image"), std::string::npos);
}

TEST(PrunePlanTest, NewPackageMustBeAnObject) {
  EXPECT_EQ(PlanUpgrade(Deployed(kV1), Json("[1]"), {}, {}).status().code(),
            Status::Code::kInvalidArgument);
}

}  // namespace
}  // namespace zs::engine
