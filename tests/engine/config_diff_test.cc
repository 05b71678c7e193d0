#include "engine/config_diff.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "model/config.h"
#include "json/json_reader.h"

namespace zs::engine {
namespace {

json::Value J(std::string_view text) {
  auto doc = json::ParseJson(text);
  EXPECT_TRUE(doc.ok()) << doc.status().ToString() << " for " << text;
  return doc.ok() ? *doc : json::Value();
}

// FormatChanges(DiffConfigs(old, new)), or the error.
std::string Diff(std::string_view old_text, std::string_view new_text) {
  auto changes = DiffConfigs(J(old_text), J(new_text));
  if (!changes.ok()) return changes.status().ToString();
  return FormatChanges(*changes);
}

TEST(ConfigDiffTest, EqualConfigsHaveNoChanges) {
  const char* doc =
      R"({"Values":{"a":[1,{"b":"c"}]},"SetVariables":{"X":"1"}})";
  auto changes = DiffConfigs(J(doc), J(doc));
  ASSERT_TRUE(changes.ok());
  EXPECT_TRUE(changes->empty());
  EXPECT_EQ(FormatChanges(*changes), "");
}

TEST(ConfigDiffTest, ReportsAddedRemovedAndChangedAtDepthSortedByPath) {
  auto changes = DiffConfigs(
      J(R"({"Values":{"replicas":2,"debug":true,"image":{"tag":"1.0"}},
           "SetVariables":{}})"),
      J(R"({"SetVariables":{"DOMAIN":"x"},
           "Values":{"image":{"tag":"1.1"},"replicas":3}})"));
  ASSERT_TRUE(changes.ok()) << changes.status().ToString();
  ASSERT_EQ(changes->size(), 4u);
  const ConfigChange& added = (*changes)[0];
  EXPECT_EQ(added.kind, ConfigChange::Kind::kAdded);
  EXPECT_EQ(added.path, "SetVariables.DOMAIN");
  EXPECT_TRUE(added.old_value.is_null());
  EXPECT_EQ(added.new_value, json::Value::String("x"));
  EXPECT_FALSE(added.masked);
  const ConfigChange& removed = (*changes)[1];
  EXPECT_EQ(removed.kind, ConfigChange::Kind::kRemoved);
  EXPECT_EQ(removed.path, "Values.debug");
  EXPECT_EQ(removed.old_value, json::Value::Bool(true));
  EXPECT_TRUE(removed.new_value.is_null());
  EXPECT_EQ((*changes)[2].kind, ConfigChange::Kind::kChanged);
  EXPECT_EQ((*changes)[2].path, "Values.image.tag");
  EXPECT_EQ((*changes)[3].path, "Values.replicas");
  EXPECT_EQ((*changes)[3].old_value, json::Value::RawNumber("2"));
  EXPECT_EQ((*changes)[3].new_value, json::Value::RawNumber("3"));
  EXPECT_EQ(FormatChanges(*changes),
            "+ SetVariables.DOMAIN: \"x\"\n"
            "- Values.debug: true\n"
            "~ Values.image.tag: \"1.0\" -> \"1.1\"\n"
            "~ Values.replicas: 2 -> 3\n");
}

TEST(ConfigDiffTest, ValuesOverridesMapPathsNameComponentAndChart) {
  EXPECT_EQ(
      Diff(
          R"({"ValuesOverridesMap":{"web":{"podinfo":{"image":{"tag":"6.4"}}}}})",
          R"({"ValuesOverridesMap":{"web":{"podinfo":{"image":{"tag":"6.5"}},
                                           "redis":{"auth":false}}}})"),
      "~ ValuesOverridesMap.web.podinfo.image.tag: \"6.4\" -> \"6.5\"\n"
      "+ ValuesOverridesMap.web.redis: {\"auth\":false}\n");
}

TEST(ConfigDiffTest, ArraysCompareElementWiseAndReportExtraElements) {
  EXPECT_EQ(Diff(R"({"Values":{"hosts":["a","b","c"]}})",
                 R"({"Values":{"hosts":["a","B"]}})"),
            "~ Values.hosts[1]: \"b\" -> \"B\"\n"
            "- Values.hosts[2]: \"c\"\n");
  EXPECT_EQ(Diff(R"({"Values":{"hosts":[{"n":1}]}})",
                 R"({"Values":{"hosts":[{"n":2},null,{"n":3}]}})"),
            "~ Values.hosts[0].n: 1 -> 2\n"
            "+ Values.hosts[1]: null\n"
            "+ Values.hosts[2]: {\"n\":3}\n");
  EXPECT_EQ(Diff("[[1,2]]", "[[1,3]]"), "~ [0][1]: 2 -> 3\n");
}

