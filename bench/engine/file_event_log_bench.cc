// The record log (engine/file_event_log.h) under a long life: one package of
// 120 components with a ~40 KB definition, redeployed unchanged again and
// again. Each redeploy is 242 records (Deploy/InProgress with the facts,
// InProgress and Succeeded per component, Deploy/Succeeded).
//
// The logs hold D redeploys: D = 1, 5, 42, 414 are 242 records (the small
// baseline: one redeploy of this package writes 242 records, so no log a
// `record` of it runs on is smaller), about 1k, 10k and 100k records.
//
//   BM_Record/D  one `record deploy` as PackageSession does it (open the
//                package from the log's tail, deploy every component, append
//                one chunk) on a log that holds D redeploys, twice per
//                iteration (a checkpoint cycle); the log is cut back after
//                each iteration. Counters: records in the log, log bytes,
//                growth of the log per redeploy, the definition's
//                JSON size, and the peak RSS of one such record run in a
//                process of its own (this binary, re-run with --record-once;
//                its VmHWM).
//   BM_Replay/D  the full history read and folded (what `replay` does
//                before printing).
//
// The logs are built in the temp directory by recording, in a process of
// their own (this binary, re-run with --build-log), so building the
// 100k-record one takes a while. `record` should stay flat from 1k to 100k
// records: opening a package reads its chunks back to its last checkpoint
// only.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "engine/file_event_log.h"
#include "engine/fold.h"
#include "engine/lifecycle.h"
#include "json/go_json.h"
#include "tests/subprocess_runner.h"
#include "testing/synthetic_package.h"

namespace zs::bench {
namespace {

namespace fs = std::filesystem;
constexpr int kComponents = 120;
constexpr int kRecordsPerDeploy = 2 + 2 * kComponents;
std::string g_self;  // this binary, for the RSS probe

// A definition of ~40 KB: 120 components, each with a chart and two images
// pinned by digest (digests keep it from compressing away).
json::Value Definition() {
  return MakeDefinition({.components = kComponents,
                         .required = true,
                         .charts_per_component = 1,
                         .images_per_component = 2,
                         .pin_digests = true,
                         .seed = 42});
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

// Runs this binary again with `args`; whether it ran and exited 0.
bool RunSelf(std::vector<std::string> args) {
  testing::ChildSpec spec;
  spec.argv = {g_self};
  spec.argv.insert(spec.argv.end(), args.begin(), args.end());
  const pid_t pid = testing::SpawnChild(spec);
  return pid >= 0 && testing::WaitChild(pid).exit_code == 0;
}

// A log of `deploys` redeploys, built once per run in a process of its own
// (as `record` runs are), so that building it leaves this one's heap as it
// was.
std::string LogOf(int deploys) {
  const std::string path = (fs::temp_directory_path() / ("zs-log-bench-" + std::to_string(getpid()) +
                                                          "-" + std::to_string(deploys)))
                               .string();
  if (!fs::exists(path) && !RunSelf({"--build-log", path, std::to_string(deploys)})) std::abort();
  return path;
}

// Peak RSS, in KiB, of one record run in a fresh process: the child's own
// VmHWM, since the ru_maxrss of a spawned child starts from the parent's.
long PeakRssOfOneRecord(const std::string& path) {
  const std::string copy = path + ".rss";
  fs::copy_file(path, copy, fs::copy_options::overwrite_existing);
  const bool ran = RunSelf({"--record-once", copy, copy + ".kib"});
  long kib = -1;
  if (std::FILE* f = std::fopen((copy + ".kib").c_str(), "r")) {
    if (!ran || std::fscanf(f, "%ld", &kib) != 1) kib = -1;
    std::fclose(f);
  }
  fs::remove(copy);
  fs::remove(copy + ".kib");
  return kib;
}

// Writes this process's peak RSS (VmHWM, KiB) to `out`.
void WritePeakRss(const char* out) {
  std::FILE* in = std::fopen("/proc/self/status", "r");
  if (in == nullptr) return;
  char line[256];
  long kib = -1;
  while (std::fgets(line, sizeof line, in) != nullptr) {
    if (std::sscanf(line, "VmHWM: %ld kB", &kib) == 1) break;
  }
  std::fclose(in);
  if (std::FILE* f = std::fopen(out, "w")) {
    std::fprintf(f, "%ld\n", kib);
    std::fclose(f);
  }
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
BENCHMARK(BM_Replay)->Arg(1)->Arg(5)->Arg(42)->Arg(414)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace zs::bench

int main(int argc, char** argv) {
  zs::bench::g_self = argv[0];
  if ((argc == 3 || argc == 4) && std::string(argv[1]) == "--record-once") {
    zs::bench::RecordDeploy(argv[2]);
    if (argc == 4) zs::bench::WritePeakRss(argv[3]);
    return 0;
  }
  if (argc == 4 && std::string(argv[1]) == "--build-log") {
    for (int d = std::atoi(argv[3]); d > 0; --d) zs::bench::RecordDeploy(argv[2]);
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
