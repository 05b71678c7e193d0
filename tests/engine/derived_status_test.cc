#include "engine/derived_status.h"

#include <gtest/gtest.h>

#include "model/model_json.h"

namespace zs::engine {
namespace {

PackageEvent Event(std::string type, std::string outcome, const char* when) {
  PackageEvent e;
  e.type = std::move(type);
  e.outcome = std::move(outcome);
  e.timestamp = *ParseRfc3339(when);
  return e;
}

TEST(DerivedStatusTest, LegacyStateHasUnknownHistory) {
  DeployedPackage pkg;
  pkg.deployed_components.emplace(1);
  EXPECT_EQ(LatestEvent(pkg), nullptr);
  EXPECT_EQ(LatestEventSummary(pkg), "Unknown");
  EXPECT_EQ(ComponentEventSummary(pkg.deployed_components->at(0)), "Unknown");
  EXPECT_FALSE(InProgressSince(pkg).has_value());
}

TEST(DerivedStatusTest, LatestAndLastSuccessfulAreFoundByTime) {
  DeployedPackage pkg;
  pkg.events = {Event("Deploy", "InProgress", "2026-01-01T00:00:00Z"),
                Event("Deploy", "Succeeded", "2026-01-01T00:01:00Z"),
                Event("Deploy", "InProgress", "2026-01-02T00:00:00Z"),
                Event("Deploy", "Failed", "2026-01-02T00:05:00Z"),
                Event("Remove", "InProgress", "2026-01-03T00:00:00Z")};
  EXPECT_EQ(LatestEventSummary(pkg), "Remove/InProgress");
  EXPECT_EQ(FormatRfc3339(LastSuccessfulDeploy(pkg)->timestamp), "2026-01-01T00:01:00Z");
  EXPECT_EQ(LatestEventOfType(pkg, "Deploy")->outcome, "Failed");
  ASSERT_TRUE(InProgressSince(pkg).has_value());
  EXPECT_EQ(FormatRfc3339(*InProgressSince(pkg)), "2026-01-03T00:00:00Z");
}

TEST(DerivedStatusTest, LatestIsTheLastRecordedEventWhateverItsDate) {
  DeployedPackage pkg;
  pkg.events = {Event("Deploy", "Succeeded", "2029-01-01T00:00:00Z"),
                Event("Remove", "InProgress", "2020-01-01T00:00:00Z"),
                Event("Deploy", "Succeeded", "2019-01-01T00:00:00Z"),
                Event("Remove", "Failed", "2020-01-01T00:00:00Z")};
  EXPECT_EQ(LatestEventSummary(pkg), "Remove/Failed");
  EXPECT_EQ(FormatRfc3339(LastSuccessfulDeploy(pkg)->timestamp), "2019-01-01T00:00:00Z");
  EXPECT_EQ(LatestEventOfType(pkg, "Deploy"), &pkg.events[2]);
  EXPECT_FALSE(InProgressSince(pkg).has_value());
  pkg.events.resize(2);
  ASSERT_TRUE(InProgressSince(pkg).has_value());
  EXPECT_EQ(FormatRfc3339(*InProgressSince(pkg)), "2020-01-01T00:00:00Z");
}

TEST(DerivedStatusTest, OpenAndOverlappedOperations) {
  DeployedPackage pkg;
  pkg.events = {Event("Deploy", "InProgress", "2026-01-01T00:00:00Z"),
                Event("Remove", "InProgress", "2026-01-01T00:01:00Z"),
                Event("Remove", "Succeeded", "2026-01-01T00:02:00Z"),
                Event("Deploy", "InProgress", "2026-01-01T00:03:00Z"),
                Event("Deploy", "Failed", "2026-01-01T00:04:00Z")};
  // The Failed closes the newest Deploy: the first one is still open.
  EXPECT_EQ(OpenOperations(pkg.events), std::vector<std::size_t>{0});
  const std::vector<Overlap> overlaps = OverlappedOperations(pkg.events);
  ASSERT_EQ(overlaps.size(), 2u);
  EXPECT_EQ(overlaps[0].begin, 0u);
  EXPECT_EQ(overlaps[0].overlapped_by, 1u);
  EXPECT_EQ(overlaps[1].begin, 0u);
  EXPECT_EQ(overlaps[1].overlapped_by, 3u);
  pkg.events.erase(pkg.events.begin());
  EXPECT_TRUE(OpenOperations(pkg.events).empty());
  EXPECT_TRUE(OverlappedOperations(pkg.events).empty());
}

}  // namespace
}  // namespace zs::engine
