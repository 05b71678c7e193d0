// Builds the zstd dictionary of the compact codec (codec/data/zarf_state*.dict)
// and measures what it buys. Built on demand only (target
// zs_train_dictionary).
//
//   zs_train_dictionary train --out=FILE --fixtures=DIR [--size=BYTES]
//       The shipped kind of dictionary (BuildDictionary): 32 KiB trained by
//       zstd on synthetic packages (hand-modelled on Zarf's init package and
//       examples, every era's field set, v2 events, and
//       tools/dev/sample_package.h at several sizes), followed by state
//       Zarf wrote: the package fixtures under DIR/legacy, newest era
//       nearest the end, each only when the state chosen so far does not
//       already predict it. --size caps the whole (default 96 KiB).
//   zs_train_dictionary crossval --fixtures=DIR [--size=BYTES]
//       What that buys for state the dictionary has not seen: built from
//       some eras' fixtures, measured on the other eras' and on a held-out
//       synthetic set (different seeds).
//   zs_train_dictionary measure --fixtures=DIR
//       The shipped codec on every DIR/legacy/*/pkg-*.payload.json: JSON,
//       gzip -9 of the JSON, compact with and without the dictionary.
//
// The samples are what the codec compresses: the Protobuf bytes inside the
// envelope, recovered from an Encode without dictionary.
#include <zdict.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <fstream>
#include <initializer_list>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "tools/dev/sample_package.h"
#include "codec/compact.h"
#include "codec/internal/format.h"
#include "json/json_value.h"
#include "codec/model_json.h"

namespace zs {
namespace {

using json::Value;

class Rng {
 public:
  explicit Rng(unsigned seed) : engine_(seed) {}
  int Between(int lo, int hi) {
    return lo + static_cast<int>(engine_() %
                                 static_cast<std::uint32_t>(hi - lo + 1));
  }
  bool Percent(int p) { return Between(0, 99) < p; }
  const char* Pick(std::initializer_list<const char*> items) {
    return items.begin()[Between(0, static_cast<int>(items.size()) - 1)];
  }
  std::string Hex(int n) {
    std::string s;
    while (static_cast<int>(s.size()) < n)
      s.push_back("0123456789abcdef"[engine_() & 15]);
    return s;
  }
  std::string Version() {
    return std::to_string(Between(0, 3)) + "." +
           std::to_string(Between(0, 30)) + "." +
           std::to_string(Between(0, 12));
  }

