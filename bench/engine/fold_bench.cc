// Throughput of the fold (engine/fold.h) and of record identity
// (engine/record.h) on a synthetic but realistic package history.
//
// The history is what Zarf leaves behind for one package over a long life:
// deploy cycles (Deploy/InProgress carrying the DeployFacts, 3-5 components
// each going InProgress then Succeeded with 1-2 charts, Deploy/Succeeded),
// an occasional failed component that fails the deploy, and occasional remove
// cycles. About one record in ten starts a deploy and carries the package
// definition. Times are strictly increasing. The generator draws from
// testing/seeded_rng.h with a fixed seed, so every platform folds the same
// records.
//
//   BM_Fold1MEvents     Fold() of 1,000,000 records, the Secret's cap of 10
//   BM_FoldIncremental  Folder::Apply of the same records one at a time
//   BM_Replay10kEvents  `zarf-state replay`: Apply + encode after each record
//   BM_EncodeRecord     canonical bytes of a typical component record
//   BM_RecordId         XXH3-128 identity of the same record
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>
#include <iterator>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bench/bench_main.h"
#include "model/model.h"
#include "model/model_json.h"
#include "model/timestamp.h"
#include "engine/fold.h"
#include "engine/record.h"
#include "json/json_reader.h"
#include "json/json_value.h"
#include "testing/seeded_rng.h"

namespace zs::bench {
namespace {

using engine::DeployFacts;
using engine::FoldOptions;
using engine::Record;
using engine::RecordKind;

constexpr unsigned kHistorySeed = 20260901;
constexpr std::size_t kLongHistory = 1'000'000;
constexpr std::size_t kReplayHistory = 10'000;
// The Secret's cap on `events` (docs/model.md rule 2).
constexpr std::size_t kSecretMaxEvents = 10;
constexpr std::int64_t kStartNanos =
    1767225600LL * 1'000'000'000LL;  // 2026-01-01

constexpr std::string_view kPackageName = "podinfo-platform";

// A small ZarfPackage definition, about 1 KiB once written.
constexpr std::string_view kPackageDefinition = R"({
  "kind": "ZarfPackageConfig",
  "metadata": {"name": "podinfo-platform", "version": "0.9.2",
               "description": "podinfo with its ingress and monitoring",
               "architecture": "amd64"},
  "build": {"terminal": "ci-runner-7", "user": "ci", "architecture": "amd64",
            "timestamp": "Thu, 01 Jan 2026 00:00:00 +0000",
            "version": "v0.84.0", "flavor": "upstream"},
  "components": [
    {"name": "namespaces", "required": true,
     "manifests": [{"name": "ns", "files": ["ns.yaml"]}]},
    {"name": "podinfo", "required": true,
     "charts": [{"name": "podinfo", "version": "6.7.1", "namespace": "podinfo",
                 "url": "oci://ghcr.io/stefanprodan/charts/podinfo"}],
     "images": ["ghcr.io/stefanprodan/podinfo:6.7.1"]},
    {"name": "ingress", "charts": [{"name": "ingress-nginx", "version": "4.11.3",
                                    "namespace": "ingress"}]},
    {"name": "monitoring", "charts": [
       {"name": "kube-prometheus-stack", "version": "65.1.0", "namespace": "monitoring"},
       {"name": "grafana", "version": "8.5.2", "namespace": "monitoring"}]},
    {"name": "backup", "charts": [{"name": "velero", "version": "7.2.1",
                                   "namespace": "velero"}]}
  ],
  "variables": [{"name": "DOMAIN", "default": "example.com", "prompt": true}]
})";

constexpr std::string_view kDeployConfig =
    R"({"SetVariables":{"DOMAIN":"cluster.internal"},"Values":null,)"
    R"("NamespaceOverride":"","ValuesOverridesMap":null})";

constexpr std::string_view kComponents[] = {"namespaces", "podinfo", "ingress",
                                            "monitoring", "backup"};

using Rng = tools::SeededRng;

// The charts component `index` installs: one, or two for every other one.
std::vector<InstalledChart> ChartsOf(std::size_t index) {
  std::vector<InstalledChart> charts;
  const std::string name(kComponents[index]);
  for (std::size_t i = 0; i < 1 + index % 2; ++i) {
    InstalledChart chart;
    chart.namespace_ = name;
    chart.chart_name = name + "-chart-" + std::to_string(i);
    if (i == 0) {
      chart.connect_strings[name + "-ui"] =
          ConnectString{"The " + name + " web UI", "/" + name, {}};
    }
    chart.status = std::string(kStatusSucceeded);
    charts.push_back(std::move(chart));
  }
  return charts;
}

