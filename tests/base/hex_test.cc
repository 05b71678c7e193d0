#include "base/hex.h"

#include <gtest/gtest.h>

#include <string>

#include "base/digest.h"

namespace zs {
namespace {

TEST(HexTest, WritesLowerCaseHighNibbleFirst) {
  EXPECT_EQ(ToHex(std::string("\x00\x0f\xa5\xff", 4)), "000fa5ff");
  std::string out = "x";
  AppendHex("\x12", &out);
  EXPECT_EQ(out, "x12");
  EXPECT_EQ(HexDigit(0x1b), 'b');  // the low four bits only
}

TEST(HexTest, ReadsEitherCaseAndRefusesTheRest) {
  EXPECT_EQ(HexValue('7'), 7);
  EXPECT_EQ(HexValue('c'), 12);
  EXPECT_EQ(HexValue('C'), 12);
  EXPECT_EQ(HexValue('g'), -1);
  EXPECT_EQ(HexValue('/'), -1);
}

TEST(DigestTest, Sha256OfTheEmptyString) {
  EXPECT_EQ(Sha256Digest(""),
            "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

}  // namespace
}  // namespace zs
