// `-` names standard output for every flag that names an output file, as it
// names standard input for -f: no file called `-` is ever created.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <sstream>

#include "json/json_reader.h"
#include "tests/test_dir.h"
#include "tests/test_util.h"
#include "cli/common.h"
#include "cli/migrate_cmd.h"
#include "cli/report_cmd.h"

namespace zs::tools {
namespace {

namespace fs = std::filesystem;

// Runs `run` with the working directory in a fresh folder, so that a file
// named `-` would show up there.
template <typename Options, typename Run>
int InFreshDir(const fs::path& dir, const Options& o, Run run, std::string* out, std::string* err) {
  const fs::path before = fs::current_path();
  fs::current_path(dir);
  std::ostringstream so, se;
  const int code = FinishCommand(run(o, so, se), se);
  fs::current_path(before);
  *out = so.str();
  *err = se.str();
  return code;
}

const std::string kList =
    (zs::testing::DataDir() / "legacy/e03-v0.19.0-v0.21.3/all-secrets.list.json").string();

TEST(DashIsStdoutTest, MigrateOutDashIsStdout) {
  const fs::path dir = zs::testing::FreshTestDir("dash");
  MigrateOptions o;
  o.files = {kList};
  o.out_file.assign(1, '-');  // (assigning "-" trips a false g++ 12 -Wrestrict)
  std::string out, err;
  EXPECT_EQ(InFreshDir(dir, o, RunMigrate, &out, &err), kExitOk) << err;
  EXPECT_FALSE(fs::exists(dir / "-"));
  EXPECT_TRUE(json::ParseJson(out).ok()) << "the manifests on stdout";
  EXPECT_NE(err.find("OBJECT"), std::string::npos) << "the report on stderr";
  fs::remove_all(dir);
}

TEST(DashIsStdoutTest, MigrateReportDashIsStdoutWhenTheManifestsGoElsewhere) {
  const fs::path dir = zs::testing::FreshTestDir("dash");
  MigrateOptions o;
  o.files = {kList};
  o.out_file = (dir / "v2.json").string();
  o.report_file = "-";
  o.report_format = "json";
  std::string out, err;
  EXPECT_EQ(InFreshDir(dir, o, RunMigrate, &out, &err), kExitOk) << err;
  EXPECT_FALSE(fs::exists(dir / "-"));
  Result<json::Value> report = json::ParseJson(out);
  ASSERT_TRUE(report.ok()) << out;
  EXPECT_NE(report->Find("objects"), nullptr);
  EXPECT_TRUE(fs::exists(dir / "v2.json"));
  // With --dry-run too; with the manifests on stdout it is a usage error.
  o.out_file.clear();
  EXPECT_EQ(InFreshDir(dir, o, RunMigrate, &out, &err), kExitUsage);
  EXPECT_NE(err.find("--report -"), std::string::npos) << err;
  o.dry_run = true;
  EXPECT_EQ(InFreshDir(dir, o, RunMigrate, &out, &err), kExitOk) << err;
  EXPECT_TRUE(json::ParseJson(out).ok()) << out;
  EXPECT_FALSE(fs::exists(dir / "-"));
  fs::remove_all(dir);
}

TEST(DashIsStdoutTest, ReportOutDashPrintsThePage) {
  const fs::path dir = zs::testing::FreshTestDir("dash");
  ReportOptions o;
  o.files = {kList};
  o.out.assign(1, '-');
  o.now = "2026-12-02T09:00:00Z";
  std::string out, err;
  EXPECT_EQ(InFreshDir(dir, o, RunReport, &out, &err), kExitOk) << err;
  EXPECT_FALSE(fs::exists(dir / "-"));
  EXPECT_EQ(out.rfind("<!DOCTYPE html>", 0), 0u) << out.substr(0, 80);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace zs::tools
