#include "model/timestamp.h"
#include "tests/test_random.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

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

// Every field of the format against printf's rendering, over random instants
// of years 1..9999, nanoseconds with 0..9 trailing zeros and zone offsets.
TEST(TimestampTest, FormatMatchesPrintfFieldByField) {
  testing::Rng rng(7);
  for (int i = 0; i < 20000; ++i) {
    const int year = 1 + static_cast<int>(rng() % 9999);
    const int month = 1 + static_cast<int>(rng() % 12);
    const int day = 1 + static_cast<int>(rng() % 28);
    const int hour = static_cast<int>(rng() % 24), minute = static_cast<int>(rng() % 60),
              second = static_cast<int>(rng() % 60);
    int nanos = static_cast<int>(rng() % 1000000000);
    for (int z = static_cast<int>(rng() % 10); z > 0; --z) nanos -= nanos % 10, nanos /= 10;
    const int offset_minutes = static_cast<int>(rng() % 3) == 0 ? 0 : static_cast<int>(rng() % 1439) - 719;
    char text[64];
    std::snprintf(text, sizeof text, "%04d-%02d-%02dT%02d:%02d:%02d", year, month, day, hour, minute,
                  second);
    std::string want = text;
    if (nanos != 0) {
      std::snprintf(text, sizeof text, ".%09d", nanos);
      std::string frac = text;
      while (frac.back() == '0') frac.pop_back();
      want += frac;
    }
    if (offset_minutes == 0) {
      want += 'Z';
    } else {
      const int off = offset_minutes < 0 ? -offset_minutes : offset_minutes;
      std::snprintf(text, sizeof text, "%c%02d:%02d", offset_minutes < 0 ? '-' : '+', off / 60,
                    off % 60);
      want += text;
    }
    auto t = ParseRfc3339(want);
    ASSERT_TRUE(t.ok()) << want;
    ASSERT_EQ(FormatRfc3339(*t), want);
    std::string appended = "x";
    AppendRfc3339(&appended, *t);
    ASSERT_EQ(appended, "x" + want);
  }
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
  EXPECT_EQ(FormatAge(-5), "0s");
  EXPECT_EQ(FormatAge(42), "42s");
  EXPECT_EQ(FormatAge(119), "119s");
  EXPECT_EQ(FormatAge(120), "2m");
  EXPECT_EQ(FormatAge(7 * 60 + 5), "7m5s");
  EXPECT_EQ(FormatAge(12 * 60 + 30), "12m");
  EXPECT_EQ(FormatAge(179 * 60), "179m");
  EXPECT_EQ(FormatAge(3 * 3600 + 12 * 60 + 9), "3h12m");
  EXPECT_EQ(FormatAge(4 * 3600), "4h");
  EXPECT_EQ(FormatAge(6 * 3600 + 120), "6h2m");
  EXPECT_EQ(FormatAge(30 * 3600), "30h");
  EXPECT_EQ(FormatAge(2 * 86400 + 3 * 3600), "2d3h");
  EXPECT_EQ(FormatAge(5 * 86400), "5d");
  EXPECT_EQ(FormatAge(45 * 86400), "45d");
  EXPECT_EQ(FormatAge(2 * 365 * 86400), "2y");
  EXPECT_EQ(FormatAge(2 * 365 * 86400 + 30 * 86400), "2y30d");
  EXPECT_EQ(FormatAge(9 * 365 * 86400 + 30 * 86400), "9y");
}

TEST(TimestampTest, AnAgeCountsWholeSecondsElapsed) {
  const Timestamp then = *ParseRfc3339("2024-05-01T10:20:30.900+02:00");
  const Timestamp now = *ParseRfc3339("2024-05-01T08:21:15.100Z");
  EXPECT_EQ(FormatAge(then, now), "44s");  // 44.2 s elapsed
  EXPECT_EQ(FormatAge(now, then), "0s");   // a clock behind
}

}  // namespace
}  // namespace zs
