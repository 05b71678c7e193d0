#include "compact/compact.h"

#include <gtest/gtest.h>
#include <xxhash.h>
#include <zstd.h>

#include <atomic>
#include <thread>

#include "base/base64.h"
#include "compact/internal/format.h"
#include "json/json_reader.h"
#include "model/model_json.h"
#include "kube/package_secret.h"
#include "tests/test_random.h"
#include "tests/test_util.h"

namespace zs {
namespace {

namespace format = compact::internal;

std::vector<std::filesystem::path> PackageFixtures() {
  std::vector<std::filesystem::path> out;
  for (const auto& path : testing::LegacyFiles(".payload.json")) {
    if (path.filename().string().starts_with("pkg-")) out.push_back(path);
  }
  return out;
}

DeployedPackage Fixture(const std::string& relative) {
  auto pkg = ParseDeployedPackage(testing::ReadData(relative));
  EXPECT_TRUE(pkg.ok()) << relative << ": " << pkg.status().ToString();
  return pkg.ok() ? std::move(*pkg) : DeployedPackage{};
}

const std::string kInitFixture =
    "legacy/e22-v0.80.0-v0.84.0/pkg-realistic-init-failed.payload.json";
const std::string kNearLimitFixture =
    "legacy/e22-v0.80.0-v0.84.0/pkg-edge-near-1mib.payload.json";

// Encodes, decodes and checks that nothing changed, in the JSON written and
// in the model (including the UTC offsets, which Timestamp== ignores).
void ExpectRoundTrip(const DeployedPackage& pkg,
                     const compact::EncodeOptions& options = {}) {
  auto bytes = compact::Encode(pkg, options);
  ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
  auto back = compact::Decode(*bytes);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(EncodeDeployedPackage(*back), EncodeDeployedPackage(pkg));
  EXPECT_TRUE(*back == pkg);
  ASSERT_EQ(back->events.size(), pkg.events.size());
  for (std::size_t i = 0; i < pkg.events.size(); ++i) {
    EXPECT_EQ(back->events[i].timestamp.offset_seconds,
              pkg.events[i].timestamp.offset_seconds);
  }
}

// ------------------------------------------------------------------ forging

void PutFixed(std::string* s, std::size_t offset, std::uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i)
    (*s)[offset + i] = static_cast<char>(v >> (8 * i));
}

// An envelope around `payload` with the given header fields and a correct
// checksum.
std::string Envelope(std::string_view payload, std::uint8_t flags,
                     std::uint32_t dictionary_id, std::uint32_t length,
                     std::uint8_t version = format::kVersion) {
  std::string s(format::kHeaderSize, '\0');
  s.replace(0, format::kMagic.size(), format::kMagic);
  s[format::kVersionOffset] = static_cast<char>(version);
  s[format::kFlagsOffset] = static_cast<char>(flags);
  PutFixed(&s, format::kDictionaryIdOffset, dictionary_id, 4);
  PutFixed(&s, format::kLengthOffset, length, 4);
  PutFixed(&s, format::kChecksumOffset,
           XXH64(payload.data(), payload.size(), 0), 8);
  return s + std::string(payload);
}

// A stored (uncompressed) envelope of hand-made Protobuf bytes.
std::string Stored(std::string_view proto) {
  return Envelope(proto, 0, format::kNoDictionary,
                  static_cast<std::uint32_t>(proto.size()));
}

std::string Rechecksum(std::string s) {
  PutFixed(
      &s, format::kChecksumOffset,
      XXH64(s.data() + format::kHeaderSize, s.size() - format::kHeaderSize, 0),
      8);
  return s;
}

// Protobuf wire format, enough to forge messages (compact/event.proto).
std::string Varint(std::uint64_t v) {
  std::string s;
  for (; v >= 0x80; v >>= 7) s.push_back(static_cast<char>(v | 0x80));
  s.push_back(static_cast<char>(v));
  return s;
}
std::string Len(int field, std::string_view body) {
  return Varint(static_cast<std::uint64_t>(field) << 3 | 2) +
         Varint(body.size()) + std::string(body);
}
std::string Int(int field, std::uint64_t v) {
  return Varint(static_cast<std::uint64_t>(field) << 3) + Varint(v);
}

void ExpectError(std::string_view bytes, Status::Code code,
                 std::string_view message_start) {
  auto pkg = compact::Decode(bytes);
  ASSERT_FALSE(pkg.ok());
  EXPECT_EQ(pkg.status().code(), code) << pkg.status().ToString();
  EXPECT_TRUE(pkg.status().message().starts_with(message_start))
      << pkg.status().ToString();
}

// ------------------------------------------------------------------ random
// packages

class RandomPackage {
 public:
  explicit RandomPackage(unsigned seed) : rng_(seed) {}

