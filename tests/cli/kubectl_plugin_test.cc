// The kubectl plugin, end to end: the real kubectl runs `kubectl-zarf_state`
// from a folder on PATH, and with --cluster zarf-state runs the real kubectl
// against apiserver-standin (tests/apiserver_standin/), a STAND-IN for the
// API server's Secret endpoints seeded with the fixtures of
// tests/data/cluster/. No cluster is involved. Skipped when kubectl is not
// installed (Debian 12's archive does not have it).
#include <gtest/gtest.h>
#include <signal.h>
#include <stdlib.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "json/json_reader.h"
#include "tests/run_binary.h"
#include "tests/test_dir.h"
#include "tests/test_util.h"
#include "cli/common.h"

namespace zs::tools {
namespace {

namespace fs = std::filesystem;
using testing::RunBinary;
using testing::RunResult;

const std::string kBinary = ZS_BINARY_PATH;
const std::string kStandIn = ZS_STANDIN_PATH;
const std::string kLabel = "cluster (current context, namespace zarf)";

// kubectl on PATH, or "".
std::string FindKubectl() {
  const char* path = getenv("PATH");
  std::string dirs = path ? path : "";
  std::size_t start = 0;
  while (start <= dirs.size()) {
    std::size_t end = dirs.find(':', start);
    if (end == std::string::npos) end = dirs.size();
    const fs::path candidate = fs::path(dirs.substr(start, end - start)) / "kubectl";
    if (!candidate.parent_path().empty() && ::access(candidate.c_str(), X_OK) == 0) {
      return candidate.string();
    }
    start = end + 1;
  }
  return "";
}

std::string ReplaceAll(std::string s, const std::string& from, const std::string& to) {
  for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size())) {
    s.replace(at, from.size(), to);
  }
  return s;
}

