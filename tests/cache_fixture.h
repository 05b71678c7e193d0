// Synthetic package state for the cache tests: the payload of the k-th
// snapshot of a package that has been deployed k times, with a capped event
// list, as successive Secrets of a real package would be.
#ifndef ZARF_STATE_TESTS_CACHE_FIXTURE_H_
#define ZARF_STATE_TESTS_CACHE_FIXTURE_H_

#include <algorithm>
#include <string>
#include <vector>

#include "json/json_reader.h"
#include "model/model.h"
#include "model/model_json.h"
#include "kube/secret.h"
#include "testing/synthetic_package.h"

namespace zs::testing {

struct PackageSpec {
  std::string name = "pkg";
  // Images of the first component, as JSON string bodies (escapes allowed).
  std::vector<std::string> images = {"nginx:1.25", "ghcr.io/acme/api:2.0"};
  std::vector<std::string> components = {"web", "db"};
  std::string source = "oci://ghcr.io/acme/pkg";
  std::size_t cap = 10;
  // The last deploy is left InProgress (a hard kill).
  bool last_in_progress = false;
};

// Every package event of `deploys` deploys, uncapped, one second apart.
inline std::vector<PackageEvent> DeployEvents(const PackageSpec& spec, int deploys) {
  std::vector<PackageEvent> out;
  for (int d = 1; d <= deploys; ++d) {
    for (const char* outcome : {"InProgress", "Succeeded"}) {
      if (d == deploys && spec.last_in_progress && std::string(outcome) == "Succeeded") break;
      PackageEvent e;
      e.type = "Deploy";
      e.outcome = outcome;
      e.timestamp = Timestamp::FromUnixNanos((1700000000LL + 10LL * d + (outcome[0] == 'S')) *
                                             1000000000LL);
      e.version = "1." + std::to_string(d) + ".0";
      e.source = spec.source;
      e.config_digest = "sha256:" + std::string(64, static_cast<char>('a' + d % 6));
      out.push_back(std::move(e));
    }
  }
  return out;
}

// The snapshot after `deploys` deploys.
inline DeployedPackage Snapshot(const PackageSpec& spec, int deploys) {
  DeployedPackage p;
  p.name = spec.name;
  p.digest = "sha256:" + std::string(64, 'd');
  std::vector<std::string> images;  // spec.images are JSON string bodies
  for (const std::string& body : spec.images) {
    images.push_back(std::move(json::ParseJson("\"" + body + "\"")).value().as_string());
  }
  p.data = bench::MakeDefinition({.name = spec.name,
                                  .version = "1." + std::to_string(deploys) + ".0",
                                  .component_names = spec.components,
                                  .first_component_images = std::move(images)});
  p.cli_version = "v0.60.0";
  p.generation = deploys;
  p.package_connectivity = "airgap";
  std::vector<PackageEvent> all = DeployEvents(spec, deploys);
  const std::size_t keep = std::min(all.size(), spec.cap);
  p.events.assign(all.end() - static_cast<std::ptrdiff_t>(keep), all.end());
  p.deployed_components.emplace();
  for (const std::string& c : spec.components) {
    DeployedComponent dc;
    dc.name = c;
    dc.installed_charts.emplace();
    dc.status = "Succeeded";
    dc.observed_generation = deploys;
    ComponentEvent ce;
    ce.type = "Deploy";
    ce.outcome = spec.last_in_progress ? "InProgress" : "Succeeded";
    ce.timestamp = Timestamp::FromUnixNanos((1700000000LL + 10LL * deploys) * 1000000000LL + 500);
    dc.last_event = ce;
    p.deployed_components->push_back(std::move(dc));
  }
  p.config_digest = p.events.empty() ? "" : "sha256:" + std::string(64, 'c');
  return p;
}

inline std::string Payload(const PackageSpec& spec, int deploys) {
  return EncodeDeployedPackage(Snapshot(spec, deploys));
}

// A package Secret holding `payload`, as kubectl prints it (JSON).
inline std::string SecretJson(const std::string& name, const std::string& payload) {
  return WriteObject(MakePackageSecret(name, "", payload), TextFormat::kJson);
}

// A List of package Secrets.
inline std::string ListJson(const std::vector<std::pair<std::string, std::string>>& secrets) {
  std::string out = R"({"apiVersion":"v1","kind":"List","metadata":{"resourceVersion":""},"items":[)";
  for (std::size_t i = 0; i < secrets.size(); ++i) {
    if (i) out += ',';
    out += SecretJson(secrets[i].first, secrets[i].second);
  }
  return out + "]}";
}

}  // namespace zs::testing

#endif  // ZARF_STATE_TESTS_CACHE_FIXTURE_H_
