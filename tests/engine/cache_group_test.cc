// Cache::IngestGroup against the reference, one Ingest per Secret: the same
// results and, compared key by key in every column family, the same cache.
#include <gtest/gtest.h>

#include <filesystem>

#include "engine/cache.h"
#include "engine/internal/cache_db.h"
#include "tests/cache_fixture.h"
#include "tests/test_random.h"

namespace zs::engine {
namespace {

namespace fs = std::filesystem;
using testing::PackageSpec;
using testing::Payload;

struct Source {
  std::string payload, name, ns;
};

// Every key and value of every family, as "family|key|value" lines.
std::vector<std::string> Dump(const std::string& dir) {
  CacheOptions o;
  o.read_only = true;
  auto db = internal::CacheDb::Open(dir, o);
  EXPECT_TRUE(db.ok()) << db.status().message();
  std::vector<std::string> out;
  if (!db.ok()) return out;
  for (int cf = 0; cf < internal::kCfCount; ++cf) {
    const Status s = internal::ScanPrefix(**db, cf, "", [&](std::string_view k, std::string_view v) {
      out.push_back(std::string(internal::kCfNames[cf]) + "|" + std::string(k) + "|" +
                    std::string(v));
      return true;
    });
    EXPECT_TRUE(s.ok()) << s.message();
  }
  return out;
}

std::string ResultText(const Result<IngestResult>& r) {
  if (!r.ok()) return "error " + std::to_string(static_cast<int>(r.status().code()));
  return r->package + " +" + std::to_string(r->new_records) + " size " +
         std::to_string(r->log_size) + (r->snapshot_replaced ? " replaced" : "");
}

class CacheGroupTest : public ::testing::Test {
 protected:
  void SetUp() override {
    base_ = fs::path(::testing::TempDir()) /
            ("cache_group_" +
             std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(base_);
  }
  void TearDown() override { fs::remove_all(base_); }

  // Ingests `sources` one by one into one cache and in groups of the given
  // sizes (cycled) into another; expects equal results and equal caches.
  void ExpectSameAsOneByOne(const std::vector<Source>& sources, const std::vector<int>& sizes,
                            const std::string& label) {
    const std::string one_dir = (base_ / (label + "-one")).string();
    const std::string group_dir = (base_ / (label + "-group")).string();
    std::vector<std::string> one_results, group_results;
    {
      auto cache = std::move(OpenCache(one_dir)).value();
      for (const Source& s : sources) {
        one_results.push_back(ResultText(cache->Ingest({s.payload, s.name, s.ns})));
      }
    }
    {
      auto cache = std::move(OpenCache(group_dir)).value();
      std::size_t next = 0, k = 0;
      while (next < sources.size()) {
        const std::size_t n =
            std::min<std::size_t>(static_cast<std::size_t>(sizes[k++ % sizes.size()]),
                                  sources.size() - next);
        std::vector<IngestSource> group;
        for (std::size_t i = next; i < next + n; ++i) {
          group.push_back({sources[i].payload, sources[i].name, sources[i].ns});
        }
        const auto results = cache->IngestGroup(group);
        EXPECT_EQ(results.size(), n);
        for (const auto& r : results) group_results.push_back(ResultText(r));
        next += n;
      }
      auto report = cache->Verify();
      ASSERT_TRUE(report.ok());
      for (const std::string& p : report->problems) ADD_FAILURE() << label << ": " << p;
    }
    EXPECT_EQ(group_results, one_results) << label;
    const std::vector<std::string> one = Dump(one_dir), group = Dump(group_dir);
    EXPECT_FALSE(one.empty());
    EXPECT_EQ(group, one) << label;
  }

  fs::path base_;
};

TEST_F(CacheGroupTest, TheSamePackageTwiceInAGroupIsDeduplicatedAsOneByOne) {
  const PackageSpec a{.name = "a"}, b{.name = "b", .images = {"redis:7"}};
  // Successive snapshots of `a` in one group, an identical repeat, an older
  // one after a newer one, and another package in between.
  const std::vector<Source> sources = {
      {Payload(a, 3), "s-a", "zarf"}, {Payload(b, 1), "s-b", "zarf"},
      {Payload(a, 4), "s-a", "zarf"}, {Payload(a, 4), "s-a", "zarf"},
      {Payload(a, 2), "s-a", "zarf"}, {Payload(b, 9), "s-b", "other"},
  };
  ExpectSameAsOneByOne(sources, {6}, "whole");
  ExpectSameAsOneByOne(sources, {2, 1, 3}, "mixed");
}

TEST_F(CacheGroupTest, BadSecretsInAGroupFailAloneAndTheRestIsWritten) {
  const std::vector<Source> sources = {
      {Payload(PackageSpec{.name = "a"}, 2), "s-a", "zarf"},
      {"{\"name\": \"x\", \"events\": 5", "bad", "zarf"},  // truncated JSON
      {"{\"events\":[]}", "noname", "zarf"},              // no package name
      {Payload(PackageSpec{.name = "b"}, 2), "s-b", "zarf"},
      {"", "empty", "zarf"},
      {Payload(PackageSpec{.name = "a"}, 3), "s-a", "zarf"},
  };
  ExpectSameAsOneByOne(sources, {6}, "whole");
  ExpectSameAsOneByOne(sources, {4, 2}, "split");
}

TEST_F(CacheGroupTest, AnEmptyGroupWritesNothing) {
  auto cache = std::move(OpenCache((base_ / "empty").string())).value();
  EXPECT_TRUE(cache->IngestGroup({}).empty());
  EXPECT_TRUE(cache->Statuses()->empty());
}

// Random sequences: few packages (so repeats in a group are common),
// snapshots in random order (older ones add history only), overrides,
// changing Secret names, random group sizes.
TEST_F(CacheGroupTest, RandomSequencesGiveTheSameCacheAsOneByOne) {
  testing::Rng rng(7);
  for (int round = 0; round < 12; ++round) {
    const int packages = 1 + static_cast<int>(rng() % 5);
    std::vector<Source> sources;
    const int n = 1 + static_cast<int>(rng() % 40);
    for (int i = 0; i < n; ++i) {
      const int p = static_cast<int>(rng() % packages);
      PackageSpec spec{.name = "pkg-" + std::to_string(p)};
      spec.images = {"nginx:1." + std::to_string(rng() % 3), "ghcr.io/acme/p" + std::to_string(p)};
      spec.cap = 1 + rng() % 12;
      spec.last_in_progress = rng() % 4 == 0;
      DeployedPackage snap = testing::Snapshot(spec, 1 + static_cast<int>(rng() % 15));
      if (rng() % 5 == 0) snap.namespace_override = "ns" + std::to_string(rng() % 2);
      std::string payload = EncodeDeployedPackage(snap);
      if (rng() % 10 == 0) payload.resize(payload.size() / 2);  // broken
      sources.push_back({std::move(payload), "secret-" + std::to_string(rng() % 2), "zarf"});
    }
    std::vector<int> sizes;
    for (int k = 0; k < 4; ++k) sizes.push_back(1 + static_cast<int>(rng() % 10));
    ExpectSameAsOneByOne(sources, sizes, "round" + std::to_string(round));
  }
}

}  // namespace
}  // namespace zs::engine
