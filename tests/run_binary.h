// Runs the real zarf-state binary from a test and captures what it prints.
//
// Thread safety: not thread-safe (forks; output goes through files in `dir`).
#ifndef ZARF_STATE_TESTS_RUN_BINARY_H_
#define ZARF_STATE_TESTS_RUN_BINARY_H_

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

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
// child's pid.
inline pid_t SpawnBinary(const std::string& binary, const std::vector<std::string>& args,
                         const std::string& out_path = "", const std::string& err_path = "",
                         const std::string& in_path = "") {
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(binary.c_str()));
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid == 0) {
    auto open_out = [](const std::string& path) {
      return path.empty() ? ::open("/dev/null", O_WRONLY)
                          : ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    };
    ::dup2(::open(in_path.empty() ? "/dev/null" : in_path.c_str(), O_RDONLY), 0);
    ::dup2(open_out(out_path), 1);
    ::dup2(open_out(err_path), 2);
    ::execv(binary.c_str(), argv.data());
    ::_exit(127);
  }
  return pid;
}

// Runs `binary args...` to its end, with stdin from `in_path` (/dev/null
// for ""); stdout and stderr are captured through files in `dir`.
inline RunResult RunBinary(const std::string& binary, const std::vector<std::string>& args,
                           const std::filesystem::path& dir, const std::string& in_path = "") {
  const std::string out_path = (dir / ".stdout").string();
  const std::string err_path = (dir / ".stderr").string();
  const pid_t pid = SpawnBinary(binary, args, out_path, err_path, in_path);
  RunResult r;
  int status = 0;
  struct rusage usage {};
  while (::wait4(pid, &status, 0, &usage) < 0) {
  }
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  r.max_rss_kib = usage.ru_maxrss;
  r.out = ReadFile(out_path);
  r.err = ReadFile(err_path);
  std::filesystem::remove(out_path);
  std::filesystem::remove(err_path);
  return r;
}

// Where the child's stdin and stdout go, and the largest file it may write
// (0: no limit). Past the limit a write fails with EFBIG, as on a full
// disk; SIGXFSZ, which would kill it instead, is ignored.
struct ChildSetup {
  std::string stdin_path = "/dev/null";
  std::string stdout_path = "/dev/null";
  rlim_t file_size_limit = 0;
};

// Runs `binary args...` as `child` says; stderr is captured through a file
// in `dir` (out stays empty, max_rss_kib 0).
inline RunResult RunLimited(const std::string& binary, const std::vector<std::string>& args,
                            const ChildSetup& child, const std::filesystem::path& dir) {
  const std::string err_path = (dir / ".stderr").string();
  std::vector<std::string> argv_s = {binary};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::dup2(::open(child.stdin_path.c_str(), O_RDONLY), 0);
    ::dup2(::open(child.stdout_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600), 1);
    ::dup2(::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600), 2);
    if (child.file_size_limit != 0) {
      ::signal(SIGXFSZ, SIG_IGN);  // inherited across exec
      const struct rlimit limit = {child.file_size_limit, child.file_size_limit};
      ::setrlimit(RLIMIT_FSIZE, &limit);
    }
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
  }
  RunResult r;
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  r.err = ReadFile(err_path);
  return r;
}

}  // namespace zs::testing

#endif  // ZARF_STATE_TESTS_RUN_BINARY_H_
