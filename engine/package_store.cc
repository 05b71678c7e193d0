#include "engine/package_store.h"

#include <utility>

#include "engine/derived_status.h"

namespace zs::engine {

// The records the lifecycle folds: the package's history as opened (its
// last checkpoint as a Base, then the records after it), then what it
// appends. Nothing is copied into a second log or read twice.
class PackageStore::Records : public EventLog {
 public:
  explicit Records(std::string package) : package_(std::move(package)) {}

  Result<AppendResult> Append(std::string_view, const Record& record) override {
    list.push_back(record);
    return AppendResult{list.size(), true};
  }
  Result<std::vector<Record>> Read(std::string_view package, std::uint64_t first,
                                   std::uint64_t limit) const override {
    std::vector<Record> out;
    if (package != package_ || first == 0) return out;
    for (std::uint64_t i = first - 1; i < list.size() && i - (first - 1) < limit; ++i) out.push_back(list[i]);
    return out;
  }
  Result<std::uint64_t> Size(std::string_view package) const override {
    return package == package_ ? list.size() : 0;
  }
  Result<std::vector<std::string>> Packages() const override {
    if (list.empty()) return std::vector<std::string>();
    return std::vector<std::string>{package_};
  }

  std::vector<Record> list;

 private:
  std::string package_;
};

namespace {

// A Secret written after the log append and before a kill trails the log:
// it is the fold of a strict prefix of the records.
bool TrailsTheLog(const DeployedPackage& secret, const std::vector<Record>& logged, const FoldOptions& fold) {
  for (std::size_t n = logged.size(); n-- > 1;) {
    auto prefix = FoldPrefix(logged, n, fold);
    if (prefix.ok() && CompareSnapshots(secret, *prefix).empty()) return true;
  }
  return false;
}

}  // namespace

PackageStore::~PackageStore() = default;

Result<std::unique_ptr<PackageStore>> PackageStore::Open(FileEventLog* log, std::string package,
                                                         const DeployedPackage* secret, FoldOptions fold,
                                                         Clock clock) {
  std::unique_ptr<PackageStore> s(new PackageStore());
  s->log_ = log;
  s->package_ = std::move(package);
  s->records_ = std::make_unique<Records>(s->package_);
  std::vector<Record>& list = s->records_->list;
  if (log != nullptr) {
    ZS_ASSIGN_OR_RETURN(s->opened_, log->OpenPackage(s->package_));
    PackageTail& tail = s->opened_->tail();
    if (tail.checkpoint) list.push_back(std::move(*tail.checkpoint));
    tail.checkpoint.reset();
    list.insert(list.end(), std::make_move_iterator(tail.records.begin()),
                std::make_move_iterator(tail.records.end()));
    s->persisted_ = list.size();
  }
  const bool logged = !list.empty();
  if (!logged && secret != nullptr) {
    // The history starts from the Secret; a new log starts with it too.
    Record base;
    base.kind = RecordKind::kBase;
    base.base = std::make_shared<const DeployedPackage>(*secret);
    list.push_back(std::move(base));
  }
  ZS_ASSIGN_OR_RETURN(Lifecycle lc, Lifecycle::Open(s->records_.get(), s->package_, fold, std::move(clock)));
  s->lifecycle_.emplace(std::move(lc));
  if (logged && secret != nullptr) {
    const std::vector<Drift> drift = CompareSnapshots(*secret, s->lifecycle_->snapshot());
    if (!drift.empty() && !TrailsTheLog(*secret, list, fold)) s->disagreement_ = drift[0].path;
  }
  s->before_ = s->lifecycle_->snapshot();
  s->quiet_ = OpenOperations(s->before_->events).empty() && !s->lifecycle_->secret_deleted();
  return s;
}

Status PackageStore::Commit(const std::function<Status()>& write_secret) {
  std::unique_ptr<PendingAppend> pending;
  const std::vector<Record>& list = records_->list;
  if (log_ != nullptr && list.size() > persisted_) {
    const std::vector<Record> fresh(list.begin() + static_cast<std::ptrdiff_t>(persisted_), list.end());
    if (opened_ != nullptr) {
      ZS_ASSIGN_OR_RETURN(pending, log_->BeginAppendAfter(*opened_, fresh, *before_, quiet_));
    } else {
      ZS_ASSIGN_OR_RETURN(pending, log_->BeginAppend(package_, fresh));
    }
  }
  const Status written = write_secret();
  const bool appended = pending != nullptr && pending->chunk().length > 0;
  if (!written.ok()) {
    if (!appended) return written;
    const Status cut = pending->TakeBack();
    if (!cut.ok()) {
      return Status::IOError(std::string(written.message()) + "; and the records already appended to " +
                             log_->path() + " could not be taken back (" + std::string(cut.message()) +
                             "): the log is ahead of the Secret by an operation it never got");
    }
    return Status::IOError(std::string(written.message()) + "; the records appended to " + log_->path() +
                           " were taken back");
  }
  if (pending != nullptr) pending->Commit();
  // A later commit appends after what is now in the file.
  persisted_ = list.size();
  opened_.reset();
  return Status::OK();
}

}  // namespace zs::engine
