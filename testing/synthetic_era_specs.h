// The component and variable tables behind MakeEraPackage
// (testing/synthetic_package.h): modelled on Zarf's public init package and
// examples. The identifiers (component, chart, image, variable names, paths,
// commands) are the ones real state Secrets carry; the prose is our own.
// Internal to testing/synthetic_era*.cc.
#ifndef ZARF_STATE_TESTING_SYNTHETIC_ERA_SPECS_H_
#define ZARF_STATE_TESTING_SYNTHETIC_ERA_SPECS_H_

#include <vector>

namespace zs::bench::era {

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

// Zarf's init package components (k3s, zarf-injector, zarf-seed-registry,
// zarf-registry, zarf-agent, logging, git-server), in package order.
const std::vector<ComponentSpec>& InitComponents();
// The init package's variables.
const std::vector<VariableSpec>& InitVariables();
// Components of Zarf's examples; a package takes a run of 1-3 of them.
const std::vector<ComponentSpec>& ExampleComponents();

}  // namespace zs::bench::era

#endif  // ZARF_STATE_TESTING_SYNTHETIC_ERA_SPECS_H_
