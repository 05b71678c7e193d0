#include "engine/lifecycle.h"

#include <gtest/gtest.h>

#include "model/config.h"
#include "json/json_reader.h"
#include "model/model_json.h"
#include "engine/derived_status.h"

namespace zs::engine {
namespace {

// A clock that ticks one second per call from a fixed start.
Clock FakeClock() {
  auto t = std::make_shared<std::int64_t>(1767225600LL * 1000000000LL);  // 2026-01-01
  return [t] {
    *t += 1000000000LL;
    return Timestamp::FromUnixNanos(*t);
  };
}

json::Value Json(std::string_view text) { return std::move(json::ParseJson(text)).value(); }

DeployRequest Request(std::string_view version = "1.0.0", std::string_view config = "{}") {
  DeployRequest r;
  r.package = Json(R"({"kind":"ZarfPackageConfig","metadata":{"name":"demo","version":")" +
                   std::string(version) + R"("},"components":[{"name":"a","images":["nginx:1.25"]},{"name":"b","images":["redis:7.2"]}]})");
  r.package_digest = "sha256:abc";
  r.source = "oci://ghcr.io/x/demo:" + std::string(version);
  r.cli_version = "v0.84.0";
  r.config = Json(config);
  return r;
}

std::string ChartKeyOf(const InstalledChart& c) { return c.namespace_ + "/" + c.chart_name; }

InstalledChart Chart(std::string ns, std::string name) {
  InstalledChart c;
  c.namespace_ = std::move(ns);
  c.chart_name = std::move(name);
  return c;
}

class LifecycleTest : public ::testing::Test {
 protected:
  Lifecycle Open(FoldOptions options = {}) {
    return std::move(Lifecycle::Open(log_.get(), "demo", options, FakeClock())).value();
  }
  void DeployAll(Lifecycle* lc, std::string_view version, std::string_view config = "{}") {
    ASSERT_TRUE(lc->BeginDeploy(Request(version, config)).ok());
    for (const char* c : {"a", "b"}) {
      ASSERT_TRUE(lc->ComponentStarted(c).ok());
      ASSERT_TRUE(lc->ComponentSucceeded(c, {Chart("ns", std::string("chart-") + c)}).ok());
    }
    ASSERT_TRUE(lc->FinishDeploy(kOutcomeSucceeded).ok());
  }
  std::unique_ptr<EventLog> log_ = NewMemoryEventLog();
};

TEST_F(LifecycleTest, ASuccessfulDeployAppendsInProgressThenSucceeded) {
  Lifecycle lc = Open();
  DeployAll(&lc, "1.0.0");
  const DeployedPackage& p = lc.snapshot();
  ASSERT_EQ(p.events.size(), 2u);
  EXPECT_EQ(p.events[0].outcome, kOutcomeInProgress);
  EXPECT_EQ(p.events[1].outcome, kOutcomeSucceeded);
  EXPECT_EQ(p.events[1].version, "1.0.0");
  EXPECT_EQ(p.events[1].digest, "sha256:abc");
  EXPECT_EQ(p.generation, 2);  // one step per component deployed, as Zarf counts
  ASSERT_EQ(p.deployed_components->size(), 2u);
  EXPECT_EQ(p.deployed_components->at(0).status, kStatusSucceeded);
  EXPECT_EQ(p.deployed_components->at(0).last_event->outcome, kOutcomeSucceeded);
  EXPECT_EQ(p.deployed_components->at(1).installed_charts->at(0).chart_name, "chart-b");
  EXPECT_EQ(p.config_digest, p.events[1].config_digest);
  EXPECT_TRUE(p.deploy_config.has_value());
}

