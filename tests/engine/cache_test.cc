#include "engine/cache.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <map>

#include "model/model_json.h"
#include "kube/package_secret.h"
#include "engine/fold.h"
#include "engine/internal/cache_db.h"
#include "engine/lifecycle.h"
#include "tests/cache_fixture.h"

namespace zs::engine {
namespace {

namespace fs = std::filesystem;
using testing::PackageSpec;
using testing::Payload;

// Events as Go-exact JSON: comparable whether decoded or built in code.
std::vector<std::string> Texts(const std::vector<PackageEvent>& events) {
  std::vector<std::string> out;
  for (const PackageEvent& e : events) {
    out.emplace_back();
    AppendPackageEvent(&out.back(), e);
  }
  return out;
}

class CacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(::testing::TempDir()) /
           ("cache_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    Reopen();
  }
  void TearDown() override {
    cache_.reset();
    fs::remove_all(dir_);
  }
  void Reopen() {
    cache_.reset();
    auto c = OpenCache(dir_.string());
    ASSERT_TRUE(c.ok()) << c.status().message();
    cache_ = std::move(c).value();
  }
  IngestResult Ingest(const std::string& payload) {
    auto r = cache_->Ingest({payload, "zarf-package-x", "zarf"});
    EXPECT_TRUE(r.ok()) << r.status().message();
    return r.ok() ? *r : IngestResult{};
  }
  std::vector<std::string> Packages(const Result<std::vector<std::string>>& r) {
    EXPECT_TRUE(r.ok()) << r.status().message();
    return r.ok() ? *r : std::vector<std::string>{};
  }
  std::vector<std::string> PackageHistory(const std::string& pkg) {
    HistoryFilter f;
    f.components = false;
    auto h = cache_->History(pkg, f);
    EXPECT_TRUE(h.ok()) << h.status().message();
    std::vector<PackageEvent> out;
    if (h.ok()) {
      for (const HistoryEntry& e : *h) out.push_back(e.record.event);
    }
    return Texts(out);
  }
  void ExpectVerified() {
    auto report = cache_->Verify();
    ASSERT_TRUE(report.ok()) << report.status().message();
    for (const std::string& p : report->problems) ADD_FAILURE() << p;
  }

  fs::path dir_;
  std::unique_ptr<Cache> cache_;
};

TEST_F(CacheTest, IngestingTheSameSecretTwiceChangesNothing) {
  PackageSpec spec;
  const std::string payload = Payload(spec, 3);
  const IngestResult first = Ingest(payload);
  EXPECT_EQ(first.package, "pkg");
  EXPECT_EQ(first.new_records, 6u + 2u);  // 6 package events, 2 component lastEvents
  EXPECT_TRUE(first.snapshot_replaced);
  const IngestResult second = Ingest(payload);
  EXPECT_FALSE(second.changed());
  EXPECT_EQ(second.log_size, 8u);
  Reopen();
  EXPECT_FALSE(Ingest(payload).changed());
  EXPECT_EQ(*cache_->log().Size("pkg"), 8u);
  ExpectVerified();
}

TEST_F(CacheTest, FiftySnapshotsWithCapTenAccumulateExactlyTheFullSequence) {
  // Real snapshots: the lifecycle with Zarf's cap of 10, one Secret per step.
  auto log = NewMemoryEventLog();
  Timestamp t = Timestamp::FromUnixNanos(1700000000000000000LL);
  auto clock = [&t] {
    t = Timestamp::FromUnixNanos(t.unix_nanos() + 1000000000LL);
    return t;
  };
  auto lc = Lifecycle::Open(log.get(), "podinfo", FoldOptions{10}, clock);
  ASSERT_TRUE(lc.ok());
  int snapshots = 0;
  for (int deploy = 0; snapshots < 50; ++deploy) {
    DeployRequest req;
    req.package = *json::ParseJson(R"({"metadata":{"name":"podinfo","version":"6.)" +
                                   std::to_string(deploy) +
                                   R"(.0"},"components":[{"name":"web","images":["nginx"]}]})");
    req.source = "oci://ghcr.io/acme/podinfo";
    req.config = *json::ParseJson(R"({"Values":{"n":)" + std::to_string(deploy % 3) + "}}");
    ASSERT_TRUE(lc->BeginDeploy(req).ok());
    Ingest(EncodeDeployedPackage(lc->snapshot()));
    ASSERT_TRUE(lc->ComponentStarted("web").ok());
    ASSERT_TRUE(lc->ComponentSucceeded("web", {}).ok());
    ASSERT_TRUE(lc->FinishDeploy(deploy % 4 == 3 ? kOutcomeFailed : kOutcomeSucceeded).ok());
    const DeployedPackage& snap = lc->snapshot();
    ASSERT_LE(snap.events.size(), 10u);
    Ingest(EncodeDeployedPackage(snap));
    snapshots += 2;
  }
  auto full = Fold(*log->Read("podinfo"), FoldOptions{0});
  ASSERT_TRUE(full.ok());
  ASSERT_EQ(full->events.size(), 50u);
  EXPECT_EQ(PackageHistory("podinfo"), Texts(full->events));
  ExpectVerified();
}

