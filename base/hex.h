// Hexadecimal digits, the one table of the project: lower-case out (digests,
// JSON \u escapes, byte dumps), either case in.
//
// Thread safety: every function is pure and reentrant.
#ifndef ZARF_STATE_BASE_HEX_H_
#define ZARF_STATE_BASE_HEX_H_

#include <string>
#include <string_view>

namespace zs {

// The lower-case hex digit of the low four bits of `v` ('0'-'9', 'a'-'f').
constexpr char HexDigit(unsigned v) { return "0123456789abcdef"[v & 0xF]; }

// The value of hex digit `c` in either case (0-15), or -1 when `c` is not one.
constexpr int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Appends two lower-case hex digits per byte of `bytes`, high nibble first.
void AppendHex(std::string_view bytes, std::string* out);

// AppendHex into a new string.
std::string ToHex(std::string_view bytes);

}  // namespace zs

#endif  // ZARF_STATE_BASE_HEX_H_
