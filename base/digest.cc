#include "base/digest.h"

#include <openssl/evp.h>

#include <cstdio>
#include <cstdlib>

#include "base/hex.h"

#ifndef ZS_LINKED_CRYPTO
#include <dlfcn.h>
#endif

namespace zs {
namespace {

// The three functions of OpenSSL's libcrypto the digests need.
struct Crypto {
  decltype(&::EVP_Digest) digest;
  decltype(&::EVP_sha1) sha1;
  decltype(&::EVP_sha256) sha256;
};

#ifdef ZS_LINKED_CRYPTO
// Linked in (the static release build).
const Crypto& LoadCrypto() {
  static const Crypto crypto{&::EVP_Digest, &::EVP_sha1, &::EVP_sha256};
  return crypto;
}
#else
// Why libcrypto cannot be used, on standard error, then exit 127: the
// package depends on libssl3, which holds it, so a system without it stops
// here, as the dynamic loader would have stopped at start.
[[noreturn]] void CryptoUnavailable(const char* what) {
  const char* why = ::dlerror();
  std::fprintf(stderr, "zarf-state: OpenSSL's libcrypto.so.3, needed for SHA digests, %s: %s\n",
               what, why != nullptr ? why : "(no reason given)");
  std::_Exit(127);
}

// Loaded the first time a digest is taken, not at every start: libcrypto
// brings 21,000 relocations, a sixth of a start-up of zarf-state, which
// most commands (migrate, query, replay) never use.
const Crypto& LoadCrypto() {
  static const Crypto crypto = [] {
    void* lib = ::dlopen("libcrypto.so.3", RTLD_NOW | RTLD_LOCAL);
    if (lib == nullptr) CryptoUnavailable("cannot be loaded");
    Crypto c{};
    c.digest = reinterpret_cast<decltype(c.digest)>(::dlsym(lib, "EVP_Digest"));
    c.sha1 = reinterpret_cast<decltype(c.sha1)>(::dlsym(lib, "EVP_sha1"));
    c.sha256 = reinterpret_cast<decltype(c.sha256)>(::dlsym(lib, "EVP_sha256"));
    if (c.digest == nullptr || c.sha1 == nullptr || c.sha256 == nullptr) {
      CryptoUnavailable("lacks EVP_Digest, EVP_sha1 or EVP_sha256");
    }
    return c;
  }();
  return crypto;
}
#endif

std::string HexDigest(std::string_view bytes, bool sha256, std::string out) {
  const Crypto& crypto = LoadCrypto();
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  crypto.digest(bytes.data(), bytes.size(), md, &len, sha256 ? crypto.sha256() : crypto.sha1(),
                nullptr);
  AppendHex(std::string_view(reinterpret_cast<const char*>(md), len), &out);
  return out;
}

}  // namespace

std::string Sha256Digest(std::string_view bytes) { return HexDigest(bytes, true, "sha256:"); }

std::string Sha1Hex(std::string_view bytes) { return HexDigest(bytes, false, ""); }

}  // namespace zs