TEST_F(LifecycleTest, EventsAreNeverEditedAndCancelledIsAppendedToo) {
  Lifecycle lc = Open();
  DeployAll(&lc, "1.0.0");
  const std::vector<PackageEvent> before = lc.snapshot().events;
  ASSERT_TRUE(lc.BeginDeploy(Request("1.1.0")).ok());
  ASSERT_TRUE(lc.ComponentStarted("a").ok());
  ASSERT_TRUE(lc.Cancel().ok());
  const DeployedPackage& p = lc.snapshot();
  ASSERT_EQ(p.events.size(), 4u);
  EXPECT_EQ(p.events[0], before[0]);
  EXPECT_EQ(p.events[1], before[1]);
  EXPECT_EQ(p.events[3].type, kEventDeploy);
  EXPECT_EQ(p.events[3].outcome, kOutcomeCancelled);
  // The in-progress component says Cancelled; its deprecated status keeps
  // the value Deploying had given it (Cancelled has no old equivalent).
  EXPECT_EQ(p.FindComponent("a")->last_event->outcome, kOutcomeCancelled);
  EXPECT_EQ(p.FindComponent("a")->status, kStatusDeploying);
  // Rule 6: a cancelled deploy does not replace the recorded config.
  EXPECT_EQ(p.config_digest, before[1].config_digest);
}

TEST_F(LifecycleTest, RetentionEvictsTheOldestAtTheCap) {
  Lifecycle lc = Open(FoldOptions{.max_events = 10});
  for (int i = 0; i < 7; ++i) DeployAll(&lc, "1.0." + std::to_string(i));
  const DeployedPackage& p = lc.snapshot();
  ASSERT_EQ(p.events.size(), 10u);
  // 14 events were appended; the first 4 (versions 1.0.0 and 1.0.1) are gone.
  EXPECT_EQ(p.events.front().version, "1.0.2");
  EXPECT_EQ(p.events.back().version, "1.0.6");
  auto all = log_->Read("demo");
  auto uncapped = Fold(*all, FoldOptions{.max_events = 0});
  ASSERT_TRUE(uncapped.ok());
  EXPECT_EQ(uncapped->events.size(), 14u);
}

TEST_F(LifecycleTest, LastEventIsOverwrittenAndStatusFollowsIt) {
  Lifecycle lc = Open();
  ASSERT_TRUE(lc.BeginDeploy(Request()).ok());
  ASSERT_TRUE(lc.ComponentStarted("a").ok());
  EXPECT_EQ(lc.snapshot().FindComponent("a")->status, kStatusDeploying);
  EXPECT_EQ(lc.snapshot().FindComponent("b"), nullptr);  // not reached: no entry
  ASSERT_TRUE(lc.ComponentFailed("a").ok());
  EXPECT_EQ(lc.snapshot().FindComponent("a")->status, kStatusFailed);
  EXPECT_EQ(lc.snapshot().FindComponent("a")->last_event->outcome, kOutcomeFailed);
  ASSERT_TRUE(lc.FinishDeploy(kOutcomeFailed).ok());
  ASSERT_TRUE(lc.BeginRemove({}).ok());
  ASSERT_TRUE(lc.ComponentRemoving("a").ok());
  EXPECT_EQ(lc.snapshot().FindComponent("a")->status, kStatusRemoving);
  EXPECT_EQ(lc.snapshot().FindComponent("a")->last_event->type, kEventRemove);
  ASSERT_TRUE(lc.ComponentRemoveFailed("a").ok());
  EXPECT_EQ(lc.snapshot().FindComponent("a")->status, kStatusFailed);
}

TEST_F(LifecycleTest, FailedDeployKeepsTheLastSuccessfulConfig) {
  Lifecycle lc = Open();
  DeployAll(&lc, "1.0.0", R"({"Values":{"replicas":1}})");
  const std::string good = lc.snapshot().config_digest;
  const json::Value good_config = *lc.snapshot().deploy_config;
  ASSERT_TRUE(lc.BeginDeploy(Request("1.1.0", R"({"Values":{"replicas":2}})")).ok());
  ASSERT_TRUE(lc.ComponentStarted("a").ok());
  ASSERT_TRUE(lc.ComponentFailed("a").ok());
  ASSERT_TRUE(lc.FinishDeploy(kOutcomeFailed).ok());
  EXPECT_EQ(lc.snapshot().config_digest, good);
  EXPECT_EQ(*lc.snapshot().deploy_config, good_config);
  EXPECT_NE(lc.snapshot().events.back().config_digest, good);  // every event has its own
  DeployAll(&lc, "1.2.0", R"({"Values":{"replicas":3}})");
  EXPECT_NE(lc.snapshot().config_digest, good);
}

