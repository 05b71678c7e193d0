// Migration over every fixture of every era: detection, lossless round trips,
// idempotence, the named mappings, and the malformed inputs.
#include "migrate/migrate.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <regex>

#include "json/go_json.h"
#include "json/json_reader.h"
#include "model/model_json.h"
#include "kube/package_secret.h"
#include "kube/secret.h"
#include "engine/derived_status.h"
#include "migrate/internal/migrators.h"
#include "model/timestamp.h"
#include "tests/test_util.h"

namespace zs::migrate {
namespace {

using zs::testing::LegacyFiles;
using zs::testing::ReadData;
using zs::testing::ReadFile;

struct Fixture {
  std::filesystem::path path;
  PayloadKind kind;
  std::string era_shape;  // the shape the era's Zarf wrote
};

// Valid payload fixtures, with the shape of the era that wrote them.
std::vector<Fixture> ValidPayloads() {
  std::vector<Fixture> out;
  for (const auto& path : LegacyFiles(".payload.json")) {
    const std::string name = path.filename().string();
    if (name.rfind("malformed-", 0) == 0) continue;
    const std::string dir = path.parent_path().filename().string();  // e04-v0.22.0-v0.25.2
    const Era* era = EraOfTag(dir.substr(4, dir.find('-', 4) - 4));
    EXPECT_NE(era, nullptr) << dir;
    if (era == nullptr) continue;
    const bool pkg = name.rfind("pkg-", 0) == 0;
    out.push_back({path, pkg ? PayloadKind::kPackage : PayloadKind::kState,
                   std::string(pkg ? ShapeName(*era->package) : ShapeName(era->state))});
  }
  return out;
}

// A v2 payload: a P10 fixture after three recorded events, as the engine
// writes it.
std::string V2Payload() {
  Result<DeployedPackage> pkg = ParseDeployedPackage(
      ReadData("legacy/e22-v0.80.0-v0.84.0/pkg-realistic-init-failed.payload.json"));
  EXPECT_TRUE(pkg.ok());
  Result<Timestamp> t = ParseRfc3339("2026-11-30T08:00:00.123456789Z");
  EXPECT_TRUE(t.ok());
  for (const char* outcome : {"InProgress", "Failed", "InProgress"}) {
    PackageEvent e;
    e.type = "Deploy";
    e.outcome = outcome;
    e.timestamp = *t;
    e.version = "v0.84.0";
    e.config_digest = "sha256:" + std::string(64, 'a');
    pkg->events.push_back(e);
  }
  pkg->events.back().outcome = "Succeeded";
  pkg->deploy_config = json::ParseJson(R"({"SetVariables":null,"Values":null,)"
                                       R"("NamespaceOverride":"","ValuesOverridesMap":null})")
                           .value();
  pkg->config_digest = pkg->events.back().config_digest;
  for (DeployedComponent& c : *pkg->deployed_components) {
    c.last_event = ComponentEvent{"Deploy", "Succeeded", *t, {}};
  }
  return EncodeDeployedPackage(*pkg);
}

Target To(std::string_view spelled) {
  Result<Target> t = ParseTarget(spelled);
  EXPECT_TRUE(t.ok()) << t.status().ToString();
  return *t;
}

TEST(MigrateTest, DetectsTheEraShapeOfEveryFixture) {
  int exact = 0, ambiguous = 0;
  const std::vector<Fixture> fixtures = ValidPayloads();
  ASSERT_GE(fixtures.size(), 120u);
  for (const Fixture& f : fixtures) {
    Result<json::Value> v = json::ParseJson(ReadFile(f.path));
    ASSERT_TRUE(v.ok()) << f.path;
    Result<Detection> d = DetectShape(*v, f.kind);
    ASSERT_TRUE(d.ok()) << f.path << ": " << d.status().ToString();
    // A top-level `events` is a ZEP-0026 history whatever its types: v2.
    const std::string shape = v->Find("events") != nullptr ? "v2" : f.era_shape;
    EXPECT_NE(std::find(d->candidates.begin(), d->candidates.end(), shape), d->candidates.end())
        << f.path << ": era shape " << shape << " not among candidates of " << d->shape;
    EXPECT_FALSE(d->evidence.empty()) << f.path;
    if (d->ambiguous()) {
      ++ambiguous;
      EXPECT_EQ(d->shape, d->candidates.front());
      bool reported = false;
      for (const std::string& w : d->warnings) {
        reported = reported || w.rfind("ambiguous: the keys fit ", 0) == 0;
      }
      EXPECT_TRUE(reported) << f.path << ": ambiguity not reported";
    } else {
      EXPECT_EQ(d->shape, shape) << f.path;
      ++exact;
    }
  }
  // The shapes that omitempty hides (FORMATS.md A1..A7) are the only
  // ambiguous ones; most fixtures name their shape outright.
  EXPECT_GT(exact, ambiguous);
}

TEST(MigrateTest, UpgradeThenDowngradeGivesBackTheOriginalBytes) {
  for (const Fixture& f : ValidPayloads()) {
    const std::string original = ReadFile(f.path);
    Result<MigratedPayload> up = MigratePayload(original, f.kind, To("v2"));
    ASSERT_TRUE(up.ok()) << f.path << ": " << up.status().ToString();
    Result<MigratedPayload> down = MigratePayload(up->bytes, f.kind, To(f.era_shape));
    ASSERT_TRUE(down.ok()) << f.path << ": " << down.status().ToString();
    // A top-level `events` is a ZEP-0026 history whatever its types: the
    // era's shape has none, so that member alone does not come back.
    static const std::regex kEvents(R"re(,"events":\[[^\]]*\])re");
    EXPECT_EQ(down->bytes, std::regex_replace(original, kEvents, ""))
        << f.path << "\nvia " << up->bytes;
  }
}

// A top-level `events` with types outside today's vocabulary (FORMATS.md
// trap A4) is what a ZEP-0026 Zarf reads as the history (type and outcome
// are plain strings): it stays `events`, and a history an older zarf-state
// set aside under another name gets its name back.
TEST(MigrateTest, AnEventsFieldOutsideTheVocabularyStaysTheHistory) {
  const std::string original =
      ReadData("legacy/e22-v0.80.0-v0.84.0/pkg-edge-unknown-fields.payload.json");
  ASSERT_NE(original.find("\"events\":[{\"type\":\"Deployed\""), std::string::npos);
  Result<MigratedPayload> up = MigratePayload(original, PayloadKind::kPackage, To("v2"));
  ASSERT_TRUE(up.ok()) << up.status().ToString();
  EXPECT_NE(up->bytes.find("\"events\":[{\"type\":\"Deployed\""), std::string::npos) << up->bytes;
  EXPECT_EQ(up->bytes.find("x-zarf-state-foreign-events"), std::string::npos);
  std::string set_aside = up->bytes;
  set_aside.replace(set_aside.find("\"events\":"), 9, "\"x-zarf-state-foreign-events\":");
  Result<MigratedPayload> back = MigratePayload(set_aside, PayloadKind::kPackage, To("v2"));
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->bytes, up->bytes);
}

TEST(MigrateTest, MigratingTheTargetShapeAgainChangesNoByte) {
  for (const Fixture& f : ValidPayloads()) {
    for (const char* target : {"v2", "legacy"}) {
      Result<MigratedPayload> once = MigratePayload(ReadFile(f.path), f.kind, To(target));
      ASSERT_TRUE(once.ok()) << f.path;
      Result<MigratedPayload> twice = MigratePayload(once->bytes, f.kind, To(target));
      ASSERT_TRUE(twice.ok()) << f.path;
      EXPECT_EQ(twice->bytes, once->bytes) << f.path << " --to " << target;
      EXPECT_FALSE(twice->report.changed) << f.path;
      // A legacy package upgraded to v2 has no history yet, so its keys are
      // those of P9 or P10 (v2 omits an unknown digest); only that is v2.
      const std::string shape = twice->report.detection.shape;
      if (f.kind == PayloadKind::kState) {
        EXPECT_EQ(shape, "S14") << f.path;
      } else if (std::string(target) == "legacy") {
        EXPECT_EQ(shape, "P10") << f.path;
      } else {
        EXPECT_TRUE(shape == "v2" || shape == "P10" || shape == "P9") << f.path << ": " << shape;
      }
    }
  }
}

TEST(MigrateTest, V2PackageIsLeftByteForByte) {
  const std::string payload = V2Payload();
  Result<MigratedPayload> m = MigratePayload(payload, PayloadKind::kPackage, To("v2"));
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_EQ(m->report.detection.shape, "v2");
  EXPECT_EQ(m->report.detection.evidence.at(0), "has events");
  EXPECT_EQ(m->bytes, payload);
  EXPECT_FALSE(m->report.changed);
  EXPECT_TRUE(m->report.mappings.empty());
}

TEST(MigrateTest, DowngradeOfV2StripsHistoryAndKeepsStatus) {
  const std::string payload = V2Payload();
  Result<DeployedPackage> before = ParseDeployedPackage(payload);
  ASSERT_TRUE(before.ok());
  ASSERT_FALSE(before->events.empty());
  Result<MigratedPayload> m = MigratePayload(payload, PayloadKind::kPackage, To("legacy"));
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_EQ(m->report.target, "P10");
  Result<DeployedPackage> decoded = ParseDeployedPackage(m->bytes);
  ASSERT_TRUE(decoded.ok());
  const DeployedPackage& after = *decoded;
  EXPECT_TRUE(after.events.empty());
  EXPECT_FALSE(after.deploy_config.has_value());
  EXPECT_TRUE(after.config_digest.empty());
  ASSERT_EQ(after.deployed_components->size(), before->deployed_components->size());
  for (std::size_t i = 0; i < after.deployed_components->size(); ++i) {
    EXPECT_FALSE((*after.deployed_components)[i].last_event.has_value());
    EXPECT_EQ((*after.deployed_components)[i].status, (*before->deployed_components)[i].status);
  }
  EXPECT_EQ(after.data, before->data);
  bool reported = false;
  for (const std::string& line : m->report.mappings) {
    reported = reported || line.rfind("dropped events: " +
                                          std::to_string(before->events.size()), 0) == 0;
  }
  EXPECT_TRUE(reported);
}

TEST(MigrateTest, LegacyPackagesGetNoInventedHistory) {
  for (const char* era : {"e04-v0.22.0-v0.25.2", "e06-v0.26.3-v0.29.2", "e11-v0.42.0-v0.49.1"}) {
    const std::string path = std::string("legacy/") + era + "/pkg-realistic-init-full.payload.json";
    Result<MigratedPayload> m = MigratePayload(ReadData(path), PayloadKind::kPackage, To("v2"));
    ASSERT_TRUE(m.ok()) << path << ": " << m.status().ToString();
    Result<DeployedPackage> decoded = ParseDeployedPackage(m->bytes);
    ASSERT_TRUE(decoded.ok());
    const DeployedPackage& pkg = *decoded;
    EXPECT_TRUE(pkg.events.empty());
    for (const DeployedComponent& c : *pkg.deployed_components) {
      EXPECT_FALSE(c.last_event.has_value()) << path;
      EXPECT_EQ(c.status, "") << path << ": status invented";
      EXPECT_NE(engine::ComponentEventSummary(c).find(kOutcomeUnknown), std::string::npos);
    }
    EXPECT_EQ(engine::LatestEvent(pkg), nullptr);
  }
}

TEST(MigrateTest, P3ComponentWebhooksSurviveTheRoundTrip) {
  const std::string original =
      ReadData("legacy/e07-v0.30.0-v0.35.0/pkg-realistic-init-failed.payload.json");
  ASSERT_NE(original.find("\"componentWebhooks\""), std::string::npos);
  Result<MigratedPayload> up = MigratePayload(original, PayloadKind::kPackage, To("v2"));
  ASSERT_TRUE(up.ok());
  EXPECT_NE(up->bytes.find("\"componentWebhooks\""), std::string::npos);
  Result<json::Value> a = json::ParseJson(original);
  Result<json::Value> b = json::ParseJson(up->bytes);
  EXPECT_EQ(*a->Find("componentWebhooks"), *b->Find("componentWebhooks"));
}

TEST(MigrateTest, StateMappingsAreAppliedAndReported) {
  // S3: capitalised agentTLS keys and the string nodePort at the top level.
  const std::string s3 = ReadData("legacy/e03-v0.19.0-v0.21.3/state-internal.payload.json");
  Result<MigratedPayload> m = MigratePayload(s3, PayloadKind::kState, To("v2"));
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_EQ(m->report.detection.shape, "S3");
  EXPECT_EQ(m->report.target, "S14");
  Result<json::Value> in = json::ParseJson(s3);
  Result<json::Value> out = json::ParseJson(m->bytes);
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(out->Find("agentTLS")->Find("ca")->as_string(),
            in->Find("agentTLS")->Find("CA")->as_string());
  EXPECT_EQ(out->Find("agentTLS")->Find("CA"), nullptr);
  EXPECT_EQ(out->Find("registryInfo")->Find("nodePort")->number_raw(),
            in->Find("nodePort")->as_string());
  EXPECT_EQ(out->Find("registryInfo")->Find("port")->number_raw(),
            in->Find("nodePort")->as_string());
  EXPECT_EQ(out->Find("nodePort"), nullptr);
  // Values Zarf dropped survive: the early top-level secret and architecture.
  EXPECT_EQ(out->Find("secret")->as_string(), in->Find("secret")->as_string());
  EXPECT_EQ(out->Find("architecture")->as_string(), in->Find("architecture")->as_string());
  auto has = [&](std::string_view text) {
    for (const std::string& line : m->report.mappings) {
      if (line.find(text) != std::string::npos) return true;
    }
    return false;
  };
  EXPECT_TRUE(has("renamed agentTLS.CA -> agentTLS.ca"));
  EXPECT_TRUE(has("moved nodePort -> registryInfo.nodePort (string \"31999\" to integer)"));
  EXPECT_FALSE(m->report.warnings.empty());  // no credentials in S3
}

TEST(MigrateTest, DowngradeToAnOldStateDerivesTheInternalFlags) {
  const std::string s14 = ReadData("legacy/e22-v0.80.0-v0.84.0/state-internal.payload.json");
  Result<MigratedPayload> m = MigratePayload(s14, PayloadKind::kState, To("v0.30.0"));
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_EQ(m->report.target, "S5");
  Result<json::Value> out = json::ParseJson(m->bytes);
  EXPECT_TRUE(out->Find("gitServer")->Find("internalServer")->as_bool());
  EXPECT_TRUE(out->Find("registryInfo")->Find("internalRegistry")->as_bool());
  EXPECT_TRUE(out->Find("artifactServer")->Find("internalServer")->as_bool());
  EXPECT_EQ(out->Find("loggingSecret")->as_string(), "");
  EXPECT_EQ(out->Find("registryInfo")->Find("port"), nullptr);  // equal to nodePort
  const std::string ext = ReadData("legacy/e22-v0.80.0-v0.84.0/state-external.payload.json");
  m = MigratePayload(ext, PayloadKind::kState, To("S5"));
  ASSERT_TRUE(m.ok());
  out = json::ParseJson(m->bytes);
  EXPECT_FALSE(out->Find("gitServer")->Find("internalServer")->as_bool());
  EXPECT_FALSE(out->Find("registryInfo")->Find("internalRegistry")->as_bool());
}

TEST(MigrateTest, MalformedPayloadsFailWithANamedReason) {
  int n = 0;
  for (const auto& path : LegacyFiles(".payload.json")) {
    if (path.filename().string().rfind("malformed-", 0) != 0) continue;
    ++n;
    Result<MigratedPayload> m = MigratePayload(ReadFile(path), PayloadKind::kPackage, To("v2"));
    ASSERT_FALSE(m.ok()) << path;
    const std::string name = path.filename().string();
    if (name.find("truncated") != std::string::npos) {
      EXPECT_EQ(m.status().code(), Status::Code::kCorruption) << m.status().ToString();
    } else {
      EXPECT_EQ(m.status().code(), Status::Code::kInvalidArgument) << m.status().ToString();
    }
    if (name.find("int-overflow") != std::string::npos) {
      EXPECT_NE(m.status().message().find("overflows int64"), std::string::npos)
          << m.status().ToString();
    }
  }
  EXPECT_GE(n, 6);
}

// MigratePayload's package path that leaves `data` unbuilt against the
// whole-tree path: same result, same report, same error.
void ExpectSameAsTreePath(const std::string& payload, PayloadKind kind, const Target& target,
                          const std::string& what) {
  const Result<MigratedPayload> fast = MigratePayload(payload, kind, target);
  const Result<MigratedPayload> tree = internal::MigratePayloadWithTree(payload, kind, target);
  ASSERT_EQ(fast.ok(), tree.ok()) << what << ": " << fast.status().ToString() << " vs "
                                  << tree.status().ToString();
  if (!fast.ok()) {
    EXPECT_EQ(fast.status().ToString(), tree.status().ToString()) << what;
    return;
  }
  EXPECT_EQ(fast->bytes, tree->bytes) << what;
  const MigrationReport& a = fast->report;
  const MigrationReport& b = tree->report;
  EXPECT_EQ(a.target, b.target) << what;
  EXPECT_EQ(a.changed, b.changed) << what;
  EXPECT_EQ(a.bytes_before, b.bytes_before) << what;
  EXPECT_EQ(a.bytes_after, b.bytes_after) << what;
  EXPECT_EQ(a.mappings, b.mappings) << what;
  EXPECT_EQ(a.warnings, b.warnings) << what;
  EXPECT_EQ(a.detection.shape, b.detection.shape) << what;
  EXPECT_EQ(a.detection.candidates, b.detection.candidates) << what;
  EXPECT_EQ(a.detection.evidence, b.detection.evidence) << what;
}

TEST(MigrateTest, PackagePathLeavingDataMatchesTheTreePathOnEveryFixture) {
  int n = 0;
  for (const auto& path : LegacyFiles(".payload.json")) {
    const std::string original = ReadFile(path);
    for (const char* target : {"v2", "legacy", "P1", "P3", "P5", "P8", "P10", "v0.18.0"}) {
      ExpectSameAsTreePath(original, PayloadKind::kPackage, To(target),
                           path.string() + " --to " + target);
      ++n;
    }
  }
  ExpectSameAsTreePath(V2Payload(), PayloadKind::kPackage, To("legacy"), "v2 payload");
  EXPECT_GT(n, 800);
}

TEST(MigrateTest, PackagePathLeavingDataMatchesTheTreePathOnOddData) {
  const std::string base = ReadData("legacy/e22-v0.80.0-v0.84.0/pkg-realistic-init-failed.payload.json");
  Result<json::Value> doc = json::ParseJson(base);
  ASSERT_TRUE(doc.ok());
  std::string data;
  ASSERT_TRUE(json::AppendJson(&data, *doc->Find("data")).ok());
  // Each variant replaces the text of `data` (or adds members around it).
  const std::vector<std::pair<std::string, std::string>> variants = {
      {"data", data},
      {"pretty data", "{\n  \"kind\" : \"ZarfPackageConfig\" ,\r\n \"metadata\":{ \"name\":\"x\"}\t}"},
      {"escapes", R"({"kind":"ZarfPackageConfig","metadata":{"name":"a\u0026b\u003c\/\n\u00e9<>&\u2028"}})"},
      {"surrogates", R"({"kind":"ZarfPackageConfig","metadata":{"name":"\ud83d\ude00"}})"},
      {"lone surrogate", R"({"kind":"ZarfPackageConfig","metadata":{"name":"\ud83d"}})"},
      {"numbers", R"({"kind":"ZarfPackageConfig","n":[0,-0,1.5e+10,123456789012345678901234,1E-7]})"},
      {"bad number", R"({"kind":"ZarfPackageConfig","n":01})"},
      {"trailing comma", R"({"kind":"ZarfPackageConfig",})"},
      {"bad escape", R"({"kind":"Zarf\qPackageConfig"})"},
      {"duplicate keys inside", R"({"kind":"a","kind":"b"})"},
      {"empty", "{}"},
      {"null", "null"},
      {"array", "[1,2]"},
      {"string", R"("text")"},
      {"deep", std::string(600, '[') + std::string(600, ']')},
      {"deep enough", "{\"a\":" + std::string(509, '[') + std::string(509, ']') + "}"},
      {"too deep by one", "{\"a\":" + std::string(510, '[') + std::string(510, ']') + "}"},
      // `data` is read by the fast path alone (the parser skips it): bytes
      // that are not UTF-8 must fail there as the tree path's parse fails.
      {"not UTF-8 in a string", "{\"kind\":\"ZarfPackageConfig\",\"metadata\":{\"name\":\"a\xff\"}}"},
      {"not UTF-8 in a key", "{\"kind\":\"ZarfPackageConfig\",\"\xc3\":1}"},
      {"not UTF-8 between tokens", "{\"kind\":\"ZarfPackageConfig\"\xc3\xa9}"},
      {"cut short", "{\"kind\":\"ZarfPackageConfig\",\"metadata\":{\"name\":\"x\"}"},
  };
  const std::string marker = "\"data\":";
  const std::size_t at = base.find(marker);
  ASSERT_NE(at, std::string::npos);
  const std::size_t end = at + marker.size() + data.size();
  ASSERT_EQ(base.substr(at + marker.size(), data.size()), data);
  for (const auto& [name, text] : variants) {
    const std::string payload = base.substr(0, at + marker.size()) + text + base.substr(end);
    for (const char* target : {"v2", "legacy", "P5"}) {
      ExpectSameAsTreePath(payload, PayloadKind::kPackage, To(target), name + " --to " + target);
    }
  }
  // Two `data` members, and `data` spaced out inside the payload.
  const std::string twice = base.substr(0, base.size() - 1) + ",\"data\":{\"kind\":\"x\"}}";
  ExpectSameAsTreePath(twice, PayloadKind::kPackage, To("v2"), "twice");
  const std::string spaced =
      base.substr(0, at) + "\"data\" :\n " + data + " " + base.substr(end);
  ExpectSameAsTreePath(spaced, PayloadKind::kPackage, To("v2"), "spaced");
  // Where `data` starts is found without parsing: members before it with
  // quotes, brackets and escapes, a key spelled with an escape, `data`
  // first, and text after the payload.
  const std::string tricky = "{\"x\\\"\":\"\\\"}],\\\\\",\"y\":[{\"data\":1}],\"z\":-1e3," + base.substr(1);
  ExpectSameAsTreePath(tricky, PayloadKind::kPackage, To("v2"), "tricky members before");
  std::string escaped_key = base;
  escaped_key.replace(at, marker.size(), "\"d\\u0061ta\":");
  ExpectSameAsTreePath(escaped_key, PayloadKind::kPackage, To("v2"), "escaped key");
  const std::string data_first = "{\"data\":" + data + "," + base.substr(1, at - 1) +
                                 base.substr(end + 1);
  ExpectSameAsTreePath(data_first, PayloadKind::kPackage, To("v2"), "data first");
  ExpectSameAsTreePath(base + " x", PayloadKind::kPackage, To("v2"), "text after");
}

// Reshape names a nested value with its indices in an error, and with "[*]"
// in the log, where the items of an array are one step counted.
TEST(MigrateTest, ReshapeNamesNestedValuesByIndexInErrorsAndByStarInTheLog) {
  const internal::Schema& v2 = internal::PackageSchema(PackageShape::kV2);
  const std::string chart = R"({"namespace":"a","chartName":"c","status":"Succeeded","x[7]":1})";
  const std::string component =
      R"({"name":"n","installedCharts":[)" + chart + "," + chart + R"(],"status":"Deploying",)"
      R"("observedGeneration":1,"name":"m"})";
  json::Value in = json::ParseJson(R"({"name":"p","data":{},"deployedComponents":[)" + component + "," +
                                   component + "]}")
                       .value();
  internal::ChangeLog log;
  json::Value out;
  ASSERT_TRUE(internal::Reshape(&in, v2, "", "v2", &log, &out).ok());
  const std::vector<std::string> mappings = log.mappings();
  EXPECT_NE(std::find(mappings.begin(), mappings.end(),
                      "kept unknown field deployedComponents[*].installedCharts[*].x[*] (x4)"),
            mappings.end())
      << ::testing::PrintToString(mappings);
  EXPECT_EQ(log.warnings(),
            std::vector<std::string>{
                "deployedComponents[*].name appears twice; the last one wins, as in Go (x2)"});

  json::Value bad = json::ParseJson(R"({"deployedComponents":[)" + component + "," + component +
                                    R"(,{"installedCharts":[{},{},{"namespace":5}]}]})")
                        .value();
  internal::ChangeLog ignored;
  const Status s = internal::Reshape(&bad, v2, "", "v2", &ignored, &out);
  EXPECT_EQ(s.message(), "deployedComponents[2].installedCharts[2].namespace: expected string, "
                         "got number");
  bad = json::ParseJson(R"({"deployedComponents":[{},{"installedCharts":[{},7]}]})").value();
  EXPECT_EQ(internal::Reshape(&bad, v2, "", "v2", &ignored, &out).message(),
            "deployedComponents[1].installedCharts[1]: expected object, got number");
}

TEST(MigrateTest, ABadStateNodePortIsRefused) {
  Result<MigratedPayload> m = MigratePayload(
      R"({"zarfAppliance":false,"distro":"k3d","architecture":"amd64","storageClass":"",)"
      R"("secret":"s","nodePort":"31x99"})",
      PayloadKind::kState, To("v2"));
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.status().message().find("nodePort: \"31x99\" is not a port number"),
            std::string::npos)
      << m.status().ToString();
}

