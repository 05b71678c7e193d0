// Events an observer derives from Zarf's own writes (PackageEvents with
// source "observed", appended to the cache's full history through the
// cache's event log) are read by every command that reads history: query
// history and status, replay --db, status --db and report --db (whose
// timeline marks them apart from recorded events). A cached Secret without
// events shows the statuses it stores until such events exist.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string_view>

#include "engine/cache.h"
#include "engine/derived_status.h"
#include "json/json_reader.h"
#include "tests/table_rows.h"
#include "tests/test_util.h"
#include "cli/common.h"
#include "cli/ingest_cmd.h"
#include "cli/query_cmd.h"
#include "cli/replay_cmd.h"
#include "cli/report_cmd.h"
#include "cli/status_cmd.h"

namespace zs::tools {
namespace {

namespace fs = std::filesystem;

const std::string kSecret = "legacy/e22-v0.80.0-v0.84.0/pkg-small-dos-games.secret.json";
const std::string kNow = "2026-03-02T00:00:00Z";

engine::Record PackageRecord(const char* type, const char* outcome, const char* when,
                             const char* source) {
  engine::Record r;
  r.kind = engine::RecordKind::kPackageEvent;
  r.event.type = type;
  r.event.outcome = outcome;
  r.event.timestamp = *ParseRfc3339(when);
  r.event.version = "1.3.0";
  r.event.source = source;
  // What a ZEP-0026 writer records with every event; an observer has none.
  if (std::string_view(source).starts_with("oci://")) r.event.config_digest = "sha256:" + std::string(64, 'c');
  return r;
}

engine::Record ComponentRecord(const char* outcome, const char* when) {
  engine::Record r;
  r.kind = engine::RecordKind::kComponentEvent;
  r.component = "baseline";
  r.component_event = ComponentEvent{"Deploy", outcome, *ParseRfc3339(when), {}};
  return r;
}

class ObservedHistoryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(::testing::TempDir()) /
           ("observed-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    db_ = (dir_ / "db").string();
    secret_ = (testing::DataDir() / kSecret).string();
    IngestOptions o;
    o.db = db_;
    o.files = {secret_};
    std::ostringstream so, se;
    ASSERT_EQ(FinishCommand(RunIngest(o, so, se), se), kExitOk) << se.str();
  }
  void TearDown() override { fs::remove_all(dir_); }

  // A deploy the observer saw fail, then a remove it saw start, appended
  // through the cache's event log as an observer writes them, after one
  // event a ZEP-0026 writer recorded.
  void AppendHistory() {
    Append({PackageRecord("Deploy", "Succeeded", "2026-03-01T09:00:00Z", "oci://ghcr.io/acme/dos"),
            PackageRecord("Deploy", "InProgress", "2026-03-01T10:00:00Z", "observed"),
            ComponentRecord("InProgress", "2026-03-01T10:00:01Z"),
            ComponentRecord("Failed", "2026-03-01T10:01:00Z"),
            PackageRecord("Deploy", "Failed", "2026-03-01T10:01:00Z", "observed")});
  }

  void Append(const std::vector<engine::Record>& records) {
    auto cache = engine::OpenCache(db_);
    ASSERT_TRUE(cache.ok()) << cache.status().message();
    for (const engine::Record& r : records) {
      auto appended = (*cache)->log().Append("dos-games", r);
      ASSERT_TRUE(appended.ok()) << appended.status().message();
    }
  }

  std::string Query(std::string what, std::string arg, std::string format = "table") {
    QueryOptions o;
    o.db = db_;
    o.what = std::move(what);
    o.arg = std::move(arg);
    o.now = kNow;
    o.output.format = std::move(format);
    std::ostringstream so, se;
    EXPECT_EQ(FinishCommand(RunQuery(o, so, se), se), kExitOk) << se.str();
    return so.str();
  }

  std::string Status(std::vector<std::string> files, std::string format = "table") {
    StatusOptions o;
    o.db = db_;
    o.files = std::move(files);
    o.from_cache = o.files.empty();
    o.now = kNow;
    o.output.format = std::move(format);
    std::ostringstream so, se;
    EXPECT_EQ(FinishCommand(RunStatus(o, so, se), se), kExitOk) << se.str();
    return so.str();
  }

