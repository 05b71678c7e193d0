#include "json/text_encoding.h"

#include <gtest/gtest.h>

#include <string>

namespace zs {
namespace {

// `s` (ASCII and the BMP) as UTF-16 code units, high byte first when `be`.
std::string Utf16(std::u16string_view s, bool be) {
  std::string out = be ? "\xFE\xFF" : "\xFF\xFE";
  for (char16_t u : s) {
    const char hi = static_cast<char>(u >> 8), lo = static_cast<char>(u & 0xFF);
    out += be ? hi : lo;
    out += be ? lo : hi;
  }
  return out;
}

Result<std::string> Decode(std::string_view text) {
  std::string storage;
  Status s = DecodeToUtf8(&text, &storage);
  if (!s.ok()) return s;
  return std::string(text);
}

TEST(TextEncodingTest, Utf8PassesThroughWithoutACopyAndLosesItsBom) {
  const std::string plain = "kind: Secret\n";
  std::string_view text = plain;
  std::string storage;
  ASSERT_TRUE(DecodeToUtf8(&text, &storage).ok());
  EXPECT_EQ(text.data(), plain.data());
  const std::string bom = "\xEF\xBB\xBF{\"a\": 1}";
  text = bom;
  ASSERT_TRUE(DecodeToUtf8(&text, &storage).ok());
  EXPECT_EQ(text, "{\"a\": 1}");
  EXPECT_TRUE(storage.empty());
}

TEST(TextEncodingTest, Utf16WithABomIsDecodedInBothByteOrders) {
  // U+00E9, U+2211 and U+1F984 (a surrogate pair) cover 2-, 3- and 4-byte UTF-8.
  const std::u16string text = u"a: \u00e9\u2211\U0001F984\n";
  for (bool be : {false, true}) {
    auto r = Decode(Utf16(text, be));
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    EXPECT_EQ(*r, "a: \u00e9\u2211\U0001F984\n") << (be ? "BE" : "LE");
  }
}

TEST(TextEncodingTest, BrokenUtf16AndUnmarkedUtf16AreRefusedWithTheirPlace) {
  struct Case {
    std::string text;
    const char* message;
  };
  const Case kCases[] = {
      {Utf16(u"ab", false) + "x", "UTF-16LE text of 7 bytes is cut in the middle of a code unit"},
      {Utf16(std::u16string(u"a") + char16_t{0xD83D} + u"b", false),
       "UTF-16LE: unpaired high surrogate at byte 4"},
      {Utf16(std::u16string(u"a") + char16_t{0xDC00}, true),
       "UTF-16BE: unpaired low surrogate at byte 4"},
      {Utf16(std::u16string(u"a") + char16_t{0xD83D}, true),
       "UTF-16BE: unpaired high surrogate at byte 4"},
      {std::string("{\0\"\0", 4), "UTF-16 without a byte order mark is not accepted"},
      {std::string("\0{\0\"", 4), "UTF-16 without a byte order mark is not accepted"},
      {std::string("\xFF\xFE\0\0{\0\0\0", 8), "UTF-32 text is not supported"},
  };
  for (const Case& c : kCases) {
    auto r = Decode(c.text);
    ASSERT_FALSE(r.ok()) << c.message;
    EXPECT_EQ(r.status().code(), Status::Code::kInvalidArgument);
    EXPECT_EQ(r.status().message().substr(0, 10), "encoding: ");
    EXPECT_NE(r.status().message().find(c.message), std::string::npos) << r.status().ToString();
  }
}

}  // namespace
}  // namespace zs
