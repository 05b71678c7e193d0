#include "json/string_escape.h"

#include <gtest/gtest.h>

#include <string>

#include "json/utf8.h"

namespace zs::json {
namespace {

std::string Escape(std::string_view s, const StringEscaping& how) {
  std::string out;
  EXPECT_EQ(AppendJsonString(&out, s, how), kEscapedAll) << s;
  return out;
}

// One input through every preset: the presets differ exactly where their
// options say.
TEST(StringEscapeTest, ThePresetsDifferOnlyWhereTheirOptionsSay) {
  const std::string s = "a\"\\\n\r\t\b\f\x01<>&\x7f\xE2\x80\xA8\xC3\xA9";
  EXPECT_EQ(Escape(s, kGoEscaping),
            "\"a\\\"\\\\\\n\\r\\t\\u0008\\u000c\\u0001\\u003c\\u003e\\u0026\x7f\\u2028\xC3\xA9\"");
  EXPECT_EQ(Escape(s, kCanonicalEscaping),
            "\"a\\\"\\\\\\n\\r\\t\\b\\f\\u0001<>&\x7f\xE2\x80\xA8\xC3\xA9\"");
  EXPECT_EQ(Escape(s, kMinimalEscaping),
            "\"a\\\"\\\\\\n\\r\\t\\u0008\\u000c\\u0001<>&\x7f\xE2\x80\xA8\xC3\xA9\"");
}

TEST(StringEscapeTest, InvalidUtf8IsReplacedCopiedOrReported) {
  const std::string s = std::string(40, 'x') + "\xC3(\xFF";
  std::string head = "\"";  // appended: a concatenation trips a false g++ 12 -Wrestrict
  head.append(40, 'x');
  EXPECT_EQ(Escape(s, kGoEscaping), head + "\\ufffd(\\ufffd\"");
  EXPECT_EQ(Escape(s, kMinimalEscaping), head + "\xC3(\xFF\"");
  std::string out;
  EXPECT_EQ(AppendJsonString(&out, s, kCanonicalEscaping), 40u);
}

TEST(Utf8Test, DecodesValidSequencesAndRefusesInvalidOnes) {
  char32_t cp = 0;
  EXPECT_EQ(DecodeUtf8("\xF0\x9F\x98\x80", 0, &cp), 4u);
  EXPECT_EQ(cp, U'\U0001F600');
  EXPECT_EQ(DecodeUtf8("\xC0\xAF", 0, &cp), 0u);      // overlong
  EXPECT_EQ(DecodeUtf8("\xED\xA0\x80", 0, &cp), 0u);  // surrogate
  EXPECT_EQ(DecodeUtf8("\xF4\x90\x80\x80", 0, &cp), 0u);  // above U+10FFFF
  EXPECT_EQ(DecodeUtf8("\xE2\x82", 0, &cp), 0u);      // truncated
  std::string out;
  AppendUtf8(U'\U0001F600', &out);
  EXPECT_EQ(out, "\xF0\x9F\x98\x80");
  EXPECT_EQ(CodePointCount("a\xC3\xA9\xF0\x9F\x98\x80"), 3u);
}

}  // namespace
}  // namespace zs::json
