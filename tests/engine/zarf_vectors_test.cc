// Every line of tests/data/zarf-vectors/*.jsonl (produced by running Zarf
// v0.84.0's own functions, README.md there) is one test, run through the
// functions `record`, `prune plan`, the fold and `migrate` use.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "model/model_json.h"
#include "model/namespace_override.h"
#include "model/zarf_package.h"
#include "engine/fold.h"
#include "engine/zarf_charts.h"
#include "engine/zarf_deploy.h"
#include "engine/zarf_remove.h"
#include "engine/zarf_selection.h"
#include "json/go_json.h"
#include "json/json_reader.h"
#include "tests/test_util.h"

namespace zs::engine {
namespace {

using json::Value;

struct Vector {
  std::string file;
  std::string id;
  Value input;
  Value want;
};

std::vector<Vector> Load(const std::string& file) {
  std::vector<Vector> out;
  for (const std::string& line : testing::ReadLines("zarf-vectors/" + file)) {
    auto v = json::ParseJson(line);
    if (!v.ok()) continue;  // the count check below fails then
    out.push_back({file, std::string(v->StringOr("id")), *v->Find("input"), *v->Find("want")});
  }
  return out;
}

std::string Name(const ::testing::TestParamInfo<Vector>& info) {
  std::string name = std::to_string(info.index) + "_";
  for (char c : info.param.id) name.push_back(std::isalnum(static_cast<unsigned char>(c)) ? c : '_');
  return name;
}

std::vector<std::string> Strings(const Value* v) {
  std::vector<std::string> out;
  if (v == nullptr || !v->is_array()) return out;
  for (const Value& s : v->array()) out.emplace_back(s.as_string());
  return out;
}

std::string Text(const Value& v) {
  std::string out;
  EXPECT_TRUE(json::AppendJson(&out, v).ok());
  return out;
}

// Each chart written alone, every field present, sorted: a set to compare.
std::vector<std::string> ChartSet(std::vector<InstalledChart> charts) {
  std::vector<std::string> out;
  for (InstalledChart& c : charts) {
    c.unknown = {};
    std::string one;
    AppendInstalledCharts(&one, {c});
    out.push_back(one);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<InstalledChart> Charts(const Value* v) {
  if (v == nullptr || v->is_null()) return {};
  auto charts = DecodeInstalledCharts(*v, "charts");
  EXPECT_TRUE(charts.ok()) << charts.status().ToString();
  return charts.ok() ? *charts : std::vector<InstalledChart>{};
}

// ---- manifest-release-names ------------------------------------------------

class ManifestReleaseVectors : public ::testing::TestWithParam<Vector> {};

TEST_P(ManifestReleaseVectors, RecordAndPruneNameTheReleaseAsZarf) {
  const Vector& v = GetParam();
  SCOPED_TRACE(v.id);
  const std::string pkg(v.input.StringOr("package")), comp(v.input.StringOr("component"));
  const Value& manifest = *v.input.Find("manifest");
  const std::string name(manifest.StringOr("name")), ns(manifest.StringOr("namespace"));
  EXPECT_EQ(ManifestChartName(pkg, comp, name), v.want.StringOr("chartName"));
  EXPECT_EQ(ManifestReleaseName(pkg, comp, name), v.want.StringOr("releaseName"));
  // What record stores and prune plan expects: ExpectedCharts of the component.
  Value component = Value::MakeObject();
  component.Set("name", Value::String(comp));
  Value manifests = Value::MakeArray();
  manifests.array().push_back(manifest);
  component.Set("manifests", std::move(manifests));
  const std::vector<InstalledChart> charts = ExpectedCharts(component, pkg);
  ASSERT_EQ(charts.size(), 1u);
  const Value& stored = *v.want.Find("installedChart");
  EXPECT_EQ(charts[0].namespace_, stored.StringOr("namespace"));
  EXPECT_EQ(charts[0].chart_name, stored.StringOr("chartName"));
  EXPECT_EQ(charts[0].namespace_, v.want.StringOr("namespace"));
  // The spelling an earlier writer left is the same release, and the release
  // is not some other manifest's.
  InstalledChart legacy;
  legacy.namespace_ = ns;
  legacy.chart_name = std::string(v.want.StringOr("chartName"));
  EXPECT_TRUE(SameRelease(legacy, charts[0]));
  legacy.chart_name += "x";
  EXPECT_FALSE(SameRelease(legacy, charts[0]));
}

INSTANTIATE_TEST_SUITE_P(Zarf, ManifestReleaseVectors,
                         ::testing::ValuesIn(Load("manifest-release-names.jsonl")), Name);

// ---- chart-merge ---------------------------------------------------------

class ChartMergeVectors : public ::testing::TestWithParam<Vector> {};

TEST_P(ChartMergeVectors, TheFoldMergesChartsAsZarf) {
  const Vector& v = GetParam();
  SCOPED_TRACE(v.id);
  const std::vector<InstalledChart> existing = Charts(v.input.Find("existing"));
  const std::vector<InstalledChart> installed = Charts(v.input.Find("installed"));
  const std::vector<std::string> want = ChartSet(Charts(v.want.Find("merged")));
  EXPECT_EQ(ChartSet(MergeInstalledCharts(existing, installed)), want);

  // The same through the fold: a Secret holding `existing`, a deploy that
  // installs `installed`.
  auto base = std::make_shared<DeployedPackage>();
  base->name = "p";
  DeployedComponent dc;
  dc.name = "c";
  dc.installed_charts = existing;
  base->deployed_components.emplace().push_back(dc);
  Folder folder;
  Record r;
  r.kind = RecordKind::kBase;
  r.base = base;
  ASSERT_TRUE(folder.Apply(r).ok());
  Record begin;
  begin.event.type = "Deploy";
  begin.event.outcome = "InProgress";
  ASSERT_TRUE(folder.Apply(begin).ok());
  Record done;
  done.kind = RecordKind::kComponentEvent;
  done.component = "c";
  done.component_event.type = "Deploy";
  done.component_event.outcome = "Succeeded";
  done.charts = installed;
  ASSERT_TRUE(folder.Apply(done).ok());
  const DeployedComponent* folded = folder.snapshot().FindComponent("c");
  ASSERT_NE(folded, nullptr);
  EXPECT_EQ(ChartSet(*folded->installed_charts), want);
}

INSTANTIATE_TEST_SUITE_P(Zarf, ChartMergeVectors, ::testing::ValuesIn(Load("chart-merge.jsonl")),
                         Name);

// ---- component-selection -------------------------------------------------

class ComponentSelectionVectors : public ::testing::TestWithParam<Vector> {};

std::string_view KindName(SelectionError k) {
  switch (k) {
    case SelectionError::kNotFound: return "ErrNotFound";
    case SelectionError::kMultipleSameGroup: return "ErrMultipleSameGroup";
    case SelectionError::kNoDefaultOrSelection: return "ErrNoDefaultOrSelection";
    default: return "";
  }
}

TEST_P(ComponentSelectionVectors, RecordDeploysWhatZarfSelects) {
  const Vector& v = GetParam();
  SCOPED_TRACE(v.id);
  Value pkg = Value::MakeObject();
  pkg.Set("kind", Value::String("ZarfPackageConfig"));
  Value metadata = Value::MakeObject();
  metadata.Set("name", Value::String("p"));
  pkg.Set("metadata", std::move(metadata));
  pkg.Set("components", *v.input.Find("components"));
  const std::string requested(v.input.StringOr("requested"));
  const std::string os(v.input.StringOr("localOS"));
  SelectionError kind = SelectionError::kNone;
  auto picked = SelectForDeploy(pkg, requested, &kind, os);
  const Value* error = v.want.Find("error");
  if (error != nullptr && !error->is_null()) {
    ASSERT_FALSE(picked.ok());
    EXPECT_EQ(picked.status().message(), v.want.StringOr("wrappedError"));
    EXPECT_EQ(KindName(kind), v.want.StringOr("errorKind"));
  } else {
    ASSERT_TRUE(picked.ok()) << picked.status().ToString();
    std::vector<std::string> names;
    for (std::size_t i : *picked) {
      names.emplace_back(pkg.Find("components")->array()[i].StringOr("name"));
    }
    EXPECT_EQ(names, Strings(v.want.Find("selected")));
  }
  if (os != kLocalOS) return;
  // record deploy's path: the definition it stores holds exactly those.
  auto stored = ZarfDeployDefinition(pkg, requested, Value::Null());
  ASSERT_EQ(stored.ok(), picked.ok());
  if (!stored.ok()) {
    EXPECT_EQ(stored.status().message(), picked.status().message());
    return;
  }
  std::vector<std::string> names;
  if (const Value* comps = stored->Find("components"); comps && comps->is_array()) {
    for (const Value& c : comps->array()) names.emplace_back(c.StringOr("name"));
  }
  EXPECT_EQ(names, Strings(v.want.Find("selected")));
}

INSTANTIATE_TEST_SUITE_P(Zarf, ComponentSelectionVectors,
                         ::testing::ValuesIn(Load("component-selection.jsonl")), Name);

// ---- remove-selection ----------------------------------------------------

class RemoveSelectionVectors : public ::testing::TestWithParam<Vector> {};

TEST_P(RemoveSelectionVectors, RecordRemovesWhatZarfRemoves) {
  const Vector& v = GetParam();
  SCOPED_TRACE(v.id);
  ASSERT_EQ(v.input.StringOr("localOS"), kLocalOS);
  auto pkg = DecodeDeployedPackage(*v.input.Find("deployedPackage"));
  ASSERT_TRUE(pkg.ok()) << pkg.status().ToString();
  auto plan = PlanZarfRemove(*pkg, v.input.StringOr("requested"));
  const Value* error = v.want.Find("error");
  if (error != nullptr && !error->is_null()) {
    ASSERT_FALSE(plan.ok());
    EXPECT_EQ(plan.status().message(), error->as_string());
    return;
  }
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  EXPECT_EQ(plan->selected, Strings(v.want.Find("selected")));
  EXPECT_EQ(plan->uses_secret ? "secret" : "definition", v.want.StringOr("branch"));
  EXPECT_EQ(plan->removed, Strings(v.want.Find("removed")));
  std::vector<std::string> uninstalled, want_uninstalled;
  for (const InstalledChart& c : plan->uninstalled) uninstalled.push_back(ChartKey(c));
  for (const Value& c : v.want.Find("uninstalled")->array()) {
    want_uninstalled.push_back(std::string(c.StringOr("namespace")) + "/" +
                               std::string(c.StringOr("chartName")));
  }
  EXPECT_EQ(uninstalled, want_uninstalled);
  EXPECT_EQ(plan->secret_deleted, v.want.Find("secretDeleted")->as_bool());
  EXPECT_EQ(plan->secret_name, v.want.StringOr("secretName"));
  EXPECT_EQ(plan->remaining, Strings(v.want.Find("remainingDeployedComponents")));
}

INSTANTIATE_TEST_SUITE_P(Zarf, RemoveSelectionVectors,
                         ::testing::ValuesIn(Load("remove-selection.jsonl")), Name);

// ---- namespace-override --------------------------------------------------

class NamespaceOverrideVectors : public ::testing::TestWithParam<Vector> {};

// The namespaces of `list` entries of a component.
Value NamespacesOf(const Value& component, std::string_view list) {
  Value out = Value::MakeArray();
  if (const Value* entries = component.Find(list); entries && entries->is_array()) {
    for (const Value& e : entries->array()) out.array().push_back(Value::String(std::string(e.StringOr("namespace"))));
  }
  return out;
}

Value WaitNamespacesOf(const Value& component) {
  Value out = Value::MakeArray();
  const Value* actions = component.Find("actions");
  for (std::string_view set : {"onCreate", "onDeploy", "onRemove"}) {
    const Value* s = actions ? actions->Find(set) : nullptr;
    for (std::string_view timing : {"before", "after", "onSuccess", "onFailure"}) {
      const Value* list = s ? s->Find(timing) : nullptr;
      if (list == nullptr || !list->is_array()) continue;
      for (const Value& a : list->array()) {
        const Value* wait = a.Find("wait");
        const Value* cluster = wait && wait->is_object() ? wait->Find("cluster") : nullptr;
        if (cluster && cluster->is_object()) {
          out.array().push_back(Value::String(std::string(cluster->StringOr("namespace"))));
        }
      }
    }
  }
  return out;
}

TEST_P(NamespaceOverrideVectors, RecordStoresTheDefinitionZarfRewrites) {
  const Vector& v = GetParam();
  SCOPED_TRACE(v.id);
  Value definition = *v.input.Find("definition");
  const std::string target(v.input.StringOr("namespace"));
  // record deploy's path with a DeployConfig naming the override.
  Value config = Value::MakeObject();
  config.Set("NamespaceOverride", Value::String(target));
  Value all = definition;  // every component selected: the override alone is tested
  if (Value* comps = all.Find("components"); comps && comps->is_array()) {
    for (Value& c : comps->array()) {
      c.Set("required", Value::Bool(true));
      c.Erase("group");
    }
  }
  auto stored = ZarfDeployDefinition(all, "", config);
  Status s = OverrideNamespace(&definition, target);
  const Value* error = v.want.Find("error");
  if (error != nullptr && !error->is_null()) {
    EXPECT_EQ(s.message(), error->as_string());
    if (target.empty()) return;  // Zarf (and record) apply no empty override
    ASSERT_FALSE(stored.ok());
    EXPECT_EQ(stored.status().message(), error->as_string());
    return;
  }
  ASSERT_TRUE(s.ok()) << s.ToString();
  ASSERT_TRUE(stored.ok()) << stored.status().ToString();
  // An empty override is no override for Zarf's deploy: the function alone
  // is compared then.
  if (target.empty()) *stored = definition;
  Value namespaces = Value::MakeArray(), waits = Value::MakeArray();
  if (const Value* comps = stored->Find("components"); comps && comps->is_array()) {
    for (const Value& c : comps->array()) {
      Value one = Value::MakeObject();
      one.Set("component", Value::String(std::string(c.StringOr("name"))));
      one.Set("charts", NamespacesOf(c, "charts"));
      one.Set("manifests", NamespacesOf(c, "manifests"));
      namespaces.array().push_back(std::move(one));
      waits.array().push_back(WaitNamespacesOf(c));
    }
  }
  // A package without components has neither list.
  auto listed = [&](std::string_view key) {
    const Value* want = v.want.Find(key);
    return want != nullptr && !want->is_null() ? Text(*want) : std::string("[]");
  };
  EXPECT_EQ(Text(namespaces), listed("namespaces"));
  EXPECT_EQ(Text(waits), listed("waitNamespaces"));
  const Value* clean = v.want.Find("roundTripClean");
  if (clean == nullptr || !clean->as_bool() || v.want.Find("definition") == nullptr) return;
  auto ours = MarshalZarfPackage(definition, nullptr);
  auto zarfs = MarshalZarfPackage(*v.want.Find("definition"), nullptr);
  ASSERT_TRUE(ours.ok() && zarfs.ok());
  EXPECT_EQ(*ours, *zarfs);
}

INSTANTIATE_TEST_SUITE_P(Zarf, NamespaceOverrideVectors,
                         ::testing::ValuesIn(Load("namespace-override.jsonl")), Name);

// Every line of every file was loaded (a line that does not parse would
// silently drop its test).
TEST(ZarfVectorsTest, EveryLineIsATest) {
  for (const auto& [file, lines] :
       std::vector<std::pair<std::string, std::size_t>>{{"manifest-release-names.jsonl", 32},
                                                        {"namespace-override.jsonl", 39},
                                                        {"component-selection.jsonl", 67},
                                                        {"remove-selection.jsonl", 39},
                                                        {"chart-merge.jsonl", 36}}) {
    EXPECT_EQ(Load(file).size(), lines) << file;
    EXPECT_EQ(testing::ReadLines("zarf-vectors/" + file).size(), lines) << file;
  }
}

}  // namespace
}  // namespace zs::engine
