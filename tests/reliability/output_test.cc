// Checked output: every command run by the real binary with its standard
// output on /dev/full, or on a file that a file size limit (RLIMIT_FSIZE,
// a full disk without a tmpfs) cuts, fails with exit 1 and says why; and
// `migrate --out` replaces its file only with a complete new one.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tests/run_binary.h"
#include "tests/test_dir.h"
#include "tests/test_util.h"

namespace zs::testing {
namespace {

namespace fs = std::filesystem;

using Ran = RunResult;
using Child = ChildSetup;

Ran RunZs(const std::vector<std::string>& args, const Child& child, const fs::path& dir) {
  return RunLimited(ZS_BINARY_PATH, args, child, dir);
}

class OutputTest : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = FreshTestDir("zs-output"); }
  void TearDown() override { fs::remove_all(dir_); }
  std::string P(const std::string& name) const { return (dir_ / name).string(); }
  static std::string Data(const std::string& rel) { return (DataDir() / rel).string(); }

  fs::path dir_;
};

const char kList[] = "samples/multi-era.list.json";
const char kSecret[] = "legacy/e22-v0.80.0-v0.84.0/pkg-small-dos-games.secret.json";

TEST_F(OutputTest, EveryCommandFailsWhenStandardOutputIsFull) {
  // A cache to query, made by an ingest that is checked itself below.
  Child quiet;
  ASSERT_EQ(RunZs({"ingest", "--db", P("db"), "-f", Data(kList)}, quiet, dir_).exit_code, 0);
  struct Case {
    std::vector<std::string> args;
    std::string stdin_path = "/dev/null";
  };
  const std::vector<Case> cases = {
      {{"inspect", "-f", Data(kList)}},
      {{"size", "-f", Data(kSecret)}},
      {{"status", "-f", Data(kSecret)}},
      {{"replay", "-f", Data("legacy/e22-v0.80.0-v0.84.0/pkg-edge-unknown-fields.secret.json")}},
      {{"config", "digest", "--kind", "deploy", "-f", Data("samples/deploy-config-1.json")}},
      {{"migrate", "-f", Data(kList)}},
      {{"migrate", "-f", Data(kList), "-o", "yaml"}},
      {{"migrate", "-f", Data(kList), "--dry-run"}},
      {{"record", "deploy", "-f", "-", "--package", Data("samples/dos-games.yaml")}, Data(kSecret)},
      {{"prune", "plan", "--deployed", Data(kSecret), "--remove", "--no-others"}},
      {{"ingest", "--db", P("db2"), "-f", Data(kList)}},
      {{"query", "--db", P("db"), "status"}},
      {{"query", "--db", P("db"), "-o", "json", "history", "init"}},
      {{"verify", "--db", P("db")}},
      {{"--help"}},
  };
  for (const Case& c : cases) {
    std::string what;
    for (const std::string& a : c.args) what += a + " ";
    // The command prints something when stdout works...
    Child ok;
    ok.stdin_path = c.stdin_path;
    ok.stdout_path = P("out");
    const Ran good = RunZs(c.args, ok, dir_);
    EXPECT_EQ(good.exit_code, 0) << what << good.err;
    EXPECT_GT(fs::file_size(P("out")), 0u) << what;
    if (c.args[0] == "ingest") fs::remove_all(P("db2"));  // ingest anew below
    // ...and fails, saying why, when it does not.
    Child full = ok;
    full.stdout_path = "/dev/full";
    const Ran r = RunZs(c.args, full, dir_);
    EXPECT_EQ(r.signal, 0) << what;
    EXPECT_EQ(r.exit_code, 1) << what << r.err;
    EXPECT_NE(r.err.find("standard output: write failed: No space left on device"),
              std::string::npos)
        << what << r.err;
  }
}

TEST_F(OutputTest, AFileCutByAFullDiskIsAnErrorNotASuccess) {
  // The whole YAML List, then the same with the disk "full" at half of it:
  // the cut file would still parse as a shorter List.
  const std::vector<std::string> args = {"migrate", "-f", Data(kList), "-o", "yaml"};
  Child whole;
  whole.stdout_path = P("v2.yaml");
  ASSERT_EQ(RunZs(args, whole, dir_).exit_code, 0);
  const auto size = fs::file_size(P("v2.yaml"));
  ASSERT_GT(size, 8192u);
  Child cut = whole;
  cut.file_size_limit = size / 2;
  const Ran r = RunZs(args, cut, dir_);
  EXPECT_EQ(r.signal, 0);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("standard output: write failed: File too large"), std::string::npos) << r.err;
  EXPECT_LE(fs::file_size(P("v2.yaml")), size / 2);
}

TEST_F(OutputTest, AFailedMigrateOutLeavesTheExistingFileAsItWas) {
  const std::string old_text = "{\"kind\": \"List\", \"items\": []}\n";
  auto reset = [&] {
    std::ofstream(P("o.json"), std::ios::trunc) << old_text;
  };
  fs::copy_file(DataDir() / "bad-inputs/truncated-secret.json", P("truncated.json"));
  const std::vector<std::vector<std::string>> inputs = {
      {"-f", P("missing.json")},
      {"-f", P("truncated.json")},
      // One good file and one bad: the manifests would be an incomplete set.
      {"-f", Data(kSecret), "-f", P("truncated.json")},
  };
  for (const std::vector<std::string>& in : inputs) {
    reset();
    std::vector<std::string> args = {"migrate"};
    args.insert(args.end(), in.begin(), in.end());
    args.insert(args.end(), {"--out", P("o.json")});
    const Ran r = RunZs(args, Child(), dir_);
    EXPECT_EQ(r.exit_code, 1) << in.back() << r.err;
    EXPECT_NE(r.err.find("--out " + P("o.json") + ": not written"), std::string::npos) << r.err;
    EXPECT_EQ(ReadFile(P("o.json")), old_text) << in.back();
  }
  // A full disk while writing the new file (60 KB; the report on stderr,
  // 8 KB, still fits): the old one stays too.
  reset();
  Child full;
  full.file_size_limit = 16384;
  const Ran r = RunZs({"migrate", "-f", Data(kList), "--out", P("o.json")}, full, dir_);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("File too large"), std::string::npos) << r.err;
  EXPECT_EQ(ReadFile(P("o.json")), old_text);
  // No temp file is left beside it.
  for (const auto& e : fs::directory_iterator(dir_)) {
    EXPECT_EQ(e.path().filename().string().find("o.json.tmp"), std::string::npos) << e.path();
  }
  // And a good run replaces it.
  const Ran good = RunZs({"migrate", "-f", Data(kList), "--out", P("o.json")}, Child(), dir_);
  EXPECT_EQ(good.exit_code, 0) << good.err;
  EXPECT_NE(ReadFile(P("o.json")), old_text);
}

TEST_F(OutputTest, DryRunWritesItsReportToTheReportFile) {
  Child c;
  c.stdout_path = P("stdout");
  const Ran r = RunZs({"migrate", "-f", Data(kList), "--dry-run", "--report-format", "json", "--report",
                       P("report.json")},
                      c, dir_);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(ReadFile(P("stdout")), "");
  const std::string report = ReadFile(P("report.json"));
  EXPECT_NE(report.find("\"summary\""), std::string::npos) << report;
  struct stat st {};
  ASSERT_EQ(::stat(P("report.json").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
}

}  // namespace
}  // namespace zs::testing
