// The record log (engine/file_event_log.h) under a long life: one package of
// 120 components with a ~40 KB definition, redeployed unchanged again and
// again. Each redeploy is 242 records (Deploy/InProgress with the facts,
// InProgress and Succeeded per component, Deploy/Succeeded).
//
//   BM_Record/D  one `record deploy` as PackageSession does it (open the
//                package from the log's tail, deploy every component, append
//                one chunk) on a log that holds D redeploys, twice per
//                iteration (a checkpoint cycle); the log is cut back after
//                each iteration. Counters: records in the log, log bytes,
//                growth of the log per redeploy, the definition's
//                JSON size, and the peak RSS of one such record run in a
//                process of its own (this binary, re-run with --record-once).
//   BM_Replay/D  the full history read and folded (what `replay` does
//                before printing).
//
// The logs are built in the temp directory by recording, so building the
// 100k-record one takes a while.
#include <benchmark/benchmark.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "engine/file_event_log.h"
#include "engine/fold.h"
#include "engine/lifecycle.h"
#include "json/go_json.h"
#include "json/json_reader.h"

extern char** environ;

namespace zs::bench {
namespace {

namespace fs = std::filesystem;
constexpr int kComponents = 120;
constexpr int kRecordsPerDeploy = 2 + 2 * kComponents;
std::string g_self;  // this binary, for the RSS probe

// A definition of ~40 KB: 120 components, each with a chart, two images
// pinned by digest and a description (digests keep it from compressing away).
json::Value Definition() {
  std::mt19937 random(42);
  auto hex = [&](int n) {
    std::string s;
    for (int i = 0; i < n; ++i) s.push_back("0123456789abcdef"[random() & 15]);
    return s;
  };
  std::string text = R"({"kind":"ZarfPackageConfig","metadata":{"name":"demo","version":"1.0.0"},"components":[)";
  for (int i = 0; i < kComponents; ++i) {
    const std::string k = std::to_string(i);
    text.append(i > 0 ? "," : "").append(R"({"name":"component-)").append(k);
    text.append(R"(","required":true,"charts":[{"name":"chart-)").append(k);
    text.append(R"(","namespace":"apps","version":"1.0.0"}],"images":["registry.example.com/app-)");
    text.append(k).append("@sha256:").append(hex(64)).append(R"(","registry.example.com/sidecar@sha256:)");
    text.append(hex(64)).append(R"("]})");
  }
  text += "]}";
  return std::move(json::ParseJson(text)).value();
}

const engine::DeployRequest& Request() {
  static const engine::DeployRequest r = [] {
    engine::DeployRequest q;
    q.package = Definition();
    q.package_digest = "sha256:" + std::string(64, 'a');
    q.cli_version = "v0.84.0";
    q.config = json::Value::MakeObject();
    return q;
  }();
  return r;
}

// One `record deploy` of every component, as PackageSession runs it.
void RecordDeploy(const std::string& path) {
  auto log = std::move(engine::FileEventLog::Open(path)).value();
  engine::PackageTail tail = std::move(log->ReadTail("demo")).value();
  auto view = engine::NewMemoryEventLog();
  if (tail.checkpoint) (void)view->Append("demo", *tail.checkpoint);
  for (const engine::Record& r : tail.records) (void)view->Append("demo", r);
  const std::uint64_t persisted = *view->Size("demo");
  engine::Lifecycle lc = std::move(engine::Lifecycle::Open(view.get(), "demo")).value();
  if (!lc.BeginDeploy(Request()).ok()) std::abort();
  InstalledChart chart;
  chart.namespace_ = "apps";
  for (int i = 0; i < kComponents; ++i) {
    const std::string c = "component-" + std::to_string(i);
    chart.chart_name = "chart-" + std::to_string(i);
    (void)lc.ComponentStarted(c);
    (void)lc.ComponentSucceeded(c, {chart});
  }
  (void)lc.FinishDeploy(kOutcomeSucceeded);
  auto added = std::move(view->Read("demo", persisted + 1)).value();
  if (!log->AppendBatch("demo", added).ok()) std::abort();
}

// A log of `deploys` redeploys, built once per run.
std::string LogOf(int deploys) {
  const std::string path = (fs::temp_directory_path() / ("zs-log-bench-" + std::to_string(getpid()) +
                                                          "-" + std::to_string(deploys)))
                               .string();
  if (!fs::exists(path)) {
    for (int d = 0; d < deploys; ++d) RecordDeploy(path);
  }
  return path;
}

// Peak RSS, in KiB, of one record run in a fresh process.
long PeakRssOfOneRecord(const std::string& path) {
  const std::string copy = path + ".rss";
  fs::copy_file(path, copy, fs::copy_options::overwrite_existing);
  std::vector<char*> argv{g_self.data(), const_cast<char*>("--record-once"), const_cast<char*>(copy.c_str()),
                          nullptr};
  pid_t pid = 0;
  if (posix_spawn(&pid, g_self.c_str(), nullptr, nullptr, argv.data(), environ) != 0) return -1;
  int status = 0;
  struct rusage usage {};
  wait4(pid, &status, 0, &usage);
  fs::remove(copy);
  return usage.ru_maxrss;
}

void BM_Record(benchmark::State& state) {
  const std::string path = LogOf(static_cast<int>(state.range(0)));
  const std::uintmax_t base = fs::file_size(path);
  std::uintmax_t growth = 0;
  // Two runs per iteration: a checkpoint is written every other redeploy,
  // so two runs are one whole cycle; the time reported is per run.
  for (auto _ : state) {
    RecordDeploy(path);
    RecordDeploy(path);
    state.PauseTiming();
    growth = (fs::file_size(path) - base) / 2;
    fs::resize_file(path, base);
    state.ResumeTiming();
  }
  std::string def;
  (void)json::AppendJson(&def, Request().package);
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * 2));
  state.counters["ms_per_record_run"] = benchmark::Counter(
      static_cast<double>(state.iterations() * 2), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["records"] = static_cast<double>(state.range(0) * kRecordsPerDeploy);
  state.counters["log_bytes"] = static_cast<double>(base);
  state.counters["growth_bytes"] = static_cast<double>(growth);
  state.counters["definition_bytes"] = static_cast<double>(def.size());
  state.counters["peak_rss_kib"] = static_cast<double>(PeakRssOfOneRecord(path));
}
BENCHMARK(BM_Record)->Arg(1)->Arg(5)->Arg(42)->Arg(414)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_Replay(benchmark::State& state) {
  const std::string path = LogOf(static_cast<int>(state.range(0)));
  engine::FileEventLogOptions o;
  o.read_only = true;
  auto log = std::move(engine::FileEventLog::Open(path, o)).value();
  std::size_t n = 0;
  for (auto _ : state) {
    auto records = std::move(log->Read("demo")).value();
    engine::Folder folder;
    for (const engine::Record& r : records) (void)folder.Apply(r);
    benchmark::DoNotOptimize(folder.snapshot());
    n = records.size();
  }
  state.counters["records"] = static_cast<double>(n);
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
}
BENCHMARK(BM_Replay)->Arg(5)->Arg(42)->Arg(414)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace zs::bench

int main(int argc, char** argv) {
  zs::bench::g_self = argv[0];
  if (argc == 3 && std::string(argv[1]) == "--record-once") {
    zs::bench::RecordDeploy(argv[2]);
    return 0;
  }
#ifndef NDEBUG
  std::fprintf(stderr, "warning: built without optimisation; timings are not representative\n");
#endif
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  for (const auto& e : std::filesystem::directory_iterator(std::filesystem::temp_directory_path())) {
    if (e.path().filename().string().starts_with("zs-log-bench-" + std::to_string(getpid()))) {
      std::filesystem::remove(e.path());
    }
  }
  return 0;
}
