#include "codec/base64.h"

#include <gtest/gtest.h>

namespace zs {
namespace {

TEST(Base64Test, RoundTripsEveryLengthAndByte) {
  std::string bytes;
  for (int i = 0; i < 300; ++i) {
    bytes.push_back(static_cast<char>(i * 37));
    auto back = Base64Decode(Base64Encode(bytes));
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(*back, bytes);
    EXPECT_EQ(Base64DecodedSize(Base64Encode(bytes)), bytes.size());
  }
  EXPECT_EQ(Base64Encode("ab"), "YWI=");
}

TEST(Base64Test, MalformedInputNamesTheByte) {
  EXPECT_EQ(Base64Decode("YW*=").status().message(), "illegal base64 data at input byte 2");
  EXPECT_FALSE(Base64Decode("YWI").ok());
  EXPECT_FALSE(Base64Decode("Y===").ok());
  EXPECT_FALSE(Base64Decode("YWI=YWI=").ok());
  EXPECT_EQ(*Base64Decode("YW\nI=\r\n"), "ab");
}

}  // namespace
}  // namespace zs
