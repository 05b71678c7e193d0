// The string-scan kernels of base/internal/simd_kernels.h, one function per
// width: SkipPlainBytes for the Go-exact string writer and FindStringSpecial
// for the JSON text compactor (both in json/). base/cpu_dispatch.cc picks
// the width once from the CPU.
#include <immintrin.h>

#include <array>
#include <cstdint>

#include "base/cpu_dispatch.h"
#include "base/internal/simd_kernels.h"

namespace zs::internal {
namespace {

// Bytes that Go's encoder copies as they are: printable ASCII but '"',
// '\\', '<', '>' and '&'.
constexpr std::array<bool, 256> MakePlainBytes() {
  std::array<bool, 256> t{};
  for (int c = 0x20; c < 0x80; ++c) {
    t[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&';
  }
  return t;
}
constexpr std::array<bool, 256> kPlainByte = MakePlainBytes();

}  // namespace

// The string scan at every width (simd_kernels.h); cpu_dispatch.cc picks one.
// A byte is special when it is a control byte, '"', '\\', '<', '>', '&' or
// >= 0x80. The vector tests compare signed bytes, so bytes >= 0x80 are
// negative and `< 0x20` flags them too.

std::size_t SkipPlainBytesScalar(std::string_view s, std::size_t i) {
  while (i < s.size() && kPlainByte[static_cast<unsigned char>(s[i])]) ++i;
  return i;
}

std::size_t SkipPlainBytesSse2(std::string_view s, std::size_t i) {
  while (i + 16 <= s.size()) {
    if (const unsigned mask = PlainBytesMask16(s.data() + i); mask != 0) {
      return i + static_cast<std::size_t>(__builtin_ctz(mask));
    }
    i += 16;
  }
  return SkipPlainBytesOfRest(s, i);
}

__attribute__((target("avx2"))) std::size_t SkipPlainBytesAvx2(std::string_view s,
                                                               std::size_t i) {
  const __m256i space = _mm256_set1_epi8(0x20);
  while (i + 32 <= s.size()) {
    const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s.data() + i));
    const __m256i special = _mm256_or_si256(
        _mm256_or_si256(_mm256_cmpgt_epi8(space, v), _mm256_cmpeq_epi8(v, _mm256_set1_epi8('"'))),
        _mm256_or_si256(_mm256_or_si256(_mm256_cmpeq_epi8(v, _mm256_set1_epi8('\\')),
                                        _mm256_cmpeq_epi8(v, _mm256_set1_epi8('<'))),
                        _mm256_or_si256(_mm256_cmpeq_epi8(v, _mm256_set1_epi8('>')),
                                        _mm256_cmpeq_epi8(v, _mm256_set1_epi8('&')))));
    if (const unsigned mask = static_cast<unsigned>(_mm256_movemask_epi8(special)); mask != 0) {
      return i + static_cast<std::size_t>(__builtin_ctz(mask));
    }
    i += 32;
  }
  return SkipPlainBytesSse2(s, i);
}

// 64 bytes a step, each test straight into a mask register; the last, short
// step loads only the bytes that are there (masked lanes do not fault), so a
// short string takes one step and no byte loop.
__attribute__((target("avx512bw,bmi2"))) std::size_t SkipPlainBytesAvx512(std::string_view s,
                                                                          std::size_t i) {
  while (i < s.size()) {
    const std::size_t left = s.size() - i;
    const __mmask64 live = left >= 64 ? ~__mmask64{0} : _bzhi_u64(~std::uint64_t{0}, left);
    const __m512i v = _mm512_maskz_loadu_epi8(live, s.data() + i);
    const __mmask64 special =
        (_mm512_cmplt_epi8_mask(v, _mm512_set1_epi8(0x20)) |
         _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('"')) |
         _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('\\')) |
         _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('<')) |
         _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('>')) |
         _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('&'))) &
        live;
    if (special != 0) return i + static_cast<std::size_t>(__builtin_ctzll(special));
    i += 64;
  }
  return s.size();
}


// FindStringSpecial at every width (simd_kernels.h). A byte is a control
// byte when min(byte, 0x1F) == byte, unsigned.

std::size_t FindStringSpecialScalar(std::string_view s, std::size_t i) {
  for (; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c == '"' || c == '\\' || c < 0x20) return i;
  }
  return s.size();
}

std::size_t FindStringSpecialSse2(std::string_view s, std::size_t i) {
  while (i + 16 <= s.size()) {
    if (const unsigned mask = StringSpecialMask16(s.data() + i); mask != 0) {
      return i + static_cast<std::size_t>(__builtin_ctz(mask));
    }
    i += 16;
  }
  return FindStringSpecialScalar(s, i);
}

__attribute__((target("avx2"))) std::size_t FindStringSpecialAvx2(std::string_view s,
                                                                  std::size_t i) {
  const __m256i quote = _mm256_set1_epi8('"');
  const __m256i backslash = _mm256_set1_epi8('\\');
  const __m256i control_max = _mm256_set1_epi8(0x1F);
  while (i + 32 <= s.size()) {
    const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s.data() + i));
    const __m256i control = _mm256_cmpeq_epi8(_mm256_min_epu8(v, control_max), v);
    const __m256i hit = _mm256_or_si256(
        control, _mm256_or_si256(_mm256_cmpeq_epi8(v, quote), _mm256_cmpeq_epi8(v, backslash)));
    if (const unsigned mask = static_cast<unsigned>(_mm256_movemask_epi8(hit)); mask != 0) {
      return i + static_cast<std::size_t>(__builtin_ctz(mask));
    }
    i += 32;
  }
  return FindStringSpecialSse2(s, i);
}

}  // namespace zs::internal
