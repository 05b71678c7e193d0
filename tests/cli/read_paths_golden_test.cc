// Whole outputs of the zarf-state binary fixed in tests/data/golden-read-paths/: how
// each command reads its input (a file, standard input redirected from a
// file, a pipe) and how replay prints as it folds must not change a byte of
// what is printed. The cases and how to regenerate them after a deliberate
// change: tests/data/golden-read-paths/cases.txt.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/subprocess_runner.h"
#include "tests/test_util.h"

namespace zs::testing {
namespace {

struct GoldenCase {
  std::string name;
  std::string stdin_spec;  // "-", "file:PATH" or "pipe:PATH"
  std::vector<std::string> args;
};

std::string Substitute(std::string s, const std::string& from, const std::string& to) {
  for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size())) {
    s.replace(at, from.size(), to);
  }
  return s;
}

std::vector<GoldenCase> Cases() {
  std::ifstream in(DataDir() / "golden-read-paths" / "cases.txt");
  std::vector<GoldenCase> cases;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream words(Substitute(line, "@DATA@", DataDir().string()));
    GoldenCase c;
    words >> c.name >> c.stdin_spec;
    for (std::string a; words >> a;) c.args.push_back(a);
    cases.push_back(std::move(c));
  }
  return cases;
}

// Runs the case: stdout, then "--- stderr, exit N ---", then stderr, with
// tests/data spelled @DATA@ (regenerate.py's format).
std::string RunCase(const GoldenCase& c) {
  ChildSpec spec;
  spec.argv = {ZS_BINARY_PATH};
  spec.argv.insert(spec.argv.end(), c.args.begin(), c.args.end());
  int pipe_fds[2] = {-1, -1};
  std::thread writer;
  if (c.stdin_spec.starts_with("file:")) {
    spec.stdin_path = c.stdin_spec.substr(5);
  } else if (c.stdin_spec.starts_with("pipe:")) {
    EXPECT_EQ(::pipe2(pipe_fds, O_CLOEXEC), 0);
    spec.stdin_fd = pipe_fds[0];
    const std::string text = ReadFile(c.stdin_spec.substr(5));
    writer = std::thread([fd = pipe_fds[1], text] {
      for (std::size_t at = 0; at < text.size();) {
        const ssize_t n = ::write(fd, text.data() + at, text.size() - at);
        if (n <= 0) break;
        at += static_cast<std::size_t>(n);
      }
      ::close(fd);
    });
  }
  ChildRun r = RunChild(spec);
  if (writer.joinable()) writer.join();
  if (pipe_fds[0] >= 0) ::close(pipe_fds[0]);
  const std::string text =
      r.out + "--- stderr, exit " + std::to_string(r.exit.exit_code) + " ---\n" + r.err;
  return Substitute(text, DataDir().string(), "@DATA@");
}

TEST(GoldenOutputsTest, EveryCaseHasItsOutput) {
  const std::vector<GoldenCase> cases = Cases();
  ASSERT_GE(cases.size(), 30u);
  for (const GoldenCase& c : cases) {
    SCOPED_TRACE(c.name);
    const std::filesystem::path golden = DataDir() / "golden-read-paths" / (c.name + ".out");
    ASSERT_TRUE(std::filesystem::exists(golden)) << golden;
    EXPECT_EQ(RunCase(c), ReadFile(golden.string()));
  }
}

}  // namespace
}  // namespace zs::testing
