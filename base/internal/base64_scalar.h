// The portable base64 paths of base/base64.h, without the SIMD blocks that
// Base64Encode and Base64Decode run first where the CPU has AVX2
// (base/cpu_dispatch.h). They are
// the reference the SIMD paths are tested against: same bytes out, same
// error (and byte offset) for every input.
//
// Internal to base/: nothing outside the folder includes this header, except
// its tests.
//
// Thread safety: reentrant.
#ifndef ZARF_STATE_BASE_INTERNAL_BASE64_SCALAR_H_
#define ZARF_STATE_BASE_INTERNAL_BASE64_SCALAR_H_

#include <string>
#include <string_view>

#include "base/status.h"

namespace zs::internal {

// Base64Encode, one 3-byte group at a time.
std::string Base64EncodeScalar(std::string_view bytes);

// Base64Decode, one character or quad at a time; same errors.
Result<std::string> Base64DecodeScalar(std::string_view text);

}  // namespace zs::internal

#endif  // ZARF_STATE_BASE_INTERNAL_BASE64_SCALAR_H_
