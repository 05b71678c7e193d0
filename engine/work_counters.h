// Process-wide counts of the engine's per-record work: records decoded from
// their stored bytes (DecodeRecord) and records folded (Folder::Apply). They
// let a test show that a command reads and folds each record it needs once
// (docs/reliability.md, "Long histories").
//
// Thread safety: the counters are atomic (relaxed); a count read while
// other threads work is a snapshot.
#ifndef ZARF_STATE_ENGINE_WORK_COUNTERS_H_
#define ZARF_STATE_ENGINE_WORK_COUNTERS_H_

#include <cstdint>

namespace zs::engine {

struct WorkCounters {
  std::uint64_t records_decoded = 0;
  std::uint64_t records_folded = 0;
};

// The counts since the process started.
WorkCounters CurrentWorkCounters();

namespace internal {
void CountRecordDecoded();
void CountRecordFolded();
}  // namespace internal

}  // namespace zs::engine

#endif  // ZARF_STATE_ENGINE_WORK_COUNTERS_H_