TEST_F(CacheTest, ASecretsEventsJoinTheHistoryInTheOrderTheyWereRecorded) {
  // The clock went backwards between the two events: recorded as given.
  DeployedPackage pkg;
  pkg.name = "pkg";
  pkg.deployed_components.emplace(1);
  pkg.deployed_components->at(0).name = "web";
  pkg.deployed_components->at(0).last_event =
      ComponentEvent{"Deploy", "Succeeded", *ParseRfc3339("2020-01-01T00:00:00Z"), {}};
  for (auto [outcome, when] : {std::pair{"InProgress", "2029-01-01T00:00:00Z"},
                               std::pair{"Succeeded", "2020-01-01T00:00:01Z"}}) {
    PackageEvent e;
    e.type = "Deploy";
    e.outcome = outcome;
    e.timestamp = *ParseRfc3339(when);
    pkg.events.push_back(e);
  }
  Ingest(EncodeDeployedPackage(pkg));
  EXPECT_EQ(PackageHistory("pkg"), Texts(pkg.events));
  EXPECT_EQ(cache_->StatusOf("pkg")->latest, "Deploy/Succeeded");
  HistoryFilter all;
  auto h = cache_->History("pkg", all);
  ASSERT_TRUE(h.ok());
  EXPECT_EQ(h->size(), 3u);
}

TEST_F(CacheTest, SuccessiveSyntheticSnapshotsOverlapWithoutDuplicates) {
  PackageSpec spec;
  for (int d = 1; d <= 50; ++d) Ingest(Payload(spec, d));
  EXPECT_EQ(PackageHistory("pkg"), Texts(testing::DeployEvents(spec, 50)));
  ExpectVerified();
}

