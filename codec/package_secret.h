// Putting a DeployedPackage into a Secret with the right codec, and the size
// guard that makes sure the API server will accept it (SPEC section 3).
//
// Layout. Codec `json` stores Zarf's own JSON under data key `data`, exactly
// what Zarf writes and reads. Codec `compact` stores the compact envelope
// under data key `data-compact` and says so in the annotation
// `zarf-state.dev/codec: compact/v1`; the `data` key is then absent, so no
// reader can mistake the envelope for JSON (Zarf itself reports the package
// Secret as unreadable rather than misreading it). Reading detects the codec
// by key and annotation (DecodePackage).
//
// Size guard. Every store computes the exact size the API server checks (the
// decoded data bytes) before changing the Secret; a package that would not
// fit under kSecretSizeLimit is refused with TooLarge naming the package, the
// size, the limit and the five biggest contributors, and the Secret object is
// left as it was.
//
// Thread safety: reentrant.
#ifndef ZARF_STATE_CODEC_PACKAGE_SECRET_H_
#define ZARF_STATE_CODEC_PACKAGE_SECRET_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "codec/json_value.h"
#include "codec/model.h"
#include "codec/model_json.h"
#include "codec/secret.h"
#include "codec/status.h"

namespace zs {

inline constexpr std::string_view kCodecAnnotation = "zarf-state.dev/codec";

enum class PackageCodec { kJson, kCompact, kAuto };

// "json", "compact", "auto" -> the enum; InvalidArgument otherwise.
Result<PackageCodec> ParsePackageCodec(std::string_view name);

struct StoreOptions {
  // Default: kAuto — JSON while its payload fits under auto_threshold, compact
  // past it.
  PackageCodec codec = PackageCodec::kAuto;
  // Default: 900 KiB, leaving room for the events of a few more deploys.
  std::size_t auto_threshold = 900 * 1024;
};

// The package state of a Secret that holds it under either codec.
// InvalidArgument naming the object when neither key is there, Corruption for
// bad base64 or a bad payload.
Result<DeployedPackage> DecodePackage(const json::Value& secret);

// The payload of a bare JSON DeployedPackage, or of a compact envelope.
// `readable_padding` and `parts` as ParseDeployedPackage's; a compact
// envelope is always decoded whole.
Result<DeployedPackage> DecodePackagePayload(std::string_view payload,
                                             std::size_t readable_padding = 0,
                                             DefinitionParts parts = DefinitionParts::kAll);

// Stores `pkg` into `secret` (see the layout above) after checking its size.
// On any error `secret` is unchanged. Returns the codec used.
Result<PackageCodec> StorePackage(json::Value* secret, const DeployedPackage& pkg,
                                  const StoreOptions& options = {});

// The same for a package given as its Zarf JSON (the bytes
// EncodeDeployedPackage writes, e.g. a migrated payload): stored as is under
// codec json, decoded only for compact or for the size error. Corruption or
// InvalidArgument when that decoding fails.
Result<PackageCodec> StorePackageJson(json::Value* secret, std::string_view json_payload,
                                      const StoreOptions& options = {});

// The `n` biggest parts of the package's JSON, by encoded bytes:
// top-level fields ("events", "deployConfig", "deployedComponents") and the
// package definition's ("data.components", "data.variables").
std::vector<std::pair<std::string, std::size_t>> BiggestContributors(const DeployedPackage& pkg,
                                                                     std::size_t n = 5);

}  // namespace zs

#endif  // ZARF_STATE_CODEC_PACKAGE_SECRET_H_
