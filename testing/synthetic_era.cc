// MakeEraPackage (testing/synthetic_package.h): a DeployedPackage of a
// random Zarf era, built from the init package and example tables of
// synthetic_era_specs.h. Which fields exist follows the era, as in the legacy
// formats.
#include <algorithm>
#include <cstdio>
#include <initializer_list>
#include <string>
#include <vector>

#include "testing/synthetic_era_specs.h"
#include "testing/synthetic_package.h"
#include "testing/seeded_rng.h"

namespace zs::bench {
namespace {

using json::Value;
using Rng = tools::SeededRng;
using era::ComponentSpec;
using era::VariableSpec;
using era::ActionSpec;
using era::ChartSpec;
using era::ManifestSpec;
using era::InitComponents;
using era::InitVariables;
using era::ExampleComponents;

// A release number as packages carry them: "<0-3>.<0-30>.<0-12>".
std::string Version(Rng& rng) {
  return std::to_string(rng.Between(0, 3)) + "." + std::to_string(rng.Between(0, 30)) + "." +
         std::to_string(rng.Between(0, 12));
}

Value S(std::string s) { return Value::String(std::move(s)); }
Value Obj(std::vector<json::Member> members = {}) {
  return Value::MakeObject(std::move(members));
}
Value Arr(std::vector<Value> items = {}) {
  return Value::MakeArray(std::move(items));
}

// "Fri, 21 Aug 2026 21:25:09 +0000", as Zarf's build data writes it.
std::string BuildTime(Rng& rng) {
  const char* days[] = {"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"};
  const char* months[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                          "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  char buf[64];
  std::snprintf(buf, sizeof buf, "%s, %02d %s 20%d %02d:%02d:%02d +0000",
                days[rng.Between(0, 6)], rng.Between(1, 28),
                months[rng.Between(0, 11)], rng.Between(22, 26),
                rng.Between(0, 23), rng.Between(0, 59), rng.Between(0, 59));
  return buf;
}

std::string Rfc3339(Rng& rng) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "2026-%02d-%02dT%02d:%02d:%02d.%09dZ",
                rng.Between(1, 12), rng.Between(1, 28), rng.Between(0, 23),
                rng.Between(0, 59), rng.Between(0, 59),
                rng.Between(0, 999999999));
  return buf;
}

Value Actions(Rng& rng, const ComponentSpec& spec, int era) {
  auto defaults = [&] {
    return Obj({{"defaults", era >= 10 ? Obj({{"shell", Obj()}}) : Obj()}});
  };
  Value on_deploy = defaults();
  for (const char* when : {"before", "after", "onFailure"}) {
    std::vector<Value> list;
    for (const ActionSpec& a : spec.on_deploy) {
      if (std::string_view(a.when) != when) continue;
      std::vector<json::Member> m;
      if (a.set_variable != nullptr && rng.Percent(70))
        m.emplace_back("mute", Value::Bool(true));
      if (std::string_view(when) == "after" && rng.Percent(50)) {
        m.emplace_back("maxTotalSeconds", Value::Int(60 * rng.Between(1, 5)));
        m.emplace_back("maxRetries", Value::Int(rng.Between(0, 3)));
      }
      m.emplace_back("cmd", S(a.cmd));
      if (era >= 10 && std::string_view(a.cmd).starts_with("test "))
        m.emplace_back("shell", Obj({{"windows", S("pwsh")}}));
      if (a.set_variable != nullptr)
        m.emplace_back("setVariables",
                       Arr({Obj({{"name", S(a.set_variable)}})}));
      if (a.description != nullptr)
        m.emplace_back("description", S(a.description));
      list.push_back(Obj(std::move(m)));
    }
    if (!list.empty())
      on_deploy.object().emplace_back(when, Arr(std::move(list)));
  }
  return Obj({{"onCreate", defaults()},
              {"onDeploy", std::move(on_deploy)},
              {"onRemove", defaults()}});
}

// A ZarfComponent as a package of era `era` lists it.
Value Component(Rng& rng, const ComponentSpec& spec, int era,
                const std::string& ns) {
  std::vector<json::Member> c{{"name", S(spec.name)}};
  if (rng.Percent(90)) c.emplace_back("description", S(spec.description));
  if (spec.required) c.emplace_back("required", Value::Bool(true));
  c.emplace_back(
      "only",
      Obj({{"cluster",
            rng.Percent(25) ? Obj({{"architecture", S("amd64")}}) : Obj()}}));
  c.emplace_back("import", era <= 6 ? Obj({{"path", S("")}}) : Obj());
  if (!spec.manifests.empty()) {
    std::vector<Value> ms;
    for (const ManifestSpec& m : spec.manifests) {
      std::vector<Value> files;
      for (const char* f : m.files) files.push_back(S(f));
      ms.push_back(Obj({{"name", S(m.name)},
                        {"namespace", S(ns)},
                        {"files", Arr(std::move(files))}}));
    }
    c.emplace_back("manifests", Arr(std::move(ms)));
  }
  if (!spec.charts.empty()) {
    std::vector<Value> cs;
    for (const ChartSpec& chart : spec.charts) {
      std::vector<json::Member> h{{"name", S(chart.name)},
                                  {"version", S(Version(rng))}};
      const std::string_view source = chart.source;
      h.emplace_back(
          source.find("://") != std::string_view::npos ? "url" : "localPath",
          S(chart.source));
      h.emplace_back("namespace", S(ns));
      h.emplace_back("releaseName",
                     S(std::string_view(chart.release) == "zarf-agent"
                           ? "zarf-" + rng.Hex(40)
                           : std::string(chart.release)));
      std::vector<Value> values;
      for (const char* f : chart.values_files) values.push_back(S(f));
      if (!values.empty())
        h.emplace_back("valuesFiles", Arr(std::move(values)));
      cs.push_back(Obj(std::move(h)));
    }
    c.emplace_back("charts", Arr(std::move(cs)));
  }
  if (!spec.files.empty()) {
    std::vector<Value> files;
    for (const char* f : spec.files) {
      const std::string_view src = f;
      const std::string base(src.substr(src.rfind('/') + 1));
      std::vector<json::Member> m{{"source", S(f)}};
      if (src.starts_with("https://")) m.emplace_back("shasum", S(rng.Hex(64)));
      m.emplace_back("target", S(std::string_view(spec.name) == "k3s"
                                     ? "/usr/sbin/" + base
                                     : "###ZARF_TEMP###/" + base));
      if (rng.Percent(70)) m.emplace_back("executable", Value::Bool(true));
      files.push_back(Obj(std::move(m)));
    }
    c.emplace_back("files", Arr(std::move(files)));
  }
  if (!spec.images.empty()) {
    std::vector<Value> images;
    for (const char* image : spec.images) images.push_back(S(image));
    c.emplace_back("images", Arr(std::move(images)));
  }
  if (!spec.repos.empty()) {
    std::vector<Value> repos;
    for (const char* r : spec.repos) repos.push_back(S(r));
    c.emplace_back("repos", Arr(std::move(repos)));
  }
  if (era <= 16) c.emplace_back("scripts", Obj());
  c.emplace_back("actions", Actions(rng, spec, era));
  return Obj(std::move(c));
}

// What the first draws of a seed fix: the era, whether the package has
// v2 events, whether it is the init package, its name, the CLI that built
// it and the components it lists.
struct EraShape {
  int era = 0;
  bool v2 = false;
  bool init = false;
  std::string name;
  std::string cli;
  std::vector<const ComponentSpec*> specs;
};

EraShape PickShape(Rng& rng) {
  EraShape shape;
  const int era = rng.Between(4, 22);
  shape.era = era;
  shape.v2 = era >= 20 && rng.Percent(60);
  const bool init = rng.Percent(45);
  shape.init = init;
  shape.name =
      init ? "init"
           : std::string(rng.Pick({"dos-games", "podinfo-flux", "helm-charts",
                                   "manifests", "wordpress", "argocd", "kiwix",
                                   "longhorn", "variables", "component-actions",
                                   "big-bang"}));
  shape.cli = "v0." +
              std::to_string(20 + 3 * era + rng.Between(0, 2)) +
              "." + std::to_string(rng.Between(0, 3));
  std::vector<const ComponentSpec*>& specs = shape.specs;
  if (init) {
    for (const ComponentSpec& s : InitComponents()) {
      if ((s.name != std::string_view("k3s") || rng.Percent(30)) &&
          (s.name != std::string_view("logging") || era <= 12)) {
        specs.push_back(&s);
      }
    }
  } else {
    const auto& pool = ExampleComponents();
    const int first = rng.Between(0, pool.size() - 1);
    const int n = rng.Between(1, 3);
    for (int i = 0; i < n; ++i)
      specs.push_back(&pool[(first + i) % pool.size()]);
  }
  return shape;
}

// The namespace a package's components deploy into.
std::string Namespace(const EraShape& shape) {
  return shape.init ? std::string("zarf") : shape.name;
}

// data.metadata.
Value Metadata(Rng& rng, const EraShape& shape) {
  const bool init = shape.init;
  const std::string& name = shape.name;
  std::vector<json::Member> metadata{{"name", S(name)}};
  metadata.emplace_back(
      "description",
      S(init ? "Zarf's init package: registry, agent and git server"
             : "Example " + name + " package for an air-gapped cluster"));
  if (!init) metadata.emplace_back("version", S(Version(rng)));
  metadata.emplace_back("architecture", S(rng.Percent(85) ? "amd64" : "arm64"));
  metadata.emplace_back("aggregateChecksum", S(rng.Hex(64)));
  if (shape.era >= 21 && init)
    metadata.emplace_back("allowNamespaceOverride", Value::Bool(false));
  return Obj(std::move(metadata));
}

// data.build.
Value BuildData(Rng& rng, const EraShape& shape) {
  std::vector<json::Member> build{
      {"terminal",
       S(rng.Pick({"fv-az1234-567", "buildkitsandbox", "ci-runner-4"}))},
      {"user", S(rng.Pick({"runner", "root", "builder"}))},
      {"architecture", S("amd64")},
      {"timestamp", S(BuildTime(rng))},
      {"version", S(shape.cli)}};
  if (shape.era <= 8)
    build.emplace_back("migrations", rng.Percent(50)
                                         ? Value::Null()
                                         : Arr({S("scripts-to-actions")}));
  if (rng.Percent(10))
    build.emplace_back("flavor", S(rng.Pick({"upstream", "registry1"})));
  return Obj(std::move(build));
}

// The init package's constants and variables, in one of the two orders
// Zarf's versions wrote them, appended to `data`.
void AppendInitConstantsAndVariables(Rng& rng, std::vector<json::Member>* data) {
  std::vector<Value> constants;
  for (const char* c : {"AGENT_IMAGE", "AGENT_IMAGE_TAG", "REGISTRY_IMAGE",
                        "REGISTRY_IMAGE_TAG"}) {
    const std::string_view n = c;
    constants.push_back(
        Obj({{"name", S(c)},
             {"value", S(n == "AGENT_IMAGE"      ? "zarf-dev/zarf/agent"
                         : n == "REGISTRY_IMAGE" ? "library/registry"
                                                 : Version(rng))}}));
  }
  std::vector<Value> variables;
  for (const VariableSpec& v : InitVariables()) {
    if (rng.Percent(15)) continue;
    std::vector<json::Member> m{{"name", S(v.name)}};
    if (v.auto_indent) m.emplace_back("autoIndent", Value::Bool(true));
    m.emplace_back("description", S(v.description));
    if (v.fallback != nullptr) m.emplace_back("default", S(v.fallback));
    variables.push_back(Obj(std::move(m)));
  }
  const bool constants_first = rng.Percent(50);
  if (constants_first)
    data->emplace_back("constants", Arr(std::move(constants)));
  data->emplace_back("variables", Arr(std::move(variables)));
  if (!constants_first)
    data->emplace_back("constants", Arr({Obj({{"name", S("AGENT_IMAGE")},
                                              {"value", S("agent:local")}})}));
}

// The package's `data`: its ZarfPackage definition.
Value PackageData(Rng& rng, const EraShape& shape) {
  const int era = shape.era;
  Value metadata = Metadata(rng, shape);
  Value build = BuildData(rng, shape);
  std::vector<Value> components;
  for (const ComponentSpec* s : shape.specs)
    components.push_back(Component(rng, *s, era, Namespace(shape)));
  std::vector<json::Member> data{
      {"kind", S(shape.init ? "ZarfInitConfig" : "ZarfPackageConfig")},
      {"metadata", std::move(metadata)},
      {"build", std::move(build)},
      {"components", Arr(std::move(components))}};
  if (shape.init) {
    AppendInitConstantsAndVariables(rng, &data);
  } else if (rng.Percent(50)) {
    data.emplace_back(
        "variables",
        Arr({Obj({{"name", S("DOMAIN")},
                  {"description", S("Domain the apps are served on")},
                  {"default", S("zarf.dev")},
                  {"prompt", Value::Bool(rng.Percent(50))}})}));
  }
  if (era >= 21) data.emplace_back("values", Obj());
  if (era >= 22 && rng.Percent(50)) {
    data.emplace_back("documentation", Obj({{"readme", S("README.md")}}));
  }
  return Obj(std::move(data));
}

// The deployed entry of component `s`; adds the connect strings of its
// charts to `connect`.
Value DeployedComponent(Rng& rng, const EraShape& shape, const ComponentSpec& s,
                        int generation, std::vector<json::Member>* connect) {
  const int era = shape.era;
  std::vector<Value> charts;
  auto chart = [&](std::string chart_name, const char* key,
                   const char* description) {
    std::vector<json::Member> h{{"namespace", S(Namespace(shape))},
                                {"chartName", S(std::move(chart_name))}};
    if (key != nullptr) {
      Value cs = Obj(
          {{key, Obj({{"description", S(description)},
                      {"url", S(rng.Percent(50) ? "" : "/v2/_catalog")}})}});
      connect->emplace_back(key, cs.object()[0].second);
      h.emplace_back("connectStrings", std::move(cs));
    }
    if (era >= 15)
      h.emplace_back("status", S(rng.Percent(85) ? "Succeeded" : "Failed"));
    charts.push_back(Obj(std::move(h)));
  };
  for (const ChartSpec& c : s.charts) chart(c.release, nullptr, nullptr);
  for (std::size_t m = 0; m < s.manifests.size(); ++m) {
    chart("raw-" + shape.name + "-" + s.name + "-" + s.manifests[m].name,
          m == 0 ? s.connect : nullptr, s.connect_description);
  }
  std::vector<json::Member> d{{"name", S(s.name)},
                              {"installedCharts", Arr(std::move(charts))}};
  if (era >= 8)
    d.emplace_back(
        "status", S(rng.Pick({"Succeeded", "Succeeded", "Succeeded", "Failed",
                              "Deploying", "Removing"})));
  if (era >= 12) d.emplace_back("observedGeneration", Value::Int(generation));
  if (shape.v2) {
    d.emplace_back(
        "lastEvent",
        Obj({{"type", S("Deploy")},
             {"outcome", S(rng.Pick({"Succeeded", "Succeeded", "Failed",
                                     "InProgress", "Cancelled"}))},
             {"timestamp", S(Rfc3339(rng))}}));
  }
  return Obj(std::move(d));
}

// The package's connectStrings: those of its charts, sorted by name, the
// first of each name kept.
Value SortedConnectStrings(std::vector<json::Member> connect) {
  std::sort(connect.begin(), connect.end(),
            [](auto& a, auto& b) { return a.first < b.first; });
  connect.erase(
      std::unique(connect.begin(), connect.end(),
                  [](auto& a, auto& b) { return a.first == b.first; }),
      connect.end());
  return Obj(std::move(connect));
}

// A v2 package's events, each with the config digest it draws into `*config`.
Value V2Events(Rng& rng, const std::string& name, std::string* config) {
  std::vector<Value> events;
  const int n = rng.Between(1, 10);
  *config = "sha256:" + rng.Hex(64);
  for (int i = 0; i < n; ++i) {
    const bool remove = rng.Percent(15);
    std::vector<json::Member> e{
        {"type", S(remove ? "Remove" : "Deploy")},
        {"outcome", S(rng.Pick({"InProgress", "Succeeded", "Succeeded",
                                "Failed", "Cancelled"}))},
        {"timestamp", S(Rfc3339(rng))},
        {"version", S(Version(rng))}};
    if (rng.Percent(20))
      e.emplace_back("flavor",
                     S(rng.Pick({"upstream", "registry1", "unicorn"})));
    e.emplace_back("digest", S("sha256:" + rng.Hex(64)));
    if (!remove) {
      e.emplace_back("source",
                     S(rng.Percent(50) ? "oci://ghcr.io/zarf-dev/packages/" +
                                             name + ":" + Version(rng)
                                       : "zarf-package-" + name + "-amd64-" +
                                             Version(rng) + ".tar.zst"));
    }
    e.emplace_back("configDigest", S(*config));
    events.push_back(Obj(std::move(e)));
  }
  return Arr(std::move(events));
}

// A v2 package's deployConfig.
Value V2DeployConfig(Rng& rng) {
  return Obj(
      {{"SetVariables", rng.Percent(50) ? Obj({{"DOMAIN", S("uds.dev")},
                                                {"REPLICAS", S("2")}})
                                         : Value::Null()},
       {"Values", rng.Percent(30) ? Obj({{"replicaCount", Value::Int(2)}})
                                  : Value::Null()},
       {"NamespaceOverride", S("")},
       {"ValuesOverridesMap", Value::Null()}});
}

}  // namespace