TEST_F(LifecycleTest, PartialDeployKeepsUntouchedComponents) {
  Lifecycle lc = Open();
  DeployAll(&lc, "1.0.0");
  const DeployedComponent b_before = *lc.snapshot().FindComponent("b");
  ASSERT_TRUE(lc.BeginDeploy(Request("1.1.0")).ok());
  ASSERT_TRUE(lc.ComponentStarted("a").ok());
  ASSERT_TRUE(lc.ComponentSucceeded("a", {}).ok());
  ASSERT_TRUE(lc.FinishDeploy(kOutcomeSucceeded).ok());
  ASSERT_NE(lc.snapshot().FindComponent("b"), nullptr);
  EXPECT_EQ(*lc.snapshot().FindComponent("b"), b_before);
}

TEST_F(LifecycleTest, UndigestableConfigIsRefusedBeforeAnyChange) {
  Lifecycle lc = Open();
  DeployAll(&lc, "1.0.0");
  const std::string before = EncodeDeployedPackage(lc.snapshot());
  const std::uint64_t size = *log_->Size("demo");
  Status s = lc.BeginDeploy(Request("2.0.0", R"({"Values":{"x":1e999}})"));
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.code(), Status::Code::kInvalidArgument);
  Status wrong = lc.BeginDeploy(Request("2.0.0", R"({"SetVariables":[1]})"));
  EXPECT_FALSE(wrong.ok());
  Status remove = lc.BeginRemove(RemoveRequest{Json(R"({"Values":{"x":-1e999}})")});
  EXPECT_FALSE(remove.ok());
  EXPECT_EQ(EncodeDeployedPackage(lc.snapshot()), before);
  EXPECT_EQ(*log_->Size("demo"), size);
  EXPECT_EQ(lc.running(), "");
}

TEST_F(LifecycleTest, DigestsAreDeterministicUnderKeyOrderAndChangeWithEachField) {
  auto digest = [](std::string_view config) {
    auto c = DecodeDeployConfig(Json(config));
    return *DeployConfigDigest(*c);
  };
  EXPECT_EQ(digest(R"({"Values":{"a":1,"b":{"c":2,"d":3}},"SetVariables":{"X":"1","Y":"2"}})"),
            digest(R"({"SetVariables":{"Y":"2","X":"1"},"Values":{"b":{"d":3,"c":2},"a":1}})"));
  const std::string base = digest(R"({})");
  EXPECT_NE(digest(R"({"SetVariables":{"X":"1"}})"), base);
  EXPECT_NE(digest(R"({"Values":{"a":1}})"), base);
  EXPECT_NE(digest(R"({"NamespaceOverride":"ns"})"), base);
  EXPECT_NE(digest(R"({"ValuesOverridesMap":{"c":{"h":{"a":1}}}})"), base);
  // Imperative options are not part of the config: Go ignores them.
  EXPECT_EQ(digest(R"({"Timeout":"5m","Retries":3,"AdoptExistingResources":true})"), base);
  auto remove = [](std::string_view config) {
    auto c = DecodeRemoveConfig(Json(config));
    return *RemoveConfigDigest(*c);
  };
  EXPECT_EQ(remove(R"({"Values":{"a":1,"b":2}})"), remove(R"({"Values":{"b":2,"a":1}})"));
  EXPECT_NE(remove(R"({"Values":{"a":1}})"), remove(R"({})"));
  EXPECT_EQ(remove(R"({"Timeout":"1m"})"), remove(R"({})"));
}