  DeployedPackage Make() {
    DeployedPackage p;
    p.name = Text();
    p.digest = rng_.Percent(50) ? "sha256:" + Text() : "";
    p.data = Object(0);
    p.cli_version = Text();
    p.generation = Int64();
    if (rng_.Percent(80)) {
      p.deployed_components.emplace();
      for (int i = rng_.Between(0, 4); i > 0; --i)
        p.deployed_components->push_back(Component());
    }
    p.connect_strings = Connect();
    p.package_connectivity = rng_.Percent(50) ? "airgap" : Text();
    p.namespace_override = rng_.Percent(30) ? Text() : "";
    for (int i = rng_.Between(0, 5); i > 0; --i) p.events.push_back(Event());
    if (rng_.Percent(60))
      p.deploy_config = rng_.Percent(20) ? json::Value::Null() : Object(0);
    p.config_digest = rng_.Percent(50) ? Text() : "";
    p.unknown = Unknown(12);
    return p;
  }

 private:
  std::int64_t Int64() {
    return rng_.Percent(20) ? static_cast<std::int64_t>(
                             (std::uint64_t{rng_()} << 32) | rng_())
                       : rng_.Between(-3, 9);
  }

  std::string Text() {
    static const char* const kPieces[] = {
        "zarf",      "-",
        "init",      "<&>",
        "é",         "🦄",
        "\u2028",    "\"q\"",
        "\\",        "\n",
        "sha256:ab", " ",
        "\x01",      "ghcr.io/zarf-dev/agent"};
    std::string s;
    for (int i = rng_.Between(0, 4); i > 0; --i)
      s += kPieces[rng_.Between(0, std::size(kPieces) - 1)];
    if (rng_.Percent(3)) s += "\xff\xfe";  // not UTF-8: takes the structured form
    return s;
  }

  json::Value Number() {
    static const char* const kSpellings[] = {"0",
                                             "-0",
                                             "7",
                                             "-12",
                                             "1.0",
                                             "1e3",
                                             "1E+2",
                                             "-0.5e-7",
                                             "9223372036854775807",
                                             "-9223372036854775808",
                                             "123456789012345678901234567890",
                                             "0.1"};
    return json::Value::RawNumber(
        kSpellings[rng_.Between(0, std::size(kSpellings) - 1)]);
  }

  json::Value Any(int depth) {
    switch (rng_.Between(0, depth > 3 ? 3 : 5)) {
      case 0:
        return json::Value::Null();
      case 1:
        return json::Value::Bool(rng_.Percent(50));
      case 2:
        return Number();
      case 3:
        return json::Value::String(Text());
      case 4: {
        json::Array items;
        for (int i = rng_.Between(0, 4); i > 0; --i) items.push_back(Any(depth + 1));
        return json::Value::MakeArray(std::move(items));
      }
      default:
        return Object(depth + 1);
    }
  }

  json::Value Object(int depth) {
    json::Object members;
    for (int i = rng_.Between(0, 5); i > 0; --i) {
      members.emplace_back(
          rng_.Percent(20) && !members.empty() ? members.front().first : Text(),
          Any(depth));
    }
    return json::Value::MakeObject(std::move(members));
  }

  UnknownFields Unknown(int fields) {
    UnknownFields u;
    if (rng_.Percent(40))
      u.absent = (std::uint64_t{rng_()} << 32 | rng_()) &
                 ((std::uint64_t{1} << fields) - 1);
    for (int i = rng_.Percent(40) ? rng_.Between(1, 3) : 0; i > 0; --i) {
      u.members.emplace_back(rng_.Between(-1, fields), json::Member(Text(), Any(1)));
    }
    return u;
  }

  Timestamp Time() {
    Timestamp t;
    if (rng_.Percent(10)) return t;  // Go's zero time
    t.seconds = std::int64_t{1700000000} + rng_.Between(0, 1 << 30);
    t.nanos = rng_.Percent(50) ? 0 : rng_.Between(0, 999999999);
    t.offset_seconds = rng_.Percent(60) ? 0 : rng_.Between(-86399, 86399);
    return t;
  }

  ConnectStrings Connect() {
    ConnectStrings cs;
    for (int i = rng_.Between(0, 2); i > 0; --i)
      cs[Text()] = ConnectString{Text(), Text(), Unknown(2)};
    return cs;
  }

  DeployedComponent Component() {
    DeployedComponent c;
    c.name = Text();
    if (rng_.Percent(80)) {
      c.installed_charts.emplace();
      for (int i = rng_.Between(0, 3); i > 0; --i) {
        c.installed_charts->push_back(
            InstalledChart{Text(), Text(), Connect(), Text(), Unknown(4)});
      }
    }
    c.status = Text();
    c.observed_generation = Int64();
    if (rng_.Percent(50))
      c.last_event = ComponentEvent{Text(), Text(), Time(), Unknown(3)};
    c.unknown = Unknown(5);
    return c;
  }

  PackageEvent Event() {
    return PackageEvent{rng_.Percent(80) ? "Deploy" : Text(),
                        Text(),
                        Time(),
                        Text(),
                        Text(),
                        Text(),
                        Text(),
                        Text(),
                        Unknown(8)};
  }