class KubectlPluginTest : public ::testing::Test {
 protected:
  void SetUp() override {
    kubectl_ = FindKubectl();
    if (kubectl_.empty()) {
      GTEST_SKIP() << "kubectl is not installed (not in Debian 12's archive): the plugin tests "
                      "run the real kubectl";
    }
    dir_ = testing::FreshTestDir("kubectl-plugin");
    // The plugin as installed: a link named kubectl-zarf_state on PATH.
    fs::create_directories(dir_ / "bin");
    fs::create_symlink(kBinary, dir_ / "bin" / "kubectl-zarf_state");
    old_path_ = getenv("PATH");
    setenv("PATH", ((dir_ / "bin").string() + ":" + old_path_).c_str(), 1);
    fixture_ = (testing::DataDir() / "cluster" / "zarf-namespace.list.json").string();
    kubeconfig_ = (dir_ / "kubeconfig").string();
    log_ = (dir_ / "standin.log").string();
    standin_ = testing::SpawnBinary(
        kStandIn,
        {"-kubeconfig", kubeconfig_, "-seed", fixture_, "-seed",
         (testing::DataDir() / "cluster" / "other-secrets.list.json").string(), "-forbid",
         "forbidden", "-log", log_, "-lifetime", "300s"},
        "", (dir_ / "standin.err").string());
    for (int i = 0; i < 500 && !fs::exists(kubeconfig_); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    ASSERT_TRUE(fs::exists(kubeconfig_)) << testing::ReadFile(dir_ / "standin.err");
    setenv("KUBECONFIG", kubeconfig_.c_str(), 1);
  }

  void TearDown() override {
    if (kubectl_.empty()) return;
    if (standin_ > 0) {
      testing::SignalChild(standin_, SIGTERM);
    }
    setenv("PATH", old_path_.c_str(), 1);
    unsetenv("KUBECONFIG");
    fs::remove_all(dir_);
  }

  RunResult Kubectl(const std::vector<std::string>& args) {
    return RunBinary(kubectl_, args, dir_);
  }
  RunResult Plugin(std::vector<std::string> args) {
    args.insert(args.begin(), "zarf-state");
    return Kubectl(args);
  }
  RunResult Direct(const std::vector<std::string>& args) { return RunBinary(kBinary, args, dir_); }
  // What a command prints for the fixture file, with the file named as the
  // cluster is.
  std::string DirectAsCluster(std::vector<std::string> args) {
    args.insert(args.end(), {"-f", fixture_});
    const RunResult r = Direct(args);
    EXPECT_EQ(r.exit_code, kExitOk) << r.err;
    return ReplaceAll(r.out, fixture_, kLabel);
  }

  std::string kubectl_, old_path_, fixture_, kubeconfig_, log_;
  fs::path dir_;
  pid_t standin_ = -1;
};

TEST_F(KubectlPluginTest, KubectlPassesEveryArgumentToThePlugin) {
  const RunResult version = Plugin({"version", "-o", "json"});
  EXPECT_EQ(version.exit_code, kExitOk) << version.err;
  EXPECT_EQ(version.out, Direct({"version", "-o", "json"}).out);
  const std::vector<std::string> args = {"inspect", "-o", "json", "-f", fixture_, "--show-secrets"};
  const RunResult inspect = Plugin(args);
  EXPECT_EQ(inspect.exit_code, kExitOk) << inspect.err;
  EXPECT_EQ(inspect.out, Direct(args).out);
  EXPECT_NE(inspect.out.find("fake-password-1"), std::string::npos);  // --show-secrets arrived
  const RunResult help = Plugin({"help", "inspect"});
  EXPECT_NE(help.out.find("Usage: kubectl zarf-state inspect [OPTIONS]"), std::string::npos)
      << help.out;
  const RunResult typo = Plugin({"insp"});
  EXPECT_EQ(typo.exit_code, kExitUsage);
  EXPECT_NE(typo.err.find("unknown command 'insp' for 'kubectl zarf-state'"), std::string::npos)
      << typo.err;
}

TEST_F(KubectlPluginTest, InspectOfTheClusterEqualsInspectOfTheSameSecretsInAFile) {
  for (const std::string format : {"table", "json"}) {
    const RunResult r = Plugin({"inspect", "--cluster", "-o", format});
    ASSERT_EQ(r.exit_code, kExitOk) << r.err;
    if (format == "json") {
      EXPECT_EQ(r.err, "");  // the document says which Secret Zarf cannot read
    } else {
      // Only the table's warning that Zarf cannot read the compact Secret.
      EXPECT_EQ(r.err.rfind("warning: ", 0), 0u) << r.err;
      EXPECT_NE(r.err.find("Zarf CANNOT READ this Secret"), std::string::npos) << r.err;
      EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << r.err;
    }
    EXPECT_EQ(r.out, DirectAsCluster({"inspect", "-o", format})) << format;
    EXPECT_EQ(r.out.find("fake-password-1"), std::string::npos);  // redacted
  }
  // One request per kind of Secret read; nothing else is listed.
  const std::string log = testing::ReadFile(log_);
  EXPECT_NE(log.find("GET /api/v1/namespaces/zarf/secrets?labelSelector=package-deploy-info&"),
            std::string::npos)
      << log;
  EXPECT_NE(log.find("GET /api/v1/namespaces/zarf/secrets?labelSelector=zarf-state.dev%2Fpackage-"
                     "deploy-info&"),
            std::string::npos)
      << log;
  EXPECT_NE(log.find("GET /api/v1/namespaces/zarf/secrets/zarf-state"), std::string::npos);
  EXPECT_EQ(log.find("secrets?limit"), std::string::npos) << log;
}

TEST_F(KubectlPluginTest, NamespaceContextAndKubeconfigReachKubectl) {
  unsetenv("KUBECONFIG");
  const RunResult r = Plugin({"inspect", "--cluster", "-n", "other", "--context", "standin",
                              "--kubeconfig", kubeconfig_, "-o", "json"});
  ASSERT_EQ(r.exit_code, kExitOk) << r.err;
  auto v = json::ParseJson(r.out);
  ASSERT_TRUE(v.ok()) << r.out;
  ASSERT_EQ(v->array().size(), 1u) << r.out;  // the one package there, no init state
  EXPECT_EQ(v->array()[0].StringOr("source"),
            "cluster (context standin, namespace other) items[0] (secret other/zarf-package-dos-games)");
}

TEST_F(KubectlPluginTest, StatusAndSizeOfTheClusterEqualThoseOfTheFile) {
  for (const std::string cmd : {"status", "size"}) {
    std::vector<std::string> args = {cmd, "-o", "json"};
    if (cmd == "status") args.insert(args.end(), {"--now", "2026-09-01T00:00:00Z"});
    std::vector<std::string> cluster = args;
    cluster.push_back("--cluster");
    const RunResult r = Plugin(cluster);
    EXPECT_EQ(r.exit_code, kExitOk) << cmd << ": " << r.err;
    EXPECT_EQ(r.out, DirectAsCluster(args)) << cmd;
    // They read packages only: the init state is not fetched (nor
    // reported skipped, as status does for the file).
    EXPECT_EQ(r.err, "") << cmd;
  }
  EXPECT_EQ(testing::ReadFile(log_).find("secrets/zarf-state"), std::string::npos);
}

TEST_F(KubectlPluginTest, ReportOfTheClusterShowsItsPackagesAndNoCredential) {
  const std::string page = (dir_ / "report.html").string();
  const RunResult r = Plugin({"report", "--cluster", "--now", "2026-09-01T00:00:00Z", "--out", page});
  ASSERT_EQ(r.exit_code, kExitOk) << r.err;
  // Read from the cluster alone (standard input is empty): every package is on the page.
  const std::string html = testing::ReadFile(page);
  const RunResult file = RunBinary(ZS_BINARY_PATH, {"inspect", "-o", "json", "-f", fixture_}, dir_);
  auto packages = json::ParseJson(file.out);
  ASSERT_TRUE(packages.ok()) << file.out;
  std::size_t seen = 0;
  for (const json::Value& p : packages->array()) {
    if (p.StringOr("kind") != "package") continue;
    ++seen;
    EXPECT_NE(html.find(std::string(p.StringOr("name"))), std::string::npos) << p.StringOr("name");
  }
  EXPECT_GT(seen, 0u);
  // The init state's credentials, as --show-secrets prints them: none is on the page.
  const RunResult shown =
      RunBinary(ZS_BINARY_PATH, {"inspect", "-o", "json", "--show-secrets", "-f", fixture_}, dir_);
  std::size_t secrets = 0;
  for (const char* key : {"\"pushPassword\": \"", "\"pullPassword\": \""}) {
    for (std::size_t at = shown.out.find(key); at != std::string::npos;
         at = shown.out.find(key, at + 1)) {
      const std::size_t from = at + std::string(key).size();
      const std::string value = shown.out.substr(from, shown.out.find('"', from) - from);
      if (value.empty()) continue;
      ++secrets;
      EXPECT_EQ(html.find(value), std::string::npos) << key << value;
    }
  }
  EXPECT_GT(secrets, 0u) << shown.out;
  EXPECT_NE(testing::ReadFile(log_).find("secrets/zarf-state"), std::string::npos);
}

TEST_F(KubectlPluginTest, MigrateDryRunOfTheClusterEqualsThatOfTheFile) {
  const RunResult r = Plugin({"migrate", "--cluster", "--dry-run", "--report-format", "json"});
  ASSERT_EQ(r.exit_code, kExitOk) << r.err;
  EXPECT_EQ(r.out, DirectAsCluster({"migrate", "--dry-run", "--report-format", "json"}));
  EXPECT_NE(r.out.find("zarf-package-init"), std::string::npos);
  // Writes stay explicit: no manifests on the terminal.
  const RunResult bare = Plugin({"migrate", "--cluster"});
  EXPECT_EQ(bare.exit_code, kExitUsage);
  EXPECT_EQ(bare.out, "");
  EXPECT_NE(bare.err.find("migrate --cluster needs --dry-run or --out FILE"), std::string::npos);
}

TEST_F(KubectlPluginTest, MigrateOutThenReplaceAndAStaleReplaceIsAConflict) {
  const std::string out = (dir_ / "migrated.json").string();
  const RunResult migrate = Plugin({"migrate", "--cluster", "--out", out});
  ASSERT_EQ(migrate.exit_code, kExitOk) << migrate.err;
  // A List is validated on the client against the server's OpenAPI v2
  // (protobuf), which the stand-in does not serve: --validate=false. The
  // single Secret below goes through kubectl's default validation.
  const RunResult replace = Kubectl({"replace", "--validate=false", "-f", out});
  ASSERT_EQ(replace.exit_code, 0) << replace.err;
  EXPECT_NE(replace.out.find("secret/zarf-package-init replaced"), std::string::npos)
      << replace.out;
  // The cluster now holds the migrated Secrets.
  const RunResult after = Plugin({"inspect", "--cluster", "-o", "json"});
  ASSERT_EQ(after.exit_code, kExitOk) << after.err;
  auto v = json::ParseJson(after.out);
  ASSERT_TRUE(v.ok());
  std::size_t packages = 0;
  for (const json::Value& r : v->array()) {
    if (r.StringOr("kind") != "package") continue;
    ++packages;
    EXPECT_EQ(r.StringOr("format"), "v2") << r.StringOr("secretName");
  }
  EXPECT_EQ(packages, 3u);
  // The same file again carries the old resourceVersions: refused.
  const RunResult stale = Kubectl({"replace", "--validate=false", "-f", out});
  EXPECT_EQ(stale.exit_code, 1);
  EXPECT_NE(stale.err.find("Error from server (Conflict)"), std::string::npos) << stale.err;
  EXPECT_NE(stale.err.find("Operation cannot be fulfilled on secrets \"zarf-package-init\": the "
                           "object has been modified"),
            std::string::npos)
      << stale.err;
  // One Secret: the first replace is current, the second stale.
  const RunResult got = Kubectl({"get", "secret", "zarf-package-init", "-n", "zarf", "-o", "json"});
  ASSERT_EQ(got.exit_code, 0) << got.err;
  const std::string one = (dir_ / "one.json").string();
  std::ofstream(one) << got.out;
  const RunResult first = Kubectl({"replace", "-f", one});
  EXPECT_EQ(first.exit_code, 0) << first.err;
  const RunResult second = Kubectl({"replace", "-f", one});
  EXPECT_EQ(second.exit_code, 1);
  EXPECT_NE(second.err.find("Error from server (Conflict)"), std::string::npos) << second.err;
}

TEST_F(KubectlPluginTest, IngestOfTheClusterLoadsWhatTheFileLoads) {
  const RunResult cluster = Plugin({"ingest", "--cluster", "--db", (dir_ / "db1").string()});
  ASSERT_EQ(cluster.exit_code, kExitOk) << cluster.err;
  const RunResult file = Direct({"ingest", "--db", (dir_ / "db2").string(), "-f", fixture_});
  ASSERT_EQ(file.exit_code, kExitOk) << file.err;
  EXPECT_EQ(cluster.out, file.out);
  EXPECT_NE(cluster.out.find("ingested"), std::string::npos) << cluster.out;
}

TEST_F(KubectlPluginTest, AKubectlFailureNamesTheContextAndNamespace) {
  const RunResult context = Plugin({"inspect", "--cluster", "--context", "nope"});
  EXPECT_EQ(context.exit_code, kExitSomeFailed);
  EXPECT_EQ(context.out, "");
  EXPECT_EQ(context.err.rfind("error: cluster (context nope, namespace zarf, kubeconfig " +
                                  kubeconfig_ +
                                  "): kubectl get secrets -l package-deploy-info failed (exit 1): ",
                              0),
            0u)
      << context.err;
  EXPECT_NE(context.err.find("error: context \"nope\" does not exist"),
            std::string::npos)
      << context.err;
  const RunResult forbidden = Plugin({"status", "--cluster", "-n", "forbidden"});
  EXPECT_EQ(forbidden.exit_code, kExitSomeFailed);
  EXPECT_EQ(forbidden.out, "");
  EXPECT_NE(forbidden.err.find("error: cluster (current context, namespace forbidden, kubeconfig "),
            std::string::npos)
      << forbidden.err;
  EXPECT_NE(forbidden.err.find("Error from server (Forbidden)"), std::string::npos)
      << forbidden.err;
}

TEST_F(KubectlPluginTest, AnUnreachableClusterIsOneLineNamingTheKubeconfig) {
  // A kubeconfig whose server refuses connections: kubectl logs several
  // klog lines, then its own summary; only the summary is shown.
  const std::string dead = (dir_ / "dead.kubeconfig").string();
  std::ofstream(dead) << "apiVersion: v1\nkind: Config\nclusters:\n"
                         "- cluster: {server: \"https://127.0.0.1:1\"}\n  name: dead\n"
                         "contexts:\n- context: {cluster: dead, user: u}\n  name: dead\n"
                         "current-context: dead\nusers:\n- name: u\n  user: {token: t}\n";
  const RunResult r = Plugin({"status", "--cluster", "--kubeconfig", dead});
  EXPECT_EQ(r.exit_code, kExitSomeFailed);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err,
            "error: cluster (current context, namespace zarf, kubeconfig " + dead +
                "): kubectl get secrets -l package-deploy-info failed (exit 1): The connection to "
                "the server 127.0.0.1:1 was refused - did you specify the right host or port?\n");
}

TEST_F(KubectlPluginTest, ClusterAndFileAreExclusiveAndClusterFlagsNeedCluster) {
  const RunResult both = Plugin({"inspect", "--cluster", "-f", fixture_});
  EXPECT_EQ(both.exit_code, kExitUsage);
  EXPECT_NE(both.err.find("excludes"), std::string::npos) << both.err;
  const RunResult alone = Plugin({"size", "-n", "zarf", "-f", fixture_});
  EXPECT_EQ(alone.exit_code, kExitUsage);
  EXPECT_NE(alone.err.find("requires --cluster"), std::string::npos) << alone.err;
}

}  // namespace
}  // namespace zs::tools
