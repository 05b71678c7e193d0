#include "cli/report_inputs.h"

#include <algorithm>
#include <functional>
#include <map>

#include "compact/compact.h"
#include "model/credentials.h"
#include "json/json_reader.h"
#include "model/model_json.h"
#include "kube/compact_figure.h"
#include "kube/package_secret.h"
#include "kube/secret.h"
#include "engine/cache.h"
#include "engine/derived_status.h"
#include "engine/history_view.h"
#include "engine/zarf_charts.h"
#include "migrate/format.h"
#include "cli/common.h"
#include "cli/notes.h"
#include "cli/output.h"
#include "cli/process_limits.h"
#include "cli/state_record.h"

namespace zs::tools {
namespace {

using json::Value;

// The init-state fields a summary may show: none holds a credential in any
// Zarf era (agentTLS is shown only as present or not).
constexpr std::pair<const char*, const char*> kInitStateFields[] = {
    {"distro", "distro"},
    {"architecture", "architecture"},
    {"storageClass", "storage class"},
    {"ipFamily", "IP family"},
    {"zarfAppliance", "appliance"},
    {"agentMutationPolicy", "agent mutation policy"},
    {"registryInfo.address", "registry"},
    {"registryInfo.registryMode", "registry mode"},
    {"registryInfo.nodePort", "registry node port"},
    {"nodePort", "registry node port"},
    {"registryInfo.internalRegistry", "registry internal"},
    {"registryInfo.mtlsStrategy", "registry mTLS"},
    {"gitServer.address", "git server"},
    {"gitServer.internalServer", "git server internal"},
    {"artifactServer.address", "artifact server"},
    {"artifactServer.internalServer", "artifact server internal"},
};

const Value* FindPath(const Value& root, std::string_view path) {
  const Value* v = &root;
  while (v != nullptr) {
    const std::size_t dot = path.find('.');
    v = v->Find(path.substr(0, dot));
    if (dot == std::string_view::npos) return v;
    path.remove_prefix(dot + 1);
  }
  return nullptr;
}

std::string Scalar(const Value& v) {
  if (v.is_string()) return v.as_string().find("://") != std::string::npos ? ScrubSource(v.as_string()) : v.as_string();
  if (v.is_number()) return v.number_raw();
  if (v.is_bool()) return v.as_bool() ? "true" : "false";
  return "";
}

ReportInitState SummarizeInitState(const InputObject& in, Value state) {
  ReportInitState s;
  s.source = in.label;
  s.secret_bytes = in.payload.size();
  // Redacted first, so that a credential that moved into a listed field in
  // some future era is still not shown.
  RedactCredentials(&state);
  for (const auto& [path, label] : kInitStateFields) {
    const Value* v = FindPath(state, path);
    if (v == nullptr) continue;
    const std::string text = Scalar(*v);
    if (!text.empty()) s.fields.emplace_back(label, text);
  }
  const Value* tls = state.Find("agentTLS");
  s.fields.emplace_back("agent TLS", tls != nullptr && tls->is_object() && !tls->object().empty()
                                         ? "present (not shown)"
                                         : "none");
  return s;
}

// Marks version and config-digest changes along package events, oldest first.
void MarkChanges(std::vector<ReportEvent>* events) {
  std::string version, config;
  bool first = true;
  for (ReportEvent& e : *events) {
    if (!e.component.empty()) continue;
    e.version_changed = !first && e.version != version;
    e.config_changed = !e.config_digest.empty() && !config.empty() && e.config_digest != config;
    version = e.version;
    if (!e.config_digest.empty()) config = e.config_digest;
    first = false;
  }
}

ReportEvent FromPackageEvent(const PackageEvent& e, const Timestamp& now) {
  ReportEvent r;
  r.type = e.type;
  r.outcome = e.outcome;
  r.time = FormatRfc3339(e.timestamp);
  r.age = FormatAge(e.timestamp, now);
  r.version = e.version;
  r.digest = e.digest;
  r.config_digest = e.config_digest;
  return r;
}

// With a history, the running version and a later attempt at another one
// that did not succeed (ReportPackage::version_note).
void SetVersions(const engine::PackageState& state, ReportPackage* p) {
  if (state.basis != engine::StatusBasis::kEvents) return;
  p->version = state.deployed_version;
  p->version_note.clear();
  const PackageEvent* e = state.latest;
  if (e->type != kEventDeploy || e->outcome == kOutcomeSucceeded) return;
  const std::string attempted = e->version.empty() ? p->stored_version : e->version;
  if (attempted.empty() || attempted == p->version) return;
  const std::string_view what = e->outcome == kOutcomeFailed       ? "failed"
                                : e->outcome == kOutcomeInProgress ? "in progress"
                                : e->outcome == kOutcomeCancelled  ? "cancelled"
                                                                   : "";
  if (!what.empty()) p->version_note = attempted + " " + std::string(what);
}

// The latest event, its time and an open operation's age of `pkg`, as `p`
// shows them (the derived status, cli/state_record.h), and the versions.
void SetLatest(const DeployedPackage& pkg, const Timestamp& now, ReportPackage* p) {
  const engine::PackageState state = engine::DerivePackageState(pkg);
  p->latest = StateCell(state);
  p->latest_outcome = std::string(StateOutcome(state));
  p->latest_time = state.latest ? FormatRfc3339(state.latest->timestamp) : "";
  p->latest_age = state.latest ? FormatAge(state.latest->timestamp, now) : "";
  SetVersions(state, p);
  p->interrupted_component = state.interrupted_component;
  p->in_progress_seconds.reset();
  if (auto since = engine::InProgressSince(pkg)) {
    p->in_progress_seconds = (now.unix_nanos() - since->unix_nanos()) / 1000000000;
  }
}

ReportPackage Summarize(const InputObject& in, const DeployedPackage& pkg, const Timestamp& now) {
  ReportPackage p;
  p.source = in.label;
  p.secret_name = in.is_secret ? std::string(ObjectName(in.object))
                               : PackageSecretName(pkg.name, pkg.namespace_override);
  p.name = pkg.name;
  const Value* md = pkg.data.Find("metadata");
  p.stored_version = md ? std::string(md->StringOr("version")) : "";
  p.version = p.stored_version;
  std::string why;
  p.format = std::string(migrate::DetectPackageFormat(pkg, &why));
  p.codec = compact::LooksCompact(in.payload) ? "compact" : "json";
  p.secret_bytes = in.payload.size();
  if (in.is_secret) {
    if (auto s = SecretDataSize(in.object); s.ok()) p.secret_bytes = *s;
  }
  const std::string json = EncodeDeployedPackage(pkg);
  p.json_bytes = json.size();
  // zstd level 19 costs milliseconds a package: measured where size measures
  // it (CollectObjects compresses it once the package is released).
  p.compact_measured = CompactFigureWanted(in.payload, p.json_bytes, /*every_secret=*/false);
  p.json_hash = std::hash<std::string>{}(json);
  p.cache_key = engine::PackageKey(pkg);
  SetLatest(pkg, now, &p);
  p.zarf_note = std::string(ZarfCannotRead(in.payload));
  if (pkg.deployed_components) {
    for (const DeployedComponent& c : *pkg.deployed_components) {
      ReportComponent rc;
      rc.name = c.name;
      rc.status = c.status;
      if (c.last_event) {
        rc.last_type = c.last_event->type;
        rc.last_outcome = c.last_event->outcome;
        rc.last_time = FormatRfc3339(c.last_event->timestamp);
        rc.last_age = FormatAge(c.last_event->timestamp, now);
      } else {
        rc.last_outcome = std::string(kOutcomeUnknown);
      }
      if (c.installed_charts) {
        for (const InstalledChart& ch : *c.installed_charts) {
          rc.charts.push_back(engine::ChartKey(ch) +
                              (ch.status.empty() ? "" : " (" + ch.status + ")"));
        }
      }
      p.components.push_back(std::move(rc));
    }
  }
  const std::vector<bool> observed = engine::ObservedEvents(pkg.events);
  for (std::size_t i = 0; i < pkg.events.size(); ++i) {
    p.events.push_back(FromPackageEvent(pkg.events[i], now));
    p.events.back().observed = observed[i];
  }
  MarkChanges(&p.events);
  return p;
}

// A cached history as the timeline shows it; a component event is observed
// when the package event before it is (engine::ObservedEvents).
std::vector<ReportEvent> EventsOf(const std::vector<engine::HistoryEntry>& history,
                                  const Timestamp& now) {
  std::vector<PackageEvent> package_events;
  for (const engine::HistoryEntry& h : history) {
    if (h.record.kind == engine::RecordKind::kPackageEvent) package_events.push_back(h.record.event);
  }
  const std::vector<bool> marks = engine::ObservedEvents(package_events);
  std::vector<ReportEvent> events;
  std::size_t next = 0;
  bool observed = false;
  for (const engine::HistoryEntry& h : history) {
    if (h.record.kind == engine::RecordKind::kPackageEvent) {
      events.push_back(FromPackageEvent(h.record.event, now));
      observed = marks[next++];
      events.back().observed = observed;
    } else if (h.record.kind == engine::RecordKind::kComponentEvent) {
      ReportEvent e;
      e.type = h.record.component_event.type;
      e.outcome = h.record.component_event.outcome;
      e.time = FormatRfc3339(h.record.component_event.timestamp);
      e.age = FormatAge(h.record.component_event.timestamp, now);
      e.component = h.record.component;
      e.observed = observed;
      events.push_back(std::move(e));
    }
  }
  MarkChanges(&events);
  return events;
}

void WarnAbout(const ReportPackage& p, ReportData* data) {
  const std::string who = p.name + " (" + p.source + ")";
  if (!p.zarf_note.empty()) {
    data->warnings.push_back({who, "no Zarf release can read this Secret: " + p.zarf_note});
  }
  if (!p.interrupted_component.empty()) {
    data->warnings.push_back({who, p.latest + ": component " + p.interrupted_component +
                                       " was left unfinished: the operation was interrupted, or "
                                       "is running now (the Secret has no event history)"});
  }
  if (p.in_progress_seconds && *p.in_progress_seconds >= kStaleInProgressSeconds) {
    data->warnings.push_back({who, p.latest + " for " + FormatAge(*p.in_progress_seconds) +
                                       ": stale, or the operation is still running"});
  }
  if (p.secret_bytes >= kSecretWarnBytes) {
    data->warnings.push_back({who, "Secret at " + std::to_string(p.secret_bytes * 100 / kSecretSizeLimit) +
                                       "% of the 1 MiB limit"});
  }
}

}  // namespace

bool CollectObjects(const std::vector<std::string>& files, const Timestamp& now,
                    std::ostream& err, ReportData* data) {
  for (const std::string& f : files) data->inputs.push_back(f);
  // Errors go to `err` as every command prints them, and into the page.
  struct Tee : std::streambuf {
    std::ostream* err;
    std::string line;
    std::vector<std::string>* lines;
    int overflow(int c) override {
      if (c == EOF) return 0;
      err->put(static_cast<char>(c));
      if (c == '\n') {
        lines->push_back(line);
        line.clear();
      } else {
        line += static_cast<char>(c);
      }
      return c;
    }
  };
  std::vector<std::string> errors;
  Tee tee;
  tee.err = &err;
  tee.lines = &errors;
  std::ostream tee_stream(&tee);
  const bool failed = ForEachObject(files, tee_stream, [&](const InputObject& in) -> Status {
    if (in.payload_kind == PayloadKind::kState) {
      auto state = json::ParseJson(in.payload);
      if (!state.ok()) return state.status().WithContext("payload");
      data->init_states.push_back(SummarizeInitState(in, std::move(state).value()));
      return Status::OK();
    }
    Result<compact::Prepared> prepared = Status::NotFound("no package");
    {
      ZS_ASSIGN_OR_RETURN(DeployedPackage pkg, DecodePackagePayload(in.payload));
      data->packages.push_back(Summarize(in, pkg, now));
      if (data->packages.back().compact_measured) prepared = compact::Prepare(pkg);
    }
    // The compact size, compressed once the package is released: zstd's
    // tables and a package near the Secret limit are never held at once.
    if (prepared.ok()) {
      ReleaseFreedMemory();
      if (auto c = compact::Seal(*prepared); c.ok()) data->packages.back().compact_bytes = c->size();
    }
    WarnAbout(data->packages.back(), data);
    return Status::OK();
  });
  SortByUse(&data->packages);
  for (std::string& e : errors) {
    if (IsSkippedSummary(e)) {
      data->notes.push_back(std::move(e));
    } else {
      data->warnings.push_back({"input", std::move(e)});
    }
  }
  return failed;
}

Status AddCacheHistory(const std::string& db, ReportData* data) {
  ZS_ASSIGN_OR_RETURN(std::unique_ptr<engine::Cache> cache, OpenCacheReadOnly(db));
  auto now = ParseRfc3339(data->generated_at);
  if (!now.ok()) return now.status().WithContext("report time");
  for (ReportPackage& p : data->packages) {
    auto history = cache->History(p.cache_key, engine::HistoryFilter{});
    if (!history.ok()) {
      if (history.status().code() == Status::Code::kNotFound) {
        data->warnings.push_back({p.name + " (" + p.source + ")", "not in the cache " + db});
        continue;
      }
      return history.status().WithContext("cache " + db);
    }
    p.events = EventsOf(*history, *now);
    p.history_from_cache = true;
    // A Secret without events (as Zarf writes it) takes its latest event
    // from the cache's history, observed ones included.
    const DeployedPackage logged = engine::WithHistory(DeployedPackage{}, *history);
    if (p.latest_time.empty() && engine::LatestEvent(logged) != nullptr) {
      SetLatest(logged, *now, &p);
    }
    auto snapshot = cache->SnapshotPayload(p.cache_key);
    if (snapshot.ok()) {
      auto cached = DecodePackagePayload(*snapshot);
      if (cached.ok() && std::hash<std::string>{}(EncodeDeployedPackage(*cached)) != p.json_hash) {
        data->warnings.push_back({p.name + " (" + p.source + ")",
                                  "drift: the cache's snapshot of " + p.cache_key +
                                      " differs from this Secret"});
      }
    }
  }
  return Status::OK();
}

}  // namespace zs::tools
