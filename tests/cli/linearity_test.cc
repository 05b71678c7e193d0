// Long histories cost work linear in their length, checked by counting work,
// not by timing it: every heap allocation of this process is counted (calls
// and bytes, by a replaced operator new), and a command run over 10n events
// may do at most kMaxRatio times the work it does over n. A copy of the
// history per event (what made `replay --verify` quadratic) multiplies the
// count by 100, not 10. Work that allocates nothing is not seen here.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <unistd.h>

#include <filesystem>
#include <functional>
#include <fstream>
#include <new>
#include <sstream>
#include <string>

#include "cli/inspect_cmd.h"
#include "cli/replay_cmd.h"
#include "cli/status_cmd.h"

namespace {

std::atomic<std::uint64_t> g_calls{0};
std::atomic<std::uint64_t> g_bytes{0};

}  // namespace

// Counted; sized and aligned forms fall back to these.
void* operator new(std::size_t n) {
  g_calls.fetch_add(1, std::memory_order_relaxed);
  g_bytes.fetch_add(n, std::memory_order_relaxed);
  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace zs::tools {
namespace {

namespace fs = std::filesystem;

struct Work {
  std::uint64_t calls = 0;
  std::uint64_t bytes = 0;
};

// A package payload with `n` deploy events, one component.
fs::path WriteHistory(std::size_t n) {
  const fs::path path = fs::path(::testing::TempDir()) /
                        ("linear-" + std::to_string(::getpid()) + "-" + std::to_string(n) + ".json");
  std::ofstream out(path, std::ios::binary);
  out << R"({"name":"long","data":{"kind":"ZarfPackageConfig","metadata":{"name":"long","version":"1.0"}},)"
      << R"("cliVersion":"v0.84.0","generation":1,"deployedComponents":[{"name":"web","installedCharts":[],)"
      << R"("status":"Deployed","observedGeneration":1,"lastEvent":{"type":"Deploy","outcome":"Succeeded",)"
      << R"("timestamp":"2026-01-01T00:00:00Z"}}],"events":[)";
  for (std::size_t i = 0; i < n; ++i) {
    char event[256];
    std::snprintf(event, sizeof event,
                  R"(%s{"type":"Deploy","outcome":"Succeeded","timestamp":"2025-%02zu-%02zuT%02zu:%02zu:%02zuZ","version":"1.0.%zu"})",
                  i == 0 ? "" : ",", 1 + i / 2419200 % 12, 1 + i / 86400 % 28, i / 3600 % 24,
                  i / 60 % 60, i % 60, i);
    out << event;
  }
  out << "]}";
  return path;
}

template <typename Run>
Work Measure(const Run& run) {
  const std::uint64_t calls = g_calls.load();
  const std::uint64_t bytes = g_bytes.load();
  run();
  return {g_calls.load() - calls, g_bytes.load() - bytes};
}

constexpr std::size_t kSmall = 1000;
constexpr double kMaxRatio = 20;  // linear is about 10; quadratic about 100

void ExpectLinear(const char* what, const std::function<void(const fs::path&)>& run) {
  const fs::path small = WriteHistory(kSmall);
  const fs::path large = WriteHistory(10 * kSmall);
  const Work a = Measure([&] { run(small); });
  const Work b = Measure([&] { run(large); });
  ASSERT_GT(a.calls, 0u) << what;
  EXPECT_LT(static_cast<double>(b.calls) / static_cast<double>(a.calls), kMaxRatio)
      << what << ": " << a.calls << " allocations for " << kSmall << " events, " << b.calls
      << " for " << 10 * kSmall;
  EXPECT_LT(static_cast<double>(b.bytes) / static_cast<double>(a.bytes), kMaxRatio)
      << what << ": " << a.bytes << " bytes allocated for " << kSmall << " events, " << b.bytes
      << " for " << 10 * kSmall;
  fs::remove(small);
  fs::remove(large);
}

#if defined(__SANITIZE_ADDRESS__)
#define ZS_SKIP_UNDER_SANITIZER() GTEST_SKIP() << "AddressSanitizer owns operator new"
#else
#define ZS_SKIP_UNDER_SANITIZER() (void)0
#endif

TEST(LinearityTest, ReplayAndVerifyOfALongHistory) {
  ZS_SKIP_UNDER_SANITIZER();
  for (bool verify : {false, true}) {
    ExpectLinear(verify ? "replay --verify" : "replay", [&](const fs::path& file) {
      ReplayOptions o;
      o.secret_path = file.string();
      o.verify = verify;
      o.max_events = 0;
      std::ostringstream out, err;
      FinishCommand(RunReplay(o, out, err), err);
      EXPECT_EQ(err.str(), "");
    });
  }
}

TEST(LinearityTest, StatusAndInspectOfALongHistory) {
  ZS_SKIP_UNDER_SANITIZER();
  ExpectLinear("status", [](const fs::path& file) {
    StatusOptions o;
    o.files = {file.string()};
    std::ostringstream out, err;
    EXPECT_EQ(FinishCommand(RunStatus(o, out, err), err), 0) << err.str();
  });
  ExpectLinear("inspect", [](const fs::path& file) {
    InspectOptions o;
    o.files = {file.string()};
    std::ostringstream out, err;
    EXPECT_EQ(FinishCommand(RunInspect(o, out, err), err), 0) << err.str();
  });
}

}  // namespace
}  // namespace zs::tools
