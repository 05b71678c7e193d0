#include "cli/size_cmd.h"

#include <gtest/gtest.h>

#include <sstream>

#include "json/json_reader.h"
#include "tests/cache_fixture.h"
#include "yaml/yaml.h"
#include "tests/test_util.h"
#include "cli/common.h"
#include "cli/output.h"

namespace zs::tools {
namespace {

TEST(SizeCmdTest, ReportsEveryCodecWithHeadroomAndEventsThatFit) {
  SizeOptions o;
  o.files = {(testing::DataDir() / "legacy/e22-v0.80.0-v0.84.0/pkg-realistic-init-failed.secret.json").string()};
  o.output.format = "json";
  o.compact = true;
  std::ostringstream out, err;
  ASSERT_EQ(FinishCommand(RunSize(o, out, err), err), kExitOk) << err.str();
  auto v = json::ParseJson(out.str());
  ASSERT_TRUE(v.ok()) << out.str();
  const json::Value& row = v->array().at(0);
  auto bytes = [&](const char* codec) { return std::stoll(row.Find(codec)->Find("bytes")->number_raw()); };
  EXPECT_EQ(bytes("json"), 12970);  // manifest releases as Zarf names them
  EXPECT_LT(bytes("gzipBase64"), bytes("json"));
  EXPECT_LT(bytes("compact"), bytes("gzipBase64"));
  EXPECT_EQ(row.Find("json")->Find("headroomBytes")->number_raw(), std::to_string(1048576 - 12970));
  const long long per_event = std::stoll(row.Find("json")->Find("bytesPerEvent")->number_raw());
  const long long fit = std::stoll(row.Find("json")->Find("moreEventsFit")->number_raw());
  EXPECT_GT(per_event, 100);  // an event with two digests is a few hundred bytes of JSON
  EXPECT_EQ(fit, (1048576 - 12970) / per_event);
}

// Without --compact, the compact codec (zstd level 19, milliseconds a
// Secret) is measured only where it decides whether a Secret fits: a Secret
// far under the limit gets none, and says so.
TEST(SizeCmdTest, CompactIsMeasuredOnRequestOrNearTheLimit) {
  SizeOptions o;
  o.files = {(testing::DataDir() / "legacy/e22-v0.80.0-v0.84.0/pkg-realistic-init-failed.secret.json").string(),
             (testing::DataDir() / "legacy/e22-v0.80.0-v0.84.0/pkg-edge-near-1mib.secret.json").string()};
  o.output.format = "json";
  std::ostringstream out, err;
  ASSERT_EQ(FinishCommand(RunSize(o, out, err), err), kExitOk) << err.str();
  auto v = json::ParseJson(out.str());
  ASSERT_TRUE(v.ok()) << out.str();
  ASSERT_EQ(v->array().size(), 2u);
  const json::Value* small = v->array()[0].Find("compact");
  EXPECT_TRUE(small->Find("bytes")->is_null()) << out.str();
  ASSERT_NE(small->Find("measured"), nullptr) << out.str();
  EXPECT_TRUE(small->Find("measured")->is_bool()) << out.str();
  const json::Value* near = v->array()[1].Find("compact");
  EXPECT_FALSE(near->Find("bytes")->is_null()) << out.str();
  EXPECT_EQ(near->Find("measured"), nullptr) << out.str();

  o.output.format = "table";
  std::ostringstream table, table_err;
  ASSERT_EQ(FinishCommand(RunSize(o, table, table_err), table_err), kExitOk) << table_err.str();
  EXPECT_NE(table.str().find("--compact measures every Secret"), std::string::npos) << table.str();
  o.compact = true;
  std::ostringstream all, all_err;
  ASSERT_EQ(FinishCommand(RunSize(o, all, all_err), all_err), kExitOk) << all_err.str();
  EXPECT_EQ(all.str().find("--compact measures every Secret"), std::string::npos) << all.str();
}

TEST(SizeCmdTest, TablePrintsCorpusMedians) {
  SizeOptions o;
  o.files = {(testing::DataDir() / "legacy/e22-v0.80.0-v0.84.0/all-secrets.list.json").string()};
  o.compact = true;
  std::ostringstream out, err;
  EXPECT_EQ(FinishCommand(RunSize(o, out, err), err), kExitOk);
  EXPECT_NE(out.str().find("median over 7 packages"), std::string::npos) << out.str();
}

// A failing run prints its errors and no table: a partial table would read
// as the whole answer.
TEST(SizeCmdTest, AFailingRunPrintsNothingOnStdout) {
  SizeOptions o;
  o.files = {(testing::DataDir() / "legacy/e22-v0.80.0-v0.84.0/all-secrets.list.json").string(),
             (testing::DataDir() / "legacy/e22-v0.80.0-v0.84.0/malformed-bad-base64.secret.json").string()};
  for (const char* format : {"table", "json", "name"}) {
    o.output.format = format;
    std::ostringstream out, err;
    EXPECT_EQ(FinishCommand(RunSize(o, out, err), err), kExitSomeFailed) << format;
    EXPECT_EQ(out.str(), "") << format;
    EXPECT_NE(err.str().find("illegal base64"), std::string::npos) << err.str();
  }
  // The CI gate is a failure too.
  o.files = {(testing::DataDir() / "legacy/e22-v0.80.0-v0.84.0/pkg-small-dos-games.secret.json").string()};
  o.fail_above_percent = 0.01;
  o.output.format = "table";
  std::ostringstream out, err;
  EXPECT_EQ(FinishCommand(RunSize(o, out, err), err), kExitSomeFailed);
  EXPECT_EQ(out.str(), "");
  EXPECT_NE(err.str().find("over --fail-above"), std::string::npos) << err.str();
}

std::string Data(const char* name) {
  return (testing::DataDir() / "legacy/e22-v0.80.0-v0.84.0" / name).string();
}

struct Sized {
  int code;
  std::string out, err;
};

Sized Size(const std::string& format, bool no_headers = false) {
  SizeOptions o;
  o.files = {Data("pkg-small-dos-games.secret.json"), Data("pkg-small-dos-games-override.secret.json")};
  o.output.format = format;
  o.output.no_headers = no_headers;
  o.now = "2030-01-01T00:00:00Z";
  std::ostringstream out, err;
  const int code = FinishCommand(RunSize(o, out, err), err);
  return {code, out.str(), err.str()};
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}

// An override package is a second Secret of the same package name: the
// SECRET column (and "secret" in json) tells the two rows apart.
TEST(SizeCmdTest, AnOverridePackageIsASecondRowToldApartByItsSecret) {
  const Sized table = Size("table");
  ASSERT_EQ(table.code, kExitOk) << table.err;
  const std::vector<std::string> lines = Lines(table.out);
  ASSERT_GE(lines.size(), 3u) << table.out;
  EXPECT_EQ(lines[0].rfind("PACKAGE ", 0), 0u) << table.out;
  EXPECT_NE(lines[0].find(" SECRET "), std::string::npos) << table.out;
  EXPECT_NE(lines[0].find("LAST EVENT"), std::string::npos) << lines[0];
  EXPECT_EQ(lines[0].find("SOURCE"), std::string::npos) << "wide only: " << lines[0];
  EXPECT_EQ(lines[1].rfind("dos-games ", 0), 0u) << table.out;
  EXPECT_NE(lines[1].find(" zarf-package-dos-games "), std::string::npos) << lines[1];
  // Named by its cache key, as every table names it.
  EXPECT_EQ(lines[2].rfind("dos-games-override-games-2 ", 0), 0u) << table.out;
  EXPECT_NE(lines[2].find(" zarf-package-dos-games-override-games-2 "), std::string::npos)
      << lines[2];

  const Sized json = Size("json");
  ASSERT_EQ(json.code, kExitOk) << json.err;
  auto v = json::ParseJson(json.out);
  ASSERT_TRUE(v.ok()) << json.out;
  ASSERT_EQ(v->array().size(), 2u);
  EXPECT_EQ(v->array()[0].StringOr("secret"), "zarf-package-dos-games");
  EXPECT_EQ(v->array()[1].StringOr("secret"), "zarf-package-dos-games-override-games-2");
  EXPECT_EQ(v->array()[0].StringOr("name"), v->array()[1].StringOr("name"));
  // Legacy Secrets have no events: no last event.
  EXPECT_TRUE(v->array()[0].Find("lastEventTime")->is_null());
}

// LAST EVENT is the newest event's age as of --now; json/yaml carry its
// time in RFC 3339, to the second.
TEST(SizeCmdTest, LastEventIsAnAgeInTheTableAndATimeInJson) {
  SizeOptions o;
  o.files = {testing::WriteTempFile(
      "three-deploys.json", testing::SecretJson("pkg", testing::Payload(testing::PackageSpec{}, 3)))};
  o.now = "2023-11-15T01:13:56Z";  // the last event, 1700000031 s, plus 3 h and 5 s
  std::ostringstream out, err;
  ASSERT_EQ(FinishCommand(RunSize(o, out, err), err), kExitOk) << err.str();
  const std::vector<std::string> lines = Lines(out.str());
  ASSERT_GE(lines.size(), 2u);
  const std::size_t column = lines[0].find("LAST EVENT");
  ASSERT_NE(column, std::string::npos) << out.str();
  const std::string age = FormatAge(Timestamp::FromUnixNanos(1700000031LL * 1000000000LL),
                              Timestamp::FromUnixNanos(1700010836LL * 1000000000LL));
  EXPECT_EQ(age, "3h");
  EXPECT_EQ(lines[1].substr(column), age) << out.str();  // the last column: no padding

  o.output.format = "json";
  std::ostringstream json_out;
  ASSERT_EQ(FinishCommand(RunSize(o, json_out, err), err), kExitOk) << err.str();
  auto v = json::ParseJson(json_out.str());
  ASSERT_TRUE(v.ok()) << json_out.str();
  EXPECT_EQ(v->array().at(0).StringOr("lastEventTime"), "2023-11-14T22:13:51Z");
  EXPECT_EQ(v->array().at(0).Find("events")->number_raw(), "6");
}

TEST(SizeCmdTest, EveryFormatAndNoHeaders) {
  const Sized table = Size("table");
  const Sized wide = Size("wide");
  ASSERT_EQ(wide.code, kExitOk) << wide.err;
  EXPECT_NE(Lines(wide.out)[0].find("SOURCE"), std::string::npos) << wide.out;
  EXPECT_NE(Lines(wide.out)[0].find("BYTES/EVENT"), std::string::npos) << wide.out;
  EXPECT_NE(wide.out.find("pkg-small-dos-games-override.secret.json"), std::string::npos);

  const Sized yaml = Size("yaml");
  ASSERT_EQ(yaml.code, kExitOk) << yaml.err;
  auto docs = yaml::ParseDocuments(yaml.out);
  ASSERT_TRUE(docs.ok()) << yaml.out;
  ASSERT_EQ(docs->size(), 1u);
  EXPECT_EQ(docs->at(0).array().size(), 2u);

  const Sized name = Size("name");
  ASSERT_EQ(name.code, kExitOk) << name.err;
  EXPECT_EQ(name.out,
            "secret/zarf-package-dos-games\nsecret/zarf-package-dos-games-override-games-2\n");

  const Sized bare = Size("table", /*no_headers=*/true);
  ASSERT_EQ(bare.code, kExitOk) << bare.err;
  const std::vector<std::string> rows = Lines(bare.out);
  ASSERT_EQ(rows.size(), 2u) << "the rows only: no header, no notes\n" << bare.out;
  EXPECT_EQ(rows[0].rfind("dos-games ", 0), 0u) << bare.out;
  EXPECT_NE(table.out.find("(HEADROOM: "), std::string::npos) << table.out;

  const Sized csv = Size("csv");
  EXPECT_EQ(csv.code, kExitUsage);
  EXPECT_TRUE(csv.out.empty()) << "never a silent table: " << csv.out;
  EXPECT_NE(csv.err.find("csv"), std::string::npos) << csv.err;
}

}  // namespace
}  // namespace zs::tools
