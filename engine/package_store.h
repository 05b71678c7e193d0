// PackageStore: one package's state as a writer (`zarf-state record`)
// changes it, in one transaction: its record log (engine/file_event_log.h;
// optional) and the Secret that holds its snapshot, which the caller writes.
//
// Open reads the package's tail from the log once (its last checkpoint and
// the records after it, each decoded once) and folds it once, into the
// Lifecycle the caller records with. The log is the source of truth: the
// Secret given must be its fold, or the fold of a strict prefix of it (a
// kill between a log append and the Secret's replacement), which is rolled
// forward; anything else is reported by disagreement(). Without records in
// the log, the Secret's snapshot is the history's Base record, which a new
// log then starts with.
//
// Commit appends what the lifecycle recorded as one chunk and holds the
// log's lock while the caller writes the Secret; when that write fails the
// chunk is taken back, which never touches another writer's bytes
// (engine/FORMAT.md, "Rules": take-back). The append reuses the tail read at Open
// unless the file changed in a way that tail may not survive.
//
// Thread safety: not thread-safe.
#ifndef ZARF_STATE_ENGINE_PACKAGE_STORE_H_
#define ZARF_STATE_ENGINE_PACKAGE_STORE_H_

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/status.h"
#include "model/model.h"
#include "engine/file_event_log.h"
#include "engine/fold.h"
#include "engine/lifecycle.h"

namespace zs::engine {

class PackageStore {
 public:
  // `log` may be null (no record log); borrowed, it must outlive the store.
  // `secret` is the snapshot the Secret holds, or null when there is none.
  static Result<std::unique_ptr<PackageStore>> Open(FileEventLog* log, std::string package,
                                                    const DeployedPackage* secret, FoldOptions fold,
                                                    Clock clock = nullptr);
  ~PackageStore();
  PackageStore(const PackageStore&) = delete;
  PackageStore& operator=(const PackageStore&) = delete;

  Lifecycle& lifecycle() { return *lifecycle_; }
  // Where the Secret given to Open and the log's fold first differ (a
  // snapshot path), when the log has records of the package and the Secret
  // is neither their fold nor a fold of a strict prefix of them; "" when
  // they agree.
  const std::string& disagreement() const { return disagreement_; }

  // Appends the records recorded since Open (or the last Commit) to the log
  // as one chunk, calls `write_secret` under the log's lock, and keeps the
  // chunk when it succeeds. When it fails the chunk is taken back and its
  // error returned, saying so; when even that fails, IOError says the log
  // is ahead of the Secret. Without a log, only `write_secret` runs.
  Status Commit(const std::function<Status()>& write_secret);

 private:
  class Records;
  PackageStore() = default;

  FileEventLog* log_ = nullptr;
  std::string package_;
  std::unique_ptr<OpenedPackage> opened_;
  std::unique_ptr<Records> records_;    // what the lifecycle folds and appends to
  std::size_t persisted_ = 0;           // records of records_ already in the log
  std::optional<DeployedPackage> before_;  // the fold at Open (a checkpoint's snapshot)
  bool quiet_ = true;                   // no operation open at Open, Secret not deleted
  std::string disagreement_;
  std::optional<Lifecycle> lifecycle_;
};

}  // namespace zs::engine

#endif  // ZARF_STATE_ENGINE_PACKAGE_STORE_H_
