#include "cli/record_cmd.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "base/digest.h"
#include "kube/package_secret.h"
#include "kube/secret.h"
#include "model/model_json.h"
#include "engine/derived_status.h"
#include "tests/subprocess_runner.h"
#include "tests/test_util.h"
#include "cli/common.h"
#include "cli/replay_cmd.h"
#include "cli/status_cmd.h"

namespace zs::tools {
namespace {

namespace fs = std::filesystem;

class RecordCmdTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(::testing::TempDir()) / ("record-" + std::to_string(::getpid()) + "-" +
                                            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    Write("zarf.yaml", testing::kDemoPackageYaml);
    Write("config.json", R"({"Values":{"replicas":2}})");
  }
  void TearDown() override { fs::remove_all(dir_); }

  void Write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name) << text;
  }
  std::string P(const std::string& name) const { return (dir_ / name).string(); }

  int Record(std::vector<std::string> extra, std::string action = "deploy") {
    RecordOptions o;
    o.action = std::move(action);
    o.session.secret_path = P("secret.json");
    o.session.log_path = P("log.jsonl");
    o.package_file = P("zarf.yaml");
    o.config_file = o.action == "deploy" ? P("config.json") : "";
    for (std::size_t i = 0; i < extra.size(); i += 2) {
      if (extra[i] == "--fail") o.fail_component = extra[i + 1];
      if (extra[i] == "--components") o.components = extra[i + 1];
      if (extra[i] == "--outcome") o.outcome = extra[i + 1];
      if (extra[i] == "--name") o.component = extra[i + 1];
      if (extra[i] == "--begin-only") o.begin_only = true;
    }
    std::ostringstream out;
    err_.str("");
    return FinishCommand(RunRecord(o, out, err_), err_);
  }

  // replay --verify of the Secret against its log.
  ReplayOptions VerifyOptions() const {
    ReplayOptions o;
    o.secret_path = P("secret.json");
    o.log_path = P("log.jsonl");
    o.verify = true;
    return o;
  }

  DeployedPackage Stored() {
    auto in = ReadInput(testing::ReadFile(dir_ / "secret.json"), "secret");
    EXPECT_TRUE(in.ok());
    return *ParseDeployedPackage(in->objects.at(0).payload);
  }

  fs::path dir_;
  std::ostringstream err_;
};

TEST_F(RecordCmdTest, DeployCreatesAZarfNamedSecretWithMode0600) {
  ASSERT_EQ(Record({}), kExitOk) << err_.str();
  auto in = ReadInput(testing::ReadFile(dir_ / "secret.json"), "secret");
  ASSERT_TRUE(in.ok());
  EXPECT_EQ(ObjectName(in->objects[0].object), "zarf-package-demo");
  EXPECT_EQ(fs::status(dir_ / "secret.json").permissions() & fs::perms::all,
            fs::perms::owner_read | fs::perms::owner_write);
  EXPECT_EQ(fs::status(dir_ / "log.jsonl").permissions() & fs::perms::all,
            fs::perms::owner_read | fs::perms::owner_write);
  const DeployedPackage p = Stored();
  EXPECT_EQ(engine::LatestEventSummary(p), "Deploy/Succeeded");
  ASSERT_EQ(p.deployed_components->size(), 3u);
  // The manifest's Helm release, as Zarf names it.
  EXPECT_EQ(p.FindComponent("db")->installed_charts->at(0).chart_name,
            "zarf-" + Sha1Hex("raw-demo-db-pg"));
  EXPECT_EQ(p.FindComponent("web")->installed_charts->at(0).namespace_, "web");
}

TEST_F(RecordCmdTest, FailedDeployIsWrittenAndExitsNonZero) {
  ASSERT_EQ(Record({}), kExitOk);
  EXPECT_EQ(Record({"--fail", "db"}), kExitSomeFailed);
  const DeployedPackage p = Stored();
  EXPECT_EQ(engine::LatestEventSummary(p), "Deploy/Failed");
  EXPECT_EQ(p.FindComponent("db")->status, kStatusFailed);
  EXPECT_EQ(p.config_digest, engine::LastSuccessfulDeploy(p)->config_digest);
}

TEST_F(RecordCmdTest, StepByStepAcrossProcessesNeedsTheConfigToFinish) {
  ASSERT_EQ(Record({"--begin-only", ""}), kExitOk) << err_.str();
  ASSERT_EQ(Record({"--name", "web", "--outcome", "InProgress"}, "component"), kExitOk) << err_.str();
  ASSERT_EQ(Record({"--name", "web", "--outcome", "Succeeded"}, "component"), kExitOk) << err_.str();
  // The log holds the deploy's config, so finishing works without it.
  ASSERT_EQ(Record({"--outcome", "Succeeded"}, "finish"), kExitOk) << err_.str();
  const DeployedPackage p = Stored();
  EXPECT_EQ(engine::LatestEventSummary(p), "Deploy/Succeeded");
  EXPECT_TRUE(p.deploy_config.has_value());
  EXPECT_EQ(p.FindComponent("web")->installed_charts->at(0).chart_name, "podinfo");
}

