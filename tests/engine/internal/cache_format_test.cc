#include "engine/internal/cache_format.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

namespace zs::engine::internal {
namespace {

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

PackageMeta RandomMeta(std::mt19937& rng) {
  auto text = [&](int max) {
    std::string s(rng() % (max + 1), 'x');
    for (char& c : s) c = static_cast<char>('a' + rng() % 26);
    return s;
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
  const int terms = static_cast<int>(rng() % 120);
  for (int i = 0; i < terms; ++i) {
    m.terms.push_back({static_cast<IndexKind>(rng() % 5), text(60)});
  }
  return m;
}

// A status record as cache format 1 wrote it: version byte 1, the fields
// of today's record, then the index terms (count, then kind byte and
// length-prefixed term each).
std::string EncodeMetaFormat1(const PackageMeta& m) {
  auto varint = [](std::string* out, std::uint64_t v) {
    for (; v >= 0x80; v >>= 7) out->push_back(static_cast<char>(v | 0x80));
    out->push_back(static_cast<char>(v));
  };
  std::string out = EncodeMeta(m);
  out[0] = 1;
  varint(&out, m.terms.size());
  for (const IndexTerm& t : m.terms) {
    out.push_back(static_cast<char>(t.kind));
    varint(&out, t.term.size());
    out += t.term;
  }
  return out;
}

TEST(CacheFormatTest, StatusOnlyDecodeMatchesTheFullDecodeButForTheTerms) {
  std::mt19937 rng(5);
  for (int i = 0; i < 2000; ++i) {
    const PackageMeta m = RandomMeta(rng);
    const bool format1 = i % 2 == 1;
    const std::string bytes = format1 ? EncodeMetaFormat1(m) : EncodeMeta(m);
    auto all = DecodeMeta("pkg", bytes);
    auto status_only = DecodeMeta("pkg", bytes, MetaParts::kStatusOnly);
    ASSERT_TRUE(all.ok()) << all.status().message();
    ASSERT_TRUE(status_only.ok()) << status_only.status().message();
    ExpectSameStatus(all->status, m.status);
    ExpectSameStatus(status_only->status, m.status);
    EXPECT_EQ(all->payload_hash, m.payload_hash);
    EXPECT_EQ(status_only->payload_hash, m.payload_hash);
    EXPECT_EQ(all->has_terms, format1);
    EXPECT_EQ(status_only->has_terms, format1);
    // Today's records hold no terms; format-1 records are read with theirs.
    EXPECT_EQ(all->terms, format1 ? m.terms : std::vector<IndexTerm>{});
    EXPECT_TRUE(status_only->terms.empty());
  }
}

TEST(CacheFormatTest, TodaysRecordsLeaveTheTermsOut) {
  std::mt19937 rng(6);
  PackageMeta m = RandomMeta(rng);
  m.terms = {{IndexKind::kImage, "docker.io/library/nginx:1.25"}};
  const std::string with = EncodeMeta(m);
  m.terms.clear();
  EXPECT_EQ(with, EncodeMeta(m));
  EXPECT_EQ(with[0], 2);
}

// Every byte changed, every truncation: both decodes accept or refuse
// alike, with the same message.
TEST(CacheFormatTest, StatusOnlyDecodeRefusesExactlyWhatTheFullDecodeRefuses) {
  std::mt19937 rng(9);
  int refused = 0;
  for (int i = 0; i < 40; ++i) {
    const PackageMeta meta = RandomMeta(rng);
    const std::string bytes = i % 2 ? EncodeMetaFormat1(meta) : EncodeMeta(meta);
    for (std::size_t p = 0; p < bytes.size(); ++p) {
      for (std::string m : {bytes.substr(0, p), bytes.substr(0, p) + bytes.substr(p + 1),
                            bytes}) {
        if (m.size() == bytes.size()) m[p] = static_cast<char>(m[p] ^ (1 << (rng() % 8)));
        auto all = DecodeMeta("pkg", m);
        auto status_only = DecodeMeta("pkg", m, MetaParts::kStatusOnly);
        ASSERT_EQ(all.ok(), status_only.ok()) << p;
        if (!all.ok()) {
          ++refused;
          EXPECT_EQ(all.status().message(), status_only.status().message());
        } else {
          ExpectSameStatus(all->status, status_only->status);
        }
      }
    }
  }
  EXPECT_GT(refused, 1000);
}

}  // namespace
}  // namespace zs::engine::internal
