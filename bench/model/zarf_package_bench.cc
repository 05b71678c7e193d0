// Throughput of MarshalZarfPackage (model/zarf_package.h), what
// `record deploy --package` runs once per deploy, on the package definition
// of the ~1 MiB synthetic sample (testing/synthetic_package.h, fixed seed):
// once as the sample holds it (Zarf's own form) and once with every empty
// object and empty string removed, as a person would write the definition.
// Bytes processed are the input definition's compact size.
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "model/zarf_package.h"
#include "json/go_json.h"
#include "json/json_reader.h"
#include "testing/synthetic_package.h"

namespace zs::bench {
namespace {

// Removes members whose value is {} or "" (after their own cleaning).
void StripEmpty(json::Value* v) {
  if (v->is_array()) {
    for (json::Value& item : v->array()) StripEmpty(&item);
  } else if (v->is_object()) {
    json::Object kept;
    for (json::Member& m : v->object()) {
      StripEmpty(&m.second);
      const bool empty = (m.second.is_object() && m.second.object().empty()) ||
                         (m.second.is_string() && m.second.as_string().empty());
      if (!empty) kept.push_back(std::move(m));
    }
    v->object() = std::move(kept);
  }
}

json::Value MakeDefinition(bool as_written) {
  auto doc = json::ParseJson(MakeSamplePackageJson(kSampleBytes, kSampleSeed));
  json::Value data = *doc->Find("data");
  if (as_written) StripEmpty(&data);
  return data;
}

const json::Value& Definition(bool as_written) {
  static const json::Value kForms[2] = {MakeDefinition(false), MakeDefinition(true)};
  return kForms[as_written ? 1 : 0];
}

void BM_MarshalZarfPackage(benchmark::State& state) {
  const json::Value& definition = Definition(state.range(0) != 0);
  const std::size_t bytes = json::WriteJson(definition)->size();
  std::size_t out_bytes = 0;
  for (auto _ : state) {
    auto out = MarshalZarfPackage(definition, nullptr);
    if (!out.ok()) {
      state.SkipWithError(out.status().ToString().c_str());
      return;
    }
    out_bytes = out->size();
    benchmark::DoNotOptimize(out);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes));
  state.counters["in_bytes"] = static_cast<double>(bytes);
  state.counters["out_bytes"] = static_cast<double>(out_bytes);
}
BENCHMARK(BM_MarshalZarfPackage)
    ->Arg(0)
    ->Arg(1)
    ->ArgName("as_written")
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace zs::bench

BENCHMARK_MAIN();
