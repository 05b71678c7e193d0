// The `json` codec of the state model: DeployedPackage <-> the bytes Zarf
// stores under a package Secret's `data` key.
//
// Decoding follows Go's encoding/json into Zarf's structs (names matched
// exactly, then case-insensitively; `null` leaves a field unset; the last of
// duplicate keys wins), except that members Go would drop are kept (see
// UnknownFields) and errors name the path of the offending field. Encoding is
// byte-identical to Go's json.Marshal of the same struct: field order,
// omitempty, sorted map keys, HTML-safe escaping, RFC 3339 nanosecond times.
// A payload written by Go therefore round-trips to the same bytes.
//
// Thread safety: all functions are reentrant.
#ifndef ZARF_STATE_MODEL_MODEL_JSON_H_
#define ZARF_STATE_MODEL_MODEL_JSON_H_

#include <cstddef>
#include <string>
#include <string_view>

#include "base/status.h"
#include "model/model.h"
#include "json/json_value.h"

namespace zs {

// Decodes a parsed DeployedPackage. Returns InvalidArgument naming the path
// ("deployedComponents[1].observedGeneration: ...") when a field has the
// wrong kind, an integer overflows int64 or a timestamp is not RFC 3339.
Result<DeployedPackage> DecodeDeployedPackage(const json::Value& value);

// How much of the package definition (`data`, most of a payload) a parse
// builds.
enum class DefinitionParts {
  // All of it, preserved exactly as read.
  kAll,
  // Its `metadata`, and each of its `components` with only `name` and
  // `images`: what the cache indexes. The rest is checked as strictly, with
  // the same errors, but not built (for `ingest`, 17% faster as a whole).
  // Such a package must not be encoded: its definition is incomplete.
  kSummary,
};

// ParseJson + DecodeDeployedPackage. Corruption for malformed JSON.
// `readable_padding`: bytes after the text that may be read (the spare
// capacity of its std::string); 64 or more lets the parser read the text in
// place rather than copy it (json::ParseOptions::readable_padding).
Result<DeployedPackage> ParseDeployedPackage(std::string_view json_text,
                                             std::size_t readable_padding = 0,
                                             DefinitionParts parts = DefinitionParts::kAll);

// Go-exact compact JSON of `pkg`, as Zarf writes it into the Secret.
std::string EncodeDeployedPackage(const DeployedPackage& pkg);

// The same objects for the pieces, used by the engine and by tests.
Result<PackageEvent> DecodePackageEvent(const json::Value& value,
                                        std::string_view path);
void AppendPackageEvent(std::string* out, const PackageEvent& event);
void AppendComponentEvent(std::string* out, const ComponentEvent& event);
Result<ComponentEvent> DecodeComponentEvent(const json::Value& value,
                                            std::string_view path);
// A JSON array of InstalledChart objects (null decodes to an empty list).
void AppendInstalledCharts(std::string* out, const std::vector<InstalledChart>& charts);
Result<std::vector<InstalledChart>> DecodeInstalledCharts(const json::Value& value,
                                                          std::string_view path);

}  // namespace zs

#endif  // ZARF_STATE_MODEL_MODEL_JSON_H_
