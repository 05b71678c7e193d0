// status, inspect and report of Secrets as Zarf v0.84 and earlier write
// them (no events): each shows the statuses the Secret stores, marked
// "stored:", the definition's version as DEPLOYED, an interrupted deploy as
// such, and Unknown only where nothing is stored.
#include <gtest/gtest.h>

#include <sstream>

#include "json/json_reader.h"
#include "tests/table_rows.h"
#include "tests/test_util.h"
#include "cli/common.h"
#include "cli/inspect_cmd.h"
#include "cli/report_cmd.h"
#include "cli/status_cmd.h"

namespace zs::tools {
namespace {

const std::string kEra = "legacy/e22-v0.80.0-v0.84.0/";

struct Ran {
  int code = 0;
  std::string out, err;
};

Ran Status(const std::string& file, const std::string& format = "table") {
  StatusOptions o;
  o.files = {(testing::DataDir() / file).string()};
  o.output.format = format;
  o.now = "2026-12-01T00:00:00Z";
  std::ostringstream out, err;
  Ran r;
  r.code = FinishCommand(RunStatus(o, out, err), err);
  r.out = out.str();
  r.err = err.str();
  return r;
}

json::Value StatusDoc(const std::string& file) {
  const Ran r = Status(file, "json");
  EXPECT_EQ(r.code, kExitOk) << r.err;
  auto doc = json::ParseJson(r.out);
  EXPECT_TRUE(doc.ok()) << r.out;
  return doc.ok() ? doc->array().at(0) : json::Value();
}

TEST(StoredStatusCmdTest, ASucceededSecretShowsItsStoredStatusAndVersion) {
  const Ran r = Status(kEra + "pkg-small-dos-games.secret.json");
  EXPECT_EQ(r.code, kExitOk) << r.err;
  EXPECT_TRUE(testing::HasTableRows(r.out, {"NAME LATEST AGE IN PROGRESS DEPLOYED",
                                            "dos-games stored:Succeeded - - 1.3.0"}))
      << r.out;
  const json::Value doc = StatusDoc(kEra + "pkg-small-dos-games.secret.json");
  EXPECT_EQ(doc.Find("state")->StringOr("status"), "Succeeded");
  EXPECT_EQ(doc.Find("state")->StringOr("from"), "stored");
  EXPECT_FALSE(doc.Find("state")->Find("interrupted")->as_bool());
  EXPECT_EQ(doc.StringOr("deployedVersion"), "1.3.0");
  EXPECT_TRUE(doc.Find("latestEvent")->is_null());
}

TEST(StoredStatusCmdTest, ADeployLeftDeployingIsShownInterrupted) {
  const Ran r = Status(kEra + "pkg-realistic-init-deploying.secret.json", "wide");
  EXPECT_EQ(r.code, kExitOk) << r.err;
  EXPECT_TRUE(testing::HasTableRow(
      r.out, "init stored:Deploying - interrupted - zarf-package-init - - - - - - "
             "zarf-injector=stored:Succeeded,zarf-seed-registry=stored:Succeeded,"
             "zarf-registry=stored:Succeeded,zarf-agent=stored:Succeeded,"
             "git-server=stored:Deploying"))
      << r.out;
  const json::Value doc = StatusDoc(kEra + "pkg-realistic-init-deploying.secret.json");
  EXPECT_TRUE(doc.Find("state")->Find("interrupted")->as_bool());
  EXPECT_EQ(doc.Find("state")->StringOr("interruptedComponent"), "git-server");
  EXPECT_TRUE(doc.Find("inProgressSince")->is_null());  // a Secret holds no time for it
}

TEST(StoredStatusCmdTest, FailedAndRemovingComponentsEachKeepTheirOwn) {
  const json::Value doc = StatusDoc(kEra + "pkg-realistic-init-failed.secret.json");
  EXPECT_EQ(doc.Find("state")->StringOr("status"), "Removing");
  EXPECT_EQ(doc.Find("state")->StringOr("interruptedComponent"), "zarf-agent");
  const json::Value& comps = *doc.Find("components");
  ASSERT_EQ(comps.array().size(), 5u);
  EXPECT_EQ(comps.array()[3].Find("state")->StringOr("status"), "Removing");
  EXPECT_EQ(comps.array()[4].Find("state")->StringOr("status"), "Failed");
  EXPECT_EQ(comps.array()[4].Find("state")->StringOr("from"), "stored");
  EXPECT_EQ(comps.array()[4].StringOr("status"), "Failed");  // the field as stored
}

TEST(StoredStatusCmdTest, UnknownOnlyWhereNothingIsStored) {
  // Zarf v0.22 to v0.29 stored no component status.
  const Ran r = Status("legacy/e06-v0.26.3-v0.29.2/pkg-small-dos-games.secret.json");
  EXPECT_TRUE(testing::HasTableRow(r.out, "dos-games Unknown - - 1.0.0")) << r.out;
  const json::Value doc = StatusDoc("legacy/e06-v0.26.3-v0.29.2/pkg-small-dos-games.secret.json");
  EXPECT_EQ(doc.Find("state")->StringOr("from"), "none");
  EXPECT_EQ(doc.Find("components")->array()[0].Find("state")->StringOr("status"), "Unknown");
}

TEST(StoredStatusCmdTest, InspectShowsTheStoredStatus) {
  InspectOptions o;
  o.files = {(testing::DataDir() / (kEra + "pkg-realistic-init-deploying.secret.json")).string()};
  std::ostringstream out, err;
  ASSERT_EQ(FinishCommand(RunInspect(o, out, err), err), kExitOk) << err.str();
  EXPECT_NE(out.str().find(" stored:Deploying "), std::string::npos) << out.str();
  o.output.format = "json";
  std::ostringstream jout;
  ASSERT_EQ(FinishCommand(RunInspect(o, jout, err), err), kExitOk) << err.str();
  auto doc = json::ParseJson(jout.str());
  ASSERT_TRUE(doc.ok());
  const json::Value& pkg = doc->array().at(0);
  EXPECT_EQ(pkg.Find("state")->StringOr("status"), "Deploying");
  EXPECT_TRUE(pkg.Find("state")->Find("interrupted")->as_bool());
  EXPECT_EQ(pkg.Find("components")->array().back().Find("state")->StringOr("from"), "stored");
}

TEST(StoredStatusCmdTest, ReportShowsTheStoredStatusAndWarnsOfAnInterruptedDeploy) {
  ReportOptions o;
  o.files = {(testing::DataDir() / (kEra + "pkg-realistic-init-deploying.secret.json")).string()};
  o.now = "2026-12-01T00:00:00Z";
  o.out = testing::WriteTempFile("stored-status-report.html", "");
  std::ostringstream out, err;
  ASSERT_EQ(FinishCommand(RunReport(o, out, err), err), kExitOk) << err.str();
  const std::string page = testing::ReadFile(o.out);
  EXPECT_NE(page.find("badge outcome-InProgress\">stored:Deploying"), std::string::npos);
  EXPECT_NE(page.find("component git-server was left unfinished"), std::string::npos);
  EXPECT_NE(page.find("No event history: the status shown is the one the Secret stores"),
            std::string::npos);
}

}  // namespace
}  // namespace zs::tools
