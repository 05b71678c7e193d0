// Lifecycle's name and credential rules: a deploy under a name Kubernetes or
// Zarf would refuse is refused, and sensitive variables are never stored in
// clear while the config digest stays Go's.
#include <gtest/gtest.h>

#include "model/config.h"
#include "json/go_json.h"
#include "json/json_reader.h"
#include "model/model_json.h"
#include "engine/lifecycle.h"

namespace zs::engine {
namespace {

json::Value Json(std::string_view text) { return std::move(json::ParseJson(text)).value(); }

DeployRequest Request(std::string_view name, std::string_view config) {
  DeployRequest r;
  r.package = Json(R"({"kind":"ZarfPackageConfig","metadata":{"name":")" + std::string(name) +
                   R"("},"variables":[{"name":"ADMIN_PW","sensitive":true},{"name":"HOST"}],)"
                   R"("components":[{"name":"a"}]})");
  r.config = Json(config);
  return r;
}

Lifecycle Open(EventLog* log, std::string package) {
  return std::move(Lifecycle::Open(log, std::move(package))).value();
}

TEST(LifecycleNamesTest, ADeployUnderAnInvalidPackageNameIsRefusedAndNothingRecorded) {
  auto log = NewMemoryEventLog();
  Lifecycle lc = Open(log.get(), "Pod_Info");
  const Status s = lc.BeginDeploy(Request("Pod_Info", "{}"));
  EXPECT_EQ(s.code(), Status::Code::kInvalidArgument);
  EXPECT_NE(s.message().find("package name 'Pod_Info'"), std::string::npos) << s.message();
  EXPECT_EQ(*log->Size("Pod_Info"), 0u);
  EXPECT_TRUE(lc.running().empty());
}

TEST(LifecycleNamesTest, AnInvalidNamespaceOverrideIsRefused) {
  auto log = NewMemoryEventLog();
  Lifecycle lc = Open(log.get(), "podinfo");
  const Status s = lc.BeginDeploy(Request("podinfo", R"({"NamespaceOverride":"Team_B"})"));
  EXPECT_NE(s.message().find("NamespaceOverride 'Team_B'"), std::string::npos) << s.message();
  EXPECT_EQ(*log->Size("podinfo"), 0u);
  EXPECT_TRUE(lc.BeginDeploy(Request("podinfo", R"({"NamespaceOverride":"team-b"})")).ok());
}

TEST(LifecycleNamesTest, SensitiveVariablesAreStoredRedactedAndTheDigestIsOverTheConfigAsGiven) {
  const std::string config = R"({"SetVariables":{"ADMIN_PW":"s3cr3t","HOST":"h"}})";
  auto log = NewMemoryEventLog();
  Lifecycle lc = Open(log.get(), "podinfo");
  ASSERT_TRUE(lc.BeginDeploy(Request("podinfo", config)).ok());
  ASSERT_TRUE(lc.FinishDeploy(kOutcomeSucceeded).ok());
  const DeployedPackage& pkg = lc.snapshot();
  const std::string encoded = EncodeDeployedPackage(pkg);
  EXPECT_EQ(encoded.find("s3cr3t"), std::string::npos) << encoded;
  ASSERT_TRUE(pkg.deploy_config.has_value());
  EXPECT_EQ(*json::WriteJson(*pkg.deploy_config->Find("SetVariables")),
            R"({"ADMIN_PW":"[REDACTED]","HOST":"h"})");
  // Nor in the log the Secret is folded from.
  const std::vector<Record> records = *log->Read("podinfo");
  for (const Record& r : records) {
    EXPECT_EQ(EncodeRecord(r).find("s3cr3t"), std::string::npos);
  }
  // The digest is Go's over the config as given, not over what is stored.
  const DeployConfig given = *DecodeDeployConfig(Json(config));
  EXPECT_EQ(pkg.config_digest, *DeployConfigDigest(given));
}

TEST(LifecycleNamesTest, AResumedDeployStoresTheConfigGivenAgainRedacted) {
  const std::string config = R"({"SetVariables":{"ADMIN_PW":"s3cr3t"}})";
  auto log = NewMemoryEventLog();
  {
    Lifecycle first = Open(log.get(), "podinfo");
    ASSERT_TRUE(first.BeginDeploy(Request("podinfo", config)).ok());
  }
  // A new process knows only the Secret: the log starts from its snapshot.
  auto secret_log = NewMemoryEventLog();
  Record base;
  base.kind = RecordKind::kBase;
  base.base = std::make_shared<const DeployedPackage>(
      std::move(Lifecycle::Open(log.get(), "podinfo")).value().snapshot());
  ASSERT_TRUE(secret_log->Append("podinfo", base).ok());
  Lifecycle resumed = Open(secret_log.get(), "podinfo");
  const json::Value again = Json(config);
  ASSERT_TRUE(resumed.Resume(&again).ok());
  ASSERT_TRUE(resumed.FinishDeploy(kOutcomeSucceeded).ok());
  EXPECT_EQ(EncodeDeployedPackage(resumed.snapshot()).find("s3cr3t"), std::string::npos);
}

}  // namespace
}  // namespace zs::engine
