// The scan shared by the Go-exact string writers (go_json.cc, go_json_text.cc).
//
// Internal to json/.
#ifndef ZARF_STATE_JSON_INTERNAL_GO_STRING_SCAN_H_
#define ZARF_STATE_JSON_INTERNAL_GO_STRING_SCAN_H_

#include <cstddef>
#include <string_view>

#include "base/cpu_dispatch.h"

namespace zs::json::internal {

// The index of the first byte of `s` at or after `i` that AppendGoString
// does not copy as it is (control, '"', '\\', '<', '>', '&', or >= 0x80), or
// s.size(). Long strings (base64 Secret data, package descriptions) are
// mostly plain, so it takes as many bytes a step as the CPU allows: 64 with
// AVX-512BW (the last step a masked load), 32 with AVX2, else 16 (SSE2).
// The kernel is chosen at run time (base/cpu_dispatch.h).
inline std::size_t SkipPlainBytes(std::string_view s, std::size_t i) {
  return zs::internal::DispatchSkipPlainBytes(s, i);
}

}  // namespace zs::json::internal

#endif  // ZARF_STATE_JSON_INTERNAL_GO_STRING_SCAN_H_
