#include "json/go_json.h"

#include <gtest/gtest.h>


#include "json/json_reader.h"
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

// go-float.tsv: a number spelling, then what json.Marshal writes after Go
// decoded it into `any` (gen/go_float.go made it): integers past 2^53 are
// written from their shortest float64 digits, zero-padded.
TEST(GoJsonTest, EveryGoFloatVectorReproducesByteForByte) {
  const auto lines = testing::ReadLines("vectors/go-float.tsv");
  ASSERT_GT(lines.size(), 400u);
  for (const std::string& line : lines) {
    const std::size_t tab = line.find('\t');
    ASSERT_NE(tab, std::string::npos) << line;
    auto d = NumberToFloat64(line.substr(0, tab));
    ASSERT_TRUE(d.ok()) << line;
    EXPECT_EQ(Float(*d), line.substr(tab + 1)) << "input: " << line.substr(0, tab);
  }
  EXPECT_EQ(Float(9223372036854775807.0), "9223372036854776000");
  EXPECT_EQ(Float(12345678901234567890.0), "12345678901234567000");
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

// Go 1.19's encodeState.string, one byte at a time: the reference for the
// block scans in AppendGoString.
std::string GoStringReference(std::string_view s) {
  static const char kHex[] = "0123456789abcdef";
  std::string out = "\"";
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      if (c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&') {
        out.push_back(static_cast<char>(c));
      } else if (c == '"' || c == '\\') {
        out += '\\';
        out.push_back(static_cast<char>(c));
      } else if (c == '\n') {
        out += "\\n";
      } else if (c == '\r') {
        out += "\\r";
      } else if (c == '\t') {
        out += "\\t";
      } else {
        out += "\\u00";
        out.push_back(kHex[c >> 4]);
        out.push_back(kHex[c & 15]);
      }
      ++i;
      continue;
    }
    std::size_t len = (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
    std::uint32_t cp = len ? c & (0x7F >> len) : 0;
    for (std::size_t k = 1; len && k < len; ++k) {
      if (i + k >= s.size() || (static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) {
        len = 0;
      } else {
        cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
      }
    }
    const std::uint32_t min = len == 2 ? 0x80 : len == 3 ? 0x800 : 0x10000;
    if (len == 0 || cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
      out += "\\ufffd";
      ++i;
      continue;
    }
    if (cp == 0x2028 || cp == 0x2029) {
      out += cp == 0x2028 ? "\\u2028" : "\\u2029";
    } else {
      out.append(s.substr(i, len));
    }
    i += len;
  }
  out += '"';
  return out;
}

TEST(GoJsonTest, StringsMatchAByteAtATimeReferenceAtEveryPosition) {
  const std::vector<std::string> specials = {
      "\"", "\\", "<", ">", "&", "\n", "\r", "\t", std::string(1, '\0'), "\x1f", "\x7f",
      "\xC3\xA9", "\xE2\x80\xA8", "\xE2\x80\xA9", "\xF0\x9F\x98\x80", "\xFF", "\xC3", "\xE2\x80",
      "\xED\xA0\x80"};
  // Up to 140 bytes: every SIMD width's step (64, 32, 16) and tail, twice.
  for (std::size_t len = 0; len <= 140; ++len) {
    const std::string plain(len, 'a');
    EXPECT_EQ(WriteJson(Value::String(plain)).value(), GoStringReference(plain));
    for (const std::string& special : specials) {
      for (std::size_t at = 0; at <= len; ++at) {
        std::string s = plain;
        s.insert(at, special);
        std::string out;
        AppendGoString(&out, s);
        ASSERT_EQ(out, GoStringReference(s)) << "len " << len << " at " << at;
      }
    }
  }
}

TEST(GoJsonTest, IndentedOutputMatchesMarshalIndent) {
  auto doc = ParseJson(R"({"a":[1,{"b":{}}],"c":[],"d":"x"})");
  ASSERT_TRUE(doc.ok());
  std::string out;
  AppendIndentedJson(&out, *doc, "  ");
  EXPECT_EQ(out, "{\n  \"a\": [\n    1,\n    {\n      \"b\": {}\n    }\n  ],\n  \"c\": [],\n  \"d\": \"x\"\n}");
}

// The spliced node is written by its callback, in its place and only there;
// a placeholder of the same text gives the same output as the real value.
TEST(GoJsonTest, ASplicedValueIsWrittenByItsCallbackInItsPlace) {
  auto doc = ParseJson(R"({"a":[1,{"b":"","c":""}],"d":""})");
  ASSERT_TRUE(doc.ok());
  const Value* at = doc->Find("a")->array()[1].Find("b");
  int calls = 0;
  const SplicedValue splice{at, [&calls](std::string* out) {
                              ++calls;
                              out->append("\"spliced\"");
                            }};
  std::string out;
  AppendIndentedJson(&out, *doc, "  ", 1, splice);
  EXPECT_EQ(calls, 1);
  Value whole = *doc;
  whole.Find("a")->array()[1].Find("b")->as_string() = "spliced";
  std::string want;
  AppendIndentedJson(&want, whole, "  ", 1);
  EXPECT_EQ(out, want);
}

}  // namespace
}  // namespace zs::json
