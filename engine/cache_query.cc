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
  ZS_ASSIGN_OR_RETURN(std::optional<PackageMeta> meta,
                      ReadMeta(package));
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
  const IndexLookup lookup = LookupOf(kind, term, db_->format());
  std::vector<std::string> out;
  ZS_RETURN_IF_ERROR(ScanPrefix(*db_, IndexCf(kind), lookup.prefix,
                                [&](std::string_view key, std::string_view) {
    std::string_view package = key.substr(lookup.prefix.size());
    if (lookup.package_after_reference) {
      const std::size_t p = PrefixLength(package);
      package = p == 0 ? std::string_view() : package.substr(p);
    }
    if (!package.empty()) out.emplace_back(package);
    return true;
  }));
  if (lookup.package_after_reference) {
    // One entry per reference: a package with several tags of a repository
    // is named by each.
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
  }
  return out;  // otherwise keys are sorted, so packages are too
}

Result<std::vector<std::string>> CacheImpl::FindImage(std::string_view image,
                                                      bool by_repository) const {
  ImageRefView ref;
  if (!ParseImageRef(image, &ref).ok()) return Lookup(IndexKind::kImage, image);  // verbatim
  std::string term;
  if (by_repository) {
    AppendImageName(&term, ref);
    return Lookup(IndexKind::kRepository, term);
  }
  AppendImageKey(&term, ref);
  return Lookup(IndexKind::kImage, term);
}

Result<std::vector<HistoryEntry>> CacheImpl::History(std::string_view package,
                                                     const HistoryFilter& filter) const {
  std::vector<std::pair<std::uint64_t, Record>> all;
  ZS_RETURN_IF_ERROR(log_.ReadWithSequence(package, &all));
  if (all.empty()) {
    ZS_ASSIGN_OR_RETURN(std::optional<PackageMeta> meta,
                        ReadMeta(package));
    if (!meta) return Status::NotFound("package " + std::string(package) + " is not in the cache");
  }
  std::vector<HistoryEntry> out;
  for (auto& [seq, r] : all) {
    if (Matches(r, filter)) out.push_back({seq, std::move(r)});
  }
  return out;
}

Status CacheImpl::ScanHistory(
    const std::function<bool(std::string_view package, HistoryEntry& entry)>& visit) const {
  // One total-order iteration: no per-package seek or iterator.
  Status error;
  HistoryEntry entry;
  ZS_RETURN_IF_ERROR(ScanPrefix(*db_, kCfLog, "", [&](std::string_view key, std::string_view v) {
    const std::size_t p = PrefixLength(key);
    const std::string_view package = p == 0 ? std::string_view() : key.substr(4, p - 4);
    entry.seq = LogKeySequence(key);
    auto r = DecodeRecord(v);
    if (r.status().code() == Status::Code::kNotFound) return true;  // skippable kind
    if (!r.ok() || entry.seq == 0) {
      error = (r.ok() ? Status::Corruption("malformed key") : r.status())
                  .WithContext("cache: package " + std::string(package) + " record " +
                               std::to_string(entry.seq));
      return false;
    }
    entry.record = std::move(r).value();
    return visit(package, entry);
  }));
  return error;
}

}  // namespace zs::engine::internal
