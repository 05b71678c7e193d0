// The one place that decides which SIMD kernels run. The default build
// targets baseline x86-64 (SSE2), so wider kernels are compiled per function
// (`__attribute__((target(...)))`, base/internal/simd_kernels.h) and chosen
// here at run time from what the CPU reports (__builtin_cpu_supports, which
// also checks that the OS saves the wider registers). Every choice gives the
// same bytes and the same errors; only the speed differs.
//
// Levels and what they need:
//   kScalar  nothing (one byte at a time; only reachable through the test
//            hook, since every x86-64 CPU has SSE2)
//   kSse2    x86-64 baseline
//   kAvx2    AVX2
//   kAvx512  AVX-512BW and BMI2
//
// Public in base/ so that json/ (the string scans) and base64 can dispatch;
// the kernels themselves are base/internal/simd_kernels.h.
//
// Thread safety: the Dispatch* calls and the level queries may run on any
// thread; ForceSimdLevelForTesting is for single-threaded tests only.
#ifndef ZARF_STATE_BASE_CPU_DISPATCH_H_
#define ZARF_STATE_BASE_CPU_DISPATCH_H_

#include <emmintrin.h>

#include <atomic>
#include <cstddef>
#include <cstring>
#include <string_view>

namespace zs::internal {

enum class SimdLevel { kScalar = 0, kSse2 = 1, kAvx2 = 2, kAvx512 = 3 };

// "scalar", "sse2", "avx2" or "avx512".
std::string_view SimdLevelName(SimdLevel level);

// The widest level this CPU runs, detected once.
SimdLevel DetectedSimdLevel();

// The table every dispatched call goes through: each member is the widest
// kernel of its kind that the active level allows. It is constant-initialised
// with stubs that detect the CPU, fill the table and forward the call, so it
// works from any static initialiser, and a call costs one load and an
// indirect call. Relaxed atomics: every thread that fills it writes the same
// pointers.
struct SimdKernels {
  using ScanFn = std::size_t (*)(std::string_view s, std::size_t i);
  using BlocksFn = std::size_t (*)(const unsigned char* in, std::size_t n, char* out);
  std::atomic<ScanFn> skip_plain_bytes;     // SkipPlainBytes (go_string_scan.h)
  std::atomic<ScanFn> find_string_special;  // FindStringSpecial* (simd_kernels.h)
  std::atomic<BlocksFn> base64_decode_blocks;
  std::atomic<BlocksFn> base64_encode_blocks;
};
extern SimdKernels g_simd_kernels;

// The 16 bytes at `p` as the SSE2 scans see them (every x86-64 has SSE2):
// masks of the bytes that SkipPlainBytes stops at (PlainBytesMask16) and
// that FindStringSpecial stops at (StringSpecialMask16; simd_kernels.h).
inline unsigned PlainBytesMask16(const char* p) {
  const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  const __m128i special = _mm_or_si128(
      _mm_or_si128(_mm_cmplt_epi8(v, _mm_set1_epi8(0x20)), _mm_cmpeq_epi8(v, _mm_set1_epi8('"'))),
      _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\\')),
                                _mm_cmpeq_epi8(v, _mm_set1_epi8('<'))),
                   _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('>')),
                                _mm_cmpeq_epi8(v, _mm_set1_epi8('&')))));
  return static_cast<unsigned>(_mm_movemask_epi8(special));
}
inline unsigned StringSpecialMask16(const char* p) {
  const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  const __m128i control = _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(0x1F)), v);
  const __m128i hit = _mm_or_si128(control, _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')),
                                                         _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))));
  return static_cast<unsigned>(_mm_movemask_epi8(hit));
}
// SkipPlainBytes over the at most 16 bytes of `s` from `i` to its end, in
// one step and never reading outside `s`: the last 16 bytes of a string that
// has them (bit 0 shifted to byte i), else a copy of the rest over plain
// bytes. A short string, or the end of a longer one, so takes no byte loop.
inline std::size_t SkipPlainBytesOfRest(std::string_view s, std::size_t i) {
  if (i >= s.size()) return i;
  const std::size_t left = s.size() - i;
  unsigned mask = 0;
  if (s.size() >= 16) {
    mask = PlainBytesMask16(s.data() + s.size() - 16) >> (16 - left);
  } else {
    alignas(16) char block[16];
    _mm_store_si128(reinterpret_cast<__m128i*>(block), _mm_set1_epi8('a'));
    std::memcpy(block, s.data() + i, left);
    mask = PlainBytesMask16(block);
  }
  return mask != 0 ? i + static_cast<std::size_t>(__builtin_ctz(mask)) : s.size();
}

// The dispatched calls; see simd_kernels.h for what each computes. The
// scans look at the first 16 bytes inline and call the kernel only past
// them: most strings in a package are shorter than that, and for them the
// call and a wide kernel's set-up would cost more than the scan. The string
// scan takes up to 16 bytes whole (its `s` is the string: they may be all
// that is left).
inline std::size_t DispatchSkipPlainBytes(std::string_view s, std::size_t i) {
  if (i + 16 < s.size()) {
    if (const unsigned mask = PlainBytesMask16(s.data() + i); mask != 0) {
      return i + static_cast<std::size_t>(__builtin_ctz(mask));
    }
    return g_simd_kernels.skip_plain_bytes.load(std::memory_order_relaxed)(s, i + 16);
  }
  return SkipPlainBytesOfRest(s, i);
}
inline std::size_t DispatchFindStringSpecial(std::string_view s, std::size_t i) {
  if (i + 16 <= s.size()) {
    if (const unsigned mask = StringSpecialMask16(s.data() + i); mask != 0) {
      return i + static_cast<std::size_t>(__builtin_ctz(mask));
    }
    i += 16;
  }
  return g_simd_kernels.find_string_special.load(std::memory_order_relaxed)(s, i);
}
inline std::size_t DispatchBase64DecodeBlocks(const unsigned char* in, std::size_t n, char* out) {
  return g_simd_kernels.base64_decode_blocks.load(std::memory_order_relaxed)(in, n, out);
}
inline std::size_t DispatchBase64EncodeBlocks(const unsigned char* in, std::size_t n, char* out) {
  return g_simd_kernels.base64_encode_blocks.load(std::memory_order_relaxed)(in, n, out);
}

// The level whose kernels the table holds (detecting the CPU if nothing has
// yet): DetectedSimdLevel(), unless a test forced another.
SimdLevel ActiveSimdLevel();

// Makes the table hold the kernels of `level`; a level above
// DetectedSimdLevel() is lowered to it (a kernel the CPU lacks would be
// SIGILL). Returns the level active before. For tests that drive the public
// json and base64 functions through every width.
SimdLevel ForceSimdLevelForTesting(SimdLevel level);

}  // namespace zs::internal

#endif  // ZARF_STATE_BASE_CPU_DISPATCH_H_