TEST(MigrateTest, TargetsParse) {
  EXPECT_EQ(*To("v0.45.0").package, PackageShape::kP5);
  EXPECT_EQ(*To("v0.45.0").state, StateShape::kS7);
  EXPECT_EQ(*To("v0.84.3").package, PackageShape::kP10);
  EXPECT_FALSE(To("v0.18.0").package.has_value());
  EXPECT_FALSE(To("v0.18.0").package_note.empty());
  EXPECT_EQ(*To("P7").package, PackageShape::kP7);
  EXPECT_FALSE(To("P7").state.has_value());
  EXPECT_EQ(*To("S12").state, StateShape::kS12);
  EXPECT_FALSE(ParseTarget("v3").ok());
  EXPECT_FALSE(ParseTarget("v0.14.0").ok());
  EXPECT_FALSE(ParseTarget("P11").ok());
}

// Reshaping and detection look a member's field up from where the last one
// was found: that finds the same field from any start only while every
// level's keys are distinct.
void ExpectDistinctKeys(const internal::Schema& schema, const std::string& where) {
  for (std::size_t i = 0; i < schema.fields.size(); ++i) {
    const internal::Field& f = schema.fields[i];
    for (std::size_t from = 0; from <= schema.fields.size(); ++from) {
      int index = -1;
      ASSERT_EQ(schema.Find(f.key, &index, from), &f) << where << "." << f.key << " from " << from;
      ASSERT_EQ(index, static_cast<int>(i)) << where << "." << f.key;
    }
    EXPECT_EQ(schema.Find(f.key + "x", nullptr, i), nullptr) << where;
    if (f.sub != nullptr) ExpectDistinctKeys(*f.sub, where + "." + f.key);
  }
}

