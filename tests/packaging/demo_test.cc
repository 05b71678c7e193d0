// `make demo` as a first-time user meets it: the program is built first and
// alone (no tests or benchmarks, the compiler's output in a log), and the
// demo quotes the held-out compact figure, not the in-sample one.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "tests/test_util.h"

namespace zs::testing {
namespace {

namespace fs = std::filesystem;

fs::path SourceDir() { return fs::path(ZS_TEST_DATA_DIR).parent_path().parent_path(); }

// The recipe of `target` in the Makefile: its rule line and the tab-indented
// lines under it.
std::string Recipe(const std::string& makefile, const std::string& target) {
  const std::size_t rule = makefile.find("\n" + target + ":");
  if (rule == std::string::npos) return "";
  std::size_t end = rule + 1;
  for (std::size_t next; (next = makefile.find('\n', end)) != std::string::npos;) {
    end = next + 1;
    if (end >= makefile.size() || makefile[end] != '\t') break;
  }
  return makefile.substr(rule + 1, end - rule - 1);
}

TEST(DemoTest, MakeDemoBuildsOnlyTheProgramQuietlyFirst) {
  const std::string recipe = Recipe(ReadFile(SourceDir() / "Makefile"), "demo");
  ASSERT_FALSE(recipe.empty());
  EXPECT_EQ(recipe.find("_build"), std::string::npos) << "_build compiles the tests:\n" << recipe;
  const std::size_t build = recipe.find("--target zarf-state");
  ASSERT_NE(build, std::string::npos) << recipe;
  EXPECT_NE(recipe.find("demo-build.log", build), std::string::npos) << "compiler output in a log";
  EXPECT_LT(build, recipe.find("packaging/demo.sh")) << recipe;
}

TEST(DemoTest, TheDemoQuotesTheHeldOutCompactFigure) {
  const std::string demo = ReadFile(SourceDir() / "packaging/demo.sh");
  EXPECT_EQ(demo.find("held-out numbers: 0.05-0.08"), std::string::npos)
      << "0.05-0.08 is in-sample (compact/FORMAT.md)";
  const std::string perf = ReadFile(SourceDir() / "docs/performance.md");
  const std::size_t row = perf.find("no dictionary was trained on");
  ASSERT_NE(row, std::string::npos);
  const std::size_t bold = perf.find("**", row);
  const std::string figure = perf.substr(bold + 2, perf.find("**", bold + 2) - bold - 2);
  EXPECT_NE(demo.find("compact/JSON is " + figure), std::string::npos)
      << "the demo should quote " << figure << " (docs/performance.md)";
  // The report of the demo reads no cache: one snapshot per package would
  // call the sample's same-named Secrets of several eras drift.
  const std::size_t report = demo.find("run report ");
  ASSERT_NE(report, std::string::npos);
  EXPECT_EQ(demo.substr(report, demo.find("--out", report) - report).find("--db"),
            std::string::npos);
}

}  // namespace
}  // namespace zs::testing
