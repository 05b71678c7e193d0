// Writers on one record log, with Secret writes failing and kills landing at
// random (engine/FORMAT.md, "Rules": take-back): after every round, each deploy
// that was acknowledged (exit 0) is in the log exactly once, each deploy
// whose Secret write failed is not in it at all, each killed one is in it
// whole or not at all, and the log checks clean (FileEventLog::Check).
//
// The writers are forked children of this process that run `record deploy`
// (cli/record_cmd.h) on the real files, so that a Secret write can be made
// to fail (FailNextStateWriteForTesting) and a child can be SIGKILLed.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <iostream>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "engine/file_event_log.h"
#include "engine/lifecycle.h"
#include "tests/run_binary.h"
#include "tests/subprocess_runner.h"
#include "tests/test_dir.h"
#include "tests/test_random.h"
#include "cli/common.h"
#include "kube/input.h"
#include "cli/record_cmd.h"
#include "io/state_file.h"

namespace zs::tools {
namespace {

namespace fs = std::filesystem;

constexpr int kWriters = 4;
constexpr int kRounds = 24;

std::string PackageYaml(int writer) {
  return "kind: ZarfPackageConfig\nmetadata:\n  name: pkg-" + std::to_string(writer) +
         "\n  version: 1.0.0\ncomponents:\n  - name: web\n  - name: db\n  - name: jobs\n";
}

class LogCrashTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::FreshTestDir("log-crash");
    for (int w = 0; w < kWriters; ++w) std::ofstream(P("zarf-" + std::to_string(w) + ".yaml")) << PackageYaml(w);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string P(const std::string& name) const { return (dir_ / name).string(); }

  // A child that records a deploy of writer `w`'s package, marked with
  // `source`, its Secret write failing when `fail`.
  pid_t StartWriter(int w, const std::string& source, bool fail) {
    const pid_t pid = ::fork();
    if (pid != 0) return pid;
    if (fail) FailNextStateWriteForTesting();
    RecordOptions o;
    o.action = "deploy";
    o.session.secret_path = P("secret-" + std::to_string(w) + ".json");
    o.session.log_path = P("log");
    o.package_file = P("zarf-" + std::to_string(w) + ".yaml");
    o.source = source;
    std::ostringstream out, err;
    ::_exit(FinishCommand(RunRecord(o, out, err), err));
  }

  // Records of the log per source.
  std::map<std::string, int> RecordsBySource() {
    std::map<std::string, int> out;
    auto log = engine::FileEventLog::Open(P("log"));
    EXPECT_TRUE(log.ok());
    Status s = (*log)->Scan([&](const engine::LogEntry& e) {
      if (!e.checkpoint && !e.record->event.source.empty()) ++out[e.record->event.source];
      return Status::OK();
    });
    EXPECT_TRUE(s.ok()) << s.message();
    return out;
  }

