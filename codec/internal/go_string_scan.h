// The scan shared by the Go-exact string writers (go_json.cc, go_json_text.cc).
//
// Internal to codec/.
#ifndef ZARF_STATE_CODEC_INTERNAL_GO_STRING_SCAN_H_
#define ZARF_STATE_CODEC_INTERNAL_GO_STRING_SCAN_H_

#include <cstddef>
#include <string_view>

namespace zs::json::internal {

// The index of the first byte of `s` at or after `i` that AppendGoString
// does not copy as it is (control, '"', '\\', '<', '>', '&', or >= 0x80), or
// s.size(). SIMD where the build has it.
std::size_t SkipPlainBytes(std::string_view s, std::size_t i);

}  // namespace zs::json::internal

#endif  // ZARF_STATE_CODEC_INTERNAL_GO_STRING_SCAN_H_
