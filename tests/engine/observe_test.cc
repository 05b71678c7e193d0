#include "engine/observe.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "model/model_json.h"
#include "engine/cache.h"
#include "engine/lifecycle.h"
#include "tests/test_dir.h"
#include "testing/zarf_writes.h"

namespace zs::engine {
namespace {

using dev::ZarfDeploy;
using dev::ZarfRemove;
using dev::ZarfWrite;
using dev::ZarfWriter;

// "Deploy/InProgress 1.0.0" for a package event, "c0 Deploy/Succeeded" for a
// component's.
std::string Describe(const Record& r) {
  if (r.kind == RecordKind::kComponentEvent) {
    return r.component + " " + r.component_event.type + "/" + r.component_event.outcome;
  }
  return r.event.type + "/" + r.event.outcome + " " + r.event.version;
}

// Observes writes one after another, as a watcher sees them, each a second
// after the one before.
class Watcher {
 public:
  void See(const std::vector<ZarfWrite>& writes) {
    for (const ZarfWrite& w : writes) {
      ObservedWrite write;
      if (w) write.package = std::move(ParseDeployedPackage(*w)).value();
      write.seen = Timestamp::FromUnixNanos((1767225600LL + ++tick_) * 1000000000LL);
      auto steps = ObserveWrite(view_ ? &*view_ : nullptr, write);
      ASSERT_TRUE(steps.ok()) << steps.status().message();
      for (const Record& r : steps->events) {
        events_.push_back(Describe(r));
        if (r.kind == RecordKind::kPackageEvent) {
          EXPECT_EQ(r.event.source, r.event.type == kEventDeploy ? "observed" : "");
        }
      }
      for (const DeployedPackage& s : steps->steps) all_steps_.push_back(s);
      if (!steps->steps.empty()) view_ = steps->steps.back();
    }
  }
  const std::vector<std::string>& events() const { return events_; }
  const std::vector<DeployedPackage>& steps() const { return all_steps_; }
  const std::optional<DeployedPackage>& view() const { return view_; }

 private:
  std::optional<DeployedPackage> view_;
  std::vector<std::string> events_;
  std::vector<DeployedPackage> all_steps_;
  std::int64_t tick_ = 0;
};

// What `record` writes for the same operations: the Lifecycle's records.
class Recorder {
 public:
  explicit Recorder(json::Value definition) : definition_(std::move(definition)) {
    lc_.emplace(std::move(Lifecycle::Open(log_.get(), "demo")).value());
  }
  Lifecycle& lc() { return *lc_; }
  void Deploy(std::string_view version) {
    DeployRequest r;
    r.package = definition_;
    r.package.Find("metadata")->Set("version", json::Value::String(std::string(version)));
    ASSERT_TRUE(lc_->BeginDeploy(r).ok());
  }
  void Remove() { ASSERT_TRUE(lc_->BeginRemove({}).ok()); }
  // A new process, as `record abandon` is after a hard kill.
  void Reopen() {
    lc_.reset();
    lc_.emplace(std::move(Lifecycle::Open(log_.get(), "demo")).value());
  }
  std::vector<std::string> events() const {
    std::vector<std::string> out;
    const std::vector<Record> records = log_->Read("demo").value();
    for (const Record& r : records) out.push_back(Describe(r));
    return out;
  }

