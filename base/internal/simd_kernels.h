// Every SIMD kernel of the project, one function per width. Callers do not pick
// among them: base/cpu_dispatch.h does, once, from the CPU. The
// wider kernels are compiled for their instruction set alone
// (`__attribute__((target(...)))`), so calling one on a CPU without it is
// SIGILL: only the dispatcher, and tests that first check
// DetectedSimdLevel(), call them directly.
//
// Each family gives identical results at every width; the scalar member is
// the reference the others are tested against.
//
// Internal to base/.
//
// Thread safety: all are reentrant.
#ifndef ZARF_STATE_BASE_INTERNAL_SIMD_KERNELS_H_
#define ZARF_STATE_BASE_INTERNAL_SIMD_KERNELS_H_

#include <cstddef>
#include <string_view>

namespace zs::internal {

// SkipPlainBytes (go_string_scan.h) 1, 16, 32 or 64 bytes a step; each wide
// kernel finishes a short tail with the narrower ones. Defined in
// string_scan_kernels.cc.
std::size_t SkipPlainBytesScalar(std::string_view s, std::size_t i);
std::size_t SkipPlainBytesSse2(std::string_view s, std::size_t i);
std::size_t SkipPlainBytesAvx2(std::string_view s, std::size_t i);    // AVX2
std::size_t SkipPlainBytesAvx512(std::string_view s, std::size_t i);  // AVX-512BW, BMI2

// The first '"', '\\' or control byte (< 0x20) of `s` at or after `i`, or
// s.size(): where a JSON string's text stops being copied as it is. Defined
// in string_scan_kernels.cc.
std::size_t FindStringSpecialScalar(std::string_view s, std::size_t i);
std::size_t FindStringSpecialSse2(std::string_view s, std::size_t i);
std::size_t FindStringSpecialAvx2(std::string_view s, std::size_t i);  // AVX2

// Base64 blocks, defined in base64.cc. Decode: 32-character blocks of `in`
// (n characters) that hold alphabet characters only, 24 bytes each to `out`;
// stops before the first block holding anything else (padding, a line
// break, an error) or when fewer than 32 characters remain. Encode: whole
// 24-byte blocks while 28 bytes of `in` can be read, 32 characters each to
// `out`. Both return the input consumed; the scalar code does the rest, and
// alone reports errors, so offsets do not depend on the kernel.
std::size_t Base64DecodeBlocksAvx2(const unsigned char* in, std::size_t n, char* out);  // AVX2
std::size_t Base64EncodeBlocksAvx2(const unsigned char* in, std::size_t n, char* out);  // AVX2
// The no-SIMD member of both families: consumes nothing.
std::size_t Base64NoBlocks(const unsigned char* in, std::size_t n, char* out);

}  // namespace zs::internal

#endif  // ZARF_STATE_BASE_INTERNAL_SIMD_KERNELS_H_
