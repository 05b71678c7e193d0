// The name and credential rules as the commands apply them: `record` refuses
// names Kubernetes or Zarf reject and keeps an override deploy in its own
// Secret; no command prints a credential or a sensitive variable's value;
// `config digest|diff` read a package Secret's recorded deployConfig.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "json/json_reader.h"
#include "model/model_json.h"
#include "kube/package_secret.h"
#include "kube/secret.h"
#include "tests/test_dir.h"
#include "tests/table_rows.h"
#include "tests/test_util.h"
#include "cli/common.h"
#include "cli/config_cmd.h"
#include "cli/inspect_cmd.h"
#include "cli/record_cmd.h"
#include "cli/replay_cmd.h"
#include "cli/status_cmd.h"

namespace zs::tools {
namespace {

namespace fs = std::filesystem;

constexpr const char* kPackage =
    "kind: ZarfPackageConfig\nmetadata:\n  name: podinfo\n  version: 1.0.0\n"
    "variables:\n  - name: ADMIN_LOGIN\n    sensitive: true\n    default: dflt-pw-0\n"
    "  - name: DOMAIN\ncomponents:\n  - name: web\n";

// Clear values of credentials the config below holds; none may be printed.
constexpr const char* kClearValues[] = {"s3cr3t-1", "dbpass-2", "apikey-3", "dflt-pw-0",
                                        "urlpass-4", "urltoken-5"};

constexpr const char* kConfig =
    R"({"SetVariables":{"ADMIN_LOGIN":"s3cr3t-1","DB_PASSWORD":"dbpass-2","DOMAIN":"x.example"},)"
    R"("Values":{"apiKey":"apikey-3","replicas":2}})";

constexpr const char* kSource =
    "https://me:urlpass-4@registry.example/podinfo.tar.zst?monkey=1&author=me&token=urltoken-5"
    "&arch=amd64";

class CredentialsNamesCmdTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::FreshTestDir("names");
    Write("zarf.yaml", kPackage);
    Write("config.json", kConfig);
  }
  void TearDown() override { fs::remove_all(dir_); }

  void Write(const std::string& name, const std::string& text) { std::ofstream(dir_ / name) << text; }
  std::string P(const std::string& name) const { return (dir_ / name).string(); }
  std::string Read(const std::string& name) const { return testing::ReadFile(dir_ / name); }

  int Deploy(const std::string& secret, const std::string& config, const std::string& package = "zarf.yaml") {
    RecordOptions o;
    o.action = "deploy";
    o.session.secret_path = P(secret);
    o.session.log_path = P("log.jsonl");
    o.package_file = P(package);
    o.config_file = config;
    o.source = kSource;
    std::ostringstream out;
    err_.str("");
    return FinishCommand(RunRecord(o, out, err_), err_);
  }

  DeployedPackage Stored(const std::string& secret) const {
    auto input = ReadInput(Read(secret), secret);
    EXPECT_TRUE(input.ok());
    auto pkg = DecodePackagePayload(input->objects.at(0).payload);
    EXPECT_TRUE(pkg.ok()) << pkg.status().ToString();
    return pkg.ok() ? *pkg : DeployedPackage();
  }

  int Config(ConfigOptions o, std::string* out_text) {
    std::ostringstream out, err;
    const int code = FinishCommand(RunConfig(o, out, err), err);
    *out_text = out.str() + err.str();
    return code;
  }
  // `config digest -f FILE [--canonical]`.
  int Digest(const std::string& file, std::string* text, bool canonical = false) {
    ConfigOptions o;
    o.action = "digest";
    o.file = P(file);
    o.canonical = canonical;
    return Config(o, text);
  }
  // `config diff OLD NEW [--package FILE]`.
  int Diff(const std::string& old_file, const std::string& new_file, std::string* text,
           const std::string& package = "") {
    ConfigOptions o;
    o.action = "diff";
    o.old_file = P(old_file);
    o.new_file = P(new_file);
    if (!package.empty()) o.package_file = P(package);
    return Config(o, text);
  }

  static void ExpectNoClearValue(const std::string& text) {
    for (const char* v : kClearValues) EXPECT_EQ(text.find(v), std::string::npos) << v << " in:\n" << text;
  }

