// Values the completion scripts offer, run in the real shells: -o offers per
// command exactly the formats the binary accepts, -n/--namespace and
// --context ask kubectl (a stand-in script on PATH that logs its arguments)
// and stay quiet when it fails, and kubectl_complete-zarf_state answers
// kubectl's plugin-completion protocol (with the real kubectl when it is
// installed).
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <algorithm>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "cli/completion_cmd.h"
#include "tests/run_binary.h"
#include "tests/test_dir.h"
#include "tests/test_util.h"
#include "tests/zsh_completion.h"

namespace zs::tools {
namespace {

namespace fs = std::filesystem;

const std::vector<std::string> kAllFormats = {"table", "wide", "json", "yaml", "name"};

// Command path -> the -o formats it accepts, as the completions offer them.
const std::map<std::string, std::string> kFormatsByPath = {
    {"inspect", "table wide json yaml name"},
    {"status", "table wide json yaml name"},
    {"size", "table wide json yaml name"},
    {"query status", "table wide json yaml name"},
    {"query history", "table wide json yaml"},
    {"query config-changed", "table json yaml"},
    {"replay", "table wide json yaml"},
    {"verify", "table wide json yaml"},
    {"config diff", "table wide json yaml"},
    {"prune plan", "table wide json yaml"},
    {"bench growth", "table wide json yaml"},
    {"ingest", "table json yaml"},
    {"version", "table json yaml"},
    {"migrate", "json yaml"},
};

std::vector<std::string> Words(const std::string& text) {
  std::vector<std::string> words;
  std::istringstream in(text);
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

// Whether the binary refuses `-o format` for `path`: a usage error (exit 2)
// that names the format. Run with a cache folder and files that do not
// exist, so an accepted format fails later, on them, with another message.
bool Refuses(const std::string& path, const std::string& format, const fs::path& dir) {
  std::vector<std::string> args = Words(path);
  if (path == "query history" || path == "query config-changed") args.push_back("demo");
  if (path == "query config-changed") args.insert(args.end(), {"-f", "/dev/null"});
  if (path.rfind("query", 0) == 0) args.insert(args.end(), {"--db", (dir / "no-cache").string()});
  // Accepted, bench growth runs: its files go into the test's folder.
  if (path == "bench growth") args.insert(args.end(), {"--out", (dir / "growth").string()});
  args.insert(args.end(), {"-o", format});
  const testing::RunResult r = testing::RunBinary(ZS_BINARY_PATH, args, dir, "/dev/null");
  return r.exit_code == 2 && r.err.find(format) != std::string::npos &&
         r.err.find("-o") != std::string::npos;
}

class CompletionValuesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::FreshTestDir("completion-values");
    // A kubectl that logs its arguments and answers the two questions.
    fs::create_directories(dir_ / "bin");
    std::ofstream(dir_ / "bin" / "kubectl")
        << "#!/bin/sh\n"
           "echo \"$*\" >> '" << (dir_ / "kubectl.log").string() << "'\n"
           "[ -e '" << (dir_ / "down").string() << "' ] && { echo 'E1205 12:00:00.1 1 a.go:1] "
           "refused' >&2; exit 1; }\n"
           "case \"$*\" in\n"
           "  *'get namespaces -o name'*) printf 'namespace/zarf\\nnamespace/kube-system\\n' ;;\n"
           "  *'config get-contexts -o name'*) printf 'prod\\nstaging\\n' ;;\n"
           "esac\n";
    fs::permissions(dir_ / "bin" / "kubectl", fs::perms::owner_all);
    // kubectl_complete-zarf_state as installed: beside the program.
    fs::copy_file(testing::DataDir() / ".." / ".." / "packaging/completions/kubectl_complete-zarf_state",
                  dir_ / "bin" / "kubectl_complete-zarf_state");
    fs::create_symlink(ZS_BINARY_PATH, dir_ / "bin" / "zarf-state");
    fs::create_symlink(ZS_BINARY_PATH, dir_ / "bin" / "kubectl-zarf_state");
    old_path_ = getenv("PATH");
    path_ = (dir_ / "bin").string() + ":" + old_path_;
    setenv("PATH", path_.c_str(), 1);
  }
  void TearDown() override {
    setenv("PATH", old_path_.c_str(), 1);
    fs::remove_all(dir_);
  }
  std::string KubectlLog() { return testing::ReadFile(dir_ / "kubectl.log"); }