TEST(ConfigDiffTest, PathsSortBytewiseSoIndexTenPrecedesIndexTwo) {
  EXPECT_EQ(Diff("[0,0,0,0,0,0,0,0,0,0,0]", "[0,0,1,0,0,0,0,0,0,0,1]"),
            "~ [10]: 0 -> 1\n"
            "~ [2]: 0 -> 1\n");
}

TEST(ConfigDiffTest, NumbersCompareByFloat64Value) {
  EXPECT_EQ(
      Diff(
          R"({"Values":{"a":5,"b":1e2,"c":0,"d":0.1,"e":[9007199254740993]}})",
          R"({"Values":{"a":5.0,"b":100,"c":-0,"d":1e-1,"e":[9007199254740992]}})"),
      "");
  // A changed number is shown as written.
  EXPECT_EQ(Diff(R"({"v":5.0})", R"({"v":6.50})"), "~ v: 5.0 -> 6.50\n");
}

TEST(ConfigDiffTest, NullAndAbsentMemberAreTheSame) {
  EXPECT_EQ(Diff(R"({"Values":null,"SetVariables":{"A":"1"}})",
                 R"({"SetVariables":{"A":"1"}})"),
            "");
  EXPECT_EQ(Diff(R"({"Values":{"x":{}}})", R"({"Values":{"x":{},"y":null}})"),
            "");
}

TEST(ConfigDiffTest, EmptyObjectVersusNullIsAChange) {
  EXPECT_EQ(Diff(R"({"Values":null})", R"({"Values":{}})"),
            "~ Values: null -> {}\n");
  EXPECT_EQ(Diff(R"({"Values":{"a":1}})", R"({"Values":null})"),
            "~ Values: {\"a\":1} -> null\n");
}

TEST(ConfigDiffTest, KindChangeIsOneChangeWithBothWholeValues) {
  EXPECT_EQ(Diff(R"({"a":{"b":1}})", R"({"a":[1]})"),
            "~ a: {\"b\":1} -> [1]\n");
  EXPECT_EQ(Diff(R"({"a":"5"})", R"({"a":5})"), "~ a: \"5\" -> 5\n");
  EXPECT_EQ(Diff("null", "{}"), "~ (root): null -> {}\n");
}

TEST(ConfigDiffTest, DuplicateKeysResolveLastWins) {
  EXPECT_EQ(Diff(R"({"a":1,"a":2})", R"({"a":2})"), "");
  EXPECT_EQ(Diff(R"({"a":2})", R"({"a":2,"a":3})"), "~ a: 2 -> 3\n");
  // A reported object shows each key once, with its last value.
  EXPECT_EQ(Diff("{}", R"({"o":{"k1":1,"k2":2,"k1":3}})"),
            "+ o: {\"k1\":3,\"k2\":2}\n");
}

TEST(ConfigDiffTest, SecretValuesAreMasked) {
  auto changes =
      DiffConfigs(J(R"({"SetVariables":{"DB_PASSWORD":"hunter2","HOST":"a"}})"),
                  J(R"({"SetVariables":{"DB_PASSWORD":"hunter3","HOST":"a",
                                         "API_TOKEN":"t0k"}})"));
  ASSERT_TRUE(changes.ok());
  ASSERT_EQ(changes->size(), 2u);
  EXPECT_EQ((*changes)[0].path, "SetVariables.API_TOKEN");
  EXPECT_TRUE((*changes)[0].masked);
  EXPECT_TRUE((*changes)[0].old_value.is_null());
  EXPECT_EQ((*changes)[0].new_value, json::Value::String("[REDACTED]"));
  EXPECT_TRUE((*changes)[1].masked);
  EXPECT_EQ((*changes)[1].old_value, json::Value::String("[REDACTED]"));
  const std::string text = FormatChanges(*changes);
  EXPECT_EQ(text,
            "+ SetVariables.API_TOKEN: \"[REDACTED]\"\n"
            "~ SetVariables.DB_PASSWORD: \"[REDACTED]\" -> \"[REDACTED]\"\n");
  EXPECT_EQ(text.find("hunter"), std::string::npos);
  // An unchanged secret is not reported at all.
  EXPECT_EQ(Diff(R"({"password":"p","a":1})", R"({"password":"p","a":2})"),
            "~ a: 1 -> 2\n");
}

