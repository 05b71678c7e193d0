// The local cache (engine/cache.h): ingest throughput of realistic ~15 KB
// Secrets (JSON text in, parsed as `ingest` parses it), point-query latency
// (image -> packages, latest status, and a raw RocksDB get for scale, with
// p50/p99 counters) and the full-history scan, over a cache of
// $ZS_CACHE_BENCH_PACKAGES packages (default 100000) x 10 events each in
// $ZS_CACHE_BENCH_DB (default /tmp/zs_cache_bench). The cache is generated
// by BM_Generate when missing (a bench step, not a test);
// bench/run_cache_bench.sh runs it all and the jq comparison.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <random>

#include "kube/secret.h"
#include "engine/cache.h"
#include "engine/internal/cache_db.h"
#include "json/go_json.h"
#include "tests/cache_fixture.h"
#include "testing/seeded_rng.h"

namespace zs::engine {
namespace {

using Clock = std::chrono::steady_clock;

std::string Env(const char* name, const char* fallback) {
  const char* v = std::getenv(name);
  return v && *v ? v : fallback;
}
int Packages() { return std::stoi(Env("ZS_CACHE_BENCH_PACKAGES", "100000")); }
std::string DbDir() { return Env("ZS_CACHE_BENCH_DB", "/tmp/zs_cache_bench"); }

// Package i: 8 components, 48 images (some shared across packages), 10
// events kept of its 6 deploys; with FillDefinition below, an 11 KB payload,
// a 15 KB Secret.
testing::PackageSpec Spec(int i) {
  testing::PackageSpec s;
  s.name = "pkg-" + std::to_string(i);
  s.components = {"init", "registry", "agent", "web", "api", "db", "jobs", "monitoring"};
  s.images.clear();
  for (int k = 0; k < 48; ++k) {
    s.images.push_back("registry.example.com/team-" + std::to_string((i + k) % 997) + "/service-" +
                       std::to_string(k) + ":v1." + std::to_string(i % 50) + "." + std::to_string(k));
  }
  s.source = "oci://registry.example.com/packages/" + s.name + ":1.0.0";
  return s;
}

}  // namespace

namespace {

json::Value Json(const std::string& text) { return std::move(json::ParseJson(text)).value(); }

// Fills out package i's definition (Snapshot's has only names and images)
// the way a real one is, after the legacy fixture pkg-realistic-init-*: a
// description, charts and deploy actions per component, then the build,
// constants and variables. Many small members, not one padding string, so
// that parsing costs what it costs on a real Secret.
void FillDefinition(int i, json::Value* data) {
  const std::string n = std::to_string(i);
  json::Value* comps = data->Find("components");
  for (std::size_t k = 0; k < comps->array().size(); ++k) {
    json::Object& c = comps->array()[k].object();
    const std::string name = c.front().second.as_string();
    const std::string ns = "team-" + std::to_string((i + k) % 24);
    c.emplace(c.begin() + 1, "description", json::Value::String("Deploys <" + name + ">.\n"));
    c.emplace(c.begin() + 2, "required", json::Value::Bool(k % 3 != 2));
    c.emplace(c.begin() + 3, "only", Json(R"({"cluster":{}})"));
    c.emplace(c.begin() + 4, "charts", Json(R"([{"name":")" + name + R"(","version":"1.)" + std::to_string(k) +
                                  R"(.0","namespace":")" + ns + R"(","valuesFiles":["values/)" + name +
                                  R"(.yaml"]}])"));
    std::string on_deploy = R"({"defaults":{"shell":{}})";
    if (k % 2 == 0) {
      on_deploy += R"(,"after":[{"maxTotalSeconds":300,"cmd":"./zarf tools wait-for deployment )" +
                   name + " available -n " + ns + R"("}])";
    }
    c.emplace_back("actions", Json(R"({"onCreate":{"defaults":{"shell":{}}},"onDeploy":)" +
                                   on_deploy + R"(},"onRemove":{"defaults":{"shell":{}}}})"));
  }
  data->object().emplace_back(
      "build", Json(R"({"terminal":"build-host-)" + std::to_string(i % 7) +
                    R"(","user":"ci","architecture":"amd64","timestamp":"Fri, 21 Aug 2026 )"
                    R"(21:25:09 +0000","version":"v0.60.0","migrations":["scripts-to-actions"]})"));
  std::string constants = "[";
  for (int v = 0; v < 4; ++v) {
    constants += std::string(v ? "," : "") + R"({"name":"IMAGE_TAG_)" + std::to_string(v) +
                 R"(","value":"1.)" + std::to_string((i + v) % 30) + R"(.0"})";
  }
  data->object().emplace_back("constants", Json(constants + "]"));
  std::string variables = "[";
  for (int v = 0; v < 6; ++v) {
    variables += std::string(v ? "," : "") + R"({"name":"SETTING_)" + std::to_string(v) +
                 R"(","description":"Setting )" + std::to_string(v) +
                 R"x( of the package (\u003cdefault\u003e if unset)","default":")x" +
                 std::to_string(1 + (i + v) % 64) + R"(Gi","prompt":)" + (v % 4 ? "false" : "true") +
                 "}";
  }
  data->object().emplace_back("variables", Json(variables + "]"));
}

}  // namespace

