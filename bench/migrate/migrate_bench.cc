// `zarf-state migrate` of a List, timed inside one process, the way
// bench/peers/go_json times Go's encoding/json: no process start-up, the
// input file already in the page cache, many iterations.
//
// Each iteration is the whole job `zarf-state migrate -f LIST` does (read
// the file, parse the List, decode, migrate and re-encode every Secret,
// write the List out and render the report), through the same function the
// command runs (tools::RunMigrate); only the output goes nowhere.
//
//   zs_migrate_bench --list=LIST --payload-bytes=N [benchmark flags]
//
// LIST and N come from zs_migrate_corpus (bench/run_migrate_vs_go.sh runs
// both); the rate reported is MiB of payload per second of CPU time (the
// command runs on one thread), the unit of the Go peer's numbers.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ostream>
#include <sstream>
#include <streambuf>
#include <string>

#include "cli/common.h"
#include "cli/migrate_cmd.h"
#include "cli/process_limits.h"

namespace zs::bench {
namespace {

std::string g_list;
long long g_payload_bytes = 0;

// Counts what it is given and keeps none of it.
class DiscardBuf : public std::streambuf {
 protected:
  std::streamsize xsputn(const char*, std::streamsize n) override { return n; }
  int_type overflow(int_type c) override { return traits_type::not_eof(c); }
};

void BM_MigrateList(benchmark::State& state) {
  if (g_list.empty() || g_payload_bytes <= 0) {
    state.SkipWithError("needs --list=FILE and --payload-bytes=N (see the file comment)");
    return;
  }
  tools::MigrateOptions options;
  options.files = {g_list};
  options.progress = false;
  DiscardBuf discard;
  std::ostream out(&discard);
  for (auto _ : state) {
    std::ostringstream report;
    const int code = tools::FinishCommand(tools::RunMigrate(options, out, report), report);
    if (code != tools::kExitOk) {
      state.SkipWithError(("migrate failed: " + report.str().substr(0, 400)).c_str());
      return;
    }
    benchmark::DoNotOptimize(report);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * g_payload_bytes);
}
BENCHMARK(BM_MigrateList)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace zs::bench

int main(int argc, char** argv) {
  // The process set up as zarf-state's main sets it up (malloc keeps the
  // blocks a Secret needs in its heap): the command's own allocator, not
  // glibc's defaults.
  zs::tools::PrepareProcess();
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--list=", 7) == 0) {
      zs::bench::g_list = argv[i] + 7;
    } else if (std::strncmp(argv[i], "--payload-bytes=", 16) == 0) {
      zs::bench::g_payload_bytes = std::atoll(argv[i] + 16);
    } else {
      argv[kept++] = argv[i];
    }
  }
  argc = kept;
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
