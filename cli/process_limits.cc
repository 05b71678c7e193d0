#include "cli/process_limits.h"

#include <malloc.h>
#include <unistd.h>

#include <exception>

namespace zs::tools {
namespace {

[[noreturn]] void OnTerminate() {
  static constexpr char kMessage[] =
      "error: zarf-state stopped: out of memory or threads (see ulimit -v and ulimit -u)\n";
  [[maybe_unused]] const ssize_t n = ::write(STDERR_FILENO, kMessage, sizeof kMessage - 1);
  ::_exit(1);
}

}  // namespace

void PrepareProcess() {
  ::mallopt(M_ARENA_MAX, 2);
  std::set_terminate(OnTerminate);
}

void ReleaseFreedMemory() { ::malloc_trim(0); }

}  // namespace zs::tools
