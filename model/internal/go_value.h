// Go's json.Unmarshal into a typed value followed by json.Marshal of it,
// interpreted from a GoSchema (go_schema.h) instead of compiled Go structs.
//
// Decoding follows encoding/json (Go 1.19, which the reference vectors come
// from) rule for rule:
//   * object keys match struct fields by JSON name, an exact match first,
//     else the first field whose name equals the key under Go's case
//     folding (ASCII letters, and U+212A KELVIN SIGN for k, U+017F LONG S
//     for s); keys matching no field are skipped;
//   * a key given twice is decoded twice, in order: a struct, a pointed-to
//     struct and a map are decoded into again (merged), everything else is
//     overwritten; a slice reuses its backing array, so elements are decoded
//     into what an earlier array left there, within the capacity Go 1.19
//     would have grown it to (cap + cap/2, at least 4);
//   * `null` sets pointers, slices, maps and interfaces to nil and leaves
//     every other value unchanged;
//   * integers take only integer literals within int64 range; []byte takes
//     base64; interface{} takes anything, numbers as float64 (out of range:
//     refused); every other mismatch of JSON kind and Go kind is refused.
// Go records a type mismatch and decodes on, but still fails the call; here
// the first mismatch in document order is returned.
// Encoding writes struct fields in order, skips `omitempty` fields holding
// false, 0, "", a nil pointer or interface, or an empty slice, map or string
// (never a struct), writes nil slices and maps as null, sorts map keys by
// bytes, and escapes strings and formats float64 as go_json.h describes.
//
// Thread safety: reentrant.
#ifndef ZARF_STATE_MODEL_INTERNAL_GO_VALUE_H_
#define ZARF_STATE_MODEL_INTERNAL_GO_VALUE_H_

#include <string>
#include <vector>

#include "base/status.h"
#include "model/internal/go_schema.h"
#include "json/json_value.h"

namespace zs::internal {

// Returns the bytes json.Marshal writes for the value json.Unmarshal builds
// from `input` in a zero `type`. InvalidArgument "<path>: <problem>" where
// Go's Unmarshal fails (path like "components[2].required", "top level" for
// the document itself); NotSupported when the input reaches a type
// kUnsupported, or the value holds one that Go's encoder refuses (a func
// field is refused even when nil and omitempty, as in Go). Keys of `input` that no struct field takes are appended to
// `*undeclared_keys` (may be null) by path, in document order.
Result<std::string> GoRoundTrip(const GoType& type, const json::Value& input,
                                std::vector<std::string>* undeclared_keys);

}  // namespace zs::internal

#endif  // ZARF_STATE_MODEL_INTERNAL_GO_VALUE_H_
