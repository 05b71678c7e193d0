#include "engine/fold.h"

#include <gtest/gtest.h>

#include <limits>

#include "json/json_reader.h"
#include "model/model_json.h"
#include "engine/lifecycle.h"
#include "engine/record.h"
#include "tests/test_random.h"
#include "tests/test_util.h"

namespace zs::engine {
namespace {

json::Value Json(std::string_view text) { return std::move(json::ParseJson(text)).value(); }

// Drives a random but well-formed lifecycle: deploys of random component
// subsets with random failures, removes, cancels and abandons.
void RandomLifecycle(testing::Rng* rng, Lifecycle* lc, int operations) {
  auto pick = [rng](int n) { return testing::Uniform(*rng, 0, n - 1); };
  const char* comps[] = {"alpha", "beta", "gamma", "delta"};
  for (int op = 0; op < operations; ++op) {
    const int kind = pick(10);
    if (kind < 6) {
      DeployRequest r;
      r.package = Json(R"({"metadata":{"name":"pkg","version":"1.)" + std::to_string(op) + R"(.0"}})");
      r.package_digest = "sha256:" + std::to_string(pick(3));
      r.config = Json(R"({"Values":{"n":)" + std::to_string(pick(4)) + "}}");
      ASSERT_TRUE(lc->BeginDeploy(r).ok());
      bool failed = false;
      for (const char* c : comps) {
        if (pick(3) == 0) continue;  // --components leaves some out
        ASSERT_TRUE(lc->ComponentStarted(c).ok());
        if (pick(8) == 0) {
          ASSERT_TRUE(lc->Cancel().ok());
          break;
        }
        if (pick(6) == 0) {
          ASSERT_TRUE(lc->ComponentFailed(c).ok());
          failed = true;
          break;
        }
        InstalledChart chart;
        chart.namespace_ = "ns";
        chart.chart_name = std::string(c) + "-" + std::to_string(pick(2));
        if (pick(2) == 0) chart.connect_strings["ui-" + std::string(c)] = ConnectString{"ui", "/", {}};
        ASSERT_TRUE(lc->ComponentSucceeded(c, {chart}).ok());
      }
      if (!lc->running().empty()) {
        ASSERT_TRUE(lc->FinishDeploy(failed ? kOutcomeFailed : kOutcomeSucceeded).ok());
      }
    } else if (kind < 8) {
      // A remove that left no component deleted the Secret: nothing to remove.
      if (lc->secret_deleted()) continue;
      ASSERT_TRUE(lc->BeginRemove({}).ok());
      for (const char* c : comps) {
        if (lc->snapshot().FindComponent(c) == nullptr || pick(2) == 0) continue;
        ASSERT_TRUE(lc->ComponentRemoving(c).ok());
        if (pick(5) == 0) {
          ASSERT_TRUE(lc->ComponentRemoveFailed(c).ok());
        } else {
          ASSERT_TRUE(lc->ComponentRemoved(c).ok());
        }
      }
      ASSERT_TRUE(lc->FinishRemove(kOutcomeSucceeded).ok());
    } else if (kind == 8) {
      DeployRequest r;
      r.package = Json(R"({"metadata":{"name":"pkg"}})");
      ASSERT_TRUE(lc->BeginDeploy(r).ok());
      ASSERT_TRUE(lc->ComponentStarted("alpha").ok());
      ASSERT_TRUE(lc->Cancel().ok());
    } else {
      // A hard kill, then an abandon from a later session.
      DeployRequest r;
      r.package = Json(R"({"metadata":{"name":"pkg"}})");
      ASSERT_TRUE(lc->BeginDeploy(r).ok());
      ASSERT_TRUE(lc->ComponentStarted("beta").ok());
      return;
    }
  }
}

TEST(FoldPropertyTest, FoldOfTheLogEqualsWhatTheLifecycleWrote) {
  for (unsigned seed = 1; seed <= 60; ++seed) {
    testing::Rng rng(seed);
    auto log = NewMemoryEventLog();
    std::int64_t t = 1767225600LL * 1000000000LL;
    Clock clock = [&t] { return Timestamp::FromUnixNanos(t += 1000); };
    for (int session = 0; session < 3; ++session) {
      auto lc = Lifecycle::Open(log.get(), "pkg", {}, clock);
      ASSERT_TRUE(lc.ok()) << lc.status().ToString();
      if (!lc->snapshot().events.empty() && lc->snapshot().events.back().outcome == kOutcomeInProgress) {
        ASSERT_TRUE(lc->Abandon(kOutcomeCancelled).ok());
      }
      RandomLifecycle(&rng, &*lc, 8);
      auto records = log->Read("pkg");
      ASSERT_TRUE(records.ok());
      auto folded = Fold(*records);
      ASSERT_TRUE(folded.ok()) << folded.status().ToString();
      // What the lifecycle wrote is the Secret: encode it and read it back.
      const std::string written = EncodeDeployedPackage(lc->snapshot());
      EXPECT_EQ(EncodeDeployedPackage(*folded), written) << "seed " << seed;
      auto reread = ParseDeployedPackage(written);
      ASSERT_TRUE(reread.ok());
      EXPECT_EQ(EncodeDeployedPackage(*reread), written);
      EXPECT_TRUE(CompareSnapshots(*reread, *folded).empty());
    }
  }
}

TEST(FoldPropertyTest, EveryPrefixEqualsTimeTravelToItsLastRecord) {
  testing::Rng rng(99);
  auto log = NewMemoryEventLog();
  std::int64_t t = 1767225600LL * 1000000000LL;
  auto lc = Lifecycle::Open(log.get(), "pkg", {}, [&t] { return Timestamp::FromUnixNanos(t += 1000); });
  ASSERT_TRUE(lc.ok());
  RandomLifecycle(&rng, &*lc, 12);
  auto records = *log->Read("pkg");
  ASSERT_GT(records.size(), 20u);
  Folder incremental;
  for (std::size_t k = 1; k <= records.size(); ++k) {
    ASSERT_TRUE(incremental.Apply(records[k - 1]).ok());
    auto prefix = FoldPrefix(records, k);
    auto until = FoldUntil(records, records[k - 1].time());
    ASSERT_TRUE(prefix.ok() && until.ok());
    const std::string want = EncodeDeployedPackage(incremental.snapshot());
    EXPECT_EQ(EncodeDeployedPackage(*prefix), want) << k;
    EXPECT_EQ(EncodeDeployedPackage(*until), want) << k;
  }
}

TEST(FoldTest, RecordsRoundTripThroughTheirCanonicalBytesAndKeepTheirIdentity) {
  auto log = NewMemoryEventLog();
  testing::Rng rng(5);
  std::int64_t t = 1767225600LL * 1000000000LL;
  auto lc = Lifecycle::Open(log.get(), "pkg", {}, [&t] { return Timestamp::FromUnixNanos(t += 1000); });
  RandomLifecycle(&rng, &*lc, 6);
  const std::vector<Record> records = *log->Read("pkg");
  for (const Record& r : records) {
    const std::string bytes = EncodeRecord(r);
    auto back = DecodeRecord(bytes);
    ASSERT_TRUE(back.ok()) << bytes << ": " << back.status().ToString();
    EXPECT_EQ(EncodeRecord(*back), bytes);
    EXPECT_EQ(RecordId(*back), RecordId(r));
  }
}

// Caches store record identities: the canonical bytes, and so the ids, of
// every earlier version must stay what they were (these were computed by
// the first release's encoder).
TEST(FoldTest, CanonicalBytesAndIdentitiesAreStableAcrossVersions) {
  Record r;
  r.event = PackageEvent{"Deploy", "Succeeded", *ParseRfc3339("2026-03-04T05:06:07.25+01:00"),
                         "1.2.3", "", "sha256:abc", "oci://ghcr.io/x/y:1.2.3", "", {}};
  EXPECT_EQ(EncodeRecord(r),
            R"({"v":1,"kind":"PackageEvent","event":{"type":"Deploy","outcome":"Succeeded",)"
            R"("timestamp":"2026-03-04T05:06:07.25+01:00","version":"1.2.3","digest":"sha256:abc",)"
            R"("source":"oci://ghcr.io/x/y:1.2.3"}})");
  EXPECT_EQ(RecordId(r), "8afac6e01df4fad3663c554b207ab67b");
  std::string appended = "x";
  AppendPackageEventRecord(&appended, r.event);
  EXPECT_EQ(appended, "x" + EncodeRecord(r));

  Record c;
  c.kind = RecordKind::kComponentEvent;
  c.component = "web";
  c.component_event = ComponentEvent{"Deploy", "Failed", *ParseRfc3339("2026-03-04T05:06:08Z"), {}};
  EXPECT_EQ(EncodeRecord(c),
            R"({"v":1,"kind":"ComponentEvent","component":"web","event":{"type":"Deploy",)"
            R"("outcome":"Failed","timestamp":"2026-03-04T05:06:08Z"}})");
  EXPECT_EQ(RecordId(c), "96192dd0150030d182773f6712322dce");
  EXPECT_EQ(RecordIdOfBytes(EncodeRecord(c)), RecordId(c));
}

TEST(FoldTest, AppendingTheSameRecordTwiceIsDeduplicated) {
  auto log = NewMemoryEventLog();
  Record r;
  r.event = PackageEvent{"Deploy", "InProgress", *ParseRfc3339("2026-01-01T00:00:00Z"), "", "", "", "", "", {}};
  auto first = log->Append("p", r);
  auto second = log->Append("p", r);
  ASSERT_TRUE(first.ok() && second.ok());
  EXPECT_TRUE(first->appended);
  EXPECT_FALSE(second->appended);
  EXPECT_EQ(second->sequence, first->sequence);
  EXPECT_EQ(*log->Size("p"), 1u);
}

TEST(FoldTest, UnknownRecordKindsAreSkippedOnlyWhenMarkedSkippable) {
  EXPECT_EQ(DecodeRecord(R"({"v":1,"kind":"Future","skip":true})").status().code(), Status::Code::kNotFound);
  EXPECT_EQ(DecodeRecord(R"({"v":1,"kind":"Future"})").status().code(), Status::Code::kCorruption);
  EXPECT_EQ(DecodeRecord(R"({"v":2,"kind":"PackageEvent"})").status().code(), Status::Code::kNotSupported);
}

TEST(FoldTest, ALegacySecretIsABaseWithUnknownHistory) {
  const std::string payload =
      testing::ReadData("legacy/e22-v0.80.0-v0.84.0/pkg-realistic-init-failed.payload.json");
  Record base;
  base.kind = RecordKind::kBase;
  base.base = std::make_shared<const DeployedPackage>(*ParseDeployedPackage(payload));
  auto folded = Fold({base});
  ASSERT_TRUE(folded.ok());
  EXPECT_EQ(EncodeDeployedPackage(*folded), payload);
  EXPECT_TRUE(folded->events.empty());
  // A Base may only start a log.
  Folder f;
  ASSERT_TRUE(f.Apply(base).ok());
  EXPECT_FALSE(f.Apply(base).ok());
}

TEST(FoldTest, DriftReportNamesEachDifferingField) {
  const std::string payload = testing::ReadData("legacy/e22-v0.80.0-v0.84.0/pkg-small-dos-games.payload.json");
  DeployedPackage a = *ParseDeployedPackage(payload);
  DeployedPackage b = a;
  b.generation = 7;
  b.deployed_components->at(0).status = "Failed";
  b.connect_strings.erase("doom");
  auto drift = CompareSnapshots(a, b);
  ASSERT_EQ(drift.size(), 3u);
  EXPECT_EQ(drift[0].path, "generation");
  EXPECT_EQ(drift[0].stored, "1");
  EXPECT_EQ(drift[0].folded, "7");
  EXPECT_EQ(drift[1].path, "deployedComponents[0].status");
  EXPECT_EQ(drift[2].path, "connectStrings.doom");
  EXPECT_EQ(drift[2].folded, "(absent)");
  EXPECT_TRUE(CompareSnapshots(a, a).empty());
}

}  // namespace
}  // namespace zs::engine

namespace zs::engine {
namespace {

// The snapshot is marked Go-written once a package event is applied (no
// field reads as absent); only the events new since the last read are
// walked, and a Base, the cap's trimming and repeated reads keep that right.
TEST(FoldGoWrittenTest, EveryEventReadsAsGoWrittenAfterAPackageEvent) {
  for (std::size_t cap : {std::size_t{0}, std::size_t{3}}) {
    DeployedPackage base;
    base.name = "demo";
    PackageEvent old;
    old.type = std::string(kEventDeploy);
    old.outcome = std::string(kOutcomeSucceeded);
    old.unknown.absent = 0b110;  // read from a legacy Secret: fields absent
    base.events = {old, old};
    Record b;
    b.kind = RecordKind::kBase;
    b.base = std::make_shared<const DeployedPackage>(base);
    Folder folder(FoldOptions{cap});
    ASSERT_TRUE(folder.Apply(b).ok());
    EXPECT_EQ(folder.snapshot().events[0].unknown.absent, 0b110u);  // nothing applied yet
    for (int i = 0; i < 12; ++i) {
      Record e;
      e.kind = RecordKind::kPackageEvent;
      e.event = old;  // arrives with absent fields too
      e.event.outcome = std::string(i % 2 == 0 ? kOutcomeInProgress : kOutcomeSucceeded);
      ASSERT_TRUE(folder.Apply(e).ok());
      if (i % 3 == 0) continue;  // not every record is followed by a read
      for (const PackageEvent& ev : folder.snapshot().events) EXPECT_EQ(ev.unknown.absent, 0u);
    }
    EXPECT_EQ(folder.snapshot().events.size(), cap == 0 ? 14u : cap);
    for (const PackageEvent& ev : folder.snapshot().events) EXPECT_EQ(ev.unknown.absent, 0u);
  }
}

}  // namespace
}  // namespace zs::engine

namespace zs::engine {
namespace {

// A Secret may already hold generation MaxInt64 (the e07 and e22
// huge-integers fixtures); Go's int wraps on the next deploy, so does ours.
TEST(FoldTest, GenerationWrapsAtMaxInt64AsGoIntDoes) {
  auto base = std::make_shared<DeployedPackage>();
  base->name = "big";
  base->generation = std::numeric_limits<std::int64_t>::max();
  Record b;
  b.kind = RecordKind::kBase;
  b.base = base;
  Record begin;
  begin.event.type = "Deploy";
  begin.event.outcome = "InProgress";
  begin.event.timestamp = *ParseRfc3339("2026-01-01T00:00:00Z");
  Record step;
  step.kind = RecordKind::kComponentEvent;
  step.component = "app";
  step.component_event = ComponentEvent{"Deploy", "InProgress", begin.event.timestamp, {}};
  auto folded = Fold({b, begin, step});
  ASSERT_TRUE(folded.ok()) << folded.status().ToString();
  EXPECT_EQ(folded->generation, std::numeric_limits<std::int64_t>::min());
  EXPECT_EQ(folded->FindComponent("app")->observed_generation, folded->generation);
}

}  // namespace
}  // namespace zs::engine
