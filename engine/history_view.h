// The state a command shows for a package whose history is in the local
// cache: its snapshot, with the cache's full history (every event ingested,
// recorded or observed, beyond the Secret's cap) in place of the Secret's
// own events, so that DerivePackageState (engine/derived_status.h) answers
// from the whole history.
//
// Thread safety: pure functions over their arguments; CachedPackage uses the
// Cache as its contract says (callers serialise access).
#ifndef ZARF_STATE_ENGINE_HISTORY_VIEW_H_
#define ZARF_STATE_ENGINE_HISTORY_VIEW_H_

#include <string_view>
#include <vector>

#include "base/status.h"
#include "model/model.h"
#include "engine/cache.h"

namespace zs::engine {

// `snapshot` with `history` (a package's log, in log order) folded into what
// status derives from:
//  * `events`: the history's package events in log order, then each event
//    of the snapshot the history lacks (same type, outcome and time), in the
//    snapshot's order (a Secret newer than the cache);
//  * each component's `lastEvent`: the history's last event of that
//    component, unless the snapshot's own is later.
// Everything else is the snapshot's. Records of other kinds are ignored.
DeployedPackage WithHistory(DeployedPackage snapshot, const std::vector<HistoryEntry>& history);

// The cache's snapshot of `package` (a cache key) with its full history:
// WithHistory of SnapshotPayload and History. NotFound for a package the
// cache does not know; Corruption naming the package when its snapshot does
// not decode; the cache's errors otherwise.
Result<DeployedPackage> CachedPackage(const Cache& cache, std::string_view package);

}  // namespace zs::engine

#endif  // ZARF_STATE_ENGINE_HISTORY_VIEW_H_