  fs::path dir_;
  std::string db_, secret_;
};

TEST_F(ObservedHistoryTest, ACachedSecretWithoutEventsShowsItsStoredStatus) {
  EXPECT_TRUE(testing::HasTableRow(Query("status", ""),
                                   "dos-games 1.3.0 1 stored:Succeeded - - no"))
      << Query("status", "");
  auto doc = json::ParseJson(Query("status", "dos-games", "json"));
  ASSERT_TRUE(doc.ok());
  const json::Value& pkg = doc->Find("packages")->array().at(0);
  EXPECT_EQ(pkg.Find("state")->StringOr("from"), "stored");
  EXPECT_EQ(pkg.Find("state")->StringOr("status"), "Succeeded");
  EXPECT_TRUE(pkg.Find("latestEvent")->is_null());
  const std::string status = Status({});
  EXPECT_TRUE(testing::HasTableRow(status, "dos-games stored:Succeeded - - 1.3.0")) << status;
}

TEST_F(ObservedHistoryTest, QueryHistoryAndStatusReadObservedEvents) {
  AppendHistory();
  const std::string history = Query("history", "dos-games");
  EXPECT_TRUE(testing::HasTableRow(
      history, "2 2026-03-01T10:00:00Z 14h - Deploy/InProgress 1.3.0 observed"))
      << history;
  EXPECT_TRUE(testing::HasTableRow(
      history, "5 2026-03-01T10:01:00Z 13h - Deploy/Failed 1.3.0 observed"))
      << history;
  auto doc = json::ParseJson(Query("history", "dos-games", "json"));
  ASSERT_TRUE(doc.ok());
  EXPECT_EQ(doc->Find("events")->array().at(4).Find("event")->StringOr("source"), "observed");

  EXPECT_TRUE(testing::HasTableRow(Query("status", ""),
                                   "dos-games 1.3.0 1 Deploy/Failed 13h - no"))
      << Query("status", "");
  auto status = json::ParseJson(Query("status", "dos-games", "json"));
  ASSERT_TRUE(status.ok());
  const json::Value& pkg = status->Find("packages")->array().at(0);
  EXPECT_EQ(pkg.Find("state")->StringOr("from"), "events");
  EXPECT_EQ(pkg.Find("latestEvent")->StringOr("outcome"), "Failed");
}

TEST_F(ObservedHistoryTest, StatusWithTheCacheTakesTheFullHistory) {
  AppendHistory();
  for (const std::vector<std::string>& files : {std::vector<std::string>{},
                                                std::vector<std::string>{secret_}}) {
    const std::string table = Status(files, "wide");
    EXPECT_TRUE(testing::HasTableRow(
        table, "dos-games Deploy/Failed 13h - 1.3.0 zarf-package-dos-games Deploy/Failed 13h - "
               "Deploy/Succeeded 15h - oci://ghcr.io/acme/dos sha256:" + std::string(64, 'c') +
               " baseline=Deploy/Failed"))
        << table;
    auto doc = json::ParseJson(Status(files, "json"));
    ASSERT_TRUE(doc.ok());
    const json::Value& pkg = doc->array().at(0);
    EXPECT_EQ(pkg.Find("latestEvent")->StringOr("source"), "observed");
    EXPECT_EQ(pkg.Find("state")->StringOr("from"), "events");
    EXPECT_EQ(pkg.Find("components")->array().at(0).Find("state")->StringOr("from"), "events");
  }
}

TEST_F(ObservedHistoryTest, ReplayOfTheCacheShowsObservedEvents) {
  AppendHistory();
  ReplayOptions o;
  o.db = db_;
  o.package = "dos-games";
  o.output.format = "wide";
  std::ostringstream so, se;
  ASSERT_EQ(FinishCommand(RunReplay(o, so, se), se), kExitOk) << se.str();
  EXPECT_TRUE(testing::HasTableRow(
      so.str(), "2 2026-03-01T10:00:00Z PackageEvent Deploy/InProgress version 1.3.0 "
                "Deploy/InProgress 0 - observed"))
      << so.str();
  EXPECT_TRUE(testing::HasTableRow(
      so.str(), "5 2026-03-01T10:01:00Z PackageEvent Deploy/Failed version 1.3.0 Deploy/Failed 1 "
                "baseline=Deploy/Failed observed"))
      << so.str();
}

TEST_F(ObservedHistoryTest, ReportTimelineMarksObservedEventsApart) {
  ReportOptions o;
  o.files = {secret_};
  o.db = db_;
  o.now = kNow;
  o.out = (dir_ / "report.html").string();
  auto page = [&] {
    std::ostringstream so, se;
    EXPECT_EQ(FinishCommand(RunReport(o, so, se), se), kExitOk) << se.str();
    return testing::ReadFile(o.out);
  };
  std::string before = page();
  EXPECT_NE(before.find("badge outcome-Succeeded\">stored:Succeeded"), std::string::npos);
  EXPECT_EQ(before.find("timeline-legend"), std::string::npos);
  AppendHistory();
  const std::string after = page();
  EXPECT_NE(after.find("class=\"legend timeline-legend\""), std::string::npos);
  // Two observed package events and the two component events between them.
  // An observed remove: no source (rule 5) and no configDigest.
  Append({PackageRecord("Remove", "InProgress", "2026-03-01T11:00:00Z", ""),
          PackageRecord("Remove", "Succeeded", "2026-03-01T11:00:05Z", "")});
  const std::string removed = page();
  EXPECT_NE(removed.find("outcome-InProgress observed\"><time title=\"2026-03-01T11:00:00Z\""),
            std::string::npos)
      << removed;
  EXPECT_NE(removed.find("outcome-Succeeded observed\"><time title=\"2026-03-01T11:00:05Z\""),
            std::string::npos);
  std::size_t observed = 0;
  for (std::size_t at = after.find(" observed\"><time title="); at != std::string::npos;
       at = after.find(" observed\"><time title=", at + 1)) {
    ++observed;
  }
  EXPECT_EQ(observed, 4u) << after;
  EXPECT_NE(after.find("<li class=\"event outcome-Succeeded\"><time title=\"2026-03-01T09:00:00Z\""),
            std::string::npos);
  EXPECT_NE(after.find("badge outcome-Failed\">Deploy/Failed"), std::string::npos);
}

}  // namespace
}  // namespace zs::tools
