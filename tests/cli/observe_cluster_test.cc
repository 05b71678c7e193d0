// `observe --cluster [--watch]` end to end: the stand-in API server
// (tests/apiserver_standin/) replays Zarf v0.84.0's writes
// (testing/zarf_writes.h) as a scripted writer, and zarf-state follows
// them through the real kubectl. Skipped when kubectl is not installed.
#include <gtest/gtest.h>
#include <signal.h>
#include <stdlib.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "base/base64.h"
#include "model/model_json.h"
#include "engine/cache.h"
#include "engine/observe.h"
#include "json/go_json.h"
#include "tests/run_binary.h"
#include "tests/test_dir.h"
#include "tests/test_util.h"
#include "cli/common.h"
#include "testing/zarf_writes.h"

namespace zs::tools {
namespace {

namespace fs = std::filesystem;
using dev::ZarfWrite;
using dev::ZarfWriter;

const std::string kBinary = ZS_BINARY_PATH;
const std::string kStandIn = ZS_STANDIN_PATH;

bool HaveKubectl() { return std::system("command -v kubectl >/dev/null 2>&1") == 0; }

std::string Describe(const engine::Record& r) {
  if (r.kind == engine::RecordKind::kComponentEvent) {
    return r.component + " " + r.component_event.type + "/" + r.component_event.outcome;
  }
  return r.event.type + "/" + r.event.outcome + " " + r.event.version;
}

// One package's writes, in order, as the stand-in's script lines and as the
// history a watcher that saw each of them derives.
struct Scripted {
  std::string key;
  std::vector<std::string> lines;
  std::vector<std::string> history;
};

Scripted Script(ZarfWriter writer, const std::string& key,
                const std::vector<std::vector<ZarfWrite>>& runs) {
  Scripted s;
  s.key = key;
  std::optional<DeployedPackage> view;
  for (const auto& run : runs) {
    for (const ZarfWrite& w : run) {
      json::Value step = json::Value::MakeObject();
      if (w) {
        json::Value md = json::Value::MakeObject(
            {{"name", json::Value::String(writer.SecretName())},
             {"namespace", json::Value::String("zarf")},
             {"labels", json::Value::MakeObject(
                            {{"package-deploy-info", json::Value::String(writer.SecretName())},
                             {"app.kubernetes.io/managed-by", json::Value::String("zarf")}})}});
        step.Set("apply", json::Value::MakeObject(
                              {{"apiVersion", json::Value::String("v1")},
                               {"kind", json::Value::String("Secret")},
                               {"metadata", std::move(md)},
                               {"type", json::Value::String("Opaque")},
                               {"data", json::Value::MakeObject(
                                            {{"data", json::Value::String(Base64Encode(*w))}})}}));
      } else {
        step.Set("delete", json::Value::MakeObject(
                               {{"namespace", json::Value::String("zarf")},
                                {"name", json::Value::String(writer.SecretName())}}));
      }
      s.lines.push_back(WriteJson(step).value());
      engine::ObservedWrite write;
      if (w) write.package = ParseDeployedPackage(*w).value();
      auto steps = engine::ObserveWrite(view ? &*view : nullptr, write);
      for (const engine::Record& r : steps->events) s.history.push_back(Describe(r));
      if (!steps->steps.empty()) view = steps->steps.back();
    }
  }
  return s;
}

class ObserveClusterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!HaveKubectl()) GTEST_SKIP() << "kubectl is not installed: these tests run the real one";
    dir_ = testing::FreshTestDir("observe-cluster");
    db_ = (dir_ / "db").string();
  }
  void TearDown() override {
    if (standin_ > 0) testing::SignalChild(standin_, SIGTERM);
    unsetenv("KUBECONFIG");
    if (!dir_.empty()) fs::remove_all(dir_);
  }

  void StartStandIn(const std::vector<Scripted>& packages) {
    const std::string script = (dir_ / "script.jsonl").string();
    std::ofstream f(script);
    // The first package alone, then the others interleaved, as packages
    // deployed at once would be.
    for (const std::string& line : packages.front().lines) f << line << "\n";
    for (std::size_t i = 0;; ++i) {
      bool any = false;
      for (std::size_t k = 1; k < packages.size(); ++k) {
        const Scripted& p = packages[k];
        if (i < p.lines.size()) f << p.lines[i] << "\n";
        any |= i < p.lines.size();
      }
      if (!any) break;
    }
    f.close();
    const std::string kubeconfig = (dir_ / "kubeconfig").string();
    standin_ = testing::SpawnBinary(
        kStandIn,
        {"-kubeconfig", kubeconfig, "-script", script, "-script-start",
         (dir_ / "start").string(), "-script-done", (dir_ / "done").string(),
         "-script-interval", "60ms", "-lifetime", "300s"},
        "", (dir_ / "standin.err").string());
    for (int i = 0; i < 500 && !fs::exists(kubeconfig); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    ASSERT_TRUE(fs::exists(kubeconfig)) << testing::ReadFile(dir_ / "standin.err");
    setenv("KUBECONFIG", kubeconfig.c_str(), 1);
  }
  pid_t StartWatcher(const std::string& name) {
    return testing::SpawnBinary(kBinary, {"observe", "--cluster", "--watch", "--db", db_},
                                (dir_ / (name + ".out")).string(),
                                (dir_ / (name + ".err")).string());
  }
  static bool WaitFor(const std::function<bool()>& done, int ms) {
    for (int waited = 0; waited < ms; waited += 20) {
      if (done()) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return done();
  }
  std::vector<std::string> History(const std::string& key) {
    auto cache = engine::OpenCache(db_, {.create_if_missing = false, .read_only = true});
    EXPECT_TRUE(cache.ok()) << cache.status().message();
    std::vector<std::string> out;
    if (!cache.ok()) return out;
    auto h = (*cache)->History(key, {});
    if (!h.ok()) return out;
    for (const engine::HistoryEntry& e : *h) out.push_back(Describe(e.record));
    return out;
  }

  fs::path dir_;
  std::string db_;
  pid_t standin_ = -1;
};

std::vector<Scripted> ZarfSequences() {
  std::vector<Scripted> out;
  {
    ZarfWriter w(dev::ZarfDefinition("big", "1.0.0", 20));
    std::vector<std::vector<ZarfWrite>> runs;
    runs.push_back(w.Deploy({}));
    runs.push_back(w.Deploy({.components = {}, .fail = "c5", .stop_after = -1}));
    out.push_back(Script(dev::ZarfWriter(dev::ZarfDefinition("big", "1.0.0", 20)), "big", runs));
  }
  {
    ZarfWriter w(dev::ZarfDefinition("parts", "2.0.0", 3));
    std::vector<std::vector<ZarfWrite>> runs;
    runs.push_back(w.Deploy({}));
    runs.push_back(w.Deploy({.components = {"c1"}, .fail = "", .stop_after = -1}));
    runs.push_back(w.Remove({}));
    out.push_back(Script(dev::ZarfWriter(dev::ZarfDefinition("parts", "2.0.0", 3)), "parts", runs));
  }
  {
    ZarfWriter w(dev::ZarfDefinition("killed", "3.0.0", 3));
    std::vector<std::vector<ZarfWrite>> runs;
    runs.push_back(w.Deploy({.components = {}, .fail = "", .stop_after = 3}));
    runs.push_back(w.Deploy({}));
    runs.push_back(w.Remove({.fail = "c0", .stop_after = -1}));
    runs.push_back(w.Deploy({}));
    out.push_back(Script(dev::ZarfWriter(dev::ZarfDefinition("killed", "3.0.0", 3)), "killed", runs));
  }
  {
    ZarfWriter w(dev::ZarfDefinition("web", "4.0.0", 2), "team-a");
    std::vector<std::vector<ZarfWrite>> runs;
    runs.push_back(w.Deploy({}));
    out.push_back(Script(dev::ZarfWriter(dev::ZarfDefinition("web", "4.0.0", 2), "team-a"),
                         "web-override-team-a", runs));
  }
  return out;
}

TEST_F(ObserveClusterTest, AWatcherKilledAndRestartedMidDeployDerivesEveryWrite) {
  const std::vector<Scripted> packages = ZarfSequences();
  StartStandIn(packages);
  pid_t watcher = StartWatcher("first");
  // The watch is running before the writes start: a write before it would
  // only be seen by the list, as a poll sees it.
  ASSERT_TRUE(WaitFor([&] { return fs::exists(fs::path(db_) / "CURRENT"); }, 20000));
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  std::ofstream(dir_ / "start").close();
  ASSERT_TRUE(WaitFor([&] {
    return testing::ReadFile(dir_ / "first.out").find("big c1 Deploy/InProgress") !=
           std::string::npos;
  }, 20000)) << testing::ReadFile(dir_ / "first.err");
  testing::SignalChild(watcher, SIGKILL);
  std::this_thread::sleep_for(std::chrono::milliseconds(150));
  watcher = StartWatcher("second");
  ASSERT_TRUE(WaitFor([&] { return fs::exists(dir_ / "done"); }, 120000));
  // The watcher catches up with every write (the cache is read while it
  // runs, as `query` would).
  WaitFor([&] {
    for (const Scripted& p : packages) {
      if (History(p.key) != p.history) return false;
    }
    return true;
  }, 60000);
  const auto exit = testing::SignalChild(watcher, SIGTERM);
  EXPECT_EQ(exit.exit_code, kExitOk) << testing::ReadFile(dir_ / "second.err");
  for (const Scripted& p : packages) {
    EXPECT_EQ(History(p.key), p.history) << p.key << "\n" << testing::ReadFile(dir_ / "second.err");
  }
  // A poll of the same cluster afterwards adds nothing.
  const testing::RunResult poll = testing::RunBinary(kBinary, {"observe", "--cluster", "--db", db_}, dir_);
  EXPECT_EQ(poll.exit_code, kExitOk) << poll.err;
  EXPECT_EQ(poll.out, "");
}

TEST_F(ObserveClusterTest, AWatchFromATooOldResourceVersionIsGone) {
  ZarfWriter w(dev::ZarfDefinition("demo", "1.0.0", 2));
  std::vector<std::vector<ZarfWrite>> runs;
  runs.push_back(w.Deploy({}));
  StartStandIn({Script(dev::ZarfWriter(dev::ZarfDefinition("demo", "1.0.0", 2)), "demo", runs)});
  std::ofstream(dir_ / "start").close();
  ASSERT_TRUE(WaitFor([&] { return fs::exists(dir_ / "done"); }, 20000));
  const testing::RunResult r = testing::RunBinary(
      "/bin/sh",
      {"-c", "kubectl get --raw '/api/v1/namespaces/zarf/secrets?watch=true&resourceVersion=1'"},
      dir_);
  EXPECT_NE(r.out.find("\"code\":410"), std::string::npos) << r.out << r.err;
  EXPECT_NE(r.out.find("\"type\":\"ERROR\""), std::string::npos) << r.out;
}

}  // namespace
}  // namespace zs::tools