  // bash: the candidates of the completion of `words` (the last one the word
  // being completed), space-separated.
  std::string Bash(const std::string& words) {
    const std::string script = std::string("source <('") + ZS_BINARY_PATH +
                               "' completion bash)\n"
                               "COMP_WORDS=(" + words + "); COMP_CWORD=$((${#COMP_WORDS[@]} - 1));"
                               " _zarf_state; echo \"${COMPREPLY[*]}\"\n";
    const testing::RunResult r = testing::RunBinary("/bin/bash", {"--norc", "--noprofile", "-c", script}, dir_);
    EXPECT_EQ(r.err, "") << words;
    return r.out;
  }
  // fish: the candidates of `line` without their descriptions.
  std::string Fish(const std::string& line) {
    const std::string script = std::string("'") + ZS_BINARY_PATH + "' completion fish | source\n" +
                               "complete -C '" + line + "' | string replace -r '\\t.*' ''\n";
    const testing::RunResult r = testing::RunBinary("/usr/bin/fish", {"--no-config", "-c", script}, dir_);
    EXPECT_EQ(r.err, "") << line;
    return r.out;
  }
  // zsh (tests/zsh_completion.h): the words the stub zarf-state got.
  std::string Zsh(const std::string& line) {
    const std::string out = testing::CompleteInZsh(CompletionScript("zsh"), line, dir_).out;
    // The last "args:" is the stub's (the first is its definition echoed);
    // the marker's command may follow on the same line.
    const std::size_t at = out.rfind("args:");
    if (at == std::string::npos) return "(no args line) " + out;
    std::string args = out.substr(at + 5, out.find_first_of("\r\n", at) - at - 5);
    if (const std::size_t m = args.find("print MARKER"); m != std::string::npos) args.resize(m);
    return args;
  }

