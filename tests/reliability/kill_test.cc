// SIGKILL at random moments of every command that writes files (the
// harness: tests/kill_harness.h). After each kill, each output is the
// complete old or the complete new version; the record log is never behind
// the Secret (it is written first).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <regex>

#include "model/model_json.h"
#include "kube/package_secret.h"
#include "kube/secret.h"
#include "tests/kill_harness.h"
#include "tests/run_binary.h"
#include "tests/test_random.h"
#include "tests/test_util.h"
#include "engine/replay_log.h"

namespace zs::testing {
namespace {

namespace fs = std::filesystem;

// Kills per command. The Release suite lands over 200 in all; the sanitizer
// build (where each start of the binary costs far more) looks for memory
// errors on the same paths with fewer.
#if defined(__SANITIZE_ADDRESS__)
constexpr int kKillsPerCommand = 5;
constexpr int kMinKills = 40;
#else
constexpr int kKillsPerCommand = 24;
constexpr int kMinKills = 200;
#endif

// Two runs of the same record differ only in the times they record.
std::string MaskTimestamps(const std::string& text) {
  static const std::regex kTime(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d))");
  return std::regex_replace(text, kTime, "<time>");
}

// A Secret file in a comparable form: the decoded package with its times
// masked, plus the rest of the object. Unreadable bytes stay as they are,
// so they can only match an identical (old) file.
std::string NormalizeSecret(const std::string& bytes) {
  auto in = ReadInput(bytes, "secret");
  if (!in.ok() || in->objects.size() != 1 || !in->objects[0].error.ok()) return "RAW:" + bytes;
  auto pkg = DecodePackagePayload(in->objects[0].payload);
  if (!pkg.ok()) return "RAW:" + bytes;
  json::Value rest = in->objects[0].object;
  if (rest.is_object()) rest.Erase("data");
  return MaskTimestamps(EncodeDeployedPackage(*pkg)) + "\n" + WriteObject(rest, TextFormat::kJson);
}

// A record log in a comparable form: its records as `replay --dump` prints
// them, times masked (the file is compressed). A torn last chunk reads as
// the log before it.
std::string NormalizeLog(const std::string& bytes) {
  const fs::path copy = fs::path(::testing::TempDir()) / ("kill-log-" + std::to_string(::getpid()));
  std::ofstream(copy, std::ios::binary | std::ios::trunc) << bytes;
  std::ostringstream records;
  Status s = Status::OK();
  {
    auto log = tools::OpenLogForReading(copy.string(), 10);
    s = log.ok() ? tools::DumpLog(**log, "", records) : log.status();
  }
  fs::remove(copy);
  return s.ok() ? MaskTimestamps(records.str()) : "RAW:" + bytes;
}

class KillTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(::testing::TempDir()) / ("kill-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    Write("zarf.yaml", kDemoPackageYaml);
    Write("zarf2.yaml",
          "kind: ZarfPackageConfig\nmetadata:\n  name: demo\n  version: 2.0.0\ncomponents:\n"
          "  - name: web\n    charts:\n      - name: podinfo\n        namespace: web\n"
          "  - name: db\n");
    Write("config.json", R"({"Values":{"replicas":2},"SetVariables":{"DOMAIN":"example.com"}})");
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string P(const std::string& name) const { return (dir_ / name).string(); }
  void Write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name, std::ios::binary | std::ios::trunc) << text;
  }
  // Runs the binary to build an old state; returns the files' bytes.
  std::map<std::string, std::string> Build(const std::vector<std::vector<std::string>>& commands,
                                           const std::vector<std::string>& files) {
    for (const std::string& f : files) fs::remove(dir_ / f);
    for (const auto& c : commands) {
      const RunResult r = RunBinary(ZS_BINARY_PATH, c, dir_);
      EXPECT_EQ(r.exit_code, 0) << r.err;
    }
    std::map<std::string, std::string> out;
    for (const std::string& f : files) {
      if (fs::exists(dir_ / f)) out[f] = ReadFile(dir_ / f);
    }
    return out;
  }
  // prepare(): puts exactly `state` back (files absent from it are removed).
  std::function<void()> Restore(std::map<std::string, std::string> state,
                                std::vector<std::string> files) {
    return [this, state, files] {
      for (const std::string& f : files) {
        auto it = state.find(f);
        if (it == state.end()) {
          fs::remove(dir_ / f);
        } else {
          Write(f, it->second);
        }
      }
    };
  }
  std::vector<std::string> Deploy(const std::string& secret, const std::string& pkg,
                                  std::vector<std::string> extra = {}) {
    std::vector<std::string> a{"record", "deploy", "-f", P(secret), "--package", P(pkg),
                               "--config", P("config.json")};
    a.insert(a.end(), extra.begin(), extra.end());
    return a;
  }
  KillScenario Scenario(std::string name, std::vector<std::string> args,
                        std::vector<std::string> outputs, std::map<std::string, std::string> old) {
    KillScenario s;
    s.name = std::move(name);
    s.args = std::move(args);
    for (const std::string& o : outputs) s.outputs.push_back(dir_ / o);
    s.prepare = Restore(std::move(old), outputs);
    s.normalize = [](const std::string& bytes) {
      return bytes.starts_with("ZSEVLOG\n") ? NormalizeLog(bytes) : NormalizeSecret(bytes);
    };
    // A Secret one operation behind its log is rolled forward: the next
    // record may refuse what the log already did (finish twice), never
    // the state itself.
    s.rerun_problem = [](const RunResult& r) {
      return r.err.find("disagree") == std::string::npos ? std::string() : r.err;
    };
    return s;
  }

  fs::path dir_;
};