TEST(ConfigDiffTest, EverythingUnderASecretKeyIsMasked) {
  auto changes = DiffConfigs(
      J(R"({"Values":{"credentials":{"user":"u","pass":"p1","list":[1]}}})"),
      J(R"({"Values":{"credentials":{"user":"u","pass":"p2","list":[1,2]}}})"));
  ASSERT_TRUE(changes.ok());
  ASSERT_EQ(changes->size(), 2u);
  EXPECT_TRUE((*changes)[0].masked);
  EXPECT_TRUE((*changes)[1].masked);
  EXPECT_EQ(FormatChanges(*changes),
            "+ Values.credentials.list[1]: \"[REDACTED]\"\n"
            "~ Values.credentials.pass: \"[REDACTED]\" -> \"[REDACTED]\"\n");
  EXPECT_EQ(Diff(R"({"registry":{"privateKey":{"pem":"a"}}})",
                 R"({"registry":{"privateKey":null}})"),
            "~ registry.privateKey: \"[REDACTED]\" -> \"[REDACTED]\"\n");
}

TEST(ConfigDiffTest, SecretsInsideAReportedObjectAreMasked) {
  auto changes = DiffConfigs(
      J(R"({"Values":{}})"),
      J(R"({"Values":{"db":{"host":"h","token":"t","auth":{"accessKey":"k"}}}})"));
  ASSERT_TRUE(changes.ok());
  ASSERT_EQ(changes->size(), 1u);
  EXPECT_TRUE((*changes)[0].masked);
  EXPECT_EQ(FormatChanges(*changes),
            "+ Values.db: {\"host\":\"h\",\"token\":\"[REDACTED]\","
            "\"auth\":{\"accessKey\":\"[REDACTED]\"}}\n");
}

TEST(ConfigDiffTest, MasksByTheOneCredentialRuleOnly) {
  // "monkey" and "author" end or start like credentials but are not ones.
  EXPECT_EQ(Diff(R"({"Values":{"monkey":1,"author":"a","apiKey":"k1"}})",
                 R"({"Values":{"monkey":2,"author":"b","apiKey":"k2"}})"),
            "~ Values.apiKey: \"[REDACTED]\" -> \"[REDACTED]\"\n"
            "~ Values.author: \"a\" -> \"b\"\n"
            "~ Values.monkey: 1 -> 2\n");
}

TEST(ConfigDiffTest, RedactedSensitiveValuesCompareByDigest) {
  const json::Value stored = J(R"({"SetVariables":{"ADMIN_LOGIN":"[REDACTED]","HOST":"a"}})");
  const std::vector<std::string> sensitive = {"admin_login"};
  // Same digest: the sensitive value did not change, nothing is reported.
  auto same = DiffRedactedConfigs(stored, "sha256:1",
                                  J(R"({"SetVariables":{"ADMIN_LOGIN":"pw","HOST":"a"}})"),
                                  "sha256:1", sensitive);
  ASSERT_TRUE(same.ok()) << same.status().ToString();
  EXPECT_EQ(FormatChanges(*same), "");
  // Digests differ, nothing visible does: a sensitive value changed.
  auto hidden = DiffRedactedConfigs(stored, "sha256:1",
                                    J(R"({"SetVariables":{"ADMIN_LOGIN":"pw2","HOST":"a"}})"),
                                    "sha256:2", sensitive);
  ASSERT_TRUE(hidden.ok());
  EXPECT_EQ(FormatChanges(*hidden), "~ SetVariables: \"[REDACTED]\" -> \"[REDACTED]\"\n");
  EXPECT_TRUE((*hidden)[0].masked);
  // A visible change is reported alone, the clear value never.
  auto visible = DiffRedactedConfigs(stored, "sha256:1",
                                     J(R"({"SetVariables":{"ADMIN_LOGIN":"pw2","HOST":"b"}})"),
                                     "sha256:2", sensitive);
  ASSERT_TRUE(visible.ok());
  EXPECT_EQ(FormatChanges(*visible), "~ SetVariables.HOST: \"a\" -> \"b\"\n");
  // Known on both sides, a sensitive value is compared and shown masked.
  auto known = DiffRedactedConfigs(J(R"({"SetVariables":{"ADMIN_LOGIN":"x"}})"), "sha256:1",
                                   J(R"({"SetVariables":{"ADMIN_LOGIN":"y","B":"1"}})"), "sha256:2",
                                   sensitive);
  ASSERT_TRUE(known.ok());
  EXPECT_EQ(FormatChanges(*known),
            "~ SetVariables.ADMIN_LOGIN: \"[REDACTED]\" -> \"[REDACTED]\"\n"
            "+ SetVariables.B: \"1\"\n");
  auto whole = DiffRedactedConfigs(J(R"({"SetVariables":null})"), "sha256:1",
                                   J(R"({"SetVariables":{"admin_login":"y"}})"), "sha256:2", sensitive);
  ASSERT_TRUE(whole.ok());
  EXPECT_EQ(FormatChanges(*whole), "~ SetVariables: null -> {\"admin_login\":\"[REDACTED]\"}\n");
  // Without sensitive variables, a clear value is compared (and shown).
  auto plain = DiffRedactedConfigs(J(R"({"SetVariables":{"ADMIN_LOGIN":"x"}})"), "sha256:1",
                                   J(R"({"SetVariables":{"ADMIN_LOGIN":"y"}})"), "sha256:2", {});
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ(FormatChanges(*plain), "~ SetVariables.ADMIN_LOGIN: \"x\" -> \"y\"\n");
}

