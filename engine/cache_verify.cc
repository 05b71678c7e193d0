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

}  // namespace

Status CacheImpl::VerifyPackage(std::string_view package, std::string_view meta_bytes,
                                std::vector<std::vector<std::string>>* expected,
                                VerifyReport* report) const {
  const std::string who = "package " + std::string(package) + ": ";
  auto problem = [&](const std::string& what) { report->problems.push_back(who + what); };
  auto meta = DecodeMeta(package, meta_bytes);
  if (!meta.ok()) {
    problem(std::string(meta.status().message()));
    return Status::OK();
  }
  std::string payload;
  ZS_ASSIGN_OR_RETURN(bool found, db_->Get(kCfSnapshots, package, &payload));
  if (!found) {
    problem("no snapshot");
    return Status::OK();
  }
  auto pkg = DecodePackagePayload(payload, 0, DefinitionParts::kSummary);
  if (!pkg.ok()) {
    problem("snapshot does not decode: " + std::string(pkg.status().message()));
    return Status::OK();
  }
  if (PackageKey(*pkg) != package) problem("snapshot is of package " + PackageKey(*pkg));

  // The status record against the snapshot.
  PackageStatus want = meta->status;
  FillStatus(*pkg, &want);
  const PackageStatus& have = meta->status;
  if (have.latest != want.latest || have.latest_time != want.latest_time) {
    problem("status record says latest " + have.latest + " at " + TimeText(have.latest_time) +
            ", the snapshot " + want.latest + " at " + TimeText(want.latest_time));
  }
  if (have.in_progress_since != want.in_progress_since) {
    problem("status record says in progress since " + TimeText(have.in_progress_since) +
            ", the snapshot " + TimeText(want.in_progress_since));
  }
  if (have.name != want.name || have.version != want.version || have.generation != want.generation) {
    problem("status record's name/version/generation differ from the snapshot's");
  }
  const std::vector<IndexTerm> terms = SnapshotTerms(*pkg, /*repositories=*/false);
  std::string entry;
  for (const IndexTerm& t : terms) {
    entry.clear();
    if (AppendIndexEntryKey(&entry, t.kind, t.term, package, db_->format())) {
      (*expected)[IndexCf(t.kind)].push_back(entry);
    }
  }

  // The log and its identities.
  std::string prefix;
  AppendLengthPrefixed(&prefix, package);
  std::vector<Record> records;
  std::map<std::string, std::uint64_t> id_of_seq_record;  // id -> seq, from the log
  std::uint64_t next = 1;
  bool numbering_reported = false;
  ZS_RETURN_IF_ERROR(ScanPrefix(*db_, kCfLog, prefix, [&](std::string_view key, std::string_view v) {
    const std::uint64_t seq = LogKeySequence(key);
    if (seq != next && !numbering_reported) {
      problem("log record " + std::to_string(seq) + " where " + std::to_string(next) + " was due");
      numbering_reported = true;
    }
    next = seq + 1;
    auto r = DecodeRecord(v);
    if (!r.ok()) {
      problem("log record " + std::to_string(seq) + ": " + std::string(r.status().message()));
      return true;
    }
    id_of_seq_record[RecordIdOfBytes(v)] = seq;
    records.push_back(std::move(r).value());
    return true;
  }));
  report->records += records.size();
  std::uint64_t ids = 0;
  ZS_RETURN_IF_ERROR(ScanPrefix(*db_, kCfIds, prefix, [&](std::string_view key, std::string_view v) {
    ++ids;
    const std::string id(key.substr(prefix.size()));
    auto it = id_of_seq_record.find(id);
    if (v.size() != 8 || it == id_of_seq_record.end() || it->second != ReadBigEndian64(v)) {
      problem("ids entry " + id + " does not name its log record");
    }
    return true;
  }));
  if (ids != id_of_seq_record.size()) {
    problem(std::to_string(id_of_seq_record.size()) + " log records but " + std::to_string(ids) +
            " ids entries");
  }
  for (const SnapshotRecord& r : SnapshotRecords(*pkg)) {
    std::string encoded;
    r.AppendEncoded(&encoded);
    if (id_of_seq_record.count(RecordIdOfBytes(encoded)) == 0) {
      problem("the snapshot's " + std::string(RecordKindName(r.kind)) + " at " +
              FormatRfc3339(r.time()) + " is not in the log");
    }
  }

  // The fold of the log against the snapshot.
  auto folded = Fold(records, FoldOptions{0});
  if (!folded.ok()) {
    problem("the log does not fold: " + std::string(folded.status().message()));
    return Status::OK();
  }
  // Secrets may be ingested in any order, and a Secret says nothing about
  // the order of its events against another Secret's but their times: the
  // cache's history is its package events in time order (and, unlike the
  // fold, goes on across a remove that deleted the Secret). An event dated
  // beyond the clock skew has no usable time: it keeps its place in record
  // order, right after the event logged before it, so a year-3000 event
  // cannot move behind events recorded after it.
  DeployedPackage ordered;
  std::vector<PackageEvent>& history = ordered.events;
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
  for (auto& [time, event] : keyed) history.push_back(std::move(event));
  std::vector<PackageEvent> stored;
  for (const PackageEvent& e : pkg->events) {
    if (IsV2Event(e)) stored.push_back(e);
  }
  if (stored.size() > history.size()) {
    problem("the snapshot has " + std::to_string(stored.size()) + " events, the log only " +
            std::to_string(history.size()));
  } else {
    const std::size_t offset = history.size() - stored.size();
    for (std::size_t i = 0; i < stored.size(); ++i) {
      if (EventText(stored[i]) != EventText(history[offset + i])) {
        problem("events[" + std::to_string(i) + "] is " + ShownEventText(stored[i]) +
                " but the log's history has " + ShownEventText(history[offset + i]));
        break;
      }
    }
  }
  if (LatestEventSummary(ordered) != LatestEventSummary(*pkg) ||
      InProgressSince(ordered) != InProgressSince(*pkg)) {
    problem("derived status of the log (" + LatestEventSummary(ordered) +
            ") differs from the snapshot's (" + LatestEventSummary(*pkg) + ")");
  }
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