std::string PayloadOf(int i) {
  DeployedPackage p = testing::Snapshot(Spec(i), 6);
  FillDefinition(i, &p.data);
  return EncodeDeployedPackage(p);
}

namespace {

std::unique_ptr<Cache> Open(bool read_only) {
  CacheOptions o;
  o.read_only = read_only;
  o.block_cache_mib = 256;
  auto c = OpenCache(DbDir(), o);
  if (!c.ok()) {
    std::fprintf(stderr, "open %s: %s\n", DbDir().c_str(), std::string(c.status().message()).c_str());
    std::exit(1);
  }
  return std::move(c).value();
}

void BM_Generate(benchmark::State& state) {
  for (auto _ : state) {
    if (std::filesystem::exists(DbDir() + "/CURRENT")) {
      state.SkipWithError("cache exists; delete it to regenerate");
      return;
    }
    auto cache = Open(false);
    for (int i = 0; i < Packages(); ++i) {
      const std::string payload = PayloadOf(i);
      if (!cache->Ingest({payload, "zarf-package-x", "zarf"}).ok()) std::abort();
    }
    if (!cache->Sync().ok()) std::abort();
    // As `ingest` does at its end: otherwise every later open replays the
    // whole write-ahead log (about 600 MB, 2-3.5 s per process).
    if (!cache->Flush().ok()) std::abort();
  }
  state.SetItemsProcessed(state.iterations() * Packages());
}
BENCHMARK(BM_Generate)->Iterations(1)->Unit(benchmark::kSecond);

// What `ingest` does per Secret: parse the Secret JSON (base64 data), then
// ingest it, state.range(1) Secrets per RocksDB write (IngestGroup; 32 as
// `ingest` does, 1 as Ingest). Into a fresh cache each run; state.range(0)
// selects the durability: WAL without fsync (0), WAL fsync per 256 Secrets
// (1, as `ingest`), or no WAL and one flush at the end (2, as `ingest
// --bulk` for a dump of up to 4096 Secrets; the flush is timed). The
// process is set up as the `ingest` command's (main below). CPU time is
// this thread's: RocksDB's flush runs on its own thread, counted in the
// wall time (Time) when the benchmark is pinned to one core.
void BM_IngestSecrets(benchmark::State& state) {
  constexpr int kSecrets = 2000;
  std::vector<std::string> secrets;
  std::size_t bytes = 0;
  for (int i = 0; i < kSecrets; ++i) {
    secrets.push_back(testing::SecretJson("pkg-" + std::to_string(i), PayloadOf(i)));
    bytes += secrets.back().size();
  }
  const std::string dir = DbDir() + "-ingest";
  CacheOptions options;
  options.write_ahead_log = state.range(0) != 2;
  std::unique_ptr<Cache> cache;
  for (auto _ : state) {
    state.PauseTiming();
    cache.reset();  // closing is not timed (it flushes what a run without the WAL has not)
    std::filesystem::remove_all(dir);
    cache = std::move(OpenCache(dir, options)).value();
    state.ResumeTiming();
    const int group = static_cast<int>(state.range(1));
    std::vector<Result<Input>> inputs;
    std::vector<IngestSource> sources;  // views into `inputs`
    inputs.reserve(group);
    for (int i = 0; i < kSecrets; ++i) {
      inputs.push_back(ReadInput(secrets[i], "bench"));
      const InputObject& obj = inputs.back()->objects[0];
      sources.push_back({obj.payload, ObjectName(obj.object), ObjectNamespace(obj.object),
                         obj.payload.capacity() - obj.payload.size()});
      if (static_cast<int>(sources.size()) == group || i == kSecrets - 1) {
        for (const auto& r : cache->IngestGroup(sources)) {
          if (!r.ok()) std::abort();
        }
        sources.clear();
        inputs.clear();
      }
      if (state.range(0) == 1 && i % 256 == 255 && !cache->Sync().ok()) std::abort();
    }
    if (state.range(0) != 0 && !cache->Sync().ok()) std::abort();
  }
  cache.reset();
  std::filesystem::remove_all(dir);
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(bytes));
  state.SetItemsProcessed(state.iterations() * kSecrets);
  state.counters["secret_bytes"] = static_cast<double>(bytes) / kSecrets;
}
BENCHMARK(BM_IngestSecrets)
    ->Args({1, 32})
    ->Args({0, 32})
    ->Args({2, 32})
    ->Args({1, 1})
    ->Args({0, 1})
    ->Unit(benchmark::kMillisecond);