TEST(ConfigDiffTest, KeysWithDotsOrBracketsAreQuoted) {
  EXPECT_EQ(Diff(R"({"Values":{"a.b":{"c[0]":1,"d":1}}})",
                 R"({"Values":{"a.b":{"c[0]":2,"d":2}}})"),
            "~ Values[\"a.b\"].d: 1 -> 2\n"
            "~ Values[\"a.b\"][\"c[0]\"]: 1 -> 2\n");
  EXPECT_EQ(Diff(R"({"x.y":1})", R"({"x.y":2})"), "~ [\"x.y\"]: 1 -> 2\n");
  EXPECT_EQ(Diff(R"({"":1,"q\"]":1})", R"({"":2,"q\"]":2})"),
            "~ [\"\"]: 1 -> 2\n"
            "~ [\"q\\\"]\"]: 1 -> 2\n");
}

TEST(ConfigDiffTest, FormatChangesKeepsStringsReadable) {
  EXPECT_EQ(
      Diff(R"({"url":"https://a/?x=1&y=<2>"})",
           R"({"url":"line\nbreak \"q\" \u00e9"})"),
      "~ url: \"https://a/?x=1&y=<2>\" -> \"line\\nbreak \\\"q\\\" \u00e9\"\n");
}

TEST(ConfigDiffTest, NumberOutsideFloat64RangeIsInvalidArgumentNamingThePath) {
  auto changes = DiffConfigs(J(R"({"Values":{"big":[1,1e400]}})"), J("{}"));
  ASSERT_FALSE(changes.ok());
  EXPECT_EQ(changes.status().code(), Status::Code::kInvalidArgument);
  EXPECT_NE(changes.status().message().find("old config: Values.big[1]"),
            std::string_view::npos)
      << changes.status().ToString();
  // Even inside a subtree that is simply added.
  changes = DiffConfigs(J("{}"), J(R"({"password":-1e999})"));
  ASSERT_FALSE(changes.ok());
  EXPECT_NE(changes.status().message().find("new config: password"),
            std::string_view::npos)
      << changes.status().ToString();
}

TEST(ConfigDiffTest, DiffsGoMarshalledDeployConfigs) {
  auto old_config = DecodeDeployConfig(
      J(R"({"values":{"replicas":2},"SetVariables":{"DOMAIN":"a.dev"}})"));
  auto new_config = DecodeDeployConfig(
      J(R"({"Values":{"replicas":2.0},"SetVariables":{"DOMAIN":"b.dev"},
           "NamespaceOverride":"ns"})"));
  ASSERT_TRUE(old_config.ok() && new_config.ok());
  auto changes = DiffConfigs(J(*MarshalDeployConfig(*old_config)),
                             J(*MarshalDeployConfig(*new_config)));
  ASSERT_TRUE(changes.ok());
  EXPECT_EQ(FormatChanges(*changes),
            "~ NamespaceOverride: \"\" -> \"ns\"\n"
            "~ SetVariables.DOMAIN: \"a.dev\" -> \"b.dev\"\n");
}

}  // namespace
}  // namespace zs::engine
