// SHA-256 digests in the "sha256:<hex>" form Zarf writes (configDigest,
// image digests), and the SHA-1 Zarf names manifest releases with, computed
// with OpenSSL.
//
// Thread safety: pure and reentrant.
#ifndef ZARF_STATE_BASE_DIGEST_H_
#define ZARF_STATE_BASE_DIGEST_H_

#include <string>
#include <string_view>

namespace zs {

// "sha256:<64 lower-case hex digits>" of `bytes`.
std::string Sha256Digest(std::string_view bytes);

// 40 lower-case hex digits: SHA-1 of `bytes` (Zarf's manifest release names,
// engine/zarf_charts.h; not used for anything that needs collision resistance).
std::string Sha1Hex(std::string_view bytes);

}  // namespace zs

#endif  // ZARF_STATE_BASE_DIGEST_H_