  testing::Rng rng_;
};

// ------------------------------------------------------------------ round
// trips

TEST(CompactTest, EveryPackageFixtureRoundTripsByteForByte) {
  int checked = 0;
  for (const auto& path : PackageFixtures()) {
    SCOPED_TRACE(path.string());
    auto pkg = ParseDeployedPackage(testing::ReadFile(path));
    ASSERT_TRUE(pkg.ok()) << pkg.status().ToString();
    ExpectRoundTrip(*pkg);
    ExpectRoundTrip(*pkg, {.level = 3, .use_dictionary = true});
    ExpectRoundTrip(*pkg, {.level = 1, .use_dictionary = false});
    ++checked;
  }
  EXPECT_EQ(checked, 77);
}

// Encode in two steps, the package released between them, writes the same
// bytes as Encode, under every option.
TEST(CompactTest, PrepareThenSealWritesWhatEncodeWrites) {
  const std::vector<compact::EncodeOptions> options = {
      {}, {.level = 3, .use_dictionary = false}};
  int checked = 0;
  for (const auto& path : PackageFixtures()) {
    SCOPED_TRACE(path.string());
    std::vector<std::string> encoded;
    Result<compact::Prepared> prepared = Status::NotFound("not prepared");
    {
      auto pkg = ParseDeployedPackage(testing::ReadFile(path));
      ASSERT_TRUE(pkg.ok()) << pkg.status().ToString();
      for (const compact::EncodeOptions& o : options) encoded.push_back(*compact::Encode(*pkg, o));
      prepared = compact::Prepare(*pkg);
    }
    ASSERT_TRUE(prepared.ok()) << prepared.status().ToString();
    for (std::size_t i = 0; i < options.size(); ++i) {
      auto sealed = compact::Seal(*prepared, options[i]);
      ASSERT_TRUE(sealed.ok()) << sealed.status().ToString();
      EXPECT_EQ(*sealed, encoded[i]) << "options " << i;
    }
    ++checked;
  }
  EXPECT_EQ(checked, 77);
}

// Each step refuses what Encode refuses at that point, with its message.
TEST(CompactTest, PrepareAndSealRefuseWhatEncodeRefuses) {
  DeployedPackage pkg;
  pkg.events.push_back(PackageEvent{});
  pkg.events[0].timestamp.nanos = 1000000000;
  EXPECT_EQ(compact::Prepare(pkg).status().ToString(), compact::Encode(pkg).status().ToString());
  auto prepared = compact::Prepare(DeployedPackage{});
  ASSERT_TRUE(prepared.ok());
  EXPECT_EQ(compact::Seal(*prepared, {.level = 23}).status().ToString(),
            compact::Encode(DeployedPackage{}, {.level = 23}).status().ToString());
  EXPECT_FALSE(compact::Seal(*prepared, {.level = 23}).ok());
}

TEST(CompactTest, NearOneMebibytePackageRoundTripsAndShrinks) {
  const DeployedPackage pkg = Fixture(kNearLimitFixture);
  ExpectRoundTrip(pkg);
  auto bytes = compact::Encode(pkg);
  ASSERT_TRUE(bytes.ok());
  EXPECT_LT(bytes->size() * 4, EncodeDeployedPackage(pkg).size());
}

// Encode and Decode reuse per-thread buffers up to 8 MiB and allocate larger
// ones per call: packages either side of that line, in both orders, with
// text that compresses well and text that compresses less, round trip
// intact.
TEST(CompactTest, PackagesAboveAndBelowTheKeptBufferSizeRoundTrip) {
  testing::Rng rng(7);
  auto package_of = [&](std::size_t bytes, bool random) {
    DeployedPackage pkg = Fixture(kInitFixture);
    std::string text;
    text.reserve(bytes);
    while (text.size() < bytes) {
      text.push_back(random ? static_cast<char>('a' + rng() % 26) : 'z');
    }
    pkg.data.object().emplace_back("x-bulk", json::Value::String(text));
    return pkg;
  };
  for (const std::size_t bytes : {std::size_t{9} << 20, std::size_t{1} << 10,
                                  std::size_t{12} << 20, std::size_t{3} << 20}) {
    for (const bool random : {true, false}) {
      SCOPED_TRACE(std::to_string(bytes) + (random ? " random" : " repeated"));
      ExpectRoundTrip(package_of(bytes, random), {.level = 1});
    }
  }
}

TEST(CompactTest, RandomPackagesRoundTrip) {
  for (unsigned seed = 1; seed <= 300; ++seed) {
    SCOPED_TRACE(seed);
    const DeployedPackage pkg = RandomPackage(seed).Make();
    ExpectRoundTrip(pkg, {.level = seed % 2 == 0 ? 19 : 1,
                          .use_dictionary = seed % 3 != 0});
  }
}

TEST(CompactTest, NilAndEmptyListsStayApart) {
  DeployedPackage pkg;
  pkg.deployed_components.emplace();
  pkg.deployed_components->push_back(
      DeployedComponent{});  // installedCharts nil
  pkg.deployed_components->push_back(DeployedComponent{});
  pkg.deployed_components->back()
      .installed_charts.emplace();  // installedCharts []
  ExpectRoundTrip(pkg);
  pkg.deployed_components.reset();
  ExpectRoundTrip(pkg);
}

TEST(CompactTest, AnEmptyPackageRoundTrips) {
  ExpectRoundTrip(DeployedPackage{});
}

TEST(CompactTest, StringsThatAreNotUtf8SurviveInTheStructuredForm) {
  DeployedPackage pkg;
  pkg.name = "bad\xc3";
  pkg.data = json::Value::MakeObject(
      {{"ok", json::Value::String("fine")},
       {"k\xff",
        json::Value::MakeArray(
            {json::Value::String("\xe2\x82"), json::Value::RawNumber("1.50"),
             json::Value::Null(), json::Value::Bool(false)})}});
  ExpectRoundTrip(pkg);
}

// The writer decides between text and the structured form by looking for
// the escape Go writes for invalid UTF-8 (\ufffd) in the text: a real U+FFFD
// (written raw), the literal text "\ufffd" (an escaped backslash) and
// invalid bytes beside either must all come back exactly.
TEST(CompactTest, ReplacementCharactersAndTheirEscapeTextRoundTrip) {
  const std::string real = "\xef\xbf\xbd";  // U+FFFD, valid UTF-8
  const std::string literal = "\\ufffd";      // backslash, then "ufffd"
  for (const std::string& s :
       {real, literal, "a" + real + literal + "b", literal + "\xff",
        real + "\xc3", std::string("\\\\ufffd"), std::string("\xff\xfe")}) {
    SCOPED_TRACE(s);
    DeployedPackage pkg;
    pkg.data = json::Value::MakeObject(
        {{"v", json::Value::String(s)},
         {s, json::Value::MakeArray({json::Value::String(s)})}});
    ExpectRoundTrip(pkg);
  }
}

TEST(CompactTest, JsonNestedToTheLimitRoundTripsAndDeeperIsRefused) {
  auto nested = [](int depth, json::Value leaf) {
    json::Value v = std::move(leaf);
    for (int i = 1; i < depth; ++i) v = json::Value::MakeArray({std::move(v)});
    return v;
  };
  DeployedPackage pkg;
  pkg.data = nested(format::kMaxJsonDepth, json::Value::Int(1));
  ExpectRoundTrip(pkg);
  pkg.data = nested(format::kMaxJsonDepth,
                    json::Value::String("\xff"));  // structured form
  ExpectRoundTrip(pkg);
  pkg.data = nested(format::kMaxJsonDepth + 1, json::Value::Int(1));
  auto bytes = compact::Encode(pkg);
  ASSERT_FALSE(bytes.ok());
  EXPECT_EQ(bytes.status().code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(bytes.status().message(),
            "compact: JSON nested deeper than 512 levels");
}

TEST(CompactTest, EncodingIsDeterministic) {
  const DeployedPackage pkg = Fixture(kInitFixture);
  EXPECT_EQ(*compact::Encode(pkg), *compact::Encode(pkg));
}

TEST(CompactTest, TheDictionaryShrinksARealisticPackage) {
  const DeployedPackage pkg = Fixture(kInitFixture);
  const auto with = compact::Encode(pkg, {.level = 19, .use_dictionary = true});
  const auto without =
      compact::Encode(pkg, {.level = 19, .use_dictionary = false});
  ASSERT_TRUE(with.ok() && without.ok());
  EXPECT_LT(with->size() * 10, without->size() * 8);
  EXPECT_EQ((*with)[format::kFlagsOffset],
            format::kFlagZstd | format::kFlagDictionary);
  EXPECT_EQ((*without)[format::kFlagsOffset], format::kFlagZstd);
}

// The envelope's dictionary id, as written in the header.
std::uint32_t DictionaryIdOf(std::string_view envelope) {
  std::uint32_t id = 0;
  for (int i = 0; i < 4; ++i) {
    id |= std::uint32_t{static_cast<unsigned char>(
              envelope[format::kDictionaryIdOffset + i])}
          << (8 * i);
  }
  return id;
}

TEST(CompactTest, WritersUseTheNewestDictionary) {
  const auto bytes = compact::Encode(Fixture(kInitFixture));
  ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
  EXPECT_EQ(DictionaryIdOf(*bytes), format::kWriterDictionaryId);
  EXPECT_EQ(format::kWriterDictionaryId, format::kZarfStateDictionary2Id);
}

// Secrets written by the build that shipped dictionary 1 only (commit
// 6db3de3), each beside the same package written as JSON: a later build
// must read them to the same package for as long as the format lives.
TEST(CompactTest, EnvelopesWrittenWithTheFirstDictionaryStillDecode) {
  int seen = 0;
  for (const auto& entry :
       std::filesystem::directory_iterator(testing::DataDir() / "compact-dict1")) {
    const std::string name = entry.path().filename().string();
    if (!name.ends_with(".compact.secret.json")) continue;
    ++seen;
    const std::string twin =
        name.substr(0, name.size() - std::string(".compact.secret.json").size()) +
        ".json.secret.json";
    auto compact_secret = json::ParseJson(testing::ReadFile(entry.path()));
    auto json_secret =
        json::ParseJson(testing::ReadData("compact-dict1/" + twin));
    ASSERT_TRUE(compact_secret.ok() && json_secret.ok()) << name;
    const json::Value* data = compact_secret->Find("data");
    ASSERT_NE(data, nullptr) << name;
    const json::Value* envelope_b64 = data->Find("data-compact");
    ASSERT_NE(envelope_b64, nullptr) << name;
    auto envelope = Base64Decode(envelope_b64->as_string());
    ASSERT_TRUE(envelope.ok()) << name;
    EXPECT_EQ(DictionaryIdOf(*envelope), format::kZarfStateDictionary1Id)
        << name;
    auto got = DecodePackage(*compact_secret);
    auto want = DecodePackage(*json_secret);
    ASSERT_TRUE(got.ok()) << name << ": " << got.status().ToString();
    ASSERT_TRUE(want.ok()) << name << ": " << want.status().ToString();
    EXPECT_EQ(EncodeDeployedPackage(*got), EncodeDeployedPackage(*want)) << name;
  }
  EXPECT_EQ(seen, 4);
}

TEST(CompactTest, ConcurrentEncodesAndDecodesAgree) {
  const DeployedPackage pkg = Fixture(kInitFixture);
  const std::string expected = EncodeDeployedPackage(pkg);
  std::vector<std::thread> threads;
  std::atomic<int> good{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 20; ++i) {
        auto bytes = compact::Encode(
            pkg, {.level = 1 + (t + i) % 5, .use_dictionary = true});
        if (!bytes.ok()) continue;
        auto back = compact::Decode(*bytes);
        if (back.ok() && EncodeDeployedPackage(*back) == expected) ++good;
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(good, 80);
}

TEST(CompactTest, LooksCompactSniffsTheMagicOnly) {
  EXPECT_TRUE(compact::LooksCompact(*compact::Encode(DeployedPackage{})));
  EXPECT_TRUE(compact::LooksCompact("\x89ZSC"));
  EXPECT_FALSE(compact::LooksCompact("\x89ZS"));
  EXPECT_FALSE(compact::LooksCompact(R"({"name":"init"})"));
  EXPECT_FALSE(compact::LooksCompact(""));
}

// ------------------------------------------------------------------ encode
// errors

TEST(CompactTest, EncodeRefusesALevelZstdDoesNotHave) {
  auto bytes = compact::Encode(DeployedPackage{}, {.level = 23});
  ASSERT_FALSE(bytes.ok());
  EXPECT_EQ(bytes.status().code(), Status::Code::kInvalidArgument);
  EXPECT_TRUE(
      bytes.status().message().starts_with("compact: zstd level 23 outside ["));
}

TEST(CompactTest, EncodeRefusesATimestampRfc3339CannotSpell) {
  DeployedPackage pkg;
  pkg.events.push_back(PackageEvent{});
  pkg.events[0].timestamp.nanos = 1000000000;
  auto bytes = compact::Encode(pkg);
  ASSERT_FALSE(bytes.ok());
  EXPECT_EQ(bytes.status().ToString(),
            "InvalidArgument: compact: timestamp outside years 0000..9999");
  pkg.events[0].timestamp = Timestamp{};
  pkg.events[0].timestamp.offset_seconds = 86400;
  EXPECT_FALSE(compact::Encode(pkg).ok());
}

TEST(CompactTest, EncodeRefusesANumberThatIsNotJson) {
  DeployedPackage pkg;
  pkg.data = json::Value::MakeObject({{"n", json::Value::RawNumber("01")}});
  auto bytes = compact::Encode(pkg);
  ASSERT_FALSE(bytes.ok());
  EXPECT_EQ(bytes.status().ToString(),
            "InvalidArgument: compact: invalid JSON number \"01\"");
}

// ------------------------------------------------------------------ corruption

class CompactCorruptionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto bytes = compact::Encode(Fixture(
        "legacy/e22-v0.80.0-v0.84.0/pkg-edge-unknown-fields.payload.json"));
    ASSERT_TRUE(bytes.ok());
    good_ = std::move(*bytes);
  }
  std::string good_;
};

TEST_F(CompactCorruptionTest, TheUntouchedEnvelopeDecodes) {
  ASSERT_TRUE(compact::Decode(good_).ok());
}

TEST_F(CompactCorruptionTest, EveryTruncationIsAnError) {
  for (std::size_t n = 0; n < good_.size(); ++n) {
    SCOPED_TRACE(n);
    auto pkg = compact::Decode(std::string_view(good_).substr(0, n));
    ASSERT_FALSE(pkg.ok());
    EXPECT_EQ(pkg.status().code(), Status::Code::kCorruption);
    if (n < format::kHeaderSize) {
      EXPECT_EQ(pkg.status().message(),
                "compact: envelope of " + std::to_string(n) +
                    " bytes is shorter than its 22-byte header");
    } else {
      EXPECT_TRUE(
          pkg.status().message().starts_with("compact: checksum mismatch"));
    }
  }
}

TEST_F(CompactCorruptionTest, FlippingAnyHeaderBitIsAnErrorOfItsField) {
  for (std::size_t bit = 0; bit < format::kHeaderSize * 8; ++bit) {
    SCOPED_TRACE(bit);
    std::string bad = good_;
    bad[bit / 8] = static_cast<char>(bad[bit / 8] ^ (1 << (bit % 8)));
    auto pkg = compact::Decode(bad);
    ASSERT_FALSE(pkg.ok());
    const std::size_t byte = bit / 8;
    const std::string_view msg = pkg.status().message();
    if (byte < format::kVersionOffset) {
      EXPECT_EQ(msg, "compact: bad magic");
    } else if (byte == format::kVersionOffset) {
      // 1 -> 0 is invalid, 1 -> 3, 5, 9... is from the future.
      EXPECT_TRUE(msg == "compact: invalid format version 0" ||
                  (pkg.status().code() == Status::Code::kNotSupported &&
                   msg.starts_with("compact: format version ")))
          << msg;
    } else if (byte == format::kFlagsOffset) {
      EXPECT_TRUE(
          msg.starts_with("compact: invalid flags 0x") ||
          msg.starts_with("compact: flags 0x1 disagree with dictionary id"))
          << msg;
    } else if (byte < format::kLengthOffset) {
      EXPECT_EQ(pkg.status().code(), Status::Code::kNotSupported);
      EXPECT_TRUE(msg.starts_with("compact: unknown dictionary id ")) << msg;
    } else if (byte < format::kChecksumOffset) {
      EXPECT_EQ(pkg.status().code(), Status::Code::kCorruption);
      EXPECT_TRUE(msg.starts_with("compact: declared length ") ||
                  msg.starts_with("compact: payload decompresses to ") ||
                  msg.starts_with("compact: zstd: "))
          << msg;
    } else {
      EXPECT_TRUE(msg.starts_with("compact: checksum mismatch: header 0x"))
          << msg;
    }
  }
}

TEST_F(CompactCorruptionTest, FlippingPayloadBitsFailsTheChecksum) {
  for (std::size_t bit = format::kHeaderSize * 8; bit < good_.size() * 8;
       bit += 7) {
    std::string bad = good_;
    bad[bit / 8] = static_cast<char>(bad[bit / 8] ^ (1 << (bit % 8)));
    ExpectError(bad, Status::Code::kCorruption, "compact: checksum mismatch");
  }
}

TEST_F(CompactCorruptionTest, PayloadDamageBehindAValidChecksumNeverCrashes) {
  testing::Rng rng(7);
  for (int i = 0; i < 2000; ++i) {
    std::string bad = good_;
    for (int k = 1 + static_cast<int>(rng() % 4); k > 0; --k) {
      const std::size_t at =
          format::kHeaderSize + rng() % (bad.size() - format::kHeaderSize);
      bad[at] = static_cast<char>(rng());
    }
    auto pkg =
        compact::Decode(Rechecksum(bad));  // ok or an error, never a crash
    if (!pkg.ok()) {
      EXPECT_EQ(pkg.status().code(), Status::Code::kCorruption);
    }
  }
}

// The Protobuf bytes of `pkg`, from an envelope written without dictionary.
std::string ProtoOf(const DeployedPackage& pkg) {
  const std::string envelope =
      *compact::Encode(pkg, {.level = 1, .use_dictionary = false});
  std::uint32_t length = 0;
  for (int i = 0; i < 4; ++i) {
    length |= std::uint32_t{static_cast<unsigned char>(
                  envelope[format::kLengthOffset + i])}
              << (8 * i);
  }
  const std::string_view payload =
      std::string_view(envelope).substr(format::kHeaderSize);
  if (envelope[format::kFlagsOffset] == 0) return std::string(payload);
  std::string out(length, '\0');
  EXPECT_EQ(
      ZSTD_decompress(out.data(), out.size(), payload.data(), payload.size()),
      length);
  return out;
}

TEST_F(CompactCorruptionTest, MutatedProtobufBehindAValidChecksumNeverCrashes) {
  testing::Rng rng(11);
  for (unsigned seed : {3u, 4u, 5u}) {
    const std::string proto = ProtoOf(RandomPackage(seed).Make());
    ASSERT_TRUE(compact::Decode(Stored(proto)).ok());
    for (int i = 0; i < 3000; ++i) {
      std::string bad = proto;
      for (int k = 1 + static_cast<int>(rng() % 3); k > 0 && !bad.empty();
           --k) {
        const std::size_t at = rng() % bad.size();
        switch (rng() % 3) {
          case 0:
            bad[at] = static_cast<char>(rng());
            break;
          case 1:
            bad.erase(at, 1 + rng() % 8);
            break;
          default:
            bad.insert(at, 1, static_cast<char>(rng()));
            break;
        }
      }
      auto pkg = compact::Decode(Stored(bad));  // ok or an error, never a crash
      if (!pkg.ok()) {
        EXPECT_EQ(pkg.status().code(), Status::Code::kCorruption);
      }
    }
  }
}

TEST_F(CompactCorruptionTest, AWrongMagicIsCorruption) {
  std::string bad = good_;
  bad[0] = '{';
  ExpectError(bad, Status::Code::kCorruption, "compact: bad magic");
}

TEST_F(CompactCorruptionTest, ANewerVersionIsNotSupported) {
  std::string bad = good_;
  bad[format::kVersionOffset] = static_cast<char>(format::kVersion + 1);
  auto pkg = compact::Decode(bad);
  ASSERT_FALSE(pkg.ok());
  EXPECT_EQ(pkg.status().ToString(),
            "NotSupported: compact: format version 2 is newer than 1");
}

TEST_F(CompactCorruptionTest, ABadChecksumIsCorruption) {
  std::string bad = good_;
  bad[format::kChecksumOffset] =
      static_cast<char>(bad[format::kChecksumOffset] + 1);
  ExpectError(bad, Status::Code::kCorruption,
              "compact: checksum mismatch: header 0x");
}

TEST_F(CompactCorruptionTest, AnUnknownDictionaryIsNotSupported) {
  std::string bad = good_;
  PutFixed(&bad, format::kDictionaryIdOffset, 12345, 4);
  auto pkg = compact::Decode(bad);
  ASSERT_FALSE(pkg.ok());
  EXPECT_EQ(pkg.status().ToString(),
            "NotSupported: compact: unknown dictionary id 12345");
}

TEST_F(CompactCorruptionTest, AHugeDeclaredLengthIsRefusedBeforeAllocating) {
  std::string bad = good_;
  PutFixed(&bad, format::kLengthOffset, 0xffffffff, 4);
  auto pkg = compact::Decode(bad);
  ASSERT_FALSE(pkg.ok());
  EXPECT_EQ(pkg.status().ToString(),
            "Corruption: compact: declared length 4294967295 exceeds the "
            "decode budget of 16777216 bytes (16 x the 1048576-byte Secret "
            "limit)");
}

TEST_F(CompactCorruptionTest, AWrongDeclaredLengthIsCorruption) {
  std::string bad = good_;
  PutFixed(&bad, format::kLengthOffset, 5, 4);
  ExpectError(bad, Status::Code::kCorruption, "compact: zstd: ");
  std::uint32_t length = 0;
  for (int i = 0; i < 4; ++i) {
    length |= std::uint32_t{static_cast<unsigned char>(
                  good_[format::kLengthOffset + i])}
              << (8 * i);
  }
  PutFixed(&bad, format::kLengthOffset, length + 100, 4);
  ExpectError(bad, Status::Code::kCorruption,
              "compact: payload decompresses to ");
}

TEST(CompactForgeryTest, UnknownFlagsAndDisagreeingDictionaryAreCorruption) {
  ExpectError(Envelope("", 0x04, 0, 0), Status::Code::kCorruption,
              "compact: invalid flags 0x4");
  ExpectError(
      Envelope("", format::kFlagDictionary, format::kWriterDictionaryId, 0),
      Status::Code::kCorruption, "compact: invalid flags 0x2");
  ExpectError(
      Envelope("", format::kFlagZstd, format::kWriterDictionaryId, 0),
      Status::Code::kCorruption,
      "compact: flags 0x1 disagree with dictionary id");
  ExpectError(Envelope("", 0, 0, 0, /*version=*/0), Status::Code::kCorruption,
              "compact: invalid format version 0");
}

// Expansion bombs: a few bytes of zstd that expand to millions of empty
// messages are refused before any is built.
std::string Bomb(char tag, std::size_t count) {
  std::string proto;
  for (std::size_t i = 0; i < count; ++i) proto += std::string{tag, '\0'};
  std::string frame(ZSTD_compressBound(proto.size()), '\0');
  frame.resize(ZSTD_compress(frame.data(), frame.size(), proto.data(),
                             proto.size(), 19));
  return Envelope(frame, format::kFlagZstd, 0,
                  static_cast<std::uint32_t>(proto.size()));
}

TEST(CompactBudgetTest, ExpansionBombsAreOverTheMemoryBudget) {
  for (char tag : {'\x32', '\x5a', '\x42'}) {  // components, events, connect
    const std::string bomb = Bomb(tag, 1 << 20);
    ASSERT_LT(bomb.size(), 1024u);
    auto pkg = compact::Decode(bomb);
    ASSERT_FALSE(pkg.ok());
    EXPECT_EQ(pkg.status().code(), Status::Code::kInvalidArgument);
    EXPECT_EQ(pkg.status().message(),
              "compact: the payload needs more than " +
                  std::to_string(MemoryBudgetFor(bomb.size())) +
                  " bytes of memory, over the memory budget of a " +
                  std::to_string(bomb.size()) +
                  "-byte input (32 MiB + 4 per input byte, at most 1024 MiB)");
  }
  // Within the budget the same shape decodes.
  auto small = compact::Decode(Bomb('\x32', 4000));
  ASSERT_TRUE(small.ok()) << small.status().ToString();
  EXPECT_EQ(small->deployed_components->size(), 4000u);
}

TEST(CompactBudgetTest, JsonTextCountsAgainstTheBudget) {
  // data (3) as a JSON text of 1M values (48 MB) in a small frame.
  std::string text = "[0";
  for (int i = 1; i < 1000000; ++i) text += ",0";
  text += "]";
  const std::string proto = Len(3, Len(1, text));
  std::string frame(ZSTD_compressBound(proto.size()), '\0');
  frame.resize(ZSTD_compress(frame.data(), frame.size(), proto.data(),
                             proto.size(), 19));
  auto pkg = compact::Decode(Envelope(frame, format::kFlagZstd, 0,
                                      static_cast<std::uint32_t>(proto.size())));
  ASSERT_FALSE(pkg.ok());
  EXPECT_NE(pkg.status().message().find(std::string(kOverMemoryBudget)),
            std::string::npos)
      << pkg.status().ToString();
}

TEST(CompactBudgetTest, TheWriterRefusesWhatTheReaderWouldRefuse) {
  DeployedPackage pkg;
  pkg.name = "many";
  pkg.deployed_components.emplace(200000);
  auto bytes = compact::Encode(pkg);
  ASSERT_FALSE(bytes.ok());
  // No Secret can hold it: TooLarge, as for a size over the limit.
  EXPECT_EQ(bytes.status().code(), Status::Code::kTooLarge);
  EXPECT_NE(bytes.status().message().find(std::string(kOverMemoryBudget)),
            std::string::npos)
      << bytes.status().ToString();
  pkg.deployed_components.emplace(2000);
  auto fits = compact::Encode(pkg);
  ASSERT_TRUE(fits.ok()) << fits.status().ToString();
  ASSERT_TRUE(compact::Decode(*fits).ok());
}

TEST(CompactForgeryTest, AStoredPayloadMustHaveItsDeclaredLength) {
  ExpectError(Envelope("abc", 0, 0, 2), Status::Code::kCorruption,
              "compact: stored payload is 3 bytes, header says 2");
}

TEST(CompactForgeryTest, AStoredEmptyMessageIsAPackageOfZeroValues) {
  auto pkg = compact::Decode(Stored(""));
  ASSERT_TRUE(pkg.ok()) << pkg.status().ToString();
  EXPECT_EQ(
      EncodeDeployedPackage(*pkg),
      R"({"name":"","digest":"","data":{},"cliVersion":"","generation":0,"deployedComponents":[],)"
      R"("packageConnectivity":""})");
}

TEST(CompactForgeryTest, APayloadThatIsNotOneZstdFrameIsCorruption) {
  ExpectError(Envelope("not zstd", format::kFlagZstd, 0, 8),
              Status::Code::kCorruption,
              "compact: payload is not a single zstd frame");
  std::string frame(ZSTD_compressBound(5), '\0');
  frame.resize(ZSTD_compress(frame.data(), frame.size(), "hello", 5, 3));
  ASSERT_TRUE(
      compact::Decode(Envelope(frame, format::kFlagZstd, 0, 5))
          .status()
          .message()
          .starts_with("compact: invalid zs.compact.pb.DeployedPackage"));
  ExpectError(Envelope(frame + frame, format::kFlagZstd, 0, 10),
              Status::Code::kCorruption,
              "compact: payload is not a single zstd frame");
}

TEST(CompactForgeryTest, BytesThatAreNotProtobufAreCorruptionNamingTheType) {
  auto pkg = compact::Decode(Stored("\xff\xff\xff\xff"));
  ASSERT_FALSE(pkg.ok());
  EXPECT_EQ(pkg.status().ToString(),
            "Corruption: compact: invalid zs.compact.pb.DeployedPackage");
}

TEST(CompactForgeryTest, InvalidMessagesAreCorruptionNamingWhatIsWrong) {
  const std::string prefix = "compact: invalid zs.compact.pb.DeployedPackage: ";
  // DeployedPackage.data (3) is a JsonValue: json (1), number (4), object (7).
  ExpectError(Stored(Len(3, "")), Status::Code::kCorruption,
              prefix + "JsonValue without a kind");
  ExpectError(Stored(Len(3, Len(1, "{\"a\":"))), Status::Code::kCorruption,
              prefix + "json: ");
  ExpectError(Stored(Len(3, Len(4, "01"))), Status::Code::kCorruption,
              prefix + "number is not a JSON number");
  ExpectError(Stored(Len(3, Len(7, Len(1, "key")))), Status::Code::kCorruption,
              prefix + "JsonObject keys and values differ in number");
  // events (11) with a timestamp (3) whose nanos (2) are out of range.
  ExpectError(Stored(Len(11, Len(3, Int(2, 1000000000)))),
              Status::Code::kCorruption, prefix + "timestamp out of range");
  // deployed_components (6) next to deployed_components_is_null (7).
  ExpectError(Stored(Len(6, "") + Int(7, 1)), Status::Code::kCorruption,
              prefix + "null deployedComponents with entries");
  // connect_strings (8) twice with key (1) "a".
  ExpectError(Stored(Len(8, Len(1, "a")) + Len(8, Len(1, "a"))),
              Status::Code::kCorruption,
              prefix + "duplicate connect string key");
  // unknown_members (14) with an anchor (1) but no value (3).
  ExpectError(Stored(Len(14, Int(1, 2))), Status::Code::kCorruption,
              prefix + "unknown member without a value");
}

TEST(CompactForgeryTest, FieldsFromANewerWriterAreSkipped) {
  auto pkg = compact::Decode(Stored(Len(1, "demo") + Len(99, "future")));
  ASSERT_TRUE(pkg.ok()) << pkg.status().ToString();
  EXPECT_EQ(pkg->name, "demo");
}

}  // namespace
}  // namespace zs