TEST_F(KillTest, EveryWritingCommandLeavesTheOldOrTheNewVersionAfterSigkill) {
  const std::vector<std::string> both{"secret.json", "log.jsonl"};
  const std::string log = P("log.jsonl");
  const auto deployed = Build({Deploy("secret.json", "zarf.yaml", {"--log", log})}, both);
  const auto begun = Build({Deploy("secret.json", "zarf.yaml", {"--log", log, "--begin-only"})}, both);
  const auto component_done =
      Build({Deploy("secret.json", "zarf.yaml", {"--log", log, "--begin-only"}),
             {"record", "component", "-f", P("secret.json"), "--log", log, "--name", "web",
              "--outcome", "InProgress"},
             {"record", "component", "-f", P("secret.json"), "--log", log, "--name", "web",
              "--outcome", "Succeeded"}},
            both);
  const auto yaml_deployed = Build({Deploy("secret.yaml", "zarf.yaml")}, {"secret.yaml"});

  std::vector<KillScenario> scenarios;
  scenarios.push_back(Scenario("deploy, new Secret and log", Deploy("secret.json", "zarf.yaml", {"--log", log}),
                               both, {}));
  scenarios.push_back(Scenario("deploy, upgrade with log", Deploy("secret.json", "zarf2.yaml", {"--log", log}),
                               both, deployed));
  scenarios.push_back(Scenario("deploy, upgrade written compact",
                               Deploy("secret.json", "zarf2.yaml", {"--codec", "compact"}),
                               {"secret.json"}, {{"secret.json", deployed.at("secret.json")}}));
  scenarios.push_back(Scenario("deploy that fails, YAML Secret", Deploy("secret.yaml", "zarf2.yaml", {"--fail", "db"}),
                               {"secret.yaml"}, yaml_deployed));
  scenarios.push_back(Scenario("remove with log",
                               {"record", "remove", "-f", P("secret.json"), "--log", log}, both, deployed));
  scenarios.push_back(Scenario("component step with log",
                               {"record", "component", "-f", P("secret.json"), "--log", log, "--name",
                                "web", "--outcome", "InProgress"},
                               both, begun));
  scenarios.push_back(Scenario("finish with log",
                               {"record", "finish", "-f", P("secret.json"), "--log", log, "--outcome",
                                "Succeeded"},
                               both, component_done));
  scenarios.push_back(Scenario("abandon with log",
                               {"record", "abandon", "-f", P("secret.json"), "--log", log, "--outcome",
                                "Failed"},
                               both, begun));
  {
    KillScenario bench;
    bench.name = "bench growth --out";
    bench.args = {"bench", "growth", "--out", P("bench"), "--cycles", "3", "--max-images", "64",
                  "--codecs", "json,gzip"};
    for (const char* f : {"growth-cycles.csv", "growth-size.csv", "growth-cycles.svg", "growth-size.svg"}) {
      bench.outputs.push_back(dir_ / "bench" / f);
    }
    bench.prepare = [this] {
      fs::remove_all(dir_ / "bench");
      fs::create_directories(dir_ / "bench");
    };
    scenarios.push_back(bench);
  }
  {
    // migrate --out streams the manifests into a temp file renamed at the
    // end, then writes the report the same way: each is whole or untouched.
    Write("list.json",
          zs::testing::ReadData("legacy/e04-v0.22.0-v0.25.2/all-secrets.list.json"));
    KillScenario migrate;
    migrate.name = "migrate --out --report";
    migrate.args = {"migrate", "-f", P("list.json"), "--out", P("migrated.json"), "--report",
                    P("report.txt")};
    migrate.outputs = {dir_ / "migrated.json", dir_ / "report.txt"};
    migrate.prepare = Restore({{"migrated.json", "old manifests\n"}, {"report.txt", "old report\n"}},
                              {"migrated.json", "report.txt"});
    scenarios.push_back(migrate);
  }

  testing::Rng rng(20240611);
  int killed = 0, attempts = 0;
  for (const KillScenario& s : scenarios) {
    const KillStats stats =
        RunKillScenario(ZS_BINARY_PATH, s, kKillsPerCommand, /*max_attempts=*/4 * kKillsPerCommand, rng);
    killed += stats.killed;
    attempts += stats.attempts;
    std::cout << s.name << ": " << stats.killed << " killed, " << stats.finished
              << " finished first, " << stats.stray_temps << " stray temp files, " << stats.reruns
              << " reruns from mixed versions;";
    for (const auto& [combo, n] : stats.states) std::cout << " [" << combo << "] x" << n;
    std::cout << "\n";
    // The log is written before the Secret: never a new Secret with an old log.
    for (const auto& [combo, n] : stats.states) {
      EXPECT_EQ(combo.find("secret.json=new log.jsonl=old"), std::string::npos) << s.name;
    }
  }
  std::cout << killed << " kills in " << attempts << " attempts\n";
  EXPECT_GE(killed, kMinKills);
}

}  // namespace
}  // namespace zs::testing
