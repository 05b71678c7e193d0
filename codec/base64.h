// Standard base64 (RFC 4648, with padding), as Kubernetes encodes Secret
// data. Decoding is strict like Go's base64.StdEncoding: padding required,
// no characters outside the alphabet except CR and LF, which are skipped.
//
// Thread safety: reentrant.
#ifndef ZARF_STATE_CODEC_BASE64_H_
#define ZARF_STATE_CODEC_BASE64_H_

#include <string>
#include <string_view>

#include "codec/status.h"

namespace zs {

std::string Base64Encode(std::string_view bytes);

// Corruption "illegal base64 data at input byte N" on malformed input.
Result<std::string> Base64Decode(std::string_view text);

// Length of the decoded form of well-formed `text`, without decoding.
std::size_t Base64DecodedSize(std::string_view text);

}  // namespace zs

#endif  // ZARF_STATE_CODEC_BASE64_H_
