#include "tests/subprocess_runner.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <stdlib.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace zs::testing {
namespace {

ChildSpec Command(std::vector<std::string> argv) {
  ChildSpec spec;
  spec.argv = std::move(argv);
  return spec;
}
ChildSpec Shell(const std::string& script) { return Command({"/bin/sh", "-c", script}); }

TEST(SubprocessRunnerTest, RunChildKeepsStdoutStderrAndTheExitCodeApart) {
  const ChildRun r = RunChild(Shell("printf out; printf err >&2; exit 3"));
  EXPECT_EQ(r.out, "out");
  EXPECT_EQ(r.err, "err");
  EXPECT_EQ(r.exit.exit_code, 3);
  EXPECT_EQ(r.exit.signal, 0);
  EXPECT_FALSE(r.exit.timed_out);
}

// Both pipes are drained at once: a child that fills stderr while the
// test would be waiting on stdout does not block.
TEST(SubprocessRunnerTest, LargeOutputOnBothStreamsDoesNotDeadlock) {
  const ChildRun r = RunChild(
      Shell("head -c 300000 /dev/zero >&2; head -c 200000 /dev/zero"), std::chrono::seconds(20));
  EXPECT_FALSE(r.exit.timed_out);
  EXPECT_EQ(r.err.size(), 300000u);
  EXPECT_EQ(r.out.size(), 200000u);
}

TEST(SubprocessRunnerTest, EnvEntriesAddToAndOverrideTheParentEnvironment) {
  ::setenv("ZS_RUNNER_KEPT", "parent", 1);
  ::setenv("ZS_RUNNER_SET", "parent", 1);
  ChildSpec spec = Command({"/usr/bin/env"});
  spec.env = {"ZS_RUNNER_SET=child", "ZS_RUNNER_NEW=new"};
  const std::string env = RunChild(spec).out;
  ::unsetenv("ZS_RUNNER_KEPT");
  ::unsetenv("ZS_RUNNER_SET");
  // Each variable once, with the value the child was given.
  std::vector<std::string> ours;
  std::istringstream lines(env);
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with("ZS_RUNNER_")) ours.push_back(line);
  }
  std::sort(ours.begin(), ours.end());
  EXPECT_EQ(ours, (std::vector<std::string>{"ZS_RUNNER_KEPT=parent", "ZS_RUNNER_NEW=new",
                                            "ZS_RUNNER_SET=child"}));
}

TEST(SubprocessRunnerTest, ATimeoutKillsTheChild) {
  const auto start = std::chrono::steady_clock::now();
  const ChildRun r = RunChild(Shell("exec sleep 30"), std::chrono::milliseconds(200));
  EXPECT_TRUE(r.exit.timed_out);
  EXPECT_EQ(r.exit.signal, SIGKILL);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
}

TEST(SubprocessRunnerTest, StdinComesFromTheFileNamedAndAMissingProgramExits127) {
  const std::string input = ::testing::TempDir() + "/subprocess_runner_stdin";
  std::ofstream(input) << "given on stdin";
  ChildSpec cat = Command({"/bin/cat"});
  cat.stdin_path = input;
  EXPECT_EQ(RunChild(cat).out, "given on stdin");
  std::remove(input.c_str());
  EXPECT_EQ(RunChild(Command({"/nonexistent/program"})).exit.exit_code, 127);
}

TEST(SubprocessRunnerTest, ChildPipeReadsUntilAMarkerOrTheEnd) {
  ChildPipe pipe;
  ASSERT_TRUE(pipe.ok());
  ChildSpec spec = Shell("printf 'step one\\nstep two\\n'; exec sleep 30");
  spec.stdout_fd = pipe.write_end();
  const pid_t pid = SpawnChild(spec);
  ASSERT_GT(pid, 0);
  pipe.CloseWriteEnd();
  std::string seen;
  EXPECT_TRUE(pipe.ReadUntil("step two", &seen));
  const ChildExit end = SignalChild(pid, SIGTERM);
  EXPECT_EQ(end.signal, SIGTERM);
  EXPECT_FALSE(pipe.ReadUntil("step three", &seen)) << seen;
}

}  // namespace
}  // namespace zs::testing
