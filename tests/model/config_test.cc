#include "model/config.h"

#include <gtest/gtest.h>

#include "json/json_reader.h"
#include "tests/test_util.h"

namespace zs {
namespace {

TEST(ConfigTest, EveryConfigDigestVectorMarshalsAndDigestsLikeZarf) {
  const auto lines = testing::ReadLines("vectors/config-digest.jsonl");
  ASSERT_EQ(lines.size(), 120u);
  for (const std::string& line : lines) {
    auto vec = json::ParseJson(line);
    ASSERT_TRUE(vec.ok());
    const std::string& kind = vec->Find("kind")->as_string();
    const std::string& input = vec->Find("input")->as_string();
    auto doc = json::ParseJson(input);
    ASSERT_TRUE(doc.ok()) << input;
    Result<std::string> marshaled = Status::NotFound("unset");
    if (kind == "deploy") {
      auto c = DecodeDeployConfig(*doc);
      ASSERT_TRUE(c.ok()) << c.status().ToString();
      marshaled = MarshalDeployConfig(*c);
      ASSERT_TRUE(marshaled.ok());
      EXPECT_EQ(*DeployConfigDigest(*c), vec->Find("digest")->as_string());
    } else {
      auto c = DecodeRemoveConfig(*doc);
      ASSERT_TRUE(c.ok()) << c.status().ToString();
      marshaled = MarshalRemoveConfig(*c);
      ASSERT_TRUE(marshaled.ok());
      EXPECT_EQ(*RemoveConfigDigest(*c), vec->Find("digest")->as_string());
    }
    EXPECT_EQ(*marshaled, vec->Find("marshaled")->as_string()) << "input: " << input;
  }
}

// Values and ValuesOverridesMap hold `any`: Go reads every number as a
// float64, so integers past 2^53 are digested as Go rounds them. The digests
// are Go's (json.Marshal of the Go struct, then SHA-256).
TEST(ConfigTest, BigIntegersInValuesAreDigestedAsGoRoundsThem) {
  struct Case {
    const char* input;
    const char* marshaled;
    const char* digest;
  };
  for (const Case& c : {
           Case{R"({"Values":{"a":9223372036854775807}})",
                R"({"SetVariables":null,"Values":{"a":9223372036854776000},"NamespaceOverride":"","ValuesOverridesMap":null})",
                "sha256:babd610cf428b56db16539f1834e89592cc86c026ed2c8ff89d1358982f6eae9"},
           Case{R"({"Values":{"a":9223372036854775807,"b":12345678901234567890}})",
                R"({"SetVariables":null,"Values":{"a":9223372036854776000,"b":12345678901234567000},"NamespaceOverride":"","ValuesOverridesMap":null})",
                "sha256:6667687ad0bcb4bcf76753de7e3186925a6186ba2196c25dfed236066f5f59f3"},
       }) {
    auto doc = json::ParseJson(c.input);
    ASSERT_TRUE(doc.ok());
    auto config = DecodeDeployConfig(*doc);
    ASSERT_TRUE(config.ok()) << config.status().ToString();
    EXPECT_EQ(*MarshalDeployConfig(*config), c.marshaled);
    EXPECT_EQ(*DeployConfigDigest(*config), c.digest);
  }
}

TEST(ConfigTest, FieldNamesMatchCaseInsensitivelyAsInGo) {
  auto doc = json::ParseJson(R"({"namespaceoverride":"x","SETVARIABLES":{"A":"1"}})");
  auto c = DecodeDeployConfig(*doc);
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->namespace_override, "x");
  EXPECT_EQ(*MarshalDeployConfig(*c),
            R"({"SetVariables":{"A":"1"},"Values":null,"NamespaceOverride":"x","ValuesOverridesMap":null})");
}

TEST(ConfigTest, RepeatedMapFieldMergesLikeGoReusingTheMap) {
  auto doc = json::ParseJson(R"({"Values":{"a":1,"b":2},"Values":{"b":3}})");
  auto c = DecodeDeployConfig(*doc);
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(*MarshalDeployConfig(*c),
            R"({"SetVariables":null,"Values":{"a":1,"b":3},"NamespaceOverride":"","ValuesOverridesMap":null})");
}

TEST(ConfigTest, NullSetVariableBecomesEmptyString) {
  auto doc = json::ParseJson(R"({"SetVariables":{"A":null}})");
  auto c = DecodeDeployConfig(*doc);
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->set_variables->at("A"), "");
}

TEST(ConfigTest, WrongKindsAreErrorsNamingThePath) {
  for (const char* bad : {R"({"Values":[1]})", R"({"SetVariables":{"A":1}})",
                          R"({"ValuesOverridesMap":{"comp":5}})",
                          R"({"ValuesOverridesMap":{"comp":{"chart":"x"}}})", R"([1])",
                          R"({"NamespaceOverride":7})"}) {
    auto doc = json::ParseJson(bad);
    ASSERT_TRUE(doc.ok());
    auto c = DecodeDeployConfig(*doc);
    EXPECT_FALSE(c.ok()) << bad;
    EXPECT_EQ(c.status().code(), Status::Code::kInvalidArgument);
  }
  auto doc = json::ParseJson(R"({"ValuesOverridesMap":{"comp":{"chart":"x"}}})");
  EXPECT_NE(DecodeDeployConfig(*doc).status().message().find("ValuesOverridesMap.comp.chart"),
            std::string_view::npos);
}

TEST(ConfigTest, UndigestableNumberIsAnErrorNotACrash) {
  auto doc = json::ParseJson(R"({"Values":{"x":1e999}})");
  ASSERT_TRUE(doc.ok());
  auto c = DecodeDeployConfig(*doc);
  ASSERT_TRUE(c.ok());
  auto d = DeployConfigDigest(*c);
  EXPECT_FALSE(d.ok());
  EXPECT_NE(d.status().message().find("1e999"), std::string_view::npos);
}

}  // namespace
}  // namespace zs
