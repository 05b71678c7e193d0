// DerivePackageState over what pre-ZEP Secrets store (the legacy fixtures of
// every era up to v0.84), and WithHistory, which puts a cache's full history
// (recorded and observed events) in place of a Secret's own events.
#include <gtest/gtest.h>

#include "model/model_json.h"
#include "engine/derived_status.h"
#include "engine/history_view.h"
#include "tests/test_util.h"

namespace zs::engine {
namespace {

DeployedPackage Fixture(const std::string& relative) {
  auto pkg = ParseDeployedPackage(testing::ReadData("legacy/" + relative));
  EXPECT_TRUE(pkg.ok()) << relative << ": " << pkg.status().message();
  return pkg.ok() ? *pkg : DeployedPackage{};
}

// A package whose components store `statuses` ("" stores none).
DeployedPackage Stored(const std::vector<std::string>& statuses) {
  DeployedPackage pkg;
  pkg.deployed_components.emplace();
  for (std::size_t i = 0; i < statuses.size(); ++i) {
    DeployedComponent c;
    c.name = "c" + std::to_string(i);
    c.status = statuses[i];
    pkg.deployed_components->push_back(c);
  }
  return pkg;
}

PackageEvent Event(std::string type, std::string outcome, const char* when, std::string source = "") {
  PackageEvent e;
  e.type = std::move(type);
  e.outcome = std::move(outcome);
  e.timestamp = *ParseRfc3339(when);
  e.source = std::move(source);
  return e;
}

TEST(StoredStatusTest, EveryLegacyFixtureShowsWhatItStores) {
  int stored = 0, none = 0;
  for (const auto& path : testing::LegacyFiles(".payload.json")) {
    const std::string name = path.filename().string();
    if (!name.starts_with("pkg-") || name.find("near-1mib") != std::string::npos) continue;
    const std::string era = path.parent_path().filename().string();
    SCOPED_TRACE(era + "/" + name);
    const DeployedPackage pkg = Fixture(era + "/" + name);
    // A fixture that carries a ZEP history is read from its events instead.
    if (!pkg.events.empty()) continue;
    const PackageState s = DerivePackageState(pkg);
    bool any_stored = false;
    for (const DeployedComponent& c : *pkg.deployed_components) any_stored |= !c.status.empty();
    const json::Value* md = pkg.data.Find("metadata");
    EXPECT_EQ(s.deployed_version, md ? std::string(md->StringOr("version")) : "");
    EXPECT_EQ(s.latest, nullptr);
    if (!any_stored) {
      ++none;
      EXPECT_EQ(s.basis, StatusBasis::kNone);
      EXPECT_EQ(s.status, "Unknown");
      continue;
    }
    ++stored;
    EXPECT_EQ(s.basis, StatusBasis::kStored);
    ASSERT_EQ(s.components.size(), pkg.deployed_components->size());
    for (std::size_t i = 0; i < s.components.size(); ++i) {
      EXPECT_EQ(s.components[i].basis, StatusBasis::kStored);
      EXPECT_EQ(s.components[i].status, (*pkg.deployed_components)[i].status);
    }
    if (name.find("deploying") != std::string::npos) {
      EXPECT_EQ(s.status, "Deploying");
      EXPECT_TRUE(s.interrupted);
      EXPECT_EQ(s.interrupted_component, pkg.deployed_components->back().name);
    } else if (name.find("failed") != std::string::npos) {
      // A component Removing (left by an operation) ranks before one Failed.
      EXPECT_EQ(s.status, "Removing");
      EXPECT_TRUE(s.interrupted);
    } else {
      EXPECT_EQ(s.status, "Succeeded");
      EXPECT_FALSE(s.interrupted);
    }
  }
  // Eras v0.30 to v0.41 and from v0.50 store statuses; the others none.
  EXPECT_GE(stored, 50);
  EXPECT_GE(none, 10);
}

TEST(StoredStatusTest, AFailedDeployOfV084IsFailed) {
  DeployedPackage pkg = Fixture("e22-v0.80.0-v0.84.0/pkg-realistic-init-failed.payload.json");
  for (DeployedComponent& c : *pkg.deployed_components) {
    if (c.status == "Removing") c.status = "Succeeded";
  }
  const PackageState s = DerivePackageState(pkg);
  EXPECT_EQ(s.basis, StatusBasis::kStored);
  EXPECT_EQ(s.status, "Failed");
  EXPECT_FALSE(s.interrupted);
  EXPECT_EQ(s.interrupted_component, "");
  EXPECT_EQ(s.components.back().status, "Failed");
}

TEST(StoredStatusTest, TheRuleOrdersDeployingRemovingFailedUnknownSucceeded) {
  const struct {
    std::vector<std::string> stored;
    std::string want;
    bool interrupted;
  } cases[] = {
      {{"Succeeded", "Succeeded"}, "Succeeded", false},
      {{"Succeeded", "Failed"}, "Failed", false},
      {{"Failed", "Removing", "Succeeded"}, "Removing", true},
      {{"Removing", "Deploying"}, "Deploying", true},
      {{"Succeeded", "Deploying"}, "Deploying", true},
      {{"Succeeded", ""}, "Unknown", false},  // one component stores nothing
      {{"", "Failed"}, "Failed", false},
      {{"Succeeded", "Running"}, "Unknown", false},  // outside the four
  };
  for (const auto& c : cases) {
    const PackageState s = DerivePackageState(Stored(c.stored));
    SCOPED_TRACE(c.want);
    EXPECT_EQ(s.basis, StatusBasis::kStored);
    EXPECT_EQ(s.status, c.want);
    EXPECT_EQ(s.interrupted, c.interrupted);
  }
  const PackageState mixed = DerivePackageState(Stored({"Succeeded", "Removing", "Deploying"}));
  EXPECT_EQ(mixed.interrupted_component, "c1");
  const PackageState nothing = DerivePackageState(Stored({"", ""}));
  EXPECT_EQ(nothing.basis, StatusBasis::kNone);
  EXPECT_EQ(nothing.status, "Unknown");
  EXPECT_EQ(nothing.components[0].basis, StatusBasis::kNone);
  EXPECT_EQ(DerivePackageState(DeployedPackage{}).basis, StatusBasis::kNone);
}

TEST(StoredStatusTest, EventsWinOverStoredStatuses) {
  DeployedPackage pkg = Fixture("e22-v0.80.0-v0.84.0/pkg-small-dos-games.payload.json");
  pkg.deployed_components->at(0).status = "Failed";
  PackageEvent ok = Event("Deploy", "Succeeded", "2026-01-01T00:00:00Z");
  ok.version = "1.0.0";
  pkg.events = {ok, Event("Deploy", "InProgress", "2026-01-02T00:00:00Z")};
  pkg.deployed_components->at(0).last_event =
      ComponentEvent{"Deploy", "InProgress", *ParseRfc3339("2026-01-02T00:00:01Z"), {}};
  const PackageState s = DerivePackageState(pkg);
  EXPECT_EQ(s.basis, StatusBasis::kEvents);
  EXPECT_EQ(s.status, "Deploy/InProgress");
  EXPECT_EQ(s.latest, &pkg.events.back());
  EXPECT_EQ(s.deployed_version, "1.0.0");  // the last success's, not the definition's 1.3.0
  EXPECT_FALSE(s.interrupted);
  EXPECT_EQ(s.components[0].basis, StatusBasis::kEvents);
  EXPECT_EQ(s.components[0].status, "Deploy/InProgress");
  EXPECT_EQ(StatusBasisName(s.basis), "events");
  EXPECT_EQ(StatusBasisName(StatusBasis::kStored), "stored");
  EXPECT_EQ(StatusBasisName(StatusBasis::kNone), "none");
}

TEST(StoredStatusTest, ObservedEventsAreToldFromRecordedOnes) {
  auto with_digest = [](PackageEvent e) {
    e.config_digest = "sha256:" + std::string(64, 'c');
    return e;
  };
  const std::vector<PackageEvent> events = {
      Event("Remove", "Succeeded", "2026-01-01T00:00:00Z"),  // observed before any deploy
      with_digest(Event("Remove", "Succeeded", "2026-01-01T00:00:01Z")),  // recorded
      with_digest(Event("Deploy", "Succeeded", "2026-01-02T00:00:00Z", "oci://x")),  // recorded
      Event("Remove", "InProgress", "2026-01-03T00:00:00Z"),  // observed: no digest
      Event("Deploy", "InProgress", "2026-01-04T00:00:00Z", "observed"),
      Event("Deploy", "Failed", "2026-01-04T00:01:00Z", "observed"),
      Event("Remove", "Succeeded", "2026-01-05T00:00:00Z"),  // after an observed deploy
      with_digest(Event("Remove", "Failed", "2026-01-06T00:00:00Z")),  // recorded
      Event("Deploy", "Succeeded", "2026-01-07T00:00:00Z", "oci://y"),  // recorded, no digest
      Event("Remove", "Succeeded", "2026-01-08T00:00:00Z"),  // that writer records none
  };
  EXPECT_EQ(ObservedEvents(events), (std::vector<bool>{true, false, false, true, true, true, true,
                                                       false, false, false}));
  EXPECT_TRUE(ObservedEvents({}).empty());
}

HistoryEntry PackageEntry(const PackageEvent& e) {
  HistoryEntry h;
  h.record.kind = RecordKind::kPackageEvent;
  h.record.event = e;
  return h;
}

HistoryEntry ComponentEntry(const std::string& component, const char* outcome, const char* when) {
  HistoryEntry h;
  h.record.kind = RecordKind::kComponentEvent;
  h.record.component = component;
  h.record.component_event = ComponentEvent{"Deploy", outcome, *ParseRfc3339(when), {}};
  return h;
}

TEST(HistoryViewTest, ObservedHistoryTurnsAStoredStatusIntoEvents) {
  DeployedPackage pkg = Fixture("e22-v0.80.0-v0.84.0/pkg-realistic-init-failed.payload.json");
  const std::vector<HistoryEntry> history = {
      PackageEntry(Event("Deploy", "InProgress", "2026-03-01T10:00:00Z", "observed")),
      ComponentEntry("git-server", "InProgress", "2026-03-01T10:00:05Z"),
      ComponentEntry("git-server", "Failed", "2026-03-01T10:01:00Z"),
      PackageEntry(Event("Deploy", "Failed", "2026-03-01T10:01:00Z", "observed")),
  };
  const DeployedPackage view = WithHistory(pkg, history);
  ASSERT_EQ(view.events.size(), 2u);
  EXPECT_EQ(ObservedEvents(view.events), (std::vector<bool>{true, true}));
  const PackageState s = DerivePackageState(view);
  EXPECT_EQ(s.basis, StatusBasis::kEvents);
  EXPECT_EQ(s.status, "Deploy/Failed");
  EXPECT_EQ(s.components.back().basis, StatusBasis::kEvents);
  EXPECT_EQ(s.components.back().status, "Deploy/Failed");
  EXPECT_EQ(s.components.front().basis, StatusBasis::kStored);  // no event of it
  EXPECT_EQ(view.deployed_components, [&] {
    auto comps = pkg.deployed_components;
    comps->back().last_event = history[2].record.component_event;
    return comps;
  }());
}

TEST(HistoryViewTest, EventsOfTheSecretTheCacheLacksComeAfterOnce) {
  DeployedPackage pkg;
  const PackageEvent a = Event("Deploy", "InProgress", "2026-01-01T00:00:00Z");
  const PackageEvent b = Event("Deploy", "Succeeded", "2026-01-01T00:01:00Z");
  const PackageEvent c = Event("Remove", "InProgress", "2026-01-02T00:00:00Z");
  pkg.events = {a, b, c};
  DeployedComponent web;
  web.name = "web";
  web.last_event = ComponentEvent{"Deploy", "Succeeded", *ParseRfc3339("2026-01-01T00:00:59Z"), {}};
  pkg.deployed_components.emplace(1, web);
  const DeployedPackage view =
      WithHistory(pkg, {PackageEntry(a), PackageEntry(b),
                        ComponentEntry("web", "InProgress", "2026-01-01T00:00:30Z")});
  EXPECT_EQ(view.events, (std::vector<PackageEvent>{a, b, c}));
  // The Secret's own lastEvent is later than the cache's: it stays.
  EXPECT_EQ(view.deployed_components->at(0).last_event, web.last_event);
  EXPECT_EQ(WithHistory(pkg, {}).events, pkg.events);
}

}  // namespace
}  // namespace zs::engine