 private:
  json::Value definition_;
  std::unique_ptr<EventLog> log_ = NewMemoryEventLog();
  std::optional<Lifecycle> lc_;
};

void DeployEach(Recorder* rec, std::vector<std::string> comps, std::string_view fail = "") {
  for (const std::string& c : comps) {
    ASSERT_TRUE(rec->lc().ComponentStarted(c).ok());
    if (c == fail) {
      ASSERT_TRUE(rec->lc().ComponentFailed(c).ok());
      ASSERT_TRUE(rec->lc().FinishDeploy(kOutcomeFailed).ok());
      return;
    }
    ASSERT_TRUE(rec->lc().ComponentSucceeded(c, {}).ok());
  }
  ASSERT_TRUE(rec->lc().FinishDeploy(kOutcomeSucceeded).ok());
}

void RemoveEach(Recorder* rec, std::vector<std::string> comps) {
  for (const std::string& c : comps) {
    ASSERT_TRUE(rec->lc().ComponentRemoving(c).ok());
    ASSERT_TRUE(rec->lc().ComponentRemoved(c).ok());
  }
}

TEST(ObserveTest, AFullDeployIsInProgressThenEachComponentThenSucceeded) {
  ZarfWriter zarf(dev::ZarfDefinition("demo", "1.0.0", 3));
  Watcher w;
  w.See(zarf.Deploy({}));
  EXPECT_EQ(w.events(), (std::vector<std::string>{
                            "Deploy/InProgress 1.0.0", "c0 Deploy/InProgress",
                            "c0 Deploy/Succeeded", "c1 Deploy/InProgress", "c1 Deploy/Succeeded",
                            "c2 Deploy/InProgress", "c2 Deploy/Succeeded",
                            "Deploy/Succeeded 1.0.0"}));
  Recorder rec(dev::ZarfDefinition("demo", "1.0.0", 3));
  rec.Deploy("1.0.0");
  DeployEach(&rec, {"c0", "c1", "c2"});
  EXPECT_EQ(w.events(), rec.events());
}

TEST(ObserveTest, AFailingComponentFailsTheDeployAndNothingAfterIt) {
  ZarfWriter zarf(dev::ZarfDefinition("demo", "1.0.0", 4));
  Watcher w;
  w.See(zarf.Deploy({.components = {}, .fail = "c1", .stop_after = -1}));
  Recorder rec(dev::ZarfDefinition("demo", "1.0.0", 4));
  rec.Deploy("1.0.0");
  DeployEach(&rec, {"c0", "c1", "c2", "c3"}, "c1");
  EXPECT_EQ(w.events(), rec.events());
  EXPECT_EQ(w.events().back(), "Deploy/Failed 1.0.0");
  EXPECT_EQ(w.view()->FindComponent("c1")->last_event->outcome, kOutcomeFailed);
}

TEST(ObserveTest, AComponentsDeployIsANewDeployOfTheSelectedOnes) {
  ZarfWriter zarf(dev::ZarfDefinition("demo", "1.0.0", 3));
  Watcher w;
  w.See(zarf.Deploy({}));
  const std::size_t first = w.events().size();
  w.See(zarf.Deploy({.components = {"c1"}, .fail = "", .stop_after = -1}));
  const std::vector<std::string> second(w.events().begin() + first, w.events().end());
  EXPECT_EQ(second, (std::vector<std::string>{"Deploy/InProgress 1.0.0", "c1 Deploy/InProgress",
                                              "c1 Deploy/Succeeded", "Deploy/Succeeded 1.0.0"}));
}

TEST(ObserveTest, ARemoveGoesComponentByComponentThenTheSecretIsDeleted) {
  ZarfWriter zarf(dev::ZarfDefinition("demo", "1.0.0", 2));
  Watcher w;
  w.See(zarf.Deploy({}));
  w.See(zarf.Remove({}));
  Recorder rec(dev::ZarfDefinition("demo", "1.0.0", 2));
  rec.Deploy("1.0.0");
  DeployEach(&rec, {"c0", "c1"});
  rec.Remove();
  RemoveEach(&rec, {"c1", "c0"});
  ASSERT_TRUE(rec.lc().FinishRemove(kOutcomeSucceeded).ok());
  EXPECT_EQ(w.events(), rec.events());
  EXPECT_TRUE(ObservedDeleted(*w.view()));
  // The next deploy starts a new history entry, at generation 1 again.
  w.See(zarf.Deploy({}));
  EXPECT_EQ(w.events()[rec.events().size()], "Deploy/InProgress 1.0.0");
  EXPECT_EQ(w.events().back(), "Deploy/Succeeded 1.0.0");
}

TEST(ObserveTest, AChartUninstalledStartsTheRemoveBeforeItsComponentGoes) {
  ZarfWriter zarf(dev::ZarfDefinition("demo", "1.0.0", 2));
  Watcher w;
  w.See(zarf.Deploy({}));
  const std::vector<ZarfWrite> remove = zarf.Remove({});
  w.See({remove.front()});  // c1's chart uninstalled, c1 still listed
  EXPECT_EQ(std::vector<std::string>(w.events().end() - 2, w.events().end()),
            (std::vector<std::string>{"Remove/InProgress 1.0.0", "c1 Remove/InProgress"}));
}

TEST(ObserveTest, ADeployKilledMidwayIsFailedWhenTheNextOneStarts) {
  ZarfWriter zarf(dev::ZarfDefinition("demo", "1.0.0", 3));
  Watcher w;
  w.See(zarf.Deploy({.components = {}, .fail = "", .stop_after = 3}));
  EXPECT_EQ(w.events().back(), "c1 Deploy/InProgress");
  w.See(zarf.Deploy({}));
  Recorder rec(dev::ZarfDefinition("demo", "1.0.0", 3));
  rec.Deploy("1.0.0");
  ASSERT_TRUE(rec.lc().ComponentStarted("c0").ok());
  ASSERT_TRUE(rec.lc().ComponentSucceeded("c0", {}).ok());
  ASSERT_TRUE(rec.lc().ComponentStarted("c1").ok());
  rec.Reopen();
  ASSERT_TRUE(rec.lc().Abandon(kOutcomeFailed).ok());
  rec.Deploy("1.0.0");
  DeployEach(&rec, {"c0", "c1", "c2"});
  EXPECT_EQ(w.events(), rec.events());
}

TEST(ObserveTest, ARemoveFailingMidwayIsFailedWhenTheNextDeployStarts) {
  ZarfWriter zarf(dev::ZarfDefinition("demo", "1.0.0", 3));
  Watcher w;
  w.See(zarf.Deploy({}));
  w.See(zarf.Remove({.fail = "c1", .stop_after = -1}));
  EXPECT_EQ(w.events().back(), "c2 Remove/Succeeded");
  w.See(zarf.Deploy({}));
  Recorder rec(dev::ZarfDefinition("demo", "1.0.0", 3));
  rec.Deploy("1.0.0");
  DeployEach(&rec, {"c0", "c1", "c2"});
  rec.Remove();
  RemoveEach(&rec, {"c2"});
  ASSERT_TRUE(rec.lc().FinishRemove(kOutcomeFailed).ok());
  rec.Deploy("1.0.0");
  DeployEach(&rec, {"c0", "c1", "c2"});
  EXPECT_EQ(w.events(), rec.events());
}

TEST(ObserveTest, APollThatSawOnlyTheLastWriteDerivesTheWholeDeploy) {
  ZarfWriter zarf(dev::ZarfDefinition("demo", "2.0.0", 2));
  const std::vector<ZarfWrite> writes = zarf.Deploy({});
  Watcher w;
  w.See({writes.back()});
  EXPECT_EQ(w.events(), (std::vector<std::string>{
                            "Deploy/InProgress 2.0.0", "c0 Deploy/InProgress",
                            "c0 Deploy/Succeeded", "c1 Deploy/InProgress", "c1 Deploy/Succeeded",
                            "Deploy/Succeeded 2.0.0"}));
  // A view holds one event per component and no package event after a
  // component's: {Deploy, c0}, {c0, c1}, {c1}, {Deploy}.
  for (const DeployedPackage& s : w.steps()) EXPECT_EQ(s.deployed_components->size(), 2u);
  EXPECT_EQ(w.steps().size(), 4u);
}

TEST(ObserveTest, ObservingTheSameWriteAgainDerivesNothing) {
  ZarfWriter zarf(dev::ZarfDefinition("demo", "1.0.0", 2));
  const std::vector<ZarfWrite> writes = zarf.Deploy({});
  Watcher w;
  w.See(writes);
  const std::size_t n = w.events().size();
  const std::size_t steps = w.steps().size();
  w.See({writes.back()});
  EXPECT_EQ(w.events().size(), n);
  EXPECT_EQ(w.steps().size(), steps);
}

TEST(ObserveTest, AWriteWithZepEventsIsTakenAsItIs) {
  ZarfWriter zarf(dev::ZarfDefinition("demo", "1.0.0", 1));
  Watcher w;
  w.See(zarf.Deploy({}));
  DeployedPackage zep = *w.view();
  zep.events.push_back(PackageEvent{"Remove", "InProgress", {}, "1.0.0", "", "", "", "", {}});
  ObservedWrite write{zep, Timestamp::Now()};
  auto steps = ObserveWrite(&*w.view(), write);
  ASSERT_TRUE(steps.ok());
  EXPECT_TRUE(steps->taken_as_is);
  EXPECT_TRUE(steps->events.empty());
  ASSERT_EQ(steps->steps.size(), 1u);
  EXPECT_EQ(steps->steps[0], zep);
}

TEST(ObserveTest, AWriteOfAnotherPackageIsRefused) {
  ZarfWriter zarf(dev::ZarfDefinition("demo", "1.0.0", 1));
  Watcher w;
  w.See(zarf.Deploy({}));
  ZarfWriter other(dev::ZarfDefinition("other", "1.0.0", 1));
  ObservedWrite write{ParseDeployedPackage(*other.Deploy({}).back()).value(), Timestamp::Now()};
  auto steps = ObserveWrite(&*w.view(), write);
  ASSERT_FALSE(steps.ok());
  EXPECT_NE(steps.status().message().find("'other'"), std::string::npos);
}

// Storing each step in the cache keeps every derived event as history, and
// the cache's own check of the package finds nothing wrong.
TEST(ObserveTest, EachStepIngestedIsTheCachesHistory) {
  const auto dir = testing::FreshTestDir("observe");
  auto cache = std::move(OpenCache(dir.string())).value();
  ZarfWriter zarf(dev::ZarfDefinition("demo", "1.0.0", 3), "team-a");
  Watcher w;
  w.See(zarf.Deploy({.components = {}, .fail = "c2", .stop_after = -1}));
  w.See(zarf.Deploy({}));
  w.See(zarf.Remove({}));
  for (const DeployedPackage& s : w.steps()) {
    const std::string payload = EncodeDeployedPackage(s);
    ASSERT_TRUE(cache->Ingest({payload, zarf.SecretName(), "zarf"}).ok());
  }
  auto history = cache->History("demo-override-team-a", {});
  ASSERT_TRUE(history.ok()) << history.status().message();
  std::vector<std::string> logged;
  for (const HistoryEntry& e : *history) logged.push_back(Describe(e.record));
  EXPECT_EQ(logged, w.events());
  auto report = cache->Verify();
  ASSERT_TRUE(report.ok());
  EXPECT_TRUE(report->ok()) << (report->problems.empty() ? "" : report->problems[0]);
  cache.reset();
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace zs::engine
