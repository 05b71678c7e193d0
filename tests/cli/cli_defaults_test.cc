// Defaults and messages of the command line, through the real binary: the
// cache's default directory and the message for a missing one, a terminal
// on standard input, the warnings and the gate near the Secret limit, and
// `--exit-code` on config comparisons.
#include <gtest/gtest.h>

#include <pty.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "tests/run_binary.h"
#include "tests/test_dir.h"
#include "tests/test_util.h"

namespace zs::testing {
namespace {

namespace fs = std::filesystem;

const std::string kNearLimit = (DataDir() / "legacy/e22-v0.80.0-v0.84.0/pkg-edge-near-1mib.secret.json").string();
const std::string kSmall = (DataDir() / "legacy/e22-v0.80.0-v0.84.0/pkg-small-dos-games.secret.json").string();

class CliDefaultsTest : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = FreshTestDir("cli_defaults"); }
  RunResult Run(const std::vector<std::string>& args) { return RunBinary(ZS_BINARY_PATH, args, dir_); }
  fs::path dir_;
};

// Sets an environment variable for one scope (the binary inherits it).
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old, had_ = true;
    ::setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv() { had_ ? ::setenv(name_, old_.c_str(), 1) : ::unsetenv(name_); }

 private:
  const char* name_;
  std::string old_;
  bool had_ = false;
};

// Runs the binary with a pseudo-terminal as its standard input (and
// /dev/null for its output); returns the exit code and fills `err`.
int RunWithTerminalStdin(const std::vector<std::string>& args, std::string* err) {
  int master = -1, slave = -1;
  if (::openpty(&master, &slave, nullptr, nullptr, nullptr) != 0) return -2;
  ChildSpec spec;
  spec.argv = {ZS_BINARY_PATH};
  spec.argv.insert(spec.argv.end(), args.begin(), args.end());
  spec.stdin_fd = slave;
  // A command that waits on the terminal would hang: give it up to 20 s.
  const ChildRun run = RunChild(spec, std::chrono::seconds(20));
  ::close(slave);
  ::close(master);
  if (run.exit.timed_out) return -3;
  *err = run.err;
  return run.exit.exit_code;
}

TEST_F(CliDefaultsTest, ATerminalOnStandardInputIsAUsageErrorWithAHint) {
  for (const char* cmd : {"inspect", "migrate", "size", "status", "ingest"}) {
    std::string err;
    std::vector<std::string> args{cmd};
    if (std::string(cmd) == "ingest") args = {cmd, "--db", (dir_ / "db").string()};
    EXPECT_EQ(RunWithTerminalStdin(args, &err), 2) << cmd;
    EXPECT_NE(err.find("standard input is a terminal; give the Secrets with -f FILE"),
              std::string::npos)
        << cmd << ": " << err;
  }
  // With a file the terminal does not matter.
  std::string err;
  EXPECT_EQ(RunWithTerminalStdin({"inspect", "-f", kSmall}, &err), 0) << err;
  // config digest reads a config, not Secrets: its own hint.
  EXPECT_EQ(RunWithTerminalStdin({"config", "digest"}, &err), 2) << err;
  EXPECT_NE(err.find("config digest: standard input is a terminal; give the config with -f FILE"),
            std::string::npos)
      << err;
}

TEST_F(CliDefaultsTest, TheCacheDefaultsToZarfStateDbThenXdgCacheHome) {
  const fs::path db = dir_ / "from-env";
  {
    ScopedEnv env("ZARF_STATE_DB", db.string());
    const RunResult in = Run({"ingest", "-f", kSmall});
    ASSERT_EQ(in.exit_code, 0) << in.err;
    EXPECT_TRUE(fs::exists(db / "CURRENT"));
    const RunResult q = Run({"query", "status", "-o", "json"});
    ASSERT_EQ(q.exit_code, 0) << q.err;
    EXPECT_NE(q.out.find("dos-games"), std::string::npos) << q.out;
  }
  ScopedEnv no_db("ZARF_STATE_DB", "");
  ScopedEnv xdg("XDG_CACHE_HOME", (dir_ / "xdg").string());
  const RunResult in = Run({"ingest", "-f", kSmall});
  ASSERT_EQ(in.exit_code, 0) << in.err;
  EXPECT_TRUE(fs::exists(dir_ / "xdg/zarf-state/CURRENT"));
  EXPECT_EQ(Run({"verify"}).exit_code, 0);
}

TEST_F(CliDefaultsTest, AMissingCacheSaysWhatToRun) {
  const std::string missing = (dir_ / "none").string();
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"query", "--db", missing, "status"},
        std::vector<std::string>{"verify", "--db", missing}}) {
    const RunResult r = Run(args);
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_EQ(r.err, "error: cache " + missing + ": does not exist; create it with: zarf-state ingest --db " +
                         missing + " -f SECRETS\n");
  }
  fs::create_directories(dir_ / "empty");
  const RunResult r = Run({"query", "--db", (dir_ / "empty").string(), "status"});
  EXPECT_NE(r.err.find("holds no zarf-state cache; create it with"), std::string::npos) << r.err;
}

