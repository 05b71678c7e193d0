// The names a package's state lives under, checked as Zarf and Kubernetes
// check them (docs/credentials-and-names.md).
//
//   * Package name (metadata.name): Zarf's rule, `^[a-z0-9][a-z0-9-]*$`
//     (lower-case letters, digits and '-', not starting with '-'). Zarf sets
//     no length limit of its own.
//   * Namespace override: a Kubernetes namespace name, a DNS-1123 label
//     (at most 63 bytes of [a-z0-9-], starting and ending alphanumeric).
//   * The package Secret, `zarf-package-<name>` or
//     `zarf-package-<name>-override-<namespace>`: its name is a DNS-1123
//     subdomain (at most 253 bytes, dot-separated labels of [a-z0-9-], each
//     starting and ending alphanumeric), and its label
//     `package-deploy-info: <name>` a label value (at most 63 bytes, starting
//     and ending alphanumeric). So a package name ending in '-' or longer
//     than 63 bytes passes Zarf's rule but not the API server.
//
// Every check returns InvalidArgument naming the object, the value and the
// rule it breaks.
//
// Thread safety: pure functions; reentrant.
#ifndef ZARF_STATE_MODEL_NAMES_H_
#define ZARF_STATE_MODEL_NAMES_H_

#include <cstddef>
#include <string_view>

#include "base/status.h"

namespace zs {

inline constexpr std::size_t kDns1123LabelMaxBytes = 63;
inline constexpr std::size_t kDns1123SubdomainMaxBytes = 253;
inline constexpr std::size_t kLabelValueMaxBytes = 63;

// Zarf's package-name rule.
Status CheckPackageName(std::string_view name);

// A namespace name (DNS-1123 label); "" (no override) is accepted.
Status CheckNamespaceOverride(std::string_view ns);

// A Secret's name (DNS-1123 subdomain).
Status CheckSecretName(std::string_view name);

// All of the above for a package deployed with `namespace_override` ("" for
// none): the package name, the override, and the name and label of the
// Secret Zarf keeps its state in.
Status CheckPackageNames(std::string_view name, std::string_view namespace_override);

}  // namespace zs

#endif  // ZARF_STATE_MODEL_NAMES_H_
