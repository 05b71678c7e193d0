#include "engine/replay_log.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include "json/go_json.h"
#include "json/json_reader.h"
#include "engine/lifecycle.h"
#include "tests/test_dir.h"

namespace zs::tools {
namespace {

namespace fs = std::filesystem;

// Three deploys of a two-component package, appended one deploy per chunk
// to a log that writes a checkpoint every 6 records.
class ReplayLogTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::FreshTestDir("replay-log");
    auto mem = engine::NewMemoryEventLog();
    auto t = std::make_shared<std::int64_t>(1767225600LL * 1000000000LL);
    engine::Clock clock = [t] { return Timestamp::FromUnixNanos(*t += 1000000000LL); };
    engine::Lifecycle lc = std::move(engine::Lifecycle::Open(mem.get(), "demo", {}, clock)).value();
    engine::DeployRequest req;
    req.package = *json::ParseJson(R"({"kind":"ZarfPackageConfig","metadata":{"name":"demo"},)"
                                   R"("components":[{"name":"a"},{"name":"b"}]})");
    req.config = json::Value::MakeObject();
    engine::FileEventLogOptions o;
    o.checkpoint_every = 6;
    log_ = std::move(engine::FileEventLog::Open((dir_ / "log").string(), o)).value();
    for (int d = 0; d < 3; ++d) {
      const std::uint64_t before = *mem->Size("demo");
      ASSERT_TRUE(lc.BeginDeploy(req).ok());
      for (const char* c : {"a", "b"}) {
        ASSERT_TRUE(lc.ComponentStarted(c).ok());
        ASSERT_TRUE(lc.ComponentSucceeded(c, {}).ok());
      }
      ASSERT_TRUE(lc.FinishDeploy(kOutcomeSucceeded).ok());
      ASSERT_TRUE(log_->AppendBatch("demo", *mem->Read("demo", before + 1)).ok());
    }
    history_ = *mem->Read("demo");
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path dir_;
  std::unique_ptr<engine::FileEventLog> log_;
  std::vector<engine::Record> history_;
};

TEST_F(ReplayLogTest, CheckpointsAgreeWithTheFoldOfTheHistoryBeforeThem) {
  std::size_t checked = 0;
  auto drift = VerifyCheckpoints(*log_, "demo", history_, &checked);
  ASSERT_TRUE(drift.ok()) << drift.status().message();
  EXPECT_EQ(checked, 2u);
  EXPECT_TRUE(drift->empty()) << drift->front().Path();
}

TEST_F(ReplayLogTest, ACheckpointThatDisagreesWithTheHistoryIsReported) {
  // A history that lost its first component's success: the checkpoints,
  // taken from the real one, now differ from its fold.
  std::vector<engine::Record> altered = history_;
  altered.erase(altered.begin() + 2);
  std::size_t checked = 0;
  auto drift = VerifyCheckpoints(*log_, "demo", altered, &checked);
  ASSERT_TRUE(drift.ok()) << drift.status().message();
  ASSERT_FALSE(drift->empty());
  EXPECT_EQ(drift->front().after_record, 6u);
  EXPECT_TRUE(drift->front().Path().starts_with("(checkpoint after record 6) ")) << drift->front().Path();
}

TEST_F(ReplayLogTest, DumpPrintsEveryRecordAsALineOfTheEarlierForm) {
  std::ostringstream out;
  ASSERT_TRUE(DumpLog(*log_, "", out).ok());
  std::istringstream lines(out.str());
  std::size_t n = 0;
  for (std::string line; std::getline(lines, line); ++n) {
    auto v = json::ParseJson(line);
    ASSERT_TRUE(v.ok()) << line;
    EXPECT_EQ(v->StringOr("package"), "demo");
    EXPECT_EQ(engine::EncodeRecord(*engine::DecodeRecord(*json::WriteJson(*v->Find("record")))),
              engine::EncodeRecord(history_[n]));
  }
  EXPECT_EQ(n, history_.size());
  std::ostringstream none;
  ASSERT_TRUE(DumpLog(*log_, "other", none).ok());
  EXPECT_EQ(none.str(), "");
}

}  // namespace
}  // namespace zs::tools
