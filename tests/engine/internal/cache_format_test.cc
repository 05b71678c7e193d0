#include "engine/internal/cache_format.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <utility>

#include "tests/cache_fixture.h"
#include "tests/test_random.h"

namespace zs::engine::internal {
namespace {

using testing::PackageSpec;
using testing::Snapshot;

void ExpectSameStatus(const PackageStatus& a, const PackageStatus& b) {
  EXPECT_EQ(a.package, b.package);
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.secret_name, b.secret_name);
  EXPECT_EQ(a.secret_namespace, b.secret_namespace);
  EXPECT_EQ(a.version, b.version);
  EXPECT_EQ(a.generation, b.generation);
  EXPECT_EQ(a.latest, b.latest);
  EXPECT_EQ(a.latest_time, b.latest_time);
  EXPECT_EQ(a.in_progress_since, b.in_progress_since);
  EXPECT_EQ(a.removed, b.removed);
}

PackageMeta RandomMeta(testing::Rng& rng) {
  auto text = [&](int max) {
    return testing::RandomText(rng, rng.Below(max + 1), testing::kLowerLetters);
  };
  PackageMeta m;
  m.status.package = "pkg";
  m.status.name = text(10);
  m.status.secret_name = text(20);
  m.status.secret_namespace = text(5);
  m.status.version = text(6);
  m.status.generation = static_cast<std::int64_t>(rng() % 1000);
  m.status.latest = rng() % 2 ? "Deploy/Succeeded" : "Unknown";
  if (rng() % 2) m.status.latest_time = Timestamp::FromUnixNanos(1700000000000000000LL + rng());
  if (rng() % 3 == 0) m.status.in_progress_since = Timestamp::FromUnixNanos(1700000000000000000LL);
  m.status.removed = rng() % 4 == 0;
  m.payload_hash = (std::uint64_t{rng()} << 32) | rng();
  return m;
}

TEST(CacheFormatTest, AStatusRecordDecodesToWhatWasEncoded) {
  testing::Rng rng(5);
  for (int i = 0; i < 2000; ++i) {
    const PackageMeta m = RandomMeta(rng);
    auto back = DecodeMeta("pkg", EncodeMeta(m));
    ASSERT_TRUE(back.ok()) << back.status().message();
    ExpectSameStatus(back->status, m.status);
    EXPECT_EQ(back->payload_hash, m.payload_hash);
  }
}

// Version 1 of the status record (it held the index terms) was never
// released: such a record says to rebuild, whatever follows its first byte.
TEST(CacheFormatTest, AStatusRecordOfAnUnreleasedFormatSaysToRebuild) {
  testing::Rng rng(6);
  std::string bytes = EncodeMeta(RandomMeta(rng));
  EXPECT_EQ(bytes[0], 2);
  bytes[0] = 1;
  auto old = DecodeMeta("pkg", bytes);
  ASSERT_FALSE(old.ok());
  EXPECT_EQ(old.status().code(), Status::Code::kNotSupported);
  EXPECT_EQ(old.status().message(),
            "package pkg: status record of an unreleased cache format; rebuild the cache with "
            "`zarf-state ingest` into a new directory");
  bytes[0] = 3;
  EXPECT_EQ(DecodeMeta("pkg", bytes).status().code(), Status::Code::kCorruption);
}

// Every byte changed, every truncation: refused with a message naming the
// package, or decoded.
TEST(CacheFormatTest, ADamagedStatusRecordIsRefusedNamingThePackage) {
  testing::Rng rng(9);
  int refused = 0;
  for (int i = 0; i < 40; ++i) {
    const std::string bytes = EncodeMeta(RandomMeta(rng));
    for (std::size_t p = 0; p < bytes.size(); ++p) {
      for (std::string m : {bytes.substr(0, p), bytes.substr(0, p) + bytes.substr(p + 1), bytes}) {
        if (m.size() == bytes.size()) m[p] = static_cast<char>(m[p] ^ (1 << (rng() % 8)));
        auto decoded = DecodeMeta("pkg", m);
        if (!decoded.ok()) {
          ++refused;
          EXPECT_TRUE(decoded.status().message().starts_with("package pkg: "));
        }
      }
    }
  }
  EXPECT_GT(refused, 500);
}

// The entries IndexEntries builds, as (family, key) pairs.
std::vector<std::pair<int, std::string>> EntriesOf(const IndexEntries& entries) {
  std::vector<std::pair<int, std::string>> out;
  for (const IndexEntries::Entry& e : entries.entries()) {
    out.emplace_back(e.cf, std::string(entries.key(e)));
  }
  return out;
}

// What the entries must be: AppendIndexEntryKey of each SnapshotTerm.
std::vector<std::pair<int, std::string>> EntriesOfTerms(const std::vector<IndexTerm>& terms,
                                                        std::string_view package, int format) {
  std::vector<std::pair<int, std::string>> out;
  for (const IndexTerm& t : terms) {
    std::string key;
    if (AppendIndexEntryKey(&key, t.kind, t.term, package, format)) {
      out.emplace_back(IndexCf(t.kind), std::move(key));
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// References of every shape the index meets: defaults filled in, ports,
// digests, spellings that normalise alike, and ones indexed verbatim.
const std::vector<std::string> kIndexedImages = {
    "nginx",
    "nginx:1.25",
    "docker.io/library/nginx:1.25",  // the same image as the one before
    "index.docker.io/nginx:1.25",    // and again
    "library/redis:7",
    "ghcr.io/acme/api:2.0",
    "localhost:5000/a/b",
    "127.0.0.1:31999/team/app:v1@sha256:" + std::string(64, 'b'),
    "quay.io/x/y@sha512:" + std::string(128, 'f'),
    "MyRegistry/app:1",
    "Bad Ref",        // verbatim
    "ghcr.io/Org/x",  // verbatim (uppercase path)
    "a:b:c",          // verbatim
    "Bad Ref",        // verbatim, twice
};

TEST(CacheFormatTest, IndexEntriesAreTheEntryKeysOfTheSnapshotTerms) {
  PackageSpec spec;
  spec.images = kIndexedImages;
  spec.components = {"web", "db", "web-extra"};
  const DeployedPackage pkg = Snapshot(spec, 4);
  IndexEntries entries;  // reused across builds, as ingest reuses it
  for (int format = 1; format <= kCacheFormatVersion; ++format) {
    SCOPED_TRACE("format " + std::to_string(format));
    const std::vector<IndexTerm> terms = SnapshotTerms(pkg, format < kImageEntriesFormat);
    const auto want = EntriesOfTerms(terms, "pkg-override-ns", format);
    entries.Build(pkg, "pkg-override-ns", format);
    auto got = EntriesOf(entries);
    // Sorted by family, then key, without repeats.
    EXPECT_TRUE(std::is_sorted(got.begin(), got.end()));
    EXPECT_EQ(got, want);
  }
  // Of the 14 images, 11 distinct terms; plus 3 components, the outcome
  // and the source.
  entries.Build(pkg, "pkg", kCacheFormatVersion);
  EXPECT_EQ(entries.entries().size(), 11u + 3 + 1 + 1);
}

TEST(CacheFormatTest, ImageEntryKeyOfAParsedReferenceIsThatOfItsKey) {
  for (const std::string& image : kIndexedImages) {
    ImageRefView ref;
    if (!ParseImageRef(image, &ref).ok()) continue;
    std::string key;
    AppendImageEntryKey(&key, ref, "pkg");
    EXPECT_EQ(key, ImageEntryKey(ParseImageRef(image)->Key(), "pkg")) << image;
  }
}

// Ordering two lists alike is what lets ingest merge the entries of the
// stored snapshot with those of the new one.
TEST(CacheFormatTest, IndexEntriesOfTwoSnapshotsCompareAcrossLists) {
  PackageSpec a;
  a.images = {"nginx:1.25", "redis:7"};
  PackageSpec b;
  b.images = {"nginx:1.26", "redis:7"};
  IndexEntries ea, eb;
  ea.Build(Snapshot(a, 1), "pkg", kCacheFormatVersion);
  eb.Build(Snapshot(b, 2), "pkg", kCacheFormatVersion);
  std::vector<std::string> only_a, only_b, both;
  auto x = ea.entries().begin();
  auto y = eb.entries().begin();
  while (x != ea.entries().end() || y != eb.entries().end()) {
    if (y == eb.entries().end() || (x != ea.entries().end() && ea.Less(*x, eb, *y))) {
      only_a.push_back(DescribeIndexKey(x->cf, ea.key(*x)));
      ++x;
    } else if (x == ea.entries().end() || eb.Less(*y, ea, *x)) {
      only_b.push_back(DescribeIndexKey(y->cf, eb.key(*y)));
      ++y;
    } else {
      both.push_back(DescribeIndexKey(x->cf, ea.key(*x)));
      ++x;
      ++y;
    }
  }
  EXPECT_EQ(only_a, std::vector<std::string>{"idx_image 'docker.io/library/nginx:1.25' -> pkg"});
  EXPECT_EQ(only_b, std::vector<std::string>{"idx_image 'docker.io/library/nginx:1.26' -> pkg"});
  EXPECT_EQ(both.size(), 5u);  // redis, 2 components, the outcome, the source
}

}  // namespace
}  // namespace zs::engine::internal
