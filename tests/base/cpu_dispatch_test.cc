#include "base/cpu_dispatch.h"

#include <gtest/gtest.h>

#include <algorithm>

#include <ostream>
#include <string>
#include <vector>

#include "base/base64.h"
#include "base/internal/base64_scalar.h"
#include "base/internal/simd_kernels.h"
#include "json/go_json.h"
#include "tests/test_random.h"

namespace zs::internal {
namespace {

// Skips the current test when this CPU cannot run `level`'s kernels.
#define SKIP_UNLESS_CPU_RUNS(level)                                                    \
  if (static_cast<int>(level) > static_cast<int>(DetectedSimdLevel()))                 \
  GTEST_SKIP() << "this CPU has no " << SimdLevelName(level) << " (it runs up to "     \
               << SimdLevelName(DetectedSimdLevel()) << ")"

// Restores the detected level when a test that forced one ends.
class ForcedLevel {
 public:
  explicit ForcedLevel(SimdLevel level) { ForceSimdLevelForTesting(level); }
  ~ForcedLevel() { ForceSimdLevelForTesting(DetectedSimdLevel()); }
  ForcedLevel(const ForcedLevel&) = delete;
  ForcedLevel& operator=(const ForcedLevel&) = delete;
};

constexpr SimdLevel kAllLevels[] = {SimdLevel::kScalar, SimdLevel::kSse2, SimdLevel::kAvx2,
                                    SimdLevel::kAvx512};

// Strings of every length up to 140 holding printable ASCII and at most one
// byte from `specials` at every position, each scanned from a few offsets.
template <typename Check>
void ForEachScanCase(const std::string& specials, Check check) {
  testing::Rng rng(7);
  for (std::size_t len = 0; len <= 140; ++len) {
    for (std::size_t at = 0; at <= len; ++at) {
      std::string s = testing::RandomText(rng, len, testing::kPrintableAscii);
      if (at < len) s[at] = specials[rng.Below(specials.size())];
      // From before the special, at it, and just past it (the special then
      // sits among the bytes a step over the string's last 16 also reads).
      for (std::size_t from : {std::size_t{0}, at / 2, at, std::min(at + 1, len)}) check(s, from);
    }
  }
}

// What Go's encoder copies as it is: printable ASCII but '"', '\\', '<',
// '>' and '&'.
std::size_t ReferenceSkipPlain(const std::string& s, std::size_t i) {
  for (; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x20 || c >= 0x80 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&') break;
  }
  return i;
}

std::size_t ReferenceFindSpecial(const std::string& s, std::size_t i) {
  for (; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x20 || c == '"' || c == '\\') break;
  }
  return i;
}

struct ScanKernel {
  const char* name;
  SimdLevel level;
  SimdKernels::ScanFn fn;
};
void PrintTo(const ScanKernel& kernel, std::ostream* os) { *os << kernel.name; }

class SkipPlainBytesKernelTest : public ::testing::TestWithParam<ScanKernel> {};

TEST_P(SkipPlainBytesKernelTest, StopsAtTheFirstByteGoEscapes) {
  SKIP_UNLESS_CPU_RUNS(GetParam().level);
  const std::string specials = std::string("\"\\<>&\n\x1f\x7f\x80\xff", 10) + std::string(1, '\0');
  ForEachScanCase(specials, [](const std::string& s, std::size_t from) {
    ASSERT_EQ(GetParam().fn(s, from), ReferenceSkipPlain(s, from))
        << GetParam().name << " len " << s.size() << " from " << from;
  });
}

INSTANTIATE_TEST_SUITE_P(
    EveryWidth, SkipPlainBytesKernelTest,
    ::testing::Values(ScanKernel{"Scalar", SimdLevel::kScalar, SkipPlainBytesScalar},
                      ScanKernel{"Sse2", SimdLevel::kSse2, SkipPlainBytesSse2},
                      ScanKernel{"Avx2", SimdLevel::kAvx2, SkipPlainBytesAvx2},
                      ScanKernel{"Avx512", SimdLevel::kAvx512, SkipPlainBytesAvx512}),
    [](const auto& info) { return std::string(info.param.name); });

class FindStringSpecialKernelTest : public ::testing::TestWithParam<ScanKernel> {};

TEST_P(FindStringSpecialKernelTest, StopsAtQuoteBackslashOrControlByte) {
  SKIP_UNLESS_CPU_RUNS(GetParam().level);
  // 0x7f, '<' and bytes >= 0x80 are not special here.
  const std::string specials = std::string("\"\\\n\x1f\x7f\x80\xff<", 8) + std::string(1, '\0');
  ForEachScanCase(specials, [](const std::string& s, std::size_t from) {
    ASSERT_EQ(GetParam().fn(s, from), ReferenceFindSpecial(s, from))
        << GetParam().name << " len " << s.size() << " from " << from;
  });
}

INSTANTIATE_TEST_SUITE_P(
    EveryWidth, FindStringSpecialKernelTest,
    ::testing::Values(ScanKernel{"Scalar", SimdLevel::kScalar, FindStringSpecialScalar},
                      ScanKernel{"Sse2", SimdLevel::kSse2, FindStringSpecialSse2},
                      ScanKernel{"Avx2", SimdLevel::kAvx2, FindStringSpecialAvx2}),
    [](const auto& info) { return std::string(info.param.name); });

// The dispatched scans look at the first 16 bytes inline and hand the rest
// to the level's kernel: every split point, at every level.
TEST(CpuDispatchTest, TheDispatchedScansStopWhereTheReferenceDoes) {
  const std::string go_specials =
      std::string("\"\\<>&\n\x1f\x7f\x80\xff", 10) + std::string(1, '\0');
  const std::string json_specials = std::string("\"\\\n\x1f\x7f\x80\xff<", 8) + std::string(1, '\0');
  for (SimdLevel level : kAllLevels) {
    if (static_cast<int>(level) > static_cast<int>(DetectedSimdLevel())) continue;
    ForcedLevel forced(level);
    ForEachScanCase(go_specials, [&](const std::string& s, std::size_t from) {
      ASSERT_EQ(DispatchSkipPlainBytes(s, from), ReferenceSkipPlain(s, from))
          << SimdLevelName(level) << " len " << s.size() << " from " << from;
    });
    ForEachScanCase(json_specials, [&](const std::string& s, std::size_t from) {
      ASSERT_EQ(DispatchFindStringSpecial(s, from), ReferenceFindSpecial(s, from))
          << SimdLevelName(level) << " len " << s.size() << " from " << from;
    });
  }
}

TEST(Base64BlockKernelTest, Avx2EncodesWholeBlocksLikeTheScalarPath) {
  SKIP_UNLESS_CPU_RUNS(SimdLevel::kAvx2);
  testing::Rng rng(3);
  for (std::size_t n = 0; n <= 200; ++n) {
    const std::string bytes = testing::RandomBytes(rng, n);
    std::string out(n / 3 * 4 + 32, '\0');
    const std::size_t used =
        Base64EncodeBlocksAvx2(reinterpret_cast<const unsigned char*>(bytes.data()), n, out.data());
    // Whole blocks of 24 while 28 bytes can be read.
    ASSERT_EQ(used, n < 28 ? 0 : (n - 28) / 24 * 24 + 24) << n;
    const std::string want = Base64EncodeScalar(bytes.substr(0, used));
    ASSERT_EQ(out.substr(0, want.size()), want) << n;
  }
}

TEST(Base64BlockKernelTest, Avx2DecodesAlphabetBlocksAndStopsAtAnythingElse) {
  SKIP_UNLESS_CPU_RUNS(SimdLevel::kAvx2);
  testing::Rng rng(5);
  for (std::size_t n = 0; n <= 200; ++n) {
    const std::string text = Base64EncodeScalar(testing::RandomBytes(rng, n));
    for (std::size_t bad_at : {text.size(), text.size() / 2, std::size_t{0}}) {
      std::string t = text;
      if (bad_at < t.size()) t[bad_at] = '*';
      std::string out(t.size() / 4 * 3 + 32, '\0');
      const std::size_t used = Base64DecodeBlocksAvx2(
          reinterpret_cast<const unsigned char*>(t.data()), t.size(), out.data());
      // Blocks of 32 up to the block holding padding or the bad byte.
      std::size_t want_used = 0;
      while (want_used + 32 <= t.size() &&
             t.substr(want_used, 32).find_first_of("=*") == std::string::npos) {
        want_used += 32;
      }
      ASSERT_EQ(used, want_used) << n << " bad at " << bad_at;
      const Result<std::string> want = Base64DecodeScalar(t.substr(0, used));
      ASSERT_TRUE(want.ok());
      ASSERT_EQ(out.substr(0, want->size()), *want) << n;
    }
  }
}

TEST(Base64BlockKernelTest, TheNoSimdMemberConsumesNothing) {
  const std::string text(64, 'A');
  char out[64];
  EXPECT_EQ(Base64NoBlocks(reinterpret_cast<const unsigned char*>(text.data()), 64, out), 0u);
}

// What the public codec functions give at one level, for comparing levels.
std::vector<std::string> PublicOutputs() {
  testing::Rng rng(9);
  std::vector<std::string> out;
  for (std::size_t n : {0u, 5u, 47u, 100u, 4099u}) {
    const std::string bytes = testing::RandomBytes(rng, n);
    const std::string text = Base64Encode(bytes);
    out.push_back(text);
    out.push_back(Base64Decode(text).value());
    std::string bad = text + text;
    if (!bad.empty()) bad[bad.size() * 2 / 3] = '!';
    out.push_back(std::string(Base64Decode(bad).status().message()));
    std::string go;
    json::AppendGoString(&go, bytes + "plain text <&> \"quoted\" \\ " + std::string(70, 'x'));
    out.push_back(go);
  }
  const std::string doc =
      " { \"a\" : [ \"" + std::string(80, 'y') + "\\n\\u00e9<&>\" , 1.50 ] , \"b\" : \"" +
      std::string(100, 'z') + "\\\"\" } ";
  std::string compact;
  out.push_back(std::to_string(json::AppendCompactFromText(&compact, doc, 64)));
  out.push_back(compact);
  return out;
}

TEST(CpuDispatchTest, EveryLevelGivesThePublicFunctionsTheSameBytes) {
  std::vector<std::string> want;
  {
    ForcedLevel scalar(SimdLevel::kScalar);
    EXPECT_EQ(ActiveSimdLevel(), SimdLevel::kScalar);
    want = PublicOutputs();
  }
  for (SimdLevel level : kAllLevels) {
    if (static_cast<int>(level) > static_cast<int>(DetectedSimdLevel())) continue;
    ForcedLevel forced(level);
    ASSERT_EQ(ActiveSimdLevel(), level);
    EXPECT_EQ(PublicOutputs(), want) << SimdLevelName(level);
  }
}

TEST(CpuDispatchTest, TheDetectedLevelIsActiveAndNoTestCanForceAWiderOne) {
  EXPECT_EQ(ActiveSimdLevel(), DetectedSimdLevel());
  ForcedLevel widest(SimdLevel::kAvx512);
  EXPECT_EQ(ActiveSimdLevel(), DetectedSimdLevel());
  EXPECT_EQ(SimdLevelName(SimdLevel::kAvx2), "avx2");
}

}  // namespace
}  // namespace zs::internal