TEST_F(CliDefaultsTest, SizeWarnsPastNinetyPercentAndFailAboveGates) {
  // Measuring a near-1 MiB Secret takes seconds: two runs.
  RunResult r = Run({"size", "-f", kNearLimit, "--fail-above", "99.5"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.err.rfind("warning: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find("99.0% of the 1048576-byte Secret limit"), std::string::npos) << r.err;
  r = Run({"size", "-f", kNearLimit, "--fail-above", "95"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find("over --fail-above 95%"), std::string::npos) << r.err;
  r = Run({"size", "-f", kSmall, "--fail-above", "1"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(Run({"size", "-f", kSmall, "--fail-above", "101"}).exit_code, 2);
}

TEST_F(CliDefaultsTest, InspectWarnsPastNinetyPercent) {
  RunResult r = Run({"inspect", "-f", kNearLimit});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.err.find("warning: "), std::string::npos);
  EXPECT_NE(r.err.find("99.0% of the 1048576-byte limit"), std::string::npos) << r.err;
  r = Run({"inspect", "-f", kSmall});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.err, "");
}

TEST_F(CliDefaultsTest, ConfigDiffExitCodeIsOneWhenTheConfigsDiffer) {
  const std::string a = WriteTempFile("a.json", R"({"Values":{"replicas":2}})");
  const std::string b = WriteTempFile("b.json", R"({"Values":{"replicas":3}})");
  EXPECT_EQ(Run({"config", "diff", a, b}).exit_code, 0);
  EXPECT_EQ(Run({"config", "diff", "--exit-code", a, b}).exit_code, 1);
  EXPECT_EQ(Run({"config", "diff", "--exit-code", "-o", "json", a, b}).exit_code, 1);
  EXPECT_EQ(Run({"config", "diff", "--exit-code", a, a}).exit_code, 0);
}

TEST_F(CliDefaultsTest, QueryConfigChangedExitCode) {
  const std::string db = (dir_ / "db").string();
  const std::string secret = (dir_ / "s.json").string();
  const std::string pkg = WriteTempFile("zarf.yaml", kDemoPackageYaml);
  const std::string cfg = WriteTempFile("c1.json", R"({"Values":{"replicas":2}})");
  const std::string other = WriteTempFile("c2.json", R"({"Values":{"replicas":3}})");
  ASSERT_EQ(Run({"record", "deploy", "-f", secret, "--package", pkg, "--config", cfg}).exit_code, 0);
  ASSERT_EQ(Run({"ingest", "--db", db, "-f", secret}).exit_code, 0);
  const RunResult list = Run({"query", "--db", db, "status", "-o", "json"});
  const std::size_t at = list.out.find("\"package\": \"");
  ASSERT_NE(at, std::string::npos) << list.out;
  const std::string name = list.out.substr(at + 12, list.out.find('"', at + 12) - at - 12);
  EXPECT_EQ(Run({"query", "--db", db, "config-changed", name, "-f", other}).exit_code, 0);
  EXPECT_EQ(Run({"query", "--db", db, "config-changed", name, "-f", other, "--exit-code"}).exit_code, 1);
  EXPECT_EQ(Run({"query", "--db", db, "config-changed", name, "-f", cfg, "--exit-code"}).exit_code, 0);
}


// Every command that prints a report takes -o table|json|yaml; anything
// else is a usage error before the command runs, never a silent table.
TEST_F(CliDefaultsTest, EveryReportPrintsJsonAndYamlAndRefusesOtherFormats) {
  const std::string pkg = WriteTempFile("zarf.yaml", kDemoPackageYaml);
  const std::string secret = (dir_ / "s.json").string();
  ASSERT_EQ(Run({"record", "deploy", "-f", secret, "--package", pkg}).exit_code, 0);
  const std::string db = (dir_ / "db").string();
  ASSERT_EQ(Run({"ingest", "--db", db, "-f", secret}).exit_code, 0);
  const std::string cfg = WriteTempFile("c.json", R"({"Values":{"a":1}})");
  const std::string cfg2 = WriteTempFile("c2.json", R"({"Values":{"a":2}})");
  const std::vector<std::vector<std::string>> commands = {
      {"inspect", "-f", secret},
      {"status", "-f", secret},
      {"size", "-f", secret},
      {"replay", "-f", secret},
      {"config", "diff", cfg, cfg2},
      {"query", "--db", db, "status"},
      {"verify", "--db", db},
      {"prune", "plan", "--deployed", secret, "--remove", "--no-others"},
  };
  for (const auto& base : commands) {
    std::string name;
    for (const std::string& a : base) name += a + " ";
    RunResult json = Run([&] { auto v = base; v.insert(v.end(), {"-o", "json"}); return v; }());
    ASSERT_EQ(json.exit_code, 0) << name << json.err;
    EXPECT_TRUE(json.out[0] == '[' || json.out[0] == '{') << name << json.out;
    RunResult yaml = Run([&] { auto v = base; v.insert(v.end(), {"-o", "yaml"}); return v; }());
    ASSERT_EQ(yaml.exit_code, 0) << name << yaml.err;
    EXPECT_NE(yaml.out[0], '{') << name << yaml.out;
    EXPECT_NE(yaml.out, json.out) << name;
    RunResult bad = Run([&] { auto v = base; v.insert(v.end(), {"-o", "xml"}); return v; }());
    EXPECT_EQ(bad.exit_code, 2) << name;
    EXPECT_EQ(bad.out, "") << name;
    EXPECT_NE(bad.err.find("xml not in {table,"), std::string::npos) << name << bad.err;
  }
}

}  // namespace
}  // namespace zs::testing
