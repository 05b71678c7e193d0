// DeployConfig / RemoveConfig: reading them as Go's json.Unmarshal does, and
// writing them as json.Marshal does, so that ConfigDigest() here equals the
// `configDigest` Zarf computes (docs/model.md section 5).
//
// The Go types carry no json tags: their wire names are the Go field names,
// matched case-insensitively on input; nil maps are written `null`; maps are
// written with sorted keys and every number of the free-form values as a
// float64 (they are decoded into `any`).
//
// Thread safety: all functions are reentrant.
#ifndef ZARF_STATE_MODEL_CONFIG_H_
#define ZARF_STATE_MODEL_CONFIG_H_

#include <string>
#include <string_view>

#include "base/digest.h"
#include "base/status.h"
#include "model/model.h"
#include "json/json_value.h"

namespace zs {

// Decodes with Go's rules: a duplicate member replaces an earlier one, except
// that a repeated top-level map field merges into the map already decoded
// (Go reuses a non-nil map); `null` leaves a scalar field unchanged and makes
// a map field nil; a SetVariables value of `null` becomes "". Unknown members
// are ignored, as Go does. InvalidArgument naming the path on a wrong kind.
Result<DeployConfig> DecodeDeployConfig(const json::Value& value);
Result<RemoveConfig> DecodeRemoveConfig(const json::Value& value);

// json.Marshal of the Go struct. InvalidArgument if a number in the values is
// outside float64 range (Go could not have decoded it either).
Result<std::string> MarshalDeployConfig(const DeployConfig& config);
Result<std::string> MarshalRemoveConfig(const RemoveConfig& config);

// Zarf's configDigest: Sha256Digest(MarshalXConfig(config)).
Result<std::string> DeployConfigDigest(const DeployConfig& config);
Result<std::string> RemoveConfigDigest(const RemoveConfig& config);

// The canonical digest of a typed config. The config is first written as Go's
// json.Marshal writes it (MarshalDeployConfig / MarshalRemoveConfig), so Go
// field names are the keys whatever case the input used, and a nil map is
// `null`; that text is parsed back and digested:
//   CanonicalDeployConfigDigest(c)
//       == json::CanonicalDigest(json::ParseJson(MarshalDeployConfig(c)))
// Fails with InvalidArgument when a number in the config's values is outside
// double range (Go could not have decoded it either).
Result<std::string> CanonicalDeployConfigDigest(const DeployConfig& config);
Result<std::string> CanonicalRemoveConfigDigest(const RemoveConfig& config);

}  // namespace zs

#endif  // ZARF_STATE_MODEL_CONFIG_H_
