#include "tools/process_setup.h"

#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <string_view>

#include "tools/common.h"

namespace zs::tools {
namespace {

// The subcommand of a command line: the first argument that is neither an
// option nor the value of a global option that takes one (common.h), or
// nullptr.
const char* Subcommand(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (std::find(std::begin(kGlobalFlagsWithValue), std::end(kGlobalFlagsWithValue), arg) !=
        std::end(kGlobalFlagsWithValue)) {
      ++i;  // its value
      continue;
    }
    if (arg.starts_with('-')) continue;
    return argv[i];
  }
  return nullptr;
}

constexpr std::size_t kHugePage = std::size_t{2} << 20;
// Big enough for what a batch allocates from the heap first and mostly
// never touches: simdjson's string buffer for a whole List, 5/3 of its size
// (250 MiB for a 150 MB dump). malloc serves a request from the heap's free
// top whenever it fits, whatever the mmap threshold, so with less room that
// buffer takes the region and the memtables behind it get 4 KiB pages
// (25k page faults instead of 3k for such a dump). Below M_TRIM_THRESHOLD
// (TuneAllocator), or free() would give it straight back.
constexpr std::size_t kHeapReserve = std::size_t{768} << 20;
constexpr int kTopPad = 16 << 20;

}  // namespace

void UseHugePagesForHeap(int argc, char** argv) {
#if defined(__SANITIZE_ADDRESS__)
  (void)argc;
  (void)argv;
#else
  if (argc < 2) return;
  const char* command = Subcommand(argc, argv);
  if (command == nullptr ||
      (std::strcmp(command, "migrate") != 0 && std::strcmp(command, "ingest") != 0)) {
    return;
  }
  ReserveHugePageHeap();
#endif
}

void ReserveHugePageHeap() {
#if !defined(__SANITIZE_ADDRESS__)
  if (std::getenv("ZS_NO_HUGEPAGES") != nullptr) return;
  // A block bigger than the start-up heap's free top, below the mmap
  // threshold: malloc must extend the heap with sbrk by the block plus the
  // top pad. Freed again, it stays as the heap's top (M_TRIM_THRESHOLD).
  mallopt(M_TOP_PAD, static_cast<int>(kHeapReserve));
  void* block = std::malloc(1 << 20);
  mallopt(M_TOP_PAD, kTopPad);
  if (block == nullptr) return;
  const auto from = reinterpret_cast<std::uintptr_t>(block);
  const auto to = reinterpret_cast<std::uintptr_t>(sbrk(0));
  std::free(block);
  const std::uintptr_t start = (from + kHugePage - 1) & ~(kHugePage - 1);
  const std::uintptr_t end = to & ~(kHugePage - 1);
  // Failure (no THP support) only costs speed.
  if (end > start) (void)madvise(reinterpret_cast<void*>(start), end - start, MADV_HUGEPAGE);
#endif
}

void TuneAllocator() {
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  mallopt(M_TOP_PAD, kTopPad);
}

}  // namespace zs::tools
