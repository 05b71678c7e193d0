// `zarf-state config digest|diff`: the digest Zarf records for a
// DeployConfig/RemoveConfig (or the canonical RFC 8785 one), and the paths
// that changed between two configs, credentials masked by the one rule
// (codec/credentials.h). OLD, NEW or the digest's input may be a package
// Secret: its recorded deployConfig is used.
#ifndef ZARF_STATE_TOOLS_CONFIG_CMD_H_
#define ZARF_STATE_TOOLS_CONFIG_CMD_H_

#include <ostream>
#include <string>
#include <vector>

#include "json/json_value.h"
#include "engine/config_diff.h"

namespace CLI {
class App;
}

namespace zs::tools {

struct ConfigOptions {
  std::string action;        // digest | diff
  std::string kind = "deploy";
  std::string file = "-";    // digest
  bool canonical = false;    // digest
  std::string old_file, new_file;  // diff
  std::string output = "table";    // diff
  // diff: a ZarfPackage definition whose sensitive variables are masked too
  // (a package Secret given as OLD or NEW brings its own).
  std::string package_file;
  bool exit_code = false;  // diff: exit 1 when the configs differ, as git diff
};

// The stable `-o json` form of a config diff: [{path, change
// (added|removed|changed), old, new, masked}].
json::Value ConfigChangesJson(const std::vector<engine::ConfigChange>& changes);

int RunConfig(const ConfigOptions& options, std::ostream& out, std::ostream& err);
void RegisterConfig(CLI::App* app, int* exit_code);

}  // namespace zs::tools

#endif  // ZARF_STATE_TOOLS_CONFIG_CMD_H_