  fs::path dir_;
  std::string old_path_, path_;
};

TEST_F(CompletionValuesTest, TheFormatTableIsWhatTheBinaryAccepts) {
  for (const auto& [path, formats] : kFormatsByPath) {
    const std::vector<std::string> accepted = Words(formats);
    for (const std::string& f : kAllFormats) {
      const bool offered = std::find(accepted.begin(), accepted.end(), f) != accepted.end();
      EXPECT_EQ(Refuses(path, f, dir_), !offered) << path << " -o " << f;
    }
  }
}

TEST_F(CompletionValuesTest, BashOffersEachCommandsFormatsOnly) {
  for (const auto& [path, formats] : kFormatsByPath) {
    EXPECT_EQ(Bash("zarf-state " + path + " -o ''"), formats + "\n") << path;
    EXPECT_EQ(Bash("zarf-state " + path + " --output ''"), formats + "\n") << path;
  }
}

TEST_F(CompletionValuesTest, FishOffersEachCommandsFormatsOnly) {
  if (!fs::exists("/usr/bin/fish")) GTEST_SKIP() << "fish is not installed";
  for (const auto& [path, formats] : kFormatsByPath) {
    std::vector<std::string> sorted = Words(formats);  // fish sorts its candidates
    std::sort(sorted.begin(), sorted.end());
    std::string want;
    for (const std::string& f : sorted) want += f + "\n";
    EXPECT_EQ(Fish("zarf-state " + path + " -o "), want) << path;
  }
}

TEST_F(CompletionValuesTest, ZshOffersEachCommandsFormatsOnly) {
  if (!fs::exists("/usr/bin/zsh")) GTEST_SKIP() << "zsh is not installed";
  EXPECT_EQ(Zsh("zarf-state migrate -o y"), "migrate -o yaml ");
  EXPECT_EQ(Zsh("zarf-state migrate -o t"), "migrate -o t");  // table is refused
  EXPECT_EQ(Zsh("zarf-state ingest -o w"), "ingest -o w");    // so is wide
  EXPECT_EQ(Zsh("zarf-state inspect -o na"), "inspect -o name ");
}

TEST_F(CompletionValuesTest, NamespacesAndContextsComeFromKubectl) {
  EXPECT_EQ(Bash("zarf-state status --cluster -n ''"), "zarf kube-system\n");
  EXPECT_EQ(Bash("zarf-state inspect --cluster --kubeconfig /k/cfg --namespace ku"), "kube-system\n");
  EXPECT_NE(KubectlLog().find("--kubeconfig /k/cfg --request-timeout=5s get namespaces -o name"),
            std::string::npos)
      << KubectlLog();
  EXPECT_EQ(Bash("zarf-state size --cluster --context ''"), "prod staging\n");
  if (fs::exists("/usr/bin/fish")) {
    EXPECT_EQ(Fish("zarf-state status --cluster -n "), "kube-system\nzarf\n");
    EXPECT_EQ(Fish("zarf-state report --cluster --context st"), "staging\n");
  }
  if (fs::exists("/usr/bin/zsh")) {
    EXPECT_EQ(Zsh("zarf-state status --cluster -n kube"), "status --cluster -n kube-system ");
    EXPECT_EQ(Zsh("zarf-state migrate --cluster --context pr"), "migrate --cluster --context prod ");
  }
}

TEST_F(CompletionValuesTest, AnUnreachableClusterCompletesNothingQuietly) {
  std::ofstream(dir_ / "down") << "";
  EXPECT_EQ(Bash("zarf-state status --cluster -n ''"), "\n");
  EXPECT_EQ(Bash("zarf-state status --cluster --context ''"), "\n");
  if (fs::exists("/usr/bin/fish")) {
    EXPECT_EQ(Fish("zarf-state status --cluster -n "), "");
  }
  EXPECT_NE(KubectlLog(), "");  // it was asked
}

// kubectl_complete-zarf_state run as kubectl runs it.
TEST_F(CompletionValuesTest, KubectlCompleteAnswersThePluginProtocol) {
  auto complete = [&](const std::vector<std::string>& args) {
    const testing::RunResult r =
        testing::RunBinary((dir_ / "bin" / "kubectl_complete-zarf_state").string(), args, dir_);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.err, "");
    return r.out;
  };
  EXPECT_EQ(complete({"mig"}), "migrate\n:4\n");
  EXPECT_EQ(complete({"migrate", "-o", ""}), "json\nyaml\n:4\n");
  EXPECT_EQ(complete({"query", "hi"}), "history\n:4\n");
  EXPECT_EQ(complete({"status", "--cluster", "-n", "z"}), "zarf\n:4\n");
  EXPECT_EQ(complete({"inspect", "-f", ""}), ":0\n");  // kubectl completes file names
  EXPECT_EQ(complete({"ingest", "--db", ""}), ":16\n");  // and directory names
  EXPECT_EQ(complete({""}).rfind("inspect\nmigrate\n", 0), 0u);
}

TEST_F(CompletionValuesTest, TheRealKubectlCompletesThePlugin) {
  const char* kubectl = nullptr;
  for (const char* p : {"/usr/bin/kubectl", "/usr/local/bin/kubectl"}) {
    if (fs::exists(p)) kubectl = p;
  }
  if (kubectl == nullptr) GTEST_SKIP() << "kubectl is not installed";
  const testing::RunResult r =
      testing::RunBinary(kubectl, {"__complete", "zarf-state", "migrate", "-o", ""}, dir_);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "json\nyaml\n:4\n");
  const testing::RunResult sub = testing::RunBinary(kubectl, {"__complete", "zarf-state", "ver"}, dir_);
  EXPECT_EQ(sub.out, "verify\nversion\n:4\n");
}

}  // namespace
}  // namespace zs::tools
