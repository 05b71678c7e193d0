#include "model/credentials.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "json/go_json.h"
#include "json/json_reader.h"

namespace zs {
namespace {

json::Value J(std::string_view text) {
  auto doc = json::ParseJson(text);
  EXPECT_TRUE(doc.ok()) << doc.status().ToString() << " for " << text;
  return doc.ok() ? *doc : json::Value();
}

std::string Text(const json::Value& v) {
  auto s = json::WriteJson(v);
  return s.ok() ? *s : "?";
}

// The one table of the credential rule: every name any command decides on.
TEST(CredentialRuleTest, TableOfNames) {
  struct Row {
    const char* name;
    bool credential;
  };
  const Row rows[] = {
      // Init state (inspect) and configs (config diff, replay).
      {"pushPassword", true}, {"pullPassword", true}, {"secret", true}, {"key", true},
      {"KEY", true}, {"password", true}, {"DB_PASSWORD", true}, {"clientSecret", true},
      {"githubToken", true}, {"apiKey", true}, {"API_KEY", true}, {"x_api_key", true},
      {"APIKey", true}, {"apikey", true}, {"credentials", true}, {"accessKey", true},
      {"sshKey", true}, {"ssh_key", true}, {"privateKey", true}, {"registry-secrets", true},
      {"passphrase", true}, {"DB_PWD", true}, {"ADMIN_PW", true}, {"authToken", true},
      // Query parameters (source scrubbing).
      {"token", true}, {"access_token", true}, {"X-Amz-Signature", true},
      {"X-Amz-Credential", true}, {"x-amz-date", true}, {"X-Goog-Signature", true},
      {"sig", true}, {"signature", true}, {"Authorization", true},
      {"pass", true}, {"passwd", true},
      // Not credentials, though some contain a credential's letters.
      {"monkey", false}, {"author", false}, {"arch", false}, {"keys", false},
      {"keyring", false}, {"keyName", false}, {"hostname", false}, {"image", false},
      {"DOMAIN", false}, {"", false}, {"replicas", false}, {"privateRegistry", false},
      {"bypass", false}, {"signal", false}, {"design", false}, {"pushUsername", false},
      {"address", false}, {"ca", false}, {"cert", false}, {"turkey", false},
      {"tokenizer", false}, {"authority", false}, {"session", false}, {"auth", false},
  };
  for (const Row& row : rows) {
    EXPECT_EQ(IsCredentialName(row.name), row.credential) << row.name;
  }
}

TEST(ScrubSourceTest, RemovesUserinfoAndCredentialParametersOnly) {
  const struct {
    const char* in;
    const char* out;
  } rows[] = {
      {"https://user:pass@host/x", "https://host/x"},
      {"oci://robot$ci:tok@ghcr.io/a/b:1.0", "oci://ghcr.io/a/b:1.0"},
      {"https://h/p?X-Amz-Signature=s&X-Amz-Credential=c&v=2#frag", "https://h/p?v=2#frag"},
      {"https://h/p?access_token=1&api_key=2&password=3", "https://h/p"},
      {"zarf-package-demo-amd64-1.0.0.tar.zst", "zarf-package-demo-amd64-1.0.0.tar.zst"},
      {"https://host/p@x", "https://host/p@x"},
      // Every other parameter stays, in order and spelling.
      {"https://h/p.tar.zst?monkey=1&author=me&arch=amd64",
       "https://h/p.tar.zst?monkey=1&author=me&arch=amd64"},
      {"https://u:p@h/p?a=1&TOKEN=x&b=&c&Sig=y&d=4", "https://h/p?a=1&b=&c&d=4"},
      {"https://h/p?x-amz-date=1&X-AMZ-EXPIRES=2&keep=3", "https://h/p?keep=3"},
      // A percent-encoded name is read as the server reads it.
      {"https://h/p?to%6Ben=1&x%2Damz%2Dsignature=2&ok=3", "https://h/p?ok=3"},
      {"https://h/p#token=not-a-query", "https://h/p#token=not-a-query"},
      {"file.tar?token=1&v=2", "file.tar?v=2"},
  };
  for (const auto& row : rows) EXPECT_EQ(ScrubSource(row.in), row.out) << row.in;
}

TEST(RedactCredentialsTest, ReplacesWholeValuesUnderCredentialNamesAtAnyDepth) {
  json::Value v = J(R"({"registryInfo":{"pushPassword":"p","pushUsername":"u","secret":""},
                        "agentTLS":{"ca":"c","key":"k"},"list":[{"token":{"a":1}}],
                        "apiKey":null,"monkey":"m"})");
  EXPECT_TRUE(RedactCredentials(&v));
  EXPECT_EQ(Text(v),
            R"({"registryInfo":{"pushPassword":"[REDACTED]","pushUsername":"u","secret":""},)"
            R"("agentTLS":{"ca":"c","key":"[REDACTED]"},"list":[{"token":"[REDACTED]"}],)"
            R"("apiKey":null,"monkey":"m"})");
  json::Value clean = J(R"({"a":{"b":"c"}})");
  EXPECT_FALSE(RedactCredentials(&clean));
}

TEST(RedactCredentialsTest, HidesTheUserinfoAndCredentialParametersOfAddresses) {
  json::Value v = J(R"({"registryInfo":{"address":"https://user:pw@reg.example:5000/v2"},
                        "gitServer":{"address":"http://git.example/r?token=t&ref=main"},
                        "urls":["oci://u@host/x"],"plain":"a@b","noUser":"https://reg.example"})");
  EXPECT_TRUE(RedactCredentials(&v));
  EXPECT_EQ(Text(v),
            R"({"registryInfo":{"address":"https://[REDACTED]@reg.example:5000/v2"},)"
            R"("gitServer":{"address":"http://git.example/r?ref=main"},)"
            R"("urls":["oci://[REDACTED]@host/x"],"plain":"a@b","noUser":"https://reg.example"})");
}

TEST(CheckCredentialKindsTest, ACredentialMustBeAStringOrNull) {
  EXPECT_TRUE(CheckCredentialKinds(J(R"({"registryInfo":{"pushPassword":"p","nodePort":1},
                                         "agentTLS":{"key":null},"list":[{"token":""}],
                                         "credentials":{"pass":"p"},"apiKeys":["k"]})"))
                  .ok());
  const struct {
    const char* state;
    const char* error;
  } rows[] = {
      {R"({"registryInfo":{"pushPassword":{"x":"p"}}})",
       "registryInfo.pushPassword is an object, a credential must be a string"},
      {R"({"gitServer":{"pushPassword":["p"]}})",
       "gitServer.pushPassword is an array, a credential must be a string"},
      {R"({"list":[{"apiKey":1}]})", "list[0].apiKey is a number, a credential must be a string"},
      {R"({"secret":true})", "secret is a boolean, a credential must be a string"},
      {R"({"credentials":{"pass":{}}})", "credentials.pass is an object, a credential must be a string"},
      {R"({"pass":[]})", "pass is an array, a credential must be a string"},
  };
  for (const auto& row : rows) {
    const Status s = CheckCredentialKinds(J(row.state));
    EXPECT_EQ(s.code(), Status::Code::kInvalidArgument) << row.state;
    EXPECT_EQ(s.message(), row.error) << row.state;
  }
}

TEST(SensitiveVariablesTest, NamesTheVariablesMarkedSensitive) {
  const json::Value pkg = J(R"({"variables":[{"name":"A","sensitive":true},{"name":"B"},
                                             {"name":"C","sensitive":false},
                                             {"name":"D","sensitive":true,"default":"x"}]})");
  EXPECT_EQ(SensitiveVariables(pkg), (std::vector<std::string>{"A", "D"}));
  EXPECT_TRUE(SensitiveVariables(J(R"({"variables":"no"})")).empty());
  EXPECT_TRUE(SensitiveVariables(J("[]")).empty());
}

