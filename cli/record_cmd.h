// `zarf-state record deploy|remove|component|finish|abandon`: append
// lifecycle events to a package Secret exactly as Zarf would write them.
//
// `record deploy` simulates a whole deploy of a package definition (the
// components Zarf's filter selects, engine/zarf_deploy.h; --fail makes one
// fail, the last release it installs Failed), or with
// --begin-only just starts one; `record component` and `record finish` then
// add single steps. `record remove` removes what Zarf's remove would
// (engine/zarf_remove.h).
// `record abandon` closes every operation left InProgress (by a hard kill).
//
// As Zarf's code does (docs/lifecycle.md): a selection Zarf refuses writes
// nothing and exits 1 with Zarf's words; a deploy or remove
// is refused (exit 1) while another operation is InProgress; a remove that
// leaves no component deletes the Secret file (with --stdout or `-f -`, a
// deletion document for `kubectl delete -f -` is printed instead); a clock
// that went backwards is recorded as given, with a warning on stderr.
//
// SIGINT, SIGTERM or SIGHUP during a deploy or remove stops it gracefully (docs/model.md rule
// 7): a Cancelled event of the operation's type is appended, the in-progress
// component's lastEvent becomes Cancelled, the Secret is written, and the
// command exits 1.
#ifndef ZARF_STATE_CLI_RECORD_CMD_H_
#define ZARF_STATE_CLI_RECORD_CMD_H_

#include <ostream>
#include <string>
#include <vector>

#include "cli/command_status.h"
#include "cli/package_session.h"

namespace CLI {
class App;
}

namespace zs::tools {

struct RecordOptions {
  SessionOptions session;
  std::string action;        // deploy | remove | component | finish | abandon
  std::string package_file;  // deploy: the ZarfPackage definition (JSON or YAML)
  std::string package_digest;
  std::string source;
  std::string config_file;   // DeployConfig / RemoveConfig (JSON or YAML)
  std::string cli_version = "v0.84.0";
  std::string connectivity = "airgap";
  std::string components;               // Zarf's --components (engine/zarf_selection.h)
  std::string fail_component;           // this one fails
  bool begin_only = false;
  int step_delay_ms = 0;                // pause between steps (tests, demos)
  bool verbose = false;                 // each step on stderr as it is recorded
  std::string component;                // component: which
  std::string outcome;                  // component/finish/abandon
  std::string codec = "auto";           // json | compact | auto
};

CommandStatus RunRecord(const RecordOptions& options, std::ostream& out, std::ostream& err);

void RegisterRecord(CLI::App* app, CommandStatus* outcome);

}  // namespace zs::tools

#endif  // ZARF_STATE_CLI_RECORD_CMD_H_
