#include "engine/history_view.h"

#include <algorithm>
#include <map>
#include <string>
#include <utility>

#include "kube/package_secret.h"

namespace zs::engine {
namespace {

bool SameEvent(const PackageEvent& a, const PackageEvent& b) {
  return a.type == b.type && a.outcome == b.outcome && a.timestamp == b.timestamp;
}

}  // namespace

DeployedPackage WithHistory(DeployedPackage snapshot, const std::vector<HistoryEntry>& history) {
  std::vector<PackageEvent> events;
  std::map<std::string, const ComponentEvent*, std::less<>> last_of;
  for (const HistoryEntry& h : history) {
    if (h.record.kind == RecordKind::kPackageEvent) {
      events.push_back(h.record.event);
    } else if (h.record.kind == RecordKind::kComponentEvent) {
      last_of[h.record.component] = &h.record.component_event;
    }
  }
  const std::size_t logged = events.size();
  for (PackageEvent& e : snapshot.events) {
    const auto end = events.begin() + static_cast<std::ptrdiff_t>(logged);
    const bool known = std::any_of(events.begin(), end,
                                   [&](const PackageEvent& h) { return SameEvent(h, e); });
    if (!known) events.push_back(std::move(e));
  }
  snapshot.events = std::move(events);
  if (snapshot.deployed_components) {
    for (DeployedComponent& c : *snapshot.deployed_components) {
      auto it = last_of.find(c.name);
      if (it == last_of.end()) continue;
      if (c.last_event && it->second->timestamp < c.last_event->timestamp) continue;
      c.last_event = *it->second;
    }
  }
  return snapshot;
}

Result<DeployedPackage> CachedPackage(const Cache& cache, std::string_view package) {
  ZS_ASSIGN_OR_RETURN(std::string payload, cache.SnapshotPayload(package));
  auto snapshot = DecodePackagePayload(payload);
  if (!snapshot.ok()) {
    return Status::Corruption("package " + std::string(package) +
                              ": the cached snapshot does not decode: " +
                              std::string(snapshot.status().message()));
  }
  ZS_ASSIGN_OR_RETURN(std::vector<HistoryEntry> history, cache.History(package, HistoryFilter{}));
  return WithHistory(std::move(snapshot).value(), history);
}

}  // namespace zs::engine
