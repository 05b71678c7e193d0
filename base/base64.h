// Standard base64 (RFC 4648, with padding), as Kubernetes encodes Secret
// data. Decoding is strict like Go's base64.StdEncoding: padding required,
// no characters outside the alphabet except CR and LF, which are skipped.
// Where the CPU has AVX2 (chosen at run time), both directions take 24 bytes (32 characters) at
// a time and fall back to the portable code for the tail and for any block
// holding padding, line breaks or errors, so results and error offsets do
// not depend on the CPU.
//
// Thread safety: reentrant.
#ifndef ZARF_STATE_BASE_BASE64_H_
#define ZARF_STATE_BASE_BASE64_H_

#include <string>
#include <string_view>

#include "base/status.h"

namespace zs {

std::string Base64Encode(std::string_view bytes);

// Appends Base64Encode(bytes) to `*out`, encoding in place: a caller that
// writes the text into a buffer it reuses encodes straight into it.
void Base64EncodeAppend(std::string* out, std::string_view bytes);

// Corruption "illegal base64 data at input byte N" on malformed input.
Result<std::string> Base64Decode(std::string_view text);

// Base64Decode into `*out`, which is overwritten (its capacity is reused, so
// a caller decoding many values can keep one buffer). On error `*out` holds
// an unspecified prefix of the decoded bytes.
Status Base64DecodeTo(std::string_view text, std::string* out);

// Length of the decoded form of well-formed `text`, without decoding.
std::size_t Base64DecodedSize(std::string_view text);

}  // namespace zs

#endif  // ZARF_STATE_BASE_BASE64_H_
