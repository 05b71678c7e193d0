// The pieces a List file is read with a piece at a time
// (kube/list_file.cc): ScanValueText, ParseJsonTakingStrings and
// ParseJsonStreamingFrom, each against what the whole-text parser does.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "base/memory_budget.h"
#include "json/go_json.h"
#include "json/json_reader.h"

namespace zs::json {
namespace {

std::string Text(const Value& v) {
  Result<std::string> s = WriteJson(v);
  return s.ok() ? *s : "<unwritable>";
}

ValueScan Scan(std::string_view text, std::size_t* end = nullptr) {
  std::size_t at_end = 0;
  const ValueScan scan = ScanValueText(text, 0, &at_end);
  if (end != nullptr) *end = at_end;
  return scan;
}

TEST(ScanValueTextTest, FindsWhereAValueEndsOrSaysMoreTextIsNeeded) {
  std::size_t end = 0;
  EXPECT_EQ(Scan(R"({"a":"x}\"]","b":[1,{}]} ,)", &end), ValueScan::kEnded);
  EXPECT_EQ(end, 24u);
  EXPECT_EQ(Scan(R"("a\\" , )", &end), ValueScan::kEnded);
  EXPECT_EQ(end, 5u);
  EXPECT_EQ(Scan("12.5e3,", &end), ValueScan::kEnded);
  EXPECT_EQ(end, 6u);
  EXPECT_EQ(Scan("\"caf\xc3\xa9\"]", &end), ValueScan::kEnded);
  EXPECT_EQ(end, 7u);
  // Cut short: a string, an object, a number with nothing after it, a
  // trailing backslash, an empty text.
  for (std::string_view cut : {R"("abc)", R"({"a":[1,2])", "12", R"("ab\)", R"({"a":"\")", ""}) {
    EXPECT_EQ(Scan(cut), ValueScan::kCutShort) << cut;
  }
  // Refused: a control byte in a string (escaped too), invalid UTF-8, no
  // value at all.
  for (std::string_view bad : {std::string_view("\"a\x01\"", 4), std::string_view("\"a\\\x01\"", 5),
                               std::string_view("\"a\tb\"", 5), std::string_view("[\"\xff\"]", 5),
                               std::string_view("{\"\xc3\"}", 5), std::string_view(",1"),
                               std::string_view("]")}) {
    EXPECT_EQ(Scan(bad), ValueScan::kRefused) << bad;
  }
}

// ParseJsonTakingStrings against ParseJson: the same tree or error, and the
// same memory taken from a budget of every size from none to enough.
void ExpectSameAsParseJson(const std::string& text, std::size_t max_depth = 512) {
  MemoryBudget big_whole(text.size(), 1 << 30), big_taking(text.size(), 1 << 30);
  ParseOptions whole_options, taking_options;
  whole_options.budget = &big_whole;
  taking_options.budget = &big_taking;
  whole_options.max_depth = taking_options.max_depth = max_depth;
  const Result<Value> whole = ParseJson(text, whole_options);
  const Result<Value> taking = ParseJsonTakingStrings(text, "data", taking_options);
  ASSERT_EQ(taking.status().ToString(), whole.status().ToString()) << text;
  if (whole.ok()) {
    EXPECT_EQ(Text(*taking), Text(*whole)) << text;
  }
  EXPECT_EQ(big_taking.used(), big_whole.used()) << text;
  for (std::size_t limit = 0; limit <= big_whole.used(); limit += kValueCost) {
    MemoryBudget a(text.size(), limit), b(text.size(), limit);
    whole_options.budget = &a;
    taking_options.budget = &b;
    EXPECT_EQ(ParseJsonTakingStrings(text, "data", taking_options).status().ToString(),
              ParseJson(text, whole_options).status().ToString())
        << text << " within " << limit;
    EXPECT_EQ(b.used(), a.used()) << text << " within " << limit;
  }
}

std::string Secret(std::string_view data) {
  return R"({"apiVersion":"v1","data":)" + std::string(data) +
         R"(,"kind":"Secret","metadata":{"name":"n"},"type":"Opaque"})";
}

TEST(ParseJsonTakingStringsTest, BuildsWhatParseJsonBuilds) {
  for (std::string_view data :
       {R"({"data":"QUJD","x":"REVG"})", R"({})", R"( { "a" : "b" , "c":"d" } )",
        R"({"data":"QU\/JD"})", R"("QUJD")", R"({"data":1})", R"({"a":"b",})", R"({"a" "b"})",
        R"({"a":"b"},"data":{"c":"d"})", R"(null)", R"({"a":["b"]})", R"({"a":"\u00e9"})",
        "{\"a\":\"caf\xc3\xa9\"}", "{\"a\":\"\xff\"}", "{\"a\":\"b\x01\"}", R"({"a":"b")"}) {
    ExpectSameAsParseJson(Secret(data));
  }
  ExpectSameAsParseJson(Secret(R"({"data":")" + std::string(300000, 'Q') + R"("})"));
  ExpectSameAsParseJson(R"([1,2])");
  ExpectSameAsParseJson(R"({"data":{"a":"b"}} x)");
  // Depth: the strings sit at 3.
  for (std::size_t depth : {1, 2, 3, 4}) ExpectSameAsParseJson(Secret(R"({"a":"b"})"), depth);
}

TEST(ParseJsonStreamingFromTest, SkipsTheItemsAlreadyHandedOutButStillChecksThem) {
  const std::string text = R"({"apiVersion":"v1","items":[{"a":1},{"b":2},{"c":3}],"kind":"List"})";
  std::vector<std::string> events;
  auto on_item = [&](Value item, std::size_t index, const Value& so_far) {
    events.push_back(std::to_string(index) + " " + Text(item) + " " + Text(so_far));
    return Status::OK();
  };
  auto on_envelope = [&](Value envelope, bool streamed) {
    events.push_back("envelope " + std::to_string(streamed) + " " + Text(envelope));
    return Status::OK();
  };
  ASSERT_TRUE(ParseJsonStreamingFrom(text, "items", {}, on_item, on_envelope, 2).ok());
  EXPECT_EQ(events, (std::vector<std::string>{
                        R"(2 {"c":3} {"apiVersion":"v1","items":[]})",
                        R"(envelope 1 {"apiVersion":"v1","items":[],"kind":"List"})"}));
  // A skipped item that is malformed is still the error it is.
  events.clear();
  const std::string bad = R"({"items":[{"a":01},{"b":2}]})";
  Status s = ParseJsonStreamingFrom(bad, "items", {}, on_item, on_envelope, 1);
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.ToString(), ParseJsonStreaming(bad, "items", {}, on_item, on_envelope).ToString());
}

}  // namespace
}  // namespace zs::json
