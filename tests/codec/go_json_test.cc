#include "codec/go_json.h"

#include <gtest/gtest.h>

#include "codec/json_reader.h"
#include "tests/test_util.h"

namespace zs::json {
namespace {

// Each vector: `input` decoded into `any` by Go, `go` = json.Marshal of it.
TEST(GoJsonTest, EveryGoJsonVectorReproducesByteForByte) {
  const auto lines = testing::ReadLines("vectors/go-json.jsonl");
  ASSERT_EQ(lines.size(), 120u);
  for (const std::string& line : lines) {
    auto vec = ParseJson(line);
    ASSERT_TRUE(vec.ok()) << vec.status().ToString();
    const std::string& input = vec->Find("input")->as_string();
    const std::string& want = vec->Find("go")->as_string();
    auto doc = ParseJson(input, {.duplicates = DuplicateKeys::kLastWins});
    ASSERT_TRUE(doc.ok()) << input << ": " << doc.status().ToString();
    auto got = WriteJson(*doc, kGoAny);
    ASSERT_TRUE(got.ok()) << got.status().ToString();
    EXPECT_EQ(*got, want) << "input: " << input;
  }
}

TEST(GoJsonTest, KeepingDuplicatesStillWritesTheLastOneLikeGo) {
  auto doc = ParseJson(R"({"b":1,"a":2,"b":3})");
  ASSERT_TRUE(doc.ok());
  EXPECT_EQ(*WriteJson(*doc, kGoAny), R"({"a":2,"b":3})");
  EXPECT_EQ(*WriteJson(*doc), R"({"b":1,"a":2,"b":3})");
}

std::string Float(double v) {
  std::string s;
  AppendGoFloat(&s, v);
  return s;
}

TEST(GoJsonTest, FloatsUseGoShortestFormAndExponentThresholds) {
  EXPECT_EQ(Float(5.0), "5");
  EXPECT_EQ(Float(-0.0), "-0");
  EXPECT_EQ(Float(0.000001), "0.000001");
  EXPECT_EQ(Float(0.0000001), "1e-7");
  EXPECT_EQ(Float(1e20), "100000000000000000000");
  EXPECT_EQ(Float(1e21), "1e+21");
  EXPECT_EQ(Float(1.5e300), "1.5e+300");
  EXPECT_EQ(Float(2e-308), "2e-308");
  EXPECT_EQ(Float(5e-324), "5e-324");
  EXPECT_EQ(Float(3.141592653589793), "3.141592653589793");
  EXPECT_EQ(Float(1.2345678901234569e+23), "1.2345678901234569e+23");
}

TEST(GoJsonTest, NumbersOutsideFloat64AreRefusedAsGoDoes) {
  EXPECT_FALSE(NumberToFloat64("1e400").ok());
  EXPECT_FALSE(NumberToFloat64("-1e400").ok());
  ASSERT_TRUE(NumberToFloat64("1e-400").ok());
  EXPECT_EQ(*NumberToFloat64("1e-400"), 0.0);
}

std::string Str(std::string_view s) {
  std::string out;
  AppendGoString(&out, s);
  return out;
}

TEST(GoJsonTest, StringsAreEscapedHtmlSafeLikeGo119) {
  EXPECT_EQ(Str("<a&b>"), R"("\u003ca\u0026b\u003e")");
  EXPECT_EQ(Str("q\"b\\"), R"("q\"b\\")");
  EXPECT_EQ(Str("\n\r\t"), R"("\n\r\t")");
  EXPECT_EQ(Str("\b\f\x01\x1f"), R"("\u0008\u000c\u0001\u001f")");
  EXPECT_EQ(Str("\x7f"), "\"\x7f\"");
  EXPECT_EQ(Str("\u2028\u2029"), R"("\u2028\u2029")");
  EXPECT_EQ(Str("é🦄/"), "\"é🦄/\"");
  EXPECT_EQ(Str("a\xff" "b"), R"("a\ufffdb")");
  EXPECT_EQ(Str("\xed\xa0\x80"), R"("\ufffd\ufffd\ufffd")");  // a UTF-16 surrogate
}

TEST(GoJsonTest, IndentedOutputMatchesMarshalIndent) {
  auto doc = ParseJson(R"({"a":[1,{"b":{}}],"c":[],"d":"x"})");
  ASSERT_TRUE(doc.ok());
  std::string out;
  AppendIndentedJson(&out, *doc, "  ");
  EXPECT_EQ(out, "{\n  \"a\": [\n    1,\n    {\n      \"b\": {}\n    }\n  ],\n  \"c\": [],\n  \"d\": \"x\"\n}");
}

}  // namespace
}  // namespace zs::json
