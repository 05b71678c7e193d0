// Process-wide set-up of the zarf-state binary that has to happen before
// anything else runs: how glibc's allocator treats the large, short-lived
// buffers of a batch (a List of hundreds of Secrets is parsed, decoded and
// written again), which dominate the cost of `migrate` and `ingest` on this
// kind of machine through page faults rather than through computation.
//
// Thread safety: call from main() before any other thread exists.
#ifndef ZARF_STATE_TOOLS_PROCESS_SETUP_H_
#define ZARF_STATE_TOOLS_PROCESS_SETUP_H_

namespace zs::tools {

// For the batch commands (migrate, ingest), unless ZS_NO_HUGEPAGES is set:
// grows the heap once, now, by 768 MiB of address space (nothing is touched)
// and asks for transparent huge pages on it (madvise; the kernel's mode is
// "madvise" on this kind of machine), so that one page fault maps 2 MiB
// instead of 4 KiB. This is what glibc.malloc.hugetlb=1 does, without the
// re-exec that tunable needs (glibc reads it only at start-up), which cost
// a second process start of about 20 ms. Call after TuneAllocator. Not in
// sanitizer builds, whose allocator is not glibc's.
void UseHugePagesForHeap(int argc, char** argv);

// What UseHugePagesForHeap does for a batch command, whatever the command
// line (also unless ZS_NO_HUGEPAGES is set): for programs that measure one
// (the cache and migrate benchmarks). Call after TuneAllocator, before any
// other thread exists.
void ReserveHugePageHeap();

// Keeps buffers up to 32 MiB on the heap and the heap untrimmed, so that
// buffers freed by one Secret of a batch are reused by the next instead of
// being unmapped and faulted in again.
void TuneAllocator();

}  // namespace zs::tools

#endif  // ZARF_STATE_TOOLS_PROCESS_SETUP_H_
