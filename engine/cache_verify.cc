// Verify: what the cache stores, checked against what it implies.
//
// Per package: the status record decodes and equals the status recomputed
// from the snapshot; the log is
// numbered 1..n without gaps, every record decodes and its identity is in
// `ids` (and `ids` holds nothing else); every record the snapshot implies is
// in the log (nothing ingested was lost); the fold of the log (uncapped) ends
// with exactly the snapshot's events and gives the same derived status.
// Across packages: every index entry recomputed from the snapshots is stored
// and no other entry is, and no log belongs to a package without a snapshot.
#include <algorithm>
#include <map>
#include <set>

#include "model/credentials.h"
#include "model/model_json.h"
#include "kube/package_secret.h"
#include "engine/derived_status.h"
#include "engine/fold.h"
#include "engine/internal/cache_impl.h"

namespace zs::engine::internal {
namespace {

std::string TimeText(const std::optional<Timestamp>& t) {
  return t ? FormatRfc3339(*t) : std::string("(none)");
}

std::string EventText(const PackageEvent& e) {
  std::string s;
  AppendPackageEvent(&s, e);
  return s;
}

// An event as the report prints it: its source scrubbed (model/credentials.h).
std::string ShownEventText(const PackageEvent& e) {
  PackageEvent shown = e;
  shown.source = ScrubSource(e.source);
  return EventText(shown);
}

// The problems found in one package, each prefixed with the package.
class Problems {
 public:
  Problems(std::string_view package, VerifyReport* report)
      : who_("package " + std::string(package) + ": "), report_(report) {}
  void Add(const std::string& what) const { report_->problems.push_back(who_ + what); }

