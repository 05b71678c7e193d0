// The one credential rule: which names hold credentials, which variables a
// package marks sensitive, and how each is kept out of what zarf-state prints
// and stores (docs/model.md rule 5 and section 8; docs/credentials-and-names.md).
//
// Every command that prints or stores a value goes through these functions:
// `inspect` (init state), `status`, `replay`, `config diff|digest`,
// `query`, `record` (sources and deployConfig) and the drift and error
// reports. A new place that prints state uses them too, rather than a rule of
// its own.
//
// What is a credential:
//   * a name (a JSON member, a SetVariables key, a URL query parameter) that
//     IsCredentialName accepts;
//   * the value of a variable the package definition marks `sensitive: true`
//     (data.variables[].sensitive), matched by name case-insensitively.
// Where it is hidden:
//   * printed: always replaced by kRedacted, unless a command's flag asks for
//     it (`inspect --show-secrets`, for the init state only; `replay --dump
//     --show-secrets`, for a faithful copy of a record log);
//   * stored: a source URL loses its userinfo and credential parameters
//     (ScrubSource); deployConfig keeps sensitive variables' values as
//     kRedacted (RedactSensitiveVariables). Other values are stored as given:
//     the config digest is always Go's, over the config as given.
//
// Thread safety: pure functions; reentrant.
#ifndef ZARF_STATE_MODEL_CREDENTIALS_H_
#define ZARF_STATE_MODEL_CREDENTIALS_H_

#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "json/json_value.h"

namespace zs {

// The text that replaces a credential wherever one would be printed or
// stored.
inline constexpr std::string_view kRedacted = "[REDACTED]";

// Whether `name` names a credential. The name is split into words at
// non-alphanumeric characters and at case changes ("DB_PASSWORD" ->
// db password, "clientSecret" -> client secret, "APIKey" -> api key); it is a
// credential when, case-insensitively:
//   * a word (a trailing "s" dropped) ends with password, passwd, passphrase,
//     secret, token or credential, or is pw, pwd, apikey, accesskey, secretkey,
//     privatekey, sshkey or signature;
//   * the last word is "key" ("key", "accessKey", "ssh_key", "API_KEY");
//   * the whole name is authorization, sig, pass, jwt or cookie;
//   * it starts with "x-amz-" or "x-goog-" (signed-URL parameters).
// Not: "monkey", "author", "auth" (Helm charts' `auth: {enabled: ...}`),
// "keys", "keyring", "keyName", "bypass".
bool IsCredentialName(std::string_view name);

// `source` with credentials removed (docs/model.md rule 5): the userinfo of a URL
// ("https://user:pass@host/x" -> "https://host/x") and each query parameter
// whose name (percent-decoded) IsCredentialName. Every other parameter is
// kept, in its order and spelling, and the fragment is kept; a query left
// empty loses its '?'. A source without "://" keeps everything but its
// credential parameters.
std::string ScrubSource(std::string_view source);

// Replaces, in place, the value of every object member whose name
// IsCredentialName with kRedacted, at any depth (the whole value, whatever
// its kind). Null and "" are left as they are: they show that nothing is set.
// Every other string holding a URL ("://") has its userinfo replaced with
// kRedacted ("https://user:pw@reg" -> "https://[REDACTED]@reg") and its
// credential query parameters dropped, as ScrubSource does.
// Returns whether anything was replaced.
bool RedactCredentials(json::Value* value);

// OK when every object member of `value` (at any depth) whose name
// IsCredentialName holds a string or null, as every credential field of
// Zarf's state does; else InvalidArgument naming the member's dotted path
// and the kind found ("registryInfo.pushPassword is an object, a credential
// must be a string"). A plural name whose singular is a credential name
// ("credentials", "apiKeys") may hold an object or array, whose members are
// checked in turn. For the init state, whose credential fields Zarf
// declares as strings.
Status CheckCredentialKinds(const json::Value& value);

// The names of the variables `package` (a ZarfPackage definition) marks
// `sensitive: true` in its `variables`, in definition order. Empty when it
// has none or is not an object.
std::vector<std::string> SensitiveVariables(const json::Value& package);

// Whether variable `name` is one of `sensitive` (ASCII case-insensitively, as
// Zarf upper-cases the names given to --set).
bool IsSensitiveVariable(std::string_view name, const std::vector<std::string>& sensitive);

// Replaces, in place, the value of each SetVariables member of `config` (a
// DeployConfig as JSON, Go field names in any case) whose name matches one of
// `sensitive` (ASCII case-insensitively) with kRedacted; null and "" are
// kept. Returns whether anything was replaced.
bool RedactSensitiveVariables(json::Value* config, const std::vector<std::string>& sensitive);

// A DeployConfig as JSON, fit to print: RedactCredentials and
// RedactSensitiveVariables. Returns whether anything was replaced.
bool RedactConfigForDisplay(json::Value* config, const std::vector<std::string>& sensitive);

// A DeployedPackage as JSON (its Zarf wire form), fit to print:
// `deployConfig` as RedactConfigForDisplay with the sensitive variables of
// its `data`, every event's `source` scrubbed, and the `default` of each
// sensitive variable in `data.variables` replaced with kRedacted. Everything
// else is left as it is.
void RedactPackageForDisplay(json::Value* package);

// Whether a dotted path into a DeployedPackage's JSON ("deployConfig.
// SetVariables.DB_PASSWORD", "data.variables[2].default",
// "events[0].source") may hold a credential: a segment IsCredentialName, a
// SetVariables member named in `sensitive`, a variable's `default`, or an
// event's `source`. Used to hide values in drift reports.
bool IsCredentialPath(std::string_view path, const std::vector<std::string>& sensitive);

}  // namespace zs

#endif  // ZARF_STATE_MODEL_CREDENTIALS_H_
