// Reading the ZarfPackage definition that `record deploy --package` records.
//
// Zarf stores a deployed package's definition as Go's json.Marshal of its
// v1alpha1.ZarfPackage, not as the file was written: keys it does not
// declare are gone, fields are in declaration order, zero-valued structs are
// written. ReadPackageDefinition returns the definition in exactly that form
// (model/zarf_package.h), so the `data` zarf-state writes is byte for byte
// what Zarf would write for the same file.
//
// Thread safety: reentrant.
#ifndef ZARF_STATE_ENGINE_PACKAGE_DEFINITION_H_
#define ZARF_STATE_ENGINE_PACKAGE_DEFINITION_H_

#include <ostream>
#include <string>

#include "json/json_value.h"
#include "base/status.h"

namespace zs::tools {

// Reads the definition at `path` (JSON or YAML; "-" is stdin) and returns it
// as Zarf stores it: a tree whose compact write (json::AppendJson, default
// options) is Zarf's bytes. Keys Zarf does not declare are dropped, and named
// in one warning line on `err`. Errors: those of ReadDocument (kube/input.h);
// InvalidArgument "<path>: Zarf v0.84.0 refuses this package definition:
// <json path>: <problem>" where Zarf's json.Unmarshal would fail.
Result<json::Value> ReadPackageDefinition(const std::string& path, std::ostream& err);

}  // namespace zs::tools

#endif  // ZARF_STATE_ENGINE_PACKAGE_DEFINITION_H_
