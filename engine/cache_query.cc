// Queries of the cache: status records, index lookups and history.
#include <algorithm>

#include "engine/image_ref.h"
#include "engine/internal/cache_impl.h"

namespace zs::engine::internal {
namespace {

bool Matches(const Record& r, const HistoryFilter& f) {
  std::string_view type, outcome;
  if (r.kind == RecordKind::kPackageEvent) {
    type = r.event.type;
    outcome = r.event.outcome;
  } else if (r.kind == RecordKind::kComponentEvent) {
    if (!f.components) return false;
    type = r.component_event.type;
    outcome = r.component_event.outcome;
  } else {
    return false;
  }
  if (!f.type.empty() && f.type != type) return false;
  if (!f.outcome.empty() && f.outcome != outcome) return false;
  const Timestamp t = r.time();
  if (f.since && t < *f.since) return false;
  if (f.until && *f.until < t) return false;
  return true;
}

}  // namespace

Result<PackageStatus> CacheImpl::StatusOf(std::string_view package) const {
  ZS_ASSIGN_OR_RETURN(std::optional<PackageMeta> meta, ReadMeta(package));
  if (!meta) return Status::NotFound("package " + std::string(package) + " is not in the cache");
  return std::move(meta->status);
}

Result<std::vector<PackageStatus>> CacheImpl::Statuses() const {
  std::vector<PackageStatus> out;
  Status error;
  ZS_RETURN_IF_ERROR(ScanPrefix(*db_, kCfPackages, "", [&](std::string_view key, std::string_view v) {
    auto meta = DecodeMeta(key, v);
    if (!meta.ok()) {
      error = meta.status();
      return false;
    }
    out.push_back(std::move(meta->status));
    return true;
  }));
  ZS_RETURN_IF_ERROR(error);
  return out;
}

Result<std::string> CacheImpl::SnapshotPayload(std::string_view package) const {
  std::string value;
  ZS_ASSIGN_OR_RETURN(bool found, db_->Get(kCfSnapshots, package, &value));
  if (!found) return Status::NotFound("package " + std::string(package) + " is not in the cache");
  return value;
}

Result<std::vector<std::string>> CacheImpl::Lookup(IndexKind kind, std::string_view term) const {
  std::string prefix;
  AppendLengthPrefixed(&prefix, StoredTerm(kind, term));
  std::vector<std::string> out;
  ZS_RETURN_IF_ERROR(ScanPrefix(*db_, IndexCf(kind), prefix, [&](std::string_view key, std::string_view) {
    out.emplace_back(key.substr(prefix.size()));
    return true;
  }));
  return out;  // keys are sorted, so packages are too
}

Result<std::vector<std::string>> CacheImpl::FindImage(std::string_view image,
                                                      bool by_repository) const {
  auto ref = ParseImageRef(image);
  if (!ref.ok()) return Lookup(IndexKind::kImage, image);  // indexed verbatim
  if (by_repository) return Lookup(IndexKind::kRepository, ref->Name());
  std::string key;
  AppendImageKey(&key, *ref);
  return Lookup(IndexKind::kImage, key);
}

Result<std::vector<HistoryEntry>> CacheImpl::History(std::string_view package,
                                                     const HistoryFilter& filter) const {
  std::vector<std::pair<std::uint64_t, Record>> all;
  ZS_RETURN_IF_ERROR(log_.ReadWithSequence(package, &all));
  if (all.empty()) {
    ZS_ASSIGN_OR_RETURN(std::optional<PackageMeta> meta, ReadMeta(package));
    if (!meta) return Status::NotFound("package " + std::string(package) + " is not in the cache");
  }
  std::vector<HistoryEntry> out;
  for (auto& [seq, r] : all) {
    if (Matches(r, filter)) out.push_back({seq, std::move(r)});
  }
  return out;
}

}  // namespace zs::engine::internal