  fs::path dir_;
  std::ostringstream err_;
};

TEST_F(CredentialsNamesCmdTest, APackageNameKubernetesRejectsIsRefusedAndNothingWritten) {
  std::string pkg = kPackage;
  pkg.replace(pkg.find("name: podinfo"), 13, "name: Pod_Info");
  Write("bad.yaml", pkg);
  EXPECT_EQ(Deploy("secret.json", "", "bad.yaml"), kExitSomeFailed);
  EXPECT_NE(err_.str().find("package name 'Pod_Info'"), std::string::npos) << err_.str();
  EXPECT_NE(err_.str().find("^[a-z0-9][a-z0-9-]*$"), std::string::npos) << err_.str();
  EXPECT_FALSE(fs::exists(P("secret.json")));
  EXPECT_FALSE(fs::exists(P("log.jsonl")));
}

TEST_F(CredentialsNamesCmdTest, AnOverrideDeployGoesToItsOwnSecretAndNeverIntoAnother) {
  ASSERT_EQ(Deploy("zarf-package-podinfo.json", P("config.json")), kExitOk) << err_.str();
  const std::string secret_before = Read("zarf-package-podinfo.json");
  const std::string log_before = Read("log.jsonl");
  // Inline JSON, as `record deploy --config '{"NamespaceOverride":"team-b"}'`.
  EXPECT_EQ(Deploy("zarf-package-podinfo.json", R"({"NamespaceOverride":"team-b"})"), kExitSomeFailed);
  EXPECT_NE(err_.str().find("Secret zarf-package-podinfo-override-team-b"), std::string::npos) << err_.str();
  EXPECT_NE(err_.str().find("is Secret zarf-package-podinfo,"), std::string::npos) << err_.str();
  EXPECT_EQ(Read("zarf-package-podinfo.json"), secret_before);
  EXPECT_EQ(Read("log.jsonl"), log_before);
  // A new file becomes the override Secret, named and labelled as Zarf does.
  ASSERT_EQ(Deploy("team-b.json", R"({"NamespaceOverride":"team-b"})"), kExitOk) << err_.str();
  auto secret = json::ParseJson(Read("team-b.json"));
  ASSERT_TRUE(secret.ok());
  EXPECT_EQ(ObjectName(*secret), "zarf-package-podinfo-override-team-b");
  EXPECT_EQ(Stored("team-b.json").namespace_override, "team-b");
}

TEST_F(CredentialsNamesCmdTest, ABarePayloadKeepsTheOverrideItHolds) {
  ASSERT_EQ(Deploy("secret.json", P("config.json")), kExitOk) << err_.str();
  Write("bare.json", EncodeDeployedPackage(Stored("secret.json")));
  const std::string before = Read("bare.json");
  EXPECT_EQ(Deploy("bare.json", R"({"NamespaceOverride":"team-b"})"), kExitSomeFailed);
  EXPECT_NE(err_.str().find("zarf-package-podinfo-override-team-b"), std::string::npos) << err_.str();
  EXPECT_EQ(Read("bare.json"), before);
  EXPECT_EQ(Deploy("bare.json", P("config.json")), kExitOk) << err_.str();
}

TEST_F(CredentialsNamesCmdTest, SourceLosesOnlyUserinfoAndCredentialParameters) {
  ASSERT_EQ(Deploy("secret.json", P("config.json")), kExitOk) << err_.str();
  EXPECT_EQ(Stored("secret.json").events.at(0).source,
            "https://registry.example/podinfo.tar.zst?monkey=1&author=me&arch=amd64");
}

