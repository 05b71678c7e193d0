#include "cli/command_status.h"

#include <gtest/gtest.h>

#include <sstream>

#include "cli/common.h"

namespace zs::tools {
namespace {

// What main() would print and return for `outcome`.
struct Finished {
  int code;
  std::string err;
};
Finished Finish(const CommandStatus& outcome) {
  std::ostringstream err;
  const int code = FinishCommand(outcome, err);
  return {code, err.str()};
}

TEST(CommandStatusTest, OkIsExitZeroAndSilent) {
  const Finished f = Finish(CommandStatus());
  EXPECT_EQ(f.code, kExitOk);
  EXPECT_EQ(f.err, "");
  EXPECT_EQ(Finish(Status::OK()).code, kExitOk);
  EXPECT_EQ(Finish(CommandStatus::FailedIf(false)).code, kExitOk);
}

TEST(CommandStatusTest, AFailureIsOneErrorLineAndExitOne) {
  const Finished f = Finish(Status::NotFound("cache /x: does not exist"));
  EXPECT_EQ(f.code, kExitSomeFailed);
  EXPECT_EQ(f.err, "error: cache /x: does not exist\n");
}

TEST(CommandStatusTest, AUsageErrorIsExitTwo) {
  const Finished f = Finish(Status::Usage("ingest needs --db DIR"));
  EXPECT_EQ(f.code, kExitUsage);
  EXPECT_EQ(f.err, "error: ingest needs --db DIR\n");
}

TEST(CommandStatusTest, AReportedFailurePrintsNothingMore) {
  const Finished some = Finish(CommandStatus::FailureReported());
  EXPECT_EQ(some.code, kExitSomeFailed);
  EXPECT_EQ(some.err, "");
  EXPECT_FALSE(CommandStatus::FailedIf(true).ok());
  const Finished usage = Finish(CommandStatus::FailureReported(/*usage=*/true));
  EXPECT_EQ(usage.code, kExitUsage);
  EXPECT_EQ(usage.err, "");
}

TEST(CommandStatusTest, TheMessageCannotFakeALineOrMoveTheCursor) {
  const Finished f = Finish(Status::InvalidArgument("secret x\nerror: fake \x1b[2J"));
  EXPECT_EQ(f.err, "error: secret x\\x0aerror: fake \\x1b[2J\n");
  // Another program's lines, already escaped, keep their line feeds.
  std::ostringstream err;
  PrintError(err, "kubectl failed: a\nb \x1b", Layout::kTable);
  EXPECT_EQ(err.str(), "error: kubectl failed: a\nb \\x1b\n");
}

}  // namespace
}  // namespace zs::tools