// Fits remembers which of an object's first 64 fields it has in a bit
// mask; a field past those is looked up in the object instead.
TEST(MigrateTest, FitsChecksRequiredFieldsPastTheSixtyFourth) {
  internal::Schema wide;
  for (int i = 0; i < 70; ++i) {
    internal::Field f;
    f.key = std::string("f").append(std::to_string(i));
    f.omitempty = i != 3 && i != 66;  // one required field each side of 64
    wide.fields.push_back(f);
  }
  auto object = [](std::initializer_list<int> present) {
    json::Value v = json::Value::MakeObject();
    for (int i : present) {
      v.object().emplace_back(std::string("f").append(std::to_string(i)), json::Value::String(""));
    }
    return v;
  };
  std::string why;
  EXPECT_TRUE(internal::Fits(object({3, 66}), wide, "", &why)) << why;
  EXPECT_TRUE(internal::Fits(object({66, 0, 69, 3}), wide, "", &why)) << why;
  EXPECT_FALSE(internal::Fits(object({3, 65, 67}), wide, "x", &why));
  EXPECT_EQ(why, "no x.f66");
  EXPECT_FALSE(internal::Fits(object({66, 64}), wide, "", &why));
  EXPECT_EQ(why, "no f3");
}

TEST(MigrateTest, EverySchemaLevelHasDistinctKeys) {
  for (int n = 1; n <= static_cast<int>(kNewestPackageShape); ++n) {
    std::string name = "P";
    name.append(std::to_string(n));
    ExpectDistinctKeys(internal::PackageSchema(static_cast<PackageShape>(n)), name);
  }
  for (int n = 1; n <= static_cast<int>(kNewestStateShape); ++n) {
    std::string name = "S";
    name.append(std::to_string(n));
    ExpectDistinctKeys(internal::StateSchema(static_cast<StateShape>(n)), name);
  }
}

}  // namespace
}  // namespace zs::migrate
