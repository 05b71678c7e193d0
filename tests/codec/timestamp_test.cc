#include "codec/timestamp.h"

#include <gtest/gtest.h>

namespace zs {
namespace {

TEST(TimestampTest, FormatsLikeGoRfc3339Nano) {
  EXPECT_EQ(FormatRfc3339(*ParseRfc3339("2025-01-01T00:00:00Z")), "2025-01-01T00:00:00Z");
  EXPECT_EQ(FormatRfc3339(*ParseRfc3339("2025-01-01T00:00:00.000Z")), "2025-01-01T00:00:00Z");
  EXPECT_EQ(FormatRfc3339(*ParseRfc3339("2025-01-01T00:00:00.120Z")), "2025-01-01T00:00:00.12Z");
  EXPECT_EQ(FormatRfc3339(*ParseRfc3339("2025-01-01T00:00:00.123456789Z")),
            "2025-01-01T00:00:00.123456789Z");
  EXPECT_EQ(FormatRfc3339(*ParseRfc3339("2024-02-29T23:59:59+05:30")), "2024-02-29T23:59:59+05:30");
  EXPECT_EQ(FormatRfc3339(Timestamp{}), "0001-01-01T00:00:00Z");
  EXPECT_EQ(FormatRfc3339(Timestamp::FromUnixNanos(0)), "1970-01-01T00:00:00Z");
}

TEST(TimestampTest, OffsetsCompareAsInstants) {
  EXPECT_EQ(*ParseRfc3339("2025-01-01T02:00:00+02:00"), *ParseRfc3339("2025-01-01T00:00:00Z"));
  EXPECT_LT(*ParseRfc3339("2025-01-01T00:00:00.1Z"), *ParseRfc3339("2025-01-01T00:00:00.2Z"));
}

TEST(TimestampTest, RejectsWhatGoRejects) {
  for (const char* bad : {"", "2025-01-01", "2025-01-01T00:00:00", "2025-13-01T00:00:00Z",
                          "2025-02-29T00:00:00Z", "2025-01-01T24:00:00Z", "2025-01-01T00:00:00.Z",
                          "2025-01-01 00:00:00Z", "2025-01-01T00:00:00Zjunk"}) {
    EXPECT_FALSE(ParseRfc3339(bad).ok()) << bad;
  }
}

TEST(TimestampTest, AgesReadLikeKubectl) {
  EXPECT_EQ(FormatAge(42), "42s");
  EXPECT_EQ(FormatAge(6 * 3600 + 120), "6h2m");
  EXPECT_EQ(FormatAge(2 * 86400 + 3 * 3600), "2d3h");
}

}  // namespace
}  // namespace zs
