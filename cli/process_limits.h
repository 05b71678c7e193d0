// What the process sets up before any command runs, so that running out of
// address space or threads (`ulimit -v`, `ulimit -u`) ends in a message and
// exit 1 rather than an abort.
//
// Thread safety: PrepareProcess once, first thing in main; ReleaseFreedMemory
// from any thread.
#ifndef ZARF_STATE_CLI_PROCESS_LIMITS_H_
#define ZARF_STATE_CLI_PROCESS_LIMITS_H_

namespace zs::tools {

// Caps glibc's malloc arenas at two: each thread RocksDB starts would
// otherwise reserve a 64 MiB arena of address space, which alone exhausts a
// `ulimit -v` of a few hundred MiB. Keeps blocks of up to 4 MiB in the
// heap, reused rather than mapped and faulted in again. Installs a terminate handler that says
// the process ran out of memory or threads and exits 1 (a thread that
// cannot be started ends in std::terminate inside RocksDB).
void PrepareProcess();

// Gives the memory freed so far back to the kernel. glibc keeps a large
// block freed inside its heap resident (one allocated after a larger block
// was freed lands there): called before a large allocation (zstd's tables)
// that follows the release of a large tree, so the two never add up in the
// peak resident set.
void ReleaseFreedMemory();

}  // namespace zs::tools

#endif  // ZARF_STATE_CLI_PROCESS_LIMITS_H_
