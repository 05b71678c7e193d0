// The scan shared by the Go-exact string writers (go_json.cc, go_json_text.cc).
//
// Internal to codec/.
#ifndef ZARF_STATE_CODEC_INTERNAL_GO_STRING_SCAN_H_
#define ZARF_STATE_CODEC_INTERNAL_GO_STRING_SCAN_H_

#include <cstddef>
#include <string_view>

namespace zs::json::internal {

// The index of the first byte of `s` at or after `i` that AppendGoString
// does not copy as it is (control, '"', '\\', '<', '>', '&', or >= 0x80), or
// s.size(). Long strings (base64 Secret data, package descriptions) are
// mostly plain, so it takes kWidestPlainScan bytes a step: 64 where the build
// has AVX-512BW (the last step a masked load), else 32 (AVX2), then 16
// (SSE2), then one.
std::size_t SkipPlainBytes(std::string_view s, std::size_t i);

#if defined(__AVX512BW__) && defined(__BMI2__)
inline constexpr int kWidestPlainScan = 64;
#elif defined(__AVX2__)
inline constexpr int kWidestPlainScan = 32;
#elif defined(__SSE2__)
inline constexpr int kWidestPlainScan = 16;
#else
inline constexpr int kWidestPlainScan = 1;
#endif

// SkipPlainBytes as a build whose widest step is `width` (64, 32, 16 or 1)
// would run it; a width this build has no code for scans a byte at a time.
// For tests of every width.
std::size_t SkipPlainBytesWithWidth(std::string_view s, std::size_t i, int width);

}  // namespace zs::json::internal

#endif  // ZARF_STATE_CODEC_INTERNAL_GO_STRING_SCAN_H_
