// How the commands name a package: one way everywhere.
//
// - In tables (inspect, status, size, query) a package is its cache key:
//   its name, plus "-override-<namespace>" when it was deployed with a
//   namespace override (engine::PackageKey), the rest of the name of the
//   Secret Zarf keeps it in. Two Secrets of one package are two names.
// - `-o name` prints the Secret, as kubectl does: `secret/zarf-package-<key>`,
//   which `kubectl get` takes back; each once.
#ifndef ZARF_STATE_CLI_OBJECT_NAMES_H_
#define ZARF_STATE_CLI_OBJECT_NAMES_H_

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace zs::tools {

// "secret/<secret>" for a package read from a Secret of that name; for a
// bare payload (secret ""), the Secret Zarf keeps package `key` in.
std::string PackageObjectName(std::string_view secret, std::string_view key);

// Prints each of `names` once, in their first order, one a line.
void PrintUniqueNames(const std::vector<std::string>& names, std::ostream& out);

}  // namespace zs::tools

#endif  // ZARF_STATE_CLI_OBJECT_NAMES_H_
