// Runs another program (kubectl) and collects what it prints.
//
// Thread safety: RunProcess may be called from any thread; it forks, so
// the caller's other threads must not hold locks the child needs (the
// child only execs).
#ifndef ZARF_STATE_KUBE_SUBPROCESS_H_
#define ZARF_STATE_KUBE_SUBPROCESS_H_

#include <sys/types.h>

#include <cstddef>
#include <string>
#include <vector>

#include "base/status.h"

namespace zs::tools {

struct ProcessResult {
  int exit_code = -1;  // -1 when the program did not exit normally
  int signal = 0;      // the signal that ended it, if one did
  std::string out;     // all of its standard output
  std::string err;     // its standard error, the first 64 KiB
};

// Runs `argv` (argv[0] is searched on PATH unless it holds a '/') with
// standard input /dev/null and this process's environment, and waits for
// it. OK with the result whatever the program's exit code. NotFound when
// argv[0] is not found on PATH; IOError when it cannot be started or read;
// InvalidArgument when it prints more than `max_out` bytes on stdout, and
// IOError "<program>: no answer within N s (killed)" when it has not ended
// `timeout_ms` milliseconds after it started (0: no limit); it is killed
// then.
Result<ProcessResult> RunProcess(const std::vector<std::string>& argv, std::size_t max_out,
                                 long timeout_ms = 0);

// Starts `argv` (argv[0] is searched on PATH unless it holds a '/') with
// standard input /dev/null, standard output `out_fd`, standard error
// `err_fd` and this process's environment, and returns its pid without
// waiting: the caller reaps it (waitpid). The descriptors stay the
// caller's to close; the child gets copies. NotFound "<program>: not found
// on PATH"; IOError "<program>: cannot start: <reason>".
Result<pid_t> SpawnProcess(const std::vector<std::string>& argv, int out_fd, int err_fd);

}  // namespace zs::tools

#endif  // ZARF_STATE_KUBE_SUBPROCESS_H_