TEST_F(LifecycleTest, SourceIsScrubbedAndSetOnDeployEventsOnly) {
  Lifecycle lc = Open();
  DeployRequest r = Request();
  r.source = "https://user:hunter2@registry.example.com/pkgs/demo.tar.zst?token=abc&arch=amd64";
  ASSERT_TRUE(lc.BeginDeploy(r).ok());
  ASSERT_TRUE(lc.ComponentSucceeded("a", {}).ok());
  ASSERT_TRUE(lc.FinishDeploy(kOutcomeSucceeded).ok());
  // A remove that leaves a component: the Secret, and its events, stay.
  ASSERT_TRUE(lc.BeginRemove({}).ok());
  ASSERT_TRUE(lc.FinishRemove(kOutcomeSucceeded).ok());
  const auto& events = lc.snapshot().events;
  EXPECT_EQ(events[0].source, "https://registry.example.com/pkgs/demo.tar.zst?arch=amd64");
  EXPECT_EQ(events[1].source, events[0].source);
  EXPECT_EQ(events[2].source, "");
  EXPECT_EQ(events[3].source, "");
  EXPECT_EQ(EncodeDeployedPackage(lc.snapshot()).find("hunter2"), std::string::npos);
}

TEST_F(LifecycleTest, OutOfOrderCallsAreRefused) {
  Lifecycle lc = Open();
  EXPECT_FALSE(lc.ComponentStarted("a").ok());
  EXPECT_FALSE(lc.FinishDeploy(kOutcomeSucceeded).ok());
  EXPECT_FALSE(lc.Cancel().ok());
  ASSERT_TRUE(lc.BeginDeploy(Request()).ok());
  EXPECT_FALSE(lc.BeginDeploy(Request()).ok());
  EXPECT_FALSE(lc.BeginRemove({}).ok());
  EXPECT_FALSE(lc.FinishDeploy("Cancelled").ok());
  EXPECT_FALSE(lc.ComponentRemoved("a").ok());
}

TEST_F(LifecycleTest, AbandonClosesWhatAHardKillLeftInProgress) {
  {
    Lifecycle killed = Open();
    ASSERT_TRUE(killed.BeginDeploy(Request()).ok());
    ASSERT_TRUE(killed.ComponentStarted("a").ok());
    // The process dies here: no Cancel.
  }
  Lifecycle lc = Open();
  EXPECT_TRUE(InProgressSince(lc.snapshot()).has_value());
  ASSERT_TRUE(lc.Abandon(kOutcomeFailed).ok());
  EXPECT_EQ(LatestEventSummary(lc.snapshot()), "Deploy/Failed");
  EXPECT_EQ(lc.snapshot().FindComponent("a")->last_event->outcome, kOutcomeFailed);
  EXPECT_FALSE(lc.Abandon(kOutcomeFailed).ok());  // nothing left in progress
}

TEST_F(LifecycleTest, RemovedComponentsLeaveTheSnapshot) {
  Lifecycle lc = Open();
  DeployAll(&lc, "1.0.0");
  ASSERT_TRUE(lc.BeginRemove({}).ok());
  ASSERT_TRUE(lc.ComponentRemoving("b").ok());
  ASSERT_TRUE(lc.ComponentRemoved("b").ok());
  ASSERT_TRUE(lc.FinishRemove(kOutcomeSucceeded).ok());
  EXPECT_EQ(lc.snapshot().FindComponent("b"), nullptr);
  EXPECT_NE(lc.snapshot().FindComponent("a"), nullptr);
  EXPECT_FALSE(lc.BeginRemove({}).ok() && lc.ComponentRemoving("b").ok());
}


DeployRequest Definition(std::string_view version, std::string_view components) {
  DeployRequest r = Request(version);
  r.package = Json(R"({"kind":"ZarfPackageConfig","metadata":{"name":"demo","version":")" +
                   std::string(version) + R"("},"components":)" + std::string(components) + "}");
  return r;
}