// Runs `query(prepare(i))` for random packages and reports p50/p99 of the
// query alone in microseconds (building its argument, such as the 48 image
// names of Spec(i), is not part of the latency).
template <typename Prepare, typename Query>
void Latencies(benchmark::State& state, Prepare prepare, Query query) {
  tools::SeededRng rng(42);
  std::uniform_int_distribution<int> pick(0, Packages() - 1);
  std::vector<double> us;
  us.reserve(state.max_iterations);
  for (auto _ : state) {
    const auto input = prepare(pick(rng));
    const auto t0 = Clock::now();
    query(input);
    us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
  }
  std::sort(us.begin(), us.end());
  state.counters["p50_us"] = us[us.size() / 2];
  state.counters["p99_us"] = us[us.size() * 99 / 100];
}

void BM_QueryImage(benchmark::State& state) {
  auto cache = Open(true);
  Latencies(state, [](int i) { return Spec(i).images[i % 48]; }, [&](const std::string& image) {
    auto r = cache->FindImage(image, false);
    if (!r.ok() || r->empty()) std::abort();
    benchmark::DoNotOptimize(r);
  });
}
BENCHMARK(BM_QueryImage)->Iterations(200000);

void BM_QueryStatus(benchmark::State& state) {
  auto cache = Open(true);
  Latencies(state, [](int i) { return "pkg-" + std::to_string(i); }, [&](const std::string& key) {
    auto r = cache->StatusOf(key);
    if (!r.ok()) std::abort();
    benchmark::DoNotOptimize(r);
  });
}
BENCHMARK(BM_QueryStatus)->Iterations(200000);

// A raw RocksDB point get of the same status record, for scale.
void BM_RawGet(benchmark::State& state) {
  CacheOptions o;
  o.read_only = true;
  o.block_cache_mib = 256;
  auto db = std::move(internal::CacheDb::Open(DbDir(), o)).value();
  std::string value;
  Latencies(state, [](int i) { return "pkg-" + std::to_string(i); }, [&](const std::string& key) {
    if (!*db->Get(internal::kCfPackages, key, &value)) std::abort();
  });
}
BENCHMARK(BM_RawGet)->Iterations(200000);

// Every package's full history, decoded into Records, in one pass
// (Cache::ScanHistory).
void BM_ScanHistory(benchmark::State& state) {
  auto cache = Open(true);
  std::int64_t events = 0;
  for (auto _ : state) {
    const Status s = cache->ScanHistory([&](std::string_view, HistoryEntry& e) {
      benchmark::DoNotOptimize(e.record.kind);
      ++events;
      return true;
    });
    if (!s.ok()) std::abort();
  }
  state.SetItemsProcessed(events);
}
BENCHMARK(BM_ScanHistory)->Iterations(1)->Unit(benchmark::kSecond);

// The same through EventLog: list the packages, then Read each log.
void BM_ScanHistoryPerPackage(benchmark::State& state) {
  auto cache = Open(true);
  std::int64_t events = 0;
  for (auto _ : state) {
    auto packages = cache->log().Packages();
    for (const std::string& p : *packages) {
      auto records = cache->log().Read(p);
      events += static_cast<std::int64_t>(records->size());
    }
  }
  state.SetItemsProcessed(events);
}
BENCHMARK(BM_ScanHistoryPerPackage)->Iterations(1)->Unit(benchmark::kSecond);

}  // namespace

// Visible to main().
std::string PayloadOf(int i);
}  // namespace zs::engine

// `--dump-secrets=N`: prints the first N packages' Secrets, one JSON object
// per line (the jq side of run_cache_bench.sh); otherwise runs the benches.
int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg.starts_with("--dump-secrets=")) {
      const int n = std::stoi(std::string(arg.substr(15)));
      for (int k = 0; k < n; ++k) {
        zs::json::Value secret =
            zs::MakePackageSecret("pkg-" + std::to_string(k), "", zs::engine::PayloadOf(k));
        auto line = zs::json::WriteJson(secret);
        std::fwrite(line->data(), 1, line->size(), stdout);
        std::fputc('\n', stdout);
      }
      return 0;
    }
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
