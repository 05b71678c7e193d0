// Throughput of the JSON codec (json/json_reader.h, json/go_json.h) on a
// DeployedPackage of about 1 MiB, the size limit of a Kubernetes Secret.
//
// Two inputs: a synthetic sample (testing/synthetic_package.h, fixed seed)
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
#include "bench/bench_main.h"
#include "json/go_json.h"
#include "json/json_reader.h"
#include "json/json_value.h"
#include "testing/synthetic_package.h"

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

// Runs `step(text)` once per iteration and reports the input's bytes as
// processed; skips `state` when there is no input or a step fails.
template <typename Step>
void TimeOnInput(benchmark::State& state, InputFn input_fn, Step step) {
  const Input& input = input_fn();
  if (!input.error.empty()) {
    state.SkipWithError(input.error.c_str());
    return;
  }
  for (auto _ : state) {
    const Status status = step(input.text);
    if (!status.ok()) {
      state.SkipWithError(status.ToString().c_str());
      break;
    }
  }
  state.SetBytesProcessed(state.iterations() *
                          static_cast<std::int64_t>(input.text.size()));
}

void BM_ParseJson(benchmark::State& state, InputFn input_fn) {
  TimeOnInput(state, input_fn, [](const std::string& text) {
    Result<json::Value> parsed = json::ParseJson(text);
    benchmark::DoNotOptimize(parsed);
    return parsed.ok() ? Status::OK() : parsed.status();
  });
}

void WriteBench(benchmark::State& state, InputFn input_fn,
                const json::WriteOptions& options) {
  Result<json::Value> holder = Status::InvalidArgument("not parsed");
  const json::Value* value = ParsedOrSkip(state, input_fn(), &holder);
  if (value == nullptr) return;
  TimeOnInput(state, input_fn, [&](const std::string&) {
    Result<std::string> written = json::WriteJson(*value, options);
    benchmark::DoNotOptimize(written);
    return written.ok() ? Status::OK() : written.status();
  });
}

void BM_WriteJsonRaw(benchmark::State& state, InputFn input_fn) {
  WriteBench(state, input_fn, json::WriteOptions{});
}

void BM_WriteJsonGoAny(benchmark::State& state, InputFn input_fn) {
  WriteBench(state, input_fn, json::kGoAny);
}

void BM_ParseWriteRoundTrip(benchmark::State& state, InputFn input_fn) {
  TimeOnInput(state, input_fn, [](const std::string& text) {
    Result<json::Value> parsed = json::ParseJson(text);
    if (!parsed.ok()) return parsed.status();
    Result<std::string> written = json::WriteJson(parsed.value());
    benchmark::DoNotOptimize(written);
    return written.ok() ? Status::OK() : written.status();
  });
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
  if (int rc = zs::bench::MaybeWriteSample(argc, argv); rc >= 0) return rc;
  return zs::bench::RunBenchmarksOnBuiltInputs(argc, argv, "sample", [] {
    return std::to_string(zs::bench::Sample().text.size()) + " bytes, seed " +
           std::to_string(zs::bench::kSampleSeed);
  });
}
