// The output layer as the report commands use it, through the real binary:
// every -o value each command prints, --no-headers, and a format it cannot
// print as a usage error (exit 2, nothing on stdout) rather than a table.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "json/json_reader.h"
#include "tests/run_binary.h"
#include "tests/test_util.h"
#include "yaml/yaml.h"

namespace zs::testing {
namespace {

namespace fs = std::filesystem;

std::string Legacy(const char* name) {
  return (DataDir() / "legacy/e22-v0.80.0-v0.84.0" / name).string();
}
std::string Sample(const char* name) { return (DataDir() / "samples" / name).string(); }

struct Command {
  std::string name;
  std::vector<std::string> args;     // without -o
  std::vector<std::string> formats;  // every -o it prints
  std::string header;                // the table's header starts so
  std::vector<std::string> refused;  // -o values it cannot print
};

class PrintingFormatsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("zs-printing-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  RunResult Run(std::vector<std::string> args, const std::vector<std::string>& more = {}) {
    args.insert(args.end(), more.begin(), more.end());
    return RunBinary(ZS_BINARY_PATH, args, dir_);
  }

  // Each format: exit `code`; json and yaml parse; name is kind/name lines;
  // table and wide start with the header, which --no-headers drops; the
  // refused formats are exit 2 with nothing on stdout.
  void Check(const Command& c, int code = 0) {
    for (const std::string& f : c.formats) {
      SCOPED_TRACE(c.name + " -o " + f);
      const RunResult r = Run(c.args, {"-o", f});
      ASSERT_EQ(r.exit_code, code) << r.err;
      ASSERT_FALSE(r.out.empty());
      if (f == "json") {
        EXPECT_TRUE(json::ParseJson(r.out).ok()) << r.out;
      } else if (f == "yaml") {
        auto docs = yaml::ParseDocuments(r.out);
        ASSERT_TRUE(docs.ok()) << r.out;
        EXPECT_EQ(docs->size(), 1u) << r.out;
        EXPECT_NE(r.out.front(), '{') << "YAML, not JSON: " << r.out;
      } else if (f == "name") {
        EXPECT_EQ(r.out.rfind("secret/zarf-package-", 0), 0u) << r.out;
      } else {
        EXPECT_NE(r.out.find(c.header), std::string::npos) << r.out;
        const RunResult bare = Run(c.args, {"-o", f, "--no-headers"});
        ASSERT_EQ(bare.exit_code, code) << bare.err;
        EXPECT_EQ(bare.out.find(c.header), std::string::npos) << bare.out;
        EXPECT_FALSE(bare.out.empty());
      }
    }
    for (const std::string& f : c.refused) {
      SCOPED_TRACE(c.name + " -o " + f + " (refused)");
      const RunResult r = Run(c.args, {"-o", f});
      EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
      EXPECT_EQ(r.out, "") << "never a silent table";
      EXPECT_NE(r.err.find(f), std::string::npos) << r.err;
    }
  }

  fs::path dir_;
};

TEST_F(PrintingFormatsTest, Size) {
  Check({"size",
         {"size", "-f", Legacy("pkg-small-dos-games.secret.json"), "--now", "2030-01-01T00:00:00Z"},
         {"table", "wide", "json", "yaml", "name"},
         "PACKAGE ",
         {"csv", "jsonl"}});
}

TEST_F(PrintingFormatsTest, ConfigDiff) {
  Check({"config diff",
         {"config", "diff", Sample("deploy-config-1.json"), Sample("deploy-config-2.yaml")},
         {"table", "wide", "json", "yaml"},
         "CHANGE ",
         {"name", "csv"}});
}

TEST_F(PrintingFormatsTest, PrunePlan) {
  Check({"prune plan",
         {"prune", "plan", "--deployed", Legacy("pkg-small-dos-games.secret.json"), "--remove",
          "--no-others"},
         {"table", "wide", "json", "yaml"},
         "ACTION ",
         {"name", "csv"}});
}

TEST_F(PrintingFormatsTest, Verify) {
  const std::string db = (dir_ / "db").string();
  const RunResult in = Run({"ingest", "--db", db, "-f", Sample("multi-era.list.json")});
  ASSERT_EQ(in.exit_code, 0) << in.err;
  Check({"verify", {"verify", "--db", db, "-q"}, {"table", "wide", "json", "yaml"}, "CACHE ",
         {"name", "csv"}});
}

TEST_F(PrintingFormatsTest, MigrateReportFormatIsItsOwnFlag) {
  const std::vector<std::string> dry = {"migrate", "-f", Sample("multi-era.list.json"),
                                        "--dry-run"};
  for (const char* f : {"json", "yaml"}) {
    const RunResult r = Run(dry, {"--report-format", f});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(std::string(f) == "json" ? json::ParseJson(r.out).ok()
                                         : yaml::ParseDocuments(r.out).ok())
        << r.out;
  }
  const RunResult table = Run(dry);
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_EQ(table.out.rfind("OBJECT ", 0), 0u) << table.out;
  const RunResult bare = Run(dry, {"--no-headers"});
  ASSERT_EQ(bare.exit_code, 0) << bare.err;
  EXPECT_EQ(bare.out.find("OBJECT"), std::string::npos) << bare.out;
  EXPECT_EQ(bare.out.rfind("zarf/", 0), 0u) << bare.out;
  // -o is the manifests' format: a report format there is refused, not
  // taken for the report.
  for (const char* f : {"table", "wide", "name"}) {
    const RunResult r = Run(dry, {"-o", f});
    EXPECT_EQ(r.exit_code, 2) << f;
    EXPECT_EQ(r.out, "");
  }
  const RunResult r = Run(dry, {"--report-format", "wide"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
}

}  // namespace
}  // namespace zs::testing
