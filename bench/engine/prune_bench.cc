// Prune planning (engine/prune.h) against a large cluster: the deployed
// package drops images that other packages may still reference, so every
// image of every other package is parsed, normalized and looked up.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>
#include <vector>

#include "model/model.h"
#include "engine/prune.h"
#include "json/json_value.h"
#include "testing/seeded_rng.h"

namespace zs::engine {
namespace {

using json::Value;

// An image reference drawn from a mix of spellings Zarf packages use.
std::string RandomImage(tools::SeededRng& rng) {
  const std::uint64_t high = rng();
  const std::uint64_t r = high << 32 | rng();
  const std::string tag =
      std::to_string(r % 50) + "." + std::to_string((r >> 8) % 20);
  switch ((r >> 16) % 4) {
    case 0:
      return "app" + std::to_string((r >> 24) % 2000) + ":" + tag;
    case 1:
      return "docker.io/team" + std::to_string((r >> 24) % 100) + "/svc:" + tag;
    case 2:
      return "ghcr.io/org" + std::to_string((r >> 24) % 500) +
             "/service-name/api:v" + tag;
    default:
      return "registry.example.com:5000/mirror/app" +
             std::to_string((r >> 24) % 3000) + ":" + tag;
  }
}

// A package of 10 deployed components with 10 images each.
DeployedPackage RandomPackage(const std::string& name, tools::SeededRng& rng,
                              int images) {
  DeployedPackage pkg;
  pkg.name = name;
  Value comps = Value::MakeArray();
  pkg.deployed_components.emplace();
  const int per_component = 10;
  for (int c = 0; c * per_component < images; ++c) {
    Value list = Value::MakeArray();
    for (int i = 0; i < per_component && c * per_component + i < images; ++i) {
      list.array().push_back(Value::String(RandomImage(rng)));
    }
    const std::string comp = "component-" + std::to_string(c);
    comps.array().push_back(Value::MakeObject(
        {{"name", Value::String(comp)}, {"images", std::move(list)}}));
    DeployedComponent dc;
    dc.name = comp;
    dc.installed_charts.emplace();
    pkg.deployed_components->push_back(std::move(dc));
  }
  pkg.data = Value::MakeObject(
      {{"kind", Value::String("ZarfPackageConfig")},
       {"metadata", Value::MakeObject({{"name", Value::String(name)}})},
       {"components", std::move(comps)}});
  return pkg;
}

void BM_PlanAgainst10kPackages(benchmark::State& state) {
  const int packages = static_cast<int>(state.range(0));
  const int images = 100;
  tools::SeededRng rng(20260126);
  std::vector<DeployedPackage> others;
  others.reserve(packages);
  for (int p = 0; p < packages; ++p)
    others.push_back(RandomPackage("pkg-" + std::to_string(p), rng, images));
  const DeployedPackage deployed = RandomPackage("target", rng, images);
  // The new version keeps only the first half of the components: 50 images
  // become candidates, some shared with the others, some not.
  Value next = deployed.data;
  next.Find("components")->array().resize(5);

  std::size_t pruned = 0, kept = 0;
  for (auto _ : state) {
    auto plan = PlanUpgrade(deployed, next, others, {});
    if (!plan.ok()) {
      state.SkipWithError(std::string(plan.status().message()).c_str());
      return;
    }
    pruned = plan->images.size();
    kept = plan->kept_images.size();
    benchmark::DoNotOptimize(plan);
  }
  state.SetItemsProcessed(state.iterations() *
                          static_cast<std::int64_t>(packages) * images);
  state.counters["pruned"] = static_cast<double>(pruned);
  state.counters["kept"] = static_cast<double>(kept);
}
BENCHMARK(BM_PlanAgainst10kPackages)->Arg(10000)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace zs::engine

BENCHMARK_MAIN();