void DeployEach(Lifecycle* lc, const DeployRequest& r, std::vector<std::string> components) {
  ASSERT_TRUE(lc->BeginDeploy(r).ok());
  for (const std::string& c : components) {
    ASSERT_TRUE(lc->ComponentStarted(c).ok());
    ASSERT_TRUE(lc->ComponentSucceeded(c, {}).ok());
  }
  ASSERT_TRUE(lc->FinishDeploy(kOutcomeSucceeded).ok());
}

TEST_F(LifecycleTest, AKeptComponentKeepsItsDefinitionAfterTheNewOnes) {
  Lifecycle lc = Open();
  const std::string extra =
      R"({"name":"extra","images":["busybox:1.36"],"actions":{"onRemove":{"before":[{"cmd":"echo bye"}]}}})";
  DeployEach(&lc, Definition("1.0.0", R"([{"name":"a"},)" + extra + "]"), {"a", "extra"});
  DeployEach(&lc, Definition("2.0.0", R"([{"name":"b"},{"name":"a","images":["nginx:1"]}])"),
             {"b", "a"});
  const json::Value& comps = *lc.snapshot().data.Find("components");
  ASSERT_EQ(comps.array().size(), 3u);
  EXPECT_EQ(comps.array()[0].StringOr("name"), "b");
  EXPECT_EQ(comps.array()[1], Json(R"({"name":"a","images":["nginx:1"]})"));  // the new one wins
  EXPECT_EQ(comps.array()[2], Json(extra));
  EXPECT_EQ(lc.snapshot().data.Find("metadata")->StringOr("version"), "2.0.0");
  // Still kept by the next deploy; gone from the definition once removed
  // and the package deployed again.
  DeployEach(&lc, Definition("3.0.0", R"([{"name":"a"}])"), {"a"});
  EXPECT_EQ(lc.snapshot().data.Find("components")->array().back(), Json(extra));
  ASSERT_TRUE(lc.BeginRemove({}).ok());
  ASSERT_TRUE(lc.ComponentRemoved("extra").ok());
  ASSERT_TRUE(lc.FinishRemove(kOutcomeSucceeded).ok());
  DeployEach(&lc, Definition("4.0.0", R"([{"name":"a"}])"), {"a"});
  EXPECT_EQ(lc.snapshot().data.Find("components")->array().size(), 2u);  // a, and b kept
}

TEST_F(LifecycleTest, ChartsMergeByNamespaceAndNameAsZarfMergesThem) {
  Lifecycle lc = Open();
  ASSERT_TRUE(lc.BeginDeploy(Request()).ok());
  ASSERT_TRUE(lc.ComponentSucceeded("a", {Chart("ns", "x"), Chart("ns", "y")}).ok());
  ASSERT_TRUE(lc.FinishDeploy(kOutcomeSucceeded).ok());
  InstalledChart y_again = Chart("ns", "y");
  y_again.status = std::string(kStatusFailed);
  y_again.connect_strings["ui"] = ConnectString{"the ui", "/", {}};
  ASSERT_TRUE(lc.BeginDeploy(Request("1.1.0")).ok());
  ASSERT_TRUE(lc.ComponentSucceeded("a", {Chart("other", "x"), y_again}).ok());
  ASSERT_TRUE(lc.FinishDeploy(kOutcomeSucceeded).ok());
  const std::vector<InstalledChart>& charts = *lc.snapshot().FindComponent("a")->installed_charts;
  ASSERT_EQ(charts.size(), 3u);
  EXPECT_EQ(ChartKeyOf(charts[0]), "ns/x");  // not installed again: kept
  EXPECT_EQ(charts[0].status, kStatusSucceeded);
  EXPECT_EQ(ChartKeyOf(charts[1]), "ns/y");  // installed again: new status, connect strings
  EXPECT_EQ(charts[1].status, kStatusFailed);
  EXPECT_EQ(charts[1].connect_strings.count("ui"), 1u);
  EXPECT_EQ(ChartKeyOf(charts[2]), "other/x");  // new: after the existing ones
  EXPECT_EQ(lc.snapshot().connect_strings.count("ui"), 1u);
}

