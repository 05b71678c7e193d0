#include "base/cpu_dispatch.h"

#include "base/internal/simd_kernels.h"

namespace zs::internal {
namespace {

SimdLevel Detect() {
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("bmi2")) {
    return SimdLevel::kAvx512;
  }
  if (__builtin_cpu_supports("avx2")) return SimdLevel::kAvx2;
  return SimdLevel::kSse2;  // every x86-64 CPU has SSE2
}

// The level the table holds; -1 while it still holds the stubs.
std::atomic<int> active_level{-1};

// The kernels of each level, indexed by SimdLevel.
struct LevelKernels {
  SimdKernels::ScanFn skip_plain_bytes;
  SimdKernels::ScanFn find_string_special;
  SimdKernels::BlocksFn base64_decode_blocks;
  SimdKernels::BlocksFn base64_encode_blocks;
};
constexpr LevelKernels kByLevel[] = {
    {SkipPlainBytesScalar, FindStringSpecialScalar, Base64NoBlocks, Base64NoBlocks},
    {SkipPlainBytesSse2, FindStringSpecialSse2, Base64NoBlocks, Base64NoBlocks},
    {SkipPlainBytesAvx2, FindStringSpecialAvx2, Base64DecodeBlocksAvx2, Base64EncodeBlocksAvx2},
    {SkipPlainBytesAvx512, FindStringSpecialAvx2, Base64DecodeBlocksAvx2, Base64EncodeBlocksAvx2},
};

void Install(SimdLevel level) {
  constexpr auto kRelaxed = std::memory_order_relaxed;
  const LevelKernels& from = kByLevel[static_cast<int>(level)];
  g_simd_kernels.skip_plain_bytes.store(from.skip_plain_bytes, kRelaxed);
  g_simd_kernels.find_string_special.store(from.find_string_special, kRelaxed);
  g_simd_kernels.base64_decode_blocks.store(from.base64_decode_blocks, kRelaxed);
  g_simd_kernels.base64_encode_blocks.store(from.base64_encode_blocks, kRelaxed);
  active_level.store(static_cast<int>(level), kRelaxed);
}

// What the table starts with: the first call of each kind fills the whole
// table for this CPU and forwards to the kernel it installed.
std::size_t ResolveSkipPlainBytes(std::string_view s, std::size_t i) {
  Install(DetectedSimdLevel());
  return DispatchSkipPlainBytes(s, i);
}
std::size_t ResolveFindStringSpecial(std::string_view s, std::size_t i) {
  Install(DetectedSimdLevel());
  return DispatchFindStringSpecial(s, i);
}
std::size_t ResolveBase64DecodeBlocks(const unsigned char* in, std::size_t n, char* out) {
  Install(DetectedSimdLevel());
  return DispatchBase64DecodeBlocks(in, n, out);
}
std::size_t ResolveBase64EncodeBlocks(const unsigned char* in, std::size_t n, char* out) {
  Install(DetectedSimdLevel());
  return DispatchBase64EncodeBlocks(in, n, out);
}

}  // namespace

constinit SimdKernels g_simd_kernels = {
    ResolveSkipPlainBytes,
    ResolveFindStringSpecial,
    ResolveBase64DecodeBlocks,
    ResolveBase64EncodeBlocks,
};

std::string_view SimdLevelName(SimdLevel level) {
  switch (level) {
    case SimdLevel::kScalar:
      return "scalar";
    case SimdLevel::kSse2:
      return "sse2";
    case SimdLevel::kAvx2:
      return "avx2";
    case SimdLevel::kAvx512:
      return "avx512";
  }
  return "unknown";
}

SimdLevel DetectedSimdLevel() {
  static const SimdLevel level = Detect();
  return level;
}

SimdLevel ActiveSimdLevel() {
  const int level = active_level.load(std::memory_order_relaxed);
  if (level < 0) {
    Install(DetectedSimdLevel());
    return DetectedSimdLevel();
  }
  return static_cast<SimdLevel>(level);
}

SimdLevel ForceSimdLevelForTesting(SimdLevel level) {
  const SimdLevel before = ActiveSimdLevel();
  // A kernel the CPU lacks would be SIGILL, and asserts are off in Release.
  if (static_cast<int>(level) > static_cast<int>(DetectedSimdLevel())) level = DetectedSimdLevel();
  Install(level);
  return before;
}

}  // namespace zs::internal
