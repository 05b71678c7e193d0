// cli/cluster_input.h in-process: the kubectl command lines, the merge of
// their outputs, and the errors that need no kubectl.
#include "cli/cluster_input.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "json/json_reader.h"
#include "tests/test_dir.h"
#include "cli/common.h"
#include "kube/input.h"
#include "kube/kubectl_message.h"

namespace zs::tools {
namespace {

std::string Secret(const std::string& name, const std::string& label) {
  return R"({"apiVersion":"v1","kind":"Secret","metadata":{"name":")" + name +
         R"(","namespace":"zarf","labels":{")" + label + R"(":"x"}},"data":{}})";
}

std::string List(const std::vector<std::string>& items) {
  std::string s = R"({"apiVersion":"v1","kind":"List","metadata":{"resourceVersion":""},"items":[)";
  for (std::size_t i = 0; i < items.size(); ++i) s += (i ? "," : "") + items[i];
  return s + "]}";
}

TEST(ClusterInputTest, KubectlIsAskedForEachKindOfSecretWeRead) {
  ClusterOptions o;
  o.namespace_ = "zarf";
  const auto plain = KubectlCommands(o);
  ASSERT_EQ(plain.size(), 3u);
  EXPECT_EQ(plain[0], (std::vector<std::string>{"kubectl", "get", "secrets", "-l",
                                                "package-deploy-info", "-o", "json",
                                                "--namespace", "zarf",
                                                "--request-timeout=30s"}));
  EXPECT_EQ(plain[1][4], "zarf-state.dev/package-deploy-info");
  EXPECT_EQ(plain[2], (std::vector<std::string>{"kubectl", "get", "secret", "zarf-state",
                                                "--ignore-not-found", "-o", "json",
                                                "--namespace", "zarf",
                                                "--request-timeout=30s"}));
  o.namespace_ = "ops";
  o.context = "prod";
  o.kubeconfig = "/etc/kc";
  const auto full = KubectlCommands(o);
  EXPECT_EQ(std::vector<std::string>(full[0].end() - 7, full[0].end()),
            (std::vector<std::string>{"--namespace", "ops", "--request-timeout=30s", "--context",
                                      "prod", "--kubeconfig", "/etc/kc"}));
  EXPECT_EQ(ClusterLabel(o), "cluster (context prod, namespace ops)");
  o.init_state = false;  // status, size, ingest
  const auto packages_only = KubectlCommands(o);
  ASSERT_EQ(packages_only.size(), 2u);
  EXPECT_EQ(packages_only[1][4], "zarf-state.dev/package-deploy-info");
  EXPECT_EQ(ClusterLabel(ClusterOptions{}), "cluster (current context, namespace zarf)");
}

TEST(ClusterInputTest, OutputsMergeIntoOneListEachSecretOnceInNameOrder) {
  const std::string both = Secret("zarf-package-b", "package-deploy-info");
  auto merged = MergeKubectlOutputs(
      {List({Secret("zarf-package-c", "package-deploy-info"), both}),
       List({both, Secret("zarf-package-a", "zarf-state.dev/package-deploy-info")}),
       Secret("zarf-state", "app.kubernetes.io/managed-by")},
      "cluster");
  ASSERT_TRUE(merged.ok()) << merged.status().ToString();
  auto v = json::ParseJson(*merged);
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(v->StringOr("kind"), "List");
  std::vector<std::string> names;
  for (const json::Value& item : v->Find("items")->array()) {
    names.push_back(std::string(item.Find("metadata")->StringOr("name")));
  }
  EXPECT_EQ(names, (std::vector<std::string>{"zarf-package-a", "zarf-package-b",
                                             "zarf-package-c", "zarf-state"}));
}

TEST(ClusterInputTest, AMissingInitStateAndEmptyListsMergeToAnEmptyList) {
  auto merged = MergeKubectlOutputs({List({}), List({}), ""}, "cluster");
  ASSERT_TRUE(merged.ok());
  auto v = json::ParseJson(*merged);
  ASSERT_TRUE(v.ok());
  EXPECT_TRUE(v->Find("items")->array().empty());
}

