// zarf-state: the command line. Builds the CLI11 app, registers the
// subcommands (each in its own file) and maps the outcome to an exit code.
#include <CLI/CLI.hpp>

#include <iostream>

#include "cli/bench_cmd.h"
#include "cli/cli_basics.h"
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
  int exit_code = zs::tools::kExitOk;
  zs::tools::RegisterInspect(&app, &exit_code);
  zs::tools::RegisterMigrate(&app, &exit_code);
  zs::tools::RegisterRecord(&app, &exit_code);
  zs::tools::RegisterStatus(&app, &exit_code);
  zs::tools::RegisterReplay(&app, &exit_code);
  zs::tools::RegisterConfig(&app, &exit_code);
  zs::tools::RegisterSize(&app, &exit_code);
  zs::tools::RegisterBench(&app, &exit_code);
  zs::tools::RegisterPrune(&app, &exit_code);
  zs::tools::RegisterIngest(&app, &exit_code);
  zs::tools::RegisterObserve(&app, &exit_code);
  zs::tools::RegisterQuery(&app, &exit_code);
  zs::tools::RegisterVerify(&app, &exit_code);
  zs::tools::RegisterReport(&app, &exit_code);
  zs::tools::RegisterCompletion(&app, &exit_code);
  // After every command: version, help, the Examples footers.
  zs::tools::RegisterCliBasics(&app, argv[0], &exit_code);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    exit_code = zs::tools::ExitForParseError(app, e, std::cout, std::cerr);
  }
  // Whatever a command printed must have reached its file: a full disk or
  // /dev/full is exit 1, never a silent success with a cut output.
  if (zs::Status s = zs::tools::CloseStandardOutput(); !s.ok()) {
    std::cerr << "error: " << s.message() << "\n";
    if (exit_code == zs::tools::kExitOk) exit_code = zs::tools::kExitSomeFailed;
  }
  return exit_code;
}
