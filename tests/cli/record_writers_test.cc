// Writers that notice (io/state_file.h, cli/package_session.h): a
// Secret reached through a symbolic link, a file replaced or a lock file
// deleted underneath a writer, a failed Secret write after the log append,
// and `record --stdout` in a read-only directory.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <mutex>
#include <thread>
#include <vector>
#include <atomic>

#include "json/go_json.h"
#include "json/json_reader.h"
#include "engine/file_event_log.h"
#include "engine/lifecycle.h"
#include "engine/work_counters.h"
#include "model/model_json.h"
#include "tests/run_binary.h"
#include "tests/test_dir.h"
#include "tests/test_util.h"
#include "cli/common.h"
#include "kube/input.h"
#include "cli/package_session.h"
#include "cli/record_cmd.h"
#include "io/state_file.h"

namespace zs::tools {
namespace {

namespace fs = std::filesystem;

class RecordWritersTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::FreshTestDir("writers");
    Write("zarf.yaml", testing::kDemoPackageYaml);
  }
  void TearDown() override { fs::remove_all(dir_); }

  void Write(const std::string& name, const std::string& text) { std::ofstream(dir_ / name) << text; }
  std::string P(const std::string& name) const { return (dir_ / name).string(); }

  int Deploy(const std::string& secret, bool to_stdout = false) {
    RecordOptions o;
    o.action = "deploy";
    o.session.secret_path = P(secret);
    o.session.log_path = log_;
    o.session.to_stdout = to_stdout;
    o.package_file = P("zarf.yaml");
    out_.str("");
    err_.str("");
    return FinishCommand(RunRecord(o, out_, err_), err_);
  }

  std::size_t EventsIn(const std::string& name) {
    auto in = ReadInput(testing::ReadFile(dir_ / name), name);
    EXPECT_TRUE(in.ok());
    return ParseDeployedPackage(in->objects.at(0).payload)->events.size();
  }

  fs::path dir_;
  std::string log_;
  std::ostringstream out_, err_;
};

TEST_F(RecordWritersTest, AWriteThroughASymlinkReplacesTheTargetAndKeepsTheLink) {
  ASSERT_EQ(Deploy("s.json"), kExitOk) << err_.str();
  fs::create_symlink("s.json", dir_ / "alias.json");
  ASSERT_EQ(Deploy("alias.json"), kExitOk) << err_.str();
  ASSERT_EQ(Deploy("s.json"), kExitOk) << err_.str();
  EXPECT_TRUE(fs::is_symlink(dir_ / "alias.json"));
  EXPECT_EQ(EventsIn("s.json"), 6u);  // three deploys, each InProgress + Succeeded
  EXPECT_FALSE(fs::exists(dir_ / "alias.json.lock"));  // one lock: the target's
}

TEST_F(RecordWritersTest, ALockFileThatIsASymlinkIsRefused) {
  fs::create_symlink(P("elsewhere"), dir_ / "s.json.lock");
  EXPECT_EQ(Deploy("s.json"), kExitSomeFailed);
  EXPECT_NE(err_.str().find("symbolic link"), std::string::npos) << err_.str();
  EXPECT_FALSE(fs::exists(dir_ / "elsewhere"));
  EXPECT_FALSE(fs::exists(dir_ / "s.json"));
}

TEST_F(RecordWritersTest, AFileReplacedUnderneathIsNotOverwritten) {
  Write("s.json", "old");
  auto file = StateFile::Open(P("s.json"), false);
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  Write("new.json", "new");
  fs::rename(dir_ / "new.json", dir_ / "s.json");
  const Status s = (*file)->Replace("mine");
  EXPECT_EQ(s.code(), Status::Code::kIOError);
  EXPECT_NE(s.message().find("replaced"), std::string::npos) << s.message();
  EXPECT_EQ(testing::ReadFile(dir_ / "s.json"), "new");
}

TEST_F(RecordWritersTest, AFileEditedInPlaceOrCreatedUnderneathIsNotOverwritten) {
  Write("s.json", "old");
  auto file = StateFile::Open(P("s.json"), false);
  ASSERT_TRUE(file.ok());
  { std::ofstream(dir_ / "s.json", std::ios::app) << "!"; }
  EXPECT_FALSE((*file)->Replace("mine").ok());
  EXPECT_EQ(testing::ReadFile(dir_ / "s.json"), "old!");

  auto missing = StateFile::Open(P("t.json"), true);
  ASSERT_TRUE(missing.ok());
  Write("t.json", "theirs");
  EXPECT_FALSE((*missing)->Replace("mine").ok());
  EXPECT_EQ(testing::ReadFile(dir_ / "t.json"), "theirs");
}

