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

// For the batch commands (migrate, ingest), when the environment does not
// already set GLIBC_TUNABLES and ZS_NO_HUGEPAGES is unset: re-executes the
// binary (same pid, same arguments) with glibc.malloc.hugetlb=1, which glibc
// reads only at start-up, so that its heap is backed by transparent huge
// pages where the kernel allows them (mode "madvise"). One page fault then
// maps 2 MiB instead of 4 KiB. Returns normally when it does nothing or the
// exec fails. Not in sanitizer builds, whose allocator is not glibc's.
void MaybeReexecWithHugePages(int argc, char** argv);

// Keeps buffers up to 32 MiB on the heap and the heap untrimmed, so that
// buffers freed by one Secret of a batch are reused by the next instead of
// being unmapped and faulted in again.
void TuneAllocator();

}  // namespace zs::tools

#endif  // ZARF_STATE_TOOLS_PROCESS_SETUP_H_
