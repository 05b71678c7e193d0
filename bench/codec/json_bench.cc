// Throughput of the JSON codec (json/json_reader.h, json/go_json.h) on a
// DeployedPackage of about 1 MiB, the size limit of a Kubernetes Secret.
//
// Two inputs: a synthetic sample (tools/dev/sample_package.h, fixed seed)
// and, when ZS_TEST_DATA is set, the legacy fixture pkg-edge-near-1mib. Every
// benchmark reports the input document's size as bytes processed, so parse,
// write and round-trip rates are all "documents' worth of MiB per second" and
// compare directly with bench/peers/go_json.
//
//   zs_json_bench [benchmark flags]        run the benchmarks
//   zs_json_bench --write-sample=FILE      write the synthetic sample and exit
//
// bench/run_json_vs_go.sh runs both sides and prints the comparison.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <string_view>

#include "base/status.h"
#include "json/go_json.h"
#include "json/json_reader.h"
#include "json/json_value.h"
#include "tools/dev/sample_package.h"

namespace zs::bench {
namespace {

constexpr std::string_view kFixturePath =
    "legacy/e22-v0.80.0-v0.84.0/pkg-edge-near-1mib.payload.json";

// An input document, or why there is none.
struct Input {
  std::string text;
  std::string error;  // non-empty: skip the benchmark with this message
};

const Input& Sample() {
  static const Input input{MakeSamplePackageJson(kSampleBytes, kSampleSeed),
                           ""};
  return input;
}

const Input& NearLimitFixture() {
  static const Input input = [] {
    Input in;
    in.text = ReadTestData(kFixturePath, &in.error);
    return in;
  }();
  return input;
}

using InputFn = const Input& (*)();

// Returns the parsed document, or nullptr after skipping `state`.
const json::Value* ParsedOrSkip(benchmark::State& state, const Input& input,
                                Result<json::Value>* holder) {
  if (!input.error.empty()) {
    state.SkipWithError(input.error.c_str());
    return nullptr;
  }
  *holder = json::ParseJson(input.text);
  if (!holder->ok()) {
    state.SkipWithError(holder->status().ToString().c_str());
    return nullptr;
  }
  return &holder->value();
}

void BM_ParseJson(benchmark::State& state, InputFn input_fn) {
  const Input& input = input_fn();
  if (!input.error.empty()) {
    state.SkipWithError(input.error.c_str());
    return;
  }
  for (auto _ : state) {
    Result<json::Value> parsed = json::ParseJson(input.text);
    if (!parsed.ok()) {
      state.SkipWithError(parsed.status().ToString().c_str());
      break;
    }
    benchmark::DoNotOptimize(parsed);
  }
  state.SetBytesProcessed(state.iterations() *
                          static_cast<std::int64_t>(input.text.size()));
}

void WriteBench(benchmark::State& state, InputFn input_fn,
                const json::WriteOptions& options) {
  const Input& input = input_fn();
  Result<json::Value> holder = Status::InvalidArgument("not parsed");
  const json::Value* value = ParsedOrSkip(state, input, &holder);
  if (value == nullptr) return;
  for (auto _ : state) {
    Result<std::string> written = json::WriteJson(*value, options);
    if (!written.ok()) {
      state.SkipWithError(written.status().ToString().c_str());
      break;
    }
    benchmark::DoNotOptimize(written);
  }
  state.SetBytesProcessed(state.iterations() *
                          static_cast<std::int64_t>(input.text.size()));
}

void BM_WriteJsonRaw(benchmark::State& state, InputFn input_fn) {
  WriteBench(state, input_fn, json::WriteOptions{});
}

void BM_WriteJsonGoAny(benchmark::State& state, InputFn input_fn) {
  WriteBench(state, input_fn, json::kGoAny);
}

void BM_ParseWriteRoundTrip(benchmark::State& state, InputFn input_fn) {
  const Input& input = input_fn();
  if (!input.error.empty()) {
    state.SkipWithError(input.error.c_str());
    return;
  }
  for (auto _ : state) {
    Result<json::Value> parsed = json::ParseJson(input.text);
    if (!parsed.ok()) {
      state.SkipWithError(parsed.status().ToString().c_str());
      break;
    }
    Result<std::string> written = json::WriteJson(parsed.value());
    if (!written.ok()) {
      state.SkipWithError(written.status().ToString().c_str());
      break;
    }
    benchmark::DoNotOptimize(written);
  }
  state.SetBytesProcessed(state.iterations() *
                          static_cast<std::int64_t>(input.text.size()));
}

BENCHMARK_CAPTURE(BM_ParseJson, sample, &Sample);
BENCHMARK_CAPTURE(BM_WriteJsonRaw, sample, &Sample);
BENCHMARK_CAPTURE(BM_WriteJsonGoAny, sample, &Sample);
BENCHMARK_CAPTURE(BM_ParseWriteRoundTrip, sample, &Sample);
BENCHMARK_CAPTURE(BM_ParseJson, near_1mib_fixture, &NearLimitFixture);
BENCHMARK_CAPTURE(BM_WriteJsonRaw, near_1mib_fixture, &NearLimitFixture);
BENCHMARK_CAPTURE(BM_WriteJsonGoAny, near_1mib_fixture, &NearLimitFixture);
BENCHMARK_CAPTURE(BM_ParseWriteRoundTrip, near_1mib_fixture, &NearLimitFixture);

// Handles --write-sample=FILE. Returns -1 if the flag is absent, else the
// process exit code.
int MaybeWriteSample(int argc, char** argv) {
  constexpr std::string_view kFlag = "--write-sample=";
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg.substr(0, kFlag.size()) != kFlag) continue;
    const std::string path(arg.substr(kFlag.size()));
    const std::string& text = Sample().text;
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    out.close();
    if (!out) {
      std::fprintf(stderr, "cannot write the sample to %s\n", path.c_str());
      return 1;
    }
    return 0;
  }
  return -1;
}

}  // namespace
}  // namespace zs::bench

int main(int argc, char** argv) {
#ifndef NDEBUG
  std::fprintf(stderr,
               "WARNING: benchmark built without optimisation; numbers are "
               "meaningless\n");
#endif
  if (int rc = zs::bench::MaybeWriteSample(argc, argv); rc >= 0) return rc;
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  // Build the sample before any timing, so that no benchmark starts on a heap
  // left fragmented by the generator.
  const std::size_t sample_size = zs::bench::Sample().text.size();
  benchmark::AddCustomContext("sample",
                              std::to_string(sample_size) + " bytes, seed " +
                                  std::to_string(zs::bench::kSampleSeed));
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
