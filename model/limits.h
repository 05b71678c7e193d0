// The size limit every stored form of a package (JSON, compact) must fit
// under: a Kubernetes Secret's.
#ifndef ZARF_STATE_MODEL_LIMITS_H_
#define ZARF_STATE_MODEL_LIMITS_H_

#include <cstddef>

namespace zs {

// The API server refuses a Secret whose decoded data adds up to more.
inline constexpr std::size_t kSecretSizeLimit = 1048576;

}  // namespace zs

#endif  // ZARF_STATE_MODEL_LIMITS_H_