TEST_F(CacheTest, ImageQueriesMatchNormalisedReferencesAndRepositories) {
  PackageSpec a{.name = "a", .images = {"nginx:1.25", "ghcr.io/acme/api:2.0"}};
  PackageSpec b{.name = "b", .images = {"docker.io/library/nginx:1.26"}};
  PackageSpec c{.name = "c", .images = {"index.docker.io/library/nginx:1.25", "redis"}};
  for (const auto& s : {a, b, c}) Ingest(Payload(s, 1));
  EXPECT_EQ(Packages(cache_->FindImage("docker.io/library/nginx:1.25", false)),
            (std::vector<std::string>{"a", "c"}));
  EXPECT_EQ(Packages(cache_->FindImage("nginx", true)), (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(Packages(cache_->FindImage("redis:latest", false)), std::vector<std::string>{"c"});
  EXPECT_EQ(Packages(cache_->FindImage("ghcr.io/acme/api:2.0", false)), std::vector<std::string>{"a"});
  EXPECT_TRUE(Packages(cache_->FindImage("ghcr.io/acme/api:2.1", false)).empty());
}

TEST_F(CacheTest, ComponentOutcomeAndSourceQueriesAnswerFromTheIndexes) {
  PackageSpec a{.name = "a", .components = {"web", "db"}, .source = "oci://x/a"};
  PackageSpec b{.name = "b", .components = {"web"}, .source = "oci://x/b", .last_in_progress = true};
  Ingest(Payload(a, 2));
  Ingest(Payload(b, 3));
  EXPECT_EQ(Packages(cache_->Lookup(IndexKind::kComponent, "web")), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(Packages(cache_->Lookup(IndexKind::kComponent, "db")), std::vector<std::string>{"a"});
  EXPECT_EQ(Packages(cache_->Lookup(IndexKind::kOutcome, "Succeeded")), std::vector<std::string>{"a"});
  EXPECT_EQ(Packages(cache_->Lookup(IndexKind::kOutcome, "InProgress")), std::vector<std::string>{"b"});
  EXPECT_EQ(Packages(cache_->Lookup(IndexKind::kSource, "oci://x/b")), std::vector<std::string>{"b"});
  auto status = cache_->StatusOf("b");
  ASSERT_TRUE(status.ok());
  EXPECT_EQ(status->latest, "Deploy/InProgress");
  ASSERT_TRUE(status->in_progress_since.has_value());
  EXPECT_EQ(status->in_progress_since->seconds, 1700000030);
  EXPECT_EQ(status->version, "1.3.0");
  EXPECT_EQ(status->secret_name, "zarf-package-x");
  auto all = cache_->Statuses();
  ASSERT_TRUE(all.ok());
  ASSERT_EQ(all->size(), 2u);
  EXPECT_EQ((*all)[0].latest, "Deploy/Succeeded");
  EXPECT_FALSE((*all)[0].in_progress_since.has_value());
  EXPECT_EQ(cache_->StatusOf("nope").status().code(), Status::Code::kNotFound);
}

TEST_F(CacheTest, HistoryFiltersByTypeOutcomeAndTime) {
  PackageSpec spec;
  Ingest(Payload(spec, 4));
  HistoryFilter f;
  f.outcome = "Succeeded";
  f.components = false;
  f.since = Timestamp::FromUnixNanos(1700000022LL * 1000000000LL);
  auto h = cache_->History("pkg", f);
  ASSERT_TRUE(h.ok());
  ASSERT_EQ(h->size(), 2u);  // deploys 3 and 4
  EXPECT_EQ((*h)[0].record.event.version, "1.3.0");
  // Log order: deploy 4's InProgress (7), the two components' lastEvents
  // (8, 9) half a microsecond later, then its Succeeded.
  EXPECT_EQ((*h)[1].seq, 10u);
  f = {};
  f.type = "Remove";
  EXPECT_TRUE(cache_->History("pkg", f)->empty());
  EXPECT_EQ(cache_->History("nope", {}).status().code(), Status::Code::kNotFound);
}

TEST_F(CacheTest, ANewerSnapshotReplacesIndexEntriesAndAnOlderOneOnlyAddsHistory) {
  PackageSpec v1{.images = {"nginx:1.25"}};
  PackageSpec v2{.images = {"nginx:1.26"}};
  Ingest(Payload(v1, 12));
  Ingest(Payload(v2, 13));
  EXPECT_TRUE(Packages(cache_->FindImage("nginx:1.25", false)).empty());
  EXPECT_EQ(Packages(cache_->FindImage("nginx:1.26", false)), std::vector<std::string>{"pkg"});
  // The two Secrets held deploys 8..12 and 9..13. A Secret from long ago:
  // its events (deploys 1..5) join the history, the stored snapshot stays
  // the newest.
  const IngestResult old = Ingest(Payload(v1, 5));
  EXPECT_FALSE(old.snapshot_replaced);
  EXPECT_GT(old.new_records, 0u);
  EXPECT_EQ(cache_->StatusOf("pkg")->generation, 13);
  EXPECT_EQ(PackageHistory("pkg").size(), 2u * (5 + 6));  // deploys 1..5 and 8..13
  ExpectVerified();
}

// Snapshots are ordered by generation, not by wall time: an event dated in
// the year 3000 is kept in the history but does not hold the snapshot back.
TEST_F(CacheTest, AFutureDatedEventDoesNotPinTheSnapshot) {
  PackageSpec spec;
  DeployedPackage future = Snapshot(spec, 3);
  future.events.back().timestamp = *ParseRfc3339("3000-01-01T00:00:00Z");
  Ingest(EncodeDeployedPackage(future));
  ASSERT_EQ(cache_->StatusOf("pkg")->generation, 3);
  const IngestResult next = Ingest(Payload(spec, 4));
  EXPECT_TRUE(next.snapshot_replaced);
  EXPECT_GT(next.new_records, 0u);
  EXPECT_EQ(cache_->StatusOf("pkg")->generation, 4);
  EXPECT_EQ(cache_->StatusOf("pkg")->latest_time->seconds, 1700000041);
  // An older Secret (generation 2) ingested later does not take its place.
  Ingest(Payload(spec, 2));
  EXPECT_EQ(cache_->StatusOf("pkg")->generation, 4);
}

// The history keeps a future-dated event where it was recorded: the next
// Secret (its events and one more deploy) verifies against the log, where
// ordering by wall time put the year-3000 event after the newer deploy.
TEST_F(CacheTest, AFutureDatedEventKeepsItsPlaceInTheHistory) {
  PackageSpec spec;
  DeployedPackage older = Snapshot(spec, 3);
  older.events.back().timestamp = *ParseRfc3339("3000-01-01T00:00:00Z");
  Ingest(EncodeDeployedPackage(older));
  DeployedPackage newer = older;
  newer.generation = 4;
  const DeployedPackage four = Snapshot(spec, 4);
  newer.events.insert(newer.events.end(), four.events.end() - 2, four.events.end());
  EXPECT_GT(Ingest(EncodeDeployedPackage(newer)).new_records, 0u);
  EXPECT_EQ(cache_->StatusOf("pkg")->generation, 4);
  ExpectVerified();
}

TEST_F(CacheTest, PackagesMissingFromAFullDumpAreMarkedRemovedNotDeleted) {
  Ingest(Payload(PackageSpec{.name = "a"}, 1));
  Ingest(Payload(PackageSpec{.name = "b"}, 1));
  auto marked = cache_->MarkRemovedExcept({"a"});
  ASSERT_TRUE(marked.ok());
  EXPECT_EQ(*marked, std::vector<std::string>{"b"});
  EXPECT_TRUE(cache_->StatusOf("b")->removed);
  EXPECT_FALSE(cache_->StatusOf("a")->removed);
  EXPECT_TRUE(cache_->MarkRemovedExcept({"a"})->empty());  // idempotent
  EXPECT_EQ(PackageHistory("b").size(), 2u);
  // The package comes back: the mark goes.
  EXPECT_TRUE(Ingest(Payload(PackageSpec{.name = "b"}, 1)).snapshot_replaced);
  EXPECT_FALSE(cache_->StatusOf("b")->removed);
  ExpectVerified();
}

TEST_F(CacheTest, TheFoldRunsUnchangedOnTheRocksDbEventLog) {
  PackageSpec spec;
  Ingest(Payload(spec, 7));
  auto records = cache_->log().Read("pkg");
  ASSERT_TRUE(records.ok());
  auto folded = Fold(*records, FoldOptions{10});
  ASSERT_TRUE(folded.ok());
  EXPECT_EQ(Texts(folded->events), Texts(testing::Snapshot(spec, 7).events));
  EXPECT_EQ(*cache_->log().Packages(), std::vector<std::string>{"pkg"});
  EXPECT_EQ(cache_->log().Read("pkg", 3, 2)->size(), 2u);
  // Appending through the interface deduplicates like the memory log.
  auto again = cache_->log().Append("pkg", (*records)[0]);
  ASSERT_TRUE(again.ok());
  EXPECT_FALSE(again->appended);
  EXPECT_EQ(again->sequence, 1u);
}

TEST_F(CacheTest, ScanHistoryVisitsEveryPackagesLogInOrderInOnePass) {
  PackageSpec a, b;
  a.name = "alpha";
  b.name = "beta";
  b.components = {"only"};
  Ingest(Payload(b, 4));
  Ingest(Payload(a, 6));
  std::vector<std::pair<std::string, std::uint64_t>> seen;
  std::map<std::string, std::vector<std::string>> records;
  ASSERT_TRUE(cache_->ScanHistory([&](std::string_view package, HistoryEntry& e) {
                seen.emplace_back(std::string(package), e.seq);
                records[std::string(package)].push_back(EncodeRecord(e.record));
                return true;
              }).ok());
  for (const std::string pkg : {"alpha", "beta"}) {
    auto logged = cache_->log().Read(pkg);
    ASSERT_TRUE(logged.ok());
    std::vector<std::string> want;
    for (const Record& r : *logged) want.push_back(EncodeRecord(r));
    EXPECT_FALSE(want.empty());
    EXPECT_EQ(records[pkg], want) << pkg;
  }
  // Each package's records come together, numbered from 1.
  ASSERT_FALSE(seen.empty());
  EXPECT_EQ(seen.front().second, 1u);
  int switches = 0;
  for (std::size_t i = 1; i < seen.size(); ++i) {
    if (seen[i].first == seen[i - 1].first) {
      EXPECT_EQ(seen[i].second, seen[i - 1].second + 1);
    } else {
      ++switches;
      EXPECT_EQ(seen[i].second, 1u);
    }
  }
  EXPECT_EQ(switches, 1);
  // Returning false stops the scan.
  int visits = 0;
  ASSERT_TRUE(cache_->ScanHistory([&](std::string_view, HistoryEntry&) { return ++visits < 3; }).ok());
  EXPECT_EQ(visits, 3);
}

TEST_F(CacheTest, AMalformedPayloadIsRefusedAndNothingIsWritten) {
  auto r = cache_->Ingest({"{\"name\": \"x\", \"events\": 5", "", ""});
  EXPECT_FALSE(r.ok());
  EXPECT_TRUE(cache_->Statuses()->empty());
  EXPECT_TRUE(cache_->log().Packages()->empty());
  EXPECT_EQ(cache_->Ingest({"{\"events\":[]}", "", ""}).status().code(),
            Status::Code::kInvalidArgument);
}

TEST_F(CacheTest, VerifyReportsItsProgressPerPackageAndPerIndex) {
  Ingest(Payload(PackageSpec{.name = "a"}, 2));
  Ingest(Payload(PackageSpec{.name = "b"}, 3));
  std::vector<std::string> calls;
  auto report = cache_->Verify([&](std::string_view stage, std::uint64_t done) {
    calls.push_back(std::string(stage) + " " + std::to_string(done));
  });
  ASSERT_TRUE(report.ok());
  EXPECT_TRUE(report->ok());
  EXPECT_EQ(calls, (std::vector<std::string>{"packages 1", "packages 2", "indexes 0", "indexes 1",
                                             "indexes 2", "indexes 3"}));
  // Without a callback: the same report.
  auto plain = cache_->Verify();
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ(plain->records, report->records);
}

TEST_F(CacheTest, VerifyCatchesACorruptedIndexEntry) {
  Ingest(Payload(PackageSpec{.name = "a"}, 2));
  Ingest(Payload(PackageSpec{.name = "b", .images = {"redis:7"}}, 2));
  ExpectVerified();
  cache_.reset();
  {
    auto db = internal::CacheDb::Open(dir_.string(), {});
    ASSERT_TRUE(db.ok());
    rocksdb::WriteBatch batch;
    // b's image entry now points at a: one missing entry, one extra.
    ASSERT_TRUE(batch.Delete((*db)->cf(internal::kCfImage),
                             internal::ImageEntryKey("docker.io/library/redis:7", "b")).ok());
    ASSERT_TRUE(batch.Put((*db)->cf(internal::kCfImage),
                          internal::ImageEntryKey("docker.io/library/redis:7", "a"), "").ok());
    ASSERT_TRUE((*db)->Write(&batch).ok());
  }
  Reopen();
  auto report = cache_->Verify();
  ASSERT_TRUE(report.ok());
  ASSERT_EQ(report->problems.size(), 2u);
  EXPECT_EQ(report->problems[0], "missing index entry: idx_image 'docker.io/library/redis:7' -> b");
  EXPECT_EQ(report->problems[1], "extra index entry: idx_image 'docker.io/library/redis:7' -> a");
}

TEST_F(CacheTest, VerifyCatchesALostLogRecord) {
  Ingest(Payload(PackageSpec{}, 2));
  cache_.reset();
  {
    auto db = internal::CacheDb::Open(dir_.string(), {});
    ASSERT_TRUE(db.ok());
    rocksdb::WriteBatch batch;
    ASSERT_TRUE(batch.Delete((*db)->cf(internal::kCfLog), internal::LogKey("pkg", 4)).ok());
    ASSERT_TRUE((*db)->Write(&batch).ok());
  }
  Reopen();
  auto report = cache_->Verify();
  ASSERT_TRUE(report.ok());
  EXPECT_FALSE(report->ok());
  EXPECT_NE(report->problems[0].find("package pkg: log record 5 where 4 was due"), std::string::npos)
      << report->problems[0];
}

TEST_F(CacheTest, ADatabaseOfANewerFormatIsRefusedClearly) {
  cache_.reset();
  {
    auto db = internal::CacheDb::Open(dir_.string(), {});
    ASSERT_TRUE(db.ok());
    ASSERT_TRUE((*db)->db()->Put(rocksdb::WriteOptions(), (*db)->cf(internal::kCfDefault),
                                 std::string(internal::kFormatKey), "4").ok());
  }
  auto c = OpenCache(dir_.string());
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().code(), Status::Code::kNotSupported);
  EXPECT_EQ(c.status().message(), "cache " + dir_.string() +
                                      " was written by format version 4; this zarf-state reads "
                                      "format version 3 and older. Use a newer zarf-state, or "
                                      "ingest into a new directory");
  CacheOptions ro;
  ro.read_only = true;
  EXPECT_EQ(OpenCache(dir_.string(), ro).status().code(), Status::Code::kNotSupported);
}

// Image entries carry the reference with its length: a reference that does
// not parse is kept verbatim, whatever bytes it holds (a NUL here), and a
// repository lookup still names the right packages.
TEST_F(CacheTest, ImageEntriesHoldReferencesOfAnyBytes) {
  // Split as "docker.io/x/y" and ":1\0z": an entry of x/y's repository.
  Ingest(Payload(PackageSpec{.name = "a", .images = {"docker.io/x/y:1\\u0000z"}}, 1));
  Ingest(Payload(PackageSpec{.name = "b", .images = {"x/y:1", "x/y:2"}}, 1));
  const std::string odd("docker.io/x/y:1\0z", 17);
  EXPECT_EQ(Packages(cache_->FindImage(odd, false)), std::vector<std::string>{"a"});
  EXPECT_EQ(Packages(cache_->FindImage("x/y:1", false)), std::vector<std::string>{"b"});
  EXPECT_EQ(Packages(cache_->FindImage("docker.io/x/y:2", false)), std::vector<std::string>{"b"});
  EXPECT_EQ(Packages(cache_->FindImage("x/y", true)), (std::vector<std::string>{"a", "b"}));
  ExpectVerified();
}

std::string FormatOf(const std::filesystem::path& dir) {
  CacheOptions ro;
  ro.read_only = true;
  auto db = std::move(internal::CacheDb::Open(dir.string(), ro)).value();
  std::string v;
  EXPECT_TRUE(*db->Get(internal::kCfDefault, internal::kFormatKey, &v));
  return v;
}

// Formats 1 and 2 were never released: a cache of either is refused, read
// or written, with the way out.
TEST_F(CacheTest, ACacheOfAnUnreleasedFormatIsRefusedWithTheWayOut) {
  Ingest(Payload(PackageSpec{.name = "a", .images = {"nginx:1.25"}}, 2));
  cache_.reset();
  EXPECT_EQ(FormatOf(dir_), "3");
  {
    auto db = std::move(internal::CacheDb::Open(dir_.string(), {})).value();
    ASSERT_TRUE(db->db()->Put(rocksdb::WriteOptions(), db->cf(internal::kCfDefault),
                              std::string(internal::kFormatKey), "2").ok());
  }
  for (const bool read_only : {true, false}) {
    CacheOptions o;
    o.read_only = read_only;
    auto c = OpenCache(dir_.string(), o);
    ASSERT_FALSE(c.ok());
    EXPECT_EQ(c.status().code(), Status::Code::kNotSupported);
    EXPECT_EQ(c.status().message(),
              "cache " + dir_.string() +
                  " was written by format version 2 of an unreleased zarf-state, which this one "
                  "does not read; rebuild it with `zarf-state ingest` into a new directory");
  }
}

TEST_F(CacheTest, TheDirectoryIs0700AndItsFiles0600) {
  for (int d = 1; d <= 3; ++d) Ingest(Payload(PackageSpec{}, d));
  ASSERT_TRUE(cache_->Sync().ok());
  Reopen();  // recovery flushes the memtables into table files
  cache_.reset();
  struct stat st;
  ASSERT_EQ(::stat(dir_.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
  int files = 0;
  for (const auto& e : fs::directory_iterator(dir_)) {
    ASSERT_EQ(::stat(e.path().c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0600u) << e.path();
    ++files;
  }
  EXPECT_GT(files, 5);
}

// Without the WAL a batch is only in the memtables until Sync() flushes
// them: a read-only open (which sees table files and write-ahead logs) finds
// nothing before it, and everything, verified, after it.
TEST_F(CacheTest, WithoutTheWriteAheadLogSyncFlushesAndOnlyThenIsTheIngestOnDisk) {
  cache_.reset();
  CacheOptions bulk;
  bulk.write_ahead_log = false;
  auto c = OpenCache(dir_.string(), bulk);
  ASSERT_TRUE(c.ok()) << c.status().message();
  cache_ = std::move(c).value();
  Ingest(Payload(PackageSpec{.name = "a"}, 3));
  Ingest(Payload(PackageSpec{.name = "b"}, 2));
  CacheOptions reader;
  reader.read_only = true;
  {
    auto before = OpenCache(dir_.string(), reader);
    ASSERT_TRUE(before.ok()) << before.status().message();
    EXPECT_EQ((*before)->StatusOf("a").status().code(), Status::Code::kNotFound);
  }
  ASSERT_TRUE(cache_->Sync().ok());
  auto after = OpenCache(dir_.string(), reader);
  ASSERT_TRUE(after.ok()) << after.status().message();
  EXPECT_TRUE((*after)->StatusOf("a").ok());
  EXPECT_TRUE((*after)->StatusOf("b").ok());
  auto written = cache_->History("a", {});
  auto read = (*after)->History("a", {});
  ASSERT_TRUE(written.ok() && read.ok());
  EXPECT_GT(read->size(), 0u);
  EXPECT_EQ(read->size(), written->size());
  auto report = (*after)->Verify();
  ASSERT_TRUE(report.ok()) << report.status().message();
  EXPECT_TRUE(report->ok()) << report->problems.front();
  EXPECT_EQ(report->packages, 2u);
}

TEST_F(CacheTest, FsyncPerWriteWithoutTheWriteAheadLogIsRefused) {
  cache_.reset();
  CacheOptions o;
  o.write_ahead_log = false;
  o.sync = true;
  auto c = OpenCache(dir_.string(), o);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().code(), Status::Code::kInvalidArgument);
  EXPECT_NE(c.status().message().find("needs the write-ahead log"), std::string::npos)
      << c.status().message();
}

TEST_F(CacheTest, OpeningWithoutCreateRefusesAnEmptyDirectory) {
  CacheOptions o;
  o.create_if_missing = false;
  o.read_only = true;
  auto c = OpenCache((dir_ / "absent").string(), o);
  EXPECT_FALSE(c.ok());
}

}  // namespace
}  // namespace zs::engine