 private:
  std::mt19937 engine_;
};

Value S(std::string s) { return Value::String(std::move(s)); }
Value Obj(std::vector<json::Member> members = {}) {
  return Value::MakeObject(std::move(members));
}
Value Arr(std::vector<Value> items = {}) {
  return Value::MakeArray(std::move(items));
}

// ---------------------------------------------------------------- packages
//
// Modelled on Zarf's public init package and examples: the identifiers
// (component, chart, image, variable names, paths, commands) are the ones
// real state Secrets carry; the prose is our own. Which fields exist follows
// the era, as in the legacy formats.

struct ChartSpec {
  const char* name;
  const char* source;  // "oci://...", "https://..." or a local path
  const char* release;
  std::vector<const char*> values_files;
};
struct ManifestSpec {
  const char* name;
  std::vector<const char*> files;
};
struct ActionSpec {
  const char* when;  // "before", "after", "onFailure"
  const char* cmd;
  const char* description;
  const char* set_variable;
};
struct ComponentSpec {
  const char* name;
  const char* description;
  bool required;
  std::vector<ManifestSpec> manifests;
  std::vector<ChartSpec> charts;
  std::vector<const char*> images;
  std::vector<const char*> files;  // sources; targets are derived
  std::vector<const char*> repos;
  std::vector<ActionSpec> on_deploy;
  const char* connect;  // connect string key of the first manifest, or nullptr
  const char* connect_description;
};
struct VariableSpec {
  const char* name;
  const char* description;
  const char* fallback;  // default, or nullptr
  bool auto_indent;
};

// Positional: name, description, required, manifests, charts, images,
// files, repos, onDeploy actions, connect key, connect description.
// clang-format off
const std::vector<ComponentSpec>& InitComponents() {
  static const std::vector<ComponentSpec> specs = {
      {"k3s", "*** REQUIRES ROOT *** Installs K3s on this host so Zarf runs in appliance mode.\n",
       false, {}, {}, {},
       {"https://github.com/k3s-io/k3s/releases/download/v1.28.4+k3s2/k3s",
        "packages/distros/k3s/common/zarf-clean-k3s.sh", "packages/distros/k3s/common/k3s.service"},
       {},
       {{"before", "./zarf internal is-valid-hostname", nullptr, nullptr},
        {"after", "systemctl daemon-reload", nullptr, nullptr},
        {"after", "systemctl enable k3s", nullptr, nullptr},
        {"after", "systemctl start k3s", nullptr, nullptr}},
       nullptr, nullptr},
      {"zarf-injector",
       "Starts the registry from a pod cloned in the cluster, before any registry exists.\n"
       "Deleted once the Zarf registry serves its own image.\n",
       true, {}, {}, {},
       {"https://github.com/zarf-dev/zarf-injector/releases/download/v0.3.0/zarf-injector-amd64"},
       {}, {}, nullptr, nullptr},
      {"zarf-seed-registry", "Runs a temporary registry from the image the Zarf injector serves.\n",
       true, {},
       {{"docker-registry", "packages/zarf-registry/chart", "zarf-docker-registry",
         {"packages/zarf-registry/registry-values.yaml",
          "packages/zarf-registry/registry-values-seed.yaml"}}},
       {"library/registry:3.0.0", "alpine/socat:1.8.0.1"}, {}, {}, {}, nullptr, nullptr},
      {"zarf-registry",
       "Switches to the long-running Zarf registry, now self-hosted.\n"
       "It is the cluster's docker registry from then on.\n",
       true,
       {{"registry-connect", {"packages/zarf-registry/connect.yaml"}},
        {"kep-1755-registry-annotation", {"packages/zarf-registry/configmap.yaml"}}},
       {{"docker-registry", "packages/zarf-registry/chart", "zarf-docker-registry",
         {"packages/zarf-registry/registry-values.yaml"}}},
       {"library/registry:3.0.0", "alpine/socat:1.8.0.1"}, {}, {}, {},
       "registry", "Zarf registry inside the cluster (log in with zarf tools registry login)"},
      {"zarf-agent",
       "Mutating webhook that points image and git references in manifests at the\n"
       "registry and git server Zarf manages.\n",
       true, {},
       {{"zarf-agent", "packages/zarf-agent/chart", "zarf-agent",
         {"packages/zarf-agent/agent-values.yaml"}}},
       {"ghcr.io/zarf-dev/zarf/agent:v0.70.0"}, {}, {},
       {{"before", "test \"local\" != \"local\" || make build-local-agent-image AGENT_IMAGE_TAG=\"local\" ARCH=\"amd64\"",
         "Builds the agent image first when its tag is 'local'", nullptr}},
       nullptr, nullptr},
      {"logging", "Optional PLG stack (Promtail, Loki, Grafana) collecting the cluster's logs.\n",
       false, {{"logging-connect", {"packages/logging-pgl/connect.yaml"}}},
       {{"loki-stack", "https://grafana.github.io/helm-charts", "zarf-loki-stack",
         {"packages/logging-pgl/pgl-values.yaml"}}},
       {"docker.io/grafana/promtail:2.7.4", "docker.io/grafana/grafana:8.3.5",
        "docker.io/grafana/loki:2.6.1", "quay.io/kiwigrid/k8s-sidecar:1.19.2"},
       {}, {}, {}, "logging", "Grafana showing the cluster's logs"},
      {"git-server",
       "Gitea as the cluster's git server for GitOps repositories.\n"
       "Needed unless another git server is configured.\n",
       false, {{"git-connect", {"packages/gitea/connect.yaml"}}},
       {{"gitea", "oci://registry-1.docker.io/giteacharts/gitea", "zarf-gitea",
         {"packages/gitea/gitea-values.yaml"}}},
       {"ghcr.io/go-gitea/gitea:1.21.11-rootless"}, {}, {},
       {{"before", "./zarf internal update-gitea-pvc", nullptr, "GIT_SERVER_CREATE_PVC"},
        {"after", "./zarf internal create-read-only-gitea-user", "Adds a read-only user to Gitea", nullptr},
        {"after", "./zarf internal create-artifact-registry-token", "Issues a token for the artifact registry", nullptr},
        {"onFailure", "./zarf internal update-gitea-pvc --rollback", nullptr, nullptr}},
       "git", "Gitea, the git server inside the cluster"},
  };
  return specs;
}

const std::vector<VariableSpec>& InitVariables() {
  static const std::vector<VariableSpec> specs = {
      {"K3S_ARGS", "Extra arguments for the K3s server", "--disable traefik", false},
      {"REGISTRY_EXISTING_PVC", "Use this existing PVC for the registry instead of creating one", nullptr, false},
      {"REGISTRY_PVC_ENABLED", "Whether the registry stores images on a PVC", "true", false},
      {"REGISTRY_PVC_SIZE", "Size of the registry's persistent volume claim", "20Gi", false},
      {"REGISTRY_PVC_ACCESS_MODE", "Access mode of the registry's persistent volume claim", "ReadWriteOnce", false},
      {"REGISTRY_CPU_REQ", "CPU request of the registry", "100m", false},
      {"REGISTRY_MEM_REQ", "Memory request of the registry", "256Mi", false},
      {"REGISTRY_CPU_LIMIT", "CPU limit of the registry", "3", false},
      {"REGISTRY_MEM_LIMIT", "Memory limit of the registry", "2Gi", false},
      {"REGISTRY_HPA_MIN", "Fewest registry replicas the autoscaler keeps", "1", false},
      {"REGISTRY_HPA_MAX", "Most registry replicas the autoscaler starts", "5", false},
      {"REGISTRY_HPA_ENABLE", "Whether the registry scales with load", "true", false},
      {"REGISTRY_AFFINITY", "Affinity rules for the registry pods", nullptr, true},
      {"REGISTRY_TOLERATIONS", "Tolerations of the registry pods", nullptr, true},
      {"GIT_SERVER_EXISTING_PVC", "Use this existing PVC for the git server instead of creating one", nullptr, false},
      {"GIT_SERVER_PVC_SIZE", "Size of the git server's persistent volume claim", "10Gi", false},
      {"GIT_SERVER_PVC_ACCESS_MODE", "Access mode of the git server's persistent volume claim", "ReadWriteOnce", false},
      {"GIT_SERVER_CPU_REQ", "CPU request of the git server", "200m", false},
      {"GIT_SERVER_MEM_REQ", "Memory request of the git server", "512Mi", false},
      {"GIT_SERVER_CPU_LIMIT", "CPU limit of the git server", "3", false},
      {"GIT_SERVER_MEM_LIMIT", "Memory limit of the git server", "2Gi", false},
      {"GIT_SERVER_REPLICA_COUNT", "How many git server replicas run", "1", false},
      {"GIT_SERVER_DISABLE_REGISTRATION", "Whether new users may sign up on the git server", "true", false},
      {"GIT_SERVER_AFFINITY", "Affinity rules for the gitea deployment", nullptr, true},
      {"GIT_SERVER_TOLERATIONS", "Tolerations of the gitea deployment", nullptr, true},
      {"GIT_SERVER_NODE_SELECTOR", "Node selector of the gitea deployment", nullptr, true},
  };
  return specs;
}

const std::vector<ComponentSpec>& ExampleComponents() {
  static const std::vector<ComponentSpec> specs = {
      {"baseline", "Classic DOS games served in the browser", true,
       {{"multi-games", {"manifests/deployment.yaml", "manifests/service.yaml"}}}, {},
       {"ghcr.io/zarf-dev/doom-game:0.0.1"}, {}, {}, {}, "doom", "Play the DOS games"},
      {"podinfo", "Deploys podinfo from an OCI chart", false, {},
       {{"podinfo", "oci://ghcr.io/stefanprodan/charts/podinfo", "podinfo", {"values.yaml"}}},
       {"ghcr.io/stefanprodan/podinfo:6.4.0"}, {}, {},
       {{"after", "./zarf tools wait-for deployment podinfo available -n podinfo", "Wait for podinfo", nullptr}},
       nullptr, nullptr},
      {"flux", "Installs the Flux controllers", true,
       {{"flux-install", {"https://github.com/fluxcd/flux2/releases/download/v2.2.2/install.yaml"}}}, {},
       {"ghcr.io/fluxcd/helm-controller:v0.37.2", "ghcr.io/fluxcd/kustomize-controller:v1.2.1",
        "ghcr.io/fluxcd/notification-controller:v1.2.3", "ghcr.io/fluxcd/source-controller:v1.2.3"},
       {}, {}, {}, nullptr, nullptr},
      {"podinfo-via-flux", "Example of a podinfo chart deployed through Flux", true,
       {{"podinfo", {"podinfo-source.yaml", "podinfo-kustomization.yaml"}}}, {},
       {"ghcr.io/stefanprodan/podinfo:6.4.0"}, {}, {"https://github.com/stefanprodan/podinfo.git"}, {},
       nullptr, nullptr},
      {"wordpress", "A WordPress blog with its MariaDB", false,
       {{"connect-services", {"connect-services.yaml"}}},
       {{"wordpress", "https://charts.bitnami.com/bitnami", "wordpress", {"wordpress-values.yaml"}}},
       {"docker.io/bitnami/apache-exporter:0.13.3-debian-11-r2", "docker.io/bitnami/mariadb:11.0.2-debian-11-r2",
        "docker.io/bitnami/wordpress:6.2.2-debian-11-r26"},
       {}, {}, {}, "wordpress-blog", "The WordPress blog"},
      {"argocd-helm-chart", "Argo CD for GitOps delivery", true, {},
       {{"argo-cd", "https://argoproj.github.io/argo-helm", "argocd", {"values.yaml"}}},
       {"quay.io/argoproj/argocd:v2.9.3", "ghcr.io/dexidp/dex:v2.37.0", "docker.io/library/redis:7.0.14-alpine"},
       {}, {"https://github.com/stefanprodan/podinfo.git"}, {}, nullptr, nullptr},
      {"demo-helm-charts", "Charts from a git repository, an OCI registry and a local path", true, {},
       {{"podinfo-local", "chart", "podinfo-local", {"values.yaml"}},
        {"podinfo-oci", "oci://ghcr.io/stefanprodan/charts/podinfo", "podinfo-oci", {}},
        {"podinfo-git", "https://github.com/stefanprodan/podinfo.git", "podinfo-git", {}}},
       {"ghcr.io/stefanprodan/podinfo:6.4.0"}, {}, {},
       {{"after", "./zarf tools wait-for deployment -l app.kubernetes.io/name=podinfo available -n podinfo-from-local-chart",
         nullptr, nullptr}},
       nullptr, nullptr},
      {"httpd-local", "Manifests and a kustomization for httpd", true,
       {{"simple-httpd-deployment", {"httpd-deployment.yaml"}}}, {}, {"httpd:alpine3.18"},
       {}, {}, {}, nullptr, nullptr},
      {"kiwix-serve", "Offline Wikipedia with kiwix", true,
       {{"kiwix-serve", {"manifests/persistence.yaml", "manifests/deployment.yaml"}}}, {},
       {"ghcr.io/kiwix/kiwix-serve:3.5.0-2", "alpine:3.18"}, {}, {},
       {{"after", "./zarf tools kubectl wait --for=condition=Ready pod -l app=kiwix-serve -n kiwix", nullptr, nullptr}},
       "kiwix", "View the kiwix library"},
      {"longhorn-environment-check", "Storage with Longhorn", true, {},
       {{"longhorn", "https://charts.longhorn.io", "longhorn", {"values.yaml"}}},
       {"longhornio/longhorn-manager:v1.5.1", "longhornio/longhorn-engine:v1.5.1",
        "longhornio/longhorn-ui:v1.5.1", "longhornio/csi-provisioner:v2.1.2"},
       {}, {}, {}, nullptr, nullptr},
      {"variable-example", "Shows how package variables and constants template manifests", false,
       {{"variable-example-configmap", {"simple-configmap.yaml"}}}, {}, {}, {}, {},
       {{"before", "echo ${ZARF_VAR_DOMAIN}", nullptr, "DOMAIN"}}, nullptr, nullptr},
      {"with-init", "Component actions across the lifecycle", false, {}, {}, {}, {}, {},
       {{"before", "echo \"hello from a deploy action\"", "Say hello", "HELLO"},
        {"after", "./zarf tools kubectl get pods -A", nullptr, nullptr}},
       nullptr, nullptr},
  };
  return specs;
}
// clang-format on

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
                                  {"version", S(rng.Version())}};
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

// One synthetic DeployedPackage JSON tree; `seed` fixes everything.
Value SyntheticPackage(unsigned seed) {
  Rng rng(seed);
  const int era = rng.Between(4, 22);
  const bool v2 = era >= 20 && rng.Percent(60);
  const bool init = rng.Percent(45);
  const std::string name =
      init ? "init"
           : std::string(rng.Pick({"dos-games", "podinfo-flux", "helm-charts",
                                   "manifests", "wordpress", "argocd", "kiwix",
                                   "longhorn", "variables", "component-actions",
                                   "big-bang"}));
  const std::string cli = "v0." +
                          std::to_string(20 + 3 * era + rng.Between(0, 2)) +
                          "." + std::to_string(rng.Between(0, 3));
  std::vector<const ComponentSpec*> specs;
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
  auto ns = [&](const ComponentSpec& s) {
    return init ? std::string("zarf") : name;
  };

  std::vector<json::Member> metadata{{"name", S(name)}};
  metadata.emplace_back(
      "description",
      S(init ? "Zarf's init package: registry, agent and git server"
             : "Example " + name + " package for an air-gapped cluster"));
  if (!init) metadata.emplace_back("version", S(rng.Version()));
  metadata.emplace_back("architecture", S(rng.Percent(85) ? "amd64" : "arm64"));
  metadata.emplace_back("aggregateChecksum", S(rng.Hex(64)));
  if (era >= 21 && init)
    metadata.emplace_back("allowNamespaceOverride", Value::Bool(false));
  std::vector<json::Member> build{
      {"terminal",
       S(rng.Pick({"fv-az1234-567", "buildkitsandbox", "ci-runner-4"}))},
      {"user", S(rng.Pick({"runner", "root", "builder"}))},
      {"architecture", S("amd64")},
      {"timestamp", S(BuildTime(rng))},
      {"version", S(cli)}};
  if (era <= 8)
    build.emplace_back("migrations", rng.Percent(50)
                                         ? Value::Null()
                                         : Arr({S("scripts-to-actions")}));
  if (rng.Percent(10))
    build.emplace_back("flavor", S(rng.Pick({"upstream", "registry1"})));
  std::vector<Value> components;
  for (const ComponentSpec* s : specs)
    components.push_back(Component(rng, *s, era, ns(*s)));
  std::vector<json::Member> data{
      {"kind", S(init ? "ZarfInitConfig" : "ZarfPackageConfig")},
      {"metadata", Obj(std::move(metadata))},
      {"build", Obj(std::move(build))},
      {"components", Arr(std::move(components))}};
  if (init) {
    std::vector<Value> constants;
    for (const char* c : {"AGENT_IMAGE", "AGENT_IMAGE_TAG", "REGISTRY_IMAGE",
                          "REGISTRY_IMAGE_TAG"}) {
      const std::string_view n = c;
      constants.push_back(
          Obj({{"name", S(c)},
               {"value", S(n == "AGENT_IMAGE"      ? "zarf-dev/zarf/agent"
                           : n == "REGISTRY_IMAGE" ? "library/registry"
                                                   : rng.Version())}}));
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
      data.emplace_back("constants", Arr(std::move(constants)));
    data.emplace_back("variables", Arr(std::move(variables)));
    if (!constants_first)
      data.emplace_back("constants", Arr({Obj({{"name", S("AGENT_IMAGE")},
                                               {"value", S("agent:local")}})}));
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

  std::vector<json::Member> pkg{{"name", S(name)}};
  if (era >= 10) pkg.emplace_back("digest", S("sha256:" + rng.Hex(64)));
  pkg.emplace_back("data", Obj(std::move(data)));
  pkg.emplace_back("cliVersion", S(cli));
  const int generation = rng.Between(1, 4);
  if (era >= 8) pkg.emplace_back("generation", Value::Int(generation));
  std::vector<Value> deployed;
  std::vector<json::Member> connect;
  const bool partial = rng.Percent(20);
  for (std::size_t i = 0; i < specs.size(); ++i) {
    const ComponentSpec& s = *specs[i];
    if (partial && i > 1) break;
    std::vector<Value> charts;
    auto chart = [&](std::string chart_name, const char* key,
                     const char* description) {
      std::vector<json::Member> h{{"namespace", S(ns(s))},
                                  {"chartName", S(std::move(chart_name))}};
      if (key != nullptr) {
        Value cs = Obj(
            {{key, Obj({{"description", S(description)},
                        {"url", S(rng.Percent(50) ? "" : "/v2/_catalog")}})}});
        connect.emplace_back(key, cs.object()[0].second);
        h.emplace_back("connectStrings", std::move(cs));
      }
      if (era >= 15)
        h.emplace_back("status", S(rng.Percent(85) ? "Succeeded" : "Failed"));
      charts.push_back(Obj(std::move(h)));
    };
    for (const ChartSpec& c : s.charts) chart(c.release, nullptr, nullptr);
    for (std::size_t m = 0; m < s.manifests.size(); ++m) {
      chart("raw-" + name + "-" + s.name + "-" + s.manifests[m].name,
            m == 0 ? s.connect : nullptr, s.connect_description);
    }
    std::vector<json::Member> d{{"name", S(s.name)},
                                {"installedCharts", Arr(std::move(charts))}};
    if (era >= 8)
      d.emplace_back(
          "status", S(rng.Pick({"Succeeded", "Succeeded", "Succeeded", "Failed",
                                "Deploying", "Removing"})));
    if (era >= 12) d.emplace_back("observedGeneration", Value::Int(generation));
    if (v2) {
      d.emplace_back(
          "lastEvent",
          Obj({{"type", S("Deploy")},
               {"outcome", S(rng.Pick({"Succeeded", "Succeeded", "Failed",
                                       "InProgress", "Cancelled"}))},
               {"timestamp", S(Rfc3339(rng))}}));
    }
    deployed.push_back(Obj(std::move(d)));
  }
  pkg.emplace_back("deployedComponents", Arr(std::move(deployed)));
  if (!connect.empty() && era >= 7) {
    std::sort(connect.begin(), connect.end(),
              [](auto& a, auto& b) { return a.first < b.first; });
    connect.erase(
        std::unique(connect.begin(), connect.end(),
                    [](auto& a, auto& b) { return a.first == b.first; }),
        connect.end());
    pkg.emplace_back("connectStrings", Obj(std::move(connect)));
  }
  if (era >= 21)
    pkg.emplace_back("packageConnectivity",
                     S(rng.Percent(60) ? "airgap" : "connected"));
  if (rng.Percent(10))
    pkg.emplace_back("namespaceOverride",
                     S("tenant-" + std::to_string(rng.Between(1, 9))));
  if (v2) {
    std::vector<Value> events;
    const int n = rng.Between(1, 10);
    const std::string config = "sha256:" + rng.Hex(64);
    for (int i = 0; i < n; ++i) {
      const bool remove = rng.Percent(15);
      std::vector<json::Member> e{
          {"type", S(remove ? "Remove" : "Deploy")},
          {"outcome", S(rng.Pick({"InProgress", "Succeeded", "Succeeded",
                                  "Failed", "Cancelled"}))},
          {"timestamp", S(Rfc3339(rng))},
          {"version", S(rng.Version())}};
      if (rng.Percent(20))
        e.emplace_back("flavor",
                       S(rng.Pick({"upstream", "registry1", "unicorn"})));
      e.emplace_back("digest", S("sha256:" + rng.Hex(64)));
      if (!remove) {
        e.emplace_back("source",
                       S(rng.Percent(50) ? "oci://ghcr.io/zarf-dev/packages/" +
                                               name + ":" + rng.Version()
                                         : "zarf-package-" + name + "-amd64-" +
                                               rng.Version() + ".tar.zst"));
      }
      e.emplace_back("configDigest", S(config));
      events.push_back(Obj(std::move(e)));
    }
    pkg.emplace_back("events", Arr(std::move(events)));
    pkg.emplace_back(
        "deployConfig",
        Obj({{"SetVariables", rng.Percent(50) ? Obj({{"DOMAIN", S("uds.dev")},
                                                     {"REPLICAS", S("2")}})
                                              : Value::Null()},
             {"Values", rng.Percent(30) ? Obj({{"replicaCount", Value::Int(2)}})
                                        : Value::Null()},
             {"NamespaceOverride", S("")},
             {"ValuesOverridesMap", Value::Null()}}));
    pkg.emplace_back("configDigest", S(config));
  }
  return Obj(std::move(pkg));
}

// ---------------------------------------------------------------- samples

// The Protobuf bytes the codec compresses for `pkg`.
std::string ProtoBytes(const DeployedPackage& pkg) {
  auto envelope = compact::Encode(pkg, {.level = 1, .use_dictionary = false});
  if (!envelope.ok()) return {};
  const std::string& e = *envelope;
  std::uint32_t length = 0;
  for (int i = 0; i < 4; ++i) {
    length |= std::uint32_t{static_cast<unsigned char>(
                  e[compact::internal::kLengthOffset + i])}
              << (8 * i);
  }
  const std::string_view payload =
      std::string_view(e).substr(compact::internal::kHeaderSize);
  if ((e[compact::internal::kFlagsOffset] & compact::internal::kFlagZstd) == 0)
    return std::string(payload);
  std::string out(length, '\0');
  const std::size_t n =
      ZSTD_decompress(out.data(), out.size(), payload.data(), payload.size());
  return ZSTD_isError(n) || n != length ? std::string() : out;
}

// Training samples (`held_out` picks a disjoint set of seeds).
std::vector<std::string> Samples(bool held_out) {
  std::vector<std::string> out;
  const unsigned base = held_out ? 900000 : 100000;
  for (unsigned i = 0; i < 600; ++i) {
    auto pkg = DecodeDeployedPackage(SyntheticPackage(base + i));
    if (pkg.ok()) out.push_back(ProtoBytes(*pkg));
  }
  const std::size_t sizes[] = {2 << 10,  4 << 10,  8 << 10,
                               16 << 10, 32 << 10, 64 << 10};
  for (unsigned i = 0; i < 36; ++i) {
    auto pkg = ParseDeployedPackage(
        bench::MakeSamplePackageJson(sizes[i % 6], base + 7 * i));
    if (pkg.ok()) out.push_back(ProtoBytes(*pkg));
  }
  return out;
}

// Samples laid out as ZDICT wants them: one buffer and the sizes.
struct Concatenated {
  explicit Concatenated(const std::vector<std::string>& samples) {
    for (const std::string& s : samples) {
      bytes += s;
      sizes.push_back(s.size());
    }
  }
  std::string bytes;
  std::vector<std::size_t> sizes;
};

std::string Train(const std::vector<std::string>& samples, std::size_t size) {
  const Concatenated all(samples);
  std::string dict(size, '\0');
  const std::size_t n =
      ZDICT_trainFromBuffer(dict.data(), dict.size(), all.bytes.data(),
                            all.sizes.data(),
                            static_cast<unsigned>(all.sizes.size()));
  if (ZDICT_isError(n)) {
    std::fprintf(stderr, "ZDICT_trainFromBuffer: %s\n", ZDICT_getErrorName(n));
    return {};
  }
  dict.resize(n);
  return dict;
}

// Envelope size for `proto` compressed as the codec does it with `dict`.
std::size_t CompactSize(const std::string& proto, const std::string& dict,
                        int level) {
  ZSTD_CCtx* cctx = ZSTD_createCCtx();
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, level);
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_contentSizeFlag, 0);
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_dictIDFlag, 0);
  if (!dict.empty()) ZSTD_CCtx_loadDictionary(cctx, dict.data(), dict.size());
  std::string out(ZSTD_compressBound(proto.size()), '\0');
  const std::size_t n =
      ZSTD_compress2(cctx, out.data(), out.size(), proto.data(), proto.size());
  ZSTD_freeCCtx(cctx);
  return compact::internal::kHeaderSize + std::min(n, proto.size());
}

