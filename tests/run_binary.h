// Runs the real zarf-state binary (or another program) from a test and
// captures what it prints, on tests/subprocess_runner.h.
//
// Thread safety: not thread-safe (forks; output goes through files in `dir`).
#ifndef ZARF_STATE_TESTS_RUN_BINARY_H_
#define ZARF_STATE_TESTS_RUN_BINARY_H_

#include <sys/resource.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "tests/subprocess_runner.h"
#include "tests/test_util.h"

namespace zs::testing {

struct RunResult {
  int exit_code = -1;  // -1 when it did not exit normally
  int signal = 0;      // the signal that ended it, if any
  std::string out;
  std::string err;
  long max_rss_kib = 0;  // peak resident memory of the child
};

// Starts `binary args...` with stdin from `in_path` (/dev/null for "") and
// stdout/stderr into the files named (or /dev/null for ""). Returns the
// child's pid (reap it with WaitChild).
inline pid_t SpawnBinary(const std::string& binary, const std::vector<std::string>& args,
                         const std::string& out_path = "", const std::string& err_path = "",
                         const std::string& in_path = "") {
  ChildSpec spec;
  spec.argv = {binary};
  spec.argv.insert(spec.argv.end(), args.begin(), args.end());
  if (!in_path.empty()) spec.stdin_path = in_path;
  if (!out_path.empty()) spec.stdout_path = out_path;
  if (!err_path.empty()) spec.stderr_path = err_path;
  return SpawnChild(spec);
}

// Where the child's stdin and stdout go, and the largest file it may write
// (0: no limit), as ChildSpec says.
struct ChildSetup {
  std::string stdin_path = "/dev/null";
  std::string stdout_path = "/dev/null";
  rlim_t file_size_limit = 0;
  rlim_t address_space_limit = 0;  // ulimit -v, in bytes (0: none)
};

// Runs `binary args...` as `child` says to its end; stderr is captured
// through a file in `dir` (out stays empty).
inline RunResult RunLimited(const std::string& binary, const std::vector<std::string>& args,
                            const ChildSetup& child, const std::filesystem::path& dir) {
  const std::string err_path = (dir / ".stderr").string();
  ChildSpec spec;
  spec.argv = {binary};
  spec.argv.insert(spec.argv.end(), args.begin(), args.end());
  spec.stdin_path = child.stdin_path;
  spec.stdout_path = child.stdout_path;
  spec.stderr_path = err_path;
  spec.file_size_limit = child.file_size_limit;
  spec.address_space_limit = child.address_space_limit;
  const ChildExit exit = WaitChild(SpawnChild(spec));
  RunResult r;
  r.exit_code = exit.exit_code;
  r.signal = exit.signal;
  r.max_rss_kib = exit.max_rss_kib;
  r.err = ReadFile(err_path);
  std::filesystem::remove(err_path);
  return r;
}

// Runs `binary args...` to its end, with stdin from `in_path` (/dev/null
// for ""); stdout and stderr are captured through files in `dir`.
inline RunResult RunBinary(const std::string& binary, const std::vector<std::string>& args,
                           const std::filesystem::path& dir, const std::string& in_path = "") {
  const std::string out_path = (dir / ".stdout").string();
  ChildSetup child;
  if (!in_path.empty()) child.stdin_path = in_path;
  child.stdout_path = out_path;
  RunResult r = RunLimited(binary, args, child, dir);
  r.out = ReadFile(out_path);
  std::filesystem::remove(out_path);
  return r;
}

}  // namespace zs::testing

#endif  // ZARF_STATE_TESTS_RUN_BINARY_H_
