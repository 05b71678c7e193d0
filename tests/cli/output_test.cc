#include "cli/output.h"

#include <gtest/gtest.h>

#include <CLI/CLI.hpp>

#include <algorithm>
#include <sstream>
#include <string>

#include "cli/command_status.h"
#include "cli/common.h"
#include "json/json_reader.h"

namespace zs::tools {
namespace {

std::string Printed(const Table& t, std::string format, bool no_headers = false) {
  OutputOptions o;
  o.format = std::move(format);
  o.no_headers = no_headers;
  std::ostringstream out;
  t.Print(o, out);
  return out.str();
}

Table Sample() {
  Table t({{"NAME"}, {"STATUS"}, {"DIGEST", /*wide_only=*/true}, {"AGE"}});
  t.AddRow({"podinfo", "Succeeded", "sha256:ab", "5d"});
  t.AddRow({"a", "", "", "45s"});
  return t;
}

TEST(OutputTableTest, AlignsColumnsAsKubectl) {
  EXPECT_EQ(Printed(Sample(), "table"),
            "NAME      STATUS      AGE\n"
            "podinfo   Succeeded   5d\n"
            "a         <none>      45s\n");
}

TEST(OutputTableTest, WideShowsWideOnlyColumns) {
  EXPECT_EQ(Printed(Sample(), "wide"),
            "NAME      STATUS      DIGEST      AGE\n"
            "podinfo   Succeeded   sha256:ab   5d\n"
            "a         <none>      <none>      45s\n");
}

TEST(OutputTableTest, NoHeadersDropsOnlyTheHeader) {
  EXPECT_EQ(Printed(Sample(), "table", true),
            "podinfo   Succeeded   5d\n"
            "a         <none>      45s\n");
  EXPECT_EQ(Printed(Table({{"NAME"}}), "table", true), "");
  EXPECT_EQ(Printed(Table({{"NAME"}}), "table"), "");  // no header over no rows
}

TEST(OutputTableTest, CellsAreEscapedAndWidthsCountCharacters) {
  Table t({{"NAME"}, {"X"}});
  t.AddRow({"evil\n\x1b[2Jrow", "1"});
  t.AddRow({"caf\xc3\xa9", "2"});
  EXPECT_EQ(Printed(t, "table"),
            "NAME                 X\n"
            "evil\\x0a\\x1b[2Jrow   1\n"
            "caf\xc3\xa9                 2\n");
}

TEST(OutputNamesTest, KindSlashNamePerLine) {
  std::ostringstream out;
  PrintNames("package", {"podinfo", "bad\x1bname"}, out);
  EXPECT_EQ(out.str(), "package/podinfo\npackage/bad\\x1bname\n");
}

TEST(OutputStructuredTest, JsonAndYaml) {
  const json::Value v = json::Value::MakeObject({{"a", json::Value::Int(1)}});
  std::ostringstream j, y;
  PrintStructured(v, "json", j);
  PrintStructured(v, "yaml", y);
  EXPECT_EQ(j.str(), "{\n  \"a\": 1\n}\n");
  EXPECT_EQ(y.str(), "a: 1\n");
}

TEST(OutputTimeTest, AgeOrAgainstNowAndReportTimeInUtcSeconds) {
  const Timestamp then = *ParseRfc3339("2024-05-01T10:20:30.900+02:00");
  const Timestamp now = *ParseRfc3339("2024-05-01T08:21:15.100Z");
  EXPECT_EQ(AgeOr(then, now), "44s");  // 44.2 s elapsed
  EXPECT_EQ(AgeOr(std::nullopt, now), "-");
  EXPECT_EQ(ReportTime(then), "2024-05-01T08:20:30Z");
  EXPECT_TRUE(ReportTimeValue(std::nullopt).is_null());
  EXPECT_EQ(ReportTimeValue(now).as_string(), "2024-05-01T08:21:15Z");
}

TEST(OutputOptionsTest, UnknownFormatIsAParseErrorNeverATable) {
  for (const char* format : {"table", "wide", "json", "yaml", "name"}) {
    CLI::App app;
    OutputOptions o;
    AddOutputOptions(&app, &o, {"table", "wide", "json", "yaml", "name"});
    std::vector<std::string> args = {"--no-headers", "-o", format};
    std::reverse(args.begin(), args.end());
    EXPECT_NO_THROW(app.parse(args)) << format;
    EXPECT_EQ(o.format, format);
    EXPECT_TRUE(o.no_headers);
  }
  CLI::App app;
  OutputOptions o;
  AddOutputOptions(&app, &o, {"table", "json"});
  EXPECT_EQ(o.format, "table");
  std::vector<std::string> args = {"wide", "-o"};
  EXPECT_THROW(app.parse(args), CLI::ValidationError);
  std::ostringstream err;
  o.format = "wide";
  EXPECT_EQ(FinishCommand(CheckOutputFormat(o, {"table", "json"}), err), kExitUsage);
  EXPECT_EQ(err.str(), "error: -o must be one of table | json, not 'wide'\n");
  o.format = "json";
  EXPECT_TRUE(CheckOutputFormat(o, {"table", "json"}).ok());
}

}  // namespace
}  // namespace zs::tools
