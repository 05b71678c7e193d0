// `zarf-state report` at fleet size: packages ordered by their use of the
// Secret size limit, the ones closest to it, the size histogram, ages with
// the exact time on hover, the running version beside a failed attempt's,
// and the table and package bodies past the first rows left unparsed for a
// browser running the script.
#include <gtest/gtest.h>

#include <cmath>

#include <sstream>
#include <string>
#include <vector>

#include "cli/common.h"
#include "cli/report_cmd.h"
#include "report/svg_plot.h"
#include "tests/test_util.h"

namespace zs::tools {
namespace {

// A DeployedPackage payload of about `pad` bytes more than its skeleton.
std::string Package(const std::string& name, std::size_t pad, const std::string& version = "1.0.0",
                    const std::string& events = "[]") {
  return R"({"name":")" + name + R"(","digest":"","data":{"kind":"ZarfPackageConfig",)" +
         R"("metadata":{"name":")" + name + R"(","version":")" + version +
         R"(","description":")" + std::string(pad, 'x') +
         R"("}},"cliVersion":"v0.84.0","generation":1,"deployedComponents":[],"events":)" + events +
         "}";
}

std::string Page(const std::vector<std::string>& payloads,
                 const std::string& now = "2026-12-01T12:00:00Z") {
  static int n = 0;
  ReportOptions o;
  for (std::size_t i = 0; i < payloads.size(); ++i) {
    o.files.push_back(testing::WriteTempFile(
        "fleet-" + std::to_string(++n) + "-" + std::to_string(i) + ".json", payloads[i]));
  }
  o.out = testing::WriteTempFile("fleet-" + std::to_string(++n) + ".html", "");
  o.now = now;
  std::ostringstream out, err;
  EXPECT_EQ(FinishCommand(RunReport(o, out, err), err), kExitOk) << err.str();
  return testing::ReadFile(o.out);
}

std::size_t Count(const std::string& s, const std::string& what, std::size_t from = 0,
                  std::size_t to = std::string::npos) {
  std::size_t n = 0;
  for (std::size_t at = s.find(what, from); at != std::string::npos && at < to;
       at = s.find(what, at + 1)) {
    ++n;
  }
  return n;
}

// The part of `page` from `begin` to the next `end`.
std::string Between(const std::string& page, const std::string& begin, const std::string& end) {
  const std::size_t a = page.find(begin);
  if (a == std::string::npos) return "";
  const std::size_t b = page.find(end, a);
  return page.substr(a, b == std::string::npos ? std::string::npos : b - a);
}

// Twelve packages: eleven small ones and one at 99.6% of the limit, given last.
std::vector<std::string> Fleet() {
  std::vector<std::string> fleet;
  for (int i = 0; i < 11; ++i) fleet.push_back(Package("small-" + std::to_string(i), 100 * i));
  fleet.push_back(Package("huge", 1044000));
  return fleet;
}

TEST(ReportFleetTest, PackagesAreOrderedByUseOfTheLimitLargestFirst) {
  const std::string page = Page({Package("alpha", 100), Package("bravo", 5000), Package("charlie", 1000)});
  const std::string table = Between(page, "<table id=\"package-table\"", "</table>");
  const std::size_t a = table.find(">alpha</a>"), b = table.find(">bravo</a>"),
                    c = table.find(">charlie</a>");
  ASSERT_NE(a, std::string::npos);
  EXPECT_LT(b, c);
  EXPECT_LT(c, a);
  // The package bodies follow the same order.
  EXPECT_LT(page.find("<span class=\"name\">bravo"), page.find("<span class=\"name\">alpha"));
}

TEST(ReportFleetTest, TheTenClosestToTheLimitAreListedFirst) {
  const std::string page = Page(Fleet());
  const std::string closest = Between(page, "<h3 id=\"closest\">", "</ol>");
  ASSERT_FALSE(closest.empty());
  EXPECT_EQ(Count(closest, "<li>"), 10u);
  EXPECT_LT(closest.find(">huge</a><span class=\"pct\">99."), closest.find(">small-10</a>"));
  EXPECT_EQ(closest.find(">small-0</a>"), std::string::npos);  // the two smallest are not
  EXPECT_EQ(closest.find(">small-1</a>"), std::string::npos);
  // A fleet of three needs no such list: the table is it.
  EXPECT_EQ(Page({Package("a", 1), Package("b", 2), Package("c", 3)}).find("id=\"closest\""),
            std::string::npos);
}

TEST(ReportFleetTest, TheSizeDistributionIsAHistogramAgainstTheLimit) {
  const std::string page = Page(Fleet());
  const std::string figure = Between(page, "<h3 id=\"distribution\">", "</figure>");
  ASSERT_FALSE(figure.empty());
  EXPECT_EQ(Count(figure, "<rect class=\"bin\""), 2u);
  EXPECT_NE(figure.find("<title>0-32 KiB: 11</title>"), std::string::npos) << figure;
  EXPECT_NE(figure.find("<title>992-1,024 KiB: 1</title>"), std::string::npos);
  EXPECT_NE(figure.find(">1 MiB limit</text>"), std::string::npos);
}

