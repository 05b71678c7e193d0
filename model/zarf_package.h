// The package definition exactly as Zarf v0.84.0 stores it.
//
// Zarf keeps a deployed package's definition in the package Secret's `data`
// as the bytes of Go's json.Marshal of its v1alpha1.ZarfPackage, after
// json.Unmarshal of the definition it read: fields in declaration order,
// `omitempty` applied, struct-typed fields always written
// (`"only":{"cluster":{}}`, `"build":{...}`), keys the types do not declare
// dropped, and a definition with a value of the wrong JSON kind refused.
// MarshalZarfPackage reproduces those bytes. It is driven by Zarf's types
// (model/data/zarf-types-v0.84.0.json, compiled into the library and parsed
// once, on first use) through the generic interpreter of
// model/internal/go_value.h, which lists the encoding/json rules it follows.
//
// Thread safety: reentrant; the first call parses the embedded types under
// the protection of a function-local static.
#ifndef ZARF_STATE_MODEL_ZARF_PACKAGE_H_
#define ZARF_STATE_MODEL_ZARF_PACKAGE_H_

#include <string>
#include <vector>

#include "base/status.h"
#include "json/json_value.h"

namespace zs {

// The Zarf release whose types MarshalZarfPackage follows, for messages.
inline constexpr const char* kZarfTypesVersion = "v0.84.0";

// Returns the bytes Zarf v0.84.0 stores as `data` for `definition` (a
// ZarfPackage as JSON, e.g. read from zarf.yaml or a JSON file; duplicate
// object keys are honoured in order, the last one winning as in Go).
// Errors:
//  - InvalidArgument "<path>: <problem>" where Go's json.Unmarshal refuses
//    the definition, e.g. "components[2].required: expected boolean, got
//    string" or "...maxRetries: expected integer, got number 1.5";
//  - NotSupported if the definition reaches a Go type the interpreter does
//    not implement (none of ZarfPackage's do).
// On success, when `undeclared_keys` is not null, the path of every input key
// that no field declares (dropped, as Go drops it) is appended to it in
// document order, e.g. "components[0].unknownInComponent".
Result<std::string> MarshalZarfPackage(const json::Value& definition,
                                       std::vector<std::string>* undeclared_keys);

}  // namespace zs

#endif  // ZARF_STATE_MODEL_ZARF_PACKAGE_H_