TEST_F(CredentialsNamesCmdTest, SensitiveValuesAreNotStoredAndNoCommandPrintsACredential) {
  ASSERT_EQ(Deploy("secret.json", P("config.json")), kExitOk) << err_.str();
  // Stored: the sensitive variable redacted, in the Secret and in the log.
  const DeployedPackage pkg = Stored("secret.json");
  const std::string payload = EncodeDeployedPackage(pkg);
  EXPECT_EQ(payload.find("s3cr3t-1"), std::string::npos);
  EXPECT_NE(payload.find(R"("ADMIN_LOGIN":"[REDACTED]")"), std::string::npos) << payload;
  // The log is compressed: read its records as `replay --dump` prints them.
  {
    ReplayOptions dump;
    dump.log_path = P("log.jsonl");
    dump.dump = true;
    std::ostringstream records, dump_err;
    ASSERT_EQ(FinishCommand(RunReplay(dump, records, dump_err), dump_err), kExitOk) << dump_err.str();
    EXPECT_NE(records.str().find(R"("ADMIN_LOGIN":"[REDACTED]")"), std::string::npos);
    EXPECT_EQ(records.str().find("s3cr3t-1"), std::string::npos);
  }
  // Printed: replay (every form), status, config diff.
  for (const char* output : {"json", "table"}) {
    for (bool with_log : {false, true}) {
      ReplayOptions r;
      r.secret_path = P("secret.json");
      if (with_log) r.log_path = P("log.jsonl");
      r.output.format = output;
      r.verify = true;
      std::ostringstream out, err;
      FinishCommand(RunReplay(r, out, err), err);
      ExpectNoClearValue(out.str() + err.str());
      if (std::string(output) == "json") {
        EXPECT_NE(out.str().find("[REDACTED]"), std::string::npos);
      }
    }
  }
  StatusOptions s;
  s.files = {P("secret.json")};
  s.output.format = "json";
  std::ostringstream status_out, status_err;
  EXPECT_EQ(FinishCommand(RunStatus(s, status_out, status_err), status_err), kExitOk);
  ExpectNoClearValue(status_out.str());
  Write("other.json", R"({"SetVariables":{"ADMIN_LOGIN":"s3cr3t-1x","DB_PASSWORD":"dbpass-2x"}})");
  std::string diff;
  // Two plain files: the package says what is sensitive.
  EXPECT_EQ(Diff("config.json", "other.json", &diff, "zarf.yaml"), kExitOk);
  EXPECT_TRUE(testing::HasTableRow(diff, "changed SetVariables.ADMIN_LOGIN \"[REDACTED]\" \"[REDACTED]\""))
      << diff;
  ExpectNoClearValue(diff);
}

TEST_F(CredentialsNamesCmdTest, DriftReportsHideCredentialValues) {
  ASSERT_EQ(Deploy("secret.json", P("config.json")), kExitOk) << err_.str();
  // A Secret whose stored config differs from its log only in a credential.
  DeployedPackage pkg = Stored("secret.json");
  pkg.deploy_config->Find("SetVariables")->Set("DB_PASSWORD", json::Value::String("dbpass-2-changed"));
  json::Value secret = *json::ParseJson(Read("secret.json"));
  ASSERT_TRUE(StorePackage(&secret, pkg).ok());
  Write("drifted.json", WriteObject(secret, TextFormat::kJson));
  ReplayOptions r;
  r.secret_path = P("drifted.json");
  r.log_path = P("log.jsonl");
  r.verify = true;
  std::ostringstream out, err;
  EXPECT_EQ(FinishCommand(RunReplay(r, out, err), err), kExitSomeFailed);
  EXPECT_NE(out.str().find("deployConfig.SetVariables.DB_PASSWORD: stored [REDACTED]"), std::string::npos)
      << out.str();
  EXPECT_EQ(out.str().find("dbpass-2"), std::string::npos) << out.str();
}

TEST_F(CredentialsNamesCmdTest, ConfigDigestAndDiffOfASecretUseItsRecordedDeployConfig) {
  Write("plain.json", R"({"Values":{"replicas":2}})");
  ASSERT_EQ(Deploy("secret.json", P("plain.json")), kExitOk) << err_.str();
  std::string of_file, of_secret;
  ASSERT_EQ(Digest("plain.json", &of_file), kExitOk);
  EXPECT_EQ(Digest("secret.json", &of_secret), kExitOk);
  EXPECT_EQ(of_secret, of_file);
  EXPECT_EQ(of_secret, Stored("secret.json").config_digest + "\n");
  std::string text;
  EXPECT_EQ(Diff("secret.json", "plain.json", &text), kExitOk);
  EXPECT_EQ(text.rfind("no changes", 0), 0u) << text;
  Write("three.json", R"({"Values":{"replicas":3}})");
  EXPECT_EQ(Diff("secret.json", "three.json", &text), kExitOk);
  EXPECT_TRUE(testing::HasTableRow(text, "changed Values.replicas 2 3")) << text;
}

