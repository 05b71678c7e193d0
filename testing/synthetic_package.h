// Synthetic Zarf packages for tests, benchmarks and the dictionary trainer:
// the one generator the harnesses share (tests/, bench/, testing/). Every
// shape is deterministic for the same arguments, on every platform
// (testing/seeded_rng.h). The product's own model of a growing package,
// `zarf-state bench growth`, is report/growth_sim.h (product code may not
// include this file).
//
//   MakeDefinition        a ZarfPackage definition (`data`) of N components
//                         with charts and images, optionally digest-pinned:
//                         for harnesses that deploy or record a package.
//   MakeSamplePackageJson a realistic v0.84 DeployedPackage JSON text of a
//                         target size, as Go's json.Marshal writes it.
//   MakeEraPackage        a DeployedPackage tree of a random Zarf era
//                         (v0.2x..v0.84 field sets), modelled on the init
//                         package and the examples: the trainer's samples.
//
// MakeSamplePackageJson's text has the shape Zarf stores in a package
// Secret's `data` key (see the legacy fixture
// pkg-realistic-init-failed.payload.json): name, digest, data (a ZarfPackage:
// kind, metadata, build, components, constants, variables), cliVersion,
// generation, deployedComponents with their installed charts and connect
// strings, connectStrings and packageConnectivity. It is written the way Go's
// `json.Marshal` writes it: compact, members in struct field order, map keys
// sorted, `<` `>` `&` as `\u003c` `\u003e` `\u0026`, non-ASCII text raw. So
// a raw-order, raw-number write of the parsed text reproduces it byte for
// byte.
//
// Thread safety: every function here is pure and reentrant.
#ifndef ZARF_STATE_TESTING_SYNTHETIC_PACKAGE_H_
#define ZARF_STATE_TESTING_SYNTHETIC_PACKAGE_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "json/json_value.h"

namespace zs::bench {

// What MakeDefinition builds. The text is
// {"kind":"ZarfPackageConfig","metadata":{"name","version"},"components":[
// {"name",["required":true,]["charts":[...],]"images":[...]},...]}.
struct DefinitionOptions {
  std::string name = "demo";     // metadata.name
  std::string version = "1.0.0";  // metadata.version and every chart's version
  // `components` components named "component-<i>", unless `component_names`
  // is given: then one component per name, and `components` is ignored.
  int components = 1;
  std::vector<std::string> component_names = {};
  bool required = false;  // every component `"required":true`
  // Charts "chart-<i>" (then "chart-<i>-<k>") in `chart_namespace`; no
  // `charts` member when 0.
  int charts_per_component = 0;
  std::string chart_namespace = "apps";
  // Images "registry.example.com/app-<i>" (then "...app-<i>-<k>"); every
  // component has an `images` array, empty when 0 and no extra images.
  int images_per_component = 0;
  // Pin the generated images by digest ("@sha256:<64 hex>" drawn from
  // `seed`, component by component): random to a compressor, as in hardened
  // packages.
  bool pin_digests = false;
  unsigned seed = 1;
  // Images the first component lists, as given, after its generated ones.
  std::vector<std::string> first_component_images = {};
};

// The definition `options` describe, as a JSON tree in the member order above.
json::Value MakeDefinition(const DefinitionOptions& options);

// Returns a DeployedPackage JSON text of at least `target_bytes` bytes (it
// grows one component at a time, so it overshoots by less than one component
// and its deployed entry, a few KiB). The same (target_bytes, seed) always
// gives the same bytes, on every platform (testing/seeded_rng.h).
std::string MakeSamplePackageJson(std::size_t target_bytes, unsigned seed);

// A DeployedPackage JSON tree of the era `seed` picks (4..22, oldest first:
// which members exist follows the era, as in the legacy formats): Zarf's
// init package or a run of 1-3 example components, with deployed
// components, connect strings, and for v2-era packages events and a deploy
// config.
json::Value MakeEraPackage(unsigned seed);

// The ~1 MiB sample every codec benchmark measures (docs/performance.md
// quotes figures on it: its bytes must not change).
inline constexpr std::size_t kSampleBytes = std::size_t{1} << 20;
inline constexpr unsigned kSampleSeed = 20260821;

// The file `relative` under $ZS_TEST_DATA (tests/data). On failure returns ""
// and sets `*error` to why ("ZS_TEST_DATA is not set", "cannot read PATH"),
// which a benchmark passes to SkipWithError.
std::string ReadTestData(std::string_view relative, std::string* error);

}  // namespace zs::bench

#endif  // ZARF_STATE_TESTING_SYNTHETIC_PACKAGE_H_
