#include "engine/internal/canonical_record.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "json/json_reader.h"
#include "engine/record.h"

namespace zs::engine::internal {
namespace {

// Field by field, including what operator== of Timestamp ignores (the
// offset), so any difference between the two decoders shows.
void ExpectSameRecord(const Record& a, const Record& b, const std::string& bytes) {
  SCOPED_TRACE(bytes);
  EXPECT_EQ(a.kind, b.kind);
  EXPECT_EQ(a.base == nullptr, b.base == nullptr);
  EXPECT_EQ(a.facts == nullptr, b.facts == nullptr);
  EXPECT_EQ(a.event, b.event);
  EXPECT_EQ(a.event.timestamp.offset_seconds, b.event.timestamp.offset_seconds);
  EXPECT_EQ(a.component, b.component);
  EXPECT_EQ(a.component_event, b.component_event);
  EXPECT_EQ(a.component_event.timestamp.offset_seconds,
            b.component_event.timestamp.offset_seconds);
  EXPECT_EQ(a.charts, b.charts);
  EXPECT_EQ(EncodeRecord(a), EncodeRecord(b));
}

std::string RandomText(std::mt19937& rng, bool printable_only) {
  static const std::string kAlphabet = "abcXYZ0123456789:/.-_@ +";
  std::uniform_int_distribution<int> len(0, 12), pick(0, static_cast<int>(kAlphabet.size()) - 1);
  std::string s;
  const int n = len(rng);
  for (int i = 0; i < n; ++i) s.push_back(kAlphabet[pick(rng)]);
  if (!printable_only && rng() % 4 == 0) {
    const char* odd[] = {"\"", "\\", "\n", "\xc3\xa9", "\x7f", "<&>"};
    s += odd[rng() % 6];
  }
  return s;
}

Timestamp RandomTime(std::mt19937& rng) {
  Timestamp t = Timestamp::FromUnixNanos(
      static_cast<std::int64_t>(rng() % 2000000000u) * 1000000000LL +
      (rng() % 3 == 0 ? static_cast<std::int64_t>(rng() % 1000000000u) : 0));
  if (rng() % 4 == 0) t.offset_seconds = (static_cast<int>(rng() % 48) - 24) * 1800;
  if (rng() % 10 == 0) t = Timestamp{};  // Go's zero time
  return t;
}

// A random event record as the cache logs them: any subset of optional
// fields, sometimes odd strings (which the canonical path must decline).
Record RandomRecord(std::mt19937& rng, bool printable_only) {
  Record r;
  const char* types[] = {"Deploy", "Remove", ""};
  const char* outcomes[] = {"InProgress", "Succeeded", "Failed", "Cancelled", ""};
  if (rng() % 2 == 0) {
    r.kind = RecordKind::kPackageEvent;
    r.event.type = types[rng() % 3];
    r.event.outcome = outcomes[rng() % 5];
    r.event.timestamp = RandomTime(rng);
    for (std::string* f : {&r.event.version, &r.event.flavor, &r.event.digest, &r.event.source,
                           &r.event.config_digest}) {
      if (rng() % 2 == 0) *f = RandomText(rng, printable_only);
    }
  } else {
    r.kind = RecordKind::kComponentEvent;
    r.component = RandomText(rng, printable_only);
    r.component_event.type = types[rng() % 3];
    r.component_event.outcome = outcomes[rng() % 5];
    r.component_event.timestamp = RandomTime(rng);
  }
  return r;
}

TEST(CanonicalRecordTest, DecodesEveryCanonicalEventRecordAsTheTreeDecoderDoes) {
  std::mt19937 rng(7);
  for (int i = 0; i < 20000; ++i) {
    const std::string bytes = EncodeRecord(RandomRecord(rng, /*printable_only=*/true));
    auto tree = DecodeRecordFromTree(bytes);
    ASSERT_TRUE(tree.ok()) << bytes << ": " << tree.status().message();
    Record fast;
    ASSERT_TRUE(DecodeCanonicalRecord(bytes, &fast)) << bytes;
    ExpectSameRecord(fast, *tree, bytes);
    auto via_public = DecodeRecord(bytes);
    ASSERT_TRUE(via_public.ok());
    ExpectSameRecord(*via_public, *tree, bytes);
  }
}

TEST(CanonicalRecordTest, RecordsWithEscapesOrNonAsciiGoThroughTheTreeAndDecodeTheSame) {
  std::mt19937 rng(11);
  int declined = 0;
  for (int i = 0; i < 5000; ++i) {
    const std::string bytes = EncodeRecord(RandomRecord(rng, /*printable_only=*/false));
    auto tree = DecodeRecordFromTree(bytes);
    ASSERT_TRUE(tree.ok()) << bytes;
    Record fast;
    if (DecodeCanonicalRecord(bytes, &fast)) {
      ExpectSameRecord(fast, *tree, bytes);
    } else {
      ++declined;
    }
    auto via_public = DecodeRecord(bytes);
    ASSERT_TRUE(via_public.ok());
    ExpectSameRecord(*via_public, *tree, bytes);
  }
  EXPECT_GT(declined, 100);
}

// Every byte of a record changed, dropped or duplicated: whenever the
// canonical path accepts the result, the tree decoder accepts it too and
// decodes the same record; whatever the tree decoder refuses, DecodeRecord
// refuses with the same status.
TEST(CanonicalRecordTest, MutatedBytesAreNeverAcceptedDifferently) {
  std::mt19937 rng(3);
  int accepted_mutants = 0;
  for (int i = 0; i < 60; ++i) {
    const std::string bytes = EncodeRecord(RandomRecord(rng, /*printable_only=*/true));
    std::vector<std::string> mutants;
    for (std::size_t p = 0; p < bytes.size(); ++p) {
      for (char ch : {'"', '\\', ',', ':', '{', '}', ' ', 'a', 'T', '1', '\0', '\x80'}) {
        std::string m = bytes;
        m[p] = ch;
        mutants.push_back(std::move(m));
      }
      mutants.push_back(bytes.substr(0, p) + bytes.substr(p + 1));
      mutants.push_back(bytes.substr(0, p + 1) + bytes.substr(p));
      mutants.push_back(bytes.substr(0, p));
    }
    for (const std::string& m : mutants) {
      auto tree = DecodeRecordFromTree(m);
      Record fast;
      const bool took = DecodeCanonicalRecord(m, &fast);
      if (took) {
        ++accepted_mutants;
        ASSERT_TRUE(tree.ok()) << "canonical path accepted what the tree refuses: " << m;
        ExpectSameRecord(fast, *tree, m);
      }
      auto via_public = DecodeRecord(m);
      ASSERT_EQ(via_public.ok(), tree.ok()) << m;
      if (!tree.ok()) {
        EXPECT_EQ(via_public.status().code(), tree.status().code()) << m;
        EXPECT_EQ(via_public.status().message(), tree.status().message()) << m;
      }
    }
  }
  EXPECT_GT(accepted_mutants, 1000);  // the comparison above really ran
}

struct Case {
  const char* bytes;
  bool canonical;  // whether the canonical path takes it
};

TEST(CanonicalRecordTest, EdgeCasesAreDecidedByTheTreeDecoderUnlessCanonical) {
  const Case cases[] = {
      {R"({"v":1,"kind":"PackageEvent","event":{}})", true},
      {R"({"v":1,"kind":"PackageEvent","event":{"type":"Deploy"}})", true},
      {R"({"v":1,"kind":"PackageEvent","event":{"timestamp":"2024-05-01T10:20:30.5+02:00"}})",
       true},
      {R"({"v":1,"kind":"PackageEvent","event":{"version":""}})", true},
      {R"({"v":1,"kind":"ComponentEvent","component":"","event":{}})", true},
      // Duplicate and out-of-order members.
      {R"({"v":1,"kind":"PackageEvent","event":{"type":"Deploy","type":"Remove"}})", false},
      {R"({"v":1,"kind":"PackageEvent","event":{"outcome":"Failed","type":"Deploy"}})", false},
      // A case variant Go matches, an unknown member, null.
      {R"({"v":1,"kind":"PackageEvent","event":{"Type":"Deploy"}})", false},
      {R"({"v":1,"kind":"PackageEvent","event":{"type":"Deploy","extra":"x"}})", false},
      {R"({"v":1,"kind":"PackageEvent","event":{"type":null}})", false},
      {R"({"v":1,"kind":"PackageEvent","event":{"type":1}})", false},
      // Bad timestamps, other versions, other kinds, whitespace, trailers.
      {R"({"v":1,"kind":"PackageEvent","event":{"timestamp":"yesterday"}})", false},
      {R"({"v":1,"kind":"PackageEvent","event":{"timestamp":"2024-02-30T00:00:00Z"}})", false},
      {R"({"v":2,"kind":"PackageEvent","event":{}})", false},
      {R"({"v":10,"kind":"PackageEvent","event":{}})", false},
      {R"({"v":1.0,"kind":"PackageEvent","event":{}})", false},
      {R"({"v":1,"kind":"Future","skip":true})", false},
      {R"({"v":1,"kind":"Future"})", false},
      {R"({"v":1,"kind":"PackageEvent","event":{}} )", false},
      {R"({"v":1,"kind":"PackageEvent","event":{}}x)", false},
      {R"({"v":1,"kind":"PackageEvent","event":{}})"
       "\n",
       false},
      {R"({"v":1,"kind":"PackageEvent","event":{},"event":{}})", false},
      {R"({"v":1,"kind":"PackageEvent","event":{},"facts":{"name":"p"}})", false},
      {R"({"v":1,"kind":"PackageEvent","event":[]})", false},
      {R"({"v":1,"kind":"ComponentEvent","component":"web","event":{},"charts":[]})", false},
      {R"({"v":1,"kind":"ComponentEvent","component":null,"event":{}})", false},
      {R"({"v":1,"kind":"ComponentEvent","event":{},"component":"web"})", false},
      {R"({"v":1,"kind":"PackageEvent","event":{"type":"Dep\u006coy"}})", false},
      {R"({"v":1,"kind":"PackageEvent","event":{"type":"Dep)", false},
      {"", false},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.bytes);
    Record fast;
    const bool took = DecodeCanonicalRecord(c.bytes, &fast);
    EXPECT_EQ(took, c.canonical);
    auto tree = DecodeRecordFromTree(c.bytes);
    auto via_public = DecodeRecord(c.bytes);
    ASSERT_EQ(via_public.ok(), tree.ok());
    if (took) {
      ASSERT_TRUE(tree.ok());
      ExpectSameRecord(fast, *tree, c.bytes);
    }
    if (tree.ok()) {
      ExpectSameRecord(*via_public, *tree, c.bytes);
    } else {
      EXPECT_EQ(via_public.status().code(), tree.status().code());
      EXPECT_EQ(via_public.status().message(), tree.status().message());
    }
  }
}

TEST(CanonicalRecordTest, AbsentFieldsAreMarkedSoTheRecordReencodesIdentically) {
  // A Secret event without "type" re-encodes without it: the absence must
  // survive the canonical path, or the record's identity would change.
  const std::string bytes = R"({"v":1,"kind":"PackageEvent","event":{"outcome":"Failed"}})";
  Record fast;
  ASSERT_TRUE(DecodeCanonicalRecord(bytes, &fast));
  EXPECT_EQ(EncodeRecord(fast), bytes);
  EXPECT_EQ(RecordId(fast), RecordIdOfBytes(bytes));
}

}  // namespace
}  // namespace zs::engine::internal
