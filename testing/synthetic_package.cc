#include "testing/synthetic_package.h"

#include <cstdlib>
#include <fstream>
#include <sstream>

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>

#include "testing/seeded_rng.h"

namespace zs::bench {
namespace {

// Every string literal below is already a Go-escaped JSON string body, so the
// generator only concatenates; it never needs to escape anything.

constexpr std::string_view kPackageName = "mega-platform";
constexpr std::string_view kCliVersion = "v0.84.0";

constexpr std::string_view kServiceWords[] = {
    "payments", "ledger",    "search",  "catalog", "checkout",  "identity",
    "gateway",  "metrics",   "logging", "billing", "inventory", "notify",
    "reports",  "scheduler", "cache",   "auth"};

constexpr std::string_view kStatuses[] = {"Succeeded", "Succeeded", "Succeeded",
                                          "Succeeded", "Deploying", "Failed"};

using Rng = tools::SeededRng;

std::string Pad(int v, int width) {
  std::string s = std::to_string(v);
  if (static_cast<int>(s.size()) < width) s.insert(0, width - s.size(), '0');
  return s;
}

// Appends `"key":"body"`; `body` must already be a JSON string body.
void Str(std::string* out, std::string_view key, std::string_view body) {
  out->push_back('"');
  out->append(key);
  out->append("\":\"");
  out->append(body);
  out->push_back('"');
}

void Int(std::string* out, std::string_view key, int v) {
  out->push_back('"');
  out->append(key);
  out->append("\":");
  out->append(std::to_string(v));
}

// One component's description; a fifth contain non-ASCII text, a fifth
// characters Go escapes, a fifth JSON escapes.
std::string Description(Rng& rng, const std::string& service,
                        const std::string& team) {
  switch (rng.Between(0, 4)) {
    case 0:
      return "Déploiement du service " + service +
             " — supervisé par l’équipe " + team + " (≈ 99,9 % dispo)";
    case 1:
      return "Waits for \\u003cready\\u003e pods \\u0026 services of " +
             service + " in " + team;
    case 2:
      return "Deploys " + service + ".\\nRequires the \\\"" + team +
             "\\\" namespace and its\\tsecrets.\\n";
    case 3:
      return "サービス " + service + " の監視とログ収集 ✓ (" + team + ")";
    default:
      return "Synthetic service " + service +
             " with charts, manifests, images and actions";
  }
}

struct ConnectString {
  std::string description;
  std::string url;
};
// Go writes a map sorted by key, hence std::map.
using ConnectStrings = std::map<std::string, ConnectString>;

void AppendConnectStrings(std::string* out, const ConnectStrings& cs) {
  out->push_back('{');
  bool first = true;
  for (const auto& [name, c] : cs) {
    if (!first) out->push_back(',');
    first = false;
    out->push_back('"');
    out->append(name);
    out->append("\":{");
    Str(out, "description", c.description);
    out->push_back(',');
    Str(out, "url", c.url);
    out->push_back('}');
  }
  out->push_back('}');
}

// The names component `index` is built from.
struct ComponentNames {
  std::string id;    // "0007"
  std::string word;  // a service word
  std::string name;  // "<word>-<id>"
  std::string svc;   // "svc-<id>"
  std::string team;  // "team-<index % 24>": the namespace
};

// The component's manifests, appended to `component`; the raw charts they
// become on deploy appended to `raw_charts` (each after a ','), their
// connect strings added to `all_connect`.
void AppendManifests(Rng& rng, const ComponentNames& n, std::string* component,
                     std::string* raw_charts, ConnectStrings* all_connect) {
  const std::string& id = n.id;
  const std::string& word = n.word;
  const std::string& name = n.name;
  const std::string& svc = n.svc;
  const std::string& team = n.team;
  std::string& c = *component;
  std::string& manifest_charts = *raw_charts;
  // Manifests become "raw-<package>-<component>-<manifest>" charts on deploy.
  const int manifest_count = rng.Between(0, 2);
  if (manifest_count > 0) {
    c.append(",\"manifests\":[");
    for (int m = 0; m < manifest_count; ++m) {
      const std::string mname = svc + (m == 0 ? "-extras" : "-connect");
      if (m > 0) c.push_back(',');
      c.push_back('{');
      Str(&c, "name", mname);
      c.push_back(',');
      Str(&c, "namespace", team);
      c.append(",\"files\":[\"manifests/" + svc + "/networkpolicy.yaml\"");
      if (rng.Percent(60)) {
        c.append(",\"manifests/" + svc + "/servicemonitor.yaml\"");
      }
      c.append("]}");

      manifest_charts.append(",{");
      Str(&manifest_charts, "namespace", team);
      manifest_charts.push_back(',');
      Str(&manifest_charts, "chartName",
          "raw-" + std::string(kPackageName) + "-" + name + "-" + mname);
      if (m > 0 && rng.Percent(50)) {
        ConnectStrings cs;
        cs[word + "-" + id + "-ui"] = {"Web UI of " + name + " \\u0026 its API",
                                       "/" + word + "/" + id};
        if (rng.Percent(30)) {
          cs[word + "-" + id + "-api"] = {"API of " + name + " — v2",
                                          "/api/v2"};
        }
        manifest_charts.append(",\"connectStrings\":");
        AppendConnectStrings(&manifest_charts, cs);
        all_connect->insert(cs.begin(), cs.end());
      }
      manifest_charts.push_back(',');
      Str(&manifest_charts, "status",
          kStatuses[rng.Between(0, std::size(kStatuses) - 1)]);
      manifest_charts.push_back('}');
    }
    c.push_back(']');
  }
}

// The component's charts, appended to `component`; the deployed entry's
// installed charts, comma-separated, appended to `installed`.
void AppendCharts(Rng& rng, const ComponentNames& n, std::string* component,
                  std::string* installed_charts) {
  const std::string& svc = n.svc;
  const std::string& team = n.team;
  std::string& c = *component;
  std::string& installed = *installed_charts;
  const int chart_count = rng.Between(1, 2);
  c.append(",\"charts\":[");
  for (int h = 0; h < chart_count; ++h) {
    const std::string chart = h == 0 ? svc : svc + "-worker";
    if (h > 0) c.push_back(',');
    c.push_back('{');
    Str(&c, "name", chart);
    c.push_back(',');
    Str(&c, "version",
        std::to_string(rng.Between(0, 3)) + "." +
            std::to_string(rng.Between(0, 20)) + "." +
            std::to_string(rng.Between(0, 9)));
    c.push_back(',');
    Str(&c, "url", "oci://registry.example.invalid/charts/" + chart);
    c.push_back(',');
    Str(&c, "namespace", team);
    c.append(",\"valuesFiles\":[\"values/" + chart + ".yaml\"");
    if (rng.Percent(40)) c.append(",\"values/" + chart + "-prod.yaml\"");
    c.append("]}");

    if (h > 0) installed.push_back(',');
    installed.push_back('{');
    Str(&installed, "namespace", team);
    installed.push_back(',');
    Str(&installed, "chartName", chart);
    installed.push_back(',');
    Str(&installed, "status", kStatuses[rng.Between(0, 3)]);
    installed.push_back('}');
  }
  c.push_back(']');
}

// The component's images, scripts and actions, appended to `component`.
void AppendImagesAndActions(Rng& rng, const ComponentNames& n,
                            std::string* component) {
  const std::string& id = n.id;
  const std::string& word = n.word;
  const std::string& svc = n.svc;
  const std::string& team = n.team;
  std::string& c = *component;
  const int image_count = rng.Between(4, 16);
  c.append(",\"images\":[");
  for (int k = 0; k < image_count; ++k) {
    if (k > 0) c.push_back(',');
    c.append("\"registry.example.invalid/" + team + "/" + word + "-" + id +
             "-" + std::to_string(k) + ":1." + std::to_string(k) +
             ".0@sha256:" + rng.Hex(64) + "\"");
  }
  c.append("],\"scripts\":{}");

  c.append(
      ",\"actions\":{\"onCreate\":{\"defaults\":{\"shell\":{}}},"
      "\"onDeploy\":{\"defaults\":{\"shell\":{}}");
  if (rng.Percent(30)) {
    const std::string var = "SVC_" + id + "_READY";
    c.append(",\"before\":[{\"mute\":true,");
    Str(&c, "cmd",
        "test \\\"$(./zarf tools kubectl get ns " + team +
            " -o name)\\\" != \\\"\\\" \\u0026\\u0026 echo ok");
    c.append(",\"setVariables\":[{\"name\":\"" + var + "\"}]}]");
  }
  c.append(",\"after\":[{");
  Int(&c, "maxTotalSeconds", 60 * rng.Between(1, 10));
  c.push_back(',');
  Int(&c, "maxRetries", rng.Between(0, 5));
  c.push_back(',');
  Str(&c, "cmd",
      "./zarf tools wait-for deployment " + svc + " available -n " + team);
  c.append(",\"description\":\"Wait for rollout\"}]},");
  c.append("\"onRemove\":{\"defaults\":{\"shell\":{}}}}}");
}

// Appends component `index` of the package to `component` and its deployed
// entry to `deployed`; adds its connect strings to `all_connect`.
void MakeComponent(Rng& rng, int index, int generation, std::string* component,
                   std::string* deployed, ConnectStrings* all_connect) {
  ComponentNames n;
  n.id = Pad(index, 4);
  n.word = std::string(kServiceWords[rng.Between(0, 15)]);
  n.name = n.word + "-" + n.id;
  n.svc = "svc-" + n.id;
  n.team = "team-" + Pad(index % 24, 2);
  std::string& c = *component;

  c.append("{");
  Str(&c, "name", n.name);
  c.push_back(',');
  Str(&c, "description", Description(rng, n.name, n.team));
  if (rng.Percent(70)) c.append(",\"required\":true");
  c.append(rng.Percent(25)
               ? ",\"only\":{\"cluster\":{\"architecture\":\"amd64\"}}"
               : ",\"only\":{\"cluster\":{}}");
  c.append(",\"import\":{}");
  std::string manifest_charts;
  AppendManifests(rng, n, &c, &manifest_charts, all_connect);
  std::string installed;
  AppendCharts(rng, n, &c, &installed);
  AppendImagesAndActions(rng, n, &c);

  // The deployed entry: charts first, then the manifests' raw charts.
  std::string& d = *deployed;
  d.push_back('{');
  Str(&d, "name", n.name);
  d.append(",\"installedCharts\":[");
  d.append(installed);
  d.append(manifest_charts);
  d.append("],");
  Str(&d, "status", kStatuses[rng.Between(0, std::size(kStatuses) - 1)]);
  d.push_back(',');
  Int(&d, "observedGeneration", generation);
  d.push_back('}');
}

std::string Head(Rng& rng) {
  std::string h;
  h.append("{");
  Str(&h, "name", kPackageName);
  h.push_back(',');
  Str(&h, "digest", "sha256:" + rng.Hex(64));
  h.append(",\"data\":{\"kind\":\"ZarfPackageConfig\",\"metadata\":{");
  Str(&h, "name", kPackageName);
  h.push_back(',');
  Str(&h, "description",
      "Synthetic platform: services \\u0026 their images \\u003c1 MiB — "
      "plateforme générée");
  h.append(
      ",\"version\":\"1.3.0\",\"architecture\":\"amd64\","
      "\"aggregateChecksum\":\"" +
      rng.Hex(64) + "\"}");
  h.append(
      ",\"build\":{\"terminal\":\"fixture-build-host\",\"user\":"
      "\"fixture-user\",\"architecture\":\"amd64\",\"timestamp\":\"Fri, 21 "
      "Aug 2026 21:25:09 +0000\",\"version\":\"");
  h.append(kCliVersion);
  h.append("\"},\"components\":[");
  return h;
}

// "],constants,variables},cliVersion,generation,deployedComponents:[" : what
// sits between the components and the deployed components.
std::string Middle(Rng& rng, int generation) {
  std::string m = "],\"constants\":[";
  for (int i = 0; i < 8; ++i) {
    if (i > 0) m.push_back(',');
    m.push_back('{');
    Str(&m, "name", "IMAGE_TAG_" + std::to_string(i));
    m.push_back(',');
    Str(&m, "value",
        std::to_string(rng.Between(1, 9)) + "." +
            std::to_string(rng.Between(0, 30)) + ".0");
    m.push_back('}');
  }
  m.append("],\"variables\":[");
  for (int i = 0; i < 24; ++i) {
    if (i > 0) m.push_back(',');
    m.push_back('{');
    Str(&m, "name", "PLATFORM_SETTING_" + Pad(i, 2));
    if (i % 5 == 3) m.append(",\"autoIndent\":true,\"type\":\"file\"");
    m.push_back(',');
    Str(&m, "description",
        i % 4 == 1 ? "Größe des Volumes für Dienst " + std::to_string(i)
                   : "Setting " + std::to_string(i) +
                         " of the platform (\\u003cdefault\\u003e if unset)");
    if (i % 3 != 2) {
      m.push_back(',');
      Str(&m, "default", std::to_string(rng.Between(1, 64)) + "Gi");
    }
    m.push_back('}');
  }
  m.append("]},");
  Str(&m, "cliVersion", kCliVersion);
  m.push_back(',');
  Int(&m, "generation", generation);
  m.append(",\"deployedComponents\":[");
  return m;
}

}  // namespace

std::string MakeSamplePackageJson(std::size_t target_bytes, unsigned seed) {
  Rng rng(seed);
  const int generation = rng.Between(1, 9);
  const std::string head = Head(rng);
  const std::string middle = Middle(rng, generation);
  constexpr std::string_view kConnectivity =
      ",\"packageConnectivity\":\"airgap\"}";

  std::string components;
  std::string deployed;
  ConnectStrings connect;
  std::string connect_json;
  auto size = [&] {
    return head.size() + components.size() + middle.size() + deployed.size() +
           1 + connect_json.size() + kConnectivity.size();
  };
  int index = 0;
  do {
    if (index > 0) {
      components.push_back(',');
      deployed.push_back(',');
    }
    MakeComponent(rng, index++, generation, &components, &deployed, &connect);
    connect_json.clear();
    if (!connect.empty()) {
      connect_json = ",\"connectStrings\":";
      AppendConnectStrings(&connect_json, connect);
    }
  } while (size() < target_bytes);

  std::string out;
  out.reserve(size());
  out.append(head).append(components).append(middle).append(deployed);
  out.push_back(']');
  out.append(connect_json).append(kConnectivity);
  return out;
}

std::string ReadTestData(std::string_view relative, std::string* error) {
  const char* dir = std::getenv("ZS_TEST_DATA");
  if (dir == nullptr || *dir == '\0') {
    *error = "ZS_TEST_DATA is not set";
    return "";
  }
  const std::string path = std::string(dir) + "/" + std::string(relative);
  std::ifstream file(path, std::ios::binary);
  std::ostringstream text;
  text << file.rdbuf();
  if (!file || text.str().empty()) {
    *error = "cannot read " + path;
    return "";
  }
  return text.str();
}

}  // namespace zs::bench