TEST_F(RecordWritersTest, ALockFileDeletedWhileHeldStopsTheFirstWriter) {
  Write("s.json", "old");
  auto first = StateFile::Open(P("s.json"), false);
  ASSERT_TRUE(first.ok());
  fs::remove(dir_ / "s.json.lock");
  auto second = StateFile::Open(P("s.json"), false);  // gets in: a new lock file
  ASSERT_TRUE(second.ok());
  const Status s = (*first)->Replace("first");
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("lock file was deleted"), std::string::npos) << s.message();
  EXPECT_TRUE((*second)->Replace("second").ok());
  EXPECT_EQ(testing::ReadFile(dir_ / "s.json"), "second");
}

// The real binary, slowed with --step-delay; the Secret is swapped for one
// with a newer resourceVersion while it runs.
TEST_F(RecordWritersTest, RecordRefusesASecretWhoseResourceVersionChangedUnderIt) {
  ASSERT_EQ(Deploy("s.json"), kExitOk) << err_.str();
  std::string text = testing::ReadFile(dir_ / "s.json");
  auto v = json::ParseJson(text);
  ASSERT_TRUE(v.ok());
  v->Find("metadata")->Set("resourceVersion", json::Value::String("100"));
  Write("s.json", *json::WriteJson(*v));
  const std::string err_path = P("err.txt");
  const pid_t pid = testing::SpawnBinary(
      ZS_BINARY_PATH,
      {"record", "deploy", "-f", P("s.json"), "--package", P("zarf.yaml"), "--step-delay", "300", "-v"},
      "", err_path);
  for (int i = 0; i < 500 && testing::ReadFile(err_path).find("step: deploying") == std::string::npos;
       ++i) {
    ::usleep(10000);
  }
  v->Find("metadata")->Set("resourceVersion", json::Value::String("101"));
  Write("new.json", *json::WriteJson(*v));
  fs::rename(dir_ / "new.json", dir_ / "s.json");
  EXPECT_EQ(testing::WaitChild(pid).exit_code, kExitSomeFailed) << testing::ReadFile(err_path);
  EXPECT_NE(testing::ReadFile(err_path).find("resourceVersion was '100' when read, is '101' now"),
            std::string::npos)
      << testing::ReadFile(err_path);
  auto after = json::ParseJson(testing::ReadFile(dir_ / "s.json"));
  ASSERT_TRUE(after.ok());
  EXPECT_EQ(after->Find("metadata")->StringOr("resourceVersion"), "101");
}

TEST_F(RecordWritersTest, AFailedSecretWriteTakesItsRecordsBackOutOfTheLog) {
  log_ = P("log.jsonl");
  ASSERT_EQ(Deploy("s.json"), kExitOk) << err_.str();
  const std::string log_before = testing::ReadFile(log_);
  FailNextStateWriteForTesting();
  EXPECT_EQ(Deploy("s.json"), kExitSomeFailed);
  EXPECT_NE(err_.str().find("injected failure"), std::string::npos) << err_.str();
  EXPECT_EQ(testing::ReadFile(log_), log_before);
  // The next run neither rolls the failed deploy in nor reports drift.
  ASSERT_EQ(Deploy("s.json"), kExitOk) << err_.str();
  EXPECT_EQ(EventsIn("s.json"), 4u);
}

// `record --stdout` whose output cannot be written (a full disk, a closed
// pipe) did not deliver the Secret: its records leave the log again, and
// the next run does not roll the failed deploy in.
TEST_F(RecordWritersTest, AFailedStdoutWriteTakesItsRecordsBackOutOfTheLog) {
  log_ = P("log.jsonl");
  ASSERT_EQ(Deploy("s.json"), kExitOk) << err_.str();
  const std::string log_before = testing::ReadFile(log_);
  RecordOptions o;
  o.action = "deploy";
  o.session.secret_path = P("s.json");
  o.session.log_path = log_;
  o.session.to_stdout = true;
  o.package_file = P("zarf.yaml");
  std::ostringstream full;
  full.setstate(std::ios::badbit);  // every write fails
  std::ostringstream err;
  EXPECT_EQ(FinishCommand(RunRecord(o, full, err), err), kExitSomeFailed);
  EXPECT_NE(err.str().find("standard output: write failed"), std::string::npos) << err.str();
  EXPECT_NE(err.str().find("were taken back"), std::string::npos) << err.str();
  EXPECT_EQ(testing::ReadFile(log_), log_before);
  ASSERT_EQ(Deploy("s.json"), kExitOk) << err_.str();
  EXPECT_EQ(EventsIn("s.json"), 4u);
}

