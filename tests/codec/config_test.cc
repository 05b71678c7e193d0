#include "codec/config.h"

#include <gtest/gtest.h>

#include "codec/json_reader.h"
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
