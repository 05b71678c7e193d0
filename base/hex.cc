#include "base/hex.h"

namespace zs {

void AppendHex(std::string_view bytes, std::string* out) {
  const std::size_t at = out->size();
  out->resize(at + 2 * bytes.size());
  char* p = out->data() + at;
  for (const char c : bytes) {
    const auto b = static_cast<unsigned char>(c);
    *p++ = HexDigit(b >> 4);
    *p++ = HexDigit(b);
  }
}

std::string ToHex(std::string_view bytes) {
  std::string out;
  AppendHex(bytes, &out);
  return out;
}

}  // namespace zs
