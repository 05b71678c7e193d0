// An empty result is said, kubectl's way, on stderr: an empty List (a typo
// namespace), a query no package answers, a history without events. Stdout
// stays empty and the exit code is the documented one.
#include <gtest/gtest.h>

#include <sstream>

#include "tests/cache_fixture.h"
#include "tests/test_util.h"
#include "cli/common.h"
#include "cli/empty_result.h"
#include "cli/ingest_cmd.h"
#include "cli/inspect_cmd.h"
#include "cli/query_cmd.h"
#include "cli/size_cmd.h"
#include "cli/status_cmd.h"

namespace zs::tools {
namespace {

const char kEmptyList[] = R"({"apiVersion":"v1","items":[],"kind":"List","metadata":{"resourceVersion":""}})";

struct Ran {
  int code;
  std::string out;
  std::string err;
};

template <typename Options, typename Run>
Ran RunOn(Options o, Run run) {
  std::ostringstream out, err;
  const int code = FinishCommand(run(o, out, err), err);
  return {code, out.str(), err.str()};
}

TEST(EmptyResultsTest, AnEmptyListIsSaidOnStderrWithTheDocumentedExitCode) {
  const std::string empty = zs::testing::WriteTempFile("empty.list.json", kEmptyList);
  const std::string said = "No package Secrets found in " + empty + ".\n";
  StatusOptions status;
  status.files = {empty};
  Ran r = RunOn(status, RunStatus);
  EXPECT_EQ(r.code, kExitSomeFailed) << "docs/cli.md: status of no package is exit 1";
  EXPECT_EQ(r.err, said);
  EXPECT_EQ(r.out, "");
  SizeOptions size;
  size.files = {empty};
  r = RunOn(size, RunSize);
  EXPECT_EQ(r.code, kExitOk);
  EXPECT_EQ(r.err, said);
  EXPECT_EQ(r.out, "");
  InspectOptions inspect;
  inspect.files = {empty};
  inspect.output.format = "json";
  r = RunOn(inspect, RunInspect);
  EXPECT_EQ(r.code, kExitOk);
  EXPECT_EQ(r.err, "No Zarf state Secrets found in " + empty + ".\n");
  EXPECT_EQ(r.out, "[]\n") << "a document is still printed, empty";
}

TEST(EmptyResultsTest, TheInputIsNamedAsTheCommandNamesIt) {
  EXPECT_EQ(NothingFoundLine("package Secrets", {"-"}), "No package Secrets found in standard input.");
  EXPECT_EQ(NothingFoundLine("package Secrets", {}), "No package Secrets found in standard input.");
  EXPECT_EQ(NothingFoundLine("package Secrets", {"cluster (current context, namespace zraf)"}),
            "No package Secrets found in cluster (current context, namespace zraf).");
  EXPECT_EQ(NothingFoundLine("x", {"a", "b", "c"}), "No x found in a, b or c.");
}

TEST(EmptyResultsTest, AQueryNothingAnswersSaysSoAndExitsZero) {
  const std::string dir = ::testing::TempDir() + "/empty-results-" + std::to_string(::getpid());
  std::filesystem::remove_all(dir);
  const std::string dump = zs::testing::WriteTempFile(
      "one.list.json", zs::testing::ListJson({{"a", zs::testing::Payload({.name = "a"}, 2)}}));
  IngestOptions ingest;
  ingest.db = dir;
  ingest.files = {dump};
  ASSERT_EQ(RunOn(ingest, RunIngest).code, kExitOk);
  QueryOptions q;
  q.db = dir;
  q.what = "image";
  q.arg = "busybox:1.0";
  Ran r = RunOn(q, RunQuery);
  EXPECT_EQ(r.code, kExitOk);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "No packages found using image busybox:1.0 in the cache.\n");
  q.arg = "nginx:1.25";  // used by package a: nothing said
  q.output.format = "name";
  r = RunOn(q, RunQuery);
  EXPECT_EQ(r.out, "secret/zarf-package-a\n") << "the Secret, as kubectl names it";
  EXPECT_EQ(r.err, "");
  q.output.format = "table";
  q.what = "history";
  q.arg = "a";
  q.type = "Remove";
  r = RunOn(q, RunQuery);
  EXPECT_EQ(r.code, kExitOk);
  EXPECT_EQ(r.err, "No events found for package a that match the filters in the cache.\n");
  q.what = "status";
  q.arg.clear();
  q.type.clear();
  q.outcome = "Failed";
  r = RunOn(q, RunQuery);
  EXPECT_EQ(r.err, "No packages found whose latest outcome is Failed in the cache.\n");
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace zs::tools