// `record deploy` on a long log reads the package's tail (its last
// checkpoint and the records after it) once: each record decoded once and
// folded once, the append reusing what the opening read.
TEST_F(RecordWritersTest, ADeployOnALongLogDecodesAndFoldsEachTailRecordOnce) {
  log_ = P("log");
  auto mem = engine::NewMemoryEventLog();
  auto t = std::make_shared<std::int64_t>(1767225600LL * 1000000000LL);
  engine::Lifecycle lc = std::move(engine::Lifecycle::Open(mem.get(), "demo", {}, [t] {
                                     *t += 1000000000LL;
                                     return Timestamp::FromUnixNanos(*t);
                                   })).value();
  engine::DeployRequest req;
  req.package = *ReadDocument(P("zarf.yaml"));
  auto file = engine::FileEventLog::Open(log_);
  ASSERT_TRUE(file.ok());
  std::uint64_t written = 0;
  while (written < 10000) {
    for (int d = 0; d < 10; ++d) {
      ASSERT_TRUE(lc.BeginDeploy(req).ok());
      for (const char* c : {"web", "db", "jobs"}) {
        ASSERT_TRUE(lc.ComponentStarted(c).ok());
        ASSERT_TRUE(lc.ComponentSucceeded(c, {}).ok());
      }
      ASSERT_TRUE(lc.FinishDeploy(kOutcomeSucceeded).ok());
    }
    auto batch = mem->Read("demo", written + 1);
    ASSERT_TRUE((*file)->AppendBatch("demo", *batch).ok());
    written += batch->size();
  }
  auto tail = (*file)->ReadTail("demo");
  ASSERT_TRUE(tail.ok());
  ASSERT_TRUE(tail->checkpoint.has_value());
  const std::uint64_t tail_records = tail->records.size() + 1;  // and the checkpoint
  const engine::WorkCounters before = engine::CurrentWorkCounters();
  ASSERT_EQ(Deploy("s.json"), kExitOk) << err_.str();
  const engine::WorkCounters after = engine::CurrentWorkCounters();
  const std::uint64_t added = *(*file)->Size("demo") - written;
  ASSERT_GT(added, 0u);
  EXPECT_EQ(after.records_decoded - before.records_decoded, tail_records);
  EXPECT_EQ(after.records_folded - before.records_folded, tail_records + added);
  EXPECT_EQ(EventsIn("s.json"), 10u);
}

// `--log` naming a symbolic link to nothing is an error at once, not an
// endless retry.
TEST_F(RecordWritersTest, ALogThatIsADanglingSymlinkIsAClearError) {
  fs::create_symlink(P("nowhere/log"), dir_ / "log");
  log_ = P("log");
  EXPECT_EQ(Deploy("s.json"), kExitSomeFailed);
  EXPECT_NE(err_.str().find("is a symbolic link to '" + P("nowhere/log") + "', which does not exist"),
            std::string::npos)
      << err_.str();
  EXPECT_FALSE(fs::exists(dir_ / "s.json"));
}

TEST_F(RecordWritersTest, RecordSaysWhatItWroteAndLeavesNoLockFile) {
  ASSERT_EQ(Deploy("s.json"), kExitOk) << err_.str();
  EXPECT_EQ(out_.str(), "secret/zarf-package-demo created\n");
  EXPECT_FALSE(fs::exists(dir_ / "s.json.lock"));
  ASSERT_EQ(Deploy("s.json"), kExitOk) << err_.str();
  EXPECT_EQ(out_.str(), "secret/zarf-package-demo configured\n");
  EXPECT_FALSE(fs::exists(dir_ / "s.json.lock"));
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 2)
      << "zarf.yaml and s.json, nothing else";
}

// Removing the lock file as it is released must not let two writers in:
// threads (each its own open file, so its own flock) add one to a counter
// under the lock; every increment survives.
TEST_F(RecordWritersTest, ConcurrentWritersLoseNoUpdateWhileLockFilesComeAndGo) {
  Write("n.txt", "0");
  constexpr int kThreads = 4, kEach = 40;
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  std::mutex first_failure_mutex;
  std::string first_failure;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < kEach; ++i) {
        auto file = StateFile::Open(P("n.txt"), false);
        Status s = file.status();
        if (s.ok()) s = (*file)->Replace(std::to_string(std::stoi((*file)->contents()) + 1));
        if (!s.ok() && failures++ == 0) {
          std::lock_guard<std::mutex> hold(first_failure_mutex);
          first_failure = s.ToString();
        }
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(failures.load(), 0) << first_failure;
  EXPECT_EQ(testing::ReadFile(dir_ / "n.txt"), std::to_string(kThreads * kEach));
  EXPECT_FALSE(fs::exists(dir_ / "n.txt.lock"));
}

TEST_F(RecordWritersTest, RecordStdoutCreatesNoLockFile) {
  ASSERT_EQ(Deploy("s.json"), kExitOk) << err_.str();
  fs::remove(dir_ / "s.json.lock");
  ASSERT_EQ(Deploy("s.json", /*to_stdout=*/true), kExitOk) << err_.str();
  EXPECT_FALSE(fs::exists(dir_ / "s.json.lock"));
  EXPECT_NE(out_.str().find("zarf-package-demo"), std::string::npos);
}

}  // namespace
}  // namespace zs::tools