TEST(SensitiveVariablesTest, RedactsOnlyTheirSetVariablesValues) {
  json::Value config = J(R"({"SetVariables":{"ADMIN_PW":"s3cr3t","HOST":"h","EMPTY":""},
                             "Values":{"ADMIN_PW":"not-a-variable"}})");
  EXPECT_TRUE(RedactSensitiveVariables(&config, {"admin_pw", "empty"}));
  EXPECT_EQ(Text(config),
            R"({"SetVariables":{"ADMIN_PW":"[REDACTED]","HOST":"h","EMPTY":""},)"
            R"("Values":{"ADMIN_PW":"not-a-variable"}})");
  EXPECT_FALSE(RedactSensitiveVariables(&config, {}));
  // Go's field names match in any case.
  json::Value lower = J(R"({"setvariables":{"ADMIN_PW":"s"}})");
  EXPECT_TRUE(RedactSensitiveVariables(&lower, {"ADMIN_PW"}));
  EXPECT_EQ(Text(lower), R"({"setvariables":{"ADMIN_PW":"[REDACTED]"}})");
}

TEST(RedactPackageForDisplayTest, HidesConfigSourcesAndSensitiveDefaults) {
  json::Value pkg = J(R"({"name":"p","data":{"variables":[
        {"name":"ADMIN_PW","sensitive":true,"default":"dflt"},{"name":"HOST","default":"h"}]},
      "events":[{"type":"Deploy","source":"https://u:p@h/x?token=t&arch=amd64"}],
      "deployConfig":{"SetVariables":{"ADMIN_PW":"clear","DB_PASSWORD":"db","HOST":"h"},
                      "Values":{"apiKey":"k","n":1}}})");
  RedactPackageForDisplay(&pkg);
  const std::string text = Text(pkg);
  for (const char* secret : {"dflt", "clear", "\"db\"", "\"k\"", "u:p", "token"}) {
    EXPECT_EQ(text.find(secret), std::string::npos) << secret << " in " << text;
  }
  EXPECT_NE(text.find(R"("source":"https://h/x?arch=amd64")"), std::string::npos) << text;
  EXPECT_NE(text.find(R"({"name":"HOST","default":"h"})"), std::string::npos) << text;
  EXPECT_NE(text.find(R"("n":1)"), std::string::npos) << text;
}

TEST(IsCredentialPathTest, NamesPathsWhoseValuesDriftReportsHide) {
  const std::vector<std::string> sensitive = {"ADMIN_PW"};
  EXPECT_TRUE(IsCredentialPath("deployConfig.SetVariables.ADMIN_PW", sensitive));
  EXPECT_TRUE(IsCredentialPath("deployConfig.SetVariables.DB_PASSWORD", sensitive));
  EXPECT_TRUE(IsCredentialPath("deployConfig.Values.db[2].token", sensitive));
  EXPECT_TRUE(IsCredentialPath("events[0].source", sensitive));
  EXPECT_TRUE(IsCredentialPath("data.variables[1].default", sensitive));
  EXPECT_FALSE(IsCredentialPath("deployConfig.SetVariables.HOST", sensitive));
  EXPECT_FALSE(IsCredentialPath("deployedComponents[0].status", sensitive));
  EXPECT_FALSE(IsCredentialPath("events[0].timestamp", sensitive));
}

}  // namespace
}  // namespace zs
