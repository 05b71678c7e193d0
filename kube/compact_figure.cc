#include "kube/compact_figure.h"

#include "compact/compact.h"
#include "kube/package_secret.h"

namespace zs {

bool CompactFigureWanted(std::string_view stored_payload, std::size_t json_bytes,
                         bool every_secret) {
  return every_secret || compact::LooksCompact(stored_payload) || json_bytes >= kSecretWarnBytes;
}

}  // namespace zs
