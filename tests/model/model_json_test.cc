#include "model/model_json.h"

#include <gtest/gtest.h>

#include "json/json_reader.h"
#include "tests/test_util.h"

namespace zs {
namespace {

bool IsPackagePayload(const std::filesystem::path& p) {
  const std::string name = p.filename().string();
  return name.starts_with("pkg-") && name.ends_with(".payload.json");
}

TEST(ModelJsonTest, EveryNewestEraPackageRoundTripsByteForByte) {
  int checked = 0;
  for (const auto& path : testing::LegacyFiles(".payload.json")) {
    if (path.parent_path().filename() != "e22-v0.80.0-v0.84.0" || !IsPackagePayload(path)) continue;
    const std::string original = testing::ReadFile(path);
    auto pkg = ParseDeployedPackage(original);
    ASSERT_TRUE(pkg.ok()) << path << ": " << pkg.status().ToString();
    EXPECT_EQ(EncodeDeployedPackage(*pkg), original) << path;
    ++checked;
  }
  EXPECT_EQ(checked, 8);
}

TEST(ModelJsonTest, EveryLegacyEraPackageRoundTripsWithoutGainingFields) {
  int checked = 0;
  for (const auto& path : testing::LegacyFiles(".payload.json")) {
    if (!IsPackagePayload(path)) continue;
    const std::string original = testing::ReadFile(path);
    auto pkg = ParseDeployedPackage(original);
    ASSERT_TRUE(pkg.ok()) << path << ": " << pkg.status().ToString();
    EXPECT_EQ(EncodeDeployedPackage(*pkg), original) << path;
    ++checked;
  }
  EXPECT_GT(checked, 50);
}

// Parsed in place (readable_padding), a payload decodes exactly as from a
// padded copy, whatever the bytes after it hold: JSON that would extend the
// text, invalid UTF-8 or whitespace. Malformed payloads fail the same way.
TEST(ModelJsonTest, APayloadParsedInPlaceDecodesAsFromACopyWhateverFollowsIt) {
  std::vector<std::string> texts;
  for (const auto& path : testing::LegacyFiles(".payload.json")) {
    if (IsPackagePayload(path) || path.filename().string().starts_with("malformed-")) {
      texts.push_back(testing::ReadFile(path));
    }
  }
  ASSERT_GT(texts.size(), 50u);
  int checked = 0;
  for (const std::string& text : texts) {
    auto copied = ParseDeployedPackage(text);
    for (const std::string& tail : {std::string(64, '}'), std::string(64, '"'),
                                   std::string(64, '\xff'), std::string(64, ' '),
                                   std::string(",\"name\":\"other\"}") + std::string(48, ']')}) {
      std::string buffer = text + tail;
      auto in_place = ParseDeployedPackage(std::string_view(buffer.data(), text.size()), tail.size());
      ASSERT_EQ(in_place.ok(), copied.ok()) << text.substr(0, 80);
      if (copied.ok()) {
        EXPECT_EQ(EncodeDeployedPackage(*in_place), EncodeDeployedPackage(*copied));
      } else {
        EXPECT_EQ(in_place.status().message(), copied.status().message());
      }
      ++checked;
    }
  }
  EXPECT_EQ(checked, static_cast<int>(texts.size()) * 5);
}

// The definition as DefinitionParts::kSummary promises it: `metadata`, and
// `components` whose objects hold only `name` and `images`, as read.
json::Value DefinitionSummaryOf(const json::Value& data) {
  json::Value out = json::Value::MakeObject();
  for (const json::Member& m : data.object()) {
    if (m.first == "metadata") out.object().push_back(m);
    if (m.first != "components") continue;
    json::Value comps = m.second;
    if (comps.is_array()) {
      for (json::Value& c : comps.array()) {
        if (!c.is_object()) continue;
        std::erase_if(c.object(), [](const json::Member& f) {
          return f.first != "name" && f.first != "images";
        });
      }
    }
    out.object().emplace_back(m.first, std::move(comps));
  }
  return out;
}

// Every legacy payload decodes to the same package in summary as in whole,
// but for the definition, which holds what the summary promises; malformed
// payloads fail with the same message.
TEST(ModelJsonTest, ASummaryKeepsWhatItPromisesAndFailsAsTheWholeDecodeDoes) {
  int decoded = 0, failed = 0, images = 0;
  for (const auto& path : testing::LegacyFiles(".payload.json")) {
    SCOPED_TRACE(path.string());
    const std::string text = testing::ReadFile(path);
    auto whole = ParseDeployedPackage(text);
    auto summary = ParseDeployedPackage(text, 0, DefinitionParts::kSummary);
    ASSERT_EQ(summary.ok(), whole.ok()) << summary.status().ToString();
    if (!whole.ok()) {
      EXPECT_EQ(summary.status().message(), whole.status().message());
      ++failed;
      continue;
    }
    ASSERT_TRUE(whole->data.is_object());
    EXPECT_TRUE(summary->data == DefinitionSummaryOf(whole->data));
    if (const json::Value* comps = summary->data.Find("components"); comps && comps->is_array()) {
      for (const json::Value& c : comps->array()) images += c.Find("images") != nullptr;
    }
    DeployedPackage rest = std::move(summary).value();
    rest.data = whole->data;
    EXPECT_TRUE(rest == *whole);
    ++decoded;
  }
  EXPECT_GT(decoded, 50);
  EXPECT_GT(failed, 5);
  EXPECT_GT(images, 100);
}

// Faults planted all through a realistic definition, in parts the summary
// builds and in parts it does not: the summary refuses each of them with the
// message the whole decode gives.
TEST(ModelJsonTest, ASummaryRefusesEveryFaultTheWholeDecodeRefuses) {
  const std::string text =
      testing::ReadData("legacy/e22-v0.80.0-v0.84.0/pkg-realistic-init-failed.payload.json");
  const std::size_t begin = text.find("\"data\":{");
  const std::size_t end = text.find("\"cliVersion\"");
  ASSERT_LT(begin, end);
  int checked = 0;
  for (const std::string_view fault : {",\"f\":01", ",\"f\":tru", ",\"f\":\"\\q\"", ",\"f\":[1,]",
                                       ",\"f\":{\"g\" 1}"}) {
    for (std::size_t at = text.find(",\"", begin); at < end; at = text.find(",\"", at + 1)) {
      std::string bad = text;
      bad.insert(at, fault);
      auto whole = ParseDeployedPackage(bad);
      auto summary = ParseDeployedPackage(bad, 0, DefinitionParts::kSummary);
      ASSERT_FALSE(whole.ok()) << bad.substr(at, 40);
      ASSERT_FALSE(summary.ok()) << bad.substr(at, 40);
      EXPECT_EQ(summary.status().message(), whole.status().message());
      ++checked;
    }
  }
  EXPECT_GT(checked, 1000);
}

TEST(ModelJsonTest, UnknownFieldsSurviveInPlace) {
  const std::string original =
      testing::ReadData("legacy/e22-v0.80.0-v0.84.0/pkg-edge-unknown-fields.payload.json");
  auto pkg = ParseDeployedPackage(original);
  ASSERT_TRUE(pkg.ok());
  ASSERT_EQ(pkg->unknown.members.size(), 2u);
  EXPECT_EQ(pkg->unknown.members[0].second.first, "lastEvent");
  EXPECT_EQ(pkg->unknown.members[1].second.first, "xFutureField");
  const DeployedComponent& c = pkg->deployed_components->at(0);
  ASSERT_EQ(c.unknown.members.size(), 2u);
  EXPECT_EQ(c.unknown.members[0].first, 3);  // after observedGeneration
  EXPECT_EQ(c.unknown.members[0].second.first, "images");
}

TEST(ModelJsonTest, NewStructsAreWrittenExactlyAsGoWould) {
  DeployedPackage pkg;
  pkg.name = "demo";
  pkg.deployed_components.emplace();
  DeployedComponent c;
  c.name = "web";
  c.installed_charts.emplace();
  c.status = "Succeeded";
  c.observed_generation = 1;
  c.last_event = ComponentEvent{"Deploy", "Succeeded", *ParseRfc3339("2026-01-02T03:04:05.5Z"), {}};
  pkg.deployed_components->push_back(c);
  PackageEvent e;
  e.type = "Deploy";
  e.outcome = "Succeeded";
  e.timestamp = *ParseRfc3339("2026-01-02T03:04:05.120000000Z");
  e.config_digest = "sha256:ab";
  pkg.events.push_back(e);
  EXPECT_EQ(EncodeDeployedPackage(pkg),
            R"({"name":"demo","digest":"","data":{},"cliVersion":"","generation":0,"deployedComponents":[)"
            R"({"name":"web","installedCharts":[],"status":"Succeeded","observedGeneration":1,)"
            R"("lastEvent":{"type":"Deploy","outcome":"Succeeded","timestamp":"2026-01-02T03:04:05.5Z"}}],)"
            R"("packageConnectivity":"","events":[{"type":"Deploy","outcome":"Succeeded",)"
            R"("timestamp":"2026-01-02T03:04:05.12Z","configDigest":"sha256:ab"}]})");
}

// ZEP-0026 declares `LastEvent ComponentEvent` (a struct) and Zarf `digest`
// without omitempty: Go writes both always, the event as its zero value.
TEST(ModelJsonTest, LastEventAndDigestAreWrittenAsGoWritesTheZepTypes) {
  DeployedPackage pkg;
  pkg.name = "demo";
  DeployedComponent c;
  c.name = "web";
  c.installed_charts.emplace();
  pkg.deployed_components.emplace().push_back(c);
  const std::string want =
      R"({"name":"demo","digest":"","data":{},"cliVersion":"","generation":0,"deployedComponents":[)"
      R"({"name":"web","installedCharts":[],"status":"","observedGeneration":0,)"
      R"("lastEvent":{"type":"","outcome":"","timestamp":"0001-01-01T00:00:00Z"}}],)"
      R"("packageConnectivity":""})";
  EXPECT_EQ(EncodeDeployedPackage(pkg), want);
  // The zero event reads back as "no event" and writes back unchanged.
  auto back = ParseDeployedPackage(want);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_FALSE((*back->deployed_components)[0].last_event.has_value());
  EXPECT_EQ(EncodeDeployedPackage(*back), want);
  // A legacy payload without the keys keeps them out, until it is made v2.
  const std::string legacy =
      R"({"name":"demo","data":{},"cliVersion":"v0.79.0","generation":1,"deployedComponents":[)"
      R"({"name":"web","installedCharts":[],"status":"Succeeded","observedGeneration":1}],)"
      R"("packageConnectivity":"airgap"})";
  auto old = ParseDeployedPackage(legacy);
  ASSERT_TRUE(old.ok());
  EXPECT_EQ(EncodeDeployedPackage(*old), legacy);
  MarkGoWritten(&*old);
  EXPECT_EQ(EncodeDeployedPackage(*old),
            R"({"name":"demo","digest":"","data":{},"cliVersion":"v0.79.0","generation":1,)"
            R"("deployedComponents":[{"name":"web","installedCharts":[],"status":"Succeeded",)"
            R"("observedGeneration":1,"lastEvent":{"type":"","outcome":"",)"
            R"("timestamp":"0001-01-01T00:00:00Z"}}],"packageConnectivity":"airgap"})");
}

TEST(ModelJsonTest, MalformedPayloadsGiveErrorsNamingTheProblem) {
  const std::string era = "legacy/e22-v0.80.0-v0.84.0/";
  auto overflow = ParseDeployedPackage(testing::ReadData(era + "malformed-int-overflow.payload.json"));
  ASSERT_FALSE(overflow.ok());
  EXPECT_NE(overflow.status().message().find("overflows int64"), std::string_view::npos);
  auto truncated = ParseDeployedPackage(testing::ReadData(era + "malformed-truncated-json.payload.json"));
  ASSERT_FALSE(truncated.ok());
  EXPECT_EQ(truncated.status().code(), Status::Code::kCorruption);
  auto wrong = ParseDeployedPackage(
      testing::ReadData("legacy/e04-v0.22.0-v0.25.2/malformed-wrong-type.payload.json"));
  ASSERT_FALSE(wrong.ok());
  EXPECT_EQ(wrong.status().message(), "deployedComponents: expected array, got object");
}

TEST(ModelJsonTest, FieldErrorsCarryTheirPath) {
  auto bad = ParseDeployedPackage(
      R"({"name":"x","deployedComponents":[{"name":"a","installedCharts":[{"namespace":5}]}]})");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(),
            "deployedComponents[0].installedCharts[0].namespace: expected string, got number");
  auto time = ParseDeployedPackage(R"({"events":[{"type":"Deploy","timestamp":"yesterday"}]})");
  ASSERT_FALSE(time.ok());
  EXPECT_NE(time.status().message().find("events[0].timestamp"), std::string_view::npos);
}

TEST(ModelJsonTest, SecretNamesFollowZarf) {
  EXPECT_EQ(PackageSecretName("dos-games", ""), "zarf-package-dos-games");
  EXPECT_EQ(PackageSecretName("dos-games", "games-2"), "zarf-package-dos-games-override-games-2");
}

}  // namespace
}  // namespace zs
