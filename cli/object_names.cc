#include "cli/object_names.h"

#include <set>

#include "kube/secret.h"
#include "base/terminal_text.h"

namespace zs::tools {

std::string PackageObjectName(std::string_view secret, std::string_view key) {
  if (!secret.empty()) return "secret/" + std::string(secret);
  return "secret/" + std::string(kPackageSecretPrefix) + std::string(key);
}

void PrintUniqueNames(const std::vector<std::string>& names, std::ostream& out) {
  std::set<std::string_view> seen;
  for (const std::string& n : names) {
    if (seen.insert(n).second) out << TerminalText(n) << "\n";
  }
}

}  // namespace zs::tools
