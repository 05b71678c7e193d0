// `zarf-state bench growth`: the size-growth simulation (docs/model.md section 3, the
// "no Secret outgrows 1 MiB" goal; the simulation is report/growth_sim.h).
//
//   zarf-state bench growth [--out DIR] [--cycles N] [--components N]
//       [--images N] [--charts N] [--values-bytes N] [--max-events N]
//       [--pin-digests] [--max-images N] [--codecs LIST] [-o table|wide|json|yaml]
//       [--no-headers] [-q]
//
// Runs N deploy/upgrade/remove cycles on a package of the given shape and
// writes into DIR (created if missing; files mode 0644, they hold no cluster
// state):
//   growth-cycles.csv  cycle,codec,bytes     the Secret after each cycle
//   growth-size.csv    images,components,codec,bytes
//                      the Secret after N cycles for growing packages
//                      (components fixed, images per component scaled)
//   growth-fit.csv     codec,images,bytes,capped
//                      the largest package that fits, per codec; capped:
//                      the search stopped at --max-images while it still fit
//   growth-cycles.svg, growth-size.svg       the same as line charts, one
//                      line per codec, the 1 MiB limit drawn dashed, a
//                      search that stopped at its cap marked
// and prints, per codec: the size after N cycles, the headroom under the
// limit, and the largest package (components x images per component) whose
// Secret after N cycles still fits, with its image count relative to json.
// Exit codes: 0, 1 when the simulation or writing a file fails, 2 for bad
// flags.
#ifndef ZARF_STATE_CLI_BENCH_CMD_H_
#define ZARF_STATE_CLI_BENCH_CMD_H_

#include <ostream>
#include <string>
#include <vector>

#include "report/growth_sim.h"
#include "cli/command_status.h"
#include "cli/output.h"

namespace CLI {
class App;
}

namespace zs::tools {

struct BenchGrowthOptions {
  std::string out_dir = "bench-growth";
  // The full run's cycles; the command line's default without --full is a
  // quick run of fewer cycles and a smaller search (cli/bench_cmd.cc).
  int cycles = 50;
  bool full = false;  // --full: the title line says which run it was
  PackageShape shape;
  // Search the largest fitting package up to this many images. Default
  // 500,000 (FitOptions): enough to show compact's 10x over json while the
  // default run stays under 20 s.
  int max_images = 500000;
  // Codecs to measure, by name (json, gzip, compact). Default all three.
  std::vector<std::string> codecs = {"json", "gzip", "compact"};
  OutputOptions output;  // table | wide | json | yaml; --no-headers
  bool progress = false;         // a progress line on `err` (cli/progress.h)
  bool quiet = false;            // -q: the CLI sets no progress
};

CommandStatus RunBenchGrowth(const BenchGrowthOptions& options, std::ostream& out, std::ostream& err);
// Adds `bench` with its subcommand `growth`.
void RegisterBench(CLI::App* app, CommandStatus* outcome);

}  // namespace zs::tools

#endif  // ZARF_STATE_CLI_BENCH_CMD_H_