TEST_F(RecordCmdTest, ReplayVerifiesTheSecretAgainstItsLogAndFindsDrift) {
  ASSERT_EQ(Record({}), kExitOk);
  ASSERT_EQ(Record({"--fail", "jobs"}), kExitSomeFailed);
  const ReplayOptions o = VerifyOptions();
  std::ostringstream out, err;
  EXPECT_EQ(FinishCommand(RunReplay(o, out, err), err), kExitOk) << out.str() << err.str();
  EXPECT_NE(out.str().find("no drift"), std::string::npos);
  // Tamper with the Secret: the report names the field.
  DeployedPackage p = Stored();
  p.deployed_components->at(0).status = "Removing";
  auto in = ReadInput(testing::ReadFile(dir_ / "secret.json"), "secret");
  json::Value secret = in->objects[0].object;
  SetSecretValue(&secret, "data", EncodeDeployedPackage(p));
  Write("secret.json", WriteObject(secret, TextFormat::kJson));
  std::ostringstream out2;
  EXPECT_EQ(FinishCommand(RunReplay(o, out2, err), err), kExitSomeFailed);
  EXPECT_NE(out2.str().find("deployedComponents[0].status: stored \"Removing\""), std::string::npos) << out2.str();
  // And the next record refuses to build on a Secret that disagrees with its log.
  EXPECT_EQ(Record({}), kExitSomeFailed);
  EXPECT_NE(err_.str().find("disagree"), std::string::npos);
}

TEST_F(RecordCmdTest, ASecretAKillLeftBehindItsLogIsRolledForward) {
  ASSERT_EQ(Record({}), kExitOk);
  const std::string old_secret = testing::ReadFile(dir_ / "secret.json");
  ASSERT_EQ(Record({"--fail", "db"}), kExitSomeFailed);
  // As if killed after the log append, before the Secret's rename.
  Write("secret.json", old_secret);
  ASSERT_EQ(Record({}), kExitOk) << err_.str();
  std::ostringstream out, err;
  EXPECT_EQ(FinishCommand(RunReplay(VerifyOptions(), out, err), err), kExitOk) << out.str() << err.str();
  // The failed deploy the log kept is in the history.
  const DeployedPackage p = Stored();
  ASSERT_GE(p.events.size(), 4u);
  EXPECT_EQ(p.events[p.events.size() - 3].outcome, kOutcomeFailed);
  EXPECT_EQ(engine::LatestEventSummary(p), "Deploy/Succeeded");
}

TEST_F(RecordCmdTest, TheNextRecordDeletesTempFilesAKillLeftBehind) {
  ASSERT_EQ(Record({}), kExitOk);
  Write("secret.json.tmp-AbC123", "{\"half\": ");
  Write("secret.json.tmp-keep", "not ours: the suffix is not mkstemp's");
  ASSERT_EQ(Record({}), kExitOk) << err_.str();
  EXPECT_FALSE(fs::exists(dir_ / "secret.json.tmp-AbC123"));
  EXPECT_TRUE(fs::exists(dir_ / "secret.json.tmp-keep"));
}

TEST_F(RecordCmdTest, TimeTravelStopsAfterNRecords) {
  ASSERT_EQ(Record({}), kExitOk);
  ReplayOptions o;
  o.log_path = P("log.jsonl");
  o.upto = 3;
  std::ostringstream out, err;
  ASSERT_EQ(FinishCommand(RunReplay(o, out, err), err), kExitOk) << err.str();
  EXPECT_NE(out.str().find("\n3 "), std::string::npos) << out.str();
  EXPECT_EQ(out.str().find("\n4 "), std::string::npos) << out.str();
}

TEST_F(RecordCmdTest, StatusReportsHowLongAnOperationHasBeenInProgress) {
  ASSERT_EQ(Record({"--begin-only", ""}), kExitOk);
  const Timestamp started = Stored().events.back().timestamp;
  StatusOptions o;
  o.files = {P("secret.json")};
  o.now = FormatRfc3339(Timestamp::FromUnixNanos(started.unix_nanos() + (6LL * 3600 + 120) * 1000000000LL));
  std::ostringstream out, err;
  ASSERT_EQ(FinishCommand(RunStatus(o, out, err), err), kExitOk) << err.str();
  EXPECT_NE(out.str().find("   Deploy/InProgress   6h2m   for 6h2m "), std::string::npos) << out.str();
  RecordOptions abandon;
  abandon.action = "abandon";
  abandon.outcome = "Failed";
  abandon.session.secret_path = P("secret.json");
  std::ostringstream o2, e2;
  ASSERT_EQ(FinishCommand(RunRecord(abandon, o2, e2), e2), kExitOk) << e2.str();
  EXPECT_EQ(engine::LatestEventSummary(Stored()), "Deploy/Failed");
}

