// What `observe` does with each Secret it sees (docs/keep-history.md): the
// history derived from Zarf v0.84's writes (engine/observe.h), stored in the
// local cache as ordinary history, and the resourceVersion seen of each
// package.
//
// Per package the cache's snapshot is the observer's view (the last write
// seen, with the derived events), stored step by step through Cache::Ingest
// so each derived event is one record of the package's log. Next to the
// cache, "observe-state.json" (mode 0600, replaced atomically under a lock,
// io/state_file.h) keeps per package the Secret's namespace, name and
// the resourceVersion last observed: a Secret whose resourceVersion is not
// newer than that was already observed and adds nothing; one older than a
// write observed earlier in the same run is out of order, refused. A write
// is durable once Commit returns; its lines are printed only then. A crash
// between the cache's write and the state file's leaves an older
// resourceVersion, and observing that write again derives nothing (it
// equals the view).
//
// The time of a write is the newest `metadata.managedFields[].time` of the
// Secret (the API server's time of the last apply that changed it) when it
// has one, else the time it was seen; always after the view's last event.
//
// Thread safety: not thread-safe.
#ifndef ZARF_STATE_CLI_OBSERVER_H_
#define ZARF_STATE_CLI_OBSERVER_H_

#include <cstdint>
#include <map>
#include <memory>
#include <ostream>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "kube/secret.h"
#include "engine/cache.h"
#include "io/state_file.h"

namespace zs::tools {

// The file next to the cache that keeps the resourceVersions observed.
inline constexpr std::string_view kObserveStateFile = "observe-state.json";

class Observer {
 public:
  // Opens the cache in `db` (created if missing) and its observe state.
  // Lines ("KEY Deploy/InProgress 1.0.0 TIME", "KEY c0 Deploy/Succeeded
  // TIME") go to `out` once durable.
  static Result<std::unique_ptr<Observer>> Open(const std::string& db, std::ostream& out);

  // Observes one object of an input. `seen`: when it was seen. Errors name
  // the object: one that is no package Secret, a payload that does not
  // decode, a resourceVersion older than one observed before in this run.
  // Nothing of a refused object is stored.
  Status See(const InputObject& object, Timestamp seen);
  // The Secret `object` (its last state) was deleted.
  Status SeeDeleted(const InputObject& object, Timestamp seen);
  // A list of a whole namespace starts: ListEnded counts the packages seen
  // from here.
  void ListStarted() { listed_.clear(); }
  // `namespace_` was listed whole and held exactly the packages observed
  // since ListStarted: every package known in it that the list lacks was
  // deleted.
  Status ListEnded(std::string_view namespace_, Timestamp seen);
  // Makes what was observed durable (cache, then state file), then prints
  // its lines.
  Status Commit();

  std::uint64_t writes() const { return writes_; }
  std::uint64_t events() const { return events_; }

 private:
  Observer(std::unique_ptr<engine::Cache> cache, std::unique_ptr<StateFile> state,
           std::ostream& out)
      : cache_(std::move(cache)), state_file_(std::move(state)), out_(out) {}

  struct Known {
    std::string namespace_;
    std::string secret;
    std::string resource_version;
    bool deleted = false;  // the last write observed deleted the Secret
  };

  Status LoadState();
  std::string EncodeState() const;
  // Derives and stores the events of one write of package `key`.
  Status Apply(const std::string& key, const std::optional<DeployedPackage>& write,
               Timestamp seen, std::string_view label);

  std::unique_ptr<engine::Cache> cache_;
  std::unique_ptr<StateFile> state_file_;
  std::ostream& out_;
  std::map<std::string, Known, std::less<>> known_;
  std::set<std::string, std::less<>> seen_this_run_;
  std::set<std::string, std::less<>> listed_;  // keys seen since the last ListEnded
  std::vector<std::string> lines_;             // printed at Commit
  bool dirty_ = false;
  std::uint64_t writes_ = 0;
  std::uint64_t events_ = 0;
};

// Compares two resourceVersions: by number when both are decimal integers
// (as every API server writes them), else as equal when the same text.
// -1, 0, 1; 2 when they cannot be ordered.
int CompareResourceVersions(std::string_view a, std::string_view b);

// The newest metadata.managedFields[].time of a Secret, if any.
std::optional<Timestamp> SecretWriteTime(const json::Value& secret);

}  // namespace zs::tools

#endif  // ZARF_STATE_CLI_OBSERVER_H_
