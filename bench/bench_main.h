// The main() of a benchmark program whose inputs are synthetic (the sample
// package, a package history): it warns about builds whose numbers mean
// nothing, builds the inputs before any timing (so that no benchmark starts
// on a heap the generator left fragmented) and names them in the report's
// context.
//
// Thread safety: call once, from main().
#ifndef ZARF_STATE_BENCH_BENCH_MAIN_H_
#define ZARF_STATE_BENCH_BENCH_MAIN_H_

#include <benchmark/benchmark.h>

#include <cstdio>
#include <functional>
#include <string>

namespace zs::bench {

// Runs the benchmarks selected by the command line. `build_inputs` builds
// every input and returns what to show under `context_key` (such as
// "1049581 bytes, seed 20260821"). Returns main()'s exit code: 1 for an
// unrecognized argument, else 0.
inline int RunBenchmarksOnBuiltInputs(int argc, char** argv, const char* context_key,
                                      const std::function<std::string()>& build_inputs) {
#if !defined(__OPTIMIZE__)
  std::fprintf(stderr, "WARNING: benchmark built without optimisation; numbers are meaningless\n");
#endif
#ifndef NDEBUG
  std::fprintf(stderr, "WARNING: assertions are enabled; numbers are pessimistic\n");
#endif
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::AddCustomContext(context_key, build_inputs());
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

}  // namespace zs::bench

#endif  // ZARF_STATE_BENCH_BENCH_MAIN_H_
