// Throughput and size of the compact codec (compact/compact.h).
//
// Inputs: the synthetic ~1 MiB package (testing/synthetic_package.h,
// fixed seed) and, when ZS_TEST_DATA is set, the realistic ~13 KB init
// package fixture and the whole package fixture corpus (every
// legacy/*/pkg-*.payload.json, each encoded and decoded once per iteration). Every benchmark reports the package's JSON size
// (EncodeDeployedPackage) as bytes processed, so rates are "JSON-equivalent
// MiB per second" and compare directly with zs_json_bench. The argument is
// the zstd level (the dictionary is always on, as in the product default);
// the counter envelope_bytes is the encoded size at that level.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <filesystem>
#include <vector>
#include <string>
#include <string_view>

#include "bench/bench_main.h"
#include "testing/synthetic_package.h"
#include "compact/compact.h"
#include "model/model_json.h"

namespace zs::bench {
namespace {

constexpr std::string_view kFixturePath =
    "legacy/e22-v0.80.0-v0.84.0/pkg-realistic-init-failed.payload.json";

// A decoded package and its JSON size, or why there is none.
struct Input {
  DeployedPackage pkg;
  std::int64_t json_bytes = 0;
  std::string error;  // non-empty: skip the benchmark with this message
};

Input FromJson(const std::string& text) {
  auto pkg = ParseDeployedPackage(text);
  if (!pkg.ok()) return Input{{}, 0, pkg.status().ToString()};
  const auto bytes =
      static_cast<std::int64_t>(EncodeDeployedPackage(*pkg).size());
  return Input{std::move(*pkg), bytes, ""};
}

const Input& Sample() {
  static const Input input =
      FromJson(MakeSamplePackageJson(kSampleBytes, kSampleSeed));
  return input;
}

const Input& RealisticFixture() {
  static const Input input = [] {
    std::string error;
    const std::string text = ReadTestData(kFixturePath, &error);
    return error.empty() ? FromJson(text) : Input{{}, 0, error};
  }();
  return input;
}

// Every package fixture of the corpus, or why there is none.
struct Corpus {
  std::vector<Input> packages;
  std::int64_t json_bytes = 0;
  std::string error;
};

const Corpus& FixtureCorpus() {
  static const Corpus corpus = [] {
    Corpus c;
    const char* dir = std::getenv("ZS_TEST_DATA");
    if (dir == nullptr || *dir == '\0') {
      c.error = "ZS_TEST_DATA is not set";
      return c;
    }
    std::vector<std::string> paths;
    std::error_code ec;
    for (const auto& e : std::filesystem::recursive_directory_iterator(
             std::filesystem::path(dir) / "legacy", ec)) {
      const std::string name = e.path().filename().string();
      if (name.starts_with("pkg-") && name.ends_with(".payload.json"))
        paths.push_back(e.path().lexically_relative(dir).string());
    }
    std::sort(paths.begin(), paths.end());
    for (const std::string& path : paths) {
      Input input = FromJson(ReadTestData(path, &c.error));
      if (!c.error.empty() || !input.error.empty()) {
        c.error = path + ": " + c.error + input.error;
        return c;
      }
      c.json_bytes += input.json_bytes;
      c.packages.push_back(std::move(input));
    }
    if (c.packages.empty()) c.error = "no package fixtures under " + std::string(dir);
    return c;
  }();
  return corpus;
}

using InputFn = const Input& (*)();

compact::EncodeOptions Options(const benchmark::State& state) {
  return compact::EncodeOptions{.level = static_cast<int>(state.range(0)),
                                .use_dictionary = true};
}

// Encodes once; returns false after skipping `state`.
bool Prepare(benchmark::State& state, const Input& input,
             std::string* envelope) {
  if (!input.error.empty()) {
    state.SkipWithError(input.error.c_str());
    return false;
  }
  auto bytes = compact::Encode(input.pkg, Options(state));
  if (!bytes.ok()) {
    state.SkipWithError(bytes.status().ToString().c_str());
    return false;
  }
  *envelope = std::move(*bytes);
  state.counters["envelope_bytes"] = static_cast<double>(envelope->size());
  return true;
}

void BM_CompactEncode(benchmark::State& state, InputFn input_fn) {
  const Input& input = input_fn();
  std::string envelope;
  if (!Prepare(state, input, &envelope)) return;
  for (auto _ : state) {
    auto bytes = compact::Encode(input.pkg, Options(state));
    benchmark::DoNotOptimize(bytes);
  }
  state.SetBytesProcessed(state.iterations() * input.json_bytes);
}

void BM_CompactDecode(benchmark::State& state, InputFn input_fn) {
  const Input& input = input_fn();
  std::string envelope;
  if (!Prepare(state, input, &envelope)) return;
  for (auto _ : state) {
    auto pkg = compact::Decode(envelope);
    if (!pkg.ok()) {
      state.SkipWithError(pkg.status().ToString().c_str());
      break;
    }
    benchmark::DoNotOptimize(pkg);
  }
  state.SetBytesProcessed(state.iterations() * input.json_bytes);
}

void BM_CompactRoundTrip(benchmark::State& state, InputFn input_fn) {
  const Input& input = input_fn();
  std::string envelope;
  if (!Prepare(state, input, &envelope)) return;
  for (auto _ : state) {
    auto bytes = compact::Encode(input.pkg, Options(state));
    auto pkg = compact::Decode(*bytes);
    if (!pkg.ok()) {
      state.SkipWithError(pkg.status().ToString().c_str());
      break;
    }
    benchmark::DoNotOptimize(pkg);
  }
  state.SetBytesProcessed(state.iterations() * input.json_bytes);
}

// Encode and decode of every fixture of the corpus, the rate over the sum of
// their JSON sizes.
void BM_CompactCorpusRoundTrip(benchmark::State& state) {
  const Corpus& corpus = FixtureCorpus();
  if (!corpus.error.empty()) {
    state.SkipWithError(corpus.error.c_str());
    return;
  }
  std::int64_t envelope_bytes = 0;
  for (auto _ : state) {
    envelope_bytes = 0;
    for (const Input& input : corpus.packages) {
      auto bytes = compact::Encode(input.pkg, Options(state));
      if (!bytes.ok()) {
        state.SkipWithError(bytes.status().ToString().c_str());
        return;
      }
      envelope_bytes += static_cast<std::int64_t>(bytes->size());
      auto pkg = compact::Decode(*bytes);
      if (!pkg.ok()) {
        state.SkipWithError(pkg.status().ToString().c_str());
        return;
      }
      benchmark::DoNotOptimize(pkg);
    }
  }
  state.counters["packages"] = static_cast<double>(corpus.packages.size());
  state.counters["envelope_bytes"] = static_cast<double>(envelope_bytes);
  state.SetBytesProcessed(state.iterations() * corpus.json_bytes);
}

// Level 19 is the default (size); 3 and 1 are the fast candidates.
#define ZS_COMPACT_BENCH(fn, name, input) \
  BENCHMARK_CAPTURE(fn, name, input)      \
      ->Arg(19)                           \
      ->Arg(9)                            \
      ->Arg(3)                            \
      ->Arg(1)                            \
      ->Unit(benchmark::kMillisecond)

ZS_COMPACT_BENCH(BM_CompactEncode, sample_1mib, &Sample);
ZS_COMPACT_BENCH(BM_CompactDecode, sample_1mib, &Sample);
ZS_COMPACT_BENCH(BM_CompactRoundTrip, sample_1mib, &Sample);
ZS_COMPACT_BENCH(BM_CompactEncode, realistic_init, &RealisticFixture);
ZS_COMPACT_BENCH(BM_CompactDecode, realistic_init, &RealisticFixture);
ZS_COMPACT_BENCH(BM_CompactRoundTrip, realistic_init, &RealisticFixture);
BENCHMARK(BM_CompactCorpusRoundTrip)
    ->Arg(19)
    ->Arg(3)
    ->Arg(1)
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace zs::bench

int main(int argc, char** argv) {
  return zs::bench::RunBenchmarksOnBuiltInputs(argc, argv, "sample", [] {
    return std::to_string(zs::bench::Sample().json_bytes) + " JSON bytes, seed " +
           std::to_string(zs::bench::kSampleSeed);
  });
}
