// `zarf-state config digest|diff`: the digest Zarf records for a
// DeployConfig/RemoveConfig (or the canonical RFC 8785 one), and the paths
// that changed between two configs, credentials masked by the one rule
// (model/credentials.h). OLD, NEW or the digest's input may be a package
// Secret: its recorded deployConfig is used.
#ifndef ZARF_STATE_CLI_CONFIG_CMD_H_
#define ZARF_STATE_CLI_CONFIG_CMD_H_

#include <ostream>
#include <string>
#include <vector>

#include "json/json_value.h"
#include "engine/config_diff.h"
#include "cli/command_status.h"
#include "cli/output.h"

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
  OutputOptions output;            // diff: table | wide | json | yaml; --no-headers
  // diff: a ZarfPackage definition whose sensitive variables are masked too
  // (a package Secret given as OLD or NEW brings its own).
  std::string package_file;
  bool exit_code = false;  // diff: exit 1 when the configs differ, as git diff
};

// The stable `-o json` form of a config diff: [{path, change
// (added|removed|changed), old, new, masked}].
json::Value ConfigChangesJson(const std::vector<engine::ConfigChange>& changes);

// The table form of the same records: CHANGE (added|removed|changed), PATH,
// OLD, NEW (compact JSON; "-" for a side that is absent), and with -o wide
// MASKED.
void PrintConfigChangesTable(const std::vector<engine::ConfigChange>& changes,
                             const OutputOptions& output, std::ostream& out);

CommandStatus RunConfig(const ConfigOptions& options, std::ostream& out, std::ostream& err);
void RegisterConfig(CLI::App* app, CommandStatus* outcome);

}  // namespace zs::tools

#endif  // ZARF_STATE_CLI_CONFIG_CMD_H_
