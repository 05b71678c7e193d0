// GoSchema: Go types, as encoding/json sees them, read from a types file.
//
// A types file (model/data/zarf-types-v0.84.0.json is one) lists Go named
// types: each struct with its fields in declaration order (Go name, JSON
// name, omitempty, Go type expression, `embedded`), each other named type
// with its underlying type expression. GoSchema resolves every expression
// into a GoType tree that carries exactly what encoding/json needs: the
// kind, the element type, and for a struct the JSON-visible fields in the
// order Go writes them, with embedded structs flattened into their place
// (their JSON name is ignored, as for Go's `json:",inline"` embedding, which
// has no name) and Go's dominance rule applied (a shallower field hides a
// deeper one of the same JSON name).
//
// Type expressions understood: bool, string, int, int64, time.Duration,
// any, interface{}, []byte, []T, *T, map[K]V with a string-kinded K,
// struct{}, and named types, bare (same package) or package-qualified.
// Anything else (func types, other integer widths, floats) resolves to
// kUnsupported, which only decoding a value of it refuses.
//
// Thread safety: a GoSchema is immutable after Parse; concurrent reads are
// safe. GoType pointers live as long as their GoSchema.
#ifndef ZARF_STATE_MODEL_INTERNAL_GO_SCHEMA_H_
#define ZARF_STATE_MODEL_INTERNAL_GO_SCHEMA_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"

namespace zs::internal {

enum class GoKind : std::uint8_t {
  kBool,
  kInt,  // any signed integer that holds int64 (int on 64-bit, time.Duration)
  kString,
  kBytes,  // []byte: base64 in JSON
  kAny,    // interface{}: numbers as float64, objects as map[string]any
  kSlice,
  kMap,  // string-kinded keys only
  kPointer,
  kStruct,
  kUnsupported,
};

struct GoType;

struct GoField {
  std::string json_name;
  bool omitempty = false;
  const GoType* type = nullptr;
};

struct GoType {
  GoKind kind = GoKind::kUnsupported;
  // The type as Go spells it in messages: "bool", "[]v1alpha1.ZarfComponent".
  std::string name;
  // kSlice: the element; kMap: the value; kPointer: the pointee.
  const GoType* elem = nullptr;
  // kStruct: the JSON-visible fields in the order Go writes them.
  std::vector<GoField> fields;
};

class GoSchema {
 public:
  // Parses a types file and resolves every type it declares. Returns
  // InvalidArgument naming the type when the file is not of that shape, a
  // type expression names an undeclared type, an embedded field is not a
  // struct, or two flattened fields at the same depth share a JSON name
  // (Go would then need the struct tags, which the file does not record).
  static Result<std::unique_ptr<GoSchema>> Parse(std::string_view types_json);

  GoSchema(const GoSchema&) = delete;
  GoSchema& operator=(const GoSchema&) = delete;

  // The named type "package.Name" (e.g. "v1alpha1.ZarfPackage"), or nullptr.
  const GoType* Find(std::string_view qualified_name) const;

 private:
  GoSchema() = default;
  friend class GoSchemaBuilder;

  // Every type, named and composite, by its Go name. Nodes never move.
  std::map<std::string, std::unique_ptr<GoType>, std::less<>> types_;
};

}  // namespace zs::internal

#endif  // ZARF_STATE_MODEL_INTERNAL_GO_SCHEMA_H_
