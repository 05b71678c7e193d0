#include "tools/process_setup.h"

#include <malloc.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>

namespace zs::tools {
namespace {

// The subcommand of a command line: the first argument that is neither an
// option nor the value of a global option that takes one (common.cc), or
// nullptr.
const char* Subcommand(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const char* arg = argv[i];
    if (std::strcmp(arg, "--max-object-size") == 0 ||
        std::strcmp(arg, "--max-depth") == 0) {
      ++i;  // its value
      continue;
    }
    if (arg[0] == '-') continue;
    return arg;
  }
  return nullptr;
}

}  // namespace

void MaybeReexecWithHugePages(int argc, char** argv) {
#if defined(__SANITIZE_ADDRESS__)
  (void)argc;
  (void)argv;
#else
  if (argc < 2 || std::getenv("GLIBC_TUNABLES") != nullptr ||
      std::getenv("ZS_NO_HUGEPAGES") != nullptr) {
    return;
  }
  const char* command = Subcommand(argc, argv);
  if (command == nullptr ||
      (std::strcmp(command, "migrate") != 0 && std::strcmp(command, "ingest") != 0)) {
    return;
  }
  // Set ZS_NO_HUGEPAGES too, so that a glibc which ignores the tunable
  // cannot make this loop.
  if (setenv("GLIBC_TUNABLES", "glibc.malloc.hugetlb=1", 1) != 0 ||
      setenv("ZS_NO_HUGEPAGES", "1", 1) != 0) {
    return;
  }
  execv("/proc/self/exe", argv);
  // Still here: the exec failed; carry on without huge pages.
  unsetenv("GLIBC_TUNABLES");
#endif
}

void TuneAllocator() {
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  mallopt(M_TOP_PAD, 16 << 20);
}

}  // namespace zs::tools
