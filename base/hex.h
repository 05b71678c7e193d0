// Lower-case hexadecimal: the one digit table of the project, for digests,
// JSON \u escapes and byte dumps.
//
// Thread safety: every function is pure and reentrant.
#ifndef ZARF_STATE_BASE_HEX_H_
#define ZARF_STATE_BASE_HEX_H_

#include <string>
#include <string_view>

namespace zs {

// The lower-case hex digit of the low four bits of `v` ('0'-'9', 'a'-'f').
constexpr char HexDigit(unsigned v) { return "0123456789abcdef"[v & 0xF]; }

// Appends two lower-case hex digits per byte of `bytes`, high nibble first.
void AppendHex(std::string_view bytes, std::string* out);

// AppendHex into a new string.
std::string ToHex(std::string_view bytes);

}  // namespace zs

#endif  // ZARF_STATE_BASE_HEX_H_