 private:
  std::string who_;
  VerifyReport* report_;
};

// The status record `have` against the status recomputed from the snapshot.
void CheckStatusRecord(const PackageStatus& have, const DeployedPackage& pkg,
                       const Problems& problems) {
  PackageStatus want = have;
  FillStatus(pkg, &want);
  if (have.latest != want.latest || have.latest_time != want.latest_time) {
    problems.Add("status record says latest " + have.latest + " at " + TimeText(have.latest_time) +
                 ", the snapshot " + want.latest + " at " + TimeText(want.latest_time));
  }
  if (have.in_progress_since != want.in_progress_since) {
    problems.Add("status record says in progress since " + TimeText(have.in_progress_since) +
                 ", the snapshot " + TimeText(want.in_progress_since));
  }
  if (have.name != want.name || have.version != want.version || have.generation != want.generation) {
    problems.Add("status record's name/version/generation differ from the snapshot's");
  }
}

// The package's log records, decoded, and the identity of each record read
// (id -> sequence number).
struct LogContents {
  std::vector<Record> records;
  std::map<std::string, std::uint64_t> seq_of_id;
};

// Reads the package's log (`prefix` is its length-prefixed name): numbered
// 1..n without gaps, every record decodes; then its ids entries, which must
// name exactly the records read.
Status CheckLog(const CacheDb& db, const std::string& prefix, const Problems& problems,
                LogContents* log) {
  std::uint64_t next = 1;
  bool numbering_reported = false;
  ZS_RETURN_IF_ERROR(ScanPrefix(db, kCfLog, prefix, [&](std::string_view key, std::string_view v) {
    const std::uint64_t seq = LogKeySequence(key);
    if (seq != next && !numbering_reported) {
      problems.Add("log record " + std::to_string(seq) + " where " + std::to_string(next) +
                   " was due");
      numbering_reported = true;
    }
    next = seq + 1;
    auto r = DecodeRecord(v);
    if (!r.ok()) {
      problems.Add("log record " + std::to_string(seq) + ": " + std::string(r.status().message()));
      return true;
    }
    log->seq_of_id[RecordIdOfBytes(v)] = seq;
    log->records.push_back(std::move(r).value());
    return true;
  }));
  std::uint64_t ids = 0;
  ZS_RETURN_IF_ERROR(ScanPrefix(db, kCfIds, prefix, [&](std::string_view key, std::string_view v) {
    ++ids;
    const std::string id(key.substr(prefix.size()));
    auto it = log->seq_of_id.find(id);
    if (v.size() != 8 || it == log->seq_of_id.end() || it->second != ReadBigEndian64(v)) {
      problems.Add("ids entry " + id + " does not name its log record");
    }
    return true;
  }));
  if (ids != log->seq_of_id.size()) {
    problems.Add(std::to_string(log->seq_of_id.size()) + " log records but " +
                 std::to_string(ids) + " ids entries");
  }
  return Status::OK();
}

// Every record the snapshot implies must be in the log.
void CheckSnapshotRecordsLogged(const DeployedPackage& pkg, const LogContents& log,
                                const Problems& problems) {
  for (const SnapshotRecord& r : SnapshotRecords(pkg)) {
    std::string encoded;
    r.AppendEncoded(&encoded);
    if (log.seq_of_id.count(RecordIdOfBytes(encoded)) == 0) {
      problems.Add("the snapshot's " + std::string(RecordKindName(r.kind)) + " at " +
                   FormatRfc3339(r.time()) + " is not in the log");
    }
  }
}

// Secrets may be ingested in any order, and a Secret says nothing about
// the order of its events against another Secret's but their times: the
// cache's history is its package events in time order (and, unlike the
// fold, goes on across a remove that deleted the Secret). An event dated
// beyond the clock skew has no usable time: it keeps its place in record
// order, right after the event logged before it, so a year-3000 event
// cannot move behind events recorded after it.
std::vector<PackageEvent> HistoryOf(const std::vector<Record>& records) {
  std::vector<std::pair<Timestamp, PackageEvent>> keyed;
  const Timestamp now = Timestamp::Now();
  Timestamp last_sane;  // the epoch until a sane time is seen
  for (const Record& r : records) {
    if (r.kind != RecordKind::kPackageEvent) continue;
    if (const std::optional<Timestamp> t = SaneTime(r.event.timestamp, now)) last_sane = *t;
    keyed.emplace_back(last_sane, r.event);
  }
  std::stable_sort(keyed.begin(), keyed.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<PackageEvent> history;
  history.reserve(keyed.size());
  for (auto& [time, event] : keyed) history.push_back(std::move(event));
  return history;
}

// The log must fold, its history must end with exactly the snapshot's
// events, and both must give the same derived status.
void CheckHistory(const std::vector<Record>& records, const DeployedPackage& pkg,
                  const Problems& problems) {
  auto folded = Fold(records, FoldOptions{0});
  if (!folded.ok()) {
    problems.Add("the log does not fold: " + std::string(folded.status().message()));
    return;
  }
  DeployedPackage ordered;
  ordered.events = HistoryOf(records);
  const std::vector<PackageEvent>& history = ordered.events;
  std::vector<PackageEvent> stored;
  for (const PackageEvent& e : pkg.events) {
    if (IsV2Event(e)) stored.push_back(e);
  }
  if (stored.size() > history.size()) {
    problems.Add("the snapshot has " + std::to_string(stored.size()) + " events, the log only " +
                 std::to_string(history.size()));
  } else {
    const std::size_t offset = history.size() - stored.size();
    for (std::size_t i = 0; i < stored.size(); ++i) {
      if (EventText(stored[i]) != EventText(history[offset + i])) {
        problems.Add("events[" + std::to_string(i) + "] is " + ShownEventText(stored[i]) +
                     " but the log's history has " + ShownEventText(history[offset + i]));
        break;
      }
    }
  }
  if (LatestEventSummary(ordered) != LatestEventSummary(pkg) ||
      InProgressSince(ordered) != InProgressSince(pkg)) {
    problems.Add("derived status of the log (" + LatestEventSummary(ordered) +
                 ") differs from the snapshot's (" + LatestEventSummary(pkg) + ")");
  }
}

}  // namespace

Status CacheImpl::VerifyPackage(std::string_view package, std::string_view meta_bytes,
                                std::vector<std::vector<std::string>>* expected,
                                VerifyReport* report) const {
  const Problems problems(package, report);
  auto meta = DecodeMeta(package, meta_bytes);
  if (!meta.ok()) {
    problems.Add(std::string(meta.status().message()));
    return Status::OK();
  }
  std::string payload;
  ZS_ASSIGN_OR_RETURN(bool found, db_->Get(kCfSnapshots, package, &payload));
  if (!found) {
    problems.Add("no snapshot");
    return Status::OK();
  }
  auto pkg = DecodePackagePayload(payload, 0, DefinitionParts::kSummary);
  if (!pkg.ok()) {
    problems.Add("snapshot does not decode: " + std::string(pkg.status().message()));
    return Status::OK();
  }
  if (PackageKey(*pkg) != package) problems.Add("snapshot is of package " + PackageKey(*pkg));
  CheckStatusRecord(meta->status, *pkg, problems);
  std::string entry;
  for (const IndexTerm& t : SnapshotTerms(*pkg, /*repositories=*/false)) {
    entry.clear();
    if (AppendIndexEntryKey(&entry, t.kind, t.term, package, db_->format())) {
      (*expected)[IndexCf(t.kind)].push_back(entry);
    }
  }
  std::string prefix;
  AppendLengthPrefixed(&prefix, package);
  LogContents log;
  ZS_RETURN_IF_ERROR(CheckLog(*db_, prefix, problems, &log));
  report->records += log.records.size();
  CheckSnapshotRecordsLogged(*pkg, log, problems);
  CheckHistory(log.records, *pkg, problems);
  return Status::OK();
}

Result<VerifyReport> CacheImpl::Verify(const VerifyProgress& progress) const {
  VerifyReport report;
  std::vector<std::vector<std::string>> expected(kCfCount);
  std::set<std::string, std::less<>> packages;
  Status error;
  ZS_RETURN_IF_ERROR(ScanPrefix(*db_, kCfPackages, "", [&](std::string_view key, std::string_view v) {
    ++report.packages;
    packages.emplace(key);
    error = VerifyPackage(key, v, &expected, &report);
    if (progress) progress("packages", report.packages);
    return error.ok();
  }));
  ZS_RETURN_IF_ERROR(error);
  ZS_ASSIGN_OR_RETURN(std::vector<std::string> logged, log_.Packages());
  for (const std::string& p : logged) {
    if (packages.count(p) == 0) report.problems.push_back("package " + p + ": a log but no snapshot");
  }
  std::uint64_t indexes_done = 0;
  for (int cf : {kCfImage, kCfComponent, kCfOutcome, kCfSource}) {
    if (progress) progress("indexes", indexes_done++);
    std::vector<std::string>& want = expected[cf];
    std::sort(want.begin(), want.end());
    std::vector<std::string> have;
    ZS_RETURN_IF_ERROR(ScanPrefix(*db_, cf, "", [&](std::string_view key, std::string_view) {
      have.emplace_back(key);
      return true;
    }));
    report.index_entries += have.size();
    std::sort(have.begin(), have.end());
    std::vector<std::string> missing, extra;
    std::set_difference(want.begin(), want.end(), have.begin(), have.end(),
                        std::back_inserter(missing));
    std::set_difference(have.begin(), have.end(), want.begin(), want.end(),
                        std::back_inserter(extra));
    for (const std::string& k : missing) {
      report.problems.push_back("missing index entry: " + DescribeIndexKey(cf, k));
    }
    for (const std::string& k : extra) {
      report.problems.push_back("extra index entry: " + DescribeIndexKey(cf, k));
    }
  }
  return report;
}

}  // namespace zs::engine::internal
