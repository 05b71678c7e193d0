// Putting a DeployedPackage into a Secret with the right codec, and the size
// guard that makes sure the API server will accept it (docs/model.md section 3).
//
// Layout. Codec `json` stores Zarf's own JSON under data key `data`, exactly
// what Zarf writes and reads, and carries Zarf's listing label
// `package-deploy-info: <name>`. Codec `compact` stores the compact envelope
// under data key `data-compact` and says so in the annotation
// `zarf-state.dev/codec: compact/v1`; the `data` key is then absent. No Zarf
// release reads that envelope, and Zarf's package listing fails for every
// package as soon as one Secret it lists has no decodable `data`; so a
// compact Secret does not carry `package-deploy-info` but our own label
// `zarf-state.dev/package-deploy-info: <name>` (Zarf does not list it, every
// zarf-state command reads it by its data key). Storing JSON again moves
// the label back. Reading detects the codec by key and annotation
// (DecodePackage).
//
// Codec choice. `auto` keeps JSON whenever the JSON Secret fits under the
// API server's limit and takes compact only when it cannot; a JSON Secret
// past kSecretWarnBytes (90% of the limit) is still written, with a warning.
//
// Size guard. Every store computes the exact size the API server checks (the
// decoded data bytes) before changing the Secret; a package that would not
// fit under kSecretSizeLimit is refused with TooLarge naming the package, the
// size, the limit and the five biggest contributors, and the Secret object is
// left as it was.
//
// Thread safety: reentrant.
#ifndef ZARF_STATE_KUBE_PACKAGE_SECRET_H_
#define ZARF_STATE_KUBE_PACKAGE_SECRET_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/status.h"
#include "model/model.h"
#include "model/model_json.h"
#include "kube/secret.h"
#include "json/json_value.h"

namespace zs {

inline constexpr std::string_view kCodecAnnotation = "zarf-state.dev/codec";
// The label a compact package Secret carries instead of Zarf's
// `package-deploy-info` (value: the package name).
inline constexpr std::string_view kCompactPackageLabel = "zarf-state.dev/package-deploy-info";
// A Secret past this many data bytes is close to the limit: writing it warns.
inline constexpr std::size_t kSecretWarnBytes = kSecretSizeLimit / 10 * 9;

enum class PackageCodec { kJson, kCompact, kAuto };

// "json", "compact", "auto" -> the enum; InvalidArgument otherwise.
Result<PackageCodec> ParsePackageCodec(std::string_view name);

struct StoreOptions {
  // Default: kAuto — JSON whenever the JSON Secret fits, compact only when
  // it cannot.
  PackageCodec codec = PackageCodec::kAuto;
};

// What a store wrote.
struct StoredPackage {
  PackageCodec codec = PackageCodec::kJson;  // never kAuto
  // The Secret's size as the API server counts it (decoded data bytes).
  std::size_t secret_bytes = 0;
  // The payload stored under the codec's data key (JSON or the envelope).
  std::size_t payload_bytes = 0;
  // That key: kPackageDataKey or kCompactDataKey.
  std::string_view data_key = kPackageDataKey;
  // The JSON payload's size, whatever the codec (what Zarf would store).
  std::size_t json_bytes = 0;
  // Non-empty when the user must be told: a compact Secret (what Zarf will
  // and will not see of it), or a JSON Secret past kSecretWarnBytes. One
  // sentence naming the package, without a trailing newline.
  std::string warning;
};

// Whether `secret` is one that Zarf's listing would try to decode: it carries
// the label `package-deploy-info`.
bool ListedByZarf(const json::Value& secret);

// Why no Zarf release can read a package stored as `payload` (the bytes of
// the Secret's package data key), or "" when Zarf reads it (JSON).
std::string_view ZarfCannotRead(std::string_view payload);

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

// Stores `pkg` into `secret` (see the layout and the codec choice above)
// after checking its size. On any error `secret` is unchanged.
Result<StoredPackage> StorePackage(json::Value* secret, const DeployedPackage& pkg,
                                   const StoreOptions& options = {});

// The same for a package given as its Zarf JSON (the bytes
// EncodeDeployedPackage writes, e.g. a migrated payload): stored as is under
// codec json, decoded only for compact or for the size error. Corruption or
// InvalidArgument when that decoding fails.
Result<StoredPackage> StorePackageJson(json::Value* secret, std::string_view json_payload,
                                       const StoreOptions& options = {});

// StorePackageJson with the payload kept apart from the tree, for a writer
// that encodes it straight into its output: data[stored.data_key] holds ""
// and `*payload` (the JSON payload on entry) becomes the bytes whose base64
// belongs there: the JSON itself, or the compact envelope. On any error
// `secret` and `*payload` are unchanged.
Result<StoredPackage> StorePackageJsonApart(json::Value* secret, std::string* payload,
                                            const StoreOptions& options = {});

// The `n` biggest parts of the package's JSON, by encoded bytes:
// top-level fields ("events", "deployConfig", "deployedComponents") and the
// package definition's ("data.components", "data.variables").
std::vector<std::pair<std::string, std::size_t>> BiggestContributors(const DeployedPackage& pkg,
                                                                     std::size_t n = 5);

}  // namespace zs

#endif  // ZARF_STATE_KUBE_PACKAGE_SECRET_H_