TEST_F(LifecycleTest, GenerationRisesOncePerComponentDeployed) {
  Lifecycle lc = Open();
  DeployAll(&lc, "1.0.0");
  EXPECT_EQ(lc.snapshot().generation, 2);
  EXPECT_EQ(lc.snapshot().FindComponent("a")->observed_generation, 1);
  EXPECT_EQ(lc.snapshot().FindComponent("b")->observed_generation, 2);
  DeployEach(&lc, Request("1.1.0"), {"b"});
  EXPECT_EQ(lc.snapshot().generation, 3);
  EXPECT_EQ(lc.snapshot().FindComponent("a")->observed_generation, 1);
  EXPECT_EQ(lc.snapshot().FindComponent("b")->observed_generation, 3);
  // A step recorded as Succeeded without its InProgress is an attempt too.
  ASSERT_TRUE(lc.BeginDeploy(Request("1.2.0")).ok());
  ASSERT_TRUE(lc.ComponentSucceeded("a", {}).ok());
  ASSERT_TRUE(lc.FinishDeploy(kOutcomeSucceeded).ok());
  EXPECT_EQ(lc.snapshot().generation, 4);
}

// Zarf reads the Secret's generation only for a component that needs the
// cluster; one that does not is written at 1, and so is the package.
TEST_F(LifecycleTest, AComponentThatNeedsNoClusterIsRecordedAtGenerationOne) {
  Lifecycle lc = Open();
  DeployAll(&lc, "1.0.0");
  DeployRequest local = Request("1.1.0");
  local.package.Find("components")->array()[1] = Json(R"({"name":"b","actions":{}})");
  DeployEach(&lc, local, {"a", "b"});
  EXPECT_EQ(lc.snapshot().FindComponent("a")->observed_generation, 3);
  EXPECT_EQ(lc.snapshot().FindComponent("b")->observed_generation, 1);
  EXPECT_EQ(lc.snapshot().generation, 1);
}

TEST_F(LifecycleTest, ARemoveThatLeavesNoComponentDeletesTheSecret) {
  Lifecycle lc = Open();
  DeployAll(&lc, "1.0.0");
  ASSERT_TRUE(lc.BeginRemove({}).ok());
  ASSERT_TRUE(lc.ComponentRemoved("b").ok());
  ASSERT_TRUE(lc.ComponentRemoved("a").ok());
  ASSERT_TRUE(lc.FinishRemove(kOutcomeSucceeded).ok());
  EXPECT_TRUE(lc.secret_deleted());
  EXPECT_TRUE(lc.snapshot().events.empty());
  EXPECT_EQ(lc.BeginRemove({}).code(), Status::Code::kNotFound);  // nothing left to remove
  // The next deploy starts a new Secret, as Zarf's does; the log keeps all.
  DeployAll(&lc, "1.1.0");
  EXPECT_FALSE(lc.secret_deleted());
  EXPECT_EQ(lc.snapshot().generation, 2);
  EXPECT_EQ(lc.snapshot().events.size(), 2u);
  EXPECT_EQ(Fold(*log_->Read("demo"), FoldOptions{0})->events.size(), 2u);
  EXPECT_EQ(log_->Read("demo")->size(), 16u);
}