TEST(ClusterInputTest, OutputThatIsNotSecretsIsAnErrorNamingTheCluster) {
  auto bad = MergeKubectlOutputs({List({}), "{\"items\": [", ""}, "cluster (context c, namespace n)");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("cluster (context c, namespace n): kubectl output 2"),
            std::string::npos)
      << bad.status().ToString();
  auto other = MergeKubectlOutputs({List({R"({"kind":"ConfigMap"})"})}, "cluster");
  ASSERT_FALSE(other.ok());
  EXPECT_NE(other.status().message().find("holds something other than a Secret"),
            std::string::npos);
}

TEST(ClusterInputTest, ProvidedInputIsReadOnceUnderItsName) {
  ProvideInput("cluster (test)", "{\"a\": 1}");
  auto first = ReadFileOrStdin("cluster (test)");
  ASSERT_TRUE(first.ok());
  EXPECT_EQ(*first, "{\"a\": 1}");
  EXPECT_FALSE(ReadFileOrStdin("cluster (test)").ok());  // no such file
  ProvideInput("cluster (text)", "[]");
  auto text = ReadInputText("cluster (text)");
  ASSERT_TRUE(text.ok());
  EXPECT_EQ(text->text(), "[]");
  EXPECT_GE(text->readable_padding(), 64u);
}

TEST(ClusterInputTest, WithoutKubectlOnPathTheErrorSaysSo) {
  const std::filesystem::path empty = testing::FreshTestDir("no-kubectl");
  const std::string old_path = getenv("PATH") ? getenv("PATH") : "";
  setenv("PATH", empty.c_str(), 1);
  ClusterOptions o;
  o.enabled = true;
  std::vector<std::string> files = {"-"};
  std::ostringstream err;
  const bool ok = UseClusterInput(o, &files, err);
  setenv("PATH", old_path.c_str(), 1);
  std::filesystem::remove_all(empty);
  EXPECT_FALSE(ok);
  EXPECT_EQ(files, std::vector<std::string>{"-"});
  EXPECT_EQ(err.str(),
            "error: cluster (current context, namespace zarf): kubectl not found on PATH "
            "(--cluster runs kubectl; or give the Secrets with -f FILE)\n");
}

// Runs UseClusterInput with a kubectl that is the shell script `body`.
std::string ErrorWithKubectl(const std::string& body, int timeout_seconds,
                             const std::string& kubeconfig = "", const std::string& context = "") {
  const std::filesystem::path dir = testing::FreshTestDir("fake-kubectl");
  {
    std::ofstream script(dir / "kubectl");
    script << "#!/bin/sh\n" << body << "\n";
  }
  std::filesystem::permissions(dir / "kubectl", std::filesystem::perms::owner_all);
  const std::string old_path = getenv("PATH") ? getenv("PATH") : "";
  setenv("PATH", (dir.string() + ":" + old_path).c_str(), 1);
  ClusterOptions o;
  o.enabled = true;
  o.timeout_seconds = timeout_seconds;
  o.kubeconfig = kubeconfig;
  o.context = context;
  std::vector<std::string> files;
  std::ostringstream err;
  EXPECT_FALSE(UseClusterInput(o, &files, err));
  setenv("PATH", old_path.c_str(), 1);
  std::filesystem::remove_all(dir);
  return err.str();
}

TEST(ClusterInputTest, KubectlsStderrReachesTheTerminalEscaped) {
  const std::string err =
      ErrorWithKubectl("printf 'bad \\033]0;owned\\007 \\033[2J\\n' >&2; exit 1", 30);
  EXPECT_EQ(err.find('\x1b'), std::string::npos) << err;
  EXPECT_EQ(err.find('\x07'), std::string::npos) << err;
  EXPECT_NE(err.find("failed (exit 1): bad \\x1b]0;owned\\x07 \\x1b[2J\n"), std::string::npos)
      << err;
}

TEST(ClusterInputTest, AHangingKubectlIsKilledAfterItsTimeout) {
  const std::string err = ErrorWithKubectl("exec sleep 30", 1, "/cfg/a");
  EXPECT_EQ(err,
            "error: cluster (current context, namespace zarf, kubeconfig /cfg/a): kubectl: no "
            "answer within 2 s (killed)\n");
}

