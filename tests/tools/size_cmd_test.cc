#include "tools/size_cmd.h"

#include <gtest/gtest.h>

#include <sstream>

#include "json/json_reader.h"
#include "tests/test_util.h"
#include "tools/common.h"

namespace zs::tools {
namespace {

TEST(SizeCmdTest, ReportsEveryCodecWithHeadroomAndEventsThatFit) {
  SizeOptions o;
  o.files = {(testing::DataDir() / "legacy/e22-v0.80.0-v0.84.0/pkg-realistic-init-failed.secret.json").string()};
  o.output = "json";
  std::ostringstream out, err;
  ASSERT_EQ(RunSize(o, out, err), kExitOk) << err.str();
  auto v = json::ParseJson(out.str());
  ASSERT_TRUE(v.ok()) << out.str();
  const json::Value& row = v->array().at(0);
  auto bytes = [&](const char* codec) { return std::stoll(row.Find(codec)->Find("bytes")->number_raw()); };
  EXPECT_EQ(bytes("json"), 12956);
  EXPECT_LT(bytes("gzipBase64"), bytes("json"));
  EXPECT_LT(bytes("compact"), bytes("gzipBase64"));
  EXPECT_EQ(row.Find("json")->Find("headroomBytes")->number_raw(), std::to_string(1048576 - 12956));
  const long long per_event = std::stoll(row.Find("json")->Find("bytesPerEvent")->number_raw());
  const long long fit = std::stoll(row.Find("json")->Find("moreEventsFit")->number_raw());
  EXPECT_GT(per_event, 100);  // an event with two digests is a few hundred bytes of JSON
  EXPECT_EQ(fit, (1048576 - 12956) / per_event);
}

TEST(SizeCmdTest, TablePrintsCorpusMediansAndBadInputFailsAlone) {
  SizeOptions o;
  o.files = {(testing::DataDir() / "legacy/e22-v0.80.0-v0.84.0/all-secrets.list.json").string(),
             (testing::DataDir() / "legacy/e22-v0.80.0-v0.84.0/malformed-bad-base64.secret.json").string()};
  std::ostringstream out, err;
  EXPECT_EQ(RunSize(o, out, err), kExitSomeFailed);
  EXPECT_NE(out.str().find("median over 7 packages"), std::string::npos) << out.str();
  EXPECT_NE(err.str().find("illegal base64"), std::string::npos);
}

}  // namespace
}  // namespace zs::tools