TEST_F(LifecycleTest, ANewOperationIsRefusedWhileAnotherIsInProgress) {
  {
    Lifecycle killed = Open();
    ASSERT_TRUE(killed.BeginDeploy(Request("1.0.0")).ok());
  }
  Lifecycle lc = Open();
  const std::uint64_t size = *log_->Size("demo");
  Status remove = lc.BeginRemove({});
  EXPECT_EQ(remove.code(), Status::Code::kInvalidArgument);
  EXPECT_NE(remove.message().find("a Deploy of version 1.0.0 has been InProgress since"),
            std::string::npos)
      << remove.message();
  EXPECT_NE(remove.message().find("record abandon"), std::string::npos);
  EXPECT_FALSE(lc.BeginDeploy(Request("1.1.0")).ok());
  EXPECT_EQ(*log_->Size("demo"), size);
  ASSERT_TRUE(lc.Abandon(kOutcomeCancelled).ok());
  EXPECT_TRUE(lc.BeginRemove({}).ok());
}

TEST_F(LifecycleTest, AbandonClosesEveryOpenOperation) {
  // Overlapping operations, as an older zarf-state let them be recorded.
  auto event = [](std::string type, std::int64_t second) {
    Record r;
    r.event.type = std::move(type);
    r.event.outcome = std::string(kOutcomeInProgress);
    r.event.timestamp = Timestamp::FromUnixNanos(second * 1000000000LL);
    return r;
  };
  Record component;
  component.kind = RecordKind::kComponentEvent;
  component.component = "a";
  component.component_event = ComponentEvent{"Deploy", "InProgress",
                                             Timestamp::FromUnixNanos(1767225650LL * 1000000000LL), {}};
  ASSERT_TRUE(log_->Append("demo", event("Deploy", 1767225600)).ok());
  ASSERT_TRUE(log_->Append("demo", component).ok());
  ASSERT_TRUE(log_->Append("demo", event("Remove", 1767225700)).ok());
  Lifecycle lc = Open();
  ASSERT_EQ(OpenOperations(lc.snapshot().events).size(), 2u);
  ASSERT_TRUE(lc.Abandon(kOutcomeFailed).ok());
  const std::vector<PackageEvent>& events = lc.snapshot().events;
  ASSERT_EQ(events.size(), 4u);
  EXPECT_EQ(events[2].type + "/" + events[2].outcome, "Remove/Failed");
  EXPECT_EQ(events[3].type + "/" + events[3].outcome, "Deploy/Failed");
  EXPECT_TRUE(OpenOperations(events).empty());
  EXPECT_EQ(ComponentEventSummary(*lc.snapshot().FindComponent("a")), "Deploy/Failed");
  EXPECT_FALSE(lc.Abandon(kOutcomeFailed).ok());
}

TEST_F(LifecycleTest, TimestampsAreStoredAsTheClockGivesThemAndABackwardsClockWarns) {
  std::vector<std::int64_t> seconds = {1861920000 /* 2029 */, 1577836800 /* 2020 */,
                                       1577836801, 1577836802};
  std::size_t i = 0;
  Clock clock = [&] { return Timestamp::FromUnixNanos(seconds[std::min(i++, seconds.size() - 1)] * 1000000000LL); };
  Lifecycle lc = std::move(Lifecycle::Open(log_.get(), "demo", {}, clock)).value();
  ASSERT_TRUE(lc.BeginDeploy(Request()).ok());
  EXPECT_TRUE(lc.TakeWarnings().empty());
  ASSERT_TRUE(lc.ComponentSucceeded("a", {}).ok());
  const std::vector<std::string> warnings = lc.TakeWarnings();
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("clock went backwards"), std::string::npos);
  ASSERT_TRUE(lc.FinishDeploy(kOutcomeSucceeded).ok());
  const DeployedPackage& p = lc.snapshot();
  EXPECT_EQ(FormatRfc3339(p.events.back().timestamp), "2020-01-01T00:00:01Z");
  EXPECT_EQ(FormatRfc3339(p.FindComponent("a")->last_event->timestamp), "2020-01-01T00:00:00Z");
  // The last recorded event is the latest, whatever its date.
  EXPECT_EQ(LatestEventSummary(p), "Deploy/Succeeded");
}

}  // namespace
}  // namespace zs::engine
