// gzip (RFC 1952) compression, for measuring Secrets the way Helm stores
// releases: base64(gzip(JSON)). Used by `zarf-state size` and the growth
// benchmark as a fair peer of the compact codec.
//
// Thread safety: reentrant.
#ifndef ZARF_STATE_COMPACT_GZIP_H_
#define ZARF_STATE_COMPACT_GZIP_H_

#include <string>
#include <string_view>

#include "base/status.h"

namespace zs {

// gzip of `bytes` at `level` (1..9; Helm's gzip.Writer uses the default,
// 6; we measure at 9, the peer's best case). IOError only if zlib fails.
Result<std::string> Gzip(std::string_view bytes, int level = 9);

// The size of Gzip(bytes, level), without holding the output: it goes
// through a small buffer and is counted. The same bytes Gzip writes.
Result<std::size_t> GzipSize(std::string_view bytes, int level = 9);

// Inverse of Gzip. Corruption for malformed input.
Result<std::string> Gunzip(std::string_view bytes);

}  // namespace zs

#endif  // ZARF_STATE_COMPACT_GZIP_H_
