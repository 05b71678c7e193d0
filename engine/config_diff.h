// Config diff: what changed between two deploy (or remove) configs, path by
// path, rather than only that their digests differ (SPEC section 5).
//
// The configs are compared as JSON values, normally the Go marshal of the
// typed DeployConfig / RemoveConfig parsed back (so field-name case and nil
// maps are already normalised). The comparison follows the meaning Zarf gives
// the data, not its spelling: numbers compare as float64 (`5` equals `5.0`),
// objects by key with the last duplicate winning, and a member that is null on
// one side and missing on the other is no change (a nil map and an absent one
// are the same to Zarf). Values under keys that look secret are masked, so a
// diff can be printed or logged safely.
//
// Thread safety: pure functions over const inputs; reentrant.
#ifndef ZARF_STATE_ENGINE_CONFIG_DIFF_H_
#define ZARF_STATE_ENGINE_CONFIG_DIFF_H_

#include <string>
#include <string_view>
#include <vector>

#include "codec/json_value.h"
#include "codec/status.h"

namespace zs::engine {

// The text that replaces a masked value.
inline constexpr std::string_view kMaskedValue = "[MASKED]";

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
  // True when the values were masked: either the path lies under a secret
  // key (then each present side is the string "[MASKED]"), or a reported
  // object or array holds a secret key whose value was replaced by
  // "[MASKED]".
  bool masked = false;
};

// Whether values under an object key named `key` are masked: its lower-case
// form contains "password", "secret", "token", "apikey", "api_key",
// "credential" or "private", or ends with "key" ("key", "accessKey",
// "SSH_KEY"). The mask covers the key's whole subtree.
bool IsSecretKey(std::string_view key);

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
// resolved (first position, last value), and secret subtrees are masked (see
// IsSecretKey and ConfigChange::masked).
// Fails with InvalidArgument, naming the path, when either document holds a
// number outside float64 range. The inputs are only read during the call.
Result<std::vector<ConfigChange>> DiffConfigs(const json::Value& old_config,
                                              const json::Value& new_config);

// Renders `changes` one line each, each ending in '\n', in the given order:
//   "~ Values.replicas: 2 -> 3"
//   "+ SetVariables.DOMAIN: \"x\""
//   "- Values.debug: true"
// Values are compact JSON in stored member order with numbers as written and
// only `"`, `\` and control characters escaped (so URLs stay readable); a
// masked value prints as "[MASKED]" in quotes. The root path prints as
// "(root)". Returns "" for no changes.
std::string FormatChanges(const std::vector<ConfigChange>& changes);

}  // namespace zs::engine

#endif  // ZARF_STATE_ENGINE_CONFIG_DIFF_H_