TEST(ReportFleetTest, HistogramBinsTheValuesAndMarksThoseOverTheTop) {
  HistogramOptions o;
  o.unit = "KiB";
  o.lines = {{1024, "limit <1 MiB>"}};
  const std::string svg = RenderHistogram(o, {0, 10, 40, 1024, 1030, std::nan("")});
  EXPECT_EQ(Count(svg, "<rect class=\"bin\""), 4u);
  EXPECT_NE(svg.find("<title>0-32 KiB: 2</title>"), std::string::npos) << svg;
  EXPECT_NE(svg.find("<title>32-64 KiB: 1</title>"), std::string::npos);
  EXPECT_NE(svg.find("<title>992-1,024 KiB: 1</title>"), std::string::npos);
  EXPECT_NE(svg.find("fill=\"#d62728\"><title>over 1,024 KiB: 1</title>"), std::string::npos);
  EXPECT_NE(svg.find(">limit &lt;1 MiB&gt;</text>"), std::string::npos);
}

TEST(ReportFleetTest, TimesAreAgesWithTheExactTimeOnHover) {
  const std::string page = Page(
      {Package("web", 10, "1.0.0",
               R"([{"type":"Deploy","outcome":"Succeeded","timestamp":"2026-11-21T11:00:00.123456789Z","version":"1.0.0"}])")});
  const std::string exact = "2026-11-21T11:00:00.123456789Z";
  EXPECT_NE(page.find("<time title=\"" + exact + "\">10d ago</time>"), std::string::npos);
  EXPECT_NE(page.find("<td title=\"" + exact + "\" data-sort=\"" + exact + "\">10d</td>"),
            std::string::npos);
  EXPECT_EQ(page.find(">" + exact + "<"), std::string::npos);  // never a raw timestamp as text
}

TEST(ReportFleetTest, TheVersionIsTheRunningOneWithAFailedAttemptBesideIt) {
  const std::string deployed =
      R"({"type":"Deploy","outcome":"Succeeded","timestamp":"2026-11-20T12:00:00Z","version":"1.2.0"})";
  const std::string page = Page(
      {Package("failed", 10, "1.3.0",
               "[" + deployed +
                   R"(,{"type":"Deploy","outcome":"Failed","timestamp":"2026-11-21T12:00:00Z","version":"1.3.0"}])"),
       Package("running", 20, "1.3.0",
               "[" + deployed +
                   R"(,{"type":"Deploy","outcome":"InProgress","timestamp":"2026-12-01T11:59:00Z","version":"1.3.0"}])"),
       Package("stored", 30, "1.3.0")});
  const std::string table = Between(page, "<table id=\"package-table\"", "</table>");
  EXPECT_NE(table.find(">failed</a></td><td>1.2.0 (1.3.0 failed)</td>"), std::string::npos) << table;
  EXPECT_NE(table.find(">running</a></td><td>1.2.0 (1.3.0 in progress)</td>"), std::string::npos);
  EXPECT_NE(table.find(">stored</a></td><td>1.3.0</td>"), std::string::npos);
}

TEST(ReportFleetTest, PastTwoHundredPackagesTheRestWaitUnparsedForTheScript) {
  std::vector<std::string> fleet;
  for (int i = 0; i < 205; ++i) {
    std::string name = "p";  // appended: a concatenation trips a false g++ 12 -Wrestrict
    name += std::to_string(1000 + i);
    fleet.push_back(Package(name, 1000 - i));
  }
  const std::string page = Page(fleet);
  const std::size_t table = page.find("<table id=\"package-table\"");
  const std::size_t more = page.find("<noscript id=\"more-rows\">");
  ASSERT_NE(more, std::string::npos);
  EXPECT_EQ(Count(page, "<tr data-search", table, more), 200u);
  EXPECT_EQ(Count(page, "<tr data-search", more, page.find("</noscript>", more)), 5u);
  EXPECT_NE(page.find("id=\"show-all-rows\" hidden"), std::string::npos);
  // The last five package bodies too, each inside its <details>.
  EXPECT_EQ(Count(page, "</summary><noscript><dl class=\"facts\">"), 5u);
  EXPECT_NE(page.find("<span class=\"name\">p1204</span>"), std::string::npos);
  // Two hundred packages are all rendered as they are.
  fleet.resize(200);
  const std::string small = Page(fleet);
  EXPECT_EQ(small.find("<noscript id="), std::string::npos);
  EXPECT_EQ(small.find("</summary><noscript>"), std::string::npos);
  EXPECT_EQ(Count(small, "<tr data-search"), 200u);
}

}  // namespace
}  // namespace zs::tools
