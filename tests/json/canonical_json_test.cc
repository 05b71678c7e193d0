#include "json/canonical_json.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "base/digest.h"
#include "json/json_reader.h"

namespace zs::json {
namespace {

// Canonical form of `text`, parsed with every duplicate kept.
std::string Canon(std::string_view text) {
  auto doc = ParseJson(text);
  EXPECT_TRUE(doc.ok()) << doc.status().ToString() << " for " << text;
  if (!doc.ok()) return "<parse error>";
  auto out = Canonicalize(*doc);
  EXPECT_TRUE(out.ok()) << out.status().ToString() << " for " << text;
  return out.ok() ? *out : "<canonicalize error>";
}

std::string Digest(std::string_view text) {
  auto doc = ParseJson(text);
  EXPECT_TRUE(doc.ok()) << text;
  auto digest = CanonicalDigest(*doc);
  EXPECT_TRUE(digest.ok()) << digest.status().ToString();
  return digest.ok() ? *digest : "";
}

TEST(CanonicalJsonTest, NumbersAreWrittenAsEcmaScriptWritesDoubles) {
  const std::vector<std::pair<std::string, std::string>> table = {
      {"0", "0"},
      {"-0", "0"},
      {"-0.0e5", "0"},
      {"5", "5"},
      {"5.0", "5"},
      {"4.50", "4.5"},
      {"1.0e+2", "100"},
      {"12.5e3", "12500"},
      {"-123.456", "-123.456"},
      {"0.1", "0.1"},
      {"0.30000000000000004", "0.30000000000000004"},
      {"2e-3", "0.002"},
      {"0.000001", "0.000001"},
      {"0.0000012", "0.0000012"},
      {"1e-7", "1e-7"},
      {"0.0000001234", "1.234e-7"},
      {"-1.5e-9", "-1.5e-9"},
      {"123e-20", "1.23e-18"},
      {"1e-27", "1e-27"},
      {"2e-308", "2e-308"},
      {"5e-324", "5e-324"},
      {"4.9406564584124654e-324", "5e-324"},
      {"1e-400", "0"},  // underflows to zero, as in ECMAScript and Go
      {"9007199254740993", "9007199254740992"},
      {"100000000000000000000", "100000000000000000000"},
      {"295147905179352830000", "295147905179352830000"},
      {"999999999999999999999", "1e+21"},
      {"1e21", "1e+21"},
      {"1E30", "1e+30"},
      {"1e23", "1e+23"},
      {"123456789012345678901234", "1.2345678901234569e+23"},
      {"333333333.33333329", "333333333.3333333"},
      {"1.7976931348623157e308", "1.7976931348623157e+308"},
      {"-1.5e300", "-1.5e+300"},
  };
  for (const auto& [raw, want] : table) {
    auto got = Canonicalize(Value::RawNumber(raw));
    ASSERT_TRUE(got.ok()) << raw << ": " << got.status().ToString();
    EXPECT_EQ(*got, want) << "input " << raw;
  }
}

TEST(CanonicalJsonTest, NumberOutsideDoubleRangeIsInvalidArgument) {
  for (const char* raw : {"1e400", "-1e400", "1.8e308"}) {
    auto got = Canonicalize(Value::RawNumber(raw));
    ASSERT_FALSE(got.ok()) << raw;
    EXPECT_EQ(got.status().code(), Status::Code::kInvalidArgument);
    EXPECT_NE(got.status().message().find(raw), std::string_view::npos)
        << got.status().ToString();
  }
  auto doc = ParseJson(R"({"a":[1,{"b":1e999}]})");
  ASSERT_TRUE(doc.ok());
  EXPECT_EQ(Canonicalize(*doc).status().code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(CanonicalDigest(*doc).status().code(),
            Status::Code::kInvalidArgument);
}

TEST(CanonicalJsonTest, KeysSortByUtf16CodeUnitsWhereUtf8BytesDisagree) {
  const std::string ligature = "\uFB01";   // EF AC 81; UTF-16 FB01
  const std::string emoji = "\U0001F600";  // F0 9F 98 80; UTF-16 D83D DE00
  ASSERT_LT(ligature, emoji);              // byte order: ligature first
  Value obj = Value::MakeObject();
  obj.Set(ligature, Value::Int(1));
  obj.Set(emoji, Value::Int(2));
  EXPECT_EQ(*Canonicalize(obj), "{\"" + emoji + "\":2,\"" + ligature + "\":1}");
}

TEST(CanonicalJsonTest, KeysOfEveryUtf8LengthSortByUtf16) {
  EXPECT_EQ(Canon("{\"\uFB01\":1,\"\U0001F600\":2,\"\u20AC\":3,\"\\r\":4,"
                  "\"1\":5,\"\u0080\":6,\"\u00F6\":7,\"a\":8,\"\":9}"),
            "{\"\":9,\"\\r\":4,\"1\":5,\"a\":8,\"\u0080\":6,\"\u00F6\":7,"
            "\"\u20AC\":3,\"\U0001F600\":2,\"\uFB01\":1}");
  // A key that is a prefix of another sorts first.
  EXPECT_EQ(Canon(R"({"ab":1,"a":2,"b":3})"), R"({"a":2,"ab":1,"b":3})");
}

TEST(CanonicalJsonTest, DuplicateKeysResolveLastWins) {
  EXPECT_EQ(Canon(R"({"b":1,"a":2,"b":3})"), R"({"a":2,"b":3})");
  EXPECT_EQ(Canon(R"({"x":{"y":1},"x":{"z":2}})"), R"({"x":{"z":2}})");
}

TEST(CanonicalJsonTest, StringsUseTheMinimalEscapes) {
  const std::string in =
      std::string("q\" b\\ \b\f\n\r\t \x01\x1f\x7f <>& /") + "\u2028\u00e9";
  const std::string want = std::string(R"("q\" b\\ \b\f\n\r\t \u0001\u001f)") +
                           "\x7f <>& /\u2028\u00e9\"";
  EXPECT_EQ(*Canonicalize(Value::String(in)), want);
  EXPECT_EQ(*Canonicalize(Value::String(std::string("a\0b", 3))),
            R"("a\u0000b")");
  // Escapes in the input are decoded by the reader and re-escaped minimally.
  EXPECT_EQ(Canon(R"("\u0041\/\u000F\u00e9")"), "\"A/\\u000f\u00e9\"");
}

TEST(CanonicalJsonTest, InvalidUtf8IsInvalidArgument) {
  for (const std::string& bad :
       {std::string("\xff"), std::string("a\xc3"), std::string("\xed\xa0\x80"),
        std::string("\xc0\xaf")}) {
    EXPECT_EQ(Canonicalize(Value::String(bad)).status().code(),
              Status::Code::kInvalidArgument);
    Value obj = Value::MakeObject();
    obj.Set(bad, Value::Null());
    EXPECT_EQ(Canonicalize(obj).status().code(),
              Status::Code::kInvalidArgument);
  }
}

TEST(CanonicalJsonTest, WholeDocumentLosesWhitespaceAndOrder) {
  EXPECT_EQ(Canon(R"( {
      "numbers": [ 333333333.33333329, 1E30, 4.50, 2e-3, 1e-27 ],
      "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
      "literals": [ null, true, false ],
      "nested": { "z": [], "y": {}, "x": [ { "b": 0, "a": -0 } ] }
    } )"),
            "{\"literals\":[null,true,false],"
            "\"nested\":{\"x\":[{\"a\":0,\"b\":0}],\"y\":{},\"z\":[]},"
            "\"numbers\":[333333333.3333333,1e+30,4.5,0.002,1e-27],"
            "\"string\":\"\u20ac$\\u000f\\nA'B\\\"\\\\\\\\\\\"/\"}");
}

TEST(CanonicalJsonTest, DigestIsPrefixedSha256OfTheCanonicalBytes) {
  auto doc = ParseJson(R"({"b":1.0,"a":"x"})");
  ASSERT_TRUE(doc.ok());
  const std::string digest = *CanonicalDigest(*doc);
  EXPECT_EQ(digest.substr(0, kCanonicalDigestPrefix.size()),
            kCanonicalDigestPrefix);
  EXPECT_EQ(digest.size(), kCanonicalDigestPrefix.size() + 64);
  EXPECT_EQ(digest.substr(kCanonicalDigestPrefix.size()),
            Sha256Digest(R"({"a":"x","b":1})").substr(7));
  // SHA-256 of the empty object "{}".
  EXPECT_EQ(Digest("{}"),
            "jcs-sha256:"
            "44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a");
}

TEST(CanonicalJsonTest, DigestTreatsFiveAndFivePointZeroAlike) {
  EXPECT_EQ(Digest(R"({"replicas":5})"), Digest(R"({"replicas":5.0})"));
  EXPECT_EQ(Digest(R"({"replicas":5})"), Digest(R"({"replicas":5e0})"));
  EXPECT_EQ(Digest("[0]"), Digest("[-0]"));
  EXPECT_NE(Digest(R"({"replicas":5})"), Digest(R"({"replicas":5.5})"));
  EXPECT_NE(Digest(R"({"replicas":5})"), Digest(R"({"replicas":"5"})"));
}

TEST(CanonicalJsonTest,
     DigestIgnoresKeyOrderWhitespaceAndOverriddenDuplicates) {
  const std::string a = Digest(R"({"a":1,"b":{"c":[1,2],"d":null}})");
  EXPECT_EQ(a,
            Digest(R"({ "b" : { "d" : null , "c" : [ 1 , 2 ] } , "a" : 1 })"));
  EXPECT_EQ(a, Digest("{\n\t\"b\":{\"c\":[1,2],\"d\":null},\r\n\"a\":1\n}"));
  EXPECT_EQ(a, Digest(R"({"a":7,"b":{"c":[1,2],"d":null},"a":1})"));
  EXPECT_NE(a, Digest(R"({"a":1,"b":{"c":[2,1],"d":null}})"));
}

}  // namespace
}  // namespace zs::json