  fs::path dir_;
};

TEST_F(LogCrashTest, AcknowledgedRecordsAreInTheLogExactlyOnceUnderFailuresAndKills) {
  testing::Rng rng(32);
  enum class Fate { kAcknowledged, kFailed, kKilled };
  std::map<std::string, Fate> fates;
  int records_per_deploy = 0;  // source-marked records one deploy writes
  int killed = 0, failed = 0;
  for (int round = 0; round < kRounds; ++round) {
    std::vector<std::pair<std::string, pid_t>> runs;
    std::vector<long> kill_after_us;
    for (int w = 0; w < kWriters; ++w) {
      const std::string source = "run-" + std::to_string(round) + "-" + std::to_string(w);
      const bool fail = round > 0 && rng.Below(3) == 0;
      runs.emplace_back(source, StartWriter(w, source, fail));
      // Round 0 sets every package up unkilled.
      kill_after_us.push_back(round > 0 && rng.Below(3) == 0 ? static_cast<long>(rng.Below(30000)) : -1);
    }
    for (std::size_t i = 0; i < runs.size(); ++i) {
      if (kill_after_us[i] < 0) continue;
      struct timespec ts {
        0, kill_after_us[i] * 1000
      };
      ::nanosleep(&ts, nullptr);
      ::kill(runs[i].second, SIGKILL);
    }
    for (std::size_t i = 0; i < runs.size(); ++i) {
      const testing::ChildExit exit = testing::WaitChild(runs[i].second);
      Fate fate = Fate::kKilled;
      if (exit.signal == SIGKILL) {
        ++killed;
      } else if (exit.exit_code == kExitOk) {
        fate = Fate::kAcknowledged;
      } else {
        ASSERT_EQ(exit.exit_code, kExitSomeFailed) << runs[i].first;
        fate = Fate::kFailed;
        ++failed;
      }
      fates[runs[i].first] = fate;
    }
    const std::map<std::string, int> in_log = RecordsBySource();
    if (records_per_deploy == 0) {
      ASSERT_TRUE(in_log.count("run-0-0")) << "round 0 left no records";
      records_per_deploy = in_log.at("run-0-0");
    }
    for (const auto& [source, fate] : fates) {
      const auto it = in_log.find(source);
      const int n = it == in_log.end() ? 0 : it->second;
      switch (fate) {
        case Fate::kAcknowledged:
          EXPECT_EQ(n, records_per_deploy) << source << " acknowledged, round " << round;
          break;
        case Fate::kFailed:
          EXPECT_EQ(n, 0) << source << " failed, round " << round;
          break;
        case Fate::kKilled:
          EXPECT_TRUE(n == 0 || n == records_per_deploy) << source << " killed: " << n << " records";
          break;
      }
    }
    auto log = engine::FileEventLog::Open(P("log"));
    ASSERT_TRUE(log.ok());
    auto check = (*log)->Check();
    ASSERT_TRUE(check.ok()) << check.status().message();
    EXPECT_TRUE(check->ok()) << "round " << round << ": "
                             << (check->damaged.empty() ? check->findings.at(0).what
                                                        : check->damaged.at(0).reason);
    if (::testing::Test::HasFailure()) break;
  }
  // The fates the test meant to mix did happen.
  EXPECT_GT(killed, 0);
  EXPECT_GT(failed, 0);
}

// A JSON Lines log of earlier releases is converted by the first append
// (written beside it, renamed over it). Killed at random during that, the
// conversion may leave its temp file; the next append removes it.
TEST_F(LogCrashTest, AKillDuringAConversionLeavesNoTempFileAfterTheNextAppend) {
  auto mem = engine::NewMemoryEventLog();
  engine::Lifecycle lc = std::move(engine::Lifecycle::Open(mem.get(), "pkg-0")).value();
  engine::DeployRequest req;
  req.package = *ReadDocument(P("zarf-0.yaml"));
  for (int d = 0; d < 600; ++d) {
    ASSERT_TRUE(lc.BeginDeploy(req).ok());
    ASSERT_TRUE(lc.FinishDeploy(kOutcomeSucceeded).ok());
  }
  std::string legacy;
  const std::vector<engine::Record> records = std::move(mem->Read("pkg-0")).value();
  for (const engine::Record& r : records) {
    legacy += "{\"package\":\"pkg-0\",\"record\":" + engine::EncodeRecord(r) + "}\n";
  }
  const std::vector<std::string> deploy{"record", "deploy", "-f", P("secret.json"), "--package",
                                        P("zarf-0.yaml"), "--log", P("log")};
  auto stray = [&] {
    int n = 0;
    for (const auto& e : fs::directory_iterator(dir_)) n += e.path().filename().string().starts_with("log.tmp-");
    return n;
  };
  testing::Rng rng(5);
  long unkilled_us = 0;
  int left_behind = 0, reconverted = 0;
  for (int round = 0; round < 12; ++round) {
    fs::remove(P("secret.json"));
    std::ofstream(P("log"), std::ios::trunc) << legacy;
    const auto start = std::chrono::steady_clock::now();
    const pid_t pid = testing::SpawnBinary(ZS_BINARY_PATH, deploy);
    if (round == 0) {
      ASSERT_EQ(testing::WaitChild(pid).exit_code, kExitOk);
      unkilled_us = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start)
                        .count();
    } else {
      struct timespec ts {
        0, static_cast<long>(rng.Below(static_cast<std::uint32_t>(unkilled_us) + 1)) * 1000
      };
      ::nanosleep(&ts, nullptr);
      testing::SignalChild(pid, SIGKILL);
    }
    left_behind += stray();
    std::ofstream(P("log.tmp-AbC123")) << "a conversion a kill interrupted";
    std::ofstream(P("log.tmp-keep")) << "not a temp of ours";
    fs::remove(P("secret.json"));
    const std::string log_now = testing::ReadFile(P("log"));
    if (log_now.starts_with("{")) {
      ASSERT_EQ(testing::WaitChild(testing::SpawnBinary(ZS_BINARY_PATH, deploy)).exit_code, kExitOk);
      EXPECT_EQ(stray(), 1) << "round " << round;  // log.tmp-keep only
      ++reconverted;
    }
    auto log = engine::FileEventLog::Open(P("log"));
    auto check = (*log)->Check();
    ASSERT_TRUE(check.ok()) << check.status().message();
    EXPECT_TRUE(check->ok());
    fs::remove(P("log.tmp-AbC123"));
    fs::remove(P("log.tmp-keep"));
  }
  EXPECT_GT(reconverted, 0);  // a kill landed before the conversion's rename
  std::cout << "kills that left a conversion temp file: " << left_behind << " of 11\n";
}

}  // namespace
}  // namespace zs::tools
