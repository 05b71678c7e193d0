#include "base/digest.h"

#include <openssl/evp.h>

#include "base/hex.h"

namespace zs {

std::string Sha256Digest(std::string_view bytes) {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  EVP_Digest(bytes.data(), bytes.size(), md, &len, EVP_sha256(), nullptr);
  std::string out = "sha256:";
  AppendHex(std::string_view(reinterpret_cast<const char*>(md), len), &out);
  return out;
}

std::string Sha1Hex(std::string_view bytes) {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  EVP_Digest(bytes.data(), bytes.size(), md, &len, EVP_sha1(), nullptr);
  std::string out;
  AppendHex(std::string_view(reinterpret_cast<const char*>(md), len), &out);
  return out;
}

}  // namespace zs