// One synthetic DeployedPackage JSON tree; `seed` fixes everything.
Value MakeEraPackage(unsigned seed) {
  Rng rng(seed);
  const EraShape shape = PickShape(rng);
  const int era = shape.era;
  Value data = PackageData(rng, shape);

  std::vector<json::Member> pkg{{"name", S(shape.name)}};
  if (era >= 10) pkg.emplace_back("digest", S("sha256:" + rng.Hex(64)));
  pkg.emplace_back("data", std::move(data));
  pkg.emplace_back("cliVersion", S(shape.cli));
  const int generation = rng.Between(1, 4);
  if (era >= 8) pkg.emplace_back("generation", Value::Int(generation));
  std::vector<Value> deployed;
  std::vector<json::Member> connect;
  const bool partial = rng.Percent(20);
  for (std::size_t i = 0; i < shape.specs.size(); ++i) {
    if (partial && i > 1) break;
    deployed.push_back(
        DeployedComponent(rng, shape, *shape.specs[i], generation, &connect));
  }
  pkg.emplace_back("deployedComponents", Arr(std::move(deployed)));
  if (!connect.empty() && era >= 7)
    pkg.emplace_back("connectStrings", SortedConnectStrings(std::move(connect)));
  if (era >= 21)
    pkg.emplace_back("packageConnectivity",
                     S(rng.Percent(60) ? "airgap" : "connected"));
  if (rng.Percent(10))
    pkg.emplace_back("namespaceOverride",
                     S("tenant-" + std::to_string(rng.Between(1, 9))));
  if (shape.v2) {
    std::string config;
    pkg.emplace_back("events", V2Events(rng, shape.name, &config));
    pkg.emplace_back("deployConfig", V2DeployConfig(rng));
    pkg.emplace_back("configDigest", S(config));
  }
  return Obj(std::move(pkg));
}

}  // namespace zs::bench
