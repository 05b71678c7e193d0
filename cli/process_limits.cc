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
  // Blocks of up to 4 MiB (a Secret of at most 1 MiB and its copies: the
  // base64 text, the payload, the output) come from the heap, and up to
  // 8 MiB of freed heap top (glibc's rule, twice that) stays mapped, so each
  // Secret of a List reuses the memory of the one before. glibc's defaults
  // map, zero and unmap a block anew whenever one is larger than any freed
  // before, which a List of growing payloads does Secret after Secret.
  // Larger blocks (the arrays of an oversized document) are still mapped,
  // so that one grown is given back at once.
  ::mallopt(M_MMAP_THRESHOLD, 4 << 20);
  ::mallopt(M_TRIM_THRESHOLD, 8 << 20);
  std::set_terminate(OnTerminate);
}

void ReleaseFreedMemory() { ::malloc_trim(0); }

}  // namespace zs::tools