double Median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 == 1 ? v[m] : (v[m - 1] + v[m]) / 2;
}

std::size_t GzipSize(const std::string& text) {
  z_stream z{};
  deflateInit2(&z, 9, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY);  // gzip -9
  std::string out(deflateBound(&z, text.size()) + 32, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  z.avail_in = static_cast<uInt>(text.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  deflate(&z, Z_FINISH);
  const std::size_t n = z.total_out;
  deflateEnd(&z);
  return n;
}

// Every DIR/legacy/*/pkg-*.payload.json, sorted.
std::vector<std::filesystem::path> FixturePaths(
    const std::filesystem::path& fixtures) {
  std::vector<std::filesystem::path> paths;
  for (const auto& e :
       std::filesystem::recursive_directory_iterator(fixtures / "legacy")) {
    const std::string name = e.path().filename().string();
    if (name.starts_with("pkg-") && name.ends_with(".payload.json"))
      paths.push_back(e.path());
  }
  std::sort(paths.begin(), paths.end());
  return paths;
}

std::string ReadFile(const std::filesystem::path& path) {
  std::stringstream text;
  text << std::ifstream(path, std::ios::binary).rdbuf();
  return text.str();
}

int RunMeasure(const std::filesystem::path& fixtures) {
  const std::vector<std::filesystem::path> paths = FixturePaths(fixtures);
  std::vector<double> json, gz, plain, dict, dict3, vs_gz, vs_json;
  for (const auto& path : paths) {
    auto pkg = ParseDeployedPackage(ReadFile(path));
    if (!pkg.ok()) {
      std::fprintf(stderr, "%s: %s\n", path.c_str(),
                   pkg.status().ToString().c_str());
      return 1;
    }
    const std::string canonical = EncodeDeployedPackage(*pkg);
    auto without =
        compact::Encode(*pkg, {.level = 19, .use_dictionary = false});
    auto with = compact::Encode(*pkg, {.level = 19, .use_dictionary = true});
    auto with3 = compact::Encode(*pkg, {.level = 3, .use_dictionary = true});
    if (!without.ok() || !with.ok() || !with3.ok()) {
      std::fprintf(stderr, "%s: encode failed\n", path.c_str());
      return 1;
    }
    json.push_back(canonical.size());
    gz.push_back(GzipSize(canonical));
    plain.push_back(without->size());
    dict.push_back(with->size());
    dict3.push_back(with3->size());
    vs_gz.push_back(dict.back() / gz.back());
    vs_json.push_back(dict.back() / json.back());
    std::printf("%8.0f %7.0f %7.0f %7.0f %7.0f  %s\n", json.back(), gz.back(),
                plain.back(), dict.back(), dict3.back(),
                path.lexically_relative(fixtures / "legacy").c_str());
  }
  std::printf(
      "%8s %7s %7s %7s %7s  <- json, gzip -9, compact/19, compact+dict/19, "
      "compact+dict/3\n",
      "", "", "", "", "");
  std::printf(
      "median over %zu packages: json %.0f, gzip %.0f, compact %.0f, "
      "compact+dict %.0f "
      "(level 3: %.0f)\n",
      paths.size(), Median(json), Median(gz), Median(plain), Median(dict),
      Median(dict3));
  std::printf("median ratio compact+dict/gzip %.3f, compact+dict/json %.3f\n",
              Median(vs_gz), Median(vs_json));
  std::printf("\nlevel  median bytes with dict  (without)\n");
  for (int level : {-5, -1, 1, 2, 3, 6, 9, 12, 15, 19, 22}) {
    std::vector<double> with, without;
    for (const auto& path : paths) {
      auto pkg = ParseDeployedPackage(ReadFile(path));
      with.push_back(
          compact::Encode(*pkg, {.level = level, .use_dictionary = true})
              ->size());
      without.push_back(
          compact::Encode(*pkg, {.level = level, .use_dictionary = false})
              ->size());
    }
    std::printf("%5d  %21.0f  %9.0f\n", level, Median(with), Median(without));
  }
  return 0;
}



// A dictionary whose content is chosen, not searched for: `content`, its end
// kept when too long, with zstd's header and entropy tables for `level`
// fitted to `samples`.
std::string ContentDictionary(const std::string& content,
                              const std::vector<std::string>& samples,
                              std::size_t size, int level) {
  const Concatenated all(samples);
  std::string dict(size, '\0');
  const std::size_t room = size - std::min<std::size_t>(size, 16384);
  const std::string_view kept =
      content.size() <= room
          ? std::string_view(content)
          : std::string_view(content).substr(content.size() - room);
  ZDICT_params_t params{};
  params.compressionLevel = level;
  const std::size_t n = ZDICT_finalizeDictionary(
      dict.data(), dict.size(), kept.data(), kept.size(), all.bytes.data(),
      all.sizes.data(), static_cast<unsigned>(all.sizes.size()), params);
  if (ZDICT_isError(n)) {
    std::fprintf(stderr, "ZDICT_finalizeDictionary: %s\n",
                 ZDICT_getErrorName(n));
    return {};
  }
  dict.resize(n);
  return dict;
}


// The shipped kind of dictionary: 32 KiB trained on the synthetic set (names,
// paths and structure common to Zarf packages), then real state chosen
// greedily, newest first, each sample only when the state chosen so far does
// not already predict it well; the total is capped at `size`.
std::string BuildDictionary(const std::vector<std::string>& synthetic,
                            const std::vector<std::string>& state,
                            std::size_t size) {
  const std::string trained = Train(synthetic, 32768);
  std::vector<std::string> all = synthetic;
  all.insert(all.end(), state.begin(), state.end());
  std::string content;
  const std::size_t room = size - 16384 - trained.size();
  for (auto it = state.rbegin(); it != state.rend(); ++it) {
    if (it->size() > room / 4) continue;  // one sample never crowds out others
    const std::size_t cost =
        content.empty() ? it->size() : CompactSize(*it, content, 19);
    if (cost * 10 < it->size()) continue;  // already predicted
    if (content.size() + it->size() > room) break;
    content = *it + content;  // newer state nearer the end, at short offsets
  }
  return ContentDictionary(trained + content, all, size, 19);
}

// Era number of a fixture path (".../legacy/e07-v0.30.0-v0.35.0/..."), or 0.
int EraOf(const std::filesystem::path& path) {
  const std::string era = path.parent_path().filename().string();
  if (era.size() < 3 || era[0] != 'e') return 0;
  return std::atoi(era.c_str() + 1);
}

struct FixtureSample {
  int era = 0;
  std::string proto;      // what the codec compresses
  std::size_t json = 0;   // Go-exact JSON bytes
  std::size_t gzip = 0;   // gzip -9 of that JSON
};

std::vector<FixtureSample> FixtureSamples(const std::filesystem::path& dir) {
  std::vector<FixtureSample> out;
  for (const auto& path : FixturePaths(dir)) {
    auto pkg = ParseDeployedPackage(ReadFile(path));
    if (!pkg.ok()) continue;
    const std::string canonical = EncodeDeployedPackage(*pkg);
    out.push_back({EraOf(path), ProtoBytes(*pkg), canonical.size(),
                   GzipSize(canonical)});
  }
  return out;
}

// A dictionary built as the shipped one is (BuildDictionary) from the
// synthetic set and the fixtures `in_train` picks, measured on the fixtures it
// leaves out and on the held-out synthetic set: what it does for state it has
// not seen.
void HeldOutFold(const char* label, const std::vector<std::string>& synthetic,
                 const std::vector<std::string>& held_synthetic,
                 const std::vector<FixtureSample>& fixtures,
                 const std::function<bool(int era)>& in_train,
                 std::size_t size) {
  std::vector<std::string> state;
  for (const auto& f : fixtures)
    if (in_train(f.era)) state.push_back(f.proto);
  const std::string dict = BuildDictionary(synthetic, state, size);
  std::vector<double> vs_json, vs_gzip, bytes, synth;
  for (const auto& f : fixtures) {
    if (in_train(f.era)) continue;
    const double n = static_cast<double>(CompactSize(f.proto, dict, 19));
    bytes.push_back(n);
    vs_json.push_back(n / static_cast<double>(f.json));
    vs_gzip.push_back(n / static_cast<double>(f.gzip));
  }
  for (const auto& p : held_synthetic)
    synth.push_back(static_cast<double>(CompactSize(p, dict, 19)));
  std::printf("%-30s %6zu %4zu %7.0f %7.3f %7.3f %9.0f\n", label, dict.size(),
              bytes.size(), Median(bytes), Median(vs_json), Median(vs_gzip),
              Median(synth));
}

int RunCrossValidate(const std::filesystem::path& dir, std::size_t size) {
  const std::vector<std::string> synthetic = Samples(false);
  const std::vector<std::string> held_synthetic = Samples(true);
  const std::vector<FixtureSample> fixtures = FixtureSamples(dir);
  std::printf("level 19; medians over the held-out fixtures (bytes, per-package "
              "ratios to JSON and gzip -9) and the held-out synthetic set\n");
  std::printf("%-30s %6s %4s %7s %7s %7s %9s\n", "state in the dictionary",
              "dict", "pkgs", "bytes", "/json", "/gzip", "synthetic");
  HeldOutFold("none (synthetic only)", synthetic, held_synthetic, fixtures,
              [](int) { return false; }, size);
  HeldOutFold("odd eras, tested on even", synthetic, held_synthetic, fixtures,
              [](int era) { return era % 2 == 1; }, size);
  HeldOutFold("even eras, tested on odd", synthetic, held_synthetic, fixtures,
              [](int era) { return era % 2 == 0; }, size);
  HeldOutFold("e01-e11, tested on e12-e22", synthetic, held_synthetic,
              fixtures, [](int era) { return era <= 11; }, size);
  HeldOutFold("e01-e16, tested on e17-e22", synthetic, held_synthetic,
              fixtures, [](int era) { return era <= 16; }, size);
  return 0;
}

// The shipped dictionary: BuildDictionary over the synthetic set and every
// package fixture in DIR, oldest era first.
int RunTrain(const std::string& out_path, std::size_t size,
             const std::filesystem::path& fixtures) {
  const std::vector<std::string> synthetic = Samples(false);
  std::vector<std::string> state;
  for (auto& f : FixtureSamples(fixtures)) state.push_back(std::move(f.proto));
  const std::string dict = BuildDictionary(synthetic, state, size);
  if (dict.empty()) return 1;
  std::ofstream(out_path, std::ios::binary).write(dict.data(), dict.size());
  std::printf("samples: %zu synthetic, %zu fixtures; wrote %s: %zu bytes, "
              "dictionary id %u\n",
              synthetic.size(), state.size(), out_path.c_str(), dict.size(),
              ZDICT_getDictID(dict.data(), dict.size()));
  return 0;
}

}  // namespace
}  // namespace zs

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  std::string out, fixtures;
  std::size_t size = 98304;
  for (int i = 2; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg.starts_with("--out="))
      out = arg.substr(6);
    else if (arg.starts_with("--fixtures="))
      fixtures = arg.substr(11);
    else if (arg.starts_with("--size="))
      size = std::stoul(std::string(arg.substr(7)));
  }
  if (mode == "train" && !out.empty() && !fixtures.empty())
    return zs::RunTrain(out, size, fixtures);
  if (mode == "crossval" && !fixtures.empty())
    return zs::RunCrossValidate(fixtures, size);
  if (mode == "measure" && !fixtures.empty()) return zs::RunMeasure(fixtures);
  std::fprintf(stderr,
               "usage: %s train --out=FILE --fixtures=DIR [--size=BYTES]\n"
               "       %s crossval --fixtures=DIR [--size=BYTES]\n"
               "       %s measure --fixtures=DIR\n",
               argv[0], argv[0], argv[0]);
  return 2;
}