// Appends the records of deploys and removes until `count` records exist.
class HistoryBuilder {
 public:
  explicit HistoryBuilder(unsigned seed) : rng_(seed) {
    facts_.name = std::string(kPackageName);
    facts_.digest = "sha256:" + rng_.Hex(64);
    facts_.data = std::move(json::ParseJson(kPackageDefinition)).value();
    facts_.cli_version = "v0.84.0";
    facts_.package_connectivity = "airgap";
    facts_.deploy_config = std::move(json::ParseJson(kDeployConfig)).value();
    for (int i = 0; i < 4; ++i)
      config_digests_.push_back("sha256:" + rng_.Hex(64));
    for (std::size_t i = 0; i < std::size(kComponents); ++i)
      charts_.push_back(ChartsOf(i));
  }

  std::vector<Record> Build(std::size_t count) {
    std::vector<Record> records;
    records.reserve(count + 32);
    while (records.size() < count) {
      if (!deployed_.empty() && rng_.Below(20) == 0) {
        Remove(&records);
      } else {
        Deploy(&records);
      }
    }
    // A log may end mid-operation; the fold takes any prefix.
    records.resize(count);
    return records;
  }

 private:
  Timestamp Next() {
    // 1 ms to 1 s apart: strictly increasing.
    now_ += 1'000'000 + static_cast<std::int64_t>(rng_.Below(999'000'000));
    return Timestamp::FromUnixNanos(now_);
  }

  Record PackageRecord(std::string_view type, std::string_view outcome) {
    Record r;
    r.kind = RecordKind::kPackageEvent;
    r.event.type = std::string(type);
    r.event.outcome = std::string(outcome);
    r.event.timestamp = Next();
    r.event.version = "0.9.2";
    r.event.flavor = "upstream";
    r.event.digest = facts_.digest;
    if (type == kEventDeploy)
      r.event.source = "oci://ghcr.io/acme/packages/podinfo-platform:0.9.2";
    r.event.config_digest = config_digest_;
    return r;
  }

  Record ComponentRecord(std::size_t component, std::string_view type,
                         std::string_view outcome) {
    Record r;
    r.kind = RecordKind::kComponentEvent;
    r.component = std::string(kComponents[component]);
    r.component_event =
        ComponentEvent{std::string(type), std::string(outcome), Next(), {}};
    return r;
  }

  void Deploy(std::vector<Record>* out) {
    config_digest_ = config_digests_[rng_.Below(config_digests_.size())];
    Record begin = PackageRecord(kEventDeploy, kOutcomeInProgress);
    // Each deploy start owns its facts, as records decoded from a log do.
    begin.facts = std::make_shared<const DeployFacts>(facts_);
    out->push_back(std::move(begin));
    const std::size_t count = 3 + rng_.Below(3);
    bool failed = false;
    for (std::size_t c = 0; c < count && !failed; ++c) {
      out->push_back(ComponentRecord(c, kEventDeploy, kOutcomeInProgress));
      // The attempt puts the component in the snapshot, so a remove visits it.
      if (deployed_.size() <= c) deployed_.resize(c + 1, false);
      deployed_[c] = true;
      failed = rng_.Below(25) == 0;
      Record end = ComponentRecord(c, kEventDeploy,
                                   failed ? kOutcomeFailed : kOutcomeSucceeded);
      if (!failed) end.charts = charts_[c];
      out->push_back(std::move(end));
    }
    out->push_back(PackageRecord(kEventDeploy,
                                 failed ? kOutcomeFailed : kOutcomeSucceeded));
  }

  void Remove(std::vector<Record>* out) {
    config_digest_.clear();
    out->push_back(PackageRecord(kEventRemove, kOutcomeInProgress));
    for (std::size_t c = deployed_.size(); c-- > 0;) {
      if (!deployed_[c]) continue;
      out->push_back(ComponentRecord(c, kEventRemove, kOutcomeInProgress));
      out->push_back(ComponentRecord(c, kEventRemove, kOutcomeSucceeded));
    }
    deployed_.clear();
    out->push_back(PackageRecord(kEventRemove, kOutcomeSucceeded));
  }

  Rng rng_;
  std::int64_t now_ = kStartNanos;
  DeployFacts facts_;
  std::vector<std::string> config_digests_;
  std::string config_digest_;
  std::vector<std::vector<InstalledChart>> charts_;
  std::vector<bool> deployed_;  // by component index
};

const std::vector<Record>& LongHistory() {
  static const std::vector<Record> records =
      HistoryBuilder(kHistorySeed).Build(kLongHistory);
  return records;
}

const std::vector<Record>& ReplayHistory() {
  static const std::vector<Record> records =
      HistoryBuilder(kHistorySeed).Build(kReplayHistory);
  return records;
}

