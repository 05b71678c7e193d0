#include "base/base64.h"

#include <gtest/gtest.h>

#include <cctype>
#include <string>

#include "base/internal/base64_scalar.h"
#include "tests/test_random.h"

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

// The SIMD blocks (where built) against the portable reference path: same
// text, same bytes, same error offset.
void ExpectSameDecode(const std::string& text) {
  const Result<std::string> fast = Base64Decode(text);
  const Result<std::string> ref = internal::Base64DecodeScalar(text);
  ASSERT_EQ(fast.ok(), ref.ok()) << text;
  if (fast.ok()) {
    ASSERT_EQ(*fast, *ref) << text;
  } else {
    ASSERT_EQ(fast.status().message(), ref.status().message()) << text;
  }
  std::string reused = "stale bytes from an earlier call";
  const Status to = Base64DecodeTo(text, &reused);
  ASSERT_EQ(to.ok(), ref.ok()) << text;
  if (to.ok()) {
    ASSERT_EQ(reused, *ref) << text;
  }
}

TEST(Base64Test, EncodeMatchesTheScalarPathForEveryLength) {
  testing::Rng rng(7);
  for (std::size_t n = 0; n <= 300; ++n) {
    const std::string bytes = testing::RandomBytes(rng, n);
    ASSERT_EQ(Base64Encode(bytes), internal::Base64EncodeScalar(bytes)) << n;
  }
  for (std::size_t n : {4095u, 102400u, 1048577u}) {
    const std::string bytes = testing::RandomBytes(rng, n);
    ASSERT_EQ(Base64Encode(bytes), internal::Base64EncodeScalar(bytes)) << n;
  }
  // Every sextet in every position of a block.
  std::string all;
  for (int i = 0; i < 3 * 256; ++i) all.push_back(static_cast<char>(i * 7 + i / 256));
  EXPECT_EQ(Base64Encode(all), internal::Base64EncodeScalar(all));
}

TEST(Base64Test, EncodeAppendKeepsWhatWasThereAndAddsTheEncoding) {
  testing::Rng rng(5);
  for (std::size_t n : {0u, 1u, 2u, 3u, 31u, 32u, 33u, 95u, 96u, 97u, 4097u}) {
    const std::string bytes = testing::RandomBytes(rng, n);
    std::string out = "\"prefix";  // not a multiple of 3 or 4 bytes
    Base64EncodeAppend(&out, bytes);
    ASSERT_EQ(out, "\"prefix" + internal::Base64EncodeScalar(bytes)) << n;
  }
}

TEST(Base64Test, DecodeMatchesTheScalarPathForEveryLength) {
  testing::Rng rng(11);
  for (std::size_t n = 0; n <= 300; ++n) {
    const std::string bytes = testing::RandomBytes(rng, n);
    const std::string text = internal::Base64EncodeScalar(bytes);
    ASSERT_EQ(*Base64Decode(text), bytes) << n;
    ExpectSameDecode(text);
    // Unpadded and over-padded forms, cut at every length near the end.
    for (std::size_t cut = text.size() > 6 ? text.size() - 6 : 0; cut < text.size(); ++cut) {
      ExpectSameDecode(text.substr(0, cut));
    }
    ExpectSameDecode(text + "=");
    ExpectSameDecode(text + text);
  }
  for (std::size_t n : {4095u, 102400u, 1048577u}) {
    const std::string bytes = testing::RandomBytes(rng, n);
    const std::string text = Base64Encode(bytes);
    ASSERT_EQ(*Base64Decode(text), bytes) << n;
    ExpectSameDecode(text);
  }
}

TEST(Base64Test, EveryInvalidByteAtEveryPositionFailsLikeTheScalarPath) {
  // 3 blocks of 32 and a tail of 48 with padding: positions cover every lane
  // of a block, block boundaries and the tail.
  testing::Rng rng(13);
  const std::string text = internal::Base64EncodeScalar(testing::RandomBytes(rng, 107));
  ASSERT_EQ(text.size(), 144u);
  int invalid = 0;
  for (int b = 0; b < 256; ++b) {
    const char c = static_cast<char>(b);
    if (std::isalnum(b) && b < 0x80) continue;
    if (c == '+' || c == '/') continue;
    ++invalid;
    for (std::size_t p = 0; p < text.size(); ++p) {
      std::string bad = text;
      bad[p] = c;
      ExpectSameDecode(bad);
      if (c != '\r' && c != '\n' && c != '=') {
        const Result<std::string> r = Base64Decode(bad);
        ASSERT_FALSE(r.ok());
        ASSERT_EQ(r.status().message(), "illegal base64 data at input byte " + std::to_string(p));
      }
    }
  }
  EXPECT_EQ(invalid, 256 - 64);
}

TEST(Base64Test, LineBreaksAnywhereAreSkippedLikeTheScalarPath) {
  testing::Rng rng(17);
  for (int round = 0; round < 400; ++round) {
    const std::string bytes = testing::RandomBytes(rng, rng() % 400);
    std::string text = Base64Encode(bytes);
    const int breaks = static_cast<int>(rng() % 4);
    for (int k = 0; k < breaks; ++k) {
      const std::size_t at = rng() % (text.size() + 1);
      text.insert(at, (rng() & 1) ? "\r\n" : "\n");
    }
    ASSERT_EQ(*Base64Decode(text), bytes) << text;
    ExpectSameDecode(text);
  }
}

TEST(Base64Test, RandomTextDecodesLikeTheScalarPath) {
  // Mostly alphabet, with a sprinkle of padding, line breaks and junk.
  testing::Rng rng(19);
  const std::string alphabet =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const std::string odd = "=\r\n*-_ \x80\xff";
  for (int round = 0; round < 20000; ++round) {
    const std::size_t n = rng() % 200;
    std::string text;
    for (std::size_t i = 0; i < n; ++i) {
      text.push_back(rng() % 64 == 0 ? odd[rng() % odd.size()] : alphabet[rng() % 64]);
    }
    ExpectSameDecode(text);
  }
}

}  // namespace
}  // namespace zs
