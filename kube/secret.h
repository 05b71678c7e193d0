// Kubernetes Secrets as Zarf uses them, in the forms kubectl prints.
//
// Zarf keeps one Secret per deployed package (namespace `zarf`, name
// `zarf-package-<name>[-override-<ns>]`, labels
// `app.kubernetes.io/managed-by: zarf` and `package-deploy-info: <name>`,
// type Opaque, data key `data` = DeployedPackage JSON) and the cluster-init
// state in Secret `zarf-state` (data key `state`). This file reads such
// objects from `kubectl get -o json|yaml` output (single objects, `kind: List`
// or `SecretList`, multi-document YAML, or bare payloads), measures them as
// the API server does, and builds new ones. Objects are kept as ordered
// json::Values, so metadata (labels, annotations, resourceVersion, uid, ...)
// survives untouched.
//
// Thread safety: all functions are reentrant.
#ifndef ZARF_STATE_KUBE_SECRET_H_
#define ZARF_STATE_KUBE_SECRET_H_

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "json/json_value.h"
#include "model/limits.h"

namespace zs {

inline constexpr std::string_view kZarfNamespace = "zarf";
inline constexpr std::string_view kPackageSecretPrefix = "zarf-package-";
inline constexpr std::string_view kPackageDataKey = "data";
// Where the compact codec keeps a package (kube/package_secret.h).
inline constexpr std::string_view kCompactDataKey = "data-compact";
inline constexpr std::string_view kStateSecretName = "zarf-state";
inline constexpr std::string_view kStateDataKey = "state";
inline constexpr std::string_view kManagedByLabel = "app.kubernetes.io/managed-by";
inline constexpr std::string_view kPackageLabel = "package-deploy-info";

enum class TextFormat { kJson, kYaml };

// What an input object holds.
enum class PayloadKind {
  kPackage,  // a DeployedPackage (Secret data key `data`, or bare)
  kState,    // the cluster-init State (`zarf-state`, key `state`, or bare)
};

// One object of an input.
struct InputObject {
  // "<source> items[3] (secret zarf/zarf-package-foo)" — for messages.
  std::string label;
  bool is_secret = false;  // false: a bare payload document
  PayloadKind payload_kind = PayloadKind::kPackage;
  // The Secret object; null for a bare payload, which is in `payload` only
  // (its tree, as large as the input, is not kept beside the model a reader
  // decodes from the bytes).
  json::Value object;
  // The payload bytes (base64-decoded for Secrets): JSON, or for a package
  // Secret written with the compact codec the compact envelope (decode with
  // DecodePackagePayload, kube/package_secret.h). Empty on error.
  std::string payload;
  // Non-OK when this object cannot be used; the others still can.
  Status error;
};

struct Input {
  TextFormat format = TextFormat::kJson;
  // A List/SecretList, several YAML documents or several concatenated JSON
  // documents rather than one object.
  bool is_list = false;
  // For a List: the list object with its `items` emptied (apiVersion, kind,
  // metadata), to write the same envelope back.
  json::Value list_envelope;
  std::vector<InputObject> objects;
  // Secrets met among several objects (a List, a stream) that are not Zarf
  // state: another type (Helm releases, TLS, registry credentials) or a name
  // that is neither zarf-state nor zarf-package-*.
  // Left out of `objects`, not errors: "<label>: <why>" each, in input order.
  std::vector<std::string> skipped;
};

// Limits that keep a hostile input from needing unbounded memory or stack.
struct ReadLimits {
  // Largest text accepted, in bytes. Default: 256 MiB (json::ParseOptions').
  std::size_t max_bytes = std::size_t{256} << 20;
  // Deepest nesting of arrays/objects (JSON) or collections (YAML).
  // Default: 512; the JSON reader's ceiling is 1024.
  std::size_t max_depth = 512;
  // Bytes after the end of the text that may be read, never written (the
  // spare capacity of the std::string holding it): at least 64 lets a JSON
  // text be parsed in place instead of from a copy (json::ParseOptions).
  std::size_t readable_padding = 0;
};

// Reads JSON or YAML (decided by the first non-blank character) in UTF-8, or
// UTF-16 with a byte order mark (json/text_encoding.h). JSON may be several
// documents one after another (concatenated, JSON Lines), read like a YAML
// stream; a YAML document may also start with `{`. Returns an error only
// when the text as a whole cannot be read; problems of single objects (wrong
// kind, bad base64, not a Zarf Secret) are in their `error`, and among
// several objects a Secret that is not Zarf state goes to `skipped`.
// `source` names the input in labels ("secrets.json", "-" for stdin). Text
// over `limits` is InvalidArgument naming `source` and the limit.
Result<Input> ReadInput(std::string_view text, std::string_view source,
                        const ReadLimits& limits = {});

// ReadInput for inputs too large to hold twice, such as a List of hundreds
// of Secrets: calls `on_object` for each object in input order as soon as it
// is read (a JSON object with an `items` array is read as a List, item by
// item, whatever its kind says), and fills `*header` (format, is_list,
// list_envelope: its members before `items` are there when the first object
// arrives, all of them when this returns). Other inputs are read whole with
// ReadInput and then handed out. Errors as ReadInput, or the first non-OK
// status of `on_object`; a List that turns out malformed can fail after some
// objects were handed out.
Status ReadInputStreaming(std::string_view text, std::string_view source,
                          const ReadLimits& limits, Input* header,
                          const std::function<Status(InputObject)>& on_object);

// ReadInputStreaming for a regular file of `size` bytes open on `fd` that
// holds one JSON object with an `items` array (a List, as kubectl prints
// it), read through one reused buffer instead of whole: a first pass checks
// what the parser checks before it hands anything out (UTF-8, strings,
// nothing after the object) and finds the items; a second builds and hands
// out each item while its bytes are in cache. nullopt, with nothing handed
// out and `*header` untouched, for any other file (the caller reads it with
// ReadInputStreaming). Otherwise ReadInputStreaming's result for the file's
// text, item for item and error for error: an item or member the second
// pass cannot build sends the rest to the parser, on the whole text read
// then. The file must not change while it is read.
std::optional<Status> ReadListFileStreaming(int fd, std::size_t size, std::string_view source,
                                            const ReadLimits& limits, Input* header,
                                            const std::function<Status(InputObject)>& on_object);

// The decoded value of `key`: from `stringData` if present there (it wins on
// the API server), else base64-decoded from `data`. NotFound if neither has
// it; Corruption for bad base64.
Result<std::string> SecretValue(const json::Value& secret, std::string_view key);

// The size the API server checks: the decoded bytes of every `data` value,
// with `stringData` merged in as the server merges it. Corruption for bad
// base64.
Result<std::size_t> SecretDataSize(const json::Value& secret);

// The same, with the value under `data.<known_key>` taken to decode to
// `known_size` bytes without decoding it: for a value the caller has just
// encoded itself (SetSecretValue), whose size it knows.
Result<std::size_t> SecretDataSize(const json::Value& secret, std::string_view known_key,
                                   std::size_t known_size);

// A new Secret as Zarf creates one for `package` (keys in kubectl's order).
json::Value MakePackageSecret(std::string_view package,
                              std::string_view namespace_override,
                              std::string_view payload);

// Sets data[key] to base64(value), dropping stringData[key]; keeps every
// other field (notably metadata.resourceVersion, so the API server refuses a
// stale write).
void SetSecretValue(json::Value* secret, std::string_view key, std::string_view value);

// Writes objects as kubectl prints them: JSON indented by 4 spaces, or YAML.
// Ends with a newline.
std::string WriteObject(const json::Value& object, TextFormat format);

// The metadata.name / metadata.namespace of an object, or "".
std::string_view ObjectName(const json::Value& object);
std::string_view ObjectNamespace(const json::Value& object);

}  // namespace zs

#endif  // ZARF_STATE_KUBE_SECRET_H_
