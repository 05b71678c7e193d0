#include "engine/replay_verify.h"

#include <utility>

#include "model/credentials.h"
#include "engine/derived_status.h"
#include "base/terminal_text.h"

namespace zs::tools {
namespace {

// Whether a drift entry's values print as kRedacted (see the header).
bool Hidden(const std::string& path, const std::vector<std::string>& sensitive) {
  return path.starts_with("(") || IsCredentialPath(path, sensitive);
}

void PrintDriftLine(const std::string& path, const engine::Drift& d, bool hide, std::ostream& out) {
  out << "  " << TerminalText(path) << ": stored "
      << (hide ? std::string(kRedacted) : TerminalText(d.stored)) << ", expected "
      << (hide ? std::string(kRedacted) : TerminalText(d.folded)) << "\n";
}

json::Value DriftDocument(const std::string& path, const engine::Drift& d, bool hide) {
  return json::Value::MakeObject(
      {{"path", json::Value::String(path)},
       {"stored", json::Value::String(hide ? std::string(kRedacted) : d.stored)},
       {"expected", json::Value::String(hide ? std::string(kRedacted) : d.folded)}});
}

}  // namespace

void ReplayVerification::PrintText(std::ostream& out) const {
  if (cache) {
    out << "verify: " << TerminalText(subject) << ": ";
    if (problems.empty()) {
      out << "no drift\n";
      return;
    }
    out << problems.size() << " problem(s)\n";
    for (const std::string& p : problems) out << "  " << TerminalText(p) << "\n";
    return;
  }
  if (ok()) {
    out << "verify: " << TerminalText(subject) << ": no drift\n";
    return;
  }
  out << "verify: " << TerminalText(subject) << ": " << drift.size() + checkpoints.size()
      << " field(s) differ\n";
  for (const engine::Drift& d : drift) PrintDriftLine(d.path, d, Hidden(d.path, sensitive), out);
  for (const CheckpointDrift& c : checkpoints) {
    const std::string path = c.Path();
    PrintDriftLine(path, c.drift, Hidden(path, sensitive), out);
  }
}

json::Value ReplayVerification::ToDocument() const {
  json::Value doc = json::Value::MakeObject(
      {{"ok", json::Value::Bool(ok())}, {"subject", json::Value::String(subject)}});
  if (cache) {
    json::Value list = json::Value::MakeArray();
    for (const std::string& p : problems) list.array().push_back(json::Value::String(p));
    doc.Set("problems", std::move(list));
    return doc;
  }
  json::Value list = json::Value::MakeArray();
  for (const engine::Drift& d : drift) {
    list.array().push_back(DriftDocument(d.path, d, Hidden(d.path, sensitive)));
  }
  doc.Set("drift", std::move(list));
  if (!checkpoints_checked) return doc;
  json::Value points = json::Value::MakeArray();
  for (const CheckpointDrift& c : checkpoints) {
    json::Value entry = DriftDocument(c.drift.path, c.drift, Hidden(c.Path(), sensitive));
    json::Value with_record = json::Value::MakeObject(
        {{"afterRecord", json::Value::Int(static_cast<std::int64_t>(c.after_record))}});
    for (auto& [k, v] : entry.object()) with_record.Set(k, std::move(v));
    points.array().push_back(std::move(with_record));
  }
  doc.Set("checkpoints", std::move(points));
  doc.Set("checkpointsChecked",
          json::Value::Int(static_cast<std::int64_t>(*checkpoints_checked)));
  return doc;
}

void AppendOverlaps(const std::vector<PackageEvent>& events, std::vector<engine::Drift>* out) {
  for (const engine::Overlap& o : engine::OverlappedOperations(events)) {
    const PackageEvent& e = events[o.begin];
    const PackageEvent& by = events[o.overlapped_by];
    out->push_back({"events[" + std::to_string(o.begin) + "]",
                    e.type + "/InProgress at " + FormatRfc3339(e.timestamp) +
                        ", still open when events[" + std::to_string(o.overlapped_by) + "] " +
                        by.type + "/InProgress began at " + FormatRfc3339(by.timestamp),
                    "closed before the next operation begins (one operation at a time; "
                    "`record abandon` closes every open one)"});
  }
}

std::vector<engine::Drift> CheckInvariants(const DeployedPackage& pkg, std::size_t cap) {
  std::vector<engine::Drift> out;
  if (cap != 0 && pkg.events.size() > cap) {
    out.push_back({"events", std::to_string(pkg.events.size()) + " events", "at most " + std::to_string(cap)});
  }
  const PackageEvent* last_success = nullptr;
  for (std::size_t i = 0; i < pkg.events.size(); ++i) {
    const PackageEvent& e = pkg.events[i];
    const std::string path = "events[" + std::to_string(i) + "]";
    if (!IsV2Event(e)) out.push_back({path, e.type + "/" + e.outcome, "a v2 type and outcome"});
    if (e.type == kEventRemove && !e.source.empty()) {
      out.push_back({path + ".source", e.source, "empty: source is set on Deploy events only"});
    }
    if (e.type == kEventDeploy && e.outcome == kOutcomeSucceeded) last_success = &e;
  }
  AppendOverlaps(pkg.events, &out);
  if (last_success != nullptr && pkg.config_digest != last_success->config_digest) {
    out.push_back({"configDigest", pkg.config_digest, last_success->config_digest +
                                                          " (the newest successful deploy's)"});
  }
  if (pkg.deployed_components) {
    for (std::size_t i = 0; i < pkg.deployed_components->size(); ++i) {
      const DeployedComponent& c = (*pkg.deployed_components)[i];
      if (!c.last_event || c.last_event->outcome == kOutcomeCancelled) continue;
      const ComponentEvent& e = *c.last_event;
      std::string want;
      if (e.outcome == kOutcomeFailed) want = std::string(kStatusFailed);
      else if (e.type == kEventDeploy) want = std::string(e.outcome == kOutcomeInProgress ? kStatusDeploying : kStatusSucceeded);
      else if (e.outcome == kOutcomeInProgress) want = std::string(kStatusRemoving);
      if (!want.empty() && c.status != want) {
        out.push_back({"deployedComponents[" + std::to_string(i) + "].status", c.status,
                       want + " (from lastEvent " + e.type + "/" + e.outcome + ")"});
      }
    }
  }
  return out;
}

}  // namespace zs::tools
