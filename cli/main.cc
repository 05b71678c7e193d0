// zarf-state: the command line. Builds the CLI11 app, registers the
// subcommands (each in its own file), runs the one the command line names
// and turns its outcome into the error line and the exit code
// (FinishCommand, cli/command_status.h).
#include <CLI/CLI.hpp>

#include <iostream>

#include "cli/bench_cmd.h"
#include "cli/cli_basics.h"
#include "cli/command_status.h"
#include "cli/common.h"
#include "io/standard_output.h"
#include "cli/completion_cmd.h"
#include "cli/config_cmd.h"
#include "cli/ingest_cmd.h"
#include "cli/inspect_cmd.h"
#include "cli/migrate_cmd.h"
#include "cli/observe_cmd.h"
#include "cli/process_limits.h"
#include "cli/prune_cmd.h"
#include "cli/query_cmd.h"
#include "cli/record_cmd.h"
#include "cli/replay_cmd.h"
#include "cli/report_cmd.h"
#include "cli/size_cmd.h"
#include "cli/status_cmd.h"
#include "cli/verify_cmd.h"

int main(int argc, char** argv) {
  zs::tools::PrepareProcess();
  zs::tools::UseCheckedStandardOutput();
  CLI::App app{"zarf-state: event-sourced state for Zarf deployed packages"};
  app.set_version_flag("--version", "zarf-state " ZS_VERSION);
  app.require_subcommand(1);
  zs::tools::RegisterLimitFlags(&app);
  zs::tools::CommandStatus outcome;  // the command's, stored by its callback
  zs::tools::RegisterInspect(&app, &outcome);
  zs::tools::RegisterMigrate(&app, &outcome);
  zs::tools::RegisterRecord(&app, &outcome);
  zs::tools::RegisterStatus(&app, &outcome);
  zs::tools::RegisterReplay(&app, &outcome);
  zs::tools::RegisterConfig(&app, &outcome);
  zs::tools::RegisterSize(&app, &outcome);
  zs::tools::RegisterBench(&app, &outcome);
  zs::tools::RegisterPrune(&app, &outcome);
  zs::tools::RegisterIngest(&app, &outcome);
  zs::tools::RegisterObserve(&app, &outcome);
  zs::tools::RegisterQuery(&app, &outcome);
  zs::tools::RegisterVerify(&app, &outcome);
  zs::tools::RegisterReport(&app, &outcome);
  zs::tools::RegisterCompletion(&app, &outcome);
  // After every command: version, help, the Examples footers.
  zs::tools::RegisterCliBasics(&app, argv[0], &outcome);
  int exit_code = zs::tools::kExitOk;
  try {
    app.parse(argc, argv);
    exit_code = zs::tools::FinishCommand(outcome, std::cerr);
  } catch (const CLI::ParseError& e) {
    exit_code = zs::tools::ExitForParseError(app, e, std::cout, std::cerr);
  }
  // Whatever a command printed must have reached its file: a full disk or
  // /dev/full is exit 1, never a silent success with a cut output.
  if (zs::Status s = zs::tools::CloseStandardOutput(); !s.ok()) {
    zs::tools::PrintError(std::cerr, s.message());
    if (exit_code == zs::tools::kExitOk) exit_code = zs::tools::kExitSomeFailed;
  }
  return exit_code;
}