TEST_F(RecordCmdTest, AnUndigestableConfigChangesNothing) {
  ASSERT_EQ(Record({}), kExitOk);
  const std::string before = testing::ReadFile(dir_ / "secret.json");
  const std::string log_before = testing::ReadFile(dir_ / "log.jsonl");
  Write("config.json", R"({"Values":{"big":1e999}})");
  EXPECT_EQ(Record({}), kExitSomeFailed);
  EXPECT_NE(err_.str().find("1e999"), std::string::npos) << err_.str();
  EXPECT_EQ(testing::ReadFile(dir_ / "secret.json"), before);
  EXPECT_EQ(testing::ReadFile(dir_ / "log.jsonl"), log_before);
}

TEST_F(RecordCmdTest, TheSizeGuardRefusesAnOverLimitSecretAndWritesNothing) {
  ASSERT_EQ(Record({}), kExitOk);
  const std::string before = testing::ReadFile(dir_ / "secret.json");
  const std::string log_before = testing::ReadFile(dir_ / "log.jsonl");
  // A definition whose JSON alone is over 1 MiB: 40,000 distinct images.
  std::string yaml = "kind: ZarfPackageConfig\nmetadata:\n  name: demo\n  version: 2.0.0\ncomponents:\n"
                     "  - name: web\n    required: true\n    images:\n";
  for (int i = 0; i < 40000; ++i) yaml += "      - ghcr.io/acme/img-" + std::to_string(i) + ":1.0.0\n";
  Write("zarf.yaml", yaml);
  RecordOptions o;
  o.action = "deploy";
  o.session.secret_path = P("secret.json");
  o.session.log_path = P("log.jsonl");
  o.package_file = P("zarf.yaml");
  o.codec = "json";
  std::ostringstream out, err;
  EXPECT_EQ(FinishCommand(RunRecord(o, out, err), err), kExitSomeFailed);
  EXPECT_NE(err.str().find("over the API server's limit of 1048576"), std::string::npos) << err.str();
  EXPECT_NE(err.str().find("data.components"), std::string::npos) << err.str();
  EXPECT_EQ(testing::ReadFile(dir_ / "secret.json"), before);
  EXPECT_EQ(testing::ReadFile(dir_ / "log.jsonl"), log_before);
  // With auto the same deploy is written compact, and reads back.
  o.codec = "auto";
  std::ostringstream out2, err2;
  ASSERT_EQ(FinishCommand(RunRecord(o, out2, err2), err2), kExitOk) << err2.str();
  auto in = ReadInput(testing::ReadFile(dir_ / "secret.json"), "secret");
  ASSERT_TRUE(in.ok());
  EXPECT_NE(in->objects[0].object.Find("data")->Find("data-compact"), nullptr);
  EXPECT_EQ(engine::LatestEventSummary(*DecodePackage(in->objects[0].object)), "Deploy/Succeeded");
}

// The real binary, stopped by a real signal in the middle of a deploy (a
// closed terminal, SIGHUP, too).
TEST_F(RecordCmdTest, SigtermMidDeployRecordsCancelledAndExitsNonZero) {
  for (int sig : {SIGTERM, SIGINT, SIGHUP}) {
    fs::remove(dir_ / "secret.json");
    fs::remove(dir_ / "log.jsonl");
    testing::ChildPipe err;
    ASSERT_TRUE(err.ok());
    testing::ChildSpec spec;
    spec.argv = {ZS_BINARY_PATH, "record", "deploy", "-f", P("secret.json"), "--package",
                 P("zarf.yaml"), "--log", P("log.jsonl"), "--step-delay", "200", "-v"};
    spec.stderr_fd = err.write_end();
    const pid_t pid = testing::SpawnChild(spec);
    ASSERT_GE(pid, 0);
    err.CloseWriteEnd();
    // Wait until the child says the second component is deploying.
    std::string seen;
    ASSERT_TRUE(err.ReadUntil("step: deploying db", &seen)) << "child ended early: " << seen;
    const testing::ChildExit end = testing::SignalChild(pid, sig);
    ASSERT_EQ(end.signal, 0) << "killed instead of stopping gracefully";
    EXPECT_EQ(end.exit_code, kExitSomeFailed);
    const DeployedPackage p = Stored();
    ASSERT_GE(p.events.size(), 2u);
    EXPECT_EQ(p.events.back().type, kEventDeploy);
    EXPECT_EQ(p.events.back().outcome, kOutcomeCancelled);
    EXPECT_EQ(p.FindComponent("web")->last_event->outcome, kOutcomeSucceeded);
    EXPECT_EQ(p.FindComponent("db")->last_event->outcome, kOutcomeCancelled);
    EXPECT_EQ(p.FindComponent("jobs"), nullptr);  // never reached
    EXPECT_EQ(p.config_digest, "");                // no deploy ever succeeded
  }
}

}  // namespace
}  // namespace zs::tools
