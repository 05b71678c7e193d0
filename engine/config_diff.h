// Config diff: what changed between two deploy (or remove) configs, path by
// path, rather than only that their digests differ (docs/model.md section 5).
//
// The configs are compared as JSON values, normally the Go marshal of the
// typed DeployConfig / RemoveConfig parsed back (so field-name case and nil
// maps are already normalised). The comparison follows the meaning Zarf gives
// the data, not its spelling: numbers compare as float64 (`5` equals `5.0`),
// objects by key with the last duplicate winning, and a member that is null on
// one side and missing on the other is no change (a nil map and an absent one
// are the same to Zarf). Values under keys that name a credential
// (IsCredentialName, model/credentials.h) are masked as kRedacted, so a diff
// can be printed or logged safely.
//
// Thread safety: pure functions over const inputs; reentrant.
#ifndef ZARF_STATE_ENGINE_CONFIG_DIFF_H_
#define ZARF_STATE_ENGINE_CONFIG_DIFF_H_

#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "model/credentials.h"
#include "json/json_value.h"

namespace zs::engine {

// One changed path.
struct ConfigChange {
  enum class Kind { kAdded, kRemoved, kChanged };
  Kind kind = Kind::kChanged;
  // A readable path from the root: object keys joined by '.'
  // ("ValuesOverridesMap.web.podinfo.image.tag", "SetVariables.DOMAIN"),
  // array elements as "[3]" ("Values.hosts[3]"). A key that is empty or
  // holds '.', '[', ']', '"', '\' or a control character is written quoted
  // in brackets with JSON escapes, and without the dot: Values["a.b"].c.
  // The root itself is the empty path.
  std::string path;
  // The value before; null for kAdded.
  json::Value old_value;
  // The value after; null for kRemoved.
  json::Value new_value;
  // True when the values were masked: either the path lies under a
  // credential key (then each present side is the string kRedacted), or a
  // reported object or array holds a credential key whose value was replaced
  // by kRedacted.
  bool masked = false;
};

// Returns the changed paths from `old_config` to `new_config`, sorted by path
// (bytewise, so "[10]" sorts before "[2]"); empty when they are equivalent.
//   * Numbers compare by float64 value; strings by bytes; booleans and nulls
//     by value.
//   * Objects compare key by key, the last of duplicate keys winning. A key
//     on one side only is kAdded or kRemoved, except that a null on one side
//     and nothing on the other is no change. An empty object versus null is
//     a change.
//   * Arrays compare element by element; when the lengths differ, the extra
//     elements are reported as added or removed at their indices.
//   * Values of different kinds (object versus null, number versus string)
//     are one kChanged at their path, with both whole values.
// Reported values are copies: numbers keep their spelling, duplicate keys are
// resolved (first position, last value), and credential subtrees are masked
// (see IsCredentialName and ConfigChange::masked).
// Fails with InvalidArgument, naming the path, when either document holds a
// number outside float64 range. The inputs are only read during the call.
Result<std::vector<ConfigChange>> DiffConfigs(const json::Value& old_config,
                                              const json::Value& new_config);

// DiffConfigs for configs that may hold redacted values, with the package's
// `sensitive` variables (model/credentials.h) masked as credentials are.
// A deployConfig read back from a package Secret keeps its sensitive
// variables as kRedacted: such a value is unknown, so at its path both sides
// are taken as kRedacted and compare equal. A sensitive value known on both
// sides is compared, and a change is reported masked. What the comparison
// cannot see, the digests (Go's, over each config as deployed) still do: when
// `sensitive` is not empty and `old_digest` and `new_digest` differ but no
// value does, one masked kChanged at path "SetVariables" (both sides
// kRedacted) says that a sensitive value changed. Errors as DiffConfigs.
Result<std::vector<ConfigChange>> DiffRedactedConfigs(json::Value old_config,
                                                      std::string_view old_digest,
                                                      json::Value new_config,
                                                      std::string_view new_digest,
                                                      const std::vector<std::string>& sensitive);

// Renders `changes` one line each, each ending in '\n', in the given order:
//   "~ Values.replicas: 2 -> 3"
//   "+ SetVariables.DOMAIN: \"x\""
//   "- Values.debug: true"
// Values are compact JSON in stored member order with numbers as written and
// only `"`, `\` and control characters escaped (so URLs stay readable); a
// masked value prints as "[REDACTED]" in quotes. The root path prints as
// "(root)". Returns "" for no changes.
std::string FormatChanges(const std::vector<ConfigChange>& changes);

}  // namespace zs::engine

#endif  // ZARF_STATE_ENGINE_CONFIG_DIFF_H_