// A component's Deploy/Succeeded with its two charts: the most common record
// that carries more than an event.
const Record& TypicalComponentRecord() {
  static const Record record = [] {
    Record r;
    r.kind = RecordKind::kComponentEvent;
    r.component = std::string(kComponents[3]);
    r.component_event =
        ComponentEvent{std::string(kEventDeploy),
                       std::string(kOutcomeSucceeded),
                       Timestamp::FromUnixNanos(kStartNanos + 123'456'789),
                       {}};
    r.charts = ChartsOf(3);
    return r;
  }();
  return record;
}

void BM_Fold1MEvents(benchmark::State& state) {
  const std::vector<Record>& records = LongHistory();
  for (auto _ : state) {
    Result<DeployedPackage> folded =
        engine::Fold(records, FoldOptions{.max_events = kSecretMaxEvents});
    if (!folded.ok()) {
      state.SkipWithError(folded.status().ToString().c_str());
      break;
    }
    benchmark::DoNotOptimize(folded);
  }
  state.SetItemsProcessed(state.iterations() *
                          static_cast<std::int64_t>(records.size()));
}
BENCHMARK(BM_Fold1MEvents)->Unit(benchmark::kMillisecond);

void BM_FoldIncremental(benchmark::State& state) {
  const std::vector<Record>& records = LongHistory();
  for (auto _ : state) {
    engine::Folder folder(FoldOptions{.max_events = kSecretMaxEvents});
    for (const Record& r : records) {
      Status s = folder.Apply(r);
      if (!s.ok()) {
        state.SkipWithError(s.ToString().c_str());
        return;
      }
    }
    benchmark::DoNotOptimize(folder.snapshot());
  }
  state.SetItemsProcessed(state.iterations() *
                          static_cast<std::int64_t>(records.size()));
  // Mean cost of one Apply, in seconds (shown scaled, e.g. "150n").
  state.counters["per_record"] =
      benchmark::Counter(static_cast<double>(records.size()),
                         benchmark::Counter::kIsIterationInvariantRate |
                             benchmark::Counter::kInvert);
}
BENCHMARK(BM_FoldIncremental)->Unit(benchmark::kMillisecond);

void BM_Replay10kEvents(benchmark::State& state) {
  const std::vector<Record>& records = ReplayHistory();
  std::int64_t snapshot_bytes = 0;
  for (auto _ : state) {
    engine::Folder folder(FoldOptions{.max_events = kSecretMaxEvents});
    snapshot_bytes = 0;
    for (const Record& r : records) {
      Status s = folder.Apply(r);
      if (!s.ok()) {
        state.SkipWithError(s.ToString().c_str());
        return;
      }
      std::string printed = EncodeDeployedPackage(folder.snapshot());
      snapshot_bytes += static_cast<std::int64_t>(printed.size());
      benchmark::DoNotOptimize(printed);
    }
  }
  state.SetItemsProcessed(state.iterations() *
                          static_cast<std::int64_t>(records.size()));
  state.SetBytesProcessed(state.iterations() * snapshot_bytes);
}
BENCHMARK(BM_Replay10kEvents)->Unit(benchmark::kMillisecond);

void BM_EncodeRecord(benchmark::State& state) {
  const Record& record = TypicalComponentRecord();
  const std::int64_t size =
      static_cast<std::int64_t>(engine::EncodeRecord(record).size());
  for (auto _ : state) {
    std::string bytes = engine::EncodeRecord(record);
    benchmark::DoNotOptimize(bytes);
  }
  state.SetBytesProcessed(state.iterations() * size);
  state.counters["record_bytes"] = static_cast<double>(size);
}
BENCHMARK(BM_EncodeRecord);

void BM_RecordId(benchmark::State& state) {
  const Record& record = TypicalComponentRecord();
  const std::int64_t size =
      static_cast<std::int64_t>(engine::EncodeRecord(record).size());
  for (auto _ : state) {
    std::string id = engine::RecordId(record);
    benchmark::DoNotOptimize(id);
  }
  state.SetBytesProcessed(state.iterations() * size);
}
BENCHMARK(BM_RecordId);

}  // namespace
}  // namespace zs::bench

int main(int argc, char** argv) {
  return zs::bench::RunBenchmarksOnBuiltInputs(argc, argv, "histories", [] {
    const std::size_t long_history = zs::bench::LongHistory().size();
    const std::size_t replay_history = zs::bench::ReplayHistory().size();
    return std::to_string(long_history) + " and " + std::to_string(replay_history) +
           " records, seed " + std::to_string(zs::bench::kHistorySeed);
  });
}