TEST_F(CredentialsNamesCmdTest, ASecretWithoutADeployConfigIsAnErrorNotAnEmptyConfig) {
  RecordOptions o;
  o.action = "deploy";
  o.session.secret_path = P("secret.json");
  o.package_file = P("zarf.yaml");
  o.begin_only = true;  // no successful deploy: no deployConfig
  std::ostringstream out, err;
  ASSERT_EQ(FinishCommand(RunRecord(o, out, err), err), kExitOk) << err.str();
  std::string text;
  EXPECT_EQ(Digest("secret.json", &text), kExitSomeFailed);
  EXPECT_NE(text.find("package podinfo has no deployConfig"), std::string::npos) << text;
  Write("empty.json", "{}");
  EXPECT_EQ(Diff("secret.json", "empty.json", &text), kExitSomeFailed);
  EXPECT_NE(text.find("has no deployConfig"), std::string::npos) << text;
}

TEST_F(CredentialsNamesCmdTest, AChangedSensitiveValueShowsOnlyAsAMaskedChange) {
  ASSERT_EQ(Deploy("secret.json", P("config.json")), kExitOk) << err_.str();
  std::string text;
  EXPECT_EQ(Diff("secret.json", "config.json", &text), kExitOk);
  EXPECT_EQ(text.rfind("no changes", 0), 0u) << text;
  std::string changed = kConfig;
  changed.replace(changed.find("s3cr3t-1"), 8, "s3cr3t-9");
  Write("changed.json", changed);
  EXPECT_EQ(Diff("secret.json", "changed.json", &text), kExitOk);
  EXPECT_TRUE(testing::HasTableRow(text, "changed SetVariables \"[REDACTED]\" \"[REDACTED]\"")) << text;
  ExpectNoClearValue(text);
  EXPECT_EQ(text.find("s3cr3t-9"), std::string::npos);
  // Its digest is the one recorded; a canonical one cannot be computed.
  EXPECT_EQ(Digest("secret.json", &text), kExitOk);
  EXPECT_EQ(text, Stored("secret.json").config_digest + "\n");
  EXPECT_EQ(Digest("secret.json", &text, /*canonical=*/true), kExitSomeFailed);
  EXPECT_NE(text.find("keeps sensitive variables redacted"), std::string::npos) << text;
}

TEST_F(CredentialsNamesCmdTest, InspectRedactsInitStateCredentialsByTheSameRule) {
  Write("state.json", R"({"distro":"k3s","registryInfo":{"pushUsername":"push",)"
                      R"("pushPassword":"pw-7","apiKey":"apikey-3"},"agentTLS":{"key":"tls-8"}})");
  InspectOptions o;
  o.files = {P("state.json")};
  o.output.format = "json";
  std::ostringstream out, err;
  EXPECT_EQ(FinishCommand(RunInspect(o, out, err), err), kExitOk) << err.str();
  for (const char* v : {"pw-7", "apikey-3", "tls-8"}) {
    EXPECT_EQ(out.str().find(v), std::string::npos) << v << " in " << out.str();
  }
  EXPECT_NE(out.str().find("\"push\""), std::string::npos);
}

TEST_F(CredentialsNamesCmdTest, StatusScrubsASourceOthersStoredInClear) {
  DeployedPackage pkg;
  pkg.name = "podinfo";
  PackageEvent e;
  e.type = "Deploy";
  e.outcome = "Succeeded";
  e.source = kSource;
  pkg.events.push_back(e);
  Write("other.json", WriteObject(MakePackageSecret("podinfo", "", EncodeDeployedPackage(pkg)),
                                  TextFormat::kJson));
  StatusOptions s;
  s.files = {P("other.json")};
  s.output.format = "wide";
  std::ostringstream out, err;
  EXPECT_EQ(FinishCommand(RunStatus(s, out, err), err), kExitOk) << err.str();
  ExpectNoClearValue(out.str());
  EXPECT_NE(out.str().find("monkey=1&author=me&arch=amd64"), std::string::npos) << out.str();
}

}  // namespace
}  // namespace zs::tools