// What kubectl 1.32 prints when its server refuses connections: five klog
// lines, then its own summary.
constexpr char kRefused[] =
    "for i in 1 2 3 4 5; do echo 'E1205 20:57:10.807739   26050 memcache.go:265] \"Unhandled "
    "Error\" err=\"couldn'\\''t get current server API group list: dial tcp 127.0.0.1:1: "
    "connect: connection refused\"' >&2; done\n"
    "echo 'The connection to the server 127.0.0.1:1 was refused - did you specify the right "
    "host or port?' >&2; exit 1";

TEST(ClusterInputTest, AnUnreachableClusterIsOneLineNamingTheKubeconfig) {
  const std::string err = ErrorWithKubectl(kRefused, 30, "/cfg/a");
  EXPECT_EQ(err,
            "error: cluster (current context, namespace zarf, kubeconfig /cfg/a): kubectl get "
            "secrets -l package-deploy-info failed (exit 1): The connection to the server "
            "127.0.0.1:1 was refused - did you specify the right host or port?\n");
}

TEST(ClusterInputTest, TheKubeconfigNamedIsTheFlagThenKubeconfigThenHome) {
  const char* old_env = getenv("KUBECONFIG");
  const std::string old_kubeconfig = old_env ? old_env : "";
  const std::string old_home = getenv("HOME") ? getenv("HOME") : "";
  ClusterOptions o;
  setenv("KUBECONFIG", "/env/one:/env/two", 1);
  setenv("HOME", "/home/op", 1);
  EXPECT_EQ(KubeconfigInUse(o), "/env/one:/env/two");
  o.kubeconfig = "/flag/cfg";
  EXPECT_EQ(KubeconfigInUse(o), "/flag/cfg");
  o.kubeconfig.clear();
  unsetenv("KUBECONFIG");
  EXPECT_EQ(KubeconfigInUse(o), "/home/op/.kube/config");
  setenv("KUBECONFIG", "", 1);
  EXPECT_EQ(KubeconfigInUse(o), "/home/op/.kube/config");
  setenv("HOME", old_home.c_str(), 1);
  if (old_env != nullptr) {
    setenv("KUBECONFIG", old_kubeconfig.c_str(), 1);
  } else {
    unsetenv("KUBECONFIG");
  }
  // The context given is named with it, in the error of a failed run.
  const std::string err = ErrorWithKubectl(kRefused, 30, "/cfg/b", "prod");
  EXPECT_EQ(err.rfind("error: cluster (context prod, namespace zarf, kubeconfig /cfg/b): ", 0), 0u)
      << err;
}

TEST(ClusterInputTest, KlogHeadersAreDroppedAndTheLastMessageKept) {
  bool klog = false;
  EXPECT_EQ(StripKlogHeader("W0102 03:04:05.678901    77 loader.go:222] config not found", &klog),
            "config not found");
  EXPECT_TRUE(klog);
  EXPECT_EQ(StripKlogHeader("Error from server (Forbidden): x", &klog),
            "Error from server (Forbidden): x");
  EXPECT_FALSE(klog);
  EXPECT_EQ(StripKlogHeader("E1205 not a header] x", &klog), "E1205 not a header] x");
  EXPECT_FALSE(klog);
  // Only klog lines: the last one's message.
  EXPECT_EQ(LastKubectlErrorLine("E1205 20:57:10.8 1 a.go:1] first\n"
                                 "E1205 20:57:10.9 1 a.go:2] second\n\n"),
            "second");
  // A plain line wins over a later klog line.
  EXPECT_EQ(LastKubectlErrorLine("error: context \"nope\" does not exist\n"
                                 "I1205 20:57:10.9 1 a.go:2] cleanup\n"),
            "error: context \"nope\" does not exist");
  EXPECT_EQ(LastKubectlErrorLine(" \n\r\n"), "");
}

TEST(ClusterInputTest, WithoutClusterNothingChanges) {
  std::vector<std::string> files = {"a.json"};
  std::ostringstream err;
  EXPECT_TRUE(UseClusterInput(ClusterOptions{}, &files, err));
  EXPECT_EQ(files, std::vector<std::string>{"a.json"});
  EXPECT_EQ(err.str(), "");
}

}  // namespace
}  // namespace zs::tools
