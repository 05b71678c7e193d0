#include "cli/progress.h"

#include <gtest/gtest.h>

#include <chrono>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace zs::tools {
namespace {

constexpr const char* kErase = "\r\x1b[K";

TEST(ProgressTest, DisabledWritesNothingAndLeavesTheStreamAlone) {
  std::ostringstream err;
  std::streambuf* own = err.rdbuf();
  {
    Progress p(err, "size", /*enabled=*/false);
    EXPECT_EQ(err.rdbuf(), own);
    p.Stage("measuring");
    std::this_thread::sleep_for(std::chrono::milliseconds(1100));
    p.Update(5, "packages");
    err << "warning: x\n";
  }
  EXPECT_EQ(err.str(), "warning: x\n");
}

TEST(ProgressTest, OtherOutputErasesTheLineFirstAndTheEndErasesIt) {
  std::ostringstream err;
  std::streambuf* own = err.rdbuf();
  {
    Progress p(err, "bench growth", /*enabled=*/true);
    p.Stage("simulating 3 cycles");
    EXPECT_EQ(err.str(), std::string(kErase) + "bench growth: simulating 3 cycles (0s)");
    err << "warning: near the limit\n";
    // Written once the line is gone: no second erase.
    err << "error: x\n";
    p.Stage("measuring\x1b]0;title\x07");
  }
  EXPECT_EQ(err.rdbuf(), own);
  EXPECT_EQ(err.str(), std::string(kErase) + "bench growth: simulating 3 cycles (0s)" + kErase +
                           "warning: near the limit\nerror: x\n" + kErase +
                           "bench growth: measuring\\x1b]0;title\\x07 (0s)" + kErase);
}

TEST(ProgressTest, CountsShowOnlyAfterTheFirstSecond) {
  std::ostringstream err;
  Progress p(err, "ingest list.json", /*enabled=*/true);
  p.Update(10, "Secrets");
  EXPECT_EQ(err.str(), "");
  std::this_thread::sleep_for(std::chrono::milliseconds(1050));
  p.Update(20, "Secrets");
  // The seconds shown depend on the machine's load: check the rest.
  const std::string drawn = err.str();
  EXPECT_EQ(drawn.rfind(std::string(kErase) + "ingest list.json: 20 Secrets (", 0), 0u) << drawn;
  EXPECT_EQ(drawn.substr(drawn.size() - 2), "s)") << drawn;
  p.Finish();
  EXPECT_EQ(err.str(), drawn + kErase);
  p.Finish();
  EXPECT_EQ(err.str(), drawn + kErase);
}

TEST(ProgressTest, AKnownTotalShowsAsNOfN) {
  EXPECT_EQ(ProgressCount(12, 40, "Secrets"), "12/40 Secrets");
  EXPECT_EQ(ProgressCount(12, 0, "Secrets"), "12 Secrets");
  std::ostringstream err;
  Progress p(err, "verify db", /*enabled=*/true);
  std::this_thread::sleep_for(std::chrono::milliseconds(1050));
  p.Update(2, "indexes checked", 4);
  EXPECT_EQ(err.str().rfind(std::string(kErase) + "verify db: 2/4 indexes checked (", 0), 0u)
      << err.str();
}

TEST(ProgressTest, OneOfSeveralFilesIsNumbered) {
  const std::vector<std::string> files = {"a.json", "b.json", "c.json"};
  EXPECT_EQ(ProgressTitle("ingest", files[1], files), "ingest b.json (file 2/3)");
  const std::vector<std::string> one = {"a.json"};
  EXPECT_EQ(ProgressTitle("migrate", one[0], one), "migrate a.json");
  const std::string other = "b.json";  // not an element: no number
  EXPECT_EQ(ProgressTitle("ingest", other, files), "ingest b.json");
}

TEST(ProgressTest, DurationsReadAsPeopleWriteThem) {
  EXPECT_EQ(FormatElapsed(0.0004), "0ms");
  EXPECT_EQ(FormatElapsed(0.85), "850ms");
  EXPECT_EQ(FormatElapsed(1.234), "1.2s");
  EXPECT_EQ(FormatElapsed(42.4), "42s");
  EXPECT_EQ(FormatElapsed(185), "3m05s");
  EXPECT_EQ(FormatElapsed(7800), "2h10m");
}

}  // namespace
}  // namespace zs::tools
